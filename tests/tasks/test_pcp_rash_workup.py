"""pcp_rash_workup: acute herpes zoster - valacyclovir 1 g at the frequency the creatinine
clearance allows (every 8 / 12 / 24 h), no prednisone taper, and the note phrasings its
checkpoints must judge."""

from __future__ import annotations

import copy

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401  (registers the environments)
from physbench_gym.agents.base import run_episode
from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "pcp_rash_workup"
SEVERE = 0   # CrCl about 24 mL/min -> 1 g every 24 h
NORMAL = 2   # CrCl about 79 mL/min -> 1 g every 8 h
MODERATE = 1  # CrCl about 39 mL/min, as the canonical case


def test_canonical_values():
    vals = values(TASK)
    assert vals["kidney"] == "moderate" and vals["per_day"] == 2
    assert vals["crcl"] == 40 and (vals["crcl_low"], vals["crcl_high"]) == (32, 43)
    assert vals["valacyclovir_rxnorm"] == "313564"
    assert vals["egfr"] == 48 and vals["kidney_stage"] == "eGFR 48, CKD G3a"


def test_branches_move_the_dose():
    assert values(TASK, SEVERE)["per_day"] == 1
    assert values(TASK, NORMAL)["per_day"] == 3
    bands = [values(TASK, n)["kidney"] for n in range(20)]
    assert bands.count("moderate") <= 5 and "normal" in bands and "severe" in bands


_NO_STEROID = (" No prednisone - steroids do not prevent postherpetic neuralgia and her last "
               "burst sent her glucose to 388.")

CORRECT = [
    "Acute herpes zoster R T6. CrCl ~40 mL/min (CG). Valacyclovir 1 g PO q12h x 7 days - sent."
    + _NO_STEROID,
    """Assessment: shingles of the right T6 dermatome, rash under 72 hours old.
Kidney function: Cockcroft-Gault creatinine clearance 36 mL/min.

Plan:
1. Valacyclovir 1,000 mg by mouth twice daily for 7 days (renally adjusted).
2. Avoid systemic corticosteroids; I would not add a prednisone taper.
3. Acetaminophen for pain.
""",
    """| Item | Recommendation |
|---|---|
| Diagnosis | Herpes zoster, right T6 |
| CrCl | 40 mL/min |
| Antiviral | Valacyclovir 1 g every 12 hours for 7 days |
| Prednisone | Not recommended |
""",
    (SEVERE, "Herpes zoster, right T6. Estimated CrCl 20 mL/min. Start valacyclovir 1 g once "
             "daily for 7 days." + _NO_STEROID),
    (NORMAL, "Herpes zoster, right T6. CrCl 75 mL/min. Valacyclovir 1 g three times daily for "
             "7 days." + _NO_STEROID),
    # The consultant lowers the PCP's proposed dose; a rejected proposal is no wrong dose.
    "Shingles, right T6. CG CrCl 40 mL/min. Reduce valacyclovir to 1 g every 12 hours for 7 "
    "days." + _NO_STEROID,
    "Acute herpes zoster R T6, CrCl ~40 mL/min. Valacyclovir 1 g PO q12h x 7 d. Not 1 g TID: "
    "that is for CrCl >= 50." + _NO_STEROID,
    "VZV reactivation in the right T6 dermatome. CrCl 0.67 mL/s. Valacyclovir 1 g q12h x 7 "
    "days." + _NO_STEROID,
    """Herpes zoster, right T6. Her CrCl is 40 mL/min.

| CrCl (mL/min) | Valacyclovir |
|---|---|
| >=50 | 1 g q8h |
| 30-49 | 1 g q12h |
| 10-29 | 1 g q24h |

Valacyclovir 1 g PO q12h x 7 days.""" + _NO_STEROID,
    (NORMAL, "Herpes zoster, right T6. CrCl 79 mL/min. Proceed with valacyclovir 1 g three "
             "times daily for 7 days as you planned." + _NO_STEROID),
    # Reader gaps (see the spec's header): each should pass.
    pytest.param((None, "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. "
                        "Q: should we add a prednisone taper? A: No - steroids do not prevent "
                        "PHN."), id="question_restated"),
    pytest.param((None, "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. "
                        "You asked about adding prednisone. I would not: steroids do not "
                        "prevent PHN."), id="you_asked",
                 marks=pytest.mark.xfail(strict=True,
                                         reason="'you asked about X' is read as a plan")),
    pytest.param((None, "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days.\n\n"
                        "2) Prednisone: please don't. It does not prevent PHN."), id="please_dont",
                 marks=pytest.mark.xfail(strict=True, reason="'please don't' under a drug label is "
                                                            "not read as avoid")),
    pytest.param((NORMAL, "Herpes zoster R T6. CrCl 79 mL/min. I agree with your valacyclovir 1 g "
                          "three times daily for 7 days - no adjustment needed." + _NO_STEROID),
                 id="agree_with", marks=pytest.mark.xfail(
                     strict=True, reason="'agree with X' is not read as endorsing X")),
]

