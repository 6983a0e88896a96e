"""Candidate tool calls for a task instance: the oracle's calls plus distractors.

The menu of the discrete env is built here from the instance alone (its oracle, its chart
and the other tasks' patients), so the same instance always gives the same candidates.
Distractors are plausible mistakes: wrong patient, wrong codes, irrelevant searches, wrong
or unsafe orders, a misleading note and a premature finish; inert calls pad the menu.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from physbench_gym.errors import PhysBenchError
from physbench_gym.tasks.registry import get_instance, load_spec, task_ids
from physbench_gym.tasks.variants import TaskInstance

MIN_DISTRACTORS = 10
UNRELATED_LABS = ("2093-3", "2345-7", "14647-2", "2571-8", "1558-6")
UNRELATED_ORDERS = (("2093-3", "Cholesterol, total"), ("5902-2", "Prothrombin time"),
                    ("2345-7", "Glucose"))
SEARCH_TOOLS = (
    "fhir_condition_search_problems", "fhir_observation_search_labs",
    "fhir_observation_search_vitals", "fhir_observation_search_social_history",
    "fhir_procedure_search_orders", "fhir_medication_request_search_orders",
    "fhir_document_reference_search_clinical_notes", "fhir_service_request_search",
)
PREMATURE_SUMMARIES = ("No action needed.", "Deferring to the referring clinician.",
                       "Need more information before advising.")
CONTRADICTING_ADDENDUM = (
    "\n\nAddendum: on reflection, no new orders or medication changes are needed; "
    "stop any new prescription and continue the previous plan.\n")
MISLEADING_NOTE = (
    "# Consult note\n\nReviewed the chart. No change to the current management is needed; "
    "continue the current plan and follow up as needed with primary care.\n")


@dataclass(frozen=True)
class MenuItem:
    """One candidate tool call and where it came from (``oracle`` or a distractor kind)."""

    kind: str
    action: dict[str, Any]

    def key(self) -> str:
        """A canonical text of the call, used to drop duplicates."""
        return json.dumps(self.action, sort_keys=True)


def oracle_items(oracle_actions: Sequence[dict[str, Any]]) -> list[MenuItem]:
    """The oracle's calls (its note is one ``write_file``) as menu items."""
    return [MenuItem("oracle", _copy(action)) for action in oracle_actions]


def distractor_items(instance: TaskInstance, oracle: Sequence[MenuItem]) -> list[MenuItem]:
    """Mistakes an agent could make on this instance, most instructive first."""
    calls = [item.action for item in oracle]
    patient = instance.patient_id
    note = instance.note_path
    items = [MenuItem("premature_finish", {"tool": "finish", "arguments": {"summary": summary}})
             for summary in PREMATURE_SUMMARIES]
    items.append(MenuItem("misleading_note", {"tool": "write_file", "arguments": {
        "file_path": note, "content": MISLEADING_NOTE}}))
    items.append(MenuItem("contradicting_addendum", {"tool": "write_file", "arguments": {
        "file_path": note, "content": CONTRADICTING_ADDENDUM, "mode": "append"}}))
    for call in _of_tool(calls, "fhir_medication_request_create")[:2]:
        items.extend(_wrong_medications(call, instance))
    for call in _of_tool(calls, "fhir_service_request_create")[:2]:
        items.append(_wrong_service(call))
    items.extend(_wrong_patient(calls, other_patient(instance.spec.id)))
    items.extend(_wrong_codes(calls))
    items.extend(_irrelevant_searches(calls, patient))
    return items


def padding_items(count: int) -> list[MenuItem]:
    """Inert calls (searches that find nobody) that keep the menu size constant."""
    return [MenuItem("padding", {"tool": "fhir_patient_search_demographics", "arguments": {
        "family": f"Nobody{index:02d}"}}) for index in range(count)]


def build_menu(instance: TaskInstance, oracle_actions: Sequence[dict[str, Any]],
               size: int) -> list[MenuItem]:
    """Exactly ``size`` distinct items: the oracle's calls, distractors, then padding."""
    oracle = oracle_items(oracle_actions)
    if len(oracle) + MIN_DISTRACTORS > size:
        raise PhysBenchError(
            f"menu_size {size} is too small for task {instance.spec.id!r}: its oracle has "
            f"{len(oracle)} calls and the menu needs {MIN_DISTRACTORS} distractors")
    items = _unique(oracle + distractor_items(instance, oracle))[:size]
    return items + padding_items(size - len(items))


