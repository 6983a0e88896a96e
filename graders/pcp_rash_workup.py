"""Acute thoracic herpes zoster in an older woman with diabetes: valacyclovir dosed by kidney
function (dermatology e-consult from primary care).

VALTREX label, section 2.5 Table 3 (herpes zoster, 1 g every 8 hours for 7 days with normal
kidney function): Cockcroft-Gault CrCl 30-49 mL/min -> 1 g every 12 hours; 10-29 -> 1 g every
24 hours. The creatinine of each kidney branch is drawn so that the clearance lies inside one
band with both actual and ideal body weight (the chart's weight is always above the ideal).
"""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.medications import course_days
from physbench_gym.grading.resources import frequency_per_day, patient_id, placed

HEIGHT_CM = 160
IBW_KG = 45.5 + 2.3 * (HEIGHT_CM / 2.54 - 60)  # Devine, women

# band name -> (creatinine variable, doses a day, schedule words)
BANDS = {
    "normal": ("creatinine_normal", 3, "every 8 hours (three times daily)"),
    "moderate": ("creatinine_moderate", 2, "every 12 hours (twice daily)"),
    "severe": ("creatinine_severe", 1, "every 24 hours (once daily)"),
}
# What the antiviral checkpoint asks for in each band (its description and rubric).
ADVICE = {
    "normal": "confirms the PCP's valacyclovir 1 g every 8 hours (three times daily) for 7 days -"
              " no renal adjustment is needed at a CrCl of 50 mL/min or more",
    "moderate": "lowers the PCP's proposed 1 g three times daily to valacyclovir 1 g every 12 hours"
                " (twice daily) for 7 days, the label dose for a CrCl of 30-49 mL/min",
    "severe": "lowers the PCP's proposed 1 g three times daily to valacyclovir 1 g every 24 hours"
              " (once daily) for 7 days, the label dose for a CrCl of 10-29 mL/min",
}


def kidney_stage(egfr: float) -> str:
    """KDIGO 2024 GFR category of the charted eGFR (CKD-EPI 2021); a CrCl is no GFR category."""
    if egfr >= 60:
        return f"eGFR {egfr:.0f}, no renal dose adjustment needed"
    category = "G3a" if egfr >= 45 else "G3b" if egfr >= 30 else "G4" if egfr >= 15 else "G5"
    return f"eGFR {egfr:.0f}, CKD {category}"
LIMITS = {"normal": (50, 1000), "moderate": (30, 50), "severe": (10, 30)}


def cockcroft_gault(age: int, weight_kg: float, creatinine: float) -> float:
    """Women: (140 - age) x weight / (72 x creatinine) x 0.85."""
    return (140 - age) * weight_kg / (72 * creatinine) * 0.85


def ckd_epi_2021(age: int, creatinine: float) -> float:
    """Race-free CKD-EPI 2021 creatinine equation, women."""
    ratio = creatinine / 0.7
    return 142 * min(ratio, 1) ** -0.241 * max(ratio, 1) ** -1.2 * 0.9938 ** age * 1.012


def zoster_case(values: dict[str, Any]) -> dict[str, Any]:
    band = str(values["kidney"])
    variable, per_day, schedule = BANDS[band]
    creatinine = float(values[variable])
    age, weight = int(values["age"]), float(values["weight_kg"])
    actual = cockcroft_gault(age, weight, creatinine)
    ideal = cockcroft_gault(age, IBW_KG, creatinine)
    low, high = LIMITS[band]
    if not (low <= ideal and actual < high):
        raise ValueError(f"CrCl {ideal:.0f}-{actual:.0f} mL/min leaves the {band} band")
    accept_low, accept_high = ideal - 2, actual + 3
    daily = per_day * 1000
    egfr = round(ckd_epi_2021(age, creatinine))
    return {
        "creatinine": creatinine,
        "egfr": egfr,
        "creatinine_prev": round(creatinine * 0.92, 2),
        "egfr_prev": round(ckd_epi_2021(age, round(creatinine * 0.92, 2))),
        "weight_last_year": round(weight + 2.4, 1),
        "crcl": round(actual),
        "crcl_ibw": round(ideal),
        "crcl_mid": round((accept_low + accept_high) / 2, 1),
        "crcl_tol": round((accept_high - accept_low) / 2, 1),
        "crcl_low": round(accept_low),
        "crcl_high": round(accept_high),
        "per_day": per_day,
        "quantity": per_day * 7,
        "daily_mg": daily,
        "schedule": schedule,
        "kidney_stage": kidney_stage(egfr),
        "antiviral_advice": ADVICE[band],
        "valacyclovir_rxnorm": "313564",
    }


VALACYCLOVIR = re.compile(r"valacyclovir|valaciclovir|valtrex|\b313564\b", re.IGNORECASE)


def _medication(resource: dict[str, Any]) -> str:
    concept = resource.get("medicationCodeableConcept") or {}
    return " ".join([str(concept.get("text", ""))] + [
        f"{c.get('code', '')} {c.get('display', '')}" for c in concept.get("coding", []) or []])


@triggered_by(WRITE)
def valacyclovir_course(ctx: GradingContext) -> CheckpointResult:
    """Every valacyclovir order placed is a scheduled (not PRN) 7-day course with no refills
    (VALTREX label 2.2: herpes zoster, 7 days), by its duration or else its tablet count; a
    month's supply or an open-ended course fails."""
    seen = 0
    for r in ctx.written("MedicationRequest"):
        if patient_id(r) != ctx.patient_id or not placed(r) or not VALACYCLOVIR.search(
                _medication(r)):
            continue
        seen += 1
        prn = any(d.get("asNeededBoolean") or d.get("asNeededCodeableConcept")
                  for d in r.get("dosageInstruction", []) or [])
        refills = int((r.get("dispenseRequest") or {}).get("numberOfRepeatsAllowed") or 0)
        days = course_days(r)
        quantity = ((r.get("dispenseRequest") or {}).get("quantity") or {}).get("value")
        per_day = frequency_per_day(r)
        if days is None and quantity and per_day:  # '#14, no refills' of 1 g tablets, q12h
            days = float(quantity) / per_day
        if prn:
            return CheckpointResult(False, "valacyclovir ordered as needed")
        if refills:
            return CheckpointResult(False, f"valacyclovir ordered with {refills} refill(s)")
        if days is None or round(days) != 7:
            return CheckpointResult(False, "valacyclovir course of "
                                    + (f"{days:g} days" if days else "no set length"))
    if not seen:
        return CheckpointResult(False, "no valacyclovir ordered")
    return CheckpointResult(True, "valacyclovir ordered as a scheduled 7-day course")
