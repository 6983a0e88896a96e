"""symptomatic_hydrocele: the testis on the new ultrasound, kidney function and the DOAC hold.

- The scrotal ultrasound decides the procedure: a simple hydrocele with normal testes ->
  elective hydrocelectomy; a solid vascular intratesticular mass -> serum AFP, beta-hCG and LDH
  and radical inguinal orchiectomy, never aspiration, sclerotherapy, scrotal hydrocelectomy or
  trans-scrotal biopsy (AUA/SUO testicular cancer guideline 2019, amended 2023).
- Cockcroft-Gault creatinine clearance (actual body weight) and the drug decide the hold before
  a high-bleed-risk operation (PAUSE 2019; ACC 2017 periprocedural DOAC pathway; CHEST 2022):
  apixaban 2 days; dabigatran 2 days with CrCl >= 50, 4 days with CrCl 30-49 mL/min; resume
  2-3 days after; no heparin bridging.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import patient_id, placed

CPT = "http://www.ama-assn.org/go/cpt"
LOINC = "http://loinc.org"
DRUGS = {
    "dabigatran": {"display": "dabigatran (Pradaxa) 150 mg twice daily", "rxnorm": "1037045",
                   "dose": "150 mg", "names": ["dabigatran", "Pradaxa"],
                   "brand": "Pradaxa", "generic": "dabigatran etexilate"},
    "apixaban": {"display": "apixaban (Eliquis) 5 mg twice daily", "rxnorm": "1364445",
                 "dose": "5 mg", "names": ["apixaban", "Eliquis"],
                 "brand": "Eliquis", "generic": "apixaban"},
}
# Orders: (label, codes, words naming the ordered item in its code display or text).
ORCHIECTOMY = ("radical inguinal orchiectomy", [f"{CPT}|54530"],
               ["radical orchiectomy", "inguinal orchiectomy", "radical orchidectomy",
                "inguinal orchidectomy", "orchiectomy, radical"])
HYDROCELECTOMY = ("hydrocelectomy", [f"{CPT}|55040", f"{CPT}|55060"],
                  ["hydrocelectomy", "excision of hydrocele", "hydrocele excision",
                   "hydrocele repair", "repair of hydrocele"])
AFP = ("serum AFP", [f"{LOINC}|1834-1", f"{CPT}|82105"], ["alpha-fetoprotein", "alpha fetoprotein",
                                                          "afp"])
HCG = ("serum beta-hCG", [f"{LOINC}|21198-7", f"{LOINC}|19080-1", f"{CPT}|84702"],
       ["hcg", "choriogonadotropin", "chorionic gonadotropin"])
LDH = ("serum LDH", [f"{LOINC}|2532-0", f"{LOINC}|14804-9", f"{CPT}|83615"],
       ["ldh", "lactate dehydrogenase"])
# A scrotal approach to a possible testicular cancer: aspiration or sclerotherapy, scrotal
# hydrocelectomy, trans-scrotal biopsy, and simple or partial orchiectomy (AUA/SUO statement 8).
SCROTAL = ("aspiration, sclerotherapy, scrotal hydrocelectomy, testicular biopsy or a simple, "
           "partial or scrotal orchiectomy",
           [f"{CPT}|55000", f"{CPT}|55040", f"{CPT}|55041", f"{CPT}|55060", f"{CPT}|54500",
            f"{CPT}|54505", f"{CPT}|54520", f"{CPT}|54522"],
           ["aspiration", "sclerotherapy", "sclerosant", "hydrocelectomy",
            "excision of hydrocele", "biopsy", "simple orchiectomy", "orchiectomy, simple",
            "partial orchiectomy", "orchiectomy, partial", "simple orchidectomy",
            "partial orchidectomy", "scrotal orchiectomy", "testis-sparing"])
# The hydrocele and the mass are on the right: an operation on the left, or on both sides.
WRONG_SIDE = ("an operation on the left or both sides", [f"{CPT}|55041"],
              ["left hydrocel", "left-sided", "left radical", "left inguinal", "left orchi",
               "hydrocelectomy, left", "orchiectomy, left", "bilateral"])


def cockcroft_gault(age: int, weight: float, creatinine: float) -> float:
    """Creatinine clearance (mL/min), male, actual body weight."""
    return (140 - age) * weight / (72 * creatinine)


def ckd_epi_2021(creatinine: float, age: int) -> float:
    """CKD-EPI 2021 race-free creatinine equation, male (mL/min/1.73 m2)."""
    ratio = creatinine / 0.9
    return 142 * min(ratio, 1) ** -0.302 * max(ratio, 1) ** -1.2 * 0.9938 ** age


def hydrocele(values: dict[str, Any]) -> dict[str, Any]:
    age, weight = int(values["age"]), float(values["weight_kg"])
    creat = float(values["creatinine"])
    crcl = cockcroft_gault(age, weight, creat)
    # Keep clear of the 50 mL/min cut-off, where rounding or a weight read differently
    # would flip the dabigatran hold: move the creatinine so CrCl is 45 or 56.
    if 46 <= crcl < 54:
        target = 45 if crcl < 50 else 56
        creat = round((140 - age) * weight / (72 * target), 2)
        crcl = cockcroft_gault(age, weight, creat)
    if not 30 <= crcl < 130:
        raise ValueError(f"variant outside the task's design: CrCl {crcl:.0f}")
    egfr = round(ckd_epi_2021(creat, age))
    stage = "none" if egfr >= 60 else "3a" if egfr >= 45 else "3b"
    drug = values["anticoagulant"]
    long_hold = drug == "dabigatran" and crcl < 50
    hold_days = 4 if long_hold else 2
    # Longest accepted hold: one day over the interval, and for dabigatran with CrCl >= 50 up
    # to 4 days (ACC 2017 ">= 72 h" is a floor; the label and ASRA give longer before spinal
    # anesthesia).
    hold_max = 4 if drug == "dabigatran" and not long_hold else hold_days + 1
    mass = values["us_profile"] == "mass"
    orders = [ORCHIECTOMY, AFP, HCG, LDH] if mass else [HYDROCELECTOMY]
    return {
        "creatinine": creat,
        "crcl": round(crcl),
        "egfr": egfr,
        "ckd_stage": stage,
        "ckd_code": {"none": "", "3a": "700378005", "3b": "700379002"}[stage],
        "prior_creatinine": round(creat * 0.82, 2),
        "prior_egfr": round(ckd_epi_2021(round(creat * 0.82, 2), age - 2)),
        "prior_weight": round(weight + 6.5, 1),
        "drug_display": DRUGS[drug]["display"],
        "drug_rxnorm": DRUGS[drug]["rxnorm"],
        "drug_dose": DRUGS[drug]["dose"],
        "drug_names": DRUGS[drug]["names"],
        "drug_brand": DRUGS[drug]["brand"],
        "drug_generic": DRUGS[drug]["generic"],
        "hold_days": hold_days,
        "hold_hours": hold_days * 24,
        "hold_min": hold_days,
        "hold_max": hold_max,
        "kidney_text": ("kidney disease" if stage != "none"
                        else "borderline kidney function"),
        "last_dose_day": hold_days + 1,
        "hold_reason": ("dabigatran with CrCl below 50 mL/min" if long_hold else
                        "dabigatran with CrCl of 50 mL/min or more" if drug == "dabigatran"
                        else "apixaban (any CrCl of 25 mL/min or more)"),
        "required_orders": [list(o) for o in orders],
        "forbidden_orders": [list(SCROTAL), list(WRONG_SIDE)] if mass else [list(WRONG_SIDE)],
    }


def _item_text(resource: dict[str, Any]) -> str:
    """The ordered item alone: code displays and code text, not notes or reasons."""
    code = resource.get("code") or {}
    parts = [str(code.get("text", ""))] + [str(c.get("display", ""))
                                           for c in code.get("coding", []) or []]
    return " ".join(parts).lower()


def _codes(resource: dict[str, Any]) -> set[str]:
    return {f"{c.get('system')}|{c.get('code')}"
            for c in (resource.get("code") or {}).get("coding", []) or []}


def _matches(resource: dict[str, Any], codes: list[str], words: list[str]) -> bool:
    if _codes(resource) & set(codes):
        return True
    text = _item_text(resource)
    return any(word in text for word in words)


@triggered_by(WRITE)
def procedure_orders(ctx: GradingContext) -> CheckpointResult:
    """Every required order (procedure, tumor markers) placed as an active order, and no
    ServiceRequest, placed or not, for a scrotal procedure when a testicular mass is present."""
    orders = [r for r in ctx.written("ServiceRequest") if patient_id(r) == ctx.patient_id]
    for label, codes, words in ctx.values["forbidden_orders"]:
        hits = [r for r in orders if _matches(r, codes, words)]
        if hits:
            return CheckpointResult(False, f"ordered {label}: {_item_text(hits[0])[:80]}")
    missing = [label for label, codes, words in ctx.values["required_orders"]
               if not any(placed(r) and _matches(r, codes, words) for r in orders)]
    if missing:
        return CheckpointResult(False, "missing: " + ", ".join(missing))
    return CheckpointResult(True, "ordered " + ", ".join(
        o[0] for o in ctx.values["required_orders"]))
