"""Buprenorphine-naloxone initiation: the note checkpoints judge the plan, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values

TASK = "buprenorphine_initiation"
NOTE_CHECKS = {"withdrawal_assessed", "dosing_plan_documented"}

CORRECT = [
    """Severe OUD (fentanyl). COWS 14 = moderate withdrawal, OK to induce today.
    Plan: start bup/nx 4 mg SL now, redose 4 mg q2h prn.
    Maintenance Suboxone 16 mg daily from day 2. Naloxone kit. HCV and HIV labs ordered.""",
    """Assessment: opioid use disorder, severe (7 of 11 DSM-5 criteria), fentanyl. Clinical
    Opiate Withdrawal Scale score of 14 today, consistent with moderate opioid withdrawal.
    Recommendations:
    - Initiate buprenorphine-naloxone in clinic today with 2/0.5 mg x 2, then titrate to a
      total of 12 mg on day 1.
    - Narcan 4 mg nasal spray prescribed.""",
    """Dx: OUD, severe. Last fentanyl use about 20 h ago; objective withdrawal present with
    COWS=14, i.e. moderate withdrawal, so precipitated withdrawal risk is low.
    1) Begin Suboxone today; target dose 16/4 mg SL once daily.
    2) Harm reduction: naloxone 4 mg intranasal.
    3) Screening: anti-HCV, HIV Ag/Ab.""",
]
WRONG = [
    # wrong (stale) COWS value
    """Severe OUD. COWS 3, moderate withdrawal. Start buprenorphine-naloxone, target 16 mg
    daily.""",
    # wrong withdrawal band
    """Severe OUD. COWS 14, mild withdrawal. Start buprenorphine-naloxone, target 16 mg daily.""",
    # deferred: wrong direction
    """Severe OUD. COWS 14, moderate withdrawal. Defer buprenorphine until tomorrow; then
    target 16 mg daily.""",
    # hedged plan
    """Severe OUD. COWS 14, moderate withdrawal. Consider starting buprenorphine-naloxone,
    target 16 mg daily.""",
    # dose out of range
    """Severe OUD. COWS 14, moderate withdrawal. Start buprenorphine-naloxone 48 mg daily.""",
    # wrong severity
    """Mild OUD. COWS 14, moderate withdrawal. Start buprenorphine-naloxone, target 16 mg
    daily.""",
    # keyword stuffing: every value and both directions
    """COWS 3 14 20. Mild withdrawal, moderate withdrawal, severe OUD, mild OUD. Start
    buprenorphine 16 mg daily. Defer buprenorphine. Do not start buprenorphine 16 mg.""",
]


def test_canonical_values():
    vals = values(TASK)
    assert (vals["cows"], vals["cows_band"], vals["oud_severity"]) == (14, "moderate", "severe")


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_plan():
    assert grade_note(TASK, WRONG[-1])["dosing_plan_documented"] is False


def test_moderate_severity_variant_follows_the_criteria():
    seeds = [s for s in range(40) if values(TASK, s)["criteria_met"] == 5]
    assert seeds, "no variant with 5 criteria in the first 40 seeds"
    vals = values(TASK, seeds[0])
    assert vals["oud_severity"] == "moderate"
    note = (f"Moderate OUD. COWS {vals['cows']}, moderate withdrawal. Start "
            "buprenorphine-naloxone, target 16 mg daily.")
    assert all(grade_note(TASK, note, seeds[0]).values())
    wrong = note.replace("Moderate OUD", "Severe OUD")
    assert not grade_note(TASK, wrong, seeds[0])["withdrawal_assessed"]


@pytest.mark.parametrize(("note", "check"), [
    # score taken from the intake visit (not in withdrawal)
    ("Severe OUD. COWS 3, moderate. Start buprenorphine-naloxone 16 mg daily.",
     "withdrawal_assessed"),
    # band next to the score is wrong
    ("Severe OUD. COWS 14, moderately severe. Start buprenorphine-naloxone 16 mg daily.",
     "withdrawal_assessed"),
    # initiation postponed to a home start despite objective withdrawal now
    ("Severe OUD. COWS 14, moderate withdrawal. Postpone buprenorphine 16 mg to a home start"
     " next week.", "dosing_plan_documented"),
    # a full-agonist plan instead of buprenorphine
    ("Severe OUD. COWS 14, moderate withdrawal. Start methadone 30 mg daily.",
     "dosing_plan_documented"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False
