"""Shared runs of ``physbench eval`` for the evaluation tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
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


def start_and_kill(args: Sequence[str], out: Path, after_lines: int) -> int:
    """Start ``physbench <args> --out <out>`` and SIGKILL it once ``results.jsonl`` holds
    ``after_lines`` lines; the exit code."""
    process = subprocess.Popen([sys.executable, "-m", "physbench_gym.cli", *args,
                                "--out", str(out)], cwd=REPO, env=dict(os.environ),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists() and results.read_bytes().count(b"\n") >= after_lines:
                process.send_signal(signal.SIGKILL)
                break
            time.sleep(0.005)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    return process.returncode
