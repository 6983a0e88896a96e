"""From a note as written (Markdown, unicode, tables) to plain lines with their section.

Physicians and language models write the same plan in many shapes: headings or inline labels,
bullets, bold values, tables of labs or of drugs, unicode minus signs and arrows. This module
removes the shape and keeps the content: every line of the result is one unit of meaning (a
paragraph, a list item or a table row) tagged with the section it belongs to. A table row is
rendered as one line that keeps each cell next to its column header ('TSH: result 8.9 mIU/L,
date 2026-01-05'), so labels and values share a line as they share a row.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from dataclasses import dataclass

from text_to_num import alpha2digit

from physbench_gym.grading.lexicon import section_of, verb_table

_UNICODE = {
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2043": "-",
    "\u2192": " -> ", "\u27f6": " -> ", "\u21d2": " -> ", "\u2794": " -> ", "\u279d": " -> ",
    "\u27a1\ufe0f": " -> ", "\u27a1": " -> ", "\u279c": " -> ", "\u27a4": " -> ", "\u2b95": " -> ",
    "\ufe0f": "",

    "\u2265": ">=", "\u2264": "<=", "\u2260": " does not mean ", "\u00d7": "x", "\u00b1": "+/-",
    "\u00b5": "u", "\u03bc": "u", "\u2022": "-", "\u25cf": "-", "\u25aa": "-", "\u2023": "-",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...",
    "\u0394": "change in ", "\u2206": "change in ", "\u00b7": "; ",
    "\u2044": "/", "\u00b0": " degrees ", "\u2248": "about ", "~": "about ",
    "\u2717": " (excluded) ", "\u2718": " (excluded) ", "\u274c": " (excluded) ",
    "\u2713": " (chosen) ", "\u2714": " (chosen) ", "\u2705": " (chosen) ",
}
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3}) (\d{3})"
                               r"(?=(?:\s*-\s*[\d,]+)?\s*(?:mg|mcg|g|iu|units?|ml|mosm|"
                               r"mmol|/|cells|copies)\b)", re.IGNORECASE)
# '25,000/uL' is one number: its comma ends no condition ('If platelets fall below 25,000/uL,
# hold ...') and separates no list.
_COMMA_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_CONCENTRATION = re.compile(r"\[((?:Na|K|Cl|Ca|Mg|HCO3|H)\+*-*)\]")
_DASH_BETWEEN_NUMBERS = re.compile(r"(?<=\d)\s*[\u2013\u2014]\s*(?=\d)")
# 'CHA2DS2VASc=2', 'FIB4=1.9': a score glued to its value reads as two words.
_GLUED_EQUALS = re.compile(r"(?<=[A-Za-z])=(?=[\d<>~])")
# Negative contractions written out, so that 'isn't helpful' reads as 'is not helpful'.
_CONTRACTION = re.compile(r"\b(is|are|was|were|does|do|did|has|have|had|would|should|could|wo|"
                          r"ca)n[\'\u2019]t\b", re.IGNORECASE)


def _uncontracted(match: re.Match[str]) -> str:
    head = match.group(1)
    return {"wo": "will", "ca": "can"}.get(head.lower(), head) + " not"


# 'CrCl = approx. 41': an abbreviation's period that is no sentence end; a dictated 'slash'.
_APPROX_DOT = re.compile(r"\b(approx|est|ca|abt)\.(?=\s*[\d~(])", re.IGNORECASE)
_SPOKEN_SLASH = re.compile(r"(?<=\w) slash (?:(one|two)\b)?(?=\s*\w)", re.IGNORECASE)
_SPACED_DASH = re.compile(r"[ \t]*[\u2013\u2014][ \t]*|[ \t]+--?[ \t]+")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`+)(?=\S)(.+?)(?<=\S)\1")
_STRAY_EMPHASIS = re.compile(r"\*\*|__|`")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_HTML_BREAK = re.compile(r"<\s*br\s*/?\s*>|</?\s*(?:p|div|li|tr)\s*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?\s*[a-zA-Z][^>]*>")
# The capital letter of an outline's sub-heading: 'D. Do not' under 'III. Recommendations'
_OUTLINE_LETTER = re.compile(r"^[A-Z][.)]\s+(?=[A-Z])")
_PROHIBITION_TITLE = re.compile(r"(?:do not|don't|never|not to do)\s*:?", re.IGNORECASE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|->|=>|[•▪◦➤►☐☑☒]|\(?\d{1,2}[.)]|\(?[a-z][.)]|\[[ xX]\])\s+")
# '**2. Kidney function.** Creatinine ...': the number of a bold heading is no value
_BOLD_NUMBER = re.compile(r"^(\s*)(\*\*|__)\d{1,2}[.)]\s+", re.MULTILINE)
_RULE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_LABEL = re.compile(r"^\s*((?:\d+[-/]?(?=[A-Za-z]))?[A-Za-z][A-Za-z0-9/&()' -]{0,40}?)\s*:\s*(.*)$")
_DATE = re.compile(r"\b(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?\b|\b\d{1,2}/\d{1,2}/(?:19|20)?\d\d\b")
# A data label over an order, not a result: '- Imaging: plain films of both feet ordered'.
_ORDER_ITEM = re.compile(r"\b(?:ordered|requested|booked|arranged|placed)\b(?!\s+(?:on|by|at)\b)",
                         re.IGNORECASE)
_PLAN_TIME = re.compile(
    r"\b(?:today|now|this week|in\s+\d+\s*(?:d|days?|wks?|weeks?|mo|months?))\b", re.IGNORECASE)


def _ordered_now(text: str) -> bool:
    """'Labs: HIV screen today', 'Imaging: DXA - ordered': tests named with an order or a time
    to come and no value, under a data label."""
    return bool(_ORDER_ITEM.search(text) or _PLAN_TIME.search(text)) and not re.search(
        r"\d", _PLAN_TIME.sub("", text))


_RESULT_MARK = re.compile(r"\b(?:show\w*|reveal\w*|demonstrat\w*|unremarkable|normal|negative|"
                          r"positive|pending|resulted|was|were|previously|prior|ago)\b|"
                          r"\d{1,2}/\d{1,2}|\b(?:19|20)\d\d\b", re.IGNORECASE)


@dataclass(frozen=True)
class Line:
    """One unit of meaning of the note: its text (normalized) and where it sits."""

    text: str
    section: str
    kind: str
    """'paragraph', 'item' (list item), 'row' (table row) or 'heading'."""
    dated_row_is_latest: bool | None = None
    """For a table row that carries a date: whether it is the newest row of its table."""
    later_step: bool = False
    """A row after the first of a schedule table ('Week | Venlafaxine | Sertraline')."""
    contingent: bool = False
    """Under a heading that lists triggers ('When to call us back', 'Red flags'): each line
    says what would happen if its event came, not what is so now."""


_Q_INTERVAL = re.compile(
    r"\bq\s?(\d+(?:\.\d+)?)\s?(h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|mos|months?|m|y|yrs?|years?)\b",
    re.IGNORECASE)
_INTERVAL_WORDS = ((re.compile(r"\bquarterly\b", re.IGNORECASE), "every 3 months"),
                   (re.compile(r"\b(?:semi-?annual(?:ly)?|bi-?annual(?:ly)?|twice (?:a|per|each) "
                               r"year|twice yearly|(?:6|six)-monthly)\b", re.IGNORECASE),
                    "every 6 months"),
                   (re.compile(r"\b(?:3|three)-monthly\b", re.IGNORECASE), "every 3 months"),
                   (re.compile(r"\bannually\b", re.IGNORECASE), "every 12 months"))


_SHORTHAND = ((re.compile(r"\br/o\b", re.IGNORECASE), "rule out"),
              # gestational age '36 0/7 weeks', '37+3 wk': weeks and days, in weeks
              (re.compile(r"\b([1-4]\d)(?:\s+([0-6])/7\b|\+([0-6])(?=\s*(?:w|wk|wks|weeks?)\b))"),
               lambda m: f"{int(m[1]) + int(m[2] or m[3]) / 7:.3g}"),
              (re.compile(r"\bw/d\b", re.IGNORECASE), "withdrawal"),
              (re.compile(r"\bw/u\b", re.IGNORECASE), "workup"),
              (re.compile(r"\bw/\s?wo\b|\bw/\s?w/o\b", re.IGNORECASE), "with and without"),
              (re.compile(r"\bwo/\s?w\b|\bw/o\s?(?:and|\+|&)?\s?w/(?=\s)", re.IGNORECASE),
               "without and with"),
              (re.compile(r"\bw/o\b", re.IGNORECASE), "without"),
              (re.compile(r"(?<![\w/])w/(?=\s|\w)", re.IGNORECASE), "with "),
              (re.compile(r"\bb/c\b", re.IGNORECASE), "because"),
              (re.compile(r"\bd/t\b", re.IGNORECASE), "due to"),
              (re.compile(r"\bc/o\b", re.IGNORECASE), "complains of"),
              # 'cont D3 2000 IU daily': continue, before a drug (not 'cont.' after a list)
              (re.compile(r"\bcont(?=\s+[A-Za-z])", re.IGNORECASE), "continue"),
              # 'avanafil is a shorter-acting alternative': an offer, whatever its praise
              (re.compile(r"\b(is|are|would be|remains?)\s+(?:a|an)\s+(?!(?:poor|bad|worse|"
                          r"inferior|less|risky|dangerous|unsafe|last|not|no|un\w+)\b)"
                          r"[a-z]+(?:-[a-z]+)?\s+(alternative|option|choice|adjunct|add-on|backup|back-up)\b",
                          re.IGNORECASE),
               r"\1 an acceptable \2"),
              # 'vardenafil 10 mg as needed is fine': a schedule, not the verb 'needed'
              (re.compile(r"\bas needed\b", re.IGNORECASE), "prn"),
              # 'restart on POD 2-3', 'on postoperative day 2': days after surgery
              (re.compile(r"\b(?:on\s+)?(?:POD|post-?op(?:erative)?\s+day)\s*#?\s*"
                          r"(\d+(?:\s*-\s*\d+)?)\b", re.IGNORECASE), r"\1 days after surgery"),
              (re.compile(r"\b(?:on\s+)?day\s+(\d+(?:\s*-\s*\d+)?)\s+(after|post)\b",
                          re.IGNORECASE), r"\1 days \2"),
              # 'restart 48-72 h post-op' (not 'OP', osteoporosis)
              (re.compile(r"\bpost-?op\b(?!-)", re.IGNORECASE), "after surgery"),
              (re.compile(r"\bpre-?op\b(?!-)", re.IGNORECASE), "before surgery"),
              # 'Bupropion XL: none -> 150 mg daily', 'empagliflozin 0 -> 10 mg': from nothing
              # to a dose, a start
              (re.compile(r"(?:\b(?:none|nil|nothing)|(?<![\d.])\b0(?:\s*(?:mg|mcg))?)\s*(?:->|=>)\s*"
                          r"(?=\d+(?:\.\d+)?\s*(?:mg|mcg|g|units?|iu)\b)", re.IGNORECASE),
               "start "),
              # 'both restarted on d/c': at discharge, not a discontinuation
              (re.compile(r"\b(restarted|resumed|started|continued|stopped|held|changed|switched|"
                          r"given|prescribed)\s+on\s+d/c\b", re.IGNORECASE), r"\1 at discharge"),
              # 'No metformin dose change (review if <45)': the dose kept, not the drug denied
              (re.compile(r"\bno\s+([A-Za-z][\w-]+)\s+dose\s+(?:change|adjustment|reduction)s?\b",
                          re.IGNORECASE), r"\1 no dose change"),
              # 'Next INR: in 5 days', 'Next creatinine: 2 weeks': the repeat, when
              (re.compile(r"(?m)^(\W*)next\s+([A-Za-z][\w/+-]*(?:\s+[\w/+-]+){0,2}?)\s*:\s*"
                          r"(?:in\s+)?(?=\d{1,2}\s*(?:d|days?|wks?|weeks?|mo|mos|months?)\b)",
                          re.IGNORECASE), r"\1Recheck \2 in "),
              # 'Refer to GI', 'referred her to nephrology': the specialty named after the
              # verb is its referral (a specialty alone heads consult notes)
              (re.compile(r"\b(refer(?:red|ring)?(?:\s+(?:her|him|them|the patient|pt))?(?:\s+to)?|"
                          r"refer(?:rals?)?\s*:)\s*"
                          r"(gastroenterology|GI|gastro|nephrology|renal|neph|cardiology|cards|"
                          r"dermatology|derm|endocrinology|endo)\b(?![\s-]+(?:for\s+(?:an?\s+)?(?:kidney|renal|"
                          r"liver)\s+biopsy|for\s+consideration|clinic|surgery|referral|consult))",
                          re.IGNORECASE), r"\1 \2 referral"),
              # 'Nephrology: referral sent', 'Nephrology outpatient referral': its referral
              (re.compile(r"\b(gastroenterology|nephrology|cardiology|dermatology|endocrinology)"
                          r"(?:\s*:\s*|\s+(?:outpatient|clinic|urgent|routine|e-?)\s+)(?=referr)",
                          re.IGNORECASE), r"\1 "),
              # 'first dose given today', '1st injection administered in clinic today': the
              # course starts today
              (re.compile(r"\b(?:1st|first)\s+(?:dose|injection|infusion)\s+(?:was\s+)?(?:given|"
                          r"administered)\s+(?:in\s+clinic\s+)?today\b", re.IGNORECASE),
               "started today"),
              # 'Please repeat her TFTs. This should be done in about six weeks': the next
              # sentence times the step the one before it planned
              (re.compile(r"\.(?:[ \t]+|[ \t]*\n[ \t]*)(?:This|These|It|They|Both|That)[ \t]+"
                          r"(?:should|will|needs?[ \t]+to|"
                          r"must|is[ \t]+to|are[ \t]+to)[ \t]+be[ \t]+(done|drawn|repeated|checked|"
                          r"rechecked|taken|performed|collected|obtained|sent)\b"), r", to be \1"),
              # British intervals: 'f/u 4/52' (weeks), 'q 6/12' (months), 'x 5/7' (days)
              (re.compile(r"\b(in|q|every|for|x|after|within|next|over)(\s*)(\d{1,2})/52\b",
                          re.IGNORECASE), r"\1\2\3 weeks"),
              (re.compile(r"\b(in|q|every|for|x|after|within|next|over)(\s*)(\d{1,2})/12\b",
                          re.IGNORECASE), r"\1\2\3 months"),
              (re.compile(r"\b(in|q|every|for|x|after|within|next|over)(\s*)([1-6])/7\b",
                          re.IGNORECASE), r"\1\2\3 days"),
              # ... and with no preposition: 'BMP 1/52 - ordered' (no month 52), 'RTC 3/12',
              # '6/52: TFTs' opening a timeline line
              (re.compile(r"(?<![\w/.])(\d{1,2})/52\b(?!/)"), r"in \1 weeks"),
              (re.compile(r"\b(RTC|TCI|f/u|FU|follow-?up|review|repeat|recheck|rpt|bloods|visit)"
                          r"((?:\s+(?!on\b|since\b|from\b|dated\b)[\w&/+-]+){0,3}\s*:?\s*)"
                          r"(\d{1,2})/(12|7)\b(?!/)", re.IGNORECASE),
               lambda m: f"{m.group(1)}{m.group(2)}in {m.group(3)} "
                         f"{'months' if m.group(4) == '12' else 'days'}"),
              (re.compile(r"(?m)^(\W*)(\d{1,2})/(12|7)(?=\s*:)"),
               lambda m: f"{m.group(1)}In {m.group(2)} "
                         f"{'months' if m.group(3) == '12' else 'days'}"),
              # 'Review in 3 wk: PHQ-9', 'see back in 4 weeks', 'Review 05-May-2026': a visit
              (re.compile(r"(?<![\w-])(?<!would )(?<!will )(?<!to )(?<!I )(?<!we )"
                          r"(?<!can )(?<!could )(?<!should )(?<!'d )"  # 'I would see her again'
                          # keeps its own verb
                          r"(?:review|see(?:\s+(?:her|him|them|pt))?(?:\s+(?:back|again))?)"
                          r"(?=\s+(?:in\s+(?:the\s+)?(?:clinic|office)\s+|by\s+(?:phone|video)\s+)?"
                          r"(?:in|within|after)\s+(?:\d{1,3}(?![\d/])|one|two|three|four|"
                          r"five|six|eight|a|an)\s*(?:-\s*\d+\s*)?(?:d|days?|wks?|weeks?|mo|mos|"
                          r"months?)\b)", re.IGNORECASE), "follow-up"),
              (re.compile(r"(?m)^(\W*)review(?=\s+(?:on\s+)?\d{1,2}[-/ ](?:\d{1,2}|[A-Za-z]{3}))",
                          re.IGNORECASE), r"\1follow-up"),
              (re.compile(r"(?<![\w/.])x(?=\d+\s*(?:d|days?|wks?|weeks?|mo|months?|doses?)\b)",
                          re.IGNORECASE), "x "))  # 'hold x4 days'



def expand_intervals(text: str) -> str:
    """'q6mo' -> 'every 6 mo', 'quarterly' -> 'every 3 months': intervals as numbers."""
    text = _Q_INTERVAL.sub(lambda m: f"every {m.group(1)} "
                           f"{'mo' if m.group(2).lower() == 'm' else m.group(2)}", text)
    for pattern, plain in _INTERVAL_WORDS + _SHORTHAND:
        text = pattern.sub(plain, text)
    return text


# '(moderate ↑Ca)': an arrow before an ion names the disorder (not '↑Na ≤ 8 mmol/L', a rise).
_ION_DISORDERS = {"Ca": ("hypercalcemia", "hypocalcemia"), "K": ("hyperkalemia", "hypokalemia"),
                  "Na": ("hypernatremia", "hyponatremia"),
                  "Mg": ("hypermagnesemia", "hypomagnesemia")}
_ION_ARROW = re.compile(rf"([\u2191\u2193])\s?({'|'.join(_ION_DISORDERS)})\b"
                        r"(?!\s*[\d(:<>=~\u2264\u2265]|\s+(?:by|of|to|from|limit|goal|target|max|"
                        r"rise|rate)\b)")


def _ion_disorder(match: re.Match[str]) -> str:
    high, low = _ION_DISORDERS[match.group(2)]
    return high if match.group(1) == "\u2191" else low


_HIGH_LOW = ((_ION_ARROW, _ion_disorder),
             (re.compile(r"\u2191(?=\s*\d)"), " increase "),
             (re.compile(r"\u2193(?=\s*\d)"), " decrease "),
             (re.compile(r"((?:^|[\s(:=|])\d+(?:\.\d+)?\s*%?)\s*\u2191"), r"\1 (high)"),
             (re.compile(r"((?:^|[\s(:=|])\d+(?:\.\d+)?\s*%?)\s*\u2193"), r"\1 (low)"),
             # 'T 78 ng/dL ↑', 'T 78 ng/dL → ↑': a flag on a value with its unit
             (re.compile(r"((?:^|[\s(:=|])\d+(?:\.\d+)?\s*[A-Za-z\u00b5%]{1,6}(?:/[A-Za-z0-9.]{1,6})?"
                         r"\s*(?:->|\u2192|=>)?)\s*\u2191(?!\s*[A-Za-z\d])"), r"\1 (high)"),
             (re.compile(r"((?:^|[\s(:=|])\d+(?:\.\d+)?\s*[A-Za-z\u00b5%]{1,6}(?:/[A-Za-z0-9.]{1,6})?"
                         r"\s*(?:->|\u2192|=>)?)\s*\u2193(?!\s*[A-Za-z\d])"), r"\1 (low)"),
             (re.compile(r"\u2191"), " increase "), (re.compile(r"\u2193"), " decrease "))


# 'Ø EGD now', '∅ NSAIDs': the null sign of clinical shorthand says 'no' before a word (not
# 'Ø 5 mm', a diameter, nor a letter of a name).
_NULL_SIGN = re.compile(r"(?<![\w])[\u00d8\u2205](?=[ \t]+[A-Za-z])")


_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen")
_TWO_DIGITS = rf"(?:{'|'.join(_TEENS)}|(?:{'|'.join(_TENS)})(?:[ -](?:{'|'.join(_UNITS)}))?)"
# Spoken shapes the number library reads as two numbers: 'twenty twenty six' (a year) and
# 'one forty four' (a lab value said as 'one-forty-four').
_SPOKEN_PAIR = re.compile(rf"(?<![\w-])(nineteen|twenty|{'|'.join(_UNITS)})[ -]({_TWO_DIGITS})"
                          r"(?![\w-]| (?:hundred|thousand|point)\b"
                          r"| (?:mg|milligrams?|mcg|micrograms?) (?:tablets?|tabs?|capsules?)\b)",
                          re.IGNORECASE)  # not 'two ten milligram tablets'
_POINT_ONLY = re.compile(r"(?<![\w.])point (\d+)\b", re.IGNORECASE)
_SMALL = {"one": "1", "two": "2"}  # words the number library leaves alone
_AND_A_HALF = re.compile(r"(?<![\d.])\b(\d+|one|two) and a half\b", re.IGNORECASE)


def _two_digits(words: str) -> int:
    words = words.lower().replace("-", " ").split()
    if words[0] in _TEENS:
        return 10 + _TEENS.index(words[0])
    return 10 * (_TENS.index(words[0]) + 2) + (_UNITS.index(words[1]) + 1 if len(words) > 1 else 0)


def _spoken_pair(match: re.Match[str]) -> str:
    head, tail = match.group(1).lower(), _two_digits(match.group(2))
    if head in ("nineteen", "twenty"):
        return str((19 if head == "nineteen" else 20) * 100 + tail)
    return str((_UNITS.index(head) + 1) * 100 + tail)


# 'two to four weeks', 'one or two doses': a small number that opens a range.
_SMALL_RANGE = re.compile(r"\b(one|two|\d+)(\s+(?:to|or)\s+|-)(one|two|\d+)\b", re.IGNORECASE)
# 'CHA2DS2-VASc is zero', 'a score of two': a small number as the value of what precedes it.
_SMALL_VALUE = re.compile(r"(\b(?:is|of|was|equals)\s|[=:]\s?)(zero|one|two)\b(?!\s+of\b)",
                          re.IGNORECASE)


_SPOKEN_UNIT = {"gram": "g", "grams": "g", "milligram": "mg", "milligrams": "mg", "mg": "mg",
                "ml": "mL", "mcg": "mcg",
                "microgram": "mcg", "micrograms": "mcg", "nanogram": "ng", "nanograms": "ng",
                "millimole": "mmol", "millimoles": "mmol", "milliliter": "mL", "milliliters": "mL",
                "millilitre": "mL", "millilitres": "mL", "mls": "mL", "units": "U",
                "picogram": "pg", "picograms": "pg", "micromole": "umol", "micromoles": "umol",
                "nanomole": "nmol", "nanomoles": "nmol", "picomole": "pmol", "picomoles": "pmol",
                "milliequivalent": "mEq", "milliequivalents": "mEq",
                "milli-international units": "mIU", "milliinternational units": "mIU",
                "international units": "IU",
                # '168 pg per mL': a written unit with its 'per' said in words
                "pg": "pg", "ng": "ng", "mmol": "mmol", "umol": "umol", "nmol": "nmol",
                "pmol": "pmol", "meq": "mEq"}
_SPOKEN_PER = {"deciliter": "dL", "decilitre": "dL", "liter": "L", "litre": "L",
               "milliliter": "mL", "millilitre": "mL", "minute": "min", "kilogram": "kg",
               "gram": "g", "day": "day",  # 'twenty-four micrograms per gram' of stool
               "ml": "mL", "dl": "dL"}
# 'nine point two grams per deciliter', 'nineteen mls a minute': a unit said in words.
_SPOKEN_RATE = re.compile(rf"\b({'|'.join(_SPOKEN_UNIT)}) (?:per|a|an) ({'|'.join(_SPOKEN_PER)})\b",
                          re.IGNORECASE)

# 'Z-score minus 2.8', 'T-score of negative 2.7': a sign said in words
_SPOKEN_MINUS = re.compile(r"(?<![\w-])(?<!\d )(?:minus\s+(?=\d)|negative\s+(?=\d+\.\d))",
                           re.IGNORECASE)
# '2000 international units daily'
_SPOKEN_IU = re.compile(r"(?<=\d)\s+(milli-?)?international units?\b(?!\s+per\b)",
                        re.IGNORECASE)


# 'Plan. One, denosumab ... Four, calcium 1000 mg a day': a dictated list's number opens its
# sentence before a comma; it counts the items and is no value, so it stays a word.
_ENUMERATOR = re.compile(r"((?:^|[.!?:;]\s+)(?:number\s+)?)(one|two|three|four|five|six|seven|"
                         r"eight|nine)(?=,\s)", re.IGNORECASE | re.MULTILINE)
_ENUMERATOR_MARK = "Zqx"


# 'April twenty eighth', 'the thirty first': a day of the month said as two words is one
# ordinal (not '20 8th').
_SPOKEN_DAY = re.compile(r"\b((?:january|february|march|april|may|june|july|august|september|"
                         r"october|november|december|the|on) (?:twenty|thirty)) "
                         r"(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b",
                         re.IGNORECASE)


def spoken_numbers(text: str) -> str:
    """Numbers in words to digits, as dictated notes write them ('eighty eight micrograms',
    'one point four nine', 'twenty twenty six', 'one forty four'); 'one' and 'two' standing
    alone stay words ('one of', 'no one'), which the quantity reader handles itself."""
    text = _SPOKEN_PAIR.sub(_spoken_pair, text)
    text = _ENUMERATOR.sub(lambda m: m.group(1) + _ENUMERATOR_MARK + m.group(2), text)
    text = alpha2digit(text, "en").replace(_ENUMERATOR_MARK, "")
    text = _SPOKEN_RATE.sub(lambda m: f"{_SPOKEN_UNIT[m.group(1).lower()]}/"
                                      f"{_SPOKEN_PER[m.group(2).lower()]}", text)
    text = _SPOKEN_MINUS.sub("-", text)
    text = _SPOKEN_IU.sub(lambda m: f" {'mIU' if m.group(1) else 'IU'}", text)
    text = _SPOKEN_SLASH.sub(lambda m: "/" + _SMALL.get((m.group(1) or "").lower(), ""), text)
    text = _SMALL_RANGE.sub(lambda m: "".join(_SMALL.get(g.lower(), g) for g in m.groups()), text)
    text = _POINT_ONLY.sub(r"0.\1", text)
    text = _SMALL_VALUE.sub(
        lambda m: m.group(1) + str(("zero", "one", "two").index(m.group(2).lower())), text)
    return _AND_A_HALF.sub(lambda m: f"{_SMALL.get(m.group(1).lower(), m.group(1))}.5", text)


# British spellings of clinical words, read as the lexicon writes them ('sleep apnoea').
_BRITISH_FORMS = {"apnoe": "apne", "oede": "ede", "diarrhoe": "diarrhe", "dyspnoe": "dyspne",
                  "haem": "hem", "anaem": "anem", "leukaem": "leukem", "ischaem": "ischem",
                  "oesoph": "esoph", "oestr": "estr", "paed": "ped", "gynae": "gyne",
                  "coeli": "celi", "faec": "fec"}
_BRITISH_WORD = re.compile(r"\b(" + "|".join(_BRITISH_FORMS) + r")", re.IGNORECASE)


def _american(match: re.Match[str]) -> str:
    plain = _BRITISH_FORMS[match.group(1).lower()]
    return plain.capitalize() if match.group(1)[:1].isupper() else plain


# 'Hydrochlorothiazide - no.': a bare 'no' that answers its label, as 'none' would
_DASH_NO = re.compile(r"\s+-\s*no(?=\s*(?:[.;!]|\*\*|$))", re.IGNORECASE | re.MULTILINE)


# Dictated punctuation ('... three weeks ago period his creatinine ...'): only in a note that
# says both 'period' and 'comma' as words, and never 'menstrual period' or 'a period of'.
_DICTATED = re.compile(r"\b(?:period|comma)\b", re.IGNORECASE)
_SPOKEN_PERIOD = re.compile(
    r"(?<!menstrual)(?<!last)(?<!\ba)(?<!\bthe)(?<!this)(?<!that)(?<!same)(?<!each)(?<!time)"
    r"(?<!washout)(?<!grace)(?<!trial)(?<!waiting)(?<!refractory)(?<!window)(?<!postpartum)"
    r"(?<!follow-up)(?<!observation)(?<!\d),?\s+period\b(?!\s+of\b)[.,]?[ \t]*", re.IGNORECASE)
_SPOKEN_COMMA = re.compile(r",?\s+comma\b,?\s*", re.IGNORECASE)


# 'Antipsychotic (risperidone)-induced hyperprolactinemia': the bracketed cause is the word.
_BRACKETED_CAUSE = re.compile(r"\(([A-Za-z][\w -]{1,40})\)-(induced|related|associated|mediated)\b",
                              re.IGNORECASE)


def spoken_punctuation(text: str) -> str:
    """'... held 3 weeks ago period his latest creatinine ...' -> '... ago. his latest ...';
    an acronym spelled out letter by letter ('H D L forty-two', 'C K') is the acronym."""
    text = _SPELLED_ACRONYM.sub(lambda m: m.group(0).replace(" ", ""), text)
    text = _SPOKEN_PARAGRAPH.sub("\n\n", text)
    said = {m.group(0).lower() for m in _DICTATED.finditer(text)}
    if said != {"period", "comma"}:
        return text
    text = _SPELLED_PAIR.sub(lambda m: m.group(0).replace(" ", ""), text)
    text = _SPOKEN_COMMA.sub(", ", _SPOKEN_PERIOD.sub(". ", text))
    return _SPOKEN_COLON.sub(r"\1\2: ", text)


# 'Impression colon SIADH': a label said at a sentence's start; never 'the sigmoid colon'
_SPOKEN_COLON = re.compile(
    r"(^|[.]\s+)((?!(?:the|a|an|his|her|sigmoid|ascending|descending|transverse|right|left|"
    r"entire|whole|distal|proximal)\b)[A-Za-z][\w/&-]*(?: [\w/&-]+){0,3}),? colon\b[.,]?[ \t]*",
    re.IGNORECASE | re.MULTILINE)
_SPOKEN_PARAGRAPH = re.compile(r"[.,]?\s*\b(?:new|next) paragraph\b[.,:]?\s*", re.IGNORECASE)
# 'the ten-year A S C V D risk', 'H D L forty-two'; in a dictated note also 'C K', 'B P'
_SPELLED_ACRONYM = re.compile(r"\b[A-Z](?: [A-Z]){2,5}\b(?! [a-z]\b)")
_SPELLED_PAIR = re.compile(r"(?<!\b[A-Z] )\b[A-Z] [A-Z]\b(?! [A-Z]\b)")


# '58 ×10⁹/L': a power of ten written in superscript, kept a power ('10^9'), not '109'.
_POWER_OF_TEN = re.compile(r"(?<!\d)10([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUE = {w: i for i, w in enumerate(_ONES)} | {w: (i + 2) * 10 for i, w in enumerate(_TENS)}
_NUMBER_WORD = "|".join(sorted(_WORD_VALUE, key=len, reverse=True))
_NUMBER_WORDS = re.compile(
    rf"\b(?:{_NUMBER_WORD})(?:(?:[\s-]+(?:and\s+)?)(?:{_NUMBER_WORD}|hundred|thousand|"
    rf"point(?=\s+(?:{_NUMBER_WORD}|oh)\b)|oh(?<=point oh)))*(?![\w-])", re.IGNORECASE)
# A spelled digit stands for a number only before a unit or a time ('one milligram', 'four
# days'); 'no one', 'one of' stay words.
_UNIT_AFTER = re.compile(
    r"\s*(?:(?:to|or|-)\s*\S+\s+)?(?:mg|milligrams?|mcg|micrograms?|grams?|units?|tablets?|"
    r"tabs?|capsules?|days?|weeks?|months?|years?|hours?|minutes?|times|cycles?|doses?|liters?|"
    r"litres?|milliliters?|ml|cm|mm|centimeters?|millimeters?|percent|kg|kilograms?|cores?)\b",
    re.IGNORECASE)


def _whole(words: list[str]) -> int | None:
    """'two hundred and five' -> 205, 'seven fifty' -> 750, 'twenty twenty-six' -> 2026; 'two
    ten milligram tablets' stays words (two tablets of ten)."""
    if any(w in ("hundred", "thousand") for w in words):
        if any(_WORD_VALUE.get(a, 10) < 10 and _WORD_VALUE.get(b, 10) < 10
               for a, b in zip(words, words[1:], strict=False)):
            return None  # 'three three-hundred-sixty milligram tablets': a count, then a strength
        total = current = 0
        for word in words:
            if word == "hundred":
                current = (current or 1) * 100
            elif word == "thousand":
                total, current = total + (current or 1) * 1000, 0
            else:
                current += _WORD_VALUE[word]
        return total + current
    chunks: list[int] = []
    for word in words:
        value = _WORD_VALUE[word]
        if chunks and value < 10 and chunks[-1] >= 20 and chunks[-1] % 10 == 0:
            chunks[-1] += value  # 'thirty eight'
        else:
            chunks.append(value)
    if len(chunks) == 1:
        return chunks[0]
    if len(chunks) == 2 and 0 < chunks[0] < 100 and 20 <= chunks[1] < 100:
        return chunks[0] * 100 + chunks[1]  # said in pairs: 'two thirty-eight', 'seven fifty'
    return None


