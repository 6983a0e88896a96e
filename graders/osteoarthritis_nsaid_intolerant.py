"""osteoarthritis_nsaid_intolerant: painful right-knee osteoarthritis in a woman who cannot take
oral NSAIDs; acetaminophen is not enough. Why she cannot take them decides the drug:

- ulcer (canonical): a bleeding gastric ulcer on naproxen, coronary stent on lifelong aspirin
  (high GI and high CV risk: no oral NSAID, celecoxib included; ACG 2009) -> topical diclofenac
  1% gel 4 g four times daily to the knee (ACR 2019: strongly recommended for knee OA; systemic
  exposure about 6% of oral).
- aerd: aspirin-exacerbated respiratory disease (bronchospasm after ibuprofen, positive aspirin
  challenge) -> every NSAID is out, topical diclofenac too (VOLTAREN gel label, section 4) ->
  duloxetine 30 mg daily for a week, then 60 mg (ACR 2019 conditional; CYMBALTA label 2.5).
Every branch: no hydrocodone or other opioid as the plan (ACR 2019: against non-tramadol
opioids); physical therapy for exercise (ACR 2019: strong).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC = "http://loinc.org|"
NEVER_ACTIONS = ["start", "resume", "continue", "increase", "endorse", "allow", "implicit"]


def _codes(test) -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm") if test(c.extra))


def _creatinine(egfr: float, age: int) -> float:
    """Serum creatinine (mg/dL) giving this CKD-EPI 2021 eGFR in a woman (creatinine > 0.7)."""
    return round(0.7 * (egfr / (142 * 1.012 * 0.9938**age)) ** (-1 / 1.2), 2)


def osteoarthritis_nsaid_intolerant(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    nsaid = lambda e: e.get("drug_class") == "NSAID"  # noqa: E731
    oral_nsaids = _codes(lambda e: nsaid(e) and e.get("route") != "topical")
    all_nsaids = _codes(nsaid)
    topical_diclofenac = _codes(lambda e: nsaid(e) and e.get("route") == "topical")
    duloxetine = _codes(lambda e: e.get("ingredient") == "duloxetine")
    opioids = _codes(
        lambda e: (
            "opioid" in e.get("drug_class", "") and "antagonist" not in e.get("drug_class", "")
        )
    )
    no_opioid = {
        "not_ordered": {
            "resource_type": "MedicationRequest",
            "codes": opioids,
            "label": "no opioid",
        }
    }
    egfr = {
        "retrieved": {
            "resource_type": "Observation",
            "codes": [LOINC + "98979-8"],
            "label": "current eGFR",
        }
    }
    if kind == "ulcer":
        chart = [
            {
                "retrieved": {
                    "resource_type": "DocumentReference",
                    "codes": [LOINC + "28014-9"],
                    "text_contains": ["gastric ulcer"],
                    "label": "EGD report (bleeding ulcer)",
                }
            },
            {
                "retrieved": {
                    "resource_type": "MedicationRequest",
                    "codes": [RX + "243670"],
                    "label": "aspirin order",
                }
            },
            egfr,
        ]
        orders = [
            {
                "ordered": {
                    "resource_type": "MedicationRequest",
                    "codes": topical_diclofenac,
                    "status": ["active"],
                    "intent": ["order"],
                    "dose": {"min": 4, "max": 4, "unit": "g"},
                    "per_day": {"min": 3, "max": 4},
                    "route": ["topical"],
                    "label": "diclofenac 1% gel 4 g up to four times daily to the knee",
                }
            },
            {
                "not_ordered": {
                    "resource_type": "MedicationRequest",
                    "codes": oral_nsaids,
                    "label": "no oral NSAID",
                }
            },
            no_opioid,
        ]
        # Knee: 4 g per application, four times daily (Voltaren gel label, lower extremities;
        # three times daily accepted as "up to four"). A daily maximum in a clause of its own
        # ("maximum 16 g/day on that knee") is read as a once-daily dose of the gel, hence
        # wrong_dose_contradicts false. Pennsaid 2% solution is labeled twice daily, the 1.5%
        # solution four times daily.
        therapy_note = {
            "any": {
                "of": [
                    {
                        "note_decision": {
                            "concept": ["topical_nsaid"],
                            "action": ["start"],
                            "dose": {"min": 4, "max": 4, "unit": "g"},
                            "dose_required": False,
                            "every": {"min": 3, "max": 4},
                            "wrong_dose_contradicts": False,
                            "label": "topical diclofenac gel 4 g three to four times daily",
                        }
                    },
                    {
                        "note_decision": {
                            "concept": ["diclofenac_topical_solution"],
                            "action": ["start"],
                            "dose_required": False,
                            "every": {"min": 2, "max": 4},
                            "label": "diclofenac solution (Pennsaid) two to four times daily",
                        }
                    },
                ]
            }
        }
        # 'diclofenac' and 'Voltaren' alone are members of the nsaid class; the full gel names
        # are topical_nsaid (drugs.osteoarthritis_nsaid_intolerant.yaml). Her aspirin (stent) and
        # pantoprazole (ulcer on aspirin) must not be stopped.
        nsaid_note = {
            "all": {
                "of": [
                    {
                        "note_never": {
                            "concept": ["nsaid"],
                            "action": NEVER_ACTIONS,
                            "label": "no oral NSAID (celecoxib included)",
                        }
                    },
                    {
                        "note_never": {
                            "concept": ["aspirin", "pantoprazole"],
                            "action": ["stop"],
                            "label": "aspirin and pantoprazole not stopped",
                        }
                    },
                ]
            }
        }
    else:
        chart = [
            {
                "retrieved": {
                    "resource_type": "DocumentReference",
                    "codes": [LOINC + "11488-4"],
                    "text_contains": ["aspirin-exacerbated"],
                    "label": "allergy consult (AERD)",
                }
            },
            egfr,
        ]
        orders = [
            {
                "ordered": {
                    "resource_type": "MedicationRequest",
                    "codes": duloxetine,
                    "status": ["active"],
                    "intent": ["order"],
                    "dose": {"min": 30, "max": 30, "unit": "mg"},
                    "per_day": {"min": 1, "max": 1},
                    "route": ["oral"],
                    "label": "duloxetine 30 mg once daily (first week)",
                }
            },
            {
                "not_ordered": {
                    "resource_type": "MedicationRequest",
                    "codes": all_nsaids,
                    "label": "no NSAID, topical included",
                }
            },
            {
                "not_ordered": {
                    "resource_type": "MedicationRequest",
                    "text_contains": ["diclofenac", "Voltaren"],
                    "label": "no diclofenac by name",
                }
            },
            no_opioid,
        ]
        therapy_note = {
            "all": {
                "of": [
                    {
                        "note_decision": {
                            "concept": ["duloxetine"],
                            "action": ["start"],
                            "dose": {"value": 30, "unit": "mg"},
                            "any_dose": True,
                            "wrong_dose_contradicts": False,
                            "label": "start duloxetine at 30 mg daily",
                        }
                    },
                    {
                        "note_value": {
                            "concept": ["duloxetine"],
                            "min": 60,
                            "max": 60,
                            "unit": "mg",
                            "target": True,
                            "contradicts": False,
                            "label": "target dose 60 mg daily",
                        }
                    },
                ]
            }
        }
        # Aspirin is the index drug of AERD (positive 40 mg challenge); the lexicon's aspirin is
        # an antiplatelet, not an nsaid member, so it is named here.
        nsaid_note = {
            "note_never": {
                "concept": ["nsaid", "topical_nsaid", "aspirin"],
                "action": NEVER_ACTIONS,
                "label": "no NSAID or aspirin, topical diclofenac included",
            }
        }
    return {
        "creatinine": _creatinine(values["egfr"], values["age"]),
        "chart_grader": {"all": {"of": chart}},
        "therapy_orders": {"all": {"of": orders}},
        "therapy_note": therapy_note,
        "nsaid_note": nsaid_note,
    }
