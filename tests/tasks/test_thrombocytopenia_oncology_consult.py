"""thrombocytopenia_oncology_consult: the scenario and platelet draws, the orders and the note
phrasings its checkpoints must judge on each branch (EDTA pseudothrombocytopenia, ITP, marrow
infiltration by metastatic breast cancer)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "thrombocytopenia_oncology_consult"
ITP = 0        # immune thrombocytopenia, platelets 71
PSEUDO = 2     # pseudothrombocytopenia, platelets 91
MARROW = 3     # marrow infiltration, platelets 94


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "pseudo"}
    assert (vals["plt"], vals["plt_first"], vals["plt_per_ul"]) == (58, 67, 58000)
    assert vals["finding"] == ["pseudothrombocytopenia"]
    assert vals["other_findings"] == ["immune_thrombocytopenia"]
    wanted = vals["order_grader"]["all"]["of"][0]["ordered"]
    assert "http://loinc.org|777-3" in wanted["codes"] and "citrate" in wanted["text_contains"]


def test_branches_draw_their_scenarios():
    draws = {n: values(TASK, n) for n in range(20)}
    assert {v["scenario"]["kind"] for v in draws.values()} == {"pseudo", "itp", "marrow"}
    assert (draws[ITP]["scenario"]["kind"], draws[ITP]["plt"]) == ("itp", 71)
    assert (draws[PSEUDO]["scenario"]["kind"], draws[PSEUDO]["plt"]) == ("pseudo", 91)
    assert (draws[MARROW]["scenario"]["kind"], draws[MARROW]["plt"]) == ("marrow", 94)
    # observation is the one answer only well above 30 (ASH 2019 1b remark: over 60 years, a
    # count at the low end of >= 30 may justify corticosteroids), so every draw is 50 or more
    assert all(50 <= v["plt"] <= 94 for v in draws.values())
    assert draws[MARROW]["finding"] == ["marrow_infiltration"]
    assert draws[ITP]["other_findings"] == ["pseudothrombocytopenia", "marrow_infiltration",
                                            "therapy_related_myeloid_neoplasm"]


PSEUDO_OK = [
    "Platelets 58. EDTA-dependent pseudothrombocytopenia. Order a platelet count in a sodium "
    "citrate tube. No bone marrow biopsy. No steroids, no platelet transfusion.",
    """Assessment: platelet count 58 x10^9/L with platelet clumps on the smear - EDTA-induced
pseudothrombocytopenia; her true count is probably normal.
Plan:
- Repeat the platelet count in a light blue-top (sodium citrate) tube.
- She does not need a bone marrow biopsy.
- No prednisone, IVIG or platelet transfusion.""",
    "Plt 58K, clumped on smear -> pseudothrombocytopenia (lab artifact). Citrated platelet "
    "count ordered. No BMBx. No treatment needed.",
    "The platelet count of 58 is falsely low: the smear shows platelet clumps, so this is "
    "pseudothrombocytopenia, not ITP. I have ordered a platelet count in a citrate tube. A bone "
    "marrow biopsy is not indicated, and she needs no steroids or transfusion.",
    "| Item | Finding |\n|---|---|\n| Platelets | 58 K/uL |\n| Smear | clumps |\n\n"
    "Impression: EDTA-dependent platelet clumping (pseudothrombocytopenia).\n"
    "Plan: order a platelet count in a sodium citrate tube; no bone marrow biopsy; no ITP "
    "treatment.",
]
ITP_OK = [
    "Platelets 71. Presumed primary ITP. Order HIV and HCV antibody. Observation; no steroids "
    "unless platelets fall below 30 or she bleeds. No bone marrow biopsy. No platelet "
    "transfusion.",
    "Platelet count 71 x10^9/L. Findings most consistent with ITP, a diagnosis of exclusion. "
    "Plan: send HIV Ag/Ab and HCV antibody. Observe; no corticosteroids at this count. No bone "
    "marrow examination now; if she fails to respond to treatment, it would be considered.",
    "Platelets 71. Suspected ITP. Order HIV and hepatitis C antibody testing. Observation, no "
    "steroids. No marrow biopsy.",
    """Impression: isolated thrombocytopenia (platelets 71), consistent with immune
thrombocytopenia.
Recommendations:
1. HIV and HCV testing ordered.
2. No treatment now; start prednisone only if platelets drop below 30 or there is bleeding.
3. Bone marrow biopsy is not needed.""",
]
MARROW_OK = [
    "Platelets 94. Leukoerythroblastic smear concerning for bone marrow infiltration by "
    "metastatic breast cancer.\nOrder bone marrow aspirate and biopsy.\nOrder staging CT "
    "chest/abdomen/pelvis.\nNo steroids, no platelet transfusion.",
    "Platelet count 94. Marrow metastases likely. I ordered a bone marrow biopsy and CT CAP. "
    "No prednisone.",
    """Assessment: platelets 94 with a leukoerythroblastic picture - suspected myelophthisis
