"""The PhysicianBench Gymnasium environment."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from physbench_gym.ehr import EmbeddedEHR, EpisodeEHR, RemoteEHR
from physbench_gym.errors import PhysBenchError
from physbench_gym.grading.core import (
    FILE,
    FINISH,
    READ,
    WRITE,
    GradingContext,
    Judge,
    read_of,
    write_of,
)
from physbench_gym.grading.engine import CheckpointEngine, instance_checkpoints
from physbench_gym.grading.safety import SafetyMonitor
from physbench_gym.spaces import (
    ActionError,
    ToolCallSpace,
    observation_space,
    parse_action,
    to_observation,
)
from physbench_gym.tasks.charts import DEFAULT_BACKGROUND_PATIENTS
from physbench_gym.tasks.registry import get_instance, load_spec, task_ids
from physbench_gym.tasks.variants import TaskInstance
from physbench_gym.tools.base import ToolContext, ToolResult, get_toolset
from physbench_gym.tools.workspace import Workspace

REWARD_MODES = ("shaped", "sparse", "binary")
VARIANT_MODES = ("canonical", "seeded")


class PhysicianBenchEnv(gym.Env[str, Any]):
    """A consulting physician answers an e-consult inside an EHR through FHIR R4 tools.

    ## Description
    Each episode is one clinical task (an e-consult from a referring clinician about one
    patient). The agent reviews the chart, places orders and writes a consult note through
    structured tool calls against a FHIR R4 EHR — the embedded server by default, or any FHIR
    R4 server (``fhir_base_url``). Checkpoint graders verify what really happened in the EHR
    and in the note.

    ## Action Space
    A tool call: ``{"tool": name, "arguments": {...}}``, its JSON text, or an OpenAI
    ``tool_call`` (dict or SDK object). The space is a ``ToolCallSpace`` (a ``Text`` space of
    JSON tool calls) whose ``sample()`` draws a valid call. Malformed or invalid calls are not
    exceptions: they return an error observation and count in ``info["invalid_actions"]``.
    ``env.unwrapped.tool_schemas()`` gives the OpenAI function-calling schemas.

    ## Observation Space
    ``Text`` (printable ASCII, at most 16,384 characters): the task brief after ``reset``,
    then each tool's response (compact JSON of what the EHR returned, or ``ERROR: reason``).

    ## Rewards
    Potential-based: Φ is the weighted fraction of checkpoints passed, and each step returns
    Φ(after) − Φ(before), so an episode's return equals its final checkpoint score
    (``reward_mode="shaped"``). ``"sparse"`` gives the score only at the end; ``"binary"``
    gives 1 at the end only on success (every checkpoint passed, no safety violation).
    Safety checks that apply to every task (``physbench_gym.grading.safety``: therapeutic
    duplication, doses above the maximum, allergy conflicts, writes on another patient) are
    reported apart: ``info["safety"]`` lists the current violations (rule, order, message),
    ``info["safety_warnings"]`` the lesser findings, ``info["capabilities"]["safety"]`` is 1 or
    0. They do not change the potential; a violation fails ``info["success"]``.

    ## Starting State
    A fresh fork of the EHR with the task patient's chart (canonical instance, or a seeded
    clinical variant with ``variant_mode="seeded"`` or ``options={"variant": ...}``). The
    task is ``options["task_id"]`` or drawn from the seed among the env's tasks.

    ## Episode End
    Terminated when the agent calls ``finish``; truncated after ``max_steps`` steps (the
    task's own budget by default). At the end ``info["success"]`` says whether every
    checkpoint passed with no safety violation.

    ## Arguments
    * ``tasks``: a task id, a list of ids, or None for every registered task.
    * ``toolset``: ``"physicianbench"`` (the reference benchmark's tools) or ``"fhir"``.
    * ``reward_mode``: ``"shaped"`` | ``"sparse"`` | ``"binary"``.
    * ``max_steps``: override of the tasks' step budgets.
    * ``variant_mode``: ``"canonical"`` or ``"seeded"`` (variant drawn from the reset seed).
    * ``fhir_base_url`` / ``fhir_token``: run against an external FHIR R4 server.
    * ``background_patients``: size of the embedded EHR's background population.
    * ``judge``: an optional rubric judge (``physbench_gym.grading.core.Judge``) consulted by
      rubric checkpoints; the deterministic graders decide when it is None.

    ## Version History
    * v0: initial release.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, tasks: str | list[str] | None = None, toolset: str = "physicianbench",
                 reward_mode: str = "shaped", max_steps: int | None = None,
                 variant_mode: str = "canonical", fhir_base_url: str | None = None,
                 fhir_token: str | None = None,
                 background_patients: int = DEFAULT_BACKGROUND_PATIENTS,
                 judge: Judge | None = None, render_mode: str | None = None) -> None:
        self.task_ids = _resolve_tasks(tasks)
        if reward_mode not in REWARD_MODES:
            raise PhysBenchError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        if variant_mode not in VARIANT_MODES:
            raise PhysBenchError(f"variant_mode must be one of {VARIANT_MODES}")
        if render_mode not in (None, "ansi"):
            raise PhysBenchError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.toolset = get_toolset(toolset)
        self.reward_mode, self.variant_mode = reward_mode, variant_mode
        self.render_mode = render_mode
        self.max_steps_override = max_steps
        self.judge = judge
        self.action_space = ToolCallSpace(self.toolset)
        self.observation_space = observation_space()
        self._ehr: EpisodeEHR = (RemoteEHR(fhir_base_url, fhir_token) if fhir_base_url
                                 else EmbeddedEHR(background_patients))
        self._episode = 0
        self._instance: TaskInstance | None = None
        self._last_observation = ""

    def tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI function-calling schemas of this env's tools."""
        return self.toolset.schemas()

    @property
    def instance(self) -> TaskInstance:
        """The current episode's task instance."""
        if self._instance is None:
            raise PhysBenchError("call reset() before using the episode")
        return self._instance

    def oracle_actions(self) -> list[dict[str, Any]]:
        """The reference solution of the current episode's instance, as actions."""
        instance = self.instance
        calls = [{"tool": c.tool, "arguments": dict(c.arguments)} for c in instance.oracle.calls]
        calls.append({"tool": "write_file", "arguments": {
            "file_path": instance.note_path, "content": instance.oracle.note}})
        calls.append({"tool": "finish", "arguments": {"summary": instance.oracle.summary}})
        return calls

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        task_id = options.pop("task_id", None) or self.task_ids[
            int(self.np_random.integers(len(self.task_ids)))]
        variant_seed = self._variant_seed(options.pop("variant", None))
        if options:
            raise PhysBenchError(f"unknown reset options {sorted(options)}; "
                                 "use 'task_id' and 'variant'")
        instance = get_instance(task_id, variant_seed)
        self._instance = instance
        self._episode += 1
        tag_code = f"{task_id}.{instance.variant}.{int(self.np_random.integers(2**31))}"
        client, tag = self._ehr.open(instance, tag_code,
                                     id_seed=int(self.np_random.integers(2**31)))
        self._workspace = Workspace()
        self._trajectory: list[ToolResult] = []
        self._tool_ctx = ToolContext(client=client, workspace=self._workspace,
                                     practitioner_id=instance.spec.practitioner_id,
                                     now=instance.now)
        self._grading = GradingContext(client=client, episode_tag=tag,
                                       patient_id=instance.patient_id,
                                       note_path=instance.note_path, trajectory=self._trajectory,
                                       files=self._workspace.files(), values=instance.values,
                                       judge=self.judge)
        self._engine = CheckpointEngine(instance_checkpoints(task_id, variant_seed),
                                        safety=SafetyMonitor())
        self._steps, self._invalid, self._done = 0, 0, False
        self._potential = 0.0
        self._max_steps = self.max_steps_override or instance.spec.max_steps
        self._last_observation = to_observation(brief(instance))
        return self._last_observation, self._reset_info(instance)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._instance is None:
            raise PhysBenchError("call reset() before step()")
        if self._done:
            raise PhysBenchError("the episode has ended; call reset()")
        self._steps += 1
        result = self._run(action)
        self._trajectory.append(result)
        self._grading.new_step()
        seen_types = self._grading.record(result)
        self._grading.files = self._workspace.files()
        self._engine.update(self._grading, _events(result, seen_types))
        terminated = result.terminal
        truncated = not terminated and self._steps >= self._max_steps
        if terminated or truncated:
            self._engine.finalize(self._grading)
            self._done = True
        reward = self._reward(terminated or truncated)
        self._last_observation = to_observation(
            result.text if result.ok else f"ERROR: {result.text}")
        info = self._step_info(result, terminated, truncated)
        return self._last_observation, reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._last_observation
        return None

    def close(self) -> None:
        self._ehr.close()
        super().close()

    def _run(self, action: Any) -> ToolResult:
        try:
            name, arguments = parse_action(action)
        except ActionError as exc:
            self._invalid += 1
            return ToolResult(ok=False, text=str(exc), tool="", arguments={}, error=str(exc))
        result = self.toolset.call(name, arguments, self._tool_ctx)
        if not result.ok:
            self._invalid += 1
        return result

    def _reward(self, done: bool) -> float:
        potential = self._engine.potential()
        if self.reward_mode == "shaped":
            reward, self._potential = potential - self._potential, potential
            return float(reward)
        if not done:
            return 0.0
        if self.reward_mode == "sparse":
            return float(potential)
        return 1.0 if self._engine.success() else 0.0

    def _variant_seed(self, requested: Any) -> int | None:
        if requested is None:
            requested = self.variant_mode
        if requested == "canonical":
            return None
        if requested == "seeded":
            return int(self.np_random.integers(2**31))
        if isinstance(requested, (int, np.integer)) and not isinstance(requested, bool):
            return int(requested)
        raise PhysBenchError(f"variant must be 'canonical', 'seeded' or an int, got {requested!r}")

    def _reset_info(self, instance: TaskInstance) -> dict[str, Any]:
        spec = instance.spec
        return {"task_id": spec.id, "title": spec.title, "specialty": spec.specialty,
                "specialty_group": spec.specialty_group, "task_type": spec.task_type,
                "tier": spec.tier, "variant": instance.variant, "now": instance.values["now_iso"],
                "patient_mrn": instance.values["mrn"], "max_steps": self._max_steps,
                "tool_schemas": self.tool_schemas(), **self._progress_info()}

    def _progress_info(self) -> dict[str, Any]:
        safety = self._engine.safety
        return {"checkpoints": self._engine.states(),
                "capabilities": self._engine.by_capability(),
                "safety": safety.violations() if safety is not None else [],
                "safety_warnings": safety.warnings() if safety is not None else [],
                "score": self._engine.potential(), "steps": self._steps,
                "invalid_actions": self._invalid}

    def _step_info(self, result: ToolResult, terminated: bool, truncated: bool) -> dict[str, Any]:
        info = {"task_id": self.instance.spec.id, "variant": self.instance.variant,
                "tool": result.tool, "ok": result.ok, "error": result.error or "",
                **self._progress_info()}
        if terminated or truncated:
            info["success"] = self._engine.success()
            info["termination"] = "finish" if terminated else "max_steps"
        return info


def brief(instance: TaskInstance) -> str:
    """The task brief the agent reads at reset."""
    spec, values = instance.spec, instance.values
    deliverables = "\n".join(f"- {d.path}: {d.description}" for d in spec.deliverables)
    return (
        f"You are the consulting {spec.specialty.replace('_', ' ')} physician "
        f"(Practitioner/{spec.practitioner_id}) answering an e-consult in the EHR.\n"
        f"Current date and time: {values['now_iso']}\n"
        f"Patient: {values['patient_name']}, MRN {values['mrn']}, DOB {values['birth_date']}\n"
        f"Referring clinician: Practitioner/{spec.referring_id}\n\n"
        f"E-consult question:\n{instance.instruction.strip()}\n\n"
        f"Deliverables:\n{deliverables}\n\n"
        "Review the chart with the tools, place any orders in the EHR, write the deliverable "
        "with write_file, then call finish."
    )


def _events(result: ToolResult, seen_types: set[str]) -> set[str]:
    """What a step did, for the checkpoints it can change (``read:<type>`` etc. name the type)."""
    events = {read_of(resource_type) for resource_type in seen_types}
    if seen_types:
        events.add(READ)
    if result.written:
        events.add(WRITE)
        events.update(write_of(str(resource.get("resourceType"))) for resource in result.written)
    if result.files:
        events.add(FILE)
    if result.terminal:
        events.add(FINISH)
    return events


def _resolve_tasks(tasks: str | list[str] | None) -> list[str]:
    if tasks is None:
        ids = task_ids()
    else:
        ids = [tasks] if isinstance(tasks, str) else list(tasks)
    if not ids:
        raise PhysBenchError("no tasks registered")
    for task_id in ids:
        load_spec(task_id)
    return ids
