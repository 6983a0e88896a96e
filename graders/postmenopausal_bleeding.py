"""postmenopausal_bleeding: a thickened endometrial stripe after postmenopausal bleeding needs
tissue.

ACOG Committee Opinion 734 (2018, reaffirmed 2023): an endometrial thickness of 4 mm or less has a
negative predictive value above 99% for endometrial cancer; above 4 mm the endometrium is sampled.
If blind sampling does not show hyperplasia or malignancy and the bleeding persists or recurs,
hysteroscopy with dilation and curettage follows.

- thick_unsampled (canonical): stripe {et_mm} mm, nothing sampled yet -> office endometrial biopsy
  (CPT 58100) or hysteroscopy with directed sampling (CPT 58558; CO 734 names office hysteroscopy).
- insufficient_biopsy: the same stripe, an office biopsy 3 weeks ago gave scant tissue insufficient
  for diagnosis and the bleeding recurred -> hysteroscopy with D&C (CPT 58558), not another blind
  biopsy.
"""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import matches_code, patient_id

CPT = "http://www.ama-assn.org/go/cpt|"
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm|"
# Tabled drugs that would be empiric treatment of the bleeding: DMPA, norethindrone, tranexamic
# acid.
EMPIRIC_RXNORM = ["1000126", "198042", "883826"]
# Transvaginal, pelvic complete and pelvic limited/follow-up ultrasound (76831 saline infusion
# sonohysterography is another test and is not listed).
REPEAT_US_CPT = ["76830", "76856", "76857"]
SAMPLING_CPT = [CPT + "58100", CPT + "58558"]

_ULTRASOUND = re.compile(r"ultraso|sonogra|\btvus?\b|\btvs\b|\bus\b", re.IGNORECASE)
_SONOHYSTERO = re.compile(r"sonohyster|saline[\s-]+infusion", re.IGNORECASE)
_BLIND_BIOPSY = re.compile(r"endometrial\s+(?:biops|sampl|aspirat)|pipelle", re.IGNORECASE)
_HYSTEROSCOPY = re.compile(r"hysteroscop", re.IGNORECASE)
_SAMPLING = re.compile(r"endometrial\s+(?:biops|sampl|aspirat)|pipelle|hysteroscop", re.IGNORECASE)


def postmenopausal_bleeding(values: dict[str, Any]) -> dict[str, Any]:
    et = int(values["et_mm"])
    if et <= 4:
        raise ValueError(f"endometrial thickness {et} mm is not thickened; outside the design")
    insufficient = values["scenario"] == "insufficient_biopsy"
    return {
        "step": "hysteroscopy" if insufficient else "biopsy",
        "step_cpt": CPT + ("58558" if insufficient else "58100"),
        "empiric_rxnorm": [RXNORM + c for c in EMPIRIC_RXNORM],
        "repeat_us_codes": [CPT + c for c in REPEAT_US_CPT],
        "blind_biopsy_codes": [CPT + "58100"],
        "bleeding_text": (
            "an office endometrial biopsy 3 weeks ago returned scant tissue insufficient for "
            "diagnosis, and she has had two more days of bleeding since"
            if insufficient
            else "no endometrial sampling has been done yet"
        ),
    }


def _names(resource: dict[str, Any]) -> str:
    """The order's own name: code displays and text (not its reason or notes)."""
    code = resource.get("code") or {}
    concept = code.get("concept", code) if isinstance(code, dict) else {}
    parts = [concept.get("text") or ""] + [
        c.get("display") or "" for c in concept.get("coding", [])
    ]
    return " ".join(parts)


@triggered_by(WRITE)
def sampling_orders_clean(ctx: GradingContext) -> CheckpointResult:
    """No repeat ultrasound ordered under any code, one sampling order only, and on the
    insufficient_biopsy branch no second blind (office/Pipelle) biopsy under any code."""
    orders = [r for r in ctx.written("ServiceRequest") if patient_id(r) == ctx.patient_id]
    insufficient = ctx.values["scenario"] == "insufficient_biopsy"
    sampling = 0
    for order in orders:
        name = _names(order)
        if matches_code(order, ctx.values["repeat_us_codes"]) or (
            _ULTRASOUND.search(name) and not _SONOHYSTERO.search(name)
        ):
            return CheckpointResult(False, f"repeat pelvic ultrasound ordered: {name!r}")
        is_hysteroscopy = matches_code(order, [CPT + "58558"]) or _HYSTEROSCOPY.search(name)
        if (
            insufficient
            and not is_hysteroscopy
            and (
                matches_code(order, ctx.values["blind_biopsy_codes"]) or _BLIND_BIOPSY.search(name)
            )
        ):
            return CheckpointResult(False, f"repeat blind endometrial biopsy ordered: {name!r}")
        if matches_code(order, SAMPLING_CPT) or _SAMPLING.search(name):
            sampling += 1
    if sampling > 1:
        return CheckpointResult(False, f"{sampling} endometrial sampling orders (duplicate)")
    return CheckpointResult(
        True, "no repeat ultrasound, repeat blind biopsy or duplicate sampling order"
    )
