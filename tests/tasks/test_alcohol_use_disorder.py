"""AUD pharmacotherapy: kidney function and opioid use decide the drug and dose."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values

TASK = "alcohol_use_disorder"
NOTE_CHECKS = {"assessment_stated", "contraindicated_drug_avoided", "treatment_plan_documented"}

CORRECT = [
    """Severe AUD (6/11 criteria). CrCl about 41 mL/min (Cockcroft-Gault).
    Naltrexone is contraindicated given daily oxycodone.
    Start acamprosate 333 mg PO TID (renally adjusted).""",
    """Assessment: alcohol use disorder, severe. Estimated creatinine clearance 40 ml/min.
    Avoid naltrexone and Vivitrol because of chronic opioid therapy.
    Plan: prescribe Campral 333 mg three times a day; labs in 4 weeks.""",
    """AUD: severe. CrCl 43 mL/min, so acamprosate needs the renal dose.
    1. Recommend acamprosate 333 mg TID.
    2. Naltrexone not appropriate due to oxycodone use.""",
]
WRONG = [
    # full dose despite CrCl 30-50
    """Severe AUD. CrCl 41 mL/min. Naltrexone is contraindicated (oxycodone).
    Start acamprosate 666 mg TID.""",
    # naltrexone despite daily opioid
    """Severe AUD. CrCl 41 mL/min. Start naltrexone 50 mg daily.
    Start acamprosate 333 mg TID.""",
    # wrong kidney function
    """Severe AUD. CrCl 75 mL/min. Naltrexone is contraindicated (oxycodone).
    Start acamprosate 333 mg TID.""",
    # hedged plan
    """Severe AUD. CrCl 41 mL/min. Naltrexone is contraindicated (oxycodone).
    Consider acamprosate 333 mg TID.""",
    # wrong severity
    """Moderate AUD. CrCl 41 mL/min. Naltrexone is contraindicated (oxycodone).
    Start acamprosate 333 mg TID.""",
    # keyword stuffing: both drugs, both directions
    """Severe AUD, moderate AUD. CrCl 41 mL/min. Avoid naltrexone. Start naltrexone 50 mg
    daily. Start acamprosate 333 mg TID. Avoid acamprosate.""",
]


def test_canonical_values():
    vals = values(TASK)
    assert (vals["drug"], vals["dose_mg"], vals["avoided"]) == ("acamprosate", 333, "naltrexone")
    assert 35 <= vals["crcl"] <= 47 and vals["aud_severity"] == "severe"


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, WRONG[-1])
    assert not verdicts["contraindicated_drug_avoided"]
    assert not verdicts["treatment_plan_documented"]


def _variant(scenario: str) -> int:
    return next(s for s in range(60) if values(TASK, s)["scenario"] == scenario)


def test_severe_ckd_variant_calls_for_naltrexone():
    seed = _variant("ckd4_no_opioid")
    vals = values(TASK, seed)
    assert vals["crcl"] <= 30 and vals["drug"] == "naltrexone"
    head = f"{vals['aud_severity'].title()} AUD. CrCl {vals['crcl_int']} mL/min."
    right = head + " Acamprosate is contraindicated at this CrCl. Start naltrexone 50 mg daily."
    assert all(grade_note(TASK, right, seed).values())
    wrong = head + " Naltrexone is contraindicated. Start acamprosate 333 mg TID."
    verdicts = grade_note(TASK, wrong, seed)
    assert not verdicts["contraindicated_drug_avoided"]
    assert not verdicts["treatment_plan_documented"]


def test_normal_kidney_variant_takes_the_full_acamprosate_dose():
    seed = _variant("opioid_normal_renal")
    vals = values(TASK, seed)
    assert vals["crcl"] > 50 and vals["dose_mg"] == 666
    note = (f"{vals['aud_severity'].title()} AUD. CrCl {vals['crcl_int']} mL/min. Naltrexone "
            "is contraindicated with oxycodone. Start acamprosate {dose} mg TID.")
    assert all(grade_note(TASK, note.format(dose=666), seed).values())
    assert not grade_note(TASK, note.format(dose=333), seed)["treatment_plan_documented"]


@pytest.mark.parametrize(("note", "check"), [
    # wrong schedule for acamprosate
    ("Severe AUD. CrCl 41 mL/min. Naltrexone is contraindicated (oxycodone). "
     "Start acamprosate 333 mg BID.", "treatment_plan_documented"),
    # the chosen drug called contraindicated in a dose line
    ("Severe AUD. CrCl 41 mL/min. Naltrexone is contraindicated (oxycodone). "
     "Acamprosate 333 mg TID is contraindicated.", "treatment_plan_documented"),
    # wrong drug (disulfiram, failed before) instead of acamprosate
    ("Severe AUD. CrCl 41 mL/min. Naltrexone is contraindicated (oxycodone). "
     "Start disulfiram 250 mg daily.", "treatment_plan_documented"),
    # naltrexone planned despite the opioid
    ("Severe AUD. CrCl 41 mL/min. Naltrexone 50 mg daily is fine with oxycodone. "
     "Start acamprosate 333 mg TID.", "contraindicated_drug_avoided"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False


def test_naltrexone_scenario_rejects_a_wrong_schedule():
    seed = next(s for s in range(40) if values(TASK, s)["drug"] == "naltrexone")
    crcl = values(TASK, seed)["crcl_int"]
    good = (f"Severe AUD. CrCl {crcl} mL/min. Acamprosate is contraindicated. "
            "Naltrexone 50 mg PO daily.")
    assert grade_note(TASK, good, seed)["treatment_plan_documented"]
    wrong = good.replace("50 mg PO daily", "50 mg BID")
    assert not grade_note(TASK, wrong, seed)["treatment_plan_documented"]
