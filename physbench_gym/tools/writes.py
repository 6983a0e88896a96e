"""The write tools of the ``physicianbench`` tool set: each creates one real FHIR resource.

Requester, sender and timestamps come from the ToolContext (the consulting physician and the
task's clock); the FhirClient adds the episode tag.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from physbench_gym.tools import coding
from physbench_gym.tools.base import ToolContext, ToolError, ToolOutput, tool
from physbench_gym.tools.orders import (
    AppointmentCreateArgs,
    CommunicationCreateArgs,
    MedicationRequestCreateArgs,
    ServiceRequestCreateArgs,
)
from physbench_gym.tools.render import render_resource

JsonDict = dict[str, Any]
COMMUNICATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/communication-category"


def fhir_datetime(moment: datetime) -> str:
    """Render a datetime as a FHIR dateTime with seconds and a time zone (UTC if naive)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.isoformat(timespec="seconds")


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _ref(resource_type: str, resource_id: str) -> JsonDict:
    return {"reference": f"{resource_type}/{resource_id}"}


def _created(ctx: ToolContext, resource: JsonDict) -> ToolOutput:
    created = ctx.client.create(resource)
    label = f"{created.get('resourceType')}/{created.get('id')}"
    return ToolOutput(text=f"Created {label}: {render_resource(created)}", status=201,
                      written=[created])


def _reason(args: MedicationRequestCreateArgs | ServiceRequestCreateArgs) -> list[JsonDict]:
    if not args.reason and not args.reason_code:
        return []
    concept: JsonDict = {}
    if args.reason_code:
        concept["coding"] = [{"system": coding.system_uri(args.reason_system),
                              "code": args.reason_code}]
    if args.reason:
        concept["text"] = args.reason
    return [concept]


def _notes(text: str | None, ctx: ToolContext) -> list[JsonDict]:
    if not text:
        return []
    return [{"authorReference": _ref("Practitioner", ctx.practitioner_id),
             "time": fhir_datetime(ctx.now), "text": text}]


def _sig(args: MedicationRequestCreateArgs, route: str | None) -> str:
    parts = []
    if args.dose_value is not None:
        parts.append(f"{_number(args.dose_value)} {args.dose_unit}")
    if route:
        parts.append(route)
    if args.frequency:
        times = "time" if args.frequency == 1 else "times"
        period = (f"{args.period} {args.period_unit}s" if args.period > 1
                  else args.period_unit)
        parts.append(f"{args.frequency} {times} per {period}")
    if args.as_needed:
        parts.append("as needed")
    if args.duration_days:
        parts.append(f"for {args.duration_days} days")
    return " ".join(parts)


def _dosage(args: MedicationRequestCreateArgs, route: str | None) -> JsonDict:
    dosage: JsonDict = {"sequence": 1, "text": args.sig or _sig(args, route)}
    if args.frequency:
        repeat: JsonDict = {"frequency": args.frequency, "period": args.period,
                            "periodUnit": coding.PERIOD_UNITS[args.period_unit]}
        if args.duration_days:
            repeat["boundsDuration"] = {"value": args.duration_days, "unit": "days",
                                        "system": coding.UCUM, "code": "d"}
        dosage["timing"] = {"repeat": repeat}
    if args.as_needed:
        dosage["asNeededBoolean"] = True
    if route in coding.ROUTES:
        dosage["route"] = {"coding": [coding.snomed_coding(coding.ROUTES[route])], "text": route}
    if args.dose_value is not None and args.dose_unit:
        dose = {"value": _number(args.dose_value), **coding.ucum(args.dose_unit)}
        dosage["doseAndRate"] = [{"doseQuantity": dose}]
    return dosage


def _dispense(args: MedicationRequestCreateArgs) -> JsonDict:
    dispense: JsonDict = {}
    if args.refills is not None:
        dispense["numberOfRepeatsAllowed"] = args.refills
    if args.quantity is not None:
        unit = coding.ucum(args.quantity_unit) if args.quantity_unit else {}
        dispense["quantity"] = {"value": _number(args.quantity), **unit}
    if args.duration_days:
        dispense["expectedSupplyDuration"] = {"value": args.duration_days, "unit": "days",
                                              "system": coding.UCUM, "code": "d"}
    return dispense


@tool(MedicationRequestCreateArgs, writes=True)
def fhir_medication_request_create(args: MedicationRequestCreateArgs,
                                   ctx: ToolContext) -> ToolOutput:
    """Prescribe a medication: writes a MedicationRequest signed by you to the EHR.

    Give the RxNorm code, the dose (value and unit) with route and frequency (or a free-text
    sig), and optionally duration, quantity and refills. Unknown RxNorm codes are refused.
    """
    medication, usual_route = coding.medication_concept(args.medication_code,
                                                        args.medication_display)
    route = args.route or usual_route
    resource: JsonDict = {
        "resourceType": "MedicationRequest", "status": args.status, "intent": args.intent,
        "medicationCodeableConcept": {"coding": [medication],
                                      "text": args.medication_display
                                      or medication.get("display") or args.medication_code},
        "subject": _ref("Patient", args.patient), "authoredOn": fhir_datetime(ctx.now),
        "requester": _ref("Practitioner", ctx.practitioner_id),
        "reasonCode": _reason(args), "note": _notes(args.note, ctx),
        "dosageInstruction": [_dosage(args, route)], "dispenseRequest": _dispense(args),
    }
    if args.priority:
        resource["priority"] = args.priority
    return _created(ctx, _without_empty(resource))


