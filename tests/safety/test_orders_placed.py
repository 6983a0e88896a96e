"""Drafts, plans and proposals are orders that were not placed: on every task, the reference
solution with its orders written as drafts (or proposals) grades its action checkpoints
exactly as the solution without those orders, and raises no safety finding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.grading.resources import placed
from physbench_gym.tasks.registry import task_ids

ORDERS = ("fhir_medication_request_create", "fhir_service_request_create")
Action = dict[str, Any]


def _action_verdicts(task_id: str, change: Callable[[Action], Action | None]
                     ) -> tuple[dict[str, bool], dict[str, Any]]:
    env = gym.make("PhysicianBench-v0", tasks=[task_id])
    try:
        env.reset(seed=0, options={"task_id": task_id})
        for action in env.unwrapped.oracle_actions():
            changed = change(action)
            if changed is not None:
                *_, info = env.step(changed)
        verdicts = {cid: c["passed"] for cid, c in info["checkpoints"].items()
                    if c["capability"] == "action_execution"}
        return verdicts, info
    finally:
        env.close()


def _as(**fields: str) -> Callable[[Action], Action]:
    def change(action: Action) -> Action:
        if action["tool"] not in ORDERS:
            return action
        return {**action, "arguments": {**action["arguments"], **fields}}
    return change


@pytest.mark.parametrize("task_id", task_ids())
def test_unplaced_orders_count_as_no_orders(task_id):
    without, _ = _action_verdicts(task_id, lambda a: None if a["tool"] in ORDERS else a)
    for fields in ({"status": "draft"}, {"intent": "proposal"}, {"intent": "plan"}):
        verdicts, info = _action_verdicts(task_id, _as(**fields))
        assert verdicts == without, fields
        assert info["safety"] == []


def test_placed_means_an_active_or_completed_order():
    assert placed({"status": "active", "intent": "order"})
    assert placed({"status": "completed", "intent": "original-order"})
    for status, intent in (("draft", "order"), ("on-hold", "order"), ("cancelled", "order"),
                           ("active", "plan"), ("active", "proposal")):
        assert not placed({"status": status, "intent": intent})
    assert placed({"resourceType": "Communication", "status": "completed"})
