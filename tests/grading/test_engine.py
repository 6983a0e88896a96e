"""The checkpoint engine re-grades only what a step can change."""

from __future__ import annotations

from physbench_gym.grading.core import READ, CheckpointResult, Grader, build_grader, read_of
from physbench_gym.grading.engine import BuiltCheckpoint, CheckpointEngine

RETRIEVED = {"retrieved": {"resource_type": "Observation", "codes": ["http://loinc.org|3016-3"]}}
DECIDED = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase"]}}


def test_retrieval_and_compositions_of_it_are_monotone_and_typed():
    grader = build_grader(RETRIEVED)
    assert grader.monotone and grader.triggers == {read_of("Observation")}
    assert build_grader({"all": {"of": [RETRIEVED, RETRIEVED]}}).monotone
    assert build_grader({"k_of_n": {"of": [RETRIEVED, RETRIEVED], "k": 1}}).monotone
    mixed = build_grader({"any": {"of": [RETRIEVED, DECIDED]}})
    assert not mixed.monotone and mixed.triggers == {read_of("Observation"), "file"}
    assert not build_grader(DECIDED).monotone


def _counting(monotone: bool, verdicts: list[bool]) -> tuple[CheckpointEngine, list[int]]:
    calls: list[int] = []

    def check(ctx) -> CheckpointResult:
        calls.append(1)
        return CheckpointResult(verdicts[min(len(calls), len(verdicts)) - 1], "checked")

    checkpoint = BuiltCheckpoint("c", "data_retrieval", "d", 1.0,
                                 Grader(check, frozenset({READ}), monotone))
    return CheckpointEngine([checkpoint]), calls


def test_a_passed_monotone_check_is_not_run_again():
    engine, calls = _counting(True, [False, True, False])
    for _ in range(4):
        engine.update(None, {READ})
    assert len(calls) == 2 and engine.potential() == 1.0
    engine.update(None, {"write"})
    engine.finalize(None)
    assert len(calls) == 2 and engine.success()


def test_the_end_grades_only_what_no_event_has_graded():
    graded, never = _counting(False, [True]), _counting(False, [True])
    graded[0].update(None, {READ})
    for engine, calls in (graded, never):
        engine.finalize(None)
        assert len(calls) == 1 and engine.success()


def test_other_checks_run_on_every_event_that_can_change_them():
    engine, calls = _counting(False, [False, True, False])
    for _ in range(3):
        engine.update(None, {READ})
    assert len(calls) == 3 and engine.potential() == 0.0 and not engine.success()
