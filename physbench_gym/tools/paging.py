"""Run a FHIR search through the client and follow ``Bundle.link[next]`` for more pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from physbench_gym.tools.base import ToolContext, ToolOutput
from physbench_gym.tools.render import render_search

JsonDict = dict[str, Any]


def search_pages(ctx: ToolContext, resource_type: str, params: Sequence[tuple[str, str]],
                 page_limit: int) -> ToolOutput:
    """Search, fetch up to ``page_limit`` pages, and render every resource found."""
    bundle = ctx.client.search(resource_type, list(params))
    total = bundle.get("total") if isinstance(bundle.get("total"), int) else None
    resources = _resources(bundle)
    pages = 1
    while pages < page_limit:
        following = ctx.client.next_page(bundle)
        if following is None:
            break
        bundle = following
        resources.extend(_resources(bundle))
        pages += 1
    more = _has_next(bundle)
    text, shown = render_search(resource_type, resources, total, pages, more)
    return ToolOutput(text=text, status=200, returned=resources[:shown])


def _resources(bundle: JsonDict) -> list[JsonDict]:
    return [entry["resource"] for entry in bundle.get("entry", []) or []
            if isinstance(entry, dict) and isinstance(entry.get("resource"), dict)]


def _has_next(bundle: JsonDict) -> bool:
    return any(isinstance(link, dict) and link.get("relation") == "next"
               for link in bundle.get("link", []) or [])
