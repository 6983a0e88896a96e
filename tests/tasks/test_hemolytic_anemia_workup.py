"""Warm AIHA: the note checkpoints judge the interpretation and plan, not the wording."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values

TASK = "hemolytic_anemia_workup"
NOTE_CHECKS = {"waiha_diagnosed", "treatment_documented", "cause_search_documented"}

CORRECT = [
    """Hemolysis: LDH 642 U/L, haptoglobin 8 mg/dL, retic 9.4%, indirect bili 3.0.
    DAT positive (IgG 3+, C3 neg) -> warm AIHA.
    Plan: start prednisone 70 mg PO daily. Folate 1 mg daily.
    Order CT chest/abdomen/pelvis for lymphoma; check ANA.""",
    """Impression: warm autoimmune haemolytic anaemia - Coombs-positive (IgG), lactate
    dehydrogenase 642, haptoglobin 0.08 g/L.
    Recommend prednisolone 1 mg/kg/day.
    Secondary causes: CT scan of chest, abdomen and pelvis ordered; antinuclear antibody
    ordered.""",
    """1. wAIHA. LDH 642 IU/L; hapto 8; the DAT is positive for IgG.
    2. Initiate prednisone 68 mg daily (1 mg/kg) with a slow taper after response.
    3. Workup for secondary causes - imaging ordered (CT C/A/P), ANA sent.""",
]

BASE = """LDH 642 U/L, haptoglobin 8 mg/dL. {dx}
{rx}
{ct}
{ana}"""
GOOD = {"dx": "DAT positive for IgG: warm autoimmune hemolytic anemia.",
        "rx": "Start prednisone 70 mg daily.",
        "ct": "CT chest, abdomen and pelvis ordered to look for lymphoma.",
        "ana": "ANA ordered for SLE."}
WRONG = {
    # cold agglutinin disease instead of warm AIHA
    "waiha_diagnosed": {**GOOD, "dx": "DAT positive: cold agglutinin disease."},
    # half the dose (0.5 mg/kg)
    "treatment_documented": {**GOOD, "rx": "Start prednisone 30 mg daily."},
    # imaging judged unnecessary
    "cause_search_documented": {**GOOD, "ct": "CT is not needed."},
}


_, test_wrong_note_fails_its_checkpoint = note_probes(
    TASK, wrong={check: (BASE.format(**fields), check) for check, fields in WRONG.items()})


@pytest.mark.parametrize("note", [
    # hedged steroid plan
    BASE.format(**{**GOOD, "rx": "Consider prednisone 70 mg daily."}),
    # wrong LDH
    BASE.format(**GOOD).replace("LDH 642", "LDH 462"),
    # steroids deferred
    BASE.format(**{**GOOD, "rx": "Defer prednisone 70 mg until CT results."}),
    # ANA not needed
    BASE.format(**{**GOOD, "ana": "ANA not indicated."}),
])
def test_subtly_wrong_notes_fail(note):
    assert not all(grade_note(TASK, note).values())


def test_keyword_stuffing_fails_the_decisions():
    stuffed = """LDH 642 462, haptoglobin 8 80. DAT positive, warm AIHA, cold agglutinin disease.
    Start prednisone 70 mg daily. Prednisone not indicated. Defer prednisone 30 mg.
    CT ordered. CT not needed. ANA ordered. ANA not indicated."""
    verdicts = grade_note(TASK, stuffed)
    assert verdicts["treatment_documented"] is False
    assert verdicts["cause_search_documented"] is False


def test_prednisone_range_follows_weight():
    for variant in (None, 2, 9):
        v = values(TASK, variant)
        assert v["pred_min_mg"] <= v["pred_mg"] <= v["pred_max_mg"]
        assert abs(v["pred_mg"] - v["weight_kg"]) <= 5


@pytest.mark.parametrize(("note", "check"), [
    # DAT read as negative
    (BASE.format(**{**GOOD, "dx": "DAT negative; warm autoimmune hemolytic anemia."}),
     "waiha_diagnosed"),
    # haptoglobin taken as normal
    (BASE.format(**GOOD).replace("haptoglobin 8 mg/dL", "haptoglobin 180 mg/dL"),
     "waiha_diagnosed"),
    # wrong drug: rituximab first line instead of a glucocorticoid
    (BASE.format(**{**GOOD, "rx": "Start rituximab 375 mg/m2 weekly x4."}),
     "treatment_documented"),
    # CT only if no response (conditional)
    (BASE.format(**{**GOOD, "ct": "CT chest, abdomen and pelvis if no response to steroids."}),
     "cause_search_documented"),
    # prednisone at 2 mg/kg
    (BASE.format(**{**GOOD, "rx": "Start prednisone 2 mg/kg/day."}), "treatment_documented"),
])
def test_review_wrong_notes_fail(note, check):
    assert grade_note(TASK, note)[check] is False
