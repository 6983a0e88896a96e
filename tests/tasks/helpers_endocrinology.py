"""Running a chosen list of tool calls in a task instance and reading the checkpoint verdicts.

Used to check action checkpoints: an order for the wrong drug, dose or schedule must fail.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

import physbench_gym  # noqa: F401  (registers the env ids)
from physbench_gym.tasks.registry import get_instance


def run_actions(task_id: str, actions: list[dict[str, Any]],
                variant: int | None = None) -> dict[str, bool]:
    """Checkpoint verdicts after ``actions`` ({"tool", "arguments"}; the string
    '{patient_id}' in an argument is replaced by the instance's patient id)."""
    patient = get_instance(task_id, variant).patient_id
    env = gym.make(f"PhysicianBench/{task_id}-v0")
    try:
        options = {"variant": "canonical" if variant is None else variant}
        env.reset(seed=0, options=options)
        info: dict[str, Any] = {}
        for action in actions:
            arguments = {key: patient if value == "{patient_id}" else value
                         for key, value in action.get("arguments", {}).items()}
            *_, info = env.step({"tool": action["tool"], "arguments": arguments})
        return {cid: state["passed"] for cid, state in info["checkpoints"].items()}
    finally:
        env.close()
