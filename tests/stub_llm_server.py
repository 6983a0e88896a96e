"""A scripted stand-in for a remote LLM: a real HTTP server on 127.0.0.1 speaking the OpenAI
``/v1/chat/completions`` wire format.

Each request takes the next item of the script: a ``Reply`` (a 200 chat completion with an
assistant message) or a ``Failure`` (an HTTP error, e.g. 429 with ``Retry-After``), either
optionally after a delay (to provoke client timeouts). Every request's JSON body and headers
are recorded. An exhausted script answers 500 so a test sees it.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """A 200 completion carrying ``message``."""

    message: dict[str, Any]
    usage: dict[str, int] | None = None
    finish_reason: str | None = None
    delay: float = 0.0
    raw_body: str | None = None


@dataclass
class Failure:
    """An HTTP error status with a body and headers."""

    status: int
    body: str = '{"error": {"message": "scripted failure"}}'
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def tool_call(name: str, arguments: dict[str, Any] | str, call_id: str) -> dict[str, Any]:
    """One OpenAI tool call; ``arguments`` given as text is sent as is (possibly malformed)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


def assistant_tool_calls(*calls: dict[str, Any], content: str | None = None) -> dict[str, Any]:
    """An assistant message that makes the given tool calls."""
    return {"role": "assistant", "content": content, "tool_calls": list(calls)}


def assistant_text(text: str) -> dict[str, Any]:
    """An assistant message with text and no tool calls."""
    return {"role": "assistant", "content": text}


class StubLLMServer:
    """Serves a scripted queue of chat completions; use as a context manager."""

    def __init__(self, script: list[Reply | Failure] | None = None) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._script: deque[Reply | Failure] = deque(script or [])
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        daemon=True)
        self._completions = 0

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (ends in ``/v1``)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def push(self, *items: Reply | Failure) -> None:
        """Append items to the script."""
        with self._lock:
            self._script.extend(items)

    @property
    def remaining(self) -> int:
        """Items of the script not served yet."""
        with self._lock:
            return len(self._script)

    def start(self) -> StubLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> StubLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str) -> Reply | Failure:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            self.paths.append(path)
            if self._script:
                return self._script.popleft()
        return Failure(500, '{"error": {"message": "stub script exhausted"}}')

    def _completion(self, reply: Reply) -> str:
        self._completions += 1
        finish = reply.finish_reason or ("tool_calls" if reply.message.get("tool_calls")
                                         else "stop")
        return json.dumps({
            "id": f"chatcmpl-{self._completions}", "object": "chat.completion",
            "created": 1_700_000_000, "model": "stub",
            "choices": [{"index": 0, "message": reply.message, "finish_reason": finish}],
            "usage": reply.usage or {"prompt_tokens": 0, "completion_tokens": 0,
                                     "total_tokens": 0},
        })

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"unparsable": raw.decode("utf-8", "replace")}
                item = stub._next(body, dict(self.headers), self.path)
                if item.delay and stub._stopping.wait(item.delay):
                    return
                if self.path != "/v1/chat/completions":
                    item = Failure(404, '{"error": {"message": "no such route"}}')
                if isinstance(item, Reply):
                    self._send(200, item.raw_body or stub._completion(item), {})
                else:
                    self._send(item.status, item.body, item.headers)

            def _send(self, status: int, text: str, headers: dict[str, str]) -> None:
                data = text.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

        return Handler
