"""postmenopausal_bleeding: the stripe and sampling draws, and the orders and note phrasings its
checkpoints must judge on each branch (thickened stripe, nothing sampled -> office endometrial
biopsy; thickened stripe after an insufficient office biopsy -> hysteroscopy with D&C), with the
must-nots of both (no empiric progestin, estrogen or tranexamic acid; no repeat ultrasound)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "postmenopausal_bleeding"
THICK_6 = 12  # nothing sampled, stripe 6 mm (just above the 4 mm threshold)
THICK_16 = 6  # nothing sampled, stripe 16 mm
INSUFFICIENT = 0  # office biopsy insufficient, stripe 11 mm
INSUFFICIENT_9 = 10  # office biopsy insufficient, stripe 9 mm (the canonical stripe)


def test_canonical_values():
    vals = values(TASK)
    assert (vals["scenario"], vals["et_mm"], vals["step"]) == ("thick_unsampled", 9, "biopsy")
    assert vals["step_cpt"] == "http://www.ama-assn.org/go/cpt|58100"
    assert vals["repeat_us_codes"] == [
        "http://www.ama-assn.org/go/cpt|76830",
        "http://www.ama-assn.org/go/cpt|76856",
        "http://www.ama-assn.org/go/cpt|76857",
    ]
    assert "no endometrial sampling" in vals["bleeding_text"]


def test_branches():
    ins = values(TASK, INSUFFICIENT)
    assert (ins["scenario"], ins["et_mm"], ins["step"]) == (
        "insufficient_biopsy",
        11,
        "hysteroscopy",
    )
    assert ins["step_cpt"].endswith("|58558")
    assert "insufficient for diagnosis" in ins["bleeding_text"]
    assert (values(TASK, THICK_6)["et_mm"], values(TASK, THICK_16)["et_mm"]) == (6, 16)
    assert values(TASK, INSUFFICIENT_9)["et_mm"] == 9
    draws = [(values(TASK, n)["scenario"], values(TASK, n)["et_mm"]) for n in range(20)]
    assert draws.count(("thick_unsampled", 9)) <= 2  # the canonical answer replays on few
    assert {s for s, _ in draws} == {"thick_unsampled", "insufficient_biopsy"}
    assert all(et > 4 for _, et in draws)


THICK_PLAN = (
    "Plan: office endometrial biopsy (Pipelle) - ordered. No Provera or other hormones "
    "before tissue. No repeat ultrasound."
)
HYST_PLAN = (
    "Plan: hysteroscopy with D&C - ordered; no repeat Pipelle. No Provera before tissue. "
    "The ultrasound does not need to be repeated."
)

CORRECT = [
    (
        None,
        "TVUS 5 wk ago: endometrial stripe 9 mm - thickened, above the 4 mm cutoff for PMB.\n"
        + THICK_PLAN,
    ),
    (
        None,
        """Dear Dr. Reyes,
Thank you for this consult. Your patient has postmenopausal bleeding and an endometrial thickness
of 9 mm on the transvaginal ultrasound of 5 weeks ago. In a woman with bleeding, any stripe over
4 mm is considered thickened and requires tissue sampling. I have ordered an office endometrial
biopsy. Please do not start medroxyprogesterone or any hormonal treatment until we have the
pathology, as it could mask a malignancy. The ultrasound does not need to be repeated. If the
biopsy is nondiagnostic or the bleeding persists, hysteroscopy with D&C would be the next step.""",
    ),
    (
        None,
        """## Assessment
| Item | Finding |
|---|---|
| Endometrial thickness (TVUS, 5 wk ago) | 9 mm |
| Interpretation | Thickened (> 4 mm) |

