"""Derived expectations and task-specific graders of nephrology and urology tasks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

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
