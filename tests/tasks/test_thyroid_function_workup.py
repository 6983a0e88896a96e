"""thyroid_function_workup: subclinical hypothyroidism - treat (pregnancy plans, TSH > 10) or
observe.

Variant 1 is the observe scenario (TSH 6.6, TPO negative, IUD) and variant 0 the TSH > 10
scenario (TSH 14.7, TPO positive, IUD); the canonical instance is the preconception scenario.
"""

from __future__ import annotations

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "thyroid_function_workup"
OBSERVE, HIGH = 1, 0


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "preconception"
    assert (vals["tsh"], vals["tsh_initial"], vals["tpo"]) == (6.8, 6.0, 315)
    assert vals["tpo_flag"] == "positive" and vals["max_dose"] == 75
    assert vals["lt4_50_rxnorm"] == "966221"


def test_branch_values():
    observe, high = values(TASK, OBSERVE), values(TASK, HIGH)
    assert observe["scenario"]["name"] == "observe" and observe["tpo_flag"] == "negative"
    assert observe["tsh"] < 10 and observe["max_dose"] == 0
    assert high["scenario"]["name"] == "treat_high" and high["tsh"] > 10
    # 1.6 mcg/kg rounded to 25 mcg, at least 100 mcg (73 kg -> 125 mcg)
    assert (high["weight_kg"], high["max_dose"]) == (73, 125)


def test_oracle_notes_pass_every_branch():
    for variant in (None, OBSERVE, HIGH):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


CORRECT = [
    """33F, TTC. TSH 6.0 -> 6.8 mIU/L, FT4 1.04 nl, TPO Ab 315 (pos). Dx: subclinical
    hypothyroidism, Hashimoto. Plan: start LT4 50 mcg PO daily. Goal TSH <2.5 preconception.
    Recheck TSH/FT4 in 6 wks. If pregnant, +2 tabs/wk and call. No thyroid US needed.""",
    """Her repeat TSH is 6.8 mIU/L with a normal free T4 of 1.04 ng/dL, and her TPO antibodies
    are positive at 315 IU/mL, so she has subclinical hypothyroidism due to Hashimoto's
    thyroiditis. Because she is trying to conceive, I recommend starting levothyroxine 50 mcg
    once daily now, aiming for a TSH below 2.5 mIU/L before conception. Please repeat TSH in 6
    weeks. She does not need a thyroid ultrasound because her exam is normal.""",
    """| Test | Result |
|---|---|
| TSH (repeat) | 6.8 mIU/L ↑ |
| Anti-TPO | 315 IU/mL — positive |

Subclinical hypothyroidism, autoimmune, actively trying to conceive.
- Levothyroxine 50 µg PO once daily
- Target TSH < 2.5 mIU/L before conception
- TSH + FT4 in 6–8 weeks
- Thyroid ultrasound not indicated""",
    """Subclinical hypothyroidism (TSH 6.8 mIU/L), thyroid peroxidase antibodies are elevated
    at 315 IU/mL. Trying to conceive: levothyroxine 25 mcg daily for 2 weeks, then 50 mcg
    daily. Keep TSH < 2.5 mU/L. Repeat TSH in 2 months. Thyroid imaging is not required.""",
]

