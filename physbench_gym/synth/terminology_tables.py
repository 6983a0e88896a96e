"""The terminology tables' data model and format: systems, concepts, row validation.

Each table (LOINC, RxNorm, SNOMED CT + ICD-10-CM conditions, orderables) is a TSV file with a
fixed header; :func:`parse_table` turns one file's text into validated :class:`Concept` rows.
:mod:`physbench_gym.synth.terminology` loads, merges and indexes them.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from physbench_gym.errors import PhysBenchError

SYSTEMS: dict[str, str] = {
    "loinc": "http://loinc.org",
    "rxnorm": "http://www.nlm.nih.gov/research/umls/rxnorm",
    "snomed": "http://snomed.info/sct",
    "icd10cm": "http://hl7.org/fhir/sid/icd-10-cm",
    "cpt": "http://www.ama-assn.org/go/cpt",
    "ucum": "http://unitsofmeasure.org",
}
SHORT_NAMES = {uri: short for short, uri in SYSTEMS.items()}

TABLES: tuple[str, ...] = ("loinc", "rxnorm", "condition", "orderable")
SPECIALTIES: tuple[str, ...] = tuple(
    "cardiology endocrinology gastroenterology hepatology hematology oncology infectious_disease "
    "allergy_immunology rheumatology nephrology urology psychiatry neurology addiction_medicine "
    "pulmonology dermatology gynecology obstetrics otolaryngology geriatrics primary_care".split()
)
"""The 21 specialties of the benchmark, in a fixed order (the one list the package uses)."""
LOINC_KINDS = frozenset({"lab", "vital", "social", "note", "panel", "score"})
OBSERVATION_CATEGORIES = frozenset(
    {"laboratory", "vital-signs", "social-history", "survey", "exam"}
)
ROUTES = frozenset(
    {"oral", "sublingual", "intravenous", "subcutaneous", "topical", "nasal", "inhalation",
     "transdermal", "intramuscular"}
)
ORDER_CATEGORIES = frozenset({"laboratory", "imaging", "procedure", "referral", "counseling"})
SEXES: dict[str, tuple[str, str]] = {
    "male": ("248153007", "Male"),
    "female": ("248152002", "Female"),
}
"""The sexes a reference range may apply to, with the SNOMED CT codes of FHIR's value set
``referencerange-appliesto`` (``Observation.referenceRange.appliesTo``)."""

_COLUMNS: dict[str, tuple[str, ...]] = {
    "loinc": ("code", "display", "kind", "unit", "low", "high", "category", "source"),
    "rxnorm": (
        "code", "display", "ingredient", "strength", "dose_form", "route", "drug_class", "source"
    ),
    "condition": ("snomed", "icd10", "display", "specialty", "chronic", "source"),
    "orderable": ("system", "code", "display", "category", "source"),
}
_OPTIONAL_COLUMNS: dict[str, tuple[str, str]] = {"loinc": ("sex", "high")}
"""An optional column per table and the column it follows (``sex`` after ``high``)."""
FILES = {
    "loinc": "loinc.tsv",
    "rxnorm": "rxnorm.tsv",
    "condition": "conditions.tsv",
    "orderable": "orderables.tsv",
}
_LOINC_RE = re.compile(r"^\d{1,6}-\d$")
_ICD10_RE = re.compile(r"^[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})?$")
_CPT_RE = re.compile(r"^\d{4}[0-9A-Z]$")
_DIGITS_RE = re.compile(r"^\d+$")


class TerminologyDataError(PhysBenchError, ValueError):
    """A terminology table is malformed; the message names the file and line."""


class UnknownCodeError(PhysBenchError, KeyError):
    """A code is not in the terminology tables; the message suggests close matches."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown code"


@dataclass(frozen=True)
class ReferenceRange:
    """A reference range of a LOINC code, for one sex (``male``, ``female``) or any (None)."""

    low: float | None
    high: float | None
    sex: str | None = None
    source: str = ""


