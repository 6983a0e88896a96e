"""progestin_contraceptive_pcos: the cavity draw (normal -> 52 mg LNG-IUD; submucosal fibroid
distorting the cavity -> DMPA, no IUD), estrogen ruled out by the prior DVT on every branch, and the
note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values

TASK = "progestin_contraceptive_pcos"
NORMAL = 9      # a seeded variant with a normal cavity
FIBROID = 0     # a submucosal fibroid distorting the cavity


def test_canonical_values():
    vals = values(TASK)
    assert vals["cavity"] == {"kind": "normal_cavity"}
    assert vals["forbidden_methods"] == ["combined_hormonal_contraceptive"]
    order = vals["order_grader"]["all"]["of"]
    assert order[0]["ordered"]["codes"] == ["http://www.ama-assn.org/go/cpt|58300"]
    assert order[1]["not_ordered"]["text_contains"][:2] == ["Kyleena", "Skyla"]
    assert order[2]["not_ordered"]["text_contains"] == ["estradiol", "estrogen"]


def test_branches_draw_their_cavity():
    assert values(TASK, NORMAL)["cavity"]["kind"] == "normal_cavity"
    fib = values(TASK, FIBROID)
    assert fib["cavity"]["kind"] == "distorted_cavity"
    assert fib["forbidden_methods"] == ["combined_hormonal_contraceptive", "iud"]
    starts = [s["note_decision"] for s in fib["method_grader"]["all"]["of"][0]["any"]["of"]]
    assert [s["dose"]["value"] for s in starts] == [150, 104]
    assert all(s["concept"] == ["medroxyprogesterone"] for s in starts)
    never_iud = fib["method_grader"]["all"]["of"][2]["note_never"]
    assert never_iud["contingency_on"] == ["hysteroscopic_myomectomy"]
    kinds = [values(TASK, n)["cavity"]["kind"] for n in range(20)]
    assert kinds.count("normal_cavity") <= 4 and "distorted_cavity" in kinds


DVT = "Prior DVT, so no estrogen. "
NEED = "She needs progestin for endometrial protection. "
IUD = "Plan: insert a 52 mg levonorgestrel IUD (ordered). "
NO_IUD = "History of DVT, no estrogen. " + NEED

CORRECT = [
    # the DVT named in everyday words (review finding 2)
    (None, "She had a DVT 3 years ago, so estrogen is contraindicated. " + NEED + IUD),
    (None, "Because of her DVT in 2023, estrogen-containing methods are contraindicated. "
     + NEED + IUD),
    (None, "Left popliteal DVT on the combined pill 3 years ago: estrogen-containing methods are "
           "MEC 4. " + NEED + IUD),
    (None, "Previous venous thrombosis - no estrogen. " + NEED + IUD),
    (None, "VTE 3 y ago -> estrogen contraindicated. " + NEED + IUD),
    (None, "She had a deep vein thrombosis in 2023 while on the pill. Estrogen-containing "
           "contraception is contraindicated. " + NEED + IUD),
    # the endometrial reason in other words (finding 6)
    (None, DVT + "She needs a progestin to prevent endometrial hyperplasia. " + IUD),
    (None, DVT + "Progestin gives protection against endometrial hyperplasia and cancer. " + IUD),
    (None, DVT + "Chronic anovulation: she needs a progestin to prevent endometrial cancer. "
     + IUD),
    (None, DVT + "Goals: contraception and endometrial hyperplasia prevention. " + IUD),
    (None, DVT + "Anovulatory cycles leave estrogen unopposed, so she needs a progestin. " + IUD),
    # DMPA-SC 104 mg on the fibroid branch, and the IUD after a myomectomy (findings 4, 7)
    (FIBROID, NO_IUD + "The submucosal fibroid distorts the cavity, so no IUD. Start DMPA-SC "
              "104 mg subcutaneously every 13 weeks."),
    (FIBROID, NO_IUD + "Start DMPA 150 mg IM now and every 3 months. Refer for hysteroscopic "
              "myomectomy; after the fibroid is removed, a 52 mg LNG-IUD is the long-term option."),
    (None, "Prior provoked DVT -> no estrogen (MEC 3). Anovulatory PCOS: needs endometrial "
           "protection. Plan: Mirena (52 mg LNG-IUD) insertion ordered. Stop norethindrone "
           "acetate after insertion."),
    (None, "Because of her history of DVT I would not use any estrogen-containing method. Her "
           "infrequent cycles mean unopposed estrogen and a risk of endometrial hyperplasia. I "
           "recommend a levonorgestrel IUD, which I have ordered."),
    (None, "| Issue | Plan |\n|---|---|\n| Prior DVT | no combined hormonal contraception |\n"
           "| Endometrial protection | LNG-IUD 52 mg - insert |"),
    (None, """Dear Dr. Patel,
