"""Concurrent HTTP clients on one served store: no errors, no lost or mixed-up writes."""

from __future__ import annotations

import threading
from collections.abc import Callable

from physbench_gym.fhir.client import FhirClient, HttpTransport
from physbench_gym.fhir.http_app import ServerThread

THREADS = 8
CREATES_PER_THREAD = 200
UPDATES_PER_THREAD = 25
TAG_SYSTEM = "urn:physbench:test-thread"


def _run_threads(work: Callable[[int], None]) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(number: int) -> None:
        try:
            start.wait(timeout=30)
            work(number)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted empty below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return errors


def _observation(thread: int, step: int) -> dict:
    return {"resourceType": "Observation", "status": "final",
            "code": {"coding": [{"system": "http://loinc.org", "code": "8867-4",
                                 "display": "Heart rate"}]},
            "subject": {"reference": "Patient/pat-1"},
            "effectiveDateTime": "2024-01-20T08:00:00Z",
            "valueQuantity": {"value": thread * 1000 + step, "unit": "/min"}}


def test_parallel_creates_and_searches_lose_nothing(http_server: ServerThread) -> None:
    created: dict[int, list[str]] = {n: [] for n in range(THREADS)}

    def work(number: int) -> None:
        tag = {"system": TAG_SYSTEM, "code": f"t{number}"}
        with FhirClient(HttpTransport(http_server.base_url, timeout=30), tags=[tag]) as client:
            for step in range(CREATES_PER_THREAD):
                resource = client.create(_observation(number, step))
                found = client.search("Observation", {"_id": resource["id"]})
                assert found["entry"][0]["resource"]["valueQuantity"]["value"] == (
                    number * 1000 + step)
                created[number].append(resource["id"])

    assert _run_threads(work) == []
    all_ids = [rid for ids in created.values() for rid in ids]
    assert len(all_ids) == len(set(all_ids)) == THREADS * CREATES_PER_THREAD
    with FhirClient(HttpTransport(http_server.base_url, timeout=30)) as client:
        for number, ids in created.items():
            tagged = client.search_all("Observation", {"_tag": f"{TAG_SYSTEM}|t{number}",
                                                       "_count": 100})
            assert sorted(r["id"] for r in tagged) == sorted(ids)
        for rid in all_ids:
            assert client.read("Observation", rid)["id"] == rid


def test_parallel_updates_of_one_resource_each_count(http_server: ServerThread) -> None:
    with FhirClient(HttpTransport(http_server.base_url)) as client:
        start_version = int(client.update(client.read("Patient", "pat-2"))["meta"]["versionId"])

    def work(number: int) -> None:
        with FhirClient(HttpTransport(http_server.base_url, timeout=30)) as client:
            for step in range(UPDATES_PER_THREAD):
                patient = {"resourceType": "Patient", "id": "pat-2", "gender": "male",
                           "name": [{"family": "Nguyen", "given": [f"T{number}-{step}"]}]}
                client.update(patient)

    assert _run_threads(work) == []
    with FhirClient(HttpTransport(http_server.base_url)) as client:
        final = client.read("Patient", "pat-2")
    assert int(final["meta"]["versionId"]) == start_version + THREADS * UPDATES_PER_THREAD
