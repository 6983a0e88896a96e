"""The resource store: an immutable, indexed base shared by every episode, plus cheap views.

A :class:`BaseStore` is built once per process and never changes; :meth:`BaseStore.with_layer`
stacks an extra immutable layer on it (e.g. one variant's chart) without copying what is below.
A :class:`StoreView` adds a per-episode overlay of writes on top of a base. Resources are kept as
compact marshal blobs, so every read returns a fresh copy at the cost of one ``marshal.loads``
instead of a deep copy, and nothing a caller holds can reach what is stored.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import marshal
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from physbench_gym.fhir.search_params import SEARCH_PARAMS, SearchParam
from physbench_gym.fhir.values import fold, normalized

JsonObject = dict[str, Any]
_EMPTY: frozenset[str] = frozenset()


WARM_PARAMS = ("patient", "subject", "code", "category", "status", "date", "authoredon",
               "identifier", "name", "family", "given", "birthdate", "type", "clinical-status",
               "onset-date", "period")


class Entry:
    """One stored version of a resource, kept as a compact marshal blob.

    Every access to :attr:`resource` decodes a fresh copy, so nothing stored can be changed by
    a caller; normalised search values are computed once and cached.
    """

    __slots__ = ("resource_type", "id", "version_id", "last_updated", "_blob", "_values")

    def __init__(self, resource: JsonObject) -> None:
        clean = json.loads(json.dumps(resource))
        self.resource_type: str = clean["resourceType"]
        self.id: str = clean["id"]
        meta = clean.get("meta") if isinstance(clean.get("meta"), dict) else {}
        self.version_id = str(meta.get("versionId", "1"))
        updated = meta.get("lastUpdated")
        self.last_updated: str | None = updated if isinstance(updated, str) else None
        self._blob = marshal.dumps(clean)
        self._values: dict[str, tuple[Any, ...]] | None = None

    @property
    def key(self) -> str:
        """``Type/id``, the form references take."""
        return f"{self.resource_type}/{self.id}"

    @property
    def resource(self) -> JsonObject:
        """A fresh, independent copy of the resource."""
        return marshal.loads(self._blob)

    def copy(self) -> JsonObject:
        """A fresh, independent copy of the resource for a response."""
        return marshal.loads(self._blob)

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

    def fingerprint(self) -> bytes:
        """Canonical JSON bytes of the content, for hashing."""
        return json.dumps(self.resource, sort_keys=True, separators=(",", ":")).encode()


def index_keys(entry: Entry, param: SearchParam) -> list[str]:
    """The exact-match keys under which a token or reference index files ``entry``."""
    keys: list[str] = []
    for value in entry.values(param):
        if param.type == "token":
            system, code = value
            keys.append(code)
            keys.append(f"{system}|{code}" if system else f"|{code}")
            if system:
                keys.append(f"{system}|")
        else:
            keys.append(value)
            keys.append(value.rsplit("/", 1)[-1])
    return keys


class _Layer:
    """Entries of one immutable batch of resources, with exact-match indexes built on demand."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries: dict[str, dict[str, Entry]] = {}
        self._index: dict[tuple[str, str], dict[str, frozenset[str]]] = {}
        self._strings: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        self._lock = threading.Lock()
        for entry in entries:
            self.entries.setdefault(entry.resource_type, {})[entry.id] = entry

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the entries and built indexes (so a cached store starts warm), not the lock."""
        return {key: value for key, value in self.__dict__.items() if key != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def postings(self, resource_type: str, param: SearchParam) -> dict[str, frozenset[str]]:
        """Index of a token or reference parameter: key -> ids (built once, on first use)."""
        found = self._index.get((resource_type, param.name))
        if found is None:
            with self._lock:
                found = self._index.get((resource_type, param.name))
                if found is None:
                    found = self._build(resource_type, param)
                    self._index[(resource_type, param.name)] = found
        return found

    def folded(self, resource_type: str, param: SearchParam) -> tuple[list[str], list[str]]:
        """Sorted case/accent-folded string values of a parameter and their ids (lazy)."""
        found = self._strings.get((resource_type, param.name))
        if found is None:
            with self._lock:
                pairs = sorted({(fold(value), entry.id)
                                for entry in self.entries.get(resource_type, {}).values()
                                for value in entry.values(param)})
                found = ([p[0] for p in pairs], [p[1] for p in pairs])
                self._strings[(resource_type, param.name)] = found
        return found

    def _build(self, resource_type: str, param: SearchParam) -> dict[str, frozenset[str]]:
        lists: dict[str, list[str]] = {}
        for entry in self.entries.get(resource_type, {}).values():
            for key in set(index_keys(entry, param)):
                lists.setdefault(key, []).append(entry.id)
        return {key: frozenset(ids) for key, ids in lists.items()}


def _to_entry(resource: Any) -> Entry:
    if not isinstance(resource, dict):
        raise ValueError("every resource must be a JSON object")
    if not isinstance(resource.get("resourceType"), str) or not isinstance(resource.get("id"), str):
        raise ValueError(f"resource without resourceType and id: {str(resource)[:120]}")
    return Entry(resource)


class BaseStore:
    """An immutable, indexed set of resources; built once and shared by every episode."""

    def __init__(self, layers: tuple[_Layer, ...]) -> None:
        self._layers = layers
        self._hash: str | None = None
        self._size: int | None = None

    @classmethod
    def from_resources(cls, resources: Iterable[JsonObject]) -> BaseStore:
        """Build a store; each resource needs ``resourceType`` and ``id`` (last one wins)."""
        return cls((_Layer(_to_entry(r) for r in resources),))

    def with_layer(self, resources: Iterable[JsonObject]) -> BaseStore:
        """A new store: this one plus ``resources`` (which shadow same-id resources below)."""
        return BaseStore(self._layers + (_Layer(_to_entry(r) for r in resources),))

    def fork(self) -> StoreView:
        """An empty per-episode overlay over this base; O(1)."""
        return StoreView(self)

    def entry(self, resource_type: str, id: str) -> Entry | None:
        """The stored entry (shared, read-only) or None."""
        for layer in reversed(self._layers):
            found = layer.entries.get(resource_type, {}).get(id)
            if found is not None:
                return found
        return None

    def entries_by_id(self, resource_type: str, ids: Iterable[str]) -> list[Entry]:
        """The current entries of the given ids (unknown ids skipped)."""
        if len(self._layers) == 1:
            by_id = self._layers[0].entries.get(resource_type, {})
            return [by_id[i] for i in ids if i in by_id]
        found = (self.entry(resource_type, i) for i in ids)
        return [e for e in found if e is not None]

    def entries(self, resource_type: str) -> Iterator[Entry]:
        """Every entry of a type, each id once (top layer wins)."""
        if len(self._layers) == 1:
            yield from self._layers[0].entries.get(resource_type, {}).values()
            return
        for depth, layer in enumerate(self._layers):
            for entry in layer.entries.get(resource_type, {}).values():
                if not self._shadowed(depth, resource_type, entry.id):
                    yield entry

    def lookup_ids(self, resource_type: str, param: SearchParam, key: str) -> frozenset[str]:
        """Ids filed under an exact index key of a token or reference parameter."""
        if len(self._layers) == 1:
            return self._layers[0].postings(resource_type, param).get(key, _EMPTY)
        found: set[str] = set()
        for depth, layer in enumerate(self._layers):
            for id in layer.postings(resource_type, param).get(key, _EMPTY):
                if not self._shadowed(depth, resource_type, id):
                    found.add(id)
        return frozenset(found)

    def prefix_ids(self, resource_type: str, param: SearchParam, prefix: str) -> frozenset[str]:
        """Ids whose folded string value of ``param`` starts with the folded ``prefix``."""
        found: set[str] = set()
        for depth, layer in enumerate(self._layers):
            keys, ids = layer.folded(resource_type, param)
            start = bisect.bisect_left(keys, prefix)
            for n in range(start, len(keys)):
                if not keys[n].startswith(prefix):
                    break
                if depth == len(self._layers) - 1 or not self._shadowed(depth, resource_type,
                                                                         ids[n]):
                    found.add(ids[n])
        return frozenset(found)

    def warm(self, names: Iterable[str] = WARM_PARAMS) -> None:
        """Build indexes and sort values of the named parameters now, not on first search.

        Token and reference parameters get their exact-match index, strings their folded
        index, and dates and quantities their normalised values (what sorting reads).
        """
        names = tuple(names)
        for layer in self._layers:
            for resource_type, by_id in layer.entries.items():
                for name in names:
                    param = SEARCH_PARAMS.get(resource_type, {}).get(name)
                    if param is None:
                        continue
                    if param.type in ("token", "reference"):
                        layer.postings(resource_type, param)
                    elif param.type == "string":
                        layer.folded(resource_type, param)
                    else:
                        for entry in by_id.values():
                            entry.values(param)

    def _shadowed(self, depth: int, resource_type: str, id: str) -> bool:
        return any(id in layer.entries.get(resource_type, {}) for layer in self._layers[depth + 1:])

    def resource_types(self) -> set[str]:
        """The resource types present in any layer."""
        return {t for layer in self._layers for t in layer.entries}

    def content_hash(self) -> str:
        """SHA-256 over every resource's type, id and content, in a canonical order."""
        if self._hash is None:
            digest = hashlib.sha256()
            for resource_type in sorted(self.resource_types()):
                for entry in sorted(self.entries(resource_type), key=lambda e: e.id):
                    digest.update(f"{entry.key}\0".encode())
                    digest.update(entry.fingerprint())
            self._hash = digest.hexdigest()
        return self._hash

    def __len__(self) -> int:
        if self._size is None:
            self._size = sum(sum(1 for _ in self.entries(t)) for t in self.resource_types())
        return self._size


