"""post_cdiff_diarrhea: the scenario and PPI draws, and the note phrasings its checkpoints must
judge on each branch (first recurrence, second recurrence, post-infectious IBS; PPI stop or
keep)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    oracle_note,
    values,
)

TASK = "post_cdiff_diarrhea"
FR_BARRETT = 1      # first recurrence, omeprazole for Barrett's esophagus
SR_NO_IND = 0       # second recurrence, omeprazole without an indication
SR_BARRETT = 9      # second recurrence, Barrett's
IBS_NO_IND = 2      # post-infectious IBS, omeprazole without an indication
IBS_BARRETT = 10    # post-infectious IBS, Barrett's


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "first_recurrence"}
    assert vals["ppi"] == {"name": "no_indication"}
    assert vals["ppi_action"] == ["stop"]
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    # each option: one drug ordered, the other not ordered with it
    assert [[g.get("ordered", g.get("not_ordered"))["codes"] for g in o["all"]["of"]]
            for o in vals["order_options"]] == [
        [[rx + "1111106"], [rx + "313570"]], [[rx + "313570"], [rx + "1111106"]]]
    for option in vals["note_options"]:
        drug = option["all"]["of"][0]["note_decision"]
        assert drug["route"] == ["oral"]
    first = vals["note_options"][0]["all"]["of"][0]["note_decision"]
    assert first["every"] == {"min": 2, "max": 2}
    assert {"http://loinc.org|34713-8", "http://loinc.org|34468-9",
            "http://loinc.org|82197-5"} <= set(vals["c_diff_test_codes"])
    assert "difficile PCR" in vals["c_diff_test_text"]


def test_branches_draw_their_scenarios():
    assert values(TASK, FR_BARRETT)["scenario"]["kind"] == "first_recurrence"
    assert values(TASK, FR_BARRETT)["ppi_action"] == ["continue"]
    assert values(TASK, SR_NO_IND)["scenario"]["kind"] == "second_recurrence"
    assert values(TASK, IBS_NO_IND)["scenario"]["kind"] == "pi_ibs"
    assert values(TASK, IBS_NO_IND)["order_options"] == []
    kinds = {(values(TASK, n)["scenario"]["kind"], values(TASK, n)["ppi"]["name"])
             for n in range(20)}
    assert len(kinds) == 6


CORRECT = [
    (None, "First recurrence of CDI. Start PO vanc 125 mg QID x 10 days then taper-pulse. No test "
           "of cure. Stop omeprazole."),
    (None, "Recurrent C. difficile infection (recurrence within 8 weeks of the first episode). "
           "Start fidaxomicin 200 mg twice daily for 10 days. No test of cure. Stop omeprazole."),
    (None, "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. If "
           "fidaxomicin is unavailable, use an oral vancomycin 125 mg taper-pulse instead. No test "
           "of cure. Stop omeprazole."),
    (SR_NO_IND, "Second recurrence of CDI. Vancomycin 125 mg PO four times daily for 14 days, then "
                "taper-pulse. I have referred her to our FMT program after the taper. No test of "
                "cure. Stop omeprazole."),
    (IBS_NO_IND, "Post-infectious IBS with colonization. No antibiotics. Order fecal calprotectin "
                 "and celiac serology. No repeat C. diff testing. If she develops recurrent CDI, "
                 "refer for FMT. Stop omeprazole."),
    (None, """Assessment: first recurrence of C. difficile infection, non-severe.
Plan:
- Fidaxomicin 200 mg PO BID x 10 days
- No test of cure.
- Stop omeprazole (no indication; started as ICU stress ulcer prophylaxis)."""),
    (None,
     ("This is her first recurrence of CDI, 5 weeks after vancomycin; toxin positive, so not "
      "post-infectious IBS. I started fidaxomicin 200 mg twice daily for 10 days. We do not "
      "repeat stool testing after treatment. Metronidazole should not be used for a recurrence. "
      "Please discontinue omeprazole, which has no ongoing indication.")),
    (None, """| Item | Plan |
|---|---|
| Diagnosis | first recurrence of C. difficile |
| Treatment | vancomycin 125 mg four times daily x 14 days, then taper-pulse |
| Omeprazole | stop |
No test of cure."""),
    (FR_BARRETT, """Impression: 1st recurrence of CDI.
