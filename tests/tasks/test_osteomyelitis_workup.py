"""osteomyelitis_workup: the scenario and ESR draws, and the note phrasings its checkpoints must
judge on each branch (probable osteomyelitis -> bone biopsy; uncertain -> MRI; no antibiotic)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "osteomyelitis_workup"
UNCERTAIN = 0   # ESR 42, X-ray without bone changes
PROBABLE = 2    # ESR 83


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "probable"}
    assert vals["esr"] == 88
    assert vals["workup_concept"] == ["bone_biopsy"]
    assert "http://www.nlm.nih.gov/research/umls/rxnorm|309114" in vals["antibiotic_rxnorm"]


def test_branches_draw_their_scenarios():
    assert values(TASK, UNCERTAIN)["scenario"]["kind"] == "uncertain"
    assert values(TASK, UNCERTAIN)["esr"] == 42
    assert values(TASK, UNCERTAIN)["workup_concept"] == ["foot_mri"]
    assert values(TASK, PROBABLE)["esr"] == 83


CORRECT = [
    (None, "Probable osteomyelitis of the L 1st MT head: PTB+, ESR 88, new cortical erosion on "
           "XR. Plan: bone biopsy for culture and histology. No antibiotics for now."),
    (None, "Assessment: diabetic foot osteomyelitis is likely (ESR 88 mm/h, new erosion on the "
           "X-ray).\nPlan:\n1. Refer for "
           "percutaneous bone biopsy of the first metatarsal head.\n2. Hold antibiotics until the "
           "bone biopsy is done.\n3. Start antibiotics if cellulitis develops."),
    (UNCERTAIN, "Osteomyelitis is possible but not established (ESR 42, X-ray without bone "
                "changes). Order an MRI of the left foot. Do not start antibiotics now."),
    (None, "Probable osteomyelitis (ESR 88 mm/h, positive probe-to-bone, new cortical erosion). "
           "Plan: IR-guided needle biopsy of the L 1st MT head for cultures and pathology. No "
           "antibiotics now. If he develops redness, drainage or fever, start empiric antibiotics "
           "after cultures."),
    (UNCERTAIN, "Osteomyelitis possible (ESR 42 mm/h, X-ray negative). Plan: MRI L foot. Empiric "
                "antibiotics are not indicated."),
]

WRONG = [
    (None, "osteomyelitis_assessed",
     "Osteomyelitis is unlikely. ESR 88. Bone biopsy of the first metatarsal head. No "
     "antibiotics now."),
    (None, "osteomyelitis_assessed",
     "Probable osteomyelitis, ESR 46. Bone biopsy of the first metatarsal head. No antibiotics "
     "now."),
    (None, "antibiotics_withheld_documented",
     "Probable osteomyelitis, ESR 88. Bone biopsy of the first metatarsal head. Start cephalexin "
     "500 mg four times daily now."),
    (None, "antibiotics_withheld_documented",
     "Probable osteomyelitis, ESR 88. Bone biopsy of the first metatarsal head. Start empiric "
     "antibiotics to cover MSSA and Pseudomonas."),
    (None, "workup_documented",
     "Probable osteomyelitis, ESR 88. No biopsy needed. No antibiotics now."),
    (UNCERTAIN, "osteomyelitis_assessed",
     "Osteomyelitis is ruled out: ESR 42, normal X-ray. MRI of the left foot. No antibiotics."),
    (UNCERTAIN, "workup_documented",
     "Osteomyelitis possible, ESR 42. No imaging needed. No antibiotics now."),
    (None, "antibiotics_withheld_documented",
     "Probable osteomyelitis (ESR 88 mm/h, new cortical erosion). Plan: bone biopsy for culture "
     "and histology. ABI ordered."),
    (None, "antibiotics_withheld_documented",
     "Probable osteomyelitis (ESR 88 mm/h, new cortical erosion). Bone biopsy. Start doxycycline "
     "100 mg twice daily now."),
    (None, "antibiotics_withheld_documented",
     "Probable osteomyelitis (ESR 88 mm/h, new cortical erosion). Bone biopsy. Start "
     "piperacillin-tazobactam now."),
    (None, "osteomyelitis_assessed",
     "Probable osteomyelitis (ESR 88 mm/h, positive probe-to-bone); X-ray shows no cortical "
     "erosion. Bone biopsy. No antibiotics now."),
    (UNCERTAIN, "osteomyelitis_assessed",
     "Osteomyelitis possible (ESR 42 mm/h); the X-ray shows new cortical erosion. MRI of the left "
     "foot. No antibiotics now."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (UNCERTAIN, PROBABLE), [None, UNCERTAIN, PROBABLE]))
