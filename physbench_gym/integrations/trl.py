"""TRL GRPO adapter: the env as an ``environment_factory`` whose methods are the agent's tools.

TRL's ``GRPOTrainer(environment_factory=...)`` creates one environment per rollout, calls
``reset(**row)`` with each dataset row (its return is appended to the row's last prompt
message), exposes every other public method as a function-calling tool (schema from the type
hints and the ``Args:`` docstring) and hands the instances to the reward functions as
``environments``. :class:`PhysicianBenchToolEnv` has one method per tool of the
``physicianbench`` tool set, with the same names, parameters and descriptions as
``env.unwrapped.tool_schemas()``; each method is one ``env.step``. The reward functions read
the episode's checkpoint score, so GRPO optimizes exactly what ``physbench eval`` measures.

Nothing here imports ``trl``; see ``examples/grpo_trl.py`` for the trainer side.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal

import gymnasium as gym
import numpy as np

from physbench_gym.agents.openai_chat import SYSTEM_PROMPT
from physbench_gym.errors import PhysBenchError
from physbench_gym.tasks.registry import task_ids as registered_task_ids
from physbench_gym.tools.base import get_toolset

TOOLSET = "physicianbench"
DEFAULT_ENV_ID = "PhysicianBench-v0"
ENDED = ("ERROR: the episode has ended (finish was called or the step budget is used up); "
         "no further tool calls are accepted.")
_JSON_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}
_RETURNS = ("The EHR's response as compact JSON text, or a message starting with 'ERROR:' "
            "saying what was wrong with the call.")


class PhysicianBenchToolEnv:
    """One rollout's episode, seen by TRL as a stateful set of tools.

    Pass the class itself (or :func:`environment_factory` for custom env arguments) as
    ``GRPOTrainer(environment_factory=...)``. A dataset row (see :func:`build_rows`) names the
    task and the variant seed; ``reset`` returns the task brief.

    The tool methods (``fhir_patient_search_demographics`` ... ``write_file``, ``finish``)
    are generated from the tool set's schemas. Invalid calls are not exceptions: the env
    answers them with an ``ERROR:`` observation, as it does for any agent. TRL turns every
    public method but ``reset`` and ``get_reward`` into a tool, so the class has no other
    public methods. ``get_reward`` lets the environment own its reward (newer TRL); the reward
    functions :func:`checkpoint_reward` and :func:`success_reward` serve older TRL.

    Attributes:
        task_id: the current episode's task.
        variant: ``"canonical"`` or the variant's label.
        score: weighted fraction of checkpoints passed so far (the reward).
        success: True once the episode has ended with every checkpoint passed.
        done: True once ``finish`` was called or the step budget is used up.
        steps: tool calls made this episode.
        checkpoints: each checkpoint's state, as in the env's ``info["checkpoints"]``.
    """

    def __init__(self, env_id: str = DEFAULT_ENV_ID, **env_kwargs: Any) -> None:
        self._env_id, self._env_kwargs = env_id, env_kwargs
        self._env: gym.Env | None = None
        self.task_id: str | None = None
        self.variant: str | None = None
        self._clear()

    def reset(self, task_id: str | None = None, variant_seed: int | None = None,
              **columns: Any) -> str:
        """Start the episode of a dataset row and return its task brief.

        Args:
            task_id: the task to run (a registered task id).
            variant_seed: seed of the clinical variant; None gives the canonical instance.
            **columns: the row's other columns (such as ``prompt``), ignored.
        """
        if not task_id:
            raise PhysBenchError("a dataset row for PhysicianBenchToolEnv needs a 'task_id' "
                                 "column; build rows with physbench_gym.integrations.trl."
                                 "build_rows()")
        if self._env is None:
            self._env = gym.make(self._env_id, **self._env_kwargs)
        variant: int | str = "canonical" if _is_missing(variant_seed) else int(variant_seed)
        seed = 0 if isinstance(variant, str) else variant
        observation, info = self._env.reset(seed=seed,
                                            options={"task_id": task_id, "variant": variant})
        self._clear()
        self.task_id, self.variant = info["task_id"], info["variant"]
        self.checkpoints = info["checkpoints"]
        return observation

    def get_reward(self) -> float:
        """The episode's checkpoint score in [0, 1], ending it with ``finish`` if still open."""
        self._conclude()
        return self.score

    def _clear(self) -> None:
        self.score, self.success, self.done, self.steps = 0.0, False, False, 0
        self.checkpoints: dict[str, dict[str, Any]] = {}

    def _call(self, tool: str, arguments: dict[str, Any]) -> str:
        if self._env is None or self.task_id is None:
            raise PhysBenchError("call reset(**row) before calling a tool")
        if self.done:
            return ENDED
        action = {"tool": tool, "arguments": {k: v for k, v in arguments.items()
                                              if v is not None}}
        observation, _, terminated, truncated, info = self._env.step(action)
        self.score, self.steps = float(info["score"]), int(info["steps"])
        self.checkpoints = info["checkpoints"]
        if terminated or truncated:
            self.done, self.success = True, bool(info["success"])
        return observation

    def _conclude(self, summary: str = "") -> None:
        """End an episode the model left open, as the eval agent does: with ``finish``."""
        if self._env is not None and self.task_id is not None and not self.done:
            self._call("finish", {"summary": summary[:2000]})


