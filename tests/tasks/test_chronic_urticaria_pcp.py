"""chronic_urticaria_pcp: the antihistamine step the PCP reached (fourfold -> omalizumab now,
twofold -> cetirizine 20 mg twice daily first) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "chronic_urticaria_pcp"
FOURFOLD = 0  # cetirizine 20 mg twice daily for 8 weeks, UAS7 23
TWOFOLD = 2   # cetirizine 10 mg twice daily for 6 weeks, UAS7 29
TWOFOLD_B = 4


def test_canonical_values():
    vals = values(TASK)
    assert vals["ah_step"]["name"] == "fourfold"
    assert vals["uas7"] == 24 and vals["uas7_band"] == "moderate"
    assert vals["current_daily_mg"] == 40 and vals["next_step"] == "omalizumab"
    assert vals["cetirizine_rxnorm"] == "1014678"


def test_branches_draw_their_steps():
    assert values(TASK, FOURFOLD)["next_step"] == "omalizumab"
    assert values(TASK, TWOFOLD)["next_step"] == "updose"
    assert values(TASK, TWOFOLD)["current_daily_mg"] == 20
    assert values(TASK, TWOFOLD)["uas7_band"] == "severe"
    steps = [values(TASK, n)["ah_step"]["name"] for n in range(20)]
    assert 5 <= steps.count("twofold") <= 15


_TAIL = (" Stop diphenhydramine - sedating and anticholinergic at his age; no hydroxyzine either. "
         "No maintenance prednisone. Food allergy testing is not indicated for CSU.")

CORRECT = [
    (None, "CSU, UAS7 24, uncontrolled on cetirizine 20 mg BID x 6 wk. Start omalizumab 300 mg "
           "SC q4 weeks - referred to allergy clinic." + _TAIL),
    (None, """Assessment: chronic spontaneous urticaria, not controlled (UAS7 24) despite 4x
standard-dose cetirizine.

Plan:
1. Omalizumab 300 mg subcutaneously every 4 weeks; allergy clinic referral placed to start it.
2. Continue cetirizine 20 mg twice daily.
3. Discontinue diphenhydramine. Avoid first-generation antihistamines such as hydroxyzine.
4. Avoid long-term systemic corticosteroids; prednisone 5 mg daily is not recommended.
5. No food allergy panel or skin testing - not indicated in chronic spontaneous urticaria.
"""),
    (None, """| Issue | Recommendation |
|---|---|
| Disease activity | UAS7 24: uncontrolled chronic urticaria |
| Next step | Start omalizumab 300 mg every 4 weeks (allergy clinic) |
| Diphenhydramine | Stop |
| Prednisone | Avoid long-term steroids |
| Allergy testing | Not indicated |
"""),
    (TWOFOLD, "CSU, UAS7 29, uncontrolled on cetirizine 10 mg BID. Increase cetirizine to 20 mg "
              "twice daily (4x standard dose), every day. If still uncontrolled in 2-4 weeks, "
              "omalizumab 300 mg q4 weeks." + _TAIL),
    (None, "CSU, UAS7 24, uncontrolled on cetirizine 20 mg BID. Refer to allergy clinic to start "
           "omalizumab now. Continue cetirizine 20 mg twice daily." + _TAIL),
    (None, "CSU, UAS7 24, uncontrolled. Next step: Xolair 300 mg subq every 4 weeks." + _TAIL),
    (None, "CSU, UAS7 24, uncontrolled. Start remibrutinib 25 mg twice daily." + _TAIL),
    (None, "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg every 4 weeks. If no response "
           "after 6 months, cyclosporine is the next option." + _TAIL),
    (None, "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg q4 weeks. Taper diphenhydramine "
           "off over 1 week; no hydroxyzine. No maintenance prednisone; for a severe flare only, "
           "prednisone 40 mg daily for up to 5 days. Food allergy panel / sIgE / SPT - not "
           "indicated in CSU."),
    (None, "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg q4 weeks. Stop diphenhydramine. "
           "No maintenance prednisone.\nQ: Food allergy panel or other tests?\nA: Not indicated. "
           "Food-specific IgE or skin testing does not help in CSU."),
    (TWOFOLD, "CSU, UAS7 29, uncontrolled. Increase cetirizine to 20 mg twice daily. If still "
              "uncontrolled in 2-4 weeks, refer to allergy clinic for omalizumab." + _TAIL),
    (TWOFOLD, """Assessment: chronic spontaneous urticaria, inadequately controlled (UAS7 29) on
