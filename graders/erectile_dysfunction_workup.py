"""New ED referred to urology: the PDE5 inhibitor (or none) set by the medication list, and the
next testosterone step set by how many early-morning values are low.

CIALIS label (2.1-2.2, 2.5, 4.1): tadalafil 10 mg as needed (5-20 mg, at most once a day) or
2.5 mg once daily (up to 5 mg); on a stable alpha-blocker start at the lowest recommended dose
(5 mg as needed); contraindicated with any organic nitrate, regular or intermittent. VIAGRA
label (2): sildenafil 50 mg, 25 mg with an alpha-blocker. AUA testosterone deficiency 2018
(statements 1, 2, 6): two early-morning total testosterone values below 300 ng/dL make the
diagnosis; then measure LH.
"""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.quantities import schedule
from physbench_gym.grading.reader import read_note
from physbench_gym.grading.resources import dose, frequency_per_day, patient_id, placed
from physbench_gym.synth.dates import resolve_date

TADALAFIL = ["tadalafil", "Cialis"]
SILDENAFIL = ["sildenafil", "Viagra"]
# (label, terms, lowest mg, highest mg, once daily only) per medication profile
OPTIONS: dict[str, list[tuple[str, list[str], float, float, bool]]] = {
    "standard": [("tadalafil 10 mg as needed", TADALAFIL, 10, 10, False),
                 ("tadalafil 2.5-5 mg once daily", TADALAFIL, 2.5, 5, True),
                 ("sildenafil 50 mg as needed", SILDENAFIL, 50, 50, False)],
    "alpha_blocker": [("tadalafil 5 mg as needed", TADALAFIL, 5, 5, False),
                      ("tadalafil 2.5 mg once daily", TADALAFIL, 2.5, 2.5, True),
                      ("sildenafil 25 mg as needed", SILDENAFIL, 25, 25, False)],
    "prn_nitrate": [],
}
TADALAFIL_RX = {"standard": ("484814", "tadalafil 10 MG Oral Tablet", 10),
                "alpha_blocker": ("403957", "tadalafil 5 MG Oral Tablet", 5),
                "prn_nitrate": ("", "", 0)}
LIPIDS = {"hdl": 41, "tg": 168}


def _order(label: str, terms: list[str], low: float, high: float, daily: bool) -> dict[str, Any]:
    spec: dict[str, Any] = {"resource_type": "MedicationRequest", "text_contains": terms,
                            "status": ["active"], "intent": ["order"],
                            "dose": {"min": low, "max": high, "unit": "mg"}, "label": label}
    if daily:
        spec["per_day"] = {"min": 1, "max": 1}
    return {"ordered": spec}


def _note(label: str, terms: list[str], low: float, high: float, daily: bool) -> dict[str, Any]:
    spec: dict[str, Any] = {"concept": [terms[0]], "action": ["start"],
                            "dose": {"min": low, "max": high, "unit": "mg"}, "label": label}
    if daily:
        spec["every"] = {"min": 1, "max": 1}
    return {"note_decision": spec}


PDE5 = ("pde5_inhibitor",)
PDE5_TEXT = ["tadalafil", "cialis", "sildenafil", "viagra", "vardenafil", "levitra", "staxyn",
             "avanafil", "stendra"]
AGENTS = {"tadalafil": ("tadalafil", "cialis"), "sildenafil": ("sildenafil", "viagra"),
          "vardenafil": ("vardenafil", "levitra", "staxyn"), "avanafil": ("avanafil", "stendra")}
TESTOSTERONE = ("testosterone_total", "total_testosterone")
_NOT_COMMITTED = ("NEGATED", "POSSIBLE", "CONDITIONAL", "COUNTERFACTUAL", "HISTORICAL",
                  "FAMILY", "ALTERNATIVE")
# CIALIS 2.6 / 5.1: the 48-hour interval is for an emergency nitrate after an unplanned dose; it
# never makes a PDE5 inhibitor usable by a man who keeps nitroglycerin. The only acceptable
# trigger is the nitrate itself being stopped.
_STOPPED = re.compile(r"\b(?:stop\w*|discontinu\w*|d/c\w*|dc'?s|no longer|taken off|takes? him off|"
                      r"off (?:the |his )?(?:nitro\w*|NTG|nitrates?)|coming off|removed?|"
                      r"deprescrib\w*|withdrawn?)\b", re.IGNORECASE)
