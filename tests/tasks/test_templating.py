"""Spec templating: typed placeholders, record fields, and branches that follow the chart."""

from __future__ import annotations

import random

import pytest

from physbench_gym.errors import TaskSpecError
from physbench_gym.tasks.spec import Variable
from physbench_gym.tasks.templating import render
from physbench_gym.tasks.variants import draw

VALUES = {"dose": 25, "risk": "high", "profile": {"history": "hypertension", "score": 2},
          "anticoagulate": True}


def test_whole_placeholder_keeps_the_type_and_record_fields_are_picked():
    assert render("{dose}", VALUES) == 25
    assert render("{profile[score]}", VALUES) == 2
    assert render("Score {profile[score]}: {profile[history]}", VALUES) == "Score 2: hypertension"


def test_branch_picks_the_case_of_the_rendered_switch():
    branch = {"switch": "{risk}", "cases": {"low": {"note_never": {"concept": ["x"]}},
                                            "high": {"ordered": {"codes": ["{dose}"]}}}}
    assert render({"grader": branch}, VALUES) == {"grader": {"ordered": {"codes": [25]}}}


def test_branch_in_a_list_splices_a_list_case_and_boolean_keys_match():
    calls = ["read", {"switch": "{anticoagulate}", "cases": {True: ["order", "counsel"],
                                                              False: []}}, "note"]
    assert render(calls, VALUES) == ["read", "order", "counsel", "note"]
    assert render(calls, {**VALUES, "anticoagulate": False}) == ["read", "note"]


def test_branch_without_a_case_for_the_value_is_a_spec_error_naming_the_path():
    with pytest.raises(TaskSpecError, match=r"checkpoints\.x.*'high' has no case"):
        render({"switch": "{risk}", "cases": {"low": 1}}, VALUES, "checkpoints.x")


def test_a_mapping_that_only_looks_like_a_branch_is_data():
    data = {"switch": "{risk}", "cases": ["a"], "other": 1}
    assert render(data, VALUES) == {"switch": "high", "cases": ["a"], "other": 1}


def test_weighted_choice_follows_the_weights_and_bad_weights_are_rejected():
    var = Variable(canonical="none", choice=["none", "htn_dm"], weights=[1, 4])
    rng = random.Random(7)
    drawn = [draw(var, rng) for _ in range(2000)]
    assert 0.15 < drawn.count("none") / len(drawn) < 0.25
    with pytest.raises(ValueError, match="weights"):
        Variable(canonical="a", choice=["a", "b"], weights=[1])
    with pytest.raises(ValueError, match="weights"):
        Variable(canonical="a", integer=[1, 3], weights=[1, 1, 1])
