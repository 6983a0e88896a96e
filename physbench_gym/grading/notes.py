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

import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import Field, model_validator

from physbench_gym.grading.core import FILE, Args, CheckpointResult, GradingContext, primitive
from physbench_gym.grading.lexicon import concept as lexicon_concept
from physbench_gym.grading.quantities import Quantity, convert, schedule
from physbench_gym.grading.reader import (
    ALTERNATIVE,
    CONDITIONAL,
    COUNTERFACTUAL,
    FAMILY,
    HISTORICAL,
    LATER,
    POSSIBLE,
    TEMPORARY,
    Clause,
    Mention,
    Note,
    read_note,
)

Source = Literal["note", "message"]
NOT_COMMITTED = (POSSIBLE, CONDITIONAL, COUNTERFACTUAL, ALTERNATIVE, HISTORICAL, FAMILY)
# What satisfies a decision besides its own verb, and what contradicts it by default.
SATISFIES = {"start": {"start", "endorse", "resume"}, "resume": {"resume", "start", "endorse"},
             "order": {"order", "endorse", "refer"}, "refer": {"refer", "endorse", "order"},
             "continue": {"continue", "keep_dose", "endorse", "resume"},
             "increase": {"increase"}, "decrease": {"decrease"}, "stop": {"stop"},
             "avoid": {"avoid"}, "keep_dose": {"keep_dose", "continue"},
             "switch": {"switch", "stop"}, "counsel": {"counsel"}}
OPPOSITES = {"start": {"avoid", "stop"}, "resume": {"avoid", "stop"},
             "order": {"avoid"}, "refer": {"avoid"},
             "continue": {"stop", "avoid", "switch"},
             "increase": {"decrease", "stop", "keep_dose", "avoid"},
             "decrease": {"increase", "keep_dose"},
             "stop": {"start", "resume", "continue", "increase", "keep_dose", "endorse"},
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


def _read(ctx: GradingContext, text: str) -> Note:
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
    limit: bool = Field(default=False, description=(
        "The amount is itself a limit ('no more than 8 mmol/L per 24 h'): values written as "
        "maxima or with a comparator are what the note states."))

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
        else:
            low = convert(quantity.values[0], quantity.unit, target, {**factors, **self.units})
            high = convert(quantity.values[1], quantity.unit, target, {**factors, **self.units})
            if low is None or high is None:
                return None
        if self.per_day and per_day:
            low, high = low * per_day, high * per_day
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
    contradicts: bool = Field(default=True, description=(
        "Another value stated as current fails the check (off for quantities with several "
        "true values, such as the T-scores of different sites)."))


@primitive("note_value", NoteValueArgs, {FILE})
def note_value(ctx: GradingContext, args: NoteValueArgs) -> CheckpointResult:
    """The note states the concept's value (any accepted unit) and no other current value."""
    text = _text(ctx, args.source)
    label = args.label or args.concept[0]
    if text is None:
        return CheckpointResult(False, "no note")
    note = _read(ctx, text)
    stated, wrong = False, []
    for concept_id in args.concept:
        unit, factors = _concept_unit(concept_id)
        for clause, mention in note.mentions(concept_id):
            if mention.negated or mention.has(CONDITIONAL, COUNTERFACTUAL, FAMILY):
                continue
            for quantity in _values_of(clause, mention):
                reading = args.reading(quantity, unit, factors)
                if reading is None:
                    continue
                if args.accepts(reading, quantity.comparator):
                    if quantity.role not in ("reference",) and not (
                            quantity.role == "limit" and not quantity.comparator):
                        stated = True
                elif _current(clause, quantity):
                    wrong.append(f"{_show(quantity)} in \"{clause.text[:80]}\"")
    if wrong and args.contradicts:
        return CheckpointResult(False, f"{label} stated as {wrong[0]} (expected "
                                       f"{args.describe()})")
    if stated:
        return CheckpointResult(True, f"{label} {args.describe()} stated")
    return CheckpointResult(False, f"{label} {args.describe()} not stated")


def _values_of(clause: Clause, mention: Mention) -> Iterable[Quantity]:
    """The value written for a measured concept: the first number after its label that is not
    an earlier value, a limit or a reference ('TSH 4.1 -> 8.9', 'CHA2DS2-VASc 0 (age 42...)'),
    or the result of a formula written out ('FIB-4 = 45 x 48 / ... = 1.89'); thresholds and
    earlier values come along so that they can be told apart."""
    own = mention.quantities or (clause.quantities if len(clause.mentions) == 1 else ())
    results = [q for q in own if re.search(r"(?:=|about|approximately|approx|~)\s*$",
                                           clause.text[max(0, q.start - 15):q.start])]
    stated = [q for q in own if q.role not in ("from", "limit", "reference", "duration")
              and not q.comparator]
    chosen = results[-1:] or stated[:1]
    return [q for q in own if q in chosen or q.role in ("from", "limit", "reference")
            or q.comparator]


def _current(clause: Clause, quantity: Quantity) -> bool:
    """A value stated as the present one: not old, not a threshold, goal or earlier value."""
    if quantity.role in ("from", "limit", "reference", "duration") or quantity.comparator:
        return False
    return clause.quantity_status(quantity).isdisjoint(
        {HISTORICAL, CONDITIONAL, COUNTERFACTUAL, POSSIBLE, FAMILY})


def _show(quantity: Quantity) -> str:
    value = f"{quantity.value:g}" + (f"-{quantity.high:g}" if quantity.high is not None else "")
    return f"{value} {quantity.unit}".strip()


class NoteFindingArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="The finding (any of these concepts).")
    opposite: list[str] = Field(default_factory=list,
                                description="Concepts whose affirmation contradicts it.")
    near: list[str] = Field(default_factory=list, description=(
        "When given, the finding counts only in a clause that also names one of these "
        "concepts (a generic word such as 'elevated' needs its subject)."))


