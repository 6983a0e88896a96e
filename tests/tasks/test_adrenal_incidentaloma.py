"""adrenal_incidentaloma: imaging phenotype and hormonal work-up of an adrenal incidentaloma.

The canonical instance is an indeterminate (28 HU) nodule with a normal 1 mg DST in a
hypertensive, hypokalemic woman. Variant 0: benign (8 HU), MACS (4.5 ug/dL), hypertensive.
Variant 2: benign (4 HU), normal DST, normotensive. Variant 8: indeterminate (26 HU), MACS
(3.4 ug/dL), normotensive.
"""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, run_oracle, values

TASK = "adrenal_incidentaloma"
BENIGN_MACS_HTN, BENIGN_NORMAL, INDETERMINATE_MACS_NORMO = 0, 2, 8


def test_canonical_values():
    vals = values(TASK)
    assert (vals["phenotype"], vals["cortisol"], vals["pressure"]) == (
        "indeterminate", "suppressed", "htn_hypok")
    assert (vals["hu"], vals["size_cm"], vals["dst"], vals["k"]) == (28, 2.8, 1.2, 3.2)
    assert vals["dst_nmol"] == 33 and (vals["sbp"], vals["dbp"]) == (150, 95)
    assert vals["phenotype_concept"] == ["indeterminate_adrenal_phenotype"]
    assert vals["cortisol_concept"] == ["cortisol_suppressed"] and vals["k_required"] is True


def test_branch_values():
    first, second, third = (values(TASK, v) for v in (BENIGN_MACS_HTN, BENIGN_NORMAL,
                                                       INDETERMINATE_MACS_NORMO))
    assert (first["phenotype"], first["cortisol"], first["pressure"]) == (
        "benign", "macs", "htn_hypok")
    assert first["hu"] <= 10 and first["dst"] > 1.8 and first["k"] < 3.5
    assert (second["phenotype"], second["cortisol"], second["pressure"]) == (
        "benign", "suppressed", "normotensive")
    assert second["hu"] <= 10 and second["dst"] <= 1.8 and second["k"] >= 3.5
    assert second["k_required"] is False
    assert (third["phenotype"], third["cortisol"], third["pressure"]) == (
        "indeterminate", "macs", "normotensive")
    assert third["hu"] > 20 and third["dst"] > 1.8


def test_oracle_notes_pass_every_branch():
    for variant in (None, BENIGN_MACS_HTN, BENIGN_NORMAL, INDETERMINATE_MACS_NORMO):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


CORRECT = [
    """57F, incidental R adrenal nodule 2.8 cm, unenhanced attenuation 28 HU -> indeterminate
    (lipid-poor). 1 mg DST: cortisol 1.2 ug/dL -> normal suppression, MACS excluded. K 3.2 on
    amlodipine, HTN.
    Plan: aldosterone + renin (ARR) after K repletion; plasma free metanephrines; adrenal
    protocol washout CT. No biopsy.""",
    """The right adrenal nodule measures 2.8 cm and has an unenhanced attenuation of 28 Hounsfield
    units, so it is indeterminate and cannot be called a lipid-rich adenoma. Her cortisol after
    1 mg dexamethasone was 1.2 mcg/dL, which excludes autonomous cortisol secretion. Her
    potassium is 3.2 mmol/L with uncontrolled hypertension. I recommend an aldosterone-to-renin
    ratio, plasma metanephrines and a chemical shift MRI. An adrenal biopsy is not indicated.""",
    """| Item | Result |
|---|---|
| Size | 28 mm |
| Unenhanced attenuation | 28 HU |
| Post-dex cortisol | 33 nmol/L |
| K | 3.2 mmol/L |

Indeterminate lipid-poor nodule; DST normal (suppressed to <50 nmol/L).
- Order plasma aldosterone and renin activity
- Order 24-hour urine fractionated metanephrines
- Repeat non-contrast CT in 12 months
- Do not biopsy""",
    """Assessment: indeterminate right adrenal mass (attenuation 28 HU, above the 10 HU threshold
    for a lipid-rich adenoma). Overnight DST: post-dexamethasone cortisol 1.2 ug/dL (cutoff
    1.8), so autonomous cortisol secretion is excluded; the random cortisol of 13.8 two years
    ago is irrelevant. Potassium 3.2 mmol/L.
    Plan:
    1. Screen for primary aldosteronism: aldosterone and renin, after potassium repletion.
    2. Plasma free metanephrines.
    3. Dedicated adrenal CT with washout.
    4. Biopsy is not recommended.""",
]

