"""headache_classification: the diary and profile draws, and the note phrasings its checkpoints
must judge on each branch (chronic migraine with or without medication-overuse headache, or
episodic migraine; asthma or calcium phosphate kidney stones deciding the preventive)."""

from __future__ import annotations

import pytest

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance
from tests.tasks.helpers import branch_probes, grade_note, note_probes, oracle_note, values

TASK = "headache_classification"
CM_NO_MOH_STONES = 0
CM_NO_MOH_ASTHMA = 1
CM_MOH_ASTHMA = 3
EM_ASTHMA = 5
CM_MOH_STONES = 6
EM_STONES = 7
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["diary"]["kind"] == "cm_moh"
    assert vals["diary"]["hd_avg"] == 18 and vals["diary"]["ibu_avg"] == 17
    assert vals["profile"] == {"name": "asthma"}
    assert vals["migraine_concept"] == ["chronic_migraine"]
    assert RX + "856457" in vals["forbidden_rxnorm"]
    first = vals["preventive_options"][0]["ordered"]
    assert first["codes"] == [RX + "199888", RX + "151226"]
    assert first["dose"] == {"min": 25, "max": 50, "unit": "mg"}


def test_branches_draw_their_cases():
    assert values(TASK, CM_NO_MOH_STONES)["diary"]["kind"] == "cm_no_moh"
    assert values(TASK, CM_NO_MOH_STONES)["forbidden_concepts"] == ["topiramate", "zonisamide"]
    assert values(TASK, EM_ASTHMA)["migraine_concept"] == ["episodic_migraine"]
    assert values(TASK, CM_MOH_STONES)["diary"]["kind"] == "cm_moh"
    kinds = {(values(TASK, n)["diary"]["kind"], values(TASK, n)["profile"]["name"])
             for n in range(20)}
    assert len(kinds) == 6


def test_the_diary_counts_fit_their_class():
    for n in [None, *range(20)]:
        diary = values(TASK, n)["diary"]
        chronic = min(diary["hd"]) >= 15 and min(diary["md"]) >= 8
        overuse = chronic and min(diary["ibu"]) >= 15
        assert chronic == diary["kind"].startswith("cm")
        assert overuse == (diary["kind"] == "cm_moh")
        assert min(diary["md"]) >= 6  # prevention offered in every branch (AHS 2019)


CORRECT = [
    "Chronic migraine with medication-overuse headache (ibuprofen 17 d/mo). MRI: nonspecific "
    "white matter hyperintensities, typical of migraine, not MS; no LP or repeat MRI. Start "
    "topiramate 25 mg qhs, titrate to 50 mg bid. Stop daily ibuprofen. No propranolol "
    "(asthma). No opioids or Fioricet.",
    """Assessment:
1. Chronic migraine (18 headache days a month, 10 with migraine features).
2. Medication overuse headache - ibuprofen on about 17 days a month.
3. MRI: four punctate T2/FLAIR foci, nonspecific and common in migraine; they do not suggest
   multiple sclerosis.

Plan:
- Topiramate 25 mg at bedtime, increase weekly to 50 mg twice daily.
- Beta-blockers such as propranolol are contraindicated with her asthma.
- Butalbital (Fioricet) and opioids should be avoided.
- No further imaging or lumbar puncture is needed.""",
    "Dear colleague, her diary shows chronic migraine complicated by medication-overuse "
    "headache from near-daily ibuprofen. The small white-matter foci on her MRI are "
    "nonspecific and seen in many people with migraine; they are not demyelinating lesions, "
    "so she does not need a spinal tap. I have started amitriptyline 10 mg at night. Please "
    "do not prescribe Fioricet or opioids; I would avoid propranolol given her asthma.",
    """Dx:
- >=15 HA d/mo x >3 mo + >=8 migraine d/mo -> CHRONIC MIGRAINE
- Ibuprofen >=15 d/mo -> MEDICATION-OVERUSE HA
- MRI foci: nonspecific; they are not in locations that would suggest multiple sclerosis. No LP.
Plan: topiramate 25 mg qHS, up to 50 mg bid. Propranolol is also first line, but non-selective
beta-blockers can provoke bronchospasm, so it is avoided in her asthma. No Fioricet or opioids.
- Sudden eye pain or blurred vision: stop topiramate and seek urgent care.""",
]

