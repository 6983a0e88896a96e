"""covid_immunocompromised: the antiviral for mild COVID-19 in a man on rituximab maintenance.

The scenario decides the answer (PAXLOVID PI 2025 sections 2.2, 2.3, 4, 7; VEKLURY PI 2025
section 2.3; IDSA COVID-19 treatment guideline, recommendations for ambulatory patients):
- pax_moderate (canonical): eGFR 30 to <60 -> nirmatrelvir 150 mg with ritonavir 100 mg twice
  daily for 5 days; simvastatin held from 12 hours before until 5 days after the course.
- pax_normal: eGFR >= 60 -> nirmatrelvir 300 mg with ritonavir 100 mg twice daily for 5 days;
  simvastatin held.
- rifampin: rifampin for latent TB (a strong CYP3A inducer; PAXLOVID contraindicated, also
  right after stopping it) -> remdesivir 200 mg IV on day 1, then 100 mg IV on days 2 and 3;
  rifampin continued.
Every branch: no systemic corticosteroid (dexamethasone) without an oxygen requirement.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology
from physbench_gym.synth.routine import egfr

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
PAXLOVID = RX + "2587899"      # Paxlovid 5-Day pack (NDC 0069-1085-30)
REMDESIVIR = RX + "2284960"    # remdesivir 100 MG Injection (SCD)
PAX_TEXT = ["nirmatrelvir", "Paxlovid"]
REMDESIVIR_TEXT = ["remdesivir", "Veklury"]
MOLNUPIRAVIR_TEXT = ["molnupiravir", "Lagevrio"]


def _steroid_codes() -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm")
                  if c.extra.get("drug_class") == "corticosteroid")


def _pax_order(dose: int) -> dict[str, Any]:
    """The 5-day pack at the asked nirmatrelvir dose, or any nirmatrelvir/ritonavir product
    (the 150 mg/100 mg renal dose pack is not in the tables: its RxCUI is unverified)."""
    common = {"resource_type": "MedicationRequest", "status": ["active"], "intent": ["order"],
              "dose": {"min": dose, "max": dose, "unit": "mg"}, "per_day": {"min": 2, "max": 2},
              "course_days": {"min": 5, "max": 5}}
    label = f"nirmatrelvir {dose} mg with ritonavir 100 mg twice daily for 5 days"
    return {"any": {"of": [{"ordered": {**common, "codes": [PAXLOVID], "label": label}},
                           {"ordered": {**common, "text_contains": PAX_TEXT, "label": label}}]}}


def _not_ordered(label: str, **match: Any) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "MedicationRequest", **match, "label": label}}


def covid_case(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    age, female = int(values["age"]), values.get("gender") == "female"
    creat = values["creatinine_normal"] if kind == "pax_normal" else values["creatinine_moderate"]
    creat_old = 1.02 if kind != "pax_normal" else round(creat - 0.04, 2)
    steroids = _steroid_codes()
    no_steroid_order = {"not_ordered": {"resource_type": "MedicationRequest", "codes": steroids,
                                        "label": "systemic corticosteroid"}}
    no_steroid_note = {"note_never": {
        "concept": ["corticosteroid"], "allow_contingency": True,
        "contingency_on": ["hypoxemia_covid", "covid_oxygen_need"],  # 'becomes hypoxic'
        "label": "no dexamethasone or other steroid"}}
    if kind == "rifampin":
        antiviral_order = {"any": {"of": [
            {"ordered": {"resource_type": "ServiceRequest", "text_contains": REMDESIVIR_TEXT,
                         "status": ["active"], "label": "remdesivir infusion order"}},
            {"ordered": {"resource_type": "MedicationRequest", "codes": [REMDESIVIR],
                         "status": ["active"], "dose": {"min": 100, "max": 200, "unit": "mg"},
                         "per_day": {"min": 1, "max": 1}, "course_days": {"min": 3, "max": 3},
                         "label": "remdesivir 200 mg then 100 mg IV once daily for 3 days"}},
            {"ordered": {"resource_type": "MedicationRequest", "text_contains": REMDESIVIR_TEXT,
                         "status": ["active"], "dose": {"min": 100, "max": 200, "unit": "mg"},
                         "per_day": {"min": 1, "max": 1}, "course_days": {"min": 3, "max": 3},
                         "label": "remdesivir 200 mg then 100 mg IV once daily for 3 days"}}]}}
        no_other = [_not_ordered("nirmatrelvir/ritonavir with rifampin", codes=[PAXLOVID]),
                    _not_ordered("nirmatrelvir/ritonavir with rifampin", text_contains=PAX_TEXT)]
        antiviral_note = {"note_decision": {
            "concept": ["remdesivir"], "action": ["start"],
            "dose": {"value": 200, "unit": "mg"}, "any_dose": True,
            "route": ["intravenous"], "course": {"min": 3, "max": 3, "unit": "d"},
            "label": "remdesivir 200 mg IV (then 100 mg) for 3 days"}}
        no_other_note = {"note_never": {"concept": ["nirmatrelvir_ritonavir"],
                                        "label": "no nirmatrelvir/ritonavir with rifampin"}}
        simvastatin = {"note_decision": {"concept": ["simvastatin"], "action": ["continue"],
                                         "required": False, "label": "simvastatin not stopped"}}
        pax_dose = 0
    else:
        pax_dose = 150 if kind == "pax_moderate" else 300
        antiviral_order = _pax_order(pax_dose)
        no_other = [_not_ordered("molnupiravir when nirmatrelvir/ritonavir can be used",
                                 text_contains=MOLNUPIRAVIR_TEXT)]
        if kind == "pax_moderate":
            no_other.append(_not_ordered("nirmatrelvir above the renal dose", codes=[PAXLOVID],
                                         dose={"min": pax_dose + 1, "unit": "mg"}))
        antiviral_note = {"note_decision": {
            "concept": ["nirmatrelvir_ritonavir"], "action": ["start"],
            "dose": {"value": pax_dose, "unit": "mg", "secondary": 100},
            "every": {"min": 2, "max": 2},
            "timing": {"min": 5, "max": 5, "unit": "d"}, "timing_total": True,
            "wrong_timing_contradicts": True,
            "label": f"nirmatrelvir {pax_dose} mg with ritonavir 100 mg twice daily for 5 days"}}
        no_other_note = {"note_never": {"concept": ["molnupiravir"],
                                        "label": "no molnupiravir when Paxlovid can be used"}}
        # A restart is always written after the hold ('restart 5 days after the course'), so
        # only continuing simvastatin through the course contradicts the hold, and so does a
        # restart sooner than 5 days after the last dose (PAXLOVID PI section 4).
        simvastatin = {"note_decision": {"concept": ["simvastatin"], "action": ["stop"],
                                         "opposite": ["continue", "keep_dose", "increase"],
                                         "resume_after": {"min": 5, "unit": "d"},
                                         "label": "hold simvastatin"}}
    return {
        "creatinine": creat,
        "creatinine_old": creat_old,
        "egfr": egfr(creat, age, female),
        "egfr_old": egfr(creat_old, age - 2, female),
        "pax_dose": pax_dose,
        "antiviral": "remdesivir" if kind == "rifampin" else "nirmatrelvir/ritonavir",
        "antiviral_order_grader": {"all": {"of": [antiviral_order, *no_other,
                                                  no_steroid_order]}},
        "antiviral_note_grader": {"all": {"of": [antiviral_note, no_other_note,
                                                 no_steroid_note]}},
        "simvastatin_grader": simvastatin,
    }
