"""trd_refill_review: the scenario draw (a new drug that raises lithium; a level in range; a high
level with falling eGFR) and the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, medication_request, note_probes, oracle_calls, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "trd_refill_review"
IBUPROFEN = 0     # ibuprofen started 4 weeks ago, after the last level
HIGH = 1          # trough above 1.0 with eGFR 53: reduce lithium
THERAPEUTIC = 3   # trough in range 3 weeks ago: refill lithium 300 mg twice daily
HCTZ = 4          # hydrochlorothiazide started 5 weeks ago
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["branch"] == "interaction" and vals["scenario"]["drug"] == "naproxen"
    sertraline, lithium, over_sertraline, over_lithium = vals["prescription_grader"]["all"]["of"]
    assert sertraline["ordered"]["dose"] == {"min": 200, "max": 200, "unit": "mg"}
    assert lithium["not_ordered"]["codes"] == [RX + "197889", RX + "311355"]
    assert over_sertraline["not_ordered"]["dose"] == {"min": 201, "unit": "mg"}
    assert over_lithium["not_ordered"]["dose"] == {"min": 901, "unit": "mg"}
    level, renal = vals["monitoring_grader"]["all"]["of"]
    assert level["ordered"]["codes"] == ["http://loinc.org|14334-7"]
    assert level["ordered"]["occurrence"] == {"min": 0, "max": 7}
    stop, no_swap = vals["assessed_grader"]["all"]["of"]
    assert stop["note_decision"]["concept"] == ["naproxen"]
    assert no_swap["note_never"]["concept"] == ["nsaid"]
    assert values(TASK, HCTZ)["assessed_grader"]["all"]["of"][1]["note_never"]["concept"] == [
        "thiazide", "ace_inhibitor", "arb"]


def test_branches_draw_their_answers():
    assert values(TASK, IBUPROFEN)["scenario"]["drug"] == "ibuprofen"
    assert values(TASK, HCTZ)["scenario"]["drug"] == "hydrochlorothiazide"
    assert values(TASK, THERAPEUTIC)["branch"] == "therapeutic"
    high = values(TASK, HIGH)
    assert high["branch"] == "high" and high["level_now"] == high["high_level"] > 1.2
    reduce = high["plan_grader"]["all"]["of"][1]["all"]["of"][0]["note_decision"]
    assert reduce["action"] == ["decrease"] and reduce["dose"]["max"] == 450
    ther = values(TASK, THERAPEUTIC)["prescription_grader"]["all"]["of"][1]["all"]["of"][0]
    assert ther["ordered"]["dose"] == {"min": 300, "max": 300, "unit": "mg"}
    assert ther["ordered"]["per_day"]["min"] == 2
    kinds = {values(TASK, n)["branch"] for n in range(20)}
    assert kinds == {"interaction", "therapeutic", "high"}


CORRECT = [
    (None, "Naproxen was started 3 weeks ago after her last lithium level and raises lithium "
           "levels. Stop naproxen; use acetaminophen. Check a lithium level and BMP now; lithium "
           "refill held until the result. Continue sertraline 200 mg daily."),
    (None, """Assessment: new NSAID (naproxen 500 mg BID) since the last level.
