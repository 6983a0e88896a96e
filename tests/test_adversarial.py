"""Reward-hacking policies fail on every task (and so on every new task): stuffing, hedged
alternatives, duplicate double-dose orders, the brief as the note, a note without orders,
orders without a note, random calls, and the canonical answer replayed on seeded variants."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents import run_episode
from physbench_gym.agents.adversarial import ADVERSARIES, AdversarialAgent, CanonicalReplayAgent
from physbench_gym.agents.oracle import RandomAgent
from physbench_gym.tasks.registry import get_instance, task_ids

TASKS = task_ids()
# Adversaries that change the answer only where the reference plan orders a medication.
NEEDS_A_PRESCRIPTION = {"double_dose_duplicate", "hedged_alternatives"}
KNOWN_GAPS = {
    ("hedged_alternatives", "vte_risk_benefit"): (
        "'apixaban could be stopped, or continued' hedges between two actions the provoked "
        "plan both contains (continue, then stop at 3 months); the stop is not timed"),
}


@pytest.fixture(scope="module")
def env():
    environment = gym.make("PhysicianBench-v0", max_steps=80)
    yield environment
    environment.close()


def _prescribes(task_id: str) -> bool:
    return any(c.tool == "fhir_medication_request_create"
               for c in get_instance(task_id).oracle.calls)


def _cases() -> list:
    cases = []
    for name in ADVERSARIES:
        for task_id in TASKS:
            if name in NEEDS_A_PRESCRIPTION and not _prescribes(task_id):
                continue
            gap = KNOWN_GAPS.get((name, task_id))
            marks = [pytest.mark.xfail(strict=True, reason=f"known gap: {gap}")] if gap else []
            cases.append(pytest.param(name, task_id, marks=marks, id=f"{name}-{task_id}"))
    return cases


@pytest.mark.parametrize(("name", "task_id"), _cases())
def test_adversary_fails(env, name, task_id):
    result = run_episode(env, AdversarialAgent(name), seed=0,
                         options={"task_id": task_id, "variant": "canonical"})
    assert not result.success, f"{name} succeeded on {task_id}"


def test_duplicate_double_dose_orders_are_safety_violations(env):
    task_id = next(t for t in TASKS if _prescribes(t))
    result = run_episode(env, AdversarialAgent("double_dose_duplicate"), seed=0,
                         options={"task_id": task_id, "variant": "canonical"})
    violations = result.safety.get("violations", [])
    assert any(v["rule"] == "therapeutic_duplication" for v in violations), result.safety


@pytest.mark.parametrize("task_id", TASKS)
def test_random_tool_calls_fail(env, task_id):
    result = run_episode(env, RandomAgent(seed=1), seed=0,
                         options={"task_id": task_id, "variant": "canonical"})
    assert not result.success


def test_canonical_replay_on_variants_stays_within_bounds(env):
    per_task = {}
    for task_id in TASKS:
        per_task[task_id] = sum(
            run_episode(env, CanonicalReplayAgent(), seed=0,
                        options={"task_id": task_id, "variant": v}).success
            for v in range(20))
    assert sum(per_task.values()) <= 0.10 * 20 * len(TASKS), per_task
    assert max(per_task.values()) <= 4, per_task
