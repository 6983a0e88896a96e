"""Documentation primitives accept correct phrasings and reject wrong, hedged or
contradictory ones."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from physbench_gym.grading.text import (
    clauses,
    compile_terms,
    find_terms,
    is_historical,
    negated_after,
    negated_before,
    quantities,
)

INCREASE_LEVO = {"note_decision": {
    "subject": ["levothyroxine", "LT4", "Synthroid", "dose"],
    "action": ["increase"],
    "opposite": ["decrease", "stop", "no change", "continue current dose", "same dose"],
    "value": {"value": 93.75, "tolerance": 6.75, "units": {"mcg": 1, "mg": 1000}},
}}

CORRECT_INCREASE = [
    "Plan: Increase levothyroxine from 75 mcg to 88 mcg daily.",
    "Recommend uptitrating LT4 to 88 mcg PO qAM.",
    "Levothyroxine dose should be increased to 100 mcg daily (from 75).",
    "1. Increase Synthroid 75 -> 88 mcg once daily on an empty stomach.",
    "Will titrate up levothyroxine to 0.088 mg daily.",
    "Increase levothyroxine to 88 µg daily (previously decreased to 75 mcg in 2023).",
    "- Increase levothyroxine (LT4) to 88 mcg daily; if TSH falls below 0.4, reduce the dose.",
]
WRONG_INCREASE = [
    "Increase levothyroxine to 150 mcg daily.",
    "Decrease levothyroxine to 50 mcg daily.",
    "Continue current dose of levothyroxine 75 mcg; no change.",
    "Consider increasing levothyroxine to 88 mcg.",
    "Do not increase levothyroxine; recheck TSH.",
    "Increase levothyroxine to 88 mcg daily. Decrease levothyroxine to 50 mcg daily.",
    "Levothyroxine 88 mcg could be tried, or the same dose continued.",
    "TSH elevated, levothyroxine 75 mcg.",
]


@pytest.mark.parametrize("note", CORRECT_INCREASE)
def test_decision_accepts_correct_phrasings(grade, note):
    assert grade(INCREASE_LEVO, note)


@pytest.mark.parametrize("note", WRONG_INCREASE)
def test_decision_rejects_wrong_hedged_or_contradictory(grade, note):
    assert not grade(INCREASE_LEVO, note)


TSH_VALUE = {"note_value": {"label": ["TSH", "thyrotropin"], "value": 8.9, "tolerance": 0.05,
                            "units": {"mIU/L": 1, "mU/L": 1, "uIU/mL": 1}}}


@pytest.mark.parametrize("note", [
    "TSH 8.9 mIU/L.", "TSH: 8.9", "TSH was 8.90 mU/L on 3/4.", "thyrotropin of 8.9 uIU/mL",
    "Latest TSH (03/04) 8.9, free T4 0.9.", "TSH rose from 3.1 to 8.9 mIU/L over a year.",
])
def test_value_accepts_correct(grade, note):
    assert grade(TSH_VALUE, note)


@pytest.mark.parametrize("note", [
    "TSH 9.8 mIU/L.", "TSH 8.9 mg/dL", "free T4 8.9, TSH 3.1", "TSH normal.", "",
])
def test_value_rejects_wrong(grade, note):
    assert not grade(TSH_VALUE, note)


RECHECK = {"note_decision": {"subject": ["TSH", "thyroid function"], "action": ["order"],
                             "value": {"value": 6, "tolerance": 2,
                                       "units": {"wk": 1, "d": 0.142857, "mo": 4}}}}


@pytest.mark.parametrize("note", [
    "Recheck TSH in 6-8 weeks.", "Repeat TSH in 6 wks.", "Check thyroid function in 2 months.",
    "TSH to be rechecked in 42 days.", "Obtain TSH in 6 to 8 weeks after the dose change.",
])
def test_interval_accepts_correct(grade, note):
    assert grade(RECHECK, note)


@pytest.mark.parametrize("note", [
    "Recheck TSH in 1 week.", "Repeat TSH in 6 months.", "Recheck TSH in 12 months.",
    "Recheck TSH if symptoms persist in 6 weeks.",
])
def test_interval_rejects_wrong(grade, note):
    assert not grade(RECHECK, note)


SIADH = {"note_mentions": {"terms": ["SIADH", "syndrome of inappropriate antidiuretic hormone",
                                     "inappropriate ADH"]}}


@pytest.mark.parametrize("note", [
    "Assessment: euvolemic hypotonic hyponatremia consistent with SIADH.",
    "Impression - syndrome of inappropriate antidiuretic hormone secretion.",
    "Findings meet criteria for SIADH (urine osm 480, urine Na 52).",
])
def test_mentions_accepts(grade, note):
    assert grade(SIADH, note)


@pytest.mark.parametrize("note", [
    "Not consistent with SIADH given hypovolemia.",
    "SIADH is unlikely? Possibly SIADH.",
    "SIADH is not supported by the labs.",
    "No evidence of SIADH.",
    "Hyponatremia, likely hypovolemic.",
])
def test_mentions_rejects_negated_or_hedged(grade, note):
    assert not grade(SIADH, note)


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


@pytest.mark.parametrize("note", [
    "TSH 8.9, 3.1, 12 mIU/L.", "TSH 5 / 8.9 / 12.", "TSH: 3.1 8.9 14.2",
])
def test_value_rejects_bare_lists_of_values(grade, note):
    assert not grade(TSH_VALUE, note)


WORDS = ["increase", "increased to", "dose", "up-titrate", "tsh", "mg", "no", "d/c", "re:\u2191",
         "re:\\d+ ?mg", "start", "started on", "a"]


@settings(max_examples=300, deadline=None)
@given(terms=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6, unique=True),
       inflect=st.booleans(),
       clause=st.lists(st.sampled_from(WORDS + ["x", " ", "-", ",", "1", "Increasing", "\u2191"]),
                       max_size=14).map(" ".join))
def test_term_search_matches_what_the_terms_match_one_by_one(terms, inflect, clause):
    patterns = compile_terms(tuple(terms), inflect=inflect)
    one_by_one = re.compile("|".join(f"(?:{p.pattern})" for p in patterns), re.IGNORECASE)
    assert [m.span() for m in find_terms(clause, patterns)] == [
        m.span() for m in one_by_one.finditer(clause)]


def test_dotted_latin_abbreviations_do_not_end_a_sentence():
    assert clauses("Cetirizine 20 mg p.o. b.i.d. daily. Omalizumab 300 mg s.c. q4 weeks.") == (
        "cetirizine 20 mg po bid daily", "omalizumab 300 mg sc q4 weeks")


@pytest.mark.parametrize(("clause", "historical"), [
    ("see her back in 3 weeks", False), ("back in about two weeks with labs", False),
    ("back in march she had hives", True), ("stop the ppi 2 weeks prior", False),
    ("hold omeprazole 14 days prior to the breath test", False),
    ("prior egd showed an ulcer", True),
])
def test_timing_words_are_history_only_when_they_point_back(clause, historical):
    assert is_historical(clause) is historical


@pytest.mark.parametrize(("clause", "term", "negated"), [
    ("do not stop venlafaxine abruptly - withdrawal symptoms are likely", "withdrawal", False),
    ("do not give nsaids with the apixaban", "nsaids", True),
    ("no 10 - 14 day nsaids", "nsaids", True),
])
def test_a_spaced_dash_ends_the_reach_of_a_negation(clause, term, negated):
    assert negated_before(clause, clause.index(term)) is negated


@pytest.mark.parametrize(("clause", "negated"), [
    ("csu not well controlled on cetirizine 10 mg", False), ("csu remains not controlled", False),
    ("anemia not improving on oral iron", False), ("csu is not present", True),
    ("csu unlikely given the history", True), ("csu - not controlled, see above", False),
])
def test_a_finding_not_controlled_is_present_not_denied(clause, negated):
    assert negated_after(clause, 3) is negated


@pytest.mark.parametrize(("clause", "read"), [
    ("a 3-month course", [(3.0, "mo")]), ("recheck in two weeks", [(2.0, "wk")]),
    ("two to three weeks", [(2.0, "wk"), (3.0, "wk")]), ("twelve-week course", [(12.0, "wk")]),
    ("one tablet daily", [(1.0, "tablet")]), ("3-4 weeks", [(3.0, "wk"), (4.0, "wk")]),
    ("one of the options", []), ("someone said nine", []), ("a well-known drug", []),
])
def test_quantities_read_hyphenated_units_and_small_number_words(clause, read):
    assert [(q.value, q.unit) for q in quantities(clause)] == read
