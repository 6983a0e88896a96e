"""The physicianbench search tools against the embedded EHR through the real client."""

from __future__ import annotations

import json

from tools_ehr import (
    CREATININE,
    CREATININE_COUNT,
    HBA1C,
    MRN,
    OTHER,
    PATIENT,
)

from physbench_gym.tools.render import MAX_OBSERVATION_CHARS


def ids(result) -> list[str]:
    return [resource["id"] for resource in result.returned]


def test_patient_found_by_mrn_gives_its_fhir_id(call):
    result = call("fhir_patient_search_demographics", identifier=MRN)
    assert result.ok and result.status == 200
    assert ids(result) == [PATIENT]
    assert json.loads(result.text)["resources"][0]["id"] == PATIENT


def test_patient_search_by_name_and_gender(call):
    assert ids(call("fhir_patient_search_demographics", family="Okafor")) == [OTHER]
    assert ids(call("fhir_patient_search_demographics", gender="male")) == [PATIENT]
    assert ids(call("fhir_patient_search_demographics", birthdate="1980-02-29")) == [OTHER]


def test_patient_search_needs_a_criterion(call):
    result = call("fhir_patient_search_demographics")
    assert not result.ok
    assert "at least one of identifier" in result.text


def test_labs_filter_by_code_and_patient_newest_first(call):
    result = call("fhir_observation_search_labs", patient=PATIENT, code=HBA1C)
    assert ids(result) == ["a1c-2", "a1c-1"]
    oldest_first = call("fhir_observation_search_labs", patient=PATIENT, code=HBA1C, sort="date")
    assert ids(oldest_first) == ["a1c-1", "a1c-2"]


def test_labs_accept_several_codes_and_a_date_range(call):
    result = call("fhir_observation_search_labs", patient=PATIENT,
                  code=f"{HBA1C}, http://loinc.org|{CREATININE}",
                  date_ge="2023-01-01", date_le="2023-12-31")
    assert set(ids(result)) == {"a1c-1", "cr-25", "cr-26", "cr-27", "cr-28", "cr-29"}


def test_categories_keep_labs_vitals_and_social_history_apart(call):
    assert ids(call("fhir_observation_search_vitals", patient=PATIENT)) == ["wt-1"]
    assert ids(call("fhir_observation_search_social_history", patient=PATIENT)) == ["smoke-1"]
    labs = ids(call("fhir_observation_search_labs", patient=PATIENT, count=200))
    assert "wt-1" not in labs and "smoke-1" not in labs


def test_paging_follows_next_links_up_to_page_limit(call):
    one = call("fhir_observation_search_labs", patient=PATIENT, code=CREATININE, count=10)
    three = call("fhir_observation_search_labs", patient=PATIENT, code=CREATININE, count=10,
                 page_limit=3)
    two = call("fhir_observation_search_labs", patient=PATIENT, code=CREATININE, count=10,
               page_limit=2)
    assert len(one.returned) == 10 and len(two.returned) == 20
    assert json.loads(three.text)["returned"] == CREATININE_COUNT  # three pages fetched
    shown = min(len(ids(three)), len(ids(two)))  # the 10,000-character cut may show fewer
    assert ids(three)[:shown] == ids(two)[:shown] and shown >= 10
    assert json.loads(two.text)["more"] and "more" not in json.loads(three.text)
    assert json.loads(three.text)["total"] == CREATININE_COUNT


def test_conditions_by_clinical_status(call):
    assert ids(call("fhir_condition_search_problems", patient=PATIENT,
                    clinical_status="active")) == ["cond-dm"]
    assert ids(call("fhir_condition_search_problems", patient=PATIENT,
                    category="problem-list-item")) == ["cond-dm"]
    assert set(ids(call("fhir_condition_search_problems", patient=PATIENT))) == {
        "cond-dm", "cond-pna"}


def test_medications_procedures_and_service_requests(call):
    assert ids(call("fhir_medication_request_search_orders", patient=PATIENT,
                    status="active")) == ["mr-metformin"]
    assert ids(call("fhir_medication_request_search_orders", patient=PATIENT,
                    authoredon_le="2021-01-01")) == ["mr-glipizide"]
    assert ids(call("fhir_procedure_search_orders", patient=PATIENT)) == ["proc-colo"]
    assert ids(call("fhir_service_request_search", patient=PATIENT)) == ["sr-echo"]


def test_patient_reference_form_is_accepted(call):
    assert ids(call("fhir_procedure_search_orders", patient=f"Patient/{PATIENT}")) == [
        "proc-colo"]


def test_notes_are_decoded_to_text(call):
    result = call("fhir_document_reference_search_clinical_notes", patient=PATIENT,
                  type="11488-4")
    assert ids(result) == ["doc-consult"]
    attachment = json.loads(result.text)["resources"][0]["content"][0]["attachment"]
    assert attachment["text"].startswith("Consult note: HbA1c 8.6%")
    assert "data" not in attachment
    assert "data" in result.returned[0]["content"][0]["attachment"]


def test_long_output_is_cut_with_a_hint_to_narrow(call):
    result = call("fhir_document_reference_search_clinical_notes", patient=PATIENT)
    assert result.ok
    assert len(result.text) <= MAX_OBSERVATION_CHARS
    assert "output truncated" in result.text and "date range" in result.text
    assert [r["id"] for r in result.returned] == ["doc-consult"]  # only what the agent saw
    shown = json.loads(result.text)
    assert [r["id"] for r in shown["resources"]] == ["doc-consult"]
    assert "showing 1 of 2 resources" in shown["truncated"]


def test_one_resource_longer_than_the_limit_is_cut_as_text(call):
    result = call("fhir_document_reference_search_clinical_notes", patient=PATIENT,
                  type="11506-3")
    assert ids(result) == ["doc-long"]
    assert len(result.text) == MAX_OBSERVATION_CHARS
    assert result.text.endswith("or a status]")
    assert "word100 word101" in result.text


def test_unknown_patient_finds_nothing(call):
    result = call("fhir_observation_search_labs", patient="nobody")
    assert result.ok and result.returned == []
