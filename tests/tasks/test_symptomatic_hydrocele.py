"""symptomatic_hydrocele: the derived kidney function and DOAC hold, and the orders and note
phrasings its checkpoints must judge on each branch (simple hydrocele or testicular mass;
apixaban, dabigatran with CrCl >= 50 or dabigatran with CrCl < 50)."""

from __future__ import annotations

from tests.tasks.helpers import grade_note, note_probes, oracle_note, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "symptomatic_hydrocele"
MASS_LONG = 11      # testicular mass, dabigatran, CrCl 41 -> 4-day hold
MASS_APIX = 0       # testicular mass, apixaban, CrCl 56 -> 2-day hold
SIMPLE_APIX = 2     # simple hydrocele, apixaban, CrCl 56 (eGFR 42)
SIMPLE_DABI = 8     # simple hydrocele, dabigatran, CrCl 54 (eGFR 43) -> 2-day hold


def test_canonical_values():
    vals = values(TASK)
    assert (vals["us_profile"], vals["anticoagulant"]) == ("simple", "dabigatran")
    assert (vals["creatinine"], vals["weight_kg"], vals["crcl"], vals["egfr"]) == (
        1.98, 78.2, 46, 39)
    assert vals["ckd_stage"] == "3b"
    assert (vals["hold_days"], vals["hold_min"], vals["hold_max"]) == (4, 4, 5)
    assert [o[0] for o in vals["forbidden_orders"]] == ["an operation on the left or both sides"]
    assert vals["kidney_text"] == "kidney disease"
    assert [o[0] for o in vals["required_orders"]] == ["hydrocelectomy"]


def test_branches():
    mass = values(TASK, MASS_LONG)
    assert (mass["us_profile"], mass["anticoagulant"], mass["crcl"], mass["hold_days"]) == (
        "mass", "dabigatran", 41, 4)
    assert [o[0] for o in mass["required_orders"]] == [
        "radical inguinal orchiectomy", "serum AFP", "serum beta-hCG", "serum LDH"]
    assert values(TASK, MASS_APIX)["hold_days"] == 2
    dabi = values(TASK, SIMPLE_DABI)
    # eGFR below 50 but creatinine clearance above: the short dabigatran hold applies
    assert (dabi["anticoagulant"], dabi["egfr"], dabi["crcl"], dabi["hold_days"]) == (
        "dabigatran", 43, 54, 2)
    # ACC 2017 '>= 72 h' is a floor; the label and ASRA allow longer before spinal anesthesia
    assert (dabi["hold_min"], dabi["hold_max"]) == (2, 4)
    assert (values(TASK, SIMPLE_APIX)["hold_min"], values(TASK, SIMPLE_APIX)["hold_max"]) == (2, 3)
    draws = [values(TASK, n) for n in range(20)]
    assert {v["us_profile"] for v in draws} == {"simple", "mass"}
    assert {(v["anticoagulant"], v["hold_days"]) for v in draws} == {
        ("apixaban", 2), ("dabigatran", 2), ("dabigatran", 4)}
    assert all(not 46 <= v["crcl"] < 54 for v in draws)  # clear of the 50 mL/min cut-off


SIMPLE_OK = ("Scrotal US 12 days ago: large right hydrocele, both testes normal with no "
             "intratesticular mass. CrCl (Cockcroft-Gault) {crcl} mL/min.\n")
MASS_OK = ("Scrotal US 12 days ago: 1.9 cm solid vascular intratesticular mass in the right "
           "testis - testicular cancer until proven otherwise. CrCl {crcl} mL/min.\n")

SIMPLE_PLAN = ("Plan: right hydrocelectomy.\nHold dabigatran 4 days before surgery; resume "
               "48-72 h after. No bridging.")
MASS_PLAN = ("Plan: AFP, beta-hCG, LDH. Radical inguinal orchiectomy. Do not aspirate.\n"
             "Hold dabigatran 4 days before surgery; resume 48-72 h after. No bridging.")


def _note(variant, body):
    return body.format(**values(TASK, variant))


