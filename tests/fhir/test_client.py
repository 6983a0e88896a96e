"""FhirClient on both transports: every method, paging, tags, errors, loading data."""

from __future__ import annotations

import json
import socket

import pytest

from physbench_gym.fhir.client import (
    FhirClient,
    HttpTransport,
    InProcessTransport,
    in_process_client,
    load_bundle,
)
from physbench_gym.fhir.errors import FhirError, FhirTransportError
from physbench_gym.fhir.loading import (
    ResourceFileError,
    bundle_from_resources,
    read_resources,
    transaction_chunks,
)

PATIENT_ID = "pat-1"
OTHER_PATIENT_ID = "pat-2"
LOINC = "http://loinc.org"
EPISODE_TAG = {"system": "urn:physbench:episode", "code": "ep-42"}


def _ids(resources: list[dict]) -> list[str]:
    return [resource["id"] for resource in resources]


def _observation(patient: str, value: float = 5.5) -> dict:
    return {"resourceType": "Observation", "status": "final",
            "code": {"coding": [{"system": LOINC, "code": "2345-7", "display": "Glucose"}]},
            "subject": {"reference": f"Patient/{patient}"},
            "effectiveDateTime": "2024-01-20T08:00:00Z",
            "valueQuantity": {"value": value, "unit": "mmol/L"}}


def _tagged_client(client: FhirClient) -> FhirClient:
    return FhirClient(client.transport, tags=[EPISODE_TAG])


def test_read_returns_the_resource(fhir_client: FhirClient) -> None:
    patient = fhir_client.read("Patient", PATIENT_ID)
    assert patient["resourceType"] == "Patient"
    assert patient["name"][0]["family"] == "Garcia"


def test_search_returns_sorted_searchset(fhir_client: FhirClient, fhir_sample) -> None:
    bundle = fhir_client.search("Observation", {"patient": PATIENT_ID,
                                                "code": f"{LOINC}|{fhir_sample.hba1c_code}",
                                                "_sort": "-date"})
    assert bundle["resourceType"] == "Bundle" and bundle["type"] == "searchset"
    dates = [entry["resource"]["effectiveDateTime"][:10] for entry in bundle["entry"]]
    assert dates == sorted(fhir_sample.hba1c_dates, reverse=True)


def test_repeated_parameters_combine_with_and(fhir_client: FhirClient, fhir_sample) -> None:
    found = fhir_client.search_all("Observation", {
        "patient": PATIENT_ID, "code": fhir_sample.hba1c_code,
        "date": ["ge2023-04-01", "lt2023-11-01"]})
    assert sorted(r["effectiveDateTime"][:10] for r in found) == [
        "2023-04-20", "2023-07-18", "2023-10-02"]


def test_query_inside_the_path_is_kept(fhir_client: FhirClient) -> None:
    response = fhir_client.request("GET", f"Observation?patient={PATIENT_ID}&_count=1",
                                   params=[("code", "4548-4")])
    assert response.status == 200
    assert len(response.body["entry"]) == 1
    assert response.body["total"] == 5


def test_next_page_walks_to_the_end(fhir_client: FhirClient, fhir_sample) -> None:
    page = fhir_client.search("Observation", [("patient", PATIENT_ID), ("_count", "3")])
    seen: list[str] = []
    pages = 0
    while page is not None and pages < 10:
        seen.extend(_ids([entry["resource"] for entry in page.get("entry", [])]))
        page = fhir_client.next_page(page)
        pages += 1
    assert pages == 3
    assert len(seen) == len(set(seen)) == fhir_sample.patient_observations


def test_next_page_rebases_links_from_a_proxied_host(fhir_client: FhirClient) -> None:
    page = fhir_client.search("Observation", {"patient": PATIENT_ID, "_count": 3})
    link = next(item for item in page["link"] if item["relation"] == "next")
    path = link["url"].split("/fhir/", 1)[1]
    moved = {**page, "link": [{"relation": "next",
                               "url": f"https://internal.example:8443/fhir/{path}"}]}
    second = fhir_client.next_page(moved)
    assert second is not None and len(second["entry"]) == 3
    elsewhere = {**page, "link": [{"relation": "next",
                                   "url": f"https://internal.example/other/{path}"}]}
    with pytest.raises(FhirTransportError, match="not below"):
        fhir_client.next_page(elsewhere)


