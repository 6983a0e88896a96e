"""The safety checks' tables: maximum doses, harmful duplications, allergy cross-reactivity.

Three TSV files in ``data/`` beside this module, one rule per row, every row with its source
(a label or guideline and the fact it supports), each with optional topic supplements
(``max_doses.<topic>.tsv``) read after it. Names are matched in lower case.

``max_doses.tsv``: ``ingredient`` (the terminology's product ingredient, e.g.
``acetaminophen / oxycodone hydrochloride``), ``route``, ``component`` (for a combination, the
ingredient the row limits; empty otherwise), ``max_daily`` and ``max_per_dose`` in ``unit``,
``min_interval_days`` (the shortest labeled interval of a weekly-or-rarer drug),
``renal_limits`` (``crcl<30:avoid; crcl<50:999``: below a creatinine clearance or eGFR, the
daily maximum or ``avoid``; the lowest threshold the patient is under applies), ``source``.
An empty limit is not checked.

``duplication_classes.tsv``: ``name``, ``members`` (drug classes or ingredients, ``|``
separated), ``versus`` (when set, a duplication pairs a member with one of these, e.g. an
opioid with naltrexone; when empty, any two different members), ``max_overlap_days`` (the
longest overlap of a planned transition the class allows - a cross-taper, a bridge - or 0
when the first drug must be stopped first), ``allowed_when``, ``source``.

``allergy_cross_reactivity.tsv``: ``allergen_terms`` (words of an AllergyIntolerance record),
``avoid_ingredients``, ``avoid_classes``, ``strength`` (``avoid`` or ``caution``), ``note``,
``source``.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from dataclasses import dataclass
from importlib import resources

from physbench_gym.errors import PhysBenchError

MAX_DOSES = "max_doses.tsv"
DUPLICATIONS = "duplication_classes.tsv"
CROSS_REACTIVITY = "allergy_cross_reactivity.tsv"
_COLUMNS = {
    MAX_DOSES: ("ingredient", "route", "component", "max_daily", "unit", "max_per_dose",
                "min_interval_days", "renal_limits", "source"),
    DUPLICATIONS: ("name", "members", "versus", "max_overlap_days", "allowed_when", "source"),
    CROSS_REACTIVITY: ("allergen_terms", "avoid_ingredients", "avoid_classes", "strength",
                       "note", "source"),
}
_RENAL = re.compile(r"^(crcl|egfr)<(\d+(?:\.\d+)?):(avoid|\d+(?:\.\d+)?)$")


class SafetyDataError(PhysBenchError, ValueError):
    """A safety table is malformed; the message names the file and line."""


@dataclass(frozen=True)
class RenalLimit:
    """Below ``below`` (mL/min, by ``measure``: 'crcl' or 'egfr') the daily maximum, or
    avoid the drug when ``max_daily`` is None."""

    measure: str
    below: float
    max_daily: float | None


@dataclass(frozen=True)
class DoseLimit:
    """A row of ``max_doses.tsv``."""

    ingredient: str
    route: str
    component: str
    unit: str
    max_daily: float | None
    max_per_dose: float | None
    min_interval_days: float | None
    renal: tuple[RenalLimit, ...]
    source: str

    @property
    def limited(self) -> str:
        """The ingredient the limit is about (the component of a combination)."""
        return self.component or self.ingredient


@dataclass(frozen=True)
class DuplicationClass:
    """A row of ``duplication_classes.tsv``."""

    name: str
    members: frozenset[str]
    versus: frozenset[str]
    max_overlap_days: float
    allowed_when: str
    source: str


@dataclass(frozen=True)
class CrossReactivity:
    """A row of ``allergy_cross_reactivity.tsv``."""

    allergen_terms: tuple[str, ...]
    avoid_ingredients: frozenset[str]
    avoid_classes: frozenset[str]
    strength: str
    note: str
    source: str


@functools.cache
def dose_limits() -> dict[tuple[str, str], tuple[DoseLimit, ...]]:
    """The maximum-dose rows by (ingredient, route)."""
    found: dict[tuple[str, str], list[DoseLimit]] = {}
    for where, row in _rows(MAX_DOSES):
        limit = DoseLimit(
            row["ingredient"].lower(), row["route"].lower(), row["component"].lower(),
            row["unit"], _number(where, row, "max_daily"), _number(where, row, "max_per_dose"),
            _number(where, row, "min_interval_days"), _renal(where, row["renal_limits"]),
            row["source"])
        if not limit.unit:
            raise SafetyDataError(f"{where}: empty unit")
        found.setdefault((limit.ingredient, limit.route), []).append(limit)
    return {key: tuple(rows) for key, rows in found.items()}


@functools.cache
def duplication_classes() -> tuple[DuplicationClass, ...]:
    """The classes whose two agents together are a harmful duplication."""
    found = []
    for where, row in _rows(DUPLICATIONS):
        overlap = _number(where, row, "max_overlap_days")
        if overlap is None or not _names(row["members"]):
            raise SafetyDataError(f"{where}: members and max_overlap_days are required")
        found.append(DuplicationClass(row["name"], _names(row["members"]), _names(row["versus"]),
                                      overlap, row["allowed_when"], row["source"]))
    return tuple(found)


@functools.cache
def cross_reactivities() -> tuple[CrossReactivity, ...]:
    """The allergy rows: which drugs a recorded allergen rules out or calls for caution."""
    found = []
    for where, row in _rows(CROSS_REACTIVITY):
        if row["strength"] not in ("avoid", "caution"):
            raise SafetyDataError(f"{where}: strength must be avoid or caution")
        terms = tuple(sorted(_names(row["allergen_terms"])))
        if not terms:
            raise SafetyDataError(f"{where}: no allergen_terms")
        found.append(CrossReactivity(terms, _names(row["avoid_ingredients"]),
                                     _names(row["avoid_classes"]), row["strength"], row["note"],
                                     row["source"]))
    return tuple(found)


def _rows(name: str) -> list[tuple[str, dict[str, str]]]:
    """The table's rows, from its main file and then its topic supplements
    (``<file stem>.<topic>.tsv``, as the terminology tables): a task adds the rows of the
    drugs it brings with the rest of its data."""
    folder = resources.files("physbench_gym.grading").joinpath("data")
    stem = name.removesuffix(".tsv")
    files = [name] + sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(
        f"{stem}.") and entry.name.endswith(".tsv") and entry.name != name)
    rows = []
    for file in files:
        text = folder.joinpath(file).read_text("utf-8")
        reader = csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
        header = tuple(next(reader, ()))
        if header != _COLUMNS[name]:
            raise SafetyDataError(f"{file}:1: header must be {' | '.join(_COLUMNS[name])}")
        for line, fields in enumerate(reader, start=2):
            if not fields:
                continue
            where = f"{file}:{line}"
            if len(fields) != len(header):
                raise SafetyDataError(
                    f"{where}: expected {len(header)} fields, found {len(fields)}")
            row = {key: value.strip() for key, value in zip(header, fields, strict=True)}
            if not row["source"]:
                raise SafetyDataError(f"{where}: empty source")
            rows.append((where, row))
    return rows


def _names(text: str) -> frozenset[str]:
    return frozenset(part.strip().lower() for part in text.split("|") if part.strip())


def _number(where: str, row: dict[str, str], column: str) -> float | None:
    if not row[column]:
        return None
    try:
        return float(row[column])
    except ValueError:
        raise SafetyDataError(f"{where}: {column} {row[column]!r} is not a number") from None


def _renal(where: str, text: str) -> tuple[RenalLimit, ...]:
    limits = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        match = _RENAL.match(part)
        if match is None:
            raise SafetyDataError(f"{where}: renal limit {part!r} is not like 'crcl<30:avoid'")
        limit = None if match[3] == "avoid" else float(match[3])
        limits.append(RenalLimit(match[1], float(match[2]), limit))
    return tuple(sorted(limits, key=lambda limit: limit.below))
