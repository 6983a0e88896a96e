"""premenopausal_osteoporosis_hpt: hypercalcemia with a non-suppressed PTH and low bone density in
a 41-year-old woman planning a pregnancy, whose PCP started alendronate and plans a thiazide.

Three scenarios (``scenario[name]``):
- ``phpt_low_d``: primary hyperparathyroidism (calcium/creatinine clearance ratio, CCCR, above
  0.02) with 25-hydroxyvitamin D below 20 ng/mL -> refer for parathyroidectomy (age < 50, Fifth
  International Workshop 2022), localization imaging, vitamin D repletion.
- ``phpt``: primary hyperparathyroidism with a replete vitamin D -> referral and localization.
- ``fhh``: CCCR below 0.01 -> familial hypocalciuric hypercalcemia: no surgery, no localization
  imaging, CASR genetic testing.
In every scenario: stop alendronate and start no antiresorptive (premenopausal, pregnancy
planned), no thiazide; the bone density is read by Z-score (ISCD).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_graders.endocrinology_bone import ckd_epi_2021, rxnorm_codes

from physbench_gym.synth import terminology

REFERRAL = ["http://snomed.info/sct|306307004"]
REFERRAL_CATEGORY = ["http://snomed.info/sct|3457005"]
IMAGING_CATEGORY = ["http://snomed.info/sct|363679005"]
LABORATORY_CATEGORY = ["http://snomed.info/sct|108252007"]
LOCALIZATION = ["http://www.ama-assn.org/go/cpt|78070", "http://www.ama-assn.org/go/cpt|78071",
                "http://www.ama-assn.org/go/cpt|78072", "http://www.ama-assn.org/go/cpt|76536"]
# Words of a parathyroid localization study, matched on imaging-category orders only (a referral
# for parathyroidectomy or a repeat PTH also names the parathyroid).
LOCALIZATION_TEXT = ["sestamibi", "MIBI", "SPECT/CT", "SPECT-CT", "4D-CT", "4DCT", "4D CT",
                     "parathyroid scan", "parathyroid scintigraphy", "parathyroid imaging",
                     "parathyroid ultrasound", "parathyroid localization", "choline PET",
                     "neck ultrasound", "ultrasound neck", "US neck", "neck US",
                     "soft tissues of head and neck"]
SURGERY_TEXT = ["endocrine surg", "general surg", "surgeon", "surgery", "parathyroidectomy"]
# A surgical referral in familial hypocalciuric hypercalcemia: words of the surgical service,
# not 'surgery' alone, which a genetics referral may negate ('parathyroid surgery not indicated').
SURGICAL_SERVICE_TEXT = ["endocrine surg", "general surg", "head and neck surg",
                         "surgical referral", "referral to surg", "surgical consult", "surgeon"]
CASR_TEST = ["http://www.ama-assn.org/go/cpt|81405"]
CASR_TEXT = ["CASR", "calcium-sensing receptor", "calcium sensing receptor", "hypocalciuric"]
GENETICS_TEXT = ["genetic", "genomic"]
IU_UNITS = ("IU", "[iU]", "units", "unit", "U")
WEEK = (0.14, 0.145)
# High-dose vitamin D products: the ergocalciferol 50,000 IU (1.25 mg) capsule.
HIGH_DOSE_D = sorted(c.code for c in terminology.all_concepts("rxnorm")
                     if c.extra.get("drug_class", "") == "vitamin D"
                     and c.extra.get("strength", "").upper() == "1.25 MG")


def _vitamin_d_orders() -> list[dict[str, Any]]:
    """Vitamin D at 50,000 IU once weekly (a capsule of 1.25 mg) or 800-4,000 IU once daily."""
    options = []
    for code in rxnorm_codes("vitamin D"):
        for low, high, per_day in ((50_000, 50_000, WEEK), (800, 4_000, (1, 1))):
            doses = [(low, high, u) for u in IU_UNITS] + [(low / 40_000, high / 40_000, "mg"),
                                                         (low / 40, high / 40, "mcg")]
            if low == 50_000:
                doses += [(1, 1, u) for u in ("capsule", "capsules", "cap", "{capsule}", "{cap}")]
            options += [{"ordered": {
                "resource_type": "MedicationRequest", "codes": [code], "status": ["active"],
                "intent": ["order"], "dose": {"min": d[0], "max": d[1], "unit": d[2]},
                "per_day": {"min": per_day[0], "max": per_day[1]},
                "label": "vitamin D 50,000 IU weekly or 800-4,000 IU daily"}} for d in doses]
    return options


def _forbidden_drugs() -> list[dict[str, Any]]:
    # ACE inhibitors, ARBs and ARNI: fetal toxicity (boxed warnings) with a pregnancy planned.
    classes = ("bisphosphonate", "RANK ligand inhibitor", "thiazide diuretic",
               "thiazide-like diuretic", "ACE inhibitor", "ACE inhibitor + thiazide diuretic",
               "angiotensin II receptor blocker",
               "angiotensin II receptor blocker + thiazide diuretic",
               "angiotensin receptor-neprilysin inhibitor")
    codes = sorted({c for k in classes for c in rxnorm_codes(k)})
    codes += sorted(c.code for c in terminology.all_concepts("rxnorm")
                    if "thiazide" in c.extra.get("drug_class", "").lower()
                    or "hydrochlorothiazide" in c.display.lower()
                    or c.extra.get("ingredient", "").lower() in ("raloxifene", "teriparatide",
                                                                 "abaloparatide", "romosozumab"))
    codes = sorted(set(codes))
    return [{"not_ordered": {"resource_type": "MedicationRequest", "codes": codes,
                             "label": "no bisphosphonate, denosumab or other bone agent, no "
                                      "thiazide, no ACE inhibitor or ARB"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": HIGH_DOSE_D,
                             "per_day": {"min": 0.5}, "label": "vitamin D 50,000 IU daily"}}]


def _forbidden_when_replete() -> list[dict[str, Any]]:
    """Vitamin D replete: the 50,000 IU capsule is above 4,000 IU/day at any schedule."""
    return [_forbidden_drugs()[0],
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": HIGH_DOSE_D,
                             "label": "no high-dose (50,000 IU) vitamin D when replete"}}]


def primary_hyperparathyroidism_plan(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    fhh, low_d = name == "fhh", name == "phpt_low_d"
    d = {k: float(values[k]) for k in ("ca_draw", "pth_draw", "cccr_draw", "vitd_draw", "z_draw",
                                       "scr_draw")}
    ca = round(10.6 + 0.5 * d["ca_draw"], 1) if fhh else round(10.9 + 0.7 * d["ca_draw"], 1)
    albumin = float(values["albumin"])
    corrected = round(ca + 0.8 * (4.0 - albumin), 1)
    pth = (round(40 + 26 * d["pth_draw"]) if fhh else
           round(96 + 60 * d["pth_draw"]) if low_d else round(74 + 56 * d["pth_draw"]))
    vitd = round(11 + 7 * d["vitd_draw"]) if low_d else round(31 + 16 * d["vitd_draw"])
    scr = round(0.74 + 0.16 * d["scr_draw"], 2)
    ucr = int(values["urine_creatinine"])
    target = (0.003 + 0.005 * d["cccr_draw"] if fhh else 0.021 + 0.006 * d["cccr_draw"]
              if low_d else 0.022 + 0.010 * d["cccr_draw"])
    uca = int(round(target * ca * ucr / scr))
    cccr = round(uca * scr / (ca * ucr), 4)
    if not (cccr < 0.01 if fhh else cccr > 0.02):
        raise ValueError(f"CCCR {cccr} outside the {name} band")
    radius_z = round(-1.9 + 0.5 * d["z_draw"], 1) if fhh else round(-3.0 + 0.8 * d["z_draw"], 1)
    z = {"radius": radius_z, "spine": round(radius_z + 0.5, 1), "neck": round(radius_z + 0.8, 1),
         "hip": round(radius_z + 1.0, 1)}
    t = {site: round(v - 0.2, 1) for site, v in z.items()}
    egfr = int(round(ckd_epi_2021(scr, int(values["age"]), True)))
    now = values["now"]
    return {
        # 2 years ago: always above the 10.3 upper limit (flagged high) and outside the current
        # measured-to-corrected range; stable for life in FHH, lower and rising in PHPT.
        "ca": ca, "ca_prior": round(ca - 0.2, 1),
        "ca_old": round(ca + 0.2, 1) if fhh else round(max(ca - 0.6, 10.4), 1),
        "albumin": albumin, "corrected_ca": corrected,
        # the measured or the albumin-corrected value, to the 0.1 mg/dL reported (not 7 weeks ago)
        "ca_min": round(min(ca, corrected) - 0.05, 2),
        "ca_max": round(max(ca, corrected) + 0.05, 2),
        "pth": pth, "vitd": vitd, "scr": scr, "egfr": egfr, "ucr": ucr, "uca": uca,
        "cccr": cccr, "cccr_text": f"{cccr:.4f}".rstrip("0"),
        "z": z, "t": t, "radius_z": radius_z,
        # the problem-list entry and the alendronate indication follow the DXA report's T-score
        "bmd_condition": "312894000" if t["radius"] > -2.5 else "64859006",
        "dxa_impression": ("Osteopenia (low bone mass) by WHO criteria; lowest T-score at the "
                           "distal one-third radius." if t["radius"] > -2.5 else
                           "Osteoporosis by WHO criteria (T-score -2.5 or below at the distal "
                           "one-third radius)."),
        "in_8_weeks": (now + timedelta(days=56)).date().isoformat(),
        "forbidden": _forbidden_drugs(), "forbidden_replete": _forbidden_when_replete(),
        "vitamin_d_orders": _vitamin_d_orders(),
        "referral_codes": REFERRAL, "localization_codes": LOCALIZATION,
        "localization_text": LOCALIZATION_TEXT, "surgery_text": SURGERY_TEXT,
        "surgical_service_text": SURGICAL_SERVICE_TEXT, "referral_category": REFERRAL_CATEGORY,
        "imaging_category": IMAGING_CATEGORY, "laboratory_category": LABORATORY_CATEGORY,
        "casr_test": CASR_TEST, "casr_text": CASR_TEXT, "genetics_text": GENETICS_TEXT,
        "diagnosis_concept": ["fhh"] if fhh else ["primary_hyperparathyroidism"],
        "diagnosis_opposite": ["primary_hyperparathyroidism"] if fhh else ["fhh"],
        "diagnosis_text": ("familial hypocalciuric hypercalcemia" if fhh
                           else "primary hyperparathyroidism"),
    }
