"""neurological_weakness_workup: the phenotype and bulbar draws, and the note phrasings its
checkpoints must judge on each branch (statin-associated myopathy, myasthenia gravis, cervical
myelopathy; impending respiratory failure or not)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    medication_request,
    note_probes,
    oracle_calls,
    oracle_note,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "neurological_weakness_workup"
MG = 0            # myasthenia, routine
MYELOPATHY = 1    # cervical myelopathy, routine
MG_URGENT = 8     # myasthenia with bulbar symptoms, FVC 1.7 L, NIF -26
STATIN_V9 = 9     # statin myopathy at another CK
STATIN_URGENT = 22  # statin myopathy with bulbar symptoms, FVC 1.7 L, NIF -26 (review finding 9)
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["phenotype"]["kind"] == "statin_myopathy"
    assert vals["ck"] == 4860 and vals["urgency"] == "routine"
    assert vals["diagnosis_concept"] == ["statin_associated_myopathy"]
    assert RX + "259255" in vals["statin_rxnorm"] and RX + "476350" in vals["statin_rxnorm"]
    assert RX + "309309" not in vals["statin_rxnorm"]


def test_branches_draw_their_cases():
    assert values(TASK, MG)["phenotype"]["kind"] == "myasthenia"
    assert values(TASK, MYELOPATHY)["phenotype"]["kind"] == "myelopathy"
    assert values(TASK, MG_URGENT)["urgency"] == "urgent"
    assert values(TASK, STATIN_V9)["phenotype"]["kind"] == "statin_myopathy"
    assert values(TASK, STATIN_URGENT)["phenotype"]["kind"] == "statin_myopathy"
    assert values(TASK, STATIN_URGENT)["urgency"] == "urgent"
    fq = values(TASK, MG)["fluoroquinolone_rxnorm"]
    assert RX + "309309" in fq and RX + "199885" in fq and RX + "404630" not in fq  # otic excluded


def test_ck_fits_each_branch():
    for n in [None, *range(20)]:
        vals = values(TASK, n)
        if vals["phenotype"]["kind"] == "statin_myopathy":
            assert vals["ck"] > 10 * 198      # >10x ULN: stop the statin (ACC/AHA 2018)
        else:
            assert vals["ck"] <= 198
        assert vals["urgency"] == "routine" or vals["phenotype"]["kind"] != "myelopathy"


CORRECT = [
    "Proximal myopathy, CK 4860 on atorva 80 -> statin-associated myopathy, r/o anti-HMGCR "
    "IMNM. Not MG, no UMN signs. Stop atorvastatin now; no statin rechallenge. Ordered HMGCR "
    "Ab, aldolase, EMG/NCS. If he develops dysphagia, dyspnea or orthopnea -> ED.",
    """Dear Dr. colleague,

Thank you for this referral. His weakness is symmetric and proximal with normal reflexes and
sensation, which points to a myopathy. His creatine kinase is 4,860 U/L, more than twenty times
normal, on atorvastatin 80 mg, so this is a statin-associated myopathy, and I am concerned about
immune-mediated necrotizing myopathy. Please stop the atorvastatin today and do not restart it
or any other statin. I have ordered an anti-HMGCR antibody, an aldolase and an EMG with nerve
conduction studies. Should he develop trouble swallowing or breathing, he should go to the
emergency department right away.""",
    """| Item | Finding |
|---|---|
| CK | 4860 U/L (ULN 198) ↑ |
| Pattern | proximal, symmetric; reflexes normal |
| Diagnosis | statin-associated myopathy (possible anti-HMGCR IMNM) |

Plan
- Discontinue atorvastatin; avoid all statins going forward.
- HMGCR antibody and EMG/NCS ordered.
- ED if dysphagia, dysarthria or shortness of breath develop.""",
    """Assessment: statin-associated myopathy. Current CK 4860 U/L (was 118 three years ago).
