"""svt_tuberous_sclerosis: the derived kidney function and agent, and the note phrasings its
checkpoints must judge on each branch (beta blocker, calcium channel blocker, class IC + EP)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, values

TASK = "svt_tuberous_sclerosis"
CCB_VARIANT, IC_VARIANT = 2, 1   # seeds drawing the asthma and the pre-excitation profiles


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == {"agent": "beta_blocker"}
    assert (vals["creatinine"], vals["egfr"], vals["ckd_stage"]) == (1.28, 58, "3a")
    assert vals["prior_egfr"] == 71                      # the stale value 3 years ago
    assert vals["forbidden_names"] == ["diltiazem", "verapamil"]
    assert vals["forbidden_concepts"] == ["ndhp_ccb"]


def test_branches_draw_their_agents():
    assert values(TASK, CCB_VARIANT)["profile"]["agent"] == "ndhp_ccb"
    assert values(TASK, CCB_VARIANT)["egfr"] == 48
    assert values(TASK, IC_VARIANT)["profile"]["agent"] == "class_ic"
    assert values(TASK, IC_VARIANT)["egfr"] == 65
    agents = {values(TASK, n)["profile"]["agent"] for n in range(20)}
    assert agents == {"beta_blocker", "ndhp_ccb", "class_ic"}


CORRECT = [
    (None, """Assessment: recurrent PSVT, resting ECG without pre-excitation. eGFR 58 mL/min/1.73m2 (CKD 3a).
Plan: Start metoprolol succinate 25 mg daily. Avoid diltiazem and verapamil because they increase everolimus levels."""),
    (None, """# Impression
AVNRT likely. No delta wave on the post-conversion ECG - no WPW. Renal function: eGFR 58.
# Recommendations
- Metoprolol tartrate 25 mg PO BID
- No non-DHP calcium channel blockers (CYP3A4/P-gp interaction with everolimus)"""),
    (None, """| Item | Finding |
|---|---|
| Resting ECG | sinus rhythm, no preexcitation |
| eGFR | 58 |
Plan: I recommend atenolol 25 mg once daily for SVT suppression. We will not use verapamil or diltiazem (everolimus)."""),
    (None, """This 29-year-old with tuberous sclerosis has paroxysmal supraventricular tachycardia. Her resting ECG shows no ventricular pre-excitation. Current eGFR is 58 (it was 71 three years ago). I started metoprolol succinate 50 mg once daily. Calcium channel blockers such as diltiazem should be avoided because of everolimus."""),
    (CCB_VARIANT, """Resting ECG: NSR, no delta wave. Kidney function: eGFR 48 mL/min/1.73 m2.
Recommendations:
- Verapamil ER 180 mg PO once daily
- No beta-blockers (moderate persistent asthma with recent exacerbation)"""),
    (CCB_VARIANT, """This young woman with TSC and asthma has AVNRT-type SVT with no pre-excitation on her baseline ECG. Current eGFR 48. I prescribed diltiazem 24-hour 120 mg once daily; beta blockers, even metoprolol, are not advisable with her bronchospasm."""),
    (IC_VARIANT, """Assessment: orthodromic AVRT with manifest pre-excitation (WPW pattern) on the resting ECG. eGFR 65.
Plan:
1. Refer to electrophysiology for EP study and catheter ablation.
2. Start flecainide 50 mg twice daily meanwhile.
3. Avoid diltiazem, verapamil and digoxin."""),
    (IC_VARIANT, """| Item | Detail |
|---|---|
| Resting ECG | manifest pre-excitation |
| eGFR | 65 |
| Drug | flecainide 100 mg twice daily |
| Referral | EP study + ablation |
Avoid: verapamil, diltiazem, digoxin."""),
]

WRONG = [
    # beta-blocker branch: a calcium channel blocker despite everolimus
    (None, "plan_documented", "SVT, no pre-excitation. eGFR 58. Start diltiazem ER 120 mg daily."),
    # stale eGFR stated as current
    (None, "rhythm_and_kidney_assessed", "SVT, no pre-excitation. eGFR 71. Start metoprolol succinate 25 mg daily. Avoid diltiazem and verapamil."),
    # pre-excitation invented
    (None, "rhythm_and_kidney_assessed", "SVT with WPW pattern on ECG. eGFR 58. Start metoprolol succinate 25 mg daily. Avoid diltiazem and verapamil."),
    # hedged, never committed
    (None, "plan_documented", "SVT, no pre-excitation. eGFR 58. Could consider a beta blocker such as metoprolol in the future. Avoid diltiazem."),
    # an untriggered alternative that is contraindicated
    (None, "plan_documented", "SVT, no pre-excitation. eGFR 58. Start metoprolol succinate 25 mg daily. Alternatively verapamil ER 180 mg daily would be reasonable."),
    # a dose far above a starting dose
    (None, "plan_documented", "SVT, no pre-excitation. eGFR 58. Start metoprolol tartrate 200 mg twice daily. Avoid diltiazem and verapamil."),
    # asthma branch: a beta blocker, started or offered as backup
    (CCB_VARIANT, "plan_documented", "SVT, no pre-excitation, eGFR 48. Start metoprolol succinate 25 mg daily."),
    (CCB_VARIANT, "plan_documented", "SVT, no pre-excitation, eGFR 48. Start diltiazem ER 120 mg daily. If not tolerated, metoprolol 25 mg daily could be used."),
    # pre-excitation branch: AV nodal blocker, no EP referral, missed WPW, wrong dose
    (IC_VARIANT, "plan_documented", "WPW pattern on ECG. eGFR 65. Refer to EP for ablation. Start diltiazem ER 120 mg daily."),
    (IC_VARIANT, "plan_documented", "WPW pattern on ECG. eGFR 65. Start flecainide 50 mg twice daily. Ablation is not needed. Avoid diltiazem, verapamil and digoxin."),
    (IC_VARIANT, "rhythm_and_kidney_assessed", "SVT without pre-excitation. eGFR 65. Refer to EP for ablation. Start flecainide 50 mg twice daily. Avoid diltiazem, verapamil and digoxin."),
    (IC_VARIANT, "plan_documented", "WPW pattern on ECG. eGFR 65. Refer to EP for ablation. Start flecainide 50 mg twice daily. Digoxin 0.125 mg daily is an alternative."),
    (IC_VARIANT, "plan_documented", "WPW pattern on ECG. eGFR 65. Refer to EP for ablation. Start flecainide 200 mg twice daily. Avoid diltiazem, verapamil and digoxin."),
]


@pytest.mark.parametrize(("variant", "note"), CORRECT)
def test_a_correct_plan_in_other_words_passes(variant, note):
    verdicts = grade_note(TASK, note, variant)
    assert verdicts and all(verdicts.values()), verdicts


@pytest.mark.parametrize(("variant", "target", "note"), WRONG)
def test_a_wrong_note_fails_its_checkpoint(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


def test_the_canonical_note_fails_the_other_branches():
    canonical = get_note()
    assert not all(grade_note(TASK, canonical, CCB_VARIANT).values())
    assert not all(grade_note(TASK, canonical, IC_VARIANT).values())


def get_note() -> str:
    from tests.tasks.helpers import oracle_note
    return oracle_note(TASK)
