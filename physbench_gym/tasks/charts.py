"""The EHR content of tasks: the shared base store and per-variant chart layers.

The base holds the practitioner roster, a background population and every task's canonical
chart; it is built once per process (and cached on disk by the synth layer). A seeded
variant's chart is generated on first use and added as an immutable layer over the base.
"""

from __future__ import annotations

import gc
import hashlib
import os
import warnings
from functools import cache, lru_cache
from pathlib import Path

from physbench_gym.errors import TaskSpecError
from physbench_gym.fhir.store import BaseStore
from physbench_gym.synth import terminology as term
from physbench_gym.synth.chart import generate_chart
from physbench_gym.synth.population import build_base_store
from physbench_gym.synth.story import StoryError
from physbench_gym.tasks.registry import get_instance, spec_paths, task_ids
from physbench_gym.tasks.variants import TaskInstance

DEFAULT_BACKGROUND_PATIENTS = int(os.environ.get("PHYSBENCH_BACKGROUND_PATIENTS", "500"))
CHART_SEED = 0


def chart_of(instance: TaskInstance) -> list[dict]:
    """The FHIR resources of a task instance's patient chart."""
    return generate_chart(instance.story, seed=CHART_SEED)


def _canonical_charts() -> tuple[list[TaskInstance], list[dict]]:
    """Canonical instances and charts of every task; a task whose spec or story is broken is
    left out with a warning, so it fails only its own episodes (with the same error) instead
    of every env in the process."""
    instances, charts = [], []
    for task_id in task_ids():
        try:
            instance = get_instance(task_id)
            chart = chart_of(instance)
        except (TaskSpecError, StoryError) as exc:
            warnings.warn(f"task {task_id} left out of the EHR: {exc}", stacklevel=3)
            continue
        instances.append(instance)
        charts.extend(chart)
    return instances, charts


@cache
def base_store(background_patients: int = DEFAULT_BACKGROUND_PATIENTS) -> BaseStore:
    """Roster, background population and every task's canonical chart (one per process).

    The disk cache is keyed by the task specs and graders (and, inside the synth layer, by
    the generator's sources and terminology), so a cached start generates no chart. The base
    never changes, so once built it is moved out of the cyclic garbage collector's reach
    (``gc.freeze``): collections then cost what the episodes allocate, not the EHR.
    """
    charts: dict[str, tuple[list[TaskInstance], list[dict]]] = {}

    def canonical() -> tuple[list[TaskInstance], list[dict]]:
        if not charts:
            charts["all"] = _canonical_charts()
        return charts["all"]

    store = build_base_store(
        patients=background_patients, seed=0, extra=lambda: canonical()[1],
        lookalikes=lambda: [instance.story for instance in canonical()[0]],
        content_key=_tasks_fingerprint())
    gc.freeze()
    return store


def _tasks_fingerprint() -> str:
    """A digest of every task spec, grader file and terminology table the canonical charts
    derive from (those of ``$PHYSBENCH_TASK_SPECS`` too, so a task being written rebuilds)."""
    from physbench_gym.tasks.graders import grader_roots

    files = [*spec_paths().values(),
             *(path for root in grader_roots() for path in sorted(root.glob("*.py"))),
             *sorted(Path(term.__file__).with_name("data").glob("*.tsv"))]
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.name}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=64)
def _variant_store(task_id: str, variant_seed: int, background_patients: int) -> BaseStore:
    instance = get_instance(task_id, variant_seed)
    return base_store(background_patients).with_layer(chart_of(instance))


def store_for(instance: TaskInstance,
              background_patients: int = DEFAULT_BACKGROUND_PATIENTS) -> BaseStore:
    """The immutable store an episode of ``instance`` forks from."""
    if instance.variant_seed is None:
        return base_store(background_patients)
    return _variant_store(instance.spec.id, instance.variant_seed, background_patients)
