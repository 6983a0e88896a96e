"""aromatase_inhibitor_bone_loss: bone loss on anastrozole - kidney function, vitamin D and the
T-score decide between denosumab (no zoledronic acid), any antiresorptive, vitamin D repletion
first, and no antiresorptive; the note phrasings and orders each branch must judge."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "aromatase_inhibitor_bone_loss"
TREAT, NO_TREAT, VITD_LOW, LOW_CRCL = 0, 3, 6, 7  # seeds drawing each scenario


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == "low_crcl"
    assert (vals["spine_t"], vals["vitd"], vals["egfr"], vals["egfr_1y"]) == (-2.7, 35, 32, 40)
    assert 30 <= vals["crcl"] < 35 and vals["crcl_int"] == 32
    assert vals["base_spine_t"] == -2.2 and vals["bone_dx"] == "osteoporosis"


def test_branches_draw_their_scenarios():
    assert values(TASK, TREAT)["scenario"] == "treat"
    assert values(TASK, NO_TREAT)["scenario"] == "no_treat"
    assert values(TASK, VITD_LOW)["scenario"] == "vitd_low"
    assert values(TASK, LOW_CRCL)["scenario"] == "low_crcl"
    for seed in range(20):
        vals = values(TASK, seed)
        low_t = vals["spine_t"] <= -2.5
        assert low_t == (vals["scenario"] != "no_treat")
        assert (vals["vitd"] < 20) == (vals["scenario"] == "vitd_low")
        assert (vals["crcl"] < 35) == (vals["scenario"] == "low_crcl")
        assert vals["scenario"] != "no_treat" or vals["bmi"] >= 20  # no other risk factor


GOOD_LOW = """Assessment: AI-associated osteoporosis, L-spine T-score -2.7. 25-OH vitamin D 35 ng/mL
(replete). eGFR 32 (CKD 3b). Zoledronic acid is contraindicated with CrCl <35, so avoid it.
Plan:
1. Denosumab 60 mg SC every 6 months.
2. Continue vitamin D3 2,000 IU daily; calcium 1000-1200 mg/day total intake.
3. Continue anastrozole.
4. Dental exam before the first dose; check calcium before each injection.
5. Repeat DXA in 2 years."""

CORRECT = [
    (None, GOOD_LOW),
    # review 9: her current vitamin D continued without restating the dose
    (None, GOOD_LOW.replace("Continue vitamin D3 2,000 IU daily", "Continue her current vitamin D3 "
                            "supplement")),
    # review 8: labeled daily and IV regimens
    (None, GOOD_LOW.replace("Denosumab 60 mg SC every 6 months", "Risedronate 5 mg daily")),
    (None, GOOD_LOW.replace("Denosumab 60 mg SC every 6 months", "Ibandronate 3 mg IV every 3 "
                            "months")),
    (TREAT, """Osteoporosis (LS T-score -2.9) on anastrozole. 25(OH)D 38 ng/mL. eGFR 71, normal.
Plan: alendronate 10 mg daily. Dental evaluation first. Calcium 1000-1200 mg/day; vitamin D3
2,000 IU daily. Continue anastrozole. Repeat DXA in 2 years."""),
    # review 5: 'no drug therapy' in other words
    (NO_TREAT, """Osteopenia, lowest T-score -1.2 (lumbar spine); not osteoporosis. 25-OH vitamin D
44 ng/mL. eGFR 78.
No osteoporosis medication for now. Calcium 1000-1200 mg a day, continue vitamin D3 2,000 IU
daily. Continue anastrozole. Repeat DXA in 12 months."""),
    (NO_TREAT, """Osteopenia, lowest T-score -1.2 (lumbar spine); not osteoporosis. 25-OH vitamin D
44 ng/mL. eGFR 78.
She does not need medication for her bones now. Calcium 1000-1200 mg a day, continue vitamin D3
2,000 IU daily. Continue anastrozole. Repeat DXA in 12 months."""),
    (None, """Lowest T-score -2.7 at the lumbar spine: osteoporosis. Vitamin D 35 ng/mL. CrCl
about 32 mL/min by Cockcroft-Gault, so no zoledronic acid or alendronate. I recommend Prolia
60 mg subcutaneously twice yearly. Calcium intake 1,200 mg daily from diet; vitamin D3 1,000 IU
daily. Anastrozole should continue. She should see her dentist before starting, and have a
pre-dose calcium each time. DXA in 1-2 years."""),
    # table, SI units for vitamin D, q6 months
    (None, """| Item | Finding |
