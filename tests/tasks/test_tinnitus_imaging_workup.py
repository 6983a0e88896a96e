"""tinnitus_imaging_workup: the audiogram and gadolinium draws, and the orders and note phrasings
its checkpoints must judge on each branch (asymmetric loss -> contrast MRI of the internal
auditory canals; the same after anaphylaxis to gadobutrol -> non-contrast MRI; symmetric loss ->
no imaging, hearing aid evaluation)."""

from __future__ import annotations

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "tinnitus_imaging_workup"
CONTRAST = 19       # asymmetric, gadolinium tolerated (like the canonical case)
NONCONTRAST = 0     # asymmetric, anaphylaxis to gadobutrol 4 years ago
SYMMETRIC = 4       # symmetric, no reaction
SYMMETRIC_R = 2     # symmetric, anaphylaxis to gadobutrol (changes nothing)


def test_canonical_values():
    vals = values(TASK)
    assert (vals["audiogram"], vals["gad_reaction"], vals["imaging"]) == (
        "asymmetric", False, "contrast_mri")
    assert (vals["gap_db"], vals["max_gap"], vals["wrs_right"], vals["wrs_left"]) == (
        25, 25, 63, 96)
    assert vals["right_thresholds"].startswith("500 Hz 20, 1000 Hz 25, 2000 Hz 45")
    assert vals["allergy_list"] == "no known drug allergies"
    assert vals["head_ct_codes"] == ["http://www.ama-assn.org/go/cpt|" + c
                                     for c in ("70450", "70460", "70470")]


def test_branches():
    assert values(TASK, CONTRAST)["imaging"] == "contrast_mri"
    noncon = values(TASK, NONCONTRAST)
    assert (noncon["imaging"], noncon["allergy_list"]) == (
        "noncontrast_mri", "gadolinium-based contrast")
    assert "ANAPHYLAXIS" in noncon["breast_mri_text"]
    sym = values(TASK, SYMMETRIC)
    assert (sym["imaging"], sym["max_gap"], sym["wrs_right"]) == ("none", 5, 92)
    assert values(TASK, SYMMETRIC_R)["imaging"] == "none"
    draws = [values(TASK, n)["imaging"] for n in range(20)]
    assert draws.count("contrast_mri") <= 2  # the canonical answer replays on few variants
    assert set(draws) == {"contrast_mri", "noncontrast_mri", "none"}


ASYM = ("Audiogram 3 weeks ago: asymmetric sensorineural hearing loss, right worse by 25 dB "
        "from 2-8 kHz, WRS 63% R vs 96% L, no air-bone gap.\n")
SYM = ("Audiogram 3 weeks ago: symmetric high-frequency sensorineural hearing loss, WRS 92% and "
       "96%, type A tympanograms.\n")
CONTRAST_PLAN = ("Plan: MRI of the internal auditory canals with and without gadolinium - "
                 "ordered.\n"
                 "No CT head; the ED head CT does not exclude a schwannoma.")
NONCON_PLAN = ("Plan: non-contrast MRI of the internal auditory canals (high-resolution T2, "
               "CISS) - ordered. No gadolinium given her anaphylaxis. No CT head.")
SYM_PLAN = ("Plan: no imaging is indicated. Hearing aid evaluation ordered. CBT and sound "
            "therapy for the tinnitus.")

