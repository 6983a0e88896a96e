"""opioid_taper_chronic_pain: the daily oxycodone dose, its morphine milligram equivalents and
the first taper step the note and orders are graded on; and the note checks no primitive
expresses: the taper's pace, a first step under a drug heading or written as a cut, and a
clonazepam taper or stop alongside the opioid taper."""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading import lexicon
from physbench_gym.grading.core import FILE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.notes import read_in_context
from physbench_gym.synth import terminology

OXYCODONE_MME_FACTOR = 1.5  # CDC 2022 guideline, Table: MME conversion factor for oxycodone
STEP_MIN, STEP_MAX = 0.80, 0.95  # first step: a 5-20% cut of the daily dose (VA taper tool)
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def _codes(pick: Any) -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm") if pick(c))


def opioid_taper(values: dict[str, Any]) -> dict[str, Any]:
    """The product and tablets a day of the drawn regimen, the daily dose, MME, the accepted
    first-step range (mg and tablets a day) and the order must-nots (benzodiazepines,
    naltrexone, other full-agonist opioids, more oxycodone administrations a day)."""
    product = values["regimen"]["product"]
    tabs = int(values["regimen"]["tabs"])
    if not 5 <= tabs <= 8:
        raise ValueError(f"{tabs} tablets a day is outside the designed range")
    mg_per_tab = float(product["mg"])
    daily = mg_per_tab * tabs
    mme = daily * OXYCODONE_MME_FACTOR
    old_tabs = 4
    return {
        "product": product,
        "tabs_per_day": tabs,
        "more_tabs_per_day": tabs + 0.5,
        "daily_mg": f"{daily:g}",
        "daily_mg_value": daily,
        "mme": mme,
        "mme_text": f"{mme:g}",
        "old_mme_text": f"{mg_per_tab * old_tabs * OXYCODONE_MME_FACTOR:g}",
        "old_tabs": old_tabs,
        "step_mg_min": round(daily * STEP_MIN, 2),
        "step_mg_max": round(daily * STEP_MAX, 2),
        "step_tabs_min": round(tabs * STEP_MIN, 2),
        "step_tabs_max": round(tabs * STEP_MAX, 2),
        "first_step_tabs": tabs - 1,
        "first_step_mg": f"{mg_per_tab * (tabs - 1):g}",
        "benzodiazepine_rxnorm": _codes(lambda c: c.extra["drug_class"] == "benzodiazepine"),
        "antagonist_rxnorm": _codes(lambda c: "naltrexone" in c.extra["ingredient"]),
        "oxycodone_rxnorm": _codes(lambda c: "oxycodone" in c.extra["ingredient"]),
        "other_opioid_rxnorm": _codes(
            lambda c: c.extra["drug_class"].startswith("opioid analgesic")
            and "oxycodone" not in c.extra["ingredient"]),
    }


# The pace of the later taper steps (review finding 3). After years of opioid therapy the taper
# goes about 10% of the original dose a month, reductions every 4 weeks or slower (HHS 2019,
# CDC 2022 Rec 5); a reduction every week, or every few days, is a rapid taper, and a stop after
# a week or two on the first step is an abrupt discontinuation.
_REDUCES = re.compile(r"\b(?:reduc\w*|decreas\w*|cut|cuts|lower\w*|taper\w*|drop\w*|wean\w*|"
                      r"take off|taking off|step\w* down|come down|coming down|less each|"
                      r"less every|fewer each|fewer every)\b", re.I)
_FAST = re.compile(r"\b(?:(?:every|each|per|a|q)\s*(?:1\s*|one\s*)?(?:week|wk)|weekly|"
                   r"every\s+1\s*(?:-|–|to)\s*\d\s*(?:weeks|wks)|"
                   r"every\s+(?:\d+|few|couple of|other|two|three|four|five|six)\s+days|"
                   r"daily\s+(?:reductions?|cuts?|decrements?)|(?:next|the following) week|"
                   r"the week after)\b",
                   re.I)