def environment_factory(env_id: str = DEFAULT_ENV_ID,
                        **env_kwargs: Any) -> Callable[[], PhysicianBenchToolEnv]:
    """A no-argument factory for ``GRPOTrainer(environment_factory=...)`` with env options.

    Args:
        env_id: a registered env id, e.g. ``"PhysicianBench-v0"``.
        **env_kwargs: arguments of ``gym.make`` (``reward_mode``, ``background_patients``...).
    """
    return partial(PhysicianBenchToolEnv, env_id, **env_kwargs)


def build_rows(task_ids: Sequence[str] | None = None, variants: int = 1, *, seed: int = 0,
               canonical: bool = False) -> list[dict[str, Any]]:
    """Dataset rows for GRPO: each row is one task variant with the eval agent's prompt.

    The ``prompt`` is the system prompt of ``OpenAIChatAgent`` and an empty user message to
    which the trainer appends the brief returned by ``reset``, so training sees the same
    conversation as ``physbench eval``.

    Args:
        task_ids: tasks to include; None for every registered task.
        variants: seeded variants per task (see :func:`variant_seeds`).
        seed: base seed of the variant seeds.
        canonical: also include each task's canonical instance (``variant_seed`` None).
    """
    if variants < 0:
        raise PhysBenchError(f"variants must be >= 0, got {variants}")
    ids = list(task_ids) if task_ids is not None else registered_task_ids()
    seeds: list[int | None] = [None] if canonical else []
    seeds += variant_seeds(variants, seed=seed)
    return [{"prompt": [{"role": "system", "content": SYSTEM_PROMPT},
                        {"role": "user", "content": ""}],
             "task_id": task_id, "variant_seed": variant_seed}
            for task_id in ids for variant_seed in seeds]


def variant_seeds(count: int, *, seed: int = 0) -> list[int]:
    """``count`` variant seeds drawn from ``seed``; more variants extend the same list."""
    if count <= 0:
        return []
    state = np.random.SeedSequence(seed).generate_state(count, dtype=np.uint32)
    return [int(value) & 0x7FFFFFFF for value in state]


