"""Clinical terminology tables (LOINC, RxNorm, SNOMED CT + ICD-10-CM, orderables) and lookups.

The tables are TSV files in ``data/`` beside this module, one concept per row, each with the
place where its code was checked (their format: ``terminology_tables``). They are read once,
validated, merged with their topic supplements and indexed on first use.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from physbench_gym.synth.terminology_tables import (
    FILES,
    SHORT_NAMES,
    SPECIALTIES,
    SYSTEMS,
    TABLES,
    Concept,
    ReferenceRange,
    TerminologyDataError,
    UnknownCodeError,
    merge_ranges,
    parse_table,
)

_WORD_RE = re.compile(r"[a-z0-9]+(?:[.][0-9]+)?")


@dataclass(frozen=True)
class _Index:
    concepts: dict[str, tuple[Concept, ...]]
    by_system: dict[str, dict[str, Concept]]


def _load_table(table: str) -> tuple[Concept, ...]:
    """The table's main file plus its supplements (``<file stem>.<topic>.tsv``).

    A code may appear in several files only with the same display; the first file wins. A LOINC
    code's reference ranges are merged: each file may add the range of a sex the earlier files
    lack (``sex`` column), but may not give a sex (or any sex) another range.
    """
    folder = resources.files("physbench_gym.synth").joinpath("data")
    stem = FILES[table].removesuffix(".tsv")
    names = [FILES[table]] + sorted(
        entry.name for entry in folder.iterdir()
        if entry.name.startswith(f"{stem}.") and entry.name.endswith(".tsv")
        and entry.name != FILES[table])
    merged: dict[tuple[str, str], Concept] = {}
    for name in names:
        for concept in parse_table(table, folder.joinpath(name).read_text("utf-8"), name):
            key = (concept.system, concept.code)
            first = merged.setdefault(key, concept)
            if first.display.lower() != concept.display.lower():
                raise TerminologyDataError(
                    f"{name}: code {concept.code!r} is {concept.display!r} here but "
                    f"{first.display!r} in an earlier file")
            if table == "loinc" and first is not concept:
                try:
                    merged[key] = merge_ranges(first, concept)
                except ValueError as error:
                    raise TerminologyDataError(
                        f"{name}: {str(error).replace('earlier row', 'earlier file')}") from None
    return tuple(merged.values())


@functools.cache
def _index() -> _Index:
    concepts = {table: _load_table(table) for table in TABLES}
    by_system: dict[str, dict[str, Concept]] = {uri: {} for uri in SYSTEMS.values()}
    for table in ("orderable", "condition", "rxnorm", "loinc"):
        for concept in concepts[table]:
            by_system[concept.system][concept.code] = concept
    icd10 = by_system[SYSTEMS["icd10cm"]]
    for concept in concepts["condition"]:
        code = concept.extra["icd10"]
        icd10.setdefault(code, Concept(
            SYSTEMS["icd10cm"], code, concept.display, "condition", "condition",
            extra=MappingProxyType({**concept.extra, "snomed": concept.code}),
            source=concept.source,
        ))
    return _Index(concepts, by_system)


def all_concepts(table: str) -> tuple[Concept, ...]:
    """Every concept of one table (``loinc``, ``rxnorm``, ``condition`` or ``orderable``)."""
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; tables are {', '.join(TABLES)}")
    return _index().concepts[table]


def _system_uri(system: str) -> str:
    if system in SYSTEMS:
        return SYSTEMS[system]
    if system in SHORT_NAMES:
        return system
    raise UnknownCodeError(
        f"unknown code system {system!r}; use one of {', '.join(SYSTEMS)} or their URIs"
    )


def _unknown(system_uri: str, code: str, candidates: Mapping[str, Concept]) -> UnknownCodeError:
    name = SHORT_NAMES[system_uri]
    close = difflib.get_close_matches(code, list(candidates), n=3, cutoff=0.6)
    if close:
        hints = ", ".join(f"{c!r} ({candidates[c].display})" for c in close)
        return UnknownCodeError(f"unknown {name} code {code!r}; did you mean {hints}?")
    return UnknownCodeError(f"unknown {name} code {code!r}; no close match in the tables")


def lookup(system: str, code: str) -> Concept:
    """The concept for ``code`` in ``system`` (a URI or short name such as ``"loinc"``).

    Raises:
        UnknownCodeError: a ``KeyError`` whose message suggests close codes ("did you mean").
    """
    uri = _system_uri(system)
    candidates = _index().by_system[uri]
    concept = candidates.get(code.strip())
    if concept is None:
        raise _unknown(uri, code, candidates)
    return concept


def _lookup_in_table(table: str, system: str, code: str) -> Concept:
    uri = SYSTEMS[system]
    candidates = {c.code: c for c in all_concepts(table) if c.system == uri}
    concept = candidates.get(code.strip())
    if concept is None:
        raise _unknown(uri, code, candidates)
    return concept


def loinc(code: str) -> Concept:
    """A LOINC lab, vital, social-history, score, panel or note-type concept."""
    return _lookup_in_table("loinc", "loinc", code)


def rxnorm(code: str) -> Concept:
    """An RxNorm clinical drug (SCD) concept."""
    return _lookup_in_table("rxnorm", "rxnorm", code)


def condition(snomed_code: str) -> Concept:
    """A condition by SNOMED CT id; ``extra["icd10"]`` holds its ICD-10-CM code."""
    return _lookup_in_table("condition", "snomed", snomed_code)


def condition_codings(snomed_code: str) -> list[dict[str, str]]:
    """The SNOMED CT and ICD-10-CM Codings of a condition, in that order."""
    concept = condition(snomed_code)
    icd10 = _index().by_system[SYSTEMS["icd10cm"]][concept.extra["icd10"]]
    icd10_coding = {"system": icd10.system, "code": icd10.code, "display": concept.display}
    return [concept.coding(), icd10_coding]


def orderable(code: str, system: str | None = None) -> Concept:
    """A ServiceRequest orderable by code, optionally restricted to one system."""
    concepts = all_concepts("orderable")
    if system is not None:
        uri = _system_uri(system)
        candidates = {c.code: c for c in concepts if c.system == uri}
        if code.strip() in candidates:
            return candidates[code.strip()]
        raise _unknown(uri, code, candidates)
    matches = [c for c in concepts if c.code == code.strip()]
    if len(matches) == 1:
        return matches[0]
    if matches:
        systems = ", ".join(SHORT_NAMES[c.system] for c in matches)
        raise UnknownCodeError(f"orderable code {code!r} exists in {systems}; pass system=")
    close = difflib.get_close_matches(code, [c.code for c in concepts], n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else "; no close match"
    raise UnknownCodeError(f"unknown orderable code {code!r}{hint}")


def _words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower())


def search(
    text: str, *, table: str | None = None, kind: str | None = None, limit: int = 10
) -> list[Concept]:
    """Concepts whose display (or drug ingredient) contains every word of ``text``.

    Words match case-insensitively on word starts ("atorva" finds atorvastatin); whole-word
    matches and shorter displays rank first.
    """
    query = _words(text)
    if not query:
        return []
    tables = (table,) if table is not None else TABLES
    scored: list[tuple[int, int, int, Concept]] = []
    order = 0
    for name in tables:
        for concept in all_concepts(name):
            order += 1
            if kind is not None and concept.kind != kind:
                continue
            words = _words(f"{concept.display} {concept.extra.get('ingredient', '')}")
            exact = 0
            for term in query:
                if term in words:
                    exact += 1
                elif not any(word.startswith(term) for word in words):
                    break
            else:
                scored.append((-exact, len(concept.display), order, concept))
    scored.sort(key=lambda item: item[:3])
    return [concept for *_, concept in scored[:limit]]


__all__ = [
    "SPECIALTIES",
    "SYSTEMS",
    "TABLES",
    "Concept",
    "ReferenceRange",
    "TerminologyDataError",
    "UnknownCodeError",
    "all_concepts",
    "condition",
    "condition_codings",
    "loinc",
    "lookup",
    "orderable",
    "parse_table",
    "rxnorm",
    "search",
]
