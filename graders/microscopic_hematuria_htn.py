"""microscopic_hematuria_htn: where the hematuria comes from and the work-up it needs.

The profile decides the answer (AUA/SUFU Microhematuria Guideline 2020, amended 2025; KDIGO
2021 GN):
- high: isomorphic red cells, no casts, normal UACR (not glomerular); a man of 58 with more
  than 30 pack-years -> AUA/SUFU high risk -> cystoscopy and multiphase CT urography.
- intermediate: the same urine, 10-30 pack-years -> intermediate risk (a man of 40-59) ->
  cystoscopy and renal ultrasound.
- glomerular: dysmorphic red cells with RBC casts, albuminuria and a falling eGFR (never
  smoker) -> glomerular hematuria: quantify proteinuria, complement C3/C4 and a renal
  ultrasound, ANCA (MPO/PR3) and anti-GBM for the nephritic sediment with a falling eGFR, and
  still the intermediate-risk urologic evaluation (cystoscopy).
The red cell count (every profile), the pack-years and the UACR move the stated values.
Urine cytology and urine tumor markers are not part of the initial evaluation (any profile).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import patient_id

AGE_AT_DESIGN = 58
LEVELS = ("level_low", "level_intermediate", "level_high")
# 'high-risk category' and 'high-risk patient' are read as the lexicon's high_risk_nodule.
HIGH = ("level_high", "high_risk_nodule")
CTU = ["http://www.ama-assn.org/go/cpt|74178"]
RENAL_US = ["http://www.ama-assn.org/go/cpt|76770", "http://www.ama-assn.org/go/cpt|76775"]


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 race-free creatinine equation (mL/min/1.73 m2)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return (142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
            * (1.012 if female else 1.0))


def _creatinine_for(egfr: float, age: int) -> float:
    """Serum creatinine (mg/dL, 2 decimals) giving about ``egfr`` in a man (ratio > 1)."""
    return round(0.9 * (egfr / (142 * 0.9938 ** age)) ** (-1 / 1.2), 2)


def _ordered(label: str, codes: list[str], words: list[str]) -> dict[str, Any]:
    return {"any": {"of": [
        {"ordered": {"resource_type": "ServiceRequest", "codes": codes, "status": ["active"],
                     "label": label}},
        {"ordered": {"resource_type": "ServiceRequest", "text_contains": words,
                     "category": ["http://snomed.info/sct|363679005"], "status": ["active"],
                     "label": label}}]}}


def _lab(label: str, codes: list[str], words: list[str]) -> dict[str, Any]:
    return {"any": {"of": [
        {"ordered": {"resource_type": "ServiceRequest", "codes": codes, "status": ["active"],
                     "label": label}},
        {"ordered": {"resource_type": "ServiceRequest", "text_contains": words,
                     "category": ["http://snomed.info/sct|108252007"], "status": ["active"],
                     "label": label}}]}}


def hematuria_workup(values: dict[str, Any]) -> dict[str, Any]:
    age = int(values["age"])
    kind = values["profile"]["kind"]
    rbc = int(values["rbc"])
    glomerular = kind == "glomerular"
    risk = "high" if kind == "high" else "intermediate"
    pack_years = {"high": int(values["pack_years"]), "intermediate": int(values["pack_years"]) - 18,
                  "glomerular": 0}[kind]
    if (risk == "high") != (pack_years > 30) or rbc > 25 or not 40 <= age <= 59:
        raise ValueError(f"variant outside the task's design: {kind}, {pack_years} pack-years")
    uacr = int(values["uacr_glomerular"]) if glomerular else 8 + rbc % 9
    egfr_target = int(values["egfr_glomerular"]) if glomerular else 84
    creat = _creatinine_for(egfr_target, age)
    egfr = round(ckd_epi_2021(creat, age, False))
    prior_creat = 0.98 if glomerular else 0.96
    imaging = (_ordered("multiphase CT urography", CTU, ["urogra"]) if risk == "high" else
               _ordered("renal ultrasound", RENAL_US, ["renal ultrasound", "kidney ultrasound",
                                                       "renal us", "retroperitoneal"]))
    workup = [imaging]
    if risk != "high":   # intermediate risk: renal ultrasound, not CT urography (AUA/SUFU)
        workup.append({"not_ordered": {"resource_type": "ServiceRequest", "codes": CTU,
                                       "label": "no CT urography at intermediate risk"}})
        workup.append({"not_ordered": {"resource_type": "ServiceRequest", "text_contains": [
            "urogra", "ct urogram"], "label": "no CT urography at intermediate risk"}})
    if glomerular:
        workup += [
            {"any": {"of": [
                {"ordered": {"resource_type": "ServiceRequest", "codes": [
                    "http://loinc.org|2890-2", "http://loinc.org|2889-4"],
                    "status": ["active"], "label": "urine protein quantification"}},
                {"ordered": {"resource_type": "ServiceRequest", "text_contains": [
                    "protein/creatinine", "protein-to-creatinine", "protein to creatinine",
                    "24 hour urine protein", "24-hour urine protein", "upcr"],
                    "status": ["active"], "label": "urine protein quantification"}}]}},
            {"ordered": {"resource_type": "ServiceRequest", "codes": [
                "http://loinc.org|4485-9"], "status": ["active"], "label": "complement C3"}},
            {"ordered": {"resource_type": "ServiceRequest", "codes": [
                "http://loinc.org|4498-2"], "status": ["active"], "label": "complement C4"}},
            # nephritic sediment with a falling eGFR: ANCA and anti-GBM (KDIGO 2021 GN)
            _lab("ANCA (MPO/PR3)", ["http://loinc.org|6969-0", "http://loinc.org|6968-2"],
                 ["anca", "myeloperoxidase", "proteinase 3", "pr3"]),
            _lab("anti-GBM antibody", ["http://loinc.org|31254-6"],
                 ["gbm", "glomerular basement membrane"])]
    imaging_concept = "ct_urography" if risk == "high" else "renal_ultrasound"
    plan = [
        {"note_decision": {"concept": ["cystoscopy"], "action": ["order"],
                           "label": "cystoscopy (urology)"}},
        {"note_decision": {"concept": [imaging_concept], "action": ["order"],
                           "label": "CT urography" if risk == "high" else "renal ultrasound"}}]
    if risk != "high":   # CT urography only as a contingency (an abnormal ultrasound)
        plan.append({"note_never": {"concept": ["ct_urography"],
                                    "action": ["order", "start", "endorse", "allow", "implicit"],
                                    "allow_contingency": True,
                                    "label": "no CT urography at intermediate risk"}})
    if glomerular:
        plan += [
            {"note_decision": {"concept": ["upcr"], "action": ["order"],
                               "label": "quantify the proteinuria"}},
            {"note_decision": {"concept": ["complement_c3_c4"], "action": ["order"],
                               "label": "complement C3/C4"}},
            {"note_decision": {"concept": ["anca"], "action": ["order"],
                               "label": "ANCA (MPO/PR3)"}}]
    # Cytology or a urine tumor marker: only later (persistent microhematuria after a negative
    # evaluation); at high risk never in place of cystoscopy, whatever he prefers (2025 amendment).
    cytology = [{"note_never": {
        "concept": ["urine_cytology"],
        "action": ["start", "resume", "continue", "endorse", "allow", "implicit", "order"],
        "allow_contingency": True,
        "contingency_on": ["microhematuria", "hematuria", "cystoscopy", "ct_urography",
                           "renal_ultrasound"],
        "label": "no urine cytology or tumor markers up front"}}]
    if risk == "high":
        cytology.append({"note_never": {
            "concept": ["urine_cytology"], "action": ["start", "endorse", "allow", "order"],
            "instead_of": ["cystoscopy"], "label": "no tumor marker in place of cystoscopy"}})
    source = "glomerular_hematuria" if glomerular else "nonglomerular_hematuria"
    return {
        "kind": kind, "risk": risk,
        "risk_concepts": list(HIGH) if risk == "high" else [f"level_{risk}"],
        "other_risk_concepts": [lv for lv in LEVELS + HIGH[1:]
                                if lv not in (HIGH if risk == "high" else (f"level_{risk}",))],
        "pack_years": pack_years, "rbc_first": rbc - 3 if rbc >= 9 else rbc + 2,
        "uacr": uacr, "uacr_prior": round(uacr * 0.55) if glomerular else 9,
        "uacr_tolerance": max(1, round(uacr * 0.03)),
        "creatinine": creat, "egfr": egfr, "prior_creatinine": prior_creat,
        "prior_egfr": round(ckd_epi_2021(prior_creat, age - 2, False)),
        "source_concept": source,
        "source_opposite": "nonglomerular_hematuria" if glomerular else "glomerular_hematuria",
        "source_label": "glomerular hematuria" if glomerular else "non-glomerular hematuria",
        "workup_orders": workup, "cytology_rules": cytology, "plan_decisions": plan,
        "bp_line": ("BP 154/96 on lisinopril 20 mg and amlodipine 5 mg, up from 134/82 a year ago."
                    if glomerular else
                    "BP 142-144/86-88 on lisinopril 20 mg and amlodipine 5 mg."),
        "imaging_label": ("multiphase CT urography" if risk == "high" else "renal ultrasound"),
    }


# Urine cytology and urine-based tumor markers, by name in the order's code or code text.
_CYTOLOGY_WORDS = ("cytolog", "urovysion", "nmp22", "bladder tumor antigen", "bta stat",
                   "cxbladder", "tumor marker", "tumour marker", "cytopath", "biomarker",
                   "urine marker", "epicheck", "xpert bladder", "urine fish", "fish urine")
_CYTOLOGY_CODES = {"88104", "88108", "88112", "88120", "88121", "86294", "86386", "0012M",
                   "0013M"}


@triggered_by(WRITE)
def no_cytology_ordered(ctx: GradingContext) -> CheckpointResult:
    """No urine cytology or urine tumor marker ordered (placed or not) for this patient: the
    initial microhematuria evaluation does not use them (AUA/SUFU 2020)."""
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id:
            continue
        code = order.get("code") or {}
        codings = code.get("coding", []) or []
        named = " ".join([str(code.get("text", ""))]
                         + [str(c.get("display", "")) for c in codings]).lower()
        if any(str(c.get("code", "")) in _CYTOLOGY_CODES for c in codings) or any(
                word in named for word in _CYTOLOGY_WORDS):
            return CheckpointResult(False, f"ordered {named.strip() or 'urine cytology'}")
    return CheckpointResult(True, "no urine cytology or tumor marker ordered")
