"""aromatase_inhibitor_bone_loss: bone loss on an aromatase inhibitor - treat or not, and with what.

Postmenopausal women on an aromatase inhibitor (AI) get an antiresorptive when the lowest
T-score is below -2.0 (or with two or more clinical risk factors): denosumab 60 mg every 6
months, zoledronic acid 4 mg IV every 6 months (or 5 mg yearly), or an oral bisphosphonate;
otherwise calcium, vitamin D, exercise and a DXA in 1-2 years (IOF/CABS/ECTS/IEG/ESCEO/IMS/SIOG
joint position statement, Hadji 2017; ASCO 2019 osteoporosis in cancer survivors). Four
scenarios, all on anastrozole for low-risk early breast cancer, age 63, no other risk factor:
- low_crcl (canonical): T-score -2.5 to -2.9, vitamin D replete, CKD G3b with eGFR and
  Cockcroft-Gault CrCl 30-34 -> zoledronic acid (contraindicated below CrCl 35) and
  alendronate (not recommended below 35) avoided; denosumab (or risedronate/ibandronate,
  labeled to CrCl 30). Last year's eGFR, above 35, is the distractor.
- treat: the same T-scores, normal kidney function -> any of the antiresorptives.
- vitd_low: the same T-scores, 25-OH vitamin D 9-17 ng/mL -> replete vitamin D (50,000 IU
  weekly for 8 weeks) and recheck it first; the antiresorptive follows.
- no_treat: T-score -1.2 to -1.8 (osteopenia), no risk factor -> no antiresorptive; calcium,
  vitamin D and a repeat DXA in 12-24 months.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from physbench_graders.endocrinology_bone import (
    ALENDRONATE_DAILY,
    ALENDRONATE_WEEKLY,
    DENOSUMAB,
    IBANDRONATE,
    MONTH,
    RISEDRONATE,
    WEEK,
    ZOLEDRONIC_ACID,
    _each_unit,
    _order,
    _strength_iu,
    ckd_epi_2021,
    cockcroft_gault,
    creatinine_for,
    rxnorm_codes,
    vitamin_d_options,
)
from physbench_graders.endocrinology_bone import PLANS as BONE_PLANS

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import patient_id, placed, text_of

AGE = 63
HEIGHT_M = 1.63
ZA_CUTOFF = 35  # mL/min: zoledronic acid contraindicated (RECLAST PI 4), alendronate not advised
ORAL_CUTOFF = 30  # mL/min: risedronate and ibandronate not recommended below it
IV, SC = ["47625008", "intravenous"], ["34206005", "subcutaneous"]
Q6MO, YEARLY = (1 / 200, 1 / 165), (1 / 400, 1 / 330)  # administrations a day
Q3MO = (1 / 100, 1 / 83)
ZOLEDRONIC_ACID_5MG = "705824"  # 100 ML zoledronic acid 0.05 MG/ML Injection (5 mg, Reclast)
SYRINGE_UNITS = ("mL", "ml", "syringe", "syringes", "{syringe}", "injection", "{injection}")

DRUGS = {
    # drug: (its codes, the orders at a labeled dose and schedule)
    # the 4 mg/100 mL product every 6 months (adjuvant regimen), the 5 mg/100 mL one yearly
    "zoledronic_acid": ([ZOLEDRONIC_ACID, ZOLEDRONIC_ACID_5MG], lambda: [
        _order([ZOLEDRONIC_ACID], (4, 4, "mg"), "zoledronic acid 4 mg IV every 6 months", Q6MO, IV),
        _order([ZOLEDRONIC_ACID], (100, 100, "mL"), "zoledronic acid 4 mg/100 mL every 6 months",
               Q6MO, IV),
        _order([ZOLEDRONIC_ACID_5MG], (5, 5, "mg"), "zoledronic acid 5 mg IV yearly", YEARLY, IV),
        _order([ZOLEDRONIC_ACID_5MG], (100, 100, "mL"), "zoledronic acid 5 mg/100 mL yearly",
               YEARLY, IV)]),
    "denosumab": ([DENOSUMAB], lambda: _each_unit(
        DENOSUMAB, 60, "denosumab 60 mg subcutaneously every 6 months", Q6MO, SC,
        SYRINGE_UNITS)),
    "alendronate": ([ALENDRONATE_WEEKLY, ALENDRONATE_DAILY], lambda: (
        _each_unit(ALENDRONATE_WEEKLY, 70, "alendronate 70 mg once weekly", WEEK)
        + _each_unit(ALENDRONATE_DAILY, 10, "alendronate 10 mg once daily", (1, 1)))),
    "risedronate": ([RISEDRONATE], lambda: _each_unit(
        RISEDRONATE, 35, "risedronate 35 mg once weekly", WEEK)),
    "ibandronate": ([IBANDRONATE], lambda: _each_unit(
        IBANDRONATE, 150, "ibandronate 150 mg once monthly", MONTH)),
}
ALL_DRUGS = tuple(DRUGS)
LOW_CRCL_DRUGS = ("denosumab", "risedronate", "ibandronate")
# Note plans: the shared osteoporosis regimens, and the other labeled schedules used in
# aromatase inhibitor bone loss (concept, dose in mg, administrations a day).
PLANS = {
    **BONE_PLANS,
    "za4": ("zoledronic_acid", 4.0, 1 / 182.6, "zoledronic acid 4 mg IV every 6 months"),
    "risedronate_daily": ("risedronate", 5.0, 1.0, "risedronate 5 mg once daily"),
    "ibandronate_iv": ("ibandronate", 3.0, 1 / 91.3, "ibandronate 3 mg IV every 3 months"),
}
LOW_CRCL_PLANS = ("denosumab", "risedronate_weekly", "risedronate_monthly", "risedronate_daily",
                  "ibandronate_monthly", "ibandronate_iv")
PLAN_DRUGS = ("zoledronic_acid", "denosumab", "alendronate", "risedronate", "ibandronate")
# more often than ~every 5.5 months (denosumab, zoledronic acid 4 mg) or ~10 months (5 mg)
TOO_OFTEN = {(DENOSUMAB,): 0.006, (ZOLEDRONIC_ACID,): 0.0062, (ZOLEDRONIC_ACID_5MG,): 1 / 300}
ANTIRESORPTIVE_CODES = tuple(c for codes, _ in DRUGS.values() for c in codes)
DXA_CODES = ("77080", "77081", "77085", "38268-9")
DXA_WORDS = ("dxa", "dexa", "bone density", "bone mineral density", "absorptiometry", "bmd")


def _plan(key: str) -> dict[str, Any]:
    concept, dose, per_day, label = PLANS[key]
    return {"note_decision": {"concept": [concept], "action": ["start"],
                              "dose": {"value": dose, "tolerance": 0.01, "unit": "mg"},
                              "every": {"min": per_day, "max": per_day}, "label": label}}


def one_agent_started(drugs: tuple[str, ...] = PLAN_DRUGS) -> dict[str, Any]:
    """At most one antiresorptive started (a named alternative or a triggered switch is no
    start): every drug but one is never started."""
    each = [{"note_never": {"concept": [d], "action": ["start", "implicit"],
                            "allow_contingency": True,
                            "label": f"{d} not started beside another antiresorptive"}}
            for d in drugs]
    return {"k_of_n": {"of": each, "k": len(each) - 1}}


def _not_ordered(drugs: tuple[str, ...], label: str) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "MedicationRequest",
                            "codes": [c for d in drugs for c in DRUGS[d][0]], "label": label}}


def antiresorptive_guards(accepted: tuple[str, ...]) -> list[dict[str, Any]]:
    """No drug unsafe at this kidney function, at most one antiresorptive, none too often."""
    guards = []
    avoided = tuple(d for d in ALL_DRUGS if d not in accepted)
    if avoided:
        guards.append(_not_ordered(avoided, "zoledronic acid or alendronate at CrCl below 35"))
    guards.append("graders/aromatase_inhibitor_bone_loss.py:one_antiresorptive_order")
    guards += [{"not_ordered": {"resource_type": "MedicationRequest", "codes": list(codes),
                                "per_day": {"min": often},
                                "label": f"{codes[0]} more often than labeled"}}
               for codes, often in TOO_OFTEN.items()]
    return guards


def vitamin_d_overdose() -> list[dict[str, Any]]:
    """High-strength vitamin D (10,000 IU or more a unit) more often than about weekly:
    50,000 IU at 0.2 or more a day is above the 10,000 IU a day limit (Holick 2011)."""
    codes = [c for c in rxnorm_codes("vitamin D") if (_strength_iu(c) or 0) >= 10_000]
    return [{"not_ordered": {"resource_type": "MedicationRequest", "codes": codes,
                             "per_day": {"min": 0.2},
                             "label": "vitamin D 50,000 IU more often than once weekly"}}]


def _kidney(scenario: str, egfr_draw: float, crcl_draw: float) -> dict[str, Any]:
    """Creatinine, eGFR (CKD-EPI 2021) and Cockcroft-Gault CrCl; the weight meets the CrCl."""
    low_band = scenario == "low_crcl"
    egfr_low, egfr_high = (30, 34) if low_band else (68, 88)
    target = egfr_low + 0.4 + (egfr_high - egfr_low - 0.8) * egfr_draw
    creatinine = round(creatinine_for(target, AGE), 2)
    egfr = round(ckd_epi_2021(creatinine, AGE, True))
    crcl_low, crcl_high = (30.6, 34.0) if low_band else (62.0, 80.0)
    crcl_target = crcl_low + (crcl_high - crcl_low) * crcl_draw
    weight = round(crcl_target * 72 * creatinine / ((140 - AGE) * 0.85))
    crcl = cockcroft_gault(AGE, weight, creatinine, True)
    if not egfr_low <= egfr <= egfr_high or not 54 <= weight <= 85:
        raise ValueError(f"eGFR {egfr} or weight {weight} kg outside the {scenario} band")
    if low_band != (crcl < ZA_CUTOFF) or crcl < ORAL_CUTOFF:
        raise ValueError(f"eGFR {egfr} and CrCl {crcl:.0f} disagree about the 30-35 band")
    deltas = (8.4, 12.4) if low_band else (2.4, 4.4)
    cr_1y = round(creatinine_for(egfr + deltas[0], AGE - 1), 2)
    cr_2y = round(creatinine_for(egfr + deltas[1], AGE - 2), 2)
    egfr_1y = round(ckd_epi_2021(cr_1y, AGE - 1, True))
    if low_band and egfr_1y < ZA_CUTOFF + 3:
        raise ValueError("last year's eGFR should be clearly above 35 (the distractor)")
    return {"creatinine": creatinine, "egfr": egfr, "crcl": round(crcl, 1),
            "crcl_int": round(crcl), "weight_kg": weight, "weight_1y": weight + 1,
            "bmi": round(weight / HEIGHT_M ** 2, 1), "creatinine_1y": cr_1y, "egfr_1y": egfr_1y,
            "creatinine_2y": cr_2y, "egfr_2y": round(ckd_epi_2021(cr_2y, AGE - 2, True))}


SCENARIO_TEXT = {
    "low_crcl": {
        "decision_label": ("zoledronic acid (contraindicated below a CrCl of 35 mL/min) and "
                           "alendronate are avoided; denosumab (or risedronate/ibandronate, "
                           "labeled to CrCl 30) is safe"),
        "plan_text": ("denosumab 60 mg subcutaneously every 6 months (or risedronate 35 mg "
                      "weekly / 150 mg monthly, or ibandronate 150 mg monthly)"),
        "order_text": ("denosumab 60 mg subcutaneously (or risedronate 35 mg once weekly or "
                       "ibandronate 150 mg once monthly), and no zoledronic acid or alendronate"),
    },
    "treat": {
        "decision_label": "an antiresorptive is indicated now (kidney function allows any)",
        "plan_text": ("an antiresorptive at its labeled dose and schedule - denosumab 60 mg SC "
                      "every 6 months, zoledronic acid 4 mg IV every 6 months (or 5 mg yearly), "
                      "or an oral bisphosphonate (alendronate 70 mg weekly, risedronate 35 mg "
                      "weekly or 150 mg monthly, ibandronate 150 mg monthly)"),
        "order_text": ("one antiresorptive at a labeled dose and schedule (denosumab 60 mg SC, "
                       "zoledronic acid 4 mg IV every 6 months or 5 mg yearly, alendronate 70 mg "
                       "weekly, risedronate 35 mg weekly or ibandronate 150 mg monthly)"),
    },
    "vitd_low": {
        "decision_label": ("vitamin D deficiency is corrected first and the antiresorptive "
                           "follows"),
        "plan_text": ("vitamin D repletion (50,000 IU once weekly for 8 weeks, or 5,000-6,000 IU "
                      "daily) and then an antiresorptive at its labeled dose and schedule "
                      "(denosumab 60 mg SC every 6 months, zoledronic acid 4 mg IV every 6 "
                      "months or 5 mg yearly, or an oral bisphosphonate)"),
        "order_text": ("vitamin D repletion - vitamin D2 or D3 50,000 IU once weekly or "
                       "5,000-6,000 IU daily - and a repeat 25-hydroxyvitamin D; any "
                       "antiresorptive ordered is a single one at a labeled dose and schedule"),
    },
    "no_treat": {
        "decision_label": ("no antiresorptive is indicated (lowest T-score above -2.0, no "
                           "other risk factor)"),
        "plan_text": ("no antiresorptive now; calcium about 1,000-1,200 mg a day and "
                      "maintenance vitamin D (600-4,000 IU daily)"),
        "order_text": ("a repeat DXA dated 12-24 months from now, and no antiresorptive"),
    },
}


def bone_plan(values: dict[str, Any]) -> dict[str, Any]:
    """Kidney function, bone density, vitamin D and the bone plan that follows from them."""
    scenario = values["scenario"]
    if int(values["age"]) != AGE:
        raise ValueError(f"the derivation assumes age {AGE}")
    out = _kidney(scenario, float(values["egfr_draw"]), float(values["crcl_draw"]))
    t_draw = float(values["t_draw"])
    spine_t = round((-1.8 + 0.6 * t_draw) if scenario == "no_treat" else (-2.9 + 0.4 * t_draw), 1)
    fn_t = round(spine_t + 0.4, 1)
    vitd = round(9 + 8 * float(values["vitd_draw"])) if scenario == "vitd_low" else round(
        31 + 14 * float(values["vitd_draw"]))
    treat = scenario != "no_treat"
    accepted = LOW_CRCL_DRUGS if scenario == "low_crcl" else ALL_DRUGS
    plans = LOW_CRCL_PLANS if scenario == "low_crcl" else tuple(PLANS)
    out.update(SCENARIO_TEXT[scenario])
    out.update(_chart_text(scenario, out, spine_t, vitd))
    out.update({
        "treat": treat,
        "spine_t": spine_t, "fn_t": fn_t, "th_t": round(fn_t + 0.2, 1),
        "base_spine_t": round(spine_t + 0.5, 1), "base_fn_t": round(fn_t + 0.3, 1),
        "spine_bmd": round(1.047 + 0.11 * spine_t, 3), "fn_bmd": round(0.858 + 0.12 * fn_t, 3),
        "spine_loss_pct": round(100 * 0.055 / (1.047 + 0.11 * (spine_t + 0.5)), 1),
        "vitd": vitd,
        "dxa_date": (values["now"] + timedelta(days=365)).date().isoformat(),
        "recheck_date": (values["now"] + timedelta(weeks=12)).date().isoformat(),
        "base_impression": ("low bone mass (osteopenia) by WHO criteria"
                            if round(spine_t + 0.5, 1) < -1.0
                            else "normal bone density by WHO criteria"),
        "pth": 84 if scenario == "vitd_low" else 41,
        "bone_condition": "312894000" if scenario == "no_treat" else "64859006",
        "bone_dx": "osteopenia" if scenario == "no_treat" else "osteoporosis",
        "antiresorptive_options": [o for d in accepted for o in DRUGS[d][1]()],
        "antiresorptive_guards": antiresorptive_guards(accepted),
        "antiresorptive_plans": [_plan(k) for k in plans],
        "one_agent_started": one_agent_started(),
        "antiresorptive_codes": list(ANTIRESORPTIVE_CODES),
        "vitamin_d_options": vitamin_d_options(),
        "vitamin_d_guards": vitamin_d_overdose(),
    })
    return out


def _chart_text(scenario: str, kidney: dict[str, Any], spine_t: float, vitd: int
                ) -> dict[str, str]:
    """Story text and the oracle's message to the PCP."""
    low_d = scenario == "vitd_low"
    messages = {
        "low_crcl": (f"Bone loss on anastrozole with osteoporosis (lowest T-score {spine_t}). "
                     f"eGFR {kidney['egfr']}, CrCl about {kidney['crcl_int']} mL/min: no "
                     "zoledronic acid or alendronate. Denosumab 60 mg SC every 6 months "
                     "prescribed after a dental exam (referral placed); continue vitamin D3 and "
                     "calcium 1,000-1,200 mg/day; DXA in 2 years. Full note in chart."),
        "treat": (f"Bone loss on anastrozole with osteoporosis (lowest T-score {spine_t}); "
                  f"kidney function normal (eGFR {kidney['egfr']}). Zoledronic acid 4 mg IV "
                  "every 6 months prescribed, first infusion after a dental exam (referral "
                  "placed) with creatinine and calcium checked before each dose; continue "
                  "vitamin D3 and calcium 1,000-1,200 mg/day; DXA in 2 years. Full note in "
                  "chart."),
        "vitd_low": (f"Osteoporosis on anastrozole (lowest T-score {spine_t}) with vitamin D "
                     f"deficiency (25-OH D {vitd} ng/mL). Ergocalciferol 50,000 IU weekly x 8 "
                     "weeks prescribed, 25-OH vitamin D recheck ordered in 12 weeks, dental "
                     "referral placed; denosumab to start once vitamin D is replete. Full note "
                     "in chart."),
        "no_treat": (f"Osteopenia on anastrozole (lowest T-score {spine_t}), no other risk "
                     "factors: no antiresorptive now. Continue vitamin D3 2,000 IU daily and "
                     "calcium 1,000-1,200 mg/day; repeat DXA ordered in 12 months. Full note in "
                     "chart."),
    }
    baseline = ("" if scenario == "no_treat" else
                " Bone-directed therapy for fracture prevention was also offered for her baseline"
                " bone density; she would rather recheck the DXA on anastrozole before deciding.")
    return {
        "baseline_bone_text": baseline,
        "vitd_history": ("she stopped her vitamin D3 2,000 IU daily about a year ago." if low_d
                         else "vitamin D3 2,000 IU daily over the counter since her repletion "
                              "course 2 years ago."),
        "otc_text": "" if low_d else ", vitamin D3 2,000 IU daily (over the counter)",
        "renal_text": " She has CKD followed by nephrology." if scenario == "low_crcl" else "",
        "message_text": messages[scenario],
    }


