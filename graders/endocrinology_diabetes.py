"""Type 2 diabetes above goal on maximum-dose metformin: the comorbidity decides the add-on.

ADA Standards of Care 2025, section 9 (and section 11 for CKD): with heart failure an SGLT2
inhibitor; with CKD (eGFR 20-60 and/or albuminuria) an SGLT2 inhibitor or a GLP-1 RA with
demonstrated benefit; with established ASCVD a GLP-1 RA or SGLT2 inhibitor with proven
cardiovascular benefit - here the patient stopped an SGLT2 inhibitor for recurrent genital
mycotic infections and declines another, so the ASCVD variant needs a GLP-1 RA.
"""

from __future__ import annotations

import re
from typing import Any

from physbench_gym.grading.core import FILE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.grading.phrases import expand
from physbench_gym.grading.text import (
    clauses,
    compile_terms,
    find_terms,
    is_hedged,
    is_historical,
    negated_after,
    negated_before,
)

SCENARIOS = ("ckd", "hf", "ascvd")
HEIGHT_M = 1.78

METFORMIN_RXNORM = "860975"  # 24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet
DAPAGLIFLOZIN_10 = "1488569"  # dapagliflozin 10 MG Oral Tablet
CANAGLIFLOZIN_100 = "1373463"  # canagliflozin 100 MG Oral Tablet
LIRAGLUTIDE_PEN = "897122"  # 3 ML liraglutide 6 MG/ML Pen Injector

SGLT2_CLASS = ["SGLT2 inhibitor", "SGLT2 inhibitors", "SGLT-2 inhibitor", "SGLT-2 inhibitors",
               "SGLT2i", "SGLT-2i", "SGLT2-i", "sodium-glucose cotransporter 2 inhibitor",
               "sodium-glucose co-transporter 2 inhibitor", "sodium glucose cotransporter 2",
               "gliflozin", "SGLT2"]
GLP1_CLASS = ["GLP-1 RA", "GLP-1RA", "GLP1 RA", "GLP1RA", "GLP-1 receptor agonist",
              "GLP-1 receptor agonists", "GLP1 receptor agonist", "GLP-1 agonist", "GLP1 agonist",
              "glucagon-like peptide-1 receptor agonist",
              "glucagon-like peptide 1 receptor agonist", "GLP-1"]
DRUG_NAMES = {
    "dapagliflozin": ["dapagliflozin", "Farxiga", "dapa"],
    "empagliflozin": ["empagliflozin", "Jardiance", "empa"],
    "canagliflozin": ["canagliflozin", "Invokana", "cana"],
    "semaglutide": ["semaglutide", "Ozempic"],
    "dulaglutide": ["dulaglutide", "Trulicity"],
    "liraglutide": ["liraglutide", "Victoza"],
}
# Starting dose of each agent for this patient (US prescribing information): SGLT2 inhibitors at
# the dose proven in HF/CKD (dapagliflozin 10 mg, empagliflozin 10 mg) or the eGFR 30-60 dose
# (canagliflozin 100 mg); GLP-1 RAs at their label starting dose.
START_DOSE_MG = {"dapagliflozin": 10.0, "empagliflozin": 10.0, "canagliflozin": 100.0,
                 "semaglutide": 0.25, "dulaglutide": 0.75, "liraglutide": 0.6}
DOSE_TOLERANCE_MG = {"dapagliflozin": 0.5, "empagliflozin": 0.5, "canagliflozin": 0.5,
                     "semaglutide": 0.01, "dulaglutide": 0.01, "liraglutide": 0.01}