def _spelled_number(match: re.Match) -> str:
    words = [w for w in re.split(r"[\s-]+", match.group(0).lower()) if w != "and"]
    point = words.index("point") if "point" in words else len(words)
    whole = _whole(words[:point])
    if whole is None:
        return match.group(0)
    decimals = words[point + 1:]
    if decimals and not all(w == "oh" or _WORD_VALUE.get(w, 10) < 10 for w in decimals):
        return match.group(0)
    if not decimals and whole < 10 and len(words) == 1 and not _UNIT_AFTER.match(
            match.string, match.end()):
        return match.group(0)
    return str(whole) + ("." + "".join("0" if w == "oh" else str(_WORD_VALUE[w])
                                       for w in decimals) if decimals else "")


def spelled_numbers(text: str) -> str:
    """'fifty-eight', 'thirteen point oh', 'four days', 'twenty twenty-six' as digits: notes
    dictated or written out in words state their values too."""
    return _NUMBER_WORDS.sub(_spelled_number, text)


# 'ferritin 2 500 ug/L', '1 080 mg daily': a space as the thousands separator (SI style); 'two
# 500 mg tablets' written '2 500 mg tablets' stays a count of tablets.
_SPACED_THOUSANDS = re.compile(r"(?<![A-Za-z\d.,/:-])(\d{1,3}) (\d{3})(?![\d.,])"
                               r"(?!\s*-?\s*(?:mg|mcg|g)\s+(?:[a-z-]+\s+)?(?:tab|cap))",
                               re.IGNORECASE)


