"""A task's labeled note corpus: the test data of its documentation graders.

Correct notes (several styles) must pass every note checkpoint with the reference orders in
place; each wrong note carries one clinical error and names the checkpoint that must fail. The
notes are written from the rendered case by someone other than the grader's author. They live
beside the task: ``task_specs/<group>/notes/<task_id>.yaml`` (the development set) and
``task_specs/<group>/notes/holdout/<task_id>.yaml`` (held out from grader tuning).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from physbench_gym._resources import load_yaml
from physbench_gym.errors import TaskSpecError
from physbench_gym.tasks.registry import spec_paths

SPLITS = ("dev", "holdout")


class CorpusNote(BaseModel):
    """One labeled note."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="Unique within the file.")
    kind: Literal["correct", "wrong"] = Field(description="Clinically correct, or one error.")
    style: str = Field(default="", description="How it is written (terse, letter, ...).")
    target: str | None = Field(default=None, description="Checkpoint a wrong note must fail.")
    error: str | None = Field(default=None, description="The wrong note's single error.")
    text: str = Field(min_length=1, description="The note.")

    @model_validator(mode="after")
    def _wrong_names_its_target(self) -> CorpusNote:
        if self.kind == "wrong" and not self.target:
            raise ValueError(f"wrong note {self.id!r} must name its target checkpoint")
        return self


class NoteCorpus(BaseModel):
    """The notes of one task and split."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str = Field(description="Task id.")
    variant: Literal["canonical"] = Field(default="canonical", description="Instance graded.")
    notes: list[CorpusNote] = Field(min_length=1, description="The labeled notes.")

    @model_validator(mode="after")
    def _unique_ids(self) -> NoteCorpus:
        ids = [n.id for n in self.notes]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"repeated note ids: {repeated}")
        return self


def corpus_path(task_id: str, split: str = "dev") -> Path:
    """Where a task's corpus of a split lives (whether or not it exists)."""
    folder = spec_paths()[task_id].parent / "notes"
    return (folder if split == "dev" else folder / split) / f"{task_id}.yaml"


@cache
def load_corpus(task_id: str, split: str = "dev") -> NoteCorpus | None:
    """A task's corpus of one split, or None when it has none; TaskSpecError if invalid."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    path = corpus_path(task_id, split)
    if not path.is_file():
        return None
    try:
        corpus = NoteCorpus.model_validate(load_yaml(path.read_text(encoding="utf-8")))
    except ValidationError as exc:
        raise TaskSpecError(f"{path}: {exc}") from None
    if corpus.task != task_id:
        raise TaskSpecError(f"{path}: task {corpus.task!r} does not match the file name")
    return corpus
