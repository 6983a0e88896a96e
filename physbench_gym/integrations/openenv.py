"""The OpenEnv face: the env served over OpenEnv's reset/step/state protocol, and its client.

``physbench serve-env`` serves :class:`PhysicianBenchEnvironment` with
``openenv.core.env_server.create_app``: every WebSocket session (``/ws``, what ``EnvClient``
and TRL's OpenEnv integration use) gets its own environment, i.e. its own fork of the EHR,
so two clients never see each other's writes. ``reset`` takes ``task_id``, ``variant``
(``canonical``, ``seeded`` or a variant seed) and ``seed``; ``step`` takes a tool call
``{"tool", "arguments"}`` (or its JSON text as ``text``), which goes through the env's own
parser: a malformed call is an ``ERROR:`` observation with ``ok`` false, never an exception.
The stateless HTTP ``/reset`` and ``/step`` routes build a fresh environment per request, as
OpenEnv does for every environment; an episode needs a session.

The environment subclasses OpenEnv's ``Environment``, not ``MCPEnvironment``: the latter
routes each call through a FastMCP server built from Python function signatures, which
would re-derive the tools' schemas and validate calls before the env does; the MCP face
(``physbench_gym.integrations.mcp``) serves MCP clients directly with the env's schemas.
"""

from __future__ import annotations

import functools
import json
import sys
import uuid
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from openenv.core.env_server import Action, ConcurrencyConfig, Environment, Observation, State
from openenv.core.env_server import create_app as openenv_create_app
from pydantic import ConfigDict, Field

from physbench_gym.integrations import served
from physbench_gym.spaces import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS
from physbench_gym.tools.base import MAX_JSON_DEPTH

NOT_STARTED = "ERROR: no episode yet; reset with a task_id first."


class ToolCallAction(Action):
    """A tool call: ``tool`` and ``arguments``, or the call's JSON text as ``text``.

    Any other shape is passed on to the env's parser, which answers it with an error
    observation.
    """

    model_config = ConfigDict(extra="allow")
    tool: Any = Field(default=None, description="the tool's name")
    arguments: Any = Field(default=None, description="the tool's arguments (object or JSON)")
    text: str | None = Field(default=None, max_length=MAX_ACTION_CHARS,
                             description="the whole tool call as JSON text, instead")

    def as_env_action(self) -> Any:
        """The action as the env takes it."""
        if self.text is not None:
            return self.text
        call = {key: value for key, value in (self.model_extra or {}).items()}
        call["tool"] = self.tool if self.tool is not None else call.pop("tool_name", None)
        call["arguments"] = self.arguments
        return call


class ToolObservation(Observation):
    """What a step returned: the observation text, and whether the call was valid."""

    text: str = Field(default="", max_length=MAX_OBSERVATION_CHARS)
    tool: str = ""
    ok: bool = True
    error: str = ""
    task_id: str = ""
    variant: str = ""
    success: bool | None = None


class EpisodeState(State):
    """The session's episode: task, instance, progress, each checkpoint's verdict."""

    task_id: str = ""
    variant: str = ""
    score: float = 0.0
    done: bool = False
    success: bool | None = None
    invalid_actions: int = 0
    checkpoints: dict[str, Any] = Field(default_factory=dict)


