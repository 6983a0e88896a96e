"""Background patients: plausible demographics and light charts of common chronic disease.

Each background patient is a generated :class:`Story` run through the same chart generator as a
task patient, so every invariant (references, dates, codes) holds for them too.
"""

from __future__ import annotations

import functools
import random
from datetime import date, datetime, timedelta, timezone
from typing import Any

from physbench_gym.synth import terminology as term
from physbench_gym.synth.minor import find_drug, unit_dose
from physbench_gym.synth.names import background_mrn, family_name, given_names
from physbench_gym.synth.roster import PCP_IDS
from physbench_gym.synth.story import Story

# (SNOMED candidates, prevalence, minimum age, product query, frequency, dose override, lab)
CHRONIC: tuple[tuple[Any, ...], ...] = (
    (("38341003", "59621000"), 0.30, 35, "lisinopril 10", "daily", None, None),
    (("55822004", "13644009"), 0.25, 35, "atorvastatin 20", "daily", None, None),
    (("44054006",), 0.12, 35, "metformin 500", "BID", None, ("4548-4", 6.4, 8.6)),
    (("40930008",), 0.07, 25, "levothyroxine 0.05", "daily", None, ("3016-3", 0.9, 4.6)),
    (("235595009",), 0.12, 25, "omeprazole 20", "daily", None, None),
    (("195967001",), 0.08, 18, "albuterol", "q6h", "2 {puff}", None),
    (("35489007", "370143000"), 0.10, 18, "sertraline 50", "daily", None, None),
    (("239873007", "396275006"), 0.10, 55, "acetaminophen 500", "BID", "1000 mg", None),
    (("433144002", "709044004"), 0.05, 60, None, None, None, ("2160-0", 1.4, 2.1)),
    (("49436004",), 0.04, 65, "apixaban 5", "BID", None, None),
    (("13645005",), 0.04, 50, "tiotropium", "daily", "2 {puff}", None),
)
DEFAULT_NOW = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc)


@functools.cache
def _first_condition(candidates: tuple[str, ...]) -> str | None:
    for code in candidates:
        try:
            term.condition(code)
            return code
        except KeyError:
            continue
    return None


def _product(query: str) -> tuple[str, str] | None:
    route = "inhalation" if query in ("albuterol", "tiotropium") else "oral"
    drug = find_drug(query, route)
    if drug is None:
        return None
    dose = unit_dose(drug)
    return drug.code, f"{dose.value:g} {dose.unit}"


def _age(rng: random.Random) -> int:
    return min(int(rng.triangular(18, 92, 58)), 95)


def _birth(rng: random.Random, now: datetime, age: int) -> date:
    return (now - timedelta(days=365.25 * age + rng.randrange(365))).date()


def _chronic(rng: random.Random, age: int, female: bool, now: datetime,
             history: int) -> dict[str, list[dict[str, Any]]]:
    parts: dict[str, list[dict[str, Any]]] = {"conditions": [], "medications": [], "labs": []}
    for candidates, prevalence, min_age, query, freq, dose, lab in CHRONIC:
        code = _first_condition(candidates)
        boost = 1.6 if (code == "40930008" and female) else 1.0
        if code is None or age < min_age or rng.random() >= prevalence * boost:
            continue
        years = rng.randint(1, max(1, min(12, age - min_age + 1)))
        onset = now - timedelta(days=365 * years + rng.randrange(200))
        parts["conditions"].append({"code": code, "onset": onset.date().isoformat()})
        product = _product(query) if query else None
        if product is not None:
            start = onset + timedelta(days=rng.randint(0, 60))
            parts["medications"].append({
                "code": product[0], "start": start.date().isoformat(),
                "dose": dose or product[1], "frequency": freq, "reason": code,
                "as_needed": query == "albuterol"})
        if lab is not None:
            parts["labs"].append(_lab_points(rng, lab, now, min(history, years)))
    return parts


def _lab_points(rng: random.Random, lab: tuple[str, float, float], now: datetime,
                years: int) -> dict[str, Any]:
    code, low, high = lab
    places = 2 if high < 5 else 1
    points = []
    for index in range(max(1, years) * 2):
        day = now - timedelta(days=182 * index + rng.randint(20, 60))
        points.append({"date": day.date().isoformat(), "value": round(rng.uniform(low, high),
                                                                        places)})
    return {"code": code, "points": sorted(points, key=lambda p: p["date"])}


def background_story(index: int, seed: int, now: datetime,
                     like: Story | None = None, share: str = "family") -> Story:
    """The story of background patient ``index``; ``like`` makes it share a name or birth date."""
    rng = random.Random(f"background:{seed}:{index}")
    gender = rng.choice(("female", "male"))
    age = _age(rng)
    birth = _birth(rng, now, age)
    family = family_name(rng)
    if like is not None and share == "family":
        family = like.patient.family
    if like is not None and share == "birth_date":
        birth = like.birth_date()
        age = now.year - birth.year
    history = rng.randint(1, 3)
    chronic = _chronic(rng, age, gender == "female", now, history)
    return Story.model_validate({
        "now": now, "history_years": history, "pcp": PCP_IDS[rng.randrange(len(PCP_IDS))],
        "patient": {"id": f"bg-{index:05d}", "mrn": background_mrn(index, seed),
                    "given": given_names(rng, gender), "family": family, "gender": gender,
                    "birth_date": birth.isoformat()},
        **chronic,
    })
