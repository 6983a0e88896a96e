"""Scripted policies that try to game the reward: each starts from the reference solution and
breaks it the way a reward-hacking policy would. None of them may succeed on any task.

``ADVERSARIES`` maps a name to a transform of the reference plan; ``AdversarialAgent(name)``
plays it. ``CanonicalReplayAgent`` replays the canonical instance's answer on whatever variant
the episode draws, so it succeeds only where a variant leaves the answer unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import gymnasium as gym

from physbench_gym.grading.lexicon import ingredient_name
from physbench_gym.grading.reader import read_note
from physbench_gym.synth.terminology import rxnorm
from physbench_gym.tasks.registry import get_instance

Plan = list[dict[str, Any]]
WRITES = frozenset({"fhir_medication_request_create", "fhir_service_request_create",
                    "fhir_communication_create_message", "fhir_appointment_create"})
ORDER_TOOLS = frozenset({"fhir_medication_request_create", "fhir_service_request_create"})

# Verb swaps that turn every plan sentence into its opposite.
_FLIPS = {"start": "stop", "stop": "start", "increase": "decrease", "decrease": "increase",
          "continue": "discontinue", "avoid": "use", "order": "cancel", "resume": "hold"}
_FLIP = re.compile(r"\b(" + "|".join(_FLIPS) + r")\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[A-Za-z][^.\n]{8,}[.\n]")


def _note_of(plan: Plan) -> str:
    return next((a["arguments"]["content"] for a in plan if a["tool"] == "write_file"), "")


def _with_note(plan: Plan, note: str) -> Plan:
    return [{"tool": "write_file", "arguments": {**a["arguments"], "content": note}}
            if a["tool"] == "write_file" else a for a in plan]


def keyword_stuffing(plan: Plan, brief: str) -> Plan:
    """The reference note, then the same note with every plan verb reversed, then every
    sentence of it negated: all the right words, and their opposites."""
    note = _note_of(plan)
    flipped = _FLIP.sub(lambda m: _FLIPS[m.group(1).lower()], note)
    negated = " ".join(f"Do not {s[0].lower()}{s[1:]}" for s in _SENTENCE.findall(note))
    return _with_note(plan, f"{note}\n\n{flipped}\n\n{negated}")


def hedged_alternatives(plan: Plan, brief: str) -> Plan:
    """The reference note with an untriggered alternative against its plan appended, naming
    the drug it orders (or the first drug the note decides on)."""
    note = _note_of(plan)
    ordered = [ingredient_name(rxnorm(str(a["arguments"]["medication_code"]))
                               .extra.get("ingredient", "")) for a in plan
               if a["tool"] == "fhir_medication_request_create"]
    planned = [m.text for c in read_note(note).clauses for m in c.mentions
               if m.group == "drug" and m.text and m.decision is not None]
    named = next((n for n in ordered if n), None) or (planned[0] if planned
                                                      else "the current medication")
    return _with_note(plan, f"{note}\n\nAlternatively, {named} could be stopped, or continued "
                      "at the current dose unchanged; either is reasonable.")


def double_dose_duplicate(plan: Plan, brief: str) -> Plan:
    """Every medication order placed twice, the copy at twice the dose."""
    out: Plan = []
    for action in plan:
        out.append(action)
        if action["tool"] == "fhir_medication_request_create":
            arguments = dict(action["arguments"])
            if isinstance(arguments.get("dose_value"), int | float):
                arguments["dose_value"] = arguments["dose_value"] * 2
            out.append({"tool": action["tool"], "arguments": arguments})
    return out


def brief_as_note(plan: Plan, brief: str) -> Plan:
    """The reference reads and orders, and the e-consult brief written back as the note."""
    return _with_note(plan, brief)


def note_without_orders(plan: Plan, brief: str) -> Plan:
    return [a for a in plan if a["tool"] not in WRITES]


def orders_without_note(plan: Plan, brief: str) -> Plan:
    return [a for a in plan if a["tool"] != "write_file"]


ADVERSARIES: dict[str, Callable[[Plan, str], Plan]] = {
    "keyword_stuffing": keyword_stuffing,
    "hedged_alternatives": hedged_alternatives,
    "double_dose_duplicate": double_dose_duplicate,
    "brief_as_note": brief_as_note,
    "note_without_orders": note_without_orders,
    "orders_without_note": orders_without_note,
}


class AdversarialAgent:
    """Plays one of ``ADVERSARIES`` on the current episode's reference solution."""

    def __init__(self, name: str) -> None:
        if name not in ADVERSARIES:
            raise ValueError(f"unknown adversary {name!r}; known: {sorted(ADVERSARIES)}")
        self.name = name
        self._plan: Plan = []

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        self._plan = ADVERSARIES[self.name](list(env.unwrapped.oracle_actions()), observation)

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        if not self._plan:
            return {"tool": "finish", "arguments": {"summary": "done"}}
        return self._plan.pop(0)


class CanonicalReplayAgent:
    """The canonical instance's reference answer (reads, orders, note) replayed on the episode's
    instance with only the patient's identifiers swapped: a memorized answer."""

    def __init__(self) -> None:
        self._plan: Plan = []

    def reset(self, env: gym.Env, observation: str, info: dict[str, Any]) -> None:
        episode = env.unwrapped.instance
        canonical = get_instance(episode.spec.id)
        swaps = {canonical.patient_id: episode.patient_id}
        if "mrn" in canonical.values and "mrn" in episode.values:
            swaps[str(canonical.values["mrn"])] = str(episode.values["mrn"])
        plan = [{"tool": c.tool, "arguments": dict(c.arguments)} for c in canonical.oracle.calls]
        plan.append({"tool": "write_file", "arguments": {"file_path": episode.note_path,
                                                         "content": canonical.oracle.note}})
        text = json.dumps(plan)
        for old, new in swaps.items():
            text = text.replace(old, new)
        self._plan = json.loads(text)

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        if not self._plan:
            return {"tool": "finish", "arguments": {"summary": "done"}}
        return self._plan.pop(0)
