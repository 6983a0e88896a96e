"""Running a task's oracle and grading candidate notes against a task instance."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

import physbench_gym  # noqa: F401  (registers the env ids)
from physbench_gym.agents import EpisodeResult, OracleAgent, run_episode
from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import FILE, GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance


def run_oracle(task_id: str, variant: int | None = None, seed: int = 0) -> EpisodeResult:
    """One oracle episode of a task instance on the embedded EHR."""
    env = gym.make(f"PhysicianBench/{task_id}-v0")
    try:
        options = {"variant": "canonical" if variant is None else variant}
        return run_episode(env, OracleAgent(), seed=seed, options=options)
    finally:
        env.close()


def grade_note(task_id: str, note: str, variant: int | None = None) -> dict[str, bool]:
    """Verdicts of the task's note-only checkpoints (documentation/reasoning) for ``note``."""
    instance = get_instance(task_id, variant)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    return {c.id: c.grader.check(ctx).passed for c in instance_checkpoints(task_id, variant)
            if c.grader.triggers == {FILE}}


def oracle_note(task_id: str, variant: int | None = None) -> str:
    return get_instance(task_id, variant).oracle.note


def values(task_id: str, variant: int | None = None) -> dict[str, Any]:
    return dict(get_instance(task_id, variant).values)


def service_request(code: str, system: str, category: str, **extra: str) -> dict[str, Any]:
    """A ServiceRequest create action for the task's patient ('reason', 'occurrence', ...)."""
    return {"tool": "fhir_service_request_create",
            "arguments": {"patient": "{patient_id}", "code": code, "system": system,
                          "category": category, **extra}}
