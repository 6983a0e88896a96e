"""``physbench eval --agent oracle`` end to end, the report, its rebuild and the exports."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from physbench_gym.eval.store import read_results
from physbench_gym.tasks.registry import task_ids
from physbench_gym.tools.base import get_toolset
from tests.eval.conftest import physbench

OracleRun = tuple[Path, subprocess.CompletedProcess]


def test_oracle_solves_every_task_on_every_sample(oracle_run: OracleRun) -> None:
    out, result = oracle_run
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tasks"] == len(task_ids()) and summary["episodes"] == 3 * len(task_ids())
    for key in ("pass_at_k", "pass_hat_k"):
        assert [entry["value"] for entry in summary[key].values()] == [1.0, 1.0, 1.0]
    assert summary["pass_at_k"]["3"]["value"] == summary["pass_hat_k"]["3"]["value"] == 1.0
    assert summary["infra_errors"] == 0 and summary["mean_score"]["value"] == 1.0
    assert "pass@3" in result.stdout and "pass^3" in result.stdout
    assert re.search(r"pass@1\s+100\.0%", result.stdout)


def test_results_hold_every_episode_once_with_its_checkpoints(oracle_run: OracleRun) -> None:
    out, _ = oracle_run
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    keys = [(r["task_id"], r["sample"]) for r in lines]
    assert sorted(keys) == sorted((t, s) for t in task_ids() for s in range(3))
    for record in lines:
        assert record["status"] == "ok" and record["termination"] == "finish"
        assert record["tool_calls"] == record["steps"] - 1
        assert record["checkpoints"] and all(
            {"passed", "capability", "grader", "reason"} <= c.keys()
            for c in record["checkpoints"].values())
        events = (out / record["trajectory"]).read_text().splitlines()
        assert len(events) == record["steps"] + 1
    seeds = {(r["task_id"], r["sample"]): r["seed"] for r in lines}
    assert len(set(seeds.values())) == len(seeds)


def test_report_is_self_contained_and_draws_the_charts(oracle_run: OracleRun) -> None:
    out, _ = oracle_run
    html = (out / "report.html").read_text()
    for title in ("Success by specialty group", "Success by task type",
                  "Checkpoint pass rate by capability", "pass@k and pass^k vs k",
                  "Trajectory viewer", "episodes-data"):
        assert title in html
    assert html.count("<svg") == 4
    assert "<script src" not in html and "<link" not in html
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", html.split("episodes-data")[0])
    embedded = html.split('id="episodes-data">')[1].split("</script>")[0]
    episodes = json.loads(embedded)
    assert {e["task_id"] for e in episodes} == set(task_ids())
    assert all(e["steps"] and e["brief"] for e in episodes)


def test_report_is_rebuilt_from_results(oracle_run: OracleRun, tmp_path: Path) -> None:
    source, _ = oracle_run
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("results.jsonl", "run.json"):
        (copy / name).write_bytes((source / name).read_bytes())
    (copy / "trajectories").symlink_to(source / "trajectories")
    result = physbench("report", str(copy))
    rebuilt = json.loads((copy / "summary.json").read_text())
    original = json.loads((source / "summary.json").read_text())
    for summary in (rebuilt, original):
        summary.pop("generated_at")
    assert rebuilt == original
    assert "Trajectory viewer" in (copy / "report.html").read_text()
    assert "pass@1" in result.stdout
    missing = physbench("report", str(tmp_path / "nowhere"), check=False)
    assert missing.returncode == 2 and "not an evaluation run directory" in missing.stderr


def test_openai_export_pairs_every_tool_call_with_its_response(oracle_run: OracleRun,
                                                               tmp_path: Path) -> None:
    out, _ = oracle_run
    target = tmp_path / "sft.jsonl"
    physbench("export", str(out), "--format", "openai", "--out", str(target))
    names = {schema["function"]["name"] for schema in get_toolset("physicianbench").schemas()}
    lines = target.read_text().splitlines()
    assert len(lines) == len(read_results(out))
    for line in lines:
        example = json.loads(line)
        assert set(example) == {"messages", "tools"}
        assert {tool["function"]["name"] for tool in example["tools"]} == names
        messages = example["messages"]
        assert [m["role"] for m in messages[:2]] == ["system", "user"]
        assert "E-consult question" in messages[1]["content"]
        for call_message, answer in zip(messages[2::2], messages[3::2], strict=True):
            assert call_message["role"] == "assistant" and answer["role"] == "tool"
            (call,) = call_message["tool_calls"]
            assert call["type"] == "function" and call["function"]["name"] in names
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
            assert answer["tool_call_id"] == call["id"] and isinstance(answer["content"], str)
        ids = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
        assert len(ids) == len(set(ids))
        assert messages[-2]["tool_calls"][0]["function"]["name"] == "finish"


def test_trajectory_export_is_the_event_log(oracle_run: OracleRun, tmp_path: Path) -> None:
    out, _ = oracle_run
    target = tmp_path / "events.jsonl"
    physbench("export", str(out), "--format", "trajectory", "--out", str(target))
    events = [json.loads(line) for line in target.read_text().splitlines()]
    results = read_results(out)
    assert sum(e["type"] == "result" for e in events) == len(results)
    assert sum(e["type"] == "reset" for e in events) == len(results)
    steps = [e for e in events if e["type"] == "step"]
    assert len(steps) == sum(r["steps"] for r in results.values())
    assert all({"task_id", "sample", "action", "observation", "reward"} <= e.keys()
               for e in steps)


def test_export_sft_writes_verified_demonstrations(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from physbench_gym.cli import main

    target = tmp_path / "sft.jsonl"
    code = main(["export-sft", "--tasks", "thyroid_medication_management", "--variants", "2",
                 "--out", str(target)])
    assert code == 0 and "wrote 2 demonstrations" in capsys.readouterr().out
    for line in target.read_text().splitlines():
        assert json.loads(line)["messages"][0]["role"] == "system"


def test_export_sft_explains_a_missing_exporter(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from physbench_gym.cli import main

    monkeypatch.setitem(sys.modules, "physbench_gym.integrations.sft", None)
    code = main(["export-sft", "--out", str(tmp_path / "x.jsonl")])
    assert code == 2 and "SFT exporter is not available" in capsys.readouterr().err
