"""When medication orders run: consecutive steps of a titration or taper versus concurrent
orders whose doses add up.

Used by the safety checks (duplication, summed daily dose) and by task graders that add up a
drug's daily dose over several orders. Only the orders' own fields are read: the stated start
(timing ``boundsPeriod``, dispense ``validityPeriod``, a start day in the sig), the course
(``course_days``), the authoredOn, and the product and daily amount (``medications``).
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timezone
from typing import Any

from physbench_gym.grading.medications import course_days, order_route, product_of, regimens

MAX_STEP_DAYS = 28.0
"""The longest course read as one step of a titration or taper (every step but the last):
a week or two per step is usual (Zoloft and Effexor XR labels: changes at intervals of at least
a week; 4 weeks is the longest cross-taper overlap of ``duplication_classes.tsv``). A 90-day
supply beside another dose of the same drug is a duplication, not a step."""

_SIG_START = (
    # 'starting day 8', 'start on day 8', 'beginning day 8', 'from day 8', 'on day 8'
    (re.compile(r"\b(?:start\w*|begin\w*|commenc\w*|from|on)\s+(?:on\s+)?day\s+(\d+)\b", re.I),
     1.0),
    # 'days 8-14', 'day 8 to 14', 'days 8 through 14'
    (re.compile(r"\bdays?\s+(\d+)\s*(?:-|–|to|through|thru)\s*\d+\b", re.I), 1.0),
    # 'Week 2: ...', 'starting week 2', 'in week 2', 'weeks 2-3'
    (re.compile(r"(?:^\s*|\b(?:start\w*|begin\w*|from|in|during|for|on)\s+(?:in\s+)?)weeks?\s+"
                r"(\d+)\b", re.I), 7.0),
)


def _instant(text: Any) -> datetime | None:
    if not text:
        return None
    try:
        found = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return found if found.tzinfo else found.replace(tzinfo=timezone.utc)


def stated_start(resource: dict[str, Any]) -> tuple[datetime | None, float | None]:
    """The start an order states, if any: an instant (the timing's ``boundsPeriod.start``,
    else the dispense ``validityPeriod.start``), or a day offset from the order's authoredOn
    read from the sig ('days 8-14' and 'starting day 8': day 7; 'week 2': day 7)."""
    instructions = resource.get("dosageInstruction", []) or []
    for instruction in instructions:
        repeat = (instruction.get("timing") or {}).get("repeat") or {}
        start = _instant((repeat.get("boundsPeriod") or {}).get("start"))
        if start is not None:
            return start, None
    validity = (resource.get("dispenseRequest") or {}).get("validityPeriod") or {}
    start = _instant(validity.get("start"))
    if start is not None:
        return start, None
    for instruction in instructions:
        sig = str(instruction.get("text") or "")
        for pattern, days in _SIG_START:
            match = pattern.search(sig)
            if match and int(match.group(1)) >= 1:
                return None, (int(match.group(1)) - 1) * days
    return None, None


def order_windows(resources: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """When each order runs, as [start, end) in calendar days from the earliest start or
    authoredOn among them (end ``inf`` when open-ended).

    An order starts at the start it states (``stated_start``), else at its authoredOn; it
    ends at its timing's ``boundsPeriod.end``, else after its course (``course_days``: the
    timing's bounds, else the supply with its refills).

    The reference tool set has no start date, so a titration is often written as orders of
    one drug placed together with courses of different length (sertraline 25 mg daily for 7
    days and 50 mg daily for 30 days). Orders of the same drug (same moieties and route)
    authored the same day without a stated start, at different daily doses and with courses
    of different length, every course but the longest at most ``MAX_STEP_DAYS``, are read as
    consecutive steps, the shortest course first: 25 mg on days 0-7, then 50 mg. Orders with
    equal courses (or all open-ended) run together and their doses add up, as when two
    strengths make one dose (75 mg + 37.5 mg capsules) or a drug is ordered twice.
    """
    starts, offsets, authored = [], [], []
    for resource in resources:
        instant, offset = stated_start(resource)
        starts.append(instant)
        offsets.append(offset)
        authored.append(_instant(resource.get("authoredOn")))
    known = [t for t in starts + authored if t is not None]
    origin = min(known) if known else None

    def days(moment: datetime | None) -> float:
        if moment is None or origin is None:
            return 0.0
        return float((moment.date() - origin.date()).days)  # orders run by calendar day

    windows: list[tuple[float, float]] = []
    for i, resource in enumerate(resources):
        begin = days(starts[i]) if starts[i] is not None else (
            days(authored[i]) + (offsets[i] or 0.0))
        windows.append((begin, begin + _course(resource, begin, days)))

    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, resource in enumerate(resources):
        if starts[i] is not None or offsets[i] is not None:
            continue
        product = product_of(resource)
        if product is None:
            continue
        day = authored[i].date() if authored[i] is not None else None
        groups.setdefault((product.moieties, order_route(resource, product), day), []).append(i)
    for members in groups.values():
        lengths = sorted({windows[i][1] - windows[i][0] for i in members})
        doses = {daily_amounts(resources[i]) for i in members}
        if len(lengths) < 2 or len(doses) < 2 or None in doses or lengths[-2] > MAX_STEP_DAYS:
            continue
        begin = min(windows[i][0] for i in members)
        for length in lengths:  # each block of equal courses follows the shorter ones
            for i in members:
                if windows[i][1] - windows[i][0] == length:
                    windows[i] = (begin, begin + length)
            begin += length
    return windows


def overlap(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """Whether two order windows share some time (touching ends do not)."""
    return first[0] < second[1] and second[0] < first[1]


def steps(resources: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The orders grouped by the times they run together, in time order: each group is the
    set of orders running at one order's start (the first group is the first step)."""
    windows = order_windows(resources)
    found: list[list[dict[str, Any]]] = []
    for begin in sorted({w[0] for w in windows}):
        group = [r for r, w in zip(resources, windows, strict=True) if w[0] <= begin < w[1]]
        if group and group not in found:
            found.append(group)
    return found


def _course(resource: dict[str, Any], begin: float, days: Any) -> float:
    for instruction in resource.get("dosageInstruction", []) or []:
        repeat = (instruction.get("timing") or {}).get("repeat") or {}
        end = _instant((repeat.get("boundsPeriod") or {}).get("end"))
        if end is not None:
            return max(days(end) - begin, 0.0)
    length = course_days(resource)
    return math.inf if length is None else length


def daily_amounts(resource: dict[str, Any]) -> tuple[tuple[str, float], ...] | None:
    """The order's amount a day of each component (first instruction), when computable."""
    product = product_of(resource)
    if product is None:
        return None
    found = regimens(resource, product)
    if not found:
        return None
    amounts = []
    for component in product.components:
        daily = found[0].daily(component)
        if daily is None:
            return None
        amounts.append((component, round(daily[0], 6)))
    return tuple(amounts)
