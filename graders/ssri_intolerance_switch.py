"""Switching an SSRI that causes sexual dysfunction (with a partial response) to another
antidepressant.

Branches: without a contraindication the switch is to bupropion XL 150 mg once daily (the
antidepressant with the least sexual dysfunction; she has also gained weight, so not
mirtazapine); with epilepsy bupropion is contraindicated (WELLBUTRIN XL label, section 4) and
the switch is to mirtazapine 7.5-15 mg at bedtime (REMERON label, section 2.1). The SSRI is
lowered by half as the first taper step (NICE NG222 1.4.17: proportionate steps, e.g. 50%);
paroxetine gets a further 5 mg step (NG222 1.4.19).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
PHQ9_START = 20  # PHQ-9 when the SSRI was started
# serotonergic antidepressants (lexicon ids) that would repeat the intolerance: every SSRI and
# SNRI, and vilazodone (an SSRI with 5-HT1A partial agonism). Vortioxetine is deliberately not
# listed: CANMAT 2023 names it among the antidepressants with a lower risk of sexual dysfunction,
# so offering it is not the error this check looks for (see the spec's references).
SEROTONERGIC = ["sertraline", "escitalopram", "citalopram", "paroxetine", "fluoxetine",
                "fluvoxamine", "venlafaxine", "desvenlafaxine", "duloxetine", "levomilnacipran",
                "vilazodone"]
_CLASSES = ("ssri", "snri")
_OTHER_SEROTONERGIC = ("vilazodone", "fluvoxamine", "levomilnacipran", "milnacipran")


def _products(ingredient: str) -> list[tuple[float, str]]:
    """(strength in mg, RxNorm code) of the single-ingredient products of ``ingredient``."""
    found = []
    for concept in terminology.all_concepts("rxnorm"):
        extra = concept.extra
        if extra.get("ingredient", "").lower() == ingredient and "/" not in extra["strength"]:
            amount, unit = extra["strength"].split()[:2]
            if unit.upper() == "MG":
                found.append((float(amount), concept.code))
    return found


def _codes(ingredient: str) -> dict[float, str]:
    return dict(_products(ingredient))


def _serotonergic_codes(current: str) -> list[str]:
    """RxNorm codes of every SSRI/SNRI (and related serotonergic antidepressant) of the
    terminology other than the SSRI being tapered."""
    found = []
    for concept in terminology.all_concepts("rxnorm"):
        ingredient = concept.extra.get("ingredient", "").lower()
        drug_class = concept.extra.get("drug_class", "").lower()
        if ingredient == current:
            continue
        if drug_class in _CLASSES or any(name in ingredient for name in _OTHER_SEROTONERGIC):
            found.append(RX + concept.code)
    return found


# after the first 2-week halving step: stop, except paroxetine (the worst discontinuation
# syndrome; NICE NG222 1.4.17 smaller steps at lower doses, 1.4.19 paroxetine) gets a 5 mg step
TAPER_TAIL = {"paroxetine": "then 5 mg daily for 1-2 weeks, then stop"}

BRANCH_TEXT = {
    "none": {
        "decisive_data": "the weight trend",
        "branch_complaint": "She has also gained about 8 kg since starting it and is upset about "
                            "it; sleep is fine.",
        "weight_now": "82.3 kg (74.1 kg at the start)",
        "branch_labs": "A1c 6.0% (5.4% two years ago).",
    },
    "epilepsy": {
        "decisive_data": "the epilepsy on the problem list or the levetiracetam prescription",
        "branch_complaint": "Trouble falling asleep most nights. Weight stable. Other "
                            "medications unchanged.",
        "weight_now": "62.6 kg (stable)",
        "branch_labs": "A1c 5.3%.",
    },
}


def ssri_intolerance_switch(values: dict[str, Any]) -> dict[str, Any]:
    ssri, contra = values["ssri"], values["contra"]["name"]
    phq9 = int(values["phq9"])
    if not PHQ9_START * 0.5 < phq9 <= PHQ9_START * 0.75:  # partial response: a 25-49% fall
        raise ValueError(f"PHQ-9 {phq9} (from {PHQ9_START}) is not a partial response")
    codes = _codes(ssri["ingredient"])
    mg, taper = float(ssri["mg"]), float(ssri["taper_mg"])
    if mg not in codes or taper not in codes or taper != mg / 2:
        raise ValueError(f"no {ssri['name']} {mg:g}/{taper:g} mg tablet in the terminology")
    bupropion = [code for _, code in _products("bupropion hydrochloride")]
    mirtazapine = _codes("mirtazapine")
    starts = [c for mg_, c in _products("bupropion hydrochloride") if mg_ == 150.0]
    new, avoid = ("bupropion", "mirtazapine") if contra == "none" else ("mirtazapine",
                                                                        "bupropion")
    drug_codes = {"bupropion": [RX + c for c in bupropion],
                  "mirtazapine": [RX + c for c in mirtazapine.values()]}
    now = values["now"]
    tail = TAPER_TAIL.get(ssri["name"], "then stop")
    plan = (f"{ssri['name']} reduced to {taper:g} mg daily for 2 weeks, {tail}; "
            + ("bupropion XL 150 mg each morning started (300 mg after 1-2 weeks if tolerated)"
               if new == "bupropion" else
               "mirtazapine 15 mg at bedtime started (bupropion avoided: epilepsy)"))
    return {
        **BRANCH_TEXT[contra],
        "message_text": f"Switch plan: {plan}. Please discontinue her {ssri['name']} {mg:g} mg "
                        f"prescription so that only the {taper:g} mg taper is dispensed. "
                        "Counselled on discontinuation symptoms and mood worsening. Follow-up "
                        "with PHQ-9 in 2 weeks (booked). Full note in chart.",
        "taper_tail": tail,
        "phq9_start": PHQ9_START,
        "phq9_mid": min(phq9 + 2, 15),
        "ssri_code": codes[mg],
        "ssri_taper_code": codes[taper],
        "ssri_codes": [RX + c for c in codes.values()],
        "ssri_mg": int(mg),
        "ssri_taper_mg": int(taper),
        "other_serotonergic_codes": _serotonergic_codes(ssri["ingredient"]),
        "other_serotonergic": [c for c in SEROTONERGIC if c != ssri["name"]],
        "new_drug": new,
        "avoid_drug": avoid,
        "avoid_codes": drug_codes[avoid],
        "bupropion_start_codes": [RX + c for c in starts],  # SR or XL 150 mg
        "mirtazapine_start_codes": [RX + mirtazapine[7.5], RX + mirtazapine[15.0]],
        "followup_start": (now + timedelta(days=14)).strftime("%Y-%m-%dT10:00:00Z"),
    }
