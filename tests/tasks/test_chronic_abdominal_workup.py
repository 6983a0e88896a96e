"""chronic_abdominal_workup: the scenario and NSAID draws, and the note phrasings its checkpoints
must judge on each branch (test-and-treat under 60, EGD at 60 or older, bidirectional endoscopy
for iron deficiency anemia; naproxen stopped or no NSAID)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "chronic_abdominal_workup"
TT_NAPROXEN = 1     # test-and-treat, naproxen for knee osteoarthritis
TT_NONE = 14        # test-and-treat, no NSAID (the canonical answer)
IDA_NONE = 0        # iron deficiency anemia, no NSAID
IDA_NAPROXEN = 2    # iron deficiency anemia, naproxen
AGE60_NAPROXEN = 3  # 64 years old, naproxen
AGE60_NONE = 10     # 64 years old, no NSAID

CPT = "http://www.ama-assn.org/go/cpt|"
LOINC = "http://loinc.org|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["kind"] == vals["workup"] == "test_and_treat"
    assert vals["age"] == 46 and vals["nsaid"] == {"name": "none"}
    assert vals["nsaid_action"] == []
    no_colonoscopy, first, no_egd, no_other_ppi, no_serology, no_nsaid = vals["workup_orders"]
    assert no_colonoscopy["not_ordered"]["codes"] == [CPT + "45378", CPT + "45380"]
    assert first["ordered"]["codes"][:3] == [LOINC + "17780-8", LOINC + "29891-9", CPT + "83013"]
    assert CPT + "87338" in first["ordered"]["codes"]  # stool antigen by its CPT code
    assert no_egd["not_ordered"]["codes"] == [CPT + "43235", CPT + "43239"]
    assert "vonoprazan" in no_other_ppi["not_ordered"]["text_contains"]
    assert "famotidine" not in no_other_ppi["not_ordered"]["text_contains"]
    # serology by code: an order's note saying "do not repeat serology" is no serology order
    assert no_serology["not_ordered"]["codes"] == [CPT + "86677", LOINC + "17859-0"]
    assert "text_contains" not in no_serology["not_ordered"]
    assert "ibuprofen" in no_nsaid["not_ordered"]["text_contains"]
    assert no_nsaid["not_ordered"]["route"] == ["oral", "26643006"]  # topical NSAIDs allowed
    assert vals["test_date"] > vals["now"].date().isoformat()


def test_branches_draw_their_scenarios():
    assert values(TASK, TT_NAPROXEN)["workup"] == "test_and_treat"
    assert values(TASK, TT_NAPROXEN)["nsaid_action"] == ["stop"]
    assert values(TASK, TT_NONE)["nsaid"]["name"] == "none"
    ida = values(TASK, IDA_NONE)
    assert ida["workup"] == "iron_deficiency" and ida["age"] == 51
    assert ida["scenario"]["ferritin"] < 45
    assert [o["ordered"]["label"] for o in ida["workup_orders"][:2]] == ["EGD", "colonoscopy"]
    assert "not_ordered" in ida["workup_orders"][-1]  # no oral NSAID in every branch
    assert "not_ordered" in old_orders(AGE60_NONE)[1]
    old = values(TASK, AGE60_NONE)
    assert old["workup"] == "age_60" and old["age"] == 64
    assert old["birth_date"] < "1963-01-01"
    kinds = {(values(TASK, n)["workup"], values(TASK, n)["nsaid"]["name"]) for n in range(20)}
    assert len(kinds) == 6


def old_orders(variant):
    return values(TASK, variant)["workup_orders"]


CORRECT = [
    (None, "Under 60 without alarm features: test and treat. Hold omeprazole for 2 weeks, then "
           "check an H. pylori stool antigen. Famotidine as needed meanwhile. No EGD at this "
           "time. Do not repeat the H. pylori serology; it stays positive after treatment."),
    (None, "Plan:\n1. Stop omeprazole for 2 weeks before testing.\n2. Urea breath test "
           "(ordered).\n3. EGD only if symptoms persist after eradication.\n4. H. pylori "
           "serology is not useful."),
    (None, """| Item | Plan |
