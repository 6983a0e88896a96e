"""thrombocytopenia_immunotherapy: the scenario and count draws, and the note phrasings its
checkpoints must judge on each branch (grade 2 ITP: hold and prednisone; grade 1 ITP: continue,
no steroid; suspected TMA: admit, ADAMTS13)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values

TASK = "thrombocytopenia_immunotherapy"
G2 = 0    # grade 2 ITP, platelets 62, 77 kg
G1 = 1    # grade 1 ITP, platelets 81
TMA = 5   # suspected thrombotic microangiopathy, platelets 15 (plt_low 58 - 43)


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "itp_g2"}
    assert (vals["plt"], vals["grade"], vals["grade_concept"]) == (61, 2, ["platelet_grade_2"])
    assert (vals["weight_kg"], vals["pred_mg"], vals["pred_min"], vals["pred_max"]) == (
        82, 80, 41, 164)
    assert vals["pred_qty"] == 112 and vals["ici_action"] == ["stop"]
    assert vals["finding"] == ["immune_thrombocytopenia"]


def test_branches_draw_their_scenarios():
    assert values(TASK, G2)["scenario"]["kind"] == "itp_g2" and values(TASK, G2)["grade"] == 2
    g1 = values(TASK, G1)
    assert g1["scenario"]["kind"] == "itp_g1" and g1["grade"] == 1
    assert g1["ici_action"] == ["continue"]
    tma = values(TASK, TMA)
    assert tma["scenario"]["kind"] == "tma" and tma["finding"] == ["thrombotic_microangiopathy"]
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"itp_g2", "itp_g1", "tma"}
    for n in range(20):
        v = values(TASK, n)
        assert (v["grade"] == 1) is (v["scenario"]["kind"] == "itp_g1"), n


def test_prednisone_sig_matches_its_dose():
    """Whole 20 mg tablets at about 1 mg/kg (0.5-2 mg/kg) on every draw (review finding 1)."""
    for n in [None, *range(20)]:
        v = values(TASK, n)
        assert v["pred_tabs"] * 20 == v["pred_mg"] and v["pred_qty"] == v["pred_tabs"] * 28, n
        assert v["pred_min"] <= v["pred_mg"] <= v["pred_max"], n
        assert 0.5 <= v["pred_mg"] / v["weight_kg"] <= 2, n


def test_tma_count_is_below_30():
    for n in range(20):
        v = values(TASK, n)
        if v["scenario"]["kind"] == "tma":
            assert 9 <= v["plt"] <= 29, n


CORRECT = [
    (None, "Plt 61, isolated, no schistocytes: ICI-related ITP, CTCAE grade 2. Hold pembrolizumab. "
           "Start prednisone 80 mg PO daily x4 weeks then taper. No platelet transfusion."),
    (None, """Assessment: immune thrombocytopenia from pembrolizumab; platelet count 61.
