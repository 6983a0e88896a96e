"""ssri_intolerance_switch: the SSRI and contraindication draws, the orders the action
checkpoints accept, and the note phrasings its checkpoints must judge on each branch (bupropion
without a contraindication; mirtazapine with epilepsy)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "ssri_intolerance_switch"
CREATE = "fhir_medication_request_create"
PAROXETINE_EPILEPSY = 0
ESCITALOPRAM_EPILEPSY = 4
CITALOPRAM_NONE = 6
ESCITALOPRAM_NONE = 15     # same branch as canonical, PHQ-9 11
SERTRALINE_EPILEPSY = 18
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["ssri"]["name"] == "escitalopram" and vals["contra"] == {"name": "none"}
    assert (vals["ssri_code"], vals["ssri_taper_code"]) == ("351250", "349332")
    assert (vals["ssri_mg"], vals["ssri_taper_mg"]) == (20, 10)
    assert (vals["new_drug"], vals["avoid_drug"]) == ("bupropion", "mirtazapine")
    assert set(vals["bupropion_start_codes"]) == {RX + "993541", RX + "993518"}
    assert RX + "311725" in vals["avoid_codes"]
    assert "escitalopram" not in vals["other_serotonergic"]
    assert RX + "312941" in vals["other_serotonergic_codes"]      # sertraline
    assert RX + "349332" not in vals["other_serotonergic_codes"]  # her own SSRI
    assert vals["phq9"] == 12 and vals["phq9_start"] == 20


def test_branches_draw_their_answers():
    epi = values(TASK, PAROXETINE_EPILEPSY)
    assert epi["new_drug"] == "mirtazapine" and RX + "993541" in epi["avoid_codes"]
    assert (epi["ssri_code"], epi["ssri_taper_code"]) == ("1738495", "1738483")
    cit = values(TASK, CITALOPRAM_NONE)
    assert (cit["ssri_mg"], cit["ssri_taper_mg"], cit["new_drug"]) == (40, 20, "bupropion")
    pairs = {(values(TASK, n)["ssri"]["name"], values(TASK, n)["contra"]["name"])
             for n in range(20)}
    assert len(pairs) == 8


def _order(code: str, dose: float, per_day: int = 1, **extra) -> dict:
    return {"tool": CREATE, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": "mg", "route": "oral", "frequency": per_day, "period_unit": "day", **extra}}


TAPER = _order("349332", 10, duration_days=14)


@pytest.mark.parametrize(("orders", "new_ok", "taper_ok"), [
    ([_order("993541", 150), TAPER], True, True),                    # bupropion XL 150 mg
    ([_order("993518", 150), TAPER], True, True),                    # bupropion SR 150 mg once
    ([_order("993557", 300), TAPER], False, True),                   # XL 300 mg to start
    ([_order("993541", 150), _order("311725", 15), TAPER], False, True),  # plus mirtazapine
    ([_order("993541", 150), _order("312941", 50), TAPER], False, True),  # plus sertraline
    ([_order("993541", 150)], True, False),                          # SSRI not tapered
    ([_order("993541", 150), _order("351250", 20)], True, False),    # SSRI renewed at 20 mg
])
def test_orders_on_the_canonical_branch(orders, new_ok, taper_ok):
    verdicts = run_actions(TASK, orders)
    assert verdicts["new_antidepressant_ordered"] is new_ok
    assert verdicts["ssri_tapered"] is taper_ok


def test_orders_on_the_epilepsy_branch():
    taper = _order("1738483", 10, duration_days=14)
    assert run_actions(TASK, [_order("311725", 15), taper], PAROXETINE_EPILEPSY)[
        "new_antidepressant_ordered"]
    assert not run_actions(TASK, [_order("993541", 150), taper], PAROXETINE_EPILEPSY)[
        "new_antidepressant_ordered"]


CORRECT = [
    "MDD, partial response on escitalopram 20 mg (PHQ-9 20 -> 12). SSRI-induced sexual "
    "dysfunction (anorgasmia, low libido). Weight gain 8 kg with A1c 6.0% - avoid mirtazapine.\n"
    "Plan: start bupropion XL 150 mg qAM. Taper escitalopram: 10 mg daily for 2 weeks, then "
    "stop. RTC 3 wk with PHQ-9.",
    "Dear colleague, she has had only a partial response to escitalopram (PHQ-9 12 today, from "
    "20) and troublesome sexual side effects. Because of her weight gain and new prediabetes I "
    "would not use mirtazapine. I recommend starting bupropion XL 150 mg once daily in the "
    "morning and reducing escitalopram to 10 mg daily for two weeks before stopping it. I would "
    "see her again in 3 weeks with a repeat PHQ-9.",
    (ESCITALOPRAM_EPILEPSY,
     "MDD with partial response (PHQ-9 14) and sexual dysfunction on escitalopram. She has "
     "epilepsy, so bupropion is contraindicated.\nPlan: start mirtazapine 15 mg at bedtime. "
     "Reduce escitalopram to 10 mg daily for 2 weeks, then stop. Follow-up in 2 weeks with "
     "PHQ-9."),
    # weight gain in ordinary words (review finding 1)
    "MDD, partial response (PHQ-9 20 -> 12), sexual dysfunction. She has gained 8 kg and is "
    "prediabetic, so no mirtazapine.\nPlan: start bupropion XL 150 mg qAM; increase to 300 mg "
    "after 1-2 weeks. Reduce escitalopram to 10 mg daily for 2 weeks, then stop. Follow-up in 3 "
    "weeks with PHQ-9.",
    "MDD on escitalopram, improved but not in remission (PHQ-9 12 from 20); anorgasmia. Her weight "
    "rose from 74 to 82 kg - avoid mirtazapine.\nPlan: start bupropion XL 150 mg qAM. Reduce "
    "escitalopram to 10 mg daily for 2 weeks, then stop. Follow-up in 2 weeks with PHQ-9.",
    # a negated seizure beside an affirmed epilepsy (review finding 2)
    (ESCITALOPRAM_EPILEPSY,
     "MDD with partial response (PHQ-9 14) and sexual dysfunction on escitalopram. Focal "
     "epilepsy, no seizures for 5 years on levetiracetam; bupropion is contraindicated.\nPlan: "
     "start mirtazapine 15 mg at bedtime. Reduce escitalopram to 10 mg daily for 2 weeks, then "
     "stop. Follow-up in 2 weeks with PHQ-9."),
]

_PLAN = ("MDD, partial response (PHQ-9 12), sexual dysfunction, weight gain - avoid mirtazapine. "
         "Start bupropion XL 150 mg daily; reduce escitalopram to 10 mg daily. Follow-up in 3 "
         "weeks. ")

WRONG = {
    "another_ssri": ("switch_plan_documented",
                     "MDD, partial response (PHQ-9 12), sexual dysfunction. Weight gain, so no "
                     "mirtazapine. Switch to sertraline 50 mg daily; reduce escitalopram to 10 mg "
                     "daily. Follow-up in 3 weeks."),
    "abrupt_stop": ("switch_plan_documented",
                    "MDD, partial response (PHQ-9 12), sexual dysfunction. Weight gain, so no "
                    "mirtazapine. Start bupropion XL 150 mg daily. Stop escitalopram today. "
                    "Follow-up in 3 weeks."),
    "ssri_kept": ("switch_plan_documented",
                  "MDD, partial response (PHQ-9 12), sexual dysfunction, weight gain - avoid "
                  "mirtazapine. Start bupropion XL 150 mg daily. Continue escitalopram 20 mg "
                  "daily. Follow-up in 3 weeks."),
    "mirtazapine_offered": ("next_drug_reasoned",
                            "MDD, partial response (PHQ-9 12), sexual dysfunction, weight gain. "
                            "Start bupropion XL 150 mg daily; mirtazapine is an alternative. "
                            "Reduce escitalopram to 10 mg daily. Follow-up in 3 weeks."),
    "late_followup": ("followup_documented",
                      "MDD, partial response (PHQ-9 12), sexual dysfunction, weight gain - avoid "
                      "mirtazapine. Start bupropion XL 150 mg daily; reduce escitalopram to 10 mg "
                      "daily. Follow-up in 3 months."),
    "stale_phq9": ("intolerance_assessed",
                   "MDD, partial response (PHQ-9 16), sexual dysfunction, weight gain - avoid "
                   "mirtazapine. Start bupropion XL 150 mg daily; reduce escitalopram to 10 mg "
                   "daily. Follow-up in 3 weeks."),
    "bupropion_in_epilepsy": (ESCITALOPRAM_EPILEPSY, "next_drug_reasoned",
                              "MDD, partial response (PHQ-9 14), sexual dysfunction; epilepsy. "
                              "Start bupropion XL 150 mg daily; reduce escitalopram to 10 mg "
                              "daily. Follow-up in 3 weeks."),
    # other serotonergic antidepressants offered (review finding 3)
    "fluvoxamine_offered": ("switch_plan_documented",
                            _PLAN + "Fluvoxamine is a reasonable alternative."),
    "levomilnacipran_offered": ("switch_plan_documented",
                                _PLAN + "Levomilnacipran is a reasonable alternative."),
    "vilazodone_offered": ("switch_plan_documented", _PLAN + "Vilazodone is an alternative."),
    # bupropion titrated past the label (review finding 5)
    "bupropion_450_fast": ("switch_plan_documented",
                           _PLAN + "Increase bupropion to 450 mg daily next week."),
}

test_correct_note_passes, test_wrong_note_fails = note_probes(TASK, CORRECT, WRONG)
test_canonical_note_fails_the_other_branches, test_oracle_succeeds_on_each_branch = branch_probes(
    TASK, [PAROXETINE_EPILEPSY, CITALOPRAM_NONE, ESCITALOPRAM_NONE, SERTRALINE_EPILEPSY],
    [None, PAROXETINE_EPILEPSY, CITALOPRAM_NONE, SERTRALINE_EPILEPSY])
