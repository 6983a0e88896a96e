"""Derived expectations of cardiology tasks: ASCVD risk, statin intensity, CHA2DS2-VASc.

The 10-year ASCVD risk uses the Pooled Cohort Equations with the coefficients published in
Goff DC Jr et al., 2013 ACC/AHA Guideline on the Assessment of Cardiovascular Risk,
Circulation 2014;129(25 Suppl 2):S49-S73, Appendix 7 (Table A): risk = 1 - S10 ** exp(sum -
mean), where the sum runs over the race- and sex-specific terms below.
"""

from __future__ import annotations

import math
from typing import Any

from physbench_gym.synth import terminology

# (race, sex) -> coefficients, baseline 10-year survival S10 and the group mean of the sum.
# Terms: ln_age, ln_age_sq, ln_tc, ln_age_ln_tc, ln_hdl, ln_age_ln_hdl, ln_sbp_treated,
# ln_age_ln_sbp_treated, ln_sbp_untreated, ln_age_ln_sbp_untreated, smoker, ln_age_smoker,
# diabetes.
PCE: dict[tuple[str, str], dict[str, float]] = {
    ("white", "female"): {
        "ln_age": -29.799, "ln_age_sq": 4.884, "ln_tc": 13.540, "ln_age_ln_tc": -3.114,
        "ln_hdl": -13.578, "ln_age_ln_hdl": 3.149, "ln_sbp_treated": 2.019,
        "ln_sbp_untreated": 1.957, "smoker": 7.574, "ln_age_smoker": -1.665,
        "diabetes": 0.661, "s10": 0.9665, "mean": -29.18},
    ("black", "female"): {
        "ln_age": 17.114, "ln_tc": 0.940, "ln_hdl": -18.920, "ln_age_ln_hdl": 4.475,
        "ln_sbp_treated": 29.291, "ln_age_ln_sbp_treated": -6.432,
        "ln_sbp_untreated": 27.820, "ln_age_ln_sbp_untreated": -6.087, "smoker": 0.691,
        "diabetes": 0.874, "s10": 0.9533, "mean": 86.61},
    ("white", "male"): {
        "ln_age": 12.344, "ln_tc": 11.853, "ln_age_ln_tc": -2.664, "ln_hdl": -7.990,
        "ln_age_ln_hdl": 1.769, "ln_sbp_treated": 1.797, "ln_sbp_untreated": 1.764,
        "smoker": 7.837, "ln_age_smoker": -1.795, "diabetes": 0.658, "s10": 0.9144,
        "mean": 61.18},
    ("black", "male"): {
        "ln_age": 2.469, "ln_tc": 0.302, "ln_hdl": -0.307, "ln_sbp_treated": 1.916,
        "ln_sbp_untreated": 1.809, "smoker": 0.549, "diabetes": 0.645, "s10": 0.8954,
        "mean": 19.54},
}


def pooled_cohort_risk(*, age: float, sex: str, race: str, total_chol: float, hdl: float,
                       sbp: float, treated: bool, smoker: bool, diabetic: bool) -> float:
    """10-year risk of a first hard ASCVD event, in percent (ages 40-79; mg/dL; mmHg).

    ``race`` is 'black' for African American and 'white' otherwise (the guideline's advice for
    other groups).
    """
    c = PCE[("black" if race == "black" else "white", sex)]
    ln_age, ln_tc, ln_hdl, ln_sbp = (math.log(v) for v in (age, total_chol, hdl, sbp))
    terms = {
        "ln_age": ln_age, "ln_age_sq": ln_age ** 2, "ln_tc": ln_tc, "ln_age_ln_tc": ln_age * ln_tc,
        "ln_hdl": ln_hdl, "ln_age_ln_hdl": ln_age * ln_hdl,
        "ln_sbp_treated": ln_sbp if treated else 0.0,
        "ln_age_ln_sbp_treated": ln_age * ln_sbp if treated else 0.0,
        "ln_sbp_untreated": 0.0 if treated else ln_sbp,
        "ln_age_ln_sbp_untreated": 0.0 if treated else ln_age * ln_sbp,
        "smoker": float(smoker), "ln_age_smoker": ln_age * float(smoker),
        "diabetes": float(diabetic),
    }
    total = sum(c.get(name, 0.0) * value for name, value in terms.items())
    return 100 * (1 - c["s10"] ** math.exp(total - c["mean"]))


def risk_category(risk_percent: float) -> str:
    """2018 AHA/ACC cholesterol guideline categories of 10-year ASCVD risk."""
    if risk_percent < 5:
        return "low"
    if risk_percent < 7.5:
        return "borderline"
    if risk_percent < 20:
        return "intermediate"
    return "high"


