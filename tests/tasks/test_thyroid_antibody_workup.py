"""thyroid_antibody_workup: thyrotoxicosis whose cause the TSH-receptor antibodies decide.

The canonical instance is Graves disease (free T4 1.76 x ULN: methimazole 10-20 mg a day);
variant 0 is postpartum thyroiditis (TRAb negative, low uptake: no antithyroid drug), variant 14
is Graves disease in the first trimester (propylthiouracil, no methimazole, no radioiodine) and
variant 1 is Graves disease with a free T4 2.46 x ULN (methimazole 30-40 mg a day).
"""

from __future__ import annotations

from tests.tasks.helpers import get_instance, grade_note, note_probes, oracle_note, values

TASK = "thyroid_antibody_workup"
THYROIDITIS, PREGNANT, MARKED = 0, 14, 1


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "graves"
    assert (vals["ft4"], vals["ft4_initial"], vals["ft4_ratio"]) == (3.17, 2.47, 1.76)
    assert (vals["mmi_band"], vals["mmi_lo"], vals["mmi_hi"], vals["mmi_dose"]) == (
        "moderate", 10, 20, 20)
    assert (vals["trab"], vals["trab_flag"], vals["tpo"]) == (10.8, "positive", 197)
    assert (vals["mmi_10_rxnorm"], vals["ptu_50_rxnorm"]) == ("197941", "198175")


def test_branch_values():
    pp, preg, marked = values(TASK, THYROIDITIS), values(TASK, PREGNANT), values(TASK, MARKED)
    assert pp["scenario"]["name"] == "postpartum_thyroiditis" and pp["trab_flag"] == "negative"
    assert pp["ft4_initial"] > pp["ft4"]          # thyroiditis: free T4 already falling
    assert preg["scenario"]["name"] == "pregnant_graves" and preg["trab_flag"] == "positive"
    assert preg["ga_weeks"] <= 10                  # first trimester at the consult
    assert marked["scenario"]["name"] == "graves" and marked["mmi_band"] == "marked"
    assert (marked["mmi_lo"], marked["mmi_hi"]) == (30, 40)
    # the stale first free T4 of the marked variant lies in the moderate band
    assert 1.5 < marked["ft4_initial"] / 1.8 < 2.0
    names = {values(TASK, n)["scenario"]["name"] for n in range(20)}
    assert names == {"graves", "postpartum_thyroiditis", "pregnant_graves"}


def test_near_a_band_edge_both_adjacent_bands_are_accepted():
    for n in range(60):
        vals = values(TASK, n)
        ratio, lo, hi = vals["ft4_ratio"], vals["mmi_lo"], vals["mmi_hi"]
        assert lo <= vals["mmi_dose"] <= hi
        assert (lo, hi) == ((5 if ratio < 1.65 else 10 if ratio < 2.15 else 30),
                            (10 if ratio < 1.35 else 20 if ratio < 1.85 else 40)), (n, ratio)


EDGE_MODERATE, EDGE_MILD = 2, 3   # free T4 2.03 and 1.37 x ULN


def test_a_dose_of_the_adjacent_band_passes_near_an_edge():
    vals = values(TASK, EDGE_MODERATE)
    assert vals["scenario"]["name"] == "graves" and 1.85 <= vals["ft4_ratio"] < 2.15
    note = (f"TRAb {vals['trab']} IU/L positive; free T4 {vals['ft4']} ng/dL. Graves disease. "
            "Start methimazole 20 mg daily. Start propranolol 20 mg tid. CBC with diff and LFTs "
            "now. Free T4 in 4 weeks.")
    assert all(grade_note(TASK, note, EDGE_MODERATE).values())
    assert all(grade_note(TASK, note.replace("20 mg daily", "30 mg daily"), EDGE_MODERATE).values())
    assert not grade_note(TASK, note.replace("20 mg daily", "5 mg daily"),
                          EDGE_MODERATE)["plan_documented"]
    vals = values(TASK, EDGE_MILD)
    assert 1.35 <= vals["ft4_ratio"] < 1.5
    note = (f"TRAb {vals['trab']} IU/L positive; free T4 {vals['ft4']} ng/dL. Graves disease. "
            "Start methimazole 15 mg daily. Start propranolol 20 mg tid. CBC with diff and LFTs "
            "now. Free T4 in 4 weeks.")
    assert all(grade_note(TASK, note, EDGE_MILD).values())
    assert not grade_note(TASK, note.replace("15 mg daily", "30 mg daily"),
                          EDGE_MILD)["plan_documented"]
    split = _oracle_actions(EDGE_MODERATE, drop=(MMI10,), extra=[_rx(MMI10, 20, 1)])
    assert _verdicts(split, EDGE_MODERATE)["treatment_ordered"]