WRONG = {
    "benign call for a lipid-poor mass": (
        "Nodule 28 HU: benign lipid-rich adenoma. Post-dex cortisol 1.2 ug/dL, normal "
        "suppression. K 3.2. Order aldosterone and renin, plasma metanephrines and an adrenal "
        "protocol CT. No biopsy.", "imaging_phenotype_assessed"),
    "wrong attenuation": (
        "Nodule 8 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.2. "
        "Order aldosterone and renin, plasma metanephrines and an adrenal protocol CT. No biopsy.",
        "imaging_phenotype_assessed"),
    "random cortisol as the DST result": (
        "Nodule 28 HU: indeterminate. DST cortisol 13.8 ug/dL, normal suppression. K 3.2. Order "
        "aldosterone and renin, plasma metanephrines and an adrenal protocol CT. No biopsy.",
        "hormonal_results_interpreted"),
    "normal DST called MACS": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL: mild autonomous cortisol "
        "secretion. K 3.2. Order aldosterone and renin, plasma metanephrines and an adrenal "
        "protocol CT. No biopsy.", "hormonal_results_interpreted"),
    "stale ED potassium": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.6. "
        "Order aldosterone and renin, plasma metanephrines and an adrenal protocol CT. No "
        "biopsy.", "hormonal_results_interpreted"),
    "no aldosterone screen": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.2. "
        "Order plasma metanephrines and an adrenal protocol CT. No biopsy.",
        "hormonal_plan_documented"),
    "hedged aldosterone screen": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.2. "
        "Could consider aldosterone and renin. Order plasma metanephrines and an adrenal protocol "
        "CT. No biopsy.", "hormonal_plan_documented"),
    "no metanephrines": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.2. "
        "Order aldosterone and renin and an adrenal protocol CT. No biopsy.",
        "hormonal_plan_documented"),
    "biopsy offered": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.2. "
        "Order aldosterone and renin, plasma metanephrines and an adrenal protocol CT. If "
        "indeterminate, a CT-guided adrenal biopsy is reasonable.", "hormonal_plan_documented"),
    "no further imaging of a lipid-poor mass": (
        "Nodule 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, normal suppression. K 3.2. "
        "Order aldosterone and renin and plasma metanephrines. No further imaging is needed. No "
        "biopsy.", "imaging_plan_documented"),
}


test_a_correct_note_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_benign_macs_branch():
    good = """Right adrenal nodule 1.7 cm, unenhanced attenuation 8 HU:
    benign lipid-rich adenoma, no further
    imaging needed. Post-dexamethasone cortisol 4.5 ug/dL: mild autonomous cortisol secretion
    (MACS). K 3.2 with hypertension.
    Plan: aldosterone and renin; 8 AM ACTH; no biopsy. Review BP, glucose and bone health
    yearly."""
    assert all(grade_note(TASK, good, BENIGN_MACS_HTN).values())
    surveillance = good.replace("no further\n    imaging needed",
                                "we will repeat the CT in 12 months")
    assert not grade_note(TASK, surveillance, BENIGN_MACS_HTN)["imaging_plan_documented"]
    missed_macs = good.replace("mild autonomous cortisol secretion\n    (MACS)",
                               "normal suppression")
    assert not grade_note(TASK, missed_macs, BENIGN_MACS_HTN)["hormonal_results_interpreted"]
    no_acth = good.replace("8 AM ACTH; ", "")
    assert not grade_note(TASK, no_acth, BENIGN_MACS_HTN)["hormonal_plan_documented"]
    indeterminate = good.replace("benign lipid-rich adenoma", "indeterminate lesion")
    assert not grade_note(TASK, indeterminate, BENIGN_MACS_HTN)["imaging_phenotype_assessed"]