# 2018 AHA/ACC cholesterol guideline, Table 3: statin intensity by daily dose (mg).
STATIN_INTENSITY: dict[str, dict[str, tuple[float, ...]]] = {
    "high": {"atorvastatin": (40, 80), "rosuvastatin": (20, 40)},
    "moderate": {"atorvastatin": (10, 20), "rosuvastatin": (5, 10),
                 "simvastatin": (20, 40), "pravastatin": (40, 80), "lovastatin": (40, 80),
                 "pitavastatin": (1, 2, 4), "fluvastatin": (80,)},
    "low": {"simvastatin": (10,), "pravastatin": (10, 20), "lovastatin": (20,),
            "fluvastatin": (20, 40)},
}


def statin_tablets() -> list[tuple[str, float, str]]:
    """(ingredient, strength in mg, RxNorm code) of the single-ingredient statin tablets."""
    found = []
    for concept in terminology.all_concepts("rxnorm"):
        ingredient = concept.extra.get("ingredient", "").lower()
        form = concept.extra.get("dose_form", "").lower()
        if "/" in ingredient or "oral tablet" not in form or "statin" not in ingredient:
            continue
        strength = concept.extra.get("strength", "").upper().replace(" ", "")
        if strength.endswith("MG") and strength[:-2].replace(".", "").isdigit():
            name = next((s for intens in STATIN_INTENSITY.values() for s in intens
                         if ingredient.startswith(s)), None)
            if name is not None:
                found.append((name, float(strength[:-2]), concept.code))
    return sorted(found)


def statin_codes(intensity: str, ingredients: tuple[str, ...] | None = None) -> list[str]:
    """RxNorm codes of the statin tablets of one intensity (optionally some ingredients only)."""
    table = STATIN_INTENSITY[intensity]
    return [code for name, mg, code in statin_tablets()
            if name in table and mg in table[name] and (ingredients is None or name in ingredients)]


def _unlisted_statin_codes() -> list[str]:
    """Statin tablets outside Table 3 (simvastatin 80 mg: not for new patients, myopathy)."""
    listed = {code for intensity in STATIN_INTENSITY for code in statin_codes(intensity)}
    return [code for _, _, code in statin_tablets() if code not in listed]


def _statin_code(name: str, mg: float) -> str:
    for found, strength, code in statin_tablets():
        if found == name and strength == mg:
            return code
    raise LookupError(f"no RxNorm tablet for {name} {mg:g} mg in the terminology tables")


def _ldl(total: float, hdl: float, tg: float) -> int:
    """Friedewald LDL-C (mg/dL), valid for TG < 400 mg/dL."""
    return round(total - hdl - tg / 5)


# Lipid and blood-pressure bases of the two scenarios; the variables add 0-24 (TC), 0-5 (HDL),
# 0-12 (SBP) and 0-60 (TG), which keeps the non-smoker at 9-14% (intermediate) and the smoker
# at 22-31% (high) 10-year risk, and LDL-C within 70-189 mg/dL.
LIPID_BASE = {"nonsmoker": {"tc": 208, "hdl": 41, "sbp": 128, "tg": 140},
              "smoker": {"tc": 228, "hdl": 34, "sbp": 140, "tg": 160}}


