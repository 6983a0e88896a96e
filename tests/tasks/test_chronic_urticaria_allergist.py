"""Chronic spontaneous urticaria: up-dose cetirizine, avoid sedating antihistamines and long-term
steroids, minimal labs, omalizumab as the next step."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "chronic_urticaria_allergist"
NOTE_CHECKS = {"uncontrolled_csu_assessed", "sedating_and_steroids_avoided",
               "omalizumab_next_step", "plan_documented"}

CORRECT = [
    # terse SOAP
    """Assessment: CSU, UAS7 26/42 - poorly controlled on cetirizine 10 mg daily.
Plan: cetirizine 20 mg PO BID. Stop diphenhydramine (sedating). No further prednisone bursts.
Follow-up in 3 weeks with UAS7 diary.
Next step if refractory: omalizumab 300 mg SC q4 weeks.""",
    # numbered list, fold wording, conditional omalizumab
    """Chronic spontaneous urticaria with moderate activity (UAS7 = 26), inadequately controlled
despite standard-dose cetirizine.
1. Up-dose cetirizine to 4x the standard dose (20 mg twice daily).
2. Discontinue Benadryl - first-generation antihistamines cause sedation.
3. Avoid long-term systemic steroids.
4. Reassess in 2-4 weeks.
5. If UAS7 remains >= 16, add omalizumab (Xolair) 300 mg subcutaneously every 4 weeks.""",
    # brand names, stepwise 2x then 4x, a rescue burst allowed
    """CIU refractory to standard dosing; weekly urticaria activity score 26.
- Increase Zyrtec 10 mg daily -> 10 mg BID now, then 20 mg BID from week 2.
- Hydroxyzine/diphenhydramine not recommended.
- Systemic corticosteroids should not be used long term; short burst only for a severe flare.
- Return visit in 4 weeks; omalizumab 300 mg every 4 weeks would be the next step.""",
    # narrative, daily total, step-down plan for later
    """CSU (UAS7 26) uncontrolled despite standard-dose cetirizine.
Increase cetirizine from 10 mg daily to 20 mg twice daily; once controlled for 3 months, taper
cetirizine by 10 mg/day every month.
Do not use diphenhydramine or hydroxyzine. Prednisone bursts only for a severe flare, maximum
10 days; avoid chronic steroids.
Follow up in 4 weeks. Omalizumab 300 mg SC every 4 weeks is step 3 if she remains
uncontrolled.""",
    # mg/day, 'switch from', passive 'not recommended'
    """Chronic spontaneous urticaria, UAS7 26 - inadequate response to cetirizine 10 mg/day.
