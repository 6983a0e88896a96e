"""The MCP face: a task's episodes served to any MCP client, over stdio or streamable HTTP.

``physbench mcp --task ID`` serves one episode per MCP session: the episode's tools with the
env's own schemas (the reference benchmark's tool names, ``write_file`` and ``finish``), the
task brief as the prompt ``brief`` and the resource ``physbench://brief``, and what identifies
the instance as the resource ``physbench://episode``. A tool call is one ``env.step``; its
observation is the tool result (``isError`` when the env answered ``ERROR: ...``). The
episode is graded when ``finish`` is called or, if the client leaves without it, when the
session ends (an implicit ``finish``); its record and event log go to a run directory in the
format of ``physbench eval`` (``results.jsonl``, ``trajectories/``, ``report.html``). Scores
are never shown to the client.

Built on the official ``mcp`` SDK's low-level ``Server`` rather than FastMCP: the tools
already have JSON schemas, made by the env from its pydantic argument models, and the
low-level server publishes them as they are and hands every call's raw arguments to the
env, so validation and error messages are the env's, the same on every face. FastMCP would
derive a second schema from Python signatures and validate before the env sees the call.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import signal
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.helper_types import ReadResourceContents

from physbench_gym.agents.base import RESET_INFO_KEYS
from physbench_gym.integrations.served import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_SESSIONS,
    BearerTokenGuard,
    ServedEpisode,
    bind,
    make_env,
    next_sample,
    run_uvicorn,
    write_episode,
)

SERVER_NAME = "physbench"
BRIEF_URI = "physbench://brief"
EPISODE_URI = "physbench://episode"
INSTRUCTIONS = ("You are a consulting physician inside an EHR. Read the prompt 'brief' (or the "
                f"resource {BRIEF_URI}) for the e-consult, review the chart with the tools, place "
                "orders, write the deliverable note with write_file, then call finish.")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass
class McpEpisodes:
    """The episodes a server hands out: one task, a variant, seeds, and where results go.

    Session ``i`` of the server is sample ``first_sample + i`` of the run directory, seeded
    as ``physbench eval`` seeds that sample (``episode_seed(seed, task_id, sample)``), so an
    MCP run and an in-process run of the same sample meet the same instance.
    """

    task_id: str
    out: Path
    variant: str | int = "canonical"
    seed: int = 0
    first_sample: int | None = None
    max_steps: int | None = None
    _samples: Any = field(init=False, repr=False)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        from physbench_gym.eval.provenance import compute_provenance
        from physbench_gym.eval.runner import IDENTITY
        from physbench_gym.eval.store import ResultsStore
        from physbench_gym.tasks.registry import load_spec

        load_spec(self.task_id)
        with ResultsStore(self.out) as store:
            store.check_config(self.settings(), IDENTITY,
                               compute_provenance([self.task_id], None))
        first = self.first_sample if self.first_sample is not None else next_sample(
            self.out, self.task_id)
        self._samples = itertools.count(first)

    def open(self) -> tuple[ServedEpisode, int]:
        """Start the next sample's episode."""
        from physbench_gym.eval.runner import episode_seed

        with self._lock:
            sample = next(self._samples)
        seed = episode_seed(self.seed, self.task_id, sample)
        env = make_env(self.task_id, self.max_steps)
        return ServedEpisode(env, self.task_id, self.variant, seed, events=[]), sample

    def close(self, episode: ServedEpisode, sample: int) -> dict[str, Any]:
        """Grade the episode (finishing it if the client did not), write it, release it."""
        try:
            episode.conclude()
            return write_episode(self.out, episode, sample, self.settings())
        finally:
            episode.close()

    def settings(self) -> dict[str, Any]:
        """The run's settings as ``run.json`` records them."""
        from physbench_gym.eval.runner import EvalConfig
        from physbench_gym.tasks.charts import DEFAULT_BACKGROUND_PATIENTS

        return EvalConfig(agent="mcp", tasks=(self.task_id,), seed=self.seed,
                          variant=str(self.variant), max_steps=self.max_steps,
                          background_patients=DEFAULT_BACKGROUND_PATIENTS).settings()


