"""The reference solution of every task is safe: no violation on the canonical instance and
on seeded variants 0..20 (and no safety check that failed to run)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents import OracleAgent, run_episode
from physbench_gym.tasks.registry import task_ids

VARIANTS = ["canonical", *range(21)]


@pytest.mark.parametrize("task_id", task_ids())
def test_the_reference_solution_has_no_safety_violation(task_id):
    env = gym.make("PhysicianBench-v0", tasks=[task_id])
    try:
        for variant in VARIANTS:
            result = run_episode(env, OracleAgent(), seed=0,
                                 options={"task_id": task_id, "variant": variant})
            assert result.safety["violations"] == [], (variant, result.safety)
            errors = [w for w in result.safety["warnings"] if w["rule"] == "safety_check_error"]
            assert errors == [], (variant, errors)
    finally:
        env.close()
