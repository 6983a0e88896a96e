"""The OpenEnv face: a real `physbench serve-env` on 127.0.0.1, real concurrent sessions."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading

import gymnasium as gym
import httpx
import pytest
from websockets.sync.client import connect

import physbench_gym  # noqa: F401
from physbench_gym.integrations.openenv import PhysicianBenchEnvClient

TASKS = ("thyroid_medication_management", "iron_deficiency_anemia")
ENV = {**os.environ, "PHYSBENCH_BACKGROUND_PATIENTS": "20"}


def _oracle_calls(task_id: str) -> list[dict]:
    env = gym.make("PhysicianBench-v0")
    env.reset(seed=0, options={"task_id": task_id, "variant": "canonical"})
    calls = env.unwrapped.oracle_actions()
    env.close()
    return calls


@pytest.fixture(scope="module")
def server():
    process = subprocess.Popen(
        [sys.executable, "-m", "physbench_gym.cli", "serve-env", "--port", "0",
         "--token", "s3cret", "--max-sessions", "4", "--max-body", "1000000"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=ENV, text=True)
    line = process.stderr.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+)", line)
    assert found, line
    yield found.group(1)
    process.terminate()
    process.wait(timeout=60)


def _client(url: str) -> PhysicianBenchEnvClient:
    return PhysicianBenchEnvClient(base_url=url, headers={"Authorization": "Bearer s3cret"},
                                   message_timeout_s=300)


def test_two_concurrent_oracle_sessions_succeed_and_never_see_each_others_writes(server):
    plans = {task: _oracle_calls(task) for task in TASKS}
    halfway = threading.Barrier(3, timeout=300)
    outcomes: dict[str, object] = {}

    def run(task: str) -> None:
        try:
            with _client(server).sync() as env:
                result = env.reset(task_id=task, variant="canonical", seed=0)
                assert "E-consult question" in result.observation.text
                total = 0.0
                for number, call in enumerate(plans[task]):
                    if call["tool"] == "write_file":
                        halfway.wait()
                        halfway.wait()
                    result = env.step(call)
                    assert result.observation.ok, result.observation.text[:200]
                    total += result.reward
                    outcomes[f"{task}:{number}"] = result.observation.text
                outcomes[task] = (result.done, result.observation.success, round(total, 6),
                                  env.state().score)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            outcomes[task] = exc
            halfway.abort()

    threads = [threading.Thread(target=run, args=(task,)) for task in TASKS]
    for thread in threads:
        thread.start()
    halfway.wait()
    created = re.findall(r"Created (MedicationRequest|ServiceRequest)/([\w-]+)",
                         " ".join(str(v) for k, v in outcomes.items() if ":" in k))
    assert created
    with _client(server).sync() as observer:
        observer.reset(task_id=TASKS[0])
        for task in TASKS:
            patient = next(c["arguments"]["patient"] for c in plans[task]
                           if "patient" in c["arguments"])
            for tool in ("fhir_medication_request_search_orders", "fhir_service_request_search"):
                seen = observer.step({"tool": tool, "arguments": {"patient": patient}})
                assert seen.observation.ok
                assert not any(rid in seen.observation.text for _, rid in created)
    halfway.wait()
    for thread in threads:
        thread.join(timeout=600)
    for task in TASKS:
        assert outcomes[task] == (True, True, 1.0, 1.0), outcomes[task]


def test_bad_actions_are_error_observations_and_the_session_goes_on(server):
    with _client(server).sync() as env:
        before = env.step({"tool": "fhir_patient_search_demographics", "arguments": {}})
        assert before.observation.text.startswith("ERROR: no episode yet")
        env.reset(task_id=TASKS[0])
        bad = [{"tool": 5}, {"tool": "nope", "arguments": {}},
               {"tool": "fhir_patient_search_demographics", "arguments": {"identifier": 5}},
               {"tool": "finish", "arguments": {}, "surprise": 1},
               "[" * 100_000 + "]" * 100_000, "not json",
               {"tool": "fhir_patient_search_demographics", "arguments": "[" * 5000}]
        for action in bad:
            result = env.step(action)
            text = result.observation.text
            assert not result.observation.ok and text.startswith("ERROR: "), text[:200]
            assert not text[7:].lower().startswith("error") and not result.done
        assert env.state().invalid_actions == len(bad)
        good = env.step({"tool": "fhir_patient_search_demographics",
                         "arguments": {"family": "Smith"}})
        assert good.observation.ok and good.observation.text.startswith('{"resourceType"')


def test_a_frame_nested_100000_deep_is_an_error_observation(server):
    url = server.replace("http://", "ws://") + "/ws"
    with connect(url, additional_headers={"Authorization": "Bearer s3cret"},
                 max_size=None) as ws:
        ws.send(json.dumps({"type": "reset", "data": {"task_id": TASKS[0]}}))
        assert json.loads(ws.recv())["type"] == "observation"
        ws.send('{"type": "step", "data": {"tool": "finish", "arguments": '
                + "[" * 100_000 + "]" * 100_000 + "}}")
        reply = json.loads(ws.recv())
        observation = reply["data"]["observation"]
        assert reply["type"] == "observation" and not observation["ok"]
        assert "deeper than 32 levels" in observation["text"]
        ws.send(json.dumps({"type": "step", "data": {
            "tool": "fhir_patient_search_demographics", "arguments": {"family": "Smith"}}}))
        assert json.loads(ws.recv())["data"]["observation"]["ok"] is True


def test_the_token_body_and_session_limits_hold(server):
    assert httpx.get(server + "/health").status_code == 401
    auth = {"Authorization": "Bearer s3cret"}
    assert httpx.get(server + "/health", headers=auth).status_code == 200
    big = httpx.post(server + "/step", headers=auth, content=b"x" * 2_000_000)
    assert big.status_code == 413
    clients = [_client(server).sync() for _ in range(5)]
    try:
        for client in clients[:4]:
            client.connect()
            client.reset(task_id=TASKS[0])
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED|capacity"):
            clients[4].connect()
            clients[4].reset(task_id=TASKS[0])
    finally:
        for client in clients:
            client.close()


def test_the_openenv_example_runs_the_oracle_through_its_own_server():
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "openenv_oracle.py")
    result = subprocess.run([sys.executable, example, "--task", TASKS[1]], capture_output=True,
                            text=True, env=ENV, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "done True, success True, score 1.000" in result.stdout
