"""oral_contraceptive_switch: the scenario draw (migraine with aura, rifampin, BP >= 160/100), the
methods each allows, and the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

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
    assert order[1]["not_ordered"]["text_contains"] == ["estradiol", "estrogen"]


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
    (RIF, "She is on rifampin for latent TB. Stop the COC. Recommend a copper IUD (Paragard); "
          "condoms until it is inserted. She may resume her combined pill 28 days after the last "
          "rifampin dose."),
    (HTN, "BP 166/104 on amlodipine: hypertension >= 160/100 is MEC 4 for estrogen. Stop the "
          "combined pill. Start norethindrone 0.35 mg daily. Do not use DMPA at this BP."),
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
    # no new method
    (None, "new_method_documented",
     "Migraine with aura. Stop the combined pill. Condoms for now; we can discuss options later."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (RIF, HTN), [None, MIG, RIF, HTN]))
