"""Follow-up after a bleeding H. pylori gastric ulcer: derived dates and the order checks.

ACG 2024 (Chey et al.): optimized bismuth quadruple therapy for 14 days - a PPI twice daily,
bismuth (subcitrate 120-300 mg or subsalicylate 262-524 mg) four times daily, tetracycline
500 mg four times daily and metronidazole 500 mg three or four times daily - then a test of
cure (urea breath test, stool antigen or biopsy-based tests at endoscopy) at least 4 weeks
after therapy, PPI held 2 weeks. A gastric ulcer gets a repeat EGD with biopsies 8-12 weeks
after the index endoscopy.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from physbench_graders.common import strength_mcg

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import dose, frequency_per_day, matches_code, patient_id
from physbench_gym.synth import terminology

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
BQT_DAYS = 14
TEST_OF_CURE_WEEKS = 4

# (label, RxNorm codes, accepted mg per dose, accepted administrations per day)
BQT_COMPONENTS = (
    ("tetracycline 500 mg four times daily", ("198252",), (500.0, 500.0), (4.0, 4.0)),
    ("metronidazole 500 mg three or four times daily", ("311681",), (500.0, 500.0),
     (3.0, 4.0)),
    ("bismuth subsalicylate 262-524 mg four times daily", ("308761",), (262.0, 524.0),
     (4.0, 4.0)),
)
TEST_OF_CURE_CODES = ("http://loinc.org|29891-9", "http://loinc.org|17780-8",
                      "http://www.ama-assn.org/go/cpt|83013")
EGD_CODES = ("http://www.ama-assn.org/go/cpt|43235", "http://www.ama-assn.org/go/cpt|43239")
# A biopsy-based test of cure at the repeat EGD: the order's text names gastric biopsies
# (histology, rapid urease/CLO test or culture) for H. pylori in one clause, not negated.
_HP = r"(?:h\.?\s*pylori|helicobacter(?:\s+pylori)?|\bhp\b)"
_BIOPSY_TEST = r"(?:biops\w*|rapid\s+urease|\bclo\b|\brut\b|histolog\w*|culture)"
_BIOPSY_FOR_HP = re.compile(
    rf"{_BIOPSY_TEST}[^.;\n]{{0,60}}?{_HP}|{_HP}[^.;\n]{{0,60}}?{_BIOPSY_TEST}", re.IGNORECASE)
# another test named in the span or right after it ("biopsies and an H. pylori breath test")
_OTHER_TEST = re.compile(r"breath|stool|antigen|serolog|\bubt\b", re.IGNORECASE)
_OTHER_TEST_NEXT = re.compile(r"^[\s-]*(?:\w+[\s-]+){0,2}?(?:breath|stool|antigen|serolog|ubt)\b",
                              re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:no|not|without|instead\s+of|rather\s+than|defer\w*|omit\w*"
                      r"|unnecessary|not\s+needed)\b[^.;\n]*$", re.IGNORECASE)
_COUNT_UNITS = {"tablet", "tablets", "tab", "tabs", "{tbl}", "capsule", "capsules", "cap",
                "caps", "{cap}", "chewable tablet", "each", "{each}"}
# "x14d" has no word boundary before the number, so digits, not word edges, delimit it.
_FOURTEEN_DAYS = re.compile(r"(?<![\d.])(14|fourteen)[\s-]*(d|days?)\b"
                            r"|(?<![\d.])(2|two)[\s-]*(wk|wks|weeks?)\b", re.IGNORECASE)


def gi_bleed_followup(values: dict[str, Any]) -> dict[str, Any]:
    """Dates of the admission, endoscopy and discharge, and the windows of the follow-up tests.

    The index EGD was ``egd_days_ago`` days before now (admitted the day before, discharged 3
    days after). Test of cure: no earlier than 4 weeks after the 14-day course ends. Repeat
    EGD: 8-12 weeks after the index EGD; an order dated 6-14 weeks after it is accepted.
    The recent hemoglobin rises from the discharge value by ``hb_gain_per_day`` (0.1-0.2 g/dL
    a day, a plausible marrow response) over the 3-10 days since discharge.
    """
    now: datetime = values["now"]
    egd_ago = int(values["egd_days_ago"])
    egd = now - timedelta(days=egd_ago)
    earliest_test = now + timedelta(days=BQT_DAYS + 7 * TEST_OF_CURE_WEEKS)
    hb_admit = float(values["hb_admit"])
    hb_discharge = round(hb_admit + 1.5, 1)
    days_since_discharge = egd_ago - 6  # discharged 3 days after the EGD, seen 3 days ago
    return {
        "admit_offset": f"-{egd_ago + 1}d",
        "egd_offset": f"-{egd_ago}d",
        "discharge_offset": f"-{egd_ago - 3}d",
        "path_offset": f"-{egd_ago - 4}d",  # a day after discharge (pending then)
        "naproxen_stop_offset": f"-{egd_ago + 1}d",
        "egd_date": egd.date().isoformat(),
        "discharge_days_ago": egd_ago - 3,
        "hb_transfused": round(hb_admit + 1.7, 1),
        "hb_discharge": hb_discharge,
        "hb_recent": round(hb_discharge + float(values["hb_gain_per_day"]) * days_since_discharge,
                           1),
        "ulcer_cm": f"{int(values['ulcer_mm']) / 10:.1f}",
        "test_of_cure_earliest": (earliest_test - timedelta(days=1)).date().isoformat(),
        "test_of_cure_date": (now + timedelta(days=BQT_DAYS + 35)).date().isoformat(),
        "egd_window_start": (egd + timedelta(weeks=6)).date().isoformat(),
        "egd_window_end": (egd + timedelta(weeks=14)).date().isoformat(),
        "repeat_egd_date": (egd + timedelta(weeks=10)).date().isoformat(),
        "weeks_since_egd": round(egd_ago / 7, 1),
    }


def _mg_per_dose(resource: dict[str, Any]) -> float | None:
    found = dose(resource)
    if found is None:
        return None
    value, unit = found
    unit = unit_normalize(unit)
    if unit == "mg":
        return value
    if unit == "g":
        return value * 1000
    if unit == "mcg":
        return value / 1000
    if unit in _COUNT_UNITS:
        code = next((c for s, c in _codes(resource) if s == RXNORM), None)
        try:
            per_unit = strength_mcg(terminology.rxnorm(code).display) if code else None
        except LookupError:
            per_unit = None
        return value * per_unit / 1000 if per_unit else None
    return None


def _codes(resource: dict[str, Any]) -> list[tuple[str, str]]:
    concept = resource.get("medicationCodeableConcept") or {}
    return [(str(c.get("system", "")), str(c.get("code", "")))
            for c in concept.get("coding", []) or []]


def _days(quantity: dict[str, Any] | None) -> float | None:
    if not quantity or quantity.get("value") is None:
        return None
    unit = unit_normalize(str(quantity.get("code") or quantity.get("unit") or "d"))
    factor = {"h": 1 / 24, "wk": 7.0, "mo": 30.0}.get(unit, 1.0)
    return float(quantity["value"]) * factor


def _duration_problem(resource: dict[str, Any]) -> str | None:
    """None when the order runs 14 days (timing bounds, supply duration or sig text)."""
    found = [_days((i.get("timing") or {}).get("repeat", {}).get("boundsDuration"))
             for i in resource.get("dosageInstruction", []) or []]
    found.append(_days((resource.get("dispenseRequest") or {}).get("expectedSupplyDuration")))
    known = [d for d in found if d is not None]
    if known:
        wrong = [d for d in known if abs(d - BQT_DAYS) > 0.01]
        return f"{wrong[0]:g} days (not {BQT_DAYS})" if wrong else None
    sig = " ".join(str(i.get("text", "")) for i in resource.get("dosageInstruction", []) or [])
    return None if _FOURTEEN_DAYS.search(sig) else "no 14-day duration"


def _component_problems(resource: dict[str, Any], mg: tuple[float, float],
                        per_day: tuple[float, float]) -> list[str]:
    problems = []
    if resource.get("status") != "active" or resource.get("intent") != "order":
        problems.append(f"status {resource.get('status')}/{resource.get('intent')}")
    amount = _mg_per_dose(resource)
    if amount is None or not mg[0] - 0.5 <= amount <= mg[1] + 0.5:
        problems.append(f"dose {dose(resource)}")
    times = frequency_per_day(resource)
    if times is None or not per_day[0] <= times <= per_day[1]:
        problems.append(f"{times} times/day")
    duration = _duration_problem(resource)
    if duration:
        problems.append(duration)
    return problems


@triggered_by(WRITE)
def bismuth_quadruple_ordered(ctx: GradingContext) -> CheckpointResult:
    """Prescribed the antibiotic and bismuth parts of optimized bismuth quadruple therapy, each
    at the ACG 2024 dose and frequency for 14 days (the PPI twice daily is already active)."""
    written = [r for r in ctx.written("MedicationRequest") if patient_id(r) == ctx.patient_id]
    missing, wrong = [], []
    for label, codes, mg, per_day in BQT_COMPONENTS:
        candidates = [r for r in written if matches_code(r, list(codes))]
        if not candidates:
            missing.append(label)
            continue
        problems = [_component_problems(r, mg, per_day) for r in candidates]
        if all(problems):
            wrong.append(f"{label}: {', '.join(problems[0])}")
    if missing or wrong:
        parts = ([f"not ordered: {'; '.join(missing)}"] if missing else []) + wrong
        return CheckpointResult(False, "bismuth quadruple therapy incomplete - " + "; ".join(parts))
    return CheckpointResult(True, "bismuth, tetracycline and metronidazole ordered for 14 days")


def _occurrence(resource: dict[str, Any]) -> str | None:
    value = resource.get("occurrenceDateTime") or (resource.get("occurrencePeriod") or {}).get(
        "start")
    return str(value)[:10] if value else None


def _order_problems(resource: dict[str, Any], low: str | None, high: str | None) -> list[str]:
    problems = []
    if resource.get("status") != "active" or resource.get("intent") != "order":
        problems.append(f"status {resource.get('status')}/{resource.get('intent')}")
    when = _occurrence(resource)
    if when and ((low and when < low) or (high and when > high)):
        problems.append(f"dated {when}")
    return problems


def _order_text(resource: dict[str, Any]) -> str:
    """The order's own words: code text and displays, reasons and notes."""
    code = resource.get("code") or {}
    parts = [str(code.get("text", ""))]
    parts += [str(c.get("display", "")) for c in code.get("coding", []) or []]
    parts += [str(r.get("text", "")) for r in resource.get("reasonCode", []) or []]
    parts += [str(n.get("text", "")) for n in resource.get("note", []) or []]
    return "\n".join(p for p in parts if p)


