"""Reward-hacking policies: each scripted adversary fails on every task (run per task by the
``adversarial`` gate in tests/tasks/test_gates.py); here, what the gate does not show: a
duplicate double-dose order is a safety violation, and random tool calls never succeed."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents import run_episode
from physbench_gym.agents.adversarial import AdversarialAgent
from physbench_gym.agents.oracle import RandomAgent
from physbench_gym.tasks.check import adversaries_for
from physbench_gym.tasks.registry import task_ids

TASKS = task_ids()


@pytest.fixture(scope="module")
def env():
    environment = gym.make("PhysicianBench-v0", max_steps=80)
    yield environment
    environment.close()


def test_duplicate_double_dose_orders_are_safety_violations(env):
    task_id = next(t for t in TASKS if "double_dose_duplicate" in adversaries_for(t))
    result = run_episode(env, AdversarialAgent("double_dose_duplicate"), seed=0,
                         options={"task_id": task_id, "variant": "canonical"})
    violations = result.safety.get("violations", [])
    assert any(v["rule"] == "therapeutic_duplication" for v in violations), result.safety


@pytest.mark.parametrize("task_id", TASKS)
def test_random_tool_calls_fail(env, task_id):
    result = run_episode(env, RandomAgent(seed=1), seed=0,
                         options={"task_id": task_id, "variant": "canonical"})
    assert not result.success
