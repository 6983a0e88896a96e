"""immunosuppression_post_covid: the scenario and dose draws, and the note phrasings its checkpoints
must judge on each branch (restart methotrexate at the previous weekly dose, or keep it on hold
for ALT above 3x ULN; prednisone continued; no repeat SARS-CoV-2 test)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "immunosuppression_post_covid"


def _variant(kind: str, dose: float | None = None) -> int:
    for n in range(40):
        vals = values(TASK, n)
        if vals["scenario"]["kind"] == kind and (dose is None or vals["mtx_dose"] == dose):
            return n
    raise AssertionError((kind, dose))


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "resume"}
    assert vals["mtx_dose"] == 20
    assert vals["alt_now"] == 27
    assert vals["mtx_tablets_12wk"] == 96
    assert "ONCE WEEKLY" in vals["mtx_sig"] and "8 tablets" in vals["mtx_sig"]
    assert "http://loinc.org|94500-6" in vals["covid_test_codes"]
    assert "http://loinc.org|24325-3" in vals["liver_test_codes"]
    assert {"http://loinc.org|94309-2", "http://loinc.org|95209-3"} <= set(vals["covid_test_codes"])
    assert not {"COVID test", "COVID-19 test", "SARS-CoV-2 test"} & set(vals["covid_test_text"])


def test_branches_draw_their_scenarios():
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"resume", "alt_high"}
    for n in range(20):
        vals = values(TASK, n)
        if vals["scenario"]["kind"] == "alt_high":
            assert vals["alt_now"] > 3 * 56
    doses = {values(TASK, n)["mtx_dose"] for n in range(20)}
    assert len(doses) >= 3


CORRECT = [
    "Uncomplicated COVID-19, symptom-free for 9 days, labs normal. Restart methotrexate 20 mg "
    "once weekly now. No repeat COVID test needed. Continue prednisone 5 mg daily.",
    """Assessment: recovered from mild COVID-19; CBC and ALT normal.
