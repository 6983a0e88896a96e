"""pulsatile_tinnitus_workup: otoscopy and the fundus exam pick the first study for right
pulsatile tinnitus (papilledema -> MRI brain with MR venography and ophthalmology; normal eyes
and drum -> CTA head and neck; a vascular retrotympanic mass -> CT temporal bone, no biopsy),
never a head CT or a catheter angiogram first, with the orders and note phrasings each branch
must judge."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "pulsatile_tinnitus_workup"
IIH = 5  # normal otoscopy, papilledema (like the canonical case)
VASCULAR = 0  # normal otoscopy, sharp discs
GLOMUS = 9  # red retrotympanic mass, sharp discs
GLOMUS_P = 3  # retrotympanic mass drawn with papilledema: the mass decides, discs sharp


def test_canonical_values():
    vals = values(TASK)
    assert (vals["otoscopy"], vals["papilledema"], vals["path"]) == ("normal", True, "iih")
    assert (vals["bmi"], vals["weight_kg"]) == (37.4, 95.7)
    assert "papilledema" in vals["fundus_text"] and "no retrotympanic mass" in vals["otoscopy_text"]
    cpt = "http://www.ama-assn.org/go/cpt|"
    assert vals["catheter_codes"] == [cpt + str(c) for c in range(36221, 36229)]
    assert cpt + "69440" in vals["middle_ear_procedure_codes"]


def test_branches():
    assert values(TASK, IIH)["path"] == "iih"
    assert values(TASK, VASCULAR)["path"] == "vascular"
    glomus = values(TASK, GLOMUS_P)
    assert (glomus["path"], glomus["papilledema"], glomus["disc_edema"]) == ("glomus", True, False)
    assert "sharp" in glomus["fundus_text"] and "Brown" not in glomus["otoscopy_text"]
    assert "red, pulsating mass" in glomus["otoscopy_text"]
    draws = [values(TASK, n)["path"] for n in range(20)]
    assert draws.count("iih") <= 4  # the canonical answer replays on few variants
    assert set(draws) == {"iih", "vascular", "glomus"}


NORMAL_EARS = "Otoscopy normal, no retrotympanic mass. "
EDEMA = "Dilated fundus exam: bilateral papilledema (Frisen 2); suspected IIH.\n"
SHARP = "Fundus exam: discs sharp, no papilledema.\n"
MASS = "Otoscopy: red pulsatile retrotympanic mass (Brown sign), likely glomus tympanicum. "
IIH_PLAN = (
    "Plan: MRI brain with and without contrast and MR venography - ordered. Urgent "
    "ophthalmology. No CT head. No catheter angiography."
)
CTA_PLAN = "Plan: CTA head and neck - ordered. No non-contrast head CT."
CT_TB_PLAN = (
    "Plan: CT temporal bones without contrast - ordered. Do not biopsy the mass. No head CT."
)

CORRECT = [
    (None, NORMAL_EARS + EDEMA + IIH_PLAN),
    (
        None,
        """Normal TMs. Papilledema on the optometry exam, concerning for idiopathic intracranial