def statin_initiation(values: dict[str, Any]) -> dict[str, Any]:
    """Primary prevention, age 40-75, LDL 70-189, no diabetes: the risk-based statin decision.

    Risk >= 20%: high-intensity statin (lower LDL-C >= 50%); 7.5-<20% with risk enhancers:
    moderate-intensity statin (lower LDL-C >= 30%) (2018 AHA/ACC guideline, primary prevention).
    """
    smoker = bool(values["smoker"])
    base = LIPID_BASE["smoker" if smoker else "nonsmoker"]
    tc = base["tc"] + int(values["tc_off"])
    hdl = base["hdl"] + int(values["hdl_off"])
    sbp = base["sbp"] + int(values["sbp_off"])
    tg = base["tg"] + int(values["tg_off"])
    risk = pooled_cohort_risk(
        age=values["age"], sex=values["gender"], race="white", total_chol=tc, hdl=hdl,
        sbp=sbp, treated=True, smoker=smoker, diabetic=False)
    category = risk_category(risk)
    if category not in ("intermediate", "high"):
        raise ValueError(f"variant outside the task's design: risk {risk:.1f}% ({category})")
    ldl = _ldl(tc, hdl, tg)
    if not 70 <= ldl < 190:
        raise ValueError(f"variant outside the task's design: LDL {ldl} mg/dL")
    intensity = "high" if category == "high" else "moderate"
    # Intermediate risk with risk enhancers (premature family history, hs-CRP >= 2) favors
    # initiation or intensification (section 4.4.2, IIa): moderate or high intensity.
    accepted = ("moderate", "high") if category == "intermediate" else ("high",)
    drug, dose = ("atorvastatin", 40.0) if intensity == "high" else ("atorvastatin", 20.0)
    # Any statin at a dose of an accepted intensity (Table 3) is a correct plan; the note
    # must name the drug with its dose in the clause that starts it.
    dose_options = [
        {"note_decision": {
            "concept": [name], "action": ["start"],
            "dose": {"min": min(doses), "max": max(doses), "unit": "mg"},
            "label": f"start {name} {min(doses):g}-{max(doses):g} mg daily"}}
        for name, doses in _accepted_doses(accepted).items()]
    # Every statin named at all, as an alternative too, must be at an accepted dose
    # ('alternatively simvastatin 80 mg' fails); statins with no accepted dose are never offered.
    accepted_doses = _accepted_doses(accepted)
    dose_guards = [
        {"note_decision": {
            "concept": [name], "action": ["start"], "required": False, "opposite": [],
            "dose": {"min": min(accepted_doses[name]), "max": max(accepted_doses[name]),
                     "unit": "mg"}, "label": f"{name} only at an accepted dose"}}
        if name in accepted_doses else
        {"note_never": {"concept": [name], "allow_contingency": True,
                        "label": f"no {name} (no dose of the accepted intensity)"}}
        for name in sorted({n for table in STATIN_INTENSITY.values() for n in table})]
    return {
        "tc": tc, "hdl": hdl, "sbp": sbp, "tg": tg, "dbp": 78 + int(values["sbp_off"]) // 2,
        "sbp_prev": sbp + 4,
        "risk": round(risk, 1),
        "risk_tol": round(max(1.5, 0.12 * risk), 1),
        "risk_category": category,
        "category_concept": f"level_{category}",
        "other_categories": [f"level_{c}" for c in ("low", "borderline", "intermediate", "high")
                             if c != category],
        "ldl": ldl,
        "intensity": intensity,
        "accepted_intensities": list(accepted),
        "intensity_text": " or ".join(f"{i}-intensity" for i in accepted),
        "intensity_concepts": [f"{i}_intensity" for i in accepted],
        "other_intensity_concepts": [f"{i}_intensity" for i in ("low", "moderate", "high")
                                     if i not in accepted],
        "ldl_goal_pct": 50 if intensity == "high" else 30,
        "statin_drug": drug,
        "statin_dose_mg": int(dose),
        "statin_rxnorm": _statin_code(drug, dose),
        "acceptable_statin_rxnorm": [c for i in accepted for c in statin_codes(i)],
        "wrong_statin_rxnorm": sorted(set(
            [c for i in ("low", "moderate", "high") if i not in accepted for c in statin_codes(i)]
                                          + _unlisted_statin_codes())),
        "statin_dose_options": dose_options,
        "statin_dose_guards": dose_guards,
        "atorva_range": _dose_span("atorvastatin", accepted),
        "rosuva_range": _dose_span("rosuvastatin", accepted),
        "smoke_recent": "77176002" if smoker else "8517006",
        "smoking_text": ("Current smoker, about a pack a day; relapsed 2 years ago after "
                         "quitting for a year." if smoker else
                         "Former smoker, quit 7 years ago (about 15 pack-years); no "
                         "tobacco since."),
        "smoking_short": "current smoker" if smoker else "former smoker (quit 7 years ago)",
    }


def _accepted_doses(intensities: tuple[str, ...]) -> dict[str, list[float]]:
    """Statin -> its daily doses (mg) of the accepted intensities."""
    doses: dict[str, list[float]] = {}
    for intensity in intensities:
        for name, mgs in STATIN_INTENSITY[intensity].items():
            doses.setdefault(name, []).extend(mgs)
    return doses


def _dose_span(drug: str, intensities: tuple[str, ...]) -> str:
    doses = [mg for intensity in intensities for mg in STATIN_INTENSITY[intensity][drug]]
    return f"{min(doses):g}-{max(doses):g}"


def cha2ds2_vasc(*, age: int, female: bool, chf: bool = False, hypertension: bool = False,
                 diabetes: bool = False, stroke_tia: bool = False,
                 vascular: bool = False) -> int:
    """CHA2DS2-VASc: CHF 1, hypertension 1, age >=75 2, diabetes 1, stroke/TIA/embolism 2,
    vascular disease (prior MI, PAD, aortic plaque) 1, age 65-74 1, female sex 1."""
    score = int(chf) + int(hypertension) + int(diabetes) + 2 * int(stroke_tia)
    score += int(vascular) + int(female)
    score += 2 if age >= 75 else 1 if age >= 65 else 0
    return score