def test_absolute_urls_to_other_servers_are_refused(fhir_client: FhirClient) -> None:
    with pytest.raises(FhirTransportError):
        fhir_client.request("GET", "http://elsewhere.example/fhir/Patient")


def test_search_all_collects_every_page(fhir_client: FhirClient, fhir_sample) -> None:
    found = fhir_client.search_all("Observation", {"patient": PATIENT_ID, "_count": 2})
    assert len(set(_ids(found))) == fhir_sample.patient_observations
    first = fhir_client.search_all("Observation", {"patient": PATIENT_ID, "_count": 2},
                                   max_pages=1)
    assert len(first) == 2


def test_search_all_keeps_only_matches(fhir_client: FhirClient) -> None:
    found = fhir_client.search_all("Observation", {"_id": "a1c-1",
                                                   "_include": "Observation:subject"})
    assert _ids(found) == ["a1c-1"]


def test_next_page_of_last_page_is_none(fhir_client: FhirClient) -> None:
    bundle = fhir_client.search("Patient", {"_id": PATIENT_ID})
    assert fhir_client.next_page(bundle) is None


def test_create_then_read(fhir_client: FhirClient) -> None:
    created = fhir_client.create(_observation(PATIENT_ID))
    assert created["id"] and created["meta"]["versionId"]
    assert fhir_client.read("Observation", created["id"])["valueQuantity"]["value"] == 5.5


def test_tags_are_added_on_create(fhir_client: FhirClient) -> None:
    tagged = _tagged_client(fhir_client)
    created = tagged.create(_observation(PATIENT_ID))
    assert EPISODE_TAG in created["meta"]["tag"]
    found = fhir_client.search_all("Observation", {"_tag": "urn:physbench:episode|ep-42"})
    assert _ids(found) == [created["id"]]


def test_conditional_create_returns_existing(fhir_client: FhirClient) -> None:
    patient = {"resourceType": "Patient", "identifier": [{"system": "urn:mrn",
                                                          "value": "MRN0001"}]}
    existing = fhir_client.create(patient, if_none_exist="identifier=urn:mrn|MRN0001")
    assert existing["id"] == PATIENT_ID


def test_update_bumps_version(fhir_client: FhirClient) -> None:
    patient = fhir_client.read("Patient", OTHER_PATIENT_ID)
    updated = fhir_client.update({**patient, "birthDate": "1975-11-21"})
    assert updated["birthDate"] == "1975-11-21"
    assert updated["meta"]["versionId"] != patient.get("meta", {}).get("versionId")
    assert fhir_client.read("Patient", OTHER_PATIENT_ID)["birthDate"] == "1975-11-21"


def test_delete_removes(fhir_client: FhirClient) -> None:
    created = fhir_client.create(_observation(OTHER_PATIENT_ID))
    fhir_client.delete("Observation", created["id"])
    with pytest.raises(FhirError) as caught:
        fhir_client.read("Observation", created["id"])
    assert caught.value.status in (404, 410)


def test_transaction_resolves_urn_references_and_tags(fhir_client: FhirClient) -> None:
    bundle = {"resourceType": "Bundle", "type": "transaction", "entry": [
        {"fullUrl": "urn:uuid:6b1f0c3e-0000-4000-8000-000000000001",
         "resource": {"resourceType": "Patient", "name": [{"family": "Okafor"}]},
         "request": {"method": "POST", "url": "Patient"}},
        {"resource": {**_observation("x"), "subject": {
            "reference": "urn:uuid:6b1f0c3e-0000-4000-8000-000000000001"}},
         "request": {"method": "POST", "url": "Observation"}},
    ]}
    response = _tagged_client(fhir_client).transaction(bundle)
    assert response["type"] == "transaction-response"
    assert [entry["response"]["status"][:3] for entry in response["entry"]] == ["201", "201"]
    tagged = fhir_client.search_all("Observation", {"_tag": "urn:physbench:episode|ep-42"})
    patient_id = tagged[0]["subject"]["reference"].split("/")[-1]
    assert EPISODE_TAG in fhir_client.read("Patient", patient_id)["meta"]["tag"]