## Plan
- [x] Endometrial biopsy ordered
- [ ] No progestin, estrogen or tranexamic acid until the pathology is back
- [ ] No repeat TVUS""",
    ),
    (
        None,
        "Assessment: PMB with thickened endometrium (ET 9 mm). The old 3 mm stripe from 5 years "
        "ago is outdated.\nRecommendations:\n1. Endometrial biopsy in clinic.\n2. Avoid empiric "
        "Provera.\n3. Repeat imaging is not needed.",
    ),
    (THICK_6, "She has a thickened endometrium of 6 mm. " + THICK_PLAN),
    (THICK_16, "Endometrial stripe 1.6 cm, thickened.\n" + THICK_PLAN),
    # hysteroscopy with directed sampling first is an accepted first step (ACOG CO 734)
    (
        THICK_16,
        "Endometrial stripe 16 mm, thickened. Plan: hysteroscopy with directed biopsy and "
        "D&C - ordered. No Provera before tissue. No repeat ultrasound.",
    ),
    # threshold comparisons instead of the word 'thickened'
    (None, "Assessment: EMS 9 mm (>4 mm) - abnormal, needs tissue.\n" + THICK_PLAN),
    (
        None,
        "Assessment: The endometrial stripe is 9 mm, greater than 4 mm, so endometrial "
        "sampling is required. An endometrial thickness of <=4 mm has a >99% negative predictive "
        "value (ACOG Committee Opinion 734).\n" + THICK_PLAN,
    ),
    # a progestin named only for after a benign tissue result
    (
        None,
        "Endometrial stripe 9 mm, thickened. Plan: office endometrial biopsy - ordered. Provera "
        "is not indicated now; if the biopsy is benign and bleeding recurs, a progestin could be "
        "considered then. No repeat ultrasound.",
    ),
    (
        INSUFFICIENT,
        "TVUS: endometrial stripe 11 mm, thickened. An endometrial biopsy was attempted "
        "3 weeks ago but was insufficient, and the bleeding recurred.\n" + HYST_PLAN,
    ),
    (
        INSUFFICIENT,
        "TVUS 5 weeks ago: endometrial stripe 11 mm, thickened. Office biopsy 3 weeks "
        "ago was insufficient for diagnosis and the bleeding recurred.\n" + HYST_PLAN,
    ),
    (
        INSUFFICIENT,
        "Thickened endometrium (11 mm). The EMB was nondiagnostic (scant tissue), so I "
        "recommend hysteroscopy with dilation and curettage rather than a repeat endometrial "
        "biopsy. "
        "Hormonal therapy should not be started before a tissue diagnosis; a repeat pelvic "
        "ultrasound is not necessary.",
    ),
    (
        INSUFFICIENT_9,
        """Recs:
