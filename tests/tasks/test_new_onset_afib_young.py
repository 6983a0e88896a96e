"""New paroxysmal AF: the stroke-risk score, the anticoagulation decision and the plan."""

from __future__ import annotations

import gymnasium as gym

from physbench_gym.agents import run_episode
from physbench_gym.agents.adversarial import CanonicalReplayAgent
from tests.tasks.helpers import note_probes, values
from tests.tasks.helpers_cardiology import grade_note_checks

TASK = "new_onset_afib_young"
NOTE_CHECKS = {"cha2ds2_vasc_scored", "anticoagulation_decision", "plan_documented"}


def grade_note(task: str, note: str) -> dict[str, bool]:
    return grade_note_checks(task, note, NOTE_CHECKS)

CORRECT = [
    """CHA\u2082DS\u2082-VASc = 0 in a 42 yo male -> annual stroke risk <1%; no indication
    for anticoagulation.
    Plan: TTE ordered; home sleep study ordered (snoring, witnessed apneas).
    Started metoprolol succinate 25 mg daily. Advised to cut down on alcohol.""",
    """Stroke prevention: CHADS-VASc 0 points. Oral anticoagulation is not recommended (and
    no aspirin).
    Workup: transthoracic echo, TSH/CBC/CMP, and polysomnography have been ordered.
    Rate control with atenolol 25 mg daily was prescribed. Alcohol abstinence advised.""",
    """Assessment: paroxysmal AF, CHA2DS2VASc score of 0. The DVT was provoked and does not
    count. Anticoagulation not warranted at this time.
    Orders: echocardiogram, sleep apnea testing (HSAT), thyroid studies.
    Begin bisoprolol 5 mg daily.
    Counseled to limit alcohol to no more than 1 drink a day.""",
    """# Impression
    New-onset paroxysmal atrial fibrillation.
    CHA2DS2-VASc: 0/9. We will not start a DOAC.

    # Recommendations
    - Get a transthoracic echocardiogram
    - Refer for a sleep study to evaluate for OSA
    - Metoprolol tartrate 25 mg twice daily to be started for rate control
    - Stop binge drinking""",
    # SOAP with abbreviations
    """S: 42M, PAF x1 in ED after binge EtOH, 2 brief recurrences.
    A: New-onset PAF, likely EtOH-triggered (holiday heart) +/- OSA. CHA2DS2-VASc 0 -> no OAC.
    P: Orders: TTE, HSAT, TSH/CBC/CMP. Start metoprolol succ 25 mg qd for rate control.
    EtOH cessation advised.""",
    # narrative, a calcium channel blocker for rate control
    """This 42-year-old man's CHA2DS2-VASc score is 0; the provoked DVT in 2020 is not a
    scoring item and the ED BP of 148/90 was during RVR. He does not need a blood thinner,
    and aspirin is not recommended. I ordered a transthoracic echocardiogram and a home sleep
    apnea test given loud snoring and witnessed apneas. I prescribed diltiazem ER 120 mg daily
    for rate control. He should abstain from alcohol, at least from binge drinking.""",
]
WRONG = [
    # hypertension counted from the ED reading
    """CHA2DS2-VASc 1 (hypertension). Anticoagulation not indicated. TTE ordered. Sleep study
    ordered. Start metoprolol succinate 25 mg daily. Reduce alcohol.""",
    # wrong direction: anticoagulation started
    """CHA2DS2-VASc 0. Start apixaban 5 mg twice daily. TTE ordered. Sleep study ordered.
    Start metoprolol succinate 25 mg daily. Reduce alcohol.""",
    # hedged anticoagulation decision
    """CHA2DS2-VASc 0. Anticoagulation could be considered. TTE ordered. Sleep study ordered.
    Start metoprolol succinate 25 mg daily. Reduce alcohol.""",
    # sleep apnea evaluation declined
    """CHA2DS2-VASc 0. Anticoagulation not indicated. TTE ordered. A sleep study is not
    needed. Start metoprolol succinate 25 mg daily. Reduce alcohol.""",
    # alcohol not addressed, told to continue
    """CHA2DS2-VASc 0. Anticoagulation not indicated. TTE ordered. Sleep study ordered.
    Start metoprolol succinate 25 mg daily. Continue drinking as before.""",
    # aspirin for stroke prevention
    """CHA2DS2-VASc 0, so no anticoagulation. Start aspirin 81 mg daily for stroke
    prevention. TTE ordered. Sleep study ordered. Start metoprolol succinate 25 mg daily.
    Reduce alcohol.""",
    # the provoked DVT counted as thromboembolism
    """CHA2DS2-VASc 2 (prior thromboembolism - DVT). Anticoagulation not indicated. TTE
    ordered. Sleep study ordered. Start metoprolol succinate 25 mg daily. Reduce alcohol.""",
    # echocardiogram declined
    """CHA2DS2-VASc 0. Anticoagulation not indicated. An echocardiogram is not needed given
    the normal exam. Sleep study ordered. Start metoprolol succinate 25 mg daily. Reduce
    alcohol.""",
    # a class IC drug without an AV-nodal blocker instead of rate control
    """CHA2DS2-VASc 0. Anticoagulation not indicated. TTE ordered. Sleep study ordered.
    Start flecainide 100 mg pill-in-the-pocket; no beta blocker. Reduce alcohol.""",
    # keyword stuffing: every score, both decisions
    """CHA2DS2-VASc 0, 1, 2. Anticoagulation not indicated. Start apixaban 5 mg BID.
    TTE ordered. Sleep study ordered. Reduce alcohol. Continue alcohol. Start metoprolol.
    Stop metoprolol.""",
]


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG,
                                       grade=lambda note, _: grade_note(TASK, note))


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, WRONG[-1])
    assert verdicts["anticoagulation_decision"] is False
    assert verdicts["plan_documented"] is False


def test_score_counts_the_charted_risk_factors_only_and_decides_anticoagulation():
    """The provoked DVT and the ED blood pressure never count; the risk profile does."""
    decisions = set()
    for variant in (None, *range(20)):
        drawn = values(TASK, variant)
        profile = drawn["risk_profile"]
        score = int(profile["hypertension"]) + int(profile["diabetes"])
        assert drawn["cha2ds2vasc"] == score
        assert drawn["anticoagulation"] == ("indicated" if score >= 2 else "not indicated")
        decisions.add(drawn["anticoagulation"])
    assert values(TASK)["cha2ds2vasc"] == 0
    assert decisions == {"indicated", "not indicated"}


def test_the_memorized_canonical_answer_fails_when_the_chart_calls_for_a_doac():
    seed = next(s for s in range(20) if values(TASK, s)["anticoagulation"] == "indicated")
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        result = run_episode(env, CanonicalReplayAgent(), seed=0, options={"variant": seed})
    finally:
        env.close()
    assert not result.success
    assert not result.checkpoints["medications_prescribed"]["passed"]
    assert not result.checkpoints["anticoagulation_decision"]["passed"]


def test_cha2ds2_vasc_items():
    from physbench_gym.grading.core import load_function

    score = load_function("graders/cardiology.py:cha2ds2_vasc")
    assert score(age=42, female=False) == 0
    assert score(age=42, female=True) == 1
    assert score(age=70, female=True, hypertension=True) == 3
    assert score(age=80, female=False, chf=True, diabetes=True, stroke_tia=True,
                 vascular=True, hypertension=True) == 8
