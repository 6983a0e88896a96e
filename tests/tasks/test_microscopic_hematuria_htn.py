"""microscopic_hematuria_htn: the derived profile values, and the note phrasings and orders its
checkpoints must judge on each branch (high risk, intermediate risk, glomerular)."""

from __future__ import annotations

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from tests.tasks.helpers import get_instance, grade_note, note_probes, oracle_note, values

TASK = "microscopic_hematuria_htn"
INTERMEDIATE, GLOMERULAR, HIGH_3 = 0, 9, 3   # seeds drawing each profile
NO_CYTOLOGY = "no_cytology_in_initial_workup"


def test_canonical_values():
    vals = values(TASK)
    assert vals["kind"] == "high" and vals["risk"] == "high"
    assert (vals["rbc"], vals["rbc_first"], vals["pack_years"], vals["uacr"]) == (14, 11, 38, 13)
    assert (vals["creatinine"], vals["egfr"]) == (1.03, 84)
    assert vals["source_concept"] == "nonglomerular_hematuria"
    assert vals["risk_concepts"] == ["level_high", "high_risk_nodule"]


def test_branches_draw_their_profiles():
    inter, glom, high = values(TASK, INTERMEDIATE), values(TASK, GLOMERULAR), values(TASK, HIGH_3)
    assert (inter["kind"], inter["risk"], inter["pack_years"], inter["rbc"]) == (
        "intermediate", "intermediate", 25, 14)
    assert (glom["kind"], glom["risk"], glom["pack_years"]) == ("glomerular", "intermediate", 0)
    assert (glom["rbc"], glom["uacr"], glom["egfr"]) == (22, 578, 60)
    assert (high["kind"], high["pack_years"], high["rbc"]) == ("high", 32, 12)
    kinds = [values(TASK, n)["kind"] for n in range(20)]
    assert {"high", "intermediate", "glomerular"} == set(kinds)
    for n in range(20):   # every draw stays inside the AUA/SUFU category of its profile
        v = values(TASK, n)
        assert 3 <= v["rbc"] <= 25 and (v["pack_years"] > 30) == (v["risk"] == "high")


def note_verdicts(note: str, variant: int | None = None) -> dict[str, bool]:
    """The note-only checkpoints plus the note half of the cytology must-not (no orders)."""
    verdicts = grade_note(TASK, note, variant)
    instance = get_instance(TASK, variant)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    for c in instance_checkpoints(TASK, variant):
        if c.id == NO_CYTOLOGY:
            verdicts[c.id] = c.grader.check(ctx).passed
    return verdicts


