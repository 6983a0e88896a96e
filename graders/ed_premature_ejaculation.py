"""ED + lifelong PE referred to urology: sildenafil dose (or none) set by the chart, daily SSRI.

VIAGRA label (section 2): 50 mg as needed about 1 h before sex, at most once a day; start at
25 mg with a stable alpha-blocker or severe renal impairment (CrCl < 30 mL/min); contraindicated
with any organic nitrate (section 4). AUA/SMSNA PE 2020: daily SSRI (paroxetine 10-40 mg,
sertraline 25-200 mg, fluoxetine 5-20 mg, citalopram 20-40 mg) or clomipramine; PAXIL label:
severe renal impairment start 10 mg.
"""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.quantities import schedule
from physbench_gym.grading.reader import read_note
from physbench_gym.grading.resources import dose, frequency_per_day, patient_id
from physbench_gym.synth.routine import egfr

WEIGHT_KG = 78.0
PDE5_TEXT = ["sildenafil", "Viagra", "Revatio", "tadalafil", "Cialis", "Adcirca", "vardenafil",
             "Levitra", "Staxyn", "avanafil", "Stendra"]
SILDENAFIL_MG = {"standard": 50, "alpha_blocker": 25, "ckd4": 25, "nitrate": 0}
CREATININE = {"ckd4": (3.1, 3.6)}  # mg/dL now; the others 0.85-1.15
OLD_CREATININE = {"ckd4": (1.6, 2.2)}  # 3 years and 1 year ago: stage 3a, then 3b


def _ssri(text: list[str], low: float, high: float, label: str) -> dict[str, Any]:
    return {"terms": text, "low": low, "high": high, "label": label}


# An on-demand sig is not daily even when it says "once" ('once, 2-4 hours before sex').
_ON_DEMAND = re.compile(r"\b(?:as needed|prn|p\.r\.n\.|before (?:sex|sexual|intercourse|planned)"
                        r"|on demand|hours before)\b", re.IGNORECASE)


def _medication_text(resource: dict[str, Any]) -> str:
    concept = resource.get("medicationCodeableConcept") or {}
    parts = [str(concept.get("text", ""))]
    parts += [str(c.get("display", "")) for c in concept.get("coding", []) or []]
    return " ".join(parts).lower()


def _once_daily(resource: dict[str, Any]) -> tuple[bool, str]:
    """Once a day from the structured timing, or else from the sig text; never as needed."""
    instructions = resource.get("dosageInstruction", []) or []
    if any(i.get("asNeededBoolean") or i.get("asNeededCodeableConcept") for i in instructions):
        return False, "as needed"
    per_day = frequency_per_day(resource)
    if per_day is not None:
        return abs(per_day - 1) < 0.02, f"{per_day:g}/day"
    sig = " ".join(str(i.get("text", "")) for i in instructions)
    written = schedule(sig) if sig else None
    if written is not None and written[0] == 1.0 and not _ON_DEMAND.search(sig):
        return True, "once daily (sig)"
    return False, f"no once-daily schedule ({sig[:60]!r})"


@triggered_by(WRITE)
def ssri_ordered(ctx: GradingContext) -> CheckpointResult:
    """An active order of a daily SSRI (or, without coronary disease, clomipramine) for lifelong
    PE at a starting dose, once a day by its structured timing or its sig."""
    seen = []
    for resource in ctx.written("MedicationRequest"):
        if patient_id(resource) != ctx.patient_id or resource.get("status") != "active" or \
                resource.get("intent") != "order":
            continue
        text = _medication_text(resource)
        for option in ctx.values["ssri_order_options"]:
            if not any(term.lower() in text for term in option["terms"]):
                continue
            found = dose(resource)
            if found is None or found[1].lower() not in ("mg", "milligram"):
                seen.append(f"{option['label']}: no dose in mg")
                continue
            if not option["low"] <= found[0] <= option["high"]:
                seen.append(f"{option['label']}: dose {found[0]:g} mg")
                continue
            daily, how = _once_daily(resource)
            if daily:
                return CheckpointResult(True, f"ordered {option['label']} ({found[0]:g} mg, {how})")
            seen.append(f"{option['label']}: {how}")
    return CheckpointResult(False, "no daily SSRI at a starting dose ordered" +
                            (f" - {'; '.join(seen)}" if seen else ""))


