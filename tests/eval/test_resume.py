"""Never lose a result: a run killed with SIGKILL resumes to exactly the uninterrupted run.

The uninterrupted reference runs with two worker processes, so the test also shows that
parallel and sequential runs produce the same episodes.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

from tests.eval.conftest import physbench, start_and_kill

TASKS = "thyroid_medication_management,incidental_pulmonary_findings"
ARGS = ("--agent", "tests.eval.agents:SlowOracle", "--tasks", TASKS, "--k", "12",
        "--seed", "7", "--workers", "1")
EPISODES = 24


def _lines(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_sigkill_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    killed = tmp_path / "killed"
    assert start_and_kill(["eval", *ARGS], killed, after_lines=3) == -signal.SIGKILL
    written = _lines(killed)
    assert 3 <= len(written) < EPISODES
    with (killed / "results.jsonl").open("ab") as handle:
        handle.write(b'{"task_id": "thyroid_medication_management", "sam')
    resumed = physbench("eval", *ARGS, "--out", str(killed))
    assert f"resuming: {len(written)}/{EPISODES}" in resumed.stderr
    whole = tmp_path / "whole"
    physbench("eval", *ARGS[:-1], "2", "--out", str(whole))

    final, reference = _lines(killed), _lines(whole)
    keys = [(r["task_id"], r["sample"]) for r in final]
    assert len(keys) == len(set(keys)) == EPISODES
    assert set(keys) == {(r["task_id"], r["sample"]) for r in reference}
    assert final[: len(written)] == written

    def essence(records: list[dict]) -> dict:
        return {(r["task_id"], r["sample"]): (r["seed"], r["success"], r["score"], r["steps"],
                                              r["checkpoints"]) for r in records}

    assert essence(final) == essence(reference)
    assert json.loads((killed / "summary.json").read_text())["episodes"] == EPISODES
