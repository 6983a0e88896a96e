"""SSRI-associated SIADH: the note checkpoints judge the interpretation and plan, the action
checkpoints the orders and the message written to the EHR."""

from __future__ import annotations

import gymnasium as gym
import pytest

from tests.tasks.helpers import grade_note, note_probes, values

TASK = "hyponatremia_siadh_workup"
NOTE_CHECKS = {"labs_interpreted", "siadh_diagnosed", "fluid_restriction_documented",
               "correction_limit_documented", "ssri_plan_documented"}

CORRECT = [
    """Na 126 mEq/L, serum osm 264 mOsm/kg, Uosm 412, urine Na 64 mEq/L. TSH and AM cortisol
    normal, thiazide off 6 weeks. Pt is euvolemic -> SIADH, likely sertraline-induced.
    Plan: restrict fluids to < 1 L/day. Discontinue sertraline; PCP to choose an alternative
    (mirtazapine). Limit correction to ≤ 8 mEq/L per 24 h.""",
    """Assessment: euvolemic hypo-osmolar hyponatremia (sodium 126 mmol/L, plasma osmolality
    264) with inappropriately concentrated urine (urine osmolality 412 mOsm/kg) and urine
    sodium 64 mmol/L = syndrome of inappropriate antidiuresis. Hypothyroidism and adrenal
    insufficiency excluded. Culprit: the SSRI sertraline.
    Recommendations:
    - Fluid intake no more than 800 mL daily.
    - Switch sertraline to mirtazapine in coordination with the PCP.
    - Rate of correction should not exceed 8 mmol/L in 24 hours.""",
    """Impression: SIADH secondary to sertraline (Zoloft) in a euvolemic 76-year-old.
    Data: serum Na 126 mmol/L; Sosm 264 mOsm/kg H2O; UOsm 412 mOsm/kg H2O; UNa 64 mmol/L.
    P:
    1. Free water restriction to 1000 mL/24 h.
    2. Hold sertraline, message sent to PCP.
    3. Goal Na rise <=8 mmol/L/24h.""",
]

BASE = """Serum sodium 126 mmol/L, serum osmolality 264 mOsm/kg, urine osmolality 412 mOsm/kg,
urine sodium 64 mmol/L. {dx}
{fluid}
{ssri}
{limit}"""
GOOD = {"dx": "Clinically euvolemic: SIADH due to sertraline.",
        "fluid": "Fluid restriction to 800 mL/day.",
        "ssri": "Stop sertraline.",
        "limit": "Limit the sodium rise to 8 mmol/L per 24 h."}
WRONG = {
    # thiazide blamed, sertraline kept
    "siadh_diagnosed": {**GOOD, "dx": "Euvolemic SIADH due to hydrochlorothiazide."},
    # fluids pushed (hypovolemia reasoning)
    "fluid_restriction_documented": {**GOOD, "fluid": "Encourage fluids, 2 L/day."},
    # correction limit too fast
    "correction_limit_documented": {**GOOD, "limit": "Aim to raise sodium by 15 mmol/L per 24 h."},
    # hedged SSRI plan
    "ssri_plan_documented": {**GOOD, "ssri": "Consider stopping sertraline."},
}


_, test_wrong_note_fails_its_checkpoint = note_probes(
    TASK, wrong={check: (BASE.format(**fields), check) for check, fields in WRONG.items()})


@pytest.mark.parametrize("note", [
    # wrong urine sodium value
    BASE.format(**GOOD).replace("urine sodium 64", "urine sodium 46"),
    # too liberal a restriction
    BASE.format(**{**GOOD, "fluid": "Fluid restriction to 1.5 L/day."}),
    # hypovolemic reading of the labs
    BASE.format(**{**GOOD, "dx": "Hypovolemic hyponatremia from the thiazide."}),
    # sertraline continued
    BASE.format(**{**GOOD, "ssri": "Continue sertraline 50 mg daily."}),
    # euvolemia denied
    BASE.format(**{**GOOD, "dx": "Not euvolemic. SIADH due to sertraline."}),
    # contradictory SSRI plan
    BASE.format(**GOOD) + "\nSertraline can continue unchanged.",
])
def test_subtly_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note).values())


def test_keyword_stuffing_fails_the_decisions():
    stuffed = """Sodium 126 124 129, serum osmolality 264, urine osmolality 412, urine sodium 64.
    Euvolemic, hypovolemic. SIADH due to sertraline, not due to sertraline.
    Fluid restriction to 800 mL/day. Encourage fluids 2 L/day.
    Stop sertraline. Continue sertraline. Increase sertraline.
    Limit the sodium rise to 8 mmol/L per 24 h, or correct by 20 mmol/L per 24 h."""
    verdicts = grade_note(TASK, stuffed)
    assert verdicts["siadh_diagnosed"] is False
    assert verdicts["fluid_restriction_documented"] is False
    assert verdicts["ssri_plan_documented"] is False
    assert verdicts["correction_limit_documented"] is False


def test_siadh_criteria_hold_in_every_variant():
    for variant in (None, *range(20)):
        v = values(TASK, variant)
        assert v["sosm"] < 275 and v["uosm"] > 100 and v["una"] > 30
        assert v["na"] < v["na_3w"] < v["na_6w"] < 135


