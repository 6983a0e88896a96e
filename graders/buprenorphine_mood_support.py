"""buprenorphine_mood_support: an antidepressant for a woman on buprenorphine-naloxone for OUD.

Two draws decide the answer (references in the spec):
- ecg normal (canonical): QTc 426 ms -> an SSRI with few interactions: escitalopram 10 mg or
  sertraline 50 mg (citalopram 20 mg or fluoxetine 20 mg accepted). ecg long_qt: congenital
  long QT syndrome (QTc 489 ms on propranolol) -> sertraline; no citalopram or escitalopram
  (known TdP risk).
- oud stable (canonical): 16 mg a day, toxicology negative for 2 years -> continue 16 mg, no
  taper during the depressive episode. oud cravings: self-requested taper to 8 mg, cravings and a
  fentanyl-positive screen -> return to 16 mg a day (16-24 mg accepted).
Every branch: no benzodiazepine; no naltrexone, methadone or full agonist; no buprenorphine order
below 16 mg a day; a rescue naloxone product prescribed. Orders may give the dose in mg or as a
count of tablets, capsules or films of the ordered product.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
ORDER = {"resource_type": "MedicationRequest", "status": ["active"], "intent": ["order"]}
# starting doses (mg once daily), per the US labels
START = {"sertraline": (25, 50), "escitalopram": (5, 10), "citalopram": (10, 20),
         "fluoxetine": (10, 20)}
NOTE_RANGE = {"sertraline": (25, 200), "escitalopram": (5, 20), "citalopram": (10, 40),
              "fluoxetine": (10, 40)}
# count units of a solid dose form, one spelling per normalized unit (actions.unit_normalize)
FORM_UNITS = {"tablet": ("tablet", "{tablet}", "{tbl}", "{tab}"),
              "capsule": ("capsule", "{capsule}", "cap", "{cap}"),
              "film": ("film", "{film}", "strip", "strips")}


def _concepts(keep: Any) -> list[Any]:
    return [c for c in terminology.all_concepts("rxnorm") if keep(c)]


def _codes(keep: Any) -> list[str]:
    return [RX + c.code for c in _concepts(keep)]


def _ingredient(name: str) -> list[str]:
    return _codes(lambda c: c.extra["ingredient"].lower() == name)


def _strength_mg(concept: Any) -> float:
    """The first strength of a product in mg ('8 MG / 2 MG' -> 8)."""
    amount, unit = concept.extra["strength"].split("/")[0].split()[:2]
    if unit.upper() != "MG":
        raise ValueError(f"{concept.code}: strength {concept.extra['strength']!r} is not in mg")
    return float(amount)


def _units_of(concept: Any) -> tuple[str, ...]:
    form = concept.extra["dose_form"].lower()
    return next((units for key, units in FORM_UNITS.items() if key in form), ())


def _dose_options(concepts: list[Any], low: float, high: float, per_day: dict[str, float],
                  what: str, verb: str = "ordered") -> list[dict[str, Any]]:
    """Orders of ``low``-``high`` mg per administration, in mg for any of the products, or as a
    count of tablets, capsules or films of one product (count = mg / that product's strength)."""
    base = {**ORDER, "per_day": per_day} if verb == "ordered" else {
        "resource_type": "MedicationRequest", "per_day": per_day}
    options = [{verb: {**base, "codes": [RX + c.code for c in concepts],
                       "dose": {"min": low, "max": high, "unit": "mg"}, "label": what}}]
    for concept in concepts:
        strength = _strength_mg(concept)
        for unit in _units_of(concept):
            options.append({verb: {
                **base, "codes": [RX + concept.code],
                "dose": {"min": round(low / strength, 3), "max": round(high / strength, 3),
                         "unit": unit},
                "label": f"{what} ({concept.extra['strength'].lower()} {unit})"}})
    return options


def _ssri_orders(drug: str) -> list[dict[str, Any]]:
    low, high = START[drug]
    concepts = _concepts(lambda c: c.extra["ingredient"].lower() == drug)
    return _dose_options(concepts, low, high, {"min": 1, "max": 1},
                         f"{drug} {low}-{high} mg once daily")


def _ssri_note(drug: str) -> dict[str, Any]:
    low, high = NOTE_RANGE[drug]
    return {"note_decision": {"concept": [drug], "action": ["start"], "dose_required": False,
                              "dose": {"min": low, "max": high, "unit": "mg"},
                              "label": f"start {drug}"}}


def _bup_increase_orders(concepts: list[Any]) -> list[dict[str, Any]]:
    """16-24 mg of buprenorphine a day: once daily, or split twice daily."""
    return (_dose_options(concepts, 16, 24, {"max": 1}, "buprenorphine 16-24 mg once daily")
            + _dose_options(concepts, 8, 12, {"min": 2, "max": 2},
                            "buprenorphine 8-12 mg twice daily"))


def _bup_low_orders(concepts: list[Any]) -> list[dict[str, Any]]:
    """Must-nots: buprenorphine below 16 mg a day (a taper): under 16 mg once daily, or under 8 mg
    a dose two or more times a day (``dose`` is per administration)."""
    return (_dose_options(concepts, 0, 15.9, {"max": 1},
                          "buprenorphine below 16 mg a day (once daily)", "not_ordered")
            + _dose_options(concepts, 0, 7.9, {"min": 2},
                            "buprenorphine below 16 mg a day (divided)", "not_ordered"))


def buprenorphine_mood_support(values: dict[str, Any]) -> dict[str, Any]:
    ecg, oud = values["ecg"]["name"], values["oud"]["name"]
    if ecg not in ("normal", "long_qt") or oud not in ("stable", "cravings"):
        raise ValueError(f"unknown draw {ecg!r}/{oud!r}")
    drugs = (["escitalopram", "sertraline", "citalopram", "fluoxetine"] if ecg == "normal"
             else ["sertraline"])
    bup = _concepts(lambda c: "buprenorphine" in c.extra["ingredient"].lower())
    bup_codes = [RX + c.code for c in bup]
    chosen = {"normal": ("escitalopram", "349332", "10", "escitalopram 10 mg tablet"),
              "long_qt": ("sertraline", "312941", "50", "sertraline 50 mg tablet")}[ecg]
    return {
        "qtc": 426 if ecg == "normal" else 489,
        "bup_mg": 16 if oud == "stable" else 8,
        "ssri_order_options": [o for d in drugs for o in _ssri_orders(d)],
        "ssri_note_options": [_ssri_note(d) for d in drugs],
        "qt_ssri_codes": _ingredient("escitalopram") + _ingredient("citalopram"),
        "benzodiazepine_codes": _codes(
            lambda c: c.extra["drug_class"].lower() == "benzodiazepine"),
        "naltrexone_codes": _codes(lambda c: "naltrexone" in c.extra["ingredient"].lower()),
        "full_agonist_codes": _codes(
            lambda c: c.extra["drug_class"].lower().startswith("opioid analgesic")),
        "bup_codes": bup_codes,
        "bup_increase_orders": _bup_increase_orders(bup),
        "bup_low_orders": _bup_low_orders(bup),
        # rescue naloxone only (nasal spray, injection): not the naloxone of buprenorphine-naloxone
        "naloxone_codes": _codes(
            lambda c: c.extra["ingredient"].lower() in ("naloxone", "naloxone hydrochloride")),
        "ssri_name": chosen[0], "ssri_rxnorm": chosen[1], "ssri_mg": int(chosen[2]),
        "ssri_display": chosen[3],
        "oud_visit_text": (
            "Buprenorphine-naloxone 16 mg daily, no cravings, no use for over 2 years, urine "
            "fentanyl negative 3 weeks ago. She asks whether the buprenorphine is causing her "
            "depression and whether she should taper off it now." if oud == "stable" else
            "Buprenorphine-naloxone reduced from 16 to 8 mg daily 5 months ago at her request; "
            "cravings since, fentanyl use twice last month, urine fentanyl positive 3 weeks ago. "
            "She still wants to keep tapering."),
        "ecg_visit_text": ("Last ECG a year ago was normal." if ecg == "normal" else
                           "Long QT syndrome type 2 on propranolol, followed by cardiology "
                           "(last QTc 489 ms)."),
        "bup_plan_text": ("Continue buprenorphine-naloxone 16 mg daily unchanged; no taper during "
                          "this depressive episode" if oud == "stable" else
                          "Increase buprenorphine-naloxone back to 16 mg daily (from 8 mg) for "
                          "cravings and the fentanyl-positive screen"),
    }
