"""Executing a parsed search over a store view and shaping the searchset Bundle.

Candidates come from the base's exact-match indexes whenever a token or reference criterion
allows it; only those candidates (plus the episode's few writes) are evaluated, sorted and paged.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache
from operator import attrgetter
from typing import Any
from urllib.parse import urlencode

from physbench_gym.fhir.entry import SortSpec, sort_entries
from physbench_gym.fhir.search import Criterion, SearchQuery
from physbench_gym.fhir.search_params import SEARCH_PARAMS, SearchParam
from physbench_gym.fhir.store import SCOPE_MAXIMUM, BaseStore, Entry, StoreView

JsonObject = dict[str, Any]
SUBSETTED = {"system": "http://terminology.hl7.org/CodeSystem/v3-ObservationValue",
             "code": "SUBSETTED", "display": "Resource encoded in summary mode"}
_BY_ID = attrgetter("id")
RANKED_MINIMUM = 32


def find(view: StoreView, query: SearchQuery) -> list[Entry]:
    """Every current resource matching the query, sorted as the query asks."""
    rtype = query.resource_type
    matches, checked = _base_candidates(view, query)
    shadows = view.shadows(rtype)
    if shadows:
        matches = [e for e in matches if e.id not in shadows]
    for criterion in query.criteria:
        if criterion not in checked:
            matches = criterion.filter(matches)
    written = view.overlay_entries(rtype)
    if written and query.ids is not None:
        written = [e for e in written if e.id in query.ids]
    for criterion in query.criteria:
        if not written:
            break
        written = criterion.filter(written)
    if written:
        return sort_entries(matches + written, query.sort)
    return _sorted_base(view.base, rtype, matches, query.sort)


def _sorted_base(base: BaseStore, rtype: str, matches: list[Entry], sort: SortSpec
                 ) -> list[Entry]:
    """Sort base entries, through the base's precomputed order of a single sort key if any."""
    if len(sort) == 1 and len(matches) > 1:
        param, descending = sort[0]
        ranks = base.ranks(rtype, param, descending, build=len(matches) >= RANKED_MINIMUM)
        if ranks is not None:
            return sorted(matches, key=ranks.__getitem__)
    return sort_entries(matches, sort)


def _base_candidates(view: StoreView, query: SearchQuery) -> tuple[list[Entry], list[Criterion]]:
    base, rtype = view.base, query.resource_type
    if query.ids is not None:
        found = (base.entry(rtype, i) for i in dict.fromkeys(query.ids))
        return [e for e in found if e is not None], []
    indexed = [c for c in query.criteria if c.index_keys is not None or c.prefixes is not None]
    if not indexed:
        return list(base.entries(rtype)), []
    if len(indexed) == 1:
        return list(_posting(base, rtype, indexed[0])), indexed
    postings = _scoped_postings(base, rtype, indexed)
    if postings is None:
        postings = [_posting(base, rtype, c) for c in indexed]
    postings.sort(key=len)
    if len(postings) == 1:
        return list(postings[0]), indexed
    return list(frozenset(postings[0]).intersection(*postings[1:])), indexed


def _scoped_postings(base: BaseStore, rtype: str, indexed: list[Criterion]
                     ) -> list[Collection[Entry]] | None:
    """The postings of ``indexed`` read inside the smallest one-reference criterion's scope
    (e.g. one patient), or None when no criterion scopes the search."""
    scopes = [(base.lookup(rtype, c.param, c.index_keys[0]), c) for c in indexed
              if c.param.type == "reference" and c.index_keys and len(c.index_keys) == 1]
    if not scopes:
        return None
    members, scope = min(scopes, key=lambda pair: len(pair[0]))
    if len(members) > SCOPE_MAXIMUM:
        return None
    assert scope.index_keys is not None
    key, parts, narrowed = scope.index_keys[0], [], False
    for criterion in indexed:
        if criterion is scope:
            continue
        if criterion.index_keys is None:
            parts.append(_posting(base, rtype, criterion))
            continue
        found = [base.lookup_within(rtype, scope.param, key, criterion.param, k)
                 for k in criterion.index_keys]
        parts.append(found[0] if len(found) == 1 else frozenset().union(*found))
        narrowed = True
    return parts if narrowed else parts + [members]


def _posting(base: BaseStore, rtype: str, criterion: Criterion) -> frozenset[Entry]:
    if criterion.prefixes is not None:
        sets = [base.prefix(rtype, criterion.param, p) for p in criterion.prefixes]
    else:
        sets = [base.lookup(rtype, criterion.param, key) for key in criterion.index_keys or []]
    return sets[0] if len(sets) == 1 else frozenset().union(*sets)


def included(view: StoreView, query: SearchQuery, page: list[Entry]) -> list[Entry]:
    """Resources named by ``_include`` / ``_revinclude`` for the page, each once, page excluded."""
    if not query.includes and not query.revincludes:
        return []
    seen = {e.key for e in page}
    found: list[Entry] = []
    for source, param, target in query.includes:
        for entry in page:
            if entry.resource_type != source:
                continue
            for key in entry.values(param):
                if target is None or key.startswith(target + "/"):
                    _add(found, seen, view.entry(*key.split("/", 1)) if "/" in key else None)
    for source, param, target in query.revincludes:
        for entry in page:
            if target is not None and entry.resource_type != target:
                continue
            for other in referencing(view, source, param, entry.key):
                _add(found, seen, other)
    return found