CORRECT = [
    (None, ASYM + CONTRAST_PLAN),
    (None, """Right-sided nonpulsatile tinnitus with asymmetric SNHL on the audiogram (R 20-25 dB
worse at 2-4 kHz, word recognition 63% vs 96%). This meets criteria for retrocochlear
evaluation. I have ordered an MRI IAC w/wo contrast to rule out a vestibular schwannoma.
A head CT is not the right test and should not be ordered."""),
    (None, """## Assessment
Unilateral tinnitus, right. Asymmetric hearing loss, sensorineural, right ear worse.
## Plan
- MRI brain with IAC protocol, with and without gadolinium (ordered)
- Avoid CT: the prior non-contrast head CT does not evaluate the IACs
- ENT follow-up after MRI"""),
    (CONTRAST, ASYM + "Recommend gadolinium-enhanced MRI of the IACs to exclude acoustic neuroma. "
     "Do not order a head CT."),
    (NONCONTRAST, ASYM + NONCON_PLAN),
    (NONCONTRAST, """Right-sided tinnitus and asymmetric SNHL (right worse). She had anaphylaxis to
gadobutrol during a breast MRI, so gadolinium must be avoided. I ordered a non-contrast MRI IAC
with high-resolution T2-weighted (FIESTA) sequences, which is sensitive for vestibular
schwannoma. A CT head would not help."""),
    (NONCONTRAST, """## Assessment
Asymmetric sensorineural hearing loss, right ear, with unilateral tinnitus.
Gadolinium allergy (anaphylaxis 4 years ago).
## Plan
- MRI IAC without contrast (CISS) - ordered
- No gadolinium-based contrast
- No head CT"""),
    (NONCONTRAST, ASYM + NONCON_PLAN + " If the non-contrast MRI shows a lesion that needs "
     "characterizing, a contrast study could be discussed with allergy."),
    (SYMMETRIC, SYM + SYM_PLAN),
    (SYMMETRIC, """Bilateral nonpulsatile tinnitus with symmetric SNHL consistent with presbycusis
and noise exposure. Normal neurologic exam. Imaging is not indicated (AAO-HNS): no MRI and no
CT. I have ordered a hearing aid evaluation; she would benefit from hearing aids. If she develops
asymmetric hearing loss, unilateral or pulsatile tinnitus, or neurologic signs, then MRI of the
internal auditory canals would be appropriate."""),
    (SYMMETRIC_R, """## Assessment
Bilateral tinnitus. Audiogram: symmetric high-frequency sensorineural hearing loss, no
asymmetry, no air-bone gap.
## Plan
- Hearing aid evaluation (binaural) - ordered
- No imaging (no MRI, no head or temporal bone CT)
- Tinnitus education and CBT"""),
    # imaging criteria named to say none apply; the evaluation written as a step
    (SYMMETRIC, "Bilateral tinnitus. Audiogram shows bilateral high-frequency SNHL that is "
     "symmetric. Imaging is reserved for asymmetric hearing loss, unilateral or pulsatile "
     "tinnitus, or focal neurologic findings, none of which she has. Hearing aids are "
     "recommended; refer to audiology."),
    (SYMMETRIC, "Audiogram: mild-to-moderate bilateral high-frequency SNHL, symmetric within 5 dB. "
     "I do not recommend imaging. She should have a hearing aid evaluation with audiology."),
    (NONCONTRAST, "Asymmetric SNHL right. Gadolinium is contraindicated given her prior "
     "anaphylaxis. Order non-contrast MRI IAC with high-resolution T2 sequences. No CT."),
    (None, "The audiogram shows right-sided asymmetric SNHL. Recommend MRI IAC with and without "
     "contrast. If MRI were contraindicated, a CT temporal bone with contrast would be the "
     "alternative. No head CT."),
    # review probes: the asymmetry told in other words, a non-contrast IAC screen in the contrast
    # branch, the old CT report named as read, imaging named on a guideline trigger only
    (None, "Audiogram: asymmetric SNHL, right worse, more than presbycusis would explain.\n"
     + CONTRAST_PLAN),
    (None, "Audiogram: the right ear is clearly worse than the left (sensorineural, no air-bone "
     "gap).\n" + CONTRAST_PLAN),
    (None, ASYM + "Plan: non-contrast MRI IAC (high-resolution T2, CISS) - ordered. No head CT."),
    (None, "I reviewed the e-consult request, the ED visit and head CT report (1 Jun 2024) and her "
     "renal function.\n" + ASYM + CONTRAST_PLAN),
    (SYMMETRIC, "Audiogram: bilateral high-frequency sensorineural hearing loss, equal in both "
     "ears (within 5 dB).\n" + SYM_PLAN),
    (SYMMETRIC, "Her hearing loss is the same in both ears, sensorineural and high-frequency.\n"
     + SYM_PLAN),
    (SYMMETRIC, SYM + SYM_PLAN + " If the tinnitus becomes pulsatile, her hearing becomes "
     "asymmetric, or focal neurologic signs appear, MRI of the internal auditory canals."),
    (SYMMETRIC, SYM + "Imaging is not indicated. No CTA/MRA or carotid Doppler since the tinnitus "
     "is not pulsatile. Hearing aid evaluation ordered."),
]


