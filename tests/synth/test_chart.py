from __future__ import annotations

import base64
import json
import re
from collections import Counter
from datetime import date, timedelta

import pytest
import yaml

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.synth import checks
from physbench_gym.synth.chart import generate_chart, trend_points
from physbench_gym.synth.roster import roster_resources
from physbench_gym.synth.routine import ROUTINE_QUIET_DAYS
from physbench_gym.synth.samples import HYPOTHYROID_STORY_YAML, hypothyroid_story
from physbench_gym.synth.story import AllergyEntry, Story, StoryError

PID = "pt-thyroid-001"
TSH = "http://loinc.org|3016-3"


@pytest.fixture(scope="module")
def story() -> Story:
    return hypothyroid_story()


@pytest.fixture(scope="module")
def chart(story: Story) -> list[dict]:
    return generate_chart(story, seed=0)


@pytest.fixture(scope="module")
def client(chart: list[dict]):
    store = BaseStore.from_resources(roster_resources() + chart)
    with in_process_client(FhirServer(store.fork())) as fhir:
        yield fhir


def _story_facts(resources: list[dict]) -> dict[str, list]:
    def obs(code: str) -> list:
        return sorted((r["effectiveDateTime"], r["valueQuantity"]["value"]) for r in resources
                      if r["resourceType"] == "Observation"
                      and r["code"]["coding"][0]["code"] == code)

    meds = sorted((r["medicationCodeableConcept"]["coding"][0]["code"], r["status"],
                   r["authoredOn"]) for r in resources if r["resourceType"] == "MedicationRequest"
                  and r["courseOfTherapyType"]["coding"][0]["code"] == "continuous")
    return {"tsh": obs("3016-3"), "ft4": obs("3024-7"), "weight": obs("29463-7"), "meds": meds,
            "patient": [r for r in resources if r["resourceType"] == "Patient"]}


def test_chart_size_is_that_of_several_years_of_care(chart):
    assert 300 <= len(chart) <= 1500
    kinds = Counter(r["resourceType"] for r in chart)
    assert kinds["Patient"] == 1 and kinds["Encounter"] >= 10 and kinds["DocumentReference"] >= 5


def test_every_resource_is_valid_r4(chart):
    assert checks.fhir_model_errors(roster_resources() + chart) == []


def test_references_resolve_dates_units_and_codes_hold(story, chart):
    everything = roster_resources() + chart
    assert checks.dangling_references(everything) == []
    assert checks.dates_after(chart, story.now) == []
    assert checks.non_ucum_quantities(chart) == []
    assert checks.unknown_codes(chart) == []


def test_ids_are_unique_and_derived_from_the_patient(chart):
    ids = [f"{r['resourceType']}/{r['id']}" for r in chart]
    assert len(ids) == len(set(ids))
    assert all(r["id"].startswith(PID) for r in chart)


def test_every_dated_item_belongs_to_an_encounter_of_its_day(chart):
    encounters = {r["id"]: r for r in chart if r["resourceType"] == "Encounter"}
    for resource in chart:
        link = resource.get("encounter") or resource.get("context")
        if resource["resourceType"] in ("Observation", "MedicationRequest", "Condition"):
            encounter = encounters[link["reference"].split("/")[1]]
            start = encounter["period"]["start"][:10]
            when = (resource.get("effectiveDateTime") or resource.get("authoredOn")
                    or resource.get("recordedDate"))
            assert when[:10] == start, resource["id"]


def test_same_story_and_seed_give_identical_bytes(story, chart):
    again = generate_chart(hypothyroid_story(), seed=0)
    assert json.dumps(again, sort_keys=False) == json.dumps(chart, sort_keys=False)


def test_another_seed_changes_noise_but_not_story_facts(story, chart):
    other = generate_chart(story, seed=7)
    assert json.dumps(other) != json.dumps(chart)
    assert _story_facts(other) == _story_facts(chart)


