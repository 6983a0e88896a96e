"""Vectorized PhysicianBench envs: Gymnasium vector envs and stable-baselines3 VecEnvs.

Every sub-env owns its episode overlay over the EHR's base store; sub-envs in one process
share that base, sub-envs in worker processes each load it once (from the disk cache).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gymnasium as gym
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv, VectorEnv

from physbench_gym.errors import PhysBenchError

VECTOR_MODES = ("sync", "async")


def make_env(env_id: str, **kwargs: Any) -> gym.Env:
    """``gym.make`` after registering every PhysicianBench id (safe in a fresh worker)."""
    import physbench_gym.wrappers  # noqa: F401  (registers the discrete ids)

    return gym.make(env_id, **kwargs)


def env_fns(env_id: str, n: int, **kwargs: Any) -> list[Callable[[], gym.Env]]:
    """``n`` picklable constructors of ``env_id`` (for vector envs of any library)."""
    if n < 1:
        raise PhysBenchError(f"a vector env needs at least one sub-env, got n={n}")
    return [functools.partial(make_env, env_id, **kwargs) for _ in range(n)]


def make_vec(env_id: str, n: int, mode: str = "sync", *, context: str | None = None,
             **kwargs: Any) -> VectorEnv:
    """A Gymnasium vector env of ``n`` copies of ``env_id`` (text or discrete ids).

    Args:
        env_id: A registered id, e.g. ``"PhysicianBench-v0"`` or
            ``"PhysicianBench-Discrete-v0"``.
        n: Number of sub-envs.
        mode: ``"sync"`` (one process) or ``"async"`` (one worker process per sub-env,
            observations in shared memory).
        context: Multiprocessing start method for ``"async"`` (``fork``, ``forkserver``,
            ``spawn``); the platform default when None.
        **kwargs: Passed to every sub-env (e.g. ``tasks=[...]``, ``variant_mode``).
    """
    if mode not in VECTOR_MODES:
        raise PhysBenchError(f"mode must be one of {VECTOR_MODES}, got {mode!r}")
    fns = env_fns(env_id, n, **kwargs)
    if mode == "sync":
        return SyncVectorEnv(fns)
    return AsyncVectorEnv(fns, shared_memory=True, context=context)


def make_sb3_vec(env_id: str, n: int, mode: str = "sync", *,
                 start_method: str | None = None,
                 wrapper: Callable[[gym.Env], gym.Env] | None = None, **kwargs: Any) -> Any:
    """A stable-baselines3 ``DummyVecEnv`` (``"sync"``) or ``SubprocVecEnv`` (``"async"``).

    Each sub-env is wrapped in ``wrapper`` (a picklable callable, e.g. a training-time
    ``StepCost``) when given, then in SB3's ``Monitor`` so episode returns and lengths are
    logged. Requires the ``rl`` extra.
    """
    if mode not in VECTOR_MODES:
        raise PhysBenchError(f"mode must be one of {VECTOR_MODES}, got {mode!r}")
    try:
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    except ImportError as exc:
        raise PhysBenchError("make_sb3_vec needs stable-baselines3: "
                             "pip install 'physbench-gym[rl]'") from exc
    if n < 1:
        raise PhysBenchError(f"a vector env needs at least one sub-env, got n={n}")
    fns = [functools.partial(_monitored, env_id, kwargs, wrapper) for _ in range(n)]
    if mode == "sync":
        return DummyVecEnv(fns)
    return SubprocVecEnv(fns, start_method=start_method)


def _monitored(env_id: str, kwargs: dict[str, Any],
               wrapper: Callable[[gym.Env], gym.Env] | None) -> gym.Env:
    from stable_baselines3.common.monitor import Monitor

    env = make_env(env_id, **kwargs)
    return Monitor(wrapper(env) if wrapper is not None else env)
