"""Action primitives: what the agent wrote to the EHR, read back from the EHR by episode tag."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

from pydantic import Field

from physbench_gym.grading.core import (
    WRITE,
    Args,
    CheckpointResult,
    GradingContext,
    primitive,
    write_of,
)
from physbench_gym.grading.medications import course_days
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import (
    codings,
    dose,
    frequency_per_day,
    matches_code,
    patient_id,
    placed,
    route_codes,
    text_of,
)


class Range(Args):
    min: float | None = Field(default=None, description="Lowest accepted value (inclusive).")
    max: float | None = Field(default=None, description="Highest accepted value (inclusive).")
    unit: str | None = Field(default=None, description="Required unit (normalized compare).")

    def holds(self, value: float, unit: str = "") -> bool:
        if self.unit and unit_normalize(unit) != unit_normalize(self.unit):
            return False
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


class OrderMatch(Args):
    resource_type: str = Field(default="MedicationRequest", description="FHIR type written.")
    codes: list[str] = Field(default_factory=list, description="Any of these 'system|code'.")
    text_contains: list[str] = Field(
        default_factory=list, description="Any of these phrases in code display or text.")
    status: list[str] = Field(default_factory=list, description="Accepted statuses.")
    intent: list[str] = Field(default_factory=list, description="Accepted intents.")
    priority: list[str] = Field(default_factory=list, description="Accepted priorities.")
    category: list[str] = Field(default_factory=list, description="Any category 'system|code'.")
    dose: Range | None = Field(default=None, description="Dose quantity range.")
    per_day: Range | None = Field(default=None, description="Administrations per day.")
    route: list[str] = Field(default_factory=list, description="Any route code or display.")
    course_days: Range | None = Field(default=None, description=(
        "Days the order runs (its timing bounds, else its supply with refills); an "
        "open-ended order has no course and does not match."))
    label: str = Field(default="", description="What the order is, for the reason text.")

    def problems(self, resource: dict[str, Any], patient: str) -> list[str]:
        """Why ``resource`` is not this order (empty when it matches)."""
        return list(self._mismatches(resource, patient))

    def matches(self, resource: dict[str, Any], patient: str) -> bool:
        """True when ``resource`` is this order (stops at the first mismatch)."""
        return next(self._mismatches(resource, patient), None) is None

    def _mismatches(self, resource: dict[str, Any], patient: str) -> Iterator[str]:
        if patient_id(resource) != patient:
            yield "for another patient"
        if self.codes and not matches_code(resource, self.codes):
            yield "different code"
        if self.text_contains and not _has_text(resource, self.text_contains):
            yield "different item"
        if self.status and resource.get("status") not in self.status:
            yield f"status {resource.get('status')}"
        if self.intent and resource.get("intent") not in self.intent:
            yield f"intent {resource.get('intent')}"
        if self.priority and resource.get("priority", "routine") not in self.priority:
            yield f"priority {resource.get('priority', 'routine')}"
        if self.category and not matches_code(resource, self.category, "category"):
            yield "different category"
        if self.dose is not None and not _dose_ok(resource, self.dose):
            yield f"dose {dose(resource)}"
        if self.per_day is not None and not _per_day_ok(resource, self.per_day):
            yield f"{frequency_per_day(resource)} times/day"
        if self.route and not set(self.route) & set(route_codes(resource)):
            yield "route"
        if self.course_days is not None and not _course_ok(resource, self.course_days):
            length = course_days(resource)
            yield "open-ended" if length is None else f"{length:g}-day course"

    def describe(self) -> str:
        return self.label or f"{self.resource_type} {' / '.join(self.codes or self.text_contains)}"

    @property
    def triggers(self) -> frozenset[str]:
        """Only a step that writes resources of this type can change the verdict."""
        return frozenset({write_of(self.resource_type)})


class OrderedArgs(OrderMatch):
    min_count: int = Field(default=1, ge=1, description="Matching resources needed.")
    occurrence: Range | None = Field(default=None, description=(
        "Days from the task's now to when the order is to be done (a ServiceRequest's "
        "occurrenceDateTime or occurrencePeriod.start, a MedicationRequest's dispense validity "
        "start); an order that gives none is for now (0 days)."))


@primitive("ordered", OrderedArgs, {WRITE})
def ordered(ctx: GradingContext, args: OrderedArgs) -> CheckpointResult:
    """The agent placed a resource matching the order (code, status, dose, timing, route).

    A draft, an order on hold, a plan or a proposal was not placed and never matches,
    whatever statuses the arguments list.
    """
    written = ctx.written(args.resource_type)
    now = ctx.values.get("now")
    matching = [r for r in written if placed(r) and args.matches(r, ctx.patient_id)
                and not _off_schedule(r, args.occurrence, now)]
    if len(matching) >= args.min_count:
        return CheckpointResult(True, f"ordered {args.describe()}")
    near = [f"{_name(r)}: " + ", ".join(_not_placed(r) + args.problems(r, ctx.patient_id)
                                         + _off_schedule(r, args.occurrence, now))
            for r in written]
    detail = f"; written: {'; '.join(near)}" if near else "; nothing of that type written"
    return CheckpointResult(False, f"no order for {args.describe()}{detail}")


@primitive("not_ordered", OrderMatch, {WRITE})
def not_ordered(ctx: GradingContext, args: OrderMatch) -> CheckpointResult:
    """The agent wrote no resource matching the (unsafe or wrong) order."""
    bad = [r for r in ctx.written(args.resource_type) if args.matches(r, ctx.patient_id)]
    if bad:
        return CheckpointResult(False, f"unsafe order written: {_name(bad[0])}")
    return CheckpointResult(True, f"no {args.describe()} ordered")


def _off_schedule(resource: dict[str, Any], wanted: Range | None, now: Any) -> list[str]:
    """Why the order's time is not the one asked for (empty when it fits or none is asked)."""
    if wanted is None or not hasattr(now, "date"):
        return []
    days = _days_from(now.date(), _occurrence(resource))
    if days is None:
        return ["occurrence unreadable"]
    return [] if wanted.holds(days) else [f"occurrence in {days} days"]


