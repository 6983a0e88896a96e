"""The base store's indexes (postings, per-patient scopes, precomputed sort orders) change how
fast a search runs, never what it returns: indexed searches equal a full scan of the store, cold
or warmed, layered, restored from a pickle, and with an episode's writes on top."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest
from resources import CREATININE, GLUCOSE, LOINC, chart, new_server, observation

from physbench_gym.fhir.entry import sort_entries
from physbench_gym.fhir.messages import FhirRequest
from physbench_gym.fhir.results import find
from physbench_gym.fhir.search import parse_query
from physbench_gym.fhir.search_params import SEARCH_PARAMS
from physbench_gym.fhir.store import BaseStore, StoreView

HBA1C = "4548-4"
LABS = (GLUCOSE, CREATININE, HBA1C)
PATIENTS = ("p1", "p2", "p3")
Pairs = list[tuple[str, str]]
QUERIES: list[tuple[str, Pairs]] = [
    ("Observation", [("patient", "p1"), ("code", GLUCOSE), ("_sort", "-date")]),
    ("Observation", [("patient", "Patient/p2"), ("code", f"{LOINC}|{CREATININE}"),
                     ("_sort", "date")]),
    ("Observation", [("subject", "p1"), ("code", HBA1C), ("_sort", "-date")]),
    ("Observation", [("subject", "Group/p3"), ("_sort", "-date")]),
    ("Observation", [("patient", "p1,p2"), ("code", f"{GLUCOSE},{HBA1C}"), ("_sort", "-date")]),
    ("Observation", [("patient", "p3"), ("category", "laboratory"), ("code", f"{LOINC}|"),
                     ("date", "ge2021-03"), ("_sort", "-date")]),
    ("Observation", [("patient", "p1"), ("code:not", GLUCOSE), ("_sort", "-date")]),
    ("Observation", [("code", GLUCOSE), ("_sort", "-date"), ("_count", "100")]),
    ("Observation", [("patient", "p2"), ("_sort", "-_id")]),
    ("Observation", [("patient", "p1"), ("_sort", "status,-date")]),
    ("Observation", [("patient", "p1"), ("code", f"|{GLUCOSE}")]),
    ("Observation", [("patient", "nobody"), ("code", GLUCOSE)]),
    ("Observation", [("patient", "p2"), ("value-quantity", "gt20"), ("_sort", "-value-quantity")]),
    ("Patient", [("name", "mu"), ("_sort", "birthdate")]),
    ("DocumentReference", [("patient", "p1"), ("date", "ge2023"), ("_sort", "-date")]),
    ("DocumentReference", [("patient", "p2"), ("description", "note")]),
]


def lab_chart() -> list[dict[str, Any]]:
    """The small chart plus 45 labs for each of three patients: enough for patient + code
    searches to use the patient's own index and ``-date`` the precomputed order; some labs
    have no date, some share one, some have a Group (not a patient) as subject, and one an
    odd reference that only the bare id ``p1`` finds."""
    resources = chart()
    for patient in PATIENTS:
        for n in range(45):
            lab = observation(f"{patient}-l{n}", patient, LABS[n % 3],
                              f"202{n % 4}-0{1 + n % 9}-1{n % 7}T08:00:00Z", float(n))
            if n % 11 == 0:
                del lab["effectiveDateTime"]
            if n % 13 == 0:
                lab["subject"] = {"reference": f"Group/{patient}"}
            resources.append(lab)
        resources.append({"resourceType": "DocumentReference", "id": f"{patient}-note",
                          "status": "current", "subject": {"reference": f"Patient/{patient}"},
                          "description": f"Note on {patient}", "date": "2022-01-01",
                          "content": [{"attachment": {"contentType": "text/plain"}}]})
    resources.append(observation("odd", "x", GLUCOSE, "2022-02-02", 1.0,
                                 subject={"reference": "Patient/x/p1"}))
    return resources


def warmed(resources: list[dict[str, Any]]) -> BaseStore:
    base = BaseStore.from_resources(resources)
    base.warm()
    return base


def layered(resources: list[dict[str, Any]]) -> BaseStore:
    """A warmed base under a layer that recodes, redates and adds labs."""
    top = [observation("p1-l0", "p1", CREATININE, "2030-01-01", 9.0),
           observation("p1-l4", "p2", GLUCOSE, "2019-05-05", 4.0),
           observation("p2-new", "p2", GLUCOSE, "2022-02-02", 7.0)]
    return warmed(resources).with_layer(top)


STORES: dict[str, Callable[[list[dict[str, Any]]], BaseStore]] = {
    "cold": BaseStore.from_resources,
    "warmed": warmed,
    "unpickled": lambda resources: pickle.loads(pickle.dumps(warmed(resources))),
    "layered": layered,
}


def indexed_ids(view: StoreView, rtype: str, pairs: Pairs) -> list[str]:
    query = parse_query(rtype, pairs, default_count=20, max_count=1000)
    return [entry.id for entry in find(view, query)]


def scanned_ids(view: StoreView, rtype: str, pairs: Pairs) -> list[str]:
    """The same search as a plain scan: every current resource, each criterion, then sort."""
    query = parse_query(rtype, pairs, default_count=20, max_count=1000)
    current = [e for e in view.base.entries(rtype) if e.id not in view.shadows(rtype)]
    current += view.overlay_entries(rtype)
    for criterion in query.criteria:
        current = criterion.filter(current)
    return [entry.id for entry in sort_entries(current, query.sort)]


@pytest.mark.parametrize("store", list(STORES))
def test_indexed_searches_equal_a_full_scan(store: str) -> None:
    view = STORES[store](lab_chart()).fork()
    sizes = []
    for rtype, pairs in QUERIES:
        expected = scanned_ids(view, rtype, pairs)
        assert indexed_ids(view, rtype, pairs) == expected, (rtype, pairs)
        sizes.append(len(expected))
    assert max(sizes) >= 32 and sizes[-5] == 0 and sizes[0] >= 10 and sizes[-1] == 1


def test_overlay_writes_updates_and_deletes_show_in_indexed_searches() -> None:
    base = warmed(lab_chart())
    before = base.content_hash()
    server = new_server(base)
    pairs = [("patient", "p1"), ("code", GLUCOSE), ("_sort", "-date"), ("_count", "100")]

    def check() -> list[str]:
        ids = indexed_ids(server.store, "Observation", pairs)
        assert ids == scanned_ids(server.store, "Observation", pairs)
        response = server.handle(FhirRequest("GET", "Observation", query=tuple(pairs)))
        assert [e["resource"]["id"] for e in response.body["entry"]] == ids
        return ids

    initial = check()
    created = server.handle(FhirRequest("POST", "Observation", body=observation(
        "x", "p1", GLUCOSE, "2031-01-01T00:00:00Z", 1.0))).body
    assert check() == [created["id"], *initial]
    moved = server.handle(FhirRequest("GET", f"Observation/{initial[0]}")).body
    moved["code"]["coding"][0]["code"] = CREATININE
    assert server.handle(FhirRequest("PUT", f"Observation/{moved['id']}", body=moved)).status == 200
    assert check() == [created["id"], *initial[1:]]
    redated = server.handle(FhirRequest("GET", f"Observation/{initial[-1]}")).body
    redated["effectiveDateTime"] = "2032-01-01T00:00:00Z"
    server.handle(FhirRequest("PUT", f"Observation/{redated['id']}", body=redated))
    assert check() == [redated["id"], created["id"], *initial[1:-1]]
    assert server.handle(FhirRequest("DELETE", f"Observation/{initial[1]}")).status == 204
    assert check() == [redated["id"], created["id"], *initial[2:-1]]
    assert base.fork().get("Observation", initial[1]) is not None
    assert base.content_hash() == before


def test_indexed_results_are_fresh_copies() -> None:
    server = new_server(warmed(lab_chart()))
    query = (("patient", "p1"), ("code", GLUCOSE), ("_sort", "-date"))
    first = server.handle(FhirRequest("GET", "Observation", query=query)).body
    first["entry"][0]["resource"]["code"]["coding"].clear()
    first["entry"][0]["resource"]["status"] = "mutated"
    again = server.handle(FhirRequest("GET", "Observation", query=query)).body
    assert again["entry"][0]["resource"]["status"] == "final"
    assert again["entry"][0]["resource"]["code"]["coding"][0]["code"] == GLUCOSE


def test_precomputed_sort_order_equals_sorting() -> None:
    base = warmed(lab_chart())
    everything = list(base.entries("Observation"))
    for name in ("date", "value-quantity", "_id", "code"):
        param = SEARCH_PARAMS["Observation"][name]
        for descending in (True, False):
            ranks = base.ranks("Observation", param, descending)
            assert ranks is not None
            ordered = sorted(everything, key=ranks.__getitem__)
            assert ordered == sort_entries(everything, [(param, descending)])
    assert base.with_layer([]).ranks("Observation", param, True) is None


def test_patient_scope_reads_bare_and_typed_references_as_searches_do() -> None:
    base = warmed(lab_chart())
    patient = SEARCH_PARAMS["Observation"]["patient"]
    subject = SEARCH_PARAMS["Observation"]["subject"]
    code = SEARCH_PARAMS["Observation"]["code"]
    bare = base.lookup_within("Observation", patient, "p1", code, GLUCOSE)
    typed = base.lookup_within("Observation", patient, "Patient/p1", code, GLUCOSE)
    assert set(typed) < set(bare)
    assert {e.key for e in set(bare) - set(typed)} == {"Observation/odd"}
    loose = base.lookup_within("Observation", subject, "p1", code, HBA1C)
    strict = base.lookup_within("Observation", subject, "Patient/p1", code, HBA1C)
    assert {e.key for e in set(loose) - set(strict)} == {"Observation/p1-l26"}
    top = base.with_layer([observation("p1-l3", "p2", GLUCOSE, "2020-01-01", 1.0),
                           observation("p1-new", "p1", GLUCOSE, "2020-01-01", 1.0)])
    above = top.lookup_within("Observation", patient, "p1", code, GLUCOSE)
    assert {e.key for e in set(bare) ^ set(above)} == {"Observation/p1-l3", "Observation/p1-new"}


def test_searches_for_unknown_scopes_leave_no_index_behind():
    base = BaseStore.from_resources(lab_chart())
    server = new_server(base)
    layer = base._layers[0]
    query = (("patient", "p1"), ("code", f"{LOINC}|{CREATININE}"))
    assert server.handle(FhirRequest("GET", "Observation", query)).body["total"] > 0
    before = len(layer._scoped)
    for n in range(50):
        query = (("patient", f"nobody-{n}"), ("code", f"{LOINC}|{CREATININE}"))
        response = server.handle(FhirRequest("GET", "Observation", query))
        assert response.status == 200 and response.body["total"] == 0
    assert len(layer._scoped) == before
