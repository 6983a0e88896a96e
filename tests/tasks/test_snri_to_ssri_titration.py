"""Venlafaxine XR -> sertraline cross-taper: first-step orders, counselling and follow-up."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "snri_to_ssri_titration"
NOTE_CHECKS = {"switch_rationale_stated", "safety_counselling_documented",
               "cross_taper_documented", "followup_documented"}

CORRECT = [
    # terse bullets with arrows and "x 2 weeks"
    """MDD, partial response: PHQ-9 14/27 on venlafaxine XR 150 mg. Venlafaxine-associated
hypertension (148/94) and sweating.
Plan (cross-taper):
- Venlafaxine XR 150 -> 75 mg daily x 2 weeks, then 37.5 mg daily x 1-2 weeks, then off.
- Sertraline 25 mg PO daily x 7 days, then 50 mg daily.
- Discussed discontinuation symptoms (dizziness, brain zaps, irritability).
- Educated on serotonin syndrome warning signs during the overlap.
- RTC in 4 weeks with repeat PHQ-9.""",
    # numbered recommendations, brand names, start at 50 mg
    """Assessment: recurrent major depression with residual symptoms (PHQ-9 = 14, moderate
depression) after an adequate trial of Effexor XR; blood pressure has risen to 148/94 and he
has night sweats.
Recommendations:
1. Decrease venlafaxine XR to 75 mg once daily today; reduce by 37.5 mg every 1-2 weeks
thereafter.
2. Start sertraline 50 mg every morning.
3. Counselled about SNRI withdrawal symptoms and about serotonin toxicity (agitation, tremor,
diarrhea, fever).
4. Follow-up visit in 6 weeks: PHQ-9 and BP.""",
    # narrative, a 37.5 mg first step
    """46M with MDD, incomplete response to venlafaxine (PHQ-9 14) and elevated blood pressure.
I recommend a cross-taper: reduce venlafaxine from 150 mg to 112.5 mg daily this week while
starting Zoloft 25 mg daily; next, lower venlafaxine to 75 mg and raise sertraline to 50 mg.
He understands the risk of discontinuation syndrome and of serotonin syndrome.
Reassess with PHQ-9 in 4-6 weeks.""",
]

# Review additions: phrasings a psychiatrist writes that the oracle does not use - a history
# of the past dose increase, counselling that names the risk of an abrupt stop, "raised BP",
# "HTN", halving the dose, a 2-week review (NICE: review within 2 weeks of a new antidepressant).
CORRECT += [
    # history of the increase and counselling about abrupt stops must not read as the plan
    """Data: venlafaxine XR started at 75 mg a year ago and increased to 150 mg after 6 weeks;
PHQ-9 21 at baseline, PHQ-9 14 today - remission not achieved. Raised BP on venlafaxine
(148/94) with night sweats.
Plan: halve venlafaxine XR to 75 mg once daily for 2 weeks, then 37.5 mg daily, then stop.
Begin sertraline 25 mg every morning.
Explained that stopping venlafaxine abruptly causes withdrawal symptoms (dizziness, electric
shock sensations), so the taper is gradual. Warned about serotonin toxicity while both overlap.
Review in 2 weeks by phone; repeat PHQ-9 at 6 weeks.""",
    # abbreviations: HTN, RTC, Zoloft at 50 mg qAM, "step ... down"
    """Impression: MDD, recurrent, with an inadequate response (PHQ9 = 14) and venlafaxine-related
HTN; sweating since the increase in venlafaxine dose.
- Step venlafaxine XR down to 112.5 mg qd (75 mg + 37.5 mg caps).
- Zoloft 50 mg PO qAM.
- Avoid tramadol with sertraline; risk of serotonin syndrome increases while venlafaxine and
sertraline overlap.
- Counselled on SNRI discontinuation symptoms.
- RTC 4 wks with PHQ-9 and BP.""",
    # score out of 27, "BP ... up from", telehealth at one month
    """PHQ-9 score 14/27 (moderate depression), BP 148/94 up from 122/76 on venlafaxine.
Recommendation: cross-taper. Decrease Effexor XR from 150 mg to 75 mg daily now and initiate
sertraline 25 mg daily; avoid abrupt discontinuation of venlafaxine. Watch for discontinuation
symptoms and serotonin syndrome (tremor, agitation, diarrhea, fever). Telehealth follow-up in
1 month with repeat PHQ-9.""",
    # "residual symptoms", "blood pressure rose", follow-up within 3 weeks
    """Residual depressive symptoms on venlafaxine XR 150 mg (PHQ-9 14); blood pressure rose to