# The repeat total testosterone must be an early-morning draw (AUA ED 2018 statement 4; AUA
# testosterone deficiency 2018: 7-10 am, fasting); glycaemic screening is an A1c or fasting glucose.
_MORNING = re.compile(r"\b(?:morning|mornings|AM|a\.m\.|early[- ]morning|fasting|before 10|"
                      r"0?7(?::00)?\s*(?:-|\u2013|to|and)\s*(?:0?9|10)(?::00)?)\b", re.IGNORECASE)
_ANY_TIME = re.compile(r"\b(?:any ?time|whenever|any time of (?:the )?day|time of day (?:is )?"
                       r"(?:unimportant|does not matter|doesn't matter|irrelevant)|"
                       r"including afternoons?|afternoon (?:is|draw is) fine)\b", re.IGNORECASE)
# An order word in the clause: "Labs ordered: X and Y" orders Y as well as X.
_ORDER_WORD = re.compile(r"\b(?:ordered|order|orders|requested|sent|drawn|draw|check|checked|"
                         r"to be drawn)\b", re.IGNORECASE)
_HEDGED = frozenset({"POSSIBLE", "CONDITIONAL", "COUNTERFACTUAL", "FAMILY", "ALTERNATIVE"})


def _planned(note: Any, concepts: tuple[str, ...]) -> tuple[list[Any], str | None]:
    """Clauses that order one of the concepts, and a clause that refuses it (a negated plan
    verb: 'No HbA1c needed'), if any. 'No A1c on file' (no verb) refuses nothing."""
    planned, refused = [], None
    clauses = list(note.clauses)
    for concept in concepts:
        for clause, mention in note.mentions(concept):
            if mention.has(*_HEDGED) or clause.reporting:
                continue
            position = next((i for i, c in enumerate(clauses) if c is clause), 0)
            ordering = bool(_ORDER_WORD.search(clause.text)) or (
                # "Labs ordered: AM total T (7-10 am), repeat if <300; HbA1c." - the list goes on
                mention.action is None and position > 0 and clause.text.count(" ") < 3
                and bool(_ORDER_WORD.search(clauses[position - 1].text)))
            if mention.action is not None and mention.decision in ("avoid", "stop") and (
                    not ordering):
                refused = refused or clause.text
            elif mention.decision in ("order", "endorse", "start") or (
                    ordering and not mention.negated) or (
                    # a verbless line of the plan, a list item or a table row is the plan
                    mention.action is None and not mention.negated and (
                        clause.section == "plan" or clause.kind in ("item", "row"))):
                planned.append(clause)
    return planned, refused


@triggered_by(FILE)
def morning_testosterone(ctx: GradingContext) -> CheckpointResult:
    """The note orders a total testosterone drawn early in the morning (7-10 am) or fasting, and
    no clause says any time of day will do."""
    note = read_note(ctx.note() or "")
    planned, refused = _planned(note, ("testosterone_total",))
    anytime = next((c.text for c, m in note.mentions("testosterone_total")
                    if _ANY_TIME.search(c.text) and not _MORNING.search(c.text)), None)
    if refused:
        return CheckpointResult(False, f"testosterone not ordered: \"{refused[:90]}\"")
    if anytime:
        return CheckpointResult(False, f"testosterone drawn at any time: \"{anytime[:90]}\"")
    morning = next((c.text for c in planned if _MORNING.search(c.text)), None)
    if morning:
        return CheckpointResult(True, f"morning testosterone ordered: \"{morning[:90]}\"")
    return CheckpointResult(False, "no early-morning (7-10 am) total testosterone ordered")


