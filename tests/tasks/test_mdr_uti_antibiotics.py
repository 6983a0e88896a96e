"""ESBL E. coli cystitis with CrCl < 30 and a sulfa allergy: the note checkpoints judge the
reasoning and plan, the action checkpoint the prescription written to the EHR."""

from __future__ import annotations

import gymnasium as gym
import pytest

from tests.tasks.helpers import grade_note, values

TASK = "mdr_uti_antibiotics"
NOTE_CHECKS = {"crcl_assessed", "resistance_and_allergy_recognized", "nitrofurantoin_avoided",
               "antibiotic_plan_documented"}

CORRECT = [
    """ESBL E. coli cystitis. Isolate R to cipro/levo (FQ-resistant), S to fosfomycin and
    nitrofurantoin. Sulfa allergy (hives) - no TMP-SMX.
    CrCl ~19 mL/min by Cockcroft-Gault.
    Nitrofurantoin is contraindicated with CrCl <30.
    Plan: fosfomycin 3 g PO x1.""",
    """Assessment: acute cystitis from an extended-spectrum beta-lactamase producing
    Escherichia coli; fluoroquinolone resistance noted. Allergic to Bactrim (urticaria, lip
    angioedema).
    Estimated creatinine clearance 17 mL/min (ideal body weight).
    Nitrofurantoin should not be used at this level of renal function (Beers).
    Recommend Monurol 3 grams orally one time only.""",
    """Urine cx: E coli, ESBL+, cipro R, levo R, nitrofurantoin S, fosfomycin S, TMP/SMX S.
    Allergy: sulfonamides -> hives.
    CG CrCl = 20 mL/min.
    Avoid Macrobid given CrCl < 30.
    Fosfomycin 3000 mg PO single dose today; no further doses.""",
    # the reasoning in one sentence: the cue 'contraindicated' belongs to TMP-SMX, not to
    # the allergy
    """TMP-SMX is contraindicated because of her sulfa allergy, and the ESBL isolate is
    ciprofloxacin-resistant. Creatinine clearance (Cockcroft-Gault) is 19 mL/min, so
    nitrofurantoin is not an option.
    Give fosfomycin 3 g by mouth once.""",
]

BASE = """ESBL-producing E. coli, resistant to ciprofloxacin. Sulfa allergy (hives).
{crcl}
{nitro}
{plan}"""
GOOD = {"crcl": "CrCl 19 mL/min (Cockcroft-Gault).",
        "nitro": "Nitrofurantoin is avoided because CrCl is below 30 mL/min.",
        "plan": "Fosfomycin 3 g PO once as a single dose."}
WRONG = {
    # eGFR-like value instead of the Cockcroft-Gault clearance
    "crcl_assessed": {**GOOD, "crcl": "CrCl 35 mL/min (Cockcroft-Gault)."},
    # nitrofurantoin planned (wrong direction)
    "nitrofurantoin_avoided": {**GOOD, "nitro": "Start nitrofurantoin 100 mg BID for 5 days."},
    # hedged plan
    "antibiotic_plan_documented": {**GOOD, "plan": "Consider fosfomycin 3 g PO once."},
}


@pytest.mark.parametrize("check", sorted(WRONG))
def test_wrong_note_fails_its_checkpoint(check):
    verdicts = grade_note(TASK, BASE.format(**WRONG[check]))
    assert verdicts[check] is False, verdicts


@pytest.mark.parametrize("note", [
    # repeated dosing (complicated-UTI regimen) instead of one dose
    BASE.format(**{**GOOD, "plan": "Fosfomycin 3 g every 3 days for 3 doses."}),
    # wrong dose
    BASE.format(**{**GOOD, "plan": "Fosfomycin 1 g PO once."}),
    # the allergy denied
    BASE.format(**GOOD).replace("Sulfa allergy (hives).", "No sulfa allergy."),
    # the isolate called fluoroquinolone-susceptible
    BASE.format(**GOOD).replace("resistant to ciprofloxacin", "susceptible to ciprofloxacin"),
    # nitrofurantoin deferred to a renal threshold the patient is below (hedged)
    BASE.format(**{**GOOD, "nitro": "Nitrofurantoin could be used if CrCl is adequate."}),
    # contradictory plan
    BASE.format(**GOOD) + "\nAvoid fosfomycin.",
])
def test_subtly_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note).values())


