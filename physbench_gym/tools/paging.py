"""Run a FHIR search through the client and follow ``Bundle.link[next]`` for more pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from physbench_gym.fhir.messages import FhirResponse
from physbench_gym.tools.base import StoredCopies, ToolContext, ToolOutput
from physbench_gym.tools.render import agent_view, render_search

JsonDict = dict[str, Any]


def search_pages(ctx: ToolContext, resource_type: str, params: Sequence[tuple[str, str]],
                 page_limit: int) -> ToolOutput:
    """Search, fetch up to ``page_limit`` pages, and render every resource found.

    When the embedded server hands over the stored versions, each version's view is rendered
    once and reused by every later search that returns it, and no resource is copied.
    """
    pages = [ctx.client.search_page(resource_type, list(params))]
    while len(pages) < page_limit:
        following = ctx.client.following_page(_head(pages[-1]))
        if following is None:
            break
        pages.append(following)
    total = _head(pages[0]).get("total")
    total = total if isinstance(total, int) else None
    more = _has_next(_head(pages[-1]))
    if all(page.stored is not None for page in pages):
        versions = [version for page in pages for version in page.stored or ()]
        views = [version.derived(agent_view) for version in versions]
        text, shown = render_search(resource_type, views, total, len(pages), more)
        return ToolOutput(text=text, status=200, returned=StoredCopies(versions[:shown]),
                          stored=tuple(versions[:shown]))
    resources = [resource for page in pages for resource in _resources(page.body or {})]
    text, shown = render_search(resource_type, [agent_view(item) for item in resources],
                                total, len(pages), more)
    return ToolOutput(text=text, status=200, returned=resources[:shown])


def _head(response: FhirResponse) -> JsonDict:
    return response.head() or {}


def _resources(bundle: JsonDict) -> list[JsonDict]:
    return [entry["resource"] for entry in bundle.get("entry", []) or []
            if isinstance(entry, dict) and isinstance(entry.get("resource"), dict)]


def _has_next(bundle: JsonDict) -> bool:
    return any(isinstance(link, dict) and link.get("relation") == "next"
               for link in bundle.get("link", []) or [])
