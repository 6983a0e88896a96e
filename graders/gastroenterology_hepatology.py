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

from physbench_gym.grading.core import FILE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.text import (
    clauses,
    compile_terms,
    find_terms,
    is_hedged,
    is_historical,
    negated_after,
    negated_before,
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
    """AST from the variant's FIB-4 target, then FIB-4 and its category from the rounded labs."""
    age, alt, plt = int(values["age"]), int(values["alt"]), int(values["plt"])
    ast = round(float(values["fib4_target"]) * plt * math.sqrt(alt) / age)
    value = fib4(age, ast, alt, plt)
    category = fib4_category(value, age)
    if category != "indeterminate" or not 1.4 <= value <= 2.55:
        raise ValueError(f"variant outside the task's design: FIB-4 {value:.2f} ({category})")
    return {"ast": ast, "fib4": round(value, 2), "fib4_category": category}


FIB4_LABELS = ("FIB-4", "FIB4", "FIB 4", "fibrosis-4", "fibrosis 4")
_FILLER = (r"(?:index|score|calculated|calculates|today|now|currently|is|was|of|at|"
           r"approximately|approx|about|=|:|~|≈|\()")
_VALUE_AFTER = re.compile(rf"^[\s:=(~≈]*(?:{_FILLER}[\s:=(~≈]*)*(\d+(?:\.\d+)?|\.\d+)(?![\d])")
_CATEGORIES = {
    "indeterminate": ("indeterminate", "intermediate", "intermediate-risk", "indeterminate-risk"),
    "low": ("low risk", "low-risk", "low probability"),
    "high": ("high risk", "high-risk", "high probability"),
}
_NOT_A_CATEGORY = re.compile(r"^[\s-]*(?:cut[\s-]*off|cutoff|threshold|limit|boundary)")


@triggered_by(FILE)
def fib4_assessed(ctx: GradingContext) -> CheckpointResult:
    """The note states the FIB-4 from the latest labs and its risk category, and no other.

    The value is the first number after a FIB-4 label (words such as 'index', 'score', 'of',
    '=' in between are skipped), within 0.1. In the clauses that name FIB-4, the category is
    read from risk words that are not negated, not hedged and not a cut-off ('the low-risk
    cut-off of 1.3' names a threshold, not a category); a second category is a contradiction.
    Parenthetical remarks count as part of their sentence.
    """
    note = ctx.note()
    if note is None:
        return CheckpointResult(False, "no note")
    expected, category = float(ctx.values["fib4"]), str(ctx.values["fib4_category"])
    labels = compile_terms(FIB4_LABELS)
    words = {name: compile_terms(terms) for name, terms in _CATEGORIES.items()}
    values: list[float] = []
    categories: set[str] = set()
    # Parentheses are read as part of their sentence: 'FIB-4 1.89 (indeterminate)'.
    for clause in clauses(re.sub(r"[()\[\]]", ", ", note)):
        hits = find_terms(clause, labels)
        if not hits:
            continue
        past = is_historical(clause)
        current = False  # the clause states the expected value ('labs from 3 weeks ago ...')
        for hit in hits:
            after = clause[hit.end():]
            if "=" in after:  # 'FIB-4 = (54 x 50) / (198 x sqrt 52) = 1.89': the result
                after = after[after.rindex("=") + 1:]
            found = _VALUE_AFTER.match(after)
            if not found:
                continue
            close = abs(float(found.group(1)) - expected) <= 0.1 + 1e-9
            current = current or close
            if close or not past:
                values.append(float(found.group(1)))
        if (past and not current) or is_hedged(clause):
            continue
        for name, patterns in words.items():
            for match in find_terms(clause, patterns):
                if _NOT_A_CATEGORY.match(clause[match.end():]):
                    continue
                if negated_before(clause, match.start()) or negated_after(clause, match.end()):
                    continue
                categories.add(name)
    wrong = [v for v in values if abs(v - expected) > 0.1 + 1e-9]
    if wrong:
        return CheckpointResult(False, f"FIB-4 stated as {wrong[0]:g} (expected {expected:.2f})")
    if not values:
        return CheckpointResult(False, f"FIB-4 {expected:.2f} not stated")
    if categories - {category}:
        other = sorted(categories - {category})[0]
        return CheckpointResult(False, f"FIB-4 called {other} risk (expected {category})")
    if category not in categories:
        return CheckpointResult(False, f"FIB-4 category ({category}) not stated")
    return CheckpointResult(True, f"FIB-4 {expected:.2f}, {category} risk stated")