WRONG = [
    # the asymmetry missed, or read off the old conductive audiogram
    (None, "hearing_asymmetry_assessed", SYM + CONTRAST_PLAN),
    (None, "hearing_asymmetry_assessed", "Audiogram: bilateral symmetric hearing loss, a "
     "little worse on the right.\n" + CONTRAST_PLAN),
    # no MRI, or a head CT instead of or beside it
    (None, "imaging_plan_documented", ASYM + "Plan: CT head with contrast - ordered."),
    (None, "imaging_plan_documented", ASYM + "Plan: reassurance and hearing aid evaluation; no "
     "imaging needed."),
    (None, "imaging_plan_documented", ASYM + "Plan: MRI of the internal auditory canals with and "
     "without gadolinium. A CT head could be done first if MRI is delayed."),
    # gadolinium after anaphylaxis
    (NONCONTRAST, "imaging_plan_documented", ASYM + CONTRAST_PLAN),
    (NONCONTRAST, "imaging_plan_documented", ASYM + "Plan: MRI IAC with and without contrast "
     "after steroid and antihistamine premedication. No CT head."),
    (NONCONTRAST, "imaging_plan_documented", ASYM + "Plan: gadolinium-enhanced MRI of the IACs "
     "with a different gadolinium agent. No CT head."),
    # symmetric: the asymmetry invented, imaging ordered or offered
    (SYMMETRIC, "hearing_asymmetry_assessed", ASYM + SYM_PLAN),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: MRI IAC with and without contrast to "
     "be thorough. Hearing aid evaluation."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: hearing aid evaluation. An MRI brain "
     "could be ordered for reassurance if she wants a scan."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: CT of the temporal bones. Hearing aid "
     "evaluation."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: no imaging. Reassurance only."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: no imaging. No hearing aid evaluation is "
     "needed yet."),
    # review probes: the wrong side, an asymmetry told in the symmetric branch, imaging on a wish,
    # vascular imaging, a routine brain MRI without gadolinium, gadolinium withheld for the kidneys
    (None, "hearing_asymmetry_assessed", "Audiogram: asymmetric sensorineural hearing loss, worse "
     "in the left ear (left 45-65 dB).\n" + CONTRAST_PLAN),
    (SYMMETRIC, "hearing_asymmetry_assessed", "Audiogram: asymmetric SNHL, right worse, "
     "consistent with presbycusis.\n" + SYM_PLAN),
    (SYMMETRIC, "hearing_asymmetry_assessed", "Audiogram: bilateral symmetric high-frequency "
     "SNHL; there is a significant asymmetry at 4 kHz on the right.\n" + SYM_PLAN),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: hearing aid evaluation ordered. Okay to "
     "get MRI IAC if the tinnitus remains bothersome in 3 months."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: hearing aid evaluation ordered. CT scan "
     "of the head is reasonable if she insists."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: hearing aid evaluation ordered. I will "
     "order an MRA head and neck."),
    (SYMMETRIC, "imaging_plan_documented", SYM + "Plan: hearing aid evaluation ordered. Carotid "
     "duplex ordered."),
    (NONCONTRAST, "imaging_plan_documented", ASYM + "Plan: MRI brain without contrast (routine "
     "brain protocol) - ordered. No CT head."),
    (None, "imaging_plan_documented", ASYM + "eGFR 59 -> avoid gadolinium (NSF risk). MRI IAC "
     "without contrast (CISS). No CT head."),
    (None, "imaging_plan_documented", ASYM + "With her eGFR of 59, gadolinium should be withheld. "
     "Plan: non-contrast MRI IAC (high-resolution T2) - ordered. No head CT."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, others=(NONCONTRAST, SYMMETRIC, SYMMETRIC_R),
                  oracle_on=(None, NONCONTRAST, SYMMETRIC)))


# ---- orders ----

MRI_CONTRAST = service_request("70553", "cpt", "imaging",
                               display="MRI internal auditory canals without and with contrast")