def test_oracle_notes_pass_every_branch():
    for variant in (None, THYROIDITIS, PREGNANT, MARKED):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


def test_the_canonical_note_fails_the_other_branches():
    note = oracle_note(TASK)
    for variant in (THYROIDITIS, PREGNANT, MARKED):
        assert not all(grade_note(TASK, note, variant).values()), variant


# ---- Graves disease (canonical): free T4 3.17 ng/dL, TRAb 10.8 IU/L ----

CORRECT = [
    """Labs: TSH <0.01, FT4 3.17 ng/dL (1.8x ULN), FT3 10 pg/mL, TSI/TRAb 10.8 IU/L (pos), TPO 197.
Imp: Graves' disease.
Rec:
- Methimazole 10 mg PO BID
- Atenolol 25 mg daily for HR 106
- CBC w/ diff + LFTs today, before first dose
- FT4/T3 in 4 wks
- Avoid PTU (hepatotoxicity).""",
    """| Test | Result |
|---|---|
| Free T4 | 40.8 pmol/L ↑ |
| TRAb | 10.8 IU/L — positive |
| TPO Ab | 197 IU/mL |

**Diagnosis:** Graves hyperthyroidism (TRAb positive).

**Plan**
- Methimazole 15 mg once daily
- Propranolol 10 mg three times daily
- Baseline complete blood count with differential and liver function tests
- Recheck free T4 and T3 in 4–6 weeks""",
    """Her TSH-receptor antibodies are positive at 10.8 IU/L, which confirms Graves disease as the
cause; the current free T4 is 3.17 ng/dL, up from 2.47 five weeks ago. I recommend starting
methimazole 20 mg daily. Start metoprolol tartrate 25 mg twice daily as well. Please obtain a CBC
with differential and a hepatic function panel before she begins. We will repeat thyroid
function tests in 4 weeks. I would not use propylthiouracil because of its liver toxicity.""",
]

BASE = "TRAb 10.8 IU/L positive; free T4 3.17 ng/dL. Graves disease. "
PLAN = ("Start methimazole 20 mg daily. Start propranolol 20 mg tid. CBC with diff and LFTs now. "
        "Free T4 in 4 weeks.")
WRONG = {
    "stale free T4 as current": (
        "TRAb 10.8 IU/L positive; free T4 2.47 ng/dL. Graves disease. " + PLAN, "cause_assessed"),
    "TRAb called negative": (
        "TRAb negative; free T4 3.17 ng/dL. Graves disease. " + PLAN, "cause_assessed"),
    "thyroiditis diagnosed": (
        "TRAb 10.8 IU/L positive; free T4 3.17 ng/dL. Painless thyroiditis. Start propranolol "
        "20 mg tid. Free T4 in 4 weeks.", "cause_assessed"),
    "dose of the next band": (BASE + PLAN.replace("20 mg daily", "40 mg daily"),
                              "plan_documented"),
    "dose of the band below": (BASE + PLAN.replace("20 mg daily", "5 mg daily"),
                               "plan_documented"),
    "propylthiouracil instead": (BASE + PLAN.replace("methimazole 20 mg daily",
                                                     "propylthiouracil 100 mg three times daily"),
                                 "plan_documented"),
    "propylthiouracil offered as an alternative": (
        BASE + PLAN + " Alternatively PTU 100 mg tid would be reasonable.", "plan_documented"),
    "hedged start": (BASE + PLAN.replace("Start methimazole", "Could consider methimazole"),
                     "plan_documented"),
    "deferred start": (
        BASE + "Hold off on methimazole until the repeat free T4 in 4 weeks. Start propranolol 20 "
        "mg tid. CBC with diff and LFTs now.", "plan_documented"),
    "no baseline blood count or liver tests": (
        BASE + "Start methimazole 20 mg daily. Start propranolol 20 mg tid. Free T4 in 4 weeks.",
        "plan_documented"),
    "recheck months away": (BASE + PLAN.replace("in 4 weeks", "in 3 months"), "plan_documented"),
    "TSH-only recheck": (BASE + PLAN.replace("Free T4 in 4 weeks", "Recheck TSH in 4 weeks"),
                         "plan_documented"),
    "TSH to guide dosing": (BASE + PLAN.replace("Free T4 in 4 weeks",
                                                "TSH in 4 weeks to guide dosing"),
                            "plan_documented"),
    "hedge between the causes": (
        "TRAb 10.8 IU/L positive; free T4 3.17 ng/dL. Graves disease or painless thyroiditis. "
        + PLAN, "cause_assessed"),
    "thyroiditis also likely": (BASE + "Painless thyroiditis is also likely. " + PLAN,
                                "cause_assessed"),
    "another TRAb value": ("TRAb 2.1 IU/L (positive); free T4 3.17 ng/dL. Graves disease. " + PLAN,
                           "cause_assessed"),
}

