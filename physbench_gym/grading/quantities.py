"""Numbers in clinical text: values with units, ranges, comparators, roles and schedules.

'TSH 8.9 mIU/L', 'eGFR 32 mL/min/1.73m2', 'LDL 3.9 mmol/L', 'in 6-8 weeks', 'buprenorphine-
naloxone 8 mg/2 mg', 'vitamin D 50,000 IU weekly x 8 wk', 'from 75 to 88 mcg', 'max 16 mg',
'CrCl < 30': each number is read with its unit (a range shares the unit of its end), its
comparator, and its role in the sentence (the old value of a change, a limit, a reference
range), so that graders compare like with like. Units convert within a dimension (mg and g,
days and months) and, for analytes, by the factors the lexicon gives.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from datetime import date

_NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+(?=\s*(?:iu|units?)\b)|\d+(?:\.\d+)?|\.\d+)"
_VALUE = re.compile(
    rf"(?P<cmp>(?<![-=])(?:<=|>=|<|>)\s*)?(?<![\w.])(?P<sign>-(?=\d))?(?P<num>{_NUMBER})"
    rf"(?P<k>k\b)?(?![\d])", re.IGNORECASE)
_COUNT = r"\d{1,2}|one|two|three|four|five|six"
_TABLET = r"(?:tablets?|tabs?|capsules?|caps?|pills?|films?|strips?)"
_TABLETS = re.compile(
    rf"\b(?:(?P<n>{_COUNT})(?:\s*x\s*|\s+)(?P<s>{_NUMBER})[\s-]*(?P<u>mg|mcg|g|milligrams?)\s+"
    rf"(?:[a-z-]+\s+)?"
    rf"{_TABLET}"
    rf"|(?P<n2>{_COUNT})\s+(?:[a-z-]+\s+){{0,2}}?{_TABLET}\s*\(\s*(?P<s2>{_NUMBER})\s*"
    rf"(?P<u2>mg|mcg|g)\s*(?:each|apiece|per (?:tablet|capsule|tab|cap))?\s*\))"
    # '1080 mg (3 x 360 mg)': the tablets that make up the dose, read as the dose they make
    rf"|(?<=\()\s*(?P<n3>{_COUNT})\s*x\s*(?P<s3>{_NUMBER})[\s-]*(?P<u3>mg|mcg|g)\b"
    rf"(?=(?:[\s-]*(?:tab\w*|cap\w*))?\s*\))"
    # 'four of the 200 milligram tablets', '200 mg tab x 4': the count taken of a strength
    rf"|(?P<n4>{_COUNT})\s+of\s+(?:the|his|her|their)\s+(?P<s4>{_NUMBER})[\s-]*"
    rf"(?P<u4>mg|mcg|g|milligrams?)\s+{_TABLET}"
    rf"|(?P<s5>{_NUMBER})[\s-]*(?P<u5>mg|mcg|g)\s+{_TABLET}\s*[x\u00d7]\s*(?P<n5>{_COUNT})\b"
    # '5 tabs of 3 mg': the count of tablets of a strength
    rf"|\b(?P<n6>{_COUNT})\s+{_TABLET}\s+of\s+(?P<s6>{_NUMBER})[\s-]*(?P<u6>mg|mcg|g)\b"
    # '14 mg/kg -> 1080 mg = 3 x 360 mg': the tablets that make up the dose, after its '='
    rf"|(?<==)\s*(?P<n7>{_COUNT})\s*[x\u00d7]\s*(?P<s7>{_NUMBER})[\s-]*(?P<u7>mg|mcg|g)\b",
    re.IGNORECASE)
_TABLET_GROUPS = tuple(tuple(f"{kind}{i}" for i in ("", "2", "3", "4", "5", "6", "7"))
                       for kind in "nsu")
_DIMENSIONS_OF = re.compile(rf"(?<![\w.])(?P<a>{_NUMBER})\s*(?:cm|mm)?\s*[x\u00d7]\s*"
                            rf"(?P<b>{_NUMBER})"
                            rf"(?:\s*(?:cm|mm)?\s*[x\u00d7]\s*(?P<c>{_NUMBER}))?\s*(?P<u>cm|mm)\b",
                            re.IGNORECASE)
_STRENGTH = re.compile(
    rf"(?P<a>{_NUMBER})\s*(?:mg|milligrams?)?\s*/\s*(?P<b>{_NUMBER})\s*(?:mg|milligrams?)\b",
    re.IGNORECASE)
_RATIO = re.compile(rf"(?<![\w./])(?P<a>{_NUMBER})\s*/\s*(?P<b>{_NUMBER})(?![\w./])")
_UNIT = re.compile(
    r"\s*-?\s*(?:(?P<more>more|additional|further|extra)\s+)?(?P<unit>(?:x\s?10(?:\^|\*|\^?\()?\d+\)?/[a-z]+3?"
    r"|10(?:\^|\*)\d+/[a-z]+3?|/\s?(?:u|\u00b5|\u03bc|mc)l\b|/\s?mm(?:3|\^3)|/\s?cumm\b"
    r"|per\s+(?:micro-?lit(?:er|re)|(?:u|\u00b5|\u03bc|mc)l|mm3|cubic\s+millimet(?:er|re))\b"
    r"|ml/min/1\.73\s?m2|ml/min/1\.73|mosm/kg(?:\s*h2o)?"
    r"|[a-z%\u00b5\u03bc]+(?:/\s?24[\s-]?(?:hours?|hrs?|h)\b|/[a-z0-9.]+)?))",
    re.IGNORECASE)
_DATE = re.compile(r"\b(?:19|20)\d\d-\d{1,2}(?:-\d{1,2})?\b|\b\d{1,2}/\d{1,2}/(?:19|20)?\d\d\b"
                   r"|\b\d{1,2}:\d\d\b|\b\d{1,2}/(?:19|20)\d\d\b|(?<=\()\d{1,2}/\d{1,2}(?=\))"
                   # a run of dates beside a trend: '(3/23 -> 4/5 -> 4/14)'
                   r"|(?:(?<=\()|(?<=->\s))(?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9])(?=\s*(?:->|\)))"
                   r"|\b(?:19[89]\d|20[0-3]\d)\b(?!\s*(?:mg|mcg|iu|units?|ml|mosm|k\b|cells))",
                   re.IGNORECASE)
# A number that names, not measures: 'type 2 diabetes', 'stage 3b', 'item 9', 'step 2'.
_NAME_NUMBER = re.compile(r"(?:\b(?:type|grade|stage|class|step|phase|item|tier|level|ckd|segment|"
                          r"problem|issue|"
                          r"number|part|day|week|visit|line|cycle|generation|round|question|"
                          r"criterion)|#|\bno\.)\s*$|[a-z]-$", re.IGNORECASE)
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)
_CLOCK_TIME = re.compile(r"\s?[ap]\.?m\.?(?![a-z])", re.IGNORECASE)
_PER_DAY = re.compile(r"\s*(?:per day|a day|/\s?day|/d\b|daily total|total daily|in total daily)",
                      re.IGNORECASE)
_PER_DAY_UNIT = re.compile(r"/\s?(?:day|d|24\s?h)\b", re.IGNORECASE)
_WORD_NUMBERS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve")
_WORD_VALUE = re.compile(rf"(?<![\w-])({'|'.join(_WORD_NUMBERS)}|a|an|single)(?=[\s-]+\w)",
                         re.IGNORECASE)

UNIT_ALIASES = {
    "hounsfield": "hu", "second": "s", "seconds": "s", "sec": "s", "secs": "s",
    "millisecond": "ms", "milliseconds": "ms", "msec": "ms",
    "ug": "mcg", "microgram": "mcg", "micrograms": "mcg", "mcgs": "mcg", "µg": "mcg",
    "milligram": "mg", "milligrams": "mg", "mgs": "mg", "gram": "g", "grams": "g", "gm": "g",
    "gms": "g", "kilogram": "kg", "kilograms": "kg", "kgs": "kg",
    "miu/l": "miu/l", "mu/l": "miu/l", "uiu/ml": "miu/l", "uu/ml": "miu/l", "microiu/ml": "miu/l",
    "meq/l": "mmol/l", "mosm/kg h2o": "mosm/kg", "mosmol/kg": "mosm/kg", "mosm/l": "mosm/kg",
    "iu/l": "u/l", "units/l": "u/l", "international units": "iu", "units": "iu", "unit": "iu",
    "u": "iu", "ml": "ml", "milliliter": "ml", "milliliters": "ml", "millilitre": "ml",
    "cc": "ml", "liter": "l", "liters": "l", "litre": "l", "litres": "l", "ltr": "l",
    "percent": "%", "pct": "%", "days": "d", "day": "d", "weeks": "wk", "week": "wk",
    "wks": "wk", "w": "wk", "months": "mo", "month": "mo", "mos": "mo", "mth": "mo",
    "mths": "mo", "mon": "mo", "years": "y", "year": "y", "yrs": "y", "yr": "y", "hours": "h",
    "hour": "h", "hrs": "h", "hr": "h", "minutes": "min", "mins": "min",
    "tablets": "tablet", "tabs": "tablet", "tab": "tablet", "capsules": "capsule",
    "caps": "capsule", "cap": "capsule", "films": "film", "puffs": "puff", "sprays": "spray",
    "doses": "dose", "times": "x", "fold": "x", "-fold": "x", "mm hg": "mmhg", "mm[hg]": "mmhg",
    "ml/min/1.73m2": "ml/min/1.73m2",
    "ml/min/1.73 m2": "ml/min/1.73m2", "ml/min/1.73": "ml/min/1.73m2", "k/ul": "10^3/ul",
    "x10^9/l": "10^3/ul", "10^9/l": "10^3/ul", "x10^3/ul": "10^3/ul", "10*3/ul": "10^3/ul",
    "thou/ul": "10^3/ul", "x10^3/mm3": "10^3/ul", "10^3/mm3": "10^3/ul", "x10(9)/l": "10^3/ul",
    "x10(3)/ul": "10^3/ul", "/mm3": "/ul", "/mm^3": "/ul", "/cumm": "/ul", "/mcl": "/ul",
    "per microliter": "/ul", "per microlitre": "/ul", "per ul": "/ul", "per mcl": "/ul",
    "per mm3": "/ul", "per cubic millimeter": "/ul", "per cubic millimetre": "/ul",
    "bpm": "bpm", "beats/min": "bpm", "lbs": "lb", "pounds": "lb",
}
_UNIT_WORDS = frozenset({
    "mg", "mcg", "g", "kg", "lb", "ml", "l", "dl", "mmol", "meq", "iu", "d", "wk", "mo", "y", "h",
    "min", "mm", "cm", "m", "ng", "pg", "%", "x", "bpm", "mmhg", "tablet", "capsule", "film",
    "puff", "spray", "dose", "drop", "drops", "vial", "syringe", "injection", "pen", "patch",
    "packet", "sachet", "point", "points", "pack-years", "pack-year", "pk-yr", "pack", "hu",
    "s", "ms", "umol", "nmol", "pmol",
})
# Base factors within a dimension: to mg, to mL, to days.
_DIMENSIONS: dict[str, tuple[str, float]] = {
    "mcg": ("mass", 0.001), "mg": ("mass", 1.0), "g": ("mass", 1000.0), "kg": ("mass", 1e6),
    "ml": ("volume", 1.0), "l": ("volume", 1000.0), "dl": ("volume", 100.0),
    "ms": ("time", 1 / 86_400_000), "s": ("time", 1 / 86_400),
    "min": ("time", 1 / 1440), "h": ("time", 1 / 24), "d": ("time", 1.0), "wk": ("time", 7.0),
    "mo": ("time", 30.4375), "y": ("time", 365.25),
}


@dataclass(frozen=True)
class Quantity:
    """A number written in a clause with its unit, range, comparator and role."""

    value: float
    unit: str
    start: int
    end: int
    comparator: str = ""
    high: float | None = None
    """The upper end when a range was written ('6-8 weeks': value 6, high 8)."""
    role: str = ""
    """'from' (the old value of a change), 'limit' (a maximum or threshold), 'reference'
    (a normal range or goal), 'duration' ('x 8 weeks'), 'after' (a time counted from another
    event: '4 weeks after therapy'), 'additional' ('3 more months'), 'total' ('total 1,500
    mg'), 'delta' (a change: 'lower by 37.5 mg'), 'approximate' ('about 9'), 'factor' (the
    per-kg factor of a weight calculation: '68 kg x 0.2 mg = 13.6 mg'), 'later' (a
    later step of a taper written with arrows), 'date' (a calendar date,
    as days from today), 'other_period' (a rate over 48 h beside one per 24 h), or '' (the
    value stated)."""
    secondary: float | None = None
    """The second strength of a combination ('8 mg/2 mg' -> 2)."""
    daily: bool = False
    """Written as an amount per day ('40 mg/day'): a daily total, not one dose."""

    @property
    def values(self) -> tuple[float, float]:
        return self.value, self.high if self.high is not None else self.value


def unit_normalize(unit: str) -> str:
    """A written unit as a canonical token ('ug' -> 'mcg', 'mU/L' -> 'miu/l', 'weeks' -> 'wk')."""
    token = re.sub(r"\s*/\s*", "/", unit.lower().strip(" .,;:"))
    token = token.replace("µ", "u").replace("μ", "u")
    token = re.sub(r"^x\s+(?=10\^)", "x", token)  # 'x 10^3/uL' as 'x10^3/uL'
    for suffix in ("/day", "/d", " daily", " qd", "/24h", "/24 h", "/24hr", "/24hrs", "/24",
                   "/24-h", "/24 hr", "/24 hrs", "/24 hours", "/24hours", " per day", "/dy"):
        if token.endswith(suffix) and token[: -len(suffix)] in (
                "mg", "mcg", "g", "iu", "units", "ml", "l", "mmol/l", "meq/l", "meq", "mmol",
                "umol", "nmol"):
            token = token[: -len(suffix)]
    return UNIT_ALIASES.get(token, token)


def _looks_like_unit(unit: str) -> bool:
    return (unit in _UNIT_WORDS or unit in UNIT_ALIASES.values() or "/" in unit
            or unit.endswith("%") or "^" in unit)


def convert(value: float, unit: str, target: str, factors: dict[str, float] | None = None
            ) -> float | None:
    """``value`` in ``unit`` expressed in ``target``, or None when they do not convert.

    ``factors`` maps other units to ``target`` (value x factor), e.g. an analyte's molar units.
    """
    unit, target = unit_normalize(unit), unit_normalize(target)
    if unit == target:
        return value
    for written, factor in (factors or {}).items():
        if unit_normalize(written) == unit:
            return value * factor
    source, goal = _DIMENSIONS.get(unit), _DIMENSIONS.get(target)
    if source and goal and source[0] == goal[0]:
        return value * source[1] / goal[1]
    return None


_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                "dec")
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_MONTH_NO_MAY = _MONTH.replace("may|", "")
_CALENDAR = (
    re.compile(r"\b(?P<y>20\d\d)-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"),
    re.compile(r"(?<![\d/.])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>(?:20)?\d\d)(?![\d/])"),
    re.compile(rf"\b(?P<mon>{_MONTH})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y>20\d\d))?\b",
               re.IGNORECASE),
    # capitalised 'May' after a day is the month ('on 22 May'), lower case is the verb
    re.compile(r"(?<![\d.])\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?P<mon>May)(?:,?\s+(?P<y>20\d\d))?\b"),
    # day first, but not '5 may' ('apixaban 2.5 may be ...' is not a date)
    re.compile(rf"(?<![\d.])\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mon>{_MONTH_NO_MAY})"
               r"(?:,?\s+(?P<y>20\d\d))?\b", re.IGNORECASE),
    # a month of a year ("due April 2027", "04/2027"): from its first day
    re.compile(rf"\b(?P<mon>{_MONTH})\.?\s+(?P<y>20\d\d)\b", re.IGNORECASE),
    re.compile(r"(?<![\d/.])(?P<m>\d{1,2})/(?P<y>20\d\d)\b"),
)


def _calendar_dates(clause: str, today: date | None) -> list[Quantity]:
    """Future dates as times from today ('through 2026-06-17' -> in 36 days); a date without a
    year is its next occurrence."""
    found = []
    for pattern in _CALENDAR:
        for match in pattern.finditer(clause):
            if any(q.start < match.end() and match.start() < q.end for q in found):
                continue  # 'April 2026' inside '26 April 2026': the day's date already read
            parts = match.groupdict()
            try:
                month = (_MONTH_NAMES.index(parts["mon"][:3].lower()) + 1 if parts.get("mon")
                         else int(parts["m"]))
                year = parts.get("y")
                if today is None:
                    found.append(Quantity(0.0, "", match.start(), match.end(), role="past"))
                    continue
                if year:
                    when = date(int(year) + (2000 if len(year) == 2 else 0), month,
                                int(parts.get("d") or 1))
                else:  # the nearer occurrence: '10 Mar' in May is past, '22 May' is ahead
                    when = date(today.year, month, int(parts["d"]))
                    if when < today and (today - when).days > 183:
                        when = when.replace(year=today.year + 1)
            except (ValueError, IndexError):
                continue
            if when > today:
                found.append(Quantity(float((when - today).days), "d", match.start(),
                                      match.end(), role="date"))
            elif when < today:  # today's own date dates nothing: 'Today (2026-06-03): ...'
                found.append(Quantity(0.0, "", match.start(), match.end(), role="past"))
    return found


_IN_MONTH = re.compile(rf"\b(?:in|since|from|last|during|early|mid|late)\s+(?P<mon>{_MONTH})"
                       r"(?!\s*\d)", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b(?P<mon>{_MONTH})\s+(?P<y>(?:19|20)\d\d)\b", re.IGNORECASE)
_SINCE_MONTH_DAY = re.compile(r"\b(?:since|on|from|until|dated|as of)\s+(?P<m>1[0-2]|0?[1-9])/"
                              r"(?P<d>3[01]|[12]\d|0?[1-9])\b(?!/)", re.IGNORECASE)
_CITED_YEAR = re.compile(r"\b(?:Fleischner|USPSTF|ACG|AGA|AASLD|KDIGO|ADA|ACC|AHA|ESC|IDSA|"
                         r"ASH|CHEST|"
                         r"ATS|NCCN|NICE|EAACI|GINA|GOLD|ESH|ACR|ACOG|AACE|Endocrine Society|"
                         r"SVS|ESVS|ATA|ETA|ACP|ACS|AAFP|AAN|APA|ASAM|SAMHSA|CDC|WHO|FDA|BSH|"
                         r"BTS|ERS|EASL|ESMO|ASCO|AUA|EAU|AAP|NAMS|ISTH|KDOQI|ASGE|BSG|NLA|"
                         r"[A-Z]{2,}(?:/[A-Z]{2,})+)[ ,]+(?:19|20)\d\d\b|"
                         r"\b(?:19|20)\d\d\s+(?:[A-Z]{2,}[\w/-]*\s+)?"
                         r"(?:guidelines?|criteria|recommendations?|update|statement|consensus|"
                         r"practice parameter)\b")
# A reference cited in square brackets, its year last ('[NICE NG97 2018]', '[Fortea et al.,
# Lancet Neurol 2021]'), or an 'et al.' citation in parentheses: the source's year, no event.
_CITATION = re.compile(r"\[(?=[^\[\]]*[A-Za-z]{2})[^\[\]]*?\b(?:19|20)\d\d[a-z]?\]"
                       r"|\([^()]*\bet al\b[^()]*\)")
_NUMERIC_MONTH_YEAR = re.compile(r"(?<![\d/])(?P<m>1[0-2]|0?[1-9])/(?P<y>(?:19|20)\d\d)\b")
_YEAR = re.compile(r"(?<![\d/.-])(?:19|20)\d\d(?![\d/.-])(?!\s*(?:mg|mcg|iu|units?|ml|k\b))",
                   re.IGNORECASE)  # not '2000 IU


# The date a time is counted from: 'CT at 18-24 months from 13 May 2026 (the index scan)'.
_ANCHOR_DATE = re.compile(r"\b(?:days?|d|weeks?|wks?|wk|months?|mos?|mo|years?|yrs?)\s+"
                          r"(?:from|after)\s+"
                          r"(?:[^.;,()]{0,25}?\b(?:19|20)\d\d\b|\d{1,2}/\d{1,2}\b(?!/))",
                          re.IGNORECASE)  # '8-12 wk from 2/26': a time counted from a date


@functools.lru_cache(maxsize=4096)
def dates_past(clause: str, today: date | None) -> bool:
    """Whether the clause dates what it says before today ('since 10 Mar 2026', 'in 2024',
    'December 2025'): it reports, it does not plan. Without today, years before 2026 count."""
    clause = _CITED_YEAR.sub(" ", _CITATION.sub(" ", clause))  # 'Fleischner 2017', '2018
    # AHA/ACC guideline', '[NICE NG97 2018]'
    clause = _ANCHOR_DATE.sub(" ", clause)  # '18-24 months from 13 May 2026' looks ahead
    if today is None:
        return any(int(m.group(0)) < 2026 for m in _YEAR.finditer(clause))
    if any(q.role == "past" for q in _calendar_dates(clause, today)):
        return True
    for match in _IN_MONTH.finditer(clause):  # 'started in December': the last December
        month = _MONTH_NAMES.index(match.group("mon")[:3].lower()) + 1
        if (month - today.month) % 12 > 6:  # its nearer occurrence is behind us
            return True
    for match in _SINCE_MONTH_DAY.finditer(clause):  # 'held since 2/25'
        try:
            when = date(today.year, int(match.group("m")), int(match.group("d")))
        except ValueError:
            continue
        if when < today and (today - when).days <= 183 or when > today and (
                when - today).days > 183:
            return True
    for match in _NUMERIC_MONTH_YEAR.finditer(clause):  # 'since 7/2025'
        if (int(match.group("y")), int(match.group("m"))) < (today.year, today.month):
            return True
    for match in _MONTH_YEAR.finditer(clause):
        month = _MONTH_NAMES.index(match.group("mon")[:3].lower()) + 1
        if (int(match.group("y")), month) < (today.year, today.month):
            return True
    return any(int(m.group(0)) < today.year for m in _YEAR.finditer(clause))


# A code, not a value: 'LOINC 3016-3', 'CPT 80053', 'RxNorm 617314', 'ICD-10 E03.9'.
_CODE = re.compile(r"\b(?:LOINC|CPT|RxNorm|RXCUI|SNOMED(?:\s*CT)?|ICD-?10(?:-CM)?|HCPCS|NDC|MRN"
                   r"|medical record(?:\s+(?:number|no\.?|#))?|DOB|date of birth)"
                   r"(?:\s+code)?[\s:#]*[A-Z]?\d[\w.-]*", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def quantities(clause: str, today: date | None = None) -> tuple[Quantity, ...]:
    """Every number of a (normalized) clause with its unit, range, comparator and role; with
    ``today``, future calendar dates also count as times from today."""
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = [(m.start(), m.end()) for m in _DATE.finditer(clause)]
    taken.extend((m.start(), m.end()) for m in _CODE.finditer(clause))  # 'LOINC 3016-3'
    enumerator = _ENUMERATOR.match(clause)  # '(2) from day 2, 16 mg daily'
    if enumerator:
        taken.append((enumerator.start(), enumerator.end()))
    dated: list[tuple[int, int]] = []  # a date two patterns read ('2026-06-17') counts once
    for quantity in _calendar_dates(clause, today):
        if quantity.role == "date" and not any(a <= quantity.start < b for a, b in dated):
            found.append(quantity)
        dated.append((quantity.start, quantity.end))
    taken.extend(dated)
    for match in _DIMENSIONS_OF.finditer(clause):  # '4.6 x 4.4 cm': a size, its largest axis
        if any(a <= match.start() < b for a, b in taken):
            continue
        axes = [_number(n) for n in match.group("a", "b", "c") if n]
        found.append(Quantity(max(axes), unit_normalize(match.group("u")), match.start(),
                              match.end(), role="dimensions"))
        taken.append((match.start(), match.end()))
    for match in _TABLETS.finditer(clause):  # 'two 333 mg tablets' is a 666 mg dose
        count, strength, unit = (next(g for g in match.group(*names) if g)
                                 for names in _TABLET_GROUPS)
        number = (float(_WORD_NUMBERS.index(count.lower()) + 1) if count.isalpha()
                  else _number(count))
        strength, unit = _number(strength), unit_normalize(unit)
        found.append(Quantity(number * strength, unit, match.start(), match.end()))
        taken.append((match.start(), match.end()))
    for match in _STRENGTH.finditer(clause):
        if any(a <= match.start() < b for a, b in taken):
            continue
        found.append(Quantity(_number(match.group("a")), "mg", match.start(), match.end(),
                              secondary=_number(match.group("b"))))
        taken.append((match.start(), match.end()))
    for match in _RATIO.finditer(clause):
        if any(a <= match.start() < b for a, b in taken):
            continue
        unit, end = _unit_after(clause, match.end())
        found.append(Quantity(_number(match.group("a")), unit, match.start(), end,
                              secondary=_number(match.group("b"))))
        taken.append((match.start(), end))
    for match in _REPEAT_DAY.finditer(clause):  # 'repeat 15 mg on day 7': a time from now
        high = _number(match.group("high")) if match.group("high") else None
        found.append(Quantity(_number(match.group("day")), "d", match.start("at"), match.end(),
                              high=high))
        taken.append((match.start("at"), match.end()))
    for match in _VALUE.finditer(clause):
        if any(a <= match.start("num") < b for a, b in taken) or _ORDINAL.match(
                clause, match.end("num")) or _CLOCK_TIME.match(clause, match.end("num")):
            continue  # 'the 11 PM dose': a time of day, no value
        unit, end = _unit_after(clause, match.end())
        name = _NAME_NUMBER.search(clause, 0, match.start("num"))
        if name and not (unit and (name.group(0).lower().startswith("level") or "/" in unit)):
            continue  # 'level 3 evidence' names; 'digoxin level 2.9 ng/mL', 'creatinine last
            # week 1.21 mg/dL' measure
        value = _number(match.group("num")) * (1000 if match.group("k") else 1)
        if match.group("sign"):
            value = -value
        comparator = (match.group("cmp") or "").strip().replace("=<", "<=").replace("=>", ">=")
        daily = bool(_PER_DAY.match(clause, end) or _PER_DAY_UNIT.search(clause, match.end(), end))
        found.append(Quantity(value, unit, match.start(), end, comparator, daily=daily))
        if unit:
            taken.append((match.end("num"), end))  # not the '24' of '72 mg/24 h'
    for match in _WORD_VALUE.finditer(clause):
        unit, end = _unit_after(clause, match.end())
        word = match.group(1).lower()
        if unit == "s" and word in ("a", "an", "one"):
            continue  # 'a second CT' counts, it is no time
        if unit and unit in _DIMENSIONS or unit in ("dose", "tablet", "capsule"):
            number = 1.0 if word in ("a", "an", "single") else float(
                _WORD_NUMBERS.index(word) + 1)
            found.append(Quantity(number, unit, match.start(), end))
    for match in _RELATIVE_DAY.finditer(clause):  # 'recheck tomorrow', 'repeat CMP next week'
        value, unit = _RELATIVE_DAYS[match.group(1).lower()]
        found.append(Quantity(value, unit, match.start(), match.end()))
    for match in _THE_DAY_AFTER.finditer(clause):  # 'resume it the day after the last dose':
        unit = {"day": "d", "week": "wk", "month": "mo"}[match.group(1).lower()]  # one day
        found.append(Quantity(1.0, unit, match.start(), match.end()))  # after that event
    found.sort(key=lambda q: q.start)
    return tuple(_then_trend(clause, _roles(clause, _ranges(clause, found))))


# The day of a course a repeat is given on ('repeat 15 mg on day 7', 'second dose day 7-14'):
# days from the first dose, which is now.
_REPEAT_DAY = re.compile(r"\b(?:repeat\w*|re-?appl\w*|re-?dos\w*|again|second|2nd)\b"
                         r"[^.;:()]{0,30}?(?P<at>\b(?:on\s+)?day\s+(?P<day>[2-9]|1[0-9]|2[0-8])"
                         r"(?:\s*(?:-|to)\s*(?P<high>[2-9]|1[0-9]|2[0-8]))?)(?!\w|\.\d)",
                         re.IGNORECASE)
_RELATIVE_DAYS = {"tomorrow": (1.0, "d"), "next week": (1.0, "wk"), "next month": (1.0, "mo")}
_RELATIVE_DAY = re.compile(r"(?<!\w)(tomorrow|next week|next month)(?!\w)", re.IGNORECASE)
# 'the day after the last dose', 'the week following surgery': one day (week) after an event.
_THE_DAY_AFTER = re.compile(r"(?<![\w-])(?:the|on\s+the)\s+(day|week|month)"
                            r"(?=\s+(?:after|following)\b)", re.IGNORECASE)


def _number(text: str) -> float:
    return float(text.replace(",", "").replace(" ", ""))


# '1 L/day', 'restrict fluids to 1 L': litres, where a bare 'L' after a lab value is 'low'.
_LITRES_AFTER = re.compile(r"\s*(?:/|per\b|a day\b|daily\b|of\b|each\b|every\b)")
_VOLUME_CONTEXT = re.compile(r"\b(?:fluids?|water|drinks?|drinking|intake|restrict\w*|saline|"
                             r"output|volume|beverages?)\b", re.IGNORECASE)


def _unit_after(clause: str, position: int) -> tuple[str, int]:
    match = _UNIT.match(clause, position)
    if not match:
        return "", position
    if match.group("unit") == "L" and (_LITRES_AFTER.match(clause, match.end())
                                       or _VOLUME_CONTEXT.search(clause, max(0, position - 50),
                                                                 position)):
        return "l", match.end()
    if match.group("unit") == "H" and _PER_PERIOD_BEFORE.search(clause, 0, position):
        return "h", match.end()  # 'IN ANY 24 H'
    if match.group("unit") in ("H", "L", "HH", "LL", "A"):
        return "", match.end()  # a lab flag ('8.9 H'), not hours or litres
    unit = unit_normalize(match.group("unit"))
    if not _looks_like_unit(unit) or (match.group("more") and unit not in _DIMENSIONS):
        return "", position
    if unit == "iu" and _BLOOD_PRODUCT.match(clause, match.end()):
        return "", position  # 'two units of blood': a transfusion, not a dose
    return unit, match.end()


_BLOOD_PRODUCT = re.compile(r"\s*(?:of\s+)?(?:packed\s+)?(?:blood|prbcs?|rbcs?|red\s+(?:blood\s+)?"
                            r"cells|ffp|fresh\s+frozen|plasma|platelets|cryo)\b", re.IGNORECASE)


_PER_PERIOD_BEFORE = re.compile(r"\b(?:per|in|any|every|over|within|each|first|q)\s+\d+\s*$",
                                re.IGNORECASE)
# '4 weeks after completing therapy': a time counted from another event, not from now.
_AFTER_EVENT = re.compile(r"^\s*(?:or more\s+|or longer\s+|at least\s+)?(?!(?:after|following)\s+"
                          r"(?:the |this |that )?(?:change|dose change|increase|dose increase|"
                          r"up-?dos\w*|start\w*|begin\w*|initiat\w*|switch\w*|today|now|"
                          r"this visit|the new dose|"
                          r"(?:he|she|they|the patient) (?:starts?|begins?)|"
                          r"(?:the )?(?:statin|drug|medication|new dose|treatment|therapy) "
                          r"(?:is )?(?:started|begun|initiated))\b)"
                          r"(?:after|post|following|between|"  # '2 weeks between the last
                          # rifampin dose and tacrolimus': a gap, not the course
                          r"from (?:the )?(?:end|completion|last dose|finishing|stopping)|"
                          r"off (?:therapy|treatment|antibiotics|the)|beyond)\b", re.IGNORECASE)
_APPROXIMATE = re.compile(r"\b(?:about|approximately|approx|around|roughly|nearly|~)\s*$",
                          re.IGNORECASE)
# 'Goal TSH 0.4-4.2', 'TSH (ref 0.4-4.2)': a goal or normal range written near the number.
# Not 'above goal: A1c 8.4%' (a state, then a label and its value).
_REFERENCE_CONTEXT = re.compile(r"(?<!above )(?<!below )(?<!\bat )(?<!over )(?<!above the )"
                                r"\b(?:goal|target|ref|reference|normal range|nl range|uln|lln)"
                                r"\b[^.;(),:]*$"
                                # 'range 10-21 mg/kg/day', 'dose range: 2-4 g': the span a
                                # rule allows, named right before it
                                r"|\brange(?:\s+(?:is|of))?\s*:?\s*$", re.IGNORECASE)
# 'below the 1.8 ug/dL cut-off', 'the 10 HU threshold': a threshold named after its value, also
# after the value in another unit ('the 1.8 ug/dL (50 nmol/L) cut-off').
_CUTOFF_AFTER = re.compile(r"\s*(?:\((?:about\s+)?[\d.]+\s*[^\s\d().;,]{1,12}\)\s*)?"
                           r"(?:cut-?offs?|thresholds?|decision limit)\b", re.IGNORECASE)
# 'well over the 6 needed', '(6 required for definite RA)': a bare count a rule asks for, a
# threshold, not the patient's value.
_NEEDED_AFTER = re.compile(r"\s*(?:points?\s+)?(?:needed|required|necessary)\b", re.IGNORECASE)
# '18 mmol/L per 48 h' beside '8 mmol/L per 24 h': a rate over another period.
_OTHER_PERIOD = re.compile(r"^\s*(?:mmol/l|meq/l|mmol|meq)?\s*(?:/|per|in|over|within|by)\s*"
                           r"(?:48|72|2 days|3 days|two days)\b", re.IGNORECASE)
# A course total written after the doses: '(1,500 mg total)', 'x2 doses, 3-8 d apart (1020 mg)'.
_TOTAL_AFTER = re.compile(r"\s*(?:mg|g|mcg)?\s*(?:in\s+)?(?:total|cumulative|course|overall)\b",
                          re.IGNORECASE)
# A course's total after its doses: 'x2 doses (1020 mg)', 'two doses 7 days apart = 1500 mg'.
_COURSE_ASIDE = re.compile(r"(?:\bx\s?\d+|\b(?:\d+|two|three|four|five)\s*(?:doses|infusions)|"
                           r"\btwice|\bapart)\b[^()=]*(?:\(|=)\s*$",
                           re.IGNORECASE)
# 'course 1,500 mg', 'course dose: 1 g': the amount of the whole course, not one dose.
_COURSE_BEFORE = re.compile(r"\bcourse(?:\s+dose)?\s*[:=]?\s*(?:of\s+)?(?:about\s+|~\s*)?$",
                            re.IGNORECASE)
# '3 more months', 'another 5 weeks': time added to what has already passed.
_MORE_WITHIN = re.compile(r"\b(?:more|additional|further|extra)\b", re.IGNORECASE)
_MORE_BEFORE = re.compile(r"\b(?:another|additional|further|more|extra|remaining)\s*$",
                          re.IGNORECASE)
_FROM_BEFORE = re.compile(r"\bfrom\s*$", re.IGNORECASE)
_RANGE_JOIN = re.compile(r"^\s*(?:-|to|or|and|/)\s*$", re.IGNORECASE)
_BETWEEN_BEFORE = re.compile(r"\bbetween\s*$", re.IGNORECASE)


def _ranges(clause: str, found: list[Quantity]) -> list[Quantity]:
    """Join '6-8 weeks', '6 to 8 weeks' and '1,000-1,200 mg' into ranges."""
    out: list[Quantity] = []
    i = 0
    while i < len(found):
        first = found[i]
        if i + 1 < len(found):
            second = found[i + 1]
            between = clause[first.end:second.start]
            tight = re.fullmatch(r"-|\s*to\s*|-\s*<=?\s*|\s*to\s+(?:under|below|less than)\s*",
                                 between) is not None  # 'fifty to under seventy-five'
            joins = (_RANGE_JOIN.match(between) or tight) and (not second.comparator or tight and (
                second.comparator in ("<", "<="))) and not (  # 'grade 2 (plt 50-<75K)'
                between.strip().lower() == "to" and _FROM_BEFORE.search(clause[:first.start]))
            same_unit = not first.unit or first.unit == second.unit
            tight = tight or between.strip().lower() == "and" and bool(
                _BETWEEN_BEFORE.search(clause, 0, first.start))  # 'between 50 and 75'
            if (joins and same_unit and (second.unit or tight)
                    and second.value >= first.value >= 0):
                out.append(Quantity(first.value, second.unit, first.start, second.end,
                                    first.comparator, second.value, daily=second.daily))
                i += 2
                continue
        out.append(first)
        i += 1
    return out


_BACK_TO_PREVIOUS = re.compile(r"\bto\s+(?:her|his|their|the)?\s*(?:previous|prior|former|original|"
                               r"usual|old)\s*(?:dose\s+(?:of\s+)?)?$", re.IGNORECASE)
_ON_WAKING = re.compile(r"\bon\s+(?:waking|rising|awakening|wakening|getting\s+up)\b",
                        re.IGNORECASE)
_DOSE_UNITS = frozenset({"mg", "mcg", "g", "iu", "u", "units", "ml"})
_CURRENT_RESULT = re.compile(r"\bcurrent\s+(?!on\b|dose\b|taking\b|at\b)[A-Za-z][\w-]*\s*"
                             r"(?:[A-Za-z][\w-]*\s*)?(?:is|of|=|:)?\s*$", re.IGNORECASE)
_STARTED_ON = re.compile(r"\b(?:start|started|starting|begin|began|put|putting|initiate|initiated|"
                         r"restart|restarted|resume|resumed)\s+(?:him|her|them|the patient|"
                         r"patient|pt)?\s*on\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
_ROLE_BEFORE = (
    ("from", re.compile(r"(?:\bfrom|\bcurrent(?:ly)?(?:\s+(?:on|dose|taking|at))?|\bon|\binstead of"
                        r"|\bwas|\bprevious(?:ly)?(?:\s+on)?|\bprior|\bbaseline|\bup from"

                        r"|\bdown from|\bold|\bexisting)\b\s*(?:dose\s+(?:of\s+)?)?"
                        r"(?:[a-z]+\s+){0,2}$", re.IGNORECASE)),
    # The dose being replaced, right before its number: 'to replace the 20 mg tablet', 'd/c 20'.
    ("from", re.compile(r"(?:\breplac(?:e|es|ed|ing)(?:\s+the)?|\bin place of(?:\s+the)?"
                        r"|\bd/?c(?:'?d)?|\bdiscontinu(?:e|ed|ing)(?:\s+the)?)\s*$",
                        re.IGNORECASE)),
    ("limit", re.compile(r"(?:(?<!\bSUV )(?<!\bsuv )\bmax(?:imum)?|\bup to|\bno more than"  # not
                         r"|\bnot (?:to )?exceed"  # 'SUV max of 6.2', a measure's name
                         r"|\bat most|\bceiling|\bcap(?:ped)? at|\blimit(?:ed)? to"
                         r"|(?<!cycle )\bthreshold"  # not 'cycle threshold 21', a Ct value
                         r"|\bcut-?off|\bbelow|\babove|\bunder|\bover|\bexceeds?|\bless than"
                         r"|\bgreater than|\bmore than|\bat least|\bminimum"
                         r"|\bdown to an?\s+(?:[\w-]+\s+){1,3}of"
                         r"|\b(?:back|returns?)\s+(?:down\s+|up\s+)?to(?:\s+(?:about|around|~))?"
                         r")\s*(?:of\s+)?$",  # 'until Cr back to ~1.0': a goal, not a result
                         re.IGNORECASE)),
    ("reference", re.compile(r"(?:\bref(?:erence)?(?:\s+range)?|\bnormal(?:\s+range)?|\brange"
                             r"|\bgoal|\btarget|\buln|\bnl|\bnormal\s*<|\bgoal\s*<)\s*:?\s*$",
                             re.IGNORECASE)),
    ("total", re.compile(r"(?:\btotal(?:\s+of)?|\bcumulative|\bin total|\bcourse total|\bsum)"
                         r"\s*:?\s*(?:dose\s+)?(?:of\s+)?(?:about\s+|~\s*)?$", re.IGNORECASE)),
    ("delta", re.compile(r"(?:\b(?:by|another|additional|further)\s+(?:another\s+|a further\s+)?"
                         r"|(?:^|[\s(])\+\s?|\bplus\s)$", re.IGNORECASE)),
    ("duration", re.compile(r"(?:\bx|\bfor|\bover|\bcourse of|\bduration|\bx\s*)\s*$",
                            re.IGNORECASE)),
)


_DELTA_AFTER = re.compile(r"[\s-]*(?:dose\s+)?(?:(step|steps|increment|increments|jump|bump|"
                          r"difference|discrepancy|shortfall|gap)|"
                          r"increase|decrease|reduction|change|rise|drop|up-?titration)\b",
                          re.IGNORECASE)


# A dose changed back to an earlier one: 'increase buprenorphine back to 16 mg daily'.
_DOSE_CHANGED_BACK = re.compile(r"\b(?:increas|rais|decreas|reduc|lower|titrat|go|goe|went|bring|"
                                r"brought|tak|put|return)\w*\s+(?:[\w-]+\s+){0,3}?back\s+"
                                r"(?:down\s+|up\s+)?to\s*$", re.IGNORECASE)


_FACTOR_BEFORE = re.compile(r"\d\s*(?:kg|kilograms?)\s*[x*\u00d7]\s*$", re.IGNORECASE)
_FACTOR_AFTER = re.compile(r"\s*(?:/\s*kg\s*)?(?:=|->)")


def _roles(clause: str, found: list[Quantity]) -> list[Quantity]:
    """Mark each quantity's role from the words just before it; in 'from 75 to 88 mcg' the
    old value takes the unit of the new one."""
    out = []
    arrows = 0
    for index, quantity in enumerate(found):
        if quantity.role in ("date", "dimensions"):
            out.append(quantity)
            continue
        if _FACTOR_BEFORE.search(clause, 0, quantity.start) and _FACTOR_AFTER.match(
                clause, quantity.end):  # '68 kg x 0.2 mg = 13.6 mg': the per-kg factor
            out.append(replace(quantity, role="factor"))
            continue
        if index and re.match(r"^\s*(?:\([^)]*\))?\s*(?:->|=>)\s*$",
                              clause[found[index - 1].end:quantity.start]):
            arrows += 1
            if arrows > 1:
                # '150 -> 112.5 -> 75 -> 37.5 mg': the first arrow is the change, the rest
                # are the taper's later steps
                out.append(Quantity(quantity.value, quantity.unit, quantity.start,
                                    quantity.end, quantity.comparator, quantity.high, "later",
                                    quantity.secondary))
                continue
        arrow = index + 1 < len(found) and (re.match(  # '10 mg qd -> 5 mg qd': its schedule too
            r"^\s*(?:\([^)]*\))?\s*(?:(?:qd|od|bd|bid|tid|daily|mane|nocte|qhs|qam|po)\s+)?"
            r"(?:->|=>|>)\s*$", clause[quantity.end:found[index + 1].start], re.IGNORECASE)
            or re.match(r"^\s*,?\s*(?:and\s+)?then\s*$",
                        clause[quantity.end:found[index + 1].start], re.IGNORECASE)
            and not quantity.unit)  # 'TSH 6.0 then 6.8': the older

        from_to = index + 1 < len(found) and (_FROM_BEFORE.search(clause[:quantity.start]) or (
            quantity.unit and quantity.unit == found[index + 1].unit  # '20 mg to 10 mg': no
            and quantity.value > found[index + 1].value)) and re.match(  # range runs downward
            r"^\s*to\s*$", clause[quantity.end:found[index + 1].start], re.IGNORECASE)
        if arrow and quantity.unit and found[index + 1].unit and convert(
                1.0, quantity.unit, found[index + 1].unit) is None:
            arrow = None  # '200 mg/10 mg -> 1 tablet daily': the product, then how it is taken
        if arrow or from_to:
            out.append(Quantity(quantity.value, quantity.unit or found[index + 1].unit,
                                quantity.start, quantity.end, "", None, "from",
                                quantity.secondary))
            continue
        before = clause[max(0, quantity.start - 40):quantity.start]
        role = ""
        for name, pattern in _ROLE_BEFORE:
            if pattern.search(before):
                role = name
                break
        if role == "from" and not quantity.unit and not re.search(
                r"\b(?:from|replac\w*(?:\s+the)?|in place of(?:\s+the)?|d/?c(?:'?d)?|discontinu\w*"
                r"(?:\s+the)?|on\s+[a-z]+)\s*$", before,
                re.IGNORECASE):
            role = ""
        if not quantity.unit and re.match(r"\s+of\s+\d", clause[quantity.end:]) and not (
                _OUT_OF_MAXIMUM.match(clause, quantity.end)) or re.search(
                    r"(?:^|[\s(])\d+\s+of\s+$", before) and quantity.unit not in _DIMENSIONS:
            role = "count"  # 'typical organism in 3 of 3 sets': a tally, not a measure; but
            # 'she scores 10 of 10 (joints 5, ...)' is a score out of its maximum (and the
            # maximum of '9 of 10 points' no score)
        elif role == "limit" and (re.search(r"\bback\s+up\s+to\s*$", before, re.IGNORECASE)
                                  or _DOSE_CHANGED_BACK.search(before)):
            role = ""  # 'put it back up to 0.1 mg', 'increase it back to 16 mg': the new dose
        if role == "from" and _BACK_TO_PREVIOUS.search(before):
            role = ""  # 'return it to her previous 0.1 mg': the old dose is the new one
        if role == "from" and _ON_WAKING.search(before):
            role = ""  # '15 mg on waking and 5 mg at 2 PM': a time of day, not 'on 5 mg'
        if role == "from" and _STARTED_ON.search(before):
            role = ""  # 'start him on apixaban 5 mg': the new dose, not the current one
        if role == "from" and quantity.unit not in _DOSE_UNITS and _CURRENT_RESULT.search(before):
            role = ""  # 'current LDL 132 mg/dL' is today's result, no dose being replaced
        if role == "from" and quantity.unit not in _DOSE_UNITS and re.search(
                r"\bwas\s*$", before, re.IGNORECASE):
            role = ""  # 'his platelet count at your visit was 61 x10^3/uL': a result
        if role == "from" and quantity.unit in ("d", "wk", "mo", "y", "h") and re.search(
                r"\b(?:was|were)\s+(?:scheduled|booked|arranged|set|planned|made)\b", before):
            role = ""  # 'return visit was scheduled for 4 weeks from today': when, not a dose
        if role == "duration" and quantity.unit not in ("d", "wk", "mo", "y", "h", "dose"):
            role = ""
        after = clause[quantity.end:quantity.end + 40]
        if quantity.unit in ("d", "wk", "mo", "y", "h") and _AFTER_EVENT.match(after) and not (
                quantity.unit == "wk" and re.search(r"\bat\s*$", before)):
            role = "after"  # not 'delivery at 35 weeks after steroids': a gestational age
        elif quantity.unit in ("d", "wk", "mo", "y") and (
                _MORE_WITHIN.search(clause[quantity.start:quantity.end])
                or _MORE_BEFORE.search(before)):
            role = "additional"
        if _OTHER_PERIOD.match(after):
            role = "other_period"
        delta = quantity.unit and _DELTA_AFTER.match(after)
        if not role and delta and (delta.group(1) or re.search(r"(?:\ban?\s|\()$", before)):
            role = "delta"  # '(12.5 mcg step)', 'a 25-mcg increase', not '264 mOsm/kg ↓'

        if not role and (_TOTAL_AFTER.match(after) or _COURSE_ASIDE.search(before) or (
                quantity.unit in ("mg", "g", "mcg") and _COURSE_BEFORE.search(before))):
            role = "total"  # '(1,500 mg total)', 'x2 doses (1020 mg)'
        if not role and _APPROXIMATE.search(before):
            role = "approximate"
        if not role and (_REFERENCE_CONTEXT.search(clause[max(0, quantity.start - 30):
                                                           quantity.start])
                         or _CUTOFF_AFTER.match(after)
                         or not quantity.unit and _NEEDED_AFTER.match(after)):
            role = "reference"  # 'below the 1.8 ug/dL cut-off'
        if quantity.comparator and not role or not role and _OR_BEYOND.match(after):
            role = "limit"  # '< 30', 'at CrCl 30 or less'
        if not role and out and out[-1].role in ("reference", "limit") and out[-1].unit and (
                quantity.unit and quantity.unit != out[-1].unit) and re.fullmatch(
                    r"(?:\s*/\s*(?:day|d|24\s*h|wk|week))?\s*\((?:about\s+)?",
                    clause[out[-1].end:quantity.start], re.IGNORECASE):
            role = out[-1].role  # 'the 1.8 ug/dL (50 nmol/L) cut-off': the same cut-off
        out.append(Quantity(quantity.value, quantity.unit, quantity.start, quantity.end,
                            quantity.comparator, quantity.high, role, quantity.secondary,
                            quantity.daily))
    return out


# 'scores 10 of 10 (joints 5, ...)', 'score: 7 of 10.': a score out of its maximum, the first
# number its value; not '3 of 3 sets' or '2 of 4 joints', a tally of the things named after it.
_OUT_OF_MAXIMUM = re.compile(r"\s+of\s+\d+(?:\.\d+)?(?=\s*(?:$|[.,;:()\[\]]|[-\u2013\u2014]\s|"
                             r"\s(?:on|in|by|for|with|and|so|which|meets?|meeting|points?|pts?)\b))",
                             re.IGNORECASE)


# A spoken trend: 'was 238 a year ago, then 67 on February 17 and 58 on March 6'.
_THEN_STEP = re.compile(r"[^.;:]{0,40}?\bthen\s+(?:(?:down|up|fell|dropped|rose|falling|rising|"
                        r"dipped|climbed)\s+)?(?:to\s+)?(?:about\s+|~\s*)?", re.IGNORECASE)
_AND_STEP = re.compile(r"[^.;:]{0,30}?(?:,|\band\b|\bthen\b)\s*(?:then\s+)?(?:now\s+)?"
                       r"(?:(?:down|up)\s+)?(?:to\s+)?(?:about\s+|~\s*)?", re.IGNORECASE)
_PAST_MARK = re.compile(rf"\bago\b|\b{_MONTH}\b|\d{{1,2}}/\d{{1,4}}|\b(?:19|20)\d\d\b|"
                        r"\blast\s+(?:year|month|week|spring|summer|fall|autumn|winter)\b",
                        re.IGNORECASE)


def _then_trend(clause: str, found: list[Quantity]) -> list[Quantity]:
    """A dated value followed by 'then' and newer values is a trend: the earlier values are
    where it came from, the last is the current one. Doses are left alone ('10 mg for a week,
    then 5 mg' is a taper)."""
    values = [q for q in found if q.role == "" and not q.comparator and q.high is None
              and q.unit not in _DOSE_UNITS and q.unit not in ("d", "wk", "mo", "y", "h")]
    for first, second in zip(values, values[1:], strict=False):
        gap = clause[first.end:second.start]
        if first.unit != second.unit and first.unit and second.unit or not (
                _THEN_STEP.fullmatch(gap) and _PAST_MARK.search(gap)):
            continue
        trend = [first, second]
        for later in values[values.index(second) + 1:]:
            if later.unit != first.unit and later.unit and first.unit or not _AND_STEP.fullmatch(
                    clause[trend[-1].end:later.start]):
                break
            trend.append(later)
        roles = {id(q): "from" for q in trend[:-1]} | {id(q): "later" for q in trend[1:]}
        roles[id(trend[0])] = "from"
        return [replace(q, role=roles[id(q)]) if id(q) in roles else q
                for q in found]
    return found


# '(2) from day 2, 16 mg daily', 'Plan: 1. Bone marrow biopsy. 2. Whole-body CT': a list number
_ENUMERATOR = re.compile(r"\s*(?:\(\d{1,2}\)|\d{1,2}[.)])\s(?=\s*[A-Za-z(])")
_OR_BEYOND = re.compile(r"\s*(?:or|and)\s+(?:less|lower|below|under|fewer|more|greater|higher|"
                        r"above|over)\b", re.IGNORECASE)


# Schedules: administrations per day, or 'single' for a one-time dose.
_SCHEDULES: tuple[tuple[re.Pattern[str], float | str], ...] = tuple(
    (re.compile(rf"(?:(?<!\w)|(?=/))(?:{pattern})(?!\w)", re.IGNORECASE), per_day)
    for pattern, per_day in (  # each alternative a whole word: not the 'tid' of 'antidepressant'
        (r"(?:single|one[- ]time|once only|one) dose|(?:x|once)\s?1\b(?![.,]\d)"
         r"(?!\s+(?:daily|a day|per day|bid|tid|qd|od|nightly|weekly))|one[- ]off|stat\b|"
         r"single[- ]dose|as a single|once(?!\s?/)(?! (?:daily|a day|weekly|wkly|a week|monthly|"
         r"a month|yearly|a year|per|every|each|nightly|in|at night|at bedtime))"
         r"(?!\s+(?:[\w&-]+\s+){0,3}?(?:is|are|has|have|was|were|becomes?|finish\w*|complet\w*|"
         r"he|she|they|it|we|you|the|her|his|their|\w+ing|stable|normal\w*|resolved|recovered|"
         r"settled|improved|better|back)\b)",
         "single"),  # not 'once serum calcium is confirmed', 'restart once eating': a time; not the
        # 'x 1.5' of arithmetic ('40 mg oxycodone x 1.5 = 60 MME'): a factor, not one dose
        (r"every hour|hourly|q\s?1\s?(?:h|hr|hour)\b|qh\b", 24.0),  # 'colchicine 0.6 mg hourly'
        (r"q\s?6\s?(?:h|hr|hrs|hours)|four times (?:a |per )?day|four times daily|qid|q\.i\.d\.?"
         r"|(?<![\d.])4\s?x\s?(?:(?:/|per|a)\s?day|daily)"
         r"|4 times (?:a |per )?day|4 times daily|qds|q\.d\.s\.?", 4.0),  # British 'qds'
        (r"q\s?8\s?(?:h|hr|hrs|hours)|three times (?:a |per )?day|three times daily|tid|t\.i\.d\.?"
         r"|(?<![\d.])3\s?x\s?(?:(?:/|per|a)\s?day|daily)"
         r"|3 times (?:a |per )?day|3 times daily|tds|t\.d\.s\.?|thrice (?:a |per )?day|"
         r"thrice daily", 3.0),
        (r"q\s?12\s?(?:h|hr|hrs|hours)|twice (?:a |per )?day|twice daily|bid|b\.i\.d\.?"
         r"|(?<![\d.])2\s?x\s?(?:(?:/|per|a)\s?day|daily)"
         r"|2 times (?:a |per )?day|2 times daily|every 12 hours|"
         r"(?<!for )(?<!with )(?<!of )bd(?!\s*:)|b\.d\.?", 2.0),  # not 'BD' (bipolar) named
        (r"every (?:six|6) months?|q\s?6\s?(?:mo|mos|months?|m)\b|twice (?:a|per) year|"
         r"twice yearly|semi-?annual(?:ly)?|6-monthly|six-monthly|every 26 weeks|"
         r"every 180 days|every 182 days", 1 / 182.6),
        (r"every (?:three|3) months?|q\s?3\s?(?:mo|mos|months?)\b|quarterly|every 12 weeks|"
         r"every 90 days", 1 / 91.3),
        (r"every (?:four|4) weeks?|q\s?4\s?(?:w|wk|wks|weeks?)\b|every 28 days", 1 / 28),
        (r"every (?:two|2) weeks?|q\s?2\s?(?:w|wk|wks|weeks?)\b|every other week|biweekly|"
         r"fortnightly|every 14 days", 1 / 14),
        (r"monthly|once (?:a|per|each) month|every month|q\s?(?:1\s?)?(?:mo|month)\b|"
         r"every 30 days|/\s?month|per month|a month", 1 / 30.4),
        (r"(?:three|3) times (?:a |per |each )?week|(?:three|3) times weekly|thrice weekly|tiw",
         3 / 7),
        (r"(?:twice|two times|2 times) (?:a |per |each )?week|(?:twice|two times|2 times) weekly"
         r"|biw", 2 / 7),
        (r"weekly|wkly|once (?:a|per|each) week|every week|q\s?(?:1\s?)?(?:w|wk|week)\b|qweekly|"
         r"every 7 days|once\s?/\s?(?:wk|week)|/\s?(?:wk|week)|per week|a week|each week", 1 / 7),
        (r"yearly|annually|annual|once (?:a|per) year|every year|every 12 months|q\s?12\s?mo|"
         r"q\s?year", 1 / 365),
        (r"every other day|q\s?(?:od|48h)|q\.o\.d\.?|alternate[- ]day|on alternate days|"
         r"every second day|alt(?:ernate)? days|alternate (?:mornings|evenings|nights)", 0.5),
        (r"(?:once )?daily|once (?:a|per|each) day|every day|qd|q\.d\.?|qam|q\.?a\.?m\.?|qpm|"
         r"qhs|q\.h\.s\.?|nightly|at bedtime|each (?:morning|evening|night)|every (?:morning|"
         r"evening|night)|q\s?24\s?h|1\s?x\s?(?:/|per|a)\s?day|/\s?day|per day|a day|"
         r"in the morning|at night|od\b|o\.d\.?|q\s?day|qdaily|mane|nocte|(?<!q)hs(?!-)|"
         r"once\s?/\s?(?:d|day)|"
         r"(?:every|each|q)\s?(?:a\.?m\.?|p\.?m\.?|morning|evening|night)(?!\w)", 1.0),
    ))


_EVERY_N = re.compile(r"(?<![\w])(?:every|q)\s?(\d+(?:\.\d+)?)\s?(?:-\s?\d+\s?)?"
                      r"(h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|mos|months?|y|yrs?|years?)\b",
                      re.IGNORECASE)
_UNIT_DAYS = {"h": 1 / 24, "d": 1.0, "w": 7.0, "m": 30.4, "y": 365.0}


_DIVIDED = re.compile(r"\b(?:in|as|into)\s+(\d|two|three|four)\s+divided\s+doses\b"
                      r"|\bdivided\s+(?:into\s+)?(\d|two|three|four)\s+doses\b", re.IGNORECASE)


_DAYS_A_WEEK = re.compile(
    r"\b([2-7]|two|three|four|five|six|seven)(?:\s*(?:-|to|–)\s*[2-7])?\s+(?:nights?|days?|"
    r"evenings?|mornings?)\s*(?:a|per|each|every|/|of the)\s*(?:wk|week)\b", re.IGNORECASE)


def schedule(text: str) -> tuple[float | str, int] | None:
    """(administrations per day or 'single', position) of the first schedule in ``text``."""
    divided = _DIVIDED.search(text)  # '300 mg a day in three divided doses': 3 a day
    if divided:
        count = divided.group(1) or divided.group(2)
        return (float(_WORD_NUMBERS.index(count.lower()) + 1) if count.isalpha()
                else float(count), divided.start())
    best: tuple[float | str, int] | None = None
    nights = _DAYS_A_WEEK.search(text)  # '5 nights a week', '5-7 nights/week': the fewest
    if nights:
        count = nights.group(1)
        number = float(_WORD_NUMBERS.index(count.lower()) + 1) if count.isalpha() else float(count)
        if 1 < number <= 7:
            best = (number / 7, nights.start())
    every = _EVERY_N.search(text)
    if every and (best is None or every.start() < best[1]):
        unit = every.group(2).lower()
        days = _UNIT_DAYS["m" if unit.startswith("mo") else unit[0]] * float(every.group(1))
        best = (1 / days if days else 0.0, every.start())
    for pattern, per_day in _SCHEDULES:
        match = pattern.search(text)
        if match and (best is None or match.start() < best[1]):
            best = (per_day, match.start())
    return best


_ROUTES = (
    ("sublingual", r"\bsl\b|sub-?lingual(?:ly)?|under the tongue|buccal(?:ly)?|dissolve"),
    ("oral", r"\bpo\b|\bp\.o\.|\borally\b|\boral\b|by mouth|\bswallow\w*|\bper os\b"),
    ("subcutaneous", r"\bsc\b|\bsq\b|\bsubq\b|\bs\.c\.|subcutaneous(?:ly)?"),
    ("intravenous", r"\biv\b|intravenous(?:ly)?|infusion"),
    ("intramuscular", r"\bim\b|intramuscular(?:ly)?|depot injection"),
    ("nasal", r"\bnasal(?:ly)?\b|intranasal(?:ly)?"),
    ("topical", r"\btopical(?:ly)?\b|\bcream\b|\bgel\b|\bointment\b"),
    ("transdermal", r"transdermal|\bpatch\b"),
    ("inhaled", r"\binhaled\b|\binhal(?:er|ation)\b|nebuli[sz]ed"),
)


def routes(clause: str) -> frozenset[str]:
    """The routes of administration a (normalized) clause states ('SL' -> sublingual)."""
    return frozenset(name for name, pattern in _ROUTES
                     if re.search(pattern, clause, re.IGNORECASE))


_TIMES_OF_DAY = (
    ("bedtime", r"\bq\.?\s?hs\b|\bq\.h\.s\.?|\bat (?:bed(?:time)?|hs)\b|"
                r"(?<!h )(?<!hr )(?<!hrs )(?<!hours )\bbefore (?:going to )?bed(?:time)?\b|"
                r"\bnightly\b"),
    ("after_meal", r"\bafter (?:breakfast|lunch|dinner|supper|meals?|eating|food)\b"),
)
# 'before meals, not at bedtime', 'instead of qhs', 'moved from bedtime': a time turned away;
# 'no food within 3 h before bed' is no dose time.
_NOT_THAT_TIME = re.compile(r"(?:\bnot|\bnever|\bno longer|instead of|rather than|\bfrom|"
                            r"\bnor)\s+(?:\w+\s+)?$", re.IGNORECASE)


def dose_times(text: str) -> frozenset[str]:
    """The times of day a dose is taken at ('1 cap at bedtime' -> bedtime), not those it is
    moved away from ('before dinner, not at bedtime')."""
    found = set()
    for name, pattern in _TIMES_OF_DAY:
        for match in re.finditer(pattern, text, re.IGNORECASE):
            if not _NOT_THAT_TIME.search(text, max(0, match.start() - 25), match.start()):
                found.add(name)
    return frozenset(found)

