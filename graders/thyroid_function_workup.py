"""thyroid_function_workup: subclinical hypothyroidism - treat or observe, dose and follow-up.

Three scenarios (``scenario[name]``), all with a confirmed elevated TSH and a normal free T4:
- ``preconception``: TSH 5.4-8.8, TPO antibodies positive, trying to conceive -> start low-dose
  levothyroxine (25-75 mcg), aim TSH < 2.5 before conception (ATA 2017, ETA 2014).
- ``observe``: TSH 5.4-8.8, TPO antibodies negative, asymptomatic, IUD contraception -> no
  levothyroxine; repeat TSH/FT4 in 6 months to 3 years (ETA 2013, ATA/AACE 2012, NICE NG145).
- ``treat_high``: TSH 10.8-15.2, TPO positive, not planning pregnancy -> start levothyroxine
  (ETA 2013: TSH > 10 in patients < 65-70), 25 mcg up to 1.6 mcg/kg rounded to 25 mcg.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_graders.common import oral_tablets


def _order(codes: list[str], label: str) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
                        "intent": ["order"], "per_day": {"min": 1, "max": 1}, "label": label}}


def _never_ordered(codes: list[str], label: str) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "MedicationRequest", "codes": codes, "label": label}}


def subclinical_hypothyroidism(values: dict[str, Any]) -> dict[str, Any]:
    scenario = values["scenario"]
    name, high = scenario["name"], scenario["tsh_band"] == "high"
    draw, tpo_draw = float(values["tsh_draw"]), float(values["tpo_draw"])
    tsh = round(10.8 + 4.4 * draw, 1) if high else round(5.4 + 3.4 * draw, 1)
    tsh_initial = round(tsh - 1.4, 1) if high else round(tsh - 0.6 - 0.4 * tpo_draw, 1)
    positive = scenario["tpo"] == "positive"
    tpo = int(round(140 + 460 * tpo_draw)) if positive else int(round(8 + 14 * tpo_draw))
    weight = int(values["weight_kg"])
    tablets = oral_tablets("levothyroxine")  # strength (mcg) -> RxNorm
    full_dose = max(100, int(25 * round(1.6 * weight / 25)))  # NICE NG145: 1.6 mcg/kg to 25 mcg
    max_dose = {"preconception": 75, "treat_high": full_dose, "observe": 0}[name]
    accepted = [code for mcg, code in tablets.items() if 25 <= mcg <= max_dose]
    other = [code for mcg, code in tablets.items() if not 25 <= mcg <= max_dose]
    all_lt4 = list(tablets.values())
    t3 = list(oral_tablets("liothyronine").values())
    must_not = [_never_ordered(t3, "liothyronine"),
                {"not_ordered": {"resource_type": "ServiceRequest",
                                 "codes": ["http://www.ama-assn.org/go/cpt|76536"],
                                 "label": "thyroid ultrasound"}},
                {"not_ordered": {"resource_type": "ServiceRequest",
                                 "text_contains": ["thyroid ultrasound", "ultrasound thyroid",
                                                   "US thyroid", "thyroid US", "neck ultrasound",
                                                   "ultrasound of the thyroid", "thyroid sonogra",
                                                   "soft tissues of head and neck"],
                                 "label": "thyroid ultrasound"}}]
    never_us = {"note_never": {"concept": ["thyroid_ultrasound"], "allow_contingency": True,
                               "contingency_on": ["thyroid_nodule"],
                               "action": ["start", "order", "endorse", "allow", "implicit",
                                          "continue", "resume"],
                               "label": "no thyroid ultrasound without a palpable abnormality"}}
    never_t3 = {"note_never": {"concept": ["liothyronine"], "label": "no liothyronine"}}
    if name == "observe":
        order_checks = [_never_ordered(all_lt4, "no levothyroxine"), *must_not]
        plan = [
            {"note_never": {"concept": ["levothyroxine", "thyroid_hormone"],
                            "allow_contingency": True,
                            "label": "levothyroxine not started or offered now"}},
            {"note_decision": {"concept": ["tsh", "thyroid_function_tests"], "action": ["order"],
                               "timing": {"min": 6, "max": 36, "unit": "mo"},
                               "label": "repeat TSH in 6 months to 3 years"}},
        ]
    else:
        order_checks = [{"any": {"of": [_order(accepted, f"levothyroxine 25-{max_dose} mcg "
                                                         "once daily")]}},
                        _never_ordered(other, "levothyroxine at another dose"), *must_not]
        plan = [
            {"note_decision": {"concept": ["levothyroxine"], "action": ["start"],
                               "dose": {"min": 25, "max": max_dose, "unit": "mcg"},
                               "every": {"min": 1, "max": 1}, "deferral_contradicts": True,
                               "label": f"start levothyroxine 25-{max_dose} mcg daily"}},
            {"note_decision": {"concept": ["tsh", "thyroid_function_tests"], "action": ["order"],
                               "timing": {"min": 4, "max": 10, "unit": "wk"},
                               "label": "repeat TSH in 4-10 weeks"}},
        ]
        if name == "preconception":
            plan.append({"note_value": {"concept": ["tsh"], "min": 0.1, "max": 2.5,
                                        "target": True, "contradicts": False,
                                        "label": "preconception TSH goal below 2.5 mIU/L"}})
    now = values["now"]
    return {
        "in_6_weeks": (now + timedelta(days=42)).date().isoformat(),
        "next_year": (now + timedelta(days=365)).date().isoformat(),
        "tsh": tsh, "tsh_initial": tsh_initial, "tpo": tpo,
        "tpo_flag": "positive" if positive else "negative",
        "tpo_concept": ["thyroid_autoimmunity" if positive else "thyroid_antibody_negative"],
        "tpo_result": ["antibody_result_positive" if positive else "antibody_result_negative"],
        "tpo_other_result": [
            "antibody_result_negative" if positive else "antibody_result_positive"],
        "tpo_opposite": ["thyroid_antibody_negative" if positive else "tpo_positive"],
        "max_dose": max_dose, "full_dose": full_dose,
        "lt4_50_rxnorm": tablets[50.0],
        "order_checks": order_checks,
        "plan_grader": {"all": {"of": [*plan, never_us, never_t3]}},
    }
