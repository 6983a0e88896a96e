"""Running an agent on the benchmark: k samples per task, resumable, in parallel processes.

An episode is identified by (task, sample index); its seed is derived from the run's seed, the
task and the index alone, so a resumed run produces the same episodes as an uninterrupted one.
Each worker process builds its own env once and runs whole episodes; only the parent writes
to the run directory.
"""

from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from physbench_gym.errors import PhysBenchError

IDENTITY = ("agent", "model", "base_url", "temperature", "seed", "variant", "max_steps",
            "toolset", "judge_model", "background_patients")
VARIANTS = ("canonical", "seeded")
BACKENDS = ("local", "ray")
PARENT_POLL_SECONDS = 0.5


@dataclass(frozen=True)
class EvalConfig:
    """What to evaluate and how; everything here is recorded in the run's ``run.json``."""

    agent: str = "oracle"
    tasks: tuple[str, ...] = ()
    k: int = 1
    seed: int = 0
    variant: str = "canonical"
    max_steps: int | None = None
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    judge_model: str | None = None
    judge_url: str | None = None
    judge_api_key_env: str = "OPENAI_API_KEY"
    toolset: str = "physicianbench"
    background_patients: int | None = None

    def settings(self) -> dict[str, Any]:
        """The config as JSON-ready data (tasks as a list)."""
        data = dataclasses.asdict(self)
        data["tasks"] = list(self.tasks)
        return data


@dataclass
class EvalOutcome:
    """What a call of ``run_eval`` did and the run's metrics afterwards."""

    out_dir: Path
    summary: dict[str, Any]
    ran: int
    skipped: int
    infra_errors: int


