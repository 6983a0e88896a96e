"""ckd_on_prep: kidney function of a man whose F/TDF PrEP was held for a rising creatinine.

The profile decides the reading (CDC PrEP guideline 2021; TRUVADA and DESCOVY labels):
- tdf_injury (canonical): Cockcroft-Gault CrCl below 60 mL/min, cystatin C as low, normoglycemic
  glycosuria, low phosphate and tubular proteinuria while taking naproxen -> tenofovir
  disoproxil proximal tubulopathy; F/TDF is not resumed, F/TAF (CrCl >= 30, PrEP for sex
  between men) restarts PrEP, NSAIDs stop.
- creatine: creatinine up after creatine supplements and weight training, CKD-EPI eGFRcr just
  under 60 but CrCl >= 60, cystatin C normal, clean urine -> no loss of GFR; PrEP resumes
  (F/TDF, or F/TAF).
One draw, `severity`, places the creatinine inside each profile's range.
"""

from __future__ import annotations

from typing import Any

AGE = 46
WEIGHT = {"tdf_injury": 76.0, "creatine": 98.0}
SCR_RANGE = {"tdf_injury": (1.72, 2.22), "creatine": (1.48, 1.68)}
FTC_TDF = ["476556", "639888"]   # generic SCD, TRUVADA SBD
FTC_TAF = ["1747691", "1747697"]  # generic SCD, DESCOVY SBD


def cockcroft_gault(scr: float, weight: float, age: int = AGE) -> float:
    return (140 - age) * weight / (72 * scr)


def egfr_cr(scr: float, age: int = AGE) -> float:
    """CKD-EPI 2021 creatinine equation, male."""
    r = scr / 0.9
    return 142 * min(r, 1) ** -0.302 * max(r, 1) ** -1.2 * 0.9938 ** age


def egfr_cys(cys: float, age: int = AGE) -> float:
    """CKD-EPI 2012 cystatin C equation."""
    r = cys / 0.8
    return 133 * min(r, 1) ** -0.499 * max(r, 1) ** -1.328 * 0.996 ** age


def egfr_cr_cys(scr: float, cys: float, age: int = AGE) -> float:
    """CKD-EPI 2021 creatinine-cystatin C equation, male."""
    r, c = scr / 0.9, cys / 0.8
    return (135 * min(r, 1) ** -0.144 * max(r, 1) ** -0.544 * min(c, 1) ** -0.323
            * max(c, 1) ** -0.778 * 0.9961 ** age)


def ckd_on_prep(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["profile"]["kind"]
    u = float(values["severity"])
    lo, hi = SCR_RANGE[kind]
    scr = round(lo + u * (hi - lo), 2)
    weight = WEIGHT[kind]
    crcl = round(cockcroft_gault(scr, weight))
    egfr = round(egfr_cr(scr))
    if kind == "tdf_injury":
        # cystatin C agreeing with the creatinine (eGFRcys a few points above eGFRcr)
        cys = round(0.8 * ((egfr + 3) / (133 * 0.996 ** AGE)) ** (-1 / 1.328), 2)
        if not 30 <= crcl < 60:
            raise ValueError(f"variant outside the task's design: CrCl {crcl}")
    else:
        cys = round(0.82 + u * 0.08, 2)
        if not (crcl >= 60 and egfr < 60):
            raise ValueError(f"variant outside the task's design: CrCl {crcl}, eGFR {egfr}")
    injury = kind == "tdf_injury"
    return {
        "scr": scr, "scr_first": round(scr - 0.07 if injury else scr + 0.04, 2),
        "scr_1y": 1.28 if injury else 1.04,
        "egfr_first": round(egfr_cr(round(scr - 0.07 if injury else scr + 0.04, 2))),
        "egfr_1y": round(egfr_cr(1.28 if injury else 1.04, AGE - 1)),
        "weight": weight, "crcl": crcl, "egfr": egfr, "cys": cys,
        "egfr_cys": round(egfr_cys(cys)), "egfr_cr_cys": round(egfr_cr_cys(scr, cys)),
        "phosphate": round(2.0 + u * 0.3, 1) if injury else 3.6,
        "upcr": round(380 + u * 200) if injury else 70,
        "uacr": 24 if injury else 6,
        "co2": 22 if injury else 26,  # low-normal bicarbonate with proximal tubular injury
        # what the note's CrCl must say: the computed value (injury), or >= 60 by actual weight
        # (creatine). At 98 kg he is above 120% of ideal body weight, and a CrCl from ideal or
        # adjusted weight can fall to about 55: in that branch a second value does not contradict.
        "crcl_min": max(30, crcl - 6) if injury else 60,
        "crcl_max": min(59.9, crcl + 6) if injury else 250,
        "crcl_required": injury, "crcl_contradicts": injury,
        "prep_order_codes": FTC_TAF if injury else FTC_TAF + FTC_TDF,
        "forbidden_prep_codes": FTC_TDF if injury else [],
        "ftc_tdf_codes": FTC_TDF, "ftc_taf_codes": FTC_TAF,
        "message_names": (["F/TAF", "FTC/TAF", "TAF", "Descovy", "tenofovir alafenamide"]
                          if injury else
                          ["PrEP", "F/TDF", "FTC/TDF", "TDF", "Truvada", "tenofovir", "Descovy",
                           "F/TAF"]),
    }
