"""diabetes_in_cirrhosis: the derived Child-Pugh score, kidney function and regimen, the note
phrasings its checkpoints must judge on each branch, and the must-nots in orders and notes."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "diabetes_in_cirrhosis"
B_VARIANT, A_VARIANT, CKD_VARIANT = 2, 8, 1   # seeds drawing child_b, child_a and child_a_ckd


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == "child_c"
    assert (vals["bilirubin"], vals["albumin"], vals["inr"]) == (2.6, 2.7, 1.6)
    assert vals["cp_points"] == [2, 3, 1]
    assert (vals["child_pugh"], vals["child_class"]) == (11, "C")
    assert (vals["old_score"], vals["old_class"]) == (8, "B")      # the stale hepatology note
    assert vals["egfr"] == 64
    assert (vals["weight_kg"], vals["dose_lo"], vals["dose_hi"], vals["glargine_units"]) == \
        (84, 8, 17, 8)
    assert vals["metformin_action"] == "stop"
    assert "metformin" in vals["forbidden_names"] and "pioglitazone" in vals["forbidden_names"]


def test_branches_draw_their_profiles():
    assert values(TASK, B_VARIANT)["profile"] == "child_b"
    assert values(TASK, A_VARIANT)["profile"] == "child_a"
    assert values(TASK, CKD_VARIANT)["profile"] == "child_a_ckd"
    for n in range(20):
        vals = values(TASK, n)
        assert vals["child_class"] == {"child_c": "C", "child_b": "B"}.get(vals["profile"], "A")
        assert (vals["egfr"] < 30) == (vals["profile"] == "child_a_ckd")
    assert {values(TASK, n)["profile"] for n in range(20)} == {
        "child_c", "child_b", "child_a", "child_a_ckd"}


def _v(variant):
    return values(TASK, variant)


def _base(variant=None):
    v = _v(variant)
    return (f"Child-Pugh score {v['child_pugh']}, Child-Pugh class {v['child_class']}. "
            f"eGFR {v['egfr']}. A1c 5.6% is falsely low after transfusion; order a CGM instead. ")


C_PLAN = ("Stop metformin (decompensated cirrhosis). Stop glipizide. Start insulin glargine "
          "8 units once daily. No pioglitazone.")

CORRECT = [
    (None, _base() + C_PLAN),
    (None, """## Assessment
