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
import threading
from collections.abc import Collection, Iterable, Iterator
from typing import Any

from physbench_gym.fhir.entry import Entry
from physbench_gym.fhir.layer import Layer
from physbench_gym.fhir.search_params import SEARCH_PARAMS, SearchParam

JsonObject = dict[str, Any]
_EMPTY: frozenset[Entry] = frozenset()


SCOPE_PARAM = "patient"
SCOPE_MAXIMUM = 5000
WARM_PARAMS = ("patient", "subject", "code", "category", "status", "date", "authoredon",
               "identifier", "name", "family", "given", "birthdate", "type", "clinical-status",
               "onset-date", "period")


def _to_entry(resource: Any) -> Entry:
    if not isinstance(resource, dict):
        raise ValueError("every resource must be a JSON object")
    if not isinstance(resource.get("resourceType"), str) or not isinstance(resource.get("id"), str):
        raise ValueError(f"resource without resourceType and id: {str(resource)[:120]}")
    return Entry(resource)


class BaseStore:
    """An immutable, indexed set of resources; built once and shared by every episode."""

    def __init__(self, layers: tuple[Layer, ...]) -> None:
        self._layers = layers
        self._hash: str | None = None
        self._size: int | None = None
        self._hidden: dict[tuple[int, str], frozenset[Entry]] = {}

    @classmethod
    def from_resources(cls, resources: Iterable[JsonObject]) -> BaseStore:
        """Build a store; each resource needs ``resourceType`` and ``id`` (last one wins)."""
        return cls((Layer(_to_entry(r) for r in resources),))

    def with_layer(self, resources: Iterable[JsonObject]) -> BaseStore:
        """A new store: this one plus ``resources`` (which shadow same-id resources below)."""
        return BaseStore(self._layers + (Layer(_to_entry(r) for r in resources),))

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

    def entries(self, resource_type: str) -> Iterator[Entry]:
        """Every entry of a type, each id once (top layer wins)."""
        for depth, layer in enumerate(self._layers):
            hidden = self._shadowed(depth, resource_type)
            for entry in layer.entries.get(resource_type, {}).values():
                if entry not in hidden:
                    yield entry

    def lookup(self, resource_type: str, param: SearchParam, key: str) -> frozenset[Entry]:
        """Current entries filed under an exact index key of a token or reference parameter."""
        layers = self._layers
        if len(layers) == 1:
            return layers[0].postings(resource_type, param).get(key, _EMPTY)
        parts = [self._visible(depth, resource_type,
                               layer.postings(resource_type, param).get(key, _EMPTY))
                 for depth, layer in enumerate(layers)]
        return frozenset().union(*parts)

    def lookup_within(self, resource_type: str, scope: SearchParam, scope_key: str,
                      param: SearchParam, key: str) -> Collection[Entry]:
        """Current entries under both ``scope_key`` of ``scope`` and ``key`` of ``param``,
        read from the scope's own index (see ``Layer.scoped``)."""
        layers = self._layers
        if len(layers) == 1:
            return layers[0].scoped(resource_type, scope, scope_key, param).get(key, ())
        parts = [self._visible(depth, resource_type, frozenset(
                     layer.scoped(resource_type, scope, scope_key, param).get(key, ())))
                 for depth, layer in enumerate(layers)]
        return frozenset().union(*parts)

    def prefix(self, resource_type: str, param: SearchParam, prefix: str) -> frozenset[Entry]:
        """Current entries whose folded string value of ``param`` starts with ``prefix``."""
        parts = []
        for depth, layer in enumerate(self._layers):
            keys, entries = layer.folded(resource_type, param)
            found = []
            for n in range(bisect.bisect_left(keys, prefix), len(keys)):
                if not keys[n].startswith(prefix):
                    break
                found.append(entries[n])
            parts.append(self._visible(depth, resource_type, frozenset(found)))
        return parts[0] if len(parts) == 1 else frozenset().union(*parts)

    def ranks(self, resource_type: str, param: SearchParam, descending: bool, *,
              build: bool = True) -> dict[Entry, int] | None:
        """Positions of every entry in the order of a one-key ``_sort`` (see ``Layer.ranks``);
        None for a layered store, whose layers each have their own order."""
        if len(self._layers) != 1:
            return None
        return self._layers[0].ranks(resource_type, param, descending, build)

    def warm(self, names: Iterable[str] = WARM_PARAMS) -> None:
        """Build indexes and sort values of the named parameters now, not on first search.

        Each entry's values of every named parameter are computed with one decode; then token
        and reference parameters get their exact-match index, strings their folded index,
        dates their descending sort order (agents ask for the most recent first), and every
        patient its own index of the named token parameters.
        """
        names = tuple(names)
        for layer in self._layers:
            for resource_type, by_id in layer.entries.items():
                params = [p for p in (SEARCH_PARAMS.get(resource_type, {}).get(n) for n in names)
                          if p is not None]
                for entry in by_id.values():
                    entry.prime(params)
                for param in params:
                    if param.type in ("token", "reference"):
                        layer.postings(resource_type, param)
                    elif param.type == "string":
                        layer.folded(resource_type, param)
                    elif param.type == "date":
                        layer.ranks(resource_type, param, True, True)
        for depth, layer in enumerate(self._layers):
            for resource_type in layer.entries:
                self._shadowed(depth, resource_type)
        if len(self._layers) == 1:
            self._warm_scopes(names)

    def _warm_scopes(self, names: tuple[str, ...]) -> None:
        """Build each patient's own index of the named token parameters."""
        layer = self._layers[0]
        for resource_type in layer.entries:
            params = SEARCH_PARAMS.get(resource_type, {})
            scope = params.get(SCOPE_PARAM)
            if scope is None or scope.type != "reference":
                continue
            tokens = [params[n] for n in names if n in params and params[n].type == "token"]
            for key, members in layer.postings(resource_type, scope).items():
                if "/" in key and len(members) <= SCOPE_MAXIMUM:
                    for param in tokens:
                        layer.scoped(resource_type, scope, key, param)

    def _visible(self, depth: int, resource_type: str, found: frozenset[Entry]
                 ) -> frozenset[Entry]:
        hidden = self._shadowed(depth, resource_type) if found else _EMPTY
        return found - hidden if hidden else found

    def _shadowed(self, depth: int, resource_type: str) -> frozenset[Entry]:
        """Entries of one layer that a higher layer replaces (cached; the layers never change)."""
        hidden = self._hidden.get((depth, resource_type))
        if hidden is None:
            below = self._layers[depth].entries.get(resource_type, {})
            hidden = frozenset(below[id] for layer in self._layers[depth + 1:]
                               for id in layer.entries.get(resource_type, {}) if id in below)
            self._hidden[(depth, resource_type)] = hidden
        return hidden

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
