"""A policy backed by any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama)."""

from __future__ import annotations

from collections import deque
from typing import Any

import gymnasium as gym

from physbench_gym.agents.base import AgentError
from physbench_gym.agents.conversation import (
    Message,
    as_action,
    fit_budget,
    normalize_tool_calls,
    wire_messages,
)
from physbench_gym.llm import ChatCompletionsClient, EndpointError

SYSTEM_PROMPT = (
    "You are a consulting physician answering an e-consult from a referring clinician. Work in "
    "the EHR only through the tools: review the relevant chart data, place the orders your "
    "plan needs, write the requested consult note with write_file (state the key findings, "
    "your assessment and a concrete plan with doses and follow-up), then call finish. Be "
    "precise and commit to one plan."
)
NUDGE = ("Continue the consult by calling the tools. When the orders are placed and the note "
         "is written with write_file, call finish.")


class OpenAIChatAgent:
    """Native tool calling against ``{base_url}/chat/completions``.

    Each episode starts a conversation (a system prompt, then the task brief). The tool calls
    of one response are returned as consecutive actions, each answered by a ``tool`` message
    carrying the observation. A response without tool calls is nudged once; a second one ends
    the episode with ``finish`` (``termination_reason == "no_tool_calls"``). When the endpoint
    fails after its retries, ``act`` raises ``AgentError`` and ``termination_reason`` says why.

    Attributes:
        usage: ``prompt_tokens`` and ``completion_tokens`` of the current episode.
        termination_reason: None, ``"no_tool_calls"`` or ``"endpoint_error: ..."``.
        messages: the current conversation in the wire format.
        requests: completions requested this episode.
    """

    def __init__(self, model: str, base_url: str = "https://api.openai.com/v1",
                 api_key_env: str | None = "OPENAI_API_KEY", temperature: float = 0.0,
                 seed: int | None = None, max_tokens: int = 1024, timeout: float = 60.0,
                 max_retries: int = 5, context_budget_chars: int = 400_000,
                 backoff_base: float = 1.0, backoff_max: float = 30.0,
                 system_prompt: str = SYSTEM_PROMPT) -> None:
        self.model, self.temperature, self.seed = model, temperature, seed
        self.max_tokens, self.context_budget_chars = max_tokens, context_budget_chars
        self.system_prompt = system_prompt
        self.client = ChatCompletionsClient(model, base_url, api_key_env, timeout, max_retries,
                                            backoff_base, backoff_max, seed=seed)
        self.usage: dict[str, int] = {"prompt_tokens": 0, "completion_tokens": 0}
        self.termination_reason: str | None = None
        self.messages: list[Message] = []
        self.requests = 0
        self.elided_outputs = 0
        self._tools: list[dict[str, Any]] = []
        self._pending: deque[dict[str, Any]] = deque()
        self._awaiting: str | None = None
        self._calls = 0

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        """Start a new conversation with the task brief ``observation``."""
        self._tools = list(info.get("tool_schemas") or env.unwrapped.tool_schemas())
        self.messages = [{"role": "system", "content": self.system_prompt},
                         {"role": "user", "content": observation}]
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0}
        self.termination_reason = None
        self.requests = self.elided_outputs = self._calls = 0
        self._pending.clear()
        self._awaiting = None

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        """The next tool call; asks the model when this response's calls are used up."""
        if self._awaiting is not None:
            self.messages.append({"role": "tool", "tool_call_id": self._awaiting,
                                  "content": observation})
            self._awaiting = None
        if not self._pending:
            self._ask_for_calls()
        if not self._pending:
            self.termination_reason = "no_tool_calls"
            return {"tool": "finish", "arguments": {"summary": self._last_text()}}
        call = self._pending.popleft()
        self._awaiting = call["id"]
        return as_action(call)

    def close(self) -> None:
        """Release the endpoint's connections."""
        self.client.close()

    def _ask_for_calls(self) -> None:
        for nudged in (False, True):
            message = self._complete()
            calls = normalize_tool_calls(message, self._calls)
            self._calls += len(calls)
            self.messages.append(message)
            if calls:
                self._pending.extend(calls)
                return
            if not nudged:
                self.messages.append({"role": "user", "content": NUDGE})

    def _complete(self) -> Message:
        self.elided_outputs += fit_budget(self.messages, self.context_budget_chars)
        payload: dict[str, Any] = {
            "messages": wire_messages(self.messages), "tools": self._tools,
            "tool_choice": "auto", "temperature": self.temperature,
            "max_tokens": self.max_tokens}
        if self.seed is not None:
            payload["seed"] = self.seed
        self.requests += 1
        try:
            response = self.client.complete(payload)
        except EndpointError as exc:
            self.termination_reason = f"endpoint_error: {exc}"
            error = AgentError(f"{self.model}: {exc}")
            error.status, error.attempts = exc.status, exc.attempts
            raise error from exc
        self._count(response.get("usage"))
        message = response["choices"][0]["message"]
        return {"role": "assistant", "content": message.get("content"),
                **({"tool_calls": message["tool_calls"]} if message.get("tool_calls") else {})}

    def _count(self, usage: Any) -> None:
        if not isinstance(usage, dict):
            return
        for key in ("prompt_tokens", "completion_tokens"):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                self.usage[key] += value

    def _last_text(self) -> str:
        for message in reversed(self.messages):
            if message.get("role") == "assistant" and message.get("content"):
                return str(message["content"])[:2000]
        return "The model stopped calling tools."
