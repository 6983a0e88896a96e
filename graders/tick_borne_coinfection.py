"""tick_borne_coinfection: which Ixodes-borne coinfection explains fever that persists on
amoxicillin for erythema migrans, and its treatment.

The scenario decides the answer:
- babesiosis (canonical): Babesia seen on the thin smear and B. microti PCR detected, Anaplasma
  PCR not detected -> atovaquone 750 mg every 12 hours plus azithromycin (500 mg day 1, then
  250 mg daily) for 7-10 days (IDSA 2020 babesiosis guideline); amoxicillin continues to finish
  the 14-day erythema migrans course (IDSA/AAN/ACR 2020 Lyme guideline).
- anaplasmosis: smear and Babesia PCR negative, A. phagocytophilum PCR detected -> doxycycline
  100 mg twice daily for 10-14 days (CDC), which also treats the Lyme disease, so amoxicillin
  stops; no atovaquone or azithromycin.
- both: Babesia and Anaplasma -> doxycycline plus atovaquone-azithromycin; amoxicillin stops.
Every branch: no ceftriaxone and no repeat Lyme serology (no serologic test of cure).
The parasitemia (babesial branches, drawn below 4%: mild-moderate, outpatient oral therapy, no
exchange transfusion) and the platelet count (anaplasmosis) are the values the note must quote.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import matches_code, patient_id

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
ATOVAQUONE = [RX + "308429"]
AZITHROMYCIN = [RX + "308460", RX + "248656"]
DOXYCYCLINE = [RX + "1650143", RX + "1650142"]
CEFTRIAXONE = [RX + "1665021"]

_DX = {
    "babesiosis": "babesiosis (Babesia microti), with Lyme disease; no anaplasmosis",
    "anaplasmosis": "human granulocytic anaplasmosis, with Lyme disease; no babesiosis",
    "both": "babesiosis and human granulocytic anaplasmosis, with Lyme disease",
}


def tick_borne(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in _DX:
        raise ValueError(f"unknown scenario {kind!r}")
    babesia = kind in ("babesiosis", "both")
    anaplasma = kind in ("anaplasmosis", "both")
    if babesia and not 1.0 <= values["parasitemia"] < 4:
        raise ValueError("parasitemia must stay mild-moderate (<4%) for outpatient oral therapy")
    smear = (f"Intraerythrocytic ring forms, including occasional tetrads (Maltese cross forms); "
             f"Babesia species seen. Parasitemia {values['parasitemia']}% of red cells."
             if babesia else "No intraerythrocytic parasites seen on thick and thin films.")
    return {
        "babesia": babesia,
        "anaplasma": anaplasma,
        "dx_text": _DX[kind],
        "smear_text": smear,
        "amox_action": ["continue"] if kind == "babesiosis" else ["stop"],
        "amox_plan_text": ("continue amoxicillin to finish the 14-day erythema migrans course"
                           if kind == "babesiosis" else
                           "stop amoxicillin; doxycycline also treats the Lyme disease"),
        "atovaquone_codes": ATOVAQUONE,
        "azithromycin_codes": AZITHROMYCIN,
        "doxycycline_codes": DOXYCYCLINE,
        "ceftriaxone_codes": CEFTRIAXONE,
    }


def _days(quantity: dict[str, Any] | None) -> float | None:
    """A FHIR Duration in days (d, wk or mo), or None when absent or in another unit."""
    if not quantity or quantity.get("value") is None:
        return None
    factor = {"d": 1, "day": 1, "days": 1, "wk": 7, "week": 7, "weeks": 7, "mo": 30,
              "month": 30, "months": 30}.get(str(quantity.get("code") or quantity.get("unit")))
    return None if factor is None else float(quantity["value"]) * factor


@triggered_by(WRITE)
def babesia_course_ordered(ctx: GradingContext) -> CheckpointResult:
    """No atovaquone or azithromycin order states a course outside 7-10 days (IDSA 2020
    babesiosis guideline, mild-moderate disease); an order without a duration passes."""
    wanted = ctx.values["atovaquone_codes"] + ctx.values["azithromycin_codes"]
    for r in ctx.written("MedicationRequest"):
        if patient_id(r) != ctx.patient_id or not matches_code(r, wanted):
            continue
        stated = [_days((r.get("dispenseRequest") or {}).get("expectedSupplyDuration"))]
        stated += [_days(((d.get("timing") or {}).get("repeat") or {}).get("boundsDuration"))
                   for d in r.get("dosageInstruction") or []]
        for days in stated:
            if days is not None and not 7 <= days <= 10:
                return CheckpointResult(False, f"atovaquone/azithromycin ordered for {days:g} days"
                                        " (7-10 days asked)")
    return CheckpointResult(True, "no atovaquone/azithromycin course outside 7-10 days ordered")
