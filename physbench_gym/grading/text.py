"""Reading a clinical note the way a grader must: clauses, negation, hedging, numbers, units.

Documentation checkpoints judge medicine, not wording, so matching works on clauses (a
sentence split at semicolons, bullets and parentheses) and asks three questions of each: does
it assert a plan (not hedged, not conditional, not historical), is the plan negated, and which
quantities does it state.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

_CLAUSE_SPLIT = re.compile(
    r"(?<!\d)[.](?!\d)|[;\n!?•]"
    r"|,?\s+(?:but|and|while|whereas)\s+(?=(?:do not|don't|avoid|never|not|no)\b)"
    r"|,\s*(?=(?:but\s+)?(?:do not|don't|avoid|never|rather than|instead of)\b)"
    r"|,?\s+(?=(?:so|therefore|thus|hence)\s)"
    r"|,\s*and,?\s+(?=(?:if|unless)\b)")
_ABBREVIATION = re.compile(
    r"\b(approx|e\.g|i\.e|vs|etc|incl|est|dr|mr|mrs|ms|appt|hx|dx|tx|sx|cf|min|max|avg"
    r"|h(?=\.\s*pylori)|(?:[a-z]\.){1,3}[a-z])\.(?=\s|,|$)", re.MULTILINE)
_SOFT_WRAP = re.compile(
    r"(?<![.:;!?|])[ \t]*\n(?![ \t]*(?:[-*•#>|]|\d{1,2}[.)]|\n|$))[ \t]*")
_LIST_MARK = re.compile(r"^\d{1,2}[.)]\s+")
_PARENTHETICAL = re.compile(r"(?:(?<=\s)|^)(?:\(([^()]*)\)|\[([^\[\]]*)\])")
NEGATION_CUES = re.compile(
    r"\b(no|not|never|none|without|avoid|avoiding|against|decline[sd]?|den(?:y|ies|ied)|"
    r"(?:do|does|did|should|would|will|can|could|must)\s*n[o']t|don't|won't|shouldn't|"
    r"cannot|neither|nor|defer|deferred|hold off|no need|unnecessary|not indicated|"
    r"not recommended|not needed|not required|contraindicated|rather than|instead of|"
    r"unlikely|less likely|ruled out|rule out|r/o|excluded|negative for)\b",
    re.IGNORECASE,
)
HEDGE_CUES = re.compile(
    r"\b(consider|considering|may|might|could|possibly|perhaps|maybe|unclear|uncertain|"
    r"either\b.*\bor\b|or\s+alternatively|versus|vs\.?|if|unless|"
    r"should .* (?:develop|occur|worsen)|"
    r"in case|depending on|whether|discuss(?:ed)? (?:with|the option)|question of)\b",
    re.IGNORECASE,
)
HISTORY_CUES = re.compile(
    r"\b(previously|prior(?:ly)?(?!\s+to\b)|formerly|history of|was (?:started|stopped|increased|"
    r"decreased|reduced|changed|switched|discontinued)|had been|has been on|ago|in (?:19|20)\d\d|"
    r"last (?:year|month)|back in(?!\s+(?:about\s+|around\s+)?(?:\d|one|two|three|four|six|a)\b)"
    r"|originally)\b",
    re.IGNORECASE,
)
# '2 weeks prior' times a step before an event (a plan), unlike 'prior EGD' (history).
_TIMING_PRIOR = re.compile(
    r"\b(?:days?|d|weeks?|wks?|months?|mos?|hours?|hrs?)\s+prior\b(?!\s+to\b)", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])([<>≤≥]=?\s*)?([-−]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+))(?![\d])")
_UNIT_AFTER = re.compile(r"\s*([a-zA-Zµμ%/\d\^\*\.\[\]{}_²³]+(?:\s*/\s*[a-zA-Z\d\.²³{}_\[\]]+)?)")


def normalize(text: str) -> str:
    """Lower-case, strip accents, unify micro signs and dashes, collapse spaces."""
    text = text.replace("µ", "u").replace("μ", "u").replace("–", "-").replace("—", "-")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[ \t]+", " ", text.lower())


@functools.lru_cache(maxsize=64)
def clauses(text: str) -> tuple[str, ...]:
    """Split a note into clauses: sentences, list items, semicolon parts.

    A line break inside a sentence (soft wrap) joins the lines; a break before a list item,
    a heading or a blank line, or after a sentence end, separates them.

    Parenthetical remarks become clauses of their own, so '(previously 50 mcg)' neither
    lends its numbers to nor contradicts the plan around it.
    """
    asides: list[str] = []

    def lift(match: re.Match[str]) -> str:
        asides.append(match.group(1) or match.group(2) or "")
        return " "

    text = _ABBREVIATION.sub(lambda m: m.group(1).replace(".", ""), normalize(text))
    main = _PARENTHETICAL.sub(lift, _SOFT_WRAP.sub(" ", text))
    parts = _CLAUSE_SPLIT.split(main) + [p for a in asides for p in _CLAUSE_SPLIT.split(a)]
    cleaned = (_LIST_MARK.sub("", re.sub(r"\s+", " ", p).strip(" ,*#>-")) for p in parts)
    return tuple(p for p in cleaned if p)


def is_hedged(clause: str) -> bool:
    """True when the clause is tentative or conditional, so it asserts no plan."""
    return bool(HEDGE_CUES.search(clause))


def is_historical(clause: str) -> bool:
    """True when the clause reports the past rather than the plan."""
    return bool(HISTORY_CUES.search(_TIMING_PRIOR.sub("before", clause)))


def negated_before(clause: str, start: int, window_words: int = 6) -> bool:
    """True when a negation cue precedes position ``start`` within a few words.

    A spaced dash ends the scope: in 'do not stop it abruptly - withdrawal is likely' the
    'not' does not reach 'withdrawal'.
    """
    prefix = _DASH.split(clause[:start])[-1].split()
    scope = " ".join(prefix[-window_words:])
    return bool(NEGATION_CUES.search(scope))


def negated_after(clause: str, end: int, window_words: int = 5) -> bool:
    """True for post-posed negation: 'levothyroxine increase is not recommended'.

    'CSU not well controlled' or 'anemia not improving' describe the course of a finding
    that is present, so they are not a denial of it.
    """
    suffix = " ".join(_DASH.split(clause[end:])[0].split()[:window_words])
    return bool(_POSTPOSED_NEGATION.match(suffix)) and not _COURSE_NOT.match(suffix)


_DASH = re.compile(r"(?<!\d)\s-+\s(?!\d)")


_POSTPOSED_NEGATION = re.compile(
    r"^(?:\S+\s+){0,2}(?:is|are|was|be|seems|appears)?\s*(?:not|no longer|contraindicated|"
    r"unnecessary|not indicated|not needed|unlikely|less likely|ruled out|excluded)\b")
_COURSE_NOT = re.compile(
    r"^(?:\S+\s+){0,2}(?:is\s+|are\s+|was\s+|remains?\s+|still\s+)?(?:not|no longer)\s+"
    r"(?:well\s+|adequately\s+|fully\s+|yet\s+|optimally\s+)?(?:controlled|responding|responsive|"
    r"improv\w*|better|resolved|suppressed|at goal|at target)\b")


@dataclass(frozen=True)
class Quantity:
    """A number read from text, with the unit written after it (normalized), if any."""

    value: float
    unit: str
    start: int
    end: int
    comparator: str = ""


def quantities(clause: str) -> list[Quantity]:
    """Every number in the clause, with the unit token that follows it.

    Units may be joined by a hyphen ('a 3-month course'); numbers one to twelve written as
    words count when a unit follows or they open a range ('two weeks', 'two to three weeks').
    """
    found = []
    for match in _NUMBER.finditer(clause):
        value = float(match.group(2).replace(",", "").replace("−", "-"))
        unit, end = _unit_after(clause, match.end())
        found.append(Quantity(value, unit, match.start(), end, (match.group(1) or "").strip()))
    for match in _WORD_NUMBER.finditer(clause):
        unit, end = _unit_after(clause, match.end())
        if unit or _RANGE_NEXT.match(clause, match.end()):
            found.append(Quantity(float(_NUMBER_WORDS.index(match.group(1)) + 1), unit,
                                  match.start(), end))
    found.sort(key=lambda quantity: quantity.start)
    return _share_range_units(clause, found)


def _unit_after(clause: str, position: int) -> tuple[str, int]:
    """The unit written after a number ending at ``position``, and where it ends."""
    if clause[position:position + 1] == "-" and clause[position + 1:position + 2].isalpha():
        position += 1
    unit_match = _UNIT_AFTER.match(clause, position)
    unit = unit_normalize(unit_match.group(1)) if unit_match else ""
    if not unit or not _looks_like_unit(unit):
        return "", position
    return unit, unit_match.end()


_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve")
_WORD_NUMBER = re.compile(rf"(?<![\w-])({'|'.join(_NUMBER_WORDS)})(?![\w])", re.IGNORECASE)
_RANGE_NEXT = re.compile(rf"\s*(?:-|to|or)\s*(?:\d|(?:{'|'.join(_NUMBER_WORDS)})\b)",
                         re.IGNORECASE)


def _share_range_units(clause: str, found: list[Quantity]) -> list[Quantity]:
    """Give '6-8 weeks' and '6 to 8 weeks' the unit of the range's end to its start."""
    shared = list(found)
    for i in range(len(shared) - 2, -1, -1):
        first, second = shared[i], shared[i + 1]
        between = clause[first.end:second.start].strip()
        if not first.unit and second.unit and between in ("-", "to", "or", "–"):
            shared[i] = Quantity(first.value, second.unit, first.start, first.end,
                                 first.comparator)
    return shared


