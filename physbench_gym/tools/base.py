"""The tool engine: context, results, tool registration and the Toolset that runs a call.

A tool is a function ``(args, ctx) -> ToolOutput`` whose pydantic argument model and docstring
become the OpenAI function-calling schema the agent sees. ``Toolset.call`` turns every agent
mistake (unknown tool, unparsable JSON, invalid arguments, an EHR error) into a
``ToolResult`` with ``ok=False`` and a reason; it never raises for agent input.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from physbench_gym.fhir.client import FhirClient
from physbench_gym.fhir.errors import FhirError, FhirTransportError, outcome_text
from physbench_gym.tools.schema import function_schema
from physbench_gym.tools.workspace import Workspace

JsonDict = dict[str, Any]
MAX_ARGUMENT_TEXT = 2_000_000


@dataclass
class ToolContext:
    """What a tool needs during one episode.

    Attributes:
        client: The FHIR client every EHR call goes through (its tags mark the episode's writes).
        workspace: The episode's in-memory file system for deliverables.
        practitioner_id: FHIR id of the consulting physician (requester, sender, participant).
        now: The task's clock; authoredOn, sent and similar timestamps use it.
    """

    client: FhirClient
    workspace: Workspace
    practitioner_id: str
    now: datetime


class StoredCopies(Sequence[JsonDict]):
    """The resources of stored versions, each decoded to a fresh dict on first access."""

    def __init__(self, versions: Sequence[Any]) -> None:
        self._versions = tuple(versions)
        self._copies: dict[int, JsonDict] = {}

    def __len__(self) -> int:
        return len(self._versions)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        position = range(len(self))[index]
        if position not in self._copies:
            self._copies[position] = self._versions[position].copy()
        return self._copies[position]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return repr(list(self))


@dataclass
class ToolResult:
    """The outcome of one tool call, as the env and the graders see it."""

    ok: bool
    text: str
    tool: str
    arguments: JsonDict
    status: int | None = None
    returned: Sequence[JsonDict] = field(default_factory=list)
    written: list[JsonDict] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    terminal: bool = False
    error: str | None = None
    stored: tuple[Any, ...] | None = None
    """The embedded EHR's stored versions behind ``returned``, in order (else None)."""


@dataclass
class ToolOutput:
    """What a tool function returns on success; the Toolset wraps it into a ToolResult."""

    text: str
    status: int | None = None
    returned: Sequence[JsonDict] = field(default_factory=list)
    written: list[JsonDict] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    terminal: bool = False
    stored: tuple[Any, ...] | None = None


class ToolError(Exception):
    """An agent mistake found while running a tool; becomes an ``ok=False`` result."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


ToolFunction = Callable[[Any, ToolContext], ToolOutput]


@dataclass(frozen=True)
class Tool:
    """One callable tool: its name, argument model, description and implementation."""

    name: str
    args: type[BaseModel]
    run: ToolFunction
    description: str
    writes: bool = False

    def schema(self) -> JsonDict:
        """The OpenAI function-calling schema of this tool (a fresh copy; built once)."""
        return json.loads(_schema_text(self.name, self.description, self.args))


@functools.cache
def _schema_text(name: str, description: str, args: type[BaseModel]) -> str:
    return json.dumps(function_schema(name, description, args))


def tool(args: type[BaseModel], *, writes: bool = False) -> Callable[[ToolFunction], Tool]:
    """Declare a tool from a function; its name and docstring are what the agent sees."""

    def wrap(function: ToolFunction) -> Tool:
        description = inspect.cleandoc(function.__doc__ or "")
        return Tool(function.__name__, args, function, description, writes)

    return wrap


class Toolset:
    """A named collection of tools that validates and executes agent tool calls."""

    def __init__(self, name: str, tools: Iterable[Tool]) -> None:
        self.name = name
        self._tools = {item.name: item for item in tools}

    def names(self) -> list[str]:
        """The tool names, in declaration order."""
        return list(self._tools)

    def tools(self) -> list[Tool]:
        """The tools, in declaration order."""
        return list(self._tools.values())

    def schemas(self) -> list[JsonDict]:
        """OpenAI function-calling schemas for every tool."""
        return [item.schema() for item in self._tools.values()]

    def call(self, name: str, arguments: JsonDict | str | None, ctx: ToolContext) -> ToolResult:
        """Run one tool call; every agent mistake becomes an ``ok=False`` result, never raises."""
        label = name if isinstance(name, str) else repr(name)[:100]
        try:
            parsed = parse_arguments(arguments)
        except ToolError as exc:
            return _failure(label, {}, str(exc))
        found = self._tools.get(name) if isinstance(name, str) else None
        if found is None:
            return _failure(label, parsed, self._unknown(name))
        try:
            args = found.args.model_validate(parsed)
        except ValidationError as exc:
            return _failure(label, parsed, f"Invalid arguments for {label}: {describe(exc)}")
        return _execute(found, args, parsed, ctx)

    def _unknown(self, name: object) -> str:
        shown = name[:100] if isinstance(name, str) else repr(name)[:100]
        message = f"Unknown tool {shown!r}."
        if isinstance(name, str):
            close = difflib.get_close_matches(name, self._tools, n=1)
            if close:
                message += f" Did you mean {close[0]!r}?"
        return f"{message} Available tools: {', '.join(self._tools)}."


def _execute(found: Tool, args: BaseModel, parsed: JsonDict, ctx: ToolContext) -> ToolResult:
    try:
        output = found.run(args, ctx)
    except FhirTransportError as exc:
        return _failure(found.name, parsed, f"the EHR could not be reached: {exc}")
    except FhirError as exc:
        reason = outcome_text(exc.outcome) if exc.outcome else str(exc)
        text = f"the EHR answered HTTP {exc.status}: {reason}"
        return _failure(found.name, parsed, text, exc.status)
    except ToolError as exc:
        return _failure(found.name, parsed, str(exc), exc.status)
    except ValueError as exc:
        return _failure(found.name, parsed, str(exc))
    return ToolResult(ok=True, text=output.text, tool=found.name, arguments=parsed,
                      status=output.status, returned=output.returned, written=output.written,
                      files=output.files, terminal=output.terminal, stored=output.stored)


def _failure(name: str, arguments: JsonDict, text: str, status: int | None = None) -> ToolResult:
    return ToolResult(ok=False, text=text, tool=name, arguments=arguments, status=status,
                      error=text)


MAX_JSON_DEPTH = 32
"""Deepest nesting of lists and objects accepted in an action or its arguments."""


def nested_too_deep(value: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether lists/dicts nest deeper than ``limit`` (checked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(
            item, (list, tuple)) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def load_json(text: str) -> Any:
    """Parse JSON text an agent sent; ValueError with the reason when it is not JSON or nests
    deeper than ``MAX_JSON_DEPTH`` (the decoder itself would exhaust the stack)."""
    try:
        value = json.loads(text)
    except RecursionError:
        value = None
    else:
        if not nested_too_deep(value):
            return value
    raise ValueError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")


def parse_arguments(arguments: object) -> JsonDict:
    """Turn the agent's arguments (a dict or its JSON text) into a dict, or raise ToolError."""
    if arguments is None:
        return {}
    if isinstance(arguments, (bytes, bytearray)):
        arguments = bytes(arguments).decode("utf-8", errors="replace")
    if isinstance(arguments, str):
        if len(arguments) > MAX_ARGUMENT_TEXT:
            raise ToolError(f"Arguments are too long ({len(arguments)} characters).")
        if not arguments.strip():
            return {}
        try:
            arguments = load_json(arguments)
        except ValueError as exc:
            raise ToolError(f"Arguments are not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(arguments, dict):
        raise ToolError(f"Arguments must be a JSON object, not {type(arguments).__name__}.")
    if nested_too_deep(arguments):
        raise ToolError(f"Arguments nest deeper than {MAX_JSON_DEPTH} levels.")
    if not all(isinstance(key, str) for key in arguments):
        raise ToolError("Argument names must be strings.")
    return dict(arguments)


def describe(error: ValidationError) -> str:
    """A short, readable list of validation problems (no echo of the offending values)."""
    problems = []
    for item in error.errors(include_input=False, include_url=False)[:10]:
        where = ".".join(str(part) for part in item.get("loc", ())) or "arguments"
        message = item.get("msg", "invalid")
        if item.get("type") == "extra_forbidden":
            message = "unknown parameter (not allowed)"
        problems.append(f"{where}: {message[:300]}")
    more = error.error_count() - len(problems)
    if more > 0:
        problems.append(f"and {more} more")
    return "; ".join(problems)


@functools.cache
def get_toolset(name: str = "physicianbench") -> Toolset:
    """Return a tool set by name: ``"physicianbench"`` (default) or ``"fhir"``; shared."""
    from physbench_gym.tools.generic import fhir_toolset
    from physbench_gym.tools.physicianbench import physicianbench_toolset

    factories = {"physicianbench": physicianbench_toolset, "fhir": fhir_toolset}
    if name not in factories:
        raise ValueError(f"unknown toolset {name!r}; choose one of {', '.join(factories)}")
    return factories[name]()
