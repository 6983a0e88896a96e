"""Shared runs of ``physbench eval`` for the evaluation tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def physbench(*args: str, check: bool = True, **kwargs: object) -> subprocess.CompletedProcess:
    """Run ``python -m physbench_gym.cli`` from the repository root (environment inherited)."""
    result = subprocess.run([sys.executable, "-m", "physbench_gym.cli", *args], cwd=REPO,
                            capture_output=True, text=True, env=dict(os.environ), timeout=300,
                            **kwargs)
    if check and result.returncode != 0:
        raise AssertionError(f"physbench {' '.join(args)} exited {result.returncode}:\n"
                             f"{result.stdout}\n{result.stderr}")
    return result


@pytest.fixture(scope="session")
def oracle_run(
        tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    """An oracle evaluation of every registered task with k=3, made once per session."""
    out = tmp_path_factory.mktemp("oracle") / "run"
    return out, physbench("eval", "--agent", "oracle", "--k", "3", "--out", str(out))
