"""liver_gallbladder_findings: a gallbladder polyp and a liver lesion on a follow-up ultrasound.

Two findings decide the answer:
- Gallbladder polyp (ESGAR/EAES/EFISDS/ESGE 2022; SRU 2022): growing from 6 mm to 10-13 mm in
  12 months (>= 10 mm, and >= 4 mm growth within 12 months) -> surgical referral for
  cholecystectomy; a 4-5 mm polyp unchanged in a 47-year-old without risk factors -> no further
  gallbladder imaging and no surgery (both guidelines agree at these sizes).
- Liver lesion (ACG 2024 focal liver lesions; ACG 2014; EASL 2016): a new solid hypoechoic
  lesion not seen before -> multiphasic contrast MRI (or CT) to characterize, no biopsy first;
  the segment 6 lesion characterized as a typical hemangioma on MRI 4 years ago and unchanged ->
  no further imaging, no biopsy.
- Both abnormal (growing polyp + new lesion): surgery is still indicated, but the liver MRI comes
  first, since a gallbladder cancer with a liver metastasis changes the operation.
"""

from __future__ import annotations

from typing import Any

CPT = "http://www.ama-assn.org/go/cpt|"
SCT = "http://snomed.info/sct|"
SURGEON_REFERRAL = [SCT + "183541002"]
CHOLECYSTECTOMY = [CPT + "47562", CPT + "47563", CPT + "47600"]
LOINC = "http://loinc.org|"
# Abdominal ultrasound complete or limited (CPT), or the LOINC US abdomen study of the chart.
GB_ULTRASOUND = [CPT + "76700", CPT + "76705", LOINC + "24558-9"]
# Multiphasic contrast imaging of the liver: MRI abdomen without and with contrast; CT abdomen
# without and with contrast (ACG 2024: MRI preferred, multiphasic CT acceptable).
# CT abdomen and pelvis without-then-with contrast (74178) run as a triple-phase liver protocol
# is multiphasic too.
LIVER_CHARACTERIZATION = [CPT + "74183", CPT + "74170", CPT + "74178"]
# Any cross-sectional abdominal imaging (for the no-further-imaging branch).
ANY_LIVER_IMAGING = [CPT + c for c in ("74181", "74182", "74183", "74150", "74160", "74170",
                                       "74176", "74177", "74178")]
LIVER_BIOPSY = [CPT + "47000"]
# An ultrasound order named as the study (not an MRI indication that mentions the ultrasound).
GB_ULTRASOUND_NAMES = ["ultrasound abdomen", "abdominal ultrasound", "ultrasound, abdominal",
                       "ultrasound of the abdomen", "gallbladder ultrasound",
                       "ultrasound of the gallbladder", "ultrasound gallbladder", "us abdomen",
                       "abdomen ultrasound", "ultrasound, limited", "ultrasound limited",
                       "repeat ultrasound", "surveillance ultrasound", "ultrasound surveillance"]
REFERRAL = [SCT + "3457005"]
IMAGING = [SCT + "363679005"]
PROCEDURE = [SCT + "387713003"]


def _cm(mm: int) -> str:
    return f"{mm / 10:.1f}"


