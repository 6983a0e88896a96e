"""cardiac_valve_mass: what a left-sided valve mass is and what follows from it.

The profile decides the reading and the disposition:
- excision (canonical): mobile pedunculated aortic-valve mass after an embolic stroke, afebrile,
  sterile blood cultures -> papillary fibroelastoma, symptomatic -> cardiac surgery referral for
  excision (Gowda 2003; Sun 2001; Tamin 2015); no anticoagulation, no antibiotics.
- surveillance: small sessile non-mobile aortic-valve mass found incidentally, no embolic event,
  sterile cultures -> papillary fibroelastoma managed conservatively with a surveillance TTE in
  3-12 months; no surgery now, no anticoagulation, no antibiotics.
- endocarditis: fever after a dental extraction, viridans streptococci in 3 of 3 blood culture
  sets, mobile mitral mass with new moderate MR -> definite native-valve infective endocarditis
  (Duke-ISCVID 2023, two major criteria) -> same-day hospital admission for IV antibiotics; no
  anticoagulant or antiplatelet started (AHA 2015 IE statement).
The mass size (mm) moves with the draw inside each profile's range.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import matches_code, patient_id, placed
from physbench_gym.synth import terminology

SCT, CPT, LOINC = "http://snomed.info/sct", "http://www.ama-assn.org/go/cpt", "http://loinc.org"
# Mass size (mm) by profile, indexed by the drawn size step 0..6.
SIZES = {"excision": [8, 9, 10, 11, 12, 13, 14], "surveillance": [4, 5, 5, 6, 7, 7, 8],
         "endocarditis": [9, 10, 11, 12, 13, 14, 15]}
ANTICOAGULANT_CLASSES = {"vitamin K antagonist", "direct oral anticoagulant",
                         "low molecular weight heparin"}
ANTIBIOTIC_CLASSES = {"cephalosporin", "fluoroquinolone", "penicillin",
                      "penicillin + beta-lactamase inhibitor", "tetracycline",
                      "nitrofuran antibiotic", "macrolide", "glycopeptide", "lincosamide",
                      "sulfonamide + folate antagonist", "phosphonic acid antibiotic",
                      "nitroimidazole"}
ANTICOAGULANT_NAMES = ["apixaban", "rivaroxaban", "dabigatran", "edoxaban", "warfarin",
                       "heparin", "enoxaparin", "dalteparin", "fondaparinux"]
ANTIPLATELET_NAMES = ["aspirin", "clopidogrel", "ticagrelor", "prasugrel"]
SURGERY_REFERRAL = [f"{SCT}|306302005", f"{SCT}|183557002", f"{SCT}|306185001"]
TTE_CODES = [f"{CPT}|93306", f"{CPT}|93307", f"{CPT}|93308", f"{SCT}|433236007",
             f"{LOINC}|42148-7"]
MONTH = 30.44
HERE = "graders/cardiac_valve_mass.py"
CRP = {"excision": 2.4, "surveillance": 1.8, "endocarditis": 86}   # mg/L, this episode's value
REFERRAL_CODES = [f"{SCT}|3457005", f"{SCT}|306206005"]
SURGERY_WORDS = ("cardiac surg", "cardiothoracic", "heart surg", "cardiovascular surg")
ADMISSION_WORDS = ("admission", "admit", "emergency department", "emergency room")


def _rxnorm(classes: set[str]) -> list[str]:
    return sorted(c.code for c in terminology.all_concepts("rxnorm")
                  if c.extra.get("drug_class") in classes)


def _not_ordered(codes: list[str], names: list[str], label: str) -> list[dict[str, Any]]:
    return [{"not_ordered": {"resource_type": "MedicationRequest", "codes": codes,
                             "label": label}},
            {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": names,
                             "label": f"{label} (by name)"}}]


def valve_mass(values: dict[str, Any]) -> dict[str, Any]:
    kind, now = values["profile"]["kind"], values["now"]
    size = SIZES[kind][int(values["size_step"])]
    anticoag = _not_ordered(_rxnorm(ANTICOAGULANT_CLASSES), ANTICOAGULANT_NAMES,
                            "anticoagulant")
    antibiotics = _not_ordered(_rxnorm(ANTIBIOTIC_CLASSES),
                               ["ceftriaxone", "penicillin", "vancomycin", "amoxicillin",
                                "cefazolin", "gentamicin", "doxycycline", "azithromycin"],
                               "antibiotic")
    orders = {
        "excision": [f"{HERE}:surgery_referral_ordered"] + anticoag + antibiotics,
        "surveillance": [f"{HERE}:surveillance_echo_ordered",
                         f"{HERE}:no_surgery_referral"] + anticoag + antibiotics,
        # Oral antibiotics are not the initial treatment of endocarditis (ESC 2023); IV ones
        # given after admission stay allowed.
        "endocarditis": [f"{HERE}:admission_ordered_now"] + anticoag + _not_ordered(
            _rxnorm({"antiplatelet"}), ANTIPLATELET_NAMES, "antiplatelet") + [
            {"not_ordered": {"resource_type": "MedicationRequest",
                             "codes": _rxnorm(ANTIBIOTIC_CLASSES), "route": ["26643006", "oral"],
                             "label": "oral antibiotic"}}],
    }[kind]
    return {
        "mass_mm": size,
        "crp": CRP[kind],
        "mass_width": max(3, round(size * 0.7)),
        "mass_cm": f"{size / 10:.1f}",
        "disposition_orders": orders,
        "diagnosis": "infective_endocarditis" if kind == "endocarditis"
        else "papillary_fibroelastoma",
        "other_diagnosis": "papillary_fibroelastoma" if kind == "endocarditis"
        else "infective_endocarditis",
        # a fibroelastoma note that reports positive blood cultures (the old E. coli ones) as
        # hers has read the wrong result
        "other_diagnoses": ["papillary_fibroelastoma"] if kind == "endocarditis"
        else ["infective_endocarditis", "positive_blood_cultures"],
        "window_start": (now + timedelta(days=3 * MONTH)).date().isoformat(),
        "window_end": (now + timedelta(days=12 * MONTH)).date().isoformat(),
        "echo_due": (now + timedelta(days=6 * MONTH)).strftime("%Y-%m-%dT09:00:00Z"),
        "echo_due_date": (now + timedelta(days=6 * MONTH)).date().isoformat(),
    }


@triggered_by(WRITE)
def surveillance_echo_ordered(ctx: GradingContext) -> CheckpointResult:
    """Placed a transthoracic echocardiogram dated 3-12 months from now (a same-week echo
    repeats the one just done; one years away leaves the mass unwatched)."""
    low, high = str(ctx.values["window_start"]), str(ctx.values["window_end"])
    found = []
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order):
            continue
        if not matches_code(order, TTE_CODES):
            continue
        when = str(order.get("occurrenceDateTime")
                   or (order.get("occurrencePeriod") or {}).get("start") or "")[:10]
        if when and when < low:
            return CheckpointResult(False, f"a TTE is ordered for {when}, before {low}")
        if not when:
            return CheckpointResult(False, "an undated (immediate) TTE is ordered")
        found.append(when)
    if any(low <= when <= high for when in found):
        return CheckpointResult(True, f"surveillance TTE ordered for {', '.join(found)}")
    detail = f" (ordered for {', '.join(found)})" if found else " (none ordered)"
    return CheckpointResult(False, f"no transthoracic echo dated {low} to {high}{detail}")


def _order_names(order: dict[str, Any]) -> str:
    """What the order is and who is to do it: code text and displays and performer type
    (not its reason or notes, which may name a later step)."""
    code, performer = order.get("code") or {}, order.get("performerType") or {}
    parts = [str(code.get("text", "")), str(performer.get("text", ""))]
    parts += [str(c.get("display", "")) for c in code.get("coding", []) or []]
    parts += [str(c.get("display", "")) for c in performer.get("coding", []) or []]
    return " ".join(parts).lower()


def _surgery_referrals(ctx: GradingContext, placed_only: bool) -> list[dict[str, Any]]:
    """Referrals to cardiac surgery: a coded one, or a referral naming the specialty."""
    hits = []
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or (placed_only and not placed(order)):
            continue
        referral = (matches_code(order, REFERRAL_CODES)
                    or matches_code(order, [f"{SCT}|3457005"], "category"))
        if matches_code(order, SURGERY_REFERRAL) or (
                referral and any(w in _order_names(order) for w in SURGERY_WORDS)):
            hits.append(order)
    return hits


@triggered_by(WRITE)
def surgery_referral_ordered(ctx: GradingContext) -> CheckpointResult:
    """Placed a referral to cardiac surgery (coded, or a referral whose specialty is it)."""
    if _surgery_referrals(ctx, placed_only=True):
        return CheckpointResult(True, "cardiac surgery referral placed")
    return CheckpointResult(False, "no cardiac surgery referral placed")


@triggered_by(WRITE)
def no_surgery_referral(ctx: GradingContext) -> CheckpointResult:
    """Wrote no referral to cardiac surgery (a surveillance echo whose note names excision
    as a later step is no referral)."""
    if _surgery_referrals(ctx, placed_only=False):
        return CheckpointResult(False, "a cardiac surgery referral was written")
    return CheckpointResult(True, "no cardiac surgery referral")


@triggered_by(WRITE)
def admission_ordered_now(ctx: GradingContext) -> CheckpointResult:
    """Placed an urgent hospital admission or emergency department referral for today or
    tomorrow: coded 32485007, or an order whose name or performer names admission or the
    emergency department (not a mention in an imaging order's note)."""
    latest = (ctx.values["now"] + timedelta(days=1)).date().isoformat()
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order):
            continue
        if order.get("priority") not in ("urgent", "asap", "stat"):
            continue
        if not (matches_code(order, [f"{SCT}|32485007"])
                or any(w in _order_names(order) for w in ADMISSION_WORDS)):
            continue
        when = str(order.get("occurrenceDateTime")
                   or (order.get("occurrencePeriod") or {}).get("start") or "")[:10]
        if when and when > latest:
            continue
        return CheckpointResult(True, f"urgent admission placed ({when or 'now'})")
    return CheckpointResult(False, "no urgent admission or ED referral for today")
