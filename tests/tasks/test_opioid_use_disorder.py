"""opioid_use_disorder: the scenario draw (opioid-free with a negative fentanyl screen, or back
to daily fentanyl with a positive one) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "opioid_use_disorder"
ABSTINENT = 0  # seed 0: opioid-free, XR-naltrexone now
RELAPSED = 1  # seed 1: daily fentanyl, buprenorphine-naloxone instead
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "abstinent"}
    assert vals["fentanyl_result"] == "260385009"
    assert vals["order_options"][0]["ordered"]["codes"] == [RX + "637213"]
    assert RX + "1010604" in vals["avoid_rxnorm"] and RX + "637213" not in vals["avoid_rxnorm"]
    plan = vals["plan_grader"]["note_decision"]
    assert plan["dose"] == {"value": 380, "unit": "mg"} and plan["concept"] == ["naltrexone"]
    ntx = vals["order_options"][0]["ordered"]  # review 8: schedule and route checked
    assert ntx["per_day"] == {"max": 0.05} and "78421000" in ntx["route"]
    never = vals["never_grader"]["note_never"]  # review 2: no trigger excuses an opioid analgesic
    assert "fentanyl_analgesic" in never["concept"] and not never.get("allow_contingency")


def test_branches_draw_their_scenarios():
    relapsed = values(TASK, RELAPSED)
    assert relapsed["scenario"] == {"kind": "relapsed"}
    assert relapsed["fentanyl_result"] == "10828004"
    assert set(relapsed["avoid_rxnorm"]) == {RX + "637213", RX + "1483744"}
    assert f"{relapsed['hours_since_use']} hours ago" in relapsed["today_history"]
    assert all(
        o["ordered"]["per_day"] == {"max": 4} and "37839007" in o["ordered"]["route"]
        for o in relapsed["order_options"]
    )
    assert relapsed["never_grader"]["note_never"]["contingency_on"] == ["opioid"]
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("abstinent") <= 4  # the replay gate: canonical answer on at most 4 of 20


NTX_NOW = (
    "Opioid-free 7 weeks, fentanyl negative. Give Vivitrol 380 mg IM today, then every 4 weeks."
)
BUP_NOW = "Fentanyl positive; do not give naltrexone now. Start buprenorphine-naloxone 16 mg daily."

CORRECT = [
    # a trigger joined with a wish ('returns to fentanyl use or wants to stop') is no stop
    (
        None,
        NTX_NOW + " If he returns to fentanyl use or wants to stop XR-naltrexone, reassess "
        "promptly and re-offer buprenorphine.",
    ),
    (
        None,
        "Opioid-free ~7 wk, UDS fentanyl neg today. OK for Vivitrol: give naltrexone ER 380 mg "
        "IM today, then q4 weeks. Naloxone kit. No opioid analgesics while on naltrexone.",
    ),
    (
        None,
        """## Assessment
Severe OUD, opioid-free since the overdose 7 weeks ago; fentanyl screen negative today.

## Plan
- Extended-release naltrexone 380 mg IM every 4 weeks, first dose today.
- Naloxone nasal spray prescribed.
- Avoid opioid pain medicines while he is on naltrexone.""",
    ),
    (
        RELAPSED,
        "Back to daily fentanyl, fentanyl screen positive. Do not give naltrexone now - it "
        "would precipitate withdrawal. Start buprenorphine-naloxone 4 mg once in withdrawal, "
        "up to 16 mg on day 1. Naloxone kit.",
    ),
    (
        None,
        "Opioid-free 7 weeks, fentanyl negative. Give Vivitrol 380 mg IM today, then every 4 "
        "weeks. In an emergency, opioid analgesia needs higher doses under monitoring in a "
        "hospital. No opioids for pain; use NSAIDs. If he uses heroin or fentanyl after a missed "
        "injection, overdose risk is high.",
    ),
    (
        None,
        "Opioid-free 7 weeks. Give Vivitrol 380 mg IM today, then every 4 weeks. If he relapses "
        "to fentanyl, re-offer buprenorphine or methadone.",
    ),
    (
        RELAPSED,
        "Fentanyl positive; do not give naltrexone now. Start buprenorphine-naloxone 4 mg SL "
        "when he is in withdrawal.",
    ),
    (
        RELAPSED,
        "Fentanyl positive; no naltrexone today. Start buprenorphine-naloxone 16 mg daily. "
        "Naltrexone only after at least 7-10 days without any opioid and a negative urine "
        "screen.",
    ),
    (
        RELAPSED,
        """Assessment: return to fentanyl use; naltrexone is contraindicated today.
