"""tinnitus_imaging_workup: the audiogram decides whether the tinnitus needs imaging.

- Right-sided nonpulsatile tinnitus with an asymmetric sensorineural hearing loss (interaural
  difference of 15 dB or more at two or more contiguous frequencies, or a word recognition
  difference of 15% or more) -> MRI of the internal auditory canals without and with gadolinium
  (AAO-HNS tinnitus guideline 2014, KAS 3; ACR Appropriateness Criteria Tinnitus 2017, variant 2;
  CNS vestibular schwannoma guideline 2017); a head CT does not show the canal contents.
- Bilateral nonpulsatile tinnitus with a symmetric high-frequency sensorineural hearing loss and a
  normal neurologic exam -> no imaging of the head (KAS 3, strong recommendation against); a
  hearing aid evaluation (KAS 7).
- A prior anaphylactic reaction to a gadolinium-based agent (asymmetric branch): the MRI is done
  without contrast, as a high-resolution heavily T2-weighted IAC study (ACR Manual on Contrast
  Media 2024; non-contrast T2 MRI detects vestibular schwannoma with 97-98% sensitivity).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

CPT = "http://www.ama-assn.org/go/cpt|"
HEAD_CT = ["70450", "70460", "70470"]
TEMPORAL_CT = ["70480", "70481", "70482"]
BRAIN_MRI = ["70551", "70552", "70553"]
# MRI or MRA of the head and neck with contrast, CTA of the head and neck, carotid duplex.
CONTRAST_MR = ["70552", "70553", "70542", "70543", "70545", "70546", "70548", "70549"]
VASCULAR = ["70544", "70545", "70546", "70547", "70548", "70549", "70496", "70498", "93880",
            "93882"]
# An order text that makes a 70551 an internal auditory canal study, and an MRI named by the canals.
IAC_PROTOCOL = ["internal auditory", "IAC", "cerebellopontine", "T2", "CISS", "FIESTA"]
IAC_MRI = ["MRI internal auditory", "MRI of the internal auditory", "MR internal auditory",
           "MRI IAC", "MRI of the IAC", "IAC MRI", "MR IAC", "MRI brain/IAC", "MRI brain and IAC"]
FREQS = (500, 1000, 2000, 3000, 4000, 8000)
# Better (left) ear and the symmetric profile: a mild-to-moderate sloping high-frequency loss.
LEFT = (15, 15, 20, 25, 35, 40)
SYM_RIGHT = (15, 20, 30, 40, 50, 55)
SYM_LEFT = (15, 15, 30, 40, 45, 55)


def _row(thresholds: tuple[int, ...]) -> str:
    return ", ".join(f"{f} Hz {t}" for f, t in zip(FREQS, thresholds, strict=True))


def audiogram(values: dict[str, Any]) -> dict[str, Any]:
    gap = int(values["gap_db"])
    if values["audiogram"] == "asymmetric":
        # The right ear is 'gap' dB worse from 2 to 8 kHz (0-10 dB below 2 kHz).
        right = (20, 25) + tuple(min(t + gap, 90) for t in LEFT[2:])
        left = LEFT
        wrs_right, wrs_left = 96 - gap - 8, 96
        asym = True
    else:
        right, left = SYM_RIGHT, SYM_LEFT
        wrs_right, wrs_left = 92, 96
        asym = False
    diffs = [abs(r - s) for r, s in zip(right, left, strict=True)]
    contiguous = any(a >= 15 and b >= 15 for a, b in zip(diffs, diffs[1:], strict=False))
    if contiguous != asym or (abs(wrs_right - wrs_left) >= 15) != asym:
        raise ValueError(f"audiogram outside the task's design: {diffs}")
    reaction = bool(values["gad_reaction"])
    imaging = "none" if not asym else "noncontrast_mri" if reaction else "contrast_mri"
    now = values["now"]
    return {
        "imaging": imaging,
        # The oracle reads the breast MRI note of 4 years ago by date (+/- 6 weeks).
        "old_from": (now - timedelta(days=4 * 365 + 43)).date().isoformat(),
        "old_to": (now - timedelta(days=4 * 365 - 41)).date().isoformat(),
        "allergy_list": "gadolinium-based contrast" if reaction else "no known drug allergies",
        "head_ct_codes": [CPT + c for c in HEAD_CT],
        "head_imaging_codes": [CPT + c for c in HEAD_CT + TEMPORAL_CT + BRAIN_MRI + VASCULAR],
        "contrast_mr_codes": [CPT + c for c in CONTRAST_MR],
        "iac_protocol_words": IAC_PROTOCOL,
        "iac_mri_words": IAC_MRI,
        "breast_mri_text": (
            "Gadobutrol 7.5 mL IV given; within 5 minutes generalized hives, wheeze and blood "
            "pressure 78/40. Treated with IM epinephrine 0.5 mg, IV fluids, diphenhydramine and "
            "methylprednisolone; recovered in the ED and discharged the same evening. Allergy list "
            "updated: gadolinium-based contrast (gadobutrol) - ANAPHYLAXIS. Avoid gadolinium "
            "agents in future." if reaction else
            "Gadobutrol 7.5 mL IV given without any reaction. No suspicious enhancement (BI-RADS "
            "1). Continue annual mammography."),
        "right_thresholds": _row(right),
        "left_thresholds": _row(left),
        "wrs_right": wrs_right,
        "wrs_left": wrs_left,
        "max_gap": max(diffs),
        "asymmetric": asym,
        "tinnitus_text": "right-sided" if asym else "bilateral",
        "condition_note": ("Right-sided constant high-pitched tinnitus, nonpulsatile." if asym
                           else "Bilateral constant high-pitched tinnitus, nonpulsatile."),
    }
