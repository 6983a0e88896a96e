"""Loading task-specific code from the ``graders/`` folder (derive and grader functions).

The folder is imported as the package ``physbench_graders`` from wherever it is installed, so
its modules can import each other (``from physbench_graders.common import ...``).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from physbench_gym._resources import data_dir
from physbench_gym.errors import TaskSpecError


def load_function(reference: str, where: str = "grader") -> Callable[..., Any]:
    """Load ``graders/<file>.py:<function>`` from the graders folder."""
    path_text, _, name = reference.partition(":")
    if not path_text.startswith("graders/") or not path_text.endswith(".py") or not name:
        raise TaskSpecError(f"{where}: expected 'graders/<file>.py:<function>', got {reference!r}")
    module = _load_grader_module(path_text.removeprefix("graders/"))
    function = getattr(module, name, None)
    if not callable(function):
        raise TaskSpecError(f"{where}: {path_text} has no function {name!r}")
    return function


GRADERS_PACKAGE = "physbench_graders"


def grader_roots() -> tuple[Path, ...]:
    """The package's graders folder, then the ``graders/`` beside each extra spec folder of
    ``$PHYSBENCH_TASK_SPECS`` (tasks kept outside the package bring their own code; a file
    name the package already uses is shadowed by the package's)."""
    from physbench_gym.tasks.registry import SPEC_ROOTS_VARIABLE

    extra = [Path(folder).resolve().parent / "graders"
             for folder in os.environ.get(SPEC_ROOTS_VARIABLE, "").split(os.pathsep) if folder]
    return (data_dir("graders").resolve(), *(root for root in extra if root.is_dir()))


@cache
def _load_grader_module(relative: str) -> Any:
    roots = grader_roots()
    for root in roots:
        path = (root / relative).resolve()
        if root in path.parents and path.is_file() and path.suffix == ".py":
            break
    else:
        raise TaskSpecError(f"grader module not found: graders/{relative}")
    _graders_package(roots)
    dotted = ".".join(path.relative_to(root).with_suffix("").parts)
    return importlib.import_module(f"{GRADERS_PACKAGE}.{dotted}")


@cache
def _graders_package(roots: tuple[Path, ...]) -> None:
    """Register the graders folders as the package ``physbench_graders``."""
    spec = importlib.util.spec_from_file_location(
        GRADERS_PACKAGE, roots[0] / "__init__.py",
        submodule_search_locations=[str(root) for root in roots])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[GRADERS_PACKAGE] = package
    spec.loader.exec_module(package)
