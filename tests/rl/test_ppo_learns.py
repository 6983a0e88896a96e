"""PPO on the discrete menu learns: a short, seeded run beats the random policy clearly."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")

TASK = "thyroid_medication_management"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"


@pytest.fixture(scope="module")
def train_ppo():
    spec = importlib.util.spec_from_file_location("train_ppo_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_short_ppo_run_beats_the_random_policy(train_ppo):
    kwargs = train_ppo.env_kwargs(TASK, seed=0)
    random_result = train_ppo.evaluate(train_ppo.RandomMenuAgent(0), kwargs, episodes=20)
    model, log = train_ppo.train(TASK, timesteps=3_000, n_envs=2, seed=0)
    trained = train_ppo.evaluate(train_ppo.PolicyAgent(model), kwargs, episodes=3)
    assert log["steps"] <= 3_072
    assert random_result["success_rate"] == 0.0
    assert trained["mean_score"] >= random_result["mean_score"] + 0.3, (trained, random_result)


def test_policy_agent_plays_through_run_episode(train_ppo, tmp_path):
    model, _ = train_ppo.train(TASK, timesteps=256, n_envs=2, seed=1)
    model.save(tmp_path / "model.zip")
    result = train_ppo.evaluate(train_ppo.PolicyAgent(model), train_ppo.env_kwargs(TASK, 1), 2)
    assert result["episodes"] == 2 and 0.0 <= result["mean_score"] <= 1.0
    assert (tmp_path / "model.zip").stat().st_size > 0