|---|---|
| Lowest T-score | -2.7 (L1-L4), osteoporosis |
| 25(OH)D | 87.5 nmol/L |
| eGFR | 32 mL/min/1.73m2 |

Zoledronic acid and alendronate are not recommended at CrCl < 35 mL/min.

**Plan**
- Prolia 60 mg subcut q6 months
- Elemental calcium 1,200 mg/day total; cholecalciferol 1,000 IU daily
- Keep anastrozole going
- Dental clearance prior to first injection
- Serum calcium before each injection
- DXA in 1-2 years"""),
    # an oral bisphosphonate labeled to CrCl 30
    (None, """A: osteoporosis on anastrozole (LS T -2.7). Vit D 35, replete. CKD 3b, eGFR 32 -
zoledronate contraindicated (CrCl <35).
P: risedronate 35 mg PO weekly. Ca 1000-1200 mg/d. Vitamin D3 2,000 IU daily. Continue
anastrozole. Dental exam prior to starting. Check calcium before each dose. Repeat DXA in 2
years."""),
    (TREAT, """Osteoporosis (LS T-score -2.9) on anastrozole. 25(OH)D 38 ng/mL. eGFR 71, normal.
Plan: zoledronic acid 4 mg IV every 6 months. Dental evaluation first. Calcium 1000-1200
mg/day; vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA in 2 years."""),
    (TREAT, """Her lumbar spine T-score of -2.9 is in the osteoporotic range; 25-hydroxyvitamin D
is 38 ng/mL and her eGFR 71 mL/min/1.73 m2. I recommend zoledronic acid 5 mg IV once yearly,
after a dental examination. Calcium 1,000-1,200 mg a day and vitamin D3 2,000 IU daily.
Anastrozole should be continued. Repeat DXA in 2 years."""),
    (NO_TREAT, """Osteopenia, lowest T-score -1.2 (lumbar spine); not osteoporosis. 25-OH vitamin D
44 ng/mL. eGFR 78.
No antiresorptive is indicated now (T-score above -2.0, no other risk factors). Calcium
1000-1200 mg a day, continue vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA in 12
months; start an antiresorptive if the T-score falls below -2.0."""),
    (NO_TREAT, """Impression: low bone mass (osteopenia), lowest T-score -1.2 at the spine, not
osteoporosis. 25-OH D 44 ng/mL. eGFR 78.
Recommendations:
- No bisphosphonate or denosumab at this time.
- Calcium 1,000-1,200 mg/day from diet; continue vitamin D3 1,000 IU daily.
- Continue anastrozole.
- Repeat DXA in 1 year."""),
    (VITD_LOW, """Osteoporosis, lumbar spine T-score -2.9. Vitamin D deficiency: 25-OH vitamin D 13
ng/mL. eGFR 69.
Plan: ergocalciferol 50,000 IU weekly for 8 weeks, then vitamin D3 2,000 IU daily. Recheck 25-OH
D in 12 weeks. Then start zoledronic acid 4 mg IV every 6 months once replete. Dental exam
before the first dose. Calcium 1000-1200 mg daily. Continue anastrozole. DXA in 2 years."""),
    (VITD_LOW, """Osteoporosis (spine T-score -2.9) with vitamin D deficiency (25-OH D 13 ng/mL);
eGFR 69.
Recommendations:
1. Vitamin D3 50,000 IU once weekly x 8 weeks, then 2,000 IU daily.
2. Recheck 25-OH vitamin D in 3 months.
3. After repletion, denosumab 60 mg subcutaneously every 6 months.
4. Dental evaluation before starting denosumab.
5. Calcium 1,200 mg daily total.
6. Continue anastrozole. DXA in 2 years."""),
]

_NO_ZA = "Zoledronic acid is contraindicated with CrCl <35, so avoid it."
_DMAB = "Denosumab 60 mg SC every 6 months"
WRONG = [
    # review 2: alendronate at CrCl 32, a second antiresorptive, every agent listed
    (None, "therapy_decision_reasoned", GOOD_LOW + "\nAlso start alendronate 70 mg weekly."),
    (None, "therapy_decision_reasoned",
     GOOD_LOW + "\nAlternatively, alendronate 70 mg weekly would be reasonable."),
    (None, "treatment_plan_documented", GOOD_LOW.replace(
        _DMAB, "Start denosumab 60 mg SC every 6 months and risedronate 35 mg weekly")),
    (None, "therapy_decision_reasoned", GOOD_LOW.replace(_DMAB, (
        "Options: denosumab 60 mg SC every 6 months, risedronate 35 mg weekly, ibandronate 150 mg "
        "monthly, alendronate 70 mg weekly"))),
    (TREAT, "treatment_plan_documented", """Osteoporosis (LS T-score -2.9) on anastrozole. 25(OH)D
