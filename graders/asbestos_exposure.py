"""Derived expectations of asbestos_exposure: incidental asbestos-related pleural plaques.

Pleural plaques are a marker of past exposure, not a precursor of cancer: the work-up is
baseline pulmonary function with DLCO (ATS 2004), no serial CT, PET/CT or pleural biopsy for the
plaques themselves. What moves with the smoking history is lung cancer screening (USPSTF 2021:
age 50-80, >= 20 pack-years, smoking now or quit within 15 years; asbestos exposure is not a
criterion) and, for a current smoker, cessation treatment.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_graders.pulmonology_other import lcs_eligible

CPT = "http://www.ama-assn.org/go/cpt"
LDCT = f"{CPT}|71271"
DIAGNOSTIC_CT = [f"{CPT}|71250", f"{CPT}|71260", f"{CPT}|71270", "http://loinc.org|24627-2"]
PET_CT = f"{CPT}|78815"
PLEURAL_BIOPSY = [f"{CPT}|32400", f"{CPT}|32609", f"{CPT}|32408"]
SPIROMETRY = [f"{CPT}|94010", f"{CPT}|94060"]
DLCO = f"{CPT}|94729"
CESSATION = ["http://snomed.info/sct|225323000", f"{CPT}|99406"]
# First-line cessation drugs (USPSTF 2021 cessation statement): varenicline, NRT, bupropion SR.
CESSATION_DRUGS = ["varenicline", "nicotine", "bupropion", "Chantix", "Zyban"]
CESSATION_CONCEPTS = [
    "smoking_cessation",
    "smoking_cessation_drug",
    "varenicline",
    "nicotine",
    "bupropion",
]
# The same test as the pfts_ordered checkpoint, so that an order checkpoint made of must-nots
# (the ineligible branches) still needs the work-up ordered.
PFTS_ORDERED = {
    "all": {
        "of": [
            {
                "any": {
                    "of": [
                        {
                            "ordered": {
                                "resource_type": "ServiceRequest",
                                "codes": SPIROMETRY,
                                "status": ["active"],
                                "label": "spirometry",
                            }
                        },
                        {
                            "ordered": {
                                "resource_type": "ServiceRequest",
                                "text_contains": ["spirometry", "pulmonary function"],
                                "status": ["active"],
                                "label": "spirometry or complete PFTs",
                            }
                        },
                    ]
                }
            },
            {
                "any": {
                    "of": [
                        {
                            "ordered": {
                                "resource_type": "ServiceRequest",
                                "codes": [DLCO],
                                "status": ["active"],
                                "label": "DLCO",
                            }
                        },
                        {
                            "ordered": {
                                "resource_type": "ServiceRequest",
                                "text_contains": [
                                    "DLCO",
                                    "diffusing capacity",
                                    "diffusion capacity",
                                ],
                                "status": ["active"],
                                "label": "DLCO",
                            }
                        },
                    ]
                }
            },
        ]
    }
}

NEVER = ["start", "order", "refer", "endorse", "allow", "implicit"]
# The chart's own chest CT is named in every note as data ("CT chest 3/10: bilateral plaques",
# "I reviewed the chest CT. It shows ..."), which the reader takes for a verbless plan line: a
# plain "chest CT" counts only with a plan verb, a surveillance word ("repeat CT in 1 year",
# "serial CT") counts without one.
NEVER_CT = ["start", "order", "refer", "endorse", "allow"]


def _sr(codes: list[str], label: str, ordered: bool = True) -> dict[str, Any]:
    if ordered:
        return {
            "ordered": {
                "resource_type": "ServiceRequest",
                "codes": codes,
                "status": ["active"],
                "label": label,
            }
        }
    return {"not_ordered": {"resource_type": "ServiceRequest", "codes": codes, "label": label}}


MUST_NOT_ORDERS = [
    _sr(DIAGNOSTIC_CT, "serial diagnostic chest CT for the plaques", ordered=False),
    _sr([PET_CT], "PET/CT for benign plaques", ordered=False),
    _sr(PLEURAL_BIOPSY, "pleural or lung biopsy of the plaques", ordered=False),
]
MUST_NOT_NOTE = [
    {
        "note_never": {
            "concept": ["pet_ct"],
            "action": NEVER,
            "allow_contingency": True,
            "label": "no PET/CT for the plaques",
        }
    },
    {
        "note_never": {
            "concept": ["pleural_biopsy", "lung_biopsy"],
            "action": NEVER,
            "allow_contingency": True,
            "label": "no pleural biopsy",
        }
    },
    {
        "note_never": {
            "concept": ["chest_ct_followup"],
            "action": NEVER_CT,
            "allow_contingency": True,
            "label": "no serial diagnostic CT surveillance of the plaques",
        }
    },
    {
        "note_never": {
            "concept": ["plaque_ct_surveillance"],
            "action": NEVER,
            "allow_contingency": True,
            "label": "no surveillance CT of the plaques",
        }
    },
]


def asbestos_workup(values: dict[str, Any]) -> dict[str, Any]:
    """Screening verdict, smoking text and the branch graders of the instance."""
    smoking = values["smoking"]
    status, packs = smoking["name"], int(smoking["pack_years"])
    quit = int(smoking["quit_years"])
    age, now = int(values["age"]), values["now"]
    current = status == "current"
    eligible = status != "never" and lcs_eligible(age, packs, 0 if current else quit)
    # Quit more than 15 years ago with >= 20 pack-years: not eligible under USPSTF 2021 (the
    # question asked), but eligible under ACS 2023 and high risk under NCCN, which drop the
    # years-since-quit limit; an LDCT is then neither required nor forbidden.
    other_guidelines = (
        not eligible and status == "former" and packs >= 20 and lcs_eligible(age, packs, 0)
    )
    if status == "never":
        smoking_text = "Never smoker (confirmed; no cigars or pipe). Wife smoked until 2001."
        lcs_sentence = (
            "He is not eligible for lung cancer screening under USPSTF 2021: he has "
            "never smoked, and asbestos exposure alone is not a screening criterion."
        )
    elif current:
        smoking_text = (
            f"Current smoker, about 1 pack per day, {packs} pack-years. Cut down "
            "once with nicotine patches, relapsed within a month."
        )
        lcs_sentence = (
            f"He is eligible for lung cancer screening under USPSTF 2021 (age {age}, "
            f"{packs} pack-years, currently smoking)."
        )
    else:
        smoking_text = (
            f"Former smoker, {packs} pack-years, quit {quit} years ago ({now.year - quit})."
        )
        lcs_sentence = (
            f"He is eligible for lung cancer screening under USPSTF 2021 (age {age}, {packs} "
            f"pack-years, quit {quit} years ago, within 15 years)."
            if eligible
            else f"He is not eligible for lung cancer screening under USPSTF 2021 ({packs} "
            f"pack-years, quit {quit} years ago); asbestos exposure does not change that."
        )

    screening_orders: list[Any] = []
    plan_checks: list[Any] = [
        {
            "note_decision": {
                "concept": ["dlco"],
                "action": ["order"],
                "label": "pulmonary function tests with DLCO",
            }
        },
        *MUST_NOT_NOTE,
    ]
    if eligible:
        # Last month's chest CT, with no nodule, is this year's scan (Lung-RADS v2022: 12 months
        # after a negative scan): the first screening LDCT is due in about 9-13 months, not now.
        ldct = _sr([LDCT], "annual screening LDCT 9-13 months from now")
        ldct["ordered"]["occurrence"] = {"min": 270, "max": 400}
        screening_orders.append(ldct)
        plan_checks.append(
            {
                "note_decision": {
                    "concept": ["ldct", "lung_cancer_screening"],
                    "action": ["order", "start"],
                    "label": "annual LDCT screening",
                }
            }
        )
        lcs_plan = (
            "Enroll in annual low-dose CT lung cancer screening; the first screening "
            "LDCT is ordered for about 12 months after last month's chest CT."
        )
    elif other_guidelines:
        screening_orders.append(PFTS_ORDERED)
        lcs_plan = (
            "No low-dose CT screening under USPSTF 2021. (The ACS 2023 guideline, which "
            "has no years-since-quit limit, would offer it after shared decision-making.)"
        )
    else:
        screening_orders.append(_sr([LDCT], "screening LDCT (not eligible)", ordered=False))
        screening_orders.append(PFTS_ORDERED)
        plan_checks.append(
            {
                "note_never": {
                    "concept": ["ldct"],
                    "action": NEVER,
                    "allow_contingency": True,
                    "label": "no screening LDCT (not eligible)",
                }
            }
        )
        lcs_plan = "No low-dose CT screening."
    cessation_sentence = ""
    if current:
        screening_orders.append(
            {
                "any": {
                    "of": [
                        _sr(CESSATION, "smoking cessation counseling"),
                        {
                            "ordered": {
                                "resource_type": "ServiceRequest",
                                "text_contains": ["smoking cessation", "tobacco cessation"],
                                "status": ["active"],
                                "label": "smoking cessation referral",
                            }
                        },
                        {
                            "ordered": {
                                "resource_type": "MedicationRequest",
                                "text_contains": CESSATION_DRUGS,
                                "status": ["active"],
                                "label": "cessation pharmacotherapy",
                            }
                        },
                    ]
                }
            }
        )
        plan_checks.append(
            {
                "note_decision": {
                    "concept": CESSATION_CONCEPTS,
                    "action": ["counsel", "start", "refer", "order"],
                    "label": "smoking cessation",
                }
            }
        )
        cessation_sentence = (
            "Stop smoking: smoking and asbestos multiply lung cancer risk. "
            "I have referred him for tobacco cessation counseling.\n"
        )

    return {
        "pack_years": packs,
        "smoking_text": smoking_text,
        "smoker_record_offset": f"-{quit + 1}y",
        "lcs_eligible": eligible,
        "lcs_concept": ["screening_eligible" if eligible else "screening_ineligible"],
        "lcs_opposite_concept": ["screening_ineligible" if eligible else "screening_eligible"],
        "lcs_label": (
            "eligible for lung cancer screening"
            if eligible
            else "not eligible for lung cancer screening"
        ),
        "lcs_sentence": lcs_sentence,
        "lcs_plan": lcs_plan,
        "cessation_sentence": cessation_sentence,
        "screening_label": (
            "a screening LDCT ordered (eligible)"
            if eligible
            else "no LDCT required (not eligible under USPSTF 2021; eligible under ACS 2023)"
            if other_guidelines
            else "no screening LDCT (not eligible)"
        )
        + ("; smoking cessation ordered" if current else ""),
        "screening_orders": screening_orders + MUST_NOT_ORDERS,
        "plan_checks": plan_checks,
        "branch": "current" if current else ("eligible" if eligible else "ineligible"),
        "other_guidelines": other_guidelines,
        "ldct_date": (now + timedelta(days=335)).date().isoformat(),
        "emphysema_text": (
            "No emphysema."
            if status == "never"
            else "Mild centrilobular emphysema in the upper lobes."
        ),
    }