def slug(text: str) -> str:
    """Lower-case words joined by underscores, for forgiving name matching."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def select_tasks(task_ids: Sequence[str] | None = None, groups: Sequence[str] = (),
                 task_types: Sequence[str] = (), tiers: Sequence[str] = ()) -> list[str]:
    """Registered task ids kept by every given filter (names match case- and space-blind)."""
    from physbench_gym.tasks.registry import load_spec
    from physbench_gym.tasks.registry import task_ids as registered

    chosen = list(task_ids) if task_ids else registered()
    specs = [load_spec(task_id) for task_id in chosen]
    for values, attribute in ((groups, "specialty_group"), (task_types, "task_type"),
                              (tiers, "tier")):
        if values:
            wanted = {slug(v) for v in values}
            known = sorted({str(getattr(s, attribute)) for s in specs})
            unknown = wanted - {slug(k) for k in known}
            if unknown:
                raise PhysBenchError(f"no task has {attribute} {sorted(unknown)}; "
                                     f"known: {known}")
            specs = [s for s in specs if slug(str(getattr(s, attribute))) in wanted]
    if not specs:
        raise PhysBenchError("the task filters select no task")
    return [s.id for s in specs]


def episode_seed(base_seed: int, task_id: str, sample: int) -> int:
    """The seed of sample ``sample`` of ``task_id`` in a run seeded with ``base_seed``."""
    digest = hashlib.sha256(f"{base_seed}:{task_id}:{sample}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def planned_episodes(config: EvalConfig) -> list[tuple[str, int, int]]:
    """(task id, sample index, seed) of every episode of the run, in a fixed order."""
    return [(task_id, sample, episode_seed(config.seed, task_id, sample))
            for task_id in config.tasks for sample in range(config.k)]


def run_eval(config: EvalConfig, out_dir: str | Path, *, workers: int = 1,
             progress: TextIO | None = sys.stderr, backend: str = "local",
             address: str | None = None) -> EvalOutcome:
    """Run every episode of ``config`` not yet finished in ``out_dir``, then write the report.

    ``backend`` ``"local"`` runs ``workers`` processes on this machine; ``"ray"`` runs
    ``workers`` Ray actors on the cluster at ``address`` (None: a local Ray cluster), see
    ``physbench_gym.eval.ray_backend``. Either way only this process writes the run directory.
    """
    from physbench_gym.eval.progress import Progress
    from physbench_gym.eval.provenance import compute_provenance
    from physbench_gym.eval.report import build_report
    from physbench_gym.eval.store import ResultsStore, read_results

    if backend not in BACKENDS:
        raise PhysBenchError(f"--backend must be one of {BACKENDS}, got {backend!r}")
    if address is not None and backend != "ray":
        raise PhysBenchError("--address needs --backend ray")
    config = _validated(config)
    out = Path(out_dir)
    provenance = compute_provenance(config.tasks, config.judge_model)
    with ResultsStore(out) as store:
        store.check_config(config.settings(), IDENTITY, provenance)
        finished = {key for key, r in read_results(out).items() if r.get("status") == "ok"}
        todo = [e for e in planned_episodes(config) if (e[0], e[1]) not in finished]
        if backend == "ray":
            from physbench_gym.eval.ray_backend import execute_on_ray

            episodes = execute_on_ray(_worker_settings(config, out), todo, workers,
                                      address=address, provenance=provenance)
        else:
            episodes = _execute(config, out, todo, workers)
        bar = Progress(total=config.k * len(config.tasks), done=config.k * len(config.tasks)
                       - len(todo), stream=progress)
        infra = 0
        for record, events in episodes:
            record["trajectory"] = store.write_trajectory(record["task_id"], record["sample"],
                                                          events)
            store.append(record)
            infra += record["status"] != "ok"
            bar.update(record)
        bar.close()
    summary = build_report(out)
    return EvalOutcome(out_dir=out, summary=summary, ran=len(todo),
                       skipped=config.k * len(config.tasks) - len(todo), infra_errors=infra)


def _validated(config: EvalConfig) -> EvalConfig:
    from physbench_gym.eval.factory import check_agent_name
    from physbench_gym.tasks.charts import DEFAULT_BACKGROUND_PATIENTS

    if config.k < 1:
        raise PhysBenchError(f"--k must be at least 1, got {config.k}")
    if config.variant not in VARIANTS:
        raise PhysBenchError(f"--variant must be one of {VARIANTS}, got {config.variant!r}")
    if config.max_steps is not None and config.max_steps < 1:
        raise PhysBenchError(f"--max-steps must be at least 1, got {config.max_steps}")
    check_agent_name(config.agent)
    tasks = tuple(config.tasks) or tuple(select_tasks())
    select_tasks(tasks)
    patients = config.background_patients or DEFAULT_BACKGROUND_PATIENTS
    return dataclasses.replace(config, tasks=tasks, background_patients=patients)


def _execute(config: EvalConfig, out: Path, todo: list[tuple[str, int, int]],
             workers: int) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    settings = _worker_settings(config, out)
    if not todo:
        return
    if workers <= 1:
        init_worker(settings)
        for episode in todo:
            yield run_one(*episode)
        return
    context = multiprocessing.get_context("spawn")
    settings["parent_pid"] = os.getpid()
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=init_worker,
                             initargs=(settings,)) as pool:
        pending: set[Future] = set()
        queue = iter(todo)
        try:
            for episode in _take(queue, 2 * workers):
                pending.add(pool.submit(run_one, *episode))
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                    pending.update(pool.submit(run_one, *e) for e in _take(queue, 1))
        finally:
            for future in pending:
                future.cancel()


def _worker_settings(config: EvalConfig, out: Path) -> dict[str, Any]:
    return {**config.settings(), "out_dir": str(out)}


def _take(queue: Iterator[tuple[str, int, int]], count: int) -> list[tuple[str, int, int]]:
    return [item for _, item in zip(range(count), queue, strict=False)]


_WORKER: dict[str, Any] = {}


def init_worker(settings: dict[str, Any]) -> None:
    """Build this process's env (once) for the run described by ``settings``.

    A worker process (``settings["parent_pid"]`` set) exits by itself when its parent dies,
    e.g. when the run is killed, instead of lingering as an orphan.
    """
    import gymnasium as gym

    if settings.get("parent_pid"):
        threading.Thread(target=_exit_with_parent, args=(settings["parent_pid"],),
                         daemon=True).start()
    import physbench_gym  # noqa: F401
    from physbench_gym.eval.factory import MCP_CLIENT, make_judge

    _WORKER.clear()
    _WORKER.update(settings=settings, env=None)
    if settings["agent"].startswith(MCP_CLIENT):
        return
    judge = make_judge(settings, str(Path(settings["out_dir"]) / "judge_cache"))
    env = gym.make("PhysicianBench-v0", tasks=list(settings["tasks"]),
                   max_steps=settings["max_steps"], toolset=settings["toolset"],
                   background_patients=settings["background_patients"], judge=judge)
    _WORKER.clear()
    _WORKER.update(settings=settings, env=env)


def _exit_with_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def run_one(task_id: str, sample: int, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run one episode in this worker; return its result record and event log."""
    from physbench_gym.agents.base import agent_usage, run_episode
    from physbench_gym.eval.factory import MCP_CLIENT, infra_errors, make_agent

    settings, env = _WORKER["settings"], _WORKER["env"]
    if settings["agent"].startswith(MCP_CLIENT):
        from physbench_gym.integrations.mcp_agent import run_mcp_client

        return run_mcp_client(task_id, sample, settings)
    record = base_record(task_id, sample, seed, settings)
    events: list[dict[str, Any]] = []
    started = time.perf_counter()
    agent = make_agent(settings["agent"], settings, seed)
    try:
        result = run_episode(env, agent, seed=seed, events=events,
                             options={"task_id": task_id, "variant": settings["variant"]})
    except infra_errors() as exc:
        record.update(status="infra_error", error=f"{type(exc).__name__}: {exc}",
                      termination="infra_error", success=False, score=0.0,
                      steps=sum(e["type"] == "step" for e in events),
                      tokens=agent_usage(agent), wall_time=time.perf_counter() - started,
                      traceback=traceback.format_exc(limit=8), finished_at=time.time(),
                      agent_termination=getattr(agent, "termination_reason", None))
        return record, events
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    return episode_record(task_id, sample, seed, settings, result,
                          getattr(agent, "termination_reason", None)), events