38 ng/mL. eGFR 71, normal.
Plan: start denosumab 60 mg SC every 6 months and zoledronic acid 4 mg IV every 6 months. Dental
evaluation first. Calcium 1000-1200 mg/day; vitamin D3 2,000 IU daily. Continue anastrozole.
Repeat DXA in 2 years."""),
    (TREAT, "treatment_plan_documented", """Osteoporosis (LS T-score -2.9) on anastrozole. 25(OH)D
38 ng/mL. eGFR 71, normal.
Plan: denosumab 60 mg SC every 6 months plus alendronate 70 mg weekly. Dental evaluation first.
Calcium 1000-1200 mg/day; vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA in 2
years."""),
    # review 12: last year's eGFR stated as current beside a correct CrCl
    (None, "therapy_decision_reasoned",
     GOOD_LOW.replace("eGFR 32", "eGFR 40, CrCl about 32 mL/min")),
    # review 11: no calcium check before the doses at an eGFR near 30
    (None, "monitoring_documented", GOOD_LOW.replace("; check calcium before each injection", "")),
    # review 9: a wrong maintenance vitamin D dose still fails
    (None, "treatment_plan_documented", GOOD_LOW.replace("2,000 IU daily", "10,000 IU daily")),
    # last year's eGFR read as current, and the zoledronic acid that follows from it
    (None, "therapy_decision_reasoned", GOOD_LOW.replace("eGFR 32", "eGFR 40").replace(
        _NO_ZA, "Zoledronic acid is safe.").replace(
        "Denosumab 60 mg SC every 6 months", "Zoledronic acid 4 mg IV every 6 months")),
    # zoledronic acid planned at CrCl 32, or offered as an untriggered alternative
    (None, "treatment_plan_documented", GOOD_LOW.replace(_NO_ZA, "").replace(
        "Denosumab 60 mg SC every 6 months", "Zoledronic acid 4 mg IV every 6 months")),
    (None, "therapy_decision_reasoned",
     GOOD_LOW + "\nAlternatively, zoledronic acid 5 mg IV yearly would be reasonable."),
    # review 3: hedged zoledronic acid offers at CrCl 32
    (None, "therapy_decision_reasoned",
     GOOD_LOW + "\nZoledronic acid 5 mg IV yearly would also be reasonable."),
    (None, "therapy_decision_reasoned",
     GOOD_LOW + "\nZoledronic acid 4 mg IV every 6 months could be considered later."),
    # alendronate (not recommended below CrCl 35)
    (None, "treatment_plan_documented", GOOD_LOW.replace(
        "Denosumab 60 mg SC every 6 months", "Alendronate 70 mg weekly")),
    # wrong interval, oncology (Xgeva) dosing, a hedge
    (None, "treatment_plan_documented", GOOD_LOW.replace("every 6 months", "every 3 months")),
    (None, "treatment_plan_documented", GOOD_LOW.replace(
        "Denosumab 60 mg SC every 6 months", "Denosumab 120 mg SC every 4 weeks")),
    (None, "treatment_plan_documented", GOOD_LOW.replace(
        "1. Denosumab 60 mg SC every 6 months.",
        "1. Could consider denosumab 60 mg SC every 6 months in the future.")),
    # the aromatase inhibitor stopped for bone loss
    (None, "treatment_plan_documented", GOOD_LOW.replace(
        "Continue anastrozole.", "Stop anastrozole and switch to tamoxifen.")),
    (None, "treatment_plan_documented", GOOD_LOW.replace(
        "calcium 1000-1200 mg/day", "calcium 2500 mg/day")),
    # stale vitamin D, wrong T-score, wrong category
    (None, "bone_status_assessed", GOOD_LOW.replace("35 ng/mL", "16 ng/mL")),
    (None, "bone_status_assessed", GOOD_LOW.replace("-2.7", "-2.2")),
    (None, "bone_status_assessed", GOOD_LOW.replace("osteoporosis", "osteopenia")),
    # no dental examination; DXA too late
    (None, "monitoring_documented", GOOD_LOW.replace(
        "4. Dental exam before the first dose; check calcium before each injection.\n", "")),
    (None, "monitoring_documented", GOOD_LOW.replace("in 2 years", "in 5 years")),
    # osteopenia branch: an antiresorptive started or offered, osteoporosis claimed, DXA late
    (NO_TREAT, "therapy_decision_reasoned", """Osteopenia, lowest T-score -1.2 (lumbar spine).
