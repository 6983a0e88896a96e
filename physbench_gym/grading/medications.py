"""What a MedicationRequest orders, in the terms the safety checks need.

The product (its ingredient, the components of a combination, its route and drug class) comes
from the RxNorm code through the terminology tables; amounts come from each dosage
instruction: the dose quantity (mass, units, mL, or tablets times the product's strength) and
the administrations per day of its timing.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from physbench_gym.grading.resources import frequency_per_day, route_codes
from physbench_gym.synth import terminology

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
ROUTES = ("oral", "sublingual", "intravenous", "subcutaneous", "intramuscular", "topical",
          "transdermal", "nasal", "inhalation", "rectal", "vaginal", "ophthalmic", "otic")
_MASS_IN_MG = {"mg": 1.0, "g": 1000.0, "mcg": 0.001, "ug": 0.001, "µg": 0.001,
               "microgram": 0.001, "micrograms": 0.001, "milligram": 1.0, "milligrams": 1.0,
               "gram": 1000.0, "grams": 1000.0}
_OTHER_UNITS = {"iu": "IU", "unit": "IU", "units": "IU", "u": "IU", "meq": "mEq", "ml": "mL"}
_COUNT_WORDS = re.compile(r"^(tablet|tab|tbl|capsule|cap|film|lozenge|piece|gum|spray|"
                          r"actuation|actuat|puff|packet|sachet)s?$")
_STRENGTH = re.compile(r"^([\d.]+)\s*(MG|MCG|G|UNT|MEQ)(?:/(ML|ACTUAT|HR))?$")
_TRAILING_SALT = re.compile(
    r"(?:,?\s+(?:hydrochloride|hcl|dihydrochloride|sodium|potassium|calcium|magnesium|sulfate|"
    r"maleate|fumarate|succinate|tartrate|bitartrate|hyclate|monohydrate|macrocrystals|"
    r"besylate|mesylate|acetate|citrate|medoxomil|etexilate|tromethamine))+$")
_PERIOD_DAYS = {"d": 1.0, "day": 1.0, "days": 1.0, "wk": 7.0, "week": 7.0, "weeks": 7.0,
                "mo": 30.0, "month": 30.0, "months": 30.0, "h": 1 / 24, "a": 365.0}

Amount = tuple[float, str]
"""A quantity in a canonical unit: 'mg', 'IU', 'mEq' or 'mL'."""


def moiety(ingredient: str) -> str:
    """The active moiety of an ingredient: 'metoprolol succinate' -> 'metoprolol'.

    Only a trailing salt or form word is dropped, so 'potassium chloride' stays itself.
    """
    name = ingredient.lower().strip()
    stripped = _TRAILING_SALT.sub("", name).strip(" ,")
    return stripped or name


def convert(amount: Amount, unit: str) -> float | None:
    """``amount`` expressed in ``unit`` (mass units convert; IU, mEq and mL only to
    themselves), or None when they do not convert."""
    value, have = amount
    word = unit.lower().strip("{}[] ")
    if have == "mg" and word in _MASS_IN_MG:
        return value / _MASS_IN_MG[word]
    return value if _OTHER_UNITS.get(word) == have else None


@dataclass(frozen=True)
class Product:
    """A drug product: its ingredient string, components, strengths, route and class."""

    ingredient: str
    components: tuple[str, ...]
    strengths: tuple[Amount, ...] = ()
    """Per tablet, capsule, film or actuation, or per mL when ``per_ml``; one per component."""
    per_ml: bool = False
    route: str = ""
    drug_class: str = ""

    @functools.cached_property
    def moieties(self) -> frozenset[str]:
        return frozenset(moiety(c) for c in self.components)

    @functools.cached_property
    def names(self) -> frozenset[str]:
        """The ingredient, its components and their moieties, lower case."""
        return frozenset({self.ingredient, *self.components, *self.moieties})

    @functools.cached_property
    def classes(self) -> frozenset[str]:
        """The drug class and, for a combination's class, each part ('A + B', 'A / B')."""
        parts = re.split(r"\s+[+/]\s+", self.drug_class.lower())
        return frozenset(p for p in (self.drug_class.lower(), *parts) if p)


