"""Switching venlafaxine XR to sertraline by cross-taper.

Effexor XR label: taper by about 75 mg a day at 1-week intervals (discontinuation symptoms);
Zoloft label: 50 mg once daily for MDD (25 mg the gentler start used in a cross-taper), raise
at intervals of at least a week. The first prescriptions of the switch are sertraline 25-50 mg
once daily and venlafaxine XR 37.5-75 mg a day below the current dose. The note's taper decision
must not be contradicted by a plan to raise, keep or abruptly stop venlafaxine; the history of
past increases and counselling about abrupt stops are not such plans.
"""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.order_schedule import steps
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import dose, frequency_per_day, patient_id
from physbench_gym.synth import terminology

STEP_MG = (37.5, 75.0)  # venlafaxine XR reduction per step
SERTRALINE_START_MG = (25.0, 50.0)
UNIT_FORMS = frozenset({"tablet", "tablets", "tab", "tabs", "{tablet}", "{tbl}", "capsule",
                        "capsules", "cap", "caps", "{capsule}", "{cap}"})
PHQ9_HISTORY = (21, 18)  # PHQ-9 at the start of venlafaxine and after 6 weeks

_VENLAFAXINE = ["venlafaxine", "venlafaxine XR", "venlafaxine ER", "Effexor", "Effexor XR",
                "SNRI"]
_SERTRALINE = ["sertraline", "Zoloft", "SSRI"]
_VEN = r"(?:venlafaxine|effexor|snri)"
_SER = r"(?:sertraline|zoloft|ssri)"
_SER_NAME = r"(?:sertraline|zoloft)\b"  # 'avoid SSRI/MAOI combinations' is no refusal
# a plan to stay on a drug; 'continued'/'maintained on' are history
_STAY = r"\b(?:continue|continuing|keep|maintain|remain on|stay on)"
_NEGATION = (r"no|not|never|avoid\w*|without|rather than|instead of|don't|won't|against"
             r"|prevent\w*|minimi[sz]\w*")
_COUNSEL = (r"risks?|caus\w*|lead\w*|result\w*|trigger\w*|precipitat\w*|warn\w*|explain\w*"
            r"|counsel\w*|educat\w*|discuss\w*|review\w*|advis\w*|symptoms?|withdrawal"
            r"|syndrome|reactions?|effects?|danger\w*|unsafe|if|when")
_KEEP = ("sertraline", "venlafaxine", "trazodone")  # the switch itself and his sleep aid
_INTERACTING_CLASSES = ("ssri", "snri", "antidepressant", "maoi", "monoamine oxidase")
_INTERACTING_DRUGS = ("fluoxetine", "paroxetine", "citalopram", "fluvoxamine", "vilazodone",
                      "vortioxetine", "duloxetine", "milnacipran", "phenelzine",
                      "tranylcypromine", "isocarboxazid", "selegiline", "linezolid", "tramadol",
                      "methylene blue", "meperidine", "tapentadol", "mirtazapine",
                      "bupropion", "amitriptyline", "nortriptyline", "clomipramine",
                      "imipramine", "lithium")


def products(ingredient: str, form: str) -> dict[float, str]:
    """Strength in mg -> RxNorm code of the single-ingredient oral products of ``ingredient``
    whose dose form contains ``form``."""
    found = {}
    for concept in terminology.all_concepts("rxnorm"):
        extra = concept.extra
        if (extra.get("ingredient", "").lower() == ingredient and form in
                extra.get("dose_form", "").lower() and "/" not in extra.get("strength", "")):
            match = re.match(r"\s*(\d+(?:\.\d+)?)\s*MG\b", extra.get("strength", ""), re.I)
            if match:
                found[float(match.group(1))] = concept.code
    return dict(sorted(found.items()))


def venlafaxine_codes() -> dict[float, str]:
    return products("venlafaxine", "extended release oral capsule")


def sertraline_codes() -> dict[float, str]:
    return products("sertraline", "oral tablet")


def _mg(value: float) -> str:
    return f"{value:g}"


