"""ed_premature_ejaculation: the task's derivations and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, values

TASK = "ed_premature_ejaculation"
NOTE_IDS = {"ed_decision_reasoned", "plan_documented"}

NITRATE_OK = """Urology e-consult
ED + lifelong PE. On isosorbide mononitrate ER 30 mg daily (cardiology, stable angina).
- Sildenafil contraindicated with nitrate -> not prescribed. No PDE5i.
- Start paroxetine 10 mg PO daily for PE.
- Labs ordered: AM total testosterone, A1c.
"""

NITRATE_PROSE = """Thank you for referring him. He takes isosorbide mononitrate every morning for angina,
and PDE5 inhibitors such as sildenafil are contraindicated with nitrates because of the risk of
profound hypotension, so I have not prescribed sildenafil. If cardiology were ever able to stop
the nitrate, a PDE5 inhibitor could be reconsidered. For the premature ejaculation I started
sertraline 50 mg once daily. I ordered an early morning total testosterone and a hemoglobin A1c."""


def _sildenafil_note(dose: int, egfr: int) -> str:
    return (f"ED + lifelong PE. eGFR {egfr}.\n"
            f"- Start sildenafil {dose} mg PO 1 h before sex PRN, max once daily. No nitrates.\n"
            "- Start paroxetine 10 mg PO daily for PE.\n"
            "- Labs ordered: AM total testosterone, A1c.\n")


def _variant(name: str) -> int:
    return next(v for v in range(20) if values(TASK, v)["profile"]["name"] == name)


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"]["name"] == "nitrate"
    assert vals["sildenafil_mg"] == 0 and vals["pde5_allowed"] is False
    assert (vals["creat_now"], vals["egfr_now"], vals["crcl"]) == (0.97, 90, 90)
    assert vals["paroxetine_max"] == 20
    assert "tadalafil" in vals["pde5_text"]


def test_branch_values():
    ckd = values(TASK, _variant("ckd4"))
    assert ckd["sildenafil_mg"] == 25 and ckd["egfr_now"] < 30 and ckd["crcl"] < 30
    assert ckd["paroxetine_max"] == 10 and ckd["egfr_old"] > 40
    assert values(TASK, _variant("alpha_blocker"))["sildenafil_mg"] == 25
    assert values(TASK, _variant("standard"))["sildenafil_mg"] == 50


@pytest.mark.parametrize("note", [NITRATE_OK, NITRATE_PROSE])
def test_a_correct_plan_in_other_words_passes(note):
    verdicts = grade_note(TASK, note)
    assert set(verdicts) == NOTE_IDS and all(verdicts.values()), verdicts


@pytest.mark.parametrize("wrong", [
    NITRATE_OK.replace("- Sildenafil contraindicated with nitrate -> not prescribed. No PDE5i.",
                       "- Start sildenafil 25 mg PRN; separate from the nitrate by 24 h."),
    NITRATE_PROSE.replace("If cardiology were ever able to stop\nthe nitrate, a PDE5 inhibitor could be reconsidered.",
                          "Alternatively tadalafil 5 mg could be tried with careful counseling."),
])
def test_a_pde5_inhibitor_with_a_nitrate_fails(wrong):
    assert grade_note(TASK, wrong)["ed_decision_reasoned"] is False


def test_wrong_ssri_dose_or_missing_testosterone_fails():
    assert grade_note(TASK, NITRATE_OK.replace("paroxetine 10 mg", "paroxetine 40 mg"))["plan_documented"] is False
    assert grade_note(TASK, NITRATE_OK.replace("AM total testosterone, ", ""))["plan_documented"] is False


@pytest.mark.parametrize("branch,dose,wrong", [("ckd4", 25, 50), ("alpha_blocker", 25, 50),
                                                ("standard", 50, 25)])
def test_sildenafil_dose_follows_the_chart(branch, dose, wrong):
    variant = _variant(branch)
    egfr = values(TASK, variant)["egfr_now"]
    assert all(grade_note(TASK, _sildenafil_note(dose, egfr), variant).values())
    assert grade_note(TASK, _sildenafil_note(wrong, egfr), variant)["ed_decision_reasoned"] is False
    assert grade_note(TASK, _sildenafil_note(100, egfr), variant)["ed_decision_reasoned"] is False


def test_stale_egfr_fails_in_ckd4():
    variant = _variant("ckd4")
    vals = values(TASK, variant)
    assert grade_note(TASK, _sildenafil_note(25, vals["egfr_old"]), variant)["ed_decision_reasoned"] is False
