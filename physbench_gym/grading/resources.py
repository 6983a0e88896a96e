"""Reading the clinically meaningful fields of FHIR resources for grading."""

from __future__ import annotations

import base64
import binascii
from typing import Any

_CODE_FIELDS = ("code", "medicationCodeableConcept", "type", "vaccineCode", "category")
# Administrations per day of one period unit; a month is the UCUM mean month (30.4375 days).
_PER_DAY = {"s": 86400.0, "min": 1440.0, "h": 24.0, "d": 1.0, "wk": 1 / 7, "mo": 1 / 30.4375,
            "a": 1 / 365}
ORDER_INTENTS = frozenset({"order", "original-order", "reflex-order", "filler-order",
                           "instance-order"})
"""Request intents that authorize acting now; 'plan', 'proposal' and 'directive' do not."""
PLACED_STATUSES = frozenset({"active", "completed"})


def codings(resource: dict[str, Any], field: str | None = None) -> list[tuple[str, str]]:
    """(system, code) pairs of the resource's main code fields, or of ``field`` only."""
    fields = (field,) if field else _CODE_FIELDS
    pairs = []
    for name in fields:
        value = resource.get(name)
        for concept in value if isinstance(value, list) else [value]:
            if isinstance(concept, dict):
                for coding in concept.get("coding", []) or []:
                    if isinstance(coding, dict) and coding.get("code"):
                        pairs.append((str(coding.get("system", "")), str(coding["code"])))
    return pairs


def matches_code(resource: dict[str, Any], wanted: list[str], field: str | None = None) -> bool:
    """True if any coding matches one of ``wanted`` ('system|code' or a bare code)."""
    have = codings(resource, field)
    for item in wanted:
        system, _, code = item.rpartition("|")
        if any(c == code and (not system or s == system) for s, c in have):
            return True
    return False


def placed(resource: dict[str, Any]) -> bool:
    """Whether a request reached the patient: active (or completed) with an order intent.

    Drafts, orders on hold, cancelled or stopped ones, plans and proposals were not placed.
    Resources that are not requests (no ``intent``, e.g. a Communication) count as placed.
    """
    if "intent" not in resource:
        return True
    return (resource.get("status") in PLACED_STATUSES
            and resource.get("intent") in ORDER_INTENTS)


def patient_id(resource: dict[str, Any]) -> str | None:
    """The id of the Patient the resource is about (subject or patient), if any."""
    if resource.get("resourceType") == "Patient":
        return resource.get("id")
    for name in ("subject", "patient"):
        ref = (resource.get(name) or {}).get("reference", "") if isinstance(
            resource.get(name), dict) else ""
        if ref.startswith("Patient/"):
            return ref.split("/", 1)[1]
    return None


def tags(resource: dict[str, Any]) -> set[tuple[str, str]]:
    """The (system, code) pairs of the resource's ``meta.tag`` (an episode's writes carry one)."""
    return {(str(t.get("system")), str(t.get("code")))
            for t in (resource.get("meta") or {}).get("tag", []) or [] if isinstance(t, dict)}


def text_of(resource: dict[str, Any]) -> str:
    """All human-readable text: attachments decoded, conclusions, notes, code displays."""
    parts: list[str] = []
    for content in resource.get("content", []) or []:
        parts.append(_attachment_text(content.get("attachment", {})))
    for form in resource.get("presentedForm", []) or []:
        parts.append(_attachment_text(form))
    for name in ("conclusion", "description", "valueString"):
        if isinstance(resource.get(name), str):
            parts.append(resource[name])
    for note in resource.get("note", []) or []:
        parts.append(note.get("text", ""))
    for payload in resource.get("payload", []) or []:
        parts.append(payload.get("contentString", ""))
    for instruction in resource.get("dosageInstruction", []) or []:
        parts.append(instruction.get("text", ""))
    return "\n".join(p for p in parts if p)


def _attachment_text(attachment: dict[str, Any]) -> str:
    data = attachment.get("data")
    if not data:
        return attachment.get("title", "") or ""
    try:
        return base64.b64decode(data).decode("utf-8", errors="replace")
    except (binascii.Error, ValueError):
        return ""


def dose(resource: dict[str, Any]) -> tuple[float, str] | None:
    """The first dose quantity of a MedicationRequest as (value, unit)."""
    for instruction in resource.get("dosageInstruction", []) or []:
        for rate in instruction.get("doseAndRate", []) or []:
            quantity = rate.get("doseQuantity")
            if quantity and quantity.get("value") is not None:
                return float(quantity["value"]), str(quantity.get("unit") or quantity.get(
                    "code") or "")
    return None


def frequency_per_day(resource: dict[str, Any]) -> float | None:
    """Administrations per day from the first dosage instruction's timing, if structured."""
    for instruction in resource.get("dosageInstruction", []) or []:
        repeat = (instruction.get("timing") or {}).get("repeat") or {}
        if repeat.get("frequency") and repeat.get("periodUnit") in _PER_DAY:
            period = float(repeat.get("period") or 1)
            return float(repeat["frequency"]) / period * _PER_DAY[repeat["periodUnit"]]
    return None


def route_codes(resource: dict[str, Any]) -> list[str]:
    """Route codes and displays (lower case) of the dosage instructions."""
    found = []
    for instruction in resource.get("dosageInstruction", []) or []:
        route = instruction.get("route") or {}
        found += [str(c.get(k, "")).lower() for c in route.get("coding", []) or []
                  for k in ("code", "display")]
        if route.get("text"):
            found.append(route["text"].lower())
    return [f for f in found if f]
