"""Derived expectations and task-specific graders of nephrology and urology tasks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_graders.immunology_infectious_disease import finding_stated

from physbench_gym.grading.core import FILE, CheckpointResult, GradingContext, triggered_by

GLUCOSE_MG_DL = 96  # the hyponatremia patient's fasting glucose on the work-up day
BUN_MG_DL = 9


def siadh_labs(values: dict[str, Any]) -> dict[str, Any]:
    """Serum osmolality and the earlier sodium values of the SIADH work-up.

    Measured serum osmolality is the calculated one (2 Na + glucose/18 + BUN/2.8) plus a
    small osmolal gap, so it stays below 275 mOsm/kg for every sodium in the range; urine
    osmolality > 100 mOsm/kg and urine sodium > 30 mmol/L hold by the variable ranges.
    """
    sodium, now = int(values["na"]), values["now"]
    calculated = 2 * sodium + GLUCOSE_MG_DL / 18 + BUN_MG_DL / 2.8
    serum_osm = int(round(calculated + 3))
    if not (serum_osm < 275 and int(values["uosm"]) > 100 and int(values["una"]) > 30):
        raise ValueError("variant leaves the SIADH criteria")
    return {
        "sosm": serum_osm,
        "sosm_calc": round(calculated),
        "na_6w": sodium + 4,
        "na_3w": sodium + 2,
        "weight_5m": int(values["weight_kg"]) + 1,
        "notes_since": (now - timedelta(days=200)).date().isoformat(),
        "ed_visit_before": (now - timedelta(days=3 * 365 - 60)).date().isoformat(),
        "recheck_date": (now + timedelta(days=2)).date().isoformat(),
    }


SIADH_TERMS = (
    "SIADH", "SIAD", "syndrome of inappropriate antidiuretic hormone",
    "syndrome of inappropriate antidiuresis", "inappropriate antidiuretic hormone",
    "inappropriate ADH", "inappropriate antidiuresis",
)
EUVOLEMIA_TERMS = ("euvolemic", "euvolaemic", "euvolemia", "euvolaemia", "normovolemic",
                   "clinically euvolemic", "euvolemic hyponatremia")
_SSRI = r"(?:sertraline|zoloft|ssris?|selective serotonin reuptake inhibitors?)"
SSRI_CAUSE_TERMS = (
    rf"re:\b{_SSRI}\b[\w\s,()-]{{0,40}}\b(?:induced|associated|related|caused|causing|cause|"
    r"culprit|trigger|likely|probable|responsible|precipitant|precipitating|contributor|"
    r"contributing|etiology|aetiology)\b",
    rf"re:\b(?:due to|secondary to|caused by|from|associated with|induced by|related to|"
    rf"attributed to|attributable to|because of|triggered by)\b[\w\s,-]{{0,20}}\b{_SSRI}\b",
    rf"re:\b{_SSRI}[\s-]*(?:induced|associated|related)\b",
    rf"re:\b(?:cause|culprit|etiology|aetiology|trigger|precipitant)\b[\w\s,:-]{{0,20}}\b{_SSRI}\b",
)


@triggered_by(FILE)
def siadh_cause_stated(ctx: GradingContext) -> CheckpointResult:
    """The note diagnoses SIADH in a euvolemic patient and attributes it to the SSRI
    (sertraline), and denies none of these."""
    note = ctx.note()
    if note is None:
        return CheckpointResult(False, "no note")
    missing = []
    for label, terms in (("SIADH", SIADH_TERMS), ("euvolemia", EUVOLEMIA_TERMS),
                         ("SSRI (sertraline) as the cause", SSRI_CAUSE_TERMS)):
        affirmed, denied = finding_stated(note, terms)
        if denied:
            return CheckpointResult(False, f"denies '{label}': \"{denied[:90]}\"")
        if not affirmed:
            missing.append(label)
    if missing:
        return CheckpointResult(False, f"does not state {', '.join(missing)}")
    return CheckpointResult(True, "states euvolemic SIADH attributed to sertraline")
