"""inflammatory_arthritis_serology: the scenario draw (RA, RA with hepatitis B, parvovirus
arthritis), the 2010 ACR/EULAR score that moves with the joint count and serology level, and
the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "inflammatory_arthritis_serology"
HBV = 1        # hbv, >10 joints, low-positive serology: score 9
VIRAL = 2      # parvovirus B19 arthritis: score 4
RA_LOW = 8     # ra, 4-10 small joints, low-positive serology: score 7


def test_canonical_values():
    vals = values(TASK)
    assert vals["kind"] == "ra"
    assert (vals["joint_points"], vals["sero_points"], vals["duration_points"]) == (5, 3, 1)
    assert vals["score"] == 10
    assert vals["rf"] > 3 * vals["uln_rf"] and vals["ccp"] > 3 * vals["uln_ccp"]
    assert vals["methotrexate_rxnorm"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|105585"]


def test_branches_move_the_score_and_the_path():
    assert values(TASK, HBV)["kind"] == "hbv" and values(TASK, HBV)["score"] == 9
    assert values(TASK, VIRAL)["kind"] == "viral" and values(TASK, VIRAL)["score"] == 4
    low = values(TASK, RA_LOW)
    assert low["kind"] == "ra" and low["score"] == 7
    assert low["uln_rf"] < low["rf"] <= 3 * low["uln_rf"]
    assert {values(TASK, n)["score"] for n in range(20)} == {4, 7, 8, 9, 10}


RA_TAIL = ("Order x-rays of both hands and feet. Urgent referral to rheumatology.")

CORRECT = [
    (None, "Seropositive rheumatoid arthritis. 2010 ACR/EULAR score 10/10. Start methotrexate "
           "15 mg by mouth once weekly with folic acid 1 mg daily. " + RA_TAIL),
    (None, "Assessment: seropositive RA (RF and anti-CCP high positive).\nACR/EULAR score: 10 "
           "points.\nPlan:\n- Methotrexate 15 mg PO weekly + folic acid 1 mg daily\n"
           "- Prednisone 10 mg daily x 4 weeks as a bridge\n- Hand and foot radiographs\n"
           "- Refer to rheumatology, expedited"),
    (RA_LOW, "Early rheumatoid arthritis, low-positive RF and anti-CCP. ACR/EULAR score 7 - "
             "criteria met. Start methotrexate 10 mg once weekly and folic acid 1 mg daily. "
             + RA_TAIL),
    (HBV, "Seropositive rheumatoid arthritis with chronic hepatitis B (HBsAg positive). 2010 "
          "ACR/EULAR score 9. Do not start methotrexate. Order HBV DNA and refer to hepatology "
          "before any immunosuppression. " + RA_TAIL),
    (VIRAL, "Parvovirus B19 arthritis after her son's fifth disease; not rheumatoid arthritis. "
            "Start naproxen 500 mg twice daily. No methotrexate and no prednisone. If synovitis "
            "persists beyond 6 weeks, refer to rheumatology."),
    # other phrasings of the score and the plan
    (None, "Dx: seropositive RA. 2010 ACR/EULAR: 10/10. MTX 15 mg PO once weekly + folic acid "
           "1 mg daily. XR hands and feet. Refer to rheumatology, urgent."),
    (None, "Impression: rheumatoid arthritis, seropositive (RF+, anti-CCP+). She scores 10 on "
           "the 2010 ACR/EULAR criteria. Start methotrexate 15 mg once weekly with folic acid 1 "
           "mg daily. Prednisone 10 mg daily for 4 weeks. " + RA_TAIL),
    # HBV: a later methotrexate start once hepatology has begun antiviral therapy is allowed
    (HBV, "Seropositive rheumatoid arthritis with chronic hepatitis B (HBsAg positive). ACR/EULAR "
          "score 9. Order HBV DNA and refer to hepatology. Once hepatology has started entecavir, "
          "methotrexate can be started. " + RA_TAIL),
    (VIRAL, "Acute parvovirus B19 infection with polyarthritis - not RA. 2010 ACR/EULAR criteria "
            "not met (score 4/10). Naproxen 500 mg BID. No DMARD or steroids. If it persists "
            "beyond 6 weeks, reassess for RA and consider methotrexate."),
    # review findings 5-9: bare ACR/EULAR, HBsAg wording, tablet count, clinic visit, taper
    (None, "Seropositive RA. ACR/EULAR 10. Methotrexate 15 mg PO once weekly (6 x 2.5 mg, "
           "Mondays) with folic acid 1 mg daily. " + RA_TAIL),
    (HBV, "Seropositive rheumatoid arthritis. Positive HBsAg and anti-HBc. ACR/EULAR 9. Do not "
          "start methotrexate. Order HBV DNA and refer to hepatology. " + RA_TAIL),
    (None, "Seropositive rheumatoid arthritis. 2010 ACR/EULAR score 10/10. Start methotrexate "
           "15 mg once weekly with folic acid 1 mg daily and "
           "prednisone 10 mg daily; rheumatology will titrate methotrexate and taper the "
           "prednisone. Order x-rays of both hands and feet. She will follow up in my "
           "rheumatology clinic in 2-4 weeks."),
]

WRONG = [
    (None, "acr_eular_scored",
     "Seropositive rheumatoid arthritis. 2010 ACR/EULAR score 8. Start methotrexate 15 mg once "
     "weekly with folic acid 1 mg daily. " + RA_TAIL),
    (None, "treatment_plan_documented",
     "Seropositive rheumatoid arthritis. ACR/EULAR score 10. Start methotrexate 15 mg daily "
     "with folic acid 1 mg daily. " + RA_TAIL),
    (None, "treatment_plan_documented",
     "Seropositive rheumatoid arthritis. ACR/EULAR score 10. Consider methotrexate once "
     "rheumatology sees her. " + RA_TAIL),
    (None, "referral_documented",
     "Seropositive rheumatoid arthritis. ACR/EULAR score 10. Start methotrexate 15 mg once "
     "weekly with folic acid 1 mg daily. No imaging is needed. Rheumatology referral is not "
     "necessary."),
    (None, "diagnosis_stated",
     "Parvovirus arthritis, self-limited. ACR/EULAR score 10. Start methotrexate 15 mg once "
     "weekly with folic acid 1 mg daily. " + RA_TAIL),
    (RA_LOW, "acr_eular_scored",
     "Seropositive rheumatoid arthritis. 2010 ACR/EULAR score 10/10. Start methotrexate 15 mg "
     "once weekly with folic acid 1 mg daily. " + RA_TAIL),
    (HBV, "treatment_plan_documented",
     "Seropositive rheumatoid arthritis with chronic hepatitis B. ACR/EULAR score 9. Start "
     "methotrexate 15 mg once weekly with folic acid; order HBV DNA; refer to hepatology. "
     + RA_TAIL),
    (HBV, "diagnosis_stated",
     "Seropositive rheumatoid arthritis. ACR/EULAR score 9. Hold methotrexate. Order HBV DNA "
     "and refer to hepatology. " + RA_TAIL),
    (VIRAL, "treatment_plan_documented",
     "Parvovirus B19 arthritis. Start naproxen 500 mg twice daily and prednisone 10 mg daily "
     "for 2 weeks."),
    (VIRAL, "treatment_plan_documented",
     "Parvovirus B19 arthritis. Naproxen 500 mg twice daily; hydroxychloroquine 200 mg twice "
     "daily is also reasonable."),
    (VIRAL, "diagnosis_stated",
     "Early rheumatoid arthritis, possibly triggered by parvovirus. Naproxen 500 mg twice "
     "daily. No methotrexate for now."),
    (VIRAL, "diagnosis_stated",
     "Post-viral arthritis vs early RA. Naproxen 500 mg twice daily. No DMARDs."),
    (VIRAL, "acr_eular_scored",
     "Parvovirus B19 arthritis. ACR/EULAR score 7. Naproxen 500 mg twice daily. No DMARDs."),
    # must-not allowances and a high-dose bridge
    (None, "treatment_plan_documented",
     "Seropositive rheumatoid arthritis. ACR/EULAR score 10. Start methotrexate 15 mg once "
     "weekly with folic acid 1 mg daily. Prednisone 40 mg daily as a bridge. " + RA_TAIL),
    (HBV, "treatment_plan_documented",
     "Seropositive rheumatoid arthritis with chronic hepatitis B. ACR/EULAR score 9. Order HBV "
     "DNA and refer to hepatology. Methotrexate could be considered. " + RA_TAIL),
    (HBV, "treatment_plan_documented",
     "Seropositive rheumatoid arthritis with chronic hepatitis B. ACR/EULAR score 9. Order HBV "
     "DNA and refer to hepatology. Start methotrexate 15 mg weekly once the HBV DNA is back. "
     + RA_TAIL),
    (HBV, "referral_documented",
     "Seropositive rheumatoid arthritis with chronic hepatitis B. ACR/EULAR score 9. Do not "
     "start methotrexate. Order HBV DNA. " + RA_TAIL),
    (VIRAL, "treatment_plan_documented",
     "Parvovirus B19 arthritis. Naproxen 500 mg twice daily. Prednisone 10 mg daily would also "
     "be reasonable."),
    # review findings 1, 2 and 8; the stale-RF seronegative reading (dev corpus w01)
    (None, "diagnosis_stated", "Seronegative RA (RF 8). 2010 ACR/EULAR score 10/10. Start "
     "methotrexate 15 mg once weekly with folic acid 1 mg daily. " + RA_TAIL),
    (None, "treatment_plan_documented", "Seropositive rheumatoid arthritis. 2010 ACR/EULAR "
                                        "score 10/10. Start methotrexate 15 mg once weekly with "
     "folic acid 1 mg daily. Bridge with prednisone 30 mg daily for 2 weeks. " + RA_TAIL),
    (None, "treatment_plan_documented", "Seropositive rheumatoid arthritis. 2010 ACR/EULAR "
                                        "score 10/10. Start methotrexate 15 mg once weekly with "
     "folic acid 1 mg daily. Prednisone 15 mg twice daily for 2 weeks. " + RA_TAIL),
    (None, "treatment_plan_documented", "Seropositive rheumatoid arthritis. 2010 ACR/EULAR "
                                        "score 10/10. Start methotrexate 15 mg once weekly. "
     "Folic acid is not needed. " + RA_TAIL),
    (HBV, "treatment_plan_documented", "Seropositive RA with chronic hepatitis B. ACR/EULAR "
     "score 9. Do not start methotrexate now. Order HBV DNA. Prednisone 40 mg daily for the "
     "flare. " + RA_TAIL),
    (VIRAL, "referral_documented",
     "Parvovirus B19 arthritis. No NSAIDs. No methotrexate and no prednisone."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (HBV, VIRAL, RA_LOW), [None, HBV, VIRAL, RA_LOW]))
