"""The EHR an episode runs in: the embedded FHIR server, or any FHIR R4 server over HTTP.

Both give the env a ``FhirClient`` whose writes carry the episode's tag; the env and graders
never know which one they talk to.
"""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from physbench_gym.fhir.client import FhirClient, HttpTransport, in_process_client, load_bundle
from physbench_gym.fhir.clock import IdSource, SimulatedClock
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.loading import bundle_from_resources
from physbench_gym.synth.roster import roster_resources
from physbench_gym.tasks.charts import DEFAULT_BACKGROUND_PATIENTS, chart_of, store_for
from physbench_gym.tasks.variants import TaskInstance

TAG_SYSTEM = "urn:physbench-gym:episode"
WRITABLE_TYPES = (
    "MedicationRequest", "ServiceRequest", "Communication", "Appointment", "Observation",
    "Condition", "Procedure", "DocumentReference", "DiagnosticReport", "CarePlan",
    "MedicationStatement", "AllergyIntolerance", "Immunization", "Encounter",
)


class EpisodeEHR(Protocol):
    """Opens a fresh EHR state for an episode and hands out a tagged client."""

    def open(self, instance: TaskInstance, tag_code: str,
             id_seed: int) -> tuple[FhirClient, dict[str, Any]]: ...

    def close(self) -> None: ...


class EmbeddedEHR:
    """A fork of the shared in-memory base store per episode; reset costs nothing."""

    def __init__(self, background_patients: int = DEFAULT_BACKGROUND_PATIENTS) -> None:
        self.background_patients = background_patients

    def open(self, instance: TaskInstance, tag_code: str,
             id_seed: int) -> tuple[FhirClient, dict[str, Any]]:
        """A client over a fresh fork of the instance's store, and the episode tag."""
        view = store_for(instance, self.background_patients).fork()
        server = FhirServer(view, clock=SimulatedClock(instance.now),
                            ids=IdSource(seed=id_seed))
        tag = episode_tag(tag_code)
        return in_process_client(server, tags=[tag]), tag

    def close(self) -> None:
        return None


class RemoteEHR:
    """Any FHIR R4 server: the task's chart is loaded once, earlier episode writes removed."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0) -> None:
        self._admin = FhirClient(HttpTransport(base_url, token=token, timeout=timeout))
        self._base_url, self._token, self._timeout = base_url, token, timeout
        self._loaded: set[tuple[str, str]] = set()
        self._previous_tag: str | None = None
        self._client: FhirClient | None = None

    def open(self, instance: TaskInstance, tag_code: str,
             id_seed: int) -> tuple[FhirClient, dict[str, Any]]:
        """Load the chart if needed, remove the last episode's writes, hand out a client."""
        self._remove_previous_writes()
        key = (instance.spec.id, instance.variant)
        if key not in self._loaded:
            load_bundle(self._admin, bundle_from_resources(roster_resources() + chart_of(
                instance)))
            self._loaded.add(key)
        unique = f"{tag_code}.{uuid.uuid4().hex[:12]}"
        self._previous_tag = unique
        if self._client is not None:
            self._client.close()
        tag = episode_tag(unique)
        self._client = FhirClient(HttpTransport(self._base_url, token=self._token,
                                                timeout=self._timeout), tags=[tag])
        return self._client, tag

    def _remove_previous_writes(self) -> None:
        if self._previous_tag is None:
            return
        tag = f"{TAG_SYSTEM}|{self._previous_tag}"
        for resource_type in WRITABLE_TYPES:
            for resource in self._admin.search_all(resource_type, [("_tag", tag)]):
                self._admin.delete(resource_type, resource["id"])
        self._previous_tag = None

    def close(self) -> None:
        self._remove_previous_writes()
        if self._client is not None:
            self._client.close()
            self._client = None
        self._admin.close()


def episode_tag(code: str) -> dict[str, Any]:
    """The meta.tag Coding that marks an episode's writes."""
    return {"system": TAG_SYSTEM, "code": code}
