"""thrombocytopenia_oncology_consult: what a new low platelet count in a breast cancer survivor is.

The peripheral smear decides the answer (scenario):
- pseudo (canonical): platelet clumps on the smear, other lines normal -> EDTA-dependent
  pseudothrombocytopenia; confirm with a platelet count drawn in sodium citrate (or heparin); no
  bone marrow biopsy, no ITP treatment, no platelet transfusion.
- itp: isolated thrombocytopenia, smear otherwise normal, no clumps -> primary immune
  thrombocytopenia; count 50-94 without bleeding -> observation, no corticosteroids (ASH 2019
  rec. 1b); HIV and HCV testing (ASH 2011, ICR 2019); no bone marrow biopsy for typical ITP.
- marrow: leukoerythroblastic smear, falling hemoglobin, rising alkaline phosphatase, new back
  pain -> marrow infiltration by metastatic breast cancer; bone marrow aspirate and biopsy and
  staging CT; no ITP treatment.
The platelet count ({plt}) moves with every variant and is stated in the note.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC = "http://loinc.org|"
CPT = "http://www.ama-assn.org/go/cpt|"
SNOMED = "http://snomed.info/sct|"
# A platelet count, or a CBC (many labs run the citrate recount as a CBC), in a non-EDTA tube.
PLATELET_COUNT = [LOINC + "777-3", LOINC + "778-1", LOINC + "58410-2", CPT + "85049",
                  CPT + "85025", CPT + "85027"]
NON_EDTA_TUBE = ["citrate", "blue-top", "blue top", "heparin", "CTAD", "non-EDTA"]
BONE_MARROW = [CPT + "38220", CPT + "38221", CPT + "38222"]
BONE_MARROW_TEXT = ["bone marrow", "marrow biopsy", "marrow aspirat"]
TRANSFUSION_TEXT = ["platelet transfusion", "transfuse platelets", "transfusion of platelets",
                    "apheresis platelets", "platelets, apheresis", "platelets, pooled"]
TRANSFUSION_CODES = [CPT + "36430", SNOMED + "12719002"]
ITP_TREATMENT_TEXT = ["IVIG", "immune globulin", "immunoglobulin", "romiplostim", "eltrombopag",
                      "avatrombopag", "TPO receptor agonist", "thrombopoietin"]
# Text checks of a must-not read procedure and referral orders: the text of an order includes
# its note, and a laboratory order's note may say 'no bone marrow biopsy needed' (the engine
# cannot yet limit text_contains to the ordered item's name).
PROCEDURE = [SNOMED + "387713003", SNOMED + "3457005"]
STEROID_TEXT = ["prednisone", "prednisolone", "dexamethasone", "methylprednisolone"]
HIV = [LOINC + "56888-1"]
HCV = [LOINC + "13955-0"]
FINDINGS = {"pseudo": "pseudothrombocytopenia", "itp": "immune_thrombocytopenia",
            "marrow": "marrow_infiltration"}
# The diagnoses a wrong reading would commit to instead (the other branches). Pseudo notes
# rule marrow disease out in many words ('nothing to suggest marrow infiltration') that the
# reader does not all negate, so only ITP opposes pseudo.
OPPOSITES = {"pseudo": ["immune_thrombocytopenia"],
             "itp": ["pseudothrombocytopenia", "marrow_infiltration",
                     "therapy_related_myeloid_neoplasm"],
             "marrow": ["immune_thrombocytopenia", "pseudothrombocytopenia",
                        "therapy_related_myeloid_neoplasm"]}
LABELS = {"pseudo": "EDTA-dependent pseudothrombocytopenia (platelet clumping)",
          "itp": "primary immune thrombocytopenia (ITP)",
          "marrow": "bone marrow infiltration by metastatic breast cancer (leukoerythroblastic "
                    "smear)"}


def _ordered(codes: list[str], text: list[str], label: str, **extra: Any) -> dict[str, Any]:
    """Either code, or the service named in the order's text, placed as an active order."""
    return {"any": {"of": [
        {"ordered": {"resource_type": "ServiceRequest", "codes": codes, "status": ["active"],
                     "intent": ["order"], "label": label, **extra}},
        {"ordered": {"resource_type": "ServiceRequest", "text_contains": text,
                     "status": ["active"], "intent": ["order"], "label": label + " (text)",
                     **extra}}]}}


def _corticosteroid_codes() -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm")
                  if c.extra.get("drug_class") == "corticosteroid")


def thrombocytopenia(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in FINDINGS:
        raise ValueError(f"unknown scenario {kind!r}")
    plt = int(values["plt"])
    no_steroid = {"not_ordered": {"resource_type": "MedicationRequest",
                                  "codes": _corticosteroid_codes(), "label": "corticosteroid"}}
    no_steroid_text = {"not_ordered": {"resource_type": "MedicationRequest",
                                       "text_contains": STEROID_TEXT,
                                       "label": "corticosteroid (by name)"}}
    no_transfusion = {"all": {"of": [
        {"not_ordered": {"resource_type": "ServiceRequest", "codes": TRANSFUSION_CODES,
                         "label": "transfusion"}},
        {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": TRANSFUSION_TEXT,
                         "category": PROCEDURE, "label": "platelet transfusion"}}]}}
    no_itp_treatment = {"not_ordered": {"resource_type": "ServiceRequest",
                                        "text_contains": ITP_TREATMENT_TEXT, "category": PROCEDURE,
                                        "label": "IVIG or TPO receptor agonist"}}
    no_marrow = {"all": {"of": [
        {"not_ordered": {"resource_type": "ServiceRequest", "codes": BONE_MARROW,
                         "label": "bone marrow biopsy"}},
        {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": BONE_MARROW_TEXT,
                         "category": PROCEDURE, "label": "bone marrow biopsy (text)"}}]}}
    if kind == "pseudo":
        wanted = [{"ordered": {"resource_type": "ServiceRequest", "codes": PLATELET_COUNT,
                               "text_contains": NON_EDTA_TUBE, "status": ["active"],
                               "intent": ["order"],
                               "label": "platelet count in a sodium citrate (or heparin) tube"}}]
        must_not = [no_marrow, no_transfusion, no_steroid, no_steroid_text, no_itp_treatment]
    elif kind == "itp":
        wanted = [_ordered(HIV, ["HIV"], "HIV-1/2 antigen/antibody"),
                  _ordered(HCV, ["hepatitis C", "HCV"], "hepatitis C antibody")]
        must_not = [no_marrow, no_transfusion, no_steroid, no_steroid_text, no_itp_treatment]
    else:
        wanted = [_ordered(BONE_MARROW, BONE_MARROW_TEXT, "bone marrow aspirate and biopsy")]
        must_not = [no_transfusion, no_steroid, no_steroid_text, no_itp_treatment]
    return {
        "plt_first": plt + 9,
        "plt_per_ul": plt * 1000,
        "finding": [FINDINGS[kind]],
        "other_findings": OPPOSITES[kind],
        "finding_label": LABELS[kind],
        "order_grader": {"all": {"of": wanted + must_not}},
    }
