"""The patient story: the hand-writable input from which a longitudinal chart is generated.

A story is data only. Task specs embed it as YAML; every date in it is either absolute ISO
(``2026-03-14``, ``2026-03-14T09:30:00Z``) or an offset before ``now`` (``-90d``, ``-6w``,
``-18m``, ``-3y``, ``-1y-2m``), resolved by :func:`resolve_date`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from physbench_gym.errors import PhysBenchError
from physbench_gym.synth.dates import DateRef, UtcDateTime, resolve_date, shift_months

__all__ = ["Story", "StoryError", "resolve_date"]


class StoryError(PhysBenchError, ValueError):
    """A story is inconsistent or cannot be turned into a chart."""


_DOSE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(\S+)\s*$")


def _dose(value: object) -> object:
    if isinstance(value, str):
        match = _DOSE.match(value)
        if not match:
            raise ValueError(f"dose must look like '50 ug' or '10 mg', got {value!r}")
        return {"value": float(match.group(1)), "unit": match.group(2)}
    return value


_FREQUENCIES = {
    "qod": (1, 2, "d"), "every other day": (1, 2, "d"),
    "daily": (1, 1, "d"), "qd": (1, 1, "d"), "bid": (2, 1, "d"), "tid": (3, 1, "d"),
    "qid": (4, 1, "d"), "qhs": (1, 1, "d"), "qam": (1, 1, "d"), "q4h": (1, 4, "h"),
    "q6h": (1, 6, "h"), "q8h": (1, 8, "h"), "q12h": (1, 12, "h"), "weekly": (1, 1, "wk"),
    "every 2 weeks": (1, 2, "wk"), "monthly": (1, 1, "mo"), "every 3 months": (1, 3, "mo"),
}


def _frequency(value: object) -> object:
    if isinstance(value, str):
        key = value.strip().lower()
        if key not in _FREQUENCIES:
            raise ValueError(f"unknown frequency {value!r}; use one of {sorted(_FREQUENCIES)}")
        times, period, unit = _FREQUENCIES[key]
        return {"times": times, "period": period, "unit": unit}
    return value


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Dose(_Model):
    """A dose quantity; YAML may write it as ``"50 ug"``."""

    value: float = Field(description="Numeric amount per administration.")
    unit: str = Field(description="UCUM unit code, e.g. 'mg', 'ug', '[iU]', 'mL', '{tbl}'.")


DoseField = Annotated[Dose, BeforeValidator(_dose)]


class Frequency(_Model):
    """How often a dose is taken; YAML may write 'daily', 'BID', 'q8h', 'weekly'."""

    times: int = Field(default=1, ge=1, description="Administrations per period.")
    period: float = Field(default=1, gt=0, description="Length of the period.")
    unit: Literal["h", "d", "wk", "mo"] = Field(default="d", description="UCUM unit of period.")


FrequencyField = Annotated[Frequency, BeforeValidator(_frequency)]


class PatientInfo(_Model):
    """Demographics of the story patient."""

    id: str = Field(description="FHIR id of the Patient, e.g. 'pt-thyroid-001'.",
                    pattern=r"^[A-Za-z0-9\-.]{1,48}$")
    mrn: str | None = Field(default=None, description="Medical record number; generated if absent.")
    given: list[str] = Field(description="Given names, first name first.", min_length=1)
    family: str = Field(description="Family name.")
    gender: Literal["male", "female", "other", "unknown"] = Field(description="Administrative sex.")
    birth_date: DateRef | None = Field(default=None, description="Birth date (ISO or offset).")
    age: int | None = Field(default=None, ge=0, le=115,
                            description="Age in years at 'now' when birth_date is not given.")
    phone: str | None = Field(default=None, description="Home phone; generated if absent.")
    address: str | None = Field(default=None,
                                description="One-line street address; generated if absent.")

    @model_validator(mode="before")
    @classmethod
    def _given_list(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("given"), str):
            return {**data, "given": data["given"].split()}
        return data

    @model_validator(mode="after")
    def _birth_or_age(self) -> PatientInfo:
        if (self.birth_date is None) == (self.age is None):
            raise ValueError("give exactly one of birth_date or age")
        return self


class ConditionEntry(_Model):
    """A problem-list or encounter diagnosis, coded in SNOMED CT (ICD-10-CM is added)."""

    code: str = Field(description="SNOMED CT concept id from the conditions table.")
    onset: DateRef = Field(description="Onset date.")
    abatement: DateRef | None = Field(default=None, description="Abatement date, if resolved.")
    clinical_status: Literal["active", "resolved", "inactive", "remission"] = Field(
        default="active", description="Clinical status of the condition.")
    category: Literal["problem-list-item", "encounter-diagnosis"] = Field(
        default="problem-list-item", description="Problem list entry or visit diagnosis.")
    note: str | None = Field(default=None, description="Free-text annotation.")

    @model_validator(mode="after")
    def _abatement_status(self) -> ConditionEntry:
        if self.abatement is not None and self.clinical_status == "active":
            raise ValueError("an abated condition cannot be 'active'")
        return self


class DoseChange(_Model):
    """A change of product or dose: ends the current order and starts a new one."""

    date: DateRef = Field(description="Date the new order starts (the old one stops).")
    code: str | None = Field(default=None, description="New RxNorm code; unchanged if absent.")
    dose: DoseField | None = Field(default=None, description="New dose; unchanged if absent.")
    frequency: FrequencyField | None = Field(default=None, description="New frequency.")
    sig: str | None = Field(default=None, description="New dosage text; generated if absent.")
    reason: str | None = Field(default=None, description="Why the dose changed (note text).")


class MedicationEntry(_Model):
    """A prescription history: one MedicationRequest per dose period."""

    code: str = Field(description="RxNorm clinical drug code from the rxnorm table.")
    start: DateRef = Field(description="Date first prescribed.")
    stop: DateRef | None = Field(default=None, description="Date stopped or completed.")
    status: Literal["active", "stopped", "completed", "on-hold", "cancelled"] = Field(
        default="active", description="Status of the last order in the history.")
    dose: DoseField = Field(description="Dose per administration, e.g. '50 ug'.")
    frequency: FrequencyField = Field(default=Frequency(), description="How often, e.g. 'BID'.")
    route: str | None = Field(default=None, description="Route; taken from the drug if absent.")
    as_needed: bool = Field(default=False, description="Taken as needed (PRN).")
    sig: str | None = Field(default=None, description="Dosage text; generated if absent.")
    reason: str | None = Field(default=None, description="SNOMED code of the indication.")
    refills: int = Field(default=3, ge=0, description="Refills allowed per order.")
    supply_days: int | None = Field(
        default=None, ge=1, description="Days supplied per fill (90 for long-term, 10 for "
        "acute orders if absent), e.g. a 10-day supply handed out in the ED.")
    prescriber: str | None = Field(default=None, description="Practitioner id; PCP if absent.")
    changes: list[DoseChange] = Field(default_factory=list, description="Dose changes in order.")

    @model_validator(mode="after")
    def _stop_status(self) -> MedicationEntry:
        if self.stop is not None and self.status in ("active", "on-hold"):
            raise ValueError("a medication with a stop date cannot be active or on-hold")
        return self


class MedicationStatementEntry(_Model):
    """A patient-reported or over-the-counter medication."""

    code: str = Field(description="RxNorm code.")
    date: DateRef = Field(description="Date the statement was recorded.")
    status: Literal["active", "completed", "stopped", "intended", "not-taken"] = Field(
        default="active", description="Statement status.")
    dosage: str | None = Field(default=None, description="Dosage as the patient reports it.")
    note: str | None = Field(default=None, description="Free-text note.")


class ObservationPoint(_Model):
    """One result: numeric ``value``, or ``value_string`` / ``value_code`` when qualitative."""

    date: DateRef = Field(description="Effective date/time of the result.")
    value: float | None = Field(default=None, description="Numeric value in the code's unit.")
    value_string: str | None = Field(default=None, description="Text result, e.g. '1:160'.")
    value_code: str | None = Field(default=None,
                                   description="SNOMED code of a qualitative answer (Positive).")
    interpretation: Literal["H", "L", "N", "A", "HH", "LL"] | None = Field(
        default=None, description="Overrides the flag computed from the reference range.")

    @model_validator(mode="after")
    def _one_value(self) -> ObservationPoint:
        given = [v for v in (self.value, self.value_string, self.value_code) if v is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of value, value_string, value_code")
        return self


class Trend(_Model):
    """A series of values moving linearly from ``start`` to ``end`` with seeded noise."""

    start: float = Field(description="Value at the first date.")
    end: float = Field(description="Value at the last date (exact, without noise).")
    start_date: DateRef = Field(alias="from", description="First date.")
    end_date: DateRef = Field(alias="to", description="Last date.")
    every: str = Field(default="3m", pattern=r"^\d+[dwmy]$", description="Interval, e.g. '6m'.")
    noise: float = Field(default=0.0, ge=0, description="SD of Gaussian noise on inner points.")
    digits: int = Field(default=1, ge=0, le=4, description="Decimal places to round to.")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Series(_Model):
    """Results of one LOINC code: explicit points, a trend, or both."""

    code: str = Field(description="LOINC code from the loinc table.")
    points: list[ObservationPoint] = Field(default_factory=list, description="Explicit results.")
    trend: Trend | None = Field(default=None, description="Generated results.")
    panel: str | None = Field(default=None,
                              description="LOINC panel code grouping same-day results.")

    @model_validator(mode="after")
    def _has_values(self) -> Series:
        if not self.points and self.trend is None:
            raise ValueError(f"series {self.code} needs points or a trend")
        return self


class PanelEntry(_Model):
    """A one-off panel (BMP, CBC, hepatic panel) reported as one DiagnosticReport."""

    code: str = Field(description="LOINC panel code.")
    date: DateRef = Field(description="Collection date.")
    results: dict[str, float | str] = Field(description="Result value by LOINC code.")


class SocialEntry(_Model):
    """A social-history observation (tobacco status, pack-years, drinks per week, AUDIT-C)."""

    code: str = Field(description="LOINC code, e.g. 72166-2 tobacco smoking status.")
    date: DateRef = Field(description="Date recorded.")
    value: float | None = Field(default=None, description="Numeric value.")
    value_code: str | None = Field(default=None, description="SNOMED answer code.")
    value_string: str | None = Field(default=None, description="Text answer.")


Setting = Literal["AMB", "EMER", "IMP"]


class ProcedureEntry(_Model):
    """A performed procedure, coded in CPT or SNOMED CT."""

    code: str = Field(description="CPT or SNOMED CT code from the orderables table.")
    system: Literal["cpt", "snomed"] | None = Field(default=None, description="Code system.")
    date: DateRef = Field(description="Date performed.")
    outcome: str | None = Field(default=None, description="Outcome note.")
    performer: str | None = Field(default=None, description="Practitioner id or specialty.")
    setting: Setting = Field(default="AMB", description="Encounter class.")


ReportCategory = Literal["RAD", "CT", "NMR", "RUS", "PAT", "SP", "CUS", "EC", "CTH", "PF", "GE",
                         "LAB", "MB", "OTH"]


class ReportEntry(_Model):
    """A narrative DiagnosticReport: imaging, pathology, echo, ECG."""

    code: str = Field(description="LOINC code of the study.")
    category: ReportCategory = Field(description="HL7 v2-0074 diagnostic service section.")
    date: DateRef = Field(description="Date of the study.")
    conclusion: str = Field(description="Impression, one or two sentences.")
    text: str = Field(description="Full report text (presentedForm).")
    performer: str | None = Field(default=None, description="Practitioner id or specialty.")
    setting: Setting = Field(default="AMB", description="Encounter class.")


class NoteEntry(_Model):
    """A clinical note (DocumentReference with a text/plain attachment)."""

    type: str = Field(default="11506-3", description="LOINC note type (11506-3 progress note).")
    date: DateRef = Field(description="Date of the note.")
    title: str = Field(description="Title shown in the note list.")
    text: str = Field(description="Full note text.")
    author: str | None = Field(default=None,
                               description="Practitioner id, a specialty name, or 'pcp'.")
    setting: Setting | None = Field(default=None,
                                    description="Encounter class; from the note type if absent.")


class AllergyEntry(_Model):
    """An allergy or intolerance."""

    substance: str = Field(description="Substance as the chart names it, e.g. 'Penicillin'.")
    code: str | None = Field(default=None, description="RxNorm or SNOMED code of the substance.")
    system: Literal["rxnorm", "snomed"] = Field(default="rxnorm", description="Code system.")
    category: Literal["medication", "food", "environment", "biologic"] = Field(
        default="medication", description="Allergy category.")
    reaction: str | None = Field(default=None, description="Manifestation, e.g. 'hives'.")
    severity: Literal["mild", "moderate", "severe"] | None = Field(default=None,
                                                                   description="Severity.")
    criticality: Literal["low", "high", "unable-to-assess"] = Field(
        default="low", description="Risk of future life-threatening reaction.")
    recorded: DateRef = Field(description="Date recorded.")


class ImmunizationEntry(_Model):
    """An administered vaccine."""

    cvx: str = Field(description="CVX vaccine code, e.g. '150' influenza quadrivalent.")
    date: DateRef = Field(description="Date administered.")


class ServiceRequestEntry(_Model):
    """A prior order in the chart."""

    code: str = Field(description="Orderable code (LOINC, CPT or SNOMED).")
    system: Literal["loinc", "cpt", "snomed"] | None = Field(default=None,
                                                             description="Code system.")
    date: DateRef = Field(description="Date ordered.")
    status: Literal["completed", "active", "revoked", "on-hold", "draft"] = Field(
        default="completed", description="Order status.")
    reason: str | None = Field(default=None, description="SNOMED code of the indication.")
    note: str | None = Field(default=None, description="Order comment.")
    requester: str | None = Field(default=None, description="Practitioner id; PCP if absent.")


class Story(_Model):
    """Everything the chart generator needs to build one patient's record."""

    now: UtcDateTime = Field(
        description="The task's fixed 'now' (UTC); nothing in the chart is dated after it.")
    patient: PatientInfo = Field(description="Demographics.")
    pcp: str | None = Field(default=None, description="Practitioner id of the PCP.")
    history_years: int = Field(default=5, ge=0, le=30,
                               description="Years of routine care generated around the story.")
    routine: bool = Field(default=True, description="Whether to add routine-care noise.")
    conditions: list[ConditionEntry] = Field(default_factory=list, description="Problems.")
    medications: list[MedicationEntry] = Field(default_factory=list, description="Rx history.")
    statements: list[MedicationStatementEntry] = Field(default_factory=list,
                                                       description="Reported medications.")
    labs: list[Series] = Field(default_factory=list, description="Lab series by LOINC.")
    panels: list[PanelEntry] = Field(default_factory=list, description="One-off panels.")
    vitals: list[Series] = Field(default_factory=list, description="Vital-sign series.")
    social: list[SocialEntry] = Field(default_factory=list, description="Social history.")
    procedures: list[ProcedureEntry] = Field(default_factory=list, description="Procedures.")
    reports: list[ReportEntry] = Field(default_factory=list, description="Narrative reports.")
    notes: list[NoteEntry] = Field(default_factory=list, description="Clinical notes.")
    allergies: list[AllergyEntry] = Field(default_factory=list, description="Allergies.")
    immunizations: list[ImmunizationEntry] = Field(default_factory=list,
                                                   description="Vaccines given.")
    service_requests: list[ServiceRequestEntry] = Field(default_factory=list,
                                                        description="Prior orders.")

    def at(self, ref: str | date | datetime) -> datetime:
        """Resolve a date of this story against its ``now``."""
        return resolve_date(ref, self.now)

    def birth_date(self) -> date:
        """The patient's birth date (from ``birth_date``, else from ``age`` at ``now``)."""
        if self.patient.birth_date is not None:
            return self.at(self.patient.birth_date).date()
        born = shift_months(self.now, -12 * (self.patient.age or 0)) - timedelta(days=40)
        return born.date()

    def age_at(self, at: date | datetime) -> int:
        """The patient's age in whole years on a date (a note written in 2022 states the age
        the patient had then)."""
        born = self.birth_date()
        return at.year - born.year - ((at.month, at.day) < (born.month, born.day))

    def owned_codes(self) -> frozenset[str]:
        """LOINC codes whose values the story states (routine noise must not add any)."""
        codes = {s.code for s in self.labs} | {s.code for s in self.vitals}
        codes |= {code for panel in self.panels for code in panel.results}
        codes |= {entry.code for entry in self.social}
        return frozenset(codes)