_UNIT_ALIASES = {
    "ug": "mcg", "microgram": "mcg", "micrograms": "mcg", "mcgs": "mcg",
    "milligram": "mg", "milligrams": "mg", "mgs": "mg", "gram": "g", "grams": "g", "gm": "g",
    "miu/l": "miu/l", "mu/l": "miu/l", "uiu/ml": "miu/l", "uu/ml": "miu/l", "miu/ml": "miu/ml",
    "meq/l": "mmol/l", "mmol/l": "mmol/l", "mosm/kg": "mosm/kg", "mosm/kg h2o": "mosm/kg",
    "mosmol/kg": "mosm/kg", "iu/l": "u/l", "units/l": "u/l", "u/l": "u/l",
    "liter": "l", "liters": "l", "litre": "l", "litres": "l", "ltr": "l",
    "percent": "%", "pct": "%", "days": "d", "day": "d", "weeks": "wk", "week": "wk",
    "wks": "wk", "months": "mo", "month": "mo", "mos": "mo", "years": "y", "year": "y",
    "yrs": "y", "yr": "y", "hours": "h", "hour": "h", "hrs": "h", "hr": "h",
}


_UNIT_WORDS = frozenset({
    "mg", "mcg", "g", "kg", "lb", "lbs", "ml", "l", "dl", "liter", "liters", "litre", "litres",
    "mmol", "mol", "meq", "miu", "iu",
    "u", "units", "unit", "d", "wk", "mo", "y", "h", "min", "s", "sec", "mm", "cm", "m", "ng",
    "pg", "fl", "mosm", "%", "x", "cells", "k", "bpm", "mmhg", "tabs", "tab", "tablets",
    "tablet", "capsule", "capsules", "puffs", "drops", "qd", "bid", "tid", "qid", "mg/kg",
})


