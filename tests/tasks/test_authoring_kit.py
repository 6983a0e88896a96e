"""The authoring kit: ``physbench task new`` writes a scaffold that loads and fails its gates;
``physbench task check`` prints one line per gate, honours a spec's known gaps (and fails a
stale one), and exits non-zero on a failure."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from physbench_gym.cli import main
from physbench_gym.tasks.check import GATES, open_findings
from physbench_gym.tasks.corpus import NoteCorpus
from physbench_gym.tasks.registry import load_spec_file

CATALOG_TASK = "pruritic_papular_rash"  # its classification comes from the catalog row
TASK = "scabies_institutional_outbreak"  # a new topic: the suite covers every catalog topic
GROUP_DIR = "pulmonology_other"
CLASSIFICATION = ["--group", "Pulmonology & Other Specialties", "--type", "Treatment Planning",
                  "--subtype", "Empiric Treatment", "--tier", "medium", "--specialty",
                  "pulmonology"]


def _physbench(*args: str, specs: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if specs is not None:
        env["PHYSBENCH_TASK_SPECS"] = str(specs)
    return subprocess.run([sys.executable, "-m", "physbench_gym.cli", *args], env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("project")
    assert main(["task", "new", TASK, "--root", str(root), *CLASSIFICATION]) == 0
    return root


def test_scaffold_files_load_and_take_the_catalog_row(tmp_path):
    assert main(["task", "new", CATALOG_TASK, "--root", str(tmp_path)]) == 0
    spec = load_spec_file(tmp_path / "task_specs" / GROUP_DIR / f"{CATALOG_TASK}.yaml")
    assert (spec.specialty_group, spec.task_type, spec.subtype, spec.tier) == (
        "Pulmonology & Other Specialties", "Treatment Planning", "Empiric Treatment", "medium")
    assert spec.practitioner_id == "prac-pulmonology"
    corpus = (tmp_path / "task_specs" / GROUP_DIR / "notes" / f"{CATALOG_TASK}.yaml").read_text()
    assert NoteCorpus.model_validate(yaml.safe_load(corpus)).task == CATALOG_TASK
    test = tmp_path / "tests" / "tasks" / f"test_{CATALOG_TASK}.py"
    compile(test.read_text(), str(test), "exec")


def test_scaffold_never_overwrites(scaffold, capsys):
    spec = scaffold / "task_specs" / GROUP_DIR / f"{TASK}.yaml"
    before = spec.read_text()
    assert main(["task", "new", TASK, "--root", str(scaffold), *CLASSIFICATION]) == 2
    assert "not overwriting" in capsys.readouterr().err
    assert spec.read_text() == before


def test_an_id_outside_the_catalog_needs_its_classification(tmp_path, capsys):
    assert main(["task", "new", "my_new_topic", "--root", str(tmp_path)]) == 2
    assert "--group is required" in capsys.readouterr().err
    assert main(["task", "new", "my_new_topic", "--root", str(tmp_path), "--group",
                 "Cardiology", "--type", "Treatment Planning", "--subtype", "Risk-Benefit "
                 "Analysis", "--tier", "hard", "--specialty", "geriatrics"]) == 0
    spec = load_spec_file(tmp_path / "task_specs" / "cardiology" / "my_new_topic.yaml")
    assert (spec.tier, spec.specialty, spec.practitioner_id) == (
        "hard", "geriatrics", "prac-geriatrics")
    assert main(["task", "new", "Bad-Id", "--root", str(tmp_path)]) == 2


def test_the_scaffold_fails_its_gates_until_filled_in(scaffold):
    run = _physbench("task", "check", TASK, "--gate", "spec", "--gate", "horizon",
                     "--gate", "corpus", "--gate", "review",
                     specs=scaffold / "task_specs")
    assert run.returncode == 1, run.stderr
    lines = {line.split()[1]: line for line in run.stdout.splitlines()
             if line.startswith("  ")}
    assert set(lines) == {"spec", "horizon", "corpus", "review"}
    assert all(line.split()[0] == "FAIL" for line in lines.values()), run.stdout
    assert "TODO" in lines["spec"] and "need 5 to 10" in lines["spec"]  # no catalog row
    assert "not a topic of the task catalog" in lines["spec"]
    assert "no review at" in lines["review"]


def test_known_gaps_are_reported_and_must_stay_true(scaffold, tmp_path):
    specs = tmp_path / "task_specs"
    (specs / GROUP_DIR).mkdir(parents=True)
    text = (scaffold / "task_specs" / GROUP_DIR / f"{TASK}.yaml").read_text()
    gaps = ("\nknown_gaps:\n  horizon: the chart is still short\n"
            "  codes: listed, but the codes are all known\n")
    (specs / GROUP_DIR / f"{TASK}.yaml").write_text(text + gaps)
    run = _physbench("task", "check", TASK, "--gate", "horizon", "--gate", "codes",
                     specs=specs)
    lines = [line.split() for line in run.stdout.splitlines() if line.startswith("  ")]
    assert [(words[0], words[1]) for words in lines] == [("GAP", "horizon"), ("FAIL", "codes")]
    assert "no longer occurs" in run.stdout and run.returncode == 1


def test_check_of_a_registered_task_and_bad_arguments(capsys):
    assert main(["task", "check", "buprenorphine_initiation", "--gate", "spec",
                 "--gate", "codes"]) == 0
    out = capsys.readouterr().out
    assert "PASS spec" in out and "PASS codes" in out
    assert main(["task", "check", "buprenorphine_initiation", "--gate", "speed"]) == 2
    assert "unknown gate" in capsys.readouterr().err
    assert main(["task", "check", "no_such_task"]) == 2
    assert main(["task", "check"]) == 2


def test_every_gate_has_a_docstring_and_is_documented():
    guide = (Path(__file__).parents[2] / "docs" / "authoring.md").read_text()
    for name, gate in GATES.items():
        assert gate.__doc__, name
        assert f"`{name}`" in guide, name


def test_a_review_is_open_until_each_serious_finding_is_closed():
    review = """# Clinical review: t

