"""dermatology_econsult_rash: poison ivy allergic contact dermatitis - a 2-3 week prednisone taper
when extensive or facial, clobetasol cream when limited; no dose pack, antibiotic or topical
sensitizer; and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import copy

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401  (registers the environments)
from physbench_gym.agents.base import run_episode
from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "dermatology_econsult_rash"
LIMITED = 0    # one forearm, under 2% of the skin: clobetasol cream, no systemic steroid
EXTENSIVE = 4  # like the canonical case, another weight


def test_canonical_values():
    vals = values(TASK)
    assert vals["extent"]["name"] == "extensive" and vals["weight_kg"] == 84
    assert (vals["pred_low"], vals["pred_high"]) == (40, 60)
    assert vals["weight_prev"] == 86


def test_branches_move_the_treatment():
    assert values(TASK, LIMITED)["extent"]["name"] == "limited"
    assert values(TASK, EXTENSIVE)["extent"]["name"] == "extensive"
    names = [values(TASK, n)["extent"]["name"] for n in range(20)]
    assert 1 <= names.count("extensive") <= 4
    lows = {values(TASK, n)["pred_low"] for n in range(20)}
    assert min(lows) >= 30 and max(lows) <= 55


_AVOID = (" No cephalexin - the weeping is part of the dermatitis, not infection. Stop the "
          "Benadryl cream (topical diphenhydramine sensitizes); avoid benzocaine and Neosporin.")

CORRECT = [
    "Poison ivy ACD, extensive incl face/eyelids, ~25% BSA. Prednisone 60 mg PO daily x 7 d, then "
    "taper over 2 more weeks (21 days total). No Medrol Dosepak - too short, rebounds." + _AVOID,
    "Dear Dr. Smith, this is acute allergic contact dermatitis from poison ivy involving his face "
    "and eyelids. I recommend prednisone 50 mg once daily, tapered over 3 weeks. I would not use a "
    "Medrol dose pack; six days is too short and he flared after one last year. He does not need "
    "antibiotics: the weeping is from the blisters. Please have him stop the Benadryl cream and "
    "avoid benzocaine or triple antibiotic ointment.",
    "| Item | Plan |\n|---|---|\n| Dx | Toxicodendron dermatitis, extensive |\n"
    "| Prednisone | 60 mg daily x 7 d, then 40/20/10 mg x 5/5/4 d (21 d) |\n"
    "| Medrol Dosepak | Avoid |\n| Antibiotics | Not indicated |\n| Benadryl cream | Stop |\n",
    "Extensive poison ivy dermatitis with eyelid edema.\nPlan:\n- Prednisone 60 mg daily x 7 "
    "days, then 40 mg x 5 days, 20 mg x 5 days, 10 mg x 4 days.\n- Avoid the Medrol Dosepak."
    + _AVOID,
    "Extensive poison ivy dermatitis. Start prednisone 40 mg daily, taper over 2 weeks. Medrol "
    "dose pack: no - too short." + _AVOID,
    "Severe rhus dermatitis of face and arms. Prednisone 60 mg daily for 7 days, then taper off "
    "over the next 14 days. Please don't use a dose pack." + _AVOID,
    (LIMITED, "Poison ivy dermatitis limited to the left forearm. Clobetasol 0.05% cream twice "
              "daily for up to 2 weeks. No Medrol Dosepak or oral prednisone needed." + _AVOID),
    (LIMITED, "Poison ivy dermatitis, left forearm only. Clobetasol 0.05% cream BID up to 2 weeks. "
              "No oral steroids needed - topical steroid is enough." + _AVOID),
    (LIMITED, "Poison ivy on the left forearm only. A super-potent topical steroid (clobetasol "
              "0.05% ointment) twice a day for 2 weeks. Skip the Medrol Dosepak." + _AVOID),
]

WRONG = [
    ("steroid_plan_documented", "Poison ivy dermatitis, extensive incl face. Prednisone 60 mg "
     "daily for 5 days. No Medrol Dosepak." + _AVOID),
    ("steroid_plan_documented", "Poison ivy dermatitis, extensive incl face. Prednisone 20 mg "
     "daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID),
    ("steroid_plan_documented", "Extensive poison ivy dermatitis. Prednisone 1 mg/kg = 80 mg "
     "daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID),
    ("steroid_plan_documented", "Extensive poison ivy dermatitis. Prednisone 60 mg daily tapered "
     "over 6 weeks. No Medrol Dosepak." + _AVOID),
    ("steroid_plan_documented", "Extensive poison ivy dermatitis. Could consider prednisone 60 mg "
     "daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID),
    ("steroid_plan_documented", "Extensive poison ivy dermatitis.\n- Prednisone 60 mg x 3 days, "
     "then 40 mg x 2 days, then 20 mg x 2 days.\n- No Medrol Dosepak." + _AVOID),
    ("dose_pack_avoided", "Poison ivy dermatitis, extensive incl face. Prednisone 60 mg daily "
     "tapered over 3 weeks; a Medrol Dosepak is a reasonable alternative if he prefers." + _AVOID),
    ("antibiotic_and_sensitizers_avoided", "Poison ivy dermatitis, extensive incl face. Prednisone "
     "60 mg daily tapered over 3 weeks. No Medrol Dosepak. Add cephalexin 500 mg four times daily "
     "for the weeping areas. Stop the Benadryl cream."),
    ("antibiotic_and_sensitizers_avoided", "Poison ivy dermatitis, extensive incl face. Prednisone "
     "60 mg daily tapered over 3 weeks. No Medrol Dosepak. No antibiotics needed. Benadryl cream "
     "is fine to continue for itch."),
    ("antibiotic_and_sensitizers_avoided", "Extensive poison ivy dermatitis. Prednisone 60 mg "
     "daily tapered over 3 weeks. No Medrol Dosepak. No antibiotics. Stop the Benadryl cream; "
     "apply Neosporin to the broken blisters."),
    ("diagnosis_assessed", "Impetigo of the forearms and face. Prednisone 60 mg daily tapered "
     "over 3 weeks. No Medrol Dosepak." + _AVOID),
    (LIMITED, "steroid_plan_documented", "Poison ivy dermatitis of the left forearm. Clobetasol "
     "0.05% cream twice daily for 2 weeks, plus prednisone 40 mg daily tapered over 2 weeks. No "
     "Medrol Dosepak." + _AVOID),
    (LIMITED, "dose_pack_avoided", "Poison ivy on the left forearm. Clobetasol 0.05% cream twice "
     "daily for 2 weeks; a Medrol Dosepak if it spreads." + _AVOID),
    # Reader gap: a verbless sensitizer line is not read as a plan.
    pytest.param(("antibiotic_and_sensitizers_avoided", "Extensive poison ivy dermatitis. "
                  "Prednisone 60 mg daily tapered over 3 weeks. No Medrol Dosepak. No "
                  "antibiotics. Stop the Benadryl cream; Neosporin to the broken blisters."),
                 id="verbless_neosporin", marks=pytest.mark.xfail(
                     strict=True, reason="a verbless 'Neosporin to the blisters' is no plan")),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LIMITED,), [None, LIMITED, EXTENSIVE]))


class _Scripted:
    """The oracle's plan with its prescription changed (or a second one added)."""

    def __init__(self, change=None, extra=None):
        self.change, self.extra = change or {}, extra

    def reset(self, env, obs, info):
        self.plan = copy.deepcopy(list(env.unwrapped.oracle_actions()))
        at, order = next((i, a) for i, a in enumerate(self.plan)
                         if a["tool"] == "fhir_medication_request_create")
        order["arguments"].update(self.change)
        for key in [k for k, v in order["arguments"].items() if v is None]:
            del order["arguments"][key]
        if self.extra:
            extra = copy.deepcopy(order)
            extra["arguments"].update(self.extra)
            for key in [k for k, v in extra["arguments"].items() if v is None]:
                del extra["arguments"][key]
            self.plan.insert(at + 1, extra)

    def act(self, obs, info):
        return self.plan.pop(0) if self.plan else {"tool": "finish", "arguments": {"summary": "done"}}


