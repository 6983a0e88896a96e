"""Policies that act through the env's public API."""

from physbench_gym.agents.base import Agent, AgentError, EpisodeResult, run_episode
from physbench_gym.agents.openai_chat import OpenAIChatAgent
from physbench_gym.agents.oracle import OracleAgent, RandomAgent

__all__ = ["Agent", "AgentError", "EpisodeResult", "OpenAIChatAgent", "OracleAgent",
           "RandomAgent", "run_episode"]
