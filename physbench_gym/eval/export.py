"""Exporting a run's episodes: OpenAI fine-tuning JSONL, or the raw event log.

``openai``: one line per finished episode with ``messages`` (system, the task brief as the
user message, then each tool call as an assistant message with ``tool_calls`` followed by the
``tool`` message carrying the EHR's response) and ``tools`` (the tool schemas). Steps whose
action could not be read as a tool call at all have no function name and are left out.

``trajectory``: every event of every episode as one line, tagged with its task and sample,
followed by the episode's result record.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from physbench_gym.errors import PhysBenchError
from physbench_gym.eval.store import RESULTS, RUN_CONFIG, read_results, read_trajectory

FORMATS = ("openai", "trajectory")
DEFAULT_SYSTEM_PROMPT = (
    "You are a consulting physician working inside an electronic health record through FHIR "
    "tools. Review the chart, place the orders the case needs, write the requested note with "
    "write_file, then call finish.")


def export_run(out_dir: str | Path, fmt: str, out_file: str | Path, *,
               successful_only: bool = False) -> int:
    """Write the run's episodes to ``out_file`` in ``fmt``; return how many episodes."""
    if fmt not in FORMATS:
        raise PhysBenchError(f"--format must be one of {FORMATS}, got {fmt!r}")
    run = Path(out_dir)
    if not (run / RESULTS).exists():
        raise PhysBenchError(f"{run} has no {RESULTS}: not an evaluation run directory")
    records = [r for r in sorted(read_results(run).values(),
                                 key=lambda r: (r["task_id"], r["sample"]))
               if r.get("status") == "ok" and (r.get("success") or not successful_only)]
    target = Path(out_file)
    target.parent.mkdir(parents=True, exist_ok=True)
    lines = _openai_lines(run, records) if fmt == "openai" else _event_lines(run, records)
    count = 0
    with target.open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
            count += 1
    return count if fmt == "openai" else len(records)


def openai_example(events: list[dict[str, Any]], tools: list[dict[str, Any]],
                   system_prompt: str = DEFAULT_SYSTEM_PROMPT) -> dict[str, Any]:
    """One episode's event log as an OpenAI chat fine-tuning example with tool calls."""
    brief = next((e["observation"] for e in events if e.get("type") == "reset"), "")
    messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt},
                                      {"role": "user", "content": brief}]
    used: set[str] = set()
    for event in events:
        if event.get("type") != "step":
            continue
        action = event.get("action", {})
        name = action.get("tool") or event.get("tool")
        if not name:
            continue
        call_id = _unique(action.get("id") or f"call_{event['step']}", used)
        arguments = action.get("arguments", {})
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False, default=str)
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function",
             "function": {"name": name, "arguments": arguments}}]})
        messages.append({"role": "tool", "tool_call_id": call_id,
                         "content": str(event.get("observation", ""))})
    return {"messages": messages, "tools": tools}


def _openai_lines(run: Path, records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    tools = _tool_schemas(run)
    system_prompt = _system_prompt()
    for record in records:
        events = read_trajectory(run, record)
        if events:
            yield openai_example(events, tools, system_prompt)


def _event_lines(run: Path, records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for record in records:
        tag = {"task_id": record["task_id"], "sample": record["sample"],
               "seed": record.get("seed"), "variant": record.get("variant")}
        for event in read_trajectory(run, record):
            yield {**tag, **event}
        yield {**tag, "type": "result",
               **{k: v for k, v in record.items() if k not in tag and k != "traceback"}}


def _tool_schemas(run: Path) -> list[dict[str, Any]]:
    from physbench_gym.tools.base import get_toolset

    config_path = run / RUN_CONFIG
    config = json.loads(config_path.read_text(encoding="utf-8")) if config_path.exists() else {}
    return get_toolset(config.get("toolset") or "physicianbench").schemas()


def _system_prompt() -> str:
    try:
        from physbench_gym.agents import openai_chat
    except ImportError:
        return DEFAULT_SYSTEM_PROMPT
    prompt = getattr(openai_chat, "SYSTEM_PROMPT", None)
    return prompt if isinstance(prompt, str) and prompt else DEFAULT_SYSTEM_PROMPT


def _unique(call_id: str, used: set[str]) -> str:
    candidate, suffix = call_id, 1
    while candidate in used:
        suffix += 1
        candidate = f"{call_id}_{suffix}"
    used.add(candidate)
    return candidate