_CROSS_BEFORE_VERB = re.compile(r"[\u2717\u2718\u274c]\s*(?=(?:held|hold|stopped|stop|"
                                r"discontinued?|d/c|dc'?d|ceased|withheld|withdrawn|off)\b)",
                                re.IGNORECASE)


def normalize_characters(text: str) -> str:
    """Unicode and typography to plain ASCII-like text that keeps every clinical sign; an
    arrow after a value flags it ('8.9 ↑' -> '8.9 (high)'), before a drug changes it."""
    for pattern, plain in _HIGH_LOW:
        text = pattern.sub(plain, text)
    text = _NULL_SIGN.sub("no", text)
    text = _POWER_OF_TEN.sub(lambda m: "10^" + m.group(1).translate(_SUPERSCRIPT_DIGITS), text)
    text = unicodedata.normalize("NFKC", text)
    text = _DASH_BETWEEN_NUMBERS.sub("-", text)
    text = _SPACED_DASH.sub(" - ", text)
    text = _CROSS_BEFORE_VERB.sub("", text)  # '✗ held', '✗ d/c': the verb says it
    for char, plain in _UNICODE.items():
        text = text.replace(char, plain)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = _CONCENTRATION.sub(r"\1", text)
    text = _SPACED_THOUSANDS.sub(r"\1\2", text)
    text = re.sub(r"\)(?=[:;])", ") ", text)
    text = _GLUED_EQUALS.sub(" = ", text)
    text = _DASH_NO.sub(" - none", text)
    text = _BOLD_NUMBER.sub(r"\1\2", text)
    text = _BRITISH_WORD.sub(_american, _APPROX_DOT.sub(r"\1", text))
    text = _CONTRACTION.sub(_uncontracted, text)
    text = _BRACKETED_CAUSE.sub(r"\1-\2", text)
    for _ in range(2):  # '1 000-1 200 mg' -> '1000-1200 mg' (the range's end first)
        text = _SPACED_THOUSANDS.sub(r"\1\2", text)
    text = _COMMA_THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text)
    text = _SPOKEN_DAY.sub(r"\1-\2", text)
    text = spelled_numbers(spoken_punctuation(text.replace("\t", " ").replace("\r", "")))
    return expand_intervals(spoken_numbers(text))


