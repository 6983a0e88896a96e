"""Routine-care noise around a story: annual and follow-up visits with vitals, routine panels,
progress notes, flu shots and minor acute problems with short prescription courses.

Noise never emits a code the story owns, so the story's series stay the only source of truth.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from physbench_gym.synth import terminology as term
from physbench_gym.synth.builder import ChartBuilder, decimals, known
from physbench_gym.synth.chart_items import immunization
from physbench_gym.synth.minor import add_minor_problems
from physbench_gym.synth.notes import VisitFacts, progress_note
from physbench_gym.synth.story import Story
from physbench_gym.synth.timeline import DIABETES, HYPERLIPIDEMIA, HYPERTENSION, Timeline

PANELS = {
    "cbc": (("58410-2", "57021-8"), ("6690-2", "789-8", "718-7", "4544-3", "787-2", "777-3")),
    "bmp": (("51990-0", "24320-4"),
            ("2951-2", "2823-3", "2075-0", "2028-9", "3094-0", "2160-0", "2345-7", "17861-6")),
    "lipid": (("57698-3", "24331-1"), ("2093-3", "2085-9", "13457-7", "2571-8")),
    "a1c": ((), ("4548-4",)),
}
EGFR_CODES = ("98979-8", "62238-1", "33914-3")
_VITAL_LABELS = {"8480-6": "BP", "8867-4": "HR", "9279-1": "RR", "8310-5": "Temp",
                 "59408-5": "SpO2", "29463-7": "Weight", "8302-2": "Height", "39156-5": "BMI"}
_VITAL_UNITS = {"8867-4": "/min", "9279-1": "/min", "8310-5": " C", "59408-5": "%",
                "29463-7": " kg", "8302-2": " cm", "39156-5": " kg/m2"}


class Profile:
    """A patient's stable baselines (body size, blood pressure, lab set points)."""

    def __init__(self, rng: random.Random, story: Story, timeline: Timeline) -> None:
        self.rng = rng
        female = story.patient.gender == "female"
        self.female = female
        self.gender = story.patient.gender
        self.height = rng.gauss(163 if female else 177, 7)
        self.bmi = min(max(rng.gauss(27.5, 4.5), 19.0), 42.0)
        hypertensive = timeline.has_problem(HYPERTENSION, story.now)
        self.systolic = rng.gauss(134 if hypertensive else 121, 9)
        self.diastolic = rng.gauss(82 if hypertensive else 76, 6)
        self.heart_rate = rng.gauss(73, 7)
        self.smoker = rng.choices(("266919005", "8517006", "77176002"), (0.6, 0.28, 0.12))[0]
        self._set_points: dict[str, tuple[float, float]] = {}
        self.diabetic = timeline.has_problem(DIABETES, story.now)

    def lab(self, code: str) -> float | None:
        """A plausible value near this patient's set point; None for codes without a range."""
        found = term.loinc(code).reference_range(self.gender)
        low, high = (found.low, found.high) if found else (None, None)
        if code not in self._set_points:
            centre_sd = self._set_point(code, low, high)
            if centre_sd is None:
                return None
            self._set_points[code] = centre_sd
        centre, sd = self._set_points[code]
        value = max(self.rng.gauss(centre, sd), 0.1)
        places = decimals(code, low, high)
        return round(value, places) if places else float(round(value))

    def _set_point(self, code: str, low: float | None,
                   high: float | None) -> tuple[float, float] | None:
        if self.diabetic and code == "4548-4":
            return self.rng.uniform(6.6, 8.4), 0.3
        if self.diabetic and code == "2345-7":
            return self.rng.uniform(115, 170), 18
        if low is not None and high is not None:
            return low + (high - low) * self.rng.uniform(0.25, 0.75), (high - low) * 0.07
        if high is not None:
            return high * self.rng.uniform(0.6, 1.05), high * 0.06
        if low is not None:
            return low * self.rng.uniform(1.1, 1.6), low * 0.06
        return None


