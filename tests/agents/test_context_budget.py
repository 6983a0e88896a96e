"""The context budget shortens the oldest large tool outputs first, never the brief or latest."""

from __future__ import annotations

from physbench_gym.agents.conversation import (
    conversation_chars,
    fit_budget,
    normalize_tool_calls,
)
from physbench_gym.agents.openai_chat import OpenAIChatAgent
from tests.stub_llm_server import Reply, assistant_tool_calls, tool_call


def exchange(call_id: str, output: str) -> list[dict]:
    message = assistant_tool_calls(tool_call("fhir_observation_search_labs", {}, call_id))
    normalize_tool_calls(message, 0)
    return [message, {"role": "tool", "tool_call_id": call_id, "content": output}]


def conversation(*outputs: str) -> list[dict]:
    messages = [{"role": "system", "content": "S" * 1000}, {"role": "user", "content": "U" * 1000}]
    for index, output in enumerate(outputs):
        messages += exchange(f"c{index}", output)
    return messages


def contents(messages: list[dict]) -> list[str]:
    return [m["content"] for m in messages if m["role"] == "tool"]


def test_within_budget_nothing_changes():
    messages = conversation("a" * 2000, "b" * 2000)
    assert fit_budget(messages, conversation_chars(messages)) == 0
    assert contents(messages) == ["a" * 2000, "b" * 2000]


def test_oldest_large_outputs_go_first_and_small_ones_stay():
    messages = conversation("a" * 3000, "small", "b" * 3000, "c" * 3000, "d" * 3000)
    budget = conversation_chars(messages) - 4000
    assert fit_budget(messages, budget) == 2
    kept = contents(messages)
    assert kept[0].startswith("[output of fhir_observation_search_labs elided")
    assert "3000 characters" in kept[0] and kept[2].startswith("[output of")
    assert kept[1] == "small" and kept[3:] == ["c" * 3000, "d" * 3000]
    assert conversation_chars(messages) <= budget
    assert messages[0]["content"] == "S" * 1000 and messages[1]["content"] == "U" * 1000


def test_latest_outputs_survive_even_over_budget():
    messages = conversation("a" * 3000, "b" * 3000)
    assert fit_budget(messages, 100) == 1
    assert contents(messages)[1] == "b" * 3000
    assert conversation_chars(messages) > 100
    assert fit_budget(messages, 100) == 0


def test_agent_elides_old_outputs_in_what_it_sends(env, stub):
    brief, info = env.reset(seed=0)
    reads = env.unwrapped.oracle_actions()[1:5]
    stub.push(*[Reply(assistant_tool_calls(tool_call(a["tool"], a["arguments"], f"s{i}")))
                for i, a in enumerate(reads)],
              Reply(assistant_tool_calls(tool_call("finish", {}, "end"))))
    agent = OpenAIChatAgent(model="m", base_url=stub.base_url, timeout=5.0)
    agent.reset(env, brief, info)
    observation, outputs = brief, []
    for _ in reads:
        observation, _, _, _, info = env.step(agent.act(observation, info))
        outputs.append(observation)
    assert [len(text) > 2000 for text in outputs] == [True] * 4
    agent.context_budget_chars = (len(agent.system_prompt) + len(brief) + len(outputs[2])
                                  + len(outputs[3]) + 2000)
    agent.act(observation, info)
    sent = stub.requests[-1]["messages"]
    assert sent[0]["content"] == agent.system_prompt and sent[1]["content"] == brief
    tools = [m["content"] for m in sent if m["role"] == "tool"]
    for index in (0, 1):
        assert tools[index].startswith(f"[output of {reads[index]['tool']} elided")
        assert f"({len(outputs[index])} characters)" in tools[index]
    assert tools[2:] == outputs[2:]
    assert agent.elided_outputs == 2
    assert conversation_chars(sent) <= agent.context_budget_chars
    assert all("elided" not in m for m in sent)
