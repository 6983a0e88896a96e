"""leukopenia_workup: which cause the low white count of a 46-year-old woman born in Ghana has.

The scenario decides the answer; her ancestry is the same in every branch, so only her own
neutrophil history tells them apart:
- danc: an isolated neutrophil count of 1.2-1.6 x10^3/uL, stable for six years, no infections
  -> Duffy-null associated neutrophil count (inside the Duffy-null reference interval
  1.21-5.39, Merz 2023); confirm with red-cell Duffy antigen typing; no marrow, no G-CSF.
- drug: a normal count (3.6-4.2) until trimethoprim-sulfamethoxazole prophylaxis started
  10 weeks ago -> drug-induced neutropenia; stop it, repeat the CBC in 1-2 weeks.
- copper: a falling count with a rising MCV, neuropathy and zinc 50 mg twice daily after a
  gastric bypass -> acquired copper deficiency; serum copper and ceruloplasmin, stop zinc.
The current count moves within each branch's band (anc_pos).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

# lower, upper current ANC (10^3/uL) of each branch
BANDS = {"danc": (1.21, 1.76), "drug": (0.60, 0.95), "copper": (0.70, 0.98)}
DATES = ["-6y", "-5y", "-4y", "-3y-2m", "-3y", "-2y", "-1y"]
# ANC history at DATES; -3y-2m is the ED visit for influenza (a transient viral dip)
ANC_HISTORY = {
    "danc": [1.41, 1.26, 1.52, 0.88, 1.33, 1.37, 1.46],
    "drug": [3.84, 4.21, 3.62, 0.94, 4.02, 3.91, 3.73],
    "copper": [3.62, 3.88, 3.41, 0.91, 3.52, 2.58, 1.64],
}
ALC = [1.82, 1.74, 1.91, 0.62, 1.86, 1.78, 1.80]
HGB = {"danc": [13.1, 13.0, 13.2, 12.9, 13.1, 12.9, 13.0],
       "drug": [13.1, 13.0, 13.2, 12.9, 13.1, 12.9, 13.0],
       "copper": [13.1, 13.0, 12.9, 12.8, 12.8, 12.3, 11.8]}
MCV = {"danc": [88, 89, 88, 88, 89, 88, 89], "drug": [88, 89, 88, 88, 89, 88, 89],
       "copper": [90, 91, 90, 91, 92, 95, 98]}
CURRENT = {"danc": {"hgb": 12.9, "mcv": 89, "alc": 1.76},
           "drug": {"hgb": 12.8, "mcv": 90, "alc": 1.71},
           "copper": {"hgb": 11.0, "mcv": 102, "alc": 1.58}}
OTHER_CELLS = 0.38  # monocytes, eosinophils and basophils, 10^3/uL

LAB = "http://loinc.org|"
CPT = "http://www.ama-assn.org/go/cpt|"
BONE_MARROW = [CPT + "38220", CPT + "38221", CPT + "38222"]
BONE_MARROW_TEXT = ["bone marrow", "marrow biopsy", "marrow aspirat"]
G_CSF_TEXT = ["filgrastim", "pegfilgrastim", "eflapegrastim", "sargramostim", "G-CSF", "GCSF",
              "GM-CSF", "colony-stimulating", "colony stimulating", "Neupogen", "Neulasta",
              "Zarxio", "Nivestym", "Releuko", "Granix", "Udenyca", "Fulphila", "Ziextenzo",
              "Nyvepria", "Fylnetra", "Stimufend", "Rolvedon", "Leukine"]
TMP_SMX = ["http://www.nlm.nih.gov/research/umls/rxnorm|" + c for c in ("198334", "198335")]
DUFFY = [CPT + "86905"]
# typing of her red cells, not a Duffy antibody screen or identification (review finding 10)
DUFFY_TEXT = ["Duffy antigen", "Duffy phenotyp", "Duffy genotyp", "Duffy typing",
              "Duffy blood group typing", "Duffy blood group phenotyp", "Duffy RBC antigen",
              "Duffy red cell antigen", "red cell Duffy", "red-cell Duffy", "RBC Duffy",
              "Fy(a-b-)", "Fy(a)/Fy(b)", "Fy(a) and Fy(b)", "Fya/Fyb", "Fya and Fyb", "Fy a/Fy b",
              "Fy a and Fy b", "ACKR1", "DARC genotyp"]
# only orders that return an ANC: CBC with differential (LOINC 57021-8, CPT 85025) or the
# neutrophil count itself (751-8); a CBC without differential or a WBC alone does not
# (review finding 7)
CBC = [LAB + "57021-8", LAB + "751-8", CPT + "85025"]
COPPER = [LAB + "5631-7", CPT + "82525"]
CERULOPLASMIN = [LAB + "2064-4", CPT + "82390"]

LABELS = {
    "danc": "Duffy-null associated neutrophil count (formerly benign ethnic neutropenia)",
    "drug": "drug-induced neutropenia from trimethoprim-sulfamethoxazole",
    "copper": "acquired copper deficiency (zinc excess after Roux-en-Y gastric bypass)",
}


def _wbc(anc: float, alc: float) -> float:
    return round(anc + alc + OTHER_CELLS, 1)


def _points(values: list[float], current: float) -> list[dict[str, Any]]:
    return [{"date": d, "value": v} for d, v in zip(DATES, values, strict=True)] + [
        {"date": "-5d", "value": current}]


def leukopenia(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    lo, hi = BANDS[kind]
    now = CURRENT[kind]
    anc = round(lo + values["anc_pos"] * (hi - lo), 2)
    wbc = _wbc(anc, now["alc"])
    history = ANC_HISTORY[kind]
    return {
        "anc": anc,
        "anc_cells": f"{round(anc * 1000):,}",
        "cbc_date": (values["now"] + timedelta(days=7)).date().isoformat(),
        # the oracle's window of notes from 2.5 to 1.5 years ago (cellulitis, dermatology)
        "notes_from": (values["now"] - timedelta(days=913)).date().isoformat(),
        "notes_to": (values["now"] - timedelta(days=548)).date().isoformat(),
        "wbc": wbc,
        "neut_pct": round(100 * anc / wbc),
        "anc_points": _points(history, anc),
        "wbc_points": _points([_wbc(a, b) for a, b in zip(history, ALC, strict=True)], wbc),
        "alc_points": _points(ALC, now["alc"]),
        "hgb_points": _points(HGB[kind], now["hgb"]),
        "mcv_points": _points(MCV[kind], now["mcv"]),
        "hgb_now": now["hgb"],
        "mcv_now": now["mcv"],
        "cause_label": LABELS[kind],
        "bone_marrow_codes": BONE_MARROW,
        "bone_marrow_text": BONE_MARROW_TEXT,
        "g_csf_text": G_CSF_TEXT,
        "tmp_smx_codes": TMP_SMX,
        "duffy_codes": DUFFY,
        "duffy_text": DUFFY_TEXT,
        "cbc_codes": CBC,
        "copper_codes": COPPER,
        "ceruloplasmin_codes": CERULOPLASMIN,
    }
