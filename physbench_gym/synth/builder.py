"""The chart builder: deterministic ids, encounters, and one emitter per FHIR resource type.

Every dated item is filed under an Encounter on its date (one per date and class); ids are
``<patient id>-<kind>-<serial>``, so they are unique across patients and stable for a story.
"""

from __future__ import annotations

import functools
import hashlib
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from physbench_gym.synth import terminology as term
from physbench_gym.synth.fhirjson import (
    ANSWERS,
    INTERPRETATION_SYSTEM,
    INTERPRETATIONS,
    attachment,
    category,
    coding,
    concept,
    instant,
    quantity,
    ref,
)
from physbench_gym.synth.roster import ORGANIZATION_ID
from physbench_gym.synth.story import StoryError
from physbench_gym.synth.terminology_tables import SEXES

ENCOUNTER_CLASSES = {"AMB": "ambulatory", "EMER": "emergency", "IMP": "inpatient encounter"}
ENCOUNTER_TYPES = {
    "checkup": ("185349003", "Encounter for check up"),
    "followup": ("390906007", "Follow-up encounter"),
    "consult": ("11429006", "Consultation"),
    "emergency": ("50849002", "Emergency room admission"),
    "admission": ("32485007", "Hospital admission"),
}
OBS_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"
_CATEGORY_DISPLAY = {"laboratory": "Laboratory", "vital-signs": "Vital Signs",
                     "social-history": "Social History", "survey": "Survey", "exam": "Exam"}
_DECIMALS = {"8310-5": 1, "29463-7": 1, "8302-2": 1, "39156-5": 1}


@dataclass
class _Visit:
    id: str
    setting: str
    day: date
    practitioner: str
    kind: str
    times: list[datetime] = field(default_factory=list)
    reasons: list[dict[str, Any]] = field(default_factory=list)


@functools.cache
def known(code: str) -> bool:
    """Whether a LOINC code is in the terminology tables."""
    try:
        term.lookup("loinc", code)
    except KeyError:
        return False
    return True


def decimals(code: str, low: float | None, high: float | None) -> int:
    """Decimal places a result of this code is reported with."""
    if code in _DECIMALS:
        return _DECIMALS[code]
    bound = high if high is not None else (low or 100.0)
    return 0 if bound >= 20 else 1 if bound >= 5 else 2


def flag(value: float, low: float | None, high: float | None) -> str | None:
    """H, L or N against a reference range; None when the code has no range."""
    if low is None and high is None:
        return None
    if high is not None and value > high:
        return "H"
    if low is not None and value < low:
        return "L"
    return "N"


