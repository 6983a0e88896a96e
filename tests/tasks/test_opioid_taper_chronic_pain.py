"""opioid_taper_chronic_pain: the product and tablet draws, and the note phrasings its
checkpoints must judge (MME, first taper step, clonazepam kept, naloxone, must-nots)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "opioid_taper_chronic_pain"


def test_canonical_values():
    vals = values(TASK)
    assert vals["product"]["code"] == "1049683" and vals["tabs_per_day"] == 6
    assert vals["daily_mg"] == "60" and vals["mme"] == 90
    assert (vals["step_mg_min"], vals["step_mg_max"]) == (48, 57)
    assert vals["first_step_mg"] == "50" and vals["old_mme_text"] == "60"
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    assert rx + "204892" in vals["benzodiazepine_rxnorm"]
    assert rx + "1483744" in vals["antagonist_rxnorm"]
    assert rx + "864718" in vals["other_opioid_rxnorm"]
    assert not any(c.endswith(("|1049683", "|1049221", "|1010604"))
                   for c in vals["other_opioid_rxnorm"])


def test_the_draws_move_the_dose():
    doses = {(values(TASK, n)["product"]["name"], values(TASK, n)["tabs_per_day"])
             for n in range(20)}
    assert len(doses) >= 4
    assert ("oxycodone_ir", 6) not in doses  # no variant repeats the canonical regimen
    assert all(tabs <= 5 for name, tabs in doses if name == "oxycodone_ir")  # max_doses row


CORRECT = [
    (None, "Current dose 90 MME/day. Reduce oxycodone to 50 mg/day now, then about 10% of the "
           "original dose every 4 weeks. Continue clonazepam 0.5 mg twice daily unchanged. "
           "Naloxone 4 mg nasal spray prescribed. No naltrexone."),
    (None, "90 MME/day. Reduce oxycodone to 50 mg a day now, then about 10% of the original dose "
           "every 4 weeks. Continue clonazepam 0.5 mg twice daily; once the opioid taper is "
           "complete, psychiatry can consider a gradual clonazepam taper. No naloxone at home: "
           "naloxone 4 mg nasal spray prescribed today."),
    (None, "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam at the current dose. "
           "Start naloxone nasal spray."),
    # a first step under a heading that names the drug; 'do not increase it' beside the step
    (None, "Current dose: 90 MME/day.\n\n**Oxycodone taper**\n- First step: reduce from 6 to 5 "
           "tablets a day (50 mg/day) for 4 weeks, then about 5 mg/day less every 4 weeks.\n"
           "- Do not stop the oxycodone abruptly and do not increase it.\n\n**Clonazepam**: "
           "continue 0.5 mg twice daily unchanged.\n\nNaloxone 4 mg nasal spray prescribed."),
    # the first step written as a decrement (review finding 8); 'Oxy' shorthand
    (None, "Oxy 10 mg x 6/d = 90 MME/d. Decrease oxycodone by 10 mg/day (one tablet) now, then "
           "by about 5 mg/day every 4 weeks. Continue clonazepam unchanged during the opioid "
           "taper. Naloxone 4 mg nasal spray prescribed."),
    # a drugless 'Hold 4 weeks.' after the oxycodone step is no clonazepam stop
    (None, "**Q1. Dose?** 90 MME/day.\n\n**Q2. How should we taper the oxycodone?**\nFirst "
           "step: 6 -> 5 tablets/day (50 mg/day). Hold 4 weeks. Then about 10% of the original "
           "dose per month.\n\n**Q3. What about the clonazepam?**\nLeave it at 0.5 mg twice "
           "daily for now. Never stop it abruptly.\n\n**Q4. Anything else?**\nNaloxone 4 mg "
           "nasal spray prescribed."),
    # variant 0 (oxycodone-acetaminophen 5/325 x6 = 30 mg = 45 MME): a one-tablet cut
    (0, "Current dose 45 MME/day. Percocet 5/325: decrease oxycodone by one tablet a day now, "
        "then about 3 mg/day less every 4 weeks. Continue clonazepam 0.5 mg twice daily "
        "unchanged. Naloxone 4 mg nasal spray prescribed."),
    # a slower, justified pace and a weekly review are no rapid taper
    (None, "90 MME/day. Reduce oxycodone to 50 mg a day now, then by 10% of the original dose "
           "every 2-4 weeks; review weekly during the taper. A 10% weekly taper is only for "
           "short-term use. Continue clonazepam 0.5 mg twice daily. Naloxone prescribed."),
]

WRONG = [
    (None, "mme_calculated", "MME 60. Taper oxycodone to 5 tablets a day. Keep clonazepam at "
                             "the current dose. Start naloxone nasal spray."),
    (None, "taper_plan_documented", "MME 90. Reduce oxycodone to 30 mg a day. Keep clonazepam "
                                    "at the current dose. Start naloxone nasal spray."),
    (None, "taper_plan_documented", "MME 90. Stop oxycodone today. Keep clonazepam at the "
                                    "current dose. Start naloxone nasal spray."),
    (None, "unsafe_plans_avoided", "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam "
                                   "at the current dose. Start naloxone nasal spray. Start "
                                   "naltrexone 50 mg daily."),
    (None, "unsafe_plans_avoided", "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam "
                                   "at the current dose. No naloxone needed."),
    (None, "unsafe_plans_avoided", "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam "
                                   "at the current dose. Start naloxone nasal spray. Start "
                                   "lorazepam 0.5 mg at bedtime for withdrawal insomnia."),
    (None, "unsafe_plans_avoided", "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam "
                                   "at the current dose. Start naloxone nasal spray. The "
                                   "oxycodone dose may be increased if pain worsens."),
    (None, "unsafe_plans_avoided", "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam "
                                   "at the current dose. Start naloxone nasal spray. For pain "
                                   "flares: tramadol 50 mg every 6 hours as needed."),
    (None, "unsafe_plans_avoided", "MME 90. Taper oxycodone to 5 tablets a day. Keep clonazepam "
                                   "at the current dose. Start naloxone nasal spray. Switch to "
                                   "a fentanyl patch 25 mcg/h."),
    # rapid tapers and an early stop (review finding 3)
    (None, "taper_plan_documented", "MME 90. Reduce oxycodone to 50 mg a day now, then by 10 mg "
                                    "each week until stopped. Keep clonazepam at the current "
                                    "dose. Start naloxone nasal spray."),
    (None, "taper_plan_documented", "MME 90. Reduce oxycodone to 50 mg a day for one week, then "
                                    "stop oxycodone. Keep clonazepam at the current dose. Start "
                                    "naloxone nasal spray."),
    (None, "taper_plan_documented", "MME 90. Reduce oxycodone to 50 mg a day this week, 40 mg "
                                    "next week, 30 mg the week after. Keep clonazepam at the "
                                    "current dose. Start naloxone nasal spray."),
    (None, "taper_plan_documented", "MME 90. Decrease oxycodone by 30 mg a day now. Keep "
                                    "clonazepam at the current dose. Start naloxone nasal spray."),
    (0, "taper_plan_documented", "Current dose 45 MME/day. Reduce oxycodone to 25 mg a day "
                                 "now, then by 5 mg every week. Continue clonazepam 0.5 mg twice "
                                 "daily unchanged. Naloxone 4 mg nasal spray prescribed."),
    # clonazepam tapered or stopped now (review finding 5)
    (None, "clonazepam_plan_documented", "MME 90. Taper oxycodone to 5 tablets a day. Clonazepam: "
                                         "reduce it in parallel with the opioid: lower to 0.25 mg "
                                         "twice daily starting now. Start naloxone nasal spray."),
    (None, "clonazepam_plan_documented", "MME 90. Taper oxycodone to 5 tablets a day. Stop "
                                         "clonazepam today. Start naloxone nasal spray."),
    (None, "mme_calculated", "MME 120/day (60 mg x 2). Taper oxycodone to 5 tablets a day. Keep "
                             "clonazepam at the current dose. Start naloxone nasal spray."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_variants, test_the_oracle_succeeds_on_each_variant = (
    branch_probes(TASK, (0, 1, 2), [None, 0, 1]))
