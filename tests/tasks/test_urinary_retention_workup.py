"""urinary_retention_workup: the task's derivations and the note phrasings its checkpoints
must judge."""

from __future__ import annotations

from tests.tasks.helpers import grade_note, values

TASK = "urinary_retention_workup"
SMALL_VARIANT = 1  # small prostate (17 mL), amitriptyline

NOTE_LARGE = """# Urology e-consult
## Assessment
Acute urinary retention, most likely precipitated by diphenhydramine started 3 weeks ago.
Prostate volume 62 mL on the ultrasound 5 months ago.
## Plan
- Stop diphenhydramine.
- Start tamsulosin 0.4 mg by mouth once daily.
- Start finasteride 5 mg by mouth once daily.
- Trial without catheter in 3 days, with a post-void residual bladder scan.
"""


def test_canonical_values():
    vals = values(TASK)
    assert vals["prostate"]["size"] == "large"
    assert vals["prostate_volume"] == 62
    assert vals["culprit_name"] == "diphenhydramine"
    assert vals["culprit_rxnorm"] == "1049909"


def test_small_branch_values():
    vals = values(TASK, SMALL_VARIANT)
    assert vals["prostate"]["size"] == "small"
    assert vals["prostate_volume"] == 17
    assert vals["culprit_name"] == "amitriptyline"


def test_a_correct_plan_in_other_words_passes():
    verdicts = grade_note(TASK, NOTE_LARGE)
    assert verdicts["precipitant_assessed"] and verdicts["plan_documented"], verdicts


def test_continuing_the_culprit_fails():
    note = NOTE_LARGE.replace("- Stop diphenhydramine.",
                              "- Continue diphenhydramine 25 mg at bedtime.")
    assert not grade_note(TASK, note)["precipitant_assessed"]


def test_stale_pvr_as_volume_fails():
    note = NOTE_LARGE.replace("Prostate volume 62 mL", "Prostate volume 45 mL")
    assert not grade_note(TASK, note)["precipitant_assessed"]


def test_finasteride_for_a_small_prostate_fails():
    note = (NOTE_LARGE.replace("diphenhydramine", "amitriptyline")
            .replace("62 mL", "17 mL"))
    verdicts = grade_note(TASK, note, SMALL_VARIANT)
    assert verdicts["precipitant_assessed"], verdicts
    assert not verdicts["plan_documented"], verdicts
    good = note.replace("- Start finasteride 5 mg by mouth once daily.",
                        "- No finasteride: the prostate is not enlarged.")
    assert grade_note(TASK, good, SMALL_VARIANT)["plan_documented"]


def test_no_voiding_trial_fails():
    note = NOTE_LARGE.replace(
        "- Trial without catheter in 3 days, with a post-void residual bladder scan.\n", "")
    assert not grade_note(TASK, note)["plan_documented"]


# Review findings: each fix pinned by a probe.
import pytest  # noqa: E402

from tests.tasks.helpers_endocrinology import run_actions  # noqa: E402


@pytest.mark.parametrize("line", [
    "- Start alfuzosin ER 10 mg by mouth once daily after the same meal.",
    "- Start silodosin 8 mg by mouth once daily with a meal.",
])
def test_other_alpha_blockers_for_retention_pass(line):
    note = NOTE_LARGE.replace("- Start tamsulosin 0.4 mg by mouth once daily.", line)
    verdicts = grade_note(TASK, note)
    assert verdicts["plan_documented"] and verdicts["precipitant_assessed"], verdicts


@pytest.mark.parametrize("note", [
    NOTE_LARGE.replace("- Stop diphenhydramine.",
                       "- Stop diphenhydramine; switch to hydroxyzine 25 mg at bedtime for sleep."),
    NOTE_LARGE.replace("- Stop diphenhydramine.",
                       "- Stop diphenhydramine; switch to nortriptyline 10 mg at bedtime."),
    NOTE_LARGE + "- Start oxybutynin 5 mg twice daily for bladder spasms.\n",
])
def test_another_strong_anticholinergic_fails(note):
    assert not grade_note(TASK, note)["precipitant_assessed"]


def test_avoiding_the_anticholinergic_class_passes():
    note = NOTE_LARGE + "- Avoid sedating antihistamines and other anticholinergic drugs.\n"
    assert grade_note(TASK, note)["precipitant_assessed"]


