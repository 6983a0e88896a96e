"""The Ray backend of ``physbench eval``: episodes run on Ray actors, anywhere on a cluster.

Each actor is one Ray worker process holding one env (one EHR, built once and reused for every
episode it runs) and runs whole episodes with the local backend's own ``run_one``, so both
backends produce the same records. Actors receive the run's settings, the driver's provenance
(which each checks against its own files before building its env) and episode keys
(task, sample, seed); they send back each episode's record and event log. The driver alone
writes the run directory.

An episode whose actor dies (a killed process, a lost node) is put back in the queue and the
actor is replaced; its record is yielded only from the call that returned it, so an episode is
never lost and never recorded twice. An episode that loses its worker ``MAX_LOSSES`` times is
recorded as an infrastructure error, which a resume retries.
"""

from __future__ import annotations

import os
import socket
import time
from collections import Counter, deque
from collections.abc import Iterator
from typing import Any

from physbench_gym.errors import PhysBenchError
from physbench_gym.eval.provenance import ProvenanceError

Episode = tuple[str, int, int]
MAX_LOSSES = 3
IN_FLIGHT_PER_WORKER = 2
PROBE_SECONDS = 5.0
INSTALL_HINT = "pip install 'physbench-gym[ray]'"


def import_ray() -> Any:
    """The ``ray`` module, or a PhysBenchError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise PhysBenchError(f"the Ray backend needs Ray: {INSTALL_HINT}") from None
    return ray


def connect(address: str | None) -> bool:
    """Join the Ray cluster at ``address`` (None: start a local one) unless this process is
    already connected; return True when this call connected (the caller then disconnects)."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    where = address or os.environ.get("RAY_ADDRESS") or "local"
    _probe(where)
    try:
        ray.init(address=address, include_dashboard=False, logging_level="error",
                 log_to_driver=False)
    except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError, ...
        raise PhysBenchError(f"cannot reach the Ray cluster at {where!r}: "
                             f"{_first_line(exc)}") from None
    return True


def _probe(address: str) -> None:
    """Fail fast on a host:port nobody listens on (Ray itself would retry for minutes)."""
    if address in ("local", "auto"):
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise PhysBenchError(f"cannot reach the Ray cluster at {address!r}: expected auto, "
                             "<host>:<port> or ray://<host>:<port>")
    try:
        socket.create_connection((host, int(port)), timeout=PROBE_SECONDS).close()
    except OSError as exc:
        raise PhysBenchError(f"cannot reach the Ray cluster at {address!r}: "
                             f"{exc.strerror or exc}") from None


class EpisodeWorker:
    """One Ray actor: checks the driver's provenance, builds its env, runs episodes."""

    def __init__(self) -> None:
        self._error: str | None = "the worker was not set up"

    def setup(self, settings: dict[str, Any], provenance: dict[str, Any]) -> str:
        """Check the files against the driver's, then build the env; return the node name."""
        from physbench_gym.eval.provenance import check_provenance, compute_provenance
        from physbench_gym.eval.runner import init_worker

        node = socket.gethostname()
        try:
            mine = compute_provenance(settings["tasks"], settings.get("judge_model"))
        except KeyError as exc:
            mine = {"version": None, "hashes": {f"task {exc.args[0]}": "unknown"}}
        try:
            check_provenance(provenance, mine,
                             f"the Ray worker on {node} runs other code or data than the "
                             "driver ({changes}); install the same physbench-gym and task "
                             "specs on every node")
        except ProvenanceError as exc:
            self._error = str(exc)
            raise
        init_worker(settings)
        self._error = None
        return node

    def run(self, task_id: str, sample: int, seed: int) -> tuple[dict[str, Any], list]:
        """Run one episode; its result record and event log."""
        from physbench_gym.eval.runner import run_one

        if self._error is not None:
            raise ProvenanceError(self._error)
        return run_one(task_id, sample, seed)

    def pid(self) -> int:
        """This worker's process id."""
        return os.getpid()


