"""The request and response values that every FHIR transport carries.

The embedded server is a pure function ``handle(FhirRequest) -> FhirResponse``; the in-process
transport calls it directly and the HTTP app translates WSGI to and from these values, so both
transports see exactly the same semantics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class FhirRequest:
    """One REST interaction.

    Attributes:
        method: HTTP verb in upper case (GET, POST, PUT, PATCH, DELETE).
        path: Path below the base URL without leading slash, e.g. ``"Observation"``,
            ``"Patient/123"``, ``"Patient/123/$everything"``, ``"metadata"``, or ``""``
            for a batch/transaction POST to the base.
        query: Ordered query parameters as (name, value) pairs; names keep their modifiers
            (``code:text``) and repetitions are separate pairs (AND semantics).
        body: The request body: raw bytes as received over HTTP, or an already parsed JSON
            object from an in-process caller.
        headers: Request headers; lookups are case-insensitive by convention of the handler
            (``If-None-Exist``, ``Prefer``, ``Content-Type``).
        base_url: The base URL the client used (for ``fullUrl``, ``Location`` and paging
            links); None means the server's configured default.
    """

    method: str
    path: str
    query: tuple[tuple[str, str], ...] = ()
    body: bytes | JsonObject | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    base_url: str | None = None

    def header(self, name: str) -> str | None:
        """Return a header value by case-insensitive name, or None."""
        lowered = name.lower()
        for key, value in self.headers.items():
            if key.lower() == lowered:
                return value
        return None


class FhirResponse:
    """The server's answer: status code, JSON body (a resource, Bundle or OperationOutcome).

    ``stored`` is filled only by the embedded server, for callers in the same process: the
    immutable stored versions (``physbench_gym.fhir.entry.Entry``) behind each ``Bundle.entry``
    of a search, in order, when the Bundle shows them unchanged (None otherwise). Such a
    search builds its ``Bundle.entry`` list (fresh copies of the resources) on the first read
    of ``body``; a caller that works from ``stored`` reads the rest of the Bundle with
    ``head()`` and never pays for the copies. Over HTTP ``stored`` is None and callers use ``body``.
    """

    __slots__ = ("status", "headers", "stored", "_body", "_entries")

    def __init__(self, status: int, body: JsonObject | None = None,
                 headers: dict[str, str] | None = None, stored: tuple[Any, ...] | None = None,
                 entries: Callable[[], list[JsonObject]] | None = None) -> None:
        self.status = status
        self.headers = headers if headers is not None else {}
        self.stored = stored
        self._body = body
        self._entries = entries

    @property
    def body(self) -> JsonObject | None:
        """The whole JSON body (a deferred ``Bundle.entry`` list is built now, once)."""
        if self._entries is not None:
            build, self._entries = self._entries, None
            entries = build()
            if entries and self._body is not None:
                self._body["entry"] = entries
        return self._body

    def head(self) -> JsonObject | None:
        """The body without building a deferred ``Bundle.entry`` (which it may lack)."""
        return self._body

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def __repr__(self) -> str:
        return f"FhirResponse(status={self.status}, body={self.body!r}, headers={self.headers!r})"
