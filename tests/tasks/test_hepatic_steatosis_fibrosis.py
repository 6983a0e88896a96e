"""Steatosis on ultrasound: FIB-4 value and category, and the plan, whatever the wording."""

from __future__ import annotations

import pytest

from physbench_gym.tasks.registry import get_instance
from tests.tasks.helpers import note_probes, oracle_note, values
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


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG, grade=grade)


def test_keyword_stuffing_fails_the_assessment_and_plan():
    verdicts = grade(WRONG[-1])
    assert verdicts == {"fib4_assessed": False, "plan_documented": False}


def test_fib4_follows_the_variant_labs():
    from physbench_gym.grading.core import load_function

    fib4 = load_function("graders/gastroenterology_hepatology.py:fib4")
    category = load_function("graders/gastroenterology_hepatology.py:fib4_category")
    design = {"low": (0.8, 1.2), "indeterminate": (1.4, 2.55), "high": (2.85, 3.6)}
    for variant in (None, *range(20)):
        v = values(TASK, variant)
        assert v["fib4"] == pytest.approx(fib4(54, v["ast"], v["alt"], v["plt"]), abs=0.005)
        assert v["fib4_category"] == category(v["fib4"], 54) == v["fib4_band"]["risk"]
        low, high = design[v["fib4_category"]]
        assert low <= v["fib4"] <= high
        assert v["ast"] < 2 * v["alt"]  # no alcohol-pattern AST/ALT ratio
    for variant in (None, 19):
        v = values(TASK, variant)
        assert v["fib4_category"] == "indeterminate"
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


# ---------------------------------------------------------------------------------------------
# Branches: the FIB-4 band moves the plan (low: no second-line test, repeat FIB-4 in 1-3 years;
# indeterminate: elastography or ELF; high: hepatology clinic referral).

LOW, HIGH, MID = 1, 2, 7  # seeds of the low, high and (non-canonical) indeterminate branches
ELASTOGRAPHY = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "91200", "system": "cpt",
    "display": "Vibration-controlled transient elastography", "category": "imaging",
    "reason": "MASLD"}}
REFERRAL = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "306206005", "system": "snomed",
    "display": "Referral to hepatology clinic", "category": "referral",
    "specialty": "hepatology", "reason": "MASLD with high-risk FIB-4"}}
GI_REFERRAL = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "183523005", "system": "snomed",
    "display": "Referral to gastroenterology service", "category": "referral",
    "reason": "MASLD with high-risk FIB-4"}}
CLINIC_VISIT = {"tool": "fhir_appointment_create", "arguments": {
    "patient": "{patient_id}", "description": "Hepatology clinic visit: MASLD, FIB-4 high risk"}}
HCV = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "13955-0", "system": "loinc",
    "display": "Hepatitis C antibody", "category": "laboratory", "reason": "MASLD"}}
BIOPSY = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "47000", "system": "cpt", "display": "Liver biopsy",
    "category": "procedure", "reason": "MASLD"}}


def _fib4(variant: int) -> str:
    return f"{values(TASK, variant)['fib4']:.2f}"


def test_the_seeds_cover_every_branch():
    from collections import Counter

    counts = Counter(values(TASK, v)["fib4_category"] for v in range(20))
    assert values(TASK, None)["fib4_category"] == "indeterminate"
    assert counts["low"] >= 4 and counts["high"] >= 4 and counts["indeterminate"] <= 8
    assert (values(TASK, LOW)["fib4_category"], values(TASK, HIGH)["fib4_category"],
            values(TASK, MID)["fib4_category"]) == ("low", "high", "indeterminate")


def test_the_chart_follows_the_branch():
    high = get_instance(TASK, HIGH)
    platelets = next(lab for lab in high.story.labs if lab.code == "777-3")
    counts = [p.value for p in platelets.points]
    assert counts[0] > counts[1] > counts[2] == values(TASK, HIGH)["plt"]  # falling
    pcp = next(n for n in high.story.notes if n.type == "11506-3").text
    assert "platelets lower than last year" in pcp
    low = next(n for n in get_instance(TASK, LOW).story.notes if n.type == "11506-3").text
    assert "ALT mildly\nelevated" in low and "ALT and AST" not in low


