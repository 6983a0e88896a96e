"""The physicianbench create tools write valid, tagged resources stamped by the task clock."""

from __future__ import annotations

import pytest
from tools_ehr import ME, PATIENT, PCP, TAG, tagged

from physbench_gym.synth import terminology
from physbench_gym.tools.writes import fhir_datetime

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
STAMP = "2024-03-15T10:30:00-07:00"


def rxnorm_table_installed() -> bool:
    try:
        return bool(terminology.all_concepts("rxnorm"))
    except OSError:
        return False


def drug() -> tuple[str, str]:
    """An RxNorm code the EHR accepts and the display the order should carry."""
    if rxnorm_table_installed():
        concept = terminology.all_concepts("rxnorm")[0]
        return concept.code, concept.display
    return "1991302", "semaglutide 0.25 mg/dose pen"


def prescribe(call, **extra):
    arguments = {"patient": PATIENT, "medication_code": drug()[0],
                 "medication_display": "semaglutide 0.25 mg/dose pen", "dose_value": 0.25,
                 "dose_unit": "mg", "route": "subcutaneous", "frequency": 1,
                 "period_unit": "week", "duration_days": 28, "quantity": 1,
                 "quantity_unit": "pen", "refills": 2, "reason": "type 2 diabetes",
                 "reason_code": "E11.9", "note": "Titrate after 4 weeks."}
    return call("fhir_medication_request_create", **{**arguments, **extra})


def test_medication_request_is_complete_and_tagged(call, client):
    result = prescribe(call)
    assert result.ok and result.status == 201
    [written] = result.written
    stored = tagged(client, "MedicationRequest")
    assert [item["id"] for item in stored] == [written["id"]]
    assert TAG in written["meta"]["tag"]
    assert written["medicationCodeableConcept"]["coding"] == [
        {"system": RXNORM, "code": drug()[0], "display": drug()[1]}]
    assert written["subject"] == {"reference": f"Patient/{PATIENT}"}
    assert written["requester"] == {"reference": f"Practitioner/{ME}"}
    assert written["authoredOn"] == STAMP
    assert (written["status"], written["intent"]) == ("active", "order")
    dosage = written["dosageInstruction"][0]
    assert dosage["timing"]["repeat"] == {
        "frequency": 1, "period": 1, "periodUnit": "wk",
        "boundsDuration": {"value": 28, "unit": "days", "system": "http://unitsofmeasure.org",
                           "code": "d"}}
    assert dosage["route"]["coding"][0]["code"] == "34206005"
    assert dosage["doseAndRate"][0]["doseQuantity"] == {
        "value": 0.25, "unit": "mg", "system": "http://unitsofmeasure.org", "code": "mg"}
    assert dosage["text"] == "0.25 mg subcutaneous 1 time per week for 28 days"
    dispense = written["dispenseRequest"]
    assert dispense["numberOfRepeatsAllowed"] == 2
    assert dispense["quantity"]["value"] == 1
    assert dispense["expectedSupplyDuration"]["value"] == 28
    assert written["reasonCode"] == [{"coding": [{"system": "http://hl7.org/fhir/sid/icd-10-cm",
                                                  "code": "E11.9"}], "text": "type 2 diabetes"}]
    assert written["note"][0]["text"] == "Titrate after 4 weeks."
    assert f"MedicationRequest/{written['id']}" in result.text


@pytest.mark.skipif(not rxnorm_table_installed(), reason="needs the RxNorm table")
def test_medication_display_comes_from_the_terminology(call):
    concept = terminology.all_concepts("rxnorm")[0]
    result = call("fhir_medication_request_create", patient=PATIENT,
                  medication_code=concept.code, sig="as directed")
    assert result.ok, result.text
    coding = result.written[0]["medicationCodeableConcept"]["coding"][0]
    assert coding["display"] == concept.display
    route = result.written[0]["dosageInstruction"][0]["route"]["text"]
    assert route == concept.extra["route"]


@pytest.mark.skipif(not rxnorm_table_installed(), reason="needs the RxNorm table")
def test_unknown_rxnorm_code_is_refused_with_suggestions(call, client):
    concept = terminology.all_concepts("rxnorm")[0]
    result = call("fhir_medication_request_create", patient=PATIENT,
                  medication_code="999999999", medication_display=concept.extra["ingredient"],
                  sig="daily")
    assert not result.ok and "unknown rxnorm code" in result.text
    assert concept.extra["ingredient"] in result.text
    assert tagged(client, "MedicationRequest") == []


def test_sig_alone_is_a_valid_prescription(call):
    result = call("fhir_medication_request_create", patient=PATIENT, medication_code=drug()[0],
                  sig="Take one tablet by mouth daily", status="draft", intent="proposal")
    assert result.ok, result.text
    written = result.written[0]
    assert written["dosageInstruction"][0]["text"] == "Take one tablet by mouth daily"
    assert (written["status"], written["intent"]) == ("draft", "proposal")


