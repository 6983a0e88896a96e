"""The Agent protocol: how any policy plugs into the env loop, and the loop itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import gymnasium as gym

from physbench_gym.errors import PhysBenchError


class AgentError(PhysBenchError):
    """The policy could not act for a reason outside the episode (endpoint down, quota).

    The evaluation harness records such an episode as an infrastructure error, keeps it out
    of the metrics and retries it on resume.
    """


class Agent(Protocol):
    """A policy over the text env.

    ``reset`` is called with the task brief and reset info (which holds ``tool_schemas``);
    ``act`` returns the next action (a tool call in any form the env accepts) given the
    latest observation and info.
    """

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None: ...

    def act(self, observation: str, info: dict[str, Any]) -> Any: ...


@dataclass
class EpisodeResult:
    """What one episode produced."""

    task_id: str
    variant: str
    success: bool
    score: float
    total_reward: float
    steps: int
    termination: str
    checkpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    actions: list[Any] = field(default_factory=list)


def run_episode(env: gym.Env, agent: Agent, *, seed: int | None = None,
                options: dict[str, Any] | None = None) -> EpisodeResult:
    """Run ``agent`` for one episode of ``env`` and summarize it."""
    observation, info = env.reset(seed=seed, options=options)
    agent.reset(env, observation, info)
    total, actions = 0.0, []
    while True:
        action = agent.act(observation, info)
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if terminated or truncated:
            break
    return EpisodeResult(
        task_id=info["task_id"], variant=info["variant"], success=bool(info["success"]),
        score=float(info["score"]), total_reward=total, steps=int(info["steps"]),
        termination=info["termination"], checkpoints=info["checkpoints"], actions=actions)
