"""How long to anticoagulate after a first proximal DVT: provoked by surgery or unprovoked.

CHEST 2021 (Stevens et al.) and ASH 2020 (Ortel et al.): a VTE provoked by a major transient
risk factor (surgery) gets a 3-month treatment phase and then stops; an unprovoked VTE with a
bleeding risk that is not high gets extended-phase anticoagulation with no planned stop date,
preferably reduced-dose apixaban 2.5 mg twice daily or rivaroxaban 10 mg daily after the first
6 months (AMPLIFY-EXT, EINSTEIN-CHOICE; apixaban and rivaroxaban labels).

The variant draws the provocation. Provoked: the DVT came 3 weeks after a total knee
arthroplasty and the consult is 7-9 weeks into treatment, so the expected prescription is
apixaban 5 mg twice daily to complete 3 months, then stop. Unprovoked: the same knee was
only considered for surgery (deferred), the consult is ~6 months into treatment, and the
expected prescription is apixaban 2.5 mg twice daily (or rivaroxaban 10 mg daily) without an
end date.

A physician states the end of a 3-month course as a total ('3 months', 'a 12-week course'),
as the time still to go ('5 more weeks, then stop') or as a stop date, so the provoked plan is
read all three ways; an order ends the course by its duration, supply or tablet count, with
its refills.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import dose, frequency_per_day, matches_code, patient_id
from physbench_gym.synth import terminology

APIXABAN_5, APIXABAN_2_5 = "1364445", "1364435"
RIVAROXABAN_10, RIVAROXABAN_20 = "1114198", "1232086"
ANTICOAGULANT_CLASSES = ("direct oral anticoagulant", "vitamin K antagonist",
                         "low molecular weight heparin")
TREATMENT_DAYS = 91  # the 3-month treatment phase
STOP_WINDOW_DAYS = (84, 98)  # an order may end 12-14 weeks after the diagnosis


def anticoagulant_codes() -> list[str]:
    """RxNorm codes of every oral or injectable anticoagulant in the terminology."""
    return sorted(c.code for c in terminology.all_concepts("rxnorm")
                  if c.extra.get("drug_class") in ANTICOAGULANT_CLASSES)


def _retrieved(resource_type: str, codes: list[str], label: str,
               text: list[str] | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"resource_type": resource_type, "codes": codes, "label": label}
    if text:
        args["text_contains"] = text
    return {"retrieved": args}


def _provoked(values: dict[str, Any], dvt: datetime, tka: datetime) -> dict[str, Any]:
    remaining = TREATMENT_DAYS - int(values["dvt_days"])
    stop = dvt + timedelta(days=TREATMENT_DAYS)
    others = [c for c in anticoagulant_codes() if c != APIXABAN_5]
    return {
        "category": "provoked",
        "ed_risk_text": (f"Right total knee arthroplasty on {tka.date().isoformat()} (3 weeks "
                         "ago); limited mobility since, aspirin 81 mg twice daily as "
                         "prophylaxis after discharge."),
        "knee_note_type": "18842-5",
        "knee_note_title": "Discharge summary - right total knee arthroplasty",
        "knee_note_text": (
            f"Elective right total knee arthroplasty on {tka.date().isoformat()} for end-stage "
            "osteoarthritis, under general anesthesia (operative time 2 h 10 min). "
            "Uncomplicated course; enoxaparin 40 mg daily in hospital, mobilized with physical "
            "therapy on day 1. Discharged on day 2 with aspirin 81 mg twice daily for 35 days "
            "as thromboprophylaxis (over the counter), acetaminophen, oxycodone as needed, "
            "home physical therapy."),
        "procedures": [
            {"code": "45378", "system": "cpt", "date": "-3y-2m", "performer": "gastroenterology",
             "outcome": "Normal colonoscopy to the cecum; repeat in 10 years."},
            {"code": "27447", "system": "cpt", "date": f"-{int(values['dvt_days']) + 21}d",
             "setting": "IMP", "outcome": "Right total knee arthroplasty, uncomplicated."},
        ],
        "risk_evidence": [
            _retrieved("DocumentReference", ["http://loinc.org|34111-5"], "ED note of the DVT"),
            {"any": {"of": [
                _retrieved("Procedure", ["http://www.ama-assn.org/go/cpt|27447"],
                           "knee arthroplasty procedure"),
                _retrieved("DocumentReference", ["http://loinc.org|18842-5"],
                           "arthroplasty discharge summary", ["arthroplasty"])]}},
        ],
        "classification": [{"note_finding": {
            "concept": ["provoked_vte"], "opposite": ["unprovoked_vte"],
            "label": "DVT provoked by surgery (major transient risk factor)"}}],
        "decision": [
            {"any": {"of": [
                {"note_decision": {"concept": ["anticoagulant"], "action": ["continue", "stop"],
                                   "opposite": ["avoid"],
                                   "timing": {"min": 84 - int(values["dvt_days"]),
                                              "max": 98 - int(values["dvt_days"]), "unit": "d"},
                                   "label": "complete the rest of 3 months, then stop"}},
                {"note_decision": {"concept": ["anticoagulant"], "action": ["continue", "stop"],
                                   "opposite": ["avoid"],
                                   "timing": {"min": 84, "max": 98, "unit": "d"},
                                   "timing_total": True,
                                   "label": "anticoagulation for 3 months in total"}},
            ]}},
            {"note_never": {"concept": ["extended_anticoagulation"],
                            "label": "no extended-phase anticoagulation"}},
            {"note_never": {"concept": ["aspirin"], "allow_contingency": True,
                            "label": "no aspirin for extended VTE prevention"}},
            {"note_never": {"concept": ["rivaroxaban", "dabigatran", "edoxaban", "warfarin",
                                        "enoxaparin"], "allow_contingency": True,
                            "label": "no other anticoagulant after the apixaban course"}},
            # The treatment-phase dose, even in a conditional plan ('if the D-dimer is
            # positive, restart apixaban 2.5 mg twice daily' fails), and a stop date, if
            # written, 3 months after the DVT.
            {"note_decision": {"concept": ["apixaban"], "action": ["continue", "start", "resume"],
                               "opposite": ["decrease"], "dose": {"value": 5, "unit": "mg"},
                               "every": {"min": 2, "max": 2}, "required": False,
                               "strict": True, "all_steps": True,
                               "label": "apixaban at the treatment dose, 5 mg twice daily"}},
            {"note_decision": {"concept": ["anticoagulant"], "action": ["continue", "stop"],
                               "opposite": [], "date_contradicts": True, "required": False,
                               "timing": {"min": 84 - int(values["dvt_days"]),
                                          "max": 98 - int(values["dvt_days"]), "unit": "d"},
                               "label": "a stop date 3 months after the DVT"}},
        ],
        "action": [
            "graders/hematology_vte.py:apixaban_to_three_months",
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": others,
                             "status": ["active", "draft", "on-hold"],
                             "label": "reduced-dose, extended or another anticoagulant"}},
        ],
        "decision_description": ("Complete 3 months of anticoagulation (apixaban 5 mg twice "
                                 "daily) and then stop; no extended-phase therapy (no "
                                 "reduced-dose apixaban, no aspirin in its place)."),
        "action_description": ("Prescribed apixaban 5 mg twice daily for the remaining "
                               f"{remaining} days only (ending 12-14 weeks after the DVT), and "
                               "no reduced-dose, extended or other anticoagulant."),
        "remaining_days": remaining,
        "stop_date": stop.date().isoformat(),
        "rx_code": APIXABAN_5,
        "rx_display": "apixaban 5 mg tablet",
        "rx_dose": 5,
        "rx_sig": (f"Take 1 tablet (5 mg) by mouth twice daily through {stop.date().isoformat()}"
                   ", then stop (3 months of treatment complete)."),
        "rx_days": remaining,
        "rx_quantity": 2 * remaining,
        "rx_refills": 0,
        "rx_reason": "Provoked DVT after knee arthroplasty - complete 3 months",
        "assessment_text": (
            "First proximal DVT provoked by a major transient risk factor - right total knee "
            "arthroplasty 3 weeks before the DVT. Recurrence risk after stopping is low "
            "(about 1% per year), so the treatment phase alone suffices."),
        "plan_text": (
            f"1. Continue apixaban 5 mg twice daily to complete 3 months of treatment, through "
            f"{stop.date().isoformat()}, then stop (prescription for the remaining {remaining} "
            "days entered, no refills).\n"
            "2. The DVT was provoked by surgery, so no extended-phase anticoagulation and no "
            "reduced-dose apixaban.\n"
            "3. No thrombophilia testing. Thromboprophylaxis for any future surgery or "
            "immobilization.\n"
            "4. Return for new leg swelling, chest pain or dyspnea."),
    }


def _only_anticoagulant(codes: list[str], per_day: int, label: str,
                        others: list[str]) -> dict[str, Any]:
    """An active order of one of ``codes`` on its schedule, and no order of any other
    anticoagulant (``others`` and the other DOAC's extended-phase products)."""
    rest = [c for c in (*others, APIXABAN_2_5, APIXABAN_5, RIVAROXABAN_10, RIVAROXABAN_20)
            if c not in codes]
    return {"all": {"of": [
        {"ordered": {"resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
                     "intent": ["order"], "per_day": {"min": per_day, "max": per_day},
                     "label": label}},
        {"not_ordered": {"resource_type": "MedicationRequest", "codes": rest,
                         "status": ["active", "draft", "on-hold"],
                         "label": "another anticoagulant"}}]}}


def _unprovoked(values: dict[str, Any], dvt: datetime) -> dict[str, Any]:
    others = [c for c in anticoagulant_codes()
              if c not in (APIXABAN_2_5, APIXABAN_5, RIVAROXABAN_10, RIVAROXABAN_20)]
    return {
        "category": "unprovoked",
        "ed_risk_text": ("No recent surgery, hospitalization, immobilization, long-distance "
                         "travel, leg trauma or hormone therapy; right knee arthroplasty was "
                         "offered but he deferred it (no surgery). No personal or family "
                         "history of VTE. Cancer screening up to date (colonoscopy 3 years "
                         "ago normal)."),
        "knee_note_type": "11506-3",
        "knee_note_title": "Knee osteoarthritis follow-up",
        "knee_note_text": (
            "Right knee osteoarthritis, seen by orthopedics last month: total knee "
            "arthroplasty was offered; he prefers to defer surgery for now. Corticosteroid "
            "injection to the right knee today. Continue ibuprofen as needed and home "
            "exercises; revisit arthroplasty next year."),
        "procedures": [
            {"code": "45378", "system": "cpt", "date": "-3y-2m", "performer": "gastroenterology",
             "outcome": "Normal colonoscopy to the cecum; repeat in 10 years."},
        ],
        "risk_evidence": [
            _retrieved("DocumentReference", ["http://loinc.org|34111-5"], "ED note of the DVT"),
        ],
        "classification": [
            {"note_finding": {"concept": ["unprovoked_vte"], "opposite": ["provoked_vte"],
                              "label": "unprovoked DVT"}},
            {"note_category": {"subject": ["bleeding_risk"], "category": ["level_low"],
                               "others": ["level_high", "level_intermediate"],
                               "label": "bleeding risk not high"}},
        ],
        "decision": [
            {"note_finding": {"concept": ["extended_anticoagulation"],
                              "label": "extended-phase anticoagulation"}},
            {"note_decision": {"concept": ["anticoagulant"],
                               "action": ["continue", "decrease", "start"],
                               "opposite": ["stop", "avoid"], "deferral_contradicts": True,
                               "label": "anticoagulation continued without a planned stop"}},
            {"any": {"of": [
                {"note_decision": {"concept": ["apixaban"], "action": ["continue", "decrease",
                                                                      "start", "switch"],
                                   "opposite": ["stop", "avoid"],
                                   "dose": {"min": 2.5, "max": 5, "unit": "mg"},
                                   "every": {"min": 2, "max": 2},
                                   "label": "apixaban 2.5 or 5 mg twice daily"}},
                {"note_decision": {"concept": ["rivaroxaban"], "action": ["continue", "decrease",
                                                                         "start", "switch"],
                                   "opposite": ["stop", "avoid"],
                                   "dose": {"min": 10, "max": 20, "unit": "mg"},
                                   "every": {"min": 1, "max": 1},
                                   "label": "rivaroxaban 10 or 20 mg once daily"}},
            ]}},
        ],
        "action": [
            # One DOAC at an extended-phase dose, and no other anticoagulant beside it.
            {"any": {"of": [
                _only_anticoagulant([APIXABAN_2_5, APIXABAN_5], 2,
                                    "apixaban 2.5 or 5 mg twice daily", others),
                _only_anticoagulant([RIVAROXABAN_10, RIVAROXABAN_20], 1,
                                    "rivaroxaban 10 or 20 mg once daily", others),
            ]}},
        ],
        "decision_description": ("Extended-phase anticoagulation with no planned stop date - "
                                 "reduced-dose apixaban 2.5 mg twice daily (or rivaroxaban 10 "
                                 "mg daily), or continued full dose (apixaban 5 mg twice daily "
                                 "or rivaroxaban 20 mg daily) - with the bleeding risk not "
                                 "high."),
        "action_description": ("Prescribed extended-phase anticoagulation - apixaban 2.5 mg "
                               "or 5 mg twice daily (or rivaroxaban 10 or 20 mg once daily) - "
                               "with no stop date, one anticoagulant only."),
        "remaining_days": 0,
        "stop_date": "",
        "rx_code": APIXABAN_2_5,
        "rx_display": "apixaban 2.5 mg tablet",
        "rx_dose": 2.5,
        "rx_sig": "Take 1 tablet (2.5 mg) by mouth twice daily. Long-term; do not stop without "
                  "talking to your doctor.",
        "rx_days": 90,
        "rx_quantity": 180,
        "rx_refills": 3,
        "rx_reason": "Unprovoked proximal DVT - extended-phase anticoagulation",
        "assessment_text": (
            "First unprovoked proximal DVT: no surgery, immobilization, trauma, travel or "
            "hormones, and no active cancer. Recurrence risk after stopping is high (about "
            "10% in the first year and 30-40% at 10 years). Bleeding risk is low (age under "
            "65, normal hemoglobin, platelets and renal function, no bleeding events, no "
            "antiplatelet or NSAID use, minimal alcohol)."),
        "plan_text": (
            "1. Extended-phase anticoagulation with no planned stop date: reduce apixaban to "
            "2.5 mg twice daily now that 6 months of full-dose treatment are complete "
            "(prescription entered).\n"
            "2. Review the bleeding risk, adherence and preferences every year.\n"
            "3. No thrombophilia testing and no extended occult cancer screening beyond "
            "age-appropriate screening.\n"
            "4. Avoid NSAIDs and antiplatelets while anticoagulated; acetaminophen for knee "
            "pain."),
    }


def vte_duration(values: dict[str, Any]) -> dict[str, Any]:
    """Everything that follows from the provocation: the chart, the expected plan and orders."""
    now: datetime = values["now"]
    provoked = bool(values["provoked"])
    dvt_days = (49 if provoked else 184) + int(values["days_offset"])
    values = {**values, "dvt_days": dvt_days}
    dvt = now - timedelta(days=dvt_days)
    tka = dvt - timedelta(days=21)
    derived = _provoked(values, dvt, tka) if provoked else _unprovoked(values, dvt)
    knee_offset = dvt_days + (19 if provoked else 70)
    labs = [_retrieved("Observation", [f"http://loinc.org|{code}"], label)
            for code, label in (("718-7", "hemoglobin"), ("777-3", "platelets"),
                                ("2160-0", "creatinine"))]
    derived["risk_evidence"] = derived["risk_evidence"] + labs
    derived.update({
        "knee_note_author": "primary_care" if provoked else "pcp",
        "message_text": _message(derived, provoked),
        "dvt_days": dvt_days,
        "dvt_offset": f"-{dvt_days}d",
        "switch_offset": f"-{dvt_days - 7}d",
        "followup_offset": f"-{dvt_days - 14}d",
        "knee_note_offset": f"-{knee_offset}d",
        "dvt_date": dvt.date().isoformat(),
        "weeks_on_treatment": dvt_days // 7,
        "dvt_window_start": (dvt + timedelta(days=STOP_WINDOW_DAYS[0])).date().isoformat(),
        "dvt_window_end": (dvt + timedelta(days=STOP_WINDOW_DAYS[1])).date().isoformat(),
        "hb_dx": round(float(values["hb"]) + 0.3, 1),
        "plt_dx": int(values["plt"]) + 18,
    })
    return derived


def _message(derived: dict[str, Any], provoked: bool) -> str:
    if provoked:
        return ("Hematology e-consult: the DVT was provoked by the knee arthroplasty. Continue "
                f"apixaban 5 mg twice daily through {derived['stop_date']} to complete 3 "
                "months, then stop; no extended anticoagulation. Prescription for the "
                "remaining days entered. Full note in the chart.")
    return ("Hematology e-consult: unprovoked DVT with a low bleeding risk. Extended "
            "anticoagulation with no planned stop date; apixaban reduced to 2.5 mg twice daily "
            "now (prescription entered). Please review yearly. Full note in the chart.")


def _days(quantity: dict[str, Any] | None) -> float | None:
    if not quantity or quantity.get("value") is None:
        return None
    unit = unit_normalize(str(quantity.get("code") or quantity.get("unit") or "d"))
    return float(quantity["value"]) * {"wk": 7.0, "mo": 30.0}.get(unit, 1.0)


STRENGTH_MG = {APIXABAN_5: 5.0, APIXABAN_2_5: 2.5, RIVAROXABAN_10: 10.0, RIVAROXABAN_20: 20.0}
TABLET_UNITS = ("tablet", "tablets", "tab", "tabs", "tbl")


def _is_tablet(unit: str) -> bool:
    """'tablet', 'tabs', UCUM '{tablet}' or '{tbl}'."""
    return unit_normalize(unit).strip("{}") in TABLET_UNITS


def _strength(resource: dict[str, Any]) -> float | None:
    concept = resource.get("medicationCodeableConcept") or {}
    codes = [str(c.get("code")) for c in concept.get("coding", []) or []]
    return next((STRENGTH_MG[c] for c in codes if c in STRENGTH_MG), None)


def _quantity_days(resource: dict[str, Any]) -> float | None:
    """Days a dispensed quantity of tablets lasts at the ordered dose and frequency."""
    quantity = (resource.get("dispenseRequest") or {}).get("quantity") or {}
    unit = str(quantity.get("code") or quantity.get("unit") or "tablet")
    mg, strength, per_day = _mg(resource), _strength(resource), frequency_per_day(resource)
    if quantity.get("value") is None or not _is_tablet(unit) or not (
            mg and strength and per_day):
        return None
    return float(quantity["value"]) / (mg / strength * per_day)


def _covered_days(resource: dict[str, Any]) -> float | None:
    """Days of therapy the order authorizes, refills included (None when open-ended).

    A duration, a supply or a quantity of tablets bounds the order; each refill repeats the
    supply, so a refill on a course meant to end is more anticoagulation than planned.
    """
    bounds = [_days((i.get("timing") or {}).get("repeat", {}).get("boundsDuration"))
              for i in resource.get("dosageInstruction", []) or []]
    dispense = resource.get("dispenseRequest") or {}
    supply = _days(dispense.get("expectedSupplyDuration"))
    if supply is None:
        supply = _quantity_days(resource)
    refills = int(dispense.get("numberOfRepeatsAllowed") or 0)
    found = [d for d in bounds if d is not None]
    if supply is not None:
        found.append(supply * (1 + refills))
    return max(found) if found else None


def _mg(resource: dict[str, Any]) -> float | None:
    found = dose(resource)
    if found is None:
        return None
    value, unit = found
    if unit_normalize(unit) == "mg":
        return value
    if _is_tablet(unit):
        strength = _strength(resource)
        return value * strength if strength else None
    return None


def _completion_problems(resource: dict[str, Any], now: datetime, low: date,
                         high: date) -> list[str]:
    """Why an apixaban 5 mg order is not the rest of a 3-month course (empty when it is)."""
    problems = []
    if resource.get("status") != "active" or resource.get("intent") != "order":
        problems.append(f"status {resource.get('status')}/{resource.get('intent')}")
    if _mg(resource) != 5.0:
        problems.append(f"dose {dose(resource)}")
    if frequency_per_day(resource) != 2.0:
        problems.append(f"{frequency_per_day(resource)} times/day")
    days = _covered_days(resource)
    if days is None:
        problems.append("no end date (open-ended)")
    else:
        end = (now + timedelta(days=days)).date()
        if not low <= end <= high:
            problems.append(f"ends {end.isoformat()} (expected {low} to {high})")
    return problems


@triggered_by(WRITE)
def apixaban_to_three_months(ctx: GradingContext) -> CheckpointResult:
    """Prescribed apixaban 5 mg twice daily for a bounded course that ends 12-14 weeks after
    the DVT (duration, supply or tablet count, refills included), i.e. the rest of the 3-month
    treatment phase - and no other active apixaban 5 mg order that runs on past it."""
    now: datetime = ctx.values["now"]
    low = datetime.fromisoformat(str(ctx.values["dvt_window_start"])).date()
    high = datetime.fromisoformat(str(ctx.values["dvt_window_end"])).date()
    written = [r for r in ctx.written("MedicationRequest")
               if patient_id(r) == ctx.patient_id and matches_code(r, [APIXABAN_5])
               and r.get("status") in ("active", "draft", "on-hold")]
    if not written:
        return CheckpointResult(False, "no apixaban 5 mg prescription written")
    problems = [_completion_problems(r, now, low, high) for r in written]
    if not any(not p for p in problems):
        return CheckpointResult(False, "apixaban order not a 3-month completion: "
                                       + ", ".join(problems[0]))
    if any(problems):
        extra = next(p for p in problems if p)
        return CheckpointResult(False, "another apixaban 5 mg order is not part of a 3-month "
                                       f"course: {', '.join(extra)}")
    return CheckpointResult(True, "apixaban 5 mg twice daily to complete 3 months")
