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

import functools
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from physbench_gym.grading import lexicon
from physbench_gym.grading.markup import Line, lines
from physbench_gym.grading.quantities import Quantity, quantities

# Statuses a cue gives the concepts in its scope, and sections that only report.
NEGATED, POSSIBLE, PROBABLE, CONDITIONAL = "NEGATED", "POSSIBLE", "PROBABLE", "CONDITIONAL"
TEMPORARY, HISTORICAL, FAMILY = "TEMPORARY", "HISTORICAL", "FAMILY"
ALTERNATIVE, COUNTERFACTUAL, LATER = "ALTERNATIVE", "COUNTERFACTUAL", "LATER"
ATTRIBUTE = "ATTRIBUTE"
_ATTRIBUTE = re.compile(
    r"[\s-]*(?:intolerance|intolerant|allergy|allergies|allergic|hypersensitivity|side[\s-]effects?"
    r"|adverse (?:effects?|reactions?)|toxicity|reactions?|myopathy|myalgias?|resistance|resistant"
    r"|failure|exposure|levels?|use disorder|overdose|withdrawal|dependence|misuse|history"
    r"|-induced|-associated|-related|induced|associated)\b", re.IGNORECASE)
REPORTING_SECTIONS = frozenset({"history", "medications", "data"})
PAST_SECTIONS = frozenset({"history", "medications"})
# A negated verb means another decision: 'do not start' avoids, 'do not stop' continues.
NEGATED_ACTION = {"start": "avoid", "endorse": "avoid", "resume": "avoid", "order": "avoid",
                  "refer": "avoid", "stop": "continue", "continue": "stop",
                  "increase": "keep_dose", "decrease": "keep_dose", "keep_dose": "change",
                  "avoid": "allow", "switch": "keep_dose", "counsel": "counsel"}
# Words that may sit between a negation and the verb it governs ('do not start', 'no need to
# repeat', 'I would not recommend').
_AUXILIARY = frozenset({"do", "does", "did", "should", "would", "will", "to", "be", "need",
                        "needs", "have", "has", "i", "we", "you", "he", "she", "it", "is", "are",
                        "was", "were", "can", "could", "must", "may", "might", "necessary",
                        "further", "any", "currently", "recommend", "suggest", "advise",
                        "want", "wish", "plan", "yet", "longer", "again", "routinely",
                        "routine", "also", "now", "strongly", "definitely", "certainly"})
_SENTENCE_HINT = re.compile(r"[.!?]\s+\S")


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
    statuses: frozenset[str]
    cues: tuple[Cue, ...]
    action: Action | None
    later: tuple[Action, ...]
    """Verbs after the concept with no object of their own ('hold aspirin, then resume')."""
    quantities: tuple[Quantity, ...]
    negated: bool
    """Negated with no verb to carry it ('no anticoagulation', 'NSAIDs: none')."""

    @property
    def decision(self) -> str | None:
        """'start', 'stop', 'avoid', ... or 'implicit' for a verbless plan line, or None."""
        if ATTRIBUTE in self.statuses:
            return None
        if self.action is not None:
            return self.action.decision
        if self.negated:
            return "avoid"
        return None

    def has(self, *statuses: str) -> bool:
        return not self.statuses.isdisjoint(statuses)

    def cue(self, *categories: str) -> str:
        return next((c.text for c in self.cues if c.category in categories), "")


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

    @property
    def reporting(self) -> bool:
        """In a history, medication-list or data section: reports, does not plan."""
        return self.section in REPORTING_SECTIONS

    def quantity_status(self, quantity: Quantity) -> frozenset[str]:
        for candidate, status in zip(self.quantities, self.quantity_statuses):
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
    clause_quantities = [quantities(u[0], today) for u in units]
    quantity_spans = []
    for start, found in zip(starts, clause_quantities):
        for q in found:
            span = doc.char_span(start + q.start, start + q.end, label="QUANTITY",
                                 alignment_mode="expand")
            if span is not None:
                quantity_spans.append(span)
    doc.spans["targets"] = list(concept_spans) + quantity_spans
    pipeline.context(doc)
    statuses = {(s.start_char, s.end_char, s.label_): _cues(s) for s in doc.spans["targets"]}
    clauses = []
    for index, ((clause_text, line), start) in enumerate(zip(units, starts)):
        end = start + len(clause_text)
        clauses.append(_clause(index, clause_text, line, start, end, doc, concept_spans,
                               verb_spans, clause_quantities[index], statuses))
    return Note(text, tuple(clauses))