Plan:
1. No Vivitrol today.
2. Start buprenorphine-naloxone 16 mg daily (home start when in withdrawal).
3. If he later completes 7-10 opioid-free days, naltrexone can be revisited.""",
    ),
]

WRONG = [
    (
        None,
        "moud_plan_documented",
        "Opioid-free 7 weeks, fentanyl negative. Start Vivitrol 380 mg IM every 2 weeks. Naloxone.",
    ),
    (
        None,
        "naltrexone_decision",
        "Opioid-free 7 weeks, fentanyl negative. Hold naltrexone until next month. Naloxone kit.",
    ),
    (
        None,
        "must_not_in_note",
        "Fentanyl negative. Give naltrexone 380 mg IM today, then every 4 weeks. Oxycodone 5 mg as "
        "needed for his back pain.",
    ),
    (
        RELAPSED,
        "naltrexone_decision",
        "Fentanyl positive. Give naltrexone 380 mg IM today and every 4 weeks. Naloxone kit.",
    ),
    (
        RELAPSED,
        "moud_plan_documented",
        "Fentanyl positive, no naltrexone now. Defer buprenorphine until he is ready to stop. "
        "Naloxone.",
    ),
    # review 2: any opioid analgesic, even behind a trigger, fails the abstinent must-not
    (None, "must_not_in_note", NTX_NOW + "\n- Start a fentanyl patch 12 mcg/h for his tooth pain."),
    (
        None,
        "must_not_in_note",
        NTX_NOW + "\n- If he has back pain, oxycodone 5 mg every 6 hours as needed.",
    ),
    (
        None,
        "must_not_in_note",
        NTX_NOW + "\n- If he has a dental procedure, hydrocodone 5 mg as needed is fine.",
    ),
    # review 3: naltrexone behind a trigger that is no opioid-free interval
    (
        RELAPSED,
        "must_not_in_note",
        BUP_NOW + " If withdrawal is tolerable, Vivitrol can be given next week.",
    ),
    (RELAPSED, "must_not_in_note", BUP_NOW + " If his COWS is low next week, switch to Vivitrol."),
    # known gaps of the shared note reader (review 1, 2, 6): these wrong notes still pass
    *[
        pytest.param(entry, marks=pytest.mark.xfail(strict=True, reason=reason))
        for reason, entry in (
            (
                "reader: a start time ('in 2 weeks', 'next week') cannot be required without "
                "the repeat "
                "interval 'every 4 weeks' being read as the start time",
                (
                    None,
                    "naltrexone_decision",
                    "Opioid-free 7 weeks. Start Vivitrol 380 mg IM in 2 weeks.",
                ),
            ),
            (
                "reader: as above; 'wait 7-10 more days ..., then start' is a deferral",
                (
                    None,
                    "naltrexone_decision",
                    "Opioid-free 7 weeks. Wait 7-10 more days of abstinence, "
                    "then start Vivitrol 380 mg IM every 4 weeks.",
                ),
            ),
            (
                "lexicon: methadone for pain cannot be told from methadone re-offered for OUD "
                "on relapse",
                (
                    None,
                    "must_not_in_note",
                    NTX_NOW + "\n- Start methadone 5 mg twice daily for back pain.",
                ),
            ),
            (
                "reader: with any_dose, a later maintenance dose above 32 mg/day ('then 40 mg once "
                "daily') is read as a titration step, not a wrong dose",
                (
                    RELAPSED,
                    "moud_plan_documented",
                    "Fentanyl positive; do not give naltrexone now. Start "
                    "buprenorphine-naloxone 4 mg SL now, then 40 mg once daily.",
                ),
            ),
            (
                "reader: 'after he has been abstinent for 7 days' is not read as a deferral",
                (
                    RELAPSED,
                    "moud_plan_documented",
                    "Fentanyl positive, no naltrexone now. Start "
                    "buprenorphine-naloxone 16 mg daily after he has been abstinent for 7 days.",
                ),
            ),
        )
    ],
]

# known gaps of the shared note reader (review 4, 5, 7): these correct notes still fail
GAPS = [
    pytest.param(entry, marks=pytest.mark.xfail(strict=True, reason=reason))
    for reason, entry in (
        (
            "reader: a dose list after 'once in withdrawal:' is not attached to the start",
            (
                RELAPSED,
                "Fentanyl positive; do not give naltrexone now. Start bup/nx at home once in "
                "withdrawal: 4 mg SL, up to 16 mg on day 1, then 16 mg daily.",
            ),
        ),
        (
            "reader: an 'A → B' dose row in a table is not read as a dose",
            (
                RELAPSED,
                "Fentanyl positive; do not give naltrexone now.\n\n| Drug | Dose |\n|---|---|\n"
                "| Buprenorphine-naloxone SL | 4 mg → 16 mg day 1, then 16 mg/day |",
            ),
        ),
        (
            "reader: a schedule in a following 'repeat' clause is not attached to the drug",
            (
                None,
                "Opioid-free 7 weeks. Give Vivitrol 380 mg IM today. Repeat the injection every 4 "
                "weeks.",
            ),
        ),
        (
            "reader: a wish added to the trigger ('and still prefers it') voids the opioid-free "
            "trigger "
            "(review 7)",
            (
                RELAPSED,
                BUP_NOW + " If he later achieves 7-10 opioid-free days and still prefers it, "
                "XR-naltrexone can be revisited.",
            ),
        ),
        (
            "reader: 'X would need Y first' is read as an offer of X",
            (
                RELAPSED,
                BUP_NOW + " A switch to XR-naltrexone would need a supervised taper off "
                "buprenorphine and 7-14 opioid-free days.",
            ),
        ),
    )
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT + GAPS, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (RELAPSED,), [None, RELAPSED])
)
