"""The chart generator: a :class:`~physbench_gym.synth.story.Story` in, FHIR R4 resources out.

Story facts are emitted first and depend on the story alone; the seed drives only the
routine-care noise around them (annual visits, routine panels, minor problems, old courses).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from physbench_gym.synth import terminology as term
from physbench_gym.synth.builder import ChartBuilder
from physbench_gym.synth.chart_items import (
    add_allergies,
    add_immunizations,
    add_medications,
    add_procedures,
    add_reports,
    add_service_requests,
    add_statements,
    moment_of,
)
from physbench_gym.synth.fhirjson import instant
from physbench_gym.synth.names import MRN_SYSTEM, address, address_from_line, mrn_for_id, phone
from physbench_gym.synth.roster import PCP_IDS, practitioner_for
from physbench_gym.synth.routine import add_routine_care
from physbench_gym.synth.story import Series, Story, resolve_date
from physbench_gym.synth.timeline import Timeline

__all__ = ["generate_chart", "trend_points"]


def _pcp(story: Story) -> str:
    if story.pcp:
        return story.pcp
    return PCP_IDS[sum(story.patient.id.encode()) % len(PCP_IDS)]


def _patient(story: Story, pcp: str) -> dict[str, Any]:
    info = story.patient
    rng = random.Random(f"demographics:{info.id}")
    home = address_from_line(info.address, rng) if info.address else address(rng)
    return {
        "resourceType": "Patient", "id": info.id, "active": True,
        "identifier": [{
            "use": "usual",
            "type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203",
                                 "code": "MR", "display": "Medical record number"}],
                     "text": "MRN"},
            "system": MRN_SYSTEM, "value": info.mrn or mrn_for_id(info.id)}],
        "name": [{"use": "official", "family": info.family, "given": list(info.given),
                  "text": f"{' '.join(info.given)} {info.family}"}],
        "telecom": [{"system": "phone", "value": info.phone or phone(rng), "use": "home"}],
        "gender": info.gender, "birthDate": story.birth_date().isoformat(),
        "address": [home],
        "generalPractitioner": [{"reference": f"Practitioner/{pcp}"}],
        "managingOrganization": {"reference": "Organization/org-clinic"},
    }


def _conditions(builder: ChartBuilder, story: Story, timeline: Timeline) -> None:
    for entry in story.conditions:
        codings = term.condition_codings(entry.code)
        onset = moment_of(builder, story, entry.onset)
        encounter = builder.visit(onset)
        builder.add_reason(encounter, codings)
        res: dict[str, Any] = {
            "resourceType": "Condition", "id": builder.new_id("cond"),
            "clinicalStatus": {"coding": [{
                "system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                "code": entry.clinical_status}]},
            "verificationStatus": {"coding": [{
                "system": "http://terminology.hl7.org/CodeSystem/condition-ver-status",
                "code": "confirmed"}]},
            "category": [{"coding": [{
                "system": "http://terminology.hl7.org/CodeSystem/condition-category",
                "code": entry.category,
                "display": "Problem List Item" if entry.category == "problem-list-item"
                else "Encounter Diagnosis"}]}],
            "code": {"coding": codings, "text": codings[0]["display"]},
            "subject": builder.patient_ref, "encounter": {"reference": f"Encounter/{encounter}"},
            "onsetDateTime": onset.date().isoformat(), "recordedDate": instant(onset),
            "recorder": {"reference": f"Practitioner/{builder.pcp}"},
        }
        abated = None
        if entry.abatement is not None:
            abated = builder.clamp(story.at(entry.abatement))
            res["abatementDateTime"] = abated.date().isoformat()
        if entry.note:
            res["note"] = [{"text": entry.note}]
        builder.emit(res)
        ended = abated or (onset if entry.clinical_status != "active" else None)
        timeline.problem(entry.code, onset, ended)


def trend_points(story: Story, series: Series) -> list[tuple[str, float]]:
    """The (ISO date, value) points of a series' trend; the noise depends on the story only."""
    trend = series.trend
    if trend is None:
        return []
    first, last = story.at(trend.start_date), story.at(trend.end_date)
    step = f"+{trend.every}"
    days: list[datetime] = []
    moment = first
    while moment < last - timedelta(days=10):
        days.append(moment)
        moment = resolve_date(step, moment)
    days.append(last)
    rng = random.Random(f"trend:{story.patient.id}:{series.code}")
    span = (last - first).total_seconds() or 1.0
    points = []
    for index, day in enumerate(days):
        share = (day - first).total_seconds() / span
        value = trend.start + (trend.end - trend.start) * share
        if 0 < index < len(days) - 1 and trend.noise:
            value += rng.gauss(0, trend.noise)
        points.append((day.date().isoformat(), round(max(value, 0.0), trend.digits)))
    return points


