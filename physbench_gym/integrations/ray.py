"""Rollouts on Ray for trainers: a pool of env actors that plays batches of episodes.

GRPO-style trainers (verl, OpenRLHF, SkyRL, prime-rl) schedule their rollouts on Ray. A
:class:`RolloutPool` holds ``workers`` Ray actors, each with its own EHR (built once and reused
for every episode it plays). :meth:`RolloutPool.rollout` takes a batch of
:class:`RolloutRequest` (task, variant, seed) and either

* a policy callback, run in the calling process (where the model lives): each round it gets
  the unfinished :class:`Trajectory` objects (chat messages so far, last observation) and
  returns one action each; the pool steps all those envs in parallel, or
* an action stream per request (a list of actions, e.g. sampled completions parsed into tool
  calls), played inside the actors without a round trip per step.

Each episode comes back as a :class:`Trajectory`: the chat conversation in the format of
``physbench export-sft`` and the TRL adapter (system prompt, brief, one assistant
``tool_calls`` message and one ``tool`` message per call, a closing assistant message), the
tool schemas, the per-step rewards, the checkpoint states, the score and the event log of
``physbench eval``. The same seeds and actions give the same trajectories as a local loop.

See ``examples/ray_rollouts.py`` for a trainer-style loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from physbench_gym.errors import PhysBenchError
from physbench_gym.integrations.trl import DEFAULT_ENV_ID

FINISH = {"tool": "finish", "arguments": {"summary": ""}}
MAX_LOST_ACTORS = 3  # per round: more means the cluster itself is failing


@dataclass(frozen=True)
class RolloutRequest:
    """One episode to play: ``variant`` is ``"canonical"``, ``"seeded"`` or a variant seed."""

    task_id: str
    variant: int | str = "canonical"
    seed: int = 0


@dataclass
class Trajectory:
    """One episode as a trainer consumes it (see the module docstring)."""

    request: RolloutRequest
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    observation: str
    variant: str = ""
    rewards: list[float] = field(default_factory=list)
    checkpoints: dict[str, dict[str, Any]] = field(default_factory=dict)
    score: float = 0.0
    success: bool = False
    done: bool = False
    termination: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total_reward(self) -> float:
        """The episode's return (equal to its final score under shaped rewards)."""
        return sum(self.rewards)


Policy = Callable[[list[Trajectory]], Sequence[Any]]


class RolloutWorker:
    """One Ray actor: envs keyed by slot, all over one EHR in this process."""

    def __init__(self, env_id: str, env_kwargs: dict[str, Any]) -> None:
        self._env_id, self._env_kwargs = env_id, env_kwargs
        self._recorders: dict[int, Any] = {}

    def reset(self, slot: int, request: RolloutRequest) -> tuple[dict[str, Any], list, dict]:
        """Start ``request`` in ``slot``: its reset event, tool schemas and checkpoints."""
        import gymnasium as gym

        import physbench_gym  # noqa: F401
        from physbench_gym.agents.base import EpisodeRecorder

        if slot not in self._recorders:
            self._recorders[slot] = EpisodeRecorder(
                gym.make(self._env_id, **self._env_kwargs), [])
        recorder = self._recorders[slot]
        recorder.events = []
        _, info = recorder.reset(seed=request.seed, options={"task_id": request.task_id,
                                                             "variant": request.variant})
        return recorder.events[0], recorder.env.unwrapped.tool_schemas(), info["checkpoints"]

    def step(self, slot: int, action: Any) -> tuple[dict[str, Any], dict]:
        """One step in ``slot``: its step event and the checkpoint states after it."""
        recorder = self._recorders[slot]
        *_, info = recorder.step(action)
        return recorder.events[-1], info["checkpoints"]

    def play(self, slot: int, request: RolloutRequest, actions: Sequence[Any]) -> list:
        """Reset and play ``actions`` (then ``finish`` if still open); every result above."""
        results: list[Any] = [self.reset(slot, request)]
        for action in [*actions, FINISH]:
            if self._recorders[slot].done:
                break
            results.append(self.step(slot, action))
        return results

    def replay(self, slot: int, request: RolloutRequest, actions: Sequence[Any]) -> None:
        """Bring ``slot`` back to where ``actions`` left it (after this actor replaced a lost
        one: the env is deterministic, so the same seed and actions give the same state)."""
        self.reset(slot, request)
        for action in actions:
            self.step(slot, action)

    def oracle_actions(self, slot: int, request: RolloutRequest) -> list[dict[str, Any]]:
        """The reference solution of ``request``'s task instance."""
        self.reset(slot, request)
        return list(self._recorders[slot].env.unwrapped.oracle_actions())


