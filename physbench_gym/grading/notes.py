"""Documentation primitives: questions asked of the note as the reader parsed it.

A checkpoint names concepts of the lexicon and decisions by meaning; the reader
(``grading/reader.py``) has already found, for every concept in the note, the plan verb that
governs it, its quantities and its status. The semantics follow a physician reading the note:

- a decision is asserted by a committed clause (not hedged, conditional, historical or in a
  medication list), with or without a verb when it is a plan line;
- a value is stated when its label and number share a clause or table row, in any accepted unit;
- a contradiction is an opposite decision in force, a wrong dose or value stated as current, or
  an alternative offered without a trigger; a contingency with a trigger ('if A1c is still above
  7% at 3 months, add ...') is allowed, a temporary hold ('until vitamin D is replete') too;
- a must-not (``strict``) also fails on hedged or conditional allowances ('ibuprofen may be used').
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import Field, model_validator

from physbench_gym.grading.core import FILE, Args, CheckpointResult, GradingContext, primitive
from physbench_gym.grading.lexicon import ancestors, verb_table
from physbench_gym.grading.lexicon import concept as lexicon_concept
from physbench_gym.grading.quantities import (
    Quantity,
    convert,
    dose_times,
    routes,
    schedule,
    unit_normalize,
)
from physbench_gym.grading.reader import (
    ALTERNATIVE,
    ASIDE_LABEL,
    ATTRIBUTE,
    CONDITIONAL,
    COUNTERFACTUAL,
    DOSE_AFTER,
    FAMILY,
    HISTORICAL,
    LATER,
    LIST_MARK,
    POSSIBLE,
    TEMPORARY,
    TOPIC_LEAD,
    Clause,
    Mention,
    Note,
    read_note,
)

Source = Literal["note", "message"]
NOT_COMMITTED = (POSSIBLE, CONDITIONAL, COUNTERFACTUAL, ALTERNATIVE, HISTORICAL, FAMILY)
# What satisfies a decision besides its own verb, and what contradicts it by default.
SATISFIES = {"start": {"start", "endorse", "resume", "order"},
             "resume": {"resume", "start", "endorse"},
             "order": {"order", "endorse", "refer"}, "refer": {"refer", "endorse", "order"},
             "continue": {"continue", "keep_dose", "endorse", "resume", "order"},
             "increase": {"increase"}, "decrease": {"decrease"}, "stop": {"stop"},
             "avoid": {"avoid"}, "keep_dose": {"keep_dose", "continue"},
             "switch": {"switch", "stop"}, "counsel": {"counsel"}}
OPPOSITES = {"start": {"avoid", "stop"}, "resume": {"avoid", "stop"},
             "order": {"avoid"}, "refer": {"avoid"},
             "continue": {"stop", "avoid", "switch"},
             "increase": {"decrease", "stop", "keep_dose", "avoid"},
             "decrease": {"increase", "keep_dose"},
             "stop": {"start", "resume", "continue", "increase", "keep_dose", "endorse",
                      "allow"},
             "avoid": {"start", "resume", "continue", "increase", "endorse", "order", "refer",
                       "allow"},
             "keep_dose": {"increase", "decrease", "stop"}, "switch": {"continue", "keep_dose"},
             "counsel": set()}
IMPLICIT_OK = frozenset({"start", "continue", "order", "increase", "decrease", "resume"})


def _text(ctx: GradingContext, source: Source) -> str | None:
    """The note, or the messages the agent sent (read the same way as a note)."""
    if source == "note":
        return ctx.note()
    messages = [_payload(m) for m in ctx.written("Communication")
                if (m.get("subject") or {}).get("reference", "").endswith(f"/{ctx.patient_id}")]
    return "\n\n".join(t for t in messages if t) or None


def read_in_context(ctx: GradingContext, text: str) -> Note:
    """The note parsed, with dates read relative to the task's 'now'."""
    now = ctx.values.get("now")
    return read_note(text, now.date() if hasattr(now, "date") else None)


def _payload(message: dict[str, Any]) -> str:
    return "\n".join(str(p.get("contentString", "")) for p in message.get("payload") or [])


def _triggers(source: Source) -> frozenset[str]:
    return frozenset({FILE}) if source == "note" else frozenset({"write:Communication"})


class NoteArgs(Args):
    """Arguments every note primitive shares."""

    source: Source = Field(default="note", description="'note' or 'message' (to the PCP).")
    label: str = Field(default="", description="What is checked, for the reason text.")

    @property
    def triggers(self) -> frozenset[str]:
        return _triggers(self.source)


class NoteWrittenArgs(NoteArgs):
    min_chars: int = Field(default=200, ge=1, description="Shortest acceptable note.")


@primitive("note_written", NoteWrittenArgs, {FILE})
def note_written(ctx: GradingContext, args: NoteWrittenArgs) -> CheckpointResult:
    """The deliverable note (or message) exists with real content."""
    text = _text(ctx, args.source)
    if text is None:
        return CheckpointResult(False, f"{ctx.note_path if args.source == 'note' else 'message'}"
                                       " was not written")
    if len(text.strip()) < args.min_chars:
        return CheckpointResult(False, f"{args.source} has {len(text.strip())} characters, "
                                       f"fewer than {args.min_chars}")
    return CheckpointResult(True, f"{args.source} written ({len(text)} characters)")


class Amount(Args):
    """An expected quantity: a value with a tolerance, or a range, in a unit."""

    value: float | None = Field(default=None, description="Expected value.")
    tolerance: float = Field(default=0.0, ge=0, description="Absolute tolerance around value.")
    min: float | None = Field(default=None, description="Lowest accepted value.")
    max: float | None = Field(default=None, description="Highest accepted value.")
    unit: str = Field(default="", description="Unit of the numbers above ('' = the concept's).")
    units: dict[str, float] = Field(
        default_factory=dict, description="Other written units -> factor to ``unit``.")
    per_day: bool = Field(
        default=False, description="Compare the total per day (dose x administrations/day).")
    scheduled_only: bool = Field(default=False, description=(
        "Only doses written with a regular schedule (daily to four times daily) count: single "
        "titration steps ('4 mg now, repeat every 1-2 h') are not a daily regimen."))
    as_needed_fails: bool = Field(default=False, description=(
        "A dose written as needed ('20 mg daily as needed for hives') is not the scheduled "
        "regimen asked for."))
    limit: bool = Field(default=False, description=(
        "The amount is itself a limit ('no more than 8 mmol/L per 24 h'): values written as "
        "maxima or with a comparator are what the note states."))
    secondary: float | None = Field(default=None, description=(
        "Second strength of a fixed-dose combination ('200/25 mg', in ``unit``): a second "
        "strength written must equal it, and alone it is the second component's dose "
        "('emtricitabine 200 mg / tenofovir alafenamide 25 mg')."))

    @model_validator(mode="after")
    def _something(self) -> Amount:
        if self.value is None and self.min is None and self.max is None:
            raise ValueError("give value (with tolerance) or min/max")
        return self

    def bounds(self) -> tuple[float, float]:
        if self.value is not None:
            slack = self.tolerance + 1e-6 * max(1.0, abs(self.value))
            return self.value - slack, self.value + slack
        return (self.min if self.min is not None else float("-inf"),
                self.max if self.max is not None else float("inf"))

    def reading(self, quantity: Quantity, unit: str, factors: dict[str, float],
                per_day: float | None = None) -> tuple[float, float] | None:
        """The quantity in this amount's unit (low, high), or None if it does not convert."""
        target = self.unit or unit
        if not quantity.unit:
            low, high = quantity.values
            per_ul = next((f for w, f in factors.items() if unit_normalize(w) == "/ul"), None)
            if per_ul and low >= 1000:  # 'platelets 58,000', '58K': a count per uL written
                low, high = low * per_ul, high * per_ul  # out, for a count in thousands
        else:
            low = convert(quantity.values[0], quantity.unit, target, {**factors, **self.units})
            high = convert(quantity.values[1], quantity.unit, target, {**factors, **self.units})
            if low is None or high is None:
                return None
        if self.per_day and per_day and not quantity.daily:
            low, high = low * per_day, high * per_day
        elif not self.per_day and per_day and quantity.daily:  # '300 mg a day in three
            low, high = low / per_day, high / per_day  # divided doses' is 100 mg a dose
        return low, high

    def accepts(self, reading: tuple[float, float], comparator: str = "") -> bool:
        low, high = self.bounds()
        value_low, value_high = reading
        if self.limit:
            return low <= value_low and value_high <= high
        if comparator in ("<", "<="):
            return value_high <= high + 1e-9 and low <= value_high
        if comparator in (">", ">="):
            return value_low >= low - 1e-9 and value_low <= high
        return low <= value_low and value_high <= high

    def fits(self, quantity: Quantity, reading: tuple[float, float]) -> bool:
        """Whether a written dose is this amount, both strengths of a combination counted."""
        if self.secondary is not None:
            if quantity.secondary is not None:
                return self.accepts(reading, quantity.comparator) and abs(
                    quantity.secondary - self.secondary) < 1e-6
            if abs(reading[0] - self.secondary) < 1e-6 and reading[0] == reading[1]:
                return True
        return self.accepts(reading, quantity.comparator)

    def describe(self) -> str:
        if self.value is not None:
            return f"{self.value:g}" + (f" ±{self.tolerance:g}" if self.tolerance else "")
        return f"{self.min:g}-{self.max:g}" if self.min is not None and self.max is not None \
            else (f">= {self.min:g}" if self.min is not None else f"<= {self.max:g}")


def _concept_unit(concept_id: str) -> tuple[str, dict[str, float]]:
    found = lexicon_concept(concept_id)
    return found.unit, found.units


class NoteValueArgs(NoteArgs, Amount):
    concept: list[str] = Field(min_length=1, description="The measured concept(s).")
    required: bool = Field(default=True, description=(
        "False: the note need not state it, but a value it states must be right."))
    target: bool = Field(default=False, description=(
        "A value the note recommends (an intake, a goal): written as a goal or limit counts."))
    contradicts: bool = Field(default=True, description=(
        "Another value stated as current fails the check (off for quantities with several "
        "true values, such as the T-scores of different sites)."))
    strict: bool = Field(default=False, description=(
        "A value offered as an alternative, even under a condition ('alternatively, if the "
        "itching persists, delivery at 35 weeks is an option') must be accepted too."))


@primitive("note_value", NoteValueArgs, {FILE})
def note_value(ctx: GradingContext, args: NoteValueArgs) -> CheckpointResult:
    """The note states the concept's value (any accepted unit) and no other current value."""
    text = _text(ctx, args.source)
    label = args.label or args.concept[0]
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    stated, wrong = False, []
    for concept_id in args.concept:
        unit, factors = _concept_unit(concept_id)
        for clause, mention in note.mentions(concept_id):
            if args.strict and mention.has(ALTERNATIVE) and not mention.negated and not (
                    mention.has(COUNTERFACTUAL, FAMILY)):
                wrong += [f"an offered {_show(q)} in \"{clause.text[:80]}\""
                          for q in _values_of(clause, mention) if q.role in ("", "approximate")
                          and (r := args.reading(q, unit, factors)) is not None
                          and not args.accepts(r, q.comparator)]
            if mention.negated or mention.has(CONDITIONAL, COUNTERFACTUAL, FAMILY) or (
                    _DERIVED.match(clause.text, mention.end)) or _qualifies_label(
                        clause, mention):
                continue
            if mention.group == "test" and concept_id not in _own(mention) and any(
                    concept_id in _own(m) for m in clause.mentions if m is not mention):
                continue  # 'CBC: WBC 5.1, Hb 12.8, plt 62': the panel's value is no platelet's
            if _bare_list(clause, mention):  # 'TSH 8.9, 3.1, 12' or '8.9 or 3.1': which one
                readings = [args.reading(q, unit, factors) for q in _values_of(clause, mention)]
                stated = stated or bool(readings) and all(  # is the value? either, if all fit
                    r is not None and args.accepts(r) for r in readings)
                continue
            values = list(_values_of(clause, mention))
            if not any(args.reading(q, unit, factors) for q in values):
                values = _before_label(clause, mention) or _measured_after(
                    clause, mention, args, unit, factors)  # '4.6 cm AAA in a 71-year-old man'
            elif not any(_accepted(args, q, unit, factors) for q in values):
                # '1,000 to 1,200 mg of calcium a day, about 500 to 600 from a supplement';
                # 'weight ..., 76 kg: 14 x 76 = 1064 mg' computes a dose, not the weight
                values = [*_before_label(clause, mention), *values, *(_measured_after(
                    clause, mention, args, unit, factors) if _computes(clause, mention) else [])]
            stale = _earlier_of_dated_trend(clause)
            for quantity in values:
                reading = args.reading(quantity, unit, factors)
                if reading is None or _threshold_label(clause, mention, quantity) or (
                        quantity.start in stale):
                    continue
                if quantity.role == "dimensions":  # '4.6 x 4.4 cm': the size, unless the
                    stated = stated or args.accepts(reading) and not any(  # clause gives
                        q.role in ("", "approximate") and q.unit == quantity.unit  # another
                        for q in clause.quantities)  # measure ('8 x 6 mm, average 7 mm')
                    continue
                if args.accepts(reading, quantity.comparator) or _rounds_to(
                        clause, quantity, reading, args) or _converted_rounds(
                        clause, quantity, reading, args):
                    if quantity.role in ("", "approximate", "from", "total") or (
                            args.target and quantity.role in ("reference", "limit")) or (
                            quantity.role == "limit" and quantity.comparator) or (
                            quantity.role == "later" and _last_of_trend(clause, quantity)):
                        stated = True
                elif (quantity is _first_stated(clause, mention) and mention.action is None
                      and _current(clause, quantity)
                      and not _OPERAND.search(clause.text, 0, quantity.start)):
                    wrong.append(f"{_show(quantity)} in \"{clause.text[:80]}\"")
    if wrong and args.contradicts:
        return CheckpointResult(False, f"{label} stated as {wrong[0]} (expected "
                                       f"{args.describe()})")
    if stated or not args.required:
        return CheckpointResult(True, f"{label} {args.describe()} "
                                      f"{'stated' if stated else 'not stated, none wrong'}")
    return CheckpointResult(False, f"{label} {args.describe()} not stated")


class NoteLimitArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="The rate being limited.")
    min: float = Field(default=0.0, description="Tightest accepted limit.")
    max: float = Field(description="Loosest accepted limit over ``period_hours``.")
    unit: str = Field(description="Unit of the limits.")
    period_hours: float = Field(default=24.0, gt=0, description="The period of the limit.")
    other_periods: dict[float, float] = Field(default_factory=dict, description=(
        "Hours -> loosest accepted limit over that period (48: 18 for sodium correction)."))


@primitive("note_limit", NoteLimitArgs, {FILE})
def note_limit(ctx: GradingContext, args: NoteLimitArgs) -> CheckpointResult:
    """The note sets a limit on a rate ('Na rise <= 8 mmol/L per 24 h', 'should not rise by more
    than 8 in 24 hours') within the accepted range, and no looser one over any period. The
    limit phrase carries its own negation, so negated mentions count; conditional ones do not."""
    text = _text(ctx, args.source)
    label = args.label or args.concept[0]
    if text is None:
        return CheckpointResult(False, "no note")
    stated, wrong = False, []
    for concept_id in args.concept:
        _, factors = _concept_unit(concept_id)
        for clause, mention in read_in_context(ctx, text).mentions(concept_id):
            if mention.has(CONDITIONAL, COUNTERFACTUAL, FAMILY, HISTORICAL):
                continue
            for quantity in clause.quantities:
                amount = convert(quantity.values[1], quantity.unit or args.unit, args.unit,
                                 factors)
                hours = _period_hours(clause, quantity)
                if amount is None or hours is None or quantity.role in ("from", "date"):
                    continue
                if abs(hours - args.period_hours) < 1e-6:
                    if args.min <= amount <= args.max:
                        stated = True
                    else:
                        wrong.append(f"{amount:g} {args.unit} per {hours:g} h")
                elif hours in args.other_periods and amount > args.other_periods[hours]:
                    wrong.append(f"{amount:g} {args.unit} per {hours:g} h")
    if wrong:
        return CheckpointResult(False, f"{label}: limit {wrong[0]} is too loose")
    if stated:
        return CheckpointResult(True, f"{label} stated")
    return CheckpointResult(False, f"{label} not stated ({args.min:g}-{args.max:g} {args.unit} "
                                   f"per {args.period_hours:g} h)")


