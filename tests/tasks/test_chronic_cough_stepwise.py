"""chronic_cough_stepwise: the cause the chart points to (lisinopril -> stop it; raised blood
eosinophils -> inhaled corticosteroid; heartburn -> PPI), the current eosinophil count, and the
must-nots (no codeine/opioid, no antibiotic, no PPI without reflux symptoms, no ACE inhibitor)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, medication_request, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "chronic_cough_stepwise"
EOS = 4  # eosinophilic branch, eosinophils 0.70
EOS_B = 14  # eosinophilic branch, eosinophils 0.74
REFLUX = 8  # reflux branch, eosinophils 0.17
REFLUX_B = 10
ACE_B = 3  # ACE inhibitor branch, eosinophils 0.20


def test_canonical_values():
    vals = values(TASK)
    assert vals["cause"]["name"] == "ace"
    assert vals["eos"] == 0.14 and vals["eos_level"] == "normal"


def test_branches_draw_their_eosinophils():
    assert values(TASK, EOS)["cause"]["name"] == "eosinophilic"
    assert values(TASK, EOS)["eos"] == 0.7 and values(TASK, EOS)["eos_level"] == "raised"
    assert values(TASK, REFLUX)["cause"]["name"] == "reflux"
    assert values(TASK, REFLUX)["eos"] < 0.3
    causes = [values(TASK, n)["cause"]["name"] for n in range(20)]
    assert all(3 <= causes.count(c) <= 10 for c in ("ace", "eosinophilic", "reflux"))


_NO = " No codeine or other opioid. No antibiotics - no infection."
_NO_PPI = " No PPI - she has no heartburn or regurgitation."

CORRECT = [
    (
        None,
        "Chronic cough, CXR clear. Blood eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough "
        "from lisinopril. Stop lisinopril now; start losartan 50 mg daily for BP." + _NO_PPI + _NO,
    ),
    (
        None,
        """Assessment: chronic cough due to lisinopril (ACE-inhibitor-induced cough); eosinophil
count 140 cells/uL, normal.

Plan:
1. Discontinue lisinopril. Increase amlodipine to 10 mg daily.
2. Do not restart an ACE inhibitor.
3. Omeprazole is not indicated without reflux symptoms.
4. Codeine is not recommended; antibiotics are not indicated.
""",
    ),
    (
        None,
        """| Item | Recommendation |
