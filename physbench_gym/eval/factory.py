"""Building the evaluated agent and the optional judge from an evaluation's settings.

Built-in agents are ``oracle``, ``random`` and ``openai``; any other policy is named as
``module:attribute``, a class or function that is called with those of the keyword arguments
``seed``, ``model``, ``base_url``, ``api_key_env``, ``temperature`` and ``max_steps`` that
its signature accepts, and returns an object following the ``Agent`` protocol.
``mcp-client:<command>`` runs an external MCP-capable agent process per episode against the
MCP face (``physbench_gym.integrations.mcp_agent``).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from physbench_gym.agents.base import Agent
from physbench_gym.errors import PhysBenchError

BUILTIN_AGENTS = ("oracle", "random", "openai")
MCP_CLIENT = "mcp-client:"


def check_agent_name(name: str) -> None:
    """Raise PhysBenchError unless ``name`` is a built-in agent, ``mcp-client:<command>`` or
    ``module:attribute``."""
    if name in BUILTIN_AGENTS:
        return
    if name.startswith(MCP_CLIENT):
        from physbench_gym.integrations.mcp_agent import agent_command

        agent_command(name)
        return
    _resolve(name)


def infra_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean the infrastructure failed, not the agent: recorded and retried.

    ``InfrastructureError`` covers ``AgentError`` and the chat endpoints' ``EndpointError``
    (agent and judge); ``FhirTransportError`` is an unreachable external EHR.
    """
    from physbench_gym.errors import FhirTransportError, InfrastructureError

    return (InfrastructureError, FhirTransportError)


def make_agent(name: str, settings: dict[str, Any], seed: int) -> Agent:
    """A fresh agent for one episode, seeded with the episode's seed."""
    if name == "oracle":
        from physbench_gym.agents.oracle import OracleAgent

        return OracleAgent()
    if name == "random":
        from physbench_gym.agents.oracle import RandomAgent

        return RandomAgent(seed=seed)
    if name == "openai":
        return _openai_agent(settings, seed)
    factory = _resolve(name)
    offered = {"seed": seed, "model": settings.get("model"),
               "base_url": settings.get("base_url"), "api_key_env": settings.get("api_key_env"),
               "temperature": settings.get("temperature"), "max_steps": settings.get("max_steps")}
    return factory(**_accepted(factory, offered))


def make_judge(settings: dict[str, Any], cache_dir: str) -> Any:
    """The LLM judge named by ``judge_model`` (None when no judge was asked for)."""
    if not settings.get("judge_model"):
        return None
    try:
        from physbench_gym.grading.judge import LLMJudge
    except ImportError as exc:
        raise PhysBenchError(f"--judge-model needs physbench_gym.grading.judge: {exc}") from None
    kwargs: dict[str, Any] = {"model": settings["judge_model"], "cache_dir": cache_dir,
                              "api_key_env": settings.get("judge_api_key_env") or None}
    if settings.get("judge_url"):
        kwargs["base_url"] = settings["judge_url"]
    return LLMJudge(**kwargs)


def _openai_agent(settings: dict[str, Any], seed: int) -> Agent:
    if not settings.get("model"):
        raise PhysBenchError("--agent openai needs --model")
    try:
        from physbench_gym.agents.openai_chat import OpenAIChatAgent
    except ImportError as exc:
        raise PhysBenchError(f"the openai agent is not available: {exc}") from None
    kwargs: dict[str, Any] = {"model": settings["model"],
                              "api_key_env": settings.get("api_key_env") or None,
                              "temperature": float(settings.get("temperature") or 0.0),
                              "seed": seed}
    if settings.get("base_url"):
        kwargs["base_url"] = settings["base_url"]
    return OpenAIChatAgent(**kwargs)


def _resolve(name: str) -> Any:
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise PhysBenchError(f"unknown agent {name!r}: use one of {', '.join(BUILTIN_AGENTS)} "
                             "or module:attribute for your own policy")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise PhysBenchError(f"cannot import agent module {module_name!r}: {exc}") from None
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise PhysBenchError(f"agent {name!r}: {module_name} has no attribute {attribute!r}")
        target = getattr(target, part)
    if not callable(target):
        raise PhysBenchError(f"agent {name!r} is not a class or function")
    return target


def _accepted(factory: Any, offered: dict[str, Any]) -> dict[str, Any]:
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return offered
    return {key: value for key, value in offered.items() if key in parameters}