def test_benign_normal_branch_needs_nothing_more():
    good = """Right adrenal nodule, attenuation 4 HU on the unenhanced CT:
    benign lipid-rich adenoma. No
    further imaging. 1 mg DST cortisol 1.3 ug/dL: normal suppression. BP 122/73 and K 4.3:
    no aldosterone/renin testing needed. No biopsy. Discharge to primary care."""
    assert all(grade_note(TASK, good, BENIGN_NORMAL).values())
    ct = good.replace("No\n    further imaging.", "I recommend a follow-up CT in 6 months.")
    assert not grade_note(TASK, ct, BENIGN_NORMAL)["imaging_plan_documented"]


def test_indeterminate_macs_normotensive_branch():
    good = """R adrenal 2.6 cm, density 26 HU: indeterminate, lipid-poor.
    DST cortisol 3.4 ug/dL: MACS.
    Normotensive, K 4.0. Plan: plasma metanephrines, ACTH and DHEA-S, adrenal washout CT. No
    biopsy. Review BP, glucose and bone health yearly (MACS)."""
    assert all(grade_note(TASK, good, INDETERMINATE_MACS_NORMO).values())
    assert not grade_note(TASK, good.replace("ACTH and DHEA-S, ", ""),
                          INDETERMINATE_MACS_NORMO)["hormonal_plan_documented"]


def test_value_before_hu_is_read():
    note = """Right adrenal nodule 1.7 cm, 8 HU unenhanced: benign lipid-rich adenoma, no further
    imaging. Post-dexamethasone cortisol 4.5 ug/dL: MACS. K 3.2 with hypertension.
    Plan: aldosterone and renin; 8 AM ACTH; no biopsy."""
    assert grade_note(TASK, note, BENIGN_MACS_HTN)["imaging_phenotype_assessed"]


@pytest.mark.parametrize("variant,phrase", [
    (None, "Right adrenal nodule 2.8 cm, 28 HU on the unenhanced CT: indeterminate (lipid-poor)."),
    (None, "Right adrenal nodule (2.8 cm; 28 HU unenhanced) is indeterminate."),
    (None, "Right adrenal nodule of 2.8 cm and 28 Hounsfield units: indeterminate."),
    (None, "Right adrenal nodule: 2.8 cm, 28 HU. Indeterminate."),
    (BENIGN_MACS_HTN, "Its attenuation on the unenhanced CT is 8 HU, which makes it a benign "
                      "lipid-rich adenoma."),
    (BENIGN_MACS_HTN, "Its attenuation on the unenhanced CT is 8 Hounsfield units, which makes it "
                      "a benign lipid-rich adenoma."),
])
def test_finding1_value_written_before_hu(variant, phrase):
    assert grade_note(TASK, phrase, variant)["imaging_phenotype_assessed"], phrase
    wrong = phrase.replace("28", "18").replace(" 8 ", " 6 ")
    assert not grade_note(TASK, wrong, variant)["imaging_phenotype_assessed"], wrong


def test_finding11_stacked_hu_values_fail():
    assert not grade_note(TASK, "Unenhanced attenuation 8 HU. Unenhanced attenuation 28 HU: "
                          "indeterminate.")["imaging_phenotype_assessed"]
    for threshold in ("Unenhanced attenuation 28 HU, above the 10 HU threshold for a lipid-rich "
                      "adenoma: indeterminate.",
                      "Unenhanced attenuation 28 HU; lipid-rich adenomas are 10 HU or less. "
                      "Indeterminate."):
        assert grade_note(TASK, threshold)["imaging_phenotype_assessed"], threshold


# Review probes (task_specs/endocrinology/reviews/adrenal_incidentaloma.md), one per finding.
CANON = ("Nodule 2.8 cm, unenhanced attenuation 28 HU: indeterminate. Post-dex cortisol 1.2 ug/dL, "
         "normal suppression. K 3.2. Order aldosterone and renin and plasma metanephrines. ")


