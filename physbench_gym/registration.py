"""Registering Gymnasium ids from the declarative files in ``envs/`` and the task specs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import yaml

from physbench_gym._resources import data_dir
from physbench_gym.errors import PhysBenchError

ENTRY_POINT = "physbench_gym.env:PhysicianBenchEnv"
TASK_NAMESPACE = "PhysicianBench"


def register_file(path: str | Path) -> list[str]:
    """Register every env variant declared in a YAML file; return the ids."""
    entries = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    if not isinstance(entries, list):
        raise PhysBenchError(f"{path}: expected a list of env variants")
    ids = []
    for entry in entries:
        if not isinstance(entry, dict) or "id" not in entry:
            raise PhysBenchError(f"{path}: every variant needs an id")
        _register(entry["id"], entry.get("kwargs") or {}, entry.get("entry_point", ENTRY_POINT))
        ids.append(entry["id"])
    return ids


def register_all() -> None:
    """Register the default variants and one id per task (``PhysicianBench/<task>-v0``)."""
    register_file(data_dir("envs") / "default.yaml")
    register_file(data_dir("envs") / "discrete.yaml")
    from physbench_gym.tasks.registry import spec_paths

    for task_id in spec_paths():
        _register(f"{TASK_NAMESPACE}/{task_id}-v0", {"tasks": [task_id]})


def _register(env_id: str, kwargs: dict[str, Any], entry_point: str = ENTRY_POINT) -> None:
    if env_id in gym.registry:
        return
    gym.register(id=env_id, entry_point=entry_point, kwargs=kwargs, disable_env_checker=False)