def liver_gallbladder(values: dict[str, Any]) -> dict[str, Any]:
    polyp = values["polyp"]["kind"]
    liver = values["liver"]["kind"]
    step = int(values["polyp_step"])
    if polyp == "growing":
        prior_mm, polyp_mm = 6, 10 + step
    else:
        prior_mm, polyp_mm = 4, 4 + step % 2
    lesion_mm = int(values["lesion_mm"])
    lesion_cm = _cm(lesion_mm)
    both = polyp == "growing" and liver == "indeterminate"
    sequence_text = (" Please have the MRI done before the cholecystectomy; if it looks "
                     "malignant she needs staging and the HPB tumor board first." if both else "")
    if polyp == "growing":
        gb_text = (f"gallbladder polyp now {polyp_mm} mm (from {prior_mm} mm in 12 months) - I "
                   "referred her to general surgery for laparoscopic cholecystectomy.")
    else:
        gb_text = (f"gallbladder polyp {polyp_mm} mm and unchanged - no further ultrasounds and "
                   "no surgery needed.")
    if liver == "indeterminate":
        liver_text = (f"The {lesion_cm} cm segment 7 liver lesion is new and indeterminate - I "
                      "ordered a multiphasic contrast MRI of the liver; no biopsy for now.")
    else:
        liver_text = ("The segment 6 liver lesion is her known typical hemangioma (MRI 4 years "
                      "ago), unchanged - no further imaging or biopsy.")
    return {
        "polyp_mm": polyp_mm,
        "prior_polyp_mm": prior_mm,
        "growth_mm": polyp_mm - prior_mm,
        "lesion_cm": lesion_cm,
        "gb_morphology": ("It is now broad-based, without focal wall thickening beyond its base."
                          if polyp == "growing" else
                          "Unchanged pedunculated morphology on a thin stalk."),
        "ed_liver_text": ("Incidental indeterminate segment 6 liver lesion on the CT - radiology "
                          "recommends an outpatient MRI; PCP to arrange."
                          if liver == "hemangioma" else ""),
        "pcp_liver_text": (f"It also shows a new {lesion_cm} cm lesion in the right lobe of the "
                           "liver." if liver == "indeterminate" else
                           f"It also comments on a {lesion_cm} cm liver lesion."),
        "message_text": f"GI e-consult: {gb_text} {liver_text}{sequence_text}",
        # Growing polyp beside a new solid liver lesion: a gallbladder primary with a liver
        # metastasis must be excluded, so the liver MRI is read before the operation (SRU 2022:
        # high suspicion of an invasive tumor -> specialist referral; ESGAR 2017/2022: a clearly
        # infiltrating or large mass is treated as a gallbladder cancer, not a polyp).
        "liver_ddx_text": (" With a growing gallbladder polyp, a liver metastasis from a "
                           "gallbladder primary must also be excluded." if both else ""),
        "gb_sequence_text": (" The liver MRI should be done and reviewed before the operation: if "
                             "it shows features of malignancy she goes to staging and the "
                             "hepatobiliary (HPB) tumor board for an oncologic (radical) "
                             "cholecystectomy rather than a simple laparoscopic one."
                             if both else ""),
        "referral_note": ("Please evaluate for laparoscopic cholecystectomy: gallbladder polyp "
                          f"{polyp_mm} mm on ultrasound, {prior_mm} mm 12 months ago; "
                          "asymptomatic, fit."
                          + (" MRI liver pending (new segment 7 lesion) - please review it "
                             "before surgery." if both else "")),
        # The hemangioma measured 1-2 mm less on the MRI 4 years ago (no meaningful change).
        "prior_lesion_cm": _cm(lesion_mm - 1 - step % 2),
        "surgeon_referral_codes": SURGEON_REFERRAL,
        "cholecystectomy_codes": CHOLECYSTECTOMY,
        "gb_ultrasound_codes": GB_ULTRASOUND,
        "liver_characterization_codes": LIVER_CHARACTERIZATION,
        "any_liver_imaging_codes": ANY_LIVER_IMAGING,
        "liver_biopsy_codes": LIVER_BIOPSY,
        "referral_category": REFERRAL,
        "imaging_category": IMAGING,
        "procedure_category": PROCEDURE,
        # A biopsy is a procedure or a referral (to IR); an imaging order's indication may say
        # 'before any biopsy is considered'.
        "biopsy_categories": PROCEDURE + REFERRAL,
        "gb_ultrasound_names": GB_ULTRASOUND_NAMES,
        "polyp_plan_text": ("refer to general surgery for laparoscopic cholecystectomy"
                            if polyp == "growing" else
                            "no further gallbladder ultrasound surveillance and no surgery"),
        "liver_plan_text": ("multiphasic contrast-enhanced MRI of the liver to characterize the "
                            "new lesion; no biopsy" if liver == "indeterminate" else
                            "no further liver imaging or biopsy for the known hemangioma"),
    }
