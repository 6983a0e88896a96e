"""Search tools reuse what is derived from stored versions, and it changes nothing visible.

The embedded server hands its stored versions to in-process callers; the tools render each
version's view once and the graders index it once. Over HTTP nothing is handed over, so the
same call through both transports must give the same text and the same resources.
"""

from __future__ import annotations

import pytest
from tools_ehr import CREATININE, ME, NOW, PATIENT, TAG

from physbench_gym.fhir.client import FhirClient, HttpTransport
from physbench_gym.fhir.clock import IdSource, SimulatedClock
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.http_app import ServerThread
from physbench_gym.grading.core import GradingContext
from physbench_gym.tools import ToolContext, Workspace, get_toolset
from physbench_gym.tools.render import agent_view

CALLS = [
    ("fhir_observation_search_labs", {"patient": PATIENT, "code": CREATININE, "count": 7}),
    ("fhir_observation_search_labs", {"patient": PATIENT, "count": 5, "page_limit": 3}),
    ("fhir_document_reference_search_clinical_notes", {"patient": PATIENT}),
    ("fhir_medication_request_search_orders", {"patient": PATIENT}),
    ("fhir_condition_search_problems", {"patient": PATIENT}),
    ("fhir_patient_search_demographics", {"family": "nobody-by-that-name"}),
]


@pytest.fixture()
def http_client(base_store):
    server = FhirServer(base_store.fork(), clock=SimulatedClock(NOW), ids=IdSource(11))
    with ServerThread(server.handle) as thread:
        client = FhirClient(HttpTransport(thread.base_url), tags=[TAG])
        yield client
        client.transport.close()


def _run(client: FhirClient, name: str, arguments: dict):
    ctx = ToolContext(client=client, workspace=Workspace(), practitioner_id=ME, now=NOW)
    return get_toolset("physicianbench").call(name, dict(arguments), ctx)


@pytest.mark.parametrize(("name", "arguments"), CALLS)
def test_in_process_and_http_show_the_same(client, http_client, name, arguments):
    local, remote = _run(client, name, arguments), _run(http_client, name, arguments)
    assert local.ok and remote.ok
    assert local.stored is not None and remote.stored is None
    assert local.text == remote.text
    assert list(local.returned) == list(remote.returned)
    assert len(local.returned) == len(local.stored)


def test_a_second_search_shows_the_same_and_reuses_each_view(client):
    name, arguments = CALLS[0]
    first, second = _run(client, name, arguments), _run(client, name, arguments)
    assert first.text == second.text
    assert [v.id for v in first.stored] == [r["id"] for r in first.returned]
    assert all(a is b for a, b in zip(first.stored, second.stored, strict=True))
    view = first.stored[0].derived(agent_view)
    assert view is second.stored[0].derived(agent_view)
    assert view == agent_view(first.returned[0]) and view in first.text


def test_changing_what_a_search_returned_changes_nothing_stored(client):
    name, arguments = CALLS[2]
    before = _run(client, name, arguments)
    for resource in before.returned:
        resource["status"] = "entered-in-error"
        resource.setdefault("content", []).clear()
    after = _run(client, name, arguments)
    assert after.text == before.text
    assert all(r["status"] == "current" and r["content"] for r in after.returned)


def test_grading_index_is_the_same_from_stored_versions_or_copies(client, http_client):
    name, arguments = CALLS[1]
    contexts = []
    for source in (client, http_client):
        ctx = GradingContext(client=source, episode_tag=TAG, patient_id=PATIENT,
                             note_path="/workspace/output/note.md")
        assert ctx.record(_run(source, name, arguments)) == {"Observation"}
        contexts.append(ctx)
    local, remote = contexts
    assert local.returned == remote.returned
    assert set(local.returned_with_code("Observation", [f"http://loinc.org|{CREATININE}"])) \
        == set(remote.returned_with_code("Observation", [CREATININE])) != set()


def test_empty_search_records_nothing(client):
    result = _run(client, *CALLS[-1])
    assert result.ok and result.stored == () and result.returned == []
    ctx = GradingContext(client=client, episode_tag=TAG, patient_id=PATIENT,
                         note_path="/workspace/output/note.md")
    assert ctx.record(result) == set() and ctx.returned == {}
