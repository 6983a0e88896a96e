"""Codings the order tools write: code systems, routes, order categories, units, medications.

Medication and orderable displays come from the terminology tables when they are installed;
without them the tools still work and keep the display the agent gave.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology
from physbench_gym.tools.base import ToolError

JsonDict = dict[str, Any]
SNOMED = "http://snomed.info/sct"
UCUM = "http://unitsofmeasure.org"
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"

CODE_SYSTEMS: dict[str, str] = {
    "loinc": "http://loinc.org",
    "cpt": "http://www.ama-assn.org/go/cpt",
    "snomed": SNOMED,
    "icd10": "http://hl7.org/fhir/sid/icd-10-cm",
    "icd10cm": "http://hl7.org/fhir/sid/icd-10-cm",
}

ROUTES: dict[str, tuple[str, str]] = {
    "oral": ("26643006", "Oral route"),
    "sublingual": ("37839007", "Sublingual route"),
    "intravenous": ("47625008", "Intravenous route"),
    "subcutaneous": ("34206005", "Subcutaneous route"),
    "intramuscular": ("78421000", "Intramuscular route"),
    "topical": ("6064005", "Topical route"),
    "transdermal": ("45890007", "Transdermal route"),
    "nasal": ("46713006", "Nasal route"),
    "inhalation": ("447694001", "Respiratory tract route"),
    "rectal": ("37161004", "Rectal route"),
    "vaginal": ("16857009", "Vaginal route"),
    "ophthalmic": ("54485002", "Ophthalmic route"),
    "otic": ("10547007", "Otic route"),
}

ORDER_CATEGORIES: dict[str, tuple[str, str]] = {
    "laboratory": ("108252007", "Laboratory procedure"),
    "imaging": ("363679005", "Imaging"),
    "procedure": ("387713003", "Surgical procedure"),
    "referral": ("3457005", "Patient referral"),
    "counseling": ("409063005", "Counseling"),
}

UNIT_CODES: dict[str, str] = {
    "mcg": "ug", "microgram": "ug", "micrograms": "ug", "milligram": "mg", "milligrams": "mg",
    "gram": "g", "grams": "g", "ml": "mL", "milliliter": "mL", "milliliters": "mL",
    "unit": "[iU]", "units": "[iU]", "iu": "[iU]", "meq": "meq",
    "tablet": "{tablet}", "tablets": "{tablet}", "tab": "{tablet}", "capsule": "{capsule}",
    "capsules": "{capsule}", "cap": "{capsule}", "puff": "{puff}", "puffs": "{puff}",
    "drop": "[drp]", "drops": "[drp]", "patch": "{patch}", "spray": "{spray}",
    "sprays": "{spray}", "application": "{application}",
}

PERIOD_UNITS: dict[str, str] = {"hour": "h", "day": "d", "week": "wk", "month": "mo"}


def system_uri(system: str) -> str:
    """Resolve a short code system name (loinc, cpt, snomed, icd10) or accept a URI."""
    lowered = system.strip().lower()
    if lowered in CODE_SYSTEMS:
        return CODE_SYSTEMS[lowered]
    if system.startswith(("http://", "https://", "urn:")):
        return system
    raise ToolError(f"unknown code system {system!r}; use one of {', '.join(CODE_SYSTEMS)} "
                    "or a system URI")


def ucum(unit: str) -> JsonDict:
    """A UCUM-coded quantity unit: ``unit`` as the agent wrote it, ``code`` in UCUM."""
    code = UNIT_CODES.get(unit.lower(), unit)
    return {"unit": unit, "system": UCUM, "code": code}


def snomed_coding(pair: tuple[str, str]) -> JsonDict:
    """A SNOMED CT Coding from a (code, display) pair."""
    return {"system": SNOMED, "code": pair[0], "display": pair[1]}


def medication_concept(code: str, display: str | None) -> tuple[JsonDict, str | None]:
    """The RxNorm Coding for a medication and its route (if known).

    Raises:
        ToolError: the terminology is installed and does not know ``code``.
    """
    try:
        concept = terminology.rxnorm(code)
    except terminology.UnknownCodeError as exc:
        raise ToolError(_medication_hint(str(exc), display)) from None
    except OSError:
        coding = {"system": RXNORM, "code": code}
        return ({**coding, "display": display} if display else coding), None
    return concept.coding(), concept.extra.get("route")


def _medication_hint(message: str, display: str | None) -> str:
    if not display:
        return message
    try:
        found = terminology.search(display, table="rxnorm", limit=3)
    except (OSError, ValueError):
        return message
    if not found:
        return message
    options = ", ".join(f"{item.code} ({item.display})" for item in found)
    return f"{message}. Codes matching {display!r}: {options}"


def orderable_display(system: str, code: str) -> str | None:
    """The display of an orderable code from the terminology, or None when unknown."""
    try:
        return terminology.lookup(system, code).display
    except (KeyError, OSError):
        return None


def orderable_system(code: str) -> str | None:
    """The code system of an orderable known to the terminology under one system, else None."""
    try:
        return terminology.orderable(code).system
    except (KeyError, OSError):
        return None