_INTERVAL = re.compile(r"(\d+(?:\.\d+)?)\s*-?\s*(week|wk|month|mo|year|yr)s?\b",
                       re.IGNORECASE)
_MONTHS_PER = {"week": 12 / 52.18, "wk": 12 / 52.18, "year": 12, "yr": 12}
VITD_CODES = ("1989-3", "82306")


def _months(text: str) -> list[float]:
    return [float(m.group(1)) * _MONTHS_PER.get(m.group(2).lower(), 1)
            for m in _INTERVAL.finditer(text)]


def _codes(resource: dict[str, Any], key: str) -> list[str]:
    concept = resource.get(key) or {}
    return [c.get("code", "") for c in concept.get("coding", []) or []]


@triggered_by(WRITE)
def one_antiresorptive_order(ctx: GradingContext) -> CheckpointResult:
    """At most one antiresorptive order placed: no second drug, no duplicate prescription."""
    orders = [o for o in ctx.written("MedicationRequest")
              if patient_id(o) == ctx.patient_id and placed(o)
              and set(_codes(o, "medicationCodeableConcept")) & set(ANTIRESORPTIVE_CODES)]
    if len(orders) > 1:
        return CheckpointResult(False, f"{len(orders)} antiresorptive orders placed (at most one)")
    return CheckpointResult(True, "at most one antiresorptive order")


