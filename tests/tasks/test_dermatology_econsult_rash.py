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
LIMITED = 0  # one forearm, under 2% of the skin: clobetasol cream, no systemic steroid
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


_AVOID = (
    " No cephalexin - the weeping is part of the dermatitis, not infection. Stop the "
    "Benadryl cream (topical diphenhydramine sensitizes); avoid benzocaine and Neosporin."
)

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
    (
        LIMITED,
        "Poison ivy dermatitis limited to the left forearm. Clobetasol 0.05% cream twice "
        "daily for up to 2 weeks. No Medrol Dosepak or oral prednisone needed." + _AVOID,
    ),
    (
        LIMITED,
        "Poison ivy dermatitis, left forearm only. Clobetasol 0.05% cream BID up to 2 weeks. "
        "No oral steroids needed - topical steroid is enough." + _AVOID,
    ),
    (
        LIMITED,
        "Poison ivy on the left forearm only. A super-potent topical steroid (clobetasol "
        "0.05% ointment) twice a day for 2 weeks. Skip the Medrol Dosepak." + _AVOID,
    ),
    # review 4: one step per line; review 2: the Curtis & Lewis 40 mg start at 109 kg
    "Extensive poison ivy dermatitis. No Medrol Dosepak.\nPrednisone: 60 mg x 7 days\nthen 40 mg "
    "x 7 days\nthen 20 mg x 7 days\n" + _AVOID,
    (
        16,
        "Extensive poison ivy dermatitis. Prednisone 40 mg daily x 5 days, then 30 mg x 2 "
        "days, 20 x "
        "2, 10 x 2, 5 mg x 4 days (15 days). No Medrol Dosepak." + _AVOID,
    ),
    # review 10: oral diphenhydramine at night; review 11: an antibiotic kept for infection
    "Extensive poison ivy dermatitis. Prednisone 60 mg daily, tapered over 3 weeks. No Medrol "
    "Dosepak. No cephalexin. Stop the Benadryl cream (topical diphenhydramine sensitizes); oral "
    "diphenhydramine 25 mg at bedtime is fine for sleep.",
    "Extensive poison ivy dermatitis. Prednisone 60 mg daily, tapered over 3 weeks. No Medrol "
    "Dosepak. No antibiotic now; if honey-colored crusts or pus develop, start cephalexin. "
    "Stop the "
    "Benadryl cream; avoid benzocaine.",
    # review 5: other class 1-2 topical steroids
    (
        LIMITED,
        "Poison ivy dermatitis of the left forearm. Fluocinonide 0.05% cream twice daily for 2 "
        "weeks. No Medrol Dosepak or oral steroid." + _AVOID,
    ),
    (
        LIMITED,
        "Poison ivy dermatitis of the left forearm. Augmented betamethasone dipropionate 0.05% "
        "ointment twice daily for 2 weeks, not on the face. No Medrol Dosepak." + _AVOID,
    ),
    # a taper table and a strike-through checklist
    "Toxicodendron dermatitis, extensive.\n\n| Days | Prednisone PO once each morning "
    "|\n|---|---|\n"
    "| 1-7 | 60 mg |\n| 8-14 | 40 mg |\n| 15-21 | 20 mg |\n\n- [ ] ~~Medrol Dosepak~~ - too "
    "short.\n"
    "- [ ] ~~Cephalexin~~ - not infected.\n- [x] Stop the Benadryl cream.",
]

