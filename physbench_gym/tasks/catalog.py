"""The catalog of clinical topics the suite covers (``catalog.tsv``): for each task id its
specialty group, task type, subtype and tier, and the checkpoints and tool calls the topic
took in the reference benchmark. ``physbench task new`` fills a scaffold from it and
``physbench task check`` holds a task to it."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_CATALOG = Path(__file__).with_name("catalog.tsv")
# The folder of task_specs/ (and tests) each specialty group's tasks live in, and the
# specialty a new task of the group consults by default.
GROUP_DIRS = {
    "Cardiology": ("cardiology", "cardiology"),
    "Endocrinology": ("endocrinology", "endocrinology"),
    "Gastroenterology & Hepatology": ("gastroenterology_hepatology", "gastroenterology"),
    "Hematology & Oncology": ("hematology_oncology", "hematology"),
    "Immunology & Infectious Disease": ("immunology_infectious_disease", "infectious_disease"),
    "Nephrology & Urology": ("nephrology_urology", "nephrology"),
    "Psychiatry, Neurology & Addiction": ("psychiatry_neurology_addiction", "psychiatry"),
    "Pulmonology & Other Specialties": ("pulmonology_other", "pulmonology"),
}


@dataclass(frozen=True)
class CatalogRow:
    """One clinical topic."""

    task_id: str
    specialty_group: str
    task_type: str
    subtype: str
    tier: str
    n_checkpoints: int
    n_tool_calls: int


@cache
def catalog() -> dict[str, CatalogRow]:
    """Task id -> its catalog row."""
    with _CATALOG.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return {row["task_id"]: CatalogRow(
            task_id=row["task_id"], specialty_group=row["specialty_group"],
            task_type=row["task_type"],
            # The catalog writes the subtype as "<task type> / <subtype>".
            subtype=row["subtype"].rpartition(" / ")[2], tier=row["tier"],
            n_checkpoints=int(row["n_checkpoints"]), n_tool_calls=int(row["n_tool_calls"]))
            for row in rows}


def catalog_row(task_id: str) -> CatalogRow | None:
    """The catalog row of a task id, or None when the id is not a catalog topic."""
    return catalog().get(task_id)
