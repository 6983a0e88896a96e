"""The request and response values that every FHIR transport carries.

The embedded server is a pure function ``handle(FhirRequest) -> FhirResponse``; the in-process
transport calls it directly and the HTTP app translates WSGI to and from these values, so both
transports see exactly the same semantics.
"""

from __future__ import annotations

from collections.abc import Mapping
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


@dataclass
class FhirResponse:
    """The server's answer: status code, JSON body (a resource, Bundle or OperationOutcome)."""

    status: int
    body: JsonObject | None = None
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300
