"""OpenAIChatAgent drives the real env through a scripted chat-completions endpoint."""

from __future__ import annotations

import email.utils
import socket
import time

import pytest

from physbench_gym.agents import AgentError, run_episode
from physbench_gym.agents.openai_chat import NUDGE, OpenAIChatAgent
from tests.stub_llm_server import (
    Failure,
    Reply,
    assistant_text,
    assistant_tool_calls,
    tool_call,
)

FAST = {"backoff_base": 0.01, "backoff_max": 0.5, "timeout": 5.0}
USAGE = {"prompt_tokens": 120, "completion_tokens": 15, "total_tokens": 135}


def make_agent(stub, **overrides) -> OpenAIChatAgent:
    options = {"model": "stub-model", "base_url": stub.base_url, "max_retries": 3,
               "seed": 7, **FAST, **overrides}
    return OpenAIChatAgent(**options)


def reply_calls(*calls) -> Reply:
    return Reply(assistant_tool_calls(*calls), usage=USAGE)


def oracle_script(env) -> list[Reply]:
    env.reset(seed=0)
    return [reply_calls(tool_call(a["tool"], a["arguments"], f"call_{i}"))
            for i, a in enumerate(env.unwrapped.oracle_actions())]


def tool_messages(request) -> list[dict]:
    return [m for m in request["messages"] if m["role"] == "tool"]


def test_full_episode_succeeds_and_speaks_the_wire_format(env, stub, monkeypatch):
    monkeypatch.setenv("STUB_KEY", "secret-123")
    script = oracle_script(env)
    stub.push(*script)
    agent = make_agent(stub, api_key_env="STUB_KEY", temperature=0.3, max_tokens=321)
    result = run_episode(env, agent, seed=0)

    assert result.success and result.termination == "finish"
    assert len(stub.requests) == len(script) == result.steps
    first = stub.requests[0]
    assert first["model"] == "stub-model" and first["tool_choice"] == "auto"
    assert first["tools"] == env.unwrapped.tool_schemas()
    assert (first["temperature"], first["max_tokens"], first["seed"]) == (0.3, 321, 7)
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert "MRN" in first["messages"][1]["content"]
    assert stub.headers[0]["Authorization"] == "Bearer secret-123"
    assert stub.paths[0] == "/v1/chat/completions"
    for index, request in enumerate(stub.requests[1:]):
        answers = tool_messages(request)
        assert [m["tool_call_id"] for m in answers] == [f"call_{i}" for i in range(index + 1)]
        assert all(m["content"] and not m["content"].startswith("ERROR") for m in answers)
    assert agent.usage == {"prompt_tokens": 120 * len(script),
                           "completion_tokens": 15 * len(script)}
    assert agent.termination_reason is None