@dataclass(frozen=True)
class Concept:
    """One coded concept from a terminology table.

    ``low``/``high`` are the range that applies to any patient (None when the code has no
    range, or only ranges for one sex); ``ranges`` holds every range, per-sex ones included.
    """

    system: str
    code: str
    display: str
    table: str
    kind: str
    unit: str | None = None
    low: float | None = None
    high: float | None = None
    extra: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    source: str = ""
    ranges: tuple[ReferenceRange, ...] = ()

    def __post_init__(self) -> None:
        if not self.ranges and (self.low is not None or self.high is not None):
            object.__setattr__(self, "ranges", (ReferenceRange(self.low, self.high),))

    def coding(self) -> dict[str, str]:
        """The concept as a FHIR Coding (``system``, ``code``, ``display``)."""
        return {"system": self.system, "code": self.code, "display": self.display}

    def reference_range(self, gender: str | None = None) -> ReferenceRange | None:
        """The range for a patient of ``gender`` (FHIR ``Patient.gender``): that sex's own
        range if the code has one, else the range for any sex, else None."""
        by_sex = {found.sex: found for found in self.ranges}
        if gender in SEXES and gender in by_sex:
            return by_sex[gender]
        return by_sex.get(None)

    def ranges_for(self, gender: str | None = None) -> tuple[ReferenceRange, ...]:
        """The ranges a chart shows for a patient of ``gender``: the one that applies, or, for
        a patient of another or unknown gender when the code has only per-sex ranges, all
        of them (each naming its sex)."""
        chosen = self.reference_range(gender)
        return (chosen,) if chosen is not None else self.ranges


def loinc_check_digit_ok(code: str) -> bool:
    """Whether a LOINC code's final digit is its mod-10 check digit."""
    if not _LOINC_RE.match(code):
        return False
    number, check = code.split("-")
    total = 0
    for position, char in enumerate(reversed(number)):
        digit = int(char)
        if position % 2 == 0:
            digit *= 2
            digit = digit // 10 + digit % 10
        total += digit
    return (10 - total % 10) % 10 == int(check)


def snomed_concept_id_ok(code: str) -> bool:
    """Whether a string has the shape of a SNOMED CT concept id (digits, concept partition)."""
    if not _DIGITS_RE.match(code) or not 6 <= len(code) <= 18 or code[0] == "0":
        return False
    return code[-3:-1] in ("00", "10")


def ucum_plausible(unit: str) -> bool:
    """Whether a unit string looks like a UCUM code (no spaces, balanced brackets)."""
    if not unit or any(ch.isspace() for ch in unit) or not unit.isascii():
        return False
    return unit.count("[") == unit.count("]") and unit.count("{") == unit.count("}")


def _headers(table: str) -> list[tuple[str, ...]]:
    """The accepted headers of a table: the fixed one, and with its optional column."""
    columns = _COLUMNS[table]
    if table not in _OPTIONAL_COLUMNS:
        return [columns]
    optional, after = _OPTIONAL_COLUMNS[table]
    at = columns.index(after) + 1
    return [columns, columns[:at] + (optional,) + columns[at:]]


def _read_rows(table: str, text: str, name: str) -> list[tuple[int, dict[str, str]]]:
    reader = csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if tuple(header or ()) not in _headers(table):
        expected = " | ".join(_COLUMNS[table])
        message = f"{name}:1: header must be the tab-separated {expected}"
        if table in _OPTIONAL_COLUMNS:
            optional, after = _OPTIONAL_COLUMNS[table]
            message += f" (optionally with {optional} after {after})"
        raise TerminologyDataError(message)
    defaults = dict.fromkeys(_headers(table)[-1], "")
    rows = []
    for line_no, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) != len(header):
            raise TerminologyDataError(
                f"{name}:{line_no}: expected {len(header)} fields, found {len(fields)}"
            )
        values = {key: value.strip() for key, value in zip(header, fields, strict=True)}
        rows.append((line_no, {**defaults, **values}))
    return rows


class _RowError(Exception):
    """A row-level problem; the table parser adds the file name."""


def _fail(table: str, line_no: int, message: str) -> _RowError:
    return _RowError(f"{line_no}: {message}")