def checkpoint_reward(completions: Sequence[Any] | None = None,
                      environments: Sequence[PhysicianBenchToolEnv] | None = None,
                      **kwargs: Any) -> list[float]:
    """TRL reward function: each rollout's checkpoint score in [0, 1].

    A rollout whose model stopped without calling ``finish`` is ended with ``finish`` first
    (as ``OpenAIChatAgent`` does), so end-of-episode checkpoints are graded the same way as in
    evaluation.

    Args:
        completions: the trainer's completions (the last assistant text becomes the summary).
        environments: the rollouts' environments, passed by the trainer.
        **kwargs: the trainer's other reward arguments, ignored.
    """
    return [env.score for env in _concluded(completions, environments)]


def success_reward(completions: Sequence[Any] | None = None,
                   environments: Sequence[PhysicianBenchToolEnv] | None = None,
                   **kwargs: Any) -> list[float]:
    """TRL reward function: 1.0 when every checkpoint passed, else 0.0.

    Args:
        completions: the trainer's completions (the last assistant text becomes the summary).
        environments: the rollouts' environments, passed by the trainer.
        **kwargs: the trainer's other reward arguments, ignored.
    """
    return [1.0 if env.success else 0.0 for env in _concluded(completions, environments)]


def _concluded(completions: Sequence[Any] | None,
               environments: Sequence[PhysicianBenchToolEnv] | None
               ) -> Sequence[PhysicianBenchToolEnv]:
    if environments is None:
        raise PhysBenchError("the reward needs the rollouts' environments: pass "
                             "environment_factory=PhysicianBenchToolEnv to GRPOTrainer")
    texts = list(completions) if completions is not None else []
    for index, env in enumerate(environments):
        env._conclude(_final_text(texts[index]) if index < len(texts) else "")
    return environments


def _final_text(completion: Any) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role") == "assistant" \
                    and isinstance(message.get("content"), str):
                return message["content"]
    return ""


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value))


def _annotation(spec: dict[str, Any]) -> Any:
    if "enum" in spec:
        return Literal[tuple(spec["enum"])]
    if spec.get("type") not in _JSON_TYPES:
        raise PhysBenchError(f"no Python type for the JSON schema {spec}")
    return _JSON_TYPES[spec["type"]]


def _parameter(name: str, spec: dict[str, Any], required: bool) -> inspect.Parameter:
    annotation = _annotation(spec)
    if required:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation)
    if "default" in spec:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=spec["default"],
                                 annotation=annotation)
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=annotation | None)


def _docstring(function: dict[str, Any]) -> str:
    properties = function["parameters"].get("properties", {})
    lines = [function["description"].strip(), ""]
    if properties:
        lines.append("Args:")
        lines += [f"    {name}: {' '.join(spec['description'].split())}"
                  for name, spec in properties.items()]
        lines.append("")
    lines += ["Returns:", f"    {_RETURNS}"]
    return "\n".join(lines)


def _tool_method(schema: dict[str, Any]) -> Callable[..., str]:
    function = schema["function"]
    name, parameters = function["name"], function["parameters"]
    required = set(parameters.get("required", []))
    params = [_parameter(arg, spec, arg in required)
              for arg, spec in parameters.get("properties", {}).items()]
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)

    def method(self: PhysicianBenchToolEnv, **arguments: Any) -> str:
        return self._call(name, arguments)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = _docstring(function)
    method.__signature__ = inspect.Signature([self_param, *params],  # type: ignore[attr-defined]
                                             return_annotation=str)
    method.__annotations__ = {**{p.name: p.annotation for p in params}, "return": str}
    return method


def _attach_tools(cls: type) -> list[str]:
    names = []
    for schema in get_toolset(TOOLSET).schemas():
        method = _tool_method(schema)
        method.__qualname__ = f"{cls.__name__}.{method.__name__}"
        setattr(cls, method.__name__, method)
        names.append(method.__name__)
    return names


TOOL_NAMES: tuple[str, ...] = tuple(_attach_tools(PhysicianBenchToolEnv))

__all__ = ["DEFAULT_ENV_ID", "TOOL_NAMES", "PhysicianBenchToolEnv", "build_rows",
           "checkpoint_reward", "environment_factory", "success_reward", "variant_seeds"]
