"""adrenal_insufficiency_symptoms: Addison's disease with new symptoms - which part of the
replacement to change (fludrocortisone up, fludrocortisone down, hydrocortisone up on rifampin),
and the note phrasings and orders its checkpoints must judge on each branch.

The canonical instance is the mc_deficit scenario; variant 2 draws the inducer (rifampin) and
variant 4 the mc_excess scenario.
"""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "adrenal_insufficiency_symptoms"
INDUCER, EXCESS = 2, 4


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "mc_deficit"
    assert (vals["renin"], vals["sodium"], vals["potassium"]) == (18.6, 132, 5.6)
    assert (vals["fludro_current"], vals["fludro_low"], vals["fludro_high"]) == (0.05, 0.1, 0.15)
    assert (vals["hc_min"], vals["hc_max"]) == (15.0, 15.0)
    assert vals["finding"] == ["mineralocorticoid_underreplacement"]


def test_branch_values():
    inducer, excess = values(TASK, INDUCER), values(TASK, EXCESS)
    assert inducer["scenario"]["name"] == "inducer"
    assert (inducer["hc_min"], inducer["hc_max"]) == (30.0, 45.0)   # double to triple 15 mg/day
    assert 2.2 <= inducer["renin"] <= 3.8 and 4.4 <= inducer["potassium"] <= 4.9
    assert excess["scenario"]["name"] == "mc_excess"
    assert excess["renin"] <= 0.4 and excess["potassium"] <= 3.4 and excess["sbp"] >= 148
    assert (excess["fludro_low"], excess["fludro_high"]) == (0.05, 0.15)
    names = {values(TASK, n)["scenario"]["name"] for n in range(20)}
    assert names == {"mc_deficit", "mc_excess", "inducer"}


def test_oracle_notes_pass_every_branch():
    for variant in (None, INDUCER, EXCESS):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for variant in (INDUCER, EXCESS):
        assert not all(grade_note(TASK, canonical, variant).values())


CORRECT = [
    (None, """Addison's, on HC 10/5 and fludro 0.05 since the ED cut it last year.
PRA 18.6 ng/mL/h (high), K 5.6, Na 132, orthostatic drop.
A: mineralocorticoid under-replacement.
P:
- Increase fludrocortisone to 0.1 mg daily.
- Hydrocortisone unchanged.
- Sick-day rules reviewed; new Solu-Cortef 100 mg IM emergency kit.
- No repeat ACTH stimulation test, no dexamethasone."""),
    (None, """Her plasma renin activity is 18.6 ng/mL/h and potassium 5.6 mmol/L with postural
hypotension and salt craving, which indicates inadequate mineralocorticoid replacement since
fludrocortisone was reduced to 0.05 mg. I recommend increasing fludrocortisone to 0.1 mg once
daily and continuing hydrocortisone 10 mg on waking and 5 mg at 2 PM. She should keep an
emergency hydrocortisone injection kit (hydrocortisone sodium succinate 100 mg IM) and follow
her sick day rules. A cosyntropin stimulation test is not needed."""),
    (None, """| Item | Value |
|---|---|
| Renin (PRA) | 18.6 ng/mL/h, high |
| Potassium | 5.6 mmol/L |

Assessment: mineralocorticoid under-replaced on fludrocortisone 0.05 mg.

Plan:
1. Fludrocortisone 0.1 mg PO daily (up from 0.05 mg).
2. Continue hydrocortisone, same dose.
3. Stress dosing reviewed; emergency injection kit prescribed (hydrocortisone 100 mg IM)."""),
    (INDUCER, """Rifampin started 5 weeks ago for LTBI. Renin 2.3 ng/mL/h and K 4.5 are normal.
Assessment: glucocorticoid under-replacement - rifampin induces CYP3A4 and accelerates
cortisol clearance.
Plan: increase hydrocortisone to 30 mg/day (15 mg twice daily) while on rifampin, back to
15 mg/day 2 weeks after it ends. Continue fludrocortisone 0.1 mg. Sick-day rules; new
emergency hydrocortisone injection kit (100 mg IM). No ACTH stim test."""),
    (INDUCER, """Potassium 4.5, PRA 2.3 - mineralocorticoid replacement adequate. Her symptoms
are relative glucocorticoid deficiency from the rifampin interaction. Double hydrocortisone
for the rest of the rifampin course. Fludrocortisone unchanged. Stress dose rules reviewed and
Solu-Cortef 100 mg kit renewed."""),
    (EXCESS, """PRA 0.2 ng/mL/h (suppressed), K 3.3, BP 156/97 with edema on fludrocortisone 0.2 mg:
mineralocorticoid over-replacement.
Plan: reduce fludrocortisone to 0.1 mg daily - do not stop it. Hydrocortisone unchanged. Hold
amlodipine; recheck BP. Sick day rules; emergency hydrocortisone kit 100 mg IM."""),
    # an opening line naming the disease's deficiencies is not an assessment of the replacement
    (EXCESS, """Primary adrenal insufficiency (glucocorticoid and mineralocorticoid deficiency)
on HC 10/5 and fludrocortisone 0.2 mg. PRA 0.2 ng/mL/h, K 3.3 mmol/L: mineralocorticoid
over-replacement. Reduce fludrocortisone to 0.1 mg daily. Hydrocortisone unchanged. Avoid
spironolactone and eplerenone. Sick-day rules; Solu-Cortef 100 mg IM kit."""),
    # verb form of the induction
    (INDUCER, """Renin 2.3 ng/mL/h and K 4.5 mmol/L are normal; rifampin accelerates cortisol
clearance. Hydrocortisone: increase to 10 mg three times a day (30 mg/day, double her usual) for
the rifampin course plus 2 weeks. Sick-day rules; Solu-Cortef 100 mg IM kit."""),
    # a daily total beside its divided doses
    (INDUCER, """Renin 2.3 ng/mL/h, K 4.5: glucocorticoid under-replacement from rifampin
(CYP3A4 induction). Increase hydrocortisone to 30 mg/day (15 mg twice daily) while on rifampin.
Sick-day rules; Solu-Cortef 100 mg IM kit."""),
    # adjective forms of the assessment
    (None, """Renin 18.6 ng/mL/h, potassium 5.6. Short version: she is mineralocorticoid
under-replaced, not glucocorticoid under-replaced. Increase fludrocortisone to 0.1 mg daily.
Sick-day rules; Solu-Cortef 100 mg IM kit."""),
    # sick-day rules written out without the keyword
    (None, """PRA 18.6 ng/mL/h, K 5.6: mineralocorticoid under-replacement. Increase
fludrocortisone to 0.1 mg daily. Keep hydrocortisone 10 mg on waking and 5 mg at 2 PM. She should
double her hydrocortisone when ill, triple it above 39 C. New hydrocortisone sodium succinate
100 mg IM kit for vomiting."""),
    (EXCESS, """Renin 0.2, potassium 3.3 mmol/L. Fludrocortisone excess explains the hypertension
and hypokalemia. Decrease fludrocortisone from 0.2 mg to 0.05 mg daily. Continue
hydrocortisone 10 mg + 5 mg. Reviewed stress-dose steroids and the Solu-Cortef kit."""),
]

