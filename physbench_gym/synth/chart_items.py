"""Emitters for the story's medication, procedure, report, allergy, vaccine and order entries."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from physbench_gym.synth import terminology as term
from physbench_gym.synth.builder import ChartBuilder
from physbench_gym.synth.fhirjson import (
    CVX,
    CVX_SYSTEM,
    REPORT_SECTIONS,
    ROUTES,
    V2_0074,
    attachment,
    category,
    coding,
    concept,
    dose_text,
    frequency_text,
    instant,
    quantity,
    ref,
)
from physbench_gym.synth.roster import practitioner_for
from physbench_gym.synth.story import Dose, Frequency, MedicationEntry, Story, StoryError

if TYPE_CHECKING:
    from physbench_gym.synth.timeline import Timeline

MR_CATEGORY = "http://terminology.hl7.org/CodeSystem/medicationrequest-category"
COURSE = "http://terminology.hl7.org/CodeSystem/medicationrequest-course-of-therapy"
ORDER_CATEGORIES = {
    "laboratory": ("108252007", "Laboratory procedure"), "imaging": ("363679005", "Imaging"),
    "procedure": ("387713003", "Surgical procedure"), "referral": ("3457005", "Patient referral"),
    "counseling": ("409063005", "Counseling"),
}
_VERBS = {"topical": "Apply", "transdermal": "Apply", "inhalation": "Inhale",
          "subcutaneous": "Inject", "intramuscular": "Inject", "intravenous": "Give",
          "nasal": "Use"}


def moment_of(builder: ChartBuilder, story: Story, ref_text: str,
              setting: str = "AMB") -> datetime:
    """When a story item happened: its own time if given, else a clinic time on its date."""
    resolved = story.at(ref_text)
    if "T" in str(ref_text):
        return builder.clamp(resolved)
    return builder.clinic_time(builder.clamp(resolved).date(), setting)


@dataclass(frozen=True)
class Order:
    """One MedicationRequest to emit (a dose period of a prescription history)."""

    code: str
    start: datetime
    end: datetime | None
    status: str
    dose: Dose
    frequency: Frequency
    route: str | None = None
    as_needed: bool = False
    sig: str | None = None
    reason: str | None = None
    refills: int = 3
    prescriber: str | None = None
    course: str = "continuous"
    supply_days: int | None = None


def sig_text(drug: term.Concept, order: Order) -> str:
    """Dosage text such as 'Take 75 mcg by mouth once daily'."""
    route = order.route or drug.extra.get("route", "oral")
    verb = _VERBS.get(route, "Take")
    phrase = ROUTES.get(route, ("", "", route))[2]
    when = frequency_text(order.frequency.times, order.frequency.period, order.frequency.unit)
    text = f"{verb} {dose_text(order.dose.value, order.dose.unit)} {phrase} {when}"
    return text + (" as needed" if order.as_needed else "")


def medication_request(builder: ChartBuilder, order: Order) -> str:
    """Emit one MedicationRequest (with its encounter on the authored date); returns its id."""
    drug = term.rxnorm(order.code)
    prescriber = order.prescriber or builder.pcp
    encounter = builder.visit(order.start, "AMB", prescriber)
    route = order.route or drug.extra.get("route", "oral")
    repeat: dict[str, Any] = {"boundsPeriod": {"start": instant(order.start)},
                              "frequency": order.frequency.times,
                              "period": order.frequency.period, "periodUnit": order.frequency.unit}
    if order.end is not None:
        repeat["boundsPeriod"]["end"] = instant(order.end)
    dosage: dict[str, Any] = {
        "sequence": 1, "text": order.sig or sig_text(drug, order), "timing": {"repeat": repeat},
        "asNeededBoolean": order.as_needed,
        "doseAndRate": [{"doseQuantity": quantity(order.dose.value, order.dose.unit)}]}
    if route in ROUTES:
        code, display, _ = ROUTES[route]
        dosage["route"] = concept([coding(term.SYSTEMS["snomed"], code, display)])
    validity_end = order.end or builder.cap(order.start + timedelta(days=365))
    res: dict[str, Any] = {
        "resourceType": "MedicationRequest", "id": builder.new_id("medrx"),
        "status": order.status, "intent": "order",
        "category": category(MR_CATEGORY, "outpatient", "Outpatient"),
        "medicationCodeableConcept": concept([drug.coding()]), "subject": builder.patient_ref,
        "encounter": ref("Encounter", encounter), "authoredOn": instant(order.start),
        "requester": ref("Practitioner", prescriber),
        "courseOfTherapyType": concept([coding(COURSE, order.course, {
            "continuous": "Continuous long term therapy",
            "acute": "Short course (acute) therapy"}[order.course])]),
        "dosageInstruction": [dosage],
        "dispenseRequest": {
            "validityPeriod": {"start": instant(order.start), "end": instant(validity_end)},
            "numberOfRepeatsAllowed": order.refills,
            "expectedSupplyDuration": {"value": order.supply_days or (
                                           90 if order.course == "continuous" else 10),
                                       "unit": "days", "system": term.SYSTEMS["ucum"],
                                       "code": "d"}},
    }
    if order.reason:
        res["reasonCode"] = [concept(term.condition_codings(order.reason))]
    return builder.emit(res)


def _periods(builder: ChartBuilder, story: Story, entry: MedicationEntry) -> list[Order]:
    current = Order(entry.code, moment_of(builder, story, entry.start), None, entry.status,
                    entry.dose, entry.frequency, entry.route, entry.as_needed, entry.sig,
                    entry.reason, entry.refills, practitioner_for(entry.prescriber, builder.pcp),
                    supply_days=entry.supply_days)
    orders: list[Order] = []
    for change in sorted(entry.changes, key=lambda c: story.at(c.date)):
        moment = moment_of(builder, story, change.date)
        if moment <= current.start:
            raise StoryError(f"dose change of {entry.code} on {change.date} precedes its order")
        orders.append(replace(current, end=moment, status="stopped"))
        current = replace(current, start=moment, code=change.code or current.code,
                          dose=change.dose or current.dose,
                          frequency=change.frequency or current.frequency, sig=change.sig)
    end = moment_of(builder, story, entry.stop) if entry.stop is not None else None
    if end is not None and end <= current.start:
        raise StoryError(f"medication {entry.code} stops before its last order starts")
    orders.append(replace(current, end=end))
    return orders


def renewals(order: Order, now: datetime) -> list[Order]:
    """Split a long order into yearly renewals, as prescriptions are re-signed each year."""
    pieces: list[Order] = []
    start, stop = order.start, order.end or now
    while stop - start > timedelta(days=400):
        nxt = start + timedelta(days=364)
        pieces.append(replace(order, start=start, end=nxt, status="completed"))
        start = nxt
    pieces.append(replace(order, start=start))
    return pieces


def add_medications(builder: ChartBuilder, story: Story, timeline: Timeline) -> None:
    """Emit every prescription history of the story, one order per dose period and year."""
    for entry in story.medications:
        for period in _periods(builder, story, entry):
            for order in renewals(period, story.now):
                medication_request(builder, order)
            drug = term.rxnorm(period.code)
            timeline.medication(drug.display, period.start, period.end,
                                period.sig or sig_text(drug, period), period.status)


def add_statements(builder: ChartBuilder, story: Story) -> None:
    """Emit patient-reported medications as MedicationStatement."""
    for entry in story.statements:
        moment = moment_of(builder, story, entry.date)
        encounter = builder.visit(moment)
        res: dict[str, Any] = {
            "resourceType": "MedicationStatement", "id": builder.new_id("medst"),
            "status": entry.status,
            "medicationCodeableConcept": concept([term.rxnorm(entry.code).coding()]),
            "subject": builder.patient_ref, "context": ref("Encounter", encounter),
            "effectiveDateTime": instant(moment), "dateAsserted": instant(moment),
            "informationSource": builder.patient_ref}
        if entry.dosage:
            res["dosage"] = [{"text": entry.dosage}]
        if entry.note:
            res["note"] = [{"text": entry.note}]
        builder.emit(res)


def add_procedures(builder: ChartBuilder, story: Story) -> None:
    """Emit performed procedures."""
    for entry in story.procedures:
        item = term.orderable(entry.code, entry.system)
        performer = practitioner_for(entry.performer, builder.pcp)
        moment = moment_of(builder, story, entry.date, entry.setting)
        encounter = builder.visit(moment, entry.setting, performer)
        res: dict[str, Any] = {
            "resourceType": "Procedure", "id": builder.new_id("proc"), "status": "completed",
            "code": concept([item.coding()]), "subject": builder.patient_ref,
            "encounter": ref("Encounter", encounter), "performedDateTime": instant(moment),
            "performer": [{"actor": ref("Practitioner", performer)}]}
        if entry.outcome:
            res["outcome"] = {"text": entry.outcome}
        builder.emit(res)


def add_reports(builder: ChartBuilder, story: Story) -> None:
    """Emit narrative DiagnosticReports (imaging, pathology, echo, ECG) with presentedForm."""
    for entry in story.reports:
        item = term.lookup("loinc", entry.code)
        reader = practitioner_for(entry.performer, builder.pcp)
        moment = moment_of(builder, story, entry.date, entry.setting)
        encounter = builder.visit(moment, entry.setting)
        issued = builder.cap(moment + timedelta(hours=4))
        report_id = builder.emit({
            "resourceType": "DiagnosticReport", "id": builder.new_id("dr"), "status": "final",
            "category": category(V2_0074, entry.category, REPORT_SECTIONS[entry.category]),
            "code": concept([item.coding()]), "subject": builder.patient_ref,
            "encounter": ref("Encounter", encounter), "effectiveDateTime": instant(moment),
            "issued": instant(issued), "performer": [ref("Organization", "org-clinic")],
            "resultsInterpreter": [ref("Practitioner", reader)],
            "conclusion": entry.conclusion,
            "presentedForm": [attachment(entry.text, item.display, issued)]})
        text = entry.text if entry.conclusion in entry.text else (
            f"{entry.text.rstrip()}\n\nIMPRESSION: {entry.conclusion}")
        builder.document(entry.code, moment, encounter, reader, item.display, text,
                         related=report_id)


def add_allergies(builder: ChartBuilder, story: Story) -> None:
    """Emit AllergyIntolerance entries."""
    for entry in story.allergies:
        moment = moment_of(builder, story, entry.recorded)
        code: dict[str, Any] = {"text": entry.substance}
        if entry.code:
            code["coding"] = [term.lookup(entry.system, entry.code).coding()]
        res: dict[str, Any] = {
            "resourceType": "AllergyIntolerance", "id": builder.new_id("alg"),
            "clinicalStatus": concept([coding(
                "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", "active",
                "Active")]),
            "verificationStatus": concept([coding(
                "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification",
                "confirmed", "Confirmed")]),
            "type": "allergy", "category": [entry.category], "criticality": entry.criticality,
            "code": code, "patient": builder.patient_ref,
            "encounter": ref("Encounter", builder.visit(moment)),
            "recordedDate": instant(moment), "recorder": ref("Practitioner", builder.pcp)}
        if entry.reaction:
            reaction: dict[str, Any] = {"manifestation": [{"text": entry.reaction}]}
            if entry.severity:
                reaction["severity"] = entry.severity
            res["reaction"] = [reaction]
        builder.emit(res)


def immunization(builder: ChartBuilder, cvx: str, moment: datetime) -> str:
    """Emit one completed Immunization."""
    if cvx not in CVX:
        raise StoryError(f"unknown CVX code {cvx!r}; known: {', '.join(sorted(CVX))}")
    encounter = builder.visit(moment)
    lot = f"{chr(65 + builder.rng.randrange(26))}{builder.rng.randrange(10**5):05d}"
    return builder.emit({
        "resourceType": "Immunization", "id": builder.new_id("imm"), "status": "completed",
        "vaccineCode": concept([coding(CVX_SYSTEM, cvx, CVX[cvx])]),
        "patient": builder.patient_ref, "encounter": ref("Encounter", encounter),
        "occurrenceDateTime": instant(moment), "primarySource": True, "lotNumber": lot,
        "performer": [{"actor": ref("Practitioner", builder.pcp)}]})


def add_immunizations(builder: ChartBuilder, story: Story) -> None:
    """Emit the story's vaccines."""
    for entry in story.immunizations:
        immunization(builder, entry.cvx, moment_of(builder, story, entry.date))


def add_service_requests(builder: ChartBuilder, story: Story) -> None:
    """Emit prior orders (ServiceRequest) in the chart."""
    for entry in story.service_requests:
        item = term.orderable(entry.code, entry.system)
        requester = practitioner_for(entry.requester, builder.pcp)
        moment = moment_of(builder, story, entry.date)
        encounter = builder.visit(moment, "AMB", requester)
        code, display = ORDER_CATEGORIES.get(item.kind, ORDER_CATEGORIES["procedure"])
        res: dict[str, Any] = {
            "resourceType": "ServiceRequest", "id": builder.new_id("sr"), "status": entry.status,
            "intent": "order", "category": category(term.SYSTEMS["snomed"], code, display),
            "code": concept([item.coding()]), "subject": builder.patient_ref,
            "encounter": ref("Encounter", encounter), "authoredOn": instant(moment),
            "requester": ref("Practitioner", requester)}
        if entry.reason:
            res["reasonCode"] = [concept(term.condition_codings(entry.reason))]
        if entry.note:
            res["note"] = [{"text": entry.note}]
        builder.emit(res)
