"""pruritic_papular_rash: scabies in an older man - permethrin 5% (repeated in 7-14 days) when
untreated, oral ivermectin 200 ug/kg in whole 3 mg tablets (repeated in 7-14 days) after
permethrin failed, the household and bedding treated, no prednisone burst and no lindane."""

from __future__ import annotations

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401  (registers the environments)
from physbench_gym.agents.base import run_episode
from tests.tasks.helpers import branch_probes, note_probes, oracle_calls, values

TASK = "pruritic_papular_rash"
FAILED_95 = 0      # permethrin failed, 95 kg -> ivermectin 18 mg
UNTREATED_68 = 5   # no scabicide yet, 68 kg (ivermectin would be 15 mg, as canonical)
UNTREATED_100 = 6  # no scabicide yet, 100 kg -> ivermectin 21 mg


def test_canonical_values():
    vals = values(TASK)
    assert vals["course"] == "failed" and vals["weight_kg"] == 68
    assert vals["iver_mg"] == 15 and (vals["iver_low"], vals["iver_high"]) == (12.2, 17.0)
    assert vals["iver_quantity"] == 10 and vals["ivermectin_rxnorm"] == "311207"


def test_weight_moves_the_ivermectin_dose():
    assert values(TASK, FAILED_95)["iver_mg"] == 18
    assert values(TASK, UNTREATED_100)["iver_mg"] == 21
    doses = [values(TASK, n)["iver_mg"] for n in range(20)]
    assert doses.count(15) <= 3 and {12, 18, 21} <= set(doses)


_REST = (" Treat his wife and any close contacts at the same time, even without symptoms. Wash "
         "bedding, towels and clothing on hot or seal them in a plastic bag for 72 hours. No "
         "prednisone burst - steroids do not treat scabies. Avoid lindane: neurotoxic, boxed "
         "warning.")

