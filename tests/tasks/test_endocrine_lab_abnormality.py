"""endocrine_lab_abnormality: hyperprolactinemia - the derived prolactin values per scenario, the
note phrasings each checkpoint must judge, and the must-nots (pituitary MRI, dopamine agonist)
probed with orders and with notes.

Canonical: risperidone-induced (prolactin 92 ng/mL). Variant 4 is the macroprolactin scenario
(prolactin 49), variant 0 the suspected prolactinoma (prolactin 163).
"""

from __future__ import annotations

import pytest

from tests.tasks.helpers import get_instance, grade_note, note_probes, oracle_note, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "endocrine_lab_abnormality"
DRUG, MACRO, ADENOMA = None, 4, 0


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "drug"
    assert (vals["prl"], vals["prl_initial"], vals["tsh"]) == (92, 83, 1.9)


def test_branch_values():
    macro, adenoma = values(TASK, MACRO), values(TASK, ADENOMA)
    assert macro["scenario"]["name"] == "macro" and (macro["prl"], macro["prl_initial"]) == (49, 53)
    assert adenoma["scenario"]["name"] == "adenoma" and adenoma["prl"] == 163
    names = {values(TASK, n)["scenario"]["name"] for n in range(20)}
    assert names == {"drug", "macro", "adenoma"}
    for n in range(20):   # each scenario stays in its own prolactin band
        vals = values(TASK, n)
        low, high = {"drug": (62, 128), "macro": (41, 68), "adenoma": (128, 232)}[
            vals["scenario"]["name"]]
        assert low <= vals["prl"] <= high


def test_oracle_notes_pass_every_branch():
    for variant in (DRUG, MACRO, ADENOMA):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    assert not all(grade_note(TASK, canonical, MACRO).values())
    assert not all(grade_note(TASK, canonical, ADENOMA).values())


DATA = "Prolactin 83 -> 92 ng/mL. TSH 1.9 mIU/L (normal). Urine hCG negative.\n"

CORRECT = [
    DATA + """Assessment: risperidone-induced hyperprolactinemia.
Plan: Recommend switching risperidone to aripiprazole, coordinated with psychiatry. Repeat
prolactin 6 weeks after the switch. No pituitary MRI now. No cabergoline.""",
    DATA + """Hyperprolactinemia most likely due to risperidone.
1. Add aripiprazole 5 mg daily (psychiatry to decide).
2. Repeat prolactin in 6 weeks.
3. No pituitary MRI or cabergoline for now; if prolactin stays high after the change, then
   order a pituitary MRI.""",
    """| Test | Result |
|---|---|
| Prolactin (repeat) | 92 ng/mL ↑ |
| TSH | 1.9 mIU/L |
| Pregnancy test | negative |

Drug-induced hyperprolactinemia (risperidone).
- Switch to aripiprazole with psychiatry.
- Recheck prolactin in 4–6 weeks.
- No pituitary MRI now.
- No dopamine agonist.""",
    """Her repeat prolactin is 1950 mIU/L (92 ng/mL) with a TSH of 1.9 mIU/L and a negative
pregnancy test. This is hyperprolactinemia caused by risperidone. I suggest psychiatry switch her
from risperidone to aripiprazole; please recheck prolactin in 4-6 weeks. A pituitary MRI is not
needed now, and she should not start a dopamine agonist.""",
]