Plan:
1. Hold atorvastatin permanently - do not rechallenge with any statin; ezetimibe later for LDL.
2. I have ordered the HMGCR antibody test plus EMG with nerve conduction studies.
3. If he has any difficulty swallowing, speaking or breathing, he needs the emergency department."""
]
# A bare "ED" is no term of its own (every task reads the lexicon supplement, and "3.2 mmol/L in
# the ED" or "metoprolol ER" took it); the ED as a destination ('ED if ...', '-> ED') is read.
BARE_ED = [CORRECT[0], CORRECT[2]]
CORRECT[0] = CORRECT[0].replace("-> ED.", "-> emergency department.")
CORRECT[2] = CORRECT[2].replace("- ED if", "- Go to the ED if")

# Review findings 1, 2 and 5: the diagnosis, the red flags and the key test in other common words.
_TAIL = " Stop atorvastatin today; no statin rechallenge. Ordered HMGCR antibody and EMG/NCS."
_RED = " If he develops dysphagia or dyspnea, go to the ED."
CORRECT += [
    "Impression: a myopathy due to atorvastatin 80 mg, CK 4860 U/L." + _TAIL + _RED,
    "Impression: statin-induced necrotizing myopathy, CK 4860 U/L." + _TAIL + _RED,
    "Impression: statin-induced myositis, CK 4860 U/L." + _TAIL + _RED,
    "Impression: statin-associated muscle symptoms with myopathy (SAMS), CK 4860 U/L, proximal "
    "weakness." + _TAIL + _RED,
    "Assessment: Myopathy - statin-associated, CK 4860 U/L." + _TAIL + _RED,
    "Statin-associated myopathy, CK 4860 U/L." + _TAIL + " If he develops trouble swallowing or "
    "breathing, he should seek emergency care immediately.",
    "Statin-associated myopathy, CK 4860 U/L." + _TAIL + " If he develops trouble swallowing or "
    "breathing, call 911.",
    "Statin-associated myopathy, CK 4860 U/L. Stop atorvastatin today; no statin rechallenge. I "
    "have ordered antibodies against HMG-CoA reductase." + _RED,
    "Statin-associated myopathy, CK 4860 U/L, with anti-HMGCR immune-mediated necrotizing "
    "myopathy to be excluded." + _TAIL + _RED,
]


WRONG = [
    ("localized", CORRECT[0].replace("statin-associated myopathy, r/o anti-HMGCR IMNM. Not MG",
                                     "likely myasthenia gravis. Not a myopathy")),
    ("ck_stated", CORRECT[0].replace("CK 4860", "CK 486")),
    ("ck_stated", CORRECT[0].replace("CK 4860 on atorva 80", "CK 118 on atorva 80")),
    ("workup_documented", CORRECT[0].replace("Ordered HMGCR Ab, aldolase, EMG/NCS.",
                                             "HMGCR antibody could be considered later.")),
    ("medications_advised", CORRECT[0].replace("Stop atorvastatin now; no statin rechallenge.",
                                               "Continue atorvastatin 80 mg for now.")),
    ("medications_advised", CORRECT[0].replace("no statin rechallenge.",
                                               "switch to rosuvastatin 5 mg once CK normalizes.")),
    ("medications_advised", CORRECT[0].replace("Stop atorvastatin now; no statin rechallenge.",
                                               "Hold atorvastatin until the CK normalises, then "
                                               "rechallenge.")),
    ("medications_advised", CORRECT[0].replace("Stop atorvastatin now; no statin rechallenge.",
                                               "Reduce atorvastatin to 20 mg daily.")),
    ("urgency_triaged", CORRECT[0].replace("If he develops dysphagia, dyspnea or orthopnea -> "
                                           "emergency department.",
                                           "Please send him to the emergency department today.")),
    ("urgency_triaged", CORRECT[0].replace(" If he develops dysphagia, dyspnea or orthopnea -> "
                                           "emergency department.", "")),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (MG, MYELOPATHY, MG_URGENT, STATIN_V9, STATIN_URGENT),
                  [None, MG, MYELOPATHY, MG_URGENT, STATIN_V9, STATIN_URGENT]))


@pytest.mark.parametrize("note", BARE_ED)
def test_a_bare_ed_in_red_flags_passes(note):
    assert all(grade_note(TASK, note).values())


MG_NOTE = ("Fatigable ptosis, diplopia and fatigable proximal weakness with normal reflexes: "
           "suspected myasthenia gravis. CK {ck} U/L is normal - not a statin myopathy. Ordered "
           "AChR binding antibodies and repetitive nerve stimulation. Avoid fluoroquinolones and "
           "magnesium. {urgency}")
MG_ROUTINE = "If he develops trouble swallowing or breathing, he should go to the ED immediately."
MG_NOW = "With FVC 1.7 L and NIF -26 he needs the emergency department now for admission."
MYELO_NOTE = ("Hyperreflexia, Hoffmann and Babinski signs: cervical myelopathy. CK {ck} U/L is "
              "normal, so this is not a statin myopathy. {plan} If he develops bladder or bowel "
              "problems, he should go to the emergency department immediately.")


def _mg(variant: int, urgency: str, extra: str = "") -> str:
    return MG_NOTE.format(ck=values(TASK, variant)["ck"], urgency=urgency) + extra


def _myelo(plan: str) -> str:
    return MYELO_NOTE.format(ck=values(TASK, MYELOPATHY)["ck"], plan=plan)


@pytest.mark.parametrize(("variant", "note", "checkpoint", "passed"), [
    (MG, _mg(MG, MG_ROUTINE), "localized", True),
    (MG, _mg(MG, MG_ROUTINE), "workup_documented", True),
    (MG, _mg(MG, MG_ROUTINE), "medications_advised", True),
    (MG, _mg(MG, MG_ROUTINE), "urgency_triaged", True),
    (MG, _mg(MG, MG_ROUTINE, " Levofloxacin is fine if he needs an antibiotic."),
     "medications_advised", False),
    (MG, _mg(MG, MG_ROUTINE, " He may restart magnesium oxide for the cramps."),
     "medications_advised", False),
    (MG, _mg(MG, MG_NOW), "urgency_triaged", False),
    (MG_URGENT, _mg(MG_URGENT, MG_NOW), "urgency_triaged", True),
    (MG_URGENT, _mg(MG_URGENT, MG_ROUTINE), "urgency_triaged", False),
    (MG, _mg(MG, MG_ROUTINE).replace("suspected myasthenia gravis",
                                     "statin-associated myopathy"), "localized", False),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Continue atorvastatin."),
     "workup_documented", True),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Continue atorvastatin."),
     "medications_advised", True),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Continue atorvastatin."),
     "localized", True),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Stop atorvastatin."),
     "medications_advised", False),
    (MYELOPATHY, _myelo("Ordered an MRI of the lumbar spine. Continue atorvastatin."),
     "workup_documented", False),
    # review finding 3: a dose cut or a hold of the statin fails in the cord branch
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Reduce atorvastatin to 40 mg in "
                        "case it contributes."), "medications_advised", False),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Stop atorvastatin for now until "
                        "the CK is rechecked."), "medications_advised", False),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Hold atorvastatin for 4 weeks to "
                        "see whether the weakness improves."), "medications_advised", False),
    # review finding 6: the statin told as not the cause is no decision against it
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. Atorvastatin is not the cause. "
                        "Continue atorvastatin 80 mg daily."), "medications_advised", True),
    (MYELOPATHY, _myelo("Ordered an MRI of the cervical spine. The statin is not the cause; "
                        "there is no need to stop it."), "medications_advised", True),
    (MYELOPATHY, _myelo("I have ordered an MRI of his cervical spine."), "workup_documented",
     True),
    (MYELOPATHY, _myelo("I ordered MRI of the cervical spinal cord."), "workup_documented", True),
    (MG, _mg(MG, MG_ROUTINE).replace("Ordered AChR binding antibodies",
                                     "I have ordered antibodies to the acetylcholine receptor"),
     "workup_documented", True),
    (MG, _mg(MG, MG_ROUTINE, " Leg cramps: resume magnesium oxide 400 mg at night."),
     "medications_advised", False),
    (STATIN_URGENT, oracle_note(TASK).replace("4860", str(values(TASK, STATIN_URGENT)["ck"])),
     "urgency_triaged", False),
])
def test_branch_note_probes(variant, note, checkpoint, passed):
    assert grade_note(TASK, note, variant)[checkpoint] is passed


def test_the_statin_branch_at_another_ck_needs_its_own_value():
    note = oracle_note(TASK)
    assert not grade_note(TASK, note, STATIN_V9)["ck_stated"]
    fixed = note.replace("4860", str(values(TASK, STATIN_V9)["ck"]))
    assert grade_note(TASK, fixed, STATIN_V9)["ck_stated"]


_ROSUVASTATIN = medication_request("859424", 5, 1)
_LEVOFLOXACIN = medication_request("199885", 500, 1)


@pytest.mark.parametrize(("variant", "extra", "passes"), [
    (None, [], True),
    (None, [_ROSUVASTATIN], False),      # a statin switch in the statin myopathy
    (MG, [], True),
    (MG, [_LEVOFLOXACIN], False),        # a fluoroquinolone in myasthenia
    (MYELOPATHY, [_ROSUVASTATIN], False),  # a second statin beside atorvastatin
])
def test_a_harmful_prescription_fails_the_orders(variant, extra, passes):
    finish = {"tool": "finish", "arguments": {"summary": "done"}}
    verdicts = run_actions(TASK, oracle_calls(TASK, variant) + extra + [finish], variant)
    assert verdicts["workup_ordered"] is passes
