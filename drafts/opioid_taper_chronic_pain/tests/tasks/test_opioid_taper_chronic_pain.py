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
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_variants, test_the_oracle_succeeds_on_each_variant = (
    branch_probes(TASK, (0, 1, 2), [None, 0, 1]))