# The methimazole start may wait on the named baseline labs (ATA 2016 R15).
CORRECT.append(BASE + "Obtain CBC with differential and hepatic panel now; start methimazole 20 mg "
               "daily once the CBC and liver panel are back. Start propranolol 20 mg tid. Free T4 "
               "in 4 weeks.")
CORRECT.append(BASE.replace("Graves disease.", "Graves disease, not thyroiditis.") + PLAN)


def test_an_inline_options_list_does_not_commit():
    note = (BASE + "Options: methimazole 20 mg daily, radioactive iodine or surgery; discuss with "
            "the patient. Start propranolol 20 mg tid. CBC with diff and LFTs now. Free T4 in 4 "
            "weeks.")
    assert grade_note(TASK, note)["plan_documented"] is False


test_a_correct_plan_in_other_words_passes, test_a_wrong_plan_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_marked_band():
    good = ("TRAb 10.1 IU/L positive, free T4 4.43 ng/dL (2.5x ULN). Graves disease. Start "
            "methimazole 15 mg twice daily. Start propranolol 20 mg tid. CBC with diff and LFTs "
            "now. Free T4 in 4 weeks.")
    assert all(grade_note(TASK, good, MARKED).values())
    low = good.replace("15 mg twice daily", "20 mg once daily")
    assert not grade_note(TASK, low, MARKED)["plan_documented"]
    stale = good.replace("free T4 4.43", "free T4 3.46")
    assert not grade_note(TASK, stale, MARKED)["cause_assessed"]


# ---- Postpartum thyroiditis (variant 0): free T4 2.4 ng/dL, TRAb 1.0 IU/L, uptake 1.1% ----

def test_thyroiditis_branch():
    good = ("6 months postpartum, formula feeding. Free T4 2.4 ng/dL (down from 3.0), TRAb 1.0 "
            "IU/L (neg), TPO 763, 24-h uptake 1.1%. Dx: postpartum thyroiditis, thyrotoxic phase. "
            "No methimazole or PTU. Start propranolol 20 mg three times daily. Recheck TSH and "
            "free T4 in 4-6 weeks for the hypothyroid phase.")
    assert all(grade_note(TASK, good, THYROIDITIS).values())
    prose = ("Her TSH receptor antibodies are negative and the radioiodine uptake is very low at "
             "1.1%, with a current free T4 of 2.4 ng/dL, so this is painless postpartum "
             "thyroiditis rather than Graves disease. Antithyroid drugs have no role. I recommend "
             "starting propranolol 20 mg three times daily. Please repeat TSH and free T4 in 6 "
             "weeks. If thyrotoxicosis persists beyond 3 months, recheck TRAb and consider "
             "methimazole.")
    assert all(grade_note(TASK, prose, THYROIDITIS).values())
    mmi = good.replace("No methimazole or PTU.", "Start methimazole 10 mg daily.")
    assert not grade_note(TASK, mmi, THYROIDITIS)["plan_documented"]
    offered = good + " A short course of methimazole could also be considered."
    assert not grade_note(TASK, offered, THYROIDITIS)["plan_documented"]
    late = good.replace("in 4-6 weeks", "in 6 months")
    assert not grade_note(TASK, late, THYROIDITIS)["plan_documented"]
    graves = good.replace("Dx: postpartum thyroiditis, thyrotoxic phase.", "Dx: Graves disease.")
    assert not grade_note(TASK, graves, THYROIDITIS)["cause_assessed"]
    positive = good.replace("TRAb 1.0 IU/L (neg)", "TRAb positive")
    assert not grade_note(TASK, positive, THYROIDITIS)["cause_assessed"]
    stale = good.replace("Free T4 2.4 ng/dL (down from 3.0)", "Free T4 3.0 ng/dL")
    assert not grade_note(TASK, stale, THYROIDITIS)["cause_assessed"]
    for wrong in ("Refer for radioactive iodine ablation now.",
                  "Radioactive iodine would be a reasonable option.",
                  "Start levothyroxine 50 mcg daily.",
                  "Levothyroxine 25 mcg daily can be added if she prefers."):
        assert not grade_note(TASK, good + " " + wrong, THYROIDITIS)["plan_documented"], wrong
    for fine in ("Levothyroxine if she becomes hypothyroid.",
                 "No radioiodine: the uptake is too low."):
        assert all(grade_note(TASK, good + " " + fine, THYROIDITIS).values()), fine
    two_months = good.replace("in 4-6 weeks", "in 2 months")
    assert all(grade_note(TASK, two_months, THYROIDITIS).values())
    assert not grade_note(TASK, good.replace("in 4-6 weeks", "in 3 months"),
                          THYROIDITIS)["plan_documented"]
    for hedge in ("Dx: postpartum thyroiditis or postpartum Graves disease.",
                  "Dx: postpartum thyroiditis. Graves disease is also likely."):
        note = good.replace("Dx: postpartum thyroiditis, thyrotoxic phase.", hedge)
        assert not grade_note(TASK, note, THYROIDITIS)["cause_assessed"], hedge
    rather = good.replace("Dx: postpartum thyroiditis, thyrotoxic phase.",
                          "Dx: postpartum thyroiditis rather than Graves disease.")
    assert all(grade_note(TASK, rather, THYROIDITIS).values())


