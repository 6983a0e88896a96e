"""premenopausal_osteoporosis_hpt: hypercalcemia with a non-suppressed PTH and low bone density in
a 41-year-old woman planning a pregnancy - primary hyperparathyroidism (refer for
parathyroidectomy, localize, replete vitamin D) or familial hypocalciuric hypercalcemia (no
surgery, CASR testing); stop alendronate, no thiazide.

The canonical instance is primary hyperparathyroidism with vitamin D deficiency; variant 0 is
primary hyperparathyroidism with a replete vitamin D and variant 4 familial hypocalciuric
hypercalcemia.
"""

from __future__ import annotations

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "premenopausal_osteoporosis_hpt"
PHPT, FHH = 0, 4


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "phpt_low_d"
    assert (vals["ca"], vals["corrected_ca"], vals["pth"], vals["vitd"]) == (11.2, 11.1, 126, 13)
    assert (vals["uca"], vals["ucr"], vals["scr"], vals["egfr"]) == (345, 1080, 0.82, 92)
    # CCCR = (urine Ca x serum Cr) / (serum Ca x urine Cr) = 345 x 0.82 / (11.2 x 1080)
    assert vals["cccr"] == 0.0234
    assert vals["radius_z"] == -2.8 and vals["t"]["radius"] == -3.0


def test_branch_values():
    phpt, fhh = values(TASK, PHPT), values(TASK, FHH)
    assert phpt["scenario"]["name"] == "phpt" and phpt["vitd"] >= 30 and phpt["cccr"] > 0.02
    assert fhh["scenario"]["name"] == "fhh" and fhh["cccr"] < 0.01 and fhh["pth"] <= 66
    assert fhh["radius_z"] > -2.0  # within the expected range for age


def test_oracle_notes_pass_every_branch():
    for variant in (None, PHPT, FHH):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


CORRECT = [
    """41F, premenopausal, TTC within yr. Ca 11.2 (alb 4.1), PTH 126, 25OHD 13 (deficient).
    24h UCa 345 mg, UCr 1080 mg, SCr 0.82 -> CCCR 0.023. eGFR 92.
    DXA: radius Z -2.8, LS Z -2.3 (use Z-scores, not T).
    A: primary hyperparathyroidism; FHH is excluded. Vitamin D deficiency.
    P: refer to endocrine surgery for parathyroidectomy. Sestamibi SPECT/CT ordered.
    Ergocalciferol 50,000 IU weekly x 8 wk. Stop alendronate. No HCTZ - use amlodipine.""",
    """Her calcium is 11.2 mg/dL with an inappropriately high PTH of 126 pg/mL, and the
    calcium/creatinine clearance ratio from her 24-hour urine is 0.0234, so this is primary
    hyperparathyroidism rather than FHH. Her 25-hydroxyvitamin D is 13 ng/mL, which is deficient.
    Because she is premenopausal, her DXA should be read by Z-score: the distal radius Z-score is
    -2.8, below the expected range for age. I recommend referral to an endocrine surgeon for
    parathyroidectomy, as she is younger than 50, and a neck ultrasound for localization. Please
    start vitamin D3 2,000 IU daily. Please discontinue alendronate; I would not use a
    bisphosphonate or denosumab while she is planning pregnancy. I would avoid
    hydrochlorothiazide because thiazides raise calcium.""",
    """| Test | Value |
|---|---|
| Calcium | 11.2 mg/dL ↑ |
| PTH | 126 pg/mL ↑ |
| 25-OH D | 13 ng/mL ↓ |
| CCCR | 0.023 |
| Radius Z-score | −2.8 |

**Dx:** primary hyperparathyroidism (CCCR > 0.02 argues against FHH); vitamin D deficiency.

**Plan**
- Referral to endocrine surgery for parathyroidectomy
- Order sestamibi scan
- Vitamin D 50,000 IU once weekly for 8 weeks
- Stop alendronate
- Avoid thiazides""",
]

