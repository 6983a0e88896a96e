"""Note grader of hyponatremia_siadh_workup: no switch of sertraline to a drug of the same risk.

SSRIs and SNRIs (and tricyclics) all cause SIADH: replacing sertraline with another of them
keeps the cause (Liamis 2008; Leth-Moller 2016; Verbalis 2013). The reader attaches the switch
verb of 'Switch sertraline to escitalopram' to sertraline, and the target of the switch is left
without a verb, so the note's must-not ('no other SSRI or SNRI') misses it when no dose is
written. This grader reads the target: a same-risk antidepressant named as the object of a
switch verb ('switch/change/transition/convert/swap/replace ... to/for/with <drug>'), or the
same verb straight before it ('switch to citalopram').

It is the note's plan that counts: a negated target ('do not switch to escitalopram', 'rather
than escitalopram'), a conditional ('if ..., switch to'), historical or counterfactual mention
('switching to escitalopram would not remove the risk') and a clause that only reports are no
such plan. A hedged offer ('could switch to escitalopram', '... later') is one; a contingency
with a trigger ('if she relapses ...') is left to the note's must-not, as before.
"""

from __future__ import annotations

import re

from physbench_gym.grading.core import FILE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.lexicon import members
from physbench_gym.grading.notes import read_in_context
from physbench_gym.grading.reader import (
    CONDITIONAL,
    COUNTERFACTUAL,
    FAMILY,
    HISTORICAL,
)

_SAME_RISK_CLASSES = ("ssri", "snri", "amitriptyline")  # amitriptyline holds the TCA terms
_KEPT = frozenset({"sertraline"})
_SWITCH = (r"\b(?:switch\w*|chang\w*|convert\w*|transition\w*|swap\w*|replac\w*|substitut\w*"
           r"|rotat\w*|mov(?:e|ed|ing)|cross[- ]?(?:taper|titrat)\w*)\b")
_DETERMINERS = r"(?:(?:an?|another|other|alternative|alternate|different|the|a\s+different)\s+)*"
# the target is the object of the switch: 'switch sertraline to X', 'swap sertraline for X'
_OBJECT = re.compile(_SWITCH + r"[^.;:]{0,60}?\b(?:to|for|with|onto|into|by)\s+"
                     + _DETERMINERS + r"$", re.IGNORECASE)
_PREDICATE = re.compile(r"^[^;]{0,60}?\b(?:is|are|would|will|does|do|did|carries|carry|has"
                        r"|have|may|might|can|could|shares?|remains?)\b", re.IGNORECASE)
_GERUND_START = re.compile(r"^\W*(?:\w+\s+){0,1}" + r"(?:switching|changing|converting"
                           r"|transitioning|swapping|replacing|substituting|rotating|moving)\b",
                           re.IGNORECASE)
_SKIP = (HISTORICAL, FAMILY, COUNTERFACTUAL)
# a contingency needs a trigger: 'if she relapses, ...', not a bare 'later'
_TRIGGER = re.compile(r"\b(?:if|when|whenever|once|unless|should|in case|provided)\b",
                      re.IGNORECASE)


def _same_risk() -> frozenset[str]:
    found: set[str] = set()
    for name in _SAME_RISK_CLASSES:
        found |= members(name)
    return frozenset(found - _KEPT)


@triggered_by(FILE)
def no_same_class_switch(ctx: GradingContext) -> CheckpointResult:
    """Fails when the note switches sertraline to another SSRI, SNRI or tricyclic."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    seen: set[tuple[int, int]] = set()
    for concept in sorted(_same_risk()):
        for clause, mention in note.mentions(concept):
            key = (clause.index, mention.start)
            if key in seen:
                continue
            seen.add(key)
            if clause.reporting or mention.negated or mention.decision in ("avoid", "stop"):
                continue
            if mention.has(*_SKIP) or any(m.has(*_SKIP) for m in clause.mentions
                                          if m.start < mention.start):
                continue
            if mention.has(CONDITIONAL) and _TRIGGER.search(clause.text):
                continue
            before = clause.text[:mention.start]
            if not _OBJECT.search(before):
                continue
            if _GERUND_START.match(before) and _PREDICATE.match(clause.text[mention.end:]):
                continue  # 'switching to escitalopram would not remove the risk'
            return CheckpointResult(False, (
                "switches sertraline to another SSRI, SNRI or tricyclic, which carries the "
                f"same SIADH risk: \"{clause.text[:90]}\""))
    return CheckpointResult(True, "no switch to another SSRI, SNRI or tricyclic")

