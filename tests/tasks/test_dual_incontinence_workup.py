"""dual_incontinence_workup: the scenario and residual draws, and the note phrasings its
checkpoints must judge on each branch (sphincter weakness, impaction with overflow, cauda
equina syndrome)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "dual_incontinence_workup"
SPHINCTER = 1       # sphincter weakness, PVR 42 mL
OVERFLOW = 3        # fecal impaction with overflow, PVR 357 mL
CAUDA = 0           # suspected cauda equina syndrome, PVR 620 mL
NOTE_CHECKPOINTS = {"mechanism_assessed", "urinary_component_assessed", "plan_documented",
                    "oxybutynin_stopped"}


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "sphincter"}
    assert vals["pvr"] == 35
    assert vals["urinary_concept"] == ["stress_urinary_incontinence"]
    assert vals["urinary_opposite"] == ["urinary_retention"]
    assert vals["oxybutynin_codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|863619"]
    assert "loperamide" in vals["antidiarrheal_text"]
    assert "http://www.ama-assn.org/go/cpt|91122" in vals["anorectal_test_codes"]


def test_branches_draw_their_scenarios():
    assert values(TASK, SPHINCTER)["scenario"]["kind"] == "sphincter"
    assert values(TASK, SPHINCTER)["pvr"] == 42
    assert values(TASK, OVERFLOW)["scenario"]["kind"] == "overflow"
    assert values(TASK, OVERFLOW)["urinary_concept"] == ["urinary_retention"]
    assert values(TASK, CAUDA)["scenario"]["kind"] == "cauda_equina"
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"sphincter", "overflow", "cauda_equina"}
    for n in range(20):
        vals = values(TASK, n)
        assert (vals["pvr"] < 50) == (vals["scenario"]["kind"] == "sphincter")


SPHINCTER_NOTE = (
    "Assessment: fecal incontinence from anal sphincter weakness after her obstetric anal "
    "sphincter injury. Stress urinary incontinence; PVR 35 mL, normal emptying.\n"
    "Plan: order anorectal manometry and endoanal ultrasound. Refer for pelvic floor biofeedback. "
    "Stop oxybutynin.")
OVERFLOW_NOTE = (
    "Assessment: fecal impaction with overflow incontinence. Urinary retention with overflow, "
    "PVR 357 mL.\n"
    "Plan: disimpaction with enemas, then PEG 3350 17 g daily. No loperamide. Stop oxybutynin. "
    "Repeat bladder scan in 2 weeks after disimpaction.")
CAUDA_NOTE = (
    "Assessment: suspected cauda equina syndrome. Urinary retention, PVR 620 mL.\n"
    "Plan: emergency MRI lumbar spine today - send her to the ED now. Stop oxybutynin. "
    "Anorectal manometry only if the spine MRI excludes cauda equina compression.")

CORRECT = [
    (None, SPHINCTER_NOTE),
    (None, """| Problem | Finding |
|---|---|
| Fecal incontinence | weak anal sphincter after a third-degree tear |
| Urine | stress incontinence, post-void residual 35 mL |

