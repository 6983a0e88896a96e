"""pulmonary_pet_surveillance: the derived nodule profile, and the orders and note phrasings its
checkpoints must judge on each branch (biopsy, 3-month CT, routine surveillance)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tasks.helpers import get_instance, grade_note, note_probes, oracle_note, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "pulmonary_pet_surveillance"
ROUTINE, SHORT_CT = 1, 2          # seeds drawing the stable nodule and the new 6-7 mm nodule


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == "biopsy"
    assert (vals["size_mm"], vals["long_mm"], vals["short_mm"], vals["suv"]) == (14, 15, 13, 6.2)
    assert vals["blood_pool_suv"] == 2.0
    assert vals["lobe"] == "right upper lobe"
    assert vals["window_low"] == "" and vals["occurrence"] == ""


def test_branches():
    short = values(TASK, SHORT_CT)
    assert short["profile"] == "short_ct" and short["size_mm"] == 6 and short["suv"] == 1.0
    routine = values(TASK, ROUTINE)
    assert routine["profile"] == "routine" and routine["size_mm"] == 4 and routine["suv"] == 0.9
    profiles = [values(TASK, n)["profile"] for n in range(20)]
    assert set(profiles) == {"biopsy", "short_ct", "routine"}
    for n in range(20):
        v = values(TASK, n)
        if v["profile"] == "biopsy":
            assert 9 <= v["size_mm"] <= 18 and v["suv"] > v["blood_pool_suv"]
        elif v["profile"] == "short_ct":
            assert 6 <= v["size_mm"] <= 7 and v["suv"] < v["blood_pool_suv"]
        else:
            assert 4 <= v["size_mm"] <= 6 and v["suv"] < v["blood_pool_suv"]


BIOPSY_BASE = "New 14 mm spiculated RUL nodule, SUVmax 6.2; the staging CT showed no nodule there. "
SHORT_BASE = "New 6 mm LLL nodule (SUVmax 1.0); the staging CT showed no nodule. "
ROUTINE_BASE = ("The 4 mm RLL nodule (SUVmax 0.9) is unchanged since the staging CT almost 3 "
                "years ago. ")

CORRECT = [
    (None, BIOPSY_BASE + "Plan: CT-guided core needle biopsy. No repeat PET/CT."),
    (None, """| Finding | Value |