WRONG = [
    ("zoster_and_kidney_assessed",
     "Herpes zoster R T6. CrCl 62 mL/min. Valacyclovir 1 g q12h x 7 days." + _NO_STEROID),
    ("antiviral_plan_documented",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g three times daily x 7 days."
     + _NO_STEROID),
    ("antiviral_plan_documented",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 500 mg q12h x 7 days." + _NO_STEROID),
    ("antiviral_plan_documented",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 14 days." + _NO_STEROID),
    ("steroid_avoided",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. Add a prednisone "
     "taper starting at 60 mg daily to reduce postherpetic neuralgia."),
    ("steroid_avoided",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. No routine steroids, "
     "but a short prednisone course is a reasonable option if she prefers."),
    (SEVERE, "antiviral_plan_documented",
     "Herpes zoster R T6. CrCl 20 mL/min. Valacyclovir 1 g q12h x 7 days." + _NO_STEROID),
    ("antiviral_plan_documented",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g every 8 to 12 hours for 7 days."
     + _NO_STEROID),
    ("steroid_avoided",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. No routine steroids; "
     "a prednisone taper is your call if the pain stays severe."),
    # Reader gaps (see the spec's header): each should fail but passes.
    pytest.param(("antiviral_plan_documented",
                  "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. "
                  "Alternatively 1 g TID x 7 days." + _NO_STEROID), id="alternative_tid",
                 marks=pytest.mark.xfail(strict=True, reason="a same-drug alternative with a "
                                                            "wrong schedule does not contradict")),
    ("antiviral_plan_documented",
     "Herpes zoster R T6. CrCl 40 mL/min. Valacyclovir 1 g q12h x 7 days. "
     "Valacyclovir 1 g TID x 7 days." + _NO_STEROID),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (SEVERE, NORMAL), [None, SEVERE, NORMAL]))


class _Scripted:
    """The oracle's plan with the valacyclovir order changed."""

    def __init__(self, **change):
        self.change = change

    def reset(self, env, obs, info):
        self.plan = copy.deepcopy(list(env.unwrapped.oracle_actions()))
        order = next(a for a in self.plan if a["tool"] == "fhir_medication_request_create")
        order["arguments"].update(self.change)
        for key in [k for k, v in order["arguments"].items() if v is None]:
            del order["arguments"][key]

    def act(self, obs, info):
        if self.plan:
            return self.plan.pop(0)
        return {"tool": "finish", "arguments": {"summary": "done"}}


@pytest.mark.parametrize("change, passes", [
    ({"dose_value": 1, "dose_unit": "g"}, True),          # 1 g is 1000 mg
    ({"duration_days": None}, True),                       # 14 tablets, no refills: 7 days
    ({"duration_days": 30, "quantity": 60}, False),        # a month, not 7 days
    ({"duration_days": None, "refills": 3}, False),        # open-ended
    ({"as_needed": True}, False),                          # a PRN antiviral
    ({"frequency": 3, "quantity": 21}, False),             # TID at CrCl 40
])
def test_the_valacyclovir_order(change, passes):
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        result = run_episode(env, _Scripted(**change), options={"variant": "canonical"})
    finally:
        env.close()
    assert result.checkpoints["valacyclovir_prescribed"]["passed"] is passes