Plan:
- Anorectal manometry and endoanal ultrasound ordered.
- Start pelvic floor physical therapy with biofeedback.
- Discontinue oxybutynin."""),
    (OVERFLOW, OVERFLOW_NOTE),
    (CAUDA, CAUDA_NOTE),
    # review findings 4, 5, 14: the reason for stopping oxybutynin is no denial of stress
    # incontinence; other names of the mechanism; a residual with another wording or beside
    # the voided volume
    (None, SPHINCTER_NOTE.replace("Stop oxybutynin.",
                                  "Stop oxybutynin; it does not treat stress incontinence.")
     .replace("Stress urinary incontinence; PVR", "Stress urinary incontinence with PVR")),
    (None, SPHINCTER_NOTE.replace(
        "anal sphincter weakness after her obstetric anal sphincter injury",
        "a weak external anal sphincter from the third-degree tear")),
    (None, SPHINCTER_NOTE.replace("PVR 35 mL",
                                  "bladder scan voided 260 mL, residual volume 35 mL")),
    # finding 8: the repeat scan timed by the disimpaction
    (OVERFLOW, OVERFLOW_NOTE.replace(
        "Repeat bladder scan in 2 weeks after disimpaction.",
        "I ordered a repeat post-void residual bladder scan in 1-2 weeks once she is "
        "disimpacted.")),
    # findings 2, 3: other names of the lumbar MRI and of retention
    (CAUDA, CAUDA_NOTE.replace("Urinary retention, PVR 620 mL",
                               "Urine retention, PVR 620 mL")),
    (CAUDA, "Assessment: suspected cauda equina syndrome. She is in retention with a PVR of "
            "620 mL.\n"
            "Plan:\n- Urgent lumbar MRI today and same-day spine surgery assessment.\n"
            "- Stop oxybutynin."),
]

WRONG = {
    "impaction_in_sphincter_branch": (None, "mechanism_assessed", SPHINCTER_NOTE.replace(
        "anal sphincter weakness after her obstetric anal sphincter injury",
        "fecal impaction with overflow")),
    "stale_pvr": (None, "urinary_component_assessed", SPHINCTER_NOTE.replace(
        "PVR 35 mL", "PVR 160 mL")),
    "retention_in_sphincter_branch": (None, "urinary_component_assessed", SPHINCTER_NOTE.replace(
        "Stress urinary incontinence", "Urinary retention with overflow")),
    "no_manometry": (None, "plan_documented", SPHINCTER_NOTE.replace(
        "order anorectal manometry and endoanal ultrasound", "order endoanal ultrasound")),
    "oxybutynin_increased": (None, "oxybutynin_stopped", SPHINCTER_NOTE.replace(
        "Stop oxybutynin.", "Increase oxybutynin to 5 mg three times daily.")),
    "switch_to_solifenacin": (None, "oxybutynin_stopped", SPHINCTER_NOTE.replace(
        "Stop oxybutynin.", "Stop oxybutynin and start solifenacin 5 mg daily.")),
    "loperamide_for_overflow": (OVERFLOW, "plan_documented", OVERFLOW_NOTE.replace(
        "No loperamide.", "Loperamide 2 mg as needed for the liquid stools.")),
    "outpatient_mri": (CAUDA, "plan_documented", CAUDA_NOTE.replace(
        "emergency MRI lumbar spine today - send her to the ED now",
        "MRI lumbar spine in 6 weeks")),
    "manometry_first": (CAUDA, "plan_documented", CAUDA_NOTE.replace(
        "Anorectal manometry only if the spine MRI excludes cauda equina compression.",
        "Also order anorectal manometry and biofeedback.")),
    # review finding 1: an MRI without the same-day emergency assessment
    "routine_mri": (CAUDA, "plan_documented", CAUDA_NOTE.replace(
        "emergency MRI lumbar spine today - send her to the ED now",
        "outpatient MRI lumbar spine")),
    "mri_then_clinic": (CAUDA, "plan_documented", CAUDA_NOTE.replace(
        "emergency MRI lumbar spine today - send her to the ED now",
        "MRI lumbar spine; GI clinic follow-up in 6 weeks")),
    # finding 6: the other bladder antimuscarinics
    "switch_to_fesoterodine": (None, "oxybutynin_stopped", SPHINCTER_NOTE.replace(
        "Stop oxybutynin.", "Stop oxybutynin and start fesoterodine 4 mg daily.")),
    "switch_to_enablex": (None, "oxybutynin_stopped", SPHINCTER_NOTE.replace(
        "Stop oxybutynin.", "Stop oxybutynin and start Enablex 7.5 mg daily.")),
    # finding 7: another antidiarrheal for the overflow
    "lomotil_for_overflow": (OVERFLOW, "plan_documented", OVERFLOW_NOTE.replace(
        "No loperamide.", "Lomotil 2.5 mg as needed for the liquid stools.")),
    # a denied alternative of the differential affirms nothing (w10 of the corpus)
    "neuropathy_not_sphincter": (None, "mechanism_assessed", SPHINCTER_NOTE.replace(
        "anal sphincter weakness after her obstetric anal sphincter injury",
        "diabetic autonomic neuropathy; no cauda equina")),
}

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG, checkpoints=NOTE_CHECKPOINTS)

test_canonical_note_fails_other_branches, test_oracle_succeeds_on_each_branch = branch_probes(
    TASK, others=[SPHINCTER, OVERFLOW, CAUDA], oracle_on=[None, SPHINCTER, OVERFLOW, CAUDA])