WRONG = {
    "calls it FHH": (
        "Ca 11.2, PTH 126, CCCR 0.0234. Familial hypocalciuric hypercalcemia. Radius Z-score "
        "-2.8. 25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; "
        "sestamibi scan. Vitamin D 2,000 IU daily. Stop alendronate. Avoid thiazides.",
        "biochemical_diagnosis"),
    "stale calcium as current": (
        "Calcium 10.6 mg/dL, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score "
        "-2.8. 25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; "
        "sestamibi scan. Vitamin D 2,000 IU daily. Stop alendronate. Avoid thiazides.",
        "biochemical_diagnosis"),
    "calcium of 7 weeks ago as current": (
        "Calcium 11.0 mg/dL (corrected 10.9), PTH 126, CCCR 0.0234: primary hyperparathyroidism. "
        "Radius Z-score -2.8. 25-OH D 13, deficient. Refer to endocrine surgery for "
        "parathyroidectomy; sestamibi scan. Vitamin D 2,000 IU daily. Stop alendronate. Avoid "
        "thiazides.", "biochemical_diagnosis"),
    "clearance ratio miscalculated": (
        "Ca 11.2, PTH 126, CCCR 0.011: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; sestamibi "
        "scan. Vitamin D 2,000 IU daily. Stop alendronate. Avoid thiazides.",
        "biochemical_diagnosis"),
    "T-score read as osteoporosis": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius T-score -3.0, "
        "osteoporosis. 25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; "
        "sestamibi scan. Vitamin D 2,000 IU daily. Stop alendronate. Avoid thiazides.",
        "bone_and_vitamin_d_assessed"),
    "vitamin D called adequate": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13 ng/mL, adequate. Refer to endocrine surgery for parathyroidectomy; "
        "sestamibi scan. Stop alendronate. Avoid thiazides.", "bone_and_vitamin_d_assessed"),
    "observation instead of surgery": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. No surgery for now; monitor calcium and creatinine yearly. "
        "Vitamin D 2,000 IU daily. Stop alendronate. Avoid thiazides.",
        "parathyroid_plan_documented"),
    "alendronate continued": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; sestamibi "
        "scan. Vitamin D 2,000 IU daily. Continue alendronate 70 mg weekly. Avoid thiazides.",
        "medication_plan_documented"),
    "switched to denosumab": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; sestamibi "
        "scan. Vitamin D 2,000 IU daily. Stop alendronate and start denosumab 60 mg every 6 "
        "months. Avoid thiazides.", "medication_plan_documented"),
    "thiazide allowed": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; sestamibi "
        "scan. Vitamin D 2,000 IU daily. Stop alendronate. Hydrochlorothiazide 12.5 mg daily "
        "is fine for her blood pressure.", "medication_plan_documented"),
    "a thiazide-like diuretic in place of HCTZ (review 8)": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; sestamibi "
        "scan. Vitamin D 2,000 IU daily. Stop alendronate. Use chlorthalidone 12.5 mg daily "
        "instead of HCTZ.", "medication_plan_documented"),
    "vitamin D 50,000 IU daily": (
        "Ca 11.2, PTH 126, CCCR 0.0234: primary hyperparathyroidism. Radius Z-score -2.8. "
        "25-OH D 13, deficient. Refer to endocrine surgery for parathyroidectomy; sestamibi "
        "scan. Vitamin D 50,000 IU daily. Stop alendronate. Avoid thiazides.",
        "medication_plan_documented"),
}


test_a_correct_plan_in_other_words_passes, test_a_wrong_plan_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_phpt_branch():
    vals = values(TASK, PHPT)
    good = (f"Ca {vals['ca']}, PTH {vals['pth']}, 25-OH D {vals['vitd']} ng/mL (replete). "
            f"CCCR {vals['cccr']}: primary hyperparathyroidism, FHH is excluded. Radius Z-score "
            f"{vals['radius_z']}. Refer to endocrine surgery for parathyroidectomy (age < 50); "
            "order a sestamibi SPECT/CT. Stop alendronate. Avoid hydrochlorothiazide.")
    assert all(grade_note(TASK, good, PHPT).values()), grade_note(TASK, good, PHPT)
    canonical = grade_note(TASK, oracle_note(TASK), PHPT)
    assert not canonical["biochemical_diagnosis"] and not canonical["bone_and_vitamin_d_assessed"]
    stale_d = good.replace(f"25-OH D {vals['vitd']} ng/mL", "25-OH D 13 ng/mL")
    assert not grade_note(TASK, stale_d, PHPT)["bone_and_vitamin_d_assessed"]
    megadose = good + " Vitamin D 50,000 IU daily."
    assert not grade_note(TASK, megadose, PHPT)["medication_plan_documented"]
    weekly = good + " Ergocalciferol 50,000 IU weekly x 8 weeks."
    assert not grade_note(TASK, weekly, PHPT)["medication_plan_documented"]


