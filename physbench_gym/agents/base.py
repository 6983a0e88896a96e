"""The Agent protocol: how any policy plugs into the env loop, and the loop itself."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import gymnasium as gym

from physbench_gym.errors import InfrastructureError
from physbench_gym.spaces import ActionError, parse_action

RESET_INFO_KEYS = ("task_id", "title", "specialty", "specialty_group", "task_type", "tier",
                   "variant", "now", "patient_mrn", "max_steps")
STEP_INFO_KEYS = ("ok", "error", "score", "steps", "invalid_actions", "success", "termination",
                  "safety")


class AgentError(InfrastructureError):
    """The policy could not act for a reason outside the episode (endpoint down, quota).

    The evaluation harness records such an episode as an infrastructure error, keeps it out
    of the metrics and retries it on resume.
    """


class Agent(Protocol):
    """A policy over the text env.

    ``reset`` is called with the task brief and reset info (which holds ``tool_schemas``);
    ``act`` returns the next action (a tool call in any form the env accepts) given the
    latest observation and info. A policy may expose ``usage`` (a dict with
    ``prompt_tokens`` and ``completion_tokens`` of the current episode); the loop reports it.
    """

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None: ...

    def act(self, observation: str, info: dict[str, Any]) -> Any: ...


@dataclass
class EpisodeResult:
    """What one episode produced.

    ``tool_calls`` counts the agent's tool calls other than ``finish``; ``wall_time`` is the
    whole episode and ``policy_time`` the part spent inside the agent, both in seconds.
    ``events`` is the event log (a reset record, then one record per step) when recorded.
    ``safety`` holds the final safety ``violations`` and ``warnings`` (rule, order, message).
    """

    task_id: str
    variant: str
    success: bool
    score: float
    total_reward: float
    steps: int
    termination: str
    checkpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    actions: list[Any] = field(default_factory=list)
    tool_calls: int = 0
    invalid_actions: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    wall_time: float = 0.0
    policy_time: float = 0.0
    events: list[dict[str, Any]] = field(default_factory=list)
    safety: dict[str, list[dict[str, str]]] = field(default_factory=dict)


def run_episode(env: gym.Env, agent: Agent, *, seed: int | None = None,
                options: dict[str, Any] | None = None,
                events: list[dict[str, Any]] | None = None) -> EpisodeResult:
    """Run ``agent`` for one episode of ``env`` and summarize it.

    When ``events`` is a list, the reset and every step are appended to it as JSON-ready
    records while the episode runs, so a caller keeps the partial log if the agent raises
    (e.g. ``AgentError`` when its endpoint fails).
    """
    recorder = EpisodeRecorder(env, events)
    observation, info = recorder.reset(seed=seed, options=options)
    policy_start = time.perf_counter()
    agent.reset(env, observation, info)
    policy_time = time.perf_counter() - policy_start
    while not recorder.done:
        policy_start = time.perf_counter()
        action = agent.act(observation, info)
        policy_time += time.perf_counter() - policy_start
        observation, _, _, _, info = recorder.step(action)
    return recorder.result(tokens=agent_usage(agent), policy_time=policy_time)


class EpisodeRecorder:
    """Steps an env for a policy and summarizes the episode as an ``EpisodeResult``.

    ``run_episode`` drives it with an in-process agent; the MCP and OpenEnv faces drive it
    with tool calls that arrive from another process, so every face logs and scores an
    episode the same way.
    """

    def __init__(self, env: gym.Env, events: list[dict[str, Any]] | None = None) -> None:
        self.env, self.events = env, events
        self.done = False
        self._info: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start the episode; log the reset."""
        self._started = time.perf_counter()
        self._total, self._actions, self._tool_calls = 0.0, [], 0
        self.done = False
        observation, self._info = self.env.reset(seed=seed, options=options)
        if self.events is not None:
            self.events.append(reset_event(observation, self._info))
        return observation, self._info

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """One env step, logged; ``done`` is set when the episode ends."""
        self._actions.append(action)
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._total += float(reward)
        self._tool_calls += info.get("tool") not in ("finish",)
        self._info = info
        if self.events is not None:
            self.events.append(step_event(len(self._actions), action, observation, float(reward),
                                          terminated, truncated, info,
                                          time.perf_counter() - self._started))
        self.done = bool(terminated or truncated)
        return observation, float(reward), terminated, truncated, info

    def result(self, *, tokens: dict[str, int] | None = None,
               policy_time: float = 0.0) -> EpisodeResult:
        """The summary of the ended episode."""
        info = self._info
        return EpisodeResult(
            task_id=info["task_id"], variant=info["variant"], success=bool(info["success"]),
            score=float(info["score"]), total_reward=self._total, steps=int(info["steps"]),
            termination=info["termination"], checkpoints=info["checkpoints"],
            actions=self._actions, tool_calls=self._tool_calls,
            invalid_actions=int(info.get("invalid_actions", 0)),
            tokens=tokens or {"prompt_tokens": 0, "completion_tokens": 0},
            wall_time=time.perf_counter() - self._started, policy_time=policy_time,
            events=self.events if self.events is not None else [],
            safety={"violations": list(info.get("safety", [])),
                    "warnings": list(info.get("safety_warnings", []))})


def agent_usage(agent: Any) -> dict[str, int]:
    """The agent's token usage of the current episode, or zeros when it reports none."""
    usage = getattr(agent, "usage", None) or {}
    return {key: int(usage.get(key, 0) or 0) for key in ("prompt_tokens", "completion_tokens")}


def reset_event(observation: str, info: dict[str, Any]) -> dict[str, Any]:
    """The event-log record of a reset: the brief and what identifies the instance."""
    return {"type": "reset", "observation": observation,
            "info": {key: info[key] for key in RESET_INFO_KEYS if key in info}}


def step_event(step: int, action: Any, observation: str, reward: float, terminated: bool,
               truncated: bool, info: dict[str, Any], elapsed: float) -> dict[str, Any]:
    """The event-log record of one step: the call, the response and the grading state."""
    kept = {key: info[key] for key in STEP_INFO_KEYS if key in info}
    kept["passed"] = sorted(cid for cid, state in info.get("checkpoints", {}).items()
                            if state.get("passed"))
    return {"type": "step", "step": step, "action": jsonable_action(action),
            "tool": info.get("tool", ""), "observation": observation, "reward": reward,
            "terminated": bool(terminated), "truncated": bool(truncated), "info": kept,
            "elapsed": round(elapsed, 6)}


def jsonable_action(action: Any) -> dict[str, Any]:
    """An action as ``{"tool", "arguments"[, "id"]}``, or ``{"raw": text}`` if unparsable."""
    try:
        name, arguments = parse_action(action)
    except ActionError:
        return {"raw": _text(action)}
    call_id = action.get("id") if isinstance(action, dict) else getattr(action, "id", None)
    if isinstance(arguments, (bytes, bytearray)):
        arguments = bytes(arguments).decode("utf-8", errors="replace")
    if not isinstance(arguments, (str, dict, list)):
        arguments = _text(arguments)
    record: dict[str, Any] = {"tool": name, "arguments": arguments}
    if isinstance(call_id, str) and call_id:
        record["id"] = call_id
    return record


def _text(value: Any, limit: int = 4000) -> str:
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode("utf-8", errors="replace")
    return (value if isinstance(value, str) else repr(value))[:limit]
