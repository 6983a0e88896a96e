"""svt_tuberous_sclerosis: the derived kidney function and agent, and the note phrasings its
checkpoints must judge on each branch (beta blocker, calcium channel blocker, class IC + EP)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, values

TASK = "svt_tuberous_sclerosis"
CCB_VARIANT, IC_VARIANT = 2, 1   # seeds drawing the asthma and the pre-excitation profiles


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == {"agent": "beta_blocker"}
    assert (vals["creatinine"], vals["egfr"], vals["ckd_stage"]) == (1.28, 58, "3a")
    assert vals["prior_egfr"] == 71                      # the stale value 3 years ago
    assert vals["forbidden_names"] == ["diltiazem", "verapamil"]
    assert vals["forbidden_concepts"] == ["ndhp_ccb"]


def test_branches_draw_their_agents():
    assert values(TASK, CCB_VARIANT)["profile"]["agent"] == "ndhp_ccb"
    assert values(TASK, CCB_VARIANT)["egfr"] == 48
    assert values(TASK, IC_VARIANT)["profile"]["agent"] == "class_ic"
    assert values(TASK, IC_VARIANT)["egfr"] == 65
    agents = {values(TASK, n)["profile"]["agent"] for n in range(20)}
    assert agents == {"beta_blocker", "ndhp_ccb", "class_ic"}


CORRECT = [
    (None,
     ("Assessment: recurrent PSVT, resting ECG without pre-excitation. eGFR 58 mL/min/1.73m2 "
      "(CKD 3a).\n"
      "Plan: Start metoprolol succinate 25 mg daily. Avoid diltiazem and verapamil because they "
      "increase everolimus levels.")),
    (None, """# Impression
AVNRT likely. No delta wave on the post-conversion ECG - no WPW. Renal function: eGFR 58.
# Recommendations
- Metoprolol tartrate 25 mg PO BID
- No non-DHP calcium channel blockers (CYP3A4/P-gp interaction with everolimus)"""),
    (None,
     ("| Item | Finding |\n"
      "|---|---|\n"
      "| Resting ECG | sinus rhythm, no preexcitation |\n"
      "| eGFR | 58 |\n"
      "Plan: I recommend atenolol 25 mg once daily for SVT suppression. We will not use "
      "verapamil or diltiazem (everolimus).")),
    (None,
     ("This 29-year-old with tuberous sclerosis has paroxysmal supraventricular tachycardia. "
      "Her resting ECG shows no ventricular pre-excitation. Current eGFR is 58 (it was 71 three "
      "years ago). I started metoprolol succinate 50 mg once daily. Calcium channel blockers "
      "such as diltiazem should be avoided because of everolimus.")),
    (CCB_VARIANT, """Resting ECG: NSR, no delta wave. Kidney function: eGFR 48 mL/min/1.73 m2.
Recommendations:
- Verapamil ER 180 mg PO once daily
- No beta-blockers (moderate persistent asthma with recent exacerbation)"""),
    (CCB_VARIANT,
     ("This young woman with TSC and asthma has AVNRT-type SVT with no pre-excitation on her "
      "baseline ECG. Current eGFR 48. I prescribed diltiazem 24-hour 120 mg once daily; beta "
      "blockers, even metoprolol, are not advisable with her bronchospasm.")),
    (IC_VARIANT,
     ("Assessment: orthodromic AVRT with manifest pre-excitation (WPW pattern) on the resting "
      "ECG. eGFR 65.\n"
      "Plan:\n"
      "1. Refer to electrophysiology for EP study and catheter ablation.\n"
      "2. Start flecainide 50 mg twice daily meanwhile.\n"
      "3. Avoid diltiazem, verapamil and digoxin.")),
    (IC_VARIANT, """| Item | Detail |