def execute_on_ray(settings: dict[str, Any], todo: list[Episode], workers: int, *,
                   address: str | None, provenance: dict[str, Any]
                   ) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Run ``todo`` on ``workers`` Ray actors; yield each episode's record and events once.

    Connects at once (so a bad address fails before anything runs); iterate the result to
    run the episodes.
    """
    if not todo:
        return iter(())
    ray = import_ray()
    connected_here = connect(address)
    return _run(ray, settings, todo, workers, provenance, connected_here)


def _run(ray: Any, settings: dict[str, Any], todo: list[Episode], workers: int,
         provenance: dict[str, Any], connected_here: bool
         ) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    try:
        pool = _ActorPool(ray, settings, provenance, max(1, workers))
        try:
            yield from pool.run(deque(todo))
        finally:
            pool.close()
    finally:
        if connected_here:
            ray.shutdown()


class _ActorPool:
    def __init__(self, ray: Any, settings: dict[str, Any], provenance: dict[str, Any],
                 workers: int) -> None:
        self.ray, self.settings, self.provenance = ray, settings, provenance
        self.remote_class = ray.remote(num_cpus=1, max_restarts=0)(EpisodeWorker)
        self.in_flight: dict[Any, tuple[int, Any, Episode | None]] = {}
        self.load = Counter[int]()
        self.actors = [self._start(slot) for slot in range(workers)]

    def _start(self, slot: int) -> Any:
        actor = self.remote_class.remote()
        self.in_flight[actor.setup.remote(self.settings, self.provenance)] = (slot, actor, None)
        return actor

    def run(self, queue: deque[Episode]) -> Iterator[tuple[dict[str, Any], list[dict]]]:
        lost = self.ray.exceptions.RayActorError, self.ray.exceptions.ObjectLostError
        losses = Counter[Episode]()
        while queue or self.in_flight:
            self._fill(queue)
            (ref,), _ = self.ray.wait(list(self.in_flight), num_returns=1)
            slot, actor, episode = self.in_flight.pop(ref)
            try:
                result = self._get(ref)
            except lost as exc:
                if episode is None:
                    raise PhysBenchError(f"a Ray worker died while starting: "
                                         f"{_first_line(exc)}") from None
                self.load[slot] -= 1
                losses[episode] += 1
                self._replace(slot, actor)
                if losses[episode] >= MAX_LOSSES:
                    yield _lost_record(episode, self.settings, losses[episode], exc), []
                else:
                    queue.appendleft(episode)
                continue
            if episode is not None:
                self.load[slot] -= 1
                yield result

    def _fill(self, queue: deque[Episode]) -> None:
        for slot, actor in enumerate(self.actors):
            while queue and self.load[slot] < IN_FLIGHT_PER_WORKER:
                episode = queue.popleft()
                self.in_flight[actor.run.remote(*episode)] = (slot, actor, episode)
                self.load[slot] += 1

    def _get(self, ref: Any) -> Any:
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:
            if isinstance(exc.cause, PhysBenchError):
                raise type(exc.cause)(str(exc.cause)) from None
            raise

    def _replace(self, slot: int, dead: Any) -> None:
        """Start a new actor in ``slot`` unless the ``dead`` one was replaced already."""
        if self.actors[slot] is not dead:
            return
        self.ray.kill(self.actors[slot], no_restart=True)
        self.actors[slot] = self._start(slot)

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
        self.actors, self.in_flight = [], {}


def _lost_record(episode: Episode, settings: dict[str, Any], losses: int,
                 error: Exception) -> dict[str, Any]:
    from physbench_gym.eval.runner import base_record

    record = base_record(*episode, settings)
    record.update(status="infra_error", termination="infra_error", finished_at=time.time(),
                  error=f"WorkerLost: the episode's Ray worker died {losses} times: "
                        f"{_first_line(error)}")
    return record


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:300]
