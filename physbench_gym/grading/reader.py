"""The clinical note reader: a note is parsed once into clauses whose concepts carry a status.

Pipeline (medspaCy-shaped, rules as data): ``markup`` turns Markdown and unicode into lines with
their section; pysbd splits sentences; a spaCy tokenizer makes one document; a PhraseMatcher
finds the lexicon's concepts and plan verbs; medspaCy's ConText assigns each concept and each
quantity the cues that govern it (negated, hedged, conditional, temporary, historical, family,
alternative, counterfactual). The reader then attaches each concept to the plan verb that
governs it ('stop spironolactone and continue lisinopril') and to the quantities written with
it. Checkpoints ask questions of this structure (``grading/notes.py``).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from physbench_gym.grading import lexicon
from physbench_gym.grading.markup import Line, lines
from physbench_gym.grading.quantities import Quantity, dates_past, quantities

# Statuses a cue gives the concepts in its scope, and sections that only report.
NEGATED, POSSIBLE, PROBABLE, CONDITIONAL = "NEGATED", "POSSIBLE", "PROBABLE", "CONDITIONAL"
TEMPORARY, HISTORICAL, FAMILY = "TEMPORARY", "HISTORICAL", "FAMILY"
ALTERNATIVE, COUNTERFACTUAL, LATER = "ALTERNATIVE", "COUNTERFACTUAL", "LATER"
ATTRIBUTE = "ATTRIBUTE"
_ATTRIBUTE = re.compile(
    r"(?:\s+|-)?(?:intolerance|intolerant|allergy|allergies|allergic|hypersensitivity|side[\s-]effects?"
    r"|adverse (?:effects?|reactions?)|toxicity|reactions?|myopathy|myalgias?|resistance|resistant"
    r"|failure|exposure|re-?exposure|levels?|concentrations?|absorption|clearance|metabolism"
    r"|use disorder"
    r"|overdose|withdrawal|dependence|misuse|history|use|overuse|ingestion|excess|load"
    r"|-induced|-associated|-related|induced|associated"
    r"|(?:'s)?\s*(?:label|labeling|labelling|package insert|prescribing information|monograph)"
    r")\b", re.IGNORECASE)  # 'Apixaban label says reduce to 2.5 mg ...': the label's rule
_LEVEL = re.compile(r"(?:\s+|-)?(?:levels?|concentrations?)\b", re.IGNORECASE)
# 'adverse effects of venlafaxine XR 150 mg': the same, named before the drug.
_ATTRIBUTE_BEFORE = re.compile(r"\b(?:(?:adverse|side)[\s-]effects?|toxicity|intolerance|"
                               r"allergy|overdose|levels?|absorption)\s+(?:of|to|from)\s+$"
                               # 'none of the contraindications to bupropion': the drug's
                               r"|\bcontra-?indications?\s+(?:to|for)\s+(?:using\s+)?$",  # rule
                               re.IGNORECASE)
# '... is not first line but can be used as a backup': after a refused role, the same drug
# offered all the same (not 'but cetirizine can be used', another subject).
_BUT_OFFERED = re.compile(
    r"[^.;:]{0,40}?\bbut\s+(?:it\s+|they\s+|this\s+)?((?:can|could|may|might)\s+(?:still\s+|also\s+)?"
    r"(?:be\s+)?(?:used|given|tried|considered|offered|prescribed|added)|(?:is|are|remains?)\s+"
    r"(?:still\s+)?(?:an?\s+)?(?:option|alternative|acceptable|reasonable|fine|useful))\b",
    re.IGNORECASE)
# 'No naloxone at home', 'no epinephrine pen on hand': what the patient has, not a refusal.
_POSSESSED = re.compile(r"\s+(?:(?:kit|spray|pens?|auto-?injectors?|supply|tablets?|results?|"
                        r"reports?)\s+)?"
                        r"(?:at home|in the (?:home|house)|on hand|with (?:him|her|them)"
                        # 'no echo on file', 'no prior MRI in the chart': what the record holds
                        r"|on file|on record|in (?:the|her|his) (?:chart|record|records|EHR))\b",
                        re.IGNORECASE)
REPORTING_SECTIONS = frozenset({"history", "medications", "data"})
PAST_SECTIONS = frozenset({"history", "medications"})
# A negated verb means another decision: 'do not start' avoids, 'do not stop' continues.
NEGATED_ACTION = {"start": "avoid", "endorse": "avoid", "resume": "avoid", "order": "avoid",
                  "refer": "avoid", "stop": "continue", "continue": "stop",
                  "increase": "keep_dose", "decrease": "keep_dose", "keep_dose": "change",
                  "avoid": "allow", "switch": "keep_dose", "counsel": "counsel"}
# Words that may sit between a negation and the verb it governs ('do not start', 'no need to
# repeat', 'I would not recommend').
_AUXILIARY = frozenset({"do", "going", "gonna", "planning", "intend", "does", "did", "should",
                        "would", "will", "to", "be", "need",
                        "needs", "have", "has", "i", "we", "you", "he", "she", "it", "is", "are",
                        "was", "were", "can", "could", "must", "may", "might", "necessary",
                        "further", "any", "currently", "recommend", "suggest", "advise",
                        "want", "wish", "plan", "yet", "longer", "again", "routinely",
                        "routine", "also", "now", "strongly", "definitely", "certainly", "a",
                        "the", "reason", "needed", "/", "or", "and", "nor", "ever", "rather",
                        "mean", "think", "believe", "feel", "that", "they", "patient",
                        "means", "require", "requires", "warrant", "warrants", "justify",
                        "justifies", "indication", "automatically", "immediately",
                        # 'do not let anyone switch him to deferiprone'
                        "let", "anyone", "anybody", "him", "her", "them", "trigger", "prompt"})
_SENTENCE_HINT = re.compile(r"[.!?]\s+\S")


# Negations that report a test's result rather than turn the test down.
_RESULT_CUES = frozenset({"negative", "is negative", "was negative", "were negative"})


@dataclass(frozen=True)
class Cue:
    """A ConText cue that governs a concept or quantity: its category and words."""

    category: str
    text: str
    start: int


@dataclass(frozen=True)
class Action:
    """A plan verb attached to a concept: its meaning and whether it is negated."""

    kind: str
    text: str
    start: int
    negated: bool = False

    @property
    def decision(self) -> str:
        """The decision expressed: the verb's meaning, or its opposite when negated."""
        return NEGATED_ACTION.get(self.kind, self.kind) if self.negated else self.kind


@dataclass(frozen=True)
class Mention:
    """A concept named in a clause, with what governs it."""

    concepts: frozenset[str]
    text: str
    start: int
    end: int
    group: str
    """'drug', 'test' or 'finding'."""
    statuses: frozenset[str]
    cues: tuple[Cue, ...]
    action: Action | None
    later: tuple[Action, ...]
    """Verbs after the concept with no object of their own ('hold aspirin, then resume')."""
    quantities: tuple[Quantity, ...]
    negated: bool
    """Negated with no verb to carry it ('no anticoagulation', 'NSAIDs: none')."""
    deciding: bool = False
    """Governed by a plan verb in the present or imperative ('avoid', not 'stopped'): a
    decision even inside a history or medication list."""

    @property
    def decision(self) -> str | None:
        """'start', 'stop', 'avoid', ... or 'implicit' for a verbless plan line, or None."""
        if ATTRIBUTE in self.statuses:
            return None
        if self.action is not None:
            if self.action.decision == "switch":
                return _dose_change(self.quantities) or "switch"
            return self.action.decision
        if self.negated:
            if self.group == "test" and all(c.text in _RESULT_CUES for c in self.cues
                                             if c.category == NEGATED):
                return None  # 'the cryoglobulin screen was negative': a result, no refusal
            return "avoid"
        return None

    def has(self, *statuses: str) -> bool:
        return not self.statuses.isdisjoint(statuses)

    def cue(self, *categories: str) -> str:
        return next((c.text for c in self.cues if c.category in categories), "")


def _dose_change(found: tuple[Quantity, ...]) -> str | None:
    """'Change 75 -> 88 mcg': a change of one drug's dose is an increase or a decrease."""
    old = next((q for q in found if q.role == "from"), None)
    new = next((q for q in found if old and q.role == "" and q.unit == old.unit), None)
    if old is None or new is None or new.value == old.value:
        return None
    return "increase" if new.value > old.value else "decrease"


@dataclass(frozen=True)
class Clause:
    """A sentence or list item (split at semicolons) with its section and contents."""

    text: str
    section: str
    kind: str
    index: int
    latest_row: bool | None
    mentions: tuple[Mention, ...]
    quantities: tuple[Quantity, ...]
    quantity_statuses: tuple[frozenset[str], ...]
    actions: tuple[Action, ...]
    past_dated: bool = False
    """Dates what it says before today ('cetirizine 10 mg since 10 Mar 2026'): it reports."""
    topic: frozenset[str] = frozenset()
    """Concepts of the short lead-in that opens the paragraph ('Kidney function.')."""
    cue_categories: frozenset[str] = frozenset()
    """Every ConText category cued anywhere in the clause ('could be considered': POSSIBLE)."""

    @property
    def reporting(self) -> bool:
        """In a history, medication-list or data section: reports, does not plan."""
        return self.section in REPORTING_SECTIONS

    def quantity_status(self, quantity: Quantity) -> frozenset[str]:
        for candidate, status in zip(self.quantities, self.quantity_statuses, strict=False):
            if candidate is quantity or candidate == quantity:
                return status
        return frozenset()


@dataclass(frozen=True)
class Note:
    """A note read once: its clauses in order."""

    text: str
    clauses: tuple[Clause, ...]
    _by_concept: dict[str, list[tuple[Clause, Mention]]] = field(default_factory=dict,
                                                                 repr=False, compare=False)

    def mentions(self, concept_id: str) -> list[tuple[Clause, Mention]]:
        """Every mention of the concept or of a concept below it, with its clause."""
        found = self._by_concept.get(concept_id)
        if found is None:
            found = [(c, m) for c in self.clauses for m in c.mentions if concept_id in m.concepts]
            self._by_concept[concept_id] = found
        return found

    def __iter__(self) -> Iterator[Clause]:
        return iter(self.clauses)


def read_note(text: str, today: date | None = None) -> Note:
    """Parse a note (cached: every checkpoint of a step shares one parse per note version).

    With ``today`` (the task's date), future calendar dates are read as times from today.
    """
    return _read(text, today)


@functools.lru_cache(maxsize=128)
def _read(text: str, today: date | None = None) -> Note:
    pipeline = _pipeline()
    units = _clause_texts(lines(text))
    if not units:
        return Note(text, ())
    full = "\n".join(unit[0] for unit in units)
    doc = pipeline.tokenizer(full)
    starts, offset = [], 0
    for clause_text, *_ in units:
        starts.append(offset)
        offset += len(clause_text) + 1
    _set_sentences(doc, set(starts))
    concept_spans = _concept_spans(pipeline, doc)
    verb_spans = _verb_spans(pipeline, doc, concept_spans)
    concept_spans = _with_pronoun_objects(doc, concept_spans, verb_spans,
                                          [(start, line) for start, (_, line)
                                           in zip(starts, units, strict=True)])
    clause_quantities = [quantities(u[0], today) for u in units]
    quantity_spans = []
    for start, found in zip(starts, clause_quantities, strict=False):
        for q in found:
            span = doc.char_span(start + q.start, start + q.end, label="QUANTITY",
                                 alignment_mode="expand")
            if span is not None:
                quantity_spans.append(span)
    doc.spans["targets"] = list(concept_spans) + quantity_spans
    pipeline.context(doc)
    statuses = {(s.start_char, s.end_char, s.label_): _cues(s) for s in doc.spans["targets"]}
    modifiers = [(doc[m.modifier_span[0]].idx, m.category) for m in doc._.context_graph.modifiers
                 if not _is_month_may(doc, doc[m.modifier_span[0]:m.modifier_span[1]])
                 and not (m.category == POSSIBLE and _SOUGHT.match(
                     doc[m.modifier_span[0]:m.modifier_span[1]].text))]  # 'Screen for PA:
    # aldosterone and renin' hedges the finding sought, not the plan line
    clauses = []
    problem: tuple[Line | None, frozenset[str]] = (None, frozenset())  # '#2 PSA 6.3 flagged'
    problem_drugs: tuple[Mention, ...] = ()  # '#2 Apixaban' over '- Stop (bleeding).'
    for index, ((clause_text, line), start) in enumerate(zip(units, starts, strict=False)):
        end = start + len(clause_text)
        past_asides = tuple((a.start(), a.end()) for a in _PARENTHETICAL.finditer(clause_text)
                            if dates_past(a.group(0), today))
        clause = _clause(index, clause_text, line, start, end, doc, concept_spans,
                         verb_spans, clause_quantities[index], statuses,
                         dates_past(_PARENTHETICAL.sub("", clause_text), today)
                         or dates_past(_line_label(line.text), today)
                         or bool(_WAS.search(_PARENTHETICAL.sub("", clause_text)))
                         and dates_past(clause_text, today),  # not '(last scope was 2017)'
                         past_asides)
        if not clause.past_dated and not clause.actions and past_asides:
            # 'prednisone 40 mg x 5 days twice (Dec 2025 and Apr 2026)': a verbless record
            clause = dataclasses.replace(clause, past_dated=True)
        cues = [(at - start, category) for at, category in modifiers if start <= at < end]
        clause = dataclasses.replace(clause, cue_categories=frozenset(c for _, c in cues))
        clause = _clause_scopes(clause, line, start)
        conditions = [at for at, category in cues if category == CONDITIONAL]
        if clause.kind == "row" and conditions and not any(
                a.start < min(conditions) for a in clause.actions) and not (
                _if_has_own_consequence(clause.text, min(conditions),
                                        (a.start for a in clause.actions))):
            # 'Sertraline | 100 mg | only if PHQ-9 >= 10 at 4 weeks': the row is a contingency
            clause = dataclasses.replace(clause, mentions=tuple(
                dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
                for m in clause.mentions))
        same_line = clauses[-1:] if index and units[index - 1][1] is line else []
        clause = _slash_names_share_dose(clause)
        clause = _resolve_elided_drug(clause, clauses[-6:], same_line, cues,
                                      problem_drugs if line.kind == "item" else ())
        clause = _step_told_as_a_risk(clause)
        clause = _past_trial(clause)
        clause = _threshold_means(clause)
        clause = _drug_profile(clause, clauses[-1] if clauses and clauses[-1].section == (
            clause.section) else None)
        clause = _resolve_bare_value(clause, clauses[-12:])
        clause = _resolve_bare_ratio(clause, clauses[-12:])
        clause = _resolve_the_repeat(clause, clauses[-6:])
        clause = _verdict_in_trailing_aside(clause)
        if index and units[index - 1][1] is line:
            clause = _resolve_pronoun(clause, clauses[-1])
            clause = _resolve_all_ordered(clause, clauses[-1])
            if _POINTS_BACK_STALE.match(clause.text):
                # 'The hepatology note calculated Child-Pugh B; that is outdated.'
                clauses[-1] = dataclasses.replace(clauses[-1], mentions=tuple(
                    dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
                    for m in clauses[-1].mentions))
            then = _THEN_STEP.search(clause.text)
            if _OPENS_WITH_TRIGGER.match(clauses[-1].text) and (
                    then and not any(a.start < then.start() for a in clause.actions)
                    or not clauses[-1].actions and clause.actions and not (
                    clauses[-1].text.rstrip(" *").endswith((".", "!", "?")))):
                # 'If she becomes pregnant, call us; we will then check TSH every 4 weeks';
                # 'If he is a carrier -> 25% risk; offer CVS': the risk is not yet the step;
                # not 'If ..., go up. X comes down to 10 mg, then stops' (its own step first)
                clause = dataclasses.replace(clause, mentions=tuple(
                    dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
                    for m in clause.mentions))
            clause = _then_after_contingency(clause, clauses[-1])
            lead = clauses[_line_start(units, index)]
            if len(lead.text.split()) <= 6 and lead.text.endswith((".", ":")) and not (
                    any(q.start > 3 for q in lead.quantities) or lead.actions):
                clause = dataclasses.replace(clause, topic=frozenset().union(
                    *(m.concepts for m in lead.mentions)))
                clause = _values_of_run_in_label(clause, lead)
                if clauses[-1] is lead and (judged := _verdict_on_run_in_label(clause, lead)):
                    clause = judged  # the label names what the verdict judges: the label too
                    clauses[-1] = dataclasses.replace(lead, mentions=tuple(
                        dataclasses.replace(m, action=judged.mentions[0].action, deciding=True)
                        if m.group in ("drug", "test") else m for m in lead.mentions))
        if line.kind != "item":
            if problem[0] is not line:
                named = [m for m in clause.mentions if m.group == "drug"]
                problem_drugs = tuple(m for m in named if not m.negated and m.action is None
                                      and not any(m.concepts < o.concepts for o in named)
                                      ) if _PROBLEM_HEADING.match(line.text) or (
                    line.text.rstrip().endswith(":")) else ()  # 'Peri-procedural
                # anticoagulation (dabigatran, CrCl 46):' over '[x] Last dose: 5 days before
            problem = (line, frozenset().union(*(m.concepts for m in clause.mentions
                                                 if m.group == "test"))
                       if _PROBLEM_HEADING.match(line.text) else frozenset()) if (
                problem[0] is not line) else problem
        elif problem[1] and not any(m.group == "test" for m in clause.mentions):
            clause = dataclasses.replace(clause, topic=clause.topic | problem[1])
        if clauses:
            clause = _continue_subject(clause, clauses[-1])
            if index and units[index - 1][1] is line and _DEMONSTRATIVE.match(clause.text):
                clause = _about_last_test(clause, clauses[_line_start(units, index):])
        if clauses:
            clause = _answer_acts_on_asked_drug(clause, clauses[-1], cues)
            clause = _total_row_of_titled_table(clause, clauses)
        clause = _under_negating_label(clause, clauses[_line_start(units, index)]
                                       if index and units[index - 1][1] is line else clause)
        if line.contingent and not _OPENS_WITH_IF.match(line.text):
            # under 'When to call us back': what a trigger would bring; a line that writes its
            # own 'if' says itself how far its trigger reaches
            clause = dataclasses.replace(clause, mentions=tuple(
                dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
                for m in clause.mentions))
        clauses.append(clause)
    return Note(text, tuple(_choice_left_open(_arrow_branches(clauses), [u[1] for u in units])))


# 'Start alendronate weekly, or no treatment for now - she'll decide': another way offered
# and the choice left to the patient: the line commits to neither.
_ANOTHER_WAY = re.compile(
    r"(?:[,;]|\s[-\u2014])\s*(?:or|though)\b|\bor\s+(?:alternatively|instead|just|simply|no|try|"
    r"wait|defer|skip|hold|(?:at|on|in)\s+(?:the\s+)?(?:next|a later|another))\b|\binstead\b"
    r"|\balternatively\b|\s(?:vs\.?|versus)\s", re.IGNORECASE)
_LEFT_TO_CHOICE = re.compile(
    r"\b(?:she|he|they|patient|pt|the patient)(?:'ll|\s+will|\s+to|\s+is|\s+is still)?\s+"
    r"(?:decide|choose|think it over|think about it|leaning)\b"
    r"|\bwhichever\b[^.;]{0,40}\b(?:prefers?|easier|more convenient|suits)\b"
    r"|\b(?:patient|pt)(?:'s)?\s+(?:to\s+choose|preference)\b|\blet\s+\w+\s+decide\b"
    r"|\bif\s+(?:she|he|they|the patient|pt)\s+(?:prefers?|insists?|wants?|would rather)\b"
    r"|\b(?:patient|pt|her|his)(?:'s)?\s+choice\b"
    r"|\bif (?:that is|it is|that's|it's) more convenient\b"
    r"|(?:^|[-\u2014;,]\s*)(?:we\s+)?will\s+(?:decide|discuss)\b", re.IGNORECASE)


# 'Allopurinol 100 mg daily offered; patient prefers to hold off for now': turned down.
_OFFERED = re.compile(r"\boffer(?:ed)?\b", re.IGNORECASE)
_DECLINED = re.compile(r"\b(?:she|he|they|patient|pt|the patient)\s+(?:declined|declines|refused|"
                       r"refuses|prefers to (?:hold off|wait|defer|try)|wants to (?:wait|hold off|"
                       r"think))\b", re.IGNORECASE)


def _choice_left_open(clauses: list[Clause], lines_of: list[Line]) -> list[Clause]:
    """A sentence that offers another way and leaves the choice to the patient ('F/u in 4
    weeks, or just a phone call instead, whichever she prefers'), or tells an offer turned
    down, decides nothing it names."""
    open_sentences = {id(line): [s for s in _SENTENCE_END.split(line.text)
                                 if _ANOTHER_WAY.search(s) and _LEFT_TO_CHOICE.search(s)
                                 or _OFFERED.search(s) and _DECLINED.search(s)]
                      for line in lines_of}
    return [dataclasses.replace(clause, mentions=tuple(
        dataclasses.replace(m, statuses=m.statuses | {ALTERNATIVE}) for m in clause.mentions))
        if any(clause.text[:40].strip(" .;,") in sentence for sentence in open_sentences[id(line)])
        else clause for clause, line in zip(clauses, lines_of, strict=True)]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


_BRANCH_NEGATION = frozenset({"not", "no", "non", "negative"})
_BRANCH_WORD = re.compile(r"[^\W_]+|[<>=%]+")


def _branch_key(clause: Clause) -> tuple[tuple[str, ...], bool] | None:
    """The antecedent of an arrow clause as its words without negation, and whether it is
    negated: 'He is not a carrier -> ...' is (('he', 'is', 'carrier'), True)."""
    arrow = clause.text.find(" -> ")
    if arrow < 0:
        return None
    words = [w.lower() for w in _BRANCH_WORD.findall(clause.text[:arrow])]
    kept = tuple(w for w in words if w not in _BRANCH_NEGATION and w not in ("a", "an", "positive"))
    return (kept, len(kept) < len([w for w in words if w not in ("a", "an", "positive")])) \
        if kept else None


def _arrow_branches(clauses: list[Clause]) -> list[Clause]:
    """Two adjacent arrow lines whose openings differ only by a negation are the branches of
    one contingency: 'husband carrier -> offer CVS' beside 'husband not carrier -> no invasive
    testing' waits for his result; what follows each arrow is conditional on its opening."""
    keys = [_branch_key(c) for c in clauses]
    branched = {i for i in range(len(clauses) - 1) for j in [i + 1]
                if keys[i] and keys[j] and keys[i][0] == keys[j][0] and keys[i][1] != keys[j][1]}
    branched |= {i + 1 for i in branched}
    for i in sorted(branched):
        arrow = clauses[i].text.find(" -> ")
        clauses[i] = dataclasses.replace(clauses[i], mentions=tuple(
            dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL}) if m.start > arrow
            else m for m in clauses[i].mentions))
    return clauses


# A verdict with no subject of its own: 'Not needed now.', 'No.', 'Contraindicated here.'
_BARE_VERDICT = re.compile(r"[\W_]*(no\s*(?:[.!;,]|-\s|$)|(?:not\s+(?:needed|indicated|recommended|"
                           r"necessary|advised|warranted|required|appropriate|now|yet|at this "
                           r"time|at present)|contraindicated|unnecessary)\b)", re.IGNORECASE)


def _verdict_in_trailing_aside(clause: Clause) -> Clause:
    """'Repeat stool C. difficile test after treatment (not indicated; ...)', 'Start
    ciprofloxacin (not recommended)': an aside that opens with a verdict judges the verb-led
    item before it; not 'Repeat MRI (not needed if the X-ray shows erosion)'."""
    aside = clause.text.find("(")
    verdict = _BARE_VERDICT.match(clause.text, aside + 1) if aside > 0 else None
    if verdict is None or _VERDICT_CONDITION.match(clause.text, verdict.end()):
        return clause
    judged = tuple(dataclasses.replace(
        m, action=Action("avoid", verdict.group(1).lower(), m.action.start), later=(),
        deciding=True)
        if m.end <= aside and m.group in ("drug", "test") and m.action is not None
        and not m.action.negated and not m.negated and m.action.start < aside
        and m.action.kind in ("start", "order", "resume", "refer", "increase", "endorse")
        else m for m in clause.mentions)
    return dataclasses.replace(clause, mentions=judged) if judged != clause.mentions else clause


_VERDICT_CONDITION = re.compile(r"\s*(?:if|unless|until|when|before|while)\b", re.IGNORECASE)


def _verdict_on_run_in_label(clause: Clause, lead: Clause) -> Clause | None:
    """'**Colonoscopy.** Not needed now.', 'Tinidazole: contraindicated in ...': a verdict
    that opens the sentence after a run-in label naming one test or drug judges that test or
    drug."""
    named = [m for m in lead.mentions if m.group in ("drug", "test")]
    verdict = _BARE_VERDICT.match(clause.text)
    if len(named) != 1 or verdict is None or any(m.group in ("drug", "test") and m.text
                                                 and m.start < 40 for m in clause.mentions):
        return None
    judged = dataclasses.replace(named[0], start=0, end=0, text="", negated=False,
                                 action=Action("avoid", verdict.group(1).lower(), 0),
                                 later=(), deciding=True)
    # (a drug the verdict was taken to elide from earlier lines gives way to the label's)
    return dataclasses.replace(clause, mentions=(judged, *(
        m for m in clause.mentions if m.text or m.group not in ("drug", "test"))))


def _values_of_run_in_label(clause: Clause, lead: Clause) -> Clause:
    """'**Platelet count.** 262 pre-op, 214 on POD 1 and 284 today': the numbers after a
    run-in label that names one test are that test's values."""
    tests = [m for m in lead.mentions if m.group == "test"]
    if len(tests) != 1 or not clause.quantities or any(m.group in ("test", "drug")
                                                       for m in clause.mentions) or (
            tests[0].negated or tests[0].action is not None):
        return clause  # 'No lumbar MRI. ... Ibuprofen 400 mg tds': the drug's dose, no result
    values = Mention(tests[0].concepts, "", 0, 0, "test",
                     clause.quantity_status(clause.quantities[0]), (), None, (),
                     clause.quantities, False)
    return dataclasses.replace(clause, mentions=(values, *clause.mentions))


_SOUGHT = re.compile(r"(?:to\s+)?(?:screen(?:ing)?|evaluat(?:e|ion)|assess|look)\s+for$",
                     re.IGNORECASE)


def _under_negating_label(clause: Clause, lead: Clause) -> Clause:
    """'Why I do not think this is ITP: ITP needs ...; the smear in ITP shows ...': a line
    whose label denies a finding argues against it, so the finding is not affirmed in the rest
    of the line."""
    denying = _DENYING_LABEL.match(clause.text)
    if denying:
        # 'What it is not: myasthenia gravis (no ptosis ...) and cervical myelopathy (...)':
        # the diagnoses the label turns away, not the findings its asides give for that
        return dataclasses.replace(clause, mentions=tuple(
            dataclasses.replace(m, negated=True) if m.start >= denying.end()
            and m.group == "finding" and m.action is None
            and not _in_aside(clause.text, m.start) else m
            for m in clause.mentions))
    colon = lead.text.find(":")
    if colon < 0 or colon > 80:
        return clause
    refused = _REFUSING_LABEL.match(lead.text)
    if refused and clause is not lead:  # '**Not ordered:** A; EGD now; repeat colonoscopy'
        return dataclasses.replace(clause, mentions=tuple(
            dataclasses.replace(m, action=Action("avoid", refused.group(1).lower(), 0),
                                deciding=True)
            if m.group in ("drug", "test") and (m.action is None or (
                m.action.start <= 3 and not m.action.negated)) else m
            for m in clause.mentions))
    if refused and refused.group(1).lower() == "not":  # 'Not: head CT; not angiography now':
        return dataclasses.replace(clause, mentions=tuple(  # a bare 'Not' label's own line
            dataclasses.replace(m, action=Action("avoid", "not", 0), deciding=True)
            if m.group in ("drug", "test") and m.start > colon and m.action is None
            and not m.negated else m for m in clause.mentions))
    if refused:  # 'Not ordering: EGD now, repeat colonoscopy, H. pylori serology': its items
        return dataclasses.replace(clause, mentions=tuple(
            dataclasses.replace(m, action=Action("avoid", refused.group(1).lower(), 0),
                                deciding=True)
            if m.group in ("drug", "test") and m.start > colon and not m.negated and (
                m.action is None or m.action.start > colon and not m.action.negated
                and m.action.kind in ("order", "start", "resume", "refer", "endorse", "switch"))
            else m for m in clause.mentions))
    forbidding = _FORBIDDING_LABEL.match(lead.text)
    if forbidding and clause is not lead and not clause.text.lstrip().lower().startswith((
            "no ", "not ", "do not", "don't", "never")):
        # '**Do not:** give ceftriaxone (...); repeat Lyme serology (...)': the label's 'not'
        # reaches the verb each item opens with ('repeat' is not to be done), and a bare item
        # is a thing not to do
        return dataclasses.replace(clause, mentions=tuple(
            dataclasses.replace(m, action=dataclasses.replace(m.action, negated=True),
                                deciding=True)
            if m.group in ("drug", "test") and m.action is not None and (
                m.action.start <= 3 and _LEADING_VERB.fullmatch(clause.text[:m.action.start]))
            else dataclasses.replace(m, action=Action("avoid", forbidding.group(1).lower(), 0),
                                     deciding=True)
            if m.group in ("drug", "test") and m.action is None and m.start <= 3 else m
            for m in clause.mentions))
    denied = frozenset().union(*(m.concepts for m in lead.mentions
                                 if m.end <= colon and m.negated and m.group == "finding"))
    if not denied:
        return clause
    after = colon if clause is lead else -1
    return dataclasses.replace(clause, mentions=tuple(
        dataclasses.replace(m, negated=True) if m.start > after and m.concepts <= denied
        and m.action is None else m for m in clause.mentions))


# An offer told after the drug with words inside it: 'is a reasonable COX-2-preferential oral
# option' (the lexicon's 'allow' forms hold the plain ones).
_OPTION_AFTER = re.compile(r"(?:[^.;:()]|(?<=\d)\.(?=\d)){0,60}?"
                           # '..., which the nurse asked about, is reasonable': a relative
                           # clause between the drug and what is said of it
                           r"(?:,\s*(?:which|that)\b[^.;:(),]{0,60},\s*)?"
                           r"\b(?:is|would be)\s+(?:also\s+)?(?:an?\s+"
                           r"(?:reasonable|acceptable|good|"
                           r"sensible|safe)\s+(?:[\w-]+\s+){0,3}(?:option|choice|alternative|"
                           r"fallback|back-?up)\b"
                           # 'X 0.25 mg nightly is reasonable at this dose': the drug judged
                           # fit to give, not a rule about it ('reasonable only if ...')
                           r"|(?:reasonable|acceptable|appropriate)\b(?!\s+(?:to\s+(?:avoid|"
                           r"stop|hold|withhold|defer|wait)|only|if|when|once|after|in\s+(?:a|"
                           r"some|selected)|for\s+(?:a|some|selected)|later)\b))",
                           re.IGNORECASE)
# A problem line of a problem-based note: '#2 PSA 6.3 ng/mL flagged high' over its bullets,
# which go on about what it names.
_PROBLEM_HEADING = re.compile(r"\s*#\d+[.)]?\s")
# A problem number opening a heading: '#3 ', '3. '.
_PROBLEM_NUMBER = re.compile(r"\W*#?\d+[.)]?\s*")
# A label that denies the diagnoses after it: 'What it is not: myasthenia, myelopathy'.
_DENYING_LABEL = re.compile(r"\W*(?:what (?:it|this) is not|what (?:it|this) isn't|"
                            r"(?:it|this) is not|(?:it|this) isn't|(?:diagnoses\s+)?(?:ruled out|"
                            r"excluded)|not supported|unlikely)\W*:", re.IGNORECASE)


# A label that turns down every item of its line: 'Not ordered: A; B; C', 'Not: A; B'.
_REFUSING_LABEL = re.compile(r"\W*((?:not|no|do not|don't|will not|won't|i am not|i'm not|we are "
                             r"not|we're not)\s+(?:ordering|starting|recommending|prescribing|"
                             r"ordered|order|recommended|indicated|needed|started|given|"
                             r"prescribed|advised)|not(?:\s+(?:now|yet|today|at present|at this "
                             r"time))?)\W*:", re.IGNORECASE)


# A label whose 'not' governs the verb each item of its line opens with: 'Do not: give X;
# repeat Y'.
_FORBIDDING_LABEL = re.compile(r"\W*(?:please\s+)?(do not|don't|never)\s*:", re.IGNORECASE)
_LEADING_VERB = re.compile(r"[\W\d]*(?:(?:and|or|also)\s+)?")


_POINTS_BACK_STALE = re.compile(
    r"^(?:that|this|which|it)\s+(?:is|was|are)\s+(?:now\s+)?(?:outdated|out of date|stale|"
    r"superseded|no longer (?:current|valid|accurate|applicable))\b", re.IGNORECASE)


def _offered_on_preference(mention: Mention, comma: int, offset: int) -> Mention:
    """A mention after a preference or cost condition is an alternative offered; a 'not' of
    the condition ('if he'd rather not take a statin, ezetimibe ...') is not its own."""
    mention = dataclasses.replace(mention, statuses=mention.statuses - {CONDITIONAL}
                                  | {ALTERNATIVE})
    if mention.negated and 0 < comma < mention.start and all(
            c.start - offset < comma for c in mention.cues if c.category == NEGATED):
        mention = dataclasses.replace(mention, negated=False)
    return mention


# A condition that is no clinical trigger: cost, coverage, the patient's wish.
_NONCLINICAL_IF = re.compile(
    r"\b(?:if|when|should|in case)\b[^.;]{0,60}?\b(?:not covered|isn't covered|unaffordable|"
    r"afford\w*|too expensive|expensive|cost|costs|insurance|coverage|formulary|prior auth\w*|"
    r"copay\w*|prefers?|preference|rather|wants?|wish\w*|declines?|refuses?)\b",
    re.IGNORECASE)
def _clause_scopes(clause: Clause, line: Line, offset: int) -> Clause:
    """Statuses a whole clause, or the part of it after a phrase, gives its mentions: a later
    step ('Then:', 'Week 3-4:', '... after step 2'), options weighed ('options include ...'),
    an alternative offered on cost or preference ('if it is not covered, ...')."""
    text = clause.text
    step = _STEP_NUMBER.search(_line_label(line.text))  # 'Venlafaxine step 2: 37.5 mg'
    later_from = next((m.start() for m in _LATER_STEP.finditer(text) if float(m.group(1)) > 1),
                      None)  # '... after step 2', 'at week 4'
    if _LATER_OPENING.match(text) or _STEP_ROW.match(text) or step and float(step.group(1)) > 1:
        later_from = 0  # 'Then: stop venlafaxine', 'Stop venlafaxine: discontinue after step 2'
    options = _OPTIONS_LIST.search(text)
    preference = _NONCLINICAL_IF.search(text)
    comma = text.find(",", preference.end()) if preference else -1
    mentions = []
    for m in clause.mentions:
        if later_from is not None and m.start >= later_from:
            m = dataclasses.replace(m, statuses=m.statuses | {LATER})
        if options and m.start >= options.end():
            m = dataclasses.replace(m, statuses=m.statuses | {POSSIBLE})
        if preference and CONDITIONAL in m.statuses and m.start > preference.start() and not (
                m.action is not None and not m.negated and m.end <= m.action.start < comma
        ) and not (m.action is not None and m.action.kind in ("stop", "decrease")
                and preference.start() < m.action.start and m.start < comma):
            # 'if he returns to use or wants to stop XR-naltrexone, reassess': the wish to
            # stop is the trigger, no stop offered
            m = _offered_on_preference(m, comma, offset)  # not the condition's own subject:
            # 'if fidaxomicin cannot be obtained (cost), ...'
        mentions.append(m)
    return dataclasses.replace(clause, mentions=tuple(mentions))


# A step of a schedule named by its number in a line's label: 'Week 3-4:', 'Step 2:'.
_STEP_NUMBER = re.compile(r"\b(?:weeks?|wks?|days?|steps?|phase|months?)\s*#?(\d+)",
                          re.IGNORECASE)
# A row or line that names its own later step ('Stop venlafaxine: discontinue after step 2').
_STEP_ROW = re.compile(r"[^:]{0,40}:\s*\w+\s+(?:after|at|from)\s+(?:step|weeks?|phase)\s*#?\d",
                       re.IGNORECASE)
_LATER_STEP = re.compile(r"\b(?:after|at|from|in|about|by|during)\s+(?:step|weeks?|wks?|phase)"
                         r"\s*#?(\d+)", re.IGNORECASE)
_OPTIONS_LIST = re.compile(r"\b(?:options?|alternatives?|choices?)\s+(?:would\s+)?"
                           r"(?:include|are|would be)\b", re.IGNORECASE)
_LATER_OPENING = re.compile(r"\s*(?:then|after that|afterwards|thereafter|subsequently|"
                            r"next step|later)\b\s*[:,-]", re.IGNORECASE)


def _line_label(text: str) -> str:
    """The short label a line opens with ('2023: fracture; vitamin D 22', 'In 2023 ...'), which
    dates every clause of the line; not a determiner's year ('The 2023 numbers were ...')."""
    match = re.match(r"(?i)\s*([^:;.]{1,25}):|"
                     r"\s*((?:(?!(?:the|his|her|this|that|these|those|its|their)\b)[A-Za-z]{3,9}\.?\s+)?"
                     r"(?:\d{1,2}/)?(?:19|20)\d\d)\b",
                     text)
    return (match.group(1) or match.group(2)) if match else ""


def _line_start(units: list[tuple[str, Line]], index: int) -> int:
    """The index of the first clause of the line that clause ``index`` belongs to."""
    while index and units[index - 1][1] is units[index][1]:
        index -= 1
    return index


# '(the last value is from 2022)': an aside that dates a value, not the sentence.
_PARENTHETICAL = re.compile(r"\([^()]*\)")
_WAS = re.compile(r"\b(?:was|were|had)\b", re.IGNORECASE)
# 'It is 8.9', 'On 4 March it was 8.9', 'we go by Z-scores. The worst is -2.8'
_PRONOUN_SUBJECT = re.compile(r"^(?:(?:on|as of|by|in|at)\s+[\w/.-]+(?:\s+\d{1,4})?,?\s+"
                              r"(?:\d{4},?\s+)?)?(?:it|this|the level|the value|the "
                              r"(?:worst|lowest|highest|latest|newest|most recent|last)"
                              r"(?: one| value| reading| site)?)\b", re.IGNORECASE)



# A field of a structured prescription written on its own line ('DOSE: 5 MG PO TWICE DAILY').
_FIELD_LABEL = re.compile(r"\s*(?:dose|dosing|frequency|freq|duration|route|stop(?: date)?|"
                          r"end(?: date)?|start(?: date)?|schedule|sig|instructions)\s*:",
                          re.IGNORECASE)
