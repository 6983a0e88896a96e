"""Measure chart generation and base-store start-up (prints numbers; asserts nothing).

Run: ``python benchmarks/synth.py [--patients 500] [--seed 0]``. The cache is a fresh temporary
directory, so the first build is cold and the second is served from the cache.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from physbench_gym.synth.background import DEFAULT_NOW, background_story
from physbench_gym.synth.chart import generate_chart
from physbench_gym.synth.samples import hypothyroid_story


def _timed(label: str, func, *args, **kwargs):
    start = time.perf_counter()
    result = func(*args, **kwargs)
    elapsed = time.perf_counter() - start
    print(f"{label:<48} {elapsed:8.2f} s")
    return result, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--patients", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    story_chart = generate_chart(hypothyroid_story(), args.seed)
    print(f"{'resources per story patient (hypothyroid sample)':<48} {len(story_chart):8d}")

    stories = [background_story(i, args.seed, DEFAULT_NOW) for i in range(args.patients)]
    start = time.perf_counter()
    total = sum(len(generate_chart(s, args.seed, minor_problems=(0, 2))) for s in stories)
    elapsed = time.perf_counter() - start
    print(f"{'background patients generated per second':<48} {args.patients / elapsed:8.1f}")
    print(f"{'resources per background patient':<48} {total / args.patients:8.1f}")

    with tempfile.TemporaryDirectory() as cache_dir:
        os.environ["PHYSBENCH_CACHE_DIR"] = cache_dir
        from physbench_gym.synth.population import build_base_store

        store, _ = _timed(f"cold: generate + load {args.patients} patients", build_base_store,
                          args.patients, args.seed)
        _timed("cached second start", build_base_store, args.patients, args.seed)
        print(f"{'resources in the base store':<48} {len(store):8d}")


if __name__ == "__main__":
    main()
