"""mgus_in_ckd: a high serum free light chain ratio in a man with CKD G4.

Three scenarios (``scenario[name]``), all with a kappa/lambda ratio flagged high against the
standard range (0.26-1.65, Katzman 2002):
- ``renal_polyclonal`` (canonical): ratio 1.70-2.70, inside the renal reference range
  (0.37-3.10, Hutchison 2008), SPEP and immunofixation negative -> polyclonal FLC elevation
  from reduced renal clearance; no monoclonal gammopathy, no marrow, no MGUS follow-up.
- ``mgus``: the same ratio with a small IgG kappa band (0.3-1.0 g/dL) on immunofixation,
  diabetic kidney disease explaining the CKD -> low-risk IgG kappa MGUS (renal-range ratio);
  no marrow or skeletal imaging; SPEP and FLC again in about 6 months (IMWG 2010).
- ``light_chain``: ratio 8-30 with a free kappa band on immunofixation, a fast eGFR fall and
  mostly non-albumin proteinuria without retinopathy -> suspected monoclonal light-chain
  disease (MGRS, cast nephropathy or light-chain myeloma): bone marrow aspirate and biopsy and
  nephrology referral for a kidney biopsy (IKMG 2019, IMWG 2014).
"""

from __future__ import annotations

from typing import Any

# The ratio = lo + span * draw per scenario; the eGFR of 1, 2, 3 and 5 years ago over today's.
RATIO = {"renal_polyclonal": (1.70, 1.0), "mgus": (1.70, 1.0), "light_chain": (8.0, 22.0)}
EGFR_RISE = {"renal_polyclonal": (3, 6, 9, 14), "mgus": (3, 6, 9, 14),
             "light_chain": (12, 14, 15, 18)}
URINE = {  # urine albumin/creatinine and protein/creatinine ratios today (mg/g)
    "renal_polyclonal": (420, 610), "mgus": (420, 610), "light_chain": (160, 2850)}
IGS = {"renal_polyclonal": (1480, 310, 90), "mgus": (1620, 280, 85),
       "light_chain": (610, 74, 31)}  # IgG, IgA, IgM mg/dL


def creatinine(egfr: float, age: int) -> float:
    """Serum creatinine (mg/dL) giving this CKD-EPI 2021 eGFR in a man (creatinine above 0.9)."""
    return round(0.9 * (egfr / (142 * 0.9938 ** age)) ** (-1 / 1.2), 2)


def mgus_in_ckd(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    lo, span = RATIO[name]
    ratio = round(lo + span * values["ratio_draw"], 2)
    lam = values["lam"] if name != "light_chain" else round(values["lam"] * 0.55, 1)
    egfr, age = values["egfr"], values["age"]
    if not 15 <= egfr <= 29:
        raise ValueError(f"eGFR {egfr} leaves CKD G4")
    older = [egfr + d for d in EGFR_RISE[name]]
    # CKD G4 (eGFR 15-29, KDIGO 2024) from the first yearly value below 30; G3b (30-44) before it
    ckd4_since = "-2y-5w" if older[1] < 30 else "-1y" if older[0] < 30 else "-3w"
    uacr, upcr = URINE[name]
    igg, iga, igm = IGS[name]
    return {
        "ratio": ratio,
        "kappa": round(ratio * lam, 1),
        "lam_value": lam,
        "mspike": round(0.3 + 0.7 * values["mspike_draw"], 1),
        "egfr_1y": older[0], "egfr_2y": older[1], "egfr_3y": older[2], "egfr_5y": older[3],
        # each past creatinine at the age he was then (CKD-EPI 2021 falls 0.62% a year of age)
        "creat": creatinine(egfr, age), "creat_1y": creatinine(older[0], age - 1),
        "creat_2y": creatinine(older[1], age - 2), "creat_3y": creatinine(older[2], age - 3),
        "creat_5y": creatinine(older[3], age - 5),
        "stage_2y": "G3b" if older[1] >= 30 else "G4", "ckd4_since": ckd4_since,
        "uacr": uacr, "upcr": upcr, "igg": igg, "iga": iga, "igm": igm,
        "ratio_flag": "H" if ratio > 1.65 else "N",
        "tp": 6.2 if name == "light_chain" else 7.1,  # total protein g/dL (immunoparesis)
    }