@triggered_by(WRITE)
def vitd_recheck_ordered(ctx: GradingContext) -> CheckpointResult:
    """A placed 25-hydroxyvitamin D order after the 8-week course: dated 7-17 weeks from now,
    or undated with an interval of 2-4 months (8-17 weeks) in its text."""
    now = ctx.values["now"]
    low = (now + timedelta(weeks=7)).date().isoformat()
    high = (now + timedelta(weeks=17)).date().isoformat()
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order) \
                or not set(_codes(order, "code")) & set(VITD_CODES):
            continue
        start = str(order.get("occurrenceDateTime")
                    or (order.get("occurrencePeriod") or {}).get("start") or "")[:10]
        if start:
            if low <= start <= high:
                return CheckpointResult(True, f"25-hydroxyvitamin D recheck ordered for {start}")
            continue
        months = _months(text_of(order))
        if months and all(1.8 <= m <= 4 for m in months):
            return CheckpointResult(True, "25-hydroxyvitamin D recheck ordered in 2-4 months")
    return CheckpointResult(False, f"no 25-hydroxyvitamin D recheck ordered for {low} to {high}")


@triggered_by(WRITE)
def repeat_dxa_ordered(ctx: GradingContext) -> CheckpointResult:
    """A placed DXA order for 12-24 months from now: dated in that window (10-26 months
    allowed for scheduling), or undated with an interval of 12-24 months in its text."""
    now = ctx.values["now"]
    low = (now + timedelta(days=300)).date().isoformat()
    high = (now + timedelta(days=790)).date().isoformat()
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order):
            continue
        codes = [c.get("code", "") for c in (order.get("code") or {}).get("coding", []) or []]
        text = " ".join([str((order.get("code") or {}).get("text", "")), " ".join(
            str(c.get("display", "")) for c in (order.get("code") or {}).get("coding", []) or []),
            text_of(order)]).lower()
        if not (set(codes) & set(DXA_CODES) or any(w in text for w in DXA_WORDS)):
            continue
        start = str(order.get("occurrenceDateTime")
                    or (order.get("occurrencePeriod") or {}).get("start") or "")[:10]
        if start:
            if low <= start <= high:
                return CheckpointResult(True, f"repeat DXA ordered for {start}")
            continue
        months = _months(text)
        if months and all(12 <= m <= 24 for m in months):
            return CheckpointResult(True, "repeat DXA ordered in 12-24 months")
    return CheckpointResult(False, f"no DXA ordered for {low} to {high}")
