"""mgus_cryoglobulinemia_workup: the scenario draws (HCV-associated cryoglobulinemic vasculitis,
low-risk MGUS, high-risk MGUS), their derived values and the note phrasings each branch's
checkpoints must judge."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "mgus_cryoglobulinemia_workup"
HCV = 0     # hcv_cryo, M-spike 0.6 g/dL
HIGH = 1    # high_risk, IgA lambda 2.5 g/dL (2.2 fourteen months ago), FLC ratio 0.09
LOW = 2     # low_risk, IgG kappa 0.6 g/dL, FLC ratio 1.36


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"name": "hcv_cryo"}
    assert (vals["mspike"], vals["mspike_initial"], vals["isotype"]) == (0.5, 0.3, "IgM kappa")
    assert (vals["kappa"], vals["lam"], vals["flc_ratio"]) == (21.0, 15.0, 1.4)
    assert (vals["factors"], vals["risk"]) == (1, "low-intermediate")
    lab = vals["lab"]
    assert (lab["c4"], lab["rf"], lab["hcv_ab"], lab["creat"], lab["egfr"]) == (
        4, 212, "10828004", 1.46, 40)
    assert lab["igm"] == 920
    # the order checks are timed (custom graders over the written ServiceRequests)
    assert vals["first_grader"].endswith(":first_orders_timed")
    assert vals["second_grader"].endswith(":second_orders_timed")


def test_branches_draw_their_scenarios():
    low, high = values(TASK, LOW), values(TASK, HIGH)
    assert (low["scenario"]["name"], low["factors"], low["risk"]) == ("low_risk", 0, "low")
    assert low["isotype"] == "IgG kappa" and low["mspike"] == 0.6
    assert 0.26 <= low["flc_ratio"] <= 1.65
    # the low-risk must-not is checked in orders (bone marrow, skeletal imaging)
    assert [g["not_ordered"]["label"] for g in low["second_grader"]["all"]["of"]] == [
        "bone marrow biopsy", "bone marrow biopsy", "skeletal imaging", "skeletal imaging"]
    assert (high["scenario"]["name"], high["factors"], high["risk"]) == ("high_risk", 3, "high")
    assert high["isotype"] == "IgA lambda" and high["mspike"] == 2.5
    assert high["mspike_initial"] == 2.2 and high["flc_ratio"] < 0.26
    # the involved/uninvolved FLC ratio stays far below the myeloma-defining 100
    assert high["lam"] / high["kappa"] < 100
    names = {values(TASK, n)["scenario"]["name"] for n in range(20)}
    assert names == {"hcv_cryo", "low_risk", "high_risk"}


CORRECT = [
    (None, "IgM kappa M-spike 0.5 g/dL. Suspected HCV-associated mixed cryoglobulinemic "
           "vasculitis with GN. Plan: repeat cryoglobulins (warm, 37 C), HCV RNA, refer to "
           "nephrology for kidney biopsy. If viremic, start DAA (sofosbuvir-velpatasvir)."),
    (None, "Current M-spike 0.5 g/dL (IgM kappa). This is concerning for cryoglobulinemic "
           "vasculitis. I ordered serum cryoglobulins kept at 37 C and an HCV RNA. Nephrology "
           "referral placed for kidney biopsy. Hepatology referral for HCV treatment."),
    (None, "The IgM kappa M-protein rose from 0.3 to 0.5 g/dL over 14 months. Picture is most "
           "consistent with type II mixed cryoglobulinemia secondary to hepatitis C. Recommend: "
           "cryoglobulins (pre-warmed tube, 37 C), HCV viral load. Nephrology consult for renal "
           "biopsy. Treat HCV with glecaprevir-pibrentasvir once viremia is confirmed."),
    (None, "| Item | Finding |\n|---|---|\n| M-spike | 0.5 g/dL IgM κ |\n| Impression | mixed "
           "cryoglobulinemic vasculitis, HCV-driven |\n\nPlan:\n1. Serum cryoglobulins (keep at "
           "37 °C).\n2. Quantitative HCV RNA.\n3. Urgent nephrology referral – kidney biopsy.\n"
           "4. If HCV RNA detectable → sofosbuvir/velpatasvir x 12 weeks."),
    (None, "Dear Dr. Smith, thank you for asking me to see Ms. T. Her monoclonal protein is an "
           "IgM kappa at 0.5 g/dL. I am concerned that she has cryoglobulinaemic vasculitis "
           "driven by untreated hepatitis C. I have ordered a repeat cryoglobulin level, "
           "correctly warmed, and an HCV RNA, and I have referred her to nephrology for "
           "consideration of a renal biopsy. If the HCV RNA is positive she should start "
           "direct-acting antiviral therapy. A bone marrow biopsy is not needed at this stage."),
    (HCV, "M-spike 0.6 g/dL (0.4 g/dL 14 months ago), IgM kappa.\nImpression: HCV-related "
          "cryoglobulinemic vasculitis with glomerulonephritis.\nPlan:\n- Repeat cryoglobulins, "
          "collected warm\n- HCV RNA PCR\n- Refer to nephrologist for kidney biopsy\n- Refer to "
          "hepatology for DAA therapy"),
    (LOW, "IgG kappa MGUS, M-spike 0.6 g/dL, FLC ratio normal -> low-risk MGUS (Mayo 0/3). No "
          "BMBx, no skeletal survey. Repeat SPEP + FLC in 6 months, then q2-3y if stable. Rash = "
          "Schamberg, not cryo."),
    (LOW, "Assessment: IgG kappa MGUS with M-spike 0.6 g/dL and a normal kappa/lambda ratio "
          "(1.36). Using the Mayo risk model (M-protein >= 1.5 g/dL, non-IgG isotype, abnormal "
          "FLC ratio), she has 0 of 3 risk factors, which places her in the low-risk category "
          "(about 5% risk of progression at 20 years).\nPlan:\n1. No bone marrow biopsy or "
          "skeletal survey is indicated.\n2. Repeat SPEP and serum free light chains in 6 "
          "months; if stable, every 2-3 years.\n3. If she develops anemia, hypercalcemia, renal "
          "dysfunction or bone pain, we would proceed to bone marrow biopsy and whole-body "
          "low-dose CT.\nDisclaimer: e-consult based on chart review."),
    (LOW, "| | |\n|---|---|\n| M-protein | 0.6 g/dL IgG κ |\n| FLC ratio | 1.36 (normal) |\n"
          "| Mayo risk | low (0/3) |\n\nPlan: SPEP/IFE + sFLC in 6 mo. No BM biopsy. No imaging."),
    (HIGH, "IgA lambda, M-spike 2.5 g/dL, FLC ratio 0.09. High-risk MGUS (3/3 Mayo factors). "
           "Bone marrow aspirate and biopsy now. Whole-body low-dose CT."),
    (HIGH, "IgA lambda M-protein now 2.5 g/dL (2.2 g/dL 14 months ago), FLC ratio 0.09. Mayo "
           "risk: high (3/3 factors). Plan: bone marrow aspiration and biopsy with FISH and flow "
           "(ordered); whole-body low dose CT (ordered); SPEP in 6 months then annually."),
    (HIGH, "High-risk MGUS, IgA lambda 2.5 g/dL. I have ordered a BM biopsy and a PET-CT."),
    # review findings 6 and 7: SI units, the Mayo category inside the model's name, BM shorthand
    (None, "IgM kappa, M-spike 5 g/L. Suspected HCV-associated mixed cryoglobulinemic "
           "vasculitis.\nPlan:\n- Repeat cryoglobulins, pre-warmed tubes, kept at 37 C.\n"
           "- HCV RNA.\n- Refer to nephrology for kidney biopsy.\n- DAA if viremic."),
    (LOW, "M-spike 6 g/L (IgG κ), normal FLC ratio, low-risk MGUS. No bone marrow biopsy. "
          "Repeat SPEP in 6 months."),
    (HIGH, "IgA lambda protein 25 g/L, FLC ratio 0.09. Mayo high risk (3 of 3). Bone marrow "
           "biopsy now. Whole-body low-dose CT."),
    (HIGH, "IgA lambda, M-spike 2.5 g/dL, FLC ratio 0.09. High-risk MGUS (3/3).\nPlan:\n"
           "- BM aspirate/biopsy (ordered)\n- Whole-body low-dose CT (ordered)"),
    # the old screen described as refrigerated is history, not the plan
    (None, "IgM kappa M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis. The dermatology "
           "sample was drawn on ice and is invalid.\nPlan:\n- Repeat cryoglobulins; do not "
           "refrigerate the sample.\n- HCV RNA.\n- Refer to nephrology for kidney biopsy.\n"
           "- DAA if viremic."),
]

WRONG = [
    # canonical: the M-spike of 14 months ago given as current
    (None, "gammopathy_assessed",
     "M-spike 0.3 g/dL (IgM kappa). Mixed cryoglobulinemia likely. Order cryoglobulins and HCV "
     "RNA. Refer to nephrology for a kidney biopsy. Start DAA if HCV RNA positive."),
    # canonical: cryoglobulinemia denied on the refrigerated screen
    (None, "gammopathy_assessed",
     "M-spike 0.5 g/dL. Cryoglobulinemia is unlikely given the negative cryoglobulin screen; "
     "low-intermediate risk MGUS. Order HCV RNA and cryoglobulins. Refer to nephrology for "
     "kidney biopsy. Start DAA if HCV RNA positive."),
    (None, "gammopathy_assessed",
     "M-spike 0.5 g/dL. Cryoglobulinemia ruled out. Order cryoglobulins and HCV RNA. Refer to "
     "nephrology for kidney biopsy. DAA if HCV RNA positive."),
    # canonical: no repeat cryoglobulins
    (None, "workup_documented",
     "M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis. No need to repeat cryoglobulins "
     "as the screen was negative. Order HCV RNA. Refer to nephrology for kidney biopsy. Start "
     "DAA if HCV RNA positive."),
    # canonical: nephrology deferred or hedged
    (None, "management_documented",
     "M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis. Order cryoglobulins and HCV RNA. "
     "Defer nephrology referral until the cryoglobulin result is back. Start DAA if HCV RNA "
     "positive."),
    (None, "management_documented",
     "M-spike 0.5 g/dL IgM kappa. Cryoglobulinemic vasculitis suspected. Order cryoglobulins and "
     "HCV RNA. Consider nephrology referral if creatinine keeps rising. DAA if HCV RNA "
     "positive."),
    # canonical: steroids instead of treating the hepatitis C
    (None, "management_documented",
     "M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis. Order cryoglobulins and HCV RNA. "
     "Refer to nephrology for kidney biopsy. Start prednisone 60 mg daily."),
    # low risk: marrow, wrong category, wrong interval
    (LOW, "management_documented",
     "IgG kappa MGUS, M-spike 0.6 g/dL, low-risk MGUS. Bone marrow biopsy to be thorough. Repeat "
     "SPEP in 6 months."),
    (LOW, "management_documented",
     "IgG kappa MGUS, M-spike 0.6 g/dL, low-risk MGUS. No bone marrow biopsy. Skeletal survey "
     "for baseline. Repeat SPEP in 6 months."),
    (LOW, "gammopathy_assessed",
     "IgG kappa MGUS, M-spike 0.6 g/dL, intermediate-risk MGUS. No bone marrow biopsy. Repeat "
     "SPEP in 6 months."),
    (LOW, "workup_documented",
     "IgG kappa MGUS, M-spike 0.6 g/dL, low-risk MGUS. No bone marrow biopsy. Repeat SPEP in 2 "
     "years."),
    # high risk: marrow deferred, wrong category, stale value, no imaging
    (HIGH, "workup_documented",
     "IgA lambda, M-spike 2.5 g/dL. High-risk MGUS. Defer bone marrow biopsy until the next SPEP "
     "in 6 months. Whole-body low-dose CT."),
    (HIGH, "gammopathy_assessed",
     "IgA lambda, M-spike 2.5 g/dL. Low-risk MGUS. Bone marrow biopsy. Whole-body low-dose CT."),
    (HIGH, "gammopathy_assessed",
     "IgA lambda, M-spike 2.2 g/dL. High-risk MGUS. Bone marrow biopsy. Whole-body low-dose CT."),
    (HIGH, "management_documented",
     "IgA lambda, M-spike 2.5 g/dL. High-risk MGUS. Bone marrow biopsy. No imaging needed."),
    # review finding 1: the marrow put off by 6 months
    (HIGH, "workup_documented",
     "High-risk MGUS, IgA lambda, M-spike 2.5 g/dL. Plan: bone marrow biopsy in 6 months. "
     "Whole-body low-dose CT."),
    # review finding 2: cryoglobulinemia named only to favor another cause
    (None, "gammopathy_assessed",
     "IgM kappa M-spike 0.5 g/dL. Cryoglobulinemia is possible but I favor IgA vasculitis "
     "(HSP). Plan: repeat cryoglobulins at 37 C, HCV RNA, refer to nephrology for kidney biopsy "
     "now. DAA if viremic."),
    (None, "gammopathy_assessed",
     "IgM kappa M-spike 0.5 g/dL. This is type I cryoglobulinemia from the IgM clone. Plan: "
     "repeat cryoglobulins at 37 C, HCV RNA, refer to nephrology for kidney biopsy. DAA if "
     "viremic."),
    # the wrong isotype
    (None, "gammopathy_assessed",
     "IgG kappa M-spike 0.5 g/dL. Suspected mixed cryoglobulinemic vasculitis. Plan: repeat "
     "cryoglobulins at 37 C, HCV RNA, refer to nephrology for kidney biopsy. DAA if viremic."),
    # review finding 3: the repeat sample sent cold, the error of the first screen
    (None, "workup_documented",
     "IgM kappa M-spike 0.5 g/dL. Suspected HCV-associated mixed cryoglobulinemic vasculitis.\n"
     "Plan:\n- Cryoglobulins, refrigerate the sample promptly.\n- HCV RNA.\n- Nephrology "
     "referral for kidney biopsy.\n- DAA if viremic."),
    (None, "workup_documented",
     "IgM kappa M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis.\nPlan:\n- Repeat "
     "cryoglobulins, drawn on ice and sent to the lab.\n- HCV RNA.\n- Refer to nephrology for "
     "kidney biopsy.\n- DAA if viremic."),
    # the nephrology referral put off by months
    (None, "management_documented",
     "IgM kappa M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis.\nPlan:\n- Repeat "
     "cryoglobulins at 37 C.\n- HCV RNA.\n- Refer to nephrology in 3 months for kidney "
     "biopsy.\n- DAA if viremic."),
    # known reader gaps (reported; the reader is being fixed centrally)
    pytest.param(LOW, "management_documented",
                 "IgG kappa, M-spike 0.6 g/dL, low-risk MGUS. Plan: 1. SPEP in 6 months. "
                 "2. Whole-body low-dose CT at baseline.",
                 id="low-imaging-at-baseline"),
    pytest.param(None, "workup_documented",
                 "IgM kappa M-spike 0.5 g/dL. Suspected cryoglobulinemic vasculitis. Plan: "
                 "repeat cryoglobulins at 37 C and HCV RNA in 6 months. Nephrology referral for "
                 "kidney biopsy. DAA if viremic.",
                 id="hcv-tests-in-6-months"),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LOW, HIGH), [None, LOW, HIGH]))


def test_baseline_marrow_and_imaging_pass_in_high_risk():
    note = ("IgA lambda, M-spike 2.5 g/dL, FLC ratio 0.09. High-risk MGUS. Plan: 1. Bone marrow "
            "aspirate and biopsy at baseline. 2. Whole-body low-dose CT at baseline.")
    verdicts = grade_note(TASK, note, HIGH)
    assert verdicts["workup_documented"] and verdicts["management_documented"], verdicts


def _at(variant: int | None, days: int) -> str:
    return (values(TASK, variant)["now"].date() + timedelta(days=days)).isoformat()


CRYO = service_request("82595", "cpt", "laboratory")
RNA = service_request("87522", "cpt", "laboratory")
NEPHRO = service_request("306125004", "snomed", "referral")
MARROW = service_request("38222", "cpt", "procedure")
SPEP = service_request("84165", "cpt", "laboratory")
FLC = service_request("83883", "cpt", "laboratory")


def _dated(action: dict, variant: int | None, days: int) -> dict:
    return {**action, "arguments": {**action["arguments"], "occurrence": _at(variant, days)}}


@pytest.mark.parametrize(("variant", "actions", "first", "second"), [
    # hcv_cryo: urgent orders pass undated or within 4 weeks, fail 6 months out
    (None, [CRYO, RNA, NEPHRO], True, True),
    (None, [_dated(CRYO, None, 7), _dated(RNA, None, 3), _dated(NEPHRO, None, 14)], True, True),
    (None, [_dated(CRYO, None, 182), RNA, _dated(NEPHRO, None, 182)], False, False),
    # high_risk: the marrow 6 months out fails; a low-dose lung screening CT is no myeloma imaging
    (HIGH, [_dated(MARROW, HIGH, 182)], False, False),
    (HIGH, [MARROW, service_request("71271", "cpt", "imaging",
                                    display="Low-dose CT lung cancer screening")], True, False),
    (HIGH, [MARROW, service_request("76497", "cpt", "imaging",
                                    display="Whole-body low-dose CT")], True, True),
])
def test_urgent_orders_are_timed(variant, actions, first, second):
    verdicts = run_actions(TASK, actions, variant)
    assert (verdicts["first_tests_ordered"], verdicts["second_order_placed"]) == (
        first, second), verdicts


@pytest.mark.parametrize(("actions", "passed"), [
    ([_dated(SPEP, LOW, 182), _dated(FLC, LOW, 182)], True),
    ([_dated(SPEP, LOW, 182)], True),  # IMWG 2010: the SPEP alone at 6 months (finding 15)
    ([SPEP, FLC], False),  # now: a repeat of the tests drawn 3 weeks ago
    ([_dated(SPEP, LOW, 6), _dated(FLC, LOW, 6)], False),
    ([_dated(SPEP, LOW, 182), FLC], False),
    ([_dated(SPEP, LOW, 730)], False),  # 2 years: the 6-month check is skipped
])
def test_low_risk_spep_is_the_six_month_check(actions, passed):
    assert run_actions(TASK, actions, LOW)["first_tests_ordered"] is passed
