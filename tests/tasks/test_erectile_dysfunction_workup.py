"""erectile_dysfunction_workup: the task's derivations, the branch answers, and the note and order
phrasings its checkpoints must judge (PDE5 inhibitor by medication list, testosterone next step,
no testosterone therapy)."""

from __future__ import annotations

import pytest

from physbench_gym.tasks.registry import get_instance
from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "erectile_dysfunction_workup"
NOTE_IDS = {"pde5_plan", "testosterone_next_step", "risk_factors_documented",
            "no_testosterone_therapy"}
NOTE_PATH = "/workspace/output/consult_note.md"


def _variant(profile: str, t_state: str) -> int:
    return next(v for v in range(20) if values(TASK, v)["med_profile"]["name"] == profile
                and values(TASK, v)["t_state"] == t_state)


# canonical: PRN sublingual nitroglycerin, one low early-morning testosterone (251),
# A1c 6.1, LDL 121
NITRATE_TERSE = """Urology e-consult - ED
CV risk: A1c 6.1% (prediabetes), LDL 121 mg/dL, ex-smoker, HTN.
On SL NTG 0.4 mg PRN (cardiology, LAD stent).
- Tadalafil contraindicated with nitrates (incl. PRN NTG) -> not prescribed. No PDE5i.
- AM total T 251 ng/dL x1 - not diagnostic. Repeat fasting AM total testosterone (7-10 am) ordered.
- No testosterone therapy - trying to conceive.
"""

NITRATE_PROSE = (
    "Thank you for this referral. His A1c is 6.1% and his LDL cholesterol is 121 mg/dL, and "
    "he has a drug-eluting stent with sublingual nitroglycerin prescribed as needed by "
    "cardiology. Because PDE5 inhibitors such as tadalafil can cause profound hypotension with "
    "any nitrate, I have not prescribed tadalafil. If cardiology decides he no longer needs "
    "nitroglycerin, a PDE5 inhibitor could be reconsidered; meanwhile a vacuum erection device "
    "or alprostadil can be discussed in clinic.\n"
    "His total testosterone was 251 ng/dL on a single early-morning draw; the diagnosis needs a "
    "second low value, so I ordered a repeat early-morning total testosterone before 10 am.\n"
    "Testosterone therapy is not appropriate: he and his wife are trying to conceive.\n"
)


def _pde5_note(drug_line: str, t_line: str, a1c: float, ldl: int) -> str:
    return (f"ED e-consult. A1c {a1c}%, LDL {ldl} mg/dL.\n- {drug_line}\n- {t_line}\n"
            "- No testosterone therapy (trying to conceive).\n")


def test_canonical_values():
    vals = values(TASK)
    assert vals["med_profile"]["name"] == "prn_nitrate" and vals["pde5_allowed"] is False
    assert vals["t_state"] == "single_low" and vals["tt_latest"] == 251
    assert (vals["a1c"], vals["a1c_old"], vals["ldl"], vals["ldl_old"]) == (6.1, 5.9, 121, 140)
    assert vals["pde5_order_options"] == [] and vals["ldl_mmol"] == 3.1
    assert vals["tadalafil_daily_max"] == 0 and vals["pde5_rx_options"] == []


def test_branch_values():
    alpha = values(TASK, _variant("alpha_blocker", "confirmed_low"))
    assert alpha["tadalafil_mg"] == 5 and alpha["tadalafil_code"] == "403957"
    assert alpha["t_confirmed"] and alpha["tt_latest"] == alpha["tt_second"] < 264
    standard = values(TASK, _variant("standard", "single_low"))
    assert standard["tadalafil_mg"] == 10 and standard["tadalafil_code"] == "484814"
    assert not standard["t_confirmed"] and standard["tt_first"] < 264
    # review finding 9: every draw below the harmonized lower limit (264 ng/dL)
    assert all(max(values(TASK, v)["tt_first"], values(TASK, v)["tt_second"]) < 264
               for v in range(20))
    assert sum(values(TASK, v)["med_profile"]["name"] == "prn_nitrate" for v in range(20)) <= 4


test_a_correct_plan_in_other_words_passes, _ = note_probes(
    TASK, [NITRATE_TERSE, NITRATE_PROSE], checkpoints=NOTE_IDS)


