"""Notes for the branches of seeded variants, written from the rendered variant by a clinician
who has not read the graders: correct notes pass every note checkpoint of that variant, and
each wrong note fails the checkpoint it targets.

Files: ``tests/tasks/data/<task_id>.seed-<n>.yaml`` (task, variant, notes as in the corpus);
a note the reader still misgrades carries ``known_gap: <why>`` and is a strict expected failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.tasks.helpers import grade_note
from tests.tasks.helpers_cardiology import grade_note_checks

DATA = Path(__file__).parent / "data"


def _cases(kind: str) -> list:
    cases = []
    for path in sorted(DATA.glob("*.seed-*.yaml")):
        corpus = yaml.safe_load(path.read_text(encoding="utf-8"))
        for note in corpus["notes"]:
            if note["kind"] == kind:
                gap = note.get("known_gap")
                marks = [pytest.mark.xfail(strict=True, reason=f"known gap: {gap}")] if gap else []
                cases.append(pytest.param(corpus["task"], int(corpus["variant"]), note,
                                          id=f"{path.stem}-{note['id']}", marks=marks))
    return cases


@pytest.mark.parametrize(("task_id", "variant", "note"), _cases("correct"))
def test_correct_branch_notes_pass_every_note_checkpoint(task_id, variant, note):
    verdicts = grade_note(task_id, note["text"], variant)
    assert verdicts and all(verdicts.values()), verdicts


@pytest.mark.parametrize(("task_id", "variant", "note"), _cases("wrong"))
def test_wrong_branch_notes_fail_their_target(task_id, variant, note):
    """A target graded from the note must fail; a wrong order written into the note (the
    target is an order checkpoint) must fail some note checkpoint."""
    target = note["target"]
    verdicts = grade_note(task_id, note["text"], variant)
    if target not in verdicts:
        verdicts = {**verdicts, **grade_note_checks(task_id, note["text"], {target}, variant)}
        if not verdicts[target]:
            verdicts.pop(target)  # an order checkpoint fails on an empty EHR: proves nothing
    assert verdicts and not all(verdicts.values()), (note["error"], verdicts)
