"""Acute Toxicodendron (poison ivy) allergic contact dermatitis: systemic or topical
corticosteroid by extent (dermatology e-consult from primary care).

Extensive disease (more than about 20% of the body surface, or the face, eyelids or genitals)
needs oral prednisone 0.5-1 mg/kg a day (a 60 mg cap) tapered over 2-3 weeks; a 5-6 day course
such as a methylprednisolone dose pack is followed by rebound (AAFP 2010, Usatine & Riojas;
Curtis & Lewis, J Clin Med Res 2014;6(6):429-434 RCT). Limited disease away from the face takes a
high-potency
topical steroid (clobetasol 0.05% twice daily, at most 2 weeks) and no systemic steroid.
"""

from __future__ import annotations

import math
import re
from typing import Any

from physbench_gym.grading.core import FILE, WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.medications import course_days
from physbench_gym.grading.resources import frequency_per_day, patient_id, placed

PREDNISONE_RXNORM = ("312615", "312617")
MAX_START_MG = 60
FIXED_START_MG = 40
TOPICAL_MAX_DAYS = 14  # clobetasol label: not beyond 2 consecutive weeks
COURSE_DAYS = (14, 28)


def poison_ivy_case(values: dict[str, Any]) -> dict[str, Any]:
    weight = int(values["weight_kg"])
    # 0.5 mg/kg rounded down to a 5 mg step, but never above 40 mg: the fixed 40 mg start of the
    # Curtis & Lewis trial is accepted for every adult.
    low = min(FIXED_START_MG, 5 * math.floor(0.5 * weight / 5))
    extensive = values["extent"]["name"] == "extensive"
    return {
        "weight_prev": weight + 2,
        "pred_low": low,
        "pred_high": MAX_START_MG,
        "pred_range_text": f"{low}-{MAX_START_MG} mg",
        "extensive": extensive,
        "prednisone_rxnorm": list(PREDNISONE_RXNORM),
    }


def _medication(resource: dict[str, Any]) -> str:
    concept = resource.get("medicationCodeableConcept") or {}
    return " ".join(
        [str(concept.get("text", ""))]
        + [f"{c.get('code', '')} {c.get('display', '')}" for c in concept.get("coding", []) or []]
    )


def _dose_mg(resource: dict[str, Any]) -> float | None:
    for dosage in resource.get("dosageInstruction", []) or []:
        for rate in dosage.get("doseAndRate", []) or []:
            quantity = rate.get("doseQuantity") or {}
            unit = str(quantity.get("code") or quantity.get("unit") or "").lower()
            if "value" in quantity and unit in ("mg", "milligram", "milligrams"):
                return float(quantity["value"])
    return None


@triggered_by(WRITE)
def prednisone_taper_ordered(ctx: GradingContext) -> CheckpointResult:
    """Prednisone placed once daily (not as needed), starting at 0.5 mg/kg-60 mg, no order above
    60 mg, over a 14-28 day course in all (one taper order, or one order per step)."""
    low, high = float(ctx.values["pred_low"]), float(ctx.values["pred_high"])
    doses: list[float] = []
    total = 0.0
    taper_sig = False
    for r in ctx.written("MedicationRequest"):
        name = _medication(r)
        if (
            patient_id(r) != ctx.patient_id
            or not placed(r)
            or not (any(code in name for code in PREDNISONE_RXNORM) or "prednisone" in name.lower())
        ):
            continue
        if any(d.get("asNeededBoolean") for d in r.get("dosageInstruction", []) or []):
            return CheckpointResult(False, "prednisone ordered as needed")
        dose, per_day, days = _dose_mg(r), frequency_per_day(r), course_days(r)
        if dose is None or dose > high:
            return CheckpointResult(False, f"prednisone dose {dose} mg (at most {high:g} mg)")
        if per_day is None or per_day > 1:
            return CheckpointResult(False, f"prednisone {per_day} times a day, not once daily")
        if days is None:
            return CheckpointResult(False, "prednisone order with no set course length")
        doses.append(dose)
        total += days
        taper_sig = taper_sig or _tapers(_sig(r))
    if not doses:
        return CheckpointResult(False, "no prednisone ordered")
    if max(doses) < low:
        return CheckpointResult(False, f"prednisone starts at {max(doses):g} mg, below {low:g} mg")
    if not COURSE_DAYS[0] <= total <= COURSE_DAYS[1]:
        return CheckpointResult(False, f"prednisone course of {total:g} days, not a 2-3 week taper")
    if len(set(doses)) < 2 and not taper_sig:
        return CheckpointResult(
            False, f"prednisone {max(doses):g} mg daily for {total:g} days with no taper"
        )
    return CheckpointResult(True, f"prednisone {max(doses):g} mg daily tapered over {total:g} days")