@pytest.mark.parametrize("wrong", [
    NITRATE_TERSE.replace("- Tadalafil contraindicated with nitrates (incl. PRN NTG) -> not "
                          "prescribed. No PDE5i.",
                          "- Start tadalafil 5 mg PRN; avoid NTG within 48 h of a dose."),
    NITRATE_PROSE.replace("If cardiology decides he no longer needs nitroglycerin, a PDE5 "
                          "inhibitor could be reconsidered;",
                          "Alternatively, sildenafil 25 mg could be tried if he prefers;"),
    # review finding 1: spacing doses around nitroglycerin is no trigger
    NITRATE_TERSE.replace("- Tadalafil contraindicated with nitrates (incl. PRN NTG) -> not "
                          "prescribed. No PDE5i.",
                          "- Tadalafil is contraindicated with nitroglycerin; tadalafil 5 mg "
                          "may be used if he has not taken nitroglycerin in the prior 48 "
                          "hours."),
    NITRATE_TERSE.replace("- Tadalafil contraindicated with nitrates (incl. PRN NTG) -> not "
                          "prescribed. No PDE5i.",
                          "- No PDE5 inhibitor as a rule. If he avoids nitroglycerin for 48 hours "
                          "after a dose, tadalafil 10 mg as needed is acceptable."),
])
def test_a_pde5_inhibitor_with_nitroglycerin_fails(wrong):
    assert grade_note(TASK, wrong)["pde5_plan"] is False


@pytest.mark.parametrize("t_line,ok", [
    ("Repeat fasting AM total testosterone (7-10 am) ordered; AM testosterone now 251 ng/dL.",
     True),
    ("Repeat total testosterone, any time of day is fine; AM testosterone now 251 ng/dL.", False),
    ("Total testosterone 452 ng/dL - normal; no repeat needed.", False),
    ("Repeat AM total testosterone (7-10 am) ordered; AM testosterone now 215 ng/dL.", False),
    # review finding 7: the on-file value in the plan is no repeat order; one value
    # diagnoses nothing
    ("Morning testosterone 251 ng/dL (low).", False),
    ("AM total testosterone 251 ng/dL - low; check LH.", False),
    ("Testosterone deficiency confirmed (AM total testosterone 251 ng/dL). Order LH and prolactin "
     "and a repeat morning total testosterone.", False),
    ("TT 251 ng/dL x1, not diagnostic. Repeat AM TT (7-10 am, fasting) ordered.", True),
])
def test_single_low_testosterone(t_line, ok):
    note = NITRATE_TERSE.replace(
        "- AM total T 251 ng/dL x1 - not diagnostic. Repeat fasting AM total testosterone "
        "(7-10 am) ordered.", "- " + t_line)
    assert grade_note(TASK, note)["testosterone_next_step"] is ok


def test_stale_risk_values_fail():
    assert grade_note(TASK, NITRATE_TERSE.replace("A1c 6.1%", "A1c 5.9%"))[
        "risk_factors_documented"] is False
    assert grade_note(TASK, NITRATE_TERSE.replace("LDL 121 mg/dL", "LDL 140 mg/dL"))[
        "risk_factors_documented"] is False
    assert grade_note(TASK, NITRATE_TERSE.replace("LDL 121 mg/dL", "LDL 3.1 mmol/L"))[
        "risk_factors_documented"] is True


