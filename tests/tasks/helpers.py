"""Running a task's oracle and grading candidate notes against a task instance."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401  (registers the env ids)
from physbench_gym.agents import EpisodeResult, OracleAgent, run_episode
from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import FILE, GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance


def run_oracle(task_id: str, variant: int | None = None, seed: int = 0) -> EpisodeResult:
    """One oracle episode of a task instance on the embedded EHR."""
    env = gym.make(f"PhysicianBench/{task_id}-v0")
    try:
        options = {"variant": "canonical" if variant is None else variant}
        return run_episode(env, OracleAgent(), seed=seed, options=options)
    finally:
        env.close()


def run_calls(task_id: str, calls: Iterable[dict[str, Any]],
              variant: int | None = None) -> EpisodeResult:
    """One episode of a task instance that makes exactly ``calls`` and then finishes."""
    env = gym.make(f"PhysicianBench/{task_id}-v0")
    try:
        options = {"variant": "canonical" if variant is None else variant}
        return run_episode(env, _Scripted(list(calls)), options=options)
    finally:
        env.close()


class _Scripted:
    def __init__(self, calls: list[dict[str, Any]]) -> None:
        self.calls = calls

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        self.plan = list(self.calls)

    def act(self, observation: str, info: dict[str, Any]) -> dict[str, Any]:
        return self.plan.pop(0) if self.plan else {"tool": "finish",
                                                   "arguments": {"summary": "done"}}


def grade_note(task_id: str, note: str, variant: int | None = None) -> dict[str, bool]:
    """Verdicts of the task's note-only checkpoints (documentation/reasoning) for ``note``."""
    instance = get_instance(task_id, variant)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    return {c.id: c.grader.check(ctx).passed for c in instance_checkpoints(task_id, variant)
            if c.grader.triggers == {FILE}}


def branch_probes(task_id: str, others: Iterable[int], oracle_on: Iterable[int | None]
                  ) -> tuple[Callable, Callable]:
    """The two branch tests of a task with variants, for the task file to bind to test_* names:
    the canonical reference note fails each of ``others`` (variants whose answer differs), and
    the oracle succeeds on each variant of ``oracle_on`` (None is the canonical case)."""
    others = tuple(others)

    def canonical_note_fails_the_other_branches() -> None:
        canonical = oracle_note(task_id)
        for variant in others:
            assert not all(grade_note(task_id, canonical, variant).values()), variant

    @pytest.mark.parametrize("variant", list(oracle_on))
    def oracle_succeeds_on_each_branch(variant: int | None) -> None:
        result = run_oracle(task_id, variant)
        assert result.success, result

    return canonical_note_fails_the_other_branches, oracle_succeeds_on_each_branch


def note_probes(task_id: str, correct: Iterable[Any] = (), wrong: Iterable[Any] | Mapping = (),
                *, variant: int | None = None, target: str | None = None,
                checkpoints: Iterable[str] | None = None, others_pass: bool = False,
                grade: Callable[[str, int | None], dict[str, bool]] | None = None,
                ) -> tuple[Callable | None, Callable | None]:
    """The two note probes of a task, as test functions for the task file to bind to test_* names.

    Every task checks that correct notes in other words pass all its note checkpoints and that
    each wrong note fails its checkpoint; building both tests here keeps those assertions one
    and the same across tasks, so a task file lists only its notes. One test runs per note.

    correct: notes, or (variant, note) pairs.
    wrong: a list, or {label: entry} to name the tests, of notes, (target, note) or
        (note, target) pairs and (variant, target, note) triples; the target is the checkpoint
        the note must fail, or without one any checkpoint. pytest.param entries keep their marks.
    variant, target: the instance and the failing checkpoint for entries that name none.
    checkpoints: the exact set of checkpoint ids a correct note is graded on.
    others_pass: a wrong note must still pass every checkpoint but its target.
    grade: (note, variant) -> verdicts, in place of grade_note for the task.
    Returns (correct-note test, wrong-note test), None for a side without notes.
    """
    grade = grade or (lambda note, var: grade_note(task_id, note, var))
    expected = None if checkpoints is None else set(checkpoints)

    def rows(entries: Iterable[Any], shape: Callable[[Any], tuple]) -> list[Any]:
        if isinstance(entries, Mapping):
            return [pytest.param(*shape(entries[label]), id=str(label))
                    for label in sorted(entries)]
        out = []
        for entry in entries:
            if hasattr(entry, "marks"):  # pytest.param(...)
                values = entry.values[0] if len(entry.values) == 1 else entry.values
                out.append(pytest.param(*shape(values), marks=entry.marks, id=entry.id))
            else:
                out.append(shape(entry))
        return out

    def correct_row(entry: Any) -> tuple:
        return (variant, entry) if isinstance(entry, str) else tuple(entry)

    def wrong_row(entry: Any) -> tuple:
        if isinstance(entry, str):
            return variant, target, entry
        if len(entry) == 3:
            return tuple(entry)
        first, second = entry  # a checkpoint id is an identifier, a note is not
        return (variant, first, second) if first.isidentifier() else (variant, second, first)

    correct_rows, wrong_rows = rows(correct, correct_row), rows(wrong, wrong_row)

    @pytest.mark.parametrize(("variant", "note"), correct_rows)
    def correct_note_passes(variant: int | None, note: str) -> None:
        verdicts = grade(note, variant)
        assert expected is None or set(verdicts) == expected, verdicts
        assert verdicts and all(verdicts.values()), verdicts

    @pytest.mark.parametrize(("variant", "failing", "note"), wrong_rows)
    def wrong_note_fails(variant: int | None, failing: str | None, note: str) -> None:
        verdicts = grade(note, variant)
        if failing is None:
            assert not all(verdicts.values()), verdicts
            return
        assert verdicts[failing] is False, (failing, verdicts)
        assert not others_pass or all(v for k, v in verdicts.items() if k != failing), verdicts

    return (correct_note_passes if correct_rows else None,
            wrong_note_fails if wrong_rows else None)


def oracle_calls(task_id: str, variant: int | None = None,
                 replace: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The oracle's tool calls as actions, with ``replace`` merged into each prescription (an
    order changed in one field, to check that its checkpoint fails)."""
    calls = []
    for call in get_instance(task_id, variant).oracle.calls:
        arguments = dict(call.arguments)
        if call.tool == "fhir_medication_request_create" and replace:
            arguments.update(replace)
        calls.append({"tool": call.tool, "arguments": arguments})
    return calls


def oracle_note(task_id: str, variant: int | None = None) -> str:
    return get_instance(task_id, variant).oracle.note


def values(task_id: str, variant: int | None = None) -> dict[str, Any]:
    return dict(get_instance(task_id, variant).values)


def medication_request(code: str, dose: float, per_day: float, unit: str = "mg",
                       route: str = "oral") -> dict[str, Any]:
    """A MedicationRequest create action for the task's patient, ``dose`` ``per_day`` a day."""
    return {"tool": "fhir_medication_request_create",
            "arguments": {"patient": "{patient_id}", "medication_code": code, "dose_value": dose,
                          "dose_unit": unit, "route": route, "frequency": per_day,
                          "period_unit": "day"}}


def service_request(code: str, system: str, category: str, **extra: str) -> dict[str, Any]:
    """A ServiceRequest create action for the task's patient ('reason', 'occurrence', ...)."""
    return {"tool": "fhir_service_request_create",
            "arguments": {"patient": "{patient_id}", "code": code, "system": system,
                          "category": category, **extra}}