WRONG = {
    "stale first prolactin as current": (
        DATA.replace("83 -> 92", "83") + "Risperidone-induced hyperprolactinemia. Switch "
        "risperidone to aripiprazole with psychiatry. Repeat prolactin in 6 weeks. No pituitary "
        "MRI. No cabergoline.", "cause_assessed"),
    "called a prolactinoma": (
        DATA + "Likely a prolactinoma. Switch risperidone to aripiprazole with psychiatry. "
        "Repeat prolactin in 6 weeks. No pituitary MRI. No cabergoline.", "cause_assessed"),
    "MRI now": (
        DATA + "Risperidone-induced hyperprolactinemia. Switch risperidone to aripiprazole with "
        "psychiatry. Repeat prolactin in 6 weeks. Order a pituitary MRI now.", "plan_documented"),
    "cabergoline now": (
        DATA + "Risperidone-induced hyperprolactinemia. Switch risperidone to aripiprazole with "
        "psychiatry. Repeat prolactin in 6 weeks. Start cabergoline 0.25 mg twice weekly. No "
        "pituitary MRI.", "plan_documented"),
    "cabergoline offered as an alternative": (
        DATA + "Risperidone-induced hyperprolactinemia. Switch risperidone to aripiprazole with "
        "psychiatry. Repeat prolactin in 6 weeks. Alternatively, cabergoline could be started.",
        "plan_documented"),
    "hedged switch": (
        DATA + "Risperidone-induced hyperprolactinemia. Could consider aripiprazole in the "
        "future. Repeat prolactin in 6 weeks. No pituitary MRI. No cabergoline.",
        "plan_documented"),
    "no repeat prolactin": (
        DATA + "Risperidone-induced hyperprolactinemia. Switch risperidone to aripiprazole with "
        "psychiatry. No pituitary MRI. No cabergoline.", "plan_documented"),
    "wrong TSH": (
        DATA.replace("TSH 1.9", "TSH 2.4") + "Risperidone-induced hyperprolactinemia.",
        "secondary_causes_excluded"),
    "pregnancy test called positive": (
        DATA.replace("hCG negative", "hCG positive") + "Risperidone-induced hyperprolactinemia.",
        "secondary_causes_excluded"),
}


test_a_correct_plan_in_other_words_passes, test_a_wrong_plan_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_macroprolactin_branch():
    data = "Prolactin 53 -> 49 ng/mL. TSH 1.7 mIU/L. Urine hCG negative.\n"
    good = data + ("Regular cycles, no galactorrhea: macroprolactinemia should be excluded.\n"
                   "Plan: order a macroprolactin screen (PEG precipitation). No pituitary MRI "
                   "unless monomeric prolactin is elevated. No cabergoline.")
    assert all(grade_note(TASK, good, MACRO).values())
    mri = good.replace("No pituitary MRI unless monomeric prolactin is elevated.",
                       "Order a pituitary MRI now.")
    assert not grade_note(TASK, mri, MACRO)["plan_documented"]
    agonist = good.replace("No cabergoline.", "Start cabergoline 0.25 mg twice weekly.")
    assert not grade_note(TASK, agonist, MACRO)["plan_documented"]
    no_screen = data + "Mild hyperprolactinemia. Order a pituitary MRI. No cabergoline."
    verdicts = grade_note(TASK, no_screen, MACRO)
    assert not verdicts["plan_documented"] and not verdicts["cause_assessed"]


def test_adenoma_branch():
    data = "Prolactin 149 -> 163 ng/mL. TSH 1.4 mIU/L. Urine hCG negative.\n"
    good = data + ("Amenorrhea and galactorrhea without a secondary cause: prolactinoma likely.\n"
                   "Plan: pituitary MRI with gadolinium. If the MRI shows an adenoma, start "
                   "cabergoline 0.25 mg twice weekly.")
    assert all(grade_note(TASK, good, ADENOMA).values())
    now = good.replace("If the MRI shows an adenoma, start", "Start") + " now."
    assert not grade_note(TASK, now, ADENOMA)["plan_documented"]
    no_mri = data + "Suspected prolactinoma. Repeat prolactin in 4 weeks. No cabergoline."
    assert not grade_note(TASK, no_mri, ADENOMA)["plan_documented"]
    blamed = data + "Hyperprolactinemia due to risperidone. Plan: pituitary MRI."
    assert not grade_note(TASK, blamed, ADENOMA)["cause_assessed"]


# ---- Orders: the must-nots checked in the EHR ----

def _calls(variant=None, drop=(), extra=()):
    return [{"tool": c.tool, "arguments": dict(c.arguments)}
            for c in get_instance(TASK, variant).oracle.calls
            if c.tool not in drop] + list(extra)


