"""Derived expectations and note graders of gastroenterology and hepatology tasks.

FIB-4 = age (years) x AST (U/L) / (platelets (10^9/L) x sqrt(ALT (U/L))) (Sterling RK et al.,
Hepatology 2006;43:1317-1325). Risk of advanced fibrosis in MASLD: <1.3 low, 1.3-2.67
indeterminate, >2.67 high (AASLD 2023 practice guidance, Rinella ME et al., Hepatology
2023;77:1797-1835); in adults 65 or older the lower cut-off is 2.0 (McPherson S et al., Am J
Gastroenterol 2017;112:740-751).
"""

from __future__ import annotations

import math
from typing import Any


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
    """AST from the variant's FIB-4 target, then FIB-4 and its category from the rounded labs."""
    age, alt, plt = int(values["age"]), int(values["alt"]), int(values["plt"])
    ast = round(float(values["fib4_target"]) * plt * math.sqrt(alt) / age)
    value = fib4(age, ast, alt, plt)
    category = fib4_category(value, age)
    if category != "indeterminate" or not 1.4 <= value <= 2.55:
        raise ValueError(f"variant outside the task's design: FIB-4 {value:.2f} ({category})")
    levels = {"low": "level_low", "indeterminate": "level_intermediate", "high": "level_high"}
    return {"ast": ast, "fib4": round(value, 2), "fib4_category": category,
            "fib4_level": [levels[category]],
            "fib4_other_levels": [v for k, v in levels.items() if k != category]}
