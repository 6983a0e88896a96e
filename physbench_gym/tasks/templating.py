"""Fill ``{name}`` placeholders in spec data from a variant's values.

A string that is exactly one placeholder becomes the typed value (so a dose stays a number);
``{name[key]}`` picks one field of a record-valued variable (a clinical profile drawn as a
whole). Any other string is formatted with ``str.format_map`` (``{{`` and ``}}`` escape braces).

A mapping of exactly ``switch`` and ``cases`` is a branch: it becomes the case named by the
rendered ``switch`` value, so checkpoints, oracle calls and story entries can follow a branch
the chart takes (a score over a threshold, a kidney function that changes the drug). In a
list, a case that is itself a list is spliced in, so a branch can add zero or more items.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from physbench_gym.errors import TaskSpecError

_WHOLE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)(?:\[([A-Za-z0-9_]+)\])?\}$")
_FORMATTER = string.Formatter()
_BRANCH_KEYS = {"switch", "cases"}


def render(data: Any, values: Mapping[str, Any], where: str = "") -> Any:
    """Return ``data`` with every placeholder replaced; raise TaskSpecError naming the path."""
    if isinstance(data, str):
        return _render_text(data, values, where)
    if is_branch(data):
        return render(_pick(data, values, where), values, f"{where}.cases")
    if isinstance(data, list):
        items = []
        for i, item in enumerate(data):
            spliced = is_branch(item) and isinstance(_pick(item, values, f"{where}[{i}]"), list)
            rendered = render(item, values, f"{where}[{i}]")
            items.extend(rendered if spliced else [rendered])
        return items
    if isinstance(data, dict):
        return {key: render(item, values, f"{where}.{key}") for key, item in data.items()}
    return data


def is_branch(data: Any) -> bool:
    """True for a ``{switch: ..., cases: {...}}`` mapping."""
    return isinstance(data, dict) and set(data) == _BRANCH_KEYS and isinstance(
        data["cases"], dict)


def placeholders(data: Any) -> set[str]:
    """Every placeholder name used anywhere in ``data``."""
    if isinstance(data, str):
        return {field.split(".")[0].split("[")[0]
                for _, field, _, _ in _FORMATTER.parse(data) if field}
    if isinstance(data, list):
        return set().union(*(placeholders(item) for item in data)) if data else set()
    if isinstance(data, dict):
        return set().union(*(placeholders(v) for v in data.values())) if data else set()
    return set()


def _pick(branch: dict[str, Any], values: Mapping[str, Any], where: str) -> Any:
    key = render(branch["switch"], values, f"{where}.switch")
    cases = {str(name): case for name, case in branch["cases"].items()}
    if str(key) not in cases:
        raise TaskSpecError(f"{where}: switch value {key!r} has no case (cases: "
                            f"{', '.join(map(str, cases))})")
    return cases[str(key)]


def _render_text(text: str, values: Mapping[str, Any], where: str) -> Any:
    whole = _WHOLE.match(text)
    try:
        if whole:
            value = values[whole.group(1)]
            return value[whole.group(2)] if whole.group(2) else value
        if "{" not in text and "}" not in text:
            return text
        return text.format_map(values)
    except KeyError as exc:
        raise TaskSpecError(f"{where or 'value'}: unknown placeholder {exc.args[0]!r}") from None
    except (ValueError, IndexError, AttributeError, TypeError) as exc:
        raise TaskSpecError(f"{where or 'value'}: bad template {text[:60]!r}: {exc}") from None
