"""Business rules beyond structure: R4 required bindings on codes, and a few invariants."""

from __future__ import annotations

from typing import Any

from physbench_gym.fhir.operation_outcome import make_issue

JsonObject = dict[str, Any]

_REQUEST_STATUS = ("draft", "active", "on-hold", "revoked", "completed", "entered-in-error",
                   "unknown")
_EVENT_STATUS = ("preparation", "in-progress", "not-done", "on-hold", "stopped", "completed",
                 "entered-in-error", "unknown")
_PRIORITY = ("routine", "urgent", "asap", "stat")
_GENDER = ("male", "female", "other", "unknown")

REQUIRED_CODES: dict[str, dict[str, tuple[str, ...]]] = {
    "Patient": {"gender": _GENDER},
    "Practitioner": {"gender": _GENDER},
    "Encounter": {"status": ("planned", "arrived", "triaged", "in-progress", "onleave",
                             "finished", "cancelled", "entered-in-error", "unknown")},
    "Observation": {"status": ("registered", "preliminary", "final", "amended", "corrected",
                               "cancelled", "entered-in-error", "unknown")},
    "MedicationRequest": {
        "status": ("active", "on-hold", "cancelled", "completed", "entered-in-error", "stopped",
                   "draft", "unknown"),
        "intent": ("proposal", "plan", "order", "original-order", "reflex-order",
                   "filler-order", "instance-order", "option"),
        "priority": _PRIORITY,
    },
    "MedicationStatement": {"status": ("active", "completed", "entered-in-error", "intended",
                                       "stopped", "on-hold", "unknown", "not-taken")},
    "AllergyIntolerance": {"type": ("allergy", "intolerance"),
                           "category": ("food", "medication", "environment", "biologic"),
                           "criticality": ("low", "high", "unable-to-assess")},
    "Immunization": {"status": ("completed", "entered-in-error", "not-done")},
    "Procedure": {"status": _EVENT_STATUS},
    "DiagnosticReport": {"status": ("registered", "partial", "preliminary", "final", "amended",
                                    "corrected", "appended", "cancelled", "entered-in-error",
                                    "unknown")},
    "DocumentReference": {"status": ("current", "superseded", "entered-in-error"),
                          "docStatus": ("preliminary", "final", "amended", "entered-in-error")},
    "ServiceRequest": {
        "status": _REQUEST_STATUS,
        "intent": ("proposal", "plan", "directive", "order", "original-order", "reflex-order",
                   "filler-order", "instance-order", "option"),
        "priority": _PRIORITY,
    },
    "Communication": {"status": _EVENT_STATUS, "priority": _PRIORITY},
    "Appointment": {"status": ("proposed", "pending", "booked", "arrived", "fulfilled",
                               "cancelled", "noshow", "entered-in-error", "checked-in",
                               "waitlist")},
    "CarePlan": {"status": _REQUEST_STATUS, "intent": ("proposal", "plan", "order", "option")},
}
_PARTICIPANT_STATUS = ("accepted", "declined", "tentative", "needs-action")
_UNSCHEDULED = ("proposed", "cancelled", "waitlist")


def rule_issues(resource: JsonObject, root: str) -> list[JsonObject]:
    """Issues for codes outside their required value set and broken R4 invariants."""
    rtype = resource["resourceType"]
    issues = []
    for field, allowed in REQUIRED_CODES.get(rtype, {}).items():
        values = resource.get(field)
        for value in values if isinstance(values, list) else [values]:
            if value is not None and value not in allowed:
                issues.append(make_issue("code-invalid", f"'{value}' is not a valid {rtype}."
                                         f"{field}; allowed: {', '.join(allowed)}",
                                         f"{root}.{field}"))
    if rtype == "Appointment":
        issues.extend(_appointment_issues(resource, root))
    if rtype == "Observation" and "dataAbsentReason" in resource and any(
            key.startswith("value") for key in resource):
        issues.append(make_issue("invariant", "obs-6: dataAbsentReason SHALL only be present "
                                 "if Observation.value[x] is not present",
                                 f"{root}.dataAbsentReason"))
    return issues


def _appointment_issues(resource: JsonObject, root: str) -> list[JsonObject]:
    issues = []
    for n, participant in enumerate(resource.get("participant") or []):
        status = participant.get("status") if isinstance(participant, dict) else None
        if status is not None and status not in _PARTICIPANT_STATUS:
            issues.append(make_issue("code-invalid", f"'{status}' is not a valid participant "
                                     f"status; allowed: {', '.join(_PARTICIPANT_STATUS)}",
                                     f"{root}.participant[{n}].status"))
    if resource.get("status") not in _UNSCHEDULED and not (
            resource.get("start") and resource.get("end")):
        issues.append(make_issue("invariant", "app-3: only proposed, cancelled or waitlisted "
                                 "appointments can be missing start/end dates", f"{root}.start"))
    return issues