|---|---|
| Resting ECG | manifest pre-excitation |
| eGFR | 65 |
| Drug | flecainide 100 mg twice daily |
| Referral | EP study + ablation |
Avoid: verapamil, diltiazem, digoxin."""),
]

WRONG = [
    # beta-blocker branch: a calcium channel blocker despite everolimus
    (None, "plan_documented", "SVT, no pre-excitation. eGFR 58. Start diltiazem ER 120 mg daily."),
    # stale eGFR stated as current
    (None, "rhythm_and_kidney_assessed",
     ("SVT, no pre-excitation. eGFR 71. Start metoprolol succinate 25 mg daily. Avoid diltiazem "
      "and verapamil.")),
    # pre-excitation invented
    (None, "rhythm_and_kidney_assessed",
     ("SVT with WPW pattern on ECG. eGFR 58. Start metoprolol succinate 25 mg daily. Avoid "
      "diltiazem and verapamil.")),
    # hedged, never committed
    (None, "plan_documented",
     ("SVT, no pre-excitation. eGFR 58. Could consider a beta blocker such as metoprolol in the "
      "future. Avoid diltiazem.")),
    # an untriggered alternative that is contraindicated
    (None, "plan_documented",
     ("SVT, no pre-excitation. eGFR 58. Start metoprolol succinate 25 mg daily. Alternatively "
      "verapamil ER 180 mg daily would be reasonable.")),
    # a dose far above a starting dose
    (None, "plan_documented",
     ("SVT, no pre-excitation. eGFR 58. Start metoprolol tartrate 200 mg twice daily. Avoid "
      "diltiazem and verapamil.")),
    # asthma branch: a beta blocker, started or offered as backup
    (CCB_VARIANT, "plan_documented",
     "SVT, no pre-excitation, eGFR 48. Start metoprolol succinate 25 mg daily."),
    (CCB_VARIANT, "plan_documented",
     ("SVT, no pre-excitation, eGFR 48. Start diltiazem ER 120 mg daily. If not tolerated, "
      "metoprolol 25 mg daily could be used.")),
    # pre-excitation branch: AV nodal blocker, no EP referral, missed WPW, wrong dose
    (IC_VARIANT, "plan_documented",
     "WPW pattern on ECG. eGFR 65. Refer to EP for ablation. Start diltiazem ER 120 mg daily."),
    (IC_VARIANT, "plan_documented",
     ("WPW pattern on ECG. eGFR 65. Start flecainide 50 mg twice daily. Ablation is not needed. "
      "Avoid diltiazem, verapamil and digoxin.")),
    (IC_VARIANT, "rhythm_and_kidney_assessed",
     ("SVT without pre-excitation. eGFR 65. Refer to EP for ablation. Start flecainide 50 mg "
      "twice daily. Avoid diltiazem, verapamil and digoxin.")),
    (IC_VARIANT, "plan_documented",
     ("WPW pattern on ECG. eGFR 65. Refer to EP for ablation. Start flecainide 50 mg twice "
      "daily. Digoxin 0.125 mg daily is an alternative.")),
    (IC_VARIANT, "plan_documented",
     ("WPW pattern on ECG. eGFR 65. Refer to EP for ablation. Start flecainide 200 mg twice "
      "daily. Avoid diltiazem, verapamil and digoxin.")),
]


_FOLLOWUP = "\nCardiology follow-up in 6 weeks."   # followup_documented (review finding 6)
test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, [(variant, note + _FOLLOWUP) for variant, note in CORRECT], WRONG)


def test_the_canonical_note_fails_the_other_branches():
    canonical = get_note()
    assert not all(grade_note(TASK, canonical, CCB_VARIANT).values())
    assert not all(grade_note(TASK, canonical, IC_VARIANT).values())


def get_note() -> str:
    from tests.tasks.helpers import oracle_note
    return oracle_note(TASK)


# ---- Review fixes (reviews/svt_tuberous_sclerosis.md): each correct case with a wrong twin. ----

BB_BASE = ("SVT, no pre-excitation on the resting ECG. eGFR 58. "
           "Cardiology follow-up in 6 weeks. ")
CCB_BASE = ("SVT, no pre-excitation on the resting ECG. eGFR 48. "
            "Cardiology follow-up in 6 weeks. ")
IC_BASE = ("Resting ECG shows manifest pre-excitation (WPW pattern). eGFR 65. Refer to EP for "
           "ablation. Cardiology follow-up in 6 weeks. ")
BB_AVOID = "Avoid diltiazem and verapamil (they raise everolimus levels)."
CCB_AVOID = "Avoid beta blockers given her asthma."
IC_AVOID = "Avoid diltiazem, verapamil and digoxin."

# (variant, checkpoint, passing note, wrong twin)
TWINS = [
    # 1: the reason the other class is out must be stated (everolimus / asthma / pre-excitation)
    (None, "plan_documented", BB_BASE + "Start metoprolol succinate 25 mg daily. " + BB_AVOID,
     BB_BASE + "Start metoprolol succinate 25 mg daily."),
    (None, "plan_documented", BB_BASE + "Start metoprolol 25 mg daily. Diltiazem and verapamil "
     "would raise her everolimus levels.", BB_BASE + "Start metoprolol 25 mg daily."),
    (CCB_VARIANT, "plan_documented",
     CCB_BASE + "Start diltiazem ER 120 mg once daily. " + CCB_AVOID,
     CCB_BASE + "Start diltiazem ER 120 mg once daily."),
    (IC_VARIANT, "plan_documented", IC_BASE + "Start flecainide 50 mg twice daily. " + IC_AVOID,
     IC_BASE + "Start flecainide 50 mg twice daily."),
    # 2: an explicit no-pre-excitation statement, not silence or a hedge
    (None, "rhythm_and_kidney_assessed",
     BB_BASE + "Start metoprolol succinate 25 mg daily. " + BB_AVOID,
     ("Recurrent SVT, structurally normal heart. eGFR 58. "
      "Start metoprolol succinate 25 mg daily. ") + BB_AVOID),
    (None, "rhythm_and_kidney_assessed", "Resting ECG: no delta wave. eGFR 58. " + BB_AVOID,
     "Recurrent PSVT; cannot exclude WPW. eGFR 58. " + BB_AVOID),
    (None, "rhythm_and_kidney_assessed", "Resting ECG without pre-excitation. eGFR 58.",
     "Recurrent SVT. Resting ECG normal. eGFR 58."),
    # 3: a daily cap on every plan; propafenone dosed as propafenone, not as flecainide
    (IC_VARIANT, "plan_documented",
     IC_BASE + "Start flecainide 100 mg twice daily. " + IC_AVOID,
     IC_BASE + "Start flecainide 150 mg three times daily. " + IC_AVOID),
    (IC_VARIANT, "plan_documented",
     IC_BASE + "Start propafenone 150 mg three times daily. " + IC_AVOID,
     IC_BASE + "Start propafenone 50 mg twice daily. " + IC_AVOID),
    (IC_VARIANT, "plan_documented",
     IC_BASE + "Start propafenone SR 225 mg twice daily. " + IC_AVOID,
     IC_BASE + "Start flecainide 225 mg three times daily. " + IC_AVOID),
    (CCB_VARIANT, "plan_documented",
     CCB_BASE + "Start verapamil ER 180 mg once daily. " + CCB_AVOID,
     CCB_BASE + "Start verapamil 240 mg three times daily. " + CCB_AVOID),
    (CCB_VARIANT, "plan_documented",
     CCB_BASE + "Start diltiazem 30 mg four times daily. " + CCB_AVOID,
     CCB_BASE + "Start diltiazem 360 mg twice daily. " + CCB_AVOID),
    # 4: starting doses, and each metoprolol formulation on its own schedule
    (None, "plan_documented", BB_BASE + "Start metoprolol tartrate 25 mg twice daily. " + BB_AVOID,
     BB_BASE + "Start metoprolol tartrate 100 mg twice daily. " + BB_AVOID),
    (None, "plan_documented", BB_BASE + "Start metoprolol succinate 100 mg once daily. " + BB_AVOID,
     BB_BASE + "Start metoprolol succinate 200 mg once daily. " + BB_AVOID),
    (None, "plan_documented", BB_BASE + "Start metoprolol succinate 25 mg once daily. " + BB_AVOID,
     BB_BASE + "Start metoprolol tartrate 25 mg once daily. " + BB_AVOID),
    # 6: follow-up in 2-12 weeks in the note; 'EP referral' is an order
    (None, "followup_documented", "I have booked her into cardiology clinic on June 23, 2026.",
     "I have booked a cardiology review in six months, in November 2026."),
    (None, "followup_documented", "Cardiology follow-up in 6 weeks.",
     "No routine cardiology follow-up needed; she can return as needed."),
    (IC_VARIANT, "plan_documented",
     IC_BASE.replace("Refer to EP for ablation.", "Urgent EP referral.")
     + "Start flecainide 50 mg twice daily. " + IC_AVOID,
     IC_BASE.replace("Refer to EP for ablation.", "EP referral not needed.")
     + "Start flecainide 50 mg twice daily. " + IC_AVOID),
    # 7: other Table 7 beta blockers at their starting doses
    (None, "plan_documented", BB_BASE + "Start nadolol 40 mg once daily. " + BB_AVOID,
     BB_BASE + "Start nadolol 160 mg once daily. " + BB_AVOID),
    (None, "plan_documented", BB_BASE + "Start propranolol LA 80 mg once daily. " + BB_AVOID,
     BB_BASE + "Start propranolol LA 160 mg once daily. " + BB_AVOID),
]


@pytest.mark.parametrize(("variant", "checkpoint", "good", "bad"), TWINS)
def test_review_twins(variant, checkpoint, good, bad):
    assert grade_note(TASK, good, variant)[checkpoint] is True, good
    assert grade_note(TASK, bad, variant)[checkpoint] is False, bad


def _oracle_actions(variant=None, drop=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls if c.tool not in drop]
    return calls + list(extra)


def _rx(code, mg, per_day):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "oral", "frequency": per_day, "period_unit": "day"}}


def _sr(code, system, category, **extra):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category, **extra}}


def _orders_pass(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


RX = "fhir_medication_request_create"


def test_starting_dose_orders():
    """Finding 4: maintenance or maximal doses are not starting doses."""
    drop = (RX,)
    assert _orders_pass(_oracle_actions(drop=drop, extra=[_rx("866427", 50, 1)]))[
        "suppressive_drug_ordered"]
    assert not _orders_pass(_oracle_actions(drop=drop, extra=[_rx("866427", 200, 1)]))[
        "suppressive_drug_ordered"]
    assert _orders_pass(_oracle_actions(drop=drop, extra=[_rx("866924", 25, 2)]))[
        "suppressive_drug_ordered"]
    assert not _orders_pass(_oracle_actions(drop=drop, extra=[_rx("866924", 100, 2)]))[
        "suppressive_drug_ordered"]
    assert _orders_pass(_oracle_actions(CCB_VARIANT, drop=drop, extra=[_rx("897640", 180, 1)]),
                        CCB_VARIANT)["suppressive_drug_ordered"]
    assert not _orders_pass(_oracle_actions(CCB_VARIANT, drop=drop, extra=[_rx("897640", 240, 2)]),
                            CCB_VARIANT)["suppressive_drug_ordered"]


def test_one_drug_per_class():
    """Finding 5: two beta blockers or two calcium channel blockers at once fail."""
    assert _orders_pass(_oracle_actions())["suppressive_drug_ordered"]
    assert not _orders_pass(_oracle_actions(extra=[_rx("866924", 25, 2)]))[
        "suppressive_drug_ordered"]
    assert _orders_pass(_oracle_actions(CCB_VARIANT), CCB_VARIANT)["suppressive_drug_ordered"]
    assert not _orders_pass(_oracle_actions(CCB_VARIANT, extra=[_rx("897640", 120, 1)]),
                            CCB_VARIANT)["suppressive_drug_ordered"]


def test_followup_as_an_order():
    """Finding 6: a dated follow-up order counts like an appointment; months away does not."""
    drop = ("fhir_appointment_create",)
    in_6_weeks = _sr("183519002", "snomed", "referral", display="Cardiology follow-up visit",
                     occurrence="2026-06-23T10:00:00Z")
    in_6_months = _sr("183519002", "snomed", "referral", display="Cardiology follow-up visit",
                      occurrence="2026-11-12T10:00:00Z")
    assert _orders_pass(_oracle_actions(drop=drop, extra=[in_6_weeks]))["monitoring_ordered"]
    assert not _orders_pass(_oracle_actions(drop=drop, extra=[in_6_months]))["monitoring_ordered"]
    assert not _orders_pass(_oracle_actions(drop=drop))["monitoring_ordered"]


def test_ep_referral_and_ecg_wording():
    """Finding 6: 'EP' as a word, the performer specialty, and a LOINC-coded ECG count."""
    drop = ("fhir_service_request_create",)
    ecg_loinc = _sr("11524-6", "loinc", "procedure", display="EKG study")
    ep_consult = _sr("183519002", "snomed", "referral", display="Cardiac EP consult - WPW")
    by_specialty = _sr("183519002", "snomed", "referral", display="Referral",
                       specialty="cardiac electrophysiology")
    cardiology_only = _sr("183519002", "snomed", "referral",
                          display="Cardiology referral for episodes")
    v = IC_VARIANT
    assert _orders_pass(_oracle_actions(v, drop=drop, extra=[ep_consult, ecg_loinc]),
                        v)["monitoring_ordered"]
    assert _orders_pass(_oracle_actions(v, drop=drop, extra=[by_specialty, ecg_loinc]),
                        v)["monitoring_ordered"]
    assert not _orders_pass(_oracle_actions(v, drop=drop, extra=[cardiology_only, ecg_loinc]),
                            v)["monitoring_ordered"]
    assert not _orders_pass(_oracle_actions(v, drop=drop, extra=[ep_consult]),
                            v)["monitoring_ordered"]
