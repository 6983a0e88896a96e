"""Helpers shared by task graders and derive functions: drug strengths from the terminology."""

from __future__ import annotations

import re

from physbench_gym.synth import terminology

_STRENGTH = re.compile(r"(\d+(?:\.\d+)?)\s*(MG|MCG|UG)\b", re.IGNORECASE)


def strength_mcg(display: str) -> float | None:
    """The first strength in an RxNorm display, in micrograms."""
    match = _STRENGTH.search(display)
    if not match:
        return None
    value = float(match.group(1))
    return round(value * 1000, 3) if match.group(2).upper() == "MG" else value


def oral_tablets(ingredient: str) -> dict[float, str]:
    """Strength in mcg -> RxNorm code of the single-ingredient oral tablets of ``ingredient``."""
    found = {}
    for concept in terminology.all_concepts("rxnorm"):
        display = concept.display.lower()
        single = "/" not in display and "oral tablet" in display
        if single and display.startswith(ingredient.lower()):
            strength = strength_mcg(concept.display)
            if strength is not None:
                found[strength] = concept.code
    return dict(sorted(found.items()))