class ChartBuilder:
    """Accumulates one patient's resources; :meth:`resources` returns them in a stable order."""

    def __init__(self, patient_id: str, now: datetime, pcp: str, seed: int,
                 gender: str | None = None) -> None:
        self.pid = patient_id
        self.gender = gender
        self.now = now
        self.pcp = pcp
        self.rng = random.Random(f"{seed}:{patient_id}")
        self._serial: dict[str, int] = {}
        self._visits: dict[tuple[date, str], _Visit] = {}
        self._by_id: dict[str, _Visit] = {}
        self._items: list[dict[str, Any]] = []
        self._patient: dict[str, Any] | None = None
        self.patient_ref = ref("Patient", patient_id)

    def new_id(self, kind: str) -> str:
        """The next id of a kind, e.g. ``pt-thyroid-001-obs-0007``."""
        serial = self._serial.get(kind, 0) + 1
        self._serial[kind] = serial
        return f"{self.pid}-{kind}-{serial:04d}"

    def clinic_time(self, day: date, setting: str = "AMB") -> datetime:
        """A stable time of day for a visit on ``day`` (clinic hours; any hour for ED)."""
        digest = hashlib.sha256(f"{self.pid}:{day.isoformat()}:{setting}".encode()).digest()
        minutes = int.from_bytes(digest[:4], "big")
        if setting == "AMB":
            start = 8 * 60 + minutes % (8 * 60)
        else:
            start = 6 * 60 + minutes % (16 * 60)
        moment = datetime(day.year, day.month, day.day, tzinfo=self.now.tzinfo)
        return self.clamp(moment + timedelta(minutes=start - start % 5))

    def clamp(self, moment: datetime) -> datetime:
        """``moment``, but never after ``now``."""
        if moment.date() > self.now.date():
            raise StoryError(f"{moment.isoformat()} is after the story's now {self.now}")
        return min(moment, self.now)

    def cap(self, moment: datetime) -> datetime:
        """A derived time (result issued, note signed), capped at ``now``."""
        return min(moment, self.now)

    def visit(self, moment: datetime, setting: str = "AMB", practitioner: str | None = None,
              kind: str | None = None) -> str:
        """The id of the Encounter on ``moment``'s date and class, creating it on first use."""
        key = (moment.date(), setting)
        found = self._visits.get(key)
        if found is None:
            default = {"AMB": "followup", "EMER": "emergency", "IMP": "admission"}[setting]
            found = _Visit(self.new_id("enc"), setting, moment.date(), practitioner or self.pcp,
                           kind or default)
            self._visits[key] = found
            self._by_id[found.id] = found
        found.times.append(moment)
        return found.id

    def add_reason(self, encounter_id: str, codings: list[dict[str, str]]) -> None:
        """Record a diagnosis as the reason of an encounter."""
        found = self._by_id[encounter_id]
        reason = concept(codings)
        if len(found.reasons) < 3 and reason not in found.reasons:
            found.reasons.append(reason)

    def emit(self, resource: dict[str, Any]) -> str:
        """Add a finished resource; returns its id."""
        self._items.append(resource)
        return resource["id"]

    def observation(self, code: str, moment: datetime, encounter: str, *,
                    value: float | None = None, value_string: str | None = None,
                    value_code: str | None = None, interpretation: str | None = None,
                    performer: str | None = None) -> str:
        """An Observation of a LOINC lab, vital or social-history code, with range and flag."""
        item = term.loinc(code)
        kind = item.extra.get("category") or "laboratory"
        res: dict[str, Any] = {
            "resourceType": "Observation", "id": self.new_id("obs"), "status": "final",
            "category": category(OBS_CATEGORY, kind, _CATEGORY_DISPLAY.get(kind, kind)),
            "code": concept([item.coding()]), "subject": self.patient_ref,
            "encounter": ref("Encounter", encounter), "effectiveDateTime": instant(moment),
            "issued": instant(self.cap(moment + timedelta(hours=2 if kind == "laboratory"
                                                          else 0))),
        }
        if performer:
            res["performer"] = [ref("Practitioner", performer)]
        if value is not None:
            if not item.unit:
                raise StoryError(f"LOINC {code} ({item.display}) has no unit for a numeric value")
            res["valueQuantity"] = quantity(value, item.unit)
            ranges = item.ranges_for(self.gender)
            if len(ranges) == 1:
                interpretation = interpretation or flag(value, ranges[0].low, ranges[0].high)
            self._add_ranges(res, item, ranges)
        elif value_string is not None:
            res["valueString"] = value_string
        else:
            res["valueCodeableConcept"] = concept([self._answer(value_code or "")])
        if interpretation:
            res["interpretation"] = [concept([coding(INTERPRETATION_SYSTEM, interpretation,
                                                     INTERPRETATIONS[interpretation])])]
        return self.emit(res)

    @staticmethod
    def _add_ranges(res: dict[str, Any], item: term.Concept,
                    ranges: tuple[term.ReferenceRange, ...]) -> None:
        """``referenceRange``: the range chosen for the patient's sex (a per-sex range names
        its sex in ``appliesTo``), or every per-sex range when the sex chooses none."""
        shown = []
        for found in ranges:
            bounds: dict[str, Any] = {}
            if found.low is not None:
                bounds["low"] = quantity(found.low, item.unit or "1")
            if found.high is not None:
                bounds["high"] = quantity(found.high, item.unit or "1")
            if found.sex is not None:
                code, display = SEXES[found.sex]
                bounds["appliesTo"] = [concept([coding(term.SYSTEMS["snomed"], code, display)])]
            shown.append(bounds)
        if shown:
            res["referenceRange"] = shown

    @staticmethod
    def _answer(code: str) -> dict[str, str]:
        if code in ANSWERS:
            return coding(term.SYSTEMS["snomed"], code, ANSWERS[code])
        try:
            return term.lookup("snomed", code).coding()
        except KeyError:
            raise StoryError(f"unknown SNOMED answer code {code!r}; known: "
                             f"{', '.join(sorted(ANSWERS))}") from None

    def panel(self, code: str, moment: datetime, encounter: str, results: list[str]) -> str:
        """A laboratory DiagnosticReport grouping result Observations."""
        item = term.lookup("loinc", code)
        return self.emit({
            "resourceType": "DiagnosticReport", "id": self.new_id("dr"), "status": "final",
            "category": category("http://terminology.hl7.org/CodeSystem/v2-0074", "LAB",
                                 "Laboratory"),
            "code": concept([item.coding()]), "subject": self.patient_ref,
            "encounter": ref("Encounter", encounter), "effectiveDateTime": instant(moment),
            "issued": instant(self.cap(moment + timedelta(hours=3))),
            "performer": [ref("Organization", ORGANIZATION_ID)],
            "result": [ref("Observation", rid) for rid in results],
        })

    def document(self, type_code: str, moment: datetime, encounter: str, author: str,
                 title: str, text: str, related: str | None = None) -> str:
        """A DocumentReference holding a note as a base64 text/plain attachment.

        ``related`` names the DiagnosticReport a report document presents, so report text
        is found among the clinical notes, as EHRs show it.
        """
        item = term.loinc(type_code)
        written = self.cap(moment + timedelta(minutes=40))
        context: dict[str, Any] = {"encounter": [ref("Encounter", encounter)],
                                   "period": {"start": instant(moment), "end": instant(written)}}
        if related:
            context["related"] = [ref("DiagnosticReport", related)]
        return self.emit({
            "resourceType": "DocumentReference", "id": self.new_id("doc"), "status": "current",
            "docStatus": "final", "type": concept([item.coding()]),
            "category": category(
                "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category",
                "clinical-note", "Clinical Note"),
            "subject": self.patient_ref, "date": instant(written),
            "author": [ref("Practitioner", author)], "description": title,
            "content": [{"attachment": attachment(text, title, written)}],
            "context": context,
        })

    def patient_resource(self, resource: dict[str, Any]) -> None:
        """Set the Patient resource (always first in the output)."""
        self._patient = resource

    def _encounter(self, found: _Visit) -> dict[str, Any]:
        start = min(found.times) - timedelta(minutes=10)
        length = {"AMB": timedelta(minutes=40), "EMER": timedelta(hours=5),
                  "IMP": timedelta(days=3)}[found.setting]
        end = min(max(max(found.times), start + length), self.now)
        code, display = ENCOUNTER_TYPES[found.kind]
        res: dict[str, Any] = {
            "resourceType": "Encounter", "id": found.id, "status": "finished",
            "class": coding("http://terminology.hl7.org/CodeSystem/v3-ActCode", found.setting,
                            ENCOUNTER_CLASSES[found.setting]),
            "type": [concept([coding(term.SYSTEMS["snomed"], code, display)])],
            "subject": self.patient_ref,
            "participant": [{"type": [concept([coding(
                "http://terminology.hl7.org/CodeSystem/v3-ParticipationType", "PPRF",
                "primary performer")])], "individual": ref("Practitioner", found.practitioner)}],
            "period": {"start": instant(start), "end": instant(end)},
            "serviceProvider": ref("Organization", ORGANIZATION_ID),
        }
        if found.reasons:
            res["reasonCode"] = found.reasons
        return res

    def resources(self) -> list[dict[str, Any]]:
        """Patient, then Encounters by id, then every other resource in creation order."""
        if self._patient is None:
            raise StoryError("the chart has no Patient resource")
        encounters = sorted(self._visits.values(), key=lambda v: v.id)
        return [self._patient, *(self._encounter(v) for v in encounters), *self._items]
