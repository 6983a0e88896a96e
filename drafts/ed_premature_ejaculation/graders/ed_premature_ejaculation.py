"""ED + lifelong PE referred to urology: sildenafil dose (or none) set by the chart, daily SSRI.

VIAGRA label (section 2): 50 mg as needed about 1 h before sex, at most once a day; start at
25 mg with a stable alpha-blocker or severe renal impairment (CrCl < 30 mL/min); contraindicated
with any organic nitrate (section 4). AUA/SMSNA PE 2020: daily SSRI (paroxetine 10-40 mg,
sertraline 25-200 mg, fluoxetine 5-20 mg, citalopram 20-40 mg) or clomipramine; PAXIL label:
severe renal impairment start 10 mg.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth.routine import egfr

WEIGHT_KG = 78.0
PDE5_TEXT = ["sildenafil", "Viagra", "Revatio", "tadalafil", "Cialis", "Adcirca", "vardenafil",
             "Levitra", "Staxyn", "avanafil", "Stendra"]
SILDENAFIL_MG = {"standard": 50, "alpha_blocker": 25, "ckd4": 25, "nitrate": 0}
CREATININE = {"ckd4": (3.1, 3.6)}  # mg/dL now; the others 0.85-1.15
OLD_CREATININE = {"ckd4": (1.6, 2.2)}  # 3 years and 1 year ago: stage 3a, then 3b


def _ssri(text: list[str], low: float, high: float, label: str) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "text_contains": text,
                        "status": ["active"], "intent": ["order"],
                        "dose": {"min": low, "max": high, "unit": "mg"},
                        "per_day": {"min": 1, "max": 1}, "label": label}}


def ed_pe(values: dict[str, Any]) -> dict[str, Any]:
    name = values["profile"]["name"]
    age = int(values["age"])
    low, high = CREATININE.get(name, (0.85, 1.15))
    creat = round(low + (high - low) * float(values["renal_draw"]), 2)
    old = OLD_CREATININE.get(name, (round(creat - 0.06, 2), round(creat + 0.04, 2)))
    points = [old[0], old[1], creat]
    egfrs = [int(round(egfr(c, age, False))) for c in points]
    crcl = int(round((140 - age) * WEIGHT_KG / (72 * creat)))
    if (name == "ckd4") != (crcl < 30 and egfrs[-1] < 30):
        raise ValueError(f"renal draw {creat} does not fit profile {name}")
    mg = SILDENAFIL_MG[name]
    paroxetine_max = 10 if name == "ckd4" else 20
    options = [_ssri(["paroxetine", "Paxil"], 10, paroxetine_max, f"paroxetine 10-{paroxetine_max} mg daily"),
               _ssri(["sertraline", "Zoloft"], 25, 50, "sertraline 25-50 mg daily"),
               _ssri(["fluoxetine", "Prozac"], 5, 20, "fluoxetine 5-20 mg daily"),
               _ssri(["citalopram", "Celexa"], 20, 20, "citalopram 20 mg daily")]
    if name != "nitrate":  # a tricyclic is avoided in coronary disease
        options.append(_ssri(["clomipramine", "Anafranil"], 12.5, 25, "clomipramine 12.5-25 mg daily"))
    return {
        "creat_old": points[0], "creat_mid": points[1], "creat_now": creat,
        "egfr_old": egfrs[0], "egfr_mid": egfrs[1], "egfr_now": egfrs[2], "crcl": crcl,
        "weight_kg": WEIGHT_KG, "sildenafil_mg": mg, "pde5_allowed": mg > 0,
        "sildenafil_max_ok": mg + 0.5, "paroxetine_max": paroxetine_max,
        "ssri_order_options": options, "pde5_text": PDE5_TEXT,
    }
