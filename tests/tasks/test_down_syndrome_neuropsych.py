"""down_syndrome_neuropsych: the cause and anticholinergic draws, and the note phrasings its
checkpoints must judge on each branch (Down syndrome-associated Alzheimer disease -> donepezil;
under-replaced hypothyroidism -> levothyroxine up, donepezil deferred)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "down_syndrome_neuropsych"
HYPO_DPH = 0  # hypothyroid, diphenhydramine at bedtime, TSH 15.5
AD_AMI = 2  # Alzheimer disease, amitriptyline at bedtime
HYPO_AMI = 4  # hypothyroid, amitriptyline, TSH 13.6
AD_DPH = 7  # Alzheimer disease, diphenhydramine


def test_canonical_values():
    vals = values(TASK)
    assert vals["cause"] == {"name": "alzheimer"}
    assert vals["anticholinergic"]["name"] == "oxybutynin"
    assert (vals["tsh"], vals["ft4"], vals["tsh_mid"]) == (2.3, 1.2, 3.1)
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    assert {rx + "997229", rx + "997223"} <= set(vals["donepezil_rxnorm"])
    assert {rx + "892246", rx + "966222"} <= set(vals["levothyroxine_rxnorm"])
    assert rx + "312830" in vals["antipsychotic_rxnorm"]


def test_branches_draw_their_causes():
    hypo = values(TASK, HYPO_DPH)
    assert hypo["cause"]["name"] == "hypothyroid" and hypo["ft4"] == 0.6
    assert 11.0 <= hypo["tsh"] <= 19.0 and hypo["tsh_mid"] == 6.4
    assert values(TASK, AD_AMI)["anticholinergic"]["name"] == "amitriptyline"
    assert values(TASK, AD_DPH)["cause"]["name"] == "alzheimer"
    draws = {
        (values(TASK, n)["cause"]["name"], values(TASK, n)["anticholinergic"]["name"])
        for n in range(20)
    }
    assert len(draws) >= 5


AD = "Down syndrome-associated Alzheimer disease. Start donepezil 5 mg once daily. "
HYPO = (
    "Under-replaced hypothyroidism, TSH 15.5. Increase levothyroxine to 100 mcg daily and "
    "recheck TSH in 6 weeks. No donepezil now. "
)

CORRECT = [
    (
        None,
        "DS-associated Alzheimer disease, early dementia. TSH 2.3 nl, B12 nl, OSA on CPAP. "
        "Start donepezil 5 mg qhs, titrate to 10 mg in 4-6 wk if tolerated. D/c oxybutynin. "
        "No risperidone.",
    ),
    (
        None,
        "Her picture is most consistent with Alzheimer's disease associated with Down "
        "syndrome. I recommend starting donepezil 5 mg nightly. Please discontinue the "
        "oxybutynin, which is anticholinergic. I would avoid antipsychotics such as "
        "risperidone; reserve them only if there is severe risk of harm despite behavioral "
        "measures.",
    ),
    (
        None,
        "| Item | Plan |\n|---|---|\n| Diagnosis | Alzheimer-type dementia (Down syndrome) |\n"
        "| Donepezil | 5 mg PO at bedtime; ↑ to 10 mg after 4–6 weeks if tolerated |\n"
        "| Oxybutynin | Stop |\n| Antipsychotics | Avoid |",
    ),
    (
        None,
        "Probable DS-AD. Start donepezil 2.5 mg daily for 2 weeks then 5 mg daily. Taper off "
        "oxybutynin; scheduled toileting instead. Avoid antipsychotics.",
    ),
    (
        None,
        "Dementia due to Alzheimer disease. Switch oxybutynin to mirabegron 25 mg daily. Begin "
        "donepezil 5 mg once daily. Non-drug approaches for evening agitation; avoid "
        "risperidone.",
    ),
    (
        AD_AMI,
        "Down syndrome-associated Alzheimer disease. Start donepezil 5 mg at bedtime. Taper "
        "amitriptyline off over 2 weeks. No antipsychotic.",
    ),
    (
        AD_DPH,
        "Alzheimer's dementia. Stop diphenhydramine; melatonin may help sleep. Start "
        "donepezil 5 mg daily.",
    ),
    (
        HYPO_DPH,
        "Under-replaced hypothyroidism: TSH 15.5 with a low free T4. Increase "
        "levothyroxine to 100 mcg daily and recheck TSH in 6 weeks. Hold off on donepezil "
        "until she is euthyroid and cognition is reassessed. Stop diphenhydramine. Avoid "
        "risperidone.",
    ),
    (
        HYPO_AMI,
        "Assessment: hypothyroidism, inadequately replaced (TSH 13.6).\nPlan:\n"
        "1. Levothyroxine 75 -> 100 mcg daily; TSH in 6 weeks.\n2. Do not start donepezil "
        "now. If cognition has not improved 3 months after the TSH normalizes, start "
        "donepezil 5 mg daily.\n3. Discontinue amitriptyline.",
    ),
    (
        None,
        "Down syndrome-associated Alzheimer disease. Start donepezil 5 mg once daily in the "
        "evening. Stop oxybutynin. Avoid antipsychotics; reserve risperidone only if there is "
        "risk of harm to herself or others despite non-drug measures.",
    ),
    (
        None,
        "Alzheimer disease in Down syndrome. Start donepezil 5 mg at bedtime. Continue "
        "levothyroxine 75 mcg. Stop oxybutynin.",
    ),
    (
        HYPO_DPH,
        "Under-replaced hypothyroidism (TSH markedly elevated, free T4 low) is a reversible "
        "cause of the decline; Alzheimer disease cannot be diagnosed until she is "
        "euthyroid. Increase levothyroxine to 0.1 mg daily; TSH in 6-8 weeks. Defer "
        "donepezil. Stop diphenhydramine; melatonin 3 mg at bedtime if needed.",
    ),
    (
        HYPO_DPH,
        "Hypothyroidism, under-replaced, TSH 15.5. Increase levothyroxine to 112 mcg daily; "
        "repeat TSH in 8 weeks. If cognition has not improved once euthyroid, start "
        "donepezil 5 mg. Stop diphenhydramine.",
    ),
]

WRONG = [
    (
        None,
        "medication_plan_documented",
        "Alzheimer disease. Start donepezil 10 mg daily. Stop oxybutynin.",
    ),
    (
        None,
        "medication_plan_documented",
        "Alzheimer disease. Stop oxybutynin first and start donepezil 5 mg in a month if still "
        "declining.",
    ),
    (
        None,
        "no_antipsychotic",
        "Alzheimer disease. Start donepezil 5 mg daily. Stop oxybutynin. Risperidone 0.25 mg at "
        "night may help the evening agitation.",
    ),
    (
        None,
        "anticholinergic_stopped",
        "Alzheimer disease. Start donepezil 5 mg daily. Continue oxybutynin for incontinence.",
    ),
    (
        None,
        "cause_assessed",
        "Under-replaced hypothyroidism explains the decline. Start donepezil 5 mg daily. Stop "
        "oxybutynin.",
    ),
    (
        AD_DPH,
        "anticholinergic_stopped",
        "Alzheimer's dementia. Start donepezil 5 mg daily. Stop oxybutynin.",
    ),
    (
        HYPO_DPH,
        "medication_plan_documented",
        "Under-replaced hypothyroidism, TSH 15.5. Increase levothyroxine to 100 mcg daily. Start "
        "donepezil 5 mg daily as well. Stop diphenhydramine.",
    ),
    (
        HYPO_DPH,
        "cause_assessed",
        "Down syndrome-associated Alzheimer disease; TSH 2.3 is normal. Increase levothyroxine to "
        "100 mcg. Stop diphenhydramine.",
    ),
    (
        HYPO_AMI,
        "medication_plan_documented",
        "Hypothyroidism, TSH 13.6. Increase levothyroxine to 175 mcg daily. No donepezil now. "
        "Stop amitriptyline.",
    ),
    # review findings 1-12
    (None, "anticholinergic_stopped", AD + "Switch oxybutynin to tolterodine 2 mg twice daily."),
    (None, "anticholinergic_stopped", AD + "Replace oxybutynin with solifenacin 5 mg daily."),
    (
        HYPO_DPH,
        "anticholinergic_stopped",
        HYPO + "Switch diphenhydramine to hydroxyzine 25 mg at bedtime. No antipsychotic.",
    ),
    (
        AD_AMI,
        "anticholinergic_stopped",
        AD + "Switch amitriptyline to nortriptyline 10 mg at bedtime. No antipsychotic.",
    ),
    (
        None,
        "no_antipsychotic",
        AD
        + "Stop oxybutynin. If the evening agitation persists, add risperidone 0.25 mg at night.",
    ),
    (
        None,
        "no_antipsychotic",
        AD + "Stop oxybutynin. Try a structured evening routine; if that does not help within 2 "
        "weeks, start risperidone 0.25 mg.",
    ),
    (
        None,
        "no_antipsychotic",
        AD + "Stop oxybutynin. Lorazepam 0.5 mg in the evening for agitation. No antipsychotic.",
    ),
    (
        None,
        "cause_assessed",
        "Vascular dementia. Start donepezil 5 mg daily. Stop oxybutynin. No antipsychotic.",
    ),
    (
        None,
        "cause_assessed",
        "Dementia due to hypothyroidism. Start donepezil 5 mg daily. Stop oxybutynin.",
    ),
    (
        HYPO_DPH,
        "cause_assessed",
        "Known hypothyroidism on levothyroxine, TSH 15.5. Diagnosis: Down syndrome-associated "
        "Alzheimer disease. Increase levothyroxine to 100 mcg daily. Stop diphenhydramine.",
    ),
    (
        None,
        "medication_plan_documented",
        "Alzheimer disease. Start donepezil 5 mg daily. Increase levothyroxine to 100 mcg daily. "
        "Stop oxybutynin. No antipsychotic.",
    ),
    (
        None,
        "medication_plan_documented",
        "Alzheimer disease. Start donepezil 5 mg twice daily. Stop oxybutynin. No antipsychotic.",
    ),
    (
        HYPO_DPH,
        "medication_plan_documented",
        HYPO + "Start memantine 5 mg daily. Stop diphenhydramine. No antipsychotic.",
    ),
    (
        HYPO_DPH,
        "medication_plan_documented",
        "Hypothyroidism, TSH 15.5, under-replaced. Increase levothyroxine to 125 mcg daily, "
        "recheck "
        "TSH in 6 weeks. No donepezil now. Stop diphenhydramine.",
    ),
    (
        HYPO_DPH,
        "medication_plan_documented",
        "Hypothyroidism, TSH 15.5, under-replaced. Increase levothyroxine to 100 mcg daily. No "
        "donepezil now. Stop diphenhydramine. No antipsychotic.",
    ),
    # a washout-then-start plan written as a temporary hold (deferral_contradicts)
    (
        None,
        "medication_plan_documented",
        "Down syndrome-associated Alzheimer disease. Stop oxybutynin. Hold donepezil for now; "
        "start "
        "donepezil 5 mg at bedtime in 6 weeks if still declining. No antipsychotic.",
    ),
    (
        None,
        "medication_plan_documented",
        AD
        + "Stop oxybutynin. I would hold off on donepezil until oxybutynin has been stopped for 4 "
        "weeks.",
    ),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (HYPO_DPH, AD_AMI, HYPO_AMI, AD_DPH), [None, HYPO_DPH, AD_AMI])
)