# A labelled paragraph that opens with an instruction ('Meds: hold simvastatin ...').
_IMPERATIVE_OPENING = re.compile(r"(?:please\s+)?(?:hold|stop|continue|start|keep|resume|restart|"
                                 r"pause|discontinue|increase|decrease|reduce|add|avoid|switch|"
                                 r"begin|withhold)\b", re.IGNORECASE)


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
    raw = _joined_records(_HTML_BREAK.sub("\n", normalize_characters(note)).split("\n"))
    out: list[Line] = []
    section = "body"
    opened_by_label = after_blank = label_inline = False
    label_from = section
    paragraph: list[str] = []
    table: list[list[str]] = []
    parent: tuple[int, str] | None = None  # a bare list item that labels the items under it
    rejected_from: str | None = None  # the section a list of rejected options interrupts
    outline_from: str | None = None  # the section a lettered 'D. Do not' list interrupts
    nested_under: tuple[int, str] | None = None  # '- Agents excluded:' opens a section for
    # the items nested under it: (its indent, the section to go back to)

    def flush_paragraph() -> None:
        if paragraph:
            out.append(Line(" ".join(paragraph), section, "paragraph"))
            paragraph.clear()

    def flush_table() -> None:
        if table:
            out.extend(_table_lines(table, section))
            table.clear()

    in_fence = False  # inside a fenced code block each line is a unit of its own
    consumed: set[int] = set()  # lines already read as the wrapped end of a line above
    for index, raw_line in enumerate(raw):
        if index in consumed:
            continue
        stripped = raw_line.strip()
        if _FENCE.match(stripped):
            flush_paragraph()
            in_fence, after_blank = not in_fence, True
            continue
        as_json = _json_line(stripped)
        if as_json is not None:
            flush_paragraph()  # a line of JSON is a unit of its own, as in a code block
            after_blank, stripped = True, as_json
        if in_fence:
            # '```' over 'dx: MDD + GAD' then 'trial_1: escitalopram ...': a code block keeps
            # its line breaks, so no line wraps onto the one above it; a snake_case key is
            # a label written as an identifier ('benzo_history:' is 'benzo history:')
            flush_paragraph()
            after_blank = True
            stripped = _SNAKE_KEY.sub(lambda m: m.group(1).replace("_", " "), stripped)
        if "|" in stripped and (stripped.startswith("|") or stripped.count("|") >= 2):
            flush_paragraph()
            if not _TABLE_SEPARATOR.match(stripped):
                table.append([_inline(c).replace(";", ",")
                              for c in stripped.strip("|").split("|")])
            continue
        flush_table()
        if not stripped or _RULE.match(stripped):
            flush_paragraph()
            after_blank = True  # a blank line ends a list item too
            if rejected_from is not None:
                section, rejected_from = rejected_from, None
            continue
        item_goes_on, after_blank = not after_blank, False
        if opened_by_label and label_inline and not item_goes_on and section in (
                "history", "medications", "data") and not _LABEL.match(stripped) and not (
                _BULLET.match(stripped)):
            # 'Risk factors: he still smokes ...' then, after a blank line, 'My assessment is
            # ...': a label written with its text heads that paragraph, not the ones after it
            section, opened_by_label = label_from, False
        if parent and parent[0] < 0 and raw_line[:1] not in " \t" and not _BULLET.match(stripped):
            parent = None  # the list a label line scoped has ended
        stripped = re.sub(r"^\s*>(?![=\d.])\s?", "", stripped)  # a quote, not '>=15 d/mo'
        qa = _QA_DOT.match(stripped)  # 'Q3. Is he ...?' / 'A. Yes.': no dictated title 'A.'
        if qa and (qa.group(1)[0] in "Qq" or _last_text_line(raw[:index]).rstrip(
                " *_").endswith("?")):
            stripped = f"{qa.group(1)[0].upper()}: {stripped[qa.end():]}"
        asked = _BOLD_QUESTION.match(stripped) or _ITALIC_QUESTION.match(stripped)
        if asked:
            # '**Does he need surgery now?** No. ...': the answer to a question about the
            # plan is the plan; any other question ends the history above it
            flush_paragraph()
            out.append(Line(_inline(asked.group(2)), "question", "heading"))
            section = ("avoid" if _AVOID_QUESTION.search(asked.group(2))
                       else "plan" if _PLAN_QUESTION.search(asked.group(2))
                       else _after_unknown_heading(section))
            opened_by_label = False
            if asked.group(3).strip():
                paragraph.append(_inline(asked.group(3)))
            continue
        outline = _OUTLINE_LETTER.match(stripped)
        if outline and _heads_a_list(stripped[outline.end():], raw[index + 1:]) and (
                outline_from is not None or _PROHIBITION_TITLE.fullmatch(stripped[outline.end():])
                or section_of(stripped[outline.end():]) == "avoid"):
            # 'D. Do not' over '1. Prescribe naltrexone' in a lettered outline opens a list of
            # what to avoid; the next lettered title ('E. Pain support') ends it
            flush_paragraph()
            title = _inline(stripped[outline.end():])
            if outline_from is None:
                outline_from, section = section, "avoid"
            else:
                before, outline_from = outline_from, None
                section = section_of(title, loose=True) or before
                if section == "avoid" or _PROHIBITION_TITLE.fullmatch(title):
                    section, outline_from = "avoid", before  # 'E. Never' after 'D. Avoid'
            out.append(Line(title, section, "heading"))
            continue
        heading = _heading(stripped)
        if heading is None and _REJECTING_LEAD.search(stripped):
            # 'I considered and rejected the following alternatives:' over the list it heads
            flush_paragraph()
            out.append(Line(stripped, "avoid", "heading"))
            rejected_from, section = section, "avoid"
            continue
        if heading is not None:
            flush_paragraph()
            title, rest = heading
            titled = section_of(title, loose=True)
            if _BULLET.match(stripped) and nested_under is None:  # '- Agents excluded:'
                nested_under = (_indent(raw_line), section)
            if section == "plan" and titled in ("medications", "data"):
                titled = "plan"  # 'Medications' or 'Labs' under the plan: what to do with them
            section = titled or _after_unknown_heading(section)
            opened_by_label = False
            out.append(Line(title, section, "heading"))
            if rest:
                if titled == "question" and not rest.endswith("?"):
                    rest += "?"  # '**Question:** dosing for a rising TSH' asks, as a label does
                if rest.endswith((".", "?", "!", ":", ";")):
                    out.append(Line(rest, section, "paragraph"))
                else:  # '**Summary.** ... (IPSS 17, prostate' wraps onto the next line
                    paragraph.append(rest)
            continue
        stripped = _LEADING_TAG.sub(r"\1\2: ", stripped)  # '(excluded) serology'
        bullet = _BULLET.match(stripped)
        if bullet and nested_under is not None and _indent(raw_line) <= nested_under[0]:
            section, nested_under = nested_under[1], None  # the nested list has ended
        if not bullet and _heads_a_list(stripped, raw[index + 1:]):
            flush_paragraph()  # 'Stroke prevention' over bullets: the history above has ended
            section = _after_unknown_heading(section)
        text = _inline(stripped[bullet.end():] if bullet else stripped)
        label = _LABEL.match(text)
        if not label and _LABEL.match(_WORD_ASIDE.sub("", text)):
            # 'Recommendation (IDSA lists it for ESBL cystitis): fosfomycin 3 g PO once'; an
            # aside with a value stays ('Child-Pugh C (11 points): bilirubin 2.6')
            text = _WORD_ASIDE.sub("", text)
            label = _LABEL.match(text)
        if label and not bullet and out and out[-1].kind == "item" and not paragraph and (
                item_goes_on and raw_line[:1] in " \t" and text[:1].islower()):
            label = None  # '- If he is a carrier -> 25% risk;' wrapping onto '  offer prenatal
            # dx: CVS or amnio': the item goes on, the lowercase words before a colon are no label
        line_section = section
        labelled = label and not (len(label.group(1)) <= 2 and raw_line[:1] in " \t") and (
            section_of(label.group(1), loose=True))  # an indented 'S:' lists susceptibilities
        if labelled:
            # 'Labs: CBC ordered' inside a plan is a plan item; a labelled list item speaks
            # for itself; a labelled paragraph opens a section ('Hx: ...'). A label that names
            # more than its section ('Sodium trend: 137 -> 126') stays part of the text.
            flush_paragraph()
            if section_of(label.group(1)) and label.group(1).lower() not in _STEP_LABELS:
                text = label.group(2).strip()
                if labelled == "question" and text and not text.endswith("?"):
                    text += "?"  # 'Q: statin choice and dose' asks, it does not plan
            if section == "plan" and labelled == "avoid" and text:
                text += _wrapped_on(raw, index, consumed)  # '... fish oil as first-line' over
                # 'instead of a statin.': the label's sentence goes on
                out.append(Line(text, "avoid", "item" if bullet else "paragraph"))
                continue  # 'AVOID: systemic corticosteroids' among the plan's lines
            if section != "plan" and labelled in ("medications", "data") and not bullet and (
                    _IMPERATIVE_OPENING.match(text)):
                # 'Meds: hold simvastatin from tonight ... Keep amlodipine.' tells what to do
                # with them, as under the plan; the next paragraph is back where it was
                out.append(Line(text, "plan", "paragraph"))
                continue
            if section != "plan" and not (labelled == "data" and not _RESULT_MARK.search(text) and (
                    bullet and _ORDER_ITEM.search(text) or _ordered_now(text))):
                # '- Imaging: films of both hands ordered' under a problem, 'Labs: HIV screen
                # today' are the writer's orders
                line_section = labelled
                if labelled == "avoid" and text and not bullet and text.rstrip().endswith("."):
                    # 'Excluded: nitrofurantoin (resistant); TMP-SMX (allergy).' lists what is
                    # avoided in one sentence; the next line is back in the section it was in
                    flush_paragraph()
                    out.append(Line(text, labelled, "paragraph"))
                    continue
                if (not bullet or not text) and not (
                        _indent(raw_line) > _indent(_last_text_line(raw[:index]))
                        and labelled in ("history", "medications", "data")):
                    if bullet and nested_under is None:
                        nested_under = (_indent(raw_line), section)
                    label_from, label_inline = section, bool(text)
                    section, opened_by_label = line_section, True  # an indented sub-line's
                    # background ('  background: LFTs nl') speaks for that line alone
            if not text:
                continue
        elif label and not bullet and (
                (opened_by_label and len(label.group(1).split()) <= 3)
                or (section == "avoid" and not item_goes_on and raw_line[:1] not in " \t")):
            # 'Hx: ...' then 'Stroke risk: ...': another label ends the labelled section; a
            # 'DO NOT GIVE:' list ends at a new labelled paragraph after a blank ('ULT: YES.')
            flush_paragraph()
            section = line_section = "body"
        if not bullet and text.endswith(":") and len(text) <= 80 and _scopes_items(
                text[:-1]) and _BULLET.match(
                next((r for r in raw[index + 1:] if r.strip()), "").strip()):
            # 'STOP:', 'Labs in 1 week:', 'At 3 months:' over bullets: each item is said
            # under it ('STOP: oxybutynin 5 mg bd'), not after a verb with no object
            flush_paragraph()
            parent = (-1, text.rstrip(": "))
            continue
        if bullet and out and out[-1].kind == "item" and not paragraph and text.startswith("="):
            # '- Deficit = wt x (15 - Hb) x 2.4 + 500' then '- = 81 x (15 - 9.2) ... = 1628 mg'
            out[-1] = Line(f"{out[-1].text} {text}", out[-1].section, "item")
            continue
        if bullet:
            flush_paragraph()
            indent = len(raw_line) - len(raw_line.lstrip())
            if parent and indent > parent[0] and not label and not text.lower().startswith(
                    parent[1].lower()):
                text = f"{parent[1]}: {text}"  # '- TSH' over '  - 04/29: 6.8 mIU/L'
            elif indent <= (parent[0] if parent else 0) or not parent:
                parent = (indent, text.rstrip(":")) if _BARE_LABEL.fullmatch(text) else None
            out.append(Line(text, line_section, "item"))
        elif (out and out[-1].kind == "item" and not paragraph and not label and item_goes_on
              and (raw_line[:1] == " " or not out[-1].text.rstrip().endswith((".", ":", "!",
                                                                              "?")))
              and not _arrow_statements(out[-1].text, raw_line, text)):
            out[-1] = Line(f"{out[-1].text} {text}", out[-1].section, "item")
        elif (label or _ARROW_LABEL.match(text)) and not (
                paragraph and text[:1].islower() and paragraph[-1][-1:].isalpha()
                and not stripped.startswith(("**", "__"))):  # '**eGFR:** ...' is a new label
            # 'NITROFURANTOIN: CRCL < 30', 'Trend -> ...' open a paragraph; 'causes have been
            # checked: ...' under '... followed. Secondary' goes on with the sentence it wraps
            flush_paragraph()
            paragraph.append(text)
        else:
            if paragraph and _own_line(paragraph[-1], text):
                flush_paragraph()
            paragraph.append(text)
    flush_paragraph()
    flush_table()
    return _mark_contingent(_medications_to_change(tuple(
        # 'CTCAE GRADE: 2' is 'CTCAE GRADE 2' (once it has ended the section above it)
        dataclasses.replace(line, text=_SCALE_LABEL.sub(r"\1 ", line.text))
        if _SCALE_LABEL.match(line.text) else _changed_today(line) for line in out if line.text)))


