"""Text of routine progress notes and acute-visit notes, written from the chart's timeline."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class VisitFacts:
    """What a routine note states: who, why, findings and the chart at that date."""

    patient: str
    age: int
    sex: str
    kind: str
    problems: Sequence[str]
    meds: Sequence[str]
    vitals: Sequence[str]
    labs_ordered: Sequence[str]


_OPENINGS = {
    "checkup": ("presents for an annual wellness visit.", "is here for a routine physical.",
                "comes in for a yearly preventive visit."),
    "followup": ("returns for routine follow-up of chronic conditions.",
                 "is seen for a scheduled follow-up visit.",
                 "presents for a medication and chronic disease review."),
}
_FEELINGS = ("Reports feeling well overall.", "No new complaints today.",
             "Feels generally well; sleeping and eating normally.",
             "Denies chest pain, dyspnea, or change in bowel habits.")
_EXAMS = ("General: well-appearing, in no acute distress. Heart: regular rate and rhythm, no "
          "murmur. Lungs: clear to auscultation bilaterally. Abdomen: soft, nontender. "
          "Extremities: no edema.",
          "Alert and oriented. Cardiovascular: RRR, normal S1/S2. Respiratory: clear, no "
          "wheezes. Abdomen: benign. Skin: no rashes.")


def _listing(items: Sequence[str], empty: str) -> str:
    return "\n".join(f"- {item}" for item in items) if items else f"- {empty}"


def progress_note(facts: VisitFacts, rng: random.Random) -> str:
    """A plain-text progress note for an annual or follow-up visit."""
    opening = rng.choice(_OPENINGS[facts.kind])
    labs = ", ".join(facts.labs_ordered)
    plan = [f"Labs drawn today: {labs}." if labs else "No labs due today.",
            "Continue current medications." if facts.meds else "No chronic medications.",
            "Age-appropriate screening reviewed.",
            f"Return in {rng.choice(('6 months', '12 months', '3 months'))}."]
    return "\n".join([
        "PROGRESS NOTE",
        "",
        f"SUBJECTIVE: {facts.patient}, a {facts.age}-year-old {facts.sex}, {opening} "
        f"{rng.choice(_FEELINGS)}",
        "",
        "ACTIVE PROBLEMS:",
        _listing(facts.problems, "None"),
        "",
        "CURRENT MEDICATIONS:",
        _listing(facts.meds, "None"),
        "",
        "OBJECTIVE:",
        "Vitals: " + ("; ".join(facts.vitals) if facts.vitals else "not recorded"),
        rng.choice(_EXAMS),
        "",
        "ASSESSMENT AND PLAN:",
        _listing(plan, ""),
    ])


def acute_note(patient: str, age: int, sex: str, complaint: str, diagnosis: str,
               treatment: str | None, rng: random.Random) -> str:
    """A short note for a same-day visit about a minor acute problem."""
    days = rng.randint(2, 7)
    plan = f"Prescribed {treatment}." if treatment else "Supportive care; no prescription."
    return "\n".join([
        "ACUTE VISIT NOTE",
        "",
        f"CHIEF COMPLAINT: {complaint} for {days} days.",
        f"HPI: {patient}, a {age}-year-old {sex}, reports {complaint.lower()} for {days} days. "
        "No fever above 39 C, no shortness of breath.",
        "",
        f"ASSESSMENT: {diagnosis}.",
        f"PLAN: {plan} Return precautions discussed; follow up if not improving in 1 to 2 "
        "weeks.",
    ])