WRONG = {
    "observes instead of treating before conception": (
        "TSH 6.8, FT4 normal, TPO positive: subclinical hypothyroidism. TSH below 10, so no "
        "levothyroxine now. Repeat TSH in 6 months. No thyroid ultrasound.", "plan_documented"),
    "hedged start": (
        "TSH 6.8, FT4 normal, TPO positive: subclinical hypothyroidism. Could consider "
        "levothyroxine 50 mcg daily. Repeat TSH in 6 weeks; goal TSH <2.5. No thyroid "
        "ultrasound.", "plan_documented"),
    "stale initial TSH as current": (
        "TSH 6.0, FT4 normal, TPO positive: subclinical hypothyroidism. Start levothyroxine 50 "
        "mcg daily; goal TSH <2.5. Repeat TSH in 6 weeks. No thyroid ultrasound.",
        "thyroid_status_assessed"),
    "full replacement dose": (
        "TSH 6.8, FT4 normal, TPO positive: subclinical hypothyroidism. Start levothyroxine "
        "100 mcg daily; goal TSH <2.5. Repeat TSH in 6 weeks. No thyroid ultrasound.",
        "plan_documented"),
    "orders an ultrasound": (
        "TSH 6.8, FT4 normal, TPO positive: subclinical hypothyroidism. Start levothyroxine 50 "
        "mcg daily; goal TSH <2.5. Repeat TSH in 6 weeks. Order a thyroid ultrasound.",
        "plan_documented"),
    "TPO called negative": (
        "TSH 6.8, FT4 normal, TPO antibodies negative: subclinical hypothyroidism. Start "
        "levothyroxine 50 mcg daily; goal TSH <2.5. Repeat TSH in 6 weeks. No thyroid "
        "ultrasound.", "thyroid_status_assessed"),
    "non-pregnant TSH goal": (
        "TSH 6.8, FT4 normal, TPO positive: subclinical hypothyroidism. Start levothyroxine 50 "
        "mcg daily; goal TSH below 4.0. Repeat TSH in 6 weeks. No thyroid ultrasound.",
        "plan_documented"),
    "deferred until pregnant": (
        "TSH 6.8, FT4 normal, TPO positive: subclinical hypothyroidism. Hold off on "
        "levothyroxine until she is pregnant, then start 50 mcg daily. Repeat TSH in 6 weeks. "
        "No thyroid ultrasound.", "plan_documented"),
}


test_a_correct_plan_in_other_words_passes, test_a_wrong_plan_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_observe_branch():
    good = """TSH 5.6 -> 6.6 mIU/L, FT4 normal, TPO Ab 21 (neg): mild subclinical hypothyroidism,
    asymptomatic, IUD. No levothyroxine now; start it if TSH > 10, symptoms or pregnancy plans.
    Repeat TSH + FT4 in 12 months. No thyroid ultrasound."""
    assert all(grade_note(TASK, good, OBSERVE).values())
    treat = good.replace("No levothyroxine now; start it if TSH > 10, symptoms or pregnancy "
                         "plans.", "Start levothyroxine 50 mcg daily.")
    assert not grade_note(TASK, treat, OBSERVE)["plan_documented"]
    hedge = good.replace("No levothyroxine now", "A trial of levothyroxine could be considered")
    assert not grade_note(TASK, hedge, OBSERVE)["plan_documented"]
    positive = good.replace("TPO Ab 21 (neg)", "TPO antibodies positive")
    assert not grade_note(TASK, positive, OBSERVE)["thyroid_status_assessed"]
    late = good.replace("in 12 months", "in 5 years")
    assert not grade_note(TASK, late, OBSERVE)["plan_documented"]


def test_treat_high_branch():
    good = """TSH 13.3 -> 14.7, FT4 nl, TPO 591 (pos): subclinical hypothyroidism, Hashimoto; TSH
    above 10 -> treat. Levothyroxine 75 mcg daily. TSH in 6-8 weeks. No neck ultrasound."""
    assert all(grade_note(TASK, good, HIGH).values())
    weight_based = good.replace("Levothyroxine 75 mcg daily", "Levothyroxine 1.6 mcg/kg, i.e. "
                                "112 mcg once daily")
    assert all(grade_note(TASK, weight_based, HIGH).values())
    observe = good.replace("Levothyroxine 75 mcg daily. TSH in 6-8 weeks.",
                           "No levothyroxine; repeat TSH in 6 months.")
    assert not grade_note(TASK, observe, HIGH)["plan_documented"]
    too_much = good.replace("75 mcg", "150 mcg")
    assert not grade_note(TASK, too_much, HIGH)["plan_documented"]
    stale = good.replace("TSH 13.3 -> 14.7", "TSH 13.3")
    assert not grade_note(TASK, stale, HIGH)["thyroid_status_assessed"]
