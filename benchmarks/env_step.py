"""Env performance: step time vs CartPole, reset time, cold start, memory per extra env.

Run: python benchmarks/env_step.py   (prints a table; nothing is asserted)
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
import tracemalloc

import gymnasium as gym

import physbench_gym  # noqa: F401
from physbench_gym.tasks.registry import task_ids

COLD_START = """
import time
t = time.perf_counter()
import gymnasium as gym, physbench_gym
env = gym.make("PhysicianBench-v0")
env.reset(seed=0)
print(time.perf_counter() - t)
"""


def oracle_step_times(rounds: int = 5) -> list[float]:
    """Per-step wall time of oracle episodes over every task (after a warm-up episode each)."""
    env = gym.make("PhysicianBench-v0")
    times = []
    for task_id in task_ids():
        for round_ in range(rounds + 1):
            env.reset(seed=round_, options={"task_id": task_id})
            for action in env.unwrapped.oracle_actions():
                start = time.perf_counter()
                env.step(action)
                if round_:
                    times.append(time.perf_counter() - start)
    env.close()
    return times


def cartpole_step_times(n: int = 20_000) -> list[float]:
    env = gym.make("CartPole-v1")
    env.reset(seed=0)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        times.append(time.perf_counter() - start)
        if terminated or truncated:
            env.reset()
    return times


def reset_times(n: int = 2000) -> list[float]:
    env = gym.make("PhysicianBench-v0")
    env.reset(seed=0)
    times = []
    for i in range(n):
        start = time.perf_counter()
        env.reset(seed=i)
        times.append(time.perf_counter() - start)
    return times


def cold_start_seconds(runs: int = 3) -> list[float]:
    return [float(subprocess.run([sys.executable, "-c", COLD_START], capture_output=True,
                                 text=True, check=True).stdout.strip()) for _ in range(runs)]


def memory_per_env(n: int = 20) -> float:
    """Extra traced bytes per additional env (made and reset once), in MB."""
    first = gym.make("PhysicianBench-v0")
    first.reset(seed=0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = [gym.make("PhysicianBench-v0") for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=i)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / n / 1e6


def interleaved_ratio(rounds: int = 9) -> tuple[float, float, float]:
    """Median step times of both envs measured in alternating rounds, so that load from
    other processes on a shared machine weighs on both alike; returns (ours, cartpole, ratio)."""
    ours, theirs, ratios = [], [], []
    for _ in range(rounds):
        steps = statistics.median(oracle_step_times(1))
        cartpole = statistics.median(cartpole_step_times(5000))
        ours.append(steps)
        theirs.append(cartpole)
        ratios.append(steps / cartpole)
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


def main() -> None:
    cold = cold_start_seconds()
    resets = reset_times()
    step, cartpole, ratio = interleaved_ratio()
    rows = [
        ("median oracle step() over all tasks", f"{step * 1e6:.0f} us", ""),
        ("median CartPole-v1 step() via gym.make", f"{cartpole * 1e6:.1f} us", ""),
        ("step ratio PhysicianBench / CartPole", f"{ratio:.1f}x", "target <= 20x"),
        ("median reset() after the first", f"{statistics.median(resets) * 1e3:.3f} ms",
         "target <= 1 ms"),
        ("cold gym.make + first reset (cached EHR)", f"{min(cold):.2f} s (of {len(cold)})",
         "target <= 2 s"),
        ("extra memory per additional env", f"{memory_per_env():.3f} MB", "target <= 1 MB"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>18}  {target}")


if __name__ == "__main__":
    main()