CORRECT = [
    "Scabies, scraping-confirmed, failed permethrin x2. Ivermectin 15 mg PO now, repeat in 7 "
    "days." + _REST,
    """Assessment: scabies persisting after two permethrin courses.
Plan:
1. Ivermectin 200 mcg/kg = 15 mg by mouth today; second dose in 14 days.
2. Treat his wife the same day.
3. Launder bedding and clothes in hot water or seal in a plastic bag for 72 hours.
4. Do not give prednisone.
5. Lindane is not recommended: neurotoxic.""",
    "Sarcoptes scabiei infestation. Ivermectin 15 mg PO x2 doses, 1 week apart." + _REST,
    "Scabies. Ivermectin 15 mg PO today and again in 7 days." + _REST,
    (FAILED_95, "Scabies. Ivermectin 18 mg PO now, repeat in 7 days." + _REST),
    (UNTREATED_100, "Classic scabies. Start permethrin 5% cream tonight neck down including the "
                    "scalp, wash off after 8-14 h; repeat the permethrin in 1 week." + _REST),
    (UNTREATED_100, "Scabies. Ivermectin 21 mg PO now; second dose of ivermectin in 14 days."
     + _REST),
    (UNTREATED_68, "Scabies. Permethrin 5% cream tonight, wash off after 8-14 hours; reapply "
                   "permethrin in 7 days." + _REST),
    "Classic scabies, not crusted scabies. Ivermectin 15 mg PO now, repeat in 7 days." + _REST,
    ("Scabies confirmed on scraping; no features of crusted scabies. Ivermectin 15 mg PO now, "
     "repeat in 7 days. Doris should be treated the same day even without a rash. Everyone who "
     "lives with him should be treated simultaneously. Wash sheets, towels and clothes worn in "
     "the last 3 days hot and tumble dry hot. No prednisone burst. Avoid lindane."),
    # Reader gaps: each should pass.
    pytest.param((None, "Scabies. Ivermectin 15 mg PO now, and a second 15 mg dose 7 days later."
                  + _REST), id="n_days_later"),
    pytest.param((None, "Scabies. Ivermectin 15 mg PO once today, repeat 15 mg on day 7." + _REST),
                 id="on_day_n"),
    pytest.param((None, "Scabies. Ivermectin 3 mg tablets: take 5 tablets (15 mg) today and 5 "
                        "tablets again in 7 days." + _REST),
                 id="tablet_strength", marks=pytest.mark.xfail(
                     strict=True, reason="the tablet strength '3 mg tablets' is read as a dose")),
    pytest.param((None, "Scabies. Ivermectin 200 ug/kg PO: 68 kg x 0.2 mg = 13.6 mg -> 15 mg "
                        "today, repeat in 7 days." + _REST), id="per_kg_factor"),
    pytest.param((None, "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife at the "
                        "same time. Wash bedding hot. Q: another prednisone burst? A: No. Avoid "
                        "lindane."),
                 id="qa_no"),
    pytest.param((None, "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife at the "
                        "same time. Wash bedding hot. No prednisone. The pharmacist suggested "
                        "lindane; not recommended, it is neurotoxic."), id="reported_speech"),
    pytest.param((None, "Scabies. Ivermectin 15 mg PO on day 1 and day 8." + _REST),
                 id="day_numbered", marks=pytest.mark.xfail(
                     strict=True,
                     reason="a day-numbered schedule ('day 1 and day 8') is no timing")),
    pytest.param((UNTREATED_68, "Scabies. Permethrin 5% cream tonight, wash off after 8-14 "
                                "hours; reapply permethrin 7 days later." + _REST),
                 id="days_later"),
    pytest.param((None, "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife at the "
                        "same time. Wash bedding hot; anything that cannot be washed goes into a "
                        "sealed plastic bag for 72 hours.\n\n**PCP question 2 - another "
                        "prednisone burst?** **No.** Steroid use is a recognised route to crusted "
                        "scabies.\n\n**PCP question 3 - lindane?** **No.** Neurotoxic."),
                 id="question_labels_general_risk_relative_clause"),
    pytest.param((None, "Scabies. Oral ivermectin 200 micrograms per kilogram, which at 68 "
                        "kilograms is 13.6 milligrams, rounded to 15 milligrams, today and again "
                        "in 7 days." + _REST), id="which_at_weight"),
    pytest.param((None, "Scabies; permethrin has failed, so I've switched him to oral ivermectin. "
                        "At 68 kg that is 13.6 mg, so I've sent 15 mg to take today and the same "
                        "15 mg again in 14 days." + _REST + "\n\nRecheck in 2-4 weeks after the "
                        "second dose."), id="dose_sentence_without_drug"),
]
CORRECT.insert(0, "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife at the same "
               "time. Wash bedding hot. No prednisone. Avoid lindane. For itch that lingers after "
               "cure, triamcinolone 0.1% cream twice daily for 1-2 weeks.")  # topical: fine

