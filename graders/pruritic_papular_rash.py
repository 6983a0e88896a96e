"""Scabies in an older man with a household cluster (dermatology e-consult from primary care).

Two branches (CDC STI Treatment Guidelines 2021, scabies): untreated classic scabies ->
permethrin 5% cream neck down (with scalp and hairline in older adults, Elimite label), washed off
after 8-14 hours, repeated in 7-14 days, or oral ivermectin 200 ug/kg repeated in 14 days; scabies
that persists after two correctly applied permethrin courses with the household treated ->
oral ivermectin 200 ug/kg, a second dose 7-14 days later. The ivermectin dose moves with weight:
200 ug/kg rounded to whole 3 mg tablets (STROMECTOL label: 51-65 kg 12 mg, 66-79 kg 15 mg,
80 kg or more 200 ug/kg); a dose of 180-250 ug/kg is accepted.
"""

from __future__ import annotations

import math
from typing import Any

TABLET_MG = 3


def ivermectin_dose_mg(weight_kg: float) -> int:
    """200 ug/kg rounded to the nearest whole 3 mg tablet."""
    return TABLET_MG * max(1, round(0.2 * weight_kg / TABLET_MG))


def scabies_case(values: dict[str, Any]) -> dict[str, Any]:
    weight = float(values["weight_kg"])
    dose = ivermectin_dose_mg(weight)
    low, high = round(0.18 * weight, 1), round(0.25 * weight, 1)
    if not low <= dose <= high:
        raise ValueError(f"ivermectin {dose} mg is outside 180-250 ug/kg at {weight} kg")
    return {
        "iver_mg": dose,
        "iver_tablets": dose // TABLET_MG,
        "iver_quantity": 2 * dose // TABLET_MG,
        "iver_low": low,
        "iver_high": high,
        "iver_tab_low": math.ceil(low / TABLET_MG),
        "iver_tab_high": math.floor(high / TABLET_MG),
        "iver_ugkg": round(dose * 1000 / weight),
        "weight_prev": round(weight + 1.6, 1),
        "ivermectin_rxnorm": "311207",
        "permethrin_rxnorm": "106387",
    }
