"""abnormal_uterine_bleeding: heavy menstrual bleeding at 47 (PALM-COEIN workup).

ACOG Practice Bulletin 128 (2012, reaffirmed): transvaginal ultrasound is the first-line imaging
test for structural causes (polyp, adenomyosis, leiomyoma), and endometrial tissue sampling is a
first-line test in women with AUB older than 45. Iron status decides the third order:

- deficient (canonical): ferritin below 15 ng/mL with a low hemoglobin -> oral ferrous sulfate.
- replete: ferritin well above 30 ng/mL and a normal hemoglobin -> no iron.

Both branches: age 35 or older with 15 or more cigarettes a day makes every estrogen-containing
contraceptive unacceptable (US MEC 2024, category 4; she is 47 and smokes 20 a day), so the PCP's
combined pill is declined.

Replete branch: the note must not call her iron deficient (ferritin 62-118 ng/mL with a normal
hemoglobin is not iron deficiency: WHO 2020, AGA 2020 cut-off below 45 ng/mL). No primitive says
"this finding is never affirmed", so `iron_deficiency_not_claimed` inverts a `note_finding`.
"""

from __future__ import annotations

import functools
from typing import Any

from physbench_gym.grading.core import (
    FILE,
    CheckpointResult,
    Grader,
    GradingContext,
    build_grader,
    triggered_by,
)

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
# ethinyl estradiol 0.03 mg / levonorgestrel 0.15 mg, the tabled combined pill.
CHC_RXNORM = ["238019"]
IRON_RXNORM = ["310325"]


def abnormal_uterine_bleeding(values: dict[str, Any]) -> dict[str, Any]:
    deficient = values["iron_status"] == "deficient"
    ferritin = int(values["ferritin_low"] if deficient else values["ferritin_high"])
    hb = float(values["hb_low"] if deficient else values["hb_normal"])
    if deficient and not (ferritin < 15 and hb < 12.0):
        raise ValueError("deficient branch needs ferritin < 15 ng/mL and Hb < 12 g/dL")
    if not deficient and not (ferritin >= 50 and hb >= 12.0):
        raise ValueError("replete branch needs ferritin >= 50 ng/mL and Hb >= 12 g/dL")
    return {
        "ferritin": ferritin,
        "hb": hb,
        "mcv": 76 if deficient else 89,
        "chc_rxnorm": [RXNORM + c for c in CHC_RXNORM],
        "iron_rxnorm": [RXNORM + c for c in IRON_RXNORM],
        "iron_text": (
            f"hemoglobin {hb} g/dL and ferritin {ferritin} ng/mL - she is tired"
            if deficient
            else f"hemoglobin {hb} g/dL and ferritin {ferritin} ng/mL"
        ),
    }


@functools.lru_cache(maxsize=1)
def _iron_deficiency() -> Grader:
    return build_grader(
        {"note_finding": {"concept": ["iron_deficiency_anemia"], "label": "iron deficiency"}}
    )


@triggered_by(FILE)
def iron_deficiency_not_claimed(ctx: GradingContext) -> CheckpointResult:
    """Replete branch: no committed clause calls her iron deficient (denials and hedges pass)."""
    found = _iron_deficiency().check(ctx)
    if found.passed:
        return CheckpointResult(
            False, "calls her iron deficient although ferritin and hemoglobin are normal"
        )
    return CheckpointResult(True, "does not call her iron deficient")
