"""trd_with_anxiety: the comorbidity draw (hypertension -> duloxetine; heavy drinking with raised
liver enzymes -> venlafaxine XR), and the note phrasings its checkpoints must judge (the SNRI
started, the other SNRI, benzodiazepines and bupropion not offered, today's PHQ-9 and GAD-7)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values

TASK = "trd_with_anxiety"
ALCOHOL = 1   # heavy drinking, ALT/GGT raised, steatosis: venlafaxine XR; PHQ-9 16, GAD-7 13
HTN = 8       # hypertension like canonical, PHQ-9 18, GAD-7 14
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["comorbidity"] == {"name": "hypertension"}
    assert (vals["phq9"], vals["gad7"]) == (16, 14)
    assert vals["snri"] == "duloxetine" and vals["avoid_snri"] == "venlafaxine"
    order, avoid, benzo, bupropion, other = vals["snri_order_grader"]["all"]["of"]
    assert order["ordered"]["codes"] == [RX + "596926", RX + "596930", RX + "596934"]
    assert order["ordered"]["dose"] == {"min": 30, "max": 60, "unit": "mg"}
    assert avoid["not_ordered"]["codes"] == [RX + "313583", RX + "313585", RX + "313581"]
    assert RX + "308048" in benzo["not_ordered"]["codes"]
    assert RX + "204892" in benzo["not_ordered"]["codes"]
    assert RX + "993541" in bupropion["not_ordered"]["codes"]
    banned = other["not_ordered"]["codes"]
    assert RX + "351250" in banned and not any(c.endswith(("|312938", "|596930")) for c in banned)


def test_branches_draw_their_answers():
    alc = values(TASK, ALCOHOL)
    assert alc["branch"] == "alcohol_liver" and alc["snri"] == "venlafaxine"
    assert alc["snri_dose"] == {"min": 37.5, "max": 75, "unit": "mg"}
    assert values(TASK, HTN)["branch"] == "hypertension"
    assert {values(TASK, n)["branch"] for n in range(20)} == {"hypertension", "alcohol_liver"}


_PLAN = "Start duloxetine 30 mg daily. Reduce sertraline to 100 mg daily. Avoid venlafaxine."


CORRECT = [
    (None, "PHQ-9 16 and GAD-7 14 today despite sertraline 200 mg. Start duloxetine 30 mg daily, "
           "reduce sertraline to 100 mg. Avoid venlafaxine (uncontrolled BP). No benzodiazepines. "
           "No bupropion."),
    (None, """Assessment: PHQ-9 is 16 (21 at onset), GAD-7 is 14 (17 at onset).
Plan:
1. Start duloxetine 30 mg once daily, increase to 60 mg after 1 week.
2. Sertraline 100 mg daily for 1 week, then 50 mg, then stop.
3. Do not start clonazepam or any benzodiazepine given prior alprazolam escalation.
4. I would not add bupropion; it does not treat GAD."""),
    (None, """| Item | Plan |
|---|---|
| PHQ-9 | 16 |
| GAD-7 | 14 |
| Duloxetine | start 30 mg daily |
| Sertraline | reduce to 100 mg daily |
| Clonazepam | avoid |"""),
    (None, """## Background
Alprazolam 0.5 mg from urgent care 3 years ago; use escalated with early refills, tapered off.
PHQ-9 21 -> 16; GAD-7 17 -> 14.
## Recommendations
1. Start duloxetine 30 mg daily x 7 days then 60 mg daily; sertraline 100 mg x 1 week, then stop.
2. Please do not prescribe clonazepam - prior alprazolam misuse.
3. Bupropion is not recommended; it would not help the GAD.
4. Venlafaxine is not a good choice with her BP of 152/96."""),
    (None, "Current PHQ-9 16, GAD-7 14. Start duloxetine 60 mg daily and stop sertraline. "
           "Venlafaxine could be considered later if her blood pressure is controlled. Avoid "
           "benzodiazepines."),
    (None, "PHQ-9 16 (PHQ-9 item 9 = 0), GAD-7 14. Switch from sertraline to duloxetine 30 mg "
           "once daily. Avoid venlafaxine until her blood pressure is controlled. No "
           "benzodiazepines, no bupropion."),
    (None, "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily. Taper sertraline: continue 100 mg "
           "for one week, then 50 mg, then stop. Venlafaxine could be considered later once BP "
           "is below 130/80. I would not add clonazepam or bupropion."),
    (ALCOHOL, "PHQ-9 16, GAD-7 13. Start venlafaxine XR 37.5 mg daily, then 75 mg after a week. "
              "Cross-taper sertraline: 100 mg daily for 1 week, then 50 mg, then stop. "
              "Avoid duloxetine with her drinking and raised liver enzymes. No clonazepam. "
              "No bupropion."),
    (ALCOHOL, "PHQ-9 16, GAD-7 13. Start venlafaxine XR 37.5 mg once daily; stop sertraline over "
              "2 weeks. Duloxetine could be reconsidered if she stops drinking and her liver "
              "tests normalise. No benzodiazepines. No bupropion."),
    (ALCOHOL, """Plan:
