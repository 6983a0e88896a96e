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


def read_of(resource_type: str) -> str:
    """The event of a step that showed the agent resources of ``resource_type`` (a READ too)."""
    return f"{READ}:{resource_type}"


def write_of(resource_type: str) -> str:
    """The event of a step that wrote resources of ``resource_type`` (a WRITE too)."""
    return f"{WRITE}:{resource_type}"


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
    returned: Sequence[dict[str, Any]]
    written: list[dict[str, Any]]


@dataclass(frozen=True)
class Returned:
    """What retrieval checks ask of a resource the agent has seen, computed once.

    Built once per stored version when the EHR is embedded, and shared by every episode that
    sees that version.
    """

    patient: str | None
    codes: frozenset[str]
    text: str
    """The resource's human-readable text, lower case."""

    @classmethod
    def of(cls, resource: dict[str, Any]) -> Returned:
        pairs = codings(resource)
        keys = {f"{system}|{code}" for system, code in pairs} | {code for _, code in pairs}
        return cls(patient_id(resource), frozenset(keys), text_of(resource).lower())


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
    _by_code: dict[tuple[str, str], dict[str, Returned]] = field(default_factory=dict,
                                                                 repr=False)

    def record(self, step: StepRecord) -> set[str]:
        """Remember what a step showed the agent (type -> id), once each; return its types.

        When the step names the stored versions it showed (the embedded EHR), each version's
        summary is built once and shared by every episode that sees it, without a copy.
        """
        stored = getattr(step, "stored", None)
        if stored is not None:
            seen = [(v.resource_type, v.id, v, None) for v in stored]
        else:
            seen = [(str(r.get("resourceType")), str(r.get("id")), None, r)
                    for r in getattr(step, "returned", None) or []]
        for resource_type, resource_id, version, resource in seen:
            by_id = self.returned.setdefault(resource_type, {})
            if resource_id not in by_id:
                item = by_id[resource_id] = (version.derived(Returned.of) if version is not None
                                             else Returned.of(resource))
                for code in item.codes:
                    self._by_code.setdefault((resource_type, code), {})[resource_id] = item
        return {resource_type for resource_type, *_ in seen}

    def returned_with_code(self, resource_type: str, codes: Sequence[str]
                           ) -> dict[str, Returned]:
        """Seen resources of a type having any of ``codes`` ('system|code' or a bare code)."""
        found: dict[str, Returned] = {}
        for code in codes:
            found.update(self._by_code.get((resource_type, code), {}))
        return found

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
    """A ready-to-run check and the events that can change its verdict.

    A ``monotone`` check can only go from failed to passed within an episode (what the agent
    has seen only grows), so once passed it need not run again.
    """

    check: GraderFn
    triggers: frozenset[str]
    monotone: bool = False


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
    # Arguments may build nested graders once (``bind``) and may narrow the events that can
    # change the verdict (``triggers``) or promise it only ever goes to passed (``monotone``).
    bound = args.bind(f"{where}.{name}") if hasattr(args, "bind") else args
    return Grader(lambda ctx: prim.run(ctx, bound), getattr(bound, "triggers", prim.triggers),
                  getattr(bound, "monotone", False))


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
