"""Duration of anticoagulation after a first DVT: the variant decides provoked (surgery) or
unprovoked, and the note and prescription checkpoints follow that decision."""

from __future__ import annotations

from datetime import date

import gymnasium as gym
import pytest

from physbench_gym.agents import run_episode
from physbench_gym.agents.adversarial import CanonicalReplayAgent
from tests.tasks.helpers import grade_note, note_probes, oracle_note, run_oracle, values
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


_, test_provoked_wrong_notes_fail = note_probes(TASK, wrong=PROVOKED_WRONG, variant=PROVOKED)
_, test_unprovoked_wrong_notes_fail = note_probes(TASK, wrong=UNPROVOKED_WRONG, variant=UNPROVOKED)


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


# the classification is right, the plan is not
_, test_review_provoked_wrong_plans_fail = note_probes(
    TASK, wrong=REVIEW_PROVOKED_WRONG, variant=PROVOKED, target="duration_plan_documented",
    others_pass=True)
_, test_review_unprovoked_wrong_plans_fail = note_probes(
    TASK, wrong=REVIEW_UNPROVOKED_WRONG, variant=UNPROVOKED, target="duration_plan_documented",
    others_pass=True)


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


# The phase of treatment at the consult moves the provoked plan: still in the 7-day apixaban
# 10 mg initiation phase (finish it, then a 12-week 5 mg course), 7-9 weeks in (canonical), or
# the 3-month decision point already reached (stop now, no prescription).
INITIATION, COMPLETE, MAINTENANCE = 2, 0, 12  # seeded variants of each provoked phase


def test_the_provoked_variants_cover_every_phase():
    assert values(TASK, PROVOKED)["stage"] == "maintenance"
    assert values(TASK, MAINTENANCE)["stage"] == "maintenance"
    assert values(TASK, INITIATION)["stage"] == "initiation"
    assert values(TASK, COMPLETE)["stage"] == "complete"
    for variant in (INITIATION, COMPLETE, MAINTENANCE):
        assert values(TASK, variant)["category"] == "provoked"
    assert values(TASK, INITIATION)["dvt_days"] <= 5
    assert values(TASK, COMPLETE)["dvt_days"] >= 91


@pytest.mark.parametrize("variant", [INITIATION, COMPLETE, MAINTENANCE])
def test_the_oracle_solves_each_phase(variant):
    result = run_oracle(TASK, variant)
    assert result.success, {k: v["reason"] for k, v in result.checkpoints.items()
                            if not v["passed"]}


@pytest.mark.parametrize("variant", [INITIATION, COMPLETE])
def test_the_memorized_canonical_answer_fails_the_other_phases(variant):
    env = gym.make("PhysicianBench-v0", max_steps=80)
    try:
        result = run_episode(env, CanonicalReplayAgent(), seed=0,
                             options={"task_id": TASK, "variant": variant})
    finally:
        env.close()
    assert not result.success
    assert not result.checkpoints["anticoagulant_prescribed"]["passed"]
    # the canonical note ('continue ... for the remaining 36 days, through <date>') too
    assert not all(grade_note(TASK, oracle_note(TASK, PROVOKED), variant).values())


def _initiation_dates() -> tuple[str, str]:
    v = values(TASK, INITIATION)
    return (f"{date.fromisoformat(v['loading_end']):%B} {date.fromisoformat(v['loading_end']).day}",
            f"{date.fromisoformat(v['stop_date']):%B} {date.fromisoformat(v['stop_date']).day}")


