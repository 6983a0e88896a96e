"""osteomyelitis_workup: is there osteomyelitis under a diabetic foot ulcer, and what next.

IWGDF/IDSA 2023 diabetes-related foot infection guideline (Senneville et al., Clin Infect Dis
2023, ciad527): probe-to-bone, ESR and plain X-ray are the initial studies (rec 5); an ESR above
70 mm/h supports osteomyelitis; when X-ray, clinical and laboratory findings are compatible with
osteomyelitis no further imaging is needed (rec 6a), when the diagnosis remains in doubt MRI is
the advanced imaging of choice (rec 6b); a bone sample (percutaneous or surgical) for culture and
histology identifies the pathogen (rec 7). The ulcer has no soft-tissue infection, so no empiric
antibiotic is started before the bone sample.
- probable: probe-to-bone positive, ESR > 70 mm/h, X-ray erosion of the first metatarsal head
  -> osteomyelitis; bone biopsy for culture and histology.
- uncertain: probe-to-bone positive, ESR 38-62 mm/h, X-ray without bone changes -> MRI foot.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

CPT = "http://www.ama-assn.org/go/cpt|"
ANTIBIOTIC_CLASSES = {
    "cephalosporin", "fluoroquinolone", "glycopeptide", "lincosamide", "macrolide",
    "nitrofuran antibiotic", "nitroimidazole", "penicillin",
    "penicillin + beta-lactamase inhibitor",
    "phosphonic acid antibiotic", "rifamycin antibacterial", "sulfonamide + folate antagonist",
    "tetracycline", "oxazolidinone", "carbapenem", "aminoglycoside", "folate antagonist"}
BIOPSY_TEXT = ["bone biopsy", "bone culture", "bone specimen", "biopsy of the metatarsal",
               "metatarsal head biopsy", "bone sample"]
# A procedure or a referral (to podiatric/orthopedic surgery or IR), so that an imaging order whose
# note mentions a later biopsy does not count as the biopsy.
PROCEDURE_OR_REFERRAL = ["http://snomed.info/sct|387713003", "http://snomed.info/sct|3457005"]
MRI_TEXT = ["MRI", "magnetic resonance"]


def antibiotic_codes() -> list[str]:
    return [f"{c.system}|{c.code}" for c in terminology.all_concepts("rxnorm")
            if c.extra.get("drug_class") in ANTIBIOTIC_CLASSES]


def osteomyelitis_workup(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    probable = kind == "probable"
    esr = values["esr_high"] if probable else values["esr_mid"]
    if probable:
        order_options = [
            {"ordered": {"resource_type": "ServiceRequest",
                         "codes": [CPT + c for c in ("20220", "20225", "20240", "20245")],
                         "status": ["active"], "label": "bone biopsy (CPT)"}},
            {"ordered": {"resource_type": "ServiceRequest", "text_contains": BIOPSY_TEXT,
                         "category": PROCEDURE_OR_REFERRAL, "status": ["active"],
                         "label": "bone biopsy for culture and histology"}},
        ]
    else:
        order_options = [
            {"ordered": {"resource_type": "ServiceRequest",
                         "codes": [CPT + c for c in ("73718", "73719", "73720")],
                         "status": ["active"], "label": "MRI of the foot (CPT)"}},
            {"ordered": {"resource_type": "ServiceRequest",
                         "category": ["http://snomed.info/sct|363679005"],
                         "text_contains": MRI_TEXT, "status": ["active"],
                         "label": "MRI of the foot"}},
        ]
    return {
        "esr": esr,
        "crp": 41 if probable else 17,
        "order_options": order_options,
        "antibiotic_rxnorm": antibiotic_codes(),
        "workup_concept": ["bone_biopsy"] if probable else ["foot_mri"],
        "workup_text": ("a bone biopsy of the left first metatarsal head for culture and histology"
                        if probable else "an MRI of the left foot"),
    }