def _period_hours(clause: Clause, quantity: Quantity) -> float | None:
    """The period a rate is written over: the next time span after it ('8 mmol/L in 24 h',
    '/24 h', 'in any 24-hour period'), or a day for an amount written per day."""
    if quantity.unit in ("h", "d", "wk", "mo", "y"):
        return None
    for later in clause.quantities:
        if later.start > quantity.start and later.unit in ("h", "d"):
            gap = clause.text[quantity.end:later.start]
            if len(gap) > 25 or re.search(r"[;,]", gap) and not re.fullmatch(
                    r"\s*,\s*(?:per|/|in|over|every)\s*", gap):  # a table row's next cell
                return None
            return later.value * (24.0 if later.unit == "d" else 1.0)
    return 24.0 if quantity.daily else None


# 'urine sodium-to-serum sodium ratio 0.5': a measure derived from the test.
_DERIVED = re.compile(r"\s*(?:ratio|index|gradient|difference|slope)\b", re.IGNORECASE)
# 'fine above CrCl 30', 'avoided below a CrCl of 30': a cut-off named with its measure, no value
_ABOVE_LABEL = re.compile(r"\b(?:above|below|under|over|beneath|exceeding)\s+(?:an?\s+|the\s+)?$",
                          re.IGNORECASE)
_LABEL_TO_CUTOFF = re.compile(r"\s*(?:of\s+)?", re.IGNORECASE)


def _threshold_label(clause: Clause, mention: Mention, quantity: Quantity) -> bool:
    """Whether the number right after a label is a cut-off because a comparison word stands
    before the label ('fine above CrCl 30'): a rule's threshold, not the patient's value."""
    return quantity.start >= mention.end and bool(
        _ABOVE_LABEL.search(clause.text, 0, mention.start)) and bool(
        _LABEL_TO_CUTOFF.fullmatch(clause.text, mention.end, quantity.start))


def _rounds_to(clause: Clause, quantity: Quantity, reading: tuple[float, float],
               args: NoteValueArgs) -> bool:
    """'A TSH of about 9' for 8.9: an approximate value that rounds the expected one to the
    precision it is written with."""
    if quantity.role != "approximate" or args.value is None or reading[0] != reading[1]:
        return False
    written = re.search(r"[\d.]+", clause.text[quantity.start:quantity.end])
    decimals = len(written.group(0).split(".")[1]) if written and "." in written.group(0) else 0
    return abs(round(args.value, decimals) - reading[0]) < 1e-9


def _converted_rounds(clause: Clause, quantity: Quantity, reading: tuple[float, float],
                      args: NoteValueArgs) -> bool:
    """'LDL 4.2 mmol/L' for 162 mg/dL, 'creatinine 159 umol/L' for 1.8 mg/dL: a value written
    in another unit is the expected one when the expected value, in the written unit, rounds
    to it at the precision it is written with."""
    if args.value is None or quantity.comparator or reading[0] != reading[1] \
            or not quantity.values[0] or reading[0] == quantity.values[0]:
        return False
    written = re.search(r"[\d.]+", clause.text[quantity.start:quantity.end].replace(",", ""))
    decimals = len(written.group(0).split(".")[1]) if written and "." in written.group(0) else 0
    expected = args.value * quantity.values[0] / reading[0]
    return abs(round(expected, decimals) - quantity.values[0]) < 1e-9


def _measured_after(clause: Clause, mention: Mention, args: NoteValueArgs, unit: str,
                    factors: dict[str, float]) -> list[Quantity]:
    """'his weight from your visit on 12 May, 76 kg': the first value in the concept's own
    unit after it, past words that measure nothing ('visit'), up to another measured concept."""
    for quantity in clause.quantities:
        if quantity.start < mention.end or not quantity.unit or quantity.role not in (
                "", "approximate"):
            continue
        if any(mention.end <= m.start < quantity.start and _concept_unit(c)[0]
               for m in clause.mentions for c in m.concepts):
            return []
        return [quantity] if args.reading(quantity, unit, factors) is not None else []
    return []


def _last_of_trend(clause: Clause, quantity: Quantity) -> bool:
    """The newest value of a trend written with arrows ('137 -> 130 -> 126'): the current one."""
    return not any(q.role == "later" and q.start > quantity.start for q in clause.quantities)


# 'well over the 6 needed': a threshold named as what a rule requires
_NEEDED_AFTER = re.compile(r"\s*(?:points?\s+)?(?:needed|required|necessary)\b", re.IGNORECASE)


def _segment(clause: Clause, mention: Mention) -> tuple[Quantity, ...]:
    """The quantities written after a label up to the next concept."""
    end = _segment_end(clause, mention)
    own = tuple(q for q in clause.quantities if mention.end <= q.start < end
                and not _heads_its_own_noun(clause.text, q))  # not '... with a 120 mL residual'
    if own and len(clause.mentions) == 1 and all(
            (q.role in ("limit", "reference") or q.comparator) and _NEEDED_AFTER.match(
                clause.text, q.end) for q in own):
        return clause.quantities  # 'scores 10/10 on the ACR/EULAR criteria, well over the 6
        # needed': only the rule's threshold follows the label, its value is elsewhere
    return own or (clause.quantities if len(clause.mentions) == 1 else ()) or _before_label(
        clause, mention)


def _heads_its_own_noun(text: str, quantity: Quantity) -> bool:
    """'a 62 mL prostate with a 120 mL residual': a value between an article and a noun
    measures that noun, not the label before it."""
    after = re.match(r"\s+([a-z][a-z-]+)", text[quantity.end:], re.IGNORECASE)
    return bool(re.search(r"\b(?:a|an)\s+$", text[:quantity.start], re.IGNORECASE)) and bool(
        after) and after.group(1).lower() not in _FUNCTION_WORDS | _FLAG_WORDS


_FLAG_WORDS = frozenset({"high", "low", "elevated", "normal", "abnormal", "total", "daily",
                         "dose", "tablet", "tablets", "increase", "decrease", "rise", "drop"})


def _accepted(args: NoteValueArgs, quantity: Quantity, unit: str, factors: dict) -> bool:
    reading = args.reading(quantity, unit, factors)
    return reading is not None and args.accepts(reading, quantity.comparator)


def _before_label(clause: Clause, mention: Mention) -> tuple[Quantity, ...]:
    """A value with its unit that opens the phrase its label closes ('4.6 cm infrarenal AAA',
    '1,000-1,200 mg of calcium a day'), or a bare number right before a label that is its unit
    ('14 red cells per high-power field')."""
    return tuple(q for q in clause.quantities if q.end <= mention.start and (
                     q.unit and _BEFORE_LABEL.fullmatch(clause.text, q.end, mention.start)
                     or not clause.text[q.end:mention.start].strip())  # '14 red cells per HPF'
                 and (not any(m.start < q.start and "," not in clause.text[m.end:q.start] and (
                                  q.unit or clause.text[q.end:mention.start].strip()
                                  or _VALUE_LINK.fullmatch(clause.text, m.end, q.start))
                              for m in clause.mentions)  # 'nodule, RUL, 7 mm average diameter'
                      or re.search(r"\b(?:a|an)\s+(?:[A-Za-z-]+\s+){0,2}$",
                                   clause.text[:q.start])))  # '... showed a 62 mL prostate',
    # 'a new 14 mm (15 x 13 mm) nodule': an article opens the value's own noun phrase


# What joins a label to its own value ('TSH 4.1', 'LDL: 130', 'eGFR is 38'): a bare number
# after such a link is the earlier label's; after other words and right before a label ('risk
# on 90 MME', 'oxycodone or 90 morphine milligram equivalents') it is the later label's.
_VALUE_LINK = re.compile(r"[\s:=~(]*(?:(?:is|was|were|are|of|at|now|currently|today|about|"
                         r"approx\.?|approximately|-+>?|\u2192)[\s:=~(]*)*", re.IGNORECASE)
_BEFORE_LABEL = re.compile(r"\s*(?:\([^()]*\)\s*)?(?:of\s+)?(?:[A-Za-z-]+,?\s+){0,4}",
                           re.IGNORECASE)


# What the finding's own phrase dates to months or years ago ('... was 2 years ago').
_LONG_AGO = re.compile(r"[^,;()]{0,60}?\b(?:(?:years?|months?)\s+ago|last year)\b",
                       re.IGNORECASE)
# 'FIB-4 (age 54, ...) =', 'FIB-4 from the labs:'; 'the deficit is weight 81 times ...'
_DEFINED = re.compile(r"\s*(?:from [^:=()]{1,30}?\s*)?(?:\([^()]*\)\s*)?[=:]")
_IS = re.compile(r"\s*(?:is|was)\b")
# A calculation written out: 'FIB-4 = (54 x 50) / (210 x sqrt(36)) = 1.89'.
_FORMULA = re.compile(r"\d\s*[x*+]\s*\(?\d|\d\s+/\s+\(?\d|\)\s*/\s*\(?\d|sqrt|\u221a"
                      r"|\d\s+(?:times|plus|minus|divided by)\s+(?:[A-Za-z-]+\s+){0,3}\d"
                      r"|square root", re.IGNORECASE)  # 'age 54 times AST 50 divided by ...'
# What introduces a calculation's result: '= 1.89', 'comes to about 1628 mg'.
_RESULT_WORDS = (r"comes? to|came to|works? out to|equals|totals|amounts? to|which is|which gives|"
                 r"giving|for a total of|yielding")
_RESULT = re.compile(rf"=|->\s*~?\d|,\s*is\s+(?=~?\d)|\b(?:{_RESULT_WORDS})\b", re.IGNORECASE)
_CALCULATED_FROM = re.compile(r"\s*(?:(?:score|index|value|was|is)\s+)?(?:calculated|computed|"
                              r"derived|worked out)\s+(?:from|using|with|based on)\b",
                              re.IGNORECASE)
_RESULT_BEFORE = re.compile(rf"(?:=|,\s*is|\b(?:{_RESULT_WORDS}))\s*(?:about|approximately|~)?\s*$",
                            re.IGNORECASE)


def _computes(clause: Clause, mention: Mention) -> bool:
    """Whether the clause computes the concept: 'FIB-4 (age 54, AST 50, ...) = 1.89', or it
    is the first measure named in a clause that writes a formula out ('The FIB-4 index uses
    age, AST, ALT and platelets: (54 x 50) / (198 x sqrt 52) = 1.89')."""
    rest = clause.text[mention.end:]
    if not _RESULT.search(rest):
        return False
    first = next((m for m in clause.mentions if m.group == "test"), None)
    if _CALCULATED_FROM.match(rest):  # 'FIB-4 calculated from age 52, AST 52 ... comes to 1.8'
        return True
    defined = _DEFINED.match(clause.text, mention.end)  # a table row 'Ferritin: 3180 (2310 ->
    return bool(defined) and (defined.group(0).endswith("=") or clause.kind != "row" or bool(
        _FORMULA.search(rest))) or (first is mention or _IS.match(rest)) and bool(  # 2480)' is
        _FORMULA.search(rest))  # a labelled value, no formula


_DATED_BY_YEAR = re.compile(r"\s*\((?:[^()]*?\b)?((?:19|20)\d{2})\)")


def _earlier_of_dated_trend(clause: Clause) -> set[int]:
    """'ANC 1.41 (2020), 1.26 (2021), ... 1.46 (2025)': in a trend whose values each carry
    their year, the values of every year but the latest are earlier ones (their starts)."""
    dated = [(q.start, int(m.group(1))) for q in clause.quantities
             if (m := _DATED_BY_YEAR.match(clause.text, q.end))]
    if len(dated) < 3:
        return set()
    latest = max(year for _, year in dated)
    return {start for start, year in dated if year < latest}


def _values_of(clause: Clause, mention: Mention) -> Iterable[Quantity]:
    """The value written for a measured concept: the first number after its label that is not
    an earlier value, a limit or a reference ('TSH 4.1 -> 8.9', 'CHA2DS2-VASc 0 (age 42...)'),
    or the result of a formula written out ('FIB-4 = 45 x 48 / ... = 1.89'); thresholds and
    earlier values come along so that they can be told apart."""
    unit_of = [q for q in clause.quantities if q.start < mention.start and mention.end <= q.end]
    if unit_of:
        return unit_of  # '28 HU': the label is the value's unit
    result = _result_past_inputs(clause, mention)
    if result is not None:
        return [result]  # 'CrCl (C-G, 88 kg, age 67, Cr 1.9) ~ 47 mL/min'
    own = _segment(clause, mention)
    own = tuple(q for q in own if q is own[0] or not ASIDE_LABEL.search(
        clause.text, own[0].end, q.start))  # 'PSA < 10 (not very low risk: 3 cores)'
    if own and _STATED_THEN_PARTS.fullmatch(clause.text, mention.end, own[0].start) and (
            _ITS_PARTS.match(clause.text, own[0].end)):
        return own[:1]  # 'CHA2DS2-VASc = 4 (age >= 75 -> 2, female -> 1, HTN -> 1)'
    if _computes(clause, mention):
        own = tuple(q for q in clause.quantities if q.start >= mention.end)  # 'X = a x b = c'
    formula = own and (_FORMULA.search(clause.text, mention.end, own[-1].end)
                       or _computes(clause, mention))
    results = [q for q in own if formula and re.search(
        rf"(?:=|->|about|approximately|approx|~|{_RESULT_WORDS})\s*$",
        clause.text[max(0, q.start - 15):q.start])]
    stated = [q for q in own if q.role not in ("from", "limit", "reference", "duration")
              and not q.comparator]
    chosen = results[-1:] or stated
    return [q for q in own if q in chosen or q.role in ("from", "limit", "reference")
            or q.comparator]


_STATED_THEN_PARTS = re.compile(r"\s*(?:=|:|is|of)\s*")
# 'CrCl (C-G, 88 kg, age 67, Cr 1.9) ~ 47 mL/min': the inputs in an aside right after the
# label, then the result; not '(54 x 50) / ...', a formula that goes on.
_INPUTS_THEN_RESULT = re.compile(r"\s*\([^()]*\d[^()]*\)\s*(?:=|:|is|of|->)?\s*(?:about\s+|"
                                 r"approximately\s+|approx\.?\s+|roughly\s+|~\s*)?",
                                 re.IGNORECASE)
_GOES_ON = re.compile(r"\s*(?:[x*/+]|times\b|divided\b|plus\b|minus\b)", re.IGNORECASE)


def _result_past_inputs(clause: Clause, mention: Mention) -> Quantity | None:
    """The value written right after an aside that lists a measure's inputs ('CrCl (C-G, 88 kg,
    age 67, Cr 1.9) ~ 47 mL/min'): the result, not the inputs nor what follows it."""
    inputs = _INPUTS_THEN_RESULT.match(clause.text, mention.end)
    if inputs is None:
        return None
    result = next((q for q in clause.quantities if q.start == inputs.end()), None)
    if result is None or result.comparator or result.high is not None or result.role not in (
            "", "approximate") or _GOES_ON.match(clause.text, result.end):
        return None
    return result