|---|---|
| Eosinophils | 0.14 x10^9/L (normal) |
| Cause | ACE inhibitor cough |
| Lisinopril | Stop |
| Blood pressure | Switch to losartan 50 mg daily |
| PPI | Not indicated |
| Codeine / antibiotics | Avoid |
""",
    ),
    (
        EOS,
        "Chronic cough, normal CXR and spirometry, blood eosinophils 0.70 x10^9/L - likely "
        "cough-variant asthma or eosinophilic bronchitis. Start fluticasone 220 mcg inhaled "
        "twice daily and review in 4 weeks." + _NO_PPI + _NO,
    ),
    (
        EOS,
        "Eos 0.70 (raised): non-asthmatic eosinophilic bronchitis likely. Start an inhaled "
        "corticosteroid (budesonide inhaler 400 mcg twice daily) for 4 weeks." + _NO_PPI + _NO,
    ),
    (
        REFLUX,
        "Chronic cough with heartburn and regurgitation; eosinophils 0.17 x10^9/L, normal. "
        "Likely reflux cough. Start omeprazole 20 mg twice daily before meals for 8 weeks, "
        "with anti-reflux measures." + _NO,
    ),
    (
        None,
        "Eos 0.14. ACEi cough likely. Switch lisinopril to losartan 50 mg daily. Avoid PPIs "
        "without reflux symptoms." + _NO,
    ),
    (
        None,
        "AEC 140/uL. Lisinopril-induced cough. Discontinue lisinopril and replace with an ARB "
        "(losartan 50 mg daily). No omeprazole." + _NO,
    ),
    (
        None,
        "Blood eosinophils 0.14 x 10^9/L. ACE inhibitor cough. Stop lisinopril; start losartan "
        "50 mg daily. PPI only if heartburn develops." + _NO,
    ),
    (
        EOS,
        "Eosinophils 0.70 x10^9/L (raised). Cough-variant asthma likely. Start Flovent HFA 110 "
        "mcg 2 puffs twice daily." + _NO_PPI + _NO,
    ),
    (
        EOS,
        "Eosinophils 700 cells/uL. Likely NAEB. Begin ICS: fluticasone 250 mcg BID x 4 weeks."
        + _NO_PPI
        + _NO,
    ),
    (
        REFLUX,
        "Eosinophils 0.17. Reflux cough likely given heartburn. Start omeprazole 40 mg once "
        "daily before breakfast." + _NO,
    ),
    (
        REFLUX,
        "Eosinophil count 0.17, normal. Most likely GERD-related cough. Begin pantoprazole 40 "
        "mg daily before breakfast, elevate the head of the bed, no late meals." + _NO,
    ),
    # review finding 4: the commonest attribution phrasings
    (
        None,
        "AEC 0.14 K/uL. Lisinopril is the likely culprit. Stop lisinopril; start losartan 50 mg "
        "daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "Eosinophils 0.14 x10^9/L. The cough is most likely caused by lisinopril. Stop "
        "lisinopril; start losartan 50 mg daily." + _NO_PPI + _NO,
    ),
    (
        REFLUX,
        "GERD is the most likely driver of her cough (heartburn, regurgitation). Eosinophils "
        "0.17 x10^9/L. Start omeprazole 20 mg twice daily before meals." + _NO,
    ),
    (
        EOS,
        "Assessment: eosinophilic bronchitis vs cough-variant asthma; eosinophils 0.70 x10^9/L. "
        "Begin a 4-week trial of inhaled fluticasone propionate 250 mcg BID." + _NO_PPI + _NO,
    ),
    (
        EOS,
        "Eosinophils 0.70 x10^9/L: likely cough-variant asthma. Start budesonide-formoterol "
        "(Symbicort) 160/4.5 mcg 2 puffs twice daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "Eosinophils 0.14 x10^9/L. Cause: ACE-inhibitor (lisinopril) cough. Stop lisinopril; "
        "start losartan 50 mg daily." + _NO_PPI + _NO,
    ),
    # review findings 1 and 8: a thiazide replacement, dexlansoprazole at its 60 mg dose
    (
        None,
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop lisinopril; replace with "
        "chlorthalidone 12.5 mg daily for BP." + _NO_PPI + _NO,
    ),
    (
        REFLUX,
        "Eosinophils 0.17, normal. Likely reflux cough. Start dexlansoprazole 60 mg daily "
        "with anti-reflux measures." + _NO,
    ),
]

WRONG = [
    (
        None,
        "cause_identified",
        "Eosinophils 0.22 x10^9/L. Likely ACE inhibitor cough. Stop "
        "lisinopril; start losartan 50 mg daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "cause_identified",
        "Eosinophils 0.14 x10^9/L. Likely reflux cough. Stop lisinopril; "
        "start losartan 50 mg daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "empiric_step_documented",
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. "
        "Continue lisinopril 20 mg daily and reassess in 3 months." + _NO_PPI + _NO,
    ),
    (
        None,
        "empiric_step_documented",
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. "
        "Switch lisinopril to ramipril 5 mg daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "harmful_options_declined",
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop "
        "lisinopril; start losartan 50 mg daily. Start omeprazole 20 mg daily as well for possible "
        "silent reflux." + _NO,
    ),
    (
        None,
        "harmful_options_declined",
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop "
        "lisinopril; start losartan 50 mg daily." + _NO_PPI + " Codeine cough syrup at night is "
        "fine. Antibiotics are not indicated.",
    ),
    (
        None,
        "harmful_options_declined",
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop "
        "lisinopril; start losartan 50 mg daily." + _NO_PPI + " No codeine. A course of "
        "doxycycline could be tried as well.",
    ),
    (
        EOS,
        "empiric_step_documented",
        "Eosinophils 0.70 x10^9/L: eosinophilic bronchitis. Repeat "
        "spirometry in 3 months before any treatment." + _NO_PPI + _NO,
    ),
    (
        EOS,
        "cause_identified",
        "Eosinophils 0.70 x10^9/L. Likely reflux cough. Start an inhaled "
        "corticosteroid, fluticasone 220 mcg twice daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "cause_identified",
        "Eosinophils 0.14. The cough is not caused by lisinopril; likely "
        "post-viral. Stop lisinopril; start losartan 50 mg daily." + _NO_PPI + _NO,
    ),
    (
        None,
        "cause_identified",
        "Eosinophils 0.14. Cough not due to lisinopril. Stop lisinopril; "
        "start losartan 50 mg daily." + _NO_PPI + _NO,
    ),
    (
        REFLUX,
        "cause_identified",
        "Eosinophils 0.17. Cough is not reflux-related; likely "
        "eosinophilic bronchitis. Start omeprazole 20 mg twice daily." + _NO,
    ),
    (
        REFLUX,
        "empiric_step_documented",
        "Eosinophils 0.17, normal. Likely reflux cough. Avoid "
        "omeprazole; lifestyle measures only." + _NO,
    ),
    # review findings 6 and 7: an opioid syrup endorsed, the failed nasal steroid as the step
    (
        None,
        "harmful_options_declined",
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop "
        "lisinopril; start losartan 50 mg daily."
        + _NO_PPI
        + " Hydrocodone syrup at night is fine. "
        "No antibiotics.",
    ),
    (
        EOS,
        "empiric_step_documented",
        "Eosinophils 0.70 x10^9/L: likely cough-variant asthma. "
        "Restart fluticasone nasal spray 2 sprays each nostril daily." + _NO_PPI + _NO,
    ),
    (
        REFLUX,
        "empiric_step_documented",
        "Eosinophils 0.17, normal. Likely reflux cough. Start omeprazole 80 mg daily." + _NO,
    ),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (EOS, EOS_B, REFLUX, REFLUX_B, ACE_B), [None, EOS, REFLUX])
)


_AMLODIPINE_10 = medication_request("308135", 10, 1, "mg")
_LISINOPRIL = medication_request("314077", 20, 1, "mg")
_OMEPRAZOLE = medication_request("198051", 20, 2, "mg")
_AZITHRO = medication_request("248656", 500, 1, "mg")
_FLUTICASONE = medication_request("896001", 0.22, 2, "mg", "inhalation")
_FLUTICASONE_UG = medication_request("896001", 220, 2, "ug", "inhalation")
_FLUTICASONE_PUFFS = medication_request("896001", 2, 2, "{puff}", "inhalation")
_VALSARTAN = medication_request("349201", 160, 1, "mg")
_CHLORTHALIDONE = medication_request("197499", 12.5, 1, "mg")
_ESOMEPRAZOLE = medication_request("606730", 40, 1, "mg")
_LANSOPRAZOLE = medication_request("311277", 30, 1, "mg")


@pytest.mark.parametrize(
    ("variant", "actions", "passes"),
    [
        (None, [_AMLODIPINE_10], True),
        (None, [_AMLODIPINE_10, _LISINOPRIL], False),  # an ACE inhibitor re-ordered
        (None, [_AMLODIPINE_10, _OMEPRAZOLE], False),  # empiric PPI without reflux symptoms
        (None, [_AMLODIPINE_10, _AZITHRO], False),  # another antibiotic
        (None, [_OMEPRAZOLE], False),  # the wrong step for this branch
        (EOS, [_FLUTICASONE], True),
        (EOS, [_FLUTICASONE, _OMEPRAZOLE], False),
        (REFLUX, [_OMEPRAZOLE], True),
        (REFLUX, [_OMEPRAZOLE, _AZITHRO], False),
        (REFLUX, [_FLUTICASONE], False),
        (None, [_VALSARTAN], True),  # any ARB at a usual dose (review finding 1)
        (None, [_CHLORTHALIDONE], True),  # a thiazide-type diuretic
        (EOS, [_FLUTICASONE_UG], True),  # ICS dose in mcg or puffs (finding 2)
        (EOS, [_FLUTICASONE_PUFFS], True),
        (REFLUX, [_ESOMEPRAZOLE], True),  # other PPIs (finding 3)
        (REFLUX, [_LANSOPRAZOLE], True),
    ],
)
def test_treatment_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["treatment_ordered"] is passes


# An opioid antitussive allowed with its form or purpose between the drug and "is OK".
ALLOWED_OPIOIDS = [
    (
        None,
        False,
        "harmful_options_declined",  # "<opioid> syrup at bedtime is OK"
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop lisinopril; start losartan 50 "
        "mg "
        "daily." + _NO_PPI + " Promethazine-codeine syrup at bedtime is OK for a few weeks. No "
        "antibiotics.",
    ),
    (
        None,
        False,
        "harmful_options_declined",  # "<opioid> ... for sleep is reasonable"
        "Eosinophils 0.14 x10^9/L. Likely ACE inhibitor cough. Stop lisinopril; start losartan 50 "
        "mg "
        "daily." + _NO_PPI + " Codeine linctus at night for sleep is reasonable. No antibiotics.",
    ),
]


@pytest.mark.parametrize(("variant", "passes", "checkpoint", "note"), ALLOWED_OPIOIDS)
def test_an_allowed_opioid_antitussive_fails(variant, passes, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is passes


def test_a_contingent_restart_of_lisinopril_fails():
    """'lisinopril was not the cause and you can restart it': 'it' is lisinopril (w06)."""
    graded = grade_note(
        TASK,
        "Probably ACE-inhibitor cough from lisinopril. Eosinophils 0.14 "
        "x10^9/L (normal). Stop lisinopril and increase amlodipine to 10 mg daily "
        "(sent). If she is still coughing after one week, lisinopril was not the "
        "cause and you can restart it." + _NO_PPI + _NO,
    )
    assert not graded["empiric_step_documented"]


def test_the_canonical_note_states_no_stale_eosinophils():
    graded = grade_note(
        TASK,
        "Eosinophils 0.22 x10^9/L two years ago, 0.14 x10^9/L now. Likely "
        "ACE inhibitor cough. Stop lisinopril; start losartan 50 mg daily." + _NO_PPI + _NO,
    )
    assert graded["cause_identified"] is True
