"""Type 2 diabetes above goal on maximum-dose metformin: the comorbidity decides the add-on.

ADA Standards of Care 2025, section 9 (and section 11 for CKD): with heart failure an SGLT2
inhibitor; with CKD (eGFR 20-60 and/or albuminuria) an SGLT2 inhibitor or a GLP-1 RA with
demonstrated benefit; with established ASCVD a GLP-1 RA or SGLT2 inhibitor with proven
cardiovascular benefit - here the patient stopped an SGLT2 inhibitor for recurrent genital
mycotic infections and declines another, so the ASCVD variant needs a GLP-1 RA.
"""

from __future__ import annotations

from typing import Any

SCENARIOS = ("ckd", "hf", "ascvd")
HEIGHT_M = 1.78

METFORMIN_RXNORM = "860975"  # 24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet
DAPAGLIFLOZIN_10 = "1488569"  # dapagliflozin 10 MG Oral Tablet
EMPAGLIFLOZIN_10 = "1545658"  # empagliflozin 10 MG Oral Tablet
CANAGLIFLOZIN_100 = "1373463"  # canagliflozin 100 MG Oral Tablet
LIRAGLUTIDE_PEN = "897122"  # 3 ML liraglutide 6 MG/ML Pen Injector
# The GLP-1 RA pens are coded by concentration and fill volume (the Ozempic starter pen holds
# 2 mg/1.5 mL and dials 0.25 or 0.5 mg; the Trulicity 0.75 mg pen holds 0.75 mg/0.5 mL): the dose
# per injection is read from the order's dose quantity, never from the code.
SEMAGLUTIDE_PEN = "1991306"  # 0.25 MG, 0.5 MG Dose 1.5 ML semaglutide 1.34 MG/ML Pen Injector
DULAGLUTIDE_PEN = "1551295"  # 0.5 ML dulaglutide 1.5 MG/ML Auto-Injector (0.75 mg)

# Starting doses of each agent for this patient (US prescribing information): SGLT2 inhibitors
# at the dose proven in HF/CKD (dapagliflozin 10 mg, empagliflozin 10 mg) or the eGFR 30-60 dose
# (canagliflozin 100 mg); GLP-1 RAs at their label starting dose (oral semaglutide: 3 mg, or
# 1.5 mg in the newer tablet formulation, once daily for 30 days).
START_DOSES_MG = {"dapagliflozin": (10.0,), "empagliflozin": (10.0,), "canagliflozin": (100.0,),
                  "semaglutide": (0.25,), "oral semaglutide": (3.0, 1.5), "dulaglutide": (0.75,),
                  "liraglutide": (0.6,)}
DOSE_TOLERANCE_MG = {"dapagliflozin": 0.5, "empagliflozin": 0.5, "canagliflozin": 0.5,
                     "semaglutide": 0.01, "oral semaglutide": 0.01, "dulaglutide": 0.01,
                     "liraglutide": 0.01}
WEEKLY = ("semaglutide", "dulaglutide")  # the others are taken once daily
# The lexicon concept each agent is written as (oral semaglutide is semaglutide).
CONCEPT = {"oral semaglutide": "semaglutide"}

ACCEPTED_DRUGS = {
    # SGLT2i first (KDIGO 2022 1A, ADA 11.5a); a GLP-1 RA with kidney/CV benefit is also an
    # ADA 2025 option in CKD.
    "ckd": ["dapagliflozin", "empagliflozin", "canagliflozin", "semaglutide", "dulaglutide",
            "liraglutide", "oral semaglutide"],
    # SGLT2 inhibitors with proven HF benefit (DAPA-HF, EMPEROR-Reduced).
    "hf": ["dapagliflozin", "empagliflozin"],
    # GLP-1 RAs with proven CV benefit (LEADER, SUSTAIN-6, REWIND, SOUL); SGLT2i declined.
    "ascvd": ["semaglutide", "dulaglutide", "liraglutide", "oral semaglutide"],
}
ACCEPTED_CLASSES = {"ckd": ("sglt2", "glp1"), "hf": ("sglt2",), "ascvd": ("glp1",)}
# Orders the EHR can take (terminology tables): code, per-day frequency (label schedule:
# semaglutide and dulaglutide once weekly, the others once daily).
ORDERABLE = {"dapagliflozin": (DAPAGLIFLOZIN_10, 1.0), "empagliflozin": (EMPAGLIFLOZIN_10, 1.0),
             "canagliflozin": (CANAGLIFLOZIN_100, 1.0), "liraglutide": (LIRAGLUTIDE_PEN, 1.0),
             "semaglutide": (SEMAGLUTIDE_PEN, 1 / 7), "dulaglutide": (DULAGLUTIDE_PEN, 1 / 7)}
