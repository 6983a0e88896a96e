"""Supervised fine-tuning data: verified oracle demonstrations as OpenAI chat JSONL.

Each line is one episode of a seeded task variant solved by the oracle, in the conversation
the eval agent (``OpenAIChatAgent``) has with the env: the system prompt, the task brief, one
assistant ``tool_calls`` message per action with the env's observation as the ``tool``
message, and a final assistant message. Only episodes in which every checkpoint passed are
written, and every line is validated before it is written, so the file is a dataset of
verified expert demonstrations that loads in TRL's ``SFTTrainer`` or OpenAI fine-tuning.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from physbench_gym.agents.openai_chat import SYSTEM_PROMPT
from physbench_gym.errors import PhysBenchError
from physbench_gym.integrations.trl import DEFAULT_ENV_ID, variant_seeds
from physbench_gym.tasks.registry import task_ids as registered_task_ids

JsonDict = dict[str, Any]
DEFAULT_SUMMARY = "The consult is complete: orders are placed and the note is written."
_JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str, "integer": int, "number": (int, float), "boolean": bool,
    "object": dict, "array": list, "null": type(None)}


class SFTValidationError(PhysBenchError, ValueError):
    """A chat JSONL line breaks the format (roles, tool-call ids, arguments, schemas)."""


def export_sft(task_ids: Sequence[str] | None, variants: int, out_path: str | Path, *,
               seed: int = 0) -> int:
    """Write oracle demonstrations of ``variants`` seeded variants per task; return the lines.

    Episodes the oracle does not fully solve are left out with a warning (they point at a
    task bug, not at data worth learning from).

    Args:
        task_ids: tasks to export; None for every registered task.
        variants: seeded variants per task (the seeds of
            ``physbench_gym.integrations.trl.variant_seeds(variants, seed=seed)``).
        out_path: the JSONL file to write (replaced atomically).
        seed: base seed of the variant seeds.
    """
    if variants < 1:
        raise PhysBenchError(f"variants must be >= 1, got {variants}")
    ids = list(task_ids) if task_ids else registered_task_ids()
    env = gym.make(DEFAULT_ENV_ID, tasks=ids)
    lines: list[str] = []
    try:
        for task_id in ids:
            for variant_seed in variant_seeds(variants, seed=seed):
                line = _demonstration_line(env, task_id, variant_seed)
                if line is not None:
                    lines.append(line)
    finally:
        env.close()
    _write_atomically(Path(out_path), lines)
    return len(lines)


def _demonstration_line(env: gym.Env, task_id: str, variant_seed: int) -> str | None:
    record, problems = _oracle_episode(env, task_id, variant_seed)
    if not problems:
        try:
            validate_sft_line(record)
            return json.dumps(record, ensure_ascii=False)
        except SFTValidationError as exc:
            problems = [str(exc)]
    warnings.warn(f"{task_id} variant {variant_seed} left out of the SFT data: "
                  + "; ".join(problems), stacklevel=3)
    return None


def oracle_conversation(env: gym.Env, task_id: str, variant_seed: int | None) -> JsonDict | None:
    """One oracle episode as a chat record, or None unless it is a clean success.

    A clean success passes every checkpoint and has no call the env answered with an error.

    Args:
        env: a PhysicianBench env (any wrapper) that has ``task_id`` among its tasks.
        task_id: the task to run.
        variant_seed: the variant's seed; None for the canonical instance.
    """
    record, problems = _oracle_episode(env, task_id, variant_seed)
    return None if problems else record


def _oracle_episode(env: gym.Env, task_id: str,
                    variant_seed: int | None) -> tuple[JsonDict, list[str]]:
    variant: int | str = "canonical" if variant_seed is None else variant_seed
    brief, _ = env.reset(seed=0 if variant_seed is None else variant_seed,
                         options={"task_id": task_id, "variant": variant})
    messages: list[JsonDict] = [{"role": "system", "content": SYSTEM_PROMPT},
                                {"role": "user", "content": brief}]
    info: JsonDict = {}
    summary, problems = DEFAULT_SUMMARY, []
    for index, action in enumerate(env.unwrapped.oracle_actions()):
        observation, _, terminated, truncated, info = env.step(action)
        messages += tool_turn(index, action["tool"], action["arguments"], observation)
        if not info["ok"]:
            problems.append(f"call {index} ({action['tool']}) failed: {observation[:200]}")
        if action["tool"] == "finish":
            summary = str(action["arguments"].get("summary") or DEFAULT_SUMMARY)
        if terminated or truncated:
            break
    problems += [f"checkpoint {name} failed: {state['reason']}"
                 for name, state in info.get("checkpoints", {}).items() if not state["passed"]]
    messages.append({"role": "assistant", "content": summary})
    return {"messages": messages, "tools": env.unwrapped.tool_schemas()}, problems


def tool_turn(index: int, tool: str, arguments: Any, observation: str) -> list[JsonDict]:
    """The assistant ``tool_calls`` message of one call and the ``tool`` message answering it.

    Args:
        index: the call's position in the episode (its id is ``call_<index>``).
        tool: the tool's name.
        arguments: the call's arguments, as a dict or as JSON text.
        observation: the env's response.
    """
    call_id = f"call_{index}"
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return [{"role": "assistant", "content": None, "tool_calls": [{
                "id": call_id, "type": "function",
                "function": {"name": tool, "arguments": text}}]},
            {"role": "tool", "tool_call_id": call_id, "content": observation}]


def validate_sft_line(obj: Any) -> None:
    """Check one chat record; raise :class:`SFTValidationError` naming the first problem.

    Checks: ``messages`` starts with a system and a user message and ends with an assistant
    text; roles are known; every tool call has a unique id, ``type`` "function", a tool of
    ``tools`` and JSON-object ``arguments`` valid against that tool's parameter schema; and
    each call is answered by exactly one ``tool`` message before the conversation goes on.

    Args:
        obj: the parsed JSON line.
    """
    if not isinstance(obj, dict) or not isinstance(obj.get("messages"), list):
        raise SFTValidationError("a line must be an object with a 'messages' list")
    schemas = _tool_parameters(obj.get("tools"))
    messages = obj["messages"]
    if len(messages) < 3:
        raise SFTValidationError("a conversation needs system, user and assistant messages")
    for position, role in ((0, "system"), (1, "user")):
        if not isinstance(messages[position], dict) or messages[position].get("role") != role:
            raise SFTValidationError(f"message {position} must have role {role!r}")
    pending: list[str] = []
    seen: set[str] = set()
    for index, message in enumerate(messages):
        pending = _check_message(index, message, schemas, pending, seen)
    if pending:
        raise SFTValidationError(f"tool calls {pending} have no tool message")
    last = messages[-1]
    if last.get("role") != "assistant" or last.get("tool_calls") \
            or not isinstance(last.get("content"), str) or not last["content"].strip():
        raise SFTValidationError("the last message must be an assistant text without tool calls")


def _tool_parameters(tools: Any) -> dict[str, JsonDict]:
    if not isinstance(tools, list) or not tools:
        raise SFTValidationError("a line must carry a non-empty 'tools' list")
    schemas: dict[str, JsonDict] = {}
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict) or tool.get("type") != "function" \
                or not isinstance(function.get("name"), str) \
                or not isinstance(function.get("parameters"), dict):
            raise SFTValidationError(f"malformed tool schema: {str(tool)[:200]}")
        if function["name"] in schemas:
            raise SFTValidationError(f"tool {function['name']!r} is listed twice")
        schemas[function["name"]] = function["parameters"]
    return schemas


def _check_message(index: int, message: Any, schemas: dict[str, JsonDict],
                   pending: list[str], seen: set[str]) -> list[str]:
    where = f"message {index}"
    if not isinstance(message, dict):
        raise SFTValidationError(f"{where} is not an object")
    role = message.get("role")
    if role == "tool":
        call_id = message.get("tool_call_id")
        if not pending or call_id != pending[0]:
            raise SFTValidationError(f"{where}: tool_call_id {call_id!r} does not answer the "
                                     f"next pending call {pending[:1]}")
        if not isinstance(message.get("content"), str):
            raise SFTValidationError(f"{where}: a tool message needs text content")
        return pending[1:]
    if pending:
        raise SFTValidationError(f"{where}: tool calls {pending} are not answered first")
    if role in ("system", "user"):
        if (role == "system") != (index == 0) or not isinstance(message.get("content"), str):
            raise SFTValidationError(f"{where}: misplaced {role} message or non-text content")
        return []
    if role != "assistant":
        raise SFTValidationError(f"{where}: unknown role {role!r}")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise SFTValidationError(f"{where}: assistant content must be text or null")
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list) or (not calls and not content):
        raise SFTValidationError(f"{where}: an assistant message needs text or tool calls")
    return [_check_call(f"{where} call {n}", call, schemas, seen) for n, call in enumerate(calls)]


def _check_call(where: str, call: Any, schemas: dict[str, JsonDict], seen: set[str]) -> str:
    if not isinstance(call, dict) or call.get("type") != "function" \
            or not isinstance(call.get("function"), dict):
        raise SFTValidationError(f"{where}: a tool call needs type 'function' and a function")
    call_id = call.get("id")
    if not isinstance(call_id, str) or not call_id or call_id in seen:
        raise SFTValidationError(f"{where}: tool call id {call_id!r} is missing or repeated")
    seen.add(call_id)
    name = call["function"].get("name")
    if name not in schemas:
        raise SFTValidationError(f"{where}: unknown tool {name!r}")
    text = call["function"].get("arguments")
    try:
        arguments = json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError as exc:
        raise SFTValidationError(f"{where}: arguments are not JSON ({exc})") from None
    if not isinstance(arguments, dict):
        raise SFTValidationError(f"{where}: arguments must be a JSON object as a string")
    problems = schema_errors(arguments, schemas[name])
    if problems:
        raise SFTValidationError(f"{where}: arguments of {name} are invalid: "
                                 + "; ".join(problems[:5]))
    return call_id


def schema_errors(value: Any, schema: JsonDict, path: str = "$") -> list[str]:
    """Problems of ``value`` against a JSON Schema (the subset tool schemas use).

    Supports ``type``, ``enum``, ``anyOf``, ``properties``, ``required``,
    ``additionalProperties: false``, ``items``, string lengths and ``pattern``, and numeric
    bounds (inclusive and exclusive).

    Args:
        value: the JSON value to check.
        schema: the schema.
        path: where ``value`` sits, for the messages.
    """
    if "anyOf" in schema:
        if all(schema_errors(value, option, path) for option in schema["anyOf"]):
            return [f"{path}: matches none of the allowed forms"]
        return []
    expected = schema.get("type")
    if expected is not None and not _has_type(value, expected):
        return [f"{path}: expected {expected}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{path}: {value!r} is not one of {schema['enum']}"]
    if isinstance(value, dict):
        return _object_errors(value, schema, path)
    if isinstance(value, list):
        item = schema.get("items")
        return [e for i, v in enumerate(value) for e in schema_errors(v, item, f"{path}[{i}]")
                ] if isinstance(item, dict) else []
    if isinstance(value, str):
        return _string_errors(value, schema, path)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number_errors(value, schema, path)
    return []


def _has_type(value: Any, expected: str | list[str]) -> bool:
    names = expected if isinstance(expected, list) else [expected]
    for name in names:
        if isinstance(value, bool) and name not in ("boolean",):
            continue
        if name == "integer" and isinstance(value, float) and not value.is_integer():
            continue
        if isinstance(value, _JSON_TYPES.get(name, object)):
            return True
    return False


def _object_errors(value: JsonDict, schema: JsonDict, path: str) -> list[str]:
    properties = schema.get("properties", {})
    errors = [f"{path}: missing required '{name}'" for name in schema.get("required", [])
              if name not in value]
    if schema.get("additionalProperties") is False:
        errors += [f"{path}: unknown property '{name}'" for name in value
                   if name not in properties]
    for name, sub in value.items():
        if name in properties:
            errors += schema_errors(sub, properties[name], f"{path}.{name}")
    return errors


def _string_errors(value: str, schema: JsonDict, path: str) -> list[str]:
    errors = []
    if len(value) < schema.get("minLength", 0):
        errors.append(f"{path}: shorter than {schema['minLength']} characters")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        errors.append(f"{path}: longer than {schema['maxLength']} characters")
    if "pattern" in schema and re.search(schema["pattern"], value) is None:
        errors.append(f"{path}: does not match {schema['pattern']!r}")
    return errors


def _number_errors(value: float, schema: JsonDict, path: str) -> list[str]:
    checks = (("minimum", lambda b: value < b), ("maximum", lambda b: value > b),
              ("exclusiveMinimum", lambda b: value <= b),
              ("exclusiveMaximum", lambda b: value >= b))
    return [f"{path}: {value} violates {key} {schema[key]}" for key, broken in checks
            if key in schema and broken(schema[key])]


def _write_atomically(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in lines)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


__all__ = ["SFTValidationError", "export_sft", "oracle_conversation", "schema_errors",
           "validate_sft_line"]
