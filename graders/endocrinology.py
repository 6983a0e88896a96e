"""Derived expectations of endocrinology tasks."""

from __future__ import annotations

from typing import Any

from physbench_graders.common import oral_tablets


def thyroid_dosing(values: dict[str, Any]) -> dict[str, Any]:
    """Levothyroxine step-up for an elevated TSH: 12.5-25 mcg, a marketed tablet strength."""
    tablets = oral_tablets("levothyroxine")
    current = float(values["current_dose_mcg"])
    acceptable = [s for s in tablets if 12 <= s - current <= 25]
    lower = [s for s in tablets if s < current]
    if current not in tablets or not acceptable or not lower:
        raise ValueError(f"no levothyroxine tablets around {current} mcg in the terminology")
    prior, new = lower[-1], acceptable[0]
    return {
        "current_rxnorm": tablets[current],
        "prior_dose_mcg": int(prior),
        "prior_rxnorm": tablets[prior],
        "new_dose_mcg": int(new),
        "new_rxnorm": tablets[new],
        "acceptable_rxnorm": [tablets[s] for s in acceptable],
        "dose_mid": (min(acceptable) + max(acceptable)) / 2,
        "dose_tol": (max(acceptable) - min(acceptable)) / 2 + 0.5,
    }
