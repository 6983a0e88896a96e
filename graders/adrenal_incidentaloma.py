"""adrenal_incidentaloma: imaging phenotype and hormonal work-up of an incidental adrenal mass.

Three independent draws (ESE/ENSAT 2023, Fassnacht et al., Eur J Endocrinol 2023;189:G1-G42):
- ``phenotype``: ``benign`` (homogeneous, unenhanced attenuation 2-9 HU: no further imaging and
  no metanephrines needed) or ``indeterminate`` (lipid-poor, 24-36 HU: dedicated adrenal imaging
  now, or repeat imaging in 6-12 months, and plasma or urine metanephrines).
- ``cortisol``: ``suppressed`` (cortisol after 1 mg dexamethasone 0.8-1.6 ug/dL, <= 1.8: no
  autonomous cortisol secretion) or ``macs`` (2.4-4.6 ug/dL: mild autonomous cortisol secretion,
  ACTH and/or a repeat DST with a dexamethasone level).
- ``pressure``: ``htn_hypok`` (hypertension with spontaneous hypokalemia: aldosterone and renin)
  or ``normotensive`` (normal blood pressure, potassium normal once vomiting resolved).
An adrenal biopsy is never indicated.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import matches_code, patient_id

CPT = "http://www.ama-assn.org/go/cpt|"
LOINC = "http://loinc.org|"
IMAGING_CODES = [CPT + c for c in ("74150", "74160", "74170", "74176", "74177", "74178",
                                   "74181", "74182", "74183", "78815")]
IMAGING_TEXT = ["adrenal protocol", "adrenal CT", "CT adrenal", "adrenal MRI", "MRI adrenal",
                "washout", "chemical shift", "chemical-shift", "MRI abdomen", "CT abdomen",
                "Computed tomography, abdomen", "Magnetic resonance (eg, proton) imaging, abdomen",
                "PET/CT", "PET-CT", "PET imaging"]
# A study that characterizes a lipid-poor mass now (ESE/ENSAT 2023 R2.4): washout CT,
# chemical-shift MRI, FDG-PET/CT. A plain CT or MRI only shows growth: 6-12 months out.
NOW_CODES = [CPT + c for c in ("74170", "74181", "74183", "78815")]
NOW_TEXT = re.compile(r"washout|chemical[- ]shift|opposed[- ]phase|adrenal[- ]protocol|"
                      r"PET", re.IGNORECASE)
LATER_CODES = [CPT + c for c in ("74150", "74176", "74177", "74178", "74182")]
SURGERY = [{"not_ordered": {"resource_type": "ServiceRequest",
                            "text_contains": ["adrenalectomy", "adrenal surgery",
                                              "endocrine surg", "surgical", "general surgery"],
                            "label": "adrenalectomy or surgical referral"}}]
BIOPSY = [{"not_ordered": {"resource_type": "ServiceRequest", "codes": [CPT + "49180"],
                           "label": "adrenal biopsy"}},
          {"not_ordered": {"resource_type": "ServiceRequest",
                           "text_contains": ["biopsy", "fine needle", "fine-needle", "FNA"],
                           "label": "adrenal biopsy"}}]


def _lab(codes: list[str], text: list[str], label: str) -> dict[str, Any]:
    return {"any": {"of": [
        {"ordered": {"resource_type": "ServiceRequest", "codes": codes, "status": ["active"],
                     "intent": ["order"], "label": label}},
        {"ordered": {"resource_type": "ServiceRequest", "text_contains": text,
                     "status": ["active"], "intent": ["order"], "label": label}}]}}


def _none(codes: list[str], text: list[str], label: str) -> list[dict[str, Any]]:
    return [{"not_ordered": {"resource_type": "ServiceRequest", "codes": codes, "label": label}},
            {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": text,
                             "label": label}}]


def _order(concepts: list[str], label: str) -> dict[str, Any]:
    return {"note_decision": {"concept": concepts, "action": ["order"], "label": label}}


def adrenal_incidentaloma(values: dict[str, Any]) -> dict[str, Any]:
    now: datetime = values["now"]
    benign = values["phenotype"] == "benign"
    macs = values["cortisol"] == "macs"
    htn = values["pressure"] == "htn_hypok"
    hu_draw, size_draw = float(values["hu_draw"]), float(values["size_draw"])
    hu = 2 + round(7 * hu_draw) if benign else 24 + round(12 * hu_draw)
    size_cm = round((1.6 + 1.8 * size_draw) if benign else (2.2 + 1.4 * size_draw), 1)
    short_cm = round(size_cm * 0.8, 1)
    dst_draw, k_draw = float(values["dst_draw"]), float(values["k_draw"])
    dst = round(2.4 + 2.2 * dst_draw, 1) if macs else round(0.8 + 0.8 * dst_draw, 1)
    k = round(3.1 + 0.3 * k_draw, 1) if htn else round(3.9 + 0.7 * k_draw, 1)
    sbp = 146 + round(12 * k_draw) if htn else 116 + round(10 * k_draw)
    dbp = 92 + round(6 * size_draw) if htn else 72 + round(8 * size_draw)

    labs: list[dict[str, Any]] = []
    plan: list[dict[str, Any]] = []
    if htn:
        labs += [_lab([CPT + "82088", LOINC + "1763-2"], ["aldosterone"], "plasma aldosterone"),
                 _lab([CPT + "84244", LOINC + "2915-7"], ["renin"],
                      "plasma renin activity or concentration")]
        plan.append(_order(["pa_screen"], "aldosterone and renin (screen for primary "
                                          "aldosteronism)"))
    else:  # normotensive and normokalemic: no case-detection indication (ESE/ENSAT 2023)
        labs += _none([CPT + "82088", LOINC + "1763-2", CPT + "84244", LOINC + "2915-7"],
                      ["aldosterone", "renin"], "aldosterone or renin (no indication)")
    if not benign:
        labs.append(_lab([CPT + "83835"], ["metanephrine"],
                         "plasma free or 24-hour urine fractionated metanephrines"))
        plan.append(_order(["metanephrines"], "plasma or urine metanephrines"))
    if macs:
        labs.append({"any": {"of": [
            _lab([CPT + "82024", LOINC + "2141-0"], ["ACTH", "corticotropin"], "plasma ACTH"),
            _lab([CPT + "82627"], ["DHEA-S", "DHEAS", "DHEA sulfate"], "DHEA-S"),
            {"ordered": {"resource_type": "ServiceRequest", "text_contains": ["dexamethasone"],
                         "status": ["active"], "intent": ["order"],
                         "label": "repeat 1 mg DST with a dexamethasone level"}}]}})
        plan.append(_order(["cortisol_excess_workup", "dheas"],
                           "ACTH, DHEA-S or a repeat 1 mg DST with a dexamethasone level"))
        # MACS: reassess the cortisol-related comorbidities (ESE/ENSAT 2023 R3.5, R4)
        plan.append({"note_decision": {
            "concept": ["a1c", "glucose", "lipid_panel", "dxa", "blood_pressure"],
            "action": ["order", "counsel", "start"],
            "label": "review of blood pressure, glucose, lipids and bone health"}})
    else:  # DST normal: no further cortisol testing (ESE/ENSAT 2023 R3.2)
        labs += _none([CPT + "82024", LOINC + "2141-0", CPT + "82627", CPT + "82533",
                       LOINC + "2143-6"],
                      ["ACTH", "corticotropin", "DHEA", "dexamethasone"],
                      "further cortisol testing after a normal DST")
    # no mineralocorticoid receptor antagonist before the aldosterone-to-renin ratio
    labs.append({"not_ordered": {"resource_type": "MedicationRequest",
                                 "text_contains": ["spironolactone", "eplerenone"],
                                 "label": "mineralocorticoid receptor antagonist"}})
    plan.append({"note_never": {"concept": ["spironolactone"],
                                "action": ["start", "order", "endorse", "allow", "implicit"],
                                "allow_contingency": True,
                                "contingency_on": ["pa_screen", "aldosterone", "renin"],
                                "label": "no mineralocorticoid antagonist before the ARR"}})
    never_biopsy = {"note_never": {"concept": ["adrenal_biopsy"],
                                   "action": ["start", "order", "endorse", "allow", "implicit",
                                              "refer"],
                                   "label": "no adrenal biopsy"}}
    plan.append(never_biopsy)
    nonfunctioning = benign and not macs and not htn
    # A benign non-functioning mass is never operated on (ESE/ENSAT 2023 R1.2); otherwise
    # surgery is a later option (after pheochromocytoma is excluded, PA confirmed, or MACS
    # comorbidities weighed), so only a committed referral or operation now fails.
    never_surgery = {"note_never": {
        "concept": ["adrenalectomy"],
        "action": (["start", "order", "endorse", "allow", "implicit", "refer"] if nonfunctioning
                   else ["start", "order", "refer"]),
        "allow_contingency": not nonfunctioning, "label": "no adrenalectomy now"}}

    if benign:
        imaging_orders = [{"not_ordered": {"resource_type": "ServiceRequest",
                                           "codes": IMAGING_CODES, "label": "adrenal imaging"}},
                          {"not_ordered": {"resource_type": "ServiceRequest",
                                           "text_contains": IMAGING_TEXT,
                                           "label": "adrenal imaging"}}]
        imaging_plan = [
            {"note_never": {"concept": ["adrenal_imaging", "ct_imaging", "pet_ct"],
                            "action": ["start", "order", "endorse", "allow", "implicit",
                                       "continue", "resume"],
                            "label": "no further adrenal imaging"}},
            {"any": {"of": [
                {"note_finding": {"concept": ["no_further_adrenal_imaging"],
                                  "opposite": ["adrenal_followup_imaging"],
                                  "label": "states that no further imaging is needed"}},
                {"note_decision": {"concept": ["adrenal_imaging", "ct_imaging"],
                                   "action": ["avoid"],
                                   "label": "states that no further imaging is needed"}}]}}]
    else:
        imaging_orders = ["graders/adrenal_incidentaloma.py:characterizing_imaging_ordered"]
        imaging_plan = [{"any": {"of": [
            {"note_decision": {"concept": ["adrenal_characterization", "pet_ct"],
                               "action": ["order"],
                               "label": "washout CT, chemical-shift MRI or FDG-PET/CT now"}},
            {"note_decision": {"concept": ["adrenal_followup_imaging", "ct_imaging"],
                               "action": ["order"], "timing": {"min": 5, "max": 13, "unit": "mo"},
                               "label": "repeat imaging in 6-12 months"}}]}}]
    imaging_plan.append(never_surgery)

    wanted = ((["aldosterone and renin (primary aldosteronism screen, hypertension with "
                "hypokalemia)"] if htn else [])
              + (["plasma or urine metanephrines (indeterminate mass)"] if not benign else [])
              + (["ACTH (or a repeat 1 mg DST with a dexamethasone level) for MACS"]
                 if macs else []))
    labs_plan = "; ".join(wanted) if wanted else (
        "no further hormonal tests (DST normal, normotensive and normokalemic, 10 HU or less)")
    skipped = ((["no aldosterone/renin needed (normotensive, potassium normal)"] if not htn
                else []) + (["metanephrines optional at 10 HU or less"] if benign else [])
               + (["no further cortisol testing (DST normal)"] if not macs else []))
    message = "; ".join(
        [f"right adrenal nodule {size_cm} cm, {hu} HU: "
         + ("benign lipid-rich adenoma, no further imaging" if benign
            else "indeterminate - metanephrines and adrenal-protocol washout CT ordered"),
         f"post-dexamethasone cortisol {dst} ug/dL: "
         + ("MACS - ACTH and DHEA-S ordered, treat and review comorbidities yearly" if macs
            else "normal suppression, no autonomous cortisol secretion"),
         ("aldosterone and renin ordered (replete potassium first)" if htn
          else "no primary aldosteronism screening needed"), "no adrenal biopsy"])
    return {
        "labs_plan": labs_plan, "message": message,
        "labs_description": ("Ordered " + "; ".join(wanted) + (". Not required: "
                                                               + "; ".join(skipped)
                                                               if skipped else "") + "."
                             if wanted else "No further hormonal test is required ("
                             + "; ".join(skipped) + "); no adrenal biopsy ordered."),
        "k_text": (f", and states the current potassium of {k} mmol/L (hypokalemia)" if htn
                   else ""),
        "macs_comorbidity_text": ("Her prediabetes and blood pressure may be related." if htn
                                  else "Her prediabetes may be related."),
        "hu": hu, "size_cm": size_cm, "short_cm": short_cm, "size_mm": int(round(size_cm * 10)),
        "dst": dst, "dst_nmol": int(round(dst / 0.03625)), "k": k, "sbp": sbp, "dbp": dbp,
        "phenotype_concept": ["benign_adrenal_phenotype" if benign
                              else "indeterminate_adrenal_phenotype"],
        "phenotype_opposite": ["indeterminate_adrenal_phenotype" if benign
                               else "benign_adrenal_phenotype"],
        "cortisol_concept": ["macs" if macs else "cortisol_suppressed"],
        "cortisol_opposite": ["cortisol_suppressed", "overt_cushing"] if macs
        else ["macs", "overt_cushing"],
        "order_checks": labs or [{"not_ordered": {"resource_type": "ServiceRequest",
                                                  "codes": [CPT + "49180"],
                                                  "label": "adrenal biopsy"}}],
        "imaging_checks": imaging_orders + BIOPSY + SURGERY,
        "imaging_window": [(now + timedelta(days=152)).date().isoformat(),
                           (now + timedelta(days=396)).date().isoformat()],
        "workup_grader": {"all": {"of": plan}},
        "imaging_grader": {"all": {"of": imaging_plan}},
        "k_required": htn,
    }


def _text(resource: dict[str, Any]) -> str:
    code = resource.get("code") or {}
    parts = [str(code.get("text", ""))] + [str(c.get("display", ""))
                                           for c in code.get("coding", []) or []]
    parts += [str(n.get("text", "")) for n in resource.get("note", []) or []]
    return " ".join(parts)


@triggered_by(WRITE)
def characterizing_imaging_ordered(ctx: GradingContext) -> CheckpointResult:
    """Indeterminate mass: a washout CT, chemical-shift MRI or FDG-PET/CT (undated or within
    13 months), or a plain CT/MRI of the abdomen dated 5-13 months out (ESE/ENSAT 2023 R2.4)."""
    low, high = ctx.values["imaging_window"]
    seen = []
    for r in ctx.written("ServiceRequest"):
        if patient_id(r) != ctx.patient_id or (r.get("status"), r.get("intent")) != (
                "active", "order"):
            continue
        when = str(r.get("occurrenceDateTime") or (r.get("occurrencePeriod") or {}).get(
            "start") or "")[:10]
        if matches_code(r, NOW_CODES) or NOW_TEXT.search(_text(r)):
            if not when or when <= high:
                return CheckpointResult(True, "characterizing adrenal imaging ordered")
            seen.append(f"characterizing study dated {when}")
        elif matches_code(r, LATER_CODES):
            if when and low <= when <= high:
                return CheckpointResult(True, f"repeat imaging ordered for {when}")
            seen.append(f"plain CT/MRI {'dated ' + when if when else 'now'}")
    return CheckpointResult(False, "; ".join(seen) or "no further adrenal imaging ordered"
                            " (washout CT, chemical-shift MRI or FDG-PET/CT, or a repeat CT/MRI"
                            " in 6-12 months)")
