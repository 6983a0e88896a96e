"""The small chart the tool tests run against, and the names tests refer to."""

from __future__ import annotations

import base64
from datetime import datetime, timedelta, timezone
from typing import Any

from physbench_gym.fhir.client import FhirClient

NOW = datetime(2024, 3, 15, 10, 30, tzinfo=timezone(timedelta(hours=-7)))
PATIENT = "pat-1"
OTHER = "pat-2"
MRN = "MRN482913"
ME = "prac-cons"
PCP = "prac-pcp"
TAG = {"system": "urn:physbench:episode", "code": "ep-test"}
LOINC = "http://loinc.org"
CREATININE = "2160-0"
HBA1C = "4548-4"
CREATININE_COUNT = 30
LONG_NOTE_WORDS = 3000
OBS_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"


def _ref(kind: str, rid: str) -> dict[str, str]:
    return {"reference": f"{kind}/{rid}"}


def observation(oid: str, patient: str, category: str, code: str, display: str, when: str,
                value: float, unit: str) -> dict[str, Any]:
    """One Observation with a LOINC code, category, date and quantity."""
    return {
        "resourceType": "Observation", "id": oid, "status": "final",
        "category": [{"coding": [{"system": OBS_CATEGORY, "code": category}]}],
        "code": {"coding": [{"system": LOINC, "code": code, "display": display}]},
        "subject": _ref("Patient", patient), "effectiveDateTime": f"{when}T08:00:00Z",
        "valueQuantity": {"value": value, "unit": unit, "system": "http://unitsofmeasure.org",
                          "code": unit},
    }


def note(nid: str, patient: str, type_code: str, when: str, text: str) -> dict[str, Any]:
    """A DocumentReference whose text is a base64 attachment."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return {
        "resourceType": "DocumentReference", "id": nid, "status": "current",
        "type": {"coding": [{"system": LOINC, "code": type_code}]},
        "subject": _ref("Patient", patient), "date": f"{when}T12:00:00Z",
        "content": [{"attachment": {"contentType": "text/plain", "data": data}}],
    }


def people() -> list[dict[str, Any]]:
    return [
        {"resourceType": "Practitioner", "id": ME, "name": [{"family": "Reyes", "given": ["Ana"]}]},
        {"resourceType": "Practitioner", "id": PCP, "name": [{"family": "Park", "given": ["Jin"]}]},
        {"resourceType": "Patient", "id": PATIENT,
         "identifier": [{"system": "urn:oid:1.2.36.146.595.217.0.1", "value": MRN}],
         "name": [{"family": "Whitfield", "given": ["Harold"]}], "gender": "male",
         "birthDate": "1956-09-12"},
        {"resourceType": "Patient", "id": OTHER,
         "identifier": [{"system": "urn:oid:1.2.36.146.595.217.0.1", "value": "MRN000777"}],
         "name": [{"family": "Okafor", "given": ["Grace"]}], "gender": "female",
         "birthDate": "1980-02-29"},
    ]


def observations() -> list[dict[str, Any]]:
    start = datetime(2021, 1, 5)
    items = [observation(f"cr-{i:02d}", PATIENT, "laboratory", CREATININE, "Creatinine",
                         (start + timedelta(days=30 * i)).date().isoformat(),
                         1.0 + i / 100, "mg/dL") for i in range(CREATININE_COUNT)]
    items += [
        observation("a1c-1", PATIENT, "laboratory", HBA1C, "Hemoglobin A1c", "2023-06-01",
                    7.9, "%"),
        observation("a1c-2", PATIENT, "laboratory", HBA1C, "Hemoglobin A1c", "2024-02-20",
                    8.6, "%"),
        observation("a1c-other", OTHER, "laboratory", HBA1C, "Hemoglobin A1c", "2024-01-01",
                    5.4, "%"),
        observation("wt-1", PATIENT, "vital-signs", "29463-7", "Body weight", "2024-02-20",
                    97.5, "kg"),
        observation("smoke-1", PATIENT, "social-history", "72166-2", "Tobacco smoking status",
                    "2024-02-20", 1, "1"),
    ]
    return items


def orders() -> list[dict[str, Any]]:
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm"
    return [
        {"resourceType": "Condition", "id": "cond-dm", "subject": _ref("Patient", PATIENT),
         "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/"
                                        "condition-clinical", "code": "active"}]},
         "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/"
                                   "condition-category", "code": "problem-list-item"}]}],
         "code": {"coding": [{"system": "http://hl7.org/fhir/sid/icd-10-cm", "code": "E11.9"}]},
         "onsetDateTime": "2015-04-01"},
        {"resourceType": "Condition", "id": "cond-pna", "subject": _ref("Patient", PATIENT),
         "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/"
                                        "condition-clinical", "code": "resolved"}]},
         "code": {"coding": [{"system": "http://hl7.org/fhir/sid/icd-10-cm", "code": "J18.9"}]},
         "onsetDateTime": "2019-01-10"},
        {"resourceType": "MedicationRequest", "id": "mr-metformin", "status": "active",
         "intent": "order", "subject": _ref("Patient", PATIENT), "authoredOn": "2022-05-01",
         "medicationCodeableConcept": {"coding": [{"system": rx, "code": "860975"}]}},
        {"resourceType": "MedicationRequest", "id": "mr-glipizide", "status": "stopped",
         "intent": "order", "subject": _ref("Patient", PATIENT), "authoredOn": "2020-01-01",
         "medicationCodeableConcept": {"coding": [{"system": rx, "code": "310488"}]}},
        {"resourceType": "Procedure", "id": "proc-colo", "status": "completed",
         "subject": _ref("Patient", PATIENT), "performedDateTime": "2022-08-09",
         "code": {"coding": [{"system": "http://www.ama-assn.org/go/cpt", "code": "45378"}]}},
        {"resourceType": "ServiceRequest", "id": "sr-echo", "status": "active",
         "intent": "order", "subject": _ref("Patient", PATIENT), "authoredOn": "2024-03-01",
         "code": {"coding": [{"system": "http://www.ama-assn.org/go/cpt", "code": "93306"}]}},
    ]


def notes() -> list[dict[str, Any]]:
    long_text = "Progress note. " + " ".join(f"word{i}" for i in range(LONG_NOTE_WORDS))
    return [
        note("doc-consult", PATIENT, "11488-4", "2024-02-21",
             "Consult note: HbA1c 8.6% despite metformin; consider GLP-1 receptor agonist."),
        note("doc-long", PATIENT, "11506-3", "2023-11-02", long_text),
    ]


def chart() -> list[dict[str, Any]]:
    """Every resource of the base EHR."""
    return people() + observations() + orders() + notes()


def tagged(client: FhirClient, resource_type: str) -> list[dict[str, Any]]:
    """Resources of a type this episode wrote, found through the client by their tag."""
    bundle = client.search(resource_type, {"_tag": f"{TAG['system']}|{TAG['code']}"})
    return [entry["resource"] for entry in bundle.get("entry", [])]
