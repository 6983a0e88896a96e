"""thrombocytopenia_immunotherapy: a new low platelet count on pembrolizumab.

The scenario and the platelet count decide the answer (ASCO 2021 irAE guideline, 8.2 and 8.6):
- itp_g2 (canonical): isolated thrombocytopenia 50-74 (CTCAE grade 2), smear otherwise normal
  -> immune thrombocytopenia from the checkpoint inhibitor: hold pembrolizumab, prednisone
  1 mg/kg/day (0.5-2 mg/kg), HIV, HCV and HBsAg testing.
- itp_g1: isolated thrombocytopenia 80-96 (grade 1) -> continue pembrolizumab with close CBC
  follow-up, no corticosteroid; the same secondary-cause testing.
- tma: 9-29 (plt_low - 43; acquired TTP usually presents below 30) with schistocytes, hemolysis
  and a creatinine rise -> suspected thrombotic microangiopathy (TTP must be excluded): admit
  today, ADAMTS13 activity drawn now (before any plasma), hold pembrolizumab.
The oncologist_informed checkpoint pairs note_decision on the messages with
oncologist_messaged (the recipient must be the oncologist; note primitives read every message).
No platelet transfusion on any branch.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.synth import terminology

LOINC = "http://loinc.org|"
CPT = "http://www.ama-assn.org/go/cpt|"
SNOMED = "http://snomed.info/sct|"
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
PREDNISONE = [RX + "312615", RX + "312617"]
ONCOLOGIST = "Practitioner/prac-oncology"
STEROID_WORDS = ["prednisone", "prednisolone", "methylprednisolone", "dexamethasone",
                 "hydrocortisone"]
GRADES = ["platelet_grade_1", "platelet_grade_2", "platelet_grade_3", "platelet_grade_4"]
FINDINGS = {"itp_g2": "immune_thrombocytopenia", "itp_g1": "immune_thrombocytopenia",
            "tma": "thrombotic_microangiopathy"}
OPPOSITES = {"immune_thrombocytopenia": ["thrombotic_microangiopathy", "pseudothrombocytopenia",
                                         "marrow_infiltration"],
             "thrombotic_microangiopathy": ["immune_thrombocytopenia", "pseudothrombocytopenia"]}
LABELS = {"itp_g2": "grade 2 immune thrombocytopenia from pembrolizumab",
          "itp_g1": "grade 1 immune thrombocytopenia from pembrolizumab",
          "tma": "suspected thrombotic microangiopathy (TTP) on pembrolizumab"}


def _sr(codes: list[str], text: list[str], label: str) -> dict[str, Any]:
    """A placed ServiceRequest by code, or naming the service in its text."""
    base = {"resource_type": "ServiceRequest", "status": ["active"], "intent": ["order"]}
    return {"any": {"of": [{"ordered": {**base, "codes": codes, "label": label}},
                           {"ordered": {**base, "text_contains": text,
                                        "label": label + " (text)"}}]}}


NO_TRANSFUSION = {"all": {"of": [
    {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": [
        "platelet transfusion", "transfuse platelets", "apheresis platelets"],
        "label": "no platelet transfusion"}},
    {"not_ordered": {"resource_type": "ServiceRequest",
                     "codes": [CPT + "36430", SNOMED + "12719002"],
                     "label": "no transfusion order"}}]}}


def _corticosteroids() -> list[str]:
    """Every corticosteroid of the RxNorm tables (prednisone, dexamethasone, hydrocortisone)."""
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm")
                  if c.extra.get("drug_class") == "corticosteroid")


@triggered_by(WRITE)
def oncologist_messaged(ctx: GradingContext) -> CheckpointResult:
    """A message about the patient went to his oncologist (who gives the pembrolizumab); the
    note_decision beside it reads what the messages say."""
    for message in ctx.written("Communication"):
        if not (message.get("subject") or {}).get("reference", "").endswith(f"/{ctx.patient_id}"):
            continue
        if ONCOLOGIST in {r.get("reference", "") for r in message.get("recipient") or []}:
            return CheckpointResult(True, "message sent to the oncologist")
    return CheckpointResult(False, "no message to the oncologist (prac-oncology)")


def grade(plt: int) -> int:
    """CTCAE v5.0 platelet count decreased: 1 <LLN-75, 2 <75-50, 3 <50-25, 4 <25 (x10^3/uL)."""
    return 1 if plt >= 75 else 2 if plt >= 50 else 3 if plt >= 25 else 4


def derive(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in FINDINGS:
        raise ValueError(f"unknown scenario {kind!r}")
    plt = int(values["plt_mild"] if kind == "itp_g1" else values["plt_low"])
    if kind == "tma":  # acquired TTP usually presents below 30 (PLASMIC platelet point)
        plt -= 43
    g = grade(plt)
    weight = int(values["weight_kg"])
    # about 1 mg/kg in whole 20 mg tablets: 60-100 mg for 66-98 kg (0.9-1.2 mg/kg)
    pred_mg = 20 * int(weight / 20 + 0.5)
    pred_min, pred_max = round(0.5 * weight), 2 * weight
    finding = FINDINGS[kind]
    workup = {"all": {"of": [
        _sr([LOINC + "56888-1"], ["HIV-1/2", "HIV 1+2", "HIV 1/2", "HIV Ag/Ab",
                                  "HIV antigen/antibody", "HIV-1/2 antigen", "HIV screen"],
            "HIV-1/2 antigen/antibody"),
        _sr([LOINC + "13955-0"], ["hepatitis C antibody", "hepatitis C virus antibody",
                                  "HCV antibody", "HCV Ab", "anti-HCV"], "hepatitis C antibody"),
        _sr([LOINC + "5196-1"], ["HBsAg", "hepatitis B surface antigen",
                                 "hepatitis B virus surface antigen"],
            "hepatitis B surface antigen")]}}
    if kind == "tma":
        workup = _sr([CPT + "85397"], ["ADAMTS13", "ADAMTS-13"], "ADAMTS13 activity")
    prednisone_order = {"ordered": {
        "resource_type": "MedicationRequest", "codes": PREDNISONE, "status": ["active"],
        "intent": ["order"], "dose": {"min": pred_min, "max": pred_max, "unit": "mg"},
        "per_day": {"min": 1, "max": 1},
        "label": f"prednisone {pred_min}-{pred_max} mg once daily"}}
    no_steroid = {"all": {"of": [
        {"not_ordered": {"resource_type": "MedicationRequest", "codes": _corticosteroids(),
                         "label": "no corticosteroid"}},
        {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": STEROID_WORDS,
                         "label": "no corticosteroid (text)"}}]}}
    treatment = {
        "itp_g2": {"all": {"of": [prednisone_order, NO_TRANSFUSION]}},
        "itp_g1": {"all": {"of": [
            _sr([LOINC + "58410-2", LOINC + "57021-8", LOINC + "777-3", CPT + "85025",
                 CPT + "85027", CPT + "85049"], ["CBC", "platelet count", "blood count"],
                "repeat CBC"), no_steroid, NO_TRANSFUSION]}},
        "tma": {"all": {"of": [
            _sr([SNOMED + "32485007"], ["admission", "admit", "emergency department"],
                "hospital admission today"), NO_TRANSFUSION]}},
    }[kind]
    return {
        "plt": plt,
        "plt_per_ul": plt * 1000,
        "grade": g,
        "grade_concept": [GRADES[g - 1]],
        "other_grades": [c for c in GRADES if c != GRADES[g - 1]] + ["platelet_grade_range"],
        "pred_mg": pred_mg,
        "pred_tabs": pred_mg // 20,
        "pred_qty": pred_mg // 20 * 28,
        "pred_per_kg": round(pred_mg / weight, 1),
        "weight_12m": weight + 2,  # stable weight through a responding year
        "pred_min": pred_min,
        "pred_max": pred_max,
        "finding": [finding],
        "other_findings": OPPOSITES[finding],
        "finding_label": LABELS[kind],
        # a TMA is only suspected until ADAMTS13 returns ('suspected TTP' names it); an ITP
        # diagnosis must be affirmed with the differential closed ('ITP vs TTP' does not count)
        "suspected_only": kind == "tma",
        "ici_action": ["continue"] if kind == "itp_g1" else ["stop"],
        "ici_hold": kind == "itp_g2",  # grade 2: a hold until grade 1, not a stop for good
        "workup_grader": workup,
        "treatment_grader": treatment,
    }
