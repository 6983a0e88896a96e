"""The EHR's population: the practitioner roster, background patients, and the base store.

``build_base_store`` is what a process loads once (cached on disk); ``write_population`` is
``physbench synth``: the same data as NDJSON per resource type and transaction bundles.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import marshal
import pickle
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from physbench_gym.fhir.loading import bundle_from_resources, transaction_chunks
from physbench_gym.fhir.store import BaseStore
from physbench_gym.synth.background import DEFAULT_NOW, background_story
from physbench_gym.synth.cache import cache_key, load_blob, store_blob
from physbench_gym.synth.chart import generate_chart
from physbench_gym.synth.roster import roster_resources
from physbench_gym.synth.story import Story

__all__ = ["DEFAULT_NOW", "background_population", "build_base_store", "lookalike_of",
           "population_resources", "roster_resources", "write_population"]
_SHARES = ("family", "birth_date", "family")


def lookalike_of(story: Story, index: int, seed: int = 0, share: str = "family",
                 now: datetime = DEFAULT_NOW) -> Story:
    """A background story sharing ``story``'s family name (or birth date, ``share``)."""
    return background_story(index, seed, now, like=story, share=share)


def _stories(n: int, seed: int, now: datetime, lookalikes: Sequence[Story]) -> Iterator[Story]:
    plan: list[tuple[Story, str]] = [(like, share) for like in lookalikes for share in _SHARES]
    for index in range(n):
        if index < len(plan):
            like, share = plan[index]
            yield background_story(index, seed, now, like=like, share=share)
        else:
            yield background_story(index, seed, now)


def background_population(n: int = 500, seed: int = 0, *, now: datetime = DEFAULT_NOW,
                          lookalikes: Sequence[Story] = ()) -> list[dict[str, Any]]:
    """The resources of ``n`` background patients (without the roster).

    Each lookalike story gets background patients sharing its family name or birth date, so
    that finding a task patient takes its MRN or full demographics.
    """
    resources: list[dict[str, Any]] = []
    for story in _stories(n, seed, now, lookalikes):
        resources.extend(generate_chart(story, seed, minor_problems=(0, 2)))
    return resources


def population_resources(patients: int = 500, seed: int = 0, extra: Iterable[dict] = (), *,
                         now: datetime = DEFAULT_NOW,
                         lookalikes: Sequence[Story] = ()) -> list[dict[str, Any]]:
    """Roster, background population and ``extra`` resources, in that order."""
    resources = roster_resources()
    resources.extend(background_population(patients, seed, now=now, lookalikes=lookalikes))
    resources.extend(extra)
    return resources


def _dumps(resource: dict[str, Any]) -> str:
    return json.dumps(resource, separators=(",", ":"), ensure_ascii=False)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while millions of acyclic JSON containers are created."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_base_store(patients: int = 500, seed: int = 0,
                     extra: Iterable[dict] | Callable[[], Iterable[dict]] = (), *,
                     now: datetime = DEFAULT_NOW,
                     lookalikes: Sequence[Story] | Callable[[], Sequence[Story]] = (),
                     use_cache: bool = True, content_key: str | None = None) -> BaseStore:
    """The embedded EHR's immutable base: roster + population + ``extra``, cached on disk.

    With ``content_key`` (a digest of whatever ``extra`` and ``lookalikes`` are made from),
    they may be zero-argument callables, called only when the cache holds no store for the key,
    so a cached start does not generate them just to hash them.
    """
    if content_key is None:
        extra, lookalikes = list(_made(extra)), list(_made(lookalikes))
        content: dict[str, Any] = {
            "lookalikes": [story.model_dump_json() for story in lookalikes],
            "extra": hashlib.sha256("\n".join(_dumps(r) for r in extra).encode()).hexdigest()}
    else:
        content = {"content": content_key}
    key = cache_key(patients=patients, seed=seed, now=now.isoformat(), **content)
    with _gc_paused():
        cached = _unpickle(load_blob(key)) if use_cache else None
        if cached is not None:
            return cached
        resources = population_resources(patients, seed, list(_made(extra)), now=now,
                                         lookalikes=list(_made(lookalikes)))
        store = BaseStore.from_resources(resources)
        store.warm()
        if use_cache:
            store_blob(key, _snapshot(store, resources))
    return store


def _made(value: Any) -> Any:
    return value() if callable(value) else value


def _snapshot(store: BaseStore, resources: list[dict[str, Any]]) -> bytes:
    try:
        return b"S" + pickle.dumps(store, protocol=pickle.HIGHEST_PROTOCOL)
    except (TypeError, pickle.PicklingError):
        return b"R" + marshal.dumps(resources)


def _unpickle(blob: bytes | None) -> BaseStore | None:
    if not blob:
        return None
    try:
        if blob[:1] == b"S":
            store = pickle.loads(blob[1:])
            return store if isinstance(store, BaseStore) else None
        if blob[:1] == b"R":
            return BaseStore.from_resources(marshal.loads(blob[1:]))
    except Exception:
        return None
    return None


def write_population(out: str | Path, patients: int = 500, seed: int = 0) -> str:
    """Write NDJSON per resource type and transaction bundles (≤ 500 entries) to ``out``.

    Returns a one-line summary.
    """
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    resources = population_resources(patients, seed)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for resource in resources:
        by_type.setdefault(resource["resourceType"], []).append(resource)
    for kind in sorted(by_type):
        lines = "".join(_dumps(resource) + "\n" for resource in by_type[kind])
        (root / f"{kind}.ndjson").write_text(lines, encoding="utf-8")
    bundle_dir = root / "bundles"
    bundle_dir.mkdir(exist_ok=True)
    for stale in bundle_dir.glob("transaction-*.json"):
        stale.unlink()
    chunks = transaction_chunks(bundle_from_resources(resources), chunk_size=500)
    for number, chunk in enumerate(chunks, start=1):
        (bundle_dir / f"transaction-{number:04d}.json").write_text(
            json.dumps(chunk, ensure_ascii=False), encoding="utf-8")
    counts = ", ".join(f"{kind} {len(items)}" for kind, items in sorted(by_type.items()))
    return (f"wrote {len(resources)} resources for {patients} patients (seed {seed}) to {root}: "
            f"{len(by_type)} NDJSON files, {len(chunks)} transaction bundles [{counts}]")