_REPEATED_FORM = re.compile(r"\b(?:second|another|repeat|2nd|third)\s+(?:\w+\s+)?"
                            r"(?:sachet|dose|tablet|"
                            r"capsule|injection|infusion|packet|pill)s?\b", re.IGNORECASE)
# 'From tomorrow he takes 16 mg once daily': a dose sentence about what comes next.
_FORWARD_LOOKING = re.compile(r"\b(?:from tomorrow|tomorrow|from day \d+|day \d+ onward|onward|"
                              r"going forward|thereafter|will (?:take|be)|maintenance)\b",
                              re.IGNORECASE)


# 'may be paused for 6 weeks': a predicate with no subject of its own.
_SUBJECTLESS = re.compile(r"\s*(?:(?:on reflection|on second thought|in the end|actually|"
                          r"however|that said|after all),?\s+)?"
                          r"(?:(?:may|might|can|could|should|will|would|must|be|been|then|also|"
                          r"and|but|to|please|it|this|or|otherwise|alternatively,?|instead,?|"
                          r"permanently|temporarily|immediately)\s+)*",
                          re.IGNORECASE)
# 'Alternatively, continue the current dose': another option for the drug just discussed.
_ALTERNATIVE_OPENING = re.compile(r"\s*(?:or|otherwise|alternatively|instead)\b", re.IGNORECASE)


def _step_told_as_a_risk(clause: Clause) -> Clause:
    """'Tapering mid-episode -> increased relapse risk', 'Tapering in the middle of a
    depressive episode is a setup for relapse': a step named as the subject of its risk is a
    reason, not a plan; so is 'Add clonazepam 0.5 mg BID, untreated OSA ..., and she's at high
    risk of a fatal overdose' (add to that ... and she is at risk: a sum of risk factors)."""
    def risky(m: Mention) -> bool:
        if m.action is None or m.action.negated:
            return False
        if m.action.text.lower() == "add" and not clause.text[:m.action.start].strip(" -*#>"):
            return bool(_ADDED_TO_RISK.search(clause.text, m.action.start))
        return m.action.text.endswith("ing") and bool(
            _GERUND_OPENS.search(clause.text, 0, m.action.start)) and bool(
            _RISK_PREDICATE.match(clause.text, m.action.start + len(m.action.text)))
    return _marked(clause, risky, COUNTERFACTUAL)


_ADDED_TO_RISK = re.compile(r",?\s+and\s+(?:she|he|they|you|the patient)(?:'s|\u2019s|\s+is|"
                            r"\s+are|\s+has|\s+have)\s+(?:(?:a|an|at|in)\s+)?(?:(?:very|much|"
                            r"really)\s+)?(?:(?:high|higher|increased|real|serious|significant|"
                            r"major|substantial)\s+)?risk\b", re.IGNORECASE)
_RISK_PREDICATE = re.compile(r"[^;:]{0,60}?(?:\b(?:is|are|would be|will be)\s+(?:a\s+)?"
                             r"(?:set-?up|recipe|risky|dangerous|unsafe|high-risk)\b|->\s*"
                             r"(?:increase|higher|more|greater)\b[^;:]{0,20}\brisk)",
                             re.IGNORECASE)


def _slash_names_share_dose(clause: Clause) -> Clause:
    """'Prednisolone/prednisone 60 mg once daily': two names of one drug joined by a slash
    are one mention, and the first takes the dose, schedule and verbs written after the
    second (not 'amlodipine/benazepril', two drugs)."""
    mentions = list(clause.mentions)
    for i in range(len(mentions) - 2, -1, -1):
        first, second = mentions[i], mentions[i + 1]
        if first.group == second.group == "drug" and first.concepts == second.concepts and (
                not first.quantities and second.quantities) and first.action is None and (
                clause.text[first.end:second.start].strip() == "/"):
            mentions[i] = dataclasses.replace(
                first, quantities=second.quantities, action=second.action,
                later=second.later, statuses=first.statuses | second.statuses,
                deciding=first.deciding or second.deciding)
    return dataclasses.replace(clause, mentions=tuple(mentions)) if (
        mentions != list(clause.mentions)) else clause


def _resolve_elided_drug(clause: Clause, previous: list[Clause], same_line: list[Clause],
                         cues: list[tuple[int, str]],
                         heading_drugs: tuple[Mention, ...] = ()) -> Clause:
    """'Buprenorphine 4 mg SL now ... Day 2 onward: 16 mg once daily': a dose written with no
    drug, in the same section right after a drug was named, is that drug's; so is a plan verb
    after a semicolon ('Atorvastatin 20 mg - safe; may be paused for 6 weeks'), and a verb with
    no object in an item under a problem heading that names a drug ('#2 Apixaban' over
    '- Stop (bleeding).')."""
    if previous and previous[-1].text.rstrip(" *_").endswith("?") and any(
            m.group == "drug" for m in previous[-1].mentions) and not any(
            m.group == "drug" for m in clause.mentions):
        return clause  # an answer to a question about a drug: the question's drug, not one
        # the plan named before it (_answer_acts_on_asked_drug)
    near = previous[-3:]
    doses = [q for q in clause.quantities if q.unit in ("mg", "mcg", "g", "iu")
             and q.role in ("", "limit")]
    line_drugs = [m for c in same_line for m in c.mentions if m.group == "drug"
                  and not m.negated]  # 'No heparin. Restart 48 h after surgery': not heparin
    if not line_drugs and clause.actions and _NO_OBJECT.match(
            clause.text, clause.actions[0].start + len(clause.actions[0].text)):
        line_drugs = _planned_drug(previous, clause.section) if same_line or (
            clause.section == "plan" and clause.actions[0].kind in _COURSE_VERBS) else []
        line_drugs = line_drugs or list(heading_drugs)
    if clause.actions and clause.actions[0].kind == "resume" and not clause.actions[0].negated:
        held = [m for c in reversed(near) for m in c.mentions if m.group == "drug"
                and m.decision == "stop" and c.section == clause.section][:1]
        line_drugs = held or line_drugs  # 'Hold dabigatran ... No heparin. Resume 48 h after'

    if not line_drugs and _ALTERNATIVE_OPENING.match(clause.text):
        line_drugs = [m for c in near[-1:] for m in c.mentions if m.group == "drug"]
    taper = next((a for a in clause.actions if a.kind == "decrease" and not a.negated
                  and _TAPER_NOUN.fullmatch(a.text)), None)
    if taper is not None and not any(category == NEGATED and at < taper.start
                                     for at, category in cues) and (
            clause.section not in REPORTING_SECTIONS) and not any(
            m.group == "drug" for m in clause.mentions) and any(
            a.kind in ("start", "resume") and a.start < taper.start
            or a.kind in ("allow", "endorse") and a.start > taper.start
            for a in clause.actions) and (
            tapered := line_drugs or _planned_drug(previous, clause.section)):
        # 'Continue buprenorphine 16 mg daily. A slow taper is reasonable now if she wishes',
        # 'begin a gradual taper in 1 month': a taper planned with no drug named tapers the
        # drug the plan is about (not 'tapering now would risk relapse', a reason, nor 'no
        # taper needed', which decides nothing of the drug)
        status = frozenset({category for _, category in cues} & {
            POSSIBLE, CONDITIONAL, TEMPORARY, ALTERNATIVE, LATER, HISTORICAL, COUNTERFACTUAL})
        elided = Mention(tapered[0].concepts, "", 0, 0, "drug", status, (), taper, (), (),
                         False, _present(taper))
        return dataclasses.replace(clause, mentions=(elided, *clause.mentions))
    masses = [q for q in clause.quantities if q.unit in ("mg", "mcg", "g", "iu")]
    step = _objectless_step(clause)
    if not masses and step is not None and line_drugs and not any(
            m.group in ("drug", "test") and not _times_the_step(clause, m)
            for m in clause.mentions) and not _VISIT_VERB.fullmatch(step[0].text):
        # not 'Ivermectin 15 mg once. Recheck in 2 weeks.': the patient is seen again, the
        # drug is not given again
        action, opening = step
        if any(category == NEGATED and opening <= at < action.start for at, category in cues):
            action = dataclasses.replace(action, negated=True)
        status = frozenset({category for at, category in cues if at >= opening} & {
            POSSIBLE, CONDITIONAL, TEMPORARY, ALTERNATIVE, LATER, HISTORICAL, COUNTERFACTUAL})
        later = tuple(a for a in clause.actions if a.start > action.start and _NO_OBJECT.match(
            clause.text, a.start + len(a.text)) and not _AFTER_ITS.search(
            clause.text, 0, a.start))  # 'Continue through 9 May, then stop.', not '... after
        # last dose' (a time)
        verdict = _DASH_VERDICT.search(clause.text, action.start + len(action.text))
        if verdict is not None and _LABEL_AFTER.match(clause.text, action.start + len(
                action.text)):  # 'Rechallenge: not allowed', 'Dose reduction - not needed':
            action, later = dataclasses.replace(action, negated=True), ()  # the step refused
        elided = Mention(line_drugs[0].concepts, "", 0, 0, "drug", status, (), action, later,
                         (), False, _present(action))
        return dataclasses.replace(clause, mentions=(elided, *clause.mentions))
    dose_form = _REPEATED_FORM.search(clause.text) or _FIELD_LABEL.match(clause.text)
    # 'take the second sachet on day 3'; 'DURATION: 3 months, stop 2026-06-17'
    earlier = [[m for m in c.mentions if m.group == "drug" and not (
        m.action is None and _OBJECT_OF_PREPOSITION.search(c.text, 0, m.start)) and not (
        m.has(ATTRIBUTE))] for c in near
               if (c.section == clause.section or dose_form) and not _turns_down_only(c)]
    # not 'no effect on bup 3A4 ...', nor a drug named for its levels ('bup levels
    # unaffected'), nor a clause that only turns drugs down ('And no lindane. Recheck 2 weeks
    # after the second dose'; 'avoid an SSRI, avoid going above 200 of sertraline')
    earlier = [found for found in earlier if found]
    if not (doses or dose_form) or not earlier or any(
            m.group == "drug" and not (doses and _REASON_BETWEEN.search(
                clause.text, doses[0].end, m.start)) for m in clause.mentions) or not (
            clause.section == "plan" or clause.actions or dose_form
            or _FORWARD_LOOKING.search(clause.text)):
        return clause
    subject = earlier[-1][0]  # the drug the nearest earlier clause is about: the one it
    # starts or goes on with ('it has failed permethrin, so I've switched him to ivermectin.
    # At 68 kg ... I've sent 15 mg'), else the first it names
    subject = next((m for m in earlier[-1] if m.decision in _PLANNED
                    and not m.has(COUNTERFACTUAL)), subject)
    if subject.decision == "keep_dose" and not subject.quantities and doses:
        return clause  # 'no change to dexamethasone. ... If renin stays high, go to 0.15 mg'
    if clause.actions and clause.actions[0].kind == "resume":  # or the one held before it
        subject = next((m for found in reversed(earlier) for m in found
                        if m.decision == "stop"), subject)
    action = next((a for a in clause.actions if not doses or a.start < doses[0].start), None)
    if action is not None and _negation_reaches_verb(clause.text, action, cues):
        action = dataclasses.replace(action, negated=True)  # 'do not increase above 40 mg/day'
    status = clause.quantity_status(doses[0]) if doses else frozenset()
    elided = Mention(subject.concepts, "", 0, 0, "drug", status,
                     (), action, (), clause.quantities, False,
                     action is not None and _present(action))
    if _OPENS_WITH_IF.match(clause.text) or _OPENS_WITH_THRESHOLD.match(clause.text):
        elided = dataclasses.replace(elided, statuses=elided.statuses | {CONDITIONAL})
    elided = _arrow_contingency(clause.text, [elided], clause.actions)[0]
    return dataclasses.replace(clause, mentions=(elided, *clause.mentions))


def _objectless_step(clause: Clause) -> tuple[Action, int] | None:
    """The plan verb of a clause that names no object, and where its step opens: the verb
    that opens the clause ('Restart 48 h after surgery'), or one right after an arrow whose
    left side only reports ('Last dose last night (>12 h) -> hold from tonight')."""
    openings = [(a, 0) for a in clause.actions[:1]]
    for arrow in _STEP_ARROW.finditer(clause.text):
        after = [a for a in clause.actions if a.start >= arrow.end()]
        reported = clause.text[:arrow.start()]
        if after and _REPORTED_PAST.search(reported) and not _TRIGGER_WORD.search(reported):
            openings.append((after[0], arrow.end()))  # not 'no benefit -> taper off', a trigger
    for action, opening in openings:
        if _SUBJECTLESS.fullmatch(clause.text[opening:action.start]) and not _OWN_OBJECT.match(
                clause.text, action.start + len(action.text)):
            return action, opening
    return None


# What an arrow's left side reports of the past ('Last dose last night', 'took it yesterday').
_REPORTED_PAST = re.compile(r"\b(?:last\s+(?:dose|tablet|pill|night|evening|taken)|yesterday|"
                            r"this\s+morning|took|taken|was|were|had)\b", re.IGNORECASE)
_TRIGGER_WORD = re.compile(r"\b(?:if|when|unless|once|should|no|not|fails?|persists?)\b",
                           re.IGNORECASE)
_STEP_ARROW = re.compile(r"(?<![\d%])\s->\s(?!\d)")  # not a trend '(130 -> 128)'
# '... 5 d after last dose': a drug's last dose that times the step, not a step of its own.
_AFTER_ITS = re.compile(r"\b(?:after|before|until|since|from|following)\s+(?:the\s+|his\s+|"
                        r"her\s+|their\s+)?$", re.IGNORECASE)


def _times_the_step(clause: Clause, mention: Mention) -> bool:
    """'resume the day after the last Paxlovid dose': a drug whose last dose only times the
    step (read as counterfactual, with no verb of its own) is not the step's object."""
    return mention.group == "drug" and mention.action is None and mention.has(
        COUNTERFACTUAL) and bool(_TIMED_BY_LAST_DOSE.search(clause.text, 0, mention.start))


def _negation_reaches_verb(text: str, action: Action, cues: list[tuple[int, str]]) -> bool:
    """'...; do not increase above 40 mg/day', 'no further increase (> 40 mg/d)': a negation
    cue before a verb with no object, with only auxiliary words between them, negates it (not
    'no response at 4 weeks, increase to 20 mg')."""
    if action.negated:
        return False
    for at, category in cues:
        if category != NEGATED or at >= action.start:
            continue
        words = re.findall(r"[\w']+", text[at:action.start].lower())
        if words and all(w in _AUXILIARY or w in _NEGATION_WORDS for w in words):
            return True
    return False


_NEGATION_WORDS = frozenset({"no", "not", "never", "don't", "dont", "do", "n't", "cannot"})


def _turned_down(mention: Mention) -> bool:
    return mention.negated or mention.decision == "avoid"


def _turns_down_only(clause: Clause) -> bool:
    """A clause that turns a drug down and decides nothing else of any drug: the drugs it names
    besides are named on the way ('avoid a second SSRI, avoid going above 200 of sertraline');
    not 'Lithium not yet: I'm holding the lithium refill until ...', a hold."""
    drugs = [m for m in clause.mentions if m.group == "drug"]
    return any(_turned_down(m) for m in drugs) and not any(
        m.decision is not None and not _turned_down(m) for m in drugs)


_COURSE_VERBS = frozenset({"continue", "stop"})
# A verb with no object that sees the patient again: it repeats no drug.
_VISIT_VERB = re.compile(r"re-?check|re-?assess|re-?evaluate|review|f/u|follow[\s-]?up|see",
                         re.IGNORECASE)
_RESTARTING = frozenset({"resume", "restart", "start", "begin", "resuming", "restarting",
                         "starting", "beginning"})
_TAPER_NOUN = re.compile(r"taper(?:ing)?|wean(?:ing)?|dose reduction", re.IGNORECASE)
# A drug named as the object of a preposition ('no effect on bup metabolism') is not what the
# clause is about.
_OBJECT_OF_PREPOSITION = re.compile(
    r"\b(?:on|with|about|than|between)\s+(?:the\s+|her\s+|his\s+)?$", re.IGNORECASE)


def _planned_drug(previous: list[Clause], section: str) -> list[Mention]:
    """The drug the plan just committed to, which a verb with no object goes on about:
    'Start apixaban 2.5 mg twice daily ... - Continue through 2026-05-09, then stop.' A drug
    the plan doses or acts on (in the last six clauses) outranks one only named on the way
    ('her only medicines are amlodipine and acetaminophen'); with none, the drug named in the
    section's last three clauses."""
    named = [m for c in reversed(previous) if c.section == section
             for m in c.mentions if m.group == "drug" and not m.negated]
    planned = [m for m in named if m.decision in _PLANNED or m.action is None and any(
        q.unit in ("mg", "mcg", "g", "iu") for q in m.quantities)]
    nearest = [m for c in reversed(previous[-3:]) if c.section == section
               for m in c.mentions if m.group == "drug" and not m.negated]
    return (planned or nearest)[:1]


_PLANNED = frozenset({"start", "continue", "switch", "increase", "decrease", "resume"})


# A verb followed by a time or a dose, not by an object: 'Restart 48-72 h after surgery'.
# What may follow a verb that has no object: the end, punctuation, a time or a schedule.
_NO_OBJECT_WORDS = (r"x|for|until|before|after|on|in|at|now|today|once|daily|tomorrow|"
                    r"through|thru|till")
_NO_OBJECT = re.compile(rf"[\s*]*(?:$|[(.;,:\d-]|(?:{_NO_OBJECT_WORDS})\b)", re.IGNORECASE)
# 'Plans second pregnancy within the year': the verb has an object of its own, no drug elided.
_OWN_OBJECT = re.compile(r"\s+(?:a|an|the|his|her|their|second|another|new|more)\s+"
                         r"(?!same\b|current\b|dose\b|medication\b|drug\b|tablets?\b|pills?\b|"
                         r"(?:day|week|month)\s+(?:after|following)\b)"  # 'the day after ...'
                         r"[a-z]|\s+(?!(?:it|this|that|them|these|those|again|now|today|tonight|"
                         r"tomorrow|then|once|if|when|after|before|at|in|on|with|for|from|until|through|till|"
                         r"and|or|but|as|daily|off|up|down|back|out|low|same|dose|medication|both|"
                         r"all|either|neither|each|"
                         r"drug|tablets?|pills?|per|by|po|to|is|was|will|should|can|may)\b)"
                         r"(?![a-z]+ly\b)[a-z]{4,}\b", re.IGNORECASE)  # 'start melatonin'

# '24 mg daily - chosen because of his fentanyl use': a drug named in the reason, not the dose's.
_REASON_BETWEEN = re.compile(r"\s-\s|\bbecause\b|\bgiven\b|\bdue to\b", re.IGNORECASE)


# 'This is stable, not a rise.': a sentence about what the paragraph has been measuring.
_DEMONSTRATIVE = re.compile(r"\s*(?:this|that|it)\s+(?:is|was|has\s+been|remains|looks|seems)\b",
                            re.IGNORECASE)


def _about_last_test(clause: Clause, paragraph: list[Clause]) -> Clause:
    """'The PSA of 6.3 ng/mL is above the limit ... No 5-ARI on board. This is stable, not a
    rise.': 'This' is the test the paragraph opened with, or the last one it named, when the
    clause names none."""
    if any(m.group == "test" for m in clause.mentions):
        return clause
    tests = [m for c in paragraph for m in c.mentions if m.group == "test"]
    if not tests:
        return clause
    return dataclasses.replace(clause, topic=clause.topic | tests[0].concepts | tests[-1].concepts)


# A question opening with its interrogative: where the question begins when the line before
# it, with no period, was run into it ('... (migraine with aura) Can she continue the COC?').
_INTERROGATIVE = re.compile(r"(?<![\w-])(?:Can|Could|Should|Shall|Is|Are|Does|Do|Did|Will|Would|"
                            r"May|What|Which|How|Why|When|Where|Who|Any)\b")


def _question_start(text: str) -> int:
    """Where the last question in a clause begins (0 when none is found)."""
    if not text.rstrip(" *_").endswith("?"):
        return 0
    starts = [m.start() for m in _INTERROGATIVE.finditer(text)]
    return starts[-1] if starts else 0


def _continue_subject(clause: Clause, previous: Clause) -> Clause:
    """A clause goes on about what the one before it measured ('PCE 10-year risk: 12.2%.'
    then 'Risk category: intermediate'); an answer goes on about its question ('What is his
    risk? - About 12.2%, intermediate'; 'Should he start a statin? - Yes.')."""
    query = _QUERY_LINE.match(previous.text) or (  # '#4 Pharmacist suggested lindane' over
        _REPORTED_PROPOSAL.match(previous.text)  # '- Not recommended: neurotoxic': a heading
        if not previous.text.rstrip(" *_").endswith(".") else None)  # of what another proposed
    asked = previous.text.rstrip().endswith("?") or bool(query)
    if previous.section != clause.section and not asked:
        return clause
    measured = [m for m in previous.mentions if m.group == "test"]
    topic = clause.topic | frozenset().union(*(m.concepts for m in measured))
    clause = dataclasses.replace(clause, topic=topic)
    if not asked:
        return clause
    answer = _ANSWER.match(clause.text)
    if query and not answer:
        if clause.section != "avoid" or any(m.group == "drug" for m in clause.mentions):
            return clause
        answer = re.match("(no)", "no")  # '#3 PCP query re cephalexin' / '- Not indicated: ...'
    inherited = []
    own = tuple(q for q in clause.quantities if not _in_aside(clause.text, q.start)) if any(
        m.group == "test" for m in clause.mentions) else clause.quantities
    if measured and own and not any(
            m.group == "test" and not _in_aside(clause.text, m.start) for m in clause.mentions):
        inherited.append(Mention(measured[-1].concepts, "", 0, 0, "test",
                                 clause.quantity_status(own[0]), (), None, (), own, False))
    if answer:  # 'Yes' takes the question's decision or finding, 'No' turns it down
        no = answer.group(1).lower() != "yes"
        asked_from = _question_start(previous.text) if not query else 0
        for m in previous.mentions:
            if m.text and m.start < asked_from:
                continue  # 'MEC category: 4 (migraine with aura) Can she continue the COC?'

            statuses = m.statuses - {COUNTERFACTUAL, POSSIBLE, HISTORICAL}
            if m.action is not None:
                action = dataclasses.replace(m.action, start=0, negated=no)
                inherited.append(dataclasses.replace(m, start=0, end=0, text="", action=action,
                                                     deciding=True, statuses=statuses))
            elif m.group == "finding":
                inherited.append(dataclasses.replace(m, start=0, end=0, text="", negated=no,
                                                     statuses=statuses))
            elif m.group == "drug" and (_ACCEPTABLE.search(previous.text) or (
                    query and m.start >= query.end()) or (
                    _PROPOSED.fullmatch(previous.text[:m.start])
                    and _PROPOSAL_END.match(previous.text, m.end))):
                # 'Is hydrochlorothiazide all right? - No.' (not 'Is her dose adequate?');
                # 'Q: Oral cephalexin in case there is infection underneath? No.'
                inherited.append(dataclasses.replace(
                    m, start=0, end=0, text="", negated=no, deciding=True,
                    statuses=statuses - {CONDITIONAL},
                    action=None if no else Action("allow", answer.group(1).lower(), 0)))
    return dataclasses.replace(clause, mentions=(*inherited, *clause.mentions))


# A table's total row: 'Total | | 10/10', 'Domain Total: Points 10/10' (the first header kept).
_TOTAL_ROW = re.compile(r"\s*(?:[A-Za-z/-]+\s+)?(?:total|sum|total score|overall score)\s*:",
                        re.IGNORECASE)


def _total_row_of_titled_table(clause: Clause, clauses: list[Clause]) -> Clause:
    """'**2010 ACR/EULAR classification**' over a points table: the table's Total row gives the
    score the title names, when the title is a measure with no value of its own."""
    if clause.kind != "row" or not _TOTAL_ROW.match(clause.text) or any(
            m.group == "test" for m in clause.mentions) or not clause.quantities:
        return clause
    index = len(clauses) - 1
    while index >= 0 and clauses[index].kind == "row":
        index -= 1
    if index < 0 or index == len(clauses) - 1 or clauses[index].quantities:
        return clause
    measured = [m for m in clauses[index].mentions if m.group == "test"]
    if len(measured) != 1 or len(clauses[index].text.split()) > 6:
        return clause
    own = clause.quantities
    inherited = Mention(measured[0].concepts, "", 0, 0, "test", clause.quantity_status(own[0]),
                        (), None, (), own, False)
    return dataclasses.replace(clause, mentions=(inherited, *clause.mentions))


def _answer_acts_on_asked_drug(clause: Clause, question: Clause,
                               cues: list[tuple[int, str]]) -> Clause:
    """'**What do we do with his amoxicillin?**' over 'Keep going - finish the 14-day course
    at 500 mg TID': an answer that opens with a plan verb and no object of its own acts on the
    one drug the question asked about."""
    if not question.text.rstrip(" *_").endswith("?") or not clause.actions or any(
            m.group in ("drug", "test") for m in clause.mentions):
        return clause
    asked = {m.concepts for m in question.mentions if m.group == "drug"}
    action = clause.actions[0]
    after = action.start + len(action.text)
    pronoun = _PRONOUN_AFTER_VERB.match(clause.text, after)  # 'Leave it at 0.5 mg twice daily'
    if len(asked) != 1 or not (_SUBJECTLESS.fullmatch(clause.text[:action.start])
                               or _REFUSAL_LEAD.fullmatch(clause.text[:action.start])) or not (
            _NO_OBJECT.match(clause.text, pronoun.end() if pronoun else after)):
        return clause
    if any(category == NEGATED and at < action.start for at, category in cues):
        action = dataclasses.replace(action, negated=True)  # 'Don't stop - ...'
    status = frozenset({category for _, category in cues} & {
        POSSIBLE, CONDITIONAL, TEMPORARY, ALTERNATIVE, LATER, HISTORICAL, COUNTERFACTUAL})
    later = tuple(a for a in clause.actions[1:] if _NO_OBJECT.match(
        clause.text, a.start + len(a.text)))
    elided = Mention(next(iter(asked)), "", 0, 0, "drug", status, (), action, later,
                     clause.quantities, False, _present(action))
    return dataclasses.replace(clause, mentions=(elided, *clause.mentions))


_PRONOUN_AFTER_VERB = re.compile(r"\s+(?:it|them)\b", re.IGNORECASE)
_REFUSAL_LEAD = re.compile(r"\s*(?:please\s+)?(?:do not|don't|never)\s+", re.IGNORECASE)


def _in_aside(text: str, at: int, start: int = 0) -> bool:
    """Whether a position sits inside a parenthesis opened after `start` ('36-39 weeks (SMFM,
    for bile acids <100)': the aside's test is not what the answer measures)."""
    return text.count("(", start, at) > text.count(")", start, at)


# ('A: No.' labels the answer to a 'Q: ...?' line; '-> NO' gives it with an arrow)
_ANSWER = re.compile(r"[\s:]*(?:a\s*\d*\s*[:.)-]\s*|(?:->|=>|=)\s*)?(yes|no|"
                     r"(?=not\s+(?:indicated|recommended|needed|necessary|advised|warranted|"
                     r"today|now|yet|at this time|at present)\b))\b", re.IGNORECASE)
# A heading that names what the referring clinician asked about ('#3 PCP query re oral
# cephalexin'): the lines under it answer it.
_QUERY_LINE = re.compile(r"\W*(?:#?\d+[.)]?\s*)?"
                         r"(?:(?:the\s+)?(?:pcp|pcp's|referring|referrer's)\s+)?"
                         r"(?:query|question|ask)\s+(?:re:?|about|regarding|on)\s", re.IGNORECASE)
# A verbless question that proposes a drug ('Q: Oral cephalexin in case ...?', 'A longer
# course of Cortisporin?', 'PCP question 2 - another prednisone burst?'): a 'No' answer turns
# the drug down.
_PROPOSED = re.compile(r"\s*(?:(?:(?:the\s+)?(?:pcp|pcp's|referring|referrer's|your)\s+)?"
                       r"(?:question|query|q)\s*#?\d*\s*[:.)-]\s*)?(?:(?:an?|the|oral|topical|longer|"
                       r"short|shorter|another|more|empiric|(?:\w+\s+)?course\s+of)\s+){0,3}",
                       re.IGNORECASE)
_PROPOSAL_END = re.compile(r"(?:\s*\([^()]{0,40}\))?(?:\s+or\s+(?:[\w-]+\s+){0,3}[\w-]+)?"
                           r"[^?.;]{0,12}?(?:\?|\s+(?:in case|for|instead|now|too|as well)\b)",
                           re.IGNORECASE)  # 'Another burst (40 mg x5 days) or a longer taper?'
_ACCEPTABLE = re.compile(r"\b(?:all right|alright|ok|okay|safe|fine|acceptable|allowed|"
                         r"permitted|a candidate for|suitable for)\b", re.IGNORECASE)


def _resolve_bare_value(clause: Clause, previous: list[Clause]) -> Clause:
    """'Calculation: FIB-4 = ... = 1.89.' then 'Interpretation: 1.89 is indeterminate': a
    sentence whose subject is a bare number speaks of the measure just named; a 'Total = 0'
    after a score's items speaks of the score named above the items."""
    match = _NUMBER_SUBJECT.match(clause.text)
    total = _TOTAL_SUBJECT.match(clause.text)
    if _FORMULA_SUBJECT.match(clause.text) and not any(m.group == "test"
                                                       for m in clause.mentions):
        # 'Iron deficit (Ganzoni)' then '- 81 x (15 - 9.2) x 2.4 + 500 = 1628 mg': a formula
        # written under the label of what it computes
        labels = [m for c in previous[-6:] if _SHORT_LABEL.fullmatch(c.text)
                  for m in c.mentions if m.group == "test"]
        if labels:
            subject = Mention(labels[-1].concepts, "", 0, 0, "test", frozenset(), (), None, (),
                              clause.quantities, False)
            return dataclasses.replace(clause, mentions=(subject, *clause.mentions))
    if not (match or total) or any(m.group == "test" for m in clause.mentions):
        return clause
    match = match or total
    tests = [m for c in (previous if total else previous[-3:]) for m in c.mentions
             if m.group == "test"]
    if total:  # the score whose items were listed: named in the line that opened the list
        tests = [m for c in previous if c.text.rstrip().endswith(":")
                 for m in c.mentions if m.group == "test"] or tests
    if not tests:
        return clause
    named = tests[-1]
    subject = Mention(named.concepts, match.group(1), match.start(1), match.start(1), "test",
                      clause.quantity_status(clause.quantities[0]) if clause.quantities
                      else frozenset(), (), None, (), clause.quantities, False)
    return dataclasses.replace(clause, mentions=(subject, *clause.mentions))


_FORMULA_SUBJECT = re.compile(r"\W*\(?\d[\d.,]*\s*(?:x|\*|/|\+|-)\s*\(?\d[^=]*=")
_SHORT_LABEL = re.compile(r"[^.;!?\d]{2,50}?:?")
_TOTAL_SUBJECT = re.compile(r"\s*(?:total|total score|sum|overall score|final score)\s*"
                            r"(?:=|:|is|of)\s*(\d+(?:\.\d+)?)\b", re.IGNORECASE)
_NUMBER_SUBJECT = re.compile(r"\s*(?:[A-Za-z ]{1,20}:\s*)?(\d+(?:\.\d+)?)\s+"
                             r"(?:is|=|falls|lies|sits)\b",
                             re.IGNORECASE)


def _resolve_bare_ratio(clause: Clause, previous: list[Clause]) -> Clause:
    """'kappa 63.9, lambda 34, ratio 1.88': a bare 'ratio' with a value is the ratio of the two
    measures the clause named before it, or else the ratio the note named last."""
    match = _BARE_RATIO.search(clause.text)
    ratios = {concept_id for concept_id, _, _ in _ratio_concepts()}
    if match is None or any(m.start <= match.start() < m.end or m.group == "test" and not (
            m.concepts.isdisjoint(ratios)) for m in clause.mentions):
        return clause
    before = clause.text[:match.start()].lower()
    named = next((concept_id for concept_id, x, y in _ratio_concepts()
                  if re.search(rf"\b{re.escape(x)}\b", before)
                  and re.search(rf"\b{re.escape(y)}\b", before)), None)
    if named is None:
        named = next((c for earlier in reversed(previous) for m in reversed(earlier.mentions)
                      for c in m.concepts if c in ratios), None)
    own = tuple(q for q in clause.quantities if q.start >= match.end())
    if named is None or not own:
        return clause
    ratio = Mention(frozenset({named}), match.group(0), match.start(), match.end(), "test",
                    clause.quantity_status(own[0]), (), None, (), own, False)
    return dataclasses.replace(clause, mentions=tuple(sorted((*clause.mentions, ratio),
                                                             key=lambda m: m.start)))


_BARE_RATIO = re.compile(r"\b(?:the\s+|a\s+|his\s+|her\s+)?ratio\b(?=\s*(?:is|was|of|=|:|,)?\s*"
                         r"(?:about|approximately|~)?\s*\d)", re.IGNORECASE)


@functools.cache
def _ratio_concepts() -> tuple[tuple[str, str, str], ...]:
    """(concept id, first, second) for every ratio the lexicon names as 'first/second ratio'."""
    found = []
    for concept in lexicon.concepts().values():
        for term in concept.terms:
            pair = re.fullmatch(r"([a-z]{3,})\s*[/:-]\s*([a-z]{3,})\s+ratio", term.lower())
            if pair and concept.kind == "test":
                found.append((concept.id, pair.group(1), pair.group(2)))
                break
    return tuple(found)


def _resolve_the_repeat(clause: Clause, previous: list[Clause]) -> Clause:
    """'Repeat the 24-h urine 5-HIAA ...; if the repeat is above 25, order a PET': 'the repeat'
    names the test just ordered again."""
    match = _THE_REPEAT.search(clause.text)
    if not match or any(m.group == "test" and m.start < match.end() for m in clause.mentions):
        return clause
    ordered = [m for c in previous for m in c.mentions
               if m.group == "test" and m.decision == "order"]
    if not ordered:
        return clause
    named = ordered[-1]
    ref = Mention(named.concepts, match.group(0), match.start(), match.end(), "test",
                  frozenset(), (), None, (), (), False)
    return dataclasses.replace(clause, mentions=tuple(sorted((*clause.mentions, ref),
                                                             key=lambda m: m.start)))


_THE_REPEAT = re.compile(r"\bthe (?:repeated test|repeat test|repeat level|repeat value|"
                         r"repeat result|second collection|repeat|recheck)\b(?!\s+(?:of|on)\b)",
                         re.IGNORECASE)


def _resolve_pronoun(clause: Clause, previous: Clause) -> Clause:
    """'Her sodium was 137 in December. It has since fallen to 130, 128 and 126': a sentence
    whose subject is a pronoun reports on the test the previous sentence named."""
    match = _PRONOUN_SUBJECT.match(clause.text)
    tests = [m for m in previous.mentions if m.group == "test" or any(  # or a measured finding:
        lexicon.concept(c).unit for c in m.concepts)]  # 'A fibroelastoma ... On TEE it is 11 mm'

    if not match or not tests or not clause.quantities or any(
            m.group == "test" and m.start <= clause.quantities[0].start for m in clause.mentions):
        return clause
    named = tests[-1]
    next_test = min((m.start for m in clause.mentions if m.group == "test"),
                    default=len(clause.text))  # 'it is 8.9 (...), with a free T4 of 0.9'
    own = tuple(q for q in clause.quantities if q.start < next_test)
    pronoun = Mention(named.concepts, match.group(0), 0, match.end(), named.group,
                      clause.quantity_status(own[0]), (), None, (), own, False)
    return dataclasses.replace(clause, mentions=(pronoun, *clause.mentions))


def _past_trial(clause: Clause) -> Clause:
    """'She has had an adequate trial (20 mg daily for 10 months)', 'failed a 6-week trial of
    sertraline': a trial had is the drug's history, not one started now."""
    def past(m: Mention) -> bool:
        return m.group != "finding" and m.action is not None and m.action.text.startswith(
            "trial") and bool(
            _HAD_A.search(clause.text, 0, m.action.start))
    return _course_with_outcome(_marked(clause, past, HISTORICAL))


def _threshold_means(clause: Clause) -> Clause:
    """'parasitemia >= 10% means admission and exchange transfusion', 'a CD4 below 200 calls
    for TMP-SMX': a value past a threshold, as the subject, and what it means is a rule, a
    step under a condition like 'if parasitemia >= 10%, admit', not the plan for today."""
    rule = _THRESHOLD_SUBJECT.match(clause.text)
    if rule is None:
        return clause
    ends = _RULE_ENDS.search(clause.text, rule.end())  # '..., and the urine sodium ...' goes
    end = ends.start() if ends else len(clause.text)  # on to state what is so
    return _marked(clause, lambda m: rule.end() <= m.start < end and m.group != "finding",
                   CONDITIONAL)  # the steps it calls for; what it means is said of the value


_RULE_ENDS = re.compile(r",\s+(?:and|but|so|while|whereas)\b|;|\.\s")
_THRESHOLD_SUBJECT = re.compile(
    r"[\W\d]*(?:(?:an?|the|any)\s+)?[A-Za-z][\w/ -]{0,40}?\s*(?:<=?|>=?|=>|(?:above|below|over|"
    r"under|greater\s+than|less\s+than|more\s+than|at\s+least|beyond)\s+(?:about\s+)?)\s*\d[\d.,]*"
    r"\s*(?:%|[A-Za-z/]+(?:/[A-Za-z]+)?)?\s+(?:means|calls\s+for|warrants|mandates|requires|"
    r"needs|triggers|prompts|should\s+prompt|would\s+(?:mean|prompt|need|require|warrant))\b",
    re.IGNORECASE)


def _course_with_outcome(clause: Clause) -> Clause:
    """'trial 1: escitalopram 20 mg x 4 mo -> inadequate (PHQ-9 18)', 'paroxetine 40 mg for 8
    weeks - no response': a course told with its length and then its outcome is over, a
    record like a dated one; its drug is history, its values are the outcome's, not today's."""
    outcome = _COURSE_OUTCOME.search(clause.text)
    if outcome is None or _OUTCOME_IF.search(clause.text, 0, outcome.start()):
        return clause
    drugs = [m for m in clause.mentions if m.group == "drug" and m.end <= outcome.start()]
    if not drugs or any(a.start < outcome.start() and not a.text.lower().startswith("trial")
                        for a in clause.actions) or not any(
            q.unit in ("d", "wk", "mo", "y") and drugs[0].end <= q.start < outcome.start()
            for q in clause.quantities):
        return clause
    return dataclasses.replace(clause, past_dated=True, mentions=tuple(
        dataclasses.replace(m, statuses=m.statuses | {HISTORICAL}, action=None)
        if m.end <= outcome.start() and m.group != "finding" else m for m in clause.mentions))


