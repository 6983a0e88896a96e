"""Injectable time and id sources, so that an episode's writes are reproducible byte for byte."""

from __future__ import annotations

import random
import re
import uuid
from datetime import datetime, timedelta, timezone

_ID_PATTERN = re.compile(r"[A-Za-z0-9\-.]{1,64}")
DEFAULT_START = datetime(2024, 1, 1, tzinfo=timezone.utc)


class SimulatedClock:
    """A clock that only moves when told to; the server stamps ``meta.lastUpdated`` from it."""

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        if start.tzinfo is None:
            start = start.replace(tzinfo=timezone.utc)
        self._now = start

    def now(self) -> datetime:
        """Return the current simulated time (timezone-aware)."""
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move the clock forward by ``seconds`` (never backwards) and return the new time."""
        if seconds < 0:
            raise ValueError("a simulated clock cannot go backwards")
        self._now = self._now + timedelta(seconds=seconds)
        return self._now


class IdSource:
    """Deterministic resource ids drawn from a seed, each a valid FHIR id."""

    def __init__(self, seed: int = 0, prefix: str = "") -> None:
        if (prefix and not _ID_PATTERN.fullmatch(prefix)) or len(prefix) > 28:
            raise ValueError(f"id prefix {prefix!r} must match [A-Za-z0-9-.] and be ≤ 28 chars")
        self._random = random.Random(seed)
        self._prefix = prefix

    def next_id(self) -> str:
        """Return the next id of the sequence (a UUID-shaped string after the prefix)."""
        value = uuid.UUID(int=self._random.getrandbits(128), version=4)
        return f"{self._prefix}{value}"


def is_valid_id(value: object) -> bool:
    """Tell whether ``value`` is a legal FHIR logical id."""
    return (isinstance(value, str) and _ID_PATTERN.fullmatch(value) is not None
            and value.strip(".") != "")


def format_instant(moment: datetime) -> str:
    """Render a datetime as a FHIR instant in UTC with millisecond precision."""
    utc = moment.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