WRONG = [
    ("headache_classified", "Episodic migraine with medication-overuse headache. Nonspecific "
     "white matter hyperintensities, not MS. Start topiramate 25 mg at bedtime. No opioids."),
    ("overuse_interpreted", "Chronic migraine. Her ibuprofen use does not meet criteria for "
     "medication-overuse headache. Nonspecific white matter hyperintensities, not MS. Start "
     "topiramate 25 mg at bedtime. No opioids."),
    ("mri_interpreted", "Chronic migraine with medication-overuse headache. The white matter "
     "lesions are consistent with demyelination. Start topiramate 25 mg at bedtime. No "
     "opioids."),
    ("no_ms_workup", "Chronic migraine with medication-overuse headache. Nonspecific white "
     "matter hyperintensities, not MS, but I recommend a lumbar puncture for oligoclonal bands "
     "to be thorough. Start topiramate 25 mg at bedtime. No opioids."),
    ("preventive_documented", "Chronic migraine with medication-overuse headache. Nonspecific "
     "white matter hyperintensities, not MS. Start propranolol 40 mg twice daily. No "
     "opioids."),
    ("preventive_documented", "Chronic migraine with medication-overuse headache. Nonspecific "
     "white matter hyperintensities, not MS. Start topiramate 25 mg at bedtime; propranolol "
     "is an alternative. No opioids."),
    ("preventive_documented", "Chronic migraine with medication-overuse headache. Nonspecific "
     "white matter hyperintensities, not MS. Start topiramate 25 mg at bedtime.\nOther options: "
     "propranolol 40 mg twice daily. No opioids."),
    ("no_opioid_butalbital", "Chronic migraine with medication-overuse headache. Nonspecific "
     "white matter hyperintensities, not MS. Start topiramate 25 mg at bedtime. Fioricet may "
     "be used for severe attacks."),
]

MUST_NOTS = {"no_ms_workup", "no_opioid_butalbital"}


def grade_with_must_nots(note: str, variant: int | None) -> dict[str, bool]:
    """The note checkpoints plus the two must-nots (orders and note), on an empty EHR: no
    order was written, so only their note part can fail."""
    instance = get_instance(TASK, variant)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    verdicts = grade_note(TASK, note, variant)
    verdicts.update({c.id: c.grader.check(ctx).passed for c in instance_checkpoints(TASK, variant)
                     if c.id in MUST_NOTS})
    return verdicts


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG, grade=grade_with_must_nots))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (CM_NO_MOH_ASTHMA, EM_ASTHMA, CM_MOH_STONES),
                  [None, CM_NO_MOH_STONES, EM_STONES, CM_MOH_STONES]))


@pytest.mark.parametrize(("variant", "checkpoint", "plan", "passed"), [
    # generic warnings about overuse are not a diagnosis of it
    (CM_NO_MOH_ASTHMA, "overuse_interpreted",
     "Ibuprofen on 6 days a month does not cause medication-overuse headache.", True),
    (CM_NO_MOH_ASTHMA, "overuse_interpreted",
     "Her ibuprofen use has caused medication-overuse headache.", False),
    (CM_NO_MOH_ASTHMA, "overuse_interpreted",
     "Opioids and butalbital should not be used because of the risk of MOH.", True),
    (EM_STONES, "preventive_documented", "Topiramate would also be reasonable.", False),
    (CM_MOH_STONES, "preventive_documented", "Topiramate is avoided given her stones.", True),
    # review fixes: kept daily ibuprofen, MS left open, a 400 mg/day topiramate start
    (CM_MOH_ASTHMA, "overuse_interpreted", "Continue ibuprofen 400 mg as needed for headaches.",
     False),
    (CM_MOH_ASTHMA, "mri_interpreted", "MRI: possible early demyelination, MS cannot be excluded.",
     False),
    (CM_MOH_ASTHMA, "preventive_documented", "Start topiramate 200 mg twice daily.", False),
])
def test_branch_reader_probes(variant, checkpoint, plan, passed):
    note = oracle_note(TASK, variant) + "\n\nAddendum:\n- " + plan + "\n"
    assert grade_note(TASK, note, variant)[checkpoint] is passed


EM_NOTE = """Assessment:
1. High-frequency episodic migraine (8 headache days a month).
2. Brain MRI: nonspecific white-matter hyperintensities, common in migraine; not MS.
Plan: start propranolol 40 mg twice daily. Topiramate is avoided because of her stones. No
opioids or butalbital."""


def test_no_moh_branch_needs_the_overuse_question_answered():
    assert not grade_note(TASK, EM_NOTE, EM_STONES)["overuse_interpreted"]
    answered = EM_NOTE.replace("a month).", "a month); no medication-overuse headache.")
    assert grade_note(TASK, answered, EM_STONES)["overuse_interpreted"]


def test_a_repeat_brain_mri_fails_the_must_not():
    note = oracle_note(TASK) + "\n\nPlan addendum:\n- Repeat MRI brain in 6-12 months.\n"
    assert not grade_with_must_nots(note, None)["no_ms_workup"]


def test_the_propranolol_start_stays_at_or_below_160_mg_a_day():
    options = [o["ordered"] for o in values(TASK, CM_NO_MOH_STONES)["preventive_options"]
               if o["ordered"]["codes"] == [RX + "856457"]]
    assert max(o["dose"]["max"] * o["per_day"]["max"] for o in options) <= 160
    assert RX + "864718" in values(TASK)["opioid_rxnorm"]  # methadone