def _medications_to_change(found: tuple[Line, ...]) -> tuple[Line, ...]:
    """A medication list whose items say what to do ('- STOP hydrochlorothiazide', '- HOLD
    lisinopril') is a plan: its other items ('- Zoledronic acid 4 mg IV once') are planned
    too, not a record of what she takes."""
    out, run = list(found), []
    for index, line in enumerate([*found, Line("", "", "heading")]):
        if line.section == "medications" and line.kind == "item":
            run.append(index)
            continue
        if sum(bool(_IMPERATIVE_OPENING.match(out[i].text)) for i in run) >= 2:
            for i in run:
                out[i] = dataclasses.replace(out[i], section="plan")
        run = []
    return tuple(out)


# A medication list that marks today's changes: '- Levothyroxine 88 mcg daily (NEW DOSE;
# previously 75 mcg)', 'Sertraline 25 mg daily - new', '(started today)'.
_TODAY_MARK = re.compile(
    r"(?:\(\s*|[-\u2013\u2014:|,;]\s*|^\W*)new\b(?!\s+(?:onset|diagnos\w*|patient|symptoms?|"
    r"findings?|problems?|issues?|complaints?|york|zealand|england))"
    r"|\bnew\s+(?:dose|start|today|rx|prescription)\b"
    r"|\b(?:started|starting|start|changed|increased|decreased|reduced|stopped|discontinued|"
    r"held|added)\s+today\b", re.IGNORECASE)


