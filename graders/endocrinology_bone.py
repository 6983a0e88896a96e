"""Derived expectations of the osteoporosis task: kidney function decides the antiresorptive.

Postmenopausal osteoporosis at high (not very high) fracture risk is treated first with a
bisphosphonate (alendronate, risedronate, ibandronate or zoledronic acid) or denosumab
(AACE/ACE 2020; Endocrine Society 2019). The renal cutoffs are drug-specific: alendronate is not
recommended below a creatinine clearance of 35 mL/min (FOSAMAX PI 8.6) and zoledronic acid is
contraindicated below 35 (RECLAST PI 4), while risedronate and ibandronate are not recommended
only below 30 (ACTONEL PI 8.6, BONIVA PI 8.6). Denosumab 60 mg subcutaneously every 6 months has
no renal dose limit (severe hypocalcemia risk rises below eGFR 30, so the task keeps the reduced
band at 30-34 and repletes vitamin D first). So at CrCl 30-34 alendronate and zoledronic acid
are avoided and denosumab, risedronate or ibandronate is given; at 35 or more any of them. Vitamin
D deficiency (25-hydroxyvitamin D < 20 ng/mL) is treated with 50,000 IU of vitamin D2 or D3 once
weekly for 8 weeks, or 6,000 IU daily, then maintenance 1,500-2,000 IU daily (Endocrine Society
2011).
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
# mL/min: alendronate (not recommended) and zoledronic acid (contraindicated) below it
BISPHOSPHONATE_CUTOFF = 35
ORAL_CUTOFF = 30  # mL/min: risedronate and ibandronate are not recommended below it
RISEDRONATE = "905024"  # risedronate sodium 35 MG Oral Tablet
IBANDRONATE = "904932"  # ibandronic acid 150 MG Oral Tablet
ZOLEDRONIC_ACID = "1114085"  # 100 ML zoledronic acid injection

# The antiresorptive plans a note may commit to: concept, dose (mg), administrations per day.
PLANS = {
    "denosumab": ("denosumab", 60.0, 1 / 182.6, "denosumab 60 mg every 6 months"),
    "risedronate_weekly": ("risedronate", 35.0, 1 / 7, "risedronate 35 mg once weekly"),
    "risedronate_monthly": ("risedronate", 150.0, 1 / 30.4, "risedronate 150 mg once monthly"),
    "alendronate_weekly": ("alendronate", 70.0, 1 / 7, "alendronate 70 mg once weekly"),
    "alendronate_daily": ("alendronate", 10.0, 1.0, "alendronate 10 mg daily"),
    "zoledronic_acid": ("zoledronic_acid", 5.0, 1 / 365, "zoledronic acid 5 mg IV once yearly"),
    "ibandronate_monthly": ("ibandronate", 150.0, 1 / 30.4, "ibandronate 150 mg once monthly"),
}
ACCEPTED_PLANS = {"ckd3b": ("denosumab", "risedronate_weekly", "risedronate_monthly",
                            "ibandronate_monthly"),
                  "ckd3a": tuple(PLANS)}


def _plan_option(key: str) -> dict[str, Any]:
    """One antiresorptive at its labeled dose and schedule, and no second one started beside
    it (an alternative behind a trigger is fine)."""
    concept, dose, per_day, label = PLANS[key]
    others = sorted({c for c, *_ in PLANS.values()} - {concept})
    return {"all": {"of": [
        {"note_decision": {"concept": [concept], "action": ["start"],
                           "dose": {"value": dose, "tolerance": 0.01, "unit": "mg"},
                           "every": {"min": per_day, "max": per_day}, "label": label}},
        {"note_decision": {"concept": others, "action": ["avoid"], "opposite": ["start"],
                           "required": False,
                           "label": f"no second antiresorptive beside {concept}"}}]}}


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


MONTH = (0.032, 0.0345)  # once monthly (every 29-31 days)
IU_PER_MG = 40_000  # vitamin D: 1 mcg = 40 IU
DAILY_REPLETION_IU = (5_000, 6_000)
WEEKLY_REPLETION_IU = 50_000


def _strength_iu(code: str) -> float | None:
    """IU per capsule or tablet of a vitamin D product (its strength in mg or units)."""
    amount, unit = terminology.rxnorm(code).extra["strength"].split()
    if unit.upper() == "MG":
        return float(amount) * IU_PER_MG
    return float(amount) if unit.upper() in ("UNT", "IU") else None


def _vitamin_d_regimen(code: str, iu: tuple[float, float], per_day: tuple[float, float],
                       label: str) -> list[dict[str, Any]]:
    """Orders of one vitamin D product giving ``iu`` per dose at ``per_day``: in IU, mg, mcg,
    or a whole number of capsules or tablets."""
    low, high = iu
    options = [_order([code], (low, high, unit), label, per_day) for unit in IU_UNITS]
    options.append(_order([code], (low / IU_PER_MG, high / IU_PER_MG, "mg"), label, per_day))
    options.append(_order([code], (low / 40, high / 40, "mcg"), label, per_day))
    strength = _strength_iu(code)
    if strength:
        counts = [n for n in range(1, 13) if low <= n * strength <= high]
        if counts:
            options += [_order([code], (min(counts), max(counts), unit), label, per_day)
                        for unit in CAPSULE_UNITS + TABLET_UNITS]
    return options


def vitamin_d_options() -> list[dict[str, Any]]:
    """Vitamin D2 or D3 (every vitamin D product of the terminology) at 50,000 IU once weekly
    or 5,000-6,000 IU once daily, written in IU, mg, mcg or capsules/tablets. A maintenance
    order beside it (1,000-2,000 IU daily) does not count against it."""
    options: list[dict[str, Any]] = []
    for code in rxnorm_codes("vitamin D"):
        options += _vitamin_d_regimen(code, (WEEKLY_REPLETION_IU, WEEKLY_REPLETION_IU), WEEK,
                                      "vitamin D 50,000 IU once weekly")
        options += _vitamin_d_regimen(code, DAILY_REPLETION_IU, (1, 1),
                                      "vitamin D 5,000-6,000 IU once daily")
    return options


def vitamin_d_overdose() -> list[dict[str, Any]]:
    """High-strength vitamin D (10,000 IU or more a capsule) taken daily or more often."""
    codes = [c for c in rxnorm_codes("vitamin D") if (_strength_iu(c) or 0) >= 10_000]
    return [{"not_ordered": {"resource_type": "MedicationRequest", "codes": codes,
                             "per_day": {"min": 0.5},
                             "label": "vitamin D 50,000 IU daily or more often"}}]


def _each_unit(code: str, amount: float, label: str, per_day: tuple[float, float] | None,
               route: list[str] | None = None, units: tuple[str, ...] = TABLET_UNITS
               ) -> list[dict[str, Any]]:
    options = [_order([code], (amount, amount, "mg"), label, per_day, route)]
    options += [_order([code], (1, 1, u), label, per_day, route) for u in units]
    return options


DRUG_OPTIONS = {
    # drug: (its codes, the orders at a labeled dose and schedule)
    "alendronate": ([ALENDRONATE_WEEKLY, ALENDRONATE_DAILY], lambda: (
        _each_unit(ALENDRONATE_WEEKLY, 70, "alendronate 70 mg once weekly", WEEK)
        + _each_unit(ALENDRONATE_DAILY, 10, "alendronate 10 mg once daily", (1, 1)))),
    "risedronate": ([RISEDRONATE], lambda: _each_unit(
        RISEDRONATE, 35, "risedronate 35 mg once weekly", WEEK)),
    "ibandronate": ([IBANDRONATE], lambda: _each_unit(
        IBANDRONATE, 150, "ibandronate 150 mg once monthly", MONTH)),
    "zoledronic_acid": ([ZOLEDRONIC_ACID], lambda: [
        _order([ZOLEDRONIC_ACID], (5, 5, "mg"), "zoledronic acid 5 mg IV once yearly",
               route=["47625008", "intravenous"])]),
    "denosumab": ([DENOSUMAB], lambda: _each_unit(
        DENOSUMAB, 60, "denosumab 60 mg subcutaneously", None, ["34206005", "subcutaneous"],
        ("mL", "ml", "syringe", "syringes", "{syringe}", "injection", "{injection}"))),
}
ACCEPTED_DRUGS = {"ckd3b": ("denosumab", "risedronate", "ibandronate"),
                  "ckd3a": ("alendronate", "risedronate", "ibandronate", "zoledronic_acid",
                            "denosumab")}
# Schedules more frequent than labeled: denosumab more often than about every 6 months (1/166
# a day), zoledronic acid more often than about yearly.
TOO_OFTEN = {"denosumab": 0.006, "zoledronic_acid": 1 / 300}


def antiresorptive_options(scenario: str) -> list[dict[str, Any]]:
    """Orders that count as an antiresorptive safe at the scenario's kidney function, at its
    labeled dose and schedule."""
    return [option for drug in ACCEPTED_DRUGS[scenario] for option in DRUG_OPTIONS[drug][1]()]


def antiresorptive_guards(scenario: str) -> list[dict[str, Any]]:
    """No drug unsafe at this kidney function, at most one antiresorptive drug, and none more
    often than labeled."""
    guards: list[dict[str, Any]] = []
    avoided = [d for d in DRUG_OPTIONS if d not in ACCEPTED_DRUGS[scenario]]
    if avoided:
        guards.append({"not_ordered": {
            "resource_type": "MedicationRequest",
            "codes": [c for d in avoided for c in DRUG_OPTIONS[d][0]],
            "label": "alendronate or zoledronic acid at CrCl below 35 mL/min"}})
    each = [{"not_ordered": {"resource_type": "MedicationRequest", "codes": codes,
                             "label": drug}} for drug, (codes, _) in DRUG_OPTIONS.items()]
    guards.append({"k_of_n": {"of": each, "k": len(each) - 1}})
    for drug, per_day in TOO_OFTEN.items():
        guards.append({"not_ordered": {
            "resource_type": "MedicationRequest", "codes": DRUG_OPTIONS[drug][0],
            "per_day": {"min": per_day}, "label": f"{drug} more often than labeled"}})
    return guards


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
    if reduced != (crcl < BISPHOSPHONATE_CUTOFF) or crcl < ORAL_CUTOFF:
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
                             "mL/min); denosumab, or risedronate or ibandronate (labeled to "
                             "CrCl 30), is safe"),
            "accepted_text": ("denosumab 60 mg subcutaneously every 6 months, risedronate "
                              "35 mg once weekly (or 150 mg once monthly), or ibandronate "
                              "150 mg once monthly"),
            "avoided_text": ("alendronate or zoledronic acid (not for CrCl below 35 mL/min), "
                             "a second antiresorptive, or a schedule more often than labeled"),
            "ar_route": "subcutaneous", "ar_frequency": 1, "ar_period": 6,
            "ar_period_unit": "month", "ar_quantity": 1, "ar_refills": 1,
            "ar_sig": ("Inject 60 mg subcutaneously once every 6 months. Give the first dose "
                       "after the 8-week vitamin D course, with a normal serum calcium."),
            "plan_line": ("Start denosumab (Prolia) 60 mg subcutaneously every 6 months, first "
                          "injection after the 8-week vitamin D course with a normal calcium "
                          "(prescription entered). Alendronate and zoledronic acid are "
                          "avoided at this kidney function. Injections continue on schedule, "
                          "every 6 months without gaps."),
            "choice_text": ("Alendronate is not recommended below a CrCl of 35 mL/min and "
                            "zoledronic acid is contraindicated below 35, so both are avoided; "
                            "risedronate and ibandronate are labeled down to a CrCl of 30, and "
                            "denosumab has no renal dose limit. I recommend denosumab."),
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
                              "(or 150 mg once monthly), ibandronate 150 mg once monthly, "
                              "zoledronic acid 5 mg IV once yearly, or denosumab 60 mg "
                              "subcutaneously every 6 months"),
            "avoided_text": ("two antiresorptives together, or a schedule more often than "
                             "labeled"),
            "ar_route": "oral", "ar_frequency": 1, "ar_period": 1, "ar_period_unit": "week",
            "ar_quantity": 12, "ar_refills": 3,
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
        "antiresorptive_options": antiresorptive_options(values["scenario"]),
        "antiresorptive_guards": antiresorptive_guards(values["scenario"]),
        "vitamin_d_options": vitamin_d_options(),
        "vitamin_d_guards": vitamin_d_overdose(),
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
