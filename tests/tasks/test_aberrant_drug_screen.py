"""aberrant_drug_screen: the scenario draw (oxymorphone metabolite, non-prescribed hydromorphone,
non-prescribed fentanyl), the must-not code lists, and the note phrasings its checkpoints judge."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "aberrant_drug_screen"
FENTANYL = 0        # fentanyl and norfentanyl detected
OXYMORPHONE = 3     # oxymorphone only, as in the canonical instance
HYDROMORPHONE = 8   # hydromorphone without hydrocodone or morphine
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "oxymorphone"}
    assert vals["unexpected"] is False
    assert vals["daily_oxycodone_mg"] == 40 and vals["mme"] == 60
    assert vals["naltrexone_codes"] == [RX + "1483744", RX + "637213"]
    assert RX + "864718" in vals["other_opioid_codes"]
    assert RX + "1049683" in vals["oxycodone_codes"]
    assert RX + "1049683" not in vals["other_opioid_codes"]
    assert {RX + "197591", RX + "204892"} <= set(vals["benzodiazepine_codes"])
    assert {RX + "351264", RX + "1010600"} <= set(vals["buprenorphine_codes"])
    assert not set(vals["buprenorphine_codes"]) & set(vals["other_opioid_codes"])


def test_branches_draw_their_scenarios():
    assert values(TASK, FENTANYL)["scenario"]["kind"] == "fentanyl"
    assert values(TASK, OXYMORPHONE)["scenario"]["kind"] == "oxymorphone"
    assert values(TASK, HYDROMORPHONE)["scenario"]["kind"] == "hydromorphone"
    assert values(TASK, HYDROMORPHONE)["unexpected"] is True
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("oxymorphone") <= 4


CORRECT = [
    (None, "Oxymorphone is an expected metabolite of oxycodone; the LC-MS/MS result is consistent "
           "with his prescription. Continue oxycodone 10 mg four times a day. Prescribe naloxone "
           "4 mg nasal spray."),
    (None, """Assessment: consistent result. Oxycodone is metabolized to oxymorphone (CYP2D6) and
