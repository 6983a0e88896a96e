"""Follow-up of a bleeding H. pylori gastric ulcer: the note checkpoints judge the plan, and
the order checkpoints the regimen, doses, duration and follow-up tests written to the EHR."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, service_request, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "post_gi_bleed_followup"
NOTE_CHECKS = {"eradication_plan_documented", "test_of_cure_documented",
               "ulcer_followup_documented", "antithrombotic_and_nsaid_plan"}

CORRECT = [
    # numbered plan, abbreviations
    """A/P: Bleeding gastric ulcer (Forrest IIa, clipped), H. pylori positive on biopsy.
    1. BQT x 14 days: pantoprazole 40 mg BID, bismuth subsalicylate 524 mg QID,
       tetracycline 500 mg QID, metronidazole 500 mg TID.
    2. Test of cure: urea breath test >= 4 weeks after completing therapy, off PPI for
       2 weeks beforehand.
    3. Continue pantoprazole 40 mg BID during eradication, then once daily long-term.
    4. Repeat EGD in 8-10 weeks with biopsies to confirm healing.
    5. Resume ASA 81 mg daily now (secondary prevention, DES).
    6. Avoid NSAIDs; acetaminophen for OA.""",
    # narrative prose, units in days and months
    """Mr. Halvorsen's gastric ulcer bled on aspirin and naproxen and his gastric biopsies
    show H. pylori. I recommend a 14-day course of bismuth quadruple therapy (bismuth,
    tetracycline, metronidazole and his pantoprazole twice daily). Eradication should be
    confirmed with a stool antigen test no sooner than 28 days after the last antibiotic
    dose; his pantoprazole should be held for 14 days before that test. He should keep
    taking pantoprazole twice daily through the course and then once daily indefinitely
    because he needs aspirin. Please schedule an upper endoscopy in 2 months to document
    ulcer healing. Restart aspirin 81 mg today. He should not take NSAIDs again.""",
    # terse bullets, symbols
    """- H. pylori: start bismuth quadruple therapy for 14 days (components prescribed
      separately).
    - Breath test to confirm eradication ≥4 wk after treatment; PPI stopped 2 wk before it.
    - PPI: continue pantoprazole BID, then daily.
    - EGD: repeat in 6 weeks (8 weeks after the index scope) - biopsy any residual ulcer.
    - Aspirin: resume 81 mg now.
    - NSAIDs: avoid permanently (no naproxen/ibuprofen).""",
    # SOAP style, the PPI hold written in a separate sentence
    """S: no melena since discharge. O: Hb recovering. A: H. pylori gastric ulcer, hemostasis
    secured.
    P: Treat H. pylori with bismuth-based quadruple therapy for 2 weeks.
    Order a urea breath test 6 weeks from now (at least 4 weeks after the antibiotics end).
    Hold the PPI for 2 weeks before the breath test.
    Maintain pantoprazole 40 mg twice daily, then once daily while on aspirin.
    Repeat endoscopy in 12 weeks.
    Resume aspirin 81 mg daily without delay.
    Do not restart naproxen.""",
]
WRONG = [
    # 10-day course instead of 14
    """Start bismuth quadruple therapy for 10 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8 weeks. Resume aspirin
    81 mg now. Avoid NSAIDs.""",
    # test of cure by serology
    """Start bismuth quadruple therapy for 14 days. Check H. pylori serology in 4 weeks to
    confirm eradication, off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8
    weeks. Resume aspirin 81 mg now. Avoid NSAIDs.""",
    # test of cure too early
    """Start bismuth quadruple therapy for 14 days. Urea breath test 1 week after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8 weeks. Resume aspirin
    81 mg now. Avoid NSAIDs.""",
    # aspirin held until the repeat EGD
    """Start bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8 weeks. Resume aspirin
    81 mg after the repeat EGD shows healing. Avoid NSAIDs.""",
    # aspirin stopped
    """Start bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8 weeks. Stop aspirin.
    Avoid NSAIDs.""",
    # no repeat endoscopy
    """Start bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. No repeat EGD needed. Resume aspirin
    81 mg now. Avoid NSAIDs.""",
    # PPI stopped after the antibiotics
    """Start bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Stop pantoprazole once the antibiotics are finished. Repeat EGD in
    8 weeks. Resume aspirin 81 mg now. Avoid NSAIDs.""",
    # hedged regimen
    """Consider bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8 weeks. Resume aspirin
    81 mg now. Avoid NSAIDs.""",
    # NSAID allowed back
    """Start bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 8 weeks. Resume aspirin
    81 mg now. Naproxen can be restarted once the ulcer has healed.""",
    # repeat EGD far too late
    """Start bismuth quadruple therapy for 14 days. Urea breath test 4 weeks after therapy,
    off PPI for 2 weeks. Continue pantoprazole BID. Repeat EGD in 6 months. Resume aspirin
    81 mg now. Avoid NSAIDs.""",
]
# Independent review: phrasings that differ from the oracle's and must pass every checkpoint.
CORRECT += [
    # compact "x14d", stool antigen, PPI step-down justified by aspirin, topical NSAID allowed
    """Impression: H. pylori-positive gastric ulcer with a visible vessel, clipped; benign margins.
    Recommendations:
    - Bismuth quadruple therapy x14d (Pepto-Bismol 2 tabs QID + tetracycline 500 mg QID +
      metronidazole 500 mg QID + pantoprazole 40 mg BID).
    - Confirm eradication with H. pylori stool antigen 4-6 weeks after completing treatment;
      stop pantoprazole 2 weeks before the stool test (famotidine 20 mg BID allowed).
    - Continue pantoprazole 40 mg BID for now; after the eradication course reduce to 40 mg
      daily indefinitely given aspirin.
    - Surveillance EGD with biopsies in 8-12 weeks to confirm ulcer healing and exclude
      malignancy.
    - Restart aspirin 81 mg daily immediately; the benefit for his DES outweighs the risk.
    - No NSAIDs in the future; topical diclofenac gel is fine to use on the knee.""",
    # numbered, days instead of weeks, "contraindicated"
    """1) Eradication: bismuth subsalicylate 524 mg, tetracycline 500 mg and metronidazole
    500 mg, each four times daily, with pantoprazole twice daily for a full 14 days.
    2) Document eradication by UBT no earlier than 4 weeks post-therapy with PPI held 14 days
    beforehand.
    3) PPI: continue pantoprazole twice a day through the course, then once daily long term.
    4) Gastroscopy in 10 weeks to confirm healing.
    5) ASA 81 mg: resume today.
    6) NSAIDs are contraindicated from now on.""",
    # worded duration, 1-2 week PPI hold (ACG), aspirin in the same sentence as naproxen
    """We will treat his H. pylori with a two-week course of bismuth quadruple therapy
    (bismuth subsalicylate, tetracycline, metronidazole, pantoprazole).
    A breath test should be done at least 4 weeks after he finishes antibiotics and after
    1-2 weeks off pantoprazole.
    Keep pantoprazole 40 mg twice daily during treatment and then 40 mg daily long-term
    because of aspirin.
    Repeat upper endoscopy at 8 weeks post-bleed.
    Stop naproxen for good and resume aspirin 81 mg now.
    Avoid all NSAIDs.""",
    # dash-labelled lines, 7-day PPI hold, q12h, months
    """Plan:
    H. pylori - BQT (bismuth/tetracycline/metronidazole + PPI) for 14 days.
    Test of cure - breath test 6-8 weeks from today; hold the PPI for 7 days before it.
    PPI - pantoprazole 40 mg q12h, then daily maintenance.
    EGD - repeat in 2-3 months to document healing.
    Aspirin - resume 81 mg daily now, and continue the PPI until the repeat EGD.
    NSAIDs - he must not take naproxen or ibuprofen again.""",
]
# Independent review: subtly wrong plans, each failing the checkpoint that judges it.
_PLAN = {
    "bqt": "Start bismuth quadruple therapy for 14 days.",
    "test": "Urea breath test 4 weeks after therapy, off PPI for 2 weeks.",
    "ppi": "Continue pantoprazole BID.",
    "egd": "Repeat EGD in 8 weeks.",
    "asa": "Resume aspirin 81 mg now.",
    "nsaid": "Avoid NSAIDs.",
}
WRONG_PLANS = [
    ("bqt", "Start bismuth quadruple therapy for 10-14 days.", "eradication_plan_documented"),
    ("bqt", "Start bismuth quadruple therapy x 7 days.", "eradication_plan_documented"),
    ("test", "Urea breath test in 4 weeks, off PPI for 2 weeks.", "test_of_cure_documented"),
    ("test", "Urea breath test in 1 month, off PPI for 2 weeks.", "test_of_cure_documented"),
    ("test", "Urea breath test 4 weeks after therapy, off PPI for 3 days.",
     "test_of_cure_documented"),
    pytest.param("ppi", "Continue pantoprazole BID until the antibiotics are done, then "
                 "discontinue it.", "ulcer_followup_documented", marks=pytest.mark.xfail(
                     strict=True, reason="known gap: a planned later stop of the PPI that "
                                         "comes too early is not read as a contradiction")),
    ("egd", "Consider a repeat EGD in 8 weeks.", "ulcer_followup_documented"),
    ("asa", "Hold aspirin until the repeat EGD shows healing.", "antithrombotic_and_nsaid_plan"),
    ("asa", "Aspirin should remain on hold until cardiology review.",
     "antithrombotic_and_nsaid_plan"),
    ("asa", "Resume aspirin 325 mg daily now.", "antithrombotic_and_nsaid_plan"),
    pytest.param("asa", "Restart aspirin 81 mg in 4 weeks.", "antithrombotic_and_nsaid_plan",
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known gap: a delayed resumption is not told apart from 'resume now'"))),
    ("asa", "Once the ulcer has healed, aspirin can be restarted.",
     "antithrombotic_and_nsaid_plan"),
    ("nsaid", "Avoid NSAIDs. Ibuprofen is fine to use for knee pain.",
     "antithrombotic_and_nsaid_plan"),
    ("nsaid", "Avoid NSAIDs. Naproxen can be resumed after the ulcer heals.",
     "antithrombotic_and_nsaid_plan"),
    ("nsaid", "Avoid NSAIDs. Celecoxib is acceptable with the PPI.",
     "antithrombotic_and_nsaid_plan"),
]
PYLERA_WRONG = [
    "Start Pylera 3 capsules QID with omeprazole 20 mg BID for 10 days per the label.",
    "Start Pylera 3 capsules twice daily with pantoprazole 40 mg twice daily for 14 days.",
    "Start Pylera 2 capsules QID with pantoprazole 40 mg BID for 14 days.",
    "Start Pylera 3 capsules daily with pantoprazole 40 mg BID for 14 days.",
    "Start Pylera 3 capsules QID with pantoprazole 40 mg BID plus amoxicillin 1 g BID for 14 days.",
    "Pylera 3 caps QID with clarithromycin 500 mg BID and pantoprazole BID for 14 days.",
]


@pytest.mark.parametrize("sentence", PYLERA_WRONG)
def test_wrong_pylera_regimen_fails(sentence):
    note = "\n".join(sentence if key == "bqt" else text for key, text in _PLAN.items())
    verdicts = grade_note(TASK, note)
    assert not verdicts["eradication_plan_documented"], verdicts


def test_bqt_phrasings_that_name_other_antibiotics_only_as_rejected_pass():
    """Naming amoxicillin or clarithromycin as the regimens avoided, or the PPI hold before the
    breath test, does not read as adding them to (or removing the PPI from) the regimen."""
    for sentence in ("BQT for 14 days chosen over clarithromycin and amoxicillin regimens.",
                     "Bismuth quadruple therapy for 14 days with no amoxicillin because of the "
                     "penicillin allergy.",
                     "Pylera for 14 days with pantoprazole BID, then a breath test with no PPI "
                     "for 2 weeks before."):
        note = "\n".join(sentence if key == "bqt" else text for key, text in _PLAN.items())
        assert grade_note(TASK, note)["eradication_plan_documented"], sentence


STUFFED = """Start bismuth quadruple therapy for 14 days and for 7 days. Clarithromycin triple
therapy. Urea breath test in 4 weeks and 1 week, serology, off PPI 2 weeks. Continue
pantoprazole. Stop pantoprazole. Repeat EGD in 8 weeks. No repeat EGD needed. Resume aspirin
81 mg. Stop aspirin. Avoid NSAIDs. Resume naproxen."""


_, test_wrong_notes_fail = note_probes(TASK, wrong=WRONG)


@pytest.mark.parametrize(("part", "sentence", "checkpoint"), WRONG_PLANS,
                         ids=[f"{p.values[2] if hasattr(p, 'values') else p[2]}:"
                              f"{(p.values[1] if hasattr(p, 'values') else p[1])[:40]}"
                              for p in WRONG_PLANS])
def test_subtly_wrong_plan_fails_its_checkpoint(part, sentence, checkpoint):
    note = "\n".join(sentence if key == part else text for key, text in _PLAN.items())
    verdicts = grade_note(TASK, note)
    assert not verdicts[checkpoint], verdicts


def test_keyword_stuffing_fails_every_decision():
    verdicts = grade_note(TASK, STUFFED)
    assert not any(verdicts.values()), verdicts


def test_oracle_note_passes_on_a_variant():
    from tests.tasks.helpers import oracle_note
    assert all(grade_note(TASK, oracle_note(TASK, 3), variant=3).values())


MED = "fhir_medication_request_create"


def _rx(code: str, dose: float, unit: str, per_day: int, days: int | None = 14) -> dict:
    arguments = {"patient": "{patient_id}", "medication_code": code, "dose_value": dose,
                 "dose_unit": unit, "route": "oral", "frequency": per_day,
                 "period_unit": "day"}
    if days:
        arguments["duration_days"] = days
    return {"tool": MED, "arguments": arguments}


BISMUTH, TETRACYCLINE, METRONIDAZOLE = (_rx("308761", 524, "mg", 4), _rx("198252", 500, "mg", 4),
                                        _rx("311681", 500, "mg", 3))


def test_bismuth_quadruple_components_pass_in_any_unit():
    assert run_actions(TASK, [BISMUTH, TETRACYCLINE, METRONIDAZOLE])["eradication_prescribed"]
    tablets = _rx("308761", 2, "tablet", 4)
    qid_metronidazole = _rx("311681", 500, "mg", 4)
    assert run_actions(TASK, [tablets, TETRACYCLINE, qid_metronidazole])["eradication_prescribed"]


@pytest.mark.parametrize("actions", [
    [BISMUTH, TETRACYCLINE],                                             # metronidazole missing
    [BISMUTH, TETRACYCLINE, _rx("311681", 500, "mg", 3, days=10)],       # 10 days
    [BISMUTH, _rx("198252", 500, "mg", 2), METRONIDAZOLE],               # tetracycline BID
    [BISMUTH, TETRACYCLINE, _rx("311681", 500, "mg", 3, days=None)],     # no duration
    [BISMUTH, TETRACYCLINE, METRONIDAZOLE, _rx("308194", 875, "mg", 2)],  # amoxicillin (allergy)
    [BISMUTH, TETRACYCLINE, METRONIDAZOLE, _rx("198014", 500, "mg", 2)],  # naproxen
], ids=["incomplete", "10_days", "tetracycline_bid", "no_duration", "amoxicillin", "nsaid"])
def test_wrong_regimens_fail(actions):
    assert not run_actions(TASK, actions)["eradication_prescribed"]


def _order(code: str, system: str, category: str, occurrence: str | None = None) -> dict:
    return service_request(code, system, category, **({"occurrence": occurrence}
                                                       if occurrence else {}))


def test_followup_orders_and_their_dates():
    v = values(TASK)
    egd = _order("43239", "cpt", "procedure", v["repeat_egd_date"])
    assert run_actions(TASK, [_order("29891-9", "loinc", "laboratory"), egd])[
        "followup_tests_ordered"]
    assert run_actions(TASK, [_order("17780-8", "loinc", "laboratory"),
                              _order("43235", "cpt", "procedure")])["followup_tests_ordered"]
    early = _order("83013", "cpt", "laboratory", v["today"])  # breath test during therapy
    assert not run_actions(TASK, [early, egd])["followup_tests_ordered"]
    late_egd = _order("43239", "cpt", "procedure", "2027-01-15")
    assert not run_actions(TASK, [_order("29891-9", "loinc", "laboratory"), late_egd])[
        "followup_tests_ordered"]
    assert not run_actions(TASK, [_order("29891-9", "loinc", "laboratory")])[
        "followup_tests_ordered"]


def test_duration_written_only_in_the_sig_counts():
    """A 14-day course written only in the sig ("x14d") counts; a 10-day one does not."""
    def sig_only(sig: str) -> dict:
        action = _rx("311681", 500, "mg", 3, days=None)
        action["arguments"]["sig"] = sig
        return action
    compact = sig_only("metronidazole 500 mg PO TID x14d")
    assert run_actions(TASK, [BISMUTH, TETRACYCLINE, compact])["eradication_prescribed"]
    short = sig_only("metronidazole 500 mg PO TID x10d")
    assert not run_actions(TASK, [BISMUTH, TETRACYCLINE, short])["eradication_prescribed"]


@pytest.mark.parametrize("variant", [None, 0, 3, 8, 11])
def test_chart_supports_the_penicillin_allergy(variant):
    """The allergy is charted, the ulcer is coded as bleeding, and no amoxicillin course (from
    routine-care noise) contradicts the allergy that rules out amoxicillin regimens."""
    from physbench_gym.tasks.charts import chart_of
    from physbench_gym.tasks.registry import get_instance
    chart = chart_of(get_instance(TASK, variant))
    allergies = [r for r in chart if r["resourceType"] == "AllergyIntolerance"]
    assert [a["code"]["text"] for a in allergies] == ["Penicillin"]
    drugs = " ".join(c.get("display", "") for r in chart if r["resourceType"] == "MedicationRequest"
                     for c in r["medicationCodeableConcept"]["coding"]).lower()
    assert "amoxicillin" not in drugs and "penicillin" not in drugs
    codes = {c["code"] for r in chart if r["resourceType"] == "Condition"
             for c in r["code"]["coding"]}
    assert {"89748001", "K25.0"} <= codes and "K25.9" not in codes


# Review finding 2: gastric biopsies for H. pylori at the repeat EGD are a biopsy-based test of
# cure (ACG 2024), in place of a urea breath test or stool antigen.
def _egd(note: str, field: str = "note", code: str = "43239",
         occurrence: str | None = None) -> dict:
    action = _order(code, "cpt", "procedure", occurrence or values(TASK)["repeat_egd_date"])
    action["arguments"][field] = note
    return action


BIOPSY_TEST = ("Repeat EGD 8-12 weeks after the index endoscopy; antral and body biopsies for "
               "H. pylori (histology + rapid urease test) as the test of cure; hold PPI 2 weeks "
               "before.")


@pytest.mark.parametrize("field", ["note", "reason"])
def test_biopsy_test_of_cure_at_the_repeat_egd_counts(field):
    assert run_actions(TASK, [_egd(BIOPSY_TEST, field)])["followup_tests_ordered"]
    assert run_actions(TASK, [_egd("Gastric biopsies for Helicobacter pylori (CLO test) off PPI "
                                   "for 2 weeks.", field, "43235")])["followup_tests_ordered"]


@pytest.mark.parametrize("note", [
    "Repeat EGD; biopsy any residual ulcer.",  # biopsies, but not for H. pylori
    "Repeat EGD; biopsy any residual ulcer. No H. pylori biopsies needed.",
    "Repeat EGD with biopsies of the ulcer and an H. pylori breath test afterwards.",
    "Repeat EGD with biopsies of the ulcer margin; H. pylori status already known.",
])
def test_an_egd_without_biopsies_for_h_pylori_is_no_test_of_cure(note):
    assert not run_actions(TASK, [_egd(note)])["followup_tests_ordered"]


def test_biopsy_test_of_cure_too_soon_after_therapy_fails():
    # an EGD at the start of its window comes before the 4 weeks after the course
    early = values(TASK)["egd_window_start"]
    assert early < values(TASK)["test_of_cure_earliest"]
    assert not run_actions(TASK, [_egd(BIOPSY_TEST, occurrence=early)])[
        "followup_tests_ordered"]