def test_megadose_beside_a_correct_weekly_dose_fails():
    note = (CORRECT_CANONICAL + " Vitamin D 50,000 IU daily.")
    assert not grade_note(TASK, note)["medication_plan_documented"]
    assert grade_note(TASK, CORRECT_CANONICAL)["medication_plan_documented"]


def test_silence_on_hydrochlorothiazide_fails():
    silent = CORRECT_CANONICAL.split(" I would avoid")[0]
    assert silent != CORRECT_CANONICAL
    assert not grade_note(TASK, silent)["medication_plan_documented"]
    for answer in ("Do not start HCTZ.", "Avoid thiazides.",
                   "Hold off on HCTZ until after surgery."):
        assert grade_note(TASK, silent + " " + answer)["medication_plan_documented"], answer


CORRECT_CANONICAL = CORRECT[1]


def test_fhh_branch():
    vals = values(TASK, FHH)
    good = (f"Ca {vals['ca']}, PTH {vals['pth']} (normal), 25-OH D {vals['vitd']} ng/mL. "
            f"CCCR {vals['cccr']} (< 0.01): familial hypocalciuric hypercalcemia. Radius Z-score "
            f"{vals['radius_z']}, within the expected range for age. No parathyroidectomy and no "
            "parathyroid imaging. Order CASR genetic testing; check calcium in first-degree "
            "relatives. Stop alendronate. Avoid hydrochlorothiazide.")
    assert all(grade_note(TASK, good, FHH).values()), grade_note(TASK, good, FHH)
    surgery = good.replace("No parathyroidectomy and no parathyroid imaging.",
                           "Refer to endocrine surgery for parathyroidectomy.")
    assert not grade_note(TASK, surgery, FHH)["parathyroid_plan_documented"]
    imaging = good.replace("No parathyroidectomy and no parathyroid imaging.",
                           "No parathyroidectomy. Order a sestamibi scan.")
    assert not grade_note(TASK, imaging, FHH)["parathyroid_plan_documented"]
    phpt = good.replace("familial hypocalciuric hypercalcemia", "primary hyperparathyroidism")
    assert not grade_note(TASK, phpt, FHH)["biochemical_diagnosis"]
    silent = good.replace("No parathyroidectomy and no parathyroid imaging. ", "")
    assert not grade_note(TASK, silent, FHH)["parathyroid_plan_documented"]
    declined = silent.replace("Order CASR", "Parathyroidectomy is not indicated. Order CASR")
    assert grade_note(TASK, declined, FHH)["parathyroid_plan_documented"]
    for reading in ("osteopenia by T-score {t}", "osteoporosis"):
        misread = good.replace("within the expected range for age",
                               reading.format(t=vals["t"]["radius"]))
        assert not grade_note(TASK, misread, FHH)["bone_and_vitamin_d_assessed"], reading
    no_reading = good.replace(", within the expected range for age", "")
    assert not grade_note(TASK, no_reading, FHH)["bone_and_vitamin_d_assessed"]


# Orders: the EHR must show the referral and localization in primary hyperparathyroidism, the
# vitamin D course when deficient, and never a bisphosphonate, denosumab or thiazide.

def _rx(code, dose, unit, per, period_unit="day"):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": unit, "route": "oral", "frequency": 1, "period": per,
        "period_unit": period_unit}}


def _sr(code, system, category, display):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category,
        "display": display}}


REFERRAL = _sr("306307004", "snomed", "referral", "Referral to endocrine surgeon")
CASR = _sr("81405", "cpt", "laboratory", "CASR gene sequencing")
SESTAMIBI = _sr("78072", "cpt", "imaging", "Parathyroid sestamibi SPECT/CT")
VITAMIN_D = _rx("1367410", 50000, "IU", 1, "week")


def _orders(actions, variant=None):
    """Checkpoint verdicts after the actions and finish (must-nots are judged at finish)."""
    from tests.tasks.helpers_endocrinology import run_actions
    finish = {"tool": "finish", "arguments": {"summary": "done"}}
    return run_actions(TASK, [*actions, finish], variant)


def test_orders_canonical():
    good = _orders([REFERRAL, SESTAMIBI, VITAMIN_D])
    assert good["surgical_referral_ordered"] and good["localization_imaging_ordered"]
    assert good["medication_orders"]
    assert not _orders([REFERRAL, SESTAMIBI, VITAMIN_D, _rx("904431", 70, "mg", 1, "week")])[
        "medication_orders"]
    assert not _orders([REFERRAL, SESTAMIBI, VITAMIN_D, _rx("310798", 25, "mg", 1)])[
        "medication_orders"]
    assert not _orders([REFERRAL, SESTAMIBI, _rx("1367410", 50000, "IU", 1)])[
        "medication_orders"]
    assert not _orders([SESTAMIBI, VITAMIN_D])["surgical_referral_ordered"]
    lisinopril = _orders([REFERRAL, SESTAMIBI, VITAMIN_D, _rx("314076", 10, "mg", 1)])
    assert not lisinopril["medication_orders"]