@pytest.mark.parametrize("profile,good,bad", [
    ("alpha_blocker", "Start tadalafil 5 mg PO 30-60 min before sex PRN, max once daily.",
     "Start tadalafil 10 mg PO before sex PRN, max once daily."),
    ("alpha_blocker", "Start sildenafil 25 mg PO 1 h before sex PRN, max once daily.",
     "Start sildenafil 50 mg PO 1 h before sex PRN, max once daily."),
    ("standard", "Start tadalafil 10 mg PO 30-60 min before sex PRN, max once daily.",
     "Start tadalafil 20 mg PO before sex PRN, max once daily."),
    ("standard", "Start tadalafil 2.5 mg PO once daily.",
     "No PDE5 inhibitor for now; revisit after the testosterone results."),
    # review findings 5 and 6: standing daily 5 mg with doxazosin, twice daily, two agents
    ("alpha_blocker", "Start tadalafil 5 mg PO before sex PRN, max once daily.",
     "Start tadalafil 5 mg by mouth once daily; continue doxazosin 4 mg."),
    ("standard", "Start tadalafil 10 mg PO before sex PRN, max once daily.",
     "Start tadalafil 10 mg twice daily."),
    ("standard", "Start tadalafil 10 mg PO before sex PRN, max once daily.",
     "Start tadalafil 10 mg as needed before sex. Also start sildenafil 50 mg as needed."),
    ("alpha_blocker", "Start tadalafil 5 mg PO before sex PRN, max once daily.",
     "Start tadalafil 5 mg as needed before sex, or sildenafil 100 mg as needed."),
])
def test_pde5_dose_follows_the_medication_list(profile, good, bad):
    variant = _variant(profile, "single_low")
    vals = values(TASK, variant)
    t_line = (f"Single early-morning testosterone {vals['tt_first']} ng/dL; repeat early-morning "
              "total testosterone (7-10 am) ordered.")
    assert grade_note(TASK, _pde5_note(good, t_line, vals["a1c"], vals["ldl"]), variant)[
        "pde5_plan"] is True
    assert grade_note(TASK, _pde5_note(bad, t_line, vals["a1c"], vals["ldl"]), variant)[
        "pde5_plan"] is False


@pytest.mark.parametrize("t_line,ok", [
    ("Testosterone deficiency confirmed on two early-morning values ({a} and {b} ng/dL); "
     "order serum LH.", True),
    ("Hypogonadism confirmed (AM T {b} ng/dL, second low value). Check LH; prolactin if LH "
     "low/normal.", True),
    ("Testosterone deficiency confirmed on two early-morning values. Repeat testosterone only.",
     False),
    ("Testosterone 452 ng/dL, no hypogonadism. Order LH anyway.", False),
    # review finding 8: the stale afternoon value quoted as current
    # ('Current total testosterone 452 ng/dL' is read as a 'from' value by the note reader)
    ("Testosterone deficiency confirmed. His total testosterone is 452 ng/dL now. Order serum LH.",
     False),
])
def test_confirmed_low_testosterone(t_line, ok):
    variant = _variant("alpha_blocker", "confirmed_low")
    vals = values(TASK, variant)
    note = _pde5_note("Start tadalafil 5 mg PO before sex PRN, max once daily.",
                      t_line.format(a=vals["tt_first"], b=vals["tt_second"]),
                      vals["a1c"], vals["ldl"])
    assert grade_note(TASK, note, variant)["testosterone_next_step"] is ok


def test_the_canonical_note_fails_the_other_branches():
    canonical = get_instance(TASK).oracle.note
    for profile, t_state in (("standard", "single_low"), ("alpha_blocker", "confirmed_low")):
        verdicts = grade_note(TASK, canonical, _variant(profile, t_state))
        assert not all(verdicts.values()), (profile, t_state, verdicts)


# must-not: testosterone therapy, in the note and in the orders
def _oracle_actions(variant=None, note=None, extra=()):
    instance = get_instance(TASK, variant)
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)} for c in instance.oracle.calls]
    calls += list(extra)
    calls.append({"tool": "write_file", "arguments": {"file_path": NOTE_PATH,
                                                      "content": note or instance.oracle.note}})
    return calls


@pytest.mark.parametrize("allowance", [
    "If the repeat testosterone is again low, start testosterone cypionate 100 mg IM weekly.",
    "Testosterone gel (AndroGel) is a reasonable option if he prefers.",
    "TRT could be considered for his energy.",
    "If the repeat is again < 300 ng/dL, start testosterone gel 1.62% 40.5 mg daily.",
    "Meanwhile short trial of testosterone gel 1% 50 mg daily for 3 months, then reassess.",
])
def test_testosterone_therapy_in_the_note_fails(allowance):
    note = get_instance(TASK).oracle.note + "\n" + allowance + "\n"
    assert grade_note(TASK, note)["no_testosterone_therapy"] is False


