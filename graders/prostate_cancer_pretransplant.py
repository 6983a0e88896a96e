"""prostate_cancer_pretransplant: is a dialysis patient with prostate cancer on active
surveillance ready to be listed for a kidney transplant?

The scenario decides the answer (NCCN Prostate Cancer v4.2024; AUA/ASTRO/SUO 2022; AST
consensus on pretransplant malignancy 2021):
- stable: Grade Group 1, cT1c, PSA below 10 and flat (PSA density about 0.12), surveillance MRI
  9 months and biopsy 8 months ago unchanged -> NCCN low risk, stable on active surveillance ->
  may be listed now; continue active surveillance (next PSA in 6 months); no staging imaging.
- rising: the same disease, but the PSA has risen on two draws since the last MRI and biopsy
  (still below 10) -> still low risk on record, possible reclassification -> repeat prostate MRI
  (then targeted biopsy) before the listing decision; listing deferred; no staging imaging yet.
- upgraded: the rise was worked up - new PI-RADS 5 lesion, targeted biopsy Grade Group 3 ->
  NCCN unfavorable intermediate risk, no longer an active-surveillance candidate -> staging
  imaging (PSMA PET or bone scan), referral for definitive treatment, listing deferred until
  after it.
The latest PSA is drawn per scenario (stable 5.4-6.4, inside his 3-year run of 5.2-6.1 plus at
most +0.3 ng/mL; rising 8.4-9.8 ng/mL). The NCCN groups are read with the shared levels and the
task's NCCN names: favorable intermediate and very low are wrong on every branch (Grade Group 3
is unfavorable intermediate; 3 positive cores at diagnosis are not very low).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

LEVELS = ["level_low", "level_intermediate", "level_high"]
NCCN_NAMES = ["nccn_very_low_risk", "nccn_favorable_intermediate", "nccn_unfavorable_intermediate"]
# the highest surveillance PSA before the latest draw (5.5, 5.6, 5.2, 5.9, 5.7, 6.1)
PSA_SURVEILLANCE_HIGH = 6.1
PROSTATE_VOLUME_ML = 53


def prostate_pretransplant(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    stable = kind == "stable"
    psa_now = float(values["psa_stable"] if stable else values["psa_rising"])
    if not (5.4 <= psa_now <= 6.4 if stable else 8.4 <= psa_now < 10):
        raise ValueError(f"variant outside the task's design: {kind}, PSA {psa_now}")
    # Grade Group 3 is unfavorable intermediate; a bare 'intermediate risk' is not wrong
    risk = (["nccn_unfavorable_intermediate", "level_intermediate"] if kind == "upgraded"
            else ["level_low"])
    cleared = ["transplant_listing_cleared"]
    deferred = ["transplant_listing_deferred"]
    return {
        "kind": kind,
        "psa_now": psa_now,
        "psa_density": round(psa_now / PROSTATE_VOLUME_ML, 2),
        # the 6-month value before the latest: flat on the stable branch, already rising otherwise
        "psa_prior": 6.1 if stable else 7.3,
        # upgraded: the latest PSA came 3.5 weeks after a 16-core biopsy; the rise stands on
        # the pre-biopsy 8.3, so the latest value may be left out (never misstated)
        "psa_value_required": kind != "upgraded",
        "psa_range_high": max(PSA_SURVEILLANCE_HIGH, psa_now) if stable else PSA_SURVEILLANCE_HIGH,
        "risk_level": risk,
        "risk_others": [level for level in LEVELS + NCCN_NAMES if level not in risk],
        "risk_group": {"stable": "low", "rising": "low (for now)",
                       "upgraded": "unfavorable intermediate"}[kind],
        # a trend word in a clause that names the PSA ('the PSA of 6.3 is stable'), or a PSA
        # trend phrase; 'not a PSA rise' (the opposite denied) states it as well. A PSA blamed
        # on dialysis ('hemodialysis falsely elevates total PSA') reads no trend in any branch:
        # total PSA is not raised by hemodialysis
        # a sustained PSA rise states the rise, but only the rising branches read it: in the
        # stable branch it is the surveillance trigger ('I'd want to hear about a sustained
        # PSA rise'), not a rise the note claims
        "trend_concept": (["psa_stable", "stability"] if stable
                          else ["psa_rise", "psa_rise_sustained"]),
        "trend_opposite": (["psa_rise"] if stable else ["psa_stable"]) + ["psa_falsely_elevated"],
        "trend_text": "stable" if stable else "rising",
        "listing_concept": cleared if stable else deferred,
        "listing_opposite": deferred if stable else cleared,
        "listing_text": {"stable": "may be listed now",
                         "rising": "listing deferred until the repeat MRI (and biopsy if needed)",
                         "upgraded": "listing deferred until after definitive treatment"}[kind],
        # next surveillance PSA: no more often than every 6 months (NCCN active surveillance)
        "psa_due": (values["now"] + timedelta(days=182)).date().isoformat(),
    }
