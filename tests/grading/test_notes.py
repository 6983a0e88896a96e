"""Note primitives judge what the note commits to: correct phrasings pass; wrong values, wrong
directions, hedges, contradictions, history and stuffing fail."""

from __future__ import annotations

import pytest

INCREASE_LEVO = {"note_decision": {
    "concept": ["levothyroxine"], "action": ["increase"],
    "dose": {"min": 88, "max": 100, "unit": "mcg"},
}}

CORRECT_INCREASE = [
    "Plan: Increase levothyroxine from 75 mcg to 88 mcg daily.",
    "Recommend uptitrating LT4 to 88 mcg PO qAM.",
    "Levothyroxine dose should be increased to 100 mcg daily (from 75).",
    "1. Increase Synthroid 75 -> 88 mcg once daily on an empty stomach.",
    "Will titrate up levothyroxine to 0.088 mg daily.",
    "Increase levothyroxine to 88 \u00b5g daily (previously decreased to 75 mcg in 2023).",
    "- Increase levothyroxine (LT4) to 88 mcg daily; if TSH falls below 0.4, reduce the dose.",
    "| Drug | Change |\n|---|---|\n| Levothyroxine | **75 \u2192 88 mcg** daily |",
    "Levothyroxine 88 mcg daily - new Rx sent.",
]
WRONG_INCREASE = [
    "Increase levothyroxine to 150 mcg daily.",
    "Decrease levothyroxine to 50 mcg daily.",
    "Continue current dose of levothyroxine 75 mcg; no change.",
    "Consider increasing levothyroxine to 88 mcg.",
    "Do not increase levothyroxine; recheck TSH.",
    "Increase levothyroxine to 88 mcg daily. Alternatively, continue the current dose.",
    "Levothyroxine 88 mcg could be tried, or the same dose continued.",
    "TSH elevated, levothyroxine 75 mcg.",
    "In 2023 levothyroxine was increased to 88 mcg; it was later reduced to 75 mcg.",
    "If the TSH is still high in 6 weeks, increase levothyroxine to 88 mcg.",
]


@pytest.mark.parametrize("note", CORRECT_INCREASE)
def test_decision_accepts_correct_phrasings(grade, note):
    assert grade(INCREASE_LEVO, note)


@pytest.mark.parametrize("note", WRONG_INCREASE)
def test_decision_rejects_wrong_hedged_conditional_historical_or_contradicted(grade, note):
    assert not grade(INCREASE_LEVO, note)


TSH_VALUE = {"note_value": {"concept": ["tsh"], "value": 8.9, "tolerance": 0.05}}


@pytest.mark.parametrize("note", [
    "TSH 8.9 mIU/L.", "TSH: 8.9", "TSH was 8.90 mU/L on 3/4.", "thyrotropin of 8.9 uIU/mL",
    "Latest TSH (03/04) 8.9, free T4 0.9.", "TSH rose from 3.1 to 8.9 mIU/L over a year.",
    "| Test | Result |\n|---|---|\n| TSH | **8.9** mIU/L (H) |",
])
def test_value_accepts_correct(grade, note):
    assert grade(TSH_VALUE, note)


@pytest.mark.parametrize("note", [
    "TSH 9.8 mIU/L.", "free T4 8.9, TSH 3.1", "TSH normal.", "",
    "TSH 8.9, 3.1, 12 mIU/L.", "TSH 5 / 8.9 / 12.", "TSH 8.9 or 3.1 - unclear which is current.",
])
def test_value_rejects_wrong_missing_or_listed_values(grade, note):
    assert not grade(TSH_VALUE, note)


RECHECK = {"note_decision": {"concept": ["tsh"], "action": ["order"],
                             "timing": {"min": 4, "max": 9, "unit": "wk"}}}


@pytest.mark.parametrize("note", [
    "Recheck TSH in 6-8 weeks.", "Repeat TSH in 6 wks.", "Check TSH in 2 months.",
    "TSH to be rechecked in 42 days.", "Obtain TSH in 6 to 8 weeks after the dose change.",
])
def test_timing_accepts_correct(grade, note):
    assert grade(RECHECK, note)


