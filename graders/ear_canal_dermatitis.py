"""Chronic dermatitis of the right ear canal after neomycin ear drops (ENT e-consult).

The patient is patch-test positive to neomycin, so neomycin-containing drops (Cortisporin) are
out. Eczematous ear canal dermatitis without infection is treated with a topical steroid
(DERMOTIC: fluocinolone acetonide 0.01% oil, 5 drops twice daily for 7-14 days); a canal that is
moist, swollen and tender with purulent discharge and a Pseudomonas culture is acute otitis
externa on top and gets a non-neomycin antibiotic-steroid drop (CIPRODEX: ciprofloxacin 0.3% /
dexamethasone 0.1%, 4 drops twice daily for 7 days). Uncomplicated disease confined to the canal
in a non-diabetic host needs no oral antibiotic (AAO-HNS 2014 acute otitis externa guideline).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

ANTIBIOTIC_CLASSES = ("cephalosporin", "penicillin", "fluoroquinolone", "macrolide",
                      "tetracycline", "lincosamide", "sulfonamide", "nitrofuran", "nitroimidazole",
                      "glycopeptide", "rifamycin", "phosphonic acid antibiotic")


def _systemic_antibiotics() -> list[str]:
    """RxNorm codes of every systemic (any route but topical) antibacterial of the tables."""
    codes = []
    for concept in terminology.all_concepts("rxnorm"):
        extra = concept.extra
        drug_class = extra.get("drug_class", "")
        antibacterial = (any(word in drug_class for word in ANTIBIOTIC_CLASSES)
                         or drug_class == "folate antagonist" and "trimethoprim" in concept.display)
        if antibacterial and extra.get("route") != "topical":
            codes.append(concept.code)
    return sorted(codes)


def ear_canal_plan(values: dict[str, Any]) -> dict[str, Any]:
    """The canal state decides the drop; the must-not lists do not change."""
    canal = values["canal"]["name"]
    if canal not in ("dry_eczema", "superinfected"):
        raise ValueError(f"unknown canal state {canal!r}")
    infected = canal == "superinfected"
    code = "404630" if infected else "1191299"
    drops = 4 if infected else 5
    # The order's dose unit is compared as written; drops are spelled several ways.
    options = [{"ordered": {
        "resource_type": "MedicationRequest", "codes": [code], "status": ["active"],
        "intent": ["order"], "dose": {"min": drops, "max": drops, "unit": unit},
        "per_day": {"min": 2, "max": 2},
        "label": f"{'ciprofloxacin-dexamethasone' if infected else 'fluocinolone'} ear drops, "
                 f"{drops} drops twice daily"}} for unit in ("drops", "drop", "gtt", "[drp]")]
    return {
        "infected": infected,
        "drop_rxnorm": code,
        "drop_drops": drops,
        "drop_order_options": options,
        "drop_days": 7 if infected else 14,
        "systemic_antibiotic_rxnorm": _systemic_antibiotics(),
    }