def episode_record(task_id: str, sample: int, seed: int, settings: dict[str, Any],
                   result: Any, agent_termination: str | None = None) -> dict[str, Any]:
    """The ``results.jsonl`` record of an ended episode (an ``EpisodeResult``)."""
    record = base_record(task_id, sample, seed, settings)
    record.update(
        status="ok", error="", variant_id=result.variant, success=result.success,
        score=result.score, total_reward=result.total_reward, steps=result.steps,
        tool_calls=result.tool_calls, invalid_actions=result.invalid_actions,
        tokens=result.tokens, termination=result.termination, wall_time=result.wall_time,
        policy_time=result.policy_time, checkpoints=_checkpoints(result.checkpoints),
        safety=result.safety, agent_termination=agent_termination, finished_at=time.time())
    return record


def base_record(task_id: str, sample: int, seed: int,
                settings: dict[str, Any]) -> dict[str, Any]:
    """The fields of an episode's record known before it runs."""
    from physbench_gym.tasks.registry import load_spec

    spec = load_spec(task_id)
    return {"task_id": task_id, "sample": sample, "seed": seed, "variant": settings["variant"],
            "agent": settings["agent"], "model": settings.get("model"), "title": spec.title,
            "specialty_group": str(spec.specialty_group), "task_type": str(spec.task_type),
            "tier": spec.tier, "status": "ok", "error": "", "success": False, "score": 0.0,
            "steps": 0, "tool_calls": 0, "invalid_actions": 0,
            "tokens": {"prompt_tokens": 0, "completion_tokens": 0}, "termination": "",
            "wall_time": 0.0, "checkpoints": {}, "finished_at": 0.0}


def _checkpoints(states: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    keys = ("passed", "capability", "grader", "reason", "weight")
    return {cid: {key: state.get(key) for key in keys} for cid, state in states.items()}