def egfr(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 eGFR (mL/min/1.73 m2) from serum creatinine in mg/dL."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    value = 142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
    return round(value * (1.012 if female else 1.0))


def _vitals(builder: ChartBuilder, profile: Profile, moment: datetime, encounter: str,
            owned: frozenset[str], years: float) -> list[str]:
    rng = profile.rng
    weight = profile.bmi * (profile.height / 100) ** 2 + rng.gauss(years * 0.4, 1.2)
    values = {
        "8302-2": round(profile.height, 1), "29463-7": round(weight, 1),
        "39156-5": round(weight / (profile.height / 100) ** 2, 1),
        "8480-6": float(round(profile.systolic + rng.gauss(0, 7))),
        "8462-4": float(round(profile.diastolic + rng.gauss(0, 5))),
        "8867-4": float(round(profile.heart_rate + rng.gauss(0, 6))),
        "9279-1": float(rng.choice((14, 16, 16, 18))), "8310-5": round(rng.uniform(36.4, 37.1), 1),
        "59408-5": float(rng.choice((96, 97, 98, 98, 99))),
    }
    if "29463-7" in owned:
        owned = owned | {"39156-5"}
    labels = []
    for code, value in values.items():
        if code in owned or not known(code):
            continue
        builder.observation(code, moment, encounter, value=value)
        if code == "8480-6" and known("8462-4") and "8462-4" not in owned:
            labels.append(f"BP {value:g}/{values['8462-4']:g} mmHg")
        elif code in _VITAL_LABELS:
            labels.append(f"{_VITAL_LABELS[code]} {value:g}{_VITAL_UNITS.get(code, '')}")
    return labels


def _panel(builder: ChartBuilder, profile: Profile, name: str, moment: datetime,
           encounter: str, owned: frozenset[str], age: int) -> str | None:
    panel_codes, codes = PANELS[name]
    values: dict[str, float] = {}
    for code in codes:
        if code not in owned and known(code):
            value = profile.lab(code)
            if value is not None:
                values[code] = value
    if name == "lipid" and {"2093-3", "2085-9", "2571-8", "13457-7"} <= set(values):
        values["2093-3"] = float(round(values["2085-9"] + values["13457-7"]
                                       + values["2571-8"] / 5))
    if name == "bmp" and "2160-0" in values:
        for code in EGFR_CODES:
            if known(code) and code not in owned:
                values[code] = float(egfr(values["2160-0"], age, profile.female))
                break
    if not values:
        return None
    results = [builder.observation(code, moment, encounter, value=value)
               for code, value in values.items()]
    panel = next((code for code in panel_codes if known(code)), None)
    if panel is not None:
        builder.panel(panel, moment, encounter, results)
        return term.lookup("loinc", panel).display
    return term.loinc(codes[0]).display


ROUTINE_QUIET_DAYS = 45


def _visit_days(rng: random.Random, story: Story, timeline: Timeline) -> list[tuple[date, str]]:
    born = story.birth_date()
    adult = date(born.year + 18, born.month, min(born.day, 28))
    first = max(story.now.date() - timedelta(days=365 * story.history_years), adult)
    # Not in the weeks before the consult: the story's own visits cover them, and a routine
    # 'feels well' visit then would contradict the problem the consult is about.
    last = story.now.date() - timedelta(days=ROUTINE_QUIET_DAYS)
    days: list[tuple[date, str]] = []
    for year in range(story.history_years + 1):
        day = first + timedelta(days=365 * year + rng.randint(-20, 20))
        moment = datetime(day.year, day.month, day.day, tzinfo=story.now.tzinfo)
        if first <= day <= last:
            days.append((day, "checkup"))
        followup = day + timedelta(days=182 + rng.randint(-25, 25))
        if first <= followup <= last and timeline.chronic(moment):
            days.append((followup, "followup"))
    return sorted(days)


def _routine_visit(builder: ChartBuilder, story: Story, timeline: Timeline, profile: Profile,
                   day: date, kind: str) -> None:
    moment = builder.clinic_time(day)
    encounter = builder.visit(moment, "AMB", builder.pcp, kind)
    owned = timeline.owned
    years = (day - (story.now.date() - timedelta(days=365 * story.history_years))).days / 365
    vitals = _vitals(builder, profile, moment + timedelta(minutes=5), encounter, owned, years)
    age = story.age_at(moment)
    names = ["cbc", "bmp"] if kind == "checkup" else ["bmp"]
    if kind == "checkup" and (age >= 35 or timeline.has_problem(HYPERLIPIDEMIA, moment)):
        names.append("lipid")
    if profile.diabetic:
        names.append("a1c")
    lab_moment = moment + timedelta(minutes=15)
    ordered = [_panel(builder, profile, name, lab_moment, encounter, owned, age)
               for name in names]
    if kind == "checkup" and "72166-2" not in owned and known("72166-2"):
        builder.observation("72166-2", moment + timedelta(minutes=8), encounter,
                            value_code=profile.smoker)
    facts = VisitFacts(
        patient=f"{story.patient.given[0]} {story.patient.family}", age=age,
        sex="woman" if profile.female else "man", kind=kind,
        problems=timeline.active_problems(moment), meds=timeline.active_meds(moment),
        vitals=vitals, labs_ordered=[name for name in ordered if name])
    title = "Annual wellness visit" if kind == "checkup" else "Chronic care follow-up"
    builder.document("11506-3", moment + timedelta(minutes=20), encounter, builder.pcp, title,
                     progress_note(facts, builder.rng))


def _flu_shots(builder: ChartBuilder, story: Story, age_now: int) -> None:
    chance = 0.7 if age_now >= 50 else 0.4
    for year in range(story.now.year - story.history_years, story.now.year + 1):
        day = date(year, 10, 1) + timedelta(days=builder.rng.randint(0, 45))
        if builder.rng.random() < chance and day <= story.now.date() - timedelta(days=3):
            immunization(builder, "150", builder.clinic_time(day))


def add_routine_care(builder: ChartBuilder, story: Story, timeline: Timeline,
                     minor_range: tuple[int, int] = (1, 3)) -> None:
    """Add seeded routine care around the story (never after ``now``, never on owned codes)."""
    if story.history_years == 0:
        return
    profile = Profile(builder.rng, story, timeline)
    for day, kind in _visit_days(builder.rng, story, timeline):
        _routine_visit(builder, story, timeline, profile, day, kind)
    _flu_shots(builder, story, story.age_at(story.now))
    count = builder.rng.randint(*minor_range)
    add_minor_problems(builder, story, timeline, count)
