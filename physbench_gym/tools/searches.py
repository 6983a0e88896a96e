"""The read tools of the ``physicianbench`` tool set: one search per kind of chart data."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from physbench_gym.tools.base import ToolContext, ToolOutput, tool
from physbench_gym.tools.fields import FhirDate, PatientId, ShortText, TokenList, ToolArgs
from physbench_gym.tools.paging import search_pages

Params = list[tuple[str, str]]
Sort = Literal["-date", "date"]
SORT_DESCRIPTION = "By clinical date: '-date' newest first (default), 'date' oldest first."
PATIENT = "FHIR id of the patient (from fhir_patient_search_demographics)."


class PagingArgs(ToolArgs):
    """Result size controls shared by every search."""

    count: int = Field(50, ge=1, le=200, description="Results per page (1-200, default 50).")
    page_limit: int = Field(1, ge=1, le=20, description=(
        "How many pages to fetch by following the next links (1-20, default 1)."))


class PatientSearchArgs(PagingArgs):
    """Patient search; at least one criterion is required."""

    identifier: ShortText | None = Field(None, description=(
        "Medical record number (MRN), or 'system|value' for a specific identifier system."))
    name: ShortText | None = Field(None, description="Any part of the patient's name.")
    family: ShortText | None = Field(None, description="Family (last) name, prefix match.")
    given: ShortText | None = Field(None, description="Given (first) name, prefix match.")
    birthdate: FhirDate | None = Field(None, description="Date of birth, YYYY-MM-DD.")
    gender: Literal["male", "female", "other", "unknown"] | None = Field(
        None, description="Administrative gender.")
    patient: PatientId | None = Field(None, description="FHIR id of the patient, if known.")

    @model_validator(mode="after")
    def _one_criterion(self) -> PatientSearchArgs:
        fields = (self.identifier, self.name, self.family, self.given, self.birthdate,
                  self.gender, self.patient)
        if all(value is None for value in fields):
            raise ValueError("give at least one of identifier, name, family, given, birthdate, "
                             "gender or patient")
        return self


class ClinicalSearchArgs(PagingArgs):
    """Base of the per-patient searches."""

    patient: PatientId = Field(description=PATIENT)
    sort: Sort = Field("-date", description=SORT_DESCRIPTION)


class DatedSearchArgs(ClinicalSearchArgs):
    """A per-patient search with a date range."""

    date_ge: FhirDate | None = Field(None, description=(
        "Only results dated on or after this date (YYYY-MM-DD or a full dateTime)."))
    date_le: FhirDate | None = Field(None, description=(
        "Only results dated on or before this date (YYYY-MM-DD or a full dateTime)."))


class ObservationSearchArgs(DatedSearchArgs):
    """Observation search within one category."""

    code: TokenList | None = Field(None, description=(
        "LOINC code(s) of the observation, comma-separated for any of several, e.g. "
        "'4548-4' or '2160-0,33914-3'."))
    status: Literal["registered", "preliminary", "final", "amended", "corrected", "cancelled",
                    "entered-in-error", "unknown"] | None = Field(
        None, description="Result status, e.g. 'final'.")


class ConditionSearchArgs(ClinicalSearchArgs):
    """Condition search."""

    category: Literal["problem-list-item", "encounter-diagnosis", "health-concern"] | None = (
        Field(None, description="Kind of condition: problem list, encounter diagnosis, concern."))
    clinical_status: Literal["active", "recurrence", "relapse", "inactive", "remission",
                             "resolved"] | None = Field(None, description="Clinical status.")
    code: TokenList | None = Field(None, description=(
        "Condition code(s) (ICD-10-CM or SNOMED CT), comma-separated; 'system|code' allowed."))


class ProcedureSearchArgs(DatedSearchArgs):
    """Procedure search."""

    code: TokenList | None = Field(None, description="Procedure code(s) (CPT or SNOMED CT).")
    status: Literal["preparation", "in-progress", "not-done", "on-hold", "stopped", "completed",
                    "entered-in-error", "unknown"] | None = Field(
        None, description="Procedure status, e.g. 'completed'.")


MedicationStatus = Literal["active", "on-hold", "cancelled", "completed", "entered-in-error",
                           "stopped", "draft", "unknown"]


class MedicationSearchArgs(ClinicalSearchArgs):
    """MedicationRequest search."""

    status: MedicationStatus | None = Field(None, description=(
        "Order status, e.g. 'active' for current medications."))
    code: TokenList | None = Field(None, description="RxNorm code(s) of the medication.")
    authoredon_ge: FhirDate | None = Field(None, description=(
        "Only orders written on or after this date (YYYY-MM-DD)."))
    authoredon_le: FhirDate | None = Field(None, description=(
        "Only orders written on or before this date (YYYY-MM-DD)."))


class DocumentSearchArgs(DatedSearchArgs):
    """DocumentReference search."""

    type: TokenList | None = Field(None, description=(
        "LOINC document type(s), e.g. '11488-4' consult note, '18842-5' discharge summary, "
        "'11506-3' progress note, '18748-4' imaging report."))


class ServiceRequestSearchArgs(ClinicalSearchArgs):
    """ServiceRequest search."""

    status: Literal["draft", "active", "on-hold", "revoked", "completed", "entered-in-error",
                    "unknown"] | None = Field(None, description="Order status.")
    category: TokenList | None = Field(None, description=(
        "Category code, e.g. 108252007 (laboratory), 363679005 (imaging), 3457005 (referral)."))
    code: TokenList | None = Field(None, description="Code(s) of the ordered service.")


def _paging(args: PagingArgs, sort_param: str | None, sort: str = "-date") -> Params:
    params: Params = [("_count", str(args.count))]
    if sort_param:
        params.append(("_sort", f"-{sort_param}" if sort.startswith("-") else sort_param))
    return params


def _optional(**values: str | None) -> Params:
    return [(name.replace("_", "-"), value) for name, value in values.items() if value]


def _dates(name: str, low: str | None, high: str | None) -> Params:
    return ([(name, f"ge{low}")] if low else []) + ([(name, f"le{high}")] if high else [])


def _observations(args: ObservationSearchArgs, ctx: ToolContext, category: str) -> ToolOutput:
    params = [("patient", args.patient), ("category", category),
              *_optional(code=args.code, status=args.status),
              *_dates("date", args.date_ge, args.date_le), *_paging(args, "date", args.sort)]
    return search_pages(ctx, "Observation", params, args.page_limit)


@tool(PatientSearchArgs)
def fhir_patient_search_demographics(args: PatientSearchArgs, ctx: ToolContext) -> ToolOutput:
    """Find a patient by MRN, name, birth date or gender and get the FHIR patient id.

    Start here: the id in the result is the `patient` argument of every other tool.
    """
    params = [*_optional(identifier=args.identifier, name=args.name, family=args.family,
                         given=args.given, birthdate=args.birthdate, gender=args.gender),
              *([("_id", args.patient)] if args.patient else []), *_paging(args, None)]
    return search_pages(ctx, "Patient", params, args.page_limit)


@tool(ConditionSearchArgs)
def fhir_condition_search_problems(args: ConditionSearchArgs, ctx: ToolContext) -> ToolOutput:
    """Search a patient's conditions: problem list and encounter diagnoses (ICD-10/SNOMED)."""
    params = [("patient", args.patient),
              *_optional(category=args.category, clinical_status=args.clinical_status,
                         code=args.code), *_paging(args, "onset-date", args.sort)]
    return search_pages(ctx, "Condition", params, args.page_limit)