def _series(builder: ChartBuilder, story: Story, timeline: Timeline, series: Series,
            kind: str) -> None:
    points = [(day, {"value": value}) for day, value in trend_points(story, series)]
    for point in series.points:
        fields = {"value": point.value, "value_string": point.value_string,
                  "value_code": point.value_code, "interpretation": point.interpretation}
        points.append((point.date, fields))
    for day, fields in points:
        moment = moment_of(builder, story, day)
        moment = moment + timedelta(minutes=5 if kind == "vital" else 15)
        encounter = builder.visit(moment)
        rid = builder.observation(series.code, builder.clamp(moment), encounter, **fields)
        timeline.result(series.code, moment, rid, encounter, series.panel)


def _panels(builder: ChartBuilder, story: Story, timeline: Timeline) -> None:
    for entry in story.panels:
        moment = builder.clamp(moment_of(builder, story, entry.date) + timedelta(minutes=15))
        encounter = builder.visit(moment)
        results = []
        for code, value in entry.results.items():
            if isinstance(value, str):
                rid = builder.observation(code, moment, encounter, value_string=value)
            else:
                rid = builder.observation(code, moment, encounter, value=value)
            timeline.result(code, moment, rid, encounter, None)
            results.append(rid)
        builder.panel(entry.code, moment, encounter, results)


def _grouped_panels(builder: ChartBuilder, timeline: Timeline) -> None:
    for (panel, _day), group in sorted(timeline.panel_groups().items()):
        moment, encounter = group[0][0], group[0][2]
        builder.panel(panel, moment, encounter, [rid for _, rid, _ in group])


def _social(builder: ChartBuilder, story: Story) -> None:
    for entry in story.social:
        moment = builder.clamp(moment_of(builder, story, entry.date) + timedelta(minutes=8))
        encounter = builder.visit(moment)
        builder.observation(entry.code, moment, encounter, value=entry.value,
                            value_code=entry.value_code, value_string=entry.value_string)


def _notes(builder: ChartBuilder, story: Story) -> None:
    for entry in story.notes:
        setting = entry.setting or {"34111-5": "EMER", "18842-5": "IMP"}.get(entry.type, "AMB")
        author = practitioner_for(entry.author, builder.pcp)
        moment = moment_of(builder, story, entry.date, setting)
        kind = "consult" if author != builder.pcp and setting == "AMB" else None
        encounter = builder.visit(builder.clamp(moment), setting, author, kind)
        builder.document(entry.type, builder.clamp(moment), encounter, author, entry.title,
                         entry.text)


def generate_chart(story: Story, seed: int = 0, *,
                   minor_problems: tuple[int, int] = (1, 3)) -> list[dict[str, Any]]:
    """All FHIR resources of one patient's chart, in a deterministic order.

    ``seed`` drives the routine-care noise only; ``minor_problems`` bounds how many resolved
    minor problems (with visits, notes and short courses) that noise adds.

    Raises:
        StoryError: a story date lies after ``now`` or the story is inconsistent.
        UnknownCodeError: a code is not in the terminology tables.
    """
    pcp = _pcp(story)
    builder = ChartBuilder(story.patient.id, story.now, pcp, seed, story.patient.gender)
    builder.patient_resource(_patient(story, pcp))
    timeline = Timeline(story)
    _conditions(builder, story, timeline)
    add_medications(builder, story, timeline)
    add_statements(builder, story)
    for series in story.labs:
        _series(builder, story, timeline, series, "lab")
    for series in story.vitals:
        _series(builder, story, timeline, series, "vital")
    _panels(builder, story, timeline)
    _grouped_panels(builder, timeline)
    _social(builder, story)
    add_procedures(builder, story)
    add_reports(builder, story)
    _notes(builder, story)
    add_allergies(builder, story)
    add_immunizations(builder, story)
    add_service_requests(builder, story)
    if story.routine:
        add_routine_care(builder, story, timeline, minor_problems)
    return builder.resources()