_DAY7, _STOP_3M = _initiation_dates()
INITIATION_CORRECT = [
    """Provoked proximal DVT (right TKA 3 weeks before).
    Plan: finish the 7-day loading phase of apixaban 10 mg BID, then 5 mg BID to complete 3
    months total, then stop. No extended anticoagulation.""",
    f"""Assessment: DVT provoked by surgery (knee arthroplasty), a major transient risk factor.
    Plan: Continue apixaban 10 mg twice daily through {_DAY7}. Then apixaban 5 mg twice daily
    through {_STOP_3M}, then stop. No extended-phase therapy.""",
    """The thrombosis was provoked by surgery. Apixaban 10 mg BID for 7 days total, then 5 mg
    BID; total duration of anticoagulation 3 months, then discontinue. No thrombophilia
    testing.""",
    """Provoked DVT after TKA. Plan: anticoagulation for 3 months in total with apixaban (10 mg
    BID until day 7, then 5 mg BID), then stop.""",
]
INITIATION_WRONG = [
    # the loading dose for the whole course
    "Provoked DVT after TKA. Continue apixaban 10 mg BID for 3 months, then stop.",
    # reduced dose afterwards
    "Provoked DVT after TKA. Apixaban 5 mg BID x 3 months then 2.5 mg BID indefinitely.",
    # six months
    "Provoked DVT after TKA. Continue apixaban for 6 months, then stop.",
    # a 7-9 week course: the canonical remaining time, not 3 months from this DVT
    "Provoked DVT after TKA. Continue apixaban 5 mg BID for 5 more weeks, then stop.",
    # misclassified
    "Unprovoked DVT. Finish the 10 mg BID week, then 5 mg BID to complete 3 months, then stop.",
]
COMPLETE_CORRECT = [
    """Provoked proximal DVT (TKA 3 weeks before). He has completed 3 months of apixaban. Stop
    apixaban now; no extended anticoagulation.""",
    """Assessment: DVT provoked by knee arthroplasty, a major transient risk factor.
    Plan: Discontinue apixaban - the 3-month treatment phase is complete. Do not renew. No
    extended-phase therapy.""",
    """This DVT was provoked by surgery. He has finished the 3-month treatment phase, so no
    further anticoagulation is needed. No aspirin.""",
    """Provoked DVT after TKA. Continue apixaban until his current supply runs out next week,
    then stop. No indefinite anticoagulation.""",
    """Provoked DVT (surgery). Total duration of anticoagulation 3 months, which he has now
    completed: stop apixaban.""",
    """Provoked DVT after TKA; 3 months of treatment done. Stop apixaban now. Reduced-dose
    apixaban (2.5 mg BID) is not indicated, and no extended-phase therapy.""",
]
COMPLETE_WRONG = [
    # 6 months in all
    "Provoked DVT after TKA. Continue apixaban 5 mg BID for another 3 months, then stop.",
    "Provoked DVT after TKA. Stop apixaban after 6 months of total treatment.",
    "Provoked DVT after TKA. Continue apixaban 5 mg BID for 6 more weeks, then stop.",
    # extended phase
    "Provoked DVT after TKA. Continue apixaban indefinitely at 2.5 mg BID.",
    "Provoked DVT after TKA. Apixaban 5 mg BID x 3 months then 2.5 mg BID indefinitely.",
    "Provoked DVT after TKA. Reduce apixaban to 2.5 mg BID for secondary prevention.",
    "Provoked DVT after TKA. Stop apixaban now. Start aspirin 81 mg daily for extended prevention.",
    # no decision, or a hedged one
    "Provoked DVT after TKA. Continue apixaban 5 mg BID.",
    "Provoked DVT after TKA. Consider stopping apixaban.",
    # misclassified
    "Unprovoked DVT. Stop apixaban now.",
]


@pytest.mark.parametrize(("note", "variant"), [(n, INITIATION) for n in INITIATION_CORRECT]
                         + [(n, COMPLETE) for n in COMPLETE_CORRECT])
def test_phase_correct_notes_pass(note, variant):
    assert all(grade_note(TASK, note, variant).values()), grade_note(TASK, note, variant)


@pytest.mark.parametrize(("note", "variant"), [(n, INITIATION) for n in INITIATION_WRONG]
                         + [(n, COMPLETE) for n in COMPLETE_WRONG])
def test_phase_wrong_notes_fail(note, variant):
    assert not all(grade_note(TASK, note, variant).values())