class RolloutPool:
    """``workers`` Ray actors playing batches of episodes; use as a context manager.

    Args:
        workers: Ray actors (each one process with one EHR; one CPU each by default).
        env_id: the registered env id every actor makes.
        address: the Ray cluster to join when this process is not connected yet
            (None: ``$RAY_ADDRESS`` or a new local cluster).
        num_cpus: CPUs reserved per actor (fractions let latency-bound rollouts share one).
        **env_kwargs: arguments of ``gym.make`` (``reward_mode``, ``tasks``, ...).
    """

    def __init__(self, workers: int = 2, *, env_id: str = DEFAULT_ENV_ID,
                 address: str | None = None, num_cpus: float = 1.0,
                 **env_kwargs: Any) -> None:
        from physbench_gym.eval.ray_backend import connect, import_ray

        if workers < 1:
            raise PhysBenchError(f"workers must be at least 1, got {workers}")
        self._ray = import_ray()
        self._connected_here = connect(address)
        self._remote = self._ray.remote(num_cpus=num_cpus)(RolloutWorker)
        self._spawn = lambda: self._remote.remote(env_id, env_kwargs)
        self._actors = [self._spawn() for _ in range(workers)]

    def __enter__(self) -> RolloutPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def rollout(self, requests: Sequence[RolloutRequest | tuple], policy: Policy | None = None,
                *, actions: Sequence[Sequence[Any]] | None = None) -> list[Trajectory]:
        """Play every request to its end; the trajectories in request order.

        Give exactly one of ``policy`` (called each round with the unfinished trajectories,
        returning one action each) and ``actions`` (one action list per request; an episode
        still open when its list runs out is ended with ``finish``).
        """
        if (policy is None) == (actions is None):
            raise PhysBenchError("give either a policy callback or an action stream")
        batch = [r if isinstance(r, RolloutRequest) else RolloutRequest(*r) for r in requests]
        if actions is not None:
            if len(actions) != len(batch):
                raise PhysBenchError(f"{len(actions)} action lists for {len(batch)} requests")
            played = self._gather([(i, "play", (r, list(a)))
                                   for i, (r, a) in enumerate(zip(batch, actions, strict=True))])
            return [_replayed(r, results) for r, results in zip(batch, played, strict=True)]
        trajectories = [_started(r, *started) for r, started in zip(
            batch, self._gather([(i, "reset", (r,)) for i, r in enumerate(batch)]), strict=True)]
        while open_ := [i for i, t in enumerate(trajectories) if not t.done]:
            chosen = list(policy([trajectories[i] for i in open_]))
            if len(chosen) != len(open_):
                raise PhysBenchError(f"the policy returned {len(chosen)} actions for "
                                     f"{len(open_)} open episodes")
            stepped = self._gather([(i, "step", (action,))
                                    for i, action in zip(open_, chosen, strict=True)],
                                   trajectories)
            for i, result in zip(open_, stepped, strict=True):
                _advance(trajectories[i], *result)
        return trajectories

    def oracle_actions(self, requests: Sequence[RolloutRequest | tuple]) -> list[list[dict]]:
        """Each request's reference solution (the oracle's actions), computed by the actors."""
        batch = [r if isinstance(r, RolloutRequest) else RolloutRequest(*r) for r in requests]
        return self._ray.get([self._actor(i).oracle_actions.remote(self._slot(i), r)
                              for i, r in enumerate(batch)])

    def _gather(self, calls: list[tuple[int, str, tuple]],
                trajectories: list[Trajectory] | None = None) -> list[Any]:
        """Run ``(request index, method, args)`` on the actors, in order. An actor that dies
        is replaced; the open episodes it held are replayed on the new one (from
        ``trajectories``) and its calls run again, so a lost actor loses no episode."""
        results: dict[int, Any] = {}
        for _ in range(MAX_LOST_ACTORS + 1):
            pending = [(n, c) for n, c in enumerate(calls) if n not in results]
            refs = [getattr(self._actor(i), method).remote(self._slot(i), *args)
                    for _, (i, method, args) in pending]
            lost: set[int] = set()
            for (n, (i, _, _)), ref in zip(pending, refs, strict=True):
                try:
                    results[n] = self._ray.get(ref)
                except self._ray.exceptions.RayActorError:
                    lost.add(i % len(self._actors))
            if not lost:
                return [results[n] for n in range(len(calls))]
            for k in lost:
                self._actors[k] = self._spawn()
            if trajectories is not None:  # bring the replaced actors' open episodes back
                self._ray.get([self._actor(i).replay.remote(self._slot(i), t.request, [
                    _recorded(e["action"]) for e in t.events[1:]])
                    for i, t in enumerate(trajectories)
                    if i % len(self._actors) in lost and not t.done])
        raise PhysBenchError(f"more than {MAX_LOST_ACTORS} rollout actors were lost in one "
                             "round; is the cluster short of memory?")

    def close(self) -> None:
        """Stop the actors (and the local cluster this pool started); safe to call twice."""
        for actor in self._actors:
            self._ray.kill(actor, no_restart=True)
        self._actors = []
        if self._connected_here and self._ray.is_initialized():
            self._ray.shutdown()
        self._connected_here = False

    def _actor(self, index: int) -> Any:
        if not self._actors:
            raise PhysBenchError("the rollout pool is closed")
        return self._actors[index % len(self._actors)]

    def _slot(self, index: int) -> int:
        return index // len(self._actors)


