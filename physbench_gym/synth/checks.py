"""Invariant checks over generated resources: R4 validity, references, dates, units and codes.

Task authors run them on a story's chart; the test suite runs them on whole populations. Each
returns a list of human-readable problems (empty when the resources are sound).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Any

from physbench_gym.synth import terminology as term

_DATE_KEYS = frozenset({
    "effectiveDateTime", "issued", "authoredOn", "onsetDateTime", "abatementDateTime",
    "recordedDate", "performedDateTime", "occurrenceDateTime", "date", "dateAsserted",
    "start", "end", "creation", "birthDate"})
_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2}(T.+)?)?)?$")
_CODED_SYSTEMS = {term.SYSTEMS["loinc"], term.SYSTEMS["rxnorm"], term.SYSTEMS["icd10cm"],
                  term.SYSTEMS["cpt"]}


def fhir_model_errors(resources: Iterable[dict[str, Any]]) -> list[str]:
    """Resources that fhirclient's R4 models reject in strict mode, with the reason."""
    problems = []
    for resource in resources:
        kind = resource["resourceType"]
        module = importlib.import_module(f"fhirclient.models.{kind.lower()}")
        try:
            getattr(module, kind)(resource, strict=True)
        except Exception as exc:
            problems.append(f"{kind}/{resource.get('id')}: {exc}")
    return problems


def _walk(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key, item
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, path)


def dangling_references(resources: Iterable[dict[str, Any]]) -> list[str]:
    """References (``Type/id``) that no resource in the set resolves."""
    items = list(resources)
    known = {f"{r['resourceType']}/{r['id']}" for r in items}
    return [f"{r['resourceType']}/{r['id']} -> {item}" for r in items
            for _, key, item in _walk(r) if key == "reference" and item not in known]


def _moment(text: str) -> datetime:
    if len(text) <= 10:
        text = (text + "-01-01")[:10] if len(text) < 10 else text
        return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def dates_after(resources: Iterable[dict[str, Any]], now: datetime) -> list[str]:
    """Date and dateTime values later than ``now`` (a date is late if after now's date)."""
    problems = []
    for resource in resources:
        for path, key, item in _walk(resource):
            if key not in _DATE_KEYS or not isinstance(item, str) or not _DATE.match(item):
                continue
            late = (_moment(item).date() > now.date() if len(item) <= 10
                    else _moment(item) > now)
            if late:
                problems.append(f"{resource['resourceType']}/{resource['id']}{path}.{key}={item}")
    return problems


def non_ucum_quantities(resources: Iterable[dict[str, Any]]) -> list[str]:
    """Quantities with a value that lack the UCUM system or a unit code."""
    problems = []
    for resource in resources:
        for path, _, item in _walk(resource):
            if isinstance(item, dict) and "value" in item and isinstance(item["value"],
                                                                         (int, float)):
                if item.get("system") != term.SYSTEMS["ucum"] or not item.get("code"):
                    problems.append(f"{resource['resourceType']}/{resource['id']}{path}: {item}")
    return problems


def unknown_codes(resources: Iterable[dict[str, Any]]) -> list[str]:
    """LOINC, RxNorm, ICD-10-CM and CPT codings that are not in the terminology tables."""
    problems = []
    for resource in resources:
        for _, key, item in _walk(resource):
            if key != "coding" or not isinstance(item, list):
                continue
            for coding in item:
                if coding.get("system") in _CODED_SYSTEMS:
                    try:
                        term.lookup(coding["system"], coding["code"])
                    except KeyError:
                        problems.append(f"{resource['resourceType']}/{resource['id']}: "
                                        f"{coding['system']}|{coding['code']}")
    return problems
