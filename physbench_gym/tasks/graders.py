"""Loading task-specific code from the ``graders/`` folder (derive and grader functions).

The folder is imported as the package ``physbench_graders`` from wherever it is installed, so
its modules can import each other (``from physbench_graders.common import ...``).
"""

from __future__ import annotations

import importlib
import importlib.util
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


@cache
def _load_grader_module(relative: str) -> Any:
    root = data_dir("graders").resolve()
    path = (root / relative).resolve()
    if root not in path.parents or not path.is_file() or path.suffix != ".py":
        raise TaskSpecError(f"grader module not found: graders/{relative}")
    _graders_package(root)
    dotted = ".".join(path.relative_to(root).with_suffix("").parts)
    return importlib.import_module(f"{GRADERS_PACKAGE}.{dotted}")


@cache
def _graders_package(root: Path) -> None:
    """Register the graders folder as the package ``physbench_graders``."""
    spec = importlib.util.spec_from_file_location(
        GRADERS_PACKAGE, root / "__init__.py", submodule_search_locations=[str(root)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[GRADERS_PACKAGE] = package
    spec.loader.exec_module(package)
