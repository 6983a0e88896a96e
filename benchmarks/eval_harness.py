"""Evaluation harness throughput: oracle on every task with k=5, with 1 and 2 workers.

* episodes/s of ``run_eval`` with one worker (in this process) and with two spawned worker
  processes, both including their start-up and in steady state (from the episodes' finish
  times);
* the harness's own cost per episode: ``run_eval`` in-process (event log, result records,
  fsynced appends, progress; the final report build is timed apart) against a bare
  ``run_episode`` loop over the same episodes and seeds on a fresh env, each repeated and
  the median taken, after a warm-up pass; and, immune to load noise, the run's time outside
  the episodes (its wall time minus the episodes' own). The policy's time (recorded per
  episode) is reported apart.

Run: python benchmarks/eval_harness.py [--k 5] [--repeats 3]   (prints a table)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import gymnasium as gym

import physbench_gym  # noqa: F401
from physbench_gym.agents import OracleAgent, run_episode
from physbench_gym.eval.report import build_report
from physbench_gym.eval.runner import EvalConfig, planned_episodes, run_eval
from physbench_gym.eval.store import read_results
from physbench_gym.tasks.registry import task_ids


def bare_loop(config: EvalConfig) -> float:
    """Seconds of a plain ``run_episode`` loop over the run's episodes on a fresh env."""
    env = gym.make("PhysicianBench-v0", tasks=list(config.tasks))
    started = time.perf_counter()
    for task_id, _, seed in planned_episodes(config):
        run_episode(env, OracleAgent(), seed=seed,
                    options={"task_id": task_id, "variant": config.variant})
    elapsed = time.perf_counter() - started
    env.close()
    return elapsed


def timed_eval(config: EvalConfig, workers: int, out: Path) -> tuple[float, float, float]:
    """Seconds of a whole ``run_eval``, of its report build, and its steady-state rate.

    The steady state leaves out each worker's first two episodes (start-up stagger).
    """
    started = time.perf_counter()
    run_eval(config, out, workers=workers, progress=None)
    total = time.perf_counter() - started
    started = time.perf_counter()
    build_report(out)
    report = time.perf_counter() - started
    finished = sorted(r["finished_at"] for r in read_results(out).values())[2 * workers:]
    steady = (len(finished) - 1) / (finished[-1] - finished[0]) if len(finished) > 1 else 0.0
    return total, report, steady


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    config = EvalConfig(agent="oracle", tasks=tuple(task_ids()), k=args.k)
    episodes = len(config.tasks) * config.k
    started = time.perf_counter()
    bare_loop(config)
    warm = time.perf_counter() - started
    bare, one, reports, steady_one, outside = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for repeat in range(args.repeats):
            bare.append(bare_loop(config))
            total, report, steady = timed_eval(config, 1, Path(tmp) / f"one{repeat}")
            one.append(total - report)
            reports.append(report)
            steady_one.append(steady)
            inside = sum(r["wall_time"] for r in read_results(Path(tmp) / f"one{repeat}").values())
            outside.append((total - report - inside) / episodes)
        records = list(read_results(Path(tmp) / "one0").values())
        two, _, steady_two = timed_eval(config, 2, Path(tmp) / "two")
    bare_s, one_s = statistics.median(bare), statistics.median(one)
    harness = (one_s - bare_s) / episodes
    policy = statistics.fmean(r.get("policy_time", 0.0) for r in records)
    steps = statistics.fmean(r["steps"] for r in records)
    print(f"oracle evaluation: {len(config.tasks)} tasks x k={config.k} = {episodes} episodes, "
          f"{steps:.1f} steps each; first pass in this process (EHR build) {warm:.1f} s")
    rows = [
        ("bare run_episode loop, episodes/s", f"{episodes / bare_s:.1f}"),
        ("run_eval 1 worker in-process, episodes/s (no report)", f"{episodes / one_s:.1f}"),
        ("run_eval 1 worker, steady state, episodes/s", f"{statistics.median(steady_one):.1f}"),
        ("run_eval 2 workers incl. spawn + EHR load, episodes/s", f"{episodes / two:.1f}"),
        ("run_eval 2 workers, steady state, episodes/s", f"{steady_two:.1f}"),
        ("report + summary build, s", f"{statistics.median(reports):.2f}"),
        ("harness overhead per episode vs bare loop, ms", f"{1000 * harness:.2f}"),
        ("  relative to a bare episode", f"{harness / (bare_s / episodes):+.0%}"),
        ("harness time per episode outside run_episode, ms",
         f"{1000 * statistics.median(outside):.2f}"),
        ("policy (oracle) time per episode, ms", f"{1000 * policy:.3f}"),
    ]
    print(f"{'measure':<56}{'value':>10}")
    for name, value in rows:
        print(f"{name:<56}{value:>10}")


if __name__ == "__main__":
    main()
