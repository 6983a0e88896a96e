"""thyroid_antibody_workup: thyrotoxicosis whose cause the TSH-receptor antibodies decide.

Three scenarios (``scenario[name]``), all with a suppressed TSH and a raised free T4:
- ``graves``: TRAb positive, not pregnant -> methimazole at the ATA 2016 starting dose for the
  free T4 elevation (1-1.5x ULN 5-10 mg/day, 1.5-2x 10-20 mg/day, 2-3x 30-40 mg/day; within
  0.15 x ULN of an edge both adjacent bands), a beta blocker, baseline CBC with differential and
  liver panel, free T4 (not TSH alone) in 2-6 weeks; no propylthiouracil.
- ``postpartum_thyroiditis``: TRAb negative (TPO positive), low 24-h radioiodine uptake, delivery
  3-6 months ago -> no antithyroid drug, a beta blocker, TSH and free T4 again in 2-8 weeks.
- ``pregnant_graves``: TRAb positive, first trimester -> propylthiouracil 50-150 mg two or three
  times daily (ATA 2017: through 16 weeks), propranolol or metoprolol (no atenolol), baseline CBC
  and liver panel; no methimazole before 16 weeks, no radioiodine uptake scan or therapy.
"""

from __future__ import annotations

from typing import Any

from physbench_graders.common import oral_tablets

FT4_ULN = 1.8  # ng/dL, the free T4 reference range of the chart (LOINC 3024-7 row)
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC, CPT = "http://loinc.org|", "http://www.ama-assn.org/go/cpt|"
# ATA 2016, section on antithyroid drugs: starting methimazole dose by the free T4 elevation.
MMI_BANDS = [(1.5, "mild", 5, 10, 10), (2.0, "moderate", 10, 20, 20), (3.0, "marked", 30, 40, 30)]
# Beta blockers at the ATA 2016 Table 4 doses: (label, RxNorm codes, mg per dose, doses a day).
BETA_BLOCKERS = [
    ("propranolol 10-40 mg three or four times daily", ["856457"], 10, 40, 3, 4),
    ("metoprolol tartrate 25-50 mg two or three times daily", ["866924", "866514", "866511"],
     25, 50, 2, 3),
    ("metoprolol succinate 25-200 mg once daily", ["866427", "866436", "866412", "866419"],
     25, 200, 1, 1),
    ("atenolol 25-100 mg once or twice daily", ["197380", "197381"], 25, 100, 1, 2),
]
ATENOLOL = ["197380", "197381"]
CBC_CODES = [f"{LOINC}57021-8", f"{LOINC}69742-5", f"{CPT}85025"]
LIVER_CODES = [f"{LOINC}24325-3", f"{CPT}80076", f"{LOINC}24323-8", f"{CPT}80053"]
FT4_CODES = [f"{LOINC}3024-7", f"{CPT}84439"]
TSH_CODES = [f"{LOINC}3016-3", f"{LOINC}11580-8", f"{CPT}84443"]
RAI_CODES = [f"{CPT}78012", f"{CPT}78014", f"{CPT}79005"]
RAI_WORDS = ["uptake", "radioactive iodine", "radioiodine", "I-131", "I-123", "thyroid scan",
             "scintigra", "radiopharmaceutical"]
RAI_THERAPY_WORDS = ["radioactive iodine therapy", "radioiodine therapy", "radioactive iodine "
                     "ablation", "radioiodine ablation", "I-131", "radiopharmaceutical therapy"]
# Within this margin of a band edge (x ULN) a dose of either adjacent band is accepted: ATA 2016
# gives the bands as a rough guide, and free T4 immunoassays vary by 5-10%.
EDGE_MARGIN = 0.15
BASELINE_LABS = ["cbc", "liver_tests", "alt", "cmp"]


def _ordered(kind: str, label: str, **match: Any) -> dict[str, Any]:
    spec = {"resource_type": kind, "status": ["active", "completed"], "label": label, **match}
    if kind == "MedicationRequest":
        spec["intent"] = ["order"]
    return {"ordered": spec}


def _drug_options(rows) -> list[dict[str, Any]]:
    return [_ordered("MedicationRequest", label, codes=[RX + c for c in codes],
                     dose={"min": lo, "max": hi, "unit": "mg"}, per_day={"min": n1, "max": n2})
            for label, codes, lo, hi, n1, n2 in rows]


def _never_drug(codes: list[str], names: list[str], label: str) -> list[dict[str, Any]]:
    return [{"not_ordered": {"resource_type": "MedicationRequest", "codes": [RX + c for c in codes],
                             "label": label}},
            {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": names,
                             "label": label}}]


def _test(concepts: list[str], lo: float, hi: float, label: str) -> dict[str, Any]:
    return {"note_decision": {"concept": concepts, "action": ["order"],
                              "timing": {"min": lo, "max": hi, "unit": "wk"}, "label": label}}


def _baseline_note() -> list[dict[str, Any]]:
    return [{"note_decision": {"concept": ["cbc"], "action": ["order"],
                               "label": "baseline CBC with differential"}},
            {"note_decision": {"concept": ["liver_tests", "alt", "cmp"], "action": ["order"],
                               "label": "baseline liver panel"}}]


