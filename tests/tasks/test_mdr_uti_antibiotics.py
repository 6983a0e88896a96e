"""ESBL E. coli cystitis with a sulfa allergy: the note checkpoints judge the reasoning and
plan, the action checkpoint the prescription written to the EHR.

The canonical chart (CKD stage 4, CrCl < 30, isolate susceptible to both urinary agents) calls
for fosfomycin 3 g once; the branches move the answer: preserved kidney function (CrCl >= 60)
makes nitrofurantoin for 5 days the preferred agent, a nitrofurantoin-resistant isolate leaves
fosfomycin, a fosfomycin-resistant one leaves nitrofurantoin."""

from __future__ import annotations

import gymnasium as gym
import pytest

from physbench_gym.agents import run_episode
from physbench_gym.agents.adversarial import CanonicalReplayAgent
from tests.tasks.helpers import grade_note, note_probes, oracle_note, run_oracle, values

TASK = "mdr_uti_antibiotics"
NOTE_CHECKS = {"crcl_assessed", "resistance_and_allergy_recognized", "urinary_agent_reasoning",
               "antibiotic_plan_documented"}
CASES = ("ckd4_susceptible", "ckd4_nitrofurantoin_resistant", "preserved_susceptible",
         "preserved_fosfomycin_resistant", "preserved_nitrofurantoin_resistant")


def seed_of(case: str) -> int:
    """The first variant seed that draws ``case``."""
    return next(s for s in range(200) if values(TASK, s)["case_name"] == case)

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
    "urinary_agent_reasoning": {**GOOD, "nitro": "Start nitrofurantoin 100 mg BID for 5 days."},
    # hedged plan
    "antibiotic_plan_documented": {**GOOD, "plan": "Consider fosfomycin 3 g PO once."},
}


_, test_wrong_note_fails_its_checkpoint = note_probes(
    TASK, wrong={check: (BASE.format(**fields), check) for check, fields in WRONG.items()})


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
    assert verdicts["urinary_agent_reasoning"] is False
    assert verdicts["antibiotic_plan_documented"] is False
    assert verdicts["resistance_and_allergy_recognized"] is False
    assert verdicts["crcl_assessed"] is False


def test_crcl_stays_on_its_side_of_the_thresholds_in_every_variant():
    """CKD stage 4: the whole accepted window below 30 mL/min (Beers); preserved: actual and
    ideal body weight estimates at 60 mL/min or more (the label's threshold too)."""
    drawn = set()
    for variant in (None, *range(200)):
        v = values(TASK, variant)
        drawn.add(v["case_name"])
        expected = (140 - 81) * v["weight_kg"] / (72 * v["creatinine"]) * 0.85
        assert abs(v["crcl"] - expected) <= 0.5
        if v["kidney"] == "ckd4":
            assert v["crcl_mid"] + v["crcl_tol"] < 30
        else:
            assert v["crcl_mid"] - v["crcl_tol"] >= 58.5  # 60 less the 2 mL/min rounding
            assert min(v["crcl"], v["crcl_ibw"]) >= 60
    assert drawn == set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_the_answer_follows_the_kidney_function_and_the_isolate(case):
    v = values(TASK, seed_of(case))
    nitrofurantoin_usable = v["kidney"] == "preserved" and v["isolate"] != (
        "nitrofurantoin_resistant")
    assert v["answer"] == ("nitrofurantoin" if nitrofurantoin_usable else "fosfomycin")
    assert not (v["kidney"] == "ckd4" and v["isolate"] == "fosfomycin_resistant")
    assert v["nitrofurantoin_result"].startswith(
        "Resistant" if v["isolate"] == "nitrofurantoin_resistant" else "Susceptible")
    assert v["fosfomycin_result"].startswith(
        "Resistant" if v["isolate"] == "fosfomycin_resistant" else "Susceptible")


@pytest.mark.parametrize("case", CASES)
def test_oracle_passes_every_branch(case):
    result = run_oracle(TASK, seed_of(case))
    assert result.success, result.checkpoints


def test_the_memorized_canonical_answer_fails_where_the_branch_moves_it():
    """The canonical orders and note replayed: wherever nitrofurantoin is the answer both the
    prescription and the note fail; where the isolate is nitrofurantoin-resistant the note
    fails (it calls the isolate susceptible and blames the kidneys)."""
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        for case in CASES[1:]:
            result = run_episode(env, CanonicalReplayAgent(), seed=0,
                                 options={"variant": seed_of(case)})
            failed = {k for k, c in result.checkpoints.items() if not c["passed"]}
            assert not result.success, case
            assert "urinary_agent_reasoning" in failed, (case, failed)
            if values(TASK, seed_of(case))["answer"] == "nitrofurantoin":
                assert {"antibiotic_prescribed", "antibiotic_plan_documented"} <= failed
        successes = sum(run_episode(env, CanonicalReplayAgent(), seed=0,
                                    options={"variant": v}).success for v in range(20))
    finally:
        env.close()
    assert successes <= 2, successes


