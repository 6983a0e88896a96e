"""SFT export: verified oracle demonstrations as OpenAI chat JSONL, and the line validator."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents.openai_chat import SYSTEM_PROMPT
from physbench_gym.errors import PhysBenchError, UnknownTaskError
from physbench_gym.integrations.sft import (
    SFTValidationError,
    export_sft,
    oracle_conversation,
    schema_errors,
    validate_sft_line,
)
from physbench_gym.integrations.trl import variant_seeds

TASK = "thyroid_medication_management"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    path = tmp_path_factory.mktemp("sft") / "demos.jsonl"
    count = export_sft([TASK], 2, path, seed=5)
    return count, path


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_export_writes_one_valid_line_per_variant(exported):
    count, path = exported
    lines = _lines(path)
    assert count == len(lines) == 2
    env = gym.make("PhysicianBench-v0")
    for line in lines:
        validate_sft_line(line)
        assert set(line) == {"messages", "tools"}
        assert line["tools"] == env.unwrapped.tool_schemas()
        messages = line["messages"]
        assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
        assert "E-consult question" in messages[1]["content"]
        calls = [m["tool_calls"][0] for m in messages if m.get("tool_calls")]
        assert calls[-2]["function"]["name"] == "write_file"
        assert calls[-1]["function"]["name"] == "finish"
        assert messages[-1]["role"] == "assistant" and messages[-1]["content"]
    assert lines[0]["messages"][1] != lines[1]["messages"][1]


def test_exported_tool_calls_replay_to_success(exported):
    _, path = exported
    env = gym.make("PhysicianBench-v0")
    for line, seed in zip(_lines(path), variant_seeds(2, seed=5), strict=True):
        brief, _ = env.reset(options={"task_id": TASK, "variant": seed})
        assert brief == line["messages"][1]["content"]
        for message in line["messages"]:
            for call in message.get("tool_calls") or []:
                _, _, terminated, _, info = env.step(call)
        assert terminated and info["success"]


def test_export_is_deterministic_and_more_variants_extend_it(exported, tmp_path):
    _, path = exported
    again = tmp_path / "again.jsonl"
    assert export_sft([TASK], 2, again, seed=5) == 2
    assert again.read_bytes() == path.read_bytes()
    fewer = tmp_path / "one.jsonl"
    export_sft([TASK], 1, fewer, seed=5)
    assert fewer.read_text().splitlines()[0] == path.read_text().splitlines()[0]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_failed_oracle_episodes_are_not_demonstrations():
    env = gym.make("PhysicianBench-v0", max_steps=3)
    assert oracle_conversation(env, TASK, 11) is None
    full = gym.make("PhysicianBench-v0")
    assert oracle_conversation(full, TASK, 11) is not None


def test_export_rejects_misuse(tmp_path):
    with pytest.raises(PhysBenchError, match="variants"):
        export_sft([TASK], 0, tmp_path / "x.jsonl")
    with pytest.raises(UnknownTaskError):
        export_sft(["no_such_task"], 1, tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()


def _mutations():
    def tool_id(o):
        o["messages"][3]["tool_call_id"] = "call_99"

    def repeated_id(o):
        o["messages"][4]["tool_calls"][0]["id"] = "call_0"
        o["messages"][5]["tool_call_id"] = "call_0"

    def not_json(o):
        o["messages"][2]["tool_calls"][0]["function"]["arguments"] = "{patient: 1"

    def arguments(key, value):
        def mutate(o):
            call = o["messages"][4]["tool_calls"][0]["function"]
            args = json.loads(call["arguments"])
            args[key] = value
            call["arguments"] = json.dumps(args)
        return mutate

    def unknown_tool(o):
        o["messages"][2]["tool_calls"][0]["function"]["name"] = "delete_chart"

    def no_final(o):
        o["messages"].pop()

    def stray_tool(o):
        o["messages"].insert(2, {"role": "tool", "tool_call_id": "call_0", "content": "x"})

    def bad_role(o):
        o["messages"][1]["role"] = "human"

    def late_system(o):
        o["messages"].insert(2, {"role": "system", "content": "again"})

    def no_tools(o):
        o["tools"] = []

    def unanswered(o):
        o["messages"].pop(3)

    return {"tool_call_id": (tool_id, "does not answer"),
            "repeated id": (repeated_id, "repeated"), "not json": (not_json, "not JSON"),
            "unknown parameter": (arguments("colour", "red"), "unknown property 'colour'"),
            "wrong enum": (arguments("sort", "sideways"), "is not one of"),
            "wrong type": (arguments("count", "many"), "expected integer"),
            "out of range": (arguments("count", 0), "minimum"),
            "unknown tool": (unknown_tool, "unknown tool"),
            "no final answer": (no_final, "last message"),
            "stray tool message": (stray_tool, "does not answer"),
            "bad role": (bad_role, "role 'user'"),
            "late system": (late_system, "misplaced system"),
            "no tools": (no_tools, "tools"),
            "unanswered call": (unanswered, "not answered")}


@pytest.mark.parametrize("case", list(_mutations()))
def test_validator_names_each_broken_rule(exported, case):
    mutate, message = _mutations()[case]
    line = copy.deepcopy(_lines(exported[1])[0])
    validate_sft_line(line)
    mutate(line)
    with pytest.raises(SFTValidationError, match=message):
        validate_sft_line(line)


def test_schema_errors_cover_the_tool_schema_subset():
    schema = {"type": "object", "additionalProperties": False, "required": ["a"],
              "properties": {"a": {"type": "string", "minLength": 2, "pattern": "^x"},
                             "b": {"type": "number", "exclusiveMinimum": 0, "maximum": 5},
                             "c": {"type": "array", "items": {"type": "boolean"}},
                             "d": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}
    assert schema_errors({"a": "xy", "b": 5, "c": [True], "d": None}, schema) == []
    problems = schema_errors({"a": "y", "b": 0, "c": [1], "d": "s", "e": 1}, schema)
    assert len(problems) == 6
    assert schema_errors({"b": True}, schema) == ["$: missing required 'a'",
                                                  "$.b: expected number, got bool"]


def test_cli_export_sft_writes_the_same_file(exported, tmp_path):
    out = tmp_path / "cli.jsonl"
    env = {**os.environ, "PHYSBENCH_BACKGROUND_PATIENTS": "20"}
    result = subprocess.run(
        [sys.executable, "-m", "physbench_gym.cli", "export-sft", "--tasks", TASK,
         "--variants", "1", "--out", str(out)], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "wrote 1 " in result.stdout
    validate_sft_line(json.loads(out.read_text().splitlines()[0]))
    assert export_sft([TASK], 1, tmp_path / "direct.jsonl") == 1
    assert out.read_bytes() == (tmp_path / "direct.jsonl").read_bytes()
