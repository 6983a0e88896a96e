"""Note grading cost: reading a note, grading every note checkpoint, the whole calibration.

Run: python benchmarks/note_reader.py   (prints a table; nothing is asserted)

A note is read once per version (the reader caches by text and date), so the first read is
what an episode pays when the policy writes the note; later checkpoints reuse it.
"""

from __future__ import annotations

import statistics
import time

from physbench_gym.eval.calibrate import calibrate
from physbench_gym.grading.reader import read_note
from physbench_gym.tasks.corpus import SPLITS, load_corpus
from physbench_gym.tasks.registry import get_instance, task_ids


def corpus_notes() -> list[tuple[str, str]]:
    notes = []
    for task_id in task_ids():
        for split in SPLITS:
            corpus = load_corpus(task_id, split)
            notes += [(task_id, note.text) for note in corpus.notes] if corpus else []
    return notes


def main() -> None:
    notes = corpus_notes()
    read_note("Warm-up: start apixaban 5 mg BID.")  # builds the pipeline once
    cold = []
    for task_id, text in notes:
        today = get_instance(task_id).values["now"].date()
        start = time.perf_counter()
        read_note(text + " ", today)  # a text not seen before: no cache hit
        cold.append(time.perf_counter() - start)
    sizes = [len(text) for _, text in notes]
    start = time.perf_counter()
    report = calibrate()
    total = time.perf_counter() - start
    rows = [
        ("corpus notes / median length (chars)", f"{len(notes)} / {statistics.median(sizes):.0f}"),
        ("read one note, median / p90 (ms)",
         f"{1000 * statistics.median(cold):.1f} / "
         f"{1000 * statistics.quantiles(cold, n=10)[-1]:.1f}"),
        ("calibrate: every corpus note graded as an episode (s)", f"{total:.1f}"),
        ("per graded note, episode included (ms)", f"{1000 * total / len(report.verdicts):.0f}"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
