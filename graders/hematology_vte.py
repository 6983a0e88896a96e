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

import re
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.notes import NoteDecisionArgs, note_decision
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
_AC = r"(?:apixaban|eliquis|rivaroxaban|xarelto|anticoagula\w*|doac|ac)"
# Holding the anticoagulant around a procedure is not stopping the treatment.
_PERIOP = (r"(?![^;]{0,40}\b(?:before|prior to|ahead of|around|for)\s+(?:\w+\s+){0,2}"
           r"(?:surgery|surgeries|procedures?|operations?|dental|colonoscopy|endoscopy|"
           r"arthroplasty|tka)\b)")
# Stopping the anticoagulant itself - not 'stop ibuprofen while on apixaban', which is advice
# an extended-phase plan may well carry.
STOP_ANTICOAGULANT = [
    rf"re:\b{STOP_WORDS}\s+(?:the\s+|his\s+|all\s+|full[- ]dose\s+)?{_AC}\b{_PERIOP}",
    rf"re:\b{_AC}\b(?:\s+\S+){{0,4}}?\s+(?:be\s+|been\s+)?"
    rf"(?:stopped|discontinued|ceased)\b{_PERIOP}",
    rf"re:\b{STOP_WORDS}(?=\s*(?:$|(?:it|them|after|at|in|once|when|now|today|then|"
    rf"thereafter|afterwards)\b)){_PERIOP}",
]
# Reduced doses at the wrong frequency: apixaban 2.5 mg is twice daily, rivaroxaban 10 mg daily.
_BY_MOUTH = r"(?:(?:po|orally|by mouth|tab(?:let)?s?)\s+)?"
ONCE_DAILY_2_5 = (rf"re:(?<![\d.])2\.5\s*mg\s+{_BY_MOUTH}(?:once\s+(?:a\s+)?daily|daily|qd|"
                  r"q24h|once a day|every day|each day|nightly|qhs)\b")
TWICE_DAILY_10 = (rf"re:(?<![\d.])10\s*mg\s+{_BY_MOUTH}(?:twice\s+(?:a\s+)?daily|bid|b\.i\.d|"
                  r"q12h|twice a day|every 12 hours)\b")
# 'five more weeks' and 'a 12-week course' are durations too.
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
                 "fourteen": 14, "ninety": 90}
_NUMBER_WORD = re.compile(
    rf"\b({'|'.join(_NUMBER_WORDS)})(?=[\s-]+(?:(?:more|additional|further|extra)\s+)?"
    r"(?:days?|weeks?|wks?|months?|mos?)\b)", re.IGNORECASE)