def _number(table: str, line_no: int, text: str, column: str) -> float | None:
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise _fail(table, line_no, f"{column} {text!r} is not a number") from None


def _require(condition: bool, table: str, line_no: int, message: str) -> None:
    if not condition:
        raise _fail(table, line_no, message)


def _loinc_concept(line_no: int, row: dict[str, str]) -> Concept:
    code, kind, unit, category = row["code"], row["kind"], row["unit"], row["category"]
    _require(loinc_check_digit_ok(code), "loinc", line_no, f"invalid LOINC code {code!r}")
    _require(kind in LOINC_KINDS, "loinc", line_no, f"unknown kind {kind!r}")
    if kind == "note":
        _require(not category, "loinc", line_no, "a note type has no observation category")
    else:
        _require(category in OBSERVATION_CATEGORIES, "loinc", line_no, f"bad category {category!r}")
    low = _number("loinc", line_no, row["low"], "low")
    high = _number("loinc", line_no, row["high"], "high")
    if low is not None or high is not None:
        _require(bool(unit), "loinc", line_no, "a quantitative code with a range needs a unit")
    if low is not None and high is not None:
        _require(low < high, "loinc", line_no, f"low {low} is not below high {high}")
    if unit:
        _require(ucum_plausible(unit), "loinc", line_no, f"implausible UCUM unit {unit!r}")
    sex = row["sex"] or None
    ranges: tuple[ReferenceRange, ...] = ()
    if sex is not None:
        _require(sex in SEXES, "loinc", line_no,
                 f"sex {sex!r} is not one of {', '.join(SEXES)} (or empty for any sex)")
        _require(low is not None or high is not None, "loinc", line_no,
                 f"a {sex} row needs a range (low or high)")
        ranges = (ReferenceRange(low, high, sex, row["source"]),)
        low = high = None
    elif low is not None or high is not None:
        ranges = (ReferenceRange(low, high, None, row["source"]),)
    return Concept(SYSTEMS["loinc"], code, row["display"], "loinc", kind, unit or None, low, high,
                   MappingProxyType({"category": category}), row["source"], ranges)


def merge_ranges(first: Concept, other: Concept) -> Concept:
    """``first`` with the reference ranges of ``other`` (the same LOINC code in another row or
    file) added: one range per sex, so a per-sex row joins the code's other rows.

    Raises:
        ValueError: the rows disagree on display, kind, category or unit, or give one sex
            (or any sex) two different ranges.
    """
    if first.display.lower() != other.display.lower():
        raise ValueError(f"code {other.code!r} is {other.display!r} here but {first.display!r}"
                         " in an earlier row")
    for what, mine, theirs in (("kind", first.kind, other.kind),
                               ("category", first.extra.get("category"),
                                other.extra.get("category"))):
        if mine != theirs:
            raise ValueError(f"code {other.code!r} has {what} {theirs!r} here but {mine!r} "
                             "in an earlier row")
    if first.unit and other.unit and first.unit != other.unit:
        raise ValueError(f"code {other.code!r} has unit {other.unit!r} here but "
                         f"{first.unit!r} in an earlier row")
    by_sex = {found.sex: found for found in first.ranges}
    added = []
    for found in other.ranges:
        known = by_sex.get(found.sex)
        if known is None:
            added.append(found)
        elif (known.low, known.high) != (found.low, found.high):
            who = f"the {found.sex} range" if found.sex else "the range"
            raise ValueError(f"code {other.code!r}: {who} is {found.low}-{found.high} here but "
                             f"{known.low}-{known.high} in an earlier row")
    if not added and (first.unit or not other.unit):
        return first
    order = {None: 0, **{sex: n + 1 for n, sex in enumerate(SEXES)}}
    ranges = tuple(sorted((*first.ranges, *added), key=lambda found: order[found.sex]))
    default = next((found for found in ranges if found.sex is None), None)
    return replace(first, unit=first.unit or other.unit, ranges=ranges,
                   low=default.low if default else None, high=default.high if default else None)


