"""afib_tachy_brady_elderly: the derived apixaban dose and rhythm branch, and the note and order
phrasings its checkpoints must judge (pacemaker, nocturnal pauses, digoxin effect)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "afib_tachy_brady_elderly"
# Seeds of each branch: (rhythm, apixaban mg)
PACE_25 = 2          # pace, weight 55 kg -> 2.5 mg
NOCT_25 = 0          # nocturnal, weight 57 kg and creatinine 1.56 -> 2.5 mg
NOCT_5 = 10          # nocturnal, 5 mg
DRUG_5 = 7           # digoxin effect, 5 mg
DRUG_25 = 8          # digoxin effect, weight 58 kg -> 2.5 mg


def test_canonical_values():
    vals = values(TASK)
    assert vals["rhythm"] == {"kind": "pace"}
    assert (vals["pause_s"], vals["weight_kg"], vals["creatinine"]) == (4.8, 64, 1.21)
    assert vals["cha2ds2vasc"] == 4
    assert (vals["apixaban_mg"], vals["apixaban_code"], vals["criteria_count"]) == (
        5.0, "1364445", 1)
    assert vals["prior_weight_kg"] == 70 and vals["egfr"] == 45


def test_branches_draw_their_answers():
    assert (values(TASK, PACE_25)["rhythm"]["kind"], values(TASK, PACE_25)["apixaban_mg"]) == (
        "pace", 2.5)
    assert (values(TASK, NOCT_25)["rhythm"]["kind"], values(TASK, NOCT_25)["apixaban_mg"]) == (
        "nocturnal", 2.5)
    assert (values(TASK, NOCT_5)["rhythm"]["kind"], values(TASK, NOCT_5)["apixaban_mg"]) == (
        "nocturnal", 5.0)
    assert (values(TASK, DRUG_5)["rhythm"]["kind"], values(TASK, DRUG_5)["apixaban_mg"]) == (
        "drug", 5.0)
    assert (values(TASK, DRUG_25)["rhythm"]["kind"], values(TASK, DRUG_25)["apixaban_mg"]) == (
        "drug", 2.5)
    kinds = {values(TASK, n)["rhythm"]["kind"] for n in range(20)}
    doses = {values(TASK, n)["apixaban_mg"] for n in range(20)}
    assert kinds == {"pace", "nocturnal", "drug"} and doses == {2.5, 5.0}


def _v(n):
    return values(TASK, n)


def _pace(n=None, extra=""):
    v = _v(n)
    return (f"Holter: paroxysmal AF; {v['pause_count']} pauses over 3 s at AF termination while "
            f"awake, longest pause {v['pause_s']} s, matching her dizziness.\n"
            "Assessment: symptomatic tachy-brady syndrome (sinus node dysfunction).\n"
            f"CHA2DS2-VASc 4. Weight {v['weight_kg']} kg, creatinine {v['creatinine']} mg/dL.\n"
            "Plan:\n1. Refer to electrophysiology for a dual-chamber permanent pacemaker.\n"
            "2. Continue metoprolol succinate 50 mg daily; no digoxin or diltiazem until paced.\n"
            f"3. Restart apixaban {v['apixaban_mg']:g} mg twice daily.\n" + extra)


def _noct(n=NOCT_25, extra=""):
    v = _v(n)
    return (f"Holter: the pauses occur only during sleep and are asymptomatic; longest pause "
            f"{v['pause_s']} s at 03:14. Palpitations match AF with RVR.\n"
            f"CHA2DS2-VASc 4. Weight {v['weight_kg']} kg, creatinine {v['creatinine']} mg/dL.\n"
            "Plan:\n1. No pacemaker is indicated.\n"
            "2. Increase metoprolol succinate to 100 mg daily.\n"
            "3. Home sleep apnea test.\n"
            f"4. Restart apixaban {v['apixaban_mg']:g} mg twice daily.\n" + extra)


def _drug(n=DRUG_5, extra=""):
    v = _v(n)
    return (f"Holter: slow AF with pauses, longest pause {v['pause_s']} s while awake with "
            f"dizziness. Digoxin level is {v['digoxin_level']} ng/mL: digoxin toxicity.\n"
            f"CHA2DS2-VASc 4. Weight {v['weight_kg']} kg, creatinine {v['creatinine']} mg/dL.\n"
            "Plan:\n1. Stop digoxin.\n2. Repeat Holter in 2 weeks off digoxin.\n"
            "3. No pacemaker now; reconsider only if bradycardia persists off digoxin.\n"
            f"4. Restart apixaban {v['apixaban_mg']:g} mg twice daily.\n" + extra)


CORRECT = [
    (None, _pace()),
    (PACE_25, _pace(PACE_25)),
    (None, """# Impression
