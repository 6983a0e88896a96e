"""Derived expectations and note graders of gastroenterology and hepatology tasks.

FIB-4 = age (years) x AST (U/L) / (platelets (10^9/L) x sqrt(ALT (U/L))) (Sterling RK et al.,
Hepatology 2006;43:1317-1325). Risk of advanced fibrosis in MASLD: <1.3 low, 1.3-2.67
indeterminate, >2.67 high (AASLD 2023 practice guidance, Rinella ME et al., Hepatology
2023;77:1797-1835); in adults 65 or older the lower cut-off is 2.0 (McPherson S et al., Am J
Gastroenterol 2017;112:740-751).
"""

from __future__ import annotations

import math
import re
from typing import Any

from physbench_gym.grading.core import (
    WRITE,
    CheckpointResult,
    GradingContext,
    triggered_by,
)


def fib4(age: float, ast: float, alt: float, platelets: float) -> float:
    """FIB-4 index; platelets in 10^9/L (= 10^3/uL)."""
    return age * ast / (platelets * math.sqrt(alt))


def fib4_category(value: float, age: float) -> str:
    """'low', 'indeterminate' or 'high' risk of advanced fibrosis."""
    low_cut = 2.0 if age >= 65 else 1.3
    if value < low_cut:
        return "low"
    if value <= 2.67:
        return "indeterminate"
    return "high"


def masld_fibrosis(values: dict[str, Any]) -> dict[str, Any]:
    """Platelets and AST from the variant's risk band, then FIB-4 and its category.

    The band (a record: the category it is drawn for and the chart facts that go with it)
    picks the FIB-4 target drawn for it; the AST follows from the rounded ALT and platelets,
    and the FIB-4 and its category are recomputed from the rounded labs. A band whose labs
    land outside its category, or within a rounding step of a cut-off, is a design error.
    """
    band = values["fib4_band"]
    age, alt = int(values["age"]), int(values["alt"])
    plt = int(values["plt_base"]) + int(band["plt_shift"])
    target = float(values[_TARGETS[band["risk"]]])
    ast = round(target * plt * math.sqrt(alt) / age)
    value = fib4(age, ast, alt, plt)
    category = fib4_category(value, age)
    lo, hi = _DESIGN[band["risk"]]
    if category != band["risk"] or not lo <= value <= hi:
        raise ValueError(f"variant outside the task's design: FIB-4 {value:.2f} ({category}) "
                         f"drawn for the {band['risk']} band")
    levels = {"low": "level_low", "indeterminate": "level_intermediate", "high": "level_high"}
    return {"plt": plt, "ast": ast, "fib4": round(value, 2), "fib4_category": category,
            "fib4_level": [levels[category]],
            "fib4_other_levels": [v for k, v in levels.items() if k != category]}


# The variable holding each band's FIB-4 target, and the FIB-4 range each band's rounded labs
# must fall in: clear of the 1.3 and 2.67 cut-offs (the patient is 54, under the age of the
# 2.0 cut-off) by more than a rounding step of the AST.
_TARGETS = {"low": "fib4_low_target", "indeterminate": "fib4_target", "high": "fib4_high_target"}
_DESIGN = {"low": (0.8, 1.2), "indeterminate": (1.4, 2.55), "high": (2.85, 3.6)}

_CLINIC = re.compile(r"hepatolog|liver (?:clinic|specialist)|gastroenterolog", re.IGNORECASE)


@triggered_by(WRITE)
def hepatology_visit_booked(ctx: GradingContext) -> CheckpointResult:
    """A hepatology clinic visit (an Appointment, booked or proposed) for the patient: the
    e-consult converted to an in-person visit. An Appointment names its patient as a
    participant, not as its subject."""
    wanted = f"Patient/{ctx.patient_id}"
    for visit in ctx.written("Appointment"):
        actors = {(p.get("actor") or {}).get("reference") for p in visit.get("participant") or []}
        if wanted in actors and visit.get("status") in ("booked", "proposed", "pending") and (
                _CLINIC.search(str(visit.get("description", "")))):
            return CheckpointResult(True, f"hepatology clinic visit: {visit.get('description')}")
    return CheckpointResult(False, "no hepatology clinic visit booked for the patient")
