"""`physbench task render` and `physbench calibrate`: the case a corpus author sees, and the
corpus graded deterministically or by an LLM judge over the chat-completions wire protocol."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from physbench_gym.eval.calibrate import calibrate, note_checkpoints
from physbench_gym.grading.judge import LLMJudge
from physbench_gym.tasks.corpus import load_corpus
from physbench_gym.tasks.registry import get_instance
from tests.stub_llm_server import Reply, StubLLMServer, assistant_text

TASK = "thyroid_medication_management"
BASELINE = json.loads((Path(__file__).parents[1] / "grading" / "calibration_baseline.json")
                      .read_text())


def physbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "physbench_gym.cli", *args],
                          capture_output=True, text=True, timeout=600)


def test_render_shows_the_case_but_not_the_grader_or_the_reference_note():
    done = physbench("task", "render", TASK)
    assert done.returncode == 0, done.stderr
    instance = get_instance(TASK)
    assert instance.patient_id in done.stdout or instance.values["mrn"] in done.stdout
    assert "note_decision" not in done.stdout and "note_value" not in done.stdout
    reference = [line for line in instance.oracle.note.splitlines() if len(line) > 40]
    assert reference and not any(line in done.stdout for line in reference)


def test_render_rejects_a_bad_variant_and_an_unknown_task():
    bad_variant = physbench("task", "render", TASK, "--variant", "first")
    assert bad_variant.returncode == 2 and "--variant" in bad_variant.stderr
    unknown = physbench("task", "render", "no_such_task")
    assert unknown.returncode == 2 and "no_such_task" in unknown.stderr


def test_calibrate_cli_reports_rates_and_writes_the_baseline(tmp_path):
    baseline = tmp_path / "baseline.json"
    done = physbench("calibrate", "--tasks", TASK, "--write-baseline", str(baseline))
    assert done.returncode == 0, done.stderr
    assert "== dev ==" in done.stdout and "FN%" in done.stdout
    assert json.loads(baseline.read_text()) == {TASK: BASELINE[TASK]}


def test_calibrate_cli_rejects_an_unknown_task():
    done = physbench("calibrate", "--tasks", "no_such_task")
    assert done.returncode == 2 and "no_such_task" in done.stderr


def test_a_judge_that_fails_everything_makes_every_correct_note_a_false_negative(tmp_path):
    corpus = load_corpus(TASK, "dev")
    assert corpus is not None
    requests = len(corpus.notes) * len(note_checkpoints(TASK))
    verdict = Reply(assistant_text('{"verdict": "fail", "reason": "stub judge"}'))
    with StubLLMServer([verdict] * requests) as stub:
        judge = LLMJudge(model="stub-judge", base_url=stub.base_url, api_key_env=None,
                         cache_dir=tmp_path, timeout=10.0, max_retries=0)
        report = calibrate([TASK], ["dev"], judge)
        judge.close()
        assert stub.requests and all(r["model"] == "stub-judge" for r in stub.requests)
    tally = report.tally("dev")
    assert tally.correct and tally.false_negatives == tally.correct
    assert tally.false_positives == 0
    assert all(reason == "stub judge" for v in report.verdicts for reason in v.failed.values())