WRONG = [
    (
        "steroid_plan_documented",
        "Poison ivy dermatitis, extensive incl face. Prednisone 60 mg "
        "daily for 5 days. No Medrol Dosepak." + _AVOID,
    ),
    (
        "steroid_plan_documented",
        "Poison ivy dermatitis, extensive incl face. Prednisone 20 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID,
    ),
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis. Prednisone 1 mg/kg = 80 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID,
    ),
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis. Prednisone 60 mg daily tapered "
        "over 6 weeks. No Medrol Dosepak." + _AVOID,
    ),
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis. Could consider prednisone 60 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID,
    ),
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis.\n- Prednisone 60 mg x 3 days, "
        "then 40 mg x 2 days, then 20 mg x 2 days.\n- No Medrol Dosepak." + _AVOID,
    ),
    (
        "dose_pack_avoided",
        "Poison ivy dermatitis, extensive incl face. Prednisone 60 mg daily "
        "tapered over 3 weeks; a Medrol Dosepak is a reasonable alternative if he prefers."
        + _AVOID,
    ),
    (
        "antibiotic_and_sensitizers_avoided",
        "Poison ivy dermatitis, extensive incl face. Prednisone "
        "60 mg daily tapered over 3 weeks. No Medrol Dosepak. Add cephalexin 500 mg four "
        "times daily "
        "for the weeping areas. Stop the Benadryl cream.",
    ),
    (
        "antibiotic_and_sensitizers_avoided",
        "Poison ivy dermatitis, extensive incl face. Prednisone "
        "60 mg daily tapered over 3 weeks. No Medrol Dosepak. No antibiotics needed. Benadryl "
        "cream "
        "is fine to continue for itch.",
    ),
    (
        "antibiotic_and_sensitizers_avoided",
        "Extensive poison ivy dermatitis. Prednisone 60 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak. No antibiotics. Stop the Benadryl cream; "
        "apply Neosporin to the broken blisters.",
    ),
    (
        "diagnosis_assessed",
        "Impetigo of the forearms and face. Prednisone 60 mg daily tapered "
        "over 3 weeks. No Medrol Dosepak." + _AVOID,
    ),
    (
        LIMITED,
        "steroid_plan_documented",
        "Poison ivy dermatitis of the left forearm. Clobetasol "
        "0.05% cream twice daily for 2 weeks, plus prednisone 40 mg daily tapered over 2 weeks. No "
        "Medrol Dosepak." + _AVOID,
    ),
    (
        LIMITED,
        "dose_pack_avoided",
        "Poison ivy on the left forearm. Clobetasol 0.05% cream twice "
        "daily for 2 weeks; a Medrol Dosepak if it spreads." + _AVOID,
    ),
    (
        "antibiotic_and_sensitizers_avoided",
        "Extensive poison ivy dermatitis. Prednisone 60 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak. No antibiotics. Stop the Benadryl cream; "
        "Neosporin to the broken blisters.",
    ),
    (
        "antibiotic_and_sensitizers_avoided",
        "Extensive poison ivy dermatitis. Prednisone 60 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak. No cephalexin. Stop the Benadryl cream.\n"
        "- For itch: benzocaine 20% spray to the forearms 3-4 times daily.",
    ),
    # review 12: a topical antibiotic
    (
        "antibiotic_and_sensitizers_avoided",
        "Extensive poison ivy dermatitis. Prednisone 60 mg "
        "daily tapered over 3 weeks. No Medrol Dosepak. No oral antibiotics; apply mupirocin to "
        "weeping spots. Stop the Benadryl cream.",
    ),
    # review 1: a flat course with no taper
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis. Prednisone 60 mg daily for 21 "
        "days, then stop. No Medrol Dosepak." + _AVOID,
    ),
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis. Prednisone 60 mg daily x 3 weeks. "
        "No Medrol Dosepak." + _AVOID,
    ),
    # review 8: a super-potent steroid on the eyelids or face
    (
        "steroid_plan_documented",
        "Extensive poison ivy dermatitis. Prednisone 60 mg daily tapered "
        "over 3 weeks plus clobetasol to the eyelids. No Medrol Dosepak." + _AVOID,
    ),
    (
        LIMITED,
        "steroid_plan_documented",
        "Poison ivy dermatitis of the left forearm. Clobetasol "
        "0.05% cream twice daily for 2 weeks, including to the face. No Medrol Dosepak." + _AVOID,
    ),
    # review 6: clobetasol beyond 2 weeks; review 7: an IM steroid for limited disease
    (
        LIMITED,
        "steroid_plan_documented",
        "Poison ivy dermatitis of the left forearm. Clobetasol "
        "0.05% cream twice daily for 8 weeks. No Medrol Dosepak." + _AVOID,
    ),
    (
        LIMITED,
        "steroid_plan_documented",
        "Poison ivy dermatitis of the left forearm. Clobetasol "
        "0.05% cream twice daily for 2 weeks, plus Kenalog 40 mg IM today. No Medrol Dosepak."
        + _AVOID,
    ),
    # review 9: contact allergy to the Benadryl cream is the wrong cause
    (
        "diagnosis_assessed",
        "Allergic contact dermatitis from the OTC Benadryl cream, extensive incl "
        "face. Prednisone 60 mg daily tapered over 3 weeks. No Medrol Dosepak." + _AVOID,
    ),
]

