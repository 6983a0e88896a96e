"""Levothyroxine titration: the note checkpoints judge the plan, not the wording."""

from __future__ import annotations

from tests.tasks.helpers import grade_note, note_probes
from tests.tasks.helpers_endocrinology import run_actions

TASK = "thyroid_medication_management"
NOTE_CHECKS = {"under_replacement_recognized", "dose_plan_documented", "monitoring_documented"}

CORRECT = [
    """Assessment: TSH 8.9 mIU/L, above goal on levothyroxine 75 mcg -> under-replaced.
    Plan: increase LT4 to 88 mcg daily. Repeat TSH in 6 weeks.""",
    """Latest TSH 8.90 mU/L (prior 3.1). Hypothyroidism is inadequately replaced despite good
    adherence. Recommend uptitrating Synthroid to 100 mcg PO qAM. TSH to be rechecked in
    6-8 weeks.""",
    """1. Primary hypothyroidism, undertreated - thyrotropin 8.9 uIU/mL.
    2. Levothyroxine dose should be increased from 75 to 88 mcg once daily.
    3. Check thyroid function in 2 months.""",
    # SOAP with symbols and en dashes
    """S: fatigue, cold intolerance x3 mo; adherent, no interfering meds.
    O: TSH 8.9 mIU/L (12 d ago); FT4 0.9 ng/dL.
    A: 1° hypothyroidism – not at goal on LT4 75 mcg.
    P: ↑ LT4 to 100 mcg PO daily. Repeat TSH + FT4 in 6–8 wk.""",
    # narrative, micrograms written in mg, interval in days
    """58F w/ Hashimoto's on levothyroxine 75 µg qd; TSH now 8.9 (ref 0.4-4.5), i.e.
    undertreated despite good adherence. I would increase her dose to 0.088 mg daily (a 12.5
    mcg step). Check TSH in 42 days.""",
    # terse bullets, the change written as an arrow, no verb for the lab
    """- TSH: 8.9 mIU/L, up from 3.1
    - Dx: under-replaced primary hypothyroidism
    - Rx: LT4 75 -> 88 mcg daily
    - Labs: TSH in 8 weeks""",
]
WRONG = [
    # wrong direction
    "TSH 8.9, under-replaced. Decrease levothyroxine to 50 mcg. Recheck TSH in 6 weeks.",
    # hedged plan
    "TSH 8.9, under-replaced. Consider increasing levothyroxine to 88 mcg. Recheck TSH in 6 wk.",
    # too large a step
    "TSH 8.9, under-replaced. Increase levothyroxine to 125 mcg daily. Recheck TSH in 6 weeks.",
    # wrong TSH value and too-late follow-up
    "TSH 9.8, under-replaced. Increase levothyroxine to 88 mcg daily. Recheck TSH in 6 months.",
    # liothyronine added instead of a levothyroxine increase
    "TSH 8.9, under-replaced. Add liothyronine 5 mcg daily and keep levothyroxine at 75 mcg. "
    "Recheck TSH in 6 weeks.",
    # a 37 mcg step, written as an arrow
    "TSH 8.9 mIU/L, under-replaced. LT4 75 -> 112 mcg daily. Recheck TSH in 6 weeks.",
    # recheck before steady state
    "TSH 8.9 mIU/L, above goal. Increase levothyroxine to 88 mcg daily. Recheck TSH in 10 days.",
    # increase, then retracted
    """TSH 8.9 mIU/L, above goal. Increase levothyroxine to 88 mcg daily. On reflection,
    continue the same dose. Recheck TSH in 6 weeks.""",
    # keyword stuffing: both directions, every value
    """TSH 8.9 3.1 0.9, under-replaced, at goal. Increase levothyroxine to 88 mcg. Decrease
    levothyroxine to 50 mcg. Continue current dose. Recheck TSH in 6 weeks and 6 months.""",
]


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_dose_decision():
    stuffed = WRONG[-1]
    assert grade_note(TASK, stuffed)["dose_plan_documented"] is False


CREATE = "fhir_medication_request_create"


def _levothyroxine(code: str, dose: float) -> dict:
    return {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": "ug", "route": "oral", "frequency": 1, "period_unit": "day"}}


def test_orders_a_step_of_12_to_25_mcg_and_nothing_else():
    assert run_actions(TASK, [_levothyroxine("966253", 88)])["new_dose_prescribed"]  # 88 mcg
    assert run_actions(TASK, [_levothyroxine("892246", 100)])["new_dose_prescribed"]  # 100 mcg
    too_big = run_actions(TASK, [_levothyroxine("966224", 125)])  # 125 mcg: a 50 mcg step
    assert not too_big["new_dose_prescribed"]
    both = run_actions(TASK, [_levothyroxine("966253", 88), _levothyroxine("966225", 150)])
    assert not both["new_dose_prescribed"]
