"""opioid_taper_chronic_pain: the daily oxycodone dose, its morphine milligram equivalents and
the first taper step the note and orders are graded on."""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

OXYCODONE_MME_FACTOR = 1.5  # CDC 2022 guideline, Table: MME conversion factor for oxycodone
STEP_MIN, STEP_MAX = 0.80, 0.95  # first step: a 5-20% cut of the daily dose (VA taper tool)
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def _codes(pick: Any) -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm") if pick(c))


def opioid_taper(values: dict[str, Any]) -> dict[str, Any]:
    """The product and tablets a day of the drawn regimen, the daily dose, MME, the accepted
    first-step range (mg and tablets a day) and the order must-nots (benzodiazepines,
    naltrexone, other full-agonist opioids, more oxycodone administrations a day)."""
    product = values["regimen"]["product"]
    tabs = int(values["regimen"]["tabs"])
    if not 5 <= tabs <= 8:
        raise ValueError(f"{tabs} tablets a day is outside the designed range")
    mg_per_tab = float(product["mg"])
    daily = mg_per_tab * tabs
    mme = daily * OXYCODONE_MME_FACTOR
    old_tabs = 4
    return {
        "product": product,
        "tabs_per_day": tabs,
        "more_tabs_per_day": tabs + 0.5,
        "daily_mg": f"{daily:g}",
        "daily_mg_value": daily,
        "mme": mme,
        "mme_text": f"{mme:g}",
        "old_mme_text": f"{mg_per_tab * old_tabs * OXYCODONE_MME_FACTOR:g}",
        "old_tabs": old_tabs,
        "step_mg_min": round(daily * STEP_MIN, 2),
        "step_mg_max": round(daily * STEP_MAX, 2),
        "step_tabs_min": round(tabs * STEP_MIN, 2),
        "step_tabs_max": round(tabs * STEP_MAX, 2),
        "first_step_tabs": tabs - 1,
        "first_step_mg": f"{mg_per_tab * (tabs - 1):g}",
        "benzodiazepine_rxnorm": _codes(lambda c: c.extra["drug_class"] == "benzodiazepine"),
        "antagonist_rxnorm": _codes(lambda c: "naltrexone" in c.extra["ingredient"]),
        "oxycodone_rxnorm": _codes(lambda c: "oxycodone" in c.extra["ingredient"]),
        "other_opioid_rxnorm": _codes(
            lambda c: c.extra["drug_class"].startswith("opioid analgesic")
            and "oxycodone" not in c.extra["ingredient"]),
    }
