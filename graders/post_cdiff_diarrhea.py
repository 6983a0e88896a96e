"""post_cdiff_diarrhea: which episode the diarrhea after C. difficile infection is, and the plan.

The scenario decides the answer (IDSA/SHEA 2021 focused update; ACG 2021 CDI guideline):
- first_recurrence: toxin-positive diarrhea within 8 weeks of a vancomycin-treated first
  episode -> fidaxomicin 200 mg twice daily for 10 days (vancomycin taper-pulse accepted).
- second_recurrence: a third toxin-positive episode after vancomycin, then fidaxomicin ->
  vancomycin taper-pulse (or fidaxomicin) and fecal microbiota therapy after the course.
- pi_ibs: 1-2 soft stools a day after a treated episode, toxin negative with a positive PCR
  (colonization) -> post-infectious IBS: no anti-C. difficile antibiotic; fecal calprotectin and
  celiac serology.
In every branch: no metronidazole, no bezlotoxumab (withdrawn from the US market in 2025) and no
test of cure. The PPI is stopped without an indication, continued for Barrett's esophagus.
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
VANCOMYCIN_ORAL = "313570"
FIDAXOMICIN = "1111106"
METRONIDAZOLE = ["311681"]
# Stool C. difficile tests (a test of cure is not done): toxin A+B, toxin EIA, toxin-gene NAA.
C_DIFF_TEST = ["http://loinc.org|" + c for c in ("34713-8", "34468-9", "54067-4", "82197-5")]
# The same test ordered under another code or in free text (lab orders only: a referral's reason
# names the infection).
C_DIFF_TEST_TEXT = ["difficile toxin", "difficile PCR", "difficile NAAT", "difficile NAA",
                    "difficile test", "difficile assay", "difficile GDH", "difficile DNA",
                    "diff toxin", "diff PCR", "diff test", "test of cure"]
LAB_CATEGORY = "http://snomed.info/sct|108252007"

FIDAXOMICIN_ORDER = {"ordered": {
    "resource_type": "MedicationRequest", "codes": [RX + FIDAXOMICIN], "status": ["active"],
    "intent": ["order"], "dose": {"min": 200, "max": 200, "unit": "mg"},
    "per_day": {"min": 0.5, "max": 2}, "label": "fidaxomicin 200 mg twice daily"}}
VANCOMYCIN_ORDER = {"ordered": {
    "resource_type": "MedicationRequest", "codes": [RX + VANCOMYCIN_ORAL], "status": ["active"],
    "intent": ["order"], "dose": {"min": 125, "max": 125, "unit": "mg"},
    "per_day": {"min": 0.3, "max": 4}, "label": "oral vancomycin 125 mg (taper-pulse)"}}
NO_FIDAXOMICIN_ORDER = {"not_ordered": {
    "resource_type": "MedicationRequest", "codes": [RX + FIDAXOMICIN],
    "label": "fidaxomicin together with vancomycin"}}
NO_VANCOMYCIN_ORDER = {"not_ordered": {
    "resource_type": "MedicationRequest", "codes": [RX + VANCOMYCIN_ORAL],
    "label": "vancomycin together with fidaxomicin"}}
# Oral only: intravenous vancomycin does not reach the colon (IDSA/SHEA 2017).
FIDAXOMICIN_NOTE = {"note_decision": {
    "concept": ["fidaxomicin"], "action": ["start"], "dose": {"value": 200, "unit": "mg"},
    "route": ["oral"], "every": {"min": 2, "max": 2}, "label": "fidaxomicin 200 mg twice daily"}}
VANCOMYCIN_NOTE = {"note_decision": {
    "concept": ["vancomycin"], "action": ["start"], "dose": {"value": 125, "unit": "mg"},
    "route": ["oral"], "label": "oral vancomycin 125 mg taper-pulse"}}
# One anti-C. difficile antibiotic, not both at once; a fallback under a trigger ('if
# fidaxomicin cannot be obtained') is not a second start.
NO_VANCOMYCIN_NOTE = {"note_never": {
    "concept": ["vancomycin"], "action": ["start"], "allow_contingency": True,
    "label": "not vancomycin as well"}}
NO_FIDAXOMICIN_NOTE = {"note_never": {
    "concept": ["fidaxomicin"], "action": ["start"], "allow_contingency": True,
    "label": "not fidaxomicin as well"}}
NO_IV_VANCOMYCIN_NOTE = {"note_never": {
    "concept": ["intravenous_vancomycin"], "label": "no intravenous vancomycin"}}


def _alone(drug: dict[str, Any], without: dict[str, Any]) -> dict[str, Any]:
    return {"all": {"of": [drug, without, NO_IV_VANCOMYCIN_NOTE] if "note_decision" in drug
                    else [drug, without]}}

def post_cdiff(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    ppi = values["ppi"]["name"]
    if kind == "first_recurrence":
        order_options = [_alone(FIDAXOMICIN_ORDER, NO_VANCOMYCIN_ORDER),
                         _alone(VANCOMYCIN_ORDER, NO_FIDAXOMICIN_ORDER)]
        note_options = [_alone(FIDAXOMICIN_NOTE, NO_VANCOMYCIN_NOTE),
                        _alone(VANCOMYCIN_NOTE, NO_FIDAXOMICIN_NOTE)]
    elif kind == "second_recurrence":
        order_options = [_alone(VANCOMYCIN_ORDER, NO_FIDAXOMICIN_ORDER),
                         _alone(FIDAXOMICIN_ORDER, NO_VANCOMYCIN_ORDER)]
        note_options = [_alone(VANCOMYCIN_NOTE, NO_FIDAXOMICIN_NOTE),
                        _alone(FIDAXOMICIN_NOTE, NO_VANCOMYCIN_NOTE)]
    else:
        order_options, note_options = [], []
    return {
        "order_options": order_options,
        "note_options": note_options,
        "metronidazole_codes": [RX + c for c in METRONIDAZOLE],
        "cdi_antibiotic_codes": [RX + c for c in [VANCOMYCIN_ORAL, FIDAXOMICIN, *METRONIDAZOLE]],
        "c_diff_test_codes": C_DIFF_TEST,
        "c_diff_test_text": C_DIFF_TEST_TEXT,
        "lab_category": [LAB_CATEGORY],
        "ppi_action": ["stop"] if ppi == "no_indication" else ["continue"],
        "ppi_plan_text": ("stop omeprazole (no ongoing indication)" if ppi == "no_indication"
                          else "continue omeprazole (Barrett's esophagus)"),
        "episode_label": {"first_recurrence": "first recurrence of C. difficile infection",
                          "second_recurrence": "second recurrence (third episode) of C. difficile "
                                               "infection",
                          "pi_ibs": "post-infectious IBS (C. difficile colonization, not "
                                    "recurrent infection)"}[kind],
    }