def _changed_today(line: Line) -> Line:
    """A medication-list line marked as changed at this visit plans that change."""
    if line.section == "medications" and line.kind in ("item", "row", "paragraph") and (
            _TODAY_MARK.search(line.text)):
        return dataclasses.replace(line, section="plan")
    return line


# Headings over a list of triggers and what each would bring.
_CONTINGENCY_HEADING = re.compile(
    r"\W*(?:#?\d{1,2}[.)]?\s+)?"  # '6. Red flags'
    r"(?:[A-Za-z]\s*[-\u2013\u2014]\s+)?"  # 'S - Situation awareness' (I-PASS)
    r"(?:situation awareness|when to (?:call|contact|re-?refer|return|come back|seek)|"
    r"(?:please )?call (?:us|me)"
    r"(?: back)? if|re-?refer (?:if|when)|red flags?|return precautions|warning signs|"
    r"safety[- ]net(?:ting)?|contingenc(?:y|ies)(?: plan)?)\b", re.IGNORECASE)


# A red-flag title that goes on to say what the flags call for: 'Red flags - go to the ED'.
_DESTINATION_AFTER_TITLE = re.compile(r"\s(?:-|–|—|:)\s*\S", re.IGNORECASE)


# A record written one field per line ('Medication: bupropion XL' / 'Dose: 150 mg' /
# 'Frequency: once daily' / 'Status: new start'), perhaps under its drug's name: one statement.
_RECORD_FIELD = re.compile(
    r"^\s*(?:[-*\u2022]\s*)?[*_]*(medication|medicine|drug(?: requested)?|agent|anticoagulant|"
    r"supplement|procedure|test|lab|labs|imaging|referral|investigation|decision|prep|"
    r"dose|dosage|strength|frequency|freq|route/frequency|dose/frequency|route|sig|directions|"
    r"status|action|change|start|"
    r"start date|duration|current|new|previous|prior|now|was|reason|indication|rationale|"
    r"monitoring|timing|schedule|next dose|goal|target|quantity|refills?|titration|"
    r"blood tests?|bloods|when|due|interval|priority|where|purpose|why|collect(?: on(?:/after)?)?|"
    r"comments?|dx|results? to|sooner if|date|prep|preparation|regimen)"
    r"(?: dose)?[*_]*\s*:[*_]*\s*\S", re.IGNORECASE)  # 'Current dose: 75 mcg' too
_RECORD_CORE = frozenset({"dose", "dosage", "strength", "frequency", "freq", "sig", "status",
                          "action", "change", "current", "new", "previous", "now", "route",
                          "timing", "when", "due", "interval", "collect", "collect on",
                          "collect on/after"})


def _joined_records(raw: list[str]) -> list[str]:
    """Each record written one field per line, joined into one line ('Medication: X, Dose:
    150 mg, Status: new start'), so its drug, dose and verb share a clause."""
    out: list[str] = []
    index, in_fence = 0, False
    while index < len(raw):
        if _FENCE.match(raw[index].strip()):
            in_fence = not in_fence
        end = index
        while not in_fence and end < len(raw) and _RECORD_FIELD.match(raw[end]):
            end += 1
        keys = {_RECORD_FIELD.match(line).group(1).lower() for line in raw[index:end]}
        if end - index < 2 or not (keys & _RECORD_CORE or "decision" in keys and (
                keys & _RECORD_HEAD - {"decision"})):  # 'Drug: naproxen' / 'Decision: STOP'
            out.append(raw[index])
            index += 1
            continue
        fields = ", ".join(line if line.startswith(";") else _record_field(line, keys)
                           for line in _status_first(raw[index:end])).replace(", ;", ";")
        name = out[-1].strip() if out else ""
        if name and ":" not in name and not name.startswith("#") and len(name.split()) <= 6 \
                and not name.endswith((".", "?")):  # not 'Q1. Which antidepressant?'
            out[-1] = f"{out[-1].rstrip().rstrip(':')}: {fields}."
        else:
            out.append(f"{fields}.")
        index = end
    return out


_RECORD_HEAD = frozenset({"medication", "medicine", "drug", "drug requested", "agent",
                          "anticoagulant", "supplement", "procedure", "test", "lab", "labs",
                          "imaging", "referral", "investigation", "decision", "blood test",
                          "blood tests", "bloods"})
_RECORD_VERDICT = frozenset({"status", "action", "decision"})
_VERDICT_LEAD = re.compile(r"[^(;,]*?(?=\s[-\u2013\u2014]\s|[(;,]|$)")


# 'Status: surgical referral placed now' under 'Procedure: LINX': the item's own referral.
_ITS_REFERRAL = re.compile(r"^(?:an?\s+)?[A-Za-z-]+\s+(referral|order|consult)\b", re.IGNORECASE)


def _status_first(fields: list[str]) -> list[str]:
    """A record's status said next to its item ('Test: EGD' ... 'Status: ordered' reads 'Test:
    EGD: ordered, Indication: ...'), so that the verdict is the item's, not a later field's."""
    keys = [_RECORD_FIELD.match(line).group(1).lower() for line in fields]
    head = next((i for i, k in enumerate(keys) if k in _RECORD_HEAD), None)
    verdict = next((i for i, k in enumerate(keys) if k in _RECORD_VERDICT and i != head), None)
    if head is None or verdict is None or verdict < head:
        return fields
    value = _ITS_REFERRAL.sub(r"\1", fields[verdict].split(":", 1)[1].strip(" *_"))
    lead = _VERDICT_LEAD.match(value).group(0).strip()  # 'INCREASE (prescription entered,
    rest = value[len(lead):].strip(" ,;")  # 90 tablets)': the verdict by the item, its
    joined = f"{fields[head].rstrip().rstrip('.;,')}: {lead}"  # details where they were
    tail = f"; {rest}" if value[len(lead):].lstrip().startswith(";") else f"{keys[verdict]}: {rest}"
    return [joined if i == head else tail if i == verdict else line
            for i, line in enumerate(fields) if i != verdict or rest]


def _record_field(line: str, keys: set[str]) -> str:
    """One field of a record; a change told as 'Current: 75 mcg' beside 'New: 88 mcg' reads
    'from 75 mcg', 'to 88 mcg'."""
    field = line.strip().lstrip("-*\u2022 ").rstrip(".;,")
    key = _RECORD_FIELD.match(line).group(1).lower()
    if keys & _RECORD_OLD and keys & _RECORD_NEW and key in _RECORD_OLD | _RECORD_NEW:
        value = field.split(":", 1)[1].strip(" *_")
        return f"{'from' if key in _RECORD_OLD else 'to'} {value}"
    return field


_RECORD_OLD = frozenset({"current", "previous", "prior", "was"})
_RECORD_NEW = frozenset({"new", "now"})


def _mark_contingent(found: tuple[Line, ...]) -> tuple[Line, ...]:
    """Mark the lines under a heading that lists triggers, up to the next heading."""
    out, contingent, where = [], False, ""
    for line in found:
        if contingent and line.kind != "heading" and line.section != where:
            contingent = False  # 'S - Synthesis: ...' after the contingencies opens another
        if line.kind == "heading":
            contingent, where = bool(_CONTINGENCY_HEADING.match(line.text)), line.section
            if contingent and _DESTINATION_AFTER_TITLE.search(line.text):
                # '### 6. Red flags - send to the ED immediately': the place the triggers
                # listed under it send him to, not a visit now
                line = dataclasses.replace(line, contingent=True)
        elif contingent:
            line = dataclasses.replace(line, contingent=True)
        out.append(line)
    return tuple(out)


def _arrow_statements(item: str, raw_line: str, text: str) -> bool:
    """'=> T-DXd pneumonitis -> CTCAE G2' over 'XRT fibrosis stable -> not it.': in arrow
    shorthand each unindented line that opens with a capital and draws its own arrow is a
    statement of its own, not the wrapped end of the item above it."""
    return (raw_line[:1] not in " \t" and text[:1].isupper() and "->" in text
            and "->" in item)


_ARROW_LABEL = re.compile(r"[A-Za-z][\w /&'.,()-]{0,30}?\s*->\s")
_WORD_ASIDE = re.compile(r"\s*\([^()\d]*\)|,\s*which\s+I\s+(?:have\s+)?(?:entered|ordered|placed|"
                         r"sent|prescribed)(?=\s*:)")  # 'Treatment, which I have entered: ...'
# A question in bold or as a heading that the lines after it answer: '**Q3. Which drug?**'.
# What a question about the plan asks ('How should she be followed?', 'Does he need surgery?').
_PLAN_QUESTION = re.compile(r"\b(?:follow\w*|monitor\w*|treat\w*|start\w*|stop\w*|prescrib\w*|"
                            r"order\w*|next|recommend\w*|manag\w*|plan\w*|refer\w*|work-?up|"
                            r"imaging|surgery|dose|dosing|therapy|medication|drug|should (?:we|I|"
                            r"he|she|they)|need)\b", re.IGNORECASE)
