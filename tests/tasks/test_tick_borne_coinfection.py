"""tick_borne_coinfection: the scenario draws and the note phrasings its checkpoints must judge on
each branch (babesiosis, anaplasmosis, both)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "tick_borne_coinfection"
ANA = 1    # anaplasmosis only, platelets 64
BOTH = 0   # babesiosis and anaplasmosis, parasitemia 1.7%
BAB = 15   # babesiosis only, parasitemia 2.6%
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["kind"] == "babesiosis"
    assert (vals["babesia"], vals["anaplasma"]) == (True, False)
    assert vals["parasitemia"] == 2.4 and vals["platelets"] == 94
    assert vals["amox_action"] == ["continue"]
    assert vals["atovaquone_codes"] == [RX + "308429"]
    assert "Parasitemia 2.4%" in vals["smear_text"]


def test_branches_draw_their_scenarios():
    assert values(TASK, ANA)["scenario"]["kind"] == "anaplasmosis"
    assert values(TASK, ANA)["amox_action"] == ["stop"]
    assert values(TASK, BOTH)["scenario"]["kind"] == "both"
    assert values(TASK, BAB)["scenario"]["kind"] == "babesiosis"
    assert values(TASK, BAB)["parasitemia"] != values(TASK)["parasitemia"]
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("babesiosis") <= 4 and {"anaplasmosis", "both"} <= set(kinds)
    for n in range(20):
        vals = values(TASK, n)
        assert 1.2 <= vals["parasitemia"] < 4 and 61 <= vals["platelets"] <= 118


CORRECT = [
    (None, "Babesiosis (B. microti), parasitemia 2.4%; no anaplasmosis. Start atovaquone 750 mg "
           "PO q12h x 10 days. Start azithromycin 500 mg day 1 then 250 mg daily x 10 days. "
           "Continue amoxicillin to finish 14 days. No ceftriaxone. Do not repeat Lyme serology."),
    (None, """Assessment: babesiosis with Lyme disease; Anaplasma PCR not detected.
Parasitemia 2.4%.
Plan:
1. Atovaquone 750 mg PO q12h plus azithromycin 500 mg on day 1, then 250 mg daily, 10 days.
2. Continue amoxicillin 500 mg TID to complete 14 days.
3. Ceftriaxone is not indicated.
4. Lyme serology should not be repeated; it is not a test of cure."""),
    # reader gap: a plan verb outside a Plan section governs only the first coordinated drug
    pytest.param((None, "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg PO q12h + "
                        "azithromycin 500 mg day 1 then 250 mg daily. Continue amoxicillin. No "
                        "ceftriaxone. No repeat Lyme serology."),
                 marks=pytest.mark.xfail(strict=True, reason="start A + B: B ungoverned"),
                 id="coordinated_second_drug"),
    (None, """| Item | Plan |
|---|---|
| Diagnosis | babesiosis coinfection (Anaplasma PCR negative, so no anaplasmosis) |
| Parasitemia | 2.4% |
| Treatment | atovaquone 750 mg q12h with azithromycin 500 mg, then 250 mg daily, 7-10 days |
| Amoxicillin | continue to complete the 14-day course |
No Lyme serology is needed after treatment."""),
    (ANA, "Human granulocytic anaplasmosis with platelets 64; Babesia smear and PCR negative, so "
          "no babesiosis. Start doxycycline 100 mg twice daily for 10 days. Stop amoxicillin. "
          "No repeat Lyme testing."),
    (None, "Assessment: Babesia microti coinfection; Anaplasma PCR not detected. Parasitemia 2.4%, "
           "mild-moderate, so no exchange transfusion (only if parasitemia exceeds 10% or "
           "hemoglobin falls below 10 g/dL). Start atovaquone 750 mg PO q12h x 10 days. Start "
           "azithromycin 500 mg day 1 then 250 mg daily x 10 days. Continue amoxicillin to finish "
           "14 days. No ceftriaxone now; if he develops facial palsy, meningitis or heart block, "
           "he would need IV ceftriaxone 2 g daily. Do not repeat Lyme serology."),
    (ANA, "Assessment: Anaplasma phagocytophilum coinfection; platelets 64. Smear and Babesia PCR "
          "not detected. Start doxycycline 100 mg twice daily for 10 days. Stop amoxicillin. No "
          "ceftriaxone. No repeat Lyme serology."),
    # reader gap: a dash does not end the scope of the stop verb
    pytest.param((ANA, "Anaplasmosis, platelets 64; no babesiosis. Start doxycycline 100 mg twice "
                       "daily for 10 days. Stop amoxicillin - doxycycline covers Lyme. No "
                       "ceftriaxone. No repeat Lyme serology."),
                 marks=pytest.mark.xfail(strict=True, reason="stop A - B covers: B stopped"),
                 id="stop_dash_covers"),
    # reader gap: 'coinfection with A and B' names only A
    pytest.param((BOTH, "Dual coinfection with Babesia microti (parasitemia 1.7%) and Anaplasma "
                        "phagocytophilum. Start doxycycline 100 mg twice daily for 10 days. Start "
                        "atovaquone 750 mg BID. Start azithromycin 500 mg then 250 mg daily. Stop "
                        "amoxicillin. No repeat Lyme serology."),
                 marks=pytest.mark.xfail(strict=True, reason="coinfection with A and B: B unread"),
                 id="coinfection_with_a_and_b"),
    # shorthand drug names (task lexicon supplement) and a 10-day course written as d2-10
    (None, """Babesiosis, parasitemia 2.4%; no anaplasmosis.