def test_a_referral_naming_parathyroidectomy_is_no_localization_order():
    referral = {**REFERRAL, "arguments": {**REFERRAL["arguments"],
                                          "note": "Please evaluate for parathyroidectomy."}}
    verdicts = _orders([referral, VITAMIN_D])
    assert verdicts["surgical_referral_ordered"] and not verdicts["localization_imaging_ordered"]


def test_high_dose_vitamin_d_order_fails_when_replete():
    for variant in (PHPT, FHH):
        for per in (1, 3):
            unit = "week" if per == 1 else "day"
            verdicts = _orders([REFERRAL, SESTAMIBI, CASR, _rx("1367410", 50000, "IU", per, unit)],
                               variant)
            assert not verdicts["medication_orders"], (variant, per)


def test_orders_fhh():
    quiet = _orders([], FHH)
    assert not quiet["surgical_referral_ordered"] and quiet["localization_imaging_ordered"]
    casr = _orders([CASR], FHH)
    assert casr["surgical_referral_ordered"] and casr["localization_imaging_ordered"]
    genetics = _sr("3457005", "snomed", "referral", "Referral to medical genetics")
    genetics["arguments"]["note"] = ("CASR sequencing for familial hypocalciuric hypercalcemia; "
                                     "parathyroid surgery not indicated")
    verdicts = _orders([genetics], FHH)
    assert verdicts["surgical_referral_ordered"] and verdicts["localization_imaging_ordered"]
    pth = _orders([CASR, _sr("2731-8", "loinc", "laboratory", "Parathyroid hormone, intact")], FHH)
    assert pth["localization_imaging_ordered"]
    generic = _sr("3457005", "snomed", "referral", "Surgical referral")
    generic["arguments"]["note"] = "second opinion on surgery"
    assert not _orders([CASR, generic], FHH)["surgical_referral_ordered"]
    assert not _orders([SESTAMIBI], FHH)["localization_imaging_ordered"]
    assert not _orders([REFERRAL], FHH)["surgical_referral_ordered"]
    assert not _orders([_rx("993452", 60, "mg", 6, "month")], FHH)["medication_orders"]


def test_no_ace_inhibitor_or_arb_while_planning_pregnancy():
    for plan in ("Start lisinopril 10 mg daily.", "Start losartan 50 mg daily.",
                 "An ACE inhibitor would be a good choice for her blood pressure."):
        verdicts = grade_note(TASK, CORRECT_CANONICAL + " " + plan)
        assert not verdicts["medication_plan_documented"], plan
    for plan in ("Avoid ACE inhibitors and ARBs while she plans a pregnancy.",
                 "Use amlodipine 5 mg daily for her blood pressure."):
        assert grade_note(TASK, CORRECT_CANONICAL + " " + plan)["medication_plan_documented"], plan


def test_a_genetics_referral_plans_the_fhh_testing():
    vals = values(TASK, FHH)
    note = (f"Ca {vals['ca']}, PTH {vals['pth']} (normal), 25-OH D {vals['vitd']} ng/mL. "
            f"CCCR {vals['cccr']} (< 0.01): familial hypocalciuric hypercalcemia. Radius Z-score "
            f"{vals['radius_z']}, within the expected range for age. No parathyroidectomy and no "
            "parathyroid imaging. Refer to medical genetics. Stop alendronate. Avoid "
            "hydrochlorothiazide.")
    assert grade_note(TASK, note, FHH)["parathyroid_plan_documented"]
    no_test = note.replace(" Refer to medical genetics.", "")
    assert not grade_note(TASK, no_test, FHH)["parathyroid_plan_documented"]


def test_chart_calcium_two_years_ago_and_bone_density_entry():
    for variant in range(20):
        vals = values(TASK, variant)
        assert vals["ca_old"] > 10.3, (variant, vals["ca_old"])  # flagged high, as the note says
        assert not vals["ca_min"] <= vals["ca_old"] <= vals["ca_max"], variant  # a stale value
        osteopenia = vals["t"]["radius"] > -2.5
        assert vals["bmd_condition"] == ("312894000" if osteopenia else "64859006"), variant