CORRECT = [
    (None, SIMPLE_OK + "Plan: elective right hydrocelectomy (ordered); aspiration alone recurs.\n"
     "Dabigatran: hold 4 days before surgery; resume 48-72 h post-op. No bridging."),
    (None, """Thank you for this consult. The ultrasound shows a simple right hydrocele and the
testes are normal. His creatinine clearance by Cockcroft-Gault is about 45 mL/min. I recommend a
right hydrocelectomy, which I have ordered. Please stop dabigatran 96 hours before surgery and
restart it 2 to 3 days after surgery. Bridging with enoxaparin is not needed."""),
    (None, """| Item | Detail |
|---|---|
| Testes | normal, no intratesticular mass |
| CrCl | 46 mL/min |

Plan: open hydrocelectomy (Jaboulay) as day surgery.

| Drug | Stop | Restart |
|---|---|---|
| Dabigatran | 4 days before surgery | 48-72 h after surgery |

No bridging."""),
    (SIMPLE_DABI, SIMPLE_OK + "I recommend right hydrocelectomy. Hold dabigatran 2 days before "
     "surgery (last dose 3 days before); resume 48-72 hours after. No LMWH bridge."),
    (SIMPLE_APIX, SIMPLE_OK + "Plan: right hydrocelectomy. Hold apixaban 48 hours before "
     "surgery; resume 48-72 hours after. Bridging is not recommended for DOACs."),
    (MASS_LONG, MASS_OK + "Plan: AFP, beta-hCG, LDH today. Urgent right radical inguinal "
     "orchiectomy. Do not aspirate the hydrocele; no scrotal hydrocelectomy or testicular "
     "biopsy.\nDabigatran: stop 4 days before surgery; resume 48-72 hours after. No bridging."),
    (MASS_LONG, """## Assessment
Solid intratesticular mass (R), suspicious for germ cell tumor. CrCl 41 mL/min.
## Plan
- Serum AFP, beta-hCG and LDH
- Right inguinal orchiectomy, urgent
- Hold dabigatran for 4 days pre-op; restart 48 h post-op
- No heparin bridging
## What to avoid
- Needle aspiration / sclerotherapy of the hydrocele
- Trans-scrotal biopsy"""),
    # a longer dabigatran hold with CrCl >= 50 (spinal anesthesia; ACC 2017 floor of 72 h)
    (SIMPLE_DABI, SIMPLE_OK + "Plan: right hydrocelectomy. Hydrocelectomy is usually done under "
     "spinal anesthesia, so hold dabigatran 4 days (96 h) before surgery; resume 48-72 h after. "
     "No bridging."),
    # postoperative-day and conditional restarts
    (None, SIMPLE_OK + "Plan: right hydrocelectomy. Hold dabigatran 4 days before surgery. "
     "Restart dabigatran on postoperative day 2. No bridging."),
    (None, SIMPLE_OK + "Plan: right hydrocelectomy. Hold dabigatran 4 days before surgery. "
     "Restart dabigatran on POD 2-3. No bridging."),
    (None, SIMPLE_OK + "Plan: right hydrocelectomy. Hold dabigatran x4 days pre-op. Resume "
     "dabigatran 2 to 3 days after surgery if there is no scrotal hematoma. No bridging."),
    # the mass described as a lesion or nodule of the testis; markers as a panel
    (MASS_LONG, "US: 1.9 cm solid vascular lesion in the lower pole of the right testis, "
     "suspicious for malignancy. CrCl 41 mL/min.\n" + "Plan: serum tumor markers today. Urgent "
     "right radical inguinal orchiectomy. Do not aspirate.\nHold dabigatran 4 days before "
     "surgery; resume 48-72 h after. No bridging."),
    (MASS_LONG, "US: 1.9 cm hypoechoic vascular nodule within the right testis. CrCl 41 mL/min.\n"
     + MASS_PLAN),
    (MASS_APIX, MASS_OK + "I have ordered AFP, hCG and LDH and booked a radical inguinal "
     "orchiectomy. Aspiration is contraindicated. Hold apixaban 2 days before surgery, resume "
     "2-3 days after. He does not need heparin bridging (CHA2DS2-VASc 2)."),
]


