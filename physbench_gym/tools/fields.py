"""Constrained argument types shared by the tool argument models."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

_ID = re.compile(r"[A-Za-z0-9\-.]{1,64}")
_DATE = re.compile(r"(\d{4})(-(\d{2})(-(\d{2}))?)?")
_DATETIME = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?")
_TOKEN = re.compile(r"[^\s,|]+(\|[^\s,|]+)?|\|[^\s,|]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class ToolArgs(BaseModel):
    """Base of every tool's arguments: unknown parameters are refused."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)


def _reference_id(resource_type: str):
    prefix = f"{resource_type}/"

    def strip(value: object) -> object:
        if not isinstance(value, str):
            return value
        value = value.strip()
        return value[len(prefix):] if value.startswith(prefix) else value

    return strip


def _check_id(value: str) -> str:
    if not _ID.fullmatch(value) or set(value) == {"."}:
        raise ValueError("must be a FHIR id: 1-64 letters, digits, '-' or '.'")
    return value


def _check_date(value: str) -> str:
    """Accept a FHIR date (YYYY, YYYY-MM, YYYY-MM-DD) or a dateTime with time."""
    if "T" in value:
        return _check_datetime(value)
    match = _DATE.fullmatch(value)
    if not match:
        raise ValueError("must be a FHIR date such as 2024-03-15 (or 2024-03, 2024)")
    year, month, day = match.group(1), match.group(3), match.group(5)
    try:
        date(int(year), int(month or 1), int(day or 1))
    except ValueError:
        raise ValueError(f"{value} is not a real calendar date") from None
    return value


def _check_datetime(value: str) -> str:
    if not _DATETIME.fullmatch(value):
        raise ValueError("must be a FHIR dateTime such as 2024-03-15T09:30:00-07:00")
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{value} is not a real date and time") from None
    return value


def _check_tokens(value: str) -> str:
    parts = [part.strip() for part in value.split(",")]
    if not all(_TOKEN.fullmatch(part) for part in parts):
        raise ValueError("must be codes like 4548-4 or http://loinc.org|4548-4, comma-separated")
    return ",".join(parts)


def _check_text(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("must not contain control characters")
    return value


FhirId = Annotated[str, AfterValidator(_check_id)]
PatientId = Annotated[str, BeforeValidator(_reference_id("Patient")), AfterValidator(_check_id)]
PractitionerId = Annotated[str, BeforeValidator(_reference_id("Practitioner")),
                           AfterValidator(_check_id)]
ServiceRequestId = Annotated[str, BeforeValidator(_reference_id("ServiceRequest")),
                             AfterValidator(_check_id)]
FhirDate = Annotated[str, Field(max_length=40), AfterValidator(_check_date)]
FhirDateTime = Annotated[str, Field(max_length=40), AfterValidator(_check_datetime)]
TokenList = Annotated[str, Field(min_length=1, max_length=1000), AfterValidator(_check_tokens)]
ShortText = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_check_text)]
