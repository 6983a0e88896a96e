"""Finding, loading and caching task specs and their instances."""

from __future__ import annotations

import difflib
from functools import cache, lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from physbench_gym._resources import data_dir, load_yaml
from physbench_gym.errors import TaskSpecError, UnknownTaskError
from physbench_gym.tasks.spec import TaskSpec
from physbench_gym.tasks.variants import TaskInstance, instantiate


@cache
def spec_paths() -> dict[str, Path]:
    """Task id -> spec file, for every ``task_specs/<group>/<task_id>.yaml``."""
    paths = sorted(data_dir("task_specs").glob("*/*.yaml"))
    return {path.stem: path for path in paths}


def task_ids() -> list[str]:
    """Every registered task id, sorted."""
    return list(spec_paths())


def load_spec_file(path: str | Path) -> TaskSpec:
    """Parse and validate one spec file; TaskSpecError names the file and the problem."""
    path = Path(path)
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
        spec = TaskSpec.model_validate(data)
    except (OSError, yaml.YAMLError) as exc:
        raise TaskSpecError(f"{path}: cannot read: {exc}") from None
    except ValidationError as exc:
        raise TaskSpecError(f"{path}: {exc}") from None
    if spec.id != path.stem:
        raise TaskSpecError(f"{path}: id {spec.id!r} does not match the file name")
    return spec


@cache
def load_spec(task_id: str) -> TaskSpec:
    """The spec of a registered task; UnknownTaskError suggests close ids."""
    path = spec_paths().get(task_id)
    if path is None:
        close = difflib.get_close_matches(task_id, task_ids(), n=3)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise UnknownTaskError(f"unknown task {task_id!r}.{hint}")
    return load_spec_file(path)


@lru_cache(maxsize=512)
def get_instance(task_id: str, variant_seed: int | None = None) -> TaskInstance:
    """The canonical instance (None) or a seeded variant of a task, rendered and cached."""
    return instantiate(load_spec(task_id), variant_seed)