Thank you for asking about Ms. Achterberg-Solis. Her combined pill was stopped 3 years ago after a
provoked DVT and should not be restarted: estrogen-containing methods are MEC category 3 after a
DVT. Her endometrial biopsy last year showed no endometrial hyperplasia, but with only 3 bleeds a
year she remains exposed to unopposed estrogen. I have ordered insertion of a 52 mg levonorgestrel
IUD (Liletta), which will protect her endometrium and give reliable contraception. She can stop the
norethindrone acetate once it is placed.
Kind regards"""),
    (None, "S: PCOS, 3 bleeds/yr on norethindrone acetate courses; hx DVT 3 y ago.\n"
           "A: needs contraception + endometrial protection; estrogen contraindicated "
           "(prior VTE).\n"
           "P: LNG-IUS 52 mg (Mirena) - insertion ordered. D/c norethindrone acetate after "
           "insertion."),
    (FIBROID, "History of DVT: estrogen contraindicated. She needs endometrial protection. The "
              "submucosal fibroid distorts the cavity, so no IUD. Start DMPA 150 mg IM today and "
              "every 13 weeks."),
    (FIBROID, "Prior DVT: no estrogen-containing contraception. She needs endometrial protection. "
              "Start Depo-Provera 150 mg IM now, every 13 weeks. No IUD while the submucosal "
              "fibroid distorts the cavity; an LNG-IUD can be reconsidered after hysteroscopic "
              "myomectomy."),
    (FIBROID, "Prior VTE - avoid combined pills. Unopposed estrogen from anovulation -> "
              "endometrial hyperplasia risk. Depo-Provera 150 mg IM q13 weeks, first dose today. "
              "Avoid an IUD (cavity-distorting fibroid, MEC 4)."),
]

WRONG = [
    # a bare 'provoked' names no thrombosis (finding 3)
    (None, "estrogen_ruled_out",
     "PCOS with irregular bleeds provoked only by norethindrone acetate. No estrogen. "
     + NEED + IUD),
    # metformin is not endometrial protection (dev corpus w05)
    (None, "endometrial_need_stated",
     DVT + "She is on metformin, which restores ovulation and is enough to protect her "
     "endometrium; the progestin is only for contraception. " + IUD),
    # an IUD placed now despite the fibroid, under a trigger that is not its removal (finding 4)
    (FIBROID, "method_documented", NO_IUD + "Start DMPA 150 mg IM q13 weeks. If the submucosal "
     "fibroid is small, an LNG-IUD can still be placed now."),
    (FIBROID, "method_documented", NO_IUD + "Start DMPA 150 mg IM q13 weeks. If the distorted "
     "cavity allows, place a Mirena at the same visit."),
    (FIBROID, "method_documented", NO_IUD + "Start DMPA 150 mg IM q13 weeks. If the fibroid is "
     "under 3 cm, place a Mirena instead."),
    (FIBROID, "method_documented", NO_IUD + "Start DMPA 150 mg IM q13 weeks. Insert a Mirena "
     "today."),
    # the low-dose LNG-IUDs give no established endometrial protection (finding 5)
    (None, "method_documented", DVT + NEED + "Plan: insert a Skyla (13.5 mg levonorgestrel IUD)."),
    (None, "method_documented", DVT + NEED + "Plan: insert Kyleena (levonorgestrel 19.5 mg IUD)."),
    (None, "method_documented", DVT + NEED + "### Recommendation\nLevonorgestrel 19.5 mg IUD "
     "(Kyleena), insertion ordered."),
    # a copper IUD offered beside it gives no endometrial protection (finding 12)
    (None, "method_documented", DVT + NEED + IUD + "A copper IUD is an alternative if she "
     "prefers no hormones."),
    # offers the combined pill back
    (None, "estrogen_ruled_out",
     "History of DVT. Endometrial protection needed. Place a levonorgestrel IUD; restarting the "
     "combined pill is also reasonable if she prefers."),
    # never names the DVT
    (None, "estrogen_ruled_out",
     "PCOS: needs endometrial protection. No combined pill. Place a levonorgestrel IUD."),
    # no endometrial reasoning
    (None, "endometrial_need_stated",
     "History of DVT, so no estrogen. Place a levonorgestrel IUD for contraception."),
    # copper IUD instead of LNG-IUD
    (None, "method_documented",
     "History of DVT, so no estrogen. Needs endometrial protection. Insert a copper IUD."),
    # fibroid branch: IUD offered despite the distorted cavity
    (FIBROID, "method_documented",
     "History of DVT, no estrogen. Endometrial protection needed. Start DMPA 150 mg IM today; "
     "an LNG-IUD is an alternative."),
    # fibroid branch: wrong DMPA dose
    (FIBROID, "method_documented",
     "History of DVT, no estrogen. Endometrial protection needed. Start DMPA 300 mg IM today."),
    # fibroid branch: DMPA on the wrong schedule
    (FIBROID, "method_documented",
     "History of DVT, no estrogen. Endometrial protection needed. No IUD (distorted cavity). "
     "Start DMPA 150 mg IM today, repeat every 6 months."),
    # hedged plan
    (None, "method_documented",
     "History of DVT, no estrogen. Endometrial protection needed. Could consider an LNG-IUD at "
     "some point."),
    # estrogen allowed under a wish
    (None, "estrogen_ruled_out",
     "History of DVT. Endometrial protection needed. Place a levonorgestrel IUD; if she prefers "
     "a pill, a combined oral contraceptive is fine."),
    # fibroid branch: combined pill
    (FIBROID, "estrogen_ruled_out",
     "History of DVT. Endometrial protection needed. Start DMPA 150 mg IM; the combined pill "
     "could be an option later."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (FIBROID,), [None, NORMAL, FIBROID]))


# Reader gaps found in review (reported; strict xfail so a fix shows up here).
@pytest.mark.xfail(strict=True, reason="reader gap: a conditional 'she can restart <drug>' is not "
                                       "read as allowing it under note_never (review finding 8)")
def test_a_conditional_restart_of_the_combined_pill_fails():
    note = ("History of DVT. " + NEED + IUD + "If she is clot-free for a year, she can restart a "
            "low-dose combined pill.")
    assert not grade_note(TASK, note)["estrogen_ruled_out"]


@pytest.mark.xfail(strict=True, reason="reader gap: a heading-like 'X: ... is not an option.' "
                                       "line keeps the next 'Plan:' line from counting "
                                       "(review finding 9)")
def test_a_colon_joined_refusal_before_the_plan_passes():
    note = ("History of DVT: restarting the combined pill is not an option. " + NEED + IUD)
    assert all(grade_note(TASK, note).values())