148/94 and he sweats at night, so a switch is warranted. Venlafaxine XR 150 -> 75 mg daily
this week; sertraline 25 mg daily x 7 days, then 50 mg daily. Do not stop venlafaxine abruptly;
withdrawal symptoms are likely. Serotonin syndrome reviewed. Follow-up visit within 3 weeks.""",
]


def test_dash_joined_counselling_is_not_a_denial():
    note = CORRECT[-1].replace("abruptly;\nwithdrawal", "abruptly -\nwithdrawal")
    assert grade_note(TASK, note)["safety_counselling_documented"]

BASE = ("MDD, partial response: PHQ-9 14 on venlafaxine XR 150 mg; hypertension.\n"
        "{taper} {start}\n{counsel}\nReassess PHQ-9 in {interval}.")
GOOD = {"taper": "Reduce venlafaxine XR to 75 mg daily.", "start": "Start sertraline 25 mg daily.",
        "counsel": "Discussed discontinuation symptoms and serotonin syndrome.",
        "interval": "4 weeks"}


def _note(**changes: str) -> str:
    return BASE.format(**{**GOOD, **changes})


WRONG = [
    (_note().replace("PHQ-9 14", "PHQ-9 19"), "switch_rationale_stated"),  # wrong score
    (_note().replace("; hypertension", ""), "switch_rationale_stated"),  # no BP rise
    (_note(taper="Stop venlafaxine abruptly today."), "cross_taper_documented"),
    (_note(taper="Continue venlafaxine XR 150 mg daily."), "cross_taper_documented"),
    (_note(taper="Reduce venlafaxine XR to 37.5 mg daily."), "cross_taper_documented"),  # too big
    (_note(start="Start sertraline 100 mg daily."), "cross_taper_documented"),
    (_note(start="Consider starting sertraline 25 mg daily."), "cross_taper_documented"),
    (_note(start="Start sertraline 25 mg BID."), "cross_taper_documented"),
    (_note(counsel="Discussed discontinuation symptoms. No risk of serotonin syndrome with "
                   "this combination."), "safety_counselling_documented"),
    (_note(counsel="Discussed serotonin syndrome."), "safety_counselling_documented"),
    (_note(interval="3 months"), "followup_documented"),
]

# Review additions: subtly wrong plans - raising venlafaxine, a direct switch, a contradictory
# 100 mg sertraline start, a hedged taper, a 3-month follow-up, a denied BP rise, remission.
WRONG += [
    pytest.param(_note(taper="Reduce venlafaxine XR to 75 mg daily. Titrate venlafaxine up to "
                       "300 mg next week."), "cross_taper_documented",
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known gap: a split verb ('titrate ... up to') is not read"))),
    (_note(taper="Direct switch: stop venlafaxine today."), "cross_taper_documented"),
    (_note(start="Start sertraline 25 mg daily. Start sertraline 100 mg daily from week 2."),
     "cross_taper_documented"),
    (_note(taper="Could reduce venlafaxine XR to 75 mg daily."), "cross_taper_documented"),
    (_note(taper="Keep venlafaxine at 150 mg until sertraline is at 50 mg."),
     "cross_taper_documented"),
    (_note(start="Hold off on sertraline until the taper is done."), "cross_taper_documented"),
    (_note(interval="2 months"), "followup_documented"),
    (_note().replace("Reassess PHQ-9 in 4 weeks.", "Consider a follow-up in 4 weeks."),
     "followup_documented"),
    (_note().replace("; hypertension", "; no hypertension"), "switch_rationale_stated"),
    (_note().replace("partial response", "full remission"), "switch_rationale_stated"),
]

STUFFED = """PHQ-9 14 19 10, partial response, hypertension. Reduce venlafaxine XR to 75 mg.
Increase venlafaxine to 225 mg. Stop venlafaxine abruptly. Start sertraline 25 mg daily.
Avoid sertraline. Start sertraline 200 mg BID. Discontinuation symptoms, serotonin syndrome.
Reassess PHQ-9 in 4 weeks."""


def test_canonical_values():
    vals = values(TASK)
    assert (vals["venlafaxine_mg"], vals["new_venlafaxine_mg"], vals["phq9"]) == (150, 75, 14)
    assert (vals["venlafaxine_low"], vals["venlafaxine_high"]) == (75, 112.5)


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, STUFFED)
    assert not verdicts["cross_taper_documented"]
    assert not verdicts["switch_rationale_stated"]


def _seed_with_dose(mg: int) -> int:
    return next(s for s in range(40) if values(TASK, s)["venlafaxine_mg"] == mg)


def test_225_mg_variant_steps_down_to_150():
    seed = _seed_with_dose(225)
    vals = values(TASK, seed)
    assert (vals["new_venlafaxine_mg"], vals["venlafaxine_low"]) == (150, 150)
    head = f"MDD, partial response: PHQ-9 {vals['phq9']}; hypertension on venlafaxine.\n"
    tail = ("\nStart sertraline 25 mg daily.\nDiscussed discontinuation symptoms and serotonin "
            "syndrome.\nReassess PHQ-9 in 4 weeks.")
    right = head + "Reduce venlafaxine XR from 225 mg to 150 mg daily." + tail
    assert all(grade_note(TASK, right, seed).values())
    too_fast = head + "Reduce venlafaxine XR from 225 mg to 75 mg daily." + tail
    assert not grade_note(TASK, too_fast, seed)["cross_taper_documented"]


CREATE = "fhir_medication_request_create"


def _order(code: str, dose: float, unit: str = "mg", per_day: int = 1, **extra) -> dict:
    return {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": unit, "route": "oral", "frequency": per_day, "period_unit": "day", **extra}}


@pytest.mark.parametrize(("order", "passes"), [
    (_order("312940", 25), True),                  # sertraline 25 mg tablet, 25 mg daily
    (_order("312941", 50), True),                  # 50 mg daily
    (_order("312941", 1, "tablet"), True),         # one 50 mg tablet daily
    (_order("312938", 100), False),                # 100 mg: too high to start
    (_order("312940", 25, per_day=2), False),      # twice daily
])
def test_sertraline_start_dose(order, passes):
    assert run_actions(TASK, [order])["sertraline_started"] is passes


def test_other_serotonergic_drug_fails_the_sertraline_checkpoint():
    escitalopram = _order("349332", 10)
    assert not run_actions(TASK, [_order("312940", 25), escitalopram])["sertraline_started"]


@pytest.mark.parametrize(("orders", "passes"), [
    ([_order("313585", 75)], True),                                  # 150 -> 75
    ([_order("313585", 75), _order("313583", 37.5)], True),          # 150 -> 112.5
    ([_order("313583", 37.5)], False),                               # 150 -> 37.5: too big
    ([_order("313581", 150)], False),                                # unchanged
    ([_order("313585", 1, "capsule")], True),                        # one 75 mg capsule
])
def test_venlafaxine_first_taper_step(orders, passes):
    assert run_actions(TASK, orders)["venlafaxine_reduced"] is passes


def test_every_variant_is_a_partial_response():
    """PHQ-9 falls 25-49% from 21 (partial response, not response or non-response)."""
    for seed in range(20):
        vals = values(TASK, seed)
        assert 21 * 0.5 < vals["phq9"] <= 21 * 0.75, vals["phq9"]


@pytest.mark.xfail(strict=True, reason="known gap: a verbless-subject history sentence "
                   "('venlafaxine XR increased from 150 to 225 mg') is read as a plan line")
def test_225_mg_variant_reads_the_history_as_history():
    seed = _seed_with_dose(225)
    vals = values(TASK, seed)
    note = (f"PHQ-9 {vals['phq9']}, partial response; venlafaxine XR increased from 150 to 225 "
            "mg with raised BP.\nReduce venlafaxine XR from 225 mg to 150 mg daily. Start "
            "sertraline 25 mg daily.\nDiscussed discontinuation symptoms and serotonin "
            "syndrome.\nFollow up in 2 weeks.")
    assert all(grade_note(TASK, note, seed).values())
    raised = note.replace("to 150 mg daily.", "to 150 mg daily. Increase venlafaxine to 300 mg.")
    assert not grade_note(TASK, raised, seed)["cross_taper_documented"]


def test_order_text_warning_against_tramadol_is_not_a_tramadol_order():
    """The interaction check reads the ordered drug, not its sig or note."""
    warned = _order("312940", 25, sig="Take 1 tablet daily. Do not take with tramadol.",
                    note="Avoid linezolid and MAOIs during the cross-taper.")
    assert run_actions(TASK, [warned])["sertraline_started"]


@pytest.mark.parametrize("code", ["790288", "311725", "993541", "856834"])
def test_other_antidepressants_fail_the_sertraline_checkpoint(code):
    """Desvenlafaxine, mirtazapine, bupropion or amitriptyline on top of the cross-taper."""
    assert not run_actions(TASK, [_order("312940", 25), _order(code, 1, "tablet")])[
        "sertraline_started"]


def test_continuing_trazodone_is_allowed():
    assert run_actions(TASK, [_order("312940", 25), _order("856377", 50)])["sertraline_started"]


# review finding 1: a titration written as consecutive orders is read as steps, not summed
def test_titration_written_as_consecutive_orders_is_read_step_by_step():
    seed = _seed_with_dose(225)
    sequence = [_order("312940", 25, duration_days=7), _order("312941", 50, duration_days=30),
                _order("313581", 150, duration_days=7),
                _order("313585", 75, duration_days=7,
                       sig="Days 8-14: take 75 mg by mouth daily, then stop.")]
    verdicts = run_actions(TASK, sequence, seed)
    assert verdicts["sertraline_started"] and verdicts["venlafaxine_reduced"]


def test_orders_over_the_same_days_still_add_up():
    seed = _seed_with_dose(225)
    together = [_order("312940", 25, duration_days=30), _order("312941", 50, duration_days=30),
                _order("313581", 150, duration_days=7), _order("313585", 75, duration_days=7)]
    verdicts = run_actions(TASK, together, seed)
    assert not verdicts["sertraline_started"]      # 75 mg a day
    assert not verdicts["venlafaxine_reduced"]     # 150 + 75 capsules: 225 mg, unchanged


def test_a_taper_that_goes_back_up_fails():
    seed = _seed_with_dose(225)
    orders = [_order("312940", 25), _order("313581", 150, duration_days=7),
              _order("313585", 3, "capsule", duration_days=30)]   # then 225 mg again
    assert not run_actions(TASK, orders, seed)["venlafaxine_reduced"]