hypertension.
## Plan
- MRI brain w/wo contrast with MR venography (ordered)
- Urgent ophthalmology referral for visual fields
- LP with opening pressure after imaging
- Avoid a non-contrast head CT; catheter angiography only if the MRV is equivocal""",
    ),
    (
        None,
        "Otoscopy is normal. The dilated exam showed swollen optic discs. I have ordered an "
        "MRI of the brain with contrast and an MR venogram. A head CT is not needed.",
    ),
    (
        IIH,
        "| Exam | Finding |\n|---|---|\n| Otoscopy | normal tympanic membranes |\n| Fundus | "
        "bilateral papilledema |\n\nRecommend MRI brain with and without gadolinium plus MRV now; "
        "CT venography if MRI is unavailable. No head CT.",
    ),
    (VASCULAR, NORMAL_EARS + SHARP + CTA_PLAN + " Catheter angiography if the CTA is negative."),
    (
        VASCULAR,
        "Normal otoscopic exam; normal fundi. I recommend CT angiography of the head and "
        "neck. Do not order a non-contrast CT head.",
    ),
    (
        VASCULAR,
        "Otoscopy: no retrotympanic mass. Fundus exam: no papilledema. Plan: MRA head and "
        "neck (ordered). No CT head.",
    ),
    (GLOMUS, MASS + "Fundus normal, no papilledema.\n" + CT_TB_PLAN),
    (
        GLOMUS,
        "Right vascular middle ear mass, consistent with a paraganglioma. Optic discs are "
        "sharp. I ordered a high-resolution temporal bone CT. No biopsy of the middle ear mass in "
        "clinic. A head CT would not help.",
    ),
    (
        GLOMUS_P,
        MASS + "Discs are sharp.\n" + CT_TB_PLAN + " MRI with contrast after the CT to "
        "define extent.",
    ),
    # the Mollan 2018 fallback: CT with CT venography when MRI cannot be done within 24 hours
    (
        None,
        NORMAL_EARS + EDEMA + "Plan: MRI brain with and without contrast and MRV within 24 "
        "hours. If MRI cannot be done within 24 hours, CT head with CT venography instead.",
    ),
    # a glomus named only to exclude it; the old MRI described, not declined
    (
        None,
        "The drums are normal, so there is nothing in the middle ear to suggest a glomus "
        "tumour. Fundus: bilateral papilledema.\n2022 MRI = non-con, no MRV -> not useful.\n"
        "Plan: urgent MRI brain w/o+w contrast + MRV head (ordered). No CT head.",
    ),
    (
        None,
        "Ear exam normal. Drums normal bilaterally. Papilledema on the optometry exam.\n"
        "Plan: MRI + MRV brain today. If the MRI/MRV is normal, LP with opening pressure.",
    ),
    (
        None,
        NORMAL_EARS + EDEMA + "Plan: gadolinium-enhanced MRI of the brain and orbits with MR "
        "venography; no CT.",
    ),
    # ACR Tinnitus variant 1: CT temporal bone without contrast is usually appropriate too
    (
        VASCULAR,
        NORMAL_EARS + SHARP + "Plan: CT temporal bones without contrast to look for "
        "sigmoid sinus dehiscence. No head CT.",
    ),
    (
        VASCULAR,
        NORMAL_EARS + SHARP + "Plan: CTA head and neck ordered. Normal CTA -> consider "
        "catheter angiography if suspicion persists.",
    ),
    (
        GLOMUS,
        "Red vascular mass behind the right TM. Discs sharp.\n"
        + CT_TB_PLAN
        + " Surgical excision after the CT, via otology referral.",
    ),
]

WRONG = [
    # the fundus or the drum misread
    (None, "fundus_assessed", NORMAL_EARS + SHARP + IIH_PLAN),
    (VASCULAR, "fundus_assessed", NORMAL_EARS + EDEMA + CTA_PLAN),
    (GLOMUS, "otoscopy_assessed", NORMAL_EARS + SHARP + CT_TB_PLAN),
    (VASCULAR, "otoscopy_assessed", MASS + SHARP + CTA_PLAN),
    # the wrong first study, a missing venogram, a head CT or catheter angiogram
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: CT head without contrast - ordered.",
    ),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: MRI brain with and without contrast - ordered. No CT head.",
    ),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: CT head first; MRI brain and MRV only if the CT is abnormal.",
    ),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: MRI brain and MRV. A head CT "
        "is reasonable if she wants reassurance.",
    ),
    # papilledema: imaging within 24 hours, and no lumbar puncture before it
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: MRI brain with and without "
        "contrast and MRV in 3 months. No CT head.",
    ),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: routine MRI brain with and "
        "without contrast and MRV. No CT head.",
    ),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: lumbar puncture with opening "
        "pressure today, then MRI brain w/wo contrast and MRV. No CT head.",
    ),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: LP first to measure opening "
        "pressure; MRI brain and MRV afterwards.",
    ),
    # an ear exam that was not found is no normal ear exam
    (
        None,
        "otoscopy_assessed",
        "I couldn't find an ear exam in the chart, so I can't say whether "
        "there's a retrotympanic mass. " + EDEMA + IIH_PLAN,
    ),
    (VASCULAR, "imaging_plan_documented", NORMAL_EARS + SHARP + "Plan: CTA neck only. No head CT."),
    (
        None,
        "imaging_plan_documented",
        NORMAL_EARS + EDEMA + "Plan: MRI brain and MRV - ordered. "
        "Cerebral angiography also ordered. No head CT.",
    ),
    (
        VASCULAR,
        "imaging_plan_documented",
        NORMAL_EARS + SHARP + "Plan: non-contrast CT head - ordered.",
    ),
    (
        VASCULAR,
        "imaging_plan_documented",
        NORMAL_EARS + SHARP + "Plan: diagnostic cerebral angiogram - ordered. No head CT.",
    ),
    (
        VASCULAR,
        "imaging_plan_documented",
        NORMAL_EARS + SHARP + CTA_PLAN + " A head CT is reasonable if she wants reassurance.",
    ),
    (
        GLOMUS,
        "imaging_plan_documented",
        MASS + SHARP + "Plan: CT temporal bone - ordered. Biopsy "
        "of the middle ear mass in clinic. No head CT.",
    ),
    (GLOMUS, "imaging_plan_documented", MASS + SHARP + CTA_PLAN),
    (
        GLOMUS,
        "imaging_plan_documented",
        MASS + SHARP + "Plan: CT temporal bone without contrast. "
        "Myringotomy to drain the middle ear.",
    ),
    (
        GLOMUS,
        "imaging_plan_documented",
        MASS + SHARP + "Plan: CT temporal bone without contrast. "
        "Needle aspiration of the mass in clinic.",
    ),
    (
        GLOMUS,
        "imaging_plan_documented",
        MASS + SHARP + "Plan: CT temporal bone without contrast. "
        "Tympanotomy with biopsy next week.",
    ),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, others=(VASCULAR, GLOMUS, GLOMUS_P), oracle_on=(None, VASCULAR, GLOMUS))
)


# ---- orders ----

MRI = service_request(
    "70553", "cpt", "imaging", display="MRI brain without and with contrast", priority="urgent"
)
MRV = service_request("70546", "cpt", "imaging", display="MR venography head", priority="urgent")
MRI_ROUTINE = service_request("70553", "cpt", "imaging", display="MRI brain w/wo contrast")
MRV_ROUTINE = service_request("70546", "cpt", "imaging", display="MR venography head")
CTV = service_request("70496", "cpt", "imaging", display="CT venography head", priority="stat")
CTA_NECK = service_request("70498", "cpt", "imaging", display="CT angiography neck")
ANGIO_VERT = service_request("36226", "cpt", "procedure", display="Vertebral angiography")
EXPLORE = service_request("69440", "cpt", "procedure", display="Middle ear exploration")
PURE_TONE = service_request("92553", "cpt", "procedure", display="Pure tone audiometry")
SPEECH = service_request("92556", "cpt", "procedure", display="Speech audiometry")
OPHTHO_ROUTINE = service_request(
    "183543004", "snomed", "referral", display="Referral to ophthalmology"
)
MRA_ONLY = service_request("70546", "cpt", "imaging", display="MRA head without and with contrast")
CTA_HEAD = service_request("70496", "cpt", "imaging", display="CT angiography head")
CT_TB = service_request("70480", "cpt", "imaging", display="CT temporal bones without contrast")
CT_HEAD = service_request("70450", "cpt", "imaging", display="CT head without contrast")
ANGIO = service_request("36224", "cpt", "procedure", display="Cerebral angiography")
AUDIO = service_request("92557", "cpt", "procedure", display="Comprehensive audiometry")
OPHTHO = service_request(
    "183543004", "snomed", "referral", display="Referral to ophthalmology", priority="urgent"
)


def test_orders_iih_branch():
    assert run_actions(TASK, [MRI, MRV])["imaging_ordered"]
    assert not run_actions(TASK, [MRI])["imaging_ordered"]
    assert not run_actions(TASK, [MRI, MRA_ONLY])["imaging_ordered"]  # an MRA is no venogram
    assert not run_actions(TASK, [CTA_HEAD])["imaging_ordered"]
    assert not run_actions(TASK, [MRI, MRV, CT_HEAD])["imaging_ordered"]
    assert not run_actions(TASK, [MRI, MRV, ANGIO])["imaging_ordered"]
    assert run_actions(TASK, [MRI, CTV])["imaging_ordered"]  # CT venography is a venogram
    assert not run_actions(TASK, [MRI_ROUTINE, MRV_ROUTINE])["imaging_ordered"]  # not urgent
    assert not run_actions(TASK, [MRI, MRV, ANGIO_VERT])["imaging_ordered"]
    assert run_actions(TASK, [AUDIO, OPHTHO])["supporting_orders_placed"]
    assert run_actions(TASK, [PURE_TONE, SPEECH, OPHTHO])["supporting_orders_placed"]
    assert not run_actions(TASK, [AUDIO])["supporting_orders_placed"]
    assert not run_actions(TASK, [AUDIO, OPHTHO_ROUTINE])["supporting_orders_placed"]


def test_orders_vascular_branch():
    v = VASCULAR
    assert run_actions(TASK, [CTA_HEAD], v)["imaging_ordered"]
    assert run_actions(TASK, [MRA_ONLY], v)["imaging_ordered"]
    assert run_actions(TASK, [CT_TB], v)["imaging_ordered"]  # ACR: usually appropriate
    assert not run_actions(TASK, [CTA_NECK], v)["imaging_ordered"]  # no intracranial vessels
    assert not run_actions(TASK, [CTA_HEAD, ANGIO_VERT], v)["imaging_ordered"]
    assert not run_actions(TASK, [CTA_HEAD, CT_HEAD], v)["imaging_ordered"]
    assert not run_actions(TASK, [ANGIO], v)["imaging_ordered"]
    assert run_actions(TASK, [AUDIO], v)["supporting_orders_placed"]


def test_orders_glomus_branch():
    v = GLOMUS
    assert run_actions(TASK, [CT_TB], v)["imaging_ordered"]
    assert not run_actions(TASK, [CTA_HEAD], v)["imaging_ordered"]
    assert not run_actions(TASK, [CT_HEAD], v)["imaging_ordered"]
    assert not run_actions(TASK, [CT_TB, ANGIO], v)["imaging_ordered"]
    assert not run_actions(TASK, [CT_TB, EXPLORE], v)["imaging_ordered"]  # opening the ear first
    assert not run_actions(TASK, [CT_TB], v)["supporting_orders_placed"]
