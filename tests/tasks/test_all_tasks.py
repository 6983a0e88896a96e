"""Every task: well-formed spec, oracle scores 1 on canonical and seeded variants, doing
nothing scores 0, and a keyword-stuffed note does not pass."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.grading.core import FILE
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance, load_spec, task_ids
from physbench_gym.tasks.spec import CAPABILITIES
from tests.tasks.helpers import run_oracle

VARIANTS = [None, *range(20)]
TASKS = task_ids()


@pytest.mark.parametrize("task_id", TASKS)
def test_spec_meets_the_bar(task_id):
    spec = load_spec(task_id)
    assert 5 <= len(spec.checkpoints) <= 9
    assert len({c.capability for c in spec.checkpoints} & set(CAPABILITIES)) >= 3
    assert len(spec.references) >= 3
    assert len(spec.oracle.calls) >= 5


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "canonical" if v is None else f"v{v}")
@pytest.mark.parametrize("task_id", TASKS)
def test_oracle_solves_every_variant(task_id, variant):
    result = run_oracle(task_id, variant)
    failed = {k: v["reason"] for k, v in result.checkpoints.items() if not v["passed"]}
    assert result.success, failed
    assert result.total_reward == pytest.approx(1.0)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_scores_zero(task_id):
    env = gym.make(f"PhysicianBench/{task_id}-v0")
    env.reset(seed=0)
    *_, info = env.step({"tool": "finish", "arguments": {"summary": "no action"}})
    env.close()
    assert info["score"] == 0.0 and info["success"] is False


@pytest.mark.parametrize("task_id", TASKS)
def test_oracle_without_its_orders_fails(task_id):
    """Only the note, no EHR writes: every action checkpoint must fail."""
    env = gym.make(f"PhysicianBench/{task_id}-v0")
    env.reset(seed=0)
    writes = {"fhir_medication_request_create", "fhir_service_request_create",
              "fhir_communication_create_message", "fhir_appointment_create"}
    for action in env.unwrapped.oracle_actions():
        if action["tool"] not in writes:
            *_, info = env.step(action)
    env.close()
    actions = [c for c in info["checkpoints"].values() if c["capability"] == "action_execution"]
    assert actions and not any(c["passed"] for c in actions)


@pytest.mark.parametrize("task_id", TASKS)
def test_variants_differ(task_id):
    canonical, variant = get_instance(task_id), get_instance(task_id, 7)
    assert canonical.patient_id != variant.patient_id
    assert canonical.oracle.note != variant.oracle.note


@pytest.mark.parametrize("task_id", TASKS)
def test_note_only_checkpoints_exist(task_id):
    assert any(c.grader.triggers == {FILE} for c in instance_checkpoints(task_id, None))
