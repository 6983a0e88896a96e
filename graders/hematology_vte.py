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
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import dose, frequency_per_day, matches_code, patient_id
from physbench_gym.grading.text import unit_normalize
from physbench_gym.synth import terminology

APIXABAN_5, APIXABAN_2_5 = "1364445", "1364435"
RIVAROXABAN_10, RIVAROXABAN_20 = "1114198", "1232086"
ANTICOAGULANT_CLASSES = ("direct oral anticoagulant", "vitamin K antagonist",
                         "low molecular weight heparin")
TREATMENT_DAYS = 91  # the 3-month treatment phase
STOP_WINDOW_DAYS = (84, 98)  # an order may end 12-14 weeks after the diagnosis
SUBJECT = ["apixaban", "Eliquis", "rivaroxaban", "Xarelto", "anticoagulation", "anticoagulant",
           "anticoagulants", "anticoagulate", "anticoagulated", "DOAC", "AC"]
STOP_WORDS = r"(?:stop|stopped|stopping|discontinue|discontinued|discontinuing|cease|d/c)"
EXTENDED_WORDS = ["extended", "extend", "indefinite", "indefinitely", "long-term", "long term",
                  "lifelong", "life-long", "no stop date", "no planned stop",
                  "no scheduled stop", "without a stop date", "open-ended"]


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
        "classification": [{"note_decision": {
            "subject": ["DVT", "VTE", "thrombosis", "thromboembolism", "clot", "event",
                        "deep vein thrombosis", "deep venous thrombosis"],
            "action": ["provoked", "surgery-provoked", "surgically provoked", "postoperative",
                       "post-operative", "post-op", "postop", "major transient risk factor",
                       "transient risk factor", "transient provoking factor",
                       r"re:\bafter (?:the |his |a |right )*(?:total knee|tka|knee "
                       r"replacement|knee arthroplasty|surgery)"],
            "opposite": ["unprovoked", "idiopathic", "no provoking factor",
                         "no identifiable risk factor", "without a provoking",
                         "without an identifiable", "persistent risk factor"],
            "label": "DVT provoked by surgery (major transient risk factor)"}}],
        "decision": [
            {"note_decision": {
                "subject": SUBJECT,
                "action": [rf"re:\b{STOP_WORDS}\b", "no extended", "no further anticoagulation",
                           r"re:\b(?:no|not)\s+(?:need\s+(?:for|to)\s+)?(?:extend\w*|"
                           r"continu\w*\s+(?:beyond|past|after)|indefinite\w*|long[- ]term)\b"],
                "opposite": [*EXTENDED_WORDS, "reduced dose", "reduced-dose", "2.5 mg",
                             r"re:\b(?:6|six)\s*months?\b"],
                "value": {"value": 3, "tolerance": 0.26,
                          "units": {"mo": 1, "wk": 0.230769, "d": 0.032877}},
                "label": "stop anticoagulation after 3 months in total"}},
        ],
        "action": [
            "graders/hematology_vte.py:apixaban_to_three_months",
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": others,
                             "status": ["active", "draft", "on-hold"],
                             "label": "reduced-dose, extended or another anticoagulant"}},
        ],
        "decision_description": ("Complete 3 months of anticoagulation (apixaban 5 mg twice "
                                 "daily) and then stop; no extended-phase therapy."),
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