# A question about what not to do: its answer lists what to avoid ('What should NOT be ordered?').
_AVOID_QUESTION = re.compile(r"\b(?:what|which)\b.*\b(?:should(?:n't| not)|not to)\s+(?:be\s+)?"
                             r"(?:order|give|start|use|do|prescrib|avoid)\w*|\bwhat to avoid\b"
                             # 'Anything to avoid?', 'Which drugs should he steer clear of?',
                             # 'What is off the table?': the answer lists what is avoided
                             r"|^\W*(?:is\s+there\s+)?(?:anything|what|which|any)\b[^?]{0,40}?"
                             r"\b(?:avoid|steer\s+clear\s+of|stay\s+away\s+from|off\s+the\s+table|"
                             r"contraindicated|off[\s-]limits)\W*$",
                             re.IGNORECASE)
_BOLD_QUESTION = re.compile(r"^(\*\*|__|#{1,4}\s*)(?:Q\d*\s*[:.)]\s*(?!\*))?(?!Q\d*\s*[:.)])"
                            r"(.{3,160}?\?)(?:\*\*|__)?"
                            r"\s*(.*)$")
# The same in italics, a line of its own: '*Does he need treatment?*' (not a '* ' bullet).
_ITALIC_QUESTION = re.compile(r"^([*_])(?![\s*_])(?:Q\d*\s*[:.)]\s*)?(.{3,160}?\?)\1(?![*_])"
                              r"\s*(.*)$")
# Section labels that also name the step they head ('Follow-up: 2 weeks'): kept in the text.
_STEP_LABELS = frozenset({"follow-up", "follow up", "followup", "f/u", "monitoring"})
# A sentence that heads a list of options turned down, up to the next blank line.
_REJECTING_LEAD = re.compile(r"^[^:]{0,60}\b(?:rejected|decided against|advise against|"
                             r"recommend against|would avoid|ruled out|not recommended|"
                             r"not advised|think unlikely|considered unlikely|not supported)\b"
                             r"[^:]{0,40}:$", re.IGNORECASE)
# A list item that only names what the items nested under it are about ('TSH', 'Labs:').
_BARE_LABEL = re.compile(r"[A-Za-z][\w/&()' +-]{0,30}:?")


# A label that names a scale, over a bare step of it: 'CTCAE GRADE: 2', 'NYHA class: III',
# 'Stage - IIIA' read as 'CTCAE GRADE 2': the value is the step of the scale the label names.
_SCALE_LABEL = re.compile(r"^((?:[A-Za-z][\w /-]{0,30}?\s)?(?:grade|class|stage|tier))\s*"
                          r"(?::|=|\s-)\s*(?=(?:\d{1,2}|[IV]{1,4})[a-cA-C]?(?:\s*$|[\s.,;(]))",
                          re.IGNORECASE)
_FENCE = re.compile(r"(?:```|~~~)[\w-]*$")
_SNAKE_KEY = re.compile(r"^((?:[-*+]\s+)?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9-]+)+)(?=\s*:)")
# 'Q3. Is he eligible?' over 'A. Yes.': a question and its answer numbered with a period.
_QA_DOT = re.compile(r"([QA]\d{0,2})(?:\.|(?<=\d)\s*:)\s+(?=[A-Z])")
# A tag in parentheses that opens a line says what the line is: '(excluded) serology'.
_LEADING_TAG = re.compile(r"^((?:[-*+]|\d{1,2}[.)])?\s*)\((excluded|avoid|not recommended|"
                          r"contraindicated|rejected|not indicated|history|prior)\)\s+",
                          re.IGNORECASE)


# JSON written as a note: '"serum_sodium_mmol_L": 126,' is the label 'serum sodium' with the
# value 126 mmol/L; '"avoid": [' heads the strings listed under it; '"Simvastatin 80 mg",' is
# one item of that list; a bracket alone carries nothing.
_JSON_BRACKETS = re.compile(r"^[\[\]{}]+,?$")
_JSON_MEMBER = re.compile(r'"([A-Za-z][\w -]*)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|([^,"\[\]{}]+))?'
                          r'\s*([\[{]?)')
_JSON_ELEMENT = re.compile(r'^"((?:[^"\\]|\\.)*)"\s*[,\]]*\s*}?,?$')
_KEY_UNIT = re.compile(
    r"_((?:mmol|umol|nmol|pmol|mosm|mg|ug|mcg|ng|pg|g|meq|miu|iu|u|cells|x10_\d+)_"
    r"(?:l|dl|ml|kg|ul|day|d|h|hr|min|m2)|percent|pct|kpa|mm_?hg|bpm|kg|cm|years|yr|weeks|days)$",
    re.IGNORECASE)
_UNIT_SPELLING = {"percent": "%", "pct": "%", "mm_hg": "mmHg", "mmhg": "mmHg"}


def _json_member(match: re.Match[str]) -> str:
    key, text, value, opens = match.group(1), match.group(2), match.group(3), match.group(4)
    value = (value or "").strip()
    unit = _KEY_UNIT.search(key)
    if unit and re.fullmatch(r"-?\d+(?:\.\d+)?", value):
        suffix = unit.group(1)
        suffix = _UNIT_SPELLING.get(suffix.lower(), suffix.replace("_", "/", 1))
        key, value = key[:unit.start()], value + ("" if suffix == "%" else " ") + suffix
    label = key.replace("_", " ")
    said = text if text is not None else value
    return f"{label}: {said}" if said else f"{label}:" + (" " if opens else "")


def _json_line(line: str) -> str | None:
    """A line of JSON as the note line it stands for, or None when it is not JSON."""
    if _JSON_BRACKETS.match(line):
        return ""
    line = re.sub(r'^[\[{]+\s*(?=")', "", line)  # '{"labs": {"k": 1}}' on one line
    if line.startswith('"') and _JSON_MEMBER.match(line):
        text = _JSON_MEMBER.sub(_json_member, line)
        text = re.sub(r"[\s,\[\]{}]+$", "", re.sub(r":\s*,\s*", ": ", text))
        return re.sub(r':"\s*', ": ", text).replace('", "', ", ").replace('"', "")
    element = _JSON_ELEMENT.match(line)
    if element:
        return "- " + element.group(1)
    return None


def _wrapped_on(raw: list[str], index: int, consumed: set[int]) -> str:
    """The lines a sentence cut off mid-way wraps onto: each opens in lower case, is no list
    item and no label, and the line above it does not end its sentence."""
    out = ""
    while index + 1 < len(raw) and not raw[index].rstrip().endswith((".", ";", ":", "!", "?")):
        after = raw[index + 1].strip()
        if not after[:1].islower() or _BULLET.match(after) or _LABEL.match(after):
            break
        index += 1
        consumed.add(index)
        out += " " + after
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _last_text_line(lines_before: list[str]) -> str:
    return next((line for line in reversed(lines_before) if line.strip()), "")


def _after_unknown_heading(section: str) -> str:
    """The section under a heading the lexicon does not know: a plan or an assessment goes on
    ('Plan' then 'Rate control'); a history, medication or data section has ended."""
    return section if section in ("plan", "assessment", "question", "options") else "body"


def _heads_a_list(line: str, rest: list[str]) -> bool:
    """Whether a short bare line titles the bullets under it ('Stroke prevention')."""
    following = next((r for r in rest if r.strip()), "")
    return (bool(_BULLET.match(following.strip())) and line[:1].isupper()
            and len(line) <= 40 and len(line.split()) <= 5
            and not re.search(r"\d|[.?!;,]$", line) and ":" not in line.rstrip(":")[:-1])


_SPOKEN_HEADING = re.compile(r"^([A-Z][a-z]+(?: [a-z]+)?)\.\s+((?:number|item|point)\s+(?:one|1)\b"
                             r".*|(?:first(?:ly)?|1[.)])[\s,].*|one,\s.*\btwo,\s.*)$",
                             re.IGNORECASE)  # 'One, ... Two, ...': a dictated list

# A dictated title opening its paragraph: 'Data. The aspirate ...', 'Recommendations, number one.'
_SPOKEN_TITLE = re.compile(r"^([A-Z][a-z]+(?: [a-z]+){0,2})(?:\.\s+|,\s+(?=(?:number|item|point)\s+"
                           r"(?:one|1)\b|first\b))(\S.*)$")


def _heading(line: str) -> tuple[str, str] | None:
    """(title, text after it) when the line is a heading: '# Plan', '**Plan**', 'PLAN:'."""
    match = _HEADING.match(line)
    if match:
        return _inline(match.group(1)).rstrip(":"), ""
    bold = re.match(r"^(\*\*|__)(.+?)\1\s*:?\s*(.*)$", line)
    label, colon, said = bold.group(2).partition(":") if bold else ("", "", "")
    if said.strip() and section_of(label.strip(), loose=True):  # '**Recommendation: stop
        return label.strip(), _inline(f"{said.strip()} {bold.group(3)}".strip())  # it now.**'
    if bold and section_of(bold.group(2).rstrip(": ."), loose=True):
        return bold.group(2).rstrip(": ."), _inline(bold.group(3))
    if line.endswith(":") and len(line) <= 60 and section_of(_inline(line[:-1])):
        return _inline(line[:-1]), ""
    spoken = _SPOKEN_HEADING.match(line)  # 'Recommendations. Number one, hold ...': a dictated
    if spoken and section_of(spoken.group(1)) in ("plan", "assessment"):  # title over its list
        return spoken.group(1), _inline(spoken.group(2))
    spoken = _SPOKEN_TITLE.match(line)  # 'History. This is his third flare ...' dictated
    if spoken and section_of(spoken.group(1)):
        return spoken.group(1), _inline(spoken.group(2))
    if (len(line) <= 40 and len(line.split()) <= 5 and not re.search(r":\s*\S|\d", line)
            and not _BULLET.match(line)  # '- Home sleep apnea testing' is an item
            and not (line.endswith(".") and len(line.split()) > 2)
            and section_of(_inline(line), loose=True)):  # not 'Follow up in 2 weeks.'
        return _inline(line), ""
    return None


