"""OperationOutcome construction and the exception that carries one through the server."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from physbench_gym.fhir.messages import FhirResponse

JsonObject = dict[str, Any]


def make_issue(
    code: str,
    diagnostics: str,
    expression: str | Sequence[str] | None = None,
    severity: str = "error",
) -> JsonObject:
    """Build one OperationOutcome.issue (``code`` from the R4 IssueType value set)."""
    issue: JsonObject = {"severity": severity, "code": code, "diagnostics": diagnostics}
    if expression:
        issue["expression"] = [expression] if isinstance(expression, str) else list(expression)
    return issue


def make_outcome(issues: Iterable[JsonObject]) -> JsonObject:
    """Wrap issues in an OperationOutcome resource."""
    return {"resourceType": "OperationOutcome", "issue": list(issues)}


class OperationFailed(Exception):
    """A request cannot be served; carries the HTTP status and the issues to report."""

    def __init__(self, status: int, issues: Sequence[JsonObject]) -> None:
        self.status = status
        self.issues = list(issues)
        super().__init__("; ".join(issue["diagnostics"] for issue in self.issues))

    @classmethod
    def single(
        cls, status: int, code: str, diagnostics: str, expression: str | None = None
    ) -> OperationFailed:
        """Shorthand for a failure with exactly one issue."""
        return cls(status, [make_issue(code, diagnostics, expression)])

    def outcome(self) -> JsonObject:
        """The OperationOutcome resource describing this failure."""
        return make_outcome(self.issues)

    def response(self) -> FhirResponse:
        """The response the server answers with."""
        return FhirResponse(self.status, self.outcome(), {"Content-Type": "application/fhir+json"})


def information(diagnostics: str) -> JsonObject:
    """An informational OperationOutcome (e.g. the body of a successful delete)."""
    return make_outcome([make_issue("informational", diagnostics, severity="information")])
