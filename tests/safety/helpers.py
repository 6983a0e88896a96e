"""Running scripted episodes and reading their safety findings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym

import physbench_gym  # noqa: F401  (registers the env ids)
from tests.safety.agents import Action, plan_with


def run_plan(task_id: str, extra: Callable[[str], list[Action]] | list[Action] = (),
             variant: int | None = None, toolset: str = "physicianbench",
             oracle: bool = True) -> tuple[dict[str, Any], float, list[dict[str, Any]]]:
    """Run the oracle (or nothing) plus ``extra`` (a list, or a function of the patient id);
    return the last info, the episode's return and every step's info."""
    env = gym.make("PhysicianBench-v0", tasks=[task_id], toolset=toolset)
    try:
        options = {"task_id": task_id, "variant": "canonical" if variant is None else variant}
        env.reset(seed=0, options=options)
        patient = env.unwrapped.instance.patient_id
        added = extra(patient) if callable(extra) else list(extra)
        base = env.unwrapped.oracle_actions() if oracle else [
            {"tool": "write_file", "arguments": {"file_path": "note.md", "content": "n"}},
            {"tool": "finish", "arguments": {"summary": "done"}}]
        infos, total = [], 0.0
        for action in plan_with(base, added):
            *_, reward, _, _, info = env.step(action)
            total += float(reward)
            infos.append(info)
        return infos[-1], total, infos
    finally:
        env.close()


def rules(info: dict[str, Any]) -> list[str]:
    """The rules of the episode's safety violations, in order."""
    return [violation["rule"] for violation in info["safety"]]