TABLETS = frozenset({"dapagliflozin", "empagliflozin", "canagliflozin"})
INJECTABLES = frozenset({"liraglutide", "semaglutide", "dulaglutide"})
SUBCUTANEOUS = ["subcutaneous", "34206005"]  # route text or SNOMED CT code of the order
TABLET_UNITS = ("tablet", "tablets", "tab", "tabs", "{tablet}", "{tbl}")

# Agents a plan must never start, per scenario (lexicon concepts): a TZD or a DPP-4 inhibitor
# with a heart-failure signal in HFrEF; an SGLT2 inhibitor after the genital infections in
# ASCVD; glyburide in CKD (hypoglycemia; prefer glipizide).
WRONG_AGENTS = {"ascvd": ["sglt2_inhibitor"], "hf": ["tzd", "saxagliptin", "alogliptin"],
                "ckd": ["glyburide"]}
UNSAFE_ORDER_TEXT = {
    "ascvd": ["gliflozin"],
    "hf": ["glitazone", "saxagliptin", "alogliptin"],
    "ckd": ["glyburide", "glibenclamide"],
}


def _ckd_epi_2021_male(creatinine: float, age: int) -> int:
    """CKD-EPI 2021 (race-free) eGFR, men, mL/min/1.73 m2."""
    ratio = creatinine / 0.9
    value = 142 * min(ratio, 1) ** -0.302 * max(ratio, 1) ** -1.2 * 0.9938 ** age
    return round(value)


def _creatinine_for(egfr: float, age: int) -> float:
    """Serum creatinine (mg/dL, > 0.9) giving about ``egfr`` by CKD-EPI 2021 in a man."""
    base = egfr / (142 * 0.9938 ** age)
    if base >= 1:
        return 0.9
    return round(0.9 * base ** (-1 / 1.2), 2)


def _class_option(klass: str) -> dict[str, Any]:
    concept = "sglt2_inhibitor" if klass == "sglt2" else "glp1_ra"
    return {"note_decision": {"concept": [concept], "action": ["start"],
                              "deferral_contradicts": True,
                              "label": "start an SGLT2 inhibitor" if klass == "sglt2"
                              else "start a GLP-1 RA"}}


def _dose_options(drug: str) -> list[dict[str, Any]]:
    """The note starts the drug at a starting dose on its label schedule."""
    per_day = 1 / 7 if drug in WEEKLY else 1.0
    return [{"note_decision": {
        "concept": [CONCEPT.get(drug, drug)], "action": ["start"], "deferral_contradicts": True,
        "dose": {"value": dose, "tolerance": DOSE_TOLERANCE_MG[drug], "unit": "mg"},
        "every": {"min": per_day, "max": per_day},
        "label": f"start {drug} {dose:g} mg {'once weekly' if drug in WEEKLY else 'daily'}"}}
        for dose in START_DOSES_MG[drug]]


def _order_options(drug: str) -> list[dict[str, Any]]:
    """Orders for the drug at its starting dose on its label schedule: in mg or mcg, or as
    one tablet of the product's strength. Pens are coded by concentration, so the dose per
    injection is the order's dose quantity, and an injectable must be given subcutaneously."""
    code, per_day = ORDERABLE[drug]
    dose = START_DOSES_MG[drug][0]
    amounts = [(dose, "mg"), (dose * 1000, "mcg")]
    amounts += [(1.0, unit) for unit in TABLET_UNITS if drug in TABLETS]
    schedule = "once weekly" if drug in WEEKLY else "once daily"
    route = {"route": SUBCUTANEOUS} if drug in INJECTABLES else {}
    return [{"ordered": {
        "resource_type": "MedicationRequest", "codes": [code], "status": ["active"],
        "intent": ["order"], "dose": {"min": amount - 1e-6, "max": amount + 1e-6, "unit": unit},
        "per_day": {"min": per_day - 1e-6, "max": per_day + 1e-6}, **route,
        "label": f"{drug} {dose:g} mg {schedule}"}} for amount, unit in amounts]


