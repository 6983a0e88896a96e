"""An MCP agent that replays the reference solution: the smallest agent the MCP face can score.

It follows the contract of ``physbench eval --agent mcp-client:<command>``: it starts the
episode's server from ``$PHYSBENCH_MCP_SERVER`` over stdio, reads the brief and the episode's
identity, calls the tools of the task's reference solution through MCP and ends with
``finish``. Use it as a template for wiring your own MCP-capable agent:

    physbench eval --agent "mcp-client:python examples/mcp_oracle_agent.py" \\
        --tasks thyroid_medication_management --k 2

or against a server command of your own:

    python examples/mcp_oracle_agent.py -- physbench mcp --task thyroid_medication_management
"""

from __future__ import annotations

import json
import os
import sys

import anyio
import gymnasium as gym
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import physbench_gym  # noqa: F401


def server_parameters(argv: list[str]) -> StdioServerParameters:
    """The server to start: ``$PHYSBENCH_MCP_SERVER``, or the command after ``--``."""
    if "--" in argv:
        command = argv[argv.index("--") + 1:]
        return StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    entry = json.loads(os.environ["PHYSBENCH_MCP_SERVER"])
    return StdioServerParameters(command=entry["command"], args=entry["args"],
                                 env={**os.environ, **entry.get("env", {})})


def reference_calls(episode: dict) -> list[dict]:
    """The reference solution's tool calls for the episode's task instance."""
    label = episode["variant"]
    variant = "canonical" if label == "canonical" else int(label.removeprefix("seed-"))
    env = gym.make("PhysicianBench-v0")
    env.reset(seed=0, options={"task_id": episode["task_id"], "variant": variant})
    calls = env.unwrapped.oracle_actions()
    env.close()
    return calls


async def run(params: StdioServerParameters) -> None:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        brief = await session.get_prompt("brief")
        print(brief.messages[0].content.text.splitlines()[0])
        episode = json.loads((await session.read_resource("physbench://episode"))
                             .contents[0].text)
        for call in reference_calls(episode):
            result = await session.call_tool(call["tool"], call["arguments"])
            status = "error" if result.isError else "ok"
            print(f"> {call['tool']}: {status} {result.content[0].text[:80]!r}")


if __name__ == "__main__":
    anyio.run(run, server_parameters(sys.argv[1:]))