class StoreView:
    """A base store plus one episode's writes; the base is never changed through a view."""

    def __init__(self, base: BaseStore) -> None:
        self.base = base
        self.lock = threading.RLock()
        self._overlay: dict[str, dict[str, Entry | None]] = {}
        self._history: dict[str, list[Entry]] = {}

    def get(self, resource_type: str, id: str) -> JsonObject | None:
        """A fresh copy of the current resource, or None if absent or deleted."""
        found = self.entry(resource_type, id)
        return found.copy() if found is not None else None

    def entry(self, resource_type: str, id: str) -> Entry | None:
        """The current entry (shared, read-only), or None if absent or deleted."""
        by_id = self._overlay.get(resource_type)
        if by_id is not None and id in by_id:
            return by_id[id]
        return self.base.entry(resource_type, id)

    def exists(self, key: str) -> bool:
        """Whether a ``Type/id`` reference resolves to a current resource."""
        resource_type, _, id = key.partition("/")
        return self.entry(resource_type, id) is not None

    def is_deleted(self, resource_type: str, id: str) -> bool:
        """Whether the resource existed and was deleted in this view."""
        by_id = self._overlay.get(resource_type, {})
        return id in by_id and by_id[id] is None

    def version(self, resource_type: str, id: str, version_id: str) -> Entry | None:
        """One version of a resource (vread)."""
        for entry in self._history.get(f"{resource_type}/{id}", ()):
            if entry.version_id == version_id:
                return entry
        current = self.base.entry(resource_type, id)
        if current is not None and current.version_id == version_id:
            return current
        return None

    def history(self, resource_type: str, id: str) -> list[Entry]:
        """Versions written in this view, oldest first."""
        return list(self._history.get(f"{resource_type}/{id}", ()))

    def put(self, entry: Entry) -> None:
        """Store a new current version of a resource in the overlay."""
        self._overlay.setdefault(entry.resource_type, {})[entry.id] = entry
        self._history.setdefault(entry.key, []).append(entry)

    def delete(self, resource_type: str, id: str) -> None:
        """Mark a resource deleted in the overlay."""
        self._overlay.setdefault(resource_type, {})[id] = None

    def overlay_entries(self, resource_type: str) -> list[Entry]:
        """Current entries of a type written in this view."""
        return [e for e in self._overlay.get(resource_type, {}).values() if e is not None]

    def shadows(self, resource_type: str) -> dict[str, Entry | None]:
        """Ids of a type that this view overrides (written or deleted)."""
        return self._overlay.get(resource_type, {})

    def resource_types(self) -> set[str]:
        """The resource types present in the base or written here."""
        return self.base.resource_types() | set(self._overlay)

    def written(self) -> list[JsonObject]:
        """Fresh copies of the resources created or updated in this view and still current."""
        current = (self.entry(*key.split("/", 1)) for key in self._history)
        return [e.copy() for e in current if e is not None]

    def deleted(self) -> list[str]:
        """``Type/id`` of the resources deleted in this view."""
        return [f"{t}/{i}" for t, by_id in self._overlay.items() for i, e in by_id.items()
                if e is None]

    def snapshot(self) -> tuple[dict[str, dict[str, Entry | None]], dict[str, list[Entry]]]:
        """A copy of the overlay state, to roll a failed transaction back."""
        return ({t: dict(m) for t, m in self._overlay.items()},
                {k: list(v) for k, v in self._history.items()})

    def restore(self, state: tuple[dict[str, dict[str, Entry | None]],
                                   dict[str, list[Entry]]]) -> None:
        """Put back an overlay state taken with :meth:`snapshot`."""
        self._overlay, self._history = state

    def overlay_hash(self) -> str:
        """SHA-256 of this view's overlay (writes and deletions)."""
        digest = hashlib.sha256()
        for resource_type in sorted(self._overlay):
            for id, entry in sorted(self._overlay[resource_type].items()):
                digest.update(f"{resource_type}/{id}\0".encode())
                digest.update(entry.fingerprint() if entry else b"-")
        return digest.hexdigest()