_WINDOW = re.compile(r"\b(?:\d+\s*(?:h|hr|hrs|hours?)|hours?|within|skip\w*|spac\w*|apart|"
                     r"after (?:a|each|the) dose|since (?:his|the) last|has not (?:taken|used)|"
                     r"hasn't (?:taken|used)|avoids?|wait\w*)\b", re.IGNORECASE)
_CONDITION = re.compile(r"\b(?:if|unless|once|when|whenever|after|until|provided)\b[^,;:]*",
                        re.IGNORECASE)
_ON_DEMAND = re.compile(r"\b(?:as needed|prn|p\.r\.n\.|on demand|before (?:sex|sexual|"
                        r"intercourse|activity)|prior to (?:sex|sexual|intercourse))\b",
                        re.IGNORECASE)


def _pde5_text(ctx: GradingContext, source: str) -> str | None:
    if source == "note":
        return ctx.note()
    texts = ["\n".join(str(p.get("contentString", "")) for p in m.get("payload") or [])
             for m in ctx.written("Communication")
             if (m.get("subject") or {}).get("reference", "").endswith(f"/{ctx.patient_id}")]
    return "\n\n".join(t for t in texts if t) or None


def _contingency_is_a_stop(ctx: GradingContext, source: str) -> CheckpointResult:
    text = _pde5_text(ctx, source)
    if text is None:
        return CheckpointResult(False, f"no {source}")
    note = read_note(text)
    for clause in note.clauses:
        triggers = [t.span() for t in _CONDITION.finditer(clause.text)]
        mentions = [m for m in clause.mentions if set(m.concepts) & set(PDE5) and not m.negated
                    and not any(a <= m.start < b for a, b in triggers)]  # not the trigger
        if not mentions or clause.reporting:
            continue
        if not any(m.has("CONDITIONAL", "TEMPORARY", "POSSIBLE") or m.decision in (
                "allow", "start", "endorse") for m in mentions):
            continue
        if _WINDOW.search(clause.text) or (
                any(m.has("CONDITIONAL", "TEMPORARY") for m in mentions)
                and not _STOPPED.search(clause.text)):
            return CheckpointResult(False, "allows a PDE5 inhibitor on a trigger other than "
                                           "cardiology stopping the nitrate: "
                                           f"\"{clause.text[:90]}\"")
    return CheckpointResult(True, "a PDE5 inhibitor only if the nitrate is stopped")


@triggered_by(FILE)
def pde5_only_if_nitrate_stopped(ctx: GradingContext) -> CheckpointResult:
    """A PDE5 inhibitor is offered only on cardiology stopping the nitrate, never by spacing
    doses around nitroglycerin ('if he has not taken nitroglycerin in 48 hours')."""
    return _contingency_is_a_stop(ctx, "note")


@triggered_by(WRITE)
def message_pde5_only_if_nitrate_stopped(ctx: GradingContext) -> CheckpointResult:
    """The same rule for the message to the PCP."""
    return _contingency_is_a_stop(ctx, "message")


def _agent(text: str) -> str | None:
    low = text.lower()
    return next((a for a, terms in AGENTS.items() if any(t in low for t in terms)), None)


@triggered_by(FILE)
def pde5_note_schedule(ctx: GradingContext) -> CheckpointResult:
    """Every PDE5 inhibitor the note starts is at most once a day, a standing daily tadalafil is
    at most the branch's once-daily dose, and only one PDE5 inhibitor is started."""
    note = read_note(ctx.note() or "")
    daily_max = float(ctx.values["tadalafil_daily_max"])
    started: dict[str, str] = {}
    for clause in note.clauses:
        for mention in clause.mentions:
            if not set(mention.concepts) & set(PDE5) or clause.reporting or mention.negated:
                continue
            agent = _agent(clause.text[mention.start:mention.end])
            if agent is None:
                continue
            committed = mention.decision in ("start", "endorse") and not mention.has(
                *_NOT_COMMITTED)
            offered = mention.has("POSSIBLE", "ALTERNATIVE") or mention.decision == "allow"
            if not (committed or offered):
                continue
            found = schedule(clause.text)
            per_day = found[0] if found else None
            if per_day is not None and per_day > 1:
                return CheckpointResult(False, f"{agent} more than once a day: "
                                               f"\"{clause.text[:90]}\"")
            doses = [q.value for q in clause.quantities if (q.unit or "").lower() == "mg"]
            if agent == "tadalafil" and per_day == 1 and not _ON_DEMAND.search(clause.text) and \
                    any(d > daily_max for d in doses):
                return CheckpointResult(False, f"standing daily tadalafil above {daily_max:g} mg: "
                                               f"\"{clause.text[:90]}\"")
            if committed:
                started.setdefault(agent, clause.text)
    if len(started) > 1:
        return CheckpointResult(False, f"two PDE5 inhibitors started: {sorted(started)}")
    return CheckpointResult(True, "one PDE5 inhibitor, at most once a day")