## Findings

1. **critical** — dose checkpoint rejects tablets
   - Status: fixed — probe passes now
2. **major** — stale value accepted
   - Evidence: "Hb 9" passes
3. **major** — narrow synonym list
   - Status: open — "EGD" still fails
4. **minor** — wording
5. **major** — brief names an old guideline
   - Status: answered — the 2024 update keeps the threshold (reference 4)
"""
    found = open_findings(review)
    assert [f.split(":")[0] for f in found] == ["line 7", "line 9"]
    assert "no status" in found[0] and "open" in found[1]


def test_a_task_outside_the_package_brings_its_own_derive(scaffold, tmp_path):
    specs = tmp_path / "task_specs"
    (specs / GROUP_DIR).mkdir(parents=True)
    (tmp_path / "graders").mkdir()
    (tmp_path / "graders" / "outside_topic.py").write_text(
        "def derive(values):\n    return {'band': 'low' if values['hemoglobin'] < 10 "
        "else 'normal'}\n")
    text = (scaffold / "task_specs" / GROUP_DIR / f"{TASK}.yaml").read_text()
    text = text.replace("story:", "derive: graders/outside_topic.py:derive\n\nstory:", 1)
    text = text.replace("TODO the e-consult question", "Hemoglobin band {band}. TODO the")
    (specs / GROUP_DIR / f"{TASK}.yaml").write_text(text)
    run = _physbench("task", "render", TASK, specs=specs)
    assert run.returncode == 0, run.stderr
    assert "Hemoglobin band normal." in run.stdout


def test_a_patient_id_another_task_uses_fails_the_spec_gate(tmp_path):
    root = tmp_path / "project"
    assert main(["task", "new", TASK, "--root", str(root), *CLASSIFICATION]) == 0
    spec_file = root / "task_specs" / GROUP_DIR / f"{TASK}.yaml"
    spec_file.write_text(re.sub(r"patient: \{id: [\w-]+", "patient: {id: pt-lipid-001",
                                spec_file.read_text()))
    run = _physbench("task", "check", TASK, "--gate", "spec", specs=root / "task_specs")
    assert run.returncode == 1, run.stderr
    assert "patient id 'pt-lipid-001' is also 'lipid_statin_management'" in run.stdout