def test_capabilities(fhir_client: FhirClient) -> None:
    statement = fhir_client.capabilities()
    assert statement["resourceType"] == "CapabilityStatement"
    assert statement["fhirVersion"].startswith("4.0")


def test_missing_resource_raises_with_outcome(fhir_client: FhirClient) -> None:
    with pytest.raises(FhirError) as caught:
        fhir_client.read("Patient", "no-such-patient")
    assert caught.value.status == 404
    assert caught.value.outcome["resourceType"] == "OperationOutcome"


def test_unknown_search_parameter_raises_400(fhir_client: FhirClient) -> None:
    with pytest.raises(FhirError) as caught:
        fhir_client.search("Observation", {"colour": "blue"})
    assert caught.value.status == 400
    assert "colour" in str(caught.value)


def test_invalid_resource_is_rejected(fhir_client: FhirClient) -> None:
    invalid = {key: value for key, value in _observation(PATIENT_ID).items() if key != "status"}
    with pytest.raises(FhirError) as caught:
        fhir_client.create(invalid)
    assert caught.value.status in (400, 422)
    assert caught.value.outcome["issue"]


@pytest.mark.parametrize("bad_id", ["../Patient", "a/b", "..", "x" * 65, ""])
def test_bad_ids_never_reach_the_server(fhir_client: FhirClient, bad_id: str) -> None:
    with pytest.raises(FhirError) as caught:
        fhir_client.read("Patient", bad_id)
    assert caught.value.status == 400 and "invalid resource id" in str(caught.value)


def test_request_returns_http_errors(fhir_client: FhirClient) -> None:
    response = fhir_client.request("GET", "Patient/no-such-patient")
    assert response.status == 404 and not response.ok
    assert response.body["resourceType"] == "OperationOutcome"


def test_close_twice(fhir_client: FhirClient) -> None:
    fhir_client.close()
    fhir_client.close()


def test_closed_in_process_transport_raises(fhir_server_factory) -> None:
    client = in_process_client(fhir_server_factory())
    client.close()
    with pytest.raises(FhirTransportError):
        client.read("Patient", PATIENT_ID)


def test_unreachable_server_raises_transport_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = FhirClient(HttpTransport(f"http://127.0.0.1:{port}/fhir", timeout=2.0))
    with pytest.raises(FhirTransportError) as caught:
        client.read("Patient", PATIENT_ID)
    assert isinstance(caught.value, ConnectionError)
    client.close()


def test_in_process_client_adds_tags(fhir_server_factory) -> None:
    client = in_process_client(fhir_server_factory(), tags=[EPISODE_TAG])
    assert isinstance(client.transport, InProcessTransport)
    assert EPISODE_TAG in client.create(_observation(PATIENT_ID))["meta"]["tag"]


def test_load_bundle_keeps_ids_and_orders_references(fhir_client: FhirClient) -> None:
    resources = [{**_observation("loaded-pat", float(n)), "id": f"loaded-obs-{n}"}
                 for n in range(5)]
    resources.append({"resourceType": "Patient", "id": "loaded-pat",
                      "generalPractitioner": [{"reference": "Practitioner/loaded-doc"}]})
    resources.append({"resourceType": "Practitioner", "id": "loaded-doc"})
    response = load_bundle(fhir_client, bundle_from_resources(resources), chunk_size=2)
    assert len(response["entry"]) == len(resources)
    assert fhir_client.read("Practitioner", "loaded-doc")["id"] == "loaded-doc"
    loaded = fhir_client.search_all("Observation", {"patient": "loaded-pat"})
    assert sorted(_ids(loaded)) == [f"loaded-obs-{n}" for n in range(5)]


def test_load_bundle_with_server_assigned_ids(fhir_client: FhirClient) -> None:
    bundle = {"resourceType": "Bundle", "type": "collection", "entry": [
        {"fullUrl": "urn:uuid:0e0e0e0e-0000-4000-8000-000000000002",
         "resource": {"resourceType": "Patient", "name": [{"family": "Haddad"}]}},
        {"resource": {**_observation("x"), "subject": {
            "reference": "urn:uuid:0e0e0e0e-0000-4000-8000-000000000002"}}},
    ]}
    load_bundle(fhir_client, bundle, chunk_size=1)
    patient = fhir_client.search_all("Patient", {"family": "Haddad"})[0]
    assert len(fhir_client.search_all("Observation", {"patient": patient["id"]})) == 1


