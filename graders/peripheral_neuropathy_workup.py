"""Distal symmetric polyneuropathy e-consult: kidney function, B12 status and the pattern of the
neuropathy.

Creatinine clearance by Cockcroft-Gault (male), with actual and with ideal body weight (Devine),
sets the neuropathic pain options: the NEURONTIN label (section 2.4) doses gabapentin at CrCl
>=60 mL/min 900-3600 mg/day in 3 doses, 30-59 mL/min 400-1400 mg/day in 2 doses, 15-29 mL/min
200-700 mg/day once daily; the LYRICA label caps pregabalin at 300 mg/day for diabetic neuropathy
and at CrCl 30-60 mL/min, 150 mg/day at 15-30; CYMBALTA is avoided at CrCl <30 mL/min. The
creatinine is nudged up until both estimates fall in one band, at least 1.5 mL/min from its edges.
The eGFR (CKD-EPI 2021) sets what the PCP did with metformin (FDA 2016 metformin labeling:
contraindicated below 30, reassess below 45).
"""

from __future__ import annotations

from typing import Any

HEIGHT_CM = 178
WEIGHT_KG = 88
EDGES = (30.0, 60.0)


def _crcl(age: int, weight: float, creat: float) -> float:
    return (140 - age) * weight / (72 * creat)


def _egfr(age: int, creat: float) -> int:
    """CKD-EPI 2021 creatinine equation, male."""
    ratio = creat / 0.9
    return round(142 * min(ratio, 1) ** -0.302 * max(ratio, 1) ** -1.2 * 0.9938 ** age)


def _band(crcl: float) -> str:
    return "15-29" if crcl < 30 else "30-59" if crcl < 60 else "60+"


BANDS = {
    # gabapentin mg per dose, doses a day, mg a day; pregabalin mg a day, doses a day and the two
    # label schedules (a: n doses of at most max mg, b: likewise; LYRICA Table 1); duloxetine
    # allowed
    "60+": {"gaba_dose_max": 1200, "gaba_per_day": 3, "gaba_max_daily": 3600, "pgb_max_daily": 300,
            "pgb_per_day": 3, "pgb_min_per_day": 1, "pgb_1x_max": 150, "pgb_a_n": 2,
            "pgb_a_max": 150, "pgb_b_n": 3, "pgb_b_max": 100, "duloxetine_ok": True,
            "gaba_text": "900-3600 mg a day in 3 doses (start 300 mg at bedtime)"},
    "30-59": {"gaba_dose_max": 700, "gaba_per_day": 2, "gaba_max_daily": 1400, "pgb_max_daily": 300,
              "pgb_per_day": 3, "pgb_min_per_day": 1, "pgb_1x_max": 150, "pgb_a_n": 2,
              "pgb_a_max": 150, "pgb_b_n": 3, "pgb_b_max": 100, "duloxetine_ok": True,
              "gaba_text": "400-1400 mg a day in 2 doses"},
    "15-29": {"gaba_dose_max": 700, "gaba_per_day": 1, "gaba_max_daily": 700, "pgb_max_daily": 150,
              "pgb_per_day": 2, "pgb_min_per_day": 1, "pgb_1x_max": 150, "pgb_a_n": 1,
              "pgb_a_max": 150, "pgb_b_n": 2, "pgb_b_max": 75, "duloxetine_ok": False,
              "gaba_text": "200-700 mg a day once daily"},
}


METFORMIN_TEXT = {
    "full": "on metformin for 11 years",
    "reduced": "on metformin for 11 years, dose halved last year for his eGFR",
    "stopped": "on metformin for 10 years until it was stopped 9 months ago for an eGFR below 30; "
               "now on glipizide",
}


def neuropathy_workup(values: dict[str, Any]) -> dict[str, Any]:
    age = int(values["age"])
    ibw = 50 + 2.3 * (HEIGHT_CM / 2.54 - 60)
    creat = round(0.9 + 0.1 * int(values["creat_step"]), 2)
    for _ in range(40):
        est = sorted((_crcl(age, WEIGHT_KG, creat), _crcl(age, ibw, creat)))
        if _band(est[0]) == _band(est[1]) and all(abs(e - edge) >= 1.5
                                                  for e in est for edge in EDGES):
            break
        creat = round(creat + 0.05, 2)
    else:
        raise ValueError(f"no creatinine near {creat} keeps the clearance in one band")
    band = _band(est[0])
    egfr = _egfr(age, creat)
    metformin = "full" if egfr >= 45 else "reduced" if egfr >= 30 else "stopped"
    # two years ago the kidneys were better; metformin was stopped only once the eGFR fell below 30
    prev = 2.2 if metformin == "stopped" else round(creat * 0.85, 2)
    b12 = values["b12_status"]
    return {
        "creat": creat,
        "creat_prev": prev,
        "egfr_prev": _egfr(age - 2, prev),
        "metformin_text": METFORMIN_TEXT[metformin],
        "egfr": egfr,
        "crcl": round(est[1]),
        "crcl_ibw": round(est[0]),
        "crcl_lo": round(est[0] - 1.0, 1),
        "crcl_hi": round(est[1] + 1.0, 1),
        "renal_band": band,
        "metformin_plan": metformin,
        "b12": b12["b12"],
        "b12_band": b12["name"],
        "weight_kg": WEIGHT_KG,
        "height_cm": HEIGHT_CM,
        "duloxetine_clause": ("" if BANDS[band]["duloxetine_ok"]
                              else "; no duloxetine at CrCl below 30 mL/min"),
        **BANDS[band],
    }
