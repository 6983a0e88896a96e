"""Derived expectations of endocrinology tasks."""

from __future__ import annotations

from typing import Any

from physbench_graders.common import oral_tablets

# ATA 2014: for an elevated TSH on levothyroxine, step the daily dose up by 12.5-25 mcg.
STEP_MCG = (12.5, 25.0)


def thyroid_dosing(values: dict[str, Any]) -> dict[str, Any]:
    """Levothyroxine step-up for an elevated TSH: 12.5-25 mcg, a marketed tablet strength."""
    tablets = oral_tablets("levothyroxine")
    current = float(values["current_dose_mcg"])
    acceptable = [s for s in tablets if 12 <= s - current <= 25]
    lower = [s for s in tablets if s < current]
    if current not in tablets or not acceptable or not lower:
        raise ValueError(f"no levothyroxine tablets around {current} mcg in the terminology")
    prior, new = lower[-1], acceptable[0]
    # The note may name any dose 12.5-25 mcg above the current one (marketed strengths such as
    # 137 mcg that the terminology tables lack included); orders are limited to the table.
    return {
        "current_rxnorm": tablets[current],
        "prior_dose_mcg": int(prior),
        "prior_rxnorm": tablets[prior],
        "new_dose_mcg": int(new),
        "new_rxnorm": tablets[new],
        "acceptable_rxnorm": [tablets[s] for s in acceptable],
        "wrong_levothyroxine_rxnorm": [code for s, code in tablets.items()
                                       if s not in acceptable],
        # The note may name any dose 12.5-25 mcg above the current one, marketed strengths
        # such as 137 mcg that the terminology tables lack included.
        "dose_low": current + STEP_MCG[0] - 0.5,
        "dose_high": current + STEP_MCG[1] + 0.5,
    }