@pytest.mark.parametrize("note", [
    "Recheck TSH in 1 week.", "Repeat TSH in 6 months.", "Recheck TSH in 12 months.",
    "Recheck TSH in 6 weeks or in 6 months.",
])
def test_timing_rejects_wrong(grade, note):
    assert not grade(RECHECK, note)


SIADH = {"note_finding": {"concept": ["siadh"]}}


@pytest.mark.parametrize("note", [
    "Assessment: euvolemic hypotonic hyponatremia consistent with SIADH.",
    "Impression - syndrome of inappropriate antidiuretic hormone secretion.",
    "Findings meet criteria for SIADH (urine osm 480, urine Na 52).",
    "Dx: SIAD (sertraline-associated).",
])
def test_finding_accepts(grade, note):
    assert grade(SIADH, note)


@pytest.mark.parametrize("note", [
    "Not consistent with SIADH given hypovolemia.",
    "SIADH is not supported by the labs.",
    "No evidence of SIADH.",
    "Hyponatremia, likely hypovolemic.",
    "SIADH vs hypovolemia vs hypothyroidism - unclear.",
    "Rule out SIADH.",
])
def test_finding_rejects_negated_uncertain_or_absent(grade, note):
    assert not grade(SIADH, note)


NO_NSAID = {"note_decision": {"concept": ["nsaid"], "action": ["avoid"]}}


@pytest.mark.parametrize(("note", "passed"), [
    ("Avoid NSAIDs (ibuprofen, naproxen) while on apixaban.", True),
    ("No NSAIDs.", True),
    ("Do not take ibuprofen or naproxen.", True),
    ("Avoid NSAIDs; ibuprofen may be used occasionally for pain.", False),
    ("NSAIDs are fine for pain.", False),
])
def test_avoidance_fails_when_the_note_also_allows_the_drug(grade, note, passed):
    assert grade(NO_NSAID, note) is passed


NEVER_STEROIDS = {"note_never": {"concept": ["corticosteroid"]}}


@pytest.mark.parametrize(("note", "passed"), [
    ("Cetirizine 10 mg BID. No systemic steroids.", True),
    ("Cetirizine 10 mg BID.", True),
    ("Start prednisone 40 mg daily for 5 days.", False),
    ("Prednisone burst could be considered; cetirizine 10 mg BID.", False),
])
def test_never_fails_on_any_start_hedged_or_not(grade, note, passed):
    assert grade(NEVER_STEROIDS, note) is passed


def test_note_written_requires_content(grade):
    assert not grade({"note_written": {"min_chars": 50}}, "short")
    assert grade({"note_written": {"min_chars": 50}}, "A real consult note. " * 5)


def test_composites(grade):
    both = {"all": {"of": [TSH_VALUE, INCREASE_LEVO]}}
    either = {"any": {"of": [TSH_VALUE, INCREASE_LEVO]}}
    two_of_three = {"k_of_n": {"k": 2, "of": [TSH_VALUE, INCREASE_LEVO, RECHECK]}}
    note = "TSH 8.9. Recheck TSH in 6 weeks."
    assert not grade(both, note)
    assert grade(either, note)
    assert grade(two_of_three, note)
    assert not grade(two_of_three, "TSH 8.9.")


def test_keyword_stuffing_commits_to_nothing(grade):
    stuffed = ("levothyroxine increase decrease continue stop 88 mcg 50 mcg 150 mcg TSH 8.9 "
               "recheck 6 weeks SIADH avoid NSAIDs")
    assert not grade(INCREASE_LEVO, stuffed)
    assert not grade(TSH_VALUE, "TSH 3.1 8.9 12 mIU/L")


STOP_SERTRALINE = {"note_decision": {"concept": ["sertraline"], "action": ["stop"]}}


@pytest.mark.parametrize(("note", "passed"), [
    ("Stop sertraline.", True),
    ("Stop sertraline. Alternatively, sertraline could be stopped, or continued at the current "
     "dose unchanged.", False),
    ("Stop sertraline. Sertraline can continue unchanged.", False),
])
def test_an_option_offered_with_or_counts_against_the_plan(grade, note, passed):
    assert grade(STOP_SERTRALINE, note) is passed
