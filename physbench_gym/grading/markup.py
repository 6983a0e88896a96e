"""From a note as written (Markdown, unicode, tables) to plain lines with their section.

Physicians and language models write the same plan in many shapes: headings or inline labels,
bullets, bold values, tables of labs or of drugs, unicode minus signs and arrows. This module
removes the shape and keeps the content: every line of the result is one unit of meaning (a
paragraph, a list item or a table row) tagged with the section it belongs to. A table row is
rendered as one line that keeps each cell next to its column header ('TSH: result 8.9 mIU/L,
date 2026-01-05'), so labels and values share a line as they share a row.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from physbench_gym.grading.lexicon import section_of

_UNICODE = {
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2043": "-",
    "\u2192": " -> ", "\u27f6": " -> ", "\u21d2": " -> ", "\u2794": " -> ", "\u279d": " -> ",
    "\u2191": " increase ", "\u2193": " decrease ",
    "\u2265": ">=", "\u2264": "<=", "\u2260": "!=", "\u00d7": "x", "\u00b1": "+/-",
    "\u00b5": "u", "\u03bc": "u", "\u2022": "-", "\u25cf": "-", "\u25aa": "-", "\u2023": "-",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...",
    "\u2044": "/", "\u00b0": " degrees ", "\u2248": "about ", "~": "about ",
}
_DASH_BETWEEN_NUMBERS = re.compile(r"(?<=\d)\s*[\u2013\u2014]\s*(?=\d)")
_SPACED_DASH = re.compile(r"[ \t]*[\u2013\u2014][ \t]*|[ \t]+--?[ \t]+")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`+)(?=\S)(.+?)(?<=\S)\1")
_STRAY_EMPHASIS = re.compile(r"\*\*|__|`")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_HTML_BREAK = re.compile(r"<\s*br\s*/?\s*>|</?\s*(?:p|div|li|tr)\s*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?\s*[a-zA-Z][^>]*>")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)]|[a-z][.)]|\[[ xX]\])\s+")
_RULE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z/&()' -]{0,40}?)\s*:\s*(.*)$")
_DATE = re.compile(r"\b(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?\b|\b\d{1,2}/\d{1,2}/(?:19|20)?\d\d\b")


@dataclass(frozen=True)
class Line:
    """One unit of meaning of the note: its text (normalized) and where it sits."""

    text: str
    section: str
    kind: str
    """'paragraph', 'item' (list item), 'row' (table row) or 'heading'."""
    dated_row_is_latest: bool | None = None
    """For a table row that carries a date: whether it is the newest row of its table."""


_Q_INTERVAL = re.compile(
    r"\bq\s?(\d+(?:\.\d+)?)\s?(h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|mos|months?|m|y|yrs?|years?)\b",
    re.IGNORECASE)
_INTERVAL_WORDS = ((re.compile(r"\bquarterly\b", re.IGNORECASE), "every 3 months"),
                   (re.compile(r"\bsemi-?annual(?:ly)?\b", re.IGNORECASE), "every 6 months"),
                   (re.compile(r"\bannually\b", re.IGNORECASE), "every 12 months"))


def expand_intervals(text: str) -> str:
    """'q6mo' -> 'every 6 mo', 'quarterly' -> 'every 3 months': intervals as numbers."""
    text = _Q_INTERVAL.sub(lambda m: f"every {m.group(1)} "
                           f"{'mo' if m.group(2).lower() == 'm' else m.group(2)}", text)
    for pattern, plain in _INTERVAL_WORDS:
        text = pattern.sub(plain, text)
    return text


def normalize_characters(text: str) -> str:
    """Unicode and typography to plain ASCII-like text that keeps every clinical sign."""
    text = unicodedata.normalize("NFKC", text)
    text = _DASH_BETWEEN_NUMBERS.sub("-", text)
    text = _SPACED_DASH.sub(" - ", text)
    for char, plain in _UNICODE.items():
        text = text.replace(char, plain)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return expand_intervals(text.replace("\t", " ").replace("\r", ""))


def _inline(text: str) -> str:
    """Strip inline Markdown and HTML: emphasis, code marks, links, tags."""
    text = _LINK.sub(r"\1", text)
    text = _HTML_TAG.sub(" ", text)
    previous = None
    while previous != text:
        previous, text = text, _EMPHASIS.sub(r"\2", text)
    return re.sub(r"[ ]{2,}", " ", _STRAY_EMPHASIS.sub("", text)).strip()


@functools.lru_cache(maxsize=256)
def lines(note: str) -> tuple[Line, ...]:
    """The note as units of meaning, each with its section ('plan', 'history', ...)."""
    raw = _HTML_BREAK.sub("\n", normalize_characters(note)).split("\n")
    out: list[Line] = []
    section = "body"
    paragraph: list[str] = []
    table: list[list[str]] = []

    def flush_paragraph() -> None:
        if paragraph:
            out.append(Line(" ".join(paragraph), section, "paragraph"))
            paragraph.clear()

    def flush_table() -> None:
        if table:
            out.extend(_table_lines(table, section))
            table.clear()

    for raw_line in raw:
        stripped = raw_line.strip()
        if "|" in stripped and (stripped.startswith("|") or stripped.count("|") >= 2):
            flush_paragraph()
            if not _TABLE_SEPARATOR.match(stripped):
                table.append([_inline(c) for c in stripped.strip("|").split("|")])
            continue
        flush_table()
        if not stripped or _RULE.match(stripped):
            flush_paragraph()
            continue
        stripped = re.sub(r"^\s*>\s?", "", stripped)
        heading = _heading(stripped)
        if heading is not None:
            flush_paragraph()
            title, rest = heading
            section = section_of(title) or section
            out.append(Line(title, section, "heading"))
            if rest:
                out.append(Line(rest, section, "paragraph"))
            continue
        bullet = _BULLET.match(stripped)
        text = _inline(stripped[bullet.end():] if bullet else stripped)
        label = _LABEL.match(text)
        if label and section_of(label.group(1)):
            flush_paragraph()
            section = section_of(label.group(1)) or section
            text = label.group(2).strip()
            if not text:
                continue
        if bullet:
            flush_paragraph()
            out.append(Line(text, section, "item"))
        elif (out and out[-1].kind == "item" and not paragraph and not label
              and (raw_line[:1] == " " or not out[-1].text.rstrip().endswith((".", ":", "!",
                                                                              "?")))):
            out[-1] = Line(f"{out[-1].text} {text}", out[-1].section, "item")
        else:
            paragraph.append(text)
    flush_paragraph()
    flush_table()
    return tuple(line for line in out if line.text)


def _heading(line: str) -> tuple[str, str] | None:
    """(title, text after it) when the line is a heading: '# Plan', '**Plan**', 'PLAN:'."""
    match = _HEADING.match(line)
    if match:
        return _inline(match.group(1)).rstrip(":"), ""
    bold = re.match(r"^(\*\*|__)(.+?)\1\s*:?\s*(.*)$", line)
    if bold and section_of(bold.group(2).rstrip(": ")):
        return bold.group(2).rstrip(": "), _inline(bold.group(3))
    if line.endswith(":") and len(line) <= 60 and section_of(_inline(line[:-1])):
        return _inline(line[:-1]), ""
    return None


def _table_lines(rows: list[list[str]], section: str) -> list[Line]:
    """A table as lines: each row's first cell, then 'header value' for the other cells."""
    header = rows[0] if len(rows) > 1 else []
    body = rows[1:] if header else rows
    dates = [_row_date(row) for row in body]
    newest = max((d for d in dates if d), default=None)
    out = []
    if header and any(section_of(h) for h in header[:1]):
        section = section_of(header[0]) or section
    for row, date in zip(body, dates):
        cells = [c for c in row]
        first, rest = (cells[0], cells[1:]) if cells else ("", [])
        parts = []
        for i, cell in enumerate(rest, start=1):
            if not cell:
                continue
            name = header[i] if i < len(header) else ""
            parts.append(f"{name} {cell}".strip() if name and not _same(name, cell) else cell)
        text = f"{first}: {', '.join(parts)}" if first and parts else first or ", ".join(parts)
        latest = None if date is None else date == newest
        out.append(Line(text, section, "row", latest))
    return out


def _same(header: str, cell: str) -> bool:
    return header.strip().lower() == cell.strip().lower()


def _row_date(row: list[str]) -> str | None:
    """The row's date as sortable text (ISO-like), if a cell holds one."""
    for cell in row:
        match = _DATE.search(cell)
        if match:
            value = match.group(0)
            if "/" in value:
                month, day, year = value.split("/")
                year = year if len(year) == 4 else f"20{year}"
                return f"{year}-{int(month):02d}-{int(day):02d}"
            return value
    return None