@dataclass(frozen=True)
class Regimen:
    """One dosage instruction: the amount of each component per dose (and of a combination
    product as a whole, keyed by its ingredient), doses per day."""

    per_dose: dict[str, Amount]
    per_day: float | None

    def daily(self, component: str) -> Amount | None:
        """The component's amount a day, when the timing is structured."""
        dose = self.per_dose.get(component)
        if dose is None or self.per_day is None:
            return None
        return dose[0] * self.per_day, dose[1]


def product_of(resource: dict[str, Any]) -> Product | None:
    """The product a MedicationRequest orders: by its RxNorm code, else by an ingredient its
    text names; None when neither is known."""
    concept = resource.get("medicationCodeableConcept") or {}
    for coding in concept.get("coding", []) or []:
        if coding.get("system") in (RXNORM, None, "") and coding.get("code"):
            product = _product_of_code(str(coding["code"]))
            if product is not None:
                return product
    text = " ".join([str(concept.get("text", ""))] + [str(c.get("display", "")) for c in
                                                      concept.get("coding", []) or []]).lower()
    for ingredient, product in _by_ingredient():
        if re.search(rf"(?<![a-z]){re.escape(moiety(ingredient))}(?![a-z])", text):
            return product
    return None


def order_route(resource: dict[str, Any], product: Product) -> str:
    """The route the order gives (by its text or display), else the product's usual route."""
    for written in route_codes(resource):
        for route in ROUTES:
            if route in written or (route == "inhalation" and "respiratory" in written):
                return route
    return product.route


def regimens(resource: dict[str, Any], product: Product) -> list[Regimen]:
    """Each dosage instruction's amounts per component (those that can be computed)."""
    found = []
    for instruction in resource.get("dosageInstruction", []) or []:
        per_dose = _per_dose(instruction, product)
        if per_dose:
            per_day = frequency_per_day({"dosageInstruction": [instruction]})
            found.append(Regimen(per_dose, per_day))
    return found


def course_days(resource: dict[str, Any]) -> float | None:
    """How many days the order runs: its timing bounds, else the supply with its refills;
    None when open-ended."""
    for instruction in resource.get("dosageInstruction", []) or []:
        repeat = (instruction.get("timing") or {}).get("repeat") or {}
        bounds = repeat.get("boundsDuration") or {}
        if bounds.get("value") is not None:
            unit = str(bounds.get("code") or bounds.get("unit") or "d").lower()
            return float(bounds["value"]) * _PERIOD_DAYS.get(unit, 1.0)
        period = repeat.get("boundsPeriod") or {}
        if period.get("start") and period.get("end"):
            start, end = (datetime.fromisoformat(period[k].replace("Z", "+00:00"))
                          for k in ("start", "end"))
            return (end - start).total_seconds() / 86400
    dispense = resource.get("dispenseRequest") or {}
    supply = dispense.get("expectedSupplyDuration") or {}
    if supply.get("value") is None:
        return None
    unit = str(supply.get("code") or supply.get("unit") or "d").lower()
    refills = int(dispense.get("numberOfRepeatsAllowed") or 0)
    return float(supply["value"]) * _PERIOD_DAYS.get(unit, 1.0) * (1 + refills)


@functools.lru_cache(maxsize=1024)
def _product_of_code(code: str) -> Product | None:
    try:
        return _product(terminology.rxnorm(code))
    except KeyError:
        return None


def _product(concept: terminology.Concept) -> Product:
    ingredient = concept.extra["ingredient"].lower()
    components = tuple(part.strip() for part in ingredient.split(" / "))
    strengths, per_ml = _strengths(concept.extra["strength"], len(components))
    return Product(ingredient, components, strengths, per_ml, concept.extra["route"],
                   concept.extra["drug_class"])


