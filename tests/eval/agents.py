"""Policies for the evaluation tests, loaded by the harness as ``tests.eval.agents:Name``."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

from physbench_gym.agents import AgentError, OracleAgent

FAIL_SEEDS_ENV = "PHYSBENCH_TEST_FAIL_SEEDS"
MARKER_DIR_ENV = "PHYSBENCH_TEST_MARKERS"


class FlakyOracle(OracleAgent):
    """The oracle, except that episodes with a listed seed raise AgentError the first time."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0}
        self._calls = 0

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        super().reset(env, observation, info)
        self.usage = {"prompt_tokens": 100, "completion_tokens": 0}
        self._calls = 0

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        self._calls += 1
        self.usage["completion_tokens"] += 7
        if self._calls == 3 and self._should_fail():
            raise AgentError("endpoint unreachable: connection refused")
        return super().act(observation, info)

    def _should_fail(self) -> bool:
        listed = {int(s) for s in os.environ.get(FAIL_SEEDS_ENV, "").split(",") if s}
        if self.seed not in listed:
            return False
        marker = Path(os.environ[MARKER_DIR_ENV]) / f"failed-{self.seed}"
        if marker.exists():
            return False
        marker.touch()
        return True


class SlowOracle(OracleAgent):
    """The oracle with a short pause per episode, so a test can kill a run midway."""

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        super().reset(env, observation, info)
        time.sleep(0.05)


class KillOnceOracle(OracleAgent):
    """The oracle, except that the episode with a listed seed kills its own worker process
    the first time it starts (the process id is left in a marker file)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        super().reset(env, observation, info)
        listed = {int(s) for s in os.environ.get(FAIL_SEEDS_ENV, "").split(",") if s}
        marker = Path(os.environ.get(MARKER_DIR_ENV, ".")) / f"killed-{self.seed}"
        if self.seed in listed and not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