_COURSE_OUTCOME = re.compile(
    r"(?:->|:|\s[-–—]|,|\bwith)\s*(?:an?\s+)?(?:inadequate|insufficient|failed|ineffective|"
    r"no\s+(?:response|benefit|improvement|effect)|non-?response|partial(?:\s+response)?|"
    r"not\s+tolerated|intolerant|poor\s+response|minimal\s+(?:response|benefit))\b",
    re.IGNORECASE)
_OUTCOME_IF = re.compile(r"\b(?:if|unless|when|should|until)\b", re.IGNORECASE)


def _marked(clause: Clause, chosen: Callable[[Mention], bool], status: str) -> Clause:
    """The clause with ``status`` added to the mentions ``chosen`` picks."""
    if not any(chosen(m) for m in clause.mentions):
        return clause
    return dataclasses.replace(clause, mentions=tuple(
        dataclasses.replace(m, statuses=m.statuses | {status}) if chosen(m) else m
        for m in clause.mentions))


_HAD_A = re.compile(r"\b(?:had|has\s+had|have\s+had|completed|failed|after)\s+(?:an?|the|her|"
                    r"his|their)\s+(?:[\w-]+\s+){0,3}$", re.IGNORECASE)


def _drug_profile(clause: Clause, previous: Clause | None) -> Clause:
    """'Bupropion has no sexual side effects', 'It (the drug just named) causes essentially no
    weight gain', 'Why bupropion: no sexual side effects': what the drug does not cause, its
    profile, neither denies nor affirms the finding in this patient."""
    drugs = [m for m in clause.mentions if m.group == "drug"]
    last_drug = previous is not None and any(m.group == "drug" for m in previous.mentions)
    label = _PROFILE_LABEL.match(clause.text)
    label_end = label.end() if label and any(
        label.start(1) <= m.start < label.end() for m in drugs) else -1

    def profile(m: Mention) -> bool:
        if m.group != "finding" or not m.negated or m.action is not None:
            return False
        if 0 <= label_end <= m.start and re.fullmatch(
                r"[^.;:]*?(?:\bno|\bwithout|\bnot)\s+(?:[\w-]+\s+){0,2}",
                clause.text[label_end:m.start], re.IGNORECASE):
            return True
        has = _PROFILE_VERB.search(clause.text, 0, m.start)
        if has is None:
            return False
        subject = has.start(1)
        if has.group(1).lower() in ("it", "this"):
            return last_drug or any(d.end <= subject for d in drugs)
        return any(d.start <= subject < d.end for d in drugs)

    if not any(profile(m) for m in clause.mentions):
        return clause
    return dataclasses.replace(clause, mentions=tuple(
        dataclasses.replace(m, negated=False, statuses=m.statuses | {COUNTERFACTUAL})
        if profile(m) else m for m in clause.mentions))


# 'Why bupropion:', 'Rationale for bupropion -', 'Bupropion advantages:'
_PROFILE_LABEL = re.compile(r"\W*(?:why|reasons?\s+for|rationale\s+for|advantages?\s+of|"
                            r"benefits?\s+of|pros?\s+of)\s+(\S.{0,40}?)(?:\s*:|\s[-–—]\s)",
                            re.IGNORECASE)
# '<drug> has essentially no', 'it causes no', 'it carries little or no'; the subject is the
# drug named right before the verb, or 'it' after a drug.
_PROFILE_VERB = re.compile(r"(?:^|[,;(]\s*|\b(?:and|but|while|whereas|as|since|because)\s+)"
                           r"\W*(it|this|[\w-]+(?:\s+(?:XL|SR|ER|XR|IR))?)\s+"
                           r"(?:also\s+|usually\s+|generally\s+|typically\s+)?"
                           r"(?:has|causes|carries|produces|brings)\s+"
                           r"(?:essentially\s+|virtually\s+|almost\s+|practically\s+|basically\s+|"
                           r"little\s+(?:or|to)\s+|minimal\s+(?:or|to)\s+)?"
                           r"(?:no|none\s+of\s+the)\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)


def _resolve_all_ordered(clause: Clause, previous: Clause) -> Clause:
    """'A CBC weekly ... and a BMP weekly ... Both are ordered.' or 'I have ordered both.': a
    sentence whose subject or object stands for the tests just named orders them."""
    match = _ALL_ORDERED.match(clause.text)
    tests = [m for m in previous.mentions if m.group == "test" and m.action is None
             and not m.negated and not m.has(HISTORICAL, COUNTERFACTUAL)]
    if not match or not tests or any(m.group == "test" for m in clause.mentions):
        return clause
    verb = 1 if match.group(1) else 2
    action = Action("order", match.group(verb).lower(), match.start(verb))
    ordered = tuple(dataclasses.replace(m, start=0, end=0, text="", action=action,
                                        statuses=frozenset(), cues=(), later=())
                    for m in tests)  # ordered now: not the options they were named as
    return dataclasses.replace(clause, mentions=(*ordered, *clause.mentions))


_ALL_ORDERED = re.compile(r"\W*(?:(?:both|all|these|those|they|each|all of these|both of these|"
                          r"both tests|these tests)\s+(?:are|were|have been|has been|is)\s+"
                          r"(?:now\s+|already\s+)?(ordered|placed|requested|arranged|scheduled|"
                          r"booked)\b"
                          # 'I have ordered both.', "We've requested all of these today."
                          r"|(?:i|we)(?:'ve|\s+have)?\s+(?:now\s+|already\s+|just\s+)?"
                          r"(ordered|placed|requested|arranged|scheduled|booked)\s+"
                          r"(?:both|all|them|these|those|each)(?:\s+of\s+(?:them|these|those))?"
                          r"(?:\s+(?:tests|studies|orders))?(?:\s+(?:today|now))?\W*$)",
                          re.IGNORECASE)


def _clause_texts(note_lines: tuple[Line, ...]) -> list[tuple[str, Line]]:
    """(text, line) of every clause: sentences of each line, split at semicolons."""
    out = []
    for line in note_lines:
        if line.kind == "heading" and line.section != "question" and not re.search(
                r"\d", line.text) and not line.contingent:
            continue  # a bold question stays: its answer ('No - please stop it.') needs it;
            # so does a heading that gives a value ('# BPH with LUTS, prostate 62 mL') and a
            # red-flag heading that names where its triggers send him ('Red flags - go to the ED')
        sentences = (_segmenter().segment(line.text) if _SENTENCE_HINT.search(line.text)
                     else [line.text])
        for sentence in (part for s in sentences for long in _split_run_on(s)
                         for after in _split_after_letter(long)
                         for part in _split_arrow_steps(after)):
            for part in (piece for whole in _split_outside_brackets(sentence)
                         for piece in _split_before_own_verdict(whole)):
                part = part.strip()
                if part and re.search(r"\w", part):
                    if out and _CAUSE_QUESTION.search(out[-1][0]):
                        part = _BARE_CAUSE.sub(r"\1due to \2", part)
                    out.append((_cause_named(part), line))
    return out


# 'What is causing the high prolactin? Risperidone.': a bare answer to a question about a
# cause names the cause, as 'due to risperidone' does.
_CAUSE_QUESTION = re.compile(
    r"\b(?:what(?:'s|\s+is|\s+are)?\s+(?:(?:most\s+)?likely\s+)?(?:causing|driving|behind|"
    r"responsible\s+for|the\s+(?:(?:most\s+)?(?:likely|probable)\s+)?(?:cause|etiology|"
    r"explanation|reason)\b)|what\s+(?:causes|explains))[^?]*\?$", re.IGNORECASE)
_BARE_CAUSE = re.compile(
    r"^((?:(?:most|very|almost\s+certainly)\s+)?(?:likely|probably|certainly)?\s*)"
    r"(?!(?:not|no|unclear|unknown|uncertain|none|yes|it|this|that|see|both|either)\b)"
    r"((?:the\s+|her\s+|his\s+)?[A-Za-z][\w-]*(?:\s+[\w-]+){0,2}\s*(?:\([^()]*\))?)"
    r"(?=[.!]?$)", re.IGNORECASE)


# 'The most likely cause is risperidone', 'the culprit here is the risperidone': the cause named
# after its noun, told as 'due to risperidone'.
_CAUSE_IS = re.compile(
    r"\b(?:the|her|his|its)\s+(?:(?:most\s+)?(?:likely|probable)\s+|main\s+|underlying\s+)?"
    r"(?:cause|culprit|etiology|aetiology|explanation|driver)(?:\s+(?:of|for)\s+[^,;.]{1,40}?)?"
    r"(?:\s+here)?\s+is\s+(?:(?:most\s+)?(?:likely|probably|almost\s+certainly)\s+)?"
    r"(?:the\s+|her\s+|his\s+)?(?=[A-Za-z])(?!(?:not|unclear|unknown|uncertain)\b)",
    re.IGNORECASE)
# 'I think this is risperidone.', 'It's probably the risperidone.': a drug given as what the
# problem is names it as the cause.
_THIS_IS_A_DRUG = re.compile(
    r"\b(?:this|it)(?:'s|\s+is)\s+((?:(?:most\s+)?(?:likely|probably|almost\s+certainly)\s+)?)"
    r"(?:the\s+|her\s+|his\s+)?([A-Za-z][\w-]*)(?=\s*[.!]?$)", re.IGNORECASE)


# 'Restart lisinopril once creatinine is near baseline': a resume timed by a recovery is
# conditional, as with 'when' (same length, so offsets hold); 'fosfomycin 3 g once' is no
# condition, 'Start X once labs are back' and 'Once healing is confirmed, stop X' are steps.
_ONCE_CLAUSE = re.compile(
    r"(?<=[A-Za-z]\s)once(?!\s+(?:daily|a|per|every|weekly|nightly|monthly|yearly|only|more|"
    r"again)\b)(?=\s+(?:the\s+|his\s+|her\s+|their\s+)?[\w/-]+(?:\s+[\w/-]+)?\s+(?:is|are|has|have|"
    r"recovers?|returns?|normali[sz]es?|improves?|settles?|stabili[sz]es?|falls?|drops?|comes?|"
    r"gets?|goes?|resolves?)\b)", re.IGNORECASE)


_RESUME = re.compile(r"\b(?:restart|resume|reintroduce|re-start)", re.IGNORECASE)


def _cause_named(clause: str) -> str:
    if _RESUME.search(clause):
        clause = _ONCE_CLAUSE.sub("when", clause)
    clause = _CAUSE_IS.sub("due to ", clause)
    this_is = _THIS_IS_A_DRUG.search(clause)
    if this_is and _group(this_is.group(2)) == "drug":
        clause = (clause[:this_is.start()] + f"this is {this_is.group(1)}due to "
                  + this_is.group(2) + clause[this_is.end():])
    return clause


# A dictated run-on ('..., so she now has osteoporosis ..., and I put in the prescription ...'):
# past this many words, a comma before a new subject ends a clause.
_RUN_ON_WORDS = 60
_NEW_SUBJECT = re.compile(
    r",\s+(?=(?:(?:and|so|but|then)\s+)?(?:I|I'm|I've|I'll|we|we'll|we're|she|he|she's|he's|"
    r"it|it's|that's|there's|they|her|his|this|the)\s)")


# '..., not iron deficiency, and the iron tablets should stop': a new subject with a modal
# opens a plan of its own, whatever the first part told.
_NEW_MODAL_SUBJECT = re.compile(
    r",\s+(?=(?:and|so|but)\s+(?:the|his|her|I|we|you|he|she|they)\b[^,;.()]{0,40}?\b"
    r"(?:should|must|will|needs? to)\b)")


def _split_run_on(sentence: str) -> list[str]:
    """A very long sentence split at commas that open a clause with its own subject; any
    sentence split where a new subject with a modal opens a plan."""
    if len(sentence.split()) <= _RUN_ON_WORDS:
        cuts = [m.start() + 1 for m in _NEW_MODAL_SUBJECT.finditer(sentence)]
        return [sentence[a:b] for a, b in zip([0, *cuts], [*cuts, len(sentence)], strict=True)]
    cuts = [m.start() + 1 for m in _NEW_SUBJECT.finditer(sentence)
            if not (_LIST_ITEM_BEFORE.search(sentence, 0, m.end())
                    and _LIST_ITEM_AFTER.match(sentence, m.end()))]
    return [sentence[a:b] for a, b in zip([0, *cuts], [*cuts, len(sentence)], strict=True)]


# 'stopping the Tums, the calcium tablet, hydrochlorothiazide and ibuprofen': a list of
# objects, not a new subject.
_LIST_ITEM_BEFORE = re.compile(r"\b(?:the|her|his)\s+[\w-]+(?:\s+[\w-]+)?,\s+$", re.IGNORECASE)
_LIST_ITEM_AFTER = re.compile(r"(?:the|her|his)\s+[\w-]+(?:\s+[\w-]+){0,2}\s*(?:,|\band\b)",
                              re.IGNORECASE)


# 'class C. This is ...', 'vitamin D. Recheck ...': a lone capital after a lowercase word names a
# class or a vitamin, not an initial, so its period ends the sentence.
_LETTER_END = re.compile(r"\b(?:[a-z][\w-]*|\d+(?:\.\d+)?)\s+[A-Z]\.(?=\s+[A-Z][a-z])")


def _split_after_letter(sentence: str) -> list[str]:
    """A sentence split after a class letter the sentence splitter took for an initial."""
    cuts = [m.end() for m in _LETTER_END.finditer(sentence)]
    return [sentence[a:b] for a, b in zip([0, *cuts], [*cuts, len(sentence)], strict=True)]


# '... hold x 4 days -> NO bridging -> restart 48-72 h post-op': a step that takes back up what
# was held (or tapers what was started) is a sentence of its own, so it takes the held drug and
# not the bridge turned down.
_ARROW_NEXT_STEP = re.compile(r"\s*->\s*(?=(?:then\s+)?(?:resume|restart|re-start|reinstate|taper|"
                           r"wean)\b)", re.IGNORECASE)


# An outcome written as a step of its own in a chain: '... -> f/u 6-8 wk -> no benefit ->'.
_NO_EFFECT = re.compile(r"\s*(?:(?:if\s+)?(?:no|not|without)\s+(?:benefit|response|improvement|"
                        r"effect|better|improved|helpful|helping|effective)|ineffective|fails?|"
                        r"not tolerated|intoleran\w*|side effects?)\s*", re.IGNORECASE)


def _split_arrow_steps(sentence: str) -> list[str]:
    """A chain of steps split before a step that resumes what an earlier step held, or
    tapers what it started ('prednisone 80 mg daily x 4 wk -> taper over 4-6 wk')."""
    cuts = []
    for match in _ARROW_NEXT_STEP.finditer(sentence):
        outcome = sentence.rfind("->", 0, match.start())
        if outcome >= 0 and _NO_EFFECT.fullmatch(sentence[outcome + 2:match.start()]):
            cuts.append((outcome, outcome + 2))  # '-> no benefit -> taper off': a trigger and
        else:  # its step stay one clause
            cuts.append((match.start(), match.end()))
    starts, ends = [0, *(b for _, b in cuts)], [*(a for a, _ in cuts), len(sentence)]
    return [sentence[a:b] for a, b in zip(starts, ends, strict=True)]


def _split_outside_brackets(sentence: str) -> list[str]:
    """Parts of a sentence split at semicolons and ' -- ', except inside ( ) or [ ]."""
    parts, depth, start = [], 0, 0
    for match in re.finditer(r"[(\[]|[)\]]|;\s+|\s+--\s+", sentence):
        token = match.group(0)
        if token in "([":
            depth += 1
        elif token in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            parts.append(sentence[start:match.start()])
            start = match.end()
    return parts + [sentence[start:]]


# 'no NSAIDs like ibuprofen or naproxen, acetaminophen is fine': after a refusal, a comma and
# a new subject with its own verdict is a clause of its own (the verdict is not the refused
# drugs').
_OWN_VERDICT = re.compile(r",\s+(?=(?:[\w-]+\s+){1,3}(?:is|are)\s+(?:fine|ok|okay|acceptable|"
                          r"safe|preferred|reasonable|allowed)\b)", re.IGNORECASE)
_REFUSAL = re.compile(r"^\W*(?:[\w#]+\s+\d+[,.:]?\s+)?(?:no|avoid|stop|do\s+not|don't|never)\b",
                      re.IGNORECASE)


def _split_before_own_verdict(part: str) -> list[str]:
    """'Number 5, no NSAIDs like ibuprofen, acetaminophen is fine' -> the refusal, then the
    verdict on acetaminophen."""
    found = _OWN_VERDICT.search(part)
    if found is None or "(" in part[:found.start()] and ")" not in part[:found.start()] or not (
            _REFUSAL.match(part) or _REFUSAL.match(part[part.rfind(",", 0, found.start()) + 1:
                                                   found.start()])):
        return [part]
    return [part[:found.start()], part[found.end():]]


@functools.cache
def _segmenter() -> Any:
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


@dataclass
class _Pipeline:
    tokenizer: Any
    concept_matcher: Any
    cased_matcher: Any
    verb_matcher: Any
    verb_kinds: dict[int, tuple[str, str]]
    context: Any


# Verbs told to the patient in the third person: 'he stops it 4 days before surgery and
# restarts it 48 hours after'; only after 'he/she/they', never 'calcium lowers absorption'.
_THIRD_PERSON_KINDS = frozenset({"stop", "resume", "start", "continue"})
_TOLD_KEYS: set[int] = set()


@functools.cache
def _pipeline() -> _Pipeline:
    """The spaCy tokenizer, phrase matchers and ConText, built once per process."""
    for name in ("medspacy", "PyRuSH", "pysbd"):
        logging.getLogger(name).setLevel(logging.ERROR)
    import spacy
    from medspacy.context import ConText, ConTextRule
    from spacy.matcher import PhraseMatcher

    nlp = spacy.blank("en")
    # no emoticons: '(OTC): Stop' closes an aside and opens a label, it is no '):' face
    nlp.tokenizer.rules = {k: v for k, v in nlp.tokenizer.rules.items()
                           if any(c.isalnum() for c in k)}
    # a sentence's period after a mixed-case name is no abbreviation's: 'ordered tTG-IgG.',
    # 'Assessment: IBS-D.'
    nlp.tokenizer.suffix_search = spacy.util.compile_suffix_regex(
        [*nlp.Defaults.suffixes, r"(?<=[a-z][A-Z])\.", r"(?<=[A-Z]-[A-Z])\."]).search
    concept_matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
    patterns = {}
    for term in lexicon.concept_terms():
        for variant in _variants(term):
            patterns.setdefault(variant, None)
    concept_matcher.add("CONCEPT", list(nlp.tokenizer.pipe(patterns)))
    cased_matcher = PhraseMatcher(nlp.vocab, attr="ORTH")
    cased_matcher.add("CONCEPT", list(nlp.tokenizer.pipe(sorted(lexicon.cased_terms()))))
    verb_matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
    verb_kinds: dict[int, tuple[str, str]] = {}
    for kind, sides in lexicon.verb_table().items():
        for side, phrases in sides.items():
            key = f"{kind}|{side}"
            forms = {f for p in phrases
                     for f in _inflections(p, "endorse" if kind == "endorse" else side)}
            verb_matcher.add(key, list(nlp.tokenizer.pipe(sorted(forms))))
            verb_kinds[nlp.vocab.strings[key]] = (kind, side)
            if kind in _THIRD_PERSON_KINDS and side != "after":  # 'he stops it 4 days before'
                told = {p + ("es" if p.endswith(("s", "sh", "ch", "x")) else "s")
                        for p in phrases if p.isalpha() and " " not in p}
                verb_matcher.add(f"{key}|told", list(nlp.tokenizer.pipe(sorted(told))))
                verb_kinds[nlp.vocab.strings[f"{key}|told"]] = (kind, side)
                _TOLD_KEYS.add(nlp.vocab.strings[f"{key}|told"])
    context = ConText(nlp, rules=None, span_attrs=None, input_span_type="group",
                      span_group_name="targets", phrase_matcher_attr="LOWER")
    rules = []
    for category, entries in lexicon.context_rules().items():
        for phrase, direction, max_scope in entries:
            if direction not in ("FORWARD", "BACKWARD", "BIDIRECTIONAL", "TERMINATE",
                                 "PSEUDO"):
                continue
            if direction == "TERMINATE" or category in ("NEG_END", "CLAUSE_BREAK"):
                # medspaCy compares scopes with a one-sided overlap test: a terminator whose
                # scope is the whole sentence never meets a short scope inside it.
                max_scope = 1
            terminated_by = _TERMINATED_BY.get(category)
            # a dash ends a scope only when spaced ('IgE - none'), not inside 'skin-prick'
            pattern = [{"TEXT": "-", "SPACY": True}] if phrase == "-" else None
            rules.append(ConTextRule(phrase, category, direction=direction, pattern=pattern,
                                     max_scope=max_scope, terminated_by=terminated_by))
    context.add(rules)
    return _Pipeline(nlp.tokenizer, concept_matcher, cased_matcher, verb_matcher, verb_kinds,
                     context)


# A negation ends where another cue or a new predicate starts ('no diuretic for 6 weeks, meets
# the criteria for SIADH'; 'no diuretic, most likely SIADH').
# Every cue's scope also ends where a later step begins ('..., then cholecalciferol ...').
_TERMINATED_BY = {category: {LATER, "NEXT"} for category in (
    POSSIBLE, PROBABLE, CONDITIONAL, TEMPORARY, HISTORICAL, FAMILY, ALTERNATIVE, COUNTERFACTUAL)}
for _hedge in (POSSIBLE, PROBABLE):
    _TERMINATED_BY[_hedge] = _TERMINATED_BY[_hedge] | {"CLAUSE_BREAK"}
_TERMINATED_BY[NEGATED] = {"NEG_END", "CLAUSE_BREAK", POSSIBLE, PROBABLE, CONDITIONAL,
                           TEMPORARY, HISTORICAL, ALTERNATIVE, LATER}


def _variants(term: str) -> set[str]:
    """Spellings of a term as notes write it: hyphen or space, singular or plural."""
    base = {term.lower(), term.lower().replace("-", " "), term.lower().replace(" ", "-")}
    out = set(base)
    for form in base:
        if form[-1:].isalpha() and len(form) > 2 and not form.endswith("s"):
            out.add(form + "s")
    return out


_SUBJECT_LEAD = re.compile(r"(?:i|we)(?:'ve|\s+have)?\s+(?=\S)")


def _inflections(phrase: str, side: str) -> set[str]:
    """Forms of a verb phrase: a single word also as -ed and -ing. Plans are written in the
    imperative, the participle or the gerund; '-s' forms describe ('calcium lowers absorption')
    and are left out, except for verbs of recommendation ('cardiology recommends')."""
    phrase = phrase.lower()
    if subject := _SUBJECT_LEAD.match(phrase):  # "I've also put in", 'we have already placed'
        return {phrase} | {f"{subject.group(0)}{adverb} {phrase[subject.end():]}"
                           for adverb in ("also", "already", "just")}
    if " " in phrase or not phrase.isalpha() or side == "after":
        return {phrase}
    forms = {phrase, phrase + "ed", phrase + "d", phrase + "ing"}
    if side == "endorse":
        forms |= {phrase + "s", phrase + "es"}
    if phrase.endswith("e"):
        forms.add(phrase[:-1] + "ing")
    if re.search(r"[^aeiou][aeiou][bdgmnprt]$", phrase):
        forms |= {phrase + phrase[-1] + "ed", phrase + phrase[-1] + "ing"}
    if phrase.endswith("y"):
        forms.add(phrase[:-1] + "ied")
    return forms


def _set_sentences(doc: Any, starts: set[int]) -> None:
    for token in doc:
        token.is_sent_start = token.idx in starts or token.i == 0


def _concept_spans(pipeline: _Pipeline, doc: Any) -> list[Any]:
    from spacy.tokens import Span
    from spacy.util import filter_spans

    spans = [Span(doc, start, end, label="CONCEPT")
             for _, start, end in [*pipeline.concept_matcher(doc), *pipeline.cased_matcher(doc)]
             if not _negative_prefix(doc, start)]
    spans = sorted(filter_spans(spans), key=lambda s: s.start)
    spans = _across_a_size(doc, spans)
    spans = _across_an_aside(doc, spans)
    spans = _new_across_descriptors(doc, spans)
    starts = {span.start for span in spans}
    drug_ends = {span.end for span in spans if _group(span.text) == "drug"}
    return [span for span in spans if not _verb_before_object(doc, span, starts)
            and not _participle_of_a_dose(doc, span, drug_ends)
            and not _dose_size(doc, span) and not (  # 'plt 75K': thousands, not potassium
                span.text == "K" and span.start and doc[span.start - 1].like_num
                and not doc[span.start - 1].whitespace_)]


def _dose_size(doc: Any, span: Any) -> bool:
    """'Start low-dose amitriptyline', 'a high dose of': the size of a dose, no level."""
    after = [t.lower_ for t in doc[span.end:span.end + 2]]
    return span.text.lower() in ("low", "lower", "high", "higher", "very low") and (
        after[:1] in (["dose"], ["doses"]) or after == ["-", "dose"])


def _across_a_size(doc: Any, spans: list[Any]) -> list[Any]:
    """'a new 14 mm (15 x 13 mm) RUL nodule': a term read across the size written inside it.
    The words after the size name the whole term; the size stays a value of its own."""
    from spacy.tokens import Span

    for size in _SIZE_INSIDE.finditer(doc.text):
        inside = doc.char_span(size.start(), size.end(), alignment_mode="expand")
        if inside is None or inside.start == 0 or not doc[inside.start - 1].is_alpha:
            continue
        before = doc[inside.start - 1]
        for width in (3, 2, 1):
            after = doc[inside.end:inside.end + width]
            if len(after) < width or any(not t.is_alpha for t in after):
                continue
            whole = lexicon.term_concepts(f"{before.text} {after.text}")
            if not whole or whole <= lexicon.concepts_of(after.text):
                continue
            ids = ",".join(sorted(whole | lexicon.concepts_of(after.text)))
            spans = [s for s in spans if s.end <= after.start or s.start >= after.end]
            group = _group(f"{before.text} {after.text}")
            spans.append(Span(doc, after.start, after.end, label=f"REF|{group}|{ids}"))
            break
    return sorted(spans, key=lambda s: s.start)


_SHORT_ASIDE = re.compile(r"\s\((?:[^()\d]{1,40})\)\s")


def _across_an_aside(doc: Any, spans: list[Any]) -> list[Any]:
    """'type I (single monoclonal) cryoglobulinemia': a term read across a short aside written
    inside it; the words after the aside carry the whole term."""
    from spacy.tokens import Span

    for aside in _SHORT_ASIDE.finditer(doc.text):
        inside = doc.char_span(aside.start() + 1, aside.end() - 1, alignment_mode="expand")
        if inside is None or inside.start == 0:
            continue
        found = None
        for width_before in (2, 1, 3):
            before = doc[max(0, inside.start - width_before):inside.start]
            if len(before) < width_before or any(not t.is_alpha for t in before):
                continue
            for width in (3, 2, 1):
                after = doc[inside.end:inside.end + width]
                if len(after) < width or any(not t.is_alpha for t in after):
                    continue
                whole = lexicon.term_concepts(f"{before.text} {after.text}")
                if whole and not whole <= lexicon.concepts_of(after.text) | (
                        lexicon.concepts_of(before.text)) and not any(
                        s.start < after.end and s.end > after.end
                        or s.start < before.start < s.end for s in spans):
                    found = before, after, whole
                    break
            if found:
                break
        if found:
            before, after, whole = found
            ids = ",".join(sorted(whole | lexicon.concepts_of(after.text)))
            spans = [s for s in spans if s.end <= after.start or s.start >= after.end]
            spans.append(Span(doc, after.start, after.end,
                              label=f"REF|{_group(f'{before.text} {after.text}')}|{ids}"))
    return sorted(spans, key=lambda s: s.start)


def _new_across_descriptors(doc: Any, spans: list[Any]) -> list[Any]:
    """'a new solid spiculated RUL nodule', 'new 1.4 cm RUL nodule': 'new' says of the lesion
    that it was not there before, across the words and the size that describe it."""
    from spacy.tokens import Span

    sizes = {t.i for m in _SIZE_INSIDE.finditer(doc.text)
             for t in (doc.char_span(m.start(), m.end(), alignment_mode="expand") or [])}
    for token in doc:
        if token.lower_ != "new":
            continue
        words = []  # the descriptor words after 'new', sizes left out
        for following in doc[token.i + 1:token.i + 9]:
            if following.i in sizes:
                continue
            if not following.is_alpha and following.text != "-" or following.is_stop:
                break  # not 'a new job and a nodule'
            words.append(following)
            if len(words) > 5:
                break
        for end in range(1, len(words) + 1):
            for width in (3, 2, 1):
                tail = words[max(0, end - width):end]
                if len(tail) < width or tail[-1].i - tail[0].i != width - 1:
                    continue
                text = " ".join(t.text for t in tail)
                whole = lexicon.term_concepts(f"new {text}")
                if whole and not whole <= lexicon.concepts_of(text) and not any(
                        s.start <= tail[0].i < s.end and s.end > tail[-1].i + 1 for s in spans):
                    spans = [s for s in spans if s.end <= tail[0].i or s.start > tail[-1].i]
                    ids = ",".join(sorted(whole | lexicon.concepts_of(text)))
                    group = _group(f"new {text}")
                    spans.append(Span(doc, tail[0].i, tail[-1].i + 1,
                                      label=f"REF|{group}|{ids}"))
                    break
            else:
                continue
            break
    return sorted(spans, key=lambda s: s.start)


_SIZE_INSIDE = re.compile(r"(?<=[A-Za-z] )\d+(?:\.\d+)?\s*(?:mm|cm)\b(?:\s*\([^()]*\))?"
                          r"(?= [A-Za-z])")


_CHANGE_PARTICIPLES = frozenset({"increased", "decreased", "raised", "lowered", "reduced"})


def _verb_before_object(doc: Any, span: Any, starts: set[int]) -> bool:
    """'I have increased his atorvastatin': a participle that names a finding elsewhere
    ('LDL increased') is here the verb of the concept after it."""
    if len(span) != 1 or span[0].lower_ not in _CHANGE_PARTICIPLES:
        return False
    after = span.end
    while after < len(doc) and doc[after].lower_ in ("his", "her", "their", "the", "a"):
        after += 1
    before = span.start - 1
    while before > 0 and doc[before].lower_ in ("also", "just", "now", "already", "since"):
        before -= 1  # 'I have also increased her hydrocortisone'
    return after in starts and before >= 0 and doc[before].lower_ in (
        "have", "has", "had", "i", "we", "was", "were", "been", "is", "are")


def _participle_of_a_dose(doc: Any, span: Any, drug_ends: set[int]) -> bool:
    """'Lithium (dose) may be increased to 900 mg a day', 'levothyroxine increased 75 -> 88 mcg':
    a participle after a drug and before its numbers changes the dose; it names no finding
    ('LDL increased to 190')."""
    if len(span) != 1 or span[0].lower_ not in _CHANGE_PARTICIPLES:
        return False
    before = span.start - 1
    while before >= 0 and doc[before].lower_ in _DOSE_PASSIVE:
        before -= 1
    after = span.end
    return before + 1 in drug_ends and after + 1 < len(doc) and (doc[after].lower_ in (
        "to", "by", "from") and doc[after + 1].like_num or doc[after].like_num)


_DOSE_PASSIVE = frozenset({"dose", "doses", "dosage", "may", "can", "could", "should", "will",
                           "would", "must", "be", "been", "being", "is", "was", "are", "were",
                           "has", "have", "had", "further", "then", "also", "now", "not"})


def _negative_prefix(doc: Any, start: int) -> bool:
    """'a non-fluoroquinolone agent': the word names what the thing is not."""
    return start >= 2 and doc[start - 1].text == "-" and not doc[start - 2].whitespace_ and (
        doc[start - 2].lower_ == "non") and not doc[start - 1].whitespace_


def _again_after(doc: Any, end: int) -> bool:
    """'start it again', 'begin the apixaban again': a start that takes back up what was held."""
    for token in doc[end:end + 4]:
        if token.lower_ == "again":
            return True
        if token.is_punct or token.like_num:
            return False
    return False


_NOUN_BEFORE = frozenset({"a", "an", "the", "this", "that", "these", "those", "other", "general",
                          "lifestyle", "simple", "best", "first", "main", "useful", "key",
                          "preventive", "conservative", "such", "single", "important"})


_AFTER_PARTICIPLE = frozenset({"by", "to", "for", "in", "on", "at", "and", "or", "as", "with",
                               "now", "today", "is", "are", "was", "were", "from", "since"})


def _verb_spans(pipeline: _Pipeline, doc: Any, concepts: list[Any]) -> list[tuple[Any, str, str]]:
    """(span, kind, side) of the plan verbs that are not part of a concept's name."""
    from spacy.tokens import Span
    from spacy.util import filter_spans

    taken = {i for span in concepts for i in range(span.start, span.end)}
    concept_starts = {span.start for span in concepts}
    concept_ends = {span.end for span in concepts}
    sides: dict[tuple[int, int, str], set[str]] = {}
    for match_id, start, end in pipeline.verb_matcher(doc):
        if match_id in _TOLD_KEYS and not (start and doc[start - 1].lower_ in ("he", "she",
                                                                                "they")):
            continue  # 'calcium lowers absorption' describes; 'he stops it' instructs
        if start and doc[start - 1].lower_ in _DEMONSTRATIVES and not (
                start > 1 and doc[start - 2].lower_ in _CAUSATIVES) and (
                doc[start].lower_ not in ("rules", "excludes", "precludes")):
            continue  # 'this change', 'every Rx'; not 'have her stop', 'that rules out X'

        if doc[start].lower_ in ("measure", "measures") and start and (
                doc[start - 1].lower_ in _NOUN_BEFORE or doc[start - 1].lower_.endswith("ive")):
            continue  # 'the most effective measure', 'supportive measures': a noun
        if doc[start].lower_ in ("load", "loads") and start and (
                start in concept_ends or doc[start - 1].lower_ in _LOAD_BEFORE):
            continue  # 'a large calcium carbonate load', 'the salt load': a noun
        if doc[start:end].text.lower() in ("first-line", "first line", "preferred") and (
                end in concept_starts):
            continue  # 'on first-line pembrolizumab': an adjective of the drug he is on
        if doc[start].lower_ in ("giving", "gives") and start and doc[start - 1].text == "," and (
                _YIELDED_VALUE.match(doc.text, doc[start].idx + len(doc[start]))):
            continue  # '..., giving a kappa to lambda ratio of 1.88': a result, not a dose
        if doc[start].lower_ in ("rx", "prescription", "script") and start > 1 and (
                doc[start - 2].lower_ in _DEMONSTRATIVES):
            continue  # 'Current thyroid Rx: levothyroxine 75 mcg'
        if start and doc[start - 1].lower_ == "the" and pipeline.verb_kinds[match_id][1] != (
                "after") and not (doc[start].lower_ in ("taper", "tapering") and start > 1
                                  and doc[start - 2].lower_ in _RESTARTING):
            continue  # 'during the hold', 'after the switch': a noun ('resume the taper' plans)
        if doc[start].lower_ in ("limit", "limits") and start and doc[start - 1].lower_ in (
                "upper", "lower"):
            continue  # '3 times the upper limit': a reference range, no cut
        if end < len(doc) and doc[end].lower_ in ("date", "dates") and doc[start].lower_ in (
                "stop", "start", "end", "discontinue", "discontinuation"):
            continue  # '| Stop date | 2026-03-18 |': when the course ends, a label
        if start and doc[start].lower_.endswith("ed") and (
                doc[start - 1].lower_ in ("a", "an") or doc[start - 1].lower_ in _BEFORE_ADJECTIVE
                and end in concept_starts):
            continue  # 'with a continued fall', '(repeated steroid bursts)': an adjective
        if end - start == 1 and start and doc[start].lower_.endswith("ed") and (
                doc[start - 1].lower_ in ("the", "its", "their")) and end < len(doc) and (
                doc[end].is_alpha and doc[end].lower_ not in _AFTER_PARTICIPLE):
            continue  # 'below the recommended intensity': an adjective
        if start > 1 and doc[start - 1].text == "-" and not doc[start - 2].whitespace_ or (
                end < len(doc) and doc[end].text == "-" and not doc[end - 1].whitespace_
                and end + 1 < len(doc) and doc[end + 1].is_alpha):
            continue  # 'self-limited', 'delayed-release': part of a compound word
        if doc[start].lower_ == "off" and end - start == 1 and (
                not doc[start].is_sent_start if pipeline.verb_kinds[match_id][1] == "before"
                else start - doc[start].sent.start > 3) and not (
                _OFF_BEFORE_EVENT.match(doc.text, doc[start].idx + 3)):
            continue  # 'Off PPI x 2 wk', 'pantoprazole off 2 weeks'; not 'staying off aspirin',
            # 'pantoprazole off 2 wk before', 'be off pantoprazole for the 2 weeks before'
        if doc[start].lower_ == "pending" and end < len(doc) and doc[end].is_alpha and (
                doc[end].lower_ not in ("and", "or", "but", "now", "today")):
            continue  # 'hold metformin pending recovery of AKI': until, not 'TSH pending'
        if _subject_of_its_own_verb(doc, start, end):
            continue  # 'use escalated with early refills', 'taper stalled at 10 mg': a noun
        if not any(i in taken for i in range(start, end)):
            kind, side = pipeline.verb_kinds[match_id]
            if kind == "start" and side == "before" and _again_after(doc, end):
                kind = "resume"  # 'he can start it again 2-3 days after surgery'
            sides.setdefault((start, end, kind), set()).add(side)
    for match in _ENDORSING_SUBJECT.finditer(doc.text):
        copula = doc.char_span(match.start(1), match.end(1))
        if copula is not None and not any(i in taken for i in range(copula.start, copula.end)):
            sides.setdefault((copula.start, copula.end, "endorse"), set()).add("before")
    for match in _TREAT_CONDITION_WITH.finditer(doc.text):
        with_ = doc.char_span(match.start(1), match.end(1))
        if with_ is not None and with_.start not in taken:
            sides.setdefault((with_.start, with_.end, "start"), set()).add("before")
    for match in _IMPERATIVE_USE.finditer(doc.text):
        use = doc.char_span(match.start(1), match.end(1))
        if use is not None and use.start not in taken and not _subject_of_its_own_verb(
                doc, use.start, use.end):
            sides.setdefault((use.start, use.end, "start"), set()).add("before")
    for match in _REPEAT_DOSE.finditer(doc.text):
        repeat = doc.char_span(match.start(1), match.end(1))
        if repeat is not None and not any(i in taken for i in range(repeat.start, repeat.end)) and (
                not _EVENT_PREPOSITION.search(doc.text, 0, match.start())):  # not 'review him
            sides.setdefault((repeat.start, repeat.end, "order"), set()).add("before")  # 4
            # weeks after the second dose': the dose is the event the time counts from
    for key in [k for k, found in sides.items() if found == {"before"} and k[0]
                and doc[k[0] - 1].lower_ in _COPULAS]:
        if any(other[:2] == key[:2] and "after" in found for other, found in sides.items()):
            del sides[key]  # 'TSH was sent this morning': a passive verb acts on its subject
    spans = [Span(doc, start, end, label=f"{kind}|{'both' if len(found) > 1 else found.pop()}")
             for (start, end, kind), found in sides.items()]
    kept = filter_spans(spans)
    return sorted(((s, *s.label_.split("|")) for s in kept), key=lambda v: v[0].start)


_AFTER_PAST_VERB = frozenset({"with", "to", "at", "after", "over", "in", "on", "despite", "from",
                              "because", "and", "then", "when", "until", "rapidly", "quickly",
                              "again", "twice", "within", "by", "during", "so", "but",
                              "steadily", "gradually", "soon", ",", ".", ";", ":"})


# Plan verbs that are also nouns for the course they start ('the use', 'the trial').
_VERB_NOUNS = frozenset({"use", "trial", "taper", "tapering", "switch", "start", "increase",
                         "decrease", "change", "wean", "titration", "reduction", "rechallenge",
                         "challenge", "restart", "dose", "course"})


def _subject_of_its_own_verb(doc: Any, start: int, end: int) -> bool:
    """'use escalated with early refills', 'the taper stalled at 10 mg', 'trial failed,
    ...': a one-word plan verb followed by a past-tense verb that ends its phrase is the
    noun that verb's subject is, not an instruction ('continue reduced dose' instructs)."""
    if end - start != 1 or end + 1 > len(doc) or doc[start].lower_ not in _VERB_NOUNS:
        return False  # not 'continue unchanged.': 'continue' names no course
    verb = doc[end]
    if not (verb.is_alpha and verb.is_lower and verb.lower_.endswith("ed") and len(verb) > 4):
        return False
    return end + 1 == len(doc) or doc[end + 1].lower_ in _AFTER_PAST_VERB or (
        doc[end + 1].is_sent_start)


# '..., giving a kappa to lambda ratio of 1.88': what a calculation gives.
_YIELDED_VALUE = re.compile(r"\s+(?:an?|the)\s+(?:[\w/-]+\s+){0,5}?(?:ratio|score|total|"
                           r"value|index|level|estimate|result)\b", re.IGNORECASE)
# 'the treatment that matters most is weight loss', 'the mainstay of therapy is ...': the
# copula after a subject that names the plan endorses what follows it.
_ENDORSING_SUBJECT = re.compile(
    r"\b(?:treatment|therapy|step|priority|intervention|cornerstone|mainstay|focus|"
    r"recommendation|approach|management|choice|option)\b[^.;:(),\n]{0,30}?"
    r"\b(is|are|remains|will be)"
    r"\s+(?!not\b|no\b|a\s+poor|unclear|uncertain|limited|debated)", re.IGNORECASE)
# 'treating his hepatitis C with glecaprevir/pibrentasvir': the drug after the disease treated.
_TREAT_CONDITION_WITH = re.compile(r"\btreat(?:ing)?\s+(?:his|her|their|the|this)\s+"
                                   r"(?:[\w.-]+\s+){1,4}?(with)\b", re.IGNORECASE)
# 'use CGM instead', 'I would use chlorthalidone 12.5 mg', 'Take one atorvastatin 40 mg tablet':
# 'use' or 'take' told as the instruction
# (not 'use of NSAIDs', 'NSAID use', 'use caution with ...').
_IMPERATIVE_USE = re.compile(
    r"(?:^|[.;:!?]\s+|\n\s*|[-*•]\s+|\b(?:please|then|instead|I would|I'd|we will|we'll|I will|"
    r"I'll|we would|we'd)\s+)(use|take)\s+(?!of\b|caution|care|judgment|judgement|it\b|this\b|"
    r"them\b|these\b|that\b|with\b|without\b|on\b|at\b|in\b|as\b|after\b|before\b|only\b|"
    r"ideally\b|time\b|note\b|(?:your|her|his|the)\s+(?:usual|current|regular)\b)",
    re.IGNORECASE)
# 'and a second 15 mg dose 7 days later', 'the same 15 mg again in 14 days': the repeat of
# a dose named as a noun, ordered like 'repeat'.
_REPEAT_DOSE = re.compile(
    r"\b(?:an?|the|then|and)\s+((?:second|2nd|repeat)\s+(?:(?:\d+(?:\.\d+)?)[\s-]*"
    r"(?:mg|mcg|g|milligrams?|micrograms?)\s+)?(?:dose|application)"
    r"|same\s+(?:\d+(?:\.\d+)?[\s-]*(?:mg|mcg|g|milligrams?|micrograms?)\s+|dose\s+)?again)\b",
    re.IGNORECASE)
_EVENT_PREPOSITION = re.compile(r"\b(?:after|following|since|before|post|until|from|of|with|"
                                r"at|by|to)\s+$", re.IGNORECASE)
# What opens a listed item before its words: '(1) ', '3) ', 'b) ', '- ' (or nothing).
LIST_MARK = re.compile(r"\s*(?:\(?\d{1,2}[.)]|\(?[a-z]\)|[-*])?\s*")
_LOAD_BEFORE = frozenset({"a", "the", "large", "heavy", "high", "big", "salt", "sodium",
                          "fluid", "volume", "calcium", "protein", "acid", "alkali", "viral",
                          "pill", "tablet"})
_CAUSATIVES = frozenset({"have", "has", "let", "help", "helped", "make", "ask", "asked", "tell",
                         "told", "advise", "advised", "instruct", "instructed", "get"})
# '(repeated steroid bursts)', 'despite continued aspirin use': a participle naming its noun.
_BEFORE_ADJECTIVE = frozenset({"(", ",", "of", "with", "after", "despite", "by", "from", "and",
                               "or", "but"})
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those", "such", "every", "each", "his",
                             "her", "their", "its", "last", "prior", "previous", "same", "any",
                             "active", "current", "home", "existing", "old"})


