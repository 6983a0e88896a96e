"""Where the data folders (task specs, env variants, graders) live, in a checkout or a wheel.

In a source checkout they sit beside the package; an installed wheel carries them as
``physbench_gym/_data/<name>``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder ``name`` (``task_specs``, ``envs`` or ``graders``)."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} not found beside {_PACKAGE_DIR}")


_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Yaml12Loader(_FAST_LOADER):  # type: ignore[valid-type, misc]
    """YAML 1.2 booleans: only true/false, so units like 'y' or answers like 'no' stay text."""


_Yaml12Loader.yaml_implicit_resolvers = {
    key: [(tag, regex) for tag, regex in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in _FAST_LOADER.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"))


def load_yaml(text: str) -> Any:
    """Parse YAML text with YAML 1.2 booleans (every data file of the project reads this way)."""
    return yaml.load(text, Loader=_Yaml12Loader)  # noqa: S506
