"""The reference solution played through the OpenEnv face, as an RL trainer would drive it.

Connects to a running ``physbench serve-env`` (``--url``), or starts one on a free local port,
opens one session, resets the task, sends the reference solution's tool calls as actions and
prints each reward and the final verdict.

    python examples/openenv_oracle.py --task thyroid_medication_management
    python examples/openenv_oracle.py --url http://127.0.0.1:8000 --token $PHYSBENCH_TOKEN
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

import gymnasium as gym

import physbench_gym  # noqa: F401
from physbench_gym.integrations.openenv import PhysicianBenchEnvClient


def start_server() -> tuple[subprocess.Popen, str]:
    """``physbench serve-env`` on a free loopback port, and its URL."""
    server = subprocess.Popen([sys.executable, "-m", "physbench_gym.cli", "serve-env",
                               "--port", "0"], stderr=subprocess.PIPE, text=True)
    line = server.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+", line)
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line}")
    return server, found.group(0)


def reference_calls(task_id: str, variant: str) -> list[dict]:
    env = gym.make("PhysicianBench-v0")
    env.reset(seed=0, options={"task_id": task_id,
                               "variant": variant if variant == "canonical" else int(variant)})
    calls = env.unwrapped.oracle_actions()
    env.close()
    return calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="thyroid_medication_management")
    parser.add_argument("--variant", default="canonical", help="canonical or a variant seed")
    parser.add_argument("--url", default=None, help="a running server (default: start one)")
    parser.add_argument("--token", default=None)
    args = parser.parse_args()
    server, url = start_server() if args.url is None else (None, args.url)
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
    try:
        with PhysicianBenchEnvClient(base_url=url, headers=headers).sync() as env:
            result = env.reset(task_id=args.task, variant=args.variant)
            print(result.observation.text.splitlines()[0])
            for call in reference_calls(args.task, args.variant):
                result = env.step(call)
                print(f"> {call['tool']:50s} reward {result.reward:+.3f}")
            state = env.state()
            print(f"done {result.done}, success {result.observation.success}, "
                  f"score {state.score:.3f}")
            return 0 if result.observation.success else 1
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
