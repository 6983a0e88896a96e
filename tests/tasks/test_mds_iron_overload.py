"""mds_iron_overload: the scenario, weight and ferritin draws, and the note phrasings its
checkpoints must judge on each branch (deferasirox at full or half dose, or deferoxamine when
platelets are below 50; no deferiprone; stop the ferrous sulfate and give no other iron; lab
monitoring on a schedule), and the chelator orders (film-coated tablets of any strength or
tablets for oral suspension; deferiprone and a deferasirox order at low platelets caught)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    oracle_note,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "mds_iron_overload"
STANDARD = 7    # weight 72 kg, ferritin 3,159: deferasirox 990 mg (918-1098)
RENAL = 8       # weight 69 kg, ferritin 4,314, eGFR 50: deferasirox 450 mg (393-573)
LOW_PLT = 12    # weight 76 kg, ferritin 4,012, platelets 38: deferoxamine 1,520-3,040 mg
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "standard"}
    assert (vals["weight"], vals["ferritin"], vals["egfr_now"], vals["plt_now"]) == (
        76, 3180, 89, 112)
    assert (vals["dfx_per_kg"], vals["dfx_dose"], vals["dfx_low"], vals["dfx_high"]) == (
        14, 1080, 974, 1154)
    assert (vals["dfx_code"], vals["dfx_tabs"], vals["dfx_quantity"]) == ("1607792", 3, 90)
    assert {RX + "389242", RX + "2180997"} <= set(vals["deferiprone_codes"])
    assert {RX + "597772", RX + "1607784"} <= set(vals["deferasirox_codes"])
    assert (vals["dfo_low"], vals["dfo_high"], vals["dfo_dose"]) == (1520, 3040, 2500)
    assert vals["weight_2y"] == 84
    assert RX + "310325" in vals["iron_codes"] and RX + "1607792" not in vals["iron_codes"]
    order = vals["order_options"][0]["all"]["of"][0]["ordered"]
    assert order["per_day"] == {"min": 1, "max": 1} and order["route"] == ["26643006", "oral"]


def test_branches_move_the_drug_and_dose():
    renal, low = values(TASK, RENAL), values(TASK, LOW_PLT)
    assert renal["scenario"]["kind"] == "renal" and renal["dfx_per_kg"] == 7
    assert 40 <= renal["egfr_now"] < 60 and renal["dfx_dose"] == 450
    assert renal["dfx_code"] == "1607796" and renal["dfx_tabs"] == 5
    assert low["scenario"]["kind"] == "low_platelets" and low["plt_now"] < 50
    assert len(low["order_options"]) == 1  # deferoxamine only
    assert len(values(TASK)["order_options"]) == 3  # film-coated tablets, EXJADE, deferoxamine
    assert values(TASK, STANDARD)["scenario"]["kind"] == "standard"
    kinds = {values(TASK, n)["scenario"]["kind"] for n in range(20)}
    assert kinds == {"standard", "renal", "low_platelets"}


def _note(var: int | None, data: str, plan: str) -> str:
    return data + "\n" + plan + (
        "\nStop his ferrous sulfate; the iron deficiency resolved years ago.\n"
        "Check creatinine weekly for a month, then monthly; check liver tests every 2 weeks for a"
        " month, then monthly; check ferritin monthly. Order a baseline audiogram and a dilated eye"
        " exam now, then yearly.\nNo deferiprone (agranulocytosis).\n")


CANON = "Ferritin 3,180 ng/mL after 44 units: transfusional iron overload. Weight 76 kg; eGFR 89."
REN = "Ferritin 4,314 ng/mL: transfusional iron overload. Weight 69 kg; eGFR 50 mL/min/1.73m2."
LOW = "Ferritin 4,012 ng/mL: transfusional iron overload. Weight 76 kg; platelets 38 x10^9/L."

CORRECT = [
    (None, _note(None, CANON, "Start deferasirox (Jadenu) 14 mg/kg/day = 1,080 mg PO once daily.")),
    (None, _note(None, CANON, "Start deferasirox 1080 mg by mouth once daily.")),
    (None, _note(None, CANON, "Start Exjade 20 mg/kg once daily by mouth (1,520 mg).")),
    (None, _note(None, CANON, "Start deferoxamine 2 g subcutaneously over 10 hours, 5 nights a "
                              "week.")),
    (RENAL, _note(RENAL, REN, "Start deferasirox at half the usual starting dose: 7 mg/kg (about"
                              " 480 mg) by mouth once daily.")),
    (RENAL, _note(RENAL, REN, "Start deferasirox 450 mg once daily by mouth (50% dose reduction "
                              "for eGFR 40-60).")),
    (LOW_PLT, _note(LOW_PLT, LOW, "Start deferoxamine 40 mg/kg/day subcutaneously over 8-12 h, "
                                  "5-7 nights a week. Deferasirox is contraindicated with "
                                  "platelets below 50.")),
    (None, """| Item | Plan |
