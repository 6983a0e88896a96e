"""Fill ``{name}`` placeholders in spec data from a variant's values.

A string that is exactly one placeholder becomes the typed value (so a dose stays a number);
any other string is formatted with ``str.format_map`` (``{{`` and ``}}`` escape braces).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from physbench_gym.errors import TaskSpecError

_WHOLE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")
_FORMATTER = string.Formatter()


def render(data: Any, values: Mapping[str, Any], where: str = "") -> Any:
    """Return ``data`` with every placeholder replaced; raise TaskSpecError naming the path."""
    if isinstance(data, str):
        return _render_text(data, values, where)
    if isinstance(data, list):
        return [render(item, values, f"{where}[{i}]") for i, item in enumerate(data)]
    if isinstance(data, dict):
        return {key: render(item, values, f"{where}.{key}") for key, item in data.items()}
    return data


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


def _render_text(text: str, values: Mapping[str, Any], where: str) -> Any:
    whole = _WHOLE.match(text)
    try:
        if whole:
            return values[whole.group(1)]
        if "{" not in text and "}" not in text:
            return text
        return text.format_map(values)
    except KeyError as exc:
        raise TaskSpecError(f"{where or 'value'}: unknown placeholder {exc.args[0]!r}") from None
    except (ValueError, IndexError, AttributeError) as exc:
        raise TaskSpecError(f"{where or 'value'}: bad template {text[:60]!r}: {exc}") from None
