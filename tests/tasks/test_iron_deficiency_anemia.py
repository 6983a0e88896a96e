"""IV iron for iron deficiency anemia: the note checkpoints judge the plan, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, service_request, values

TASK = "iron_deficiency_anemia"
NOTE_CHECKS = {"ida_recognized", "iron_deficit_calculated", "iv_iron_plan_documented",
               "source_evaluation_documented"}

CORRECT = [
    """Impression: IDA - Hgb 9.2 g/dL, ferritin 7 ng/mL; intolerant of oral ferrous sulfate.
    Iron deficit per Ganzoni = 1628 mg.
    Plan: Injectafer 750 mg IV x2, one week apart. EGD and colonoscopy ordered.
    Check tTG-IgA and total IgA.""",
    """Labs: haemoglobin 92 g/L, ferritin 7 ug/L, TSAT 5%.
    This is iron-deficiency anaemia; he did not tolerate oral iron.
    Total iron need (Ganzoni, target Hb 15): 1.63 g.
    Recommend iron sucrose 200 mg IV infusions, 5 doses over 2 weeks (1000 mg).
    He needs bidirectional endoscopy with GI. Celiac serology (anti-tTG IgA).""",
    """A: Iron deficiency anemia, Hb 9.2, ferritin 7 - oral iron failed due to GI intolerance.
    Calculated iron deficit 1,628 mg (81 kg x (15-9.2) x 2.4 + 500).
    P:
    1. Administer FCM 750 mg IV on day 1 and day 8 (1500 mg total course)
    2. Upper endoscopy and colonoscopy recommended
    3. Send tissue transglutaminase IgA""",
]

BASE = """Iron deficiency anemia: Hgb 9.2 g/dL, ferritin 7 ng/mL, intolerant of oral iron.
{deficit}
{iron}
{scopes}
tTG-IgA ordered."""
GOOD = {"deficit": "Ganzoni iron deficit 1628 mg.",
        "iron": "Give ferric carboxymaltose 750 mg IV, 2 doses 7 days apart.",
        "scopes": "EGD and colonoscopy ordered."}
WRONG = {
    # Ganzoni with target Hb 13 instead of 15
    "iron_deficit_calculated": {**GOOD, "deficit": "Ganzoni iron deficit 1239 mg."},
    # hedged IV iron plan
    "iv_iron_plan_documented": {**GOOD, "iron": "Consider ferric carboxymaltose 750 mg IV."},
    # colonoscopy judged unnecessary because of the old normal one
    "source_evaluation_documented": {**GOOD, "scopes":
                                     "EGD ordered. Colonoscopy is not needed, up to date."},
}


_, test_wrong_note_fails_its_checkpoint = note_probes(
    TASK, wrong={check: (BASE.format(**fields), check) for check, fields in WRONG.items()})


@pytest.mark.parametrize("note", [
    # wrong ferritin value
    BASE.format(**GOOD).replace("ferritin 7 ng/mL", "ferritin 70 ng/mL"),
    # a single 1500 mg dose exceeds the labeled single dose
    BASE.format(**{**GOOD, "iron": "Give ferric carboxymaltose 1500 mg IV once."}),
    # oral iron never called a failure
    BASE.format(**GOOD).replace(", intolerant of oral iron", ""),
    # endoscopy deferred
    BASE.format(**{**GOOD, "scopes": "Defer EGD and colonoscopy for now."}),
])
def test_subtly_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note).values())


def test_keyword_stuffing_fails_the_decisions():
    stuffed = """Iron deficiency anemia, not iron deficiency. Hgb 9.2 ferritin 7 70, intolerant.
    Iron deficit 1239 1628 2000 mg. Give ferric carboxymaltose 750 mg IV. Ferric carboxymaltose
    not indicated; defer ferric carboxymaltose. Iron sucrose 200 mg not indicated.
    EGD and colonoscopy ordered. EGD and colonoscopy not needed. tTG ordered."""
    verdicts = grade_note(TASK, stuffed)
    assert verdicts["iv_iron_plan_documented"] is False
    assert verdicts["source_evaluation_documented"] is False


def test_deficit_follows_the_variant():
    for variant in (None, 3, 11):
        v = values(TASK, variant)
        expected = v["weight_kg"] * (15 - v["hgb"]) * 2.4 + 500
        assert abs(v["iron_deficit_mg"] - expected) < 1


@pytest.mark.parametrize(("note", "check"), [
    # hemoglobin taken from the older draw (10.3 two months ago)
    (BASE.format(**GOOD).replace("Hgb 9.2", "Hgb 10.3"), "ida_recognized"),
    # ferumoxytol at a dose that is not the labeled 510 mg
    (BASE.format(**{**GOOD, "iron": "Give ferumoxytol 250 mg IV weekly."}),
     "iv_iron_plan_documented"),
    # hedged endoscopy ("if")
    (BASE.format(**{**GOOD, "scopes": "EGD and colonoscopy if Hb fails to respond."}),
     "source_evaluation_documented"),
    # Ganzoni with the wrong weight-stores term (no 500 mg)
    (BASE.format(**{**GOOD, "deficit": "Ganzoni iron deficit 1128 mg."}),
     "iron_deficit_calculated"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False


def test_tsat_matches_iron_and_tibc():
    for variant in (None, 1, 7):
        v = values(TASK, variant)
        assert abs(v["tsat"] - 100 * v["serum_iron"] / v["tibc"]) <= 0.5


# Review findings 1 and 2 (orders): other labeled IV iron products are orderable and count;
# a GI referral whose reason names both scopes orders the bidirectional endoscopy.
from tests.tasks.helpers_endocrinology import run_actions  # noqa: E402

MR = "fhir_medication_request_create"


def _iv_iron(code: str, dose: float, display: str) -> dict:
    return {"tool": MR, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "medication_display": display,
        "dose_value": dose, "dose_unit": "mg", "route": "intravenous", "frequency": 1,
        "period_unit": "week", "duration_days": 8, "refills": 0}}


SCOPES = [service_request("43235", "cpt", "procedure"),
          service_request("45378", "cpt", "procedure")]


def test_ferumoxytol_510_mg_is_orderable_and_counts():
    feraheme = _iv_iron("1006586", 510, "ferumoxytol (Feraheme) 510 mg/17 mL")
    assert run_actions(TASK, [feraheme, *SCOPES])["iv_iron_ordered"]
    # 1020 mg in one infusion is beyond the labeled per-dose amount
    assert not run_actions(TASK, [_iv_iron("1006586", 1020, "ferumoxytol"), *SCOPES])[
        "iv_iron_ordered"]


def _referral(reason: str) -> dict:
    return service_request("183523005", "snomed", "referral", reason=reason)


@pytest.mark.parametrize("reason", [
    "Iron deficiency anemia in a 66-year-old man: please perform EGD with duodenal biopsies "
    "and colonoscopy",
    "IDA, intolerant of oral iron - bidirectional endoscopy please",
    "Upper endoscopy and colonoscopy for iron deficiency anemia",
])
def test_gi_referral_naming_both_scopes_orders_the_endoscopy(reason):
    assert run_actions(TASK, [_referral(reason)])["endoscopy_ordered"]


@pytest.mark.parametrize("reason", [
    "Iron deficiency anemia in a 66-year-old man: please perform colonoscopy",
    "Iron deficiency anemia: please perform EGD with duodenal biopsies",
    "Iron deficiency anemia, please evaluate",
])
def test_gi_referral_naming_one_scope_or_none_does_not(reason):
    assert not run_actions(TASK, [_referral(reason)])["endoscopy_ordered"]


def test_a_lab_order_reason_does_not_name_the_endoscopy():
    # only a referral's reason is read: a celiac serology ordered "before EGD and colonoscopy"
    # is not an endoscopy order
    ttg = service_request("31017-7", "loinc", "laboratory",
                          reason="Celiac serology before EGD and colonoscopy")
    assert not run_actions(TASK, [ttg])["endoscopy_ordered"]
