"""The run directory: results that are never lost, and one event log per episode.

``results.jsonl`` is append-only; every record is written, flushed and fsynced before the
next episode is counted as done. A process killed mid-write leaves at most one torn last
line, which the next writer cuts off (that episode is simply run again). Several records may
exist for one episode key (an infrastructure error, then its retry): the latest wins.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from physbench_gym.errors import PhysBenchError

RESULTS = "results.jsonl"
RUN_CONFIG = "run.json"
TRAJECTORIES = "trajectories"
LOCK = ".lock"

EpisodeKey = tuple[str, int]


def episode_key(record: dict[str, Any]) -> EpisodeKey:
    """The identity of an episode in a run: (task id, sample index)."""
    return str(record["task_id"]), int(record["sample"])


def trajectory_name(task_id: str, sample: int) -> str:
    """Relative path of an episode's event log inside the run directory."""
    return f"{TRAJECTORIES}/{task_id}__{sample}.jsonl"


def read_results(out_dir: str | Path) -> dict[EpisodeKey, dict[str, Any]]:
    """The latest record of every episode in a run directory (torn lines are skipped)."""
    path = Path(out_dir) / RESULTS
    latest: dict[EpisodeKey, dict[str, Any]] = {}
    if not path.exists():
        return latest
    with path.open("rb") as handle:
        for line in handle:
            record = _parse(line)
            if record is not None:
                latest[episode_key(record)] = record
    return latest


def read_trajectory(out_dir: str | Path, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The event log of one episode record (empty when it was never written)."""
    path = Path(out_dir) / record.get("trajectory", trajectory_name(*episode_key(record)))
    if not path.exists():
        return []
    with path.open("rb") as handle:
        return [event for event in map(_parse, handle) if event is not None]


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(record, dict):
        return None
    if "type" not in record and not {"task_id", "sample"} <= record.keys():
        return None
    return record


class ResultsStore:
    """Exclusive writer of a run directory; use as a context manager."""

    def __init__(self, out_dir: str | Path) -> None:
        self.out_dir = Path(out_dir)
        self._lock: IO[bytes] | None = None
        self._results: IO[bytes] | None = None

    def __enter__(self) -> ResultsStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Take the directory's lock, repair a torn last line and open results for append."""
        (self.out_dir / TRAJECTORIES).mkdir(parents=True, exist_ok=True)
        self._lock = (self.out_dir / LOCK).open("ab")
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            self._lock = None
            raise PhysBenchError(f"another evaluation is writing to {self.out_dir}") from None
        path = self.out_dir / RESULTS
        _cut_torn_tail(path)
        self._results = path.open("ab")

    def close(self) -> None:
        """Release the files; safe to call twice."""
        for handle in (self._results, self._lock):
            if handle is not None:
                handle.close()
        self._results = self._lock = None

    def check_config(self, config: dict[str, Any], identity: Iterable[str],
                     provenance: dict[str, Any] | None = None) -> None:
        """Record the run's config and provenance (see ``eval.provenance``), or refuse to
        resume a run made with another identity or graded by other files."""
        from physbench_gym.eval.provenance import check_provenance

        path = self.out_dir / RUN_CONFIG
        if path.exists():
            previous = json.loads(path.read_text(encoding="utf-8"))
            changed = [key for key in identity if previous.get(key) != config.get(key)]
            if changed:
                detail = ", ".join(f"{key}: {previous.get(key)!r} -> {config.get(key)!r}"
                                   for key in changed)
                raise PhysBenchError(f"{self.out_dir} holds a run with other settings ({detail});"
                                     " use another --out to start a new run")
            if provenance is not None and "provenance" in previous:
                check_provenance(previous["provenance"], provenance,
                                 f"cannot resume {self.out_dir}: its results were graded by "
                                 "other code or data ({changes}); results of different graders "
                                 "never mix, use another --out to start a new run")
                recorded = previous["provenance"]["hashes"]
                provenance = {**provenance, "hashes": {**recorded, **provenance["hashes"]}}
        data = {**config, "provenance": provenance} if provenance is not None else config
        _write_atomic(path, json.dumps(data, indent=2, sort_keys=True).encode())

    def write_trajectory(self, task_id: str, sample: int, events: list[dict[str, Any]]) -> str:
        """Write an episode's event log atomically; return its relative path.

        Only the result record is fsynced: the log is a by-product, and a reader treats a
        missing one as empty.
        """
        name = trajectory_name(task_id, sample)
        data = b"".join(_line(event) for event in events)
        _write_atomic(self.out_dir / name, data, sync=False)
        return name

    def append(self, record: dict[str, Any]) -> None:
        """Append one result durably (write, flush, fsync)."""
        if self._results is None:
            raise PhysBenchError("the results store is not open")
        self._results.write(_line(record))
        self._results.flush()
        os.fsync(self._results.fileno())


def _line(record: dict[str, Any]) -> bytes:
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    return text.encode("utf-8") + b"\n"


def _cut_torn_tail(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("r+b") as handle:
        handle.seek(-1, os.SEEK_END)
        if handle.read(1) == b"\n":
            return
        size = handle.seek(0, os.SEEK_END)
        block = 1 << 16
        position = size
        while position > 0:
            start = max(0, position - block)
            handle.seek(start)
            chunk = handle.read(position - start)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                handle.truncate(start + newline + 1)
                break
            position = start
        else:
            handle.truncate(0)
        handle.flush()
        os.fsync(handle.fileno())


def _write_atomic(path: Path, data: bytes, sync: bool = True) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("wb") as handle:
        handle.write(data)
        handle.flush()
        if sync:
            os.fsync(handle.fileno())
    os.replace(temporary, path)
