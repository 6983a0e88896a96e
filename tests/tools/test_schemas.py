"""Every tool's schema is clean JSON Schema an LLM can read: typed, described, closed."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from physbench_gym.tools import TOOLSETS, get_toolset
from physbench_gym.tools.coding import ROUTES
from physbench_gym.tools.orders import Route

DESIGN_TOOLS = [
    "fhir_patient_search_demographics", "fhir_condition_search_problems",
    "fhir_observation_search_labs", "fhir_observation_search_vitals",
    "fhir_observation_search_social_history", "fhir_procedure_search_orders",
    "fhir_medication_request_search_orders", "fhir_document_reference_search_clinical_notes",
    "fhir_service_request_search", "fhir_medication_request_create",
    "fhir_service_request_create", "fhir_communication_create_message",
    "fhir_appointment_create", "write_file",
]
SCHEMAS = [(name, schema) for name in TOOLSETS for schema in get_toolset(name).schemas()]


def walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def test_toolsets_have_the_expected_tools():
    assert get_toolset().names() == [*DESIGN_TOOLS, "finish"]
    assert get_toolset("fhir").names() == [
        "fhir_search", "fhir_read", "fhir_create", "fhir_update", "write_file", "finish"]


@pytest.mark.parametrize(("toolset", "schema"), SCHEMAS,
                         ids=[f"{t}:{s['function']['name']}" for t, s in SCHEMAS])
def test_schema_is_clean_and_described(toolset, schema):
    assert schema["type"] == "function"
    function = schema["function"]
    assert function["description"].strip()
    parameters = function["parameters"]
    assert parameters["type"] == "object" and parameters["additionalProperties"] is False
    assert set(parameters["required"]) <= set(parameters["properties"])
    for name, prop in parameters["properties"].items():
        assert prop.get("description", "").strip(), f"{name} has no description"
        assert "type" in prop or "anyOf" in prop, f"{name} has no type"
    text = json.dumps(schema)
    assert "$defs" not in text and "$ref" not in text
    assert all("title" not in node or isinstance(node["title"], dict) for node in walk(schema))
    assert all({"type": "null"} not in node.get("anyOf", []) for node in walk(schema))


@pytest.mark.parametrize(("toolset", "schema"), SCHEMAS,
                         ids=[f"{t}:{s['function']['name']}" for t, s in SCHEMAS])
def test_schema_is_valid_json_schema(toolset, schema):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(schema["function"]["parameters"])


def test_schema_accepts_a_valid_call_and_rejects_an_extra_field():
    jsonschema = pytest.importorskip("jsonschema")
    [labs] = [s for s in get_toolset().schemas()
              if s["function"]["name"] == "fhir_observation_search_labs"]
    validator = jsonschema.Draft202012Validator(labs["function"]["parameters"])
    assert validator.is_valid({"patient": "p1", "code": "4548-4", "count": 10})
    assert not validator.is_valid({"patient": "p1", "colour": "red"})
    assert not validator.is_valid({"code": "4548-4"})


def test_route_choices_all_have_snomed_codings():
    assert set(get_args(Route)) == set(ROUTES)
