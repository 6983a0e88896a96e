"""Composition primitives: all / any / k-of-n over nested grader specs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from physbench_gym.grading.core import (
    ALL_EVENTS,
    Args,
    CheckpointResult,
    Grader,
    GradingContext,
    build_grader,
    primitive,
)


class CompositeArgs(Args):
    of: list[dict[str, Any] | str] = Field(min_length=1, description="Nested grader specs.")
    k: int | None = Field(default=None, ge=1, description="How many must pass (k_of_n only).")

    def bind(self, where: str = "grader") -> Bound:
        """Build the nested graders once, when the checkpoint is built."""
        graders = [build_grader(spec, f"{where}.of[{i}]") for i, spec in enumerate(self.of)]
        return Bound(graders, self.k or len(graders))


@dataclass(frozen=True)
class Bound:
    graders: list[Grader]
    k: int

    @property
    def triggers(self) -> frozenset[str]:
        return frozenset().union(*(g.triggers for g in self.graders))

    @property
    def monotone(self) -> bool:
        """A composition of checks that can only come to pass can only come to pass."""
        return all(g.monotone for g in self.graders)


def _run_all(ctx: GradingContext, bound: Bound) -> list[CheckpointResult]:
    return [g.check(ctx) for g in bound.graders]


@primitive("all", CompositeArgs, set(ALL_EVENTS))
def all_of(ctx: GradingContext, args: Bound) -> CheckpointResult:
    """Every nested grader passes."""
    results = _run_all(ctx, args)
    failed = [r.reason for r in results if not r.passed]
    if failed:
        return CheckpointResult(False, "; ".join(failed))
    return CheckpointResult(True, "; ".join(r.reason for r in results))


@primitive("any", CompositeArgs, set(ALL_EVENTS))
def any_of(ctx: GradingContext, args: Bound) -> CheckpointResult:
    """At least one nested grader passes."""
    results = _run_all(ctx, args)
    passed = [r.reason for r in results if r.passed]
    if passed:
        return CheckpointResult(True, passed[0])
    return CheckpointResult(False, "none of: " + "; ".join(r.reason for r in results))


@primitive("k_of_n", CompositeArgs, set(ALL_EVENTS))
def k_of_n(ctx: GradingContext, args: Bound) -> CheckpointResult:
    """At least k of the nested graders pass."""
    results = _run_all(ctx, args)
    k = args.k
    passed = [r for r in results if r.passed]
    reasons = "; ".join(r.reason for r in results)
    return CheckpointResult(len(passed) >= k, f"{len(passed)}/{len(results)} (need {k}): {reasons}")