def _rxnorm_concept(line_no: int, row: dict[str, str]) -> Concept:
    code = row["code"]
    _require(bool(_DIGITS_RE.match(code)), "rxnorm", line_no, f"invalid RxCUI {code!r}")
    _require(row["route"] in ROUTES, "rxnorm", line_no, f"unknown route {row['route']!r}")
    for column in ("ingredient", "strength", "dose_form", "drug_class"):
        _require(bool(row[column]), "rxnorm", line_no, f"empty {column}")
    columns = ("ingredient", "strength", "dose_form", "route", "drug_class")
    extra = {key: row[key] for key in columns}
    return Concept(SYSTEMS["rxnorm"], code, row["display"], "rxnorm", "drug",
                   extra=MappingProxyType(extra), source=row["source"])


def _condition_concept(line_no: int, row: dict[str, str]) -> Concept:
    snomed, icd10 = row["snomed"], row["icd10"]
    _require(snomed_concept_id_ok(snomed), "condition", line_no, f"invalid SNOMED id {snomed!r}")
    _require(bool(_ICD10_RE.match(icd10)), "condition", line_no, f"invalid ICD-10-CM {icd10!r}")
    _require(row["specialty"] in SPECIALTIES, "condition", line_no,
             f"unknown specialty {row['specialty']!r}")
    _require(row["chronic"] in ("yes", "no"), "condition", line_no, "chronic must be yes or no")
    extra = {key: row[key] for key in ("icd10", "specialty", "chronic")}
    return Concept(SYSTEMS["snomed"], snomed, row["display"], "condition", "condition",
                   extra=MappingProxyType(extra), source=row["source"])


_ORDER_CODE_CHECKS = {
    "loinc": loinc_check_digit_ok,
    "cpt": lambda code: bool(_CPT_RE.match(code)),
    "snomed": snomed_concept_id_ok,
}


def _orderable_concept(line_no: int, row: dict[str, str]) -> Concept:
    system, code, category = row["system"], row["code"], row["category"]
    _require(system in _ORDER_CODE_CHECKS, "orderable", line_no, f"unknown system {system!r}")
    _require(_ORDER_CODE_CHECKS[system](code), "orderable", line_no,
             f"invalid {system} code {code!r}")
    _require(category in ORDER_CATEGORIES, "orderable", line_no, f"unknown category {category!r}")
    return Concept(SYSTEMS[system], code, row["display"], "orderable", category,
                   extra=MappingProxyType({"category": category}), source=row["source"])


_BUILDERS = {
    "loinc": _loinc_concept,
    "rxnorm": _rxnorm_concept,
    "condition": _condition_concept,
    "orderable": _orderable_concept,
}


def parse_table(table: str, text: str, name: str | None = None) -> tuple[Concept, ...]:
    """Parse and validate one table's TSV text (the format of the files in ``data/``).

    Raises:
        TerminologyDataError: the first problem found, prefixed with ``name:line``.
    """
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; tables are {', '.join(TABLES)}")
    name = name or FILES[table]
    concepts: dict[tuple[str, str], Concept] = {}
    seen: dict[tuple[str, str, str | None], int] = {}
    try:
        for line_no, row in _read_rows(table, text, name):
            code_column = "code" if table != "condition" else "snomed"
            _require(bool(row[code_column]), table, line_no, "empty code")
            _require(bool(row["display"]), table, line_no, "empty display")
            _require(bool(row["source"]), table, line_no, "empty source")
            concept = _BUILDERS[table](line_no, row)
            key = (concept.system, concept.code)
            sex = row.get("sex") or None
            if (*key, sex) in seen:
                first = seen[(*key, sex)]
                message = f"duplicate code {concept.code!r} (first on line {first})"
                raise _fail(table, line_no, message)
            seen[(*key, sex)] = line_no
            if key in concepts:
                try:
                    concept = merge_ranges(concepts[key], concept)
                except ValueError as error:
                    raise _fail(table, line_no, str(error)) from None
            concepts[key] = concept
    except _RowError as error:
        raise TerminologyDataError(f"{name}:{error}") from None
    return tuple(concepts.values())
