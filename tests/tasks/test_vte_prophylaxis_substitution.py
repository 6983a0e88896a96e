"""vte_prophylaxis_substitution: the scenario draw (aspirin-exacerbated respiratory disease or
rifampin), the derived orders, and the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

import pytest

from physbench_gym.tasks.registry import get_instance
from tests.tasks.helpers import grade_note, note_probes, oracle_note, run_oracle, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "vte_prophylaxis_substitution"
RIF = 0     # rifampin for latent TB, postoperative day 9, platelets 317
AERD = 4    # aspirin-exacerbated respiratory disease, postoperative day 9, platelets 293
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "aerd"}
    assert (vals["pod"], vals["plt_now"], vals["days_left"]) == (10, 284, 25)
    assert vals["end_date"] == "2026-05-09"  # surgery 2026-04-04 + 35 days
    assert (vals["rx_code"], vals["rx_dose"], vals["rx_freq"], vals["rx_quantity"]) == (
        "1364435", 2.5, 2, 50)
    assert (vals["course_min_days"], vals["course_max_days"]) == (20, 31)
    options = vals["order_check"][0]["any"]["of"]
    assert [o["all"]["of"][0]["ordered"]["codes"] for o in options] == [
        [RX + "1364435"], [RX + "1114198"]]
    banned = [g["all"]["of"][0]["not_ordered"]["codes"] for g in vals["order_check"][1:5]]
    assert [RX + "243670"] in banned


def test_the_rifampin_branch_prescribes_aspirin_and_no_doac():
    vals = values(TASK, RIF)
    assert vals["scenario"]["kind"] == "rifampin"
    assert vals["rx_code"] == "243670" and vals["rx_quantity"] == vals["days_left"] == 26
    banned = vals["order_check"][1]["all"]["of"][0]["not_ordered"]["codes"]
    assert {RX + c for c in ("1364435", "1364445", "1114198", "1037045", "1599555")} <= set(banned)
    assert values(TASK, AERD)["scenario"]["kind"] == "aerd"
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"aerd", "rifampin"}


CORRECT = [
    (None, "POD10 s/p R THA. Plt 284, stable, no HIT. AERD -> no ASA. Start apixaban 2.5 mg PO "
           "BID from tomorrow through POD 35, then stop. D/c enoxaparin."),
    (None, "Platelet count 284 today, stable. She has AERD so aspirin is contraindicated. Plan: "
           "rivaroxaban 10 mg once daily until postoperative day 35. No more enoxaparin "
           "injections."),
    (None, "| Item | Plan |\n|---|---|\n| Platelets | 284 x10^9/L, stable |\n"
           "| Agent | apixaban 2.5 mg twice daily through 2026-05-09 (POD 35) |\n"
           "| Aspirin | avoid (AERD) |\n"),
    (RIF, "Plt 317 stable. On rifampin for LTBI -> avoid DOACs (apixaban/rivaroxaban) due to "
          "P-gp/CYP3A4 induction. Start aspirin 81 mg daily through POD 35. Stop enoxaparin."),
    (RIF, "Her platelet count today is 317, stable on enoxaparin. Because she takes rifampin, "
          "apixaban and rivaroxaban should not be used. I recommend aspirin 81 mg once daily to "
          "complete 35 days after surgery."),
    (AERD, "Platelets 293 (stable). Aspirin-exacerbated respiratory disease, so no aspirin. "
           "Apixaban 2.5 mg twice daily to postoperative day 35."),
    # PEPPER's US regimen: aspirin 81 mg twice daily
    (RIF, "Plt 317, stable. Rifampin -> no DOACs. Aspirin 81 mg PO BID through POD 35."),
    # the end of the course in a clause of its own
    (None, "Platelets 284, stable, no HIT. AERD: no aspirin. Start apixaban 2.5 mg twice daily on "
           "2026-04-15; last dose on 2026-05-09 (POD 35), then stop."),
    (None, "Platelets 284, stable. AERD, so no aspirin. Start apixaban 2.5 mg orally twice daily "
           "on 2026-04-15 (in place of the next enoxaparin dose); continue to 2026-05-09 (POD 35), "
           "then stop. No further enoxaparin."),
    # a COX-2 inhibitor is tolerated in AERD
    (None, "Platelets 284, stable. Apixaban 2.5 mg twice daily through POD 35; no aspirin (AERD). "
           "Celecoxib is safe for her pain if needed."),
    (None, "Platelets 284, stable. Although EPCAT II supports aspirin after hip arthroplasty, "
           "aspirin is contraindicated here (AERD). Apixaban 2.5 mg twice daily through POD 35."),
]

WRONG = [
    # canonical: aspirin despite AERD
    (None, "contraindication_respected",
     "Platelets 284. Start aspirin 81 mg daily through POD 35."),
    (None, "contraindication_respected",
     "Platelets 284. Start apixaban 2.5 mg twice daily through POD 35. Aspirin 81 mg daily is an "
     "alternative."),
    # canonical: treatment dose
    (None, "substitution_documented",
     "Platelets 284. Start apixaban 5 mg twice daily through POD 35. No aspirin."),
    # canonical: stale platelet count quoted as today's
    (None, "platelets_assessed",
     "Platelets 214, stable. Start apixaban 2.5 mg twice daily through POD 35. No aspirin (AERD)."),
    # canonical: hedged plan
    (None, "substitution_documented",
     "Platelets 284. Could consider apixaban 2.5 mg twice daily. Avoid aspirin."),
    # rifampin: a DOAC
    (RIF, "contraindication_respected",
     "Platelets 317. Start apixaban 2.5 mg twice daily through POD 35."),
    (RIF, "contraindication_respected",
     "Platelets 317. Start aspirin 81 mg daily through POD 35. Alternatively rivaroxaban 10 mg "
     "daily could be used."),
    # rifampin: aspirin at an analgesic dose
    (RIF, "substitution_documented",
     "Platelets 317. Avoid DOACs with rifampin. Start aspirin 325 mg twice daily through POD 35."),
    # the course length (finding 1)
    (None, "substitution_documented",
     "Platelets 284, stable, no HIT. AERD: no aspirin. Start apixaban 2.5 mg twice daily for 6 "
     "months."),
    (None, "substitution_documented",
     "Platelets 284, stable, no HIT. AERD: no aspirin. Start apixaban 2.5 mg twice daily "
     "indefinitely."),
    (None, "substitution_documented",
     "Platelets 284, stable, no HIT. AERD: no aspirin. Start apixaban 2.5 mg twice daily for 7 "
     "more days, then stop."),
    (None, "substitution_documented",
     "Platelets 284, stable. AERD: no aspirin. Start apixaban 2.5 mg twice daily for a full "
     "35-day course, i.e., through 2026-05-19, then stop."),
    (None, "substitution_documented",
     "Platelets 284, stable. AERD: no aspirin. Start apixaban 2.5 mg twice daily tomorrow; last "
     "dose 2026-04-28."),
    (RIF, "substitution_documented",
     "Platelets 317, stable. Rifampin -> no DOACs. Start aspirin 81 mg daily for 6 months."),
    # more enoxaparin beside the substitute (finding 5)
    (None, "substitution_documented",
     "Platelets 284, stable. AERD: no aspirin. Start apixaban 2.5 mg twice daily through POD 35 "
     "and continue enoxaparin 40 mg daily until the apixaban is picked up."),
    # nonselective NSAIDs in AERD (finding 9)
    (None, "contraindication_respected",
     "Platelets 284, stable. AERD: no aspirin. Apixaban 2.5 mg twice daily through POD 35 and add "
     "ibuprofen 400 mg three times daily for pain."),
    (None, "contraindication_respected",
     "Platelets 284, stable. AERD: no aspirin. Apixaban 2.5 mg twice daily through POD 35. "
     "Naproxen 500 mg twice daily for pain."),
    # HIT testing for a stable count (finding 10)
    (None, "platelets_assessed",
     "Platelets 284 today; the swing from 214 raises concern for HIT - check a PF4 ELISA. "
     "Apixaban 2.5 mg twice daily through POD 35; no aspirin (AERD)."),
    # warfarin with rifampin (finding 7)
    (RIF, "contraindication_respected",
     "Platelets 317, stable. Rifampin -> no DOACs. Aspirin 81 mg daily through POD 35; warfarin "
     "is an alternative."),
    # reader gaps, pinned until the engine reads them (KNOWN_GAPS)
    pytest.param(None, "contraindication_respected",
                 "Platelets 284, stable. Start apixaban 2.5 mg twice daily through POD 35, then "
                 "aspirin 81 mg daily for 6 weeks.",
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known_gap: note_never - a later step ('then X') of a forbidden drug plans "
                     "it")), id="then_aspirin"),
    pytest.param(None, "contraindication_respected",
                 "Platelets 284, stable. Start apixaban 2.5 mg twice daily through POD 35, "
                 "followed by aspirin 81 mg daily.",
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known_gap: note_never - a later step ('followed by X') of a forbidden drug "
                     "plans it")), id="followed_by_aspirin"),
    # the EPCAT II pattern (a DOAC for 5 days, then aspirin): the aspirin is a later step, and
    # the aspirin's "through POD 35" is read as the rivaroxaban's time as well
    pytest.param(None, "contraindication_respected",
                 "Platelets 284, stable. Rivaroxaban 10 mg once daily for 5 days, then aspirin "
                 "81 mg daily through POD 35.",
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known_gap: note_never - a later step ('then X') of a forbidden drug plans "
                     "it")), id="epcat2_then_aspirin"),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


def test_the_canonical_note_fails_the_rifampin_branch():
    verdicts = grade_note(TASK, oracle_note(TASK), RIF)
    assert not verdicts["contraindication_respected"]
    assert not verdicts["substitution_documented"]


@pytest.mark.parametrize("variant", [None, RIF])
def test_the_oracle_succeeds_on_each_branch(variant):
    result = run_oracle(TASK, variant)
    assert result.success, result


@pytest.mark.xfail(strict=True, reason=(
    "known_gap: reader - 'X is otherwise an option' after a negation of X is a general statement, "
    "not an offer"))
def test_an_explanatory_aspirin_sentence_passes():  # review finding 11
    note = ("Platelets 284, stable. Aspirin is not appropriate for her because of AERD, although "
            "aspirin is otherwise an option after hip arthroplasty. Apixaban 2.5 mg twice daily "
            "through POD 35.")
    assert grade_note(TASK, note)["contraindication_respected"]


# orders and the message, in scripted episodes (the oracle's actions with one edit)
RX_CREATE, MESSAGE = "fhir_medication_request_create", "fhir_communication_create_message"


def _actions(variant=None, order=None, extra=(), message=None):
    instance = get_instance(TASK, variant)
    calls = []
    for call in instance.oracle.calls:
        arguments = dict(call.arguments)
        if call.tool == RX_CREATE and order:
            arguments.update(order)
        if call.tool == MESSAGE and message:
            arguments["text"] = message
        calls.append({"tool": call.tool, "arguments": arguments})
    calls += list(extra)
    calls.append({"tool": "write_file", "arguments": {"file_path": instance.note_path,
                                                      "content": oracle_note(TASK, variant)}})
    return calls


@pytest.mark.parametrize("variant,order,passes", [
    (None, {}, True),
    (None, {"duration_days": 180, "quantity": 360, "refills": 5}, False),  # 6 months
    (None, {"duration_days": 25, "quantity": 50, "refills": 2}, False),    # refills beyond it
    (None, {"duration_days": 30, "quantity": 60, "refills": 0}, True),     # a 30-day fill
    (None, {"duration_days": 35, "quantity": 70, "refills": 0}, False),    # 35 days from now
    (RIF, {"frequency": 2, "quantity": 52}, True),                         # 81 mg twice daily
    (RIF, {"duration_days": 365, "refills": 11}, False),
])
def test_the_prescription_course(variant, order, passes):
    verdicts = run_actions(TASK, _actions(variant, order), variant)
    assert verdicts["prophylaxis_prescribed"] is passes


def test_the_epcat2_pattern_fails_the_orders():  # review finding 4: the orders catch it
    short = {"medication_code": "1114198", "medication_display": "rivaroxaban 10 mg oral tablet",
             "dose_value": 10, "frequency": 1, "duration_days": 5, "quantity": 5}
    aspirin = {"tool": RX_CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": "243670", "dose_value": 81,
        "dose_unit": "mg", "route": "oral", "frequency": 1, "period_unit": "day",
        "duration_days": 20, "quantity": 20}}
    assert run_actions(TASK, _actions(order=short))["prophylaxis_prescribed"] is False
    assert run_actions(TASK, _actions(extra=[aspirin]))["prophylaxis_prescribed"] is False


def test_warfarin_beside_aspirin_fails():
    warfarin = {"tool": RX_CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": "855332", "dose_value": 5,
        "dose_unit": "mg", "route": "oral", "frequency": 1, "period_unit": "day"}}
    verdicts = run_actions(TASK, _actions(RIF, extra=[warfarin]), RIF)
    assert verdicts["prophylaxis_prescribed"] is False


@pytest.mark.parametrize("variant,text", [
    (None, "Please do NOT start apixaban or rivaroxaban; continue aspirin."),
    (None, "Start apixaban 2.5 mg twice daily; prescription sent."),  # no end of the course
    (None, "Start apixaban 2.5 mg twice daily through POD 35, and continue enoxaparin until the "
           "tablets are picked up."),
    (RIF, "Avoid aspirin; start apixaban 2.5 mg twice daily through POD 35."),
])
def test_a_wrong_message_fails(variant, text):
    verdicts = run_actions(TASK, _actions(variant, message=text), variant)
    assert verdicts["pcp_messaged"] is False


@pytest.mark.xfail(strict=True, reason=(
    "known_gap: reader - 'to day 35' (a day of the postoperative course) is read as no time at "
    "all, unlike 'to postoperative day 35'"))
def test_to_day_35_ends_the_course():
    note = ("Platelets 293 (stable). Aspirin-exacerbated respiratory disease, so no aspirin. "
            "Apixaban 2.5 mg twice daily to day 35.")
    assert grade_note(TASK, note, AERD)["substitution_documented"]