Sick sinus syndrome with paroxysmal AF (tachy-brady). Longest post-conversion pause 4.8-second at
10:47, symptomatic.
| Item | Value |
|---|---|
| CHA2DS2-VASc | 4 |
| Weight | 64 kg |
| Creatinine | 1.21 mg/dL |
# Recommendations
- Permanent pacemaker referral placed (dual chamber).
- Apixaban 5 mg PO BID - resume today.
- Do not uptitrate metoprolol until the pacemaker is in."""),
    (NOCT_25, _noct()),
    (NOCT_5, _noct(NOCT_5)),
    (NOCT_25, """Her pauses (longest 4.2 seconds) were nocturnal and she had no symptoms with them;
this is not a pacing indication. Daytime AF at rates to 156 explains the palpitations.
CHA2DS2-VASc score 4. Current weight 57 kg and creatinine 1.56 mg/dL with age 81 meet three
criteria, so I restarted apixaban 2.5 mg twice daily. I increased metoprolol succinate to
100 mg once daily and ordered a home sleep apnea test."""),
    (DRUG_5, _drug()),
    (DRUG_25, _drug(DRUG_25)),
    (NOCT_5,
     """Nocturnal sinus pauses of up to 5.5 s while asleep; none symptomatic. Palpitations are
daytime AF with RVR. CHA2DS2-VASc 4. Weight 66 kg, creatinine 1.2 mg/dL.
Plan:
- Metoprolol succinate: increase from 50 to 100 mg once daily.
- Polysomnography ordered.
- No pacemaker; only if symptoms later correlate with bradycardia.
- Resume apixaban 5 mg twice daily."""),
    (None, """Holter: 5 pauses longer than 3 seconds, longest pause 4.8 s, all while awake at AF
offset with dizziness: symptomatic tachy-brady syndrome.
CHA2DS2-VASc 4. Wt 64 kg, Cr 1.21. Apixaban 5 mg twice daily restarted: she meets only the age
criterion.
Plan:
- Refer for permanent pacemaker.
- Continue metoprolol 50 mg daily; after the pacemaker, metoprolol can be increased."""),
    (DRUG_5, """Digoxin level: 2.9 ng/mL. Drug-induced bradycardia; longest pause 5.1 s.