def _service_code(args: ServiceRequestCreateArgs) -> JsonDict:
    system = coding.system_uri(args.system) if args.system else coding.orderable_system(args.code)
    if system is None:
        raise ToolError(f"code {args.code!r} is not a known orderable; give its system "
                        "(loinc, cpt or snomed)")
    known = coding.orderable_display(system, args.code)
    display = known or args.display
    entry = {"system": system, "code": args.code, **({"display": display} if display else {})}
    return _without_empty({"coding": [entry], "text": args.display or known})


@tool(ServiceRequestCreateArgs, writes=True)
def fhir_service_request_create(args: ServiceRequestCreateArgs, ctx: ToolContext) -> ToolOutput:
    """Order a lab test, imaging study, procedure, referral or counseling (a ServiceRequest).

    Give the service's code and system (LOINC for labs, CPT/LOINC for imaging, SNOMED CT or
    CPT for procedures and referrals), the category and the priority.
    """
    category = coding.ORDER_CATEGORIES[args.category]
    resource: JsonDict = {
        "resourceType": "ServiceRequest", "status": args.status, "intent": args.intent,
        "category": [{"coding": [coding.snomed_coding(category)], "text": args.category}],
        "priority": args.priority, "code": _service_code(args),
        "subject": _ref("Patient", args.patient), "authoredOn": fhir_datetime(ctx.now),
        "requester": _ref("Practitioner", ctx.practitioner_id),
        "reasonCode": _reason(args), "note": _notes(args.note, ctx),
        "occurrenceDateTime": args.occurrence,
        "performerType": {"text": args.specialty} if args.specialty else None,
        "performer": [_ref("Practitioner", args.performer)] if args.performer else [],
    }
    return _created(ctx, _without_empty(resource))


@tool(CommunicationCreateArgs, writes=True)
def fhir_communication_create_message(args: CommunicationCreateArgs,
                                      ctx: ToolContext) -> ToolOutput:
    """Send a message about the patient to another clinician (e.g. the referring PCP)."""
    resource: JsonDict = {
        "resourceType": "Communication", "status": "completed",
        "category": [{"coding": [{"system": COMMUNICATION_CATEGORY, "code": args.category}]}],
        "priority": args.priority, "subject": _ref("Patient", args.patient),
        "basedOn": [_ref("ServiceRequest", args.based_on)] if args.based_on else [],
        "sent": fhir_datetime(ctx.now), "sender": _ref("Practitioner", ctx.practitioner_id),
        "recipient": [_ref("Practitioner", args.recipient)],
        "payload": [{"contentString": args.text}],
    }
    return _created(ctx, _without_empty(resource))


def _moment(text: str, ctx: ToolContext) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ctx.now.tzinfo or timezone.utc)
    return moment


def _period(args: AppointmentCreateArgs, ctx: ToolContext) -> JsonDict:
    if args.start is None:
        return {}
    start = _moment(args.start, ctx)
    end = _moment(args.end, ctx) if args.end else start + timedelta(
        minutes=args.minutes_duration or 0)
    if end <= start:
        raise ToolError("the appointment must end after it starts")
    minutes = int((end - start).total_seconds() // 60)
    return {"start": fhir_datetime(start), "end": fhir_datetime(end), "minutesDuration": minutes}


@tool(AppointmentCreateArgs, writes=True)
def fhir_appointment_create(args: AppointmentCreateArgs, ctx: ToolContext) -> ToolOutput:
    """Schedule an appointment for the patient, usually fulfilling a referral ServiceRequest.

    With a start time the appointment is booked; without one it is a proposed appointment.
    """
    practitioner = args.practitioner or ctx.practitioner_id
    resource: JsonDict = {
        "resourceType": "Appointment",
        "status": args.status or ("booked" if args.start else "proposed"),
        "description": args.description, **_period(args, ctx),
        "created": fhir_datetime(ctx.now),
        "basedOn": [_ref("ServiceRequest", args.based_on)] if args.based_on else [],
        "participant": [
            {"actor": _ref("Patient", args.patient), "required": "required",
             "status": "accepted"},
            {"actor": _ref("Practitioner", practitioner), "required": "required",
             "status": "accepted"},
        ],
    }
    return _created(ctx, _without_empty(resource))


def _without_empty(resource: JsonDict) -> JsonDict:
    return {key: value for key, value in resource.items() if value not in (None, [], {}, "")}


WRITE_TOOLS = (fhir_medication_request_create, fhir_service_request_create,
               fhir_communication_create_message, fhir_appointment_create)