@pytest.mark.parametrize("variant", [LOW, HIGH, MID])
def test_the_oracle_note_passes_its_branch(variant):
    assert all(grade(oracle_note(TASK, variant), variant).values())


@pytest.mark.parametrize("variant", [LOW, HIGH])
def test_the_canonical_answer_fails_the_other_branches(variant):
    canonical = oracle_note(TASK).replace(
        get_instance(TASK).patient_id, get_instance(TASK, variant).patient_id)
    assert grade(canonical, variant) == {"fib4_assessed": False, "plan_documented": False}
    canonical_orders = [c.model_dump() for c in get_instance(TASK).oracle.calls
                        if c.tool == "fhir_service_request_create"]
    for call in canonical_orders:
        call["arguments"]["patient"] = "{patient_id}"
    assert not run_actions(TASK, canonical_orders, variant)["elastography_ordered"]


LOW_CORRECT = [
    "FIB-4 {f} -> low risk for advanced fibrosis. No elastography needed. Repeat FIB-4 in 1-2 "
    "years. Lose weight (goal 7-10%).",
    "Assessment: MASLD. FIB-4 {f}, low risk (<1.3); advanced fibrosis effectively excluded.\n"
    "Plan:\n1. FibroScan is not indicated at this time.\n2. Recheck FIB-4 annually given T2DM."
    "\n3. Weight loss of 7-10% via Mediterranean diet.\n4. Continue atorvastatin.",
    "FIB-4 score {f} (low risk). Manage in primary care: weight loss 7-10% with diet and "
    "exercise. Repeat FIB-4 every 1-3 years; if >= 1.3, obtain VCTE.",
    "FIB-4 = {f}, which is below the 1.3 cutoff, i.e. low risk. Second-line testing (VCTE/ELF) "
    "is not needed now. Repeat FIB-4 in 2 years. Counsel weight loss of 7-10%.",
]
LOW_WRONG = [
    # the canonical plan: elastography for a low-risk FIB-4
    "FIB-4 {f}, low risk. FibroScan ordered. Repeat FIB-4 in 1-2 years. Weight loss 7-10%.",
    # elastography offered anyway
    "FIB-4 {f}, low risk. Could consider FibroScan. Repeat FIB-4 in 1-2 years. Weight loss.",
    # no reassessment
    "FIB-4 {f}, low risk. No elastography needed. Weight loss 7-10%.",
    # reassessment too late
    "FIB-4 {f}, low risk. No elastography needed. Repeat FIB-4 in 5 years. Weight loss 7-10%.",
    # wrong category
    "FIB-4 {f}, indeterminate. No elastography needed. Repeat FIB-4 in 1-2 years. Weight loss.",
    # a hepatology referral is not what a low FIB-4 asks, and the category is wrong
    "FIB-4 {f}, high risk. Refer to hepatology clinic. Repeat FIB-4 in 1-2 years. Weight loss.",
]
HIGH_CORRECT = [
    # a clinic visit without a referral verb (a reader gap once)
    "FIB-4 of {f} is high risk. She should be seen in hepatology clinic for further "
    "evaluation. Weight loss of 10% through lifestyle changes.",
    "FIB-4 {f} -> high risk of advanced fibrosis. Refer to hepatology clinic. FibroScan "
    "ordered. Lose weight 7-10%.",
    "Assessment: FIB-4 {f} (high risk, >2.67).\nPlan:\n1. Hepatology referral placed for "
    "in-person evaluation.\n2. Weight loss of 7-10% via lifestyle change.\n3. Continue statin.",
    "FIB-4 {f} = high risk. Referred to GI/hepatology. Counsel weight loss 7-10%.",
]
# Correct, but the reader has no verb for seeing the patient in a clinic or converting the
# e-consult to a visit, nor a subject for the consultant's own clinic.
HIGH_CORRECT_GAPS = [
    "FIB-4 index {f}: high-risk for F3-F4 fibrosis. I will see her in the hepatology clinic; "
    "VCTE ordered before the visit. Weight reduction 7-10% with diet and exercise.",
    "FIB-4 {f}, high risk of advanced fibrosis. Will convert this e-consult to an in-person "
    "hepatology visit. Weight loss 7-10% via lifestyle change.",
    "FIB-4 {f}: high risk. I will see her in clinic in the next 4-6 weeks for fibrosis "
    "staging. Mediterranean diet, weight loss goal 10%.",
]
HIGH_WRONG = [
    # the canonical plan: elastography, hepatology only if it is abnormal
    "FIB-4 {f}, high risk. FibroScan ordered; refer to hepatology clinic if liver stiffness is "
    "8 kPa or more. Weight loss 7-10%.",
    # no referral
    "FIB-4 {f}, high risk. FibroScan ordered. Weight loss 7-10%.",
    # referral declined
    "FIB-4 {f}, high risk. No hepatology referral needed; FibroScan ordered. Weight loss.",
    "FIB-4 {f}, high risk. Hepatology referral is not necessary at this point. Weight loss.",
    # referral hedged
    "FIB-4 {f}, high risk. Consider hepatology referral. Weight loss 7-10%.",
    # wrong category
    "FIB-4 {f}, indeterminate. Refer to hepatology clinic. Weight loss 7-10%.",
    # the visit only after a test
    "FIB-4 {f}, high risk. If VCTE is >= 12 kPa, arrange an in-person visit. Weight loss.",
    # the e-consult itself is not a referral
    "Hepatology e-consult. FIB-4 {f}, high risk. FibroScan ordered. Weight loss 7-10%.",
]


