"""What the chart says at any moment: active problems, active medications, story-owned results.

Routine notes and routine panels consult the timeline so that noise never contradicts the story.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from physbench_gym.synth import terminology as term
from physbench_gym.synth.story import Story

DIABETES = frozenset({"44054006", "46635009", "73211009"})
HYPERTENSION = frozenset({"38341003", "59621000"})
HYPERLIPIDEMIA = frozenset({"55822004", "13644009", "398036000"})


@dataclass(frozen=True)
class _Result:
    code: str
    moment: datetime
    rid: str
    encounter: str
    panel: str | None


@dataclass
class Timeline:
    """Problems, prescriptions and results the chart holds, with their dates."""

    story: Story
    problems: list[tuple[str, datetime, datetime | None]] = field(default_factory=list)
    meds: list[tuple[str, datetime, datetime | None, str]] = field(default_factory=list)
    results: list[_Result] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.owned = self.story.owned_codes()

    def problem(self, code: str, onset: datetime, ended: datetime | None) -> None:
        """Record a condition and the span in which it is active."""
        self.problems.append((code, onset, ended))

    def medication(self, display: str, start: datetime, end: datetime | None, sig: str,
                   status: str) -> None:
        """Record a prescription period (orders that never became active are skipped)."""
        if status in ("cancelled",):
            return
        if end is None and status in ("stopped", "completed"):
            end = start + timedelta(days=90)
        self.meds.append((display, start, end, sig))

    def result(self, code: str, moment: datetime, rid: str, encounter: str,
               panel: str | None) -> None:
        """Record a story result Observation."""
        self.results.append(_Result(code, moment, rid, encounter, panel))

    def panel_groups(self) -> dict[tuple[str, str], list[tuple[datetime, str, str]]]:
        """Story results grouped by (panel code, date) for DiagnosticReports."""
        groups: dict[tuple[str, str], list[tuple[datetime, str, str]]] = {}
        for item in self.results:
            if item.panel:
                key = (item.panel, item.moment.date().isoformat())
                groups.setdefault(key, []).append((item.moment, item.rid, item.encounter))
        return groups

    def active_problems(self, at: datetime) -> list[str]:
        """Display names of conditions active at ``at``, in story order."""
        names = []
        for code, onset, ended in self.problems:
            if onset <= at and (ended is None or ended > at):
                names.append(term.condition(code).display)
        return list(dict.fromkeys(names))

    def active_meds(self, at: datetime) -> list[str]:
        """'drug: sig' of prescriptions active at ``at``."""
        lines = []
        for display, start, end, sig in self.meds:
            if start <= at and (end is None or end > at):
                lines.append(f"{display}: {sig}")
        return list(dict.fromkeys(lines))

    def has_problem(self, codes: frozenset[str], at: datetime) -> bool:
        """Whether any of ``codes`` is an active problem at ``at``."""
        return any(code in codes and onset <= at and (ended is None or ended > at)
                   for code, onset, ended in self.problems)

    def chronic(self, at: datetime) -> bool:
        """Whether the patient has an active chronic condition at ``at``."""
        return any(onset <= at and (ended is None or ended > at)
                   and term.condition(code).extra.get("chronic") == "yes"
                   for code, onset, ended in self.problems)