def _clause_texts(note_lines: tuple[Line, ...]) -> list[tuple[str, Line]]:
    """(text, line) of every clause: sentences of each line, split at semicolons."""
    out = []
    for line in note_lines:
        if line.kind == "heading":
            continue
        sentences = (_segmenter().segment(line.text) if _SENTENCE_HINT.search(line.text)
                     else [line.text])
        for sentence in sentences:
            for part in re.split(r";\s+|\s+--\s+", sentence):
                part = part.strip()
                if part and re.search(r"\w", part):
                    out.append((part, line))
    return out


@functools.cache
def _segmenter() -> Any:
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


@dataclass
class _Pipeline:
    tokenizer: Any
    concept_matcher: Any
    verb_matcher: Any
    verb_kinds: dict[int, tuple[str, str]]
    context: Any


@functools.cache
def _pipeline() -> _Pipeline:
    """The spaCy tokenizer, phrase matchers and ConText, built once per process."""
    for name in ("medspacy", "PyRuSH", "pysbd"):
        logging.getLogger(name).setLevel(logging.ERROR)
    import spacy
    from medspacy.context import ConText, ConTextRule
    from spacy.matcher import PhraseMatcher

    nlp = spacy.blank("en")
    concept_matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
    patterns = {}
    for term in lexicon.concept_terms():
        for variant in _variants(term):
            patterns.setdefault(variant, None)
    concept_matcher.add("CONCEPT", list(nlp.tokenizer.pipe(patterns)))
    verb_matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
    verb_kinds: dict[int, tuple[str, str]] = {}
    for kind, sides in lexicon.verb_table().items():
        for side, phrases in sides.items():
            key = f"{kind}|{side}"
            forms = {f for p in phrases
                     for f in _inflections(p, "endorse" if kind == "endorse" else side)}
            verb_matcher.add(key, list(nlp.tokenizer.pipe(sorted(forms))))
            verb_kinds[nlp.vocab.strings[key]] = (kind, side)
    context = ConText(nlp, rules=None, span_attrs=None, input_span_type="group",
                      span_group_name="targets", phrase_matcher_attr="LOWER")
    rules = []
    for category, entries in lexicon.context_rules().items():
        for phrase, direction, max_scope in entries:
            if direction not in ("FORWARD", "BACKWARD", "BIDIRECTIONAL", "TERMINATE",
                                 "PSEUDO"):
                continue
            if direction == "TERMINATE" or category == "NEG_END":
                # medspaCy compares scopes with a one-sided overlap test: a terminator whose
                # scope is the whole sentence never meets a short scope inside it.
                max_scope = 1
            terminated_by = _TERMINATED_BY.get(category)
            rules.append(ConTextRule(phrase, category, direction=direction,
                                     max_scope=max_scope, terminated_by=terminated_by))
    context.add(rules)
    return _Pipeline(nlp.tokenizer, concept_matcher, verb_matcher, verb_kinds, context)


# A negation ends where another cue or a new predicate starts ('no diuretic for 6 weeks, meets
# the criteria for SIADH'; 'no diuretic, most likely SIADH').
# Every cue's scope also ends where a later step begins ('..., then cholecalciferol ...').
_TERMINATED_BY = {category: {LATER} for category in (
    POSSIBLE, PROBABLE, CONDITIONAL, TEMPORARY, HISTORICAL, FAMILY, ALTERNATIVE, COUNTERFACTUAL)}
_TERMINATED_BY[NEGATED] = {"NEG_END", POSSIBLE, PROBABLE, CONDITIONAL, TEMPORARY, HISTORICAL,
                           ALTERNATIVE, LATER}