def default_menu_size(tasks: Iterable[str]) -> int:
    """A menu size that fits every task given: longest oracle plus distractors, by 8s."""
    longest = max(len(get_instance(task_id).oracle.calls) + 2 for task_id in tasks)
    return -(-(longest + 2 * MIN_DISTRACTORS) // 8) * 8


def other_patient(task_id: str) -> str:
    """The patient of another task (a real chart in the EHR), or an unknown id."""
    for other in task_ids():
        if other == task_id:
            continue
        try:
            patient = load_spec(other).story.get("patient") or {}
        except PhysBenchError:
            continue
        if isinstance(patient.get("id"), str) and "{" not in patient["id"]:
            return patient["id"]
    return "pt-unknown-000"


def _wrong_medications(call: dict[str, Any], instance: TaskInstance) -> list[MenuItem]:
    args = call["arguments"]
    items = []
    if isinstance(args.get("dose_value"), (int, float)):
        items.append(MenuItem("unsafe_dose", {"tool": call["tool"], "arguments": {
            **args, "dose_value": args["dose_value"] * 4}}))
    chart_codes = [med.code for med in instance.story.medications
                   if med.code != args.get("medication_code")]
    if chart_codes:
        wrong = {key: value for key, value in args.items() if key != "medication_display"}
        items.append(MenuItem("wrong_drug", {"tool": call["tool"], "arguments": {
            **wrong, "medication_code": chart_codes[-1]}}))
    return items


def _wrong_service(call: dict[str, Any]) -> MenuItem:
    args = call["arguments"]
    code, display = next(pair for pair in UNRELATED_ORDERS if pair[0] != args.get("code"))
    return MenuItem("wrong_order", {"tool": call["tool"], "arguments": {
        "patient": args.get("patient"), "code": code, "system": "loinc", "display": display,
        "category": "laboratory"}})


def _wrong_patient(calls: list[dict[str, Any]], patient: str) -> list[MenuItem]:
    searches = [c for c in calls if c["tool"] in SEARCH_TOOLS and "patient" in c["arguments"]]
    return [MenuItem("wrong_patient", {"tool": call["tool"], "arguments": {
        **call["arguments"], "patient": patient}}) for call in searches[-2:]]


def _wrong_codes(calls: list[dict[str, Any]]) -> list[MenuItem]:
    labs = [c for c in _of_tool(calls, "fhir_observation_search_labs") if "code" in c["arguments"]]
    used = {code for call in labs for code in str(call["arguments"]["code"]).split(",")}
    unused = [code for code in UNRELATED_LABS if code not in used]
    return [MenuItem("wrong_code", {"tool": call["tool"], "arguments": {
        **call["arguments"], "code": code}}) for call, code in zip(labs[:2], unused, strict=False)]


def _irrelevant_searches(calls: list[dict[str, Any]], patient: str) -> list[MenuItem]:
    used = {call["tool"] for call in calls}
    unused = [tool for tool in SEARCH_TOOLS if tool not in used]
    items = [MenuItem("irrelevant_search", {"tool": tool, "arguments": {
        "patient": patient, "count": 1}}) for tool in unused]
    items.append(MenuItem("irrelevant_search", {"tool": "fhir_observation_search_labs",
                                                "arguments": {"patient": patient,
                                                              "code": UNRELATED_LABS[-1]}}))
    return items


def _of_tool(calls: list[dict[str, Any]], tool: str) -> list[dict[str, Any]]:
    return [call for call in calls if call["tool"] == tool]


def _unique(items: list[MenuItem]) -> list[MenuItem]:
    seen: set[str] = set()
    kept = []
    for item in items:
        if item.key() not in seen:
            seen.add(item.key())
            kept.append(item)
    return kept


def _copy(action: dict[str, Any]) -> dict[str, Any]:
    return {"tool": action["tool"], "arguments": dict(action["arguments"])}
