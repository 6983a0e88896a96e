"""urinary_retention_workup: prostate size and the precipitating anticholinergic drug.

AUA BPH guideline (2021, amended 2023): an alpha blocker before a trial without catheter for
acute urinary retention; a 5-alpha reductase inhibitor only with prostatic enlargement
(volume over 30 mL on imaging, PSA over 1.5 ng/mL or a palpably enlarged gland), never for a
gland that is not enlarged. AGS Beers Criteria 2023: avoid strongly anticholinergic drugs in
men with lower urinary tract symptoms or BPH.
"""

from __future__ import annotations

from typing import Any

# The drug that precipitated the retention: order data and the lexicon concept of the note.
CULPRITS = {
    "diphenhydramine": {
        "culprit_rxnorm": "1049909", "culprit_dose": "25 mg", "culprit_concept": "diphenhydramine",
        "culprit_names": ["diphenhydramine"], "culprit_reason": "193462001",
        "culprit_sig": "Take 1 capsule (25 mg) by mouth at bedtime for sleep.",
        "culprit_story": "Started diphenhydramine 25 mg at bedtime for insomnia 3 weeks ago",
    },
    "amitriptyline": {
        "culprit_rxnorm": "856834", "culprit_dose": "25 mg", "culprit_concept": "amitriptyline",
        "culprit_names": ["amitriptyline"], "culprit_reason": "386033004",
        "culprit_sig": "Take 1 tablet (25 mg) by mouth at bedtime.",
        "culprit_story": ("Started amitriptyline 25 mg at bedtime for painful neuropathy of "
                          "the feet 3 weeks ago"),
    },
}
ENLARGED_ABOVE_ML = 30  # AUA 2021/2023: 5-ARI for prostate volume > 30 mL


def urinary_retention(values: dict[str, Any]) -> dict[str, Any]:
    size = values["prostate"]["size"]
    volume = values["large_volume"] if size == "large" else values["small_volume"]
    if (volume > ENLARGED_ABOVE_ML) != (size == "large"):
        raise ValueError(f"prostate volume {volume} mL does not fit the {size} branch")
    out: dict[str, Any] = dict(CULPRITS[values["culprit"]["name"]])
    out["culprit_name"] = values["culprit"]["name"]
    out["prostate_volume"] = volume
    # PSA measured before the retention (catheterisation and retention raise it).
    out["psa"] = 2.6 if size == "large" else 0.8
    out["gland_text"] = (
        f"Prostate volume {volume} mL (enlarged). Median lobe not seen. Bladder wall mildly "
        "trabeculated."
        if size == "large" else
        f"Prostate volume {volume} mL (normal size). Bladder wall smooth."
    )
    return out