_NOT_THIS = re.compile(r"\b(?:not|rather than|instead of|faster than|too fast|avoid|never|no|"
                       r"only for|is for|shorter)\b[^.;]{0,30}$", re.I)
_NOT_A_STEP = re.compile(r"^[^.;]{0,30}\b(?:only for|is for|not for|too fast|is not)\b|"
                         r"^\W*(?:check|visit|follow|review|contact|call|appointment|monitor|"
                         r"touch|nights?)", re.I)
_SHORT_STAY = re.compile(r"\b(?:for|after|in)\s+(?:a|one|1|two|2|a few|several)\s*"
                         r"(?:weeks?|wks?|days?)\b[^.;]{0,40}\b(?:then|and)\s+(?:stop|discontinu\w*|"
                         r"d/c|cease|come off)", re.I)
_VISIT_BEFORE = re.compile(r"\b(?:review\w*|check\w*|see|seen|visits?|follow[- ]?up|contact|"
                           r"call\w*|monitor\w*|check-ins?)\s*$", re.I)
_BENZO = frozenset({"benzodiazepine"})


def _opioid_clause(clause: Any) -> bool:
    concepts = {c for m in clause.mentions for c in ancestors_of(m)}
    return "opioid" in concepts and not concepts & _BENZO


def ancestors_of(mention: Any) -> set[str]:
    return {a for c in mention.concepts for a in lexicon.ancestors(c)}


