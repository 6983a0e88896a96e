"""The shared clinical lexicon: concepts and their words, plan verbs, sections, context cues.

Checkpoints name concepts ('statin', 'tsh', 'avoid'); the lexicon knows the words for them.
Everything lives in tables under ``grading/data/lexicon/`` so that a synonym, a brand name or a
hedging cue is added in one place and serves every task. Drug ingredients of the terminology
tables join the lexicon automatically (salt names removed), so any orderable drug can be named.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from physbench_gym._resources import load_yaml

_DATA = "physbench_gym.grading"
CONCEPT_FILES = {"drugs.yaml": "drug", "tests.yaml": "test", "findings.yaml": "finding"}
_SALTS = re.compile(
    r"\b(?:hydrochloride|hcl|sodium|calcium|potassium|sulfate|sulphate|maleate|fumarate|"
    r"succinate|tartrate|hyclate|monohydrate|medoxomil|etexilate|besylate|mesylate|acetate|"
    r"citrate|bromide|chloride)\b")


@dataclass(frozen=True)
class Concept:
    """A clinical concept: its kind, its words and the classes it belongs to."""

    id: str
    kind: str
    """'drug', 'class', 'test' or 'finding'."""
    terms: tuple[str, ...]
    parents: tuple[str, ...] = ()
    unit: str = ""
    """Canonical unit of a measured value (tests)."""
    units: dict[str, float] = field(default_factory=dict)
    """Factor from another written unit to the canonical one."""
    acting: dict[str, str] = field(default_factory=dict)
    """Terms that carry their own plan verb ('restrict fluids' -> 'start' fluid restriction)."""
    cased: tuple[str, ...] = ()
    """Terms that name the concept only as written ('Ct' is a cycle threshold, 'CT' a scan)."""


def _concept_files() -> list[tuple[str, str]]:
    """Each concept file with its default kind: the main files, then their supplements
    (``tests.<topic>.yaml`` beside ``tests.yaml``, as a task's own words)."""
    folder = resources.files(_DATA).joinpath("data", "lexicon")
    names = sorted(entry.name for entry in folder.iterdir())
    return [(name, kind) for main, kind in CONCEPT_FILES.items()
            for name in [main] + [n for n in names if n.startswith(main.removesuffix("yaml"))
                                  and n.endswith(".yaml") and n != main]]


def _load(name: str) -> Any:
    text = resources.files(_DATA).joinpath("data", "lexicon", name).read_text(encoding="utf-8")
    return load_yaml(text)


@functools.cache
def concepts() -> dict[str, Concept]:
    """Every concept of the lexicon by id (tables plus the terminology's ingredients)."""
    found: dict[str, Concept] = {}
    for file_name, default_kind in _concept_files():
        for concept_id, entry in (_load(file_name) or {}).items():
            if concept_id in found:
                raise ValueError(f"lexicon {file_name}: concept {concept_id!r} is defined twice")
            acting = {str(t).lower(): verb for verb, terms in (entry.get("acts") or {}).items()
                      for t in terms}
            found[concept_id] = Concept(
                concept_id, entry.get("kind", default_kind),
                tuple(str(t) for t in entry.get("terms", [])) + tuple(acting),
                tuple(entry.get("is", []) or []), str(entry.get("unit", "")),
                {str(k): float(v) for k, v in (entry.get("units") or {}).items()}, acting,
                tuple(str(t) for t in entry.get("cased", [])))
    known_terms = {t.lower() for c in found.values() for t in c.terms}
    for ingredient, _drug_class in _terminology_ingredients():
        name = ingredient_name(ingredient)
        if name.lower() in known_terms or not name:
            continue
        concept_id = re.sub(r"\W+", "_", name.lower()).strip("_")
        found.setdefault(concept_id, Concept(concept_id, "drug", (name,), ()))
        known_terms.add(name.lower())
    missing = {p for c in found.values() for p in c.parents if p not in found}
    for parent in missing:
        found[parent] = Concept(parent, "class", ())
    return found


def ingredient_name(ingredient: str) -> str:
    """The ingredient as physicians name it: 'levothyroxine sodium' -> 'levothyroxine'."""
    return re.sub(r"\s+", " ", _SALTS.sub("", ingredient.lower())).strip(" ,")


def _terminology_ingredients() -> list[tuple[str, str]]:
    from physbench_gym.synth import terminology

    pairs = set()
    for concept in terminology.all_concepts("rxnorm"):
        ingredient = concept.extra.get("ingredient", "")
        if ingredient and "/" not in ingredient:
            pairs.add((ingredient, concept.extra.get("drug_class", "")))
    return sorted(pairs)


@functools.cache
def ancestors(concept_id: str) -> frozenset[str]:
    """The concept and every class above it."""
    table = concepts()
    seen = {concept_id}
    stack = [concept_id]
    while stack:
        current = stack.pop()
        for parent in table[current].parents if current in table else ():
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return frozenset(seen)


@functools.cache
def members(concept_id: str) -> frozenset[str]:
    """The concept and every concept below it (the drugs of a class, the tests of a panel)."""
    if concept_id not in concepts():
        raise KeyError(f"unknown concept {concept_id!r}")
    return frozenset(c for c in concepts() if concept_id in ancestors(c))


def term_pattern(term: str) -> str:
    """A whole-word, case-insensitive pattern for a term: a space also matches a hyphen or
    nothing, and a final letter may take a plural 's'."""
    escaped = re.escape(term.lower())
    escaped = escaped.replace(r"\ ", r"[\s\-]*").replace(r"\-", r"[\s\-]?")
    plural = "(?:s|es)?" if term[-1:].isalpha() and len(term) > 2 else ""
    return rf"(?<![\w]){escaped}{plural}(?![\w])"


@functools.cache
def acting_terms() -> dict[str, str]:
    """Lower-case term -> the plan verb it carries ('restrict fluids' -> 'start')."""
    return {term: verb for concept in concepts().values() for term, verb in concept.acting.items()}


@functools.cache
def concept_terms() -> dict[str, frozenset[str]]:
    """Lower-case term -> the concepts it names (a term may name several)."""
    table: dict[str, set[str]] = {}
    for concept in concepts().values():
        for term in concept.terms:
            table.setdefault(term.lower(), set()).add(concept.id)
    return {term: frozenset(ids) for term, ids in table.items()}


@functools.cache
def concept_regex() -> re.Pattern[str]:
    """One pattern matching any concept term, longest terms first."""
    terms = sorted(concept_terms(), key=len, reverse=True)
    return re.compile("|".join(f"(?:{term_pattern(t)})" for t in terms), re.IGNORECASE)


@functools.cache
def _term_lookup() -> dict[str, frozenset[str]]:
    """Normalized spelling of a term (letters and digits only) -> concepts."""
    table: dict[str, set[str]] = {}
    for term, ids in concept_terms().items():
        table.setdefault(_squash(term), set()).update(ids)
    return {key: frozenset(ids) for key, ids in table.items()}


def _squash(text: str) -> str:
    return re.sub(r"[\s\-]+", "", text.lower())


@functools.cache
def cased_terms() -> dict[str, frozenset[str]]:
    """Term as written -> the concepts it names in that case only."""
    table: dict[str, set[str]] = {}
    for concept in concepts().values():
        for term in concept.cased:
            table.setdefault(term, set()).add(concept.id)
    return {term: frozenset(ids) for term, ids in table.items()}


def concepts_of(matched_text: str) -> frozenset[str]:
    """The concepts named by a matched term (the match may be spaced or pluralized)."""
    cased = cased_terms().get(matched_text.strip())
    if cased:
        return cased
    lookup = _term_lookup()
    key = _squash(matched_text)
    for candidate in (key, key[:-1], key[:-2]):
        if candidate in lookup:
            return lookup[candidate]
    return frozenset()


def term_concepts(text: str) -> frozenset[str]:
    """The concepts of a whole term: 'new nodule', not 'new nodule in' (a match of
    ``concepts_of`` may run a letter or two into the next word)."""
    found = _term_lookup().get(_squash(text))
    if found is not None:
        return found
    return concepts_of(text) if text.lower().endswith("s") else frozenset()


@functools.cache
def verb_table() -> dict[str, dict[str, tuple[str, ...]]]:
    """Plan verb classes: ``{action: {'before': phrases, 'after': phrases}}``."""
    return {action: {side: tuple(str(p) for p in (forms.get(side) or ()))
                     for side in ("before", "after")}
            for action, forms in _load("verbs.yaml").items()}


@functools.cache
def section_table() -> dict[str, str]:
    """Heading text (lower case, letters only) -> section."""
    return {_heading_key(title): section
            for section, titles in _load("sections.yaml").items() for title in titles}


def _heading_key(title: str) -> str:
    return re.sub(r"[^a-z0-9/&]+", " ", title.lower()).strip()


# The letter of a mnemonic heading that its title spells out: 'P - Patient summary',
# 'S - Situation awareness', 'B - Background': the title names the section, not the letter.
_MNEMONIC_INITIAL = re.compile(r"^\s*([a-z])\s*[-\u2013\u2014]\s+(?=\1[a-z])", re.IGNORECASE)


def section_of(title: str, loose: bool = False) -> str | None:
    """The section a heading opens ('Plan' -> 'plan'), or None if it is not a heading. A loose
    match (for lines that are headings by their form) also reads the title's first or last
    words: 'Antihistamine plan', 'Follow-up with explicit triggers'."""
    if "?" in title:
        return None  # a question the lines after it answer, not a section
    title = _MNEMONIC_INITIAL.sub("", title)  # 'P - Patient summary' (I-PASS, SOAP, SBAR)
    key = _heading_key(re.sub(r"\([^()]*\)", " ", title))  # 'Follow-up (Fleischner 2017)'
    # 'Alternatives considered and why they are unlikely' is a heading by its form; a long
    # title with a colon or a number says more ('Recommendation: start rosuvastatin 10 mg')
    if not key or len(key) > (70 if loose and not re.search(r"[:\d]", title) else 45):
        return None
    table = section_table()
    if key in table:
        return table[key]
    parts = [p.strip() for p in re.split(r"/|&|\band\b", key) if p.strip()]
    if len(parts) > 1 and len({table.get(p) for p in parts}) == 1 and parts[0] in table:
        return table[parts[0]]  # 'Micro/labs', 'Imaging & labs': parts of one section
    trimmed = re.sub(r"^(?:\d+\s+|my\s+|the\s+)", "", key)
    trimmed = re.sub(r"\s+(?:section|summary)$", "", trimmed) if trimmed not in table else trimmed
    if trimmed in table or not loose:
        return table.get(trimmed)
    words = trimmed.split()
    if words[:2] == ["why", "not"] and term_concepts(" ".join(words[2:])):
        return None  # 'Why not febuxostat: allopurinol is first line': one choice's reason
    for candidate in (" ".join(words[:2]), words[0], " ".join(words[-2:]), words[-1]):
        if table.get(candidate) in ("plan", "assessment") or (
                " " in candidate and table.get(candidate) in ("avoid", "options")) or (
                candidate == words[0] and not (candidate == "id" and len(words) > 1)
                and table.get(candidate) in ("history", "question")) or (  # not 'ID e-consult'
                candidate == " ".join(words[:2]) and table.get(candidate) == "history"
                and table.get(words[-1]) not in ("plan", "assessment")):  # 'Chart review
            return table[candidate]  # checklist'; not 'Chart review and plan'

    medication = not any(re.match(r"episode|status|symptom|presentation|problem|issue|illness|"
                                  r"situation|lab|result|finding|assessment|condition|state|"
                                  r"history|plan|question|concern|complaint|vital|weight|"
                                  r"function|kidney|renal|imaging|gi|bleed|event", w)
                         for w in words[1:])
    named = term_concepts(" ".join(words[1:]))
    if words[0] == "current" and any(concepts()[c].kind in ("test", "finding")
                                     for c in named if c in concepts()):
        return None  # 'Current Hb: 9.2 g/dL', 'Current PET/CT: ...' label a result, no section
    if words[0] in ("current", "home", "existing", "active", "prior", "previous") and medication:
        return "medications"  # 'CURRENT THYROID MEDICATION: levothyroxine 75 mcg daily'
    if words[0] in ("prior", "previous", "past", "earlier", "old"):
        return "history"  # 'PRIOR GI: colonoscopy 2017 normal. No EGD ever.'
    return None


@functools.cache
def context_rules() -> dict[str, list[tuple[str, str, int | None]]]:
    """ConText cues by category: (phrase, direction, max scope in tokens or None)."""
    rules: dict[str, list[tuple[str, str, int | None]]] = {}
    for category, entries in _load("context.yaml").items():
        rules[category] = [(str(e[0]), str(e[1]), int(e[2]) if len(e) > 2 else None)
                           for e in entries]
    return rules


def concept(concept_id: str) -> Concept:
    """A concept by id; KeyError naming the id when the lexicon lacks it."""
    try:
        return concepts()[concept_id]
    except KeyError:
        raise KeyError(
            f"unknown concept {concept_id!r}; add it to grading/data/lexicon/") from None


def _unit_key(unit: str) -> str:
    return re.sub(r"\s+|h2o$", "", unit.lower())


@functools.cache
def measured_units() -> frozenset[str]:
    """Every unit a measured concept of the lexicon is written in (lower case, no spaces)."""
    return frozenset(_unit_key(u) for c in concepts().values() if c.unit
                     for u in (c.unit, *c.units))


def unit_fits(unit: str, concept_ids: frozenset[str]) -> bool:
    """Whether a value written in ``unit`` can be one of these concepts' values: '412 mOsm/kg'
    is not a glucose. Units no measured concept uses (doses, times, '%') always fit."""
    key = _unit_key(unit)
    if not key or key not in measured_units():
        return True
    own = {_unit_key(u) for c in concept_ids if c in concepts() and concepts()[c].unit
           for u in (concepts()[c].unit, *concepts()[c].units)}
    return not own or key in own

