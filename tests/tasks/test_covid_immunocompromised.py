"""covid_immunocompromised: the scenario draws, the derived eGFR and grader specs, and the note
phrasings its checkpoints must judge on each branch (renal-dose or full-dose nirmatrelvir/
ritonavir, remdesivir with rifampin)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, oracle_calls, run_calls, values

TASK = "covid_immunocompromised"
PAX_NORMAL = 0      # eGFR 97: nirmatrelvir 300 mg
PAX_MODERATE = 4    # eGFR 42: nirmatrelvir 150 mg
RIFAMPIN = 2        # rifampin for latent TB: remdesivir


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "pax_moderate"}
    assert vals["creatinine"] == 1.62 and vals["egfr"] == 46 and vals["egfr_old"] == 82
    assert vals["pax_dose"] == 150
    assert vals["simvastatin_grader"]["note_decision"]["action"] == ["stop"]
    order = vals["antiviral_order_grader"]["all"]["of"]
    pack = order[0]["any"]["of"][0]["ordered"]
    assert pack["dose"] == {"min": 150, "max": 150, "unit": "mg"}
    assert pack["codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|2587899"]
    assert pack["course_days"] == {"min": 5, "max": 5}
    assert "http://www.nlm.nih.gov/research/umls/rxnorm|197582" in order[-1]["not_ordered"]["codes"]
    note = vals["antiviral_note_grader"]["all"]["of"][0]["note_decision"]
    assert note["dose"] == {"value": 150, "unit": "mg", "secondary": 100}
    assert note["timing"] == {"min": 5, "max": 5, "unit": "d"}
    assert vals["simvastatin_grader"]["note_decision"]["opposite"] == [
        "continue", "keep_dose", "increase"]
    assert vals["simvastatin_grader"]["note_decision"]["resume_after"] == {"min": 5, "unit": "d"}


def test_branches_draw_their_scenarios():
    assert values(TASK, PAX_NORMAL)["scenario"]["kind"] == "pax_normal"
    assert values(TASK, PAX_NORMAL)["pax_dose"] == 300 and values(TASK, PAX_NORMAL)["egfr"] >= 60
    assert values(TASK, PAX_MODERATE)["scenario"]["kind"] == "pax_moderate"
    assert 30 <= values(TASK, PAX_MODERATE)["egfr"] < 60
    rif = values(TASK, RIFAMPIN)
    assert rif["scenario"]["kind"] == "rifampin" and rif["antiviral"] == "remdesivir"
    assert rif["simvastatin_grader"]["note_decision"]["action"] == ["continue"]
    assert rif["simvastatin_grader"]["note_decision"]["required"] is False
    remdesivir = rif["antiviral_note_grader"]["all"]["of"][0]["note_decision"]
    assert remdesivir["course"] == {"min": 3, "max": 3, "unit": "d"}
    for n in range(20):
        vals = values(TASK, n)
        kind = vals["scenario"]["kind"]
        assert (vals["egfr"] >= 60) == (kind == "pax_normal"), (n, kind, vals["egfr"])
        assert vals["egfr"] >= 30


CORRECT = [
    (None, "Immunocompromised (rituximab, B-cell depleted) with mild COVID-19 - treat. eGFR 46. "
           "Paxlovid renal dose: nirmatrelvir 150 mg + ritonavir 100 mg PO BID x 5 days. Hold "
           "simvastatin during and for 5 days after. No dexamethasone."),
    # 'Hold X starting tonight': 'starting tonight' times the hold, it starts nothing
    (None, """Assessment: mild COVID-19, immunocompromised host (anti-CD20 therapy).
Current eGFR 46 mL/min/1.73 m2.
Plan:
- Nirmatrelvir 150 mg / ritonavir 100 mg by mouth twice daily for 5 days.
- Hold simvastatin starting tonight until 5 days after the last dose.
- Steroids are not indicated since he does not need oxygen."""),
    # the dose band is not a second eGFR; 'renal dose pack' is Paxlovid, not a steroid pack;
    # a restart timed after the course does not undo the hold
    (None, "Immunocompromised (rituximab). Creatinine 1.62, eGFR 46 today. Nirmatrelvir 150 mg + "
           "ritonavir 100 mg PO BID x 5 days (Paxlovid renal dose pack; eGFR 30 to <60). Hold "
           "simvastatin; restart 5 days after completing the course. No dexamethasone."),
    (RIFAMPIN, "Immunocompromised on rituximab. Paxlovid is contraindicated with rifampin. "
               "Remdesivir IV for 3 days: 200 mg on day 1, then 100 mg daily. Continue rifampin. "
               "No dexamethasone."),
    (None, """| Item | Plan |