def _retrieval(scenario: str) -> dict[str, Any]:
    egfr = {"retrieved": {"resource_type": "Observation", "codes": ["http://loinc.org|98979-8"],
                          "label": "eGFR"}}
    if scenario == "ckd":
        specific = {"retrieved": {"resource_type": "Observation",
                                  "codes": ["http://loinc.org|9318-7"],
                                  "label": "urine albumin-to-creatinine ratio"}}
    elif scenario == "hf":
        specific = {"any": {"of": [
            {"retrieved": {"resource_type": "Condition",
                           "codes": ["http://snomed.info/sct|703272007"],
                           "label": "HFrEF on the problem list"}},
            {"retrieved": {"resource_type": "DocumentReference",
                           "text_contains": ["ejection fraction"],
                           "label": "cardiology note with the ejection fraction"}}]}}
    else:
        specific = {"all": {"of": [
            {"any": {"of": [
                {"retrieved": {"resource_type": "Condition",
                               "codes": ["http://snomed.info/sct|53741008",
                                         "http://snomed.info/sct|22298006"],
                               "label": "coronary disease / myocardial infarction"}},
                {"retrieved": {"resource_type": "DocumentReference",
                               "text_contains": ["stent"],
                               "label": "cardiology note (MI, stent)"}}]}},
            {"any": {"of": [
                {"retrieved": {"resource_type": "MedicationRequest",
                               "codes": [CANAGLIFLOZIN_100],
                               "label": "stopped canagliflozin order"}},
                {"retrieved": {"resource_type": "DocumentReference",
                               "text_contains": ["candid"],
                               "label": "note on the SGLT2 inhibitor intolerance"}}]}}]}}
    return {"all": {"of": [egfr, specific]}}