Recommendations:
1. Fidaxomicin 200 mg twice daily for 10 days.
2. Continue omeprazole 20 mg daily for Barrett's esophagus.
3. No test of cure."""),
    (SR_NO_IND,
     ("Assessment: second recurrence (third episode) of C. difficile infection.\n"
      "Plan:\n"
      "1. Vancomycin 125 mg PO four times daily for 14 days, then 125 mg twice daily for 7 days, "
      "then daily for 7 days, then every 3 days for 4 weeks.\n"
      "2. Refer for fecal microbiota transplantation after the vancomycin taper.\n"
      "3. No test of cure.\n"
      "4. Stop omeprazole.")),
    (SR_BARRETT,
     ("Multiply recurrent CDI (second recurrence). Start fidaxomicin 200 mg twice daily for 10 "
      "days, then refer for FMT (or Vowst) once the course is done. Avoid metronidazole. "
      "Do not repeat C. difficile testing after treatment. Continue omeprazole given Barrett's "
      "esophagus.")),
    (IBS_NO_IND,
     ("Assessment: post-infectious IBS; the PCR-positive, toxin-negative stool is C. difficile "
      "colonization, not recurrent CDI.\n"
      "Plan:\n"
      "1. No antibiotics for C. difficile.\n"
      "2. Order fecal calprotectin and tTG-IgA with total IgA.\n"
      "3. Do not repeat C. diff testing unless she has 3 or more unformed stools a day.\n"
      "4. Stop omeprazole.")),
    (None,
     ("First recurrence of C. difficile infection.\n"
      "Plan: fidaxomicin 200 mg twice daily x10 days. Re-test the stool only if diarrhea recurs "
      "after treatment; no test of cure.\n"
      "Bezlotoxumab: no longer available (withdrawn 2025).\n"
      "Stop omeprazole.")),
    (IBS_NO_IND,
     ("Post-infectious IBS with C. difficile colonization. No vancomycin now; if she develops "
      "3 or more unformed stools a day with a positive toxin, treat with fidaxomicin. Order "
      "fecal calprotectin and celiac serology. Stop omeprazole.")),
    (IBS_BARRETT,
     ("Her symptoms fit post-infectious IBS-D. She does not need vancomycin. I ordered a fecal "
      "calprotectin and celiac serology. No repeat stool testing for C. difficile. Continue her "
      "omeprazole for Barrett's esophagus.")),
]

WRONG = [
    # intravenous vancomycin does not treat CDI
    (None, "treatment_documented",
     "First recurrence of CDI. Start IV vancomycin 125 mg every 6 hours. No test of cure. Stop "
     "omeprazole."),
    (None, "treatment_documented",
     "First recurrence of CDI. Start vancomycin 125 mg IV every 6 hours. No test of cure. Stop "
     "omeprazole."),
    # two anti-C. difficile antibiotics at once
    (None, "treatment_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days and vancomycin "
     "125 mg four times daily for 10 days. No test of cure. Stop omeprazole."),
    (SR_NO_IND, "treatment_documented",
     "Second recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days and vancomycin "
     "125 mg four times daily for 10 days. Refer for FMT after the course. No test of cure."),
    # IBS: bezlotoxumab or FMT for colonization
    (IBS_NO_IND, "treatment_documented",
     "Post-infectious IBS, colonization. No antibiotics. Give bezlotoxumab to prevent recurrence. "
     "Order fecal calprotectin and celiac serology. No repeat C. diff testing. Stop omeprazole."),
    (IBS_NO_IND, "treatment_documented",
     "Post-infectious IBS, colonization. No antibiotics. Refer for FMT to clear the colonization. "
     "Order fecal calprotectin and celiac serology. No repeat C. diff testing. Stop omeprazole."),
    # fidaxomicin once daily
    (None, "treatment_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg once daily for 10 days. No test of cure. "
     "Stop omeprazole."),
    # a new primary episode, not a recurrence
    (None, "episode_classified",
     "New primary CDI episode, not a recurrence. Not PI-IBS. Start fidaxomicin 200 mg twice daily "
     "for 10 days. No test of cure. Stop omeprazole."),
    # canonical: metronidazole instead
    (None, "treatment_documented",
     "First recurrence of CDI. Start metronidazole 500 mg three times daily for 10 days. "
     "No test of cure. Stop omeprazole."),
    # canonical: test of cure planned
    (None, "treatment_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. Repeat a stool "
     "C. difficile test after treatment to confirm clearance. Stop omeprazole."),
    # canonical: bezlotoxumab offered
    (None, "treatment_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days plus "
     "bezlotoxumab 10 mg/kg IV once. No test of cure. Stop omeprazole."),
    # canonical: hedged treatment
    (None, "treatment_documented",
     "First recurrence of CDI. Could consider fidaxomicin if symptoms persist. No test of cure. "
     "Stop omeprazole."),
    # canonical: wrong episode count
    (None, "episode_classified",
     "Second recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. No test of "
     "cure. Stop omeprazole."),
    # canonical: called IBS
    (None, "episode_classified",
     "Post-infectious IBS. Start fidaxomicin 200 mg twice daily for 10 days. No test of cure. "
     "Stop omeprazole."),
    # canonical: PPI kept without an indication
    (None, "ppi_plan_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. No test of "
     "cure. Continue omeprazole."),
    # Barrett's: PPI stopped
    (FR_BARRETT, "ppi_plan_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. No test of "
     "cure. Stop omeprazole."),
    # second recurrence: no FMT
    (SR_NO_IND, "treatment_documented",
     "Second recurrence of CDI. Vancomycin 125 mg four times daily for 14 days then taper-pulse. "
     "No test of cure. Stop omeprazole."),
    # second recurrence: called a first recurrence
    (SR_NO_IND, "episode_classified",
     "First recurrence of CDI. Vancomycin 125 mg four times daily then taper; refer for FMT. "
     "No test of cure. Stop omeprazole."),
    # IBS: treats the positive PCR
    (IBS_NO_IND, "treatment_documented",
     "Post-infectious IBS. Start vancomycin 125 mg four times daily for 10 days. Order fecal "
     "calprotectin and celiac serology. Stop omeprazole."),
    # IBS: called recurrent CDI
    (IBS_NO_IND, "episode_classified",
     "Recurrent C. difficile infection. Order fecal calprotectin and celiac serology. Stop "
     "omeprazole."),
    # canonical: hedged test of cure and hedged metronidazole
    (None, "treatment_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. Consider a "
     "test of cure after the course. Stop omeprazole."),
    (None, "treatment_documented",
     "First recurrence of CDI. Start fidaxomicin 200 mg twice daily for 10 days. Metronidazole "
     "500 mg three times daily is an alternative. No test of cure. Stop omeprazole."),
    # IBS: test of cure / repeat testing planned
    (IBS_NO_IND, "treatment_documented",
     "Post-infectious IBS. No antibiotics. Order fecal calprotectin and celiac serology. Repeat "
     "C. diff PCR in 2 weeks. Stop omeprazole."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


def test_the_ibs_chart_stays_below_the_testing_threshold():
    from physbench_gym.tasks.registry import spec_paths  # noqa: PLC0415
    text = spec_paths()[TASK].read_text(encoding="utf-8")
    assert "1-2 soft stools a day" in text and "2-3 soft stools" not in text


def test_the_oracle_taper_order_matches_its_sig():
    import yaml  # noqa: PLC0415

    from physbench_gym.tasks.registry import spec_paths  # noqa: PLC0415
    spec = yaml.safe_load(spec_paths()[TASK].read_text(encoding="utf-8"))
    calls = [c for c in spec["oracle"]["calls"] if "switch" in c]
    order = calls[0]["cases"]["second_recurrence"][0]["arguments"]
    # 14 d x4 + 7 d x2 + 7 d x1 + every 2-3 days for 4 weeks (10-14) = 87-91 capsules
    assert order["quantity"] == 91 and order["duration_days"] == 56


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (FR_BARRETT, SR_NO_IND, IBS_NO_IND), [None, SR_BARRETT, IBS_BARRETT]))


@pytest.mark.parametrize(("variant", "checkpoint", "note", "passed"), [
    (None, "treatment_documented", "Fidaxomicin 200 mg twice daily for 10 days, or metronidazole "
     "500 mg three times daily for 10 days.", False),
    (None, "treatment_documented", "Treat with fidaxomicin 200 mg twice daily for 10 days or "
     "metronidazole 500 mg three times daily if cost is an issue.", False),
    (2, "treatment_documented", "Empiric metronidazole 500 mg three times daily for 10 days to be "
     "safe.", False),
    (0, "episode_classified", "This is her third episode of C. difficile infection. Her first "
     "recurrence was 7 weeks ago and was treated with fidaxomicin.", True),
    (0, "episode_classified", "Third episode: the first episode in February was treated with "
     "vancomycin and her first recurrence in April with fidaxomicin.", True),
])
def test_review_reader_probes(variant, checkpoint, note, passed):
    verdicts = grade_note(TASK, oracle_note(TASK, variant) + "\n\n" + note + "\n", variant)
    assert verdicts[checkpoint] is passed


@pytest.mark.parametrize(("variant", "plan"), [
    (0, "2. Complete the vancomycin course, followed by FMT.\n"),
    (0, "2. After the course, fecal microbiota spores live-brpk (Vowst) 4 capsules daily for 3 "
        "days.\n"),
    (0, "2. After the taper she should have fecal microbiota transplantation.\n"),
    (0, "2. She is a candidate for FMT after the course.\n"),
    (9, "1. Extended-pulsed fidaxomicin 200 mg BID days 1-5 then every other day days 7-25, "
        "followed by FMT.\n"),
])
def test_review_sequenced_plans_pass(variant, plan):
    note = oracle_note(TASK, variant)
    item = "2. Refer for fecal" if plan.startswith("2.") else "1. Start"
    start, end = note.index(item), note.index("3. Metronidazole")
    new = plan if plan.startswith("2.") else note[start:end].replace(
        note[start:note.index("2. Refer")], plan)
    verdicts = grade_note(TASK, note[:start] + new + note[end:], variant)
    assert verdicts["treatment_documented"] is True