def _checkpoints_after(*writes: dict) -> dict:
    """Checkpoint states after the oracle's reads and the given write actions."""
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        env.reset(options={"variant": "canonical"})
        info: dict = {}
        for action in env.unwrapped.oracle_actions():
            if action["tool"].endswith("_create") or action["tool"].endswith("_message"):
                break
            *_, info = env.step(action)
        patient = values(TASK)["patient_id"]
        for tool, arguments in writes:
            *_, info = env.step({"tool": tool, "arguments": {"patient": patient, **arguments}})
        return info["checkpoints"]
    finally:
        env.close()


SR = "fhir_service_request_create"
BMP = (SR, {"code": "51990-0", "system": "loinc", "category": "laboratory"})
SODIUM = (SR, {"code": "2951-2", "system": "loinc", "category": "laboratory"})
URATE = (SR, {"code": "3084-1", "system": "loinc", "category": "laboratory"})
URINE_K = (SR, {"code": "2828-2", "system": "loinc", "category": "laboratory"})
BMP_2000 = (SR, {"code": "24321-2", "system": "loinc", "category": "laboratory"})
SALINE = ("fhir_medication_request_create",
          {"medication_code": "313002", "dose_value": 1000, "dose_unit": "mL",
           "route": "intravenous", "frequency": 1, "period_unit": "day"})
THIAZIDE = ("fhir_medication_request_create",
            {"medication_code": "310798", "dose_value": 25, "dose_unit": "mg",
             "frequency": 1, "period_unit": "day"})
MESSAGE = ("fhir_communication_create_message",
           {"recipient": "prac-pcp-05", "text": "SIADH from sertraline: please stop it."})


@pytest.mark.parametrize("writes", [[BMP, URATE], [SODIUM, URATE], [BMP_2000, URINE_K]])
def test_workup_orders_pass(writes):
    assert _checkpoints_after(*writes)["workup_ordered"]["passed"]


@pytest.mark.parametrize("writes", [
    [BMP, URATE, SALINE],  # isotonic saline worsens SIADH
    [BMP, URATE, THIAZIDE],  # thiazide restarted
])
def test_wrong_workup_orders_fail(writes):
    assert not _checkpoints_after(*writes)["workup_ordered"]["passed"]


def test_message_must_name_the_ssri():
    assert _checkpoints_after(MESSAGE)["prescriber_contacted"]["passed"]
    vague = (MESSAGE[0], {**MESSAGE[1], "text": "Please see my consult note."})
    assert not _checkpoints_after(vague)["prescriber_contacted"]["passed"]


@pytest.mark.parametrize(("note", "check"), [
    # sertraline kept
    (BASE.format(**{**GOOD, "ssri": "Continue sertraline at the current dose."}),
     "ssri_plan_documented"),
    # volume status wrong
    (BASE.format(**{**GOOD, "dx": "Not euvolemic - hypervolemic; SIADH due to sertraline."}),
     "siadh_diagnosed"),
    # restriction too liberal to work
    (BASE.format(**{**GOOD, "fluid": "Fluid restriction to 2 L/day."}),
     "fluid_restriction_documented"),
    # correction target above the safe limit
    (BASE.format(**{**GOOD, "limit": "Correct sodium by 14 mmol/L in 24 h."}),
     "correction_limit_documented"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False


# review finding 4: a switch of sertraline to another SSRI or SNRI keeps the cause of SIADH
def _with_item_2(text: str) -> str:
    from tests.tasks.helpers import oracle_note
    lines = oracle_note("hyponatremia_siadh_workup").splitlines()
    return "\n".join(text if line.strip().startswith("2.") else line for line in lines)


@pytest.mark.parametrize("item", [
    "2. Switch sertraline to escitalopram.",
    "2. Switch sertraline to venlafaxine.",
    "2. Switch from sertraline to citalopram.",
    "2. Swap sertraline for escitalopram.",
    "2. Transition sertraline to an SNRI.",
    "2. Change sertraline to another SSRI such as escitalopram.",
    "2. Stop sertraline. Could switch to escitalopram later.",
])
def test_switch_within_the_class_fails(item):
    assert not grade_note("hyponatremia_siadh_workup", _with_item_2(item))["ssri_plan_documented"]


@pytest.mark.parametrize("item", [
    "2. Switch sertraline to mirtazapine.",
    "2. Switch from sertraline to mirtazapine 15 mg at bedtime.",
    "2. Change sertraline to bupropion XL 150 mg daily.",
    "2. Stop sertraline; do not switch to escitalopram or another SSRI, which carry the same risk.",
    "2. Stop sertraline. Switching to another SSRI (e.g., escitalopram) or an SNRI would not "
    "remove the risk; if an antidepressant is needed, use mirtazapine or bupropion.",
    "2. Stop sertraline; switch to mirtazapine rather than escitalopram.",
    "2. Stop sertraline. Changing to escitalopram is not advised because SSRIs share the risk.",
])
def test_stop_or_switch_out_of_the_class_passes(item):
    assert grade_note("hyponatremia_siadh_workup", _with_item_2(item))["ssri_plan_documented"]
