"""Statin initiation: the risk, category, intensity and plan are judged, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

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
    # SOAP, abbreviated drug name, intensity in parentheses, no verb for the lab
    """S: 58M, ex-smoker, HTN on lisinopril, preDM. FHx father MI at 51.
    O: TC 228, HDL 42, LDL-C 153 mg/dL, SBP 136 (treated).
    A: Primary prevention. PCE 10-yr risk ~12%; intermediate-risk category; enhancers
    present (FHx, hsCRP 2.6).
    P: Start rosuva 10 mg PO qHS (moderate-intensity). Fasting lipid panel in 2 months.""",
    # another moderate-intensity statin of Table 3
    """Assessment: 10 year risk 12.2% - intermediate risk.
    Plan: moderate intensity statin; start simvastatin 40 mg nightly (tolerated simvastatin
    before). Recheck lipids in 6 weeks.""",
    # narrative
    """His estimated 10-year ASCVD risk is 11.5% (Pooled Cohort Equations), placing him at
    intermediate risk. Given risk enhancers, I recommend a moderate-intensity statin. I started
    atorvastatin 10 mg daily. We will check a lipid panel 4-12 weeks after initiation to assess
    response.""",
]
WRONG = [
    # wrong risk category
    """10-year ASCVD risk 12.2%, high risk. Start moderate-intensity statin: atorvastatin
    20 mg daily. Repeat lipid panel in 6 weeks.""",
    # wrong risk value
    """10-year ASCVD risk 6.1%, intermediate risk. Start moderate-intensity statin:
    atorvastatin 20 mg daily. Repeat lipid panel in 6 weeks.""",
    # hedged plan
    """10-year ASCVD risk 12.2%, intermediate risk. Moderate-intensity statin.
    Consider starting atorvastatin 20 mg daily. Repeat lipid panel in 6 weeks.""",
    # statin deferred
    """10-year ASCVD risk 12.2%, intermediate risk. Moderate-intensity statin would be
    reasonable later; defer statin for now, lifestyle first. Repeat lipid panel in 6 weeks.""",
    # monitoring interval too late
    """10-year ASCVD risk 12.2%, intermediate risk. Start moderate-intensity statin:
    atorvastatin 20 mg daily. Repeat lipid panel in 6 months.""",
    # simvastatin 80 mg (not for new patients)
    """10-yr ASCVD risk 12.2%, intermediate risk. Moderate-intensity statin: start simvastatin
    80 mg daily. Recheck lipid panel in 6 weeks.""",
    # ezetimibe instead of a statin
    """10-yr ASCVD risk 12.2%, intermediate risk. Moderate-intensity therapy: start ezetimibe
    10 mg daily instead of a statin. Recheck lipid panel in 6 weeks.""",
    # borderline category
    """10-yr ASCVD risk 12.2%, borderline risk. Start moderate-intensity statin: atorvastatin
    20 mg daily. Recheck lipid panel in 6 weeks.""",
    # keyword stuffing: all categories, both intensities, start and stop, every interval
    """10-year ASCVD risk 12.2% 25% 6%: intermediate risk. High risk. Borderline risk.
    Start moderate-intensity statin. Start high-intensity statin. Start atorvastatin 20 mg,
    rosuvastatin 40 mg. Stop statin. Repeat lipid panel in 6 weeks and in 6 months.""",
]


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, WRONG[-1])
    assert verdicts["ascvd_risk_estimated"] is False
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
    exercise = good.replace("Smoking cessation counseling.",
                            "Moderate-intensity aerobic exercise 150 minutes a week.")
    assert all(grade_note(TASK, exercise, HIGH_RISK_VARIANT).values())
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


def _statin(code: str, mg: float) -> dict:
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "oral", "frequency": 1, "period_unit": "day"}}


def test_moderate_or_high_intensity_statin_order_but_not_simvastatin_80():
    """Intermediate risk with risk enhancers: moderate or high intensity (ACC/AHA 2018)."""
    assert run_actions(TASK, [_statin("617310", 20)])["statin_prescribed"]  # atorvastatin 20
    assert run_actions(TASK, [_statin("198211", 40)])["statin_prescribed"]  # simvastatin 40
    assert run_actions(TASK, [_statin("617311", 40)])["statin_prescribed"]  # atorva 40
    assert not run_actions(TASK, [_statin("200345", 80)])["statin_prescribed"]  # simva 80