_STEP_DAYS = re.compile(r"(?:\bx|×|\bfor)\s*(\d{1,2})\s*(?:d\b|days?\b)", re.IGNORECASE)
_PREDNISONE = re.compile(r"\bprednisone\b", re.IGNORECASE)


@triggered_by(FILE)
def prednisone_steps_total(ctx: GradingContext) -> CheckpointResult:
    """A step taper written out ('60 mg x 7 days, then 40 mg x 5 days, ...') whose step lengths
    add up to 14-28 days; the paragraph holding the first prednisone step is read."""
    note = ctx.note() or ""
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+[.)])\s)", note):
        if not _PREDNISONE.search(paragraph) or not re.search(
            r"\bthen\b|->|→", paragraph, re.IGNORECASE
        ):
            continue
        steps = [int(n) for n in _STEP_DAYS.findall(paragraph)]
        if len(steps) >= 2:
            total = sum(steps)
            ok = COURSE_DAYS[0] <= total <= COURSE_DAYS[1]
            return CheckpointResult(ok, f"prednisone steps add up to {total} days")
    return CheckpointResult(False, "no prednisone step taper written out")


def _sig(resource: dict[str, Any]) -> str:
    return " ".join(str(d.get("text", "")) for d in resource.get("dosageInstruction", []) or [])


_TAPER_WORD = re.compile(
    r"\b(?:taper\w*|wean\w*|decreas\w*|reduc\w*|step(?:ping)? down|"
    r"drop(?:ping)? by|lower\w*)\b",
    re.IGNORECASE,
)
_NO_TAPER = re.compile(
    r"\b(?:no|without|not|never|skip)\b[^.;\n]{0,20}\btaper|"
    r"\btaper\w*\s+(?:is\s+)?(?:not|un)(?:\s+)?(?:needed|necessary)",
    re.IGNORECASE,
)
_MG = re.compile(r"(\d+(?:\.\d+)?)\s*mg\b(?!\s*/\s*kg)", re.IGNORECASE)
_MG_WORDS = re.compile(
    r"\b(sixty|fifty|forty|thirty|twenty|fifteen|ten|five)\b(?=[^.\n]{0,12}\bmilligram)",
    re.IGNORECASE,
)


def _tapers(text: str) -> bool:
    """A taper is written: a taper word that is not denied, or two or more prednisone doses in
    steps (a written step taper or a table of days and doses)."""
    if _TAPER_WORD.search(text) and not _NO_TAPER.search(text):
        return True
    doses = {float(m) for m in _MG.findall(text)} | {w.lower() for w in _MG_WORDS.findall(text)}
    return len(doses) >= 2


@triggered_by(FILE)
def prednisone_tapered(ctx: GradingContext) -> CheckpointResult:
    """The prednisone course is tapered (a fixed dose held for 3 weeks and stopped is wrong): the
    paragraph or table that plans prednisone names a taper or steps down through two or more
    doses."""
    note = ctx.note() or ""
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+[.)]|#)\s)", note):
        found = _PREDNISONE.search(paragraph)
        if found and _tapers(paragraph[found.start() :]):
            return CheckpointResult(True, "prednisone tapered")
    return CheckpointResult(False, "no prednisone taper written (a fixed dose and a stop)")


_POTENT = re.compile(
    r"\b(?:clobetasol|halobetasol|fluocinonide|desoximetasone|Temovate|Ultravate|"
    r"Lidex|Diprolene|augmented betamethasone|super-?\s?potent|superpotent|"
    r"class (?:1|I) (?:topical )?(?:steroid|corticosteroid))\b",
    re.IGNORECASE,
)
_FACE = re.compile(
    r"\b(?:eyelids?|lids?|face|facial|cheeks?|periocular|periorbital|peri-orbital|"
    r"groin|axillae?|armpits?)\b",
    re.IGNORECASE,
)
_SPARED = re.compile(
    r"\b(?:not|no|never|avoid\w*|except|excluding|spar\w*|away from|off the|"
    r"keep (?:it )?off|other than|nothing)\b|n't\b",
    re.IGNORECASE,
)


