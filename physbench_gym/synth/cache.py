"""On-disk cache of built stores, so a second start skips generation and indexing.

Entries live under ``$PHYSBENCH_CACHE_DIR`` (default ``~/.cache/physbench-gym``), keyed by a
hash of the parameters and of the synth package's own source and data files, so a code or
table change invalidates them. Writes are atomic; a damaged entry reads as a miss.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

_FORMAT = "physbench-synth-cache/2"
_PACKAGE_DIR = Path(__file__).resolve().parent
_SOURCE_DIRS = (_PACKAGE_DIR, _PACKAGE_DIR.parent / "fhir")


def cache_dir() -> Path:
    """The cache directory (created on demand)."""
    configured = os.environ.get("PHYSBENCH_CACHE_DIR")
    root = Path(configured) if configured else Path.home() / ".cache" / "physbench-gym"
    return root


@functools.cache
def source_fingerprint() -> str:
    """SHA-256 over the sources and data tables of the synth and fhir packages.

    The fhir sources count because the cache holds a built store, whose layout they define.
    """
    digest = hashlib.sha256()
    for root in _SOURCE_DIRS:
        files = sorted(p for p in root.rglob("*")
                       if p.is_file() and p.suffix in (".py", ".tsv", ".csv", ".json")
                       and "__pycache__" not in p.parts)
        for path in files:
            digest.update(f"{root.name}/{path.relative_to(root).as_posix()}".encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_key(**params: Any) -> str:
    """A key for ``params`` (JSON-serialisable) under the current source fingerprint."""
    params = {**params, "python": sys.version}
    text = json.dumps(params, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{_FORMAT}\0{source_fingerprint()}\0{text}".encode()).hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / f"synth-{key[:32]}.bin"


def load_blob(key: str) -> bytes | None:
    """The cached bytes for ``key``, or None if absent, truncated or corrupted."""
    try:
        data = _path(key).read_bytes()
    except OSError:
        return None
    header, _, body = data.partition(b"\n")
    try:
        meta = json.loads(header)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(meta, dict) or meta.get("format") != _FORMAT or meta.get("key") != key:
        return None
    if meta.get("size") != len(body) or hashlib.sha256(body).hexdigest() != meta.get("sha256"):
        return None
    return body


def store_blob(key: str, body: bytes) -> Path | None:
    """Atomically write ``body`` under ``key``; None if the cache is not writable."""
    meta = {"format": _FORMAT, "key": key, "size": len(body),
            "sha256": hashlib.sha256(body).hexdigest()}
    target = _path(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".bin")
        with os.fdopen(handle, "wb") as stream:
            stream.write(json.dumps(meta).encode() + b"\n" + body)
        os.replace(temp, target)
    except OSError:
        return None
    return target