# sick-day rules written fever first, a split daily total, 'triple', a return to the old dose
CORRECT += [
    (None, (
        "PRA 18.6 ng/mL/h, K 5.6: mineralocorticoid under-replacement. Return fludrocortisone "
        "to her previous 0.1 mg daily. Hydrocortisone unchanged. If she has a fever above 38 C "
        "she should double her hydrocortisone, triple above 39 C, until well. New "
        "hydrocortisone sodium succinate 100 mg IM kit for vomiting. No dexamethasone, no "
        "repeat cosyntropin test.")),
    (INDUCER, "Renin 2.3 ng/mL/h and K 4.5 mmol/L are normal: glucocorticoid under-replacement, "
              "rifampin accelerates cortisol clearance. Increase hydrocortisone to 20 mg on waking "
              "and 10 mg at 2 PM while on rifampin. Fludrocortisone unchanged. Sick-day rules: "
              "with fever, double the hydrocortisone dose; triple it above 39 C. Solu-Cortef "
              "100 mg IM kit. No ACTH stimulation test."),
    (INDUCER, "Renin 2.3 ng/mL/h and K 4.5 mmol/L are normal: glucocorticoid under-replacement, "
              "rifampin accelerates cortisol clearance. Triple hydrocortisone to 45 mg/day while "
              "on rifampin. Fludrocortisone unchanged. Sick-day rules reviewed. Solu-Cortef "
              "100 mg IM kit. No ACTH stimulation test."),
]


_DEFICIT_BASE = ("PRA 18.6 ng/mL/h, K 5.6: mineralocorticoid under-replacement. Sick-day rules; "
                 "Solu-Cortef 100 mg IM kit. ")