@pytest.mark.parametrize("note", LOW_CORRECT)
def test_correct_low_risk_notes_pass(note):
    assert all(grade(note.format(f=_fib4(LOW)), LOW).values())


@pytest.mark.parametrize("note", LOW_WRONG)
def test_wrong_low_risk_notes_fail(note):
    assert not all(grade(note.format(f=_fib4(LOW)), LOW).values())


@pytest.mark.parametrize("note", HIGH_CORRECT)
def test_correct_high_risk_notes_pass(note):
    assert all(grade(note.format(f=_fib4(HIGH)), HIGH).values())


@pytest.mark.xfail(strict=True, reason="known gap: a clinic visit without a referral verb")
@pytest.mark.parametrize("note", HIGH_CORRECT_GAPS)
def test_correct_high_risk_notes_in_clinic_phrasing_pass(note):
    assert all(grade(note.format(f=_fib4(HIGH)), HIGH).values())


@pytest.mark.parametrize("note", HIGH_WRONG)
def test_wrong_high_risk_notes_fail(note):
    assert not all(grade(note.format(f=_fib4(HIGH)), HIGH).values())


def test_a_correct_note_of_the_other_indeterminate_variant_passes():
    note = (f"FIB-4 {_fib4(MID)}: indeterminate risk of advanced fibrosis (1.3-2.67). "
            "VCTE ordered. Weight loss of 7-10% with diet and exercise.")
    assert all(grade(note, MID).values())


def test_low_risk_orders_no_second_line_test():
    assert run_actions(TASK, [HCV], LOW)["elastography_ordered"]
    assert not run_actions(TASK, [ELASTOGRAPHY], LOW)["elastography_ordered"]
    assert not run_actions(TASK, [BIOPSY], LOW)["elastography_ordered"]


@pytest.mark.parametrize("orders", [[REFERRAL], [GI_REFERRAL], [CLINIC_VISIT],
                                    [REFERRAL, ELASTOGRAPHY]])
def test_high_risk_orders_a_hepatology_referral(orders):
    assert run_actions(TASK, orders, HIGH)["elastography_ordered"]


@pytest.mark.parametrize("orders", [[HCV], [ELASTOGRAPHY], [REFERRAL, BIOPSY]])
def test_high_risk_without_a_referral_or_with_a_biopsy_fails(orders):
    assert not run_actions(TASK, orders, HIGH)["elastography_ordered"]
