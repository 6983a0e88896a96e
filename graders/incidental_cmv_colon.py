"""incidental_cmv_colon: what CMV on a colon biopsy means depends on the colitis and the
immune state (ECCO 2021 infections-in-IBD guideline, CMV section).

Profiles:
- flare: ulcerative colitis flare refractory to 4 weeks of prednisone 40 mg, deep ulcers, many
  CMV-immunostained cells -> CMV colitis: treat with valganciclovir (induction dose by
  Cockcroft-Gault CrCl, VALCYTE label Table 3), with CBC and creatinine monitoring.
- remission: quiescent colitis on mesalamine alone (no immunosuppression), a single
  CMV-immunostained cell on a surveillance biopsy -> latent/bystander CMV: no antiviral.
CrCl = (140 - age) x weight / (72 x creatinine) (male patient), with actual body weight as in
the VALCYTE label; the chart height is set so that his weight is about 104% of the Devine ideal
body weight, so ideal (and adjusted) body weight give the same induction band.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.medications import course_days, product_of, regimens
from physbench_gym.grading.resources import patient_id, placed

# Valganciclovir induction by CrCl band (mL/min): (lowest CrCl, mg per dose, doses a day).
BANDS = [(60, 900, 2, "900 mg twice daily"), (40, 450, 2, "450 mg twice daily"),
         (25, 450, 1, "450 mg once daily")]
ANTIVIRAL_NAMES = ["ganciclovir", "valganciclovir", "foscarnet", "cidofovir", "letermovir",
                   "maribavir"]


def ckd_epi_2021(creatinine: float, age: int) -> float:
    """CKD-EPI 2021 creatinine equation, male (mL/min/1.73 m2)."""
    ratio = creatinine / 0.9
    return 142 * min(ratio, 1) ** -0.302 * max(ratio, 1) ** -1.2 * 0.9938 ** age


IBW_RATIO = 1.04   # actual / Devine ideal body weight (not overweight: AdjBW does not apply)


def height_cm(weight: float) -> float:
    """Height at which the weight is IBW_RATIO x the Devine IBW (50 kg + 2.3 kg/inch over 5 ft)."""
    return round(152.4 + (weight / IBW_RATIO - 50) / 2.3 * 2.54, 1)


def cmv_colon(values: dict[str, Any]) -> dict[str, Any]:
    age, weight = int(values["age"]), int(values["weight_kg"])
    creat = round((140 - age) * weight / (72 * int(values["crcl_target"])), 1)
    crcl = (140 - age) * weight / (72 * creat)
    low, mg, per_day, text = next(b for b in BANDS if crcl >= b[0])
    if crcl < 25 or min(abs(crcl - edge) for edge in (25, 40, 60)) < 2.5:
        raise ValueError(f"variant outside the task's design: CrCl {crcl:.1f}")
    flare = values["profile"]["state"] == "flare"
    ibw = 50 + 2.3 * (height_cm(weight) - 152.4) / 2.54
    crcl_ibw = (140 - age) * ibw / (72 * creat)
    if next(b for b in BANDS if crcl_ibw >= b[0])[0] != low:
        raise ValueError(f"ideal-weight CrCl {crcl_ibw:.1f} changes the band")
    return {
        "creatinine": creat,
        "prior_creatinine": round(creat * 0.88, 1),
        "crcl": round(crcl),
        "egfr": round(ckd_epi_2021(creat, age)),
        "crcl_ibw": round(crcl_ibw),
        "height_cm": height_cm(weight),
        "prior_weight": weight + 6 if flare else weight + 1,
        "vgc_mg": mg,
        "vgc_per_day": per_day,
        "vgc_text": text,
        "vgc_quantity": mg // 450 * per_day * 21,
        "crcl_band": {60: "60 or more", 40: "40-59", 25: "25-39"}[low],
        "antiviral_names": ANTIVIRAL_NAMES,
        "flare": flare,
    }


@triggered_by(WRITE)
def valganciclovir_course(ctx: GradingContext) -> CheckpointResult:
    """The placed valganciclovir orders add up to the band's daily dose (no second or larger
    order) and run a 2-3 week induction course (ECCO 2021; VALCYTE 21-day induction)."""
    vals = ctx.values
    want = float(vals["vgc_mg"]) * float(vals["vgc_per_day"])
    orders = [r for r in ctx.written("MedicationRequest")
              if patient_id(r) == ctx.patient_id and placed(r)
              and (product := product_of(r)) is not None and "valganciclovir" in product.names]
    if not orders:
        return CheckpointResult(False, "no valganciclovir order placed")
    total, problems = 0.0, []
    for order in orders:
        product = product_of(order)
        daily = [reg.daily(product.ingredient) for reg in regimens(order, product)]
        if not daily or any(d is None or d[1] != "mg" for d in daily):
            problems.append("an order without a computable daily dose")
            continue
        total += sum(d[0] for d in daily)
        days = course_days(order)
        if days is None or not 14 <= days <= 21:
            problems.append(f"course of {days} days, not 14-21" if days else "no course length")
    if abs(total - want) > 0.5:
        problems.append(f"{total:g} mg a day in all, not {want:g} mg ({vals['vgc_text']})")
    if problems:
        return CheckpointResult(False, "valganciclovir: " + "; ".join(problems))
    return CheckpointResult(True, f"valganciclovir {vals['vgc_text']} for 14-21 days")
