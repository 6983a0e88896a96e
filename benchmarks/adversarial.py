"""Reward-hacking policies against every task: success rate and mean score per policy.

Run: python benchmarks/adversarial.py [--variants N]   (prints a table; nothing is asserted)

Every adversary starts from the reference solution and breaks it (see
physbench_gym/agents/adversarial.py); canonical replay plays the canonical answer on seeded
variants. The reference solution itself is the first row.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import gymnasium as gym

import physbench_gym  # noqa: F401
from physbench_gym.agents import OracleAgent, run_episode
from physbench_gym.agents.adversarial import (
    ADVERSARIES,
    AdversarialAgent,
    CanonicalReplayAgent,
)
from physbench_gym.agents.oracle import RandomAgent
from physbench_gym.tasks.registry import task_ids


def play(env: gym.Env, agent: Any, variants: list[Any]) -> tuple[list[bool], list[float],
                                                                 dict[str, int]]:
    successes, scores, by_task = [], [], {}
    for task_id in task_ids():
        for variant in variants:
            result = run_episode(env, agent, seed=0,
                                 options={"task_id": task_id, "variant": variant})
            successes.append(result.success)
            scores.append(result.total_reward)
            by_task[task_id] = by_task.get(task_id, 0) + result.success
    return successes, scores, by_task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variants", type=int, default=20)
    args = parser.parse_args()
    env = gym.make("PhysicianBench-v0", max_steps=60)
    rows = [("reference solution", OracleAgent(), ["canonical"])]
    rows += [(name, AdversarialAgent(name), ["canonical"]) for name in ADVERSARIES]
    rows.append(("random tool calls", RandomAgent(seed=0), ["canonical"]))
    rows.append((f"canonical replay on {args.variants} variants", CanonicalReplayAgent(),
                 list(range(args.variants))))
    print(f"{'policy':40} {'episodes':>8} {'success':>8} {'mean score':>10}")
    for name, agent, variants in rows:
        successes, scores, by_task = play(env, agent, variants)
        print(f"{name:40} {len(successes):8} {sum(successes) / len(successes):8.1%} "
              f"{statistics.mean(scores):10.2f}")
        if len(variants) > 1:
            worst = sorted(by_task.items(), key=lambda kv: -kv[1])[:5]
            print("    most often replayed successfully: " + ", ".join(
                f"{task} {count}/{len(variants)}" for task, count in worst))
    env.close()


if __name__ == "__main__":
    main()
