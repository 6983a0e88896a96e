"""trd_augmentation: the trial-adequacy and aripiprazole-history draws, and the note phrasings its
checkpoints must judge on each branch (augment with aripiprazole; augment with another agent after
akathisia; optimize sertraline before any augmentation)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values

TASK = "trd_augmentation"
LOW_DOSE = 0      # sertraline 50 mg for 6 weeks: increase it, no augmentation yet
AKATHISIA = 3     # adequate trials, akathisia on aripiprazole in the last episode
LOW_AKATHISIA = 6  # sertraline 50 mg, and akathisia on aripiprazole in the last episode
AUGMENT = 10      # adequate trials, no antipsychotic before (as canonical)
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["trial"] == {"name": "adequate"} and vals["arip_history"] == {"name": "none"}
    assert vals["branch"] == "augment" and vals["sertraline_mg"] == 200
    order, second_ssri, lowered, raised = vals["order_grader"]["all"]["of"]
    arip, brex = order["any"]["of"]
    assert arip["ordered"]["codes"] == [RX + "602964", RX + "402131"]
    assert arip["ordered"]["dose"] == {"min": 2, "max": 5, "unit": "mg"}
    assert brex["ordered"]["dose"] == {"min": 0.5, "max": 1, "unit": "mg"}
    banned = second_ssri["not_ordered"]["codes"]
    assert RX + "351250" in banned and not any(c.endswith(("|312938", "|312941")) for c in banned)
    assert lowered["not_ordered"]["dose"] == {"max": 199, "unit": "mg"}
    assert raised["not_ordered"]["dose"] == {"min": 201, "unit": "mg"}


def test_branches_draw_their_answers():
    assert values(TASK, LOW_DOSE)["branch"] == "low_dose"
    assert values(TASK, AKATHISIA)["branch"] == "akathisia"
    assert values(TASK, AUGMENT)["branch"] == "augment"
    assert values(TASK, LOW_AKATHISIA)["branch"] == "low_dose"
    assert values(TASK, LOW_AKATHISIA)["arip_history"] == {"name": "akathisia"}
    low = values(TASK, LOW_DOSE)["order_grader"]["all"]["of"]
    assert low[0]["ordered"]["dose"] == {"min": 100, "max": 150, "unit": "mg"}
    early = low[2]["not_ordered"]["codes"]
    # antipsychotics, bupropion (993541) and mirtazapine (311725) are all too early here
    assert {RX + "602964", RX + "993541", RX + "311725"} <= set(early)
    aka = values(TASK, AKATHISIA)["order_grader"]["all"]["of"]
    assert aka[4]["not_ordered"]["codes"] == [RX + "602964", RX + "402131"]
    assert {values(TASK, n)["branch"] for n in range(20)} == {"augment", "akathisia", "low_dose"}


CORRECT = [
    (None, "Treatment-resistant depression after escitalopram 20 mg and sertraline 200 mg. "
           "Continue sertraline 200 mg daily. Start aripiprazole 2 mg daily."),
    (None, """Assessment: two adequate trials failed.
Plan:
1. Continue sertraline 200 mg once daily.
2. Add aripiprazole 2 mg daily, increase to 5 mg after 2 weeks if tolerated.
3. Avoid adding a second SSRI."""),
    (AKATHISIA, "Two adequate trials failed. She had akathisia on aripiprazole, so do not "
                "restart aripiprazole. Continue sertraline 200 mg. Start brexpiprazole 0.5 mg "
                "daily."),
    (AKATHISIA, "Continue sertraline 200 mg. Add quetiapine XR 50 mg at bedtime. Avoid "
                "aripiprazole given prior akathisia."),
    (LOW_DOSE, "Sertraline is still at 50 mg, so this is not an adequate trial. Increase "
               "sertraline to 100 mg daily. No antipsychotic augmentation now."),
    (LOW_DOSE, """Plan:
1. Increase sertraline to 100 mg daily, then titrate toward 200 mg.
2. Hold off on augmentation for now."""),
    (LOW_DOSE, """Data: she is taking sertraline 50 mg daily for 6 weeks, tolerating it, PHQ-9 down
from 21. Escitalopram 20 mg failed.
Plan: increase sertraline to 100 mg daily. If PHQ-9 has not fallen by half after 6-8 weeks at
200 mg, add aripiprazole 2 mg as the next step."""),
    (None, "Add aripiprazole 2 mg daily to her sertraline 200 mg. Recheck PHQ-9 in 4 weeks."),
    # the other CANMAT first-line adjuncts (review finding 1)
    (None, "Continue sertraline 200 mg. Start brexpiprazole 0.5 mg daily."),
    (None, "Continue sertraline 200 mg. Start cariprazine 1.5 mg daily."),
    # a later step under a trigger is not an open menu (finding 5)
    (None, "Continue sertraline 200 mg daily. Add aripiprazole 2 mg daily. If there is no "
           "response after 6-8 weeks at 5-10 mg, re-consult to discuss lithium or bupropion."),
    # 'what to avoid' lists: avoiding a stop is keeping it (finding 4)
    (None, "Continue sertraline 200 mg daily. Add aripiprazole 2 mg daily.\nWhat to avoid:\n"
           "- stopping sertraline\n- a second SSRI"),
    # low_dose: augmentation named as a later step under any trigger (finding 7)
    (LOW_DOSE, "Increase sertraline to 100 mg daily. If she does not respond to the higher dose, "
               "add aripiprazole 2 mg."),
    (LOW_DOSE, "Increase sertraline to 100 mg daily. Should she remain depressed after 8 weeks at "
               "200 mg, add aripiprazole 2 mg."),
    (None, """| Medication | Plan |