ACCEPTED_DRUGS = {
    # SGLT2i first (KDIGO 2022 1A, ADA 11.5a); a GLP-1 RA with kidney/CV benefit is also an
    # ADA 2025 option in CKD.
    "ckd": ["dapagliflozin", "empagliflozin", "canagliflozin", "semaglutide", "dulaglutide",
            "liraglutide"],
    # SGLT2 inhibitors with proven HF benefit (DAPA-HF, EMPEROR-Reduced).
    "hf": ["dapagliflozin", "empagliflozin"],
    # GLP-1 RAs with proven CV benefit (LEADER, SUSTAIN-6, REWIND); SGLT2i declined.
    "ascvd": ["semaglutide", "dulaglutide", "liraglutide"],
}
ACCEPTED_CLASSES = {"ckd": ("sglt2", "glp1"), "hf": ("sglt2",), "ascvd": ("glp1",)}
CLASS_OF = {"dapagliflozin": "sglt2", "empagliflozin": "sglt2", "canagliflozin": "sglt2",
            "semaglutide": "glp1", "dulaglutide": "glp1", "liraglutide": "glp1"}
# Orders the EHR can take (terminology tables): code, per-day frequency.
ORDERABLE = {"dapagliflozin": (DAPAGLIFLOZIN_10, 1.0), "canagliflozin": (CANAGLIFLOZIN_100, 1.0),
             "liraglutide": (LIRAGLUTIDE_PEN, 1.0)}

TZD_AND_HF_RISK_DPP4 = ["pioglitazone", "Actos", "rosiglitazone", "Avandia",
                        "thiazolidinedione", "thiazolidinediones", "TZD", "saxagliptin",
                        "Onglyza", "alogliptin", "Nesina"]
# Agents a plan must not start, per scenario.
WRONG_AGENTS = {
    "ascvd": SGLT2_CLASS + [n for d in ("dapagliflozin", "empagliflozin", "canagliflozin",
                                        "ertugliflozin") for n in DRUG_NAMES.get(d, [d])],
    "hf": TZD_AND_HF_RISK_DPP4,
    "ckd": ["glyburide", "glibenclamide", "DiaBeta", "Micronase", "Glynase"],
}
UNSAFE_ORDER_TEXT = {
    "ascvd": ["gliflozin"],
    "hf": ["glitazone", "saxagliptin", "alogliptin"],
    "ckd": ["glyburide", "glibenclamide"],
}

START_ACTIONS = ["start", "re:\\bplan\\s*:", "new medication", "switch to", "begin with"]


def _opposite(names: list[str]) -> list[str]:
    """Phrases that stop or rule out one of ``names`` (attached to the name, so 'start
    semaglutide as SGLT2 inhibitors are not appropriate' does not contradict semaglutide)."""
    alt = "|".join(re.escape(n.lower()) for n in sorted(names, key=len, reverse=True))
    return [
        "defer", "hold off",
        rf"re:\b(?:stop|avoid|discontinu|hold)\w*\b[^,;:.]{{0,25}}\b(?:{alt})(?![\w-])"
        rf"(?![^,;:.]{{0,40}}\b(?:during|when|if|before|while|around|until|for surgery|"
        rf"for procedures?|on sick days)\b)",
        rf"re:(?<![\w-])(?:{alt})\b[^,;:.]{{0,25}}\b(?:not indicated|not recommended|"
        rf"contraindicated|not appropriate|inappropriate|should be avoided|to be avoided|"
        rf"should be stopped|not an option)\b",
    ]


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
    drugs = [d for d, c in CLASS_OF.items() if c == klass]
    names = [n for d in drugs for n in DRUG_NAMES[d]]
    subject = (SGLT2_CLASS if klass == "sglt2" else GLP1_CLASS) + names
    return {"note_decision": {
        "subject": subject, "action": START_ACTIONS, "opposite": _opposite(subject),
        "label": "start an SGLT2 inhibitor" if klass == "sglt2" else "start a GLP-1 RA"}}