def _as_needed(resource: dict[str, Any]) -> bool:
    instructions = resource.get("dosageInstruction", []) or []
    return any(i.get("asNeededBoolean") or i.get("asNeededCodeableConcept")
               for i in instructions) or any(_ON_DEMAND.search(str(i.get("text", "")))
                                             for i in instructions)


@triggered_by(WRITE)
def pde5_order(ctx: GradingContext) -> CheckpointResult:
    """Exactly one PDE5 inhibitor order, placed and active, matching an option of the branch:
    as-needed options as needed at most once a day, once-daily options once a day."""
    orders = []
    for resource in ctx.written("MedicationRequest"):
        concept = resource.get("medicationCodeableConcept") or {}
        text = " ".join([str(concept.get("text", ""))] + [str(c.get("display", ""))
                        for c in concept.get("coding", []) or []]).lower()
        if patient_id(resource) == ctx.patient_id and placed(resource) and any(
                t in text for t in PDE5_TEXT):
            orders.append((resource, text))
    if len(orders) != 1:
        return CheckpointResult(False, f"{len(orders)} PDE5 inhibitor orders placed (one wanted)")
    resource, text = orders[0]
    found = dose(resource)
    per_day = frequency_per_day(resource)
    prn = _as_needed(resource)
    for option in ctx.values["pde5_rx_options"]:
        if not any(t in text for t in option["terms"]) or found is None or \
                found[1].lower() not in ("mg", "milligram"):
            continue
        if not option["low"] <= found[0] <= option["high"]:
            continue
        if option["daily"] and not prn and per_day is not None and abs(per_day - 1) < 0.02:
            return CheckpointResult(True, f"ordered {option['label']}")
        if not option["daily"] and prn and (per_day is None or per_day <= 1.0):
            return CheckpointResult(True, f"ordered {option['label']}")
    how = "as needed" if prn else f"{per_day:g}/day" if per_day else "no schedule"
    return CheckpointResult(False, f"PDE5 order matches no option: {text[:50]} "
                                   f"{found[0] if found else '?'} mg, {how}")


# The repeat total testosterone is an early-morning draw (AUA testosterone deficiency 2018,
# statement 2: two early-morning values before the diagnosis).
_MORNING = re.compile(r"\b(?:morning|AM|a\.m\.|early[- ]morning|fasting|before (?:9|10)|"
                      r"0?[78](?::00)?\s*(?:-|\u2013|to|and)\s*(?:0?9|10)(?::00)?)\b",
                      re.IGNORECASE)
_ANY_TIME = re.compile(r"\b(?:any ?time|whenever|time of day (?:is )?(?:unimportant|does not "
                       r"matter|doesn't matter|irrelevant)|afternoon (?:is|draw is) fine|"
                       r"no need to fast)\b", re.IGNORECASE)
_REPEAT = re.compile(r"\b(?:repeat\w*|recheck\w*|second|again|confirm\w*|another)\b",
                     re.IGNORECASE)
_DIAGNOSED = re.compile(r"\b(?:confirm(?:ed|s)|diagnos(?:ed|tic of)|establish(?:ed|es)|"
                        r"consistent with|proves?)\b", re.IGNORECASE)
_NOT_YET = re.compile(r"\b(?:not|no|un\w+|yet|needs?|requires?|would|if|until|before|whether|"
                      r"cannot|can't|does not|doesn't)\b", re.IGNORECASE)


