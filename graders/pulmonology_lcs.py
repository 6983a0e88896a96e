"""Screening-eligibility grader of incidental_pulmonary_findings.

The brief asks for lung cancer screening eligibility under USPSTF 2021 (the standard CMS
coverage follows). Other guidelines reach other verdicts for the same man: the ACS 2023
guideline dropped the years-since-quit criterion (Wolf AMD et al., CA Cancer J Clin
2024;74:50-81), so a former smoker who quit 18 years ago with 41 pack-years is eligible under
ACS and not under USPSTF. A note that gives the USPSTF verdict and adds the other guideline's
verdict, attributed to that guideline ('... he is not eligible under USPSTF 2021; under the ACS
2023 guideline, which removed the years-since-quit criterion, he is eligible'), does not
contradict itself.

So the note is read as ``note_finding`` reads it (the instance's verdict, its opposite never
affirmed), after leaving out the parts of a sentence that attribute a verdict to another
guideline and do not name USPSTF: a sentence, or a part of one after ';', 'but', 'whereas',
'although' or 'while'. A verdict with no guideline named, or one attributed to USPSTF, is read
as before, so 'he is eligible for annual LDCT' still contradicts the not-eligible verdict, and an
ACS verdict alone states no USPSTF verdict.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from physbench_gym.grading.core import (
    FILE,
    CheckpointResult,
    Grader,
    GradingContext,
    build_grader,
    triggered_by,
)

_NEAR = ["lung_cancer_screening", "ldct", "screening_eligible", "screening_ineligible"]
_OTHER_NAME = r"(?:ACS|American Cancer Society|NCCN|National Comprehensive Cancer Network)"
# another guideline named as a guideline ('ACS 2023', 'the ACS guideline', 'under ACS'), not
# 'ACS' as acute coronary syndrome ('ACS ruled out')
_OTHER = re.compile(
    rf"\b{_OTHER_NAME}(?:'s)?\s+(?:\(?20\d\d\)?|(?:lung cancer screening\s+)?(?:guidelines?"
    r"|criteria|recommendations?|update))\b"
    rf"|\b(?:under|per|by|according to|using|following)\s+(?:the\s+)?(?:20\d\d\s+)?{_OTHER_NAME}\b",
    re.IGNORECASE)
_OURS = re.compile(r"\b(?:USPSTF|U\.?\s?S\.? Preventive Services Task Force)\b", re.IGNORECASE)
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z(*\-])|\s*;\s*|,?\s+(?=(?:but|whereas|although|"
                       r"though|while)\s)", re.IGNORECASE)


def without_other_guidelines(text: str) -> str:
    """The note with the sentence parts that attribute a verdict to another guideline (and do
    not name USPSTF) left out; lines and headings stay where they are."""
    lines = []
    for line in text.split("\n"):
        parts, start = [], 0
        for match in _BOUNDARY.finditer(line):
            parts.append(line[start:match.start()])
            parts.append(match.group(0))
            start = match.end()
        parts.append(line[start:])
        kept = [part if i % 2 or not (_OTHER.search(part) and not _OURS.search(part)) else ""
                for i, part in enumerate(parts)]
        lines.append("".join(kept))
    return "\n".join(lines)


@functools.lru_cache(maxsize=16)
def _finding(concept: tuple[str, ...], opposite: tuple[str, ...], label: str) -> Grader:
    return build_grader({"note_finding": {"concept": list(concept), "opposite": list(opposite),
                                          "near": _NEAR, "label": label}})


@triggered_by(FILE)
def screening_eligibility(ctx: GradingContext) -> CheckpointResult:
    """The instance's USPSTF 2021 verdict stated and its opposite never stated, verdicts
    attributed to another guideline aside."""
    text = ctx.note()
    if text is None:
        return CheckpointResult(False, "no note")
    grader = _finding(tuple(ctx.values["lcs_concept"]), tuple(ctx.values["lcs_opposite_concept"]),
                      str(ctx.values["lcs_label"]))
    files = dict(ctx.files)
    files[ctx.note_path] = without_other_guidelines(text)
    return grader.check(replace(ctx, files=files))
