"""Chronic cough (> 8 weeks) with a normal chest X-ray: the empiric step the chart points to.

CHEST 2006/2018 and ERS 2020: stop an ACE inhibitor in anyone with chronic cough (an ARB or
another class may replace it); with blood eosinophils >= 0.3 x10^9/L (or a raised FeNO) and
normal spirometry, treat cough-variant asthma / non-asthmatic eosinophilic bronchitis with an
inhaled corticosteroid trial; with heartburn or regurgitation, treat reflux with a PPI; no
empiric PPI without reflux features, no antibiotic, no codeine or other opioid antitussive.
"""

from __future__ import annotations

from typing import Any

EOS_CUTOFF = 0.3  # x10^9/L, ERS 2020 (Morice et al.) predictor of ICS response


def cough_step(values: dict[str, Any]) -> dict[str, Any]:
    """The blood eosinophil count of this instance and the branch-specific texts."""
    cause = values["cause"]["name"]
    step = int(values["eos_step"])
    if cause == "eosinophilic":
        eos = round(0.42 + 0.04 * step, 2)
    else:
        eos = round(0.08 + 0.01 * step, 2)
    if (eos >= EOS_CUTOFF) != (cause == "eosinophilic"):
        raise ValueError(f"eosinophils {eos} do not fit the {cause} branch")
    return {
        "eos": eos,
        "eos_text": f"{eos:.2f}",
        "eos_cells": int(round(eos * 1000)),
        "eos_level": "raised" if eos >= EOS_CUTOFF else "normal",
        "onset_to_now_months": int(values["cough_months"]),
    }
