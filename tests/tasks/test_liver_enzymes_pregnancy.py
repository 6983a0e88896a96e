"""liver_enzymes_pregnancy: the scenario draws (cholestasis of pregnancy with bile acids below or
above 100 umol/L, HELLP syndrome) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, oracle_note, values

TASK = "liver_enzymes_pregnancy"
ICP_OTHER = 0       # cholestasis, bile acids 83 umol/L, 73 kg
HELLP = 1           # HELLP syndrome, platelets 76
ICP_SEVERE = 3      # cholestasis, bile acids 172 umol/L, 85 kg


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "icp"}
    assert (vals["tba"], vals["weight_kg"], vals["ga_weeks"]) == (46, 78, 33)
    assert (vals["urso_min"], vals["urso_max"]) == (780, 1638)
    assert vals["delivery_weeks"] == {"min": 36, "max": 39}
    labels = [o["ordered"]["label"] for o in vals["urso_options"]]
    assert "ursodiol 300 mg 3-4 times a day" in labels
    assert vals["ursodiol_codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|858747"]


def test_branches_draw_their_scenarios():
    assert values(TASK, ICP_OTHER)["scenario"]["kind"] == "icp"
    assert values(TASK, HELLP)["scenario"]["kind"] == "hellp"
    severe = values(TASK, ICP_SEVERE)
    assert severe["scenario"]["kind"] == "icp_severe" and severe["tba"] >= 100
    assert severe["delivery_weeks"] == {"min": 35, "max": 36.9}
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"icp", "icp_severe", "hellp"}


CORRECT = [
    (None, "Intrahepatic cholestasis of pregnancy. Total bile acids 46 umol/L. Start ursodiol "
           "300 mg three times daily. Plan delivery at 37 weeks. No liver biopsy."),
    (None, """Assessment: ICP (obstetric cholestasis); not HELLP - BP and platelets normal.
