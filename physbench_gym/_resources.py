"""Where the data folders (task specs, env variants, graders) live, in a checkout or a wheel.

In a source checkout they sit beside the package; an installed wheel carries them as
``physbench_gym/_data/<name>``.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder ``name`` (``task_specs``, ``envs`` or ``graders``)."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} not found beside {_PACKAGE_DIR}")