|---|---|
| Iron burden | ferritin 3,180 ng/mL, transfusional iron overload |
| Dosing data | weight 76 kg, eGFR 89 |
| Chelator | deferasirox 1,080 mg PO once daily (14 mg/kg) |
| Ferrous sulfate | stop |
| Deferiprone | no (neutropenia) |

Check serum creatinine weekly for the first month, then monthly; ALT monthly; ferritin monthly.
Order baseline audiometry and an ophthalmology exam before the first dose, then yearly.
"""),
    # creatinine as the renal input (review finding 10); tablets for oral suspension by brand;
    # 'ophtho exam' and 'audiology evaluation' (finding 6)
    (None, _note(None, CANON.replace("eGFR 89", "creatinine 0.92 mg/dL, normal renal function"),
                 "Start deferasirox 1080 mg by mouth once daily.")),
    (RENAL, _note(RENAL, REN.replace("eGFR 50 mL/min/1.73m2", "creatinine 1.48 mg/dL"),
                  "Start deferasirox 450 mg once daily by mouth (half dose for his kidneys).")),
    (None, _note(None, CANON, "Start Exjade 1,500 mg by mouth once daily (20 mg/kg), dispersed "
                              "in water.")),
    (None, _note(None, CANON, "Start deferasirox 1080 mg by mouth once daily.").replace(
        "Order a baseline audiogram and a dilated eye exam now, then yearly.",
        "Order an audiology evaluation and an ophtho exam now, then yearly.")),
]

WRONG = {
    "stale_ferritin": (None, "iron_overload_assessed", _note(None, CANON.replace(
        "3,180", "2,480"), "Start deferasirox 1080 mg by mouth once daily.")),
    "inflammation": (None, "iron_overload_assessed", _note(None, CANON.replace(
        "transfusional iron overload", "likely inflammatory, no iron overload"),
        "Start deferasirox 1080 mg by mouth once daily.")),
    "stale_weight": (None, "dosing_inputs_stated", _note(None, CANON.replace("76 kg", "84 kg"),
                                                         "Start deferasirox 1,170 mg once daily.")),
    "stale_egfr": (None, "dosing_inputs_stated", _note(None, CANON.replace("89", "62"),
                                                       "Start deferasirox 1080 mg once daily.")),
    "exjade_dose_for_jadenu": (None, "chelation_plan_documented", _note(
        None, CANON, "Start deferasirox 20 mg/kg once daily by mouth.")),
    "no_chelation_yet": (None, "chelation_plan_documented", _note(
        None, CANON, "No chelation for now; recheck ferritin in 3 months.")),
    "deferiprone_offered": (None, "chelation_plan_documented", _note(
        None, CANON, "Start deferasirox 1080 mg once daily. Alternatively, deferiprone could be "
                     "used.")),
    "full_dose_in_renal": (RENAL, "chelation_plan_documented", _note(
        RENAL, REN, "Start deferasirox 14 mg/kg once daily by mouth.")),
    "deferasirox_low_platelets": (LOW_PLT, "chelation_plan_documented", _note(
        LOW_PLT, LOW, "Start deferasirox 14 mg/kg once daily by mouth.")),
    "continue_iron": (None, "oral_iron_stopped", _note(None, CANON, "Start deferasirox 1080 mg "
                      "once daily.").replace("Stop his ferrous sulfate", "Continue his ferrous "
                                                                          "sulfate")),
    "no_eye_ear": (None, "monitoring_documented", _note(None, CANON, "Start deferasirox 1080 mg "
                   "once daily.").replace("Order a baseline audiogram and a dilated eye exam now, "
                                          "then yearly.", "")),
    # review finding 1: lab results in the data lines are no monitoring plan
    "labs_only_as_results": (None, "monitoring_documented", (
        "Ferritin 3,180 ng/mL after 44 units: transfusional iron overload. Weight 76 kg; "
        "creatinine 0.92 mg/dL, eGFR 89. ALT 38, AST 41. Plan: start deferasirox 1,080 mg by "
        "mouth once daily (14 mg/kg). Stop ferrous sulfate. No deferiprone. Order baseline "
        "audiometry and an ophthalmology exam, repeat yearly.\n")),
    "quarterly_labs": (None, "monitoring_documented", _note(None, CANON, "Start deferasirox 1080 "
                       "mg once daily.").replace(
        "Check creatinine weekly for a month, then monthly; check liver tests every 2 weeks for a"
        " month, then monthly; check ferritin monthly.",
        "Check creatinine every 3 months; check liver tests every 3 months; check ferritin every "
        "3 months.")),
    # review finding 2: no other iron
    "iv_iron_instead": (None, "oral_iron_stopped", _note(None, CANON, "Start deferasirox 1080 mg "
                        "once daily.") + "Give ferric carboxymaltose 750 mg IV instead.\n"),
    "multivitamin_with_iron": (None, "oral_iron_stopped", _note(
        None, CANON, "Start deferasirox 1080 mg once daily.") + "He can take a multivitamin with "
        "iron.\n"),
    "iv_iron_if_ferritin_drops": (None, "oral_iron_stopped", _note(
        None, CANON, "Start deferasirox 1080 mg once daily.") + "Give IV iron sucrose 200 mg if "
        "ferritin drops.\n"),
    "stale_creatinine_beside_wrong_egfr": (None, "dosing_inputs_stated", _note(
        None, CANON.replace("eGFR 89", "creatinine 0.92 mg/dL, eGFR 62"),
        "Start deferasirox 1080 mg once daily.")),
}

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (RENAL, LOW_PLT, STANDARD), [None, RENAL, LOW_PLT]))


# Must-nots appended to the reference note (for tests/test_must_nots.py when the task lands).
@pytest.mark.parametrize(("variant", "checkpoint", "sentence", "passed"), [
    (None, "chelation_plan_documented", "Deferiprone is a reasonable alternative if he prefers a "
     "pill.", False),
    (None, "chelation_plan_documented", "Deferiprone may be considered if deferasirox is not "
     "tolerated.", False),
    (None, "oral_iron_stopped", "He may continue his ferrous sulfate if he prefers.", False),
    (None, "oral_iron_stopped", "Ferrous sulfate can be continued as needed.", False),
    (None, "oral_iron_stopped", "A multivitamin with iron is fine.", False),
    (None, "oral_iron_stopped", "If the ferritin falls below 500, start IV iron.", False),
    (None, "oral_iron_stopped", "No oral or IV iron and no multivitamin with iron.", True),
    (LOW_PLT, "chelation_plan_documented", "Deferasirox may be considered if he prefers an oral "
     "drug.", False),
    (None, "chelation_plan_documented", "Deferiprone should not be used because of the "
     "agranulocytosis risk.", True),
    (LOW_PLT, "chelation_plan_documented", "If platelets recover above 50, deferasirox can "
     "replace deferoxamine.", True),
])
def test_must_nots(variant, checkpoint, sentence, passed):
    verdicts = grade_note(TASK, oracle_note(TASK, variant) + "\n" + sentence + "\n", variant)
    assert verdicts[checkpoint] is passed


GAP = "reader gap (see the draft report): "


@pytest.mark.parametrize(("variant", "checkpoint", "sentence", "passed"), [
    # a mg/kg-dosed alternative, and 'X is also acceptable', offer X at that dose
    pytest.param(None, "chelation_plan_documented", "Deferiprone 25 mg/kg three times daily is an "
                 "alternative.", False),
    pytest.param(None, "chelation_plan_documented", "Start deferasirox 14 mg/kg once daily and "
                 "deferoxamine 30 mg/kg daily.", False, marks=pytest.mark.xfail(
                     strict=True, reason=GAP + "a drug after a mg/kg-dosed first object")),
    pytest.param(LOW_PLT, "chelation_plan_documented", "Deferasirox 14 mg/kg daily is a "
                 "reasonable alternative if he prefers pills.", False),
    pytest.param(RENAL, "chelation_plan_documented", "Alternatively, deferasirox 14 mg/kg once "
                 "daily may be used.", False),
    pytest.param(RENAL, "chelation_plan_documented", "Full-dose deferasirox 1,080 mg daily is "
                 "also acceptable.", False),
    pytest.param(None, "oral_iron_stopped", "He should no longer take ferrous sulfate.", True,
                 marks=pytest.mark.xfail(strict=True, reason=GAP + "'no longer take X' is a stop")),
    pytest.param(None, "oral_iron_stopped", "Stop his ferrous sulfate - the iron deficiency "
                 "resolved years ago.", True, marks=pytest.mark.xfail(
                     strict=True, reason=GAP + "a dash before a past-tense reason dates the stop")),
    pytest.param(None, "monitoring_documented", "Audiometry and eye exam at baseline and yearly.",
                 True),
    pytest.param(None, "monitoring_documented", "Obtain baseline hearing and vision testing, then "
                 "annually.", True, marks=pytest.mark.xfail(
                     strict=True, reason=GAP + "'hearing and vision testing' is hearing testing")),
    pytest.param(None, "oral_iron_stopped", "Please take him off ferrous sulfate.", True,
                 marks=pytest.mark.xfail(strict=True, reason=GAP + "'take him off X' is a stop")),
    pytest.param(None, "chelation_plan_documented", "Start deferasirox 1,080 mg (three 360-mg "
                 "tablets) by mouth daily.", True),
    pytest.param(None, "chelation_plan_documented", "Deferasirox 14 mg/kg/day = 1080 mg (3 x 360 "
                 "mg) PO once daily.", True),
    pytest.param(None, "chelation_plan_documented", "Deferasirox 14 mg/kg PO qd -> 1064 -> 1080 "
                 "mg qd.", True),
    pytest.param(LOW_PLT, "chelation_plan_documented", "Start deferoxamine 2 g subcutaneously "
                 "once weekly.", False),
    pytest.param(None, "monitoring_documented", "Check serum creatinine and ALT monthly "
                 "(weekly for the first month), ferritin monthly.",
                 True),
])
def test_reader_gaps(variant, checkpoint, sentence, passed):
    note = oracle_note(TASK, variant)
    if checkpoint == "oral_iron_stopped" and passed:
        note = note.replace("3. Stop ferrous sulfate", "3. About ferrous sulfate")
    if checkpoint == "monitoring_documented" and passed and "ALT" in sentence:
        note = note.split("5. Check serum creatinine")[0] + "6. No NSAIDs.\n"
    elif checkpoint == "monitoring_documented" and passed:
        note = note.replace("4. Baseline audiometry and an ophthalmology examination (slit lamp "
                            "and dilated fundus)\n   ordered before the first dose; repeat both "
                            "yearly.", "4. See below.")
    if checkpoint == "chelation_plan_documented" and passed:
        note = note.split("1. Start deferasirox")[0] + "1. See below.\n" + note.split(
            "(maximum 28 mg/kg/day).")[1]
    verdicts = grade_note(TASK, note + "\n" + sentence + "\n", variant)
    assert verdicts[checkpoint] is passed


def _chelator(code: str, display: str, dose: int, quantity: int, route: str = "oral",
              frequency: int = 1, period_unit: str = "day") -> dict:
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "medication_display": display,
        "dose_value": dose, "dose_unit": "mg", "route": route, "frequency": frequency,
        "period_unit": period_unit, "sig": f"{dose} mg by {route} route", "duration_days": 30,
        "quantity": quantity, "quantity_unit": "tablet", "refills": 0,
        "reason": "Transfusional iron overload", "reason_code": "E83.111"}}


# Review findings 7 and 8: every deferasirox formulation can be prescribed; a deferiprone order is
# written (the codes are in the tables) and caught; deferasirox at platelets below 50 is caught.
@pytest.mark.parametrize(("variant", "orders", "passed"), [
    (None, [_chelator("1607784", "deferasirox 180 mg tablet", 1080, 180)], True),
    (None, [_chelator("597772", "deferasirox 500 mg tablet for oral suspension", 1500, 90)], True),
    (None, [_chelator("597772", "deferasirox 500 mg tablet for oral suspension", 2500, 150)],
     False),
    (None, [_chelator("1607792", "deferasirox 360 mg tablet", 1080, 90),
            _chelator("389242", "deferiprone 500 mg tablet", 1500, 270, frequency=3)], False),
    (None, [_chelator("1607792", "deferasirox 360 mg tablet", 1080, 90),
            _chelator("2180997", "deferiprone 1000 mg tablet", 2000, 180, frequency=3)], False),
    (LOW_PLT, [_chelator("1731350", "deferoxamine mesylate 500 mg vial", 2500, 100,
                         route="subcutaneous", frequency=5, period_unit="week"),
               _chelator("597772", "deferasirox 500 mg tablet for oral suspension", 1500, 90)],
     False),
])
def test_chelator_orders(variant, orders, passed):
    assert run_actions(TASK, orders, variant)["chelator_prescribed"] is passed