# Reader gap (review 3): a weight-based dose is not read as mg for this weight.
MG_PER_KG = (
    "Extensive poison ivy dermatitis. Prednisone 1 mg/kg/day (max 60 mg) tapered over 3 "
    "weeks. No Medrol Dosepak." + _AVOID
)


@pytest.mark.xfail(strict=True, reason="reader gap: '1 mg/kg/day (max 60 mg)' is not read as 60 mg")
def test_a_weight_based_dose_passes():
    from tests.tasks.helpers import grade_note

    assert all(grade_note(TASK, MG_PER_KG).values())


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LIMITED,), [None, LIMITED, EXTENSIVE])
)


class _Scripted:
    """The oracle's plan with its prescription changed (or a second one added)."""

    def __init__(self, change=None, extra=None):
        self.change, self.extra = change or {}, extra

    def reset(self, env, obs, info):
        self.plan = copy.deepcopy(list(env.unwrapped.oracle_actions()))
        at, order = next(
            (i, a) for i, a in enumerate(self.plan) if a["tool"] == "fhir_medication_request_create"
        )
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
        return (
            self.plan.pop(0) if self.plan else {"tool": "finish", "arguments": {"summary": "done"}}
        )


def _ordered(variant, scripted) -> bool:
    env = gym.make(f"PhysicianBench/{TASK}-v0")
    try:
        result = run_episode(env, scripted, options={"variant": variant})
    finally:
        env.close()
    return result.checkpoints["steroid_ordered"]["passed"]


@pytest.mark.parametrize(
    "change, extra, passes",
    [
        ({"dose_value": 40}, None, True),  # 0.5 mg/kg
        ({"duration_days": 14}, None, True),
        ({"duration_days": 6}, None, False),  # a dose-pack length
        (
            {"duration_days": 28, "sig": "Prednisone 60 mg daily for 28 days"},
            None,
            False,
        ),  # no taper
        (
            {},
            {
                "medication_code": "1049909",
                "dose_value": 25,
                "route": "oral",
                "duration_days": 14,
                "sig": "diphenhydramine 25 mg at bedtime for itch",
                "quantity": 14,
                "quantity_unit": "capsule",
            },
            True,
        ),  # oral antihistamine
        ({"duration_days": None}, None, False),  # no course length
        ({"dose_value": 80}, None, False),  # above 60 mg
        ({"dose_value": 20}, None, False),  # below 0.5 mg/kg
        ({"frequency": 2, "dose_value": 30}, None, False),  # split twice daily
        ({"as_needed": True}, None, False),
        ({"duration_days": 7}, {"dose_value": 40, "duration_days": 7}, True),  # two steps, 14 d
        ({"duration_days": 3}, {"dose_value": 20, "duration_days": 3}, False),  # two steps, 6 d
        (
            {},
            {
                "medication_code": "309114",
                "dose_value": 500,
                "frequency": 4,
                "duration_days": 7,
                "sig": "cephalexin",
                "quantity": 28,
            },
            False,
        ),  # antibiotic
    ],
)
def test_the_extensive_order(change, extra, passes):
    assert _ordered("canonical", _Scripted(change, extra)) is passes


@pytest.mark.parametrize(
    "change, extra, passes",
    [
        ({}, None, True),
        ({"frequency": 1}, None, True),
        ({"frequency": 4}, None, False),
        ({"medication_code": "861448"}, None, True),  # clobetasol ointment
        ({"duration_days": 56, "quantity": 120}, None, False),  # beyond 2 weeks
        (
            {},
            {
                "medication_code": "312615",
                "dose_value": 40,
                "dose_unit": "mg",
                "route": "oral",
                "frequency": 1,
                "duration_days": 14,
                "sig": "prednisone taper",
                "quantity": 20,
                "quantity_unit": "tablet",
            },
            False,
        ),  # systemic steroid
    ],
)
def test_the_limited_order(change, extra, passes):
    assert _ordered(LIMITED, _Scripted(change, extra)) is passes