@pytest.mark.parametrize("line", [
    "- Start finasteride 0.5 mg by mouth once daily.",
    "- Start dutasteride 5 mg by mouth once daily.",
    "- Start finasteride 5 mg by mouth twice daily.",
    "- Start finasteride 1 mg daily.",
    "- Start finasteride 5 mg daily and dutasteride 0.5 mg daily.",
])
def test_wrong_or_duplicate_5ari_fails(line):
    note = NOTE_LARGE.replace("- Start finasteride 5 mg by mouth once daily.", line)
    assert not grade_note(TASK, note)["plan_documented"]


def test_dutasteride_instead_of_finasteride_passes():
    note = NOTE_LARGE.replace("- Start finasteride 5 mg by mouth once daily.",
                              "- Start dutasteride 0.5 mg by mouth once daily.")
    assert grade_note(TASK, note)["plan_documented"]


def test_second_alpha_blocker_in_note_fails():
    note = NOTE_LARGE + "- Also start doxazosin 4 mg daily.\n"
    assert not grade_note(TASK, note)["plan_documented"]


@pytest.mark.parametrize("phrase", [
    "Prostate 62 mL on the ultrasound 5 months ago.",
    "The ultrasound 5 months ago showed a prostate of 62 mL.",
    "BPH with a 62 mL prostate on the ultrasound 5 months ago.",
    "The ultrasound 5 months ago measured the prostate at 62 mL.",
])
def test_prostate_volume_in_other_words_passes(phrase):
    note = NOTE_LARGE.replace("Prostate volume 62 mL on the ultrasound 5 months ago.", phrase)
    assert grade_note(TASK, note)["precipitant_assessed"]


@pytest.mark.parametrize("line", [
    "- Pull the catheter after 5 days of tamsulosin, with a post-void residual bladder scan.",
    "- Catheter removed for a trial without catheter after 5 days of tamsulosin.",
])
def test_voiding_trial_in_other_words_passes(line):
    note = NOTE_LARGE.replace(
        "- Trial without catheter in 3 days, with a post-void residual bladder scan.", line)
    assert grade_note(TASK, note)["plan_documented"]


TAMSULOSIN = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient_id}", "medication_code": "863669",
    "medication_display": "tamsulosin 0.4 mg capsule",
    "dose_value": 0.4, "dose_unit": "mg", "route": "oral", "frequency": 1, "period_unit": "day",
    "sig": "Take 1 capsule by mouth once daily.", "duration_days": 90, "quantity": 90,
    "refills": 1}}


def _order(code, display, dose):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "medication_display": display,
        "dose_value": dose, "dose_unit": "mg", "route": "oral", "frequency": 1,
        "period_unit": "day", "sig": f"Take {dose} mg by mouth once daily.", "duration_days": 30,
        "quantity": 30, "refills": 0}}


def test_tamsulosin_order_alone_passes():
    assert run_actions(TASK, [TAMSULOSIN])["alpha_blocker_ordered"]


@pytest.mark.parametrize("extra", [
    _order("856783", "amitriptyline 10 mg tablet", 10),
    _order("197627", "doxazosin 4 mg tablet", 4),
])
def test_anticholinergic_or_second_alpha_blocker_order_fails(extra):
    assert not run_actions(TASK, [TAMSULOSIN, extra])["alpha_blocker_ordered"]


@pytest.mark.parametrize("line", [
    "- Hold diphenhydramine; he may resume diphenhydramine if his insomnia requires.",
    "- Hold diphenhydramine until the catheter is out; then restart diphenhydramine.",
    "- Hold the diphenhydramine until he has passed his voiding trial; once he is voiding well "
    "he may resume it at bedtime.",
    "- Hold diphenhydramine until the catheter is out.",
])
def test_a_hold_with_a_resume_fails(line):
    note = NOTE_LARGE.replace("- Stop diphenhydramine.", line)
    assert not grade_note(TASK, note)["precipitant_assessed"]


@pytest.mark.parametrize("order", [
    _order("861132", "alfuzosin 10 mg extended-release tablet", 10),
    _order("809477", "silodosin 8 mg capsule", 8),
])
def test_other_alpha_blocker_orders_pass(order):
    assert run_actions(TASK, [order])["alpha_blocker_ordered"]
