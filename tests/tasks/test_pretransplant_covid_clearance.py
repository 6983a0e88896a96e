"""pretransplant_covid_clearance: the scenario draw (active infection or residual RNA), and the
note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "pretransplant_covid_clearance"
SHED = 0  # residual RNA after COVID-19 52 days ago, Ct 37


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "acute"}
    assert vals["ct"] == 21
    assert vals["status_concept"] == ["sars_cov_2_active_infection"]
    assert vals["decision_concept"] == ["transplant_deferred_covid"]
    assert vals["remdesivir_codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|2284960"]


def test_branches_draw_their_scenarios():
    shed = values(TASK, SHED)
    assert shed["scenario"]["kind"] == "shedding"
    assert shed["ct"] == shed["ct_high"] and shed["ct"] >= 34
    assert shed["decision_concept"] == ["transplant_proceed_covid"]
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"acute", "shedding"}


CORRECT = [
    (None, "Active COVID-19: new symptoms, Ct 21. Postpone the transplant at least 21 days. Start "
           "remdesivir 200 mg IV day 1 then 100 mg days 2-3. No dexamethasone."),
    (SHED, "Persistent RNA shedding, not active COVID-19. Ct 37. Proceed with the transplant as "
           "scheduled. No antiviral. No dexamethasone."),
    (SHED, "Persistent RNA shedding, not active COVID-19. Ct 37. Proceed with the living-donor "
           "kidney "
           "transplant as scheduled. No antiviral. No dexamethasone. If new fever or respiratory "
           "symptoms develop before surgery, repeat a SARS-CoV-2 PCR and call ID."),
    (None, "Active COVID-19, Ct 21. Defer the LDKT by at least 21 days. Start remdesivir 200 mg IV "
           "day 1 then 100 mg IV days 2-3. No dexamethasone."),
    (None, "Active COVID-19, Ct 21. Postpone the transplant. Start nirmatrelvir-ritonavir "
           "(Paxlovid) "
           "renally dosed for hemodialysis: 300/100 mg on day 1, then 150/100 mg daily on days "
           "2-5, "
           "after dialysis. Hold atorvastatin during the course."),
    (None, "Active COVID-19, Ct 21. Postpone the transplant. Start remdesivir 200 mg IV day 1 then "
           "100 mg IV days 2-3. No dexamethasone now; dexamethasone 6 mg daily only if he becomes "
           "hypoxemic and needs oxygen."),
    (None, "Active COVID-19 (the cycle threshold of 21 is low). Postpone the transplant. Start "
           "remdesivir 200 mg IV d1, then 100 mg IV d2-3 (can give at HD)."),
    (SHED, "Assessment: residual RNA shedding, not active infection, Ct 37. Proceed with the "
           "transplant as scheduled. No antiviral. No dexamethasone."),
    (SHED, "## Chart review\n- [x] Transplant plan: LDKT (brother), basiliximab induction\n"
           "## Assessment\nPersistent RNA shedding (cycle threshold 37), not active COVID-19.\n"
           "## Plan\nProceed with the transplant as scheduled. No antiviral. No dexamethasone."),
]

WRONG = [
    (None, "transplant_decision_documented",
     "Active COVID-19, Ct 21. Proceed with the transplant as scheduled. Start remdesivir 200 mg "
     "IV day 1 then 100 mg days 2-3."),
    (None, "treatment_documented",
     "Active COVID-19, Ct 21. Postpone the transplant. Start remdesivir 200 mg IV day 1 then "
     "100 mg days 2-3. Start dexamethasone 6 mg daily."),
    (None, "ct_value_stated",
     "Active COVID-19, Ct 36. Postpone the transplant. Start remdesivir 200 mg IV day 1."),
    (SHED, "infection_status_classified",
     "Active COVID-19, Ct 37. Proceed with the transplant as scheduled. No antiviral."),
    (SHED, "transplant_decision_documented",
     "Persistent RNA shedding, Ct 37. Postpone the transplant. No antiviral."),
    # Reader gaps (not pinned): "... remdesivir ... and dexamethasone 6 mg daily" (the verb does
    # not reach the second drug); "proceed with the transplant once a repeat PCR is negative" (a
    # test named only inside the condition is not read as planned).
    (SHED, "transplant_decision_documented",
     "Persistent RNA shedding, Ct 37. Repeat the SARS-CoV-2 PCR before surgery. Proceed with the "
     "transplant as scheduled. No antiviral."),
    (SHED, "transplant_decision_documented",
     "Persistent RNA shedding, Ct 37. Repeat SARS-CoV-2 PCR the day before surgery. Proceed with "
     "the transplant as scheduled. No antiviral."),
    (SHED, "transplant_decision_documented",
     "Persistent RNA shedding, Ct 37. Check a rapid antigen test; proceed with the transplant as "
     "scheduled once it is negative. No antiviral."),
    (None, "transplant_decision_documented",
     "Active COVID-19, Ct 21. Postpone the transplant at least 21 days. Repeat SARS-CoV-2 PCR "
     "weekly until negative before surgery. Start remdesivir 200 mg IV day 1 then 100 mg IV days "
     "2-3."),
    (None, "treatment_documented",
     "Active COVID-19, Ct 21. Postpone the transplant. Start remdesivir 100 mg IV day 1 then 50 mg "
     "IV days 2-3."),
    (None, "treatment_documented",
     "Active COVID-19, Ct 21. Postpone the transplant. Start remdesivir 100 mg IV daily for 5 "
     "days."),
    (None, "treatment_documented",
     "Active COVID-19, Ct 21. Postpone the transplant. Start nirmatrelvir-ritonavir 300/100 mg "
     "twice "
     "daily for 5 days."),
    # Reader gaps (not pinned): "... plus molnupiravir 800 mg twice daily" after remdesivir (the
    # verb does not reach the second drug).
    (SHED, "treatment_documented",
     "Persistent RNA shedding, Ct 37. Proceed with the transplant as scheduled. Give remdesivir "
     "200 mg IV once to be safe."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (SHED,), [None, SHED]))