@triggered_by(FILE)
def glycaemic_screening(ctx: GradingContext) -> CheckpointResult:
    """The note orders a hemoglobin A1c or a fasting glucose and never says it is not needed."""
    note = read_note(ctx.note() or "")
    planned, refused = _planned(note, ("a1c", "glucose"))
    if refused:
        return CheckpointResult(False, f"glycaemic screening refused: \"{refused[:90]}\"")
    if planned:
        return CheckpointResult(True, f"A1c or glucose ordered: \"{planned[0].text[:90]}\"")
    return CheckpointResult(False, "no hemoglobin A1c or fasting glucose ordered")


def ed_pe(values: dict[str, Any]) -> dict[str, Any]:
    name = values["profile"]["name"]
    age = int(values["age"])
    low, high = CREATININE.get(name, (0.85, 1.15))
    creat = round(low + (high - low) * float(values["renal_draw"]), 2)
    old = OLD_CREATININE.get(name, (round(creat - 0.06, 2), round(creat + 0.04, 2)))
    points = [old[0], old[1], creat]
    # each eGFR at the age of its draw (3 years ago, 1 year ago, now)
    egfrs = [
        int(round(egfr(c, age - back, False)))
        for c, back in zip(points, (3, 1, 0), strict=True)
    ]
    crcl = int(round((140 - age) * WEIGHT_KG / (72 * creat)))
    if (name == "ckd4") != (crcl < 30 and egfrs[-1] < 30):
        raise ValueError(f"renal draw {creat} does not fit profile {name}")
    mg = SILDENAFIL_MG[name]
    paroxetine_max = 10 if name == "ckd4" else 20
    options = [_ssri(["paroxetine", "Paxil"], 10, paroxetine_max,
                     f"paroxetine 10-{paroxetine_max} mg daily"),
               _ssri(["sertraline", "Zoloft"], 25, 50, "sertraline 25-50 mg daily"),
               _ssri(["fluoxetine", "Prozac"], 5, 20, "fluoxetine 5-20 mg daily"),
               _ssri(["citalopram", "Celexa"], 20, 20, "citalopram 20 mg daily")]
    return {
        "creat_old": points[0], "creat_mid": points[1], "creat_now": creat,
        "egfr_old": egfrs[0], "egfr_mid": egfrs[1], "egfr_now": egfrs[2], "crcl": crcl,
        "weight_kg": WEIGHT_KG, "sildenafil_mg": mg, "pde5_allowed": mg > 0,
        "sildenafil_max_ok": mg + 0.5, "paroxetine_max": paroxetine_max,
        "ssri_order_options": options, "pde5_text": PDE5_TEXT,
    }


_THRESHOLDS = (264.0, 300.0)  # the assay's lower limit and the AUA cut-off, not the prior value


@triggered_by(FILE)
def prior_testosterone_quoted(ctx: GradingContext) -> CheckpointResult:
    """Any total testosterone value the note quotes (dated or not) is the prior 268 ng/dL or a
    threshold (300 ng/dL): misquoting the random afternoon value fails."""
    note = read_note(ctx.note() or "")
    expected = float(ctx.values.get("prior_testosterone", 268))
    for clause, _mention in note.mentions("testosterone_total"):
        for quantity in clause.quantities:
            unit = (quantity.unit or "").lower()
            factor = {"ng/dl": 1.0, "nmol/l": 28.84, "ng/ml": 100.0}.get(unit)
            if factor is None or quantity.comparator or quantity.role in ("limit", "date"):
                continue
            value = quantity.value * factor
            if abs(value - expected) <= max(1.0, 0.02 * expected) or any(
                    abs(value - t) < 0.5 for t in _THRESHOLDS) or not 50 <= value <= 1500:
                continue
            return CheckpointResult(False,
                                    f"testosterone quoted as {quantity.value:g} {quantity.unit}:"
                                    f" \"{clause.text[:90]}\"")
    return CheckpointResult(True, f"testosterone, if quoted, is {expected:g} ng/dL")