_ITS_PARTS = re.compile(r"\s*\([^()]*(?:->|=|\+)[^()]*\)")
# 'AAA 4.6 cm, 2.5 cm below the renals'; a score's breakdown: 'CHA2DS2-VASc 4, 2 for age'
_PLACED = re.compile(r"\s+(?:below|above|beyond|distal to|proximal to|from the|"
                     r"(?:points?\s+)?for)\b", re.IGNORECASE)
_LIST_GAP = re.compile(r"\s*(?:[,/]|or|and/or|vs\.?|versus)?\s*", re.IGNORECASE)


def _qualifies_label(clause: Clause, mention: Mention) -> bool:
    """'eGFR: cr 44 - cys 47 mL/min': a term right after another measure's label names which
    of its values follows (creatinine-based eGFR), not a value of its own."""
    if not re.fullmatch(r"[^:]{1,30}:\s*", clause.text[:mention.start]):
        return False
    after = next((q for q in clause.quantities if q.start >= mention.end), None)
    own = {_concept_unit(c)[0] for c in mention.concepts} - {""}
    return after is not None and not after.unit and bool(own) and not clause.text[
        mention.end:after.start].strip() and any(  # a bare number in the label's unit
        ({_concept_unit(c)[0] for c in m.concepts} - {""}).isdisjoint(own | {""}) and any(
            _concept_unit(c)[0] for c in m.concepts)
        for m in clause.mentions if m.end <= mention.start)


def _bare_list(clause: Clause, mention: Mention) -> bool:
    """Several values written after one label with nothing but commas, slashes or 'or'
    between them: a list (or a stuffed answer), not a stated result."""
    own = _segment(clause, mention)
    if not own or _computes(clause, mention) or _FORMULA.search(clause.text, mention.end,
                                                                 own[-1].end) or (
            _result_past_inputs(clause, mention)):
        return False  # 'FIB-4 = 54 x 48 / (122 x sqrt 50) = 1.89'
    plain = [q for q in own
             if q.role in ("", "approximate") and not q.comparator and q.high is None]
    if len(plain) < 2 or plain[0].unit and plain[1].unit and plain[0].unit != plain[1].unit or (
            _PLACED.match(clause.text, plain[1].end)):  # 'AAA 4.6 cm, 2.5 cm below the renals'
        return False
    first, second = plain[:2]
    gap = re.sub(r"\((?:h|l|high|low)\)", "", clause.text[first.end:second.start],
                 flags=re.IGNORECASE)
    if gap.strip() == "/" and first.value.is_integer() and second.value.is_integer():
        return False  # '3/4': a date or a ratio
    return bool(_LIST_GAP.fullmatch(gap))


def _first_stated(clause: Clause, mention: Mention) -> Quantity | None:
    """The value written first after a label: the one a reader takes as its value (a result
    written after '=' wins: 'FIB-4 (age 54, AST 50 ...) = 1.89')."""
    result = _result_past_inputs(clause, mention)
    if result is not None:
        return result
    candidates = [q for q in _segment(clause, mention)
                  if q.role in ("", "approximate") and not q.comparator and q.high is None]
    if _computes(clause, mention):
        candidates = [q for q in clause.quantities if q.start >= mention.end
                      and q.role in ("", "approximate") and not q.comparator and q.high is None]
    formula = candidates and (_FORMULA.search(clause.text, mention.end, candidates[-1].end)
                              or _computes(clause, mention))
    result = [q for q in candidates if formula and _RESULT_BEFORE.search(
        clause.text, max(0, q.start - 30), q.start)]
    return result[-1] if result else (candidates or [None])[0]  # 'a x b = c = d': d


# '(target Hb - actual Hb) x 2.4': a factor of a formula, not the value of what precedes it.
_OPERAND = re.compile(r"(?:\bx|[*/+])\s*$")


def _excluded(clause: Clause, mention: Mention) -> bool:
    """A finding given a verdict of exclusion: 'PCOS ruled out', 'SIADH has been excluded',
    'the urine osmolality excludes SIADH' (not 'rule out SIADH', a work-up)."""
    action = mention.action
    if mention.group != "finding" or mention.decision != "avoid" or action is None:
        return False
    if action.start >= mention.end:
        return (0 <= action.start - mention.end <= 8 or bool(
            _BEEN.fullmatch(clause.text, mention.end, action.start))) and (
            ")" not in clause.text[mention.end:action.start])
    return action.text in ("excludes", "rules out", "i excluded", "we excluded") and bool(
        _OBJECT_GAP.fullmatch(clause.text, action.start + len(action.text), mention.start))


# the verb's own object: 'excludes SIADH', 'rules out the diagnosis of FHH', not 'rules out
# mirtazapine (weight gain)'
_OBJECT_GAP = re.compile(r"\s+(?:(?:the|a|an)\s+)?(?:(?:diagnosis|possibility)\s+of\s+)?",
                         re.IGNORECASE)


_BEEN = re.compile(r"\s+(?:has been|have been|had been|was|were|is|are)\s+(?:now\s+)?",
                   re.IGNORECASE)


def _current(clause: Clause, quantity: Quantity) -> bool:
    """A value stated as the present one: not old, not a threshold, goal, range, estimate or
    earlier value, and not in a clause that dates what it reports ('TSH 3.1 (Feb 2025)')."""
    if quantity.role not in ("", "approximate") or quantity.comparator or (
            quantity.high is not None):
        return False
    labeled_now = _NOW_BEFORE.search(clause.text, max(0, quantity.start - 25), quantity.start)
    if not labeled_now and (
            clause.past_dated or _DATED.search(clause.text) or _PAST_REPORT.search(clause.text)):
        return False
    return clause.quantity_status(quantity).isdisjoint(
        {CONDITIONAL, COUNTERFACTUAL, POSSIBLE, FAMILY, LATER} | (
            set() if labeled_now else {HISTORICAL}))


_DATED = re.compile(
    r"\b(?:19|20)\d\d\b|\b\d{1,2}/\d{1,2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|"
    r"nov|dec)[a-z]*\.?\s+\d|\b\d{1,2}\s+(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\bago\b|\blast (?:year|month|week|visit)\b|\bprevious(?:ly)?\b|\bprior\b|\bbaseline\b"
    r"|\bbefore\b|\bpre-\w+|\bpretreatment\b|\bin (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|"
    r"dec)[a-z]*\b",
    re.IGNORECASE)


# 'current BP 134/86 (up from 122/76 before venlafaxine)': labeled the present value, whatever
# else the clause dates.
_NOW_BEFORE = re.compile(r"\b(?:current|currently|now|today|today's)\s+(?:[A-Za-z][\w-]*\s+){0,3}"
                         r"(?:(?:is|of|=|:)\s*)?$", re.IGNORECASE)


# 'Hb barely changed (10.8 -> 10.3) on intermittent dosing': a sentence about the past.
_PAST_REPORT = re.compile(r"\b(?:was|were|had|changed|fell|rose|dropped|peaked|declined|"
                          r"remained)\b",
                          re.IGNORECASE)


def _show(quantity: Quantity) -> str:
    value = f"{quantity.value:g}" + (f"-{quantity.high:g}" if quantity.high is not None else "")
    return f"{value} {quantity.unit}".strip()


class NoteFindingArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="The finding (any of these concepts).")
    topic: bool = Field(default=False, description=(
        "A counselling topic: naming it is enough, hedged too ('serotonin syndrome can "
        "occur'); only a negated mention fails."))
    opposite: list[str] = Field(default_factory=list,
                                description="Concepts whose affirmation contradicts it.")
    near: list[str] = Field(default_factory=list, description=(
        "When given, the finding counts only in a clause that also names one of these "
        "concepts (a generic word such as 'elevated' needs its subject)."))
    strict: bool = Field(default=False, description=(
        "An opposite offered as possible also contradicts ('possible light-chain MGUS versus "
        "CKD effect'): the diagnosis the note must commit to, not leave open."))


