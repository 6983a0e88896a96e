"""recurrent_olecranon_bursitis: the current bursal aspirate decides the antibiotic.

- mssa (canonical): septic bursitis, MSSA -> cephalexin 500 mg four times daily (dicloxacillin
  500 mg four times daily accepted in the note) (IDSA SSTI 2014, Table 2).
- mrsa: septic bursitis, MRSA resistant to tetracycline and clindamycin (D-test positive),
  TMP-SMX susceptible -> TMP-SMX DS 1-2 tablets twice daily; no beta-lactam, doxycycline or
  clindamycin.
- aseptic: Gram stain and culture negative, no crystals, low cell count -> no antibiotic.
Every branch: no intrabursal corticosteroid injection; surgeon referral for bursectomy (fourth
episode in two years).
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CEPHALEXIN = "309114"
TMP_SMX = ["198335", "198334"]
DOXYCYCLINE = ["1650142", "1650143"]
CLINDAMYCIN = ["284215"]
# Penicillinase-labile penicillins (amoxicillin 500/875 mg, penicillin V): no MSSA activity.
LABILE_PENICILLINS = ["308192", "308194", "834102"]
BETA_LACTAM_CLASSES = {"cephalosporin", "penicillin", "penicillin + beta-lactamase inhibitor"}
ANTIBIOTIC_CLASSES = BETA_LACTAM_CLASSES | {
    "tetracycline", "lincosamide", "sulfonamide + folate antagonist", "fluoroquinolone",
    "macrolide", "glycopeptide", "nitroimidazole", "folate antagonist", "rifamycin antibacterial",
    "nitrofuran antibiotic", "phosphonic acid antibiotic"}


def _class_codes(classes: set[str]) -> set[str]:
    from physbench_gym.synth import terminology  # noqa: PLC0415
    return {c.code for c in terminology.all_concepts("rxnorm")
            if c.extra.get("drug_class", "") in classes}


def _antibiotic_codes() -> list[str]:
    codes = _class_codes(ANTIBIOTIC_CLASSES) | {CEPHALEXIN, *TMP_SMX, *DOXYCYCLINE, *CLINDAMYCIN}
    return sorted(RX + c for c in codes)


def _order(codes: list[str], per_day: float, label: str, dose: dict | None = None) -> dict:
    spec: dict[str, Any] = {"resource_type": "MedicationRequest", "codes": [RX + c for c in codes],
                            "status": ["active"], "intent": ["order"],
                            "per_day": {"min": per_day, "max": per_day}, "label": label}
    if dose:
        spec["dose"] = dose
    return {"ordered": spec}


def _not(codes: list[str], label: str) -> dict:
    return {"not_ordered": {"resource_type": "MedicationRequest",
                            "codes": [RX + c for c in codes], "label": label}}


def olecranon_bursitis(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["culture"]["kind"]
    septic = kind != "aseptic"
    if kind == "mssa":
        orders = [_order([CEPHALEXIN], 4, "cephalexin 500 mg four times daily",
                         {"min": 500, "max": 500, "unit": "mg"})]
        orders.append(_not(LABILE_PENICILLINS,
                           "no amoxicillin or penicillin V (penicillinase-labile)"))
        wrong: list[str] = []
    elif kind == "mrsa":
        # IDSA 2014 Table 2: 1-2 DS tablets (160-320 mg trimethoprim) twice daily; a DS order is
        # 1-2 tablets whatever is written, a single-strength (80 mg) order must be 2-4 tablets.
        orders = [{"any": {"of": [
                      _order(TMP_SMX[:1], 2, "TMP-SMX DS twice daily"),
                      _order(TMP_SMX[1:], 2, "TMP-SMX SS 2-4 tablets twice daily",
                             {"min": 2, "max": 4, "unit": "tablet"})]}},
                  _not(sorted(_class_codes(BETA_LACTAM_CLASSES)), "no beta-lactam for MRSA"),
                  _not(DOXYCYCLINE, "no doxycycline (tetracycline resistant)"),
                  _not(CLINDAMYCIN, "no clindamycin (inducible resistance)")]
        wrong = ["cephalexin", "dicloxacillin", "amoxicillin", "beta_lactam", "doxycycline",
                 "clindamycin"]
    else:
        orders = [{"not_ordered": {"resource_type": "MedicationRequest",
                                   "codes": _antibiotic_codes(), "label": "no antibiotic"}}]
        wrong = []
    wbc = values["septic_wbc"] if septic else values["aseptic_wbc"]
    return {
        "septic": septic,
        "fluid_wbc_k": round(wbc / 1000, 2),
        "fluid_wbc": values["septic_wbc"] if septic else values["aseptic_wbc"],
        "temp_now": 37.1 if septic else 36.8,
        "antibiotic_orders": orders,
        "wrong_drugs": wrong,
        "all_antibiotic_codes": _antibiotic_codes(),
        "diagnosis": {"mssa": "septic olecranon bursitis due to MSSA",
                      "mrsa": "septic olecranon bursitis due to MRSA",
                      "aseptic": "aseptic (non-infectious) olecranon bursitis"}[kind],
    }
