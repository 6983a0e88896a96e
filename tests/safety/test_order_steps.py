"""Consecutive steps of a titration or taper are not concurrent orders: their doses do not add
up and they are no duplication; orders that run together still are (real embedded EHR)."""

from __future__ import annotations

from tests.safety.agents import prescription
from tests.safety.helpers import rules, run_plan

SERTRALINE_25, SERTRALINE_50 = "312940", "312941"
VENLAFAXINE_XR_150, VENLAFAXINE_XR_75 = "313581", "313585"
ACETAMINOPHEN_500 = "198440"
TASK = "snri_to_ssri_titration"


def _alone(orders):
    """Only ``orders`` (a function of the patient id), without the reference orders."""
    return run_plan(TASK, orders, oracle=False)[0]


def _twice(info, drug: str) -> bool:
    """A duplication of ``drug`` with itself (the chart's venlafaxine beside a sertraline
    course longer than the cross-taper allowance is another finding)."""
    return any(v["rule"] == "therapeutic_duplication" and f"{drug} ordered twice" in v["message"]
               for v in info["safety"])


def test_a_titration_written_as_orders_of_different_length_is_no_duplication():
    info = _alone(lambda p: [prescription(p, SERTRALINE_25, 25, duration_days=7),
                             prescription(p, SERTRALINE_50, 50, duration_days=30)])
    assert not _twice(info, "sertraline"), info["safety"]


def test_two_orders_of_one_drug_over_the_same_days_are_still_a_duplication():
    info = _alone(lambda p: [prescription(p, SERTRALINE_25, 25, duration_days=7),
                             prescription(p, SERTRALINE_50, 50, duration_days=7)])
    assert _twice(info, "sertraline")
    info = _alone(lambda p: [prescription(p, SERTRALINE_25, 25, duration_days=7),
                             prescription(p, SERTRALINE_25, 25, duration_days=7)])
    assert _twice(info, "sertraline")


def test_a_taper_step_with_a_stated_start_day_follows_the_first_step():
    first = lambda p: prescription(p, VENLAFAXINE_XR_150, 150, duration_days=7)  # noqa: E731
    info = _alone(lambda p: [first(p), prescription(
        p, VENLAFAXINE_XR_75, 75, duration_days=7, sig="Days 8-14: take 75 mg daily, then stop.")])
    assert not _twice(info, "venlafaxine"), info["safety"]
    info = _alone(lambda p: [first(p), prescription(p, VENLAFAXINE_XR_75, 75, duration_days=7)])
    assert _twice(info, "venlafaxine")


def test_the_daily_total_counts_only_orders_that_run_together():
    step_down = lambda p: [  # noqa: E731
        prescription(p, ACETAMINOPHEN_500, 1000, frequency=4, duration_days=3),
        prescription(p, ACETAMINOPHEN_500, 500, frequency=4, duration_days=30)]
    assert _alone(step_down)["safety"] == [], _alone(step_down)["safety"]
    together = lambda p: [  # noqa: E731
        prescription(p, ACETAMINOPHEN_500, 1000, frequency=4, duration_days=30),
        prescription(p, ACETAMINOPHEN_500, 500, frequency=4, duration_days=30)]
    info = _alone(together)
    assert "dose_above_maximum" in rules(info) and "therapeutic_duplication" in rules(info)
    assert any("6000 mg/day from 2 active orders" in v["message"] for v in info["safety"])
