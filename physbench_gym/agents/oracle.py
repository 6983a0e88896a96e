"""Scripted policies: the oracle that replays a task's reference solution, and random."""

from __future__ import annotations

from typing import Any

import gymnasium as gym


class OracleAgent:
    """Replays the reference solution of the current episode's task instance (any variant)."""

    def __init__(self) -> None:
        self._plan: list[dict[str, Any]] = []

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        self._plan = list(env.unwrapped.oracle_actions())

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        if not self._plan:
            return {"tool": "finish", "arguments": {"summary": "done"}}
        return self._plan.pop(0)


class RandomAgent:
    """Samples valid tool calls from the action space (a baseline that should never succeed)."""

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._space: gym.Space | None = None

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        if self._space is None:
            self._space = env.action_space
            self._space.seed(self._seed)

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        assert self._space is not None, "call reset() first"
        return self._space.sample()