CORRECT = [
    (None, """Impression: persistent microscopic hematuria, 14 RBC/hpf on the latest UA, isomorphic
RBCs, no casts, UACR 13 mg/g -> nonglomerular.
AUA/SUFU risk: high (38 pack-years).
Plan: urology referral for cystoscopy; CT urogram. No urine cytology."""),
    (None, """| Item | Result |
|---|---|
| Urine RBC | 14 /HPF (isomorphic, no casts) |
| UACR | 13 mg/g |
| AUA/SUFU risk category | High |

Source: non-glomerular.
Plan:
- Cystoscopy (urology) - ordered
- CT urography - ordered
- Cytology: not indicated at this stage"""),
    (None, ("The most recent urinalysis shows 14 RBC/HPF with a "
            "sterile culture. The red cells are isomorphic and there are no red cell casts, and "
            "the albumin-to-creatinine ratio is normal, so glomerular disease is unlikely. With "
            "38 pack-years he falls into the AUA high-risk category for urothelial cancer. I "
            "ordered a multiphase CT urogram and referred him to urology for cystoscopy. If that "
            "evaluation is negative and the hematuria persists, urine cytology can be "
            "considered.")),
    (HIGH_3, "UA 12 RBC/HPF, bland sediment. High-risk microhematuria by AUA criteria "
             "(32 pack-years). Plan: cystoscopy and CT urography."),
    (INTERMEDIATE, """Urine: RBCs 14/hpf, WBC 2/hpf; isomorphic, no RBC casts; UACR 13 mg/g.
Assessment: non-glomerular microhematuria; AUA/SUFU intermediate risk (man 58, 25 pack-years).
Plan: 1. Cystoscopy with urology. 2. Renal ultrasound. 3. No urine cytology or tumor markers."""),
    (INTERMEDIATE, ("Hematuria 14 RBC/hpf (prior 11). Glomerular disease is unlikely (no "
                    "dysmorphic "
                    "RBCs, no casts, normal UACR). Intermediate risk for urologic malignancy. "
                    "I have ordered a renal ultrasound and a urology referral for cystoscopy.")),
    (GLOMERULAR, """UA 3 wk ago: 22 RBC/hpf, dysmorphic RBCs with acanthocytes and RBC casts;
UACR 578 mg/g; eGFR 60.
Impression: glomerular hematuria, likely IgA nephropathy. AUA risk category: intermediate (male
58, never smoker).
Plan: UPCR, C3/C4, ANCA, anti-GBM, renal ultrasound; urology for cystoscopy. Will see in clinic
re kidney biopsy."""),
    (GLOMERULAR, ("Microhematuria of 22 RBC/HPF with acanthocytes and red cell casts and a UACR of "
                  "578 mg/g points to a glomerulonephritis. He is AUA/SUFU intermediate-risk "
                  "category, so cystoscopy is still needed. I have ordered a urine "
                  "protein/creatinine ratio, complement C3 and C4, MPO and PR3 antibodies, an "
                  "anti-GBM antibody, a renal ultrasound and cystoscopy.")),
    # review findings 3-8: allowances and wordings that must keep passing
    (None, "UA 14 RBC/HPF, isomorphic, no casts: non-glomerular. AUA/SUFU high risk. Plan: "
           "cystoscopy and CT urography. Continue aspirin. Urine cytology only if the hematuria "
           "persists after a negative evaluation."),
    (None, "UA: 14 erythrocytes/HPF, isomorphic, no casts: non-glomerular. "
           "AUA/SUFU high risk. Plan: cystoscopy and CT urography."),
    (None, "The latest urine shows 14 erythrocytes per high-power field. Isomorphic, no casts: "
           "non-glomerular. AUA/SUFU high risk. Plan: cystoscopy and CT urography."),
    (None, "UA 14 RBC/HPF. The pattern points to a lower urinary tract source. AUA/SUFU high "
           "risk. Plan: cystoscopy and CT urography. He does not need to stop aspirin."),
    (INTERMEDIATE, "UA 14 RBC/HPF, isomorphic, no casts: non-glomerular. AUA/SUFU intermediate "
                   "risk.\nPlan: cystoscopy and renal ultrasound. CT urography if the "
                   "ultrasound shows a lesion."),
]

HIGH_NOTE = ("UA 14 RBC/HPF, isomorphic, no casts: non-glomerular. AUA/SUFU high risk. Plan: "
             "cystoscopy and CT urography.")

