"""`physbench eval --agent mcp-client:<command>`: a real external MCP agent process per episode."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from physbench_gym.errors import PhysBenchError
from physbench_gym.eval.runner import EvalConfig, run_eval
from physbench_gym.eval.store import read_results, read_trajectory

TASK = "thyroid_medication_management"
AGENT = Path(__file__).resolve().parents[2] / "examples" / "mcp_oracle_agent.py"


def test_an_external_mcp_agent_gets_pass_at_k_on_the_instances_eval_runs(tmp_path):
    config = EvalConfig(agent=f"mcp-client:{sys.executable} {AGENT}", tasks=(TASK,), k=2,
                        variant="seeded", seed=3)
    outcome = run_eval(config, tmp_path / "mcp", progress=None)
    assert outcome.infra_errors == 0 and outcome.ran == 2
    assert outcome.summary["pass_at_k"]["2"]["value"] == 1.0
    records = read_results(tmp_path / "mcp")
    for sample in (0, 1):
        record = records[(TASK, sample)]
        assert record["success"] and record["agent"] == config.agent
        steps = [e for e in read_trajectory(tmp_path / "mcp", record) if e["type"] == "step"]
        assert steps[-1]["tool"] == "finish" and record["agent_exit"] == "exit code 0"
    in_process = run_eval(EvalConfig(agent="oracle", tasks=(TASK,), k=2, variant="seeded",
                                     seed=3), tmp_path / "oracle", progress=None)
    assert in_process.infra_errors == 0
    oracle = read_results(tmp_path / "oracle")
    assert {k: r["variant_id"] for k, r in records.items()} == \
        {k: r["variant_id"] for k, r in oracle.items()}


def test_an_agent_that_never_opens_the_episode_is_an_infrastructure_error(tmp_path):
    config = EvalConfig(agent=f"mcp-client:{sys.executable} -c pass", tasks=(TASK,))
    outcome = run_eval(config, tmp_path, progress=None)
    record = read_results(tmp_path)[(TASK, 0)]
    assert outcome.infra_errors == 1 and record["status"] == "infra_error"
    assert "ended no episode" in record["error"] and "exit code 0" in record["error"]


def test_an_empty_command_is_refused():
    with pytest.raises(PhysBenchError, match="needs a command"):
        run_eval(EvalConfig(agent="mcp-client:  ", tasks=(TASK,)), "unused", progress=None)
