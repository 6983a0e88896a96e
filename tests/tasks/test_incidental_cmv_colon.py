"""incidental_cmv_colon: the derived CrCl and valganciclovir dose, and the note phrasings and
orders its checkpoints must judge on each branch (CMV colitis in a steroid-refractory flare,
latent CMV in quiescent colitis)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "incidental_cmv_colon"
# flare CrCl 82 (900 mg BID), flare CrCl 33 (450 mg daily), remission
HIGH, LOW, REMISSION = 1, 12, 8


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == {"state": "flare"}
    assert (vals["creatinine"], vals["crcl"], vals["egfr"]) == (1.6, 49, 47)
    assert (vals["vgc_mg"], vals["vgc_per_day"], vals["vgc_text"]) == (450, 2, "450 mg twice daily")
    assert vals["vgc_quantity"] == 42


def test_branches_take_their_doses():
    high = values(TASK, HIGH)
    assert (high["crcl"], high["vgc_text"]) == (82, "900 mg twice daily")
    assert (values(TASK, LOW)["crcl"], values(TASK, LOW)["vgc_text"]) == (33, "450 mg once daily")
    assert values(TASK, REMISSION)["profile"]["state"] == "remission"
    states = {values(TASK, n)["profile"]["state"] for n in range(20)}
    doses = {values(TASK, n)["vgc_text"] for n in range(20)}
    assert states == {"flare", "remission"} and len(doses) == 3


FLARE = ("Assessment: CMV colitis superimposed on a steroid-refractory UC flare (no response to "
         "4 weeks of prednisone 40 mg). ")
REM = ("Assessment: UC in remission (Mayo 0-1, quiescent colitis on histology). This is latent "
       "CMV, not CMV colitis: one immunostained cell, no inclusions, no immunosuppression. ")

CORRECT = [
    (None, FLARE + "CrCl 49 mL/min (Cockcroft-Gault).\nPlan: start valganciclovir 450 mg PO BID "
     "x 21 days.\nWeekly CBC and BMP.\nContinue mesalamine; do not stop prednisone abruptly, GI "
     "will plan the taper.\nAdmit for IV ganciclovir if fever or more than 6 bloody stools a day."),
    (None, "Assessment: CMV-related colitis in a flare that has not responded to prednisone 40 mg "
     "daily for 4 weeks. CrCl 49 mL/min.\nPlan: valganciclovir 450 mg twice daily for 3 weeks.\n"
     "CBC with differential every week."),
    (None, "Assessment: high-grade CMV reactivation in the colon in a flare unresponsive to oral "
     "steroids. CrCl 49.\nPlan: valganciclovir 450 mg twice daily for 21 days; if his CrCl rises "
     "above 60, increase to 900 mg twice daily.\nCBC weekly."),
    (None, """| Item | Value |
