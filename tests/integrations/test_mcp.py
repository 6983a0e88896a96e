"""The MCP face: real `physbench mcp` servers (stdio subprocess, HTTP on 127.0.0.1) driven with
the `mcp` client library."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import anyio
import gymnasium as gym
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

import physbench_gym  # noqa: F401
from physbench_gym.eval.store import read_results, read_trajectory

TASK = "thyroid_medication_management"
ENV = {**os.environ, "PHYSBENCH_BACKGROUND_PATIENTS": "20"}


def _oracle_calls(task_id: str = TASK) -> list[dict]:
    env = gym.make("PhysicianBench-v0")
    env.reset(seed=0, options={"task_id": task_id, "variant": "canonical"})
    calls = env.unwrapped.oracle_actions()
    env.close()
    return calls


def _server_args(out: Path, *extra: str) -> list[str]:
    return ["-m", "physbench_gym.cli", "mcp", "--task", TASK, "--out", str(out), *extra]


async def _play(session: ClientSession, calls: list[dict]) -> list:
    await session.initialize()
    tools = await session.list_tools()
    names = [tool.name for tool in tools.tools]
    assert "fhir_observation_search_labs" in names and names[-2:] == ["write_file", "finish"]
    labs = next(tool for tool in tools.tools if tool.name == "fhir_observation_search_labs")
    assert labs.inputSchema["type"] == "object" and "patient" in labs.inputSchema["properties"]
    brief = await session.get_prompt("brief")
    assert "E-consult question" in brief.messages[0].content.text
    resource = await session.read_resource("physbench://episode")
    assert json.loads(resource.contents[0].text)["task_id"] == TASK
    results = []
    for call in calls:
        results.append(await session.call_tool(call["tool"], call["arguments"]))
    return results


def _check_verdict(out: Path, sample: int = 0) -> dict:
    record = read_results(out)[(TASK, sample)]
    assert record["status"] == "ok" and record["success"] is True and record["score"] == 1.0
    assert record["termination"] == "finish" and record["agent"] == "mcp"
    assert all(state["passed"] for state in record["checkpoints"].values())
    steps = [e for e in read_trajectory(out, record) if e["type"] == "step"]
    assert steps[-1]["tool"] == "finish" and len(steps) == record["steps"]
    assert (out / "report.html").exists() and (out / "summary.json").exists()
    return record


def test_stdio_server_runs_the_oracle_and_writes_a_successful_verdict(tmp_path):
    out = tmp_path / "run"
    calls = _oracle_calls()

    async def main() -> list:
        params = StdioServerParameters(command=sys.executable, args=_server_args(out), env=ENV)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            results = await _play(session, calls)
            after = await session.call_tool("fhir_patient_search_demographics",
                                            {"family": "Smith"})
            assert after.isError and after.content[0].text.startswith("ERROR: the episode has")
            return results

    results = anyio.run(main)
    assert not any(result.isError for result in results)
    record = _check_verdict(out)
    assert record["agent_termination"] == "finish"


def test_stdio_bad_calls_are_error_results_and_an_open_episode_is_graded_on_disconnect(
        tmp_path):
    out = tmp_path / "run"

    def nested(depth: int) -> dict:
        value: dict = {}
        for _ in range(depth):
            value = {"x": value}
        return value

    async def main() -> None:
        params = StdioServerParameters(command=sys.executable, args=_server_args(out), env=ENV)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            bad = [("fhir_patient_search_demographics", {"identifier": 5}),
                   ("no_such_tool", {}),
                   ("fhir_patient_search_demographics", {"family": nested(100)}),
                   ("write_file", {"file_path": "/etc/passwd", "content": "x"})]
            for name, arguments in bad:
                result = await session.call_tool(name, arguments)
                text = result.content[0].text
                assert result.isError and text.startswith("ERROR: "), text
                assert not text[7:].lower().startswith("error"), text
            deep = await session.call_tool("fhir_patient_search_demographics",
                                           {"family": nested(100)})
            assert "deeper than 32 levels" in deep.content[0].text
            good = await session.call_tool("fhir_patient_search_demographics",
                                           {"family": "Smith"})
            assert not good.isError and good.content[0].text.startswith('{"resourceType"')

    anyio.run(main)
    record = read_results(out)[(TASK, 0)]
    assert record["status"] == "ok" and record["success"] is False
    assert record["termination"] == "finish" and record["agent_termination"] == "disconnected"
    assert record["invalid_actions"] == 5


def test_stdio_server_survives_a_message_nested_100000_deep(tmp_path):
    out = tmp_path / "run"
    server = subprocess.Popen([sys.executable, *_server_args(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV,
                              text=True)

    def send(message: dict | str) -> None:
        server.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        server.stdin.flush()

    def answer(request_id: int) -> dict:
        while True:
            message = json.loads(server.stdout.readline())
            if message.get("id") == request_id:
                return message

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}})
        assert answer(1)["result"]["serverInfo"]["name"] == "physbench"
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        deep = '{"a":' * 100_000 + "1" + "}" * 100_000
        send('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": '
             '"fhir_patient_search_demographics", "arguments": {"family": ' + deep + "}}}")
        send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "fhir_patient_search_demographics", "arguments": {"family": "Smith"}}})
        reply = answer(3)["result"]
        assert reply["isError"] is False and reply["content"][0]["text"].startswith("{")
    finally:
        server.stdin.close()
        assert server.wait(timeout=120) == 0
    assert (TASK, 0) in read_results(out)


def _start_http(out: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, *_server_args(out), "--transport", "http",
                               "--port", "0", *extra], stderr=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, env=ENV, text=True)
    line = server.stderr.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
    assert found, line
    return server, found.group(1)


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(timeout=60)


def test_http_server_runs_two_isolated_sessions_and_checks_the_token(tmp_path):
    out = tmp_path / "run"
    calls = _oracle_calls()
    orders = [c for c in calls if c["tool"] == "fhir_medication_request_create"]
    server, url = _start_http(out, "--token", "s3cret")
    auth = {"Authorization": "Bearer s3cret"}
    try:
        refused = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert refused.status_code == 401
        too_big = httpx.post(url, content=b"x" * (5 * 1024 * 1024), headers=auth)
        assert too_big.status_code == 413

        async def main() -> None:
            async with httpx.AsyncClient(headers=auth, timeout=60) as http_a, \
                    httpx.AsyncClient(headers=auth, timeout=60) as http_b, \
                    streamable_http_client(url, http_client=http_a) as (read_a, write_a, _), \
                    ClientSession(read_a, write_a) as oracle, \
                    streamable_http_client(url, http_client=http_b) as (read_b, write_b, _), \
                    ClientSession(read_b, write_b) as other:
                results = await _play(oracle, calls[:-1])
                assert not any(result.isError for result in results)
                created = re.search(r"Created MedicationRequest/([\w-]+)", "".join(
                    r.content[0].text for r in results)).group(1)
                await other.initialize()
                seen = await other.call_tool("fhir_medication_request_search_orders",
                                             {"patient": orders[0]["arguments"]["patient"]})
                assert not seen.isError and created not in seen.content[0].text
                finish = await oracle.call_tool(calls[-1]["tool"], calls[-1]["arguments"])
                assert not finish.isError
                await other.call_tool("finish", {"summary": "nothing to add"})

        anyio.run(main)
    finally:
        _stop(server)
    records = read_results(out)
    _check_verdict(out, 0)
    assert records[(TASK, 1)]["success"] is False and records[(TASK, 1)]["steps"] == 2


@pytest.mark.parametrize("host", ["127.0.0.1"])
def test_http_server_refuses_foreign_host_headers(tmp_path, host):
    server, url = _start_http(tmp_path / "run")
    try:
        reply = httpx.post(url, headers={"Host": "evil.example:80"},
                           json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert reply.status_code in (400, 403, 421)
    finally:
        _stop(server)
