"""The ``fhir`` tool set: raw FHIR R4 REST (search, read, create, update) for agents."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import Field, field_validator

from physbench_gym.tools.base import ToolContext, ToolOutput, Toolset, tool
from physbench_gym.tools.common import COMMON_TOOLS
from physbench_gym.tools.fields import FhirId, ToolArgs
from physbench_gym.tools.paging import search_pages
from physbench_gym.tools.render import render_resource

ResourceType = Annotated[str, Field(pattern=r"^[A-Z][A-Za-z]{1,63}$")]
ParamValue = Annotated[str, Field(max_length=1000)]
_PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-:.]{0,63}")
MAX_RESOURCE_CHARS = 200_000


class SearchArgs(ToolArgs):
    """A FHIR search."""

    resource_type: ResourceType = Field(description=(
        "Resource type to search, e.g. 'Observation', 'Condition', 'MedicationRequest'."))
    params: dict[str, ParamValue | Annotated[list[ParamValue], Field(max_length=10)]] = Field(
        default_factory=dict, max_length=30, description=(
            "Search parameters as in a FHIR URL, e.g. {\"patient\": \"123\", \"code\": "
            "\"http://loinc.org|4548-4\", \"date\": [\"ge2023-01-01\", \"le2023-12-31\"], "
            "\"_sort\": \"-date\", \"_count\": \"50\"}; a list repeats the parameter (AND)."))
    page_limit: int = Field(1, ge=1, le=20, description=(
        "How many pages to fetch by following the next links (1-20, default 1)."))

    @field_validator("params")
    @classmethod
    def _names(cls, params: dict[str, Any]) -> dict[str, Any]:
        bad = [name for name in params if not _PARAM_NAME.fullmatch(name)]
        if bad:
            raise ValueError(f"invalid parameter name {bad[0][:64]!r}")
        return params


class ReadArgs(ToolArgs):
    """A FHIR read."""

    resource_type: ResourceType = Field(description="Resource type, e.g. 'Patient'.")
    id: FhirId = Field(description="The resource's FHIR id.")


class ResourceArgs(ToolArgs):
    """A FHIR resource to write."""

    resource: dict[str, Any] = Field(description=(
        "The complete FHIR R4 resource as JSON, with its resourceType (and id for an update)."))

    @field_validator("resource")
    @classmethod
    def _resource(cls, resource: dict[str, Any]) -> dict[str, Any]:
        kind = resource.get("resourceType")
        if not isinstance(kind, str) or not re.fullmatch(r"[A-Z][A-Za-z]{1,63}", kind):
            raise ValueError("the resource needs a resourceType such as 'ServiceRequest'")
        if len(json.dumps(resource, ensure_ascii=False, default=str)) > MAX_RESOURCE_CHARS:
            raise ValueError(f"the resource is larger than {MAX_RESOURCE_CHARS} characters")
        return resource


class UpdateArgs(ResourceArgs):
    """A FHIR resource to replace."""

    @field_validator("resource")
    @classmethod
    def _has_id(cls, resource: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(resource.get("id"), str) or not resource["id"]:
            raise ValueError("an update needs the resource's id")
        return resource


def _pairs(params: dict[str, str | list[str]]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for name, value in params.items():
        pairs.extend((name, item) for item in (value if isinstance(value, list) else [value]))
    return pairs


@tool(SearchArgs)
def fhir_search(args: SearchArgs, ctx: ToolContext) -> ToolOutput:
    """Search any FHIR resource type with standard R4 search parameters.

    Returns the matching resources (notes decoded to text) of up to page_limit pages.
    """
    return search_pages(ctx, args.resource_type, _pairs(args.params), args.page_limit)


@tool(ReadArgs)
def fhir_read(args: ReadArgs, ctx: ToolContext) -> ToolOutput:
    """Read one FHIR resource by type and id."""
    found = ctx.client.read(args.resource_type, args.id)
    return ToolOutput(text=render_resource(found), status=200, returned=[found])


@tool(ResourceArgs, writes=True)
def fhir_create(args: ResourceArgs, ctx: ToolContext) -> ToolOutput:
    """Create a FHIR resource (the server assigns its id); returns the stored resource."""
    created = ctx.client.create(args.resource)
    label = f"{created.get('resourceType')}/{created.get('id')}"
    return ToolOutput(text=f"Created {label}: {render_resource(created)}", status=201,
                      written=[created])


@tool(UpdateArgs, writes=True)
def fhir_update(args: UpdateArgs, ctx: ToolContext) -> ToolOutput:
    """Replace a FHIR resource at its type and id with the version you give."""
    updated = ctx.client.update(args.resource)
    label = f"{updated.get('resourceType')}/{updated.get('id')}"
    return ToolOutput(text=f"Updated {label}: {render_resource(updated)}", status=200,
                      written=[updated])


def fhir_toolset() -> Toolset:
    """Generic search, read, create and update, plus ``write_file`` and ``finish``."""
    return Toolset("fhir", [fhir_search, fhir_read, fhir_create, fhir_update, *COMMON_TOOLS])
