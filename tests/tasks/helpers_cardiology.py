"""Grading a candidate note against named checkpoints, including function graders.

``helpers.grade_note`` keeps only the checkpoints whose triggers are exactly the note file;
a ``graders/<file>.py:<function>`` checkpoint is triggered by every event, so it is graded
here by id, with the same empty-EHR context.
"""

from __future__ import annotations

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance


def grade_note_checks(task_id: str, note: str, ids: set[str],
                      variant: int | None = None) -> dict[str, bool]:
    """Verdicts of the checkpoints ``ids`` for a note, with nothing written to the EHR."""
    instance = get_instance(task_id, variant)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    found = {c.id: c.grader.check(ctx).passed
             for c in instance_checkpoints(task_id, variant) if c.id in ids}
    missing = ids - set(found)
    if missing:
        raise KeyError(f"{task_id} has no checkpoints {sorted(missing)}")
    return found
