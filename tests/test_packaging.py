"""The wheel carries what ``pip install physbench-gym`` needs outside the repository."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA_FOLDERS = {"envs": ("*.yaml",), "task_specs": ("*.yaml", "*.md"), "graders": ("*.py",)}
SKIPPED = shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build", "dist", ".ci-venv",
                                 ".venv", "runs", ".pytest_cache", ".ruff_cache", ".hypothesis")


def _backend_missing() -> str | None:
    for module in ("setuptools", "wheel"):
        if importlib.util.find_spec(module) is None:
            return f"the {module} build backend is not installed"
    return None


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A snapshot of the sources: the wheel is built from it and compared against it."""
    reason = _backend_missing()
    if reason:
        pytest.skip(reason)
    snapshot = tmp_path_factory.mktemp("wheel") / "src"
    shutil.copytree(ROOT, snapshot, ignore=SKIPPED)
    return snapshot


@pytest.fixture(scope="module")
def wheel_path(source: Path) -> Path:
    """Build the wheel from the snapshot (the shared tree itself stays untouched)."""
    out = source.parent / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out), str(source)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    wheels = list(out.glob("physbench_gym-*.whl"))
    assert len(wheels) == 1
    return wheels[0]


@pytest.fixture(scope="module")
def wheel_names(wheel_path: Path) -> set[str]:
    with zipfile.ZipFile(wheel_path) as archive:
        return set(archive.namelist())


def _files(folder: Path, patterns: tuple[str, ...]) -> set[str]:
    return {path.relative_to(folder).as_posix() for pattern in patterns
            for path in folder.rglob(pattern) if "__pycache__" not in path.parts}


def test_wheel_has_the_library_and_the_console_script(wheel_path: Path,
                                                      wheel_names: set[str]) -> None:
    assert "physbench_gym/__init__.py" in wheel_names
    assert "physbench_gym/fhir/client.py" in wheel_names
    assert not any(name.startswith("tests/") for name in wheel_names)
    entry_points = next(name for name in wheel_names if name.endswith("entry_points.txt"))
    with zipfile.ZipFile(wheel_path) as archive:
        text = archive.read(entry_points).decode()
    assert "physbench = physbench_gym.cli:main" in text


def test_wheel_has_every_module(source: Path, wheel_names: set[str]) -> None:
    expected = {f"physbench_gym/{name}" for name in _files(source / "physbench_gym", ("*.py",))}
    assert expected <= wheel_names, f"missing: {sorted(expected - wheel_names)[:10]}"


@pytest.mark.parametrize("folder", sorted(DATA_FOLDERS))
def test_wheel_carries_data_folders(source: Path, wheel_names: set[str], folder: str) -> None:
    expected = _files(source / folder, DATA_FOLDERS[folder])
    if not expected:
        pytest.skip(f"{folder}/ holds no files yet")
    carried = {name.removeprefix(f"physbench_gym/_data/{folder}/") for name in wheel_names
               if name.startswith(f"physbench_gym/_data/{folder}/")}
    assert expected <= carried, f"missing from the wheel: {sorted(expected - carried)[:10]}"


def test_wheel_carries_package_data_tables(source: Path, wheel_names: set[str]) -> None:
    package = source / "physbench_gym"
    expected = {f"physbench_gym/{name}"
                for name in _files(package, ("*.tsv", "*.csv", "*.json", "*.tmpl"))}
    if not expected:
        pytest.skip("the package holds no data tables yet")
    assert expected <= wheel_names, f"missing: {sorted(expected - wheel_names)[:10]}"
