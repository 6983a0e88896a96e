"""liver_gallbladder_findings: the polyp and liver draws, and the note phrasings its checkpoints
must judge on each branch (growing or stable polyp; new indeterminate lesion or known
hemangioma)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "liver_gallbladder_findings"
STABLE_INDET = 0     # 5 mm stable polyp, new indeterminate lesion
STABLE_HEMANG = 1    # 4 mm stable polyp, known hemangioma
GROWING_HEMANG = 6   # 10 mm growing polyp, known hemangioma
GROWING_INDET = 17   # 10 mm growing polyp, new indeterminate lesion


def test_canonical_values():
    vals = values(TASK)
    assert vals["polyp"] == {"kind": "growing"} and vals["liver"] == {"kind": "indeterminate"}
    assert (vals["polyp_mm"], vals["prior_polyp_mm"], vals["growth_mm"]) == (11, 6, 5)
    assert vals["lesion_cm"] == "2.3"
    cpt = "http://www.ama-assn.org/go/cpt|"
    assert vals["liver_characterization_codes"] == [cpt + "74183", cpt + "74170", cpt + "74178"]
    assert vals["surgeon_referral_codes"] == ["http://snomed.info/sct|183541002"]
    assert vals["liver_biopsy_codes"] == [cpt + "47000"]


def test_branches_draw_their_findings():
    assert values(TASK, STABLE_INDET)["polyp_mm"] <= 5
    assert values(TASK, STABLE_HEMANG)["liver"]["kind"] == "hemangioma"
    assert values(TASK, GROWING_HEMANG)["polyp_mm"] >= 10
    assert values(TASK, GROWING_INDET)["liver"]["kind"] == "indeterminate"
    combos = {(values(TASK, n)["polyp"]["kind"], values(TASK, n)["liver"]["kind"])
              for n in range(20)}
    assert len(combos) == 4
    # a growing polyp always grows 4 mm or more in 12 months and reaches 10 mm
    for n in range(20):
        v = values(TASK, n)
        if v["polyp"]["kind"] == "growing":
            assert v["polyp_mm"] >= 10 and v["growth_mm"] >= 4
        else:
            assert v["polyp_mm"] <= 5


CORRECT = [
    (None, "Gallbladder polyp now 11 mm (6 mm a year ago) - refer to general surgery for "
           "laparoscopic cholecystectomy. New indeterminate liver lesion 2.3 cm in segment 7: "
           "order MRI abdomen with and without contrast. No liver biopsy."),
    (None, "The gallbladder polyp has grown from 6 mm to 11 mm in 12 months. I have referred her "
           "for laparoscopic cholecystectomy. The new solid liver lesion needs characterization "
           "with a contrast-enhanced MRI, which I ordered; please do not biopsy it."),
    (None, "| Finding | Plan |\n|---|---|\n| Gallbladder polyp 11 mm (was 6 mm) | refer to general "
           "surgery for cholecystectomy |\n| New 2.3 cm indeterminate hepatic lesion | MRI liver "
           "protocol ordered; no biopsy |"),
    (STABLE_INDET, "Gallbladder polyp 5 mm, unchanged from 4 mm. No further gallbladder ultrasound "
                   "and no cholecystectomy needed. New indeterminate liver lesion in segment 7: "
                   "MRI abdomen with and without contrast ordered. No biopsy."),
    (STABLE_INDET, "The 5 mm gallbladder polyp needs no further surveillance and no surgery. The "
                   "new solid liver lesion is indeterminate; I ordered a multiphasic MRI. No liver "
                   "biopsy now."),
    (STABLE_HEMANG, "Gallbladder polyp 4 mm, stable: no follow-up imaging required, no surgery. "
                    "The liver lesion is her known hemangioma (MRI 4 years ago), unchanged: no "
                    "further imaging and no biopsy."),
    (GROWING_HEMANG, "Gallbladder polyp 10 mm (was 6 mm): refer to general surgery for "
                     "cholecystectomy. The segment 6 lesion is a typical hemangioma, stable since "
                     "the MRI - no further liver imaging, no biopsy."),
    # review finding 7: plain-language referral, lesion and imaging wording
    (None, "Gallbladder polyp 11 mm (6 mm a year ago): surgical consultation for "
           "cholecystectomy. Liver lesion 2.3 cm, new, indeterminate. MRI abd w/o and w/ "
           "contrast ordered. No biopsy."),
    (None, "Gallbladder polyp 11 mm, up from 6 mm: surgical referral placed for cholecystectomy. "
           "The new 2.3 cm lesion in segment 7 needs characterization: CT abdomen triple-phase "
           "ordered. No liver biopsy."),
    # review finding 1: surgery after the liver MRI is right when both findings are present
    (None, "Gallbladder polyp 11 mm (6 mm a year ago): refer to general surgery for "
           "cholecystectomy once the MRI is reviewed. New indeterminate liver lesion: MRI abdomen "
           "with and without contrast ordered; metastasis from a gallbladder primary must be "
           "excluded. No liver biopsy now."),
    # review finding 7: 'w/wo' is 'with and without'
    (None, "Gallbladder polyp 11 mm (6 mm a year ago): refer to general surgery for "
           "cholecystectomy. New indeterminate liver lesion: MRI abd w/wo contrast ordered. "
           "No biopsy."),
    (STABLE_HEMANG, "Gallbladder polyp 4 mm, stable: no follow-up imaging required, no surgery. "
                    "Known hemangioma, unchanged: no further imaging and no biopsy. Pregnancy and "
                    "hormones are not restricted."),
]

WRONG = [
    (None, "polyp_assessed",
     "Gallbladder polyp now 6 mm - refer to general surgery for laparoscopic cholecystectomy. New "
     "indeterminate liver lesion: order MRI abdomen with and without contrast. No liver biopsy."),
    (None, "gallbladder_plan_documented",
     "Gallbladder polyp 11 mm. Repeat gallbladder ultrasound in 6 months. New indeterminate liver "
     "lesion: order MRI abdomen with and without contrast. No liver biopsy."),
    (None, "liver_plan_documented",
     "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. New indeterminate "
     "liver lesion: order a liver biopsy."),
    (None, "liver_lesion_assessed",
     "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. The liver lesion is a "
     "hemangioma; order MRI abdomen with and without contrast to confirm."),
    (STABLE_INDET, "gallbladder_plan_documented",
     "Gallbladder polyp 5 mm: repeat RUQ ultrasound in 12 months. New indeterminate liver lesion: "
     "order MRI abdomen with and without contrast. No biopsy."),
    (STABLE_INDET, "gallbladder_plan_documented",
     "Gallbladder polyp 5 mm: refer to general surgery for cholecystectomy. New indeterminate "
     "liver lesion: order MRI abdomen with and without contrast. No biopsy."),
    (STABLE_HEMANG, "liver_plan_documented",
     "Gallbladder polyp 4 mm: no further ultrasound. Known hemangioma: repeat MRI liver in 6 "
     "months to confirm stability."),
    (STABLE_HEMANG, "liver_plan_documented",
     "Gallbladder polyp 4 mm: no further ultrasound. Hemangioma: follow-up imaging in 12 months."),
    (STABLE_HEMANG, "liver_lesion_assessed",
     "Gallbladder polyp 4 mm: no further ultrasound. The liver lesion is an indeterminate liver "
     "lesion; no further imaging."),
    # review finding 2: surveillance offered in place of surgery
    (None, "gallbladder_plan_documented",
     "Gallbladder polyp 11 mm (6 mm a year ago): refer to general surgery for laparoscopic "
     "cholecystectomy. Alternatively, repeat gallbladder ultrasound in 6 months is reasonable. "
     "New indeterminate liver lesion: MRI abdomen with and without contrast ordered. No biopsy."),
    (None, "gallbladder_plan_documented",
     "Gallbladder polyp 11 mm (6 mm a year ago): refer to general surgery for laparoscopic "
     "cholecystectomy; repeat ultrasound in 6 months is an acceptable alternative. New "
     "indeterminate liver lesion: MRI abdomen with and without contrast ordered. No biopsy."),
    (None, "gallbladder_plan_documented",
     "Gallbladder polyp 11 mm (6 mm a year ago): refer to general surgery for laparoscopic "
     "cholecystectomy. Repeat RUQ ultrasound in 12 months. New indeterminate liver lesion: MRI "
     "abdomen with and without contrast ordered. No biopsy."),
    # corpus w05: 'avoid' of the wish-trigger belongs to surgery; surveillance is offered
    (None, "gallbladder_plan_documented",
     "Gallbladder polyp 11 mm (6 mm a year ago): referral to general surgery to discuss "
     "laparoscopic cholecystectomy; alternatively, if she prefers to avoid surgery, continued "
     "ultrasound surveillance every 6 months is reasonable. New indeterminate liver lesion: MRI "
     "abdomen with and without contrast ordered."),
    # review finding 3: the biopsy written with its guidance or target
    (None, "liver_plan_documented",
     "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. New indeterminate "
     "liver lesion: MRI abdomen with and without contrast ordered. Also order an "
     "ultrasound-guided liver biopsy."),
    (None, "liver_plan_documented",
     "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. New indeterminate "
     "liver lesion: order an ultrasound-guided liver biopsy and an MRI abdomen with and without "
     "contrast."),
    (None, "liver_plan_documented",
     "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. New indeterminate "
     "liver lesion: MRI abdomen with and without contrast ordered. Also order a core biopsy of "
     "the segment 7 lesion."),
    # review finding 4: repeat imaging of the typical hemangioma
    (GROWING_HEMANG, "liver_plan_documented",
     "Gallbladder polyp 10 mm (was 6 mm): refer to general surgery for cholecystectomy. Known "
     "hemangioma: repeat liver ultrasound in 12 months. No biopsy."),
    (GROWING_HEMANG, "liver_plan_documented",
     "Gallbladder polyp 10 mm (was 6 mm): refer to general surgery for cholecystectomy. Known "
     "hemangioma: repeat CT in 12 months. No biopsy."),
    # review finding 6: the growth missed (prior size misreported, polyp called stable)
    (None, "polyp_assessed",
     "Gallbladder polyp 11 mm, essentially stable (10 -> 11 mm, within measurement error): refer "
     "to general surgery for cholecystectomy. New indeterminate liver lesion: MRI abdomen with "
     "and without contrast ordered. No biopsy."),
    # review finding 8: a noncontrast MRI cannot characterize the lesion
    (None, "liver_plan_documented",
     "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. New indeterminate "
     "liver lesion: I have ordered an MRI of the liver without contrast. No biopsy."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


# Phrasings the note reader misreads today (reported; strict xfail so a reader fix shows up).
READER_GAPS = [
    # 'send her to IR for X' is not read as an order (review finding 3)
    pytest.param(None, "liver_plan_documented",
                 "Gallbladder polyp 11 mm: refer to general surgery for cholecystectomy. New "
                 "indeterminate liver lesion: MRI abdomen with and without contrast ordered. Also "
                 "send her to IR for a core biopsy of the segment 7 lesion.",
                 id="send-to-IR-for"),
    # a verbless 'One more ultrasound in a year' is no plan (review finding 9)
    pytest.param(STABLE_HEMANG, "gallbladder_plan_documented",
                 "Gallbladder polyp 4 mm, stable: one more ultrasound in a year, then stop. Known "
                 "hemangioma, unchanged: no further imaging and no biopsy.",
                 id="one-more-ultrasound"),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "failing", "note"), READER_GAPS)
def test_reader_gap_wrong_note_fails(variant, failing, note):
    assert grade_note(TASK, note, variant)[failing] is False


# Correct phrasings the note reader once misread (dev corpus c04, c08), read now.
READ_NOW = [
    # 'segment 7' names a liver segment, it is no 7 mm size (corpus c04)
    pytest.param("Gallbladder polyp now 11 mm (6 mm a year ago): refer to general surgery for "
                 "cholecystectomy. The new 2.3 cm segment 7 lesion is indeterminate. A new solid "
                 "lesion still needs malignancy excluded, especially with a growing gallbladder "
                 "polyp. This lesion is in segment 7, away from the gallbladder bed. MRI abdomen "
                 "with and without contrast ordered. No liver biopsy.", id="segment-7-size"),
    # an indented 'background:' sub-line speaks for itself alone (corpus c08)
    pytest.param("GI RECS - R. Oyelaran, 47F\n\n"
                 "Gallbladder polyp 6 mm (5/2025) → 11 mm (4/28/2026), ≥10 mm\n"
                 "  → referred to general surgery for lap chole ✔\n\n"
                 "Liver seg 7 lesion 2.3 cm, solid → NEW → indeterminate, not a typical "
                 "hemangioma\n  background: LFTs nl (ALT 18, 4/2026), HBsAg −, HCV Ab − → no CLD\n"
                 "  → MRI abdomen w/o + w/ contrast, multiphasic liver protocol (gadoxetate) "
                 "ordered ✔\n  → no biopsy now ✘ (only if MRI nondiagnostic)\n",
                 id="background-sub-line"),
]


@pytest.mark.parametrize("note", READ_NOW)
def test_a_correct_note_read_now_passes(note):
    assert all(grade_note(TASK, note).values())


# Correct phrasings the note reader misreads today (dev corpus c07; reported).
CORRECT_GAPS = [
    # a bare 'the polyp' in a note that answers a question about the gallbladder polyp (c07)
    pytest.param("Q1. Does the polyp need surgery? Yes. The polyp went from 6 mm to 11 mm in a "
                 "year; I referred her to general surgery for laparoscopic cholecystectomy.\n"
                 "Q2. New indeterminate liver lesion: MRI abdomen with and without contrast "
                 "ordered. No liver biopsy.", id="bare-the-polyp"),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize("note", CORRECT_GAPS)
def test_reader_gap_correct_note_passes(note):
    assert all(grade_note(TASK, note).values())


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
def test_reader_gap_surveillance_can_stop():
    # 'Surveillance can stop' is read as a hedged offer of surveillance (review finding 9)
    note = ("Gallbladder polyp 4 mm, stable. Surveillance can stop; cholecystectomy is not "
            "indicated. Known hemangioma, unchanged: no further imaging and no biopsy.")
    assert all(grade_note(TASK, note, STABLE_HEMANG).values())


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (STABLE_INDET, STABLE_HEMANG, GROWING_HEMANG, GROWING_INDET),
                  [None, STABLE_HEMANG, GROWING_HEMANG, STABLE_INDET]))


def _mri(note: str) -> dict:
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": "74183", "system": "cpt", "category": "imaging",
        "display": "MRI abdomen without and with contrast", "priority": "routine", "note": note}}


def _order(code: str, system: str, category: str, display: str, note: str = "") -> dict:
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category,
        "display": display, "priority": "routine", "note": note}}


# review finding 5: an MRI indication naming the ultrasound, the polyp, past surgery or a later
# biopsy is still the right order; review findings 4 and 10: a liver ultrasound of the hemangioma
# is wrong, a triple-phase CT A/P is right
@pytest.mark.parametrize("note", [
    "Characterize new segment 7 lesion seen on RUQ ultrasound.",
    "New segment 7 lesion; please also comment on the 5 mm gallbladder polyp.",
    "New segment 7 lesion; no prior liver surgery.",
])
def test_mri_indication_words_do_not_fail_the_gallbladder_orders(note):
    verdicts = run_actions(TASK, [_mri(note)], STABLE_INDET)
    assert verdicts["gallbladder_orders"] and verdicts["liver_orders"], verdicts


def test_mri_indication_naming_a_later_biopsy_passes_liver_orders():
    verdicts = run_actions(TASK, [_mri("Characterize before any biopsy is considered.")])
    assert verdicts["liver_orders"], verdicts


def test_triple_phase_ct_abdomen_pelvis_is_accepted():
    ct = _order("74178", "cpt", "imaging", "CT abdomen and pelvis without and with contrast",
                "triple-phase liver protocol")
    assert run_actions(TASK, [ct])["liver_orders"]


def test_stable_polyp_free_text_ultrasound_order_fails():
    us = _order("24558-9", "loinc", "imaging", "Ultrasound abdomen RUQ", "polyp surveillance")
    assert not run_actions(TASK, [us], STABLE_INDET)["gallbladder_orders"]


def test_hemangioma_liver_ultrasound_order_fails():
    us = _order("76705", "cpt", "imaging", "Ultrasound abdomen limited",
                "follow-up of hemangioma")
    assert not run_actions(TASK, [us], GROWING_HEMANG)["liver_orders"]


def test_biopsy_referral_fails_liver_orders():
    ir = _order("183541002", "snomed", "referral", "Referral to interventional radiology",
                "core biopsy of the segment 7 lesion")
    assert not run_actions(TASK, [ir])["liver_orders"]