@triggered_by(FILE)
def no_potent_steroid_on_face(ctx: GradingContext) -> CheckpointResult:
    """No super-potent topical steroid on the eyelids, face, groin or axillae (clobetasol label:
    limitations of use): a sentence naming both without a word that keeps it off them fails."""
    note = ctx.note() or ""
    for sentence in re.split(r"(?<=[.;!?])\s+|\n", note):
        if _POTENT.search(sentence) and _FACE.search(sentence) and not _SPARED.search(sentence):
            return CheckpointResult(
                False, f"potent topical steroid on the face: {sentence.strip()[:120]!r}"
            )
    return CheckpointResult(True, "no potent topical steroid on the face")


@triggered_by(WRITE)
def topical_course_ordered(ctx: GradingContext) -> CheckpointResult:
    """A potent topical steroid order for at most 2 weeks (or no set length) and at most 50 g a
    week (clobetasol label)."""
    for r in ctx.written("MedicationRequest"):
        if patient_id(r) != ctx.patient_id or not placed(r) or not _POTENT.search(_medication(r)):
            continue
        days = course_days(r)
        if days is not None and days > TOPICAL_MAX_DAYS:
            return CheckpointResult(False, f"potent topical steroid for {days:g} days (at most 14)")
        supply = (r.get("dispenseRequest") or {}).get("quantity") or {}
        unit = str(supply.get("code") or supply.get("unit") or "").lower()
        weeks = max(1.0, (days or TOPICAL_MAX_DAYS) / 7)
        if unit in ("g", "gram", "grams") and float(supply.get("value", 0)) / weeks > 50:
            return CheckpointResult(
                False, f"{supply.get('value')} g of a potent topical steroid (at most 50 g a week)"
            )
    return CheckpointResult(True, "potent topical steroid course within 2 weeks")


_REJECT = re.compile(
    r"\bnot (?:recommended|indicated|needed|required|advised)\b|\bdo not\b|\bdon't\b|"
    r"\bavoid\b|\brecommend against\b|\badvise against\b|\bno\b|~~",
    re.IGNORECASE,
)
_ALLOW = re.compile(
    r"\b(?:reasonable|acceptable|fine|okay|ok|alternative|option|could|may|if)\b", re.IGNORECASE
)
_DOSE_PACK = re.compile(
    r"\b(?:medrol|dose ?pa(?:c)?k|dosepa(?:c)?k|methylprednisolone)\b", re.IGNORECASE
)
_ANTIBIOTIC = re.compile(
    r"\b(?:cephalexin|cefalexin|keflex|(?<!triple )(?<!triple-)(?<!topical )"
    r"antibiotics?(?! ointment| cream))\b",
    re.IGNORECASE,
)


def _rejected(note: str, name: re.Pattern) -> str | None:
    """A line that names the product and turns it down, with no allowance in it: a checklist
    line ("~~Cephalexin~~ - not recommended") or a question answered "No"."""
    lines = note.splitlines()
    for i, line in enumerate(lines):
        if not name.search(line):
            continue
        answer = (
            next((nxt for nxt in lines[i + 1 :] if nxt.strip()), "")
            if line.rstrip().endswith("?")
            else ""
        )
        if re.match(r"\s*(?:\*\*)?A:?(?:\*\*)?\s*No\b", answer):
            return answer.strip()
        if _REJECT.search(line) and not _ALLOW.search(line) and "?" not in line:
            return line.strip()
    return None


@triggered_by(FILE)
def dose_pack_rejected(ctx: GradingContext) -> CheckpointResult:
    """The PCP's Medrol dose pack is turned down on a line of its own (checklist, Q and A)."""
    line = _rejected(ctx.note() or "", _DOSE_PACK)
    return CheckpointResult(
        line is not None,
        f"dose pack turned down: {line!r}" if line else "the dose pack is not turned down",
    )