# Decision by CHA2DS2-VASc under the 2023 ACC/AHA/ACCP/HRS AF guideline (section 6.3.1):
# >=2 (men) / >=3 (women) anticoagulation recommended; 1 / 2 reasonable; 0 / 1 not indicated.
def afib_workup(values: dict[str, Any]) -> dict[str, Any]:
    """New paroxysmal AF in a young man: chart-derived CHA2DS2-VASc and what follows from it.

    Every chart holds a provoked DVT (not a CHA2DS2-VASc item) and one blood pressure during
    rapid AF in the ED; the risk profile adds treated hypertension and diabetes or nothing.
    The decision follows the 2023 AF guideline: anticoagulate at >= 2 (men) / >= 3 (women),
    none at 0 / 1; a man's score of 1 (anticoagulation "reasonable") is outside the design.
    """
    female = values["gender"] == "female"
    profile = values["risk_profile"]
    score = cha2ds2_vasc(age=int(values["age"]), female=female, chf=False,
                         hypertension=profile["hypertension"], diabetes=profile["diabetes"],
                         stroke_tia=False, vascular=False)
    sex_point = 1 if female else 0
    if score - sex_point == 1:
        raise ValueError(f"variant outside the task's design: CHA2DS2-VASc {score}")
    items = [name for name, present in (("hypertension", profile["hypertension"]),
                                        ("diabetes", profile["diabetes"])) if present]
    height_m = 1.78
    return {
        "cha2ds2vasc": score,
        "score_items": " and ".join(f"{item} 1" for item in items) or "no risk factor",
        "anticoagulation": "indicated" if score - sex_point >= 2 else "not indicated",
        "ed_dbp": 88 + (int(values["ed_sbp"]) - 142) // 3,
        "prior_weight_kg": int(values["weight_kg"]) - 3,
        "bmi": round(int(values["weight_kg"]) / height_m ** 2, 1),
        "prior_bmi": round((int(values["weight_kg"]) - 3) / height_m ** 2, 1),
        "rate_control_rxnorm": rate_control_codes(),
        "doac_orders": doac_orders(),
    }


# Full nonvalvular-AF doses accepted for this patient (no dose-reduction criterion).
FULL_AF_DOAC = (("1364445", 5.0, 2, "apixaban 5 mg twice daily"),
                ("1232086", 20.0, 1, "rivaroxaban 20 mg daily"),
                ("1037045", 150.0, 2, "dabigatran 150 mg twice daily"))
ANTICOAGULANT_CLASSES = ("direct oral anticoagulant", "vitamin K antagonist",
                         "low molecular weight heparin")


def doac_orders() -> list[dict[str, Any]]:
    """One DOAC at its full AF dose, and no second anticoagulant, no loading or double dose."""
    every = sorted(c.code for c in terminology.all_concepts("rxnorm")
                   if c.extra.get("drug_class") in ANTICOAGULANT_CLASSES)
    options = []
    for code, mg, per_day, label in FULL_AF_DOAC:
        options.append({"all": {"of": [
            {"ordered": {"resource_type": "MedicationRequest", "codes": [code],
                         "status": ["active"], "intent": ["order"],
                         "dose": {"min": mg, "max": mg, "unit": "mg"},
                         "per_day": {"min": per_day, "max": per_day}, "label": label}},
            {"not_ordered": {"resource_type": "MedicationRequest",
                             "codes": [c for c in every if c != code],
                             "label": "a second anticoagulant"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": [code],
                             "dose": {"min": mg + 0.01, "unit": "mg"},
                             "label": f"{label.split()[0]} above {mg:g} mg"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": [code],
                             "per_day": {"min": per_day + 0.5},
                             "label": f"{label.split()[0]} more often"}}]}})
    return options


# Oral rate-control agents for AF without HFrEF (2023 AF guideline, section 8.3): beta
# blockers and the non-dihydropyridine calcium channel blockers.
RATE_CONTROL = ("metoprolol", "atenolol", "bisoprolol", "propranolol", "nadolol", "carvedilol",
                "diltiazem", "verapamil")
MAX_START_MG = {"metoprolol": 100.0, "atenolol": 50.0, "bisoprolol": 5.0, "propranolol": 40.0,
                "nadolol": 40.0, "carvedilol": 12.5, "diltiazem": 240.0, "verapamil": 240.0}


def rate_control_codes() -> list[str]:
    """RxNorm codes of oral single-ingredient rate-control agents at usual starting strengths."""
    codes = []
    for concept in terminology.all_concepts("rxnorm"):
        ingredient = concept.extra.get("ingredient", "").lower()
        name = next((n for n in RATE_CONTROL if ingredient.startswith(n)), None)
        if name is None or "/" in ingredient or concept.extra.get("route") != "oral":
            continue
        strength = concept.extra.get("strength", "").upper().replace(" ", "")
        if strength.endswith("MG") and float(strength[:-2]) <= MAX_START_MG[name]:
            codes.append(concept.code)
    return sorted(codes)
