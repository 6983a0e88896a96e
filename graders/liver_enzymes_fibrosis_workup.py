"""liver_enzymes_fibrosis_workup: chronic hepatitis C found through raised aminotransferases.

The variant draws a FIB-4 band (``fib4_band[risk]``) with the HCV cut-offs of Sterling 2006
(AASLD-IDSA HCV guidance): below 1.45 (low: advanced fibrosis unlikely, no HCC surveillance),
1.45-3.25 (intermediate, canonical: transient elastography to stage), above 3.25 (high:
cirrhosis presumed; HCC surveillance ultrasound every 6 months). The platelet count goes with
the band (150 or more unless the band is high); the AST follows from the drawn FIB-4 target,
the ALT and the platelets, and the FIB-4 and its category are recomputed from the rounded labs.
"""

from __future__ import annotations

import math
from typing import Any

# The variable holding each band's FIB-4 target, and the range its rounded labs must land in
# (clear of the 1.45 and 3.25 cut-offs by more than one AST rounding step).
_TARGETS = {"low": "fib4_low_target", "intermediate": "fib4_target",
            "high": "fib4_high_target"}
_DESIGN = {"low": (0.75, 1.3), "intermediate": (1.6, 3.0), "high": (3.5, 5.5)}
# The band's level; its cut-off in words ('below 1.45', 'between 1.45 and 3.25', 'above 3.25')
# is a member of it (lexicon findings.liver_enzymes_fibrosis_workup.yaml).
_LEVELS = {"low": "level_low", "intermediate": "level_intermediate", "high": "level_high"}


def fib4(age: int, ast: int, alt: int, plt: int) -> float:
    """FIB-4 = age x AST / (platelets x sqrt(ALT)) (Sterling 2006)."""
    return age * ast / (plt * math.sqrt(alt))


def hcv_fib4_category(value: float) -> str:
    """HCV cut-offs: <1.45 low, 1.45-3.25 intermediate, >3.25 high (Sterling 2006)."""
    if value < 1.45:
        return "low"
    return "intermediate" if value <= 3.25 else "high"


def liver_enzymes_fibrosis_workup(values: dict[str, Any]) -> dict[str, Any]:
    band = values["fib4_band"]
    age, alt = int(values["age"]), int(values["alt"])
    plt = int(values["plt_base"]) + int(band["plt_shift"])
    target = float(values[_TARGETS[band["risk"]]])
    ast = round(target * plt * math.sqrt(alt) / age)
    value = fib4(age, ast, alt, plt)
    category = hcv_fib4_category(value)
    lo, hi = _DESIGN[band["risk"]]
    if category != band["risk"] or not lo <= value <= hi or (category != "high") != (plt >= 150):
        raise ValueError(f"variant outside the task's design: FIB-4 {value:.2f} ({category}), "
                         f"platelets {plt}, drawn for the {band['risk']} band")
    return {"plt": plt, "ast": ast, "fib4": round(value, 2), "fib4_category": category,
            "fib4_level": [_LEVELS[category]],
            "fib4_other_levels": [v for k, v in _LEVELS.items() if k != category]}
