"""One FHIR client over interchangeable transports: in-process (no sockets) or HTTP.

Everything above this module (tools, graders, loaders) talks to the EHR through ``FhirClient``
and stays transport-blind: the embedded server, our HTTP server, HAPI or a vendor server answer
the same calls. Resources the client writes carry its ``tags`` in ``meta.tag`` so an episode's
writes can be found on any server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable
from urllib.parse import parse_qsl, unquote, urlsplit

import requests

from physbench_gym.fhir.errors import FhirError, FhirTransportError
from physbench_gym.fhir.loading import transaction_chunks
from physbench_gym.fhir.messages import FhirRequest, FhirResponse, JsonObject

FHIR_JSON = "application/fhir+json"
DEFAULT_BASE_URL = "http://localhost/fhir"
_ID = re.compile(r"[A-Za-z0-9\-.]{1,64}")
_TYPE = re.compile(r"[A-Z][A-Za-z]{1,63}")
_HEADER_NAMES = {name.lower(): name for name in (
    "ETag", "Location", "Content-Location", "Last-Modified", "Content-Type", "WWW-Authenticate")}
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
Params = Mapping[str, Any] | Sequence[tuple[str, str]] | None


@runtime_checkable
class Transport(Protocol):
    """Carries a FhirRequest to a server and brings back its FhirResponse."""

    base_url: str

    def send(self, request: FhirRequest) -> FhirResponse:
        """Deliver one request; an unreachable server raises FhirTransportError."""
        ...

    def close(self) -> None:
        """Release resources; safe to call twice."""
        ...


class InProcessTransport:
    """Calls a request handler directly: no sockets, no serialization."""

    def __init__(self, handler: Callable[[FhirRequest], FhirResponse],
                 base_url: str = DEFAULT_BASE_URL) -> None:
        self.base_url = base_url.rstrip("/")
        self._handler: Callable[[FhirRequest], FhirResponse] | None = handler

    def send(self, request: FhirRequest) -> FhirResponse:
        """Hand the request to the handler, with this transport's base URL."""
        if self._handler is None:
            raise FhirTransportError("the in-process transport is closed")
        path = request.path
        if "://" in path:
            if not path.startswith(self.base_url + "/"):
                raise FhirTransportError(f"{path} is not below this server's base {self.base_url}")
            path = unquote(path[len(self.base_url) + 1:])
        elif request.base_url:
            return self._handler(request)
        return self._handler(FhirRequest(
            method=request.method, path=path, query=request.query, body=request.body,
            headers=request.headers, base_url=request.base_url or self.base_url))

    def close(self) -> None:
        """Drop the handler; later sends raise FhirTransportError."""
        self._handler = None