@primitive("note_finding", NoteFindingArgs, {FILE})
def note_finding(ctx: GradingContext, args: NoteFindingArgs) -> CheckpointResult:
    """The note affirms a finding or diagnosis ('likely' counts, 'possible' does not), never
    denies it and never affirms its opposite."""
    text = _text(ctx, args.source)
    label = args.label or args.concept[0]
    if text is None:
        return CheckpointResult(False, "no note")
    note = _read(ctx, text)
    affirmed, denied = False, ""
    for clause, mention in _mentions(note, args.concept):
        if args.near and not _names_any(clause, args.near):
            continue
        if mention.has(COUNTERFACTUAL, FAMILY, CONDITIONAL):
            continue
        if mention.negated:
            if not mention.has(HISTORICAL, POSSIBLE):
                denied = denied or clause.text
        elif not mention.has(POSSIBLE, ALTERNATIVE):
            affirmed = True
    opposed = ""
    for clause, mention in _mentions(note, args.opposite):
        if mention.has(*NOT_COMMITTED) or args.near and not _names_any(clause, args.near):
            continue
        if mention.negated:
            affirmed = True  # 'not eligible' affirms ineligible; 'not provoked', unprovoked
        else:
            opposed = opposed or clause.text
    if denied or opposed:
        return CheckpointResult(False, f"contradicts '{label}': \"{(denied or opposed)[:90]}\"")
    if affirmed:
        return CheckpointResult(True, f"states '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


def _mentions(note: Note, concepts: Iterable[str]) -> list[tuple[Clause, Mention]]:
    seen: dict[tuple[int, int], tuple[Clause, Mention]] = {}
    for concept_id in concepts:
        for clause, mention in note.mentions(concept_id):
            seen.setdefault((clause.index, mention.start), (clause, mention))
    return [seen[key] for key in sorted(seen)]


def _names_any(clause: Clause, concepts: Iterable[str]) -> bool:
    wanted = set(concepts)
    return any(not wanted.isdisjoint(m.concepts) for m in clause.mentions)


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
    note = _read(ctx, text)
    wanted, others = set(args.category), set(args.others)
    assigned, wrong = False, ""
    for clause in note:
        if not _names_any(clause, args.subject):
            continue
        levels = [m for m in clause.mentions
                  if not (wanted | others).isdisjoint(m.concepts) and not m.negated
                  and not m.has(COUNTERFACTUAL, CONDITIONAL, POSSIBLE, HISTORICAL, FAMILY)]
        kinds = {frozenset(m.concepts & (wanted | others)) for m in levels}
        if len(kinds) != 1:
            continue
        if not wanted.isdisjoint(levels[0].concepts):
            assigned = True
        else:
            wrong = wrong or clause.text
    if wrong:
        return CheckpointResult(False, f"another category than '{label}': \"{wrong[:90]}\"")
    if assigned:
        return CheckpointResult(True, f"states '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


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
    every: Schedule | None = Field(default=None, description="The schedule it must state.")
    strict: bool = Field(default=False, description=(
        "A must-not: hedged, optional or conditional allowances of an opposite also fail."))
    wrong_dose_contradicts: bool = Field(
        default=True, description="A committed clause with another dose contradicts it.")
    deferral_contradicts: bool = Field(
        default=False, description="A temporary hold ('until ...') of it contradicts it.")


@primitive("note_decision", NoteDecisionArgs, {FILE})
def note_decision(ctx: GradingContext, args: NoteDecisionArgs) -> CheckpointResult:
    """The note commits to the decision (with its dose, timing and schedule when asked) and
    never to its opposite, a wrong dose, or an untriggered alternative against it."""
    text = _text(ctx, args.source)
    label = args.label or f"{args.action[0]} {args.concept[0]}"
    if text is None:
        return CheckpointResult(False, "no note")
    note = _read(ctx, text)
    accepted = set().union(*(SATISFIES.get(a, {a}) for a in args.action))
    opposite = set(args.opposite) if args.opposite is not None else set().union(
        *(OPPOSITES.get(a, set()) for a in args.action)) - accepted
    asserted, problem = False, ""
    for clause, mention in _mentions(note, args.concept):
        for index, decision in enumerate(_decisions(clause, mention, args)):
            later = index > 0 or mention.decision is None and bool(mention.later)
            if decision in opposite and _in_force(mention, args) and not later:
                problem = problem or f"contradicts '{label}': \"{clause.text[:90]}\""
                continue
            if decision not in accepted or not _committed(clause, mention):
                continue
            issue = _amount_issue(clause, mention, args)
            if issue is None:
                asserted = True
            elif issue and args.wrong_dose_contradicts:
                problem = problem or f"{issue} in \"{clause.text[:80]}\""
    if problem:
        return CheckpointResult(False, problem)
    if asserted or not args.required:
        return CheckpointResult(True, f"states '{label}'" if asserted
                                else f"nothing contradicts '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


def _decisions(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> list[str]:
    """The decision on a mention, then those of verbs left without object after it
    ('aspirin, held since admission, should be resumed now')."""
    first = _decision(clause, mention, args)
    later = [a.decision for a in mention.later]
    return ([first] if first is not None else []) + later


def _decision(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> str | None:
    decision = mention.decision
    if decision is not None:
        return decision
    if clause.reporting or mention.has(HISTORICAL):
        return None
    plan_line = clause.section in ("plan", "body", "assessment") or clause.kind == "row"
    if plan_line and (mention.quantities or args.dose is None):
        return next((a for a in args.action if a in IMPLICIT_OK), None)
    return None


def _committed(clause: Clause, mention: Mention) -> bool:
    return not clause.reporting and not mention.has(*NOT_COMMITTED)


def _in_force(mention: Mention, args: NoteDecisionArgs) -> bool:
    """Whether an opposite decision counts: history, family and counterfactuals never do; a
    temporary hold only when deferral is wrong; conditional allowances only for must-nots."""
    if mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL):
        return False
    if mention.has(TEMPORARY) and not args.deferral_contradicts:
        return False
    if mention.has(CONDITIONAL):
        return args.strict
    return True


def _amount_issue(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> str | None:
    """None when the dose, timing and schedule asked for are stated; '' when one is missing;
    a description when one is stated wrong."""
    quantities = _dose_quantities(clause, mention)
    per_day = schedule(clause.text[mention.end:_segment_end(clause, mention)])
    per_day_value = per_day[0] if per_day and per_day[0] != "single" else None
    if args.every is not None and not args.every.accepts(per_day[0] if per_day else None):
        found = per_day[0] if per_day else None
        if found is None or mention.has(LATER):
            return ""
        return f"schedule {found}"
    if args.timing is not None or args.timing_after is not None:
        issue = _timing_issue(clause, mention, args)
        if issue is not None:
            return issue
    for amount, dimension in ((args.dose, "dose"),):
        if amount is None:
            continue
        readings = []
        for quantity in quantities:
            if quantity.role in ("from", "reference", "duration", "after", "other_period",
                                 "total", "delta", "additional", "date") or (
                    quantity.role == "limit" and not amount.limit):
                continue
            reading = amount.reading(quantity, amount.unit, {},
                                     per_day_value if isinstance(per_day_value, float) else None)
            if reading is not None:
                readings.append((quantity, reading))
        if not readings:
            if args.dose_required:
                return ""
            continue
        later_step = bool(_LATER_STEP.search(clause.text))
        good = [q for q, r in readings if amount.accepts(r, q.comparator)]
        bad = [q for q, r in readings if not amount.accepts(r, q.comparator)
               and LATER not in clause.quantity_status(q) and not later_step]
        if not good:
            return f"{dimension} {_show(bad[0])}" if bad else ""
        if bad and dimension == "dose":
            return f"{dimension} {_show(bad[0])} besides {_show(good[0])}"
    return None


# A later step of a titration or taper: its doses are not the first step's.
_LATER_STEP = re.compile(r"\b(?:another|further|subsequent(?:ly)?|thereafter|then|next step|"
                         r"each step|every \d|over the following)\b", re.IGNORECASE)


def _dose_quantities(clause: Clause, mention: Mention) -> tuple[Quantity, ...]:
    """The quantities written as the mention's dose: those with a unit, and a bare number only
    right after the name ('atorva 20 qd'), not 'day 1' or '4 times the standard dose'."""
    return tuple(q for i, q in enumerate(mention.quantities)
                 if q.unit or (i == 0 and q.start - mention.end <= 3))


def _segment_end(clause: Clause, mention: Mention) -> int:
    """Where the text that belongs to the mention ends: at the next concept."""
    later = [m.start for m in clause.mentions if m.start >= mention.end]
    return min(later) if later else len(clause.text)


def _timing_issue(clause: Clause, mention: Mention, args: NoteDecisionArgs) -> str | None:
    """None when a time written after the concept in its clause fits 'timing' (from now) or
    'timing_after' (from another event); '' when none is written; else what was written."""
    times = [q for q in clause.quantities
             if q.start >= mention.end and q.unit in ("d", "wk", "mo", "y")
             and q.role not in ("from", "reference")
             and clause.quantity_status(q).isdisjoint({CONDITIONAL, HISTORICAL, COUNTERFACTUAL})]
    if not times:
        return ""
    for quantity in times:
        amount = (args.timing_after if quantity.role == "after" and args.timing_after
                  else args.timing)
        if amount is None:
            continue
        reading = amount.reading(quantity, amount.unit, {})
        if reading is not None and amount.accepts(reading, quantity.comparator):
            return None
    return f"time {_show(times[0])}"


class NoteNeverArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="What must never be planned.")
    action: list[str] = Field(
        default=["start", "resume", "continue", "increase", "endorse", "implicit"],
        description="Decisions that count as planning it ('implicit': a verbless plan line).")
    allow_contingency: bool = Field(default=False, description=(
        "A plan with an explicit trigger for later ('if the score reaches 2, start a DOAC') "
        "is allowed; by default even conditional allowances fail."))


@primitive("note_never", NoteNeverArgs, {FILE})
def note_never(ctx: GradingContext, args: NoteNeverArgs) -> CheckpointResult:
    """A must-not: the note never plans, allows or offers it, even hedged or conditionally."""
    text = _text(ctx, args.source)
    label = args.label or f"no {args.concept[0]}"
    if text is None:
        return CheckpointResult(False, "no note")
    note = _read(ctx, text)
    for clause, mention in _mentions(note, args.concept):
        if clause.reporting or mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL):
            continue
        if args.allow_contingency and mention.has(CONDITIONAL, TEMPORARY):
            continue
        decision = mention.decision
        if decision is None and "implicit" in args.action and clause.section in (
                "plan", "body") and mention.quantities and not mention.negated:
            decision = "implicit"
        if decision is None and mention.has(POSSIBLE, ALTERNATIVE) and not mention.negated:
            decision = "endorse"
        if decision in args.action:
            return CheckpointResult(False, f"plans or allows it ('{label}'): "
                                           f"\"{clause.text[:90]}\"")
    return CheckpointResult(True, f"'{label}' respected")


class NoteContingencyArgs(NoteArgs):
    concept: list[str] = Field(min_length=1, description="The next-step agent (any concept).")
    dose: Amount | None = Field(default=None, description="Dose, checked only when stated.")
    every: Schedule | None = Field(default=None, description="Schedule, checked when stated.")


@primitive("note_contingency", NoteContingencyArgs, {FILE})
def note_contingency(ctx: GradingContext, args: NoteContingencyArgs) -> CheckpointResult:
    """The note names a next step for later (a plan with a trigger, 'next step'), without
    starting it now, negating it, or stating a wrong dose or schedule for it."""
    text = _text(ctx, args.source)
    label = args.label or f"{args.concept[0]} as the next step"
    if text is None:
        return CheckpointResult(False, "no note")
    note = _read(ctx, text)
    named, problem = False, ""
    for clause, mention in _mentions(note, args.concept):
        if clause.reporting or mention.has(HISTORICAL, FAMILY, COUNTERFACTUAL):
            continue
        later = mention.has(CONDITIONAL, TEMPORARY) or "next" in clause.text.lower() or any(
            w in clause.text.lower() for w in ("if ", "should ", "fail", "persist", "later",
                                               "future", "escalat", "step"))
        if mention.negated or mention.decision in ("avoid", "stop"):
            problem = problem or f"rejects it: \"{clause.text[:90]}\""
            continue
        if mention.decision in ("start", "resume") and not later:
            problem = problem or f"starts it now: \"{clause.text[:90]}\""
            continue
        if args.dose is not None:
            readings = [(q, args.dose.reading(q, args.dose.unit, {})) for q in mention.quantities
                        if q.role not in ("limit", "reference", "duration")]
            readings = [(q, r) for q, r in readings if r is not None]
            if readings and not any(args.dose.accepts(r, q.comparator) for q, r in readings):
                problem = problem or f"dose {_show(readings[0][0])}: \"{clause.text[:80]}\""
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
