"""oral_contraceptive_switch: the scenario draw (migraine with aura, rifampin, BP >= 160/100), the
methods each allows, and the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, oracle_calls, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "oral_contraceptive_switch"
MIG = 2     # migraine with aura (a seeded variant)
RIF = 5     # rifampin for latent TB
HTN = 0     # blood pressure >= 160/100


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "migraine_aura"}
    assert vals["allowed_methods"] == ["progestin_only_method", "iud"]
    assert vals["reason_concepts"] == ["migraine_with_aura"]
    order = vals["order_grader"]["all"]["of"]
    assert "estrogen" not in order[1]["not_ordered"]["text_contains"]  # 'estrogen-free' is fine


def test_branches_draw_their_scenarios():
    assert values(TASK, MIG)["scenario"]["kind"] == "migraine_aura"
    rif = values(TASK, RIF)
    assert rif["scenario"]["kind"] == "rifampin"
    assert "progestin_only_pill" in rif["forbidden_methods"]
    htn = values(TASK, HTN)
    assert htn["scenario"]["kind"] == "severe_htn"
    assert htn["forbidden_methods"] == ["medroxyprogesterone"]
    assert htn["sbp"] >= 160 and htn["dbp"] >= 100
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("migraine_aura") <= 4 and {"rifampin", "severe_htn"} <= set(kinds)


CORRECT = [
    (None, "New migraine with aura -> CHC is MEC 4. Stop the COC. Start norethindrone 0.35 mg "
           "daily today. Backup condoms x 48 h."),
    (None, "Her new visual aura makes estrogen-containing contraception unsafe (stroke risk). "
           "Please stop her combined pill. I recommend a levonorgestrel IUD; until it is placed, "
           "start the progestin-only pill now."),
    (None, """Assessment: migraine with aura (U.S. MEC 4 for combined hormonal contraception).
Plan:
- Discontinue levonorgestrel-ethinyl estradiol; no estrogen-containing methods in future.
- Start Depo-Provera 150 mg IM today, repeat every 13 weeks."""),
    (None, "| Item | Plan |\n|---|---|\n| Finding | migraine with aura |\n| Combined pill | stop |"
           "\n| New method | Nexplanon implant, placed next week; start POP today as a bridge |"),
    (RIF, "Rifampin is an enzyme inducer and makes both combined and progestin-only pills "
          "unreliable. Stop the combined pill. Start DMPA 150 mg IM now and every 12 weeks. "
          "Avoid the progestin-only pill while on rifampin."),
    (RIF, "She is on rifampin for latent TB, which makes her pill unreliable. Stop the COC. "
          "Recommend a copper IUD (Paragard); "
          "condoms until it is inserted. She may resume her combined pill 28 days after the last "
          "rifampin dose."),
    (HTN, "BP 166/104 on amlodipine: hypertension >= 160/100 is MEC 4 for estrogen. Stop the "
          "combined pill. Start norethindrone 0.35 mg daily. Do not use DMPA at this BP."),
    # review 5: 'estrogen-free' is not estrogen
    (None, "Migraine with aura: stop the COC. Start an estrogen-free progestin-only pill, "
           "norethindrone 0.35 mg daily, today."),
    (None, "Migraine with aura, MEC 4 for CHC. Stop the combined pill and take the first "
           "norethindrone tablet today, with no pill-free week; condoms for 2 days."),
    # review 4: the interaction told as the reason
    (RIF, "Rifampin interaction. Stop the combined pill. Start DMPA 150 mg IM today, then every "
          "13 weeks. Avoid the progestin-only pill."),
    (RIF, "Rifampin lowers the efficacy of her pill. Stop the combined pill. Start DMPA 150 mg IM "
          "today, then every 13 weeks. Avoid the progestin-only pill."),
    # review 9: a progestin-only pill once rifampin's induction has worn off
    (RIF, "Rifampin induces hepatic enzymes and lowers contraceptive hormone levels. Stop the "
          "combined pill. Start DMPA 150 mg IM now, every 13 weeks. Once rifampin has been "
          "finished for 28 days, she may switch to a progestin-only pill."),
    (HTN, "Blood pressure today is 168/106 on amlodipine. Estrogen is contraindicated (MEC 4). "
          "Stop the COC; start the progestin-only pill (norethindrone 0.35 mg daily) today; "
          "avoid DMPA."),
    (HTN, """Impression: severe hypertension - combined hormonal contraception contraindicated.
