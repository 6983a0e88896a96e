"""The safety tables: every terminology drug has a maximum-dose row, every row a source, the
terminology's drug classes are right, and orders are read as a pharmacist would."""

from __future__ import annotations

import pytest

from physbench_gym.grading.medications import course_days, moiety, product_of, regimens
from physbench_gym.grading.safety_tables import (
    cross_reactivities,
    dose_limits,
    duplication_classes,
)
from physbench_gym.synth import terminology

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"


def _classes() -> dict[str, str]:
    return {c.extra["ingredient"]: c.extra["drug_class"]
            for c in terminology.all_concepts("rxnorm")}


def test_every_terminology_drug_has_a_maximum_dose_row_with_a_source():
    limits = dose_limits()
    missing = sorted({(c.extra["ingredient"].lower(), c.extra["route"])
                      for c in terminology.all_concepts("rxnorm")} - set(limits))
    assert missing == []
    assert all(limit.source for rows in limits.values() for limit in rows)
    for (ingredient, _), rows in limits.items():
        components = set(ingredient.split(" / "))
        assert all(not r.component or r.component in components for r in rows), ingredient


def test_duplication_and_allergy_rows_have_sources_and_members():
    assert duplication_classes() and cross_reactivities()
    for row in duplication_classes():
        assert row.source and row.allowed_when and row.members, row.name
        assert row.max_overlap_days >= 0
    for row in cross_reactivities():
        assert row.source and row.strength in ("avoid", "caution")


def test_terminology_drug_classes_are_right():
    classes = _classes()
    assert classes["hydrochlorothiazide / losartan potassium"] == (
        "angiotensin II receptor blocker + thiazide diuretic")
    assert classes["hydrochlorothiazide / lisinopril"] == "ACE inhibitor + thiazide diuretic"
    assert "sulfonamide" not in classes["trimethoprim"]
    assert "sulfonamide" in classes["sulfamethoxazole / trimethoprim"]
    tetracyclines = {classes[i] for i in ("tetracycline hydrochloride", "doxycycline hyclate",
                                          "doxycycline monohydrate")}
    assert tetracyclines == {"tetracycline"}


def _order(code: str, value: float, unit: str, frequency: float = 1, **more) -> dict:
    return {"resourceType": "MedicationRequest",
            "medicationCodeableConcept": {"coding": [{"system": RXNORM, "code": code}]},
            "dosageInstruction": [{"doseAndRate": [{"doseQuantity": {"value": value,
                                                                     "unit": unit}}],
                                   "timing": {"repeat": {"frequency": frequency, "period": 1,
                                                         "periodUnit": "d"}}}], **more}


@pytest.mark.parametrize("code,value,unit,expected", [
    ("1049221", 10, "mg", {"acetaminophen": 650, "oxycodone hydrochloride": 10}),  # 2 tablets
    ("1049221", 2, "tablet", {"acetaminophen": 650, "oxycodone hydrochloride": 10}),
    ("1656354", 200, "mg", {"sacubitril": 97, "valsartan": 103}),  # one 97/103 tablet
    ("1656349", 200, "mg", {"sacubitril": 98, "valsartan": 102}),  # two 49/51 tablets
    ("1010604", 16, "mg", {"buprenorphine": 16, "naloxone": 4}),  # two 8/2 films
    ("808917", 3, "g", {"fosfomycin": 3000}),
    ("966253", 88, "ug", {"levothyroxine sodium": 0.088}),
])
def test_a_dose_is_read_per_component(code, value, unit, expected):
    product = product_of(_order(code, value, unit))
    assert product is not None
    (regimen,) = regimens(_order(code, value, unit), product)
    for component, amount in expected.items():
        assert regimen.per_dose[component][0] == pytest.approx(amount), component


def test_course_length_and_moieties():
    order = _order("617310", 20, "mg", dispenseRequest={
        "expectedSupplyDuration": {"value": 30, "code": "d"}, "numberOfRepeatsAllowed": 2})
    assert course_days(order) == 90
    bounded = _order("617310", 20, "mg")
    bounded["dosageInstruction"][0]["timing"]["repeat"]["boundsDuration"] = {"value": 2,
                                                                             "code": "wk"}
    assert course_days(bounded) == 14
    assert course_days(_order("617310", 20, "mg")) is None
    assert moiety("metoprolol succinate") == "metoprolol"
    assert moiety("nitrofurantoin, macrocrystals") == "nitrofurantoin"
    assert moiety("potassium chloride") == "potassium chloride"
