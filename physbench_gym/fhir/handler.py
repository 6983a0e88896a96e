"""The embedded FHIR R4 server: one pure entry point, ``FhirServer.handle(request)``.

It routes a :class:`FhirRequest` to read / vread / search / create / update / delete /
``$everything`` / ``metadata`` / batch and transaction over a :class:`StoreView`, and always
answers with a :class:`FhirResponse` (errors are OperationOutcomes, never exceptions).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any, Protocol
from urllib.parse import parse_qsl

from physbench_gym.fhir import bundles
from physbench_gym.fhir.capability import capability_statement
from physbench_gym.fhir.clock import IdSource, SimulatedClock, format_instant
from physbench_gym.fhir.messages import FhirRequest, FhirResponse
from physbench_gym.fhir.operation_outcome import OperationFailed, make_issue, make_outcome
from physbench_gym.fhir.results import (
    bundle,
    bundle_entries,
    bundle_head,
    everything,
    find,
    included,
    page_of,
    shows_as_stored,
)
from physbench_gym.fhir.search import JSON_FORMATS, parse_query
from physbench_gym.fhir.search_params import RESOURCE_TYPES
from physbench_gym.fhir.store import Entry, StoreView
from physbench_gym.fhir.validation import check_id
from physbench_gym.fhir.writes import WriteContext, create, delete, update

JsonObject = dict[str, Any]
JSON_HEADERS = {"Content-Type": "application/fhir+json"}


class Clock(Protocol):
    """Anything with ``now()``; the server stamps ``meta.lastUpdated`` from it."""

    def now(self) -> datetime: ...


class FhirServer:
    """A FHIR R4 REST server over one store view, as a pure request handler."""

    def __init__(self, store: StoreView, *, clock: Clock | None = None,
                 ids: IdSource | None = None, base_url: str = "http://localhost/fhir",
                 max_count: int = 1000, default_count: int = 20) -> None:
        self.store = store
        self.clock = clock if clock is not None else SimulatedClock()
        self.ids = ids if ids is not None else IdSource()
        self.base_url = base_url.rstrip("/")
        self.max_count = max_count
        self.default_count = min(default_count, max_count)

    def handle(self, request: FhirRequest) -> FhirResponse:
        """Serve one request; never raises (unexpected failures answer 500)."""
        try:
            with self.store.lock:
                return self.dispatch(request, self._base(request), check_references=True)
        except OperationFailed as failure:
            return failure.response()
        except Exception as error:  # noqa: BLE001 - the handler must answer every request
            return FhirResponse(500, make_outcome([make_issue(
                "exception", f"Internal server error: {type(error).__name__}: {error}")]),
                dict(JSON_HEADERS))

    def _base(self, request: FhirRequest) -> str:
        return (request.base_url or self.base_url).rstrip("/")

    def writes(self, base_url: str, check_references: bool) -> WriteContext:
        """What a write needs: the view, clock, id source and base URL."""
        return WriteContext(self.store, self.clock, self.ids, base_url, check_references,
                            lambda rtype, pairs: self.find(rtype, pairs))

    def dispatch(self, request: FhirRequest, base_url: str, *, check_references: bool
                 ) -> FhirResponse:
        """Route a request; raises OperationFailed for every client error."""
        _check_format(request.query)
        parts = [p for p in request.path.strip("/").split("/") if p] if request.path else []
        method = request.method.upper()
        if not parts:
            _allow(method, ("POST",))
            return bundles.process(self, request, base_url)
        if parts == ["metadata"]:
            _allow(method, ("GET",))
            date = format_instant(self.clock.now())
            return FhirResponse(200, capability_statement(date, base_url), dict(JSON_HEADERS))
        rtype = parts[0]
        if rtype not in RESOURCE_TYPES:
            raise OperationFailed.single(404, "not-supported", f"Resource type '{rtype[:80]}' is "
                                         f"not supported; supported: {', '.join(RESOURCE_TYPES)}")
        return self._route(method, rtype, parts[1:], request, base_url, check_references)

    def _route(self, method: str, rtype: str, rest: list[str], request: FhirRequest,
               base_url: str, check_references: bool) -> FhirResponse:
        if not rest:
            _allow(method, ("GET", "POST"))
            if method == "GET":
                return self._search(rtype, list(request.query), base_url, rtype)
            return create(self.writes(base_url, check_references), rtype, request.body,
                          request.header("If-None-Exist"), request.header("Prefer"))
        if rest == ["_search"]:
            _allow(method, ("POST",))
            pairs = list(request.query) + _form_pairs(request.body)
            return self._search(rtype, pairs, base_url, rtype)
        check_id(rest[0], f"{rtype}.id")
        if len(rest) == 1:
            _allow(method, ("GET", "PUT", "DELETE"))
            if method == "GET":
                return self._read(rtype, rest[0], base_url)
            context = self.writes(base_url, check_references)
            if method == "PUT":
                return update(context, rtype, rest[0], request.body, request.header("If-Match"),
                              request.header("Prefer"))
            return delete(context, rtype, rest[0])
        if rtype == "Patient" and rest[1:] == ["$everything"]:
            _allow(method, ("GET", "POST"))
            return self._everything(rest[0], list(request.query), base_url)
        if len(rest) == 3 and rest[1] == "_history":
            _allow(method, ("GET",))
            return self._vread(rtype, rest[0], rest[2], base_url)
        raise OperationFailed.single(400, "not-supported", f"Unsupported path '{request.path}'")

    def find(self, rtype: str, pairs: list[tuple[str, str]]) -> list[Entry]:
        """Every current resource of ``rtype`` matching search pairs (conditional operations)."""
        query = parse_query(rtype, pairs, default_count=self.default_count,
                            max_count=self.max_count)
        return find(self.store, query)

    def _search(self, rtype: str, pairs: list[tuple[str, str]], base_url: str, path: str
                ) -> FhirResponse:
        query = parse_query(rtype, pairs, default_count=self.default_count,
                            max_count=self.max_count)
        matches = find(self.store, query)
        head = bundle_head(query, len(matches), base_url, path)
        if query.summary == "count":
            return FhirResponse(200, head, dict(JSON_HEADERS))
        page = page_of(query, matches)
        extra = included(self.store, query, page)
        stored = (*page, *extra) if shows_as_stored(query) else None
        return FhirResponse(200, head, dict(JSON_HEADERS), stored,
                            partial(bundle_entries, query, page, extra, base_url))

    def _read(self, rtype: str, id: str, base_url: str) -> FhirResponse:
        entry = self.store.entry(rtype, id)
        if entry is None:
            if self.store.is_deleted(rtype, id):
                raise OperationFailed.single(410, "deleted", f"{rtype}/{id} has been deleted")
            raise OperationFailed.single(404, "not-found", f"{rtype}/{id} is not known")
        return FhirResponse(200, entry.copy(), version_headers(entry, base_url))

    def _vread(self, rtype: str, id: str, version: str, base_url: str) -> FhirResponse:
        entry = self.store.version(rtype, id, version)
        if entry is None:
            raise OperationFailed.single(404, "not-found",
                                         f"{rtype}/{id}/_history/{version[:40]} is not known")
        return FhirResponse(200, entry.copy(), version_headers(entry, base_url))

    def _everything(self, id: str, pairs: list[tuple[str, str]], base_url: str
                    ) -> FhirResponse:
        patient = self.store.entry("Patient", id)
        if patient is None:
            raise OperationFailed.single(404, "not-found", f"Patient/{id} is not known")
        allowed = {"_count", "_offset", "_format", "_pretty"}
        unknown = [name for name, _ in pairs if name not in allowed]
        if unknown:
            raise OperationFailed.single(400, "not-supported", f"$everything does not support "
                                         f"'{unknown[0]}'; supported: {', '.join(sorted(allowed))}")
        query = parse_query("Patient", pairs, default_count=self.default_count,
                            max_count=self.max_count)
        matches = everything(self.store, patient)
        return FhirResponse(200, bundle(query, matches, [], base_url,
                                        f"Patient/{id}/$everything"), dict(JSON_HEADERS))


def version_headers(entry: Entry, base_url: str) -> dict[str, str]:
    """ETag, Last-Modified and Content-Location of a stored version."""
    headers = dict(JSON_HEADERS)
    headers["ETag"] = f'W/"{entry.version_id}"'
    headers["Content-Location"] = f"{base_url}/{entry.key}/_history/{entry.version_id}"
    if entry.last_updated:
        headers["Last-Modified"] = entry.last_updated
    return headers


def _allow(method: str, allowed: tuple[str, ...]) -> None:
    if method not in allowed:
        raise OperationFailed(405, [make_issue(
            "not-supported", f"Method {method[:10]} is not allowed here; allowed: "
            f"{', '.join(allowed)}")])


def _check_format(query: tuple[tuple[str, str], ...]) -> None:
    for name, value in query:
        if name == "_format" and value not in JSON_FORMATS:
            raise OperationFailed.single(406, "not-supported",
                                         f"_format={value[:40]}: only JSON is supported", name)


def _form_pairs(body: bytes | JsonObject | None) -> list[tuple[str, str]]:
    if body is None or body == b"":
        return []
    if isinstance(body, dict):
        return [(str(k), str(v)) for k, v in body.items()]
    if not isinstance(body, (bytes, bytearray)):
        raise OperationFailed.single(400, "structure", "POST _search takes a form body")
    try:
        return parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=True)
    except (UnicodeDecodeError, ValueError):
        raise OperationFailed.single(400, "structure", "POST _search needs an "
                                     "application/x-www-form-urlencoded body") from None
