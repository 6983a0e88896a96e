"""Vector envs: Gymnasium sync/async over text and discrete spaces, and SB3 VecEnvs."""

from __future__ import annotations

import json

import numpy as np
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.errors import PhysBenchError
from physbench_gym.vector import make_sb3_vec, make_vec

TASK = "thyroid_medication_management"
PATIENT = "pt-thyroid-001"
SEARCH_ORDERS = json.dumps({"tool": "fhir_service_request_search",
                            "arguments": {"patient": PATIENT}})
ORDER_TSH = json.dumps({"tool": "fhir_service_request_create", "arguments": {
    "patient": PATIENT, "code": "3016-3", "system": "loinc", "display": "TSH",
    "category": "laboratory"}})


def _total(observation: str) -> int:
    return json.loads(observation)["total"]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_text_vector_env_keeps_one_overlay_per_sub_env(mode):
    envs = make_vec("PhysicianBench-v0", 2, mode, context="fork", tasks=[TASK])
    try:
        observations, infos = envs.reset(seed=0)
        assert all(text.startswith("You are the consulting") for text in observations)
        before = _total(envs.step([SEARCH_ORDERS, SEARCH_ORDERS])[0][0])
        observations, rewards, _, _, infos = envs.step([ORDER_TSH, SEARCH_ORDERS])
        assert "ServiceRequest" in observations[0] and infos["ok"].all()
        assert rewards[0] > 0 and rewards[1] == 0
        observations = envs.step([SEARCH_ORDERS, SEARCH_ORDERS])[0]
        assert _total(observations[0]) == before + 1
        assert _total(observations[1]) == before
        envs.step(envs.action_space.sample())
    finally:
        envs.close()


def test_async_text_observations_are_current_not_stale():
    envs = make_vec("PhysicianBench-v0", 2, "async", context="fork", tasks=[TASK])
    try:
        first, _ = envs.reset(seed=0)
        second = envs.step([SEARCH_ORDERS, ORDER_TSH])[0]
        assert first[0] != second[0] and second[0].startswith("{")
        assert len(second[1]) > 0 and second[0] != second[1]
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_discrete_vector_env_steps_batches(mode):
    envs = make_vec("PhysicianBench-Discrete-v0", 2, mode, context="fork", tasks=[TASK])
    try:
        observations, _ = envs.reset(seed=0)
        assert observations.shape == (2, envs.single_observation_space.shape[0])
        observations, rewards, _, _, infos = envs.step(np.array([0, 1]))
        assert observations.dtype == np.float32 and len(infos["tool"]) == 2
        assert observations[0, 0] == 1.0 and observations[1, 1] == 1.0
    finally:
        envs.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_stable_baselines3_vec_envs_run_the_discrete_env(mode):
    pytest.importorskip("stable_baselines3")
    envs = make_sb3_vec("PhysicianBench-Discrete-v0", 2, mode, tasks=[TASK], menu_seed=0)
    try:
        envs.seed(0)
        observations = envs.reset()
        assert observations.shape == (2, envs.observation_space.shape[0])
        for _ in range(5):
            observations, rewards, dones, infos = envs.step(np.array([3, 4]))
        assert rewards.shape == (2,) and all("checkpoints" in info for info in infos)
    finally:
        envs.close()


def test_bad_mode_and_size_raise():
    with pytest.raises(PhysBenchError, match="mode"):
        make_vec("PhysicianBench-v0", 2, "threads")
    with pytest.raises(PhysBenchError, match="at least one"):
        make_vec("PhysicianBench-v0", 0)
