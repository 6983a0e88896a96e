"""Task instances: a spec rendered with canonical values or a seeded clinical variant.

A variant draws every variable from its declared range, gives the patient a new synthetic
identity (id, MRN, name, birth date at the same age), moves "now" by up to a year, and then
recomputes derived expectations, so story, instruction, checkpoints and oracle always agree.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from physbench_gym.errors import TaskSpecError
from physbench_gym.synth import names
from physbench_gym.synth.story import Story, resolve_date
from physbench_gym.tasks.graders import load_function
from physbench_gym.tasks.spec import Checkpoint, Oracle, TaskSpec, Variable
from physbench_gym.tasks.templating import render

CANONICAL = "canonical"
MAX_NOW_SHIFT_DAYS = 365


@dataclass(frozen=True)
class TaskInstance:
    """One concrete task: the spec plus the values of a variant, everything rendered."""

    spec: TaskSpec
    variant_seed: int | None
    values: Mapping[str, Any]
    story: Story
    instruction: str
    checkpoints: tuple[Checkpoint, ...]
    oracle: Oracle

    @property
    def variant(self) -> str:
        return variant_name(self.variant_seed)

    @property
    def now(self) -> datetime:
        return self.story.now

    @property
    def patient_id(self) -> str:
        return self.story.patient.id

    @property
    def note_path(self) -> str:
        return self.spec.deliverables[0].path


def variant_name(variant_seed: int | None) -> str:
    """'canonical' for the benchmark instance, 'seed-<n>' for a seeded variant."""
    return CANONICAL if variant_seed is None else f"seed-{variant_seed}"


def instantiate(spec: TaskSpec, variant_seed: int | None = None) -> TaskInstance:
    """Render ``spec`` for the canonical instance (None) or the variant of ``variant_seed``."""
    values = _values(spec, variant_seed)
    where = f"{spec.id}[{variant_name(variant_seed)}]"
    story_data = render(spec.story, values, f"{where}.story")
    story_data = {**story_data, "now": values["now"],
                  "pcp": story_data.get("pcp", spec.referring_id)}
    story_data["patient"] = {**story_data["patient"], **_identity_fields(values)}
    try:
        story = Story.model_validate(story_data)
    except ValueError as exc:
        raise TaskSpecError(f"{where}.story: {exc}") from None
    checkpoints = [
        Checkpoint.model_validate(render(c.model_dump(), values, f"{where}.checkpoints.{c.id}"))
        for c in spec.checkpoints
    ]
    oracle = Oracle.model_validate(render(spec.oracle.model_dump(), values, f"{where}.oracle"))
    return TaskInstance(
        spec=spec,
        variant_seed=variant_seed,
        values=values,
        story=story,
        instruction=render(spec.instruction, values, f"{where}.instruction"),
        checkpoints=tuple(checkpoints),
        oracle=oracle,
    )


def _values(spec: TaskSpec, variant_seed: int | None) -> dict[str, Any]:
    rng = random.Random(f"{spec.id}:{variant_seed}")
    drawn = {name: (var.canonical if variant_seed is None else draw(var, rng))
             for name, var in spec.variables.items()}
    now = spec.now if spec.now.tzinfo else spec.now.replace(tzinfo=timezone.utc)
    if variant_seed is not None:
        now = now + timedelta(days=rng.randint(-MAX_NOW_SHIFT_DAYS, MAX_NOW_SHIFT_DAYS))
    values: dict[str, Any] = {**drawn, **_identity(spec, variant_seed, now, rng)}
    values.update(now=now, now_iso=now.isoformat().replace("+00:00", "Z"),
                  today=now.date().isoformat(), practitioner_id=spec.practitioner_id,
                  referring_id=spec.referring_id, variant=variant_name(variant_seed))
    if spec.derive:
        derived = load_function(spec.derive, f"{spec.id}.derive")(dict(values))
        values.update(derived)
    return values


def draw(var: Variable, rng: random.Random) -> Any:
    """Draw one value of a variable (its canonical value if it declares no distribution)."""
    if var.choice is not None and var.weights is not None:
        return rng.choices(var.choice, weights=var.weights)[0]
    if var.choice is not None:
        return rng.choice(var.choice)
    if var.integer is not None:
        return rng.randint(*var.integer)
    if var.uniform is not None:
        value = rng.uniform(*var.uniform)
        if var.round is None:
            return value
        return int(round(value)) if var.round == 0 else round(value, var.round)
    return var.canonical


def _identity(spec: TaskSpec, variant_seed: int | None, now: datetime,
              rng: random.Random) -> dict[str, Any]:
    patient = spec.story.get("patient", {})
    gender = patient.get("gender", "unknown")
    age = _age(patient, spec.now)
    if variant_seed is None:
        given = patient.get("given")
        given_list = given.split() if isinstance(given, str) else list(given or [])
        patient_id, family = patient.get("id"), patient.get("family")
        birth = _birth_date_text(patient.get("birth_date"), spec.now) or (
            now.date() - timedelta(days=365 * age + 120)).isoformat()
    else:
        patient_id = f"{patient.get('id')}-v{variant_seed}"
        given_list, family = names.given_names(rng, gender), names.family_name(rng)
        birth = (now.date() - timedelta(days=365 * age + rng.randint(30, 330))).isoformat()
        if _whole_years(birth, now) != age:
            birth = (now.date() - timedelta(days=365 * age + 120)).isoformat()
    mrn = patient.get("mrn") if variant_seed is None and patient.get("mrn") else names.mrn_for_id(
        patient_id)
    return {"patient_id": patient_id, "mrn": mrn, "given": " ".join(given_list),
            "family": family, "patient_name": f"{' '.join(given_list)} {family}",
            "birth_date": birth, "age": age, "gender": gender}


def _identity_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": values["patient_id"], "mrn": values["mrn"], "given": values["given"],
            "family": values["family"], "birth_date": values["birth_date"], "age": None}


def _age(patient: Mapping[str, Any], now: datetime) -> int:
    if patient.get("age") is not None:
        return int(patient["age"])
    birth = patient.get("birth_date")
    if birth is None:
        raise TaskSpecError("story.patient needs age or birth_date")
    return _whole_years(_birth_date_text(birth, now), now)


def _birth_date_text(birth: Any, now: datetime) -> str:
    if birth is None:
        return ""
    return resolve_date(birth, now).date().isoformat()


def _whole_years(birth_iso: str, now: datetime) -> int:
    born = datetime.fromisoformat(birth_iso).date()
    today = now.date()
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))
