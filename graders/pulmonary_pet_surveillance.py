"""pulmonary_pet_surveillance: a lung nodule on the surveillance PET/CT of a treated laryngeal
cancer, and the follow-up its size, FDG uptake and comparison with prior imaging call for.

Fleischner 2017 does not apply (known primary cancer). The nodule profile decides:
- biopsy: a new solid nodule of 9-18 mm with SUVmax 3.2-7.7, above the mediastinal blood pool
  -> tissue sampling (ACCP 2013 high pretest probability; Lung-RADS v2022 4B); no repeat PET.
- short_ct: a new solid nodule of 6-7 mm, uptake at or below the blood pool, too small for PET
  to exclude malignancy -> diagnostic chest CT in about 3 months (Lung-RADS v2022 4A); no
  biopsy now, no repeat PET.
- routine: a 4-6 mm non-avid nodule already present, same size, on the staging chest CT more
  than 2 years ago -> benign behavior, no nodule-specific imaging; routine cancer surveillance
  with the annual low-dose CT his smoking history calls for (next in about 12 months).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.resources import patient_id, placed
from physbench_gym.synth.dates import resolve_date

CPT = "http://www.ama-assn.org/go/cpt"
# Diagnostic chest CT (without, with, without-then-with contrast) and the low-dose CT.
CHEST_CT = ["71250", "71260", "71270", "24627-2"]
LDCT = ["71271"]
BIOPSY = [f"{CPT}|{c}" for c in ("32408", "31628", "31629", "31627", "31652", "31653", "31654")]

PROFILES = {
    "biopsy": {"lobe": "right upper lobe", "lobe_short": "RUL", "margins": "spiculated margins"},
    "short_ct": {"lobe": "left lower lobe", "lobe_short": "LLL", "margins": "smooth margins"},
    "routine": {"lobe": "right lower lobe", "lobe_short": "RLL", "margins": "smooth margins"},
}


def nodule_followup(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["profile"]
    size_draw, suv_draw = int(values["size_draw"]), int(values["suv_draw"])
    if kind == "biopsy":
        size, suv = 9 + size_draw, round(3.2 + 0.5 * suv_draw, 1)
    elif kind == "short_ct":
        size, suv = 6 + size_draw % 2, round(0.8 + 0.1 * (suv_draw % 7), 1)
    elif kind == "routine":
        size, suv = 4 + size_draw % 3, round(0.6 + 0.1 * (suv_draw % 5), 1)
    else:
        raise ValueError(f"unknown nodule profile {kind!r}")
    now = values["now"]
    window = {"short_ct": (56, 124, 90), "routine": (270, 456, 350)}.get(kind)
    derived: dict[str, Any] = {
        **PROFILES[kind],
        "size_mm": size, "long_mm": size + 1, "short_mm": size - 1, "suv": suv,
        "blood_pool_suv": 2.0, "liver_suv": 2.7,
        "staging_date": resolve_date("-2y-10m", now).date().isoformat(),
        "post_pet_date": resolve_date("-2y-5m", now).date().isoformat(),
        "prior_pet_date": resolve_date("-1y-5m", now).date().isoformat(),
        "pet_date": resolve_date("-2w", now).date().isoformat(),
        "is_new": kind != "routine",
        # A new nodule is named as new ('new RUL nodule', 'new 14 mm solid RUL nodule', 'new
        # since the staging CT', 'absent on the prior PET/CT'); it is never called present before.
        # The routine nodule is called unchanged or stable since staging, never new.
        "nodule_status_concept": ["new_nodule"] if kind != "routine"
        else ["nodule_unchanged", "stability"],
        "nodule_status_opposite": ["nodule_unchanged"] if kind != "routine"
        else ["new_nodule"],
        "nodule_status_label": "new since the prior imaging" if kind != "routine"
        else "unchanged since the staging chest CT",
    }
    if window:
        low, high, target = window
        derived.update(
            window_low=(now + timedelta(days=low)).date().isoformat(),
            window_high=(now + timedelta(days=high)).date().isoformat(),
            occurrence=(now + timedelta(days=target)).date().isoformat(),
        )
    else:
        derived.update(window_low="", window_high="", occurrence="")
    return derived


def _codes(order: dict[str, Any]) -> set[str]:
    return {str(c.get("code", "")) for c in (order.get("code") or {}).get("coding", []) or []}


@triggered_by(WRITE)
def ct_in_window(ctx: GradingContext) -> CheckpointResult:
    """A placed chest CT order (diagnostic CT; on the routine branch also the low-dose CT) dated
    within the instance's window, and no chest CT of any kind dated earlier or undated (a scan
    'as soon as routine' repeats imaging too soon)."""
    kind = ctx.values["profile"]
    accepted = set(CHEST_CT + (LDCT if kind == "routine" else []))
    low, high = ctx.values["window_low"], ctx.values["window_high"]
    good, early = [], []
    for order in ctx.written("ServiceRequest"):
        if patient_id(order) != ctx.patient_id or not placed(order):
            continue
        codes = _codes(order)
        if not codes & set(CHEST_CT + LDCT):
            continue
        when = str(order.get("occurrenceDateTime")
                   or (order.get("occurrencePeriod") or {}).get("start") or "")[:10]
        if not when or when < low:
            early.append(when or "undated")
        elif when <= high and codes & accepted:
            good.append(when)
    if early:
        return CheckpointResult(False, f"chest CT ordered too soon ({', '.join(early)}; "
                                f"window {low} to {high})")
    if good:
        return CheckpointResult(True, f"chest CT ordered for {good[0]}")
    return CheckpointResult(False, f"no chest CT ordered for {low} to {high}")
