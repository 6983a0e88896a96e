"""Fuzzed actions never raise or corrupt state; vector envs run oracle episodes correctly."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import physbench_gym  # noqa: F401
from physbench_gym.spaces import (
    MAX_OBSERVATION_CHARS,
    OBSERVATION_CHARSET,
    observation_space,
    to_observation,
)
from physbench_gym.tasks.charts import store_for

TASK = "thyroid_medication_management"
TOOLS = ["fhir_patient_search_demographics", "fhir_observation_search_labs",
         "fhir_medication_request_create", "fhir_service_request_create", "write_file",
         "fhir_document_reference_search_clinical_notes", "fhir_appointment_create",
         "fhir_communication_create_message", "nonexistent", ""]
KEYS = ["patient", "code", "count", "page_limit", "file_path", "content", "mode",
        "medication_code", "dose_value", "identifier", "date_ge", "category", "text"]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True),
    st.text(max_size=40), st.text(max_size=5000),
    st.sampled_from(["../../etc/passwd", "/workspace/output/../../x", "/workspace/output/a\x00b",
                     "C:\\\\x", "ümlaut-ñ-名前", "pt-thyroid-001", "3016-3", "2026-13-45",
                     "/workspace/output/note.md", "Patient/..%2F"]))
ARGUMENTS = st.dictionaries(st.sampled_from(KEYS), SCALARS, max_size=6)
ACTIONS = st.one_of(
    st.fixed_dictionaries({"tool": st.sampled_from(TOOLS), "arguments": ARGUMENTS}),
    st.builds(lambda t, a: json.dumps({"tool": t, "arguments": a}, default=str),
              st.sampled_from(TOOLS), ARGUMENTS),
    SCALARS, st.lists(SCALARS, max_size=3), st.binary(max_size=64))


def test_ten_thousand_fuzzed_actions_never_raise_or_corrupt():
    env = gym.make(f"PhysicianBench/{TASK}-v0", max_steps=10**6)
    env.reset(seed=0)
    base = store_for(env.unwrapped.instance)
    before = base.content_hash()
    steps = {"n": 0}

    @settings(max_examples=10_000, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(ACTIONS)
    def check(action):
        obs, reward, terminated, truncated, info = env.step(action)
        steps["n"] += 1
        assert env.observation_space.contains(obs)
        assert isinstance(reward, float) and np.isfinite(reward)
        assert not truncated
        if terminated:
            env.reset(seed=steps["n"])

    check()
    assert steps["n"] >= 10_000
    assert base.content_hash() == before
    env.reset(seed=0)
    files = env.unwrapped._workspace.files()
    assert files == {}
    env.close()


def _make():
    return gym.make(f"PhysicianBench/{TASK}-v0")


def _oracle_rollout(venv, seeds):
    venv.reset(seed=seeds)
    plans = venv.call("oracle_actions")
    totals = np.zeros(len(seeds))
    for i in range(max(len(p) for p in plans)):
        actions = tuple(p[min(i, len(p) - 1)] for p in plans)
        obs, rewards, terminated, _, info = venv.step(actions)
        totals += rewards
        assert all(isinstance(o, str) and o for o in obs)
    return totals, terminated, info


def test_async_vector_env_runs_oracle_episodes():
    venv = AsyncVectorEnv([_make] * 4)
    totals, terminated, info = _oracle_rollout(venv, [0, 1, 2, 3])
    venv.close()
    assert terminated.all()
    assert np.allclose(totals, 1.0)
    assert info["success"].all()


def test_sync_vector_env_matches():
    venv = SyncVectorEnv([_make] * 2)
    totals, terminated, _ = _oracle_rollout(venv, [0, 1])
    venv.close()
    assert terminated.all() and np.allclose(totals, 1.0)


@pytest.mark.parametrize("text", [
    "plain {\"json\":[1,2]}\n\ttabs\r\x0b\x0c", "é ü 中文 😀", "bell\x07 nul\x00 del\x7f esc\x1b",
    "x" * 20_000, "",
])
def test_observations_escape_what_the_space_cannot_hold_and_keep_the_rest(text):
    space = observation_space()
    observation = to_observation(text)
    assert space.contains(observation)
    if all(char in OBSERVATION_CHARSET for char in text) and len(text) <= MAX_OBSERVATION_CHARS:
        assert observation == text
    else:
        assert observation != text
    for char in "\x07\x00\x7f\x1b😀":
        if char in text:
            assert char not in observation and f"{ord(char):04x}" in observation


def _nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"x": value}
    return value


@pytest.mark.parametrize("action", [
    "[" * 100_000 + "]" * 100_000,
    json.dumps({"tool": "finish", "arguments": {"summary": "[" * 10}}).replace(
        '"[[[[[[[[[["', "[" * 5_000 + "]" * 5_000),
    {"tool": "fhir_patient_search_demographics", "arguments": _nested(5_000)},
    {"tool": "fhir_patient_search_demographics",
     "arguments": '{"family": ' + "[" * 100_000 + "]" * 100_000 + "}"},
], ids=["action-text", "argument-in-action-text", "argument-object", "argument-text"])
def test_deeply_nested_json_is_an_error_observation(action):
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(action)
    assert obs.startswith("ERROR: ") and "deeper than 32 levels" in obs, obs[:200]
    assert not terminated and not truncated
    obs, *_ = env.step({"tool": "fhir_patient_search_demographics",
                        "arguments": {"family": "Smith"}})
    assert obs.startswith('{"resourceType":"Patient"')
    env.close()


def test_error_observations_carry_one_prefix():
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    env.reset(seed=0)
    for action in ({"tool": "fhir_medication_request_create", "arguments": {
                        "patient": "nobody", "medication_code": "1", "dose_value": 1}},
                   {"tool": "write_file", "arguments": {"file_path": "/etc/x", "content": "a"}},
                   {"tool": "nonexistent", "arguments": {}}):
        obs, *_ = env.step(action)
        assert obs.startswith("ERROR: ") and "error:" not in obs[7:].lower()[:20], obs[:120]
    env.close()
