"""Observation text: compact JSON of what the EHR returned, readable and bounded in size.

Resources are shown with everything clinical; ``meta`` keeps only ``lastUpdated``, generated
narrative is dropped, and base64 attachments (notes, report forms) are decoded to text.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

JsonDict = dict[str, Any]
MAX_OBSERVATION_CHARS = 10_000
SEARCH_HINT = ("narrow the search: a smaller count, a specific code, a date range "
               "(date_ge/date_le) or a status")


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def compact_json(value: Any) -> str:
    """Serialize without spaces, keeping non-ASCII text readable."""
    return _COMPACT.encode(value)


_ATTACHMENT_FIELDS = {"content": "attachment", "presentedForm": None,
                      "payload": "contentAttachment"}


def clinical_view(resource: JsonDict) -> JsonDict:
    """A copy of a resource for the agent's eyes: meta trimmed, attachments decoded.

    Attachments are decoded where FHIR puts them (DocumentReference.content.attachment,
    DiagnosticReport.presentedForm, Communication.payload.contentAttachment).
    """
    view = {key: value for key, value in resource.items() if key not in ("meta", "text")}
    for field, inner in _ATTACHMENT_FIELDS.items():
        items = view.get(field)
        if isinstance(items, list):
            view[field] = [_decoded_item(item, inner) for item in items]
    updated = (resource.get("meta") or {}).get("lastUpdated") if isinstance(
        resource.get("meta"), dict) else None
    if updated:
        view["meta"] = {"lastUpdated": updated}
    return view


def _decoded_item(item: Any, inner: str | None) -> Any:
    if not isinstance(item, dict):
        return item
    if inner is None:
        return _attachment(item) if _has_data(item) else item
    attachment = item.get(inner)
    if isinstance(attachment, dict) and _has_data(attachment):
        return {**item, inner: _attachment(attachment)}
    return item


def _has_data(value: JsonDict) -> bool:
    return isinstance(value.get("data"), str)


def _attachment(value: JsonDict) -> JsonDict:
    shown = {key: item for key, item in value.items() if key not in ("data", "hash")}
    content_type = str(value.get("contentType") or "text/plain")
    textual = content_type.startswith("text/") or content_type.split(";")[0] in (
        "application/json", "application/xml", "application/fhir+json")
    try:
        raw = base64.b64decode(value["data"], validate=False)
    except (binascii.Error, ValueError):
        shown["text"] = "[attachment data is not valid base64]"
        return shown
    if textual:
        shown["text"] = raw.decode("utf-8", errors="replace")
    else:
        shown["text"] = f"[{len(raw)} bytes of {content_type} not shown]"
    return shown


def agent_view(resource: JsonDict) -> str:
    """The compact JSON of a resource's clinical view: what the agent is shown of it."""
    return compact_json(clinical_view(resource))


def render_resource(resource: JsonDict) -> str:
    """One resource as compact JSON, bounded in size."""
    return bounded(agent_view(resource), "the resource is too long to show in full")


def render_search(resource_type: str, views: list[str], total: int | None,
                  pages: int, more: bool,
                  limit: int = MAX_OBSERVATION_CHARS) -> tuple[str, int]:
    """A search answer: counts, a paging note and as many whole resources as fit in ``limit``.

    ``views`` are the found resources' ``agent_view`` texts. Returns the text and how many of
    them (from the first) it shows, so that only what the agent actually saw counts as
    retrieved.
    """
    head: JsonDict = {"resourceType": resource_type, "total": total,
                      "returned": len(views), "pages": pages}
    if more:
        head["more"] = "more results exist: raise page_limit or count, or narrow the search"
    text = _assemble(head, views)
    if len(text) <= limit:
        return text, len(views)
    shown = max(_how_many_fit(head, views, limit), 1) if views else 0
    head["truncated"] = (f"output truncated to {limit} characters: showing {shown} of "
                         f"{len(views)} resources; {SEARCH_HINT}")
    return bounded(_assemble(head, views[:shown]), SEARCH_HINT, limit), shown


def _assemble(head: JsonDict, views: list[str]) -> str:
    return "".join((compact_json(head)[:-1], ',"resources":[', ",".join(views), "]}"))


def _how_many_fit(head: JsonDict, views: list[str], limit: int) -> int:
    note = {**head, "truncated": "x" * 300}
    used = len(_assemble(note, []))
    shown = 0
    for view in views:
        used += len(view) + (1 if shown else 0)
        if used > limit:
            break
        shown += 1
    return shown


def bounded(text: str, hint: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    """Cut ``text`` to ``limit`` characters, ending with a note that says how to see the rest."""
    if len(text) <= limit:
        return text
    note = f" ...[output truncated: {len(text)} characters exceed the {limit} limit; {hint}]"
    return text[: limit - len(note)] + note
