"""Chat conversations in the OpenAI wire format: tool-call normalization and the context budget.

When a conversation grows past its budget (in characters), the oldest large tool outputs are
replaced by a short note saying they were elided; the system prompt, the task brief and the
tool outputs answering the latest assistant message are never shortened.
"""

from __future__ import annotations

import json
from typing import Any

Message = dict[str, Any]

ELIDED_NOTE = ("[output of {name} elided to keep the conversation within its context budget "
               "({chars} characters); repeat the call if you need it again]")
MIN_ELIDED_CHARS = 400


def normalize_tool_calls(message: Message, first_index: int) -> list[dict[str, Any]]:
    """The message's tool calls, each with an id, ``type`` and text ``arguments``.

    The message itself is updated in place so that it can be sent back in the history
    (``first_index`` numbers synthetic ids for calls that came without one). Arguments are
    kept verbatim, so malformed ones reach the env, which answers with an error observation.
    """
    calls = message.get("tool_calls")
    if not isinstance(calls, list) or not calls:
        message.pop("tool_calls", None)
        return []
    normalized = [_normalize_call(call, first_index + i) for i, call in enumerate(calls)]
    message["tool_calls"] = normalized
    return normalized


def _normalize_call(call: Any, index: int) -> dict[str, Any]:
    call = call if isinstance(call, dict) else {}
    function = call.get("function") if isinstance(call.get("function"), dict) else {}
    name = function.get("name")
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments if arguments is not None else {})
    return {"id": str(call.get("id") or f"call_{index}"), "type": "function",
            "function": {"name": name if isinstance(name, str) else "", "arguments": arguments}}


def as_action(call: dict[str, Any]) -> dict[str, Any]:
    """The env action for a normalized tool call (an OpenAI ``tool_call`` dict)."""
    return {"id": call["id"], "type": "function", "function": dict(call["function"])}


def message_chars(message: Message) -> int:
    """Characters a message contributes to the conversation."""
    size = len(message.get("content") or "")
    for call in message.get("tool_calls") or []:
        size += len(call["function"]["name"]) + len(call["function"]["arguments"])
    return size


def conversation_chars(messages: list[Message]) -> int:
    """Characters of the whole conversation."""
    return sum(message_chars(m) for m in messages)


def fit_budget(messages: list[Message], budget: int) -> int:
    """Elide the oldest large tool outputs until the conversation fits ``budget`` characters.

    Returns how many outputs were elided now. Outputs after the last assistant message are
    the latest and stay whole; if the rest cannot make room the conversation stays over budget.
    """
    total = conversation_chars(messages)
    if total <= budget:
        return 0
    last_assistant = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"),
                         default=len(messages))
    names = _tool_names(messages)
    elided = 0
    for message in messages[:last_assistant]:
        if total <= budget:
            break
        content = message.get("content") or ""
        if message.get("role") != "tool" or message.get("elided") or \
                len(content) < MIN_ELIDED_CHARS:
            continue
        note = ELIDED_NOTE.format(name=names.get(message.get("tool_call_id"), "a tool"),
                                  chars=len(content))
        message["content"] = note
        message["elided"] = True
        total -= len(content) - len(note)
        elided += 1
    return elided


def _tool_names(messages: list[Message]) -> dict[str, str]:
    return {call["id"]: call["function"]["name"]
            for m in messages for call in m.get("tool_calls") or []}


def wire_messages(messages: list[Message]) -> list[Message]:
    """The messages as sent on the wire (bookkeeping keys removed)."""
    return [{k: v for k, v in m.items() if k != "elided"} for m in messages]