def _variants(term: str) -> set[str]:
    """Spellings of a term as notes write it: hyphen or space, singular or plural."""
    base = {term.lower(), term.lower().replace("-", " "), term.lower().replace(" ", "-")}
    out = set(base)
    for form in base:
        if form[-1:].isalpha() and len(form) > 2 and not form.endswith("s"):
            out.add(form + "s")
    return out


def _inflections(phrase: str, side: str) -> set[str]:
    """Forms of a verb phrase: a single word also as -ed and -ing. Plans are written in the
    imperative, the participle or the gerund; '-s' forms describe ('calcium lowers absorption')
    and are left out, except for verbs of recommendation ('cardiology recommends')."""
    phrase = phrase.lower()
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
             for _, start, end in pipeline.concept_matcher(doc)]
    return sorted(filter_spans(spans), key=lambda s: s.start)


def _verb_spans(pipeline: _Pipeline, doc: Any, concepts: list[Any]) -> list[tuple[Any, str, str]]:
    """(span, kind, side) of the plan verbs that are not part of a concept's name."""
    from spacy.tokens import Span
    from spacy.util import filter_spans

    taken = {i for span in concepts for i in range(span.start, span.end)}
    sides: dict[tuple[int, int, str], set[str]] = {}
    for match_id, start, end in pipeline.verb_matcher(doc):
        if not any(i in taken for i in range(start, end)):
            kind, side = pipeline.verb_kinds[match_id]
            sides.setdefault((start, end, kind), set()).add(side)
    spans = [Span(doc, start, end, label=f"{kind}|{'both' if len(found) > 1 else found.pop()}")
             for (start, end, kind), found in sides.items()]
    kept = filter_spans(spans)
    return sorted(((s, *s.label_.split("|")) for s in kept), key=lambda v: v[0].start)


def _cues(span: Any) -> tuple[Cue, ...]:
    doc = span.doc
    cues = []
    for m in span._.modifiers:
        words = doc[m.modifier_span[0]:m.modifier_span[1]]
        if words.text.lower() in _ANSWER_CUES and _LINE_GOES_ON.match(
                doc.text, words.end_char):
            continue  # 'Unprovoked DVT: no surgery, ...' labels, it does not answer 'no'
        cues.append(Cue(m.category, words.text.lower(), words.start_char))
    return tuple(cues)


_ANSWER_CUES = frozenset({": no", ": none", "- none"})
_LINE_GOES_ON = re.compile(r"[ \t]*[\w(]")


def _clause(index: int, text: str, line: Line, start: int, end: int, doc: Any,
            concept_spans: list[Any], verb_spans: list[tuple[Any, str, str]],
            found: tuple[Quantity, ...], statuses: dict) -> Clause:
    spans = [s for s in concept_spans if start <= s.start_char < end]
    verbs = [(s, kind, side) for s, kind, side in verb_spans if start <= s.start_char < end]
    actions = tuple(Action(kind, s.text.lower(), s.start_char - start) for s, kind, _ in verbs)
    mentions = []
    for i, span in enumerate(spans):
        next_start = spans[i + 1].start_char - start if i + 1 < len(spans) else len(text)
        cues = statuses.get((span.start_char, span.end_char, "CONCEPT"), ())
        mentions.append(_mention(text, start, span, i, spans, verbs, cues, found, next_start,
                                 line))
    q_status = []
    for q in found:
        key = next((k for k in statuses if k[2] == "QUANTITY" and k[0] <= start + q.start < k[1]),
                   None)
        cues = statuses.get(key, ()) if key else ()
        q_status.append(_status_of(cues, line, None, text))
    return Clause(text, line.section, line.kind, index, line.dated_row_is_latest,
                  tuple(mentions), found, tuple(q_status), actions)


