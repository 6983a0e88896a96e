"""A discrete-action view of the env for classic RL: pick one of a fixed menu of tool calls."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from physbench_gym.env import PhysicianBenchEnv
from physbench_gym.errors import PhysBenchError
from physbench_gym.wrappers.menu import MenuItem, build_menu, default_menu_size

DEFAULT_MAX_CHECKPOINTS = 16
STATUS_FEATURES = 3


class DiscreteToolMenu(gym.Wrapper[np.ndarray, np.int64, str, Any]):
    """PhysicianBench with a ``Discrete(n)`` menu of tool calls and a feature-vector observation.

    ## Description
    For the current task the wrapper offers a fixed menu of candidate tool calls: the
    oracle's calls (its note is one ``write_file`` call, then ``finish``) plus distractors
    drawn from the chart and the tool set — searches for the wrong patient or with wrong
    codes, irrelevant searches, wrong or unsafe orders (the oracle's order with another drug
    or a fourfold dose, an unrelated lab), a misleading note and a premature ``finish`` —
    padded with inert searches so that every task has the same ``n``. Solving a task means
    choosing the right calls in a workable order and then finishing.

    ## Action Space
    ``Discrete(n)``: the index of a menu item. ``menu()`` lists the items in index order.

    ## Observation Space
    ``Box(0, 1, (n + max_checkpoints + n_tasks + 3,), float32)``: which menu items were
    already called (which evidence was retrieved, which orders were placed), which
    checkpoints pass (in the task's order, padded with zeros), a one-hot of the task among
    the env's tasks, the fraction of the step budget used, and whether the last call
    succeeded or failed (both 0 after reset).

    ## Rewards
    The text env's reward, unchanged (potential-based shaped reward by default).

    ## Starting State
    The text env's reset. The menu order is a permutation drawn from the reset seed when
    ``reset`` receives one (and kept for later unseeded resets, as Gymnasium seeding goes),
    or from ``menu_seed`` when given, which fixes it for the env's lifetime.

    ## Episode End
    As in the text env: ``finish`` (the oracle's or a premature one) terminates, the step
    budget truncates.

    ## Arguments
    * ``env``: a ``PhysicianBenchEnv`` (possibly wrapped).
    * ``menu_size``: ``n``; by default the longest oracle of the env's tasks plus 16, by 8s.
    * ``max_checkpoints``: length of the checkpoint part of the observation.
    * ``menu_seed``: fixes the menu order (for training and evaluating one policy).

    ## Version History
    * v0: initial release.
    """

    def __init__(self, env: gym.Env, menu_size: int | None = None,
                 max_checkpoints: int = DEFAULT_MAX_CHECKPOINTS,
                 menu_seed: int | None = None) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, PhysicianBenchEnv):
            raise PhysBenchError("DiscreteToolMenu wraps a PhysicianBenchEnv, "
                                 f"got {type(base).__name__}")
        self._tasks = list(base.task_ids)
        self.menu_size = int(menu_size or default_menu_size(self._tasks))
        self.max_checkpoints = int(max_checkpoints)
        self.menu_seed = menu_seed
        self.action_space = spaces.Discrete(self.menu_size)
        size = self.menu_size + self.max_checkpoints + len(self._tasks) + STATUS_FEATURES
        self.observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self._order: np.ndarray | None = None
        self._menu: list[MenuItem] = []
        self._called = np.zeros(self.menu_size, dtype=np.float32)
        self._last_ok, self._last_error, self._max_steps = 0.0, 0.0, 1

    def menu(self) -> list[dict[str, Any]]:
        """The current episode's tool calls, in action-index order."""
        if not self._menu:
            raise PhysBenchError("call reset() before reading the menu")
        return [dict(item.action) for item in self._menu]

    def menu_kinds(self) -> list[str]:
        """Where each menu item comes from: ``oracle`` or the kind of distractor."""
        return [item.kind for item in self._menu]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        _, info = self.env.reset(seed=seed, options=options)
        if self._order is None or (seed is not None and self.menu_seed is None):
            chosen = self.menu_seed if self.menu_seed is not None else seed
            self._order = np.random.default_rng(chosen).permutation(self.menu_size)
        base = self.env.unwrapped
        items = build_menu(base.instance, base.oracle_actions(), self.menu_size)
        self._menu = [items[int(index)] for index in self._order]
        if len(info["checkpoints"]) > self.max_checkpoints:
            raise PhysBenchError(f"task {info['task_id']!r} has {len(info['checkpoints'])} "
                                 f"checkpoints; raise max_checkpoints above "
                                 f"{self.max_checkpoints}")
        self._called[:] = 0.0
        self._last_ok, self._last_error = 0.0, 0.0
        self._max_steps = max(int(info["max_steps"]), 1)
        return self._observation(info), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        index = _index(action, self.menu_size)
        if not self._menu:
            raise PhysBenchError("call reset() before step()")
        _, reward, terminated, truncated, info = self.env.step(self._menu[index].action)
        self._called[index] = 1.0
        self._last_ok = 1.0 if info["ok"] else 0.0
        self._last_error = 1.0 - self._last_ok
        return self._observation(info), reward, terminated, truncated, info

    def _observation(self, info: dict[str, Any]) -> np.ndarray:
        passed = np.zeros(self.max_checkpoints, dtype=np.float32)
        states = list(info["checkpoints"].values())
        passed[: len(states)] = [1.0 if state["passed"] else 0.0 for state in states]
        task = np.zeros(len(self._tasks), dtype=np.float32)
        task[self._tasks.index(info["task_id"])] = 1.0
        status = np.array([min(info["steps"] / self._max_steps, 1.0), self._last_ok,
                           self._last_error], dtype=np.float32)
        return np.concatenate([self._called, passed, task, status])


def _index(action: Any, size: int) -> int:
    try:
        index = int(np.asarray(action).reshape(()))
    except (TypeError, ValueError):
        raise PhysBenchError(f"a menu action is an integer index, got {action!r}") from None
    if not 0 <= index < size:
        raise PhysBenchError(f"menu action {index} is outside Discrete({size})")
    return index


def make_discrete_env(menu_size: int | None = None,
                      max_checkpoints: int = DEFAULT_MAX_CHECKPOINTS,
                      menu_seed: int | None = None, **env_kwargs: Any) -> DiscreteToolMenu:
    """Entry point of ``PhysicianBench-Discrete-v0``: a ``PhysicianBenchEnv`` behind the menu."""
    return DiscreteToolMenu(PhysicianBenchEnv(**env_kwargs), menu_size=menu_size,
                            max_checkpoints=max_checkpoints, menu_seed=menu_seed)
