"""REST interactions of the embedded server over both transports: CRUD, conditional create,
batch/transaction, $everything and metadata."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from resources import GLUCOSE, client_for, ids_of, new_base, new_server

from physbench_gym.fhir.client import FhirClient
from physbench_gym.fhir.search_params import SEARCH_PARAMS
from physbench_gym.fhir.store import BaseStore


@pytest.fixture(scope="module")
def base() -> BaseStore:
    return new_base()


@pytest.fixture(params=["inprocess", "http"])
def client(request: pytest.FixtureRequest, base: BaseStore) -> Iterator[FhirClient]:
    with client_for(request.param, new_server(base)) as c:
        yield c


def new_observation(patient: str = "p3", **extra: Any) -> dict[str, Any]:
    return {"resourceType": "Observation", "status": "final",
            "code": {"coding": [{"system": "http://loinc.org", "code": GLUCOSE}]},
            "subject": {"reference": patient if ":" in patient else f"Patient/{patient}"},
            "effectiveDateTime": "2024-05-01T08:00:00Z",
            "valueQuantity": {"value": 140, "unit": "mg/dL"}, **extra}


def test_read_and_not_found(client: FhirClient) -> None:
    response = client.request("GET", "Patient/p1")
    assert response.status == 200
    assert response.body["name"][0]["family"] == "Müller"
    assert response.headers.get("ETag") == 'W/"3"'
    assert client.request("GET", "Patient/nobody").status == 404
    assert client.request("GET", "Basic/x").status == 404


def test_create_stamps_and_locates(client: FhirClient) -> None:
    tag = {"system": "urn:episode", "code": "ep-1"}
    sent = new_observation(id="ignored", meta={"tag": [tag], "versionId": "9"})
    response = client.request("POST", "Observation", body=sent)
    assert response.status == 201, response.body
    body = response.body
    assert body["id"] != "ignored"
    assert body["meta"]["versionId"] == "1"
    assert body["meta"]["lastUpdated"] == "2024-06-01T12:00:00.000Z"
    assert tag in body["meta"]["tag"]
    location = response.headers["Location"]
    assert location.endswith(f"/Observation/{body['id']}/_history/1")
    assert location.startswith(client.base_url)
    assert client.request("GET", f"Observation/{body['id']}").body == body
    assert sent["id"] == "ignored" and sent["meta"]["versionId"] == "9"
    bundle = client.request("GET", "Observation", [("patient", "p3")]).body
    assert ids_of(bundle) == [body["id"]]


def test_update_versions_and_create_on_update(client: FhirClient) -> None:
    created = client.request("POST", "Observation", body=new_observation()).body
    changed = dict(created, status="amended")
    response = client.request("PUT", f"Observation/{created['id']}", body=changed)
    assert response.status == 200
    assert response.body["meta"]["versionId"] == "2"
    assert client.request("GET", f"Observation/{created['id']}/_history/1").body["status"] == \
        "final"
    assert client.request("GET", f"Observation/{created['id']}/_history/2").body["status"] == \
        "amended"
    stale = client.request("PUT", f"Observation/{created['id']}", body=changed,
                           headers={"If-Match": 'W/"1"'})
    assert stale.status == 412
    fresh = dict(new_observation(), id="client-chosen-1")
    response = client.request("PUT", "Observation/client-chosen-1", body=fresh)
    assert response.status == 201 and response.body["meta"]["versionId"] == "1"
    base_update = client.request("PUT", "Patient/p1", body={
        "resourceType": "Patient", "id": "p1", "gender": "female"})
    assert base_update.body["meta"]["versionId"] == "4"


def test_delete_then_gone(client: FhirClient) -> None:
    created = client.request("POST", "Observation", body=new_observation()).body
    path = f"Observation/{created['id']}"
    assert client.request("DELETE", path).status == 204
    assert client.request("GET", path).status == 410
    assert client.request("DELETE", path).status == 204
    assert client.request("DELETE", "Observation/never-was").status == 404
    assert ids_of(client.request("GET", "Observation", [("patient", "p3")]).body) == []
    assert client.request("DELETE", "Observation/g4").status == 204
    assert "g4" not in ids_of(client.request("GET", "Observation", [("code", GLUCOSE)]).body)


def test_delete_of_referenced_resource_conflicts(client: FhirClient) -> None:
    response = client.request("DELETE", "Encounter/enc1")
    assert response.status == 409
    assert "Observation/g3" in response.body["issue"][0]["diagnostics"]
    assert client.request("GET", "Encounter/enc1").status == 200


def test_conditional_create(client: FhirClient) -> None:
    patient = {"resourceType": "Patient", "identifier": [{"system": "urn:mrn", "value": "MRN-9"}]}
    header = {"If-None-Exist": "identifier=urn:mrn|MRN-9"}
    first = client.request("POST", "Patient", body=patient, headers=header)
    assert first.status == 201
    second = client.request("POST", "Patient", body=patient, headers=header)
    assert second.status == 200 and second.body["id"] == first.body["id"]
    twice = client.request("POST", "Patient", body=patient,
                           headers={"If-None-Exist": "gender=female"})
    assert twice.status == 412
    assert client.request("GET", "Patient", [("identifier", "MRN-9")]).body["total"] == 1


def test_transaction_rewrites_urn_references(client: FhirClient) -> None:
    bundle = {"resourceType": "Bundle", "type": "transaction", "entry": [
        {"fullUrl": "urn:uuid:obs-1", "resource": new_observation(
            "urn:uuid:pat-1", hasMember=[{"reference": "urn:uuid:obs-2"}]),
         "request": {"method": "POST", "url": "Observation"}},
        {"fullUrl": "urn:uuid:obs-2", "resource": new_observation("urn:uuid:pat-1"),
         "request": {"method": "POST", "url": "Observation"}},
        {"fullUrl": "urn:uuid:pat-1", "resource": {"resourceType": "Patient", "gender": "other"},
         "request": {"method": "POST", "url": "Patient"}},
        {"request": {"method": "GET", "url": "Patient?gender=other"}},
    ]}
    response = client.request("POST", "", body=bundle)
    assert response.status == 200, response.body
    answers = response.body["entry"]
    assert response.body["type"] == "transaction-response"
    assert [a["response"]["status"] for a in answers[:3]] == ["201 Created"] * 3
    patient_id = answers[2]["response"]["location"].split("/")[-3]
    member_id = answers[1]["response"]["location"].split("/")[-3]
    first = client.request("GET", "/".join(answers[0]["response"]["location"].split("/")[-4:-2]))
    assert first.body["subject"]["reference"] == f"Patient/{patient_id}"
    assert first.body["hasMember"][0]["reference"] == f"Observation/{member_id}"
    assert answers[3]["resource"]["total"] == 1


def test_batch_answers_each_entry(client: FhirClient) -> None:
    bundle = {"resourceType": "Bundle", "type": "batch", "entry": [
        {"resource": new_observation(), "request": {"method": "POST", "url": "Observation"}},
        {"resource": new_observation(status="bogus"),
         "request": {"method": "POST", "url": "Observation"}},
        {"request": {"method": "GET", "url": "Patient/p2"}},
        {"request": {"method": "GET", "url": "Patient/none"}},
    ]}
    response = client.request("POST", "", body=bundle)
    assert response.status == 200
    statuses = [e["response"]["status"][:3] for e in response.body["entry"]]
    assert statuses == ["201", "422", "200", "404"]
    assert response.body["entry"][1]["response"]["outcome"]["resourceType"] == "OperationOutcome"
    assert response.body["entry"][2]["resource"]["id"] == "p2"
    assert client.request("GET", "Observation", [("patient", "p3")]).body["total"] == 1


def test_everything_pages_through_the_compartment(client: FhirClient) -> None:
    response = client.request("GET", "Patient/p1/$everything", [("_count", "5")])
    assert response.status == 200
    page = response.body
    assert page["total"] == 11
    seen = ids_of(page)
    assert seen[0] == "p1"
    while (page := client.next_page(page)) is not None:
        seen += ids_of(page)
    assert sorted(seen) == sorted(["p1", "enc1", "cond1", "mr1", "g1", "g2", "g3", "c1",
                                   "doc1", "doc2", "doc3"])
    assert client.request("GET", "Patient/nobody/$everything").status == 404


def test_metadata_lists_the_real_parameter_table(client: FhirClient) -> None:
    response = client.request("GET", "metadata")
    assert response.status == 200
    statement = response.body
    assert statement["resourceType"] == "CapabilityStatement"
    assert statement["fhirVersion"] == "4.0.1"
    resources = {r["type"]: r for r in statement["rest"][0]["resource"]}
    assert set(resources) == set(SEARCH_PARAMS)
    for rtype, params in SEARCH_PARAMS.items():
        assert {p["name"] for p in resources[rtype]["searchParam"]} == set(params)
    observation = {p["name"]: p for p in resources["Observation"]["searchParam"]}
    assert observation["date"]["type"] == "date"
    assert "Observation.effectiveDateTime" in observation["date"]["documentation"]
    assert "Observation:subject" in resources["Patient"]["searchRevInclude"]
    assert resources["Patient"]["operation"][0]["name"] == "everything"


def test_method_not_allowed(client: FhirClient) -> None:
    assert client.request("DELETE", "Observation").status == 405
    assert client.request("PATCH", "Observation/g1", body={"op": "x"}).status == 405
