"""peripheral_neuropathy_workup: Cockcroft-Gault clearance for neuropathic pain dosing, the B12
result on metformin (low -> replace, borderline -> methylmalonic acid, normal -> nothing), the
neuropathy pattern (typical DSP -> no EMG/NCS; asymmetric, motor, rapid -> urgent EMG/NCS), SPEP
with immunofixation, and
the must-nots (opioids incl. tramadol, duloxetine at CrCl <30, routine EMG/NCS, a shotgun panel)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "peripheral_neuropathy_workup"
LOW_CKD4 = 8         # B12 low, typical, CrCl 15-29
NORMAL_RED_CKD4 = 0  # B12 normal, red flags, CrCl 15-29
BORDER_RED_CKD4 = 2  # B12 borderline, red flags, CrCl 15-29
BORDER_TYP = 9       # B12 borderline, typical, CrCl 30-59
NORMAL_TYP = 10      # B12 normal, typical, CrCl 30-59
BORDER_RED_60 = 7    # B12 borderline, red flags, CrCl >=60
TYP_60 = 11          # B12 borderline, typical, CrCl >=60


def test_canonical_values():
    vals = values(TASK)
    assert vals["b12_band"] == "low" and vals["b12"] == 168
    assert vals["presentation"]["name"] == "typical"
    assert vals["creat"] == 1.9 and vals["egfr"] == 38 and vals["metformin_plan"] == "reduced"
    assert (vals["crcl_ibw"], vals["crcl"]) == (39, 47)
    assert (vals["crcl_lo"], vals["crcl_hi"]) == (38.1, 48.0)
    assert vals["renal_band"] == "30-59" and vals["gaba_max_daily"] == 1400
    assert vals["gaba_per_day"] == 2 and vals["duloxetine_ok"] is True


def test_branches_and_bands_move():
    seen = {(values(TASK, n)["b12_band"], values(TASK, n)["presentation"]["name"],
             values(TASK, n)["renal_band"]) for n in range(20)}
    assert {b for b, _, _ in seen} == {"low", "borderline", "normal"}
    assert {p for _, p, _ in seen} == {"typical", "red_flag"}
    assert {r for _, _, r in seen} == {"15-29", "30-59", "60+"}
    for n in range(20):
        v = values(TASK, n)
        # both weights give one band, away from its edges; duloxetine only at CrCl >= 30
        assert (v["crcl_hi"] - 1.0 < 30) == (v["renal_band"] == "15-29")
        assert v["duloxetine_ok"] == (v["renal_band"] != "15-29")
        # metformin follows the eGFR (stopped below 30, halved below 45)
        assert (v["metformin_plan"] == "stopped") == (v["egfr"] < 30)
        assert v["egfr_prev"] >= 30 or v["metformin_plan"] != "stopped"


_NO = " No tramadol or other opioid."
_TYP = (" Typical length-dependent distal symmetric polyneuropathy, no red flags. SPEP with "
        "immunofixation ordered. No EMG/NCS needed now.")

CORRECT = [
    (None, "CrCl ~47 mL/min (Cockcroft-Gault). B12 168 pg/mL = B12 deficiency (metformin). Start "
           "cyanocobalamin 1000 mcg IM weekly x4, then monthly." + _TYP + " Start duloxetine 30 mg "
           "daily, then 60 mg daily after 2 weeks." + _NO),
    (None, """| Item | Recommendation |
