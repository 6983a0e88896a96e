"""The runner in-process: infrastructure errors, resuming, settings, user and LLM agents."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from physbench_gym.errors import PhysBenchError
from physbench_gym.eval.runner import EvalConfig, episode_seed, run_eval, select_tasks
from tests.eval.agents import FAIL_SEEDS_ENV, MARKER_DIR_ENV

TASK = "thyroid_medication_management"


def _lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_infrastructure_errors_are_recorded_excluded_reported_and_retried(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = episode_seed(0, TASK, 1)
    monkeypatch.setenv(FAIL_SEEDS_ENV, str(failing))
    monkeypatch.setenv(MARKER_DIR_ENV, str(tmp_path))
    config = EvalConfig(agent="tests.eval.agents:FlakyOracle", tasks=(TASK,), k=3)
    out = tmp_path / "run"
    first = run_eval(config, out, progress=None)
    assert (first.ran, first.infra_errors) == (3, 1)
    (error,) = [r for r in _lines(out) if r["status"] != "ok"]
    assert (error["sample"], error["seed"], error["termination"]) == (1, failing, "infra_error")
    assert error["error"] == "AgentError: endpoint unreachable: connection refused"
    assert error["steps"] == 2 and error["tokens"]["completion_tokens"] == 21
    assert first.summary["episodes"] == 2 and first.summary["infra_errors"] == 1
    assert first.summary["pass_at_k"]["2"]["value"] == 1.0 and "3" not in first.summary["pass_at_k"]
    assert "endpoint unreachable" in (out / "report.html").read_text()

    second = run_eval(config, out, progress=None)
    assert (second.ran, second.skipped, second.infra_errors) == (1, 2, 0)
    lines = _lines(out)
    assert len(lines) == 4 and lines[-1]["sample"] == 1 and lines[-1]["status"] == "ok"
    assert second.summary["infra_errors"] == 0 and second.summary["episodes"] == 3
    assert second.summary["pass_hat_k"]["3"]["value"] == 1.0
    assert second.summary["mean_tokens_per_task"] > 0


def test_resuming_with_other_settings_is_refused_and_more_samples_are_added(
        tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_eval(EvalConfig(tasks=(TASK,), k=1), out, progress=None)
    with pytest.raises(PhysBenchError, match="other settings .*seed"):
        run_eval(EvalConfig(tasks=(TASK,), k=1, seed=5), out, progress=None)
    more = run_eval(EvalConfig(tasks=(TASK,), k=3), out, progress=None)
    assert (more.ran, more.skipped) == (2, 1)
    assert [r["sample"] for r in _lines(out)] == [0, 1, 2]


def test_seeded_variants_are_reproducible(tmp_path: Path) -> None:
    config = EvalConfig(tasks=(TASK,), k=2, variant="seeded", seed=11)
    first = _lines(run_eval(config, tmp_path / "a", progress=None).out_dir)
    second = _lines(run_eval(config, tmp_path / "b", progress=None).out_dir)
    assert [r["variant_id"] for r in first] == [r["variant_id"] for r in second]
    assert first[0]["variant_id"] != first[1]["variant_id"]
    assert all(r["success"] for r in first)


def test_max_steps_truncates_episodes(tmp_path: Path) -> None:
    outcome = run_eval(EvalConfig(tasks=(TASK,), k=1, max_steps=3), tmp_path, progress=None)
    (record,) = _lines(tmp_path)
    assert (record["steps"], record["termination"], record["success"]) == (3, "max_steps", False)
    assert outcome.summary["terminations"] == {"max_steps": 1}


def test_filters_and_bad_settings_raise_clear_errors() -> None:
    assert TASK in select_tasks(groups=["endocrinology"], task_types=["Medication Prescribing"])
    with pytest.raises(PhysBenchError, match="no task has specialty_group"):
        select_tasks(groups=["astrology"])
    with pytest.raises(PhysBenchError, match="unknown agent"):
        run_eval(EvalConfig(agent="wizard", tasks=(TASK,)), "/nonexistent", progress=None)
    with pytest.raises(PhysBenchError, match="--k"):
        run_eval(EvalConfig(tasks=(TASK,), k=0), "/nonexistent", progress=None)


class _ScriptedEndpoint(BaseHTTPRequestHandler):
    """Chat completions: 401 while ``refuse`` is set, else a patient search, then finish."""

    refuse = True
    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        if type(self).refuse:
            self._send(401, {"error": {"message": "invalid api key"}})
            return
        searched = any(m.get("role") == "tool" for m in body["messages"])
        name, arguments = (("finish", {"summary": "done"}) if searched else
                           ("fhir_patient_search_demographics", {"identifier": "94125266"}))
        call = {"id": f"call_{len(body['messages'])}", "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)}}
        self._send(200, {"id": "c", "object": "chat.completion", "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                             "role": "assistant", "content": None, "tool_calls": [call]}}],
                         "usage": {"prompt_tokens": 50, "completion_tokens": 5,
                                   "total_tokens": 55}})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _ScriptedEndpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_openai_agent_endpoint_failure_is_retried_and_tokens_are_counted(
        endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHYSBENCH_TEST_KEY", "secret")
    config = EvalConfig(agent="openai", model="scripted", base_url=endpoint,
                        api_key_env="PHYSBENCH_TEST_KEY", tasks=(TASK,), k=1)
    out = tmp_path / "run"
    _ScriptedEndpoint.refuse = True
    first = run_eval(config, out, progress=None)
    (refused,) = _lines(out)
    assert first.infra_errors == 1 and refused["status"] == "infra_error"
    assert "401" in refused["error"] and refused["error"].startswith("AgentError")

    _ScriptedEndpoint.refuse = False
    second = run_eval(config, out, progress=None)
    record = _lines(out)[-1]
    assert second.ran == 1 and record["status"] == "ok" and record["termination"] == "finish"
    assert record["tokens"] == {"prompt_tokens": 100, "completion_tokens": 10}
    assert record["tool_calls"] == 1 and record["success"] is False
    assert _ScriptedEndpoint.requests[-1]["seed"] == episode_seed(0, TASK, 0)
    assert second.summary["mean_tokens_per_task"] == 110


def test_the_judge_is_built_from_the_settings_and_given_to_the_env(tmp_path: Path) -> None:
    from physbench_gym.eval import runner

    settings = {**EvalConfig(tasks=(TASK,), judge_model="judge-1",
                             judge_url="http://127.0.0.1:9/v1",
                             background_patients=20).settings(), "out_dir": str(tmp_path)}
    runner.init_worker(settings)
    judge = runner._WORKER["env"].unwrapped.judge
    assert judge.name == "llm:judge-1" and judge.cache_dir == tmp_path / "judge_cache"
    runner.init_worker({**settings, "judge_model": None})
    assert runner._WORKER["env"].unwrapped.judge is None
