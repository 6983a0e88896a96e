"""``physbench task new``: the files of a new task (spec, note corpus, test), filled from the
catalog row where the id is a catalog topic. The scaffold loads, and fails the gates of
``physbench task check`` until its TODOs are replaced."""

from __future__ import annotations

from pathlib import Path

from physbench_gym.errors import PhysBenchError
from physbench_gym.synth.roster import specialist_id
from physbench_gym.synth.terminology import SPECIALTIES
from physbench_gym.tasks.catalog import GROUP_DIRS, catalog_row
from physbench_gym.tasks.spec import SPECIALTY_GROUPS, TASK_TYPES

_TEMPLATES = Path(__file__).with_name("templates")
TIERS = ("easy", "medium", "hard")


def _choose(name: str, given: str | None, from_catalog: str | None, allowed: tuple) -> str:
    value = given or from_catalog
    if value is None:
        raise PhysBenchError(f"--{name.replace('_', '-')} is required: the id is not a "
                             f"catalog topic (choose from {', '.join(allowed) or 'any text'})")
    if allowed and value not in allowed:
        raise PhysBenchError(f"{name} {value!r} is not one of: {', '.join(allowed)}")
    return value


def new_task(task_id: str, root: str | Path, *, group: str | None = None,
             task_type: str | None = None, subtype: str | None = None,
             tier: str | None = None, specialty: str | None = None,
             now: str = "2026-06-01T15:00:00Z") -> list[Path]:
    """Write the scaffold of ``task_id`` under the project ``root``; return the files written.

    Raises PhysBenchError on a malformed id, a missing or unknown classification, or when
    any of the files exists already (nothing is overwritten).
    """
    if not task_id.replace("_", "").isalnum() or task_id != task_id.lower():
        raise PhysBenchError(f"task id {task_id!r} must be lower-case letters, digits and _")
    row = catalog_row(task_id)
    group = _choose("group", group, row and row.specialty_group, SPECIALTY_GROUPS)
    task_type = _choose("type", task_type, row and row.task_type, TASK_TYPES)
    subtype = _choose("subtype", subtype, row and row.subtype, ())
    tier = _choose("tier", tier, row and row.tier, TIERS)
    folder, default_specialty = GROUP_DIRS[group]
    specialty = _choose("specialty", specialty, default_specialty, SPECIALTIES)
    root = Path(root)
    files = {
        root / "task_specs" / folder / f"{task_id}.yaml": "spec.yaml.tmpl",
        root / "task_specs" / folder / "notes" / f"{task_id}.yaml": "corpus.yaml.tmpl",
        root / "tests" / "tasks" / f"test_{task_id}.py": "test.py.tmpl",
    }
    existing = [str(path) for path in files if path.exists()]
    if existing:
        raise PhysBenchError(f"not overwriting existing files: {', '.join(existing)}")
    fields = {"task_id": task_id, "group": group, "task_type": task_type, "subtype": subtype,
              "tier": tier, "specialty": specialty, "now": now,
              "practitioner_id": specialist_id(specialty),
              "patient_stem": task_id.replace("_", "-")[:24]}
    for path, template in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        text = (_TEMPLATES / template).read_text(encoding="utf-8").format(**fields)
        path.write_text(text, encoding="utf-8")
    return list(files)