|---|---|
| Risk | immunosuppressed on rituximab maintenance |
| eGFR | 46 |
| Antiviral | nirmatrelvir/ritonavir 150/100 mg BID × 5 days |
| Simvastatin | stop for the course and 5 days after |
No dexamethasone."""),
    (PAX_NORMAL, "He is immunocompromised, so treat. eGFR 97. Start nirmatrelvir 300 mg with "
                 "ritonavir 100 mg twice daily for 5 days. Hold simvastatin. No steroids."),
    (RIFAMPIN, "Immunocompromised on rituximab. Paxlovid is contraindicated with rifampin. Give "
               "remdesivir 200 mg IV on day 1, then 100 mg IV on days 2 and 3. Continue rifampin "
               "and simvastatin. No dexamethasone."),
    (None, "Recommend Paxlovid, renally dosed (nirmatrelvir 150 mg/ritonavir 100 mg) every 12 "
           "hours for 5 days given eGFR of 46. He is severely immunocompromised from rituximab. "
           "Simvastatin: hold from 12 hours before the first dose until 5 days after completing. "
           "Dexamethasone is not recommended as he is not hypoxic."),
    (None, "Pt is B-cell depleted -> high risk. GFR 46 -> Paxlovid 150/100 mg BID x5d. Pause "
           "simvastatin x10 days. Avoid steroids unless he needs supplemental oxygen."),
    (None, "He is immunocompromised. eGFR 46 (it was 82 two years ago). Start nirmatrelvir 150 mg "
           "with ritonavir 100 mg twice daily for 5 days. Hold simvastatin. If he becomes hypoxic, "
           "he will need admission and dexamethasone."),
    (RIFAMPIN, "He is immunocompromised. Remdesivir IV 200 mg, then 100 mg, 100 mg (3 days). "
               "Stopping rifampin would not help because the induction persists for 2 weeks; do "
               "not stop rifampin. No dexamethasone. If remdesivir infusion cannot be arranged, "
               "molnupiravir 800 mg twice daily for 5 days."),
    # review finding 6: other words for immune compromise
    (None, "High risk of severe COVID-19 because of rituximab maintenance (B cells undetectable) "
           "and hypogammaglobulinemia (IgG 430). eGFR 46. Start nirmatrelvir 150 mg with ritonavir "
           "100 mg twice daily for 5 days. Hold simvastatin. No dexamethasone."),
    (None, "He has a weakened immune system from anti-CD20 therapy. eGFR 46. Start nirmatrelvir "
           "150 mg with ritonavir 100 mg twice daily for 5 days. Hold simvastatin. "
           "No dexamethasone."),
    # 'skip X' for a span of time ('starting tonight until ...') holds X
    (None, "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice "
           "daily for 5 days. Have him skip simvastatin starting tonight until 5 days after the "
           "course. No dexamethasone."),
    # a restart timed from the course end no earlier than the 5 days the label asks for
    (None, "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice "
           "daily for 5 days. Hold simvastatin; resume it 5 days after the last Paxlovid dose. "
           "No dexamethasone."),
    # a harm of steroids written with 'may' is no offer of steroids
    (None, "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice "
           "daily for 5 days. Hold simvastatin. Dexamethasone: no. Steroids offer no benefit and "
           "may delay viral clearance."),
]

WRONG = [
    # full dose despite eGFR 30 to <60
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 300 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin. No dexamethasone."),
    # steroid recommended without an oxygen requirement
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin. Add dexamethasone 6 mg daily for 5 days."),
    # molnupiravir instead of nirmatrelvir/ritonavir
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Start molnupiravir 800 mg twice daily for 5 days. Hold "
     "simvastatin. No dexamethasone."),
    # stale eGFR quoted as current
    (None, "choice_reasoned",
     "Immunocompromised. eGFR 82. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin. No dexamethasone."),
    # simvastatin continued with ritonavir
    (None, "simvastatin_plan_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Continue simvastatin. No dexamethasone."),
    # no immune status: treated as a healthy vaccinated adult
    (None, "high_risk_recognized",
     "He is not immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg "
     "twice daily for 5 days. Hold simvastatin. No dexamethasone."),
    # rifampin: Paxlovid anyway
    (RIFAMPIN, "antiviral_documented",
     "Immunocompromised. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily for 5 days. "
     "Continue rifampin. No dexamethasone."),
    # rifampin stopped to allow Paxlovid
    (RIFAMPIN, "choice_reasoned",
     "Immunocompromised. Stop rifampin. Give remdesivir 200 mg IV on day 1, then 100 mg IV on "
     "days 2 and 3. No dexamethasone."),
    # hedged or alternative plans
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Consider nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin. No steroids."),
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days, or molnupiravir if preferred. Hold simvastatin. No steroids."),
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin. A short prednisone burst is reasonable for the cough."),
    (RIFAMPIN, "antiviral_documented",
     "Immunocompromised. Remdesivir 200 mg IV day 1 then 100 mg IV days 2-3, or Paxlovid as an "
     "alternative. Continue rifampin. No steroids."),
    # review finding 4: a 10-day Paxlovid course
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 10 days. Hold simvastatin. No dexamethasone."),
    # rifampin: remdesivir named without a dose
    (RIFAMPIN, "antiviral_documented",
     "Immunocompromised. Paxlovid is contraindicated with rifampin. Start remdesivir. Continue "
     "rifampin. No dexamethasone."),
    # review finding 5: the inpatient 5-day remdesivir course (note_decision course)
    (RIFAMPIN, "antiviral_documented",
     "Immunocompromised. Paxlovid is contraindicated with rifampin. Remdesivir 200 mg IV daily "
     "for 5 days. Continue rifampin. No dexamethasone."),
    # the older eGFR written as current beside today's value
    (None, "choice_reasoned",
     "Immunocompromised. eGFR 46 today. His current eGFR is 82. Start nirmatrelvir 150 mg with "
     "ritonavir 100 mg twice daily for 5 days. Hold simvastatin. No dexamethasone."),
    # a day-numbered 5-day remdesivir course (its last day is its length)
    (RIFAMPIN, "antiviral_documented",
     "Immunocompromised. Paxlovid is contraindicated with rifampin. Remdesivir 200 mg IV on day "
     "1 then 100 mg IV daily on days 2 to 5. Continue rifampin. No dexamethasone."),
    # a 'Meds: hold ...' paragraph does not open a medication list over the next paragraph
    (None, "antiviral_documented",
     "Immunocompromised. eGFR 46. I have ordered nirmatrelvir 150 mg + ritonavir 100 mg twice "
     "daily for 5 days.\n\nMeds: hold simvastatin from tonight.\n\n"
     "Please give dexamethasone 6 mg daily for 5 days."),
    # simvastatin restarted before the 5 days after the course (resume_after)
    (None, "simvastatin_plan_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin during the 5 days and resume it the day after the last dose. "
     "No dexamethasone."),
    (None, "simvastatin_plan_documented",
     "Immunocompromised. eGFR 46. Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily "
     "for 5 days. Hold simvastatin. Restart simvastatin 2 days after completing Paxlovid. No "
     "dexamethasone."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (PAX_NORMAL, PAX_MODERATE, RIFAMPIN), [None, PAX_NORMAL, RIFAMPIN]))


@pytest.mark.parametrize(("replace", "passes"), [
    ({}, True),
    ({"duration_days": 10}, False),   # a 10-day course is not the 5-day course
    ({"duration_days": None}, False),  # nor is an open-ended prescription
    ({"dose_value": 300}, False),      # the full dose at eGFR 46
])
def test_the_antiviral_order_is_the_renal_dose_for_five_days(replace, passes):
    result = run_calls(TASK, oracle_calls(TASK, replace=replace))
    assert result.checkpoints["antiviral_ordered"]["passed"] is passes
