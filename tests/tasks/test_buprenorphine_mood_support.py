"""buprenorphine_mood_support: the ECG and OUD draws, and the note phrasings its checkpoints must
judge on each branch (escitalopram or sertraline with a normal QTc, sertraline only with long QT
syndrome; continue 16 mg or go back up from 8 mg; never a benzodiazepine)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, get_instance, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "buprenorphine_mood_support"
NORMAL_STABLE = 0
LQT_CRAVINGS = 1
NORMAL_CRAVINGS = 3
LQT_STABLE = 4
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["ecg"] == {"name": "normal"} and vals["oud"] == {"name": "stable"}
    assert vals["phq9"] == 17 and vals["qtc"] == 426 and vals["bup_mg"] == 16
    assert (vals["ssri_name"], vals["ssri_rxnorm"], vals["ssri_mg"]) == ("escitalopram", "349332",
                                                                        10)
    labels = [o["ordered"]["label"] for o in vals["ssri_order_options"]]
    assert [label for label in labels if "(" not in label] == [
        "escitalopram 5-10 mg once daily", "sertraline 25-50 mg once daily",
        "citalopram 10-20 mg once daily", "fluoxetine 10-20 mg once daily"]
    assert vals["naloxone_codes"] == [RX + "1725059"]  # not the buprenorphine-naloxone film
    assert RX + "204892" in vals["benzodiazepine_codes"]
    assert RX + "864718" in vals["full_agonist_codes"]
    assert RX + "1010604" in vals["bup_codes"]


def test_branches_draw_their_answers():
    lqt = values(TASK, LQT_CRAVINGS)
    assert (lqt["ecg"]["name"], lqt["oud"]["name"]) == ("long_qt", "cravings")
    assert lqt["ssri_name"] == "sertraline" and lqt["qtc"] == 489 and lqt["bup_mg"] == 8
    assert [o["ordered"]["label"] for o in lqt["ssri_order_options"]
            if "(" not in o["ordered"]["label"]] == ["sertraline 25-50 mg once daily"]
    assert {RX + "349332", RX + "200371"} <= set(lqt["qt_ssri_codes"])
    assert values(TASK, NORMAL_CRAVINGS)["oud"]["name"] == "cravings"
    assert values(TASK, LQT_STABLE)["ecg"]["name"] == "long_qt"
    draws = {(values(TASK, n)["ecg"]["name"], values(TASK, n)["oud"]["name"]) for n in range(20)}
    assert len(draws) == 4


BASE = "PHQ-9 17 today. "
CORRECT = [
    (None, BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine-naloxone "
                  "16 mg daily; do not taper now."),
    (None, "PHQ-9 has risen from 4 to 17. Start sertraline 50 mg daily. Avoid benzodiazepines "
           "with buprenorphine. Continue Suboxone 16 mg daily without change. Defer any taper "
           "until her mood has been stable for at least 6-12 months."),
    (None, "Assessment: recurrent MDD, moderately severe (PHQ-9 = 17), GAD.\nPlan:\n"
           "- Escitalopram 10 mg PO daily.\n- No benzos (clonazepam declined): respiratory "
           "depression with buprenorphine.\n- Buprenorphine/naloxone: continue 16 mg daily. "
           "Not the time to taper.\n- Naloxone kit."),
    (None, BASE + "Start escitalopram 10 mg daily. I would not prescribe clonazepam. Keep "
                  "buprenorphine at 16 mg daily. Do not switch to naltrexone or methadone."),
    (LQT_STABLE, BASE + "Start sertraline 50 mg daily. Avoid citalopram and escitalopram given "
                        "long QT syndrome. No benzodiazepines. Continue buprenorphine 16 mg "
                        "daily; no taper."),
    (LQT_CRAVINGS, "PHQ-9 15. Start sertraline 50 mg daily; avoid escitalopram/citalopram (QT). "
                   "No clonazepam. Increase buprenorphine-naloxone to 16 mg daily; stop the "
                   "taper. If cravings persist at 24 mg, refer to an opioid treatment program - "
                   "methadone is not advisable given long QT."),
    (NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. Increase "
                      "buprenorphine to 8 mg twice daily (16 mg/day)."),
    # review 5: a taper revisited only after a long remission is the right deferral
    (None, BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine-naloxone "
                  "16 mg daily; no taper now. A taper can be revisited once her depression has "
                  "been in remission for 6-12 months."),
    # review 6: a resumed 16 mg is the increase
    (NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. Resume "
                      "buprenorphine-naloxone 16 mg daily."),
    # review 9: methadone after persistent opioid use is fine with a normal QTc
    (NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. Increase "
                      "buprenorphine-naloxone to 16 mg daily. If fentanyl use continues despite "
                      "24 mg, refer for methadone."),
    # review 12: fluoxetine is an accepted SSRI with a normal QTc
    (None, BASE + "Start fluoxetine 20 mg daily. No clonazepam. Continue buprenorphine-naloxone "
                  "16 mg daily; no taper now."),
    # review 14: naming ondansetron as a drug to avoid is fine
    (LQT_STABLE, BASE + "Start sertraline 50 mg daily. Avoid ondansetron and other QT-prolonging "
                        "drugs. No clonazepam. Continue buprenorphine 16 mg daily; no taper."),
    # the crisis line number is not a PHQ-9 (dev note c10)
    (None, BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine 16 mg "
                  "daily; no taper now. Repeat PHQ-9 in 2-4 weeks. Make sure she has 988."),
]

WRONG = [
    (None, "depression_severity_stated", "PHQ-9 4. Start escitalopram 10 mg daily. No clonazepam. "
                                         "Continue buprenorphine 16 mg daily."),
    (None, "benzodiazepine_avoided", BASE + "Start escitalopram 10 mg daily. Clonazepam 0.5 mg as "
                                            "needed for 2 weeks is fine as a bridge. Continue "
                                            "buprenorphine 16 mg daily."),
    (None, "benzodiazepine_avoided", BASE + "Start escitalopram 10 mg daily. Could consider a "
           "short "
                                            "course of lorazepam. Continue buprenorphine 16 mg "
                                            "daily."),
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Begin a slow buprenorphine taper by "
            "2 mg per month as she wishes."),
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine 16 mg daily. "
            "Switch to naltrexone once she is ready."),
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine 16 mg daily. "
            "Methadone is an alternative if she prefers."),
    (None, "antidepressant_documented", BASE + "Consider an SSRI if symptoms persist. No "
                                               "clonazepam. Continue buprenorphine 16 mg daily."),
    (LQT_STABLE, "antidepressant_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine 16 mg daily."),
    (LQT_STABLE, "antidepressant_documented",
     BASE + "Start sertraline 50 mg daily; citalopram 20 mg is an alternative. No clonazepam. "
            "Continue buprenorphine 16 mg daily."),
    (LQT_CRAVINGS, "buprenorphine_plan_documented",
     "PHQ-9 15. Start sertraline 50 mg daily. No clonazepam. Continue buprenorphine-naloxone 8 mg "
     "daily."),
    (LQT_CRAVINGS, "buprenorphine_plan_documented",
     "PHQ-9 15. Start sertraline 50 mg daily. No clonazepam. Continue the taper of buprenorphine "
     "as she wishes."),
    # review 4: continuing at a reduced dose
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine-naloxone at "
            "8 mg "
            "daily."),
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine-naloxone 12 mg "
            "daily."),
    # review 5: a taper that names the drug
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Buprenorphine: since she wants to "
            "taper, reduce by 2 mg every 4 weeks."),
    # review 8: naltrexone as the answer to cravings
    (None, "buprenorphine_plan_documented",
     BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine-naloxone 16 mg "
            "daily; no taper now. If cravings return, switch to naltrexone."),
    (NORMAL_CRAVINGS, "buprenorphine_plan_documented",
     "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. Increase buprenorphine-naloxone to "
     "16 mg daily. If cravings persist, switch to naltrexone."),
    # review 9: methadone as the next step with long QT syndrome
    (LQT_CRAVINGS, "buprenorphine_plan_documented",
     "PHQ-9 15. Start sertraline 50 mg daily. No clonazepam. Increase buprenorphine-naloxone to "
     "16 mg daily. If cravings persist at 24 mg, switch to methadone."),
    # review 14: ondansetron for SSRI nausea with long QT syndrome
    (LQT_STABLE, "antidepressant_documented",
     BASE + "Start sertraline 50 mg daily; ondansetron 4 mg as needed for SSRI nausea. No "
            "clonazepam. Continue buprenorphine 16 mg daily; no taper."),
    (LQT_STABLE, "antidepressant_documented",
     BASE + "Start fluoxetine 20 mg daily. No clonazepam. Continue buprenorphine 16 mg daily."),
]

# Reader gaps found by the review (see the review's Status lines): pinned so a reader fix shows.
GAP = pytest.mark.xfail(strict=True, reason="reader gap, see reviews/buprenorphine_mood_support.md")
# The review's probes (findings 5-11), each read right now except the one marked GAP.
REREAD_WRONG = [
    # 5/7: 'a taper' with no drug named in its clause is a buprenorphine decrease
    pytest.param((None, "buprenorphine_plan_documented",
                  BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue "
                         "buprenorphine-naloxone 16 mg daily. Begin a gradual taper in 1 month as "
                         "she requested."), id="gap5_taper_in_a_month"),
    pytest.param((None, "buprenorphine_plan_documented",
                  BASE + "Start escitalopram 10 mg daily. No clonazepam. Continue buprenorphine 16 "
                         "mg daily. A slow taper is reasonable now if she wishes."),
                 id="gap5_taper_if_she_wishes"),
    pytest.param((NORMAL_CRAVINGS, "buprenorphine_plan_documented",
                  "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. Increase "
                  "buprenorphine-naloxone to 16 mg daily; once cravings settle in 2 weeks, resume "
                  "the taper by 2 mg a month."), id="gap7_resume_taper"),
    # 9: 'transfer to methadone' is no plan verb
    pytest.param((LQT_STABLE, "buprenorphine_plan_documented",
                  BASE + "Start sertraline 50 mg daily. No clonazepam. Continue buprenorphine "
                         "16 mg "
                         "daily; no taper. If cravings return, transfer to methadone at an opioid "
                         "treatment program."), marks=GAP, id="gap9_transfer_to_methadone"),
    # 10: '<benzodiazepine> (dose, limits) ... is reasonable' allows it (dev w03)
    pytest.param((None, "benzodiazepine_avoided",
                  BASE + "Start escitalopram 10 mg daily. A brief clonazepam bridge (0.5 mg "
                         "daily as "
                         "needed, max 2 weeks) is reasonable given her stability on buprenorphine. "
                         "Continue buprenorphine 16 mg daily; no taper."),
                 id="gap10_clonazepam_bridge_reasonable"),
]
REREAD_CORRECT = [
    # 6: 'return/go back to <dose>' and 'two 8 mg films' are the increase to 16 mg
    pytest.param((NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. "
                                   "Return buprenorphine-naloxone to 16 mg daily (back up from "
                                   "8 mg); stop the taper."), id="gap6_return_to_16"),
    pytest.param((NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. "
                                   "Go back to buprenorphine-naloxone 16 mg daily."),
                 id="gap6_go_back_to_16"),
    pytest.param((NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. "
                                   "Increase buprenorphine-naloxone to two 8 mg films daily."),
                 id="gap6_two_films"),
    pytest.param((NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. "
                                   "Increase buprenorphine-naloxone back to 16 mg daily. No "
                                   "further taper."), id="gap6_increase_back_to_16"),
    # 11a: a gerund taper in a risk statement is a reason, no decrease
    pytest.param((NORMAL_CRAVINGS, "PHQ-9 16. Start escitalopram 10 mg daily. No clonazepam. "
                                   "Increase buprenorphine-naloxone from 8 mg to 16 mg daily. "
                                   "Tapering buprenorphine while she is using fentanyl is a setup "
                                   "for overdose."), id="gap11_gerund_taper_risk"),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))
test_a_correct_reread_note_passes, test_a_wrong_reread_note_fails = note_probes(
    TASK, REREAD_CORRECT, REREAD_WRONG)


# Orders (review findings 1-3, 12): the oracle's reads, then these medication orders.
def _med(code: str, dose: float, unit: str = "mg", per_day: int | None = 1,
         route: str = "oral") -> dict:
    args = {"patient": "{patient_id}", "medication_code": code, "dose_value": dose,
            "dose_unit": unit, "route": route}
    if per_day is None:
        args["as_needed"] = True
    else:
        args.update(frequency=per_day, period_unit="day")
    return {"tool": "fhir_medication_request_create", "arguments": args}


def _order_verdicts(orders: list[dict], variant: int | None = None) -> tuple[bool, bool]:
    reads = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls
             if c.tool != "fhir_medication_request_create"
             and c.tool != "fhir_communication_create_message"]
    verdicts = run_actions(TASK, reads + orders, variant)
    return verdicts["antidepressant_ordered"], verdicts["oud_safety_orders"]


NALOXONE = _med("1725059", 4, per_day=None, route="nasal")
ESCITALOPRAM = _med("349332", 10)
SERTRALINE = _med("312941", 50)


def _bup(dose: float, unit: str = "mg", per_day: int = 1, code: str = "1010604") -> dict:
    return _med(code, dose, unit, per_day, route="sublingual")


@pytest.mark.parametrize(("variant", "orders", "expected"), [
    (None, [ESCITALOPRAM, NALOXONE], (True, True)),
    # 3: tablets, capsules and films counted by strength
    (None, [_med("349332", 1, "tablet"), NALOXONE], (True, True)),
    (None, [_med("351250", 0.5, "tablet"), NALOXONE], (True, True)),
    (None, [_med("310385", 1, "capsule"), NALOXONE], (True, True)),  # 12: fluoxetine 20 mg
    (LQT_STABLE, [_med("312941", 1, "tablet"), NALOXONE], (True, True)),
    (LQT_CRAVINGS, [SERTRALINE, _bup(2, "film"), NALOXONE], (True, True)),
    (LQT_CRAVINGS, [SERTRALINE, _bup(3, "film"), NALOXONE], (True, True)),
    (NORMAL_CRAVINGS, [ESCITALOPRAM, _bup(8, per_day=2), NALOXONE], (True, True)),
    (None, [ESCITALOPRAM, _bup(16), NALOXONE], (True, True)),  # a refill at 16 mg
    # 1: a buprenorphine order below 16 mg a day (the taper) fails in both branches
    (None, [ESCITALOPRAM, NALOXONE, _bup(8)], (True, False)),
    (None, [ESCITALOPRAM, NALOXONE, _bup(4)], (True, False)),
    (None, [ESCITALOPRAM, NALOXONE, _bup(1, "film")], (True, False)),
    (None, [ESCITALOPRAM, NALOXONE, _bup(4, per_day=2)], (True, False)),
    (LQT_CRAVINGS, [SERTRALINE, _bup(16), NALOXONE, _bup(8)], (True, False)),
    (LQT_CRAVINGS, [SERTRALINE, _bup(4, "film"), NALOXONE], (True, False)),  # 32 mg
    # 2: the buprenorphine-naloxone film is no rescue kit
    (LQT_CRAVINGS, [SERTRALINE, _bup(16)], (True, False)),
])
def test_orders(variant: int | None, orders: list[dict], expected: tuple[bool, bool]) -> None:
    assert _order_verdicts(orders, variant) == expected

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LQT_CRAVINGS, NORMAL_CRAVINGS, LQT_STABLE),
                  [None, LQT_CRAVINGS, NORMAL_CRAVINGS, LQT_STABLE]))
