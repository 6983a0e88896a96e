"""aortic_aneurysm_cad: the AAA size band sets the surveillance interval or the vascular
referral; the risk profile sets the statin step and smoking cessation; never a fluoroquinolone."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "aortic_aneurysm_cad"
RISK = "Increase atorvastatin to 80 mg daily. Start varenicline. Avoid fluoroquinolones."

CORRECT = [
    # terse shorthand, arrows
    """AAA: infrarenal, fusiform, 4.6 cm max diameter, asymptomatic.
    - Aortic duplex US in 12 mo (ordered). No repair now; threshold 5.5 cm in men.
    - Atorvastatin 20 -> 80 mg daily (high-intensity); recheck lipids 6-8 wk.
    - Current smoker: start varenicline, titrate to 1 mg BID x 12 wk.
    - Avoid fluoroquinolones (rupture/dissection risk) - no cipro for cystoscopy.""",
    # letter prose, size in mm elsewhere, 'one year'
    """Dear colleague, his CT shows a fusiform infrarenal abdominal aortic aneurysm measuring
    4.6 cm. At this size he needs surveillance, not repair, so I have ordered a duplex
    ultrasound of the aorta in one year. I am increasing his atorvastatin from 20 mg to 80 mg
    daily, and because he still smokes I have started varenicline. Please ask urology not to use
    ciprofloxacin: fluoroquinolones should be avoided in patients with an aortic aneurysm.""",
    # Markdown table, millimetres, unicode
    """Infrarenal AAA — maximal diameter 46 mm.

    | Issue | Recommendation |
    |---|---|
    | AAA 4.0–4.9 cm | Duplex ultrasound in 12 months (order placed) |
    | LDL 94 on atorvastatin 20 mg | Increase atorvastatin to 80 mg daily |
    | Active smoking | Start varenicline 0.5 mg → 1 mg BID |
    | Cipro prophylaxis | Avoid fluoroquinolones |""",
    # verbose with contingencies and a disclaimer
    """The aneurysm measures 4.6 cm. Repeat aortic duplex ultrasound in 12 months; if it
    reaches 5.5 cm, grows by 1 cm or more in a year, or becomes symptomatic, refer for repair.
    Increase atorvastatin to 80 mg once daily; if LDL stays at or above 70 mg/dL, consider
    ezetimibe. I recommend starting varenicline with counseling. Fluoroquinolones should be
    avoided given the aneurysm (FDA 2018). This e-consult is based on chart review.""",
    # optional vascular referral and a dated stale value are fine
    """AAA 4.6 cm (proximal aorta 2.1 cm on the 2019 ultrasound). Duplex ultrasound in 12
    months. Referral to vascular surgery to establish care. """ + RISK,
]

WRONG = [
    ("aneurysm_size_assessed", "AAA 2.1 cm. Duplex ultrasound in 12 months. " + RISK),
    ("aneurysm_size_assessed", "AAA 5.6 cm. Duplex ultrasound in 12 months. " + RISK),
    ("aneurysm_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 3 years. " + RISK),
    ("aneurysm_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months or in 3 years. "
     + RISK),
    ("aneurysm_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months. Recommend "
     "elective EVAR now. " + RISK),
    ("aneurysm_plan_documented", "AAA 4.6 cm. Could consider a duplex ultrasound at some "
     "point. " + RISK),
    ("aneurysm_plan_documented", "AAA 4.6 cm. No further imaging needed. " + RISK),
    ("risk_factor_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months. Continue "
     "atorvastatin 20 mg; consider increasing to 80 mg later. Start varenicline. Avoid "
     "fluoroquinolones."),
    ("risk_factor_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months. Increase "
     "atorvastatin to 80 mg daily. Advised him to quit smoking. Avoid fluoroquinolones."),
    ("risk_factor_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months. Increase "
     "atorvastatin to 80 mg. Start varenicline. A single dose of ciprofloxacin for cystoscopy "
     "is acceptable."),
    ("risk_factor_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months. Increase "
     "atorvastatin to 80 mg. Start varenicline. Fluoroquinolones are best avoided, but "
     "ciprofloxacin could be used for a single prophylactic dose."),
    ("risk_factor_plan_documented", "AAA 4.6 cm. Duplex ultrasound in 12 months. " + RISK
     + " Alternatively, atorvastatin could be stopped, or continued at the current dose "
     "unchanged; either is reasonable."),
]


def _variant(**wanted: object) -> int:
    def fits(seed: int) -> bool:
        vals = values(TASK, seed)
        return all((vals["risk_profile"][k[5:]] if k.startswith("risk_") else vals[k]) == v
                   for k, v in wanted.items())
    return next(s for s in range(60) if fits(s))


def test_canonical_values():
    vals = values(TASK)
    assert (vals["aaa_cm"], vals["band"], vals["note_min"], vals["note_max"]) == (4.6, "12m", 6, 12)
    assert (vals["window_start"], vals["window_end"], vals["dus_due"]) == (
        "2026-09-13", "2027-05-15", "2027-04-14")
    assert vals["risk_profile"]["name"] == "smoker_moderate" and vals["statin_rxnorm"] == "617310"
    assert not vals["referral_required"]


@pytest.mark.parametrize(("size", "band"), [(3.4, "3y"), (3.8, "3y"), (4.0, "12m"), (4.9, "12m"),
                                            (5.0, "6m"), (5.4, "6m"), (5.5, "repair"),
                                            (6.2, "repair")])
def test_size_bands(size, band):
    assert values(TASK, _variant(aaa_cm=size))["band"] == band


test_correct_notes_pass, test_wrong_notes_fail_their_checkpoint = note_probes(TASK, CORRECT, WRONG)


def test_repair_band_needs_a_referral_not_surveillance():
    seed = _variant(band="repair", risk_smoker=False)
    size = values(TASK, seed)["aaa_cm"]
    risk = " Increase atorvastatin to 80 mg daily. Former smoker, no cessation drug needed." \
           " Avoid fluoroquinolones."
    right = f"AAA {size} cm meets the threshold for elective repair. Urgent referral to vascular" \
            f" surgery for EVAR evaluation." + risk
    assert all(grade_note(TASK, right, seed).values())
    assert not grade_note(TASK, f"AAA {size} cm. Duplex ultrasound in 6 months." + risk,
                          seed)["aneurysm_plan_documented"]
    started = right.replace("Former smoker, no cessation drug needed.", "Start varenicline.")
    assert not grade_note(TASK, started, seed)["risk_factor_plan_documented"]


def test_six_month_band_with_high_intensity_statin():
    seed = _variant(band="6m", risk_statin_state="continue")
    size = values(TASK, seed)["aaa_cm"]
    risk = " Continue atorvastatin 80 mg daily. Start varenicline. Avoid fluoroquinolones."
    right = f"AAA {size} cm. Duplex ultrasound in 6 months and referral to vascular surgery."
    assert all(grade_note(TASK, right + risk, seed).values())
    assert not grade_note(TASK, right.replace("6 months", "12 months") + risk,
                          seed)["aneurysm_plan_documented"]
    assert not grade_note(TASK, f"AAA {size} cm. Duplex ultrasound in 6 months." + risk,
                          seed)["aneurysm_plan_documented"]
    lowered = right + " Reduce atorvastatin to 40 mg. Start varenicline. Avoid fluoroquinolones."
    assert not grade_note(TASK, lowered, seed)["risk_factor_plan_documented"]


def test_three_year_band():
    seed = _variant(band="3y", risk_name="smoker_moderate")
    size = values(TASK, seed)["aaa_cm"]
    assert all(grade_note(TASK, f"AAA {size} cm. Duplex ultrasound in 3 years. " + RISK,
                          seed).values())
    assert not grade_note(TASK, f"AAA {size} cm. Duplex ultrasound in 12 months. " + RISK,
                          seed)["aneurysm_plan_documented"]


def _dus(occurrence: str) -> dict:
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": "93978", "system": "cpt", "category": "imaging",
        "display": "Aortic duplex", "occurrence": occurrence, "reason": "AAA surveillance"}}


@pytest.mark.parametrize(("occurrence", "passed"), [("2027-04-14", True), ("2026-10-14", True),
                                                    ("2029-04-14", False), ("2026-05-01", False)])
def test_surveillance_order_is_dated_by_the_band(occurrence, passed):
    assert run_actions(TASK, [_dus(occurrence)])["aneurysm_followup_ordered"] is passed


def test_fluoroquinolone_order_fails_the_risk_factor_orders():
    statin = {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": "259255", "dose_value": 80,
        "dose_unit": "mg", "frequency": 1, "period_unit": "day"}}
    patch = {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": "198030", "dose_value": 21,
        "dose_unit": "mg", "frequency": 1, "period_unit": "day"}}
    cipro = {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": "309309", "dose_value": 500,
        "dose_unit": "mg", "frequency": 1, "period_unit": "day", "duration_days": 1}}
    assert run_actions(TASK, [statin, patch])["risk_factor_orders"]
    assert not run_actions(TASK, [statin, patch, cipro])["risk_factor_orders"]


# Review fixes (reviews/aortic_aneurysm_cad.md): probes that must now pass or fail.
PLAN = "AAA 4.6 cm. Aortic duplex in 12 months. "


@pytest.mark.parametrize("interval", ["Aortic duplex yearly.", "Aortic duplex every 12 months.",
                                      "Aortic duplex q12 months."])
def test_interval_written_as_a_schedule_passes(interval):  # finding 2
    assert grade_note(TASK, f"AAA 4.6 cm. {interval} {RISK}")["aneurysm_plan_documented"]


@pytest.mark.parametrize("interval", ["Aortic duplex every 3 years.",
                                      "Duplex ultrasound in 12 months or in 3 years."])
def test_wrong_schedule_still_fails(interval):  # finding 2: no weakening
    assert not grade_note(TASK, f"AAA 4.6 cm. {interval} {RISK}")["aneurysm_plan_documented"]


@pytest.mark.parametrize("repair", ["Refer to vascular surgery for EVAR now.",
                                    "He should undergo elective endovascular repair.",
                                    "Refer to vascular surgery for elective repair.",
                                    "Refer for EVAR now."])
def test_repair_planned_below_threshold_fails(repair):  # finding 3
    assert not grade_note(TASK, PLAN + repair + " " + RISK)["aneurysm_plan_documented"]


@pytest.mark.parametrize("trigger", ["If it reaches 5.5 cm, refer to vascular surgery for repair.",
                                     "Refer to vascular surgery for repair if it reaches 5.5 cm.",
                                     "Vascular surgery referral to establish care."])
def test_repair_with_a_trigger_passes(trigger):  # finding 3
    assert grade_note(TASK, PLAN + trigger + " " + RISK)["aneurysm_plan_documented"]


def test_six_month_band_rejects_repair_now():  # finding 3
    seed = _variant(band="6m", risk_statin_state="continue")
    size = values(TASK, seed)["aaa_cm"]
    risk = " Continue atorvastatin 80 mg daily. Start varenicline. Avoid fluoroquinolones."
    base = f"AAA {size} cm. Duplex ultrasound in 6 months."
    assert grade_note(TASK, base + " Referral to vascular surgery to plan repair when it reaches"
                      " 5.5 cm." + risk, seed)["aneurysm_plan_documented"]
    assert not grade_note(TASK, base + " Refer to vascular surgery for elective EVAR now." + risk,
                          seed)["aneurysm_plan_documented"]


@pytest.mark.parametrize("referral", ["Urgent vascular surgery referral for elective repair.",
                                      "Vascular surgery consult for EVAR.",
                                      "He needs a vascular surgery referral for repair."])
def test_repair_band_referral_as_a_noun(referral):  # finding 5
    seed = _variant(band="repair", risk_smoker=False)
    size = values(TASK, seed)["aaa_cm"]
    risk = " Increase atorvastatin to 80 mg daily. Former smoker, no cessation drug needed." \
           " Avoid fluoroquinolones."
    assert grade_note(TASK, f"AAA {size} cm meets the 5.5 cm threshold. {referral}{risk}",
                      seed)["aneurysm_plan_documented"]


@pytest.mark.parametrize(("statin", "passed"), [
    ("Stop atorvastatin and start rosuvastatin 20 mg daily.", True),
    ("Start rosuvastatin 20 mg daily in place of atorvastatin 20 mg.", True),
    ("Stop atorvastatin and start rosuvastatin 10 mg daily.", False),
    ("Stop atorvastatin.", False)])
def test_rosuvastatin_switch(statin, passed):  # finding 6
    note = PLAN + statin + " Start varenicline. Avoid fluoroquinolones."
    assert grade_note(TASK, note)["risk_factor_plan_documented"] is passed


@pytest.mark.parametrize(("statin", "passed"), [
    ("Switch to rosuvastatin 40 mg daily.", True), ("Continue atorvastatin 80 mg daily.", True),
    ("Switch to rosuvastatin 10 mg daily.", False), ("Reduce atorvastatin to 40 mg daily.", False)])
def test_high_intensity_switch_in_the_continue_branch(statin, passed):  # finding 6
    seed = _variant(risk_name="smoker_high")
    size = values(TASK, seed)["aaa_cm"]
    note = f"AAA {size} cm. {statin} Start varenicline. Avoid fluoroquinolones."
    assert grade_note(TASK, note, seed)["risk_factor_plan_documented"] is passed


def _med(code: str, dose: float) -> dict:
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": "mg", "frequency": 1, "period_unit": "day"}}


@pytest.mark.parametrize(("extra", "passed"), [([], True), ([_med("259255", 80)], False),
                                               ([_med("859751", 20)], False)])
def test_one_new_statin_order(extra, passed):  # finding 7
    orders = [_med("259255", 80), _med("198030", 21)] + extra
    assert run_actions(TASK, orders)["risk_factor_orders"] is passed


@pytest.mark.parametrize("size", [
    "4.6 cm infrarenal AAA on CT urogram.",
    "Incidental 4.6 cm fusiform infrarenal AAA on CT urogram.",
    "Assessment: 4.6 cm AAA in a 71-year-old man.",
    "| AAA (CT urogram) | 4.6 cm |\n\n",
    "| AAA (CT 3/3/2026) | 4.6 cm |\n\n",
    "AAA 4.6 cm, 2.5 cm below the renal arteries.",
    "AAA 4.6 x 4.4 cm."])
def test_size_named_with_its_source(size):  # finding 1
    note = f"{size} Aortic duplex in 12 months. {RISK}"
    assert grade_note(TASK, note)["aneurysm_size_assessed"]


@pytest.mark.parametrize(("interval", "passed"), [("Aortic duplex due April 2027.", True),
                                                  ("Aortic duplex due April 2029.", False)])
def test_due_month(interval, passed):  # finding 2
    note = f"AAA 4.6 cm. {interval} {RISK}"
    assert grade_note(TASK, note)["aneurysm_plan_documented"] is passed


STATIN_SMOKING = "Increase atorvastatin to 80 mg daily. Start varenicline. "


@pytest.mark.parametrize(("answer", "passed"), [
    ("Ciprofloxacin prophylaxis is not safe in the setting of his aneurysm; recommend cephalexin"
     " instead.", True),
    ("Cipro prophylaxis: unsafe with AAA - use TMP-SMX.", True),
    ("Is ciprofloxacin prophylaxis safe? No. Use cephalexin instead.", True),
    ("Ciprofloxacin: Not recommended. FDA (2018) warns of aortic aneurysm rupture with"
     " fluoroquinolones.", True),
    ("He should not receive ciprofloxacin.", True),
    ("Use a non-fluoroquinolone antibiotic, or ciprofloxacin if preferred.", False),
    ("Ciprofloxacin prophylaxis is safe.", False),
    ("Ciprofloxacin 500 mg once is fine.", False)])
def test_fluoroquinolone_answer(answer, passed):  # finding 4
    note = PLAN + STATIN_SMOKING + answer
    assert grade_note(TASK, note)["risk_factor_plan_documented"] is passed


@pytest.mark.parametrize(("statin", "passed"), [
    ("Change atorvastatin to rosuvastatin 20 mg daily.", True),
    ("Switch atorvastatin to rosuvastatin 20 mg daily.", True),
    ("Change atorvastatin to rosuvastatin 10 mg daily.", False)])
def test_statin_changed_to_rosuvastatin(statin, passed):  # finding 6
    note = PLAN + statin + " Start varenicline. Avoid fluoroquinolones."
    assert grade_note(TASK, note)["risk_factor_plan_documented"] is passed


@pytest.mark.parametrize(("course", "passed"), [
    ("Varenicline started: 0.5 mg daily x3 d, 0.5 mg BID x4 d, then 1 mg BID for 12 weeks;"
     " quit day 8.", True),
    ("Varenicline started; stop varenicline on day 8.", False)])
def test_quit_day_is_not_a_stop(course, passed):  # corpus c09
    note = PLAN + "Increase atorvastatin to 80 mg daily. " + course + " Avoid fluoroquinolones."
    assert grade_note(TASK, note)["risk_factor_plan_documented"] is passed
