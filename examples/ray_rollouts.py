"""A trainer-style loop over the Ray rollout pool: batches of (task, variant, seed), a policy
callback, rewards and group-relative advantages, as a GRPO trainer computes them.

The "policy" here is scripted: it follows the oracle's plan but skips each action with a
probability that shrinks every iteration, standing in for a model that improves. A real
trainer calls its model on ``trajectory.messages`` (the chat so far) in the callback.

Run: python examples/ray_rollouts.py   (needs pip install 'physbench-gym[ray]')
"""

from __future__ import annotations

import random
import statistics

from physbench_gym.integrations.ray import RolloutPool, RolloutRequest, Trajectory
from physbench_gym.integrations.trl import variant_seeds

TASKS = ["thyroid_medication_management", "incidental_pulmonary_findings"]
GROUP = 4
ITERATIONS = 3


def main() -> None:
    rng = random.Random(0)
    with RolloutPool(workers=2, tasks=TASKS) as pool:
        for iteration in range(ITERATIONS):
            seeds = variant_seeds(iteration + 1, seed=7)[-1:]
            batch = [RolloutRequest(task, seed, seed) for task in TASKS for seed in seeds
                     for _ in range(GROUP)]
            plans = {id(r): plan for r, plan in zip(batch, pool.oracle_actions(batch),
                                                    strict=True)}
            skip = 0.3 / (iteration + 1)

            def policy(open_episodes: list[Trajectory], skip: float = skip,
                       plans: dict = plans) -> list:
                actions = []
                for trajectory in open_episodes:
                    plan = plans[id(trajectory.request)]
                    while len(plan) > 1 and rng.random() < skip:
                        plan.pop(0)
                    actions.append(plan.pop(0))
                return actions

            trajectories = pool.rollout(batch, policy)
            rewards = [t.total_reward for t in trajectories]
            advantages = []
            for start in range(0, len(batch), GROUP):
                group = rewards[start:start + GROUP]
                mean, spread = statistics.fmean(group), statistics.pstdev(group) or 1.0
                advantages += [(r - mean) / spread for r in group]
            print(f"iteration {iteration}: mean reward {statistics.fmean(rewards):.3f}, "
                  f"successes {sum(t.success for t in trajectories)}/{len(batch)}, "
                  f"advantages {[round(a, 2) for a in advantages]}")


if __name__ == "__main__":
    main()
