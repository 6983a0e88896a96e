"""How long to anticoagulate after a first proximal DVT: provoked by surgery or unprovoked.

CHEST 2021 (Stevens et al.) and ASH 2020 (Ortel et al.): a VTE provoked by a major transient
risk factor (surgery) gets a 3-month treatment phase and then stops; an unprovoked VTE with a
bleeding risk that is not high gets extended-phase anticoagulation with no planned stop date,
preferably reduced-dose apixaban 2.5 mg twice daily or rivaroxaban 10 mg daily after the first
6 months (AMPLIFY-EXT, EINSTEIN-CHOICE; apixaban and rivaroxaban labels).

The variant draws the provocation. Provoked: the DVT came 3 weeks after a total knee
arthroplasty, and the phase of treatment at the consult sets the plan:
- initiation (days 4-6, still on apixaban 10 mg twice daily): finish the 10 mg doses to day
  7, then 5 mg twice daily to the 3-month mark, then stop - the prescription is the 5 mg
  course of 12 weeks;
- maintenance (7-9 weeks, the canonical instance): apixaban 5 mg twice daily for the rest of
  the 3 months, then stop;
- complete (13-14 weeks): the 3-month treatment phase is over - stop now, no new
  prescription, no extended phase.
Unprovoked: the same knee was only considered for surgery (deferred), the consult is ~6
months into treatment, and the expected prescription is apixaban 2.5 mg twice daily (or
rivaroxaban 10 mg daily) without an end date.

A physician states the end of a 3-month course as a total ('3 months', 'a 12-week course'),
as the time still to go ('5 more weeks, then stop') or as a stop date, so the provoked plan is
read all three ways; an order ends the course by its duration, supply or tablet count, with
its refills, or earlier by a stop date it states (sig 'through <date>, then stop', the timing's
boundsPeriod.end or the dispense validityPeriod.end).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.notes import read_in_context
from physbench_gym.grading.quantities import convert, unit_normalize
from physbench_gym.grading.reader import (
    CONDITIONAL,
    COUNTERFACTUAL,
    FAMILY,
    HISTORICAL,
)
from physbench_gym.grading.resources import dose, frequency_per_day, matches_code, patient_id
from physbench_gym.synth import terminology

APIXABAN_5, APIXABAN_2_5 = "1364445", "1364435"
RIVAROXABAN_10, RIVAROXABAN_20 = "1114198", "1232086"
ANTICOAGULANT_CLASSES = ("direct oral anticoagulant", "vitamin K antagonist",
                         "low molecular weight heparin")
TREATMENT_DAYS = 91  # the 3-month treatment phase
LOADING_DAYS = 7  # apixaban 10 mg twice daily for the first 7 days (ELIQUIS label 2.1)
STOP_NOW_DAYS = 14  # at the 3-month decision point the course ends within 2 weeks
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
    """The surgically provoked DVT: what the chart says about the surgery, and the plan of the
    consult's phase of treatment (initiation, maintenance or the 3-month decision point)."""
    dvt_days = int(values["dvt_days"])
    phase = str(values["phase"])
    derived = {
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
            {"code": "27447", "system": "cpt", "date": f"-{dvt_days + 21}d",
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
    }
    if phase == "complete":
        derived.update(_provoked_complete(values, dvt))
    else:
        derived.update(_provoked_course(values, dvt, tka, phase == "initiation"))
    return derived


def _no_extension() -> list[dict[str, Any]]:
    """After a surgically provoked DVT: no extended phase, no aspirin or other anticoagulant
    in its place."""
    return [
        {"note_never": {"concept": ["extended_anticoagulation"],
                        "label": "no extended-phase anticoagulation"}},
        {"note_never": {"concept": ["aspirin"], "allow_contingency": True,
                        "label": "no aspirin for extended VTE prevention"}},
        {"note_never": {"concept": ["rivaroxaban", "dabigatran", "edoxaban", "warfarin",
                                    "enoxaparin"], "allow_contingency": True,
                        "label": "no other anticoagulant after the apixaban course"}},
    ]


def _provoked_course(values: dict[str, Any], dvt: datetime, tka: datetime,
                     initiation: bool) -> dict[str, Any]:
    """Consult before the 3-month mark: apixaban to complete 3 months, then stop. In the
    initiation phase (days 1-7) the 10 mg twice-daily doses run to day 7 first, and the
    prescription is the 5 mg twice-daily course that follows them (12 weeks)."""
    dvt_days = int(values["dvt_days"])
    remaining = TREATMENT_DAYS - dvt_days
    stop = dvt + timedelta(days=TREATMENT_DAYS)
    loading_end = (dvt + timedelta(days=LOADING_DAYS - 1)).date().isoformat()
    maintenance_start = (dvt + timedelta(days=LOADING_DAYS)).date().isoformat()
    others = [c for c in anticoagulant_codes() if c != APIXABAN_5]
    rx_days = TREATMENT_DAYS - LOADING_DAYS if initiation else remaining
    # The treatment-phase dose, even in a conditional plan ('if the D-dimer is positive,
    # restart apixaban 2.5 mg twice daily' fails): 5 mg twice daily, and during the initiation
    # phase the 10 mg twice-daily doses that finish it.
    dose = {"min": 5, "max": 10, "unit": "mg"} if initiation else {"value": 5, "unit": "mg"}
    dose_label = ("apixaban at the treatment doses only (10 mg twice daily to day 7, then 5 mg "
                  "twice daily)" if initiation else "apixaban at the treatment dose, 5 mg twice "
                  "daily")
    derived: dict[str, Any] = {
        "decision": [
            {"any": {"of": [
                {"note_decision": {"concept": ["anticoagulant"], "action": ["continue", "stop"],
                                   "opposite": ["avoid"],
                                   "timing": {"min": 84 - dvt_days, "max": 98 - dvt_days,
                                              "unit": "d"},
                                   "label": "complete the rest of 3 months, then stop"}},
                {"note_decision": {"concept": ["anticoagulant"], "action": ["continue", "stop"],
                                   "opposite": ["avoid"],
                                   "timing": {"min": 84, "max": 98, "unit": "d"},
                                   "timing_total": True,
                                   "label": "anticoagulation for 3 months in total"}},
            ]}},
            *_no_extension(),
            {"note_decision": {"concept": ["apixaban"], "action": ["continue", "start", "resume"],
                               "opposite": ["decrease"], "dose": dose,
                               "every": {"min": 2, "max": 2}, "required": False,
                               "strict": True, "all_steps": True, "label": dose_label}},
            # a stop date, if written, 3 months after the DVT (during the initiation phase,
            # dates and times of the 10 mg doses within the first week too)
            "graders/hematology_vte.py:initiation_course_times" if initiation else
            {"note_decision": {"concept": ["anticoagulant"], "action": ["continue", "stop"],
                               "opposite": [], "date_contradicts": True, "required": False,
                               "timing": {"min": 84 - dvt_days, "max": 98 - dvt_days,
                                          "unit": "d"},
                               "label": "a stop date 3 months after the DVT"}},
        ],
        "action": [
            "graders/hematology_vte.py:apixaban_to_three_months",
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": others,
                             "status": ["active", "draft", "on-hold"],
                             "label": "reduced-dose, extended or another anticoagulant"}},
        ],
        "remaining_days": remaining,
        "stop_date": stop.date().isoformat(),
        "loading_end": loading_end,
        "rx_code": APIXABAN_5,
        "rx_display": "apixaban 5 mg tablet",
        "rx_dose": 5,
        "rx_days": rx_days,
        "rx_quantity": 2 * rx_days,
        "rx_refills": 0,
        "rx_reason": "Provoked DVT after knee arthroplasty - complete 3 months",
    }
    if not initiation:
        derived.update({
            "decision_description": ("Complete 3 months of anticoagulation (apixaban 5 mg twice "
                                     "daily) and then stop; no extended-phase therapy (no "
                                     "reduced-dose apixaban, no aspirin in its place)."),
            "action_description": ("Prescribed apixaban 5 mg twice daily for the remaining "
                                   f"{remaining} days only (ending 12-14 weeks after the DVT), "
                                   "and no reduced-dose, extended or other anticoagulant."),
            "rx_sig": (f"Take 1 tablet (5 mg) by mouth twice daily through "
                       f"{stop.date().isoformat()}, then stop (3 months of treatment complete)."),
            "assessment_text": (
                "First proximal DVT provoked by a major transient risk factor - right total "
                "knee arthroplasty 3 weeks before the DVT. Recurrence risk after stopping is low "
                "(about 1% per year), so the treatment phase alone suffices."),
            "plan_text": (
                f"1. Continue apixaban 5 mg twice daily to complete 3 months of treatment, "
                f"through {stop.date().isoformat()}, then stop (prescription for the remaining "
                f"{remaining} days entered, no refills).\n"
                + _PROVOKED_PLAN_REST),
        })
        return derived
    derived.update({
        "decision_description": ("Finish the 7-day initiation phase of apixaban 10 mg twice "
                                 "daily, then 5 mg twice daily to complete 3 months, and then "
                                 "stop; no extended-phase therapy (no reduced-dose apixaban, no "
                                 "aspirin in its place)."),
        "action_description": ("Prescribed apixaban 5 mg twice daily to follow the 10 mg "
                               "initiation phase, for a course ending 12-14 weeks after the DVT "
                               "(no open-ended supply or refills), and no reduced-dose, "
                               "extended or other anticoagulant."),
        "rx_sig": (f"Finish the 10 mg twice-daily doses through {loading_end} (ED supply). "
                   f"From {maintenance_start}, take 1 tablet (5 mg) by mouth twice daily through "
                   f"{stop.date().isoformat()}, then stop (3 months of treatment complete)."),
        "assessment_text": (
            "First proximal DVT provoked by a major transient risk factor - right total knee "
            "arthroplasty 3 weeks before the DVT. Recurrence risk after stopping is low (about "
            f"1% per year), so the treatment phase alone suffices. He is on day {dvt_days + 1} "
            "of apixaban, still in the 7-day initiation phase of 10 mg twice daily."),
        "plan_text": (
            f"1. Finish the 7 days of apixaban 10 mg twice daily (through {loading_end}), then "
            f"5 mg twice daily from {maintenance_start} to complete 3 months of treatment, "
            f"through {stop.date().isoformat()}, then stop (prescription for the 5 mg course, "
            f"{rx_days} days, entered; no refills).\n"
            + _PROVOKED_PLAN_REST),
    })
    return derived