25-OH vitamin D 44 ng/mL. eGFR 78.
Plan: zoledronic acid 4 mg IV every 6 months. Calcium 1000-1200 mg a day, continue vitamin D3
2,000 IU daily. Continue anastrozole. Repeat DXA in 12 months."""),
    (NO_TREAT, "therapy_decision_reasoned", """Osteopenia, lowest T-score -1.2 (lumbar spine).
25-OH vitamin D 44 ng/mL. eGFR 78.
No antiresorptive is strictly needed, though denosumab could be considered if she prefers.
Calcium 1000-1200 mg a day, continue vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA
in 12 months."""),
    (NO_TREAT, "bone_status_assessed", """Osteoporosis, lowest T-score -1.2 (lumbar spine). 25-OH
vitamin D 44 ng/mL. eGFR 78. No antiresorptive is indicated now. Calcium 1000-1200 mg a day,
continue vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA in 12 months."""),
    (NO_TREAT, "monitoring_documented", """Osteopenia, lowest T-score -1.2 (lumbar spine). 25-OH
vitamin D 44 ng/mL. eGFR 78. No antiresorptive is indicated now. Calcium 1000-1200 mg a day,
continue vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA in 3 years."""),
    # vitamin D branch: daily 50,000 IU, no repletion, stale level
    (VITD_LOW, "treatment_plan_documented", """Osteoporosis, lumbar spine T-score -2.9. Vitamin D
deficiency: 25-OH vitamin D 13 ng/mL. eGFR 69.
Plan: ergocalciferol 50,000 IU daily for 8 weeks. Then start zoledronic acid 4 mg IV every 6
months once replete. Dental exam before the first dose. Calcium 1000-1200 mg daily. Continue
anastrozole. DXA in 2 years."""),
    # review 4: 50,000 IU more often than weekly (above 10,000 IU a day)
    (VITD_LOW, "treatment_plan_documented", """Osteoporosis, lumbar spine T-score -2.9. Vitamin D
deficiency: 25-OH vitamin D 13 ng/mL. eGFR 69.
Plan: vitamin D3 50,000 IU three times weekly for 8 weeks. Then start zoledronic acid 4 mg IV
every 6 months once replete. Dental exam before the first dose. Calcium 1000-1200 mg daily.
Continue anastrozole. DXA in 2 years."""),
    (VITD_LOW, "treatment_plan_documented", """Osteoporosis, lumbar spine T-score -2.9. Vitamin D
deficiency: 25-OH vitamin D 13 ng/mL. eGFR 69.
Plan: ergocalciferol 50,000 IU two times a week for 8 weeks. Then start zoledronic acid 4 mg IV
every 6 months once replete. Dental exam before the first dose. Calcium 1000-1200 mg daily.
Continue anastrozole. DXA in 2 years."""),
    (VITD_LOW, "treatment_plan_documented", """Osteoporosis, lumbar spine T-score -2.9. Vitamin D
deficiency: 25-OH vitamin D 13 ng/mL. eGFR 69.
Plan: resume vitamin D3 2,000 IU daily. Start zoledronic acid 4 mg IV every 6 months. Dental
exam before the first dose. Calcium 1000-1200 mg daily. Continue anastrozole. DXA in 2 years."""),
    (VITD_LOW, "bone_status_assessed", """Osteoporosis, lumbar spine T-score -2.9. 25-OH vitamin D
33 ng/mL, replete. eGFR 69.
Plan: ergocalciferol 50,000 IU weekly for 8 weeks. Then start zoledronic acid 4 mg IV every 6
months once replete. Dental exam before the first dose. Calcium 1000-1200 mg daily. Continue
anastrozole. DXA in 2 years."""),
    # treatment branch: no antiresorptive despite osteoporosis; oncology dosing of zoledronic acid
    (TREAT, "therapy_decision_reasoned", """Osteoporosis (LS T-score -2.9) on anastrozole. 25(OH)D
