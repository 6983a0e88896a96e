"""The example scripts run as written (subprocesses on the embedded EHR)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.integrations.sft import validate_sft_line
from physbench_gym.integrations.trl import PhysicianBenchToolEnv
from tests.stub_llm_server import Reply, StubLLMServer, assistant_tool_calls, tool_call

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TASK = "thyroid_medication_management"
ENV = {**os.environ, "PHYSBENCH_BACKGROUND_PATIENTS": "20"}


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True,
                          text=True, env=ENV, timeout=300)


def _load(script: str):
    spec = importlib.util.spec_from_file_location(script.removesuffix(".py"), EXAMPLES / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quickstart_runs_an_episode_and_prints_checkpoints():
    result = _run("quickstart.py", "--task", TASK)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "=== Task brief ===" in out and "E-consult question" in out
    assert "> fhir_patient_search_demographics" in out and "> finish" in out
    assert "=== Checkpoints ===" in out and "[PASS]" in out and "[fail]" in out
    assert "success False" in out
    assert "The oracle on the same task: score 1.000, success True" in out


def test_make_sft_dataset_writes_verified_lines(tmp_path):
    out = tmp_path / "sft.jsonl"
    result = _run("make_sft_dataset.py", "--tasks", TASK, "--variants", "2", "--seed", "1",
                  "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert f"wrote 2 verified demonstrations to {out}" in result.stdout
    assert "first one calls: fhir_patient_search_demographics" in result.stdout
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        validate_sft_line(json.loads(line))


def test_grpo_helpers_import_and_work_without_trl():
    grpo = _load("grpo_trl.py")
    rows = grpo.make_rows([TASK], 2, 0)
    assert [r["task_id"] for r in rows] == [TASK, TASK]
    args = grpo.parse_args(["--model", "m", "--num-generations", "8"])
    config = grpo.config_kwargs(args)
    assert config["num_generations"] == config["per_device_train_batch_size"] == 8
    assert grpo.check_rewards(rows[0]) == [1.0, 0.0]
    assert isinstance(grpo.environment_factory()(), PhysicianBenchToolEnv)


def test_grpo_example_dry_run_and_missing_trl_message():
    result = _run("grpo_trl.py", "--tasks", TASK, "--variants", "1", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "oracle reward 1.000, idle reward 0.000" in result.stdout
    if importlib.util.find_spec("trl") is None:
        result = _run("grpo_trl.py", "--model", "some/model", "--tasks", TASK)
        assert result.returncode == 1
        assert "pip install -U trl datasets" in result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_llm_agent_eval_fails_clearly_when_the_endpoint_is_unreachable():
    url = f"http://127.0.0.1:{_free_port()}/v1"
    result = _run("llm_agent_eval.py", "--base-url", url, "--model", "m", "--task", TASK,
                  "--max-retries", "0", "--timeout", "5")
    assert result.returncode == 2
    assert f"the model endpoint {url} could not be used" in result.stderr
    assert "Traceback" not in result.stderr


def test_llm_agent_eval_scores_a_model_over_the_wire():
    env = gym.make("PhysicianBench-v0")
    env.reset(options={"task_id": TASK})
    script = [Reply(assistant_tool_calls(tool_call(a["tool"], a["arguments"], f"c{i}")))
              for i, a in enumerate(env.unwrapped.oracle_actions())]
    with StubLLMServer(script) as stub:
        result = _run("llm_agent_eval.py", "--base-url", stub.base_url, "--model", "stub",
                      "--task", TASK, "--api-key-env", "")
    assert result.returncode == 0, result.stderr
    assert f"task {TASK} (canonical): score 1.000, success True" in result.stdout
    assert len(stub.requests) == len(script)
    assert stub.requests[0]["messages"][1]["content"].startswith("You are the consulting")
    assert {t["function"]["name"] for t in stub.requests[0]["tools"]} >= {"write_file", "finish"}


@pytest.mark.parametrize("script", ["quickstart.py", "llm_agent_eval.py", "grpo_trl.py",
                                    "make_sft_dataset.py"])
def test_examples_explain_their_usage(script):
    result = _run(script, "--help")
    assert result.returncode == 0 and "usage:" in result.stdout
