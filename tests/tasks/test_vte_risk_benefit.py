"""Duration of anticoagulation after a first DVT: the variant decides provoked (surgery) or
unprovoked, and the note and prescription checkpoints follow that decision."""

from __future__ import annotations

from datetime import date

import pytest

from tests.tasks.helpers import grade_note, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "vte_risk_benefit"
PROVOKED, UNPROVOKED = None, 1  # the canonical instance and seeded variant 1
NOTE_CHECKS = {"provocation_classified", "duration_plan_documented"}


def test_the_two_instances_cover_both_categories():
    assert values(TASK, PROVOKED)["category"] == "provoked"
    assert values(TASK, UNPROVOKED)["category"] == "unprovoked"


PROVOKED_CORRECT = [
    """Assessment: provoked proximal DVT (right TKA 3 weeks before).
    Plan: continue apixaban 5 mg BID to complete 3 months total, then stop. No extended
    anticoagulation.""",
    """This DVT occurred after his knee replacement - a major transient risk factor.
    Anticoagulation should be stopped once he completes 3 months of treatment. Extended-phase
    therapy is not indicated.""",
    """Dx: post-op DVT L leg (TKA).
    Rx: apixaban 5 mg BID x 5 more weeks = 12 weeks total, then d/c.
    No indefinite AC.""",
    """The thrombosis was provoked by surgery. Plan: discontinue Eliquis after a total of 90
    days; no extended phase and no thrombophilia work-up.""",
]
PROVOKED_WRONG = [
    # misclassified
    "Unprovoked DVT. Continue apixaban 5 mg BID to complete 3 months, then stop.",
    # extended therapy after a surgically provoked DVT
    "Provoked DVT after TKA. After 3 months, continue apixaban indefinitely at 2.5 mg BID.",
    # 6 months
    "Provoked DVT after TKA. Stop apixaban after 6 months of treatment.",
    # hedged
    "Provoked DVT after TKA. Consider stopping apixaban after 3 months.",
    # stopped now, before the 3-month treatment phase is complete
    "Provoked DVT after TKA. Stop apixaban today.",
]
PROVOKED_STUFFED = """Provoked unprovoked DVT, idiopathic, after surgery. Stop apixaban after 3
months. Continue apixaban indefinitely at 2.5 mg. Stop apixaban after 6 months."""

UNPROVOKED_CORRECT = [
    """Unprovoked proximal DVT; bleeding risk low.
    Plan: extended anticoagulation with no stop date - reduce apixaban to 2.5 mg BID.""",
    """No provoking factor was found for this DVT (no surgery, travel, hormones or cancer). His
    risk of bleeding is low. I recommend indefinite anticoagulation with rivaroxaban 10 mg once
    daily, reviewed annually.""",
    """A: idiopathic left femoral-popliteal DVT, 6 months treated. Bleeding risk is not high.
    P: Eliquis 2.5 mg twice daily long-term (extended phase), annual review.""",
]
UNPROVOKED_WRONG = [
    # stopped
    "Unprovoked DVT, bleeding risk low. Stop apixaban now after 6 months.",
    # full dose, but with a planned stop
    "Unprovoked DVT, bleeding risk low. Continue apixaban 5 mg BID for 3 more months, then stop.",
    # misclassified
    "Provoked DVT, bleeding risk low. Extended anticoagulation with apixaban 2.5 mg BID.",
    # bleeding risk judged high yet extended therapy
    "Unprovoked DVT; high bleeding risk. Extended anticoagulation with apixaban 2.5 mg BID.",
    # hedged
    "Unprovoked DVT, bleeding risk low. Could consider extended apixaban 2.5 mg BID.",
]
UNPROVOKED_STUFFED = """Unprovoked provoked DVT after surgery; bleeding risk low, high bleeding
risk. Extended anticoagulation with apixaban 2.5 mg BID. Stop apixaban now. Continue
apixaban 5 mg BID indefinitely. Rivaroxaban 20 mg daily."""


@pytest.mark.parametrize("note", PROVOKED_WRONG)
def test_provoked_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note, PROVOKED).values())


@pytest.mark.parametrize("note", UNPROVOKED_WRONG)
def test_unprovoked_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note, UNPROVOKED).values())


@pytest.mark.parametrize(("note", "variant"), [(PROVOKED_STUFFED, PROVOKED),
                                               (UNPROVOKED_STUFFED, UNPROVOKED)])
def test_keyword_stuffing_fails(note, variant):
    assert not any(grade_note(TASK, note, variant).values())


def test_a_correct_note_for_one_category_fails_the_other():
    assert not all(grade_note(TASK, UNPROVOKED_CORRECT[0], PROVOKED).values())
    assert not all(grade_note(TASK, PROVOKED_CORRECT[0], UNPROVOKED).values())


def _rx(code: str, dose: float, per_day: int, days: int | None, refills: int = 0) -> dict:
    arguments = {"patient": "{patient_id}", "medication_code": code, "dose_value": dose,
                 "dose_unit": "mg", "route": "oral", "frequency": per_day,
                 "period_unit": "day", "refills": refills}
    if days:
        arguments["duration_days"] = days
    return {"tool": "fhir_medication_request_create", "arguments": arguments}


