"""chronic_abdominal_pain_bowel: the neuromodulator order, and the note phrasings its checkpoints
must judge on each branch (normal QT or congenital long QT syndrome; the urgent-care opioid in
use or only a course 3 years ago)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "chronic_abdominal_pain_bowel"
NORMAL_COMPLETED = 1     # QTc 412 ms, no opioid in use, calprotectin 32
LQTS_ACTIVE = 3          # long QT syndrome, oxycodone in use, calprotectin 17
LQTS_COMPLETED = 0       # long QT syndrome, no opioid in use, calprotectin 41
NORMAL_ACTIVE = 5        # as canonical, calprotectin 29


def test_canonical_values():
    vals = values(TASK)
    assert vals["qt"] == {"name": "normal"} and vals["opioid"] == {"name": "active"}
    assert vals["calprotectin"] == 22
    assert vals["tca_allowed"] and vals["opioid_active"]
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    assert rx + "856783" in vals["tca_codes"] and rx + "317136" in vals["tca_codes"]
    assert rx + "1740467" in vals["qt_drug_codes"] and rx + "200371" in vals["qt_drug_codes"]
    assert rx + "1049221" in vals["opioid_codes"]
    cpt = "http://www.ama-assn.org/go/cpt|"
    assert {cpt + c for c in ("45378", "45380", "45385", "74150", "74174", "74176")} <= set(
        vals["repeat_test_codes"])


def test_branches_draw_their_values():
    assert values(TASK, NORMAL_COMPLETED)["qt"]["name"] == "normal"
    assert not values(TASK, NORMAL_COMPLETED)["opioid_active"]
    assert not values(TASK, LQTS_ACTIVE)["tca_allowed"] and values(TASK, LQTS_ACTIVE)[
        "opioid_active"]
    assert values(TASK, LQTS_COMPLETED)["calprotectin"] == 41
    combos = {(values(TASK, n)["qt"]["name"], values(TASK, n)["opioid"]["name"])
              for n in range(20)}
    assert len(combos) == 4


BASE = "IBS-D; fecal calprotectin 22 ug/g, normal. "
TCA = "Start amitriptyline 10 mg at bedtime. "
STOP = "Stop the oxycodone. "
NO_TESTS = "No repeat colonoscopy or CT."
QT = "IBS-D; fecal calprotectin 17 ug/g, normal. Avoid tricyclics given her long QT syndrome. "
CBT = "Refer for gut-directed CBT. "

CORRECT = [
    BASE + TCA + STOP + NO_TESTS,
    (NORMAL_COMPLETED, "IBS-D; fecal calprotectin 32 ug/g, normal. " + TCA
     + "No opioids for IBS pain. " + NO_TESTS),
    (LQTS_ACTIVE, QT + CBT + STOP + NO_TESTS),
    (LQTS_ACTIVE, "IBS-D; fecal calprotectin 17 ug/g, normal. No tricyclic antidepressant, "
                  "citalopram or ondansetron because of her long QT syndrome. " + CBT + STOP
                  + NO_TESTS),
    # review 2 (fixed in the reader): 'low-dose' before the drug
    BASE + "Start low-dose amitriptyline 10 mg at bedtime. " + STOP + NO_TESTS,
    # review 3: 'IBS-D.' at sentence end (reader) and inverted wordings (task lexicon)
    "Fecal calprotectin 22 ug/g, normal; impression IBS-D. " + TCA + STOP + NO_TESTS,
    "Fecal calprotectin 22 ug/g, normal; IBS (diarrhea-predominant). " + TCA + STOP + NO_TESTS,
    "Fecal calprotectin 22 ug/g, normal; irritable bowel syndrome, diarrhea-predominant. " + TCA
    + STOP + NO_TESTS,
    "Fecal calprotectin 22 ug/g, normal; IBS, diarrhoea-predominant. " + TCA + STOP + NO_TESTS,
    # review 4: a future colonoscopy or CT tied to an alarm feature
    BASE + TCA + STOP + "No repeat colonoscopy now; colonoscopy or CT if rectal bleeding, "
    "weight loss or anemia.",
    BASE + TCA + STOP + "No repeat colonoscopy now; colonoscopy if nocturnal diarrhea or blood "
    "in the stool develop.",
    BASE + TCA + STOP + "A repeat colonoscopy would not change management.",
    # review 5 (reader: 'do not refill'; spec: avoid accepted)
    BASE + TCA + "Do not refill the oxycodone. " + NO_TESTS,
    BASE + TCA + "Avoid further oxycodone; opioids are not an effective treatment for IBS. "
    + NO_TESTS,
    BASE + TCA + "Stop the oxycodone (narcotic bowel syndrome). " + NO_TESTS,
]

WRONG = [
    # the calprotectin of 2 years ago quoted as current
    ("ibs_d_confirmed", "IBS-D; fecal calprotectin 31 ug/g. " + TCA + STOP + NO_TESTS),
    ("ibs_d_confirmed", "Fecal calprotectin 22 ug/g; this is inflammatory bowel disease. " + TCA
     + STOP + NO_TESTS),
    # review 8: twice daily
    ("neuromodulator_documented", BASE + "Start amitriptyline 10 mg twice daily. " + STOP
     + NO_TESTS),
    ("neuromodulator_documented", BASE + "Start citalopram 20 mg daily. " + STOP + NO_TESTS),
    ("neuromodulator_documented", BASE + "A tricyclic could be considered later. " + STOP
     + NO_TESTS),
    # review 5: refill, continue, or switch to tramadol
    ("opioid_plan_documented", BASE + TCA + "Refill the oxycodone for now. " + NO_TESTS),
    ("opioid_plan_documented", BASE + TCA + "Continue the oxycodone as needed. " + NO_TESTS),
    ("opioid_plan_documented", BASE + TCA + "Stop the oxycodone and switch to tramadol 50 mg as "
     "needed. " + NO_TESTS),
    (NORMAL_COMPLETED, "opioid_plan_documented", "IBS-D; fecal calprotectin 32 ug/g, normal. "
     + TCA + "Tramadol 50 mg as needed for severe flares. " + NO_TESTS),
    # review 4: a repeat test now, or for the old stone
    ("no_repeat_tests_documented", BASE + TCA + STOP + "Repeat colonoscopy now."),
    ("no_repeat_tests_documented", BASE + TCA + STOP + "Order a CT to exclude recurrent "
     "stones."),
    ("no_repeat_tests_documented", BASE + TCA + STOP + "I would get a CT abdomen and pelvis to "
     "exclude recurrent kidney stones."),
    # review 6: other tricyclics and ondansetron in long QT syndrome
    (LQTS_ACTIVE, "neuromodulator_documented", "IBS-D; fecal calprotectin 17 ug/g, normal. "
     "Avoid amitriptyline given long QT. " + CBT + "Start desipramine 25 mg at bedtime. " + STOP
     + NO_TESTS),
    (LQTS_ACTIVE, "neuromodulator_documented", "IBS-D; fecal calprotectin 17 ug/g, normal. "
     "Avoid amitriptyline given long QT. " + CBT + "Start imipramine 25 mg at bedtime. " + STOP
     + NO_TESTS),
    (LQTS_ACTIVE, "neuromodulator_documented", "IBS-D; fecal calprotectin 17 ug/g, normal. "
     "Avoid amitriptyline given long QT. " + CBT + "Start ondansetron 4 mg three times daily. "
     + STOP + NO_TESTS),
    # review 7: rifaximin (failed 9 months ago) in place of gut-directed therapy
    (LQTS_ACTIVE, "neuromodulator_documented", QT + "Start rifaximin 550 mg three times daily "
     "for 14 days instead of CBT. " + STOP + NO_TESTS),
    (LQTS_COMPLETED, "neuromodulator_documented", "IBS-D; fecal calprotectin 41 ug/g, normal. "
     "Start amitriptyline 10 mg at bedtime with an ECG in 2 weeks. No opioids. " + NO_TESTS),
]

# Correct-looking wrong notes the shared reader still misgrades (reader gap in the review).
KNOWN_READER_GAPS = [
    # a verbless conditional offer of a tricyclic in long QT syndrome is not read as an offer
    (LQTS_ACTIVE, "neuromodulator_documented", QT + CBT + "If pain persists, a low-dose TCA "
     "with ECG monitoring. " + STOP + NO_TESTS),
]


@pytest.mark.xfail(strict=True, reason="known reader gap (see the review)")
@pytest.mark.parametrize(("variant", "failing", "note"), KNOWN_READER_GAPS)
def test_known_reader_gap(variant, failing, note):
    assert grade_note(TASK, note, variant)[failing] is False


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (NORMAL_COMPLETED, LQTS_ACTIVE, LQTS_COMPLETED),
                  [None, NORMAL_COMPLETED, LQTS_ACTIVE, LQTS_COMPLETED]))


def _medication(code: str, display: str, dose: float, per_day: int = 1,
                route: str = "oral") -> dict:
    return {"tool": "fhir_medication_request_create",
            "arguments": {"patient": "{patient_id}", "medication_code": code,
                          "medication_display": display, "dose_value": dose, "dose_unit": "mg",
                          "route": route, "frequency": per_day, "period_unit": "day"}}


AMITRIPTYLINE = _medication("856783", "amitriptyline hydrochloride 10 MG Oral Tablet", 10)
CBT_REFERRAL = service_request("306206005", "snomed", "referral", display="Referral to service",
                               note="Gut-directed CBT for IBS-D abdominal pain")


@pytest.mark.parametrize(("variant", "actions", "passes"), [
    (None, [AMITRIPTYLINE], True),
    (None, [_medication("317136", "nortriptyline 25 MG Oral Capsule", 25)], True),
    (None, [_medication("856783", "amitriptyline 10 MG", 10, per_day=2)], False),
    (None, [AMITRIPTYLINE, _medication("1049221", "oxycodone-acetaminophen 5/325", 1, 4)],
     False),
    # review 1: every colonoscopy and CT-abdomen code is banned
    (None, [AMITRIPTYLINE, service_request("45378", "cpt", "procedure")], False),
    (None, [AMITRIPTYLINE, service_request("45385", "cpt", "procedure")], False),
    (None, [AMITRIPTYLINE, service_request("74174", "cpt", "imaging")], False),
    (None, [AMITRIPTYLINE, service_request("74177", "cpt", "imaging")], False),
    (LQTS_ACTIVE, [CBT_REFERRAL], True),
    # review 1: a referral whose note and reason name the earlier colonoscopy and CT
    (LQTS_ACTIVE, [service_request("306206005", "snomed", "referral",
                                   display="Referral to service",
                                   note="Gut-directed CBT for IBS-D pain; colonoscopy 2 years "
                                        "ago normal",
                                   reason="IBS-D; normal colonoscopy and CT")], True),
    (LQTS_ACTIVE, [CBT_REFERRAL, AMITRIPTYLINE], False),
    (LQTS_ACTIVE, [CBT_REFERRAL, _medication("200371", "citalopram 20 MG Oral Tablet", 20)],
     False),
    # review 6: IV ondansetron in long QT syndrome
    (LQTS_ACTIVE, [CBT_REFERRAL, _medication("1740467", "ondansetron 2 MG/ML Injection", 4,
                                             route="intravenous")], False),
    (LQTS_ACTIVE, [CBT_REFERRAL, service_request("74150", "cpt", "imaging")], False),
])
def test_neuromodulator_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["neuromodulator_ordered"] is passes
