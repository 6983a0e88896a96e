"""mds_iron_overload: iron chelation for transfusional iron overload in lower-risk MDS.

The scenario decides the chelator and its dose (JADENU/deferasirox tablets PI sections 2.1, 2.5,
4; DESFERAL PI section 2.2; NCCN MDS supportive care):
- standard: eGFR above 60, platelets above 50 x 10^9/L -> deferasirox tablets 14 mg/kg once
  daily (to the nearest whole tablet); subcutaneous deferoxamine 20-40 mg/kg is an alternative.
- renal: eGFR 40-60 -> deferasirox at half the starting dose, 7 mg/kg once daily (or
  deferoxamine).
- low_platelets: platelets below 50 x 10^9/L -> deferasirox is contraindicated; subcutaneous
  deferoxamine 20-40 mg/kg a day.
Deferasirox may also be given as tablets for oral suspension (EXJADE) at 20 mg/kg (10 mg/kg at
eGFR 40-60), in the note and in the orders.
Every branch: no deferiprone (agranulocytosis; neutropenic MDS), stop the oral iron, baseline
audiometry and eye examination. The dose scales with the current weight.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology
from physbench_gym.synth.routine import egfr

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
DFX = [RX + c for c in ("1607792", "1607796", "1607784")]  # 360, 90, 180 mg tablets
TFOS = [RX + c for c in ("597768", "597770", "597772")]  # tablets for oral suspension (EXJADE)
DFO = [RX + "1731350"]
DFP = [RX + c for c in ("389242", "2180997")]  # 500 and 1,000 mg tablets
ORAL, SUBCUT = ["26643006", "oral"], ["34206005", "subcutaneous"]
# creatinine (mg/dL) now, 3 weeks, 6 months and 1 year ago; platelets (10^3/uL) now, 3, 6, 12 mo
SCENARIOS = {
    "standard": {"creat": (0.92, 0.95, 0.9, 0.94), "plt": (112, 118, 126, 139)},
    "renal": {"creat": (1.48, 1.44, 1.31, 1.18), "plt": (108, 115, 124, 137)},
    "low_platelets": {"creat": (0.95, 0.93, 0.91, 0.96), "plt": (38, 49, 63, 88)},
}


def _order(codes: list[str], low: float, high: float, per_day: list[float], route: list[str],
           label: str) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": codes,
                        "status": ["active"], "intent": ["order"],
                        "dose": {"min": low, "max": high, "unit": "mg"},
                        "per_day": {"min": per_day[0], "max": per_day[1]}, "route": route,
                        "label": label}}


def _start(concept: str, low: float, high: float, weight: int, route: str,
           label: str, every: tuple[float, float]) -> dict[str, Any]:
    per_kg = {"mg/kg": weight, "mg/kg/day": weight, "mg/kg/d": weight, "mg/kg daily": weight}
    return {"note_decision": {
        "concept": [concept], "action": ["start"], "route": [route], "label": label,
        "dose": {"min": low, "max": high, "unit": "mg", "units": per_kg},
        "every": {"min": every[0], "max": every[1]}}}


def _never(concept: str, label: str, **extra: Any) -> dict[str, Any]:
    return {"note_never": {"concept": [concept], "label": label, **extra}}


def _not(codes: list[str], label: str) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "MedicationRequest", "codes": codes, "label": label}}


def mds_iron_overload(values: dict[str, Any]) -> dict[str, Any]:
    kind, weight, age = values["scenario"]["kind"], int(values["weight"]), int(values["age"])
    creat, plt = SCENARIOS[kind]["creat"], SCENARIOS[kind]["plt"]
    gfr = [int(egfr(c, age, False)) for c in creat]
    per_kg = 7 if kind == "renal" else 14
    dfx_low, dfx_high = per_kg * weight - 90, per_kg * weight + 90
    dfx_dose = round(per_kg * weight / 90) * 90
    # one tablet strength per order (the order grader reads one MedicationRequest)
    tab = next(s for s in (360, 180, 90) if dfx_dose % s == 0)
    dfo_low, dfo_high, dfo_dose = 20 * weight, 40 * weight, round(30 * weight / 500) * 500
    dfx_label = f"deferasirox {per_kg} mg/kg ({dfx_low}-{dfx_high} mg) once daily by mouth"
    dfo_label = f"deferoxamine 20-40 mg/kg ({dfo_low}-{dfo_high} mg) subcutaneously"
    dfx_order = _order(DFX, dfx_low, dfx_high, [1, 1], ORAL, dfx_label)
    dfo_order = _order(DFO, dfo_low, dfo_high, [0.7, 1], SUBCUT, dfo_label)
    dfx_note = _start("deferasirox", dfx_low, dfx_high, weight, "oral", dfx_label, (1, 1))
    # 5-7 nights a week (DESFERAL PI 2.2): 'once weekly' or fortnightly fails.
    dfo_note = _start("deferoxamine", dfo_low, dfo_high, weight, "subcutaneous", dfo_label,
                      (5 / 7, 1))
    # deferasirox tablets for oral suspension (EXJADE PI 2.1): 20 mg/kg, 10 mg/kg at eGFR 40-60,
    # to the nearest whole tablet (125, 250, 500 mg)
    tfos_per_kg = 10 if kind == "renal" else 20
    tfos = tfos_per_kg * weight
    tfos_label = (f"deferasirox tablets for oral suspension {tfos_per_kg} mg/kg "
                  f"({tfos - 125}-{tfos + 125} mg) once daily")
    tfos_note = _start("deferasirox_dispersible", tfos - 125, tfos + 125, weight, "oral",
                       tfos_label, (1, 1))
    tfos_order = _order(TFOS, tfos - 125, tfos + 125, [1, 1], ORAL, tfos_label)
    only_dfx = _never("deferoxamine", "not deferoxamine as well", action=["start"],
                      allow_contingency=True)
    only_dfo = _never("deferasirox", "not deferasirox as well", action=["start"],
                      allow_contingency=True)
    iron = [RX + c.code for c in terminology.all_concepts("rxnorm")  # oral and IV iron products
            if c.extra.get("drug_class", "") in ("oral iron supplement", "parenteral iron")]
    if kind == "low_platelets":
        order_options = [{"all": {"of": [
            dfo_order, _not(DFX + TFOS, "deferasirox (platelets <50)")]}}]
        note_options = [{"all": {"of": [dfo_note, _never(
            "deferasirox", "no deferasirox while platelets are below 50", allow_contingency=True,
            contingency_on=["platelets"])]}}]
    else:
        order_options = [{"all": {"of": [dfx_order, _not(DFO, "not deferoxamine as well")]}},
                         {"all": {"of": [tfos_order, _not(DFO, "not deferoxamine as well")]}},
                         {"all": {"of": [dfo_order, _not(DFX + TFOS, "not deferasirox as well")]}}]
        note_options = [{"all": {"of": [dfx_note, only_dfx]}},
                        {"all": {"of": [tfos_note, only_dfx]}},
                        {"all": {"of": [dfo_note, only_dfo]}}]
    return {
        "creat_now": creat[0], "creat_3w": creat[1], "creat_6m": creat[2], "creat_1y": creat[3],
        "egfr_now": gfr[0], "egfr_3w": gfr[1], "egfr_6m": gfr[2], "egfr_1y": gfr[3],
        "plt_now": plt[0], "plt_3m": plt[1], "plt_6m": plt[2], "plt_1y": plt[3],
        "weight_3m": weight + 1, "weight_1y": weight + 4, "weight_2y": weight + 8,
        "weight_3y": weight + 11,
        "dfx_per_kg": per_kg, "dfx_low": dfx_low, "dfx_high": dfx_high, "dfx_dose": dfx_dose,
        "dfx_code": {360: "1607792", 180: "1607784", 90: "1607796"}[tab], "dfx_tab_mg": tab,
        "dfx_tabs": dfx_dose // tab, "dfo_low": dfo_low, "dfo_high": dfo_high,
        "dfo_dose": dfo_dose, "dfo_vials": dfo_dose // 500,
        "dfx_quantity": dfx_dose // tab * 30, "dfo_quantity": dfo_dose // 500 * 20,
        "message_plan": (
            f"Platelets {plt[0]}: deferasirox is contraindicated, so I started subcutaneous "
            f"deferoxamine {dfo_dose} mg 5 nights a week; no deferiprone."
            if kind == "low_platelets"
            else f"Started deferasirox {dfx_dose} mg ({per_kg} mg/kg for {weight} kg) by mouth "
                 "once daily; no deferiprone."),
        "order_options": order_options, "note_options": note_options,
        "deferiprone_codes": DFP, "deferasirox_codes": DFX + TFOS, "iron_codes": iron,
    }