WRONG = [
    (None, "hematuria_source_assessed",
     "UA: 11 RBC/HPF. Isomorphic RBCs, no casts: non-glomerular. AUA high risk. Plan: cystoscopy "
     "and CT urography."),                                              # stale count
    (None, "hematuria_source_assessed",
     "Latest UA 14 RBC/HPF; dysmorphic RBCs suggest a glomerular source. AUA high risk. Plan: "
     "cystoscopy and CT urography."),                                   # wrong source
    (None, "hematuria_source_assessed",
     "UA 14 RBC/HPF, isomorphic RBCs. Glomerular source cannot be excluded. AUA high risk. "
     "Plan: cystoscopy and CT urography."),
    (None, "malignancy_risk_stratified",
     "Latest UA 14 RBC/HPF, isomorphic, no RBC casts: non-glomerular. AUA/SUFU intermediate "
     "risk. Plan: cystoscopy and CT urography."),                       # wrong category
    (None, "workup_plan_documented",
     "Latest UA 14 RBC/HPF, isomorphic, no RBC casts: non-glomerular. AUA/SUFU high risk. "
     "Plan: cystoscopy and renal ultrasound."),                         # under-imaged
    (None, "workup_plan_documented",
     "Latest UA 14 RBC/HPF, isomorphic, no RBC casts: non-glomerular. AUA/SUFU high risk. "
     "Could consider cystoscopy and CT urography in the future."),      # hedged
    (None, "workup_plan_documented",
     "Latest UA 14 RBC/HPF, isomorphic, no RBC casts: non-glomerular. AUA/SUFU high risk. "
     "Repeat urinalysis in 6 months."),                                 # watchful waiting
    (None, NO_CYTOLOGY,
     "Latest UA 14 RBC/HPF, isomorphic, no RBC casts: non-glomerular. AUA/SUFU high risk. "
     "Plan: cystoscopy, CT urography and urine cytology."),
    (None, NO_CYTOLOGY,
     "Latest UA 14 RBC/HPF, isomorphic: non-glomerular. AUA/SUFU high risk. Plan: cystoscopy "
     "and CT urography; send a UroVysion FISH as well."),
    (INTERMEDIATE, "malignancy_risk_stratified",
     "UA 14 RBC/HPF, isomorphic: non-glomerular. AUA/SUFU high-risk category. Plan: cystoscopy "
     "and renal ultrasound."),
    (INTERMEDIATE, "workup_plan_documented",
     "UA 14 RBC/HPF, isomorphic: non-glomerular. AUA intermediate risk. Plan: renal ultrasound; "
     "cystoscopy is not necessary."),
    (GLOMERULAR, "hematuria_source_assessed",
     "UA 22 RBC/hpf; UACR 578 mg/g. Non-glomerular hematuria. AUA intermediate risk. Plan: UPCR, "
     "C3/C4, renal ultrasound, cystoscopy."),
    (GLOMERULAR, "hematuria_source_assessed",
     "UA 22 RBC/hpf; dysmorphic RBCs; UACR 64 mg/g. Glomerular hematuria. AUA intermediate risk. "
     "Plan: UPCR, C3/C4, renal ultrasound, cystoscopy."),               # wrong UACR
    (GLOMERULAR, "workup_plan_documented",
     "UA 22 RBC/hpf; dysmorphic RBCs; UACR 578 mg/g. Glomerular hematuria. AUA intermediate "
     "risk. Plan: UPCR, C3/C4, renal ultrasound. Cystoscopy is not needed given the glomerular "
     "source."),
    (GLOMERULAR, "workup_plan_documented",
     "UA 22 RBC/hpf; dysmorphic RBCs; UACR 578 mg/g. Glomerular hematuria. AUA intermediate "
     "risk. Plan: renal ultrasound and cystoscopy; kidney biopsy."),    # no UPCR or complement
    # review finding 3: singular and biomarker wordings, current products
    (None, NO_CYTOLOGY, HIGH_NOTE + " Send a urine biomarker."),
    (None, NO_CYTOLOGY, HIGH_NOTE + " Order a urine tumor marker."),
    (None, NO_CYTOLOGY, HIGH_NOTE + " Bladder EpiCheck now."),
    # review finding 4: a marker offered on a wish at high risk
    (None, NO_CYTOLOGY, HIGH_NOTE + " Cxbladder is an option if he is reluctant."),
    (None, NO_CYTOLOGY, HIGH_NOTE + " If he declines cystoscopy, a validated urine-based "
                                    "tumor marker could help decide whether to defer it."),
    # review finding 5: CT urography up front at intermediate risk
    (INTERMEDIATE, "workup_plan_documented",
     "UA 14 RBC/HPF, isomorphic: non-glomerular. AUA intermediate risk.\nPlan: cystoscopy, "
     "renal ultrasound and CT urography."),
    (GLOMERULAR, "workup_plan_documented",
     "UA 22 RBC/hpf, dysmorphic RBCs; UACR 578 mg/g. Glomerular hematuria. AUA intermediate "
     "risk.\nPlan: UPCR, C3/C4, ANCA, renal ultrasound, CT urography; urology for cystoscopy."),
    # review finding 6: blaming aspirin and stopping it
    (None, "hematuria_source_assessed",
     "UA 14 RBC/HPF, isomorphic, no casts: non-glomerular, most likely from his aspirin. Stop "
     "aspirin. AUA/SUFU high risk (38 pack-years). Plan: cystoscopy and CT urography. No urine "
     "cytology."),
    # review finding 7: no ANCA for a nephritic sediment with a falling eGFR
    (GLOMERULAR, "workup_plan_documented",
     "UA 22 RBC/hpf; dysmorphic RBCs; UACR 578 mg/g. Glomerular hematuria. AUA intermediate "
     "risk.\nPlan: UPCR, C3/C4, renal ultrasound; urology for cystoscopy."),
]