def biopsy_test_of_cure(resource: dict[str, Any]) -> bool:
    """Whether an EGD order asks for gastric biopsies for H. pylori (histology, rapid urease
    test or culture) - a biopsy-based test of cure (ACG 2024)."""
    if not matches_code(resource, list(EGD_CODES)):
        return False
    text = re.sub(r"\bh\.\s*pylori", "h pylori", _order_text(resource), flags=re.IGNORECASE)
    for match in _BIOPSY_FOR_HP.finditer(text):
        clause_start = max(text.rfind(mark, 0, match.start()) for mark in ".;\n,")
        if _OTHER_TEST.search(match.group(0)) or _OTHER_TEST_NEXT.search(
                text[match.end():]) or re.search(
                r"\b(?:no|not|without)\b", match.group(0), re.IGNORECASE):
            continue
        if not _NEGATED.search(text[clause_start + 1:match.start()]):
            return True
    return False


@triggered_by(WRITE)
def followup_tests_ordered(ctx: GradingContext) -> CheckpointResult:
    """Ordered a test of cure (urea breath test or stool antigen, or gastric biopsies for
    H. pylori at the repeat EGD), dated - if a date is given - no earlier than 4 weeks after
    the 14-day course, and a repeat EGD, dated - if given - 6-14 weeks after the index
    endoscopy."""
    written = [r for r in ctx.written("ServiceRequest") if patient_id(r) == ctx.patient_id]
    checks = (
        ("H. pylori test of cure (urea breath test, stool antigen or biopsies for H. pylori "
         "at the repeat EGD)", lambda r: matches_code(r, list(TEST_OF_CURE_CODES))
         or biopsy_test_of_cure(r), str(ctx.values["test_of_cure_earliest"]), None),
        ("repeat EGD", lambda r: matches_code(r, list(EGD_CODES)),
         str(ctx.values["egd_window_start"]), str(ctx.values["egd_window_end"])),
    )
    failures = []
    for label, is_candidate, low, high in checks:
        candidates = [r for r in written if is_candidate(r)]
        problems = [_order_problems(r, low, high) for r in candidates]
        if not candidates:
            failures.append(f"no {label} ordered")
        elif all(problems):
            failures.append(f"{label}: {', '.join(problems[0])}")
    if failures:
        return CheckpointResult(False, "; ".join(failures))
    return CheckpointResult(True, "test of cure and repeat EGD ordered")
