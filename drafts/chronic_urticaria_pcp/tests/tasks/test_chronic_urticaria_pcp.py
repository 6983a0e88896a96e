"""chronic_urticaria_pcp: the antihistamine step the PCP reached (fourfold -> omalizumab now,
twofold -> cetirizine 20 mg twice daily first) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "chronic_urticaria_pcp"
FOURFOLD = 0  # cetirizine 20 mg twice daily for 8 weeks, UAS7 22
TWOFOLD = 2   # cetirizine 10 mg twice daily for 7 weeks, UAS7 33
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
    (TWOFOLD, "CSU, UAS7 33, uncontrolled on cetirizine 10 mg BID. Increase cetirizine to 20 mg "
              "twice daily (4x standard dose), every day. If still uncontrolled in 2-4 weeks, "
              "omalizumab 300 mg q4 weeks." + _TAIL),
    (TWOFOLD, """Assessment: chronic spontaneous urticaria, inadequately controlled (UAS7 33) on
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
     "CSU, UAS7 33, uncontrolled on cetirizine 10 mg BID. Start omalizumab 300 mg q4 weeks "
     "now." + _TAIL),
    (TWOFOLD, "next_step_documented",
     "CSU, UAS7 33, uncontrolled. Continue cetirizine 10 mg twice daily." + _TAIL),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (TWOFOLD, TWOFOLD_B), [None, TWOFOLD]))