MRI_PLAIN = service_request("70551", "cpt", "imaging",
                            display="MRI internal auditory canals without contrast")
MRI_BRAIN_PLAIN = service_request("70551", "cpt", "imaging", display="MRI brain without contrast")
# a contrast study under the non-contrast code, or under the face/neck MR code
MRI_GAD_AS_70551 = service_request("70551", "cpt", "imaging",
                                   display="MRI internal auditory canals with and without "
                                           "gadolinium")
MRI_GAD_70543 = service_request("70543", "cpt", "imaging",
                                display="MRI IAC with and without gadolinium")
# the non-contrast study whose note says 'No gadolinium needed', and a contrast CT beside it
MRI_PLAIN_NOTED = service_request("70551", "cpt", "imaging", display="MRI brain without contrast",
                                  note="No gadolinium needed")
CT_TEMPORAL_CONTRAST = service_request("70481", "cpt", "imaging",
                                       display="CT temporal bones with contrast")
CT_HEAD = service_request("70450", "cpt", "imaging", display="CT head without contrast")
CT_TEMPORAL = service_request("70480", "cpt", "imaging", display="CT temporal bones")
HEARING_AID = service_request("92591", "cpt", "procedure",
                              display="Hearing aid examination and selection; binaural")
HA_TEXT = service_request("92592", "cpt", "procedure", display="Hearing aid evaluation")
# imaging under codes outside the head MRI/CT list
MR_LOINC = service_request("24590-2", "loinc", "imaging", display="MR Brain WO and W contrast IV")
MRA_HEAD = service_request("70544", "cpt", "imaging", display="MRA head without contrast")
MRA_AS_PROCEDURE = service_request("70544", "cpt", "procedure", display="MRA head")
CAROTID = service_request("93880", "cpt", "procedure", display="Carotid duplex, bilateral")


def test_orders_contrast_branch():
    assert run_actions(TASK, [MRI_CONTRAST])["workup_ordered"]
    # a dedicated non-contrast IAC protocol is accepted; a routine brain MRI is not
    assert run_actions(TASK, [MRI_PLAIN])["workup_ordered"]
    assert not run_actions(TASK, [MRI_BRAIN_PLAIN])["workup_ordered"]
    # the two phrases of a contrast IAC study may not come from two orders or a 'no' note
    assert not run_actions(TASK, [MRI_PLAIN_NOTED, CT_TEMPORAL_CONTRAST])["workup_ordered"]
    assert not run_actions(TASK, [CT_HEAD])["workup_ordered"]
    assert not run_actions(TASK, [MRI_CONTRAST, CT_HEAD])["workup_ordered"]


def test_orders_noncontrast_branch():
    v = NONCONTRAST
    assert run_actions(TASK, [MRI_PLAIN], v)["workup_ordered"]
    assert not run_actions(TASK, [MRI_BRAIN_PLAIN], v)["workup_ordered"]
    assert not run_actions(TASK, [MRI_CONTRAST], v)["workup_ordered"]
    assert not run_actions(TASK, [MRI_PLAIN, MRI_CONTRAST], v)["workup_ordered"]
    assert not run_actions(TASK, [MRI_GAD_AS_70551], v)["workup_ordered"]
    assert not run_actions(TASK, [MRI_PLAIN, MRI_GAD_70543], v)["workup_ordered"]
    assert not run_actions(TASK, [MRI_PLAIN, CT_HEAD], v)["workup_ordered"]


def test_orders_symmetric_branch():
    v = SYMMETRIC
    assert run_actions(TASK, [HEARING_AID], v)["workup_ordered"]
    assert run_actions(TASK, [HA_TEXT], v)["workup_ordered"]
    for bad in (MRI_CONTRAST, MRI_PLAIN, CT_HEAD, CT_TEMPORAL, MR_LOINC, MRA_HEAD,
                MRA_AS_PROCEDURE, CAROTID):
        assert not run_actions(TASK, [HEARING_AID, bad], v)["workup_ordered"], bad


def test_a_note_without_orders_orders_nothing():
    assert grade_note(TASK, ASYM + CONTRAST_PLAN)["imaging_plan_documented"]