Recommendations:
1. Stop her combined oral contraceptive.
2. Start a progestin-only pill (norethindrone 0.35 mg) today; an LNG-IUD is a good alternative.
3. Avoid Depo-Provera."""),
]

WRONG = [
    # keeps the combined pill
    (None, "combined_pill_stopped",
     "Migraine with aura. Continue her combined pill; add norethindrone is not needed. Start "
     "the progestin-only pill only if headaches worsen."),
    # offers the patch instead (still estrogen)
    (None, "combined_pill_stopped",
     "Migraine with aura. Stop the pill and switch to the contraceptive patch (Xulane)."),
    # reason: blames the old migraine without aura
    (None, "reason_identified",
     "Migraine without aura only; stop the combined pill anyway and start norethindrone "
     "0.35 mg daily."),
    # rifampin: progestin-only pill offered
    (RIF, "new_method_documented",
     "Rifampin interaction. Stop the combined pill and start norethindrone 0.35 mg daily."),
    # rifampin: no reason named
    (RIF, "reason_identified",
     "Stop the combined pill. Start DMPA 150 mg IM today, then every 13 weeks."),
    # hypertension: DMPA chosen
    (HTN, "new_method_documented",
     "Hypertension >= 160/100. Stop the combined pill. Start DMPA 150 mg IM today."),
    # hypertension: combined pill continued
    (HTN, "combined_pill_stopped",
     "Hypertension. Continue her combined pill while amlodipine is titrated; add an LNG-IUD."),
    # review 1: the patch or ring offered (named as methods)
    (RIF, "combined_pill_stopped",
     "She is on rifampin, an enzyme inducer. Stop the combined pill. Start DMPA 150 mg IM today; "
     "the patch or the ring are acceptable alternatives."),
    # review 2: the stale ED reading or a controlled BP as the reason
    (HTN, "reason_identified",
     "Hypertension noted (148/94 in the ED 3 years ago). Stop the combined pill. Start "
     "norethindrone 0.35 mg daily. Avoid DMPA."),
    (HTN, "reason_identified",
     "Her hypertension is now controlled on amlodipine, MEC 3 for CHC. Stop the combined pill. "
     "Start norethindrone 0.35 mg daily. Avoid DMPA."),
    # review 3: age as the reason, rifampin only named
    (RIF, "reason_identified",
     "At 38 the combined pill carries too much risk, so stop it. Start DMPA 150 mg IM today, then "
     "every 13 weeks. Her rifampin does not interact with hormonal contraception."),
    (RIF, "reason_identified",
     "At age 38 the combined pill is no longer appropriate; stop it. Start DMPA 150 mg IM today, "
     "then every 13 weeks. Avoid the progestin-only pill. Continue rifampin as planned."),
    # migraine with aura called category 3
    (None, "reason_identified",
     "Migraine with aura is U.S. MEC category 3 for combined hormonal contraception. Stop the "
     "combined pill. Start norethindrone 0.35 mg daily today."),
    # wrong regimens: norethindrone acetate, a pill-free week, DMPA every 6 months, estetrol
    (None, "new_method_documented",
     "Migraine with aura, MEC 4 for CHC. Stop the combined pill. Start norethindrone acetate "
     "5 mg daily."),
    (None, "new_method_documented",
     "Migraine with aura, MEC 4 for CHC. Stop the combined pill. Norethindrone 0.35 mg daily for "
     "21 days, then 7 tablet-free days."),
    (None, "new_method_documented",
     "Migraine with aura, MEC 4 for CHC. Stop the combined pill. Start DMPA 150 mg IM today, "
     "repeat every 6 months."),
    (None, "new_method_documented",
     "Migraine with aura, MEC 4. Stop the combined pill. Start norethindrone 0.35 mg daily. "
     "Alternatively the estetrol/drospirenone pill (Nextstellis) is a reasonable choice."),
    # no new method
    (None, "new_method_documented",
     "Migraine with aura. Stop the combined pill. Condoms for now; we can discuss options later."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (RIF, HTN), [None, MIG, RIF, HTN]))


def _order_verdict(creates: list[dict], variant: int | None = None) -> bool:
    """contraceptive_ordered after the oracle's reads and the given prescriptions."""
    calls = oracle_calls(TASK, variant)
    reads = calls[:next(i for i, c in enumerate(calls)
                        if c["tool"] == "fhir_medication_request_create")]
    orders = [{"tool": "fhir_medication_request_create",
               "arguments": {"patient": "{patient_id}", **arguments}} for arguments in creates]
    return run_actions(TASK, reads + orders, variant)["contraceptive_ordered"]


POP_RX = {"medication_code": "198042", "medication_display": "norethindrone 0.35 mg tablet",
          "route": "oral", "frequency": 1, "period_unit": "day"}
DMPA_RX = {"medication_code": "1000126", "dose_value": 150, "dose_unit": "mg",
           "route": "intramuscular", "frequency": 1, "period": 3, "period_unit": "month"}


@pytest.mark.parametrize("variant,creates", [
    (None, [{**POP_RX, "dose_value": 0.35, "dose_unit": "mg"}]),
    # review 7: one tablet a day
    (None, [{**POP_RX, "dose_value": 1, "dose_unit": "tablet"}]),
    # review 5: 'estrogen-free' in the display is no estrogen order
    (None, [{**POP_RX, "dose_value": 0.35, "dose_unit": "mg",
             "medication_display": "norethindrone 0.35 mg (estrogen-free progestin-only pill)"}]),
    (RIF, [DMPA_RX]),
])
def test_correct_orders_pass(variant, creates):
    assert _order_verdict(creates, variant)


@pytest.mark.parametrize("variant,creates", [
    # review 6: DMPA daily, or the IM product given subcutaneously
    (RIF, [{**DMPA_RX, "frequency": 1, "period": 1, "period_unit": "day"}]),
    (RIF, [{**DMPA_RX, "route": "subcutaneous"}]),
    # the progestin-only pill with rifampin; DMPA at BP >= 160/100
    (RIF, [{**POP_RX, "dose_value": 0.35, "dose_unit": "mg"}]),
    (HTN, [DMPA_RX]),
])
def test_wrong_orders_fail(variant, creates):
    assert not _order_verdict(creates, variant)
