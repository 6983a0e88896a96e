"""FHIR R4 REST over HTTP: a WSGI app around the request handler, served by waitress.

The app only translates HTTP to and from ``FhirRequest``/``FhirResponse``, so HTTP clients see
exactly what in-process clients see. It adds what a network needs: content negotiation
(``application/fhir+json``, ``application/json``, ``_format``), a body size limit, optional
bearer-token auth, and a lock that serializes access to the one shared store view.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from email.utils import format_datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, quote

from waitress import wasyncore
from waitress.server import create_server

from physbench_gym.fhir.messages import FhirRequest, FhirResponse, JsonObject

FHIR_JSON = "application/fhir+json"
FHIR_PREFIX = "/fhir"
DEFAULT_MAX_BODY = 10 * 1024 * 1024
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
JSON_FORMATS = ("json", "application/json", "application/fhir+json", "fhir+json")
_HOST = re.compile(r"[A-Za-z0-9.\-:\[\]]{1,255}")
_LOG = logging.getLogger(__name__)

Handler = Callable[[FhirRequest], FhirResponse]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class _Reply(Exception):
    """Ends a request early with an OperationOutcome (auth, limits, negotiation)."""

    def __init__(self, status: int, message: str, code: str = "invalid",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.response = FhirResponse(status, _outcome(message, code), headers or {})


def _outcome(message: str, code: str) -> JsonObject:
    return {"resourceType": "OperationOutcome",
            "issue": [{"severity": "error", "code": code, "diagnostics": message}]}


class FhirWsgiApp:
    """A WSGI application serving one FHIR request handler (see ``make_wsgi_app``)."""

    def __init__(self, handler: Handler, *, token: str | None, max_body: int,
                 prefix: str = "") -> None:
        self.handler = handler
        self.token = token
        self.max_body = max_body
        self.prefix = prefix.rstrip("/")
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        content_type = _response_type(environ)
        try:
            request = self._parse(environ)
            with self._lock:
                response = self._handle(request)
                payload = _dumps(response.body)
        except _Reply as reply:
            response, payload = reply.response, _dumps(reply.response.body)
        except Exception:
            _LOG.exception("internal error while serving a FHIR request")
            response = FhirResponse(500, _outcome("internal server error", "exception"))
            payload = _dumps(response.body)
        headers = [(name, _http_date(value) if name.lower() == "last-modified" else value)
                   for name, value in response.headers.items()
                   if name.lower() not in ("content-type", "content-length")]
        if payload:
            headers.append(("Content-Type", content_type))
        headers.append(("Content-Length", str(len(payload))))
        start_response(_status_line(response.status), headers)
        return [payload]

    def _handle(self, request: FhirRequest) -> FhirResponse:
        response = self.handler(request)
        if not isinstance(response, FhirResponse):
            raise TypeError(f"handler returned {type(response).__name__}, not FhirResponse")
        return response

    def _parse(self, environ: dict[str, Any]) -> FhirRequest:
        method = str(environ.get("REQUEST_METHOD", "GET")).upper()
        path, script = self._route(environ)
        if method not in METHODS:
            raise _Reply(405, f"method {method} is not allowed", "not-supported",
                         {"Allow": ", ".join(METHODS)})
        headers = _headers(environ)
        self._authorize(method, path, headers)
        query = _query(environ)
        body = _body(environ, method, self.max_body)
        return FhirRequest(method=method, path=path, query=query, body=body, headers=headers,
                           base_url=_base_url(environ, script))

    def _route(self, environ: dict[str, Any]) -> tuple[str, str]:
        path = _text(environ.get("PATH_INFO", ""))
        script = _text(environ.get("SCRIPT_NAME", ""))
        if self.prefix:
            if path != self.prefix and not path.startswith(self.prefix + "/"):
                raise _Reply(404, f"not a FHIR endpoint; the FHIR base is {self.prefix}",
                             "not-found")
            script, path = script + self.prefix, path[len(self.prefix):]
        return path.strip("/"), script

    def _authorize(self, method: str, path: str, headers: dict[str, str]) -> None:
        if self.token is None or (method == "GET" and path == "metadata"):
            return
        given = headers.get("Authorization", "")
        scheme, _, credential = given.partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(
                credential.strip().encode(), self.token.encode()):
            return
        challenge = 'Bearer realm="fhir"'
        if given:
            challenge += ', error="invalid_token"'
        raise _Reply(401, "a valid bearer token is required", "login",
                     {"WWW-Authenticate": challenge})


def _text(value: str) -> str:
    return value.encode("latin-1").decode("utf-8", "replace")


def _headers(environ: dict[str, Any]) -> dict[str, str]:
    headers = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers[key[5:].replace("_", "-").title()] = _text(str(value))
    for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        if environ.get(key):
            headers[key.replace("_", "-").title()] = str(environ[key])
    return headers


def _query(environ: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    pairs = parse_qsl(_text(environ.get("QUERY_STRING", "")), keep_blank_values=True)
    for name, value in pairs:
        if name == "_format" and value.split(";")[0].strip().lower() not in JSON_FORMATS:
            raise _Reply(406, f"_format={value} is not supported; this server speaks JSON",
                         "not-supported")
    return tuple((name, value) for name, value in pairs if name != "_format")


def _body(environ: dict[str, Any], method: str, max_body: int) -> bytes | JsonObject | None:
    if method not in ("POST", "PUT", "PATCH"):
        return None
    raw_length = environ.get("CONTENT_LENGTH") or ""
    if raw_length and not (raw_length.isascii() and raw_length.isdigit()):
        raise _Reply(400, f"invalid Content-Length {raw_length!r}")
    if raw_length and int(raw_length) > max_body:
        raise _Reply(413, f"request body exceeds the limit of {max_body} bytes", "too-costly")
    data = environ["wsgi.input"].read(int(raw_length) if raw_length else max_body + 1)
    if len(data) > max_body:
        raise _Reply(413, f"request body exceeds the limit of {max_body} bytes", "too-costly")
    if not data:
        return None
    media = str(environ.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
    if media in ("application/x-www-form-urlencoded", "application/json-patch+json"):
        return data
    if media and "json" not in media:
        raise _Reply(415, f"Content-Type {media} is not supported; send {FHIR_JSON}",
                     "not-supported")
    return _parse_json(data)


def _parse_json(data: bytes) -> JsonObject:
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise _Reply(400, f"request body is not UTF-8: {exc.reason}", "structure") from exc
    except json.JSONDecodeError as exc:
        raise _Reply(400, f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                     "structure") from exc
    except RecursionError as exc:
        raise _Reply(400, "malformed JSON: nested too deeply", "structure") from exc
    if not isinstance(value, dict):
        raise _Reply(400, "request body must be a JSON object (a FHIR resource)", "structure")
    return value


def _response_type(environ: dict[str, Any]) -> str:
    accept = str(environ.get("HTTP_ACCEPT", ""))
    wanted = dict(parse_qsl(str(environ.get("QUERY_STRING", "")))).get("_format", "")
    if wanted.startswith("application/json") or (
            "application/json" in accept and FHIR_JSON not in accept):
        return "application/json; charset=utf-8"
    return f"{FHIR_JSON}; charset=utf-8"


def _base_url(environ: dict[str, Any], script: str) -> str:
    scheme = environ.get("wsgi.url_scheme", "http")
    host = str(environ.get("HTTP_HOST", ""))
    if not _HOST.fullmatch(host):
        host = f"{environ.get('SERVER_NAME', 'localhost')}:{environ.get('SERVER_PORT', '80')}"
    return f"{scheme}://{host}{quote(script)}"


def _http_date(value: str) -> str:
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return format_datetime(moment.astimezone(timezone.utc), usegmt=True)


def _dumps(body: JsonObject | None) -> bytes:
    if body is None:
        return b""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _status_line(status: int) -> str:
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status} Unknown"


def make_wsgi_app(handler: Handler | None = None, *, base: Any = None, token: str | None = None,
                  max_body: int = DEFAULT_MAX_BODY, prefix: str = "") -> WSGIApp:
    """Build the WSGI app for a request handler, or for a fresh fork of a ``BaseStore``.

    Args:
        handler: ``handle(FhirRequest) -> FhirResponse``; calls are serialized by a lock.
        base: a BaseStore to serve (one shared fork) when no handler is given.
        token: when set, every request but ``GET /metadata`` needs ``Authorization: Bearer``.
        max_body: largest accepted request body in bytes (larger: 413 OperationOutcome).
        prefix: path the FHIR base is mounted at (e.g. ``/fhir``); "" serves at the root.
    """
    if handler is None:
        if base is None:
            raise ValueError("make_wsgi_app needs a handler or a base store")
        from physbench_gym.fhir.handler import FhirServer

        handler = FhirServer(base.fork()).handle
    if max_body < 1:
        raise ValueError("max_body must be a positive number of bytes")
    return FhirWsgiApp(handler, token=token, max_body=max_body, prefix=prefix)


def _waitress(app: WSGIApp, host: str, port: int, threads: int, max_body: int,
              socket_map: dict[Any, Any] | None = None) -> Any:
    return create_server(app, map=socket_map, host=host, port=port, threads=threads,
                         max_request_body_size=4 * max_body + 1024, ident="physbench-gym",
                         clear_untrusted_proxy_headers=True)


def serve(base: Any, *, host: str = "127.0.0.1", port: int = 8080, token: str | None = None,
          max_body: int = DEFAULT_MAX_BODY, threads: int = 8) -> None:
    """Serve a BaseStore over FHIR R4 REST at ``http://host:port/fhir`` until interrupted.

    Every client shares one fork of ``base``: their writes are visible to each other and are
    discarded when the server stops; the base itself never changes.
    """
    app = make_wsgi_app(base=base, token=token, max_body=max_body, prefix=FHIR_PREFIX)
    server = _waitress(app, host, port, threads, max_body, {})
    shown = f"[{host}]" if ":" in host else host
    print(f"FHIR R4 server on http://{shown}:{server.effective_port}{FHIR_PREFIX}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        server.task_dispatcher.shutdown()


class ServerThread:
    """A real HTTP FHIR server on a background thread, for tests and benchmarks.

    Starts on construction; ``port=0`` picks a free port. Use as a context manager or call
    ``stop()`` (safe twice). ``base_url`` ends in ``/fhir``.
    """

    def __init__(self, handler: Handler | None = None, *, base: Any = None,
                 host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 max_body: int = DEFAULT_MAX_BODY, threads: int = 4) -> None:
        app = make_wsgi_app(handler, base=base, token=token, max_body=max_body,
                            prefix=FHIR_PREFIX)
        self._map: dict[Any, Any] = {}
        self._server = _waitress(app, host, port, threads, max_body, self._map)
        self._stopping = threading.Event()
        self.port = int(self._server.effective_port)
        shown = f"[{host}]" if ":" in host else host
        self.base_url = f"http://{shown}:{self.port}{FHIR_PREFIX}"
        self._thread = threading.Thread(target=self._loop, name=f"fhir-http-{self.port}",
                                        daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.5, map=self._map, count=1)
        wasyncore.close_all(self._map, ignore_all=True)
        self._server.task_dispatcher.shutdown()

    def stop(self) -> None:
        """Stop serving and wait for the server thread; safe to call twice."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        try:
            self._server.pull_trigger()  # wake the loop so it sees the stop at once
        except OSError:
            pass  # the loop already saw it and closed the trigger
        self._thread.join(timeout=10)

    def __enter__(self) -> ServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
