"""progestin_contraceptive_pcos: which progestin gives a woman with PCOS both contraception and
endometrial protection when estrogen is ruled out by a prior DVT.

Every branch: PCOS with chronic anovulation, a DVT 3 years ago provoked by a fracture in a cast
while on the combined pill (estrogen-associated: CDC U.S. MEC 2024, history of DVT/PE not on
anticoagulation, higher recurrence risk: CHC 4, every progestin-only method and the LNG-IUD 2), on
cyclic norethindrone acetate 5 mg (withdrawal bleeds only, no contraception).
- normal_cavity (canonical): the 52 mg LNG-IUD (contraception and endometrial protection); not a
  low-dose 13.5/19.5 mg LNG-IUD and not a copper IUD (neither protects the endometrium).
- distorted_cavity: a submucosal fibroid distorts the cavity (U.S. MEC: Cu-IUD and LNG-IUD 4),
  so DMPA 150 mg IM (or DMPA-SC 104 mg) every 12-13 weeks; no IUD until the fibroid is removed.
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
DMPA_IM, DMPA_SC = "1000126", "1000156"
EVERY_12_13_WEEKS = {"min": 0.0095, "max": 0.0125}
# An IUD is placed as a procedure ('place a Mirena'), so ordering it counts as planning it.
PLAN_ACTIONS = ["start", "resume", "continue", "increase", "endorse", "allow", "implicit", "order"]

NO_ESTROGEN = {"not_ordered": {"resource_type": "MedicationRequest",
                               "text_contains": ["estradiol", "estrogen"],
                               "label": "no estrogen-containing contraceptive"}}
LNG_IUD_ORDER = {"ordered": {"resource_type": "ServiceRequest", "codes": [CPT + "58300"],
                             "text_contains": ["levonorgestrel", "LNG", "Mirena", "Liletta"],
                             "status": ["active"], "intent": ["order"],
                             "label": "52 mg LNG-IUD insertion (CPT 58300)"}}
NO_LOW_DOSE_IUD = {"not_ordered": {"resource_type": "ServiceRequest",
                                   "text_contains": ["Kyleena", "Skyla", "Jaydess", "19.5 mg",
                                                     "13.5 mg"],
                                   "label": "no low-dose (13.5/19.5 mg) LNG-IUD"}}
DMPA_ORDER = {"any": {"of": [
    {"ordered": {"resource_type": "MedicationRequest", "codes": [RX + DMPA_IM],
                 "status": ["active"], "intent": ["order"],
                 "dose": {"min": 150, "max": 150, "unit": "mg"},
                 "route": ["78421000", "intramuscular"], "per_day": EVERY_12_13_WEEKS,
                 "label": "DMPA 150 mg IM every 12-13 weeks"}},
    {"ordered": {"resource_type": "MedicationRequest", "codes": [RX + DMPA_SC],
                 "status": ["active"], "intent": ["order"],
                 "dose": {"min": 104, "max": 104, "unit": "mg"},
                 "route": ["34206005", "subcutaneous"], "per_day": EVERY_12_13_WEEKS,
                 "label": "DMPA-SC 104 mg every 12-13 weeks"}}]}}
NO_IUD = [{"not_ordered": {"resource_type": "ServiceRequest", "codes": [CPT + "58300"],
                           "label": "no IUD insertion with a distorted cavity"}},
          {"not_ordered": {"resource_type": "ServiceRequest",
                           "text_contains": ["IUD", "intrauterine", "Mirena", "Liletta", "Kyleena",
                                             "Skyla", "Paragard", "levonorgestrel"],
                           "label": "no IUD ordered under another code"}}]

SCENARIOS: dict[str, dict[str, Any]] = {
    "normal_cavity": {
        "method": ["pcos_lng_iud_52"], "doses": [],
        "forbidden": ["combined_hormonal_contraceptive"],
        "orders": [LNG_IUD_ORDER, NO_LOW_DOSE_IUD, NO_ESTROGEN],
        "method_text": "a 52 mg levonorgestrel IUD (contraception and endometrial protection)",
        "forbidden_text": "no estrogen-containing method, no low-dose (13.5 or 19.5 mg) LNG-IUD "
                          "and no copper IUD",
    },
    "distorted_cavity": {
        "method": ["medroxyprogesterone"], "doses": [150, 104],
        "forbidden": ["combined_hormonal_contraceptive", "iud"],
        "orders": [DMPA_ORDER, NO_ESTROGEN, *NO_IUD],
        "method_text": "DMPA 150 mg IM (or DMPA-SC 104 mg) every 12-13 weeks (the submucosal "
                       "fibroid distorting the cavity rules out an IUD, U.S. MEC category 4)",
        "forbidden_text": "no estrogen-containing method and no IUD while the fibroid is in place",
    },
}


def _start(s: dict[str, Any], dose: float | None) -> dict[str, Any]:
    start: dict[str, Any] = {"concept": s["method"], "action": ["start", "order", "refer"],
                             "label": f"start {s['method_text']}"}
    if dose:
        start["dose"] = {"value": dose, "unit": "mg"}
        start["every"] = EVERY_12_13_WEEKS
    return {"note_decision": start}


def progestin_contraceptive_pcos(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["cavity"]["kind"]
    s = SCENARIOS[kind]
    starts = [_start(s, d) for d in s["doses"]] or [_start(s, None)]
    nevers = [{"note_never": {"concept": ["combined_hormonal_contraceptive"],
                              "label": "never offers an estrogen-containing method"}}]
    if "iud" in s["forbidden"]:
        # An IUD once the fibroid is removed (the cavity restored) is a plan with a trigger.
        nevers.append({"note_never": {
            "concept": ["iud"], "action": PLAN_ACTIONS, "allow_contingency": True,
            "contingency_on": ["hysteroscopic_myomectomy"],
            "label": "no IUD while the fibroid distorts the cavity"}})
    else:
        nevers.append({"note_never": {
            "concept": ["low_dose_lng_iud", "copper_iud"],
            "action": PLAN_ACTIONS,
            "label": "no low-dose LNG-IUD or copper IUD"}})
    start = starts[0] if len(starts) == 1 else {"any": {"of": starts}}
    return {
        "method_text": s["method_text"],
        "forbidden_text": s["forbidden_text"],
        "forbidden_methods": s["forbidden"],
        "method_grader": {"all": {"of": [start, *nevers]}},
        "order_grader": {"all": {"of": s["orders"]}},
    }