CHA2DS2-VASc 4. Weight 61 kg, creatinine 1.37 mg/dL.
Plan:
1. Stop digoxin; do not restart it.
2. Repeat 48-hour Holter in 2 weeks.
3. A pacemaker is not indicated now.
4. Apixaban 5 mg BID."""),
]

WRONG = [
    # canonical: the age-only reduced dose kept
    (None, "apixaban_dose_reasoned", _pace().replace("apixaban 5 mg", "apixaban 2.5 mg")),
    # anticoagulation left off because of the fall
    (None, "apixaban_dose_reasoned",
     _pace().replace("3. Restart apixaban 5 mg twice daily.",
                     "3. Keep apixaban on hold given her falls; aspirin 81 mg daily instead.")),
    # stale creatinine (pneumonia AKI) and stale weight
    (None, "apixaban_dose_reasoned", _pace().replace("creatinine 1.21", "creatinine 1.74")),
    (None, "apixaban_dose_reasoned", _pace().replace("Weight 64 kg", "Weight 70 kg")),
    # CHA2DS2-VASc without hypertension
    (None, "cha2ds2_vasc_scored", _pace().replace("CHA2DS2-VASc 4", "CHA2DS2-VASc 3")),
    # wrong pause length (the old Holter's 2.0 s)
    (None, "holter_interpreted", _pace().replace("longest pause 4.8 s", "longest pause 2.0 s")),
    # pace: pauses read as sleep-related, no pacing
    (None, "holter_interpreted",
     _pace().replace("Assessment: symptomatic tachy-brady syndrome (sinus node dysfunction).",
                     "Assessment: nocturnal pauses, not significant.")),
    # pace: pacemaker only offered
    (None, "rhythm_plan_documented",
     _pace().replace("1. Refer to electrophysiology for a dual-chamber permanent pacemaker.",
                     "1. A pacemaker could be considered in the future.")),
    # pace: digoxin added before pacing
    (None, "rhythm_plan_documented",
     _pace().replace("no digoxin or diltiazem until paced", "add digoxin 0.125 mg daily")),
    # pace: beta blocker raised before pacing
    (None, "rhythm_plan_documented",
     _pace().replace("Continue metoprolol succinate 50 mg daily; no digoxin or diltiazem until "
                     "paced.", "Increase metoprolol succinate to 100 mg daily.")),
    # nocturnal: a pacemaker for sleep pauses
    (NOCT_25, "rhythm_plan_documented",
     _noct().replace("1. No pacemaker is indicated.", "1. Refer for a permanent pacemaker.")),
    # nocturnal: pauses called symptomatic
    (NOCT_25, "holter_interpreted",
     _noct().replace("the pauses occur only during sleep and are asymptomatic",
                     "symptomatic pauses")),
    # nocturnal: no rate-control change
    (NOCT_25, "rhythm_plan_documented",
     _noct().replace("2. Increase metoprolol succinate to 100 mg daily.",
                     "2. Continue metoprolol succinate 50 mg daily.")),
    # nocturnal: 5 mg when two criteria are met
    (NOCT_25, "apixaban_dose_reasoned", _noct().replace("apixaban 2.5 mg", "apixaban 5 mg")),
    # drug: digoxin continued at a lower dose
    (DRUG_5, "rhythm_plan_documented",
     _drug().replace("1. Stop digoxin.", "1. Reduce digoxin to 0.125 mg daily.")),
    # drug: pacemaker now
    (DRUG_5, "rhythm_plan_documented",
     _drug().replace("3. No pacemaker now; reconsider only if bradycardia persists off digoxin.",
                     "3. Refer for a permanent pacemaker now.")),
    # drug: digoxin level not named / read as intrinsic sinus node disease
    (DRUG_5, "holter_interpreted",
     _drug().replace(" Digoxin level is 2.9 ng/mL: digoxin toxicity.", " Sick sinus syndrome.")),
]


test_a_correct_note_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


# Phrasings the note reader once misread, now read right (units in ms, a level without a colon,
# a referral reaching the pacemaker), each beside a wrong value that must still fail.
READER_FIXED_CORRECT = [
    (None, "holter_interpreted", "Tachy-brady syndrome; longest post-conversion pause 4800 ms."),
    (DRUG_5, "holter_interpreted",
     "Longest pause 5.1 s. Digoxin toxicity. Digoxin level 2.9 ng/mL."),
    (None, "rhythm_plan_documented", "Refer to EP for permanent pacemaker implantation."),
]

READER_FIXED_WRONG = [
    (None, "holter_interpreted", "Tachy-brady syndrome; longest post-conversion pause 3200 ms."),
    (DRUG_5, "holter_interpreted",
     "Longest pause 5.1 s. Digoxin toxicity. Digoxin level 1.4 ng/mL."),
    (None, "rhythm_plan_documented", "Do not refer to EP for permanent pacemaker implantation."),
]


@pytest.mark.parametrize(("variant", "target", "note"), READER_FIXED_CORRECT)
def test_reader_fixed_correct(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is True


@pytest.mark.parametrize(("variant", "target", "note"), READER_FIXED_WRONG)
def test_reader_fixed_wrong(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


# Phrasings a physician writes that the note reader misreads today (reported; strict xfail so
# that a reader fix shows up here).
READER_GAPS = [
    # a threshold list before the age: 'creatinine 1.5 mg/dL or more): she is 81' reads
    # creatinine as 81
    (None, "apixaban_dose_reasoned",
     "Restart apixaban 5 mg twice daily. Label criteria (two of age 80 or older, weight 60 kg or "
     "less, creatinine 1.5 mg/dL or more): she is 81, weight 64 kg, creatinine 1.21 mg/dL."),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "target", "note"), READER_GAPS)
def test_reader_gaps(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is True


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    for variant in (PACE_25, NOCT_5, DRUG_5):
        assert not all(grade_note(TASK, canonical, variant).values()), variant


# ---- Orders: the must-nots are checked in the EHR too. ----

def _oracle_actions(variant=None, drop=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls if c.tool not in drop]
    return calls + list(extra)


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


def _rx(code, mg, per_day):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "oral", "frequency": per_day, "period_unit": "day"}}


def _sr(code, system, category, **extra):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category, **extra}}


RX, SR = "fhir_medication_request_create", "fhir_service_request_create"


def test_apixaban_dose_orders():
    pace_orders = [a for a in _oracle_actions() if a["tool"] != RX]
    assert _run(pace_orders + [_rx("1364445", 5, 2)])["apixaban_ordered"]
    assert not _run(pace_orders + [_rx("1364435", 2.5, 2)])["apixaban_ordered"]
    noct = [a for a in _oracle_actions(NOCT_25)
            if not (a["tool"] == RX and "apixaban" in a["arguments"].get("medication_display", ""))]
    assert _run(noct + [_rx("1364435", 2.5, 2)], NOCT_25)["apixaban_ordered"]
    assert not _run(noct + [_rx("1364445", 5, 2)], NOCT_25)["apixaban_ordered"]


def test_pacing_orders():
    no_sr = _oracle_actions(drop=(SR,))
    referral = _sr("183519002", "snomed", "referral",
                   display="Referral to cardiac electrophysiology for permanent pacemaker")
    assert _run(no_sr + [referral])["rhythm_orders_placed"]
    assert not _run(no_sr)["rhythm_orders_placed"]
    # digoxin before pacing fails
    assert not _run(_oracle_actions(extra=[_rx("197604", 0.125, 1)]))["rhythm_orders_placed"]
    # a pacemaker in the nocturnal and digoxin branches fails
    implant = _sr("33208", "cpt", "procedure", display="Dual-chamber pacemaker")
    assert not _run(_oracle_actions(NOCT_25, extra=[implant]), NOCT_25)["rhythm_orders_placed"]
    assert not _run(_oracle_actions(DRUG_5, extra=[referral]), DRUG_5)["rhythm_orders_placed"]


def test_branch_orders():
    assert _run(_oracle_actions(NOCT_25), NOCT_25)["rhythm_orders_placed"]
    assert _run(_oracle_actions(DRUG_5), DRUG_5)["rhythm_orders_placed"]
    # nocturnal: metoprolol tartrate 50 mg twice daily counts; 200 mg succinate does not
    no_metoprolol = [a for a in _oracle_actions(NOCT_25)
                     if not (a["tool"] == RX
                             and "metoprolol" in a["arguments"].get("medication_display", ""))]
    assert _run(no_metoprolol + [_rx("866514", 50, 2)], NOCT_25)["rhythm_orders_placed"]
    assert not _run(no_metoprolol + [_rx("866419", 200, 1)], NOCT_25)["rhythm_orders_placed"]
    # digoxin branch: digoxin re-prescribed fails
    assert not _run(_oracle_actions(DRUG_5, extra=[_rx("197604", 0.125, 1)]), DRUG_5)[
        "rhythm_orders_placed"]


# ---- Review findings (reviews/afib_tachy_brady_elderly.md): each fix pinned. ----

def _pace_plus(line):
    return _pace(extra=f"4. {line}\n")


def _drug_plus(line, n=DRUG_5):
    return _drug(n, extra=f"5. {line}\n")


def _noct_rate(line, n=NOCT_25):
    return _noct(n).replace("2. Increase metoprolol succinate to 100 mg daily.", f"2. {line}")


REVIEW_WRONG = [
    # finding 1: a higher daily beta-blocker dose, another beta blocker or an antiarrhythmic before
    # pacing
    (None, "rhythm_plan_documented",
     _pace_plus("Change metoprolol succinate 50 mg daily to metoprolol tartrate 50 mg twice "
                "daily.")),
    (None, "rhythm_plan_documented", _pace_plus("Metoprolol succinate 50 mg twice daily.")),
    (None, "rhythm_plan_documented",
     _pace_plus("Continue metoprolol succinate 50 mg daily and add atenolol 25 mg daily.")),
    (None, "rhythm_plan_documented",
     _pace_plus("Switch metoprolol to carvedilol 25 mg twice daily.")),
    (None, "rhythm_plan_documented",
     _pace_plus("Start amiodarone 200 mg daily for rhythm control.")),
    (None, "rhythm_plan_documented", _pace_plus("Start flecainide 50 mg twice daily.")),
    (None, "rhythm_plan_documented",
     _pace_plus("Stop metoprolol. Start sotalol 80 mg twice daily.")),
    (None, "rhythm_plan_documented", _pace_plus("Start dronedarone 400 mg twice daily.")),
    # finding 3: digoxin toxicity named in the pace branch is still a wrong reading
    (None, "holter_interpreted",
     _pace().replace("Assessment: symptomatic tachy-brady syndrome (sinus node dysfunction).",
                     "Assessment: symptomatic tachy-brady syndrome; digoxin toxicity.")),
    # finding 4: nocturnal pauses called symptomatic, blamed for the fall, or read as SND
    (NOCT_25, "holter_interpreted",
     "Holter: nocturnal pauses up to 4.2 s, which are symptomatic. Palpitations match AF with "
     "RVR."),
    (NOCT_25, "holter_interpreted", "Holter: nocturnal pauses up to 4.2 s caused her fall."),
    (NOCT_25, "holter_interpreted",
     "Holter: longest pause 4.2 s at 03:14 during sleep, asymptomatic; sick sinus syndrome."),
    # finding 4: drug branch read as sinus node disease too
    (DRUG_5, "holter_interpreted",
     "Longest pause 5.1 s. Digoxin level is 2.9 ng/mL: digoxin toxicity. Also sick sinus "
     "syndrome."),
    # finding 5: more AV-nodal blockade while the digoxin is toxic
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("Increase metoprolol succinate to 100 mg daily.")),
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("Start diltiazem ER 120 mg daily for rate control.")),
    (DRUG_5, "rhythm_plan_documented", _drug_plus("Replace digoxin with diltiazem 120 mg daily.")),
    # finding 8: diltiazem on top of metoprolol, or above 240 mg, still fails
    (NOCT_25, "rhythm_plan_documented",
     _noct_rate("Increase metoprolol succinate to 100 mg daily and add diltiazem ER 120 mg "
                "daily.")),
    (NOCT_25, "rhythm_plan_documented",
     _noct_rate("Continue metoprolol succinate 50 mg daily and add diltiazem ER 120 mg "
                "daily.")),
    (NOCT_25, "rhythm_plan_documented",
     _noct_rate("Stop metoprolol and start diltiazem ER 360 mg daily.")),
    # contrasts of the calibration phrasings: a wrong score, apixaban kept off, the old weight
    (None, "cha2ds2_vasc_scored",
     _pace().replace("CHA2DS2-VASc 4.",
                     "CHA2DS2-VASc = 3 (age >= 75 = 2, hypertension = 1).")),
    (None, "apixaban_dose_reasoned",
     _pace().replace("3. Restart apixaban 5 mg twice daily.",
                     "3. Given the fall, keep it off.")),
    (None, "apixaban_dose_reasoned",
     _pace().replace("Weight 64 kg, creatinine", "She weighs 70 kg; creatinine")),
    (NOCT_25, "rhythm_plan_documented",
     _noct().replace("3. Home sleep apnea test.",
                     "3. Consider a sleep study if OSA is suspected.")),
]

REVIEW_CORRECT = [
    # finding 1: the same daily dose in another form, and rate or rhythm control after pacing
    (None, "rhythm_plan_documented",
     _pace_plus("Switch metoprolol succinate 50 mg daily to metoprolol tartrate 25 mg twice "
                "daily.")),
    (None, "rhythm_plan_documented",
     _pace_plus("Uptitrate metoprolol after the pacemaker is placed.")),
    (None, "rhythm_plan_documented",
     _pace_plus("If AF rates remain fast after the pacemaker, metoprolol can be increased.")),
    (None, "rhythm_plan_documented",
     _pace_plus("If rhythm control is needed after the pacemaker, amiodarone can be started.")),
    # finding 2: 'once paced' is a pacemaker contingency ('paced' in the task lexicon)
    (None, "rhythm_plan_documented",
     _pace_plus("Once paced, add diltiazem if AF rates stay high.")),
    # finding 3: metoprolol named as a contributing drug effect
    (None, "holter_interpreted",
     _pace().replace("Assessment: symptomatic tachy-brady syndrome (sinus node dysfunction).",
                     "Assessment: symptomatic tachy-brady syndrome; metoprolol contributes as a "
                     "drug effect, but it is needed for rate control.")),
    # finding 4: a correct nocturnal reading that denies the wrong ones
    (NOCT_25, "holter_interpreted",
     "Holter: longest pause 4.2 s at 03:14 during sleep, asymptomatic; not sick sinus syndrome. "
     "The pauses did not cause her fall, which was a trip."),
    # finding 5: more rate control once the digoxin is out, on a trigger
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("If AF rates rise after the digoxin has cleared, increase metoprolol.")),
    # finding 6: the antidote, same-day ED evaluation and holding metoprolol
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("Give digoxin immune Fab (DigiFab) given symptomatic pauses.")),
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("Send her to the ED today for telemetry; digoxin-specific antibody fragments if "
                "bradycardia is severe.")),
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("Hold metoprolol until the digoxin has cleared.")),
    # finding 8: a switch from metoprolol to diltiazem ER, and rhythm control added to rate
    # control
    (NOCT_25, "rhythm_plan_documented",
     _noct_rate("Stop metoprolol and start diltiazem ER 180 mg daily for rate control.")),
    (NOCT_25, "rhythm_plan_documented",
     _noct_rate("Switch metoprolol to diltiazem ER 180 mg daily for rate control.")),
    (NOCT_25, "rhythm_plan_documented",
     _noct_rate("Increase metoprolol succinate to 100 mg daily. Refer to EP to discuss AF catheter "
                "ablation.")),
    # finding 9: 'suspected' no longer hedges the sleep-study order
    (NOCT_25, "rhythm_plan_documented",
     _noct().replace("3. Home sleep apnea test.", "3. Order a sleep study for suspected OSA.")),
    # calibration phrasings now read right: '= N' score items, a header 'held since', 'keep it
    # off' denied, 'weighs 64 kg'
    (None, "cha2ds2_vasc_scored",
     _pace().replace("CHA2DS2-VASc 4.", "CHA2DS2-VASc = 4 (age >= 75 = 2, female = 1, "
                     "hypertension = 1).")),
    (None, "apixaban_dose_reasoned", "81F PAF, fall 3/17, apixaban held since.\n" + _pace()),
    (None, "apixaban_dose_reasoned",
     _pace().replace("3. Restart apixaban 5 mg twice daily.",
                     "3. Restart apixaban 5 mg twice daily. The fall isn't a reason to keep it "
                     "off.")),
    (None, "apixaban_dose_reasoned",
     _pace().replace("Weight 64 kg, creatinine", "She weighs 64 kg; creatinine")),
]


@pytest.mark.parametrize(("variant", "target", "note"), REVIEW_WRONG)
def test_review_wrong_notes_fail(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


@pytest.mark.parametrize(("variant", "target", "note"), REVIEW_CORRECT)
def test_review_correct_notes_pass(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is True


def test_the_reference_notes_pass_every_branch():
    for variant in (None, NOCT_25, NOCT_5, DRUG_5, DRUG_25):
        assert all(grade_note(TASK, oracle_note(TASK, variant), variant).values()), variant


# Contingencies of the review's findings 2 and 5 that must pass: a step after pacing, and
# a rate-control step once the digoxin is out.
CONTINGENT_PLANS = [
    (None, "rhythm_plan_documented",
     _pace_plus("Continue metoprolol succinate 50 mg daily; after the pacemaker is implanted, "
                "increase metoprolol to 100 mg daily.")),
    (DRUG_5, "rhythm_plan_documented",
     _drug_plus("Once the digoxin is out, if AF rates rise, increase metoprolol rather than "
                "restarting digoxin.")),
]


@pytest.mark.parametrize(("variant", "target", "note"), CONTINGENT_PLANS)
def test_contingent_plans_pass(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is True


# A negated referral fails the referral.
def test_no_referral_fails():
    note = _pace().replace("1. Refer to electrophysiology for a dual-chamber permanent pacemaker.",
                           "1. No referral to EP for permanent pacemaker implantation.")
    assert grade_note(TASK, note, None)["rhythm_plan_documented"] is False


# Reader misreadings found in review and calibration (reported; strict xfail).
REVIEW_READER_GAPS = [
    # finding 9: a level in parentheses after 'toxicity' is not the digoxin level
    (14, "holter_interpreted",
     f"Holter: AF with slow ventricular response, longest pause {values(TASK, 14)['pause_s']} s "
     f"= digoxin toxicity (level {values(TASK, 14)['digoxin_level']} ng/mL)."),
]

def test_a_suspected_cause_does_not_hedge_a_verbless_test_item():
    """Review finding 9: 'suspected' names the working diagnosis the sleep study is for."""
    note = _noct().replace("3. Home sleep apnea test.",
                           "3. Sleep study for suspected obstructive sleep apnea.")
    assert grade_note(TASK, note, NOCT_25)["rhythm_plan_documented"] is True


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "target", "note"), REVIEW_READER_GAPS)
def test_review_reader_gaps(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is True


# ---- Orders of the review findings. ----

def test_pace_orders_before_pacing():
    """Finding 1: no higher daily metoprolol dose, no other beta blocker, no antiarrhythmic."""
    assert _run(_oracle_actions())["rhythm_orders_placed"]
    assert _run(_oracle_actions(extra=[_rx("866514", 25, 2)]))["rhythm_orders_placed"]
    for extra in (_rx("866514", 50, 2), _rx("866436", 50, 2), _rx("197381", 50, 1),
                  _rx("200033", 25, 2), _rx("886662", 50, 2), _rx("1923426", 80, 2)):
        assert not _run(_oracle_actions(extra=[extra]))["rhythm_orders_placed"], extra


def test_digoxin_branch_av_nodal_orders():
    """Finding 5: no metoprolol increase and no diltiazem while the digoxin is toxic."""
    for extra in (_rx("866412", 100, 1), _rx("830861", 120, 1)):
        assert not _run(_oracle_actions(DRUG_5, extra=[extra]), DRUG_5)["rhythm_orders_placed"]


def test_pacemaker_order_without_referral_category():
    """Finding 7: a pacemaker order in any category fails the nocturnal and digoxin branches."""
    for variant in (NOCT_25, DRUG_5):
        for extra in (_sr("183519002", "snomed", "procedure",
                          display="EP referral for pacemaker evaluation"),
                      _sr("307280005", "snomed", "procedure",
                          display="Implantation of cardiac pacemaker")):
            assert not _run(_oracle_actions(variant, extra=[extra]), variant)[
                "rhythm_orders_placed"], (variant, extra)


def test_nocturnal_diltiazem_switch_orders():
    """Finding 8: diltiazem ER in place of metoprolol passes; on top of the increase it fails."""
    no_metoprolol = [a for a in _oracle_actions(NOCT_25)
                     if not (a["tool"] == RX
                             and "metoprolol" in a["arguments"].get("medication_display", ""))]
    assert _run(no_metoprolol + [_rx("830861", 120, 1)], NOCT_25)["rhythm_orders_placed"]
    assert not _run(_oracle_actions(NOCT_25, extra=[_rx("830861", 120, 1)]), NOCT_25)[
        "rhythm_orders_placed"]
    # finding 11: a second metoprolol succinate 100 mg order (200 mg a day) fails
    assert not _run(_oracle_actions(NOCT_25, extra=[_rx("866412", 100, 2)]), NOCT_25)[
        "rhythm_orders_placed"]


def _message(text):
    return {"tool": "fhir_communication_create_message", "arguments": {
        "patient": "{patient_id}", "recipient": "prac-pcp-03", "text": text}}


def test_message_is_read():
    """Finding 10: the message's decisions are read, not only its keywords."""
    no_msg = _oracle_actions(DRUG_5, drop=("fhir_communication_create_message",))
    assert not _run(no_msg + [_message("Continue digoxin 0.25 mg daily; apixaban restarted.")],
                    DRUG_5)["pcp_message_sent"]
    no_msg = _oracle_actions(drop=("fhir_communication_create_message",))
    assert not _run(no_msg + [_message("Pacemaker referral placed; hold apixaban for now.")])[
        "pcp_message_sent"]
    assert _run(no_msg + [_message("Referred for a permanent pacemaker. Restart apixaban 5 mg "
                                   "twice daily.")])["pcp_message_sent"]