|---|---|
| Creatinine clearance (Cockcroft-Gault) | 40 mL/min |
| B12 | 168 pg/mL - vitamin B12 deficiency on long-term metformin |
| B12 replacement | Start cyanocobalamin 1000 mcg IM weekly |
| Pattern | Length-dependent distal symmetric polyneuropathy |
| Labs | Order SPEP with immunofixation |
| EMG/NCS | Not needed for a typical DSP |
| Pain | Start gabapentin 100 mg twice daily, max 1400 mg/day |
| Opioids incl. tramadol | Avoid |
"""),
    (None, "Dear colleague, his creatinine clearance is about 45 mL/min. The B12 of 168 pg/mL "
           "indicates B12 deficiency, likely from metformin, so I have started B12 injections. The "
           "picture is a typical distal symmetric polyneuropathy, most likely diabetic; I have "
           "ordered a serum protein electrophoresis with immunofixation. An EMG is not necessary "
           "unless he develops weakness or asymmetry. I started pregabalin 100 mg once daily. "
           "Please avoid tramadol and other opioids."),
    (LOW_CKD4, "CrCl 26 mL/min. B12 168 pg/mL: B12 deficiency. Start cyanocobalamin 1000 mcg IM "
               "weekly." + _TYP + " Start gabapentin 200 mg at bedtime, max 700 mg/day once daily. "
               "Avoid duloxetine at this CrCl." + _NO),
    (BORDER_TYP, "CrCl 45 mL/min. B12 268 pg/mL is borderline; order a methylmalonic acid level."
                 + _TYP + " Start duloxetine 30 mg once daily." + _NO),
    (NORMAL_TYP, "CrCl 50 mL/min. B12 488 pg/mL is normal; no replacement needed." + _TYP +
                 " Start duloxetine 30 mg daily." + _NO),
    (NORMAL_RED_CKD4, "CrCl 24 mL/min. B12 571 pg/mL, normal. Red flags: new asymmetric right foot "
                      "drop over 5 weeks. Order an urgent EMG/NCS and SPEP with immunofixation. "
                      "Start gabapentin 100 mg at bedtime. No duloxetine." + _NO),
    (BORDER_RED_60, "CrCl 90 mL/min. B12 312 pg/mL, borderline: check MMA. Asymmetric, "
                    "motor-predominant foot drop - urgent EMG/NCS ordered. SPEP with "
                    "immunofixation ordered. Start duloxetine 30 mg daily." + _NO),
]

_DSP = (" SPEP with immunofixation ordered. No EMG/NCS needed now. Start duloxetine 30 mg daily."
        + _NO)
_PLAN = ("CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start cyanocobalamin 1000 mcg IM weekly."
         + _TYP)

CORRECT += [
    # common correct names of a typical DSP (review finding 5)
    (None, "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start cyanocobalamin 1000 mcg IM "
           "weekly. "
           "Assessment: diabetic distal symmetric sensorimotor polyneuropathy." + _DSP),
    (None, "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start cyanocobalamin 1000 mcg IM "
           "weekly. "
           "Assessment: distal symmetric peripheral neuropathy in a stocking distribution, most "
           "likely "
           "diabetic." + _DSP),
    (None, "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start cyanocobalamin 1000 mcg IM "
           "weekly. Assessment: symmetric, length-dependent, sensory-predominant axonal "
           "polyneuropathy." + _DSP),
    # pregabalin by daily total and label schedule (finding 1)
    (None, _PLAN.replace(" Start duloxetine", "")
     + " Start pregabalin 50 mg three times daily." + _NO),
    (LOW_CKD4, "CrCl 26 mL/min. B12 168 pg/mL: B12 deficiency. Start cyanocobalamin 1000 mcg IM "
               "weekly." + _TYP + " Start pregabalin 25 mg twice daily. Avoid duloxetine." + _NO),
    # borderline B12 at CrCl <30: MMA is unreliable, empiric B12 is correct (finding 4)
    (BORDER_RED_CKD4, "CrCl 26 mL/min. B12 312 pg/mL is borderline; MMA is unreliable at this "
                      "level "
                      "of kidney function, so start empiric cyanocobalamin 1000 mcg IM monthly. "
                      "Red "
                      "flags: new asymmetric right foot drop over 5 weeks. Order an urgent "
                      "EMG/NCS and "
                      "SPEP with immunofixation. Start gabapentin 100 mg at bedtime. No duloxetine."
                      + _NO),
]

WRONG = [
    (None, "plan_documented", _PLAN + " Start pregabalin 150 mg three times daily." + _NO),
    (TYP_60, "plan_documented", "CrCl 70 mL/min. B12 312 pg/mL is borderline; order a "
     "methylmalonic acid level." + _TYP + " Start pregabalin 300 mg three times daily." + _NO),
    (None, "plan_documented", _PLAN + " Start duloxetine 30 mg daily; increase to 120 mg daily "
                                      "after "
     "2 weeks." + _NO),
    (None, "plan_documented", _PLAN + " Start duloxetine 30 mg daily. Also send serum arsenic, "
     "mercury and blood lead levels." + _NO),
    (None, "plan_documented", _PLAN + " Start duloxetine 30 mg daily. Send a paraneoplastic "
                                      "antibody "
     "panel given his cancer history." + _NO),
    (NORMAL_RED_CKD4, "neuropathy_pattern", "CrCl 24 mL/min. B12 571 pg/mL, normal. Typical distal "
     "symmetric polyneuropathy; foot drop is part of diabetic neuropathy. EMG/NCS ordered. SPEP "
     "with "
     "immunofixation ordered. Start gabapentin 100 mg at bedtime. No duloxetine." + _NO),
    (None, "neuropathy_pattern", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly. Typical length-dependent polyneuropathy; alcoholic "
     "neuropathy is the likely cause." + _DSP),
    (BORDER_TYP, "b12_interpreted", "CrCl 45 mL/min. B12 268 pg/mL is borderline; start empiric "
     "cyanocobalamin 1000 mcg IM monthly." + _TYP + " Start duloxetine 30 mg once daily." + _NO),
    (None, "renal_function_assessed", "CrCl 75 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly." + _TYP + " Start duloxetine 30 mg daily." + _NO),
    (None, "b12_interpreted", "CrCl 47 mL/min. B12 455 pg/mL, normal; no replacement needed." + _TYP
     + " Start duloxetine 30 mg daily." + _NO),
    (None, "b12_interpreted", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Consider B12 "
     "replacement later." + _TYP + " Start duloxetine 30 mg daily." + _NO),
    (None, "plan_documented", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly." + _TYP + " Start duloxetine 30 mg daily. Tramadol 50 mg "
     "at night may be added if needed."),
    (None, "plan_documented", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly. Typical length-dependent distal symmetric "
     "polyneuropathy. SPEP with immunofixation ordered. Order EMG/NCS to confirm. Start "
     "duloxetine 30 mg daily." + _NO),
    (None, "plan_documented", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly." + _TYP + " Start gabapentin 600 mg three times daily."
     + _NO),
    (None, "plan_documented", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly. Typical length-dependent distal symmetric "
     "polyneuropathy, no red flags. No EMG/NCS needed now. Start duloxetine 30 mg daily." + _NO),
    (LOW_CKD4, "plan_documented", "CrCl 26 mL/min. B12 168 pg/mL: B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly." + _TYP + " Start duloxetine 30 mg daily." + _NO),
    (LOW_CKD4, "plan_documented", "CrCl 26 mL/min. B12 168 pg/mL: B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly." + _TYP + " Start gabapentin 300 mg twice daily." + _NO),
    (None, "plan_documented", "CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start "
     "cyanocobalamin 1000 mcg IM weekly." + _TYP + " Also send a heavy metal screen and "
     "antiganglioside antibodies. Start duloxetine 30 mg daily." + _NO),
    (BORDER_TYP, "b12_interpreted", "CrCl 45 mL/min. B12 268 pg/mL, fine." + _TYP +
     " Start duloxetine 30 mg once daily." + _NO),
    (NORMAL_TYP, "b12_interpreted", "CrCl 50 mL/min. B12 488 pg/mL. Start cyanocobalamin 1000 "
     "mcg IM monthly." + _TYP + " Start duloxetine 30 mg daily." + _NO),
    (NORMAL_RED_CKD4, "plan_documented", "CrCl 24 mL/min. B12 571 pg/mL, normal. Red flags: new "
     "asymmetric right foot drop. SPEP with immunofixation ordered. Start gabapentin 100 mg at "
     "bedtime. No duloxetine." + _NO),
    (NORMAL_RED_CKD4, "neuropathy_pattern", "CrCl 24 mL/min. B12 571 pg/mL, normal. Typical "
     "length-dependent distal symmetric polyneuropathy. Order EMG/NCS and SPEP with "
     "immunofixation. Start gabapentin 100 mg at bedtime. No duloxetine." + _NO),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LOW_CKD4, NORMAL_RED_CKD4, BORDER_RED_CKD4, BORDER_TYP, NORMAL_TYP,
                         BORDER_RED_60),
                  [None, LOW_CKD4, NORMAL_RED_CKD4, BORDER_TYP, NORMAL_TYP, BORDER_RED_60]))


def _med(code: str, dose: float, per_day: int, unit: str = "mg", route: str = "oral") -> dict:
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose, "dose_unit": unit,
        "route": route, "frequency": per_day, "period_unit": "day", "duration_days": 30,
        "sig": "as directed"}}


def _sr(code: str, system: str, display: str, priority: str = "routine") -> dict:
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "display": display,
        "category": "laboratory", "priority": priority}}


_DULOX_30 = _med("596930", 30, 1)
_GABA_200 = _med("310430", 200, 1)
_GABA_300_TID = _med("310431", 300, 3)
_TRAMADOL = _med("835603", 50, 2)
_B12 = _med("309594", 1000, 1, "ug", "intramuscular")
_SPEP = _sr("84165", "cpt", "Protein; electrophoretic fractionation and quantitation, serum")
_IFE = _sr("86334", "cpt", "Immunofixation electrophoresis; serum")
_MMA = _sr("13964-2", "loinc", "Methylmalonate [Moles/volume] in Serum or Plasma")
_NCS = _sr("95910", "cpt", "Nerve conduction studies; 7-8 studies")
_NCS_URGENT = _sr("95910", "cpt", "Nerve conduction studies; 7-8 studies", "urgent")
_PGB_25_BID = _med("483438", 25, 2)
_PGB_150_TID = _med("483438", 150, 3)
_PGB_100_TID = _med("483438", 100, 3)
_LEAD = _sr("5671-3", "loinc", "Lead [Mass/volume] in Blood")
_MAG = _sr("MAG-AB", "urn:oid:2.16.840.1.113883.19.5", "Myelin associated glycoprotein Ab "
                                                       "[Titer] in Serum")
_ANNA = _sr("ANNA-1", "urn:oid:2.16.840.1.113883.19.5", "Neuronal nuclear Ab type 1 (ANNA-1) in "
                                                        "Serum")
_FINISH = {"tool": "finish", "arguments": {"summary": "done"}}
_HEAVY = {"tool": "fhir_service_request_create", "arguments": {
    "patient": "{patient_id}", "code": "5671-3", "system": "loinc", "category": "laboratory",
    "display": "Lead [Mass/volume] in Blood - heavy metal screen"}}


@pytest.mark.parametrize(("variant", "checkpoint", "actions", "passes"), [
    (None, "pain_treatment_ordered", [_DULOX_30], True),
    (None, "pain_treatment_ordered", [_GABA_300_TID], False),  # 3 doses a day at CrCl 30-59
    (None, "pain_treatment_ordered", [_DULOX_30, _TRAMADOL], False),    # an opioid
    (LOW_CKD4, "pain_treatment_ordered", [_GABA_200], True),
    (LOW_CKD4, "pain_treatment_ordered", [_DULOX_30], False),           # duloxetine at CrCl <30
    (None, "diagnostic_orders", [_SPEP, _IFE], True),
    (None, "diagnostic_orders", [_SPEP], False),                        # no immunofixation
    (None, "diagnostic_orders", [_SPEP, _IFE, _NCS], False),            # EMG/NCS for a typical DSP
    (None, "diagnostic_orders", [_SPEP, _IFE, _HEAVY], False),          # shotgun panel
    (NORMAL_RED_CKD4, "diagnostic_orders", [_SPEP, _IFE, _NCS_URGENT], True),
    (NORMAL_RED_CKD4, "diagnostic_orders", [_SPEP, _IFE, _NCS], False),  # not urgent
    (NORMAL_RED_CKD4, "diagnostic_orders", [_SPEP, _IFE], False),        # no EMG/NCS
    (None, "b12_managed", [_B12], True),
    (None, "b12_managed", [_MMA], False),                               # deficient: replace
    (BORDER_TYP, "b12_managed", [_MMA], True),
    (BORDER_TYP, "b12_managed", [_B12], False),                         # borderline: MMA decides
    (NORMAL_TYP, "b12_managed", [_SPEP, _FINISH], True),               # decided at finish
    (NORMAL_TYP, "b12_managed", [_B12], False),                         # B12 normal
    (None, "pain_treatment_ordered", [_PGB_150_TID], False),            # 450 mg/day > 300
    (TYP_60, "pain_treatment_ordered", [_PGB_150_TID], False),          # 450 mg/day > 300
    (None, "pain_treatment_ordered", [_PGB_100_TID], True),             # 300 mg/day
    (LOW_CKD4, "pain_treatment_ordered", [_PGB_25_BID], True),          # LYRICA: BID at 15-30
    (None, "diagnostic_orders", [_IFE], True),                          # IFE alone (AAN 2009)
    (None, "diagnostic_orders", [_SPEP, _IFE, _LEAD], False),           # blood lead by LOINC
    (None, "diagnostic_orders", [_SPEP, _IFE, _MAG], False),            # MAG antibodies
    (None, "diagnostic_orders", [_SPEP, _IFE, _ANNA], False),           # ANNA-1
    (BORDER_RED_CKD4, "b12_managed", [_B12], True),                     # MMA unreliable at CrCl <30
    (BORDER_RED_CKD4, "b12_managed", [_MMA], True),
])
def test_orders(variant, checkpoint, actions, passes):
    assert run_actions(TASK, actions, variant=variant)[checkpoint] is passes


def test_a_wrapped_negated_panel_line_is_not_an_order():
    note = ("CrCl 47 mL/min. B12 168 pg/mL = B12 deficiency. Start cyanocobalamin 1000 mcg IM "
            "weekly." + _TYP + " Start duloxetine 30 mg daily." + _NO + "\n\n## Recommendations\n"
            "1. SPEP with immunofixation (ordered).\n   No broad neuropathy panel (heavy metals, "
            "antiganglioside or paraneoplastic antibodies,\n   genetic testing): low yield here.\n")
    assert grade_note(TASK, note)["plan_documented"]


@pytest.mark.xfail(strict=True, reason="reader gap: 'target dose 900 mg twice daily' is not "
                                       "read as a "
                   "planned increase to 1800 mg/day for an all_steps daily cap")
def test_a_gabapentin_target_above_the_band_fails():
    note = _PLAN + " Start gabapentin 300 mg twice daily; target dose 900 mg twice daily." + _NO
    assert not grade_note(TASK, note)["plan_documented"]


@pytest.mark.xfail(strict=True, reason="reader gap: '<drug> <dose> is FDA-approved for DPN and "
                                       "could be "
                   "added' is read as a statement of fact, not as an offer of the opioid")
def test_a_hedged_tapentadol_offer_after_a_fact_fails():
    note = (_PLAN + " Start duloxetine 30 mg daily. Tapentadol ER 50 mg twice daily is "
                    "FDA-approved "
            "for DPN and could be added.")
    assert not grade_note(TASK, note)["plan_documented"]


@pytest.mark.xfail(strict=True, reason="reader gap: a chained titration step ('increase to 60 "
                                       "mg daily, "
                   "then to 120 mg daily') is not read as a planned step for an all_steps "
                   "daily cap")
def test_a_chained_duloxetine_step_above_60_fails():
    note = _PLAN + (" Start duloxetine 30 mg daily, increase to 60 mg daily, then to 120 mg "
                    "daily.") + _NO
    assert not grade_note(TASK, note)["plan_documented"]
