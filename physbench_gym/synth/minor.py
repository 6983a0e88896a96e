"""Minor acute problems: a resolved diagnosis, a same-day visit, a short course, a brief note."""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta
from typing import Any

from physbench_gym.synth import terminology as term
from physbench_gym.synth.builder import ChartBuilder, known
from physbench_gym.synth.chart_items import Order, medication_request, sig_text
from physbench_gym.synth.notes import acute_note
from physbench_gym.synth.story import Dose, Frequency, Story
from physbench_gym.synth.timeline import Timeline

# (SNOMED candidates, complaint, (ingredient, times per day, days) or None, ED visit chance)
MINOR_PROBLEMS: tuple[tuple[tuple[str, ...], str, tuple[str, int, int] | None, float], ...] = (
    (("54150009", "54398005"), "Cough and nasal congestion", None, 0.0),
    (("15805002", "36971009"), "Facial pressure and congestion", ("amoxicillin 875", 2, 10),
     0.0),
    (("10509002",), "Productive cough", ("azithromycin 250", 1, 5), 0.0),
    (("44465007",), "Ankle pain after a twisting injury", ("naproxen 500", 2, 10), 0.5),
    (("68566005",), "Dysuria and urinary frequency", ("nitrofurantoin 100", 2, 5), 0.0),
    (("65363002",), "Ear pain", ("amoxicillin 875", 2, 10), 0.0),
    (("279039007",), "Low back pain after lifting", ("cyclobenzaprine 10", 3, 7), 0.2),
    (("363746003", "43878008"), "Sore throat", ("amoxicillin 500", 2, 10), 0.0),
    (("40275004",), "Itchy rash on the forearms", None, 0.0),
    (("25374005",), "Nausea and diarrhea", ("ondansetron 4", 3, 3), 0.3),
)
_STRENGTH = re.compile(r"([0-9.]+)\s*(MG|MCG|G)\b", re.IGNORECASE)
# Allergy substances (lower case) that rule out a course's drug: its class and itself.
_RULED_OUT_BY = {
    "amoxicillin": ("penicillin", "amoxicillin", "ampicillin", "beta-lactam", "beta lactam"),
    "azithromycin": ("macrolide", "azithromycin", "erythromycin", "clarithromycin"),
    "naproxen": ("nsaid", "naproxen", "ibuprofen", "aspirin", "non-steroidal"),
    "nitrofurantoin": ("nitrofurantoin",),
    "cyclobenzaprine": ("cyclobenzaprine",),
    "ondansetron": ("ondansetron",),
}


@functools.cache
def _condition(candidates: tuple[str, ...]) -> str | None:
    for code in candidates:
        try:
            term.condition(code)
        except KeyError:
            continue
        return code
    return None


@functools.cache
def find_drug(query: str, route: str = "oral") -> term.Concept | None:
    """The best single-ingredient product for ``query`` (e.g. 'lisinopril 10') by ``route``."""
    found = [c for c in term.search(query, table="rxnorm", limit=20)
             if c.extra.get("route") == route and "/" not in c.extra.get("ingredient", "")]
    if not found and " " in query:
        return find_drug(query.split()[0], route)
    return found[0] if found else None


def unit_dose(drug: term.Concept) -> Dose:
    """The dose of one unit of a product: its strength ('0.075 MG' is 75 ug), else 1 unit."""
    match = _STRENGTH.fullmatch(drug.extra.get("strength", "").strip())
    if match:
        value, unit = float(match.group(1)), match.group(2).lower()
        if unit == "mg" and value < 1:
            return Dose(value=round(value * 1000, 3), unit="ug")
        return Dose(value=value, unit={"mg": "mg", "mcg": "ug", "g": "g"}[unit])
    form = drug.extra.get("dose_form", "").lower()
    if "capsule" in form:
        return Dose(value=1, unit="{cap}")
    if "tablet" in form:
        return Dose(value=1, unit="{tbl}")
    return Dose(value=1, unit="{application}")


