"""Derived expectations of psychiatry, neurology and addiction tasks."""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

# Units an agent may write for a count of tablets or films (graders compare normalized units).
TABLET_UNITS = ("tablet", "tablets", "tab", "tabs", "{tablet}", "{tbl}")
FILM_UNITS = ("film", "films", "{film}", "strip", "strips")

# DSM-5 opioid use disorder criteria, in the order the intake note lists them.
OUD_CRITERIA = (
    "taken in larger amounts or over a longer period than intended",
    "persistent desire or unsuccessful efforts to cut down",
    "a great deal of time spent obtaining, using or recovering",
    "craving",
    "failure to fulfil major role obligations at work (lost his warehouse job)",
    "continued use despite social and interpersonal problems",
    "important activities given up",
    "recurrent use in physically hazardous situations (using alone)",
    "continued use despite knowledge of physical or psychological problems",
    "tolerance",
    "withdrawal",
)


def cows_category(score: int) -> str:
    """Clinical Opiate Withdrawal Scale band (Wesson & Ling 2003)."""
    if score < 5:
        return "none"
    if score <= 12:
        return "mild"
    if score <= 24:
        return "moderate"
    if score <= 36:
        return "moderately severe"
    return "severe"


def oud_severity(criteria: int) -> str:
    """DSM-5 severity: 2-3 criteria mild, 4-5 moderate, 6 or more severe."""
    if criteria >= 6:
        return "severe"
    if criteria >= 4:
        return "moderate"
    return "mild"


_WITHDRAWAL_TERMS = {
    "mild": ["mild withdrawal", "mild opioid withdrawal", "mild opiate withdrawal"],
    "moderate": ["moderate withdrawal", "moderate opioid withdrawal", "moderate opiate withdrawal",
                 "withdrawal of moderate severity", "moderate range", "moderate opioid "
                 "withdrawal syndrome", "moderate-range withdrawal"],
    "moderately severe": ["moderately severe withdrawal", "moderately severe opioid withdrawal",
                          "moderately severe range"],
}