def _sr(code, system, category, display):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category,
        "display": display}}


CABERGOLINE = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient_id}", "medication_code": "199703", "dose_value": 0.25,
    "dose_unit": "mg", "route": "oral", "frequency": 2, "period": 1, "period_unit": "week"}}
MRI = _sr("70553", "cpt", "imaging", "MRI pituitary with and without contrast")


def test_oracle_orders_pass():
    for variant in (DRUG, MACRO, ADENOMA):
        verdicts = run_actions(TASK, _calls(variant), variant)
        assert verdicts["diagnostic_orders"] and verdicts["plan_communicated"], variant


def test_mri_is_a_must_not_unless_adenoma():
    assert not run_actions(TASK, _calls(extra=[MRI]))["diagnostic_orders"]
    assert not run_actions(TASK, _calls(MACRO, extra=[MRI]), MACRO)["diagnostic_orders"]
    assert run_actions(TASK, _calls(ADENOMA, extra=[MRI]), ADENOMA)["diagnostic_orders"]


def test_dopamine_agonist_is_a_must_not():
    for variant in (DRUG, MACRO, ADENOMA):
        assert not run_actions(TASK, _calls(variant, extra=[CABERGOLINE]),
                               variant)["diagnostic_orders"], variant


def test_the_branch_order_is_required():
    drop = ("fhir_service_request_create",)
    assert not run_actions(TASK, _calls(drop=drop))["diagnostic_orders"]
    assert not run_actions(TASK, _calls(MACRO, drop=drop), MACRO)["diagnostic_orders"]
    assert not run_actions(TASK, _calls(ADENOMA, drop=drop), ADENOMA)["diagnostic_orders"]
    # a plain prolactin is not a macroprolactin screen
    plain = _sr("2842-3", "loinc", "laboratory", "Prolactin")
    assert not run_actions(TASK, _calls(MACRO, drop=drop, extra=[plain]),
                           MACRO)["diagnostic_orders"]


# ---- Review probes: a wrong cause beside the right one, the switch, the pregnancy test ----

PLAN = (" Switch risperidone to aripiprazole with psychiatry. Repeat prolactin in 6 weeks. No "
        "pituitary MRI now. No cabergoline.")


@pytest.mark.parametrize("note", [
    DATA + "Risperidone-induced hyperprolactinemia. Prolactinoma is likely." + PLAN,
    DATA + "Risperidone-induced hyperprolactinemia or a prolactinoma, either is possible." + PLAN,
])
def test_a_second_cause_fails_cause_assessed(note):
    assert not grade_note(TASK, note)["cause_assessed"]


@pytest.mark.parametrize("note", [
    DATA + "Hyperprolactinemia most likely due to risperidone." + PLAN,
    DATA + "Risperidone-induced hyperprolactinemia. Recommend psychiatry switch risperidone to "
    "quetiapine, which is prolactin-sparing. Repeat prolactin in 6 weeks. No pituitary MRI now. "
    "No cabergoline.",
    DATA + "Risperidone-induced hyperprolactinemia. Psychiatry to cross-taper risperidone to "
    "aripiprazole. Repeat prolactin in 6 weeks. No pituitary MRI now. No cabergoline.",
    DATA + "Risperidone-induced hyperprolactinemia." + PLAN + " Do not stop risperidone abruptly.",
])
def test_other_correct_drug_plans_pass(note):
    verdicts = grade_note(TASK, note)
    assert all(verdicts.values()), verdicts


def test_abrupt_stop_and_paliperidone_fail():
    stop = (DATA + "Risperidone-induced hyperprolactinemia. Stop risperidone today. Start "
            "aripiprazole 10 mg daily. Repeat prolactin in 6 weeks. No pituitary MRI. No "
            "cabergoline.")
    assert not grade_note(TASK, stop)["plan_documented"]
    pali = DATA + "Risperidone-induced hyperprolactinemia." + PLAN.replace(
        "aripiprazole", "paliperidone")
    assert not grade_note(TASK, pali)["plan_documented"]