noroxycodone; no other opioid detected.
Plan:
- Continue oxycodone at the current dose.
- Naloxone nasal spray prescribed.
- No naltrexone, no benzodiazepines."""),
    (FENTANYL, "Fentanyl and norfentanyl on LC-MS/MS indicate non-prescribed fentanyl. Assess for "
               "opioid use disorder; if present, offer buprenorphine. Do not stop oxycodone "
               "abruptly. Naloxone prescribed."),
    (HYDROMORPHONE, "Hydromorphone is not a metabolite of oxycodone and no hydrocodone or morphine "
                    "was found, so this is non-prescribed hydromorphone. Evaluate for OUD with "
                    "DSM-5 criteria. Start naloxone 4 mg nasal spray."),
    (None, "Oxycodone is partly metabolized by CYP2D6 to oxymorphone and by CYP3A4 to "
           "noroxycodone, so these findings are expected. The LC-MS/MS is consistent with his "
           "prescription. Continue oxycodone 10 mg four times a day. Naloxone 4 mg nasal spray "
           "prescribed."),
    (None, "Oxymorphone (412 ng/mL) is produced from oxycodone by O-demethylation; this is not "
           "evidence of Opana use. Continue oxycodone unchanged. Naloxone prescribed."),
    (None, "There is no evidence of non-prescribed opioid use; oxymorphone is an expected "
           "metabolite of oxycodone. Continue oxycodone 10 mg every 6 hours as needed, max "
           "4/day. Naloxone prescribed."),
    (HYDROMORPHONE, "This represents use of an opioid not prescribed to him. Assess for opioid "
                    "use disorder. Naloxone prescribed."),
    (HYDROMORPHONE, "Hydromorphone detected: unexpected, not prescribed, and not a metabolite of "
                    "oxycodone. Assess for opioid use disorder. Naloxone prescribed."),
    (FENTANYL, "Fentanyl with norfentanyl means illicit fentanyl use, not explained by his "
               "oxycodone. Evaluate for OUD using DSM-5 criteria; if he has OUD, start "
               "buprenorphine. Do not stop oxycodone abruptly or discharge him. Naloxone 4 mg "
               "nasal spray prescribed."),
]

WRONG = [
    (None, "result_interpreted",
     "Oxymorphone can be a metabolite of oxycodone, but at this level it is non-prescribed "
     "oxymorphone (Opana). Continue oxycodone. Prescribe naloxone."),
    (None, "oxycodone_plan_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Stop the oxycodone. Prescribe naloxone."),
    (None, "must_nots_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Continue oxycodone and add naltrexone "
     "50 mg daily. Prescribe naloxone."),
    (None, "naloxone_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Continue oxycodone. Naloxone is not "
     "needed."),
    (FENTANYL, "result_interpreted",
     "No fentanyl use; fentanyl is a metabolite of oxycodone. Assess for opioid use disorder. "
     "Naloxone prescribed."),
    (FENTANYL, "oxycodone_plan_documented",
     "Non-prescribed fentanyl use. He does not have opioid use disorder. Naloxone prescribed."),
    (FENTANYL, "oxycodone_plan_documented",
     "Fentanyl and norfentanyl indicate non-prescribed fentanyl use. Assess for opioid use "
     "disorder. Stop the oxycodone today and discharge him from the practice for violating his "
     "agreement. Naloxone 4 mg nasal spray prescribed."),
    (FENTANYL, "oxycodone_plan_documented",
     "Fentanyl and norfentanyl indicate non-prescribed fentanyl use. Taper oxycodone off over "
     "one week. Assess for opioid use disorder. Naloxone prescribed."),
    (FENTANYL, "result_interpreted",
     "Fentanyl positive on LC-MS/MS; probably a lab error or contamination. Repeat the test. "
     "Assess for opioid use disorder. Naloxone prescribed."),
    (FENTANYL, "must_nots_documented",
     "Non-prescribed fentanyl. Start buprenorphine-naloxone 8/2 mg daily today. Assess for "
     "opioid use disorder. Naloxone prescribed."),
    (HYDROMORPHONE, "result_interpreted",
     "Hydromorphone is a metabolite of oxycodone, but given the aberrant result assess for "
     "opioid use disorder. Naloxone prescribed."),
    (HYDROMORPHONE, "result_interpreted",
     "Positive for hydromorphone, explained by his oxycodone; consistent with his prescribed "
     "oxycodone. Continue oxycodone. Assess for opioid use disorder anyway. Naloxone prescribed."),
    (HYDROMORPHONE, "result_interpreted",
     "Hydromorphone use; likely left over from the hydromorphone he received in the ED. "
     "Continue oxycodone unchanged. Assess for opioid use disorder. Naloxone prescribed."),
    (None, "result_interpreted",
     "Hydromorphone is a metabolite of oxycodone, so this is consistent with his prescribed "
     "oxycodone. Continue oxycodone 10 mg four times a day. Naloxone prescribed."),
    (None, "oxycodone_plan_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Reduce oxycodone to 10 mg three times "
     "daily. Naloxone prescribed."),
    (None, "oxycodone_plan_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Hold oxycodone refills until a repeat "
     "observed urine test. Naloxone prescribed."),
    (None, "oxycodone_plan_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Continue oxycodone 10 mg three times a "
     "day. Naloxone prescribed."),
    (None, "must_nots_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Continue oxycodone. Add tramadol 50 mg "
     "every 6 hours as needed for breakthrough pain. Naloxone prescribed."),
    (None, "must_nots_documented",
     "Oxymorphone is an expected metabolite of oxycodone. Continue oxycodone. Start "
     "buprenorphine-naloxone 8/2 mg daily today. Naloxone prescribed."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (FENTANYL, HYDROMORPHONE), [None, FENTANYL, HYDROMORPHONE]))
