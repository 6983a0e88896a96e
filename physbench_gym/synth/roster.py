"""The clinic and its practitioners: a fixed roster with stable ids shared by every chart.

Specialists are ``prac-<specialty>`` for the 21 specialties; primary care physicians are
``prac-pcp-01`` .. ``prac-pcp-06``; the clinic Organization is ``org-clinic``.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth.names import NPI_SYSTEM, npi
from physbench_gym.synth.story import StoryError
from physbench_gym.synth.terminology import SPECIALTIES

ORGANIZATION_ID = "org-clinic"
_SPECIALIST_NAMES = (
    ("Helen", "Marsh"), ("Arjun", "Iyer"), ("Samuel", "Okoro"), ("Lena", "Fischer"),
    ("Victor", "Almeida"), ("Grace", "Holloway"), ("Tomas", "Reyes"), ("Naomi", "Brandt"),
    ("Irene", "Castellano"), ("Kwame", "Mensah"), ("Oliver", "Strand"), ("Miriam", "Cohen"),
    ("Daniel", "Arrington"), ("Rosa", "Villanueva"), ("Henry", "Lindqvist"), ("Yuki", "Tanaka"),
    ("Claire", "Dubois"), ("Amara", "Eze"), ("Felix", "Hartmann"), ("Edith", "Sorensen"),
    ("Paul", "Whitaker"),
)
PCP_NAMES = (
    ("Rachel", "Kim"), ("Marcus", "Bell"), ("Sofia", "Navarro"), ("David", "Osei"),
    ("Ellen", "Park"), ("Thomas", "Greer"),
)
PCP_IDS = tuple(f"prac-pcp-{i:02d}" for i in range(1, len(PCP_NAMES) + 1))
_MD = {"system": "http://terminology.hl7.org/CodeSystem/v2-0360", "code": "MD",
       "display": "Doctor of Medicine"}


def specialist_id(specialty: str) -> str:
    """The practitioner id of a specialty's consultant, e.g. ``prac-endocrinology``."""
    if specialty not in SPECIALTIES:
        raise KeyError(f"unknown specialty {specialty!r}; expected one of {SPECIALTIES}")
    return "prac-" + specialty.replace("_", "-")


def _title(specialty: str) -> str:
    return specialty.replace("_", " ").title().replace("Allergy Immunology", "Allergy and "
                                                       "Immunology")


def _practitioner(pid: str, given: str, family: str, serial: int, field: str) -> dict[str, Any]:
    return {
        "resourceType": "Practitioner", "id": pid, "active": True,
        "identifier": [{"system": NPI_SYSTEM, "value": npi(serial)}],
        "name": [{"use": "official", "family": family, "given": [given], "prefix": ["Dr."],
                  "suffix": ["MD"], "text": f"{given} {family}, MD"}],
        "telecom": [{"system": "phone", "value": f"(650) 555-01{serial % 100:02d}",
                     "use": "work"}],
        "qualification": [{"code": {"coding": [_MD], "text": "MD"}},
                          {"code": {"text": f"Board certified in {field}"}}],
    }


def organization() -> dict[str, Any]:
    """The clinic that serves every encounter."""
    return {
        "resourceType": "Organization", "id": ORGANIZATION_ID, "active": True,
        "identifier": [{"system": NPI_SYSTEM, "value": npi(999)}],
        "type": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/organization-type",
                              "code": "prov", "display": "Healthcare Provider"}]}],
        "name": "Bayview Health Clinic",
        "telecom": [{"system": "phone", "value": "(650) 555-0100", "use": "work"}],
        "address": [{"line": ["1200 Harbor Blvd"], "city": "Redwood City", "state": "CA",
                     "postalCode": "94063", "country": "US"}],
    }


def roster_resources() -> list[dict[str, Any]]:
    """The Organization and every Practitioner, in a fixed order."""
    resources = [organization()]
    specialists = zip(SPECIALTIES, _SPECIALIST_NAMES, strict=True)
    for serial, (specialty, (given, family)) in enumerate(specialists):
        resources.append(_practitioner(specialist_id(specialty), given, family, serial + 1,
                                       _title(specialty)))
    for serial, (pid, (given, family)) in enumerate(zip(PCP_IDS, PCP_NAMES, strict=True)):
        resources.append(_practitioner(pid, given, family, serial + 101, "Internal Medicine"))
    return resources


def practitioner_for(author: str | None, pcp: str) -> str:
    """Resolve a story's author field (practitioner id, specialty, 'pcp' or None) to an id."""
    if author is None or author == "pcp":
        return pcp
    if author.startswith("prac-"):
        return author
    try:
        return specialist_id(author.replace("-", "_").replace(" ", "_").lower())
    except KeyError:
        raise StoryError(f"unknown author {author!r}: use 'pcp', a practitioner id "
                         f"('prac-...') or one of the specialties {SPECIALTIES}") from None
