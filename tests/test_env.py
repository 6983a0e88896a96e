"""The Gymnasium environment: API conformance, rewards, robustness, determinism, isolation."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import physbench_gym  # noqa: F401
from physbench_gym.agents import OracleAgent, RandomAgent, run_episode
from physbench_gym.errors import PhysBenchError, UnknownTaskError
from physbench_gym.tasks.registry import task_ids

TASK = "thyroid_medication_management"


@pytest.fixture
def env():
    environment = gym.make(f"PhysicianBench/{TASK}-v0")
    yield environment
    environment.close()


@pytest.mark.parametrize("env_id", ["PhysicianBench-v0", f"PhysicianBench/{TASK}-v0",
                                    "PhysicianBench-FHIR-v0"])
def test_env_checker_passes(env_id):
    environment = gym.make(env_id)
    check_env(environment.unwrapped, skip_render_check=True)
    environment.close()


def test_sampled_actions_are_valid_tool_calls(env):
    env.reset(seed=0)
    space = env.action_space
    space.seed(3)
    for _ in range(200):
        action = space.sample()
        assert space.contains(action)
        call = json.loads(action)
        assert call["tool"] in env.unwrapped.toolset.names()
        result = env.unwrapped.toolset.tools()
        assert result


def test_oracle_scores_one_and_return_equals_score(env):
    result = run_episode(env, OracleAgent(), seed=0)
    assert result.success and result.score == pytest.approx(1.0)
    assert result.total_reward == pytest.approx(result.score)
    assert result.termination == "finish"


def test_finish_at_once_scores_zero(env):
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(
        {"tool": "finish", "arguments": {"summary": "nothing"}})
    assert terminated and not truncated
    assert info["success"] is False and info["score"] == 0.0 and reward == 0.0


def test_random_policy_never_succeeds():
    environment = gym.make("PhysicianBench-v0", max_steps=8)
    agent = RandomAgent(seed=0)
    successes = sum(run_episode(environment, agent, seed=i).success for i in range(1000))
    environment.close()
    assert successes == 0


@pytest.mark.parametrize("mode", ["sparse", "binary"])
def test_sparse_and_binary_rewards_only_at_the_end(mode):
    environment = gym.make(f"PhysicianBench/{TASK}-v0", reward_mode=mode)
    environment.reset(seed=0)
    actions = environment.unwrapped.oracle_actions()
    rewards = [environment.step(a)[1] for a in actions]
    assert all(r == 0.0 for r in rewards[:-1]) and rewards[-1] == pytest.approx(1.0)
    environment.close()


def test_a_step_regrades_only_the_checkpoints_its_resource_types_can_change(env):
    env.reset(seed=0)
    unevaluated = "not yet evaluated"
    oracle = env.unwrapped.oracle_actions()
    order = next(a for a in oracle if a["tool"] == "fhir_service_request_create")
    patient = env.unwrapped.instance.patient_id

    def reasons(action):
        info = env.step(action)[4]
        return {k: v["reason"] for k, v in info["checkpoints"].items()}

    after = reasons({"tool": "fhir_condition_search_problems", "arguments": {"patient": patient}})
    assert all(reason == unevaluated for reason in after.values())
    after = reasons({"tool": "fhir_observation_search_labs", "arguments": {"patient": patient}})
    assert after["tsh_trend_retrieved"] != unevaluated
    assert after["current_dose_retrieved"] == unevaluated
    after = reasons(order)
    assert after["tsh_recheck_ordered"].startswith("ordered")
    assert after["new_dose_prescribed"] == unevaluated
    after = reasons({"tool": "finish", "arguments": {"summary": "done"}})
    assert unevaluated not in after.values()


def test_wrong_dose_order_fails_the_action_checkpoint(env):
    env.reset(seed=0)
    actions = env.unwrapped.oracle_actions()
    values = env.unwrapped.instance.values
    for action in actions:
        if action["tool"] == "fhir_medication_request_create":
            action["arguments"]["medication_code"] = values["prior_rxnorm"]
            action["arguments"]["dose_value"] = values["prior_dose_mcg"]
        _, _, terminated, _, info = env.step(action)
    assert terminated
    assert info["checkpoints"]["new_dose_prescribed"]["passed"] is False
    assert info["success"] is False


def test_keyword_stuffed_note_fails(env):
    env.reset(seed=0)
    values = env.unwrapped.instance.values
    stuffed = (f"TSH {values['tsh']} {values['previous_tsh']}. Under-replaced; at goal. "
               f"Increase levothyroxine to {values['new_dose_mcg']} mcg. Decrease levothyroxine "
               f"to {values['prior_dose_mcg']} mcg. Continue current dose. Recheck TSH in 6 "
               "weeks or 6 months.")
    for action in env.unwrapped.oracle_actions():
        if action["tool"] == "write_file":
            action["arguments"]["content"] = stuffed
        _, _, _, _, info = env.step(action)
    assert info["checkpoints"]["dose_plan_documented"]["passed"] is False
    assert info["success"] is False


@pytest.mark.parametrize("action", [
    "not json", "{}", '{"tool": 3}', {"tool": "no_such_tool"}, {"name": "finish", "x": 1},
    42, None, ["list"], {"tool": "fhir_observation_search_labs", "arguments": {"count": "x"}},
    {"tool": "write_file", "arguments": {"file_path": "/etc/passwd", "content": "x"}},
])
def test_bad_actions_are_error_observations(env, action):
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(action)
    assert obs.startswith("ERROR:")
    assert reward == 0.0 and not terminated and not truncated
    assert info["invalid_actions"] == 1 and info["ok"] is False


def test_openai_tool_call_form_is_accepted(env):
    env.reset(seed=0)
    mrn = env.unwrapped.instance.values["mrn"]
    call = {"id": "call_1", "type": "function", "function": {
        "name": "fhir_patient_search_demographics", "arguments": json.dumps({"identifier": mrn})}}
    obs, _, _, _, info = env.step(call)
    assert info["ok"] and env.unwrapped.instance.patient_id in obs


def test_truncation_at_max_steps():
    environment = gym.make(f"PhysicianBench/{TASK}-v0", max_steps=3)
    environment.reset(seed=0)
    search = {"tool": "fhir_patient_search_demographics", "arguments": {"family": "x"}}
    flags = [environment.step(search)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]
    environment.close()


def test_same_seed_and_actions_give_identical_episodes():
    def rollout():
        environment = gym.make("PhysicianBench-Seeded-v0")
        obs, info = environment.reset(seed=11)
        trace = [obs, json.dumps(info, sort_keys=True, default=str)]
        for action in environment.unwrapped.oracle_actions():
            step = environment.step(action)
            trace.append(json.dumps(step, sort_keys=True, default=str))
        environment.close()
        return trace

    assert rollout() == rollout()


def test_writes_vanish_on_reset_and_are_invisible_to_other_envs():
    first = gym.make(f"PhysicianBench/{TASK}-v0")
    second = gym.make(f"PhysicianBench/{TASK}-v0")
    first.reset(seed=0)
    second.reset(seed=0)
    patient = first.unwrapped.instance.patient_id
    order = {"tool": "fhir_service_request_create", "arguments": {
        "patient": patient, "code": "3016-3", "system": "loinc", "category": "laboratory"}}
    assert first.step(order)[4]["ok"]
    query = {"tool": "fhir_service_request_search", "arguments": {"patient": patient}}

    def count(environment):
        return json.loads(environment.step(query)[0])["total"]

    assert count(first) == 1
    assert count(second) == 0
    first.reset(seed=0)
    assert count(first) == 0
    first.close()
    second.close()


def test_reset_options_and_errors():
    environment = gym.make("PhysicianBench-v0")
    _, info = environment.reset(seed=0, options={"task_id": TASK, "variant": 5})
    assert info["task_id"] == TASK and info["variant"] == "seed-5"
    with pytest.raises(UnknownTaskError, match="Did you mean"):
        environment.reset(options={"task_id": "thyroid_medication_managment"})
    with pytest.raises(PhysBenchError, match="unknown reset options"):
        environment.reset(options={"task": TASK})
    environment.close()


def test_unknown_env_id_suggests():
    with pytest.raises(gym.error.Error):
        gym.make("PhysicianBench-v9")


def test_every_task_has_an_id():
    for task_id in task_ids():
        assert f"PhysicianBench/{task_id}-v0" in gym.registry


def test_every_info_is_new_data(env):
    _, first = env.reset(seed=0)
    action = env.unwrapped.oracle_actions()[0]
    second = env.step(action)[4]
    third = env.step(action)[4]
    for earlier, later in ((first, second), (second, third)):
        assert earlier["checkpoints"] is not later["checkpoints"]
        assert earlier["capabilities"] is not later["capabilities"]
        for checkpoint, state in earlier["checkpoints"].items():
            assert state is not later["checkpoints"][checkpoint]
    second["checkpoints"][next(iter(second["checkpoints"]))]["passed"] = "changed"
    assert "changed" not in str(env.step(action)[4])
