"""Action and observation spaces of the text environment, and action parsing.

Observations are printable-ASCII text (other characters are escaped as ``\\uXXXX``), so they
fit a ``Text`` space with a small character set that vector envs can put in shared memory.
Actions are tool calls in any of three forms: ``{"tool", "arguments"}``, its JSON text, or an
OpenAI ``tool_call`` (a dict or an SDK object with ``.function.name/.arguments``).
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import read_from_shared_memory
from pydantic import ValidationError

from physbench_gym.tools.base import Toolset, get_toolset, load_json

OBSERVATION_CHARSET = frozenset(string.printable)
_CHARSET_BYTES = string.printable.encode("ascii")
_OUTSIDE_CHARSET = re.compile(f"[^{re.escape(string.printable)}]")
MAX_OBSERVATION_CHARS = 16_384
MAX_ACTION_CHARS = 200_000
_WORDS = ("lab", "tsh", "note", "heart", "iron", "sodium", "plan", "renal", "x", "2024")


class ActionError(ValueError):
    """An action that is not a well-formed tool call; the agent sees the reason."""


def to_observation(text: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    """Make text fit the observation space: escape non-printable characters, cap the length."""
    if not _plainly_printable(text) and _OUTSIDE_CHARSET.search(text):
        text = _OUTSIDE_CHARSET.sub(lambda m: _escape(m.group()), text)
    if len(text) > limit:
        marker = "\n...[observation cut]"
        text = text[: limit - len(marker)] + marker
    return text


def _plainly_printable(text: str) -> bool:
    """A fast exact check for the common case: every character is in the charset."""
    return text.isascii() and not text.encode("ascii").translate(None, _CHARSET_BYTES)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


class ObservationText(spaces.Text):
    """The Text space of observations; in shared memory it reads back the current text.

    Gymnasium decodes a plain ``Text`` space from shared memory once, when an
    ``AsyncVectorEnv`` starts, so later observations would be stale. This space is read
    through a live view instead, and a copy of the view is a tuple of strings.
    """


def observation_space() -> ObservationText:
    """The Text space every observation belongs to."""
    return ObservationText(max_length=MAX_OBSERVATION_CHARS, min_length=0,
                           charset="".join(sorted(OBSERVATION_CHARSET)))


class _SharedTextBatch(Sequence):
    """The observations of a vector env, decoded from shared memory when accessed."""

    def __init__(self, space: spaces.Text, shared: Any, n: int) -> None:
        self._data = np.frombuffer(shared.get_obj(), dtype=np.int32).reshape(n, space.max_length)
        self._size = len(space.character_set)
        self._codes = np.array([ord(c) for c in space.character_list] + [0], dtype=np.uint32)

    def __len__(self) -> int:
        return self._data.shape[0]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        row = self._data[index]
        return self._codes[row[row < self._size]].astype(np.uint8).tobytes().decode("ascii")

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return repr(tuple(self))


@read_from_shared_memory.register(ObservationText)
def _read_observation_text(space: ObservationText, shared_memory: Any,
                           n: int = 1) -> _SharedTextBatch:
    return _SharedTextBatch(space, shared_memory, n)


def parse_action(action: Any) -> tuple[str, Any]:
    """Return (tool name, arguments) of an action, or raise ActionError saying why not."""
    if type(action) is dict:
        return _from_mapping(action)
    if isinstance(action, (bytes, bytearray)):
        action = action.decode("utf-8", errors="replace")
    if isinstance(action, np.str_):
        action = str(action)
    if isinstance(action, str):
        if len(action) > MAX_ACTION_CHARS:
            raise ActionError(f"action text is {len(action)} characters; limit {MAX_ACTION_CHARS}")
        try:
            action = load_json(action)
        except json.JSONDecodeError as exc:
            raise ActionError(f"action is not JSON: {exc.msg} at position {exc.pos}. Send "
                              '{"tool": "<name>", "arguments": {...}}') from None
        except ValueError as exc:
            raise ActionError(f"action is not accepted: {exc}") from None
    if not isinstance(action, Mapping):
        function = getattr(action, "function", None)
        if function is not None and hasattr(function, "name"):
            return str(function.name), getattr(function, "arguments", None) or {}
        raise ActionError(f"action must be a tool call object, got {type(action).__name__}")
    return _from_mapping(action)


def _from_mapping(action: Mapping) -> tuple[str, Any]:
    if isinstance(action.get("function"), Mapping):
        function = action["function"]
        return _name(function.get("name")), function.get("arguments") or {}
    name = action.get("tool", action.get("name"))
    extra = set(action) - {"tool", "name", "arguments", "id", "type"}
    if extra:
        raise ActionError(f"unexpected keys in action: {sorted(extra)}; "
                          'send {"tool": "<name>", "arguments": {...}}')
    return _name(name), action.get("arguments") or {}


def _name(name: Any) -> str:
    if not isinstance(name, str) or not name:
        raise ActionError('a tool call needs a "tool" name (string)')
    return name


class ToolCallSpace(spaces.Text):
    """Tool calls as JSON text; ``sample()`` draws a valid call of a random tool."""

    def __init__(self, toolset: Toolset, seed: int | np.random.Generator | None = None):
        super().__init__(max_length=MAX_ACTION_CHARS, min_length=2,
                         charset="".join(sorted(OBSERVATION_CHARSET)), seed=seed)
        self.toolset = toolset
        self._parameters = {tool.name: tool.schema()["function"]["parameters"]
                            for tool in toolset.tools()}

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        tools = self.toolset.tools()
        chosen = tools[int(self.np_random.integers(len(tools)))]
        return json.dumps({"tool": chosen.name, "arguments": sample_arguments(
            chosen.args, self._parameters[chosen.name], self.np_random)})

    def contains(self, x: Any) -> bool:
        try:
            name, _ = parse_action(x)
        except ActionError:
            return False
        return name in self.toolset.names()

    def __repr__(self) -> str:
        return f"ToolCallSpace({self.toolset.name!r}, tools={len(self.toolset.names())})"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["toolset"] = self.toolset.name
        state.pop("_parameters", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        toolset = get_toolset(state.pop("toolset"))
        self.__dict__.update(state)
        self.toolset = toolset
        self._parameters = {tool.name: tool.schema()["function"]["parameters"]
                            for tool in toolset.tools()}

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ToolCallSpace) and other.toolset.name == self.toolset.name


def sample_arguments(model: Any, schema: Mapping[str, Any], rng: np.random.Generator) -> dict:
    """Random arguments that validate against ``model`` (required fields, plus some optional)."""
    for _ in range(20):
        args = {}
        for name, prop in (schema.get("properties") or {}).items():
            if name in schema.get("required", []) or rng.random() < 0.3:
                args[name] = _sample_value(name, prop, rng)
        try:
            model.model_validate(args)
            return args
        except ValidationError:
            continue
    return {name: _sample_value(name, prop, rng) for name, prop in
            (schema.get("properties") or {}).items() if name in schema.get("required", [])}


def _sample_value(name: str, prop: Mapping[str, Any], rng: np.random.Generator) -> Any:
    kinds = prop.get("type", "string")
    kind = kinds[0] if isinstance(kinds, list) else kinds
    if "enum" in prop:
        return prop["enum"][int(rng.integers(len(prop["enum"])))]
    if kind in ("integer", "number"):
        low = int(prop.get("minimum", 1))
        high = int(prop.get("maximum", low + 9))
        return int(rng.integers(low, high + 1))
    if kind == "boolean":
        return bool(rng.integers(2))
    if kind == "array":
        return [_sample_value(name, prop.get("items", {}), rng)]
    if kind == "object":
        return {}
    if "date" in name or prop.get("format") in ("date", "date-time"):
        return f"20{int(rng.integers(15, 27))}-{int(rng.integers(1, 13)):02d}-" \
               f"{int(rng.integers(1, 29)):02d}"
    if "path" in name:
        return f"/workspace/output/{_WORDS[int(rng.integers(len(_WORDS)))]}.md"
    if "patient" in name or name.endswith("id"):
        return f"pt-{int(rng.integers(1000)):03d}"
    return " ".join(_WORDS[int(i)] for i in rng.integers(len(_WORDS), size=2))
