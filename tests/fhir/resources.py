"""A small, hand-checkable chart for the FHIR server tests, and clients over both transports."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from physbench_gym.fhir.client import FhirClient, HttpTransport, InProcessTransport
from physbench_gym.fhir.clock import IdSource, SimulatedClock
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.http_app import ServerThread
from physbench_gym.fhir.store import BaseStore

LOINC = "http://loinc.org"
UCUM = "http://unitsofmeasure.org"
GLUCOSE = "2345-7"
CREATININE = "2160-0"
NOTE = "11506-3"
TAG_SYSTEM = "urn:test:tag"
START = "2024-06-01T12:00:00Z"


def observation(oid: str, patient: str, code: str, when: str, value: float, unit: str = "mg/dL",
                **extra: Any) -> dict[str, Any]:
    """A laboratory Observation with a LOINC code and a UCUM quantity."""
    return {
        "resourceType": "Observation", "id": oid, "status": "final",
        "category": [{"coding": [{
            "system": "http://terminology.hl7.org/CodeSystem/observation-category",
            "code": "laboratory"}]}],
        "code": {"coding": [{"system": LOINC, "code": code,
                             "display": "Glucose [Mass/volume] in Blood" if code == GLUCOSE
                             else "Creatinine"}]},
        "subject": {"reference": f"Patient/{patient}"},
        "effectiveDateTime": when,
        "valueQuantity": {"value": value, "unit": unit, "system": UCUM, "code": unit},
        **extra,
    }


def chart() -> list[dict[str, Any]]:
    """Three patients, a practitioner, an encounter, labs, notes, a condition and an order."""
    resources: list[dict[str, Any]] = [
        {"resourceType": "Organization", "id": "org1", "name": "Hôpital Général"},
        {"resourceType": "Practitioner", "id": "dr1", "name": [{"family": "Osler",
                                                                "given": ["William"]}]},
        {"resourceType": "Patient", "id": "p1", "gender": "female", "birthDate": "1960-05-17",
         "identifier": [{"system": "urn:mrn", "value": "MRN-1"}],
         "name": [{"family": "Müller", "given": ["José", "Ana"]}],
         "meta": {"lastUpdated": "2023-02-01T00:00:00Z", "versionId": "3",
                  "tag": [{"system": TAG_SYSTEM, "code": "vip"}]},
         "managingOrganization": {"reference": "Organization/org1"}},
        {"resourceType": "Patient", "id": "p2", "gender": "male", "birthDate": "1975",
         "identifier": [{"system": "urn:mrn", "value": "MRN-2"}],
         "name": [{"family": "Mullen", "given": ["Tom"]}],
         "meta": {"lastUpdated": "2024-03-01T00:00:00Z"}},
        {"resourceType": "Patient", "id": "p3", "gender": "female",
         "name": [{"family": "Smith", "given": ["Ann"]}]},
        {"resourceType": "Encounter", "id": "enc1", "status": "finished",
         "class": {"system": "http://terminology.hl7.org/CodeSystem/v3-ActCode", "code": "AMB"},
         "subject": {"reference": "Patient/p1"},
         "period": {"start": "2024-01-10T09:00:00Z", "end": "2024-01-10T10:00:00Z"}},
        {"resourceType": "Condition", "id": "cond1", "subject": {"reference": "Patient/p1"},
         "code": {"coding": [{"system": "http://snomed.info/sct", "code": "44054006",
                              "display": "Type 2 diabetes mellitus"}],
                  "text": "Diabetes type 2"},
         "onsetPeriod": {"start": "2015-01-01", "end": "2015-12-31"}},
        {"resourceType": "MedicationRequest", "id": "mr1", "status": "active", "intent": "order",
         "medicationCodeableConcept": {"coding": [{
             "system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "860975"}]},
         "subject": {"reference": "Patient/p1"}, "encounter": {"reference": "Encounter/enc1"},
         "requester": {"reference": "Practitioner/dr1"}, "authoredOn": "2024-01-10"},
        observation("g1", "p1", GLUCOSE, "2023-01-15T08:00:00Z", 98),
        observation("g2", "p1", GLUCOSE, "2023-06-20T08:00:00Z", 130),
        observation("g3", "p1", GLUCOSE, "2024-01-10T08:00:00Z", 210,
                    encounter={"reference": "Encounter/enc1"}),
        observation("c1", "p1", CREATININE, "2024-01-10T08:00:00Z", 1.4),
        observation("g4", "p2", GLUCOSE, "2023-06-20T08:00:00Z", 101),
        {**observation("u1", "p2", "9999-9", "2023-06-20", 5, unit="%"),
         "code": {"coding": [{"code": "local-7"}], "text": "Local panel"}},
    ]
    for n, (when, period) in enumerate([("2023-03-01T10:00:00Z", ("2023-02-27", "2023-03-02")),
                                        ("2023-11-05T10:00:00Z", ("2023-11-05", None)),
                                        ("2024-01-10T11:00:00Z", ("2024-01-10", "2024-01-10"))],
                                       start=1):
        context: dict[str, Any] = {"period": {"start": period[0]}}
        if period[1]:
            context["period"]["end"] = period[1]
        resources.append({
            "resourceType": "DocumentReference", "id": f"doc{n}", "status": "current",
            "type": {"coding": [{"system": LOINC, "code": NOTE, "display": "Progress note"}]},
            "subject": {"reference": "Patient/p1"}, "date": when, "context": context,
            "content": [{"attachment": {"contentType": "text/plain", "data": "b2s="}}]})
    return resources


def new_base() -> BaseStore:
    """A base store over :func:`chart`."""
    return BaseStore.from_resources(chart())


def new_server(base: BaseStore, **options: Any) -> FhirServer:
    """A server over a fresh fork with a deterministic clock and id source."""
    options.setdefault("clock", SimulatedClock(datetime.fromisoformat(START.replace("Z",
                                                                                   "+00:00"))))
    options.setdefault("ids", IdSource(seed=7))
    return FhirServer(base.fork(), **options)


@contextmanager
def client_for(kind: str, server: FhirServer) -> Iterator[FhirClient]:
    """A FhirClient over ``server``: ``inprocess`` or a real HTTP server on 127.0.0.1."""
    if kind == "inprocess":
        client = FhirClient(InProcessTransport(server.handle, server.base_url))
        yield client
        client.close()
        return
    with ServerThread(server.handle, threads=2) as http:
        client = FhirClient(HttpTransport(http.base_url, timeout=10.0))
        yield client
        client.close()


def ids_of(bundle: dict[str, Any], mode: str = "match") -> list[str]:
    """Ids of the entries of a Bundle with the given search mode, in order."""
    return [e["resource"]["id"] for e in bundle.get("entry", [])
            if e.get("search", {}).get("mode", "match") == mode]