def test_keyword_stuffing_fails_the_decisions():
    stuffed = """ESBL, not ESBL. Resistant to ciprofloxacin. Sulfa allergy, no sulfa allergy.
    CrCl 19 35 45 mL/min. Avoid nitrofurantoin. Start nitrofurantoin 100 mg BID.
    Fosfomycin 3 g once. Fosfomycin 3 g daily for 3 days. Avoid fosfomycin."""
    verdicts = grade_note(TASK, stuffed)
    assert verdicts["nitrofurantoin_avoided"] is False
    assert verdicts["antibiotic_plan_documented"] is False
    assert verdicts["resistance_and_allergy_recognized"] is False
    assert verdicts["crcl_assessed"] is False


def test_crcl_stays_below_30_in_every_variant():
    for variant in (None, *range(20)):
        v = values(TASK, variant)
        expected = (140 - 81) * v["weight_kg"] / (72 * v["creatinine"]) * 0.85
        assert abs(v["crcl"] - expected) <= 0.5
        assert v["crcl_mid"] + v["crcl_tol"] < 30


def _prescription_verdict(*creates: dict) -> dict:
    """fosfomycin_prescribed after the oracle's reads and the given prescriptions."""
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        env.reset(options={"variant": "canonical"})
        info: dict = {}
        for action in env.unwrapped.oracle_actions():
            if action["tool"] == "fhir_medication_request_create":
                break
            *_, info = env.step(action)
        patient = values(TASK)["patient_id"]
        for arguments in creates:
            *_, info = env.step({"tool": "fhir_medication_request_create",
                                 "arguments": {"patient": patient, "route": "oral",
                                               **arguments}})
        return info["checkpoints"]["fosfomycin_prescribed"]
    finally:
        env.close()


FOSFOMYCIN = {"medication_code": "808917", "dose_value": 3, "dose_unit": "g", "frequency": 1,
              "period_unit": "day", "duration_days": 1, "refills": 0}


@pytest.mark.parametrize("creates", [
    [FOSFOMYCIN],
    # written in mg, with a 'once' sig and no duration
    [{"medication_code": "808917", "dose_value": 3000, "dose_unit": "mg",
      "sig": "Dissolve one packet in water and drink once."}],
])
def test_single_dose_fosfomycin_passes(creates):
    assert _prescription_verdict(*creates)["passed"]


@pytest.mark.parametrize("creates", [
    # the resistant fluoroquinolone the patient asked for
    [{"medication_code": "197511", "dose_value": 250, "dose_unit": "mg", "frequency": 2,
      "duration_days": 3}],
    # fosfomycin repeated every day for 3 days
    [{**FOSFOMYCIN, "duration_days": 3}],
    # fosfomycin with refills
    [{**FOSFOMYCIN, "refills": 2}],
    # right drug, plus TMP-SMX despite the sulfa allergy
    [FOSFOMYCIN, {"medication_code": "198335", "dose_value": 1, "dose_unit": "tablet",
                  "frequency": 2, "duration_days": 3}],
    # right drug, plus nitrofurantoin despite CrCl < 30
    [FOSFOMYCIN, {"medication_code": "1648755", "dose_value": 100, "dose_unit": "mg",
                  "frequency": 2, "duration_days": 5}],
    # a proposal, not an order
    [{**FOSFOMYCIN, "intent": "proposal"}],
])
def test_wrong_prescriptions_fail(creates):
    assert not _prescription_verdict(*creates)["passed"]


@pytest.mark.parametrize(("note", "check"), [
    # the eGFR (about 23) reported as the creatinine clearance
    (BASE.format(**{**GOOD, "crcl": "CrCl 23 mL/min."}), "crcl_assessed"),
    # nitrofurantoin called acceptable (wrong direction)
    (BASE.format(**{**GOOD, "nitro": "Nitrofurantoin is fine at this CrCl."}),
     "nitrofurantoin_avoided"),
    # the allergy history lost
    (BASE.format(**GOOD).replace("Sulfa allergy (hives).", "No known drug allergies."),
     "resistance_and_allergy_recognized"),
    # fosfomycin dosed as a 7-day course
    (BASE.format(**{**GOOD, "plan": "Fosfomycin 3 g PO daily for 7 days."}),
     "antibiotic_plan_documented"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False