Plan:
- Atovaquone 750 mg PO q12h w/ food + azithro 500 mg PO d1 then 250 mg daily d2-10. 10 d total.
- Amox: continue to finish the 14 d EM course; no ceftriaxone; no repeat Lyme serology."""),
    (ANA, """Anaplasmosis, platelets 64; smear and Babesia PCR negative, no babesiosis.
Plan: doxy 100 mg PO BID x 10 d. Stop amoxicillin. No ceftriaxone. No repeat Lyme serology."""),
    (None, "Babesiosis, parasitemia 2.4%; no anaplasmosis. Start atovaquone 750 mg every 12 "
           "hours for 10 days. Start azithromycin 500 mg then 250 mg daily for 10 days. Continue "
           "amoxicillin for the remaining 2 days of the 14-day course. No ceftriaxone. No repeat "
           "Lyme serology."),
    # 'Parasitemia <4%, SpO2 98%' (the 98 is the saturation's), 'Do not:' over its items, a
    # problem line 'A / B - excluded'
    (None, """#1 Babesiosis, parasitemia 2.4%. Parasitemia <4%, SpO2 98% -> outpatient.
- Start atovaquone 750 mg every 12 hours and azithromycin 500 mg then 250 mg daily for 10 days.
#2 Lyme disease - continue amoxicillin to finish the 14-day course.
Do not: give ceftriaxone (no neurologic Lyme); repeat Lyme serology (not a test of cure).
#3 Anaplasmosis / ehrlichiosis - excluded (PCRs not detected)."""),
    (BOTH, "Both babesiosis (parasitemia 1.7%) and anaplasmosis. Start doxycycline 100 mg BID for "
           "10 days. Start atovaquone 750 mg BID. Start azithromycin 500 mg then 250 mg daily. "
           "Stop amoxicillin. No repeat Lyme serology."),
]

