"""Create, update and delete: validation, ids, versions and timestamps, then the overlay write."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from physbench_gym.fhir.clock import IdSource, format_instant
from physbench_gym.fhir.messages import FhirResponse
from physbench_gym.fhir.operation_outcome import OperationFailed, information
from physbench_gym.fhir.results import referencing
from physbench_gym.fhir.search_params import SEARCH_PARAMS
from physbench_gym.fhir.store import Entry, StoreView
from physbench_gym.fhir.validation import check_id, check_resource, parse_json, reference_issues

JsonObject = dict[str, Any]
Finder = Callable[[str, list[tuple[str, str]]], list[Entry]]


@dataclass
class WriteContext:
    """Everything a write needs from the server."""

    view: StoreView
    clock: Any
    ids: IdSource
    base_url: str
    check_references: bool
    find: Finder


def create(ctx: WriteContext, rtype: str, body: bytes | JsonObject | None,
           if_none_exist: str | None = None, prefer: str | None = None,
           assigned_id: str | None = None) -> FhirResponse:
    """POST Type: validate, honour If-None-Exist, assign id and version 1, store."""
    resource = parse_json(body)
    check_resource(resource, rtype)
    if if_none_exist:
        existing = conditional_match(ctx, rtype, if_none_exist)
        if existing is not None:
            return _written(ctx, existing, 200, prefer)
    if ctx.check_references:
        check_references(ctx, resource, rtype)
    entry = _stamp(ctx, resource, assigned_id or new_id(ctx, rtype), "1")
    ctx.view.put(entry)
    return _written(ctx, entry, 201, prefer)


def conditional_match(ctx: WriteContext, rtype: str, criteria: str) -> Entry | None:
    """The one resource matching an If-None-Exist query, None if none; 412 if several."""
    query = criteria.split("?", 1)[1] if "?" in criteria else criteria
    pairs = parse_qsl(query, keep_blank_values=True)
    if not pairs:
        raise OperationFailed.single(400, "invalid", f"If-None-Exist '{criteria[:80]}' holds no "
                                     "search parameters")
    matches = ctx.find(rtype, pairs)
    if len(matches) > 1:
        raise OperationFailed.single(412, "duplicate", f"If-None-Exist '{criteria[:80]}' matched "
                                     f"{len(matches)} resources; it must match at most one")
    return matches[0] if matches else None


def update(ctx: WriteContext, rtype: str, id: str, body: bytes | JsonObject | None,
           if_match: str | None = None, prefer: str | None = None) -> FhirResponse:
    """PUT Type/id: validate, check the body's id and If-Match, store the next version."""
    check_id(id, f"{rtype}.id")
    resource = parse_json(body)
    check_resource(resource, rtype)
    if resource.get("id") != id:
        raise OperationFailed.single(400, "invalid", f"The resource id {resource.get('id')!r} "
                                     f"must match the URL id '{id}' on update", f"{rtype}.id")
    current = ctx.view.entry(rtype, id)
    if if_match is not None:
        wanted = if_match.strip().removeprefix("W/").strip('"')
        if current is None or current.version_id != wanted:
            have = current.version_id if current else "none"
            raise OperationFailed.single(412, "conflict", f"If-Match version {wanted[:20]} does "
                                         f"not match the current version {have}")
    if ctx.check_references:
        check_references(ctx, resource, rtype)
    entry = _stamp(ctx, resource, id, _next_version(ctx.view, rtype, id, current))
    ctx.view.put(entry)
    return _written(ctx, entry, 200 if current is not None else 201, prefer)


def delete(ctx: WriteContext, rtype: str, id: str) -> FhirResponse:
    """DELETE Type/id: 204; 404 if never known; 409 while other resources reference it."""
    check_id(id, f"{rtype}.id")
    if ctx.view.entry(rtype, id) is None:
        if ctx.view.is_deleted(rtype, id):
            return FhirResponse(204, None, {})
        raise OperationFailed.single(404, "not-found", f"{rtype}/{id} is not known")
    if ctx.check_references:
        holders = referrers(ctx.view, f"{rtype}/{id}")
        if holders:
            raise OperationFailed.single(409, "conflict", f"Cannot delete {rtype}/{id}: it is "
                                         f"referenced by {', '.join(holders[:5])}")
    ctx.view.delete(rtype, id)
    return FhirResponse(204, None, {})


def referrers(view: StoreView, key: str) -> list[str]:
    """``Type/id`` of current resources that reference ``key`` through a search parameter."""
    found: dict[str, None] = {}
    for source, params in SEARCH_PARAMS.items():
        for param in params.values():
            if param.type == "reference":
                for entry in referencing(view, source, param, key):
                    if entry.key != key:
                        found[entry.key] = None
    return list(found)


def new_id(ctx: WriteContext, rtype: str) -> str:
    """The next id from the id source that is not in use for ``rtype``."""
    while True:
        candidate = ctx.ids.next_id()
        if ctx.view.entry(rtype, candidate) is None and not ctx.view.is_deleted(rtype, candidate):
            return candidate


def check_references(ctx: WriteContext, resource: JsonObject, root: str) -> None:
    """Raise 422 naming every reference of ``resource`` that does not resolve."""
    issues = reference_issues(resource, root, ctx.view.exists)
    if issues:
        raise OperationFailed(422, issues)


def _next_version(view: StoreView, rtype: str, id: str, current: Entry | None) -> str:
    previous = current.version_id if current is not None else None
    if previous is None:
        history = view.history(rtype, id)
        previous = history[-1].version_id if history else "0"
    return str(int(previous) + 1) if previous.isascii() and previous.isdigit() else "2"


def _stamp(ctx: WriteContext, resource: JsonObject, id: str, version: str) -> Entry:
    meta = dict(resource.get("meta") or {})
    meta["versionId"] = version
    meta["lastUpdated"] = format_instant(ctx.clock.now())
    rest = {k: v for k, v in resource.items() if k not in ("resourceType", "id", "meta")}
    return Entry({"resourceType": resource["resourceType"], "id": id, "meta": meta, **rest})


def _written(ctx: WriteContext, entry: Entry, status: int, prefer: str | None) -> FhirResponse:
    location = f"{ctx.base_url}/{entry.key}/_history/{entry.version_id}"
    headers = {"Content-Type": "application/fhir+json", "Location": location,
               "ETag": f'W/"{entry.version_id}"',
               "Last-Modified": entry.last_updated or ""}
    wanted = (prefer or "").replace(" ", "")
    if "return=minimal" in wanted:
        return FhirResponse(status, None, headers)
    if "return=OperationOutcome" in wanted:
        return FhirResponse(status, information(f"{entry.key} stored"), headers)
    return FhirResponse(status, entry.copy(), headers)
