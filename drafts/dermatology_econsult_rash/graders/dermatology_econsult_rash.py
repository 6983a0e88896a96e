"""Acute Toxicodendron (poison ivy) allergic contact dermatitis: systemic or topical
corticosteroid by extent (dermatology e-consult from primary care).

Extensive disease (more than about 20% of the body surface, or the face, eyelids or genitals)
needs oral prednisone 0.5-1 mg/kg a day (a 60 mg cap) tapered over 2-3 weeks; a 5-6 day course
such as a methylprednisolone dose pack is followed by rebound (AAFP 2010, Usatine & Riojas;
Curtis & Lewis, Ann Emerg Med 2014 RCT). Limited disease away from the face takes a high-potency
topical steroid (clobetasol 0.05% twice daily, at most 2 weeks) and no systemic steroid.
"""

from __future__ import annotations

import math
import re
from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.medications import course_days
from physbench_gym.grading.resources import frequency_per_day, patient_id, placed

PREDNISONE_RXNORM = ("312615", "312617")
MAX_START_MG = 60
COURSE_DAYS = (14, 28)


def poison_ivy_case(values: dict[str, Any]) -> dict[str, Any]:
    weight = int(values["weight_kg"])
    low = 5 * math.floor(0.5 * weight / 5)  # 0.5 mg/kg, rounded down to a 5 mg step
    extensive = values["extent"]["name"] == "extensive"
    return {
        "weight_prev": weight + 2,
        "pred_low": low,
        "pred_high": MAX_START_MG,
        "pred_range_text": f"{low}-{MAX_START_MG} mg",
        "extensive": extensive,
        "prednisone_rxnorm": list(PREDNISONE_RXNORM),
    }


def _medication(resource: dict[str, Any]) -> str:
    concept = resource.get("medicationCodeableConcept") or {}
    return " ".join([str(concept.get("text", ""))] + [
        f"{c.get('code', '')} {c.get('display', '')}" for c in concept.get("coding", []) or []])


def _dose_mg(resource: dict[str, Any]) -> float | None:
    for dosage in resource.get("dosageInstruction", []) or []:
        for rate in dosage.get("doseAndRate", []) or []:
            quantity = rate.get("doseQuantity") or {}
            unit = str(quantity.get("code") or quantity.get("unit") or "").lower()
            if "value" in quantity and unit in ("mg", "milligram", "milligrams"):
                return float(quantity["value"])
    return None


@triggered_by(WRITE)
def prednisone_taper_ordered(ctx: GradingContext) -> CheckpointResult:
    """Prednisone placed once daily (not as needed), starting at 0.5 mg/kg-60 mg, no order above
    60 mg, over a 14-28 day course in all (one taper order, or one order per step)."""
    low, high = float(ctx.values["pred_low"]), float(ctx.values["pred_high"])
    doses: list[float] = []
    total = 0.0
    for r in ctx.written("MedicationRequest"):
        name = _medication(r)
        if patient_id(r) != ctx.patient_id or not placed(r) or not (
                any(code in name for code in PREDNISONE_RXNORM) or "prednisone" in name.lower()):
            continue
        if any(d.get("asNeededBoolean") for d in r.get("dosageInstruction", []) or []):
            return CheckpointResult(False, "prednisone ordered as needed")
        dose, per_day, days = _dose_mg(r), frequency_per_day(r), course_days(r)
        if dose is None or dose > high:
            return CheckpointResult(False, f"prednisone dose {dose} mg (at most {high:g} mg)")
        if per_day is None or per_day > 1:
            return CheckpointResult(False, f"prednisone {per_day} times a day, not once daily")
        if days is None:
            return CheckpointResult(False, "prednisone order with no set course length")
        doses.append(dose)
        total += days
    if not doses:
        return CheckpointResult(False, "no prednisone ordered")
    if max(doses) < low:
        return CheckpointResult(False, f"prednisone starts at {max(doses):g} mg, below {low:g} mg")
    if not COURSE_DAYS[0] <= total <= COURSE_DAYS[1]:
        return CheckpointResult(False, f"prednisone course of {total:g} days, not a 2-3 week taper")
    return CheckpointResult(True, f"prednisone {max(doses):g} mg daily tapered over {total:g} days")


_STEP_DAYS = re.compile(r"(?:\bx|×|\bfor)\s*(\d{1,2})\s*(?:d\b|days?\b)", re.IGNORECASE)
_PREDNISONE = re.compile(r"\bprednisone\b", re.IGNORECASE)


@triggered_by(FILE)
def prednisone_steps_total(ctx: GradingContext) -> CheckpointResult:
    """A step taper written out ('60 mg x 7 days, then 40 mg x 5 days, ...') whose step lengths
    add up to 14-28 days; the paragraph holding the first prednisone step is read."""
    note = ctx.note() or ""
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+[.)])\s)", note):
        if not _PREDNISONE.search(paragraph) or "then" not in paragraph.lower():
            continue
        steps = [int(n) for n in _STEP_DAYS.findall(paragraph)]
        if len(steps) >= 2:
            total = sum(steps)
            ok = COURSE_DAYS[0] <= total <= COURSE_DAYS[1]
            return CheckpointResult(ok, f"prednisone steps add up to {total} days")
    return CheckpointResult(False, "no prednisone step taper written out")