_HYPHENATED_UNIT = re.compile(r"(\d)-(?=(?:days?|weeks?|wks?|months?|mos?)\b)", re.IGNORECASE)
# '5 more weeks' -> 'more 5 weeks', so the number keeps its unit.
_NUMBER_MORE = re.compile(r"\b(\d+)\s+(more|additional|further|extra)\s+(?=(?:days?|weeks?|wks?|"
                          r"months?|mos?)\b)", re.IGNORECASE)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|{may}june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DATE_FORMS = (
    re.compile(r"\b(?P<y>20\d\d)-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"),
    re.compile(r"(?<![\d/.])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>(?:20)?\d\d))?(?![\d/])"),
    re.compile(rf"\b(?P<mon>{_MONTH.format(may='may|')})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?"
               r"(?:,?\s+(?P<y>20\d\d))?\b", re.IGNORECASE),
    # day first; not '5 may', which is more often 'apixaban 2.5 may be ...' than a date
    re.compile(rf"(?<![\d.])\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mon>{_MONTH.format(may='')})"
               r"(?![a-z])(?:,?\s+(?P<y>20\d\d))?", re.IGNORECASE),
)


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
                       "post-operative", "post-op", "postop", "postsurgical", "post-surgical",
                       "surgery-related", "surgery-associated", "major transient risk factor",
                       "transient risk factor", "transient provoking factor",
                       r"re:\b(?:after|following|secondary to|due to|related to|associated "
                       r"with|in the setting of|caused by|triggered by)\s+(?:(?:the|his|a|an|"
                       r"recent|right|r|elective|orthopedic)\s+)*(?:total knee|tka|knee "
                       r"replacement|knee arthroplasty|arthroplasty|surgery|operation)"],
            "opposite": ["unprovoked", "idiopathic", "no provoking factor",
                         "no identifiable risk factor", "without a provoking",
                         "without an identifiable", "persistent risk factor"],
            "label": "DVT provoked by surgery (major transient risk factor)"}}],
        "decision": ["graders/hematology_vte.py:three_month_stop"],
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
            {"note_decision": {
                "subject": ["DVT", "VTE", "thrombosis", "thromboembolism", "clot", "event",
                            "deep vein thrombosis", "deep venous thrombosis"],
                "action": ["unprovoked", "idiopathic", "no provoking factor",
                           "no identifiable provoking", "no transient risk factor",
                           "no identifiable risk factor", "without a provoking",
                           "without an identifiable", "no major transient", "not provoked",
                           "no clear provoking",
                           r"re:\bno\s+(?:(?:identifiable|identified|clear|obvious|apparent|"
                           r"major|transient|reversible)\s+)*(?:provoking|precipitating|"
                           r"inciting|triggering|risk)\s+(?:factors?|causes?|events?)\b",
                           r"re:\bno\s+(?:(?:identifiable|identified|clear|obvious|"
                           r"apparent)\s+)+(?:cause|trigger)\b"],
                "opposite": ["provoked", "surgery-provoked", "postoperative", "post-operative",
                             "major transient risk factor", r"re:\bprovoked by\b"],
                "label": "unprovoked DVT"}},
            bleeding,
        ],
        "decision": [
            {"note_decision": {
                "subject": SUBJECT,
                "action": EXTENDED_WORDS,
                "opposite": [*STOP_ANTICOAGULANT, "3 months total", "time-limited"],
                "label": "extended-phase anticoagulation without a planned stop"}},
            {"any": {"of": [
                {"note_decision": {
                    "subject": ["apixaban", "Eliquis"],
                    "action": ["reduce", "decrease", "lower", "switch", "change", "step down",
                               "de-escalate", "reduced", "continue", "start", "extended",
                               "twice daily", "bid", "2.5 mg"],
                    "opposite": [r"re:\b(?:continue|remain on|stay on|keep)\b[^;,]{0,30}"
                                 r"(?<!from\s)(?<![\d.])5\s*mg\b",
                                 r"re:(?<![\d.])10\s*mg\s+(?:bid|twice)", ONCE_DAILY_2_5],
                    "value": {"value": 2.5, "tolerance": 0, "units": {"mg": 1}},
                    "label": "apixaban 2.5 mg twice daily"}},
                {"note_decision": {
                    "subject": ["rivaroxaban", "Xarelto"],
                    "action": ["reduce", "decrease", "lower", "switch", "change", "start",
                               "continue", "extended", "daily", "once daily", "10 mg"],
                    "opposite": [r"re:\b(?:15|20)\s*mg\b", TWICE_DAILY_10],
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


def _stop_plans(values: dict[str, Any]) -> tuple[NoteDecisionArgs, NoteDecisionArgs]:
    """The two ways a note states the end of the 3-month course: the total (3 months, 12-14
    weeks, 90 days - or a stop date, read as days since the DVT) or the time still to go
    ('another 5 weeks, then stop')."""
    more = r"(?:another|more|additional|further|remaining|extra)"
    common = {
        "subject": SUBJECT,
        "opposite": [*EXTENDED_WORDS, "reduced dose", "reduced-dose", "2.5 mg",
                     r"re:\b6\s*months?\b",
                     # 3 months or more still to go, after 7-9 weeks, is not a 3-month course
                     rf"re:\b{more}\s+(?:(?:[3-9]|1[0-2])\s*(?:months?|mos?)|"
                     r"(?:1[2-9]|[2-9]\d)\s*(?:weeks?|wks?))\b",
                     r"re:\b(?:reassess|re-assess|re-evaluate|reevaluate|revisit)\w*"],
        "label": "stop anticoagulation after 3 months in total",
    }
    total = NoteDecisionArgs.model_validate({
        **common,
        "action": [rf"re:\b{STOP_WORDS}\b", "no extended", "no further anticoagulation",
                   r"re:\b(?:no|not)\s+(?:need\s+(?:for|to)\s+)?(?:extend\w*|"
                   r"continu\w*\s+(?:beyond|past|after)|indefinite\w*|long[- ]term)\b",
                   "complete", "course", "total", "duration", "time-limited", "finish"],
        "value": {"value": 3, "tolerance": 0.26,
                  "units": {"mo": 1, "wk": 0.230769, "d": 0.032877}}})
    remaining = NoteDecisionArgs.model_validate({
        **common,
        "action": [rf"re:\b{more}\b(?=.*\b{STOP_WORDS}\b)|\b{STOP_WORDS}\b(?=.*\b{more}\b)"],
        "value": {"value": float(values["remaining_days"]), "tolerance": 7,
                  "units": {"d": 1, "wk": 7, "mo": 30.44}}})
    return total, remaining


def _date_of(match: re.Match[str], now: date) -> date | None:
    """The date a matched date expression names; a date without a year is the next one."""
    parts = match.groupdict()
    month = (_MONTHS.index(parts["mon"][:3].lower()) + 1 if parts.get("mon")
             else int(parts["m"]))
    year = parts.get("y")
    try:
        if year:
            return date(int(year) + (2000 if len(year) == 2 else 0), month, int(parts["d"]))
        found = date(now.year, month, int(parts["d"]))
    except ValueError:
        return None
    return found.replace(year=now.year + 1) if found < now - timedelta(days=60) else found


def _durations_as_numbers(note: str, dvt: date, now: date) -> str:
    """The note with number words and hyphenated units as digits ('three months' -> '3
    months', '12-week' -> '12 week') and each future date as days since the DVT ('through
    2026-06-17' -> 'through 91 days'), so a plan stated either way is read as a duration."""
    text = _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS[m.group(1).lower()]), note)
    text = _HYPHENATED_UNIT.sub(r"\1 ", text)
    text = _NUMBER_MORE.sub(r"\2 \1 ", text)

    def as_days(match: re.Match[str]) -> str:
        found = _date_of(match, now)
        if found is None or found < now:
            return match.group(0)
        return f"{(found - dvt).days} days"

    for form in _DATE_FORMS:
        text = form.sub(as_days, text)
    return text


@triggered_by(FILE)
def three_month_stop(ctx: GradingContext) -> CheckpointResult:
    """The note plainly plans to stop anticoagulation when 3 months are complete (as a total,
    a stop date, or the weeks still to go) and never plans extended or reduced-dose therapy."""
    note = ctx.note()
    if note is None:
        return CheckpointResult(False, "no note")
    now: datetime = ctx.values["now"]
    dvt = date.fromisoformat(str(ctx.values["dvt_date"]))
    read = replace(ctx, files={**ctx.files,
                               ctx.note_path: _durations_as_numbers(note, dvt, now.date())})
    total, remaining = _stop_plans(dict(ctx.values))
    first = note_decision(read, total)
    if first.passed or first.reason.startswith("contradicts"):
        return first
    second = note_decision(read, remaining)
    return second if second.passed else first


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