def test_testosterone_turned_down_passes():
    assert run_actions(TASK, _oracle_actions())["no_testosterone_therapy"] is True
    note = (get_instance(TASK).oracle.note
            + "\nDo not start testosterone replacement: it would suppress sperm production.\n")
    assert run_actions(TASK, _oracle_actions(note=note))["no_testosterone_therapy"] is True


def test_pde5_orders():
    rx = "fhir_medication_request_create"

    def tadalafil(code, mg):
        return {"tool": rx, "arguments": {"patient": "{patient_id}", "medication_code": code,
                                          "dose_value": mg, "dose_unit": "mg", "route": "oral",
                                          "as_needed": True}}
    alpha = _variant("alpha_blocker", "single_low")
    base = [c for c in _oracle_actions(alpha) if c["tool"] != rx]
    assert run_actions(TASK, base + [tadalafil("403957", 5)], alpha)["pde5_order_safe"]
    assert not run_actions(TASK, base + [tadalafil("484814", 10)], alpha)["pde5_order_safe"]
    assert not run_actions(TASK, base, alpha)["pde5_order_safe"]
    # canonical (nitroglycerin): any PDE5 inhibitor order fails
    assert run_actions(TASK, _oracle_actions())["pde5_order_safe"]
    assert not run_actions(TASK, _oracle_actions(extra=[tadalafil("403957", 5)]))[
        "pde5_order_safe"]
    # review finding 5/6: once daily 5 mg with doxazosin, twice daily, two PDE5 orders
    daily5 = tadalafil("403957", 5)
    daily5["arguments"] = {**daily5["arguments"], "as_needed": False, "frequency": 1}
    assert not run_actions(TASK, base + [daily5], alpha)["pde5_order_safe"]
    standard = _variant("standard", "single_low")
    sbase = [c for c in _oracle_actions(standard) if c["tool"] != rx]
    bid = tadalafil("484814", 10)
    bid["arguments"] = {**bid["arguments"], "as_needed": False, "frequency": 2}
    assert run_actions(TASK, sbase + [tadalafil("484814", 10)], standard)["pde5_order_safe"]
    assert not run_actions(TASK, sbase + [bid], standard)["pde5_order_safe"]
    assert not run_actions(TASK, sbase + [tadalafil("484814", 10), tadalafil("484814", 10)],
                           standard)["pde5_order_safe"]


def test_message_spacing_nitroglycerin_fails():
    """Review finding 3: the message the PCP acts on must not approve tadalafil."""
    calls = _oracle_actions()
    for call in calls:
        if call["tool"] == "fhir_communication_create_message":
            call["arguments"] = {**call["arguments"], "text": (
                "Urology e-consult: OK to start tadalafil 10 mg as needed; just skip "
                "nitroglycerin for 48 h after a dose.")}
    assert run_actions(TASK, calls)["pde5_order_safe"] is False


def test_testosterone_order_fails():
    """Review finding 4: a testosterone prescription is placed and fails the check."""
    order = {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": "835840",
        "medication_display": "testosterone cypionate 200 MG/ML Injectable Solution",
        "dose_value": 100, "dose_unit": "mg", "route": "intramuscular", "frequency": 1,
        "period": 1, "period_unit": "week"}}
    assert run_actions(TASK, _oracle_actions(extra=[order]))["testosterone_labs_ordered"] is False


@pytest.mark.parametrize("line,ok", [
    # review finding 2: offers in other words fail, a trigger on the nitrate passes
    ("Tadalafil is contraindicated with nitroglycerin; vardenafil 10 mg as needed is fine.", False),
    ("Tadalafil is contraindicated with nitroglycerin. Avanafil 100 mg as needed is a "
     "shorter-acting alternative.", False),
    ("PDE5 inhibitors are contraindicated while he has nitroglycerin prescribed; a PDE5 inhibitor "
     "can be reconsidered once cardiology discontinues the nitroglycerin.", True),
])
def test_offers_and_triggers_in_the_nitrate_branch(line, ok):
    note = ("ED e-consult. A1c 6.1%, LDL 121 mg/dL.\n- " + line + "\n- Repeat AM total "
            "testosterone (7-10 am) ordered; AM testosterone now 251 ng/dL.\n- No testosterone "
            "therapy (trying to conceive).\n")
    assert grade_note(TASK, note)["pde5_plan"] is ok
