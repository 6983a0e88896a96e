"""The Ray backend of ``physbench eval`` against the local one: oracle on every task, k samples.

Prints episodes/s of the local backend (one worker, in this process) and of the Ray backend
on a local Ray cluster with 1 and 2 actors, both for the whole run (start-up included) and in
steady state (from the episodes' finish times, leaving out each worker's first two); the Ray
backend's extra cost per episode (steady-state seconds per episode, Ray with one actor minus
local); and whether both backends wrote the same episodes and scores, byte for byte after
sorting.

Run: python benchmarks/ray_eval.py [--k 5]   (needs pip install 'physbench-gym[ray]')
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import ray

from physbench_gym.eval.runner import EvalConfig, run_eval
from physbench_gym.eval.store import read_results
from physbench_gym.tasks.registry import task_ids

SCORED = ("task_id", "sample", "seed", "variant_id", "success", "score", "total_reward",
          "steps", "checkpoints", "safety")


def timed(config: EvalConfig, out: Path, backend: str, workers: int) -> tuple[float, float]:
    """Episodes/s of the whole run and in steady state."""
    started = time.perf_counter()
    run_eval(config, out, workers=workers, backend=backend, progress=None)
    total = time.perf_counter() - started
    finished = sorted(r["finished_at"] for r in read_results(out).values())[2 * workers:]
    steady = (len(finished) - 1) / (finished[-1] - finished[0])
    return len(read_results(out)) / total, steady


def scored_lines(out: Path) -> list[str]:
    return sorted(json.dumps({k: r.get(k) for k in SCORED}, sort_keys=True)
                  for r in read_results(out).values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    config = EvalConfig(agent="oracle", tasks=tuple(task_ids()), k=args.k)
    episodes = len(config.tasks) * config.k
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(("local, 1 worker", *timed(config, Path(tmp) / "local", "local", 1)))
        ray.init(num_cpus=2, include_dashboard=False, logging_level="error",
                 log_to_driver=False)
        try:
            for workers in (1, 2):
                rows.append((f"ray, {workers} worker{'s' * (workers > 1)}",
                             *timed(config, Path(tmp) / f"ray{workers}", "ray", workers)))
        finally:
            ray.shutdown()
        same = all(scored_lines(Path(tmp) / "local") == scored_lines(Path(tmp) / f"ray{w}")
                   for w in (1, 2))
    print(f"oracle, {len(config.tasks)} tasks x k={config.k} = {episodes} episodes\n")
    print(f"{'backend':<18}{'episodes/s (whole run)':>24}{'episodes/s (steady)':>22}")
    for name, whole, steady in rows:
        print(f"{name:<18}{whole:>24.1f}{steady:>22.1f}")
    overhead = 1 / rows[1][2] - 1 / rows[0][2]
    print(f"\nRay overhead per episode (1 actor vs local, steady state): {1000 * overhead:.2f} ms")
    print(f"same episodes and scores as local, byte for byte after sorting: {same}")


if __name__ == "__main__":
    main()
