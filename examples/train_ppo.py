"""Train stable-baselines3 PPO on one PhysicianBench task through the discrete tool menu.

The policy picks tool calls from ``PhysicianBench-Discrete-v0`` (the task's oracle calls plus
distractors) with vectorized envs, stops early once it reaches the success target, and is
scored with the same metrics as ``physbench eval`` (success rate and mean checkpoint score).

    pip install 'physbench-gym[rl]'
    python examples/train_ppo.py --task thyroid_medication_management --timesteps 50000
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from physbench_gym.agents import run_episode
from physbench_gym.eval.metrics import summarize
from physbench_gym.vector import make_env, make_sb3_vec
from physbench_gym.wrappers import StepCost

ENV_ID = "PhysicianBench-Discrete-v0"
SUCCESS_TARGET = 0.9
STEP_COST = 0.01
PPO_SETTINGS = {"n_steps": 128, "batch_size": 128, "n_epochs": 10, "learning_rate": 1e-3,
                "gamma": 0.99, "gae_lambda": 0.95, "ent_coef": 0.01,
                "policy_kwargs": {"net_arch": [64, 64]}}


class PolicyAgent:
    """An SB3 policy as a physbench Agent (deterministic actions), for ``run_episode``."""

    def __init__(self, model: Any, deterministic: bool = True) -> None:
        self.model, self.deterministic = model, deterministic

    def reset(self, env: gym.Env, observation: Any, info: dict[str, Any]) -> None:
        return None

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        action, _ = self.model.predict(observation, deterministic=self.deterministic)
        return int(action)


class RandomMenuAgent:
    """A uniformly random menu policy, the baseline the trained policy is compared with."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.size = 0

    def reset(self, env: gym.Env, observation: Any, info: dict[str, Any]) -> None:
        self.size = int(env.action_space.n)

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        return int(self.rng.integers(self.size))


def env_kwargs(task: str, seed: int, variant_mode: str = "canonical") -> dict[str, Any]:
    """The env arguments shared by training and evaluation (same task, same menu order)."""
    return {"tasks": [task], "menu_seed": seed, "variant_mode": variant_mode}


def evaluate(agent: Any, kwargs: dict[str, Any], episodes: int = 20,
             seed: int = 10_000) -> dict[str, Any]:
    """Success rate and mean checkpoint score of ``agent`` over ``episodes`` episodes."""
    env = make_env(ENV_ID, **kwargs)
    records = []
    try:
        for sample in range(episodes):
            result = run_episode(env, agent, seed=seed + sample)
            records.append({"status": "ok", "task_id": result.task_id, "sample": sample,
                            "success": result.success, "score": result.score,
                            "steps": result.steps, "termination": result.termination,
                            "checkpoints": result.checkpoints})
    finally:
        env.close()
    summary = summarize(records)
    return {"success_rate": summary["success_rate"]["value"],
            "mean_score": summary["mean_score"]["value"], "episodes": summary["episodes"],
            "mean_steps": float(np.mean([r["steps"] for r in records]))}


def train(task: str, timesteps: int, n_envs: int = 4, seed: int = 0, vec: str = "sync",
          eval_every: int = 0, variant_mode: str = "canonical", step_cost: float = STEP_COST,
          ent_coef: float = 0.01, verbose: int = 0) -> tuple[Any, dict[str, Any]]:
    """Train PPO; with ``eval_every`` > 0, stop once the success target is reached.

    Training subtracts a small ``step_cost`` per step so the policy learns to ``finish``;
    evaluation uses the env's own reward, success and score.

    Returns the model and a log: env steps and wall time spent, and when the target was met.
    """
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    kwargs = env_kwargs(task, seed, variant_mode)
    venv = make_sb3_vec(ENV_ID, n_envs, vec, wrapper=functools.partial(StepCost, cost=step_cost),
                        **kwargs)
    venv.seed(seed)
    settings = {**PPO_SETTINGS, "ent_coef": ent_coef}
    model = PPO("MlpPolicy", venv, seed=seed, verbose=verbose, device="cpu", **settings)
    log: dict[str, Any] = {"target_steps": None, "target_seconds": None, "evaluations": []}
    started = time.perf_counter()

    class StopAtTarget(BaseCallback):
        def _on_step(self) -> bool:
            if not eval_every or self.num_timesteps % eval_every >= n_envs:
                return True
            result = evaluate(PolicyAgent(self.model), kwargs, episodes=20)
            log["evaluations"].append({"steps": self.num_timesteps, **result})
            if result["success_rate"] >= SUCCESS_TARGET:
                log["target_steps"] = self.num_timesteps
                log["target_seconds"] = time.perf_counter() - started
                return False
            return True

    try:
        model.learn(total_timesteps=timesteps, callback=StopAtTarget())
    finally:
        venv.close()
    log["steps"] = model.num_timesteps
    log["seconds"] = time.perf_counter() - started
    return model, log


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Command line: train, evaluate against a random policy, save the model."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="thyroid_medication_management")
    parser.add_argument("--timesteps", type=int, default=50_000)
    parser.add_argument("--n-envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vec", choices=("sync", "async"), default="sync",
                        help="DummyVecEnv (sync) or SubprocVecEnv (async)")
    parser.add_argument("--variant-mode", choices=("canonical", "seeded"), default="canonical")
    parser.add_argument("--eval-every", type=int, default=2_048,
                        help="evaluate every N env steps and stop at the target (0: never)")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--ent-coef", type=float, default=0.01,
                        help="entropy bonus; raise it for tasks whose checkpoints need "
                             "several calls before any reward")
    parser.add_argument("--out", default=None, help="model path (default ppo_<task>.zip)")
    args = parser.parse_args(argv)
    kwargs = env_kwargs(args.task, args.seed, args.variant_mode)
    random_result = evaluate(RandomMenuAgent(args.seed), kwargs, args.episodes)
    model, log = train(args.task, args.timesteps, args.n_envs, args.seed, args.vec,
                       args.eval_every, args.variant_mode, ent_coef=args.ent_coef)
    trained = evaluate(PolicyAgent(model), kwargs, args.episodes)
    out = Path(args.out or f"ppo_{args.task}.zip")
    model.save(out)
    report = {"task": args.task, "variant_mode": args.variant_mode, "random": random_result,
              "trained": trained, "train_steps": log["steps"],
              "train_seconds": round(log["seconds"], 1), "target_steps": log["target_steps"],
              "target_seconds": log["target_seconds"] and round(log["target_seconds"], 1),
              "ent_coef": args.ent_coef,
              "model": str(out)}
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