@primitive("note_finding", NoteFindingArgs, {FILE})
def note_finding(ctx: GradingContext, args: NoteFindingArgs) -> CheckpointResult:
    """The note affirms a finding or diagnosis ('likely' counts, 'possible' does not), never
    denies it and never affirms its opposite."""
    text = _text(ctx, args.source)
    label = args.label or args.concept[0]
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    affirmed, denied = False, ""
    for clause, mention in _mentions(note, args.concept):
        if args.near and not _names_any(clause, args.near) and not _goes_on_about(
                note, clause, args.near):
            continue
        if mention.has(COUNTERFACTUAL, FAMILY, CONDITIONAL):
            continue
        if mention.negated or _excluded(clause, mention):
            # 'no SIADH', 'PCOS ruled out', 'hypovolemia excluded', 'it has been excluded'
            if not mention.has(HISTORICAL, POSSIBLE):
                denied = denied or clause.text
            elif args.topic and mention.has(POSSIBLE) and not mention.negated:
                affirmed = True  # 'Hemochromatosis to be excluded': named, and still open
        elif args.topic or not mention.has(POSSIBLE, ALTERNATIVE):
            affirmed = True
    opposed = ""
    for clause, mention in _mentions(note, args.opposite):
        hedged = args.strict and mention.has(POSSIBLE) and not mention.has(
            CONDITIONAL, COUNTERFACTUAL, FAMILY, HISTORICAL, ALTERNATIVE)
        if mention.has(*NOT_COMMITTED) and not hedged or args.near and not _names_any(
                clause, args.near) or clause.section == "avoid" and mention.group == "finding":
            continue  # (under 'I considered and think unlikely:' an opposite is set aside)
        if clause.past_dated and _DATED_RECORD.match(clause.text) and not mention.negated:
            continue  # 'Colonoscopy 2024: quiescent colitis' is a record, not today's state
        if mention.negated or _excluded(clause, mention):
            affirmed = True  # 'not eligible' affirms ineligible; 'not provoked', unprovoked;
            # 'hypercortisolism excluded' affirms normal suppression
        elif mention.decision != "avoid" and not _LONG_AGO.match(clause.text, mention.end):
            # 'argues against hypovolemia' opposes nothing; nor does 'The E. coli bacteremia
            # ... was 2 years ago', history rather than this episode
            opposed = opposed or clause.text
    if denied or opposed:
        return CheckpointResult(False, f"contradicts '{label}': \"{(denied or opposed)[:90]}\"")
    if affirmed:
        return CheckpointResult(True, f"states '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


# A record under its dated label: 'Surveillance colonoscopy 2024: quiescent colitis'.
_DATED_RECORD = re.compile(r"\W*[^:.;]{0,40}?\b(?:19|20)\d\d\b[^:.;]{0,15}:")


def _mentions(note: Note, concepts: Iterable[str]) -> list[tuple[Clause, Mention]]:
    seen: dict[tuple[int, int], tuple[Clause, Mention]] = {}
    for concept_id in concepts:
        for clause, mention in note.mentions(concept_id):
            seen.setdefault((clause.index, mention.start), (clause, mention))
    return [seen[key] for key in sorted(seen)]


# The next sentence refers back to this one: 'CrCl about 82 mL/min. Because this is above 60,
# nitrofurantoin ...', 'CrCl ~82. >=60 -> no renal barrier to NFT'.
_REFERS_BACK = re.compile(r"\s*(?:(?:because|since|as|so|and)\s+)?(?:this|that|which|it|these|"
                          r"therefore|thus|hence|so|[<>]=?\s*\d|->)", re.IGNORECASE)


def _goes_on_about(note: Note, clause: Clause, concepts: Iterable[str]) -> bool:
    """Whether the clause after this one, in the same section, refers back to it and names
    one of the concepts."""
    after = next((c for c in note.clauses if c.index == clause.index + 1), None)
    return after is not None and after.section == clause.section and bool(
        _REFERS_BACK.match(after.text)) and _names_any(after, concepts)


def _names_any(clause: Clause, concepts: Iterable[str]) -> bool:
    """Whether the clause, or the lead-in of its paragraph ('Alcohol use disorder - severity.
    He meets 6 criteria: severe'), names one of the concepts."""
    wanted = set(concepts)
    return not wanted.isdisjoint(clause.topic) or any(
        not wanted.isdisjoint(m.concepts) for m in clause.mentions)


class NoteCategoryArgs(NoteArgs):
    subject: list[str] = Field(min_length=1, description="What is categorized (any concept).")
    category: list[str] = Field(min_length=1, description="Accepted category concepts.")
    others: list[str] = Field(min_length=1, description="The other categories (wrong).")


@primitive("note_category", NoteCategoryArgs, {FILE})
def note_category(ctx: GradingContext, args: NoteCategoryArgs) -> CheckpointResult:
    """The note gives the subject the accepted category, and never another one.

    A clause that lists several categories (the bands of a score) assigns none.
    """
    text = _text(ctx, args.source)
    label = args.label or f"{args.subject[0]} {args.category[0]}"
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    wanted, others = set(args.category), set(args.others)
    assigned, wrong = False, ""
    previous: Clause | None = None
    seen: list[Clause] = []
    for clause in note:
        before, previous = previous, clause
        seen.append(clause)
        if not _names_any(clause, args.subject) and not _bare_category_after(
                clause, before, args.subject, wanted | others) and not _scale_field_after(
                clause, seen[-6:-1], args.subject, wanted | others):
            continue
        subject_starts = {m.start for m in clause.mentions
                          if not set(args.subject).isdisjoint(m.concepts)}
        levels = [m for m in clause.mentions
                  if not (wanted | others).isdisjoint(m.concepts) and not m.negated
                  and not _qualifies_other(clause, m, subject_starts)
                  and not m.has(COUNTERFACTUAL, CONDITIONAL, POSSIBLE, FAMILY)
                  and not (m.cue(HISTORICAL) and m.has(HISTORICAL)
                           and not m.cue(HISTORICAL).lower().startswith("since "))]
        # 'Hx: severe AUD' and 'he had severe OUD' grade it; 'in 2019' does not, 'low-risk,
        # on surveillance since 2023' does (a state that still holds)
        kinds = {frozenset(m.concepts & (wanted | others)) for m in levels}
        if len(kinds) > 1:  # bands named with their cut-offs define the scale, assign nothing
            bands = [m for m in levels if _is_band(clause.text, m)]
            levels = [m for m in levels if m not in bands]
            kinds = {frozenset(m.concepts & (wanted | others)) for m in levels}
            named = set().union(*(m.concepts for m in bands)) & (wanted | others)
            if not levels and _BETWEEN.search(clause.text, 0, min(m.start for m in bands)) and (
                    len((wanted | others) - named) == 1):  # 'between the low- and high-risk ...'
                levels, kinds = bands, {frozenset((wanted | others) - named)}
        if len(kinds) != 1:
            continue
        if not wanted.isdisjoint(next(iter(kinds))):
            assigned = True
        else:
            wrong = wrong or clause.text
    if not assigned and not wrong and "level_intermediate" not in wanted | others:
        side = ("level_high" in wanted and "high") or ("level_low" in wanted and "low")
        for clause in note:  # 'TSAT 66%, above the 45% threshold', 'TSAT 60% (>45%)'
            if side and _names_any(clause, args.subject) and any(
                    (_ABOVE_CUTOFF if side == "high" else _BELOW_CUTOFF).match(
                        clause.text, q.end) for q in clause.quantities if q.role == ""):
                assigned = True
    if wrong:
        return CheckpointResult(False, f"another category than '{label}': \"{wrong[:90]}\"")
    if assigned:
        return CheckpointResult(True, f"states '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


def _bare_category_after(clause: Clause, before: Clause | None, subject: list[str],
                         levels: set[str]) -> bool:
    """'T-DXd pneumonitis, probable.' then '- CTCAE grade 2: symptomatic ...' or 'Grade:
    CTCAE grade 2.': a clause that names a category and nothing else grades what the clause
    right before it (same section) diagnosed; not after 'Not radiation fibrosis.', and only
    when it names its scale ('grade', 'stage'): a bare '"High"' grades nothing."""
    return before is not None and before.section == clause.section and bool(
        clause.mentions) and not _CATEGORY_HEADS.isdisjoint(
        re.findall(r"[a-z]+", clause.text.lower())) and all(not levels.isdisjoint(m.concepts)
                                 for m in clause.mentions) and any(
        not set(subject).isdisjoint(m.concepts) and not m.negated
        for m in before.mentions)


def _scale_field_after(clause: Clause, before: list[Clause], subject: list[str],
                       levels: set[str]) -> bool:
    """'DIAGNOSIS: T-DXd pneumonitis' ... 'ALTERNATIVES: heart failure - no' then 'CTCAE
    GRADE: 2': a field that is only a scale's step grades the diagnosis named last above it,
    past the fields that list the alternatives weighed or excluded (not past a sentence of
    its own, 'Not drug fever.')."""
    if not clause.mentions or not all(not levels.isdisjoint(m.concepts) and not m.negated
                                      for m in clause.mentions) or _CATEGORY_HEADS.isdisjoint(
            re.findall(r"[a-z]+", clause.text.lower())) or len(clause.text.split()) > 4:
        return False
    for earlier in reversed(before):
        if earlier.section in _WEIGHED_SECTIONS:
            continue
        return any(not set(subject).isdisjoint(m.concepts) and not m.negated
                   and not m.has(COUNTERFACTUAL, FAMILY, HISTORICAL) for m in earlier.mentions)
    return False


_WEIGHED_SECTIONS = frozenset({"options", "avoid"})  # 'Alternatives:', 'Excluded:'


# A value put above or below a cut-off written beside it: its category on a two-sided scale.
_ABOVE_CUTOFF = re.compile(r"\s*(?:,\s*(?:which\s+is\s+|well\s+)?|\(\s*|\s)(?:well\s+)?"
                           r"(?:above|over|exceeding|exceeds|greater than|>=?)\s*(?:the\s+)?"
                           r"\d+(?:\.\d+)?\s*%?", re.IGNORECASE)
_BELOW_CUTOFF = re.compile(r"\s*(?:,\s*(?:which\s+is\s+|well\s+)?|\(\s*|\s)(?:well\s+)?"
                           r"(?:below|under|less than|<=?)\s*(?:the\s+)?\d+(?:\.\d+)?\s*%?",
                           re.IGNORECASE)


# A category with its cut-off: 'low-risk (<1.3)', '<1.3 low risk', '1.3-2.67 indeterminate'.
_CUTOFF_AFTER = re.compile(r"\s*\(\s*(?:[<>≤≥]=?\s*)?\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?"
                           r"\s*\)")
_CUTOFF_BEFORE = re.compile(r"(?:[<>≤≥]=?\s*\d+(?:\.\d+)?|\d+(?:\.\d+)?\s*[-–]\s*\d+(?:\.\d+)?)"
                            r"\s*(?:=|:)?\s*$")
_BETWEEN = re.compile(r"\bbetween\b", re.IGNORECASE)


def _is_band(text: str, level: Mention) -> bool:
    """Whether the category is named with its cut-off, as a band of the scale."""
    return bool(_CUTOFF_AFTER.match(text, level.end) or _CUTOFF_BEFORE.search(text[:level.start]))


def _qualifies_other(clause: Clause, level: Mention, subject_starts: set[int]) -> bool:
    """Whether a category word qualifies another noun ('low stiffness', 'mild withdrawal'),
    not the subject ('severe OUD', 'indeterminate risk', 'FIB-4 ... indeterminate')."""
    after = re.match(r"(?:\s+|-)([A-Za-z]+)", clause.text[level.end:])  # not across ' - '
    if not after or after.group(1).lower() in _CATEGORY_HEADS:
        return False
    noun_start = level.end + after.start(1)
    return noun_start not in subject_starts and after.group(1).lower() not in _FUNCTION_WORDS


_CATEGORY_HEADS = frozenset({"risk", "category", "range", "zone", "severity", "disease", "stage",
                             "grade", "intensity", "level", "band", "probability", "likelihood",
                             "class", "group", "tier"})
_FUNCTION_WORDS = frozenset({"and", "or", "by", "on", "in", "at", "with", "per", "for", "of",
                             "to", "is", "are", "was", "based", "according", "given", "as",
                             "but", "because", "since", "so", "the", "a", "an", "than",
                             "under", "using", "from", "via", "through", "after", "when", "if",
                             "which", "that", "while", "despite", "between", "where",
                             "within", "above", "below",
                             # adverbs of how often or when: 'UPT neg x2', 'negative twice'
                             "x", "twice", "thrice", "both", "again", "times", "once", "each",
                             "today", "now", "yesterday", "repeatedly", "consistently"})


class Schedule(Args):
    """How often: administrations per day in [min, max], or a single dose."""

    single: bool = Field(default=False, description="A one-time dose.")
    min: float | None = Field(default=None, description="Fewest administrations per day.")
    max: float | None = Field(default=None, description="Most administrations per day.")

    def accepts(self, found: float | str | None) -> bool:
        if found is None:
            return False
        if self.single:
            return found == "single"
        if found == "single":
            return False
        low = self.min if self.min is not None else 0.0
        high = self.max if self.max is not None else float("inf")
        return low * 0.98 <= float(found) <= high * 1.02


class NoteDecisionArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="What is decided on (any concept).")
    action: list[str] = Field(min_length=1, description=(
        "Accepted decisions: start, resume, continue, increase, decrease, stop, avoid, "
        "keep_dose, switch, order, refer, counsel."))
    opposite: list[str] | None = Field(
        default=None, description="Decisions that contradict it (default: the actions' "
        "opposites).")
    dose: Amount | None = Field(default=None, description="The dose the clause must state.")
    dose_required: bool = Field(default=True, description=(
        "False: a clause without a dose still asserts the decision; a wrong dose still fails."))
    timing: Amount | None = Field(
        default=None, description="When, from now ('in 6-8 weeks'): a time the clause states.")
    timing_after: Amount | None = Field(default=None, description=(
        "When, counted from another event ('4 weeks after therapy'); either timing passes."))
    required: bool = Field(default=True, description=(
        "False: only contradictions fail (a dose checked when the drug is named at all)."))
    route: list[str] = Field(default_factory=list, description=(
        "Accepted routes ('sublingual', 'oral', ...): another route stated with it fails."))
    not_at: list[str] = Field(default_factory=list, description=(
        "Times of day no dose may be taken at ('bedtime'): a dose stated at one fails."))
    date_contradicts: bool = Field(default=False, description=(
        "A calendar date stated with the decision that misses 'timing' fails ('until 25 May' "
        "when the course must run to 17 June), even beside a right duration."))
    all_steps: bool = Field(default=False, description=(
        "Doses of later steps count too ('then 2.5 mg twice daily for 6 months' is an "
        "extended phase, not a taper step)."))
    any_dose: bool = Field(default=False, description=(
        "One stated dose in range asserts it, other doses of the clause are steps toward it "
        "('4 mg now, repeat to a total of 16 mg on day 1'); none contradicts."))
    every: Schedule | None = Field(default=None, description="The schedule it must state.")
    course: Amount | None = Field(default=None, description=(
        "The course length ('for 7-14 days', unit d): a course written with the decision must "
        "fit it ('for three months' fails); a clause that writes none still states it."))
    strict: bool = Field(default=False, description=(
        "A must-not: hedged, optional or conditional allowances of an opposite also fail."))
    wrong_dose_contradicts: bool = Field(
        default=True, description="A committed clause with another dose contradicts it.")
    wrong_timing_contradicts: bool = Field(default=False, description=(
        "A committed clause with a time outside 'timing' contradicts it (a hold 2 days before "
        "surgery stated beside the 4 days needed); by default another time asserts nothing."))
    untimed_is_now: bool = Field(default=False, description=(
        "An urgent test or step: a committed clause with no time written is done now and states "
        "a 'timing' that starts at 0; a time counted from another event ('3 months after the "
        "antivirals') is a later repeat that neither states nor contradicts it."))
    deferral_contradicts: bool = Field(
        default=False, description="A temporary hold ('until ...') of it contradicts it.")
    permanent: bool = Field(default=False, description=(
        "The stop asked for is for good: a hold until an event ('hold it until the voiding "
        "trial') does not state it."))
    before: list[str] = Field(default_factory=list, description=(
        "Concepts the step must come before ('ADAMTS13 before any plasma'): a clause that "
        "times it after one of them ('check ADAMTS13 after the first exchange') contradicts."))
    temporary: bool = Field(default=False, description=(
        "The stop asked for is a hold: a stop for good ('discontinue it permanently', 'do not "
        "rechallenge') contradicts it."))
    committed_if: list[str] = Field(default_factory=list, description=(
        "Concepts whose contingency still commits: 'CT at 18-24 months if stable' plans the "
        "second scan of a surveillance that ends on stability."))
    timing_total: bool = Field(default=False, description=(
        "'timing' is the whole course: time added to what has passed ('another 3 months') "
        "does not state it."))
    resume_after: Amount | None = Field(default=None, description=(
        "The earliest safe restart of a drug held around an event, counted from that event's "
        "end ('5 days after the last Paxlovid dose'): a restart timed earlier from it ('resume "
        "it the day after the last dose', '2 days after completing the course') contradicts; "
        "one with no time or a later one does not."))
    first_dose: Amount | None = Field(default=None, description=(
        "The range of a dose written as the first one ('an initial 12 mg', 'first dose "
        "4 mg'): another first dose fails wherever it is written."))


@primitive("note_decision", NoteDecisionArgs, {FILE})
def note_decision(ctx: GradingContext, args: NoteDecisionArgs) -> CheckpointResult:
    """The note commits to the decision (with its dose, timing and schedule when asked) and
    never to its opposite, a wrong dose, or an untriggered alternative against it."""
    text = _text(ctx, args.source)
    label = args.label or f"{args.action[0]} {args.concept[0]}"
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    accepted = set().union(*(SATISFIES.get(a, {a}) for a in args.action))
    if args.dose is not None and {"increase", "decrease"} & set(args.action):
        accepted |= {"start", "order", "switch"}  # 'a new prescription for levothyroxine 88
        # mcg', 'return it to her previous 0.1 mg': the dose asked for is checked'
    opposite = set(args.opposite) if args.opposite is not None else set().union(
        *(OPPOSITES.get(a, set()) for a in args.action)) - accepted
    asserted, problem = False, ""
    chosen = {c for clause, m in _mentions(note, args.concept)
              if _decision(clause, m, args) in accepted
              for c in _own(m)}  # the members the note starts, orders or continues
    for clause, mention in _mentions(note, args.concept):
        if args.every is not None and args.every.single and _REPEAT.search(clause.text) and (
                not mention.has(CONDITIONAL, HISTORICAL, FAMILY, COUNTERFACTUAL)
                and not clause.reporting and not mention.negated):
            problem = problem or f"repeats a single dose: \"{clause.text[:90]}\""
            continue
        first = _first_dose_issue(clause, args) if mention.decision is not None or (
            _decision(clause, mention, args) is not None) else None
        if first and not mention.has(CONDITIONAL, HISTORICAL, FAMILY, COUNTERFACTUAL):
            problem = problem or f"{first}: \"{clause.text[:90]}\""
        if mention.decision is None and mention.quantities and mention.has(ALTERNATIVE) and (
                accepted & _POSITIVE) and not clause.reporting and not mention.has(
                CONDITIONAL, TEMPORARY, HISTORICAL, FAMILY, COUNTERFACTUAL):
            issue = _amount_issue(clause, mention, args, offer=True)  # 'valacyclovir 1 g TID
            if issue:  # is an acceptable alternative' offers that schedule
                problem = problem or f"offers {issue}: \"{clause.text[:80]}\""
        for index, (decision, step) in enumerate(_decisions(clause, mention, args)):
            later = (index > 0 and not _offered_instead(clause, mention, step)
                     ) or mention.decision is None and bool(mention.later)
            if decision == "stop" and _stops_a_strength(clause, mention, args):
                continue
            if decision == "resume" and args.resume_after is not None and (
                    early := _early_restart(clause, mention, step, args.resume_after)):
                problem = problem or f"restarts it {early}: \"{clause.text[:90]}\""
                continue
            if decision == "avoid" and decision not in accepted and (
                    _OTHER_REGIMEN.search(clause.text[:mention.start])
                    or _another_dose(clause, mention, args)):
                continue  # 'no reduced-dose apixaban', 'no apixaban 2.5 mg': another regimen
            if decision in ("avoid", "stop") and accepted & _POSITIVE and _names_member(
                    mention, args.concept) and not _same_drug(_own(mention), chosen):
                continue  # 'not restarting simvastatin' beside 'start a statin': one member
            if decision in opposite and _in_force(clause, mention, args, decision) and not later:
                problem = problem or f"contradicts '{label}': \"{clause.text[:90]}\""
                continue
            if args.temporary and decision in ("stop", "avoid") and _FOR_GOOD.search(
                    clause.text) and _in_force(clause, mention, args, decision) and not later:
                problem = problem or f"stops it for good: \"{clause.text[:90]}\""
                continue
            if decision in ("continue", "keep_dose") and args.dose is not None and (
                    {"increase", "decrease"} & set(args.action)) and _in_force(
                    clause, mention, args, decision) and not later and _committed(
                    clause, mention) and (_amount_issue(clause, mention, args) or (
                        decision == "keep_dose"
                        and _amount_issue(clause, mention, args) is not None)):
                # 'keep cetirizine at the same dose' when the dose must go up
                # 'continue the current 75 mcg until the recheck' when the dose must change
                problem = problem or f"contradicts '{label}': \"{clause.text[:90]}\""
                continue
            if decision in ("increase", "decrease") and args.dose is not None and (
                    {"continue", "keep_dose"} & set(args.action)) and _in_force(
                    clause, mention, args, decision) and not later and _committed(
                    clause, mention) and not mention.has(LATER, TEMPORARY, CONDITIONAL) and (
                    _amount_issue(clause, mention, args)):
                # 'increase sertraline to 250 mg' when it must stay at 200 mg (not 'after the
                # pacemaker is in, increase it')
                problem = problem or f"contradicts '{label}': \"{clause.text[:90]}\""
                continue
            if decision == "allow" and decision not in accepted and accepted & _POSITIVE and (
                    not mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL)):
                issue = _amount_issue(clause, mention, args, offer=True)  # 'simvastatin
                if issue:  # 80 mg is an acceptable substitute' offers that dose
                    problem = problem or f"offers {issue}: \"{clause.text[:80]}\""
                continue
            if decision not in accepted:
                continue
            if args.before and _timed_after(clause, mention, args.before):
                problem = problem or f"after what it must precede: \"{clause.text[:90]}\""
                continue
            if not _committed(clause, mention) and not (
                    args.committed_if and mention.has(CONDITIONAL)
                    and not mention.has(ALTERNATIVE, POSSIBLE, HISTORICAL, FAMILY,
                                        COUNTERFACTUAL)
                    and _names_any(clause, args.committed_if)):
                if mention.has(ALTERNATIVE, POSSIBLE) and not mention.has(
                        CONDITIONAL, TEMPORARY, HISTORICAL, FAMILY, COUNTERFACTUAL) or (
                        args.strict and mention.has(CONDITIONAL)
                        and not mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL)):
                    issue = _amount_issue(clause, mention, args, offer=True)
                    if issue == "" and decision == "stop" and args.timing is not None and (
                            mention.has(ALTERNATIVE)):  # 'alternatively, X could be stopped'
                        issue = "a stop with no time (now)"
                    if issue:
                        problem = problem or f"offers {issue}: \"{clause.text[:80]}\""
                continue
            if args.permanent and decision in ("stop", "avoid") and mention.has(TEMPORARY):
                continue  # 'hold the diphenhydramine until he voids' is no stop for good
            issue = _amount_issue(clause, mention, args)
            if issue is None:
                asserted = True
            elif issue and args.wrong_dose_contradicts and (
                    args.all_steps or not mention.has(LATER)) and not (  # a taper step's dose
                    _TURNED_DOWN.search(clause.text)  # 'Not 1 g TID: that's for CrCl >=50'
                    or clause.kind == "row" and _BAND_ROW.match(clause.text)):
                problem = problem or f"{issue} in \"{clause.text[:80]}\""
    if args.first_dose is not None and args.deferral_contradicts and not problem:
        problem = _first_dose_put_off(note)
    if problem:
        return CheckpointResult(False, problem)
    if asserted or not args.required:
        return CheckpointResult(True, f"states '{label}'" if asserted
                                else f"nothing contradicts '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


# A row of a dose table keyed by a band of values: '| >=50 | 1 g q8h |' quotes, it does not plan.
_BAND_ROW = re.compile(r"\s*(?:[<>]=?\s*\d[\d.]*|\d[\d.]*\s*-\s*\d[\d.]*)\s*:")
# A dose quoted to turn it down: the PCP's proposal, or a dose judged wrong.
_TURNED_DOWN = re.compile(r"^\W*not\s+\d|^\W*(?:the\s+|your\s+)?(?:proposed|suggested|requested)\b|"
                          r"\b(?:too (?:high|low|much|frequent)|exceeds|is the dose for|"
                          r"rather than)\b", re.IGNORECASE)


def _timed_after(clause: Clause, mention: Mention, concepts: list[str]) -> bool:
    """'check ADAMTS13 after the first exchange': the step timed after one of the concepts."""
    return any(other.start >= mention.end and set(other.concepts) & set(concepts)
               and _AFTER_LEAD.search(clause.text, mention.end, other.start)
               for other in clause.mentions)


_AFTER_LEAD = re.compile(r"\b(?:after|following|post|once)\s+(?:[\w-]+\s+){0,3}$", re.IGNORECASE)
# A stop for good, not a hold: 'discontinue pembrolizumab permanently', 'do not rechallenge'.
_FOR_GOOD = re.compile(r"\b(?:permanent(?:ly)?|for good|never\s+(?:again|re-?start\w*|resume\w*)"
                       r"|(?:do\s+not|don't|never|no|not\s+to|should\s+not\s+be|without)\s+"
                       r"(?:\w+\s+){0,2}?re-?challeng\w*)\b", re.IGNORECASE)


def _first_dose_issue(clause: Clause, args: NoteDecisionArgs) -> str | None:
    """A first dose out of 'first_dose' ('administer an initial 12 mg' of buprenorphine)."""
    if args.first_dose is None:
        return None
    for quantity in clause.quantities:
        if _FIRST_DOSE.search(clause.text[max(0, quantity.start - 40):quantity.start]) or (
                _AS_FIRST_DOSE.match(clause.text, quantity.end)):
            reading = args.first_dose.reading(quantity, args.first_dose.unit, {})
            if reading is not None and not args.first_dose.accepts(reading):
                return f"first dose {_show(quantity)}"
    return None


def _first_dose_put_off(note: Note) -> str:
    """A plan that puts the first dose off to another day ('hold the first dose today',
    'defer induction', 'return for the first dose after 48 h'): the start is not now."""
    for clause in note.clauses:
        if clause.reporting or clause.cue_categories & {CONDITIONAL, HISTORICAL, FAMILY,
                                                         COUNTERFACTUAL}:
            continue
        for match in _PUT_OFF.finditer(clause.text):
            hours = match.group("hours") or match.group("after")
            if hours is None or float(hours) >= 24:
                return f"puts the first dose off: \"{clause.text[:90]}\""
    return ""


_START_NOUN = (r"(?:(?:in-clinic\s+|home\s+)?(?:first dose|initial dose|induction|initiation)"
               r"|home start)")
_PUT_OFF = re.compile(
    r"\b(?:defer|delay|postpone|hold(?: off(?: on)?)?|not (?:give|start|begin|do))\w*\s+"
    r"(?:the\s+|his\s+|her\s+|their\s+|an?\s+)?" + _START_NOUN + r"\b|"
    r"\b" + _START_NOUN + r"\b[^.;:]{0,40}?\b(?:tomorrow|next (?:day|morning|week)|"
    r"in (?P<hours>\d+)\s*h\b|after (?:>=?|≥|at least )?(?P<after>\d+)\s*h\b)",
    re.IGNORECASE)


# '16 mg (2 films) SL as a single first dose': the dose written before its name.
_AS_FIRST_DOSE = re.compile(r"\s*(?:\([^)]*\)\s*)?(?:[a-z]+\s+){0,2}?as\s+(?:an?\s+|the\s+)?"
                            r"(?:single\s+)?(?:initial|first|starting|induction|test)\s+dose",
                            re.IGNORECASE)
_FIRST_DOSE = re.compile(r"\b(?:initial|first|starting|induction|test)\s+(?:dose\s+)?(?:of\s+)?"
                         r"(?:is\s+|=\s*|:\s*)?$", re.IGNORECASE)


def _names_member(mention: Mention, concepts: Iterable[str]) -> bool:
    """Whether the mention names a member of the classes asked for, not a class itself."""
    shared = set(mention.concepts) & set(concepts)
    return bool(shared) and all(any(c in ancestors(x) - {x} for x in mention.concepts)
                                for c in shared)


def _same_drug(named: set[str], chosen: set[str]) -> bool:
    """Whether a mention names a chosen drug or the drug a chosen form belongs to
    ('metoprolol' beside 'metoprolol succinate'; not 'simvastatin' beside 'a statin')."""
    return any(a in ancestors(b) for a in named for b in chosen)


def _own(mention: Mention) -> set[str]:
    """The concepts a mention names itself, without the classes above them."""
    return {x for x in mention.concepts
            if not any(x in ancestors(y) - {y} for y in mention.concepts)}


_POSITIVE = frozenset({"start", "order", "resume", "refer", "switch", "endorse"})
# A regimen named before the drug that a negation turns down ('no extended-phase therapy: no
# apixaban 2.5 mg'), not the drug itself.
_OTHER_REGIMEN = re.compile(r"\b(?:reduced|low|lower|prophylactic|extended)[- ](?:dose|intensity|"
                            r"phase)\b[^.;]{0,40}$", re.IGNORECASE)


def _another_dose(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> bool:
    """The mention states a dose other than the one the decision asks for (any dose, when
    the decision asks for none)."""
    doses = [q for q in _dose_quantities(clause, mention) if q.unit in ("mg", "mcg", "g", "iu")]
    if args.dose is None:
        return bool(doses)
    readings = [args.dose.reading(q, args.dose.unit, {}, None) for q in doses]
    return any(r is not None and not args.dose.accepts(r, q.comparator)
               for q, r in zip(doses, readings, strict=True))


def _stops_a_strength(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> bool:
    """'Stop the 75 mcg tablets' when the dose changes: the old strength, not the drug."""
    return bool(set(args.action) & {"increase", "decrease"}) and any(
        q.unit in ("mg", "mcg", "g", "iu") for q in _dose_quantities(clause, mention))


def _decisions(clause: Clause, mention: Mention, args: NoteDecisionArgs
               ) -> list[tuple[str, int | None]]:
    """The decision on a mention, then those of verbs left without object after it
    ('aspirin, held since admission, should be resumed now'), each with its index in
    ``mention.later`` (None for the mention's own decision)."""
    first = _decision(clause, mention, args)
    later = [(a.decision, i) for i, a in enumerate(mention.later)
             if not (clause.past_dated and a.text.lower().endswith("ed")
                     and a.text.lower() not in _after_forms(a.kind))]  # 'the ED halving of X
    # to 0.05 mg in 1/2025 for a BP measured in pain': a dated story's participle (not a
    # status such as 'ordered')
    return ([(first, None)] if first is not None else []) + later


@functools.cache
def _after_forms(kind: str) -> frozenset[str]:
    return frozenset(f.lower() for f in verb_table().get(kind, {}).get("after", ()))


def _early_restart(clause: Clause, mention: Mention, step: int | None, earliest: Amount
                   ) -> str:
    """'Hold simvastatin ...; resume the day after the last Paxlovid dose': a restart timed
    from the end of the event it was held for, earlier than the earliest safe restart; '' when
    none is written that early (no time, a later one, or a restart that is no plan)."""
    if mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL) or (
            (clause.reporting or clause.past_dated) and not mention.deciding):
        return ""
    verb = mention.later[step] if step is not None else mention.action
    start = min(verb.start, mention.end) if verb is not None and step is None else (
        verb.start if verb is not None else mention.end)
    end = _segment_end(clause, mention) if step is None else len(clause.text)
    times = [q for q in clause.quantities if start <= q.start < end and q.role == "after"
             and q.unit in ("h", "d", "wk", "mo", "y")]
    readings = [(q, r) for q in times
                if (r := earliest.reading(q, earliest.unit or "d", {})) is not None]
    if not readings or any(earliest.accepts(r, q.comparator) for q, r in readings):
        return ""
    return (f"{_show(readings[0][0])} after the event it was held for (earliest: "
            f"{earliest.describe()} {earliest.unit or 'd'})")


def _offered_instead(clause: Clause, mention: Mention, step: int | None) -> bool:
    """'X could be stopped, or continued at the current dose': a later verb that offers
    another option (joined by 'or' to the verb before it) rather than a later step."""
    if step is None:
        return False
    previous = mention.later[step - 1] if step else mention.action
    if previous is None:
        return False
    current = mention.later[step]
    between = clause.text[previous.start + len(previous.text):current.start]
    return bool(re.fullmatch(r"[\s,;]*(?:or|and/or|or else)\s*", between, re.IGNORECASE))


def _listed_to_avoid(clause: Clause, mention: Mention, decision: str) -> str:
    """The decision of a plan verb listed under what to avoid: 'Do not' over 'Prescribe
    naltrexone', 'Avoid: oxycodone increase, added benzodiazepine' avoid what the verb says."""
    if clause.section != "avoid" or mention.negated or decision not in (
            _POSITIVE | {"increase"}) or mention.has(CONDITIONAL, POSSIBLE, ALTERNATIVE) or (
            _INSTEAD.search(clause.text)) or _SPEAKER.search(clause.text):
        return decision  # not 'Eplerenone may be added' in a paragraph under 'What to avoid'
    return "avoid"


# A sentence with a speaker says what it says: 'I would, however, proceed with a bone marrow
# biopsy' answers a question about what to avoid, yet plans the biopsy.
_SPEAKER = re.compile(r"\b(?:I|we|you|he|she|they|however|but)\b", re.IGNORECASE)
_INSTEAD = re.compile(r"\b(?:instead|rather|prefer(?:red|ably)?|use|give|try|consider\w*|could|"
                      r"may|might|can|reasonable|acceptable|option)\b", re.IGNORECASE)


def _decision(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> str | None:
    """The mention's decision; a verbless plan line ('Atorvastatin 20 mg PO daily', a table
    row) asserts the decision the checkpoint asks for."""
    decision = mention.decision
    if decision is not None:
        return _listed_to_avoid(clause, mention, decision)
    if clause.reporting or mention.has(HISTORICAL, ATTRIBUTE) or clause.past_dated:
        return None  # 'adverse effects of venlafaxine XR 150 mg' plans nothing
    if (title := _PROBLEM_TITLE.match(clause.text)) and mention.start == title.end() and (
            _ASKED_IN_TITLE.search(clause.text, mention.end)):
        return None  # '#3 Thyroid ultrasound (mother's question)' names what was asked
    if clause.section == "avoid":
        if mention.has(CONDITIONAL) or _COMPARED_WITH.search(clause.text[:mention.start]):
            return None  # 'fosfomycin (less effective than NFT; only if NFT cannot be taken)',
            # 'no benefit over high-dose cetirizine'
        return "avoid"  # named under 'Agents excluded' or 'What to avoid'
    if _RESULT_LEAD.search(clause.text, 0, mention.start):
        return None  # 'Current PET/CT (2026-03-31): a new nodule' reports a result
    if _TAKEN_AS_IS.match(clause.text, mention.end):
        return None  # 'LT4 75 mcg daily, adherent, correct administration': how he takes it
    if mention.group == "drug" and not mention.quantities and _STATE_ON.search(
            clause.text, 0, mention.start) and any(
                m.start < mention.start for m in clause.mentions):
        return None  # '| Naltrexone | Not now | precipitated withdrawal on methadone |': the
        # drug he is on, the reason of another row's decision, plans nothing of its own
    line_start = mention.start <= 3 or bool(LIST_MARK.fullmatch(  # '(3) TTE, ordered'
        clause.text[:mention.start])) or bool(_AND_LEAD.fullmatch(  # 'And weight loss - ...'
        clause.text[:mention.start])) or clause.kind == "row" or clause.kind == "item" and not any(
        m.group == "finding" and m.start < mention.start for m in clause.mentions) or bool(
        _WITH_LEAD.search(clause.text[:mention.start]) and clause.mentions
        and clause.mentions[0].start <= 3 and clause.mentions[0].decision is None
        and (clause.mentions[0].group != "finding" or clause.mentions[0].quantities)) or bool(
        # 'Volume depletion + ibuprofen' lists causes; 'Calcium 1,000 mg and vitamin D3' plans
        _LEAD_LABEL.fullmatch(clause.text[:mention.start])
        or _after_topic(clause.text[:mention.start])) or bool(  # 'For smoking, X ...'
        _DASH_LEAD.fullmatch(clause.text[:mention.start]) and not any(
            a.start < mention.start for a in clause.actions) and any(
            m.start < mention.start and m.concepts & mention.concepts
            for m in clause.mentions)) or bool(
        re.search(r"(?:->|:)\s*$", clause.text[:mention.start])) or bool(  # 'high risk: -> CT'
        _TRIGGER_LEAD.fullmatch(clause.text[:mention.start])) or bool(  # 'If pain persists, X'
        _MODIFIER_LEAD.fullmatch(clause.text[:mention.start])) or (  # 'Intra-articular ...'
        _opens_a_list(clause, mention))  # 'then Cr, LFTs, ferritin monthly'
    plan_line = clause.section == "plan" or clause.kind == "row" or (
        clause.section in ("body", "assessment", "question") and line_start)
    hedged = not clause.cue_categories.isdisjoint({POSSIBLE, ALTERNATIVE}) and not (
        not mention.has(POSSIBLE, ALTERNATIVE) and _PURPOSE_AFTER.search(clause.text, mention.end))
    if plan_line and (mention.quantities or args.dose is None) and not (
            _SUBJECT_OF.match(clause.text, mention.end)) and not hedged:
        # 'Prednisone 1 mg/kg ... could be considered' is hedged; 'MRI now, to exclude an
        # adenoma' is not (the hedge is the adenoma's)
        return next((a for a in args.action if a in IMPLICIT_OK), None)
    return None




_PROBLEM_TITLE = re.compile(r"\W*#\d{1,2}[.)]?\s+")
_ASKED_IN_TITLE = re.compile(r"\bquestion\b|\basked\b|\bquery\b|\brequest(?:ed)?\b|\?",
                             re.IGNORECASE)
_TAKEN_AS_IS = re.compile(r"[^.;:]{0,40}?,\s*(?:adherent|compliant|(?:with\s+)?good adherence|"
                          r"taken correctly|well[- ]tolerated|tolerating (?:it|well)|"
                          r"no side[- ]effects)\b", re.IGNORECASE)


_STATE_ON = re.compile(r"\b(?:withdrawal|while|when|patients?|someone|anyone|(?:he|she|they)"
                       r"(?:'s|\s+is|\s+are)?)\s+on\s+(?:(?:his|her|their|the)\s+)?$",
                       re.IGNORECASE)


_PURPOSE_AFTER = re.compile(r"\b(?:to|in order to)\s+(?:exclude|rule out|r/o|evaluate for|"
                            r"assess for|"
                            r"look for|screen for|check for)\b|"
                            r"\b(?:must|should|needs? to)\s+be\s+(?:excluded|ruled out)\b|"
                            r"\b(?:screen(?:s|ing)?|evaluat(?:e|es|ion)|assess(?:es)?|"
                            r"look(?:s|ing)?)\s+for\b",
                            re.IGNORECASE)  # '..., a pheochromocytoma must be excluded'

_AND_LEAD = re.compile(r"\W*(?:and|also|plus)\s+", re.IGNORECASE)
_MODIFIER_LEAD = re.compile(r"(?:(?:intra-?[a-z]+|peri-?[a-z]+|oral|IV|IM|SC|topical|inhaled|"
                            r"low-dose|high-dose|short|single|one-time|repeat)\s+){1,2}",
                            re.IGNORECASE)
_TRIGGER_LEAD = re.compile(r"(?:if|when|once|should|in case|unless)\b[^,;:()]{1,80},\s*",
                           re.IGNORECASE)
_RESULT_LEAD = re.compile(r"\b(?:current|latest|most recent|last|prior|previous|today's)\s+$",
                          re.IGNORECASE)
_COMPARED_WITH = re.compile(r"\b(?:than|over|versus|vs\.?|compared (?:with|to)|instead of|"
                            r"in place of)\s+"
                            r"(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
# 'Levothyroxine has a half-life of a week': the drug is the subject of a sentence about it.
_SUBJECT_OF = re.compile(r"\s*(?:\w+\s+)?(?:[\d.,/]+\s*(?:mg|mcg|g|units?|iu|ml)?\s+){0,2}"
                         r"(?:is|are|was|were|has|have|had|does|do|did|can|will|"
                         r"would|(?<!\d\s)may|might|must|works|acts|takes)\b",
                         re.IGNORECASE)  # not '... visit 5 May 2026': a date
# 'Pylera 3 caps QID with clarithromycin 500 mg BID': a drug added to a verbless plan line.
_WITH_LEAD = re.compile(r"\b(?:with|plus|and)\s*$|\+\s*$", re.IGNORECASE)
_LEAD_LABEL = re.compile(r"\s*[\w /&-]{1,25}:\s*")
# (a named topic, not an occasion: 'for a severe flare only, prednisone 40 mg' is a rescue)
_TOPIC_NAME = re.compile(r"(?!(?:a|an|any|each|every|some)\s)(?![^,]*\b(?:only|if|when|flares?|"
                         r"episodes?|attacks?)\b)[\w /&-]{1,30},\s*", re.IGNORECASE)
# What may open a plan line before the list it plans: 'then', 'and', a list mark.
_LIST_OPENING = re.compile(r"[\W\d]*(?:(?:and\s+)?then\s+|and\s+)?", re.IGNORECASE)
_LIST_SEPARATOR = re.compile(r"(?:\s*(?:,|/|\+|&|\band\b|\bor\b)\s*|\s+)*")


def _after_topic(prefix: str) -> bool:
    """'For smoking, varenicline ...': the sentence's topic, then the plan line."""
    lead = TOPIC_LEAD.match(prefix)
    return bool(lead and _TOPIC_NAME.fullmatch(prefix, lead.end()))


def _opens_a_list(clause: Clause, mention: Mention) -> bool:
    """Whether a mention is one of a verbless list of the same group that opens its line
    ('then Cr, LFTs, ferritin monthly'; 'TSH, free T4 and TPO in 6 weeks'): the list plans
    each of its items."""
    opening = _LIST_OPENING.match(clause.text)
    at = opening.end() if opening else 0
    for other in clause.mentions:
        if other.start >= mention.start:
            break
        if not other.text or other.start < at:
            continue
        if other.group != mention.group or other.action is not None or other.negated or (
                not _LIST_SEPARATOR.fullmatch(clause.text[at:other.start])):
            return False
        at = other.end
    return at > 0 and bool(_LIST_SEPARATOR.fullmatch(clause.text[at:mention.start])) and (
        at > (opening.end() if opening else 0) or bool(opening and opening.group(0).strip()))
# 'Paxlovid at the renal dose - nirmatrelvir 150 mg + ritonavir 100 mg BID x 5 days': a short
# verbless label naming the drug, then a dash, then its regimen (as after a colon).
_DASH_LEAD = re.compile(r"\s*[\w /&:,'()-]{1,45}?\s[-\u2013\u2014]\s+")


def _committed(clause: Clause, mention: Mention) -> bool:
    return (not clause.reporting or mention.deciding) and not mention.has(*NOT_COMMITTED)


# Temporary cues that put a decision off ('avoid dapagliflozin for now'), unlike the
# event-bound holds of a sick-day rule or a procedure.
_DEFERRALS = frozenset({"until", "at least until", "pending", "for now", "for the time being",
                        "for the moment", "temporarily", "once"})


def _event_bound(mention: Mention) -> bool:
    """Whether a hold is tied to an event ('temporarily hold it during acute illness'): a
    sick-day or procedure rule, not a deferral of the plan."""
    return any(c.category == TEMPORARY and _EVENT_HOLD.match(c.text) for c in mention.cues)


_EVENT_HOLD = re.compile(r"(?:during|before|around|ahead of|for surgery|for contrast|on sick|"
                         r"sick|when sick|while sick|if unwell|when unwell|perioperative|on days)",
                         re.IGNORECASE)


def _in_force(clause: Clause, mention: Mention, args: NoteDecisionArgs, decision: str) -> bool:
    """Whether an opposite decision counts: history, family and counterfactuals never do; a
    temporary hold only when deferral is wrong (continuing 'until review' is continuing);
    conditional allowances only for must-nots."""
    if mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL) or (
            mention.has(LATER) and decision != "increase"):
        return False  # a later step of a taper ('week 5: venlafaxine stopped') is planned
    if (clause.reporting or clause.past_dated) and not mention.deciding:
        return False  # 'LT4 75 mcg (same dose since 2023)' reports the past
    if decision == "stop" and mention.action is not None and _PAUSE.search(
            mention.action.text) and any(q.role == "after" and q.start >= mention.end
                                         for q in clause.quantities):
        return False  # 'may hold MTX 1-2 wk after [the vaccine]': a pause around a later event
    if mention.has(TEMPORARY) and decision in ("avoid", "stop") and not (
            decision == "stop" and "continue" in args.action
            and mention.cue(TEMPORARY).lower() in ("once", "after", "when")
            and not mention.has(CONDITIONAL)) and not (  # 'once X is established, stop it'
            decision == "stop" and {"continue", "keep_dose"} & set(args.action)
            and mention.cue(TEMPORARY).lower() in ("until", "till", "at least until")
            and not _event_bound(mention) and not mention.has(CONDITIONAL)) and not (
            # 'keep metformin held until GP review in 4 weeks' when it must go on
            args.deferral_contradicts and not _event_bound(mention) and (
                mention.cue(TEMPORARY).lower() in _DEFERRALS
                or mention.cue(TEMPORARY).lower() == "after" and any(
                    q.unit in ("d", "wk", "mo", "y") and q.start >= mention.end
                    for q in clause.quantities))):
        # 'hold canagliflozin during acute illness' is a sick-day rule; 'can be stopped after
        # 12 months' plans a stop date
        return False
    if decision == "resume" and "stop" in args.action and not args.permanent and (
            mention.has(TEMPORARY, CONDITIONAL) or _CONDITION_WORD.search(clause.text, mention.end)
    ) and not _WISH.search(clause.text, mention.end):  # not 'may restart it if she prefers'
        return False  # 'Resume lisinopril once Cr recovered' beside 'hold lisinopril': its end
    if decision == "stop" and {"continue", "keep_dose", "start"} & set(args.action) and (
            _IF_AFTER.match(clause.text, mention.end)):
        return args.strict  # 'hold metformin if acutely unwell': a sick-day rule
    if mention.has(CONDITIONAL) or decision in ("avoid", "stop") and _threshold_after(
            clause, mention):
        return args.strict
    return True


_IF_AFTER = re.compile(r"[^.;,]{0,30}?\b(?:if|when|whenever|should|in case of|during)\b",
                      re.IGNORECASE)
_PAUSE = re.compile(r"\b(?:(?:with)?h[oe]ld(?:ing)?|paus(?:e[ds]?|ing)|skip(?:ped|ping)?|"
                    r"interrupt(?:ed|ing)?)\b",
                    re.IGNORECASE)
# 'contraindicated at CrCl <= 30', 'stop below an eGFR of 30': a rule with its threshold.
_THRESHOLD = re.compile(r"\s*(?:\w+\s+){0,2}?(?:below|above|under|over)\s+"
                        r"(?:[A-Za-z-]+\s+){0,3}?\d|"
                        r"\s*(?:\w+\s+){0,2}?(?:at|below|above|under|over|if|when)\s+(?:an?\s+|the\s+)?"
                        r"(?:[A-Za-z0-9-]+\s+){0,2}?(?:of\s+)?(?:<=?|>=?|[≤≥]|less than|"
                        r"greater than|\d+(?:\.\d+)?\s*(?:ml/min|mmol/l|mg/dl)|"
                        r"(?<=below )\d|(?<=under )\d|(?<=above )\d|(?<=over )\d)",
                        re.IGNORECASE)


def _threshold_after(clause: Clause, mention: Mention) -> bool:
    """Whether the decision is bound to a threshold written after its verb."""
    start = max(mention.end, (mention.action.start + len(mention.action.text))
                if mention.action is not None else 0)
    return bool(_THRESHOLD.match(clause.text, start))


_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+|\+|&|/)\s*"
                        r"(?:(?:a|an|the|serum|urine)\s+)?", re.IGNORECASE)


def _list_schedule(clause: Clause, mention: Mention) -> tuple | None:
    """The schedule of a list of tests the mention belongs to, written once before its first
    item ('monthly creatinine, LFTs and ferritin') or after its last ('... and UPCR monthly')."""
    items = [m for m in clause.mentions if m.group == mention.group]
    index = next((i for i, m in enumerate(items) if m.start == mention.start), None)
    if index is None:
        return None
    first = last = index
    while first and _LIST_JOIN.fullmatch(clause.text, items[first - 1].end, items[first].start):
        first -= 1
    while last + 1 < len(items) and _LIST_JOIN.fullmatch(clause.text, items[last].end,
                                                         items[last + 1].start):
        last += 1
    if first == last:
        return None
    lead = _FREQUENCY_BEFORE.search(clause.text, max(0, items[first].start - 30),
                                    items[first].start)
    if lead:
        return schedule(lead.group(0))
    return schedule(clause.text[items[last].end:_segment_end(clause, items[last])])


_FREQUENCY_BEFORE = re.compile(r"\b(?:(?:once|twice)[- ])?(?:daily|weekly|monthly|yearly|annual|"
                               r"nightly|quarterly)\s+(?:[a-z-]+\s+)?$", re.IGNORECASE)


# A schedule by numbered days: 'day 1, then days 2 to 5', 'on days 2 and 3' (not a
# postoperative or cycle day, which dates a step rather than counting a course).
_NUMBERED_DAYS = re.compile(r"(?<!postoperative )(?<!post-op )(?<!cycle )(?<!\d )\bdays?\s+"
                            r"(\d{1,2})(?:\s*(?:-|to|through|thru|and|&)\s*(\d{1,2}))?\b"
                            r"(?!\s*(?:h|hrs?|hours?|min|minutes?|wks?|weeks?|mo|months?|days?|"
                            r"mg|mcg|g|ml|times?|doses?)\b)", re.IGNORECASE)


def _last_numbered_day(text: str) -> float | None:
    """The course length a day-numbered schedule gives (its last day), when it numbers at
    least two days."""
    found = [(int(m.group(1)), int(m.group(2) or m.group(1))) for m in _NUMBERED_DAYS.finditer(
        text)]
    if not found or len(found) < 2 and found[0][0] == found[0][1]:
        return None
    return float(max(end for _, end in found))


def _amount_issue(clause: Clause, mention: Mention, args: NoteDecisionArgs,
                  offer: bool = False) -> str | None:
    """None when the dose, timing and schedule asked for are stated; '' when one is missing;
    a description when one is stated wrong."""
    quantities = _dose_quantities(clause, mention)
    if args.dose is not None and args.dose.secondary is not None:  # 'Descovy, emtricitabine
        end = _segment_end(clause, mention)  # 200 mg tenofovir alafenamide 25 mg': both parts
        quantities += tuple(q for q in clause.quantities if mention.end <= q.start < end
                            and q.unit == "mg" and q not in quantities)
    per_day = schedule(clause.text[mention.end:_segment_end(clause, mention)])
    lead = _FREQUENCY_BEFORE.search(clause.text, 0, mention.start)
    if per_day is None and lead:  # 'monthly denosumab 60 mg injections'
        per_day = schedule(lead.group(0))
    if per_day is None and args.every is not None:  # 'then monthly creatinine, LFTs and
        per_day = _list_schedule(clause, mention)  # ferritin', '... ferritin and UPCR monthly'
    if per_day and args.every is not None and not args.every.accepts(per_day[0]) and (
            _TIME_OF_DAY_ONLY.match(clause.text[mention.end:], per_day[1])):
        per_day = None  # 'take it first thing in the morning' says when in the day, not how
        # often: no daily schedule against a weekly one
    per_day_value = per_day[0] if per_day and per_day[0] != "single" else None
    regimen = isinstance(per_day_value, float) and per_day_value <= 4
    if args.every is not None and not args.every.accepts(per_day[0] if per_day else None):
        found = per_day[0] if per_day else None
        if found is None or mention.has(LATER):
            return ""
        return f"schedule {found}"
    stated_routes = routes(clause.text[mention.end:_segment_end(clause, mention)])
    if args.route and stated_routes and stated_routes.isdisjoint(args.route):
        return f"route {', '.join(sorted(stated_routes))}"
    wrong_times = dose_times(clause.text[mention.end:_segment_end(clause, mention)])
    if wrong_times & set(args.not_at):
        return f"a dose {', '.join(sorted(wrong_times & set(args.not_at)))}"
    if args.course is not None:
        courses = [(q, r) for q in mention.quantities if q.role == "duration" and (
            r := args.course.reading(q, args.course.unit or "d", {})) is not None]
        if courses and not any(args.course.accepts(r) for _, r in courses):
            return f"course {_show(courses[0][0])}"
        last_day = _last_numbered_day(clause.text[mention.end:_segment_end(clause, mention)])
        if not courses and last_day and args.course.unit in (None, "d") and not (
                args.course.accepts((last_day, last_day))):
            return f"course {last_day:g} d"  # '200 mg day 1, then 100 mg days 2 to 5'
    if args.date_contradicts and args.timing is not None:
        dates = [q for q in clause.quantities if q.role == "date" and q.start >= mention.end]
        if dates and not any(args.timing.accepts(r) for r in (
                args.timing.reading(q, args.timing.unit, {}) for q in dates) if r is not None):
            return f"date {_show(dates[0])} from now"
    no_time = False  # no time written: the decision is not stated, but an offer of another
    if args.timing is not None or args.timing_after is not None:  # dose is still one
        if (timing := _timing_issue(clause, mention, args)) == "":
            if args.untimed_is_now and not offer and args.timing is not None and (
                    args.timing.accepts((0.0, 0.0))):
                pass  # 'Order HCV RNA.': no time written is now
            elif not offer:
                return ""
            else:
                no_time = True
        elif timing == "a later repeat":
            return ""  # 'repeat cryoglobulins 3 months after the DAA course'
        elif timing is not None:
            # another time (a later interval, 'once at goal') asserts nothing here, unless
            # the time is the decision ('hold dabigatran 2 days before' when 4 are needed)
            return timing if args.wrong_timing_contradicts else ""
    for amount, dimension in ((args.dose, "dose"),):
        if amount is None:
            continue
        if amount.as_needed_fails and any(
                not _NOT_PRN.search(clause.text[max(0, m.start() - 14):m.start()])
                for m in _AS_NEEDED.finditer(clause.text, mention.end,
                                             _segment_end(clause, mention))):
            return "as needed, not scheduled"  # 'cetirizine 20 mg daily as needed for hives'
        readings = []
        if amount.per_day:
            quantities = _day_total(clause, quantities)
        for quantity in quantities:
            if _LOADING.search(clause.text[max(0, quantity.start - 16):quantity.start]):
                continue  # 'loading 10 mg BID x 1 week, then 5 mg BID': not the regimen
            if _RULE_AFTER.match(clause.text, quantity.end):
                continue  # 'reduction to 2.5 mg BID requires two of age >= 80, ...': a rule
            if not quantity.unit and _COUNT_OF.match(clause.text, quantity.end):
                continue  # '1 pink nirmatrelvir 150 mg tablet': how many, not the dose
            if _REJECTED_AMOUNT.search(clause.text[max(0, quantity.start - 20):quantity.start]):
                continue  # '150 mg twice daily, not the 300 mg/100 mg standard pack'
            if quantity.role == "reference" and _TARGET_DOSE.search(
                    clause.text[max(0, quantity.start - 20):quantity.start]) and (
                    quantity.unit in ("mg", "mcg", "g", "iu")):
                quantity = dataclasses.replace(quantity, role="")  # 'target 16 mg daily'
            if quantity.role in ("from", "reference", "duration", "after", "other_period",
                                 "delta", "additional", "date", "later", "approximate",
                                 "factor") or (
                    quantity.role == "total" and not amount.limit) or (
                    quantity.role == "limit" and not amount.limit) or (
                    amount.scheduled_only and not regimen and not quantity.daily):
                continue
            reading = amount.reading(quantity, amount.unit, {},
                                     per_day_value if isinstance(per_day_value, float) else None)
            if reading is not None:
                readings.append((quantity, reading))
        strengths = {id(q) for q, _ in readings if _FORM_AFTER.match(clause.text, q.end)
                     and _NAMES_PRODUCT.fullmatch(clause.text, mention.end, q.start)}
        if len(strengths) == len(readings):
            strengths = set()  # 'prednisone 20 mg tablets - 70 mg PO daily': a strength that
            # names the product is no wrong dose beside the dose
        if not readings:
            if args.dose_required:
                return ""
            continue
        later_step = bool(_LATER_STEP.search(clause.text)) and not (
            amount.scheduled_only or args.all_steps)
        good = [q for q, r in readings if amount.fits(q, r)]
        if args.any_dose:
            return None if good and not no_time else ""
        bad = [q for q, r in readings if not amount.fits(q, r)
               and id(q) not in strengths and not later_step
               and (args.all_steps or LATER not in clause.quantity_status(q)
                    and not _after_later_change(mention, q))]
        if not good:
            return f"{dimension} {_show(bad[0])}" if bad else ""
        if bad and dimension == "dose":
            return f"{dimension} {_show(bad[0])} besides {_show(good[0])}"
    return "" if no_time else None


_TIME_OF_DAY_ONLY = re.compile(r"in the (?:morning|evening)|at night|at bedtime", re.IGNORECASE)
_RULE_AFTER = re.compile(r"\s*(?:[\w/]+\s+){0,2}?(?:requires|needs|would require|would need|"
                         r"is (?:only )?for|is reserved for|applies only|only applies)\b",
                         re.IGNORECASE)
_COUNT_OF = re.compile(r"\s+(?:pink|white|blue|yellow|orange|red|green|purple|peach|beige|brown|"
                       r"small|large|round|oval)\b", re.IGNORECASE)
_REJECTED_AMOUNT = re.compile(r"\b(?:not|rather than|instead of|never)\s+(?:the\s+|a\s+|an\s+)?$",
                              re.IGNORECASE)


def _after_later_change(mention: Mention, quantity: Quantity) -> bool:
    """'Bupropion 150 mg -> start today -> increase 300 mg after 1-2 wk': a dose written after
    a later step's change of it is that step's dose."""
    return any(a.kind in ("increase", "decrease") and a.start < quantity.start
               for a in mention.later if mention.action is not None
               and mention.action.start < a.start)


def _day_total(clause: Clause, quantities: tuple[Quantity, ...]) -> tuple[Quantity, ...]:
    """Doses split over the day, as one daily total: '20 mg on waking and 10 mg at 2 PM',
    '20 mg + 10 mg' (30 mg a day)."""
    parts = [q for q in quantities if q.unit in ("mg", "mcg", "g") and q.high is None
             and not q.daily and (q.role in ("", "from") or q.role == "delta" and re.search(
                 r"\+\s*$", clause.text[:q.start]))]
    run: list[Quantity] = []
    for quantity in parts:
        if run and not (quantity.unit == run[-1].unit and _NEXT_PART.fullmatch(
                clause.text, run[-1].end, quantity.start) and (
                _TIME_OF_DAY.match(clause.text, run[-1].end)
                or "+" in clause.text[run[-1].end:quantity.start])):
            if len(run) > 1:
                break
            run = []
        run.append(quantity)
    if len(run) < 2:
        return quantities
    total = Quantity(sum(q.value for q in run), run[0].unit, run[0].start, run[-1].end,
                     daily=True)
    return tuple(q for q in quantities if q not in run) + (total,)


_TIME_OF_DAY = re.compile(
    r"\s*(?:on\s+(?:waking|rising|awakening)|in\s+the\s+(?:morning|afternoon|evening)|"
    r"at\s+(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|h)|noon|midday|bedtime|night|lunch)|"
    r"(?:am|pm|qam|qpm|mane|nocte)\b)", re.IGNORECASE)
_NEXT_PART = re.compile(r"[^.;]{0,40}?(?:\band\b|\+|,)\s*", re.IGNORECASE)


# A strength names the product right after the drug: 'prednisone 20 mg tablets', 'XR 8 mg film'.
_NAMES_PRODUCT = re.compile(r"\s*(?:[A-Za-z-]+\s*)?[(:,]?\s*")
_FORM_AFTER = re.compile(r"\s*(?:[a-z-]+\s+)?(?:tablets?|tabs?|capsules?|caps?|films?|"
                         r"patch(?:es)?|vials?)\b", re.IGNORECASE)


# A single dose given again: 'a second 3 g sachet on day 3', 'repeat in 72 h'.
_REPEAT = re.compile(r"(?<!\bnot )(?<!\bno )(?<!\bnever )(?<!\bdon't )"  # not 'do not repeat it'
                     r"\b(?:second|2nd|third|repeat(?:ed)?|another|additional|again|day [2-9]|"
                     r"every (?:\d+|other)|q\s?\d+\s?(?:h|d)|x\s?[2-9]|[2-9] doses)\b",
                     re.IGNORECASE)
# A later step of a titration or taper: its doses are not the first step's.
_LATER_STEP = re.compile(r"\b(?:another|further|subsequent(?:ly)?|thereafter|then|next step|second|"
                         r"titrat\w*|up-?titrat\w*|"
                         r"(?:one|two|\d+) weeks? later|"
                         r"each step|every \d|over the following)\b|^\s*(?:from\s+)?(?:wk|wks|"
                         r"weeks?|days?|step|month)\s*(?:[2-9]|\d\d)", re.IGNORECASE)


def _dose_quantities(clause: Clause, mention: Mention) -> tuple[Quantity, ...]:
    """The quantities written as the mention's dose: those with a unit (not a count of doses:
    'as a single dose'), and a bare number only right after the name ('atorva 20 qd'), not
    'day 1' or '4 times the standard dose'."""
    return tuple(q for i, q in enumerate(mention.quantities)
                 if q.unit not in ("kg", "dose") and (
                     (q.unit and q.secondary is None or q.unit == "mg")
                     or (i == 0 and q.start - mention.end <= 3 and q.secondary is None)))


_BROAD = frozenset({"drug"})



def _segment_end(clause: Clause, mention: Mention) -> int:
    """Where the text that belongs to the mention ends: at the next concept of its group."""
    later = [m.start for m in clause.mentions if m.start >= mention.end and m is not mention
             and (m.group == mention.group or mention.group == "finding"
                  or DOSE_AFTER.match(clause.text, m.end))
             and not (m.concepts & mention.concepts - _BROAD and re.search(
                 r"\bof\s*$", clause.text[:m.start]))  # '1,000 mg of elemental calcium'
             and not (m.concepts == mention.concepts and re.search(
                 r"\(\s*$", clause.text[:m.start]))  # 'fosfomycin 3 g granules (Monurol)'
             and not re.fullmatch(r"\s*\([^()\d]*", clause.text[mention.end:m.start])
             and not _names_it_again(clause, mention, m)
             and not _occasion(clause, m)]
    # 'AAA (CT urogram): 4.6 cm': a concept in the label's own aside
    semicolon = clause.text.find(";", mention.end)  # '(CrCl 30-50; std 666 TID)'
    return min(later + ([semicolon] if semicolon >= 0 else []) + [len(clause.text)])


# 'at his arrival screening', 'during the 2023 check-up': when a value was measured
_AT_OCCASION = re.compile(r"\b(?:at|during)\s+(?:his|her|their|the|a|an)\s+(?:[\w-]+\s+){0,2}$",
                          re.IGNORECASE)


def _occasion(clause: Clause, mention: Mention) -> bool:
    """'eosinophils 0.6 at his arrival screening in 2023, ... 2.1 now': an unmeasured test
    named as the occasion of a value does not end the measured label's values."""
    return mention.group == "test" and bool(_AT_OCCASION.search(
        clause.text[:mention.start])) and not any(_concept_unit(c)[0] for c in mention.concepts)


def _names_it_again(clause: Clause, mention: Mention, later: Mention) -> bool:
    """'Descovy that is emtricitabine 200 mg tenofovir alafenamide 25 mg once a day': the
    drug named again by its parts, with no plan of its own, goes on with the same order."""
    return (later.action is None and bool(later.concepts & mention.concepts - _BROAD)
            and not re.search(r"[,;.]", clause.text[mention.end:later.start]))


def _timing_issue(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> str | None:
    """None when a time written after the concept in its clause fits 'timing' (from now) or
    'timing_after' (from another event); '' when none is written; else what was written."""
    if mention.action is not None and mention.action.negated:
        return ""  # 'do not stop apixaban after 3 months' commits to no time
    # a time under the decision's own condition is its time ('CT if stable, at 18-24 months')
    unshared = {CONDITIONAL, HISTORICAL, COUNTERFACTUAL} - (mention.statuses & {CONDITIONAL})
    times = [q for q in clause.quantities
             if (q.start >= mention.end or _in_time_label(clause.text, q, mention))
             and q.unit in ("h", "d", "wk", "mo", "y")
             and q.role not in ("from", "reference")
             and clause.quantity_status(q).isdisjoint(unshared)]
    if args.untimed_is_now:  # 'HCV RNA + -> DAA 8 wk': the time of the next step is its own
        bound = min([m.start for m in clause.mentions if m.start > mention.end
                     and m.group != mention.group] + [clause.text.find("->", mention.end) % (
                         len(clause.text) + 1)])
        times = [q for q in times if q.start < bound]
    if args.untimed_is_now and args.timing_after is None and times and all(
            q.role == "after" for q in times):
        return "" if args.timing is None else "a later repeat"
    if not times:
        return _repeat_timing(clause, mention, args)
    fits = []
    for quantity in times:
        amount = (args.timing_after if quantity.role == "after" and args.timing_after
                  else args.timing)
        reading = amount.reading(quantity, amount.unit, {}) if amount is not None else None
        fits.append(reading is not None and amount.accepts(reading, quantity.comparator)
                    and not (args.timing_total and quantity.role == "additional"))
    for (first, fit_first), (second, fit_second) in zip(
            zip(times, fits, strict=True), list(zip(times, fits, strict=True))[1:],
            strict=False):
        if fit_first != fit_second and _OR_BETWEEN.fullmatch(
                clause.text[first.end:second.start]):
            return f"time {_show(first)} or {_show(second)}"  # 'in 6 weeks or in 6 months'
    return None if any(fits) else f"time {_show(times[0])}"


def _repeat_timing(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> str | None:
    """'Recheck BMP daily while admitted': a test repeated on a schedule is first drawn one
    interval from now. '' when no schedule is written either."""
    every = schedule(clause.text[mention.end:])
    if args.timing is None or mention.action is None or mention.action.kind != "order" or (
            every is None or not isinstance(every[0], float) or every[0] <= 0):
        return ""
    days = 1 / every[0]
    reading = args.timing.reading(Quantity(days, "d", 0, 0), args.timing.unit, {})
    return None if reading is not None and args.timing.accepts(reading) else f"every {days:g} d"


def _in_time_label(text: str, quantity: Quantity, mention: Mention) -> bool:
    """A time in the label the concept's line opens with: '4-6 weeks: visit with PHQ-9', 'Labs
    in 1 week: BMP, Mg', 'At 3 months: clinic review' (not a time of another item before it)."""
    colon = text.find(":")
    return 0 < colon < mention.start and quantity.end <= colon and colon <= 40 and (
        _TIME_LABEL.fullmatch(text[:colon]))


_TIME_LABEL = re.compile(r"[\W\d]*(?:[A-Za-z/&-]+\s+){0,3}(?:in|at|within|by|after|over|next|"
                         r"for|~|about|around|approx)?\s*[\d\W]+(?:[a-z]+\.?)?[\s)*(]*"
                         r"(?:\([^()]*\)\s*)?", re.IGNORECASE)
_OR_BETWEEN = re.compile(r"[^.;]{0,12}\b(?:or|and)\b\s*(?:in|at|after|within|for)?\s*",
                         re.IGNORECASE)


_NOT_PRN = re.compile(r"\b(?:not|no|rather than|instead of|never)\b[\s,]*$", re.IGNORECASE)
_LOADING = re.compile(r"\b(?:loading|load|lead-in)(?: dose)?(?: of)?\s*:?\s*$", re.IGNORECASE)
_TARGET_DOSE = re.compile(r"\b(?:target|goal)(?: dose)?(?: of)?\s*(?:[:=~]|of)?\s*$",
                          re.IGNORECASE)
_AS_NEEDED = re.compile(r"\b(?:as needed|prn|p\.r\.n|when needed|if needed|on demand|"
                        r"as required)\b", re.IGNORECASE)
_DOSED = re.compile(r"\d\s*(?:(?:mg|mcg|g|iu|units?|tabs?|tablets?|capsules?|caps|puffs?|sprays?|"
                    r"milligrams?|micrograms?|grams?|bottles?|sachets?|packets?|kits?)\b|"
                    r"(?:ml|l|liters?|litres?|oz|ounces?)\b(?!\s*/))"  # '296 mL', not '30 mL/min'
                    r"|^\s*(?:dose ?pack|dosepak)\b",  # 'Medrol dose pack if no better'
                    re.IGNORECASE)
_DOSE_PACK = re.compile(r"\b(?:dose ?pack|dosepak)\b", re.IGNORECASE)  # a concept's own words


_REGIMEN_GLUE = re.compile(r"(?:[\s+,&/.()-]|\d+(?:\.\d+)?|\b(?:and|plus|then|with|bridge|"
                           r"bridging|overlap|target|goal|range|to)\b)*", re.IGNORECASE)


def _bare_regimen(clause: Clause) -> bool:
    """A plan item that only names drugs and their targets ('Enoxaparin + warfarin, target INR
    2-3') plans them, dose or not."""
    text, last = [], 0
    for m in clause.mentions:
        text.append(clause.text[last:m.start])
        last = max(last, m.end)
    glue = "".join(text) + clause.text[last:]
    drugs = [m for m in clause.mentions if m.group == "drug"]
    targeted = bool(re.search(r"\b(?:target|goal)\b", glue, re.IGNORECASE))
    return all(m.group == "drug" or targeted and m.group == "test" for m in clause.mentions) and (
        len(drugs) > 1 or targeted and drugs) and bool(_REGIMEN_GLUE.fullmatch(glue))


_ALSO_BEFORE = re.compile(r"\W*(?:also|plus)\s+", re.IGNORECASE)
_ALSO_AFTER = re.compile(r"\s+(?:as well|too)\W*", re.IGNORECASE)


class NoteNeverArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="What must never be planned.")
    action: list[str] = Field(
        default=["start", "resume", "continue", "increase", "endorse", "allow", "implicit"],
        description="Decisions that count as planning it ('implicit': a verbless plan line).")
    allow_contingency: bool = Field(default=False, description=(
        "A plan with an explicit trigger for later ('if the score reaches 2, start a DOAC') "
        "is allowed; by default even conditional allowances fail."))
    contingency_on: list[str] = Field(default_factory=list, description=(
        "With allow_contingency: only triggers naming one of these concepts are allowed "
        "('naltrexone once he is off opioids', not 'naltrexone if cravings persist')."))
    contingency_after: Amount | None = Field(default=None, description=(
        "With allow_contingency: a trigger that states a time must state one in this range "
        "('if stable at 18-24 months, stop imaging', not 'if stable at 12 months')."))
    instead_of: list[str] = Field(default_factory=list, description=(
        "Only an offer of the concept in place of one of these counts, however hedged "
        "('LDCT may replace the follow-up CT'); naming it for later or declining it does not."))


_POSITIVE_PLAN = frozenset({"start", "order", "endorse", "resume", "continue"})
_IMPLICIT_START = NoteDecisionArgs(concept=["_"], action=["start"])


def _own_part(text: str, start: int) -> str:
    """The text after a concept up to a condition it is under: in 'Adrenal biopsy if the
    washout is indeterminate' the 'is' belongs to the condition, not to the biopsy."""
    condition = _CONDITION_WORD.search(text, start)
    return text[start:condition.start() if condition else len(text)]


_CONDITION_WORD = re.compile(r"\b(?:if|unless|when|once|until|should the)\b", re.IGNORECASE)
# 'Skin-prick tests ... do not identify a cause': a sentence about the test, not a plan line.
_PREDICATE = re.compile(r"\b(?:is|are|was|were|do|does|did|has|have|had|will|would|can|could|"
                        r"cannot|should|may|might|must|not|rarely|seldom|\w+n['’]t|"
                        r"drive[sn]?|drove|caused?|causes|explains?|contribute[sd]?|led|leads?|"
                        r"precipitated|provoked|induced|accounts? for|adds|increases|raises|"
                        r"carries|offers|provides|doubles|reduces|lowers)\b",
                        re.IGNORECASE)  # '... ibuprofen 400 mg TID ... drive the AKI': a cause


@primitive("note_never", NoteNeverArgs, {FILE})
def note_never(ctx: GradingContext, args: NoteNeverArgs) -> CheckpointResult:
    """A must-not: the note never plans, allows or offers it, even hedged or conditionally."""
    text = _text(ctx, args.source)
    label = args.label or f"no {args.concept[0]}"
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    if args.instead_of:
        return _never_instead(note, args, label)
    for clause, mention in _mentions(note, args.concept):
        if clause.reporting or mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL):
            continue
        if args.allow_contingency and (mention.has(CONDITIONAL) or mention.has(TEMPORARY) and (
                clause.section != "plan" or mention.cue(TEMPORARY) not in ("until", "till")
                or not _DOSED.search(clause.text[mention.end:_segment_end(clause, mention)]))
                or (  # 'prednisone 10 mg every other day until the visit': a dosed bridge is a plan
                args.contingency_on and _trigger_after(clause, mention, args.contingency_on))
                ) and not any(
                c.category == ALTERNATIVE and _WISH.search(c.text) for c in mention.cues) and (
                not args.contingency_on or _names_in_condition(clause, args.contingency_on)) and (
                args.contingency_after is None or _times_fit(clause, args.contingency_after)):
            continue
        decision = mention.decision and _listed_to_avoid(clause, mention, mention.decision)
        if decision is None and "implicit" in args.action and not mention.negated and (
                mention.group == "test" or _DOSED.search(
                    clause.text[mention.end:_segment_end(clause, mention)])
                or _DOSE_PACK.search(mention.text)) and (
                _decision(clause, mention, _IMPLICIT_START) == "start") and not (
                _PREDICATE.search(_own_part(clause.text, mention.end))):
            decision = "implicit"
        if decision is None and "implicit" in args.action and not mention.negated and (
                clause.section == "plan" and clause.kind == "item" and mention.group == "drug"
                and not mention.has(POSSIBLE, ALTERNATIVE, CONDITIONAL)
                and _bare_regimen(clause)):
            decision = "implicit"  # '• Enoxaparin bridge + warfarin, target INR 2-3'
        if decision is None and "implicit" in args.action and not mention.negated and (
                _ALSO_BEFORE.fullmatch(clause.text[:mention.start])
                or _ALSO_AFTER.fullmatch(clause.text[mention.end:])):
            decision = "implicit"  # '2. Also SUTAB.', 'SUTAB as well.': one more thing to take
        if decision is None and mention.has(POSSIBLE, ALTERNATIVE) and not mention.negated and not (
                mention.has(ATTRIBUTE) and not _ITS_USE.match(clause.text, mention.end)):
            decision = "endorse"  # not 'colchicine levels can rise'; 'X use may help' offers X
        offered = mention.has(POSSIBLE, ALTERNATIVE) and any(  # 'could be stopped, or
            a.kind in args.action and not a.negated for a in mention.later)  # continued'
        then = any(a.decision in args.action and not a.negated and (
            _THEN_BEFORE.search(clause.text, 0, a.start)  # 'ultrasound ... until SVR, then stop'
            or _ON_A_DATE.match(clause.text, a.start)) for a in mention.later)
        if decision in args.action or offered or then or decision == "allow" and not set(
                args.action).isdisjoint(_POSITIVE_PLAN):  # allowing a must-never plans it
            return CheckpointResult(False, f"plans or allows it ('{label}'): "
                                           f"\"{clause.text[:90]}\"")
    return CheckpointResult(True, f"'{label}' respected")


_ITS_USE = re.compile(r"[\s-]+use\b", re.IGNORECASE)
# 'hold methotrexate this week and restart 22.5 mg weekly next week': a later step on a date,
# not on a condition.
_ON_A_DATE = re.compile(r"\w+\b(?:(?!\b(?:if|when|once|after|unless|provided|until)\b)"
                        r"(?:[^.;:]|(?<=\d)\.(?=\d)))*?"
                        r"\b(?:next (?:week|month)|in (?:\d+|one|two|three|four|a) "
                        r"(?:days?|weeks?|wks?))\b", re.IGNORECASE)
_THEN_BEFORE = re.compile(r"\b(?:then|thereafter|after that)[\s,]*$", re.IGNORECASE)
# 'X may replace Y', 'X is an acceptable alternative to Y', 'X instead of Y'.
_IN_PLACE_OF = re.compile(r"\b(?:replac\w*|instead of|in place of|alternatives? to|"
                          r"substitut\w*|in lieu of|rather than|swap\w*)\b", re.IGNORECASE)


def _names_in_condition(clause: Clause, concepts: Iterable[str]) -> bool:
    """Whether the clause's condition names one of the concepts: 'once he is off oxycodone,
    naltrexone', not 'if he expects heavy drinking, naltrexone, and skip oxycodone that day'."""
    spans = [_to_the_arrow(clause.text, m.span()) for m in _CONDITION_SPAN.finditer(clause.text)]
    return any(a <= m.start < b for m in clause.mentions if set(m.concepts) & set(concepts)
               for a, b in spans) or not spans and _names_any(clause, concepts)


def _to_the_arrow(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """'admit if dyspnea, confusion, Hb < 8 or parasitemia >= 10% -> exchange transfusion': a
    condition written before an arrow lists its triggers up to the arrow, commas and all."""
    arrow = text.find(" -> ", span[1])
    if arrow < 0 or ";" in text[span[1]:arrow]:
        return span
    return span[0], arrow


def _trigger_after(clause: Clause, mention: Mention, concepts: Iterable[str]) -> bool:
    """'a PDE5 inhibitor can be reconsidered once cardiology stops the nitrate': the offer's
    trigger, written after it, names what the contingency is on."""
    return any(a <= m.start < b for match in _CONDITION_SPAN.finditer(clause.text, mention.end)
               for a, b in [match.span()] for m in clause.mentions
               if not set(m.concepts).isdisjoint(concepts))


_CONDITION_SPAN = re.compile(r"\b(?:if|unless|once|when|after|until|provided|only)\b[^,;:]*"
                             # 'if dyspnea, Hb < 8, or parasitemia >= 10% -> ...': a condition
                             # that lists its triggers goes on to the list's last one
                             r"(?:(?:,\s*(?:(?!->)[^,;:]){1,60}?)*?,?\s+or\b(?:(?!->)[^,;:])*)?",
                             re.IGNORECASE)


def _never_instead(note: Note, args: NoteNeverArgs, label: str) -> CheckpointResult:
    """The concept is never offered in place of an instead_of concept named after it."""
    for clause, mention in _mentions(note, args.concept):
        if clause.reporting or mention.negated or mention.has(HISTORICAL, FAMILY,
                                                              COUNTERFACTUAL):
            continue
        replaced = next((m for m in clause.mentions if m.start >= mention.end
                         and not set(args.instead_of).isdisjoint(m.concepts)
                         and set(args.concept).isdisjoint(m.concepts)), None)
        if replaced is not None and _IN_PLACE_OF.search(clause.text, mention.end,
                                                         replaced.start):
            return CheckpointResult(False, f"offers it in place of another ('{label}'): "
                                           f"\"{clause.text[:90]}\"")
    return CheckpointResult(True, f"'{label}' respected")


# A wish is no clinical trigger: 'after apixaban ... if he prefers' still offers the drug.
_WISH = re.compile(r"\b(?:prefer|preferred|rather|wish|wishes)", re.IGNORECASE)


def _times_fit(clause: Clause, amount: Amount) -> bool:
    """Whether the times a clause states (durations or dates from now) fit the amount, or it
    states none."""
    times = [q for q in clause.quantities if q.unit in ("d", "wk", "mo", "y")]
    readings = [amount.reading(q, amount.unit, {}) for q in times]
    readings = [r for r in readings if r is not None]
    return not readings or any(amount.accepts(r) for r in readings)


class NoteContingencyArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="The next-step agent (any concept).")
    dose: Amount | None = Field(default=None, description="Dose, checked only when stated.")
    dose_values: list[float] = Field(default_factory=list, description=(
        "The labeled doses in dose's unit (a loading and a maintenance dose): every dose "
        "stated must be one of them ('400 mg then 200 mg' fails a 600/300 mg regimen)."))
    every: Schedule | None = Field(default=None, description="Schedule, checked when stated.")
    action: list[str] = Field(default_factory=list, description=(
        "Only these decisions, under a trigger, count ('increase': 'if she has a fever, double "
        "her hydrocortisone' is a sick-day rule)."))


_NOT_NOW = re.compile(r"\b(?:today|now|yet|at this time|at this point|for now|at present|"
                      r"currently|at this visit)\b", re.IGNORECASE)


_TRAILING_TRIGGER = re.compile(r"\b(?:once|when|as soon as)\b", re.IGNORECASE)
_INDICATED = re.compile(r"(?:is |are )?(?:indicated|warranted)")
# An offer to start now, whatever the wish it is hedged on ('may be started now if she prefers').
_STARTS_NOW = re.compile(r"(?<!\bnot )(?<!\bnot started )(?<!\bnot starting )(?<!\bnot given )"
                         r"\b(?:now|today|right away|immediately|straight away|at once|"
                         r"instead of (?:up-?dosing|waiting))\b", re.IGNORECASE)  # not 'not now'


@primitive("note_contingency", NoteContingencyArgs, {FILE})
def note_contingency(ctx: GradingContext, args: NoteContingencyArgs) -> CheckpointResult:
    """The note names a next step for later (a plan with a trigger, 'next step'), without
    starting it now, negating it, or stating a wrong dose or schedule for it."""
    text = _text(ctx, args.source)
    label = args.label or f"{args.concept[0]} as the next step"
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    named, problem = False, ""
    for clause, mention in _mentions(note, args.concept):
        if clause.reporting or mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL):
            continue
        if args.action and (mention.decision not in args.action
                            or not mention.has(CONDITIONAL, TEMPORARY, LATER)):
            continue
        later = mention.has(CONDITIONAL, TEMPORARY, LATER) or "next" in clause.text.lower() or any(
            w in clause.text.lower() for w in ("if ", "should ", "fail", "persist", "later",
                                               "future", "escalat", "step")) or bool(
            _TRAILING_TRIGGER.search(clause.text, mention.end))  # 'start X once D is replete'
        if mention.negated or mention.decision in ("avoid", "stop"):
            if not _NOT_NOW.search(clause.text) and not mention.has(TEMPORARY):
                # 'not starting it today', 'no antiresorptive until D is replete' defer it
                problem = problem or f"rejects it: \"{clause.text[:90]}\""
            continue
        if mention.decision == "endorse" and mention.action is not None and (
                _INDICATED.fullmatch(mention.action.text)) and not _STARTS_NOW.search(
                clause.text):
            continue  # 'an antiresorptive is indicated': an assessment, neither now nor later
        if mention.decision in ("start", "resume", "endorse", "allow") and (
                not later and not mention.has(POSSIBLE) or _STARTS_NOW.search(clause.text)
                and not mention.has(CONDITIONAL, TEMPORARY, LATER)):
            problem = problem or f"starts it now: \"{clause.text[:90]}\""
            continue
        if args.dose is not None:
            readings = [(q, args.dose.reading(q, args.dose.unit, {})) for q in mention.quantities
                        if q.role not in ("limit", "reference", "duration")]
            readings = [(q, r) for q, r in readings if r is not None]
            if readings and not any(args.dose.accepts(r, q.comparator) for q, r in readings):
                problem = problem or f"dose {_show(readings[0][0])}: \"{clause.text[:80]}\""
                continue
            off_label = [q for q, r in readings if args.dose_values and not all(
                any(abs(x - v) <= 1e-6 * max(1.0, v) for v in args.dose_values) for x in r)]
            if off_label:
                problem = problem or f"dose {_show(off_label[0])}: \"{clause.text[:80]}\""
                continue
        if args.every is not None:
            found = schedule(clause.text[mention.end:])
            if found is not None and not args.every.accepts(found[0]):
                problem = problem or f"schedule {found[0]}: \"{clause.text[:80]}\""
                continue
        named = True
    if problem:
        return CheckpointResult(False, f"'{label}' {problem}")
    if named:
        return CheckpointResult(True, f"names '{label}'")
    return CheckpointResult(False, f"does not name '{label}'")
