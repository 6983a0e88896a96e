"""Audit of task-level must-nots: a hedged, as-needed or backup allowance of what the canonical
case forbids, appended to the reference note, must fail a note checkpoint; a sentence that
turns the forbidden thing down must not.

Cases marked xfail(strict) are known gaps of the graders (see their reasons)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, oracle_note

# (task, must-not, allowance sentence): two phrasings per must-not of the canonical instance.
ALLOWANCES = [
    ("lipid_statin_management", "non-statin first line",
     "Ezetimibe 10 mg daily is a reasonable alternative to the statin if he prefers."),
    ("lipid_statin_management", "non-statin first line",
     "Icosapent ethyl may be used instead of a statin as needed."),
    ("lipid_statin_management", "other statin intensity",
     "Simvastatin 80 mg daily is an acceptable backup if atorvastatin is not covered."),
    ("lipid_statin_management", "other statin intensity",
     "Pravastatin 10 mg daily may be used instead if he prefers a gentler start."),
    ("new_onset_afib_young", "aspirin for stroke prevention",
     "Aspirin 81 mg is reasonable if he prefers."),
    ("new_onset_afib_young", "aspirin for stroke prevention",
     "Low-dose aspirin may be taken daily for stroke prevention."),
    ("new_onset_afib_young", "anticoagulant",
     "Apixaban 5 mg twice daily is an acceptable option if he wants extra stroke protection."),
    ("new_onset_afib_young", "anticoagulant",
     "A DOAC may be used as needed around episodes of AF."),
    ("new_onset_afib_young", "continued drinking",
     "Moderate drinking on weekends is fine if he prefers."),
    ("new_onset_afib_young", "continued drinking",
     "He may continue his usual alcohol intake."),
    ("diabetes_a1c_improvement", "glyburide",
     "Glyburide 2.5 mg daily is an acceptable backup."),
    ("diabetes_a1c_improvement", "glyburide",
     "Glyburide may be added as needed if cost is a barrier."),
    ("diabetes_a1c_improvement", "sulfonylurea",
     "Glipizide 5 mg daily is a reasonable alternative if he prefers a cheaper drug."),
    ("diabetes_a1c_improvement", "sulfonylurea",
     "A sulfonylurea such as glimepiride could also be considered."),
    ("osteoporosis_metabolic_workup", "bisphosphonate at eGFR 32",
     "Alendronate 70 mg weekly is an acceptable alternative if she prefers a pill."),
    ("osteoporosis_metabolic_workup", "bisphosphonate at eGFR 32",
     "Zoledronic acid 5 mg IV yearly may be considered if she declines denosumab."),
    ("osteoporosis_metabolic_workup", "vitamin D 50,000 IU daily",
     "Ergocalciferol 50,000 IU daily may be used if she prefers faster repletion."),
    ("osteoporosis_metabolic_workup", "vitamin D 50,000 IU daily",
     "Vitamin D 50,000 IU once daily for 2 weeks is a reasonable backup."),
    ("osteoporosis_metabolic_workup", "denosumab monthly",
     "Denosumab 60 mg may also be given monthly if the bone density does not improve."),
    ("osteoporosis_metabolic_workup", "denosumab monthly",
     "Monthly denosumab 60 mg injections are an acceptable option if she prefers."),
    ("thyroid_medication_management", "liothyronine",
     "Liothyronine 5 mcg daily can be added as needed for fatigue."),
    ("thyroid_medication_management", "liothyronine",
     "Adding liothyronine is a reasonable option if she prefers."),
    ("thyroid_medication_management", "levothyroxine at another dose",
     "Levothyroxine 125 mcg daily is also reasonable if she prefers a bigger step."),
    ("thyroid_medication_management", "levothyroxine at another dose",
     "Alternatively, levothyroxine 150 mcg once daily may be used."),
    ("hepatic_steatosis_fibrosis", "statin stopped",
     "Atorvastatin may be held if she prefers."),
    ("hepatic_steatosis_fibrosis", "statin stopped",
     "Stopping atorvastatin is a reasonable option given the raised liver enzymes."),
    ("hepatic_steatosis_fibrosis", "liver biopsy",
     "A liver biopsy is a reasonable alternative to elastography if she prefers."),
    ("hepatic_steatosis_fibrosis", "liver biopsy",
     "Liver biopsy may also be considered now."),
    ("post_gi_bleed_followup", "NSAID",
     "Ibuprofen may be used as needed for knee pain."),
    ("post_gi_bleed_followup", "NSAID",
     "Celecoxib is an acceptable option for knee flares if he prefers."),
    ("post_gi_bleed_followup", "amoxicillin/clarithromycin/levofloxacin regimen",
     "Clarithromycin triple therapy is a reasonable backup."),
    ("post_gi_bleed_followup", "amoxicillin/clarithromycin/levofloxacin regimen",
     "Amoxicillin-based triple therapy may be used if he prefers fewer pills."),
    ("post_gi_bleed_followup", "serology as test of cure",
     "H. pylori serology is an acceptable alternative for the test of cure."),
    ("post_gi_bleed_followup", "serology as test of cure",
     "An H. pylori antibody test may be used for the test of cure if he prefers a blood test."),
    ("iron_deficiency_anemia", "oral iron",
     "Ferrous sulfate every other day remains an option if he prefers tablets."),
    ("iron_deficiency_anemia", "oral iron",
     "Oral iron may be resumed as needed between infusions."),
    ("iron_deficiency_anemia", "iron dextran",
     "Low-molecular-weight iron dextran is an acceptable alternative."),
    ("iron_deficiency_anemia", "iron dextran",
     "Iron dextran 1000 mg IV may be used if he prefers a single infusion."),
    ("vte_risk_benefit", "aspirin for extended prevention",
     "Aspirin 81 mg daily after apixaban is reasonable if he prefers."),
    ("vte_risk_benefit", "aspirin for extended prevention",
     "Low-dose aspirin may be continued afterwards for extra protection."),
    ("vte_risk_benefit", "extended or reduced-dose anticoagulation",
     "Apixaban 2.5 mg twice daily could be continued beyond 3 months if he prefers."),
    ("vte_risk_benefit", "extended or reduced-dose anticoagulation",
     "Extended-phase anticoagulation is a reasonable option if he wishes."),
    ("vte_risk_benefit", "another anticoagulant",
     "Rivaroxaban 10 mg daily is an acceptable option for extended prevention."),
    ("vte_risk_benefit", "another anticoagulant",
     "Warfarin may be used instead of apixaban if cost is a barrier."),
    ("chronic_urticaria_allergist", "first-generation antihistamine",
     "Diphenhydramine 25 mg at night may still be used as needed for itching."),
    ("chronic_urticaria_allergist", "first-generation antihistamine",
     "Hydroxyzine 25 mg at bedtime is a reasonable add-on if sleep is poor."),
    ("chronic_urticaria_allergist", "long-term systemic steroid",
     "Low-dose prednisone 5 mg daily is a reasonable maintenance option if she prefers."),
    ("chronic_urticaria_allergist", "long-term systemic steroid",
     "Prednisone 10 mg daily may be continued long-term as needed."),
    ("chronic_urticaria_allergist", "allergy testing",
     "Food-specific IgE testing may be sent if she wishes."),
    ("chronic_urticaria_allergist", "allergy testing",
     "Skin-prick testing to common foods is reasonable for reassurance."),
    ("chronic_urticaria_allergist", "omalizumab before up-dosing",
     "Omalizumab 300 mg every 4 weeks may be started now if she prefers."),
    ("chronic_urticaria_allergist", "omalizumab before up-dosing",
     "Starting omalizumab right away is a reasonable alternative to up-dosing."),
    ("mdr_uti_antibiotics", "nitrofurantoin at CrCl < 30",
     "Nitrofurantoin is an acceptable backup."),
    ("mdr_uti_antibiotics", "nitrofurantoin at CrCl < 30",
     "Nitrofurantoin 100 mg twice daily for 5 days may be used if fosfomycin is unavailable."),
    ("mdr_uti_antibiotics", "TMP-SMX (sulfa allergy)",
     "TMP-SMX may be tried as an alternative since the isolate is susceptible."),
    ("mdr_uti_antibiotics", "TMP-SMX (sulfa allergy)",
     "Trimethoprim-sulfamethoxazole is a reasonable backup if fosfomycin is not covered."),
    ("mdr_uti_antibiotics", "fluoroquinolone (resistant)",
     "Ciprofloxacin 250 mg twice daily is an acceptable backup."),
    ("mdr_uti_antibiotics", "fluoroquinolone (resistant)",
     "Levofloxacin could be used if she prefers a short oral course."),
    ("mdr_uti_antibiotics", "oral beta-lactam (ESBL)",
     "Cefpodoxime is a reasonable oral option if needed."),
    ("mdr_uti_antibiotics", "oral beta-lactam (ESBL)",
     "Amoxicillin-clavulanate may be used as a backup."),
    ("hyponatremia_siadh_workup", "extra fluids or isotonic saline",
     "Isotonic saline may be given as needed for dizziness."),
    ("hyponatremia_siadh_workup", "extra fluids or isotonic saline",
     "Normal saline infusion is a reasonable option if the sodium falls further."),
    ("hyponatremia_siadh_workup", "sertraline continued",
     "Sertraline may be continued at 25 mg daily if her mood worsens."),
    ("hyponatremia_siadh_workup", "sertraline continued",
     "Continuing sertraline is acceptable if she prefers."),
    ("hyponatremia_siadh_workup", "another SSRI, SNRI or tricyclic",
     "Escitalopram is a reasonable replacement antidepressant if she prefers."),
    ("hyponatremia_siadh_workup", "another SSRI, SNRI or tricyclic",
     "Duloxetine could be used as an alternative antidepressant."),
    ("hyponatremia_siadh_workup", "thiazide",
     "Hydrochlorothiazide may be restarted if her blood pressure rises."),
    ("hyponatremia_siadh_workup", "thiazide",
     "Chlorthalidone is an acceptable option for her blood pressure."),
    ("alcohol_use_disorder", "naltrexone with opioids",
     "Naltrexone 50 mg daily is an acceptable backup if acamprosate is not tolerated."),
    ("alcohol_use_disorder", "naltrexone with opioids",
     "Extended-release naltrexone may be considered as needed."),
    ("buprenorphine_initiation", "naltrexone or full agonist",
     "Oxycodone 5 mg may be used as needed for withdrawal symptoms."),
    ("buprenorphine_initiation", "naltrexone or full agonist",
     "A short course of oxycodone-acetaminophen is an acceptable bridge if withdrawal is severe."),
    ("snri_to_ssri_titration", "serotonergic interacting drug",
     "Sumatriptan may be used as needed for migraine during the overlap."),
    ("snri_to_ssri_titration", "serotonergic interacting drug",
     "Tramadol is acceptable for occasional back pain."),
    ("snri_to_ssri_titration", "another antidepressant",
     "Bupropion may be added as needed if energy stays low."),
    ("snri_to_ssri_titration", "another antidepressant",
     "Mirtazapine 15 mg at bedtime is a reasonable add-on if she prefers."),
    ("afib_tachy_brady_elderly", "AV-nodal blocker before pacing",
     "Diltiazem 120 mg daily is a reasonable add-on if her rates stay fast."),
    ("afib_tachy_brady_elderly", "AV-nodal blocker before pacing",
     "Digoxin may be added as needed for rate control."),
    ("oligomenorrhea_pcos", "pituitary MRI",
     "A pituitary MRI is a reasonable option if she prefers."),
    ("oligomenorrhea_pcos", "pelvic ultrasound",
     "A pelvic ultrasound may be ordered as needed."),
    ("thyroid_function_workup", "thyroid ultrasound",
     "A baseline thyroid ultrasound is reasonable given her family history."),
    ("thyroid_function_workup", "thyroid ultrasound",
     "A thyroid ultrasound can be ordered if she would like reassurance."),
    ("thyroid_function_workup", "liothyronine",
     "Liothyronine 5 mcg daily may be added if she still feels tired."),
    ("thyroid_function_workup", "liothyronine",
     "Combination T4/T3 therapy is an acceptable alternative if she prefers."),
    ("incidental_pulmonary_findings", "PET/CT for a nodule <= 8 mm",
     "A PET/CT may be obtained if he prefers a faster answer."),
    ("incidental_pulmonary_findings", "PET/CT for a nodule <= 8 mm",
     "PET/CT is a reasonable alternative to the 6-12 month CT."),
    ("incidental_pulmonary_findings", "surveillance ended early",
     "Further CT surveillance may be stopped if he prefers."),
    ("incidental_pulmonary_findings", "surveillance ended early",
     "If the 12-month CT is stable, no further imaging is needed."),
    ("incidental_pulmonary_findings", "LDCT instead of the Fleischner CT",
     "An annual low-dose screening CT may replace the follow-up CT if he prefers."),
    ("incidental_pulmonary_findings", "LDCT instead of the Fleischner CT",
     "Low-dose screening CT is an acceptable alternative to the diagnostic follow-up CT."),
]

# One correct turn-down per task with a must-not (hemolytic_anemia_workup has none).
TURN_DOWNS = {
    "lipid_statin_management": "Ezetimibe and other non-statin drugs are not indicated first line.",
    "new_onset_afib_young": "Avoid aspirin and anticoagulants for stroke prevention.",
    "diabetes_a1c_improvement": "Avoid sulfonylureas such as glyburide given the hypoglycemia "
                                "risk in CKD.",
    "osteoporosis_metabolic_workup": "Do not use alendronate or zoledronic acid at this eGFR.",
    "thyroid_medication_management": "Liothyronine is not recommended.",
    "hepatic_steatosis_fibrosis": "Do not stop atorvastatin; statins are safe in MASLD.",
    "post_gi_bleed_followup": "Avoid ibuprofen and other NSAIDs.",
    "iron_deficiency_anemia": "Do not restart oral iron.",
    "vte_risk_benefit": "No aspirin after apixaban is stopped.",
    "chronic_urticaria_allergist": "Avoid hydroxyzine and other sedating antihistamines.",
    "mdr_uti_antibiotics": "Do not use nitrofurantoin.",
    "hyponatremia_siadh_workup": "Avoid other SSRIs such as escitalopram.",
    "alcohol_use_disorder": "Do not start naltrexone while he takes opioids.",
    "buprenorphine_initiation": "No methadone, naltrexone or full-agonist opioids.",
    "snri_to_ssri_titration": "Avoid tramadol and St John's wort during the overlap.",
    "incidental_pulmonary_findings": "No PET/CT for this nodule.",
    "thyroid_function_workup": "No thyroid ultrasound or liothyronine is needed.",
    "afib_tachy_brady_elderly": "No digoxin, diltiazem or verapamil before the pacemaker.",
    "oligomenorrhea_pcos": "No pituitary MRI, pelvic ultrasound or ACTH stimulation test is "
                           "needed.",
}

# Allowances that pass every note checkpoint (known gaps of the graders), keyed by sentence
# with the reason; the xfail is strict, so a gap that closes must leave the list. None today.
KNOWN_GAPS: dict[str, str] = {}
KNOWN_TURN_DOWN_GAPS: dict[str, str] = {}


def _with(task: str, sentence: str) -> str:
    return oracle_note(task).rstrip() + "\n\n" + sentence + "\n"


def _param(task: str, must_not: str, sentence: str):
    marks = [pytest.mark.xfail(strict=True, reason=f"known gap: {KNOWN_GAPS[sentence]}")
             ] if sentence in KNOWN_GAPS else []
    return pytest.param(task, sentence, id=f"{task}-{must_not}-{sentence[:40]}", marks=marks)


@pytest.mark.parametrize(("task", "sentence"), [_param(*row) for row in ALLOWANCES])
def test_allowance_fails_a_note_checkpoint(task: str, sentence: str) -> None:
    verdicts = grade_note(task, _with(task, sentence))
    assert not all(verdicts.values()), f"allowance passes every note checkpoint: {verdicts}"


@pytest.mark.parametrize(("task", "sentence"), [
    pytest.param(t, s, id=t, marks=[pytest.mark.xfail(
        strict=True, reason=f"known gap: {KNOWN_TURN_DOWN_GAPS[t]}")]
        if t in KNOWN_TURN_DOWN_GAPS else []) for t, s in TURN_DOWNS.items()])
def test_turn_down_keeps_every_note_checkpoint(task: str, sentence: str) -> None:
    verdicts = grade_note(task, _with(task, sentence))
    assert all(verdicts.values()), f"turn-down fails: {verdicts}"
