"""chronic_abdominal_workup: which work-up chronic epigastric pain (dyspepsia) needs.

The scenario decides the work-up (ACG/CAG dyspepsia guideline 2017; ACG H. pylori guideline
2024; AGA iron deficiency anemia guideline 2020):
- test_and_treat: under 60 without alarm features -> non-invasive H. pylori test (stool antigen
  or urea breath test) with omeprazole held for 2 weeks first; no endoscopy now.
- age_60: 60 or older -> EGD with gastric biopsies for H. pylori.
- iron_deficiency: under 60 but a new iron deficiency anemia (ferritin under 45 ng/mL) ->
  bidirectional endoscopy (EGD and colonoscopy) with gastric biopsies.
Every branch: no H. pylori serology (positive for life after his treated infection). The
NSAID draw: naproxen for knee osteoarthritis is stopped; without it, no NSAID is started.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

LOINC = "http://loinc.org|"
CPT = "http://www.ama-assn.org/go/cpt|"
# Stool antigen (LOINC 17780-8, CPT 87338), 13C urea breath test (LOINC 29891-9, CPT 83013) and
# 14C urea breath test (CPT 78267 acquisition, 78268 analysis).
HP_TEST_CODES = [LOINC + "17780-8", LOINC + "29891-9", CPT + "83013", CPT + "87338",
                 CPT + "78267", CPT + "78268"]
EGD_CODES = [CPT + "43235", CPT + "43239"]
COLONOSCOPY_CODES = [CPT + "45378", CPT + "45380"]
# H. pylori serology by code (CPT 86677 "Antibody; Helicobacter pylori", LOINC 17859-0 H. pylori
# IgG Ab by immunoassay): a text match would also read the order's own note ("do not repeat
# serology") - the engine has no item-only text match.
SEROLOGY_CODES = [CPT + "86677", LOINC + "17859-0"]
# Oral NSAIDs and, before the test, any other PPI or vonoprazan, matched on the medication's
# display/text (MedicationRequest text_contains reads no sig or note); topical NSAIDs stay allowed.
NSAID_TEXT = ["ibuprofen", "naproxen", "diclofenac", "meloxicam", "celecoxib", "ketorolac",
              "indomethacin", "etodolac", "nabumetone", "piroxicam", "ketoprofen", "sulindac",
              "oxaprozin", "flurbiprofen", "diflunisal"]
OTHER_ACID_BLOCKER_TEXT = ["pantoprazole", "esomeprazole", "lansoprazole", "dexlansoprazole",
                           "rabeprazole", "vonoprazan"]
PLACED_OR_PLANNED = ["active", "completed", "on-hold", "draft", "unknown"]
FERRITIN_IRON_DEFICIENT = 45  # ng/mL, AGA 2020 cutoff in anemia
ENDOSCOPY_AGE = 60  # ACG/CAG 2017


def chronic_abdominal_workup(v: dict[str, Any]) -> dict[str, Any]:
    scenario = v["scenario"]
    age = scenario["age"]
    ferritin = scenario["ferritin"]
    if age >= ENDOSCOPY_AGE:
        workup = "age_60"
    elif ferritin < FERRITIN_IRON_DEFICIENT:
        workup = "iron_deficiency"
    else:
        workup = "test_and_treat"
    if workup != scenario["kind"]:
        raise ValueError(f"scenario {scenario['kind']} does not match its age and ferritin")
    serology_order = {"not_ordered": {"resource_type": "ServiceRequest",
                                      "codes": SEROLOGY_CODES, "label": "H. pylori serology"}}
    no_nsaid = {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": NSAID_TEXT,
                                "route": ["oral", "26643006"], "status": PLACED_OR_PLANNED,
                                "label": "no oral NSAID prescribed"}}
    egd_order = {"ordered": {"resource_type": "ServiceRequest", "codes": EGD_CODES,
                             "status": ["active"], "intent": ["order"], "label": "EGD"}}
    # A colonoscopy is not part of the dyspepsia work-up (his last one is not due).
    no_colonoscopy = {"not_ordered": {"resource_type": "ServiceRequest", "codes": COLONOSCOPY_CODES,
                                      "label": "colonoscopy (not due, not for dyspepsia)"}}
    if workup == "test_and_treat":
        orders = [no_colonoscopy,
            {"ordered": {"resource_type": "ServiceRequest", "codes": HP_TEST_CODES,
                         "status": ["active"], "intent": ["order"],
                         "occurrence": {"min": 14},  # after a 2-week PPI hold
                         "label": "H. pylori stool antigen or urea breath test, in >= 2 weeks"}},
            {"not_ordered": {"resource_type": "ServiceRequest", "codes": EGD_CODES,
                             "label": "EGD now"}},
            {"not_ordered": {"resource_type": "MedicationRequest",
                             "text_contains": OTHER_ACID_BLOCKER_TEXT, "status": PLACED_OR_PLANNED,
                             "label": "no other PPI or vonoprazan before the test"}},
        ]
    elif workup == "age_60":
        orders = [egd_order, no_colonoscopy]
    else:
        orders = [egd_order, {"ordered": {
            "resource_type": "ServiceRequest", "codes": COLONOSCOPY_CODES, "status": ["active"],
            "intent": ["order"], "label": "colonoscopy"}}]
    nsaid = v["nsaid"]["name"]
    # The story's age is fixed (the canonical 46); the scenario's age moves the birth date.
    born = date.fromisoformat(v["birth_date"])
    shift = age - v["age"]
    day = min(born.day, 28) if born.month == 2 else born.day
    born = born.replace(year=born.year - shift, day=day)
    return {
        "age": age,
        "birth_date": born.isoformat(),
        "workup": workup,
        "workup_orders": [*orders, serology_order, no_nsaid],
        "test_date": (v["now"] + timedelta(days=14)).date().isoformat(),
        "older_notes_from": (v["now"] - timedelta(days=4 * 365 + 60)).date().isoformat(),
        "older_notes_to": (v["now"] - timedelta(days=3 * 365 + 180)).date().isoformat(),
        "nsaid_action": ["stop"] if nsaid == "naproxen" else [],
        "nsaid_plan_text": ("Stop naproxen (NSAID dyspepsia and ulcer risk); acetaminophen for "
                            "the knee" if nsaid == "naproxen" else "No NSAID"),
        "workup_text": {
            "test_and_treat": "H. pylori stool antigen after 2 weeks off omeprazole; no EGD now",
            "age_60": "EGD with gastric biopsies (age 60 or older)",
            "iron_deficiency": "EGD and colonoscopy (iron deficiency anemia)",
        }[workup],
    }
