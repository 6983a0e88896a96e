"""vte_prophylaxis_substitution: the oral agent that replaces enoxaparin after a hip arthroplasty.

The scenario decides the answer (ELIQUIS, XARELTO, PRADAXA, SAVAYSA labels; ASH 2019 surgical
prophylaxis guideline; EPCAT I/II; PEPPER):
- aerd (canonical): aspirin-exacerbated respiratory disease (bronchospasm with aspirin) and no
  interacting drug -> a prophylactic-dose DOAC: apixaban 2.5 mg twice daily (rivaroxaban 10 mg
  once daily accepted); no aspirin, no nonselective NSAID (ibuprofen, naproxen).
- rifampin: rifampin 600 mg daily for latent TB (a combined P-gp and strong CYP3A4 inducer) ->
  every DOAC is to be avoided, and warfarin too (rifampin induces CYP2C9 and makes its dose
  unpredictable, with a rebound when rifampin stops); aspirin 81 mg once or twice daily (EPCAT
  I/II; PEPPER's US regimen is 81 mg twice daily) for the rest of the 35 days.
Either way the course runs to postoperative day 35 (hip), starting at the time of the next
enoxaparin dose; no further enoxaparin (no overlap, no continuation).

Course length: the note (and the message to the PCP) must end the course about postoperative
day 35 - a time of days_left-5 to 35 days from now (the reader takes "through POD 35" as 35 days
from now, so 35 is the upper edge; "6 months" or "indefinitely" fails). The order's course
(timing bounds, supply with its refills, else the quantity) must be days_left-5 to 31 days
(a 30-day supply is the usual pharmacy fill).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.medications import course_days
from physbench_gym.grading.order_schedule import order_windows
from physbench_gym.grading.resources import dose, frequency_per_day, matches_code, patient_id
from physbench_gym.grading.resources import placed as is_placed

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
APIXABAN_25, APIXABAN_5 = "1364435", "1364445"
RIVAROXABAN_10, RIVAROXABAN_15, RIVAROXABAN_20 = "1114198", "1232082", "1232086"
DABIGATRAN = ["1037179", "1037045"]
EDOXABAN = ["1599551", "1599555"]
ASPIRIN_81 = "243670"
ENOXAPARIN = ["854235", "854238", "854241", "854248"]
WARFARIN = ["855288", "855302", "855312", "855318", "855324", "855332", "855338", "855344",
            "855296"]
DOACS = [APIXABAN_25, APIXABAN_5, RIVAROXABAN_10, RIVAROXABAN_15, RIVAROXABAN_20, *DABIGATRAN,
         *EDOXABAN]
# ingredient and brand names, matched in the medication display/text of an order (not the sig),
# so that a product the terminology adds later is caught by name as well as by code
DOAC_NAMES = ["apixaban", "Eliquis", "rivaroxaban", "Xarelto", "dabigatran", "Pradaxa",
              "edoxaban", "Savaysa"]
STRENGTH_MG = {APIXABAN_25: 2.5, RIVAROXABAN_10: 10.0, ASPIRIN_81: 81.0}
TOTAL_DAYS = 35  # hip arthroplasty: prophylaxis for 35 days (ELIQUIS/XARELTO labels, ACCP 2012)
LONGEST_FILL = 31  # a 30-day supply (one month's fill) is an ordinary prescription


def _codes(codes: list[str]) -> list[str]:
    return [RX + c for c in codes]


def _order(code: str, dose_mg: float, per_day: tuple[float, float],
           label: str) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": _codes([code]),
                        "status": ["active"], "intent": ["order"],
                        "dose": {"min": dose_mg, "max": dose_mg, "unit": "mg"},
                        "per_day": {"min": per_day[0], "max": per_day[1]}, "label": label}}


def _none(codes: list[str], label: str, names: list[str] | None = None) -> dict[str, Any]:
    by_code = {"not_ordered": {"resource_type": "MedicationRequest", "codes": _codes(codes),
                               "label": label}}
    if not names:
        return by_code
    by_name = {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": names,
                               "label": label}}
    return {"all": {"of": [by_code, by_name]}}


def _start(concept: str, dose_mg: float, every: tuple[float, float], label: str,
           days_left: int, source: str = "note") -> dict[str, Any]:
    """The start with its dose and schedule, ending about postoperative day 35: in the same
    clause ('through 2026-05-09', 'to POD 35', 'for 25 days'), or as a last dose or stop of
    the drug in a clause of its own ('first dose tomorrow; last dose on 2026-05-09')."""
    end = {"timing": {"min": days_left - 5, "max": days_left + 3, "unit": "d"},
           "timing_after": {"min": TOTAL_DAYS - 7, "max": TOTAL_DAYS + 1, "unit": "d"}}
    start = {"concept": [concept], "action": ["start"], "source": source,
             "dose": {"value": dose_mg, "unit": "mg"},
             "every": {"min": every[0], "max": every[1]}, "label": label}
    stop = {"concept": [concept], "action": ["stop", "continue"], "opposite": ["avoid"],
            "source": source,
            "dose_required": False, **end, "label": f"stop {concept} about postoperative day 35"}
    return {"any": {"of": [
        {"note_decision": {**start, **end, "label": f"{label} to about postoperative day 35"}},
        {"all": {"of": [{"note_decision": start}, {"note_decision": stop}]}}]}}


def _never(concepts: list[str], label: str, source: str = "note",
           actions: list[str] | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"concept": concepts, "source": source, "label": label}
    if actions:
        args["action"] = actions
    return {"note_never": args}


# no 'start' or 'order': the reader takes "when the next enoxaparin dose is/would be due" (the
# time of the switch) as a plan or order of it; a new supply is caught by the order check, and a
# further or overlapping course in the note is a continue, resume or an offer
NO_ENOXAPARIN = ["resume", "continue", "increase", "endorse", "allow"]
COURSE_GRADER = "graders/vte_prophylaxis_substitution.py:prophylaxis_course_ordered"


def vte_substitution(values: dict[str, Any]) -> dict[str, Any]:
    kind, pod = values["scenario"]["kind"], int(values["pod"])
    if kind not in ("aerd", "rifampin") or not 5 <= pod <= 20:
        raise ValueError(f"unexpected draw: {kind}, postoperative day {pod}")
    days_left = TOTAL_DAYS - pod
    surgery = values["now"].date() - timedelta(days=pod)
    no_enox = _none(ENOXAPARIN, "no further enoxaparin injections", ["enoxaparin", "Lovenox"])
    no_warfarin = _none(WARFARIN, "no warfarin", ["warfarin", "Coumadin", "Jantoven"])

    def plan(source: str) -> list[dict[str, Any]]:
        if kind == "aerd":
            starts = [{"any": {"of": [
                _start("apixaban", 2.5, (2, 2), "apixaban 2.5 mg twice daily", days_left, source),
                _start("rivaroxaban", 10, (1, 1), "rivaroxaban 10 mg once daily", days_left,
                       source)]}}]
        else:
            starts = [_start("aspirin", 81, (1, 2), "aspirin 81 mg once or twice daily",
                             days_left, source)]
        return starts + [_never(["enoxaparin"], "no further or overlapping enoxaparin", source,
                                NO_ENOXAPARIN)]

    def forbidden(source: str) -> list[dict[str, Any]]:
        if kind == "aerd":
            return [_never(["aspirin"], "no aspirin (aspirin-exacerbated respiratory disease)",
                           source),
                    _never(["ibuprofen", "naproxen"], "no nonselective NSAID "
                           "(aspirin-exacerbated respiratory disease)", source)]
        return [_never(["doac", "apixaban", "rivaroxaban", "dabigatran", "edoxaban"],
                       "no DOAC while she takes rifampin", source),
                _never(["warfarin"], "no warfarin while she takes rifampin", source)]

    if kind == "aerd":
        apixaban = {"all": {"of": [
            _order(APIXABAN_25, 2.5, (2, 2), "apixaban 2.5 mg twice daily"),
            _none([RIVAROXABAN_10, RIVAROXABAN_15, RIVAROXABAN_20], "not rivaroxaban as well",
                  ["rivaroxaban", "Xarelto"])]}}
        rivaroxaban = {"all": {"of": [
            _order(RIVAROXABAN_10, 10, (1, 1), "rivaroxaban 10 mg once daily"),
            _none([APIXABAN_25, APIXABAN_5], "not apixaban as well", ["apixaban", "Eliquis"])]}}
        order_check = [{"any": {"of": [apixaban, rivaroxaban]}},
                       _none([APIXABAN_5, RIVAROXABAN_15, RIVAROXABAN_20, *DABIGATRAN,
                              *EDOXABAN], "no treatment-dose or other DOAC",
                             ["dabigatran", "Pradaxa", "edoxaban", "Savaysa"]),
                       _none([ASPIRIN_81], "no aspirin (aspirin-exacerbated respiratory disease)",
                             ["aspirin"]),
                       no_enox, no_warfarin, COURSE_GRADER]
        substitutes = [APIXABAN_25, RIVAROXABAN_10]
        drug, rx = "apixaban 2.5 mg by mouth twice daily", {
            "code": APIXABAN_25, "display": "apixaban 2.5 mg oral tablet", "dose": 2.5, "freq": 2}
        reason_text = ("aspirin is excluded by her aspirin-exacerbated respiratory disease "
                       "(bronchospasm), and she takes no drug that interacts with apixaban")
    else:
        order_check = [_order(ASPIRIN_81, 81, (1, 2), "aspirin 81 mg once or twice daily"),
                       _none(DOACS, "no DOAC with rifampin", DOAC_NAMES), no_enox, no_warfarin,
                       COURSE_GRADER]
        substitutes = [ASPIRIN_81]
        drug, rx = "aspirin 81 mg by mouth once daily", {
            "code": ASPIRIN_81, "display": "aspirin 81 mg oral tablet", "dose": 81, "freq": 1}
        reason_text = ("rifampin, a combined P-gp and strong CYP3A4 inducer, makes every DOAC "
                       "unreliable (the labels say to avoid the combination)")
    message_check = [
        {"ordered": {"resource_type": "Communication", "label": "message to the PCP"}},
        *plan("message"), *forbidden("message")]
    return {
        "surgery_offset": f"-{pod}d", "pod1_offset": f"-{pod - 1}d",
        "discharge_offset": f"-{pod - 2}d", "preop_offset": f"-{pod + 12}d",
        "enox_days": pod - 2, "days_left": days_left,
        "discharge_extra": ", montelukast 10 mg nightly" if kind == "aerd" else "",
        "surgery_date": surgery.isoformat(),
        "end_date": (surgery + timedelta(days=TOTAL_DAYS)).isoformat(),
        "order_check": order_check, "plan_check": plan("note"),
        "forbidden_check": forbidden("note"), "message_check": message_check,
        "substitute_codes": substitutes,
        "course_min_days": days_left - 5, "course_max_days": LONGEST_FILL,
        "drug_text": drug, "reason_text": reason_text,
        "rx_code": rx["code"], "rx_display": rx["display"], "rx_dose": rx["dose"],
        "rx_freq": rx["freq"], "rx_quantity": days_left * rx["freq"],
    }


def _days(quantity: dict[str, Any] | None) -> float | None:
    if not quantity or quantity.get("value") is None:
        return None
    unit = str(quantity.get("code") or quantity.get("unit") or "d").lower()
    factor = 7.0 if unit.startswith(("wk", "week")) else 30.0 if unit.startswith(
        ("mo", "month")) else 1.0
    return float(quantity["value"]) * factor


def _course_lengths(resource: dict[str, Any]) -> list[float]:
    """Every course length the order states, in days: its timing window (stated start to
    bounds end, else its course), its supply with the refills, and - when neither is given -
    its quantity over the tablets a day. Empty when the order is open-ended."""
    lengths = []
    window = order_windows([resource])[0]
    if window[1] != float("inf"):
        lengths.append(window[1] - window[0])
    dispense = resource.get("dispenseRequest") or {}
    refills = int(dispense.get("numberOfRepeatsAllowed") or 0)
    supply = _days(dispense.get("expectedSupplyDuration"))
    if supply is not None:
        lengths.append(supply * (1 + refills))
    if not lengths and course_days(resource) is None:
        quantity = (dispense.get("quantity") or {}).get("value")
        code = next((c for c in STRENGTH_MG if matches_code(resource, [RX + c])), None)
        stated, times = dose(resource), frequency_per_day(resource)
        if quantity and code and stated and times and re.fullmatch(
                r"mg|milligrams?", stated[1].strip().lower()):
            tablets_a_day = stated[0] / STRENGTH_MG[code] * times
            lengths.append(float(quantity) * (1 + refills) / tablets_a_day)
    return lengths


@triggered_by(WRITE)
def prophylaxis_course_ordered(ctx: GradingContext) -> CheckpointResult:
    """The substitute's prescription covers the rest of the 35 days and not much more: every
    course length it states (timing bounds, supply x (1 + refills), else quantity) is within
    days_left-5 to 31 days. An open-ended order, a 6-month supply or refills fail."""
    low, high = float(ctx.values["course_min_days"]), float(ctx.values["course_max_days"])
    wanted = [RX + c for c in ctx.values["substitute_codes"]]
    orders = [r for r in ctx.written("MedicationRequest")
              if patient_id(r) == ctx.patient_id and is_placed(r) and matches_code(r, wanted)]
    if not orders:
        return CheckpointResult(False, "no prescription of the substitute to check the course of")
    problems = []
    for resource in orders:
        lengths = _course_lengths(resource)
        if not lengths:
            problems.append("no course length (open-ended)")
        elif all(low <= d <= high for d in lengths):
            return CheckpointResult(True, f"course of {max(lengths):g} days "
                                          f"(accepted {low:g}-{high:g})")
        else:
            problems.append("course of " + "/".join(f"{d:g}" for d in lengths) + " days")
    return CheckpointResult(False, f"prescription course not {low:g}-{high:g} days: "
                                   + "; ".join(problems))
