"""Rollout throughput of the discrete env and PPO wall time to the success target.

Measures random-policy env steps per second of ``PhysicianBench-Discrete-v0`` with 1 and 2
processes (Gymnasium ``SyncVectorEnv``/``AsyncVectorEnv`` and SB3 ``DummyVecEnv``/
``SubprocVecEnv``), then trains PPO (``examples/train_ppo.py``) until 20 deterministic
evaluation episodes reach 0.9 success.

Run: python benchmarks/rollout.py [--task ID] [--steps N] [--no-ppo]
(prints a table; nothing is asserted)
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path
from typing import Any

import numpy as np

from physbench_gym.vector import make_sb3_vec, make_vec

ENV_ID = "PhysicianBench-Discrete-v0"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_ppo.py"


def gymnasium_rate(task: str, n: int, mode: str, steps: int) -> float:
    """Env steps per second of a Gymnasium vector env under a random menu policy."""
    envs = make_vec(ENV_ID, n, mode, tasks=[task])
    try:
        envs.reset(seed=0)
        envs.action_space.seed(0)
        for _ in range(20):
            envs.step(envs.action_space.sample())
        start = time.perf_counter()
        for _ in range(steps // n):
            envs.step(envs.action_space.sample())
        return (steps // n) * n / (time.perf_counter() - start)
    finally:
        envs.close()


def sb3_rate(task: str, n: int, mode: str, steps: int) -> float:
    """Env steps per second of an SB3 VecEnv under a random menu policy."""
    envs = make_sb3_vec(ENV_ID, n, mode, tasks=[task])
    rng = np.random.default_rng(0)
    try:
        envs.seed(0)
        envs.reset()
        size = envs.action_space.n
        for _ in range(20):
            envs.step(rng.integers(size, size=n))
        start = time.perf_counter()
        for _ in range(steps // n):
            envs.step(rng.integers(size, size=n))
        return (steps // n) * n / (time.perf_counter() - start)
    finally:
        envs.close()


def ppo_to_target(task: str, n_envs: int, seed: int) -> dict[str, Any]:
    """Wall time and env steps PPO needs to reach the success target on ``task``."""
    spec = importlib.util.spec_from_file_location("train_ppo_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, log = module.train(task, 50_000, n_envs=n_envs, seed=seed, eval_every=2_048)
    return log


def main() -> None:
    """Print the throughput table and the PPO measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="thyroid_medication_management")
    parser.add_argument("--steps", type=int, default=4_000)
    parser.add_argument("--no-ppo", action="store_true")
    args = parser.parse_args()
    print(f"{ENV_ID}, task {args.task}, random menu policy, {args.steps} steps per row")
    print(f"{'vector env':<34}{'processes':>10}{'steps/s':>12}")
    rows = [("gymnasium SyncVectorEnv(1)", 1, gymnasium_rate, 1, "sync"),
            ("gymnasium AsyncVectorEnv(2)", 2, gymnasium_rate, 2, "async"),
            ("sb3 DummyVecEnv(1)", 1, sb3_rate, 1, "sync"),
            ("sb3 SubprocVecEnv(2)", 2, sb3_rate, 2, "async")]
    for label, processes, measure, n, mode in rows:
        rate = measure(args.task, n, mode, args.steps)
        print(f"{label:<34}{processes:>10}{rate:>12.0f}")
    if args.no_ppo:
        return
    log = ppo_to_target(args.task, n_envs=4, seed=0)
    reached = log["target_steps"] is not None
    print(f"\nPPO (4 envs, DummyVecEnv) on {args.task}: "
          + (f"0.9 success after {log['target_steps']} env steps, "
             f"{log['target_seconds']:.1f} s wall (evaluations included)" if reached
             else f"target not reached in {log['steps']} steps ({log['seconds']:.1f} s)"))


if __name__ == "__main__":
    main()
