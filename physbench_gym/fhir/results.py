"""Executing a parsed search over a store view and shaping the searchset Bundle.

Candidates come from the base's exact-match indexes whenever a token or reference criterion
allows it; only those candidates (plus the episode's few writes) are evaluated, sorted and paged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from physbench_gym.fhir.search import Criterion, SearchQuery
from physbench_gym.fhir.search_params import SEARCH_PARAMS, SearchParam
from physbench_gym.fhir.store import Entry, StoreView

JsonObject = dict[str, Any]
SUBSETTED = {"system": "http://terminology.hl7.org/CodeSystem/v3-ObservationValue",
             "code": "SUBSETTED", "display": "Resource encoded in summary mode"}


def find(view: StoreView, query: SearchQuery) -> list[Entry]:
    """Every current resource matching the query, sorted as the query asks."""
    rtype = query.resource_type
    base_candidates, checked = _base_candidates(view, query)
    shadows = view.shadows(rtype)
    matches = [e for e in base_candidates if e.id not in shadows] if shadows else base_candidates
    for criterion in query.criteria:
        if criterion not in checked:
            matches = criterion.filter(matches)
    written = view.overlay_entries(rtype)
    if query.ids is not None:
        written = [e for e in written if e.id in query.ids]
    for criterion in query.criteria:
        written = criterion.filter(written)
    return sort_entries(matches + written, query.sort)


def _base_candidates(view: StoreView, query: SearchQuery) -> tuple[list[Entry], list[Criterion]]:
    base, rtype = view.base, query.resource_type
    if query.ids is not None:
        found = (base.entry(rtype, i) for i in dict.fromkeys(query.ids))
        return [e for e in found if e is not None], []
    indexed = [c for c in query.criteria if c.index_keys is not None or c.prefixes is not None]
    if not indexed:
        return list(base.entries(rtype)), []
    id_sets = sorted((_posting(view, rtype, c) for c in indexed), key=len)
    ids = id_sets[0].intersection(*id_sets[1:]) if len(id_sets) > 1 else id_sets[0]
    return base.entries_by_id(rtype, ids), indexed


def _posting(view: StoreView, rtype: str, criterion: Criterion) -> frozenset[str]:
    if criterion.prefixes is not None:
        sets = [view.base.prefix_ids(rtype, criterion.param, p) for p in criterion.prefixes]
    else:
        sets = [view.base.lookup_ids(rtype, criterion.param, key)
                for key in criterion.index_keys or []]
    return sets[0] if len(sets) == 1 else frozenset().union(*sets)


def sort_entries(entries: list[Entry], sort: list[tuple[SearchParam, bool]]) -> list[Entry]:
    """Sort by id, then stably by each sort key from last to first; missing values go last."""
    ordered = sorted(entries, key=lambda e: e.id)
    for param, descending in reversed(sort):
        keyed = [(_sort_value(e, param, descending), e) for e in ordered]
        present = [pair for pair in keyed if pair[0] is not None]
        present.sort(key=lambda pair: pair[0], reverse=descending)
        ordered = [e for _, e in present] + [e for value, e in keyed if value is None]
    return ordered


def _sort_value(entry: Entry, param: SearchParam, descending: bool) -> Any:
    if param.name == "_id":
        return entry.id
    values = entry.values(param)
    if not values:
        return None
    if param.type == "date":
        return max(v[1] if v[1] != float("inf") else v[0] for v in values) if descending \
            else min(v[0] if v[0] != float("-inf") else v[1] for v in values)
    if param.type in ("quantity", "number"):
        keys = [v[0] for v in values]
    elif param.type == "token":
        keys = [v[1] for v in values]
    else:
        keys = [str(v).casefold() for v in values]
    return max(keys) if descending else min(keys)


def included(view: StoreView, query: SearchQuery, page: list[Entry]) -> list[Entry]:
    """Resources named by ``_include`` / ``_revinclude`` for the page, each once, page excluded."""
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
    hits = view.base.entries_by_id(source, view.base.lookup_ids(source, param, key))
    out = [e for e in hits if e.id not in shadows]
    out.extend(e for e in view.overlay_entries(source) if key in e.values(param))
    return sorted(out, key=lambda e: e.id)


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
    page = _page_bounds(query, len(matches))
    result: JsonObject = {"resourceType": "Bundle", "type": "searchset"}
    if query.total != "none" or query.summary == "count":
        result["total"] = len(matches)
    result["link"] = _links(query, len(matches), page, f"{base_url}/{path}")
    if query.summary == "count":
        return result
    entries = [_entry(e, base_url, "match", query) for e in matches[page[0]:page[1]]]
    entries += [_entry(e, base_url, "include", query) for e in extra]
    if entries:
        result["entry"] = entries
    return result


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
    prefix = urlencode(query.link_pairs + [("_count", str(query.count))], safe=":|,/$")
    prefix = f"{url}?{prefix}&_offset=" if prefix else f"{url}?_offset="

    def link(relation: str, offset: int) -> JsonObject:
        return {"relation": relation, "url": f"{prefix}{offset}"}

    links = [link("self", query.offset)]
    if query.summary != "count" and query.count > 0 and page[1] < total:
        links.append(link("next", page[1]))
    if query.summary != "count" and query.offset > 0 and query.count > 0:
        links.append(link("previous", max(0, query.offset - query.count)))
    return links


def _entry(entry: Entry, base_url: str, mode: str, query: SearchQuery) -> JsonObject:
    resource = entry.copy()
    if mode == "match":
        resource = _shaped(resource, query)
    return {"fullUrl": f"{base_url}/{entry.key}", "resource": resource,
            "search": {"mode": mode}}


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