def _plan_options(chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """The note starts the chosen drug at its dose and schedule (naltrexone: by mouth daily,
    or the extended-release injection every 4 weeks)."""
    options = [{"note_decision": {
        "concept": [chosen["drug"]], "action": ["start"], "deferral_contradicts": True,
        "dose": {"value": chosen["dose_mg"], "tolerance": 0.5, "unit": "mg"},
        "every": {"min": chosen["per_day"], "max": chosen["per_day"]},
        "label": f"{chosen['drug']} {chosen['dose_text']}"}}]
    if chosen["drug"] == "acamprosate" and chosen["dose_mg"] < 666:
        # the renal dose is a ceiling: no later or conditional step to the full dose
        options = [{"all": {"of": [options[0], {"note_decision": {
            "concept": ["acamprosate"], "action": ["start", "increase", "continue"],
            "dose": {"max": chosen["dose_mg"] + 0.5, "unit": "mg"}, "required": False,
            "all_steps": True, "strict": True, "opposite": [],
            "label": f"no acamprosate dose above the renal {chosen['dose_text']}"}}]}}]
    if chosen["drug"] == "naltrexone":
        options.append({"note_decision": {
            "concept": ["naltrexone"], "action": ["start"], "deferral_contradicts": True,
            "dose": {"value": 380, "unit": "mg"}, "every": {"min": 1 / 31, "max": 1 / 28},
            "label": "extended-release naltrexone 380 mg IM every 4 weeks"}})
    return options


def buprenorphine_initiation(values: dict[str, Any]) -> dict[str, Any]:
    """COWS band, OUD severity and the DSM-5 criteria text of the intake note."""
    cows = int(values["cows"])
    criteria = int(values["criteria_met"])
    band = cows_category(cows)
    if band not in ("moderate", "moderately severe"):
        raise ValueError(f"COWS {cows} is not the objective withdrawal this task needs")
    severity = oud_severity(criteria)
    bup_codes = _rxnorm_codes(lambda c: c.extra["ingredient"] == "buprenorphine / naloxone"
                              and c.extra["route"] == "sublingual")
    listed = OUD_CRITERIA[:criteria - 2] + OUD_CRITERIA[-2:]
    levels = {"mild": "level_mild", "moderate": "level_moderate",
              "moderately severe": "level_moderately_severe", "severe": "level_severe"}
    return {
        "cows_band": band,
        "cows_level": [levels[band]] + (["withdrawal_moderate"] if band == "moderate" else []),
        "cows_other_levels": [v for k, v in levels.items() if k != band],
        "oud_severity": severity,
        "oud_level": [levels[severity]],
        "oud_other_levels": [v for k, v in levels.items()
                             if k != severity and k != "moderately severe"],
        "criteria_text": "; ".join(f"({i + 1}) {text}" for i, text in enumerate(listed)),
        "early_cows": 3,
        "bup_nx_rxnorm": bup_codes,
        "bup_order_options": _bup_order_options(bup_codes),
        "unsafe_opioid_rxnorm": _rxnorm_codes(_unsafe_with_buprenorphine),
    }


def _bup_order_options(codes: list[str]) -> list[dict[str, Any]]:
    """Buprenorphine-naloxone SL orders: 2-24 mg per dose, or 0.5-3 tablets/films per dose."""
    base = {"resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
            "intent": ["order"]}
    options = [{"ordered": {**base, "dose": {"min": 2, "max": 24, "unit": "mg"},
                            "label": "buprenorphine-naloxone 2-24 mg"}}]
    for unit in (*TABLET_UNITS, *FILM_UNITS):
        options.append({"ordered": {**base, "dose": {"min": 0.5, "max": 3, "unit": unit},
                                    "label": f"buprenorphine-naloxone 0.5-3 {unit}"}})
    return options


def _rxnorm_codes(keep: Any) -> list[str]:
    return [c.code for c in terminology.all_concepts("rxnorm") if keep(c)]


def _unsafe_with_buprenorphine(concept: terminology.Concept) -> bool:
    """Full-agonist opioids (incl. methadone) and naltrexone: wrong or unsafe at initiation."""
    ingredient = concept.extra["ingredient"].lower()
    return (concept.extra["drug_class"].lower().startswith("opioid analgesic")
            or "naltrexone" in ingredient or "methadone" in ingredient)


# DSM-5 alcohol use disorder criteria, in the order the visit note lists them.
AUD_CRITERIA = (
    "drinks more or longer than intended",
    "unsuccessful efforts to cut down",
    "much time spent drinking or recovering",
    "craving",
    "missed work after drinking",
    "continued drinking despite arguments with his wife",
    "gave up his bowling league",
    "drives after drinking",
    "continued drinking despite gastritis and elevated liver tests",
    "tolerance",
    "withdrawal (morning tremor relieved by drinking)",
)

# Target creatinine clearance bands (mL/min) and the opioid history of each clinical scenario.
_AUD_SCENARIOS = {
    "opioid_normal_renal": {"crcl": (60, 88), "opioid": True, "renal_condition": "235595009"},
    "opioid_ckd3": {"crcl": (35, 47), "opioid": True, "renal_condition": "433144002"},
    "ckd4_no_opioid": {"crcl": (22, 27), "opioid": False, "renal_condition": "431857002"},
}
_NALTREXONE = ["naltrexone", "Revia", "Vivitrol", "NTX"]
_ACAMPROSATE = ["acamprosate", "Campral"]
_AVOID = ["avoid", "contraindicated", "not a candidate", "not appropriate", "not recommended",
          "not be used", "not use", "not start", "not prescribe", "not an option",
          "should not be started", "would precipitate", "unsafe", "excluded", "not suitable",
          "inappropriate"]


def cockcroft_gault(age: int, weight_kg: float, creatinine: float, female: bool = False) -> float:
    """Creatinine clearance (mL/min) by Cockcroft-Gault with actual body weight."""
    value = (140 - age) * weight_kg / (72 * creatinine)
    return value * 0.85 if female else value


def alcohol_pharmacotherapy(values: dict[str, Any]) -> dict[str, Any]:
    """The AUD medication that the renal function and the opioid history allow, and its dose."""
    scenario = _AUD_SCENARIOS[values["scenario"]]
    age, weight = int(values["age"]), float(values["weight_kg"])
    low, high = scenario["crcl"]
    target = low + (high - low) * float(values["renal_draw"])
    creatinine = round((140 - age) * weight / (72 * target), 2)
    crcl = cockcroft_gault(age, weight, creatinine)
    if crcl <= 30:
        drug = "naltrexone"
    else:
        drug = "acamprosate"
    if drug == "acamprosate" and scenario["opioid"] is False:
        raise ValueError("scenario without opioids must have CrCl <= 30")
    if drug == "naltrexone" and scenario["opioid"]:
        raise ValueError("no AUD drug of this task fits opioid use with CrCl <= 30")
    criteria = int(values["criteria_met"])
    severity = "severe" if criteria >= 6 else "moderate" if criteria >= 4 else "mild"
    listed = AUD_CRITERIA[:criteria - 2] + AUD_CRITERIA[-2:]
    audit = int(values["audit_score"])
    if drug == "acamprosate":
        renal_dose = crcl < 50
        dose_mg = 333 if renal_dose else 666
        tablets = 1 if renal_dose else 2
        chosen = {
            "drug": "acamprosate", "drug_terms": _ACAMPROSATE, "drug_rxnorm": "835726",
            "dose_mg": dose_mg, "tablets": tablets, "per_day": 3,
            "dose_text": f"{dose_mg} mg three times daily",
            "avoided": "naltrexone", "avoided_terms": _NALTREXONE,
            "avoided_unless": ["opioid"],
            "avoided_rxnorm": ["1483744", "637213"],
            "reason_text": ("naltrexone is contraindicated because he takes oxycodone daily "
                            "(it would precipitate opioid withdrawal and block analgesia)"),
            "dose_reason": (f"CrCl {crcl:.0f} mL/min is 30-50, so the label dose is reduced to "
                            "333 mg three times daily" if renal_dose else
                            f"CrCl {crcl:.0f} mL/min is above 50, so the full dose applies"),
        }
    else:
        chosen = {
            "drug": "naltrexone", "drug_terms": _NALTREXONE, "drug_rxnorm": "1483744",
            "dose_mg": 50, "tablets": 1, "per_day": 1,
            "dose_text": "50 mg once daily (or extended-release 380 mg IM every 4 weeks)",
            "avoided": "acamprosate", "avoided_terms": _ACAMPROSATE,
            "avoided_unless": ["crcl", "egfr", "creatinine"],
            "avoided_rxnorm": ["835726"],
            "reason_text": (f"acamprosate is contraindicated with CrCl {crcl:.0f} mL/min "
                            "(30 or less)"),
            "dose_reason": ("no opioid since oxycodone was stopped 2 years ago and no acute "
                            "hepatitis or liver failure, so naltrexone is safe"),
        }
    opioid = scenario["opioid"]
    return {
        **chosen,
        "creatinine": creatinine,
        "creatinine_1y": round(creatinine * 0.93, 2),
        "creatinine_3y": round(creatinine * 0.84, 2),
        "order_options": _order_options(chosen),
        "crcl": round(crcl, 1),
        "crcl_int": int(round(crcl)),
        "renal_condition": scenario["renal_condition"],
        "renal_text": {"235595009": "No known kidney disease.",
                       "433144002": "CKD stage 3 from hypertensive nephrosclerosis.",
                       "431857002": "CKD stage 4 from hypertensive nephrosclerosis, followed "
                                    "by nephrology."}[scenario["renal_condition"]],
        "opioid_status": "active" if opioid else "stopped",
        "opioid_stop": None if opioid else "-2y",
        "opioid_text": ("Takes oxycodone-acetaminophen 5/325 mg every 6 hours as needed, about 3 "
                        "tablets daily, for chronic low back pain (pain agreement, stable dose)."
                        if opioid else
                        "Oxycodone for back pain was tapered off after his spinal fusion 2 "
                        "years ago; no opioid use since (PDMP reviewed)."),
        "aud_severity": severity,
        "aud_level": f"level_{severity}",
        "aud_other_levels": [f"level_{level}" for level in ("mild", "moderate", "severe")
                             if level != severity],
        "aud_criteria_text": "; ".join(f"({i + 1}) {t}" for i, t in enumerate(listed)),
        "audit_zone": "IV" if audit >= 20 else "III" if audit >= 16 else "II",
        "plan_options": _plan_options(chosen),
    }


_REFUSE = r"(?:avoid|hold off|defer|postpone|declin|discontinu|not start|not initiat|" \
    r"not prescrib|not recommend|against)"
_PRESCRIBE = r"(?:start|initiat|prescrib|begin|add|trial of|rx|give|continue|use)"
_REFUSED = r"(?:is|are|was|would be|remains)\s+(?:contraindicated|not recommended|" \
    r"not appropriate|avoided|declined|not an option|not indicated)"


# Frequencies that contradict the labeled schedule (acamprosate three times daily,
# naltrexone once daily): 'acamprosate 333 mg BID' states the wrong regimen.
_WRONG_FREQUENCY = {
    "acamprosate": r"(?:bid|b\.i\.d|twice|qd|q12h|qid|four times|once(?: a)? daily|once a day)\b",
    "naltrexone": r"(?:bid|b\.i\.d|twice|tid|t\.i\.d|three times|q8h|q12h)\b",
}






def _aimed(verbs: str, drugs: list[str], passive: str | None = None) -> list[str]:
    """Regex terms for a verb aimed at one of ``drugs`` ('start naltrexone', 'naltrexone is
    contraindicated'), so a verb about another drug in the same clause does not count."""
    names = "|".join(d.lower() for d in drugs)
    terms = [rf"re:\b{verbs}\w*\s+(?:\S+\s+){{0,2}}(?:{names})\b"]
    if passive:
        terms.append(rf"re:\b(?:{names})\b\s+{passive}")
    return terms


def _order_options(chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """Grader specs accepting the chosen drug at its dose, written in mg or in tablets."""
    codes = [chosen["drug_rxnorm"]]
    base = {"resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
            "intent": ["order"], "per_day": {"min": chosen["per_day"], "max": chosen["per_day"]},
            "label": f"{chosen['drug']} {chosen['dose_text']}"}
    options = [
        {"ordered": {**base, "dose": {"min": chosen["dose_mg"], "max": chosen["dose_mg"],
                                      "unit": "mg"}}},
    ]
    options += [{"ordered": {**base, "dose": {"min": chosen["tablets"], "max": chosen["tablets"],
                                              "unit": unit}}} for unit in TABLET_UNITS]
    if chosen["drug"] == "naltrexone":
        options.append({"ordered": {
            "resource_type": "MedicationRequest", "codes": ["637213"], "status": ["active"],
            "intent": ["order"], "dose": {"min": 380, "max": 380, "unit": "mg"},
            "label": "extended-release naltrexone 380 mg IM every 4 weeks"}})
    return options
