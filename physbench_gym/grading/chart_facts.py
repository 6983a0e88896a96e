"""What the patient's chart says that the safety checks need: allergies and kidney function.

Read once per episode through the ``FhirClient``. Kidney function is the chart's latest
measured value, never one the agent wrote: eGFR from its LOINC codes, creatinine clearance from
a coded clearance or by Cockcroft-Gault (latest serum creatinine and weight, age, sex). When the
chart has only one of the two, it stands in for the other, as drug labels' CrCl cut-offs are
commonly applied to eGFR.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from physbench_gym.fhir.client import FhirClient
from physbench_gym.grading.resources import tags

EGFR_CODES = frozenset({"98979-8", "62238-1", "33914-3", "48642-3", "48643-1", "50044-7",
                        "88293-6", "88294-4", "69405-9"})
CRCL_CODES = frozenset({"35591-7", "2164-2"})
CREATININE_CODES = frozenset({"2160-0", "38483-4"})
WEIGHT_CODES = frozenset({"29463-7", "3141-9"})
_UNIT_FACTORS = {"[lb_av]": 0.45359237, "lb": 0.45359237, "lbs": 0.45359237,
                 "umol/l": 1 / 88.42, "µmol/l": 1 / 88.42}
_INACTIVE = frozenset({"inactive", "resolved", "refuted", "entered-in-error"})


@dataclass(frozen=True)
class Allergy:
    """An active AllergyIntolerance: its words (lower case), a label, and whether severe."""

    label: str
    text: str
    severe: bool


@dataclass(frozen=True)
class ChartFacts:
    allergies: tuple[Allergy, ...] = ()
    kidney: dict[str, tuple[float, str]] = field(default_factory=dict)
    """'crcl' and 'egfr' in mL/min, each with where it came from."""


def chart_facts(client: FhirClient, patient: str, episode_tag: tuple[str, str]) -> ChartFacts:
    """The patient's active allergies and kidney function, as the chart records them."""
    allergies = tuple(_allergy(r) for r in client.search_all(
        "AllergyIntolerance", [("patient", patient), ("_count", "100")], max_pages=5)
        if not _codes(r, "clinicalStatus", "verificationStatus") & _INACTIVE)
    return ChartFacts(allergies, kidney_function(client, patient, episode_tag))


def kidney_function(client: FhirClient, patient: str, episode_tag: tuple[str, str]
                    ) -> dict[str, tuple[float, str]]:
    """``{'crcl': (mL/min, how), 'egfr': (mL/min, how)}`` from the chart's latest values
    (those written during the episode, tagged ``episode_tag``, are left out)."""
    codes = EGFR_CODES | CRCL_CODES | CREATININE_CODES | WEIGHT_CODES
    found = client.search_all("Observation", [
        ("patient", patient), ("code", ",".join(f"http://loinc.org|{c}" for c in sorted(codes))),
        ("_count", "200")], max_pages=10)
    latest: dict[str, tuple[str, float]] = {}
    for resource in found:
        if episode_tag in tags(resource):
            continue
        value = _value(resource)
        when = str(resource.get("effectiveDateTime") or "")
        for code in _loinc(resource) & codes:
            kind = next(k for k, group in (("egfr", EGFR_CODES), ("crcl", CRCL_CODES),
                                           ("creatinine", CREATININE_CODES),
                                           ("weight", WEIGHT_CODES)) if code in group)
            if value is not None and when >= latest.get(kind, ("", 0.0))[0]:
                latest[kind] = (when, float(value))
    kidney = {k: (latest[k][1], "eGFR" if k == "egfr" else "measured CrCl")
              for k in ("egfr", "crcl") if k in latest}
    if "crcl" not in kidney and {"creatinine", "weight"} <= latest.keys():
        crcl = _cockcroft_gault(client, patient, latest["creatinine"], latest["weight"][1])
        if crcl is not None:
            kidney["crcl"] = (crcl, "Cockcroft-Gault")
    if "crcl" not in kidney and "egfr" in kidney:
        kidney["crcl"] = (kidney["egfr"][0], "eGFR standing in for CrCl")
    if "egfr" not in kidney and "crcl" in kidney:
        kidney["egfr"] = (kidney["crcl"][0], "CrCl standing in for eGFR")
    return kidney


def mentions(text: str, phrase: str) -> bool:
    """Whether lower-case ``text`` holds ``phrase`` as whole words."""
    return _pattern(phrase.lower()).search(text) is not None


@functools.lru_cache(maxsize=4096)
def _pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])")


def _allergy(resource: dict[str, Any]) -> Allergy:
    code = resource.get("code") or {}
    words = [str(code.get("text", ""))] + [str(c.get("display", "")) for c in
                                           code.get("coding", []) or []]
    severe = resource.get("criticality") == "high"
    for reaction in resource.get("reaction", []) or []:
        substance = reaction.get("substance") or {}
        words += [str(substance.get("text", ""))] + [
            str(c.get("display", "")) for c in substance.get("coding", []) or []]
        seen = " ".join([str(reaction.get("description", ""))] + [
            str(m.get("text", "")) for m in reaction.get("manifestation", []) or []]).lower()
        severe = severe or reaction.get("severity") == "severe" or "anaphyla" in seen
    name = code.get("text") or next((w for w in words if w), "allergy")
    return Allergy(f"AllergyIntolerance/{resource.get('id')} ({name})",
                   " ".join(words).lower(), severe)


def _cockcroft_gault(client: FhirClient, patient: str, creatinine: tuple[str, float],
                     weight_kg: float) -> float | None:
    """CrCl (mL/min) = (140 - age) x weight / (72 x serum creatinine), x 0.85 if female."""
    try:
        record = client.read("Patient", patient)
        born = date.fromisoformat(str(record["birthDate"])[:10])
        measured = date.fromisoformat(creatinine[0][:10])
    except (KeyError, ValueError):
        return None
    age = measured.year - born.year - ((measured.month, measured.day) < (born.month, born.day))
    if creatinine[1] <= 0:
        return None
    crcl = (140 - age) * weight_kg / (72 * creatinine[1])
    return crcl * 0.85 if record.get("gender") == "female" else crcl


def _codes(resource: dict[str, Any], *fields: str) -> set[str]:
    return {str(c.get("code")) for name in fields
            for c in (resource.get(name) or {}).get("coding", []) or []}


def _loinc(resource: dict[str, Any]) -> set[str]:
    return {str(c.get("code")) for c in (resource.get("code") or {}).get("coding", []) or []
            if c.get("system") in ("http://loinc.org", None)}


def _value(resource: dict[str, Any]) -> float | None:
    """The value in mL/min, mg/dL or kg (pounds and umol/L converted)."""
    quantity = resource.get("valueQuantity") or {}
    if quantity.get("value") is None:
        return None
    unit = str(quantity.get("code") or quantity.get("unit") or "").lower()
    return float(quantity["value"]) * _UNIT_FACTORS.get(unit, 1.0)
