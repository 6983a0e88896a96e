"""The Ray rollout pool on a real local Ray cluster: the same trajectories as a local loop."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents import OracleAgent, run_episode
from physbench_gym.errors import PhysBenchError
from physbench_gym.integrations.sft import oracle_conversation, validate_sft_line
from physbench_gym.integrations.trl import variant_seeds

ray = pytest.importorskip("ray")

from physbench_gym.integrations.ray import (  # noqa: E402
    RolloutPool,
    RolloutRequest,
    Trajectory,
)

TASKS = ("thyroid_medication_management", "incidental_pulmonary_findings")
REQUESTS = [RolloutRequest(task, seed, seed) for task in TASKS for seed in variant_seeds(2)]


@pytest.fixture(scope="module")
def pool() -> Iterator[RolloutPool]:
    """A two-actor pool on a local two-CPU Ray cluster started for this module."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="error", log_to_driver=False)
    with RolloutPool(2, tasks=list(TASKS)) as rollout_pool:
        yield rollout_pool
    ray.shutdown()


@pytest.fixture(scope="module")
def plans(pool: RolloutPool) -> list[list[dict[str, Any]]]:
    return pool.oracle_actions(REQUESTS)


def _replaying(plans: list[list[dict[str, Any]]]):
    """A batched policy callback that plays each request's plan, one action per round."""
    cursor = {request: 0 for request in REQUESTS}
    plan_of = dict(zip(REQUESTS, plans, strict=True))

    def policy(open_episodes: list[Trajectory]) -> list[Any]:
        actions = []
        for trajectory in open_episodes:
            actions.append(plan_of[trajectory.request][cursor[trajectory.request]])
            cursor[trajectory.request] += 1
        return actions

    return policy


def test_policy_rollouts_equal_a_local_loop_for_the_same_seeds(
        pool: RolloutPool, plans: list[list[dict[str, Any]]]) -> None:
    trajectories = pool.rollout(REQUESTS, _replaying(plans))
    env = gym.make("PhysicianBench-v0", tasks=list(TASKS))
    for request, trajectory in zip(REQUESTS, trajectories, strict=True):
        local = run_episode(env, OracleAgent(), seed=request.seed, events=[],
                            options={"task_id": request.task_id, "variant": request.variant})
        assert [e["reward"] for e in local.events[1:]] == trajectory.rewards
        assert local.events == trajectory.events[:1] + [
            {**e, "elapsed": local.events[i + 1]["elapsed"]}
            for i, e in enumerate(trajectory.events[1:])]
        assert local.checkpoints == trajectory.checkpoints
        assert (local.score, local.success, local.variant) == (
            trajectory.score, trajectory.success, trajectory.variant)
        assert trajectory.done and trajectory.success and trajectory.total_reward == 1.0
        conversation = oracle_conversation(env, request.task_id, request.variant)
        assert conversation == {"messages": trajectory.messages, "tools": trajectory.tools}
        validate_sft_line({"messages": trajectory.messages, "tools": trajectory.tools})
    env.close()


def test_action_streams_give_the_policy_loops_trajectories(
        pool: RolloutPool, plans: list[list[dict[str, Any]]]) -> None:
    streamed = pool.rollout(REQUESTS, actions=plans)
    stepped = pool.rollout(REQUESTS, _replaying(plans))
    for one, other in zip(streamed, stepped, strict=True):
        assert (one.messages, one.rewards, one.checkpoints) == (
            other.messages, other.rewards, other.checkpoints)
    short = pool.rollout(REQUESTS[:1], actions=[plans[0][:3]])[0]
    assert short.done and short.events[-1]["tool"] == "finish" and short.score < 1.0
    assert len(short.rewards) == 4


def test_an_actor_lost_mid_rollout_loses_no_episode(
        pool: RolloutPool, plans: list[list[dict[str, Any]]]) -> None:
    reference = pool.rollout(REQUESTS, _replaying(plans))
    replaying, rounds = _replaying(plans), []

    def policy(open_episodes: list[Trajectory]) -> list[Any]:
        rounds.append(len(open_episodes))
        if len(rounds) == 3:  # kill the actor holding the first episode, mid-episode
            pid = ray.get(pool._actors[0].__ray_call__.remote(lambda self: os.getpid()))
            os.kill(pid, signal.SIGKILL)
        return replaying(open_episodes)

    victim = pool._actors[0]
    recovered = pool.rollout(REQUESTS, policy)
    assert pool._actors[0] is not victim  # the lost actor was replaced
    for one, other in zip(recovered, reference, strict=True):
        assert (one.messages, one.rewards, one.checkpoints, one.score) == (
            other.messages, other.rewards, other.checkpoints, other.score)
        assert one.done and one.success
    streamed = pool.rollout(REQUESTS, actions=plans)  # the replacement actor plays on
    assert [t.score for t in streamed] == [t.score for t in reference]


def test_misuse_raises_clear_errors(pool: RolloutPool) -> None:
    with pytest.raises(PhysBenchError, match="either a policy callback or an action stream"):
        pool.rollout(REQUESTS)
    with pytest.raises(PhysBenchError, match="returned 0 actions for 4 open episodes"):
        pool.rollout(REQUESTS, lambda open_episodes: [])
