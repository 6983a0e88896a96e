"""Documentation primitives: what the deliverable note states, read clause by clause.

A value must be attached to its label; a decision must be asserted plainly (not hedged,
conditional or historical), not negated, and not contradicted elsewhere in the note; a note
that asserts both a decision and its opposite fails, which is what defeats keyword stuffing.
"""

from __future__ import annotations

import re

from pydantic import Field

from physbench_gym.grading.core import FILE, Args, CheckpointResult, GradingContext, primitive
from physbench_gym.grading.phrases import expand
from physbench_gym.grading.text import (
    clauses,
    compile_terms,
    find_terms,
    is_hedged,
    is_historical,
    negated_after,
    negated_before,
    quantities,
    unit_normalize,
)


class NoteWrittenArgs(Args):
    min_chars: int = Field(default=200, ge=1, description="Shortest acceptable note.")


@primitive("note_written", NoteWrittenArgs, {FILE})
def note_written(ctx: GradingContext, args: NoteWrittenArgs) -> CheckpointResult:
    """The deliverable note exists with real content."""
    note = ctx.note()
    if note is None:
        return CheckpointResult(False, f"{ctx.note_path} was not written")
    if len(note.strip()) < args.min_chars:
        return CheckpointResult(False, f"note has {len(note.strip())} characters, "
                                       f"fewer than {args.min_chars}")
    return CheckpointResult(True, f"note written ({len(note)} characters)")


class ValueSpec(Args):
    value: float = Field(description="Expected value in the canonical unit.")
    tolerance: float = Field(default=0.0, ge=0, description="Absolute tolerance.")
    units: dict[str, float] = Field(
        default_factory=dict, description="Accepted units -> factor to the canonical unit; "
        "a number written without a unit is read in the canonical unit (factor 1).")

    def accepts(self, value: float, unit: str) -> bool:
        factors = {unit_normalize(u): f for u, f in self.units.items()}
        factor = factors.get(unit_normalize(unit)) if unit else 1.0
        if factor is None:
            return False
        return abs(value * factor - self.value) <= self.tolerance + 1e-6 * max(1.0, abs(self.value))


class NoteValueArgs(ValueSpec):
    label: list[str] = Field(min_length=1, description="Names of the quantity (any).")
    window: int = Field(default=48, ge=5, description="Characters after the label searched.")


@primitive("note_value", NoteValueArgs, {FILE})
def note_value(ctx: GradingContext, args: NoteValueArgs) -> CheckpointResult:
    """The note states the labelled quantity with the expected value (unit-aware)."""
    note = ctx.note()
    if note is None:
        return CheckpointResult(False, "no note")
    labels = compile_terms(tuple(args.label))
    seen = []
    for clause in clauses(note):
        for match in find_terms(clause, labels):
            near = [q for q in quantities(clause)
                    if match.end() <= q.start <= match.end() + args.window]
            if _bare_list(clause, near):
                seen.append("an unlabelled list of values")
                continue
            if any(args.accepts(q.value, q.unit) for q in near):
                return CheckpointResult(True, f"{args.label[0]} {args.value:g} stated")
            seen += [f"{q.value:g} {q.unit}".strip() for q in near]
    found = f" (found {', '.join(seen[:4])})" if seen else ""
    return CheckpointResult(False, f"{args.label[0]} {args.value:g} not stated{found}")


class NoteDecisionArgs(Args):
    subject: list[str] = Field(min_length=1, description="The thing decided on (any term).")
    action: list[str] = Field(min_length=1, description="Verb classes or phrases of the plan.")
    opposite: list[str] = Field(
        default_factory=list, description="Verb classes or phrases that contradict the plan.")
    value: ValueSpec | None = Field(
        default=None, description="A quantity the asserting clause must state (dose, interval).")
    label: str = Field(default="", description="The decision, for the reason text.")


@primitive("note_decision", NoteDecisionArgs, {FILE})
def note_decision(ctx: GradingContext, args: NoteDecisionArgs) -> CheckpointResult:
    """The note plainly asserts the decision, with its value, and never its opposite."""
    note = ctx.note()
    label = args.label or f"{args.action[0]} {args.subject[0]}"
    if note is None:
        return CheckpointResult(False, "no note")
    subject = compile_terms(tuple(args.subject))
    action = compile_terms(tuple(expand(args.action)), inflect=True)
    opposite = compile_terms(tuple(expand(args.opposite)), inflect=True)
    asserted, contradicted = False, []
    for clause in clauses(note):
        if not find_terms(clause, subject) or is_hedged(clause) or is_historical(clause):
            continue
        positive, negated = _polarity(clause, action)
        opposed, _ = _polarity(clause, opposite)
        if negated or opposed:
            contradicted.append(clause)
        elif positive and (args.value is None or _states_value(clause, args.value)):
            asserted = True
    if contradicted:
        return CheckpointResult(False, f"contradicts '{label}': \"{contradicted[0][:90]}\"")
    if asserted:
        return CheckpointResult(True, f"states '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


class NoteMentionsArgs(Args):
    terms: list[str] = Field(min_length=1, description="Any of these terms must be asserted.")
    label: str = Field(default="", description="The finding, for the reason text.")


@primitive("note_mentions", NoteMentionsArgs, {FILE})
def note_mentions(ctx: GradingContext, args: NoteMentionsArgs) -> CheckpointResult:
    """The note affirms a finding or element (not negated, not hedged) and never denies it."""
    note = ctx.note()
    label = args.label or args.terms[0]
    if note is None:
        return CheckpointResult(False, "no note")
    terms = compile_terms(tuple(args.terms))
    affirmed, denied = False, ""
    for clause in clauses(note):
        for match in find_terms(clause, terms):
            if negated_before(clause, match.start()) or negated_after(clause, match.end()):
                denied = denied or clause
            elif not is_hedged(clause):
                affirmed = True
    if denied:
        return CheckpointResult(False, f"denies '{label}': \"{denied[:90]}\"")
    if affirmed:
        return CheckpointResult(True, f"states '{label}'")
    return CheckpointResult(False, f"does not state '{label}'")


def _polarity(clause: str, verbs: tuple) -> tuple[bool, bool]:
    """(asserted, negated) for the first verb phrase of the list found in the clause."""
    hits = find_terms(clause, verbs)
    if not hits:
        return False, False
    negated = all(negated_before(clause, m.start()) or negated_after(clause, m.end())
                  for m in hits)
    return not negated, negated


def _bare_list(clause: str, near: list) -> bool:
    """True when values follow the label as a bare list ('TSH 8.9, 3.1, 12'), which states
    no single value and is how keyword-stuffed notes hedge."""
    if len(near) < 2:
        return False
    first, second = near[0], near[1]
    same_kind = not first.unit or first.unit == second.unit
    return same_kind and bool(re.fullmatch(r"[\s,;/|]*", clause[first.end:second.start]))


def _states_value(clause: str, value: ValueSpec) -> bool:
    return any(value.accepts(q.value, q.unit) for q in quantities(clause))
