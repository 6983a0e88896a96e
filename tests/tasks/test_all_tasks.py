"""Every task: its seeded variants are distinct instances (the gates every task must pass run
in test_gates.py)."""

from __future__ import annotations

import pytest

from physbench_gym.tasks.registry import get_instance, task_ids


@pytest.mark.parametrize("task_id", task_ids())
def test_variants_differ(task_id):
    canonical, variant = get_instance(task_id), get_instance(task_id, 7)
    assert canonical.patient_id != variant.patient_id
    assert canonical.oracle.note != variant.oracle.note
