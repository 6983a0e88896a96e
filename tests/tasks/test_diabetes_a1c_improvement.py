"""Add-on to metformin chosen by comorbidity: notes are judged on the plan, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "diabetes_a1c_improvement"
NOTE_CHECKS = {"addon_class_selected", "regimen_documented", "monitoring_documented"}
HF, ASCVD = 0, 4  # seeded variants with heart failure and with ASCVD + SGLT2i intolerance


def test_variants_cover_the_three_scenarios():
    assert values(TASK)["scenario"] == "ckd"
    assert values(TASK, HF)["scenario"] == "hf"
    assert values(TASK, ASCVD)["scenario"] == "ascvd"


WRONG_CKD = [
    # wrong A1c value
    "A1c 8.9%, above goal. Start dapagliflozin 10 mg daily. Continue metformin. A1c in 3 months.",
    # hedged plan
    """A1c 8.4%, above goal. Consider starting dapagliflozin 10 mg daily. Continue metformin.
    Repeat A1c in 3 months.""",
    # dose above the label limit for eGFR 30-<60
    """A1c 8.4%, above goal. Start canagliflozin 300 mg daily. Continue metformin. Repeat A1c
    in 3 months.""",
    # metformin stopped
    """A1c 8.4%, above goal. Start dapagliflozin 10 mg daily and stop metformin. Repeat A1c in
    3 months.""",
    # follow-up too late
    """A1c 8.4%, above goal. Start dapagliflozin 10 mg daily. Continue metformin. Repeat A1c in
    6 months.""",
    # glyburide in CKD (with a valid-looking A1c recheck)
    """A1c 8.4%, above goal. Start glyburide 5 mg daily. Continue metformin. Repeat A1c in
    3 months.""",
    # a DPP-4 inhibitor ignores the comorbidity
    """A1c 8.4%, above goal. Start sitagliptin 50 mg daily. Continue metformin. Repeat A1c in
    3 months.""",
    # started, then retracted
    """A1c 8.4%, above goal. Start dapagliflozin 10 mg daily. On reflection, avoid dapagliflozin
    for now. Continue metformin. Repeat A1c in 3 months.""",
    # keyword stuffing: every agent, both directions
    """A1c 8.4 7.9 7.5, above goal. Start dapagliflozin 10 mg. Stop dapagliflozin. Start
    semaglutide 0.25 mg. Avoid semaglutide. Start glyburide. Continue metformin. Stop
    metformin. Repeat A1c in 3 months and 6 months.""",
]


_, test_wrong_ckd_notes_fail = note_probes(TASK, wrong=WRONG_CKD)


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, WRONG_CKD[-1])
    assert verdicts["addon_class_selected"] is False
    assert verdicts["regimen_documented"] is False


def _hf_note(plan: str) -> str:
    a1c = values(TASK, HF)["a1c"]
    return f"A1c {a1c}%, above goal; HFrEF. {plan} Continue metformin. Repeat A1c in 3 months."


def test_heart_failure_needs_an_sglt2_inhibitor():
    assert all(grade_note(TASK, _hf_note("Start dapagliflozin 10 mg daily."), HF).values())
    assert all(grade_note(TASK, _hf_note(
        "Begin Jardiance 10 mg daily rather than pioglitazone (fluid retention)."), HF).values())
    # GLP-1 RA alone, a TZD, or an SGLT2i plus saxagliptin: not the HF plan
    for plan in ("Start semaglutide 0.25 mg weekly.", "Start pioglitazone 15 mg daily.",
                 "Start dapagliflozin 10 mg daily and add saxagliptin 5 mg daily."):
        assert not all(grade_note(TASK, _hf_note(plan), HF).values()), plan


def _ascvd_note(plan: str) -> str:
    a1c = values(TASK, ASCVD)["a1c"]
    return (f"HbA1c {a1c}% on metformin; prior NSTEMI with LAD stent. {plan} "
            "Continue metformin. A1c in 3 months.")


def test_ascvd_with_sglt2i_intolerance_needs_a_glp1_ra():
    for plan in ("Start semaglutide 0.25 mg SC weekly, preferred over an SGLT2 inhibitor "
                 "given recurrent candidiasis on canagliflozin.",
                 "He declined SGLT2 inhibitors; start liraglutide 0.6 mg daily x1 week, then "
                 "1.2 mg daily.",
                 "Rx: Trulicity 0.75 mg weekly. Do not restart an SGLT2i (balanitis)."):
        assert all(grade_note(TASK, _ascvd_note(plan), ASCVD).values()), plan
    for plan in ("Start empagliflozin 10 mg daily.",
                 "Start dapagliflozin 10 mg daily and semaglutide 0.25 mg weekly.",
                 "Start semaglutide 0.5 mg weekly."):
        assert not all(grade_note(TASK, _ascvd_note(plan), ASCVD).values()), plan


CREATE = "fhir_medication_request_create"


def _rx(code: str, dose: float, route: str = "oral") -> dict:
    return {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": "mg", "route": route, "frequency": 1, "period_unit": "day"}}


def test_orders_follow_the_scenario():
    assert run_actions(TASK, [_rx("1488569", 10)])["addon_prescribed"]
    assert run_actions(TASK, [_rx("1373463", 100)])["addon_prescribed"]
    assert not run_actions(TASK, [_rx("1488569", 5)])["addon_prescribed"]
    # the HF variant: canagliflozin lacks HF outcome data at this point of the task
    assert not run_actions(TASK, [_rx("1373463", 100)], HF)["addon_prescribed"]
    # the ASCVD variant: GLP-1 RA, and no SGLT2 inhibitor beside it
    assert run_actions(TASK, [_rx("897122", 0.6, "subcutaneous")], ASCVD)["addon_prescribed"]
    assert not run_actions(TASK, [_rx("1488569", 10)], ASCVD)["addon_prescribed"]
    both = run_actions(TASK, [_rx("897122", 0.6, "subcutaneous"), _rx("1488569", 10)], ASCVD)
    assert not both["addon_prescribed"]


WRONG_REVIEW = {
    # SGLT2 inhibitor twice daily is 20 mg/day: wrong dose
    "addon_bid": ("""A1c 8.4%. Start dapagliflozin 10 mg PO BID. Continue metformin. A1c in
        3 months.""", "regimen_documented"),
    # a once-daily SGLT2 inhibitor written weekly
    "addon_weekly": ("""A1c 8.4%. Start dapagliflozin 10 mg weekly. Continue metformin. A1c in
        3 months.""", "regimen_documented"),
    # unconditional hold of metformin is stopping it
    "metformin_held": ("""A1c 8.4%. Start dapagliflozin 10 mg daily. Hold metformin for now.
        A1c in 3 months.""", "regimen_documented"),
    # metformin halved without a reason at eGFR >= 45
    "metformin_halved": ("""A1c 8.4%. Start dapagliflozin 10 mg daily. Halve metformin to
        1000 mg daily. A1c in 3 months.""", "regimen_documented"),
    # repeat A1c too late, in words and hyphenated
    "a1c_six_months": ("""A1c 8.4%. Start dapagliflozin 10 mg daily. Continue metformin. Repeat
        A1c at the 6-month visit.""", "monitoring_documented"),
    "a1c_q6": ("""A1c 8.4%. Start dapagliflozin 10 mg daily. Continue metformin. A1c in six
        months, then q6 months.""", "monitoring_documented"),
    # repeat A1c too early to reflect the new therapy
    "a1c_three_weeks": ("""A1c 8.4%. Start dapagliflozin 10 mg daily. Continue metformin. A1c in
        3 weeks.""", "monitoring_documented"),
    # hedged add-on
    "hedged": ("""A1c 8.4%. Could start dapagliflozin 10 mg daily. Continue metformin. A1c in
        3 months.""", "addon_class_selected"),
}


_, test_review_wrong_notes_fail_their_checkpoint = note_probes(TASK, wrong=WRONG_REVIEW)


def test_ascvd_oral_semaglutide_and_schedules():
    """Oral semaglutide (SOUL; FDA CV indication 2025) counts; a rechallenge with the SGLT2
    inhibitor he declined, or a GLP-1 RA on the wrong schedule, does not."""
    for plan in ("Start oral semaglutide (Rybelsus) 3 mg daily x 30 days, then 7 mg daily.",
                 "Begin Trulicity 0.75 mg SC once weekly; will not rechallenge with an SGLT2i."):
        assert all(grade_note(TASK, _ascvd_note(plan), ASCVD).values()), plan
    for plan, checkpoint in (
            ("Start semaglutide 0.25 mg weekly. Restart canagliflozin 100 mg daily.",
             "addon_class_selected"),
            ("Start liraglutide 0.6 mg SC weekly.", "regimen_documented"),
            ("Start semaglutide 0.25 mg daily.", "regimen_documented")):
        assert grade_note(TASK, _ascvd_note(plan), ASCVD)[checkpoint] is False, plan


def test_order_text_naming_the_avoided_agent_is_not_an_unsafe_order():
    """Directions or a note that mention the ruled-out agent belong to a correct order."""
    lira = _rx("897122", 0.6, "subcutaneous")
    lira["arguments"]["note"] = "SGLT2 inhibitor declined after balanitis on canagliflozin."
    assert run_actions(TASK, [lira], ASCVD)["addon_prescribed"]
    dapa = _rx("1488569", 10)
    dapa["arguments"]["sig"] = "Take 1 tablet by mouth daily. Not with pioglitazone."
    assert run_actions(TASK, [dapa], HF)["addon_prescribed"]
    # the avoided agent itself is still caught
    cana = _rx("1373463", 100)
    assert not run_actions(TASK, [_rx("897122", 0.6, "subcutaneous"), cana],
                           ASCVD)["addon_prescribed"]


def test_orders_in_tablets_and_empagliflozin():
    one_tablet = _rx("1488569", 1)
    one_tablet["arguments"]["dose_unit"] = "tablet"
    assert run_actions(TASK, [one_tablet])["addon_prescribed"]
    two_tablets = _rx("1488569", 2)
    two_tablets["arguments"]["dose_unit"] = "tablet"
    assert not run_actions(TASK, [two_tablets])["addon_prescribed"]
    assert run_actions(TASK, [_rx("1545658", 10)], HF)["addon_prescribed"]
    assert not run_actions(TASK, [_rx("1545658", 10)], ASCVD)["addon_prescribed"]
    twice_daily = _rx("1488569", 10)
    twice_daily["arguments"]["frequency"] = 2
    assert not run_actions(TASK, [twice_daily])["addon_prescribed"]


# The weekly GLP-1 RA pens are coded by concentration and fill volume (Ozempic 2 mg/1.5 mL pen,
# Trulicity 0.75 mg/0.5 mL auto-injector): the dose per injection is the order's dose quantity.
SEMAGLUTIDE_PEN, DULAGLUTIDE_PEN = "1991306", "1551295"


def _weekly(code: str, dose: float, unit: str = "mg", **extra) -> dict:
    arguments = {"patient": "{patient_id}", "medication_code": code, "dose_value": dose,
                 "dose_unit": unit, "route": "subcutaneous", "frequency": 1,
                 "period_unit": "week", **extra}
    return {"tool": CREATE, "arguments": {k: v for k, v in arguments.items() if v is not None}}


CORRECT_WEEKLY_ORDERS = {
    "semaglutide_mg": _weekly(SEMAGLUTIDE_PEN, 0.25),
    # micrograms, route left to the pen's usual route, titration in the directions
    "semaglutide_mcg_default_route": _weekly(
        SEMAGLUTIDE_PEN, 250, "mcg", route=None,
        sig="Inject 0.25 mg under the skin once weekly for 4 weeks, then 0.5 mg weekly.",
        note="SGLT2 inhibitor declined after balanitis on canagliflozin."),
    "dulaglutide_milligrams": _weekly(DULAGLUTIDE_PEN, 0.75, "milligrams", duration_days=28,
                                      quantity=2, quantity_unit="mL", refills=2),
    "dulaglutide_micrograms": _weekly(DULAGLUTIDE_PEN, 750, "microgram"),
}
WRONG_WEEKLY_ORDERS = {
    # a weekly drug ordered daily is seven times the dose
    "semaglutide_daily": _weekly(SEMAGLUTIDE_PEN, 0.25, period_unit="day"),
    # the 1 mg (or 0.5 mg maintenance) dose is not the starting dose
    "semaglutide_1mg_start": _weekly(SEMAGLUTIDE_PEN, 1),
    "semaglutide_0.5mg_start": _weekly(SEMAGLUTIDE_PEN, 0.5),
    "dulaglutide_1.5mg_start": _weekly(DULAGLUTIDE_PEN, 1.5),
    "dulaglutide_twice_weekly": _weekly(DULAGLUTIDE_PEN, 0.75, frequency=2),
    # the pen's whole content (2 mg) read from the code instead of the dose per injection
    "semaglutide_pen_content": _weekly(SEMAGLUTIDE_PEN, 2),
    # an injectable pen ordered by mouth
    "semaglutide_oral_route": _weekly(SEMAGLUTIDE_PEN, 0.25, route="oral"),
    # only a proposal, not a prescription
    "dulaglutide_proposal": _weekly(DULAGLUTIDE_PEN, 0.75, intent="proposal"),
}


@pytest.mark.parametrize("case", sorted(CORRECT_WEEKLY_ORDERS))
def test_weekly_glp1_pens_can_be_ordered_in_the_ascvd_variant(case):
    """The note accepts semaglutide and dulaglutide; so must the prescription checkpoint."""
    assert run_actions(TASK, [CORRECT_WEEKLY_ORDERS[case]], ASCVD)["addon_prescribed"]


@pytest.mark.parametrize("case", sorted(WRONG_WEEKLY_ORDERS))
def test_weekly_glp1_pens_at_the_wrong_dose_schedule_or_route_fail(case):
    assert not run_actions(TASK, [WRONG_WEEKLY_ORDERS[case]], ASCVD)["addon_prescribed"]


def test_weekly_glp1_pens_follow_the_scenario():
    sema = _weekly(SEMAGLUTIDE_PEN, 0.25)
    # a GLP-1 RA with kidney/CV benefit is an ADA 2025 option in CKD
    assert run_actions(TASK, [sema])["addon_prescribed"]
    # heart failure calls for an SGLT2 inhibitor: a GLP-1 RA does not fill the order
    assert not run_actions(TASK, [sema], HF)["addon_prescribed"]
    # the declined SGLT2 inhibitor beside a correct pen is still caught
    cana = _rx("1373463", 100)
    assert not run_actions(TASK, [sema, cana], ASCVD)["addon_prescribed"]