|---|---|
| H. pylori | stool antigen after 2 weeks off omeprazole |
| Omeprazole | hold 2 weeks before the stool test |
| Endoscopy | not now |
No serology."""),
    (TT_NAPROXEN, "Assessment: uninvestigated dyspepsia, age 46, no alarm features.\nPlan:\n"
                  "1. Hold omeprazole for 14 days, then send a monoclonal stool antigen.\n"
                  "2. No upper endoscopy unless symptoms persist after test-and-treat.\n"
                  "3. Do not order H. pylori antibodies.\n"
                  "4. Discontinue naproxen; acetaminophen for knee pain."),
    (None, "Plan: switch omeprazole to famotidine for 2 weeks, then check a urea breath test. "
           "EGD if the breath test is negative and symptoms persist. Avoid serology."),
    (None, "H. pylori serology was positive 4 years ago and he was treated. Plan: stop omeprazole "
           "for 2 weeks, then check a urea breath test. If negative, trial of pantoprazole 40 mg "
           "daily. No EGD now. Do not repeat the serology."),
    (AGE60_NONE, "New dyspepsia at 64: EGD is indicated. Please take gastric biopsies for H. "
                 "pylori at the EGD. H. pylori serology is not helpful after prior treatment."),
    (AGE60_NAPROXEN, "Plan:\n1. Upper endoscopy (ordered) with gastric biopsies for H. pylori.\n"
                     "2. No H. pylori serology.\n3. Stop naproxen."),
    (IDA_NONE, "Assessment: new iron deficiency anemia (ferritin 9) with dyspepsia.\nPlan:\n"
               "1. EGD and colonoscopy in one session, with gastric biopsies for H. pylori.\n"
               "2. No H. pylori serology."),
    (IDA_NAPROXEN, "Iron deficiency anemia in a man needs bidirectional endoscopy.\nPlan: "
                   "bidirectional endoscopy with gastric biopsies. Serology is not needed. "
                   "Stop naproxen."),
    # review 1/2/11: the PCP's own words for serology, declined; other stool-test names
    (None, "Hold omeprazole for 2 weeks, then send a monoclonal fecal H. pylori antigen "
           "(ordered). I would not repeat the H. pylori blood test. No EGD now."),
    (None, "Hold omeprazole for 2 weeks, then send an H. pylori stool test (ordered). Do not "
           "order H. pylori antibodies. No EGD now."),
    # review 8: bismuth quadruple therapy for a positive test, clarithromycin declined
    (None, "Hold omeprazole for 2 weeks, then check an H. pylori stool antigen. No EGD now. "
           "No serology. If positive, bismuth quadruple therapy for 14 days (avoid "
           "clarithromycin, which he has had)."),
    # the PPI resumed after the sample is no contradiction of the hold
    (None, "Stop omeprazole 2 weeks before the stool antigen (ordered). Resume omeprazole after "
           "the sample. No H. pylori serology. No EGD now."),
    # a later EGD on a trigger beside 'no EGD for now'
    (None, "Plan:\n- Hold omeprazole 2 weeks, then stool antigen (ordered).\n- No EGD for now; "
           "still symptomatic after test-and-treat -> EGD.\n- No H. pylori serology."),
    # review 9: the order verb over the EGD's 'with' phrase; antrum and body biopsies
    (AGE60_NONE, "I have ordered an EGD with gastric biopsies for H. pylori. Do not repeat "
                 "serology."),
    (AGE60_NONE, "EGD with biopsies of the antrum and body for H. pylori (ordered). No H. pylori "
                 "serology."),
    (IDA_NONE, "Iron deficiency anemia. Bidirectional endoscopy ordered: EGD with gastric "
               "biopsies for H. pylori and colonoscopy. No H. pylori serology."),
    # review 10: in iron deficiency, a stool antigen off the PPI instead of biopsies
    (IDA_NONE, "Iron deficiency anemia. EGD and colonoscopy in one session. H. pylori stool "
               "antigen after the endoscopy, off PPI for 2 weeks. No H. pylori serology."),
]

WRONG = [
    # review 1: serology in the PCP's words
    ("reasoning_documented", "Hold omeprazole for 2 weeks, then check an H. pylori stool "
                             "antigen. No EGD now. Repeat the H. pylori blood test as you "
                             "suggested."),
    ("reasoning_documented", "Hold omeprazole for 2 weeks, then check an H. pylori stool "
                             "antigen. No EGD now. H. pylori antibodies ordered as well."),
    ("reasoning_documented", "Hold omeprazole for 2 weeks, then check an H. pylori stool "
                             "antigen. No EGD now. Check Helicobacter pylori IgG antibodies."),
    ("reasoning_documented", "Hold omeprazole for 2 weeks, then check an H. pylori stool "
                             "antigen. No EGD now. Also send H. pylori Ab."),
    # review 2: the PCP's serology question left unanswered
    ("reasoning_documented", "Hold omeprazole for 2 weeks, then check an H. pylori stool "
                             "antigen. No EGD now."),
    # review 3: a hold shorter than 2 weeks, or none before a test sent today
    ("hpylori_testing_planned", "Hold omeprazole for 3 days, then check an H. pylori stool "
                                "antigen. No EGD now. No serology."),
    ("hpylori_testing_planned", "Hold omeprazole for 1 week, then check an H. pylori stool "
                                "antigen. No EGD now. No serology."),
    ("hpylori_testing_planned", "Stop omeprazole. Send the H. pylori stool antigen today. No "
                                "EGD now. No serology."),
    # review 8: clarithromycin again, even conditionally
    ("hpylori_testing_planned", "Hold omeprazole for 2 weeks, then check an H. pylori stool "
                                "antigen. No EGD now. No serology. If positive, treat with "
                                "clarithromycin triple therapy for 14 days."),
    (AGE60_NONE, "hpylori_testing_planned",
     "EGD with gastric biopsies for H. pylori. No serology. If H. pylori is found, treat "
     "with clarithromycin triple therapy."),
    # canonical: a verbless EGD plan line
    ("workup_documented", "Plan:\n1. Hold omeprazole for 2 weeks, then H. pylori stool antigen "
                          "(ordered).\n2. EGD.\n3. No serology."),
    # review 13: a colonoscopy that is not due
    ("workup_documented", "Hold omeprazole for 2 weeks, then check an H. pylori stool antigen. "
                          "No EGD now. No serology. Colonoscopy ordered."),
    # review 6: naproxen held for the test only and resumed, or swapped for another NSAID
    (TT_NAPROXEN, "nsaid_plan_documented",
     "Hold omeprazole and naproxen for 2 weeks before the stool antigen; resume naproxen "
     "afterwards. No EGD now. No serology."),
    (TT_NAPROXEN, "nsaid_plan_documented",
     "Hold omeprazole for 2 weeks, then check a stool antigen. No EGD now. No serology. Stop "
     "naproxen; ibuprofen 400 mg as needed instead."),
    # canonical: serology ordered
    ("reasoning_documented", "Order H. pylori IgG serology. Hold omeprazole for 2 weeks, then "
                             "check a stool antigen. No EGD now."),
    # canonical: tested on the PPI
    ("hpylori_testing_planned", "Check an H. pylori stool antigen now while he continues "
                                "omeprazole. No EGD now. No serology."),
    ("hpylori_testing_planned", "Continue omeprazole 20 mg daily. Check an H. pylori stool "
                                "antigen. No EGD now. No serology."),
    # canonical: serology offered as a fallback
    ("reasoning_documented", "Hold omeprazole x2 weeks then stool Ag for H. pylori. No EGD now. "
                             "Serology can be used if he cannot stop the PPI."),
    # canonical: switched to another PPI before the test
    ("hpylori_testing_planned", "Switch omeprazole to pantoprazole 40 mg daily, then check a "
                                "urea breath test. No EGD now. Avoid serology."),
    # canonical: EGD offered
    ("workup_documented", "Check an H. pylori stool antigen 2 weeks after stopping omeprazole. "
                          "Consider EGD. Serology is not recommended."),
    # canonical: scoped although under 60 without alarm features
    ("workup_documented", "Hold omeprazole for 2 weeks, then check a stool antigen. Schedule "
                          "an EGD. No serology."),
    ("workup_documented", "Refer for upper endoscopy. Hold omeprazole for 2 weeks. No "
                          "serology."),
    # canonical: an NSAID started
    ("nsaid_plan_documented", "Hold omeprazole for 2 weeks, then check a stool antigen. No EGD "
                              "now. No serology. Start ibuprofen 400 mg as needed for pain."),
    # test-and-treat with naproxen kept
    (TT_NAPROXEN, "nsaid_plan_documented",
     "Hold omeprazole for 2 weeks, then check a stool antigen. No EGD now. No serology. "
     "Continue naproxen for his knees."),
    # 64: test-and-treat instead of an EGD
    (AGE60_NONE, "workup_documented",
     "Hold omeprazole for 2 weeks, then check an H. pylori stool antigen. No EGD now. No "
     "serology."),
    # 64: EGD without H. pylori biopsies
    (AGE60_NONE, "hpylori_testing_planned", "EGD (ordered). No H. pylori serology."),
    # 64: serology
    (AGE60_NAPROXEN, "reasoning_documented",
     "EGD with gastric biopsies for H. pylori. Check H. pylori serology too. Stop naproxen."),
    # iron deficiency: EGD only
    (IDA_NONE, "workup_documented",
     "Iron deficiency anemia. Plan: EGD with gastric biopsies for H. pylori. No serology."),
    # iron deficiency: anemia not named
    (IDA_NONE, "reasoning_documented",
     "Plan: EGD and colonoscopy with gastric biopsies for H. pylori. No serology."),
    # iron deficiency: naproxen continued
    (IDA_NAPROXEN, "nsaid_plan_documented",
     "Iron deficiency anemia. Plan: EGD and colonoscopy with gastric biopsies for H. pylori. "
     "No serology. Continue naproxen."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (TT_NAPROXEN, IDA_NONE, AGE60_NONE),
                  [None, TT_NAPROXEN, IDA_NAPROXEN, AGE60_NAPROXEN]))


def _oracle_with_test_on(day: str | None) -> list[dict]:
    """The oracle's calls, its H. pylori test collected on ``day`` (None: no date written)."""
    from tests.tasks.helpers import oracle_calls
    calls = oracle_calls(TASK)
    for call in calls:
        if call["tool"] == "fhir_service_request_create" and "occurrence" in call["arguments"]:
            call["arguments"] = {k: v for k, v in call["arguments"].items() if k != "occurrence"}
            if day is not None:
                call["arguments"]["occurrence"] = day
    return calls


def test_the_stool_antigen_is_collected_after_the_two_week_hold():
    from tests.tasks.helpers_endocrinology import run_actions
    today = values(TASK)["now"].date()
    assert run_actions(TASK, _oracle_with_test_on(values(TASK)["test_date"]))["workup_ordered"]
    assert not run_actions(TASK, _oracle_with_test_on(today.isoformat()))["workup_ordered"]
    assert not run_actions(TASK, _oracle_with_test_on(None))["workup_ordered"]  # no date is now
