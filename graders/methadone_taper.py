"""methadone_taper: derivations for a patient on opioid treatment program (OTP) methadone who asks
about tapering. The readiness draw decides the plan (a slow voluntary taper when stable; continue
maintenance, no taper now, after recent fentanyl use); the dose draw sets the methadone dose
every note must report."""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import FILE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.notes import read_in_context
from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def _codes(ingredients: tuple[str, ...]) -> list[str]:
    """RxNorm codes of the terminology whose ingredient is one of these (salt names included)."""
    return [
        RX + c.code
        for c in terminology.all_concepts("rxnorm")
        if any(i in c.extra["ingredient"].lower() for i in ingredients)
    ]


def methadone_taper(values: dict[str, Any]) -> dict[str, Any]:
    dose = int(values["dose"])
    kind = values["readiness"]["kind"]
    if kind not in ("stable", "recent_use"):
        raise ValueError(f"unknown readiness {kind!r}")
    # Label: reductions < 10% of the maintenance dose every 10-14 days; the first step shown in
    # the reference note is 5 mg (about 5%), never more than 10% of the dose.
    first_step = 5 if dose <= 100 else 10
    return {
        "old_dose": dose - 30,
        "first_step": first_step,
        "first_target": dose - first_step,
        "methadone_rxnorm": _codes(("methadone",)),
        "naltrexone_rxnorm": _codes(("naltrexone",)),
        # Krantz 2009 rec 3: an additional ECG when the dose exceeds 100 mg/day.
        "ecg_dose_text": "; an ECG is also due above 100 mg/day" if dose > 100 else "",
    }


# Taper pace (review finding 2). DOLOPHINE label: reductions < 10% of the maintenance dose at
# 10-14 day intervals (a course of months). The check allows slack for rounding (a step up to
# 11.2% of the dose, e.g. 10 mg from 90 mg, and up to 10% of the dose per 7 days overall) and
# fails a step larger than that, reductions under 7 days apart, or "off in N weeks" under 12 weeks.
_REDUCING = re.compile(
    r"\b(?:taper\w*|reduc\w*|decreas\w*|wean\w*|lower\w*|cut\w*|drop\w*)\b", re.IGNORECASE
)
_REFUSED = re.compile(
    r"\b(?:no|not|never|avoid\w*|faster|rapid\w*|too|than|instead|rather)\b", re.IGNORECASE
)
_EVERY_WORD = re.compile(
    r"\b(?:every|each|per)\s+(other\s+)?(day|week)\b|\b(?:weekly|daily)\s+"
    r"(?:steps?|reductions?|decrements?|decreases?)\b",
    re.IGNORECASE,
)
_DAYS = {"d": 1, "wk": 7, "mo": 30, "y": 365}


def _before(text: str, at: int, width: int = 14) -> str:
    return text[max(0, at - width) : at].lower()


def _pace_problem(clause: Any, dose: float) -> str | None:
    """Why a reducing clause's taper is too fast, or None."""
    text = clause.text
    steps, intervals, courses = [], [], []
    for q in clause.quantities:
        before = _before(text, q.start)
        if re.search(r"\b(?:to|until|below|under|above|at|from)\s*(?:about\s*|~)?$", before):
            continue  # a target or threshold ('to 40 mg', 'below 30 mg'), not a step
        if q.unit == "mg" and q.role in ("delta", "") and q.value < 0.5 * dose:
            steps.append(q.value / dose)
        elif q.unit == "%" and q.role not in ("limit", "reference"):
            steps.append(q.value / 100)
        elif q.unit in _DAYS:
            days = q.value * _DAYS[q.unit]
            if re.search(r"(?:every|each|q|per)\s*$", before):
                intervals.append(days)
            elif re.search(
                r"\b(?:in|within|over)\s+(?:about\s+|around\s+|approximately\s+)?$", before
            ) and re.search(r"\boff\b|\bover\b", text, re.IGNORECASE):
                courses.append(days)
    for match in _EVERY_WORD.finditer(text):
        intervals.append(
            2 if match.group(1) else 1 if (match.group(2) or "").lower() == "day" else 7
        )
    if steps and max(steps) > 0.112:
        return f"a step of {max(steps):.0%} of the dose"
    if intervals and min(intervals) < 7:
        return f"reductions {min(intervals):g} days apart"
    if steps and intervals and max(steps) / min(intervals) > 0.10 / 7 + 1e-9:
        return f"{max(steps):.0%} of the dose every {min(intervals):g} days"
    if courses and min(courses) < 84:
        return f"off methadone in {min(courses):g} days"
    return None


@triggered_by(FILE)
def taper_pace(ctx: GradingContext) -> CheckpointResult:
    """No methadone taper faster than the label's pace (see above) is planned in the note."""
    text = ctx.note()
    if not text:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    dose = float(ctx.values["dose"])
    for clause in note:
        if clause.reporting or not _REDUCING.search(clause.text) or _REFUSED.search(clause.text):
            continue
        problem = _pace_problem(clause, dose)
        if problem:
            return CheckpointResult(False, f'taper too fast ({problem}): "{clause.text[:90]}"')
    return CheckpointResult(True, "no methadone taper faster than <10% every 10-14 days")


_SPLIT = re.compile(
    r"^\W{0,3}(?:po\s+|orally\s+|by mouth\s+)?(?:twice|two times|2 times|bid\b|b\.i\.d|"
    r"q\s?12|every 12|in (?:two|2) divided|split)",
    re.IGNORECASE,
)


