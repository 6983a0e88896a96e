"""trd_refill_review: a refill request for sertraline 200 mg plus lithium augmentation.

The scenario draw decides the answer (lithium carbonate label, revised 2022; NICE CG185/NG222;
CANMAT 2023; Maudsley Prescribing Guidelines 14th ed.):
- interaction (canonical, naproxen): an NSAID or a thiazide started after the last lithium
  level (4 months ago) -> do not refill lithium until a fresh 12-hour trough level and
  creatinine/eGFR are back (order both now); stop the interacting drug; refill sertraline.
- therapeutic: no new interacting drug, a 12-hour trough 3 weeks ago in range, renal function
  stable, TSH and calcium last checked 13 months ago -> refill lithium 300 mg twice daily
  (600 mg/day) and sertraline; order the overdue TSH and calcium.
- high: no new interacting drug, a trough above 1.0 mmol/L with eGFR falling to about 53 ->
  reduce lithium to 300-450 mg/day (oracle 300 mg at bedtime), recheck the level and
  creatinine in 5-7 days; refill sertraline.
Every branch: sertraline and lithium within their label maximums (sertraline 200 mg/day;
lithium 900 mg per dose).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LN = "http://loinc.org|"
SERTRALINE = ["312940", "312941", "312938"]
LITHIUM = ["197889", "311355"]
LITHIUM_LEVEL = [LN + "14334-7"]
RENAL = [LN + "2160-0", LN + "51990-0", LN + "24323-8", LN + "98979-8"]


def _rx(codes: list[str]) -> list[str]:
    return [RX + c for c in codes]


def _sr(codes: list[str], label: str, occurrence: dict[str, int] | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"resource_type": "ServiceRequest", "codes": codes,
                            "status": ["active"], "intent": ["order"], "label": label}
    if occurrence:
        args["occurrence"] = occurrence
    return {"ordered": args}


def _med(codes: list[str], lo: float, hi: float, per_day: tuple[int, int], label: str
         ) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": _rx(codes),
                        "status": ["active"], "intent": ["order"],
                        "dose": {"min": lo, "max": hi, "unit": "mg"},
                        "per_day": {"min": per_day[0], "max": per_day[1]}, "label": label}}


def _not(codes: list[str], label: str, **extra: Any) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "MedicationRequest", "codes": _rx(codes),
                            "label": label, **extra}}


def trd_refill_review(values: dict[str, Any]) -> dict[str, Any]:
    scenario = values["scenario"]
    kind = scenario["kind"]
    if kind not in ("interaction", "therapeutic", "high"):
        raise ValueError(f"unknown scenario {kind!r}")
    level = float(values["level"] if kind != "high" else values["high_level"])
    recheck = (values["now"] + timedelta(days=6)).date().isoformat()

    sertraline_refill = _med(SERTRALINE, 200, 200, (1, 1), "sertraline 200 mg once daily refilled")
    # label maximums (sertraline 200 mg/day; lithium 900 mg per dose - the daily total is the
    # safety check's max_doses row, 1800 mg/day)
    over_max = [_not(SERTRALINE, "sertraline above 200 mg", dose={"min": 201, "unit": "mg"}),
                _not(LITHIUM, "lithium above 900 mg per dose", dose={"min": 901, "unit": "mg"})]
    if kind == "interaction":
        lithium_order = _not(LITHIUM, "no lithium refill before a fresh level")
        monitoring = {"all": {"of": [
            _sr(LITHIUM_LEVEL, "12-hour trough lithium level now", {"min": 0, "max": 7}),
            _sr(RENAL, "creatinine/eGFR (BMP) now", {"min": 0, "max": 7})]}}
    elif kind == "therapeutic":
        # renewed unchanged: no second lithium order at another dose or schedule beside it (an
        # extra 300 mg three times daily, 450 mg, or 150 mg capsules); a duplicate of the same
        # 300 mg twice-daily order is not caught (no order check sums the daily total)
        lithium_order = {"all": {"of": [
            _med(LITHIUM, 300, 300, (2, 2), "lithium carbonate 300 mg twice daily"),
            _not(LITHIUM, "no lithium dose other than 300 mg", dose={"min": 301, "unit": "mg"}),
            _not(LITHIUM, "no lithium dose below 300 mg", dose={"max": 299, "unit": "mg"}),
            _not(LITHIUM, "no lithium more than twice daily", per_day={"min": 3})]}}
        monitoring = {"all": {"of": [
            _sr([LN + "3016-3"], "TSH (overdue)"),
            _sr([LN + "17861-6", LN + "24323-8", LN + "51990-0"], "serum calcium (overdue)")]}}
    else:
        lithium_order = {"all": {"of": [
            {"any": {"of": [
                _med(["197889"], 300, 300, (1, 1), "lithium carbonate 300 mg once daily"),
                _med(["311355"], 150, 150, (2, 3), "lithium carbonate 150 mg two or three "
                                                    "times daily"),
                _med(["311355"], 300, 450, (1, 1), "lithium carbonate 300-450 mg once daily")]}},
            _not(LITHIUM, "lithium not renewed at 600 mg/day", dose={"min": 300, "unit": "mg"},
                 per_day={"min": 2}),
            _not(LITHIUM, "no lithium dose above 450 mg", dose={"min": 451, "unit": "mg"}),
            _not(LITHIUM, "no 150 mg lithium more than three times daily",
                 per_day={"min": 4})]}}
        monitoring = {"all": {"of": [
            _sr(LITHIUM_LEVEL, "lithium level in 5-7 days", {"min": 3, "max": 10}),
            _sr(RENAL, "creatinine/eGFR in 5-7 days", {"min": 3, "max": 10})]}}
    prescription = {"all": {"of": [sertraline_refill, lithium_order, *over_max]}}

    drug = scenario.get("drug", "")
    if kind == "interaction":
        # the drug is stopped, and no other drug that raises lithium takes its place (another
        # NSAID for an NSAID; a thiazide, ACE inhibitor or ARB for the thiazide: lithium label
        # section 7); a rule 'no NSAID without a level within a week' is a trigger on the level
        classes = (["thiazide", "ace_inhibitor", "arb"] if drug == "hydrochlorothiazide"
                   else ["nsaid"])
        assessed = {"all": {"of": [
            {"note_decision": {"concept": [drug], "action": ["stop", "avoid"],
                               "label": f"stop {drug} (raises lithium levels)"}},
            {"note_never": {"concept": classes,
                            "action": ["start", "resume", "allow", "switch"],
                            "allow_contingency": True, "contingency_on": ["lithium_level"],
                            "label": "no other lithium-raising drug in its place"}}]}}
        plan = {"all": {"of": [
            # the level now; the maintenance interval (every 3-6 months) written beside it is
            # not a deferral, and a level only 'in 3-4 weeks' states no 0-7 day level
            {"note_decision": {"concept": ["lithium_level"], "action": ["order"],
                               "timing": {"min": 0, "max": 168, "unit": "h"},
                               "untimed_is_now": True, "before": ["lithium", "lithium_refill"],
                               "opposite": [],
                               "label": "lithium level now, before the refill"}},
            # the must-not: no refill before the new level (a refill once the level is back, a
            # trigger naming it, is the plan); taking her current supply meanwhile is not a
            # refill, so the refill words are their own concept (lexicon lithium_refill)
            {"note_never": {"concept": ["lithium_refill"],
                            # not 'continue': 'continue 300 mg BID from her supply' after
                            # 'lithium refill held' resolves to the refill concept
                            "action": ["start", "resume", "endorse", "allow", "implicit"],
                            "allow_contingency": True,
                            "label": "no lithium refill before the new level"}},
            # the refill is held (said in so many words), not sent today
            {"note_decision": {"concept": ["lithium_refill"], "action": ["stop", "avoid"],
                               "opposite": [], "label": "lithium refill held until the level"}},
            {"note_never": {"concept": ["lithium"], "action": ["increase"],
                            "label": "no lithium increase"}},
            # the augmentation goes on (at least 2 years after remission: psychiatry discharge
            # plan; NICE NG222): holding the refill is not stopping the drug, and a stop
            # under a trigger (toxicity symptoms, a high level) is a safety-net
            {"note_never": {"concept": ["lithium"], "action": ["stop"],
                            "allow_contingency": True,
                            "label": "lithium not stopped"}}]}}
    elif kind == "therapeutic":
        assessed = {"note_value": {"concept": ["lithium_level"], "value": level,
                                   "tolerance": 0.05, "label": f"lithium level {level}"}}
        plan = {"note_decision": {"concept": ["lithium", "lithium_refill"],
                                  "action": ["continue"],
                                  "dose": {"value": 600, "unit": "mg", "per_day": True},
                                  "opposite": ["stop", "decrease", "increase"],
                                  "label": "lithium continued at 600 mg/day"}}
    else:
        assessed = {"all": {"of": [
            {"note_value": {"concept": ["lithium_level"], "value": level, "tolerance": 0.05,
                            "label": f"lithium level {level}"}},
            {"note_value": {"concept": ["egfr"], "value": scenario["egfr_now"], "tolerance": 2,
                            "label": f"eGFR {scenario['egfr_now']}"}}]}}
        plan = {"all": {"of": [
            {"note_decision": {"concept": ["lithium"], "action": ["decrease"],
                               "dose": {"min": 300, "max": 450, "unit": "mg", "per_day": True},
                               "label": "lithium reduced to 300-450 mg/day"}},
            {"note_never": {"concept": ["lithium"], "action": ["increase"],
                            "label": "no lithium increase"}}]}}
    # sertraline stays at 200 mg on every branch; a hedge to stop or switch it fails
    keep_sertraline = {"note_decision": {
        "concept": ["sertraline"], "action": ["continue"], "dose": {"value": 200, "unit": "mg"},
        "opposite": ["stop", "switch"], "strict": True,
        "label": "sertraline continued at 200 mg"}}
    plan = {"all": {"of": [keep_sertraline, plan]}}
    retrieval = [
        {"retrieved": {"resource_type": "MedicationRequest", "codes": _rx(LITHIUM),
                       "label": "lithium prescriptions"}},
        # PHQ-9 Observations are category survey, which no read tool returns: the trend is in
        # the psychiatry notes
        {"retrieved": {"resource_type": "DocumentReference", "codes": [LN + "11488-4"],
                       "text_contains": ["Care returned to PCP"],
                       "label": "psychiatry discharge note with the monitoring plan"}}]
    if kind == "interaction":
        retrieval.append({"retrieved": {"resource_type": "MedicationRequest",
                                        "codes": _rx([scenario["code"]]),
                                        "label": f"the new {drug} prescription"}})
    return {
        "branch": kind,
        "retrieval_grader": {"all": {"of": retrieval}},
        "level_now": level,
        "recheck_date": recheck,
        "prescription_grader": prescription,
        "monitoring_grader": monitoring,
        "assessed_grader": assessed,
        "plan_grader": plan,
    }
