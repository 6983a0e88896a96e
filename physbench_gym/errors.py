"""The library's exception hierarchy for misuse by the calling program.

Mistakes made by an agent inside an episode are never raised: they become error observations.
"""

from __future__ import annotations

from physbench_gym.fhir.errors import FhirError, FhirTransportError


class PhysBenchError(Exception):
    """Base class of every exception this library raises on purpose."""


class InfrastructureError(PhysBenchError):
    """A service outside the episode failed (LLM endpoint, judge): not the agent's mistake.

    Evaluation records such episodes apart, keeps them out of the metrics and retries them.
    """


class TaskSpecError(PhysBenchError, ValueError):
    """A task spec file is invalid (schema, templates, references)."""


class UnknownTaskError(PhysBenchError, KeyError):
    """A task id is not registered; the message suggests close matches."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown task"


__all__ = ["FhirError", "FhirTransportError", "InfrastructureError", "PhysBenchError",
           "TaskSpecError", "UnknownTaskError"]