_RESULT_SECTIONS = frozenset({"data", "history", "medications", "body"})


def _table_lines(rows: list[list[str]], section: str) -> list[Line]:
    """A table as lines: each row's first cell, then its other cells ('header value' for a
    cell that is a bare value)."""
    header = rows[0] if len(rows) > 1 else []
    header = [h.rstrip("?").rstrip() for h in header]  # 'Met?' names a column, asks nothing
    body = rows[1:] if header else rows
    dates = [_row_date(row) for row in body]
    newest = max((d for d in dates if d), default=None)
    out = []
    if header and any(section_of(h) for h in header[:1]) and not (
            section_of(header[0]) == "plan" and section in ("history", "medications", "data")):
        # '## Treatment so far' over '| Treatment | Detail |': the heading's report stands
        section = section_of(header[0]) or section
    schedule = bool(header) and bool(_STEP_HEADER.match(header[0]))
    planned = any(_PLAN_HEADER.fullmatch(h.strip()) for h in header)  # '| Step | Timing |'
    for index, (row, date) in enumerate(zip(body, dates, strict=False)):
        cells = [c for c in row]
        first, rest = (cells[0], cells[1:]) if cells else ("", [])
        if header and _TOTAL_ROW.fullmatch(first):  # 'Total | 2' under 'CHA2DS2-VASc item'
            first = f"{header[0]} {first}"
        parts = []
        for i, cell in enumerate(rest, start=1):
            if not cell:
                continue
            if _NEVER_CELL.fullmatch(cell) or _NO_CELL.fullmatch(cell) and i < len(header) and (
                    _USE_HEADER.fullmatch(header[i].strip())):
                cell = "avoid"  # '| NSAIDs incl. celecoxib | - | never |', '| Use? | no |'
            name = header[i] if i < len(header) else ""
            # 'TSH | Result 8.9' and 'Reason excluded ...' keep their label; a worded cell
            # under a generic header speaks for itself ('Stop (PCP messaged)' under 'Detail')
            if cell == "avoid":  # the verdict on the row's subject goes next to it
                parts.insert(0, cell)
                continue
            verdict = _BARE_VERDICT.match(cell)
            if verdict and verdict.group(1).lower() in _plan_verbs() and (
                    _VERDICT_HEADER.fullmatch(name.strip())):
                parts.insert(0, verdict.group(0).strip(" ,.;:-\u2013\u2014"))  # '| Naproxen |
                cell = cell[verdict.end():].strip()  # ... | Stop now; paracetamol |': the row's
                if not cell:  # subject stops; what follows the verdict is said on its own
                    continue
            if name and _NEW_HEADER.fullmatch(name.strip()) and re.match(r"[A-Za-z]", cell) and (
                    parts and parts[0].lower() in ("stop", "hold", "discontinue", "replace")):
                parts.append(f"instead {cell}")  # '| Ibuprofen | 400 mg | STOP | Acetaminophen
                continue  # 1 g |': what replaces it, which the verdict does not stop
            if name and (_PAST_HEADER.fullmatch(name.strip()) or _START_HEADER.fullmatch(
                    name.strip()) and _DATE_CELL.fullmatch(cell)):  # '| Start | 2017 |' too
                parts.append(f"on it since {cell}")  # '| Started | 28/10/2026 |': history,
                continue  # not a start
            labelled = name and not _same(name, cell) and (
                _VALUE_CELL.match(cell) or not _GENERIC_HEADER.fullmatch(name.strip().lower()))
            parts.append(f"{name} {cell}".strip() if labelled else cell)
        # what the row had before ('Current', 'Previous') goes last, so that a dose written in
        # the new regimen's cell is the row subject's, not a drug the old cell names
        if any(_NEW_HEADER.fullmatch(h.strip()) for h in header):  # (a lab table's 'Current'
            parts = [p for p in parts if not _OLD_CELL.match(p)] + [  # is today's value)
                p for p in parts if _OLD_CELL.match(p)]
        text = f"{first}: {', '.join(parts)}" if first and parts else first or ", ".join(parts)
        # a table of results dates its rows; a plan's dates are when things will be done
        latest = None if date is None or section not in _RESULT_SECTIONS or planned else (
            date == newest)
        out.append(Line(text, section, "row", latest, schedule and index > 0))
    return out


# A cell that opens with a plan verb and nothing for it to act on: '**Stop now**; ...'
_BARE_VERDICT = re.compile(r"\s*([A-Za-z/-]+(?: (?!now\b|today\b|tonight\b|immediately\b|at\b)"
                           r"[a-z]+)?)(?:\s+(?:now|today|tonight|immediately|at once))?\s*"
                           r"(?:[,.;:]|\s[-\u2013\u2014]\s|$|\s+(?=\(|(?:during|until|till|while|"
                           r"pending|for now|for the)\b))", re.IGNORECASE)  # 'Stop - taper: ...'
_VERDICT_HEADER = re.compile(r"(?:actions?|plan|decisions?|recommendations?|management|"
                             r"what to do|verdict|changes?)", re.IGNORECASE)
_PAST_HEADER = re.compile(r"(?:started|start date|date started|since|began|begun|initiated|"
                          r"first prescribed|prescribed on|onset)", re.IGNORECASE)


_OLD_CELL = re.compile(r"(?:current|previous|prior|was|old|before)\b"
                       r"(?!\s*(?:dose\s+)?(?:->|\u2192))", re.IGNORECASE)
_NEW_HEADER = re.compile(r"(?:new|new regimen|replacement|instead|after)", re.IGNORECASE)
_START_HEADER = re.compile(r"(?:start|start year|year started|from)", re.IGNORECASE)
_DATE_CELL = re.compile(r"\s*(?:(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|"
                        r"(?:\d{1,2}\s+)?[A-Za-z]{3,9}\.?\s+(?:19|20)\d\d)\s*")


def _own_line(previous: str, text: str) -> bool:
    """Whether a line stands on its own rather than wrapping the one above: after a short entry
    with a number or a dash that does not break off mid-phrase ('Oxybutynin XL 10 mg od -
    DISCONTINUE' then 'Donepezil 5 mg od - continue'), a line opening with a capital or a
    number (a short title with neither, 'Tests I would avoid', heads the line after it)."""
    entry = re.sub(r"^\W*#?\d{1,2}[.)]?\s+", "", previous)  # not a '#3 Omeprazole' title
    return len(previous) <= 60 and bool(re.search(r"\d| - |->", entry)) and bool(
        re.match(r"[A-Z0-9]", text)) and not previous.rstrip().endswith(":") and not re.search(
        r"(?:\b(?:and|or|of|the|to|with|a|an|for|in|on|at|by|from|is|are|was|were|than|but|"
        r"if|that|which|her|his|their|per|plus|then)|[,(/&+-])\s*$", previous, re.IGNORECASE)


def _scopes_items(label: str) -> bool:
    """Whether a label line says something of each item listed under it: a decision ('STOP',
    'Referrals', 'Do not prescribe'), a time ('Labs in 1 week', 'At 3 months', 'Today') or a
    condition ('Consider if eGFR < 20') - not a topic ('Differential', 'Current data')."""
    words = re.findall(r"[a-z]+", label.lower())
    if not words or any(label.lower().startswith(f) for side in verb_table()["switch"].values()
                        for f in side):
        return False  # 'Cross-taper, first step today:' over the drug started and the one
        # tapered off: each item says its own part
    return words[0] in _plan_verbs() or words[0] in _SCOPING_WORDS or bool(
        _TIME_IN_LABEL.search(label))


_SCOPING_WORDS = frozenset({"referrals", "refer", "consider", "if", "when", "once", "pending",
                            "do", "don't", "never", "not", "no", "avoid", "hold", "stop",
                            "start", "new", "orders", "ordered", "requested", "today",
                            "tomorrow", "next", "then", "later", "after", "within", "by",
                            "options", "alternatives", "choices"})
_TIME_IN_LABEL = re.compile(r"\b(?:in|at|within|by|after|over)\s+(?:~\s*)?\d+(?:\s*[-–]\s*\d+)?"
                            r"\s*(?:h|hrs?|hours?|d|days?|wks?|weeks?|mo|mos|months?|y|yrs?|years?)"
                            r"\b|^\W*\d+(?:\s*[-–]\s*\d+)?\s*(?:h|hrs?|hours?|d|days?|wks?|"
                            r"weeks?|mo|mos|months?|y|yrs?|years?)\b|\b(?:today|tomorrow|next "
                            r"(?:week|month|visit)|this week)\b", re.IGNORECASE)


@functools.cache
def _plan_verbs() -> frozenset[str]:
    return frozenset(form.lower() for forms in verb_table().values() for side in forms.values()
                     for form in side)


_NEVER_CELL = re.compile(r"\s*(?:never|never again|not ever|do not use|don't use)\s*\.?\s*",
                         re.IGNORECASE)
_NO_CELL = re.compile(r"[\s*]*(?:no|x|\(excluded\)|not recommended|not used)[\s*]*\.?\s*",
                      re.IGNORECASE)
_USE_HEADER = re.compile(r"(?:use|used|ok|okay|appropriate|suitable|recommended|chosen|choose|"
                         r"select(?:ed)?|usable|option|acceptable)\b.{0,15}", re.IGNORECASE)
_TOTAL_ROW = re.compile(r"\s*(?:total|total score|sum|score)\s*:?\s*", re.IGNORECASE)
_GENERIC_HEADER = re.compile(r"(?:details?|frequency|freq|"
                             r"dose|dosing|route|comments?|notes?|items?|drugs?|tests?|"
                             r"drug\s*/\s*test|agents?|what|when|how|instructions?|sig|"
                             r"schedule|interval|specifics|recommendations?|actions?|plan|"
                             r"decision|management|status)")
_VALUE_CELL = re.compile(r"\s*(?:[<>=~]|\*\*)*\s*[-+]?\d")
_PLAN_HEADER = re.compile(r"(?:step|timing|when|due|purpose|action|plan|next steps?|"
                          r"recommendations?|target date|scheduled?)", re.IGNORECASE)
_STEP_HEADER = re.compile(r"\s*(?:weeks?|wks?|days?|step|phase|period|time|when|stage|dates?)\b",
                          re.IGNORECASE)


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
