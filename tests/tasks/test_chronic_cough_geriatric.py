"""chronic_cough_geriatric: Cockcroft-Gault clearance for gabapentin dosing, the cause the
chart shows (refractory cough -> low-dose gabapentin and speech therapy; post-stroke aspiration
-> swallow study, no cough suppressant), and the Beers-list must-nots (codeine/opioid,
first-generation antihistamines incl. the OTC diphenhydramine, benzonatate)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, medication_request, note_probes, values
from tests.tasks.helpers_endocrinology import run_actions

TASK = "chronic_cough_geriatric"
MID = 0  # refractory, CrCl 30-59 band (creatinine 0.9, 47 kg)
MID_B = 12  # refractory, CrCl 30-59 band
LOW_B = 11  # refractory, CrCl 15-29 band, clearance 20-24
ASP = 14  # aspiration, CrCl 30-59 band
ASP_B = 19  # aspiration, CrCl 15-29 band


def test_canonical_values():
    vals = values(TASK)
    assert vals["cause"]["name"] == "refractory"
    assert vals["creat"] == 1.35 and vals["weight"] == 50 and vals["egfr"] == 39
    assert vals["crcl"] == 25 and (vals["crcl_lo"], vals["crcl_hi"]) == (23.3, 26.4)
    assert vals["gaba_band"] == "15-29" and vals["gaba_max_daily"] == 700
    assert vals["gaba_max_per_day"] == 1


def test_branches_and_bands_move():
    assert values(TASK, MID)["cause"]["name"] == "refractory"
    assert values(TASK, MID)["gaba_band"] == "30-59" and values(TASK, MID)["gaba_max_per_day"] == 2
    assert values(TASK, ASP)["cause"]["name"] == "aspiration"
    causes = [values(TASK, n)["cause"]["name"] for n in range(20)]
    assert 4 <= causes.count("aspiration") <= 10
    # both weights give the same gabapentin band, away from the 30 mL/min edge
    for n in range(20):
        v = values(TASK, n)
        assert (v["crcl_hi"] - 1.0 < 30) == (v["gaba_band"] == "15-29")
        assert (v["crcl_lo"] + 1.0 >= 30) == (v["gaba_band"] == "30-59")


_NO = (
    " No promethazine-codeine or any opioid cough syrup. Stop the diphenhydramine; avoid "
    "first-generation antihistamines. No benzonatate."
)

CORRECT = [
    (
        None,
        "CrCl 25 mL/min (Cockcroft-Gault). Refractory chronic cough. Start gabapentin 100 mg "
        "at bedtime, max 700 mg/day once daily. Refer to speech-language therapy for cough "
        "suppression therapy." + _NO,
    ),
    (
        None,
        """## Assessment
Unexplained chronic cough (cough hypersensitivity) - reflux, asthma, ACE inhibitor and heart
failure addressed. Creatinine clearance ~24 mL/min.

## Plan
1. Gabapentin 100 mg PO qhs; titrate slowly, not above 700 mg/day.
2. Speech therapy referral (PSALTI).
3. Discontinue Benadryl. Codeine is not recommended. Avoid benzonatate.
4. No first-generation antihistamines such as promethazine.
""",
    ),
    (
        None,
        """| Item | Recommendation |
