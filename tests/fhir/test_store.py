"""The store: immutable base, layers, O(1) forks with isolated overlays, copies, and the
deterministic clock and id source."""

from __future__ import annotations

import pickle
from datetime import datetime, timezone

import pytest
from resources import chart, new_base, new_server

from physbench_gym.fhir.clock import IdSource, SimulatedClock, is_valid_id
from physbench_gym.fhir.messages import FhirRequest
from physbench_gym.fhir.store import BaseStore

NEW_PATIENT = {"resourceType": "Patient", "gender": "other"}


def test_from_resources_requires_type_and_id() -> None:
    with pytest.raises(ValueError, match="resourceType and id"):
        BaseStore.from_resources([{"resourceType": "Patient"}])
    with pytest.raises(ValueError, match="JSON object"):
        BaseStore.from_resources(["Patient/1"])  # type: ignore[list-item]


def test_base_copies_its_input_and_hands_out_copies() -> None:
    resources = chart()
    base = BaseStore.from_resources(resources)
    before = base.content_hash()
    resources[2]["name"][0]["family"] = "Changed"
    view = base.fork()
    copy = view.get("Patient", "p1")
    assert copy["name"][0]["family"] == "Müller"
    copy["name"][0]["family"] = "Mutated"
    assert view.get("Patient", "p1")["name"][0]["family"] == "Müller"
    assert base.content_hash() == before
    assert len(base) == len(resources)


def test_forks_are_isolated_and_leave_the_base_alone() -> None:
    base = new_base()
    before = base.content_hash()
    first, second = new_server(base), new_server(base)
    created = first.handle(FhirRequest("POST", "Patient", body=NEW_PATIENT)).body
    assert first.handle(FhirRequest("DELETE", "Observation/u1")).status == 204
    assert second.handle(FhirRequest("GET", f"Patient/{created['id']}")).status == 404
    assert second.handle(FhirRequest("GET", "Observation/u1")).status == 200
    assert first.store.written() == [created]
    assert first.store.deleted() == ["Observation/u1"]
    assert second.store.written() == [] and second.store.deleted() == []
    assert base.fork().get("Patient", created["id"]) is None
    assert base.content_hash() == before


def test_with_layer_adds_and_shadows_without_changing_the_lower_store() -> None:
    base = new_base()
    before = base.content_hash()
    layered = base.with_layer([
        {"resourceType": "Patient", "id": "p9", "name": [{"family": "Layer"}]},
        {"resourceType": "Patient", "id": "p2", "name": [{"family": "Replaced"}]},
    ])
    assert len(layered) == len(base) + 1
    view = layered.fork()
    assert view.get("Patient", "p2")["name"][0]["family"] == "Replaced"
    server = new_server(layered)
    names = server.handle(FhirRequest("GET", "Patient", (("family", "mul"),))).body
    assert [e["resource"]["id"] for e in names.get("entry", [])] == ["p1"]
    found = server.handle(FhirRequest("GET", "Patient", (("family", "repl"),))).body
    assert [e["resource"]["id"] for e in found["entry"]] == ["p2"]
    assert base.fork().get("Patient", "p2")["name"][0]["family"] == "Mullen"
    assert base.fork().get("Patient", "p9") is None
    assert base.content_hash() == before
    assert layered.content_hash() != before


def test_content_hash_is_order_independent_and_content_sensitive() -> None:
    resources = chart()
    assert BaseStore.from_resources(resources).content_hash() == \
        BaseStore.from_resources(list(reversed(resources))).content_hash()
    resources[0]["name"] = "Other"
    assert BaseStore.from_resources(resources).content_hash() != new_base().content_hash()


def test_clock_is_injectable_and_monotonic() -> None:
    clock = SimulatedClock(datetime(2024, 2, 3, 4, 5, 6))
    assert clock.now() == datetime(2024, 2, 3, 4, 5, 6, tzinfo=timezone.utc)
    assert clock.advance(60) == datetime(2024, 2, 3, 4, 6, 6, tzinfo=timezone.utc)
    with pytest.raises(ValueError):
        clock.advance(-1)
    server = new_server(new_base(), clock=clock)
    body = server.handle(FhirRequest("POST", "Patient", body=NEW_PATIENT)).body
    assert body["meta"]["lastUpdated"] == "2024-02-03T04:06:06.000Z"


def test_id_source_is_deterministic_and_valid() -> None:
    first = [IdSource(seed=3, prefix="ep-").next_id() for _ in range(2)]
    source = IdSource(seed=3, prefix="ep-")
    sequence = [source.next_id() for _ in range(50)]
    assert first[0] == sequence[0] and len(set(sequence)) == 50
    assert all(is_valid_id(i) and i.startswith("ep-") for i in sequence)
    assert IdSource(seed=4).next_id() != IdSource(seed=3).next_id()
    with pytest.raises(ValueError):
        IdSource(prefix="bad/prefix")


def test_same_seed_and_requests_give_identical_episodes() -> None:
    base = new_base()
    bodies = []
    for _ in range(2):
        server = new_server(base)
        for _ in range(3):
            server.handle(FhirRequest("POST", "Patient", body=NEW_PATIENT))
        bodies.append(server.store.written())
    assert bodies[0] == bodies[1]


def test_derived_values_are_computed_once_per_version_and_not_pickled() -> None:
    base = new_base()
    entry = base.fork().entry("Patient", "p1")
    calls = []

    def family(resource: dict) -> str:
        calls.append(resource["id"])
        return resource["name"][0]["family"]

    assert entry.derived(family) == "Müller" and entry.derived(family) == "Müller"
    assert calls == ["p1"]
    assert base.fork().entry("Patient", "p1") is entry  # forks share stored versions
    restored = pickle.loads(pickle.dumps(entry))
    assert restored.derived(family) == "Müller" and calls == ["p1", "p1"]


def test_search_defers_its_entries_until_the_body_is_read() -> None:
    server = new_server(new_base())
    response = server.handle(FhirRequest("GET", "Observation", (("_count", "2"),)))
    head = response.head()
    assert head is not None and "entry" not in head and head["total"] >= 2
    assert [version.key for version in response.stored] == [
        e["fullUrl"].split("/fhir/")[1] for e in response.body["entry"]]
    assert response.body is head and len(head["entry"]) == 2
    assert [e["resource"] for e in response.body["entry"]] == [
        version.resource for version in response.stored]
    shaped = server.handle(FhirRequest("GET", "Observation", (("_elements", "status"),)))
    assert shaped.stored is None and "SUBSETTED" in str(shaped.body)
    counted = server.handle(FhirRequest("GET", "Observation", (("_summary", "count"),)))
    assert counted.stored is None and "entry" not in counted.body
