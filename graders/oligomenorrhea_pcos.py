"""oligomenorrhea_pcos: oligomenorrhea with hyperandrogenism - does she have PCOS, and what next?

Three scenarios (``scenario[name]``); every one has oligomenorrhea, hirsutism and a raised total
testosterone drawn off the combined pill, a normal TSH, FSH and a negative hCG:
- ``pcos``: early-morning follicular 17-OHP < 200 ng/dL and a normal prolactin -> PCOS by the
  Rotterdam criteria (2023 international guideline); order the 75 g OGTT and a lipid profile.
- ``nccah``: 17-OHP 200-1000 ng/dL -> non-classic CAH not excluded; cosyntropin stimulation test
  (Endocrine Society CAH guideline 2018) before PCOS can be diagnosed.
- ``hyperprolactinemia``: prolactin > 3x the upper limit on two draws, no drug cause -> pituitary
  MRI (Endocrine Society 2011 hyperprolactinemia guideline); PCOS not diagnosed yet.
A pelvic ultrasound is never needed (irregular cycles plus hyperandrogenism in an adult).
"""

from __future__ import annotations

from typing import Any

CPT, LOINC = "http://www.ama-assn.org/go/cpt|", "http://loinc.org|"
TESTS = {  # concept -> (order codes, order text fragments, label)
    "ogtt": ([LOINC + "1518-0", CPT + "82951", CPT + "82950"],
             ["glucose tolerance", "OGTT", "GTT", "2-hour glucose", "2 hour glucose"], "75 g OGTT"),
    "lipid_panel": ([LOINC + "57698-3", LOINC + "24331-1", CPT + "80061"],
                    ["lipid"], "lipid profile"),
    "acth_stim_test": ([CPT + "80402", LOINC + "101313-5"],
                       ["ACTH stim", "cosyntropin", "Cortrosyn", "corticotropin stim", "Synacthen"],
                       "cosyntropin (ACTH) stimulation test"),
    "pituitary_mri": ([CPT + "70553", CPT + "70551", CPT + "70552"], ["pituitary", "sella"],
                      "pituitary MRI"),
    "pelvic_ultrasound": ([CPT + "76856", CPT + "76857", CPT + "76830"],
                          ["pelvic ultrasound", "transvaginal", "pelvic US", "US pelvis",
                           "ultrasound pelvis", "ultrasound of the pelvis", "pelvic sonogram",
                           "ovarian ultrasound"], "pelvic ultrasound"),
}
NEXT = {"pcos": ["ogtt", "lipid_panel"], "nccah": ["acth_stim_test"],
        "hyperprolactinemia": ["pituitary_mri"]}
PCOS = ["polycystic_ovary_syndrome", "rotterdam_criteria_met"]
NEVER = {"pcos": ["acth_stim_test", "pituitary_mri", "pelvic_ultrasound"],
         "nccah": ["pituitary_mri", "pelvic_ultrasound"],
         "hyperprolactinemia": ["acth_stim_test", "pelvic_ultrasound"]}


def _match(concept: str) -> dict[str, Any]:
    codes, _, label = TESTS[concept]
    return {"resource_type": "ServiceRequest", "codes": codes, "label": label}


def _text(concept: str) -> dict[str, Any]:
    _, text, label = TESTS[concept]
    return {"resource_type": "ServiceRequest", "text_contains": text, "label": label}


def _ordered(concept: str) -> dict[str, Any]:
    return {"any": {"of": [{"ordered": {**_match(concept), "status": ["active"]}},
                           {"ordered": {**_text(concept), "status": ["active"]}}]}}


def _not_ordered(concept: str) -> list[dict[str, Any]]:
    return [{"not_ordered": _match(concept)}, {"not_ordered": _text(concept)}]


