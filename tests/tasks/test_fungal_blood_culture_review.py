"""fungal_blood_culture_review: the isolate draws (C. glabrata SDD, C. albicans susceptible,
C. krusei) and the note phrasings its checkpoints must judge on each branch."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "fungal_blood_culture_review"
KRUSEI = 0
ALBICANS = 1
GLABRATA = 7
KRUSEI_2 = 3
ALBICANS_2 = 2


def test_canonical_values():
    vals = values(TASK)
    assert vals["isolate"] == {"name": "glabrata_sdd"}
    assert vals["species_concept"] == ["candida_glabrata"]
    assert vals["category"] == ["fluconazole_sdd"]
    assert vals["fluc_line"].startswith("16")
    assert "800 mg" in vals["plan_text"]


def test_branches_draw_their_isolates():
    assert values(TASK, KRUSEI)["isolate"]["name"] == "krusei"
    assert values(TASK, ALBICANS)["isolate"]["name"] == "albicans_susceptible"
    assert values(TASK, GLABRATA)["isolate"]["name"] == "glabrata_sdd"
    assert values(TASK, KRUSEI)["category"] == ["fluconazole_resistant"]
    assert values(TASK, ALBICANS)["category"] == ["fluconazole_susceptible"]


CORRECT = [
    (None, "Candida glabrata, fluconazole susceptible-dose dependent (MIC 16).\n"
           "Plan: increase fluconazole to 800 mg by mouth once daily through 14 days after the "
           "first negative culture."),
    (None, "Assessment: C. glabrata candidemia; the isolate is SDD to fluconazole.\n"
           "Plan:\n1. Fluconazole 800 mg PO daily (12 mg/kg).\n2. Weekly LFTs."),
    (None, "Nakaseomyces (Candida) glabrata; fluconazole MIC 16 (SDD). Plan: fluconazole 800 mg "
           "PO daily."),
    (None, "| Isolate | C. glabrata |\n| Fluconazole | 16, susceptible-dose dependent |\n\n"
           "Plan: fluconazole 800 mg daily by mouth."),
    (KRUSEI, "C. krusei - intrinsically resistant to fluconazole. Switch fluconazole to "
             "voriconazole 200 mg PO q12h."),
    (ALBICANS, "Candida albicans, fluconazole-susceptible (MIC 0.5). Continue fluconazole 400 mg "
               "once daily to complete 14 days after clearance."),
    (KRUSEI, "Candida krusei is intrinsically resistant to fluconazole. Stop fluconazole. Start "
             "voriconazole 200 mg twice daily to complete the course."),
]

WRONG = [
    (None, "antifungal_plan_documented",
     "Candida glabrata, SDD. Continue fluconazole at the current dose."),
    (ALBICANS, "antifungal_plan_documented",
     "Candida albicans, fluconazole-susceptible. Switch to voriconazole 200 mg twice daily."),
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole susceptible-dose dependent (MIC 16). Continue fluconazole "
     "400 mg once daily."),
    (None, "isolate_interpreted",
     "Candida glabrata, fluconazole-resistant. Increase fluconazole to 800 mg once daily."),
    (ALBICANS, "antifungal_plan_documented",
     "Candida albicans, fluconazole-susceptible. Increase fluconazole to 800 mg once daily."),
    (KRUSEI, "antifungal_plan_documented",
     "Candida krusei, intrinsically fluconazole-resistant. Continue fluconazole 400 mg daily."),
    (KRUSEI, "isolate_interpreted",
     "Candida krusei, fluconazole-susceptible. Start voriconazole 200 mg twice daily."),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (KRUSEI, ALBICANS), [None, GLABRATA, KRUSEI_2, ALBICANS_2]))


@pytest.mark.parametrize(("variant", "checkpoint", "note", "passed"), [
    (KRUSEI, "antifungal_plan_documented",
     "Candida krusei, intrinsically fluconazole-resistant. Stop fluconazole. Start "
     "voriconazole 200 mg every 12 hours after a loading dose of 400 mg every 12 hours on day 1.",
     True),
    (KRUSEI, "antifungal_plan_documented",
     "Candida krusei, intrinsically fluconazole-resistant. Stop fluconazole and resume micafungin "
     "100 mg IV daily via home infusion.", True),
    (None, "antifungal_plan_documented",
     "Candida glabrata, SDD to fluconazole. Stop fluconazole and resume micafungin 100 mg IV "
     "daily via home infusion.", True),
    (None, "antifungal_plan_documented",
     "Candida glabrata, SDD. Fluconazole 800 mg daily, or keep fluconazole at the current dose "
     "if she prefers.", False),
    (KRUSEI, "antifungal_plan_documented",
     "Candida krusei. Start voriconazole 200 mg twice daily; fluconazole 400 mg daily could also "
     "be continued.", False),
    # review findings 4-7 and 9
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole SDD (MIC 16).\nPlan: increase fluconazole to 800 mg once "
     "daily. Alternatively voriconazole 200 mg twice daily would also be reasonable.", False),
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole SDD (MIC 16).\nPlan: increase fluconazole to 800 mg once "
     "daily. Voriconazole has no CLSI breakpoint for C. glabrata, so I would not use it.", True),
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole SDD (MIC 16).\nPlan: increase fluconazole to 800 mg daily; "
     "if cost is a problem continue 400 mg daily.", False),
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole SDD (MIC 16).\nPlan: stop fluconazole 400 mg; start "
     "fluconazole 800 mg daily.", True),
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole SDD (MIC 16).\nPlan: increase fluconazole to 800 mg daily "
     "through 3/18, then stop.", True),
    (None, "antifungal_plan_documented",
     "Candida glabrata, fluconazole SDD (MIC 16).\nPlan: stop fluconazole today; course "
     "complete.", False),
    (None, "antifungal_plan_documented",
     "Candida glabrata, SDD to fluconazole. Stop fluconazole and resume micafungin 25 mg IV "
     "daily.", False),
    (ALBICANS, "antifungal_plan_documented",
     "Candida albicans, fluconazole-susceptible.\nPlan: stop fluconazole today; course "
     "complete.", False),
    (ALBICANS, "isolate_interpreted",
     "C. albicans, fluc-susceptible.\nPlan: continue fluconazole 400 mg PO daily.", True),
    (KRUSEI, "antifungal_plan_documented",
     "Candida krusei, intrinsically fluconazole-resistant. Stop fluconazole. Start voriconazole "
     "200 mg twice daily and stop it on 3/23.", True),
])
def test_review_reader_probes(variant, checkpoint, note, passed):
    assert grade_note(TASK, note, variant)[checkpoint] is passed


def _med(code, dose, per_day, display):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "medication_display": display,
        "dose_value": dose, "dose_unit": "mg", "route": "oral", "frequency": per_day,
        "period_unit": "day", "duration_days": 7}}


def _referral(display, note=None):
    arguments = {"patient": "{patient_id}", "code": "3457005", "system": "snomed",
                 "category": "referral", "display": display}
    if note:
        arguments["note"] = note
    return {"tool": "fhir_service_request_create", "arguments": arguments}


ID_CLINIC = _referral("Referral to infectious diseases clinic",
                      "If blood cultures turn positive again, consider micafungin.")
HOME_MICAFUNGIN = _referral("Home infusion referral: micafungin 100 mg IV daily")


@pytest.mark.parametrize(("variant", "actions", "passed"), [
    (None, [ID_CLINIC], False),  # an echinocandin named only in a referral's note
    (None, [HOME_MICAFUNGIN], True),
    (None, [_med("197696", 800, 1, "fluconazole 200 mg tablet")], True),
    (KRUSEI, [ID_CLINIC], False),
    (KRUSEI, [_med("349434", 200, 2, "voriconazole 200 mg tablet")], True),
    (ALBICANS, [_med("197696", 400, 1, "fluconazole 200 mg tablet")], True),
    (ALBICANS, [_med("197696", 400, 1, "fluconazole 200 mg tablet"), HOME_MICAFUNGIN], False),
])
def test_review_order_probes(variant, actions, passed):
    assert run_actions(TASK, actions, variant)["antifungal_ordered"] is passed