|---|---|
| CrCl (Cockcroft-Gault) | 26 mL/min |
| Diagnosis | Refractory chronic cough |
| Gabapentin | Start 100 mg once daily at bedtime |
| SLP | Refer for cough suppression therapy |
| Diphenhydramine | Stop |
| Codeine / opioids | Avoid |
| Benzonatate | Avoid |
| First-generation antihistamines | Avoid |
""",
    ),
    (
        MID,
        "Estimated CrCl 35 mL/min. Refractory cough. Begin gabapentin 100 mg twice daily and "
        "refer to SLP for cough control therapy." + _NO,
    ),
    (
        ASP,
        "CrCl about 33 mL/min. The cough is from oropharyngeal dysphagia with aspiration after "
        "her stroke. Order a modified barium swallow with speech-language pathology. No "
        "gabapentin or other cough suppressant - the cough protects her airway." + _NO,
    ),
    (
        ASP,
        "Cockcroft-Gault creatinine clearance 35 mL/min. Post-stroke dysphagia with chronic "
        "aspiration is the likely cause. Plan: VFSS. Avoid gabapentin." + _NO,
    ),
    (
        ASP,
        "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. Order a modified barium "
        "swallow. If the swallow study is normal, a gabapentin trial could follow." + _NO,
    ),
    (
        ASP_B,
        "CrCl 26 mL/min. Aspiration-related cough from post-stroke dysphagia. FEES or "
        "videofluoroscopic swallow study with SLP ordered. No gabapentin for now." + _NO,
    ),
    # review finding 2: other words for the cause
    (
        None,
        "CrCl 25 mL/min. Idiopathic chronic cough after workup. Start gabapentin 100 mg at "
        "bedtime, titrate to at most 700 mg/day once daily. Refer to speech therapy." + _NO,
    ),
    (
        ASP,
        "CrCl 33 mL/min. Chronic cough due to dysphagia with aspiration after her stroke. "
        "Order a videofluoroscopic swallow study. No gabapentin." + _NO,
    ),
    (
        ASP,
        "CrCl 33 mL/min. Aspiration is the likely cause of the cough given the stroke. Order a "
        "modified barium swallow with SLP. No cough suppressant." + _NO,
    ),
    # review finding 3: FEES / MBS alone
    (ASP, "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. Order FEES." + _NO),
    (ASP, "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. MBS ordered with SLP." + _NO),
    # the label's band quoted as a ceiling is no wrong starting dose; a stop rule is no refusal
    (
        None,
        "CrCl 25 mL/min, so the 15-29 mL/min band: gabapentin 200-700 mg/day, once daily. "
        "Refractory chronic cough. Start gabapentin 100 mg at bedtime; if no benefit at 8 weeks, "
        "taper off. Refer to speech therapy." + _NO,
    ),
    (
        MID,
        "CrCl 35 mL/min. Refractory cough. Start gabapentin 300 mg at bedtime. Titrate to a "
        "maximum of 1400 mg/day in two divided doses. Refer to SLP for cough suppression "
        "therapy." + _NO,
    ),
    (
        None,
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin 100 mg at bedtime. Refer "
        "to speech therapy. No promethazine-codeine. Please ask her to stop the "
        "over-the-counter diphenhydramine. No benzonatate.",
    ),
]

WRONG = [
    (
        None,
        "renal_function_assessed",
        "CrCl 39 mL/min. Refractory chronic cough. Start gabapentin "
        "100 mg at bedtime. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "cause_identified",
        "CrCl 25 mL/min. Cough due to chronic aspiration. Start gabapentin "
        "100 mg at bedtime. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin "
        "300 mg three times daily. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin 100 mg at bedtime." + _NO,
    ),
    (
        None,
        "beers_medications_declined",
        "CrCl 25 mL/min. Refractory chronic cough. Start "
        "gabapentin 100 mg at bedtime. Refer to speech therapy. She may use codeine cough syrup at "
        "night. Stop diphenhydramine. No benzonatate.",
    ),
    (
        None,
        "beers_medications_declined",
        "CrCl 25 mL/min. Refractory chronic cough. Start "
        "gabapentin 100 mg at bedtime. Refer to speech therapy. No codeine. Continue "
        "diphenhydramine "
        "25 mg at bedtime for sleep. No benzonatate.",
    ),
    (
        None,
        "beers_medications_declined",
        "CrCl 25 mL/min. Refractory chronic cough. Start "
        "gabapentin 100 mg at bedtime. Refer to speech therapy. No codeine. Stop diphenhydramine. "
        "Benzonatate 100 mg three times daily may be added.",
    ),
    (
        ASP,
        "cough_plan_documented",
        "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. Order "
        "a modified barium swallow. Start gabapentin 100 mg at bedtime for the cough." + _NO,
    ),
    (
        ASP,
        "cause_identified",
        "CrCl 33 mL/min. Refractory chronic cough. Order a modified barium swallow." + _NO,
    ),
    (
        ASP,
        "cough_plan_documented",
        "CrCl 33 mL/min. Aspiration-related cough. Thickened liquids "
        "and upright posture at meals." + _NO,
    ),
    (
        ASP,
        "cough_plan_documented",
        "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. Order "
        "a modified barium swallow. Gabapentin could also be tried." + _NO,
    ),
    (
        ASP,
        "cough_plan_documented",
        "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. "
        "Consider a modified barium swallow." + _NO,
    ),
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Consider gabapentin "
        "100 mg at bedtime. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin "
        "300 mg twice daily. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "renal_function_assessed",
        "Creatinine clearance 30 mL/min. Refractory chronic cough. "
        "Start gabapentin 100 mg at bedtime. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "cause_identified",
        "CrCl 25 mL/min. Refractory chronic cough versus silent aspiration. "
        "Start gabapentin 100 mg at bedtime. Refer to speech therapy." + _NO,
    ),
    # review finding 1: titration past the renal maximum
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin "
        "100 mg at bedtime and titrate to 600 mg three times daily (1800 mg/day). Refer to speech "
        "therapy." + _NO,
    ),
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin "
        "100 mg at bedtime, titrating weekly up to a target of 1800 mg/day. Refer to speech "
        "therapy." + _NO,
    ),
    (
        MID,
        "cough_plan_documented",
        "CrCl 35 mL/min. Refractory cough. Start gabapentin 100 mg at "
        "bedtime, increase to 2400 mg/day as tolerated. Refer to speech therapy." + _NO,
    ),
    # review finding 7: a 600 mg/day start in the 30-59 band
    (
        MID,
        "cough_plan_documented",
        "CrCl 35 mL/min. Refractory cough. Start gabapentin 300 mg "
        "twice daily. Refer to SLP for cough suppression therapy." + _NO,
    ),
    (
        None,
        "cough_plan_documented",
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin "
        "100 mg twice daily. Refer to speech therapy." + _NO,
    ),
    (
        None,
        "beers_medications_declined",
        "CrCl 25 mL/min. Refractory chronic cough. Start "
        "gabapentin 100 mg at bedtime. Refer to speech therapy. Promethazine-codeine syrup at "
        "night "
        "is fine. Stop diphenhydramine. No benzonatate.",
    ),
    # a dosed benzonatate offer with no plan verb (dev corpus w10)
    (
        None,
        "beers_medications_declined",
        "CrCl 25 mL/min. Refractory chronic cough. Start "
        "gabapentin 100 mg at bedtime. Refer to speech therapy. Stop the diphenhydramine. No "
        "codeine. Benzonatate 100 mg three times daily as needed is a reasonable daytime adjunct.",
    ),
    (
        ASP,
        "cough_plan_documented",
        "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. "
        "Order FEES. If the cough is bothersome, gabapentin 100 mg at bedtime can be used." + _NO,
    ),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (MID, MID_B, LOW_B, ASP, ASP_B), [None, MID, ASP, ASP_B])
)


_GABA_QHS = medication_request("310430", 100, 1)
_GABA_BID = medication_request("310430", 100, 2)
_GABA_300_TID = medication_request("310431", 300, 3)
_DIPHENHYDRAMINE = medication_request("1049909", 25, 1)
_PREGABALIN = medication_request("483438", 100, 1)


def _sr(code: str, system: str, display: str, category: str = "referral") -> dict:
    return {
        "tool": "fhir_service_request_create",
        "arguments": {
            "patient": "{patient_id}",
            "code": code,
            "system": system,
            "category": category,
            "display": display,
        },
    }


_SLP = _sr("308452008", "snomed", "Referral to speech and language therapist")
_SLP_CPT = _sr(
    "92507",
    "cpt",
    "Treatment of speech, language, voice, communication disorder; individual",
    "procedure",
)
_SLP_OTHER = _sr("103696004", "snomed", "Referral to speech and language therapy service")
_VFSS = _sr(
    "92611",
    "cpt",
    "Motion fluoroscopic evaluation of swallowing function by cine or video recording",
    "procedure",
)
_BEDSIDE = _sr("92610", "cpt", "Evaluation of oral and pharyngeal swallowing function", "procedure")


@pytest.mark.parametrize(
    ("variant", "actions", "passes"),
    [
        (None, [_GABA_QHS], True),
        (None, [_GABA_BID], False),  # twice daily at CrCl 15-29 (label: once daily)
        (None, [_GABA_300_TID], False),  # 900 mg/day start
        (None, [_GABA_QHS, _DIPHENHYDRAMINE], False),  # a first-generation antihistamine
        (None, [_SLP], False),  # no gabapentin
        (MID, [_GABA_BID], True),
        (MID, [_GABA_QHS], True),
        (ASP, [_GABA_QHS], False),  # a cough suppressant while aspirating
        (ASP, [_DIPHENHYDRAMINE], False),
        (None, [_GABA_QHS, _GABA_QHS], False),  # a duplicate doubles the capped dose
        (None, [_GABA_QHS, _PREGABALIN], False),  # a second gabapentinoid
        (MID, [_GABA_QHS, _GABA_BID], False),
    ],
)
def test_cough_medication_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["cough_medication_orders"] is passes


@pytest.mark.parametrize(
    ("variant", "actions", "passes"),
    [
        (None, [_SLP], True),
        (None, [_SLP_CPT], True),  # review finding 5: other codes
        (None, [_SLP_OTHER], True),
        (None, [_GABA_QHS], False),
        (ASP, [_VFSS], True),  # review finding 4: the study is the SLP's
        (ASP, [_VFSS, _SLP], True),
        (ASP, [_SLP], False),  # no instrumental study
        (ASP, [_BEDSIDE], False),  # a clinical (bedside) evaluation only
    ],
)
def test_speech_pathology_ordered(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["speech_pathology_ordered"] is passes


def _message(text: str) -> dict:
    return {
        "tool": "fhir_communication_create_message",
        "arguments": {"patient": "{patient_id}", "recipient": "prac-pcp-03", "text": text},
    }


@pytest.mark.parametrize(
    ("variant", "text", "passes"),
    [
        (ASP, "Likely aspiration; MBS ordered with SLP.", True),  # review finding 3
        (ASP, "Likely aspiration; FEES ordered.", True),
        (ASP, "Likely aspiration; consider a swallow study if it persists.", False),
        (None, "Refractory cough: start gabapentin 100 mg at bedtime.", True),
        (None, "Refractory cough: speech therapy referral placed.", False),
    ],
)
def test_pcp_messaged(variant, text, passes):
    assert run_actions(TASK, [_message(text)], variant)["pcp_messaged"] is passes


def test_refractory_weights_are_steady_and_aspiration_loses_weight():
    refractory, aspiration = values(TASK), values(TASK, ASP)  # review finding 8
    assert refractory["weight_2y"] - refractory["weight"] <= 1
    assert aspiration["weight_2y"] - aspiration["weight"] >= 4


def test_the_stale_egfr_beside_the_clearance_is_no_clearance():
    graded = grade_note(
        TASK,
        "eGFR 39, but Cockcroft-Gault CrCl 25 mL/min. Refractory chronic "
        "cough. Start gabapentin 100 mg at bedtime. Refer to speech therapy." + _NO,
    )
    assert graded["renal_function_assessed"] is True


# Known reader gap: strict xfail, so a reader fix shows up here.
GAPS = [
    (
        None,
        False,
        "renal_function_assessed",  # a hedged second clearance is not a contradiction
        "CrCl 25 mL/min, or maybe 39. Refractory chronic cough. Start gabapentin 100 mg at "
        "bedtime. "
        "Refer to speech therapy." + _NO,
    ),
    (
        None,
        False,
        "cough_plan_documented",  # a later step's schedule is not read with its dose
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin 100 mg at bedtime, titrate up "
        "to "
        "600 mg three times daily. Refer to speech therapy." + _NO,
    ),
    (
        None,
        False,
        "beers_medications_declined",  # verbless undosed offer with a schedule (finding 13)
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin 100 mg at bedtime. Refer to "
        "speech therapy. Stop diphenhydramine. No benzonatate. Hycodan syrup at night.",
    ),
    (
        None,
        True,
        "beers_medications_declined",  # Beers 'potentially inappropriate' read as hedged
        "CrCl 25 mL/min. Refractory chronic cough. Start gabapentin 100 mg at bedtime. Refer to "
        "speech therapy. No promethazine with codeine: both components are potentially "
        "inappropriate "
        "at 82 (opioid; first-generation antihistamine). Stop diphenhydramine. No benzonatate.",
    ),
    (
        MID,
        True,
        "cough_plan_documented",  # the ceiling's schedule is read with the start dose
        "CrCl 35 mL/min. Refractory cough. Start gabapentin 300 mg at bedtime, titrate to a "
        "maximum "
        "of 1400 mg/day in two divided doses. Refer to SLP for cough suppression therapy." + _NO,
    ),
    (
        ASP,
        True,
        "cough_plan_documented",  # a hypothetical dose answer read as an allowance
        "CrCl 33 mL/min. Oropharyngeal dysphagia with aspiration. Order a modified barium swallow. "
        "No gabapentin now. If gabapentin were ever considered later, the ceiling would be 1400 mg "
        "a day." + _NO,
    ),
]


@pytest.mark.xfail(strict=True, reason="reader gap, see the spec's known gaps and drafts/README.md")
@pytest.mark.parametrize(("variant", "passes", "checkpoint", "note"), GAPS)
def test_known_reader_gaps(variant, passes, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is passes