WRONG = [
    # the eGFR (per 1.73 m2) or the stale creatinine and weight given as the clearance
    (None, "renal_function_assessed", SIMPLE_OK.replace("{crcl}", "39") + SIMPLE_PLAN),
    (None, "renal_function_assessed", SIMPLE_OK.replace("{crcl}", "58") + SIMPLE_PLAN),
    # the short hold where CrCl < 50 needs 4 days; the long hold where CrCl >= 50 needs 2
    (None, "anticoagulation_plan_documented",
     SIMPLE_OK + SIMPLE_PLAN.replace("4 days", "2 days")),
    (None, "anticoagulation_plan_documented",
     SIMPLE_OK + SIMPLE_PLAN.replace("4 days", "24 hours")),
    (SIMPLE_DABI, "anticoagulation_plan_documented",
     SIMPLE_OK + SIMPLE_PLAN.replace("4 days", "1 day")),
    (SIMPLE_DABI, "anticoagulation_plan_documented",
     SIMPLE_OK + SIMPLE_PLAN.replace("4 days", "6 days")),
    # the restart too early, too late, or not stated
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "resume 48-72 h after", "restart it the evening of surgery")),
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "resume 48-72 h after", "resume 24 hours after surgery")),
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "resume 48-72 h after", "restart dabigatran the day after surgery")),
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "resume 48-72 h after", "restart dabigatran 7 days after surgery")),
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "; resume 48-72 h after", "")),
    # the other DOAC's name, or warfarin-style management
    (SIMPLE_APIX, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN),
    # bridging
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "No bridging.", "Bridge with enoxaparin 1 mg/kg twice daily.")),
    (None, "anticoagulation_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "No bridging.", "Enoxaparin bridging could be considered if he prefers.")),
    # simple hydrocele: aspiration as the plan, or no commitment
    (None, "procedure_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "right hydrocelectomy.", "aspiration and sclerotherapy with doxycycline in clinic.")),
    (None, "procedure_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "right hydrocelectomy.", "either aspiration or hydrocelectomy would be reasonable.")),
    (None, "testis_assessed", SIMPLE_OK.replace(
        "both testes normal with no intratesticular mass", "a solid intratesticular mass")
     + SIMPLE_PLAN),
    # testicular mass: missed, hedged, a scrotal approach, markers left out
    (MASS_LONG, "testis_assessed", SIMPLE_OK + MASS_PLAN),
    (MASS_LONG, "testis_assessed",
     "US: possible intratesticular lesion, cannot exclude. CrCl 41 mL/min.\n" + MASS_PLAN),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + SIMPLE_PLAN),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Radical inguinal orchiectomy.", "Trans-scrotal biopsy of the mass, then decide.")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Do not aspirate.", "Aspiration could be offered for comfort while awaiting surgery.")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "AFP, beta-hCG, LDH. ", "")),
    # one marker only
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "AFP, beta-hCG, LDH. ", "serum AFP today. ")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "AFP, beta-hCG, LDH. ", "serum beta-hCG today. ")),
    # scrotal, simple or testis-sparing orchiectomy, FNA, or the wrong side
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Radical inguinal orchiectomy.", "Right scrotal orchiectomy.")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Radical inguinal orchiectomy.", "Right simple orchiectomy through a scrotal incision.")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Radical inguinal orchiectomy.", "Testis-sparing partial orchiectomy via scrotal "
        "incision.")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Radical inguinal orchiectomy.", "Ultrasound-guided fine-needle aspiration of the "
        "testicular mass for diagnosis, then radical inguinal orchiectomy.")),
    (MASS_LONG, "procedure_plan_documented", MASS_OK + MASS_PLAN.replace(
        "Radical inguinal orchiectomy.", "Urgent left radical inguinal orchiectomy.")),
    (None, "procedure_plan_documented", SIMPLE_OK + SIMPLE_PLAN.replace(
        "right hydrocelectomy.", "elective left hydrocelectomy (CPT 55040).")),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG,
    grade=lambda note, variant: grade_note(TASK, _note(variant, note), variant))


