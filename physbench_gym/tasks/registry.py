"""Finding, loading and caching task specs and their instances."""

from __future__ import annotations

import difflib
import os
from functools import cache, lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from physbench_gym._resources import data_dir, load_yaml
from physbench_gym.errors import TaskSpecError, UnknownTaskError
from physbench_gym.tasks.spec import TaskSpec
from physbench_gym.tasks.variants import TaskInstance, instantiate

SPEC_ROOTS_VARIABLE = "PHYSBENCH_TASK_SPECS"


@cache
def spec_paths() -> dict[str, Path]:
    """Task id -> spec file, for every ``task_specs/<group>/<task_id>.yaml`` of the package
    and of the folders in ``$PHYSBENCH_TASK_SPECS`` (``os.pathsep``-separated; tasks kept
    outside the package, e.g. while they are being written)."""
    roots = [data_dir("task_specs")] + [
        Path(folder) for folder in os.environ.get(SPEC_ROOTS_VARIABLE, "").split(os.pathsep)
        if folder]
    paths: dict[str, Path] = {}
    for root in roots:
        for path in sorted(root.glob("*/*.yaml")):
            if path.stem in paths:
                raise TaskSpecError(f"{path}: task {path.stem!r} is also {paths[path.stem]}")
            paths[path.stem] = path
    return dict(sorted(paths.items()))


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
