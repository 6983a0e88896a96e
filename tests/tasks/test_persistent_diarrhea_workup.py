"""persistent_diarrhea_workup: the calprotectin and IgA draws, and the note phrasings its
checkpoints must judge on each branch (normal or raised calprotectin; normal IgA or selective
IgA deficiency)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "persistent_diarrhea_workup"
NORMAL_NORMAL = 9        # calprotectin 35, IgA normal
RAISED_NORMAL = 7        # calprotectin 779, IgA normal
NORMAL_DEFICIENT = 1     # calprotectin 36, selective IgA deficiency
RAISED_DEFICIENT = 0     # calprotectin 862, selective IgA deficiency


def test_canonical_values():
    vals = values(TASK)
    assert vals["inflammation"] == {"name": "normal"} and vals["iga"] == {"name": "normal"}
    assert vals["calpro"] == 24 and vals["calpro_band"] == "normal"
    assert vals["iga_mgdl"] == 186
    assert "no colonoscopy" in vals["workup_text"] and "31017-7" in vals["workup_text"]


def test_branches_draw_their_values():
    assert values(TASK, NORMAL_NORMAL)["calpro"] < 50
    raised = values(TASK, RAISED_NORMAL)
    assert raised["calpro"] >= 240 and raised["iga_mgdl"] == 186
    assert values(TASK, NORMAL_DEFICIENT)["iga_mgdl"] < 7
    assert "32998-7" in values(TASK, RAISED_DEFICIENT)["workup_text"]
    combos = {(values(TASK, n)["inflammation"]["name"], values(TASK, n)["iga"]["name"])
              for n in range(20)}
    assert len(combos) == 4


CORRECT = [
    (None, "Fecal calprotectin 24 mcg/g is normal. Likely IBS-D. Send tTG-IgA. Colonoscopy is not "
           "needed at this time. Do not repeat metronidazole."),
    (None, "Calprotectin 24 µg/g (normal). Functional diarrhea most likely. Check celiac serology "
           "(tTG IgA). No colonoscopy for now. No further antibiotics; I would not give "
           "tinidazole."),
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. Colonoscopy is not "
           "indicated unless alarm features develop. Avoid empiric metronidazole or tinidazole."),
    (None, "Celiac serology has not been done yet. Calprotectin 24 ug/g normal. IBS-D likely. "
           "tTG-IgA ordered. She does not need a colonoscopy. No empiric tinidazole."),
    (RAISED_NORMAL, "FCP 779 mcg/g, suggests Crohn's disease or other IBD. Send tTG-IgA. I have "
                    "ordered an ileocolonoscopy. Empiric tinidazole not indicated."),
    (NORMAL_DEFICIENT, "Calprotectin 36 ug/g normal; IBS-D likely. She has selective IgA "
                       "deficiency, so send tTG-IgG and DGP-IgG. No colonoscopy. No "
                       "metronidazole."),
    (NORMAL_DEFICIENT, "Calprotectin 36 ug/g normal; IBS-D likely. IgA deficient (IgA 4 mg/dL): "
                       "order deamidated gliadin peptide IgG today. Colonoscopy not needed. No "
                       "tinidazole."),
    # review 10: ulcerative colitis named for the raised calprotectin
    (RAISED_NORMAL, "Calprotectin 779 ug/g is markedly elevated and suggests ulcerative colitis. "
                    "Send tTG-IgA. Colonoscopy with biopsies ordered. No metronidazole."),
    # review 3: IBD therapy only once the biopsies confirm the diagnosis
    (RAISED_NORMAL, "Calprotectin 779 ug/g concerning for IBD. Send tTG-IgA. Ileocolonoscopy "
                    "ordered. If the biopsies confirm Crohn's disease, budesonide can be started "
                    "then. No metronidazole."),
    # review 11: the gluten-free diet only after a diagnosis
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered; keep eating gluten, a "
           "gluten-free diet only if celiac disease is confirmed. No colonoscopy now. No "
           "metronidazole."),
    # review 12/16: a working diagnosis, colonoscopy deferred to persisting diarrhea on an SSRI
    (None, "Calprotectin 24 ug/g normal. Suspected IBS-D; Rome IV duration not yet met. tTG-IgA "
           "ordered. No colonoscopy now; if diarrhea persists after a negative tTG and a "
           "bile-acid binder trial, colonoscopy with random biopsies for microscopic colitis (she "
           "takes sertraline). No metronidazole."),
    # symptomatic drugs with doses are not read as doses of metronidazole (c03 of the corpus)
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No colonoscopy now. No "
           "metronidazole.\n- Loperamide 2 mg PRN.\n- Not improved in 6-8 weeks -> cholestyramine "
           "4 g daily or rifaximin 550 mg TID x 14 d."),
    # review 1 (fixed in the reader): a sentence-final period after 'IgG' is split off
    (NORMAL_DEFICIENT, "Calprotectin 36 ug/g normal; IBS-D likely. Selective IgA deficiency (IgA "
                       "4 mg/dL). I ordered tTG-IgG. No colonoscopy now. No metronidazole."),
    (NORMAL_DEFICIENT, "Calprotectin 36 ug/g normal; IBS-D likely. IgA deficient (IgA 4 mg/dL): "
                       "order deamidated gliadin peptide IgG. Colonoscopy not needed. No "
                       "tinidazole."),
    # review 8 (fixed in the reader): a negated verb carries over 'or <verb> <drug>'
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No colonoscopy now. I "
           "would not repeat metronidazole or give tinidazole."),
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No colonoscopy now. Do "
           "not repeat metronidazole or give tinidazole: Giardia PCR was negative."),
    # review 9 (fixed in the reader): 'Question of colonoscopy' is a topic heading, not an offer
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered.\n\n#4 Question of "
           "colonoscopy\n- Under 45, no alarm features.\n- Plan: no colonoscopy now.\n\nNo "
           "metronidazole."),
    # spoken units, and 'evaluate for X' / 'screening for X' name X only as sought
    (None, "Fecal calprotectin is twenty-four micrograms per gram, which is normal. IBS-D likely. "
           "tTG-IgA ordered. No colonoscopy now. No metronidazole."),
    (None, "Calprotectin 24 ug/g normal, so there is no need for a colonoscopy to evaluate for "
           "IBD. IBS-D likely. tTG-IgA ordered. No metronidazole."),
    (RAISED_NORMAL, "Calprotectin 779 ug/g. Ileocolonoscopy with biopsies ordered to evaluate for "
                    "Crohn's disease. Send tTG-IgA. No metronidazole."),
    # the gluten-free diet turned down in its 'trial' wording
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered; no gluten-free diet trial "
           "before the serology. No colonoscopy now. No metronidazole."),
    # one 'not' over a list of verbs (review 8)
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No colonoscopy now. "
           "Don't retreat with metronidazole or switch to tinidazole."),
    # 'Colonoscopy: not now.' turns the test down (a reader gap once)
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered.\nColonoscopy: not now."
           "\nNo metronidazole."),
]

WRONG = [
    # canonical: the calprotectin of the Campylobacter episode 3 years ago quoted as current
    (None, "inflammation_assessed", "Calprotectin 128 ug/g. IBS-D likely. tTG-IgA ordered. No "
     "colonoscopy. No tinidazole."),
    # canonical: called IBD despite a normal calprotectin
    (None, "inflammation_assessed", "Calprotectin 24 ug/g normal. IBD likely. tTG-IgA ordered. "
     "No colonoscopy. No tinidazole."),
    # canonical: colonoscopy offered
    (None, "plan_documented", "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. "
     "Colonoscopy could be considered. No tinidazole."),
    # canonical: antiparasitic offered
    (None, "plan_documented", "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No "
     "colonoscopy. Could try tinidazole 2 g once."),
    # raised calprotectin called IBS
    (RAISED_NORMAL, "inflammation_assessed", "Calprotectin 779 ug/g. Likely IBS-D. tTG-IgA. "
     "Colonoscopy. No metronidazole."),
    # raised calprotectin, no colonoscopy
    (RAISED_NORMAL, "plan_documented", "Calprotectin 779 ug/g concerning for IBD. tTG-IgA. No "
     "colonoscopy needed. No metronidazole."),
    (RAISED_NORMAL, "plan_documented", "Calprotectin 779 ug/g concerning for IBD. tTG-IgA. "
     "Consider colonoscopy if symptoms persist. No metronidazole."),
    (RAISED_NORMAL, "plan_documented", "Calprotectin 779 ug/g concerning for IBD. tTG-IgA. "
     "Colonoscopy with biopsies. Repeat metronidazole 500 mg TID x 7 days."),
    # IgA deficiency: tTG-IgA relied on
    (NORMAL_DEFICIENT, "celiac_assessed", "Calprotectin 36 ug/g normal; IBS-D likely. Send "
     "tTG-IgA with total IgA. No colonoscopy. No metronidazole."),
    (NORMAL_DEFICIENT, "celiac_assessed", "Calprotectin 36 ug/g normal; IBS-D likely. IgA "
     "deficiency noted. Send tTG-IgA. No colonoscopy. No metronidazole."),
    # review 2: raised calprotectin, IBS-D still called most likely
    (RAISED_NORMAL, "inflammation_assessed", "Calprotectin 779 ug/g. IBD is possible, but IBS-D is "
     "most likely. Send tTG-IgA. Ileocolonoscopy ordered. No metronidazole."),
    # review 3: empiric steroid or mesalamine before the diagnosis
    (RAISED_NORMAL, "plan_documented", "Calprotectin 779 ug/g concerning for IBD. Send tTG-IgA. "
     "Ileocolonoscopy ordered. Start prednisone 40 mg daily now while awaiting the colonoscopy. "
     "No metronidazole."),
    (RAISED_NORMAL, "plan_documented", "Calprotectin 779 ug/g concerning for IBD. Send tTG-IgA. "
     "Ileocolonoscopy ordered. Start budesonide 9 mg daily now. No metronidazole."),
    (RAISED_NORMAL, "plan_documented", "Calprotectin 779 ug/g concerning for IBD. Send tTG-IgA. "
     "Ileocolonoscopy ordered. Budesonide 9 mg daily is a reasonable bridge until the "
     "colonoscopy. No metronidazole."),
    # review 7: DGP-IgA is not IgG-based serology
    (NORMAL_DEFICIENT, "celiac_assessed", "Calprotectin 36 ug/g normal; IBS-D likely. Selective "
     "IgA deficiency. Send deamidated gliadin peptide IgA. No colonoscopy now. No metronidazole."),
    (NORMAL_DEFICIENT, "celiac_assessed", "Calprotectin 36 ug/g normal; IBS-D likely. Selective "
     "IgA deficiency. Send tTG-IgA and deamidated gliadin peptide (DGP) IgA. No colonoscopy now. "
     "No metronidazole."),
    # review 11: gluten-free diet before the serology
    (None, "celiac_assessed", "Calprotectin 24 ug/g normal. IBS-D likely. Start a gluten-free diet "
     "now, then check tTG-IgA in 4 weeks. No colonoscopy now. No metronidazole."),
    # review 13: another antiparasitic
    (None, "plan_documented", "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No "
     "colonoscopy now. No metronidazole.\n- Paromomycin 500 mg TID x 7 days."),
    # review 17: IgG-based serology with a normal total IgA
    (None, "celiac_assessed", "Calprotectin 24 ug/g normal. IBS-D likely. Send tTG-IgG today. No "
     "colonoscopy now. No metronidazole."),
    # a gluten-free diet 'trial' offered before the serology (term in drugs.<task>.yaml)
    (None, "celiac_assessed", "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. A "
     "gluten-free diet trial is reasonable now if she prefers. No colonoscopy now. No "
     "metronidazole."),
]

# Correct notes the shared reader still misgrades (reader gaps reported in the review).
KNOWN_READER_GAPS = [
    # review 8: a gerund subject negated by its predicate, 'or switch to <drug>', a verb list
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No colonoscopy now. "
           "Repeating metronidazole or giving tinidazole is not indicated."),
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered. No colonoscopy now. I "
           "would not repeat metronidazole, give tinidazole or try nitazoxanide."),
    # review 9: a short answer after a question line is not read as an avoid decision
    (None, "Calprotectin 24 ug/g normal. IBS-D likely. tTG-IgA ordered.\n4. Colonoscopy? Not "
           "needed now.\nNo metronidazole."),
    # review 2 (cost of the opposite): 'before labeling this as IBS' read as affirming IBS
    (RAISED_NORMAL, "Calprotectin 779 ug/g concerning for IBD; Crohn's disease or colitis must be "
                    "excluded before labeling this as IBS. Send tTG-IgA. Ileocolonoscopy ordered. "
                    "No metronidazole."),
    # review 3: 'will be chosen after the biopsies' read as endorsing budesonide now
    (RAISED_NORMAL, "Calprotectin 779 ug/g concerning for IBD. Send tTG-IgA. Ileocolonoscopy "
                    "ordered. Treatment, for example budesonide or a biologic, will be chosen "
                    "after the biopsies. No metronidazole."),
]


@pytest.mark.xfail(strict=True, reason="known reader gap (see the review)")
@pytest.mark.parametrize(("variant", "note"), KNOWN_READER_GAPS)
def test_known_reader_gap(variant, note):
    assert all(grade_note(TASK, note, variant).values())


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (RAISED_NORMAL, NORMAL_DEFICIENT, RAISED_DEFICIENT),
                  [None, RAISED_NORMAL, NORMAL_DEFICIENT, RAISED_DEFICIENT]))


TTG_IGA = service_request("31017-7", "loinc", "laboratory")
TTG_IGG = service_request("32998-7", "loinc", "laboratory")
COLONOSCOPY = service_request("45380", "cpt", "procedure")


def _medication(code: str, display: str, dose: float) -> dict:
    return {"tool": "fhir_medication_request_create",
            "arguments": {"patient": "{patient_id}", "medication_code": code,
                          "medication_display": display, "dose_value": dose, "dose_unit": "mg",
                          "route": "oral", "frequency": 1}}


@pytest.mark.parametrize(("variant", "actions", "passes"), [
    (None, [TTG_IGA], True),
    (None, [service_request("45399", "cpt", "laboratory", display="Celiac serology panel")], True),
    # review 6: HLA typing is not the celiac screen
    (None, [service_request("94532-1", "loinc", "laboratory",
                            display="Celiac disease HLA-DQ2/DQ8 genotyping")], False),
    # review 14: flexible sigmoidoscopy with biopsy with a normal calprotectin
    (None, [TTG_IGA, service_request("45331", "cpt", "procedure")], False),
    (None, [TTG_IGA, _medication("311681", "metronidazole 500 mg", 500)], False),
    (NORMAL_DEFICIENT, [TTG_IGG], True),
    (NORMAL_DEFICIENT, [service_request("99999-9", "loinc", "laboratory",
                                        display="Deamidated gliadin peptide IgG Ab")], True),
    # review 5: an IgA-based test, and tTG-IgA with the IgG test only in its comment
    (NORMAL_DEFICIENT, [service_request("99999-9", "loinc", "laboratory",
                                        display="Deamidated gliadin peptide IgA Ab")], False),
    (NORMAL_DEFICIENT, [service_request("31017-7", "loinc", "laboratory",
                                        note="If negative, consider DGP-IgG")], False),
    (RAISED_NORMAL, [TTG_IGA, COLONOSCOPY], True),
    # review 4: corticosteroids an agent can order
    (RAISED_NORMAL, [TTG_IGA, COLONOSCOPY, _medication("197783", "hydrocortisone 20 mg", 20)],
     False),
    (RAISED_NORMAL, [TTG_IGA, COLONOSCOPY, _medication("197582", "dexamethasone 4 mg", 4)], False),
])
def test_workup_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["workup_ordered"] is passes
