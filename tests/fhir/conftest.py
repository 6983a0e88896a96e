"""Shared fixtures of the FHIR tests: a small base EHR and clients over both transports.

``fhir_client`` is parametrized over ``inprocess`` and ``http`` so that every test using it runs
against the in-process transport and against a real HTTP server on 127.0.0.1; each test gets a
fresh fork of the module's base store, so writes never leak between tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from physbench_gym.fhir.client import FhirClient, HttpTransport, InProcessTransport
from physbench_gym.fhir.http_app import ServerThread

PATIENT_ID = "pat-1"
OTHER_PATIENT_ID = "pat-2"
PRACTITIONER_ID = "prac-1"
ORGANIZATION_ID = "org-1"
ENCOUNTER_ID = "enc-1"
LOINC = "http://loinc.org"
HBA1C_CODE = "4548-4"
POTASSIUM_CODE = "2823-3"
HBA1C_DATES = ("2023-01-15", "2023-04-20", "2023-07-18", "2023-10-02", "2024-01-10")
POTASSIUM_DATES = ("2023-02-01", "2023-08-01", "2024-01-05")


def _observation(oid: str, patient: str, code: str, display: str, when: str,
                 value: float, unit: str) -> dict[str, Any]:
    return {
        "resourceType": "Observation",
        "id": oid,
        "status": "final",
        "category": [{"coding": [{
            "system": "http://terminology.hl7.org/CodeSystem/observation-category",
            "code": "laboratory"}]}],
        "code": {"coding": [{"system": LOINC, "code": code, "display": display}],
                 "text": display},
        "subject": {"reference": f"Patient/{patient}"},
        "effectiveDateTime": f"{when}T09:00:00Z",
        "valueQuantity": {"value": value, "unit": unit, "system": "http://unitsofmeasure.org",
                          "code": unit},
    }


def _people() -> list[dict[str, Any]]:
    return [
        {"resourceType": "Organization", "id": ORGANIZATION_ID, "name": "Valley Clinic"},
        {"resourceType": "Practitioner", "id": PRACTITIONER_ID,
         "name": [{"family": "Osler", "given": ["William"]}]},
        {"resourceType": "Patient", "id": PATIENT_ID,
         "identifier": [{"system": "urn:mrn", "value": "MRN0001"}],
         "name": [{"family": "Garcia", "given": ["Maria"]}], "gender": "female",
         "birthDate": "1961-03-04", "managingOrganization": {"reference": "Organization/org-1"}},
        {"resourceType": "Patient", "id": OTHER_PATIENT_ID,
         "identifier": [{"system": "urn:mrn", "value": "MRN0002"}],
         "name": [{"family": "Nguyen", "given": ["Tam"]}], "gender": "male",
         "birthDate": "1975-11-20"},
    ]


def _chart() -> list[dict[str, Any]]:
    chart: list[dict[str, Any]] = [
        {"resourceType": "Encounter", "id": ENCOUNTER_ID, "status": "finished",
         "class": {"system": "http://terminology.hl7.org/CodeSystem/v3-ActCode", "code": "AMB"},
         "subject": {"reference": f"Patient/{PATIENT_ID}"},
         "period": {"start": "2024-01-10T09:00:00Z", "end": "2024-01-10T09:30:00Z"}},
        {"resourceType": "Condition", "id": "cond-1",
         "clinicalStatus": {"coding": [{
             "system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
             "code": "active"}]},
         "code": {"coding": [{"system": "http://snomed.info/sct", "code": "44054006",
                              "display": "Type 2 diabetes mellitus"}]},
         "subject": {"reference": f"Patient/{PATIENT_ID}"}, "onsetDateTime": "2015-06-01"},
        {"resourceType": "MedicationRequest", "id": "medreq-1", "status": "active",
         "intent": "order",
         "medicationCodeableConcept": {"coding": [{
             "system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "860975",
             "display": "metformin 500 MG Extended Release Oral Tablet"}]},
         "subject": {"reference": f"Patient/{PATIENT_ID}"},
         "requester": {"reference": f"Practitioner/{PRACTITIONER_ID}"},
         "authoredOn": "2023-01-15"},
        {"resourceType": "DocumentReference", "id": "doc-1", "status": "current",
         "type": {"coding": [{"system": LOINC, "code": "11506-3",
                              "display": "Progress note"}]},
         "subject": {"reference": f"Patient/{PATIENT_ID}"}, "date": "2024-01-10T10:00:00Z",
         "content": [{"attachment": {"contentType": "text/plain",
                                     "data": "UGF0aWVudCBkb2luZyB3ZWxsLg=="}}]},
    ]
    values = (7.9, 8.4, 8.1, 7.6, 7.2)
    for n, (when, value) in enumerate(zip(HBA1C_DATES, values, strict=True), start=1):
        chart.append(_observation(f"a1c-{n}", PATIENT_ID, HBA1C_CODE, "Hemoglobin A1c", when,
                                  value, "%"))
    for n, when in enumerate(POTASSIUM_DATES, start=1):
        chart.append(_observation(f"k-{n}", PATIENT_ID, POTASSIUM_CODE, "Potassium", when,
                                  4.0 + n / 10, "mmol/L"))
    chart.append(_observation("a1c-other", OTHER_PATIENT_ID, HBA1C_CODE, "Hemoglobin A1c",
                              "2023-05-05", 6.1, "%"))
    return chart


def sample_resources() -> list[dict[str, Any]]:
    """Return a fresh copy of the resources the ``fhir_base`` fixture is built from."""
    return _people() + _chart()


@dataclass(frozen=True)
class Sample:
    """What the ``fhir_base`` fixture holds, for assertions (ids, codes, dates, counts)."""

    patient_id: str = PATIENT_ID
    other_patient_id: str = OTHER_PATIENT_ID
    practitioner_id: str = PRACTITIONER_ID
    organization_id: str = ORGANIZATION_ID
    encounter_id: str = ENCOUNTER_ID
    loinc: str = LOINC
    hba1c_code: str = HBA1C_CODE
    potassium_code: str = POTASSIUM_CODE
    hba1c_dates: tuple[str, ...] = HBA1C_DATES
    potassium_dates: tuple[str, ...] = POTASSIUM_DATES
    patient_observations: int = len(HBA1C_DATES) + len(POTASSIUM_DATES)

    @staticmethod
    def resources() -> list[dict[str, Any]]:
        """A fresh copy of every resource in the base."""
        return sample_resources()


@pytest.fixture(scope="session")
def fhir_sample() -> Sample:
    """Ids, codes and counts of the ``fhir_base`` fixture's resources."""
    return Sample()