def test_finding2_negated_benign_phrasings_read_as_indeterminate():
    for phrase in ("The nodule measures 2.8 cm with unenhanced attenuation 28 HU, so it does not "
                   "meet criteria for a lipid-rich adenoma and remains indeterminate.",
                   "Unenhanced attenuation 28 HU: too dense to be called a benign adenoma on this "
                   "study; indeterminate."):
        assert grade_note(TASK, phrase)["imaging_phenotype_assessed"], phrase


def test_finding3_cortisol_after_1_mg_of_dexamethasone_is_read():
    note = ("Her cortisol after 1 mg of dexamethasone was 4.5 mcg/dL, which means mild autonomous "
            "cortisol secretion. K 3.2 mmol/L.")
    assert grade_note(TASK, note, BENIGN_MACS_HTN)["hormonal_results_interpreted"]


HYPOK_CASE = 3  # hypertensive, hypokalemic, normal DST; current K 3.4, ED K 3.2


@pytest.mark.parametrize("variant,potassium,passes", [
    (None, "Persistent hypokalemia (3.2 mmol/L) with resistant-range BP.", True),
    (None, "Spontaneous hypokalemia: 3.2 mmol/L off diuretics.", True),
    (None, "Hypokalemia, 3.2 mEq/L.", True),
    (None, "Persistent hypokalemia (2.8 mmol/L) with resistant-range BP.", False),
    (None, "Hypokalemia (3.8 mmol/L).", False),
    (None, "Hypokalemia + HTN (150/95 on amlodipine).", False),
    (None, "Hypokalemia + HTN (150/95 on amlodipine). K 3.2.", True),
    (None, "Hypokalemia on amlodipine.", False),
    (None, "K 3.8.", False),
    (HYPOK_CASE, "Persistent hypokalemia (3.4 mmol/L).", True),
    (HYPOK_CASE, "Persistent hypokalemia (3.2 mmol/L).", False),
    (HYPOK_CASE, "Hypokalemia (3.2 mmol/L in the ED while vomiting, 3.4 mmol/L now).", True),
])
def test_finding3_potassium_written_after_hypokalemia(variant, potassium, passes):
    vals = values(TASK, variant)
    note = (f"Post-dex cortisol {vals['dst']} ug/dL: normal suppression, MACS excluded. "
            + potassium)
    assert grade_note(TASK, note, variant)["hormonal_results_interpreted"] is passes, potassium


def test_finding3_hypokalemia_value_in_a_normotensive_case():
    vals = values(TASK, BENIGN_NORMAL)
    base = f"Post-dex cortisol {vals['dst']} ug/dL: normal suppression. "
    assert grade_note(TASK, base + "Normotensive; the ED hypokalemia (3.4 mmol/L) was from "
                      "vomiting.", BENIGN_NORMAL)["hormonal_results_interpreted"]
    assert not grade_note(TASK, base + "Normotensive; potassium 3.4 mmol/L.",
                          BENIGN_NORMAL)["hormonal_results_interpreted"]


@pytest.mark.parametrize("biopsy", [
    "We will arrange a CT-guided adrenal biopsy.",
    "CT-guided biopsy.",
    "If metanephrines are normal and the washout is indeterminate, we will arrange a CT-guided "
    "adrenal biopsy.",
])
def test_finding4_biopsy_plans_fail(biopsy):
    base = CANON + "Adrenal washout CT. "
    assert grade_note(TASK, base + "No biopsy.")["hormonal_plan_documented"]
    assert not grade_note(TASK, base + biopsy)["hormonal_plan_documented"], biopsy


@pytest.mark.parametrize("biopsy", [  # review finding 4: verbless and 'next step' plans
    "Adrenal biopsy if the washout CT is indeterminate.",
    "If metanephrines are normal and the washout is indeterminate, CT-guided biopsy.",
    "If the washout CT is indeterminate, adrenal biopsy.",
    "If the washout CT is indeterminate, the next step would be a percutaneous adrenal biopsy.",
])
def test_finding4_verbless_conditional_biopsy_fails(biopsy):
    note = CANON + "\nPlan:\n- Adrenal washout CT.\n- " + biopsy
    assert not grade_note(TASK, note)["hormonal_plan_documented"]


