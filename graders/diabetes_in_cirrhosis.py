"""diabetes_in_cirrhosis: Child-Pugh score and class, kidney function and the regimen they allow.

Child-Pugh (Pugh RNH et al., Br J Surg 1973): bilirubin <2 / 2-3 / >3 mg/dL, albumin >3.5 /
2.8-3.5 / <2.8 g/dL, INR <1.7 / 1.7-2.3 / >2.3, ascites none / mild (diuretic-controlled) /
moderate-severe (refractory, paracentesis), encephalopathy none / grade 1-2 (controlled on
medication) / grade 3-4, 1-3 points each; A 5-6, B 7-9, C 10-15.
Regimen (ADA Standards of Care 2025, sections 4 and 9; AASLD MASLD guidance 2023; metformin
label): decompensated cirrhosis (ascites, encephalopathy; Child-Pugh B-C) -> stop metformin,
basal insulin; compensated Child-Pugh A with eGFR >= 45 -> metformin continues; eGFR < 30 ->
metformin contraindicated. Every branch stops the sulfonylurea (hypoglycemia on glipizide).
"""

from __future__ import annotations

import math
from typing import Any

# Profile -> (bilirubin mg/dL, albumin g/dL, INR, eGFR) ranges, ascites and HE points, metformin.
PROFILES: dict[str, dict[str, Any]] = {
    "child_c": {"bili": (2.2, 4.6), "alb": (2.3, 3.0), "inr": (1.5, 2.2), "egfr": (45, 75),
                "ascites": 3, "he": 2, "metformin": "stop"},
    "child_b": {"bili": (1.3, 2.8), "alb": (2.9, 3.4), "inr": (1.2, 1.6), "egfr": (50, 85),
                "ascites": 2, "he": 1, "metformin": "stop"},
    "child_a": {"bili": (0.7, 1.8), "alb": (3.3, 4.1), "inr": (1.0, 1.5), "egfr": (62, 88),
                "ascites": 1, "he": 1, "metformin": "continue"},
    "child_a_ckd": {"bili": (0.7, 1.8), "alb": (3.3, 4.1), "inr": (1.0, 1.5), "egfr": (20, 28),
                    "ascites": 1, "he": 1, "metformin": "stop"},
}
# The hepatology note of 7 months ago (stale): bilirubin, albumin, INR, score, class.
OLD = {"child_c": (2.1, 3.1, 1.4, 8, "B"), "child_b": (1.4, 3.6, 1.2, 5, "A"),
       "child_a": (0.9, 4.0, 1.1, 5, "A"), "child_a_ckd": (0.9, 4.0, 1.1, 5, "A")}
STOP_REASON = {"child_c": "decompensated Child-Pugh C cirrhosis",
               "child_b": "decompensated cirrhosis with ascites",
               "child_a_ckd": "eGFR below 30 mL/min/1.73 m2"}
CLASSES = {"A": "child_pugh_a", "B": "child_pugh_b", "C": "child_pugh_c"}
GLARGINE = ["847230"]
# Compensated cirrhosis: a GLP-1 RA at its labelled starting dose and interval (per day) may
# replace glipizide instead of insulin - OZEMPIC PI 2.1 (0.25 mg weekly), TRULICITY PI 2.1
# (0.75 mg weekly), VICTOZA PI 2.1 (0.6 mg daily), MOUNJARO PI 2.1 (2.5 mg weekly; no orderable).
WEEKLY, DAILY = {"min": 0.14, "max": 0.15}, {"min": 1, "max": 1}
GLP1_STARTS = [("semaglutide", ["1991306"], 0.25, WEEKLY, "weekly"),
               ("dulaglutide", ["1551295"], 0.75, WEEKLY, "weekly"),
               ("liraglutide", ["897122"], 0.6, DAILY, "daily"),
               ("tirzepatide", [], 2.5, WEEKLY, "weekly")]
SULFONYLUREAS = ["glipizide", "glyburide", "glimepiride", "glibenclamide", "gliclazide"]
TZDS = ["pioglitazone", "rosiglitazone"]


def _points(bili: float, alb: float, inr: float) -> tuple[int, int, int]:
    return (1 if bili < 2 else 2 if bili <= 3 else 3,
            1 if alb > 3.5 else 2 if alb >= 2.8 else 3,
            1 if inr < 1.7 else 2 if inr <= 2.3 else 3)


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 race-free creatinine equation (mL/min/1.73 m2)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return (142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
            * (1.012 if female else 1.0))


