"""Exceptions of the FHIR layer. Each carries the OperationOutcome the server answered with."""

from __future__ import annotations

from typing import Any


class FhirError(Exception):
    """A FHIR interaction failed; ``status`` and ``outcome`` hold the server's answer."""

    def __init__(self, status: int, outcome: dict[str, Any] | None, message: str | None = None):
        self.status = status
        self.outcome = outcome or {}
        super().__init__(message or f"HTTP {status}: {outcome_text(self.outcome)}")


class FhirTransportError(FhirError, ConnectionError):
    """The FHIR server could not be reached (connection refused, timeout, DNS)."""

    def __init__(self, message: str):
        super().__init__(0, None, message)


def outcome_text(outcome: dict[str, Any]) -> str:
    """Join the diagnostics of an OperationOutcome's issues into one readable line."""
    parts = []
    for issue in outcome.get("issue", []) or []:
        text = issue.get("diagnostics") or issue.get("details", {}).get("text") or issue.get("code")
        where = ", ".join(issue.get("expression", []) or [])
        parts.append(f"{text} (at {where})" if where else str(text))
    return "; ".join(parts) or "no details"