def _prescribed(actions: list[dict], variant: int | None) -> bool:
    return run_actions(TASK, actions, variant)["anticoagulant_prescribed"]


def test_provoked_prescription_completes_three_months_only():
    remaining = values(TASK, PROVOKED)["remaining_days"]
    assert _prescribed([_rx("1364445", 5, 2, remaining)], PROVOKED)
    assert not _prescribed([_rx("1364445", 5, 2, 90, refills=3)], PROVOKED)  # months beyond
    assert not _prescribed([_rx("1364445", 5, 2, None)], PROVOKED)  # open-ended
    assert not _prescribed([_rx("1364435", 2.5, 2, 90)], PROVOKED)  # extended phase
    assert not _prescribed([_rx("1364445", 5, 2, remaining), _rx("1364435", 2.5, 2, 90)],
                           PROVOKED)


def test_unprovoked_prescription_is_reduced_dose():
    assert _prescribed([_rx("1364435", 2.5, 2, 90, refills=3)], UNPROVOKED)
    assert _prescribed([_rx("1114198", 10, 1, 90, refills=3)], UNPROVOKED)
    assert _prescribed([_rx("1364445", 5, 2, 90, refills=3)], UNPROVOKED)  # full dose: ASH 2020
    assert not _prescribed([_rx("1364435", 2.5, 1, 90)], UNPROVOKED)  # once daily
    assert not _prescribed([_rx("1364435", 2.5, 2, 90), _rx("1232086", 20, 1, 90)],
                           UNPROVOKED)


# Independent review: physicians' other ways of writing the same plan, and subtly wrong plans.
_STOP = values(TASK, PROVOKED)["stop_date"]  # canonical: the 3-month mark
_STOP_WORDS = f"{date.fromisoformat(_STOP):%B} {date.fromisoformat(_STOP).day}"  # June 17
_WEEKS_LEFT = round(values(TASK, PROVOKED)["remaining_days"] / 7)
REVIEW_PROVOKED_WRONG = [
    # 3 more months on top of 7-9 weeks already given
    "Provoked DVT after TKA. Continue apixaban 5 mg BID for another 3 months, then stop.",
    # six months, in words
    "Provoked DVT after TKA. Continue anticoagulation for six months, then stop.",
    # non-committal: decide later
    pytest.param("""Provoked DVT after TKA. Continue apixaban 5 mg BID for 3 months. Then
    reassess the need for anticoagulation.""", marks=pytest.mark.xfail(
        strict=True, reason="known gap: 'reassess the need' is not read as a deferral of the "
                            "stop decision")),
    # negated stop
    "Provoked DVT after TKA. Do not stop apixaban after 3 months; continue long-term.",
    # stop date a quarter later than the 3-month mark
    f"Provoked DVT after TKA. Continue apixaban 5 mg BID through {int(_STOP[:4]) + 1}"
    f"{_STOP[4:]}, then stop.",
]
REVIEW_UNPROVOKED_WRONG = [
    "Unprovoked DVT; low bleeding risk. Extended anticoagulation with apixaban 2.5 mg once daily.",
    "Unprovoked DVT; low bleeding risk. Extended anticoagulation with rivaroxaban 10 mg BID.",
    """Unprovoked DVT; low bleeding risk. Extended anticoagulation with apixaban 2.5 mg BID.
    Anticoagulation can be stopped after 12 months.""",
]


@pytest.mark.parametrize(("note", "variant"),
                         [pytest.param(*n.values, PROVOKED, marks=n.marks)
                          if hasattr(n, "marks") else (n, PROVOKED)
                          for n in REVIEW_PROVOKED_WRONG]
                         + [(n, UNPROVOKED) for n in REVIEW_UNPROVOKED_WRONG])
def test_review_wrong_plans_fail(note, variant):
    verdicts = grade_note(TASK, note, variant)
    assert verdicts["provocation_classified"]  # the classification is right ...
    assert not verdicts["duration_plan_documented"]  # ... the plan is not


def _rx_tablets(quantity: int, refills: int = 0, dose_unit: str = "mg") -> dict:
    arguments = {"patient": "{patient_id}", "medication_code": "1364445",
                 "dose_value": 5 if dose_unit == "mg" else 1, "dose_unit": dose_unit,
                 "route": "oral", "frequency": 2, "period_unit": "day", "quantity": quantity,
                 "quantity_unit": "tablet", "refills": refills}
    return {"tool": "fhir_medication_request_create", "arguments": arguments}


def test_provoked_prescription_bounded_by_tablet_count_or_refills():
    remaining = values(TASK, PROVOKED)["remaining_days"]
    assert _prescribed([_rx_tablets(2 * remaining)], PROVOKED)  # quantity, no duration
    assert _prescribed([_rx_tablets(2 * remaining, dose_unit="tablet")], PROVOKED)
    assert not _prescribed([_rx_tablets(180)], PROVOKED)  # 90 days of tablets
    assert not _prescribed([_rx("1364445", 5, 2, remaining, refills=2)], PROVOKED)  # refills
    # a correct course plus an open-ended order of the same drug is extended therapy
    assert not _prescribed([_rx("1364445", 5, 2, remaining), _rx("1364445", 5, 2, None)],
                           PROVOKED)