def test_load_bundle_reports_the_rejected_chunk(fhir_client: FhirClient) -> None:
    bundle = bundle_from_resources([{"resourceType": "Observation", "id": "orphan",
                                     **_observation("no-such-patient")}])
    with pytest.raises(FhirError) as caught:
        load_bundle(fhir_client, bundle)
    assert caught.value.status >= 400
    assert fhir_client.request("GET", "Observation/orphan").status == 404


def test_practitioner_is_in_the_base(fhir_client: FhirClient, fhir_sample) -> None:
    practitioner = fhir_client.read("Practitioner", fhir_sample.practitioner_id)
    assert practitioner["resourceType"] == "Practitioner"


def test_read_resources_from_ndjson_and_bundles(tmp_path) -> None:
    (tmp_path / "nested").mkdir()
    (tmp_path / "a.ndjson").write_text(
        '{"resourceType": "Patient", "id": "p1"}\n\n{"resourceType": "Patient", "id": "p2"}\n')
    bundle = bundle_from_resources([{"resourceType": "Practitioner", "id": "d1"}])
    (tmp_path / "nested" / "b.json").write_text(json.dumps(bundle))
    (tmp_path / "c.json").write_text('{"resourceType": "Organization", "id": "o1"}')
    (tmp_path / "notes.txt").write_text("ignored")
    assert _ids(list(read_resources(tmp_path))) == ["p1", "p2", "o1", "d1"]


@pytest.mark.parametrize(("name", "text", "where", "reason"), [
    ("bad.ndjson", '{"resourceType": "Patient"}\n{"resourceType": \n', "bad.ndjson:2",
     "invalid JSON"),
    ("bad.ndjson", '{"resourceType": "Patient"}\n[1, 2]\n', "bad.ndjson:2", "resourceType"),
    ("bad.json", '{\n  "resourceType": "Bundle",\n  "entry": [}\n', "bad.json:3", "invalid JSON"),
    ("bad.json", '{"resourceType": "Bundle", "entry": [{"resource": 7}]}', "bad.json",
     "entry[0]"),
    ("bad.json", '{"id": "x"}', "bad.json", "resourceType"),
])
def test_read_resources_names_file_and_line(tmp_path, name: str, text: str, where: str,
                                            reason: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(ResourceFileError) as caught:
        list(read_resources(tmp_path))
    assert where in str(caught.value) and reason in str(caught.value)


def test_read_resources_rejects_missing_and_empty_paths(tmp_path) -> None:
    with pytest.raises(ResourceFileError, match="no such file"):
        list(read_resources(tmp_path / "absent"))
    with pytest.raises(ResourceFileError, match="holds no"):
        list(read_resources(tmp_path))
    (tmp_path / "data.csv").write_text("a,b")
    with pytest.raises(ResourceFileError, match="neither"):
        list(read_resources(tmp_path / "data.csv"))


def test_bundle_from_resources_shapes_entries() -> None:
    bundle = bundle_from_resources([{"resourceType": "Patient", "id": "p1"},
                                    {"resourceType": "Patient"}])
    assert [entry["request"] for entry in bundle["entry"]] == [
        {"method": "PUT", "url": "Patient/p1"}, {"method": "POST", "url": "Patient"}]
    posted = bundle_from_resources([{"resourceType": "Patient", "id": "p1"}], method="post")
    assert posted["entry"][0]["request"] == {"method": "POST", "url": "Patient"}
    with pytest.raises(ValueError, match="PUT or POST"):
        bundle_from_resources([], method="PATCH")
    with pytest.raises(ValueError, match="resourceType"):
        bundle_from_resources([{"id": "x"}])


def test_transaction_chunks_put_referenced_first() -> None:
    resources = [{"resourceType": "Observation", "id": "o1",
                  "subject": {"reference": "Patient/p1"}},
                 {"resourceType": "Patient", "id": "p1",
                  "managingOrganization": {"reference": "Organization/g1"}},
                 {"resourceType": "Organization", "id": "g1"}]
    chunks = transaction_chunks(bundle_from_resources(resources), chunk_size=1)
    assert [chunk["entry"][0]["request"]["url"] for chunk in chunks] == [
        "Organization/g1", "Patient/p1", "Observation/o1"]
