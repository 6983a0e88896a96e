"""low_volume_bowel_prep: the kidney branch (CKD G4 or preserved function), the eGFR and
creatinine derived for it, and the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    note_probes,
    values,
)

TASK = "low_volume_bowel_prep"
PRESERVED = 2     # eGFR 64 today; eGFR 24 two years ago was acute kidney injury
CKD4_OTHER = 9    # CKD G4 with another eGFR (19)


def test_canonical_values():
    vals = values(TASK)
    assert vals["kidney"] == {"name": "ckd4"}
    assert vals["egfr"] == 23 and vals["creatinine"] == 2.88
    # the chart's eGFR trend: 54 at the last colonoscopy 3 years ago, falling since
    assert [vals[f"egfr_{k}"] for k in ("m4y", "m3y", "m2y", "m1y", "m4m")] == [61, 54, 41, 32, 29]


def test_branches_and_egfr_bands():
    assert values(TASK, PRESERVED)["kidney"]["name"] == "preserved"
    assert values(TASK, PRESERVED)["egfr"] == 64
    assert values(TASK, PRESERVED)["egfr_m2y"] == 24  # the AKI value, a distractor
    assert values(TASK, CKD4_OTHER)["egfr"] == 19
    for n in range(20):
        vals = values(TASK, n)
        assert (vals["egfr"] < 30) == (vals["kidney"]["name"] == "ckd4"), n
    assert {values(TASK, n)["kidney"]["name"] for n in range(20)} == {"ckd4", "preserved"}


# Reader gaps (shared note reader, physbench_gym/grading/reader.py), pinned as xfail until fixed:
GAP_TOTAL = ("reader: the two halves of a split ('2 liters the evening before and the remaining 2 "
             "liters the morning of') state no 4 L total; they should add up to it")
GAP_HISTORY_FINDING = ("reader: note_finding counts a HISTORICAL mention ('Last time he took "
                       "split-dose GoLYTELY') as affirmed, so a regimen named only in the "
                       "history passes")

CORRECT = [
    (None, "eGFR 23 (CKD stage 4). Low-volume preps are not safe. Plan: GoLYTELY 4 L split dose - "
           "2 L the evening before and 2 L the morning of. Avoid SUTAB, SUPREP, Clenpiq and "
           "OsmoPrep."),
    (None, "Assessment: CKD G4, eGFR 23 mL/min/1.73m2. Recommend split-dose 4 L PEG-ELS. No "
           "sulfate-based or magnesium-containing preps (Sutab, Suprep), no sodium picosulfate, no "
           "sodium phosphate."),
    (None, """| Item | Plan |