def ssri_switch(values: dict[str, Any]) -> dict[str, Any]:
    """The first step of the venlafaxine XR -> sertraline cross-taper and the chart history."""
    current = float(values["venlafaxine_mg"])
    phq9 = int(values["phq9"])
    if not PHQ9_HISTORY[0] * 0.5 < phq9 <= PHQ9_HISTORY[0] * 0.75:
        # partial response: a 25-49% fall (50% is response, under 25% non-response)
        raise ValueError(f"PHQ-9 {phq9} (from {PHQ9_HISTORY[0]}) is not a partial response")
    caps, tabs = venlafaxine_codes(), sertraline_codes()
    low, high = current - STEP_MG[1], current - STEP_MG[0]
    new = low
    if new not in caps or 75.0 not in caps or 150.0 not in caps:
        raise ValueError(f"no venlafaxine XR capsule for {new:g} mg in the terminology")
    if 25.0 not in tabs:
        raise ValueError("no sertraline 25 mg tablet in the terminology")
    current_code = caps[current] if current in caps else caps[75.0]
    increased = current > 150
    band = "moderately severe" if phq9 >= 15 else "moderate"
    return {
        "venlafaxine_current_rxnorm": current_code,
        "venlafaxine_current_text": (f"{_mg(current)} mg (three 75 mg capsules)" if increased
                                     else f"{_mg(current)} mg"),
        "venlafaxine_sig": (f"Take 3 capsules ({_mg(current)} mg) by mouth once daily with food."
                            if current_code == caps[75.0] and current != 75 else
                            f"Take 1 capsule ({_mg(current)} mg) by mouth once daily with food."),
        "venlafaxine_150_rxnorm": caps[150.0],
        "venlafaxine_75_rxnorm": caps[75.0],
        "venlafaxine_change_reason": ("Partial response; increased to 225 mg daily." if increased
                                      else "Renewed at 150 mg daily; partial response."),
        # 150 mg since week 6 of the year-long trial; 225 mg since the last change
        "dose_duration_text": (f"{values['months_on_dose']} months" if increased
                               else "about 10 months"),
        "venlafaxine_codes": list(caps.values()),
        "sertraline_codes": list(tabs.values()),
        "interacting_codes": interacting_codes(),
        "sertraline_25_rxnorm": tabs[25.0],
        "new_venlafaxine_mg": new,
        "new_venlafaxine_rxnorm": caps[new],
        "new_venlafaxine_text": _mg(new),
        "next_venlafaxine_text": _mg(max(new - 75, 37.5)),
        "venlafaxine_low": low,
        "venlafaxine_high": high,
        "venlafaxine_mid": (low + high) / 2,
        "venlafaxine_tol": (high - low) / 2 + 0.5,
        "phq9_band": band,
        "phq9_start": PHQ9_HISTORY[0],
        "phq9_6w": PHQ9_HISTORY[1],
        "phq9_mid": max(phq9 + 2, 16),
        "venlafaxine_subject": _VENLAFAXINE,
        "sertraline_subject": _SERTRALINE,
        "taper_actions": ["decrease", "step down", "step-down", "cut", "drop", "halve",
                          r"re:\bstep\w*\s+(?:\S+\s+){0,3}down\b",
                          rf"re:\b{_VEN}\w*(?:\s+(?:xr|er))?\s+{_mg(current)}(?:\.0)?\s*"
                          r"(?:mg)?\s*(?:->|→|=>|to)\s*\d",
                          rf"re:\bfrom\s+{_mg(current)}(?:\.0)?\s*(?:mg)?\s+(?:daily\s+)?to\s+\d"],
        "taper_opposite": taper_opposite(current),
        "start_actions": ["start", "titrate", "increase",
                          rf"re:\b{_SER}\w*\s+\d+(?:\.\d+)?\s*mg\b[^;]{{0,20}}\b(?:daily|qd|qam"
                          r"|qhs|once|every (?:morning|day|evening)|nightly|at bedtime)"],
        "start_opposite": [
            r"re:\b(?:avoid|defer|postpone|hold off(?: on)?|not start|not initiat|not prescrib"
            r"|recommend against|advise against|advised against)\w*\s+(?:starting\s+|initiating\s+"
            rf"|the\s+|a\s+|using\s+|switching\s+to\s+)?{_SER_NAME}",
            rf"re:\b{_SER}\s+(?:is|would be|remains)\s+(?:contraindicated|not recommended"
            r"|not appropriate|not indicated)",
            rf"re:\b{_SER}\w*\s+\d+(?:\.\d+)?\s*mg\b[^;]{{0,15}}\b(?:bid|b\.i\.d|twice|tid"
            r"|three times)",
            rf"re:\b(?:start|initiat|begin|commenc)\w*\s+(?:\S+\s+){{0,2}}{_SER_NAME}\s+(?:at\s+)?"
            r"(?:[1-9]\d\d|7[5-9]|[89]\d)(?:\.\d+)?\s*mg\b",
        ],
    }