WRONG = [
    # canonical: anaplasmosis called
    (None, "infection_identified",
     "Anaplasmosis. Parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily. Continue amoxicillin. No repeat Lyme serology."),
    # canonical: wrong parasitemia
    (None, "key_value_quoted",
     "Babesiosis, parasitemia 4.2%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily. Continue amoxicillin. No repeat Lyme serology."),
    # canonical: atovaquone once daily
    (None, "treatment_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg once daily and azithromycin 500 mg "
     "then 250 mg daily. Continue amoxicillin. No repeat Lyme serology."),
    # canonical: ceftriaxone offered
    (None, "treatment_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily. Continue amoxicillin. Switch to IV ceftriaxone 2 g daily if he "
     "prefers. No repeat Lyme serology."),
    # reader gap: 'switch X to Y' does not read Y as started
    pytest.param((ANA, "treatment_documented",
                  "Anaplasmosis, platelets 64. Start doxycycline 100 mg twice daily for 10 days. "
                  "Switch amoxicillin to IV ceftriaxone 2 g daily. No repeat Lyme serology."),
                 marks=pytest.mark.xfail(strict=True, reason="switch X to Y: Y not started"),
                 id="switch_to_ceftriaxone"),
    # canonical: exchange transfusion for mild-moderate babesiosis
    (None, "key_value_quoted",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily. Arrange RBC exchange transfusion today. Continue amoxicillin. "
     "No repeat Lyme serology."),
    (None, "key_value_quoted",
     "Babesiosis, parasitemia 2.4%. Recs:\n-> Atovaquone 750 mg PO q12h\n-> Start azithromycin "
     "500 mg day 1 then 250 mg daily\n-> Hematology/blood bank -> RBC exchange transfusion\n-> "
     "Continue amoxicillin. No repeat Lyme serology."),
    # reader gap: 'Admit for X' outside a Plan section is not read as planning X
    pytest.param((None, "key_value_quoted",
                  "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and "
                  "azithromycin 500 mg then 250 mg daily. Continue amoxicillin. No repeat Lyme "
                  "serology. Admit for red cell exchange transfusion."),
                 marks=pytest.mark.xfail(strict=True, reason="'Admit for X' not a plan verb"),
                 id="admit_for_exchange"),
    # canonical: 5-day course (IDSA 2020: 7-10 days)
    (None, "treatment_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours for 5 days. Start "
     "azithromycin 500 mg then 250 mg daily for 5 days. Continue amoxicillin. No repeat Lyme "
     "serology."),
    # canonical: 6-week course
    (None, "treatment_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg q12h for 6 weeks. Start "
     "azithromycin 500 mg then 250 mg daily for 6 weeks. Continue amoxicillin. No repeat Lyme "
     "serology."),
    # reader gap: a course written once after a coordinated regimen reaches neither drug
    pytest.param((None, "treatment_documented",
                  "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg q12h and azithromycin "
                  "500 mg then 250 mg daily, both for 6 weeks. Continue amoxicillin. No repeat "
                  "Lyme serology."),
                 marks=pytest.mark.xfail(strict=True, reason="trailing shared course unread"),
                 id="shared_course_6_weeks"),
    # canonical: amoxicillin continued past the 14-day EM course
    (None, "lyme_plan_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily for 10 days. Continue amoxicillin 500 mg TID for 4 weeks "
     "because of the coinfection. No repeat Lyme serology."),
    # reader gap: 'extend it to 28 days' (pronoun) is not read as the amoxicillin course
    pytest.param((None, "lyme_plan_documented",
                  "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and "
                  "azithromycin 500 mg then 250 mg daily for 10 days. Continue amoxicillin and "
                  "extend it to 28 days because of the coinfection. No repeat Lyme serology."),
                 marks=pytest.mark.xfail(strict=True, reason="'extend it to N days' unread"),
                 id="extend_it_28_days"),
    # canonical: amoxicillin stopped
    (None, "lyme_plan_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily. Stop amoxicillin. No repeat Lyme serology."),
    # canonical: repeat Lyme serology
    (None, "lyme_plan_documented",
     "Babesiosis, parasitemia 2.4%. Start atovaquone 750 mg every 12 hours and azithromycin "
     "500 mg then 250 mg daily. Continue amoxicillin. Repeat Lyme serology in 4 weeks to "
     "confirm cure."),
    # anaplasmosis: atovaquone-azithromycin added
    (ANA, "treatment_documented",
     "Anaplasmosis, platelets 64. Start doxycycline 100 mg twice daily for 10 days and "
     "atovaquone 750 mg every 12 hours with azithromycin. Stop amoxicillin. No repeat Lyme "
     "serology."),
    # anaplasmosis: amoxicillin continued
    (ANA, "lyme_plan_documented",
     "Anaplasmosis, platelets 64. Start doxycycline 100 mg twice daily for 10 days. Continue "
     "amoxicillin. No repeat Lyme serology."),
    # both: doxycycline missing
    (BOTH, "treatment_documented",
     "Babesiosis and anaplasmosis, parasitemia 1.7%. Start atovaquone 750 mg every 12 hours and "
     "azithromycin 500 mg then 250 mg daily. Stop amoxicillin. No repeat Lyme serology."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (ANA, BOTH, BAB), [None, ANA, BOTH, BAB]))