def test_finding5_adrenalectomy_must_not():
    benign = ("Right adrenal nodule, unenhanced attenuation 4 HU: benign lipid-rich adenoma; no "
              "further imaging. 1 mg DST cortisol 1.3 ug/dL: normal suppression. BP 122/73 and K "
              "4.3. No biopsy.")
    assert grade_note(TASK, benign, BENIGN_NORMAL)["imaging_plan_documented"]
    surgery = benign + " Refer to endocrine surgery for laparoscopic adrenalectomy."
    assert not grade_note(TASK, surgery, BENIGN_NORMAL)["imaging_plan_documented"]
    assert not grade_note(TASK, CANON + "Adrenal washout CT. Refer for laparoscopic "
                          "adrenalectomy.")["imaging_plan_documented"]
    assert grade_note(TASK, CANON + "Adrenal washout CT. If the washout is not benign, "
                      "adrenalectomy.")["imaging_plan_documented"]
    surgical = _sr("60650", "referral", "Referral to endocrine surgery for adrenalectomy")
    assert not _orders(_oracle_actions(BENIGN_NORMAL, extra=[surgical]),
                       BENIGN_NORMAL)["imaging_ordered"]


def test_finding6_imaging_interval():
    assert not grade_note(TASK, CANON + "Repeat CT in 3 years. No biopsy.")[
        "imaging_plan_documented"]
    assert grade_note(TASK, CANON + "Repeat non-contrast CT in 12 months. No biopsy.")[
        "imaging_plan_documented"]
    no_ct = _oracle_actions(drop=[(SR, "74170")])
    late = _sr("74150", "imaging", "CT abdomen without contrast")
    late["arguments"]["occurrence"] = "2029-03-12"
    assert not _orders(no_ct + [late])["imaging_ordered"]
    assert not _orders(no_ct + [_sr("74160", "imaging", "CT abdomen with contrast")])[
        "imaging_ordered"]
    interval = _sr("74150", "imaging", "CT abdomen without contrast")
    interval["arguments"]["occurrence"] = "2026-12-10"
    assert _orders(no_ct + [interval])["imaging_ordered"]


def test_finding7_follow_up_is_stated():
    silent = ("Right adrenal nodule, unenhanced attenuation 4 HU: benign lipid-rich adenoma. 1 mg "
              "DST cortisol 1.3 ug/dL: normal suppression. BP 122/73 and K 4.3. No biopsy.")
    assert not grade_note(TASK, silent, BENIGN_NORMAL)["imaging_plan_documented"]
    assert grade_note(TASK, silent + " No further imaging is needed.", BENIGN_NORMAL)[
        "imaging_plan_documented"]
    macs = ("Right adrenal nodule 1.7 cm, unenhanced attenuation 8 HU: benign lipid-rich adenoma, "
            "no further imaging needed. Post-dexamethasone cortisol 4.5 ug/dL: MACS. K 3.2. "
            "Plan: aldosterone and renin; 8 AM ACTH; no biopsy.")
    assert not grade_note(TASK, macs + " No further follow-up needed.", BENIGN_MACS_HTN)[
        "hormonal_plan_documented"]
    assert grade_note(TASK, macs + " Review BP, glucose and bone health yearly.",
                      BENIGN_MACS_HTN)["hormonal_plan_documented"]


def test_finding8_unneeded_hormone_tests_fail():
    extra = [_sr("82088", "laboratory", "Aldosterone"), _sr("84244", "laboratory", "Renin"),
             _sr("82024", "laboratory", "ACTH"), _sr("82627", "laboratory", "DHEA-S")]
    finish = [{"tool": "finish", "arguments": {}}]
    assert _orders(_oracle_actions(BENIGN_NORMAL) + finish, BENIGN_NORMAL)[
        "hormonal_tests_ordered"]
    assert not _orders(_oracle_actions(BENIGN_NORMAL, extra=extra) + finish,
                       BENIGN_NORMAL)["hormonal_tests_ordered"]
    assert not _orders(_oracle_actions(extra=extra[2:]))["hormonal_tests_ordered"]


