"""One stored version of a resource: a compact marshal blob plus cached search values.

Every read decodes a fresh copy of the blob, so nothing a caller holds can reach what is
stored; the normalised values each search parameter sees are computed once per entry and kept,
and the sort key a ``_sort`` reads is derived from them without decoding the resource. A stored
version never changes, so anything computed from it alone (such as the text an agent is shown)
can be kept with it too (:meth:`Entry.derived`).
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable, Iterable
from operator import attrgetter, itemgetter
from typing import Any, TypeVar

from physbench_gym.fhir.search_params import SearchParam
from physbench_gym.fhir.values import INF, normalized

JsonObject = dict[str, Any]
SortSpec = list[tuple[SearchParam, bool]]
T = TypeVar("T")
_BY_ID = attrgetter("id")
_FIRST = itemgetter(0)


class Entry:
    """One stored version of a resource, kept as a compact marshal blob.

    Every access to :attr:`resource` decodes a fresh copy, so nothing stored can be changed by
    a caller; normalised search values are computed once and cached.
    """

    __slots__ = ("resource_type", "id", "key", "version_id", "last_updated", "_blob",
                 "_values", "_derived")

    def __init__(self, resource: JsonObject) -> None:
        clean = json.loads(json.dumps(resource))
        self.resource_type: str = clean["resourceType"]
        self.id: str = clean["id"]
        self.key: str = f"{self.resource_type}/{self.id}"
        meta = clean.get("meta") if isinstance(clean.get("meta"), dict) else {}
        self.version_id = str(meta.get("versionId", "1"))
        updated = meta.get("lastUpdated")
        self.last_updated: str | None = updated if isinstance(updated, str) else None
        self._blob = marshal.dumps(clean)
        self._values: dict[str, tuple[Any, ...]] | None = None
        self._derived: dict[Callable[[JsonObject], Any], Any] | None = None

    @property
    def resource(self) -> JsonObject:
        """A fresh, independent copy of the resource."""
        return marshal.loads(self._blob)

    def copy(self) -> JsonObject:
        """A fresh, independent copy of the resource for a response."""
        return marshal.loads(self._blob)

    def derived(self, compute: Callable[[JsonObject], T]) -> T:
        """``compute(resource)`` for this version, computed on first use and then kept.

        ``compute`` must be a pure function of the resource, and its result immutable (a
        string, a tuple): every caller asking for it gets the same object.
        """
        cache = self._derived
        if cache is None:
            cache = self._derived = {}
        try:
            return cache[compute]
        except KeyError:
            found = cache[compute] = compute(marshal.loads(self._blob))
            return found

    def values(self, param: SearchParam) -> tuple[Any, ...]:
        """The normalised values of ``param`` in this resource (computed once)."""
        cache = self._values
        if cache is None:
            cache = self._values = {}
        found = cache.get(param.name)
        if found is None:
            found = normalized(marshal.loads(self._blob), param)
            cache[param.name] = found
        return found

    def prime(self, params: Iterable[SearchParam]) -> None:
        """Compute the values of every given parameter now, decoding the resource once."""
        cache = self._values
        if cache is None:
            cache = self._values = {}
        resource: JsonObject | None = None
        for param in params:
            if param.name not in cache:
                if resource is None:
                    resource = marshal.loads(self._blob)
                cache[param.name] = normalized(resource, param)

    def sort_value(self, param: SearchParam, descending: bool) -> Any:
        """What ``_sort`` compares for ``param`` (None when the resource has no value)."""
        if param.name == "_id":
            return self.id
        return sort_value(self.values(param), param.type, descending)

    def fingerprint(self) -> bytes:
        """Canonical JSON bytes of the content, for hashing."""
        return json.dumps(self.resource, sort_keys=True, separators=(",", ":")).encode()

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.resource_type, self.id, self.version_id, self.last_updated, self._blob,
                self._values)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (self.resource_type, self.id, self.version_id, self.last_updated, self._blob,
         self._values) = state
        self.key = f"{self.resource_type}/{self.id}"
        self._derived = None


def sort_value(values: tuple[Any, ...], kind: str, descending: bool) -> Any:
    """The sort key of a parameter's normalised values: the highest value when sorting
    descending, the lowest ascending (dates by their range's end or start); None if empty."""
    if not values:
        return None
    if kind == "date":
        return _date_high(values) if descending else _date_low(values)
    if kind in ("quantity", "number"):
        keys = [v[0] for v in values]
    elif kind == "token":
        keys = [v[1] for v in values]
    else:
        keys = [str(v).casefold() for v in values]
    return max(keys) if descending else min(keys)


def _date_high(values: tuple[tuple[float, float], ...]) -> float:
    best = -INF
    for low, high in values:
        point = high if high != INF else low
        if point > best:
            best = point
    return best


def _date_low(values: tuple[tuple[float, float], ...]) -> float:
    best = INF
    for low, high in values:
        point = low if low != -INF else high
        if point < best:
            best = point
    return best


def sort_entries(entries: Iterable[Entry], sort: SortSpec) -> list[Entry]:
    """R4 ``_sort`` order: by id, then stably by each key from last to first (``True`` =
    descending); resources without a value of a key go after those with one."""
    ordered = sorted(entries, key=_BY_ID)
    for param, descending in reversed(sort):
        keyed = [(e.sort_value(param, descending), e) for e in ordered]
        present = [pair for pair in keyed if pair[0] is not None]
        present.sort(key=_FIRST, reverse=descending)
        ordered = [pair[1] for pair in present]
        if len(present) < len(keyed):
            ordered.extend(e for value, e in keyed if value is None)
    return ordered
