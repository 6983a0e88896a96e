"""Agent tests run the real env against a scripted LLM endpoint on 127.0.0.1."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from tests.stub_llm_server import StubLLMServer

TASK = "thyroid_medication_management"


@pytest.fixture(scope="module")
def env():
    environment = gym.make(f"PhysicianBench/{TASK}-v0")
    yield environment
    environment.close()


@pytest.fixture
def stub():
    with StubLLMServer() as server:
        yield server