def _glargine_orders(lo: int, hi: int) -> list[dict[str, Any]]:
    return [{"ordered": {
        "resource_type": "MedicationRequest", "codes": GLARGINE, "status": ["active"],
        "intent": ["order"], "dose": {"min": lo, "max": hi, "unit": unit},
        "per_day": {"min": 1, "max": 1}, "label": f"insulin glargine {lo}-{hi} units once daily"}}
        for unit in ("units", "[iU]")]


def derive(values: dict[str, Any]) -> dict[str, Any]:
    name = values["liver"]["name"]
    p = PROFILES[name]
    age, female = int(values["age"]), values["gender"] == "female"

    def pick(key: str, u: float, digits: int = 1) -> float:
        lo, hi = p[key]
        return round(lo + float(u) * (hi - lo), digits)

    bili, alb, inr = pick("bili", values["bili_u"]), pick("alb", values["alb_u"]), \
        pick("inr", values["inr_u"])
    score = sum(_points(bili, alb, inr)) + p["ascites"] + p["he"]
    cls = "A" if score <= 6 else "B" if score <= 9 else "C"
    if cls != {"child_c": "C", "child_b": "B"}.get(name, "A"):
        raise ValueError(f"variant outside the task's design: {name} scores {score}")
    # Creatinine from the target eGFR (above kappa), rounded as a lab reports it.
    target = pick("egfr", values["egfr_u"], 0)
    base = 142 * 0.9938 ** age * (1.012 if female else 1.0)
    creat = round((0.7 if female else 0.9) * (target / base) ** (-1 / 1.2), 2)
    egfr = round(ckd_epi_2021(creat, age, female))
    weight = int(values["weight_kg"])
    # ADA 2025 section 9 / LANTUS label: start 10 units a day or 0.1-0.2 units/kg a day.
    dose_lo, dose_hi = min(math.floor(0.1 * weight), 10), max(math.ceil(0.2 * weight), 10)
    stop_metformin = p["metformin"] == "stop"
    decompensated = name in ("child_c", "child_b")
    options = _glargine_orders(dose_lo, dose_hi)
    glp1_notes = []
    if not decompensated:   # compensated: a GLP-1 RA start is an accepted alternative
        for drug, codes, mg, every, when in GLP1_STARTS:
            label = f"{drug} {mg:g} mg {when}"
            glp1_notes.append({"note_decision": {
                "concept": [drug], "action": ["start"], "every": every, "label": label,
                "dose": {"min": mg, "max": mg, "unit": "mg"}}})
            if codes:
                options.append({"ordered": {
                    "resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
                    "intent": ["order"], "dose": {"min": mg, "max": mg, "unit": "mg"},
                    "per_day": every, "label": label}})
    forbidden = SULFONYLUREAS + (TZDS if decompensated else []) + \
        (["metformin"] if stop_metformin else [])
    old = OLD[name]
    old_creat = round(creat * (0.62 if name == "child_a_ckd" else 0.9), 2)
    return {
        "old_bili": old[0], "old_alb": old[1], "old_inr": old[2], "old_score": old[3],
        "old_class": old[4], "old_creatinine": old_creat,
        "old_egfr": round(ckd_epi_2021(old_creat, age - 1, female)),
        "old_weight": weight + (6 if name == "child_c" else 2),
        "sodium": 131 if name == "child_c" else 135,
        "stop_reason": STOP_REASON.get(name, ""),
        "metformin_order_text": ", and no new metformin order" if stop_metformin else "",
        "profile": name, "bilirubin": bili, "albumin": alb, "inr": inr,
        "cp_points": list(_points(bili, alb, inr)), "child_pugh": score, "child_class": cls,
        "class_concept": [CLASSES[cls]],
        "other_class_concepts": [v for k, v in CLASSES.items() if k != cls],
        "creatinine": creat, "egfr": egfr, "weight_kg": weight,
        "dose_lo": dose_lo, "dose_hi": dose_hi, "glargine_units": round(0.1 * weight),
        "metformin_action": p["metformin"], "decompensated": decompensated,
        "order_options": options, "glp1_note_options": glp1_notes,
        "forbidden_names": forbidden, "insulin_dose_above": dose_hi + 0.5,
        "forbidden_concepts": ["sulfonylurea"] + (["tzd"] if decompensated else []),
        "start_concepts": ["insulin"] if decompensated else ["insulin", "glp1_ra"],
    }