def pcos_workup(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    ohp_draw, prl_draw = float(values["ohp_draw"]), float(values["prl_draw"])
    ohp = int(round(260 + 620 * ohp_draw)) if name == "nccah" else int(round(45 + 135 * ohp_draw))
    prl = (round(72 + 68 * prl_draw, 1) if name == "hyperprolactinemia"
           else round(8.5 + 13 * prl_draw, 1))
    if not (ohp < 200 or name == "nccah") or not (prl > 70 or name != "hyperprolactinemia"):
        raise ValueError("scenario and drawn values disagree")
    ohp_tol = max(2, round(0.02 * ohp))  # 17-OHP written in nmol/L to one decimal
    order_checks = [_ordered(c) for c in NEXT[name]]
    order_checks += [check for c in NEVER[name] for check in _not_ordered(c)]
    plan = [{"note_decision": {"concept": [c], "action": ["order"],
                               "label": f"order the {TESTS[c][2]}"}} for c in NEXT[name]]
    plan += [{"note_never": {"concept": [c], "action": ["start", "order", "endorse", "allow",
                                                        "implicit", "continue", "resume"],
                             "allow_contingency": True,
                             "label": f"no {TESTS[c][2]}"}} for c in NEVER[name]]
    ohp_value = {"note_value": {"concept": ["hydroxyprogesterone_17"], "value": ohp,
                                "tolerance": ohp_tol, "units": {"ng/mL": 100},
                                "label": f"17-OHP {ohp} ng/dL"}}
    pcos_committed = ["pcos_diagnosed", "rotterdam_criteria_met"]
    decisive = {
        "pcos": [ohp_value,
                 {"note_value": {"concept": ["prolactin_level"], "value": prl, "tolerance": 0.5,
                                 "required": False, "label": f"prolactin {prl} ng/mL"}},
                 {"note_finding": {"concept": ["hydroxyprogesterone_17"], "topic": True,
                                   "opposite": ["nccah_not_excluded"],
                                   "label": "17-OHP not read as leaving non-classic CAH open"}},
                 {"note_finding": {"concept": ["prolactin_level", "hydroxyprogesterone_17"],
                                   "topic": True,
                                   "near": ["prolactin_level", "hydroxyprogesterone_17"],
                                   "opposite": ["attributed_to_pcos"],
                                   "label": "prolactin not read as a PCOS-related rise"}},
                 {"note_never": {"concept": ["hydroxyprogesterone_17", "acth_stim_test"],
                                 "action": ["order", "start", "endorse", "allow"],
                                 "label": "no repeat or stimulated 17-OHP"}}],
        "nccah": [ohp_value,
                  {"note_finding": {"concept": ["hydroxyprogesterone_17"], "topic": True,
                                    "opposite": ["nccah_excluded"],
                                    "label": "17-OHP not read as excluding non-classic CAH"}}],
        "hyperprolactinemia": [
            {"note_value": {"concept": ["prolactin_level"], "min": prl - 6.2,
                            "max": prl + 0.2, "label": f"prolactin {prl} ng/mL"}}]}[name]
    diagnosis = {
        # PCOS asserted (not merely named: 'A1c is less sensitive in PCOS' is a generic
        # mention), never denied, hedged or replaced by another diagnosis
        "pcos": {"any": {"of": [
            {"note_finding": {"concept": [c], "opposite": ["pcos_unconfirmed",
                                                           "pcos_alternative_diagnosis"],
                              "label": "PCOS diagnosed (Rotterdam criteria met)"}}
            for c in PCOS]}},
        # non-classic CAH named as open, never called excluded, and PCOS not yet committed
        "nccah": {"note_finding": {"concept": ["nonclassic_cah"], "topic": True,
                                   "opposite": ["nccah_excluded", *pcos_committed],
                                   "label": "non-classic CAH still to be excluded, PCOS not "
                                            "diagnosed yet"}},
        # hyperprolactinemia diagnosed, not put down to PCOS, PCOS not committed
        "hyperprolactinemia": {"note_finding": {
            "concept": ["hyperprolactinemia", "prolactinoma"],
            "opposite": ["attributed_to_pcos", *pcos_committed],
            "label": "hyperprolactinemia, not attributed to PCOS"}}}[name]
    return {"bmi": round(int(values["weight_kg"]) / 1.65 ** 2, 1), "ohp": ohp, "prl": prl,
            "prl_repeat": round(prl - 6.0, 1),
            "order_checks": order_checks, "plan_grader": {"all": {"of": plan}},
            "decisive_grader": {"all": {"of": decisive}}, "diagnosis_grader": diagnosis}
