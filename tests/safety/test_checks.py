"""The safety rules as functions of orders and chart facts, on cases the env tests do not
reach: opioid pairs, local routes, shared components, severe cautions, challenges."""

from __future__ import annotations

from physbench_gym.grading.chart_facts import Allergy
from physbench_gym.grading.medications import course_days, product_of, regimens
from physbench_gym.grading.safety import Order, allergy_findings, dose_findings, duplications
from tests.safety.agents import prescription
from tests.safety.helpers import rules, run_plan

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
OXYCODONE_10, OXYCODONE_APAP, METHADONE_5 = "1049683", "1049221", "864718"
NALTREXONE_50, ACETAMINOPHEN_500, CEPHALEXIN_500 = "1483744", "198440", "309114"
METOPROLOL_TARTRATE_25 = "866924"


def _order(code: str, dose: float, unit: str = "mg", per_day: float = 1, by_agent: bool = True,
           route: str | None = None, days: float | None = None) -> Order:
    resource = {"medicationCodeableConcept": {"coding": [{"system": RXNORM, "code": code}]},
                "dosageInstruction": [{"doseAndRate": [{"doseQuantity": {
                    "value": dose, "unit": unit}}], "timing": {"repeat": {
                        "frequency": per_day, "period": 1, "periodUnit": "d"}}}]}
    if days is not None:
        resource["dispenseRequest"] = {"expectedSupplyDuration": {"value": days, "code": "d"}}
    product = product_of(resource)
    assert product is not None
    return Order(f"MedicationRequest/{code}", product, route or product.route, by_agent,
                 tuple(regimens(resource, product)), course_days(resource))


def test_an_opioid_with_naltrexone_is_a_duplication_but_two_opioids_are_not():
    pair = duplications([_order(OXYCODONE_10, 10, by_agent=False), _order(NALTREXONE_50, 50)])
    assert [v.rule for v in pair] == ["therapeutic_duplication"]
    assert "naltrexone" in pair[0].message
    assert duplications([_order(OXYCODONE_10, 5, by_agent=False), _order(METHADONE_5, 5)]) == []


def test_orders_of_the_chart_alone_raise_nothing():
    chart = [_order(OXYCODONE_10, 10, by_agent=False), _order(NALTREXONE_50, 50, by_agent=False)]
    assert duplications(chart) == [] and dose_findings(chart, {}) == []


def test_a_shared_component_is_summed_not_duplicated():
    orders = [_order(ACETAMINOPHEN_500, 1000, per_day=3, by_agent=False),
              _order(OXYCODONE_APAP, 1, unit="tablet", per_day=4)]
    assert duplications(orders) == []
    (over,) = dose_findings(orders, {})  # 3000 + 1300 mg
    assert over.order == "MedicationRequest/1049221" and "4300 mg/day" in over.message
    orders[0] = _order(ACETAMINOPHEN_500, 500, per_day=3, by_agent=False)
    assert dose_findings(orders, {}) == []  # 1500 + 1300 mg: within 4 g


def test_a_caution_is_a_violation_when_the_allergy_is_severe():
    order = _order(CEPHALEXIN_500, 500, per_day=2)
    mild = Allergy("AllergyIntolerance/a (Penicillin)", "penicillin", severe=False)
    severe = Allergy("AllergyIntolerance/a (Penicillin)", "penicillin", severe=True)
    assert allergy_findings([order], [mild], None)[0] == []
    assert len(allergy_findings([order], [mild], None)[1]) == 1
    violations, _ = allergy_findings([order], [severe], None)
    assert [v.rule for v in violations] == ["allergy_conflict"]
    challenge = "Plan: graded cephalexin challenge today, 10% test dose then full dose."
    violations, warnings = allergy_findings([order], [severe], challenge)
    assert violations == [] and "deliberate challenge" in warnings[0].message
    unrelated = "Graded challenge of amoxicillin later. Cephalexin 500 mg twice daily."
    assert allergy_findings([order], [severe], unrelated)[0] != []


def test_a_form_change_of_the_charts_drug_replaces_it():
    info, *_ = run_plan("post_gi_bleed_followup",
                        lambda p: [prescription(p, METOPROLOL_TARTRATE_25, 25, frequency=2)])
    assert "therapeutic_duplication" not in rules(info)
