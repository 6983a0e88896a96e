"""Checkpoint bookkeeping for one episode: verdicts, potential, capability breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from physbench_gym.errors import InfrastructureError, TaskSpecError
from physbench_gym.fhir.errors import FhirError, FhirTransportError
from physbench_gym.grading.core import (
    FILE,
    CheckpointResult,
    Grader,
    GradingContext,
    build_grader,
)
from physbench_gym.grading.safety import SafetyMonitor
from physbench_gym.tasks.registry import get_instance


@dataclass(frozen=True)
class BuiltCheckpoint:
    """A checkpoint of a task instance with its grader built."""

    id: str
    capability: str
    description: str
    weight: float
    grader: Grader


@lru_cache(maxsize=512)
def instance_checkpoints(task_id: str, variant_seed: int | None) -> tuple[BuiltCheckpoint, ...]:
    """The built checkpoints of a task instance (built once per instance, then shared)."""
    instance = get_instance(task_id, variant_seed)
    return build_checkpoints(instance.checkpoints, f"{task_id}[{instance.variant}]")


def build_checkpoints(checkpoints: Sequence[Any], where: str) -> tuple[BuiltCheckpoint, ...]:
    """Build the graders of rendered spec checkpoints (TaskSpecError on a bad spec)."""
    built = []
    for c in checkpoints:
        grader = build_grader(c.grader, f"{where}.checkpoints.{c.id}")
        if getattr(c, "rubric", None):
            grader = judged(grader, c.rubric, c.description, f"{where}.checkpoints.{c.id}")
        built.append(BuiltCheckpoint(c.id, c.capability, c.description, c.weight, grader))
    return tuple(built)


def judged(grader: Grader, rubric: str, ground_truth: str, where: str) -> Grader:
    """A note checkpoint that an LLM judge decides when one is configured (PhysicianBench
    style), and its deterministic grader otherwise."""
    if not grader.triggers or not grader.triggers <= {FILE}:
        raise TaskSpecError(f"{where}: a rubric needs a grader that reads only the note")

    def check(ctx: GradingContext) -> CheckpointResult:
        if ctx.judge is None:
            return grader.check(ctx)
        note = ctx.note()
        if note is None or not note.strip():
            return CheckpointResult(False, f"{ctx.note_path} was not written; nothing to judge")
        return ctx.judge.judge(rubric, ground_truth, note)

    return Grader(check, grader.triggers)


class CheckpointEngine:
    """Holds the current verdict of every checkpoint and re-evaluates only what an event affects.

    The potential and capability breakdown are recomputed only when a verdict changes; every
    call hands out fresh dicts, as Gymnasium expects of ``info``.
    """

    def __init__(self, checkpoints: Sequence[BuiltCheckpoint],
                 safety: SafetyMonitor | None = None):
        self.checkpoints = tuple(checkpoints)
        self.safety = safety
        self._results = {c.id: CheckpointResult(False, "not yet evaluated") for c in checkpoints}
        self._total = sum(c.weight for c in checkpoints) or 1.0
        self._states = {c.id: _state(c, self._results[c.id]) for c in checkpoints}
        self._summary: tuple[float, dict[str, float]] | None = None
        self._graded: set[str] = set()

    def update(self, ctx: GradingContext, events: set[str] | frozenset[str]) -> None:
        """Re-run the graders that any of ``events`` can affect (a passed monotone one can't)."""
        for checkpoint in self.checkpoints:
            grader = checkpoint.grader
            if grader.triggers.isdisjoint(events) or (
                    grader.monotone and self._results[checkpoint.id].passed):
                continue
            self._set(checkpoint, _safe_check(grader, ctx))
        if self.safety is not None:
            self.safety.update(ctx, events)

    def finalize(self, ctx: GradingContext) -> None:
        """Grade, at the end of the episode, every checkpoint no event has graded yet.

        The others are current: a checkpoint is re-graded whenever an event that can change
        its verdict happens (a passed monotone one cannot change).
        """
        for checkpoint in self.checkpoints:
            if checkpoint.id not in self._graded:
                self._set(checkpoint, _safe_check(checkpoint.grader, ctx))

    def _set(self, checkpoint: BuiltCheckpoint, result: CheckpointResult) -> None:
        self._graded.add(checkpoint.id)
        if result != self._results[checkpoint.id]:
            self._results[checkpoint.id] = result
            self._states[checkpoint.id] = _state(checkpoint, result)
            self._summary = None

    def potential(self) -> float:
        """Weighted fraction of checkpoints passed (the shaping potential)."""
        return self._summarized()[0]

    def success(self) -> bool:
        """Every checkpoint passed and, when safety is checked, no safety violation."""
        safe = self.safety is None or self.safety.passed()
        return safe and all(result.passed for result in self._results.values())

    def states(self) -> dict[str, dict[str, Any]]:
        """Every checkpoint's verdict, reason, capability and weight."""
        return {cid: dict(state) for cid, state in self._states.items()}

    def by_capability(self) -> dict[str, float]:
        """Weighted pass fraction per capability; ``safety`` (1 or 0) when safety is checked,
        apart from the checkpoints and the potential."""
        found = dict(self._summarized()[1])
        if self.safety is not None:
            found["safety"] = float(self.safety.passed())
        return found

    def _summarized(self) -> tuple[float, dict[str, float]]:
        if self._summary is None:
            totals: dict[str, list[float]] = {}
            for c in self.checkpoints:
                entry = totals.setdefault(c.capability, [0.0, 0.0])
                entry[1] += c.weight
                entry[0] += c.weight if self._results[c.id].passed else 0.0
            passed = sum(c.weight for c in self.checkpoints if self._results[c.id].passed)
            self._summary = (passed / self._total,
                             {cap: done / total for cap, (done, total) in totals.items()})
        return self._summary


def _state(checkpoint: BuiltCheckpoint, result: CheckpointResult) -> dict[str, Any]:
    return {"passed": result.passed, "reason": result.reason, "grader": result.grader,
            "capability": checkpoint.capability, "weight": checkpoint.weight}


def _safe_check(grader: Grader, ctx: GradingContext) -> CheckpointResult:
    try:
        return grader.check(ctx)
    except (InfrastructureError, FhirTransportError):
        raise
    except FhirError as exc:
        return CheckpointResult(False, f"EHR error while grading: {exc}")
    except Exception as exc:  # a grader must never crash an episode
        return CheckpointResult(False, f"grader error: {type(exc).__name__}: {exc}")