def _looks_like_unit(unit: str) -> bool:
    return unit in _UNIT_WORDS or "/" in unit or unit.endswith("%") or "^" in unit or (
        unit[:1].isdigit() and "*" in unit)


@functools.lru_cache(maxsize=1024)
def unit_normalize(unit: str) -> str:
    """Map a written unit to a canonical token ('ug' and 'µg' -> 'mcg', 'mU/L' -> 'miu/l')."""
    token = normalize(unit).strip(" .,")
    token = re.sub(r"\s*/\s*", "/", token)
    for suffix in ("/day", "/d", " daily", " qd"):
        if token.endswith(suffix) and token[: -len(suffix)] in ("mg", "mcg", "g"):
            token = token[: -len(suffix)]
    return _UNIT_ALIASES.get(token, token)


def find_terms(clause: str, patterns: tuple[re.Pattern[str], ...]) -> list[re.Match[str]]:
    """All non-overlapping matches of any of the compiled term patterns in the clause."""
    if not patterns:
        return []
    return list(_combined(patterns).finditer(clause))


@functools.lru_cache(maxsize=4096)
def _combined(patterns: tuple[re.Pattern[str], ...]) -> re.Pattern[str]:
    """One pattern matching what any of ``patterns`` matches, trying them in order.

    A run of whole-word terms shares one pair of word-boundary checks around an alternation,
    which matches exactly what the terms match one by one (the engine backtracks into the
    alternation) but lets it skip positions no term can start at: several times faster on
    long notes.
    """
    groups: list[str] = []
    words: list[str] = []
    for pattern in patterns:
        text = pattern.pattern
        if text.startswith(_WORD_START) and text.endswith(_WORD_END):
            words.append(text[len(_WORD_START):-len(_WORD_END)])
            continue
        if words:
            groups.append(f"{_WORD_START}(?:{'|'.join(words)}){_WORD_END}")
            words = []
        groups.append(f"(?:{text})")
    if words:
        groups.append(f"{_WORD_START}(?:{'|'.join(words)}){_WORD_END}")
    return re.compile("|".join(groups), re.IGNORECASE)


_WORD_START, _WORD_END = r"(?<![\w])", r"(?![\w])"


@functools.lru_cache(maxsize=4096)
def compile_terms(terms: tuple[str, ...], inflect: bool = False) -> tuple[re.Pattern[str], ...]:
    """Compile spec terms: plain words match whole words, case-insensitively; 're:' is a regex.

    With ``inflect`` the last word also matches its inflections (increase -> increasing,
    increased, increases), which is how verbs are written.
    """
    compiled = []
    for term in terms:
        if term.startswith("re:"):
            compiled.append(re.compile(term[3:], re.IGNORECASE))
            continue
        escaped = re.escape(normalize(term)).replace(r"\ ", r"[\s\-]*")
        if inflect and term[-1:].isalpha():
            stem = escaped[:-1] if escaped.endswith("e") else escaped
            ending = "(?:e|es|ed|ing|ion|ions)?" if escaped.endswith("e") else "(?:s|es|ed|ing)?"
            escaped = stem + ending
        compiled.append(re.compile(f"{_WORD_START}{escaped}{_WORD_END}", re.IGNORECASE))
    return tuple(compiled)
