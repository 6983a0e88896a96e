"""mgus_cryoglobulinemia_workup: a monoclonal protein, a leg rash and the question of cryoglobulins.

Three scenarios (``scenario[name]``):
- ``hcv_cryo`` (canonical): IgM kappa 0.3-0.8 g/dL, palpable purpura with leukocytoclastic
  vasculitis, low C4, high RF, HCV antibody positive, active sediment and a rising creatinine ->
  suspected HCV-associated mixed (type II) cryoglobulinemic vasculitis with glomerulonephritis:
  serum cryoglobulins kept at 37 C (the earlier screen was refrigerated), HCV RNA, nephrology
  referral for a kidney biopsy, DAA therapy once viremia is confirmed (KDIGO HCV in CKD 2022).
- ``low_risk``: IgG kappa 0.4-1.2 g/dL, normal FLC ratio, no vasculitis -> Mayo low risk (0 of 3);
  no bone marrow or skeletal imaging; SPEP and FLC again in 6 months (IMWG 2010).
- ``high_risk``: IgA lambda 1.6-2.5 g/dL, abnormal FLC ratio -> Mayo high risk (3 of 3); bone
  marrow aspirate and biopsy and whole-body low-dose CT (IMWG 2010; IMWG imaging 2019).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from physbench_gym.grading.actions import OrderMatch
from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import placed

CPT = "http://www.ama-assn.org/go/cpt|"
LOINC = "http://loinc.org|"
SCT = "http://snomed.info/sct|"
POS, NEG = "10828004", "260385009"
MARROW = ([CPT + "38221", CPT + "38222"], ["marrow"])
# Myeloma bone imaging: by code (osseous survey, PET-CT) or by its name; a whole-body low-dose CT
# has no CPT code of its own (unlisted CT 76497 or a local code), so its text decides. A bare
# 'low-dose' would also accept a low-dose chest CT for lung cancer screening (review finding 9).
IMAGING = ([CPT + "77075", CPT + "78815", CPT + "78816"],
           ["whole-body", "whole body", "skeletal survey", "bone survey", "osseous survey",
            "PET-CT", "PET/CT", "PET CT", "PET scan", "positron", "WBLDCT", "WB-LDCT"])
SPEP = ([CPT + "84165", CPT + "86334", LOINC + "33358-3"],
        ["electrophoresis", "immunofixation", "SPEP"])
FLC = ([CPT + "83883", LOINC + "48378-4", LOINC + "36916-5", LOINC + "33944-0"],
       ["free light chain", "light chains"])
CRYO = ([CPT + "82595", LOINC + "5117-7"], ["cryoglob", "cryocrit"])
HCV_RNA = ([CPT + "87522", LOINC + "11011-4"], ["HCV RNA", "hepatitis C virus RNA",
                                               "hepatitis C RNA"])
NEPHROLOGY = ([SCT + "306125004"], ["nephrolog"])
# The orders of each checkpoint, each with its window in days from now (an order without an
# occurrence date is for now). hcv_cryo: the cryoglobulins, HCV RNA and nephrology referral are
# urgent (within 4 weeks); high_risk: marrow and imaging within 6 weeks; low_risk: the repeat
# SPEP is the 6-month check (4-8 months), and a repeat of the SPEP or free light chains drawn 3
# weeks ago sooner than that fails (review finding 5). The free light chains may go with the
# 6-month SPEP but IMWG 2010 asks only for the SPEP then (review finding 15).
URGENT, SOON, SIX_MONTHS = (0, 28), (0, 42), (120, 245)
ORDERS: dict[str, dict[str, list[tuple[str, tuple[list[str], list[str]], tuple[int, int]]]]] = {
    "hcv_cryo": {"first": [("cryoglobulins", CRYO, URGENT), ("HCV RNA", HCV_RNA, URGENT)],
                 "second": [("nephrology referral", NEPHROLOGY, URGENT)]},
    "high_risk": {"first": [("bone marrow aspirate and biopsy", MARROW, SOON)],
                  "second": [("whole-body low-dose CT or skeletal survey", IMAGING, SOON)]},
    "low_risk": {"first": [("repeat SPEP in 4-8 months", SPEP, SIX_MONTHS)]},
}
TOO_SOON = {"low_risk": [("SPEP", SPEP), ("serum free light chains", FLC)]}
IMAGING_WORDS = ["myeloma_skeletal_imaging", "pet_ct", "fdg_pet"]
# A wrong hcv_cryo note puts the purpura down to a monoclonal (type I) cryoglobulin or to IgA
# vasculitis (review finding 2). Drug hypersensitivity vasculitis and pigmented purpura are left
# out: correct notes list them in a differential ('Other causes (...) are less likely'), which the
# reader does not always read as hedged.
OTHER_CAUSES = ["type_1_cryoglobulinemia", "iga_vasculitis"]
# M-spike = lo + span * draw; FLC ratio = lo + span * draw; kappa = lo + span * draw.
SCENARIOS = {
    "hcv_cryo": {"heavy": "IgM", "light": "kappa", "mspike": (0.3, 0.5), "ratio": (1.2, 0.4),
                 "kappa": (18.0, 6.0), "older": -0.2},
    "low_risk": {"heavy": "IgG", "light": "kappa", "mspike": (0.4, 0.8), "ratio": (1.0, 0.5),
                 "kappa": (14.0, 6.0), "older": -0.1},
    "high_risk": {"heavy": "IgA", "light": "lambda", "mspike": (1.6, 0.9), "ratio": (0.06, 0.12),
                  "kappa": (9.0, 4.0), "older": -0.3},
}
GRADERS = "graders/mgus_cryoglobulinemia_workup.py"
RISK = {0: "low", 1: "low-intermediate", 2: "high-intermediate", 3: "high"}
LABS = {  # per scenario: the labs of 3 weeks ago (and of 14 months ago where named _prior)
    "hcv_cryo": {"c4": 4, "c3": 74, "rf": 212, "hcv_ab": POS, "alt": 64, "ua_blood": POS,
                 "urine_rbc": 32, "upcr": 1380, "creat_prior": 0.84, "creat": 1.46, "hb": 11.4,
                 "alb": 3.6, "ca": 9.1, "tp": 8.2, "igg": 1460, "iga": 250},
    "low_risk": {"c4": 26, "c3": 124, "rf": 9, "hcv_ab": NEG, "alt": 21, "ua_blood": NEG,
                 "urine_rbc": 1, "upcr": 80, "creat_prior": 0.82, "creat": 0.79, "hb": 13.3,
                 "alb": 4.2, "ca": 9.4, "tp": 8.0, "igm": 96, "iga": 210},
    "high_risk": {"c4": 24, "c3": 118, "rf": 8, "hcv_ab": NEG, "alt": 19, "ua_blood": NEG,
                  "urine_rbc": 1, "upcr": 110, "creat_prior": 0.78, "creat": 0.80, "hb": 12.6,
                  "alb": 4.0, "ca": 9.5, "tp": 8.6, "igg": 640, "igm": 38},
}


def ckd_epi_2021_female(creatinine: float, age: int) -> int:
    ratio = creatinine / 0.7
    return round(142 * min(ratio, 1) ** -0.241 * max(ratio, 1) ** -1.2 * 0.9938 ** age * 1.012)


def _never_ordered(codes: list[str], words: list[str], label: str) -> list[dict[str, Any]]:
    return [{"not_ordered": {"resource_type": "ServiceRequest", "codes": codes, "label": label}},
            {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": words,
                             "label": label}}]


def _decide(concept: list[str], label: str, **extra: Any) -> dict[str, Any]:
    return {"note_decision": {"concept": concept, "action": ["order", "refer"], "label": label,
                              **extra}}


# The urgent tests are for now: a plain order is now, a later time fails, and a repeat timed
# from the antivirals ('cryoglobulins 3 months after the DAA') is another, later test.
NOW = {"timing": {"min": 0, "max": 4, "unit": "wk"}, "untimed_is_now": True,
       "wrong_timing_contradicts": True}


def _soon(concept: list[str], weeks: int, label: str) -> dict[str, Any]:
    """No committed clause puts the urgent step later than ``weeks`` from now ('HCV RNA in 6
    months'); a clause without a time asserts nothing, so the plain decision above decides."""
    return {"note_decision": {"concept": concept, "action": ["order", "refer"], "label": label,
                              "required": False, "timing": {"min": 0, "max": weeks, "unit": "wk"},
                              "wrong_timing_contradicts": True}}


def mgus_workup(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    sc = SCENARIOS[name]
    draw, flc = float(values["mspike_draw"]), float(values["flc_draw"])
    mspike = round(sc["mspike"][0] + sc["mspike"][1] * draw, 1)
    ratio = round(sc["ratio"][0] + sc["ratio"][1] * flc, 2)
    kappa = round(sc["kappa"][0] + sc["kappa"][1] * flc, 1)
    factors = (mspike >= 1.5) + (sc["heavy"] != "IgG") + (not 0.26 <= ratio <= 1.65)
    if factors != {"hcv_cryo": 1, "low_risk": 0, "high_risk": 3}[name]:
        raise ValueError(f"{name}: {factors} Mayo risk factors")
    labs = dict(LABS[name])
    labs[{"IgM": "igm", "IgG": "igg", "IgA": "iga"}[sc["heavy"]]] = round(
        mspike * 1000 + {"IgM": 420, "IgG": 1000, "IgA": 300}[sc["heavy"]])
    age = int(values["age"])
    labs["egfr_prior"] = ckd_epi_2021_female(labs["creat_prior"], age - 1)
    labs["egfr"] = ckd_epi_2021_female(labs["creat"], age)
    mspike_check = {"note_value": {"concept": ["m_protein"], "value": mspike, "tolerance": 0.05,
                                   "label": f"current M-spike {mspike} g/dL"}}
    isotype = f"{sc['heavy']} {sc['light']}"
    isotypes = [f"m_protein_{heavy}_{light}" for heavy in ("igg", "iga", "igm")
                for light in ("kappa", "lambda")]
    own = f"m_protein_{sc['heavy'].lower()}_{sc['light']}"
    isotype_check = {"note_finding": {"concept": [own], "topic": True,
                                      "opposite": [i for i in isotypes if i != own],
                                      "label": f"{isotype} (no other isotype)"}}
    if name == "hcv_cryo":
        # Named, even as suspected, and never put aside for another cause of the purpura.
        assess = {"note_finding": {"concept": ["cryoglobulinemic_vasculitis"], "topic": True,
                                   "opposite": OTHER_CAUSES,
                                   "label": "cryoglobulinemic vasculitis"}}
        plan = {"all": {"of": [
            _decide(["cryoglobulin_test"], "repeat serum cryoglobulins", **NOW),
            # The screen of 5 weeks ago was refrigerated: a repeat sent cold is the same error
            # (review finding 3). Keeping it at 37 C is judged by the rubric: a warm-handling
            # phrase is too often only written beside a denial about the old screen.
            {"note_never": {"concept": ["cryoglobulin_cold_handling"],
                            "action": ["start", "order", "endorse", "continue", "implicit"],
                            "label": "no refrigerated or iced cryoglobulin sample"}},
            _decide(["hcv_rna"], "HCV RNA", **NOW)]}}
        nephrology = ["nephrology_referral", "kidney_biopsy"]
        plan2 = {"all": {"of": [
            _decide(nephrology, "nephrology for a kidney biopsy", deferral_contradicts=True),
            _soon(nephrology, 2, "nephrology within 2 weeks"),
            {"any": {"of": [
                {"note_decision": {"concept": ["hcv_daa"], "action": ["start", "order"],
                                   "committed_if": ["hcv_rna", "hcv_antibody"],
                                   "label": "direct-acting antiviral therapy"}},
                {"note_contingency": {"concept": ["hcv_daa"], "label": "DAA once viremic"}},
                _decide(["hepatology_referral"], "hepatology for HCV treatment")]}}]}}
    else:
        high = name == "high_risk"
        category = ["level_high", "high_risk_nodule"] if high else ["level_low"]
        assess = {"note_category": {
            "subject": ["mgus", "mgus_progression_risk"], "category": category,
            "others": [c for c in ["level_low", "level_intermediate", "level_high",
                                   "high_risk_nodule"] if c not in category],
            "label": f"Mayo {RISK[factors]} risk"}}
        if high:
            plan = {"all": {"of": [
                _decide(["bone_marrow_biopsy"], "bone marrow aspirate and biopsy",
                        deferral_contradicts=True),
                _soon(["bone_marrow_biopsy"], 6, "bone marrow within 6 weeks")]}}
            plan2 = _decide(IMAGING_WORDS, "skeletal imaging")
        else:
            second = {"all": {"of": [*_never_ordered(*MARROW, "bone marrow biopsy"),
                                     *_never_ordered(*IMAGING, "skeletal imaging")]}}
            plan = _decide(["spep", "m_protein"], "repeat SPEP in about 6 months",
                           timing={"min": 4, "max": 8, "unit": "mo"})
            plan2 = {"note_never": {
                "concept": ["bone_marrow_biopsy", *IMAGING_WORDS],
                "action": ["start", "order", "endorse", "allow", "implicit"],
                "allow_contingency": True, "label": "no bone marrow or skeletal imaging now"}}
    first = f"{GRADERS}:first_orders_timed"
    if name != "low_risk":
        second = f"{GRADERS}:second_orders_timed"
    six_months = (values["now"] + timedelta(days=182)).date().isoformat()
    return {"mspike": mspike, "six_months": six_months,
            "mspike_initial": round(mspike + sc["older"], 1), "kappa": kappa,
            "lam": round(kappa / ratio, 1), "flc_ratio": ratio, "factors": factors,
            "risk": RISK[factors], "isotype": isotype, "lab": labs,
            "assess_grader": {"all": {"of": [mspike_check, isotype_check, assess]}},
            "first_grader": first,
            "second_grader": second, "plan_grader": plan, "plan2_grader": plan2}


def _occurrence(order: dict[str, Any]) -> str:
    when = order.get("occurrenceDateTime") or (order.get("occurrencePeriod") or {}).get("start")
    return str(when or "")[:10]


def _days_from_now(order: dict[str, Any], now: date) -> int:
    """Days from now to the order's occurrence date; an undated order is for now (0)."""
    when = _occurrence(order)
    try:
        return max(0, (date.fromisoformat(when) - now).days) if when else 0
    except ValueError:
        return 0


def _matching(ctx: GradingContext, item: tuple[list[str], list[str]]) -> list[dict[str, Any]]:
    codes, words = item
    by_code = OrderMatch(resource_type="ServiceRequest", codes=codes, status=["active"])
    by_text = OrderMatch(resource_type="ServiceRequest", text_contains=words, status=["active"])
    return [r for r in ctx.written("ServiceRequest") if placed(r) and (
        by_code.matches(r, ctx.patient_id) or by_text.matches(r, ctx.patient_id))]


def _timed(ctx: GradingContext, which: str) -> CheckpointResult:
    name = ctx.values["scenario"]["name"]
    now = ctx.values["now"]
    today = (now if isinstance(now, datetime) else datetime.fromisoformat(str(now))).date()
    found, problems = [], []
    for label, item in TOO_SOON.get(name, []) if which == "first" else []:
        early = [r for r in _matching(ctx, item) if _days_from_now(r, today) < SIX_MONTHS[0]]
        if early:
            problems.append(f"{label} ordered for {_occurrence(early[0]) or 'now'}, repeating "
                            "the test of 3 weeks ago")
    for label, item, (low, high) in ORDERS[name][which]:
        days = [_days_from_now(r, today) for r in _matching(ctx, item)]
        if any(low <= d <= high for d in days):
            found.append(f"ordered {label}")
        elif days:
            problems.append(f"{label} ordered {min(days, key=lambda d: abs(d - low))} days from "
                            f"now (accepted {low}-{high})")
        else:
            problems.append(f"no order for {label}")
    if problems:
        return CheckpointResult(False, "; ".join(problems))
    return CheckpointResult(True, "; ".join(found))


@triggered_by(WRITE)
def first_orders_timed(ctx: GradingContext) -> CheckpointResult:
    """hcv_cryo: cryoglobulins and HCV RNA for now (within 4 weeks); high_risk: the marrow within
    6 weeks; low_risk: the repeat SPEP dated 4-8 months from now, and no SPEP or free light
    chains sooner."""
    return _timed(ctx, "first")


@triggered_by(WRITE)
def second_orders_timed(ctx: GradingContext) -> CheckpointResult:
    """hcv_cryo: the nephrology referral within 4 weeks; high_risk: skeletal imaging within 6
    weeks."""
    return _timed(ctx, "second")
