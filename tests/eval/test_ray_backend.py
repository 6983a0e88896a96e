"""The Ray backend of ``physbench eval`` on a real local Ray cluster (one per module).

The same episodes and scores as the local backend; a worker process killed mid-run loses and
duplicates no episode; resumes; workers refuse to run other files than the driver; clear
one-line errors for a bad address and a missing Ray.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from physbench_gym.eval.provenance import ProvenanceError, compute_provenance
from physbench_gym.eval.runner import EvalConfig, episode_seed, run_eval
from tests.eval.agents import FAIL_SEEDS_ENV, MARKER_DIR_ENV
from tests.eval.conftest import REPO, physbench, start_and_kill

ray = pytest.importorskip("ray")

TASKS = ("thyroid_medication_management", "incidental_pulmonary_findings")
KILLED_SEED = episode_seed(0, TASKS[1], 1)


@pytest.fixture(scope="module")
def markers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local two-CPU Ray cluster for this module; its workers see the kill switch."""
    folder = tmp_path_factory.mktemp("markers")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="error", log_to_driver=False,
             runtime_env={"env_vars": {FAIL_SEEDS_ENV: str(KILLED_SEED),
                                       MARKER_DIR_ENV: str(folder)}})
    yield folder
    ray.shutdown()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local") / "run"
    run_eval(EvalConfig(tasks=TASKS, k=3), out, progress=None)
    return out


def _lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def _essence(out: Path) -> list[str]:
    keys = ("task_id", "sample", "seed", "variant_id", "status", "success", "score",
            "total_reward", "steps", "tool_calls", "checkpoints", "safety", "trajectory")
    return sorted(json.dumps({k: r.get(k) for k in keys}, sort_keys=True) for r in _lines(out))


def _summary(out: Path) -> dict[str, Any]:
    """summary.json without the run settings, its date and the episodes' wall times."""
    summary = json.loads((out / "summary.json").read_text())
    del summary["run"], summary["generated_at"]
    for task in summary["per_task"].values():
        del task["mean_wall_time"]
    return summary


def test_ray_backend_gives_the_local_backends_results(markers: Path, local_run: Path,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "ray"
    outcome = run_eval(EvalConfig(tasks=TASKS, k=3, agent="oracle"), out, workers=2,
                       backend="ray", progress=None)
    assert (outcome.ran, outcome.infra_errors) == (6, 0)
    assert _essence(out) == _essence(local_run)
    assert _summary(out) == _summary(local_run)
    assert json.loads((out / "run.json").read_text())["provenance"] == json.loads(
        (local_run / "run.json").read_text())["provenance"]
    assert ray.is_initialized()


def test_a_killed_worker_loses_and_duplicates_no_episode(markers: Path, local_run: Path,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "ray"
    outcome = run_eval(EvalConfig(tasks=TASKS, k=3, agent="tests.eval.agents:KillOnceOracle"),
                       out, workers=2, backend="ray", progress=None)
    killed = int((markers / f"killed-{KILLED_SEED}").read_text())
    assert killed != os.getpid()
    records = _lines(out)
    keys = [(r["task_id"], r["sample"]) for r in records]
    assert len(keys) == len(set(keys)) == 6 and outcome.infra_errors == 0
    assert all(r["status"] == "ok" and r["success"] for r in records)
    assert _essence(out) == _essence(local_run)


def test_a_ray_run_resumes_with_only_the_missing_episodes(markers: Path, tmp_path: Path) -> None:
    out = tmp_path / "ray"
    run_eval(EvalConfig(tasks=TASKS[:1], k=1), out, workers=1, backend="ray", progress=None)
    more = run_eval(EvalConfig(tasks=TASKS[:1], k=2), out, workers=2, backend="ray",
                    progress=None)
    assert (more.ran, more.skipped) == (1, 1)
    assert [r["sample"] for r in _lines(out)] == [0, 1]


def test_a_driver_killed_mid_run_resumes_to_the_local_results(markers: Path, local_run: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "killed"
    args = ["eval", "--backend", "ray", "--address", "auto", "--workers", "1", "--agent",
            "tests.eval.agents:SlowOracle", "--tasks", ",".join(TASKS), "--k", "3"]
    assert start_and_kill(args, out, after_lines=2) == -signal.SIGKILL
    written = _lines(out)
    assert 2 <= len(written) < 6
    resumed = run_eval(EvalConfig(tasks=TASKS, k=3, agent="tests.eval.agents:SlowOracle"), out,
                       workers=2, backend="ray", progress=None)
    assert (resumed.ran, resumed.skipped) == (6 - len(written), len(written))
    assert _lines(out)[:len(written)] == written
    keys = [(r["task_id"], r["sample"]) for r in _lines(out)]
    assert len(keys) == len(set(keys)) == 6
    assert [json.loads(line)["score"] for line in _essence(out)] == [
        json.loads(line)["score"] for line in _essence(local_run)]


def test_a_worker_with_other_files_than_the_driver_refuses_to_run(markers: Path,
                                                                  tmp_path: Path) -> None:
    from physbench_gym.eval.ray_backend import execute_on_ray

    provenance = compute_provenance(TASKS[:1], None)
    provenance["hashes"]["graders/common.py"] = "0" * 64
    settings = {**EvalConfig(tasks=TASKS[:1], background_patients=500).settings(),
                "out_dir": str(tmp_path)}
    episodes = execute_on_ray(settings, [(TASKS[0], 0, 1)], 1, address=None,
                              provenance=provenance)
    with pytest.raises(ProvenanceError, match=r"the Ray worker on .* runs other code or data "
                                              r"than the driver \(graders/common.py changed\)"):
        list(episodes)


def _one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    (line,) = result.stderr.strip().splitlines()
    return line


def test_a_bad_address_is_one_clear_line(tmp_path: Path) -> None:
    for address in ("127.0.0.1:9", "ray://127.0.0.1:9"):
        line = _one_line_error(physbench("eval", "--backend", "ray", "--address", address,
                                         "--tasks", TASKS[0], "--out", str(tmp_path / "a"),
                                         "--quiet", check=False))
        assert line == (f"physbench eval: cannot reach the Ray cluster at {address!r}: "
                        "Connection refused")


def test_without_ray_installed_the_backend_says_how_to_get_it(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['ray'] = None; from physbench_gym.cli import main; "
            f"sys.exit(main(['eval', '--backend', 'ray', '--tasks', {TASKS[0]!r}, "
            f"'--out', {str(tmp_path / 'b')!r}, '--quiet']))")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                            text=True, timeout=300)
    assert _one_line_error(result) == ("physbench eval: the Ray backend needs Ray: "
                                       "pip install 'physbench-gym[ray]'")
