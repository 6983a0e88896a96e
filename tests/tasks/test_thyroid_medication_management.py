"""Levothyroxine titration: the note checkpoints judge the plan, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note

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
    # keyword stuffing: both directions, every value
    """TSH 8.9 3.1 0.9, under-replaced, at goal. Increase levothyroxine to 88 mcg. Decrease
    levothyroxine to 50 mcg. Continue current dose. Recheck TSH in 6 weeks and 6 months.""",
]


@pytest.mark.parametrize("note", CORRECT)
def test_correct_notes_pass(note):
    verdicts = grade_note(TASK, note)
    assert set(verdicts) == NOTE_CHECKS
    assert all(verdicts.values()), verdicts


@pytest.mark.parametrize("note", WRONG)
def test_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note).values())


def test_keyword_stuffing_fails_the_dose_decision():
    stuffed = WRONG[-1]
    assert grade_note(TASK, stuffed)["dose_plan_documented"] is False
