"""One immutable layer of the base store: its entries and the indexes searches read.

Indexes are built on first use (or by ``BaseStore.warm``) and never change afterwards, since a
layer's entries never do. Postings hold the entries themselves, so intersecting them hashes
object identities and a search never looks its candidates up again by id.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from physbench_gym.fhir.entry import Entry, sort_entries
from physbench_gym.fhir.search_params import SearchParam
from physbench_gym.fhir.values import fold

_EMPTY: frozenset[Entry] = frozenset()


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


Postings = dict[str, frozenset[Entry]]


class Layer:
    """Entries of one immutable batch of resources, with exact-match indexes built on demand.

    Index postings hold the entries themselves, so intersecting them hashes object identities
    and a search never has to look its candidates up again by id.
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries: dict[str, dict[str, Entry]] = {}
        self._index: dict[tuple[str, str], Postings] = {}
        self._strings: dict[tuple[str, str], tuple[list[str], list[Entry]]] = {}
        self._ranks: dict[tuple[str, str, bool], dict[Entry, int]] = {}
        self._scoped: dict[tuple[str, str, str, str], dict[str, tuple[Entry, ...]]] = {}
        self._lock = threading.Lock()
        for entry in entries:
            self.entries.setdefault(entry.resource_type, {})[entry.id] = entry

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the entries and built indexes (so a cached store starts warm), not the lock."""
        return {key: value for key, value in self.__dict__.items() if key != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def postings(self, resource_type: str, param: SearchParam) -> Postings:
        """Index of a token or reference parameter: key -> entries (built once, on first use)."""
        found = self._index.get((resource_type, param.name))
        if found is None:
            with self._lock:
                found = self._index.get((resource_type, param.name))
                if found is None:
                    found = self._build(resource_type, param)
                    self._index[(resource_type, param.name)] = found
        return found

    def folded(self, resource_type: str, param: SearchParam) -> tuple[list[str], list[Entry]]:
        """Sorted case/accent-folded string values of a parameter and their entries (lazy)."""
        found = self._strings.get((resource_type, param.name))
        if found is None:
            with self._lock:
                pairs = {(fold(value), entry.id): entry
                         for entry in self.entries.get(resource_type, {}).values()
                         for value in entry.values(param)}
                ordered = sorted(pairs)
                found = ([p[0] for p in ordered], [pairs[p] for p in ordered])
                self._strings[(resource_type, param.name)] = found
        return found

    def ranks(self, resource_type: str, param: SearchParam, descending: bool, build: bool
              ) -> dict[Entry, int] | None:
        """Each entry's position in the ``_sort`` order of one key over the whole layer.

        Sorting any subset of the layer by these positions gives the same order as
        :func:`sort_entries`; None when not built yet and ``build`` is false.
        """
        key = (resource_type, param.name, descending)
        found = self._ranks.get(key)
        if found is None and build:
            with self._lock:
                found = self._ranks.get(key)
                if found is None:
                    ordered = sort_entries(self.entries.get(resource_type, {}).values(),
                                           [(param, descending)])
                    found = {entry: n for n, entry in enumerate(ordered)}
                    self._ranks[key] = found
        return found

    def scoped(self, resource_type: str, scope: SearchParam, scope_key: str,
               param: SearchParam) -> dict[str, tuple[Entry, ...]]:
        """Index of ``param`` over only the entries under ``scope_key`` of the reference
        parameter ``scope`` (e.g. one patient's codes): key -> entries, built on first use.

        Agent searches are nearly always about one patient, so this answers patient + code
        without intersecting the patient's postings with every patient's.
        """
        asked = (resource_type, scope.name, scope_key, param.name)
        found = self._scoped.get(asked)
        if found is not None:
            return found
        scope_key = self._canonical(resource_type, scope, scope_key)
        found = self._scoped.get((resource_type, scope.name, scope_key, param.name))
        if found is None:
            members = self.postings(resource_type, scope).get(scope_key, _EMPTY)
            if not members:
                return {}  # nothing under that key: keep no index (keys come from agents)
            lists: dict[str, list[Entry]] = {}
            for entry in members:
                for key in set(index_keys(entry, param)):
                    lists.setdefault(key, []).append(entry)
            shared: dict[tuple[Entry, ...], tuple[Entry, ...]] = {}
            found = {}
            for key, entries in lists.items():
                group = tuple(entries)
                found[key] = shared.setdefault(group, group)
            with self._lock:
                self._scoped[(resource_type, scope.name, scope_key, param.name)] = found
        with self._lock:
            self._scoped[asked] = found
        return found

    def _canonical(self, resource_type: str, scope: SearchParam, key: str) -> str:
        """``Patient/123`` for a bare ``123`` when both find the same entries (one target)."""
        if "/" in key or len(scope.targets) != 1:
            return key
        postings = self.postings(resource_type, scope)
        full = f"{scope.targets[0]}/{key}"
        same = len(postings.get(key, _EMPTY)) == len(postings.get(full, _EMPTY))
        return full if same else key

    def _build(self, resource_type: str, param: SearchParam) -> Postings:
        lists: dict[str, list[Entry]] = {}
        for entry in self.entries.get(resource_type, {}).values():
            for key in set(index_keys(entry, param)):
                lists.setdefault(key, []).append(entry)
        return {key: frozenset(entries) for key, entries in lists.items()}