|---|---|
| Sertraline | continue 200 mg daily |
| Aripiprazole | start 2 mg daily |"""),
    # 'do not V1, V2 or V3': the refusal reaches every verb
    (None, "Plan:\n- Continue sertraline 200 mg once daily (do not reduce, stop or switch)\n"
           "- Add aripiprazole 2 mg once daily"),
]

WRONG = [
    (None, "augmentation_documented",
     "Continue sertraline 200 mg. Start aripiprazole 15 mg daily."),
    (None, "augmentation_documented",
     "Continue sertraline 200 mg. Consider aripiprazole or quetiapine or lithium."),
    (None, "sertraline_plan_documented",
     "Stop sertraline and start aripiprazole 2 mg daily."),
    (AKATHISIA, "augmentation_documented",
     "Continue sertraline 200 mg. Start aripiprazole 2 mg daily."),
    (LOW_DOSE, "augmentation_documented",
     "Increase sertraline to 100 mg daily. Start aripiprazole 2 mg daily."),
    (LOW_AKATHISIA, "augmentation_documented",
     "Increase sertraline to 100 mg daily. If no response after 8 weeks at 200 mg, add "
     "aripiprazole 2 mg."),
    (LOW_DOSE, "sertraline_plan_documented",
     "Continue sertraline 50 mg daily. No antipsychotic now."),
    # a second SSRI/SNRI or a return to escitalopram (finding 2)
    (None, "augmentation_documented",
     "Continue sertraline 200 mg. Add aripiprazole 2 mg daily. Also add fluoxetine 20 mg daily."),
    (None, "augmentation_documented",
     "Continue sertraline 200 mg. Add aripiprazole 2 mg daily. Restart escitalopram 20 mg."),
    (AKATHISIA, "augmentation_documented",
     "Aripiprazole caused akathisia. Continue sertraline 200 mg. Start brexpiprazole 0.5 mg "
     "daily. Add citalopram 20 mg."),
    (LOW_DOSE, "augmentation_documented",
     "Increase sertraline to 100 mg daily. Add fluoxetine 20 mg."),
    # sertraline lowered, tapered or stopped beside the adjunct (finding 3)
    (None, "sertraline_plan_documented",
     "Reduce sertraline to 100 mg daily. Add aripiprazole 2 mg daily."),
    (None, "sertraline_plan_documented",
     "Continue sertraline 200 mg. Add aripiprazole 2 mg daily. Taper sertraline to 150 mg."),
    (None, "sertraline_plan_documented",
     "Continue sertraline 200 mg. Add aripiprazole 2 mg daily. Stop sertraline once she "
     "responds."),
    # an open choice between agents (finding 5)
    (None, "augmentation_documented",
     "Continue sertraline 200 mg. Add aripiprazole 2 mg daily or brexpiprazole 0.5 mg daily."),
    # early augmentation with a non-antipsychotic (finding 6)
    (LOW_DOSE, "augmentation_documented",
     "Increase sertraline to 100 mg daily. Add bupropion XL 150 mg daily."),
    (LOW_DOSE, "augmentation_documented",
     "Increase sertraline to 100 mg daily. Add mirtazapine 15 mg at bedtime."),
    (LOW_DOSE, "augmentation_documented",
     "Increase sertraline to 100 mg daily. If she prefers, we can add aripiprazole 2 mg now."),
]

# Reader gaps (physbench_gym/grading/reader.py), pinned so a fix shows up: each correct note
# below still fails today.
READER_GAPS = [
    # 'avoid' + a stop verb governing the drug reads as avoiding the drug
    (None, "Plan:\n1. Continue sertraline 200 mg daily.\n2. Add aripiprazole 2 mg daily.\n"
           "3. Avoid stopping sertraline."),
    # 'Next step if ...: X' is a trigger, not a plan now
    (LOW_DOSE, "Increase sertraline to 100 mg daily. Next step if remission is not reached: "
               "aripiprazole 2 mg."),
]


def test_reader_gaps_still_misread():
    for variant, note in READER_GAPS:
        assert not all(grade_note(TASK, note, variant).values()), note



test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LOW_DOSE, AKATHISIA), [None, LOW_DOSE, LOW_AKATHISIA, AKATHISIA, AUGMENT]))