def interacting_codes() -> list[str]:
    """RxNorm codes of the terminology's other antidepressants and serotonergic interacting
    drugs: ordering one during the cross-taper adds serotonin-syndrome risk (MAOIs and
    linezolid are contraindicated with both drugs). Trazodone, which he already takes, is
    left out. Matching codes, not order text, lets a sig that warns against tramadol pass."""
    found = []
    for concept in terminology.all_concepts("rxnorm"):
        ingredient = concept.extra.get("ingredient", "").lower()
        drug_class = concept.extra.get("drug_class", "").lower()
        if ingredient.split()[:1] and ingredient.split()[0] in _KEEP:
            continue  # exact names: desvenlafaxine is not venlafaxine
        if (any(word in drug_class for word in _INTERACTING_CLASSES)
                or any(name in ingredient for name in _INTERACTING_DRUGS)):
            found.append(concept.code)
    return found


def _plain(verb: str, after_ban: str = _COUNSEL) -> str:
    """A regex for ``verb`` asserted as the plan: no negation or counselling word in the
    clause before it and no consequence after it, so 'stopping venlafaxine abruptly causes
    withdrawal' and 'avoid abrupt discontinuation' do not read as an abrupt stop."""
    before = rf"(?:(?!\b(?:{_NEGATION}|{_COUNSEL})\b).)*?"
    return rf"re:^{before}{verb}(?!.*\b(?:{after_ban})\b)"


def taper_opposite(current: float) -> list[str]:
    """Plans that contradict a first taper step: raising venlafaxine above the current dose,
    stopping it abruptly, or keeping the current dose. A past increase ('increased to 150 mg
    after 6 weeks', 'sweating since the increase in venlafaxine') is history, not a plan."""
    higher = "|".join(re.escape(_mg(current + STEP_MG[0] * k)) for k in range(1, 7))
    return [
        r"re:^(?:[a-z /-]{1,20}:\s*)?(?:(?:will|plan to|recommend|we will|i recommend)\s+)?"
        rf"(?:increase|raise|uptitrate|up-titrate|escalate|titrate up)\s+(?:the\s+)?"
        rf"(?:dose\s+of\s+)?{_VEN}",
        rf"re:\b{_VEN}\w*[^.;]{{0,40}}?\b(?:increas|rais|uptitrat|up-titrat|escalat|titrat)\w*"
        rf"(?:\s+up)?\s+(?:\S+\s+){{0,2}}?to\s+(?:{higher})\s*mg",
        rf"re:\b(?:increas|rais|uptitrat|up-titrat|escalat|titrat)\w*\s+(?:\S+\s+){{0,3}}?{_VEN}\w*"
        rf"(?:\s+(?:xr|er))?\s+(?:up\s+)?to\s+(?:{higher})\s*mg",
        rf"re:\b{_VEN}\w*(?:\s+(?:xr|er))?\s+{_mg(current)}\s*(?:mg)?\s*(?:->|→|=>|to)\s*"
        rf"(?:{higher})\b",
        _plain(r"\b(?:stop|discontinu|d/c|cease)\w*\s+(?:\S+\s+){0,3}(?:abruptly|immediately"
               r"|today|now|at once|cold turkey)\b"),
        _plain(r"\b(?:abrupt(?:ly)?|immediate(?:ly)?|direct)\s+(?:\S+\s+){0,1}(?:stop|discontinu"
               r"|cessation|switch)\w*"),
        _plain(r"\bcold turkey\b"),
        rf"re:{_STAY}\s+(?:\S+\s+){{0,2}}{_VEN}\w*(?:\s+(?:xr|er))?\s+(?:at\s+)?"
        rf"(?:{_mg(current)}\b|(?:the\s+|his\s+)?(?:current|same)\s+dose\b)",
        rf"re:{_STAY}\s+(?:the\s+|his\s+)?(?:current|same)\s+(?:\S+\s+)?dose\s+of\s+{_VEN}",
    ]