@triggered_by(FILE)
def taper_pace_slow(ctx: GradingContext) -> CheckpointResult:
    """The oxycodone taper is not rapid: no reductions every week or every few days, and no
    stop after a week or two on the first step."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    for clause in read_in_context(ctx, text):
        if clause.reporting or not _opioid_clause(clause) and "taper" not in clause.text.lower():
            continue
        if any(ancestors_of(m) & _BENZO for m in clause.mentions):
            continue
        for fast in _FAST.finditer(clause.text):
            before = clause.text[:fast.start()]
            if not _REDUCES.search(before) or _NOT_THIS.search(before) or _VISIT_BEFORE.search(
                    before) or _NOT_A_STEP.match(clause.text[fast.end():]):
                continue
            return CheckpointResult(False, f"rapid taper: \"{clause.text[:90]}\"")
        if _SHORT_STAY.search(clause.text) and not _NOT_THIS.search(
                clause.text[:_SHORT_STAY.search(clause.text).start()]):
            return CheckpointResult(False, f"abrupt stop: \"{clause.text[:90]}\"")
    return CheckpointResult(True, "no rapid taper or abrupt stop planned")


# A first step written under a heading or a question that names the drug ('a) Oxycodone taper /
# - First step: reduce from 6 to 5 tablets a day (50 mg/day)'): the clause itself names no drug.
_FIRST_STEP = re.compile(r"\b(?:(?:first|initial|1st)\s+(?:taper\s+)?(?:step|reduction|cut|"
                         r"decrease|drop)|step\s*(?:1|one)|start\s+(?:gently|by\s+reducing))\b",
                         re.I)
_HEDGED = frozenset({"POSSIBLE", "ALTERNATIVE", "CONDITIONAL", "COUNTERFACTUAL", "HISTORICAL"})


@triggered_by(FILE)
def first_step_stated(ctx: GradingContext) -> CheckpointResult:
    """A committed first taper step whose daily dose (mg or tablets a day) is in the accepted
    range, or a committed oxycodone decrease by an amount that leaves it there ('decrease
    oxycodone by 10 mg/day', 'reduce it by one tablet a day'), in a clause that names no other
    drug than oxycodone (a drug carried over from another line, with no word of its own in the
    clause, does not count)."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    values = ctx.values
    ranges = {"mg": (values["step_mg_min"], values["step_mg_max"]),
              "tablet": (values["step_tabs_min"], values["step_tabs_max"])}
    for clause in read_in_context(ctx, text):
        if clause.reporting or clause.cue_categories & _HEDGED:
            continue
        step = _decrement(clause, values)
        if step is not None and ranges["mg"][0] <= step <= ranges["mg"][1]:
            return CheckpointResult(True, f"first step stated as a cut: \"{clause.text[:90]}\"")
        if not _FIRST_STEP.search(clause.text):
            continue
        if any(m.text and "oxycodone" not in ancestors_of(m) and lexicon.concepts()[
                next(iter(m.concepts))].kind in ("drug", "class") for m in clause.mentions):
            continue
        doses = [(q, ranges[unit]) for q in clause.quantities if q.daily and not q.role
                 for unit in ranges if q.unit.startswith(unit)]
        if doses and all(low <= q.value <= high for q, (low, high) in doses):
            return CheckpointResult(True, f"first step stated: \"{clause.text[:90]}\"")
    return CheckpointResult(False, "no first taper step to "
                            f"{values['step_mg_min']:g}-{values['step_mg_max']:g} mg a day")


def _decrement(clause: Any, values: dict[str, Any]) -> float | None:
    """The daily oxycodone dose (mg) left by the first cut a clause commits to as a change
    ('decrease oxycodone by 10 mg/day'), or None."""
    if not any(m.text and "oxycodone" in ancestors_of(m) and m.decision == "decrease"
               for m in clause.mentions):
        return None
    delta = next((q for q in clause.quantities if q.role == "delta"), None)
    if delta is None:
        return None
    if delta.unit == "mg":
        return values["daily_mg_value"] - delta.value
    if delta.unit.startswith("tablet"):
        return values["daily_mg_value"] - delta.value * float(values["product"]["mg"])
    return None


# Clonazepam tapered now, beside the oxycodone (review finding 5): 'Clonazepam: reduce it in
# parallel with the opioid: lower to 0.25 mg twice daily starting now' (the reader gives 'it'
# to the opioid). One drug at a time: the benzodiazepine stays unchanged during the opioid taper.
_BENZO_CUT = re.compile(r"\b(?:reduc\w*|decreas\w*|taper\w*|lower\w*|cut|wean\w*)\b", re.I)
_AT_ONCE = re.compile(r"\b(?:in parallel|at the same time|alongside|simultaneous\w*|"
                      r"together with|concurrent\w*|starting (?:now|today)|now|today)\b", re.I)
_LATER_OR_NOT = re.compile(r"\b(?:after|once|later|when|until|not|don't|no|never|avoid|"
                           r"rather than|instead of|would|could|might|makes?|increases?|risk)\b",
                           re.I)


@triggered_by(FILE)
def benzodiazepine_not_tapered_now(ctx: GradingContext) -> CheckpointResult:
    """No clause tapers clonazepam now or alongside the oxycodone taper."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    for clause in read_in_context(ctx, text):
        if clause.reporting or not any(m.text and ancestors_of(m) & _BENZO
                                       for m in clause.mentions):
            continue
        for cut in _BENZO_CUT.finditer(clause.text):
            at_once = _AT_ONCE.search(clause.text, cut.end(), cut.end() + 60)
            if at_once and not _LATER_OR_NOT.search(
                    clause.text[max(0, cut.start() - 25):at_once.start()]):
                return CheckpointResult(False, "tapers the benzodiazepine with the opioid: "
                                        f"\"{clause.text[:90]}\"")
    return CheckpointResult(True, "no benzodiazepine taper alongside the opioid taper")


_NOT_NOW = frozenset({"CONDITIONAL", "POSSIBLE", "HISTORICAL", "COUNTERFACTUAL", "FAMILY", "LATER"})


@triggered_by(FILE)
def benzodiazepine_not_stopped(ctx: GradingContext) -> CheckpointResult:
    """No clause that names clonazepam (or a pronoun for it) stops it now. A clause that names
    no drug ('Hold 4 weeks.' after the first oxycodone step) is not read as a clonazepam stop."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    for clause in read_in_context(ctx, text):
        if clause.reporting:
            continue
        for m in clause.mentions:
            if m.text and ancestors_of(m) & _BENZO and m.decision == "stop" and not (
                    m.statuses & _NOT_NOW):
                return CheckpointResult(False, f"stops the benzodiazepine: \"{clause.text[:90]}\"")
    return CheckpointResult(True, "the benzodiazepine is not stopped")
