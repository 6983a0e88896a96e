"""adc_pulmonary_toxicity: the grade draw (grade 2 -> permanent discontinuation and prednisone
about 1 mg/kg; grade 1 -> interruption, resume after resolution) and the note phrasings and
orders its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    oracle_calls,
    run_oracle,
    values,
)

TASK = "adc_pulmonary_toxicity"
GRADE1 = 0    # asymptomatic, 90 kg
GRADE2 = 8    # symptomatic, 79 kg (prednisone 71-158 mg)
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["grade"]["level"] == 2 and vals["weight_kg"] == 58
    assert (vals["pred_low"], vals["pred_high"], vals["pred_dose"]) == (52, 116, 60)
    assert vals["tdxd_mg"] == 313
    orders = vals["drug_orders"]["all"]["of"]
    assert orders[0]["not_ordered"]["codes"] == [RX + "2267576", RX + "2267581"]
    assert orders[2]["ordered"]["dose"] == {"min": 52, "max": 116, "unit": "mg"}


def test_the_reference_dose_is_whole_tablets_within_range_and_capped():
    for n in [None, *range(20)]:
        vals = values(TASK, n)
        weight, dose = vals["weight_kg"], vals["pred_dose"]
        assert dose % 20 == 0 and 0.9 * weight <= dose <= 2 * weight, (n, weight, dose)
        assert vals["pred_high"] == min(2 * weight, 200)  # review finding 8
        assert vals["pred_quantity"] == dose // 20 * 14  # 14 days of 20 mg tablets (finding 9)


def test_the_grade_words_come_from_the_thrombocytopenia_lexicon():
    """The ILD grade is read with another task's grade concepts (review finding 12): an edit
    there changes this task, so pin the words the checkpoint relies on."""
    from physbench_gym.grading.lexicon import concepts
    table = concepts()
    for level in (1, 2, 3, 4):
        assert f"grade {level}" in [t.lower() for t in table[f"platelet_grade_{level}"].terms]
    assert values(TASK)["grade_concept"] == ["platelet_grade_2"]


def test_both_grades_are_drawn_and_the_dose_moves():
    levels = [values(TASK, n)["grade"]["level"] for n in range(20)]
    assert 3 <= levels.count(2) <= 8 and levels[GRADE1] == 1 and levels[GRADE2] == 2
    heavy = values(TASK, GRADE2)
    assert heavy["pred_low"] > values(TASK)["pred_dose"]
    light = values(TASK, GRADE1)
    assert light["drug_note"]["note_decision"]["temporary"] is True
    assert "note_contingency" in light["plan_note"]


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (GRADE1, GRADE2), [None, GRADE1, GRADE2]))


def _orders(variant=None, replace=None, extra=()):
    from tests.tasks.helpers_endocrinology import run_actions
    finish = {"tool": "finish", "arguments": {"summary": "Consult complete."}}
    return run_actions(TASK, oracle_calls(TASK, variant, replace) + list(extra) + [finish],
                       variant)


def _rx(code, dose, per_day=1, route="oral"):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose, "dose_unit": "mg",
        "route": route, "frequency": per_day, "period_unit": "day"}}


def test_order_checkpoints():
    assert _orders()["drug_orders"] and _orders()["infection_workup_ordered"]
    # 0.5 mg/kg (the grade 1 dose) and a twice-daily split fail grade 2
    assert not _orders(replace={"dose_value": 30})["drug_orders"]
    assert not _orders(replace={"frequency": 2, "dose_value": 30})["drug_orders"]
    # the 5 mg tablet at the same dose is the same decision
    assert _orders(replace={"medication_code": "312617"})["drug_orders"]
    # must-not: a new trastuzumab deruxtecan order fails, on both grades
    tdxd = _rx("2267576", 313, route="intravenous")
    assert not _orders(extra=[tdxd])["drug_orders"]
    assert not _orders(GRADE1, extra=[tdxd])["drug_orders"]
    # grade 1: no steroid needed; 0.5-2 mg/kg allowed; above 2 mg/kg fails
    assert _orders(GRADE1)["drug_orders"]
    assert _orders(GRADE1, extra=[_rx("312615", 60)])["drug_orders"]
    assert not _orders(GRADE1, extra=[_rx("312615", 200)])["drug_orders"]


G2 = ("Pulm e-consult. New bilateral lower-lobe GGOs on restaging CT = T-DXd-induced ILD/"
      "pneumonitis, grade 2 (symptomatic, limits IADLs, SpO2 94% RA, no O2). Infection not yet "
      "excluded. Plan: permanently discontinue T-DXd - no rechallenge. Start prednisone 60 mg "
      "PO daily now for at least 14 days, then taper over at least 4 weeks. SARS-CoV-2 PCR, "
      "sputum culture and blood cultures sent; do not wait for them to start steroids.")
G2_PRED = ("Start prednisone 60 mg PO daily now for at least 14 days, then taper over at least "
           "4 weeks.")
G2_STOP = "permanently discontinue T-DXd - no rechallenge."

CORRECT = [
    G2,
    G2.replace("T-DXd-induced ILD/pneumonitis", "drug-induced pneumonitis from Enhertu"),
    G2.replace(G2_PRED, "Prednisone 1 mg/kg = 60 mg once daily x 14 days minimum, then a slow "
                        "taper over 4-6 weeks."),
    G2.replace(G2_PRED, "Begin prednisolone 60 mg daily today (~1 mg/kg), 2 weeks, then "
                        "wean over >=4 weeks."),
    G2.replace(G2_STOP, "stop trastuzumab deruxtecan for good; she should not be "
                        "rechallenged."),
    G2.replace("grade 2 (symptomatic", "CTCAE grade 2 (symptomatic"),
    # the label's own dose form is the same order at 58 kg (review finding 7)
    G2.replace(G2_PRED, "Start prednisone 1 mg/kg/day PO now for at least 14 days, then taper "
                        "over at least 4 weeks."),
    # permanent stops in other words (review finding 6)
    G2.replace(G2_STOP, "No further T-DXd, ever (grade 2 = permanent discontinuation per label)."),
    G2.replace(G2_STOP, "do not rechallenge T-DXd."),
    # 'until the ILD has resolved' is the trigger of the hold, not a denial of the ILD
    (GRADE1, "Asymptomatic grade 1 T-DXd pneumonitis, SpO2 97%. Hold trastuzumab deruxtecan "
             "until the ILD has resolved. Once they clear, resume trastuzumab deruxtecan: same "
             "dose if within 28 days of onset."),
    (GRADE1, "New peripheral lower-lobe ground-glass opacities: asymptomatic (grade 1) "
             "T-DXd-related pneumonitis, SpO2 97%. Hold trastuzumab deruxtecan until the "
             "opacities clear. Once they clear, resume trastuzumab deruxtecan: same dose if "
             "within 28 days of onset, one dose level lower if later. No steroids for now. "
             "COVID PCR, sputum and blood cultures ordered."),
    (GRADE1, "Grade 1 ILD from T-DXd (no symptoms, SpO2 97%). Hold T-DXd for now. If the repeat "
             "CT shows resolution, restart T-DXd. SARS-CoV-2 PCR and cultures sent."),
]

WRONG = {
    "grade_1_for_grade_2": ("ild_graded", G2.replace("grade 2 (symptomatic", "grade 1 (mild")),
    "grade_3_for_grade_2": ("ild_graded", G2.replace("grade 2 (symptomatic", "grade 3 (severe")),
    "grade_left_open": ("ild_graded", G2.replace("grade 2 (symptomatic", "grade 2-3 (symptomatic")),
    "radiation_not_drug": ("diagnosis_documented", G2.replace(
        "= T-DXd-induced ILD/pneumonitis", "are not drug-induced ILD; they are radiation "
        "fibrosis. Toxicity")),
    # the wrong cause of the opacities (review finding 1)
    "radiation_recall": ("diagnosis_documented", G2.replace(
        "= T-DXd-induced ILD/pneumonitis", "= radiation recall pneumonitis in the old field")),
    "viral_pneumonitis": ("diagnosis_documented", G2.replace(
        "on restaging CT = T-DXd-induced ILD/pneumonitis", "on T-DXd most likely represent "
        "viral pneumonitis (atypical infection)")),
    "covid_pneumonitis": ("diagnosis_documented", G2.replace(
        "on restaging CT = T-DXd-induced ILD/pneumonitis", "on T-DXd = COVID pneumonitis")),
    "radiation_in_grade_1": (GRADE1, "diagnosis_documented",
                             "New GGOs, grade 1: radiation pneumonitis, not drug related. Hold "
                             "trastuzumab deruxtecan until the opacities clear."),
    # a steroid burst instead of >= 14 days (review finding 2)
    "steroid_burst_5_days": ("management_plan_documented", G2.replace(
        G2_PRED, "Start prednisone 60 mg PO daily now for 5 days, then stop.")),
    "steroid_3_days": ("management_plan_documented", G2.replace(
        G2_PRED, "Prednisone 60 mg daily x 3 days.")),
    # a start put off until the viral test is back (review finding 3)
    "steroid_after_pcr": ("management_plan_documented", G2.replace(
        G2_PRED, "Start prednisone 60 mg PO daily once the SARS-CoV-2 PCR and cultures are "
                 "negative, for at least 14 days, then taper over 4 weeks.")),
    "steroid_half_mg_per_kg": ("management_plan_documented", G2.replace(
        G2_PRED, "Start prednisone 0.5 mg/kg/day PO now for at least 14 days, then taper.")),
    "hold_and_resume_in_grade_2": ("tdxd_decision_documented", G2.replace(
        G2_STOP, "hold T-DXd and resume it at 4.4 mg/kg once the opacities clear.")),
    "continue_tdxd": ("tdxd_decision_documented", G2.replace(
        G2_STOP, "continue T-DXd at the current dose with close monitoring.")),
    "rechallenge_offered": ("tdxd_decision_documented", G2.replace(
        G2_STOP, "permanently discontinue T-DXd. Alternatively, T-DXd could be rechallenged "
                 "at a reduced dose after recovery.")),
    "conditional_rechallenge": ("tdxd_decision_documented", G2.replace(
        G2_STOP, "stop T-DXd; if she recovers fully, T-DXd could be resumed at 4.4 mg/kg.")),
    "continue_in_grade_1": (GRADE1, "tdxd_decision_documented",
                            "Grade 1 T-DXd pneumonitis, asymptomatic. Continue trastuzumab "
                            "deruxtecan on schedule with a repeat CT in 6 weeks."),
    "resume_now_in_grade_1": (GRADE1, "management_plan_documented",
                              "Grade 1 T-DXd pneumonitis, asymptomatic. Hold trastuzumab "
                              "deruxtecan for now. Resume trastuzumab deruxtecan next week at "
                              "the same dose regardless of the CT."),
    "steroid_hedged": ("management_plan_documented", G2.replace(
        G2_PRED, "Prednisone 60 mg daily could be considered, or simply observe.")),
    "prednisone_too_low": ("management_plan_documented", G2.replace(
        "prednisone 60 mg", "prednisone 30 mg")),
    "steroid_deferred": ("management_plan_documented", G2.replace(
        G2_PRED, "Hold off on prednisone 60 mg daily until the cultures are back negative.")),
    "permanent_stop_in_grade_1": (GRADE1, "tdxd_decision_documented",
                                  "Asymptomatic grade 1 T-DXd pneumonitis. Permanently "
                                  "discontinue trastuzumab deruxtecan. COVID PCR and cultures."),
    "grade_2_in_grade_1": (GRADE1, "ild_graded",
                           "Grade 2 T-DXd pneumonitis. Hold trastuzumab deruxtecan until the "
                           "opacities clear, then resume trastuzumab deruxtecan at the same "
                           "dose if within 28 days."),
}

test_a_correct_note_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


G1_HOLD = ("Asymptomatic grade 1 T-DXd pneumonitis, SpO2 97%. Hold trastuzumab deruxtecan "
           "until the opacities clear")
READER_GAPS = [
    # a resumption whose trigger carries the 28-day window is not read as a later step
    G1_HOLD + "; if that happens within 28 days, resume trastuzumab deruxtecan at the same dose, "
    "otherwise one dose level lower.",
    # 'do not discontinue it permanently' is read as 'continue' against the hold
    G1_HOLD + ". Do not discontinue it permanently. Once they clear, resume trastuzumab "
    "deruxtecan: same dose if within 28 days of onset.",
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize("note", READER_GAPS)
def test_reader_gaps(note):
    assert all(grade_note(TASK, note, GRADE1).values())


def test_the_oracle_scores_full_on_the_canonical_case():
    assert run_oracle(TASK).success


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported: a passive 'it could be "
                   "resumed' after 'stop T-DXd;' is not resolved to T-DXd")
def test_reader_gap_passive_it_rechallenge():
    note = G2.replace(G2_STOP, "stop T-DXd; if she recovers fully, it could be resumed at "
                               "4.4 mg/kg.")
    assert grade_note(TASK, note)["tdxd_decision_documented"] is False


# Correct grade 2 phrasings the reader still misgrades (review findings 6 and 7; the dev notes
# c01, c03, c04, c08, c09 and c10 are read since rf-adc_pulmonary_toxicity): reader gaps.
G2_READER_GAPS = [
    # a passive '<drug> should be permanently discontinued' after an inline 'Plan:' label
    G2.replace("Plan: " + G2_STOP, "Plan: T-DXd should be permanently discontinued."),
    # the noun 'permanent discontinuation of <drug>' is no stop
    G2.replace(G2_STOP, "Permanent discontinuation of T-DXd (no rechallenge)."),
    # the grade as a table cell below the diagnosis (dev note c04 writes '**Grade:** CTCAE
    # **grade 2**.' on its own line)
    G2.replace(", grade 2 (symptomatic, limits IADLs, SpO2 94% RA, no O2)", "") + "\n\n| Item "
    "| Value |\n|---|---|\n| CTCAE grade | 2 (symptomatic, limits IADLs, no O2) |",
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize("note", G2_READER_GAPS)
def test_grade_2_reader_gaps(note):
    assert all(grade_note(TASK, note).values())


# Closed in the shared reader (rf-adc_pulmonary_toxicity): an adverb between the drug and its
# participle ('X permanently discontinued', 'that X be permanently discontinued'); two names
# of one drug joined by a slash share the dose (dev c10).
G2_READ_NOW = [
    G2.replace(G2_PRED, "Steroids: start now. Prednisolone/prednisone 60 mg once daily for a "
                        "minimum of 14 days, then a gradual wean over at least 4 weeks."),
    G2.replace(G2_STOP, "We recommend that T-DXd be permanently discontinued."),
    G2.replace(G2_STOP, "Trastuzumab deruxtecan permanently discontinued for grade 2 ILD; do "
                        "not rechallenge."),
]


@pytest.mark.parametrize("note", G2_READ_NOW)
def test_grade_2_phrasings_read_now(note):
    assert all(grade_note(TASK, note).values())


# Wrong notes the reader still passes (review findings 2, 3, 4 and 5): reported as reader gaps.
WRONG_READER_GAPS = [
    # grade 2: a rechallenge whose trigger carries the 28-day window (finding 4)
    (None, "tdxd_decision_documented", G2.replace(
        G2_STOP, "permanently discontinue T-DXd. If the CT clears within 28 days, resume T-DXd "
                 "at the same dose.")),
    # a start after an infection result named by a phrase with no shared concept (finding 3)
    (None, "management_plan_documented", G2.replace(
        G2_PRED, "Prednisone 60 mg daily for at least 14 days then taper, to start once "
                 "infection has been excluded.")),
    # a taper shorter than 4 weeks is not read (finding 2)
    (None, "management_plan_documented", G2.replace(
        G2_PRED, "Prednisone 60 mg daily x 14 d, then taper over 1 week and stop.")),
    # grade 1: a resumption on a clock, not on resolution (finding 5)
    (GRADE1, "management_plan_documented",
     "Grade 1 T-DXd pneumonitis. Hold trastuzumab deruxtecan for one cycle, then resume "
     "trastuzumab deruxtecan."),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "checkpoint", "note"), WRONG_READER_GAPS)
def test_wrong_note_reader_gaps(variant, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is False
