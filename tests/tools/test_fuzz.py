"""Random tool calls never raise, and only a successful write call changes the EHR."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tools_ehr import ME, NOW, PATIENT, PCP, TAG

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.clock import IdSource, SimulatedClock
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.tools import ToolContext, Workspace, get_toolset

TOOLSETS = {name: get_toolset(name) for name in ("physicianbench", "fhir")}
VALID = {
    "fhir_observation_search_labs": {"patient": PATIENT, "code": "4548-4"},
    "fhir_medication_request_create": {"patient": PATIENT, "medication_code": "312940",
                                       "dose_value": 25, "dose_unit": "mg", "frequency": 1},
    "fhir_service_request_create": {"patient": PATIENT, "code": "4548-4", "system": "loinc",
                                    "category": "laboratory"},
    "fhir_communication_create_message": {"patient": PATIENT, "recipient": PCP, "text": "hi"},
    "fhir_appointment_create": {"patient": PATIENT, "description": "visit",
                                "start": "2024-04-01T09:00:00Z", "minutes_duration": 30},
    "write_file": {"file_path": "note.md", "content": "x"},
    "fhir_create": {"resource": {"resourceType": "Communication", "status": "completed",
                                 "subject": {"reference": f"Patient/{PATIENT}"}}},
}
VARIED = {
    "fhir_observation_search_labs": {"count": st.integers(1, 200),
                                     "page_limit": st.integers(1, 20)},
    "fhir_medication_request_create": {"dose_value": st.floats(0.01, 1000),
                                       "refills": st.integers(0, 12),
                                       "note": st.text(min_size=1, max_size=50)},
    "fhir_communication_create_message": {"text": st.text(min_size=1, max_size=200)},
    "fhir_appointment_create": {"minutes_duration": st.integers(5, 1440)},
    "write_file": {"content": st.text(max_size=200), "file_path": st.sampled_from(
        ["a.md", "/workspace/output/b/c.txt", "./d.md", "../e.md", "/tmp/f"])},
}
SPECIAL = st.sampled_from([
    PATIENT, f"Patient/{PATIENT}", "missing", "../../etc/passwd", "/workspace/output/../x",
    "note.md", "C:\\x", "\x00", "2024-03-15", "2024-02-30", "4548-4", "http://loinc.org|4548-4",
    "oral", "laboratory", "-date", "é" * 50, "", " ", "NaN", "1e309", "true", "{}", "[]"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                    st.text(max_size=40), SPECIAL, st.just("x" * 30_000))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=8)


@st.composite
def calls(draw):
    toolset = TOOLSETS[draw(st.sampled_from(sorted(TOOLSETS)))]
    kind = draw(st.sampled_from(["valid", "mutated", "random", "text"]))
    with_examples = [name for name in toolset.names() if name in VALID]
    if kind in ("valid", "mutated"):
        name = draw(st.sampled_from(with_examples))
    else:
        name = draw(st.one_of(st.sampled_from(toolset.names()), st.text(max_size=30)))
    if kind == "text":
        return toolset, name, draw(st.one_of(st.text(max_size=200), st.sampled_from(
            ['{"patient": ', "null", "[]", '{"a":1}', json.dumps(VALID.get(name, {}))])))
    arguments = dict(VALID.get(name, {}))
    if kind == "valid":
        arguments.update(draw(st.fixed_dictionaries({}, optional=VARIED.get(name, {}))))
    known = {item.name: item for item in toolset.tools()}.get(name)
    fields = list(known.args.model_fields) if known else ["patient"]
    for _ in range(0 if kind == "valid" else draw(st.integers(1, 3))):
        key = draw(st.one_of(st.sampled_from(fields), st.text(max_size=12)))
        arguments[key] = draw(VALUES)
    return toolset, name, arguments


def written_count(server: FhirServer) -> int:
    return len(server.store.written())


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(calls())
def test_random_calls_never_raise_and_write_only_when_valid(base_store, call):
    toolset, name, arguments = call
    server = FhirServer(base_store.fork(), clock=SimulatedClock(NOW), ids=IdSource(3))
    ctx = ToolContext(client=in_process_client(server, tags=[TAG]), workspace=Workspace(),
                      practitioner_id=ME, now=NOW)
    result = toolset.call(name, arguments, ctx)
    event(f"ok={result.ok} wrote={bool(result.written)}")
    assert isinstance(result.text, str) and result.text
    assert result.ok == (result.error is None)
    assert len(result.text) <= 10_000 or not result.ok
    if result.ok and result.written:
        assert written_count(server) == len(result.written)
    else:
        assert written_count(server) == 0
    assert all(path.startswith(Workspace.ROOT) for path in ctx.workspace.files())
    if not result.ok:
        assert ctx.workspace.files() == {} and result.files == []