def test_prescription_needs_a_dose_or_sig(call, client):
    result = call("fhir_medication_request_create", patient=PATIENT, medication_code="197361")
    assert not result.ok and "dose" in result.text
    half = call("fhir_medication_request_create", patient=PATIENT, medication_code="197361",
                dose_value=5)
    assert not half.ok and "dose_value and dose_unit together" in half.text
    assert tagged(client, "MedicationRequest") == []


def test_unknown_patient_is_the_ehrs_4xx_and_nothing_is_written(call, client):
    result = prescribe(call, patient="no-such-patient")
    assert not result.ok
    assert result.status is not None and 400 <= result.status < 500
    assert "Patient/no-such-patient" in result.text
    assert result.written == [] and tagged(client, "MedicationRequest") == []


@pytest.mark.parametrize(("category", "snomed"), [
    ("laboratory", "108252007"), ("imaging", "363679005"), ("procedure", "387713003"),
    ("referral", "3457005"), ("counseling", "409063005")])
def test_service_request_category_codings(call, category, snomed):
    result = call("fhir_service_request_create", patient=PATIENT, code="4548-4", system="loinc",
                  display="Hemoglobin A1c", category=category)
    assert result.ok, result.text
    coding = result.written[0]["category"][0]["coding"][0]
    assert (coding["system"], coding["code"]) == ("http://snomed.info/sct", snomed)


def test_service_request_is_complete_and_tagged(call, client):
    result = call("fhir_service_request_create", patient=PATIENT, code="93306", system="cpt",
                  display="Transthoracic echocardiogram", category="imaging", priority="urgent",
                  reason="new murmur", occurrence="2024-04-01", note="Assess valves.")
    assert result.ok, result.text
    written = result.written[0]
    assert written["code"]["coding"][0]["system"] == "http://www.ama-assn.org/go/cpt"
    assert written["code"]["coding"][0]["code"] == "93306"
    assert written["code"]["text"] == "Transthoracic echocardiogram"
    assert (written["priority"], written["status"], written["intent"]) == (
        "urgent", "active", "order")
    assert written["authoredOn"] == STAMP
    assert written["requester"] == {"reference": f"Practitioner/{ME}"}
    assert written["occurrenceDateTime"] == "2024-04-01"
    assert [item["id"] for item in tagged(client, "ServiceRequest")] == [written["id"]]


def test_service_request_system_uri_and_unknown_system(call):
    uri = call("fhir_service_request_create", patient=PATIENT, code="306206005",
               system="http://snomed.info/sct", category="referral", specialty="cardiology")
    assert uri.ok and uri.written[0]["performerType"] == {"text": "cardiology"}
    bad = call("fhir_service_request_create", patient=PATIENT, code="1", system="klingon",
               category="laboratory")
    assert not bad.ok and "unknown code system 'klingon'" in bad.text


def test_message_to_the_pcp(call, client):
    result = call("fhir_communication_create_message", patient=PATIENT, recipient=PCP,
                  text="Recommend starting semaglutide.", based_on="sr-echo")
    assert result.ok, result.text
    written = result.written[0]
    assert (written["status"], written["sent"]) == ("completed", STAMP)
    assert written["sender"] == {"reference": f"Practitioner/{ME}"}
    assert written["recipient"] == [{"reference": f"Practitioner/{PCP}"}]
    assert written["payload"] == [{"contentString": "Recommend starting semaglutide."}]
    assert written["basedOn"] == [{"reference": "ServiceRequest/sr-echo"}]
    assert len(tagged(client, "Communication")) == 1


def test_appointment_based_on_a_referral(call, client):
    referral = call("fhir_service_request_create", patient=PATIENT, code="306206005",
                    system="snomed", category="referral").written[0]
    result = call("fhir_appointment_create", patient=PATIENT, based_on=referral["id"],
                  start="2024-04-02T09:00", minutes_duration=40, description="Cardiology visit")
    assert result.ok, result.text
    written = result.written[0]
    assert written["status"] == "booked"
    assert (written["start"], written["end"]) == ("2024-04-02T09:00:00-07:00",
                                                  "2024-04-02T09:40:00-07:00")
    assert written["basedOn"] == [{"reference": f"ServiceRequest/{referral['id']}"}]
    actors = [item["actor"]["reference"] for item in written["participant"]]
    assert actors == [f"Patient/{PATIENT}", f"Practitioner/{ME}"]
    assert len(tagged(client, "Appointment")) == 1


def test_appointment_without_start_is_proposed_and_times_are_checked(call):
    proposed = call("fhir_appointment_create", patient=PATIENT, description="Follow-up")
    assert proposed.ok and proposed.written[0]["status"] == "proposed"
    assert "start" not in proposed.written[0]
    backwards = call("fhir_appointment_create", patient=PATIENT, description="x",
                     start="2024-04-02T09:00:00Z", end="2024-04-02T08:00:00Z")
    assert not backwards.ok and "end after it starts" in backwards.text
    booked = call("fhir_appointment_create", patient=PATIENT, description="x", status="booked")
    assert not booked.ok and "needs a start" in booked.text


def test_fhir_datetime_uses_the_given_clock_not_the_machine():
    from datetime import datetime

    assert fhir_datetime(datetime(2020, 1, 2, 3, 4, 5)) == "2020-01-02T03:04:05+00:00"
