"""Interop: the independent ``fhirclient`` library against our HTTP server on 127.0.0.1.

fhirclient parses every answer into its strict R4 models, so these tests also check that our
Bundles, resources and OperationOutcomes are valid R4 JSON as another implementation reads it.
"""

from __future__ import annotations

import warnings

import pytest
import requests
from fhirclient import client as fhir
from fhirclient.models.observation import Observation
from fhirclient.models.operationoutcome import OperationOutcome
from fhirclient.models.patient import Patient
from fhirclient.server import FHIRNotFoundException

from physbench_gym.fhir.http_app import ServerThread


@pytest.fixture
def smart(http_server: ServerThread) -> fhir.FHIRClient:
    return fhir.FHIRClient(settings={"app_id": "physbench-interop",
                                     "api_base": http_server.base_url})


def _new_observation(value: float) -> Observation:
    return Observation({
        "resourceType": "Observation", "status": "final",
        "code": {"coding": [{"system": "http://loinc.org", "code": "2345-7",
                             "display": "Glucose"}]},
        "subject": {"reference": "Patient/pat-2"},
        "effectiveDateTime": "2024-01-20T08:00:00Z",
        "valueQuantity": {"value": value, "unit": "mmol/L"},
    })


def test_capability_statement_parses(smart: fhir.FHIRClient) -> None:
    smart.server.get_capability(force=True)
    assert smart.server.capabilityStatement.fhirVersion.startswith("4.0")


def test_search_pages_to_the_end(smart: fhir.FHIRClient, fhir_sample) -> None:
    search = Observation.where(struct={"patient": fhir_sample.patient_id, "_count": "3"})
    pages = list(search.perform_iter(smart.server))
    ids = [entry.resource.id for page in pages for entry in page.entry or []]
    assert len(pages) == 3
    assert len(ids) == len(set(ids)) == fhir_sample.patient_observations
    assert all(page.total == fhir_sample.patient_observations for page in pages)


def test_search_first_page_with_perform(smart: fhir.FHIRClient, fhir_sample) -> None:
    search = Observation.where(struct={"patient": fhir_sample.patient_id,
                                       "code": f"{fhir_sample.loinc}|{fhir_sample.hba1c_code}",
                                       "_sort": "-date", "_count": "2"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        bundle = search.perform(smart.server)
    dates = [entry.resource.effectiveDateTime.isostring[:10] for entry in bundle.entry]
    assert dates == sorted(fhir_sample.hba1c_dates, reverse=True)[:2]
    assert any(link.relation == "next" for link in bundle.link)


def test_read(smart: fhir.FHIRClient, fhir_sample) -> None:
    patient = Patient.read(fhir_sample.patient_id, smart.server)
    assert patient.name[0].family == "Garcia"
    assert patient.birthDate.isostring == "1961-03-04"


def test_create_then_read_and_update(smart: fhir.FHIRClient) -> None:
    created = _new_observation(6.2).create(smart.server)
    assert created["resourceType"] == "Observation" and created["id"]
    observation = Observation.read(created["id"], smart.server)
    assert observation.valueQuantity.value == 6.2
    observation.valueQuantity.value = 6.4
    observation.update(smart.server)
    assert Observation.read(created["id"], smart.server).valueQuantity.value == 6.4


def test_missing_resource_raises_not_found(smart: fhir.FHIRClient) -> None:
    with pytest.raises(FHIRNotFoundException) as caught:
        Patient.read("no-such-patient", smart.server)
    assert OperationOutcome(caught.value.response.json()).issue[0].severity == "error"


def test_invalid_create_is_refused_with_an_outcome(smart: fhir.FHIRClient) -> None:
    invalid = _new_observation(1.0)
    invalid.subject.reference = "Patient/no-such-patient"
    with pytest.raises(requests.HTTPError) as caught:
        invalid.create(smart.server)
    assert caught.value.response.status_code in (400, 404, 409, 422)
    outcome = OperationOutcome(caught.value.response.json())
    assert outcome.issue and outcome.issue[0].diagnostics