|---|---|
| Diagnosis | CMV colitis, steroid-refractory ulcerative colitis |
| CrCl | ~49 mL/min |
| Valganciclovir | 450 mg twice daily for 3 weeks |
| Monitoring | CBC with differential weekly |"""),
    (HIGH, FLARE + "Creatinine clearance 82 mL/min.\nRecommendations:\n- Valganciclovir 900 mg "
     "twice daily for 2-3 weeks\n- CBC weekly while on valganciclovir"),
    (LOW, FLARE + "His CrCl is about 33 mL/min, so I started valganciclovir 450 mg once daily "
     "for 21 days. Check a CBC every week."),
    (REMISSION, REM + "No antiviral treatment is needed. Continue mesalamine 4.8 g daily. If he "
     "flares, re-biopsy for CMV and treat with valganciclovir if CMV colitis is confirmed."),
    (REMISSION, REM + "Plan:\n1. Do not start ganciclovir or valganciclovir.\n2. Continue "
     "mesalamine unchanged."),
    (REMISSION, "Assessment: quiescent chronic colitis with incidental CMV (an innocent "
     "bystander), not CMV colitis.\nPlan: no treatment for CMV is needed. Continue mesalamine "
     "4.8 g daily."),
]

WRONG = [
    # wrong band: the full dose with CrCl 49
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 900 mg twice daily. "
     "CBC weekly."),
    # eGFR quoted as the clearance (variant 2: CrCl 54, eGFR 60)
    (2, "treatment_plan_documented", FLARE + "CrCl 60 mL/min. Start valganciclovir 450 mg twice "
     "daily for 21 days. CBC weekly."),
    # hedged, never committed
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Could consider valganciclovir 450 mg "
     "twice daily. CBC weekly."),
    # no blood count monitoring
    (None, "monitoring_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily."),
    # the flare called quiescent / bystander
    (None, "cmv_significance_assessed", "Assessment: quiescent colitis with incidental CMV. "
     "CrCl 49. Start valganciclovir 450 mg twice daily. CBC weekly."),
    # the remission case treated
    (REMISSION, "treatment_plan_documented", REM + "Start valganciclovir 900 mg twice daily for "
     "21 days. Continue mesalamine."),
    # antiviral offered as an untriggered alternative
    (REMISSION, "treatment_plan_documented", REM + "No antiviral is strictly needed, but "
     "valganciclovir 900 mg twice daily would also be reasonable. Continue mesalamine."),
    # remission misread as refractory
    (REMISSION, "cmv_significance_assessed", "Assessment: steroid-refractory colitis with CMV. No "
     "antiviral is needed. Continue mesalamine."),
    # mesalamine stopped
    (REMISSION, "monitoring_documented", REM + "No antiviral is needed. Stop mesalamine."),
    # course far outside 2-3 weeks (finding 4)
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily "
     "for 6 months. CBC weekly."),
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily "
     "for 3 days. CBC weekly."),
    # escalation and other antivirals (finding 5)
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily "
     "for 21 days. If no better in a week, increase to 900 mg twice daily. CBC weekly."),
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily "
     "for 21 days. Alternatively, IV ganciclovir 5 mg/kg every 12 hours. CBC weekly."),
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily "
     "for 21 days and foscarnet. CBC weekly."),
    # abrupt steroid withdrawal (finding 11)
    (None, "treatment_plan_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily "
     "for 21 days. Stop prednisone today. CBC weekly."),
    # CBC deferred past the course (finding 12)
    (None, "monitoring_documented", FLARE + "CrCl 49. Start valganciclovir 450 mg twice daily for "
     "21 days.\nCBC with differential at the 3-month follow-up visit after the course."),
    # remission: the CMV called colitis, or not interpreted (finding 1)
    (REMISSION, "cmv_significance_assessed", "Assessment: UC in remission on mesalamine. The "
     "biopsy shows CMV colitis. No antiviral treatment is needed. Continue mesalamine 4.8 g "
     "daily."),
    (REMISSION, "cmv_significance_assessed", "Assessment: UC in remission. No antiviral needed. "
     "Continue mesalamine."),
    # remission: antiviral on a wrong trigger (finding 8)
    (REMISSION, "treatment_plan_documented", REM + "No antiviral treatment now. If blood CMV PCR "
     "is positive, start valganciclovir 900 mg twice daily."),
    (REMISSION, "treatment_plan_documented", REM + "No antiviral treatment now. If he develops "
     "diarrhea, start valganciclovir 900 mg twice daily."),
    # remission: mesalamine held (finding 9)
    (REMISSION, "monitoring_documented", REM + "No antiviral needed. Hold mesalamine until repeat "
     "biopsy."),
    # low band: the canonical dose
    (LOW, "treatment_plan_documented", FLARE + "CrCl 33. Start valganciclovir 450 mg twice daily. "
     "CBC weekly."),
]


test_a_correct_note_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for variant in (HIGH, LOW, REMISSION):
        assert not all(grade_note(TASK, canonical, variant).values())


def _rx(mg, per_day, code="313566", days=21):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "oral", "frequency": per_day, "period_unit": "day", "duration_days": days}}


def _sr(code, system="loinc"):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": "laboratory"}}


def _msg(text):
    return {"tool": "fhir_communication_create_message", "arguments": {
        "patient": "{patient_id}", "recipient": "prac-pcp-03", "text": text}}


def test_orders_need_the_renal_dose_and_monitoring():
    labs = [_sr("57021-8"), _sr("51990-0")]
    assert run_actions(TASK, [_rx(450, 2), *labs])["antiviral_decision_ordered"] is True
    assert run_actions(TASK, [_rx(900, 2), *labs])["antiviral_decision_ordered"] is False
    assert run_actions(TASK, [_rx(450, 2)])["antiviral_decision_ordered"] is False
    assert run_actions(TASK, [_rx(450, 1), *labs], LOW)["antiviral_decision_ordered"] is True


def test_remission_must_not_order_an_antiviral():
    done = {"tool": "finish", "arguments": {"summary": "Consult complete."}}
    assert run_actions(TASK, [_sr("57021-8"), done], REMISSION)[
        "antiviral_decision_ordered"] is True
    assert run_actions(TASK, [_rx(900, 2), done], REMISSION)["antiviral_decision_ordered"] is False


def test_orders_need_a_2_to_3_week_course_and_no_second_order():
    labs = [_sr("57021-8"), _sr("51990-0")]
    assert run_actions(TASK, [_rx(450, 2, days=14), *labs])["antiviral_decision_ordered"] is True
    assert run_actions(TASK, [_rx(450, 2, days=180), *labs])["antiviral_decision_ordered"] is False
    assert run_actions(TASK, [_rx(450, 2, days=3), *labs])["antiviral_decision_ordered"] is False
    assert run_actions(TASK, [_rx(450, 2), _rx(900, 2), *labs])[
        "antiviral_decision_ordered"] is False
    assert run_actions(TASK, [_rx(450, 1), _rx(450, 2), *labs], LOW)[
        "antiviral_decision_ordered"] is False


@pytest.mark.parametrize("labs", [[("85025", "cpt"), ("80048", "cpt")],
                                  [("85025", "cpt"), ("82565", "cpt")],
                                  [("57021-8", "loinc"), ("80053", "cpt")],
                                  [("69742-5", "loinc"), ("51990-0", "loinc")]])
def test_monitoring_orders_by_cpt_or_loinc(labs):
    actions = [_rx(450, 2), *(_sr(code, system) for code, system in labs)]
    assert run_actions(TASK, actions)["antiviral_decision_ordered"] is True


def test_the_message_must_carry_the_right_plan():
    good = "CMV colitis. I started valganciclovir 450 mg twice daily for 21 days; CBC weekly."
    assert run_actions(TASK, [_msg(good)])["pcp_message_sent"] is True
    for wrong in ("CMV colitis. Do not start valganciclovir; no antiviral needed.",
                  "CMV colitis. Start valganciclovir 900 mg twice daily.",
                  "CMV colitis. Start valganciclovir 450 mg twice daily. Stop prednisone today."):
        assert run_actions(TASK, [_msg(wrong)])["pcp_message_sent"] is False, wrong
    latent = "Latent CMV, not CMV colitis: no antiviral needed. Continue mesalamine."
    assert run_actions(TASK, [_msg(latent)], REMISSION)["pcp_message_sent"] is True
    treat = "CMV on the biopsy: please start valganciclovir 900 mg twice daily for 21 days."
    assert run_actions(TASK, [_msg(treat)], REMISSION)["pcp_message_sent"] is False


def test_ideal_body_weight_gives_the_same_band():
    for n in [None, *range(20)]:
        vals = values(TASK, n)
        assert abs(vals["crcl"] - vals["crcl_ibw"]) <= 4, n
        ibw = 50 + 2.3 * (vals["height_cm"] - 152.4) / 2.54
        assert 1.0 <= vals["weight_kg"] / ibw <= 1.1, n


def test_an_order_in_tablets_counts_its_mg():
    rx = _rx(1, 2)
    rx["arguments"]["dose_unit"] = "tablet"
    assert run_actions(TASK, [rx, _sr("57021-8"), _sr("51990-0")])[
        "antiviral_decision_ordered"] is True


@pytest.mark.parametrize("extra", [
    "Data: Surveillance colonoscopy 2024: quiescent colitis, no CMV.",
    "Once CMV is treated, plan steroid-sparing maintenance to keep him in remission.",
])
def test_remission_history_and_goal_pass(extra):
    verdicts = grade_note(TASK, oracle_note(TASK) + "\n\n" + extra + "\n")
    assert verdicts["cmv_significance_assessed"] is True
