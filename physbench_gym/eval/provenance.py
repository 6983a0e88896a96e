"""What graded a run: the package version, a content hash of every task spec, grader module and
terminology table it used, and the grader mode.

``run.json`` records it when a run starts. Resuming a run whose files have changed since is
refused, and every remote worker checks that it runs the same files as the driver, so results
graded by different code never mix in one ``results.jsonl``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from physbench_gym.errors import PhysBenchError

GRADING_SUFFIXES = (".py", ".tsv", ".yaml", ".json")
SHOWN_CHANGES = 5


class ProvenanceError(PhysBenchError):
    """A run's recorded provenance differs from the code and data that would continue it."""


def compute_provenance(tasks: Iterable[str], judge_model: str | None) -> dict[str, Any]:
    """The provenance of a run over ``tasks``, graded deterministically or by ``judge_model``.

    ``hashes`` maps a label (``task_specs/<group>/<task>.yaml``, ``graders/<module>.py``,
    ``grading/<file>``, ``terminology/<table>.tsv``) to the SHA-256 of the file's bytes.
    """
    import physbench_gym
    from physbench_gym._resources import data_dir
    from physbench_gym.tasks.registry import spec_paths

    package = Path(physbench_gym.__file__).resolve().parent
    paths = spec_paths()
    files: dict[str, Path] = {}
    for task_id in sorted(set(tasks)):
        path = paths[task_id]
        files[f"task_specs/{path.parent.name}/{path.name}"] = path
    for label, root in (("graders", data_dir("graders")), ("grading", package / "grading")):
        for path in sorted(root.rglob("*")):
            if path.suffix in GRADING_SUFFIXES and "__pycache__" not in path.parts:
                files[f"{label}/{path.relative_to(root).as_posix()}"] = path
    for path in sorted((package / "synth" / "data").glob("*.tsv")):
        files[f"terminology/{path.name}"] = path
    return {"version": physbench_gym.__version__,
            "grader_mode": f"judge:{judge_model}" if judge_model else "deterministic",
            "hashes": {label: _sha256(path) for label, path in files.items()}}


def provenance_changes(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """What differs between two provenances: the version, the grader mode, and each file
    hashed by both with other contents or hashed by only one of them (task specs may be
    added: a resumed run may take on more tasks)."""
    changes = [f"{key} {recorded.get(key)!r} -> {current.get(key)!r}"
               for key in ("version", "grader_mode") if recorded.get(key) != current.get(key)]
    before, after = recorded.get("hashes", {}), current.get("hashes", {})
    for label in sorted(before.keys() | after.keys()):
        if label.startswith("task_specs/") and (label not in before or label not in after):
            continue
        if before.get(label) != after.get(label):
            state = "added" if label not in before else "removed" if label not in after \
                else "changed"
            changes.append(f"{label} {state}")
    return changes


def check_provenance(recorded: Mapping[str, Any], current: Mapping[str, Any],
                     message: str) -> None:
    """Raise ProvenanceError with ``message`` (its ``{changes}`` filled with the first few
    differences), if there are any."""
    changes = provenance_changes(recorded, current)
    if changes:
        shown = ", ".join(changes[:SHOWN_CHANGES])
        more = f" and {len(changes) - SHOWN_CHANGES} more" if len(changes) > SHOWN_CHANGES else ""
        raise ProvenanceError(message.format(changes=shown + more))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