# Decisions that carry anticoagulation on. 'Continue' is not among them: 'continue until the
# bottle runs out this week, then stop' is stopping now; a continuation weeks or months long
# fails anticoagulation_ends_now.
_CARRY_ON = ["start", "resume", "increase", "endorse", "allow"]


def _provoked_complete(values: dict[str, Any], dvt: datetime) -> dict[str, Any]:
    """Consult at the 3-month decision point (13-14 weeks): the treatment phase is complete,
    so anticoagulation stops now - no renewal, no extended phase."""
    weeks = int(values["dvt_days"]) // 7
    stop_now = {"min": 0, "max": STOP_NOW_DAYS, "unit": "d"}
    return {
        "decision": [
            {"any": {"of": [
                # 'stop apixaban now', 'no further anticoagulation is needed'
                {"note_decision": {"concept": ["anticoagulant"], "action": ["stop", "avoid"],
                                   "opposite": _CARRY_ON,
                                   "label": "stop anticoagulation now (3 months complete)"}},
            ]}},
            *_no_extension(),
            # no reduced dose, and a stop date or a time, if written: now, not weeks or
            # months from now
            "graders/hematology_vte.py:anticoagulation_ends_now",
        ],
        "action": [
            {"not_ordered": {"resource_type": "MedicationRequest",
                             "codes": anticoagulant_codes(),
                             "status": ["active", "draft", "on-hold"],
                             "label": "a renewal or another anticoagulant after 3 months"}},
            {"note_decision": {"source": "message", "concept": ["anticoagulant"],
                               "action": ["stop", "avoid"], "opposite": _CARRY_ON,
                               "label": "the PCP told to stop apixaban"}},
            {"note_decision": {"source": "message", "concept": ["anticoagulant"],
                               "action": ["continue", "stop"], "opposite": [],
                               "date_contradicts": True, "required": False,
                               "timing": stop_now, "label": "no stop date weeks away"}},
        ],
        "decision_description": ("Stop anticoagulation now that the 3-month treatment phase is "
                                 "complete; no extended-phase therapy (no reduced-dose "
                                 "apixaban, no aspirin in its place)."),
        "action_description": ("No new anticoagulant prescription (the 3-month course is "
                               "complete: apixaban not renewed, no reduced-dose, extended or "
                               "other anticoagulant), and the PCP told to stop apixaban."),
        "remaining_days": 0,
        "stop_date": (dvt + timedelta(days=TREATMENT_DAYS)).date().isoformat(),
        "loading_end": "",
        "rx_code": "", "rx_display": "", "rx_dose": 0, "rx_days": 0, "rx_quantity": 0,
        "rx_refills": 0, "rx_reason": "", "rx_sig": "",
        "assessment_text": (
            "First proximal DVT provoked by a major transient risk factor - right total knee "
            f"arthroplasty 3 weeks before the DVT. He has now had {weeks} weeks of apixaban, "
            "so the 3-month treatment phase is complete, without bleeding. Recurrence risk "
            "after stopping is low (about 1% per year), so anticoagulation ends here."),
        "plan_text": (
            "1. Stop apixaban now - the 3-month treatment phase is complete. No new "
            "prescription; do not renew it.\n"
            "2. The DVT was provoked by surgery, so no extended-phase anticoagulation, no "
            "reduced-dose apixaban and no aspirin in its place.\n"
            "3. No thrombophilia testing and no repeat duplex needed to stop. "
            "Thromboprophylaxis for any future surgery or immobilization.\n"
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


def _dvt_days(provoked: bool, phase: str, offset: int) -> int:
    """Days from the DVT to the consult. Unprovoked: about 6 months. Provoked: days 4-6 (the
    10 mg initiation phase), 7-9 weeks (maintenance) or 13-14 weeks (3 months complete)."""
    if not provoked:
        return 184 + offset
    if phase == "initiation":
        return 3 + offset // 5
    if phase == "complete":
        return TREATMENT_DAYS + offset // 2
    return 49 + offset


def _treatment_text(stage: str, dvt_date: str, dvt_days: int) -> str:
    started = (f"He was started on apixaban 10 mg twice daily for 7 days on {dvt_date}, then "
               "5 mg\n  twice daily; ")
    if stage == "initiation":
        return started + (f"today is day {dvt_days + 1} of treatment, still on 10 mg twice "
                          "daily, adherent.")
    if stage == "complete":
        return started + f"{dvt_days // 7} weeks of treatment so far, adherent."
    return started + f"about {dvt_days // 7} weeks of treatment so far, adherent."


# Plan items shared by the provoked initiation and maintenance phases.
_PROVOKED_PLAN_REST = (
    "2. The DVT was provoked by surgery, so no extended-phase anticoagulation and no "
    "reduced-dose apixaban.\n"
    "3. No thrombophilia testing. Thromboprophylaxis for any future surgery or "
    "immobilization.\n"
    "4. Return for new leg swelling, chest pain or dyspnea.")


def vte_duration(values: dict[str, Any]) -> dict[str, Any]:
    """Everything that follows from the provocation and, when provoked, the phase of
    treatment: the chart, the expected plan and orders."""
    now: datetime = values["now"]
    provoked = bool(values["provoked"])
    stage = str(values["phase"]) if provoked else "extended"
    dvt_days = _dvt_days(provoked, stage, int(values["days_offset"]))
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
        "stage": stage,
        "loading_done": stage != "initiation",
        "prescribes": stage != "complete",
        "visit_key": stage if stage in ("initiation", "complete") else "ongoing",
        "visit_offset": "-1d" if stage == "initiation" else "-5d",
        "apixaban_refills": 0 if stage == "initiation" else 1,
        "apixaban_supply_days": 10 if stage == "initiation" else 90,  # the ED hands out 10 days
        "rx_request": "any prescription" if stage == "complete" else "the prescription",
        "treatment_text": _treatment_text(stage, dvt.date().isoformat(), dvt_days),
        "knee_note_author": "primary_care" if provoked else "pcp",
        "message_text": _message(derived, stage),
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


def _message(derived: dict[str, Any], stage: str) -> str:
    if stage == "maintenance":
        return ("Hematology e-consult: the DVT was provoked by the knee arthroplasty. Continue "
                f"apixaban 5 mg twice daily through {derived['stop_date']} to complete 3 "
                "months, then stop; no extended anticoagulation. Prescription for the "
                "remaining days entered. Full note in the chart.")
    if stage == "initiation":
        return ("Hematology e-consult: the DVT was provoked by the knee arthroplasty. Finish "
                f"the 7 days of apixaban 10 mg twice daily (through {derived['loading_end']}), "
                f"then 5 mg twice daily through {derived['stop_date']} to complete 3 months, "
                "then stop; no extended anticoagulation. Prescription for the 5 mg course "
                "entered. Full note in the chart.")
    if stage == "complete":
        return ("Hematology e-consult: the DVT was provoked by the knee arthroplasty and the "
                "3-month treatment phase is complete. Stop apixaban now; no new prescription "
                "and no extended anticoagulation. Full note in the chart.")
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


_MONTHS = {name: index for index, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_DATE = (r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{4}"
         r"|[a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
         r"|\d{1,2}(?:st|nd|rd|th)?\s+[a-z]{3,9}\.?,?\s+\d{4})")
# 'through 2026-06-18, then stop', 'until 06/18/2026', 'stop on June 18, 2026',
# 'last dose 2026-06-18', 'end date: 2026-06-18'
_SIG_STOP = re.compile(
    r"\b(?:through|thru|until|till|up\s+to(?:\s+and\s+including)?|stop(?:ping)?(?:\s+(?:on|after))?"
    r"|last\s+dose(?:\s+on)?|end(?:s|ing)?(?:\s+on)?|end\s+date:?|stop\s+date:?"
    r"|discontinue(?:\s+(?:on|after))?)\s+(?:on\s+)?(" + _DATE + r")", re.IGNORECASE)


def _parse_date(text: str) -> date | None:
    text = text.strip().rstrip(".").replace(",", " ")
    try:
        if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", text):
            year, month, day = (int(x) for x in text.split("-"))
            return date(year, month, day)
        if re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", text):
            month, day, year = (int(x) for x in text.split("/"))
            return date(year, month, day)
        words = re.sub(r"(\d)(?:st|nd|rd|th)\b", r"\1", text).replace(".", " ").split()
        if len(words) == 3:
            if words[0].isdigit():
                words = [words[1], words[0], words[2]]
            month = _MONTHS.get(words[0][:3].lower())
            if month:
                return date(int(words[2]), month, int(words[1]))
    except ValueError:
        return None
    return None


def _day_of(text: Any) -> date | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(str(text).replace("Z", "+00:00")).date()
    except ValueError:
        return None


def _stop_date(resource: dict[str, Any]) -> date | None:
    """The last day of therapy an order states outright: its timing's ``boundsPeriod.end``,
    its dispense ``validityPeriod.end`` (the order's end date), or a stop date in its sig or
    note ('through 2026-06-18, then stop'); the earliest when several are given."""
    found = []
    texts = []
    for instruction in resource.get("dosageInstruction", []) or []:
        repeat = (instruction.get("timing") or {}).get("repeat") or {}
        found.append(_day_of((repeat.get("boundsPeriod") or {}).get("end")))
        texts.append(str(instruction.get("text") or ""))
    validity = (resource.get("dispenseRequest") or {}).get("validityPeriod") or {}
    found.append(_day_of(validity.get("end")))
    texts += [str(note.get("text") or "") for note in resource.get("note", []) or []]
    for text in texts:
        dates = [_parse_date(m.group(1)) for m in _SIG_STOP.finditer(text)]
        dates = [d for d in dates if d is not None]
        if dates:
            found.append(max(dates))  # 'through <day 7>, then 5 mg through <end>'
    found = [d for d in found if d is not None]
    return min(found) if found else None


def _end_date(resource: dict[str, Any], now: datetime) -> date | None:
    """The last day the order authorizes: the supply (refills included) ends it, and an
    explicit stop date ends it earlier (a refill is not dispensed past it). None when
    open-ended."""
    days = _covered_days(resource)
    supply_end = (now + timedelta(days=days)).date() if days is not None else None
    stop = _stop_date(resource)
    if stop is None or (supply_end is not None and supply_end < stop):
        return supply_end
    return stop


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
    end = _end_date(resource, now)
    if end is None:
        problems.append("no end date (open-ended)")
    else:
        if not low <= end <= high:
            problems.append(f"ends {end.isoformat()} (expected {low} to {high})")
    return problems


def _loading_rest(resource: dict[str, Any], now: datetime, latest: date) -> bool:
    """An order of apixaban 10 mg twice daily that only finishes the 7-day initiation phase."""
    end = _end_date(resource, now)
    return (_mg(resource) == 10.0 and frequency_per_day(resource) == 2.0 and end is not None
            and end <= latest)


@triggered_by(WRITE)
def apixaban_to_three_months(ctx: GradingContext) -> CheckpointResult:
    """Prescribed apixaban 5 mg twice daily for a bounded course that ends 12-14 weeks after
    the DVT (duration, supply or tablet count, refills included, or an explicit stop date in
    the sig, the timing's boundsPeriod or the validityPeriod), i.e. the rest of the 3-month
    treatment phase - and no other active apixaban 5 mg order that runs on past it. During the
    initiation phase an order of the remaining 10 mg twice-daily doses, ending by day 8, may
    stand beside it."""
    now: datetime = ctx.values["now"]
    low = datetime.fromisoformat(str(ctx.values["dvt_window_start"])).date()
    high = datetime.fromisoformat(str(ctx.values["dvt_window_end"])).date()
    written = [r for r in ctx.written("MedicationRequest")
               if patient_id(r) == ctx.patient_id and matches_code(r, [APIXABAN_5])
               and r.get("status") in ("active", "draft", "on-hold")]
    if ctx.values.get("stage") == "initiation":
        day_8 = (datetime.fromisoformat(str(ctx.values["loading_end"]))
                 + timedelta(days=2)).date()
        written = [r for r in written if not _loading_rest(r, now, day_8)]
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


_THREE_MONTHS_TOTAL = (84.0, 105.0)  # '3 months' / '12-13 weeks' / '90 days' in all


def _carried_on(clause: Any, mention: Any, now_days: float) -> str:
    """A time written with a continue or stop of anticoagulation that lies beyond the next
    2 weeks: a later date, 'another 3 months', 'after 6 months', 'the remaining 36 days' (a
    3-month total, the course now complete, is no carry-on). Empty when there is none."""
    for quantity in clause.quantities:
        if quantity.start < mention.end or clause.quantity_status(quantity) & {
                CONDITIONAL, HISTORICAL, COUNTERFACTUAL}:
            continue
        days = _days_of(quantity)
        if days is None or quantity.role not in ("date", "additional") and (
                _THREE_MONTHS_TOTAL[0] <= days <= _THREE_MONTHS_TOTAL[1]):
            continue
        if days > now_days:
            return clause.text[max(0, quantity.start - 40):quantity.end + 10]
    return ""


# A plan sentence that goes on about the course without naming the drug again.
_COURSE_WORDS = re.compile(r"\b(?:treat|treatment|course|total|duration|continue|stop)\b",
                           re.IGNORECASE)


def _anticoagulant_clauses(note: Any) -> Iterator[tuple[Any, Any]]:
    """Every anticoagulant mention with its clause, then the next clause of the same section
    when it names no drug and speaks of the course ('Apixaban 5 mg BID from 9/19. Because
    the clot is extensive, treat for 6 months in total.'), read as the same mention's."""
    by_index = {clause.index: clause for clause in note}
    for clause, mention in note.mentions("anticoagulant"):
        yield clause, mention
        after = by_index.get(clause.index + 1)
        if after is not None and after.section == clause.section and not any(
                m.group == "drug" for m in after.mentions) and _COURSE_WORDS.search(after.text):
            yield after, dataclasses.replace(mention, start=0, end=0)


@triggered_by(FILE)
def anticoagulation_ends_now(ctx: GradingContext) -> CheckpointResult:
    """At the 3-month decision point of a provoked DVT: no reduced-dose apixaban planned, and
    no continue or stop of anticoagulation with a time beyond the next 2 weeks ('continue for
    another 3 months', 'stop after 6 months', 'through <a date 5 weeks away>')."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    for clause, mention in _anticoagulant_clauses(note):
        if clause.reporting or clause.section == "question" or mention.has(
                HISTORICAL, FAMILY, COUNTERFACTUAL, CONDITIONAL):
            continue
        if mention.action is not None and mention.action.negated:
            continue  # 'do not continue apixaban beyond 3 months'
        reduced = next((q for q in clause.quantities if q.unit == "mg" and q.value < 5
                        and q.start >= mention.start), None)
        if reduced is not None and "apixaban" in mention.concepts and not mention.negated and (
                mention.decision not in ("stop", "avoid")):
            return CheckpointResult(False, f"apixaban {reduced.value:g} mg: "
                                           f"\"{clause.text[:90]}\"")
        decisions = {mention.decision, *(a.decision for a in mention.later)}
        if decisions.isdisjoint({"continue", "keep_dose", "stop", "resume", "start"}):
            continue
        found = _carried_on(clause, mention, float(STOP_NOW_DAYS))
        if found:
            return CheckpointResult(False, f"carries anticoagulation on past now: \"{found}\"")
    return CheckpointResult(True, "no anticoagulation planned beyond the next 2 weeks")


_STEP_END = re.compile(r"\bthen\b|;|\bfollowed by\b|\bafter which\b", re.IGNORECASE)


def _days_of(quantity: Any) -> float | None:
    """A time as days: a date as days from now, a duration in days (its upper end)."""
    if quantity.role == "date":
        return float(quantity.value)
    if quantity.role in ("from", "reference"):
        return None
    return convert(float(quantity.values[1]), quantity.unit, "d")


@triggered_by(FILE)
def initiation_course_times(ctx: GradingContext) -> CheckpointResult:
    """During the 7-day initiation phase: the 10 mg twice-daily doses run only to day 7 ('10
    mg BID for 3 months' fails), and any other time written with the anticoagulant is the
    first week or the end of 3 months - a date up to day 8 or 12-14 weeks after the DVT, a
    duration up to 7 days or of 11-14 weeks ('5 mg BID for 12 weeks'); 'continue for 6
    weeks' or 'through <a date 5 weeks away>' fails."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    dvt_days = int(ctx.values["dvt_days"])
    first_week = LOADING_DAYS + 1 - dvt_days  # day 8, in days from now
    stop_dates = (STOP_WINDOW_DAYS[0] - dvt_days, STOP_WINDOW_DAYS[1] - dvt_days)
    note = read_in_context(ctx, text)
    seen: set[int] = set()
    for clause, mention in _anticoagulant_clauses(note):
        if clause.index in seen or clause.reporting or clause.section == "question" or (
                mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL, CONDITIONAL)):
            continue
        if mention.action is not None and mention.action.negated:
            continue
        seen.add(clause.index)
        doses = [q for q in clause.quantities if q.unit == "mg" and q.start >= mention.start]
        other = next((q for q in doses if q.value not in (5, 10)), None)
        if other is not None and "apixaban" in mention.concepts and not mention.negated:
            return CheckpointResult(False, f"apixaban {other.value:g} mg: \"{clause.text[:90]}\"")
        loading = []
        for dose_q in doses:
            if dose_q.value != 10:
                continue
            after = [q.start for q in doses if q.start > dose_q.end]
            step = _STEP_END.search(clause.text, dose_q.end)
            loading.append((dose_q.end, min([*after, step.start() if step else len(clause.text)])))
        for quantity in clause.quantities:
            days = _days_of(quantity) if quantity.start >= mention.end else None
            if days is None or clause.quantity_status(quantity) & {
                    CONDITIONAL, HISTORICAL, COUNTERFACTUAL}:
                continue
            shown = clause.text[max(0, quantity.start - 40):quantity.end + 10]
            if any(start <= quantity.start < end for start, end in loading):
                limit = first_week if quantity.role == "date" else LOADING_DAYS
                if days > limit:
                    return CheckpointResult(False, f"10 mg twice daily past day 7: \"{shown}\"")
            elif quantity.role == "date":
                if first_week < days < stop_dates[0] or days > stop_dates[1]:
                    return CheckpointResult(False, f"a date neither in the first week nor 3 "
                                                   f"months after the DVT: \"{shown}\"")
            elif LOADING_DAYS < days < 77 or days > STOP_WINDOW_DAYS[1]:
                return CheckpointResult(False, f"a course neither the first week nor to 3 "
                                               f"months: \"{shown}\"")
    return CheckpointResult(True, "10 mg twice daily to day 7, the course to 3 months")
