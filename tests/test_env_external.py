"""The same env against an external FHIR R4 server over HTTP (``physbench serve`` on 127.0.0.1)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents import OracleAgent, run_episode
from physbench_gym.fhir.client import FhirClient, HttpTransport
from physbench_gym.fhir.http_app import ServerThread
from physbench_gym.fhir.store import BaseStore

TASK = "thyroid_medication_management"


@pytest.fixture(scope="module")
def server():
    thread = ServerThread(base=BaseStore.from_resources([]))
    yield thread
    thread.stop()


def test_oracle_succeeds_against_an_http_fhir_server(server):
    env = gym.make(f"PhysicianBench/{TASK}-v0", fhir_base_url=server.base_url)
    result = run_episode(env, OracleAgent(), seed=0)
    assert result.success, {k: v["reason"] for k, v in result.checkpoints.items()}
    admin = FhirClient(HttpTransport(server.base_url))
    patient = env.unwrapped.instance.patient_id
    assert admin.search_all("MedicationRequest", {"patient": patient, "status": "active",
                                                  "_count": "100"})
    written = admin.search("ServiceRequest", {"patient": patient})["total"]
    assert written >= 1
    env.reset(seed=1)
    assert admin.search("ServiceRequest", {"patient": patient})["total"] == written - 1
    env.close()
    admin.close()


def test_unreachable_server_is_a_clear_error():
    env = gym.make(f"PhysicianBench/{TASK}-v0", fhir_base_url="http://127.0.0.1:9/fhir")
    with pytest.raises(ConnectionError):
        env.reset(seed=0)
    env.close()
