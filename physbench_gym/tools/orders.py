"""Argument models of the write tools: prescriptions, orders, messages and appointments."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from physbench_gym.tools.fields import (
    FhirDate,
    FhirDateTime,
    PatientId,
    PractitionerId,
    ServiceRequestId,
    ShortText,
    ToolArgs,
)

Route = Literal["oral", "sublingual", "intravenous", "subcutaneous", "intramuscular", "topical",
                "transdermal", "nasal", "inhalation", "rectal", "vaginal", "ophthalmic", "otic"]
Priority = Literal["routine", "urgent", "asap", "stat"]
Code = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9.\-]*$")]
Amount = Annotated[float, Field(gt=0, le=100_000, allow_inf_nan=False)]
Note = Annotated[str, Field(min_length=1, max_length=4000)]
Reason = Annotated[str, Field(min_length=1, max_length=500)]
PATIENT = "FHIR id of the patient (from fhir_patient_search_demographics)."


def reason_field() -> Any:
    """The ``reason`` parameter of an order."""
    return Field(None, description=(
        "Reason for the order in words, e.g. 'type 2 diabetes, A1c above goal'."))


def reason_code_field() -> Any:
    """The ``reason_code`` parameter of an order."""
    return Field(None, description=(
        "Diagnosis code for the reason, e.g. ICD-10-CM 'E11.9' or a SNOMED CT id."))


def reason_system_field() -> Any:
    """The ``reason_system`` parameter of an order."""
    return Field("icd10", description=(
        "Code system of reason_code: 'icd10' (default), 'snomed', or a system URI."))


class MedicationRequestCreateArgs(ToolArgs):
    """A new prescription."""

    patient: PatientId = Field(description=PATIENT)
    medication_code: Annotated[str, Field(pattern=r"^\d{1,12}$")] = Field(description=(
        "RxNorm code (RxCUI, digits only) of the clinical drug: ingredient, strength and form."))
    medication_display: ShortText | None = Field(None, description=(
        "Name of the drug as you would write it, e.g. 'atorvastatin 40 mg tablet'."))
    dose_value: Amount | None = Field(None, description="Amount per dose, e.g. 40.")
    dose_unit: ShortText | None = Field(None, description=(
        "Unit of the dose (UCUM or common words): 'mg', 'mcg', 'g', 'mL', 'units', 'tablet'."))
    route: Route | None = Field(None, description=(
        "Route of administration; defaults to the drug's usual route when known."))
    frequency: int | None = Field(None, ge=1, le=48, description=(
        "How many doses per period_unit, e.g. 2 with period_unit 'day' for twice daily."))
    period_unit: Literal["hour", "day", "week", "month"] = Field("day", description=(
        "Period the frequency counts over: 'day' (default), 'week' (e.g. weekly injections)."))
    period: int = Field(1, ge=1, le=60, description=(
        "Length of the period in period_unit (default 1): frequency 1, period 6, period_unit "
        "'month' is once every 6 months; frequency 1, period 2, period_unit 'week' every "
        "2 weeks."))
    as_needed: bool = Field(False, description="True for a PRN (as needed) medication.")
    sig: Annotated[str, Field(min_length=1, max_length=1000)] | None = Field(None, description=(
        "Free-text directions, e.g. 'Take 1 tablet by mouth nightly'. Generated if omitted."))
    duration_days: int | None = Field(None, ge=1, le=3650, description=(
        "Days of therapy this prescription covers (expected supply duration)."))
    quantity: Amount | None = Field(None, description="Quantity to dispense, e.g. 90.")
    quantity_unit: ShortText | None = Field(None, description=(
        "Unit of the dispensed quantity, e.g. 'tablet', 'mL', 'pen'."))
    refills: int | None = Field(None, ge=0, le=12, description="Number of refills allowed.")
    status: Literal["active", "draft", "on-hold"] = Field("active", description=(
        "Order status: 'active' (default) to prescribe now, 'draft' for a pended order."))
    intent: Literal["order", "plan", "proposal"] = Field("order", description=(
        "'order' (default) for a prescription, 'plan' or 'proposal' for a suggestion."))
    priority: Priority | None = Field(None, description="Urgency of the order.")
    reason: Reason | None = reason_field()
    reason_code: Code | None = reason_code_field()
    reason_system: ShortText = reason_system_field()
    note: Note | None = Field(None, description="Comment to the pharmacist or care team.")

    @model_validator(mode="after")
    def _dosing(self) -> MedicationRequestCreateArgs:
        if (self.dose_value is None) != (self.dose_unit is None):
            raise ValueError("give dose_value and dose_unit together")
        if self.dose_value is None and self.sig is None:
            raise ValueError("give the dose (dose_value and dose_unit) or free-text sig")
        return self


class ServiceRequestCreateArgs(ToolArgs):
    """A new order for a lab test, imaging study, procedure, referral or counseling."""

    patient: PatientId = Field(description=PATIENT)
    code: Code = Field(description=(
        "Code of the service, e.g. LOINC '4548-4' (HbA1c), CPT '93306' (echocardiogram), "
        "SNOMED CT for referrals and procedures."))
    system: ShortText | None = Field(None, description=(
        "Code system: 'loinc', 'cpt', 'snomed', or a URI; may be omitted for known codes."))
    display: ShortText | None = Field(None, description="Name of the service in words.")
    category: Literal["laboratory", "imaging", "procedure", "referral", "counseling"] = Field(
        description="Kind of order.")
    priority: Priority = Field("routine", description="Urgency: routine (default) to stat.")
    status: Literal["active", "draft"] = Field("active", description="Order status.")
    intent: Literal["order", "plan", "proposal"] = Field("order", description=(
        "'order' (default), or 'plan'/'proposal' for a recommendation."))
    occurrence: FhirDate | None = Field(None, description=(
        "When it should be done (YYYY-MM-DD or dateTime); omit for as soon as routine."))
    specialty: ShortText | None = Field(None, description=(
        "For referrals: the specialty referred to, e.g. 'cardiology'."))
    performer: PractitionerId | None = Field(None, description=(
        "FHIR id of the practitioner who should perform the service, if known."))
    reason: Reason | None = reason_field()
    reason_code: Code | None = reason_code_field()
    reason_system: ShortText = reason_system_field()
    note: Note | None = Field(None, description="Clinical question or instructions.")


class CommunicationCreateArgs(ToolArgs):
    """A message to a clinician about a patient."""

    patient: PatientId = Field(description=PATIENT)
    recipient: PractitionerId = Field(description=(
        "FHIR id of the practitioner who receives the message (e.g. the referring PCP)."))
    text: Annotated[str, Field(min_length=1, max_length=20_000)] = Field(description=(
        "The message itself."))
    category: Literal["notification", "alert", "reminder", "instruction"] = Field(
        "notification", description="Kind of message (default 'notification').")
    priority: Priority | None = Field(None, description="Urgency of the message.")
    based_on: ServiceRequestId | None = Field(None, description=(
        "FHIR id of a ServiceRequest the message is about, if any."))


class AppointmentCreateArgs(ToolArgs):
    """A visit for a patient, usually fulfilling a referral or follow-up order."""

    patient: PatientId = Field(description=PATIENT)
    based_on: ServiceRequestId | None = Field(None, description=(
        "FHIR id of the ServiceRequest (referral or order) this appointment fulfils."))
    start: FhirDateTime | None = Field(None, description=(
        "Start, e.g. '2024-06-03T09:00:00-07:00' (the task's time zone if none is given)."))
    end: FhirDateTime | None = Field(None, description="End; or give minutes_duration.")
    minutes_duration: int | None = Field(None, ge=5, le=1440, description=(
        "Length of the visit in minutes (used when end is omitted)."))
    description: Annotated[str, Field(min_length=1, max_length=1000)] = Field(description=(
        "What the visit is for, e.g. 'Cardiology follow-up for atrial fibrillation'."))
    status: Literal["booked", "proposed"] | None = Field(None, description=(
        "'booked' when a start is given (default then), otherwise 'proposed'."))
    practitioner: PractitionerId | None = Field(None, description=(
        "FHIR id of the practitioner seeing the patient; defaults to you."))

    @model_validator(mode="after")
    def _times(self) -> AppointmentCreateArgs:
        if self.start is None and (self.end or self.minutes_duration):
            raise ValueError("end and minutes_duration need a start")
        if self.start is not None and self.end is None and self.minutes_duration is None:
            raise ValueError("give end or minutes_duration with a start")
        if self.status == "booked" and self.start is None:
            raise ValueError("a booked appointment needs a start")
        return self