def _started(request: RolloutRequest, event: dict[str, Any], tools: list,
             checkpoints: dict) -> Trajectory:
    from physbench_gym.agents.openai_chat import SYSTEM_PROMPT

    brief = event["observation"]
    return Trajectory(request=request, tools=tools, observation=brief, checkpoints=checkpoints,
                      variant=str(event["info"].get("variant", "")), events=[event],
                      messages=[{"role": "system", "content": SYSTEM_PROMPT},
                                {"role": "user", "content": brief}])


def _advance(trajectory: Trajectory, event: dict[str, Any], checkpoints: dict) -> None:
    from physbench_gym.integrations.sft import DEFAULT_SUMMARY, tool_turn

    action = event["action"]
    tool, arguments = action.get("tool", "invalid_action"), action.get("arguments",
                                                                       action.get("raw", ""))
    trajectory.messages += tool_turn(len(trajectory.rewards), tool, arguments,
                                     event["observation"])
    trajectory.events.append(event)
    trajectory.rewards.append(event["reward"])
    trajectory.observation, trajectory.checkpoints = event["observation"], checkpoints
    trajectory.score = float(event["info"].get("score", trajectory.score))
    if event["terminated"] or event["truncated"]:
        summary = arguments.get("summary") if tool == "finish" and isinstance(arguments, dict) \
            else None
        trajectory.messages.append({"role": "assistant",
                                    "content": str(summary or DEFAULT_SUMMARY)})
        trajectory.done, trajectory.success = True, bool(event["info"].get("success"))
        trajectory.termination = str(event["info"].get("termination", ""))


def _recorded(action: dict[str, Any]) -> Any:
    """The action an event recorded, as it was sent (a malformed one as its raw text)."""
    return action["raw"] if "raw" in action and "tool" not in action else action


def _replayed(request: RolloutRequest, results: list) -> Trajectory:
    trajectory = _started(request, *results[0])
    for result in results[1:]:
        _advance(trajectory, *result)
    return trajectory


__all__ = ["Policy", "RolloutPool", "RolloutRequest", "RolloutWorker", "Trajectory"]
