"""Steatosis on ultrasound: FIB-4 value and category, and the plan, whatever the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import values
from tests.tasks.helpers_endocrinology import run_actions
from tests.tasks.helpers_gastroenterology_hepatology import grade_note_checks

TASK = "hepatic_steatosis_fibrosis"
NOTE_CHECKS = {"fib4_assessed", "plan_documented"}


def grade(note: str, variant: int | None = None) -> dict[str, bool]:
    return grade_note_checks(TASK, note, NOTE_CHECKS, variant)


CORRECT = [
    """FIB-4 = (54 x 50)/(198 x sqrt 52) = 1.89 -> indeterminate risk for advanced fibrosis.
    Plan: FibroScan ordered. Lose weight (goal 7-10%).""",
    """Fibrosis-4 index of 1.9 in this 54-year-old is in the intermediate range (1.3-2.67),
    above the low-risk cut-off of 1.3.
    Recommend VCTE; HCV Ab and HBsAg sent. Mediterranean diet with a caloric deficit.""",
    """Assessment: MASLD. FIB4 score: 1.89 (indeterminate).
    Next step: transient elastography has been ordered; if LSM >= 8 kPa, hepatology clinic.
    Counseled on weight reduction and exercise.""",
    """1. FIB-4 1.88, indeterminate-risk; advanced fibrosis is not excluded
    2. Obtain MR elastography, biopsy not needed now
    3. Weight loss of at least 10% via lifestyle changes""",
    # SOAP, abbreviations
    """A: MASLD w/ T2DM, obesity. FIB-4 1.9 -> indeterminate risk of advanced fibrosis (F3-F4).
    P: VCTE (FibroScan) ordered; HCV Ab + HBsAg ordered. Wt loss goal 7-10% via calorie
    deficit.""",
    # narrative naming the date of the labs ('3 weeks ago' is not a past value)
    """Using her labs from 3 weeks ago (AST 50, ALT 52, plt 198), the FIB-4 index is 1.89, which
    falls in the intermediate zone between the 1.3 and 2.67 cut-offs. I have ordered transient
    elastography to further stratify. She should aim to lose weight (7-10%) with a
    Mediterranean diet.""",
    # the old value named as history, then the current one
    """FIB-4 was 1.2 last year (low risk); now FIB-4 1.89, indeterminate. Order FibroScan.
    Weight loss 7-10%.""",
]
WRONG = [
    # FIB-4 from the labs of two years ago
    """FIB-4 1.13, low risk. FibroScan ordered. Weight loss advised.""",
    # wrong category for the right value
    """FIB-4 1.89, low risk. FibroScan ordered. Weight loss advised.""",
    # high risk claimed
    """FIB-4 1.89: high risk of advanced fibrosis. FibroScan ordered. Weight loss advised.""",
    # elastography hedged
    """FIB-4 1.89, indeterminate. Could consider FibroScan. Weight loss advised.""",
    # elastography declined
    """FIB-4 1.89, indeterminate. No elastography needed. Weight loss advised.""",
    """FIB-4 1.89, indeterminate. FibroScan is not needed. Weight loss advised.""",
    # last year's value, and elastography declined
    """FIB-4 1.2 using last year's labs -> low risk. No elastography needed. Weight loss.""",
    # the current value dated, but the wrong category
    """FIB-4 1.89 from labs 3 weeks ago: high risk. Order FibroScan. Weight loss 7-10%.""",
    # biopsy instead of elastography
    """FIB-4 1.89, indeterminate. Proceed to liver biopsy; elastography is not needed.
    Weight loss 7-10%.""",
    # no lifestyle weight loss
    """FIB-4 1.89, indeterminate. FibroScan ordered. Start a GLP-1 agonist.""",
    # keyword stuffing: every category and value
    """FIB-4 = 1.89 = 1.13 = 3.1. FIB-4 is low risk, indeterminate and high risk.
    FibroScan ordered. No FibroScan. Weight loss advised.""",
]


@pytest.mark.parametrize("note", WRONG)
def test_wrong_notes_fail(note):
    assert not all(grade(note).values())


def test_keyword_stuffing_fails_the_assessment_and_plan():
    verdicts = grade(WRONG[-1])
    assert verdicts == {"fib4_assessed": False, "plan_documented": False}


def test_fib4_follows_the_variant_labs():
    from physbench_gym.grading.core import load_function

    fib4 = load_function("graders/gastroenterology_hepatology.py:fib4")
    for variant in (None, 0, 5):
        v = values(TASK, variant)
        assert v["fib4"] == pytest.approx(fib4(54, v["ast"], v["alt"], v["plt"]), abs=0.005)
        assert v["fib4_category"] == "indeterminate" and 1.4 <= v["fib4"] <= 2.55
        note = f"FIB-4 {v['fib4']:.2f}, indeterminate. FibroScan ordered. Weight loss."
        assert all(grade(note, variant).values())


def test_fib4_categories_and_the_age_65_cut_off():
    from physbench_gym.grading.core import load_function

    category = load_function("graders/gastroenterology_hepatology.py:fib4_category")
    assert category(1.2, 54) == "low" and category(1.3, 54) == "indeterminate"
    assert category(2.67, 54) == "indeterminate" and category(2.7, 54) == "high"
    assert category(1.8, 70) == "low" and category(2.1, 70) == "indeterminate"


def test_earlier_labs_are_a_low_risk_distractor():
    from physbench_gym.grading.core import load_function

    fib4 = load_function("graders/gastroenterology_hepatology.py:fib4")
    assert fib4(53, 34, 44, 224) < 1.3  # one year ago
    assert fib4(52, 31, 38, 232) < 1.3  # two years ago


def test_the_elf_test_is_an_accepted_secondary_assessment():
    note = ("FIB-4 1.89, indeterminate risk of advanced fibrosis. Ordered an ELF test as the "
            "secondary assessment. Weight loss of 7-10% with a Mediterranean diet.")
    assert grade(note)["plan_documented"]
    verdicts = run_actions(TASK, [{"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": "81517", "system": "cpt",
        "display": "Enhanced liver fibrosis (ELF) score", "category": "laboratory",
        "reason": "MASLD with indeterminate FIB-4"}}])
    assert verdicts["elastography_ordered"]
    biopsy = run_actions(TASK, [{"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": "47000", "system": "cpt",
        "display": "Liver biopsy", "category": "procedure", "reason": "MASLD"}}])
    assert not biopsy["elastography_ordered"]