def _mine(ctx: GradingContext) -> list[dict[str, Any]]:
    return [r for r in ctx.written("MedicationRequest") if patient_id(r) == ctx.patient_id]


def _codes(resource: dict[str, Any]) -> list[str]:
    concept = resource.get("medicationCodeableConcept") or {}
    return [str(c.get("code")) for c in concept.get("coding", []) or []]


def _daily_mg(resource: dict[str, Any], strengths: dict[str, float]) -> float | None:
    """Total mg a day of a scheduled order written in mg or in tablets/capsules."""
    found, per_day = dose(resource), frequency_per_day(resource)
    if found is None or per_day is None:
        return None
    value, unit = found
    unit = unit_normalize(unit)
    if unit == "mg":
        return value * per_day
    strength = next((strengths[c] for c in _codes(resource) if c in strengths), None)
    if unit in UNIT_FORMS and strength is not None:
        return value * strength * per_day
    return None


def _prn(resource: dict[str, Any]) -> bool:
    return any(i.get("asNeededBoolean") for i in resource.get("dosageInstruction", []) or [])


def _active_orders(ctx: GradingContext, strengths: dict[str, float]) -> list[dict[str, Any]]:
    return [r for r in _mine(ctx) if set(_codes(r)) & set(strengths)
            and r.get("status") == "active" and r.get("intent") == "order"]


def _step_mg(step: list[dict[str, Any]], strengths: dict[str, float]) -> float:
    return sum(d for d in (_daily_mg(r, strengths) for r in step) if d is not None)


def _first_step_mg(orders: list[dict[str, Any]], strengths: dict[str, float]) -> float:
    """The daily mg of the orders that run first. Orders that run together add up (75 mg and
    37.5 mg capsules make 112.5 mg); consecutive steps of a titration or taper do not
    (sertraline 25 mg for 7 days, then 50 mg: ``order_schedule.order_windows``)."""
    found = steps(orders)
    return _step_mg(found[0], strengths) if found else 0.0


@triggered_by(WRITE)
def sertraline_started(ctx: GradingContext) -> CheckpointResult:
    """Active sertraline order(s) adding up to 25-50 mg once daily, scheduled."""
    strengths = {code: mg for mg, code in sertraline_codes().items()}
    orders = _active_orders(ctx, strengths)
    if not orders:
        return CheckpointResult(False, "no active sertraline order")
    daily = [_daily_mg(r, strengths) for r in orders]
    if any(d is None for d in daily) or any(_prn(r) for r in orders):
        return CheckpointResult(False, "sertraline order without a scheduled dose")
    once = all(frequency_per_day(r) == 1 for r in orders)
    total = _first_step_mg(orders, strengths)
    low, high = SERTRALINE_START_MG
    if low <= total <= high and once:
        return CheckpointResult(True, f"sertraline {total:g} mg once daily ordered")
    return CheckpointResult(False, f"sertraline {total:g} mg a day ordered "
                                   f"(want {low:g}-{high:g} mg once daily)")


@triggered_by(WRITE)
def venlafaxine_reduced(ctx: GradingContext) -> CheckpointResult:
    """Active venlafaxine XR order(s) adding up to 37.5-75 mg a day less than the current
    dose, once daily."""
    strengths = {code: mg for mg, code in venlafaxine_codes().items()}
    orders = _active_orders(ctx, strengths)
    low, high = float(ctx.values["venlafaxine_low"]), float(ctx.values["venlafaxine_high"])
    if not orders:
        return CheckpointResult(False, "no active venlafaxine XR order at the reduced dose")
    daily = [_daily_mg(r, strengths) for r in orders]
    if any(d is None for d in daily) or any(_prn(r) for r in orders):
        return CheckpointResult(False, "venlafaxine order without a scheduled dose")
    once = all(frequency_per_day(r) == 1 for r in orders)
    total = _first_step_mg(orders, strengths)
    later = max((_step_mg(step, strengths) for step in steps(orders)), default=total)
    if later > total:
        return CheckpointResult(False, f"venlafaxine XR goes back up to {later:g} mg a day "
                                       f"after a first step of {total:g} mg")
    if low <= total <= high and once:
        return CheckpointResult(True, f"venlafaxine XR reduced to {total:g} mg once daily")
    return CheckpointResult(False, f"venlafaxine XR ordered at {total:g} mg a day "
                                   f"(want {low:g}-{high:g} mg once daily)")
