"""Osteoporosis workup: kidney function decides alendronate vs denosumab; vitamin D first."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "osteoporosis_metabolic_workup"
NOTE_CHECKS = {"osteoporosis_assessed", "antiresorptive_choice_reasoned",
               "treatment_plan_documented"}

# Canonical instance: CKD 3b, eGFR 32 (37 a year ago), CrCl 32, spine T-score -2.7,
# 25-OH vitamin D 14 ng/mL -> denosumab.
CORRECT = [
    """Impression: postmenopausal osteoporosis - L1-L4 T-score -2.7 plus a low-trauma radius
    fracture. 25(OH)D 14 ng/mL = vitamin D deficiency. eGFR 32 mL/min/1.73m2 (CKD 3b).
    Bisphosphonates are contraindicated at eGFR <35, so no alendronate or zoledronic acid.
    Plan: vitamin D2 50,000 units weekly x 8 wks, then D3 2000 IU/day.
    Calcium 1200 mg/day total (diet + supplement).
    Denosumab 60 mg SC q6 months once vitamin D is replete.""",
    """Assessment
    - Osteoporosis (lowest T score -2.7, lumbar spine), high risk given prior wrist fracture.
    - Vitamin D deficient: 25-hydroxyvitamin D 35 nmol/L.
    - Estimated GFR 32 with creatinine 1.69: avoid oral bisphosphonates (not recommended
      below 35).
    Recommendations
    1. Replete with ergocalciferol 50000 IU once a week for 8 weeks.
    2. Elemental calcium 1,000-1,200 mg daily through diet and supplements.
    3. Prolia 60 mg subcutaneously every six months, starting after repletion.""",
    """CrCl 32 mL/min (Cockcroft-Gault): use denosumab instead of alendronate.
    Osteoporotic range T-score -2.7 at the spine. Low vitamin D, 25-OH D 14 ng/mL.
    Rx: Drisdol 50,000 IU weekly x8 weeks.
    Rx: denosumab 60 mg subcut twice yearly.
    Dietary calcium goal 1200 mg daily.""",
    # SOAP shorthand (PMO, Ca, q6mo, SQ)
    """A: PMO - LS T-score -2.7, hx distal radius fragility fx. 25-OH vit D 14 ng/mL: vit D
    deficiency. CKD 3b, eGFR 32 -> oral bisphosphonates not recommended (CrCl <35).
    P: ergocalciferol 50,000 IU q week x 8 wk; Ca 1000-1200 mg/d (diet + supp); denosumab
    60 mg SQ q6mo after repletion; PTH, phos, TSH ordered.""",
    # narrative, SI units for vitamin D, '50K IU', calcium in grams
    """Her lumbar spine T-score of -2.7 together with the wrist fracture confirms osteoporosis.
    The 25-hydroxyvitamin D is 35 nmol/L, so she is vitamin D deficient. With an eGFR of 32
    mL/min/1.73 m2, alendronate is contraindicated, and I recommend denosumab 60 mg
    subcutaneously every 26 weeks, first dose once vitamin D is repleted with vitamin D2 50K
    IU weekly for 8 weeks. Total calcium intake should be about 1.2 g a day.""",
]

_HEAD = ("Osteoporosis, spine T-score -2.7. Vitamin D deficiency, 25-OH D 14 ng/mL. "
         "eGFR 32, avoid bisphosphonates.\n")
_VITD = "Ergocalciferol 50,000 IU weekly for 8 weeks. Calcium 1200 mg daily.\n"
_DMAB = "Denosumab 60 mg SC every 6 months.\n"
WRONG = {
    # last year's eGFR read as current, and the bisphosphonate that follows from it
    "stale_egfr_alendronate": """Osteoporosis, spine T-score -2.7. Vitamin D deficiency,
    25-OH D 14 ng/mL. eGFR 37, above 35. Alendronate is appropriate first-line.
    Start alendronate 70 mg weekly. Ergocalciferol 50,000 IU weekly for 8 weeks.
    Calcium 1200 mg daily.""",
    "wrong_interval": _HEAD + _VITD + "Denosumab 60 mg SC every 3 months.",
    "daily_high_dose_vitamin_d": _HEAD + "Ergocalciferol 50,000 IU daily for 8 weeks. "
                                         "Calcium 1200 mg daily.\n" + _DMAB,
    "hedged": _HEAD + _VITD + "Consider denosumab 60 mg SC every 6 months.",
    "wrong_t_score": _HEAD.replace("-2.7", "-2.2") + _VITD + _DMAB,
    "wrong_vitamin_d": _HEAD.replace("14 ng/mL", "41 ng/mL") + _VITD + _DMAB,
    "oncology_dose": _HEAD + _VITD + "Denosumab 120 mg SC every 6 months.",
    "too_much_calcium": _HEAD + "Ergocalciferol 50,000 IU weekly for 8 weeks. "
                                "Calcium 2500 mg daily.\n" + _DMAB,
    "zoledronic_acid": _HEAD.replace(", avoid bisphosphonates", "") + _VITD
    + "Give zoledronic acid 5 mg IV once yearly.",
    "monthly_vitamin_d": _HEAD + "Ergocalciferol 50,000 IU monthly. Calcium 1200 mg daily.\n"
    + _DMAB,
    "wrong_crcl": _HEAD.replace("eGFR 32", "CrCl 52 mL/min:") + _VITD + _DMAB,
    "osteopenia": _HEAD.replace("Osteoporosis", "Osteopenia") + _VITD + _DMAB,
    "withholds_vitamin_d": _HEAD + "Hold off on vitamin D. Calcium 1200 mg daily.\n" + _DMAB,
}
STUFFED = """Osteoporosis, spine T-score -2.7. Vitamin D deficiency, 25-OH D 14 ng/mL.
eGFR 32 and 37. Avoid bisphosphonates. Start alendronate 70 mg weekly. Avoid denosumab.
Ergocalciferol 50,000 IU weekly for 8 weeks. Calcium 1200 mg daily.
Denosumab 60 mg SC every 6 months. Alendronate is contraindicated."""


def test_canonical_values():
    vals = values(TASK)
    assert (vals["scenario"], vals["drug"], vals["egfr"], vals["egfr_1y"]) == (
        "ckd3b", "denosumab", 32, 37)
    assert 30 <= vals["crcl"] < 35 and vals["vitd"] < 20


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


def test_keyword_stuffing_fails_the_decisions():
    verdicts = grade_note(TASK, STUFFED)
    assert not verdicts["antiresorptive_choice_reasoned"]
    assert not verdicts["treatment_plan_documented"]


def _variant(scenario: str) -> int:
    return next(s for s in range(40) if values(TASK, s)["scenario"] == scenario)


def test_preserved_kidney_function_calls_for_alendronate():
    seed = _variant("ckd3a")
    vals = values(TASK, seed)
    assert vals["egfr"] >= 45 and vals["crcl"] >= 35 and vals["drug"] == "alendronate"
    head = (f"Osteoporosis, lumbar T-score {vals['spine_t']}; vitamin D deficiency "
            f"(25-OH D {vals['vitd']} ng/mL). eGFR {vals['egfr']} mL/min/1.73 m2")
    vitd = "Ergocalciferol 50,000 IU weekly x 8 weeks, calcium 1000-1200 mg/day.\n"
    right = (head + " - alendronate is appropriate (no esophageal disease).\n" + vitd
             + "Start alendronate 70 mg PO once weekly after repletion.")
    assert all(grade_note(TASK, right, seed).values())
    needless_avoidance = (head + " but CKD, so avoid alendronate.\n" + vitd
                          + "Denosumab 60 mg SC every 6 months.")
    verdicts = grade_note(TASK, needless_avoidance, seed)
    assert not verdicts["antiresorptive_choice_reasoned"]
    daily_70 = head + " - alendronate is appropriate.\n" + vitd + "Start alendronate 70 mg daily."
    assert not grade_note(TASK, daily_70, seed)["treatment_plan_documented"]


PTH = service_request("2731-8", "loinc", "laboratory")


def _rx(code: str, dose: float, unit: str = "mg", **extra: object) -> dict:
    return {"tool": "fhir_medication_request_create",
            "arguments": {"patient": "{patient_id}", "medication_code": code,
                          "dose_value": dose, "dose_unit": unit, **extra}}


VITD_WEEKLY = _rx("1367410", 50000, "IU", frequency=1, period_unit="week")
DMAB = _rx("993452", 60, route="subcutaneous", sig="60 mg subcutaneously every 6 months")
ALENDRONATE = _rx("904431", 70, frequency=1, period_unit="week")


def _with(action: dict, **changes) -> dict:
    return {"tool": action["tool"], "arguments": {**action["arguments"], **changes}}


def test_right_orders_pass_in_the_ckd_variant():
    verdicts = run_actions(TASK, [VITD_WEEKLY, DMAB])
    assert verdicts["vitamin_d_prescribed"] and verdicts["antiresorptive_prescribed"]
    assert not verdicts["secondary_workup_ordered"]  # PTH, phosphate and TSH all needed
    assert not run_actions(TASK, [PTH])["secondary_workup_ordered"]


@pytest.mark.parametrize("actions", [
    [VITD_WEEKLY, ALENDRONATE],                            # bisphosphonate at eGFR 32
    [VITD_WEEKLY, DMAB, ALENDRONATE],                      # plus a bisphosphonate
    [VITD_WEEKLY, _with(DMAB, dose_value=120)],            # oncology dose
    [VITD_WEEKLY, _with(DMAB, frequency=1, period_unit="month")],  # monthly
], ids=["alendronate", "both", "120mg", "monthly"])
def test_wrong_antiresorptive_orders_fail(actions):
    assert not run_actions(TASK, actions)["antiresorptive_prescribed"]


def test_daily_high_dose_vitamin_d_fails():
    daily = _with(VITD_WEEKLY, period_unit="day")
    assert not run_actions(TASK, [daily, DMAB])["vitamin_d_prescribed"]
    assert not run_actions(TASK, [VITD_WEEKLY, daily, DMAB])["vitamin_d_prescribed"]


RISEDRONATE = _rx("905024", 35, frequency=1, period_unit="week")
IBANDRONATE = _rx("904932", 150, frequency=1, period_unit="month")
ZOLEDRONIC = _rx("1114085", 5, route="intravenous", frequency=1, period=12, period_unit="month")
DMAB_Q6MO = _with(DMAB, frequency=1, period=6, period_unit="month", sig="once every 6 months")


def test_alendronate_variant_rejects_a_second_antiresorptive():
    seed = _variant("ckd3a")
    assert run_actions(TASK, [VITD_WEEKLY, ALENDRONATE], seed)["antiresorptive_prescribed"]
    assert not run_actions(TASK, [VITD_WEEKLY, ALENDRONATE, DMAB],
                           seed)["antiresorptive_prescribed"]
    assert not run_actions(TASK, [VITD_WEEKLY, RISEDRONATE, ZOLEDRONIC],
                           seed)["antiresorptive_prescribed"]


@pytest.mark.parametrize("order", [DMAB, DMAB_Q6MO, RISEDRONATE, IBANDRONATE, ZOLEDRONIC],
                         ids=["denosumab", "denosumab_q6mo", "risedronate", "ibandronate",
                              "zoledronic_acid"])
def test_ckd3a_accepts_every_labeled_antiresorptive(order):
    seed = _variant("ckd3a")
    assert run_actions(TASK, [VITD_WEEKLY, order], seed)["antiresorptive_prescribed"]


def test_ckd3a_rejects_zoledronic_acid_monthly():
    seed = _variant("ckd3a")
    monthly = _with(ZOLEDRONIC, period=1)
    assert not run_actions(TASK, [VITD_WEEKLY, monthly], seed)["antiresorptive_prescribed"]


@pytest.mark.parametrize("order", [RISEDRONATE, IBANDRONATE, DMAB_Q6MO],
                         ids=["risedronate", "ibandronate", "denosumab_q6mo"])
def test_ckd3b_accepts_drugs_labeled_to_crcl_30(order):
    verdicts = run_actions(TASK, [VITD_WEEKLY, order])
    assert verdicts["antiresorptive_prescribed"] and verdicts["vitamin_d_prescribed"]


@pytest.mark.parametrize("actions", [
    [VITD_WEEKLY, ZOLEDRONIC],                              # contraindicated below 35
    [VITD_WEEKLY, RISEDRONATE, DMAB_Q6MO],                  # two antiresorptives
    [VITD_WEEKLY, _with(DMAB, frequency=1, period=3, period_unit="month")],  # every 3 months
], ids=["zoledronic_acid", "risedronate_plus_denosumab", "denosumab_q3mo"])
def test_ckd3b_wrong_orders_fail(actions):
    assert not run_actions(TASK, actions)["antiresorptive_prescribed"]


def test_order_tool_writes_the_period():
    from physbench_gym.grading.resources import frequency_per_day
    from physbench_gym.tools.orders import MedicationRequestCreateArgs
    from physbench_gym.tools.writes import _dosage
    args = MedicationRequestCreateArgs(**{**DMAB_Q6MO["arguments"], "patient": "pt-1"})
    dosage = _dosage(args, "subcutaneous")
    repeat = dosage["timing"]["repeat"]
    assert (repeat["frequency"], repeat["period"], repeat["periodUnit"]) == (1, 6, "mo")
    assert abs(frequency_per_day({"dosageInstruction": [dosage]}) - 1 / 182.625) < 1e-9
    assert MedicationRequestCreateArgs(**{**DMAB["arguments"], "patient": "pt-1"}).period == 1


_VITD_LINE = ("1. Ergocalciferol (vitamin D2) 50,000 IU by mouth once weekly for 8 weeks, then\n"
              "   cholecalciferol 1,000-2,000 IU daily for maintenance (prescription entered).")


@pytest.mark.parametrize("line", [
    "1. Ergocalciferol (vitamin D2) 50,000 IU by mouth once weekly for 8 weeks. Stop "
    "ergocalciferol after 8 weeks and switch to cholecalciferol 2,000 IU daily.",
    "1. Ergocalciferol (vitamin D2) 50,000 IU by mouth once weekly for 8 weeks. After 8 weeks, "
    "switch to cholecalciferol 2,000 IU daily.",
    "1. Cholecalciferol 5,000 IU daily for 8-12 weeks, then 2,000 IU daily.",
])
def test_maintenance_after_repletion_is_not_a_competing_schedule(line):
    note = oracle_note(TASK)
    assert _VITD_LINE in note
    assert grade_note(TASK, note.replace(_VITD_LINE, line))["treatment_plan_documented"]


@pytest.mark.parametrize("line", [
    "1. Ergocalciferol (vitamin D2) 50,000 IU by mouth once daily for 8 weeks.",
    "1. Ergocalciferol 50,000 IU weekly for 8 weeks. Then take 50,000 IU daily.",
    "1. Cholecalciferol 2,000 IU daily.",
])
def test_wrong_vitamin_d_plans_still_fail(line):
    note = oracle_note(TASK)
    assert not grade_note(TASK, note.replace(_VITD_LINE, line))["treatment_plan_documented"]


def test_ibandronate_plan_in_ckd3b():
    note = oracle_note(TASK)
    plan = values(TASK)["plan_line"]
    good = note.replace(plan, "Start ibandronate 150 mg by mouth once monthly after the 8-week "
                              "vitamin D course (prescription entered).")
    assert grade_note(TASK, good)["treatment_plan_documented"]
    bad = note.replace(plan, "Start ibandronate 150 mg by mouth once weekly after the 8-week "
                             "vitamin D course (prescription entered).")
    assert not grade_note(TASK, bad)["treatment_plan_documented"]