def _options() -> list[tuple[str, str, tuple[str, int, int] | None, float]]:
    options = []
    for candidates, complaint, course, ed_chance in MINOR_PROBLEMS:
        code = _condition(candidates)
        if code is not None:
            options.append((code, complaint, course, ed_chance))
    return options


def _condition_resource(builder: ChartBuilder, code: str, onset: datetime, encounter: str,
                        resolved: date) -> dict[str, Any]:
    codings = term.condition_codings(code)
    return {
        "resourceType": "Condition", "id": builder.new_id("cond"),
        "clinicalStatus": {"coding": [{
            "system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
            "code": "resolved"}]},
        "verificationStatus": {"coding": [{
            "system": "http://terminology.hl7.org/CodeSystem/condition-ver-status",
            "code": "confirmed"}]},
        "category": [{"coding": [{
            "system": "http://terminology.hl7.org/CodeSystem/condition-category",
            "code": "encounter-diagnosis", "display": "Encounter Diagnosis"}]}],
        "code": {"coding": codings, "text": codings[0]["display"]},
        "subject": builder.patient_ref, "encounter": {"reference": f"Encounter/{encounter}"},
        "onsetDateTime": onset.date().isoformat(), "abatementDateTime": resolved.isoformat(),
        "recordedDate": onset.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _one(builder: ChartBuilder, story: Story, timeline: Timeline,
         option: tuple[str, str, tuple[str, int, int] | None, float], day: date) -> None:
    code, complaint, course, ed_chance = option
    setting = "EMER" if builder.rng.random() < ed_chance else "AMB"
    moment = builder.clinic_time(day, setting)
    encounter = builder.visit(moment, setting, builder.pcp)
    builder.add_reason(encounter, term.condition_codings(code))
    resolved = min(day + timedelta(days=builder.rng.randint(7, 21)), story.now.date())
    builder.emit(_condition_resource(builder, code, moment, encounter, resolved))
    timeline.problem(code, moment, datetime(resolved.year, resolved.month, resolved.day,
                                            tzinfo=story.now.tzinfo))
    treatment = None
    drug = find_drug(course[0]) if course else None
    if course and drug is not None:
        _, times, days = course
        end = builder.cap(moment + timedelta(days=days))
        order = Order(drug.code, moment + timedelta(minutes=25), end, "completed",
                      unit_dose(drug), Frequency(times=times, period=1, unit="d"),
                      reason=code, refills=0, course="acute")
        medication_request(builder, order)
        treatment = f"{drug.display}, {sig_text(drug, order).lower()} for {days} days"
    display = term.condition(code).display
    text = acute_note(f"{story.patient.given[0]} {story.patient.family}", story.age_at(day),
                      "woman" if story.patient.gender == "female" else "man", complaint,
                      display, treatment, builder.rng)
    note_type = "34111-5" if setting == "EMER" and known("34111-5") else "11506-3"
    builder.document(note_type, moment + timedelta(minutes=30), encounter, builder.pcp,
                     "ED visit" if setting == "EMER" else "Acute visit", text)


def add_minor_problems(builder: ChartBuilder, story: Story, timeline: Timeline,
                       count: int) -> None:
    """Add ``count`` resolved minor problems spread over the history (none in the last month)."""
    options = _options()
    span = 365 * story.history_years - 30
    if not options or span <= 0:
        return
    allergies = " ".join(entry.substance.lower() for entry in story.allergies)
    for _ in range(count):
        option = builder.rng.choice(options)
        if option[0] == "68566005" and story.patient.gender != "female":
            continue
        if option[2] and any(word in allergies
                             for word in _RULED_OUT_BY.get(option[2][0].split()[0], ())):
            continue
        day = story.now.date() - timedelta(days=30 + builder.rng.randrange(span))
        _one(builder, story, timeline, option, day)
