"""Wrappers over the text env (the discrete ids are registered from ``envs/discrete.yaml``)."""

from physbench_gym.wrappers.discrete_menu import (
    DiscreteToolMenu,
    make_discrete_env,
)
from physbench_gym.wrappers.shaping import StepCost

__all__ = ["DiscreteToolMenu", "StepCost", "make_discrete_env"]
