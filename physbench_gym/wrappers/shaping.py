"""Training-time reward shaping that leaves the env's own reward and info untouched."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from physbench_gym.errors import PhysBenchError


class StepCost(gym.Wrapper):
    """Subtract a constant ``cost`` from every step's reward, so shorter solutions pay more.

    The env's potential-based reward gives nothing for ending an episode; a small step cost
    teaches a policy to ``finish`` once the work is done. Evaluate on the unwrapped reward
    (``info["score"]`` and ``info["success"]`` are unchanged).
    """

    def __init__(self, env: gym.Env, cost: float = 0.01) -> None:
        super().__init__(env)
        if cost < 0:
            raise PhysBenchError(f"a step cost is not negative, got {cost}")
        self.cost = float(cost)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        return observation, float(reward) - self.cost, terminated, truncated, info
