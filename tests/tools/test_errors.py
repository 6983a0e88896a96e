"""Agent mistakes become ok=False results with a reason; nothing raises, nothing is written."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from tools_ehr import PATIENT, tagged

from physbench_gym.fhir.client import FhirClient, InProcessTransport
from physbench_gym.tools import ToolContext, Workspace, get_toolset

WRITE_TYPES = ("MedicationRequest", "ServiceRequest", "Communication", "Appointment")


@pytest.fixture()
def toolset():
    return get_toolset("physicianbench")


def nothing_written(client) -> bool:
    return all(tagged(client, kind) == [] for kind in WRITE_TYPES)


def test_unknown_tool_suggests_the_closest_name(toolset, ctx):
    result = toolset.call("fhir_observation_search_lab", {"patient": PATIENT}, ctx)
    assert not result.ok and result.error == result.text
    assert "Unknown tool 'fhir_observation_search_lab'" in result.text
    assert "Did you mean 'fhir_observation_search_labs'?" in result.text


@pytest.mark.parametrize("name", [None, 42, "", "x" * 10_000])
def test_tool_names_of_any_kind_are_answered(toolset, ctx, name):
    result = toolset.call(name, {}, ctx)
    assert not result.ok and "Unknown tool" in result.text and len(result.text) < 2000


@pytest.mark.parametrize(("arguments", "reason"), [
    ('{"patient": ', "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ("42", "must be a JSON object"),
    ([PATIENT], "must be a JSON object"),
    ("[" * 100_000, "not valid JSON"),
])
def test_unparsable_arguments(toolset, ctx, arguments, reason):
    result = toolset.call("fhir_observation_search_labs", arguments, ctx)
    assert not result.ok and reason in result.text


def test_json_text_arguments_are_parsed(toolset, ctx):
    result = toolset.call("fhir_observation_search_labs",
                          json.dumps({"patient": PATIENT, "code": "4548-4"}), ctx)
    assert result.ok and result.arguments == {"patient": PATIENT, "code": "4548-4"}


@pytest.mark.parametrize(("arguments", "reason"), [
    ({}, "patient: Field required"),
    ({"patient": PATIENT, "count": 0}, "count: Input should be greater than or equal to 1"),
    ({"patient": PATIENT, "count": 201}, "count: Input should be less than or equal to 200"),
    ({"patient": PATIENT, "page_limit": 21}, "page_limit"),
    ({"patient": PATIENT, "count": "many"}, "count: Input should be a valid integer"),
    ({"patient": PATIENT, "colour": "red"}, "colour: unknown parameter"),
    ({"patient": "../Patient"}, "patient: Value error, must be a FHIR id"),
    ({"patient": 7}, "patient: Input should be a valid string"),
    ({"patient": PATIENT, "date_ge": "2024-13-01"}, "not a real calendar date"),
    ({"patient": PATIENT, "date_ge": "yesterday"}, "must be a FHIR date"),
    ({"patient": PATIENT, "code": "4548-4 OR 1=1"}, "must be codes like"),
    ({"patient": PATIENT, "status": "done"}, "status: Input should be"),
    ({"patient": PATIENT, "sort": "name"}, "sort: Input should be"),
])
def test_invalid_search_arguments(toolset, ctx, arguments, reason):
    result = toolset.call("fhir_observation_search_labs", arguments, ctx)
    assert not result.ok
    assert reason in result.text
    assert result.returned == []


def test_huge_strings_are_refused_without_echo(toolset, ctx, client):
    huge = "A" * 200_000
    result = toolset.call("fhir_communication_create_message",
                          {"patient": PATIENT, "recipient": "prac-pcp", "text": huge}, ctx)
    assert not result.ok and "at most 20000 characters" in result.text
    assert len(result.text) < 1000
    assert nothing_written(client)


@pytest.mark.parametrize(("tool", "arguments"), [
    ("fhir_medication_request_create", {"patient": PATIENT, "medication_code": "atorvastatin",
                                        "sig": "daily"}),
    ("fhir_medication_request_create", {"patient": PATIENT, "medication_code": "1",
                                        "dose_value": -5, "dose_unit": "mg"}),
    ("fhir_medication_request_create", {"patient": PATIENT, "medication_code": "1",
                                        "dose_value": "NaN", "dose_unit": "mg"}),
    ("fhir_medication_request_create", {"patient": PATIENT, "medication_code": "1",
                                        "sig": "daily", "route": "by mouth"}),
    ("fhir_service_request_create", {"patient": PATIENT, "code": "4548-4",
                                     "category": "blood"}),
    ("fhir_appointment_create", {"patient": PATIENT, "description": "x",
                                 "start": "2024-02-30T09:00:00Z", "minutes_duration": 30}),
    ("fhir_communication_create_message", {"patient": PATIENT, "text": "hi"}),
])
def test_invalid_write_arguments_write_nothing(toolset, ctx, client, tool, arguments):
    result = toolset.call(tool, arguments, ctx)
    assert not result.ok and result.written == []
    assert result.text.startswith(f"Invalid arguments for {tool}")
    assert nothing_written(client)


def test_ehr_rejection_shows_the_operation_outcome(toolset, ctx, client):
    result = toolset.call("fhir_appointment_create", {
        "patient": PATIENT, "description": "x", "based_on": "ServiceRequest/missing"}, ctx)
    assert not result.ok and result.status == 422
    assert "ServiceRequest/missing" in result.text
    assert nothing_written(client)


def test_unreachable_ehr_is_an_error_result(toolset):
    transport = InProcessTransport(lambda request: None)
    transport.close()
    ctx = ToolContext(client=FhirClient(transport), workspace=Workspace(),
                      practitioner_id="p", now=datetime(2024, 1, 1))
    result = toolset.call("fhir_observation_search_labs", {"patient": PATIENT}, ctx)
    assert not result.ok and "could not be reached" in result.text


def test_get_toolset_names_its_choices():
    with pytest.raises(ValueError, match="physicianbench, fhir"):
        get_toolset("openai")
