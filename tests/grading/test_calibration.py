"""The note graders against the labeled corpus (notes written from the rendered case by
clinicians who never saw the graders): every note is graded as an episode grades it, and the
set of misgraded notes per task must equal the recorded baseline. A reader change that fixes a
note or breaks one fails here until the baseline is rewritten with
``physbench calibrate --write-baseline tests/grading/calibration_baseline.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physbench_gym.eval.calibrate import calibrate, note_checkpoints
from physbench_gym.tasks.corpus import SPLITS, load_corpus
from physbench_gym.tasks.registry import task_ids

BASELINE = json.loads((Path(__file__).parent / "calibration_baseline.json").read_text())
TASKS = [t for t in task_ids() if load_corpus(t, "dev") is not None]


def test_every_task_has_a_corpus_and_a_baseline():
    assert set(TASKS) == set(task_ids()) == set(BASELINE)


@pytest.mark.parametrize("task_id", TASKS)
def test_misgraded_notes_match_the_baseline(task_id):
    misgraded = set(calibrate([task_id]).misgraded()[task_id])
    recorded = set(BASELINE[task_id])
    assert misgraded == recorded, (
        f"newly misgraded: {sorted(misgraded - recorded)}; "
        f"now graded right: {sorted(recorded - misgraded)}")


@pytest.mark.parametrize("task_id", TASKS)
def test_every_wrong_note_targets_a_note_checkpoint(task_id):
    graded = set(note_checkpoints(task_id))
    for split in SPLITS:
        corpus = load_corpus(task_id, split)
        for note in corpus.notes if corpus else ():
            assert note.kind == "correct" or note.target in graded, (split, note.id, note.target)
