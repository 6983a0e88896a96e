"""Derived expectations and task-specific graders of immunology and infectious disease tasks."""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import (
    WRITE,
    CheckpointResult,
    GradingContext,
    triggered_by,
)
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import dose, frequency_per_day, patient_id

HEIGHT_CM = 160.0  # the mdr_uti_antibiotics patient's charted height
FOSFOMYCIN_RXNORM = "808917"  # fosfomycin 3000 MG Granules for Oral Solution


def _ckd_epi_2021(creatinine: float, age: int, female: bool) -> int:
    """CKD-EPI 2021 (race-free) eGFR in mL/min/1.73 m2 from serum creatinine in mg/dL."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    value = 142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
    return round(value * (1.012 if female else 1.0))


def cockcroft_gault(age: int, weight_kg: float, creatinine: float, female: bool) -> float:
    """Cockcroft-Gault creatinine clearance in mL/min."""
    value = (140 - age) * weight_kg / (72 * creatinine)
    return value * 0.85 if female else value


def ideal_body_weight(height_cm: float, female: bool) -> float:
    """Devine ideal body weight in kg."""
    inches = height_cm / 2.54
    return (45.5 if female else 50.0) + 2.3 * (inches - 60)


def uti_renal(values: dict[str, Any]) -> dict[str, Any]:
    """Cockcroft-Gault CrCl of the ESBL cystitis patient, with the window a note may state.

    Clinicians use actual or ideal body weight; both are accepted (with 2 mL/min for
    rounding). The variable ranges keep every CrCl below 30 mL/min, so nitrofurantoin stays
    inappropriate (Beers) and fosfomycin stays the oral choice in every variant.
    """
    age, weight = int(values["age"]), float(values["weight_kg"])
    creatinine = float(values["creatinine"])
    ibw = ideal_body_weight(HEIGHT_CM, True)
    actual = cockcroft_gault(age, weight, creatinine, True)
    ideal = cockcroft_gault(age, ibw, creatinine, True)
    low, high = min(actual, ideal) - 2, max(actual, ideal) + 2
    if high >= 30:
        raise ValueError(f"CrCl {high:.0f} mL/min leaves the < 30 mL/min category")
    previous = round(creatinine - 0.2, 1)
    return {
        "crcl": round(actual),
        "crcl_ibw": round(ideal),
        "crcl_low": round(low),
        "crcl_high": round(high),
        "crcl_mid": round((low + high) / 2, 2),
        "crcl_tol": round((high - low) / 2, 2),
        "ibw_kg": round(ibw, 1),
        "egfr": _ckd_epi_2021(creatinine, age, True),
        "creatinine_prev": previous,
        "egfr_prev": _ckd_epi_2021(previous, age - 1, True),
        "egfr_2y": _ckd_epi_2021(1.8, age - 2, True),
        "egfr_3y": _ckd_epi_2021(1.6, age - 3, True),
        "weight_last_year": int(weight) + 1,
    }


_SINGLE_DOSE = re.compile(
    r"\b(single|once|one[\s-]time|one dose|1 dose|x\s?1|times one|stat|1 packet|one packet|"
    r"1 sachet|one sachet)\b", re.IGNORECASE)
_REPEATED = re.compile(r"\b(daily|every|bid|tid|qid|q\d+h|twice|three times|x\s?[2-9])\b",
                       re.IGNORECASE)


def _days(quantity: dict[str, Any] | None) -> float | None:
    if not quantity or quantity.get("value") is None:
        return None
    unit = str(quantity.get("code") or quantity.get("unit") or "d").lower()
    factor = {"h": 1 / 24, "hour": 1 / 24, "hours": 1 / 24, "wk": 7, "week": 7, "weeks": 7,
              "mo": 30, "month": 30, "months": 30}.get(unit, 1.0)
    return float(quantity["value"]) * factor


def _fosfomycin_problems(resource: dict[str, Any]) -> list[str]:
    """Why a written fosfomycin order is not 3 g by mouth once (empty when it is)."""
    problems = []
    if resource.get("status") != "active" or resource.get("intent") != "order":
        problems.append(f"status {resource.get('status')}/{resource.get('intent')}")
    found = dose(resource)
    grams = None
    if found is not None:
        factor = {"g": 1.0, "mg": 0.001}.get(unit_normalize(found[1]))
        grams = found[0] * factor if factor is not None else None
    if grams is None or abs(grams - 3.0) > 1e-6:
        problems.append(f"dose {found}")
    per_day = frequency_per_day(resource)
    if per_day is not None and per_day > 1:
        problems.append(f"{per_day:g} doses/day")
    durations = [_days((instruction.get("timing") or {}).get("repeat", {}).get("boundsDuration"))
                 for instruction in resource.get("dosageInstruction", []) or []]
    durations.append(_days((resource.get("dispenseRequest") or {}).get("expectedSupplyDuration")))
    known = [d for d in durations if d is not None]
    refills = (resource.get("dispenseRequest") or {}).get("numberOfRepeatsAllowed") or 0
    if any(d > 1 for d in known):
        problems.append(f"{max(known):g} days of therapy")
    if refills:
        problems.append(f"{refills} refills")
    sig = " ".join(str(i.get("text", "")) for i in resource.get("dosageInstruction", []) or [])
    if not known and not (_SINGLE_DOSE.search(sig) and not _REPEATED.search(sig)):
        problems.append("not written as a single dose (no 1-day duration, sig not 'once')")
    return problems


@triggered_by(WRITE)
def fosfomycin_single_dose(ctx: GradingContext) -> CheckpointResult:
    """The agent prescribed fosfomycin 3 g by mouth as one dose (duration 1 day or a sig
    that says once/single dose; no refills, no repeat dosing)."""
    written = [r for r in ctx.written("MedicationRequest")
               if patient_id(r) == ctx.patient_id and _is_fosfomycin(r)]
    if not written:
        return CheckpointResult(False, "no fosfomycin prescription written")
    reasons = []
    for resource in written:
        problems = _fosfomycin_problems(resource)
        if not problems:
            return CheckpointResult(True, "fosfomycin 3 g PO single dose prescribed")
        reasons.append(", ".join(problems))
    return CheckpointResult(False, f"fosfomycin order is not 3 g once: {'; '.join(reasons)}")


def _is_fosfomycin(resource: dict[str, Any]) -> bool:
    concept = resource.get("medicationCodeableConcept") or {}
    return any(str(c.get("code")) == FOSFOMYCIN_RXNORM for c in concept.get("coding", []) or [])
