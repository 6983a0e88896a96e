"""ed_premature_ejaculation: the task's derivations and the note phrasings its checkpoints
must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values

TASK = "ed_premature_ejaculation"
NOTE_IDS = {"ed_decision_reasoned", "plan_documented", "workup_documented"}

NITRATE_OK = """Urology e-consult
ED + lifelong PE. On isosorbide mononitrate ER 30 mg daily (cardiology, stable angina).
- Sildenafil contraindicated with nitrate -> not prescribed. No PDE5i.
- Start paroxetine 10 mg PO daily for PE.
- Labs ordered: AM total testosterone (7-10 am; prior random afternoon 268 ng/dL), A1c.
"""

NITRATE_PROSE = (
    "Thank you for referring him. He takes isosorbide mononitrate every morning for angina,\n"
    "and PDE5 inhibitors such as sildenafil are contraindicated with nitrates "
    "because of the risk of\n"
    "profound hypotension, so I have not prescribed sildenafil. "
    "If cardiology were ever able to stop\n"
    "the nitrate, a PDE5 inhibitor could be reconsidered. "
    "For the premature ejaculation I started\n"
    "sertraline 50 mg once daily. "
    "I ordered an early morning total testosterone and a hemoglobin A1c."
)


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


test_a_correct_plan_in_other_words_passes, _ = note_probes(
    TASK, [NITRATE_OK, NITRATE_PROSE], checkpoints=NOTE_IDS)


@pytest.mark.parametrize("wrong", [
    NITRATE_OK.replace("- Sildenafil contraindicated with nitrate -> not prescribed. No PDE5i.",
                       "- Start sildenafil 25 mg PRN; separate from the nitrate by 24 h."),
    NITRATE_PROSE.replace("If cardiology were ever able to stop\n"
                          "the nitrate, a PDE5 inhibitor could be reconsidered.",
                          "Alternatively tadalafil 5 mg could be tried with careful counseling."),
])
def test_a_pde5_inhibitor_with_a_nitrate_fails(wrong):
    assert grade_note(TASK, wrong)["ed_decision_reasoned"] is False


def test_wrong_ssri_dose_or_missing_testosterone_fails():
    assert grade_note(TASK, NITRATE_OK.replace("paroxetine 10 mg", "paroxetine 40 mg"))[
        "plan_documented"] is False
    assert grade_note(TASK, NITRATE_OK.replace("- Start paroxetine 10 mg PO daily",
                                               "- Paroxetine 20 mg PRN 3-4 h before sex"))[
        "plan_documented"] is False
    assert grade_note(TASK, NITRATE_OK.replace(
        "AM total testosterone (7-10 am; prior random afternoon 268 ng/dL), ", ""))[
        "workup_documented"] is False


# review finding 1: a refusal followed by a non-PDE5 alternative is still a refusal
@pytest.mark.parametrize("alt,ok", [
    ("Sildenafil and all PDE5 inhibitors are contraindicated with his isosorbide mononitrate. "
     "Recommend a vacuum erection device.", True),
    ("ED: PDE5i contraindicated (on Imdur). No sildenafil. Offer a vacuum erection device or "
     "intracavernosal alprostadil instead.", True),
    ("Sildenafil is contraindicated with his nitrate. Recommend tadalafil instead.", False),
    ("Start sildenafil 25 mg PRN, skipping NTG for 24 h.", False),
])
def test_refusal_then_alternative(alt, ok):
    note = NITRATE_OK.replace(
        "- Sildenafil contraindicated with nitrate -> not prescribed. No PDE5i.", "- " + alt)
    assert grade_note(TASK, note)["ed_decision_reasoned"] is ok


# review finding 4 / corpus: A1c or fasting glucose; testosterone in the morning, quoted right
@pytest.mark.parametrize("labs,ok", [
    ("- Labs ordered: AM total testosterone (7-10 am; prior 268 ng/dL), fasting glucose.", True),
    ("- Labs ordered: AM total testosterone (7-10 am; prior 268 ng/dL). No HbA1c needed.", False),
    ("- Labs ordered: total testosterone, drawn whenever convenient; A1c. Prior 268 ng/dL.", False),
    ("- Labs ordered: AM total testosterone (7-10 am; prior 368 ng/dL), A1c.", False),
])
def test_workup(labs, ok):
    note = NITRATE_OK.replace("- Labs ordered: AM total testosterone (7-10 am; "
                              "prior random afternoon 268 ng/dL), A1c.", labs)
    assert grade_note(TASK, note)["workup_documented"] is ok


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
    assert grade_note(TASK, _sildenafil_note(25, vals["egfr_old"]), variant)[
        "ed_decision_reasoned"] is False