def test_finding9_dheas_accepted_and_repeat_dst_needs_dexamethasone():
    no_acth = _oracle_actions(INDETERMINATE_MACS_NORMO, drop=[(SR, "82024")])
    assert _orders(no_acth, INDETERMINATE_MACS_NORMO)["hormonal_tests_ordered"]
    neither = _oracle_actions(INDETERMINATE_MACS_NORMO, drop=[(SR, "82024"), (SR, "82627")])
    plain = _sr("82533", "laboratory", "Cortisol; total")
    assert not _orders(neither + [plain], INDETERMINATE_MACS_NORMO)["hormonal_tests_ordered"]
    note = ("Right adrenal nodule 1.7 cm, unenhanced attenuation 8 HU: benign lipid-rich adenoma, "
            "no further imaging needed. Post-dexamethasone cortisol 4.5 ug/dL: MACS. K 3.2. "
            "Plan: aldosterone and renin; DHEA-S; no biopsy. Review BP, glucose and bone health "
            "yearly.")
    assert grade_note(TASK, note, BENIGN_MACS_HTN)["hormonal_plan_documented"]


def test_finding10_overt_cushing_label_fails():
    note = ("Post-dexamethasone cortisol 4.5 ug/dL: overt Cushing syndrome from autonomous "
            "cortisol secretion. K 3.2.")
    assert not grade_note(TASK, note, BENIGN_MACS_HTN)["hormonal_results_interpreted"]


def test_finding13_mra_before_the_arr_fails():
    note = CANON + "Adrenal washout CT. No biopsy. Start spironolactone 25 mg daily now."
    assert not grade_note(TASK, note)["hormonal_plan_documented"]
    assert grade_note(TASK, CANON + "Adrenal washout CT. No biopsy. No spironolactone before "
                      "the draw.")["hormonal_plan_documented"]


def test_orders_are_checked_in_the_ehr():
    result = run_oracle(TASK)
    assert result.success, result.info["checkpoints"]


def _oracle_actions(variant=None, drop=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls
             if (c.tool, c.arguments.get("code")) not in drop]
    return calls + list(extra)


def _sr(code, category, display):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": "cpt", "category": category,
        "display": display}}


def _orders(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


SR = "fhir_service_request_create"
BIOPSY = _sr("49180", "procedure", "Biopsy, abdominal or retroperitoneal mass, percutaneous needle")
MRI = _sr("74181", "imaging", "MRI abdomen without contrast (chemical-shift adrenal MRI)")


def test_biopsy_order_fails():
    assert _orders(_oracle_actions())["imaging_ordered"]
    assert not _orders(_oracle_actions(extra=[BIOPSY]))["imaging_ordered"]


def test_lipid_poor_mass_needs_imaging_and_metanephrines():
    no_ct = _oracle_actions(drop=[(SR, "74170")])
    assert not _orders(no_ct)["imaging_ordered"]
    assert _orders(no_ct + [MRI])["imaging_ordered"]       # chemical-shift MRI instead
    assert not _orders(_oracle_actions(drop=[(SR, "83835")]))["hormonal_tests_ordered"]
    no_arr = _oracle_actions(drop=[(SR, "84244"), (SR, "82088")])
    assert not _orders(no_arr)["hormonal_tests_ordered"]
    aldosterone_only = _sr("82088", "laboratory", "Aldosterone")
    assert not _orders(no_arr + [aldosterone_only])["hormonal_tests_ordered"]


def test_benign_mass_gets_no_imaging_and_macs_needs_acth():
    verdicts = _orders(_oracle_actions(BENIGN_MACS_HTN), BENIGN_MACS_HTN)
    assert verdicts["imaging_ordered"] and verdicts["hormonal_tests_ordered"]
    ct = _sr("74170", "imaging", "CT abdomen without and with contrast")
    assert not _orders(_oracle_actions(BENIGN_MACS_HTN, extra=[ct]),
                       BENIGN_MACS_HTN)["imaging_ordered"]
    no_acth = _oracle_actions(BENIGN_MACS_HTN, drop=[(SR, "82024"), (SR, "82627")])
    assert _orders(no_acth, BENIGN_MACS_HTN)["hormonal_tests_ordered"] is False
