"""svt_tuberous_sclerosis: kidney function and the suppressive agent the chart allows.

The profile decides the agent (2015 ACC/AHA/HRS SVT guideline, Table 7 and sections 5-7):
everolimus (CYP3A4/P-gp substrate) without pre-excitation or asthma -> beta blocker, no
diltiazem/verapamil; active asthma, no mTOR inhibitor -> diltiazem or verapamil, no beta
blocker; manifest pre-excitation -> EP referral for ablation and flecainide (or propafenone)
meanwhile, no diltiazem, verapamil or digoxin.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import patient_id, placed, text_of

# Accepted starting orders: (label, RxNorm codes, min/max mg per dose, min/max doses a day).
# Starting doses are capped near twice the Table 7 initial dose (2015 ACC/AHA/HRS SVT guideline),
# and every row's dose x frequency stays within a starting daily total.
ORDERS = {
    "beta_blocker": [
        ("metoprolol tartrate 12.5-50 mg twice daily", ["866924", "866514", "866511"],
         12.5, 50, 2, 2),
        ("metoprolol succinate 25-100 mg daily", ["866427", "866436", "866412", "866419"],
         25, 100, 1, 1),
        ("atenolol 25-50 mg daily", ["197380", "197381"], 25, 50, 1, 1),
        ("bisoprolol 2.5-5 mg daily", ["854905"], 2.5, 5, 1, 1),
        ("propranolol 10-30 mg two to four times daily", ["856457"], 10, 30, 2, 4),
    ],
    "ndhp_ccb": [
        ("diltiazem ER 120-240 mg daily", ["830861"], 120, 240, 1, 1),
        ("verapamil ER 120-240 mg once daily", ["897640", "897612"], 120, 240, 1, 1),
        ("verapamil ER 120 mg twice daily", ["897640", "897612"], 120, 120, 2, 2),
    ],
    "class_ic": [
        ("flecainide 50-100 mg twice daily", ["886662", "886666"], 50, 100, 2, 2),
        ("propafenone 150-225 mg three times daily", ["861424"], 150, 225, 3, 3),
    ],
}
# The same plans as the note states them: (lexicon concept, min mg, max mg, doses a day).
NOTE_PLANS = {
    "beta_blocker": [("metoprolol_succinate", 25, 100, 1, 1),
                     ("metoprolol_tartrate", 12.5, 50, 2, 2),
                     ("metoprolol", 12.5, 50, 1, 2),  # formulation not named
                     ("atenolol", 25, 50, 1, 1), ("bisoprolol", 2.5, 5, 1, 1),
                     ("propranolol", 10, 30, 2, 4), ("propranolol_la", 60, 80, 1, 1),
                     ("nadolol", 20, 40, 1, 1)],
    "ndhp_ccb": [("diltiazem", 120, 240, 1, 1), ("diltiazem", 60, 120, 2, 2),
                 ("diltiazem", 30, 60, 3, 4), ("verapamil", 120, 240, 1, 1),
                 ("verapamil", 80, 120, 2, 2), ("verapamil", 40, 80, 3, 3)],
    "class_ic": [("flecainide_acetate", 50, 100, 2, 2), ("propafenone", 150, 225, 3, 3),
                 ("propafenone", 225, 325, 2, 2)],
}
# A named formulation must keep its own schedule and starting dose wherever it is started:
# metoprolol tartrate (immediate release) twice daily, metoprolol succinate once daily.
NOTE_GUARDS = {
    "beta_blocker": [("metoprolol_tartrate", 12.5, 50, 2, 2),
                     ("metoprolol_succinate", 25, 100, 1, 1)],
    "ndhp_ccb": [],
    "class_ic": [],
}
# Drugs that must not be ordered (names in the order) or planned (lexicon concepts).
MUST_NOT = {
    "beta_blocker": (["diltiazem", "verapamil"], ["ndhp_ccb"]),
    "ndhp_ccb": (["metoprolol", "atenolol", "bisoprolol", "propranolol", "nadolol", "carvedilol",
                  "nebivolol", "labetalol", "sotalol"], ["beta_blocker"]),
    "class_ic": (["diltiazem", "verapamil", "digoxin"], ["ndhp_ccb", "digoxin"]),
}
# One drug per class at a time: two beta blockers, two calcium channel blockers or two class IC
# drugs stacked is an unsafe order set (bradycardia, AV block).
AGENT_CLASSES = {
    "beta blocker": ["metoprolol", "atenolol", "bisoprolol", "propranolol", "nadolol", "carvedilol",
                     "nebivolol", "labetalol", "sotalol", "esmolol"],
    "non-dihydropyridine calcium channel blocker": ["diltiazem", "verapamil"],
    "class IC antiarrhythmic": ["flecainide", "propafenone"],
}


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 race-free creatinine equation (mL/min/1.73 m2)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return (142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
            * (1.012 if female else 1.0))


def svt_tsc(values: dict[str, Any]) -> dict[str, Any]:
    age, female = int(values["age"]), values["gender"] == "female"
    target = int(values["egfr_target"])
    # Creatinine above kappa for eGFR < 90: invert the equation, round as a lab reports it.
    base = 142 * 0.9938 ** age * (1.012 if female else 1.0)
    creat = round((0.7 if female else 0.9) * (target / base) ** (-1 / 1.2), 2)
    egfr = round(ckd_epi_2021(creat, age, female))
    if not 30 <= egfr < 90:
        raise ValueError(f"variant outside the task's design: eGFR {egfr}")
    stage = "2" if egfr >= 60 else "3a" if egfr >= 45 else "3b"
    agent = values["profile"]["agent"]
    names, concepts = MUST_NOT[agent]
    order_options = [{"ordered": {
        "resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
        "intent": ["order"], "dose": {"min": lo, "max": hi, "unit": "mg"},
        "per_day": {"min": n1, "max": n2}, "label": label}}
        for label, codes, lo, hi, n1, n2 in ORDERS[agent]]
    note_options = [{"note_decision": {
        "concept": [concept], "action": ["start"], "dose": {"min": lo, "max": hi, "unit": "mg"},
        "every": {"min": n1, "max": n2}, "label": f"start {concept} {lo:g}-{hi:g} mg"}}
        for concept, lo, hi, n1, n2 in NOTE_PLANS[agent]]
    note_guards = [{"note_decision": {
        "concept": [concept], "action": ["start"], "dose": {"min": lo, "max": hi, "unit": "mg"},
        "every": {"min": n1, "max": n2}, "required": False,
        "label": f"{concept.replace('_', ' ')} only at {lo:g}-{hi:g} mg {n1}-{n2} times a day"}}
        for concept, lo, hi, n1, n2 in NOTE_GUARDS[agent]]
    now = values["now"]
    return {
        "creatinine": creat, "egfr": egfr, "ckd_stage": stage,
        "ckd_code": {"2": "431856006", "3a": "700378005", "3b": "700379002"}[stage],
        "prior_creatinine": round(creat * 0.86, 2),
        "prior_egfr": round(ckd_epi_2021(round(creat * 0.86, 2), age - 3, female)),
        "order_options": order_options,
        "note_options": note_options,
        "note_guards": note_guards,
        # The started class, which no clause may stop or offer to stop without a trigger.
        # the class, so that avoiding another member ('avoid propranolol' beside metoprolol)
        # is no stop of the started drug
        "started_class": {"beta_blocker": ["beta_blocker"], "ndhp_ccb": ["ndhp_ccb"],
                          "class_ic": ["flecainide", "antiarrhythmic"]}[agent],
        # Why the forbidden drugs are out, named beside them ('diltiazem would raise everolimus').
        "avoid_reason": {"beta_blocker": ["everolimus", "mtor_inhibitor"], "ndhp_ccb": ["asthma"],
                         "class_ic": ["preexcitation"]}[agent],
        "avoid_reason_label": {"beta_blocker": "everolimus interaction", "ndhp_ccb": "asthma",
                               "class_ic": "pre-excitation"}[agent],
        "forbidden_names": names,
        "forbidden_concepts": concepts,
        "followup_start": (now + timedelta(days=42)).strftime("%Y-%m-%dT10:00:00Z"),
        "followup_date": (now + timedelta(days=42)).strftime("%Y-%m-%d"),
    }


# A stated interval in a follow-up order's text ('in 6 months', 'in 4 weeks').
_INTERVAL = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:-|to)?\s*"
                       r"(?:\d+\s*)?(day|week|wk|month|mo)s?\b", re.I)
_FOLLOWUP_WORDS = ("follow-up", "follow up", "followup", "return visit", "clinic visit",
                   "office visit", "revisit", "recheck visit", "reassessment", "review visit")


def _window(ctx: GradingContext) -> tuple[str, str]:
    now = ctx.values["now"]
    return ((now + timedelta(weeks=2)).date().isoformat(),
            (now + timedelta(weeks=12)).date().isoformat())


def _stated_weeks(text: str) -> list[float]:
    factor = {"day": 1 / 7, "week": 1, "wk": 1, "month": 4.345, "mo": 4.345}
    return [float(m.group(1)) * factor[m.group(2).lower()] for m in _INTERVAL.finditer(text)]


@triggered_by(WRITE)
def followup_booked(ctx: GradingContext) -> CheckpointResult:
    """Arranged a follow-up visit for this patient 2-12 weeks from now (if dated): an
    Appointment with the patient as a participant (which the `ordered` primitive does not
    read), or a placed follow-up ServiceRequest (a cardiology follow-up order or referral)."""
    low, high = _window(ctx)
    for appt in ctx.written("Appointment"):
        actors = [(p.get("actor") or {}).get("reference", "") for p in appt.get("participant", [])]
        if f"Patient/{ctx.patient_id}" not in actors or appt.get("status") == "cancelled":
            continue
        start = str(appt.get("start") or "")[:10]
        if not start or low <= start <= high:
            return CheckpointResult(
                True, f"follow-up visit booked{' for ' + start if start else ''}")
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order):
            continue
        text = " ".join([str((order.get("code") or {}).get("text", "")),
                         " ".join(str(c.get("display", "")) for c in
                                  (order.get("code") or {}).get("coding", []) or []),
                         text_of(order)]).lower()
        if not any(word in text for word in _FOLLOWUP_WORDS):
            continue
        start = str(order.get("occurrenceDateTime")
                    or (order.get("occurrencePeriod") or {}).get("start") or "")[:10]
        if start:
            if low <= start <= high:
                return CheckpointResult(True, f"follow-up ordered for {start}")
            continue
        weeks = _stated_weeks(text)
        if not weeks or all(2 <= w <= 12 for w in weeks):
            return CheckpointResult(True, "follow-up ordered")
    return CheckpointResult(False, f"no follow-up visit arranged for {low} to {high}")


@triggered_by(WRITE)
def one_agent_per_class(ctx: GradingContext) -> CheckpointResult:
    """At most one placed prescription per antiarrhythmic class (two beta blockers, two
    calcium channel blockers or two class IC drugs at once risk bradycardia and AV block)."""
    for name, drugs in AGENT_CLASSES.items():
        found = set()
        for order in ctx.written("MedicationRequest"):
            if patient_id(order) != ctx.patient_id or not placed(order):
                continue
            med = order.get("medicationCodeableConcept") or {}
            text = " ".join([str(med.get("text", ""))]
                            + [str(c.get("display", ""))
                               for c in med.get("coding", []) or []]).lower()
            hits = [drug for drug in drugs if drug in text]
            if hits:
                found.add((order.get("id"), hits[0]))
        if len(found) > 1:
            return CheckpointResult(False, f"{len(found)} {name} orders at once: "
                                    f"{', '.join(sorted(drug for _, drug in found))}")
    return CheckpointResult(True, "one drug per class")


# Long words match inside a phrase; 'EP' and 'EPS' only as words ('episode' is not one).
_EP_WORDS = ("electrophysiolog", "ablation", "accessory pathway")
_EP_SHORT = re.compile(r"(?<![a-z])eps?(?![a-z])")


@triggered_by(WRITE)
def ep_referral_ordered(ctx: GradingContext) -> CheckpointResult:
    """Placed a referral to cardiac electrophysiology (EP study and ablation): the order's
    code, text, reason, notes or performer type names electrophysiology, ablation or 'EP'."""
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order):
            continue
        code = order.get("code") or {}
        parts = [str(code.get("text", "")), text_of(order),
                 str((order.get("performerType") or {}).get("text", ""))]
        parts += [str(c.get("display", "")) for c in code.get("coding", []) or []]
        parts += [str(c.get("display", "")) for c in
                  (order.get("performerType") or {}).get("coding", []) or []]
        parts += [str(r.get("text", "")) for r in order.get("reasonCode", []) or []]
        text = " ".join(parts).lower()
        if any(word in text for word in _EP_WORDS) or _EP_SHORT.search(text):
            return CheckpointResult(True, "EP referral placed")
    return CheckpointResult(False, "no electrophysiology referral placed")