def _story(scenario: str, v: dict[str, Any]) -> dict[str, Any]:
    """Scenario-specific conditions, medications and notes."""
    conditions: list[dict[str, Any]] = [
        {"code": "44054006", "onset": "-9y"},
        {"code": "59621000", "onset": "-12y"},
        {"code": "55822004", "onset": "-10y"},
        {"code": "414916001", "onset": "-8y"},
        {"code": "396275006", "onset": "-5y"},
    ]
    metformin = {
        "code": METFORMIN_RXNORM, "start": "-9y", "dose": "500 mg", "frequency": "daily",
        "reason": "44054006", "sig": "Take 1 tablet by mouth once daily with the evening meal.",
        "changes": [
            {"date": "-8y-6m", "dose": "1000 mg",
             "sig": "Take 2 tablets (1000 mg) by mouth once daily with the evening meal.",
             "reason": "A1c above goal; tolerating metformin."},
            {"date": "-6y", "dose": "2000 mg",
             "sig": "Take 4 tablets (2000 mg) by mouth once daily with the evening meal.",
             "reason": "A1c above goal; titrated to the maximum daily dose."}]}
    meds: list[dict[str, Any]] = [
        metformin,
        {"code": "198440", "start": "-5y", "dose": "500 mg", "frequency": "bid",
         "as_needed": True, "reason": "396275006"},
    ]
    if scenario == "ckd":
        conditions.append({"code": "700378005", "onset": "-1y-2m"})
        meds += [
            {"code": "979492", "start": "-12y", "dose": "50 mg", "frequency": "daily",
             "reason": "59621000",
             "changes": [{"date": "-1y-1m", "code": "979480", "dose": "100 mg",
                          "reason": "Albuminuria; ARB to maximum dose."}]},
            {"code": "617311", "start": "-10y", "dose": "40 mg", "frequency": "daily",
             "reason": "55822004"},
        ]
        note_a = {
            "type": "11506-3", "date": "-1y-1m", "title": "Diabetes and kidney follow-up",
            "author": "pcp", "text": (
                f"Urine albumin-to-creatinine ratio {v['uacr_prev']} mg/g, confirmed on repeat "
                f"testing (moderately increased albuminuria); eGFR {v['egfr_prev']} "
                "mL/min/1.73 m2. CKD stage G3a A2, most likely diabetic kidney disease. "
                "Losartan increased to 100 mg daily (maximum dose). Potassium 4.6. No NSAIDs. "
                "Continue metformin ER 2000 mg daily (eGFR above 45). Recheck kidney function "
                "and UACR in 6 months.")}
        note_b = {
            "type": "11506-3", "date": "-3y", "title": "Chest pain evaluation",
            "author": "pcp", "text": (
                "Atypical chest pain after lifting boxes, reproducible on palpation of the "
                "left costochondral junction. ECG normal sinus rhythm without ischemic changes. "
                "Exercise stress test last month: no ischemia at 10 METs. Musculoskeletal chest "
                "wall pain; no known coronary disease. NSAIDs avoided; acetaminophen.")}
        summary = (f"CKD stage G3a with albuminuria (eGFR {v['egfr']}, UACR {v['uacr']} mg/g) "
                   "on losartan 100 mg")
    elif scenario == "hf":
        conditions.append({"code": "703272007", "onset": "-2y"})
        meds += [
            {"code": "314077", "start": "-12y", "stop": "-1y-11m", "status": "stopped",
             "dose": "20 mg", "frequency": "daily", "reason": "59621000",
             "sig": "Take 1 tablet by mouth daily. (Stopped: switched to sacubitril/valsartan.)"},
            {"code": "1656349", "start": "-1y-11m", "dose": "1 {tbl}", "frequency": "bid",
             "reason": "703272007",
             "sig": "Take 1 tablet (sacubitril 49 mg / valsartan 51 mg) by mouth twice daily."},
            {"code": "200032", "start": "-2y", "dose": "12.5 mg", "frequency": "bid",
             "reason": "703272007"},
            {"code": "313988", "start": "-2y", "dose": "40 mg", "frequency": "daily",
             "reason": "703272007"},
            {"code": "617311", "start": "-10y", "dose": "40 mg", "frequency": "daily",
             "reason": "55822004"},
        ]
        note_a = {
            "type": "11488-4", "date": "-4m", "title": "Cardiology follow-up",
            "author": "prac-cardiology", "text": (
                "Heart failure with reduced ejection fraction, nonischemic (normal coronary "
                "angiogram 2 years ago). Transthoracic echocardiogram this month: left "
                f"ventricular ejection fraction {v['lvef']}%, mild global hypokinesis, no "
                "significant valve disease. NYHA class II, euvolemic today on sacubitril/valsartan "
                "49/51 mg twice daily, carvedilol 12.5 mg twice daily and furosemide 40 mg daily; "
                "spironolactone was stopped last year for potassium 5.9. Potassium 4.4. Plan: "
                "continue guideline-directed therapy; would welcome an SGLT2 inhibitor from the "
                "diabetes side.")}
        note_b = {
            "type": "34111-5", "date": "-2y", "title": "Emergency department visit",
            "author": "pcp", "text": (
                "Progressive dyspnea on exertion and leg swelling for 3 weeks. Bilateral "
                "crackles, JVP elevated. BNP 1240 pg/mL. Chest X-ray: cardiomegaly with "
                "pulmonary vascular congestion. New heart failure; IV furosemide given, "
                "admitted to cardiology.")}
        summary = f"HFrEF (LVEF {v['lvef']}%, NYHA II) on sacubitril/valsartan and carvedilol"
    else:
        conditions += [
            {"code": "53741008", "onset": "-4y"},
            {"code": "22298006", "onset": "-4y", "abatement": "-4y+1m",
             "clinical_status": "resolved", "category": "encounter-diagnosis"},
        ]
        meds += [
            {"code": "314077", "start": "-12y", "dose": "20 mg", "frequency": "daily",
             "reason": "59621000"},
            {"code": "243670", "start": "-4y", "dose": "81 mg", "frequency": "daily",
             "reason": "53741008"},
            {"code": "309362", "start": "-4y", "stop": "-3y", "status": "completed",
             "dose": "75 mg", "frequency": "daily", "reason": "53741008",
             "sig": "Take 1 tablet by mouth daily for 12 months after the stent."},
            {"code": "259255", "start": "-4y", "dose": "80 mg", "frequency": "daily",
             "reason": "53741008"},
            {"code": CANAGLIFLOZIN_100, "start": "-2y-3m", "stop": "-1y-11m",
             "status": "stopped", "dose": "100 mg", "frequency": "daily",
             "reason": "44054006", "sig": "Take 1 tablet by mouth daily before breakfast."},
        ]
        note_a = {
            "type": "11488-4", "date": "-5m", "title": "Cardiology follow-up",
            "author": "prac-cardiology", "text": (
                "Coronary artery disease: NSTEMI 4 years ago treated with a drug-eluting stent "
                "to the proximal LAD. No angina since. Completed 12 months of dual antiplatelet "
                "therapy; continues aspirin 81 mg and atorvastatin 80 mg, LDL 62 mg/dL. Echo "
                "after the MI: ejection fraction 55%, no heart failure. Continue current "
                "therapy; diabetes therapy with cardiovascular benefit recommended.")}
        note_b = {
            "type": "11506-3", "date": "-1y-11m", "title": "Medication side effect",
            "author": "pcp", "text": (
                "Second episode of genital candidiasis (balanitis) in 3 months since starting "
                "canagliflozin 100 mg, treated with fluconazole. Canagliflozin stopped. Patient "
                "does not want to take any SGLT2 inhibitor again; allergy list not changed "
                "(intolerance, not allergy).")}
        summary = ("coronary disease (NSTEMI with LAD stent 4 years ago) and a past "
                   "canagliflozin intolerance")
    return {"conditions": conditions, "medications": meds, "scenario_note_a": note_a,
            "scenario_note_b": note_b, "comorbidity_summary": summary}