38 ng/mL. eGFR 71.
No antiresorptive is needed. Calcium 1000-1200 mg/day; vitamin D3 2,000 IU daily. Continue
anastrozole. Repeat DXA in 2 years. Dental exam."""),
    (TREAT, "treatment_plan_documented", """Osteoporosis (LS T-score -2.9) on anastrozole. 25(OH)D
38 ng/mL. eGFR 71.
Plan: zoledronic acid 4 mg IV every 4 weeks. Dental evaluation first. Calcium 1000-1200 mg/day;
vitamin D3 2,000 IU daily. Continue anastrozole. Repeat DXA in 2 years."""),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


_VITD_PLAN = ("3. Once vitamin D is replete and calcium normal, start denosumab 60 mg "
              "subcutaneously\n   every 6 months (zoledronic acid 4 mg IV every 6 months is an "
              "equal alternative).")


def _vitd_note(step: str) -> str:
    note = oracle_note(TASK, VITD_LOW)
    assert _VITD_PLAN in note
    return note.replace(_VITD_PLAN, step)


# review 1: the antiresorptive follows the repletion
@pytest.mark.parametrize("step", [
    "3. After repletion, start denosumab 60 mg SC every 6 months.",
    "3. When her vitamin D is replete, start denosumab 60 mg SC every 6 months.",
    "3. Start denosumab 60 mg SC every 6 months once vitamin D is replete.",
    "3. No antiresorptive until vitamin D is replete; then denosumab 60 mg SC every 6 months.",
])
def test_vitd_low_antiresorptive_after_repletion_passes(step):
    assert grade_note(TASK, _vitd_note(step), VITD_LOW)["therapy_decision_reasoned"]


# review 1: an antiresorptive started now, with the repletion, fails
@pytest.mark.parametrize("step", [
    "3. Start denosumab 60 mg SC every 6 months today, together with the ergocalciferol.",
    "3. Start zoledronic acid 4 mg IV every 6 months now, with the ergocalciferol.",
    "3. Start denosumab 60 mg SC every 6 months now; begin vitamin D3 50,000 IU weekly after the "
    "first injection.",
])
def test_vitd_low_antiresorptive_started_now_fails(step):
    assert grade_note(TASK, _vitd_note(step), VITD_LOW)["therapy_decision_reasoned"] is False


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for seed in (TREAT, NO_TREAT, VITD_LOW):
        assert not all(grade_note(TASK, canonical, seed).values()), seed


# ---- orders: the must-nots of each branch ----

def _rx(code: str, dose: float, unit: str = "mg", **extra: object) -> dict:
    return {"tool": "fhir_medication_request_create",
            "arguments": {"patient": "{patient_id}", "medication_code": code,
                          "dose_value": dose, "dose_unit": unit, **extra}}


DMAB = _rx("993452", 60, route="subcutaneous", frequency=1, period=6, period_unit="month")
DMAB_MONTHLY = _rx("993452", 60, route="subcutaneous", frequency=1, period_unit="month")
ZA_Q6MO = _rx("1114085", 4, route="intravenous", frequency=1, period=6, period_unit="month")
ZA_YEARLY = _rx("1114085", 5, route="intravenous", frequency=1, period=12, period_unit="month")
ALENDRONATE = _rx("904431", 70, frequency=1, period_unit="week")
RISEDRONATE = _rx("905024", 35, frequency=1, period_unit="week")
VITD_WEEKLY = _rx("1367410", 50000, "IU", frequency=1, period_unit="week")
VITD_DAILY = _rx("1367410", 50000, "IU", frequency=1, period_unit="day")
ZA5_YEARLY = _rx("705824", 5, route="intravenous", frequency=1, period=12, period_unit="month")
DMAB_YEARLY = _rx("993452", 60, route="subcutaneous", frequency=1, period=12, period_unit="month")
DMAB_NO_SCHEDULE = _rx("993452", 60, route="subcutaneous")
VITD_3X_WEEKLY = _rx("1367410", 50000, "IU", frequency=3, period_unit="week")


def _recheck(weeks_ahead: int | None, **extra: str) -> dict:
    """A 25-hydroxyvitamin D order ``weeks_ahead`` weeks after the vitamin D variant's 'now'."""
    if weeks_ahead is not None:
        now = values(TASK, VITD_LOW)["now"]
        extra["occurrence"] = (now + timedelta(weeks=weeks_ahead)).date().isoformat()
    return service_request("1989-3", "loinc", "laboratory", **extra)


