"""Incidental solid nodule: size and smoking history decide follow-up and screening advice."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "incidental_pulmonary_findings"
NOTE_CHECKS = {"nodule_risk_assessed", "screening_eligibility_assessed",
               "followup_plan_documented"}

CORRECT = [
    """Incidental 7 mm solid RUL nodule (8 x 6 mm). High-risk patient per Fleischner
    (30 pack-years, emphysema). Plan: repeat CT chest in 12 months, then at 18-24 months.
    He is eligible for LCS, annual LDCT to begin after the nodule follow-up is complete.""",
    """Solid nodule measuring 7 mm (average), right upper lobe.
    Fleischner 2017, 6-8 mm, high risk -> follow-up chest CT at 6-12 months and again at
    18-24 months.
    Meets USPSTF criteria for lung cancer screening (age 66, 30 pk-yr, quit 9 yrs ago).""",
    """RUL solid nodule, mean diameter 0.7 cm. The patient is high risk.
    Recommend non-contrast CT of the chest in 9 months.
    LCS: qualifies (USPSTF 2021). No PET/CT for a nodule under 8 mm.""",
    # SOAP shorthand, en dashes, no verb for the scan
    """A: solitary solid RUL nodule 7 mm avg (8x6), Fleischner high-risk pt (30 pk-yr,
    emphysema, FHx, asbestos).
    P: f/u non-con CT chest in 6–12 mo, then 18–24 mo. LCS eligible (USPSTF '21); enroll
    after nodule surveillance.""",
    # narrative
    """Given his high-risk profile and a solid nodule averaging 7 mm, the Fleischner
    recommendation is a CT at 6 to 12 months. I have ordered a chest CT for about 9 months from
    now. He meets the USPSTF criteria for annual low-dose CT lung cancer screening, which
    should begin once the nodule follow-up is finished.""",
]
WRONG = [
    # interval of a >8 mm nodule
    """7 mm solid nodule, high-risk patient. Eligible for lung cancer screening.
    Repeat CT chest in 3 months.""",
    # screening eligibility reversed
    """7 mm solid nodule, high-risk patient. Not eligible for lung cancer screening.
    Repeat CT chest in 6-12 months.""",
    # no surveillance
    """7 mm solid nodule, high-risk patient. Eligible for lung cancer screening.
    No follow-up CT needed.""",
    # hedged plan
    """7 mm solid nodule, high-risk patient. Eligible for lung cancer screening.
    Could consider CT chest in 6-12 months.""",
    # wrong size (long axis) and wrong risk
    """9 mm solid nodule, low-risk patient. Eligible for lung cancer screening.
    Repeat CT chest in 6-12 months.""",
    # PET/CT instead of CT surveillance for a 7 mm nodule
    """7 mm solid nodule, high-risk patient. Eligible for lung cancer screening. Order PET/CT
    now to characterize it.""",
    # screening age limit misapplied
    """7 mm solid nodule, high-risk patient. Repeat CT chest in 6-12 months. Not eligible for
    lung cancer screening because he is over 65.""",
    # screening LDCT in place of the nodule follow-up
    """7 mm solid nodule, high-risk patient. Eligible for lung cancer screening; enroll in
    annual LDCT now, no separate CT follow-up needed.""",
    # interval too long
    """7 mm solid nodule, high-risk patient. Eligible for lung cancer screening. Repeat CT
    chest in 2 years.""",
    # keyword stuffing: every value, both directions
    """Nodule 7 mm, 9 mm, high risk, low risk. Eligible for lung cancer screening. Not
    eligible for lung cancer screening. CT chest in 3 months. CT chest in 6-12 months.
    No follow-up CT.""",
]


def test_canonical_values():
    vals = values(TASK)
    assert (vals["category"], vals["lcs_eligible"]) == ("6-8 mm", True)


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, WRONG[-1])
    assert not verdicts["screening_eligibility_assessed"]
    assert not verdicts["followup_plan_documented"]


def _variant(**wanted: object) -> int:
    return next(s for s in range(80)
                if all(values(TASK, s)[k] == v for k, v in wanted.items()))


def test_large_nodule_variant_calls_for_pet():
    seed = _variant(category=">8 mm")
    vals = values(TASK, seed)
    head = f"Solid nodule {vals['nodule_mm']} mm, high-risk patient. "
    lcs = ("Eligible for lung cancer screening." if vals["lcs_eligible"]
           else "Not eligible for lung cancer screening.")
    assert all(grade_note(TASK, head + lcs + " Order PET/CT now.", seed).values())
    late = head + lcs + " Repeat CT chest in 6-12 months."
    assert not grade_note(TASK, late, seed)["followup_plan_documented"]


def test_long_quit_variant_is_not_screening_eligible():
    seed = _variant(lcs_eligible=False)
    vals = values(TASK, seed)
    assert vals["quit_years"] > 15
    head = f"Solid nodule {vals['nodule_mm']} mm, high-risk patient. "
    plan = " Order PET/CT now." if vals["category"] == ">8 mm" else " CT chest in 6-12 months."
    right = head + "He does not qualify for lung cancer screening (quit > 15 years)." + plan
    assert all(grade_note(TASK, right, seed).values())
    wrong = head + "He is eligible for lung cancer screening." + plan
    assert not grade_note(TASK, wrong, seed)["screening_eligibility_assessed"]


@pytest.mark.parametrize(("code", "system", "passed"), [
    ("71250", "cpt", True), ("24627-2", "loinc", True), ("71271", "cpt", False),
])
def test_follow_up_ct_may_be_ordered_by_its_cpt_or_loinc_code(code, system, passed):
    verdicts = run_actions(TASK, [{"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "display": "CT chest",
        "category": "imaging", "reason": "Solid pulmonary nodule follow-up"}}])
    assert verdicts["followup_imaging_ordered"] is passed


# review finding 1: another guideline's verdict, attributed to it, is no contradiction
_NOT_ELIGIBLE_VARIANT = 7   # quit 18 years ago, 41 pack-years
_USPSTF_ITEM = ("2. He is not eligible for lung cancer screening under USPSTF 2021. His quit "
                "date is 18 years back, beyond the 15-year window, despite 41 pack-years.")


def _eligibility(item: str, variant: int | None = _NOT_ELIGIBLE_VARIANT) -> bool:
    from tests.tasks.helpers import oracle_note
    note = oracle_note("incidental_pulmonary_findings", variant)
    assert _USPSTF_ITEM in note
    return grade_note("incidental_pulmonary_findings", note.replace(_USPSTF_ITEM, item),
                      variant)["screening_eligibility_assessed"]


@pytest.mark.parametrize("item", [
    "2. He is not eligible for lung cancer screening under USPSTF 2021 (quit > 15 years); he "
    "would be eligible under ACS 2023, which drops the years-since-quit criterion.",
    "2. He does not meet USPSTF 2021 criteria for lung cancer screening because he quit 18 years "
    "ago. Under the ACS 2023 guideline, which removed the years-since-quit criterion, he is "
    "eligible.",
    "2. He is not eligible for lung cancer screening under USPSTF 2021 (quit 18 years ago), but "
    "he is eligible under the ACS 2023 guideline.",
    "2. He does not meet USPSTF 2021 criteria for lung cancer screening because he quit 18 years "
    "ago.",
    "2. Not a candidate for LDCT screening: he quit 18 years ago, beyond the USPSTF 15-year "
    "window.",
])
def test_uspstf_verdict_with_another_guidelines_verdict_passes(item):
    assert _eligibility(item)


@pytest.mark.parametrize("item", [
    "2. He is not eligible for lung cancer screening under USPSTF 2021 (quit 18 years ago), but "
    "he is eligible for annual LDCT.",
    "2. He is eligible for lung cancer screening (ACS 2023 and USPSTF 2021).",
    "2. Under the ACS 2023 guideline he is eligible for lung cancer screening.",
])
def test_unattributed_or_uspstf_eligibility_still_fails(item):
    assert not _eligibility(item)