# ---- Graves disease in the first trimester (variant 14): free T4 3.27, TRAb 9.9 ----

PREG = ("G2P1 at 8 weeks. Free T4 3.27 ng/dL, TRAb 9.9 IU/L (positive). Graves disease in the "
        "first trimester, not gestational transient thyrotoxicosis.\nPlan:\n- PTU 100 mg PO TID\n"
        "- Propranolol 10 mg PO TID\n- CBC w/ diff and hepatic panel now\n- TSH + FT4 in 4 weeks\n"
        "- No RAI and no uptake scan in pregnancy\n")


def test_pregnancy_branch():
    assert all(grade_note(TASK, PREG, PREGNANT).values())
    prose = ("She is about 8 weeks pregnant. The free T4 is 3.27 ng/dL and the TSH receptor "
             "antibodies are positive (9.9 IU/L), so this is Graves disease rather than "
             "gestational transient thyrotoxicosis. Because she is in the first trimester, I "
             "recommend propylthiouracil 100 mg three times daily rather than methimazole; we can "
             "switch to methimazole after the first trimester. Start propranolol 20 mg three "
             "times daily. "
             "Obtain a CBC with differential and liver function tests now. Repeat TSH and free T4 "
             "in 4 weeks. Radioactive iodine and uptake scans are contraindicated in pregnancy.")
    assert all(grade_note(TASK, prose, PREGNANT).values())
    wrong = {
        "methimazole now": PREG.replace("PTU 100 mg PO TID", "Methimazole 10 mg PO daily"),
        "methimazole as an alternative": PREG + "Methimazole 10 mg daily is an acceptable "
                                                "alternative.\n",
        "uptake scan ordered": PREG + "Order a radioactive iodine uptake scan to confirm.\n",
        "radioiodine now": PREG + "Definitive radioiodine therapy can be given now.\n",
        "PTU overdosed": PREG.replace("PTU 100 mg", "PTU 300 mg"),
        "atenolol": PREG.replace("Propranolol 10 mg PO TID", "Atenolol 50 mg PO daily"),
        "atenolol as a backup": PREG + "- If propranolol is not tolerated, atenolol 25 mg daily\n",
        "TSH-only recheck": PREG.replace("TSH + FT4 in 4 weeks", "TSH in 4 weeks"),
        "methimazole switch too early": PREG + "- If PTU is still needed after 2 weeks, switch "
                                               "to methimazole 10 mg daily\n",
    }
    for error, note in wrong.items():
        assert not grade_note(TASK, note, PREGNANT)["plan_documented"], error
    later = PREG + "- If PTU is still needed after 16 weeks, switch to methimazole 10 mg daily\n"
    assert all(grade_note(TASK, later, PREGNANT).values())
    metoprolol = PREG.replace("Propranolol 10 mg PO TID", "Metoprolol tartrate 25 mg PO BID")
    assert all(grade_note(TASK, metoprolol, PREGNANT).values())
    gtt = PREG.replace("Graves disease in the first trimester, not gestational transient "
                       "thyrotoxicosis.", "Gestational transient thyrotoxicosis.")
    assert not grade_note(TASK, gtt, PREGNANT)["cause_assessed"]