|---|---|
| Kidney function | eGFR 23, CKD stage 4 |
| Prep | GoLYTELY 4 L, split-dose |
| Avoid | SUTAB, SUPREP, Clenpiq, OsmoPrep, magnesium citrate |"""),
    (None, "His eGFR is now 23 (stage 4 CKD); it was 54 at his last colonoscopy. I prescribed "
           "GoLYTELY (PEG-3350 and electrolytes) 4 L as a split-dose regimen. Do not use SUTAB or "
           "the other hyperosmotic preps."),
    # the stage in other words
    (None, "eGFR 23 (CKD4). Plan: GoLYTELY 4 L split dose. Avoid SUTAB, SUPREP and Clenpiq."),
    (None, "eGFR 23 - KDIGO category G4. Plan: GoLYTELY 4 L split dose. Avoid SUTAB."),
    (None, "eGFR 23 = chronic kidney disease G4. Plan: GoLYTELY 4 L split dose. No SUTAB."),
    (None, "Current eGFR 23, i.e. below 30: advanced CKD. Plan: GoLYTELY 4 L split dose. "
           "No SUTAB, no SUPREP."),
    # the split written out
    (None, "eGFR 23 (CKD stage 4).\n\nPlan:\n1. GoLYTELY 4 L - 2 L the evening before and the "
           "other 2 L the morning of the colonoscopy.\n2. Avoid SUTAB."),
    (None, "eGFR 23 (CKD stage 4).\n\nPlan:\n1. GoLYTELY 4 L in two halves: half at 6 PM the day "
           "before, half 5 hours before the procedure.\n2. Avoid SUTAB."),
    # isosmotic 2 L PEG-ELS with bisacodyl, and a PEG-based fallback
    (None, "eGFR 23 (CKD stage 4). Plan: 2 L PEG-ELS with bisacodyl (GaviLyte-H and Bisacodyl "
           "kit), split dose. Avoid SUTAB, SUPREP and Clenpiq."),
    (None, "eGFR 23 (CKD stage 4). Plan: GoLYTELY 4 L split dose. If he refuses the 4 L, MoviPrep "
           "2 L split dose with a BMP the next day. Avoid SUTAB."),
    (PRESERVED, "eGFR 64 - the eGFR of 24 two years ago was AKI during pneumonia. A low-volume "
                "prep is fine: MoviPrep 2 L split dose. Do not use sodium phosphate (OsmoPrep)."),
    (PRESERVED, "Kidney function is normal now (eGFR 64); the low value two years ago was "
                "prerenal AKI with pneumonia. Plan: 2 L PEG-ascorbate, split-dose; SUTAB would "
                "also be reasonable. No OsmoPrep."),
    (PRESERVED, "eGFR 64 (acute kidney injury in 2024, recovered). Start SUTAB tablets as a "
                "split-dose regimen. Avoid oral sodium phosphate."),
    (PRESERVED, "eGFR 64; the eGFR of 24 was acute kidney injury. Plan: SUPREP split dose. No "
                "sodium phosphate."),
    (CKD4_OTHER, "eGFR 19, CKD stage 4. I ordered split-dose GoLYTELY 4 L. No SUTAB or SUPREP."),
    (None, "He could not finish the 4 L GoLYTELY last time.\n\neGFR 23 (CKD stage 4). "
           "Plan: GoLYTELY 4 L split dose. Avoid SUTAB."),
    (None, "Question from primary care: which bowel prep is safe, and can he have "
           "SUTAB.\n\neGFR 23 (CKD stage 4). Plan: GoLYTELY 4 L split dose. Avoid SUTAB."),
    pytest.param(None, "eGFR 23 (CKD stage 4). Plan: Start GoLYTELY split dose: drink 2 liters the "
                 "evening before and the remaining 2 liters the morning of the procedure. Avoid "
                 "SUTAB.", marks=pytest.mark.xfail(reason=GAP_TOTAL, strict=True),
                 id="gap_split_total"),
]

PLAN = "eGFR 23 (CKD stage 4). Avoid SUTAB.\n\nPlan:\n1. GoLYTELY 4 L split dose.\n"

WRONG = [
    # canonical: the eGFR at the last colonoscopy quoted as today's
    (None, "kidney_function_assessed",
     "eGFR 54, CKD stage 3a. GoLYTELY 4 L split dose. Avoid SUTAB."),
    # canonical: kidney function denied as the reason (w10)
    (None, "kidney_function_assessed",
     "eGFR 23, CKD stage 4. Kidney function at this level does not itself rule out a low-volume "
     "prep; GoLYTELY is chosen because it is covered. GoLYTELY 4 L split dose."),
    # canonical: the requested tablets offered as an alternative
    (None, "prep_plan_documented",
     "eGFR 23 (CKD stage 4). GoLYTELY 4 L split dose, or SUTAB if he prefers."),
    # canonical: the requested tablets given
    (None, "prep_plan_documented", "eGFR 23 (CKD stage 4). SUTAB split dose is fine."),
    # canonical: hedged plan
    (None, "prep_plan_documented",
     "eGFR 23 (CKD stage 4). Consider GoLYTELY 4 L split dose. Avoid SUTAB."),
    # canonical: half the PEG-ELS volume without an adjunct
    (None, "prep_plan_documented",
     "eGFR 23 (CKD stage 4). Plan: GoLYTELY 2 L split dose, 1 L the evening before and 1 L the "
     "morning of. Avoid SUTAB."),
    # canonical: a sodium phosphate enema
    (None, "prep_plan_documented",
     PLAN + "2. If the effluent is not clear in the morning, give a Fleet enema."),
    (None, None,
     "eGFR 23 (CKD stage 4). Plan: GoLYTELY 4 L split dose followed by a sodium phosphate enema "
     "on the morning of the procedure. Avoid SUTAB."),
    # canonical: the whole prep the evening before
    (None, "split_dose_documented",
     "eGFR 23 (CKD stage 4). GoLYTELY 4 L the evening before. Avoid SUTAB."),
    (None, "split_dose_documented",
     "eGFR 23 (CKD stage 4). GoLYTELY 4 L, no need for a split dose: all 4 L the evening before. "
     "Avoid SUTAB."),
    # canonical: the hedged-alternative adversary with the brand name
    (None, "prep_plan_documented",
     "eGFR 23 (CKD stage 4). Start GoLYTELY 4 L split dose. Avoid SUTAB.\n\nAlternatively, "
     "GoLYTELY could be stopped, or continued at the current dose unchanged; either is "
     "reasonable."),
    # preserved: the AKI eGFR quoted as current
    (PRESERVED, "kidney_function_assessed",
     "eGFR 24 (AKI). MoviPrep 2 L split dose. Avoid OsmoPrep."),
    # preserved: called CKD stage 4
    (PRESERVED, "kidney_function_assessed",
     "eGFR 64 (CKD stage 4), the eGFR of 24 was AKI. MoviPrep 2 L split dose. Avoid OsmoPrep."),
    # preserved: the 4 L prep he could not finish, again
    (PRESERVED, "prep_plan_documented",
     "eGFR 64. GoLYTELY 4 L split dose again. Avoid OsmoPrep."),
    # preserved: sodium phosphate offered
    (PRESERVED, "prep_plan_documented",
     "eGFR 64. Plan: MoviPrep 2 L split dose. OsmoPrep is an alternative."),
] + [
    (None, "prep_plan_documented", PLAN + line)
    for line in ["2. SUTAB 24 tablets.", "2. OsmoPrep 32 tablets.",
                 "2. Magnesium citrate 296 mL the afternoon before.",
                 "2. Also SUTAB.", "2. SUTAB as well.", "2. Clenpiq as a second option."]
] + [
    (None, "prep_plan_documented",
     PLAN + "Because he struggled last time, I'd add one 10 oz bottle of magnesium "
     "citrate at 3 PM the day before as a booster."),
    (None, "prep_plan_documented",
     PLAN + "- If he insists on tablets instead of liquid: OsmoPrep (sodium phosphate) "
     "is the tablet option: 20 tablets the evening before and 12 the morning of the "
     "procedure."),
    pytest.param(None, "split_dose_documented",
                 "eGFR 23 (CKD stage 4).\n\nLast time he took split-dose GoLYTELY and vomited.\n\n"
                 "Plan:\n1. GoLYTELY 4 L, all of it the evening before starting at 4 PM.\n"
                 "2. Avoid SUTAB.",
                 marks=pytest.mark.xfail(reason=GAP_HISTORY_FINDING, strict=True),
                 id="gap_split_in_history"),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (PRESERVED, CKD4_OTHER), [None, PRESERVED]))
