"""The task spec schema: one YAML file per task under ``task_specs/<group>/<task_id>.yaml``.

A spec is data. Strings may hold ``{name}`` placeholders filled from the task's variables (the
canonical values or a seeded variant's), so the story, instruction, checkpoints and oracle of a
variant are always computed from the same values.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from physbench_gym.synth.terminology import SPECIALTIES

SPECIALTY_GROUPS = (
    "Cardiology",
    "Endocrinology",
    "Gastroenterology & Hepatology",
    "Hematology & Oncology",
    "Immunology & Infectious Disease",
    "Nephrology & Urology",
    "Psychiatry, Neurology & Addiction",
    "Pulmonology & Other Specialties",
)
TASK_TYPES = (
    "Diagnosis & Interpretation",
    "Medication Prescribing",
    "Treatment Planning",
    "Workup & Risk Stratification",
)
CAPABILITIES = ("data_retrieval", "clinical_reasoning", "action_execution", "documentation")

SpecialtyGroup = Literal[SPECIALTY_GROUPS]  # type: ignore[valid-type]
Specialty = Literal[SPECIALTIES]  # type: ignore[valid-type]
TaskType = Literal[TASK_TYPES]  # type: ignore[valid-type]
Capability = Literal[CAPABILITIES]  # type: ignore[valid-type]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Variable(_Strict):
    """A clinical parameter of the task, fixed in the canonical instance and drawn in variants."""

    canonical: Any = Field(description="Value in the fixed benchmark instance.")
    choice: list[Any] | None = Field(
        default=None, description="Seeded variants draw one of these values (a value may be a "
        "record of facts that go together, used as {name[field]}).")
    weights: list[float] | None = Field(
        default=None, description="Relative weights of the `choice` values (uniform if absent).")
    uniform: tuple[float, float] | None = Field(
        default=None, description="Seeded variants draw uniformly from [low, high].")
    integer: tuple[int, int] | None = Field(
        default=None, description="Seeded variants draw an integer from [low, high] inclusive.")
    round: int | None = Field(
        default=None, description="Decimal places kept for a `uniform` draw (0 gives an int).")

    @model_validator(mode="after")
    def _one_distribution(self) -> Variable:
        given = [d for d in (self.choice, self.uniform, self.integer) if d is not None]
        if len(given) > 1:
            raise ValueError("a variable takes at most one of choice, uniform, integer")
        if self.choice is not None and not self.choice:
            raise ValueError("choice must not be empty")
        if self.weights is not None and (self.choice is None or len(self.weights) != len(
                self.choice) or min(self.weights) < 0 or not sum(self.weights)):
            raise ValueError("weights need a choice of the same length, non-negative, not all 0")
        for bounds in (self.uniform, self.integer):
            if bounds is not None and bounds[0] > bounds[1]:
                raise ValueError(f"range {bounds} has low > high")
        return self


class Branch(_Strict):
    """A value that follows a branch of the chart: the case named by the rendered ``switch``.

    Rendered by ``tasks.templating``; a field that takes a Branch (a checkpoint's description,
    rubric and grader, an oracle call, the oracle note) differs by branch in one spec.
    """

    switch: str = Field(description="A placeholder such as '{anticoagulation}'.")
    cases: dict[Any, Any] = Field(min_length=1, description="Value per rendered switch value.")


class Deliverable(_Strict):
    """A file the agent must write into its workspace."""

    path: str = Field(description="Workspace path, under /workspace/output/.")
    description: str = Field(description="What the file must contain, as told to the agent.")


class Checkpoint(_Strict):
    """One verifiable step of the task; the task succeeds only when every checkpoint passes."""

    id: str = Field(pattern=r"^[a-z0-9_]+$", description="Unique within the task.")
    capability: Capability = Field(description="The capability this checkpoint measures.")
    description: str | Branch = Field(
        description="What must be true, in a sentence a physician reads.")
    weight: float = Field(default=1.0, gt=0, description="Weight in the checkpoint score.")
    grader: dict[str, Any] | str = Field(
        description="A primitive as {name: arguments} (see physbench_gym.grading), or a "
        "'graders/<file>.py:<function>' reference.")
    rubric: str | Branch | None = Field(
        default=None, description="For a checkpoint graded from the note: what a correct note "
        "states, with the instance's values, for an LLM judge when one is configured.")


class ToolCall(_Strict):
    """One tool call of the oracle solution."""

    tool: str = Field(description="Tool name in the task's tool set.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Tool arguments.")


class Oracle(_Strict):
    """The reference solution, replayed by OracleAgent for any variant."""

    calls: list[ToolCall | Branch] = Field(
        description="Tool calls before the note is written (a Branch adds a list of calls).")
    note: str | Branch | list[str | Branch] = Field(
        description="The deliverable note the oracle writes; a list of parts is joined.")
    summary: str = Field(default="Consult complete.", description="Argument of finish().")


    @field_validator("note", mode="after")
    @classmethod
    def _join_parts(cls, note: Any) -> Any:
        """A rendered note of parts (no Branch left) is one text."""
        if isinstance(note, list) and all(isinstance(part, str) for part in note):
            return "".join(note)
        return note


class Reference(_Strict):
    """A source for an expected value, dose, threshold or code used by the task."""

    fact: str = Field(description="The fact the source supports.")
    source: str = Field(description="Guideline, drug label or paper, specific enough to find.")


class TaskSpec(_Strict):
    """A clinical e-consult task."""

    id: str = Field(pattern=r"^[a-z0-9_]+$", description="Task id; also the file name.")
    title: str = Field(description="Short human-readable title.")
    specialty: Specialty = Field(description="Consulting specialty.")
    specialty_group: SpecialtyGroup = Field(description="One of the 8 specialty groups.")
    task_type: TaskType = Field(description="One of the 4 task types.")
    subtype: str = Field(description="Task subtype, e.g. 'Regimen Adjustment'.")
    tier: Literal["easy", "medium", "hard"] = Field(description="Difficulty tier.")
    now: datetime = Field(description="The task's fixed current time (UTC).")
    practitioner_id: str = Field(description="Practitioner id of the consulting physician.")
    referring_id: str = Field(description="Practitioner id of the referring clinician.")
    max_steps: int = Field(default=80, ge=5, le=500, description="Step budget of an episode.")
    variables: dict[str, Variable] = Field(
        default_factory=dict, description="Clinical parameters that variants change.")
    derive: str | None = Field(
        default=None, description="'graders/<file>.py:<function>' computing derived variables "
        "(expected doses, scores) from the drawn ones.")
    story: dict[str, Any] = Field(
        description="The patient story (physbench_gym.synth.story.Story), with placeholders.")
    instruction: str = Field(description="The e-consult question, with placeholders.")
    deliverables: list[Deliverable] = Field(min_length=1, description="Files to write.")
    checkpoints: list[Checkpoint] = Field(min_length=1, description="Checkpoints, in order.")
    oracle: Oracle = Field(description="The reference solution, with placeholders.")
    references: list[Reference] = Field(
        min_length=1, description="A source for every expected value, dose, threshold, code.")
    known_gaps: dict[str, str] = Field(
        default_factory=dict, description="Rules of `physbench task check` the task does not "
        "meet yet: gate or 'gate:part' -> the reason. Reported as gaps, not failures.")

    @model_validator(mode="after")
    def _unique_checkpoint_ids(self) -> TaskSpec:
        ids = [c.id for c in self.checkpoints]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"duplicate checkpoint ids: {duplicates}")
        return self
