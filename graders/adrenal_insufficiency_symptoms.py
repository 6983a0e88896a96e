"""adrenal_insufficiency_symptoms: primary adrenal insufficiency with new symptoms on replacement.

Three scenarios (``scenario[name]``), all on hydrocortisone 15 mg/day (10 mg + 5 mg):
- ``mc_deficit``: fludrocortisone cut to 0.05 mg 14 months ago; orthostatic hypotension,
  salt craving, Na 131-134, K 5.3-5.8, renin 12-26 ng/mL/h (high) -> increase fludrocortisone
  to 0.1-0.15 mg daily; hydrocortisone unchanged (Endocrine Society 2016, recs 3.7-3.8).
- ``mc_excess``: fludrocortisone raised to 0.2 mg 10 months ago; BP 148-158/92-98, edema,
  K 3.1-3.4, renin 0.1-0.4 ng/mL/h (suppressed) -> reduce fludrocortisone to 0.05-0.15 mg
  daily, not stop it; hydrocortisone unchanged (ES 2016, rec 3.9).
- ``inducer``: rifampin 600 mg daily for latent TB started 5 weeks ago; fatigue, nausea,
  weight loss, renin and potassium normal -> double to triple hydrocortisone (30-45 mg/day)
  while on rifampin (ES 2016 drug-interaction remarks; Kyriazopoulou 1984; hydrocortisone label).
Every branch: emergency hydrocortisone 100 mg IM kit, sick-day rules, no dexamethasone and no
repeat ACTH stimulation test.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.order_schedule import daily_amounts
from physbench_gym.grading.resources import matches_code, patient_id, placed

FLUDRO = ["http://www.nlm.nih.gov/research/umls/rxnorm|313979"]
HC_ORAL = ["http://www.nlm.nih.gov/research/umls/rxnorm|" + c for c in ("197782", "197787",
                                                                          "197783")]
BASELINE_HC = 15.0  # mg/day: 10 mg on waking + 5 mg at 2 PM

# scenario -> (fludrocortisone now, accepted new dose range or None, hydrocortisone mg/day range)
PLANS = {
    "mc_deficit": (0.05, (0.1, 0.15), (BASELINE_HC, BASELINE_HC)),
    "mc_excess": (0.2, (0.05, 0.15), (BASELINE_HC, BASELINE_HC)),
    "inducer": (0.1, None, (2 * BASELINE_HC, 3 * BASELINE_HC)),
}
_UNDER, _OVER = "mineralocorticoid_underreplacement", "mineralocorticoid_overreplacement"
FINDING = {"mc_deficit": (_UNDER, [_OVER]), "mc_excess": (_OVER, [_UNDER]),
           "inducer": ("glucocorticoid_underreplacement", [_OVER])}


def _span(draw: float, low: float, high: float, digits: int = 1) -> float:
    return round(low + (high - low) * draw, digits)


def _fludro_decision(action: str, low: float, high: float) -> dict[str, Any]:
    opposite = (["decrease", "keep_dose", "stop", "avoid"] if action == "increase"
                else ["increase", "keep_dose", "stop", "avoid"])
    return {"note_decision": {
        "concept": ["fludrocortisone"], "action": [action], "opposite": opposite,
        "dose": {"min": low, "max": high, "unit": "mg", "per_day": True},
        "deferral_contradicts": True,
        "label": f"{action} fludrocortisone to {low:g}-{high:g} mg daily"}}


def _hc_kept() -> dict[str, Any]:
    return {"note_decision": {
        "concept": ["hydrocortisone"], "action": ["continue", "keep_dose"],
        "opposite": ["stop", "avoid", "switch", "increase", "decrease"], "required": False,
        "dose": {"min": 5, "max": 25, "unit": "mg"}, "any_dose": True,
        "label": "hydrocortisone continued at its dose (not raised or stopped)"}}


def adrenal_replacement(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    r, na, k, bp = (float(values[key]) for key in ("renin_draw", "na_draw", "k_draw", "bp_draw"))
    if name == "mc_deficit":
        renin, potassium = _span(r, 12, 26), _span(k, 5.3, 5.8)
        sodium = round(_span(na, 131, 134, 0))
        sbp, dbp = round(_span(bp, 100, 106, 0)), round(_span(bp, 62, 68, 0))
        drop, hr, rise, weight_change = 16 + round(8 * r), 78, 24, -1.5
    elif name == "mc_excess":
        renin, potassium = _span(r, 0.1, 0.4), _span(k, 3.1, 3.4)
        sodium = round(_span(na, 141, 144, 0))
        sbp, dbp = round(_span(bp, 148, 158, 0)), round(_span(bp, 92, 98, 0))
        drop, hr, rise, weight_change = 2, 72, 4, 4.0
    else:
        renin, potassium = _span(r, 2.2, 3.8), _span(k, 4.4, 4.9)
        sodium = round(_span(na, 135, 137, 0))
        sbp, dbp = round(_span(bp, 104, 110, 0)), round(_span(bp, 64, 70, 0))
        drop, hr, rise, weight_change = 10, 84, 12, -3.0
    current, new_range, hc_range = PLANS[name]
    finding, opposite = FINDING[name]
    never = [
        {"note_never": {"concept": ["dexamethasone"], "action": [
            "start", "resume", "continue", "increase", "endorse", "allow", "implicit", "switch"],
            "label": "no dexamethasone as replacement"}},
        {"note_never": {"concept": ["spironolactone"], "action": [
            "start", "resume", "continue", "increase", "endorse", "allow", "implicit"],
            "label": "no spironolactone or eplerenone (they block fludrocortisone)"}},
        {"note_never": {"concept": ["acth_stim_test", "cosyntropin"], "action": [
            "order", "start", "endorse", "allow", "implicit"],
            "label": "no repeat ACTH stimulation test"}},
    ]
    if name == "inducer":
        plan = [
            {"note_decision": {
                "concept": ["hydrocortisone"], "action": ["increase"],
                "opposite": ["stop", "avoid", "keep_dose"],
                "dose": {"min": hc_range[0], "max": hc_range[1], "unit": "mg", "per_day": True},
                "any_dose": True, "dose_required": False, "deferral_contradicts": True,
                "label": f"increase hydrocortisone to {hc_range[0]:g}-{hc_range[1]:g} mg/day"}},
            # any_dose lets a daily total stand beside its divided doses ('30 mg a day, 10 mg
            # three times daily'); no stated increase may go past triple the dose, though.
            {"note_decision": {
                "concept": ["hydrocortisone"], "action": ["increase"], "opposite": [],
                "required": False,
                "dose": {"min": 5, "max": hc_range[1], "unit": "mg", "per_day": True},
                "label": f"no hydrocortisone above {hc_range[1]:g} mg/day"}},
            {"note_decision": {"concept": ["fludrocortisone"], "action": ["continue", "keep_dose"],
                               "required": False, "label": "fludrocortisone kept at 0.1 mg"}},
        ]
    else:
        action = "increase" if name == "mc_deficit" else "decrease"
        plan = [_fludro_decision(action, *new_range), _hc_kept()]
    now = values["now"]
    return {
        "renin": renin, "sodium": sodium, "potassium": potassium,
        "renin_tolerance": 0.5 if renin >= 10 else 0.05,
        "sbp": sbp, "dbp": dbp, "standing_sbp": sbp - drop, "standing_dbp": dbp - drop // 2,
        "hr": hr, "standing_hr": hr + rise,
        "weight": round(68.0 + weight_change, 1), "weight_change": abs(weight_change),
        "fludro_current": current,
        "fludro_low": new_range[0] if new_range else current,
        "fludro_high": new_range[1] if new_range else current,
        "hc_min": hc_range[0], "hc_max": hc_range[1],
        "finding": [finding], "finding_opposite": opposite,
        "finding_label": finding.replace("_", " "),
        "plan_grader": {"all": {"of": [*plan, *never]}},
        "labs_date": (now + timedelta(days=42)).date().isoformat(),
        "followup_start": (now + timedelta(days=49)).replace(hour=9, minute=30, second=0,
                                                             microsecond=0).isoformat(),
    }


def _per_day(ctx: GradingContext, codes: list[str], moiety: str) -> float | None:
    """The agent's placed scheduled orders of ``codes`` summed to mg a day (None: none ordered);
    as-needed orders (extra tablets for sick days) are not part of the daily regimen."""
    total = None
    for resource in ctx.written("MedicationRequest"):
        if patient_id(resource) != ctx.patient_id or not placed(resource) or not matches_code(
                resource, codes) or any(d.get("asNeededBoolean") for d in
                                        resource.get("dosageInstruction", [])):
            continue  # another patient, not placed, another drug, or extra sick-day tablets
        for component, amount in daily_amounts(resource) or ((moiety, float("nan")),):
            if component.startswith(moiety):
                total = (total or 0.0) + amount
    return total


@triggered_by(WRITE)
def hydrocortisone_regimen_ordered(ctx: GradingContext) -> CheckpointResult:
    """Oral hydrocortisone ordered within the scenario's daily range: raised to 2-3 times the
    dose on rifampin; left alone (or re-ordered at 15 mg/day) otherwise."""
    low, high = float(ctx.values["hc_min"]), float(ctx.values["hc_max"])
    total = _per_day(ctx, HC_ORAL, "hydrocortisone")
    required = ctx.values["scenario"]["name"] == "inducer"
    if total is None:
        if required:
            return CheckpointResult(False, "no oral hydrocortisone order at the raised dose")
        return CheckpointResult(True, "oral hydrocortisone left unchanged")
    if low - 1e-6 <= total <= high + 1e-6:
        return CheckpointResult(True, f"oral hydrocortisone {total:g} mg/day ordered")
    return CheckpointResult(False, f"oral hydrocortisone {total:g} mg/day (expected "
                                   f"{low:g}-{high:g} mg/day)")


@triggered_by(WRITE)
def fludrocortisone_dose_ordered(ctx: GradingContext) -> CheckpointResult:
    """Fludrocortisone ordered once daily in the scenario's range (raised or lowered); on
    rifampin, left at 0.1 mg (not ordered, or re-ordered at 0.1 mg)."""
    low, high = float(ctx.values["fludro_low"]), float(ctx.values["fludro_high"])
    total = _per_day(ctx, FLUDRO, "fludrocortisone")
    if total is None:
        if ctx.values["scenario"]["name"] == "inducer":
            return CheckpointResult(True, "fludrocortisone left unchanged")
        return CheckpointResult(False, "no fludrocortisone order at the new dose")
    if low - 1e-6 <= total <= high + 1e-6:
        return CheckpointResult(True, f"fludrocortisone {total:g} mg/day ordered")
    return CheckpointResult(False, f"fludrocortisone {total:g} mg/day (expected "
                                   f"{low:g}-{high:g} mg/day)")
