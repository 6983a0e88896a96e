from __future__ import annotations

import json
from collections import Counter

import pytest

from physbench_gym.synth import cache, checks
from physbench_gym.synth.background import DEFAULT_NOW
from physbench_gym.synth.names import MRN_SYSTEM, NPI_SYSTEM, npi_is_valid
from physbench_gym.synth.population import (
    background_population,
    build_base_store,
    lookalike_of,
    population_resources,
)
from physbench_gym.synth.roster import PCP_IDS, SPECIALTIES, roster_resources, specialist_id
from physbench_gym.synth.samples import hypothyroid_story


@pytest.fixture(scope="module")
def population() -> list[dict]:
    return population_resources(500, seed=0)


def test_full_population_is_valid_r4(population):
    assert checks.fhir_model_errors(population) == []


def test_population_references_dates_units_and_codes(population):
    assert checks.dangling_references(population) == []
    assert checks.dates_after(population, DEFAULT_NOW) == []
    assert checks.non_ucum_quantities(population) == []
    assert checks.unknown_codes(population) == []


def test_population_ids_and_mrns_are_unique(population):
    keys = [f"{r['resourceType']}/{r['id']}" for r in population]
    assert len(keys) == len(set(keys))
    patients = [r for r in population if r["resourceType"] == "Patient"]
    assert len(patients) == 500
    mrns = [i["value"] for p in patients for i in p["identifier"] if i["system"] == MRN_SYSTEM]
    assert len(set(mrns)) == 500


def test_demographics_are_plausible(population):
    patients = [r for r in population if r["resourceType"] == "Patient"]
    genders = Counter(p["gender"] for p in patients)
    assert 200 <= genders["female"] <= 300
    ages = [DEFAULT_NOW.year - int(p["birthDate"][:4]) for p in patients]
    assert min(ages) >= 18 and max(ages) <= 97
    assert 45 <= sum(ages) / len(ages) <= 65
    families = Counter(p["name"][0]["family"] for p in patients)
    assert families.most_common(1)[0][1] >= 3


def test_background_charts_are_lighter_than_story_charts(population):
    per_patient = (len(population) - len(roster_resources())) / 500
    assert 30 <= per_patient <= 200


def test_chronic_conditions_come_with_matching_medications(population):
    by_patient: dict[str, set[str]] = {}
    for r in population:
        if r["resourceType"] == "MedicationRequest":
            by_patient.setdefault(r["subject"]["reference"], set()).add(
                r["medicationCodeableConcept"]["text"].lower())
    hypertensive = {r["subject"]["reference"] for r in population
                    if r["resourceType"] == "Condition"
                    and r["code"]["coding"][0]["code"] in ("38341003", "59621000")}
    assert len(hypertensive) > 50
    assert all(any("lisinopril" in d for d in by_patient.get(p, ())) for p in hypertensive)


def test_roster_has_every_specialty_and_valid_npis():
    roster = roster_resources()
    ids = {r["id"] for r in roster if r["resourceType"] == "Practitioner"}
    assert {specialist_id(s) for s in SPECIALTIES} | set(PCP_IDS) == ids
    npis = [i["value"] for r in roster for i in r["identifier"] if i["system"] == NPI_SYSTEM]
    assert len(set(npis)) == len(npis) and all(npi_is_valid(n) for n in npis)
    assert not npi_is_valid(npis[0][:9] + str((int(npis[0][9]) + 1) % 10))


def test_lookalikes_share_family_name_or_birth_date():
    story = hypothyroid_story()
    resources = background_population(6, seed=3, lookalikes=[story])
    patients = [r for r in resources if r["resourceType"] == "Patient"]
    families = [p["name"][0]["family"] for p in patients]
    births = [p["birthDate"] for p in patients]
    assert families.count("Lopez") >= 2
    assert births.count("1967-08-21") >= 1
    like = lookalike_of(story, index=9, share="birth_date")
    assert like.birth_date().isoformat() == "1967-08-21" and like.patient.id != story.patient.id


def test_background_population_is_deterministic():
    first = json.dumps(background_population(15, seed=4))
    assert first == json.dumps(background_population(15, seed=4))
    assert first != json.dumps(background_population(15, seed=5))


def test_base_store_is_cached_and_a_corrupted_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("PHYSBENCH_CACHE_DIR", str(tmp_path))
    cold = build_base_store(patients=12, seed=2)
    files = list(tmp_path.glob("synth-*.bin"))
    assert len(files) == 1
    warm = build_base_store(patients=12, seed=2)
    assert warm.content_hash() == cold.content_hash()
    files[0].write_bytes(files[0].read_bytes()[:-100])
    rebuilt = build_base_store(patients=12, seed=2)
    assert rebuilt.content_hash() == cold.content_hash()
    assert cache.load_blob(cache.cache_key(x=1)) is None


def test_base_store_holds_extra_resources_and_distinct_parameters_get_distinct_entries(
        tmp_path, monkeypatch):
    monkeypatch.setenv("PHYSBENCH_CACHE_DIR", str(tmp_path))
    from physbench_gym.synth.chart import generate_chart

    story_chart = generate_chart(hypothyroid_story())
    store = build_base_store(patients=5, seed=1, extra=story_chart)
    assert store.entry("Patient", "pt-thyroid-001") is not None
    assert store.entry("Practitioner", "prac-endocrinology") is not None
    build_base_store(patients=5, seed=2)
    assert len(list(tmp_path.glob("synth-*.bin"))) == 2
    assert cache.cache_key(patients=5, seed=1) != cache.cache_key(patients=5, seed=2)