@pytest.fixture(scope="module")
def fhir_base():
    """A small immutable base store: an organization, a practitioner, two patients, a chart."""
    from physbench_gym.fhir.store import BaseStore

    return BaseStore.from_resources(sample_resources())


def new_server(base):
    """Return an embedded FHIR server over a fresh fork of ``base``."""
    from physbench_gym.fhir.handler import FhirServer

    return FhirServer(base.fork())


@pytest.fixture
def fhir_server_factory(fhir_base) -> Callable[[], Any]:
    """Call it to get a new FhirServer over a fresh fork of ``fhir_base``."""
    return lambda: new_server(fhir_base)


@pytest.fixture
def http_server(fhir_base) -> Iterator[ServerThread]:
    """A real HTTP server on 127.0.0.1 over a fresh fork of the base (base URL ends in /fhir)."""
    with ServerThread(new_server(fhir_base).handle, threads=4) as server:
        yield server


@pytest.fixture(params=["inprocess", "http"])
def fhir_client(request: pytest.FixtureRequest, fhir_base) -> Iterator[FhirClient]:
    """A FhirClient over a fresh fork of the base, in-process or over real HTTP."""
    handler = new_server(fhir_base).handle
    if request.param == "inprocess":
        client = FhirClient(InProcessTransport(handler))
        yield client
        client.close()
        return
    with ServerThread(handler, threads=4) as server:
        client = FhirClient(HttpTransport(server.base_url, timeout=10.0))
        yield client
        client.close()
