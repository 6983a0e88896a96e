"""methadone_taper: derivations for a patient on opioid treatment program (OTP) methadone who asks
about tapering. The readiness draw decides the plan (a slow voluntary taper when stable; continue
maintenance, no taper now, after recent fentanyl use); the dose draw sets the methadone dose
every note must report."""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def _codes(ingredients: tuple[str, ...]) -> list[str]:
    """RxNorm codes of the terminology whose ingredient is one of these (salt names included)."""
    return [RX + c.code for c in terminology.all_concepts("rxnorm")
            if any(i in c.extra["ingredient"].lower() for i in ingredients)]


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
