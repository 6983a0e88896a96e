"""low_volume_bowel_prep: kidney function decides which bowel preparation is safe.

The kidney branch (`ckd4` or `preserved`) and the current CKD-EPI 2021 eGFR drawn for it give
the creatinine the chart shows (the race-free 2021 equation inverted for a man of the patient's
age) and the creatinine of each earlier eGFR point of the story, so labs and eGFR agree.
Thresholds: CrCl/eGFR < 30 mL/min is severe renal insufficiency, where only an isosmotic PEG
preparation is recommended (see the spec's references).
"""

from __future__ import annotations

from typing import Any

# eGFR points before today's, by story offset, for each branch (CKD-EPI 2021, mL/min/1.73 m2).
HISTORY = {
    "ckd4": {"m4y": 61, "m3y": 54, "m2y": 41, "m1y": 32, "m4m": 29},
    "preserved": {"m4y": 79, "m3y": 77, "m2y": 24, "m2y3w": 66, "m1y": 75},
}
YEARS_AGO = {"m4y": 4, "m3y": 3, "m2y": 2, "m2y3w": 2, "m1y": 1, "m4m": 0}


def egfr_2021(creatinine: float, age: int) -> float:
    """CKD-EPI 2021 creatinine equation for a man (kappa 0.9, alpha -0.302)."""
    ratio = creatinine / 0.9
    return 142 * min(ratio, 1) ** -0.302 * max(ratio, 1) ** -1.200 * 0.9938 ** age


def creatinine_for(egfr: float, age: int) -> float:
    """The creatinine (mg/dL, 2 decimals) a man of this age needs for this eGFR."""
    base = egfr / (142 * 0.9938 ** age)
    exponent = -1 / 1.200 if base <= 1 else -1 / 0.302
    return round(0.9 * base ** exponent, 2)


def low_volume_bowel_prep(values: dict[str, Any]) -> dict[str, Any]:
    branch = values["kidney"]["name"]
    age = int(values["age"])
    target = values["egfr_ckd4"] if branch == "ckd4" else values["egfr_preserved"]
    creatinine = creatinine_for(target, age)
    egfr = round(egfr_2021(creatinine, age))
    if (branch == "ckd4") != (egfr < 30):
        raise ValueError(f"eGFR {egfr} does not fit the {branch} branch")
    out: dict[str, Any] = {"egfr": egfr, "creatinine": creatinine}
    for key, value in HISTORY[branch].items():
        old_age = age - YEARS_AGO[key]
        out[f"cr_{key}"] = creatinine_for(value, old_age)
        out[f"egfr_{key}"] = round(egfr_2021(out[f"cr_{key}"], old_age))
    return out