def _cues(span: Any) -> tuple[Cue, ...]:
    doc = span.doc
    cues = []
    for m in span._.modifiers:
        words = doc[m.modifier_span[0]:m.modifier_span[1]]
        if span.start_char <= words.start_char < span.end_char:
            continue  # 'chest CT without contrast': a word of the concept's own name
        if words.text.lower() in _ANSWER_CUES and span.start_char < words.start_char and (
                _LINE_GOES_ON.match(doc.text, words.end_char)) and not (
                words.text.lower().endswith("none")
                and doc.text[words.end_char:].lstrip(" \t").startswith("(")):
            continue  # 'Unprovoked DVT: no surgery, ...' labels, it does not answer 'no'
        if _is_month_may(doc, words):
            continue  # '7 May 2026' is a date, not a hedge
        if m.category in (CONDITIONAL, "TEMPORARY") and _PAST_WHEN.match(
                doc.text, words.start_char):
            continue  # 'sodium 137 in December, when sertraline was started': a past time,
            # not a condition
        if m.category == NEGATED and _outside_relative_clause(doc.text, words, span):
            continue  # 'items that cannot be washed go into a sealed bag': the relative
            # clause's negation, not the bag's
        aside = next(((a, b) for a, b in _asides(doc.text) if a < words.start_char < b), None)
        if aside and not aside[0] < span.start_char < aside[1] and not (
                m.category == "TEMPORARY" and 0 <= aside[0] - span.end_char <= 30
                and _HOLD_BEFORE.search(doc.text, span.start_char - 8, span.start_char)):
            continue  # 'f/u 2 wk (phone, before next step)': a cue in an aside stays there;
            # not 'Hold pantoprazole from 14 Apr (2 weeks before the test)'
        category = LATER if m.category == "NEXT" else m.category
        cues.append(Cue(category, words.text.lower(), words.start_char))
    return tuple(cues)


# 'when' opening a clause told in the past ('when sertraline was started', 'when she had
# the infection', 'when we checked') dates what it is said of; it sets no condition.
_PAST_WHEN = re.compile(r"when\s+(?:[^,;.:()]{0,50}?\s)?(?:was|were|had|did)\b|"
                        r"when\s+(?:he|she|they|we|I|it)\s+(?:first\s+)?[a-z]+ed\b",
                        re.IGNORECASE)


_OFF_BEFORE_EVENT = re.compile(r"\s*(?:[\w-]+\s+){0,2}?(?:for\s+)?(?:the\s+)?(?:at least\s+)?"
                               r"\d+\s*(?:-\s*\d+\s*)?(?:d|days?|wks?|weeks?)\s+(?:before|prior)",
                               re.IGNORECASE)
_HOLD_BEFORE = re.compile(r"\b(?:hold|stop|pause|withhold)\s+$", re.IGNORECASE)


# A negated passive relative clause: 'items that cannot be washed', 'tablets which should not
# be crushed'. The negation is the clause's own; what follows the participle belongs to the
# main clause, unless it names the agent or means ('... be washed with X').
_RELATIVE_BEFORE = re.compile(r"\b(?:that|which)\s+(?:(?:can|could|should|must|will|may|do|"
                              r"does|is|are)\s+)?$", re.IGNORECASE)
_PASSIVE_AFTER = re.compile(r"\s*be\s+(?:\w+ly\s+)?[a-z]+(?:ed|en|wn)\b(?!\s+(?:with|by|using)\b)",
                            re.IGNORECASE)


def _outside_relative_clause(text: str, words: Any, span: Any) -> bool:
    """Whether a negation cue opens a negated passive relative clause that ends before the
    concept ('items that cannot be washed go into a sealed bag for 72 hours')."""
    if not _RELATIVE_BEFORE.search(text, max(0, words.start_char - 20), words.start_char):
        return False
    passive = _PASSIVE_AFTER.match(text, words.end_char)
    return passive is not None and passive.end() <= span.start_char


def _is_month_may(doc: Any, words: Any) -> bool:
    return words.text == "May" and bool(_MONTH_MAY.search(
        doc.text, max(0, words.start_char - 10), words.end_char + 6))


@functools.lru_cache(maxsize=64)
def _asides(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of every parenthesis or bracket of the text."""
    found, stack = [], []
    for i, char in enumerate(text):
        if char in "([":
            stack.append(i)
        elif char in ")]" and stack:
            found.append((stack.pop(), i))
    return tuple(found)


_ANSWER_CUES = frozenset({": no", ": none", "- none"})
_MONTH_MAY = re.compile(r"\d\s*May\b|\bMay\s*\d|\b(?:early|mid|late|end of|in|by|on|until|through|"
                        r"for|of|since|from|before|after)\s*-?\s*May\b")
_OPENS_WITH_THRESHOLD = re.compile(r"\s*(?:below|above|under|over|<=?|>=?)\s*\d"
                                   # a rule's threshold as the subject, said generically:
                                   # 'Only <= 10 HU proves ...', 'An attenuation of < 10 HU
                                   # means ...', 'Any washout >= 60% confirms ...'
                                   r"|\s*(?:(?:only|just)\s+(?:an?\s+|any\s+)?|an?\s+|any\s+)"
                                   r"(?:[a-z][\w-]*\s+){0,2}(?:of\s+)?(?:below|above|under|"
                                   r"over|<=?|>=?|less than|more than|greater than|at least)\s*\d",
                                   re.IGNORECASE)
# A finding right after an arrow is what the data before it amount to.
_CONCLUDED = re.compile(r"->\s*[*_]*\s*$")
# 'if ..., then' opening the step after an arrow, semicolon, colon or ', and' ('..., and if he
# is still symptomatic after that then we will do an EGD'): the step is its consequence.
_IF_THEN = re.compile(r"(?:->|[;:]|,\s+and\b)\s*(?:if|when|whenever|should|unless|in case)\b"
                      r"[^;:>]*?\bthen\b[^;:>]*$", re.IGNORECASE)
_OPENS_WITH_IF = re.compile(r"\s*(?:if|when|whenever|should|unless|in case)\b", re.IGNORECASE)
# A size or level that triggers what the clause names ('repair at >=5.5 cm', 'at 5.5 cm or
# more', 'once it reaches 5.5 cm'); a plain 'at 12 months' or 'above 70' is no trigger.
_THRESHOLD_AFTER = re.compile(
    r"\b(?:(?:at|above|over)\s*(?:>=|≥|>|≧)\s*\d+(?:\.\d+)?(?!\s*(?:min|minutes?|h|hrs?|hours?|d|"
    r"days?|wks?|weeks?|mo|months?|y|yrs?|years?)\b)|at\s+\d+(?:\.\d+)?\s*\w*\s+or\s+"
    r"(?:more|larger|greater|above|bigger)|once\s+(?:it\s+)?(?:reaches|exceeds)"
    r"|at\s+(?:a\s+(?:diameter|size)\s+of\s+)?\d+(?:\.\d+)?\s*(?:cm|mm))\b",  # 'at 5.5 cm'
    re.IGNORECASE)
# A step that follows an opening condition: 'then ...', 'we will then ...'.
_THEN_STEP = re.compile(r"\b(?:then|thereafter|after that)\b", re.IGNORECASE)


def _then_after_contingency(clause: Clause, previous: Clause) -> Clause:
    """'Re-evaluate only on a new trigger: a monoclonal protein, new hypercalcemia. Then repeat
    SPEP and re-consult.': a sentence that opens with 'then' after one whose every plan is a
    contingency goes on with that contingency (not after a plan made now: 'Stop X. Then ...')."""
    planned = [m for m in previous.mentions if m.action is not None]
    if not _OPENS_WITH_THEN.match(clause.text) or not planned or not all(
            CONDITIONAL in m.statuses for m in planned):
        return clause
    return dataclasses.replace(clause, mentions=tuple(
        dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL}) for m in clause.mentions))


_OPENS_WITH_THEN = re.compile(r"[\W_]*then\b", re.IGNORECASE)
# An opening condition, or an event a later step waits for ('once she ...', 'on a positive test');
# 'once' alone does not make a plan line conditional ('once the course is done, stop the PPI').
_OPENS_WITH_TRIGGER = re.compile(_OPENS_WITH_IF.pattern + r"|\s*(?:once|as soon as|upon|"
                                 r"on (?:a|her|his|their) (?:positive|first))\b", re.IGNORECASE)
# The consequence of an opening condition: the mention sits after the condition's comma.
_CONSEQUENCE = re.compile(r"[^,;]{4,},\s", re.IGNORECASE)
_TRAILING_IF = re.compile(r"(?:,?\s+[\w.,/%)-]+){0,6}?(?:\s*\([^()]{0,60}\))?\s+"  # past an aside
                          # right before it, not into one: '(taper if needed)'
                          r"(?:if(?!\s+(?:(?:he|she|they|you|the patient|patient|the pcp|pcp|"
                          r"the family|the parents|her husband|his wife)\s+(?:would\s+)?"
                          r"(?:prefers?|wish(?:es)?|wants?|rather|likes?)|desired|preferred"
                          r"|cost|price|insurance|coverage|(?:it\s+is\s+)?not\s+covered)\b)"
                          r"|unless|in case|as soon as(?!\s+(?:possible|feasible|practical|"
                          r"convenient))|once\s+(?:she|he|they|the patient)\b"
                          r"(?!\s+(?:are|come|have\s+come)\s+(?:back|in|available|resulted))"
                          r"|once\s+(?:his|her|their)\s+(?:[\w-]+\s+){1,2}(?:reaches|exceeds|rises|"
                          r"climbs|falls|drops)"
                          r"|(?<!\bis )(?<!\bexactly )(?<!\bjust )(?<!\bwas )"  # '..., which is
                          r"(?<!began )(?<!started )(?<!happened )(?<!occurred )(?<!developed )"
                          r"when(?!\s+(?:i|we)\s+(?:have\s+)?(?:reviewed|seen|checked)\b)"
                          r"(?!\s+(?:[^,;.:()]{0,50}?\s)?(?:was|were|had|did)\b|\s+(?:he|she|"
                          r"they|we|i|it)\s+(?:first\s+)?[a-z]+ed\b)"  # 'when X was started'
                          r"(?!\s+(?:the|his|her)\s+(?:current\s+)?"  # exactly when she ...
                          r"(?:supply|bottle|prescription|pack|tablets)\b)|should\s+(?:\w+\s+)"
                          r"{1,2}(?:occur|develop|recur|worsen|persist|arise|return))\b",
                          re.IGNORECASE)
def _if_has_own_consequence(text: str, at: int, verb_starts: Iterable[int]) -> bool:
    """'X (ODS risk), if the rise is faster, liberalize water': the condition leads to its own
    verb after a comma, not back to X."""
    match = _CONDITION_THEN.match(text, at)
    return bool(match) and match.end() in set(verb_starts)


_CONDITION_THEN = re.compile(r"[^,;.()]{3,80},\s*(?:then\s+)?")
_CONDITION_CLOSE = re.compile(r"(?:[^,;.()]|\([^()]*\)){3,100}?,\s*(?:then\s+)?")
_NOT_THE_MENTIONS_IF = re.compile(r"\s[-:;]\s|,\s*\d[\d.]*\s+\w+$|,\s+(?:and|but|so)\s+\w+$"
                                  r"|,\s+or\s+\w+\s+\w+")  # 'X, or add Y 5 mg if ...': Y's if
# 'nitrofurantoin ... so it should be avoided': a verb whose subject is a pronoun for the drug.
_PRONOUN_BEFORE = re.compile(r"\b(?:it|this|they|these|them|which)\s+(?:\w+\s+){0,3}$",
                             re.IGNORECASE)
_LINE_GOES_ON = re.compile(r"[ \t]*(?!(?:needed|planned|now|for now|at this time|currently|"
                           r"indicated|recommended|required)\b)(?!(?:further|more)\b[ \t]*(?:$|"
                           r"[^\w \t(]|needed|planned|now|indicated|recommended|required))[\w(]",
                           re.IGNORECASE)  # 'Steroids: no further.', not 'no further bursts'
# '... rather than withdrawing it': a later verb the writer turns down.
_REJECTED_VERB = re.compile(r"\b(?:rather than|instead of|in place of|as opposed to|not|never|"
                            r"no longer)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


# A concept followed by a dose is taken as a drug ('calcium 1000-1200 mg/day').
DOSE_AFTER = re.compile(r"\s*\(?\s*\d[\d,.]*\s*(?:-\s*[\d,.]+\s*)?(?:mg|mcg|g|iu|units?)\b",
                         re.IGNORECASE)


# A course told by its past length in years: what was done, not a plan.
_PAST_COURSE = re.compile(r"(?:continued|taken|given|used|prescribed)\s+for\s+"
                          r"(?:the\s+(?:last|past)\s+)?(?:\d+|two|three|four|five|six|several|many)\s+(?:years|yrs)\b",
                          re.IGNORECASE)
# A test told in the past ('had an eye exam at baseline'), not one to do.
_PAST_VERB = re.compile(r"\b(?:had|was|were|did|done|showed|performed|obtained|normal|"
                        r"unremarkable)\b", re.IGNORECASE)


def _labelled_in_aside(text: str, mentions: list[Mention]) -> list[Mention]:
    """'PSA < 10 (not very low risk: 3 positive cores)': a value after a label inside an aside
    is the label's, not a second value of the test that already has one."""
    out = []
    for m in mentions:
        if m.group == "test" and len(m.quantities) > 1:
            first = m.quantities[0]
            kept = tuple(q for q in m.quantities if q is first or not ASIDE_LABEL.search(
                text, first.end, q.start))
            m = dataclasses.replace(m, quantities=kept)
        out.append(m)
    return out


ASIDE_LABEL = re.compile(r"\([^()]*:[^():]*$")
_ON_HOLD = re.compile(r"\s+on\s+hold\b", re.IGNORECASE)


def _clause(index: int, text: str, line: Line, start: int, end: int, doc: Any,
            concept_spans: list[Any], verb_spans: list[tuple[Any, str, str]],
            found: tuple[Quantity, ...], statuses: dict, past_dated: bool,
            past_asides: tuple[tuple[int, int], ...] = ()) -> Clause:
    spans = [s for s in concept_spans if start <= s.start_char < end]
    found = tuple(q for q in found if not any(  # the '25' of '25-OH D' names, it is no value
        s.start_char - start <= q.start and q.end <= s.end_char - start for s in spans))
    verbs = [(s, kind, side) for s, kind, side in verb_spans if start <= s.start_char < end]
    actions = tuple(Action(kind, s.text.lower(), s.start_char - start) for s, kind, _ in verbs)
    mentions = []
    groups = [_span_group(span) for span in spans]
    for i, span in enumerate(spans):
        following = [s for s, g in zip(spans[i + 1:], groups[i + 1:], strict=True)
                     if g == groups[i] or groups[i] == "finding"
                     or DOSE_AFTER.match(span.doc.text, s.end_char)]  # ', calcium 1000 mg'
        next_start = following[0].start_char - start if following else len(text)
        cues = statuses.get((span.start_char, span.end_char, span.label_), ())
        mentions.append(_mention(text, start, span, i, spans, verbs, cues, found, next_start,
                                 line, past_dated, past_asides))
    mentions = _negated_complements(text, mentions)
    mentions = _results_after_without(text, mentions)
    mentions = _order_carried_past_then(mentions)
    mentions = _dash_verdict(text, mentions)
    mentions = _name_in_aside(text, mentions)
    mentions = _dash_no_monitoring(text, mentions)
    mentions = _examples_of_negated_head(text, mentions)
    mentions = _unsupported_findings(text, mentions)
    mentions = _preconditions(text, mentions)
    mentions = _none_fit(text, mentions)
    mentions = _not_replaced(text, mentions)
    mentions = _not_let_lapse(text, mentions)
    mentions = _shared_predicate(text, mentions)
    mentions = _visit_place(text, mentions)
    mentions = _causes_of_a_finding(text, mentions)
    mentions = _aside_like_its_head(text, mentions)
    mentions = _negated_gloss(text, mentions)
    mentions = _past_the_rejected(text, mentions)
    mentions = _past_a_new_command(text, mentions)
    mentions = _message_contents(text, mentions)
    mentions = _purpose_of_past_test(text, mentions)
    mentions = _gloss_like_its_head(text, mentions)
    mentions = _since_it_began(text, mentions)
    mentions = [_gerund_subject(text, m) for m in mentions]
    mentions = [_past_aside_verbs(text, m) for m in mentions]
    mentions = [dataclasses.replace(m, statuses=m.statuses | {HISTORICAL}, deciding=False)
                if m.action is not None and m.action.kind in ("keep_dose", "continue")
                and _FOR_SO_LONG.match(text, m.action.start + len(m.action.text)) else m
                for m in mentions]  # 'Methadone 90 mg daily, unchanged 3 yr': so far
    mentions = _listed_as_alert(text, mentions)
    mentions = [dataclasses.replace(m, action=None, deciding=False)
                if m.action is not None and m.action.negated and m.action.kind == "decrease"
                and m.action.text in ("taper", "wean", "tapering", "weaning") else m
                for m in mentions]  # 'she does not need to taper aspirin': how it stops
    if until := _UNTIL_LABEL.match(text):  # 'Until echo: avoid strenuous exertion'
        mentions = [dataclasses.replace(m, action=None, later=(), deciding=False,
                                        statuses=m.statuses | {TEMPORARY})
                    if m.end <= until.end() else m for m in mentions]
    mentions = _replaced_one_under_avoid(text, mentions, line.section)
    mentions = _result_past_listed_denial(text, mentions)
    mentions = _in_the_role_of(text, mentions)
    mentions = _refused_after_all(text, mentions)
    mentions = _labelled_in_aside(text, mentions)
    mentions = _tested_with(text, mentions)
    mentions = [dataclasses.replace(m, action=Action("stop", "on hold", m.end + 1),
                                    statuses=m.statuses - {CONDITIONAL} if all(
                                        c.text.lower() == "on hold" for c in m.cues
                                        if c.category == CONDITIONAL) else m.statuses)
                if m.action is not None and m.action.kind == "continue"
                and m.action.text in ("keep", "leave") and _ON_HOLD.match(text, m.end)
                else m for m in mentions]  # 'keep the aspirin on hold until ...': a hold
    mentions = [dataclasses.replace(m, action=m.later[0], later=m.later[1:])
                if m.action is not None and m.action.kind == "start" and m.later
                and m.later[0].kind in ("decrease", "stop") and "corticosteroid" not in m.concepts
                and not text[m.end:m.later[0].start].strip() else m
                for m in mentions]  # 'start a slow clonazepam taper': what starts is a cut
    # (a 'prednisone taper' is a course that starts high and comes down: a start)
    mentions = [dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
                if m.action is not None and _PAST_COURSE.match(text, m.action.start) else m
                for m in mentions]  # 'Ferrous sulfate continued for 3 years on the basis of'
    mentions = [dataclasses.replace(m, statuses=m.statuses - {HISTORICAL})
                if m.group == "finding" and re.match(r"already\b", m.text, re.IGNORECASE)
                else m for m in mentions]  # 'was already visible on the 2024 PET': still is
    mentions = [dataclasses.replace(m, statuses=m.statuses - {HISTORICAL})
                if m.group == "test" and HISTORICAL in m.statuses and not m.quantities
                and line.section != "history" and not past_dated
                and not _PAST_VERB.search(text) and {
                    c.text.lower() for c in m.cues if c.category == HISTORICAL} <= {
                    "at baseline", "baseline", "before treatment", "pre-treatment"}
                and m.cue(HISTORICAL) else m
                for m in mentions]  # 'Eye exam at baseline and yearly': a test to do
    mentions = [dataclasses.replace(m, statuses=m.statuses | {ATTRIBUTE})
                if m.action is None and not m.negated and _LABEL_AFTER.match(text, m.end) and any(
                    o.start > m.end and o.concepts & m.concepts
                    and (o.action is not None or o.negated) for o in mentions) else m
                for m in mentions]  # 'PET - no repeat PET/CT': the label over what is said of it
    mentions = [dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
                if m.group == "finding" and (_PAST_EVENT_AFTER.match(text, m.end) or past_dated
                                             and (_IN_MONTH_AFTER.match(text, m.end)
                                                  or _DATED_AFTER.match(text, m.end))) else m
                for m in mentions]  # 'Her first recurrence was 7 weeks ago', '... and her
    # first recurrence in April with fidaxomicin': an earlier episode
    if (opening := _OPENS_WITH_IF.match(text)) and (close := _CONDITION_CLOSE.match(
            text, opening.end())):  # 'If fidaxomicin cannot be obtained, then use ...': the
        mentions = [dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})  # condition's
                    if m.action is not None and m.end <= m.action.start < close.end()  # own
                    else m for m in mentions]  # verb plans nothing
    mentions = [dataclasses.replace(m, negated=True) if m.group == "finding" and (
        _CRITERIA_NOT_MET.search(text, 0, m.start) or _NEGATED_GLOSS.search(text, 0, m.start)
        and text[m.end:m.end + 1] == ")") else m for m in mentions]
    mentions = [dataclasses.replace(m, negated=False, statuses=m.statuses | {COUNTERFACTUAL})
                if m.group == "finding" and _NOT_CAUSED.search(text, 0, m.start) else m
                for m in mentions]  # 'hypertension does not cause isomorphic hematuria'
    mentions = _symptom_triggered(text, mentions)
    mentions = _not_the_diagnosis(text, mentions)
    mentions = [dataclasses.replace(m, action=Action("stop", "last dose", m.start))
                if m.action is None and m.group == "drug" and re.search(
                    r"(?<!between the )(?<!between her )(?<!between his )\blast\s+$",
                    text[:m.start], re.IGNORECASE) and re.match(
                    r"\s+dose\b", text[m.end:], re.IGNORECASE) else m
                for m in mentions]  # 'Last Pradaxa dose 5 days before surgery', not '2
    # weeks between the last rifampin dose and tacrolimus' (a gap the course keeps)
    mentions = [dataclasses.replace(m, action=None, later=(), deciding=False,
                                    statuses=m.statuses | {COUNTERFACTUAL})
                if m.group == "drug" and _TIMED_BY_LAST_DOSE.search(text, 0, m.start)
                and re.match(r"\s+(?:dose|tablet|pill|capsule)\b", text[m.end:], re.IGNORECASE)
                else m for m in mentions]  # 'hold simvastatin until 5 days after the last
    # Paxlovid dose': the other drug's last dose only times the step
    mentions = [dataclasses.replace(m, action=dataclasses.replace(m.action, kind="stop"))
                if m.group == "drug" and m.action is not None and m.action.kind == "avoid"
                and m.action.start < m.start and _SKIP.fullmatch(m.action.text)
                and _HOLD_SPAN.match(text, m.end) else m
                for m in mentions]  # 'skip simvastatin from tonight until ...' holds it
    mentions = [_not_the_cause(text, m) if m.negated and m.group == "drug" else m
                for m in mentions]
    mentions = [dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
                if m.group == "drug" and m.action is None and _WHILE_ON.search(text, 0, m.start)
                else m for m in mentions]  # '... plus milk, while on hydrochlorothiazide 25 mg'
    if pending := _PENDING_LABEL.match(text):  # 'Consider if eGFR < 20: nephrology referral',
        category = POSSIBLE if pending.group(1).lower() in _OPEN_LABEL_WORDS else CONDITIONAL
        # 'If K > 5.5: hold lisinopril', 'Sick-day rules: fever -> double HC': the items wait
        # on the label's trigger
        mentions = [dataclasses.replace(m, statuses=m.statuses | {category})
                    if m.start >= pending.end() else m for m in mentions]
    if _OTHER_PATIENT.match(text):  # 'In a woman not planning pregnancy I'd simply watch
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})  # a TSH
                    for m in mentions]  # < 10': what would be done for someone else
    if asked := _ASKED_LABEL.search(text):  # 'Questions: surveillance vs repair, ...',
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})  # '... |
                    if m.start >= asked.end() else m for m in mentions]  # Question: ...': asked
    if _OPTIONS_LEAD.match(text):  # 'Options: methimazole 20 mg daily, RAI or surgery'
        mentions = [dataclasses.replace(m, statuses=m.statuses | {ALTERNATIVE})
                    if m.group != "finding" else m for m in mentions]
    # 'alternatively, since he tolerated it, amoxicillin ...': the reason does not end the offer
    if reason := _ALTERNATIVE_WITH_REASON.match(text):
        mentions = [dataclasses.replace(m, statuses=m.statuses | {ALTERNATIVE})
                    if m.group != "finding" and m.start >= reason.end() else m
                    for m in mentions]
    mentions = [dataclasses.replace(m, action=Action("switch", "return", m.start))
                if m.action is None and m.group == "drug" and _RETURN_BEFORE.search(
                    text, 0, m.start) and _TO_PREVIOUS.match(text, m.end) else m
                for m in mentions]  # 'Return fludrocortisone to her previous 0.1 mg daily'
    mentions = [dataclasses.replace(m, action=Action("switch", "new dose", m.start))
                if m.action is None and m.group == "drug" and _NEW_DOSE_BEFORE.search(
                    text, 0, m.start) and _DOSE_LABEL_AFTER.match(text, m.end) else m
                for m in mentions]  # 'New fludrocortisone dose: 0.1 mg daily (was 0.2 mg)'
    mentions = [dataclasses.replace(m, statuses=m.statuses - {HISTORICAL})
                if m.group == "test" and HISTORICAL in m.statuses and all(
                    c.text.lower() in _BASELINE_CUES for c in m.cues if c.category == HISTORICAL)
                and (m.action is not None and m.action.kind == "order" and not m.action.negated
                     and not _ASKED_FOR.search(text, 0, m.action.start)
                     or _ORDERED_AFTER.search(text, m.end)) else m
                for m in mentions]  # 'Baseline CBC with differential now, ordered'
    mentions = [dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
                if m.decision == "avoid" and _REASON_BEFORE.search(text, 0, m.start)
                and _IN_PREGNANCY.search(text, m.end) else m
                for m in mentions]  # '..., since methimazole is not safe in pregnancy': a rule
    if _PREGNANCY_WORD.search(text):  # 'switch to methimazole at 16 weeks' gestation'
        mentions = [dataclasses.replace(m, statuses=m.statuses | {LATER, TEMPORARY})
                    if m.action is not None and m.action.kind in ("start", "switch", "resume")
                    and not m.action.negated and _GESTATION_LATER.search(text, m.end) else m
                    for m in mentions]
    if population := _POPULATION_OF.search(text):
        mentions = [dataclasses.replace(m, negated=False, statuses=m.statuses | {COUNTERFACTUAL})
                    if m.group == "finding" and m.start >= population.end() else m
                    for m in mentions]
    mentions = [dataclasses.replace(m, negated=False, action=Action(
                    "increase", "more", m.start, negated=True))
                if m.negated and m.action is None and m.group == "drug"
                and _MORE_OF.search(text, 0, m.start) else m
                for m in mentions]  # 'she does not need more hydrocortisone': the same dose
    mentions = [dataclasses.replace(m, action=dataclasses.replace(m.action, kind="increase"))
                if m.action is not None and m.action.kind in ("endorse", "start")
                and m.group == "drug" and _MORE_OF.search(text, 0, m.start) else m
                for m in mentions]  # 'she needs more hydrocortisone': a higher dose
    mentions = [dataclasses.replace(m, statuses=m.statuses - {POSSIBLE} | {COUNTERFACTUAL})
                if (m.action is None or _A_REPEAT.search(text, 0, m.start)) and (
                    _HARM_IT_CAN_DO.match(text, m.end) or m.group == "test"
                    and _WHAT_IT_CAN_TELL.match(text, m.end)) else m
                for m in mentions]  # 'dopamine agonists can destabilise psychiatric illness',
    # 'everything a PET can answer': what such a drug or test does, not an offer of it
    if none := _NO_CASE_WHERE.search(text):  # 'leaves no window in which a PDE5 inhibitor
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})  # could be
                    if m.start >= none.end() else m for m in mentions]  # taken safely'
    if rule := _THRESHOLD_RULE.search(text):  # 'the threshold of 60 mL/min at which tenofovir
        end = re.compile(r"[,;:(]|\s[-–]\s").search(text, rule.end())  # DF may be used'
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    if rule.end() < m.start < (end.start() if end else len(text)) else m
                    for m in mentions]

    if mentions and mentions[0].group == "finding" and mentions[0].action is None and (
            _GENERIC_SUBJECT.match(text[:mentions[0].start])) and _GENERIC_PREDICATE.match(
            text, mentions[0].end):  # 'A vegetation ... would not sit on an intact valve',
        ends = _GENERIC_ENDS.search(text, mentions[0].end)  # what it does is generic too, up
        stop = ends.start() if ends else len(text)  # to a plan of its own: ', so start ...'
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    if m.group != "drug" and m.start < stop else m for m in mentions]
    if can := _GENERIC_CAN.search(text):  # 'a hydrocele in an adult can occasionally be
        ends = _GENERIC_ENDS.search(text, can.end())  # reactive to a testicular tumour'
        stop = ends.start() if ends else len(text)
        mentions = [dataclasses.replace(m, negated=False, statuses=m.statuses | {COUNTERFACTUAL})
                    if m.group == "finding" and can.end() <= m.start < stop else m
                    for m in mentions]
    mentions = _adopt_orphans(mentions, found)
    mentions = _topic_takes_verb(text, mentions, actions)
    mentions = _arrow_contingency(text, mentions, actions, line.section)
    mentions = _arrow_switch(text, mentions, actions)
    mentions = [dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
                if past_dated and m.action is not None and m.action.text == "->" else m
                for m in _arrow_dose_change(text, mentions)]  # 'cut 0.1 -> 0.05 mg in 1/2025'
    asks = _QUESTION_MARK_END.search(text)  # "... 'Can we give celecoxib?'" ends quoted
    if line.section != "question" and _POLITE_REQUEST.match(text):
        # 'Could you please stop his ferrous sulfate?', 'Please could you arrange repeat bloods'
        mentions = [dataclasses.replace(m, statuses=m.statuses - {POSSIBLE})
                    for m in mentions]
    elif asks or line.section == "question" and _QUESTION_MARK_END.search(
            line.text):  # 'Can he take naltrexone?': a question asserts nothing
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    for m in mentions]
    elif label := _QUESTION_LABEL.match(text):  # 'Question from primary care: can he have
        answer = text.find("?", label.end())  # SUTAB.': the referral's question, retold
        end = answer if answer >= 0 else len(text)
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    if m.start < end else m for m in mentions]
    elif proposed := _REPORTED_PROPOSAL.match(text):  # '#4 Pharmacist suggested lindane':
        answer = _QUESTION_END.search(text, proposed.end())  # another's proposal, retold
        end = answer.start() if answer else len(text)
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    if proposed.start() <= m.start < end else m for m in mentions]
    elif asked := _REPORTED_QUESTION.match(text) or _ASKED_IN_PASSING.search(text):
        # 'You asked whether he should remain on metformin', '..., referred by her PCP, who
        # asks whether to add clonazepam': nor does a retold one
        answer = _QUESTION_END.search(text, asked.end())
        end = answer.start() if answer else len(text)
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    if asked.start() <= m.start < end else m for m in mentions]
    if request := _REQUEST_NAMED.search(text):
        # 'Thank you for your query about adding clonazepam or bupropion', 'In reply to your
        # question regarding a repeat MRI': the drugs and tests the request names are what
        # was asked, not yet the answer (the patient it describes is described all the same)
        answer = _QUESTION_END.search(text, request.end())
        end = answer.start() if answer else len(text)
        mentions = [dataclasses.replace(m, statuses=m.statuses | {COUNTERFACTUAL})
                    if request.start() <= m.start < end and m.group != "finding" else m
                    for m in mentions]
    q_status = []
    for q in found:
        key = next((k for k in statuses if k[2] == "QUANTITY" and k[0] <= start + q.start < k[1]),
                   None)
        cues = statuses.get(key, ()) if key else ()
        q_status.append(_status_of(cues, line, None, text))
    return Clause(text, line.section, line.kind, index, line.dated_row_is_latest,
                  tuple(mentions), found, tuple(q_status), actions, past_dated)


def _tested_with(text: str, mentions: list[Mention]) -> list[Mention]:
    """'He should be tested now, this week if possible, with a CBC, a ferritin and a hemoglobin
    electrophoresis': the tests a person is to be tested with are ordered ('should not be
    tested with' turns them down); not 'she was tested with a CBC in 2022'."""
    passive = _TESTED_WITH.search(text)
    if passive is None:
        return mentions
    end = _TESTED_WITH_END.search(text, passive.end())
    stop = end.start() if end else len(text)
    action = Action("order", "tested with", passive.start(),
                    negated=bool(passive.group(1)))
    return [dataclasses.replace(m, action=action) if m.group == "test" and m.action is None
            and not m.negated and passive.end() <= m.start < stop else m for m in mentions]