Plan:
1. Discontinue naproxen.
2. Lithium level (12-h trough) and creatinine this week; hold the lithium refill until resulted.
3. Continue sertraline 200 mg once daily - refilled."""),
    (IBUPROFEN, "Ibuprofen started a month ago raises lithium. Stop ibuprofen. Order a lithium "
                "level today and hold the lithium refill until it is back. Continue sertraline "
                "200 mg."),
    (HCTZ, "Hydrochlorothiazide raises lithium levels: stop hydrochlorothiazide and use "
           "amlodipine instead. Check a lithium level this week; lithium refill on hold until "
           "then. Continue sertraline 200 mg daily."),
    (None, "Stop naproxen. Continue sertraline 200 mg daily. Check a lithium level and BMP this "
           "week; lithium refill held. She should keep taking lithium 300 mg twice daily from "
           "her current supply until the result; I will refill it once the level is back."),
    (THERAPEUTIC, "Lithium level 0.8 mmol/L three weeks ago, therapeutic. Continue lithium 300 mg "
                  "twice daily. Continue sertraline 200 mg daily. TSH and calcium now."),
    (HIGH, "Lithium level 1.34 mmol/L, above target, eGFR 53, falling. Reduce lithium to 300 mg "
           "at bedtime. Repeat level in 5-7 days. Continue sertraline 200 mg daily."),
    # a held refill is not a stop of the drug; a stop under a toxicity trigger is a safety-net
    (None, "Stop naproxen. Lithium - NOT refilled today; lithium level and BMP this week. "
           "Continue sertraline 200 mg daily. If toxicity symptoms occur, stop lithium and go "
           "to the ED."),
    (None, "Stop naproxen. Continue sertraline 200 mg daily. I'm holding the lithium refill "
           "until a lithium level (ordered, with a BMP for creatinine/eGFR) is back this week."),
]

WRONG = [
    (None, "regimen_assessed",
     "Continue naproxen with food. Check a lithium level now. Continue sertraline 200 mg."),
    (None, "regimen_assessed",
     "Lithium level now. Continue sertraline 200 mg. Naproxen can continue if she prefers."),
    (None, "lithium_plan_documented",
     "Stop naproxen. Check a lithium level in 3 months. Continue sertraline 200 mg."),
    (None, "lithium_plan_documented",
     "Stop naproxen. Increase lithium to 450 mg twice daily. Check a lithium level now. "
     "Continue sertraline 200 mg."),
    (None, "lithium_plan_documented",
     "Stop naproxen. Check a lithium level now. Alternatively, sertraline could be stopped."),
    # the must-not: a lithium refill before the new level
    (None, "lithium_plan_documented",
     "Stop naproxen. Continue sertraline 200 mg daily. Refill lithium 300 mg twice daily for 90 "
     "days. Check a lithium level now."),
    (None, "lithium_plan_documented",
     "Stop naproxen. Continue sertraline 200 mg daily. Lithium level now; if she prefers, refill "
     "lithium 300 mg twice daily today as well."),
    (None, "lithium_plan_documented",
     "Stop naproxen. Continue sertraline 200 mg daily. Lithium refilled x90 days; lithium level "
     "at her next routine visit."),
    # a same-day refill beside a stated hold ('refill lithium' reads as resuming the supply)
    (None, "lithium_plan_documented",
     "Stop naproxen. Lithium level this week; lithium refill on hold for the new level. "
     "Continue sertraline 200 mg daily. Also refill lithium 300 mg twice daily x90 days today "
     "so she does not run out."),
    # the augmentation is not stopped (holding the refill is not stopping the drug)
    (None, "lithium_plan_documented",
     "Stop naproxen. Stop lithium. Lithium level this week; lithium refill held. Continue "
     "sertraline 200 mg daily."),
    # review probes: a level only later, an increase, a swap to another lithium-raising drug
    (None, "lithium_plan_documented",
     "Stop naproxen. Lithium refill held. Check a lithium level in 3 to 4 weeks. Continue "
     "sertraline 200 mg daily."),
    (None, "regimen_assessed",
     "Stop naproxen; ibuprofen 400 mg as needed is fine instead. Lithium refill held until a "
     "lithium level this week. Continue sertraline 200 mg daily."),
    (HCTZ, "regimen_assessed",
     "Stop hydrochlorothiazide and start lisinopril 10 mg daily. Lithium refill held until a "
     "lithium level this week. Continue sertraline 200 mg daily."),
    (IBUPROFEN, "regimen_assessed",
     "Stop naproxen. Check a lithium level now. Continue sertraline 200 mg."),
    (THERAPEUTIC, "regimen_assessed",
     "Lithium level 1.1 mmol/L. Continue lithium 300 mg twice daily. Continue sertraline 200 mg."),
    (THERAPEUTIC, "lithium_plan_documented",
     "Lithium level 0.8 mmol/L. Increase lithium to 900 mg daily. Continue sertraline 200 mg."),
    (HIGH, "regimen_assessed",
     "Lithium level 0.9 mmol/L, eGFR 53. Reduce lithium to 300 mg daily. Continue sertraline "
     "200 mg."),
    (HIGH, "lithium_plan_documented",
     "Lithium level 1.34 mmol/L, eGFR 53. Continue lithium 300 mg twice daily. Continue "
     "sertraline 200 mg."),
    (HIGH, "lithium_plan_documented",
     "Lithium level 1.34 mmol/L, eGFR 53. Reduce lithium to 150 mg daily. Continue sertraline "
     "200 mg."),
]

test_correct_notes_pass, test_wrong_notes_fail = note_probes(TASK, CORRECT, WRONG)

# reader gaps (see the spec's comments and the draft report)
_GAP_CORRECT = [pytest.param(
    None, "Stop naproxen. Check a lithium level this week, then I will refill lithium once the "
          "result is back; lithium refill held meanwhile. Continue sertraline 200 mg daily.",
    marks=pytest.mark.xfail(strict=True, reason="'once the result is back' is not read as a "
                                                "trigger, so the later refill reads as planned "
                                                "now ('when the result is back' is read)"),
    id="refill_once_resulted")]
_GAP_WRONG = [pytest.param(
    None, "lithium_plan_documented",
    "Stop naproxen. Lithium refill held; lithium level this week. Lithium 300 mg twice daily "
    "renewed for 90 days. Continue sertraline 200 mg daily.",
    marks=pytest.mark.xfail(strict=True, reason="a verbless participle renewal ('Lithium 300 mg "
                                                "twice daily renewed') is not read as a refill"),
    id="renewed_participle")]
test_gap_correct, test_gap_wrong = note_probes(TASK, _GAP_CORRECT, _GAP_WRONG)


def _orders(variant=None, drop_lithium=False, extra=()):
    calls = [c for c in oracle_calls(TASK, variant)
             if not (drop_lithium and c["arguments"].get("medication_code") == "197889")]
    return run_actions(TASK, calls + list(extra), variant)


def test_lithium_refill_before_a_level_fails_the_orders():
    assert _orders()["prescriptions_ordered"]
    assert not _orders(extra=[medication_request("197889", 300, 2)])["prescriptions_ordered"]


def test_doses_above_the_label_maximum_fail():
    assert not _orders(THERAPEUTIC, extra=[medication_request("312938", 300, 1)]
                       )["prescriptions_ordered"]
    assert not _orders(THERAPEUTIC, drop_lithium=True,
                       extra=[medication_request("197889", 1200, 1)])["prescriptions_ordered"]


def test_therapeutic_refill_is_the_same_regimen():
    # a second lithium order beside the renewal (300 mg three times daily, 450 mg twice daily)
    assert _orders(THERAPEUTIC)["prescriptions_ordered"]
    assert not _orders(THERAPEUTIC, extra=[medication_request("197889", 300, 3)]
                       )["prescriptions_ordered"]
    assert not _orders(THERAPEUTIC, drop_lithium=True,
                       extra=[medication_request("197889", 300, 2),
                              medication_request("197889", 450, 2)])["prescriptions_ordered"]


def test_high_level_orders_need_a_reduction():
    assert not _orders(HIGH, drop_lithium=True,
                       extra=[medication_request("197889", 300, 2)])["prescriptions_ordered"]
    assert _orders(HIGH, drop_lithium=True,
                   extra=[medication_request("311355", 150, 3)])["prescriptions_ordered"]
    assert not _orders(HIGH, drop_lithium=True,
                       extra=[medication_request("311355", 150, 4)])["prescriptions_ordered"]


test_canonical_note_fails_other_branches, test_oracle_succeeds_on_each_branch = branch_probes(
    TASK, others=[IBUPROFEN, HCTZ, THERAPEUTIC, HIGH],
    oracle_on=[None, IBUPROFEN, HCTZ, THERAPEUTIC, HIGH])
