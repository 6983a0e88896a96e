"""Calibration: how often the note graders fail correct notes and pass wrong ones.

Every corpus note is graded the way an episode grades it: the reference solution's orders are
placed in a fresh episode, the note is written, the episode finishes. A correct note is a false
negative when any note checkpoint fails; a wrong note is a false positive when the checkpoint it
targets passes. Rates are reported per task, per checkpoint, per specialty group and overall.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from physbench_gym.env import PhysicianBenchEnv
from physbench_gym.grading.core import FILE, Judge
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.corpus import SPLITS, CorpusNote, load_corpus
from physbench_gym.tasks.registry import load_spec, task_ids


@dataclass(frozen=True)
class NoteVerdict:
    """How one corpus note was graded."""

    task: str
    split: str
    note: CorpusNote
    failed: dict[str, str]
    """Note checkpoints that failed -> reason."""

    @property
    def error(self) -> bool:
        """A false negative (correct note failed) or false positive (target passed)."""
        if self.note.kind == "correct":
            return bool(self.failed)
        return self.note.target not in self.failed


@dataclass
class Tally:
    """Counts of correct and wrong notes and of grading errors on them."""

    correct: int = 0
    false_negatives: int = 0
    wrong: int = 0
    false_positives: int = 0

    def add(self, verdict: NoteVerdict) -> None:
        if verdict.note.kind == "correct":
            self.correct += 1
            self.false_negatives += verdict.error
        else:
            self.wrong += 1
            self.false_positives += verdict.error

    @property
    def fn_rate(self) -> float:
        return self.false_negatives / self.correct if self.correct else 0.0

    @property
    def fp_rate(self) -> float:
        return self.false_positives / self.wrong if self.wrong else 0.0


@dataclass
class CalibrationReport:
    """Verdicts of every graded note and their tallies."""

    verdicts: list[NoteVerdict] = field(default_factory=list)

    def tally(self, split: str | None = None, task: str | None = None,
              group: str | None = None) -> Tally:
        counts = Tally()
        for verdict in self.verdicts:
            if split and verdict.split != split or task and verdict.task != task:
                continue
            if group and load_spec(verdict.task).specialty_group != group:
                continue
            counts.add(verdict)
        return counts

    def checkpoint_errors(self, split: str | None = None) -> dict[tuple[str, str], list[int]]:
        """(task, checkpoint) -> [false negatives, correct notes, false positives, wrong]."""
        table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for verdict in self.verdicts:
            if split and verdict.split != split:
                continue
            if verdict.note.kind == "correct":
                for checkpoint in note_checkpoints(verdict.task):
                    row = table[(verdict.task, checkpoint)]
                    row[1] += 1
                    row[0] += checkpoint in verdict.failed
            else:
                row = table[(verdict.task, verdict.note.target or "")]
                row[3] += 1
                row[2] += verdict.error
        return dict(table)


    def misgraded(self) -> dict[str, list[str]]:
        """Task -> sorted ids of its misgraded notes ('split/note-id'): the baseline that
        tests pin, so a change to the reader shows which notes it fixed or broke."""
        table: dict[str, list[str]] = {}
        for verdict in self.verdicts:
            table.setdefault(verdict.task, [])
            if verdict.error:
                table[verdict.task].append(f"{verdict.split}/{verdict.note.id}")
        return {task: sorted(ids) for task, ids in sorted(table.items())}


def note_checkpoints(task_id: str) -> list[str]:
    """Ids of the checkpoints of a task that read the note: those graded from the note alone,
    and those that read it beside orders (a must-not both ordered and written), whose order
    side the reference orders a calibration places already satisfy."""
    return [c.id for c in instance_checkpoints(task_id, None) if FILE in c.grader.triggers]


def calibrate(tasks: Sequence[str] | None = None, splits: Iterable[str] = SPLITS,
              judge: Judge | None = None) -> CalibrationReport:
    """Grade every corpus note of the tasks (every task with a corpus by default)."""
    report = CalibrationReport()
    env = gym.make("PhysicianBench-v0", judge=judge).unwrapped
    assert isinstance(env, PhysicianBenchEnv)
    try:
        for task_id in tasks or task_ids():
            for split in splits:
                corpus = load_corpus(task_id, split)
                if corpus is None:
                    continue
                for note in corpus.notes:
                    report.verdicts.append(_grade(env, task_id, split, note))
    finally:
        env.close()
    return report


def _grade(env: PhysicianBenchEnv, task_id: str, split: str, note: CorpusNote) -> NoteVerdict:
    env.reset(seed=0, options={"task_id": task_id, "variant": "canonical"})
    info: dict[str, Any] = {}
    for action in env.oracle_actions():
        if action["tool"] == "write_file":
            action = {"tool": "write_file", "arguments": {
                "file_path": action["arguments"]["file_path"], "content": note.text}}
        _, _, _, _, info = env.step(action)
    graded = set(note_checkpoints(task_id))
    failed = {cid: state["reason"] for cid, state in info["checkpoints"].items()
              if cid in graded and not state["passed"]}
    return NoteVerdict(task_id, split, note, failed)


def format_report(report: CalibrationReport, verbose: bool = False) -> str:
    """The calibration as text: per task, per group and overall, for each split."""
    lines = []
    splits = [s for s in SPLITS if any(v.split == s for v in report.verdicts)]
    tasks = sorted({v.task for v in report.verdicts})
    header = f"{'':44} {'correct':>8} {'FN':>4} {'FN%':>6}   {'wrong':>6} {'FP':>4} {'FP%':>6}"
    for split in splits:
        lines += [f"== {split} ==", header]
        for task in tasks:
            lines.append(_row(task, report.tally(split, task=task)))
        for group in sorted({load_spec(t).specialty_group for t in tasks}):
            lines.append(_row(f"[{group}]", report.tally(split, group=group)))
        lines.append(_row("overall", report.tally(split)))
        if verbose:
            lines.append("")
            for (task, checkpoint), (fn, n, fp, m) in sorted(
                    report.checkpoint_errors(split).items()):
                if fn or fp:
                    lines.append(f"  {task}.{checkpoint}: FN {fn}/{n}, FP {fp}/{m}")
            for verdict in report.verdicts:
                if verdict.split == split and verdict.error:
                    kind = "FN" if verdict.note.kind == "correct" else "FP"
                    detail = ("; ".join(f"{k}: {v[:160]}" for k, v in verdict.failed.items())
                              if kind == "FN" else f"{verdict.note.target} passed")
                    lines.append(f"  {kind} {verdict.task}/{verdict.note.id}: {detail}")
        lines.append("")
    lines.append(_row("all splits", report.tally()))
    return "\n".join(lines)


def _row(name: str, tally: Tally) -> str:
    return (f"{name[:44]:44} {tally.correct:8d} {tally.false_negatives:4d} "
            f"{100 * tally.fn_rate:5.1f}%   {tally.wrong:6d} {tally.false_positives:4d} "
            f"{100 * tally.fp_rate:5.1f}%")
