"""Small constructors for the FHIR R4 JSON datatypes the chart generator emits."""

from __future__ import annotations

import base64
from datetime import datetime, timezone
from typing import Any

from physbench_gym.synth.terminology import SYSTEMS

UCUM = SYSTEMS["ucum"]
INTERPRETATION_SYSTEM = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
INTERPRETATIONS = {"H": "High", "L": "Low", "N": "Normal", "A": "Abnormal",
                   "HH": "Critical high", "LL": "Critical low"}
CVX_SYSTEM = "http://hl7.org/fhir/sid/cvx"
CVX = {
    "08": "Hep B, adolescent or pediatric", "03": "MMR", "21": "varicella",
    "33": "pneumococcal polysaccharide PPV23", "43": "Hep B, adult", "52": "Hep A, adult",
    "62": "HPV, quadrivalent", "113": "Td (adult) preservative free",
    "115": "Tdap", "121": "zoster live", "133": "Pneumococcal conjugate PCV 13",
    "140": "Influenza, seasonal, injectable, preservative free",
    "150": "Influenza, injectable, quadrivalent, preservative free",
    "165": "HPV9", "187": "zoster recombinant", "207": "COVID-19, mRNA, LNP-S, PF, 100 mcg/0.5mL",
    "208": "COVID-19, mRNA, LNP-S, PF, 30 mcg/0.3 mL", "215": "Pneumococcal conjugate PCV15",
    "216": "Pneumococcal conjugate PCV20",
}
ANSWERS = {
    "10828004": "Positive", "260385009": "Negative", "260373001": "Detected",
    "260415000": "Not detected", "266919005": "Never smoked tobacco", "8517006": "Ex-smoker",
    "77176002": "Smoker", "449868002": "Smokes tobacco daily",
}
ROUTES = {
    "oral": ("26643006", "Oral route", "by mouth"),
    "sublingual": ("37839007", "Sublingual route", "under the tongue"),
    "intravenous": ("47625008", "Intravenous route", "intravenously"),
    "subcutaneous": ("34206005", "Subcutaneous route", "subcutaneously"),
    "topical": ("6064005", "Topical route", "topically"),
    "nasal": ("46713006", "Nasal route", "in each nostril"),
    "inhalation": ("447694001", "Respiratory tract route", "by inhalation"),
    "transdermal": ("45890007", "Transdermal route", "transdermally"),
    "intramuscular": ("78421000", "Intramuscular route", "intramuscularly"),
}
UNIT_TEXT = {"ug": "mcg", "[iU]": "units", "{tbl}": "tablet", "{cap}": "capsule",
             "{puff}": "puff", "{patch}": "patch", "{drop}": "drop"}
REPORT_SECTIONS = {
    "RAD": "Radiology", "CT": "CAT scan", "NMR": "Nuclear magnetic resonance",
    "RUS": "Radiology ultrasound", "PAT": "Pathology (gross & histopath, not surgical)",
    "SP": "Surgical Pathology", "CUS": "Cardiac Ultrasound", "EC": "Electrocardiac (e.g., EKG, "
    "EEC, Holter)", "CTH": "Cardiac Catheterization", "PF": "Pulmonary Function",
    "GE": "Genetics", "LAB": "Laboratory", "MB": "Microbiology", "OTH": "Other",
}
V2_0074 = "http://terminology.hl7.org/CodeSystem/v2-0074"


def instant(moment: datetime) -> str:
    """A FHIR instant / dateTime in UTC with seconds, e.g. ``2026-03-14T09:30:00Z``."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def ref(kind: str, rid: str) -> dict[str, str]:
    """A literal Reference ``{"reference": "Type/id"}``."""
    return {"reference": f"{kind}/{rid}"}


def concept(codings: list[dict[str, str]], text: str | None = None) -> dict[str, Any]:
    """A CodeableConcept from codings, with text defaulting to the first display."""
    return {"coding": codings, "text": text or codings[0].get("display", "")}


def coding(system: str, code: str, display: str) -> dict[str, str]:
    """A Coding."""
    return {"system": system, "code": code, "display": display}


def quantity(value: float, unit: str) -> dict[str, Any]:
    """A UCUM Quantity; integral values are written without a decimal point."""
    number: float | int = int(value) if float(value).is_integer() else value
    return {"value": number, "unit": UNIT_TEXT.get(unit, unit), "system": UCUM, "code": unit}


def attachment(text: str, title: str, created: datetime) -> dict[str, Any]:
    """A text/plain Attachment with base64 data."""
    return {"contentType": "text/plain", "data": base64.b64encode(text.encode()).decode("ascii"),
            "title": title, "creation": instant(created)}


def category(system: str, code: str, display: str) -> list[dict[str, Any]]:
    """A one-coding category list."""
    return [{"coding": [coding(system, code, display)]}]


def dose_text(value: float, unit: str) -> str:
    """``75 mcg``, ``1 tablet``, ``10 units``."""
    number = int(value) if float(value).is_integer() else value
    word = UNIT_TEXT.get(unit, unit)
    if word in ("tablet", "capsule", "puff", "patch", "drop") and number != 1:
        word += "s"
    return f"{number} {word}"


def frequency_text(times: int, period: float, unit: str) -> str:
    """``once daily``, ``twice daily``, ``every 8 hours``, ``once weekly``."""
    span = int(period) if float(period).is_integer() else period
    words = {"h": "hour", "d": "day", "wk": "week", "mo": "month"}
    if unit == "h":
        return f"every {span} hours"
    counts = {1: "once", 2: "twice", 3: "three times", 4: "four times"}
    count = counts.get(times, f"{times} times")
    if span == 1:
        adverb = {"d": "daily", "wk": "weekly", "mo": "monthly"}[unit]
        return f"{count} {adverb}"
    return f"{count} every {span} {words[unit]}s"
