"""Every gate of ``physbench task check`` on every task (the rules live in
physbench_gym/tasks/check.py; a spec's ``known_gaps`` turn a listed failure into a gap, and a
listed gap that no longer occurs fails)."""

from __future__ import annotations

import pytest

from physbench_gym.cli import main
from physbench_gym.tasks.check import GATES, run_gate
from physbench_gym.tasks.registry import task_ids


@pytest.mark.parametrize("gate", list(GATES))
@pytest.mark.parametrize("task_id", task_ids())
def test_gate(task_id, gate):
    result = run_gate(task_id, gate)
    assert result.status in ("pass", "gap"), "\n".join(result.messages)


def test_check_all_passes(capsys):
    """``physbench task check --all`` (the gates above, cached in this process) exits 0."""
    code = main(["task", "check", "--all"])
    lines = [line.split()[0] for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ")]
    assert code == 0 and "FAIL" not in lines
    assert len(lines) == len(GATES) * len(task_ids())