WRONG = [
    # stale renin (two years ago) stated as current
    (None, "replacement_assessed", "PRA 2.6 ng/mL/h, K 5.6: mineralocorticoid under-replacement. "
     "Increase fludrocortisone to 0.1 mg daily."),
    # the opposite category
    (None, "replacement_assessed", "PRA 18.6 ng/mL/h, K 5.6: mineralocorticoid over-replacement. "
     "Increase fludrocortisone to 0.1 mg daily."),
    # raises hydrocortisone instead of fludrocortisone
    (None, "plan_documented", _DEFICIT_BASE + "Increase hydrocortisone to 20 mg on waking and "
     "10 mg at 2 PM. Fludrocortisone unchanged."),
    # raises fludrocortisone and hydrocortisone
    (None, "plan_documented", _DEFICIT_BASE + "Increase fludrocortisone to 0.1 mg daily. Increase "
     "hydrocortisone to 25 mg a day."),
    # too much fludrocortisone
    (None, "plan_documented", _DEFICIT_BASE + "Increase fludrocortisone to 0.3 mg daily."),
    # hedged
    (None, "plan_documented", _DEFICIT_BASE + "Could consider increasing fludrocortisone to 0.1 mg "
     "daily."),
    # switches to dexamethasone
    (None, "plan_documented", _DEFICIT_BASE + "Increase fludrocortisone to 0.1 mg daily. Switch "
     "hydrocortisone to dexamethasone 0.5 mg daily."),
    # re-tests the diagnosis
    (None, "plan_documented", _DEFICIT_BASE + "Increase fludrocortisone to 0.1 mg daily. Order an "
     "ACTH stimulation test to confirm the diagnosis."),
    # no crisis prevention
    (None, "crisis_prevention_documented", "PRA 18.6, K 5.6: mineralocorticoid under-replacement. "
     "Increase fludrocortisone to 0.1 mg daily."),
    # wrong emergency dose
    (None, "crisis_prevention_documented", "Sick-day rules reviewed. Emergency kit: hydrocortisone "
     "sodium succinate 10 mg IM."),
    # rifampin: mineralocorticoid blamed and fludrocortisone raised, hydrocortisone unchanged
    (INDUCER, "plan_documented", "K 4.5, PRA 2.3. Increase fludrocortisone to 0.2 mg daily. "
     "Continue hydrocortisone at the same dose. Sick-day rules; Solu-Cortef kit."),
    # rifampin: hydrocortisone kept, only watchful waiting
    (INDUCER, "plan_documented", "K 4.5, PRA 2.3. Keep hydrocortisone at the same dose and "
     "reassess after rifampin ends."),
    # rifampin: the glucocorticoid is stopped
    (INDUCER, "plan_documented", "Stop hydrocortisone and switch to dexamethasone 0.75 mg daily."),
    # excess: fludrocortisone stopped
    (EXCESS, "plan_documented", "PRA 0.2, K 3.3: mineralocorticoid over-replacement. Stop "
     "fludrocortisone. Hydrocortisone unchanged."),
    # excess: fludrocortisone kept, amlodipine added
    (EXCESS, "plan_documented", "PRA 0.2, K 3.3. Continue fludrocortisone 0.2 mg daily and start "
     "amlodipine 5 mg daily."),
    # rifampin: stuffed doses, one past triple
    (INDUCER, "plan_documented", "Renin 2.3, K 4.5: glucocorticoid under-replacement. Increase "
     "hydrocortisone to 30 mg/day. Increase hydrocortisone to 60 mg/day. Sick-day rules."),
    (INDUCER, "plan_documented", "Renin 2.3, K 4.5: glucocorticoid under-replacement. Increase "
     "hydrocortisone to 20 mg three times daily while on rifampin. Sick-day rules."),
    # mineralocorticoid branches: hydrocortisone cut
    (EXCESS, "plan_documented", "PRA 0.2, K 3.3: mineralocorticoid over-replacement. Decrease "
     "fludrocortisone to 0.1 mg daily. Reduce hydrocortisone to 10 mg daily."),
    (None, "plan_documented", _DEFICIT_BASE + "Increase fludrocortisone to 0.1 mg daily. Reduce "
     "hydrocortisone to 10 mg daily."),
    # mineralocorticoid receptor antagonist
    (EXCESS, "plan_documented", "PRA 0.2, K 3.3: mineralocorticoid over-replacement. Decrease "
     "fludrocortisone to 0.1 mg daily. Hydrocortisone unchanged. Start spironolactone 25 mg daily "
     "for the hypokalemia."),
    (EXCESS, "plan_documented", "PRA 0.2, K 3.3: mineralocorticoid over-replacement. Decrease "
     "fludrocortisone to 0.1 mg daily. Hydrocortisone unchanged. If BP stays high add eplerenone."),
    # the stimulation test written with its cosyntropin dose
    (None, "plan_documented", _DEFICIT_BASE + "Increase fludrocortisone to 0.1 mg daily. Repeat "
     "cosyntropin 250 mcg stimulation test at the next visit."),
    # the disease named, no assessment of the replacement
    (EXCESS, "replacement_assessed", "Primary adrenal insufficiency (glucocorticoid and "
     "mineralocorticoid deficiency). PRA 0.2 ng/mL/h, K 3.3. Reduce fludrocortisone to 0.1 mg."),
    # excess: under-replacement called
    (EXCESS, "replacement_assessed", "PRA 0.2 ng/mL/h, K 3.3: mineralocorticoid under-replacement."
     " Reduce fludrocortisone to 0.1 mg daily."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


# ---- Orders: the regimen by branch and the must-nots (dexamethasone, ACTH stimulation) ----

RX = "fhir_medication_request_create"
SR = "fhir_service_request_create"


def _oracle_actions(variant=None, drop=(), extra=()):
    from physbench_gym.tasks.registry import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls
             if not (c.tool == RX and c.arguments.get("medication_code") in drop)]
    return calls + list(extra)


def _rx(code, value, unit="mg", per_day=1, route="oral"):
    return {"tool": RX, "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": value,
        "dose_unit": unit, "route": route, "frequency": per_day, "period_unit": "day"}}


