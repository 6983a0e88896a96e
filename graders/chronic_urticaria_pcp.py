"""Chronic spontaneous urticaria still active on an up-dosed antihistamine (primary care).

EAACI/GA2LEN/EuroGuiDerm/APAAACI 2022 (Zuberbier, Allergy 2022;77:734-766): second-generation
H1-antihistamine at standard dose, then up to fourfold; if still uncontrolled after 2-4 weeks
at the fourfold dose, add omalizumab 300 mg every 4 weeks. A patient whose PCP stopped at
twice the standard dose (cetirizine 10 mg twice daily) has not finished step 2 and goes to the
fourfold dose first (cetirizine 20 mg twice daily); a patient already at 20 mg twice daily for
at least 4 weeks goes on to omalizumab (referral to the allergy clinic that starts it).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

STANDARD_MG_PER_DAY = 10.0  # cetirizine adult label dose
FOURFOLD_MG_PER_DAY = 4 * STANDARD_MG_PER_DAY


def urticaria_step(values: dict[str, Any]) -> dict[str, Any]:
    """Band of the UAS7, the antihistamine step reached, and the next step."""
    uas7 = int(values["uas7"])
    if not 16 <= uas7 <= 42:
        raise ValueError(f"UAS7 {uas7} is not moderate-to-severe activity")
    step = values["ah_step"]
    daily = float(step["dose_mg"]) * 2  # the chart's regimen is twice daily
    fold = daily / STANDARD_MG_PER_DAY
    if int(values["step_weeks"]) < 4:
        raise ValueError("the current regimen must have had at least 4 weeks")
    months = int(values["csu_months"])
    since = (values["now"] - timedelta(days=int(months * 30.5) + 14)).date().isoformat()
    at_ceiling = daily >= FOURFOLD_MG_PER_DAY
    return {
        "uas7_band": "severe" if uas7 >= 28 else "moderate",
        "current_daily_mg": int(daily),
        "current_fold": int(fold),
        "next_step": "omalizumab" if at_ceiling else "updose",
        "notes_since": since,
        "cetirizine_rxnorm": "1014678",
        "diphenhydramine_rxnorm": "1049909",
        "prednisone_rxnorm": "312615",
    }