Plan: cetirizine 40 mg/day (20 mg morning and evening).
Recommend stopping diphenhydramine; switch from diphenhydramine to the up-dosed cetirizine at
night.
Systemic steroids: not recommended.
Reassess UAS7 in 2 weeks.
Omalizumab 300 mg every 4 weeks as add-on if refractory.""",
]

BASE = ("Chronic spontaneous urticaria, UAS7 26, poorly controlled on cetirizine 10 mg daily.\n"
        "{dose}\nStop diphenhydramine. {steroid}\nReassess in {interval}.\n{omalizumab}")
GOOD = {"dose": "Cetirizine 20 mg PO BID.", "steroid": "Avoid long-term steroids.",
        "interval": "3 weeks", "omalizumab": "If refractory, omalizumab 300 mg SC q4w."}


def _note(**changes: str) -> str:
    return BASE.format(**{**GOOD, **changes})


WRONG = [
    # wrong UAS7 value
    ("Chronic spontaneous urticaria, UAS7 32, poorly controlled on cetirizine 10 mg daily.\n"
     "Cetirizine 20 mg PO BID.\nStop diphenhydramine. Avoid long-term steroids.\n"
     "Reassess in 3 weeks.\nIf refractory, omalizumab 300 mg SC q4w.",
     "uncontrolled_csu_assessed"),
    # states the disease is controlled
    ("Chronic spontaneous urticaria, UAS7 26, is well controlled on cetirizine 10 mg daily.\n"
     "Cetirizine 20 mg PO BID.\nStop diphenhydramine. Avoid long-term steroids.\n"
     "Reassess in 3 weeks.\nIf refractory, omalizumab 300 mg SC q4w.",
     "uncontrolled_csu_assessed"),
    # above fourfold (80 mg a day)
    (_note(dose="Cetirizine 40 mg PO BID."), "plan_documented"),
    # no up-dosing
    (_note(dose="Continue cetirizine 10 mg daily."), "plan_documented"),
    # hedged up-dosing
    (_note(dose="Consider cetirizine 20 mg BID."), "plan_documented"),
    # reassessment too late
    (_note(interval="3 months"), "plan_documented"),
    # up-dose, then retracted
    (_note(dose="Cetirizine 20 mg BID. On reflection, keep cetirizine at the same dose."),
     "plan_documented"),
    # keeps the sedating antihistamine
    (_note(steroid="Continue diphenhydramine 25 mg at bedtime for sleep."),
     "sedating_and_steroids_avoided"),
    # maintenance steroid
    (_note(steroid="Start daily prednisone 10 mg as maintenance."),
     "sedating_and_steroids_avoided"),
    # omalizumab at the wrong dose and interval
    (_note(omalizumab="If refractory, omalizumab 150 mg SC q2 weeks."), "omalizumab_next_step"),
    # omalizumab started now, skipping the up-dosing step
    (_note(omalizumab="Start omalizumab 300 mg SC q4w today."), "omalizumab_next_step"),
    # omalizumab never named
    (_note(omalizumab="Refer to dermatology if refractory."), "omalizumab_next_step"),
]


WRONG_REVIEW = [
    # cetirizine on demand instead of scheduled
    (_note(dose="Cetirizine 20 mg PO daily as needed for hives."), "plan_documented"),
    # a dose that is still the standard 10 mg a day
    (_note(dose="Cetirizine 5 mg PO BID."), "plan_documented"),
    # reassessment far beyond 2-4 weeks
    (_note(interval="6-8 weeks"), "plan_documented"),
    # a six-week steroid course written without a verb
    (_note(steroid="Avoid long-term steroids. Prednisone 20 mg daily for 6 weeks."),
     "sedating_and_steroids_avoided"),
    # maintenance steroid written without a verb
    (_note(steroid="Maintenance prednisone 5 mg daily."), "sedating_and_steroids_avoided"),
    # keeps the sedating antihistamine at night
    (_note(steroid="Avoid long-term steroids; diphenhydramine 25 mg at bedtime is fine."),
     "sedating_and_steroids_avoided"),
    # omalizumab named only to be refused
    (_note(omalizumab="Omalizumab 300 mg SC q4w is not needed."), "omalizumab_next_step"),
    # denies the diagnosis
    ("Not chronic spontaneous urticaria; UAS7 26, poorly controlled on cetirizine 10 mg daily."
     "\nCetirizine 20 mg PO BID.\nStop diphenhydramine. Avoid long-term steroids.\n"
     "Reassess in 3 weeks.\nIf refractory, omalizumab 300 mg SC q4w.",
     "uncontrolled_csu_assessed"),
]


NEWER_AGENT_WRONG = [
    # adolescent (<60 kg) dupilumab regimen
    _note(omalizumab="If refractory, dupilumab 400 mg then 200 mg every 2 weeks."),
    # a wrong loading dose
    _note(omalizumab="If refractory, dupilumab 400 mg loading then 300 mg q2w."),
    # dupilumab every 4 weeks (not the CSU regimen)
    _note(omalizumab="If refractory, dupilumab 600 mg then 300 mg every 4 weeks."),
    # dupilumab loading dose given every 2 weeks
    pytest.param(_note(omalizumab="If refractory, dupilumab 600 mg every 2 weeks."),
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known gap: a schedule is not tied to the loading dose it follows"))),
    # remibrutinib once daily
    _note(omalizumab="If refractory, remibrutinib 25 mg once daily."),
    # remibrutinib 50 mg a dose
    _note(omalizumab="If refractory, remibrutinib 50 mg BID."),
    # started now, before up-dosing ('then' inside the regimen is not a later plan)
    _note(omalizumab="Start dupilumab 600 mg SC today, then 300 mg q2w."),
    _note(omalizumab="Start remibrutinib 25 mg PO BID now."),
    # negated or refused
    _note(omalizumab="Remibrutinib 25 mg BID is not recommended."),
    _note(omalizumab="Refer to dermatology if refractory; avoid remibrutinib 25 mg BID."),
    # the right dupilumab regimen beside a wrong omalizumab schedule
    pytest.param(_note(omalizumab="If refractory, dupilumab 300 mg q2w or omalizumab 300 mg q2w."),
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known gap: one right alternative passes the any-of even beside a wrong "
                     "one"))),
]


STUFFED = """CSU, UAS7 26 18 32, poorly controlled, is well controlled. Cetirizine 20 mg BID.
Continue cetirizine 10 mg daily. Stop cetirizine. Stop diphenhydramine. Continue diphenhydramine.
Avoid steroids. Start prednisone 40 mg daily.
Reassess in 3 weeks and 6 months. Omalizumab 300 mg q4w. Start omalizumab 150 mg now."""


def test_canonical_values():
    vals = values(TASK)
    assert (vals["uas7"], vals["uas7_band"], vals["cetirizine_rxnorm"]) == (26, "moderate",
                                                                          "1014678")


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


_, test_review_wrong_notes_fail = note_probes(TASK, wrong=WRONG_REVIEW)


def test_keyword_stuffing_fails_every_decision():
    verdicts = grade_note(TASK, STUFFED)
    assert not any(verdicts.values()), verdicts


def test_variant_uas7_is_checked():
    seed = next(s for s in range(40) if values(TASK, s)["uas7"] != 26)
    uas7 = values(TASK, seed)["uas7"]
    right = _note().replace("UAS7 26", f"UAS7 {uas7}")
    assert grade_note(TASK, right, seed)["uncontrolled_csu_assessed"]
    assert not grade_note(TASK, _note(), seed)["uncontrolled_csu_assessed"]


CREATE = "fhir_medication_request_create"
ORDER = "fhir_service_request_create"


def _cetirizine(dose: float, unit: str = "mg", per_day: int = 2, **extra) -> dict:
    return {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": "1014678", "dose_value": dose,
        "dose_unit": unit, "route": "oral", "frequency": per_day, "period_unit": "day",
        **extra}}


def _lab(code: str, display: str, system: str = "loinc") -> dict:
    return {"tool": ORDER, "arguments": {"patient": "{patient_id}", "code": code,
                                         "system": system, "display": display,
                                         "category": "laboratory"}}


@pytest.mark.parametrize(("order", "passes"), [
    (_cetirizine(20), True),                          # 20 mg BID: 4x
    (_cetirizine(10), True),                          # 10 mg BID: 2x
    (_cetirizine(2, "tablet"), True),                 # 2 tablets BID
    (_cetirizine(20, per_day=1), True),               # 20 mg once daily: 2x
    (_cetirizine(10, per_day=1), False),              # standard dose
    (_cetirizine(20, per_day=3), False),              # 60 mg a day
    (_cetirizine(20, as_needed=True), False),         # PRN, not scheduled
])
def test_cetirizine_order_dose(order, passes):
    assert run_actions(TASK, [order])["cetirizine_updosed"] is passes


def test_sedating_antihistamine_or_steroid_order_fails():
    hydroxyzine_like = {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": "1049909", "dose_value": 25,
        "dose_unit": "mg", "frequency": 1, "period_unit": "day"}}
    prednisone = {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": "312615", "dose_value": 20,
        "dose_unit": "mg", "frequency": 1, "period_unit": "day"}}
    assert not run_actions(TASK, [_cetirizine(20), hydroxyzine_like])["cetirizine_updosed"]
    assert not run_actions(TASK, [_cetirizine(20), prednisone])["cetirizine_updosed"]


def test_minimal_labs_without_extensive_workup():
    cbc, crp = _lab("57021-8", "CBC with differential"), _lab("1988-5", "CRP")
    esr = _lab("4537-7", "ESR")
    assert run_actions(TASK, [cbc, crp])["minimal_labs_ordered"]
    assert run_actions(TASK, [cbc, esr])["minimal_labs_ordered"]
    assert not run_actions(TASK, [cbc])["minimal_labs_ordered"]
    cbc_no_diff = _lab("58410-2", "CBC panel - Blood by Automated count")
    assert not run_actions(TASK, [cbc_no_diff, crp])["minimal_labs_ordered"]
    hs_crp = _lab("30522-7", "hs-CRP")  # a CRP measured by the high-sensitivity method
    assert run_actions(TASK, [cbc, hs_crp])["minimal_labs_ordered"]
    allergen = _lab("86003", "Allergen specific IgE, food panel", "cpt")
    assert not run_actions(TASK, [cbc, crp, allergen])["minimal_labs_ordered"]
    imaging = {"tool": ORDER, "arguments": {"patient": "{patient_id}", "code": "71046",
                                            "system": "cpt", "display": "Chest X-ray",
                                            "category": "imaging"}}
    assert not run_actions(TASK, [cbc, crp, imaging])["minimal_labs_ordered"]


@pytest.mark.parametrize("note", NEWER_AGENT_WRONG)
def test_newer_agents_wrong_regimen_start_or_negation_fail(note):
    verdicts = grade_note(TASK, note)
    assert verdicts["omalizumab_next_step"] is False
