"""oral_contraceptive_switch: which contraceptive replaces her combined pill.

The scenario decides the answer (CDC U.S. MEC 2024, Appendix tables; categories for
Cu-IUD / LNG-IUD / implant / DMPA / POP / CHC):
- migraine_aura: migraine with aura, 1/1/1/1/1/4 -> stop the combined pill; any progestin-only
  method or an IUD (reference: norethindrone 0.35 mg daily).
- rifampin: rifampin for latent TB, 1/1/2/1/3/3 -> stop the combined pill; DMPA, an IUD or the
  implant, never the progestin-only pill (reference: DMPA 150 mg IM every 13 weeks).
- severe_htn: blood pressure >= 160/100, 1/2/2/3/2/4 -> stop the combined pill; progestin-only
  pill, implant or an IUD, never DMPA (reference: norethindrone 0.35 mg daily).
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
POP, DMPA = "198042", "1000126"


def _pop(dose: dict[str, Any], label: str) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": [RX + POP],
                        "status": ["active"], "intent": ["order"], "dose": dose,
                        "per_day": {"min": 1, "max": 1}, "label": label}}


# The 0.35 mg tablet written as a strength or as one tablet (the order check compares units as
# written and does not turn a tablet count into the RxNorm strength).
POP_ORDER = {"any": {"of": [
    _pop({"min": 0.35, "max": 0.35, "unit": "mg"}, "norethindrone 0.35 mg daily"),
    *(_pop({"min": 1, "max": 1, "unit": u}, "norethindrone 0.35 mg, 1 tablet daily")
      for u in ("{tbl}", "tablet"))]}}
# DMPA 150 mg/mL is for deep IM injection only (the subcutaneous product is 104 mg); the
# interval is checked by DMPA_NOT_TOO_OFTEN (an order without timing still passes).
DMPA_ORDER = {"ordered": {
    "resource_type": "MedicationRequest", "codes": [RX + DMPA], "status": ["active"],
    "intent": ["order"], "dose": {"min": 150, "max": 150, "unit": "mg"},
    "route": ["78421000", "intramuscular"], "label": "DMPA 150 mg IM"}}
# Every 12-15 weeks is 0.0095-0.0119 injections a day; more often than every 7 weeks is wrong.
DMPA_NOT_TOO_OFTEN = {"not_ordered": {
    "resource_type": "MedicationRequest", "codes": [RX + DMPA], "per_day": {"min": 0.02},
    "label": "DMPA more often than every 7 weeks"}}
# An IUD or implant insertion, by CPT code or named in free text.
DEVICE_ORDERS = [
    {"ordered": {"resource_type": "ServiceRequest", "codes": [CPT + "58300", CPT + "11981"],
                 "status": ["active"], "label": "IUD or implant insertion"}},
    {"ordered": {"resource_type": "ServiceRequest", "status": ["active"],
                 "text_contains": ["IUD", "intrauterine", "LNG-IUS", "Mirena", "Liletta", "Kyleena",
                                   "Skyla", "Paragard", "levonorgestrel-releasing", "Nexplanon",
                                   "etonogestrel implant", "contraceptive implant",
                                   "implant insertion", "subdermal", "subcutaneous contraceptive"],
                 "label": "IUD or implant insertion (free text)"}},
]
NO_ESTROGEN = {"not_ordered": {"resource_type": "MedicationRequest",
                               # ingredients, not the word 'estrogen' ('estrogen-free')
                               "text_contains": ["estradiol", "estrogens", "estetrol",
                                                 "mestranol"],
                               "label": "estrogen-containing contraceptive"}}

SCENARIOS: dict[str, dict[str, Any]] = {
    "migraine_aura": {
        "allowed": ["progestin_only_method", "iud"], "forbidden": [],
        "orders": [POP_ORDER, DMPA_ORDER, *DEVICE_ORDERS], "forbidden_codes": [],
        "reason": ["migraine_with_aura"],
        "reason_text": "migraine with aura (U.S. MEC category 4 for combined hormonal "
                       "contraception: ischemic stroke risk)",
        "method_text": "a progestin-only method (progestin-only pill, DMPA or implant) or an "
                       "IUD (all U.S. MEC category 1)",
        "forbidden_text": "no estrogen-containing method"},
    "rifampin": {
        "allowed": ["medroxyprogesterone", "iud", "etonogestrel_implant"],
        "forbidden": ["progestin_only_pill"],
        "orders": [DMPA_ORDER, *DEVICE_ORDERS], "forbidden_codes": [RX + POP],
        "reason": ["rifampin", "cyp3a4_inducer"],
        "reason_text": "rifampin, an enzyme inducer that lowers contraceptive steroid levels "
                       "(U.S. MEC category 3 for combined hormonal contraception and for the "
                       "progestin-only pill)",
        "method_text": "DMPA or an IUD (U.S. MEC category 1) or the etonogestrel implant "
                       "(category 2)",
        "forbidden_text": "no estrogen-containing method and no progestin-only pill"},
    "severe_htn": {
        "allowed": ["progestin_only_pill", "etonogestrel_implant", "iud"],
        "forbidden": ["medroxyprogesterone"],
        "orders": [POP_ORDER, *DEVICE_ORDERS], "forbidden_codes": [RX + DMPA],
        "reason": ["bp_rise"],
        "reason_text": "hypertension with blood pressure of 160/100 mm Hg or higher (U.S. MEC "
                       "category 4 for combined hormonal contraception)",
        "method_text": "the progestin-only pill, the etonogestrel implant or an IUD (U.S. MEC "
                       "category 1-2)",
        "forbidden_text": "no estrogen-containing method and no DMPA (category 3)"},
}


def oral_contraceptive_switch(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    s = SCENARIOS[kind]
    forbidden_orders = [{"not_ordered": {"resource_type": "MedicationRequest", "codes": [c],
                                         "label": "a method she should not use"}}
                        for c in s["forbidden_codes"]]
    return {
        "allowed_methods": s["allowed"],
        "forbidden_methods": s["forbidden"],
        "reason_concepts": s["reason"],
        "reason_text": s["reason_text"],
        "method_text": s["method_text"],
        "forbidden_text": s["forbidden_text"],
        "order_grader": {"all": {"of": [{"any": {"of": s["orders"]}}, NO_ESTROGEN,
                                        DMPA_NOT_TOO_OFTEN, *forbidden_orders]}},
    }
