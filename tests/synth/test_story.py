from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from physbench_gym.synth import story as story_module
from physbench_gym.synth.samples import HYPOTHYROID_STORY_YAML, hypothyroid_story
from physbench_gym.synth.story import Frequency, MedicationEntry, Story, resolve_date

NOW = datetime(2026, 3, 31, 9, 30, tzinfo=timezone.utc)


@pytest.mark.parametrize(("ref", "expected"), [
    ("-90d", datetime(2025, 12, 31, 9, 30, tzinfo=timezone.utc)),
    ("-6w", datetime(2026, 2, 17, 9, 30, tzinfo=timezone.utc)),
    ("-1m", datetime(2026, 2, 28, 9, 30, tzinfo=timezone.utc)),
    ("-18m", datetime(2024, 9, 30, 9, 30, tzinfo=timezone.utc)),
    ("-3y", datetime(2023, 3, 31, 9, 30, tzinfo=timezone.utc)),
    ("-1y-2m", datetime(2025, 1, 31, 9, 30, tzinfo=timezone.utc)),
    ("2026-03-14", datetime(2026, 3, 14, tzinfo=timezone.utc)),
    ("2026-03-14T09:30:00Z", datetime(2026, 3, 14, 9, 30, tzinfo=timezone.utc)),
    (date(2020, 2, 29), datetime(2020, 2, 29, tzinfo=timezone.utc)),
])
def test_resolve_date_handles_offsets_and_absolute_dates(ref, expected):
    assert resolve_date(ref, NOW) == expected


@pytest.mark.parametrize("bad", ["-3q", "yesterday", "90d-", "2026-13-01"])
def test_resolve_date_rejects_malformed_references(bad):
    with pytest.raises(ValueError):
        resolve_date(bad, NOW)


def test_sample_yaml_parses_with_shorthands():
    story = hypothyroid_story()
    levo = story.medications[0]
    assert (levo.dose.value, levo.dose.unit) == (75.0, "ug")
    assert levo.frequency == Frequency(times=1, period=1, unit="d")
    assert story.patient.given == ["Maria", "E."]
    assert story.now == datetime(2026, 3, 14, 9, 30, tzinfo=timezone.utc)
    assert story.labs[0].trend is not None and story.labs[0].trend.end == 3.9


def test_yaml_dates_become_iso_text():
    data = yaml.safe_load(HYPOTHYROID_STORY_YAML)
    assert isinstance(data["patient"]["birth_date"], date)
    assert hypothyroid_story().patient.birth_date == "1967-08-21"


def test_unknown_fields_are_rejected():
    data = yaml.safe_load(HYPOTHYROID_STORY_YAML)
    data["conditions"][0]["severity"] = "mild"
    with pytest.raises(ValidationError, match="severity"):
        Story.model_validate(data)


def test_every_field_of_every_model_is_described():
    models = [value for value in vars(story_module).values()
              if isinstance(value, type) and issubclass(value, BaseModel)
              and value.__module__ == story_module.__name__ and not value.__name__.startswith("_")]
    assert len(models) > 15
    undescribed = [f"{model.__name__}.{name}" for model in models
                   for name, field in model.model_fields.items() if not field.description]
    assert undescribed == []


@pytest.mark.parametrize(("patch", "message"), [
    ({"conditions": [{"code": "40930008", "onset": "-2y", "abatement": "-1y"}]}, "abated"),
    ({"labs": [{"code": "3016-3", "points": [{"date": "-1y"}]}]}, "exactly one"),
    ({"labs": [{"code": "3016-3"}]}, "points or a trend"),
    ({"medications": [{"code": "966222", "start": "-2y", "stop": "-1y", "dose": "75 ug"}]},
     "stop date"),
    ({"medications": [{"code": "966222", "start": "-2y", "dose": "75 ug", "frequency": "q5d"}]},
     "unknown frequency"),
])
def test_inconsistent_entries_are_rejected(patch, message):
    data = {**yaml.safe_load(HYPOTHYROID_STORY_YAML), **patch}
    with pytest.raises(ValidationError, match=message):
        Story.model_validate(data)


def test_patient_needs_exactly_one_of_birth_date_and_age():
    data = yaml.safe_load(HYPOTHYROID_STORY_YAML)
    data["patient"]["age"] = 58
    with pytest.raises(ValidationError, match="exactly one"):
        Story.model_validate(data)


def test_age_gives_a_birth_date_that_age_at_now():
    data = yaml.safe_load(HYPOTHYROID_STORY_YAML)
    del data["patient"]["birth_date"]
    data["patient"]["age"] = 58
    story = Story.model_validate(data)
    born = story.birth_date()
    age = story.now.year - born.year - ((story.now.month, story.now.day) < (born.month, born.day))
    assert age == 58


def test_owned_codes_cover_series_panels_and_social():
    assert {"3016-3", "3024-7", "29463-7", "72166-2"} <= hypothyroid_story().owned_codes()


def test_dose_shorthand_must_be_a_quantity():
    with pytest.raises(ValidationError, match="dose must look like"):
        MedicationEntry.model_validate({"code": "1", "start": "-1y", "dose": "a lot"})
