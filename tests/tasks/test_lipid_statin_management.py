"""Statin initiation: the risk, category, intensity and plan are judged, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, values

TASK = "lipid_statin_management"
NOTE_CHECKS = {"ascvd_risk_estimated", "statin_intensity_selected", "statin_plan_documented",
               "monitoring_documented"}
HIGH_RISK_VARIANT = 0  # a current smoker: high 10-year risk, high-intensity statin

CORRECT = [
    """10-yr ASCVD risk (PCE) 12%: intermediate risk, with risk enhancers (FHx premature CAD,
    hsCRP 2.6). Plan: start rosuvastatin 10 mg PO daily, a moderate intensity statin.
    Recheck fasting lipids in 8 wks.""",
    """Inputs: TC 228, HDL 42, SBP 136 treated, ex-smoker, no DM.
    Estimated 10-year risk 11.8 %. Category: intermediate (7.5-19.9%).
    Recommendation: initiate atorvastatin 10 mg nightly, which is a moderate-intensity statin.
    Lipid panel to be repeated 4-12 weeks after initiation.""",
    """Assessment: intermediate-risk primary prevention; ASCVD risk = 13% over 10 years.
    Moderate-intensity statin therapy is indicated.
    Start Lipitor 20mg qd.
    Repeat lipids + ALT in 6-8 wks.""",
    """# Impression
    Pooled cohort 10-year ASCVD risk of 12.2%, which places him in the intermediate
    category.

    # Plan
    1. Begin moderate-intensity statin: atorvastatin 20 mg once daily
    2. Check a lipid panel in 1-2 months""",
]
WRONG = [
    # wrong risk category
    """10-year ASCVD risk 12.2%, high risk. Start moderate-intensity statin: atorvastatin
    20 mg daily. Repeat lipid panel in 6 weeks.""",
    # wrong risk value
    """10-year ASCVD risk 6.1%, intermediate risk. Start moderate-intensity statin:
    atorvastatin 20 mg daily. Repeat lipid panel in 6 weeks.""",
    # wrong intensity and dose
    """10-year ASCVD risk 12.2%, intermediate risk. Start high-intensity statin:
    atorvastatin 40 mg daily. Repeat lipid panel in 6 weeks.""",
    # hedged plan
    """10-year ASCVD risk 12.2%, intermediate risk. Moderate-intensity statin.
    Consider starting atorvastatin 20 mg daily. Repeat lipid panel in 6 weeks.""",
    # statin deferred
    """10-year ASCVD risk 12.2%, intermediate risk. Moderate-intensity statin would be
    reasonable later; defer statin for now, lifestyle first. Repeat lipid panel in 6 weeks.""",
    # monitoring interval too late
    """10-year ASCVD risk 12.2%, intermediate risk. Start moderate-intensity statin:
    atorvastatin 20 mg daily. Repeat lipid panel in 6 months.""",
    # keyword stuffing: all categories, both intensities, start and stop, every interval
    """10-year ASCVD risk 12.2% 25% 6%: intermediate risk. High risk. Borderline risk.
    Start moderate-intensity statin. Start high-intensity statin. Start atorvastatin 20 mg,
    rosuvastatin 40 mg. Stop statin. Repeat lipid panel in 6 weeks and in 6 months.""",
]


@pytest.mark.parametrize("note", CORRECT)
def test_correct_notes_pass(note):
    verdicts = grade_note(TASK, note)
    assert set(verdicts) == NOTE_CHECKS
    assert all(verdicts.values()), verdicts


@pytest.mark.parametrize("note", WRONG)
def test_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note).values())


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, WRONG[-1])
    assert verdicts["ascvd_risk_estimated"] is False
    assert verdicts["statin_intensity_selected"] is False
    assert verdicts["statin_plan_documented"] is False


def test_canonical_is_intermediate_risk_moderate_intensity():
    v = values(TASK)
    assert (v["risk_category"], v["intensity"], v["statin_rxnorm"]) == (
        "intermediate", "moderate", "617310")
    assert 7.5 + 1.5 < v["risk"] < 20 - 1.5


def test_smoker_variant_is_high_risk_high_intensity():
    v = values(TASK, HIGH_RISK_VARIANT)
    assert v["smoker"] and v["risk_category"] == "high" and v["intensity"] == "high"
    risk = v["risk"]
    good = f"""10-year ASCVD risk {risk}% by the Pooled Cohort Equations: high risk
    (current smoker). High-intensity statin indicated. Start atorvastatin 40 mg daily.
    Repeat lipid panel in 6-8 weeks. Smoking cessation counseling."""
    assert all(grade_note(TASK, good, HIGH_RISK_VARIANT).values())
    moderate = good.replace("High-intensity", "Moderate-intensity").replace("40 mg", "20 mg")
    verdicts = grade_note(TASK, moderate, HIGH_RISK_VARIANT)
    assert not verdicts["statin_intensity_selected"]
    assert not verdicts["statin_plan_documented"]
    intermediate = good.replace("high risk", "intermediate risk")
    assert not grade_note(TASK, intermediate, HIGH_RISK_VARIANT)["ascvd_risk_estimated"]


def test_pooled_cohort_equations_reproduce_the_guideline_examples():
    from physbench_gym.grading.core import load_function

    risk = load_function("graders/cardiology.py:pooled_cohort_risk")
    example = {"age": 55, "total_chol": 213, "hdl": 50, "sbp": 120, "treated": False,
               "smoker": False, "diabetic": False}
    expected = {("white", "female"): 2.1, ("black", "female"): 3.0, ("white", "male"): 5.3,
                ("black", "male"): 6.1}
    for (race, sex), percent in expected.items():
        assert risk(race=race, sex=sex, **example) == pytest.approx(percent, abs=0.1)