- ET 9 mm on TVUS -> thickened
- Pipelle 3 wk ago insufficient, ongoing bleeding -> hysteroscopy + D&C (ordered)
- No progestins, no estrogen, no TXA before pathology
- No need to repeat the ultrasound""",
    ),
]

WRONG = {
    "stale_thin_stripe": (
        None,
        "endometrium_assessed",
        "TVUS: endometrial stripe 3 mm, thin. " + THICK_PLAN,
    ),
    "called_atrophic": (
        None,
        "endometrium_assessed",
        "Endometrial stripe 9 mm, likely atrophic endometrium. " + THICK_PLAN,
    ),
    "other_variant_stripe": (
        None,
        "endometrium_assessed",
        "Endometrial stripe 11 mm, thickened. " + THICK_PLAN,
    ),
    "observe_first": (
        None,
        "sampling_plan_documented",
        "Endometrial stripe 9 mm, thickened. Plan: observe for now; endometrial "
        "biopsy only if bleeding recurs. No Provera. No repeat ultrasound.",
    ),
    "mpa_started": (
        None,
        "no_empiric_hormones_documented",
        "Endometrial stripe 9 mm, thickened. Plan: office endometrial biopsy ordered. "
        "Start medroxyprogesterone 10 mg daily for 10 days to settle the bleeding. "
        "No repeat ultrasound.",
    ),
    "provera_offered": (
        None,
        "no_empiric_hormones_documented",
        "Endometrial stripe 9 mm, thickened. Plan: office endometrial biopsy "
        "ordered. Provera is reasonable in the meantime if she prefers. No repeat "
        "ultrasound.",
    ),
    "txa_started": (
        None,
        "no_empiric_hormones_documented",
        "Endometrial stripe 9 mm, thickened. Plan: office endometrial biopsy ordered. "
        "Tranexamic acid 1300 mg three times daily while bleeding. No repeat "
        "ultrasound.",
    ),
    "repeat_tvus_first": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. Plan: repeat transvaginal "
        "ultrasound in 6 weeks, then office endometrial biopsy. No Provera.",
    ),
    "repeat_tvus_first_should": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. We should repeat the "
        "ultrasound in 6 weeks. Endometrial biopsy ordered. No Provera.",
    ),
    "called_normal": (
        None,
        "endometrium_assessed",
        "Endometrial stripe 9 mm, within normal limits for a postmenopausal woman. " + THICK_PLAN,
    ),
    "tvus_before_biopsy": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. Plan: obtain a transvaginal "
        "ultrasound before the biopsy to confirm the measurement, then "
        "endometrial biopsy. No Provera.",
    ),
    "pelvic_imaging_followup": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nRepeat pelvic imaging in 3 months to follow the stripe.",
    ),
    "recheck_thickness": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nRecheck the endometrial thickness by ultrasound in 3 months.",
    ),
    "get_pelvic_us": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nGet a pelvic ultrasound in 3 months to reassess the lining.",
    ),
    "ordered_tvus": (
        None,
        "no_repeat_ultrasound_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nI have also ordered a transvaginal ultrasound to remeasure the stripe.",
    ),
    "provera_before_biopsy_trigger": (
        None,
        "no_empiric_hormones_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nIf heavy bleeding occurs before the endometrial "
        "biopsy, start Provera 10 mg daily.",
    ),
    "conjugated_estrogen_cream": (
        None,
        "no_empiric_hormones_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nPlease start conjugated estrogen vaginal cream half a gram "
        "nightly while she waits for the biopsy.",
    ),
    "oestrogen_started": (
        None,
        "no_empiric_hormones_documented",
        "Endometrial stripe 9 mm, thickened. "
        + THICK_PLAN
        + "\nStart vaginal oestrogen cream nightly while we wait.",
    ),
    "pipelle_again_alternative": (
        INSUFFICIENT,
        "sampling_plan_documented",
        "Endometrial stripe 11 mm, thickened. Plan: hysteroscopy with "
        "D&C ordered; alternatively, try the Pipelle again in the office "
        "first. No Provera. No repeat ultrasound.",
    ),
    "blind_dc_only": (
        INSUFFICIENT,
        "sampling_plan_documented",
        "Endometrial stripe 11 mm, thickened. Plan: D&C - ordered. No Provera. No "
        "repeat ultrasound.",
    ),
    "repeat_pipelle": (
        INSUFFICIENT,
        "sampling_plan_documented",
        "Endometrial stripe 11 mm, thickened. Plan: repeat office endometrial "
        "biopsy (Pipelle). No Provera. No repeat ultrasound.",
    ),
    "biopsy_again": (
        INSUFFICIENT,
        "sampling_plan_documented",
        "Endometrial stripe 11 mm, thickened. Plan: endometrial biopsy. No Provera. "
        "No repeat ultrasound.",
    ),
}

test_correct_note_passes, test_wrong_note_fails = note_probes(TASK, CORRECT, WRONG)
test_canonical_note_fails_the_other_branches, test_oracle_succeeds_on_each_branch = branch_probes(
    TASK, others=[INSUFFICIENT, THICK_6, INSUFFICIENT_9], oracle_on=[None, INSUFFICIENT, THICK_16]
)


# Must-nots (the project's tests/test_must_nots.py lists the suite's; this draft keeps its own
# here until it moves): an allowance appended to the reference note fails a note checkpoint; a
# turn-down does not.
ALLOWANCES = [
    (
        None,
        "empiric hormones",
        "Provera 10 mg daily for 10 days is a reasonable option in the meantime if she prefers.",
    ),
    (
        None,
        "empiric hormones",
        "Vaginal estrogen cream may be used as needed for the atrophy while we wait.",
    ),
    (
        None,
        "empiric hormones",
        "Tranexamic acid could be used if the bleeding is heavy before the biopsy.",
    ),
    (None, "repeat ultrasound", "A repeat TVUS in 6 weeks is also reasonable if she prefers."),
    (None, "repeat ultrasound", "Alternatively, repeat the ultrasound before the biopsy."),
    (
        INSUFFICIENT,
        "repeat blind biopsy",
        "A repeat Pipelle is an acceptable alternative if she prefers to avoid the operating room.",
    ),
    (
        INSUFFICIENT,
        "repeat blind biopsy",
        "Another endometrial biopsy in the office is an option before hysteroscopy.",
    ),
]
# Reader gap: "could also try/do <test>" is not read as an offer (no plan verb).
GAP_ALLOWANCE = (INSUFFICIENT, "We could also try another endometrial biopsy in the office first.")
TURN_DOWNS = [
    (None, "I would not give Provera or any hormone before we have tissue."),
    (None, "There is no need to repeat the ultrasound; the stripe was well seen."),
    (INSUFFICIENT, "A repeat blind biopsy is not advised; it already failed once."),
]


def test_must_not_allowances_fail():
    from tests.tasks.helpers import grade_note, oracle_note

    for variant, must_not, sentence in ALLOWANCES:
        note = oracle_note(TASK, variant) + "\n" + sentence
        assert not all(grade_note(TASK, note, variant).values()), (must_not, sentence)


@pytest.mark.xfail(strict=True, reason="'could also try X' carries no plan verb (reader gap)")
def test_must_not_allowance_known_gap():
    from tests.tasks.helpers import grade_note, oracle_note

    variant, sentence = GAP_ALLOWANCE
    note = oracle_note(TASK, variant) + "\n" + sentence
    assert not all(grade_note(TASK, note, variant).values())


def test_must_not_turn_downs_pass():
    from tests.tasks.helpers import grade_note, oracle_note

    for variant, sentence in TURN_DOWNS:
        verdicts = grade_note(TASK, oracle_note(TASK, variant) + "\n" + sentence, variant)
        assert all(verdicts.values()), (sentence, verdicts)


BIOPSY = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "58100",
        "system": "cpt",
        "category": "procedure",
        "display": "Endometrial biopsy",
    },
}
HYSTEROSCOPY = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "58558",
        "system": "cpt",
        "category": "procedure",
        "display": "Hysteroscopy with D&C",
    },
}
REPEAT_TVUS = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "76830",
        "system": "cpt",
        "category": "imaging",
        "display": "Ultrasound, transvaginal",
    },
}
TXA = {
    "tool": "fhir_medication_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "medication_code": "883826",
        "medication_display": "tranexamic acid 650 mg tablet",
        "dose_value": 1300,
        "dose_unit": "mg",
        "route": "oral",
        "frequency": 3,
        "period_unit": "day",
        "duration_days": 5,
    },
}
DMPA = {
    "tool": "fhir_medication_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "medication_code": "1000126",
        "medication_display": "medroxyprogesterone acetate 150 mg/mL injection",
        "dose_value": 150,
        "dose_unit": "mg",
        "route": "intramuscular",
        "frequency": 1,
        "period": 3,
        "period_unit": "month",
    },
}


LIMITED_PELVIC_US = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "76857",
        "system": "cpt",
        "category": "imaging",
        "display": "Ultrasound, pelvic, limited or follow-up",
    },
}
LOINC_TVUS = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "30704-1",
        "system": "loinc",
        "category": "imaging",
        "display": "US Pelvis transvaginal",
    },
}
SIS = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "76831",
        "system": "cpt",
        "category": "imaging",
        "display": "Saline infusion sonohysterography",
    },
}
PIPELLE_OTHER_CODE = {
    "tool": "fhir_service_request_create",
    "arguments": {
        "patient": "{patient_id}",
        "code": "58110",
        "system": "cpt",
        "category": "procedure",
        "display": "Repeat endometrial biopsy (Pipelle)",
    },
}
BIOPSY_NOTED = {
    "tool": "fhir_service_request_create",
    "arguments": {
        **BIOPSY["arguments"],
        "note": "No repeat ultrasound needed; no hormones before the result.",
    },
}


def test_orders_thick_branch():
    from tests.tasks.helpers_endocrinology import run_actions

    assert run_actions(TASK, [BIOPSY])["sampling_ordered"]
    assert run_actions(TASK, [BIOPSY_NOTED])["sampling_ordered"]
    assert run_actions(TASK, [HYSTEROSCOPY])["sampling_ordered"]  # CO 734: office hysteroscopy
    assert run_actions(TASK, [BIOPSY, SIS])[
        "sampling_ordered"
    ]  # sonohysterography is not a repeat US
    for bad in (REPEAT_TVUS, LIMITED_PELVIC_US, LOINC_TVUS, TXA, DMPA, BIOPSY):
        assert not run_actions(TASK, [BIOPSY, bad])["sampling_ordered"], bad


def test_orders_insufficient_branch():
    from tests.tasks.helpers_endocrinology import run_actions

    v = INSUFFICIENT
    assert run_actions(TASK, [HYSTEROSCOPY], v)["sampling_ordered"]
    assert not run_actions(TASK, [BIOPSY], v)["sampling_ordered"]
    assert not run_actions(TASK, [HYSTEROSCOPY, BIOPSY], v)["sampling_ordered"]
    assert not run_actions(TASK, [HYSTEROSCOPY, REPEAT_TVUS], v)["sampling_ordered"]
    assert not run_actions(TASK, [HYSTEROSCOPY, PIPELLE_OTHER_CODE], v)["sampling_ordered"]
    assert not run_actions(TASK, [HYSTEROSCOPY, LOINC_TVUS], v)["sampling_ordered"]
