"""Search semantics of the embedded server, over the in-process and HTTP transports."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest
from resources import GLUCOSE, LOINC, TAG_SYSTEM, client_for, ids_of, new_base, new_server

from physbench_gym.fhir.client import FhirClient
from physbench_gym.fhir.store import BaseStore


@pytest.fixture(scope="module")
def base() -> BaseStore:
    return new_base()


@pytest.fixture(scope="module", params=["inprocess", "http"])
def client(request: pytest.FixtureRequest, base: BaseStore) -> Iterator[FhirClient]:
    with client_for(request.param, new_server(base)) as c:
        yield c


def search(client: FhirClient, rtype: str, *pairs: tuple[str, str]) -> dict:
    response = client.request("GET", rtype, list(pairs))
    assert response.status == 200, response.body
    return response.body


def found(client: FhirClient, rtype: str, *pairs: tuple[str, str]) -> list[str]:
    return sorted(ids_of(search(client, rtype, *pairs)))


@pytest.mark.parametrize(("value", "expected"), [
    (GLUCOSE, ["g1", "g2", "g3", "g4"]),
    (f"{LOINC}|{GLUCOSE}", ["g1", "g2", "g3", "g4"]),
    (f"http://other|{GLUCOSE}", []),
    ("|local-7", ["u1"]),
    (f"|{GLUCOSE}", []),
    (f"{LOINC}|", ["c1", "g1", "g2", "g3", "g4"]),
    (f"{GLUCOSE},2160-0", ["c1", "g1", "g2", "g3", "g4"]),
])
def test_token_forms(client: FhirClient, value: str, expected: list[str]) -> None:
    assert found(client, "Observation", ("code", value)) == expected


def test_token_not_and_text(client: FhirClient) -> None:
    assert found(client, "Observation", ("code:not", GLUCOSE)) == ["c1", "u1"]
    assert found(client, "Observation", ("code:text", "glucose")) == ["g1", "g2", "g3", "g4"]
    assert found(client, "Observation", ("code:text", "panel")) == ["u1"]
    assert found(client, "Condition", ("code:text", "DIABETES")) == ["cond1"]
    assert found(client, "Patient", ("identifier", "urn:mrn|MRN-2")) == ["p2"]
    assert found(client, "Patient", ("gender", "female")) == ["p1", "p3"]


def test_string_prefix_accents_exact_contains(client: FhirClient) -> None:
    assert found(client, "Patient", ("family", "mul")) == ["p1", "p2"]
    assert found(client, "Patient", ("family", "MÜLLER")) == ["p1"]
    assert found(client, "Patient", ("name", "jose")) == ["p1"]
    assert found(client, "Patient", ("name:exact", "Müller")) == ["p1"]
    assert found(client, "Patient", ("name:exact", "müller")) == []
    assert found(client, "Patient", ("name:contains", "ll")) == ["p1", "p2"]
    assert found(client, "Organization", ("name", "hopital")) == ["org1"]


@pytest.mark.parametrize(("value", "expected"), [
    ("2023", ["g1", "g2"]),
    ("2023-06", ["g2"]),
    ("eq2023-06-20", ["g2"]),
    ("ne2023", ["c1", "g3"]),
    ("gt2023-06-20", ["c1", "g3"]),
    ("ge2023-06-20", ["c1", "g2", "g3"]),
    ("lt2023-06-20", ["g1"]),
    ("le2023-06-20", ["g1", "g2"]),
    ("sa2023-12-31", ["c1", "g3"]),
    ("eb2023-02", ["g1"]),
    ("ap2023-01-15", ["g1"]),
    ("2024-01-10T08:00:00Z", ["c1", "g3"]),
    ("2024-01-10T10:00:00+02:00", ["c1", "g3"]),
])
def test_date_prefixes(client: FhirClient, value: str, expected: list[str]) -> None:
    assert found(client, "Observation", ("patient", "p1"), ("date", value)) == expected


def test_date_and_period_targets(client: FhirClient) -> None:
    both = ("date", "ge2023-03-01"), ("date", "lt2024")
    assert found(client, "DocumentReference", *both) == ["doc1", "doc2"]
    assert found(client, "DocumentReference", ("period", "2023-03-01")) == []
    assert found(client, "DocumentReference", ("period", "2023-03")) == []
    assert found(client, "DocumentReference", ("period", "ge2023-03-01")) == ["doc1", "doc2",
                                                                             "doc3"]
    assert found(client, "DocumentReference", ("period", "2023")) == ["doc1"]
    assert found(client, "DocumentReference", ("period", "sa2023-06")) == ["doc2", "doc3"]
    assert found(client, "Condition", ("onset-date", "2015")) == ["cond1"]
    assert found(client, "Condition", ("onset-date", "2015-06")) == []
    assert found(client, "Patient", ("birthdate", "1975")) == ["p2"]
    assert found(client, "Patient", ("birthdate", "1975-04")) == []
    assert found(client, "Patient", ("birthdate", "lt1970")) == ["p1"]


def test_reference_forms(client: FhirClient) -> None:
    for value in ("p2", "Patient/p2", f"{client.base_url}/Patient/p2"):
        assert found(client, "Observation", ("subject", value)) == ["g4", "u1"]
    assert found(client, "Observation", ("subject:Patient", "p2")) == ["g4", "u1"]
    assert found(client, "Observation", ("patient", "p1,p2"), ("code", GLUCOSE)) == [
        "g1", "g2", "g3", "g4"]
    assert found(client, "Observation", ("encounter", "enc1")) == ["g3"]
    assert found(client, "MedicationRequest", ("requester", "Practitioner/dr1")) == ["mr1"]
    assert found(client, "Observation", ("patient", "nobody")) == []


def test_quantity_and_missing(client: FhirClient) -> None:
    assert found(client, "Observation", ("value-quantity", "gt125")) == ["g2", "g3"]
    assert found(client, "Observation", ("value-quantity", "le101|http://unitsofmeasure.org|"
                                                           "mg/dL")) == ["c1", "g1", "g4"]
    assert found(client, "Observation", ("value-quantity", "98")) == ["g1"]
    assert found(client, "Observation", ("value-quantity", "1.4")) == ["c1"]
    assert found(client, "Observation", ("value-quantity", "ap100")) == ["g1", "g4"]
    assert found(client, "Observation", ("value-quantity", "5||%")) == ["u1"]
    assert found(client, "Observation", ("value-quantity", "5||mg/dL")) == []
    assert found(client, "Observation", ("encounter:missing", "false")) == ["g3"]
    assert len(found(client, "Observation", ("encounter:missing", "true"))) == 5


def test_and_across_repetitions_or_within(client: FhirClient) -> None:
    assert found(client, "Observation", ("code", f"{GLUCOSE},2160-0"),
                 ("date", "ge2024")) == ["c1", "g3"]
    assert found(client, "Observation", ("code", GLUCOSE), ("code", "2160-0")) == []


def test_common_parameters(client: FhirClient) -> None:
    assert found(client, "Patient", ("_id", "p1,p3")) == ["p1", "p3"]
    assert found(client, "Patient", ("_lastUpdated", "gt2023-06")) == ["p2"]
    assert found(client, "Patient", ("_tag", f"{TAG_SYSTEM}|vip")) == ["p1"]
    assert found(client, "Patient", ("_id", "p1"), ("gender", "male")) == []


def test_sort_multi_key_and_ties(client: FhirClient) -> None:
    bundle = search(client, "Observation", ("patient", "p1"), ("_sort", "-date"))
    assert ids_of(bundle) == ["c1", "g3", "g2", "g1"]
    bundle = search(client, "Observation", ("_sort", "date,-_id"))
    assert ids_of(bundle) == ["g1", "u1", "g4", "g2", "g3", "c1"]
    bundle = search(client, "Observation", ("_sort", "code,-value-quantity"))
    assert ids_of(bundle) == ["c1", "g3", "g2", "g4", "g1", "u1"]
    bundle = search(client, "Patient", ("_sort", "-birthdate"))
    assert ids_of(bundle) == ["p2", "p1", "p3"]


def test_paging_links_walk_every_result(client: FhirClient) -> None:
    bundle = search(client, "Observation", ("_count", "2"), ("_sort", "_id"))
    assert bundle["total"] == 6
    seen = ids_of(bundle)
    first_self = {link["relation"]: link["url"] for link in bundle["link"]}["self"]
    assert "_count=2" in first_self and "_sort=_id" in first_self
    while (page := client.next_page(bundle)) is not None:
        links = {link["relation"]: link["url"] for link in page["link"]}
        assert "previous" in links
        seen += ids_of(page)
        bundle = page
    assert seen == ["c1", "g1", "g2", "g3", "g4", "u1"]
    previous = {link["relation"]: link["url"] for link in bundle["link"]}["previous"]
    query = dict(parse_qsl(urlsplit(previous).query))
    assert query["_offset"] == "2"


def test_count_default_and_maximum(base: BaseStore) -> None:
    server = new_server(base, max_count=3, default_count=2)
    with client_for("inprocess", server) as small:
        assert len(ids_of(search(small, "Observation"))) == 2
        assert len(ids_of(search(small, "Observation", ("_count", "500")))) == 3
        assert search(small, "Observation", ("_count", "0")).get("entry") is None


def test_include_and_revinclude(client: FhirClient) -> None:
    bundle = search(client, "Observation", ("_id", "g3"), ("_include", "Observation:patient"),
                    ("_include", "Observation:encounter"))
    assert ids_of(bundle) == ["g3"]
    assert sorted(ids_of(bundle, "include")) == ["enc1", "p1"]
    assert bundle["total"] == 1
    bundle = search(client, "Patient", ("_id", "p2"), ("_revinclude", "Observation:subject"))
    assert ids_of(bundle) == ["p2"]
    assert ids_of(bundle, "include") == ["g4", "u1"]
    full = {e["fullUrl"] for e in bundle["entry"]}
    assert f"{client.base_url}/Observation/g4" in full


def test_summary_total_elements_format(client: FhirClient) -> None:
    bundle = search(client, "Observation", ("code", GLUCOSE), ("_summary", "count"))
    assert bundle["total"] == 4 and "entry" not in bundle
    bundle = search(client, "Observation", ("code", GLUCOSE), ("_total", "none"))
    assert "total" not in bundle and len(bundle["entry"]) == 4
    bundle = search(client, "Patient", ("_id", "p1"), ("_elements", "gender"), ("_format", "json"))
    resource = bundle["entry"][0]["resource"]
    assert set(resource) == {"resourceType", "id", "meta", "gender"}
    assert any(tag["code"] == "SUBSETTED" for tag in resource["meta"]["tag"])


def test_post_search_with_form_body(client: FhirClient) -> None:
    response = client.request("POST", "Observation/_search", [("_sort", "_id")],
                              body=b"patient=p2&code=" + GLUCOSE.encode(),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status == 200, response.body
    assert ids_of(response.body) == ["g4"]


def test_unknown_parameter_names_valid_ones(client: FhirClient) -> None:
    response = client.request("GET", "Observation", [("patinet", "p1")])
    assert response.status == 400
    issue = response.body["issue"][0]
    assert "patinet" in issue["diagnostics"]
    for valid in ("patient", "code", "date", "value-quantity", "_count"):
        assert valid in issue["diagnostics"]


def test_results_are_fresh_copies(base: BaseStore) -> None:
    server = new_server(base)
    with client_for("inprocess", server) as local:
        first = search(local, "Patient", ("_id", "p1"))
        first["entry"][0]["resource"]["name"][0]["family"] = "Changed"
        again = search(local, "Patient", ("_id", "p1"))
        assert again["entry"][0]["resource"]["name"][0]["family"] == "Müller"
    assert base.content_hash() == new_base().content_hash()
