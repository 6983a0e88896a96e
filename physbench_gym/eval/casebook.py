"""The rendered case: what a clinician needs to write notes for a task without its grader.

Labeled note corpora and clinical reviews are written from this rendering by someone who has
not read the grader: the e-consult brief, the chart data the reference solution retrieves (as
the agent sees it), the orders it enters and what every checkpoint requires, in physician
language. The reference note is left out on purpose, so that corpus notes do not copy its
phrasing.
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym

from physbench_gym.env import PhysicianBenchEnv


def render_case(task_id: str, variant_seed: int | None = None) -> str:
    """Markdown of one task instance: brief, retrieved chart data, orders, checkpoints."""
    env = gym.make("PhysicianBench-v0", tasks=task_id).unwrapped
    assert isinstance(env, PhysicianBenchEnv)
    try:
        variant: Any = "canonical" if variant_seed is None else variant_seed
        brief, info = env.reset(seed=0, options={"task_id": task_id, "variant": variant})
        instance = env.instance
        retrieved: list[str] = []
        orders: list[str] = []
        for action in env.oracle_actions():
            if action["tool"] in ("write_file", "finish"):
                continue
            observation, *_ = env.step(action)
            call = f"{action['tool']}({_arguments(action['arguments'])})"
            if "_create" in action["tool"]:
                orders.append(f"- `{action['tool']}`: {_arguments(action['arguments'])}")
            else:
                retrieved.append(f"### {call}\n\n```\n{observation}\n```")
    finally:
        env.close()
    checkpoints = "\n".join(
        f"- **{c.id}** ({c.capability}): {c.description}" for c in instance.checkpoints)
    return "\n\n".join([
        f"# Case `{task_id}` ({info['variant']}): {instance.spec.title}",
        f"Specialty: {instance.spec.specialty}; group: {instance.spec.specialty_group}; "
        f"type: {instance.spec.task_type} / {instance.spec.subtype}.",
        "## The e-consult as the agent receives it",
        f"```\n{brief}\n```",
        "## Chart data the reference solution retrieves (tool call, then the EHR's answer)",
        *retrieved,
        "## Orders the reference solution enters in the EHR",
        "\n".join(orders) or "(none)",
        "## What the answer must establish (the checkpoints, as a physician reads them)",
        checkpoints,
        f"The consult note goes to `{instance.note_path}`.",
    ]) + "\n"


def _arguments(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False)
