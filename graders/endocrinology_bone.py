"""Derived expectations of the osteoporosis task: kidney function decides the antiresorptive.

Postmenopausal osteoporosis at high (not very high) fracture risk is treated first with an oral
bisphosphonate, alendronate 70 mg once weekly (AACE/ACE 2020; Endocrine Society 2019). Oral
bisphosphonates are not recommended below a creatinine clearance / eGFR of 35 mL/min (alendronate
label; AACE/ACE 2020), nor is zoledronic acid; denosumab 60 mg subcutaneously every 6 months is
the antiresorptive then (no renal dose limit; severe hypocalcemia risk rises below eGFR 30, so
the task keeps the reduced band at 30-34 and repletes vitamin D first). Vitamin D deficiency
(25-hydroxyvitamin D < 20 ng/mL) is treated with 50,000 IU of vitamin D2 or D3 once weekly for
8 weeks (Endocrine Society 2011).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

ALENDRONATE_WEEKLY = "904431"  # alendronic acid 70 MG Oral Tablet
ALENDRONATE_DAILY = "904419"  # alendronic acid 10 MG Oral Tablet
DENOSUMAB = "993452"  # 1 ML denosumab 60 MG/ML Prefilled Syringe
ERGOCALCIFEROL = "1367410"  # ergocalciferol 1.25 MG (50,000 IU) Oral Capsule

# eGFR bands (mL/min/1.73 m2) of the two scenarios and the CKD stage on the problem list.
# Cockcroft-Gault CrCl targets (the body weight is derived to meet them) keep both kidney
# measures on the same side of 35, and in the reduced band above 30. Earlier eGFRs are higher by
# the deltas (1 and 3 years before).
SCENARIOS = {
    "ckd3a": {"egfr": (45, 54), "crcl": (38.0, 48.0), "deltas": (2.4, 4.4),
              "condition": "700378005", "stage": "3a"},
    "ckd3b": {"egfr": (30, 34), "crcl": (30.6, 34.0), "deltas": (5.4, 9.4),
              "condition": "700379002", "stage": "3b"},
}
BISPHOSPHONATE_CUTOFF = 35  # mL/min

# The antiresorptive plans a note may commit to: concept, dose (mg), administrations per day.
PLANS = {
    "denosumab": ("denosumab", 60.0, 1 / 182.6, "denosumab 60 mg every 6 months"),
    "risedronate_weekly": ("risedronate", 35.0, 1 / 7, "risedronate 35 mg once weekly"),
    "risedronate_monthly": ("risedronate", 150.0, 1 / 30.4, "risedronate 150 mg once monthly"),
    "alendronate_weekly": ("alendronate", 70.0, 1 / 7, "alendronate 70 mg once weekly"),
    "alendronate_daily": ("alendronate", 10.0, 1.0, "alendronate 10 mg daily"),
    "zoledronic_acid": ("zoledronic_acid", 5.0, 1 / 365, "zoledronic acid 5 mg IV once yearly"),
}
ACCEPTED_PLANS = {"ckd3b": ("denosumab", "risedronate_weekly", "risedronate_monthly"),
                  "ckd3a": tuple(PLANS)}


def _plan_option(key: str) -> dict[str, Any]:
    concept, dose, per_day, label = PLANS[key]
    return {"note_decision": {"concept": [concept], "action": ["start"],
                              "dose": {"value": dose, "tolerance": 0.01, "unit": "mg"},
                              "every": {"min": per_day, "max": per_day}, "label": label}}


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 (race-free) eGFR in mL/min/1.73 m2 from serum creatinine (mg/dL)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    value = 142 * min(ratio, 1.0) ** alpha * max(ratio, 1.0) ** -1.200 * 0.9938 ** age
    return value * (1.012 if female else 1.0)


def creatinine_for(egfr: float, age: int) -> float:
    """The serum creatinine (mg/dL, above 0.7) at which a woman of ``age`` has ``egfr``."""
    return 0.7 * (egfr / (142 * 1.012 * 0.9938 ** age)) ** (-1 / 1.200)


def cockcroft_gault(age: int, weight_kg: float, creatinine: float, female: bool) -> float:
    """Creatinine clearance (mL/min) by Cockcroft-Gault with actual body weight."""
    value = (140 - age) * weight_kg / (72 * creatinine)
    return value * 0.85 if female else value


def rxnorm_codes(drug_class: str) -> list[str]:
    """RxNorm codes of every product of a drug class in the terminology tables."""
    return sorted(c.code for c in terminology.all_concepts("rxnorm")
                  if c.extra.get("drug_class", "").lower() == drug_class.lower())


def _order(codes: list[str], dose: tuple[float, float, str], label: str,
           per_day: tuple[float, float] | None = None,
           route: list[str] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "resource_type": "MedicationRequest", "codes": codes,
        "status": ["active", "draft", "on-hold"], "intent": ["order"],
        "dose": {"min": dose[0], "max": dose[1], "unit": dose[2]}, "label": label}
    if per_day is not None:
        spec["per_day"] = {"min": per_day[0], "max": per_day[1]}
    if route:
        spec["route"] = route
    return {"ordered": spec}


WEEK = (0.14, 0.145)  # administrations per day of a once-weekly schedule
TABLET_UNITS = ("tablet", "tablets", "tab", "tabs", "{tablet}", "{tbl}")
CAPSULE_UNITS = ("capsule", "capsules", "cap", "caps", "{capsule}", "{cap}")
IU_UNITS = ("IU", "units", "unit", "[iU]", "U", "international units")


def vitamin_d_options() -> list[dict[str, Any]]:
    """Ergocalciferol 50,000 IU once weekly, written in IU, mg (1.25) or capsules."""
    label = "ergocalciferol 50,000 IU once weekly"
    options = [_order([ERGOCALCIFEROL], (50_000, 50_000, unit), label, WEEK)
               for unit in IU_UNITS]
    options.append(_order([ERGOCALCIFEROL], (1.25, 1.25, "mg"), label, WEEK))
    options.append(_order([ERGOCALCIFEROL], (1250, 1250, "mcg"), label, WEEK))
    options += [_order([ERGOCALCIFEROL], (1, 1, unit), label, WEEK) for unit in CAPSULE_UNITS]
    return options


def antiresorptive_options(drug: str) -> list[dict[str, Any]]:
    """Orders that count as the chosen antiresorptive at its labeled dose and schedule."""
    if drug == "alendronate":
        weekly = "alendronate 70 mg once weekly"
        daily = "alendronate 10 mg once daily"
        options = [_order([ALENDRONATE_WEEKLY], (70, 70, "mg"), weekly, WEEK)]
        options += [_order([ALENDRONATE_WEEKLY], (1, 1, u), weekly, WEEK) for u in TABLET_UNITS]
        options.append(_order([ALENDRONATE_DAILY], (10, 10, "mg"), daily, (1, 1)))
        options += [_order([ALENDRONATE_DAILY], (1, 1, u), daily, (1, 1)) for u in TABLET_UNITS]
        return options
    label = "denosumab 60 mg subcutaneously"
    route = ["34206005", "subcutaneous"]
    options = [_order([DENOSUMAB], (60, 60, "mg"), label, route=route)]
    options += [_order([DENOSUMAB], (1, 1, unit), label, route=route)
                for unit in ("mL", "ml", "syringe", "syringes", "{syringe}", "injection",
                             "{injection}")]
    return options


def osteoporosis_plan(values: dict[str, Any]) -> dict[str, Any]:
    """Kidney function, vitamin D status and the antiresorptive that follows from them."""
    scenario = SCENARIOS[values["scenario"]]
    age = int(values["age"])
    low, high = scenario["egfr"]
    target = low + 0.4 + (high - low - 0.8) * float(values["egfr_draw"])
    creatinine = round(creatinine_for(target, age), 2)
    egfr = round(ckd_epi_2021(creatinine, age, True))
    crcl_low, crcl_high = scenario["crcl"]
    crcl_target = crcl_low + (crcl_high - crcl_low) * float(values["crcl_draw"])
    weight = round(crcl_target * 72 * creatinine / ((140 - age) * 0.85))
    crcl = cockcroft_gault(age, weight, creatinine, True)
    if not low <= egfr <= high:
        raise ValueError(f"eGFR {egfr} outside the scenario band {scenario['egfr']}")
    if not 50 <= weight <= 85:
        raise ValueError(f"implausible body weight {weight} kg")
    reduced = egfr < BISPHOSPHONATE_CUTOFF
    if reduced != (crcl < BISPHOSPHONATE_CUTOFF) or crcl < 30:
        raise ValueError(f"eGFR {egfr} and CrCl {crcl:.0f} disagree about the 30-35 band")
    delta_1y, delta_3y = scenario["deltas"]
    creatinine_1y = round(creatinine_for(egfr + delta_1y, age - 1), 2)
    creatinine_3y = round(creatinine_for(egfr + delta_3y, age - 3), 2)
    egfr_1y = round(ckd_epi_2021(creatinine_1y, age - 1, True))
    if reduced and egfr_1y < BISPHOSPHONATE_CUTOFF:
        raise ValueError("last year's eGFR should still be above the cutoff (the distractor)")
    spine_t, fn_t = float(values["spine_t"]), float(values["fn_t"])
    if not -3.0 < spine_t <= -2.5 or fn_t <= spine_t:
        raise ValueError("the lumbar spine must be the lowest T-score, in (-3.0, -2.5]")
    vitd = float(values["vitd"])
    if vitd >= 20:
        raise ValueError("the task needs vitamin D deficiency (< 20 ng/mL)")
    if reduced:
        drug = {
            "drug": "denosumab", "drug_rxnorm": DENOSUMAB,
            "dose_mg": 60, "interval_text": "every 6 months",
            "route_text": "subcutaneously", "drug_display": "denosumab (Prolia) 60 mg/mL",
            # Either class statement, and neither drug offered now (a plan for when the
            # kidney function allows it is fine).
            "choice_options": [{"all": {"of": [
                {"any": {"of": [
                    {"note_decision": {"concept": ["alendronate", "zoledronic_acid"],
                                       "action": ["avoid"], "label": "avoid alendronate and "
                                       "zoledronic acid"}},
                    {"note_decision": {"concept": ["bisphosphonate"], "action": ["avoid"],
                                       "label": "avoid bisphosphonates"}}]}},
                {"note_never": {"concept": ["alendronate", "zoledronic_acid"],
                                "allow_contingency": True,
                                "contingency_on": ["egfr", "crcl", "creatinine"],
                                "label": "no alendronate or zoledronic acid at this eGFR"}}]}}],
            "choice_label": ("avoid alendronate and zoledronic acid (not for CrCl below 35 "
                             "mL/min); denosumab, or risedronate (labeled to CrCl 30), is safe"),
            "accepted_text": ("denosumab 60 mg subcutaneously every 6 months, or risedronate "
                              "35 mg once weekly (or 150 mg once monthly)"),
            "avoided_text": "alendronate, zoledronic acid or a second antiresorptive",
            "wrong_class": "bisphosphonate", "wrong_rxnorm": rxnorm_codes("bisphosphonate"),
            "ar_route": "subcutaneous", "ar_frequency": None, "ar_quantity": 1,
            "ar_refills": 1,
            "ar_sig": ("Inject 60 mg subcutaneously once every 6 months. Give the first dose "
                       "after the 8-week vitamin D course, with a normal serum calcium."),
            "plan_line": ("Start denosumab (Prolia) 60 mg subcutaneously every 6 months, first "
                          "injection after the 8-week vitamin D course with a normal calcium "
                          "(prescription entered). Oral bisphosphonates and zoledronic acid are "
                          "avoided at this eGFR. Injections continue on schedule, every 6 "
                          "months without gaps."),
            "choice_text": ("Oral bisphosphonates are not recommended at an eGFR below 35 "
                            "(alendronate label: not for CrCl < 35 mL/min), and zoledronic "
                            "acid is contraindicated; denosumab has no renal dose limit and "
                            "her eGFR is above 30."),
        }
    else:
        drug = {
            "drug": "alendronate", "drug_rxnorm": ALENDRONATE_WEEKLY,
            "dose_mg": 70, "interval_text": "once weekly",
            "route_text": "by mouth", "drug_display": "alendronate 70 mg tablet",
            "choice_options": [
                {"note_decision": {"concept": ["bisphosphonate"], "action": ["start"],
                                   "label": "an oral bisphosphonate is appropriate"}}],
            "choice_label": ("an oral bisphosphonate is appropriate (eGFR 35 or more, no "
                             "esophageal disorder)"),
            "accepted_text": ("alendronate 70 mg once weekly, risedronate 35 mg once weekly "
                              "(or 150 mg once monthly), zoledronic acid 5 mg IV once yearly, "
                              "or denosumab 60 mg subcutaneously every 6 months"),
            "avoided_text": "two antiresorptives together",
            "wrong_class": "second antiresorptive",
            "wrong_rxnorm": rxnorm_codes("RANK ligand inhibitor") + ["1114085"],
            "ar_route": "oral", "ar_frequency": 1, "ar_quantity": 12, "ar_refills": 3,
            "ar_sig": ("Take 1 tablet (70 mg) by mouth once weekly on rising, with a full glass "
                       "of plain water, 30 minutes before food or other medicines; stay upright "
                       "for 30 minutes. Start after the 8-week vitamin D course."),
            "plan_line": ("Start alendronate 70 mg by mouth once weekly after the 8-week vitamin "
                          "D course, taken fasting with a full glass of water and upright for 30 "
                          "minutes (prescription entered); treat for 5 years, then reassess."),
            "choice_text": ("Her eGFR is above 35 and she has no esophageal disorder and can "
                            "stay upright, so an oral bisphosphonate is appropriate first-line "
                            "therapy; alendronate is recommended."),
        }
    return {
        **drug,
        "antiresorptive_plan_options": [_plan_option(k)
                                        for k in ACCEPTED_PLANS[values["scenario"]]],
        "antiresorptive_options": antiresorptive_options(drug["drug"]),
        "vitamin_d_options": vitamin_d_options(),
        "ckd_condition": scenario["condition"],
        "ckd_stage": scenario["stage"],
        "creatinine": creatinine,
        "creatinine_1y": creatinine_1y,
        "creatinine_3y": creatinine_3y,
        "egfr": egfr,
        "egfr_1y": egfr_1y,
        "egfr_3y": round(ckd_epi_2021(creatinine_3y, age - 3, True)),
        "crcl": round(crcl, 1),
        "crcl_int": round(crcl),
        "spine_t_abs": abs(spine_t),
        "th_t": round(fn_t + 0.3, 1),
        "spine_bmd": round(1.047 + 0.11 * spine_t, 3),
        "fn_bmd": round(0.858 + 0.12 * fn_t, 3),
        "old_spine_t": round(spine_t + 0.7, 1),
        "old_fn_t": round(fn_t + 0.4, 1),
        "weight_kg": weight,
        "weight_1y": weight + 1,
        "bmi": round(weight / 1.60 ** 2, 1),
        "corrected_calcium": round(float(values["calcium"]) + 0.8 * (4.0 - float(
            values["albumin"])), 1),
    }
