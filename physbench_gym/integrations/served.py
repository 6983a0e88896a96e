"""What the MCP and OpenEnv faces share: a served episode, its results record, HTTP guards.

A served episode is one env episode driven by tool calls that arrive from another process.
It goes through the env's own parser and validation (a malformed call is an ``ERROR:``
observation), is logged and scored by the same ``EpisodeRecorder`` as ``physbench eval``, and
its record is written with the eval's results store. Each session owns its env (a fork of
the shared EHR), so two clients never see each other's writes; the steps of all sessions of
a process run one at a time under ``ENV_LOCK``, because the EHR's caches and the note reader
are shared by every env in the process.
"""

from __future__ import annotations

import hmac
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

from physbench_gym.agents.base import EpisodeRecorder
from physbench_gym.errors import PhysBenchError

ENV_LOCK = threading.RLock()
ENDED = "ERROR: the episode has ended; no further tool calls are accepted."
DISCONNECT_SUMMARY = "The client ended the session without calling finish."
DEFAULT_MAX_BODY = 4 * 1024 * 1024
DEFAULT_MAX_SESSIONS = 8
DEFAULT_IDLE_TIMEOUT = 30 * 60.0
STORE_RETRY_SECONDS = 10.0


def parse_variant(text: str | int) -> str | int:
    """``canonical``, ``seeded`` or a variant seed (an integer), as reset options take it."""
    if isinstance(text, int) or text in ("canonical", "seeded"):
        return text
    try:
        return int(text)
    except ValueError:
        raise PhysBenchError(f"variant must be 'canonical', 'seeded' or an integer, "
                             f"got {text!r}") from None


def make_env(tasks: str | list[str] | None = None, max_steps: int | None = None) -> gym.Env:
    """A fresh PhysicianBench env (one per session) over the process's shared EHR."""
    import physbench_gym  # noqa: F401  (registers the ids)

    with ENV_LOCK:
        return gym.make("PhysicianBench-v0", tasks=tasks, max_steps=max_steps)


class ServedEpisode:
    """One episode of an env, stepped by remote tool calls (thread-safe, never raises for
    agent input)."""

    def __init__(self, env: gym.Env, task_id: str | None, variant: str | int,
                 seed: int | None, events: list[dict[str, Any]] | None = None) -> None:
        self.env, self.seed = env, seed
        self.recorder = EpisodeRecorder(env, events)
        with ENV_LOCK:
            self.brief, self.info = self.recorder.reset(
                seed=seed, options={"task_id": task_id, "variant": variant})
        self.task_id: str = self.info["task_id"]
        self.disconnected = False

    @property
    def done(self) -> bool:
        """Whether finish was called or the step budget is used up."""
        return self.recorder.done

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The OpenAI function-calling schemas of the episode's tools."""
        return self.env.unwrapped.tool_schemas()

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """One env step; after the end, an ``ENDED`` error observation."""
        with ENV_LOCK:
            if self.recorder.done:
                return ENDED, 0.0, True, False, {**self.info, "ok": False, "error": ENDED}
            observation, reward, terminated, truncated, self.info = self.recorder.step(action)
        return observation, reward, terminated, truncated, self.info

    def conclude(self) -> None:
        """End an episode the client left open with ``finish``, so it is graded as one."""
        with ENV_LOCK:
            if not self.recorder.done:
                self.disconnected = True
                self.step({"tool": "finish", "arguments": {"summary": DISCONNECT_SUMMARY}})

    def close(self) -> None:
        """Release the env; safe to call twice."""
        self.env.close()


def write_episode(out_dir: str | Path, episode: ServedEpisode, sample: int,
                  settings: dict[str, Any]) -> dict[str, Any]:
    """Write the ended episode's record and event log to a run directory, as
    ``physbench eval`` does, and rebuild its report; return the record."""
    from physbench_gym.eval.provenance import compute_provenance
    from physbench_gym.eval.report import build_report
    from physbench_gym.eval.runner import IDENTITY, episode_record
    from physbench_gym.eval.store import ResultsStore

    result = episode.recorder.result()
    record = episode_record(episode.task_id, sample, episode.seed or 0, settings, result,
                            "disconnected" if episode.disconnected else "finish")
    provenance = compute_provenance([episode.task_id], None)
    deadline = time.monotonic() + STORE_RETRY_SECONDS
    while True:
        try:
            with ResultsStore(out_dir) as store:
                store.check_config(settings, IDENTITY, provenance)
                record["trajectory"] = store.write_trajectory(episode.task_id, sample,
                                                              result.events)
                store.append(record)
            break
        except PhysBenchError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    build_report(out_dir)
    return record


def next_sample(out_dir: str | Path, task_id: str) -> int:
    """The first sample index of ``task_id`` not yet recorded in a run directory."""
    from physbench_gym.eval.store import read_results

    taken = [sample for (task, sample) in read_results(out_dir) if task == task_id]
    return max(taken, default=-1) + 1


class BearerTokenGuard:
    """ASGI middleware: every HTTP request and WebSocket handshake must carry the token."""

    def __init__(self, app: Callable[..., Any], token: str) -> None:
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] in ("http", "websocket"):
            offered = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(offered, self._expected):
                await _refuse(scope, send)
                return
        await self.app(scope, receive, send)


async def _refuse(scope: dict, send: Callable) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = b'{"error": "missing or wrong bearer token"}'
    await send({"type": "http.response.start", "status": 401,
                "headers": [(b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer")]})
    await send({"type": "http.response.body", "body": body})


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket (port 0 picks a free one), raising OSError when it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    return sock


def run_uvicorn(app: Any, sock: socket.socket, ws_max_size: int) -> None:
    """Serve an ASGI app on a bound socket until interrupted."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", ws_max_size=ws_max_size,
                            timeout_graceful_shutdown=5, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
