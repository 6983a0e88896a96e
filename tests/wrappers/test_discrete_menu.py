"""The discrete tool-menu env: menu contents, order, observation, reward and info parity."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import physbench_gym  # noqa: F401
from physbench_gym.errors import PhysBenchError
from physbench_gym.wrappers import DiscreteToolMenu, make_discrete_env

TASK = "thyroid_medication_management"
DISTRACTORS = {"premature_finish", "misleading_note", "contradicting_addendum", "unsafe_dose",
               "wrong_drug", "wrong_order", "wrong_patient", "wrong_code", "irrelevant_search"}


@pytest.fixture
def env():
    environment = make_discrete_env(tasks=[TASK])
    yield environment
    environment.close()


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def oracle_indices(env: DiscreteToolMenu) -> list[int]:
    menu = [_key(action) for action in env.menu()]
    return [menu.index(_key(action)) for action in env.unwrapped.oracle_actions()]


def test_menu_holds_the_oracle_and_each_kind_of_distractor(env):
    env.reset(seed=0)
    menu, kinds = env.menu(), env.menu_kinds()
    assert len(menu) == env.action_space.n
    assert len({_key(action) for action in menu}) == len(menu)
    assert len(oracle_indices(env)) == len(env.unwrapped.oracle_actions())
    assert DISTRACTORS <= set(kinds)
    notes = [a for a in menu if a["tool"] == "write_file" and
             a["arguments"]["file_path"] == env.unwrapped.instance.note_path]
    assert len(notes) == 3


def test_wrong_patient_and_unsafe_dose_distractors_differ_from_the_oracle(env):
    env.reset(seed=0)
    by_kind = dict(zip(env.menu_kinds(), env.menu(), strict=True))
    assert by_kind["wrong_patient"]["arguments"]["patient"] != env.unwrapped.instance.patient_id
    oracle_order = next(a for a in env.unwrapped.oracle_actions()
                        if a["tool"] == "fhir_medication_request_create")
    assert by_kind["unsafe_dose"]["arguments"]["dose_value"] == \
        4 * oracle_order["arguments"]["dose_value"]


def test_menu_size_is_constant_across_tasks():
    environment = make_discrete_env()
    sizes = set()
    for task_id in environment.unwrapped.task_ids:
        environment.reset(seed=0, options={"task_id": task_id})
        sizes.add(len(environment.menu()))
        assert len(oracle_indices(environment)) == len(environment.unwrapped.oracle_actions())
    assert sizes == {environment.action_space.n}
    environment.close()


def test_oracle_through_the_menu_matches_the_text_env_step_by_step(env):
    text_env = gym.make(f"PhysicianBench/{TASK}-v0").unwrapped
    env.reset(seed=5)
    text_env.reset(seed=5)
    total = 0.0
    for index in oracle_indices(env):
        observation, reward, terminated, truncated, info = env.step(index)
        _, text_reward, text_terminated, _, text_info = text_env.step(env.menu()[index])
        assert reward == pytest.approx(text_reward) and terminated == text_terminated
        assert set(info) == set(text_info) and info["checkpoints"] == text_info["checkpoints"]
        assert observation in env.observation_space
        total += reward
    assert info["success"] and total == pytest.approx(1.0) and info["termination"] == "finish"
    text_env.close()


def test_observation_tracks_calls_checkpoints_and_status(env):
    observation, info = env.reset(seed=1)
    max_steps = info["max_steps"]
    n, checkpoints = env.action_space.n, len(info["checkpoints"])
    assert observation.dtype == np.float32 and not observation[:n].any()
    tasks_at = n + env.max_checkpoints
    assert observation[tasks_at] == 1.0
    first = oracle_indices(env)[2]
    observation, _, _, _, info = env.step(first)
    assert observation[first] == 1.0 and observation[:n].sum() == 1.0
    passed = [float(state["passed"]) for state in info["checkpoints"].values()]
    assert list(observation[n:n + checkpoints]) == passed and any(passed)
    assert observation[-3] == pytest.approx(1 / max_steps)
    assert list(observation[-2:]) == [1.0, 0.0]


def test_premature_finish_ends_the_episode_with_partial_score(env):
    env.reset(seed=0)
    index = env.menu_kinds().index("premature_finish")
    _, reward, terminated, _, info = env.step(index)
    assert terminated and info["success"] is False and reward == 0.0


def test_menu_order_follows_the_reset_seed(env):
    env.reset(seed=1)
    first = env.menu()
    env.reset()
    assert env.menu() == first
    env.reset(seed=1)
    assert env.menu() == first
    env.reset(seed=2)
    assert env.menu() != first
    assert sorted(map(_key, env.menu())) == sorted(map(_key, first))


def test_menu_seed_fixes_the_order():
    environment = make_discrete_env(tasks=[TASK], menu_seed=7)
    environment.reset(seed=1)
    first = environment.menu()
    environment.reset(seed=2)
    assert environment.menu() == first
    environment.close()


def test_misuse_raises_clear_errors(env):
    with pytest.raises(PhysBenchError, match="reset"):
        env.menu()
    env.reset(seed=0)
    with pytest.raises(PhysBenchError, match="outside Discrete"):
        env.step(env.action_space.n)
    with pytest.raises(PhysBenchError, match="integer index"):
        env.step("finish")
    with pytest.raises(PhysBenchError, match="too small"):
        make_discrete_env(tasks=[TASK], menu_size=8).reset(seed=0)
    with pytest.raises(PhysBenchError, match="PhysicianBenchEnv"):
        DiscreteToolMenu(gym.make("CartPole-v1"))


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")
@pytest.mark.parametrize(
    "env_id", ["PhysicianBench-Discrete-v0", "PhysicianBench-Discrete-Seeded-v0"])
def test_registered_discrete_ids_pass_the_env_checker(env_id):
    environment = gym.make(env_id, tasks=[TASK])
    assert isinstance(environment.unwrapped, physbench_gym.env.PhysicianBenchEnv)
    check_env(environment.env.env, skip_render_check=True)
    environment.close()


def test_stable_baselines3_env_checker_passes(env):
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(env, warn=True)
