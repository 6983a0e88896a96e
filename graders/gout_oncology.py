"""gout_oncology: which drug treats a gout flare in a man with AML in remission, CKD stage 3 and
post-consolidation thrombocytopenia, and the urate-lowering plan.

The scenario decides the flare drug (ACR 2020 gout guideline; COLCRYS label section 4):
- azole (canonical): voriconazole (a strong CYP3A4 inhibitor) is active and the eGFR is under
  60 -> colchicine is contraindicated; oral prednisone 30-40 mg a day for 5 days.
- hhs: voriconazole was completed weeks ago, and his first flare's prednisone burst caused a
  hyperosmolar hyperglycemic state -> low-dose colchicine (1.2 mg, then 0.6 mg an hour later, then
  0.6 mg once or twice daily); no systemic glucocorticoid.
Every branch: no NSAID (platelets under 100 x 10^9/L and CKD stage 3); start allopurinol at
100 mg a day or less (3 flares in 12 months; ACR 2020: lower in CKD stage 3 or worse).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC = "http://loinc.org|"
# Routes at which a corticosteroid has no systemic glucocorticoid effect worth a must-not.
LOCAL_ROUTES = {"topical", "inhalation", "respiratory (inhalation)", "nasal", "ophthalmic", "otic",
                "cutaneous", "transdermal"}
# Glucocorticoids an agent may order by name when the terminology table has no code for them.
STEROID_NAMES = ["prednisone", "prednisolone", "methylprednisolone", "Medrol", "triamcinolone",
                 "Kenalog", "dexamethasone", "hydrocortisone", "betamethasone"]
# A must-not on the drug: plans, allowances and offers count; a hedged statement about the drug's
# blood levels ('colchicine levels can rise') is no 'increase' of it.
NEVER_ACTIONS = ["start", "resume", "continue", "endorse", "allow", "implicit"]


def _codes(test) -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm") if test(c.extra))


def _creatinine(egfr: float, age: int) -> float:
    """Serum creatinine (mg/dL) giving this CKD-EPI 2021 eGFR in a man (creatinine > 0.9)."""
    return round(0.9 * (egfr / (142 * 0.9938 ** age)) ** (-1 / 1.2), 2)


def gout_oncology(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    nsaids = _codes(lambda e: e.get("drug_class") == "NSAID")
    steroids = _codes(lambda e: e.get("drug_class") == "corticosteroid"
                      and e.get("route") not in LOCAL_ROUTES)
    prednisone = _codes(lambda e: e.get("ingredient") in ("prednisone", "prednisolone")
                        and e.get("route") == "oral")
    colchicine = _codes(lambda e: e.get("ingredient") == "colchicine")
    allopurinol = _codes(lambda e: e.get("ingredient") == "allopurinol")
    no_nsaid = {"not_ordered": {"resource_type": "MedicationRequest", "codes": nsaids,
                                "label": "no NSAID"}}
    # ACR 2020: allopurinol starts at 100 mg a day or less (lower in CKD stage 3 or worse).
    low_allopurinol = [
        {"not_ordered": {"resource_type": "MedicationRequest", "codes": allopurinol,
                         "dose": {"min": 101, "unit": "mg"},
                         "label": "no allopurinol start above 100 mg a dose"}},
        {"not_ordered": {"resource_type": "MedicationRequest", "codes": allopurinol,
                         "per_day": {"min": 1.5},
                         "label": "no allopurinol start more than once daily"}}]
    retrieved = [
        {"retrieved": {"resource_type": "Observation", "codes": [LOINC + "98979-8"],
                       "label": "eGFR"}},
        {"retrieved": {"resource_type": "Observation", "codes": [LOINC + "777-3"],
                       "label": "platelet count"}}]
    if kind == "azole":
        retrieved.insert(0, {"retrieved": {
            "resource_type": "MedicationRequest", "codes": [RX + "349434"],
            "label": "voriconazole order"}})
        orders = [
            {"ordered": {"resource_type": "MedicationRequest", "codes": prednisone,
                         "status": ["active"], "intent": ["order"],
                         "dose": {"min": 30, "max": 40, "unit": "mg"},
                         "per_day": {"min": 1, "max": 1}, "route": ["oral"],
                         "label": "prednisone 30-40 mg once daily"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": colchicine,
                             "label": "no colchicine with voriconazole and CKD"}},
            no_nsaid, *low_allopurinol]
        # A lower prophylaxis dose later is not a wrong flare dose. (A stop stays an opposite:
        # 'prednisone could be stopped' offered against the plan must fail.)
        flare_note = {"note_decision": {
            "concept": ["prednisone"], "action": ["start"],
            "dose": {"min": 30, "max": 40, "unit": "mg"}, "wrong_dose_contradicts": False,
            "label": "oral prednisone 30-40 mg daily"}}
        avoid_note = {"note_never": {
            "concept": ["colchicine"], "action": NEVER_ACTIONS,
            "allow_contingency": True, "contingency_on": ["voriconazole"],
            "label": "no colchicine while on voriconazole"}}
    else:
        retrieved.insert(0, {"retrieved": {
            "resource_type": "DocumentReference", "codes": [LOINC + "18842-5"],
            "text_contains": ["hyperosmolar"], "label": "HHS discharge summary"}})
        retrieved.insert(1, {"retrieved": {
            "resource_type": "MedicationRequest", "codes": [RX + "349434"],
            "label": "voriconazole order (completed)"}})
        orders = [
            # The repeated dose is one 0.6 mg tablet once or twice daily (COLCRYS 2.1; the
            # 1.2 mg first dose and the 0.6 mg an hour later are in the sig).
            {"ordered": {"resource_type": "MedicationRequest", "codes": colchicine,
                         "status": ["active"], "intent": ["order"],
                         "dose": {"min": 0.6, "max": 0.6, "unit": "mg"},
                         "per_day": {"min": 1, "max": 2}, "route": ["oral"],
                         "label": "colchicine 0.6 mg once or twice daily "
                                  "(low-dose flare regimen)"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": colchicine,
                             "dose": {"min": 1.21, "unit": "mg"},
                             "label": "no colchicine dose above 1.2 mg"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": colchicine,
                             "per_day": {"min": 2.5},
                             "label": "no colchicine more than twice daily (high-dose regimen)"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": steroids,
                             "label": "no systemic glucocorticoid after steroid-induced HHS"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": STEROID_NAMES,
                             "label": "no glucocorticoid ordered by name"}},
            no_nsaid, *low_allopurinol]
        # Low dose: 1.2 mg, then 0.6 mg an hour later, then 0.6 mg once or twice daily. A stated
        # schedule above twice daily contradicts it (ACR 2020 strongly prefers low dose); the
        # loading pair alone ('1.2 mg then 0.6 mg 1 hour later') states no schedule and passes.
        flare_note = {"all": {"of": [
            {"note_decision": {
                "concept": ["colchicine"], "action": ["start"],
                "dose": {"min": 0.3, "max": 1.2, "unit": "mg"}, "dose_required": False,
                "label": "low-dose colchicine"}},
            {"note_decision": {
                "concept": ["colchicine"], "action": ["start"], "dose_required": False,
                "required": False, "every": {"max": 2},
                "label": "colchicine no more than twice daily"}}]}}
        avoid_note = {"note_never": {
            "concept": ["corticosteroid", "hydrocortisone_injection",
                        "intrabursal_steroid_injection"],
            "action": [*NEVER_ACTIONS, "order"], "allow_contingency": True,
            "contingency_on": ["colchicine"],
            "label": "no systemic glucocorticoid (a contingency if colchicine fails may be)"}}
    creatinine = _creatinine(values["egfr"], values["age"])
    return {
        "creatinine": creatinine,
        "nsaid_rxnorm": nsaids,
        "chart_grader": {"all": {"of": retrieved}},
        "flare_orders": {"all": {"of": orders}},
        "flare_note": flare_note,
        "avoid_note": avoid_note,
    }