Plan:
- Resume methotrexate 20 mg PO weekly.
- Continue prednisone 5 mg daily.
- A negative COVID test is not required.""",
    "She can restart her methotrexate at her usual dose of 20 mg weekly starting this week. Please "
    "keep her prednisone at 5 mg daily; do not stop it abruptly. There is no need to retest for "
    "COVID unless she develops new symptoms.",
]

WRONG = [
    ("methotrexate_plan_documented",
     "Restart methotrexate 10 mg once weekly now. Continue prednisone 5 mg daily. No repeat COVID "
     "test needed."),
    ("methotrexate_plan_documented",
     "Keep methotrexate on hold for another month. Continue prednisone 5 mg daily. No repeat COVID "
     "test needed."),
    ("prednisone_continued",
     "Restart methotrexate 20 mg once weekly now. Stop prednisone. No repeat COVID test needed."),
    ("no_covid_retest_documented",
     "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. Repeat a "
     "SARS-CoV-2 PCR first to confirm clearance."),
    # review finding 1: a daily or twice-weekly methotrexate restart (boxed warning)
    ("methotrexate_plan_documented",
     "Restart methotrexate 20 mg daily now. Continue prednisone 5 mg daily. No repeat COVID test "
     "is needed."),
    ("methotrexate_plan_documented",
     "Restart methotrexate 20 mg twice weekly now. Continue prednisone 5 mg daily. No repeat "
     "COVID test is needed."),
    # review finding 2: a deferred restart
    ("methotrexate_plan_documented",
     "Restart methotrexate 20 mg weekly in 2 weeks. Continue prednisone 5 mg daily. No repeat "
     "COVID test is needed."),
    # review finding 8: a hedged stop of prednisone
    ("prednisone_continued",
     "Restart methotrexate 20 mg once weekly now. Prednisone 5 mg daily - continue; "
     "alternatively she may stop prednisone now. No repeat COVID test is needed."),
]

ALT_HIGH = _variant("alt_high")
RESUME_15 = _variant("resume", 15)

CORRECT += [
    (ALT_HIGH, "ALT is more than 3x the upper limit of normal after COVID-19. Hold methotrexate "
               "for "
               "now and repeat the liver panel in 2 weeks. Continue prednisone 5 mg daily. No "
               "repeat COVID test is needed."),
    (RESUME_15, "Restart methotrexate 15 mg once weekly now. Continue prednisone 5 mg daily. No "
                "repeat COVID test is needed."),
    # review finding 3: MTX names methotrexate
    "Plan: OK to resume MTX 20mg q week now. Continue prednisone 5 mg daily. No repeat COVID test "
    "is needed.",
    (ALT_HIGH, "ALT more than 3x ULN. Hold MTX. Repeat LFTs in 2 wk. Continue prednisone 5 mg "
               "daily. No repeat COVID test is needed."),
    # review finding 9: a restart conditional on the liver tests
    (ALT_HIGH, "ALT more than 3x ULN. Keep methotrexate on hold; if the liver tests have improved, "
               "resume it at a reduced dose. Continue prednisone 5 mg daily. No repeat COVID test "
               "is needed."),
    # vaccine advice is a later hold, not a deferral of the restart (corpus c03, c08, c09)
    "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. No repeat COVID "
    "test is needed. Next COVID vaccine in 3 months; MTX may be held 1-2 weeks after it.",
]
WRONG += [
    (ALT_HIGH, "methotrexate_plan_documented",
     "Restart methotrexate now at her usual weekly dose. Continue prednisone 5 mg daily. No "
     "repeat COVID test is needed."),
    (RESUME_15, "methotrexate_plan_documented",
     "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. No repeat COVID "
     "test is needed."),
    # review finding 9: a restart on a date, not after the liver tests improve
    (ALT_HIGH, "methotrexate_plan_documented",
     "ALT more than 3x ULN. Hold methotrexate for 2 more weeks, then resume it weekly. Continue "
     "prednisone 5 mg daily. No repeat COVID test is needed."),
    # review finding 11: leflunomide is hepatotoxic too (ARAVA label 5.2)
    (ALT_HIGH, "methotrexate_plan_documented",
     "ALT more than 3x ULN. Stop methotrexate and start leflunomide 20 mg daily. Continue "
     "prednisone 5 mg daily. No repeat COVID test is needed."),
]

# Task lexicon supplements (drugs/tests.immunosuppression_post_covid.yaml):
# 're-ordered methotrexate'
# is a restart (corpus c02), upper-case 'FA' is folic acid and does not inherit methotrexate's daily
# schedule (c01), 'methotrexate remains on hold' is a hold (review finding 4), and 'have her do a
# rapid antigen test' asks for a test (w08).
CORRECT += [
    "Methotrexate: she can restart now. I have re-ordered methotrexate at her previous dose, 20 mg "
    "by mouth once weekly. Continue prednisone 5 mg daily. No repeat COVID test is needed.",
    "A/P\n- Labs nl -> RESTART MTX now at prior dose 20 mg (8 x 2.5 mg) PO ONCE WEEKLY. Order "
    "placed (#96, 84 d).\n- FA 1 mg qd cont.\n- Pred 5 mg qd: CONTINUE.\n- No repeat COVID test "
    "needed.",
    (ALT_HIGH, "ALT more than 3x ULN. Methotrexate remains on hold for now; repeat LFTs in 2 "
               "weeks. "
               "Continue prednisone 5 mg daily. No repeat COVID test is needed."),
    "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. She does not need "
    "to do a rapid antigen test; if she develops new symptoms, she should do a rapid antigen test.",
]
WRONG += [
    ("no_covid_retest_documented",
     "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. Before the first "
     "dose, please have her do a rapid antigen test to make sure she has cleared the virus."),
    ("methotrexate_plan_documented",
     "I have re-ordered methotrexate 20 mg daily. Continue prednisone 5 mg daily. No repeat COVID "
     "test is needed."),
    ("methotrexate_plan_documented",
     "Methotrexate remains on hold for now. Continue prednisone 5 mg daily. No repeat COVID test "
     "is needed."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (ALT_HIGH, RESUME_15), [None, ALT_HIGH, RESUME_15]))


# Review findings 4, 5, 8, 9 and corpus c06, w10, in the reader's wording: each note grades as
# marked.
READER_CASES = [
    (None, "no_covid_retest_documented", True,
     "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. She does not "
     "need a repeat or negative COVID test."),
    (None, "prednisone_continued", False,
     "Restart methotrexate 20 mg once weekly now. Prednisone 5 mg daily - continue; alternatively, "
     "since she would like to come off it and methotrexate is being restarted, she may simply "
     "stop it now. No repeat COVID test is needed."),
    (ALT_HIGH, "methotrexate_plan_documented", False,
     f"ALT more than 3x ULN. Hold methotrexate this week and restart "
     f"{values(TASK, ALT_HIGH)['mtx_dose']:g} mg weekly next week. Continue prednisone 5 mg daily. "
     "No repeat COVID test is needed."),
    # review finding 4: a passive restart, and a refusal to restart read as a restart
    (None, "methotrexate_plan_documented", True,
     "Methotrexate 20 mg once weekly can be restarted now. Continue prednisone 5 mg daily. No "
     "repeat COVID test is needed."),
    (ALT_HIGH, "methotrexate_plan_documented", True,
     f"It is not safe to restart methotrexate at this time because ALT is "
     f"{values(TASK, ALT_HIGH)['alt_now']:g} U/L. Repeat LFTs in 2 weeks. Continue prednisone 5 mg "
     "daily. No repeat COVID test is needed."),
    # review finding 5: clearance tests asked for in other words
    (None, "no_covid_retest_documented", False,
     "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. Please swab her "
     "again for COVID to confirm clearance."),
    (None, "no_covid_retest_documented", False,
     "Restart methotrexate 20 mg once weekly now. Continue prednisone 5 mg daily. Order a COVID "
     "test to confirm she is negative before the first dose."),
]


@pytest.mark.parametrize(("variant", "checkpoint", "passes", "note"), READER_CASES)
def test_reader_cases(variant, checkpoint, passes, note):
    assert grade_note(TASK, note, variant)[checkpoint] is passes


MTX_ORDER = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient_id}", "medication_code": "105585",
    "medication_display": "methotrexate 2.5 mg tablet", "dose_value": 20, "dose_unit": "mg",
    "route": "oral", "frequency": 1, "period": 1, "period_unit": "week",
    "sig": "Take 8 tablets (20 mg) by mouth ONCE WEEKLY", "duration_days": 84, "quantity": 96}}
HFP = service_request("24325-3", "loinc", "laboratory")


@pytest.mark.parametrize(("variant", "actions", "passes"), [
    (None, [MTX_ORDER], True),
    (None, [MTX_ORDER, service_request("94309-2", "loinc", "laboratory")], False),
    (None, [MTX_ORDER, service_request("95209-3", "loinc", "laboratory")], False),
    (None, [MTX_ORDER, service_request("87426", "cpt", "laboratory")], False),
    (None, [MTX_ORDER, service_request("58410-2", "loinc", "laboratory",
                                       note="Monitoring after MTX restart; no COVID test needed")],
     True),
    (ALT_HIGH, [HFP], True),
    (ALT_HIGH, [service_request("24325-3", "loinc", "laboratory",
                                note="Repeat LFTs in 2 weeks; MTX on hold; no repeat COVID test "
                                     "needed")], True),
    (ALT_HIGH, [HFP, MTX_ORDER], False),
])
def test_methotrexate_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["methotrexate_orders"] is passes
