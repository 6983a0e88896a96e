"""Chronic spontaneous urticaria: up-dosing the second-generation antihistamine.

EAACI/GA2LEN/EuroGuiDerm/APAAACI 2022: when a standard-dose second-generation H1-antihistamine
does not control chronic spontaneous urticaria, increase it up to fourfold (cetirizine 10 mg
once daily -> 20-40 mg a day), reassess after 2-4 weeks, and add omalizumab 300 mg every
4 weeks if still uncontrolled (dupilumab or remibrutinib, FDA-labeled for the same step since
2025, also count at their labeled regimens); no first-generation antihistamines, no long-term
steroids, and only a small laboratory work-up.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import dose, frequency_per_day, patient_id
from physbench_gym.synth import terminology

STANDARD_MG_PER_DAY = 10.0  # cetirizine label dose for adults
DAILY_RANGE_MG = (2 * STANDARD_MG_PER_DAY, 4 * STANDARD_MG_PER_DAY)  # 2- to 4-fold
TABLET_UNITS = frozenset({"tablet", "tablets", "tab", "tabs", "{tablet}", "{tbl}", "{tab}"})

CETIRIZINE = ["cetirizine", "Zyrtec", "second-generation antihistamine",
              "second generation antihistamine", "2nd-generation antihistamine",
              "2nd generation antihistamine", "non-sedating antihistamine",
              "nonsedating antihistamine", "sgAH", "sgAHs"]
_NAMES = r"(?:cetirizine|zyrtec)"
_PO = r"(?:\s*(?:po|orally|by mouth|tabs?|tablets?|oral)\b)?"
_TWICE = (r"(?:bid|b\.i\.d|twice|q12h|q\s12\s?h|2x|2\s?times|two times"
          r"|morning and (?:evening|night|bedtime))")
_THRICE_PLUS = (r"(?:tid|t\.i\.d|three times|3x|3\s?times|q8h|qid|q\.i\.d|four times|4x|4\s?times"
                r"|q6h)")
_ONCE = (r"(?:daily|qd|q\.d|once daily|once a day|once|qam|qhs|nightly|at bedtime|every day"
         r"|each day|a day|per day|/\s?day|/\s?d\b)")
_STANDARD = r"(?:standard|usual|licensed|label(?:ed)?|normal|approved|regular|recommended)"

# A 2- to 4-fold cetirizine regimen written any common way: '20 mg BID', '10 mg twice daily',
# '40 mg/day', '2 tabs BID', 'fourfold', '4x the standard dose', 'double the dose'.
# A regimen may end 'every day, not PRN': the tail is read with it, so the post-posed 'not'
# does not count as negating the regimen itself.
_TAIL = (r"(?:[\s,]+(?:taken\s+)?(?:every day|each day|daily|scheduled|regularly))?"
         r"(?:[\s,;-]*(?:and\s+)?(?:not|rather than)\s+(?:prn|as[\s-]needed|on demand"
         r"|when needed))?")
_REGIMEN = [
    rf"re:\b20\s*mg\b{_PO}\s*{_TWICE}{_TAIL}",
    rf"re:\b10\s*mg\b{_PO}\s*(?:{_TWICE}|{_THRICE_PLUS}){_TAIL}",
    rf"re:\b(?:20|30|40)\s*mg\b{_PO}\s*(?:total\s+)?(?:{_ONCE}){_TAIL}",
    rf"re:\b(?:20|30|40)\s*mg\s*(?:total|in total|in divided doses|divided){_TAIL}",
    rf"re:\b(?:2|two)\s*(?:tabs?|tablets?)\b[^;]{{0,20}}?{_TWICE}{_TAIL}",
    rf"re:\b(?:1|one)\s*(?:tabs?|tablets?)\b[^;]{{0,20}}?(?:{_TWICE}|{_THRICE_PLUS}){_TAIL}",
    rf"re:\b(?:2|3|4|two|three|four)\s*(?:x|×|times)\s+(?:the\s+)?{_STANDARD}",
    r"re:\b(?:2|3|4|two|three|four)[\s-]?fold\b",
    r"re:\bup\s*to\s*(?:4|four)\s*(?:x|×|times|-?fold)",
    r"re:\b(?:doubl(?:e|ing)|quadrupl(?:e|ing))\b",
]
# Regimens above fourfold (over 40 mg a day) and plans that keep, lower or stop cetirizine.
_STEP_DOWN_CUE = r"^(?!.*\b(?:once|when|after|until|later|eventually)\b)"
_CETIRIZINE_OPPOSITE = [
    rf"re:\b(?:30|40|50|60|80)\s*mg\b{_PO}\s*(?:{_TWICE}|{_THRICE_PLUS})",
    rf"re:\b20\s*mg\b{_PO}\s*{_THRICE_PLUS}",
    rf"re:\b(?:50|60|70|80|100)\s*mg\b{_PO}\s*(?:total\s+)?(?:{_ONCE})",
    r"re:\b(?:5|6|8|10|five|six|eight|ten)\s*(?:x|×|times|[\s-]?fold)\s+(?:the\s+)?"
    + _STANDARD,
    r"re:\b(?:5|6|8|five|six|eight)[\s-]?fold\b",
    rf"re:{_STEP_DOWN_CUE}.*\b(?:stop|discontinu|decreas|reduc|taper|hold|lower|wean)\w*"
    rf"\s+(?:\S+\s+){{0,2}}{_NAMES}",
    rf"re:{_STEP_DOWN_CUE}.*{_NAMES}\s+(?:should be |will be |is |to be )?(?:stopped|"
    r"discontinued|decreased|reduced|tapered|held|lowered)",
    rf"re:\b(?:continue|keep|maintain|stay on|remain on)\w*\s+(?:\S+\s+){{0,2}}{_NAMES}"
    rf"\s+10\s*mg\b{_PO}\s*(?:daily|qd|once|qam|qhs|nightly|every day)",
    r"re:\bcontinue (?:the |her )?(?:current|same) dose\b",
    r"re:\b(?:at|on) the same dose\b",
    rf"re:{_NAMES}\s+(?:\S+\s+){{0,2}}unchanged\b",
    r"re:\bno change (?:in|to|of) (?:the |her )?(?:cetirizine|zyrtec|antihistamine|dose)",
    # EAACI 2022: the up-dosed antihistamine is taken regularly, every day, not on demand.
    r"re:\b(?:prn|p\.r\.n|as[\s-]needed|when needed|on demand)\b",
]

FIRST_GENERATION = ["diphenhydramine", "Benadryl", "hydroxyzine", "Atarax", "Vistaril",
                    "chlorpheniramine", "doxepin", "first-generation antihistamine",
                    "first-generation antihistamines", "first generation antihistamine",
                    "first generation antihistamines", "1st-generation antihistamine",
                    "1st-generation antihistamines", "1st generation antihistamine",
                    "1st generation antihistamines", "first-generation H1",
                    "sedating antihistamine", "sedating antihistamines", "fgAH", "fgAHs"]
STEROIDS = ["prednisone", "prednisolone", "methylprednisolone", "Medrol", "dexamethasone",
            "steroid", "steroids", "corticosteroid", "corticosteroids", "glucocorticoid",
            "glucocorticoids", "glucocorticosteroids"]
AVOID = ["avoid", "stop", "stopping", "discontinue", "discontinuing", "discontinuation", "d/c",
         "cease", "come off", "taper off", "contraindicated", "not recommended",
         "not appropriate", "inappropriate", "not indicated", "not be used", "not use",
         "not used", "do not use", "don't use", "not prescribe", "not continue", "no longer",
         "not a long-term option", "not for long-term", "not for chronic", "should not",
         "unsafe", "not suitable", "no role", "no more",
         r"re:\bno\s+(?:further\s+|more\s+|long[- ]term\s+|chronic\s+|repeated\s+|daily\s+"
         r"|routine\s+|systemic\s+|oral\s+|additional\s+)*(?:diphenhydramine|benadryl"
         r"|hydroxyzine|first|1st|sedating|prednisone|steroids?|corticosteroids?"
         r"|glucocorticoids?|systemic)"]
_PRESCRIBE = (r"(?:start|initiat|prescrib|begin|add|give|continue|resume|use|recommend|keep"
              r"|maintain|rx|order|plan|switch)")
# A short rescue course for a severe flare stays allowed (EAACI 2022: up to 10 days).
_RESCUE = r"(?:short|burst|brief|rescue|days?|\d+\s*d|flares?|exacerbations?|only|severe)"
_LONG = r"(?:long[- ]term|chronic|daily|maintenance|ongoing|regular|scheduled|continuous)"
# A course past the short rescue burst (EAACI 2022: up to 10 days; two weeks still tolerated).
_LONG_COURSE = (r"(?:for|over|x|×)\s*(?:(?:[3-9]|[1-9]\d)\s*(?:weeks?|wks?|w)"
                r"|(?:\d+|several|many|a few)\s*(?:months?|mos?)"
                r"|(?:1[5-9]|[2-9]\d|\d{3})\s*(?:days?|d))\b")
# Words that may sit between a drug and 'is fine' without turning the sentence against it.
_NOT_AWAY = r"(?!(?:not|no|never|but|avoid|stop|nor)\b)"


# Words between a verb and the drug that turn 'recommend stopping X' away from using X.
_AWAY = r"(?!(?:stop|discontinu|avoid|taper|wean|hold|ceas|off\b|d/c|no\b|not\b|against|from\b))"


def _aimed(verbs: str, names: list[str]) -> str:
    pattern = "|".join(re.escape(n.lower()).replace(r"\ ", r"[\s-]*") for n in names)
    return rf"re:\b{verbs}\w*\s+(?:{_AWAY}\S+\s+){{0,3}}(?:{pattern})\b"


def _opposite_for(names: list[str], long_term_only: bool = False) -> list[str]:
    """Plans that use the drug: 'continue diphenhydramine', 'start prednisone', 'diphenhydramine
    at bedtime is fine'; for steroids a short rescue course stays allowed, so only plans for
    long-term, daily or unqualified courses, or courses of three weeks and more, count."""
    pattern = "|".join(re.escape(n.lower()).replace(r"\ ", r"[\s-]*") for n in names)
    terms = [rf"re:\b(?:{pattern})\b(?:\s+{_NOT_AWAY}\S+){{0,5}}?\s+(?:is|are|remains?|can be)"
             rf"\s+(?:{_NOT_AWAY}\w+\s+)?(?:appropriate|reasonable|fine|recommended|indicated"
             r"|safe|ok|okay|acceptable|continued)\b"]
    if long_term_only:
        terms.append(rf"re:\b{_PRESCRIBE}\w*\s+(?:{_AWAY}\S+\s+){{0,2}}{_LONG}\s+"
                     rf"(?:\S+\s+){{0,1}}(?:{pattern})\b")
        terms.append(rf"re:^(?!.*\b{_RESCUE}\b).*\b{_PRESCRIBE}\w*\s+(?:{_AWAY}\S+\s+){{0,2}}"
                     rf"(?:{pattern})\b")
        # A regimen written without a verb: 'maintenance prednisone 5 mg daily',
        # 'prednisone 20 mg daily for 6 weeks', 'prednisone taper over 2 months'.
        terms.append(rf"re:\b{_LONG}\s+(?:\S+\s+){{0,1}}(?:{pattern})\b\s+\d+(?:\.\d+)?\s*mg\b")
        terms.append(rf"re:\b(?:{pattern})\b(?:\s+(?!bursts\b)\S+){{0,8}}?\s+{_LONG_COURSE}")
    else:
        terms.append(_aimed(_PRESCRIBE, names))
    return terms


def urticaria_plan(values: dict[str, Any]) -> dict[str, Any]:
    """Expectations of the chronic urticaria task: UAS7 band, cetirizine up-dosing, dates."""
    uas7 = int(values["uas7"])
    if not 16 <= uas7 <= 42:
        raise ValueError(f"UAS7 {uas7} is not moderate-to-severe activity")
    months, weeks = int(values["csu_months"]), int(values["cetirizine_weeks"])
    if months * 4.3 - 3 <= weeks + 2:
        raise ValueError("loratadine must have been tried before cetirizine")
    codes = cetirizine_codes()
    now = values["now"]
    since = (now - timedelta(days=int(months * 30.5) + 14)).date().isoformat()
    if not codes:
        raise ValueError("no cetirizine tablet in the terminology")
    return {
        "uas7_band": "severe" if uas7 >= 28 else "moderate",
        "notes_since": since,
        "cetirizine_rxnorm": codes[10.0] if 10.0 in codes else next(iter(codes.values())),
        "cetirizine_codes": list(codes.values()),
        "cetirizine_subject": CETIRIZINE,
        "regimen_actions": _REGIMEN,
        "regimen_opposite": _CETIRIZINE_OPPOSITE,
        "sedating_subject": FIRST_GENERATION,
        "avoid_actions": AVOID,
        "sedating_opposite": _opposite_for(FIRST_GENERATION),
        "steroid_opposite": _opposite_for(STEROIDS, long_term_only=True),
        "steroid_subject": STEROIDS,
        "diphenhydramine_rxnorm": "1049909",
        "prednisone_rxnorm": "312615",
    }


def cetirizine_codes() -> dict[float, str]:
    """Strength in mg -> RxNorm code of the single-ingredient cetirizine oral tablets."""
    found = {}
    for concept in terminology.all_concepts("rxnorm"):
        display = concept.display.lower()
        if display.startswith("cetirizine") and "/" not in display and "oral tablet" in display:
            match = re.search(r"(\d+(?:\.\d+)?)\s*mg\b", display)
            if match:
                found[float(match.group(1))] = concept.code
    return dict(sorted(found.items()))


def _mine(ctx: GradingContext, resource_type: str) -> list[dict[str, Any]]:
    return [r for r in ctx.written(resource_type) if patient_id(r) == ctx.patient_id]


def _cetirizine_daily_mg(resource: dict[str, Any], strengths: dict[str, float]) -> float | None:
    """Total cetirizine mg a day of a scheduled order (None when dose or timing is missing)."""
    found, per_day = dose(resource), frequency_per_day(resource)
    if found is None or per_day is None:
        return None
    value, unit = found
    unit = unit_normalize(unit)
    codes = [c.get("code") for c in (resource.get("medicationCodeableConcept") or {}).get(
        "coding", []) or []]
    if unit == "mg":
        per_dose = value
    elif unit == "g":
        per_dose = value * 1000
    elif unit in TABLET_UNITS and any(code in strengths for code in codes):
        per_dose = value * next(strengths[code] for code in codes if code in strengths)
    else:
        return None
    return per_dose * per_day


@triggered_by(WRITE)
def cetirizine_updosed(ctx: GradingContext) -> CheckpointResult:
    """An active, scheduled cetirizine order of 20-40 mg a day, and no cetirizine order
    written at another daily dose or as needed."""
    strengths = {code: mg for mg, code in cetirizine_codes().items()}
    good, bad = [], []
    for resource in _mine(ctx, "MedicationRequest"):
        codes = {c.get("code") for c in (resource.get("medicationCodeableConcept") or {}).get(
            "coding", []) or []}
        if not codes & set(strengths):
            continue
        if resource.get("status") not in ("active", "draft", "on-hold"):
            continue
        daily = _cetirizine_daily_mg(resource, strengths)
        prn = any(i.get("asNeededBoolean") for i in resource.get("dosageInstruction", []) or [])
        low, high = DAILY_RANGE_MG
        fits = daily is not None and low <= daily <= high and not prn
        if fits and resource.get("status") == "active" and resource.get("intent") == "order":
            good.append(daily)
        elif daily is not None and (not low <= daily <= high or prn):
            bad.append(f"{daily:g} mg/day{' PRN' if prn else ''}")
    if bad:
        return CheckpointResult(False, f"cetirizine ordered at {bad[0]} (want 20-40 mg/day "
                                       "scheduled)")
    if good:
        return CheckpointResult(True, f"cetirizine {good[0]:g} mg/day ordered")
    return CheckpointResult(False, "no active cetirizine order of 20-40 mg a day")


# What a minimal CSU work-up leaves out: allergen-specific IgE and skin testing, biopsy,
# tryptase, autoantibody and complement screens, stool studies and imaging.
_EXTENSIVE = ("allergen", "specific ige", "ige panel", "food allergy", "food panel",
              "immunocap", "prick", "skin test", "patch test", "biopsy", "tryptase",
              "antinuclear", "ana screen", "complement", "ch50", "stool", "parasite",
              "helicobacter", "h. pylori", "h pylori", "cryoglobulin", "hepatitis")
_BROAD_CATEGORIES = ("363679005", "387713003")  # imaging, procedure


@triggered_by(WRITE)
def no_extensive_workup(ctx: GradingContext) -> CheckpointResult:
    """No allergy testing, biopsy, imaging or broad serology ordered for the urticaria."""
    for resource in _mine(ctx, "ServiceRequest"):
        code = resource.get("code") or {}
        text = " ".join([str(code.get("text", ""))] + [
            str(c.get("display", "")) for c in code.get("coding", []) or []]).lower()
        categories = {c.get("code") for cat in resource.get("category", []) or []
                      for c in cat.get("coding", []) or []}
        hit = next((word for word in _EXTENSIVE if word in text), None)
        if hit or categories & set(_BROAD_CATEGORIES):
            what = hit or "imaging or procedure"
            return CheckpointResult(False, f"extensive work-up ordered ({what}): {text[:60]}")
    return CheckpointResult(True, "no extensive work-up ordered")
