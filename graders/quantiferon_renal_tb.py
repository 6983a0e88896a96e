"""quantiferon_renal_tb: the scenario decides what the positive QuantiFERON means and the plan.

- waitlist (canonical): asymptomatic, clear chest X-ray, deceased-donor waitlist (years of wait)
  -> latent TB infection: 4 months of daily rifampin 600 mg (CDC/NTCA 2020 preferred; no renal
  adjustment), finished before any transplant; baseline liver tests.
- living_donor: the same workup, but a living-donor transplant in a few weeks -> rifampin would
  still be running (and inducing CYP3A4) when tacrolimus starts: 9 months of isoniazid 300 mg
  daily with pyridoxine, no rifamycin; baseline liver tests.
- active: 3+ weeks of cough, night sweats, weight loss and an upper-lobe cavity -> possible active
  TB: three sputum AFB smears/cultures and an MTB NAAT first; no latent-TB monotherapy.
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC = "http://loinc.org|"


def quantiferon_renal_tb(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in ("waitlist", "living_donor", "active"):
        raise ValueError(f"unknown scenario {kind}")
    return {
        "rifampin_codes": [RX + "198202"],
        "isoniazid_codes": [RX + "197622"],
        "ltbi_drug_codes": [RX + "198202", RX + "197622"],
        "lft_codes": [LOINC + "24325-3", LOINC + "1742-6"],
        "afb_codes": [LOINC + "11545-1", LOINC + "543-9"],
        "naat_codes": [LOINC + "38379-4"],
        "tb_status_text": {
            "waitlist": "latent TB infection (no symptoms, clear chest X-ray); active TB excluded",
            "living_donor": (
                "latent TB infection (no symptoms, clear chest X-ray); active TB excluded"
            ),
            "active": (
                "possible active pulmonary TB (cough, night sweats, weight loss, right "
                "upper-lobe cavity) to be excluded before any latent-TB treatment"
            ),
        }[kind],
    }
