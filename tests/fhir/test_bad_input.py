"""Bad input always gets a structured error and never changes what is stored."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from resources import GLUCOSE, new_base, new_server

from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.messages import FhirRequest
from physbench_gym.fhir.store import BaseStore


@pytest.fixture(scope="module")
def base() -> BaseStore:
    return new_base()


@pytest.fixture
def server(base: BaseStore) -> FhirServer:
    return new_server(base)


def assert_outcome(response: Any, status: int) -> dict:
    assert response.status == status, response.body
    assert response.body["resourceType"] == "OperationOutcome"
    assert all(issue["severity"] == "error" for issue in response.body["issue"])
    return response.body


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe", b"[1, 2]", b"", b"null"])
def test_malformed_bodies(server: FhirServer, body: bytes) -> None:
    assert_outcome(server.handle(FhirRequest("POST", "Patient", body=body)), 400)
    assert server.store.written() == []


@pytest.mark.parametrize("resource_type", ["Patientt", None, 7, "Bundle"])
def test_unknown_resource_types_in_bodies(server: FhirServer, resource_type: Any) -> None:
    body = {"resourceType": resource_type, "gender": "male"}
    assert_outcome(server.handle(FhirRequest("POST", "Patient", body=body)), 400)


def test_unknown_resource_type_in_path(server: FhirServer) -> None:
    assert_outcome(server.handle(FhirRequest("GET", "Patientt")), 404)


@pytest.mark.parametrize("bad_id", ["a/b", "..", "a" * 10_000, "white space", "ünï"])
def test_bad_ids(server: FhirServer, bad_id: str) -> None:
    body = {"resourceType": "Patient", "id": bad_id}
    for method, path in (("GET", f"Patient/{bad_id}"), ("PUT", f"Patient/{bad_id}"),
                         ("DELETE", f"Patient/{bad_id}")):
        response = server.handle(FhirRequest(method, path, body=body))
        assert response.status in (400, 404), response.body
        assert response.body["resourceType"] == "OperationOutcome"
        assert len(str(response.body)) < 2_000
    assert server.store.written() == []


@pytest.mark.parametrize("value", ["2024-13-01", "2023-02-29", "yesterday", "xx2024",
                                   "gt", "2024-01-01T25:00", "ge 2024"])
def test_bad_dates_and_prefixes(server: FhirServer, value: str) -> None:
    outcome = assert_outcome(server.handle(FhirRequest("GET", "Observation",
                                                       (("date", value),))), 400)
    assert outcome["issue"][0]["expression"] == ["date"]


@pytest.mark.parametrize(("name", "value"), [
    ("bogus", "1"), ("code:below", GLUCOSE), ("subject.name", "x"), ("_count", "-1"),
    ("_count", "ten"), ("_sort", "colour"), ("_include", "Observation:code"),
    ("_summary", "true"), ("value-quantity", "abc"), ("value-quantity", "1|2"),
    ("encounter:missing", "maybe"), ("code", ""),
])
def test_bad_parameters(server: FhirServer, name: str, value: str) -> None:
    assert_outcome(server.handle(FhirRequest("GET", "Observation", ((name, value),))), 400)


def test_xml_format_is_not_acceptable(server: FhirServer) -> None:
    assert_outcome(server.handle(FhirRequest("GET", "Patient", (("_format", "xml"),))), 406)


def test_transaction_with_one_bad_entry_stores_nothing(base: BaseStore,
                                                       server: FhirServer) -> None:
    server.handle(FhirRequest("POST", "Patient", body={"resourceType": "Patient"}))
    base_hash, overlay_hash = base.content_hash(), server.store.overlay_hash()
    good = {"resourceType": "Observation", "status": "final", "code": {"text": "x"},
            "subject": {"reference": "urn:uuid:p"}}
    bundle = {"resourceType": "Bundle", "type": "transaction", "entry": [
        {"fullUrl": "urn:uuid:p", "resource": {"resourceType": "Patient"},
         "request": {"method": "POST", "url": "Patient"}},
        {"resource": good, "request": {"method": "POST", "url": "Observation"}},
        {"request": {"method": "DELETE", "url": "Observation/u1"}},
        {"resource": dict(good, status="bogus"),
         "request": {"method": "POST", "url": "Observation"}},
    ]}
    outcome = assert_outcome(server.handle(FhirRequest("POST", "", body=bundle)), 422)
    assert outcome["issue"][0]["expression"] == ["Bundle.entry[3].resource.status"]
    assert base.content_hash() == base_hash
    assert server.store.overlay_hash() == overlay_hash
    assert server.handle(FhirRequest("GET", "Observation/u1")).status == 200
    dangling = dict(bundle, entry=bundle["entry"][1:2])
    outcome = assert_outcome(server.handle(FhirRequest("POST", "", body=dangling)), 422)
    assert outcome["issue"][0]["expression"] == ["Bundle.entry[0].resource.subject"]
    assert server.store.overlay_hash() == overlay_hash


@pytest.mark.parametrize("bundle", [
    {"resourceType": "Bundle", "type": "collection"},
    {"resourceType": "Patient"},
    {"resourceType": "Bundle", "type": "transaction", "entry": "x"},
    {"resourceType": "Bundle", "type": "transaction", "entry": [{"request": {"url": "Patient"}}]},
    {"resourceType": "Bundle", "type": "transaction",
     "entry": [{"request": {"method": "POST", "url": "Nope"}}]},
])
def test_malformed_bundles(server: FhirServer, bundle: dict) -> None:
    assert_outcome(server.handle(FhirRequest("POST", "", body=bundle)), 400)
    assert server.store.written() == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
       path=st.sampled_from(["", "Patient", "Observation/g1", "Patient/p1/$everything",
                             "metadata", "Observation/_search", "Patient/p1/_history/x"]),
       query=st.lists(st.tuples(st.sampled_from(["code", "date", "_count", "_sort", "x",
                                                 "patient", "_include"]),
                                st.text(max_size=10)), max_size=3),
       body=json_values)
def test_handler_never_raises(base: BaseStore, method: str, path: str,
                              query: list[tuple[str, str]], body: Any) -> None:
    server = new_server(base)
    response = server.handle(FhirRequest(method, path, tuple(query), body=body))
    assert response.status < 500, response.body
    if response.status >= 400:
        assert response.body["resourceType"] == "OperationOutcome"
    assert base.content_hash() == new_base().content_hash()