- MASH cirrhosis, CTP class C (11 points): refractory ascites, HE on lactulose.
- eGFR 64 mL/min/1.73m2.
- HbA1c 5.6% unreliable (transfusion, hypersplenism).
## Plan
- Discontinue metformin: decompensated cirrhosis, lactic acidosis risk.
- Discontinue glipizide permanently.
- Lantus 10 units subcut daily at bedtime.
- Professional CGM for 14 days."""),
    (None, ("| Item | Value |\n|---|---|\n| Child-Pugh | 11 (class C) |\n| eGFR | 64 |\n"
            "The A1c is not reliable here. Fingerstick glucose monitoring twice daily.\n"
            "Recommendations: stop metformin; stop glipizide; start basal insulin glargine "
            "12 units once daily; avoid sulfonylureas and thiazolidinediones.")),
    (A_VARIANT, _base(A_VARIANT) + ("Continue metformin ER 1500 mg daily. Stop glipizide. Start "
                                    "insulin glargine 10 units once daily.")),
    (A_VARIANT, _base(A_VARIANT) + ("Metformin should continue at the current dose. Glipizide is "
                                    "discontinued. Start semaglutide 0.25 mg weekly.")),
    # every GLP-1 RA at its labelled starting dose and interval (review finding 4)
    (A_VARIANT, _base(A_VARIANT) + ("Continue metformin. Stop glipizide. Start dulaglutide 0.75 mg "
                                    "weekly.")),
    (A_VARIANT, _base(A_VARIANT) + ("Continue metformin. Stop glipizide. Start liraglutide 0.6 mg "
                                    "daily.")),
    (A_VARIANT, _base(A_VARIANT) + ("Continue metformin. Stop glipizide. Start tirzepatide 2.5 mg "
                                    "weekly.")),
    # other basal insulins (review finding 7)
    (None, _base() + C_PLAN.replace("insulin glargine 8 units", "Tresiba 10 units")),
    # A1c-unreliable wording (review finding 6)
    (None, _base().replace("A1c 5.6% is falsely low after transfusion",
                           "The A1c of 5.6% cannot be believed") + C_PLAN),
    (None, _base().replace("A1c 5.6% is falsely low after transfusion",
                           "His A1c of 5.6% cannot be relied upon after the transfusion") + C_PLAN),
    (None, _base().replace("A1c 5.6% is falsely low after transfusion",
                           "A1c is not a valid measure of control here") + C_PLAN),
    (A_VARIANT, _base(A_VARIANT) + ("Continue metformin ER 1500 mg; hold it if he has an acute "
                                    "illness. Stop glipizide. Start insulin glargine 10 units once "
                                    "daily.")),
    (B_VARIANT, _base(B_VARIANT) + ("Stop metformin given decompensation with ascites. Stop "
                                    "glipizide. Start glargine 10 units daily. Avoid "
                                    "pioglitazone.")),
    (CKD_VARIANT, _base(CKD_VARIANT) + ("Stop metformin: eGFR under 30. Stop glipizide. Start "
                                        "insulin glargine 10 units once daily.")),
]


WRONG = [
    # stale class from the hepatology note 7 months ago
    (None, "child_pugh_assessed", _base().replace("score 11, Child-Pugh class C",
                                                  "score 8, Child-Pugh class B") + C_PLAN),
    # A1c taken at face value
    (None, "glycemia_assessed", _base().replace(
        "A1c 5.6% is falsely low after transfusion; order a CGM instead.",
        "A1c 5.6% shows good control.") + C_PLAN),
    # metformin continued in Child-Pugh C
    (None, "metformin_decided", _base() + C_PLAN.replace(
        "Stop metformin (decompensated cirrhosis).", "Continue metformin.")),
    # metformin stopped but offered back
    (None, "metformin_decided",
     _base() + C_PLAN + " Metformin 500 mg daily could be an option later."),
    # a sulfonylurea kept at a lower dose
    (None, "regimen_documented", _base() + C_PLAN.replace(
        "Stop glipizide.", "Reduce glipizide to 2.5 mg daily.")),
    # pioglitazone with ascites
    (None, "regimen_documented", _base() + C_PLAN.replace("No pioglitazone.",
                                                          "Add pioglitazone 15 mg daily.")),
    # insulin dose far above the weight-based start
    (None, "regimen_documented", _base() + C_PLAN.replace("8 units", "40 units")),
    # GLP-1 RA instead of insulin in decompensated cirrhosis
    (None, "regimen_documented", _base() + C_PLAN.replace(
        "Start insulin glargine 8 units once daily.", "Start semaglutide 0.25 mg weekly.")),
    # a once-daily rapid-acting or premixed insulin is not basal insulin (review finding 7)
    (None, "regimen_documented", _base() + C_PLAN.replace("insulin glargine", "insulin lispro")),
    (None, "regimen_documented",
     _base() + C_PLAN.replace("insulin glargine 8", "insulin 70/30 10")),
    # GLP-1 RA at a wrong interval or dose (review finding 4)
    (A_VARIANT, "regimen_documented", _base(A_VARIANT) + (
        "Continue metformin. Stop glipizide. Start semaglutide 0.25 mg daily.")),
    (A_VARIANT, "regimen_documented", _base(A_VARIANT) + (
        "Continue metformin. Stop glipizide. Start liraglutide 0.6 mg weekly.")),
    (A_VARIANT, "regimen_documented", _base(A_VARIANT) + (
        "Continue metformin. Stop glipizide. Start dulaglutide 1.5 mg weekly.")),
    # past meter readings are no monitoring plan (review finding 6)
    (None, "glycemia_assessed", "Child-Pugh score 11, class C. eGFR 64. Meter readings since the "
                                "ED visit were 168-296. The A1c of 5.6% is falsely low. " + C_PLAN),
    # Child-Pugh A: metformin stopped without a reason to
    (A_VARIANT, "metformin_decided", _base(A_VARIANT) + ("Stop metformin. Stop glipizide. Start "
                                                         "insulin glargine 10 units once daily.")),
    # eGFR < 30: metformin continued
    (CKD_VARIANT, "metformin_decided", _base(CKD_VARIANT) + ("Continue metformin. Stop glipizide. "
                                                             "Start glargine 10 units daily.")),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for variant in (B_VARIANT, A_VARIANT, CKD_VARIANT):
        assert not all(grade_note(TASK, canonical, variant).values())


# ---- Orders: the must-nots (sulfonylurea, pioglitazone with ascites, metformin when stopped) ----

def _oracle_actions(variant=None, drop=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls if c.tool not in drop]
    return calls + list(extra)


def _rx(code, value, unit, per_day=1, route="oral"):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": value,
        "dose_unit": unit, "route": route, "frequency": per_day, "period_unit": "day"}}


def _orders(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


RX = "fhir_medication_request_create"


def test_oracle_orders_pass():
    assert _orders(_oracle_actions())["basal_insulin_ordered"]
    assert _orders(_oracle_actions())["glucose_monitoring_ordered"]


@pytest.mark.parametrize(("variant", "extra", "passes"), [
    (None, _rx("310490", 2.5, "mg"), False),                       # glipizide resumed
    (None, _rx("317573", 15, "mg"), False),                        # pioglitazone with ascites
    (None, _rx("860975", 500, "mg"), False),                       # metformin in Child-Pugh C
    (A_VARIANT, _rx("860975", 1500, "mg"), True),                  # metformin renewed in A
    (CKD_VARIANT, _rx("860975", 500, "mg"), False),                # metformin at eGFR < 30
])
def test_must_not_orders(variant, extra, passes):
    assert _orders(_oracle_actions(variant, extra=[extra]), variant)[
        "basal_insulin_ordered"] is passes


def test_insulin_dose_and_alternatives():
    drop = (RX,)
    assert not _orders(_oracle_actions(drop=drop, extra=[
        _rx("847230", 30, "units", route="subcutaneous")]))["basal_insulin_ordered"]
    assert _orders(_oracle_actions(drop=drop, extra=[
        _rx("847230", 10, "units", route="subcutaneous")]))["basal_insulin_ordered"]
    semaglutide = {"tool": RX, "arguments": {
        "patient": "{patient_id}", "medication_code": "1991306", "dose_value": 0.25,
        "dose_unit": "mg", "route": "subcutaneous", "frequency": 1, "period": 1,
        "period_unit": "week"}}
    assert not _orders(_oracle_actions(drop=drop, extra=[semaglutide]))["basal_insulin_ordered"]
    assert _orders(_oracle_actions(A_VARIANT, drop=drop, extra=[semaglutide]), A_VARIANT)[
        "basal_insulin_ordered"]


def _weekly(code, mg, per_week=True):
    return {"tool": RX, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "subcutaneous", "frequency": 1, "period": 1,
        "period_unit": "week" if per_week else "day"}}


@pytest.mark.parametrize(("extra", "passes"), [
    (_weekly("1551295", 0.75), True),                  # dulaglutide 0.75 mg weekly
    (_weekly("897122", 0.6, per_week=False), True),     # liraglutide 0.6 mg daily
    (_weekly("1991306", 0.25, per_week=False), False),  # semaglutide once DAILY
    (_weekly("897122", 0.6), False),                    # liraglutide weekly
])
def test_glp1_ra_orders_in_child_a(extra, passes):
    """Review finding 4: each GLP-1 RA at its labelled starting dose and interval."""
    assert _orders(_oracle_actions(A_VARIANT, drop=(RX,), extra=[extra]), A_VARIANT)[
        "basal_insulin_ordered"] is passes


@pytest.mark.parametrize("extra", [
    _rx("847230", 40, "units", route="subcutaneous"),              # a second, large glargine order
    _rx("847230", 8, "units", per_day=2, route="subcutaneous"),    # glargine twice daily
])
def test_no_extra_insulin_order(extra):
    """Review finding 5: an extra insulin order above the band or more than once daily fails."""
    assert not _orders(_oracle_actions(extra=[extra]))["basal_insulin_ordered"]


def test_cgm_needs_a_cgm_code():
    """Review finding 10: CPT 99091 (physiologic data review) is not a CGM order."""
    from tests.tasks.helpers import service_request
    actions = _oracle_actions(drop=("fhir_service_request_create",), extra=[
        service_request("99091", "cpt", "procedure")])
    assert not _orders(actions)["glucose_monitoring_ordered"]


# Correct phrasings the note reader once misread (review findings 1, 2, 3, 15): each passes its
# checkpoint now.
READER_FIXED = [
    (None, "child_pugh_assessed", "Child-Pugh C (11 points). The \"Child-Pugh B\" in older notes "
                                  "is outdated."),
    (None, "child_pugh_assessed", "Child-Pugh C (11 points). November's class B is no longer "
                                  "current."),
    (None, "child_pugh_assessed", "His cirrhosis is now Child-Pugh C (11 points): bilirubin 2.6."),
    (None, "metformin_decided", "eGFR 64. I would stop metformin. The eGFR alone would allow it, "
                                "but with decompensated cirrhosis the risk of lactic acidosis "
                                "outweighs its benefit."),
    (None, "metformin_decided", "eGFR 64. Metformin ER \u2192 **stop** (Child-Pugh C; lactic "
                                "acidosis risk)"),
    (None, "child_pugh_assessed", "Child-Pugh class C (11 points), up from class B (8 points) in "
                                  "the hepatology note 7 months ago."),
    (None, "child_pugh_assessed", "The hepatology note of 7 months ago calculated Child-Pugh B "
                                  "(8 points); that is outdated. Today Child-Pugh C, 11 points."),
    (None, "child_pugh_assessed", "Child-Pugh C, score 11. This is a clear progression from the "
                                  "class B (8 points) recorded in November 2025, which should no "
                                  "longer be used."),
    (None, "metformin_decided", "eGFR 64. The ED told him to keep taking metformin. I recommend "
                                "stopping metformin now (decompensated cirrhosis)."),
    (None, "metformin_decided", "eGFR 64. Metformin was continued by the ED. Stop metformin."),
    (None, "metformin_decided", "eGFR 64. You asked whether he should remain on metformin. Stop "
                                "metformin now (decompensated cirrhosis)."),
    (None, "metformin_decided", "eGFR 64. He should continue fingersticks, regarding metformin I "
                                "recommend stopping it now."),
    (A_VARIANT, "metformin_decided", "eGFR {egfr}. Continue metformin ER 1500 mg; hold it for "
                                     "acute illness, contrast or surgery."),
    (A_VARIANT, "metformin_decided", "eGFR {egfr}. Metformin may continue."),
    (None, "metformin_decided", "**2. Kidney function.** Creatinine 1.27 mg/dL, eGFR 64 "
                                "mL/min/1.73 m2. Stop metformin (decompensated cirrhosis)."),
    (None, "regimen_documented", "Glipizide is discontinued permanently. Sulfonylureas in advanced "
                                 "cirrhosis cause prolonged hypoglycemia. Start insulin glargine "
                                 "8 units once daily. No pioglitazone."),
    (None, "glycemia_assessed", "A1c 5.6% is falsely low after transfusion; use CGM instead."),
]


@pytest.mark.parametrize(("variant", "target", "note"), READER_FIXED)
def test_reader_phrasings_now_read_right(variant, target, note):
    note = note.replace("{egfr}", str(_v(variant)["egfr"]))
    assert grade_note(TASK, note, variant)[target]
