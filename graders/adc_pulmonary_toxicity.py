"""adc_pulmonary_toxicity: new lung opacities on trastuzumab deruxtecan (T-DXd) - grade the
interstitial lung disease (ILD) / pneumonitis, decide the drug and the corticosteroid.

The CTCAE v5.0 grade decides the plan (ENHERTU US PI, sections 2.3 and 5.1):
- grade 2 (canonical; symptomatic, no oxygen needed): permanently discontinue T-DXd; start
  systemic corticosteroid promptly, at least 1 mg/kg/day prednisolone or equivalent, for at least
  14 days, then taper over at least 4 weeks.
- grade 1 (asymptomatic, found on a restaging CT): interrupt T-DXd until the ILD resolves to
  grade 0 (resume at the same dose if it resolves within 28 days of onset, one dose level lower
  if later); a corticosteroid may be considered (at least 0.5 mg/kg/day), so none is required.
Every grade: rule out infection (SARS-CoV-2 NAAT and sputum or blood cultures), never re-order
T-DXd.
The weight moves the grade 2 dose: an order of 0.9-2 mg/kg a day passes (the label's 1 mg/kg,
rounded down to a practical tablet dose by at most 10%; 2 mg/kg is the top of the 1-2 mg/kg
range of the ASCO 2021 immune-related pneumonitis guideline for grade 2), never above 200 mg.
The grade words are the platelet_grade_* concepts of findings.thrombocytopenia_immunotherapy.yaml
(no shared CTCAE grade concept exists yet); tests/tasks/test_adc_pulmonary_toxicity.py pins them.
"""

from __future__ import annotations

import math
from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC = "http://loinc.org|"
# both RxCUIs openFDA lists for the Enhertu NDC 65597-406-01 (clinical and branded drug)
TDXD = [RX + "2267576", RX + "2267581"]
PREDNISONE = [RX + "312615", RX + "312617"]
GRADES = ["platelet_grade_1", "platelet_grade_2", "platelet_grade_3", "platelet_grade_4"]
NEVER = ["start", "resume", "continue", "increase", "endorse", "allow", "implicit"]


def adc_pulmonary_toxicity(values: dict[str, Any]) -> dict[str, Any]:
    level = values["grade"]["level"]
    weight = values["weight_kg"]
    if level not in (1, 2):
        raise ValueError(f"grade {level} is not a branch of this task")
    # 2 mg/kg, capped at the 200 mg/day of the shared prednisone max-dose row (review finding 8)
    low, high = math.floor(0.9 * weight), min(2 * weight, 200)
    # The oracle's dose: 1 mg/kg rounded to whole 20 mg tablets, never under 0.9 mg/kg.
    dose = 20 * round(weight / 20)
    if dose < 0.9 * weight:
        dose += 20
    no_tdxd = [
        {"not_ordered": {"resource_type": "MedicationRequest", "codes": TDXD,
                         "label": "no trastuzumab deruxtecan order"}},
        {"not_ordered": {"resource_type": "MedicationRequest",
                         "text_contains": ["deruxtecan", "Enhertu"],
                         "label": "no trastuzumab deruxtecan ordered by name"}}]
    if level == 2:
        steroid_orders = [{"ordered": {
            "resource_type": "MedicationRequest", "codes": PREDNISONE, "status": ["active"],
            "intent": ["order"], "dose": {"min": low, "max": high, "unit": "mg"},
            "per_day": {"min": 1, "max": 1}, "route": ["oral"],
            "label": f"prednisone {low}-{high} mg once daily (1 mg/kg)"}}]
        drug_note = {"all": {"of": [
            # 'do not rechallenge T-DXd' / 'no further T-DXd' state the permanent stop too
            {"note_decision": {"concept": ["trastuzumab_deruxtecan"], "action": ["stop", "avoid"],
                               "permanent": True,
                               "label": "permanently discontinue trastuzumab deruxtecan"}},
            {"note_never": {"concept": ["trastuzumab_deruxtecan"], "action": NEVER,
                            "label": "no rechallenge or continuation of T-DXd"}}]}}
        plan_note = {"note_decision": {
            "concept": ["prednisone"], "action": ["start"],
            # the label's own '1 mg/kg/day' is the same order at her weight
            "dose": {"min": low, "max": high, "unit": "mg",
                     "units": {"mg/kg": weight, "mg/kg/day": weight, "mg/kg/d": weight}},
            "wrong_dose_contradicts": False,
            "deferral_contradicts": True, "course": {"min": 14, "unit": "d"},
            # 'start prednisone once the SARS-CoV-2 PCR is negative' defers it (PI 5.1: promptly)
            "before": ["sars_cov_2_naat"],
            "label": f"start prednisone {low}-{high} mg daily now, for at least 14 days"}}
    else:
        # A steroid may be considered at >= 0.5 mg/kg a day; if ordered, 0.5-2 mg/kg.
        steroid_orders = [
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": PREDNISONE,
                             "dose": {"min": high + 1, "unit": "mg"},
                             "label": f"no prednisone above {high} mg (2 mg/kg)"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": PREDNISONE,
                             "dose": {"max": math.ceil(0.5 * weight) - 1, "unit": "mg"},
                             "label": "no prednisone under 0.5 mg/kg"}}]
        drug_note = {"note_decision": {
            "concept": ["trastuzumab_deruxtecan"], "action": ["stop"], "temporary": True,
            "label": "interrupt (hold) trastuzumab deruxtecan, not permanently"}}
        plan_note = {"note_contingency": {
            "concept": ["trastuzumab_deruxtecan"], "action": ["resume", "start", "continue"],
            "label": "resume T-DXd once the ILD has resolved to grade 0"}}
    grade = GRADES[level - 1]
    return {
        "grade_level": level,
        "tdxd_mg": round(5.4 * weight),
        "grade_concept": [grade],
        "other_grades": [g for g in GRADES if g != grade] + ["platelet_grade_range"],
        "pred_low": low,
        "pred_high": high,
        "pred_dose": dose,
        "pred_per_kg": round(dose / weight, 2),
        "pred_tablets": dose // 20,
        "pred_quantity": dose // 20 * 14,  # the first 14 days
        "drug_orders": {"all": {"of": no_tdxd + steroid_orders}},
        "drug_note": drug_note,
        "plan_note": plan_note,
    }