Bile acids 46 µmol/L.
Plan:
- Ursodiol 500 mg twice daily
- Weekly bile acids and LFTs
- Delivery between 36 and 39 weeks
- Liver biopsy is not indicated."""),
    (None, "| Item | Plan |\n|---|---|\n| Diagnosis | intrahepatic cholestasis of pregnancy |\n"
           "| Total bile acids | 46 umol/L |\n| Ursodiol | 300 mg PO TID |\n"
           "| Delivery | 37-38 weeks |\n"),
    (ICP_SEVERE, "Intrahepatic cholestasis of pregnancy with bile acids 172 umol/L. Start "
                 "ursodiol 500 mg twice daily. Delivery at 36 weeks. No liver biopsy."),
    (HELLP, "This is HELLP syndrome, not cholestasis of pregnancy. Platelets 76. Send her to "
            "labor and delivery now. Do not start ursodiol. No liver biopsy."),
    (None, "Obstetric cholestasis (ICP). TBA 46 umol/L. UDCA 300 mg TID. Induction of labor at "
           "37 weeks' gestation. No liver biopsy."),
    (HELLP, "Assessment: preeclampsia with severe features / HELLP (platelet count 76 K/uL).\n"
            "Plan: she needs urgent transfer to L&D today. Ursodiol is not indicated."),
    (None, "Intrahepatic cholestasis of pregnancy, bile acids 46 umol/L. Ursodiol 300 mg three "
           "times daily. Delivery between 36 0/7 and 39 0/7 weeks. No liver biopsy."),
    (ICP_SEVERE, "Intrahepatic cholestasis of pregnancy, bile acids 172 umol/L. Ursodiol 300 mg "
                 "three times daily. Delivery at 36 0/7 weeks. No liver biopsy."),
    (None, "ICP. Bile acids 46. Ursodiol 300 mg PO TID. Deliver at 37 wk. No liver biopsy."),
]

WRONG = [
    # the gallstones blamed, cholestasis of pregnancy not named
    (None, "diagnosis_stated", "Symptomatic cholelithiasis with a passed stone. Total bile acids "
                               "46 umol/L. Start ursodiol 300 mg three times daily. Delivery at "
                               "37 weeks. No liver biopsy."),
    # cholestasis called HELLP
    (None, "diagnosis_stated", "HELLP syndrome. Total bile acids 46 umol/L. Start ursodiol 300 mg "
                               "three times daily. Delivery at 37 weeks. No liver biopsy."),
    # wrong bile acid value
    (None, "severity_stated", "Intrahepatic cholestasis of pregnancy. Total bile acids 64 umol/L. "
                              "Start ursodiol 300 mg three times daily. Delivery at 37 weeks."),
    # delivery too early for bile acids below 100
    (None, "delivery_plan_documented", "Intrahepatic cholestasis of pregnancy, bile acids 46 "
                                       "umol/L. Start ursodiol 300 mg three times daily. "
                                       "Delivery at 34 weeks."),
    # ursodiol under 10 mg/kg/day
    (None, "treatment_documented", "Intrahepatic cholestasis of pregnancy, bile acids 46 umol/L. "
                                   "Start ursodiol 250 mg twice daily. Delivery at 37 weeks."),
    # liver biopsy
    (None, "treatment_documented", "Intrahepatic cholestasis of pregnancy, bile acids 46 umol/L. "
                                   "Start ursodiol 300 mg three times daily. Delivery at 37 "
                                   "weeks. Arrange a liver biopsy."),
    # severe: delivery at 37-38 weeks
    (ICP_SEVERE, "delivery_plan_documented", "Intrahepatic cholestasis of pregnancy with bile "
                                             "acids 172 umol/L. Start ursodiol 500 mg twice "
                                             "daily. Delivery at 38 weeks."),
    # HELLP called cholestasis
    (HELLP, "diagnosis_stated", "Intrahepatic cholestasis of pregnancy. Platelets 76. Send her to "
                                "labor and delivery now. No liver biopsy."),
    # HELLP treated with ursodiol
    (HELLP, "treatment_documented", "HELLP syndrome. Platelets 76. Send her to labor and delivery "
                                    "now. Start ursodiol 300 mg three times daily."),
    # HELLP left to outpatient follow-up
    (HELLP, "delivery_plan_documented", "HELLP syndrome. Platelets 76. Follow up at her routine "
                                        "obstetrics visit next week. No ursodiol."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (ICP_OTHER, HELLP, ICP_SEVERE), [None, HELLP, ICP_SEVERE]))


_TRAILING_IF = pytest.mark.xfail(
    strict=True, reason="reader gap: a trailing 'if ...' clause after an obstetric_evaluation "
                        "acts phrase is not read as CONDITIONAL")


@pytest.mark.parametrize(("variant", "checkpoint", "note", "passed"), [
    # a conditional ursodiol for coexisting cholestasis is allowed in HELLP
    (HELLP, "treatment_documented", "If bile acids come back raised, ursodiol can be added "
     "after delivery.", True),
    # HELLP: the labor and delivery evaluation is today, not at the routine visit
    (HELLP, "delivery_plan_documented", "Send her to labor and delivery at her next obstetric "
     "visit in 9 days.", False),
    (HELLP, "delivery_plan_documented", "Schedule an evaluation on labor and delivery next week.",
     False),
    pytest.param(HELLP, "delivery_plan_documented", "Repeat labs and BP check in 2 days in clinic; "
                 "go to labor and delivery if the headache worsens.", False, marks=_TRAILING_IF),
    pytest.param(HELLP, "delivery_plan_documented", "Send her to labor and delivery if the "
                 "headache worsens.", False, marks=_TRAILING_IF),
    (HELLP, "delivery_plan_documented", "Send her to the obstetric emergency department today.",
     True),
    (HELLP, "delivery_plan_documented", "Direct her to OB triage today.", True),
    (HELLP, "delivery_plan_documented", "She needs urgent admission for delivery.", True),
    (HELLP, "delivery_plan_documented", "Admit to the hospital today under obstetrics.", True),
    # preeclampsia or HELLP named without being diagnosed
    (None, "diagnosis_stated", "Continue aspirin 81 mg for preeclampsia prevention.", True),
    (None, "diagnosis_stated", "ICP is associated with a higher risk of preeclampsia, so BP checks "
     "continue.", True),
    (None, "diagnosis_stated", "Obstetrics will monitor for preeclampsia.", True),
    (None, "diagnosis_stated", "Obstetrics should watch for HELLP.", True),
    # the incidental gallstones
    (None, "treatment_documented", "Refer for laparoscopic cholecystectomy this week and MRCP/ERCP "
     "to clear the duct.", False),
    (HELLP, "treatment_documented", "Also refer to surgery for cholecystectomy this week.", False),
    (None, "treatment_documented", "No cholecystectomy or ERCP is needed; if she develops biliary "
     "colic after delivery, refer to general surgery for cholecystectomy.", True),
    # biopsy and cholestyramine
    (None, "treatment_documented", "I would also like a percutaneous liver biopsy to exclude "
     "autoimmune hepatitis.", False),
    (None, "treatment_documented", "Ursodiol 300 mg three times daily or cholestyramine 4 g daily "
     "could be used.", False),
])
def test_reader_probes(variant, checkpoint, note, passed):
    verdicts = grade_note(TASK, oracle_note(TASK, variant) + "\n\n" + note + "\n", variant)
    assert verdicts[checkpoint] is passed
