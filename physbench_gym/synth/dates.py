"""Story dates: absolute ISO dates/datetimes or offsets before ``now`` such as ``-1y-2m``."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, time, timedelta, timezone
from typing import Annotated

from pydantic import BeforeValidator

_OFFSET_PART = re.compile(r"([+-])(\d+)([dwmy])")
_OFFSET = re.compile(r"^(?:[+-]\d+[dwmy])+$")


def _date_text(value: object) -> str:
    if isinstance(value, datetime):
        stamp = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        return stamp.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if not isinstance(value, str):
        raise ValueError(f"expected a date, datetime or offset such as '-6m', got {value!r}")
    text = value.strip()
    if _OFFSET.match(text):
        return text
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(f"not an ISO date or offset like '-90d', '-1y-2m': {value!r}") from exc
    return text


DateRef = Annotated[str, BeforeValidator(_date_text)]


def shift_months(moment: datetime, months: int) -> datetime:
    """``moment`` moved by whole months, the day clamped to the target month's length."""
    total = moment.year * 12 + (moment.month - 1) + months
    year, month = divmod(total, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def resolve_date(ref: str | date | datetime, now: datetime) -> datetime:
    """Resolve an absolute date or an offset like ``-1y-2m`` against ``now`` to a UTC datetime.

    Date-only values resolve to midnight UTC; offsets keep ``now``'s time of day.
    """
    text = _date_text(ref)
    if _OFFSET.match(text):
        moment = now
        for sign, amount, unit in _OFFSET_PART.findall(text):
            n = int(amount) * (1 if sign == "+" else -1)
            if unit in "dw":
                moment = moment + timedelta(days=n * (7 if unit == "w" else 1))
            else:
                moment = shift_months(moment, n * (12 if unit == "y" else 1))
        return moment
    if len(text) == 10:
        return datetime.combine(date.fromisoformat(text), time(0, 0), tzinfo=timezone.utc)
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc)


def _utc(value: object) -> object:
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if isinstance(value, datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc)
    return value


UtcDateTime = Annotated[datetime, BeforeValidator(_utc)]