ORACLE = {
    "ckd": {
        "drug": "dapagliflozin", "klass": "SGLT2 inhibitor", "dose": 10, "route": "oral",
        "display": "dapagliflozin 10 mg tablet",
        "sig": "Take 1 tablet (10 mg) by mouth once daily in the morning.",
        "reason": "Type 2 diabetes with CKD G3a and albuminuria, A1c above goal",
        "assessment": ("CKD G3a with moderately increased albuminuria (eGFR {egfr} "
                       "mL/min/1.73 m2, UACR {uacr} mg/g): an SGLT2 inhibitor with proven "
                       "kidney benefit is indicated regardless of A1c (DAPA-CKD, EMPA-KIDNEY, "
                       "CREDENCE); eGFR is above the label threshold for initiation."),
        "safety": ("Expect an early eGFR dip of up to about 30%, which is not a reason to stop. "
                   "Continue losartan. Sick-day rules: hold dapagliflozin during acute illness "
                   "with poor intake. Genital hygiene counseling."),
    },
    "hf": {
        "drug": "dapagliflozin", "klass": "SGLT2 inhibitor", "dose": 10, "route": "oral",
        "display": "dapagliflozin 10 mg tablet",
        "sig": "Take 1 tablet (10 mg) by mouth once daily in the morning.",
        "reason": "Type 2 diabetes with HFrEF, A1c above goal",
        "assessment": ("Heart failure with reduced ejection fraction (LVEF {lvef}%): an SGLT2 "
                       "inhibitor reduces heart failure hospitalization and cardiovascular death "
                       "(DAPA-HF, EMPEROR-Reduced) and is the add-on of choice."),
        "safety": ("Avoid pioglitazone (fluid retention) and saxagliptin (heart failure "
                   "hospitalizations). Mild diuresis expected; cardiology may reduce furosemide "
                   "if he becomes dry. Sick-day rules and genital hygiene counseling."),
    },
    "ascvd": {
        "drug": "liraglutide", "klass": "GLP-1 receptor agonist", "dose": 0.6,
        "route": "subcutaneous", "display": "liraglutide 18 mg/3 mL pen",
        "sig": ("Inject 0.6 mg subcutaneously once daily for 1 week, then 1.2 mg once daily."),
        "reason": "Type 2 diabetes with established ASCVD, A1c above goal",
        "assessment": ("Established ASCVD (NSTEMI with LAD stent): a GLP-1 receptor agonist "
                       "with proven cardiovascular benefit (LEADER, SUSTAIN-6, REWIND) is "
                       "indicated. An SGLT2 inhibitor is not used: he had recurrent genital "
                       "candidiasis on canagliflozin and declines another."),
        "safety": ("Titrate slowly for nausea; small meals. No personal or family history of "
                   "medullary thyroid cancer or MEN2, no pancreatitis. No sulfonylurea, so low "
                   "hypoglycemia risk."),
    },
}