|---|---|
| Nodule | 14 mm, new since the staging CT |
| SUVmax | 6.2 (blood pool 2.0) |
Recommendation: navigational bronchoscopy with biopsy; tumor board with the pathology."""),
    (None, ("This new 14 mm right upper lobe nodule has an SUVmax of 6.2 in a former heavy smoker "
            "treated for laryngeal cancer, so metastasis or a second primary lung cancer is "
            "likely. "
            "I have ordered a CT-guided biopsy. Another PET would add nothing.")),
    (SHORT_CT, SHORT_BASE + "PET cannot characterize a nodule this small. Plan: chest CT in 3 "
     "months. No biopsy now; if it grows, biopsy."),
    (SHORT_CT, "Assessment: new 6 mm nodule, SUV 1.0.\nPlan:\n- Repeat chest CT in 12 weeks\n"
     "- If it grows, PET/CT or biopsy"),
    (ROUTINE, ROUTINE_BASE + "Benign behavior: no further nodule imaging, no biopsy, no PET. "
     "Resume annual LDCT screening, next due in 12 months."),
    (ROUTINE, ("The 4 mm RLL nodule (SUVmax 0.9) was already present on the staging CT at the "
               "same size. No further work-up. Annual LDCT in 12 months.")),
    # the status word beside the noun leaves the noun to the size
    (None, "The new nodule measures 14 mm with an SUVmax of 6.2. CT-guided core biopsy. "
           "No repeat PET."),
    (None, "The new RUL nodule measures 14 mm with an SUVmax of 6.2. CT-guided biopsy."),
    (None, "New RUL nodule, 14 mm, SUVmax 6.2. CT-guided biopsy."),
    (None, "New RUL nodule: 14 mm, SUVmax 6.2. CT-guided biopsy."),
    (None, "New RUL nodule (14 mm, SUVmax 6.2). CT-guided biopsy."),
    (None, "The newly detected nodule in the RUL measures 14 mm, SUVmax 6.2. CT-guided biopsy."),
    (SHORT_CT, "New LLL nodule, 6 mm, SUVmax 1.0. Plan: chest CT in 3 months. No biopsy now."),
    # surgical diagnosis (ACCP 2013 5.7.1)
    (None, BIOPSY_BASE + "Plan: refer to thoracic surgery for VATS wedge resection of the nodule, "
     "diagnostic and therapeutic. No repeat PET."),
    # a 3-month low-dose CT (Lung-RADS 4A); no SUVmax needed below PET resolution
    (SHORT_CT, SHORT_BASE + "Plan: low-dose chest CT in 3 months. No biopsy or PET now."),
    (SHORT_CT, "6 mm LLL nodule, new since the staging CT; below PET resolution. Chest CT in 3 "
     "months."),
    (ROUTINE, "The 4 mm RLL nodule, non-avid, is unchanged since the staging CT. Annual LDCT "
     "in 12 months."),
    # routine: annual screening continued or resumed, or a chest CT in 12 months
    (ROUTINE, ROUTINE_BASE + "Benign. Resume annual LDCT screening."),
    (ROUTINE, ROUTINE_BASE + "No further work-up. Continue yearly low-dose CT screening."),
    (ROUTINE, ROUTINE_BASE
     + "No further nodule work-up, no biopsy, no PET. CT chest in 12 months."),
    (ROUTINE, ("The 4 mm RLL nodule (SUVmax 0.9) was not described on the interval PET/CTs, but "
               "it is present and unchanged on the staging CT. Annual LDCT in 12 months.")),
]

WRONG = [
    # biopsy branch: surveillance instead of tissue, a hedged alternative, a repeat PET
    (None, "plan_documented", BIOPSY_BASE + "Repeat CT chest in 3 months."),
    (None, "plan_documented", BIOPSY_BASE + "Biopsy, or alternatively repeat CT in 3 months."),
    (None, "nodule_assessed", "14 mm RUL nodule, SUVmax 6.2, unchanged since staging. "
     "CT-guided biopsy."),
    (None, "nodule_assessed", "New RUL nodule, 9 mm, SUVmax 6.2. CT-guided biopsy."),
    (None, "nodule_assessed", "New 14 mm RUL nodule, SUVmax 2.0. CT-guided biopsy."),
    # short-interval branch: PET again, biopsy now, a year's interval
    (SHORT_CT, "plan_documented", SHORT_BASE + "Plan: CT-guided biopsy."),
    (SHORT_CT, "plan_documented", SHORT_BASE + "Plan: CT chest in 12 months."),
    (SHORT_CT, "nodule_assessed", "The 6 mm LLL nodule (SUVmax 1.0) is stable compared with "
     "the staging CT. CT chest in 3 months."),
    # routine branch: a short-interval CT, a biopsy, a nodule called new
    (ROUTINE, "plan_documented", ROUTINE_BASE + "Biopsy recommended. Annual LDCT in 12 months."),
    (ROUTINE, "nodule_assessed", "New 4 mm RLL nodule, SUV 0.9. Annual LDCT in 12 months."),
    (ROUTINE, "plan_documented", ROUTINE_BASE + "Repeat CT chest in 3 months. Annual LDCT in 12 "
     "months."),
    (ROUTINE, "plan_documented", ROUTINE_BASE + "Refer to thoracic surgery for wedge resection. "
     "Continue annual LDCT screening."),
    (SHORT_CT, "plan_documented", SHORT_BASE + "Plan: chest CT in 3 months. Refer to thoracic "
     "surgery for wedge resection now."),
    (SHORT_CT, "nodule_assessed", "6 mm LLL nodule, new since the staging CT, SUVmax 1.4. Chest CT "
     "in 3 months."),
    # a new nodule called present on earlier imaging
    (None, "nodule_assessed", "The 14 mm RUL nodule (SUVmax 6.2) is already present on the "
     "staging CT. CT-guided biopsy."),
    # the PET check: continued or resumed PET surveillance
    (None, "no_repeat_pet", BIOPSY_BASE + "CT-guided biopsy.\nPlan:\n- Continue PET/CT "
     "surveillance every 12 months."),
    (ROUTINE, "no_repeat_pet", ROUTINE_BASE + "\nPlan:\n- Resume PET/CT surveillance in 6 months."),
    (SHORT_CT, "no_repeat_pet",
     SHORT_BASE + "\nPlan:\n- Continue surveillance PET/CT every 6 months"),
]

# Phrasings the note reader misreads today; pinned so a reader change shows up.
READER_GAPS = [
    (SHORT_CT, "plan_documented",
     SHORT_BASE + "Plan: CT chest in 3 months or CT-guided biopsy now."),
    (ROUTINE, "plan_documented", ROUTINE_BASE + "Repeat CT chest in 3 months, then annual LDCT in "
     "12 months."),
]


@pytest.mark.xfail(reason="note reader: offered 'or' alternative, 'then' sequence timing",
                   strict=False)
@pytest.mark.parametrize(("variant", "target", "note"), READER_GAPS)
def test_reader_gaps_fail_their_checkpoint(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    assert not all(grade_note(TASK, canonical, SHORT_CT).values())
    assert not all(grade_note(TASK, canonical, ROUTINE).values())


# ---- must-not: no repeat PET, in orders and in the note ----

def _oracle_actions(variant=None, note=None, extra=()):
    instance = get_instance(TASK, variant)
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)} for c in instance.oracle.calls]
    text = instance.oracle.note if note is None else note
    return calls + list(extra) + [{"tool": "write_file", "arguments": {
        "file_path": instance.note_path, "content": text}}]


def _sr(code, system, category, **extra):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category, **extra}}


@pytest.mark.parametrize("variant", [None, SHORT_CT, ROUTINE])
def test_oracle_actions_pass(variant):
    verdicts = run_actions(TASK, _oracle_actions(variant), variant)
    assert all(verdicts.values()), verdicts


@pytest.mark.parametrize("variant", [None, SHORT_CT, ROUTINE])
def test_a_pet_order_fails(variant):
    actions = _oracle_actions(variant, extra=[_sr("78815", "cpt", "imaging")])
    assert run_actions(TASK, actions, variant)["followup_ordered"] is False


PET_NOTES = [
    (None, BIOPSY_BASE + "CT-guided biopsy. Repeat PET/CT in 3 months."),
    (SHORT_CT, SHORT_BASE + "Plan: repeat PET/CT in 3 months."),
    (SHORT_CT, SHORT_BASE + "Plan: CT chest in 3 months. A PET/CT could also be considered."),
    (ROUTINE, ROUTINE_BASE + "Repeat PET in 6 months. Annual LDCT in 12 months."),
]


@pytest.mark.parametrize(("variant", "note"), PET_NOTES)
def test_a_repeat_pet_in_the_note_fails(variant, note):
    actions = _oracle_actions(variant, note=note)
    assert run_actions(TASK, actions, variant)["no_repeat_pet"] is False


def test_a_pet_only_if_the_nodule_grows_is_allowed():
    note = SHORT_BASE + "Plan: CT chest in 3 months. If it grows, PET/CT or biopsy."
    assert run_actions(TASK, _oracle_actions(SHORT_CT, note=note), SHORT_CT)["no_repeat_pet"]


# ---- orders per branch ----

def test_biopsy_branch_needs_a_biopsy_order():
    actions = [a for a in _oracle_actions() if a["arguments"].get("code") != "32408"]
    assert run_actions(TASK, actions)["followup_ordered"] is False
    bronch = actions + [_sr("31628", "cpt", "procedure")]
    assert run_actions(TASK, bronch)["followup_ordered"] is True


def _without_ct(variant):
    return [a for a in _oracle_actions(variant)
            if a["tool"] != "fhir_service_request_create"]


def _days(variant, n):
    return (get_instance(TASK, variant).values["now"] + timedelta(days=n)).date().isoformat()


@pytest.mark.parametrize(("variant", "days", "passes"), [
    (SHORT_CT, 90, True), (SHORT_CT, 14, False), (SHORT_CT, 365, False),
    (ROUTINE, 365, True), (ROUTINE, 90, False),
])
def test_the_ct_date_decides(variant, days, passes):
    actions = _without_ct(variant) + [_sr("71250", "cpt", "imaging",
                                          occurrence=_days(variant, days))]
    assert run_actions(TASK, actions, variant)["followup_ordered"] is passes


@pytest.mark.parametrize("variant", [SHORT_CT, ROUTINE])
def test_an_undated_ct_or_a_biopsy_fails(variant):
    undated = _without_ct(variant) + [_sr("71250", "cpt", "imaging")]
    assert run_actions(TASK, undated, variant)["followup_ordered"] is False
    biopsy = _oracle_actions(variant) + [_sr("32408", "cpt", "procedure")]
    assert run_actions(TASK, biopsy, variant)["followup_ordered"] is False


# ---- review probes: surgical diagnosis, other PET and biopsy codes, the order's own note ----

def test_a_surgical_diagnosis_is_accepted_on_the_biopsy_branch():
    actions = [a for a in _oracle_actions() if a["arguments"].get("code") != "32408"]
    wedge = actions + [_sr("32666", "cpt", "procedure")]
    assert run_actions(TASK, wedge)["followup_ordered"] is True
    referral = actions + [_sr("3457005", "snomed", "referral",
                              reason="VATS wedge resection of the RUL nodule")]
    assert run_actions(TASK, referral)["followup_ordered"] is True


@pytest.mark.parametrize("code", ["78811", "78812"])
def test_a_pet_under_another_code_fails(code):
    actions = _oracle_actions(extra=[_sr(code, "cpt", "imaging")])
    assert run_actions(TASK, actions)["followup_ordered"] is False


@pytest.mark.parametrize("code", ["31627", "32666"])
def test_bronchoscopy_or_resection_fails_the_short_ct_branch(code):
    actions = _oracle_actions(SHORT_CT, extra=[_sr(code, "cpt", "procedure")])
    assert run_actions(TASK, actions, SHORT_CT)["followup_ordered"] is False


def test_no_biopsy_in_the_ct_orders_note_is_no_biopsy_order():
    actions = _without_ct(SHORT_CT) + [_sr("71250", "cpt", "imaging",
                                           occurrence=_days(SHORT_CT, 90), note="No biopsy now.")]
    assert run_actions(TASK, actions, SHORT_CT)["followup_ordered"] is True


def _with_message(variant, text):
    actions = _oracle_actions(variant)
    for action in actions:
        if action["tool"] == "fhir_communication_create_message":
            action["arguments"] = {**action["arguments"], "text": text}
    return actions


@pytest.mark.parametrize(("variant", "text"), [
    (None, "New RUL nodule. No biopsy needed; repeat CT chest in 3 months."),
    (SHORT_CT, "New LLL nodule; repeat PET/CT in 3 months."),
    (SHORT_CT, "New LLL nodule. CT chest in 12 months."),
    (ROUTINE, "The RLL nodule cannot be called stable or benign; I recommend a biopsy."),
])
def test_a_message_with_the_wrong_plan_fails(variant, text):
    assert run_actions(TASK, _with_message(variant, text), variant)["pcp_message_sent"] is False


def test_a_nodule_not_called_new_fails_its_status():
    note = "RUL nodule 14 mm, SUVmax 6.2. CT-guided biopsy. No repeat PET."
    assert grade_note(TASK, note)["nodule_assessed"] is False
    assert grade_note(TASK, "New 14 mm RUL nodule, SUVmax 6.2. CT-guided biopsy. No repeat "
                            "PET.")["nodule_assessed"] is True