class PhysicianBenchEnvironment(Environment[ToolCallAction, ToolObservation, EpisodeState]):
    """One session's PhysicianBench episodes for an OpenEnv server."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, tasks: list[str] | None = None, max_steps: int | None = None) -> None:
        super().__init__()
        self._tasks, self._max_steps = tasks, max_steps
        self._episode: served.ServedEpisode | None = None
        self._episode_id: str | None = None

    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task_id: str | None = None, variant: str | int = "canonical",
              **_: Any) -> ToolObservation:
        """Start an episode of ``task_id`` (default: drawn from the seed) and return the brief."""
        if task_id is not None and self._tasks and task_id not in self._tasks:
            raise ValueError(f"task {task_id!r} is not served here; tasks: {self._tasks}")
        self.close()
        env = served.make_env(self._tasks, max_steps=self._max_steps)
        self._episode = served.ServedEpisode(env, task_id, served.parse_variant(variant), seed)
        self._episode_id = episode_id or uuid.uuid4().hex
        info = self._episode.info
        return ToolObservation(text=self._episode.brief, task_id=info["task_id"],
                               variant=info["variant"], reward=0.0,
                               metadata={"tool_schemas": info["tool_schemas"],
                                         "patient_mrn": info["patient_mrn"], "now": info["now"],
                                         "max_steps": info["max_steps"]})

    def step(self, action: ToolCallAction, timeout_s: float | None = None,
             **_: Any) -> ToolObservation:
        """One tool call; the reward is the change in checkpoint score."""
        if self._episode is None:
            return ToolObservation(text=NOT_STARTED, ok=False, error=NOT_STARTED, reward=0.0)
        text, reward, terminated, truncated, info = self._episode.step(action.as_env_action())
        done = terminated or truncated
        return ToolObservation(
            text=text, tool=str(info.get("tool", "")), ok=bool(info.get("ok")),
            error=str(info.get("error", "")), task_id=info["task_id"], variant=info["variant"],
            success=info.get("success") if done else None, done=done, reward=reward,
            metadata={"score": info["score"], "steps": info["steps"],
                      "termination": info.get("termination", "")})

    @property
    def state(self) -> EpisodeState:
        if self._episode is None:
            return EpisodeState()
        info = self._episode.info
        return EpisodeState(
            episode_id=self._episode_id, step_count=int(info.get("steps", 0)),
            task_id=info["task_id"], variant=info["variant"], score=float(info["score"]),
            done=self._episode.done, success=info.get("success"),
            invalid_actions=int(info.get("invalid_actions", 0)),
            checkpoints={cid: {"passed": c.get("passed"), "reason": c.get("reason")}
                         for cid, c in info.get("checkpoints", {}).items()})

    def close(self) -> None:
        if self._episode is not None:
            self._episode.close()
            self._episode = None


def create_app(tasks: list[str] | None = None, *, max_steps: int | None = None,
               token: str | None = None, max_body: int = served.DEFAULT_MAX_BODY,
               max_sessions: int = served.DEFAULT_MAX_SESSIONS,
               idle_timeout: float = served.DEFAULT_IDLE_TIMEOUT) -> Any:
    """The OpenEnv ASGI app: ``/ws`` sessions, ``/reset``, ``/step``, ``/state``, ``/schema``.

    HTTP bodies above ``max_body`` bytes get 413 (WebSocket messages are capped by the
    server), at most ``max_sessions`` sessions run at once, idle ones end after
    ``idle_timeout`` seconds, and WebSocket frames nested deeper than the env accepts are
    answered with an error observation.
    """
    from mcp.server.transport_security import RequestBodyLimitMiddleware

    factory = functools.partial(PhysicianBenchEnvironment, tasks=tasks, max_steps=max_steps)
    app: Any = openenv_create_app(
        factory, ToolCallAction, ToolObservation, env_name="physbench",
        concurrency_config=ConcurrencyConfig(max_concurrent_envs=max_sessions,
                                             session_timeout=idle_timeout),
        state_cls=EpisodeState)
    app = _DeepFrameGuard(RequestBodyLimitMiddleware(app, max_body))
    return served.BearerTokenGuard(app, token) if token else app


class _DeepFrameGuard:
    """Turns a WebSocket frame that JSON cannot decode for its nesting into a step whose
    ``text`` the env's parser rejects (the server would otherwise drop the session)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def guarded_receive() -> dict:
            message = await receive()
            text = message.get("text")
            if message["type"] == "websocket.receive" and text and _too_deep(text):
                message = {**message, "text": json.dumps(
                    {"type": "step", "data": {"text": text[:MAX_ACTION_CHARS]}})}
            return message

        await self.app(scope, guarded_receive, send)


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False
    try:
        json.loads(text)
    except RecursionError:
        return True
    except ValueError:
        return False
    return False


def serve_env(host: str = "127.0.0.1", port: int = 8000, **options: Any) -> None:
    """Serve the OpenEnv app until interrupted (``physbench serve-env``)."""
    sock = served.bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    print(f"physbench serve-env: OpenEnv server at http://{shown}:{sock.getsockname()[1]} "
          "(sessions at /ws)", file=sys.stderr, flush=True)
    served.run_uvicorn(create_app(**options), sock,
                       ws_max_size=options.get("max_body", served.DEFAULT_MAX_BODY))


class PhysicianBenchEnvClient(EnvClient[dict, ToolObservation, EpisodeState]):
    """An OpenEnv client of ``physbench serve-env``: one server session per client.

    Example::

        with PhysicianBenchEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
            result = env.reset(task_id="thyroid_medication_management")
            result = env.step({"tool": "fhir_patient_search_demographics",
                               "arguments": {"identifier": "..."}})
            print(result.observation.text, result.reward, result.done)

    Pass ``headers={"Authorization": "Bearer TOKEN"}`` to a server started with a token.
    """

    def _step_payload(self, action: Any) -> dict[str, Any]:
        if isinstance(action, ToolCallAction):
            return action.model_dump(exclude_none=True, exclude={"metadata"})
        if isinstance(action, str):
            return {"text": action}
        return dict(action)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[ToolObservation]:
        fields = dict(payload.get("observation") or {})
        fields.update(done=bool(payload.get("done")), reward=payload.get("reward"))
        return StepResult(observation=ToolObservation.model_validate(fields),
                          reward=payload.get("reward"), done=bool(payload.get("done")),
                          metadata=payload.get("metadata"))

    def _parse_state(self, payload: dict[str, Any]) -> EpisodeState:
        return EpisodeState.model_validate(payload)
