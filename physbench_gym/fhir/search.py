"""Search queries: parsing the R4 query string and matching one resource against it.

:func:`parse_query` turns ``(name, value)`` pairs into a :class:`SearchQuery` or raises
:class:`OperationFailed` (400) naming the problem; :mod:`results` executes it over a store view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from physbench_gym.fhir.operation_outcome import OperationFailed, make_issue
from physbench_gym.fhir.search_params import RESULT_PARAMS, SEARCH_PARAMS, SearchParam
from physbench_gym.fhir.store import Entry
from physbench_gym.fhir.values import date_range, fold, reference_key, token_texts, walk

PREFIXES = ("eq", "ne", "gt", "lt", "ge", "le", "sa", "eb", "ap")
MODIFIERS = {
    "token": ("not", "text", "missing"),
    "string": ("exact", "contains", "missing"),
    "reference": ("missing",),
    "date": ("missing",),
    "quantity": ("missing",),
    "number": ("missing",),
    "uri": ("below", "above", "missing"),
}
SUMMARY_MODES = ("count", "data", "text", "false")
TOTAL_MODES = ("none", "estimate", "accurate")
JSON_FORMATS = ("json", "application/json", "application/fhir+json", "application/json+fhir")
_PREFIXED = re.compile(r"(eq|ne|gt|lt|ge|le|sa|eb|ap)?(.*)", re.S)
_TYPE_NAME = re.compile(r"[A-Z][A-Za-z]{1,63}")
_APPROX_DAYS = 86400.0

ValueTest = Callable[[Any], bool]


@dataclass(eq=False)
class Criterion:
    """One search parameter occurrence: values ORed; occurrences of a query are ANDed.

    Most criteria test each normalised value of the parameter (``value_test``); a few need the
    whole resource (``entry_test``). ``index_keys`` are exact keys of the base's token/reference
    index that find the same resources; ``prefixes`` do so for a string index.
    """

    param: SearchParam
    value_test: ValueTest | None = None
    entry_test: Callable[[Entry], bool] | None = None
    negate: bool = False
    index_keys: list[str] | None = None
    prefixes: list[str] | None = None

    def matches(self, entry: Entry) -> bool:
        """Whether a stored resource satisfies this criterion."""
        return bool(self.filter([entry]))

    def filter(self, entries: list[Entry]) -> list[Entry]:
        """The entries that satisfy this criterion, in order."""
        if self.entry_test is not None:
            return [e for e in entries if self.entry_test(e)]
        param, test, values = self.param, self.value_test, Entry.values
        assert test is not None
        if self.negate:
            return [e for e in entries if not any(map(test, values(e, param)))]
        return [e for e in entries if any(map(test, values(e, param)))]


def _any_of(tests: list[ValueTest]) -> ValueTest:
    if len(tests) == 1:
        return tests[0]
    return lambda value: any(test(value) for test in tests)


@dataclass
class SearchQuery:
    """A parsed search: criteria plus the result controls (shared once parsed: read only)."""

    resource_type: str
    criteria: list[Criterion] = field(default_factory=list)
    ids: list[str] | None = None
    count: int = 20
    offset: int = 0
    sort: list[tuple[SearchParam, bool]] = field(default_factory=list)
    includes: list[tuple[str, SearchParam, str | None]] = field(default_factory=list)
    revincludes: list[tuple[str, SearchParam, str | None]] = field(default_factory=list)
    summary: str | None = None
    total: str = "accurate"
    elements: list[str] | None = None
    link_pairs: list[tuple[str, str]] = field(default_factory=list)


def bad(diagnostics: str, expression: str | None = None, code: str = "invalid") -> OperationFailed:
    """A 400 failure about the query."""
    return OperationFailed(400, [make_issue(code, diagnostics, expression)])


def split_values(value: str) -> list[str]:
    """Split a parameter value on unescaped commas (OR semantics)."""
    if "\\" not in value:
        return value.split(",")
    return [part.replace("\\,", ",") for part in re.split(r"(?<!\\),", value)]


def parse_query(
    resource_type: str, pairs: Sequence[tuple[str, str]], *, default_count: int, max_count: int
) -> SearchQuery:
    """Parse a search's query pairs; raises OperationFailed (400) on any invalid part.

    Agents repeat their searches, so parsed queries are kept (a few thousand): a query is
    shared by every search that parses to it, and nothing may change it after parsing.
    """
    return _parse(resource_type, tuple((name, value) for name, value in pairs),
                  default_count, max_count)


@lru_cache(maxsize=4096)
def _parse(resource_type: str, pairs: tuple[tuple[str, str], ...], default_count: int,
           max_count: int) -> SearchQuery:
    params = SEARCH_PARAMS[resource_type]
    query = SearchQuery(resource_type, count=default_count)
    problems: list[OperationFailed] = []
    for name, value in pairs:
        try:
            if name in RESULT_PARAMS:
                _control(query, name, value, max_count)
            else:
                _criterion(query, params, name, value)
        except OperationFailed as failure:
            problems.append(failure)
        if name not in ("_offset", "_count"):
            query.link_pairs.append((name, value))
    if problems:
        raise OperationFailed(400, [issue for p in problems for issue in p.issues])
    return query


def _criterion(query: SearchQuery, params: dict[str, SearchParam], name: str, value: str) -> None:
    base, _, modifier = name.partition(":")
    if "." in base:
        raise bad(f"Chained search ('{name}') is not supported", name, "not-supported")
    param = params.get(base)
    if param is None:
        valid = ", ".join(list(params) + list(RESULT_PARAMS))
        raise bad(f"Unknown search parameter '{base}' for resource type {query.resource_type}. "
                  f"Valid search parameters for this search are: [{valid}]", name, "not-supported")
    if modifier and modifier not in MODIFIERS[param.type] and not (
            param.type == "reference" and _TYPE_NAME.fullmatch(modifier)):
        raise bad(f"Modifier ':{modifier}' is not supported on {param.type} parameter "
                  f"'{base}' (supported: {', '.join(MODIFIERS[param.type])})", name,
                  "not-supported")
    if value == "":
        raise bad(f"Search parameter '{name}' has an empty value", name)
    if modifier == "missing":
        query.criteria.append(_missing(param, name, value))
    elif param.name == "_id":
        ids = split_values(value)
        query.ids = ids if query.ids is None else [i for i in query.ids if i in ids]
    else:
        query.criteria.append(_BUILDERS[param.type](param, name, modifier, split_values(value)))


def _missing(param: SearchParam, name: str, value: str) -> Criterion:
    if value not in ("true", "false"):
        raise bad(f"':missing' takes true or false, not '{value}'", name)
    want_missing = value == "true"
    return Criterion(param, entry_test=lambda e: (not walk(e.resource, param.steps)) ==
                     want_missing)


def _token(param: SearchParam, name: str, modifier: str, values: list[str]) -> Criterion:
    if modifier == "text":
        needles = [re.compile(r"(?:^|\W)" + re.escape(fold(v))) for v in values]

        def text_match(entry: Entry) -> bool:
            texts = [fold(t) for el in walk(entry.resource, param.steps) for t in token_texts(el)]
            return any(n.search(t) for n in needles for t in texts)

        return Criterion(param, entry_test=text_match)
    test = _any_of([_token_test(v) for v in values])
    if modifier == "not":
        return Criterion(param, test, negate=True)
    return Criterion(param, test, index_keys=values)


def _token_test(value: str) -> Callable[[tuple[str | None, str]], bool]:
    if "|" not in value:
        return lambda pair: pair[1] == value
    system, code = value.split("|", 1)
    if not system:
        return lambda pair: pair[0] is None and pair[1] == code
    if not code:
        return lambda pair: pair[0] == system
    return lambda pair: pair[0] == system and pair[1] == code


def _string(param: SearchParam, name: str, modifier: str, values: list[str]) -> Criterion:
    if modifier == "exact":
        exact = set(values)
        return Criterion(param, exact.__contains__)
    needles = [fold(v) for v in values]
    if modifier == "contains":
        return Criterion(param, lambda s: any(n in fold(s) for n in needles))
    starts = tuple(needles)
    return Criterion(param, lambda s: fold(s).startswith(starts), prefixes=needles)


def _reference(param: SearchParam, name: str, modifier: str, values: list[str]) -> Criterion:
    keys = []
    for value in values:
        key = reference_key(value) if "/" in value else value
        if modifier:
            key = f"{modifier}/{key.rsplit('/', 1)[-1]}"
        keys.append(key)
    exact = {k for k in keys if "/" in k}
    bare = {k for k in keys if "/" not in k}

    def test(value: str) -> bool:
        return value in exact or (bool(bare) and value.rsplit("/", 1)[-1] in bare)

    return Criterion(param, test, index_keys=keys)


def _uri(param: SearchParam, name: str, modifier: str, values: list[str]) -> Criterion:
    if modifier == "below":
        return Criterion(param, lambda s: s.startswith(tuple(values)))
    if modifier == "above":
        return Criterion(param, lambda s: any(v.startswith(s) for v in values))
    return Criterion(param, set(values).__contains__)


def _date(param: SearchParam, name: str, modifier: str, values: list[str]) -> Criterion:
    return Criterion(param, _any_of([_date_test(name, v) for v in values]))


def _date_test(name: str, value: str) -> Callable[[tuple[float, float]], bool]:
    match = _PREFIXED.fullmatch(value)
    assert match is not None
    prefix, text = match.group(1) or "eq", match.group(2)
    try:
        low, high = date_range(text)
    except ValueError as error:
        raise bad(f"Invalid date value '{value}' for parameter '{name}': {error}. Use "
                  f"[prefix]YYYY[-MM[-DD[Thh:mm[:ss][Z|+hh:mm]]]] with prefix one of "
                  f"{', '.join(PREFIXES)}", name) from None
    if prefix == "ap":
        slack = max(_APPROX_DAYS, (high - low) * 0.1)
        low, high = low - slack, high + slack
    return _DATE_TESTS[prefix](low, high)


_DATE_TESTS: dict[str, Callable[[float, float], Callable[[tuple[float, float]], bool]]] = {
    "eq": lambda lo, hi: lambda t: lo <= t[0] and t[1] <= hi,
    "ne": lambda lo, hi: lambda t: not (lo <= t[0] and t[1] <= hi),
    "gt": lambda lo, hi: lambda t: t[1] > hi,
    "lt": lambda lo, hi: lambda t: t[0] < lo,
    "ge": lambda lo, hi: lambda t: t[1] > lo,
    "le": lambda lo, hi: lambda t: t[0] < hi,
    "sa": lambda lo, hi: lambda t: t[0] >= hi,
    "eb": lambda lo, hi: lambda t: t[1] <= lo,
    "ap": lambda lo, hi: lambda t: t[0] < hi and t[1] > lo,
}


def _quantity(param: SearchParam, name: str, modifier: str, values: list[str]) -> Criterion:
    return Criterion(param, _any_of([_quantity_test(param, name, v) for v in values]))


def _quantity_test(param: SearchParam, name: str, value: str) -> Callable[[Any], bool]:
    match = _PREFIXED.fullmatch(value)
    assert match is not None
    prefix, text = match.group(1) or "eq", match.group(2)
    parts = text.split("|")
    if len(parts) not in (1, 3) or (len(parts) == 3 and param.type == "number"):
        raise bad(f"Invalid {param.type} value '{value}' for '{name}': expected "
                  f"[prefix]number" + ("|system|code" if param.type == "quantity" else ""), name)
    try:
        number = float(parts[0])
    except ValueError:
        raise bad(f"Invalid number '{parts[0]}' in '{name}={value}'", name) from None
    system, code = (parts[1] or None, parts[2] or None) if len(parts) == 3 else (None, None)
    decimals = len(parts[0].split(".", 1)[1]) if "." in parts[0] else 0
    half = 0.5 * 10 ** -decimals
    compare = _NUMBER_TESTS[prefix](number, half)

    def test(target: Any) -> bool:
        amount, target_system, target_code, unit = target
        if code is not None and code not in (target_code, unit):
            return False
        if system is not None and system != target_system:
            return False
        return compare(amount)

    return test


_NUMBER_TESTS: dict[str, Callable[[float, float], Callable[[float], bool]]] = {
    "eq": lambda n, h: lambda v: n - h <= v < n + h,
    "ne": lambda n, h: lambda v: not (n - h <= v < n + h),
    "gt": lambda n, h: lambda v: v > n,
    "lt": lambda n, h: lambda v: v < n,
    "ge": lambda n, h: lambda v: v >= n,
    "le": lambda n, h: lambda v: v <= n,
    "sa": lambda n, h: lambda v: v > n,
    "eb": lambda n, h: lambda v: v < n,
    "ap": lambda n, h: lambda v: abs(v - n) <= max(abs(n) * 0.1, h),
}

_BUILDERS: dict[str, Callable[[SearchParam, str, str, list[str]], Criterion]] = {
    "token": _token, "string": _string, "reference": _reference, "uri": _uri,
    "date": _date, "quantity": _quantity, "number": _quantity,
}


def _control(query: SearchQuery, name: str, value: str, max_count: int) -> None:
    if name in ("_count", "_offset"):
        number = _non_negative(name, value)
        if name == "_count":
            query.count = min(number, max_count)
        else:
            query.offset = number
    elif name == "_sort":
        query.sort = [_sort_key(query.resource_type, part) for part in value.split(",")]
    elif name in ("_include", "_revinclude"):
        target = query.includes if name == "_include" else query.revincludes
        target.append(_include_spec(name, value))
    elif name == "_summary":
        if value not in SUMMARY_MODES:
            raise bad(f"_summary={value} is not supported (supported: "
                      f"{', '.join(SUMMARY_MODES)})", name, "not-supported")
        query.summary = value
    elif name == "_total":
        if value not in TOTAL_MODES:
            raise bad(f"_total must be one of {', '.join(TOTAL_MODES)}", name)
        query.total = value
    elif name == "_elements":
        query.elements = [part.strip() for part in value.split(",") if part.strip()]
    elif name == "_format" and value not in JSON_FORMATS:
        raise OperationFailed(406, [make_issue(
            "not-supported", f"_format={value}: only JSON is supported", name)])


def _non_negative(name: str, value: str) -> int:
    if not (value.isascii() and value.isdigit()) or len(value) > 9:
        raise bad(f"{name} must be a non-negative integer, not '{value[:40]}'", name)
    return int(value)


def _sort_key(resource_type: str, part: str) -> tuple[SearchParam, bool]:
    descending = part.startswith("-")
    name = part[1:] if descending else part
    param = SEARCH_PARAMS[resource_type].get(name)
    if param is None:
        valid = ", ".join(SEARCH_PARAMS[resource_type])
        raise bad(f"Cannot sort on unknown parameter '{name}' of {resource_type}; valid: "
                  f"[{valid}]", "_sort", "not-supported")
    return param, descending


def _include_spec(name: str, value: str) -> tuple[str, SearchParam, str | None]:
    parts = value.split(":")
    source = parts[0]
    if len(parts) not in (2, 3) or source not in SEARCH_PARAMS:
        raise bad(f"{name}={value} must be SourceType:parameter[:TargetType] with a supported "
                  f"source type", name)
    param = SEARCH_PARAMS[source].get(parts[1])
    if param is None or param.type != "reference":
        refs = [p.name for p in SEARCH_PARAMS[source].values() if p.type == "reference"]
        raise bad(f"{name}: '{parts[1]}' is not a reference parameter of {source}; valid: "
                  f"[{', '.join(refs)}]", name, "not-supported")
    return source, param, parts[2] if len(parts) == 3 else None