WRONG = [
    ("treatment_plan_documented",
     "Scabies. Ivermectin 12 mg PO now, repeat in 7 days." + _REST),
    ("treatment_plan_documented", "Scabies. Ivermectin 15 mg PO once." + _REST),
    ("treatment_plan_documented",
     "Scabies. Hold off on ivermectin for now; repeat permethrin first." + _REST),
    (FAILED_95, "treatment_plan_documented",
     "Scabies. Ivermectin 15 mg PO now, repeat in 7 days." + _REST),
    (UNTREATED_68, "treatment_plan_documented",
     "Scabies. Start permethrin 5% cream tonight neck down, wash off after 8-14 h." + _REST),
    ("steroid_avoided",
     "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife. Wash bedding hot. Add "
     "a short prednisone burst 40 mg daily for 5 days for the itch. Avoid lindane."),
    ("steroid_avoided",
     "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife. Wash bedding hot. "
     "Avoid routine steroids, but a Medrol dose pack is reasonable if the itch is unbearable. "
     "Avoid lindane."),
    ("lindane_avoided",
     "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife. Wash bedding hot. No "
     "prednisone. If ivermectin fails, lindane lotion is a reasonable option."),
    ("household_and_home_addressed",
     "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. His wife does not need treatment "
     "unless she develops a rash. Wash bedding hot. No prednisone. Avoid lindane."),
    ("diagnosis_assessed",
     "Eczema, not scabies. Ivermectin 15 mg PO now, repeat in 7 days." + _REST),
    ("diagnosis_assessed",
     "Crusted (Norwegian) scabies. Ivermectin 15 mg PO now, repeat in 7 days." + _REST),
    ("steroid_avoided",
     "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife. Wash bedding hot. Avoid "
     "prednisone, but a methylprednisolone 4 mg taper is acceptable for severe itch. Avoid "
     "lindane."),
    (UNTREATED_68, "treatment_plan_documented",
     "Scabies. Permethrin 1% creme rinse tonight to the whole body, repeat in 7 days." + _REST),
    # Reader gaps: each should fail its checkpoint.
    pytest.param(("treatment_plan_documented", "Scabies. Ivermectin 15 mg PO once. Recheck in 2 "
                  "weeks." + _REST), id="recheck_as_repeat"),
    pytest.param((UNTREATED_68, "treatment_plan_documented",
                  "Scabies. Permethrin 5% cream tonight neck down, wash off after 30 minutes; "
                  "repeat in 7 days." + _REST), id="short_contact", marks=pytest.mark.xfail(
                      strict=True, reason="no check of the 8-14 h leave-on time")),
    pytest.param(("household_and_home_addressed",
                  "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. His wife should see her own "
                  "doctor for an exam. Wash bedding in cold water. No prednisone. Avoid lindane."),
                 id="contacts_topic_only", marks=pytest.mark.xfail(
                     strict=True, reason="contacts and laundry are topics, not decisions")),
    pytest.param(("lindane_avoided",
                  "Scabies. Ivermectin 15 mg PO now, repeat in 7 days. Treat his wife. Wash "
                  "bedding hot. No prednisone. Lindane is not first line but can be used as a "
                  "backup."), id="lindane_backup"),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (FAILED_95, UNTREATED_100), [None, FAILED_95, UNTREATED_68, UNTREATED_100]))


class _Scripted:
    def __init__(self, calls):
        self.plan = calls

    def reset(self, env, obs, info):
        self.plan = list(self.plan)

    def act(self, obs, info):
        if self.plan:
            return self.plan.pop(0)
        return {"tool": "finish", "arguments": {"summary": "done"}}


def _order_check(variant, calls) -> bool:
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        result = run_episode(env, _Scripted(calls), options={
            "variant": "canonical" if variant is None else variant})
    finally:
        env.close()
    return result.checkpoints["scabicide_prescribed"]["passed"]


_PREDNISONE = {"tool": "fhir_medication_request_create", "arguments": {
    "patient": "{patient}", "medication_code": "312615", "dose_value": 40, "dose_unit": "mg",
    "route": "oral", "frequency": 1, "period_unit": "day", "duration_days": 5, "quantity": 10,
    "quantity_unit": "tablet", "refills": 0, "sig": "Take 2 tablets daily for 5 days."}}


@pytest.mark.parametrize("replace, extra, passes", [
    ({}, None, True),
    ({"dose_value": 12, "quantity": 8}, None, False),          # 176 ug/kg at 68 kg
    ({"dose_value": 18, "quantity": 12}, None, False),         # 265 ug/kg
    ({"medication_code": "106387", "dose_value": 1, "dose_unit": "application",
      "route": "topical", "quantity": 60, "quantity_unit": "g"}, None, False),  # 3rd permethrin
    ({}, _PREDNISONE, False),                                   # a prednisone burst beside it
    ({"dose_value": 5, "dose_unit": "tablet"}, None, True),     # 5 x 3 mg tablets = 15 mg
    ({"dose_value": 6, "dose_unit": "tablet"}, None, False),    # 18 mg, 265 ug/kg
])
def test_the_scabicide_order(replace, extra, passes):
    calls = oracle_calls(TASK, None, replace)
    if extra:
        patient = next(c for c in calls if c["tool"] == "fhir_medication_request_create")
        order = {"tool": extra["tool"], "arguments": dict(extra["arguments"])}
        order["arguments"]["patient"] = patient["arguments"]["patient"]
        calls.append(order)
    assert _order_check(None, calls) is passes