@triggered_by(FILE)
def one_daily_dose(ctx: GradingContext) -> CheckpointResult:
    """The {dose} mg is one daily dose: a note stating it twice daily (a daily total of twice
    the dose, 'methadone 90 mg twice daily (180 mg/day)') misreports the regimen."""
    text = ctx.note()
    if not text:
        return CheckpointResult(False, "no note")
    dose = float(ctx.values["dose"])
    for clause, _ in read_in_context(ctx, text).mentions(
        "methadone"
    ):
        for q in clause.quantities:
            if (
                q.unit == "mg"
                and q.value == dose
                and _SPLIT.search(clause.text[q.end : q.end + 25])
            ):
                return CheckpointResult(
                    False, f'states {dose:g} mg twice daily: "{clause.text[:90]}"'
                )
    return CheckpointResult(True, f"{dose:g} mg stated as one daily dose")


_TAPER_WORD = re.compile(r"\b(?:taper\w*|dose reductions?|wean\w*)\b", re.IGNORECASE)
_PUT_OFF = re.compile(
    r"\b(?:too early|too soon|premature\w*|defer\w*|postpon\w*|hold off|"
    r"revisit|not (?:yet|now|at this time)|wait\w*|later date)\b",
    re.IGNORECASE,
)
_TRIGGER = re.compile(
    r"\b(?:if|should|when|whenever|unless|cravings?|withdrawal|relapses?|"
    r"uses|pause\w*|slow\w*)\b",
    re.IGNORECASE,
)


@triggered_by(FILE)
def taper_not_deferred(ctx: GradingContext) -> CheckpointResult:
    """Stable branch: the taper question is answered now, not put off to a later review ('too
    early to say whether a taper makes sense ... revisit the question of tapering in 6 months').
    A pause or review tied to a trigger ('if cravings, pause the taper') is fine."""
    text = ctx.note()
    if not text:
        return CheckpointResult(False, "no note")
    for clause in read_in_context(ctx, text):
        if (
            not clause.reporting
            and _TAPER_WORD.search(clause.text)
            and _PUT_OFF.search(clause.text)
            and not _TRIGGER.search(clause.text)
        ):
            return CheckpointResult(False, f'puts the taper decision off: "{clause.text[:90]}"')
    return CheckpointResult(True, "the taper decision is not put off")


_OFFICE_RX = re.compile(
    r"\b(?:I|we|PCP|primary care|you|your office|clinic)\b[^.;:]{0,40}?"
    r"\b(?:prescrib\w*|write|writes|writing)\b",
    re.IGNORECASE,
)
_NOT = re.compile(
    r"\b(?:not|no|never|cannot|can't|don't|shouldn't|nor|only|avoid\w*|instead of)\b", re.IGNORECASE
)


@triggered_by(FILE)
def no_office_methadone(ctx: GradingContext) -> CheckpointResult:
    """The note does not have the consultant or the PCP prescribe methadone for the OUD taper
    ('I will prescribe methadone 5 mg tablets', 'PCP to prescribe methadone 85 mg daily'):
    OUD methadone is dispensed only by an OTP (42 CFR 8.12)."""
    text = ctx.note()
    if not text:
        return CheckpointResult(False, "no note")
    for clause, _ in read_in_context(ctx, text).mentions(
        "methadone"
    ):
        if not clause.reporting and _OFFICE_RX.search(clause.text) and not _NOT.search(clause.text):
            return CheckpointResult(
                False, f'methadone prescribed outside the OTP: "{clause.text[:90]}"'
            )
    return CheckpointResult(True, "no methadone prescription outside the OTP in the note")


_HEDGED = re.compile(
    r"\b(?:not|no|never|against|don't|consider\w*|could|might|may|possibl\w*|"
    r"perhaps|options?|alternative\w*|whether|once|later|future|"
    r"insists?|prefers?|wants?|wishes|asks?|requests?)\b",
    re.IGNORECASE,
)


_NOT_COMMITTED = (
    "POSSIBLE",
    "CONDITIONAL",
    "COUNTERFACTUAL",
    "ALTERNATIVE",
    "HISTORICAL",
    "FAMILY",
    "NEGATED",
)


@triggered_by(FILE)
def taper_planned(ctx: GradingContext) -> CheckpointResult:
    """Stable branch: a committed methadone decrease ('taper methadone by 5 mg every 2 weeks'),
    or a committed plan for a taper written without naming methadone in the clause ('Slow,
    voluntary taper at the OTP: 5 mg every 2 weeks'; 'I agree with a gradual dose reduction
    supervised by the OTP'): the note is about the one drug, methadone. Hedged,
    refused, conditional or wished-for tapers do not count; opposites are checked elsewhere."""
    text = ctx.note()
    if not text:
        return CheckpointResult(False, "no note")
    note = read_in_context(ctx, text)
    for clause, mention in note.mentions("methadone"):
        if (
            mention.action is not None
            and mention.decision == "decrease"
            and not clause.reporting
            and not mention.has(*_NOT_COMMITTED)
        ):
            return CheckpointResult(True, f'plans a methadone taper: "{clause.text[:90]}"')
    for clause in note:
        if (
            not clause.reporting
            and clause.section != "question"
            and "?" not in clause.text
            and _TAPER_WORD.search(clause.text)
            and not _HEDGED.search(clause.text)
            and not _PUT_OFF.search(clause.text)
        ):
            return CheckpointResult(True, f'plans a taper: "{clause.text[:90]}"')
    return CheckpointResult(False, "no committed taper plan")
