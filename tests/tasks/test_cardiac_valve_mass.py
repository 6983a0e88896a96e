"""cardiac_valve_mass: the derived profile and mass size, and the notes and orders its
checkpoints must judge on each branch (fibroelastoma for excision, fibroelastoma under
surveillance, endocarditis vegetation)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "cardiac_valve_mass"
# canonical; seeds drawing the surveillance and endocarditis profiles
EXC, SURV, IE = None, 1, 12
EXC_10 = 9                        # an excision variant with a 10 mm mass


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == {"kind": "excision"}
    assert vals["mass_mm"] == 11
    assert (vals["diagnosis"], vals["other_diagnosis"]) == (
        "papillary_fibroelastoma", "infective_endocarditis")
    assert (vals["window_start"], vals["window_end"]) == ("2026-08-19", "2027-05-20")


def test_branches_draw_their_profiles():
    assert (values(TASK, SURV)["profile"]["kind"], values(TASK, SURV)["mass_mm"]) == (
        "surveillance", 6)
    assert (values(TASK, IE)["profile"]["kind"], values(TASK, IE)["mass_mm"]) == (
        "endocarditis", 12)
    assert values(TASK, IE)["diagnosis"] == "infective_endocarditis"
    assert (values(TASK, EXC_10)["profile"]["kind"], values(TASK, EXC_10)["mass_mm"]) == (
        "excision", 10)
    kinds = {values(TASK, n)["profile"]["kind"] for n in range(20)}
    assert kinds == {"excision", "surveillance", "endocarditis"}


CORRECT = [
    (EXC, "Impression: 11 mm mobile pedunculated mass on the noncoronary cusp = papillary "
          "fibroelastoma. Afebrile, cultures negative, CRP normal - not endocarditis.\nPlan:\n"
          "- Refer to cardiac surgery for valve-sparing excision.\n- Continue aspirin 81 mg.\n"
          "- No anticoagulation. No antibiotics."),
    (EXC, "| Finding | Value |\n|---|---|\n| Aortic valve mass | 1.1 cm, mobile, on a stalk |\n"
          "| Diagnosis | papillary fibroelastoma |\n| Cultures | no growth x2 |\n"
          "Recommendations: cardiothoracic surgery referral for resection of the fibroelastoma. "
          "Anticoagulation is not indicated; antibiotics are not needed."),
    (EXC, "Dear Dr. Smith, the TEE shows an 11-mm papillary fibroelastoma (PFE) on the aortic "
          "valve which most likely caused her stroke. Endocarditis is unlikely given negative "
          "blood cultures. I have referred her to a cardiac surgeon for excision. She should not "
          "be started on a blood thinner or on antibiotics."),
    (EXC, "A: Aortic valve PFE, 11 mm, mobile, embolic stroke -> surgical candidate.\n"
          "P: Cardiac surgery consult placed for PFE excision. Do not start apixaban or warfarin. "
          "Avoid empiric antibiotics."),
    (EXC, "PFE 11 mm. Refer to cardiac surgery for excision. No anticoagulation now; if she is "
          "not a surgical candidate, anticoagulation could be considered. No antibiotics."),
    (EXC, "Papillary fibroelastoma, 11 mm. I recommend surgical excision. No anticoagulation. "
          "No antibiotics."),
    (EXC, "Papillary fibroelastoma, 11 mm. Surgical resection is recommended. She should not be "
          "on a blood thinner. No antibiotics."),
    (EXC, "Papillary fibroelastoma, 11 mm. Plan: surgical excision. No anticoagulation. "
          "No antibiotics."),
    (EXC, "11 mm mobile pedunculated papillary fibroelastoma of the aortic valve (>10 mm). Refer "
          "to cardiac surgery for excision. No anticoagulation. No antibiotics."),
    (EXC, "The TEE shows an 11 mm frond-like lesion on the aortic valve, a papillary "
          "fibroelastoma. Refer to cardiac surgery for excision. No anticoagulation. CRP 2.4 mg/L; "
          "no antibiotics."),
    (EXC_10, "TEE: 10 mm mobile papillary fibroelastoma, aortic valve; vegetation unlikely "
             "(afebrile, sterile cultures).\nI placed a referral to cardiac surgery. "
             "No anticoagulation. No antibiotics."),
    (SURV, "Assessment: 6 mm non-mobile aortic valve mass consistent with a small papillary "
           "fibroelastoma. No evidence of endocarditis.\nPlan: conservative management; repeat "
           "TTE in 6 months. No referral for surgery at this time; refer for excision if she has "
           "an embolic event or the mass becomes mobile. No anticoagulation; no antibiotics."),
    (SURV, "Small papillary fibroelastoma (6 mm), asymptomatic and immobile.\nSurveillance "
           "echocardiogram in 12 months.\nSurgery is not indicated now. Anticoagulation and "
           "antibiotics are not indicated."),
    (SURV, "- Dx: PFE, 0.6 cm, non-mobile\n- Echo in 6 months\n- No surgery now\n"
           "- Avoid anticoagulants\n- No antibiotics"),
    (SURV, "Small PFE of 6 mm.\nSurveillance TTE in 6 months.\n"
           "No anticoagulation, no antibiotics."),
    (SURV, "Small papillary fibroelastoma, 6 mm, non-mobile. Repeat TTE in 6 months. No surgery "
           "now. No anticoagulation or antibiotics."),
    # a verbless 'Follow-up TTE in 6 months' line (a reader gap once)
    (SURV, "Small PFE of 6 mm.\nFollow-up TTE in 6 months.\nNo anticoagulation, no antibiotics."),
    (IE, "Assessment: definite native mitral valve infective endocarditis with a 12 mm "
         "vegetation (viridans streptococci 3/3 sets).\nPlan: direct admission to hospital today "
         "for IV antibiotics (ceftriaxone 2 g IV daily) and TEE. Do not start aspirin or "
         "anticoagulation."),
    (IE, "This is a 12 mm mitral valve vegetation from streptococcal endocarditis, not a "
         "fibroelastoma. Please send her to the emergency department now; she needs inpatient "
         "management with IV penicillin G and a TEE. No antiplatelet or anticoagulant therapy."),
    (IE, "Mitral vegetation 1.2 cm with moderate MR; IE by Duke criteria.\n1. Admit her to the "
         "hospital today.\n2. Start IV antibiotics after admission.\n3. Avoid aspirin and "
         "anticoagulants."),
    (IE, "Infective endocarditis with a 12 mm mitral vegetation. Admit today for IV penicillin G "
         "and TEE. No aspirin or anticoagulation."),
    (IE, "Infective endocarditis with a 12 mm mitral vegetation. Plan: admit today; IV "
         "ceftriaxone 2 g daily; TEE. No aspirin or anticoagulation."),
    (IE, "Infective endocarditis with a 12 mm mitral vegetation. She should be admitted to "
         "hospital today for IV ceftriaxone. No aspirin or anticoagulation."),
    (IE, "Infective endocarditis with a 12 mm mitral vegetation. Recommend admission today for IV "
         "ceftriaxone 2 g daily and TEE. No aspirin or anticoagulation."),
    (IE, "Viridans streptococcal endocarditis of the mitral valve with a 12 mm vegetation. Admit "
         "her today for IV ceftriaxone. No aspirin or anticoagulation."),
    (IE, "IE with a 12 mm vegetation. Admit her today for IV ceftriaxone 2 g daily; a later "
         "step-down to oral amoxicillin after 2 weeks of IV therapy is possible if she is "
         "stable. No aspirin, no anticoagulation."),
]

WRONG = [
    # excision branch
    (EXC, "mass_interpreted", "Assessment: 11 mm mobile mass on the aortic valve, likely a "
     "vegetation from endocarditis. Plan: refer to cardiac surgery. No anticoagulation. No "
     "antibiotics."),
    (EXC, "mass_interpreted", "Assessment: papillary fibroelastoma of the aortic valve, 8 mm. "
     "Plan: refer to cardiac surgery for excision. No anticoagulation. No antibiotics."),
    (EXC, "mass_interpreted", "Differential for the 11 mm aortic valve mass: papillary "
     "fibroelastoma, vegetation, thrombus."),
    (EXC, "mass_interpreted", "The 11 mm aortic valve mass is possibly a papillary fibroelastoma."),
    (EXC, "plan_documented", "Assessment: papillary fibroelastoma, 11 mm. Plan: start apixaban "
     "5 mg twice daily; refer to cardiac surgery for excision. No antibiotics."),
    (EXC, "plan_documented", "Assessment: papillary fibroelastoma, 11 mm. Plan: surveillance "
     "echo in 6 months; no surgery. No anticoagulation. No antibiotics."),
    (EXC, "plan_documented", "Assessment: papillary fibroelastoma, 11 mm. Plan: refer to cardiac "
     "surgery for excision. Start ceftriaxone 2 g IV daily to cover endocarditis. No "
     "anticoagulation."),
    (EXC, "plan_documented", "Assessment: papillary fibroelastoma, 11 mm. Plan: could consider a "
     "cardiac surgery referral in the future. No anticoagulation. No antibiotics."),
    (EXC, "plan_documented", "Assessment: papillary fibroelastoma, 11 mm. Plan: refer to cardiac "
     "surgery for excision. Alternatively, warfarin could be used instead of surgery. No "
     "antibiotics."),
    (EXC, "plan_documented", "PFE 11 mm. Refer to cardiac surgery for excision. Anticoagulation "
     "could be considered meanwhile. No antibiotics."),
    (EXC, "plan_documented", "PFE 11 mm. Cardiac surgery referral is not needed; follow with "
     "echo. No anticoagulation. No antibiotics."),
    (EXC, "plan_documented", "PFE 11 mm. Refer to cardiac surgery for excision. Start apixaban "
     "until surgery. No antibiotics."),
    (EXC, "plan_documented", "PFE 11 mm. Refer to cardiac surgery for excision. Bridge with "
     "enoxaparin until surgery. No antibiotics."),
    (EXC, "plan_documented", "PFE 11 mm. Refer to cardiac surgery for excision. Start warfarin "
     "for now. No antibiotics."),
    (EXC, "plan_documented", "PFE 11 mm. Refer to cardiac surgery for excision. Anticoagulate "
     "with apixaban pending surgery. No antibiotics."),
    (EXC, "plan_documented", "Papillary fibroelastoma, 11 mm, mobile, the likely source of her "
     "stroke; not endocarditis. Refer to cardiac surgery for excision."),
    (EXC, "mass_interpreted", "Papillary fibroelastoma 11 mm, CRP 148 mg/L. Refer to cardiac "
     "surgery for excision. No anticoagulation. No antibiotics."),
    # surveillance branch
    (SURV, "plan_documented", "Small papillary fibroelastoma, 6 mm, non-mobile; not "
     "endocarditis. Repeat TTE in 6 months. No surgery now."),
    (SURV, "plan_documented", "Small papillary fibroelastoma, 6 mm, non-mobile. Refer to cardiac "
     "surgery for excision. No anticoagulation or antibiotics."),
    (SURV, "plan_documented", "Small papillary fibroelastoma, 6 mm, non-mobile. Repeat echo in "
     "2 weeks. No surgery now. No anticoagulation or antibiotics."),
    (SURV, "plan_documented", "Small papillary fibroelastoma, 6 mm, non-mobile. Repeat echo in "
     "6 months. Start warfarin. No antibiotics."),
    (SURV, "plan_documented", "Small PFE. Plan: repeat TTE in 6 months. If she prefers, cardiac "
     "surgery referral for excision is reasonable. No anticoagulation, no antibiotics."),
    (SURV, "mass_interpreted", "Small papillary fibroelastoma, 11 mm, non-mobile. Repeat echo in "
     "6 months. No surgery now. No anticoagulation or antibiotics."),
    # endocarditis branch
    (IE, "plan_documented", "Infective endocarditis with a 12 mm mitral vegetation. Admit her "
     "today for IV ceftriaxone and TEE."),
    (IE, "mass_interpreted", "12 mm mitral valve mass most consistent with a papillary "
     "fibroelastoma. Admit for IV antibiotics. No aspirin or anticoagulation."),
    (IE, "mass_interpreted", "The 12 mm mitral valve mass may be a vegetation or a fibroelastoma."),
    (IE, "mass_interpreted", "Infective endocarditis with a 15 mm vegetation. Admit today for IV "
     "ceftriaxone and TEE. No aspirin or anticoagulation."),
    (IE, "plan_documented", "Infective endocarditis with a 12 mm vegetation. Start amoxicillin "
     "1 g orally three times daily at home; outpatient follow-up. No anticoagulation."),
    (IE, "plan_documented", "IE. Admit her today. Start oral amoxicillin 1 g three times daily. "
     "No aspirin, no anticoagulation."),
    (IE, "plan_documented", "Infective endocarditis with a 12 mm vegetation. Admit today for IV "
     "ceftriaxone and TEE. Start aspirin 81 mg daily to reduce embolism."),
    (IE, "plan_documented", "Infective endocarditis with a 12 mm vegetation. Admit today for IV "
     "ceftriaxone and TEE. Start heparin drip."),
    (IE, "plan_documented", "IE. Admit her today for IV antibiotics. No aspirin. Anticoagulation "
     "may be considered if emboli occur."),
    (IE, "plan_documented", "Infective endocarditis with a 12 mm vegetation. Outpatient IV "
     "ceftriaxone via PICC at home; no admission needed. No aspirin or anticoagulation."),
    (IE, "plan_documented", "IE. Direct admission could be considered if she worsens; start "
     "oral amoxicillin now. No aspirin."),
]


test_a_correct_note_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for variant in (SURV, IE, EXC_10):
        assert not all(grade_note(TASK, canonical, variant).values()), variant


# ---- Orders: the disposition and the must-nots, probed with the oracle's reads. ----

def _oracle_actions(variant=None, drop=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls if c.tool not in drop]
    return calls + list(extra)


def _sr(code, system, category, **extra):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category, **extra}}


def _rx(code, dose, unit, per_day, route="oral"):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose,
        "dose_unit": unit, "route": route, "frequency": per_day, "period_unit": "day"}}


def _verdicts(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


SR = "fhir_service_request_create"
APIXABAN, ASPIRIN, CEFTRIAXONE = "1364445", "243670", "1665021"


def test_excision_orders():
    assert _verdicts(_oracle_actions())["disposition_ordered"]
    by_text = _sr("306206005", "snomed", "referral", display="Referral to cardiothoracic surgery")
    assert _verdicts(_oracle_actions(drop=(SR,), extra=[by_text]))["disposition_ordered"]
    # no referral, or an anticoagulant or antibiotic beside it
    assert not _verdicts(_oracle_actions(drop=(SR,)))["disposition_ordered"]
    assert not _verdicts(_oracle_actions(extra=[_rx(APIXABAN, 5, "mg", 2)]))["disposition_ordered"]
    assert not _verdicts(_oracle_actions(extra=[_rx(CEFTRIAXONE, 2000, "mg", 1, "intravenous")])
                         )["disposition_ordered"]


def test_surveillance_echo_window():
    v = SURV
    when = values(TASK, v)
    in_6_months = _sr("93306", "cpt", "imaging", occurrence=f"{when['echo_due_date']}T09:00:00Z")
    in_2_weeks = _sr("93306", "cpt", "imaging",
                     occurrence=(when["now"].date().isoformat() + "T09:00:00Z"))
    undated = _sr("93306", "cpt", "imaging")
    surgery = _sr("306302005", "snomed", "referral", display="Referral to cardiac surgeon")
    assert _verdicts(_oracle_actions(v), v)["disposition_ordered"]
    assert _verdicts(_oracle_actions(v, drop=(SR,), extra=[in_6_months]), v)["disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, drop=(SR,), extra=[in_2_weeks]), v)[
        "disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, drop=(SR,), extra=[undated]), v)["disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, extra=[surgery]), v)["disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, extra=[_rx(APIXABAN, 5, "mg", 2)]), v)[
        "disposition_ordered"]


def test_endocarditis_admission_orders():
    v = IE
    routine = _sr("32485007", "snomed", "procedure", display="Hospital admission")
    ed_stat = _sr("306206005", "snomed", "referral", priority="stat",
                  display="Send to emergency department for admission")
    assert _verdicts(_oracle_actions(v), v)["disposition_ordered"]
    assert _verdicts(_oracle_actions(v, drop=(SR,), extra=[ed_stat]), v)["disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, drop=(SR,), extra=[routine]), v)["disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, extra=[_rx(ASPIRIN, 81, "mg", 1)]), v)[
        "disposition_ordered"]
    assert not _verdicts(_oracle_actions(v, extra=[_rx(APIXABAN, 5, "mg", 2)]), v)[
        "disposition_ordered"]


def _msg(text):
    return {"tool": "fhir_communication_create_message", "arguments": {
        "patient": "{patient_id}", "recipient": "{referring_id}", "text": text}}


CM = "fhir_communication_create_message"
AMOXICILLIN = "308192"


def test_excision_referral_by_specialty():
    by_specialty = _sr("3457005", "snomed", "referral", display="Referral",
                       specialty="Cardiac surgery",
                       reason="Aortic valve papillary fibroelastoma with embolic stroke")
    assert _verdicts(_oracle_actions(drop=(SR,), extra=[by_specialty]))["disposition_ordered"]
    # a referral to another specialty whose note names surgery is not the referral
    neuro = _sr("3457005", "snomed", "referral", display="Referral", specialty="Neurology",
                note="Cardiac surgery opinion to follow")
    assert not _verdicts(_oracle_actions(drop=(SR,), extra=[neuro]))["disposition_ordered"]


def test_surveillance_referral_and_early_echo():
    v = SURV
    when = values(TASK, v)
    to_surgery = _sr("3457005", "snomed", "referral", display="Referral",
                     specialty="Cardiac surgery", reason="papillary fibroelastoma")
    assert not _verdicts(_oracle_actions(v, extra=[to_surgery]), v)["disposition_ordered"]
    with_plan = _sr("93306", "cpt", "imaging", occurrence=f"{when['echo_due_date']}T09:00:00Z",
                    note="If it has grown or become mobile, she will need referral to cardiac "
                         "surgery for excision.")
    assert _verdicts(_oracle_actions(v, drop=(SR,), extra=[with_plan]), v)["disposition_ordered"]
    now_too = _sr("93306", "cpt", "imaging")
    assert not _verdicts(_oracle_actions(v, extra=[now_too]), v)["disposition_ordered"]


def test_endocarditis_orders_reject_oral_antibiotics_and_loose_admissions():
    v = IE
    assert not _verdicts(_oracle_actions(v, extra=[_rx(AMOXICILLIN, 1000, "mg", 3)]), v)[
        "disposition_ordered"]
    id_opat = _sr("3457005", "snomed", "referral", priority="urgent", display="Referral",
                  specialty="Infectious disease",
                  note="Outpatient IV antibiotics via PICC; admission not needed.")
    assert not _verdicts(_oracle_actions(v, drop=(SR,), extra=[id_opat]), v)["disposition_ordered"]
    tee = _sr("93312", "cpt", "imaging", priority="stat", note="TEE before admission")
    assert not _verdicts(_oracle_actions(v, drop=(SR,), extra=[tee]), v)["disposition_ordered"]
    late = _sr("32485007", "snomed", "procedure", priority="stat", display="Hospital admission",
               occurrence=(values(TASK, v)["now"] + timedelta(days=15)).strftime(
                   "%Y-%m-%dT09:00:00Z"))
    assert not _verdicts(_oracle_actions(v, drop=(SR,), extra=[late]), v)["disposition_ordered"]


@pytest.mark.parametrize(("variant", "text"), [
    (EXC, "This is not a papillary fibroelastoma; it is endocarditis. Start antibiotics."),
    (IE, "Not endocarditis; likely a fibroelastoma. Treat at home."),
    (SURV, "The mass may be a vegetation or a fibroelastoma."),
])
def test_a_message_with_the_wrong_reading_fails(variant, text):
    assert _verdicts(_oracle_actions(variant, drop=(CM,), extra=[_msg(text)]), variant)[
        "pcp_message_sent"] is False
    assert _verdicts(_oracle_actions(variant), variant)["pcp_message_sent"]


# Correct notes the note reader once misread: values before a comma-separated description,
# 'I have placed a ... referral', 'she needs hospital admission today'.
READER_FIXED = [
    (EXC, "The TEE shows an 11 mm mobile, pedunculated, frond-like lesion: a papillary "
          "fibroelastoma. Refer to cardiac surgery for excision. No anticoagulation. "
          "No antibiotics."),
    (EXC, "Papillary fibroelastoma, 11 mm. I have placed a cardiac surgery referral. "
          "No anticoagulation. No antibiotics."),
    (IE, "Infective endocarditis with a 12 mm mitral vegetation. She needs hospital admission "
         "today for IV ceftriaxone. No aspirin or anticoagulation."),
]


@pytest.mark.parametrize(("variant", "note"), READER_FIXED)
def test_reader_phrasings_now_read_right(variant, note):
    verdicts = grade_note(TASK, note, variant)
    assert verdicts["mass_interpreted"] and verdicts["plan_documented"]


# Correct notes the note reader still misreads: a 'Size:' label under the diagnosis.
READER_GAPS = [
    (EXC, "Diagnosis: papillary fibroelastoma. Size: 11 mm (TEE). Refer to cardiac surgery for "
          "excision. No anticoagulation. No antibiotics."),
]


@pytest.mark.xfail(reason="note reader misreading, reported", strict=True)
@pytest.mark.parametrize(("variant", "note"), READER_GAPS)
def test_reader_gap(variant, note):
    assert all(grade_note(TASK, note, variant).values())
