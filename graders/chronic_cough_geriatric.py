"""Chronic cough in an 82-year-old woman: kidney function for dosing and the cause the chart shows.

Creatinine clearance by Cockcroft-Gault (female x 0.85), with actual and with ideal body weight
(Devine), sets the gabapentin band of the NEURONTIN label (section 2.4): CrCl 30-59 mL/min gives
400-1400 mg/day in 2 doses, 15-29 mL/min 200-700 mg/day once daily. The draws keep both
estimates inside one band and at least 1.5 mL/min from its edge.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.notes import read_in_context
from physbench_gym.grading.reader import COUNTERFACTUAL, FAMILY, HISTORICAL
from physbench_gym.grading.resources import patient_id

HEIGHT_CM = 155


def _crcl(age: int, weight: float, creat: float) -> float:
    return (140 - age) * weight / (72 * creat) * 0.85


def _egfr(age: int, creat: float) -> int:
    """CKD-EPI 2021 creatinine equation, female."""
    ratio = creat / 0.7
    return round(142 * min(ratio, 1) ** -0.241 * max(ratio, 1) ** -1.2 * 0.9938**age * 1.012)


def _band(crcl: float) -> str:
    return "15-29" if crcl < 30 else "30-59"


def cough_dosing(values: dict[str, Any]) -> dict[str, Any]:
    age = int(values["age"])
    weight = float(values["weight"])
    ibw = 45.5 + 2.3 * (HEIGHT_CM / 2.54 - 60)
    creat = round(0.75 + 0.05 * int(values["creat_step"]), 2)
    for _ in range(12):
        est = sorted((_crcl(age, weight, creat), _crcl(age, min(weight, ibw), creat)))
        if _band(est[0]) == _band(est[1]) and all(abs(e - 30) >= 1.5 for e in est):
            break
        creat = round(creat + 0.05, 2)
    else:
        raise ValueError(f"no creatinine near {creat} keeps the clearance in one band")
    band = _band(est[0])
    return {
        "creat": creat,
        "egfr": _egfr(age, creat),
        "crcl": round(est[1]),
        "crcl_lo": round(est[0] - 1.0, 1),
        "crcl_hi": round(est[1] + 1.0, 1),
        "gaba_band": band,
        "gaba_max_daily": 700 if band == "15-29" else 1400,
        "gaba_max_per_day": 1 if band == "15-29" else 2,
        "gaba_schedule": "once daily" if band == "15-29" else "in two divided doses",
        "height_cm": HEIGHT_CM,
        # earlier weights: steady in refractory cough (no red-flag loss); a loss since the
        # stroke in the aspiration branch, where it fits dysphagia
        "weight_2y": int(weight) + (6 if values["cause"]["name"] == "aspiration" else 1),
        "weight_1y": int(weight) + (4 if values["cause"]["name"] == "aspiration" else 1),
    }


@triggered_by(WRITE)
def one_gabapentinoid_order(ctx: GradingContext) -> CheckpointResult:
    """At most one gabapentinoid prescription in force: a second gabapentin order (or gabapentin
    beside pregabalin) doubles the renally capped daily dose."""
    names = ("gabapentin", "pregabalin", "neurontin", "lyrica", "gralise", "horizant")
    found = [
        r
        for r in ctx.written("MedicationRequest")
        if patient_id(r) == ctx.patient_id
        and r.get("status") in ("active", "draft", "on-hold")
        and any(n in _medication_text(r) for n in names)
    ]
    if len(found) > 1:
        return CheckpointResult(False, f"{len(found)} gabapentinoid orders in force (one expected)")
    return CheckpointResult(True, f"{len(found)} gabapentinoid order(s) in force")


def _medication_text(resource: dict[str, Any]) -> str:
    concept = resource.get("medicationCodeableConcept") or {}
    displays = " ".join(str(c.get("display", "")) for c in concept.get("coding", []) or [])
    return f"{displays} {concept.get('text', '')}".lower()


@triggered_by(FILE)
def no_benzonatate_regimen(ctx: GradingContext) -> CheckpointResult:
    """Benzonatate written with a dose and not turned down is offered as a regimen
    ('benzonatate 100 mg three times daily as needed is a reasonable adjunct'), even when no
    plan verb governs it."""
    text = ctx.note()
    if not text:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    for clause, mention in note.mentions("benzonatate"):
        if (
            mention.quantities
            and not mention.negated
            and mention.decision not in ("avoid", "stop")
            and not mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL)
            and not clause.reporting
        ):
            return CheckpointResult(False, f'offers a benzonatate regimen: "{clause.text[:90]}"')
    return CheckpointResult(True, "no benzonatate regimen offered")