- Start venlafaxine XR 75 mg once daily
- Reduce sertraline to 100 mg daily
What to avoid:
- duloxetine (alcohol use, fatty liver)
- benzodiazepines
- bupropion
Today PHQ-9 16 and GAD-7 13."""),
    # the PCP's question restated (dev corpus c06); 'adding it would not solve ...' (c04)
    (None, "PHQ-9 16, GAD-7 14. " + _PLAN + " No benzodiazepines. No bupropion. Her primary "
           "care physician asks whether to add clonazepam or bupropion."),
    (None, "PHQ-9 16, GAD-7 14. " + _PLAN + " No benzodiazepines. Bupropion: it does not treat "
           "anxiety, and adding it would not solve the non-response."),
]

WRONG = [
    (None, "severity_documented",
     "PHQ-9 21, GAD-7 14. Start duloxetine 30 mg daily. No benzodiazepines. No bupropion."),
    (None, "severity_documented",
     "PHQ-9 16, GAD-7 17. Start duloxetine 30 mg daily. No benzodiazepines. No bupropion."),
    (None, "avoided_snri_excluded",
     "PHQ-9 16, GAD-7 14. Start venlafaxine XR 75 mg daily. No benzodiazepines."),
    (None, "avoided_snri_excluded",
     "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily, or venlafaxine XR 75 mg if she prefers."),
    (None, "switch_documented",
     "PHQ-9 16, GAD-7 14. Continue sertraline 200 mg and add aripiprazole 2 mg daily."),
    (None, "benzodiazepine_avoided",
     "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily. Clonazepam 0.5 mg twice daily for 2 "
     "weeks as a bridge."),
    (None, "benzodiazepine_avoided",
     "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily. Lorazepam 0.5 mg as needed is fine."),
    (None, "bupropion_not_added",
     "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily. Add bupropion XL 150 mg for energy."),
    (ALCOHOL, "avoided_snri_excluded",
     "PHQ-9 16, GAD-7 13. Start duloxetine 30 mg daily. No benzodiazepines."),
    (ALCOHOL, "switch_documented",
     "PHQ-9 16, GAD-7 13. Start venlafaxine XR 150 mg daily. Avoid duloxetine."),
    # review finding 1: SNRI on top of full-dose sertraline, or another SSRI added
    (None, "switch_documented",
     "PHQ-9 16 today, GAD-7 14 today. Continue sertraline 200 mg and add duloxetine 30 mg "
     "daily. Avoid venlafaxine. No benzodiazepines. No bupropion."),
    (None, "switch_documented",
     "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily. Reduce sertraline to 100 mg. Add "
     "escitalopram 10 mg. Avoid venlafaxine. No benzodiazepines. No bupropion."),
    # review finding 2: the excluded SNRI as the fallback on a trigger that is not the reason
    (None, "avoided_snri_excluded",
     "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg once daily; if not tolerated, switch to "
     "venlafaxine XR 75 mg. Reduce sertraline to 100 mg daily. No benzodiazepines."),
    (ALCOHOL, "avoided_snri_excluded",
     "PHQ-9 16, GAD-7 13. Start venlafaxine XR 37.5 mg daily; if not tolerated, switch to "
     "duloxetine 30 mg daily. Reduce sertraline to 100 mg daily. No benzodiazepines."),
    # dev corpus w05: 120 mg/day as a starting dose
    (None, "switch_documented",
     "PHQ-9 16, GAD-7 14. Start duloxetine 60 mg twice daily. Stop sertraline. Avoid "
     "venlafaxine. No benzodiazepines. No bupropion."),
    # 'A or, if needed, B' offers B; 'augment with <drug>' starts it; 'is a good fit' endorses
    (None, "benzodiazepine_avoided", "PHQ-9 16, GAD-7 14. " + _PLAN + " No bupropion. "
     "Hydroxyzine or, if needed, a brief benzodiazepine bridge."),
    (None, "bupropion_not_added", "PHQ-9 16, GAD-7 14. " + _PLAN + " No benzodiazepines. "
     "Alternatively, augment with bupropion."),
    (None, "avoided_snri_excluded", "PHQ-9 16, GAD-7 14. Start duloxetine 30 mg daily. Reduce "
     "sertraline to 100 mg daily. Venlafaxine XR 75 mg daily is a good fit for both conditions. "
     "No benzodiazepines. No bupropion."),
]

# Reader gaps (physbench_gym/grading/reader.py), pinned so a fix shows up: (variant, checkpoint,
# note, the verdict the reader gives today). A correct note that fails is pinned False, a wrong
# note that passes is pinned True.
READER_GAPS = [
    # a score in a clause that also says "inadequate response" is not read as current
    (None, "severity_documented", "PHQ-9 16 - inadequate response. GAD-7 is 14. " + _PLAN
     + " No benzodiazepines. No bupropion.", False),
    # '=' between a score and its value (review finding 6)
    (None, "severity_documented", "PHQ9=16; GAD7=14. " + _PLAN
     + " No benzodiazepines. No bupropion.", False),
    (None, "severity_documented", "PHQ-9 = 16, GAD-7 = 14. " + _PLAN
     + " No benzodiazepines. No bupropion.", False),
    # a dose in the same clause taken for the score (review finding 6)
    (None, "severity_documented", "Her PHQ-9 was 17 in February on sertraline 150 mg and is 16 "
     "now; GAD-7 14 (17 six months ago). " + _PLAN + " No benzodiazepines. No bupropion.", False),
    # 'recommend neither' after a list of drugs (review finding 5)
    (None, "benzodiazepine_avoided", "PHQ-9 16, GAD-7 14. " + _PLAN
     + " The PCP asked about clonazepam or bupropion; I recommend neither.", False),
]


def test_reader_gaps_still_misread():
    for variant, checkpoint, note, verdict in READER_GAPS:
        assert grade_note(TASK, note, variant)[checkpoint] is verdict, note


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (ALCOHOL, HTN), [None, ALCOHOL, HTN]))