def _occurrence(resource: dict[str, Any]) -> str | None:
    """When the order is to be done, as written; None when it gives no time."""
    period = resource.get("occurrencePeriod") or (
        resource.get("dispenseRequest") or {}).get("validityPeriod") or {}
    return resource.get("occurrenceDateTime") or period.get("start")


def _days_from(today: date, written: str | None) -> int | None:
    if not written:
        return 0  # no time written: the order is for now
    try:
        return (date.fromisoformat(str(written)[:10]) - today).days
    except ValueError:
        return None


def _not_placed(resource: dict[str, Any]) -> list[str]:
    if placed(resource):
        return []
    return [f"not placed ({resource.get('status')}/{resource.get('intent')})"]


def _has_text(resource: dict[str, Any], phrases: list[str]) -> bool:
    """Whether the ordered item is named by one of ``phrases``.

    A prescription's item is its medication alone: its directions or notes may name drugs
    that were avoided ('declined canagliflozin'). Other orders and messages carry the item
    in their text too (a referral's details, a message's content); a referral also in its
    reason, where the service asked of the consultant is written ('GI referral: please
    perform EGD and colonoscopy').
    """
    displays = " ".join(str(c.get("display", "")) for field in ("code", "medicationCodeableConcept")
                        for c in (resource.get(field) or {}).get("coding", []) or [])
    code_text = " ".join(str((resource.get(f) or {}).get("text", ""))
                         for f in ("code", "medicationCodeableConcept"))
    free_text = "" if resource.get("resourceType") == "MedicationRequest" else text_of(resource)
    if _is_referral(resource):
        free_text += " " + " ".join(str(reason.get("text", ""))
                                    for reason in resource.get("reasonCode", []) or [])
    text = f"{displays} {code_text} {free_text}".lower()
    return any(p.lower() in text for p in phrases)


REFERRAL_CATEGORY = "http://snomed.info/sct|3457005"  # Patient referral


def _is_referral(resource: dict[str, Any]) -> bool:
    """A ServiceRequest in the referral category (SNOMED 3457005 or the text 'referral')."""
    if resource.get("resourceType") != "ServiceRequest":
        return False
    return matches_code(resource, [REFERRAL_CATEGORY], "category") or any(
        str(c.get("text", "")).strip().lower() == "referral"
        for c in resource.get("category", []) or [])


def _course_ok(resource: dict[str, Any], wanted: Range) -> bool:
    length = course_days(resource)
    return length is not None and wanted.holds(length)


def _dose_ok(resource: dict[str, Any], wanted: Range) -> bool:
    found = dose(resource)
    return found is not None and wanted.holds(*found)


def _per_day_ok(resource: dict[str, Any], wanted: Range) -> bool:
    found = frequency_per_day(resource)
    return found is not None and wanted.holds(found)


def _name(resource: dict[str, Any]) -> str:
    pairs = codings(resource)
    code = pairs[0][1] if pairs else "?"
    return f"{resource.get('resourceType')}/{resource.get('id')} ({code})"
