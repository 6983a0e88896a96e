"""dual_incontinence_workup: what drives combined fecal and urinary incontinence, and the work-up.

The scenario decides the answer (ACG 2021 benign anorectal disorders; ASCRS 2023 fecal
incontinence guideline; AUA/SUFU 2017 stress incontinence; AFP 2013 post-void residual
thresholds; NICE/GIRFT cauda equina guidance):
- sphincter (canonical): fecal urgency and leakage years after a third-degree obstetric tear,
  weak squeeze on DRE, stress urinary leakage, normal post-void residual (< 50 mL) ->
  anal sphincter weakness; anorectal manometry, endoanal ultrasound, pelvic floor biofeedback.
- overflow: hard stool in the rectum, a loaded colon on the radiograph, liquid seepage and a
  post-void residual over 300 mL on oxybutynin -> fecal impaction with overflow and urinary
  retention; disimpaction, no loperamide, repeat bladder scan after disimpaction.
- cauda_equina: saddle numbness, bilateral sciatica, lax anal tone and a post-void residual
  over 300 mL -> suspected cauda equina syndrome; emergency lumbar MRI and same-day spine
  surgery; no outpatient anorectal testing first.
Every branch: stop oxybutynin (not for stress leakage; anticholinergic, worsens retention and
constipation) and start no other bladder antimuscarinic.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
OXYBUTYNIN = "863619"
# Bladder antimuscarinics named on a MedicationRequest (any product, code or free text).
ANTIMUSCARINIC_TEXT = ["oxybutynin", "Ditropan", "tolterodine", "Detrol", "solifenacin",
                       "Vesicare", "trospium", "darifenacin", "Enablex", "fesoterodine", "Toviaz"]
LOPERAMIDE_TEXT = ["loperamide", "Imodium", "diphenoxylate", "Lomotil"]
CPT = "http://www.ama-assn.org/go/cpt|"

MECHANISM = {
    "sphincter": "anal sphincter weakness after an obstetric sphincter injury",
    "overflow": "fecal impaction with overflow incontinence",
    "cauda_equina": "suspected cauda equina syndrome",
}
URINARY = {
    "sphincter": "stress urinary incontinence with normal bladder emptying",
    "overflow": "urinary retention with overflow",
    "cauda_equina": "urinary retention with overflow (neurogenic)",
}


def dual_incontinence(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in MECHANISM:
        raise ValueError(f"unknown scenario {kind!r}")
    # A residual under 50 mL is normal and 200 mL or more is inadequate emptying (AFP 2013); the
    # retention branches draw over 300 mL, well clear of that threshold.
    pvr = values["pvr_low"] if kind == "sphincter" else values["pvr_high"]
    if (kind == "sphincter") != (pvr < 50) or (kind != "sphincter" and pvr <= 300):
        raise ValueError(f"post-void residual {pvr} mL does not fit {kind}")
    now = values["now"]
    return {
        "pvr": pvr,
        # Date windows for the older notes (obstetric history and old back pain > 4.5 years;
        # cystitis and dermatology 2-4.5 years), as the notes search truncates long answers.
        "notes_4y": (now - timedelta(days=1640)).date().isoformat(),
        "notes_2y": (now - timedelta(days=730)).date().isoformat(),
        "mechanism_text": MECHANISM[kind],
        "urinary_text": URINARY[kind],
        "urinary_concept": ["stress_urinary_incontinence"] if kind == "sphincter"
        else ["urinary_retention"],
        # A retention note may still mention last year's stress leakage, so no opposite there.
        "urinary_opposite": ["urinary_retention"] if kind == "sphincter" else [],
        "oxybutynin_codes": [RX + OXYBUTYNIN],
        "antimuscarinic_text": ANTIMUSCARINIC_TEXT,
        "antidiarrheal_text": LOPERAMIDE_TEXT,
        "anorectal_test_codes": [CPT + "91122", CPT + "76872", CPT + "90912"],
    }
