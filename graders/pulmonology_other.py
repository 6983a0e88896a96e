"""Derived expectations of pulmonology and other-specialty tasks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

CPT = "http://www.ama-assn.org/go/cpt"
CT_CHEST = f"{CPT}|71250"
# The same study ordered by its LOINC radiology code (LOINC 24627-2 CT Chest).
CT_CHEST_CODES = [CT_CHEST, "http://loinc.org|24627-2"]
PET_CT = f"{CPT}|78815"
LDCT_SCREENING = f"{CPT}|71271"

# Where the follow-up scan is named: a chest CT (also written as a low-dose CT, the technique
# Fleischner 2017 recommends for nodule follow-up).
CT_FOLLOW_UP = ["chest_ct_followup", "ct_imaging"]
# Screening LDCT offered in place of the nodule work-up; planned for after it is fine.
NO_LDCT_INSTEAD = {"note_never": {"concept": ["ldct"], "instead_of": CT_FOLLOW_UP,
                                  "label": "no screening LDCT in place of the nodule work-up"}}


def lcs_eligible(age: int, pack_years: int, quit_years: int) -> bool:
    """USPSTF 2021: age 50-80, >= 20 pack-years, current smoker or quit within 15 years."""
    return 50 <= age <= 80 and pack_years >= 20 and quit_years <= 15


def fleischner_followup(values: dict[str, Any]) -> dict[str, Any]:
    """Fleischner 2017 recommendation for a single solid nodule in a high-risk patient, and
    the patient's lung cancer screening eligibility."""
    size = int(values["nodule_mm"])
    if size < 6:
        raise ValueError("this task covers solid nodules of 6 mm or more")
    age, packs, quit = int(values["age"]), int(values["pack_years"]), int(values["quit_years"])
    eligible = lcs_eligible(age, packs, quit)
    large = size > 8
    now = values["now"]
    derived: dict[str, Any] = {
        "long_mm": size + 1,
        "short_mm": size - 1,
        "category": ">8 mm" if large else "6-8 mm",
        "smoking_start_offset": f"-{quit + packs}y",
        "smoker_record_offset": f"-{quit + 1}y",
        "quit_offset": f"-{quit}y",
        "quit_year": now.year - quit,
        "lcs_eligible": eligible,
        "lcs_concept": ["screening_eligible" if eligible else "screening_ineligible"],
        "lcs_opposite_concept": ["screening_ineligible" if eligible else "screening_eligible"],
        "lcs_label": "eligible for lung cancer screening" if eligible
        else "not eligible for lung cancer screening",
        "lcs_sentence": (
            f"He is eligible for lung cancer screening under USPSTF 2021 (age {age}, {packs} "
            f"pack-years, quit within 15 years). The nodule CT follow-up comes first, and "
            "annual LDCT screening starts once the nodule surveillance is complete."
            if eligible else
            f"He is not eligible for lung cancer screening under USPSTF 2021. His quit date "
            f"is {quit} years back, beyond the 15-year window, despite {packs} pack-years."
        ),
    }
    if large:
        derived.update(
            order_code="78815", order_system="cpt",
            order_display="PET/CT skull base to mid-thigh",
            occurrence=(now + timedelta(days=14)).date().isoformat(),
            order_options=[
                {"ordered": {"resource_type": "ServiceRequest", "codes": [PET_CT],
                             "status": ["active"], "label": "PET/CT"}},
                {"ordered": {"resource_type": "ServiceRequest", "codes": CT_CHEST_CODES,
                             "status": ["active"], "label": "chest CT at 3 months"}},
            ],
            must_not=[{"not_ordered": {"resource_type": "ServiceRequest",
                                       "codes": [LDCT_SCREENING],
                                       "label": "LDCT screening instead of nodule work-up"}}],
            plan_grader={"all": {"of": [{"any": {"of": [
                {"note_decision": {"concept": ["pet_ct"], "action": ["order"],
                                   "label": "PET/CT"}},
                {"note_decision": {"concept": CT_FOLLOW_UP, "action": ["order"],
                                   "timing": {"value": 3, "tolerance": 0.5, "unit": "mo"},
                                   "label": "chest CT in 3 months"}},
                {"note_decision": {"concept": ["lung_biopsy"], "action": ["order"],
                                   "label": "tissue sampling"}},
            ]}}, NO_LDCT_INSTEAD]}},
            plan_label="PET/CT (or CT at 3 months or tissue sampling)",
            plan_sentence=("Order PET/CT now to characterize the nodule; depending on the "
                           "result, tissue sampling or a CT at 3 months."),
            plan_summary="PET/CT ordered",
        )
    else:
        derived.update(
            order_code="71250", order_system="cpt",
            order_display="CT chest without contrast",
            occurrence=(now + timedelta(days=270)).date().isoformat(),
            order_options=[
                {"ordered": {"resource_type": "ServiceRequest", "codes": CT_CHEST_CODES,
                             "status": ["active"], "label": "diagnostic chest CT"}},
            ],
            must_not=[
                {"not_ordered": {"resource_type": "ServiceRequest", "codes": [LDCT_SCREENING],
                                 "label": "LDCT screening instead of Fleischner CT"}},
                {"not_ordered": {"resource_type": "ServiceRequest", "codes": [PET_CT],
                                 "label": "PET/CT for a nodule of 8 mm or less"}},
            ],
            # Two CTs for a high-risk patient; no PET now; surveillance ends only after the
            # 18-24 month scan (a stop 'if stable at 12 months' ends it too early). Fleischner
            # counts from the index scan, three weeks back: 6-12 months after it is 5-12
            # months from today, and 18-24 months after it is 17-24 months from today (16.5:
            # a month the note names, 'November 2027', is read from its first day).
            plan_grader={"all": {"of": [
                {"note_decision": {"concept": CT_FOLLOW_UP, "action": ["order"],
                                   "timing": {"min": 5, "max": 12, "unit": "mo"},
                                   "label": "chest CT in 6-12 months"}},
                {"note_decision": {"concept": CT_FOLLOW_UP, "action": ["order"], "opposite": [],
                                   "timing": {"min": 16.5, "max": 24, "unit": "mo"},
                                   "timing_after": {"min": 18, "max": 24, "unit": "mo"},
                                   "committed_if": ["stability"],
                                   "label": "second chest CT at 18-24 months"}},
                {"note_never": {"concept": CT_FOLLOW_UP, "action": ["stop", "avoid"],
                                "allow_contingency": True,
                                "contingency_after": {"min": 18, "max": 36, "unit": "mo"},
                                "label": "surveillance not ended before 18-24 months"}},
                {"note_never": {"concept": ["pet_ct"], "allow_contingency": True,
                                "action": ["start", "order", "endorse", "allow", "implicit"],
                                "label": "no PET/CT for a nodule of 8 mm or less"}},
                NO_LDCT_INSTEAD]}},
            plan_label="chest CT in 6-12 months, then 18-24 months",
            plan_sentence=("Repeat a non-contrast chest CT in 6-12 months, then again at 18-24 "
                           "months when stable (order placed)."),
            plan_summary="follow-up chest CT ordered",
        )
    derived["action_checks"] = [{"any": {"of": derived.pop("order_options")}},
                                *derived.pop("must_not")]
    return derived
