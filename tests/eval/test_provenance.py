"""Provenance in run.json: what graded a run, and resumes refused once that has changed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from physbench_gym.eval.provenance import ProvenanceError, compute_provenance
from physbench_gym.eval.runner import EvalConfig, run_eval
from physbench_gym.tasks.registry import spec_paths
from tests.eval.conftest import physbench

TASK = "thyroid_medication_management"


def test_run_json_records_version_hashes_and_grader_mode(tmp_path: Path) -> None:
    run_eval(EvalConfig(tasks=(TASK,), k=1), tmp_path / "run", progress=None)
    provenance = json.loads((tmp_path / "run" / "run.json").read_text())["provenance"]
    assert provenance["version"] == "0.1.0" and provenance["grader_mode"] == "deterministic"
    hashes = provenance["hashes"]
    spec = spec_paths()[TASK]
    label = f"task_specs/{spec.parent.name}/{spec.name}"
    assert hashes[label] == hashlib.sha256(spec.read_bytes()).hexdigest()
    assert [k for k in hashes if k.startswith("task_specs/")] == [label]
    assert "graders/common.py" in hashes and "grading/notes.py" in hashes
    assert "terminology/loinc.tsv" in hashes
    judged = compute_provenance([TASK], "gpt-judge")
    assert judged["grader_mode"] == "judge:gpt-judge" and judged["hashes"] == hashes


def test_resuming_a_run_graded_by_changed_files_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_eval(EvalConfig(tasks=(TASK,), k=1), out, progress=None)
    config = json.loads((out / "run.json").read_text())
    config["provenance"]["hashes"]["graders/common.py"] = "0" * 64
    (out / "run.json").write_text(json.dumps(config))
    with pytest.raises(ProvenanceError, match=r"graders/common.py changed"):
        run_eval(EvalConfig(tasks=(TASK,), k=2), out, progress=None)
    result = physbench("eval", "--tasks", TASK, "--k", "2", "--out", str(out), check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"physbench eval: cannot resume {out}: its results were graded by other code or data "
        "(graders/common.py changed); results of different graders never mix, use another "
        "--out to start a new run"]
    assert len((out / "results.jsonl").read_text().splitlines()) == 1


def test_a_resume_may_add_tasks_and_keeps_every_hash(tmp_path: Path) -> None:
    out = tmp_path / "run"
    other = "incidental_pulmonary_findings"
    run_eval(EvalConfig(tasks=(TASK,), k=1), out, progress=None)
    more = run_eval(EvalConfig(tasks=(TASK, other), k=1), out, progress=None)
    assert (more.ran, more.skipped) == (1, 1)
    hashes = json.loads((out / "run.json").read_text())["provenance"]["hashes"]
    assert sorted(k.rsplit("/", 1)[-1] for k in hashes if k.startswith("task_specs/")) == [
        f"{other}.yaml", f"{TASK}.yaml"]
