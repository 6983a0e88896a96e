"""The ``fhir`` tool set: raw search, read, create and update through the real client."""

from __future__ import annotations

import json

import pytest
from tools_ehr import CREATININE, CREATININE_COUNT, PATIENT, TAG, tagged

from physbench_gym.tools import get_toolset


@pytest.fixture()
def run(ctx):
    toolset = get_toolset("fhir")
    return lambda name, **arguments: toolset.call(name, arguments, ctx)


def test_search_with_repeated_parameters_and_paging(run):
    result = run("fhir_search", resource_type="Observation", page_limit=3, params={
        "patient": PATIENT, "code": f"http://loinc.org|{CREATININE}",
        "date": ["ge2021-01-01", "le2030-01-01"], "_count": "12", "_sort": "-date"})
    body = json.loads(result.text)
    assert result.ok and body["returned"] == CREATININE_COUNT and body["pages"] == 3
    assert [r["id"] for r in result.returned] == [r["id"] for r in body["resources"]]
    assert result.returned[0]["id"] == f"cr-{CREATININE_COUNT - 1:02d}"


def test_search_unknown_parameter_is_the_servers_400(run):
    result = run("fhir_search", resource_type="Observation", params={"colour": "red"})
    assert not result.ok and result.status == 400
    assert "colour" in result.text


def test_read_decodes_notes_and_reports_missing(run):
    found = run("fhir_read", resource_type="DocumentReference", id="doc-consult")
    assert found.ok and found.returned[0]["id"] == "doc-consult"
    attachment = json.loads(found.text)["content"][0]["attachment"]
    assert attachment["text"].startswith("Consult note")
    missing = run("fhir_read", resource_type="Patient", id="nobody")
    assert not missing.ok and missing.status == 404


def test_create_and_update_are_tagged(run, client):
    created = run("fhir_create", resource={
        "resourceType": "ServiceRequest", "status": "draft", "intent": "order",
        "subject": {"reference": f"Patient/{PATIENT}"},
        "code": {"coding": [{"system": "http://loinc.org", "code": "2160-0"}]}})
    assert created.ok and created.status == 201, created.text
    resource = created.written[0]
    assert TAG in resource["meta"]["tag"]
    updated = run("fhir_update", resource={**resource, "status": "active"})
    assert updated.ok and updated.written[0]["status"] == "active"
    assert [item["status"] for item in tagged(client, "ServiceRequest")] == ["active"]


@pytest.mark.parametrize(("tool", "arguments", "reason"), [
    ("fhir_create", {"resource": {"status": "draft"}}, "needs a resourceType"),
    ("fhir_update", {"resource": {"resourceType": "Patient"}}, "needs the resource's id"),
    ("fhir_read", {"resource_type": "patient", "id": "x"}, "resource_type"),
    ("fhir_read", {"resource_type": "Patient", "id": "a/b"}, "must be a FHIR id"),
    ("fhir_search", {"resource_type": "Observation", "params": {"a b": "1"}},
     "invalid parameter name"),
    ("fhir_search", {"resource_type": "Observation", "params": {"code": {"x": 1}}}, "params"),
])
def test_invalid_arguments(run, client, tool, arguments, reason):
    result = run(tool, **arguments)
    assert not result.ok and reason in result.text
    assert tagged(client, "ServiceRequest") == [] and tagged(client, "Patient") == []


def test_invalid_resource_is_the_servers_error_and_not_stored(run, client):
    result = run("fhir_create", resource={"resourceType": "ServiceRequest", "status": "bogus",
                                          "intent": "order",
                                          "subject": {"reference": f"Patient/{PATIENT}"}})
    assert not result.ok and result.status in (400, 422)
    assert tagged(client, "ServiceRequest") == []
