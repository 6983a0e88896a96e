"""Checkpoint graders: the result type, the grading context and the primitive registry.

A grader is built once per episode from a checkpoint's spec: either ``{primitive: arguments}``
(arguments validated by the primitive's pydantic model) or ``graders/<file>.py:<function>``.
Each grader names the events that can change its verdict, so the engine re-evaluates only
those after a step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from physbench_gym.errors import TaskSpecError
from physbench_gym.fhir.client import FhirClient
from physbench_gym.grading.resources import codings, patient_id, text_of
from physbench_gym.tasks.graders import load_function

READ, WRITE, FILE, FINISH = "read", "write", "file", "finish"
ALL_EVENTS = frozenset({READ, WRITE, FILE, FINISH})


@dataclass(frozen=True)
class CheckpointResult:
    """A verdict with the reason a person can check, and which grader decided it."""

    passed: bool
    reason: str
    grader: str = "deterministic"


class Judge(Protocol):
    """An optional rubric grader (e.g. an LLM judge) that rubric checkpoints may consult."""

    name: str

    def judge(self, rubric: str, ground_truth: str, note: str) -> CheckpointResult: ...


class StepRecord(Protocol):
    """What graders read of one tool call (``physbench_gym.tools.ToolResult`` fits)."""

    tool: str
    ok: bool
    returned: list[dict[str, Any]]
    written: list[dict[str, Any]]


@dataclass
class Returned:
    """A resource the agent has seen, with what retrieval checks ask of it precomputed."""

    resource: dict[str, Any]
    patient: str | None
    codes: frozenset[str]
    _text: str | None = None

    @classmethod
    def of(cls, resource: dict[str, Any]) -> Returned:
        pairs = codings(resource)
        keys = {f"{system}|{code}" for system, code in pairs} | {code for _, code in pairs}
        return cls(resource, patient_id(resource), frozenset(keys))

    def has_code(self, wanted: Sequence[str]) -> bool:
        """True if any of ``wanted`` ('system|code' or a bare code) is among the codes."""
        return not self.codes.isdisjoint(wanted)

    @property
    def text(self) -> str:
        """The resource's human-readable text, lower case (decoded once)."""
        if self._text is None:
            self._text = text_of(self.resource).lower()
        return self._text


@dataclass
class GradingContext:
    """Everything a grader may look at: the EHR (through the client), the trajectory, files."""

    client: FhirClient
    episode_tag: Mapping[str, str]
    patient_id: str
    note_path: str
    trajectory: Sequence[StepRecord] = field(default_factory=list)
    files: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)
    returned: dict[str, dict[str, Returned]] = field(default_factory=dict)
    judge: Judge | None = None
    _written: dict[str, list[dict[str, Any]]] = field(default_factory=dict, repr=False)

    def record(self, step: StepRecord) -> None:
        """Remember what a step returned to the agent (type -> id -> resource), once each."""
        for resource in getattr(step, "returned", None) or []:
            by_id = self.returned.setdefault(str(resource.get("resourceType")), {})
            key = str(resource.get("id"))
            if key not in by_id:
                by_id[key] = Returned.of(resource)

    def note(self) -> str | None:
        """The deliverable note's text, or None if it was not written."""
        return self.files.get(self.note_path)

    def written(self, resource_type: str) -> list[dict[str, Any]]:
        """Resources of a type the agent wrote this episode, read back from the EHR by tag.

        Read once per step and type (``new_step`` forgets them), however many checkpoints ask.
        """
        found = self._written.get(resource_type)
        if found is None:
            tag = f"{self.episode_tag['system']}|{self.episode_tag['code']}"
            found = self.client.search_all(
                resource_type, [("_tag", tag), ("_count", "200")], max_pages=20)
            self._written[resource_type] = found
        return found

    def new_step(self) -> None:
        """Forget what was read from the EHR during the previous step."""
        self._written.clear()


GraderFn = Callable[[GradingContext], CheckpointResult]


@dataclass(frozen=True)
class Grader:
    """A ready-to-run check and the events that can change its verdict."""

    check: GraderFn
    triggers: frozenset[str]


class Args(BaseModel):
    """Base of every primitive's argument model: unknown arguments are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class Primitive:
    """A declarative grading primitive usable from task specs by name."""

    name: str
    args_model: type[Args]
    run: Callable[[GradingContext, Any], CheckpointResult]
    triggers: frozenset[str]
    doc: str


PRIMITIVES: dict[str, Primitive] = {}


def primitive(name: str, args_model: type[Args], triggers: set[str]):
    """Register a function ``(ctx, args) -> CheckpointResult`` as a spec primitive."""

    def register(run: Callable[[GradingContext, Any], CheckpointResult]):
        PRIMITIVES[name] = Primitive(name, args_model, run, frozenset(triggers),
                                     (run.__doc__ or "").strip())
        return run

    return register


def build_grader(spec: Mapping[str, Any] | str, where: str = "grader") -> Grader:
    """Turn a checkpoint's grader spec into a Grader; raise TaskSpecError when it is invalid."""
    _load_primitives()
    if isinstance(spec, str):
        function = load_function(spec, where)
        return Grader(function, frozenset(getattr(function, "triggers", ALL_EVENTS)))
    if not isinstance(spec, Mapping) or len(spec) != 1:
        raise TaskSpecError(f"{where}: expected {{primitive: arguments}} or 'file.py:function'")
    (name, raw_args), = spec.items()
    prim = PRIMITIVES.get(name)
    if prim is None:
        raise TaskSpecError(f"{where}: unknown primitive {name!r}; known: {sorted(PRIMITIVES)}")
    try:
        args = prim.args_model.model_validate(raw_args or {})
    except ValidationError as exc:
        raise TaskSpecError(f"{where}.{name}: {exc}") from None
    if hasattr(args, "bind"):
        bound = args.bind(f"{where}.{name}")
        return Grader(lambda ctx: prim.run(ctx, bound), bound.triggers)
    return Grader(lambda ctx: prim.run(ctx, args), prim.triggers)


def triggered_by(*events: str) -> Callable[[GraderFn], GraderFn]:
    """Declare which events can change a grader function's verdict (all events by default)."""
    unknown = set(events) - ALL_EVENTS
    if unknown:
        raise ValueError(f"unknown events {sorted(unknown)}; use {sorted(ALL_EVENTS)}")

    def mark(function: GraderFn) -> GraderFn:
        function.triggers = frozenset(events)  # type: ignore[attr-defined]
        return function

    return mark


@cache
def _load_primitives() -> None:
    from physbench_gym.grading import actions, compose, notes, retrieval  # noqa: F401

    try:
        from physbench_gym.grading import judge  # noqa: F401
    except ImportError:
        pass
