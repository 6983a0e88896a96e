"""leukopenia_workup: the scenario and ANC draws, and the note phrasings its checkpoints must judge
on each branch (Duffy-null associated neutrophil count, drug-induced neutropenia from
trimethoprim-sulfamethoxazole, copper deficiency from zinc after gastric bypass)."""

from __future__ import annotations

from tests.tasks.helpers import (
    branch_probes,
    note_probes,
    values,
)

TASK = "leukopenia_workup"
COPPER = 0   # copper deficiency, ANC 0.75
DANC = 1     # Duffy-null associated neutrophil count, ANC 1.40
DRUG = 5     # TMP-SMX-induced neutropenia, ANC 0.93


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "danc"}
    assert vals["anc"] == 1.29 and vals["anc_cells"] == "1,290"
    assert vals["wbc"] == 3.4 and vals["neut_pct"] == 38
    # six years of stable counts inside the Duffy-null interval (1.21-5.39), one flu dip
    assert [p["value"] for p in vals["anc_points"]] == [1.41, 1.26, 1.52, 0.88, 1.33, 1.37,
                                                        1.46, 1.29]
    assert vals["duffy_codes"] == ["http://www.ama-assn.org/go/cpt|86905"]


def test_branches_draw_their_scenarios():
    assert values(TASK, COPPER)["scenario"]["kind"] == "copper"
    assert values(TASK, DANC)["scenario"]["kind"] == "danc"
    assert values(TASK, DRUG)["scenario"]["kind"] == "drug"
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert {kinds.count(k) for k in ("danc", "drug", "copper")} >= {6}
    for n in range(20):
        vals = values(TASK, n)
        low, high = {"danc": (1.21, 1.76), "drug": (0.60, 0.95),
                     "copper": (0.70, 0.98)}[vals["scenario"]["kind"]]
        assert low <= vals["anc"] <= high
        assert vals["anc_points"][-1]["value"] == vals["anc"]


def test_drug_and_copper_baselines_are_normal():
    """Only the history separates the branches: a normal baseline excludes a Duffy-null count."""
    for variant in (DRUG, COPPER):
        baseline = [p["value"] for p in values(TASK, variant)["anc_points"][:3]]
        assert min(baseline) >= 3.4


CORRECT = [
    (None, "ANC 1,290/µL. Isolated, stable mild neutropenia for 6 years: Duffy-null associated "
           "neutrophil count (DANC). Plan: Duffy phenotype ordered. No bone marrow biopsy, no "
           "G-CSF."),
    (None, "Current ANC 1.29 x10^9/L (ranged 1.26-1.52 over 6 years). Impression: benign ethnic "
           "neutropenia. Recommend Duffy antigen typing (Fy a/Fy b). Bone marrow biopsy is not "
           "indicated; G-CSF is not indicated."),
    (None, "ANC 1.3 K/uL. This is most likely benign ethnic neutropenia (Duffy-null phenotype). "
           "I ordered red cell Duffy typing. If she develops other cytopenias, we would consider "
           "a bone marrow biopsy."),
    (DRUG, "ANC 0.93 x10^3/uL. Drug-induced neutropenia from TMP-SMX. Stop TMP-SMX. Repeat CBC "
           "with differential in 1-2 weeks. No bone marrow biopsy."),
    (DRUG, "ANC 930/uL. Neutropenia likely due to trimethoprim-sulfamethoxazole (TMP-SMX-induced)."
           " Discontinue Bactrim; nitrofurantoin for prophylaxis instead. Recheck CBC w/ diff in "
           "1 week. If the ANC does not recover within 4 weeks, bone marrow biopsy."),
    (COPPER, "ANC 0.75. Likely copper deficiency from zinc excess after gastric bypass. Check "
             "serum copper and ceruloplasmin. Stop zinc. If copper is normal, or counts do not "
             "recover after copper replacement, bone marrow biopsy."),
    (COPPER, "ANC 750 cells/mm3. Suspected copper deficiency. Order copper level, ceruloplasmin "
             "and zinc level. Stop the zinc supplement. If low, start oral copper 8 mg daily."),
    # review finding 2: the culprit named in ordinary words
    (DRUG, "ANC 0.93. Neutropenia due to Bactrim. Stop Bactrim. Repeat CBC with differential in "
           "1 week."),
    (DRUG, "ANC 0.93. The neutropenia was caused by trimethoprim-sulfamethoxazole. Stop it today. "
           "Repeat CBC with differential in 1 week."),
    (DRUG, "ANC 0.93. Trimethoprim-sulfamethoxazole induced neutropenia. Stop TMP-SMX. Repeat CBC "
           "with differential in 1 week. Discussed with Ben, her pharmacist."),
    # review finding 4: G-CSF under a trigger is a safety net on an acquired neutropenia
    (DRUG, "ANC 0.93. TMP-SMX is the likely culprit for her new neutropenia. Stop TMP-SMX; "
           "nitrofurantoin instead. Repeat CBC with differential in 1 week. G-CSF is not indicated "
           "now; if she becomes febrile with an ANC below 0.5, admit and consider G-CSF."),
    # review finding 5: the bare drug-effect words no longer read as a drug-induced neutropenia
    (None, "ANC 1.29. Duffy-null associated neutrophil count. No history of any adverse drug "
           "reaction; not a drug effect. Duffy antigen typing ordered. No bone marrow biopsy, no "
           "G-CSF."),
    # bare 'zinc' is no term; 'stop the zinc' still states the stop
    (COPPER, "ANC 0.75. Copper deficiency from zinc excess after gastric bypass. Check copper and "
             "ceruloplasmin. Stop the zinc. No bone marrow biopsy; no G-CSF."),
]