def _add(found: list[Entry], seen: set[str], entry: Entry | None) -> None:
    if entry is not None and entry.key not in seen:
        seen.add(entry.key)
        found.append(entry)


def referencing(view: StoreView, source: str, param: SearchParam, key: str) -> list[Entry]:
    """Current resources of type ``source`` whose ``param`` references ``key``."""
    shadows = view.shadows(source)
    out = [e for e in view.base.lookup(source, param, key) if e.id not in shadows]
    out.extend(e for e in view.overlay_entries(source) if key in e.values(param))
    return sorted(out, key=_BY_ID)


def everything(view: StoreView, patient: Entry) -> list[Entry]:
    """The patient followed by every resource that references it, by type then id."""
    out = [patient]
    seen = {patient.key}
    for rtype in sorted(SEARCH_PARAMS):
        for param in SEARCH_PARAMS[rtype].values():
            if param.type == "reference":
                for entry in referencing(view, rtype, param, patient.key):
                    _add(out, seen, entry)
    return out


def bundle(
    query: SearchQuery, matches: list[Entry], extra: Iterable[Entry], base_url: str, path: str
) -> JsonObject:
    """The searchset Bundle of one page, with total and self/next/previous links."""
    result = bundle_head(query, len(matches), base_url, path)
    if query.summary != "count":
        entries = bundle_entries(query, page_of(query, matches), extra, base_url)
        if entries:
            result["entry"] = entries
    return result


def bundle_head(query: SearchQuery, total: int, base_url: str, path: str) -> JsonObject:
    """A searchset Bundle without its entries: type, total and self/next/previous links."""
    result: JsonObject = {"resourceType": "Bundle", "type": "searchset"}
    if query.total != "none" or query.summary == "count":
        result["total"] = total
    result["link"] = _links(query, total, _page_bounds(query, total), f"{base_url}/{path}")
    return result


def bundle_entries(query: SearchQuery, page: list[Entry], extra: Iterable[Entry],
                   base_url: str) -> list[JsonObject]:
    """The ``Bundle.entry`` list of a page of matches and their included resources."""
    prefix = f"{base_url}/"
    shaped = not shows_as_stored(query)
    entries = [{"fullUrl": prefix + e.key,
                "resource": _shaped(e.copy(), query) if shaped else e.copy(),
                "search": {"mode": "match"}} for e in page]
    entries += [{"fullUrl": prefix + e.key, "resource": e.copy(), "search": {"mode": "include"}}
                for e in extra]
    return entries


def shows_as_stored(query: SearchQuery) -> bool:
    """True when the search's Bundle carries each resource exactly as stored (not shaped)."""
    return query.elements is None and query.summary not in ("data", "text", "count")


def page_of(query: SearchQuery, matches: list[Entry]) -> list[Entry]:
    """The slice of matches this query's ``_offset`` and ``_count`` select."""
    start, end = _page_bounds(query, len(matches))
    return matches[start:end]


def _page_bounds(query: SearchQuery, total: int) -> tuple[int, int]:
    if query.summary == "count":
        return (0, 0)
    start = min(query.offset, total)
    return start, min(start + query.count, total)


def _links(query: SearchQuery, total: int, page: tuple[int, int], url: str) -> list[JsonObject]:
    prefix = _link_prefix(url, tuple(query.link_pairs), query.count)
    links = [{"relation": "self", "url": f"{prefix}{query.offset}"}]
    if query.summary != "count" and query.count > 0 and page[1] < total:
        links.append({"relation": "next", "url": f"{prefix}{page[1]}"})
    if query.summary != "count" and query.offset > 0 and query.count > 0:
        links.append({"relation": "previous",
                      "url": f"{prefix}{max(0, query.offset - query.count)}"})
    return links


@lru_cache(maxsize=4096)
def _link_prefix(url: str, pairs: tuple[tuple[str, str], ...], count: int) -> str:
    """``url?<query>&_offset=`` for a search's parameters (agents repeat their searches)."""
    encoded = urlencode(pairs + (("_count", str(count)),), safe=":|,/$")
    return f"{url}?{encoded}&_offset="


def _shaped(resource: JsonObject, query: SearchQuery) -> JsonObject:
    if query.elements is not None:
        keep = set(query.elements) | {"resourceType", "id", "meta"}
        resource = {k: v for k, v in resource.items() if k in keep}
    elif query.summary == "data":
        resource.pop("text", None)
    elif query.summary == "text":
        resource = {k: v for k, v in resource.items() if k in ("resourceType", "id", "meta",
                                                                  "text")}
    else:
        return resource
    meta = resource.setdefault("meta", {})
    meta["tag"] = list(meta.get("tag", [])) + [dict(SUBSETTED)]
    return resource
