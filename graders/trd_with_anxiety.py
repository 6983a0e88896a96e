"""trd_with_anxiety: which SNRI fits depression with generalized anxiety after two SSRI trials.

The draw decides the answer (CYMBALTA and EFFEXOR XR labels; CANMAT 2023 depression update;
NICE CG113 generalized anxiety disorder):
- hypertension (canonical): BP above goal on two drugs -> duloxetine 30-60 mg once daily
  (labelled for MDD and GAD); venlafaxine, whose label asks for hypertension to be controlled
  before it is started (dose-related sustained BP rise), is not started.
- alcohol_liver: 3-4 drinks a night, raised ALT/GGT and hepatic steatosis -> venlafaxine XR
  37.5-75 mg once daily; duloxetine is not started (label: not in substantial alcohol use or
  chronic liver disease).
Every branch: sertraline 200 mg lowered to 50-100 mg as the first cross-taper step; no
benzodiazepine (earlier alprazolam escalation), no bupropion, no other SSRI/SNRI ordered.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
SERTRALINE = ["312940", "312941", "312938"]
DULOXETINE = ["596926", "596930", "596934"]
VENLAFAXINE_XR = ["313583", "313585", "313581"]

BRANCHES = {
    "hypertension": {"snri": "duloxetine", "avoid": "venlafaxine", "codes": DULOXETINE,
                     "avoid_codes": VENLAFAXINE_XR, "dose": {"min": 30, "max": 60, "unit": "mg"},
                     "dose_text": "30-60 mg", "reason": "uncontrolled hypertension",
                     # venlafaxine only once her blood pressure is controlled (EFFEXOR XR 5.3)
                     "contingency": ["blood_pressure"]},
    "alcohol_liver": {"snri": "venlafaxine", "avoid": "duloxetine", "codes": VENLAFAXINE_XR,
                      "avoid_codes": DULOXETINE, "dose": {"min": 37.5, "max": 75, "unit": "mg"},
                      "dose_text": "37.5-75 mg",
                      "reason": "heavy alcohol use with raised liver enzymes and steatosis",
                      # duloxetine only once she stops drinking and her liver tests settle
                      # (CYMBALTA 5.2)
                      "contingency": ["alcohol_use", "alt", "ast", "liver_tests", "masld"]},
}


def _rx(codes: list[str]) -> list[str]:
    return [RX + c for c in codes]


def _never(codes: list[str], label: str) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "MedicationRequest", "codes": _rx(codes),
                            "label": label}}


def trd_with_anxiety(values: dict[str, Any]) -> dict[str, Any]:
    branch = values["comorbidity"]["name"]
    b = BRANCHES[branch]
    rx = terminology.all_concepts("rxnorm")
    by_class: dict[str, list[str]] = {}
    for c in rx:
        by_class.setdefault(c.extra.get("drug_class", ""), []).append(c.code)
    keep = set(SERTRALINE) | set(b["codes"]) | set(b["avoid_codes"])
    other_serotonergic = sorted(c for c in by_class["SSRI"] + by_class["SNRI"] if c not in keep)
    benzodiazepines = sorted(by_class["benzodiazepine"])
    bupropion = sorted(by_class["aminoketone antidepressant"])
    order = {"ordered": {"resource_type": "MedicationRequest", "codes": _rx(b["codes"]),
                         "status": ["active"], "intent": ["order"], "dose": b["dose"],
                         "per_day": {"min": 1, "max": 1},
                         "label": f"{b['snri']} {b['dose_text']} once daily"}}
    return {
        "branch": branch,
        "snri": b["snri"],
        "avoid_snri": b["avoid"],
        "snri_dose_text": b["dose_text"],
        "snri_dose": b["dose"],
        "avoid_reason": b["reason"],
        "avoid_contingency": b["contingency"],
        "sertraline_rxnorm": _rx(SERTRALINE),
        "benzodiazepine_rxnorm": _rx(benzodiazepines),
        "snri_order_grader": {"all": {"of": [
            order,
            _never(b["avoid_codes"], f"{b['avoid']} ({b['reason']})"),
            _never(benzodiazepines, "a benzodiazepine"),
            _never(bupropion, "bupropion"),
            _never(other_serotonergic, "another SSRI or SNRI")]}},
    }