def test_a_correct_note_for_one_phase_fails_the_others():
    assert not all(grade_note(TASK, COMPLETE_CORRECT[0], MAINTENANCE).values())
    assert not all(grade_note(TASK, COMPLETE_CORRECT[0], INITIATION).values())
    # '5 more weeks' at 13-14 weeks is 4 months and more ('3 months in total, then stop' is
    # right in both phases)
    assert not all(grade_note(TASK, PROVOKED_CORRECT[2], COMPLETE).values())
    assert all(grade_note(TASK, PROVOKED_CORRECT[0], COMPLETE).values())


def _message(text: str) -> dict:
    return {"tool": "fhir_communication_create_message",
            "arguments": {"patient": "{patient_id}", "recipient": "prac-pcp-06",
                          "category": "notification", "text": text}}


def test_initiation_prescription_is_the_5_mg_course_to_3_months():
    v = values(TASK, INITIATION)
    assert _prescribed([_rx("1364445", 5, 2, 84)], INITIATION)
    assert _prescribed([_rx("1364445", 5, 2, v["remaining_days"])], INITIATION)
    # the rest of the 10 mg doses ordered beside the 5 mg course
    assert _prescribed([_rx("1364445", 10, 2, 8 - v["dvt_days"]), _rx("1364445", 5, 2, 84)],
                       INITIATION)
    assert not _prescribed([_rx("1364445", 5, 2, 36)], INITIATION)  # the canonical 36 days
    assert not _prescribed([_rx("1364445", 10, 2, 84)], INITIATION)  # 10 mg for the course
    assert not _prescribed([_rx("1364445", 10, 2, 30), _rx("1364445", 5, 2, 84)], INITIATION)
    assert not _prescribed([_rx("1364445", 5, 2, 180)], INITIATION)  # 6 months
    assert not _prescribed([_rx("1364435", 2.5, 2, 84)], INITIATION)


def test_complete_phase_orders_no_anticoagulant_and_tells_the_pcp_to_stop():
    stop = _message("Provoked DVT, 3 months of apixaban complete: stop apixaban now.")
    assert _prescribed([stop], COMPLETE)
    looked = {"tool": "fhir_condition_search_problems", "arguments": {"patient": "{patient_id}"}}
    assert not _prescribed([looked], COMPLETE)  # nothing said, nothing done
    assert not _prescribed([_message("Continue apixaban 5 mg twice daily.")], COMPLETE)
    assert not _prescribed([stop, _rx("1364445", 5, 2, 36)], COMPLETE)  # the canonical order
    assert not _prescribed([stop, _rx("1364435", 2.5, 2, 90)], COMPLETE)  # extended phase
    assert not _prescribed([stop, _rx("1114198", 10, 1, 90)], COMPLETE)


# Review finding 4: an explicit stop date in the sig ends the order before its supply and
# refills run out ("30 days x (1 + 1 refill), through <stop date>, then stop").
def _rx_until(days: int, refills: int, sig: str) -> dict:
    action = _rx("1364445", 5, 2, days, refills=refills)
    action["arguments"]["sig"] = sig
    return action


@pytest.mark.parametrize("variant", [PROVOKED, 4, 35])
def test_provoked_order_ends_at_the_stop_date_in_its_sig(variant):
    stop = date.fromisoformat(values(TASK, variant)["stop_date"])
    for written in (stop.isoformat(), f"{stop:%m/%d/%Y}", f"{stop:%B} {stop.day}, {stop.year}"):
        sig = f"Take 1 tablet (5 mg) by mouth twice daily through {written}, then stop."
        assert _prescribed([_rx_until(30, 1, sig)], variant), written
    # the same order without the stop date runs past 3 months
    assert not _prescribed([_rx_until(30, 1, "Take 1 tablet (5 mg) by mouth twice daily.")],
                           variant)
    # a stop date months past the 3-month mark is extended therapy
    late = "Take 1 tablet (5 mg) by mouth twice daily through 2027-12-31, then stop."
    assert not _prescribed([_rx_until(30, 5, late)], variant)
    # a stop date does not lengthen a supply that runs out weeks early
    sig = f"Take 1 tablet (5 mg) by mouth twice daily through {stop.isoformat()}, then stop."
    assert not _prescribed([_rx_until(7, 0, sig)], variant)