def _mention(text: str, offset: int, span: Any, i: int, spans: list[Any],
             verbs: list[tuple[Any, str, str]], cues: tuple[Cue, ...],
             found: tuple[Quantity, ...], next_start: int, line: Line) -> Mention:
    begin, end = span.start_char - offset, span.end_char - offset
    previous_end = spans[i - 1].end_char - offset if i > 0 else 0
    action, governing_verb = _attach(text, offset, span, spans, i, verbs)
    later = tuple(Action(kind, s.text.lower(), s.start_char - offset)
                  for s, kind, side in verbs
                  if side == "before" and end <= s.start_char - offset < next_start
                  and (action is None or s.start_char - offset > action.start)
                  and not _has_object(s, spans))
    cues = _filter_barriers(text, offset, cues, span, verbs, governing_verb)
    negation = next((c for c in cues if c.category == NEGATED), None)
    negated = negation is not None
    if action is not None and negated and not action.negated:
        action = Action(action.kind, action.text, action.start, negated=True)
    stop = _first_boundary(text, end, next_start)
    attached = tuple(q for q in found if end <= q.start < stop) or tuple(
        q for q in found if previous_end <= q.start and q.end <= begin and begin - q.end <= 3)
    concept_ids = frozenset().union(*(lexicon.ancestors(c)
                                      for c in lexicon.concepts_of(span.text)))
    status = _status_of(cues, line, action, text)
    if _ATTRIBUTE.match(text, end):
        # 'no statin intolerance', 'sulfa allergy': a finding about the drug, not a decision
        action, later, negated = None, (), False
        status = status | {ATTRIBUTE}
    return Mention(concept_ids, span.text, begin, end, status, cues, action, later, attached,
                   negated and action is None)


def _status_of(cues: tuple[Cue, ...], line: Line, action: Action | None,
               text: str) -> frozenset[str]:
    status = {c.category for c in cues} - {NEGATED}
    if line.section in PAST_SECTIONS:
        status.add(HISTORICAL)
    if line.kind == "row" and line.dated_row_is_latest is False:
        status.add(HISTORICAL)
    return frozenset(status)


def _attach(text: str, offset: int, span: Any, spans: list[Any], i: int,
            verbs: list[tuple[Any, str, str]]) -> tuple[Action | None, Any]:
    """The plan verb governing a concept: the nearest 'before' verb preceding it in the
    clause, unless an 'after' form follows it directly ('metformin continued', 'X: stop')."""
    before = [(s, kind) for s, kind, side in verbs
              if side != "after" and s.end <= span.start
              and not _boundary_between(span.doc[s.end:span.start])
              and _governs(s, span, spans)]
    after = None
    next_span_start = spans[i + 1].start if i + 1 < len(spans) else None
    for s, kind, side in verbs:
        if s.start < span.end:
            continue
        if next_span_start is not None and s.start >= next_span_start:
            break
        gap = span.doc[span.end:s.start]
        if (side != "before" or _colon_between(gap)) and _only_dose_words(gap):
            after = (s, kind)
        break
    if after is not None and (not before or _adjacent(span, after[0])):
        return _after_action(span, after, offset), after[0]
    if before:
        s, kind = before[-1]
        return Action(kind, s.text.lower(), s.start_char - offset), s
    if after is not None:
        return _after_action(span, after, offset), after[0]
    return None, None


def _after_action(span: Any, after: tuple[Any, str], offset: int) -> Action:
    """A verb written after its concept, negated when a 'not' sits between them
    ('an SGLT2 inhibitor is not used')."""
    verb, kind = after
    gap = {t.lower_ for t in span.doc[span.end:verb.start]}
    return Action(kind, verb.text.lower(), verb.start_char - offset,
                  negated=bool(gap & {"not", "n't", "never"}))


_DOSE_WORD = re.compile(
    r"^(?:[\d.,/%-]+|mg|mcg|g|iu|units?|ml|tabs?|tablets?|caps?|capsules?|po|sl|sc|sq|subq|iv|"
    r"im|daily|bid|tid|qid|qd|qhs|qam|weekly|monthly|once|twice|a|day|week|month|x|by|mouth|"
    r"oral|orally|every|q\d*\w*|h|hours?|weeks?|months?|days?|wk|wks|mo|at|night|bedtime|"
    r"morning|evening|er|xr|sr|dr|la|ir|film|films|spray|nasal|sublingual|subcutaneous|"
    r"subcutaneously|intravenous|intravenously|with|food|tablet|dose|doses|hs|prn|the|new|"
    r"[:\-–—,()\[\]]|is|are|was|be|been|being|to|for|now|today|:|and|of|in|may|can|could|"
    r"should|will|would|might|must|also|then|once|twice|not)$", re.IGNORECASE)


