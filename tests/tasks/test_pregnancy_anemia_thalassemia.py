"""pregnancy_anemia_thalassemia: the scenario draws (beta-thalassemia trait with or without iron
deficiency, presumed alpha-thalassemia trait) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    oracle_note,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "pregnancy_anemia_thalassemia"
BETA_REPLETE = 0    # ferritin 78, HbA2 4.8
BETA_DEFICIENT = 2  # ferritin 11, HbA2 5.7
ALPHA = 4           # ferritin 111, HbA2 2.8


def test_canonical_values():
    vals = values(TASK)
    assert vals["kind"] == "beta_deficient"
    assert (vals["ferritin"], vals["hba2"], vals["hbf"], vals["mcv"]) == (9, 4.9, 1.2, 63)
    assert vals["iron_deficient"] is True
    assert vals["oral_iron_codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|310325"]
    assert len(vals["iron_codes"]) == 4


def test_branches_draw_their_scenarios():
    assert values(TASK, BETA_REPLETE)["kind"] == "beta_replete"
    assert values(TASK, BETA_DEFICIENT)["kind"] == "beta_deficient"
    assert values(TASK, ALPHA)["kind"] == "alpha_replete"
    for n in range(20):
        vals = values(TASK, n)
        assert (vals["hba2"] > 3.5) == vals["kind"].startswith("beta")
        assert (vals["ferritin"] < 30) == vals["iron_deficient"]
        assert vals["ferritin"] not in (22, 61)  # never one of the stale values of 4 years ago
        assert abs(vals["hba"] + vals["hba2"] + vals["hbf"] - 100) < 0.051
        mch = vals["hgb"] * 10 / vals["rbc"]
        mchc = vals["hgb"] * 100 / (vals["rbc"] * vals["mcv"] / 10)
        if not vals["iron_deficient"]:  # iron-replete trait: MCH about 20-21 pg, MCHC about 31
            assert 19.5 <= mch <= 21.5 and 29.5 <= mchc <= 32.5, (n, mch, mchc)
            assert 10.2 <= vals["hgb"] <= 11.0


CORRECT = [
    (None, "Beta-thalassemia trait (HbA2 4.9%) with superimposed iron deficiency (ferritin 9). "
           "Start ferrous sulfate 325 mg every other day. Partner testing: CBC and Hb "
           "electrophoresis now. If both are carriers, offer CVS or amniocentesis. No IV iron "
           "unless she cannot tolerate oral iron."),
    (None, """Assessment: beta thalassemia minor plus iron deficiency anemia of pregnancy.
Ferritin 9 ng/mL; HbA2 4.9%.
Plan:
- Ferrous sulfate 325 mg PO daily with the prenatal vitamin.
- Test her husband now with a CBC, ferritin and hemoglobin electrophoresis.
- Prenatal diagnosis (CVS before 14 weeks, amniocentesis after 15) if he is a carrier.
- IV iron is not needed now."""),
    (None, """| Item | Result / plan |