# ---- Orders: must-nots and doses checked in the EHR ----

def _oracle_actions(variant=None, drop=(), extra=()):
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls]
    kept = [c for c in calls if not (c["tool"] == "fhir_medication_request_create"
                                     and c["arguments"]["medication_code"] in drop)]
    return kept + list(extra)


def _rx(code, mg, per_day):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "oral", "frequency": per_day, "period_unit": "day", "duration_days": 30}}


def _sr(code, system, category):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": system, "category": category,
        "display": code}}


def _verdicts(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


MMI10, MMI5, PTU, PROPRANOLOL, ATENOLOL, METOPROLOL = ("197941", "197942", "198175", "856457",
                                                       "197380", "866924")
LT4_50 = "966221"


def test_graves_orders():
    assert _verdicts(_oracle_actions())["treatment_ordered"]
    split = _oracle_actions(drop=(MMI10,), extra=[_rx(MMI10, 10, 2)])
    assert _verdicts(split)["treatment_ordered"]
    too_much = _oracle_actions(drop=(MMI10,), extra=[_rx(MMI10, 40, 1)])
    assert not _verdicts(too_much)["treatment_ordered"]
    ptu = _oracle_actions(extra=[_rx(PTU, 100, 3)])
    assert not _verdicts(ptu)["treatment_ordered"]
    no_bb = _oracle_actions(drop=(PROPRANOLOL,))
    assert not _verdicts(no_bb)["treatment_ordered"]


def test_thyroiditis_orders():
    assert _verdicts(_oracle_actions(THYROIDITIS), THYROIDITIS)["treatment_ordered"]
    mmi = _oracle_actions(THYROIDITIS, extra=[_rx(MMI5, 10, 1)])
    assert not _verdicts(mmi, THYROIDITIS)["treatment_ordered"]
    rai = _oracle_actions(THYROIDITIS, extra=[_sr("79005", "cpt", "procedure")])
    assert not _verdicts(rai, THYROIDITIS)["treatment_ordered"]
    lt4 = _oracle_actions(THYROIDITIS, extra=[_rx(LT4_50, 0.05, 1)])
    assert not _verdicts(lt4, THYROIDITIS)["treatment_ordered"]


def _reads(variant, *note_types):
    lab = "fhir_observation_search_labs"
    calls = [{"tool": lab, "arguments": {"patient": "{patient_id}", "code": c, "count": 10}}
             for c in ("5385-0", "3024-7", "2106-3")]
    return calls + [{"tool": "fhir_document_reference_search_clinical_notes",
                     "arguments": {"patient": "{patient_id}", "type": t, "count": n}}
                    for t, n in note_types]


def test_the_context_fact_counts_from_any_note_that_states_it():
    for note in (("11488-4", 1), ("11506-3", 5)):   # latest gynecology note, PCP notes
        assert _verdicts(_reads(None, note))["cause_context_retrieved"], note
    assert not _verdicts(_reads(None, ("34111-5", 5)))["cause_context_retrieved"]
    for note in (("11506-3", 5), ("11488-4", 5)):   # PCP notes, postpartum visit
        assert _verdicts(_reads(THYROIDITIS, ("18748-4", 5), note), THYROIDITIS)[
            "cause_context_retrieved"], note


def test_pregnancy_orders():
    base = _verdicts(_oracle_actions(PREGNANT), PREGNANT)
    assert base["treatment_ordered"] and base["monitoring_labs_ordered"]
    for extra in ([_rx(MMI10, 10, 1)], [_sr("78012", "cpt", "imaging")],
                  [_sr("79005", "cpt", "procedure")]):
        assert not _verdicts(_oracle_actions(PREGNANT, extra=extra), PREGNANT)[
            "treatment_ordered"], extra
    atenolol = _oracle_actions(PREGNANT, drop=(PROPRANOLOL,), extra=[_rx(ATENOLOL, 25, 1)])
    assert not _verdicts(atenolol, PREGNANT)["treatment_ordered"]
    metoprolol = _oracle_actions(PREGNANT, drop=(PROPRANOLOL,), extra=[_rx(METOPROLOL, 25, 2)])
    assert _verdicts(metoprolol, PREGNANT)["treatment_ordered"]
