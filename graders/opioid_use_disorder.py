"""opioid_use_disorder: XR-naltrexone now (opioid-free, negative fentanyl screen) or
buprenorphine-naloxone instead (return to fentanyl use, positive screen)."""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
XR_NTX = "637213"  # naltrexone 380 MG Injection (VIVITROL)
ORAL_NTX = "1483744"  # naltrexone hydrochloride 50 MG Oral Tablet
NEGATIVE, POSITIVE = "260385009", "10828004"
ANALGESICS = [
    "oxycodone",
    "hydrocodone",
    "morphine",
    "hydromorphone",
    "oxymorphone",
    "codeine",
    "tramadol",
    "tapentadol",
    "fentanyl_analgesic",
]
# no opioid analgesic, not even behind a trigger ('if he has back pain, oxycodone'): the label's
# overdose hazard. Methadone and buprenorphine are left out: re-offering them on relapse is the
# standard contingency (ASAM 2020 Part 4), and the reader drops a 'relapse' trigger.
TABLET_FILM_UNITS = ("tablet", "tablets", "{tablet}", "{tbl}", "film", "films", "{film}")


def _codes(keep: Any) -> list[str]:
    return [c.code for c in terminology.all_concepts("rxnorm") if keep(c)]


def _is_agonist(c: terminology.Concept) -> bool:
    ingredient = c.extra["ingredient"].lower()
    return (
        c.extra["drug_class"].lower().startswith("opioid analgesic")
        or "methadone" in ingredient
        or "buprenorphine" in ingredient
    )


def opioid_use_disorder(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    base = {
        "resource_type": "MedicationRequest",
        "status": ["active", "completed"],
        "intent": ["order"],
    }
    if kind == "abstinent":
        ntx = {
            "ordered": {
                **base,
                "codes": [RX + XR_NTX],
                "dose": {"min": 380, "max": 380, "unit": "mg"},
                "per_day": {"max": 0.05},
                "route": ["78421000", "intramuscular"],
                "label": "extended-release naltrexone 380 mg IM",
            }
        }
        return {
            "fentanyl_result": NEGATIVE,
            "fentanyl_text": "negative",
            "hr": 72,
            "today_history": (
                "Denies any opioid use since the overdose; attending outpatient "
                "counselling weekly. Cravings mild."
            ),
            "today_exam": "No withdrawal signs; pupils normal; no injection marks.",
            "moud": "extended-release naltrexone 380 mg IM every 4 weeks, first injection now",
            "avoided": "buprenorphine, methadone or an opioid analgesic",
            "order_options": [ntx],
            "avoid_rxnorm": [RX + c for c in _codes(_is_agonist)],
            "decision_grader": {
                "note_decision": {
                    "concept": ["naltrexone"],
                    "action": ["start"],
                    "dose_required": False,
                    "deferral_contradicts": True,
                    "label": "give XR-naltrexone now",
                }
            },
            "plan_grader": {
                "note_decision": {
                    "concept": ["naltrexone"],
                    "action": ["start"],
                    "dose": {"value": 380, "unit": "mg"},
                    "every": {"min": 0.03, "max": 0.04},
                    "label": "naltrexone 380 mg every 4 weeks (monthly)",
                }
            },
            "never_grader": {
                "note_never": {
                    "concept": ANALGESICS,
                    "label": "no opioid analgesic planned while on naltrexone",
                }
            },
        }
    if kind != "relapsed":
        raise ValueError(f"unknown scenario {kind}")
    bup = _codes(
        lambda c: (
            c.extra["ingredient"] == "buprenorphine / naloxone" and c.extra["route"] == "sublingual"
        )
    )
    bup_base = {
        **base,
        "codes": [RX + c for c in bup],
        "per_day": {"max": 4},
        "route": ["37839007", "sublingual"],
    }
    options = [
        {
            "ordered": {
                **bup_base,
                "dose": {"min": 2, "max": 24, "unit": "mg"},
                "label": "buprenorphine-naloxone 2-24 mg SL",
            }
        }
    ]
    options += [
        {
            "ordered": {
                **bup_base,
                "dose": {"min": 0.5, "max": 3, "unit": u},
                "label": f"buprenorphine-naloxone 0.5-3 {u}",
            }
        }
        for u in TABLET_FILM_UNITS
    ]
    return {
        "fentanyl_result": POSITIVE,
        "fentanyl_text": "POSITIVE",
        "hr": 98,
        "today_history": (
            f"Back to smoking fentanyl daily for the last {values['relapse_days']} "
            f"days; last use {values['hours_since_use']} hours ago. Still wants "
            "the injection."
        ),
        "today_exam": "Yawning, rhinorrhea, mild tremor, dilated pupils.",
        "moud": "sublingual buprenorphine-naloxone now instead of naltrexone",
        "avoided": "naltrexone (oral or extended-release)",
        "order_options": options,
        "avoid_rxnorm": [RX + XR_NTX, RX + ORAL_NTX],
        "decision_grader": {
            "note_decision": {
                "concept": ["naltrexone"],
                "action": ["avoid"],
                "label": "no naltrexone injection now",
            }
        },
        "plan_grader": {
            "note_decision": {
                "concept": ["buprenorphine"],
                "action": ["start"],
                "dose": {"min": 2, "max": 32, "unit": "mg", "limit": True},
                "any_dose": True,
                "deferral_contradicts": True,
                "committed_if": ["cows", "opioid_withdrawal"],
                "label": "start buprenorphine-naloxone 2-32 mg",
            }
        },
        "never_grader": {
            "note_never": {
                "concept": ["naltrexone"],
                "allow_contingency": True,
                "contingency_on": ["opioid"],
                "label": "naltrexone only after a confirmed opioid-free interval, never now",
            }
        },
    }