Severity: grade 2 thrombocytopenia.
Plan:
- Hold pembrolizumab.
- Prednisone 80 mg by mouth once daily.
- Do not transfuse platelets."""),
    (None, "Platelet count 61,000/uL, smear isolated: grade 2 immune thrombocytopenia, an irAE of "
           "Keytruda. Withhold pembrolizumab. Prednisone 1 mg/kg (80 mg) orally daily. No "
           "platelet transfusion."),
    (G1, "Platelets 81 with a normal smear and no hemolysis: grade 1 immune thrombocytopenia from "
         "pembrolizumab. Continue pembrolizumab with a CBC before each cycle. No steroids now. No "
         "platelet transfusion."),
    (TMA, "Platelets 15 with schistocytes, high LDH and undetectable haptoglobin: suspected "
          "thrombotic microangiopathy (TTP). Admit to hospital today. ADAMTS13 activity sent. Hold "
          "pembrolizumab. No platelet transfusion."),
    (TMA, "Platelets 15 with schistocytes: suspected TTP. Send him to the ED now. ADAMTS13 "
          "activity sent. Hold pembrolizumab. No platelet transfusion."),
    # review finding 3: ASCO's G1-G4 and spelled-out grades
    (None, "Platelets 61: immune thrombocytopenia from pembrolizumab, G2. Hold pembrolizumab. "
           "Prednisone 80 mg daily. No platelet transfusion."),
    (None, "Platelets 61: immune thrombocytopenia from pembrolizumab, grade two thrombocytopenia. "
           "Hold pembrolizumab. Prednisone 80 mg daily. No platelet transfusion."),
    (G1, "Plt 81, isolated -> ICI ITP G1. Continue pembrolizumab with a CBC before each cycle. No "
         "steroids. No platelet transfusion."),
    # review finding 4: hold and continue phrasings
    (None, "Platelets 61: immune thrombocytopenia, grade 2. Do not give the next pembrolizumab "
           "dose. Prednisone 80 mg daily. No platelet transfusion."),
    (None, "Platelets 61: immune thrombocytopenia, grade 2. Defer cycle 17 of pembrolizumab. "
           "Prednisone 80 mg daily. No platelet transfusion."),
    (G1, "Platelets 81: immune thrombocytopenia, grade 1. Proceed with pembrolizumab as "
         "scheduled. No steroids. No platelet transfusion."),
    (G1, "Platelets 81: immune thrombocytopenia from pembrolizumab, grade 1. Give cycle 17 as "
         "planned. No steroids. No platelet transfusion."),
    # review finding 9: irAE wording of the diagnosis
    (None, "Platelets 61: immune-related thrombocytopenia (irAE) from pembrolizumab, grade 2. Hold "
           "pembrolizumab. Prednisone 80 mg daily. No platelet transfusion."),
    (None, "Platelets 61: ICI-associated thrombocytopenia, grade 2. Hold pembrolizumab. Prednisone "
           "80 mg daily. No platelet transfusion."),
]

WRONG = [
    (None, "cause_identified",
     "Platelets 61, schistocytes absent. Suspected TTP. Grade 2. Hold pembrolizumab. Prednisone "
     "80 mg daily. No platelet transfusion."),
    (None, "cause_identified",
     "Platelets 158, immune thrombocytopenia, grade 2. Hold pembrolizumab. Prednisone 80 mg daily. "
     "No platelet transfusion."),
    (None, "severity_assessed",
     "Platelets 61: immune thrombocytopenia, grade 3. Hold pembrolizumab. Prednisone 80 mg daily. "
     "No platelet transfusion."),
    (None, "checkpoint_inhibitor_plan_documented",
     "Platelets 61: immune thrombocytopenia, grade 2. Continue pembrolizumab. Prednisone 80 mg "
     "daily. No platelet transfusion."),
    (None, "treatment_plan_documented",
     "Platelets 61: immune thrombocytopenia, grade 2. Hold pembrolizumab. Prednisone 10 mg daily. "
     "No platelet transfusion."),
    (None, "treatment_plan_documented",
     "Platelets 61: immune thrombocytopenia, grade 2. Hold pembrolizumab. Prednisone 80 mg daily. "
     "Give a platelet transfusion today."),
    (G1, "treatment_plan_documented",
     "Platelets 81: immune thrombocytopenia, grade 1. Continue pembrolizumab. Start prednisone "
     "70 mg daily. No platelet transfusion."),
    (G1, "checkpoint_inhibitor_plan_documented",
     "Platelets 81: immune thrombocytopenia, grade 1. Hold pembrolizumab. No steroids. No "
     "platelet transfusion."),
    (TMA, "severity_assessed",
     "Platelets 15 with schistocytes: thrombotic microangiopathy. Recheck CBC in 1 week as an "
     "outpatient. ADAMTS13 sent. Hold pembrolizumab. No platelet transfusion."),
    (TMA, "severity_assessed",  # review finding 6: a deferred admission
     "Platelets 15 with schistocytes: thrombotic microangiopathy. Admit tomorrow morning. "
     "ADAMTS13 sent. Hold pembrolizumab. No platelet transfusion."),
    (TMA, "cause_identified",
     "Platelets 15: immune thrombocytopenia. Admit to hospital today. ADAMTS13 sent. Hold "
     "pembrolizumab. No platelet transfusion."),
    (G1, "checkpoint_inhibitor_plan_documented",  # review finding 4: delay stays a stop
     "Platelets 81: immune thrombocytopenia, grade 1. Delay pembrolizumab. No steroids. No "
     "platelet transfusion."),
    (None, "severity_assessed",  # review finding 10: a hedged grade
     "Platelets 61: immune thrombocytopenia, grade 2-3. Hold pembrolizumab. Prednisone 80 mg "
     "daily. No platelet transfusion."),
    (None, "treatment_plan_documented",  # an observation-only alternative at grade 2
     "Platelets 61: immune thrombocytopenia, grade 2. Hold pembrolizumab. Prednisone 80 mg "
     "daily. Alternatively, observation without steroids would also be reasonable. No platelet "
     "transfusion."),
    (None, "checkpoint_inhibitor_plan_documented",  # review finding 5: a stop for good
     "Platelets 61: immune thrombocytopenia, grade 2. Discontinue pembrolizumab permanently; do "
     "not rechallenge. Prednisone 80 mg daily. No platelet transfusion."),
    (TMA, "treatment_plan_documented",  # review finding 7: ADAMTS13 drawn after plasma
     "Platelets 15 with schistocytes: suspected TTP. Admit to hospital today. Start plasma "
     "exchange now; check ADAMTS13 after the first exchange. Hold pembrolizumab. No platelet "
     "transfusion."),
]

# A known gap (review finding 10; the reader cannot express it yet): it passes today.
KNOWN_GAPS = [
    (None, "cause_identified",  # finding 10: 'X vs Y' not read as an open differential
     "Platelets 61: immune thrombocytopenia from pembrolizumab vs TTP, grade 2. Hold "
     "pembrolizumab. Prednisone 80 mg daily. No platelet transfusion."),
]


def test_known_gaps_still_pass():
    """Pinned so a reader fix shows up: move them to WRONG when they start to fail."""
    for variant, checkpoint, note in KNOWN_GAPS:
        assert grade_note(TASK, note, variant)[checkpoint] is True, checkpoint

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (G1, TMA, 7), [None, G1, TMA]))
