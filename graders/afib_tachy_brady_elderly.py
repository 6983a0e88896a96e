"""afib_tachy_brady_elderly: what the ambulatory monitor means and the apixaban dose.

The rhythm profile decides the bradycardia plan (2018 ACC/AHA/HRS bradycardia guideline):
- pace: pauses at the offset of paroxysmal AF while awake, with symptoms at the time of the
  pause (tachy-brady syndrome) -> permanent pacemaker referral (symptoms attributable to SND,
  Class 1; tachy-brady with bradycardia symptoms, 2a), no more AV-nodal blockade before pacing.
- nocturnal: the only pauses are during sleep and asymptomatic, daytime AF with rapid rates ->
  no pacemaker (Class 3: Harm), sleep apnea screening, rate control increased.
- drug: slow AF with pauses while awake on a toxic digoxin level -> a reversible drug effect:
  stop digoxin, repeat the monitor after washout, no pacemaker now.
Apixaban (ELIQUIS label, section 2): 2.5 mg twice daily only with two of age >= 80, weight
<= 60 kg, serum creatinine >= 1.5 mg/dL; the patient is 81, so weight or creatinine decides.
"""

from __future__ import annotations

from typing import Any

APIXABAN = {5.0: "1364445", 2.5: "1364435"}


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 race-free creatinine equation (mL/min/1.73 m2)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return (142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
            * (1.012 if female else 1.0))


def cha2ds2_vasc(age: int, female: bool, hypertension: bool) -> int:
    """No heart failure, diabetes, stroke/TIA or vascular disease in this chart."""
    return (2 if age >= 75 else 1 if age >= 65 else 0) + int(female) + int(hypertension)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tachy_brady(values: dict[str, Any]) -> dict[str, Any]:
    age, female = int(values["age"]), values["gender"] == "female"
    creat, weight = float(values["creatinine"]), int(values["weight_kg"])
    criteria = [name for name, met in (("age 80 or older", age >= 80),
                                        ("weight 60 kg or less", weight <= 60),
                                        ("creatinine 1.5 mg/dL or more", creat >= 1.5)) if met]
    mg = 2.5 if len(criteria) >= 2 else 5.0
    other = 5.0 if mg == 2.5 else 2.5
    kind = values["rhythm"]["kind"]
    apixaban_order = {"ordered": {
        "resource_type": "MedicationRequest", "codes": [APIXABAN[mg]], "status": ["active"],
        "intent": ["order"], "dose": {"min": mg, "max": mg, "unit": "mg"},
        "per_day": {"min": 2, "max": 2}, "label": f"apixaban {mg:g} mg twice daily"}}
    return {
        "cha2ds2vasc": cha2ds2_vasc(age, female, True),
        "egfr": round(ckd_epi_2021(creat, age, female)),
        "baseline_creatinine": round(creat - 0.06, 2),
        # the pneumonia admission two years ago: the baseline then, the AKI peak (never equal to
        # today's value, so quoting it is always a stale value) and the discharge value
        "old_baseline_creatinine": f"{round(creat - 0.15, 1):.1f}",
        "aki_creatinine": round(max(1.74, round(creat - 0.15, 1) + 0.64), 2),
        "discharge_creatinine": round(round(creat - 0.15, 1) + 0.21, 2),
        "baseline_egfr": round(ckd_epi_2021(round(creat - 0.06, 2), age - 1, female)),
        "prior_weight_kg": weight + 6,
        "apixaban_mg": mg,
        "apixaban_text": f"{mg:g}",
        "apixaban_code": APIXABAN[mg],
        "apixaban_tablet": f"apixaban {mg:g} mg tablet",
        "wrong_apixaban_mg": other,
        "criteria_count": len(criteria),
        "criteria_text": ", ".join(criteria) if criteria else "none",
        "wrong_apixaban_text": f"{other:g}",
        "dose_reason": ("two or more dose-reduction criteria: " + _and(criteria)
                        if mg == 2.5 else
                        f"only one dose-reduction criterion, age {age}; weight {weight} kg and "
                        f"creatinine {creat} mg/dL do not qualify"),
        "apixaban_order": apixaban_order,
        "pause_ms": int(round(float(values["pause_s"]) * 1000)),
        "clinic_hr": {"pace": 50, "nocturnal": 76, "drug": 46}[kind],
        "clinic_hr_6w": {"pace": 48, "nocturnal": 76, "drug": 112}[kind],
    }
