"""Round-trip cost of one step through each face, against ``env.step`` in-process.

The same read step (a patient search by MRN, answered from the embedded EHR) is sent N times:

* in-process: ``env.step`` on a ``PhysicianBench-v0`` env;
* MCP over stdio: ``session.call_tool`` to a ``physbench mcp`` subprocess;
* MCP over streamable HTTP: ``session.call_tool`` to ``physbench mcp --transport http``;
* OpenEnv: ``PhysicianBenchEnvClient.step`` over the ``/ws`` session of ``physbench serve-env``.

Each face is warmed up first; the median and p90 of the wall times are printed, with the
median's ratio to the in-process step. Servers run on this machine (127.0.0.1).

Run: python benchmarks/interop_step.py [--steps 300] [--task thyroid_medication_management]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import anyio
import gymnasium as gym
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

import physbench_gym  # noqa: F401
from physbench_gym.integrations.openenv import PhysicianBenchEnvClient

WARMUP = 20


def timed(calls: int, step: Callable[[], object]) -> list[float]:
    for _ in range(WARMUP):
        step()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return times


async def timed_async(calls: int, step: Callable[[], object]) -> list[float]:
    for _ in range(WARMUP):
        await step()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        await step()
        times.append(time.perf_counter() - started)
    return times


def in_process(task: str, steps: int, action: dict) -> list[float]:
    env = gym.make("PhysicianBench-v0", max_steps=10**6)
    env.reset(seed=0, options={"task_id": task})
    return timed(steps, lambda: env.step(action))


def mcp_stdio(task: str, steps: int, action: dict, out: str) -> list[float]:
    params = StdioServerParameters(command=sys.executable, env=dict(os.environ), args=[
        "-m", "physbench_gym.cli", "mcp", "--task", task, "--out", out,
        "--max-steps", str(10**6)])

    async def run() -> list[float]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return await timed_async(steps, lambda: s.call_tool(action["tool"],
                                                                action["arguments"]))

    return anyio.run(run)


def start(args: list[str]) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, "-m", "physbench_gym.cli", *args, "--port", "0",
                               "--max-steps", str(10**6)], stderr=subprocess.PIPE, text=True)
    return server, re.search(r"http://127\.0\.0\.1:\d+", server.stderr.readline()).group(0)


def mcp_http(task: str, steps: int, action: dict, out: str) -> list[float]:
    server, url = start(["mcp", "--task", task, "--out", out, "--transport", "http"])

    async def run() -> list[float]:
        async with streamable_http_client(url + "/mcp") as (read, write, _), \
                ClientSession(read, write) as s:
            await s.initialize()
            return await timed_async(steps, lambda: s.call_tool(action["tool"],
                                                                action["arguments"]))

    try:
        return anyio.run(run)
    finally:
        server.terminate()
        server.wait()


def openenv(task: str, steps: int, action: dict) -> list[float]:
    server, url = start(["serve-env"])
    try:
        with PhysicianBenchEnvClient(base_url=url).sync() as env:
            env.reset(task_id=task)
            return timed(steps, lambda: env.step(action))
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--task", default="thyroid_medication_management")
    args = parser.parse_args()
    env = gym.make("PhysicianBench-v0")
    _, info = env.reset(seed=0, options={"task_id": args.task})
    action = {"tool": "fhir_patient_search_demographics",
              "arguments": {"identifier": info["patient_mrn"]}}
    with tempfile.TemporaryDirectory() as out:
        faces = {"in-process env.step": lambda: in_process(args.task, args.steps, action),
                 "MCP stdio": lambda: mcp_stdio(args.task, args.steps, action, out + "/a"),
                 "MCP streamable HTTP": lambda: mcp_http(args.task, args.steps, action,
                                                         out + "/b"),
                 "OpenEnv WebSocket": lambda: openenv(args.task, args.steps, action)}
        rows = {name: sorted(run()) for name, run in faces.items()}
    base = statistics.median(rows["in-process env.step"])
    print(f"{'face':22s} {'median':>10s} {'p90':>10s} {'x in-process':>13s}")
    for name, times in rows.items():
        median, p90 = statistics.median(times), times[int(0.9 * len(times))]
        print(f"{name:22s} {median * 1e6:8.0f}us {p90 * 1e6:8.0f}us {median / base:12.1f}x")


if __name__ == "__main__":
    main()