test_a_correct_note_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG, grade=note_verdicts)


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    assert all(note_verdicts(canonical).values())
    for variant in (INTERMEDIATE, GLOMERULAR, HIGH_3):
        assert not all(note_verdicts(canonical, variant).values()), variant


# ---- orders ----

def _oracle_actions(variant=None, drop=(), extra=()):
    """The oracle's calls and note, without the dropped (tool, code) orders, plus ``extra``."""
    instance = get_instance(TASK, variant)
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in instance.oracle.calls if (c.tool, c.arguments.get("code")) not in drop]
    note = {"tool": "write_file", "arguments": {"file_path": instance.note_path,
                                                "content": instance.oracle.note}}
    return calls + list(extra) + [note]


def _sr(code, system, category, **extra):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category, **extra}}


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


SR = "fhir_service_request_create"
CTU = _sr("74178", "cpt", "imaging", display="CT urography")
US = _sr("76770", "cpt", "imaging", display="Renal ultrasound")


WORKUP = "upper_tract_and_renal_workup_ordered"   # also refuses cytology and tumor markers


def test_cytology_orders_fail_the_must_not():
    cytology = _sr("88112", "cpt", "laboratory", display="Urine cytology")
    fish = _sr("88120", "cpt", "laboratory", display="UroVysion FISH")
    marker = _sr("0363U", "cpt", "laboratory", display="Urine biomarker for bladder cancer triage")
    assert _run(_oracle_actions())[WORKUP]
    assert not _run(_oracle_actions(extra=[cytology]))[WORKUP]
    assert not _run(_oracle_actions(extra=[marker]))[WORKUP]
    assert not _run(_oracle_actions(INTERMEDIATE, extra=[fish]), INTERMEDIATE)[WORKUP]


def test_no_ct_urography_at_intermediate_risk():
    for variant in (INTERMEDIATE, GLOMERULAR):
        assert _run(_oracle_actions(variant), variant)[WORKUP]
        assert not _run(_oracle_actions(variant, extra=[CTU]), variant)[WORKUP], variant


def test_glomerular_work_up_needs_anca_and_anti_gbm():
    for codes in (("6969-0", "6968-2"), ("31254-6",)):
        drop = [(SR, code) for code in codes]
        verdicts = _run(_oracle_actions(GLOMERULAR, drop=drop), GLOMERULAR)
        assert not verdicts[WORKUP], codes


def test_imaging_follows_the_risk_category():
    high = _run(_oracle_actions(drop=[(SR, "74178")], extra=[US]))
    assert not high["upper_tract_and_renal_workup_ordered"]
    inter = _run(_oracle_actions(INTERMEDIATE, drop=[(SR, "76770")], extra=[CTU]), INTERMEDIATE)
    assert not inter["upper_tract_and_renal_workup_ordered"]
    glom = _run(_oracle_actions(GLOMERULAR, drop=[(SR, "4485-9")]), GLOMERULAR)
    assert not glom["upper_tract_and_renal_workup_ordered"]


def test_cystoscopy_as_a_urology_referral():
    referral = _sr("306206005", "snomed", "referral", display="Referral to urology",
                   reason="Persistent microhematuria - please perform cystoscopy")
    verdicts = _run(_oracle_actions(drop=[(SR, "52000")], extra=[referral]))
    assert verdicts["cystoscopy_ordered"]
    assert not _run(_oracle_actions(drop=[(SR, "52000")]))["cystoscopy_ordered"]