def _ordered(variant, scripted) -> bool:
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        result = run_episode(env, scripted, options={"variant": variant})
    finally:
        env.close()
    return result.checkpoints["steroid_ordered"]["passed"]


@pytest.mark.parametrize("change, extra, passes", [
    ({"dose_value": 40}, None, True),                                    # 0.5 mg/kg
    ({"duration_days": 14}, None, True),
    ({"duration_days": 6}, None, False),                                 # a dose-pack length
    ({"duration_days": None}, None, False),                              # no course length
    ({"dose_value": 80}, None, False),                                   # above 60 mg
    ({"dose_value": 20}, None, False),                                   # below 0.5 mg/kg
    ({"frequency": 2, "dose_value": 30}, None, False),                   # split twice daily
    ({"as_needed": True}, None, False),
    ({"duration_days": 7}, {"dose_value": 40, "duration_days": 7}, True),  # two steps, 14 d
    ({"duration_days": 3}, {"dose_value": 20, "duration_days": 3}, False),  # two steps, 6 d
    ({}, {"medication_code": "309114", "dose_value": 500, "frequency": 4,
                            "duration_days": 7, "sig": "cephalexin", "quantity": 28}, False),  # antibiotic
])
def test_the_extensive_order(change, extra, passes):
    assert _ordered("canonical", _Scripted(change, extra)) is passes


@pytest.mark.parametrize("change, extra, passes", [
    ({}, None, True),
    ({"frequency": 1}, None, True),
    ({"frequency": 4}, None, False),
    ({}, {"medication_code": "312615", "dose_value": 40, "dose_unit": "mg", "route": "oral",
          "frequency": 1, "duration_days": 14, "sig": "prednisone taper", "quantity": 20,
          "quantity_unit": "tablet"}, False),                            # systemic steroid
])
def test_the_limited_order(change, extra, passes):
    assert _ordered(LIMITED, _Scripted(change, extra)) is passes
