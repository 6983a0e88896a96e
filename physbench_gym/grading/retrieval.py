"""Data-retrieval primitives: did the agent's tool calls bring back the evidence?"""

from __future__ import annotations

from pydantic import Field

from physbench_gym.grading.core import (
    READ,
    Args,
    CheckpointResult,
    GradingContext,
    Returned,
    primitive,
    read_of,
)


class RetrievedArgs(Args):
    resource_type: str = Field(description="FHIR type that must have been returned.")
    codes: list[str] = Field(default_factory=list, description="Any of these 'system|code'.")
    text_contains: list[str] = Field(
        default_factory=list, description="Any of these phrases in the resource's text.")
    min_count: int = Field(default=1, ge=1, description="Distinct matching resources needed.")
    label: str = Field(default="", description="What the evidence is, for the reason text.")

    @property
    def triggers(self) -> frozenset[str]:
        """Only a step that shows resources of this type can change the verdict."""
        return frozenset({read_of(self.resource_type)})

    @property
    def monotone(self) -> bool:
        """What the agent has seen only grows, so a retrieval once passed stays passed."""
        return True


@primitive("retrieved", RetrievedArgs, {READ})
def retrieved(ctx: GradingContext, args: RetrievedArgs) -> CheckpointResult:
    """The agent's tool calls returned the patient's resources matching type, code and text."""
    candidates = (ctx.returned_with_code(args.resource_type, args.codes) if args.codes
                  else ctx.returned.get(args.resource_type, {}))
    seen = [rid for rid, seen_item in candidates.items()
            if _relevant(seen_item, ctx.patient_id, args)]
    what = args.label or f"{args.resource_type} {' / '.join(args.codes or args.text_contains)}"
    if len(seen) >= args.min_count:
        return CheckpointResult(True, f"retrieved {what} ({len(seen)} resource(s))")
    return CheckpointResult(False, f"{what} not retrieved ({len(seen)}/{args.min_count})")


def _relevant(item: Returned, patient: str, args: RetrievedArgs) -> bool:
    if item.patient != patient:
        return False
    return not args.text_contains or any(
        phrase.lower() in item.text for phrase in args.text_contains)
