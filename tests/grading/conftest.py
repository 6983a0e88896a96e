"""Grading tests run graders against real contexts: an embedded EHR and a note."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import GradingContext, build_grader

NOTE = "/workspace/output/consult_note.md"


@pytest.fixture(scope="module")
def empty_client():
    return in_process_client(FhirServer(BaseStore.from_resources([]).fork()))


@pytest.fixture
def grade(empty_client) -> Callable[[dict, str], bool]:
    """grade(grader_spec, note_text) -> passed."""

    def run(spec: dict, note: str) -> bool:
        ctx = GradingContext(client=empty_client, episode_tag={"system": "s", "code": "c"},
                             patient_id="p1", note_path=NOTE, files={NOTE: note})
        return build_grader(spec).check(ctx).passed

    return run