def test_noise_never_adds_results_for_codes_the_story_owns(story, chart):
    tsh = _story_facts(chart)["tsh"]
    series = story.labs[0]
    expected = [value for _, value in trend_points(story, series)]
    expected += [point.value for point in series.points]
    assert [value for _, value in tsh] == expected
    assert len(expected) == 11 and tsh[-1][1] == 9.84


def test_dose_change_stops_the_old_order_and_starts_a_new_one():
    data = yaml.safe_load(HYPOTHYROID_STORY_YAML)
    data["medications"][0]["changes"] = [{"date": "-1y", "dose": "150 ug",
                                          "sig": "Take 2 tablets (150 mcg) by mouth daily"}]
    resources = generate_chart(Story.model_validate(data), seed=0)
    levo = [r for r in resources if r["resourceType"] == "MedicationRequest"
            and r["medicationCodeableConcept"]["coding"][0]["code"] == "966222"]
    statuses = Counter(r["status"] for r in levo)
    assert statuses["active"] == 1 and statuses["stopped"] == 1
    active = next(r for r in levo if r["status"] == "active")
    assert active["dosageInstruction"][0]["doseAndRate"][0]["doseQuantity"]["value"] == 150
    stopped = next(r for r in levo if r["status"] == "stopped")
    assert stopped["dosageInstruction"][0]["timing"]["repeat"]["boundsPeriod"]["end"] == \
        active["authoredOn"]


def test_a_story_date_after_now_is_an_error():
    data = yaml.safe_load(HYPOTHYROID_STORY_YAML)
    data["notes"][0]["date"] = "2026-04-01"
    with pytest.raises(StoryError, match="after the story's now"):
        generate_chart(Story.model_validate(data))


def test_latest_tsh_is_found_by_sorted_search(client):
    bundle = client.search("Observation", {"patient": PID, "code": TSH, "_sort": "-date",
                                           "_count": "1"})
    latest = bundle["entry"][0]["resource"]
    assert latest["valueQuantity"] == {"value": 9.84, "unit": "m[IU]/L",
                                       "system": "http://unitsofmeasure.org", "code": "m[IU]/L"}
    assert latest["interpretation"][0]["coding"][0]["code"] == "H"


def test_active_levothyroxine_is_found_by_status(client):
    bundle = client.search("MedicationRequest", {"patient": PID, "status": "active"})
    active = {e["resource"]["medicationCodeableConcept"]["coding"][0]["code"]
              for e in bundle.get("entry", [])}
    assert "966222" in active and "310965" not in active
    everything = client.search("MedicationRequest", {"patient": PID, "_count": "200"})
    assert len(everything["entry"]) > len(bundle["entry"])


def test_weight_is_read_from_the_note(client):
    bundle = client.search("DocumentReference", {"patient": PID, "type": "11506-3",
                                                 "_sort": "-date", "_count": "50"})
    texts = [base64.b64decode(e["resource"]["content"][0]["attachment"]["data"]).decode()
             for e in bundle["entry"]]
    assert any("Weight 82.4 kg" in text for text in texts)
    assert len(texts) > 1


def test_routine_care_respects_allergies_and_leaves_the_weeks_before_the_consult_alone():
    story = hypothyroid_story().model_copy(update={"allergies": [
        AllergyEntry(substance="Penicillin", reaction="hives", recorded="-5y"),
        AllergyEntry(substance="Sulfa drugs, NSAIDs", reaction="rash", recorded="-3y")]})
    now = story.now.date().isoformat()
    quiet_from = (story.now - timedelta(days=ROUTINE_QUIET_DAYS)).date().isoformat()
    for seed in range(6):
        chart = generate_chart(story, seed=seed)
        drugs = " ".join(c.get("display", "").lower() for r in chart
                         if r["resourceType"] == "MedicationRequest"
                         for c in r["medicationCodeableConcept"]["coding"])
        assert "amoxicillin" not in drugs and "naproxen" not in drugs
        wellness = [r["date"][:10] for r in chart if r["resourceType"] == "DocumentReference"
                    and r.get("description") in ("Annual wellness visit", "Chronic care follow-up")]
        assert wellness and all(day < quiet_from for day in wellness) and max(wellness) < now


