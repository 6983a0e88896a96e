"""When orders run (``order_schedule``): steps of a titration versus orders that add up."""

from __future__ import annotations

import math

from physbench_gym.grading.order_schedule import order_windows, overlap, steps

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"


def _order(code: str, mg: float, days: int | None = None, sig: str = "as directed",
           validity_start: str | None = None, bounds: tuple[str, str] | None = None) -> dict:
    repeat: dict = {"frequency": 1, "period": 1, "periodUnit": "d"}
    if days:
        repeat["boundsDuration"] = {"value": days, "unit": "days", "code": "d"}
    if bounds:
        repeat["boundsPeriod"] = {"start": bounds[0], "end": bounds[1]}
    dispense: dict = {}
    if days:
        dispense["expectedSupplyDuration"] = {"value": days, "unit": "days", "code": "d"}
    if validity_start:
        dispense["validityPeriod"] = {"start": validity_start}
    return {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
            "authoredOn": "2026-02-10T17:30:00Z",
            "medicationCodeableConcept": {"coding": [{"system": RXNORM, "code": code}]},
            "dosageInstruction": [{"text": sig, "timing": {"repeat": repeat},
                                   "doseAndRate": [{"doseQuantity": {
                                       "value": mg, "unit": "mg", "code": "mg"}}]}],
            "dispenseRequest": dispense}


def test_orders_of_one_drug_with_different_courses_are_consecutive_steps():
    low, high = _order("312940", 25, 7), _order("312941", 50, 30)
    assert order_windows([high, low]) == [(7.0, 37.0), (0.0, 7.0)]
    assert steps([high, low]) == [[low], [high]]


def test_equal_courses_or_open_orders_run_together():
    a, b = _order("313585", 75, 14), _order("313583", 37.5, 14)
    assert order_windows([a, b]) == [(0.0, 14.0), (0.0, 14.0)]
    a, b = _order("313585", 75), _order("313583", 37.5)
    assert order_windows([a, b]) == [(0.0, math.inf), (0.0, math.inf)]
    assert steps([a, b]) == [[a, b]]


def test_the_same_dose_twice_is_never_read_as_steps():
    a, b = _order("312940", 25, 7), _order("312940", 25, 30)
    assert overlap(*order_windows([a, b]))


def test_a_stated_start_sequences_orders():
    first = _order("313581", 150, 7)
    for later in (_order("313585", 75, 7, sig="Days 8-14: take 75 mg daily, then stop."),
                  _order("313585", 75, 7, sig="Starting day 8, take 75 mg daily."),
                  _order("313585", 75, 7, sig="Week 2: 75 mg daily."),
                  _order("313585", 75, 7, validity_start="2026-02-17"),
                  _order("313585", 75, bounds=("2026-02-17", "2026-02-24"))):
        windows = order_windows([first, later])
        assert windows[1][0] == 7.0 and not overlap(*windows), later
    # a sig without a start day ('for 7 days') states none
    assert overlap(*order_windows([first, _order("313585", 75, 7, sig="Take daily for 7 days.")]))


def test_a_long_supply_beside_another_dose_is_no_step():
    """A 90-day supply with refills beside an open order of another dose runs with it."""
    supply = _order("617310", 20, 90)
    supply["dispenseRequest"]["numberOfRepeatsAllowed"] = 3
    assert overlap(*order_windows([supply, _order("617311", 40)]))


def test_an_order_check_can_ask_for_the_course_length():
    """A 5-day antiviral course: a 10-day or open-ended prescription is another order."""
    from physbench_gym.grading.actions import OrderMatch

    five_days = OrderMatch(codes=[f"{RXNORM}|2587899"], course_days={"min": 5, "max": 5})

    def problems(order: dict) -> list[str]:
        return five_days.problems({**order, "subject": {"reference": "Patient/p1"}}, "p1")

    assert problems(_order("2587899", 150, 5)) == []
    assert problems(_order("2587899", 150, bounds=("2026-02-10", "2026-02-15"))) == []
    assert problems(_order("2587899", 150, 10)) == ["10-day course"]
    assert problems(_order("2587899", 150)) == ["open-ended"]
    assert problems(_order("313585", 150, 5)) == ["different code"]