class HttpTransport:
    """Speaks FHIR REST over HTTP(S) to any R4 base URL through a ``requests.Session``."""

    def __init__(self, base_url: str, *, token: str | None = None, timeout: float = 30.0,
                 session: requests.Session | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._owns_session = session is None
        self._session = session or _new_session(self.base_url)
        self._headers = {"Accept": f"{FHIR_JSON}, application/json;q=0.9"}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"

    def send(self, request: FhirRequest) -> FhirResponse:
        """Send one request; an absolute path must be on this transport's server."""
        url = f"{self.base_url}/{request.path}"
        if "://" in request.path:
            if _origin(request.path) != _origin(self.base_url):
                raise FhirTransportError(f"refusing to send to {request.path[:200]}: "
                                         f"not the server at {self.base_url}")
            url = request.path
        headers = {**self._headers, **dict(request.headers)}
        data = request.body
        if isinstance(data, dict):
            data = json.dumps(data, ensure_ascii=False).encode("utf-8")
            headers.setdefault("Content-Type", f"{FHIR_JSON}; charset=utf-8")
        try:
            reply = self._session.request(request.method, url, params=list(request.query),
                                          data=data, headers=headers, timeout=self.timeout)
        except requests.RequestException as exc:
            raise FhirTransportError(f"{request.method} {url} failed: {exc}") from exc
        return FhirResponse(status=reply.status_code, body=_json_body(reply),
                            headers=_canonical_headers(reply.headers))

    def close(self) -> None:
        """Close the session if this transport created it."""
        if self._owns_session:
            self._session.close()


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def _new_session(base_url: str) -> requests.Session:
    session = requests.Session()
    if urlsplit(base_url).hostname in _LOOPBACK:
        session.trust_env = False
    return session


def _canonical_headers(headers: Mapping[str, str]) -> dict[str, str]:
    return {_HEADER_NAMES.get(name.lower(), name): value for name, value in headers.items()}


def _json_body(reply: requests.Response) -> JsonObject | None:
    if not reply.content:
        return None
    try:
        body = reply.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        return body
    if reply.ok:
        return None
    return outcome(f"HTTP {reply.status_code}: {reply.text[:500]}", code="exception")


def outcome(message: str, *, code: str = "invalid", severity: str = "error") -> JsonObject:
    """Build a one-issue OperationOutcome."""
    return {"resourceType": "OperationOutcome",
            "issue": [{"severity": severity, "code": code, "diagnostics": message}]}


class FhirClient:
    """High-level FHIR R4 REST calls over a Transport.

    ``request`` never raises on HTTP errors (only FhirTransportError when the server cannot be
    reached); the typed helpers (``search``, ``read``, ``create`` …) raise FhirError carrying
    the server's OperationOutcome on any non-2xx answer.
    """

    def __init__(self, transport: Transport, *, tags: Sequence[Mapping[str, Any]] = ()) -> None:
        self.transport = transport
        self.tags = tuple(dict(tag) for tag in tags)

    @property
    def base_url(self) -> str:
        """The FHIR base URL this client talks to."""
        return self.transport.base_url

    def request(self, method: str, path: str, params: Params = None,
                body: JsonObject | bytes | None = None,
                headers: Mapping[str, str] | None = None) -> FhirResponse:
        """Send one raw interaction; POST/PUT resource bodies get this client's tags."""
        method = method.upper()
        path, _, inline_query = path.lstrip("/").partition("?")
        query = _query(params)
        if inline_query:
            query = tuple(parse_qsl(inline_query, keep_blank_values=True)) + query
        if isinstance(body, dict) and method in ("POST", "PUT") and "$" not in path:
            body = self._tagged(body, path)
        return self.transport.send(FhirRequest(method=method, path=path, query=query, body=body,
                                               headers=dict(headers or {}),
                                               base_url=self.transport.base_url))

    def search(self, resource_type: str, params: Params = None) -> JsonObject:
        """Search one resource type and return the searchset Bundle (first page)."""
        return self.search_page(resource_type, params).body or {}

    def search_page(self, resource_type: str, params: Params = None) -> FhirResponse:
        """Like ``search``, but the whole response (in-process answers carry ``stored``)."""
        return _checked_response(self.request("GET", _type(resource_type), params))

    def next_page(self, bundle: Mapping[str, Any]) -> JsonObject | None:
        """Fetch the page after ``bundle`` through its ``next`` link, or None on the last page."""
        following = self.following_page(bundle)
        return None if following is None else following.body or {}

    def following_page(self, bundle: Mapping[str, Any]) -> FhirResponse | None:
        """Like ``next_page``, but the whole response."""
        link = next((item.get("url") for item in bundle.get("link", []) or []
                     if item.get("relation") == "next"), None)
        if not link:
            return None
        path, query = self._split_link(link)
        return _checked_response(self.request("GET", path, query))

    def search_all(self, resource_type: str, params: Params = None, *,
                   max_pages: int = 100) -> list[JsonObject]:
        """Return the matching resources of every page (at most ``max_pages`` pages)."""
        if max_pages < 1:
            raise ValueError("max_pages must be at least 1")
        found: list[JsonObject] = []
        page: JsonObject | None = self.search(resource_type, params)
        pages = 0
        while page is not None and pages < max_pages:
            found.extend(entry["resource"] for entry in page.get("entry", []) or []
                         if "resource" in entry
                         and (entry.get("search") or {}).get("mode", "match") == "match")
            pages += 1
            page = self.next_page(page) if pages < max_pages else None
        return found

    def read(self, resource_type: str, id: str) -> JsonObject:
        """Read one resource by type and id."""
        return _checked(self.request("GET", f"{_type(resource_type)}/{_id(id)}"))

    def create(self, resource: Mapping[str, Any], *,
               if_none_exist: str | None = None) -> JsonObject:
        """Create a resource (the server assigns its id); ``if_none_exist`` makes it conditional."""
        headers = {"Prefer": "return=representation"}
        if if_none_exist:
            headers["If-None-Exist"] = if_none_exist
        response = self.request("POST", _type(resource.get("resourceType")), body=dict(resource),
                                headers=headers)
        return self._representation(response)

    def update(self, resource: Mapping[str, Any]) -> JsonObject:
        """Update (or create with a client-chosen id) the resource at ``Type/id``."""
        path = f"{_type(resource.get('resourceType'))}/{_id(resource.get('id'))}"
        response = self.request("PUT", path, body=dict(resource),
                                headers={"Prefer": "return=representation"})
        return self._representation(response)

    def delete(self, resource_type: str, id: str) -> None:
        """Delete one resource by type and id."""
        _checked(self.request("DELETE", f"{_type(resource_type)}/{_id(id)}"), allow_empty=True)

    def transaction(self, bundle: Mapping[str, Any]) -> JsonObject:
        """Post a transaction or batch Bundle to the base and return the response Bundle."""
        if bundle.get("resourceType") != "Bundle":
            raise FhirError(400, outcome("a transaction must be a Bundle resource"))
        return _checked(self.request("POST", "", body=dict(bundle),
                                     headers={"Prefer": "return=representation"}))

    def capabilities(self) -> JsonObject:
        """Return the server's CapabilityStatement (``GET /metadata``)."""
        return _checked(self.request("GET", "metadata"))

    def close(self) -> None:
        """Close the transport; safe to call twice."""
        self.transport.close()

    def __enter__(self) -> FhirClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _representation(self, response: FhirResponse) -> JsonObject:
        body = _checked(response, allow_empty=True)
        if body:
            return body
        location = response.headers.get("Location")
        if not location:
            raise FhirError(response.status, None, "the server sent no resource and no Location")
        path, _ = self._split_link(location)
        return _checked(self.request("GET", path.split("/_history/")[0]))

    def _split_link(self, url: str) -> tuple[str, list[tuple[str, str]]]:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        if not parts.scheme:
            return unquote(parts.path).lstrip("/"), query
        base_path = urlsplit(self.base_url).path.rstrip("/") + "/"
        if parts.path.startswith(base_path):
            return unquote(parts.path[len(base_path):]), query
        raise FhirTransportError(f"link {url[:200]} is not below this client's base "
                                 f"{self.base_url}")

    def _tagged(self, body: JsonObject, path: str) -> JsonObject:
        if not self.tags:
            return body
        if path == "" and body.get("type") in ("transaction", "batch"):
            entries = [self._tagged_entry(entry) for entry in body.get("entry", []) or []]
            return {**body, "entry": entries}
        return with_tags(body, self.tags)

    def _tagged_entry(self, entry: Any) -> Any:
        if not isinstance(entry, dict) or not isinstance(entry.get("resource"), dict):
            return entry
        method = str((entry.get("request") or {}).get("method", "")).upper()
        if method not in ("POST", "PUT"):
            return entry
        return {**entry, "resource": with_tags(entry["resource"], self.tags)}


def with_tags(resource: JsonObject, tags: Sequence[Mapping[str, Any]]) -> JsonObject:
    """Return a copy of ``resource`` whose ``meta.tag`` also holds each of ``tags`` once."""
    meta = dict(resource.get("meta") or {})
    current = list(meta.get("tag") or [])
    seen = {(tag.get("system"), tag.get("code")) for tag in current if isinstance(tag, dict)}
    for tag in tags:
        if (tag.get("system"), tag.get("code")) not in seen:
            current.append(dict(tag))
    meta["tag"] = current
    return {**resource, "meta": meta}


def _query(params: Params) -> tuple[tuple[str, str], ...]:
    if params is None:
        return ()
    if isinstance(params, Mapping):
        pairs: list[tuple[str, str]] = []
        for name, value in params.items():
            values = value if isinstance(value, (list, tuple)) else [value]
            pairs.extend((str(name), str(item)) for item in values)
        return tuple(pairs)
    return tuple([(str(name), str(value)) for name, value in params])


def _checked(response: FhirResponse, *, allow_empty: bool = False) -> JsonObject:
    return _checked_response(response, allow_empty=allow_empty).body or {}


def _checked_response(response: FhirResponse, *, allow_empty: bool = False) -> FhirResponse:
    if not response.ok:
        raise FhirError(response.status, response.body)
    if response.head() is None and not allow_empty:
        raise FhirError(response.status, None, f"HTTP {response.status} with no JSON body")
    return response


def _type(resource_type: object) -> str:
    if not isinstance(resource_type, str) or not _TYPE.fullmatch(resource_type):
        raise FhirError(400, outcome(f"invalid resource type {str(resource_type)[:80]!r}"))
    return resource_type


def _id(resource_id: object) -> str:
    if (not isinstance(resource_id, str) or not _ID.fullmatch(resource_id)
            or set(resource_id) == {"."}):
        raise FhirError(400, outcome(f"invalid resource id {str(resource_id)[:80]!r}"))
    return resource_id


def in_process_client(server_or_handler: Any, *,
                      tags: Sequence[Mapping[str, Any]] = ()) -> FhirClient:
    """Return a FhirClient over an in-process transport to a FhirServer or handler callable."""
    handler = getattr(server_or_handler, "handle", server_or_handler)
    if not callable(handler):
        raise TypeError("in_process_client needs a FhirServer or a handler(FhirRequest) callable")
    base_url = getattr(server_or_handler, "base_url", None)
    transport = InProcessTransport(handler, base_url if isinstance(base_url, str)
                                   else DEFAULT_BASE_URL)
    return FhirClient(transport, tags=tags)


def load_bundle(client: FhirClient, bundle: Mapping[str, Any], *,
                chunk_size: int = 500) -> JsonObject:
    """Push a Bundle's resources into any FHIR server as one or more transactions.

    Resources with ids keep them (``PUT Type/id``), referenced resources are sent before their
    referrers, and large bundles go in transactions of ``chunk_size`` entries. Returns one
    ``transaction-response`` Bundle holding the response entries of every chunk.

    Raises:
        FhirError: the first chunk the server rejected (earlier chunks stay loaded).
    """
    entries: list[Any] = []
    for chunk in transaction_chunks(dict(bundle), chunk_size):
        response = client.transaction(chunk)
        entries.extend(response.get("entry", []) or [])
    return {"resourceType": "Bundle", "type": "transaction-response", "entry": entries}