def _prescription_verdict(*creates: dict, variant: int | None = None) -> dict:
    """antibiotic_prescribed after the oracle's reads and the given prescriptions."""
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        env.reset(options={"variant": "canonical" if variant is None else variant})
        info: dict = {}
        for action in env.unwrapped.oracle_actions():
            if action["tool"] == "fhir_medication_request_create":
                break
            *_, info = env.step(action)
        patient = values(TASK, variant)["patient_id"]
        for arguments in creates:
            *_, info = env.step({"tool": "fhir_medication_request_create",
                                 "arguments": {"patient": patient, "route": "oral",
                                               **arguments}})
        return info["checkpoints"]["antibiotic_prescribed"]
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
     "urinary_agent_reasoning"),
    # the allergy history lost
    (BASE.format(**GOOD).replace("Sulfa allergy (hives).", "No known drug allergies."),
     "resistance_and_allergy_recognized"),
    # fosfomycin dosed as a 7-day course
    (BASE.format(**{**GOOD, "plan": "Fosfomycin 3 g PO daily for 7 days."}),
     "antibiotic_plan_documented"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False


MACROBID = {"medication_code": "1648755", "dose_value": 100, "dose_unit": "mg", "frequency": 2,
            "period_unit": "day", "duration_days": 5, "refills": 0}


@pytest.mark.parametrize("creates", [
    [MACROBID],
    # the label's 7 days, one capsule per dose
    [{**MACROBID, "dose_value": 1, "dose_unit": "capsule", "duration_days": 7}],
    # macrocrystals 100 mg four times daily, duration in the sig only
    [{"medication_code": "1648759", "dose_value": 100, "dose_unit": "mg", "frequency": 4,
      "refills": 0, "sig": "Take 1 capsule by mouth four times daily for 5 days."}],
])
@pytest.mark.parametrize("case", ["preserved_susceptible", "preserved_fosfomycin_resistant"])
def test_nitrofurantoin_course_passes_where_nitrofurantoin_is_the_answer(case, creates):
    assert _prescription_verdict(*creates, variant=seed_of(case))["passed"]


@pytest.mark.parametrize("creates", [
    # the memorized single dose of fosfomycin
    [FOSFOMYCIN],
    # nitrofurantoin plus fosfomycin
    [MACROBID, FOSFOMYCIN],
    # 3 days is too short; 10 days is a complicated-UTI course
    [{**MACROBID, "duration_days": 3}],
    [{**MACROBID, "duration_days": 10}],
    # Macrobid four times daily (400 mg/day)
    [{**MACROBID, "frequency": 4}],
    # a refill doubles the course
    [{**MACROBID, "refills": 1}],
    # the resistant fluoroquinolone
    [{"medication_code": "197511", "dose_value": 250, "dose_unit": "mg", "frequency": 2,
      "duration_days": 3}],
])
@pytest.mark.parametrize("case", ["preserved_susceptible", "preserved_fosfomycin_resistant"])
def test_wrong_prescriptions_fail_where_nitrofurantoin_is_the_answer(case, creates):
    assert not _prescription_verdict(*creates, variant=seed_of(case))["passed"]


@pytest.mark.parametrize("case", ["ckd4_nitrofurantoin_resistant",
                                  "preserved_nitrofurantoin_resistant"])
def test_fosfomycin_is_the_answer_for_a_nitrofurantoin_resistant_isolate(case):
    seed = seed_of(case)
    assert _prescription_verdict(FOSFOMYCIN, variant=seed)["passed"]
    assert not _prescription_verdict(MACROBID, variant=seed)["passed"]


# Notes for the branches (written by the task author: a check that the graders read plain
# clinical wording, not a blind corpus).
BRANCH_CORRECT = {
    "preserved_susceptible": [
        """ESBL E. coli cystitis. Cipro/levo R (FQ-resistant). S to nitrofurantoin, fosfomycin,
        TMP-SMX. Sulfa allergy (hives, lip swelling) - no TMP-SMX.
        CrCl {crcl} mL/min (Cockcroft-Gault), so nitrofurantoin is safe to use.
        Plan: nitrofurantoin (Macrobid) 100 mg PO BID x 5 days.""",
        """Assessment: acute cystitis due to ESBL-producing E. coli, fluoroquinolone-resistant.
        Allergic to Bactrim (urticaria and lip angioedema).
        Creatinine clearance {crcl} mL/min by Cockcroft-Gault, so there is no contraindication
        to nitrofurantoin.
        Recommend nitrofurantoin monohydrate/macrocrystals 100 mg by mouth twice daily for 5
        days. If she cannot tolerate nitrofurantoin, fosfomycin 3 g once would be the
        fallback.""",
    ],
    "preserved_fosfomycin_resistant": [
        """ESBL E. coli cystitis. Isolate R to cipro/levo (FQ-resistant) and fosfomycin-resistant;
        nitrofurantoin S. Sulfa allergy (hives) - no TMP-SMX.
        CrCl {crcl} mL/min by Cockcroft-Gault, so nitrofurantoin is appropriate.
        Plan: nitrofurantoin 100 mg PO BID x 5 days.""",
    ],
    "preserved_nitrofurantoin_resistant": [
        """ESBL E. coli cystitis, FQ-resistant, nitrofurantoin-resistant; fosfomycin S.
        Sulfa allergy (hives) - no TMP-SMX.
        CrCl {crcl} mL/min (Cockcroft-Gault).
        Nitrofurantoin is not an option because the isolate is resistant.
        Plan: fosfomycin 3 g PO x1.""",
    ],
    "ckd4_nitrofurantoin_resistant": [
        """ESBL E. coli cystitis. Isolate R to cipro/levo (FQ-resistant) and to nitrofurantoin;
        S to fosfomycin. Sulfa allergy (hives) - no TMP-SMX.
        CrCl ~{crcl} mL/min by Cockcroft-Gault.
        Nitrofurantoin is contraindicated: resistant, and CrCl <30 anyway.
        Plan: fosfomycin 3 g PO x1.""",
    ],
}


@pytest.mark.parametrize(("case", "note"), [(c, n) for c, notes in BRANCH_CORRECT.items()
                                            for n in notes])
def test_correct_branch_notes_pass(case, note):
    seed = seed_of(case)
    verdicts = grade_note(TASK, note.format(crcl=values(TASK, seed)["crcl"]), seed)
    assert all(verdicts.values()), verdicts


BRANCH_WRONG = [
    # nitrofurantoin usable, but the memorized single dose of fosfomycin planned
    ("preserved_susceptible", "antibiotic_plan_documented",
     """ESBL E. coli, cipro-resistant. Sulfa allergy (hives). CrCl {crcl} mL/min (Cockcroft-Gault),
     so nitrofurantoin would be fine. Plan: fosfomycin 3 g PO once."""),
    # nitrofurantoin avoided for the kidneys although CrCl is >= 60
    ("preserved_susceptible", "urinary_agent_reasoning",
     """ESBL E. coli, cipro-resistant. Sulfa allergy (hives). CrCl {crcl} mL/min (Cockcroft-Gault).
     Avoid nitrofurantoin in the elderly. Plan: fosfomycin 3 g PO once."""),
    # fosfomycin offered as an equal option to nitrofurantoin
    ("preserved_susceptible", "antibiotic_plan_documented",
     """ESBL E. coli, cipro-resistant. Sulfa allergy (hives). CrCl {crcl} mL/min, so nitrofurantoin
     is appropriate.

     Plan: nitrofurantoin 100 mg PO BID for 5 days, or fosfomycin 3 g once; either is
     reasonable."""),
    # the fosfomycin resistance missed: fosfomycin called susceptible
    ("preserved_fosfomycin_resistant", "urinary_agent_reasoning",
     """ESBL E. coli, cipro-resistant; susceptible to fosfomycin and nitrofurantoin. Sulfa
     allergy (hives). CrCl {crcl} mL/min, so nitrofurantoin is appropriate.
     Plan: nitrofurantoin 100 mg PO BID for 5 days."""),
    # fosfomycin kept as the fallback although resistant
    ("preserved_fosfomycin_resistant", "antibiotic_plan_documented",
     """ESBL E. coli, cipro-resistant, fosfomycin-resistant. Sulfa allergy (hives). CrCl {crcl}
     mL/min, so nitrofurantoin is appropriate.

     Plan: nitrofurantoin 100 mg PO BID for 5 days; if not tolerated, fosfomycin 3 g once."""),
    # a 3-day nitrofurantoin course
    ("preserved_fosfomycin_resistant", "antibiotic_plan_documented",
     """ESBL E. coli, cipro-resistant, fosfomycin-resistant. Sulfa allergy (hives). CrCl {crcl}
     mL/min, so nitrofurantoin is appropriate. Plan: nitrofurantoin 100 mg PO BID for 3 days."""),
    # the memorized reasoning: nitrofurantoin called susceptible and blamed on the kidneys
    ("ckd4_nitrofurantoin_resistant", "urinary_agent_reasoning",
     """ESBL E. coli, cipro-resistant; susceptible to nitrofurantoin and fosfomycin. Sulfa allergy
     (hives). CrCl {crcl} mL/min (Cockcroft-Gault). Nitrofurantoin is avoided because CrCl is
     below 30 mL/min. Plan: fosfomycin 3 g PO once."""),
    # nitrofurantoin planned for a nitrofurantoin-resistant isolate
    ("preserved_nitrofurantoin_resistant", "urinary_agent_reasoning",
     """ESBL E. coli, cipro-resistant, nitrofurantoin-resistant. Sulfa allergy (hives). CrCl
     {crcl} mL/min. Plan: nitrofurantoin 100 mg PO BID for 5 days."""),
]


@pytest.mark.parametrize(("case", "target", "note"), BRANCH_WRONG)
def test_wrong_branch_notes_fail_their_checkpoint(case, target, note):
    seed = seed_of(case)
    verdicts = grade_note(TASK, note.format(crcl=values(TASK, seed)["crcl"]), seed)
    assert verdicts[target] is False, verdicts


@pytest.mark.parametrize("case", CASES)
def test_oracle_note_passes_its_branch(case):
    seed = seed_of(case)
    assert all(grade_note(TASK, oracle_note(TASK, seed), seed).values())