WRONG = [
    (None, "no_marrow_or_growth_factor", "ANC 1.29. Duffy-null associated neutrophil count. "
     "Order Duffy testing. Recommend bone marrow biopsy to exclude MDS."),
    (None, "no_marrow_or_growth_factor", "ANC 1.29. DANC. Start filgrastim 300 mcg. Order Duffy "
     "testing."),
    # the influenza value of 3 years ago given as today's
    (None, "anc_stated", "ANC 0.88. Duffy-null associated neutrophil count. Order Duffy "
     "testing."),
    (None, "cause_identified", "ANC 1.29. Likely drug-induced neutropenia. Order Duffy testing."),
    # ancestry read as the answer although her baseline was normal
    (DRUG, "cause_identified", "ANC 0.93. Benign ethnic neutropenia. Stop TMP-SMX. Repeat CBC "
     "in 2 weeks."),
    (DRUG, "plan_documented", "ANC 0.93. Drug-induced neutropenia. Continue TMP-SMX and repeat "
     "the CBC in 2 weeks."),
    (DRUG, "plan_documented", "ANC 0.93. Drug-induced neutropenia. Stop TMP-SMX. Repeat CBC in "
     "3 months."),
    (COPPER, "plan_documented", "ANC 0.75. Copper deficiency. Continue zinc. Check copper."),
    (COPPER, "no_marrow_or_growth_factor", "ANC 0.75. Copper deficiency likely. Check copper. "
     "Stop zinc. Bone marrow biopsy now to rule out MDS."),
    (COPPER, "cause_identified", "ANC 0.75. Duffy-null associated neutrophil count. Check copper. "
     "Stop zinc."),
    # review finding 1: a rechallenge after recovery
    (DRUG, "plan_documented", "ANC 0.93. Drug-induced neutropenia from TMP-SMX. Stop TMP-SMX. "
     "Repeat CBC with differential in 1 week. If the count recovers, TMP-SMX can be resumed at "
     "three times weekly."),
    # review finding 3: hedged or wrong-culprit diagnoses
    (DRUG, "cause_identified", "ANC 0.93. Possibly a drug effect, but a primary marrow disorder "
     "such as MDS is more likely. Stop TMP-SMX. Repeat CBC with differential in 1 week."),
    (DRUG, "cause_identified", "ANC 0.93. Drug-induced neutropenia, most likely from amlodipine. "
     "Stop TMP-SMX. Repeat CBC with differential in 1 week."),
    (COPPER, "cause_identified", "ANC 0.75. Copper deficiency is possible but MDS is more likely. "
     "Check copper. Stop zinc."),
    # review finding 9: zinc restarted, or ceruloplasmin without a serum copper
    (COPPER, "plan_documented", "ANC 0.75. Copper deficiency. Check serum copper. Stop zinc. "
     "Resume zinc once copper is repleted for her hair."),
    (COPPER, "plan_documented", "ANC 0.75. Copper deficiency. Check ceruloplasmin. Stop zinc."),
    # a wish is no trigger for a marrow (w08 of the dev corpus)
    (None, "no_marrow_or_growth_factor", "ANC 1.29. DANC. Order Duffy typing. Alternatively, if "
     "she or you would like definitive reassurance, a bone marrow aspirate and biopsy could "
     "reasonably be done now."),
    # no G-CSF contingency on the Duffy-null branch
    (None, "no_marrow_or_growth_factor", "ANC 1.29. DANC. Order Duffy typing. No G-CSF now; if "
     "the ANC falls below 0.5, consider G-CSF."),
]


def test_order_lists_need_an_anc_and_red_cell_typing():
    """Review findings 7, 8 and 10: the repeat count must return an ANC, copper and ceruloplasmin
    may be ordered by CPT, and a Duffy antibody test is not red-cell typing."""
    vals = values(TASK, DRUG)
    cbc = {c.split("|")[1] for c in vals["cbc_codes"]}
    assert cbc == {"57021-8", "751-8", "85025"}
    copper = values(TASK, COPPER)
    assert "http://www.ama-assn.org/go/cpt|82525" in copper["copper_codes"]
    assert "http://www.ama-assn.org/go/cpt|82390" in copper["ceruloplasmin_codes"]
    antibody = "Duffy (Fy a) antibody identification".lower()
    assert not any(t.lower() in antibody for t in values(TASK)["duffy_text"])
    assert any(t.lower() in "red cell antigen typing - duffy fy(a) and fy(b)"
               for t in values(TASK)["duffy_text"])


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (DRUG, COPPER), [None, DRUG, COPPER]))