def test_two_holds_stated_fail():
    """A note that states both the 2-day and the 4-day hold commits to neither."""
    stuffed = SIMPLE_OK + ("Plan: right hydrocelectomy. Hold dabigatran 2 days before surgery. "
                           "Hold dabigatran 4 days before surgery. Resume 48-72 h after "
                           "surgery. No bridging.")
    assert grade_note(TASK, _note(None, stuffed))["anticoagulation_plan_documented"] is False


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for variant in (MASS_LONG, MASS_APIX, SIMPLE_APIX, SIMPLE_DABI):
        assert not all(grade_note(TASK, canonical, variant).values()), variant


# ---- orders ----

HYDROCELECTOMY = service_request("55040", "cpt", "procedure", display="Right hydrocelectomy")
ORCHIECTOMY = service_request("54530", "cpt", "procedure", display="Right radical orchiectomy")
ASPIRATION = service_request("55000", "cpt", "procedure", display="Hydrocele aspiration")
BIOPSY = service_request("54500", "cpt", "procedure", display="Testicular needle biopsy")
SIMPLE_ORCH = service_request("54520", "cpt", "procedure",
                              display="Orchiectomy, simple, scrotal approach")
PARTIAL_ORCH = service_request("54522", "cpt", "procedure", display="Orchiectomy, partial")
LEFT_HYDRO = service_request("55040", "cpt", "procedure", display="Left hydrocelectomy")
AFP = service_request("1834-1", "loinc", "laboratory")
HCG = service_request("21198-7", "loinc", "laboratory")
LDH = service_request("2532-0", "loinc", "laboratory")
HCG_CPT = service_request("84702", "cpt", "laboratory", display="hCG quantitative")
MESSAGE = {"tool": "fhir_communication_create_message", "arguments": {
    "patient": "{patient_id}", "recipient": "prac-pcp-01",
    "text": "Stop dabigatran 4 days before surgery, resume 48-72 h after; no bridging."}}
ENOXAPARIN = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient_id}", "medication_code": "854241", "dose_value": 80, "dose_unit": "mg",
    "route": "subcutaneous", "frequency": 2, "period_unit": "day", "duration_days": 3}}


def test_procedure_orders_simple():
    assert run_actions(TASK, [HYDROCELECTOMY])["procedure_ordered"]
    by_text = service_request("55060", "cpt", "procedure", display="Hydrocelectomy, right (bottle)")
    assert run_actions(TASK, [by_text])["procedure_ordered"]
    assert not run_actions(TASK, [ASPIRATION])["procedure_ordered"]
    assert not run_actions(TASK, [LEFT_HYDRO])["procedure_ordered"]          # wrong side


def test_procedure_orders_mass():
    v = MASS_LONG
    assert run_actions(TASK, [ORCHIECTOMY, AFP, HCG, LDH], v)["procedure_ordered"]
    assert run_actions(TASK, [ORCHIECTOMY, AFP, HCG_CPT, LDH], v)["procedure_ordered"]
    assert not run_actions(TASK, [ORCHIECTOMY], v)["procedure_ordered"]      # no markers
    assert not run_actions(TASK, [AFP, HCG, LDH], v)["procedure_ordered"]    # no orchiectomy
    # the must-nots: a scrotal approach, even beside the right orders
    for bad in (ASPIRATION, BIOPSY, HYDROCELECTOMY, SIMPLE_ORCH, PARTIAL_ORCH):
        assert not run_actions(TASK, [ORCHIECTOMY, AFP, HCG, LDH, bad], v)["procedure_ordered"]


def test_message_and_no_bridging_order():
    assert run_actions(TASK, [MESSAGE])["pcp_message_sent"]
    assert not run_actions(TASK, [MESSAGE, ENOXAPARIN])["pcp_message_sent"]
    assert not run_actions(TASK, [MESSAGE], SIMPLE_APIX)["pcp_message_sent"]  # wrong drug named
    # the message is read: the hold and no bridging, not only the drug's name
    for text in ("Continue dabigatran through surgery, no need to stop.",
                 "Stop dabigatran 1 day before surgery and bridge with enoxaparin.",
                 "Stop dabigatran 2 days before surgery, resume 48-72 h after; no bridging.",
                 "Stop dabigatran 4 days before surgery and bridge with enoxaparin."):
        bad = {**MESSAGE, "arguments": {**MESSAGE["arguments"], "text": text}}
        assert not run_actions(TASK, [bad])["pcp_message_sent"], text