|---|---|
| HbA2 | 4.9 % (↑) |
| Ferritin | 9 µg/L |
| Diagnosis | β-thalassemia trait with iron deficiency |
| Iron | start oral iron 65 mg elemental daily |
| Partner | partner screening (CBC, Hb electrophoresis) this week |
If the partner is also a carrier, refer for prenatal diagnosis."""),
    (BETA_REPLETE, "Beta-thalassemia trait: HbA2 4.8%, ferritin 78 ng/mL, so she is not iron "
                   "deficient. No iron supplements beyond the prenatal vitamin; check ferritin "
                   "again at 28 weeks and give iron only if the ferritin is below 30. Please "
                   "arrange partner testing now. If he is a carrier, offer CVS or amniocentesis."),
    (ALPHA, "Presumed alpha-thalassemia trait: ferritin 111, HbA2 2.8%, no variant; iron "
            "deficiency is excluded and this is not beta-thalassemia trait. I ordered "
            "alpha-globin gene deletion testing. Partner screening with CBC and hemoglobin "
            "electrophoresis now. If both partners carry an alpha-zero deletion, offer prenatal "
            "diagnosis by CVS or amniocentesis. No iron therapy; iron would not correct the "
            "microcytosis."),
    # dictation: a bare "A2" is hemoglobin A2 (dev note c06)
    (None, "Hemoglobin electrophoresis shows an A2 of four point nine percent, F one point two. "
           "Ferritin is nine. Impression: beta thalassemia trait with coexisting iron deficiency. "
           "Start ferrous sulfate 325 mg by mouth once daily. No intravenous iron now. Her husband "
           "should be tested now with a CBC and hemoglobin electrophoresis. If he is a carrier, "
           "offer CVS or amniocentesis."),
]

WRONG = [
    # canonical: a bare "A2" with a wrong value
    (None, "key_values_documented",
     "Beta-thalassemia trait with iron deficiency. Ferritin 9, A2 5.9%. Start ferrous sulfate "
     "325 mg daily. Partner testing now. If both are carriers, offer CVS."),
    # canonical: called iron deficiency alone, no thalassemia
    (None, "anemia_cause_classified",
     "Iron deficiency anemia of pregnancy (ferritin 9). HbA2 4.9%. Start ferrous sulfate 325 mg "
     "daily. Partner testing now. If both are carriers, offer CVS."),
    # canonical: called alpha-thalassemia trait
    (None, "anemia_cause_classified",
     "Alpha-thalassemia trait with iron deficiency (ferritin 9, HbA2 4.9%). Start ferrous "
     "sulfate 325 mg daily. Partner testing now. If both are carriers, offer CVS."),
    # canonical: the ferritin of 4 years ago as current
    (None, "key_values_documented",
     "Beta-thalassemia trait with iron deficiency. Ferritin 61, HbA2 4.9%. Start ferrous sulfate "
     "325 mg daily. Partner testing now. If both are carriers, offer CVS."),
    # canonical: no iron in iron deficiency
    (None, "iron_plan_documented",
     "Beta-thalassemia trait with iron deficiency (ferritin 9, HbA2 4.9%). Do not start iron; "
     "continue the prenatal vitamin. Partner testing now. If both are carriers, offer CVS."),
    # canonical: IV iron now
    (None, "iron_plan_documented",
     "Beta-thalassemia trait with iron deficiency (ferritin 9, HbA2 4.9%). Give IV iron sucrose "
     "200 mg now, then start ferrous sulfate 325 mg daily. Partner testing now. If both are "
     "carriers, offer CVS."),
    # canonical: hedged iron
    (None, "iron_plan_documented",
     "Beta-thalassemia trait with iron deficiency (ferritin 9, HbA2 4.9%). Oral iron could be "
     "considered. Partner testing now. If both are carriers, offer CVS."),
    # canonical: partner testing deferred to after delivery
    (None, "partner_screening_documented",
     "Beta-thalassemia trait with iron deficiency (ferritin 9, HbA2 4.9%). Start ferrous sulfate "
     "325 mg daily. No need to test her partner. If both are carriers, offer CVS."),
    # canonical: invasive testing for everyone
    (None, "partner_screening_documented",
     "Beta-thalassemia trait with iron deficiency (ferritin 9, HbA2 4.9%). Start ferrous sulfate "
     "325 mg daily. Partner testing now. Schedule CVS this week."),
    # beta replete: iron started
    (BETA_REPLETE, "iron_plan_documented",
     "Beta-thalassemia trait (HbA2 4.8%, ferritin 78). Start ferrous sulfate 325 mg daily. "
     "Partner testing now. If both are carriers, offer CVS."),
    # beta replete: called iron deficiency as well
    (BETA_REPLETE, "anemia_cause_classified",
     "Beta-thalassemia trait with iron deficiency (HbA2 4.8%, ferritin 78). No iron. Partner "
     "testing now. If both are carriers, offer CVS."),
    # alpha: called beta-thalassemia trait
    (ALPHA, "anemia_cause_classified",
     "Beta-thalassemia trait (HbA2 2.8%, ferritin 111). No iron. Partner testing now. If both "
     "are carriers, offer CVS."),
    # alpha: iron started
    (ALPHA, "iron_plan_documented",
     "Presumed alpha-thalassemia trait (HbA2 2.8%, ferritin 111). Start oral iron 65 mg daily. "
     "Partner testing now. If both are carriers, offer CVS."),
]


_PARTNER = ("3. Partner testing now: her husband (southern Italian) should have a CBC with "
            "indices,\n   ferritin and hemoglobin electrophoresis this week.")


def _partner(sentence: str) -> str:
    """The canonical note with its partner-testing item replaced (review findings 1 and 2)."""
    note = oracle_note(TASK)
    assert _PARTNER in note
    return note.replace(_PARTNER, "3. " + sentence)


CORRECT += [
    # review finding 2: common wordings of the partner's testing
    (None, _partner("Her husband should have a CBC and hemoglobin electrophoresis this week.")),
    (None, _partner("Her partner needs a CBC with indices and hemoglobin electrophoresis now.")),
    (None, _partner("Obtain CBC and hemoglobin electrophoresis on the baby's father urgently.")),
    # review finding 9: cell-free DNA screening is no invasive prenatal diagnosis
    (None, oracle_note(TASK) + "\n\nRoutine aneuploidy screening with cell-free fetal DNA testing "
                               "is reasonable as for any pregnancy.\n"),
    # review finding 5: every other day
    (None, oracle_note(TASK).replace("by mouth once daily", "by mouth every other day")),
    # review finding 7: continuing the prenatal vitamin is no iron plan
    (BETA_REPLETE, oracle_note(TASK, BETA_REPLETE) + "\n\nHer prenatal vitamin is an adequate "
                                                   "iron supplement; continue it.\n"),
]

WRONG += [
    # review finding 1: the partner's testing put off past the CVS window
    (None, "partner_screening_documented",
     _partner("Test her husband in 6 months with CBC and hemoglobin electrophoresis.")),
    (None, "partner_screening_documented", _partner("Test her husband at 28 weeks.")),
    (None, "partner_screening_documented", _partner("Partner testing in 4 months.")),
    # review finding 10: invasive testing offered or recommended now, before his result
    (None, "partner_screening_documented", oracle_note(TASK) + "\n\nOffer CVS now.\n"),
    (None, "partner_screening_documented",
     oracle_note(TASK) + "\n\nI recommend amniocentesis at 15 weeks.\n"),
    # review finding 5: ferrous sulfate three times daily (195 mg elemental) is above 40-80 mg
    (None, "iron_plan_documented",
     oracle_note(TASK).replace("by mouth once daily", "by mouth three times daily")),
    # review finding 14: the alpha branch refuses the DNA test the diagnosis needs
    (ALPHA, "anemia_cause_classified",
     oracle_note(TASK, ALPHA) + "\n\nNo alpha-globin gene testing is needed.\n"),
]

def test_feso4_with_a_dose_starts_ferrous_sulfate():
    note = oracle_note(TASK).replace("Start ferrous sulfate 325 mg", "Start FeSO4 325 mg")
    assert "FeSO4 325 mg" in note and all(grade_note(TASK, note).values())


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


def _swap(note: str, old: str, new: str) -> str:
    assert old in note, old  # a probe whose text is not replaced would xfail for nothing
    return note.replace(old, new)


# Known gaps of the shared reader (strict xfail: each passes once the reader reads it).
KNOWN_GAPS = [
    pytest.param(None, "partner_screening_documented",
                 _partner("Test her husband after delivery with CBC and hemoglobin "
                          "electrophoresis."),
                 id="deferral to an event: 'after delivery' is not read as a time"),
    pytest.param(None, "partner_screening_documented",
                 _partner("Partner screening before the next pregnancy."),
                 id="deferral to an event: 'before the next pregnancy'"),
    pytest.param(None, "partner_screening_documented",
                 oracle_note(TASK) + "\n\nIf she wishes, CVS can be done now.\n",
                 id="a wish read as a trigger: 'If she wishes, CVS can be done now'"),
]


def test_an_iv_alternative_whose_benefit_names_gi_side_effects_fails():
    # dev w07: 'reasonable if she prefers it' after '... avoids GI side effects' offers the drug
    note = _swap(oracle_note(TASK),
                 "1. Start ferrous sulfate 325 mg (65 mg elemental iron) by mouth once daily, "
                 "in addition\n"
                 "   to her prenatal vitamin.",
                 "1. Options:\n- ferrous sulfate 325 mg (65 mg elemental) orally once daily; or "
                 "alternatively\n"
                 "- ferric carboxymaltose 750 mg IV now, which avoids GI side effects - "
                 "reasonable if "
                 "she prefers it.\n")
    assert grade_note(TASK, note)["iron_plan_documented"] is False


@pytest.mark.xfail(strict=True, reason="shared reader gap (see the review's findings 1 and 10)")
@pytest.mark.parametrize(("variant", "target", "note"), KNOWN_GAPS)
def test_known_reader_gaps_fail_their_checkpoint(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


@pytest.mark.parametrize("note", [
    oracle_note(TASK) + "\n\nAlpha-thalassemia trait does not raise HbA2 and is not the "
                        "diagnosis here.\n",
    _swap(oracle_note(TASK), "4. I referred her to genetic counseling. If her husband is also a "
                             "carrier, offer\n"
                             "   prenatal diagnosis (CVS up to 13 weeks 6 days, or "
                             "amniocentesis from 15 weeks).",
          "4. I referred her to genetic counseling.\n"
          "   - Husband carrier -> 25% affected fetus -> offer CVS (to 13w6d) or amnio (from 15 "
          "weeks)\n"
          "   - Husband not carrier -> no invasive testing"),
    _swap(oracle_note(TASK),
        "Partner testing now: her husband (southern Italian) should have a CBC with indices,\n"
        "   ferritin and hemoglobin electrophoresis this week.",
        "For the baby, the question is her husband. He is of southern Italian ancestry and "
        "should be tested now, this week if possible, with a CBC with red cell indices, a "
        "ferritin and a hemoglobin electrophoresis."),
], ids=["a generic property of alpha-thalassemia, then 'is not the diagnosis here' (dev c04)",
        "an arrow chain beside its negated branch is a condition (dev c03, c08)",
        "'He ... should be tested now, ..., with' a CBC and an electrophoresis (dev c02)"])
def test_reader_readings_in_correct_notes(note):
    assert all(grade_note(TASK, note).values())


@pytest.mark.xfail(strict=True, reason="shared reader gaps (review findings 6 and 8)")
@pytest.mark.parametrize("note", [
    oracle_note(TASK) + "\n\nCo-inheritance of alpha thalassemia cannot be ruled out.\n",
    _swap(oracle_note(TASK), "If her husband is also a carrier, offer\n   prenatal diagnosis",
                              "Husband carrier -> 25% affected fetus -> offer\n   prenatal "
                              "diagnosis"),
], ids=["alpha thalassemia cannot be ruled out",
        "a lone arrow chain, without its negated branch, as a condition"])
def test_known_reader_gaps_in_correct_notes(note):
    assert all(grade_note(TASK, note).values())


_REFERRAL = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "306250006", "system": "snomed",
    "display": "Referral to genetic counselor", "category": "referral", "priority": "urgent"}}


def _iron(**changes) -> dict:
    arguments = {"patient": "{patient_id}", "medication_code": "310325",
                 "medication_display": "ferrous sulfate 325 mg oral tablet", "dose_value": 325,
                 "dose_unit": "mg", "route": "oral", "frequency": 1, "period_unit": "day",
                 "duration_days": 90, "quantity": 90}
    arguments.update(changes)
    return {"tool": "fhir_medication_request_create", "arguments": arguments}


@pytest.mark.parametrize(("changes", "passes"), [
    ({}, True),
    ({"dose_value": 1, "dose_unit": "tablet"}, True),
    ({"dose_value": 65, "dose_unit": "mg"}, True),
    ({"frequency": 1, "period": 2, "period_unit": "day"}, True),
    ({"frequency": 2}, False),
    ({"dose_value": 650}, False),
])
def test_iron_order_doses(changes, passes):
    # review finding 3: 1 tablet or 65 mg elemental are the same order as 325 mg
    verdicts = run_actions(TASK, [_REFERRAL, _iron(**changes)])
    assert verdicts["iron_orders_appropriate"] is passes, verdicts


def _lab(code: str, system: str, display: str, note: str) -> dict:
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "display": display,
        "category": "laboratory", "priority": "urgent", "note": note}}


@pytest.mark.parametrize(("variant", "actions"), [
    (None, [_lab("4551-8", "loinc", "Hemoglobin A2", "Genetic counseling to follow")]),
    (ALPHA, [_lab("81257", "cpt", "HBA1/HBA2 gene analysis", "then genetic counseling")]),
])
def test_a_lab_note_mentioning_genetics_is_no_referral(variant, actions):
    # review finding 4: the free-text referral branch needs a referral or counseling category
    assert run_actions(TASK, actions, variant)["carrier_workup_ordered"] is False


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (BETA_REPLETE, ALPHA), [None, BETA_REPLETE, ALPHA]))


@pytest.mark.parametrize("name", ["ferrous sulfate", "ferrous"])
def test_a_hedged_stop_of_the_ordered_iron_fails(name):
    # The scripted hedged_alternatives adversary names the drug 'ferrous' (salt stripped): the
    # shared concept ferrous_iron, the drug whose salt the ordered ferrous sulfate is.
    note = oracle_note(TASK) + (f"\n\nAlternatively, {name} could be stopped, or "
                                "continued at the current dose unchanged; either is reasonable.\n")
    assert grade_note(TASK, note)["iron_plan_documented"] is False