def thyrotoxicosis(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    graves = name != "postpartum_thyroiditis"
    draw, ab_draw = float(values["ft4_draw"]), float(values["antibody_draw"])
    ga = int(values["ga_weeks"])
    # Free T4 as a multiple of the upper reference limit.
    ratio = {"graves": 1.15 + 1.7 * draw, "postpartum_thyroiditis": 1.3 + 0.9 * draw,
             "pregnant_graves": 1.2 + 0.65 * draw}[name]
    ft4 = round(FT4_ULN * ratio, 2)
    ratio = round(ft4 / FT4_ULN, 2)

    def band_of(r: float):
        return next(row for row in MMI_BANDS if min(r, 2.99) < row[0])

    _, band_name, _, _, mmi_dose = band_of(ratio)
    # Near an edge the accepted range spans both adjacent bands (10-40 mg at 1.85-2.15 x ULN).
    mmi_lo, mmi_hi = band_of(ratio - EDGE_MARGIN)[2], band_of(ratio + EDGE_MARGIN)[3]
    # Graves: free T4 rising since the first draw; thyroiditis: already falling.
    ft4_initial = round(ft4 * (1.25 if not graves else 0.78), 2)
    trab = round(3.4 + 18 * ab_draw, 1) if graves else round(0.3 + 0.9 * ab_draw, 1)
    tpo = int(round(90 + 260 * ab_draw)) if graves else int(round(320 + 540 * ab_draw))
    ft3 = round(4.2 * ratio * (1.35 if graves else 0.85), 1)
    mmi = oral_tablets("methimazole")  # strength (mcg) -> RxNorm
    ptu = oral_tablets("propylthiouracil")
    all_mmi, all_ptu = list(mmi.values()), list(ptu.values())
    mmi_options = [_ordered("MedicationRequest", f"methimazole {mmi_lo}-{mmi_hi} mg a day "
                            f"in {n} dose(s)", codes=[RX + c for c in all_mmi],
                            dose={"min": round(mmi_lo / n, 2), "max": round(mmi_hi / n, 2),
                                  "unit": "mg"}, per_day={"min": n, "max": n})
                   for n in (1, 2, 3)]
    ptu_options = [_ordered("MedicationRequest", "propylthiouracil 50-150 mg two or three times "
                            "daily", codes=[RX + c for c in all_ptu],
                            dose={"min": 50, "max": 150, "unit": "mg"},
                            per_day={"min": 2, "max": 3})]
    bb_rows = BETA_BLOCKERS if name != "pregnant_graves" else [
        row for row in BETA_BLOCKERS if row[1] != ATENOLOL]
    no_mmi = _never_drug(all_mmi, ["methimazole", "carbimazole", "thiamazole"], "no methimazole")
    no_ptu = _never_drug(all_ptu, ["propylthiouracil"], "no propylthiouracil")
    no_rai = [{"not_ordered": {"resource_type": "ServiceRequest", "codes": RAI_CODES,
                               "label": "no radioiodine uptake scan or therapy"}},
              {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": RAI_WORDS,
                               "label": "no radioiodine uptake scan or therapy"}}]
    baseline = [{"any": {"of": [_ordered("ServiceRequest", "CBC with differential",
                                         codes=CBC_CODES)]}},
                {"any": {"of": [_ordered("ServiceRequest", "liver panel", codes=LIVER_CODES),
                                _ordered("ServiceRequest", "liver panel", text_contains=[
                                    "hepatic function", "liver panel", "liver function",
                                    "comprehensive metabolic"])]}}]
    ft4_order = _ordered("ServiceRequest", "free T4", codes=FT4_CODES)
    tsh_order = _ordered("ServiceRequest", "TSH", codes=TSH_CODES)
    never_rai = {"note_never": {"concept": ["radioactive_iodine", "raiu"],
                                "action": ["start", "order", "endorse", "allow", "implicit"],
                                "allow_contingency": True,
                                "label": "no radioiodine or uptake scan in pregnancy"}}
    bb_note = {"note_decision": {"concept": ["beta_blocker"], "action": ["start"],
                                 "label": "start a beta blocker"}}
    # TSH stays suppressed for weeks on an antithyroid drug: the dose follows free T4 (and T3).
    tft_concepts = ["free_t4", "thyroid_function_tests", "t3_test"]
    if name == "graves":
        atd_checks = [{"any": {"of": mmi_options}}, *no_ptu]
        lab_checks = [*baseline, ft4_order]
        plan = [{"note_decision": {"concept": ["methimazole"], "action": ["start"],
                                   "dose": {"min": mmi_lo, "max": mmi_hi, "unit": "mg",
                                            "per_day": True},
                                   "deferral_contradicts": True, "committed_if": BASELINE_LABS,
                                   "label": f"start methimazole {mmi_lo}-{mmi_hi} mg a day"}},
                {"note_never": {"concept": ["propylthiouracil"], "allow_contingency": True,
                                "label": "no propylthiouracil"}},
                bb_note, *_baseline_note(),
                _test(tft_concepts, 2, 6, "free T4 (and T3) again in 2-6 weeks")]
    elif name == "pregnant_graves":
        atd_checks = [{"any": {"of": ptu_options}}, *no_mmi, *no_rai]
        lab_checks = [*baseline, ft4_order, tsh_order]
        plan = [{"note_decision": {"concept": ["propylthiouracil"], "action": ["start"],
                                   "dose": {"min": 50, "max": 150, "unit": "mg"},
                                   "every": {"min": 2, "max": 3}, "deferral_contradicts": True,
                                   "committed_if": BASELINE_LABS,
                                   "label": "start propylthiouracil 50-150 mg two or three "
                                            "times daily"}},
                {"note_never": {"concept": ["methimazole", "carbimazole"],
                                "allow_contingency": True,  # a switch from 16 weeks is allowed
                                "contingency_after": {"min": 16 - ga, "unit": "wk"},
                                "label": "no methimazole in the first trimester"}},
                never_rai,
                {"note_decision": {"concept": ["propranolol", "metoprolol"], "action": ["start"],
                                   "label": "start propranolol or metoprolol"}},
                {"note_never": {"concept": ["atenolol"], "label": "no atenolol in pregnancy"}},
                *_baseline_note(),
                _test(tft_concepts, 2, 6, "free T4 and TSH again in 2-6 weeks")]
    else:
        no_rai_therapy = [{"not_ordered": {"resource_type": "ServiceRequest",
                                           "codes": [f"{CPT}79005"], "label": "no radioiodine"}},
                          {"not_ordered": {"resource_type": "ServiceRequest",
                                           "text_contains": RAI_THERAPY_WORDS,
                                           "label": "no radioiodine"}}]
        no_lt4 = [{"not_ordered": {"resource_type": "MedicationRequest",
                                   "text_contains": ["levothyroxine"],
                                   "label": "no levothyroxine in the thyrotoxic phase"}}]
        atd_checks = [*no_mmi, *no_ptu, *no_rai_therapy, *no_lt4]
        lab_checks = [ft4_order, tsh_order]
        plan = [{"note_never": {"concept": ["antithyroid_drug"], "allow_contingency": True,
                                "label": "no antithyroid drug for thyroiditis"}},
                {"note_never": {"concept": ["radioactive_iodine"],
                                "action": ["start", "order", "refer", "endorse", "allow",
                                           "implicit"],
                                "label": "no radioiodine therapy for thyroiditis"}},
                {"note_never": {"concept": ["levothyroxine"], "allow_contingency": True,
                                "contingency_on": ["tsh", "free_t4", "hypothyroidism"],
                                "label": "no levothyroxine in the thyrotoxic phase"}},
                bb_note, _test([*tft_concepts, "tsh"], 2, 9,
                               "TSH and free T4 again in 2-9 weeks")]
    if name == "pregnant_graves":
        atd_checks += _never_drug(ATENOLOL, ["atenolol"], "no atenolol in pregnancy")
    cause = {"graves": "graves_disease", "pregnant_graves": "graves_disease",
             "postpartum_thyroiditis": "painless_thyroiditis"}[name]
    # A hedge between the causes ('Graves disease or painless thyroiditis') must fail.
    opposite = {"graves": ["painless_thyroiditis", "subacute_thyroiditis"],
                "pregnant_graves": ["painless_thyroiditis", "subacute_thyroiditis",
                                    "gestational_thyrotoxicosis"],
                "postpartum_thyroiditis": ["graves_disease"]}[name]
    return {
        "ft4": ft4, "ft4_initial": ft4_initial, "ft4_ratio": ratio, "ft3": ft3,
        "trab": trab, "tpo": tpo, "mmi_band": band_name, "mmi_lo": mmi_lo, "mmi_hi": mmi_hi,
        "mmi_dose": mmi_dose, "mmi_tablets": mmi_dose // 10, "mmi_10_rxnorm": mmi[10000.0],
        "ptu_50_rxnorm": ptu[50000.0],
        "trab_flag": "positive" if graves else "negative",
        "trab_concept": ["trab_positive" if graves else "trab_negative"],
        "trab_opposite": ["trab_negative" if graves else "trab_positive"],
        "trab_result": ["antibody_result_positive" if graves else "antibody_result_negative"],
        "trab_other": ["antibody_result_negative" if graves else "antibody_result_positive"],
        "cause_concept": [cause], "cause_opposite": opposite,
        "delivery": f"-{int(values['postpartum_months'])}m",
        "postpartum_visit": f"-{int(values['postpartum_months'])}m+6w",
        "lmp": f"-{ga}w", "ga_at_visit": ga - 1, "lmp_first": ga - 5,
        "weight_first": int(values["weight_kg"]) + 2, "weight_prior": int(values["weight_kg"]) + 3,
        "bb_options": _drug_options(bb_rows),
        "atd_checks": atd_checks, "lab_checks": lab_checks,
        "plan_grader": {"all": {"of": plan}},
    }