VITD_RECHECK = _recheck(12)


def _dxa(days_ahead: int | None) -> dict:
    """A DXA order dated ``days_ahead`` days after the no-treatment variant's 'now'."""
    extra = {}
    if days_ahead is not None:
        now = values(TASK, NO_TREAT)["now"]
        extra["occurrence"] = (now + timedelta(days=days_ahead)).date().isoformat()
    return service_request("77080", "cpt", "imaging", display="DXA bone density", **extra)


@pytest.mark.parametrize(("variant", "actions", "passes"), [
    (None, [DMAB], True),
    (None, [RISEDRONATE], True),
    (None, [ZA_Q6MO], False),                 # contraindicated below CrCl 35
    (None, [ALENDRONATE], False),             # not recommended below CrCl 35
    (None, [DMAB, RISEDRONATE], False),       # two antiresorptives
    (None, [DMAB_MONTHLY], False),            # more often than labeled
    (None, [DMAB, DMAB], False),              # review 6: a duplicate prescription
    (None, [DMAB_YEARLY], False),             # review 6: yearly denosumab
    (None, [DMAB_NO_SCHEDULE], False),        # review 6: no schedule
    (TREAT, [ZA_Q6MO], True),
    (TREAT, [ZA_YEARLY], False),              # review 10: 5 mg from the 4 mg/100 mL product
    (TREAT, [ZA5_YEARLY], True),              # the 5 mg/100 mL product once yearly
    (TREAT, [ALENDRONATE], True),
    (TREAT, [DMAB, ZA_Q6MO], False),
    (VITD_LOW, [VITD_WEEKLY, VITD_RECHECK], True),
    # review 1: an antiresorptive before repletion
    (VITD_LOW, [VITD_WEEKLY, VITD_RECHECK, DMAB], False),
    (VITD_LOW, [VITD_WEEKLY, VITD_3X_WEEKLY, VITD_RECHECK], False),  # review 4: 150,000 IU a week
    (VITD_LOW, [VITD_WEEKLY, _recheck(None)], False),     # review 13: undated - drawn now
    (VITD_LOW, [VITD_WEEKLY, _recheck(None, note="Recheck in 12 weeks.")], True),
    (VITD_LOW, [VITD_WEEKLY, _recheck(3)], False),
    (VITD_LOW, [VITD_WEEKLY], False),                     # no recheck of 25-OH vitamin D
    (VITD_LOW, [VITD_DAILY, VITD_RECHECK], False),        # 50,000 IU daily
    (VITD_LOW, [DMAB, VITD_RECHECK], False),              # no repletion
    (NO_TREAT, [_dxa(365)], True),
    (NO_TREAT, [_dxa(None)], False),                      # undated: a DXA now
    (NO_TREAT, [_dxa(30)], False),
    (NO_TREAT, [_dxa(365), ZA_Q6MO], False),     # no antiresorptive below threshold
])
def test_bone_therapy_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["bone_therapy_ordered"] is passes


def test_undated_dxa_with_interval_counts():
    order = service_request("77080", "cpt", "imaging", display="DXA bone density",
                            note="Repeat in 12 months on anastrozole.")
    assert run_actions(TASK, [order], NO_TREAT)["bone_therapy_ordered"]


def _message(text: str) -> dict:
    return {"tool": "fhir_communication_create_message",
            "arguments": {"patient": "{patient_id}", "recipient": values(TASK)["referring_id"],
                          "text": text}}


@pytest.mark.parametrize(("text", "passes"), [
    (values(TASK)["message_text"], True),
    # review 12: a message endorsing zoledronic acid at CrCl 32
    ("Denosumab is not appropriate. Start zoledronic acid 4 mg IV every 6 months.", False),
    ("Prolia 60 mg SC every 6 months started. Alternatively, alendronate 70 mg weekly would be "
     "reasonable.", False),
])
def test_pcp_message_offers_no_agent_unsafe_at_crcl_32(text, passes):
    assert run_actions(TASK, [_message(text)])["pcp_message_sent"] is passes
