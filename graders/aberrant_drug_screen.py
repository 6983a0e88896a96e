"""aberrant_drug_screen: what a definitive urine drug test means in a man on prescribed oxycodone.

The scenario decides the answer (CDC 2022 opioid guideline, Recommendation 10; ASAM Appropriate
Use of Drug Testing 2017):
- oxymorphone (canonical): LC-MS/MS finds oxycodone, noroxycodone and oxymorphone; oxymorphone is
  an expected oxycodone metabolite (CYP3A4 -> noroxycodone, CYP2D6 -> oxymorphone), so the result
  is consistent with the prescription -> continue the oxycodone unchanged.
- hydromorphone: hydromorphone at a high concentration without hydrocodone or morphine; it is not
  an oxycodone metabolite -> a non-prescribed opioid: assess for opioid use disorder.
- fentanyl: fentanyl and norfentanyl -> non-prescribed (illicit) fentanyl: assess for opioid use
  disorder.
Every branch: naloxone (60 MME a day, obstructive sleep apnea; non-prescribed opioids); never
naltrexone (precipitated withdrawal on a full agonist), a dose increase, another opioid or a
benzodiazepine.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
OXYCODONE_TABLET_MG = 10
TABLETS_PER_DAY = 4
MME_FACTOR_OXYCODONE = 1.5  # CDC 2022 guideline, Table: oral oxycodone conversion factor 1.5


def _codes(keep: Any) -> list[str]:
    return [RX + c.code for c in terminology.all_concepts("rxnorm") if keep(c)]


def _ingredient(concept: terminology.Concept) -> str:
    return concept.extra["ingredient"].lower()


def aberrant_drug_screen(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in ("oxymorphone", "hydromorphone", "fentanyl"):
        raise ValueError(f"unknown scenario {kind!r}")
    unexpected = kind != "oxymorphone"
    daily_mg = OXYCODONE_TABLET_MG * TABLETS_PER_DAY
    return {
        "unexpected": unexpected,
        "daily_oxycodone_mg": daily_mg,
        "mme": round(daily_mg * MME_FACTOR_OXYCODONE),
        "naltrexone_codes": _codes(lambda c: "naltrexone" in _ingredient(c)),
        # full agonists other than his oxycodone (methadone and any other table opioid)
        "other_opioid_codes": _codes(
            lambda c: c.extra["drug_class"].lower().startswith("opioid analgesic")
            and "oxycodone" not in _ingredient(c)),
        "oxycodone_codes": _codes(lambda c: "oxycodone" in _ingredient(c)),
        "benzodiazepine_codes": _codes(
            lambda c: c.extra["drug_class"].lower() == "benzodiazepine"),
        # partial agonist: no OUD diagnosed yet, and it precipitates withdrawal on a full agonist
        "buprenorphine_codes": _codes(lambda c: "buprenorphine" in _ingredient(c)),
        "screen_text": ("opiates immunoassay positive for the first time (morphine-calibrated "
                        "opiate assays detect hydromorphone), oxycodone immunoassay positive"
                        if kind == "hydromorphone" else
                        "opiates immunoassay negative (expected - that assay poorly detects "
                        "oxycodone, as in every prior year), oxycodone immunoassay positive"
                        + (", fentanyl immunoassay positive" if kind == "fentanyl" else "")),
        "pcp_screen_text": {
            "oxymorphone": "opiates negative and oxycodone positive, as every year",
            "hydromorphone": "opiates positive for the first time, and oxycodone positive",
            "fentanyl": "fentanyl screen positive for the first time; opiates negative and "
                        "oxycodone positive as usual",
        }[kind],
        "unexpected_text": " and the non-prescribed opioid" if unexpected else "",
        "plan_text": ("Assess for opioid use disorder and offer buprenorphine if present; do not "
                      "stop the oxycodone abruptly or discharge him." if unexpected else
                      "Continue the oxycodone unchanged."),
        "finding_text": {
            "oxymorphone": "oxymorphone, an expected metabolite of oxycodone - consistent with "
                           "the prescribed oxycodone",
            "hydromorphone": "hydromorphone, which is not a metabolite of oxycodone (no "
                             "hydrocodone or morphine detected) - a non-prescribed opioid",
            "fentanyl": "fentanyl with norfentanyl - non-prescribed (illicit) fentanyl",
        }[kind],
    }