def build_server(episodes: McpEpisodes) -> Server:
    """The MCP server; each session (its lifespan) is one episode of ``episodes``."""

    @asynccontextmanager
    async def session_episode(_: Server) -> AsyncIterator[ServedEpisode]:
        episode, sample = await anyio.to_thread.run_sync(episodes.open)
        try:
            yield episode
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(episodes.close, episode, sample)

    server: Server = Server(SERVER_NAME, instructions=INSTRUCTIONS, lifespan=session_episode)

    def current() -> ServedEpisode:
        return server.request_context.lifespan_context

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool(name=f["name"], description=f["description"],
                           inputSchema=f["parameters"])
                for f in (schema["function"] for schema in current().tool_schemas())]

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        episode = current()
        observation, _, _, _, info = await anyio.to_thread.run_sync(
            episode.step, {"tool": name, "arguments": arguments})
        return types.CallToolResult(content=[types.TextContent(type="text", text=observation)],
                                    isError=not info.get("ok", False))

    @server.list_prompts()
    async def list_prompts() -> list[types.Prompt]:
        return [types.Prompt(name="brief", description="The e-consult brief: the task to do "
                             "with the tools.")]

    @server.get_prompt()
    async def get_prompt(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
        if name != "brief":
            raise ValueError(f"unknown prompt {name!r}; the prompt is 'brief'")
        return types.GetPromptResult(description="The e-consult brief", messages=[
            types.PromptMessage(role="user",
                                content=types.TextContent(type="text", text=current().brief))])

    @server.list_resources()
    async def list_resources() -> list[types.Resource]:
        return [types.Resource(uri=BRIEF_URI, name="brief", mimeType="text/plain",
                               description="The e-consult brief"),
                types.Resource(uri=EPISODE_URI, name="episode", mimeType="application/json",
                               description="The task and instance of this episode")]

    @server.read_resource()
    async def read_resource(uri: Any) -> list[ReadResourceContents]:
        episode = current()
        if str(uri) == BRIEF_URI:
            return [ReadResourceContents(content=episode.brief, mime_type="text/plain")]
        if str(uri) == EPISODE_URI:
            shown = {key: episode.info[key] for key in RESET_INFO_KEYS if key in episode.info}
            return [ReadResourceContents(content=json.dumps(shown),
                                         mime_type="application/json")]
        raise ValueError(f"unknown resource {uri}; resources: {BRIEF_URI}, {EPISODE_URI}")

    return server


async def serve_stdio(episodes: McpEpisodes) -> None:
    """Serve one session on stdin/stdout; it is graded and written when the client leaves.

    Only protocol messages reach stdout: anything else the process prints goes to stderr.
    SIGTERM is ignored, so a client that stops the server right after closing the session
    does not cut off the grading (the session ends when stdin closes).
    """
    from mcp.server.stdio import stdio_server

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.stdout.flush()
    protocol = io.TextIOWrapper(os.fdopen(os.dup(1), "wb"), encoding="utf-8")
    os.dup2(2, 1)
    server = build_server(episodes)
    async with stdio_server(stdout=anyio.wrap_file(protocol)) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def http_app(episodes: McpEpisodes, *, host: str = "127.0.0.1", token: str | None = None,
             max_body: int = DEFAULT_MAX_BODY, max_sessions: int = DEFAULT_MAX_SESSIONS,
             idle_timeout: float = DEFAULT_IDLE_TIMEOUT) -> Any:
    """The streamable-HTTP ASGI app at ``/mcp``: one episode per MCP session.

    Request bodies above ``max_body`` bytes get 413, sessions beyond ``max_sessions`` are
    refused, idle sessions end (and are graded) after ``idle_timeout`` seconds. On a loopback
    host the Host and Origin headers must be local (DNS-rebinding protection).
    """
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Route

    local = host in LOOPBACK_HOSTS
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=local,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"])
    manager = StreamableHTTPSessionManager(
        app=build_server(episodes), security_settings=security,
        session_idle_timeout=idle_timeout, max_request_body_size=max_body,
        max_sessions=max_sessions)

    class Endpoint:
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app: Any = Starlette(routes=[Route("/mcp", endpoint=Endpoint())], lifespan=lifespan)
    return BearerTokenGuard(app, token) if token else app


def serve_http(episodes: McpEpisodes, host: str, port: int, **limits: Any) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until interrupted."""
    sock = bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    print(f"physbench mcp: {episodes.task_id} at http://{shown}:{sock.getsockname()[1]}/mcp "
          f"(results in {episodes.out})", file=sys.stderr, flush=True)
    run_uvicorn(http_app(episodes, host=host, **limits), sock,
                ws_max_size=limits.get("max_body", DEFAULT_MAX_BODY))
