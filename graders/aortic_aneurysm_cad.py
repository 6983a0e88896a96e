"""aortic_aneurysm_cad: size band of an incidental AAA (SVS 2018) and the risk-factor plan."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_graders.cardiology import statin_codes, statin_tablets

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import matches_code, patient_id, placed
from physbench_gym.synth import terminology

CPT, LOINC = "http://www.ama-assn.org/go/cpt", "http://loinc.org"
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
# Aortic ultrasound orders: vascular-lab duplex (CPT 93978/93979), retroperitoneal US
# (76770/76775) or the LOINC radiology codes of an aortic ultrasound.
DUS_CODES = [f"{CPT}|{c}" for c in ("93978", "93979", "76770", "76775")] + [
    f"{LOINC}|{c}" for c in ("69276-4", "24547-2", "46388-5")]
# Men: upper bound (cm, exclusive), band, interval the note must state (months), accepted
# due-date window of the order (months from now), the oracle's due month, referral required.
BANDS = ((4.0, "3y", (24, 36), (23, 38), 36, False), (5.0, "12m", (6, 12), (5, 13), 12, False),
         (5.5, "6m", (3, 6), (2.5, 7), 6, True), (99.0, "repair", None, None, None, True))


def _codes(test) -> list[str]:
    return sorted(c.code for c in terminology.all_concepts("rxnorm") if test(c.extra))


def aaa_followup(values: dict[str, Any]) -> dict[str, Any]:
    size, rec, now = float(values["aaa_cm"]), values["risk_profile"], values["now"]
    _, band, note_mo, window, due, referral = next(b for b in BANDS if size < b[0])
    out: dict[str, Any] = {"band": band, "referral_required": referral, "aaa_mm": round(size * 10)}
    if window:
        days = 30.44
        out.update(note_min=note_mo[0], note_max=note_mo[1], due_months=due,
                   window_start=(now + timedelta(days=window[0] * days)).date().isoformat(),
                   window_end=(now + timedelta(days=window[1] * days)).date().isoformat(),
                   dus_due=(now + timedelta(days=due * days)).date().isoformat(),
                   interval_text=("3 years" if band == "3y" else f"{due} months"),
                   # the same interval written as a schedule ('yearly', 'every 12 months'),
                   # in administrations a day, with 5% slack around the band's months
                   every_min=round(1 / (note_mo[1] * days * 1.05), 6),
                   every_max=round(1 / (note_mo[0] * days * 0.95), 6))
    high = rec["statin_dose"] >= 40
    out["statin_rxnorm"] = "259255" if high else "617310"
    # Varenicline, nicotine replacement, or bupropion SR 150 mg (the Zyban formulation).
    cessation = _codes(lambda e: e.get("ingredient") in ("varenicline", "nicotine")) + ["993518"]
    fq = _codes(lambda e: e.get("drug_class") == "fluoroquinolone")
    lower = statin_codes("moderate") + statin_codes("low")
    orders: list[dict[str, Any]] = [{"not_ordered": {"resource_type": "MedicationRequest",
                                    "codes": fq, "label": "fluoroquinolone"}},
                                    {"not_ordered": {"resource_type": "MedicationRequest",
                                     "codes": lower, "label": "moderate- or low-intensity statin"}}]
    if not high:
        orders.append({"ordered": {"resource_type": "MedicationRequest",
                                   "codes": statin_codes("high"), "status": ["active"],
                                   "intent": ["order"], "per_day": {"min": 1, "max": 1},
                                   "label": "high-intensity statin once daily"}})
    if rec["smoker"]:
        orders.append({"ordered": {"resource_type": "MedicationRequest", "codes": cessation,
                                   "status": ["active"], "intent": ["order"],
                                   "label": "smoking cessation pharmacotherapy"}})
    else:
        orders.append({"not_ordered": {"resource_type": "MedicationRequest", "codes": cessation,
                                       "label": "cessation drug for a former smoker"}})
    orders.append("graders/aortic_aneurysm_cad.py:one_new_statin")
    out["risk_orders"] = orders
    out.update(_texts(values, band, high, bool(rec["smoker"])))
    return out


def _texts(values: dict[str, Any], band: str, high: bool, smoker: bool) -> dict[str, str]:
    """The smoking status code, and the oracle's message to the PCP."""
    plan = {"3y": "surveillance duplex in 3 years", "12m": "surveillance duplex in 12 months",
            "6m": "duplex in 6 months and vascular surgery referral",
            "repair": "urgent vascular surgery referral for elective repair"}[band]
    return {"smoking_code": "77176002" if smoker else "8517006",
            "message_summary": f"{values['aaa_cm']} cm infrarenal AAA - {plan}; statin "
            + ("unchanged at 80 mg" if high else "increased to atorvastatin 80 mg")
            + ("; varenicline started." if smoker else ".")}


@triggered_by(WRITE)
def surveillance_us_ordered(ctx: GradingContext) -> CheckpointResult:
    """Placed an aortic ultrasound order dated within the surveillance window of the size band."""
    low, high = str(ctx.values["window_start"]), str(ctx.values["window_end"])
    found = []
    for r in ctx.written("ServiceRequest"):
        if patient_id(r) != ctx.patient_id or not placed(r) or not matches_code(r, DUS_CODES):
            continue
        when = str(r.get("occurrenceDateTime") or (r.get("occurrencePeriod") or {}).get("start")
                   or "")[:10]
        if low <= when <= high:
            return CheckpointResult(True, f"aortic ultrasound ordered for {when}")
        found.append(when or "no date")
    detail = f" (ordered for {', '.join(found)})" if found else " (none ordered)"
    return CheckpointResult(False, f"no aortic ultrasound dated {low} to {high}{detail}")


@triggered_by(WRITE)
def one_new_statin(ctx: GradingContext) -> CheckpointResult:
    """At most one new statin order: two (a repeated 80 mg, or atorvastatin plus rosuvastatin)
    is duplicate statin therapy."""
    codes = [f"{RXNORM}|{code}" for _, _, code in statin_tablets()]
    new = [r for r in ctx.written("MedicationRequest")
           if patient_id(r) == ctx.patient_id and placed(r) and matches_code(r, codes)]
    if len(new) > 1:
        return CheckpointResult(False, f"{len(new)} new statin orders (duplicate statin therapy)")
    return CheckpointResult(True, f"{len(new)} new statin order(s)")