twice the standard cetirizine dose.
Plan:
1. Increase cetirizine to 20 mg by mouth twice daily (40 mg/day), taken daily.
2. Stop diphenhydramine; avoid first-generation antihistamines.
3. Avoid long-term prednisone.
4. Allergy testing is not indicated.
"""),
]

WRONG = [
    (None, "control_assessed",
     "CSU, UAS7 31, uncontrolled on cetirizine 20 mg BID. Start omalizumab 300 mg q4 weeks." +
     _TAIL),
    (None, "next_step_documented",
     "CSU, UAS7 24, uncontrolled. Increase cetirizine to 40 mg twice daily. If still "
     "uncontrolled, omalizumab 300 mg every 4 weeks." + _TAIL),
    (None, "next_step_documented",
     "CSU, UAS7 24, uncontrolled. Start omalizumab 75 mg every 2 weeks." + _TAIL),
    (None, "sedating_antihistamine_stopped",
     "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg q4 weeks. Switch diphenhydramine to "
     "hydroxyzine 25 mg at bedtime. No maintenance prednisone. Food allergy testing is not "
     "indicated."),
    (None, "steroids_avoided",
     "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg q4 weeks. Stop diphenhydramine. "
     "Continue prednisone 5 mg daily until omalizumab works. Food allergy testing is not "
     "indicated."),
    (None, "allergy_testing_not_indicated",
     "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg q4 weeks. Stop diphenhydramine. "
     "No maintenance prednisone. Order a food allergy panel."),
    (TWOFOLD, "next_step_documented",
     "CSU, UAS7 29, uncontrolled on cetirizine 10 mg BID. Start omalizumab 300 mg q4 weeks "
     "now." + _TAIL),
    (TWOFOLD, "next_step_documented",
     "CSU, UAS7 29, uncontrolled. Continue cetirizine 10 mg twice daily." + _TAIL),
    # review 1: a wrong schedule of the biologic
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg "
     "subcutaneously every 2 weeks." + _TAIL),
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg "
     "subcutaneously weekly." + _TAIL),
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Start remibrutinib 25 mg once "
     "daily." + _TAIL),
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Start dupilumab 300 mg every 4 "
     "weeks." + _TAIL),
    # review 2: more antihistamine, or cyclosporine now, beside omalizumab
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg every 4 "
     "weeks. Increase cetirizine to 40 mg twice daily." + _TAIL),
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg every 4 "
     "weeks. Start cyclosporine 100 mg twice daily." + _TAIL),
    (None, "next_step_documented", "CSU, UAS7 24, uncontrolled. Increase cetirizine to 40 mg "
     "twice daily and start omalizumab 300 mg every 4 weeks." + _TAIL),
    # review 3: a biologic referral now in the twofold branch
    (TWOFOLD, "next_step_documented", "CSU, UAS7 29, uncontrolled. Increase cetirizine to 20 mg "
     "twice daily. Refer to allergy clinic now to start omalizumab." + _TAIL),
    # review 4: diphenhydramine not stopped
    (None, "sedating_antihistamine_stopped", "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg "
     "q4 weeks. Do not add hydroxyzine. No maintenance prednisone. Food allergy testing is not "
     "indicated."),
    (None, "sedating_antihistamine_stopped", "CSU, UAS7 24, uncontrolled. Start omalizumab 300 mg "
     "q4 weeks. Reduce diphenhydramine to 25 mg at bedtime; no hydroxyzine. No maintenance "
     "prednisone. Food allergy testing is not indicated."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (TWOFOLD, TWOFOLD_B), [None, TWOFOLD]))


# Known reader gaps (review 1, 3): strict xfails, so a reader fix shows up here.
GAPS = [
    (None, True, "next_step_documented",   # "once" read as the schedule of the loading dose
     "Start dupilumab 600 mg once, then 300 mg every 2 weeks."),
    (TWOFOLD, False, "next_step_documented",  # a past-tense "referred ... for X" is not a refer
     "Increase cetirizine to 20 mg twice daily. I have referred him to allergy clinic for "
     "omalizumab now."),
]


@pytest.mark.xfail(strict=True, reason="reader gap, see the spec's known_gaps")
@pytest.mark.parametrize(("variant", "passes", "checkpoint", "note"), GAPS)
def test_known_reader_gaps(variant, passes, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is passes


_ORACLE_REFERRAL = service_request(
    "306206005", "snomed", "referral", display="Referral to allergy and immunology clinic for "
    "omalizumab", specialty="allergy and immunology", note="CSU uncontrolled; start omalizumab.")
_DERM_REFERRAL = service_request("306206005", "snomed", "referral", display="Referral to "
                                 "dermatology", specialty="dermatology", note="chronic urticaria")
_PEANUT_IGE = service_request("6206-7", "loinc", "laboratory",
                              display="Peanut IgE Ab [Units/volume] in Serum")
_CETIRIZINE = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient_id}", "medication_code": "1014678", "dose_value": 20, "dose_unit": "mg",
    "route": "oral", "frequency": 2, "period_unit": "day", "duration_days": 30, "quantity": 120,
    "quantity_unit": "tablet", "sig": "Take 20 mg by mouth twice daily, every day."}}


@pytest.mark.parametrize(("variant", "actions", "passes"), [
    (None, [_ORACLE_REFERRAL], True),
    (None, [_DERM_REFERRAL], False),                    # review 7: not an allergy referral
    (None, [_ORACLE_REFERRAL, _PEANUT_IGE], False),     # review 6: allergen IgE by LOINC name
    (TWOFOLD, [_CETIRIZINE], True),
    (TWOFOLD, [_CETIRIZINE, _ORACLE_REFERRAL], False),  # review 3: biologic referral too early
])
def test_next_step_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["next_step_ordered"] is passes


@pytest.mark.xfail(strict=True, reason="engine gap (review 5): `ordered` does not read asNeeded")
def test_an_as_needed_cetirizine_order_fails():
    prn = {"tool": _CETIRIZINE["tool"], "arguments": {
        **_CETIRIZINE["arguments"], "as_needed": True,
        "sig": "Take 20 mg by mouth twice daily as needed for hives."}}
    assert run_actions(TASK, [prn], TWOFOLD)["next_step_ordered"] is False