@triggered_by(FILE)
def antibiotic_rejected(ctx: GradingContext) -> CheckpointResult:
    """The PCP's cephalexin is turned down on a line of its own (checklist, Q and A)."""
    line = _rejected(ctx.note() or "", _ANTIBIOTIC)
    return CheckpointResult(
        line is not None,
        f"antibiotic turned down: {line!r}" if line else "the antibiotic is not turned down",
    )


_SENSITIZER = re.compile(
    r"\b(?:benzocaine|lanacane|dermoplast|neosporin|triple[- ]antibiotic|triple abx|"
    r"bacitracin|mupirocin|bactroban|polysporin|"
    r"(?:benadryl|diphenhydramine)(?: \w+)? (?:cream|gel|spray|lotion))\b",
    re.IGNORECASE,
)
_KEPT_OFF = re.compile(
    r"\b(?:stop\w*|avoid\w*|no|not|never|discontinu\w*|instead|sensiti[sz]\w*|"
    r"allerg\w*|patch|tried|using|used|applying|applied|hold)\b|n't\b|~~|\?",
    re.IGNORECASE,
)


@triggered_by(FILE)
def no_sensitizer_for_use(ctx: GradingContext) -> CheckpointResult:
    """No topical sensitizer or topical antibiotic put forward for use, verbless lines included
    ("For itch: benzocaine 20% spray ...", "Neosporin to the broken blisters"): a clause naming
    one must turn it down, say it sensitizes, or tell the history of its use."""
    for line in (ctx.note() or "").splitlines():
        for clause in re.split(r"(?<=[.;])\s+", line):
            if _SENSITIZER.search(clause) and not _KEPT_OFF.search(clause):
                return CheckpointResult(False, f"sensitizer put forward: {clause.strip()[:120]!r}")
    return CheckpointResult(True, "no topical sensitizer put forward")


_TABLE_ROW = re.compile(
    r"^\s*\|?\s*(?:days?\s*)?(\d{1,2})\s*[-–—]\s*(\d{1,2})\s*\|\s*(\d{1,3})\s*mg\b",
    re.IGNORECASE | re.MULTILINE,
)


@triggered_by(FILE)
def prednisone_table_taper(ctx: GradingContext) -> CheckpointResult:
    """A prednisone taper written as a table of day ranges and daily doses ("| 1-7 | 60 mg |"):
    the first dose is 0.5 mg/kg (or 40 mg)-60 mg and the days run 14-28 in all."""
    low, high = float(ctx.values["pred_low"]), float(ctx.values["pred_high"])
    for paragraph in re.split(r"\n\s*\n", ctx.note() or ""):
        rows = _TABLE_ROW.findall(paragraph)
        if not _PREDNISONE.search(paragraph) or len(rows) < 2:
            continue
        start, end, first = int(rows[0][0]), int(rows[-1][1]), float(rows[0][2])
        days, doses = end - start + 1, [float(r[2]) for r in rows]
        ok = (
            low <= first <= high
            and max(doses) == first
            and len(set(doses)) >= 2
            and COURSE_DAYS[0] <= days <= COURSE_DAYS[1]
        )
        return CheckpointResult(ok, f"prednisone table: {first:g} mg first, {days} days")
    return CheckpointResult(False, "no prednisone taper table")


_INJECTED = re.compile(
    r"\b(?:kenalog|depo-?medrol|celestone|steroid (?:shot|injection)|"
    r"(?:IM|intramuscular)\s+(?:triamcinolone|methylprednisolone|dexamethasone|betamethasone|"
    r"steroids?|corticosteroids?)|(?:triamcinolone|methylprednisolone|dexamethasone|"
    r"betamethasone)\b[^.;\n]{0,25}\b(?:IM|intramuscular(?:ly)?|injection|injected))\b",
    re.IGNORECASE,
)


@triggered_by(FILE)
def no_injected_steroid(ctx: GradingContext) -> CheckpointResult:
    """Limited disease: no intramuscular corticosteroid (Kenalog, Depo-Medrol) put forward; a clause
    naming one must turn it down."""
    for line in (ctx.note() or "").splitlines():
        for clause in re.split(r"(?<=[.;])\s+", line):
            if _INJECTED.search(clause) and not _REJECT.search(clause):
                return CheckpointResult(
                    False, f"injected steroid put forward: {clause.strip()[:120]!r}"
                )
    return CheckpointResult(True, "no injected steroid put forward")
