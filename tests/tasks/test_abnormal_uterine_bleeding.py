"""abnormal_uterine_bleeding: heavy menstrual bleeding at 47 - transvaginal ultrasound and office
endometrial biopsy (age >= 45), iron by branch (deficient: start oral iron; replete: none), and no
estrogen-containing contraceptive (age >= 35 with 20 cigarettes a day, US MEC category 4)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    oracle_calls,
    oracle_note,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "abnormal_uterine_bleeding"
REPLETE = 3  # Hb 13.5, ferritin 75
DEFICIENT = 1  # Hb 9.0, ferritin 4

HEAD = "47F, 8 mo heavy regular menses (AUB-HMB). hCG neg, TSH 2.1, plt nl, bleeding screen neg.\n"
CORE = (
    "Plan: TVUS ordered; office endometrial biopsy ordered today (age >45 -> first-line).\n"
    "No combined pill - age >35 and smokes 20 cig/day, estrogen contraindicated. LNG-IUD or "
    "tranexamic acid after results.\n"
)


def test_canonical_values():
    vals = values(TASK)
    assert (vals["iron_status"], vals["hb"], vals["ferritin"], vals["mcv"]) == (
        "deficient",
        10.2,
        7,
        76,
    )
    assert vals["chc_rxnorm"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|238019"]
    assert vals["iron_rxnorm"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|310325"]


def test_branches():
    rep, def_ = values(TASK, REPLETE), values(TASK, DEFICIENT)
    assert (rep["iron_status"], rep["hb"], rep["ferritin"]) == ("replete", 13.5, 75)
    assert (def_["iron_status"], def_["hb"], def_["ferritin"]) == ("deficient", 9.0, 4)
    draws = [values(TASK, n) for n in range(20)]
    assert {d["iron_status"] for d in draws} == {"deficient", "replete"}
    assert all(
        d["ferritin"] < 15 and d["hb"] < 12 for d in draws if d["iron_status"] == "deficient"
    )
    assert all(
        d["ferritin"] >= 50 and d["hb"] >= 12 for d in draws if d["iron_status"] == "replete"
    )
    assert sum((d["hb"], d["ferritin"]) == (10.2, 7) for d in draws) <= 1


test_canonical_note_fails_other_branches, test_oracle_succeeds = branch_probes(
    TASK, others=[REPLETE, DEFICIENT, 0], oracle_on=[None, REPLETE, DEFICIENT]
)

CORRECT = [
    HEAD + "Hgb 10.2, ferritin 7 -> iron deficiency anemia from HMB. Start ferrous sulfate 325 mg "
    "PO every other day.\n" + CORE,
    "Dear Dr. Patel,\n\nThank you for this e-consult. Her hemoglobin of 10.2 g/dL and ferritin of "
    "7 ng/mL ten days ago show iron deficiency anemia caused by the heavy bleeding; I have started "
    "ferrous sulfate 325 mg once daily. I recommend a transvaginal ultrasound to look for a polyp, "
    "adenomyosis or a submucosal fibroid, and an endometrial biopsy now because she is older "
    "than 45; "
    "both are ordered. The old 1.6 cm fibroid does not explain this. Please do not start a "
    "combined "
    "oral contraceptive: at 47, smoking a pack a day, estrogen is contraindicated (US MEC "
    "category 4).\n",
    "| Item | Result |\n|---|---|\n| Hb | 102 g/L |\n| Ferritin | 7 µg/L |\n\n"
    "Assessment: iron-deficiency anaemia secondary to heavy menstrual bleeding.\n\n"
    "## Plan\n- Ferrous sulfate 325 mg daily - ordered\n- Pelvic ultrasound (transvaginal) - "
    "ordered\n"
    "- Endometrial biopsy - ordered (age ≥ 45)\n- Avoid estrogen-containing contraception "
    "(smoker ≥ 35 y)\n",
]
WRONG = {
    "stale_hb": (
        "anemia_iron_assessed",
        HEAD + "Hgb 12.6, ferritin 7 -> iron deficiency. Start "
        "ferrous sulfate 325 mg daily.\n" + CORE,
    ),
    "iron_deferred": (
        "anemia_iron_assessed",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency anemia. "
        "Consider oral iron later if she remains anemic.\n" + CORE,
    ),
    "iron_hedged_stop": (
        "anemia_iron_assessed",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency "
        "anemia. Start ferrous sulfate 325 mg daily. Alternatively the ferrous "
        "sulfate could be stopped; either is reasonable.\n" + CORE,
    ),
    "no_biopsy": (
        "workup_plan_documented",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency anemia. "
        "Start ferrous sulfate 325 mg daily.\nPlan: TVUS ordered. Endometrial biopsy only "
        "if medical treatment fails.\nNo combined pill - smoker over 35.\n",
    ),
    "chc_offered": (
        "no_estrogen_documented",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency anemia. "
        "Start ferrous sulfate 325 mg daily.\nPlan: TVUS ordered; endometrial biopsy "
        "ordered. A combined oral contraceptive is a reasonable option if she prefers.\n",
    ),
    "chc_if_quits": (
        "no_estrogen_documented",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency "
        "anemia. Start ferrous sulfate 325 mg daily.\nPlan: TVUS ordered; endometrial "
        "biopsy ordered. No combined pill while she smokes; if she quits, a combined "
        "pill is fine.\n",
    ),
    "chc_unanswered": (
        "no_estrogen_documented",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency "
        "anemia. Start ferrous sulfate 325 mg daily.\nPlan: TVUS ordered; "
        "endometrial biopsy ordered. LNG-IUD after the biopsy.\n",
    ),
    "chc_left_to_pcp": (
        "no_estrogen_documented",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency "
        "anemia. Start ferrous sulfate 325 mg daily.\nPlan: TVUS ordered; "
        "endometrial biopsy ordered. Combined pill: pros and cons given her "
        "smoking; I'd leave it to you and her to weigh whether to try it.\n",
    ),
    "iron_tid": (
        "anemia_iron_assessed",
        HEAD + "Hgb 10.2, ferritin 7: iron deficiency anemia. "
        "Start ferrous sulfate 325 mg three times daily.\n" + CORE,
    ),
}
REPLETE_CORRECT = [
    "Hb 13.5 g/dL and ferritin 75 ng/mL: not anemic, iron stores adequate, so no iron needed.\n"
    + CORE,
    # review finding 3: a start triggered by the recheck is monitoring, not a hedge
    "Hb 13.5 g/dL, ferritin 75 ng/mL: no iron now. If ferritin drops below 30 on the 3-month "
    "recheck, start ferrous sulfate.\n" + CORE,
    "Hb 13.5 g/dL, ferritin 75 ng/mL: not anemic. Recheck CBC and ferritin in 3 months; start oral "
    "iron if ferritin falls below 30.\n" + CORE,
    "Hb 13.5 g/dL, ferritin 75 ng/mL: no iron deficiency, no anemia; no iron needed.\n" + CORE,
]
REPLETE_WRONG = {
    "replete_iron_started": (
        REPLETE,
        "anemia_iron_assessed",
        "Hb 13.5, ferritin 75. Start ferrous sulfate 325 mg daily to build stores.\n" + CORE,
    ),
    "replete_iron_optional": (
        REPLETE,
        "anemia_iron_assessed",
        "Hb 13.5, ferritin 75. Oral iron could be considered if she prefers.\n" + CORE,
    ),
    # review finding 4: with ferritin 75 and a normal Hb she is not iron deficient
    "replete_called_deficient": (
        REPLETE,
        "anemia_iron_assessed",
        "Hb 13.5 g/dL, ferritin 75 ng/mL: "
        "she is iron deficient from the bleeding, but no supplement is "
        "needed.\n" + CORE,
    ),
    "replete_id_without_anemia": (
        REPLETE,
        "anemia_iron_assessed",
        "Hb 13.5 g/dL, ferritin 75 "
        "ng/mL: iron deficiency without anemia. No iron supplement "
        "needed now.\n" + CORE,
    ),
}

test_correct_notes_pass, test_wrong_notes_fail = note_probes(TASK, CORRECT, WRONG)
test_replete_correct_pass, test_replete_wrong_fail = note_probes(
    TASK, [(REPLETE, n) for n in REPLETE_CORRECT], REPLETE_WRONG
)


def test_oracle_note_reads_the_branch():
    assert "ferritin 7 ng/mL" in oracle_note(TASK) and "Ferrous sulfate" in oracle_note(TASK)
    assert "No iron needed" in oracle_note(TASK, REPLETE)


@pytest.mark.parametrize(
    "sentence",
    [
        "Ethinyl estradiol/levonorgestrel could be considered if the bleeding persists.",
        "A contraceptive patch or vaginal ring would be an acceptable alternative.",
        # review finding 2: brands and a non-ethinyl-estradiol estrogen
        "Start Loestrin 1/20 now.",
        "Yaz daily would be reasonable meanwhile.",
        "Natazia (estradiol valerate/dienogest) is FDA approved for HMB; start it.",
    ],
)
def test_estrogen_allowances_fail(sentence):
    assert grade_note(TASK, oracle_note(TASK) + "\n" + sentence)["no_estrogen_documented"] is False


@pytest.mark.parametrize(
    "sentence",
    [
        "I would not use a combined pill, patch or ring in a 47-year-old smoker.",
        "Estrogen-containing contraception is contraindicated (US MEC 4).",
    ],
)
def test_estrogen_turn_downs_keep_every_checkpoint(sentence):
    assert all(grade_note(TASK, oracle_note(TASK) + "\n" + sentence).values())


@pytest.mark.parametrize(
    "line",
    [
        "She needs iron: ferrous sulfate 325 mg every other day.",
        "Oral iron: FeSO4 325 mg qod.",
        "I have prescribed ferrous sulphate 200 mg once daily.",
        "Begin oral iron supplementation now.",
        pytest.param(
            "Start iron 325 mg daily.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="reader gap: a bare 'iron' is not a drug term (too generic for a "
                "task supplement), so 'start iron' states no iron decision",
            ),
        ),
    ],
)
def test_iron_start_phrasings(line):
    note = (
        "47F HMB. Hb 10.2, ferritin 7: iron deficiency anemia.\n" + line + "\n"
        "Plan: TVUS ordered; endometrial biopsy ordered (age >45). No combined pill - smoker "
        "over 35.\n"
    )
    assert all(grade_note(TASK, note).values())


def _orders(replace=None, variant=None, drop=(), extra=()):
    calls = [
        c for c in oracle_calls(TASK, variant, replace) if c["arguments"].get("code") not in drop
    ]
    return run_actions(TASK, calls + list(extra), variant)


def _sr(code, display, category="procedure"):
    return {
        "tool": "fhir_service_request_create",
        "arguments": {
            "patient": "{patient_id}",
            "code": code,
            "system": "cpt",
            "category": category,
            "display": display,
        },
    }


@pytest.mark.parametrize(
    "replace",
    [
        {"dose_value": 1, "dose_unit": "{tbl}"},  # review finding 1: "1 tablet"
        {"dose_value": None, "dose_unit": None},  # dose only in the sig
        {"frequency": 1, "period": 2, "period_unit": "day"},  # alternate days
    ],
)
def test_iron_order_forms_pass(replace):
    assert _orders(replace)["biopsy_iron_ordered"]


@pytest.mark.parametrize(
    "replace",
    [
        {"frequency": 2, "period_unit": "day"},
        {"dose_value": 650, "dose_unit": "mg"},
        {"dose_value": 2, "dose_unit": "{tbl}"},
    ],
)
def test_wrong_iron_orders_fail(replace):
    assert not _orders(replace)["biopsy_iron_ordered"]


def test_replete_branch_orders_no_iron():
    assert _orders(variant=REPLETE)["biopsy_iron_ordered"]
    iron = oracle_calls(TASK)[-1]
    assert iron["tool"] == "fhir_medication_request_create"
    iron = {"tool": iron["tool"], "arguments": {**iron["arguments"], "patient": "{patient_id}"}}
    assert not _orders(variant=REPLETE, extra=[iron])["biopsy_iron_ordered"]


def test_alternative_workup_orders():
    # review findings 5 and 6: sonohysterography and hysteroscopy with sampling
    sis = _sr("76831", "Saline infusion sonohysterography (SIS)", "imaging")
    hys = _sr("58558", "Hysteroscopy, surgical; with sampling (biopsy) of endometrium")
    assert _orders(drop=["76830"], extra=[sis])["ultrasound_ordered"]
    assert _orders(drop=["58100"], extra=[hys])["biopsy_iron_ordered"]
    assert not _orders(drop=["76830"])["ultrasound_ordered"]
    assert not _orders(drop=["58100"])["biopsy_iron_ordered"]


def test_estrogen_orders_fail_but_progestin_implant_does_not():
    def med(code, display):
        return {
            "tool": "fhir_medication_request_create",
            "arguments": {
                "patient": "{patient_id}",
                "medication_code": code,
                "medication_display": display,
                "dose_value": 1,
                "dose_unit": "{tbl}",
                "route": "oral",
                "frequency": 1,
                "period_unit": "day",
                "duration_days": 28,
            },
        }

    assert not _orders(extra=[med("238019", "levonorgestrel/ethinyl estradiol")])[
        "ultrasound_ordered"
    ]
    # review finding 9: the etonogestrel implant is progestin-only (US MEC 1 for smokers)
    assert _orders(extra=[med("1111011", "etonogestrel 68 mg implant")])["ultrasound_ordered"]