def _dose_option(drug: str) -> dict[str, Any]:
    return {"note_decision": {
        "subject": DRUG_NAMES[drug], "action": START_ACTIONS,
        "opposite": _opposite(DRUG_NAMES[drug]),
        "value": {"value": START_DOSE_MG[drug], "tolerance": DOSE_TOLERANCE_MG[drug],
                  "units": {"mg": 1, "mcg": 0.001}},
        "label": f"start {drug} {START_DOSE_MG[drug]:g} mg"}}


def _order_option(drug: str) -> dict[str, Any]:
    code, per_day = ORDERABLE[drug]
    dose = START_DOSE_MG[drug]
    return {"ordered": {
        "resource_type": "MedicationRequest", "codes": [code], "status": ["active"],
        "intent": ["order"], "dose": {"min": dose - 1e-6, "max": dose + 1e-6, "unit": "mg"},
        "per_day": {"min": per_day, "max": per_day},
        "label": f"{drug} {dose:g} mg once daily"}}


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
                "49/51 mg twice daily, carvedilol 12.5 mg twice daily and furosemide 40 mg daily. "
                "Potassium 4.4. Plan: continue guideline-directed therapy; would welcome an "
                "SGLT2 inhibitor from the diabetes side.")}
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
        "dose_options": [_dose_option(d) for d in accepted],
        "order_options": [_order_option(d) for d in accepted if d in ORDERABLE],
        "unsafe_order_text": UNSAFE_ORDER_TEXT[scenario],
        "addon_class": oracle["klass"],
        "addon_drug": oracle["drug"],
        "addon_dose_mg": oracle["dose"],
        "addon_rxnorm": ORDERABLE[oracle["drug"]][0],
        "addon_route": oracle["route"],
        "addon_display": oracle["display"],
        "addon_sig": oracle["sig"],
        "addon_reason": oracle["reason"],
        "oracle_assessment": oracle["assessment"].format(**fmt),
        "oracle_safety": oracle["safety"],
        "accepted_drugs_text": ", ".join(accepted),
    }


_START = compile_terms(tuple(expand(START_ACTIONS)), inflect=True)
_PASSIVE_START = re.compile(r"^[^,;:]{0,25}?\b(?:is|are|will be|to be|should be|has been)\s+"
                            r"(?:started|initiated|added|prescribed|begun)\b")
_ALTERNATIVE = re.compile(r"\b(over|than|instead of|in place of|rather|alternative to|not|no|"
                          r"avoid|without)\b")


@triggered_by(FILE)
def no_wrong_addon_started(ctx: GradingContext) -> CheckpointResult:
    """The note does not plainly start an agent the patient's comorbidity rules out.

    A clause starts a wrong agent when a start verb that is not negated governs it (the agent
    follows the verb before the next comma, not as an alternative: 'rather than pioglitazone')
    or the agent is the subject of a passive start ('saxagliptin will be added'); hedged and
    historical clauses start nothing.
    """
    note = ctx.note()
    if note is None:
        return CheckpointResult(False, "no note")
    wrong = compile_terms(tuple(ctx.values["wrong_agents"]))
    for clause in clauses(note):
        if is_hedged(clause) or is_historical(clause):
            continue
        if _starts_wrong(clause, wrong):
            return CheckpointResult(False, f"starts a ruled-out agent: \"{clause[:90]}\"")
    return CheckpointResult(True, "no ruled-out agent started")


def _starts_wrong(clause: str, wrong: tuple) -> bool:
    for verb in find_terms(clause, _START):
        if negated_before(clause, verb.start()) or negated_after(clause, verb.end()):
            continue
        window = re.split(r",|\bbut\b|\bbecause\b|\bgiven\b|\bsince\b|\bas\b",
                          clause[verb.end():verb.end() + 80])[0]
        for name in find_terms(window, wrong):
            if not _ALTERNATIVE.search(window[:name.start()]):
                return True
    for name in find_terms(clause, wrong):
        before = " ".join(clause[:name.start()].split()[-4:])
        if _PASSIVE_START.match(clause[name.end():]) and not _ALTERNATIVE.search(before):
            return True
    return False