@triggered_by(FILE)
def repeat_morning_testosterone(ctx: GradingContext) -> CheckpointResult:
    """The note orders a repeat total testosterone drawn early in the morning (a clause with an
    order decision, not the on-file value quoted in the plan), says no other time will do, and
    does not call testosterone deficiency established on the single value."""
    note = read_note(ctx.note() or "")
    for clause, mention in note.mentions("testosterone_deficiency"):
        if clause.reporting or mention.negated or mention.has(*_NOT_COMMITTED):
            continue
        if _DIAGNOSED.search(clause.text) and not _NOT_YET.search(clause.text):
            return CheckpointResult(False, "deficiency called established on one value: "
                                           f"\"{clause.text[:90]}\"")
    ordered = None
    for concept in TESTOSTERONE:
        for clause, mention in note.mentions(concept):
            if clause.reporting or mention.negated or mention.has(*_NOT_COMMITTED):
                continue
            if _ANY_TIME.search(clause.text) and not _MORNING.search(
                    _ANY_TIME.sub("", clause.text)):
                return CheckpointResult(False, f"testosterone at any time: \"{clause.text[:90]}\"")
            if mention.decision in ("order", "endorse", "start") and (
                    _MORNING.search(clause.text)) and ordered is None:
                ordered = clause.text
    if ordered:
        return CheckpointResult(True, "repeat early-morning testosterone ordered: "
                                      f"\"{ordered[:90]}\"")
    return CheckpointResult(False, "no repeat early-morning (7-10 am) total testosterone ordered")


def ed_workup(values: dict[str, Any]) -> dict[str, Any]:
    profile = values["med_profile"]["name"]
    options = OPTIONS[profile]
    highest = {"tadalafil": max((o[3] for o in options if o[1] is TADALAFIL), default=0),
               "sildenafil": max((o[3] for o in options if o[1] is SILDENAFIL), default=0)}
    confirmed = values["t_state"] == "confirmed_low"
    first, second = int(values["tt_first"]), int(values["tt_second"])
    latest = second if confirmed else first
    ldl = int(values["ldl"])
    code, display, mg = TADALAFIL_RX[profile]

    def at(offset: str, clock: str) -> str:  # a draw at a set time of day (fasting, early morning)
        return f"{resolve_date(offset, values['now']).date().isoformat()}T{clock}:00Z"
    return {
        "pde5_allowed": bool(options),
        "pde5_order_options": [_order(*o) for o in options],
        "pde5_note_options": [_note(*o) for o in options],
        "pde5_overdose": [
            {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": TADALAFIL,
                             "dose": {"min": highest["tadalafil"] + 0.1, "max": 1000, "unit": "mg"},
                             "label": f"tadalafil above {highest['tadalafil']:g} mg"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": SILDENAFIL,
                             "dose": {"min": highest["sildenafil"] + 0.1, "max": 1000,
                                      "unit": "mg"},
                             "label": f"sildenafil above {highest['sildenafil']:g} mg"}},
        ] if options else [],
        "pde5_rx_options": [{"label": o[0], "terms": [t.lower() for t in o[1]], "low": o[2],
                             "high": o[3], "daily": o[4]} for o in options],
        "pde5_note_ceilings": [
            {"note_decision": {"concept": [agent], "action": ["start"], "required": False,
                               "dose": {"min": min(o[2] for o in options if o[1] is terms),
                                        "max": highest[agent], "unit": "mg"},
                               "label": f"{agent}, if named, at most {highest[agent]:g} mg"}}
            for agent, terms in (("tadalafil", TADALAFIL), ("sildenafil", SILDENAFIL))
        ] if options else [],
        "tadalafil_daily_max": max((o[3] for o in options if o[1] is TADALAFIL and o[4]),
                                   default=0),
        "tadalafil_code": code, "tadalafil_display": display, "tadalafil_mg": mg,
        "draw_3w": at("-3w", "08:05"), "draw_7w": at("-7w", "08:15"), "draw_4y": at("-4y", "15:40"),
        "t_confirmed": confirmed, "tt_latest": latest,
        "tt_low": min(first, second) if confirmed else first,
        "tt_high": max(first, second) if confirmed else first,
        "a1c_old": round(float(values["a1c"]) - 0.2, 1), "ldl_old": ldl + 19,
        "ldl_mmol": round(ldl / 38.67, 1), "hdl": LIPIDS["hdl"], "tg": LIPIDS["tg"],
        "chol": ldl + LIPIDS["hdl"] + LIPIDS["tg"] // 5,
        "chol_old": ldl + 19 + 39 + 185 // 5,
        "t_plan_text": (
            f"Testosterone deficiency is confirmed (early-morning total testosterone {first} and "
            f"{second} ng/dL, both below 300); I ordered an LH level to tell primary from "
            "secondary "
            "hypogonadism (prolactin next if LH is low or normal)." if confirmed else
            f"His single early-morning total testosterone of {first} ng/dL does not make the "
            "diagnosis; I ordered a repeat early-morning (7-10 am) total testosterone."),
    }