def _unprovoked(values: dict[str, Any], dvt: datetime) -> dict[str, Any]:
    others = [c for c in anticoagulant_codes() if c not in (APIXABAN_2_5, RIVAROXABAN_10)]
    bleeding = {"note_decision": {
        "subject": ["bleeding risk", "risk of bleeding", "bleeding", "hemorrhage risk",
                    "haemorrhage risk", "HAS-BLED", "VTE-BLEED"],
        "action": ["low", "not high", "acceptable", "favorable", "favourable",
                   r"re:\b(?:no|without)\s+(?:major\s+)?(?:bleeding\s+)?risk factors?\b"],
        "opposite": ["high bleeding risk", "high risk of bleeding", "bleeding risk is high",
                     "bleeding risk high", "elevated bleeding risk", "bleeding risk is elevated"],
        "label": "bleeding risk not high"}}
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
            "injection to the right knee today. Continue acetaminophen and home exercises; "
            "revisit arthroplasty next year."),
        "procedures": [
            {"code": "45378", "system": "cpt", "date": "-3y-2m", "performer": "gastroenterology",
             "outcome": "Normal colonoscopy to the cecum; repeat in 10 years."},
        ],
        "risk_evidence": [
            _retrieved("DocumentReference", ["http://loinc.org|34111-5"], "ED note of the DVT"),
        ],
        "classification": [
            {"note_decision": {
                "subject": ["DVT", "VTE", "thrombosis", "thromboembolism", "clot", "event",
                            "deep vein thrombosis", "deep venous thrombosis"],
                "action": ["unprovoked", "idiopathic", "no provoking factor",
                           "no identifiable provoking", "no transient risk factor",
                           "no identifiable risk factor", "without a provoking",
                           "without an identifiable", "no major transient", "not provoked",
                           "no clear provoking"],
                "opposite": ["provoked", "surgery-provoked", "postoperative", "post-operative",
                             "major transient risk factor", r"re:\bprovoked by\b"],
                "label": "unprovoked DVT"}},
            bleeding,
        ],
        "decision": [
            {"note_decision": {
                "subject": SUBJECT,
                "action": EXTENDED_WORDS,
                "opposite": [rf"re:\b{STOP_WORDS}\b", "3 months total", "time-limited"],
                "label": "extended-phase anticoagulation without a planned stop"}},
            {"any": {"of": [
                {"note_decision": {
                    "subject": ["apixaban", "Eliquis"],
                    "action": ["reduce", "decrease", "lower", "switch", "change", "step down",
                               "de-escalate", "reduced", "continue", "start", "extended",
                               "twice daily", "bid", "2.5 mg"],
                    "opposite": [r"re:\b(?:continue|remain on|stay on|keep)\b[^;,]{0,30}"
                                 r"(?<![\d.])5\s*mg\b", r"re:(?<![\d.])10\s*mg\s+(?:bid|twice)"],
                    "value": {"value": 2.5, "tolerance": 0, "units": {"mg": 1}},
                    "label": "apixaban 2.5 mg twice daily"}},
                {"note_decision": {
                    "subject": ["rivaroxaban", "Xarelto"],
                    "action": ["reduce", "decrease", "lower", "switch", "change", "start",
                               "continue", "extended", "daily", "once daily", "10 mg"],
                    "opposite": [r"re:\b(?:15|20)\s*mg\b"],
                    "value": {"value": 10, "tolerance": 0, "units": {"mg": 1}},
                    "label": "rivaroxaban 10 mg once daily"}},
            ]}},
        ],
        "action": [
            {"any": {"of": [
                {"ordered": {"resource_type": "MedicationRequest", "codes": [APIXABAN_2_5],
                             "status": ["active"], "intent": ["order"],
                             "per_day": {"min": 2, "max": 2},
                             "label": "apixaban 2.5 mg twice daily"}},
                {"ordered": {"resource_type": "MedicationRequest", "codes": [RIVAROXABAN_10],
                             "status": ["active"], "intent": ["order"],
                             "per_day": {"min": 1, "max": 1},
                             "label": "rivaroxaban 10 mg once daily"}},
            ]}},
            "graders/hematology_vte.py:reduced_dose_amount",
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": others,
                             "status": ["active", "draft", "on-hold"],
                             "label": "full-dose or another anticoagulant"}},
        ],
        "decision_description": ("Extended-phase anticoagulation with no planned stop date, "
                                 "reduced-dose apixaban 2.5 mg twice daily (or rivaroxaban 10 "
                                 "mg daily), bleeding risk not high."),
        "action_description": ("Prescribed reduced-dose apixaban 2.5 mg twice daily (or "
                               "rivaroxaban 10 mg once daily) for extended therapy, and no "
                               "full-dose or other anticoagulant."),
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
    dvt_days = (49 if provoked else 175) + int(values["days_offset"])
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


def _covered_days(resource: dict[str, Any]) -> float | None:
    """Days of therapy the order covers, refills included (None when open-ended)."""
    found = [_days((i.get("timing") or {}).get("repeat", {}).get("boundsDuration"))
             for i in resource.get("dosageInstruction", []) or []]
    dispense = resource.get("dispenseRequest") or {}
    supply = _days(dispense.get("expectedSupplyDuration"))
    refills = int(dispense.get("numberOfRepeatsAllowed") or 0)
    bounded = [d for d in found if d is not None]
    if bounded:
        return max(bounded)
    if supply is not None:
        return supply * (1 + refills)
    return None


def _mg(resource: dict[str, Any]) -> float | None:
    found = dose(resource)
    if found is None:
        return None
    value, unit = found
    unit = unit_normalize(unit)
    if unit == "mg":
        return value
    if unit in ("tablet", "tablets", "tab", "tabs", "{tbl}"):
        concept = resource.get("medicationCodeableConcept") or {}
        code = next((str(c.get("code")) for c in concept.get("coding", []) or []), "")
        strength = {APIXABAN_5: 5.0, APIXABAN_2_5: 2.5, RIVAROXABAN_10: 10.0,
                    RIVAROXABAN_20: 20.0}.get(code)
        return value * strength if strength else None
    return None


@triggered_by(WRITE)
def apixaban_to_three_months(ctx: GradingContext) -> CheckpointResult:
    """Prescribed apixaban 5 mg twice daily for a bounded course that ends 12-14 weeks after
    the DVT (duration or supply with refills), i.e. the rest of the 3-month treatment phase."""
    now: datetime = ctx.values["now"]
    low = datetime.fromisoformat(str(ctx.values["dvt_window_start"])).date()
    high = datetime.fromisoformat(str(ctx.values["dvt_window_end"])).date()
    written = [r for r in ctx.written("MedicationRequest")
               if patient_id(r) == ctx.patient_id and matches_code(r, [APIXABAN_5])]
    if not written:
        return CheckpointResult(False, "no apixaban 5 mg prescription written")
    reasons = []
    for resource in written:
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
        if not problems:
            return CheckpointResult(True, "apixaban 5 mg twice daily to complete 3 months")
        reasons.append(", ".join(problems))
    return CheckpointResult(False, f"apixaban order not a 3-month completion: {reasons[0]}")


@triggered_by(WRITE)
def reduced_dose_amount(ctx: GradingContext) -> CheckpointResult:
    """The reduced-dose order is 2.5 mg (apixaban) or 10 mg (rivaroxaban) per dose."""
    wanted = {APIXABAN_2_5: 2.5, RIVAROXABAN_10: 10.0}
    written = [r for r in ctx.written("MedicationRequest") if patient_id(r) == ctx.patient_id]
    for resource in written:
        for code, mg in wanted.items():
            if matches_code(resource, [code]) and _mg(resource) == mg:
                return CheckpointResult(True, f"reduced dose {mg:g} mg per dose")
    return CheckpointResult(False, "no reduced-dose order at 2.5 mg (apixaban) or 10 mg "
                                   "(rivaroxaban) per dose")
