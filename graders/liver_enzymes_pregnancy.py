"""liver_enzymes_pregnancy: raised liver enzymes in the third trimester - which disorder,
and the plan.

The scenario decides the answer:
- icp: pruritus with total bile acids 22-94 umol/L -> intrahepatic cholestasis of pregnancy;
  ursodiol 10-21 mg/kg/day, repeat bile acids and liver tests, obstetric referral, delivery
  between 36 0/7 and 39 0/7 weeks (SMFM Consult Series #53, 2021).
- icp_severe: bile acids >= 100 umol/L -> the same, with delivery at 36 0/7 weeks (SMFM #53;
  RCOG Green-top 43, 2022: 35-36 weeks).
- hellp: hypertension, proteinuria, platelets < 100 x10^3/uL, AST and LDH raised -> HELLP
  syndrome (ACOG Practice Bulletin 222, 2020): same-day obstetric (labor and delivery)
  evaluation; no ursodiol, no outpatient work-up.
Every branch: no liver biopsy.
"""

from __future__ import annotations

import math
from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
URSODIOL = ["858747"]
# The one ursodiol product of the terminology is the 300 mg capsule (RxCUI 858747), so an order
# is graded at 300 mg a dose; 250 or 500 mg on that code is not a dose the capsule can give.
STRENGTHS = (300,)


def _urso_options(low: int, high: int) -> list[dict[str, Any]]:
    """One `ordered` grader per dose and doses a day whose daily total is 10-21 mg/kg."""
    options = []
    for dose in STRENGTHS:
        times = [k for k in (1, 2, 3, 4) if low <= dose * k <= high]
        if times:
            options.append({"ordered": {
                "resource_type": "MedicationRequest", "codes": [RX + c for c in URSODIOL],
                "status": ["active"], "intent": ["order"],
                "dose": {"min": dose, "max": dose, "unit": "mg"},
                "per_day": {"min": min(times), "max": max(times)},
                "label": f"ursodiol {dose} mg {min(times)}-{max(times)} times a day"}})
    return options


def liver_enzymes_pregnancy(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    weight = values["weight_kg"]
    low, high = math.ceil(10 * weight), math.floor(21 * weight)
    tba = values["tba_severe"] if kind == "icp_severe" else values["tba_mild"]
    if kind == "icp_severe" and tba < 100 or kind == "icp" and tba >= 100:
        raise ValueError(f"bile acids {tba} outside the {kind} band")
    delivery = {"icp": {"min": 36, "max": 39},
                "icp_severe": {"min": 35, "max": 36.9},
                "hellp": None}[kind]
    return {
        "tba": tba,
        "urso_min": low,
        "urso_max": high,
        "urso_options": _urso_options(low, high),
        "ursodiol_codes": [RX + c for c in URSODIOL],
        "delivery_weeks": delivery,
        "delivery_text": {"icp": "between 36 0/7 and 39 0/7 weeks",
                          "icp_severe": "at 36 0/7 weeks",
                          "hellp": "now, after maternal stabilization"}[kind],
        "intake_weeks": values["ga_weeks"] - 9,
        "anatomy_weeks": values["ga_weeks"] - 20,
        "gtt_weeks": values["ga_weeks"] - 27,
        "intake_weight": weight - 9,
        "tba_band": ("100 umol/L or more" if tba >= 100 else
                     "40-99 umol/L" if tba >= 40 else "below 40 umol/L"),
    }
