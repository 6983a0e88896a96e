"""mgus_in_ckd: the scenario draws (renal-range polyclonal light chains, low-risk MGUS, a
light-chain disorder beyond the renal range) and the note phrasings each branch must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    get_instance,
    grade_note,
    note_probes,
    oracle_note,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "mgus_in_ckd"
MGUS = 0          # IgG kappa MGUS, ratio 1.99, eGFR 23, M-spike 0.5
LIGHT_CHAIN = 1   # ratio 10.42, eGFR 22 (34 a year ago)
POLYCLONAL = 2    # ratio 1.94, eGFR 29


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"name": "renal_polyclonal"}
    assert (vals["ratio"], vals["kappa"], vals["lam_value"]) == (1.88, 63.9, 34)
    assert (vals["egfr"], vals["egfr_1y"], vals["egfr_3y"]) == (26, 29, 35)
    # CKD-EPI 2021, man of 71: creatinine 2.56 mg/dL gives an eGFR of 26
    assert vals["creat"] == 2.56
    assert vals["ratio_flag"] == "H"    # flagged against 0.26-1.65, inside the renal 0.37-3.1


def test_branches_draw_their_scenarios():
    assert values(TASK, MGUS)["scenario"]["name"] == "mgus"
    assert values(TASK, LIGHT_CHAIN)["scenario"]["name"] == "light_chain"
    assert values(TASK, POLYCLONAL)["scenario"]["name"] == "renal_polyclonal"
    for n in range(20):
        vals = values(TASK, n)
        in_renal_range = 0.37 <= vals["ratio"] <= 3.1
        assert in_renal_range is (vals["scenario"]["name"] != "light_chain"), n
        assert vals["ratio"] > 1.65 and 15 <= vals["egfr"] <= 29, n
    lc = values(TASK, LIGHT_CHAIN)
    assert lc["egfr_1y"] - lc["egfr"] > 5          # rapid decline (KDIGO 2024)
    assert lc["upcr"] > 5 * lc["uacr"]            # mostly non-albumin proteinuria


CORRECT = [
    (None, "FLC ratio 1.88 is within the renal reference range (0.37-3.1) for eGFR 26. SPEP/IFE "
           "negative. Polyclonal elevation of both light chains due to reduced renal clearance. "
           "No MGUS, no myeloma. No bone marrow biopsy or skeletal survey needed. No need to "
           "repeat SPEP or FLC."),
    (None, "Impression: kappa/lambda 1.88 — normal for CKD (renal range 0.37–3.1); eGFR 26 "
           "mL/min/1.73m². Both κ and λ elevated = polyclonal, reduced clearance. No monoclonal "
           "gammopathy (SPEP, IFE negative).\nPlan:\n- No BM biopsy, no skeletal imaging.\n- No "
           "further monitoring of free light chains needed; recheck only if hypercalcemia, bone "
           "pain or unexplained anemia."),
    (None, "The kappa/lambda ratio of 1.88 with an eGFR of 26 is normal for CKD. This is not "
           "MGUS: the light chains are polyclonal. No bone marrow biopsy. No routine follow-up "
           "SPEP is required."),
    (POLYCLONAL, "FLC ratio 1.94, normal for CKD; eGFR 29. Polyclonal FLC elevation from CKD. No "
                 "MGUS. No marrow. No repeat SPEP."),
    (MGUS, "IgG kappa MGUS, M-spike 0.5 g/dL. FLC ratio 1.99 is normal for CKD (renal range "
           "0.37-3.1); eGFR 23. Low-risk MGUS. CKD is diabetic kidney disease, not MGRS. No bone "
           "marrow biopsy or skeletal survey. Repeat SPEP and free light chains in 6 months, then "
           "every 2-3 years."),
    (MGUS, "| Test | Result |\n|---|---|\n| κ/λ ratio | 1.99 (renal range 0.37–3.1: normal) |\n"
           "| eGFR | 23 mL/min/1.73 m² |\n| IFE | IgG kappa, 0.5 g/dL |\n\nAssessment: low-risk "
           "IgG κ MGUS; CKD from diabetic nephropathy, not MGRS.\nPlan: no bone marrow biopsy or "
           "skeletal survey now. SPEP + FLC in 6 months, then every 2–3 years if stable."),
    (MGUS, "Dear Dr., your patient has an IgG kappa MGUS (M-spike 0.5 g/dL). The free light chain "
           "ratio of 1.99 looks high but with an eGFR of 23 it sits inside the kidney-adjusted "
           "range, so he is low risk. His kidney disease is explained by diabetes. He does not "
           "need a bone marrow biopsy or a skeletal survey. Please repeat the SPEP with free light "
           "chains in 6 months."),
    (LIGHT_CHAIN, "Kappa/lambda ratio 10.42 is abnormal even for CKD (renal range up to 3.1); eGFR "
                  "22, down from 34 a year ago. Suspected light chain cast nephropathy or other "
                  "MGRS; light chain myeloma possible. Bone marrow aspirate and biopsy ordered. "
                  "Referred to nephrology for kidney biopsy."),
    (LIGHT_CHAIN, "**Assessment**: κ/λ 10.42 — abnormal even with the renal range (0.37–3.1); "
                  "eGFR 22 (was 34 a year ago). Suspected light-chain cast nephropathy / MGRS; "
                  "rule "
                  "out light chain myeloma.\n**Plan**\n1. BM aspirate/biopsy — ordered.\n2. Urgent "
                  "nephrology referral for kidney biopsy — placed."),
    (LIGHT_CHAIN, "The free light chain ratio of 10.42 cannot be explained by CKD (eGFR 22). I am "
                  "worried about a plasma cell disorder affecting the kidney. I have ordered a "
                  "bone "
                  "marrow biopsy and referred him to nephrology for a kidney biopsy."),
    # review finding 6: K:L ratio; finding 4: the renal-range reading in its own words
    (None, "Serum FLC: kappa 63.9 mg/L, lambda 34 mg/L, K:L ratio 1.88, within the renal range "
           "for eGFR 26. SPEP and IFE negative: polyclonal, not MGUS or myeloma. No bone marrow "
           "biopsy. No repeat SPEP."),
    # review finding 1: a marrow to exclude myeloma as the cause of the anemia is tolerated in MGUS
    (MGUS, "IgG kappa MGUS with anemia and CKD G4, M-spike 0.5 g/dL. FLC ratio 1.99 is within "
           "the renal reference range; eGFR 23. Not myeloma; the CKD is diabetic kidney disease, "
           "not MGRS. Bone marrow biopsy to exclude myeloma before attributing the anemia to CKD. "
           "No skeletal imaging. Repeat SPEP in 6 months."),
    (LIGHT_CHAIN, "The kappa/lambda ratio is 10.42 at an eGFR of 22 - above even the "
                  "kidney-adjusted upper limit of 3.1. Suspected MGRS. Bone marrow biopsy ordered. "
                  "Refer to nephrology for a kidney biopsy."),
]

WRONG = [
    # canonical: the flagged ratio read as a clone
    (None, "diagnosis_stated", "FLC ratio 1.88, eGFR 26. Light chain MGUS given the abnormal "
     "ratio. No bone marrow biopsy. No repeat SPEP."),
    (None, "marrow_plan_documented", "FLC ratio 1.88 normal for CKD, eGFR 26. Polyclonal. No "
     "MGUS. Bone marrow biopsy to be safe. No repeat SPEP."),
    (None, "followup_documented", "FLC ratio 1.88 normal for CKD, eGFR 26. Polyclonal. No MGUS. "
     "No bone marrow biopsy. Repeat SPEP and free light chains in 6 months."),
    (None, "followup_documented", "FLC ratio 1.88 normal for CKD, eGFR 26. Polyclonal. No MGUS. "
     "No bone marrow biopsy. Plan: SPEP with FLC yearly."),
    # the standard upper limit quoted as the ratio; a stale eGFR
    (None, "ratio_interpreted", "FLC ratio 1.65, eGFR 26. Polyclonal. No MGUS. No bone marrow "
     "biopsy. No repeat SPEP."),
    (None, "ratio_interpreted", "FLC ratio 1.88, eGFR 35. Polyclonal. No MGUS. No bone marrow "
     "biopsy. No repeat SPEP."),
    # the ratio read against the standard range only (review finding 4)
    (None, "ratio_interpreted", "FLC ratio 1.88 is abnormal (above 1.65), eGFR 26. Polyclonal. "
     "No MGUS. No bone marrow biopsy. No repeat SPEP."),
    # PET-CT, spine MRI and a kidney biopsy as must-nots (review findings 2 and 5)
    (None, "marrow_plan_documented", "FLC ratio 1.88 normal for CKD, eGFR 26. Polyclonal. No "
     "MGUS. No bone marrow biopsy. PET-CT. No repeat SPEP."),
    (None, "marrow_plan_documented", "FLC ratio 1.88 normal for CKD, eGFR 26. Polyclonal. No "
     "MGUS. No bone marrow biopsy. MRI of the spine to look for lytic lesions. No repeat SPEP."),
    (MGUS, "marrow_plan_documented", "IgG kappa MGUS, M-spike 0.5. FLC ratio 1.99 normal for "
     "CKD, eGFR 23. Low-risk MGUS. No skeletal survey. Refer to nephrology for a kidney biopsy "
     "to exclude MGRS. Repeat SPEP in 6 months."),
    (MGUS, "ratio_interpreted", "IgG kappa MGUS, M-spike 0.5. FLC ratio 1.99 is abnormal, eGFR "
     "23. Low-intermediate risk MGUS. No skeletal survey. Repeat SPEP in 6 months."),
    # a wrong M-spike (review finding 10)
    (MGUS, "diagnosis_stated", "IgG kappa MGUS, M-spike 2.0 g/dL, low risk. FLC ratio 1.99 "
     "normal for CKD, eGFR 23. No skeletal survey. Repeat SPEP in 6 months."),
    # MGUS: no follow-up, too early, myeloma or MGRS, staging marrow with imaging
    (MGUS, "followup_documented", "IgG kappa MGUS. FLC ratio 1.99 normal for CKD, eGFR 23. "
     "Low-risk MGUS. No bone marrow. No further follow-up needed."),
    (MGUS, "followup_documented", "IgG kappa MGUS, M-spike 0.5. FLC ratio 1.99 normal for CKD, "
     "eGFR 23. Low risk. No marrow. SPEP in 4 weeks."),
    (MGUS, "diagnosis_stated", "FLC ratio 1.99, eGFR 23. Smoldering myeloma. No bone marrow. "
     "Repeat SPEP in 6 months."),
    (MGUS, "diagnosis_stated", "IgG kappa MGUS, M-spike 0.5. FLC ratio 1.99, eGFR 23. The CKD is "
     "likely MGRS. No marrow. SPEP in 6 months."),
    (MGUS, "marrow_plan_documented", "IgG kappa MGUS, M-spike 0.5. FLC ratio 1.99 normal for CKD, "
     "eGFR 23. Low risk. Bone marrow biopsy and skeletal survey to complete staging. SPEP in 6 "
     "months."),
    # light chain: read as inside the renal range (and light-chain MGUS), called polyclonal,
    # marrow deferred, no nephrology
    (LIGHT_CHAIN, "ratio_interpreted", "FLC ratio 10.42, eGFR 22, within the renal range. Light "
     "chain MGUS, low risk. Bone marrow biopsy ordered. Refer to nephrology for kidney biopsy."),
    (LIGHT_CHAIN, "diagnosis_stated", "FLC ratio 10.42, eGFR 22. Polyclonal elevation due to CKD. "
     "Bone marrow biopsy ordered. Refer to nephrology."),
    (LIGHT_CHAIN, "marrow_plan_documented", "FLC ratio 10.42, eGFR 22. Suspected MGRS. Repeat "
     "free light chains in 3 months before deciding on a bone marrow biopsy. Refer to nephrology "
     "for kidney biopsy."),
    (LIGHT_CHAIN, "marrow_plan_documented", "FLC ratio 10.42, eGFR 22. Abnormal even for CKD; "
     "suspected MGRS. No bone marrow biopsy yet. Refer to nephrology for kidney biopsy."),
    (LIGHT_CHAIN, "followup_documented", "FLC ratio 10.42, eGFR 22. Abnormal even for CKD; "
     "suspected MGRS. Bone marrow biopsy ordered. Nephrology referral not needed; he already has "
     "a nephrologist."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (MGUS, LIGHT_CHAIN, POLYCLONAL), [None, MGUS, LIGHT_CHAIN]))


@pytest.mark.parametrize(("variant", "checkpoint", "note", "passed"), [
    # each note is added to the oracle note; the first two and the trigger after an arrow are
    # reader gaps pinned as they stand (see the task report)
    (None, "diagnosis_stated", "This is not MGUS. Immunofixation shows no monoclonal protein and "
     "the light chains are polyclonal.", False),
    (None, "followup_documented", "I would follow him with annual free light chains.", True),
    (None, "followup_documented", "- Retest only on new trigger (unexplained hypercalcemia) -> "
     "SPEP/IFE + sFLC read vs renal range.", False),
    # 'does not meet the definition of X' / 'the criteria for X are not met' deny X
    (None, "diagnosis_stated", "He does not meet the definition of MGUS or multiple myeloma.",
     True),
    (None, "diagnosis_stated", "The criteria for MGUS, light-chain MGUS or myeloma are not met.",
     True),
    # 'giving a ratio of' reports a result, it starts nothing
    (None, "followup_documented", "Kappa is 63.9 mg/L and lambda is 34, giving a kappa to lambda "
     "ratio of 1.88.", True),
    # a trailing 'if' past a parenthesis is the repeat's trigger
    (None, "followup_documented", "I would only repeat SPEP (read against the renal range) if "
     "something new appears.", True),
    # 'No M-protein plus a ratio normal ...': the negation ends at 'plus'
    (None, "ratio_interpreted", "No M-protein plus a ratio normal for his kidney function = no "
     "monoclonal gammopathy.", True),
    # strict: a hedged opposite diagnosis fails
    (None, "diagnosis_stated", "Overall: indeterminate - possible early light-chain MGUS versus "
     "CKD effect.", False),
])
def test_phrasings_added_to_the_reference_note(variant, checkpoint, note, passed):
    verdicts = grade_note(TASK, oracle_note(TASK, variant) + "\n\n" + note + "\n", variant)
    assert verdicts[checkpoint] is passed


def test_a_bare_ratio_after_kappa_and_lambda_is_their_ratio():
    note = ("Serum FLC: kappa 63.9 mg/L, lambda 34 mg/L, ratio 1.88, within the renal reference "
            "range; eGFR 26. Polyclonal, not MGUS. No bone marrow biopsy.")
    assert grade_note(TASK, note)["ratio_interpreted"] is True


@pytest.mark.parametrize(("variant", "checkpoint", "note"), [
    # a threshold after the eGFR ('exceeds 1.65, eGFR 26, but ...') leaves the eGFR unread
    (None, "ratio_interpreted", "The FLC ratio of 1.88 exceeds 1.65, eGFR 26, but that cut-off "
     "does not apply in CKD; it is within the renal reference range."),
])
def test_reader_limits_alone(variant, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is False


def test_a_verbless_follow_up_spep_line_is_the_follow_up():
    """'Follow-up SPEP in 6 months' is the low-risk MGUS follow-up (a reader limit once)."""
    note = ("IgG kappa MGUS, M-spike 0.5. FLC ratio 1.99 normal for CKD, eGFR 23. Low-risk MGUS. "
            "No skeletal survey. Follow-up SPEP in 6 months.")
    assert grade_note(TASK, note, MGUS)["followup_documented"] is True


def _calls(variant=None, extra=()):
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls]
    return calls + list(extra)


def test_must_nots_in_the_orders():
    """Review findings 1-3 and 5: repeat SPEP/FLC (polyclonal), PET and spine MRI, and a kidney
    biopsy fail the orders; a marrow is tolerated in the MGUS branch."""
    key = "orders_and_message"
    assert run_actions(TASK, _calls())[key]
    spep = service_request("84165", "cpt", "laboratory", display="Protein electrophoresis, serum")
    flc = service_request("48378-4", "loinc", "laboratory", display="Free light chain ratio")
    pet = service_request("78815", "cpt", "imaging", display="PET-CT skull base to mid-thigh")
    mri = service_request("72148", "cpt", "imaging", display="MRI lumbar spine without contrast")
    biopsy = service_request("50200", "cpt", "procedure", display="Renal biopsy, percutaneous")
    marrow = service_request("38222", "cpt", "procedure",
                             display="Bone marrow biopsy and aspiration")
    for order in (spep, flc, pet, mri, biopsy, marrow):
        assert not run_actions(TASK, _calls(extra=[order]))[key], order["arguments"]["code"]
    assert run_actions(TASK, _calls(MGUS), MGUS)[key]
    for order in (pet, mri, biopsy):
        assert not run_actions(TASK, _calls(MGUS, [order]), MGUS)[key], order["arguments"]["code"]
    assert run_actions(TASK, _calls(MGUS, [spep, marrow]), MGUS)[key]


def test_ckd_stage_follows_the_drawn_egfr():
    """Review finding 7: G4 from the first yearly eGFR below 30; the nephrology note's stage."""
    for n in range(20):
        vals = values(TASK, n)
        since = {"-2y-5w": vals["egfr_2y"], "-1y": vals["egfr_1y"], "-3w": vals["egfr"]}
        assert since[vals["ckd4_since"]] < 30, n
        assert vals["stage_2y"] == ("G3b" if vals["egfr_2y"] >= 30 else "G4"), n
