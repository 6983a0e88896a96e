"""Validation of written resources: structure (400), rules and references (422), with paths."""

from __future__ import annotations

from typing import Any

import pytest
from resources import new_base, new_server

from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.messages import FhirRequest
from physbench_gym.fhir.store import BaseStore


@pytest.fixture(scope="module")
def base() -> BaseStore:
    return new_base()


@pytest.fixture
def server(base: BaseStore) -> FhirServer:
    return new_server(base)


def post(server: FhirServer, body: Any, path: str = "") -> tuple[int, dict]:
    path = path or (body.get("resourceType", "Observation") if isinstance(body, dict) else "")
    response = server.handle(FhirRequest("POST", path, body=body))
    return response.status, response.body


def expressions(outcome: dict) -> list[str]:
    return [e for issue in outcome["issue"] for e in issue.get("expression", [])]


def test_structure_errors_have_one_issue_each_with_paths(server: FhirServer) -> None:
    status, outcome = post(server, {
        "resourceType": "Observation", "code": {"text": "x"}, "colour": "red",
        "subject": {"reference": 5}, "effectiveDateTime": "2024-13-45",
        "component": [{"code": {"text": "a"}}, {"valueString": "no code"}]})
    assert status == 400
    assert sorted(expressions(outcome)) == sorted([
        "Observation.status", "Observation.colour", "Observation.subject.reference",
        "Observation.effectiveDateTime", "Observation.component[1].code"])
    assert server.store.written() == []


def test_empty_values_are_rejected(server: FhirServer) -> None:
    status, outcome = post(server, {"resourceType": "Appointment", "status": "booked",
                                    "participant": []})
    assert status == 400
    assert "Appointment.participant" in expressions(outcome)


@pytest.mark.parametrize(("resource", "path"), [
    ({"resourceType": "Observation", "status": "done", "code": {"text": "x"}},
     "Observation.status"),
    ({"resourceType": "MedicationRequest", "status": "active", "intent": "suggestion",
      "medicationCodeableConcept": {"text": "x"}, "subject": {"reference": "Patient/p1"}},
     "MedicationRequest.intent"),
    ({"resourceType": "ServiceRequest", "status": "open", "intent": "order",
      "subject": {"reference": "Patient/p1"}}, "ServiceRequest.status"),
    ({"resourceType": "Communication", "status": "sent"}, "Communication.status"),
    ({"resourceType": "Appointment", "status": "booked",
      "participant": [{"actor": {"reference": "Patient/p1"}, "status": "accepted"}]},
     "Appointment.start"),
    ({"resourceType": "Appointment", "status": "proposed",
      "participant": [{"actor": {"reference": "Patient/p1"}, "status": "maybe"}]},
     "Appointment.participant[0].status"),
    ({"resourceType": "Patient", "gender": "F"}, "Patient.gender"),
])
def test_required_codes_answer_422(server: FhirServer, resource: dict, path: str) -> None:
    status, outcome = post(server, resource)
    assert status == 422, outcome
    assert path in expressions(outcome)


def test_missing_required_elements(server: FhirServer) -> None:
    status, outcome = post(server, {"resourceType": "MedicationRequest", "status": "active",
                                    "subject": {"reference": "Patient/p1"}})
    assert status == 400
    assert {"MedicationRequest.intent", "MedicationRequest.medication"} <= set(
        expressions(outcome))


def test_referential_integrity(server: FhirServer) -> None:
    status, outcome = post(server, {
        "resourceType": "ServiceRequest", "status": "active", "intent": "order",
        "subject": {"reference": "Patient/ghost"},
        "requester": {"reference": "Practitioner/dr1"},
        "encounter": {"reference": "Encounter/none"},
        "reasonReference": [{"reference": "Condition/cond1"}, {"reference": "urn:uuid:x"}]})
    assert status == 422
    assert sorted(expressions(outcome)) == ["ServiceRequest.encounter",
                                            "ServiceRequest.reasonReference[1]",
                                            "ServiceRequest.subject"]
    assert any("Patient/ghost" in issue["diagnostics"] for issue in outcome["issue"])
    status, _ = post(server, {"resourceType": "ServiceRequest", "status": "active",
                              "intent": "order", "subject": {"reference": "Patient/p1"},
                              "requester": {"reference": "Practitioner/dr1"}})
    assert status == 201


def test_type_and_id_must_match_the_url(server: FhirServer) -> None:
    status, outcome = post(server, {"resourceType": "Patient"}, path="Observation")
    assert status == 400 and "Observation" in outcome["issue"][0]["diagnostics"]
    response = server.handle(FhirRequest("PUT", "Patient/p1", body={
        "resourceType": "Patient", "id": "p2"}))
    assert response.status == 400
    response = server.handle(FhirRequest("PUT", "Patient/p1", body={"resourceType": "Patient"}))
    assert response.status == 400
    assert server.store.written() == []
    assert server.store.get("Patient", "p1")["name"][0]["family"] == "Müller"
