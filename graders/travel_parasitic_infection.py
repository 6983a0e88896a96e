"""Eosinophilia in a migrant who recently visited home (infectious-disease e-consult).

Strongyloides IgG is positive in every variant; the Schistosoma IgG and the Loa loa risk move with
the region the patient comes from, and the doses move with the weight:
- ivermectin 200 ug/kg once daily for 1-2 days (STROMECTOL label: single 200 ug/kg dose; CDC:
  200 ug/kg/day for 1-2 days), in whole 3 mg tablets; 180-250 ug/kg a dose is accepted;
- praziquantel 20 mg/kg a dose, two or three doses in one day (CDC 40 mg/kg/day in 2 doses for
  S. mansoni / S. haematobium; BILTRICIDE label 20 mg/kg three times in one day), rounded to the
  quarter tablet (150 mg); 17-23 mg/kg a dose is accepted;
- from a Loa loa-endemic region (Central/West African rainforest), ivermectin waits for a daytime
  blood film for Loa microfilariae (encephalopathy risk at a high microfilarial load).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

IVERMECTIN_TABLET_MG = 3
PRAZIQUANTEL_STEP_MG = 150  # a quarter of the scored 600 mg tablet


def _round_to(value: float, step: int) -> int:
    return step * max(1, round(value / step))


def _systemic_steroid_rxnorm() -> list[str]:
    return sorted(
        c.code
        for c in terminology.all_concepts("rxnorm")
        if c.extra.get("drug_class") == "corticosteroid"
        and c.extra.get("route") in {"oral", "intravenous", "intramuscular"}
    )


def parasite_case(values: dict[str, Any]) -> dict[str, Any]:
    region = values["region"]
    weight = float(values["weight_kg"])
    eos = float(values["eos_now"])
    iver = _round_to(0.2 * weight, IVERMECTIN_TABLET_MG)
    iver_low, iver_high = round(0.18 * weight, 1), round(0.25 * weight, 1)
    if iver < iver_low:  # the label's weight table rounds up (51-65 kg: 12 mg)
        iver += IVERMECTIN_TABLET_MG
    prz = _round_to(20 * weight, PRAZIQUANTEL_STEP_MG)
    prz_low, prz_high = round(17 * weight), round(23 * weight)
    if not (iver_low <= iver <= iver_high and prz_low <= prz <= prz_high):
        raise ValueError(f"doses {iver} mg / {prz} mg out of range at {weight} kg")
    if region["loa"]:
        plan = "loa_first"
    elif region["schisto"]:
        plan = "both"
    else:
        plan = "ivermectin_only"
    wbc = round(6.2 + eos, 1)
    return {
        "plan": plan,
        "schisto_result": "10828004" if region["schisto"] else "260385009",
        "iver_mg": iver,
        "iver_tablets": iver // IVERMECTIN_TABLET_MG,
        "iver_low": iver_low,
        "iver_high": iver_high,
        "prz_mg": prz,
        "prz_low": prz_low,
        "prz_high": prz_high,
        "prz_day_mg": 2 * prz,
        "prz_day_low": 2 * prz_low,
        "prz_day_high": 3 * prz_high,
        "prz_quantity": -(-2 * prz // 600),
        "eos_prev": round(eos * 0.55, 1),
        "wbc_now": wbc,
        "wbc_prev": round(6.2 + eos * 0.55, 1),
        "eos_pct": round(100 * eos / wbc),
        "eos_pct_prev": round(100 * eos * 0.55 / (6.2 + eos * 0.55)),
        "weight_prev": round(weight - 1.4, 1),
        "ivermectin_rxnorm": "311207",
        "praziquantel_rxnorm": "198140",
        "steroid_rxnorm": _systemic_steroid_rxnorm(),
    }