def _orders(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


def test_oracle_orders_pass_every_branch():
    for variant in (None, INDUCER, EXCESS):
        verdicts = _orders(_oracle_actions(variant), variant)
        assert verdicts["replacement_orders"] and verdicts["emergency_kit_ordered"], variant
        assert verdicts["monitoring_ordered"], variant


@pytest.mark.parametrize(("variant", "drop", "extra", "passes"), [
    (None, ("313979",), [_rx("313979", 100, "ug")], True),              # 100 mcg = 0.1 mg
    (None, ("313979",), [_rx("313979", 0.05)], False),                  # left at 0.05 mg
    (None, ("313979",), [_rx("313979", 0.2)], False),                   # doubled past 0.15 mg
    (None, (), [_rx("197782", 10, per_day=2)], False),                  # hydrocortisone raised
    (None, (), [_rx("197782", 15, per_day=1)], True),                   # hydrocortisone renewed
    (EXCESS, ("313979",), [_rx("313979", 0.05)], True),
    (EXCESS, ("313979",), [_rx("313979", 0.2)], False),                 # not reduced
    (EXCESS, ("313979",), [], False),                                   # no new dose
    (INDUCER, ("197782",), [_rx("197782", 15, per_day=2)], True),       # 30 mg/day
    (INDUCER, ("197782",), [_rx("197787", 5, per_day=3)], False),       # 15 mg/day unchanged
    (INDUCER, ("197782",), [_rx("197783", 20, per_day=3)], False),      # 60 mg/day
    (INDUCER, ("197782",), [_rx("313979", 0.2)], False),                # fludrocortisone instead
    (None, (), [_rx("197582", 0.5)], False),                            # dexamethasone (text)
    (EXCESS, (), [_rx("198222", 100)], False),                          # spironolactone
    (None, (), [{"tool": RX, "arguments": {                             # PRN sick-day tablets
        "patient": "{patient_id}", "medication_code": "197782", "dose_value": 10,
        "dose_unit": "mg", "route": "oral", "frequency": 1, "period_unit": "day",
        "as_needed": True, "sig": "Sick-day: take an extra 10 mg with fever"}}], True),
])
def test_replacement_orders(variant, drop, extra, passes):
    assert _orders(_oracle_actions(variant, drop=drop, extra=extra), variant)[
        "replacement_orders"] is passes


def test_acth_stimulation_test_fails_monitoring():
    stim = {"tool": SR, "arguments": {"patient": "{patient_id}", "code": "80400",
                                       "system": "cpt", "category": "laboratory",
                                       "display": "ACTH stimulation panel"}}
    assert not _orders(_oracle_actions(extra=[stim]))["monitoring_ordered"]


@pytest.mark.parametrize(("code", "passes"), [("24323-8", True), ("24326-1", True),
                                                ("2141-0", False)])
def test_electrolytes_as_any_panel(code, passes):
    drop_bmp = [c for c in _oracle_actions() if c["arguments"].get("code") != "51990-0"]
    panel = {"tool": SR, "arguments": {"patient": "{patient_id}", "code": code, "system": "loinc",
                                       "category": "laboratory"}}
    assert _orders(drop_bmp + [panel])["monitoring_ordered"] is passes


def test_kit_needs_the_injection():
    verdicts = _orders(_oracle_actions(drop=("238755",)))
    assert not verdicts["emergency_kit_ordered"]