_BOUNDARY = frozenset({"then", "but", "however", "because", "since", "whereas", "while",
                       "although", "though", "unless", "if", "until", "once", "when", "after",
                       "before", "so", "therefore", "thus", "given", "which", "otherwise",
                       "instead", "alternatively"})


_BOUNDARY_WORD = re.compile(r"\b(?:" + "|".join(sorted(_BOUNDARY)) + r")\b", re.IGNORECASE)


def _first_boundary(text: str, start: int, end: int) -> int:
    """Where the first clause-opening word after ``start`` is (or ``end``): quantities after
    it belong to a later step or a condition ('50,000 IU weekly x 8 wk, then 1,000 IU daily')."""
    match = _BOUNDARY_WORD.search(text, start, end)
    return match.start() if match else end


_JOINER = re.compile(
    r"^(?:[\s,/&+()]|and|or|nor|plus|including|incl|such|as|e\.?g\.?|i\.?e\.?|the|his|her|a|an|"
    r"any|all|either|both|also|other|oral|topical|iv|po|sl|sc|daily|bid|tid|qid|qd|once|twice|"
    r"weekly|monthly|mg|mcg|g|iu|units?|tablets?|capsules?|[\d.,/-]+|x|by|mouth|then|-)+$",
    re.IGNORECASE)


def _governs(verb: Any, span: Any, spans: list[Any]) -> bool:
    """Whether a verb reaches a concept over the concepts between them: only through a list
    ('avoid NSAIDs, including ibuprofen and naproxen'), not over a phrase that makes the later
    concept the object of something else ('avoid calcium within 4 hours of levothyroxine')."""
    between = [s for s in spans if verb.end <= s.start and s.end <= span.start]
    if not between:
        return True
    gap = span.doc[between[-1].end:span.start].text
    return not gap.strip() or bool(_JOINER.match(gap.strip()))


def _boundary_between(tokens: Any) -> bool:
    """Whether a word that opens another clause lies between a verb and a concept."""
    return any(t.lower_ in _BOUNDARY for t in tokens)


def _only_dose_words(gap: Any) -> bool:
    return len(gap) <= 14 and all(_DOSE_WORD.match(t.text) or t.is_space for t in gap)


def _colon_between(gap: Any) -> bool:
    return any(t.text in (":", "-", "–", "—", "=") for t in gap)


def _adjacent(span: Any, verb: Any) -> bool:
    return verb.start - span.end <= 8


def _has_object(verb: Any, spans: list[Any]) -> bool:
    """Whether a concept follows the verb in its clause (then the verb is that concept's)."""
    sentence_end = verb.sent.end
    return any(verb.end <= s.start < sentence_end for s in spans)


def _filter_barriers(text: str, offset: int, cues: tuple[Cue, ...], span: Any,
                     verbs: list[tuple[Any, str, str]], governing: Any) -> tuple[Cue, ...]:
    """Drop a negation or hedge whose cue is separated from the concept by a verb it does not
    govern: in 'no aspirin, start metoprolol' the 'no' does not reach metoprolol."""
    kept = []
    for cue in cues:
        if cue.category in (NEGATED, POSSIBLE) and cue.start < span.start_char:
            blocked = False
            for s, _, _ in verbs:
                if cue.start < s.start_char < span.start_char:
                    between = span.doc.char_span(cue.start, s.start_char,
                                                 alignment_mode="expand")
                    words = [t.text.lower() for t in between][1:] if between is not None else []
                    if any(w not in _AUXILIARY and re.search(r"\w", w) for w in words):
                        blocked = True
                        break
            if blocked:
                continue
        kept.append(cue)
    return tuple(kept)