_TESTED_WITH = re.compile(r"\b(?:should|must|will|needs?\s+to|ought\s+to|has\s+to|is\s+to|to)"
                          r"\s+(?:also\s+)?(not\s+)?be\s+(?:tested|screened|evaluated|checked|"
                          r"assessed|worked\s+up)\b(?!\s+for\b)[^.;:()]{0,40}?\bwith\b",
                          re.IGNORECASE)
_TESTED_WITH_END = re.compile(r"[;:]|\s[-–—]\s|\.\s|,\s*(?:and\s+)?(?:if|when|but|so|then)\b",
                              re.IGNORECASE)


def _not_the_diagnosis(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Alpha-thalassemia trait does not raise HbA2 and is not the diagnosis here': a finding
    that opens the sentence and is then said not to be the diagnosis is ruled out, past what
    else is said of it; not 'Iron deficiency lowers the HbA2, but this is not the diagnosis'."""
    first = next((m for m in mentions if m.group == "finding"), None)
    if first is None or first.action is not None or first.negated or not (
            _OPENING_SUBJECT.fullmatch(text[:first.start])):
        return mentions
    denied = _NOT_THE_DIAGNOSIS.match(text, first.end)
    if denied is None or any(m.group == "finding" and first.end <= m.start < denied.end()
                             for m in mentions):
        return mentions
    return [dataclasses.replace(m, negated=True) if m is first else m for m in mentions]


_OPENING_SUBJECT = re.compile(r"[\W\d]*(?:(?:an?|the)\s+)?", re.IGNORECASE)
_NOT_THE_DIAGNOSIS = re.compile(
    r"(?:\s+(?!(?:but|however|this|that|it|which|so|although|whereas)\b)[^\s.;:]+){0,10}?"
    r"\s+(?:is|was)\s+not\s+(?:the|her|his|their)\s+(?:(?:working|final|likely|correct|"
    r"unifying|primary|main)\s+)?diagnosis\b", re.IGNORECASE)


def _not_the_cause(text: str, mention: Mention) -> Mention:
    """'diphenhydramine is unlikely to have contributed and can be continued': the doubt is
    about its part in the illness, not about the drug; what follows decides for it."""
    denied = _NOT_THE_CAUSE.match(text, mention.end)
    if not denied:
        return mention
    verb = denied.group(1)
    kind = (None if verb is None else "continue" if verb.lower() in ("continued", "kept")
            else "resume" if verb.lower() == "resumed" else "stop")
    return dataclasses.replace(mention, negated=False, action=Action(
        kind, verb.lower(), denied.start(1)) if kind else None)


_NOT_THE_CAUSE = re.compile(
    r"\s+(?:is|was|are|were)\s+(?:unlikely|not\s+likely|not)\s+to\s+(?:have\s+)?(?:contributed|"
    r"caused|played\s+a\s+role|be\s+(?:the\s+cause|responsible|relevant|contributing))"
    r"(?:[^.;]*?\b(?:and|so)\s+(?:it\s+)?(?:can|may|should|could)\s+be\s+(continued|kept|"
    r"resumed|stopped|held))?", re.IGNORECASE)


def _symptom_triggered(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Fever / sore throat -> stop methimazole', 'double hydrocortisone for fever > 38 C',
    'stop MMI and call for fever': a safety rule for a symptom, not today's plan."""
    colon = text.find(":", 0, 40)  # 'She needs to know: fever or sore throat = stop it'
    opening = _SYMPTOM_OPENS.match(text) or colon >= 0 and _SYMPTOM_OPENS.match(text, colon + 1)
    def own_part_end(at: int) -> int:  # 'Sick-day rules reviewed: if she has a fever, ...'
        colon = text.find(":", at)
        return colon if colon >= 0 else len(text)

    return [dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
            if m.action is not None and not m.action.negated and (
                opening or _SYMPTOM_AFTER.search(text, m.end, own_part_end(m.end))) else m
            for m in mentions]


_SYMPTOM = (r"(?:fevers?|febrile|(?:a\s+)?(?:high\s+)?temperature|sore\s+throat|pharyngitis|"
            r"rash|jaundice|dark\s+urine|mouth\s+ulcers?|vomiting|diarrh(?:o)?ea|chills|"
            r"flu-like\s+symptoms|signs\s+of\s+infection|an?\s+infection|intercurrent\s+illness)")
_SYMPTOM_AFTER = re.compile(
    r"\b(?:for|with|if|when|whenever|in\s+case\s+of|on|during|at\s+the\s+first\s+sign\s+of|"
    r"(?:if|when|should)\s+(?:she|he|they|the\s+patient)\s+(?:develops?|gets?|has|have|"
    r"notices?|experiences?|runs?))\s+(?:(?:a|any|new|the|significant|high)\s+)*" + _SYMPTOM
    + r"\b|\b(?:above|over|of|>=?)\s*(?:3[89]|10[0-4])(?:\.\d)?\s*(?:degrees\s+)?[CF]\b",
    re.IGNORECASE)  # '... triple it above 39 C': a temperature is a symptom
_SYMPTOM_OPENS = re.compile(
    r"\W*(?:(?P<lead>with|for|if|when|during|in\s+case\s+of)\s+(?:a\s+|any\s+)?)?"
    r"(?:(?:new|any)\s+)?"
    + _SYMPTOM + r"(?:\s*(?:/|,|or|and)\s*(?:[\w-]+\s*){1,2})*?\s*(?:->|=>|:|=|(?(lead),))",
    re.IGNORECASE)  # 'Fever / sore throat -> stop it', 'with fever, double the dose'


_MORE_OF = re.compile(r"(?<!\bno )(?<!\bany )\b(?:more|extra|additional|a\s+higher\s+dose\s+of|"
                      r"higher\s+doses?\s+of)"
                      r"\s+(?:of\s+)?(?:the\s+|her\s+|his\s+|their\s+)?$", re.IGNORECASE)
# What a drug can do (harm), said of the drug: a warning, not an offer of it.
_HARM_IT_CAN_DO = re.compile(
    # 'dopamine agonists can destabilise ...', 'ibuprofen-type pain relievers can harm ...'
    r"(?:-(?:type|like|containing|based)\s+(?:[a-z]+\s+){0,2}?[a-z]+)?"
    r"(?:\s+now)?"
    # 'steroids offer no benefit and may delay viral clearance': a first verbless-of-dose
    # predicate, then the harm
    r"(?:\s+(?:[a-z-]+\s+){1,5}?and)?"
    r"\s+(?:can|could|may|might|will|would)\s+(?:also\s+|even\s+|only\s+|just\s+|further\s+|"
    r"not\s+|never\s+)?(?:worsen|destabili[sz]e|"
    r"cause|trigger|precipitate|exacerbate|induce|provoke|aggravate|prolong|interact|harm|mask|"
    r"unmask|lead\s+to|result\s+in|impair|damage|delay|change\s+the|alter\s+the|add\s+"
    r"nothing|(?:increase|raise|slow)\s+(?:down\s+)?(?:the\s+)?(?:risk|viral|infection|"
    r"mortality|shedding|replication|persistence)"
    # 'can increase anxiety and insomnia', 'may lower the seizure threshold': what it does to
    # the patient, not a dose step ('can increase to 60 mg', 'may reduce it', '... the dose')
    r"|(?:increase|raise|lower|reduce|decrease|heighten)\s+(?!(?:the\s+|her\s+|his\s+|their\s+)?"
    r"(?:dose|doses|dosage|it|them|to|by|from|gradually|slowly|weekly|daily|again|after|at|"
    r"over|once|if|when|as)\b)(?!\d)(?:the\s+|her\s+|his\s+|their\s+)?[a-z][a-z-]+)\b",
    re.IGNORECASE)
# '..., may increase viral persistence': a verb whose object is what the drug would harm is
# an effect of the drug, not a later step on it (no dose increase).
_MODAL_BEFORE = re.compile(r"\b(?:can|could|may|might|will|would)\s+(?:also\s+|further\s+)?$",
                           re.IGNORECASE)
_HARMED_OBJECT = re.compile(r"\s+(?:down\s+)?(?:the\s+)?(?:risk|viral|infection|mortality|"
                            r"shedding|replication|persistence)\b", re.IGNORECASE)
_A_REPEAT = re.compile(r"\b(?:a|an)\s+(?:repeat|second|further|another)\s+$", re.IGNORECASE)
_WHAT_IT_CAN_TELL = re.compile(
    r"\s+(?:can|could|may|might|will|would)\s+(?:not\s+|never\s+|only\s+)?(?:answer|show|"
    r"detect|miss|tell|distinguish|see|find|identify|exclude|separate|add|give|resolve)\b",
    re.IGNORECASE)
# A limit and what the label allows at it: 'below the 60 mL/min at which X may be used'.
_THRESHOLD_RULE = re.compile(r"\b(?:threshold|cut-?off|limit|level|value|clearance|egfr|crcl)"
                             r"\s+(?:(?:of\s+)?(?:[<>]=?\s*)?\d[\d.]*\s*(?:[\w/.]+\s+)?)?"
                             r"(?:at|above|below|under|over)\s+which\b", re.IGNORECASE)
# 'She does not meet modified Duke criteria for endocarditis': the finding is denied.
_CRITERIA_NOT_MET = re.compile(
    r"\b(?:does\s+not|doesn't|do\s+not|don't|not|never)\s+(?:meet|meets|fulfil|fulfill|fulfils|"
    r"fulfills|satisfy|satisfies)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}criteria\s+(?:for|of)\s+"
    r"(?:an?\s+)?$", re.IGNORECASE)
# 'this is not kidney (glomerular) bleeding': a gloss in parentheses shares the negation; not
# 'EMG: not now (typical DSP)' or 'not needed (no red flags)', where the aside gives the reason.
_NEGATED_GLOSS = re.compile(r"\b(?:not|no)\s+(?:an?\s+)?(?:(?!(?:now|yet|today|currently|needed|"
                            r"necessary|indicated|required|recommended|warranted|advised|useful|"
                            r"helpful|routinely|ever|at\s+this)\b)[\w-]+\s+){0,2}\($",
                            re.IGNORECASE)
# What a cause does not produce is denied of the cause, not of the patient.
_NOT_CAUSED = re.compile(
    r"\b(?:does|do|did|would|will|can|could)\s*(?:not|n't)\s+(?:cause|explain|produce|lead\s+to|"
    r"account\s+for|treat|help|improve|work\s+for)\s+(?:[\w-]+\s+){0,3}$", re.IGNORECASE)
# ('an antimuscarinic does not treat stress incontinence': the finding stands)
# A finding as the subject of a rule or a hypothesis, not this patient's: 'Vegetations usually
# sit on the upstream side', 'A vegetation large enough to embolize would not sit ...'.
_GENERIC_SUBJECT = re.compile(r"^\W*(?:an?\s+)?(?:(?!her\b|his\b|their\b|this\b|that\b|the\b)"
                              r"[a-z-]+\s+(?:or|and)\s+)?$", re.IGNORECASE)  # 'A painless or'
_GENERIC_PREDICATE = re.compile(
    r"[^.;:]{0,50}?\b(?:would\s+not|wouldn't|could\s+not|couldn't|usually|typically|generally|"
    r"tends?\s+to|classically|would\s+(?:also\s+)?[a-z]+"
    # 'ITP gives a true low count ... - not clumps': what such a disease presents with
    r"|(?:gives|causes|produces|shows|presents\s+with)\s+(?:an?|no)|is\s+characteri[sz]ed\s+by"
    r")\b", re.IGNORECASE)
_REASON_BEFORE = re.compile(r"\b(?:since|because|as)\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
_IN_PREGNANCY = re.compile(r"\b(?:in|during)\s+(?:early\s+)?pregnancy\b|\bin\s+the\s+first\s+"
                           r"trimester\b|\bif\s+(?:she\s+)?(?:is|becomes|gets)\s+pregnant\b"
                           r"|\bwhile\s+breast-?feeding\b", re.IGNORECASE)
_PREGNANCY_WORD = re.compile(r"\b(?:pregnan\w*|gestation\w*|trimester)\b", re.IGNORECASE)
_GESTATION_LATER = re.compile(
    r"\b(?:at|after|from|beyond)\s+(?:about\s+|~\s*)?(?:1[2-9]|[23]\d)\s*(?:wk|weeks?)\b"
    r"|\b(?:in|during)\s+the\s+(?:second|2nd|third|3rd)\s+trimester\b"
    r"|\bafter\s+the\s+first\s+trimester\b", re.IGNORECASE)
# 'started about 3 wk before the retention', 'stopped 2 months ago': a past action's date.
_TIME_BEFORE = re.compile(r"\s+(?:about\s+|around\s+|~\s*|roughly\s+)?\d+\s*"
                          r"(?:d|days?|wk|wks|weeks?|mo|months?|y|yrs?|years?)\s+(?:ago|earlier|(?:before|prior\s+to)\s+"
                          r"(?:the\s+|his\s+|her\s+|this\s+)?(?:AUR|retention|episode|admission|"
                          r"presentation|ED|visit|event|onset|symptoms|diagnosis|"
                          r"hospitali[sz]ation|fall|bleed))\b",
                          re.IGNORECASE)
_WHILE_ON = re.compile(r"\b(?:while|whilst)\s+(?:on|taking|using|receiving)\s+"
                       r"(?:(?:her|his|their|the)\s+)?$", re.IGNORECASE)
# (and with its subject: 'She has other options:', 'There are other choices:')
_OPTIONS_LEAD = re.compile(r"\W*(?:(?:she|he|they|you|we)\s+(?:also\s+)?(?:has|have)\s+|"
                           r"there\s+are\s+(?:also\s+)?|(?:her|his|their|your)\s+)?"
                           r"(?:the\s+)?(?:(?:several|some|a few|two|three|many)\s+)?"
                           r"(?:(?:other|further|additional|treatment|therapeutic|"
                           r"management|definitive)\s+)?"
                           r"(?:options?|alternatives?|choices?)(?:\s+(?:discussed|offered|available|"
                           r"for\s+[\w\s-]{1,30}?)|\s*\([^()]{0,40}\))*\s*(?::|include\b|are\b)",
                           re.IGNORECASE)
# A label that leaves its items open or waiting: 'Consider:', 'If K > 5.5:', 'To discuss:'.
_PENDING_LABEL = re.compile(r"\W*(consider(?:ing)?|if|when|once|should|possibly|maybe|possible|"
                            r"to discuss|for discussion|pending|to decide|undecided|sick[- ]day|"
                            r"stress[- ]dos(?:e|ing)|red[- ]flags?|return precautions|"
                            r"safety[- ]net(?:ting)?)\b[^:.;]{0,60}:", re.IGNORECASE)
_OTHER_PATIENT = re.compile(r"\W*(?:in|for|with)\s+(?:a|an|another|other|any)\s+(?:[\w-]+\s+){0,2}"
                            r"(?:woman|women|man|men|patients?|person|people|someone|adults?|"
                            r"child(?:ren)?)\b[^,.;]{0,60}?,?\s*(?:I|we|one)(?:'d|\s+would|"
                            r"\s+might|\s+could)\b", re.IGNORECASE)
# The consult's question restated under its label: what was asked, not what is planned.
_ASKED_LABEL = re.compile(r"(?:^|[|;]\s*)\W*(?:the\s+|your\s+)?(?:e-?consult\s+|consult\s+|"
                          r"referral\s+|"
                          r"clinical\s+|pcp\s+)?questions?(?:\s+asked)?\s*:", re.IGNORECASE)
_OPEN_LABEL_WORDS = frozenset({"consider", "considering", "possibly", "maybe", "possible",
                               "to discuss", "for discussion", "pending", "to decide",
                               "undecided"})
_ALTERNATIVE_WITH_REASON = re.compile(
    r"\W*(?:or,?\s+)?alternatively,?\s+(?:since|because|given|as)\b[^,;:]*,", re.IGNORECASE)
_RETURN_BEFORE = re.compile(r"\b(?:return|restore|bring)\s+(?:her|his|their|the)?\s*$",
                            re.IGNORECASE)
_TO_PREVIOUS = re.compile(r"\s+(?:back\s+)?(?:up\s+|down\s+)?to\s+(?:(?:her|his|their|the)?\s*"
                          r"(?:previous|prior|former|original|usual|old)\b|\d)", re.IGNORECASE)
_NEW_DOSE_BEFORE = re.compile(r"\b(?:new|revised|adjusted|updated|changed)\s+$", re.IGNORECASE)
_DOSE_LABEL_AFTER = re.compile(r"\s+(?:dose|regimen)\s*:", re.IGNORECASE)
_BASELINE_CUES = frozenset({"baseline", "at baseline"})
_ORDERED_AFTER = re.compile(r"\(\s*(?:ordered|ordering|order placed|sent|requested)\s*\)",
                            re.IGNORECASE)
# Where a finding is named as a population or as what a test cannot tell apart: 'TPO antibodies
# occur in Graves disease and in thyroiditis alike', '... do not separate Graves from thyroiditis'.
_POPULATION_OF = re.compile(
    r"\b(?:occurs?|seen|found|common|present|described|reported|frequent|typical)\s+in\s+"
    r"(?:both\s+|either\s+)?|\b(?:do(?:es)?\s+not|don't|doesn't|cannot|can't|can\s+not)\s+"
    r"(?:separate|distinguish|differentiate|discriminate|tell\s+apart)\b", re.IGNORECASE)
# What a kind of finding can be, said of the kind and not of this patient: 'a hydrocele in an
# adult can occasionally be reactive to a testicular tumour'.
_GENERIC_CAN = re.compile(r"(?:^\W*|\b(?:because|since|as|while)\s+)an?\s+[a-z-]+(?:\s+in\s+"
                          r"(?:an?\s+)?[a-z-]+)?\s+(?:can|may|could)\s+(?:occasionally\s+|"
                          r"sometimes\s+|rarely\s+|also\s+)?(?:be|mask|hide|signal)\b",
                          re.IGNORECASE)
_GENERIC_ENDS = re.compile(r",\s*(?:so|therefore|and\s+(?:I|we))\b|;", re.IGNORECASE)
_REPORTED_QUESTION = re.compile(
    r"^\W*(?:(?:(?:you|(?:the\s+|her\s+|his\s+)?(?:pcp|primary\s+care\s+\w+|physician|doctor|"
    r"team|referring\s+\w+|family|patient|"
    r"daughter|son|wife|husband|partner|mother|father)|he|she|they|dr\.?\s+\w+)\s+)?"
    r"(?:has\s+|have\s+|had\s+)?(?:asked|asks|ask|wondered|wonders|wonder|wanted\s+to\s+know|"
    r"wants?\s+to\s+know|would\s+like\s+to\s+know)|"
    r"(?:i|we)\s+(?:was|were|have\s+been|'ve\s+been|am|are)\s+(?:being\s+)?asked|"
    r"(?:the\s+|your\s+)?(?:question|consult\s+question)\s+(?:is|was))\s+(?:me\s+)?"
    r"(?:whether|if|about|what|how|when|which|why)\b", re.IGNORECASE)
# What another clinician or the family proposed, retold: '#4 Pharmacist suggested lindane',
# 'The PCP recommended another prednisone burst' (not the consultant's own plan).
_REPORTED_PROPOSAL = re.compile(
    r"^\W*(?:#?\d+[.)]?\s*)?(?:the\s+|her\s+|his\s+|their\s+|your\s+)?(?:pharmacist|pcp|"
    r"primary\s+care(?:\s+(?:provider|physician|doctor|clinician|team))?|urgent\s+care|ed|er|"
    r"emergency\s+department|referring\s+\w+|family|patient|daughter|son|wife|husband|"
    r"partner|nurse|dr\.?\s+\w+)\s+(?:has\s+|had\s+)?(?:suggested|suggests|proposed|proposes|"
    r"recommended|recommends|raised|mentioned|wanted|wants|requested|requests)\b",
    re.IGNORECASE)
_ASKED_IN_PASSING = re.compile(r"\b(?:who|and)\s+(?:has\s+)?(?:asks|asked|wonders|wondered|"
                               r"wants\s+to\s+know)\s+(?:me\s+|us\s+)?(?:whether|if|about)\b"
                               # '..., the question being myeloma versus MGUS and whether ...'
                               r"|\bthe\s+(?:[\w-]+\s+)?questions?\s+being\b",
                               re.IGNORECASE)
# The referrer's request named as a noun: 'Thank you for your query about adding X', 'In
# response to your question regarding ...', 'Re your enquiry as to whether ...'.
_REQUEST_NAMED = re.compile(
    r"\b(?:thank(?:s|\s+you)\s+for|in\s+(?:response|reply|answer)\s+to|regarding|re:?|"
    r"concerning|about|to\s+answer)\s+(?:your|the|this|their|his|her)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:query|queries|question|questions|request|enquiry|inquiry|enquiries|inquiries)\s+"
    r"(?:about|regarding|re:?|on|concerning|as\s+to|whether|if|asking\s+(?:about|whether|if))"
    r"|\bthank(?:s|\s+you)\s+for\s+asking\s+(?:(?:me|us)\s+)?(?:whether|if|about)\b",
    re.IGNORECASE)
# A request put as a question is an instruction: 'Could you please stop his iron?'
_POLITE_REQUEST = re.compile(r"\W*(?:please,?\s+)?(?:could|would|can|will)\s+you\s+(?:please\s+|"
                             r"kindly\s+)?"
                             r"(?!tell|let|clarify|confirm|advise|explain)", re.IGNORECASE)
_QUESTION_LABEL = re.compile(
    r"^\W*(?:the\s+|your\s+)?(?:e-?consult\s+|consult\s+|referral\s+|clinical\s+|pcp\s+)?"
    r"questions?(?:\s+(?:from|of|by)\s+[^:]{1,40}?)?\s*:\s*(?=(?:whether|if|what|how|when|which|"
    r"why|can|could|should|is|are|does|do|would|may|will)\b)", re.IGNORECASE)
_QUESTION_END = re.compile(r":|\s[-–—]\s|\?|[,;]\s+(?:and\s+|so\s+)?(?:I|we)\b")


def _negated_complements(text: str, mentions: list[Mention]) -> list[Mention]:
    """'No bridging with heparin or enoxaparin is needed': what the negated head is done with
    is negated with it (the 'with' ends the negation's scope for everything else)."""
    out: list[Mention] = []
    for mention in mentions:
        head = out[-1] if out else None
        if head is None or mention.negated or not _COMPLEMENT_GAP.fullmatch(
                text, head.end, mention.start):
            out.append(mention)
            continue
        action = mention.action
        if head.action is not None and head.action.negated and action is not None and (
                action.start == head.action.start):
            mention = dataclasses.replace(mention, action=head.action)  # one negated verb
        elif head.negated and head.group == "test":  # not 'no EtOH with metronidazole'
            if action is not None and not action.negated and action.start >= mention.end:
                action = dataclasses.replace(action, negated=True)
            mention = dataclasses.replace(mention, negated=True, action=action)
        out.append(mention)
    return out


def _order_carried_past_then(mentions: list[Mention]) -> list[Mention]:
    """'Check creatinine weekly for a month, then creatinine, LFTs and ferritin monthly': the
    tests of a later step with no verb of their own are ordered by the verb of the first."""
    first = next((m for m in mentions if m.group == "test" and m.action is not None), None)
    if first is None or first.action.kind != "order" or first.action.negated:
        return mentions
    return [dataclasses.replace(m, action=first.action) if m.start > first.end
            and m.group == "test" and m.action is None and not m.negated
            and m.cue(LATER) == "then" else m for m in mentions]


def _unsupported_findings(text: str, mentions: list[Mention]) -> list[Mention]:
    """Findings denied where a negation cannot reach them: by a verdict after the aside that
    spells them out ('A thrombotic microangiopathy (TTP or drug-induced TMA) is very
    unlikely'; an aside ends a negation's scope), or as what nothing points to ('there is no
    paraprotein to raise monoclonal gammopathy of renal significance')."""
    nothing = _NOTHING_TO_RAISE.search(text)
    out = []
    for m in mentions:
        if m.group == "finding" and nothing and m.start >= nothing.end() and not (
                _NEW_PART.search(text, nothing.end(), m.start)):
            m = dataclasses.replace(m, negated=True, action=None)
        elif m.group == "finding" and (_VERDICT_PAST_ASIDE.match(text, m.end)
                                       or _VERDICT_PAST_LIST.match(text, m.end)):
            m = dataclasses.replace(m, negated=True)
        out.append(m)
    return out


def _preconditions(text: str, mentions: list[Mention]) -> list[Mention]:
    """'6 months of abstinence before DAAs': a drug named after 'before' without a verb is
    what a precondition leads to, no plan of it yet."""
    return [dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
            if m.group == "drug" and m.action is None and _BEFORE_EVENT.search(text, 0, m.start)
            else m for m in mentions]


_VERDICT_PAST_ASIDE = re.compile(
    r"\s*\([^()]{1,80}\)\s*(?:is|are|was|were|seems|appears)?\s*(?:very\s+|highly\s+|quite\s+)?"
    r"(?:unlikely|excluded|ruled out|not supported|not likely|not present)\b", re.IGNORECASE)
# 'Myasthenia (no fatigability) and a cervical myelopathy (normal reflexes) are not supported':
# a verdict after a list of diagnoses, each with its aside, judges every one of them.
_VERDICT_ASIDE = r"(?:\s*\([^()]{1,80}\))?"
_VERDICT_WORD = (r"(?!(?:is|are|was|were|seems?|appears?|remains?|looks?|but|with|because|given|"
                 r"as|and|or)\b)[\w'/-]+")
_VERDICT_WORDS = _VERDICT_WORD + r"(?:\s+" + _VERDICT_WORD + r"){0,4}" + _VERDICT_ASIDE
_VERDICT_PAST_LIST = re.compile(
    _VERDICT_ASIDE + r"(?:\s*,\s*" + _VERDICT_WORDS + r"){0,3}(?:\s*,)?\s+(?:and|or)\s+"
    + _VERDICT_WORDS + r"\s+(?:are|were|seem|appear)\s+(?:both\s+|all\s+)?"
    r"(?:very\s+|highly\s+|quite\s+)?(?:unlikely|excluded|ruled out|not supported|not likely|"
    r"not present)\b", re.IGNORECASE)
_NOTHING_TO_RAISE = re.compile(r"\b(?:no|nothing|without)\s+(?:[\w-]+\s+){0,3}?to\s+(?:raise|"
                               r"suggest|support|indicate)\b", re.IGNORECASE)
_NEW_PART = re.compile(r"[,;:(]|\band\b", re.IGNORECASE)  # where what nothing points to ends
_BEFORE_EVENT = re.compile(r"\bbefore\s+(?:the\s+|any\s+)?$", re.IGNORECASE)


def _name_in_aside(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Deferasirox (Jadenu) 14 mg/kg PO daily', 'apixaban (Eliquis) 5 mg': a drug's other name
    in an aside right after it is the same drug; the dose and verbs after the aside are the
    drug's, one mention."""
    out: list[Mention] = []
    for m in mentions:
        head = out[-1] if out else None
        if head is not None and head.group == m.group == "drug" and m.text and (
                head.concepts & m.concepts) and head.action is None and not head.quantities and (
                re.fullmatch(r"\s*\(\s*", text[head.end:m.start])) and (
                re.match(r"\s*\)", text[m.end:])) and head.statuses == m.statuses:
            out[-1] = dataclasses.replace(m, concepts=head.concepts | m.concepts,
                                          text=head.text, start=head.start)
            continue
        out.append(m)
    return out


def _dash_verdict(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Planned fluoroquinolone prophylaxis in a patient with AAA - should be avoided': a
    verdict after the clause's last dash judges the drugs and tests named before it."""
    verdict = _DASH_VERDICT.search(text)
    if verdict is None:
        return mentions
    action = Action("avoid", verdict.group(1).lower(), verdict.start(1))
    for_now = verdict.group(1).lower().startswith(_FOR_NOW)  # '... if still uncontrolled, which
    return [dataclasses.replace(m, action=action, later=()) if m.end <= verdict.start()
            and m.group in ("drug", "test") and not m.negated and not (  # we would start then
                for_now and m.has(CONDITIONAL, LATER)) else m  # - not now': the later step
            for m in mentions]


_FOR_NOW = ("not now", "not yet", "not at this time", "not at present", "not today", "not for now")


def _dash_no_monitoring(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Repeat SPEP / IFE / free light chains - no routine monitoring': a verdict after the
    last dash that turns down the monitoring turns down the tests named before it (a drug named
    so keeps its own decision: 'methotrexate - no routine monitoring' judges the tests)."""
    verdict = _DASH_NO_MONITORING.search(text)
    if verdict is None:
        return mentions
    action = Action("avoid", verdict.group(1).lower(), verdict.start(1))
    return [dataclasses.replace(m, action=action, later=()) if m.end <= verdict.start()
            and m.group == "test" and not m.negated else m for m in mentions]


_DASH_NO_MONITORING = re.compile(
    r"\s-\s*(no\s+(?:(?:routine|further|ongoing|serial|scheduled|regular|repeat)\s+)*"
    r"(?:monitoring|surveillance|follow-?up|repeat\s+testing|testing|retesting|repeats?)"
    r"(?:\s+(?:is\s+|are\s+)?(?:needed|required|necessary|indicated|warranted))?)"
    r"\s*[.!]?\s*$", re.IGNORECASE)


def _examples_of_negated_head(text: str, mentions: list[Mention]) -> list[Mention]:
    """'no skeletal survey or other skeletal imaging (WBLDCT/PET/MRI)': the tests or drugs an
    aside lists right after a test or drug turned down are examples of it, turned down with it;
    not an aside that says more ('(PET instead)', '(CT 2024 was clear)')."""
    out = list(mentions)
    for aside in _PARENTHETICAL.finditer(text):
        inner = aside.group(0)
        if _EXAMPLES_NOT.search(inner) or re.search(r"(?<![A-Za-z])\d", inner):
            continue  # a dose or a date says more ('PCSK9i' names a drug)
        heads = [m for m in out if m.end <= aside.start() and _HEAD_NOUN.fullmatch(
            text[m.end:aside.start()])]  # 'No non-statin agent (ezetimibe, PCSK9i, fibrate)'
        if not heads or heads[-1].group not in ("test", "drug") or not heads[-1].negated or (
                heads[-1].decision != "avoid"):
            continue
        head = heads[-1]
        inside = [m for m in out if aside.start() < m.start < aside.end()]
        if not inside or any(m.group != head.group or m.action is not None and (
                m.action.start < aside.end()) for m in inside):
            continue  # a verb after the aside ('... as first line') is the head's, refused
        negation = tuple(c for c in head.cues if c.category == NEGATED)
        out = [dataclasses.replace(m, negated=True, cues=m.cues + negation, action=None,
                                   later=())
               if aside.start() < m.start < aside.end() and not m.negated else m for m in out]
    return out


_HEAD_NOUN = re.compile(r"\s*(?:(?:agents?|drugs?|medications?|meds|therap(?:y|ies)|tests?|"
                        r"imaging|options?)\s*)?", re.IGNORECASE)
_EXAMPLES_NOT = re.compile(r"\b(?:instead|rather|but|prefer\w*|only|except|unless|if|when|"
                           r"was|were|is|are|done|had|already|ordered|planned|ok|fine)\b",
                           re.IGNORECASE)


def _not_replaced(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Do not replace it with another anticholinergic': what is turned down is the
    replacement; the drug replaced keeps the decision made about it elsewhere."""
    out = []
    for m in mentions:
        action = m.action
        replaced = action is not None and action.kind == "switch" and action.negated and (
            _REPLACED_WITH.match(text, action.start + len(action.text)))
        if replaced and action.start < m.start < replaced.end():
            m = dataclasses.replace(m, action=None, deciding=False)
        out.append(m)
    return out


_REPLACED_WITH = re.compile(r"\s+(?:it|this|that|them|(?:the\s+)?[\w-]+)\s+(?:with|by)\b",
                            re.IGNORECASE)


def _none_fit(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Differential considered: drug effect, copper deficiency, marrow failure - none fit':
    a differential closed by 'none fit' rules out every diagnosis it lists."""
    verdict = _NONE_FIT.search(text)
    if verdict is None:
        return mentions
    return [dataclasses.replace(m, negated=True) if m.end <= verdict.start()
            and m.group == "finding" and not m.negated else m for m in mentions]


_NONE_FIT = re.compile(r"(?:[-,;:]|\bbut)\s*none\s+(?:of\s+(?:these|them|which|those)\s+)?"
                       r"(?:fits?|appl(?:y|ies)|explains?|is likely|are likely|matches|match)\b",
                       re.IGNORECASE)


def _in_the_role_of(text: str, mentions: list[Mention]) -> list[Mention]:
    """'do not send a stool C. difficile test after treatment as a test of cure': what a thing
    is done as takes the verb of the thing."""
    out = list(mentions)
    for index, m in enumerate(mentions):
        if index == 0 or m.action is not None or m.negated:
            continue
        head = mentions[index - 1]
        role = _AS_A.fullmatch(text, head.end, m.start)
        if role and head.action is not None and head.group == m.group:
            out[index] = dataclasses.replace(m, action=head.action, statuses=head.statuses,
                                             later=head.later)
    return out


def _refused_after_all(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Propranolol is also first line, but ... so it is avoided in her asthma': a drug praised
    in general and then turned down for this patient in the same sentence is turned down."""
    out = list(mentions)
    for index, m in enumerate(mentions):
        if m.group != "drug" or m.decision not in ("endorse", "allow"):
            continue
        refusal = next((o for o in mentions[index + 1:] if o.group == "drug" and o.concepts
                        and o.concepts <= m.concepts and o.decision == "avoid"
                        and _CONTRAST.search(text, m.end, o.start)), None)
        if refusal is not None:
            out[index] = dataclasses.replace(m, action=refusal.action, negated=refusal.negated)
    return out


_CONTRAST = re.compile(r"\b(?:but|however|although|though|yet)\b", re.IGNORECASE)
_PAST_EVENT_AFTER = re.compile(r"(?:\s+[\w-]+){0,2}?\s+(?:was|were|occurred|happened)\b"
                               r"[^.;:,]{0,30}?\b(?:ago|treated\s+with)\b", re.IGNORECASE)
_IN_MONTH_AFTER = re.compile(r"\s+(?:in|during)\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|"
                             r"dec)[a-z]*\b", re.IGNORECASE)
# 'E. coli bacteremia 02/2024', '... bacteremia was back in Feb 2024': dated as an episode
# (in a clause dated in the past), so an earlier one.
_DATED_AFTER = re.compile(r"\s+(?:(?:was|were|occurred)\s+(?:back\s+)?(?:in|during)\s+"
                          r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
                          r"|\(?\d{1,2}/(?:\d{1,2}/)?(?:19|20)\d{2}\b)", re.IGNORECASE)
_LABEL_AFTER = re.compile(r"\s*(?::|\s[-–]\s)")
_AS_A = re.compile(r"[^.;:,()]{0,40}?\bas\s+(?:a|an|the)\s+", re.IGNORECASE)


def _aside_like_its_head(text: str, mentions: list[Mention]) -> list[Mention]:
    """'to exclude a second PTH-independent process (malignancy-associated or vitamin
    D-mediated)': findings in an aside that spells out a finding are as doubtful as it is."""
    out = list(mentions)
    for aside in _PARENTHETICAL.finditer(text):
        heads = [m for m in mentions if m.group == "finding" and m.end <= aside.start()
                 and _HEAD_GAP.fullmatch(text[m.end:aside.start()])]
        if not heads or not (heads[-1].has(POSSIBLE, COUNTERFACTUAL) or heads[-1].negated):
            continue
        head = heads[-1]
        doubt = head.statuses & {POSSIBLE, COUNTERFACTUAL}
        out = [dataclasses.replace(m, negated=m.negated or head.negated,
                                   statuses=m.statuses | doubt)
               if m.group == "finding" and aside.start() < m.start < aside.end() else m
               for m in out]
    return out


# 'You do NOT need blood removal (phlebotomy)', 'no scope (colonoscopy)': a name in
# parentheses that glosses the plain words a negation has just denied is denied with them.
_GLOSS_DENIED = re.compile(r"\b(?:no|not|never|without|nor)\s+(?!only\b|just\b|yet\b)"
                           r"(?:(?:need|needed|require|required|recommend|recommended|indicated|"
                           r"warranted|necessary)\s+)?(?:a\s+|an\s+|any\s+)?(?:(?!(?:now|yet|"
                           r"today|needed|indicated|required|recommended|warranted|necessary|"
                           r"advised|appropriate)\s)[\w-]+\s+){1,3}\($", re.IGNORECASE)


# 'Avoid: ezetimibe or fish oil as first-line instead of a statin': under what to avoid, the
# thing an avoided option would replace is the preferred one, not a second thing refused.
_REPLACED_BEFORE = re.compile(r"\b(?:instead of|in place of|rather than|as opposed to)\s+"
                              r"(?:[\w-]+\s+){0,2}$", re.IGNORECASE)


def _replaced_one_under_avoid(text: str, mentions: list[Mention], section: str
                              ) -> list[Mention]:
    if section != "avoid":
        return mentions
    return [dataclasses.replace(m, negated=False)
            if m.negated and m.action is None and any(
                r.start() < m.start for r in _REJECTED_VERB.finditer(text, 0, m.start))
            and _REPLACED_BEFORE.search(text, max(0, m.start - 60), m.start) else m
            for m in mentions]


# 'No clinical ASCVD, LDL-C <190, not diabetic': a test written with its value is a result
# stated; a denial that opened an earlier item of the list does not reach it.
_VALUE_AFTER = re.compile(r"\s*(?:[:=]\s*)?(?:[<>]=?|[≤≥]|~)?\s*\d")
_DENIAL = re.compile(r"\b(?:no|not|without|negative for|denies)\b", re.IGNORECASE)


def _result_past_listed_denial(text: str, mentions: list[Mention]) -> list[Mention]:
    out = []
    for m in mentions:
        denials = list(_DENIAL.finditer(text, 0, m.start))
        if m.negated and m.group == "test" and m.action is None and denials and (
                _VALUE_AFTER.match(text, m.end)) and "," in text[denials[-1].end():m.start]:
            m = dataclasses.replace(m, negated=False)
        out.append(m)
    return out


# 'PCP message sent naming metoprolol and the diltiazem caution': what a message is about.
_MESSAGE_ABOUT = re.compile(
    r"\b(?:message|letter|note|e-?mail|summary|copy|leaflet|handout|fax)\b[^.;]{0,30}?\b"
    r"(sent|given|provided|faxed|routed|forwarded)\b(?:\s+to\s+(?:the\s+)?\w+)?\s+"
    r"(?:naming|about|regarding|re:?|explaining|outlining|listing|summari[sz]ing|describing|"
    r"covering|mentioning|detailing)\b", re.IGNORECASE)


def _message_contents(text: str, mentions: list[Mention]) -> list[Mention]:
    """A message's verb ('sent') acts on the message, not on the drugs it names."""
    about = _MESSAGE_ABOUT.search(text)
    if about is None:
        return mentions
    return [dataclasses.replace(m, action=None, deciding=False)
            if m.start >= about.end() and m.action is not None
            and m.action.start == about.start(1) else m for m in mentions]


_NO_CASE_WHERE = re.compile(r"\b(?:no|not any|never an?)\s+(?:safe\s+)?(?:window|time|way|"
                            r"situation|circumstances?|scenario|interval|dose|setting|point)\s+"
                            r"(?:in which|at which|under which|where|when|that)\b",
                            re.IGNORECASE)


# 'after the fludrocortisone cut': a change named as the time something followed.
_SINCE_THE = re.compile(r"\b(?:after|since|following)\s+(?:the|her|his|their)\s+(?:[\w-]+\s+)?$",
                        re.IGNORECASE)
_CHANGE_NOUN = re.compile(r"\s+(?:dose\s+)?(?:cut|reduction|decrease|increase|change|switch|"
                          r"taper|stop|withdrawal)\b", re.IGNORECASE)
# 'Cr 1.4 -> 2.3 over 10 d after starting naproxen', 'epistaxis since apixaban added to
# aspirin', 'since being started on sertraline': when something began, told as history.
_SINCE_STARTING = re.compile(r"\b(since|after)\s+(?:starting|being started on|commencing|"
                             r"beginning)\s+(?:on\s+)?(?:the\s+|her\s+|his\s+)?$", re.IGNORECASE)
_SINCE_ADDED = re.compile(r"\b(since|after)\s+(?:the\s+|her\s+|his\s+)?$", re.IGNORECASE)
_ADDED_AFTER = re.compile(r"\s+(?:was\s+|were\s+)?(?:added|started|begun|introduced|switched)"
                          r"(?:\s+(?:on\s+)?to\s+(?:the\s+|her\s+|his\s+)?)?", re.IGNORECASE)


# '... whereas stopping aspirin markedly raises cardiac risk': a verb in -ing whose phrase is
# the subject of what follows gives a reason, it plans nothing.
_SUBJECT_PREDICATE = re.compile(r"(?:\s+(?:\d[\d.]*\s*\w+|now|abruptly|suddenly|early|it|"
                                r"them))?\s+(?:\w+ly\s+)?(?:(?:would|could|may|might|can|will)\s+)?"
                                r"(?:raises?|increases?|carry|carries|risks?|causes?|leads?|"
                                r"triggers?|precipitates?|worsens?|doubles?|exposes?)\b",
                                re.IGNORECASE)  # (not 'Stopping X is reasonable': an offer)


def _gerund_subject(text: str, mention: Mention) -> Mention:
    action = mention.action
    if action is None or not action.text.lower().endswith("ing") or action.start > mention.start \
            or not _SUBJECT_PREDICATE.match(text, mention.end):
        return mention
    return dataclasses.replace(mention, action=None, later=(), deciding=False,
                               statuses=mention.statuses | {ATTRIBUTE})


def _since_it_began(text: str, mentions: list[Mention]) -> list[Mention]:
    """A drug named as the time something began ('since starting X', 'since X added to Y') is
    history, not a start today (after 'after', only in a story told in the past); so is a
    change named as a time ('after the fludrocortisone cut to 0.05 mg')."""
    out, joined_to = [], -1
    for m in mentions:
        if _SINCE_THE.search(text, 0, m.start) and _CHANGE_NOUN.match(text, m.end):
            m = dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
        added = _ADDED_AFTER.match(text, m.end)
        lead = _SINCE_STARTING.search(text, 0, m.start) or (
            _SINCE_ADDED.search(text, 0, m.start) if added else None)
        began = m.group == "drug" and lead is not None and (
            lead.group(1).lower() == "since" or bool(_PAST_STORY.search(text)))
        if began or m.start == joined_to:  # '... added to aspirin': what it was added to
            m = dataclasses.replace(m, action=None, later=(), deciding=False,
                                    statuses=m.statuses | {HISTORICAL})
        if began and added and added.group(0).rstrip().endswith(("to", "the", "her", "his")):
            joined_to = added.end()
        out.append(m)
    return out


_PAST_STORY = re.compile(r"\b(?:ago|rose|fell|developed|noticed|began|was|were|had|over \d+)\b|"
                         r"->|\u2192", re.IGNORECASE)
# 'Add "fluoroquinolones - avoid (AAA)" to allergy list', 'added a fluoroquinolone alert':
# the drug goes on a list of what not to give.
_ALERT_AFTER = re.compile(r"[^.;]{0,40}?\b(?:alerts?|flags?|warnings?)\b|"
                          r"[^.;]{0,60}?\bto\s+(?:the\s+|"
                          r"his\s+|her\s+)?(?:chart\s+|EHR\s+|record\s+)?(?:allergy|intolerance|"
                          r"adverse[- ]reaction|alerts?|ADR)\b", re.IGNORECASE)


def _listed_as_alert(text: str, mentions: list[Mention]) -> list[Mention]:
    return [dataclasses.replace(m, action=Action("avoid", "alert", m.action.start),
                                deciding=True)
            if m.group == "drug" and m.action is not None and m.action.kind == "start"
            and m.action.text.lower() in ("add", "added", "adding")
            and _ALERT_AFTER.match(text, m.end) else m for m in mentions]


_PAST_IN_ASIDE = re.compile(r"\bago\b|\b(?:19|20)\d\d\b|\blast (?:week|month|year)\b|"
                            r"\bpreviously\b|\bin the past\b", re.IGNORECASE)


_FOR_SO_LONG = re.compile(r"\s*(?:for|x|\u00d7|over)?\s*(?:the\s+(?:past|last)\s+)?\d+(?:\.\d+)?\s*"
                          r"(?:y|yr|yrs|years?|mo|mos|months?)\b", re.IGNORECASE)


def _past_aside_verbs(text: str, mention: Mention) -> Mention:
    """'on prednisone 20 mg daily (started at 25 mg 10 weeks ago)': a verb in a later aside
    that dates itself tells history."""
    def past(action: Action) -> bool:
        aside = _aside_around(text, action.start) if action.start > mention.end else None
        return aside is not None and aside[0] > mention.end and bool(
            _PAST_IN_ASIDE.search(text, *aside))
    if mention.action is not None and past(mention.action):
        mention = dataclasses.replace(mention, statuses=mention.statuses | {HISTORICAL},
                                      deciding=False)
    later = tuple(a for a in mention.later if not past(a))
    return mention if later == mention.later else dataclasses.replace(mention, later=later)


def _aside_around(text: str, at: int) -> tuple[int, int] | None:
    """The bracketed aside that holds a position, as (start, end)."""
    opening = text.rfind("(", 0, at)
    if opening < 0 or ")" in text[opening:at]:
        return None
    closing = text.find(")", at)
    return opening, closing if closing >= 0 else len(text)


_UNTIL_LABEL = re.compile(r"\W*(?:until|till|pending|before|after)\s+[^:.;]{1,40}:", re.IGNORECASE)


def _gloss_like_its_head(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Calcium carbonate (Tums EX 750 mg, OTC): STOP': the brand in the aside is the drug
    before it, under the same verdict."""
    out = list(mentions)
    for i, m in enumerate(out):
        if m.action is not None or m.negated:
            continue
        opening = text.rfind("(", 0, m.start)
        head = next((h for h in reversed(out[:i]) if h.end <= opening), None)
        if opening < 0 or head is None or text[head.end:opening].strip() or ")" in text[
                opening:m.start] or not m.concepts & head.concepts or head.action is None:
            continue
        out[i] = dataclasses.replace(m, action=head.action, deciding=head.deciding,
                                     statuses=m.statuses | head.statuses)
    return out


_TO_RULE_OUT = re.compile(r"\bto\s+(?:rule out|exclude|evaluate for|look for|check for|"
                          r"screen for|assess for|test for)\s+(?:an?\s+|the\s+)?$", re.IGNORECASE)


def _purpose_of_past_test(text: str, mentions: list[Mention]) -> list[Mention]:
    """'His PCP sent an SPEP ... to rule out myeloma': what a past test was for is history,
    not a diagnosis offered now."""
    out = []
    for m in mentions:
        if m.group == "finding" and _TO_RULE_OUT.search(text, 0, m.start) and any(
                o.group == "test" and o.end <= m.start and HISTORICAL in o.statuses
                for o in mentions):
            m = dataclasses.replace(m, statuses=m.statuses | {HISTORICAL})
        out.append(m)
    return out


# ', raise the head of the bed, and work on weight loss': a new instruction after a comma.
_NEW_COMMAND = re.compile(r",\s*(?:and\s+)?(?:raise|elevate|work on|keep|take|move|eat|avoid|start|"
                          r"stop|use|try|limit|reduce|lose|continue|add|begin|check|follow|"
                          r"return|call|aim for|encourage|increase)\b", re.IGNORECASE)


def _past_a_new_command(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Move dinner earlier so he's not eating within 3 hours of bed, raise the head of the
    bed, and work on weight loss': a negation ends where a new instruction begins."""
    out = []
    for m in mentions:
        denial = [c for c in m.cues if c.category == NEGATED and c.start < m.start]
        negated_verb = m.action is not None and m.action.negated
        if (m.negated or negated_verb) and denial and _NEW_COMMAND.search(
                text, denial[-1].start, m.end):
            m = dataclasses.replace(m, negated=False, action=m.action and dataclasses.replace(
                m.action, negated=False))
        out.append(m)
    return out


_PREFERRED_OVER = re.compile(r"\b(?:rather than|instead of|in preference to|over)\s+",
                             re.IGNORECASE)
_NEXT_CLAUSE = re.compile(r",\s*(?:and|but)\s+", re.IGNORECASE)


def _past_the_rejected(text: str, mentions: list[Mention]) -> list[Mention]:
    """'a cardioselective beta blocker rather than propranolol, and metoprolol over atenolol':
    what 'rather than' turns down ends where ', and' opens the next choice."""
    out = []
    for m in mentions:
        cues = list(_PREFERRED_OVER.finditer(text, 0, m.start)) if m.negated and (
            m.action is None) else []
        joint = cues and _NEXT_CLAUSE.search(text, cues[-1].end(), m.start)
        if joint and any(cues[-1].end() <= o.start < m.start for o in mentions) and not (
                _PREFERRED_OVER.search(text, joint.end(), m.start)) and (
                _PREFERRED_OVER.match(text, m.end + 1)):  # its own choice, not a list
            m = dataclasses.replace(m, negated=False)
        out.append(m)
    return out


def _negated_gloss(text: str, mentions: list[Mention]) -> list[Mention]:
    """Only a gloss of words the reader does not know: 'no oral beta-lactams (ESBL)' names
    the denied drugs itself, and its bracket gives the reason, not another name."""
    out = []
    for m in mentions:
        denied = _GLOSS_DENIED.search(text, max(0, m.start - 80), m.start) if (
            not m.negated and m.action is None and m.group in ("test", "drug")
            and text[m.end:m.end + 1] == ")") else None
        if denied and not any(denied.start() <= o.start < m.start for o in mentions):
            m = dataclasses.replace(m, negated=True)
        out.append(m)
    return out


_HEAD_GAP = re.compile(r"\s*(?:[\w-]+\s+){0,2}?(?:process|picture|cause|etiology|disease|"
                       r"syndrome|disorder)?\s*", re.IGNORECASE)


def _causes_of_a_finding(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Tums 8-10/day + HCTZ 25 mg + alkalosis -> calcium-alkali syndrome': drugs before an
    arrow that ends in a diagnosis are its causes, not a plan; so are drugs under a 'Cause:'
    label with no plan verb, and drugs added to a finding under a finding's label ('AKI:
    volume depletion + ibuprofen 1200 mg/day + ACE inhibitor')."""
    label = _FINDING_LABEL.match(text)
    summed = label is not None and " + " in text and any(
        m.group == "finding" and m.end <= label.end() for m in mentions) and any(
        m.group == "finding" and m.start >= label.end() for m in mentions)
    asides = [m.span() for m in _PARENTHETICAL.finditer(text)]
    if (summed or _CAUSE_LABEL.match(text)) and not any(
            m.action is not None and not any(a <= m.start < b for a, b in asides)
            for m in mentions):  # not '(decrease urinary Ca excretion)': what a drug does
        # 'Cause: calcium-alkali syndrome - calcium carbonate (Tums 8-10 tablets/day) ...'
        return [dataclasses.replace(m, statuses=m.statuses | {ATTRIBUTE})
                if m.group == "drug" and not m.negated else m for m in mentions]
    arrow = text.rfind(" -> ")
    if arrow < 0 or _PLAN_AFTER_ARROW.search(text, arrow):
        return mentions
    after = [m for m in mentions if m.start > arrow]
    if not after or any(m.group != "finding" or m.action is not None for m in after):
        return mentions
    rest = text[arrow + 4:]
    for m in after:
        rest = rest.replace(text[m.start:m.end], " ")
    if re.search(r"\d", rest) or len(re.findall(r"[A-Za-z]{3,}", rest)) > 3:
        return mentions  # '-> reassess 60 min -> 2-4 mg prn ongoing w/d': a step, not a cause
    return [dataclasses.replace(m, statuses=m.statuses | {ATTRIBUTE})
            if m.start < arrow and m.group == "drug" and m.action is None and not m.negated
            else m for m in mentions]


_CAUSE_LABEL = re.compile(r"\W*(?:(?:most\s+)?(?:likely|probable)\s+)?(?:causes?|etiology|"
                          r"aetiology|mechanism|precipitants?|contributors?|contributing "
                          r"factors?|culprits?)\b[^:]{0,30}:", re.IGNORECASE)
_FINDING_LABEL = re.compile(r"[\w /-]{2,30}:\s")
_PLAN_AFTER_ARROW = re.compile(r" -> [^.;]*\b(?:start|stop|hold|avoid|continue|resume|switch|"
                               r"order|check|refer|give|add|increase|decrease|reduce)\b",
                               re.IGNORECASE)


def _not_let_lapse(text: str, mentions: list[Mention]) -> list[Mention]:
    """'Do not let the Prolia lapse or stop': keeping the drug going, not turning it down."""
    out = []
    for m in mentions:
        before = _NOT_LET.search(text, 0, m.start)
        if m.group == "drug" and before and _LAPSE.match(text, m.end):
            m = dataclasses.replace(m, negated=False, action=Action(
                "continue", "not let lapse", before.start()), later=(), cues=tuple(
                c for c in m.cues if c.category != NEGATED))
        out.append(m)
    return out


def _results_after_without(text: str, mentions: list[Mention]) -> list[Mention]:
    """'pruritus without rash, total bile acids of 46', 'shedding, not active infection,
    Ct 37': a 'without', or a negation a comma closed, does not reach a test stated with
    its value."""
    def reaches(m: Mention) -> bool:
        return any(c.text.lower() != "without" and "," not in text[c.start:m.start]
                   for c in m.cues if c.category == NEGATED)
    return [dataclasses.replace(m, negated=False, cues=tuple(
        c for c in m.cues if c.category != NEGATED))
        if m.negated and m.group == "test" and m.action is None and _VALUE_NEXT.match(text, m.end)
        and not reaches(m) else m
        for m in mentions]


_VALUE_NEXT = re.compile(r"\s*(?:of|=|:|is|was|at)?\s*[<>≤≥~]?\s*\d")


def _visit_place(text: str, mentions: list[Mention]) -> list[Mention]:
    """'have arranged an urgent appointment in the early arthritis clinic', 'book a visit with
    the renal clinic': the place a visit is planned at is where the patient is sent, under
    the verb that plans the visit."""
    out = list(mentions)
    for i in range(1, len(out)):
        visit, place = out[i - 1], out[i]
        if place.action is None and not place.negated and visit.action is not None and (
                place.group == "test" and _VISIT_NOUN.search(visit.text)
                and _VISIT_AT.fullmatch(text, visit.end, place.start)):
            out[i] = dataclasses.replace(place, action=visit.action,
                                         statuses=place.statuses | visit.statuses)
    return out


_VISIT_NOUN = re.compile(r"\b(?:appointment|visit|review|consultation|slot|seen)$", re.IGNORECASE)
_VISIT_AT = re.compile(r"\s+(?:(?:in|at|with|to)\s+)(?:(?:the|our|my|a|an|their|his|her)\s+)?"
                       r"(?:[\w-]+\s+){0,2}?", re.IGNORECASE)


def _shared_predicate(text: str, mentions: list[Mention]) -> list[Mention]:
    """'observation without steroids and a weekly CBC would also be reasonable': a verdict
    after a coordinated subject judges each of its members, not only the nearest."""
    out = list(mentions)
    for i in range(len(out) - 2, -1, -1):
        first, second = out[i], out[i + 1]
        if (first.action is None and not first.negated and second.action is not None
                and second.action.kind in ("allow", "endorse") and not second.negated
                and second.action.start >= second.end
                and _COORDINATED.fullmatch(text, first.end, second.start)):
            out[i] = dataclasses.replace(first, action=second.action,
                                         deciding=second.deciding)
    return out


_COORDINATED = re.compile(r"\s*,?\s*(?:and|or|plus)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?",
                          re.IGNORECASE)
_NOT_LET = re.compile(r"\b(?:do\s+not|don't|never|not)\s+let\s+(?:the\s+|her\s+|his\s+)?$",
                      re.IGNORECASE)
_LAPSE = re.compile(r"\s+(?:lapse|run\s+out|stop|be\s+(?:stopped|missed|delayed|interrupted)|"
                    r"go\s+(?:unrefilled|overdue))\b", re.IGNORECASE)
_DASH_VERDICT = re.compile(r"(?:\s-|\s*:)\s*(should be avoided|must be avoided|is best avoided|"
                           r"to be avoided|avoid|contraindicated|is contraindicated|"
                           r"not recommended|not advised|not needed|not necessary|not required|"
                           r"not indicated|unnecessary|not warranted|not now|not yet|"
                           # 'Rechallenge: not allowed', 'Re-dosing - not permitted'
                           r"(?:is\s+|are\s+)?(?:not|never)\s+(?:allowed|permitted|an\s+option|"
                           r"appropriate|safe)|forbidden|prohibited|"
                           r"not at this time|not at present|not today|not for now|"
                           r"none (?:is |are )?(?:indicated|needed|necessary|required|warranted|"
                           r"recommended))\s*[.!]?\s*$", re.IGNORECASE)
_COMPLEMENT_GAP = re.compile(r"\s+(?:with|using)\s+(?:\w+\s+)?|\s*(?:,|or|and|/|nor)\s*",
                             re.IGNORECASE)
_SWITCH_ARROW = re.compile(r"(?<![\d%)]) -> (?!\d)")  # not a trend '(130 -> 128)'


def _arrow_switch(text: str, mentions: list[Mention],
                  actions: tuple[Action, ...]) -> list[Mention]:
    """'d/c diphenhydramine -> hydroxyzine 25 mg qHS': a drug after the arrow of a stop or a
    switch is what the patient moves to."""
    found = _SWITCH_ARROW.search(text)
    arrow = found.start() if found else -1
    if arrow < 0 or not any(a.kind in ("stop", "switch") and a.start < arrow for a in actions):
        return mentions
    return [dataclasses.replace(m, action=Action("start", "->", arrow), deciding=True)
            if m.start > arrow and m.group == "drug" and m.action is None and not m.negated
            and CONDITIONAL not in m.statuses else m for m in mentions]


def _arrow_dose_change(text: str, mentions: list[Mention]) -> list[Mention]:
    """'atorva 20 -> 80 mg qd': a verbless dose change of one drug is an increase or a
    decrease."""
    changed = []
    for m in mentions:
        then = m.action is not None and bool(_THEN_JUST_BEFORE.search(text, 0, m.action.start))
        if (m.action is None or then) and not m.negated and m.group == "drug":
            pairs = [(a, b) for a, b in zip(m.quantities, m.quantities[1:], strict=False)
                     if _DOSE_ARROW.fullmatch(text[a.end:b.start]) and b.unit
                     and b.unit not in _BODY_WEIGHT_UNITS  # 'gained 8 kg on X (74 -> 82 kg)'
                     and a.unit in ("", b.unit) and a.value != b.value
                     and (not then or b.end < m.action.start)
                     and not any(o.group == "test" and m.end <= o.start < a.start
                                 for o in mentions)  # 'on X ... and her HbA1c 5.4% to 6.0%'
                     and not _COMPUTED.search(text, 0, a.start)]  # '= 1064 mg -> 1080 mg'
                     # rounds a computed dose, it changes no current one
            if pairs:
                old, new = pairs[0]
                kind = "increase" if new.value > old.value else "decrease"
                m = dataclasses.replace(m, action=Action(kind, "->", old.end), deciding=True,
                                        later=(m.action, *m.later) if then else m.later)
                # 'X 20 mg -> 10 mg x 14 days, then stop': the change now, the stop later
        changed.append(m)
    return changed


_THEN_JUST_BEFORE = re.compile(r"\b(?:then|thereafter)\s*$", re.IGNORECASE)
_BODY_WEIGHT_UNITS = frozenset({"kg", "lb", "lbs"})  # a weight trend, not a dose
_COMPUTED = re.compile(r"=\s*~?\s*$|\bx\s*\d+(?:\.\d+)?\s*kg\s*=?\s*$|->\s*$", re.IGNORECASE)
_DOSE_ARROW = re.compile(r"\s*(?:mg|mcg|g|units?)?\s*(?:->|to)\s*", re.IGNORECASE)


# 'For dabigatran, ...', 'Regarding the statin, ...': what the sentence is about.
TOPIC_LEAD = re.compile(r"\W*(?:for|as for|regarding|re)\s+(?:the\s+|his\s+|her\s+)?",
                        re.IGNORECASE)


def _topic_takes_verb(text: str, mentions: list[Mention], actions: tuple[Action, ...]
                      ) -> list[Mention]:
    """'For dabigatran, his CrCl is 46 mL/min: hold it 4 days before surgery': the drug the
    sentence opens on takes the first plan verb after the colon that acts on nothing else."""
    lead = TOPIC_LEAD.match(text)
    colon = text.find(":")
    if lead is None or colon < 0 or not mentions or mentions[0].start != lead.end() or (
            mentions[0].group != "drug" or mentions[0].action is not None):
        return mentions
    taken = {m.action.start for m in mentions if m.action is not None} | {
        a.start for m in mentions for a in m.later}
    verb = next((a for a in actions if a.start > colon and a.start not in taken
                 and not any(colon < m.start < a.start or a.start < m.start <= a.start
                             + len(a.text) + 25 for m in mentions[1:]
                             if m.group == "drug")), None)
    if verb is None:
        return mentions
    later = tuple(a for a in actions if a.start > verb.start and a.start not in taken
                  and not any(verb.start < m.start < a.start + len(a.text) + 25
                              for m in mentions[1:] if m.group == "drug"))
    return [dataclasses.replace(mentions[0], action=verb, later=later, deciding=True),
            *mentions[1:]]


def _adopt_orphans(mentions: list[Mention], found: tuple[Quantity, ...]) -> list[Mention]:
    """'... fell to 10.8 g/dL in November (ferritin 11, TSAT 7%) and to 9.2 g/dL in April': a
    value in a unit only some tests use, left beside another test, belongs to the nearest
    earlier test it fits."""
    held = {id(q) for m in mentions for q in m.quantities}
    for q in found:
        if id(q) in held or not q.unit or q.unit.lower() not in lexicon.measured_units():
            continue
        for k in range(len(mentions) - 1, -1, -1):
            m = mentions[k]
            if m.start < q.start and m.group == "test" and lexicon.unit_fits(q.unit, m.concepts) \
                    and any(lexicon.concept(c).unit for c in m.concepts if c in lexicon.concepts()):
                mentions[k] = dataclasses.replace(m, quantities=(*m.quantities, q))
                break
    return mentions


# 'CrCl <= 30 -> stop acamprosate', 'relapse -> call': a trigger written with an arrow.
# A verbless result that opens a branch of the plan ('Washout indeterminate -> ...').
_RESULT_BRANCH = re.compile(r"(?!.*\b(?:is|are|was|were|shows?|showed|has|had)\b)[^.;:]{0,80}\b"
                            r"(?:consistent with|normal|abnormal|positive|negative|indeterminate|"
                            r"benign|suspicious|elevated|raised|low|high|suppressed|stable|"
                            r"unchanged|non-?diagnostic)\b[^.;:]{0,40}$", re.IGNORECASE)
_ARROW_TRIGGER = re.compile(r"<|>|\b(?:(?:toxicity|warning|alarm|withdrawal|red[- ]flag)\s+"
                            r"(?:symptoms?|signs?)|(?:symptoms?|signs?)\s+of|red[- ]flags?|"
                            r"if|when|falls?|drops?|rises?|exceeds?|develops?|persists?|"
                            r"worsens?|fails?|relapses?|recurs?|recurrences?|returns?|uncontrolled|"
                            r"intoleran\w*|side effects?|no response|not improved|"
                            r"no (?:benefit|improvement|effect)|ineffective)\b",
                            re.IGNORECASE)


# What a result branch leads to when it is a plan without a verb: '-> no more imaging'.
_NEGATED_PLAN = re.compile(r"[-=>\s]*(?:no|not|none|nothing)\b", re.IGNORECASE)
# 'Growth -> PET-CT/biopsy': an event that triggers what follows even without a verb.
_ARROW_EVENT = re.compile(r"\b(?:if|when|sudden(?:ly)?|growth|grows|enlarg\w*|stable|stability|"
                          r"unchanged|"
                          r"progress\w*|"
                          r"fails?|persists?|relapses?|recurs?|worsens?|improves?|resolves?|"
                          r"rises?|falls?|intoleran\w*|"
                          # 'Colonoscopy contingency: ...', 'Fallback: ...': a label of what
                          r"contingenc(?:y|ies)|fallback|back-?up plan)\b",  # waits on a trigger
                          re.IGNORECASE)


# A label naming an event, before what it triggers: 'Growth on follow-up: PET/CT'.
_EVENT_LABEL = re.compile(r"(?!.*\b(?:is|are|was|were|shows?|showed|has|had)\b)(?=[^:.;]{0,80}"
                          + _ARROW_EVENT.pattern + r")[^:.;]{3,80}:\s", re.IGNORECASE)


def _arrow_contingency(text: str, mentions: list[Mention], actions: tuple[Action, ...],
                       section: str = "body") -> list[Mention]:
    """Mentions after an arrow are conditional when what precedes the arrow is a trigger and
    a plan verb follows it; a data -> diagnosis arrow ('UNa 64 -> SIADH') is left alone, and
    so is a comparison in an assessment ('stroke risk < 1% -> anticoagulation not
    indicated'), which applies a threshold to the patient."""
    arrow = text.find(" -> ")
    if arrow < 0:
        label = _EVENT_LABEL.match(text)
        if label is None or section in REPORTING_SECTIONS or section == "assessment" or any(
                a.start < label.end() for a in actions):
            return mentions
        arrow = label.end() - 1  # 'Growth or new solid component: PET/CT or biopsy'
    opening = next((m for m in mentions if m.start < arrow), None)
    if section not in REPORTING_SECTIONS and section != "assessment" and (
            opening is not None and opening.group == "test") and _RESULT_BRANCH.match(
            text[:arrow]) and (any(a.start > arrow for a in actions) or _NEGATED_PLAN.match(
                text, arrow + 1)):  # '- Washout consistent with adenoma -> no more imaging'
        mentions = [dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL})
                    if m.start < arrow else m for m in mentions]
    concluded = next((m for m in mentions if m.start > arrow), None)
    if concluded is not None and concluded.group == "finding" and concluded.action is None and (
            not text[arrow + 3:concluded.start].strip(" *")):
        return mentions  # 'renin high + K 5.6 -> mineralocorticoid under-replacement after ...'
    planned = any(a.start > arrow for a in actions) or any(  # 'only on new trigger (...) ->'
        CONDITIONAL in m.statuses for m in mentions if m.start < arrow)
    triggers = [m.group(0) for m in _ARROW_TRIGGER.finditer(text, 0, arrow)
                if not (m.group(0) in "<>" and _AGE_BEFORE.search(text, 0, m.start()))]
    # '20 cig/d + age >35 -> combined OCP excluded': an age bound is a fact, not a trigger
    if section == "assessment":
        triggers = [t for t in triggers if t not in "<>"]
    if not (planned and triggers or _ARROW_EVENT.search(text, 0, arrow)
            or _ANY_OPENING.match(text)):  # 'Any alarm feature -> expedited colonoscopy'
        return mentions
    def where(m: Mention) -> int:  # an elided drug sits where its verb is
        return m.start if m.text or m.action is None else m.action.start
    return [dataclasses.replace(m, statuses=m.statuses | {CONDITIONAL}) if where(m) > arrow
            or m.group == "finding" and _EVENT_TRIGGER.search(text, 0, arrow) and m.start < arrow
            else m for m in mentions]  # '2nd recurrence -> FMT referral': a recurrence to come


_AGE_BEFORE = re.compile(r"\bage\s*$", re.IGNORECASE)
# 'Any bleeding -> ...', 'Any of these -> ED': whatever may come, a trigger by its quantifier.
_ANY_OPENING = re.compile(r"[\W\d]*(?:any|should\s+(?:there|she|he|they)\b)\b", re.IGNORECASE)
# A step written with the one condition it waits for: 'Endometrial biopsy -> only if TVUS shows
# endometrium >4 mm', 'MRI: only if symptoms progress'.
_ONLY_IF_AFTER = re.compile(r"(?:[^;>:]{0,40}?(?:->|:)\s*|[^;>:,.()]{0,25}?\s)"
                            r"only\s+(?:if|when|once|"
                            r"after|should|on|at\s*(?:>=|≥|>|<|age)|in\s+(?:patients|those|people|"
                            r"adults|cases))", re.IGNORECASE)
# An event that has not happened yet, before an arrow to what to do then.
_EVENT_TRIGGER = re.compile(r"\b(?:if|when|recurrences?|relapses?|recurs?)\b", re.IGNORECASE)


def _with_pronoun_objects(doc: Any, concepts: list[Any], verbs: list[tuple[Any, str, str]],
                          line_starts: list[tuple[int, Line]]) -> list[Any]:
    """'... acamprosate 333 mg TID is right; I would hold off starting it until ...': the
    pronoun object of a plan verb stands for the last drug named earlier in the same line."""
    from spacy.tokens import Span

    def line_of(char: int) -> Line:
        return next(line for start, line in reversed(line_starts) if start <= char)

    added = []
    stopped: dict[int, str] = {}  # line -> the drug a pronoun after a stop verb stood for
    for verb, kind, side in sorted(verbs, key=lambda v: v[0].start):
        pronoun = _passive_subject(doc, verb) if side in ("after", "both") else None
        if pronoun is None and (verb.end >= len(doc) or doc[verb.end].lower_ not in (
                "it", "them") or verb.text.lower().startswith("repeat")):
            continue  # 'do not repeat it' is about a second dose, not the drug
        at = verb.end if pronoun is None else pronoun  # '..., so it is avoided'
        line = line_of(verb.start_char)
        earlier = [s for s in concepts if s.end <= at and line_of(s.start_char) is line]
        drugs = _outside_reasons(doc, at, [s for s in earlier if _span_group(s) == "drug"])
        if kind != "resume":
            drugs = _not_anchors(doc, drugs)
        held = [d for d in drugs if kind == "resume" and (any(
            k == "stop" and v.end <= d.start and d.start - v.end <= 3 and not any(
                v.end <= w.start < d.start for w, _, _ in verbs) for v, k, _ in verbs) or (
            d.start and doc[d.start - 1].lower_ == "last" and d.end < len(doc)
            and doc[d.end].lower_ == "dose"))]  # 'last Pradaxa dose 5 days before surgery'
        if held:  # 'hold the diphenhydramine until ...; he may resume it': the held drug
            drugs = held
        if not earlier and (asked := _asked_before(line, line_starts)) is not None:
            earlier = [s for s in concepts if line_of(s.start_char) is asked]
            drugs = [s for s in earlier if _span_group(s) == "drug"]
        if kind == "resume" and not held and id(line) in stopped:
            # 'he stops it 4 days before, no bridging with Lovenox, and he restarts it ...'
            ids = stopped[id(line)]
        elif not held and pronoun is None and (subject := _it_subject(doc, at, drugs)):
            ids = ",".join(sorted(_span_concepts(subject)))
        elif pronoun is not None and [_span_group(s) for s in earlier
                                      if _span_group(s) != "finding"][-1:] != ["drug"]:
            continue  # 'No bone marrow now; if ..., it would be considered': the test
        elif drugs and (held or pronoun is not None or _span_group(earlier[-1]) != "finding"
                        or _HARM_NAMED.search(earlier[-1].text)):
            # not 'recurrence ... postpone it'; '... IV now, which avoids GI side effects -
            # reasonable if she prefers it': a drug's harm is never what is preferred or planned
            ids = ",".join(sorted(_span_concepts(drugs[-1])))
        elif earlier and (inside := _drug_inside(earlier[-1].text)):
            ids = ",".join(sorted(inside))  # 'lisinopril was not the cause; restart it'
        else:
            continue
        if kind == "stop":
            stopped[id(line)] = ids
        added.append(Span(doc, at, at + 1, label=f"REF|drug|{ids}"))
    for match in _ANOTHER_ONE.finditer(doc.text):  # 'he'll need the second one in 2028'
        which = 1 if match.group(1) else 2
        one = doc.char_span(match.start(which), match.end(which))
        if one is None:
            continue
        line = line_of(one.start_char)
        tests = [s for s in concepts if s.end <= one.start and _span_group(s) == "test"
                 and line_of(s.start_char) is line]
        if tests:
            ids = ",".join(sorted(_span_concepts(tests[-1])))
            added.append(Span(doc, one.start, one.end, label=f"REF|test|{ids}"))
    return sorted(concepts + added, key=lambda s: s.start)


# 'skip/omit X' for a span of time ('from tonight', 'until ...', 'for 5 days') holds X.
_SKIP = re.compile(r"skip(?:s|ping)?|omit(?:s|ting)?", re.IGNORECASE)
_HOLD_SPAN = re.compile(r"\s*(?:\([^()]*\)\s*)?,?\s*(?:starting|from|until|till|through|thru|"
                        r"during|while|for\s+(?:the\s+)?(?:next\s+)?(?:\d+|one|two|three|four|"
                        r"five|six|seven|ten|fourteen)\b)", re.IGNORECASE)
_TIMED_BY_LAST_DOSE = re.compile(r"\b(?:after|since|following|from|until|before)\s+(?:(?:the|his|"
                                 r"her|their)\s+)?(?:last|final|first|1st|next)\s+$",
                                 re.IGNORECASE)  # 'off before 1st Paxlovid dose'
_HARM_NAMED = re.compile(r"\b(?:side[\s-]effects?|adverse\s+(?:effects?|events?|reactions?)|"
                         r"intolerance|toxicity)$", re.IGNORECASE)


def _not_anchors(doc: Any, drugs: list[Any]) -> list[Any]:
    """'simvastatin is contraindicated with ritonavir ... more than 12 hours before the first
    Paxlovid dose, so he should stop it from tonight': a drug named as what another one clashes
    with, or as the time a step is set by, is not what the pronoun of a plan verb stands for."""
    kept = [d for d in drugs if not (
        _CLASHES_WITH.search(doc.text, 0, d.start_char)
        or _DOSE_ANCHOR.search(doc.text, 0, d.start_char)
        and d.end < len(doc) and doc[d.end].lower_ in ("dose", "doses", "tablet", "course"))]
    return kept or drugs


_CLASHES_WITH = re.compile(r"\b(?:contraindicated|interacts?|interaction|combined|co-?administered)"
                           r"\s+with\s+$|\b(?:CI|ci)\s+w/\s*$", re.IGNORECASE)
_DOSE_ANCHOR = re.compile(r"\b(?:before|after|until|since|from)\s+(?:the|his|her|their)\s+"
                          r"(?:first|last|final|next)\s+$", re.IGNORECASE)


def _outside_reasons(doc: Any, at: int, drugs: list[Any]) -> list[Any]:
    """'... - continue; alternatively, since she would like to come off it and methotrexate is
    being restarted, she may simply stop it now': a drug named in a reason clause closed by a
    comma before the pronoun is the reason, not what the pronoun stands for."""
    sentence = doc[at].sent
    for i in range(at - 1, sentence.start - 1, -1):
        if doc[i].lower_ in ("since", "because"):
            close = next((j for j in range(i + 1, at) if doc[j].text == ","), None)
            kept = [d for d in drugs if close is None or not i < d.start < close]
            return kept or drugs
    return drugs


def _it_subject(doc: Any, at: int, drugs: list[Any]) -> Any | None:
    """'Oxybutynin must be stopped. It is a potent anticholinergic that would blunt donepezil.
    Stop it now': after a sentence whose subject is 'It', 'it' goes on about what that 'It'
    stood for (the drug named before it), not the drug named inside that sentence."""
    sentence = doc[at].sent
    if sentence.start == 0:
        return None
    before = doc[sentence.start - 1].sent
    if before[0].lower_ != "it" or _EXPLETIVE_IT.match(before.text):
        return None
    outside = [d for d in drugs if d.end <= before.start]
    return outside[-1] if outside and any(d.start >= before.start for d in drugs) else None


# 'It is important to start donepezil', 'It is clear that ...': an 'It' that stands for nothing
_EXPLETIVE_IT = re.compile(r"it(?:'s|\s+is|\s+would\s+be|\s+may\s+be|\s+might\s+be|\s+seems|"
                           r"\s+was)\s+(?:[\w-]+\s+){0,2}(?:to|that|whether|if)\b", re.IGNORECASE)


_AUXILIARIES = frozenset({"is", "'s", "are", "should", "must", "will", "would", "be", "best",
                         "therefore", "also", "then"})  # not 'it was begun': a story


def _passive_subject(doc: Any, verb: Any) -> int | None:
    """The pronoun a verb that follows its object is said of ('so it is avoided in her
    asthma', 'they are best avoided'): the token index of 'it'/'they', or None."""
    at = verb.start - 1
    while at >= 0 and verb.start - at <= 4 and doc[at].lower_ in _AUXILIARIES:
        at -= 1
    if at < 0 or doc[at].lower_ not in ("it", "they") or at == verb.start - 1 and (
            verb[0].lower_ not in ("can", "may", "could", "might")):
        return None  # 'it can be resumed': the phrase's own 'can' stands between
    return at


def _asked_before(line: Line, line_starts: list[tuple[int, Line]]) -> Line | None:
    """The question a line answers: 'Should I continue or increase the oxybutynin?' over
    'Neither - please stop it.' (the line just before it, when it asks)."""
    order = list(dict.fromkeys(id(li) for _, li in line_starts))
    by_id = {id(li): li for _, li in line_starts}
    at = order.index(id(line))
    previous = by_id[order[at - 1]] if at else None
    return previous if previous is not None and previous.text.rstrip(" *_:").endswith(
        "?") else None


# A repeat of the test just named: 'a CT now and the second one at 18-24 months'.
_ANOTHER_ONE = re.compile(r"\b(?:the|a)\s+(?:second|next|third|repeat|follow-up)\s+(one)\b|"
                          r"\banother\s+(one)\b", re.IGNORECASE)


def _drug_inside(finding: str) -> frozenset[str]:
    """The drug a finding opens with ('lisinopril was not the cause'), or nothing; not a
    drug inside a rule ('double the hydrocortisone for a fever')."""
    words = finding.split()
    for n in (2, 1):
        term = " ".join(words[:n])
        if len(words) > n and (named := lexicon.term_concepts(term)) and _group(term) == "drug":
            return named
    return frozenset()


def _span_concepts(span: Any) -> frozenset[str]:
    """The concepts a span names: its words in the lexicon, or the referent of a pronoun."""
    if span.label_.startswith("REF|"):
        return frozenset(span.label_.split("|")[2].split(","))
    return lexicon.concepts_of(span.text)


def _span_group(span: Any) -> str:
    if span.label_.startswith("REF|"):
        return span.label_.split("|")[1]
    return _group(span.text)


def _group(term: str) -> str:
    """'drug' (drugs and classes), 'test' or 'finding': a dose or a value is written after its
    concept, up to the next concept of the same group ('LT4 (high) 75 -> 100 mcg')."""
    kinds = {lexicon.concepts()[c].kind for c in lexicon.concepts_of(term)}
    if kinds & {"drug", "class"}:
        return "drug"
    return "test" if "test" in kinds else "finding"


_TO_ALLERGY_LIST = re.compile(r"\s+(?:\([^()]*\)\s*)?(?:to|on)\s+"
                              r"(?:her|his|their|the|the patient's)\s+"
                              r"(?:(?:drug|medication)\s+)?(?:allerg|intoleran)", re.IGNORECASE)


# An action named as an item of a list of what to avoid ('Avoid: escalating/doubling X',
# 'Please avoid: biopsy, MRCP, or referral for cholecystectomy'): the avoided item itself. The
# action is a gerund or a noun ('doubling', 'referral for'), not a verb of its own sentence.
_NOMINAL_ACTION = re.compile(r"(?:\w+ing|referrals?(?:\s+(?:to|for))?|escalation|"
                             r"(?:re)?introduction|initiation|addition|increase|use)$",
                             re.IGNORECASE)
_LIST_SO_FAR = r"(?:[^.;:()]{0,60}?(?:,|/|\bor\b|\band\b)\s*)*(?:empiric(?:al)?\s+)?"
_AVOIDED_ITEM = re.compile(LIST_MARK.pattern + _LIST_SO_FAR + "$", re.IGNORECASE)
_AVOID_LIST_LEAD = re.compile(LIST_MARK.pattern + r"(?:please\s+)?(?:avoid|do\s+not\s+(?:do|give|"
                              r"use|order))\s*:\s*" + _LIST_SO_FAR + "$", re.IGNORECASE)


# A participle used as an adjective of an imaging phase: '15-min delayed', 'delayed phase'.
_TIMED_PHASE = re.compile(r"\d+\s*-?\s*(?:min|mins|minutes?|h|hrs?|hours?)\s*-?\s*$",
                         re.IGNORECASE)
_PHASE_AFTER = re.compile(r"\s*-?\s*(?:phases?|images?|imaging|series|washout|enhancement|"
                          r"acquisitions?|views?)\b", re.IGNORECASE)


def _avoided_item(text: str, action: Action, section: str) -> bool:
    if not _NOMINAL_ACTION.fullmatch(action.text):
        return False
    before = text[:action.start]
    return bool((section == "avoid" and _AVOIDED_ITEM.fullmatch(before))
                or _AVOID_LIST_LEAD.fullmatch(before))


def _mention(text: str, offset: int, span: Any, i: int, spans: list[Any],
             verbs: list[tuple[Any, str, str]], cues: tuple[Cue, ...],
             found: tuple[Quantity, ...], next_start: int, line: Line,
             past_dated: bool, past_asides: tuple[tuple[int, int], ...] = ()) -> Mention:
    begin, end = span.start_char - offset, span.end_char - offset
    previous_end = spans[i - 1].end_char - offset if i > 0 else 0
    action, governing_verb = _attach(text, offset, span, spans, i, verbs)
    if action is None and _PROBLEM_NUMBER.fullmatch(text[:begin]) and (
            following := re.match(r"\s+(?=[A-Z])", text[end:])):
        at = end + following.end()  # '#3 Omeprazole' over 'Hold for 2 weeks before ...'
        action = next((Action(kind, v.text.lower(), at) for v, kind, side in verbs
                       if side != "after" and v.start_char - offset == at
                       and _NO_OBJECT.match(text, at + len(v.text))), None)
    if action is not None and action.kind == "switch" and action.start < begin and (
            bool(re.search(r"\b(?:to|for|with|onto|over to)\s+(?:\w+\s+){0,2}$",
                           text[action.start + len(action.text):begin], re.IGNORECASE))
    ) != action.text.startswith("substitut"):  # 'switch to X', 'replace X with Y',
        action = Action("start", action.text, action.start, action.negated)  # 'substitute Y
        # for X': the drug that comes in starts, the other goes
    if action is not None and line.section == "avoid" and action.text.endswith("ing") and (
            LIST_MARK.fullmatch(text[:action.start])):
        action = Action("avoid", action.text, action.start)  # rejected: '(1) Adding X'
    if action is not None and action.text in ("delayed", "deferred") and (
            _TIMED_PHASE.search(text, 0, action.start)
            or _PHASE_AFTER.match(text, action.start + len(action.text))):
        action = None  # '15-min delayed washout', 'delayed-phase images': a phase, no deferral
    if action is not None and not action.negated and action.kind != "avoid" and (
            _avoided_item(text, action, line.section)):
        action = Action("avoid", action.text, action.start)  # 'Avoid: spinal MRI, doubling X'
    if action is None and _span_group(span) == "drug" and _OPTION_AFTER.match(text, end) and (
            not _OBJECT_OF_PREPOSITION.search(text, 0, begin)):
        action = Action("allow", "option", end)  # 'meloxicam 7.5 mg ... with her pantoprazole
        # is a reasonable COX-2-preferential oral option'
    if action is not None and action.text.startswith("extend") and re.match(
            r"\s+(?:trial|period|wait|observation)\b", text[end:]):
        action = None  # 'no need to extend the sertraline trial': the wait, not the drug
    if action is not None and action.kind == "start" and action.text.startswith("add") and (
            _TO_ALLERGY_LIST.match(text, end)):
        action = Action("avoid", action.text, action.start, action.negated)  # 'add
        # Cortisporin to her allergy list' records an allergy: the drug is not to be given
    if action is not None and action.kind == "continue" and action.start < begin and re.match(
            r"\s+off\b", text[end:]) and action.text.startswith(("keep", "kept", "leav", "left")):
        action = Action("stop", action.text, action.start, action.negated)  # 'keep it off'
    implied = lexicon.acting_terms().get(span.text.lower())
    if implied and (action is None or action.start < begin and not (
            action.kind in ("avoid", "stop") and not action.negated
            and re.fullmatch(r"\s*(?:(?:the|a|an|any|her|his|all|further)\s+)?",
                             text[action.start + len(action.text):begin]))):
        # not 'Defer nephrology referral', whose verb is right before it
        action = Action("avoid" if line.section == "avoid" and implied == "order" else implied,
                        span.text.lower(), begin)  # 'restrict fluids to 800 mL'; 'Avoid: X;
        # repeat transvaginal ultrasound' names a test not to order
    later = tuple(Action(kind, s.text.lower(), s.start_char - offset,
                         negated=bool(_REJECTED_VERB.search(text, 0, s.start_char - offset)))
                  for s, kind, side in verbs
                  if end <= s.start_char - offset < next_start
                  and (action is None or s.start_char - offset > action.start)
                  and not _reported_past(text, s.start_char - offset, len(s.text))
                  and not _SO_THAT.search(text, end, s.start_char - offset)
                  and s.start_char - offset < _own_subject_from(text, end, next_start)
                  and not (s.text.lower() == "rx" and _RX_NOUN.fullmatch(
                      text, end, s.start_char - offset))  # 'd/c her X 20 mg Rx': the noun
                  and not (_in_aside(text, s.start_char - offset, end) and _OWN_OBJECT.match(
                      text, s.end_char - offset))  # 'without estrogen (continue topical
                  # therapy)': an aside's verb with its own object is its own step
                  and not (_MODAL_BEFORE.search(text, 0, s.start_char - offset)
                           and _HARMED_OBJECT.match(text, s.end_char - offset))
                  and (side != "after" and not _has_object(s, spans)
                       or side != "before" and _PRONOUN_BEFORE.search(
                           span.doc.text, 0, s.start_char)))
    later = _negation_down_the_list(text, later)
    cues = _filter_barriers(text, offset, cues, span, verbs, governing_verb)
    cues = tuple(c for c in cues if not (  # 'stop it from tonight, throughout the 5-day
        c.category == HISTORICAL and c.text.lower() == "throughout"  # course': how long the
        and action is not None and c.start - offset > action.start and _present(action)))  # step
    cues = tuple(c for c in cues if not (  # 'a sleep study for suspected OSA': the hedge is
        c.category == POSSIBLE and c.start >= span.end_char  # on the finding tested for
        and _FOR_THE_FINDING.search(span.doc.text, span.end_char, c.start)))
    aside = _comma_aside(span.doc, span.end)
    if aside is not None:  # 'Aspirin, held since admission, should be resumed': not the aside's
        cues = tuple(c for c in cues if not aside[0] <= c.start < aside[1])
    # 'if he cannot tolerate X, amoxicillin is an alternative': the trigger's 'cannot' stays there
    trigger = _OPENS_WITH_IF.match(text) and _CONSEQUENCE.match(text, 0, begin)
    cues = tuple(c for c in cues if not (c.category == NEGATED and (
        _negates_earlier(c, span, spans) or trigger and c.start - offset < trigger.end())))
    if action is not None and _I_HAVE.search(text, 0, action.start):
        cues = tuple(c for c in cues if not (  # 'since patches failed previously, I have
            c.category == HISTORICAL and c.start - offset < action.start))  # prescribed X'
    negation = next((c for c in cues if c.category == NEGATED), None)
    negated = negation is not None
    if action is not None and negated and action.start + offset < negation.start < (
            span.start_char) and action.kind != "avoid":
        action = None  # 'ideally stop, and especially no binges': the 'no' is the object's
    if action is not None and negated and not action.negated and not (
            action.kind == "avoid" and negation.start < span.start_char
            and (action.start >= end or action.start + offset < negation.start)):
        # 'No naltrexone (contraindicated)', 'Avoid steroids: no prednisone bursts': both avoid
        action = Action(action.kind, action.text, action.start, negated=True)
    if action is not None and action.start >= end and negation is not None and (
            negation.start < span.start_char) and action.kind == "avoid":
        negated = False  # 'No naltrexone (contraindicated ...)': both say avoid
    stop = _first_boundary(text, end, next_start)
    attached = tuple(q for q in found if end <= q.start < stop or q.start < begin and q.end > end
                     ) or tuple(q for q in found if previous_end <= q.start and q.end <= begin
                                and begin - q.end <= 3)  # '2 acamprosate tablets (333 mg each)'
    concept_ids = _concept_family(span)
    attached = tuple(q for q in attached if lexicon.unit_fits(q.unit, concept_ids))
    status = _status_of(cues, line, action, text, later, _span_group(span) == "finding")
    if FAMILY in status and action is not None and _span_group(span) != "finding" and all(
            c.start > action.start + offset for c in cues if c.category == FAMILY):
        status = status - {FAMILY}  # 'ultrasound ordered to reassure her mother': her own test
    trailing_if = _TRAILING_IF.match(text, end)
    if (action is None or action.start < begin or action.kind in ("allow", "endorse")) and (
            trailing_if) and not _NOT_THE_MENTIONS_IF.search(trailing_if.group(0)) and not (
            _if_has_own_consequence(text, trailing_if.end(),
                                    (v.start_char - offset for v, _, _ in verbs))):
        # not '19 mL/min, 17 if you use ideal body weight' (the second value's 'if'), nor
        # 'X, and if there is no response, Y' (the next clause's)
        # 'hold metformin if vomiting', 'CT if no response', 'aspirin would be reasonable if
        # he develops CAD'; not 'Stop X - taper if symptoms'
        status = status | {CONDITIONAL}
    if action is not None and action.text == "be considered" and not action.negated:
        status = status | {POSSIBLE}  # 'X could be considered later': an offer, not a plan
    if _ONLY_IF_AFTER.match(text, end):
        status = status | {CONDITIONAL}
    if any(not _in_aside(text, m.start(), end) for m in _THRESHOLD_AFTER.finditer(text, end)):
        status = status | {CONDITIONAL}  # 'repair is recommended at >= 5.5 cm': a trigger; not
        # 'thickened (reassurance only applies at 4 mm or less)', the aside's own threshold
    if action is not None and action.kind in _STARTING and not action.negated and (
            (opening := _WHEN_DONE.match(text)) and opening.end() <= action.start
            or any(c.category == TEMPORARY and c.text.lower() in _TRIGGER_WORDS
                   and c.start - offset > action.start for c in cues)):
        # 'once vitamin D is replete, start denosumab', 'resume calcium only after the
        # calcium is normal': a step that waits for its trigger
        status = status | {LATER, TEMPORARY}
    concluded = _span_group(span) == "finding" and action is None and _CONCLUDED.search(
        text, 0, begin)  # '>=15 HA d/mo x >3 mo -> CHRONIC MIGRAINE': criteria met, a diagnosis
    if (LATER in status or _CONSEQUENCE.match(text, 0, begin)) and _OPENS_WITH_IF.match(
            text) or _OPENS_WITH_THRESHOLD.match(text) and not concluded or (
            LATER in status and _IF_THEN.search(text, 0, begin)):
        status = status | {CONDITIONAL}  # 'if Hb has not normalized, then proceed to EGD',
        # '...; below 30, stop metformin', 'hold off -> if a 5th episode occurs, then refer'
    if action is not None and _PAST_FORM.search(action.text) and not (
            action.text.startswith(("i ", "we ")) or _FIRST_PERSON_BEFORE.search(
                text, 0, action.start)) and (past_dated or any(
            a <= action.start < b or 0 < a - action.start <= 60 for a, b in past_asides)
            or _PAST_NARRATIVE.match(text)
            or _TIME_BEFORE.match(text, action.start + len(action.text))):
        # 'the ED cut fludro to 0.05 mg (1/2025)', 'started 3 weeks before the episode',
        # 'ASA 81 (held since 2/25)', 'sertraline 50 mg started 12/20/25',
        # 'He was discharged on pantoprazole with aspirin held'
        status = status | {HISTORICAL}

    if action is not None and action.text.endswith("ing") and action.start <= begin and (
            _GERUND_OPENS.search(text, 0, action.start)) and _EFFECT_AFTER.match(text, end):
        status = status | {COUNTERFACTUAL}  # 'Stopping denosumab causes a rebound'
    effect = _span_group(span) == "drug" and _EFFECT_NEXT.match(text, end)
    if effect and (_EFFECT_SUBJECT.search(text, 0, begin) or not text[:begin].strip(" *") and (
            not _BARE_EFFECT.fullmatch(effect.group(0)))):  # not 'Levothyroxine increase ...'
        status = status | {COUNTERFACTUAL}  # '..., as thiazides reduce calcium excretion'
    if action is not None and action.start >= end and _PAST_FORM.search(action.text) and (
            _TEMPORAL_BEFORE.search(text, 0, begin)) and not _hold_to_come(text, begin, action):
        status = status | {HISTORICAL}  # 'sodium was normal the day sertraline started'
    if _NARRATIVE_OPENING.match(text):
        status = status | {HISTORICAL}  # 'Discharged without rate control'
    if action is not None and action.kind == "keep_dose" and not action.negated and (
            not _KEEP_VERB.match(action.text)) and _STABLE_SO_FAR.match(
                text, action.start + len(action.text)):
        status = status | {HISTORICAL}  # 'methadone 90 mg daily, unchanged for 3 years'
    if _span_group(span) == "finding" and _unlikely_by_estimate(text, begin, end):
        status = status | {POSSIBLE}  # '5. IBD (<5%).': a ranked differential's long shot
    if _span_group(span) == "finding" and _CLASS_OF_PATIENTS.search(text, 0, begin):
        status = status | {COUNTERFACTUAL}  # 'extended therapy is reserved for unprovoked VTE'
    if _PATIENTS_WHO.search(text, 0, begin):  # 'molnupiravir is reserved for patients who
        negated, action, later = False, None, ()  # can take neither Paxlovid nor remdesivir':
        status = status | {COUNTERFACTUAL}  # the class a treatment is for, not this patient
    if negation is not None and (negation.text == "never" or negation.text.lower() == "no" and (
            _EVER_AFTER.match(text, end))) and action is None and _span_group(span) == "test":
        negated, status = False, status | {HISTORICAL}  # 'never EGD': never had one
    if _OWN_STOP_AFTER.match(text, end) and _TIME_CLAUSE_BEFORE.search(text, 0, begin):
        # 'start the POP the same day the COC stops', '4 weeks after BQT ends': the drug's
        # course ending is the time of another step, no decision on the drug
        action, later, negated = None, (), False
        status = status | {ATTRIBUTE}
    if negated and action is None and _POSSESSED.match(text, end):
        negated, status = False, status | {ATTRIBUTE}  # 'no naloxone at home': what he has
    if action is not None and action.decision == "avoid" and (
            offer := _BUT_OFFERED.match(text, action.start + len(action.text))):
        # 'Lindane is not first line but can be used as a backup': the contrast offers it
        action, status = Action("allow", offer.group(1).lower(), offer.start(1)), status | {
            POSSIBLE}
    if (_ATTRIBUTE.match(text, end) or _ATTRIBUTE_BEFORE.search(text, 0, begin)) and not (
            _span_group(span) == "test" and _LEVEL.match(text, end)):
        # 'no statin intolerance', 'sulfa allergy': a finding about the drug, not a decision;
        # 'a ferritin level' is the test itself
        action, later, negated = None, (), False
        status = status | {ATTRIBUTE}
    deciding = any(a is not None and _present(a) for a in (action, *later))
    return Mention(concept_ids, span.text, begin, end, _span_group(span), status, cues, action,
                   later, attached, negated and action is None, deciding)


# A diagnosis opening its line with the writer's estimate of its probability: 'IBD (<5%)',
# 'Celiac disease (~5-10%, must exclude)', 'Lymphoma (unlikely, <2%)'.
_ESTIMATE_AFTER = re.compile(r"\s*\((?:[a-z][\w ]{0,30},\s*)?(?:[<~]|about\s+|approx\.?\s*)?\s*"
                             r"(?:\d+(?:\.\d+)?\s*%?\s*-\s*)?(\d+(?:\.\d+)?)\s*%"
                             r"(?:\s*(?:probability|likelihood|chance))?(?:,\s*[^()]{0,40})?\)",
                             re.IGNORECASE)
_LINE_OPENING = re.compile(r"[\W\d]*(?:[a-z]\.\s+)?", re.IGNORECASE)


def _unlikely_by_estimate(text: str, begin: int, end: int) -> bool:
    """Whether a diagnosis opening its clause is given a probability below one half."""
    estimate = _ESTIMATE_AFTER.match(text, end)  # not a measured share: 'Weight loss (6%)'
    return bool(estimate) and float(estimate.group(1)) < 50 and bool(
        _LINE_OPENING.fullmatch(text[:begin])) and bool(re.search(
            r"[<a-z]|\d\s*%?\s*-", estimate.group(0), re.IGNORECASE))


_OWN_STOP_AFTER = re.compile(r"\s+(?:(?:pack|course|taper|prescription|supply)\s+)?"
                             r"(stops|ends|finishes|runs out|is (?:stopped|discontinued|finished)"
                             r"|has (?:stopped|ended|finished))\b", re.IGNORECASE)
_TIME_CLAUSE_BEFORE = re.compile(r"\b(?:day|days|time|moment|week|when|once|as soon as|after|"
                                 r"until|till)\s+(?:that\s+)?(?:the|her|his|their|this)?\s*$",
                                 re.IGNORECASE)


# 'stop the 20 mg prescription so only the 10 mg taper is dispensed': what the step is for,
# not a later step on the drug.
def _own_subject_from(text: str, start: int, stop: int) -> int:
    """Where, after a mention, a clause with a noun subject and a modal begins ('..., not a
    negative PCR - a test-based strategy would just add delay'): its verbs are that subject's,
    not later steps on the mention ('Hold aspirin; it can be resumed' keeps its pronoun)."""
    for found in _MODAL_SUBJECT.finditer(text, start, stop):
        if found.group(1).lower() not in _NOT_A_NEW_SUBJECT:
            return found.start()
    return stop


_MODAL_SUBJECT = re.compile(r"\b([a-z][\w-]*)\s+(?:would|could|will|may|might|can)\s+"
                            r"(?:just\s+|only\s+|also\s+|simply\s+|then\s+)?(?=[a-z])",
                            re.IGNORECASE)
_NOT_A_NEW_SUBJECT = frozenset({
    "i", "we", "you", "it", "they", "this", "that", "these", "those", "which", "he", "she",
    "who", "and", "or", "but", "then", "so", "dose", "doses", "dosage", "regimen", "course",
    "treatment", "therapy", "medication", "medicine", "drug", "taper", "tablet", "tablets",
    "one", "not", "also", "never", "still"})
_RX_NOUN = re.compile(r"[^,;:.()]{0,25}?\s")
_SO_THAT = re.compile(r"(?<![,;])\s+so\s+(?:that\s+)?(?:only\s+)?(?:the|she|he|they|there|"
                      r"both|his|her|their|only)\b", re.IGNORECASE)  # not ', so it should be
# avoided', the step the reason leads to


# A plan verb as the subject of a sentence about its effects, not a decision: the gerund opens
# the sentence or a coordinated clause, and an effect verb follows its object.
_GERUND_OPENS = re.compile(r"(?:^|[,;:(]\s*|\b(?:and|but|because|since|as|while|so|that)\s+)"
                           r"(?:\w+ly\s+)?$", re.IGNORECASE)
_EFFECTS = ("cause", "carry", "lead", "raise", "increase", "reduce", "lower", "risk", "make",
            "put", "expose", "trigger", "precipitate", "provoke", "result", "worsen", "unmask",
            "double", "outweigh", "push", "aggravate", "decrease", "impair", "block", "correct",
            "fix", "help", "improve", "treat", "address", "explain", "change", "add", "heighten",
            "induce", "intensify", "promote", "speed", "hasten", "accelerate", "shorten")
_EFFECT_AFTER = re.compile(  # a finite verb: 'causes', 'would make' (not 'to lower', 'raised')
    rf"(?:[^,;:.()]|\([^()]{{0,80}}\)){{0,80}}?\b(?:(?:would|could|might)\s+(?:not\s+)?"
    rf"(?!be\b|have\b|need\b|also\b|then\b)[a-z]{{3,}}|"  # 'Starting X now would sterilize
    rf"(?:can|may|will|does|did)\s+(?:not\s+)?"  # the biopsy': what it would do, not a plan
    rf"(?:{'|'.join(_EFFECTS)})|(?:{'|'.join(_EFFECTS)})(?<!carry)(?:s|es)|carries)\b",
    re.IGNORECASE)
# A drug as the subject of what it does, after a reason word or a comma: '..., as thiazide
# diuretics reduce urinary calcium', '...; a thiazide will push her calcium up'.
_EFFECT_SUBJECT = re.compile(r"(?:[,;(]|\b(?:as|because|since|given that))\s*"
                             r"(?:a|an|the|any|all)?\s*$", re.IGNORECASE)
_EFFECT_NEXT = re.compile(  # 'Sulfonylureas in advanced cirrhosis cause prolonged hypoglycemia'
    rf"\s*(?:(?:in|with|during|among|for)\s+(?:[\w-]+\s+){{1,3}}|\w+\s+)?"
    rf"(?:(?:would|could|can|may|might|will|does|do)\s+(?:also\s+)?"
    rf"(?:{'|'.join(_EFFECTS)})|(?:{'|'.join(_EFFECTS)})(?<!carry)(?:s|es)?)\b(?!\s*[\d(-])",
    re.IGNORECASE)
_BARE_EFFECT = re.compile(rf"\s*(?:{'|'.join(_EFFECTS)})", re.IGNORECASE)
# 'the day sertraline started', 'since the statin was stopped': a time clause in the past.
_TEMPORAL_BEFORE = re.compile(r"\b(?:the day|the week|when|since|after|before|until|by the time)"
                              r"\s+(?:\w+\s+){0,3}$", re.IGNORECASE)
def _hold_to_come(text: str, begin: int, action: Action) -> bool:
    """'collect the stool antigen after omeprazole held x 2 wk', 'test once the PPI has been
    stopped for 2 weeks': a hold the step waits for, not a past event (not 'symptoms since
    the PPI stopped', nor 'the day sertraline started', nor 'until Loa microfilaremia is
    excluded', a finding ruled out rather than a drug held)."""
    if action.kind != "stop":
        return False
    lead = _TEMPORAL_BEFORE.search(text, 0, begin)
    if lead is None or not re.match(r"(?:after|before|until|once)\b", lead.group(0),
                                    re.IGNORECASE):
        return False
    if re.search(r"\b(?:was|were|had)\b", text[lead.start():action.start], re.IGNORECASE):
        return False
    return bool(_HOLD_LASTS.match(text, action.start + len(action.text))
                or _PRESENT_PASSIVE.search(text, 0, action.start))


_HOLD_LASTS = re.compile(r"\s*(?:x|for)\s*(?:at\s+least\s+|>=?\s*|about\s+|~\s*)?\d+"
                         r"(?:\s*-\s*\d+)?\s*(?:d|days?|wks?|weeks?)\b", re.IGNORECASE)
_PRESENT_PASSIVE = re.compile(r"\b(?:is|are|has\s+been|have\s+been)\s+$", re.IGNORECASE)
# How long a dose has stayed the same so far: 'unchanged for 3 years', 'same dose x 2 yr',
# 'unchanged since 2023' (not 'unchanged for the next 3 months', a plan).
_STABLE_SO_FAR = re.compile(r"\s*(?:(?:for\s+|x\s*|over\s+)(?:the\s+(?:past|last)\s+)?"
                            r"(?:about\s+|~\s*|over\s+|more than\s+|>\s*)?\d+(?:\.\d+)?\s*\+?\s*"
                            r"(?:mo|mos|months?|y|yrs?|years?)\b|since\s+(?:(?:19|20)\d\d|"
                            r"\d{1,2}/|[A-Z][a-z]+\s+(?:19|20)\d\d))", re.IGNORECASE)
# A subjectless narrative of a past stay ('Discharged without rate control', 'Admitted 2/25').
_NARRATIVE_OPENING = re.compile(r"\s*(?:was\s+|were\s+)?(?:discharged|admitted|readmitted|"
                                r"hospitali[sz]ed|presented|transfused)\b", re.IGNORECASE)
# A drug or finding named in the relative clause that says which patients a treatment is for.
_PATIENTS_WHO = re.compile(r"\b(?:reserved|indicated|recommended|used|suitable|appropriate|only|"
                           r"options?|alternatives?)\s+(?:for|in)\s+(?:patients|people|those|"
                           r"anyone|adults|persons)\s+who\s+[^,;:.()]{0,60}$", re.IGNORECASE)
# A finding named as the class a treatment is for ('reserved for unprovoked VTE').
_CLASS_OF_PATIENTS = re.compile(
    r"\b(?:reserved|indicated|recommended|used|suitable|appropriate|only)\s+(?:for|in)\s+"
    r"(?:\w+\s+){0,3}$|\b(?:for|in) (?:patients|people|those|cases) with\s+(?:\w+\s+){0,2}$"
    # 'well above the 0.01 level seen in FHH', 'values below 0.01 suggest FHH': a rule, not
    # this patient
    r"|\b(?:levels?|range|ratios?|values?|cut-?off|threshold)\s+(?:usually\s+|typically\s+)?"
    r"(?:seen|found|typical|expected|usual)\s+(?:in|of|for|with)\s+(?:\w+\s+){0,2}$"
    r"|^\s*(?:values?|levels?|ratios?|results?|scores?|readings?|titers?|titres?|counts?|"
    r"concentrations?)\s+(?:of\s+)?(?:below|above|"
    r"under|over|less than|greater than|<=?|>=?)\s*[\d.]+\s*(?:[a-z/%]+\s+)?(?:suggest|"
    r"indicate|point to|favou?r|support|are seen in|occur in)s?\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE)
_EVER_AFTER = re.compile(r"\s*(?:\w+\s+)?ever\b", re.IGNORECASE)


# A sentence that narrates the past from its subject on ('He was discharged on ...').
def _negation_down_the_list(text: str, later: tuple[Action, ...]) -> tuple[Action, ...]:
    """'(do not reduce, stop or switch)': a refusal reaches every verb of its list."""
    out: list[Action] = []
    for action in later:
        if out and out[-1].negated and not action.negated and _LIST_JOIN.fullmatch(
                text, out[-1].start + len(out[-1].text), action.start):
            action = dataclasses.replace(action, negated=True)
        out.append(action)
    return tuple(out)


_LIST_JOIN = re.compile(r"\s*(?:,\s*(?:or|and|nor)?|or|and|nor|/)\s*", re.IGNORECASE)


def _reported_past(text: str, start: int, length: int) -> bool:
    """'Naloxone was offered last year and declined': a passive verb dated in the past or
    turned down reports what happened; it plans nothing."""
    return bool(re.search(r"\b(?:was|were|had been)\s+$", text[:start], re.IGNORECASE)
                and _PAST_AFTER.match(text, start + length))


_PAST_AFTER = re.compile(r"\s+(?:last (?:year|month|week|visit)|(?:about\s+)?\d+\s*(?:d|days?|wk|"
                         r"wks|weeks?|mo|months?|y|yrs?|years?)\s+ago|in (?:19|20)\d\d|"
                         r"(?:and|but)\s+(?:was\s+)?(?:declined|refused))\b", re.IGNORECASE)
_PAST_NARRATIVE = re.compile(r"\s*(?:(?:he|she|they|the patient|patient|pt|mr\.?\s+\S+|"
                             r"mrs\.?\s+\S+|ms\.?\s+\S+)\s+)?(?:was|were|had|had been)\s+"
                             r"(?!to\b)", re.IGNORECASE)


def _present(action: Action) -> bool:
    """A verb in the present or imperative ('avoid', 'is not indicated', 'contraindicated'),
    not a report of the past ('stopped', 'was started'); avoiding is a standing decision
    ('nitrofurantoin: avoided because CrCl < 30')."""
    if action.kind == "avoid" and not action.negated:
        return True
    if action.kind == "keep_dose" and not _KEEP_VERB.match(action.text):
        return False  # 'same dose', 'unchanged' describe; 'keep', 'maintain' decide
    return not _PAST_FORM.search(action.text) or bool(_JUDGMENT.search(action.text))


# A verb in the past participle or past tense, irregular ones too ('held', "d/c'd").
_PAST_FORM = re.compile(r"(?:ed|en|'d)$|"
                        r"\b(?:held|kept|left|took|began|quit|cut|withdrew|gave|put)$")
_KEEP_VERB = re.compile(r"(?:keep|maintain|leave|stay|remain|hold)", re.IGNORECASE)
_I_HAVE = re.compile(r"\b(?:I|we)\s*(?:have|'ve|just)\s+(?:now\s+|already\s+|also\s+)?$",
                     re.IGNORECASE)
_FOR_THE_FINDING = re.compile(r"\b(?:for|of|to (?:evaluate|assess|exclude|rule out|look for)|"
                              r"given)\s+(?:an?\s+|the\s+)?$", re.IGNORECASE)
_STARTING = frozenset({"start", "resume", "increase", "endorse", "allow"})
_TRIGGER_WORDS = frozenset({"once", "after", "as soon as"})
# 'Once vitamin D is replete and calcium normal, start ...': a clause that opens with its trigger.
_WHEN_DONE = re.compile(r"\s*(?:once|after|as soon as)\b[^,;:]{2,80}?(?:,\s*|\s+(?=(?:we|you|he|"
                        r"she|they|i|it)\s+(?:can|could|may|might|should|will|would|then)\b))",
                        re.IGNORECASE)  # or no comma: 'Once he is paced we can uptitrate
_JUDGMENT = re.compile(r"^(?:is|are)\b|\bnot\b|^contraindicated$|^unnecessary$")


# A plan told under a history heading: what the chart already says was planned.
_PLAN_ON_FILE = re.compile(r"[^:.;]{0,40}\b(?:plan|planned)\s*:", re.IGNORECASE)


def _status_of(cues: tuple[Cue, ...], line: Line, action: Action | None,
               text: str, later: tuple[Action, ...] = (), finding: bool = False
               ) -> frozenset[str]:
    """The cues' categories; a history or medication list reports the past, except where the
    writer decides something there in the present tense ('nitrofurantoin - avoid'). A bare
    past tense ('was', 'had') dates neither today's result ('COWS today was 14 - moderate
    withdrawal') nor a diagnosis told as a story ('he had severe opioid use disorder')."""
    status = {c.category for c in cues} - {NEGATED}
    past = [c for c in cues if c.category == HISTORICAL]
    if past and all(c.text.lower() in _BARE_PAST for c in past) and (
            finding and all(c.text.lower() == "had" for c in past) or _NOW.search(text)):
        status.discard(HISTORICAL)
    if past and all(_PASSIVE_ACT.fullmatch(c.text) and _NOW_AFTER.match(
            text, c.start + len(c.text)) for c in past):
        status.discard(HISTORICAL)  # 'ferrous sulfate was discontinued today': this visit's act
    deciding = any(a is not None and _present(a) for a in (action, *later)) and not (
        action is not None and _OTHER_PARTY.search(text, 0, action.start))
    if action is not None and _LEFT_TO_PARTY.search(text, 0, action.start):
        status.add(CONDITIONAL)  # 'EP will tell her how long to hold apixaban': theirs to time
        deciding = False
    if action is not None and _PAST_TENSE_ACT.fullmatch(action.text) and _OTHER_PARTY.search(
            text, 0, action.start):  # 'His PCP sent an SPEP ...': another's act, done
        status.add(HISTORICAL)
        deciding = False
    if action is not None and (_TOLD_BY.search(text, 0, action.start)
                               or _ASKED_FOR.search(text, 0, action.start)
                               or _DONE_BY.match(text, action.start + len(action.text))):
        status.add(HISTORICAL)
        deciding = False
    if past and all(c.text.lower() == "baseline" for c in past) and (
            deciding or line.section == "plan"):
        status.discard(HISTORICAL)  # 'baseline thyroid ultrasound (ordered)': a new test
    if line.section in PAST_SECTIONS and _PLAN_ON_FILE.match(text):
        deciding = False  # '[x] Transplant plan: LDKT, basiliximab induction' in a chart review
    if line.section in PAST_SECTIONS and not deciding:
        status.add(HISTORICAL)
    if line.section == "options" and not deciding:
        status.add(ALTERNATIVE)  # weighed under 'Treatment options', not yet chosen
    if line.kind == "row" and line.dated_row_is_latest is False:
        status.add(HISTORICAL)
    if line.later_step:
        status.add(LATER)
    return frozenset(status)


# 'so I ordered a chest CT for February': the writer's own act, however the clause is dated.
_FIRST_PERSON_BEFORE = re.compile(r"\b(?:I|we)\s+(?:have\s+)?(?:\w+ly\s+)?$")
# 'Urology plans ciprofloxacin before cystoscopy' (in the history): another team's decision.
_PARTY = (
    r"(?:urology|cardiology|nephrology|oncology|gastroenterology|hepatology|dermatology|"
    r"neurology|psychiatry|pulmonology|rheumatology|endocrinology|surgery|radiology|pharmacy|"
    r"the radiologist|the pharmacist|the ED|the ER|ED|ER|"
    r"EP|electrophysiology|anesthesia|addiction medicine|infectious diseases?|ID(?: consult)?|"
    r"(?:the )?(?:admitting|primary|inpatient) team|"
    r"the hospital(?:ist)?|(?:his|her|the) (?:urologist|cardiologist|nephrologist|oncologist|"
    r"surgeon|gastroenterologist|hepatologist|neurologist|psychiatrist|dermatologist|team|PCP|"
    r"GP)|PCP|GP|the referring (?:clinician|physician|provider|doctor))")
_LEFT_TO_PARTY = re.compile(
    rf"\b{_PARTY}\s+(?:will|would|can|to|should|may)\s+(?:advise|decide|guide|direct|determine|"
    r"tell\s+(?:her|him|them|the patient)|instruct\s+(?:her|him|them|the patient))\s+"
    r"(?:on|about|regarding|how long to|when to|whether to|if)\s+$", re.IGNORECASE)
_PAST_TENSE_ACT = re.compile(r"\w+ed|sent|drew|did|got|gave|ran|put|took|began|wrote|sent off",
                        re.IGNORECASE)
_OTHER_PARTY = re.compile(rf"\b{_PARTY}\s+(?:\w+\s+)?$|\b{_PARTY}\s+(?:will|would|can|to|should)\s+"
                          r"(?:advise|decide|guide|direct)\s+(?:on|about|regarding)\s+$",
                          re.IGNORECASE)  # 'EP will advise on holding apixaban
# 'The ED told him to keep taking metformin', 'metformin was continued by the ED': another
# party's instruction, retold.
_TOLD_BY = re.compile(rf"\b{_PARTY}\s+(?:had\s+|has\s+)?(?:told|instructed|advised|asked|"
                      r"directed)\s+(?:him|her|them|the patient)\s+to\s+$", re.IGNORECASE)
_DONE_BY = re.compile(rf"\s+by\s+(?:{_PARTY}|(?:an?\s+|the\s+)?(?:urgent care|outside \w+|"
                      r"another (?:clinician|provider|physician)))\b"
                      # 'a new prescription for meloxicam from urgent care'
                      r"|(?:\s+[\w-]+){1,6}?\s+by\s+(?:an?\s+|the\s+)?(?:locum|GP|urgent care)\b"
                      r"|(?:\s+[\w-]+){1,3}?\s+from\s+(?:an?\s+|the\s+)?(?:urgent care|"
                      r"walk-in|outside \w+|another (?:clinician|provider|physician)|the ED|the ER|"
                      r"ED|ER)\b", re.IGNORECASE)
# 'She asked for a repeat colonoscopy because ...': the patient's request, not the plan.
_ASKED_FOR = re.compile(r"\b(?:she|he|they|the patient|patient|pt)\s+(?:has\s+|had\s+)?"
                        r"(?:asked|asks|"
                        r"requested|requests|inquired|enquired|wanted|wants|was hoping|is hoping)"
                        r"\s+(?:for|about|whether|if)?\s*(?:an?|the)?\s*$", re.IGNORECASE)
_BARE_PAST = frozenset({"was", "were", "had", "had been"})
_NOW = re.compile(r"\b(?:today|this morning|this afternoon|currently|at present|at this visit|"
                  r"right now)\b", re.IGNORECASE)
_NOW_AFTER = re.compile(r"(?:(?!\b(?:last|ago|previously|prior|by)\b)[^.;,]){0,50}?"
                        r"\b(?:today|this morning|this afternoon|at this visit|"
                        r"at today's visit)\b", re.IGNORECASE)
_PASSIVE_ACT = re.compile(r"(?:was|were)\s+(?:started|stopped|discontinued|increased|decreased|"
                          r"reduced|switched|changed|held)", re.IGNORECASE)


def _passive_then_comma(verb: Any, span: Any) -> bool:
    """'Changing the drug is preferred, and cabergoline can worsen psychosis': a passive verb
    has its subject before it; what follows its comma is not its object."""
    gap = span.doc[verb.end:span.start].text
    copula = verb[-1].lower_ in _COPULAS or verb.start > 0 and (
        verb.doc[verb.start - 1].lower_ in _COPULAS)
    return bool(copula and _PREDICATE_THEN_CLAUSE.match(gap) or _CLAUSE_ENDS.search(gap))


# 'cannot be prescribed - sildenafil and every other PDE5 inhibitor are ...': a dash too.
_PREDICATE_THEN_CLAUSE = re.compile(r"\s*(?:[a-z]+\s*)?(?:,\s*(?:and|but|while|whereas)\b|"
                                    r"\s*[-\u2013\u2014]\s*$)", re.IGNORECASE)
_CLAUSE_ENDS = re.compile(r"\b(?:is|are|was|were)\s+(?:\w+\s+)?\w+\s*,\s*(?:and|but|while|"
                          r"whereas)\b", re.IGNORECASE)  # 'Changing the drug is preferred, and'



_COPULAS = frozenset({"is", "are", "was", "were", "be", "been"})


def _attach(text: str, offset: int, span: Any, spans: list[Any], i: int,
            verbs: list[tuple[Any, str, str]]) -> tuple[Action | None, Any]:
    """The plan verb governing a concept: the nearest 'before' verb preceding it in the
    clause, unless an 'after' form follows it directly ('metformin continued', 'X: stop')."""
    before = [(s, kind) for s, kind, side in verbs
              if side != "after" and s.end <= span.start
              and not _boundary_between(span.doc[s.end:span.start])
              and not _condition_closed_between(span.doc, s, span)
              and not _closes_aside(span.doc[s.end:span.start].text)
              and not _NEW_NEGATION.search(span.doc[s.end:span.start].text)
              and not _passive_then_comma(s, span)
              and not _COMPANION_BEFORE.search(span.doc.text, s.end_char, span.start_char)
              and _governs(s, span, spans)]
    after = None
    last = _list_end(spans, i)  # 'IgE and skin testing, including food panels, are not ...'
    aside_end = _aside_after(span.doc, spans[last].end)
    following = [s for s in spans[last + 1:] if s.start >= aside_end]  # not '(EGD + colonoscopy)'
    next_span_start = following[0].start if following else None
    for s, kind, side in verbs:
        if s.start < spans[last].end:
            if s.start < span.end or last == i:
                continue
            break
        if next_span_start is not None and s.start >= next_span_start and not (
                side != "before" and _ALL_BEFORE.search(span.doc.text, 0, s.start_char)):
            break
        if last != i and side == "before":
            break
        if _opens_aside(span.doc[spans[last].end:s.start].text, span.doc[s.end:].text):
            continue  # 'omalizumab 300 mg (next step; not started today)': the aside's own verb
        if _in_comma_aside(span.doc, spans[last].end, s):
            continue  # 'Aspirin, held since admission, should be resumed now'
        gap = _outside_parentheses(span.doc[spans[last].end:s.start])
        if _THEN_GAP.search("".join(t.text_with_ws for t in gap)):
            break  # 'Oral prednisone: 40 mg daily for 5 days, then stop': a later step
        if (side != "before" or _colon_between(gap) and not _other_object(s, span, spans)
                or _VERB_ENDS.match(span.doc.text, s.end_char) and any(  # 'Metformin -> stop.'
                    _in_arrow(t) for t in gap)) and (
                _only_dose_words(gap, 20 if kind in ("allow", "endorse") else 14,
                                 kind in ("allow", "endorse"))  # 'X 0.5 mg
                # prn, no more than bid, for a maximum of 2 weeks is reasonable'
                or _INTERJECTION.match("".join(t.text_with_ws for t in gap))
                or side != "before" and 0 < len(gap) <= 3
                and all(t.lower_ in _COPULA_GAP for t in gap)
                or side != "before" and _SUBJECT_MODIFIER.fullmatch(
                    "".join(t.text_with_ws for t in gap).strip())
                or _ALL_BEFORE.search(span.doc.text, 0, s.start_char)):
            after = (s, kind)
        break
    own = _own_verb(span, spans, verbs, i)
    if own is not None:
        s, kind = own
        return Action(kind, s.text.lower(), s.start_char - offset), s
    if after is not None and before and _START_TIME.fullmatch(after[0].text):
        after = None  # 'hold simvastatin starting tonight': the time the verb before acts
    if after is not None and (not before or _adjacent(span, after[0]) and not (
            after[1] == "allow" and before[-1][0].end <= span.start) and not (
            span.start - before[-1][0].end <= 1
            and _colon_between(span.doc[span.end:after[0].start]))):
        # 'Stopping atorvastatin is a reasonable option': the verb before says what is allowed;
        # in 'Stop sertraline - taper over 1-2 weeks' the verb before decides
        action = _after_action(span, after, offset)
        return action, (after[0] if action is not None else None)
    if before:
        s, kind = before[-1]
        negated = bool(_NOT_JUST_BEFORE.search(span.doc.text, 0, s.start_char)
                       or _in_negated_verb_list(span.doc.text, s.start_char)
                       or _NEGATED_PURPOSE.search(span.doc.text, 0, s.start_char))
        if len(before) > 1 and kind in ("order", "start", "endorse", "resume", "increase",
                                          "switch") and (
                before[-2][1] in ("avoid", "stop", "continue", "decrease")
                and s.start - before[-2][0].end <= 1):
            s, kind = before[-2]  # 'avoid repeat prednisone courses', 'stop taking X'
        if kind == "allow" and negated:  # 'would not ... purely to permit sildenafil'
            return Action("avoid", s.text.lower(), s.start_char - offset), s
        return Action(kind, s.text.lower(), s.start_char - offset, negated=negated), s
    if after is not None:
        action = _after_action(span, after, offset)
        return action, (after[0] if action is not None else None)
    return None, None


_THEN_GAP = re.compile(r"\b(?:then|thereafter)\W*$", re.IGNORECASE)
# 'X starting tonight' starts X, but after another verb ('hold X starting tonight') it times it.
_START_TIME = re.compile(r"starting\s+(?:now|today|tonight|tomorrow)", re.IGNORECASE)
# 'reduce X to 10 mg daily starting today alongside the bupropion': the drug it goes with,
# not the verb's object.
_COMPANION_BEFORE = re.compile(r"\b(?:alongside|along\s+with|together\s+with)\s+"
                               r"(?:the|her|his|their)\s+(?:new\s+)?$", re.IGNORECASE)  # not
# 'prescribed X ... together with ezetimibe 10 mg', a second drug prescribed
_ADMINISTRATION = re.compile(
    r"\s+(?:with|within|at the same time|together|alongside|simultaneously|on an empty|"
    r"before|after|near|close to|crushed|chewed)\b", re.IGNORECASE)
# 'naltrexone is therefore contraindicated': words between a drug and its predicate.
_COPULA_GAP = frozenset({"is", "are", "was", "has", "have", "had", "been", "be", "being", "will",
                         "to", "needs", "need",  # 'simvastatin has to be held'
                         "remains", "remain", "stays", "seems",
                         "therefore", "thus", "also", "clearly", "now",
                         "still", "currently", "absolutely", "relatively", "generally", "so",
                         "definitely", "strictly", "both", "all",
                         # 'Apixaban permanently discontinued': how, not what
                         "permanently", "temporarily", "immediately", "indefinitely"})
# 'Skin-prick testing to common foods is reasonable': a short phrase that narrows the subject.
_SUBJECT_MODIFIER = re.compile(r"(?:to|for|of|against|in|on|from)\s+[A-Za-z-]+(?:\s+[A-Za-z-]+)"
                               r"{0,2}", re.IGNORECASE)
_MODALS = frozenset({"can", "could", "may", "might", "should", "will", "would", "must", "to",
                     "be", "is", "are", "then", "also", "still", "now"})


def _own_verb(span: Any, spans: list[Any], verbs: list[tuple[Any, str, str]],
              i: int) -> tuple[Any, str] | None:
    """A verb the concept is the subject of ('dapagliflozin can continue'), when a verb before
    it governs another concept ('stop metformin (dapagliflozin can continue)')."""
    previous = spans[i - 1] if i else None
    if previous is None:
        return None
    for s, kind, side in verbs:
        if s.start >= span.end:
            gap = [t.lower_ for t in span.doc[span.end:s.start]]
            if gap and all(w in _MODALS for w in gap) and side != "after" and any(
                    v.end <= previous.start for v, _, _ in verbs):
                return s, kind
            return None
    return None


def _after_action(span: Any, after: tuple[Any, str], offset: int) -> Action | None:
    """A verb written after its concept, negated when a 'not' sits between them
    ('an SGLT2 inhibitor is not used')."""
    verb, kind = after
    if _ADVISED_TO.match(span.doc.text, verb.end_char) and verb.text.lower() in _ADVICE:
        return None  # 'spironolactone boxes - advised to return to pharmacy': the advice is
        # the infinitive's
    if kind == "endorse" and (refused := _ADVISED_NO.match(span.doc.text, verb.end_char)):
        return Action("avoid", f"{verb.text} {refused.group(1)}".lower(), verb.start_char - offset)
    gap = {t.lower_ for t in span.doc[span.end:verb.start]}
    negated = bool(gap & {"not", "n't", "never"})
    if negated and _ADMINISTRATION.match(span.doc.text, verb.end_char):
        return None  # 'tetracycline should not be taken with dairy': how, not whether
    return Action(kind, verb.text.lower(), verb.start_char - offset, negated=negated)


_QUESTION_MARK_END = re.compile(r"\?[\s'\"\u2019\u201d)*_]*$")


# 'Pt asked about Voltaren gel - advised no', '... - recommended against': the advice refuses.
_ADVISED_NO = re.compile(r"\s+(no|not|against(?:\s+it)?)\s*(?:[.;,)]|$)", re.IGNORECASE)
_ADVICE = frozenset({"advised", "told", "asked", "instructed", "reminded"})
_ADVISED_TO = re.compile(r"\s+to\s+(?:return|bring|dispose|discard|throw|call|contact|book|"
                         r"see|attend|come|go|report|tell|inform|keep|store|get rid)\b",
                         re.IGNORECASE)


_DOSE_WORD = re.compile(
    r"^(?:[\d.,/%-]+|mg|mcg|g|iu|units?|ml|milligrams?|micrograms?|grams?|tabs?|tablets?|caps?|"
    r"capsules?|po|sl|sc|sq|subq|iv|"
    r"im|daily|bid|tid|qid|qd|qhs|qam|qpm|bd|tds|qds|od|mane|nocte|am|pm|weekly|monthly|once|twice|a|day|week|month|x|by|mouth|"
    r"oral|orally|every|q\d*\w*|h|hours?|weeks?|months?|days?|wk|wks|mo|w|d|at|night|nightly|bedtime|"
    r"morning|evening|er|xr|sr|dr|la|ir|film|films|spray|nasal|sublingual|subcutaneous|"
    r"subcutaneously|intravenous|intravenously|with|food|tablet|dose|doses|hs|prn|the|new|"
    r"[:\-–—,()\[\]]|is|are|was|be|been|being|to|for|now|today|:|and|of|in|may|can|could|"
    r"should|will|would|might|must|also|then|once|twice|not|do|reason|all|both|are|were|drugs?|"
    r"medications?|meds?|agents?|therapy|treatment|regimen|course|prescription|injections?|"
    r"infusions?|shots?|yearly|annually|annual|quarterly|prophylaxis|prophylactic|ppx|"
    r"more|than|max|maximum|most|up|sparingly|short|brief|bridge|bridging|"
    r"gel|cream|ointment|patch|patches|topical|topically|affected|knees?|joints?|hands?|skin|"
    r"areas?|site|sites)$",
    # 'no more than
    re.IGNORECASE)


_BOUNDARY = frozenset({"then", "but", "however", "because", "since", "whereas", "while",
                       "although", "though", "unless", "if", "until", "once", "when", "after",
                       "before", "so", "therefore", "thus", "given", "which", "otherwise",
                       "instead", "alternatively"})


# 'once daily for 2 months' goes on to the course ('rifampin 600 mg once daily for 2 months');
# after 'once daily (stop the 75 mcg)' or 'once daily -> 300 mg' comes another step.
# '200 mcg/kg, which for 70 kg is 15 mg' ('which at 68 kilograms is ...') works the dose out;
# it opens no new clause.
# '1350 mg, given as two doses' says how the dose is given; 'given his CKD' opens a reason.
_BOUNDARY_WORD = re.compile(r"\b(?:" + "|".join(sorted(_BOUNDARY - {"once", "which", "given"}))
                            + r"|given(?!\s+(?:as|at|in|by|with|orally|once|twice|daily|weekly|"
                            r"every|over|IV|PO|\d)\b)"
                            r"|once(?!\s+(?:"
                            r"daily|a day|per day|weekly|a week|per week)\s+(?:for|x)\s*\d)"
                            r"|which(?!\s+(?:(?:for|at)\s+(?:a\s+|his\s+|her\s+)?[\d.]+\s*(?:kg|kilograms?)\s+)?"
                            r"(?:is|comes\s+to|"
                            r"works\s+out\s+(?:to|at)|equals|gives)\s+(?:about\s+|approximately\s+|~\s*)?\d))\b",
                            re.IGNORECASE)


def _first_boundary(text: str, start: int, end: int) -> int:
    """Where the first clause-opening word after ``start`` is (or ``end``): quantities after
    it belong to a later step or a condition ('50,000 IU weekly x 8 wk, then 1,000 IU daily')."""
    match = _BOUNDARY_WORD.search(text, start, end)
    return match.start() if match else end


_JOINER = re.compile(
    r"^(?:[\s,/&+()]|and|or|nor|plus|including|incl|such|as|e\.?g\.?|i\.?e\.?|the|his|her|a|an|"
    r"any|all|either|both|also|other|every|oral|topical|iv|po|sl|sc|daily|bid|tid|qid|qd|once|twice|"
    r"weekly|monthly|mg|mcg|g|iu|units?|tablets?|capsules?|[\d.,/-]+|x|by|mouth|then|-|"
    r"for|days?|weeks?|wks?|months?|at|bedtime|nightly)+$",  # '... for 2 weeks and sertraline'
    re.IGNORECASE)


_HOW_TAKEN = re.compile(r",\s*(?:to\s+be\s+)?(?:taken|given|swallowed|dosed|used|applied|ideally|"
                        r"preferably)\b[^,;()]{0,80}(?=,)", re.IGNORECASE)


@functools.lru_cache(maxsize=512)
def _how_taken(text: str) -> tuple[tuple[int, int], ...]:
    """Where the text says how a drug is taken, set off by commas (asked for each verb and
    concept pair of a sentence, so read once per text)."""
    return tuple((m.start(), m.end()) for m in _HOW_TAKEN.finditer(text))


def _governs(verb: Any, span: Any, spans: list[Any]) -> bool:
    """Whether a verb reaches a concept over the concepts between them: only through a list
    ('avoid NSAIDs, including ibuprofen and naproxen'), not over a phrase that makes the later
    concept the object of something else ('avoid calcium within 4 hours of levothyroxine')."""
    words, depth, starts_concept = [], 0, []
    concept_starts = {s.start for s in spans} | {span.start}
    how_taken = _how_taken(span.doc.text)
    for token in span.doc[verb.end:span.start]:  # a parenthesis is an aside: skip its words
        depth += token.text.count("(") - token.text.count(")")
        if any(a <= token.idx < b for a, b in how_taken):
            continue  # ', taken half an hour after the same meal each day,': how, not what
        if depth <= 0 and ")" not in token.text:
            words.append(token.lower_)
            starts_concept.append(token.i + 1 in concept_starts)
        depth = max(depth, 0)
    asides = [(a, b) for a, b in _asides(span.doc.text)
              if verb.end_char <= a and b < span.start_char]
    between = [s for s in spans if verb.end <= s.start and s.end <= span.start and not any(
        a < s.start_char < b for a, b in asides)]  # not '(..., famotidine is fine) and an EGD'
    if len(between) == 1 and verb.label_.startswith("switch") and _SWITCH_OBJECT.match(
            span.doc[between[0].end:span.start].text):
        return True  # 'replace ciprofloxacin with cephalexin': both are the switch's
    if len(between) == 1 and _NAMES_MEMBER.match(span.doc[between[0].end:span.start].text) and (
            _is_member(span, between[0])) and not _boundary_between(
            span.doc[verb.end:between[0].start]):
        return True  # 'start anticoagulation with apixaban': the class, then its drug
    moving = verb.label_.startswith(("switch", "refer", "start", "resume", "increase",
                                     "decrease")) or bool(
        words and _MOVING_VERB.match(words[0]))  # 'avoid switching to another SSRI'
    blocked = False
    for i, word in enumerate(words):
        if word == "to" and i + 1 < len(words) and words[i + 1] in _PURPOSE_VERBS:
            continue  # 'a TTE to assess LV function, a sleep study': a purpose, not an object
        if word in ("and", ",", "plus") and (i + 1 < len(words) and words[i + 1] in (
                "a", "an", "the", "also", "as") or starts_concept[i]) or words[i:i + 3] == [
                "as", "well", "as"]:
            blocked = False  # 'an EGD with biopsies and a colonoscopy', '... and sertraline'
        elif word == "with" and i and words[i - 1] in _COMPANION and (
                starts_concept[i] or i + 1 < len(words) and words[i + 1] in ("a", "an", "the")
        ) and verb.label_.startswith(_GIVING):
            blocked = False  # 'I have prescribed atovaquone ..., together with azithromycin':
            # a second drug given with the first (not 'avoid calcium together with X', timing)
        elif word in _PREPOSITIONS and not (
                word == "of" and (words[i - 1] if i else verb[-1].lower_) in _OF_HEADS
                or word in ("to", "from", "with", "on") and moving
                or word == "for" and verb.label_.startswith("refer")):  # 'refer for EVAR'
            blocked = True  # 'avoid calcium within 4 hours of levothyroxine'
    if blocked or _PRONOUN_OBJECT.match(" ".join(words)):
        return False  # 'avoid both of those, and denosumab ...': the verb has its own object
    if _dash_between(verb, span):
        return False
    if not between:
        return True
    gap = [t for t in _outside_parentheses(span.doc[between[-1].end:span.start])
           if not any(a <= t.idx < b for a, b in how_taken)]
    text = "".join(t.text_with_ws for t in gap)
    return not text.strip() or bool(_JOINER.match(text.strip())) or (
        len(gap) <= 6 and any(t.lower_ in ("and", "or", ",", "/", "nor", "&") for t in gap)) or (
        len(gap) <= 16 and bool(_ENDS_WITH_JOINER.search(text)))


_COMPANION = frozenset({"together", "along", "combination", "combined", "alongside"})
_GIVING = ("start", "resume", "continue", "endorse", "order")
_PRONOUN_OBJECT = re.compile(r"^(?:it|them|those|these|(?:both|all|either|each|neither) of "
                             r"(?:them|those|these))\s*(?:,|;|$)")
_SWITCH_OBJECT = re.compile(r"^\s*(?:(?:over\s+|across\s+)?to|with|by|for|onto)\b"
                            r"\s*(?:(?:an?|the)\s*)?$",
                            re.IGNORECASE)
_NAMES_MEMBER = re.compile(r"^\s*(?:with|using|via|in the form of|namely|specifically|:|-)\s*$",
                           re.IGNORECASE)


def _is_member(span: Any, class_span: Any) -> bool:
    """Whether a concept belongs to the class another span names (apixaban to anticoagulation)."""
    classes = _span_concepts(class_span)
    return any(classes & (lexicon.ancestors(c) - {c}) for c in _span_concepts(span))


_PURPOSE_VERBS = frozenset({"assess", "evaluate", "check", "look", "exclude", "rule", "screen",
                            "confirm", "measure", "guide", "monitor", "document", "establish",
                            "characterize", "define", "quantify", "identify", "estimate",
                            "detect", "stage", "clarify", "follow", "track", "see", "ensure"})
_MOVING_VERB = re.compile(r"^(?:switch|chang|convert|transition|mov|refer|resum|start|initiat|"
                          r"increas|decreas|reduc|titrat|adjust|rais|lower|"
                          r"go|escalat|step)\w*$")
# '... colonoscopy in the same session, as well as tTG-IgA': a list goes on after an aside.
_ENDS_WITH_JOINER = re.compile(r"(?:,\s*and|,\s*plus|as well as|\band also|,|(?:together|along|"
                               r"in combination|combined)\s+with)\s*(?:an?|the)?\s*$",
                               re.IGNORECASE)
_PREPOSITIONS = frozenset({"during", "with", "for", "of", "on", "in", "after", "before", "until",
                           "while", "than", "at", "by", "about", "within", "without",
                           "despite", "per", "into", "onto", "over", "under", "via", "through",
                           "since", "because", "from", "to", "against", "unlike", "besides",
                           "regarding", "concerning"})
_OF_HEADS = frozenset({"implantation", "placement", "insertion", "consideration",
                       "dose", "doses", "course", "trial", "use", "regimen", "therapy",
                       "treatment", "initiation", "dosing", "strength", "supply", "all", "any",
                       "each", "both", "one", "bottle", "bottles", "vial", "vials", "kit", "kits",
                       "packet", "packets", "sachet", "sachets", "box", "tube", "tubes", "can",
                       "cans", "bag", "bags", "unit", "units", "tablet", "tablets", "capsule",
                       "capsules", "glass", "cup"})  # 'add one 10 oz bottle of X'


def _condition_closed_between(doc: Any, verb: Any, span: Any) -> bool:
    """'if she prefers to avoid surgery, continued ultrasound surveillance ...': a verb inside
    a condition governs nothing after the comma that closes it."""
    start = doc[verb.start].sent.start_char if doc.has_annotation("SENT_START") else 0
    opened = _IF_OPENS.search(doc.text, start, verb.start_char)
    return bool(opened) and "," in doc.text[verb.end_char:span.start_char] and (
        "," not in doc.text[opened.end():verb.start_char])


_IF_OPENS = re.compile(r"\b(?:if|unless|should she|should he|in case)\b", re.IGNORECASE)


def _boundary_between(tokens: Any) -> bool:
    """Whether a word that opens another clause lies between a verb and a concept."""
    how_taken = _how_taken(tokens.doc.text) if len(tokens) else ()  # an aside: ', taken
    # after the same meal each day,'
    return any(t.lower_ in _BOUNDARY and not (  # 'once daily' is a schedule; an aside's words
        t.lower_ == "once" and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ in _SCHEDULE_WORDS)
        and not any(a <= t.idx < b for a, b in how_taken)
        for t in _outside_parentheses(tokens))  # are its own ('... (after he finishes) and X')


_SCHEDULE_WORDS = frozenset({"daily", "a", "weekly", "monthly", "nightly", "per", "every", "at",
                             "only", "yearly"})


# 'Nitrofurantoin, despite in-vitro susceptibility, should be avoided'
_INTERJECTION = re.compile(r"^\s*,[^,;:]{0,70},\s*(?:\w+\s+){0,3}$")
# '..., nitrofurantoin (...) and oral beta-lactams are all excluded'
_ALL_BEFORE = re.compile(r"\b(?:all|both|each)\s+(?:\w+\s+)?$", re.IGNORECASE)


def _opens_aside(gap: str, rest: str) -> bool:
    """Whether a verb sits in a parenthesis opened after the concept, with other words: an
    aside of its own ('(next step; not started today)', '(ongoing opioid therapy)'); a
    parenthesis that holds only the verb ('(excluded)') or opens with it ('(ordered, with a
    BMP)') speaks of the concept."""
    return _in_aside(gap, len(gap)) and (
        bool(re.search(r"\w", gap[gap.rfind("(") + 1:]))
        or not rest.lstrip().startswith((")", ",", ";")))


# ', held since admission, should be resumed': an aside between commas, then the sentence's
# main verb.
_COMMA_ASIDE = re.compile(r"\s*,\s*(?:which\s+(?:was|were|has\s+been|had\s+been)\s+)?"
                          r"(?!(?:and|or|then|but|plus|with|if|when|once|unless)\b)[a-z]+\b"
                          r"[^,;:.()]{0,40},\s*(?:\w+\s+){0,2}?(?:should|will|can|must|may|is|"
                          r"are|needs?|to)\b", re.IGNORECASE)


def _comma_aside(doc: Any, index: int) -> tuple[int, int] | None:
    """The character range of an aside set off by commas right after token index."""
    start = doc[index].idx if index < len(doc) else len(doc.text)
    match = _COMMA_ASIDE.match(doc.text, start)
    return (start, doc.text.rfind(",", 0, match.end())) if match else None


def _in_comma_aside(doc: Any, index: int, verb: Any) -> bool:
    """Whether the verb sits in an aside set off by commas right after token index."""
    aside = _comma_aside(doc, index)
    return aside is not None and aside[0] <= verb.start_char < aside[1]


def _aside_after(doc: Any, index: int) -> int:
    """The token index just past a parenthesis that opens at token index (else index):
    'Bidirectional endoscopy (EGD with duodenal biopsies + colonoscopy) - ordered'."""
    if index >= len(doc) or doc[index].text != "(":
        return index
    depth = 0
    for token in doc[index:]:
        depth += token.text.count("(") - token.text.count(")")
        if depth <= 0:
            return token.i + 1
    return index


def _outside_parentheses(tokens: Any) -> list[Any]:
    """The tokens not inside a parenthesis: 'naltrexone (PO or XR-IM) - contraindicated'."""
    kept, depth = [], 0
    for token in tokens:
        opens, closes = token.text.count("("), token.text.count(")")
        if not depth and not opens and not closes:
            kept.append(token)
        depth = max(depth + opens - closes, 0)
    return kept


def _only_dose_words(gap: Any, longest: int = 14, allowing: bool = False) -> bool:
    """Whether a gap holds only how a drug is taken; before an allowance also its form and
    purpose ('Codeine linctus at night for sleep is reasonable')."""
    return len(gap) <= longest and all(_DOSE_WORD.match(t.text) or t.is_space or (
        allowing and _USE_WORD.match(t.text)) or (
        t.lower_ == "no" and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ == "more") or (
        t.text == ">" and _in_arrow(t)) for t in gap)  # 'sildenafil -> NOT prescribed'


# A drug's form and what it is taken for, between the drug and 'is OK / is reasonable'.
_USE_WORD = re.compile(r"^(?:syrups?|linctus|elixirs?|solutions?|suspensions?|liquids?|drops|"
                       r"creams?|ointments?|gels?|lotions?|patch(?:es)?|sprays?|inhalers?|"
                       r"puffs?|sleep|cough|coughing|pain|itch|itching|symptoms?|relief|few|"
                       r"several|couple|short-term|occasional|occasionally|as|needed)$",
                       re.IGNORECASE)


def _in_arrow(token: Any) -> bool:
    """Whether the token is half of an arrow written '->' (split into '-' and '>')."""
    doc, i = token.doc, token.i
    return (token.text == "-" and i + 1 < len(doc) and doc[i + 1].text == ">") or (
        token.text == ">" and i > 0 and doc[i - 1].text == "-")



def _colon_between(gap: Any) -> bool:
    """A label's colon or dash between a concept and its verb; an arrow ('->') is a next
    step, not a label ('12.5 mg bid -> increase to 25 mg')."""
    return any(t.text in (":", "-", "–", "—", "=") and not _in_arrow(t) for t in gap)


# A verb with nothing after it but an aside or the end: 'Metformin ER -> stop (Child-Pugh C)'.
# ... and after an arrow also a later step ('-> hold x 4 days before surgery', '-> stop now').
_VERB_ENDS = re.compile(rf"[\s*]*(?:$|[(.;,-]|(?:{_NO_OBJECT_WORDS}|to|by|from|over|then|and|"
                        r"tonight)\b)", re.IGNORECASE)
# 'Stop PO iron - no further oral iron': a new negated statement after a dash.
_NEW_NEGATION = re.compile(r"\s[-:;]\s*(?:no|not|never|none|nor)\b", re.IGNORECASE)


def _closes_aside(gap: str) -> bool:
    """Whether the text after a verb closes a parenthesis it opened in: 'a TSH (never
    checked), a CBC' - the verb inside the aside governs nothing outside it."""
    return gap.find(")") >= 0 and (gap.find("(") < 0 or gap.find(")") < gap.find("("))


def _list_end(spans: list[Any], i: int) -> int:
    """The index of the last concept of the list that concept i opens or continues."""
    last, following = i, i + 1
    while following < len(spans):
        gap, depth, closes_aside = [], 0, False
        for token in spans[i].doc[spans[last].end:spans[following].start]:
            depth += token.text.count("(") - token.text.count(")")  # skip '(r/o lymphoma)'
            if depth <= 0 and ")" not in token.text:
                gap.append(token)
            closes_aside = closes_aside or depth < 0
            depth = max(depth, 0)
        if closes_aside:
            break  # '(>= 4 wk after BQT), pantoprazole off': the aside's concept is its own
        if gap and (gap[0].text[:1].isdigit() or gap[0].lower_ in ("one", "two")):
            while gap and _DOSE_TOKEN.match(gap[0].text):
                gap = gap[1:]  # 'amoxicillin 1 g twice daily with clarithromycin ...'
        words = [t.lower_ for t in gap if t.lower_ not in ("a", "an", "the")]
        if depth > 0:
            if words in ([], ["and"], ["or"], ["nor"]) and following + 1 < len(spans):
                following += 1  # 'amoxicillin (allergy) and clarithromycin': an aside's
                continue  # concept inside a list, not the end of it
            break  # 'zoledronic acid (excluded) (CrCl < 35)': the next concept is an aside's
        if not (len(gap) <= 4 and all(t.lower_ in _LIST_WORDS or t.lower_ in ("a", "an", "the")
                                      for t in gap)
                or len(gap) <= 6 and words and words[0] == "with" and words[-1] in _LIST_WORDS
                or words == ["with"]  # 'celecoxib with a PPI may be used': one subject
                or words[:1] in (["after"], ["following"]) and len(words) <= 2 and (
                    words[1:] in ([], ["stopping"], ["completing"], ["finishing"]))):
            # 'aspirin 81 mg after apixaban is reasonable': the verb is the subject's too
            break  # 'EGD with duodenal biopsies and colonoscopy' is still a list
        last = following
        following += 1
    return last


_DOSE_TOKEN = re.compile(r"(?:[\d.,/%]+|one|two|mg|mcg|g|grams?|milligrams?|micrograms?|iu|units?|"
                         r"ml|po|iv|sc|daily|bid|tid|qid|qd|qhs|once|twice|weekly|monthly|times|"
                         r"a|day)$", re.IGNORECASE)
_LIST_WORDS = frozenset({",", "and", "or", "/", "&", "+", "nor", "plus", "including", "incl",
                         "e.g.",
                         "such", "as", "(", ")", "i.e.", "both", "either", "other", "any"})
# 'not ordered', 'never started': a verb turned down by the word just before it.
_NOT_JUST_BEFORE = re.compile(r"\b(?:not|never|no|n't)\s*$", re.IGNORECASE)
# 'I would not ask cardiology to stop it purely to permit sildenafil': the purpose is refused too.
_NEGATED_PURPOSE = re.compile(r"\b(?:would|will|do|does|did|should|shall|could|can|must)\s*"
                              r"(?:not|n't|never)\b[^.;:]{0,80}?\b(?:purely|just|only|simply|"
                              r"solely)\s+(?:in order\s+)?to\s+$", re.IGNORECASE)
# 'Do not increase oxycodone, add another opioid, or start naltrexone': one 'not' over a list
# of verbs joined by commas and a last 'or'/'nor'.
_NEGATED_LIST_OPENS = re.compile(r"[\W\d]*(?:please\s+)?(?:do\s+not|don't|never|should\s+not|"
                                 r"shouldn't|must\s+not)\s+\w", re.IGNORECASE)
_LIST_JOIN_BEFORE = re.compile(r"(?:,\s*(?:or\s+|nor\s+)?|\s(?:or|nor)\s+)$", re.IGNORECASE)


def _in_negated_verb_list(text: str, at: int) -> bool:
    start = max(text.rfind(c, 0, at) for c in ".;:\n") + 1
    end = min((i for i in (text.find(c, at) for c in ".;:\n") if i >= 0), default=len(text))
    joined = _LIST_JOIN_BEFORE.search(text, start, at)
    return bool(joined and _NEGATED_LIST_OPENS.match(text, start, at)) and (
        re.search(r"\b(?:or|nor)\s*$", joined.group(0), re.IGNORECASE) is not None
        or re.search(r",\s*(?:or|nor)\s+\w", text[at:end], re.IGNORECASE) is not None)



def _adjacent(span: Any, verb: Any) -> bool:
    return verb.start - span.end <= 8


def _other_object(verb: Any, span: Any, spans: list[Any]) -> bool:
    """Whether the verb's object is another concept: '(verapamil) - increase everolimus
    levels' is about everolimus, while 'Atorvastatin - stop the statin' is about itself."""
    after = [s for s in spans if verb.end <= s.start < verb.sent.end]
    if not after or any(t.lower_ not in ("the", "a", "an", "his", "her", "their", "its")
                        for t in verb.doc[verb.end:after[0].start]):
        return False  # 'increase (the) everolimus levels', not 'stop while the ALT is up'
    return _concept_family(span).isdisjoint(_concept_family(after[0]))


def _concept_family(span: Any) -> frozenset[str]:
    """The span's concepts with every class above them ('atorvastatin' is also a statin)."""
    return frozenset().union(*(lexicon.ancestors(c) for c in _span_concepts(span)))


def _has_object(verb: Any, spans: list[Any]) -> bool:
    """Whether a concept follows the verb in its clause (then the verb is that concept's)."""
    sentence_end = verb.sent.end
    return any(verb.end <= s.start < sentence_end and not _dash_between(verb, s) for s in spans)


def _dash_between(verb: Any, span: Any) -> bool:
    """'a taper can start now - hyperinfection is a concern': a spaced dash after the verb's
    own words ends its plan; the finding after it is not its object."""
    gap = span.doc[verb.end:span.start]
    dashes = ("-", "\u2013", "\u2014")
    return len(gap) > 1 and gap[0].text not in dashes and _group(span.text) == "finding" and any(
        t.text in dashes and t.whitespace_ and t.doc[t.i - 1].whitespace_ for t in gap[1:])


def _negates_earlier(cue: Cue, span: Any, spans: list[Any]) -> bool:
    """Whether a negation before the concept belongs to an earlier concept: 'no alcohol on
    metronidazole' (a preposition between them), 'serology is not a test of cure' (the
    subject of 'is not')."""
    if cue.start >= span.start_char:
        return False
    doc = span.doc
    subject = [s for s in spans if s.end_char <= cue.start and s.sent == span.sent]
    if subject and re.fullmatch(r"\s*(?:is|are|was|were)\s+not\s+(?:a|an|the)\s+",
                                doc.text[subject[-1].end_char:span.start_char], re.IGNORECASE):
        return True  # 'serology is not a test of cure': the subject is what is turned down
    between = [s for s in spans
               if cue.start + len(cue.text) <= s.start_char and s.end <= span.start]
    if not between:
        return False
    words = [t.lower_ for t in doc[between[-1].end:span.start]]
    return bool(words) and words[0] in ("on", "while", "during", "with", "from", "in")


_REPLACED_ONE = re.compile(r"\b(?:instead of|in place of|rather than|as opposed to)\b",
                          re.IGNORECASE)
_NEGATED_REPLACEMENT = re.compile(r"(?:^|[,;:])\W*(?:(?:and|but)\s+)?(?:no|not|never|do not|"
                                  r"don't|avoid)\b[^,;:]*$", re.IGNORECASE)


_DENIED_CONSEQUENCE = re.compile(r"\b(?:trigger|prompt|lead to|warrant|justify)$", re.IGNORECASE)


def _filter_barriers(text: str, offset: int, cues: tuple[Cue, ...], span: Any,
                     verbs: list[tuple[Any, str, str]], governing: Any) -> tuple[Cue, ...]:
    """Drop a negation or hedge whose cue is separated from the concept by a verb it does not
    govern: in 'no aspirin, start metoprolol' the 'no' does not reach metoprolol."""
    kept = []
    for cue in cues:
        if cue.category == NEGATED and _REPLACED_ONE.fullmatch(cue.text) and (
                _NEGATED_REPLACEMENT.search(text, 0, max(0, cue.start - offset))):
            continue  # 'no CT surveillance in place of the biopsy': the biopsy stays
        if cue.category in (NEGATED, POSSIBLE) and cue.start < span.start_char and not (
                _DENIED_CONSEQUENCE.search(cue.text)):  # 'counts of 1.0-1.5 do not trigger
            blocked = False  # repeat work-ups, withheld medications or G-CSF': all of them
            for s, _, _ in verbs:
                if cue.start + len(cue.text) <= s.start_char < span.start_char:
                    between = span.doc.char_span(cue.start + len(cue.text), s.start_char,
                                                 alignment_mode="expand")
                    words = [t for t in between] if between is not None else []
                    verb_tokens = {i for v, _, _ in verbs for i in range(v.start, v.end)}
                    if words and words[-1].lower_ in ("or", "nor"):
                        continue  # 'do not repeat metronidazole or give tinidazole': both
                    if any(t.text.lower() not in _AUXILIARY and t.i not in verb_tokens
                           and re.search(r"\w", t.text) for t in words):
                        blocked = True
                        break
            if blocked:
                continue
        kept.append(cue)
    return tuple(kept)