def test_a_visit_note_states_the_age_the_patient_had_on_its_date(story):
    born = story.birth_date()
    stated = []
    for seed in range(4):
        for res in generate_chart(story, seed=seed):
            if res["resourceType"] != "DocumentReference":
                continue
            text = base64.b64decode(res["content"][0]["attachment"]["data"]).decode() if (
                "data" in res["content"][0]["attachment"]) else res["content"][0][
                "attachment"].get("text", "")
            found = re.search(r"\ba (\d+)-year-old\b", text)
            if found and text.startswith(("ACUTE VISIT NOTE", "PROGRESS NOTE")):
                day = date.fromisoformat(res["date"][:10])
                age = day.year - born.year - ((day.month, day.day) < (born.month, born.day))
                stated.append((res["description"], day, int(found.group(1)), age))
    kinds = {description for description, *_ in stated}
    assert {"Acute visit", "Annual wellness visit"} <= kinds | {"ED visit"}, kinds
    assert [row for row in stated if row[2] != row[3]] == []
    assert len({row[2] for row in stated}) > 1  # years of care: the age moves with the date


def _testosterone_chart(gender: str) -> list[dict]:
    story = Story.model_validate({
        "now": "2026-06-10T15:00:00Z",
        "patient": {"id": f"pt-range-{gender}", "given": "Alex", "family": "Rowan",
                    "gender": gender, "age": 30},
        "history_years": 0,
        "labs": [{"code": "2986-8", "points": [{"date": "-3w", "value": 78},
                                                {"date": "-1w", "value": 280}]},
                 {"code": "2160-0", "points": [{"date": "-1w", "value": 1.4}]}],
    })
    return generate_chart(story, seed=0)


def _results(chart: list[dict], code: str) -> list[tuple[float, list[dict], str | None]]:
    found = []
    for res in sorted(chart, key=lambda r: r.get("effectiveDateTime", "")):
        if res["resourceType"] == "Observation" and res["code"]["coding"][0]["code"] == code:
            flags = res.get("interpretation", [])
            found.append((res["valueQuantity"]["value"], res.get("referenceRange", []),
                          flags[0]["coding"][0]["code"] if flags else None))
    return found


def _bounds(ranges: list[dict]) -> list[tuple[float | None, float | None, str | None]]:
    return [(r.get("low", {}).get("value"), r.get("high", {}).get("value"),
             r["appliesTo"][0]["coding"][0]["code"] if "appliesTo" in r else None)
            for r in ranges]


@pytest.mark.parametrize(
    ("gender", "bounds", "flags"),
    [("male", [(264.0, 916.0, "248153007")], ["L", "N"]),
     ("female", [(9.0, 55.0, "248152002")], ["H", "H"])],
)
def test_a_sex_specific_range_follows_the_patients_gender(gender, bounds, flags):
    chart = _testosterone_chart(gender)
    results = _results(chart, "2986-8")
    assert [value for value, _, _ in results] == [78, 280]
    assert all(_bounds(ranges) == bounds for _, ranges, _ in results)
    assert [flag for _, _, flag in results] == flags
    creatinine = _results(chart, "2160-0")  # a range for any sex: unchanged, no appliesTo
    assert [(_bounds(r), f) for _, r, f in creatinine] == [([(0.6, 1.3, None)], "H")]
    assert checks.fhir_model_errors(roster_resources() + chart) == []


def test_a_patient_of_unknown_sex_sees_every_sex_range_and_no_computed_flag():
    chart = _testosterone_chart("unknown")
    for _, ranges, flag in _results(chart, "2986-8"):
        assert _bounds(ranges) == [(264.0, 916.0, "248153007"), (9.0, 55.0, "248152002")]
        assert flag is None
    assert checks.fhir_model_errors(roster_resources() + chart) == []