def test_macro_branch_rejects_a_wrong_cause():
    data = "Prolactin 53 -> 49 ng/mL. TSH 1.7 mIU/L. Urine hCG negative.\n"
    tail = " Order a macroprolactin screen. No pituitary MRI. No cabergoline."
    for cause in ("Hyperprolactinemia due to risperidone.", "Likely a prolactinoma."):
        assert not grade_note(TASK, data + cause + tail, MACRO)["cause_assessed"], cause
    contingent = data + ("Macroprolactinemia should be excluded. Order a macroprolactin screen. "
                         "No pituitary MRI now; if monomeric prolactin is raised, MRI for a "
                         "prolactinoma. No cabergoline.")
    assert all(grade_note(TASK, contingent, MACRO).values())


@pytest.mark.parametrize(("sentence", "passes"), [
    ("Pregnancy excluded.", True), ("Pregnancy ruled out.", True), ("Not pregnant.", True),
    ("Urine hCG negative twice.", True), ("hCG neg x2.", True),
    ("Urine hCG normal.", False), ("Pregnancy test positive.", False),
    ("Pregnancy has not yet been tested; please send a serum hCG.", False),
])
def test_pregnancy_statements(sentence, passes):
    note = "Prolactin 83 -> 92 ng/mL. TSH 1.9 mIU/L (normal).\n" + sentence
    assert bool(grade_note(TASK, note)["secondary_causes_excluded"]) == passes


# ---- Review probes: orders by other codes, and who gets the message ----

MRI_LOINC = _sr("24587-8", "loinc", "imaging", "MR Brain WO and W contrast IV")
CT_SELLA = _sr("70480", "cpt", "imaging", "CT sella, pituitary protocol")


def test_an_mri_under_loinc_is_a_must_not_and_a_ct_is_no_mri():
    assert not run_actions(TASK, _calls(extra=[MRI_LOINC]))["diagnostic_orders"]
    assert not run_actions(TASK, _calls(MACRO, extra=[MRI_LOINC]), MACRO)["diagnostic_orders"]
    drop = ("fhir_service_request_create",)
    assert not run_actions(TASK, _calls(ADENOMA, drop=drop, extra=[CT_SELLA]),
                           ADENOMA)["diagnostic_orders"]
    bare = {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": "24587-8", "system": "loinc", "category": "imaging"}}
    assert run_actions(TASK, _calls(ADENOMA, drop=drop, extra=[bare]),
                       ADENOMA)["diagnostic_orders"]


def _message(recipient, text):
    return {"tool": "fhir_communication_create_message", "arguments": {
        "patient": "{patient_id}", "recipient": recipient, "text": text}}


def test_messages_are_graded_by_meaning_and_recipient():
    drop = ("fhir_communication_create_message",)
    pcp_only = _message("prac-pcp-01", "Prolactin 92 ng/mL, likely risperidone-induced. Switch "
                        "to aripiprazole; repeat prolactin in 6 weeks. No MRI or cabergoline.")
    assert not run_actions(TASK, _calls(drop=drop, extra=[pcp_only]))["plan_communicated"]
    opposite = _message("prac-pcp-01", "Prolactin 92 ng/mL. Do not switch to aripiprazole; "
                        "order a pituitary MRI and start cabergoline.")
    psych = _message("prac-psychiatry", "Please switch risperidone to aripiprazole.")
    assert not run_actions(TASK, _calls(drop=drop, extra=[opposite, psych]))["plan_communicated"]
    wrong = _message("prac-pcp-01", "Prolactin 163 ng/mL. No MRI needed; repeat prolactin in 3 "
                     "months.")
    assert not run_actions(TASK, _calls(ADENOMA, drop=drop, extra=[wrong]),
                           ADENOMA)["plan_communicated"]
    macro_psych = _message("prac-psychiatry", "Prolactin 49 ng/mL: I ordered a macroprolactin "
                           "screen. No pituitary MRI now. No cabergoline.")
    assert not run_actions(TASK, _calls(MACRO, drop=drop, extra=[macro_psych]),
                           MACRO)["plan_communicated"]
