"""Extraction and normalisation of the values a search parameter sees in a resource.

Every function here is pure; the store caches the normalised values per resource and parameter,
so repeated searches over the shared base never walk the same resource twice.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from physbench_gym.fhir.search_params import SearchParam, Step

INF = float("inf")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_DATE = re.compile(
    r"(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?"
    r"(Z|[+-]\d{2}:\d{2})?)?)?)?"
)
_HUMAN_NAME_PARTS = ("family", "given", "prefix", "suffix", "text")
_ADDRESS_PARTS = ("line", "city", "district", "state", "postalCode", "country", "text")

DateRange = tuple[float, float]
Quantity = tuple[float, "str | None", "str | None", "str | None"]


def walk(resource: dict[str, Any], steps: tuple[tuple[Step, ...], ...]) -> list[Any]:
    """Collect the elements reached by each alternative path, flattening lists on the way."""
    found: list[Any] = []
    for alternative in steps:
        current: list[Any] = [resource]
        for step in alternative:
            current = _descend(current, step)
            if not current:
                break
        found.extend(current)
    return found


def _descend(items: list[Any], step: Step) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        value = item.get(step.name)
        if value is None:
            continue
        for element in value if isinstance(value, list) else (value,):
            if step.where_key is None or (
                isinstance(element, dict) and element.get(step.where_key) == step.where_value
            ):
                out.append(element)
    return out


def normalized(resource: dict[str, Any], param: SearchParam) -> tuple[Any, ...]:
    """The parameter's values in ``resource`` in the comparable form of its type."""
    raw = walk(resource, param.steps)
    if not raw:
        return ()
    kind = param.type
    if kind == "token":
        return tuple(pair for element in raw for pair in token_pairs(element))
    if kind == "reference":
        return tuple(reference_keys(raw, param.targets))
    if kind == "date":
        return tuple(r for element in raw if (r := element_range(element)) is not None)
    if kind == "string":
        return tuple(s for element in raw for s in string_parts(element))
    if kind in ("quantity", "number"):
        return tuple(q for element in raw if (q := quantity_of(element)) is not None)
    return tuple(element for element in raw if isinstance(element, str))


def token_pairs(element: Any) -> list[tuple[str | None, str]]:
    """(system, code) pairs of a code, Coding, CodeableConcept, Identifier or ContactPoint."""
    if isinstance(element, bool):
        return [(None, "true" if element else "false")]
    if isinstance(element, str):
        return [(None, element)]
    if not isinstance(element, dict):
        return []
    if "coding" in element:
        return [p for coding in element["coding"] or () for p in token_pairs(coding)]
    code = element.get("code", element.get("value"))
    if isinstance(code, str):
        return [(element.get("system"), code)]
    return []


def token_texts(element: Any) -> list[str]:
    """Human-readable texts of a token element (CodeableConcept.text, Coding.display)."""
    if not isinstance(element, dict):
        return []
    texts = [element["text"]] if isinstance(element.get("text"), str) else []
    if isinstance(element.get("display"), str):
        texts.append(element["display"])
    for coding in element.get("coding") or ():
        if isinstance(coding, dict) and isinstance(coding.get("display"), str):
            texts.append(coding["display"])
    return texts


def reference_key(reference: str) -> str:
    """Reduce a literal reference (relative, absolute or versioned) to ``Type/id``."""
    parts = reference.split("/")
    if len(parts) >= 4 and parts[-2] == "_history":
        parts = parts[:-2]
    if len(parts) >= 2 and parts[-2][:1].isupper():
        return f"{parts[-2]}/{parts[-1]}"
    return reference


def reference_keys(raw: list[Any], targets: tuple[str, ...]) -> list[str]:
    """Normalised reference keys of Reference elements (or canonical strings)."""
    keys = []
    for element in raw:
        text = element.get("reference") if isinstance(element, dict) else element
        if not isinstance(text, str):
            continue
        key = reference_key(text)
        if targets and key.split("/", 1)[0] not in targets:
            continue
        keys.append(key)
    return keys


def string_parts(element: Any) -> list[str]:
    """The strings a string parameter matches in an element (HumanName, Address, plain)."""
    if isinstance(element, str):
        return [element]
    if not isinstance(element, dict):
        return []
    parts = _HUMAN_NAME_PARTS if "family" in element or "given" in element else _ADDRESS_PARTS
    out: list[str] = []
    for key in parts:
        value = element.get(key)
        for item in value if isinstance(value, list) else (value,):
            if isinstance(item, str):
                out.append(item)
    return out


@lru_cache(maxsize=200_000)
def fold(text: str) -> str:
    """Case- and accent-insensitive form of a string."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def quantity_of(element: Any) -> Quantity | None:
    """(value, system, code, unit) of a Quantity, or a bare number."""
    if isinstance(element, (int, float)) and not isinstance(element, bool):
        return (float(element), None, None, None)
    if isinstance(element, dict) and isinstance(element.get("value"), (int, float)):
        return (float(element["value"]), element.get("system"), element.get("code"),
                element.get("unit"))
    return None


def element_range(element: Any) -> DateRange | None:
    """The time range covered by a date, dateTime, instant or Period (open ends infinite)."""
    if isinstance(element, str):
        try:
            return date_range(element)
        except ValueError:
            return None
    if isinstance(element, dict) and ("start" in element or "end" in element):
        start = _safe_range(element.get("start"))
        end = _safe_range(element.get("end"))
        return (start[0] if start else -INF, end[1] if end else INF)
    return None


def _safe_range(value: Any) -> DateRange | None:
    if not isinstance(value, str):
        return None
    try:
        return date_range(value)
    except ValueError:
        return None


@lru_cache(maxsize=200_000)
def date_range(text: str) -> DateRange:
    """[start, end) in epoch seconds of a (partial) FHIR date/dateTime; raises ValueError."""
    match = _DATE.fullmatch(text)
    if match is None:
        raise ValueError(f"'{text}' is not a FHIR date (YYYY, YYYY-MM, YYYY-MM-DD[Thh:mm[:ss]])")
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    tz = _zone(zone)
    start = datetime(int(year), int(month or 1), int(day or 1), int(hour or 0),
                     int(minute or 0), int(second or 0), tzinfo=tz)
    if fraction:
        start = start.replace(microsecond=int(float(fraction) * 1_000_000))
    end = _range_end(start, month, day, hour, second, fraction)
    return ((start - _EPOCH).total_seconds(), (end - _EPOCH).total_seconds())


def _zone(zone: str | None) -> timezone:
    if zone in (None, "Z"):
        return timezone.utc
    sign = 1 if zone[0] == "+" else -1
    hours, minutes = int(zone[1:3]), int(zone[4:6])
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _range_end(start: datetime, month: Any, day: Any, hour: Any, second: Any,
               fraction: Any) -> datetime:
    if month is None:
        return start.replace(year=start.year + 1)
    if day is None:
        if start.month == 12:
            return start.replace(year=start.year + 1, month=1)
        return start.replace(month=start.month + 1)
    if hour is None:
        return start + timedelta(days=1)
    if second is None:
        return start + timedelta(minutes=1)
    if fraction is None:
        return start + timedelta(seconds=1)
    return start + timedelta(milliseconds=1)
