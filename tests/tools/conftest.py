"""Fixtures of the tool tests: one base EHR, and a fresh episode (fork) per test."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tools_ehr import ME, NOW, TAG, chart

from physbench_gym.fhir.client import FhirClient, in_process_client
from physbench_gym.fhir.clock import IdSource, SimulatedClock
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.tools import ToolContext, ToolResult, Workspace, get_toolset


@pytest.fixture(scope="session")
def base_store() -> BaseStore:
    """The immutable base EHR shared by every test."""
    return BaseStore.from_resources(chart())


@pytest.fixture()
def server(base_store: BaseStore) -> FhirServer:
    """A fresh episode: a server over a new fork of the base."""
    return FhirServer(base_store.fork(), clock=SimulatedClock(NOW), ids=IdSource(11))


@pytest.fixture()
def client(server: FhirServer) -> FhirClient:
    """The real FHIR client over the in-process transport, tagging writes with TAG."""
    return in_process_client(server, tags=[TAG])


@pytest.fixture()
def ctx(client: FhirClient) -> ToolContext:
    """The context tools run in: client, empty workspace, consulting physician, task clock."""
    return ToolContext(client=client, workspace=Workspace(), practitioner_id=ME, now=NOW)


@pytest.fixture()
def call(ctx: ToolContext) -> Callable[..., ToolResult]:
    """Call a ``physicianbench`` tool by name with keyword arguments."""
    toolset = get_toolset("physicianbench")

    def run(name: str, **arguments: Any) -> ToolResult:
        return toolset.call(name, arguments, ctx)

    return run