@tool(ObservationSearchArgs)
def fhir_observation_search_labs(args: ObservationSearchArgs, ctx: ToolContext) -> ToolOutput:
    """Search a patient's laboratory results (category laboratory), by LOINC code and date.

    Each result has its value, unit, reference range, interpretation and effective date.
    """
    return _observations(args, ctx, "laboratory")


@tool(ObservationSearchArgs)
def fhir_observation_search_vitals(args: ObservationSearchArgs, ctx: ToolContext) -> ToolOutput:
    """Search a patient's vital signs (blood pressure, heart rate, weight, BMI, SpO2 ...)."""
    return _observations(args, ctx, "vital-signs")


@tool(ObservationSearchArgs)
def fhir_observation_search_social_history(args: ObservationSearchArgs,
                                           ctx: ToolContext) -> ToolOutput:
    """Search a patient's social history (smoking, alcohol, substance use, occupation ...)."""
    return _observations(args, ctx, "social-history")


@tool(ProcedureSearchArgs)
def fhir_procedure_search_orders(args: ProcedureSearchArgs, ctx: ToolContext) -> ToolOutput:
    """Search procedures a patient has had (endoscopy, surgery, imaging-guided procedures ...)."""
    params = [("patient", args.patient), *_optional(code=args.code, status=args.status),
              *_dates("date", args.date_ge, args.date_le), *_paging(args, "date", args.sort)]
    return search_pages(ctx, "Procedure", params, args.page_limit)


@tool(MedicationSearchArgs)
def fhir_medication_request_search_orders(args: MedicationSearchArgs,
                                          ctx: ToolContext) -> ToolOutput:
    """Search a patient's medication orders (current and past prescriptions, with dosing)."""
    params = [("patient", args.patient), *_optional(status=args.status, code=args.code),
              *_dates("authoredon", args.authoredon_ge, args.authoredon_le),
              *_paging(args, "authoredon", args.sort)]
    return search_pages(ctx, "MedicationRequest", params, args.page_limit)


@tool(DocumentSearchArgs)
def fhir_document_reference_search_clinical_notes(args: DocumentSearchArgs,
                                                  ctx: ToolContext) -> ToolOutput:
    """Search a patient's clinical notes and reports; the note text is decoded and shown.

    Notes can be long: use `type`, a date range or a small `count` to keep results readable.
    """
    params = [("patient", args.patient), *_optional(type=args.type),
              *_dates("date", args.date_ge, args.date_le), *_paging(args, "date", args.sort)]
    return search_pages(ctx, "DocumentReference", params, args.page_limit)


@tool(ServiceRequestSearchArgs)
def fhir_service_request_search(args: ServiceRequestSearchArgs, ctx: ToolContext) -> ToolOutput:
    """Search a patient's orders for labs, imaging, procedures and referrals."""
    params = [("patient", args.patient),
              *_optional(status=args.status, category=args.category, code=args.code),
              *_paging(args, "authored", args.sort)]
    return search_pages(ctx, "ServiceRequest", params, args.page_limit)


SEARCH_TOOLS = (
    fhir_patient_search_demographics, fhir_condition_search_problems,
    fhir_observation_search_labs, fhir_observation_search_vitals,
    fhir_observation_search_social_history, fhir_procedure_search_orders,
    fhir_medication_request_search_orders, fhir_document_reference_search_clinical_notes,
    fhir_service_request_search,
)