def diabetes_addon(values: dict[str, Any]) -> dict[str, Any]:
    """The add-on to metformin that the patient's comorbidity calls for, and everything the
    story, checkpoints and oracle need from it."""
    scenario = values["scenario"]
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r}")
    age = int(values["age"])
    a1c = float(values["a1c"])
    if not 7.5 <= a1c <= 9.5:
        raise ValueError(f"A1c {a1c} leaves the single add-on design (7.5-9.5%)")
    off = int(values["egfr_off"])
    egfr_target = 45 + off if scenario == "ckd" else 72 + off
    creatinine = _creatinine_for(egfr_target + 0.4, age)
    egfr = _ckd_epi_2021_male(creatinine, age)
    if scenario == "ckd" and not 45 <= egfr < 60:
        raise ValueError(f"eGFR {egfr} leaves CKD G3a")
    if scenario != "ckd" and egfr < 60:
        raise ValueError(f"eGFR {egfr} below 60 in a scenario without CKD")
    creatinine_prev = round(creatinine - 0.05, 2)
    uacr_off = int(values["uacr_off"])
    uacr = 110 + uacr_off if scenario == "ckd" else 8 + uacr_off // 15
    uacr_prev = uacr - 25 if scenario == "ckd" else 9
    weight = int(values["weight_kg"])
    v = {"egfr": egfr, "egfr_prev": _ckd_epi_2021_male(creatinine_prev, age - 1),
         "uacr": uacr, "uacr_prev": uacr_prev, "lvef": int(values["lvef"])}
    story = _story(scenario, v)
    oracle = ORACLE[scenario]
    accepted = ACCEPTED_DRUGS[scenario]
    fmt = {**values, **v}
    return {
        **story,
        **v,
        "creatinine": creatinine,
        "creatinine_prev": creatinine_prev,
        "egfr_3y": _ckd_epi_2021_male(round(creatinine - 0.12, 2), age - 3),
        "creatinine_3y": round(creatinine - 0.12, 2),
        "a1c_prev": round(a1c - 0.5, 1),
        "a1c_1y": round(a1c - 0.9, 1),
        "weight_prev": weight - 2,
        "bmi": round(weight / HEIGHT_M ** 2, 1),
        "bmi_prev": round((weight - 2) / HEIGHT_M ** 2, 1),
        "comorbidity_retrieval": _retrieval(scenario),
        "class_options": [_class_option(k) for k in ACCEPTED_CLASSES[scenario]],
        "wrong_agents": WRONG_AGENTS[scenario],
        "wrong_agents_text": {"ascvd": "an SGLT2 inhibitor", "hf": "a thiazolidinedione, "
                              "saxagliptin or alogliptin", "ckd": "glyburide"}[scenario],
        "addon_class_text": {"ascvd": "a GLP-1 receptor agonist with cardiovascular benefit",
                             "hf": "an SGLT2 inhibitor (dapagliflozin or empagliflozin)",
                             "ckd": "an SGLT2 inhibitor (or a GLP-1 RA with kidney or "
                                    "cardiovascular benefit)"}[scenario],
        "dose_options": [o for d in accepted for o in _dose_options(d)],
        "order_options": [o for d in accepted if d in ORDERABLE for o in _order_options(d)],
        "unsafe_order_text": UNSAFE_ORDER_TEXT[scenario],
        "addon_class": oracle["klass"],
        "addon_drug": oracle["drug"],
        "addon_dose_mg": oracle["dose"],
        "addon_rxnorm": ORDERABLE[oracle["drug"]][0],
        "addon_route": oracle["route"],
        "addon_display": oracle["display"],
        "addon_sig": oracle["sig"],
        "addon_reason": oracle["reason"],
        "addon_reason_code": "E11.22" if scenario == "ckd" else "E11.9",
        "oracle_assessment": oracle["assessment"].format(**fmt),
        "oracle_safety": oracle["safety"],
        "accepted_drugs_text": ", ".join(accepted),
    }