@functools.cache
def _by_ingredient() -> tuple[tuple[str, Product], ...]:
    """Every terminology ingredient with a strength-less product, longest name first."""
    found: dict[str, Product] = {}
    for concept in terminology.all_concepts("rxnorm"):
        product = _product(concept)
        found.setdefault(product.ingredient, Product(
            product.ingredient, product.components, route=product.route,
            drug_class=product.drug_class))
    return tuple(sorted(found.items(), key=lambda item: -len(item[0])))


def _strengths(text: str, count: int) -> tuple[tuple[Amount, ...], bool]:
    amounts, per = [], set()
    for part in text.upper().split(" / "):
        match = _STRENGTH.match(part.strip())
        if match is None:
            return (), False
        value, unit, denominator = float(match[1]), match[2], match[3]
        amount = (value * _MASS_IN_MG[unit.lower()], "mg") if unit in ("MG", "MCG", "G") else (
            value, {"UNT": "IU", "MEQ": "mEq"}[unit])
        amounts.append(amount)
        per.add(denominator)
    if len(amounts) != count or len(per) != 1 or per & {"HR"}:
        return (), False
    return tuple(amounts), per == {"ML"}


def _per_dose(instruction: dict[str, Any], product: Product) -> dict[str, Amount] | None:
    quantity = next((rate.get("doseQuantity") for rate in instruction.get("doseAndRate", [])
                     or [] if (rate.get("doseQuantity") or {}).get("value") is not None), None)
    amount = _amount(quantity) if quantity else None
    if amount is None:
        return None
    units: float | None
    if amount[1] == "count":
        units = amount[0] if product.strengths and not product.per_ml else None
    elif amount[1] == "mL" and product.per_ml:
        units = amount[0]
    elif len(product.components) == 1:
        return {product.components[0]: amount}
    else:
        units = _units_for(amount, product.strengths)
    if units is None:
        return None
    found = {c: (units * s[0], s[1]) for c, s in zip(product.components, product.strengths,
                                                      strict=True)}
    if len({unit for _, unit in found.values()}) == 1:
        found[product.ingredient] = (sum(v for v, _ in found.values()), product.strengths[0][1])
    return found


def _amount(quantity: dict[str, Any]) -> Amount | None:
    """A dose quantity in a canonical unit ('mg', 'IU', 'mEq', 'mL') or as a 'count' of
    tablets, capsules, films, sprays...; None when its unit is not understood."""
    value = float(quantity["value"])
    for raw in (quantity.get("code"), quantity.get("unit")):
        word = str(raw or "").lower().strip("{}[] ")
        if word in _MASS_IN_MG:
            return value * _MASS_IN_MG[word], "mg"
        if word in _OTHER_UNITS:
            return value, _OTHER_UNITS[word]
        if _COUNT_WORDS.match(word):
            return value, "count"
    return None


def _units_for(amount: Amount, strengths: tuple[Amount, ...]) -> float | None:
    """How many tablets a combination dose given as an amount means.

    '10 mg' of oxycodone/acetaminophen 5/325 is two tablets (of the component whose count
    comes out whole, nearest one); '200 mg' of sacubitril/valsartan 97/103 is one tablet (the
    sum); the first component decides when no reading is whole.
    """
    value, unit = amount
    same = [s[0] for s in strengths if s[1] == unit and s[0] > 0]
    if not same or unit == "mL":
        return None
    candidates = [value / s for s in same]
    if len(same) == len(strengths):
        candidates.append(value / sum(same))
    whole = [n for n in candidates if n >= 0.25 and abs(n - round(n * 2) / 2) <= 0.02 * n]
    if whole:
        return min(whole, key=lambda n: abs(math.log(n)))
    return candidates[0]