from recurrent breast cancer; this is not ITP.
Plan:
- Bone marrow aspirate and biopsy with ER/PR/HER2.
- PET/CT for staging.
- No corticosteroids, no platelet transfusion.""",
]
# Review findings 3, 4, 6, 7: a CBC recount in citrate, a suspected (not yet confirmed)
# diagnosis, the marrow question answered in other words, a cord-compression safety net.
PSEUDO_OK += [
    "Platelets 58. EDTA-dependent pseudothrombocytopenia. Repeat CBC in a sodium citrate tube. "
    "She does not need a bone marrow biopsy.",
    "Platelets 58. EDTA-dependent pseudothrombocytopenia. Repeat the platelet count with a "
    "citrate tube. A bone marrow biopsy is not indicated.",
    "Platelets 58. EDTA-dependent pseudothrombocytopenia. Repeat CBC drawn in a blue-top (sodium "
    "citrate) tube. Bone marrow examination is unnecessary.",
    "Platelets 58. Suspected EDTA-dependent pseudothrombocytopenia; confirm with a platelet count "
    "in a sodium citrate tube. There is no indication for a bone marrow biopsy.",
    "Platelets 58. Pseudothrombocytopenia is suspected. Order a platelet count in a sodium "
    "citrate tube. No BMBx.",
    "The platelet count of 58 is falsely low because the platelets clump in the EDTA tube. Order "
    "a platelet count in a sodium citrate tube. No bone marrow biopsy.",
    "Platelets 58. EDTA-dependent pseudothrombocytopenia.\n\n## Orders placed\n- [x] Platelet "
    "count, sodium citrate (light blue-top) tube - paired with an EDTA tube, counted within 1 h"
    "\n\nNo bone marrow biopsy.",
]
ITP_OK += [
    "Platelets 71. ITP. HIV and HCV testing ordered. Observation. A bone marrow biopsy is not "
    "needed for typical ITP; reconsider if other cytopenias appear.",
    "Platelets 71. Isolated thrombocytopenia consistent with immune thrombocytopenia. Platelet "
    "clumping was excluded on the smear, and there is no sign of marrow infiltration by breast "
    "cancer. HIV and HCV testing ordered. Observation. No bone marrow biopsy.",
    "Platelets 71. Primary ITP. No platelet clumps, so not pseudothrombocytopenia; no features of "
    "a therapy-related myeloid neoplasm. HIV and HCV testing ordered. Observation. Bone marrow "
    "biopsy is not needed now; it would be considered only if she fails treatment.",
]
MARROW_OK += [
    "Platelets 94. Leukoerythroblastic picture: bone marrow infiltration by metastatic breast "
    "cancer. Order bone marrow aspirate and biopsy. Order staging CT chest, abdomen and pelvis. "
    "No prednisone. If she develops leg weakness, start dexamethasone and get an emergency MRI.",
    "Platelets 94. Suspected bone marrow infiltration by metastatic breast cancer; the "
    "differential includes a therapy-related myeloid neoplasm. Order bone marrow aspirate and "
    "biopsy with cytogenetics. Order CT chest, abdomen and pelvis. No steroids, no platelet "
    "transfusion.",
]
CORRECT = ([(None, n) for n in PSEUDO_OK] + [(ITP, n) for n in ITP_OK]
           + [(MARROW, n) for n in MARROW_OK])

WRONG = [
    # pseudo: wrong count, called ITP, EDTA recount, marrow biopsy, steroids, transfusion
    (None, "thrombocytopenia_interpreted",
     "Platelets 45. Pseudothrombocytopenia. Order a citrated platelet count. No bone marrow "
     "biopsy."),
    (None, "thrombocytopenia_interpreted",
     "Platelets 58. Likely ITP. Order a citrated platelet count. No bone marrow biopsy."),
    (None, "thrombocytopenia_interpreted",
     "Platelets 58. Thrombocytopenia of unclear cause. Order a citrated platelet count. No bone "
     "marrow biopsy."),
    (None, "workup_documented",
     "Platelets 58. Pseudothrombocytopenia. Repeat the CBC in 2 weeks. No bone marrow biopsy."),
    (None, "workup_documented",
     "Platelets 58. Pseudothrombocytopenia. Order a citrated platelet count. Start prednisone "
     "1 mg/kg. No bone marrow biopsy."),
    (None, "workup_documented",
     "Platelets 58. Pseudothrombocytopenia. Order a citrated platelet count. No bone marrow "
     "biopsy. Transfuse platelets if the count is below 50."),
    (None, "workup_documented",
     "Platelets 58. Pseudothrombocytopenia. Order a citrated platelet count. Consider IVIG. No "
     "bone marrow biopsy."),
    (None, "marrow_question_answered",
     "Platelets 58. Pseudothrombocytopenia. Order a citrated platelet count. Bone marrow biopsy "
     "to exclude recurrence."),
    (None, "marrow_question_answered",
     "Platelets 58. Pseudothrombocytopenia. Order a citrated platelet count. Consider a bone "
     "marrow biopsy given her cancer history."),
    # itp: steroids at >= 30, missing HIV, marrow biopsy, called pseudo
    (ITP, "workup_documented",
     "Platelets 71. ITP. Order HIV and HCV testing. Start prednisone 1 mg/kg daily. No marrow "
     "biopsy."),
    (ITP, "workup_documented",
     "Platelets 71. ITP. Order HCV testing. Observation. No marrow biopsy."),
    (ITP, "workup_documented",
     "Platelets 71. ITP. Order HIV and HCV testing. Observation; consider IVIG. No marrow "
     "biopsy."),
    (ITP, "marrow_question_answered",
     "Platelets 71. ITP. Order HIV and HCV testing. Observation. Bone marrow biopsy to exclude "
     "metastatic disease."),
    (ITP, "thrombocytopenia_interpreted",
     "Platelets 71. Pseudothrombocytopenia. Order HIV and HCV testing. Observation. No marrow "
     "biopsy."),
    (ITP, "thrombocytopenia_interpreted",
     "Platelets 80. ITP. Order HIV and HCV testing. Observation. No marrow biopsy."),
    # marrow: called ITP, no biopsy, no staging, steroids, transfusion
    (MARROW, "thrombocytopenia_interpreted",
     "Platelets 94. Likely ITP. Order bone marrow biopsy. CT chest abdomen pelvis."),
    (MARROW, "workup_documented",
     "Platelets 94. Marrow infiltration.\nCT CAP.\nNo bone marrow biopsy needed."),
    (MARROW, "marrow_question_answered",
     "Platelets 94. Marrow infiltration. Order bone marrow biopsy. No imaging needed."),
    (MARROW, "workup_documented",
     "Platelets 94. Marrow infiltration. Order bone marrow biopsy and CT CAP. Start prednisone "
     "1 mg/kg."),
    (MARROW, "workup_documented",
     "Platelets 94. Marrow infiltration likely. Order bone marrow biopsy and CT CAP. Transfuse "
     "platelets before the biopsy."),
]

# Review findings 5, 6, 7, 9: wrong diagnoses beside the right one, the marrow question left
# unanswered, ITP treatment in the marrow branch, platelets given before the marrow.
WRONG += [
    (None, "marrow_question_answered",
     "Platelets 58. Pseudothrombocytopenia. Repeat platelet count in a citrate tube."),
    (None, "thrombocytopenia_interpreted",
     "Platelets 58. Drug-induced thrombocytopenia from anastrozole is most likely; the clumps are "
     "incidental. No evidence of marrow infiltration or ITP. Order a platelet count in a sodium "
     "citrate tube. No bone marrow biopsy."),
    (ITP, "thrombocytopenia_interpreted",
     "Platelets 71. Pseudothrombocytopenia is most likely; ITP is the alternative. HIV and HCV "
     "testing ordered. Observation. No bone marrow biopsy."),
    (ITP, "marrow_question_answered",
     "Platelets 71. ITP. HIV and HCV testing ordered. Observation."),
    (ITP, "marrow_question_answered",
     "Platelets 71. ITP. HIV and HCV testing ordered. Observation. I would do a bone marrow "
     "biopsy."),
    (ITP, "marrow_question_answered",
     "Platelets 71. ITP. HIV and HCV testing ordered. Observation. She should have a bone marrow "
     "biopsy."),
    (ITP, "workup_documented",
     "Platelets 71. ITP. HIV and HCV testing ordered. Given her age over 60, a short course of "
     "prednisone is reasonable. No bone marrow biopsy."),
    (MARROW, "thrombocytopenia_interpreted",
     "Platelets 94. Leukoerythroblastic smear suggests primary myelofibrosis; marrow involvement "
     "by breast cancer is unlikely. Order bone marrow biopsy. CT chest, abdomen and pelvis."),
    (MARROW, "thrombocytopenia_interpreted",
     "Platelets 94. Therapy-related MDS most likely; bone marrow metastasis cannot be excluded. "
     "Order bone marrow biopsy. CT chest, abdomen and pelvis."),
    (MARROW, "workup_documented",
     "Platelets 94. Bone marrow infiltration. Order bone marrow aspirate and biopsy. Order staging "
     "CT chest, abdomen and pelvis. Start dexamethasone 40 mg daily for 4 days."),
    (MARROW, "workup_documented",
     "Platelets 94. Bone marrow infiltration. Order bone marrow aspirate and biopsy. Order staging "
     "CT chest, abdomen and pelvis. If platelets fall below 30, start prednisone."),
    (MARROW, "workup_documented",
     "Platelets 94. Bone marrow infiltration. Order bone marrow aspirate and biopsy. Order staging "
     "CT chest, abdomen and pelvis. Give one unit of platelets before the bone marrow biopsy."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


# Phrasings the shared note reader once misread, now read: a bare 'HCV' as the test, 'nothing
# to suggest X', 'redraw', SI 'G/L', a 'Why I do not think this is X:' label, the last value of
# a dated spoken trend, a bold numbered question that ends the 'Background:' above it.
CORRECT += [
    (ITP, "Platelets 71. ITP. Send HIV and HCV. Observation. No bone marrow biopsy."),
    (ITP, "Platelets 71. ITP. I have ordered HIV and hepatitis C serologies. Observation. No bone "
     "marrow biopsy."),
    (ITP, "Platelets 71. Primary ITP. Nothing to suggest marrow infiltration. HIV and HCV testing "
     "ordered. Observation. No bone marrow biopsy."),
    (None, "Platelets 58. EDTA-dependent pseudothrombocytopenia. Redraw the CBC in citrate. No "
     "bone marrow biopsy."),
    (None, "Platelets 58 G/L. EDTA-dependent pseudothrombocytopenia. Order a platelet count in a "
     "sodium citrate tube. No bone marrow biopsy."),
    (None, "Platelets 58. EDTA-dependent pseudothrombocytopenia.\nWhy I do not think this is "
     "immune thrombocytopenia (ITP): ITP is a diagnosis of exclusion and requires a genuinely low "
     "count.\nOrder a platelet count in a sodium citrate tube. No bone marrow biopsy."),
    (None, "Platelet count was 238 a year ago, then 67 on February 17 and 58 on March 6. "
     "EDTA-dependent pseudothrombocytopenia. Order a platelet count in a sodium citrate tube. No "
     "bone marrow biopsy."),
    (None, "Background: breast cancer 2021. Platelets 58. EDTA-dependent pseudothrombocytopenia."
     "\n\n**Q1. Does she need a bone marrow biopsy?**\nNo.\n\n**Q2. What have I ordered?**\nA "
     "platelet count in a sodium citrate (light blue-top) tube."),
]
WRONG += [
    # 'I suspect X' is the consultant's working diagnosis
    (ITP, "thrombocytopenia_interpreted",
     "Platelets 71. Possible ITP, but I suspect early therapy-related MDS after her chemotherapy. "
     "HIV and HCV testing ordered. Observation. No bone marrow biopsy."),
]
test_read_now_correct, test_read_now_wrong = note_probes(TASK, CORRECT[-8:], WRONG[-1:])

# Phrasings the shared note reader misreads today (reported; strict xfail, so that a reader fix
# shows up here). Correct notes that fail:
# 'no clumps to suggest X' negates X
CORRECT += [(ITP, "Platelets 71. Primary ITP. No clumps to suggest pseudothrombocytopenia. HIV "
                  "and HCV testing ordered. Observation. No bone marrow biopsy.")]
READER_GAPS_CORRECT = [
    # an exception clause keeps the avoid decision from being read
    (ITP, "marrow_question_answered",
     "Platelets 71. ITP. HIV and HCV testing ordered. Observation. No bone marrow biopsy unless "
     "she fails to respond to treatment."),
]
# Wrong notes that pass:
READER_GAPS_WRONG = [
    # 'I would <verb> X' is not read as a plan
    (None, "workup_documented",
     "Platelets 58. Pseudothrombocytopenia. Order a platelet count in a citrate tube. No bone "
     "marrow biopsy. If the citrate count is still low, I would transfuse platelets."),
    (ITP, "workup_documented",
     "Platelets 71. ITP. HIV and HCV testing ordered. Observation. No bone marrow biopsy. I would "
     "transfuse platelets."),
    # a past-tense 'after transfusing' is not read as a plan
    (MARROW, "workup_documented",
     "Platelets 94. Bone marrow infiltration. Bone marrow biopsy ordered after transfusing one "
     "unit of platelets. Order staging CT chest, abdomen and pelvis."),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "target", "note"), READER_GAPS_CORRECT)
def test_reader_gaps_correct(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is True


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "target", "note"), READER_GAPS_WRONG)
def test_reader_gaps_wrong(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (ITP, PSEUDO, MARROW), [None, ITP, MARROW]))


CITRATE = service_request("777-3", "loinc", "laboratory",
                          display="Platelet count", note="Collect in a sodium citrate tube.")
EDTA_RECOUNT = service_request("777-3", "loinc", "laboratory", display="Platelet count")
CITRATE_CPT = service_request("85049", "cpt", "laboratory",
                              display="Platelet count, automated - light blue-top tube")
MARROW_BX = service_request("38222", "cpt", "procedure",
                            display="Diagnostic bone marrow; biopsy(ies) and aspiration(s)")
MARROW_TEXT = service_request("38221", "cpt", "procedure", display="Bone marrow biopsy")
HIV = service_request("56888-1", "loinc", "laboratory")
HCV = service_request("13955-0", "loinc", "laboratory")
TRANSFUSION = service_request("36430", "cpt", "procedure", display="Platelet transfusion")
# Review findings 3 and 8: the recount run as a CBC in citrate; a must-not placed under
# another order category (referral, laboratory) or as IVIG.
CBC_CITRATE = service_request("58410-2", "loinc", "laboratory", display="CBC panel",
                              note="Draw in a light blue-top sodium citrate tube")
CBC_CITRATE_CPT = service_request("85025", "cpt", "laboratory",
                                  display="CBC - sodium citrate tube")
CBC_EDTA = service_request("85027", "cpt", "laboratory", display="CBC")
MARROW_REFERRAL = service_request("3457005", "snomed", "referral",
                                  display="Bone marrow biopsy", specialty="hematology")
TRANSFUSION_LAB = service_request("12719002", "snomed", "laboratory",
                                  display="Platelet transfusion")
IVIG = service_request("3457005", "snomed", "procedure", display="IVIG infusion 1 g/kg")
# A laboratory order whose note says no marrow is needed is not a marrow order.
CITRATE_NO_MARROW = service_request("777-3", "loinc", "laboratory", display="Platelet count",
                                    note="Sodium citrate tube; no bone marrow biopsy needed.")
PREDNISONE = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient_id}", "medication_code": "312615", "dose_value": 60,
    "dose_unit": "mg", "route": "oral", "frequency": 1, "period_unit": "day",
    "duration_days": 14}}


def test_orders_pseudo():
    assert run_actions(TASK, [CITRATE])["workup_ordered"]
    assert run_actions(TASK, [CITRATE_CPT])["workup_ordered"]
    assert run_actions(TASK, [CBC_CITRATE])["workup_ordered"]
    assert run_actions(TASK, [CBC_CITRATE_CPT])["workup_ordered"]
    assert run_actions(TASK, [CITRATE_NO_MARROW])["workup_ordered"]
    assert not run_actions(TASK, [EDTA_RECOUNT])["workup_ordered"]     # clumps again in EDTA
    assert not run_actions(TASK, [CBC_EDTA])["workup_ordered"]
    for bad in (MARROW_BX, TRANSFUSION, PREDNISONE, MARROW_REFERRAL, TRANSFUSION_LAB, IVIG):
        assert not run_actions(TASK, [CITRATE, bad])["workup_ordered"], bad


def test_orders_itp_and_marrow():
    assert run_actions(TASK, [HIV, HCV], ITP)["workup_ordered"]
    assert not run_actions(TASK, [HCV], ITP)["workup_ordered"]
    for bad in (MARROW_BX, PREDNISONE, TRANSFUSION, MARROW_REFERRAL, TRANSFUSION_LAB, IVIG):
        assert not run_actions(TASK, [HIV, HCV, bad], ITP)["workup_ordered"], bad
    assert run_actions(TASK, [MARROW_BX], MARROW)["workup_ordered"]
    assert run_actions(TASK, [MARROW_TEXT], MARROW)["workup_ordered"]
    assert not run_actions(TASK, [CITRATE], MARROW)["workup_ordered"]
    for bad in (PREDNISONE, TRANSFUSION, TRANSFUSION_LAB, IVIG):
        assert not run_actions(TASK, [MARROW_BX, bad], MARROW)["workup_ordered"], bad
