"""Venlafaxine XR -> sertraline cross-taper: first-step orders, counselling and follow-up."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "snri_to_ssri_titration"
NOTE_CHECKS = {"switch_rationale_stated", "safety_counselling_documented",
               "cross_taper_documented", "followup_documented"}

CORRECT = [
    # terse bullets with arrows and "x 2 weeks"
    """MDD, partial response: PHQ-9 14/27 on venlafaxine XR 150 mg. Venlafaxine-associated
hypertension (148/94) and sweating.
Plan (cross-taper):
- Venlafaxine XR 150 -> 75 mg daily x 2 weeks, then 37.5 mg daily x 1-2 weeks, then off.
- Sertraline 25 mg PO daily x 7 days, then 50 mg daily.
- Discussed discontinuation symptoms (dizziness, brain zaps, irritability).
- Educated on serotonin syndrome warning signs during the overlap.
- RTC in 4 weeks with repeat PHQ-9.""",
    # numbered recommendations, brand names, start at 50 mg
    """Assessment: recurrent major depression with residual symptoms (PHQ-9 = 14, moderate
depression) after an adequate trial of Effexor XR; blood pressure has risen to 148/94 and he
has night sweats.
Recommendations:
1. Decrease venlafaxine XR to 75 mg once daily today; reduce by 37.5 mg every 1-2 weeks
thereafter.
2. Start sertraline 50 mg every morning.
3. Counselled about SNRI withdrawal symptoms and about serotonin toxicity (agitation, tremor,
diarrhea, fever).
4. Follow-up visit in 6 weeks: PHQ-9 and BP.""",
    # narrative, a 37.5 mg first step
    """46M with MDD, incomplete response to venlafaxine (PHQ-9 14) and elevated blood pressure.
I recommend a cross-taper: reduce venlafaxine from 150 mg to 112.5 mg daily this week while
starting Zoloft 25 mg daily; next, lower venlafaxine to 75 mg and raise sertraline to 50 mg.
He understands the risk of discontinuation syndrome and of serotonin syndrome.
Reassess with PHQ-9 in 4-6 weeks.""",
]

BASE = ("MDD, partial response: PHQ-9 14 on venlafaxine XR 150 mg; hypertension.\n"
        "{taper} {start}\n{counsel}\nReassess PHQ-9 in {interval}.")
GOOD = {"taper": "Reduce venlafaxine XR to 75 mg daily.", "start": "Start sertraline 25 mg daily.",
        "counsel": "Discussed discontinuation symptoms and serotonin syndrome.",
        "interval": "4 weeks"}


def _note(**changes: str) -> str:
    return BASE.format(**{**GOOD, **changes})


WRONG = [
    (_note().replace("PHQ-9 14", "PHQ-9 19"), "switch_rationale_stated"),  # wrong score
    (_note().replace("; hypertension", ""), "switch_rationale_stated"),  # no BP rise
    (_note(taper="Stop venlafaxine abruptly today."), "cross_taper_documented"),
    (_note(taper="Continue venlafaxine XR 150 mg daily."), "cross_taper_documented"),
    (_note(taper="Reduce venlafaxine XR to 37.5 mg daily."), "cross_taper_documented"),  # too big
    (_note(start="Start sertraline 100 mg daily."), "cross_taper_documented"),
    (_note(start="Consider starting sertraline 25 mg daily."), "cross_taper_documented"),
    (_note(start="Start sertraline 25 mg BID."), "cross_taper_documented"),
    (_note(counsel="Discussed discontinuation symptoms. No risk of serotonin syndrome with "
                   "this combination."), "safety_counselling_documented"),
    (_note(counsel="Discussed serotonin syndrome."), "safety_counselling_documented"),
    (_note(interval="3 months"), "followup_documented"),
]

STUFFED = """PHQ-9 14 19 10, partial response, hypertension. Reduce venlafaxine XR to 75 mg.
Increase venlafaxine to 225 mg. Stop venlafaxine abruptly. Start sertraline 25 mg daily.
Avoid sertraline. Start sertraline 200 mg BID. Discontinuation symptoms, serotonin syndrome.
Reassess PHQ-9 in 4 weeks."""


def test_canonical_values():
    vals = values(TASK)
    assert (vals["venlafaxine_mg"], vals["new_venlafaxine_mg"], vals["phq9"]) == (150, 75, 14)
    assert (vals["venlafaxine_low"], vals["venlafaxine_high"]) == (75, 112.5)


@pytest.mark.parametrize("note", CORRECT)
def test_correct_notes_pass(note):
    verdicts = grade_note(TASK, note)
    assert set(verdicts) == NOTE_CHECKS
    assert all(verdicts.values()), verdicts


def test_template_note_passes():
    assert all(grade_note(TASK, _note()).values())


@pytest.mark.parametrize(("note", "check"), WRONG)
def test_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, STUFFED)
    assert not verdicts["cross_taper_documented"]
    assert not verdicts["switch_rationale_stated"]


def _seed_with_dose(mg: int) -> int:
    return next(s for s in range(40) if values(TASK, s)["venlafaxine_mg"] == mg)


def test_225_mg_variant_steps_down_to_150():
    seed = _seed_with_dose(225)
    vals = values(TASK, seed)
    assert (vals["new_venlafaxine_mg"], vals["venlafaxine_low"]) == (150, 150)
    head = f"MDD, partial response: PHQ-9 {vals['phq9']}; hypertension on venlafaxine.\n"
    tail = ("\nStart sertraline 25 mg daily.\nDiscussed discontinuation symptoms and serotonin "
            "syndrome.\nReassess PHQ-9 in 4 weeks.")
    right = head + "Reduce venlafaxine XR from 225 mg to 150 mg daily." + tail
    assert all(grade_note(TASK, right, seed).values())
    too_fast = head + "Reduce venlafaxine XR from 225 mg to 75 mg daily." + tail
    assert not grade_note(TASK, too_fast, seed)["cross_taper_documented"]


CREATE = "fhir_medication_request_create"


def _order(code: str, dose: float, unit: str = "mg", per_day: int = 1, **extra) -> dict:
    return {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": unit, "route": "oral", "frequency": per_day, "period_unit": "day", **extra}}


@pytest.mark.parametrize(("order", "passes"), [
    (_order("312940", 25), True),                  # sertraline 25 mg tablet, 25 mg daily
    (_order("312941", 50), True),                  # 50 mg daily
    (_order("312941", 1, "tablet"), True),         # one 50 mg tablet daily
    (_order("312938", 100), False),                # 100 mg: too high to start
    (_order("312940", 25, per_day=2), False),      # twice daily
])
def test_sertraline_start_dose(order, passes):
    assert run_actions(TASK, [order])["sertraline_started"] is passes


def test_other_serotonergic_drug_fails_the_sertraline_checkpoint():
    escitalopram = _order("349332", 10)
    assert not run_actions(TASK, [_order("312940", 25), escitalopram])["sertraline_started"]


@pytest.mark.parametrize(("orders", "passes"), [
    ([_order("313585", 75)], True),                                  # 150 -> 75
    ([_order("313585", 75), _order("313583", 37.5)], True),          # 150 -> 112.5
    ([_order("313583", 37.5)], False),                               # 150 -> 37.5: too big
    ([_order("313581", 150)], False),                                # unchanged
    ([_order("313585", 1, "capsule")], True),                        # one 75 mg capsule
])
def test_venlafaxine_first_taper_step(orders, passes):
    assert run_actions(TASK, orders)["venlafaxine_reduced"] is passes