def test_usage_resets_per_episode_and_no_key_sends_no_authorization(env, stub, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    agent = make_agent(stub)
    for _ in range(2):
        stub.push(reply_calls(tool_call("finish", {"summary": "x"}, "f")))
        run_episode(env, agent, seed=0)
        assert agent.usage == {"prompt_tokens": 120, "completion_tokens": 15}
    assert all("Authorization" not in headers for headers in stub.headers)


def test_malformed_arguments_come_back_as_error_observation(env, stub):
    stub.push(reply_calls(tool_call("fhir_observation_search_labs", '{"patient": "P', "bad")),
              reply_calls(tool_call("finish", {"summary": "stop"}, "end")))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    observation, _, _, _, info = env.step(agent.act(observation, info))
    assert observation.startswith("ERROR") and info["invalid_actions"] == 1
    action = agent.act(observation, info)
    assert action["function"]["name"] == "finish"
    answer, = tool_messages(stub.requests[1])
    assert answer["tool_call_id"] == "bad" and answer["content"] == observation
    sent_call = stub.requests[1]["messages"][2]["tool_calls"][0]
    assert sent_call["function"]["arguments"] == '{"patient": "P'


def test_parallel_tool_calls_become_consecutive_steps(env, stub):
    stub.push(reply_calls(tool_call("fhir_patient_search_demographics", {}, "a"),
                          tool_call("fhir_condition_search_problems", {}, "b")),
              reply_calls(tool_call("finish", {"summary": "done"}, "c")))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    observations = []
    for expected in ("fhir_patient_search_demographics", "fhir_condition_search_problems"):
        action = agent.act(observation, info)
        assert action["function"]["name"] == expected
        observation, _, _, _, info = env.step(action)
        observations.append(observation)
    assert len(stub.requests) == 1
    assert agent.act(observation, info)["function"]["name"] == "finish"
    roles = [m["role"] for m in stub.requests[1]["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool"]
    answers = tool_messages(stub.requests[1])
    assert [m["tool_call_id"] for m in answers] == ["a", "b"]
    assert [m["content"] for m in answers] == observations
    assert info["steps"] == 2


def test_text_without_tool_calls_is_nudged_once_then_finishes(env, stub):
    stub.push(Reply(assistant_text("Thinking about it.")), Reply(assistant_text("All done.")))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    action = agent.act(observation, info)
    assert action == {"tool": "finish", "arguments": {"summary": "All done."}}
    assert stub.requests[1]["messages"][-1] == {"role": "user", "content": NUDGE}
    assert agent.termination_reason == "no_tool_calls"
    *_, terminated, _, info = env.step(action)
    assert terminated and info["termination"] == "finish"


def test_nudge_answered_with_a_tool_call_continues(env, stub):
    stub.push(Reply(assistant_text("Let me look.")),
              reply_calls(tool_call("fhir_patient_search_demographics", {}, "a")))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    assert agent.act(observation, info)["function"]["name"] == "fhir_patient_search_demographics"
    assert agent.termination_reason is None


def test_429_with_retry_after_then_success(env, stub):
    stub.push(Failure(429, headers={"Retry-After": "0.2"}),
              reply_calls(tool_call("finish", {"summary": "x"}, "f")))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    assert agent.act(observation, info)["function"]["name"] == "finish"
    assert len(stub.requests) == 2 and stub.requests[0] == stub.requests[1]
    retry, = agent.client.retries
    assert retry["delay"] == pytest.approx(0.2) and retry["error"].startswith("HTTP 429")


def test_retry_after_as_http_date(env, stub):
    past = email.utils.formatdate(time.time() - 30, usegmt=True)
    stub.push(Failure(429, headers={"Retry-After": past}),
              reply_calls(tool_call("finish", {}, "f")))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    agent.act(observation, info)
    assert [r["delay"] for r in agent.client.retries] == [0.0]


def test_server_errors_back_off_exponentially_with_seeded_jitter(env, stub):
    delays = []
    for _ in range(2):
        stub.push(Failure(500), Failure(503), Failure(502),
                  reply_calls(tool_call("finish", {}, "f")))
        agent = make_agent(stub, backoff_base=0.02)
        observation, info = env.reset(seed=0)
        agent.reset(env, observation, info)
        agent.act(observation, info)
        delays.append([r["delay"] for r in agent.client.retries])
    assert delays[0] == delays[1]
    for retry, delay in enumerate(delays[0]):
        assert 0.01 * 2 ** retry <= delay <= 0.02 * 2 ** retry


def test_timeout_is_retried_then_raises_agent_error(env, stub):
    stub.push(*[Reply(assistant_text("late"), delay=2.0) for _ in range(3)])
    agent = make_agent(stub, timeout=0.2, max_retries=2)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    with pytest.raises(AgentError, match="failed after 3 attempts.*timed out") as caught:
        agent.act(observation, info)
    assert len(stub.requests) == 3
    assert caught.value.status is None and caught.value.attempts == 3
    assert agent.termination_reason.startswith("endpoint_error:")
    assert "timed out" in agent.termination_reason


def test_timeout_then_success(env, stub):
    stub.push(Reply(assistant_text("late"), delay=2.0),
              reply_calls(tool_call("finish", {}, "f")))
    agent = make_agent(stub, timeout=0.2)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    assert agent.act(observation, info)["function"]["name"] == "finish"
    assert "timed out" in agent.client.retries[0]["error"]


def test_persistent_5xx_reports_last_status(env, stub):
    stub.push(*[Failure(503, body='{"error": "overloaded"}') for _ in range(3)])
    agent = make_agent(stub, max_retries=2)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    with pytest.raises(AgentError, match="HTTP 503.*overloaded") as caught:
        agent.act(observation, info)
    assert caught.value.status == 503


def test_client_error_is_not_retried(env, stub):
    stub.push(Failure(401, body='{"error": "invalid api key"}'))
    agent = make_agent(stub)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    with pytest.raises(AgentError, match="refused the request: HTTP 401.*invalid api key"):
        agent.act(observation, info)
    assert len(stub.requests) == 1


def test_unreachable_endpoint_raises_agent_error(env):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    agent = OpenAIChatAgent(model="m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=1,
                            **FAST)
    observation, info = env.reset(seed=0)
    agent.reset(env, observation, info)
    with pytest.raises(AgentError, match="connection error"):
        agent.act(observation, info)
    assert agent.termination_reason.startswith("endpoint_error:")
