"""Derived expectations and task-specific graders of immunology and infectious disease tasks."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from physbench_gym.grading.core import (
    WRITE,
    CheckpointResult,
    GradingContext,
    triggered_by,
)
from physbench_gym.grading.medications import course_days, product_of, regimens
from physbench_gym.grading.quantities import unit_normalize
from physbench_gym.grading.resources import dose, frequency_per_day, patient_id

HEIGHT_CM = 160.0  # the mdr_uti_antibiotics patient's charted height
FOSFOMYCIN_RXNORM = "808917"  # fosfomycin 3000 MG Granules for Oral Solution


def _ckd_epi_2021(creatinine: float, age: int, female: bool) -> int:
    """CKD-EPI 2021 (race-free) eGFR in mL/min/1.73 m2 from serum creatinine in mg/dL."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    value = 142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
    return round(value * (1.012 if female else 1.0))


def cockcroft_gault(age: int, weight_kg: float, creatinine: float, female: bool) -> float:
    """Cockcroft-Gault creatinine clearance in mL/min."""
    value = (140 - age) * weight_kg / (72 * creatinine)
    return value * 0.85 if female else value


def ideal_body_weight(height_cm: float, female: bool) -> float:
    """Devine ideal body weight in kg."""
    inches = height_cm / 2.54
    return (45.5 if female else 50.0) + 2.3 * (inches - 60)


# The branches of the ESBL cystitis case: the kidney function (CKD stage 4 with a creatinine
# clearance below 30 mL/min, or preserved with one of 60 mL/min or more, so the label's
# threshold and the Beers criteria agree) and the isolate's nitrofurantoin and fosfomycin
# results. A fosfomycin-resistant isolate only comes with preserved kidney function: with CKD
# stage 4 as well no oral agent would be left.
UTI_CASES = {
    "ckd4_susceptible": ("ckd4", "susceptible"),
    "ckd4_nitrofurantoin_resistant": ("ckd4", "nitrofurantoin_resistant"),
    "preserved_susceptible": ("preserved", "susceptible"),
    "preserved_fosfomycin_resistant": ("preserved", "fosfomycin_resistant"),
    "preserved_nitrofurantoin_resistant": ("preserved", "nitrofurantoin_resistant"),
}
_SUSCEPTIBLE = ("Susceptible (MIC <=16 ug/mL)", "S  (<=16)")
_NITRO_RESISTANT = ("Resistant (MIC >=512 ug/mL)", "R  (>=512)")
_FOSFO_RESISTANT = ("Resistant (MIC >=256 ug/mL)", "R  (>=256)")
_PLAN_TAIL = ("{}. No test-of-cure urine culture once she is symptom-free.\n"
              "{}. ESBL colonization is now flagged for future empiric antibiotic choices.")
_RESISTANT_BASE = ("ampicillin, amoxicillin-clavulanate, cefazolin, ceftriaxone, ciprofloxacin "
                   "and levofloxacin")
_SUSCEPTIBLE_BASE = "TMP-SMX, gentamicin, ertapenem and meropenem"


def uti_case(values: dict[str, Any]) -> dict[str, Any]:
    """Everything that follows the drawn branch of the ESBL cystitis case: the kidney function
    and its history, the culture's nitrofurantoin and fosfomycin results, the expected agent,
    and the texts of the checkpoints and of the reference note.

    Cockcroft-Gault CrCl with actual or ideal body weight are both accepted (with 2 mL/min for
    rounding); the window must stay on its side of the thresholds (below 30 mL/min in CKD
    stage 4, 60 mL/min or more when preserved), else the draw is a spec error.
    """
    name = str(values["case"])
    if name not in UTI_CASES:
        raise ValueError(f"unknown case {name!r}; known: {sorted(UTI_CASES)}")
    kidney, isolate = UTI_CASES[name]
    answer = "nitrofurantoin" if kidney == "preserved" and isolate != \
        "nitrofurantoin_resistant" else "fosfomycin"
    age, weight = int(values["age"]), float(values["weight_kg"])
    creatinine = float(values["creatinine"] if kidney == "ckd4"
                       else values["creatinine_preserved"])
    ibw = ideal_body_weight(HEIGHT_CM, True)
    actual = cockcroft_gault(age, weight, creatinine, True)
    ideal = cockcroft_gault(age, ibw, creatinine, True)
    low, high = min(actual, ideal) - 2, max(actual, ideal) + 2
    if kidney == "ckd4" and high >= 30:
        raise ValueError(f"CrCl {high:.0f} mL/min leaves the < 30 mL/min category")
    if kidney == "preserved" and min(actual, ideal) < 60.5:
        raise ValueError(f"CrCl {min(actual, ideal):.0f} mL/min is not clearly >= 60 mL/min")
    if kidney == "ckd4":
        history = (round(creatinine - 0.2, 1), 1.8, 1.6)
    else:
        history = (round(creatinine + 0.02, 2), round(creatinine - 0.03, 2),
                   round(creatinine + 0.04, 2))
    nitro = _NITRO_RESISTANT if isolate == "nitrofurantoin_resistant" else _SUSCEPTIBLE
    fosfo = _FOSFO_RESISTANT if isolate == "fosfomycin_resistant" else _SUSCEPTIBLE
    crcl = round(actual)
    derived = {
        "case_name": name,
        "kidney": kidney,
        "isolate": isolate,
        "answer": answer,
        "creatinine": creatinine,
        "crcl": crcl,
        "crcl_ibw": round(ideal),
        "crcl_low": round(low),
        "crcl_high": round(high),
        "crcl_mid": round((low + high) / 2, 2),
        "crcl_tol": round((high - low) / 2, 2),
        "ibw_kg": round(ibw, 1),
        "egfr": _ckd_epi_2021(creatinine, age, True),
        "creatinine_prev": history[0],
        "egfr_prev": _ckd_epi_2021(history[0], age - 1, True),
        "creatinine_2y": history[1],
        "egfr_2y": _ckd_epi_2021(history[1], age - 2, True),
        "creatinine_3y": history[2],
        "egfr_3y": _ckd_epi_2021(history[2], age - 3, True),
        "weight_last_year": int(weight) + 1,
        "nitrofurantoin_result": nitro[0],
        "nitrofurantoin_line": nitro[1],
        "fosfomycin_result": fosfo[0],
        "fosfomycin_line": fosfo[1],
    }
    derived.update(_uti_texts(derived))
    return derived


def _wrap(text: str, indent: str, width: int = 88) -> str:
    """``text`` broken into lines that fit ``width`` with ``indent`` before each continuation
    line, to sit inside a Markdown list item."""
    lines = textwrap.wrap(text, width - len(indent), break_long_words=False,
                          break_on_hyphens=False)
    return f"\n{indent}".join(lines)


def _uti_texts(v: dict[str, Any]) -> dict[str, str]:
    """Checkpoint descriptions and rubrics, and the reference note's parts, for a branch."""
    kidney, isolate, answer, crcl = v["kidney"], v["isolate"], v["answer"], v["crcl"]
    nitro_r, fosfo_r = isolate == "nitrofurantoin_resistant", isolate == "fosfomycin_resistant"
    extra_r = " and nitrofurantoin" if nitro_r else " and fosfomycin" if fosfo_r else ""
    resistant = _RESISTANT_BASE.replace(" and levofloxacin", ", levofloxacin" + extra_r) \
        if extra_r else _RESISTANT_BASE
    urinary = ("fosfomycin" if nitro_r else "nitrofurantoin" if fosfo_r
               else "nitrofurantoin, fosfomycin")
    category = "below 30 mL/min" if kidney == "ckd4" else "60 mL/min or more"
    texts = {
        "crcl_category": category,
        "brief_patient": ("with CKD and acute cystitis" if kidney == "ckd4"
                          else "with acute cystitis"),
        "pcp_kidney_line": (f"Creatinine {v['creatinine']} mg/dL (CKD stage 4, stable)."
                            if kidney == "ckd4" else
                            f"Creatinine {v['creatinine']} mg/dL (normal; no kidney disease)."),
        "pcp_kidney_concern": ", CKD" if kidney == "ckd4" else "",
        "culture_conclusion": (
            "Escherichia coli >100,000 CFU/mL, ESBL producer - resistant to penicillins, "
            "cephalosporins and fluoroquinolones"
            + (", and to nitrofurantoin." if nitro_r else ", and to fosfomycin." if fosfo_r
               else ".")),
        "note_culture": _wrap(f"Resistant to {resistant}. Susceptible to {urinary}, "
                              f"{_SUSCEPTIBLE_BASE}.", "  "),
        "note_kidney": ("stable CKD stage 4" if kidney == "ckd4"
                        else "normal kidney function, no CKD"),
        "note_assessment": (
            "acute cystitis due to an ESBL-producing E. coli in an 81-year-old woman"
            + (" with CKD stage 4" if kidney == "ckd4" else "") + ". The isolate is "
            + ("fluoroquinolone-resistant and nitrofurantoin-resistant." if nitro_r else
               "fluoroquinolone-resistant and fosfomycin-resistant." if fosfo_r else
               "fluoroquinolone-resistant.")),
    }
    if answer == "fosfomycin":
        texts["note_urinary_agent"] = (
            f"- Nitrofurantoin is avoided: CrCl {crcl} mL/min is below 30 mL/min (AGS Beers "
            "criteria)." if not nitro_r else
            "- Nitrofurantoin is avoided: the isolate is nitrofurantoin-resistant"
            + (f", and CrCl {crcl} mL/min is below 30 mL/min (AGS Beers criteria)."
               if kidney == "ckd4" else "."))
        texts["note_plan"] = (
            "1. Give fosfomycin 3 g by mouth once, as a single dose; prescription entered.\n"
            + ("   No renal dose adjustment is needed for one dose.\n" if kidney == "ckd4"
               else "")
            + "2. Expect symptoms to settle within 2-3 days. Fever, flank pain or vomiting "
            "need same-day\n   review for pyelonephritis, which fosfomycin does not treat.\n"
            + _PLAN_TAIL.format(3, 4))
        texts["summary"] = ("Fosfomycin 3 g single dose prescribed for ESBL E. coli cystitis; "
                            "consult note written.")
        texts["reasoning_description"] = (
            "States that nitrofurantoin is avoided because the creatinine clearance is below "
            "30 mL/min, and never plans it." if not nitro_r else
            "States that nitrofurantoin is avoided because the isolate is resistant to it"
            + (" (the creatinine clearance is below 30 mL/min as well)" if kidney == "ckd4"
               else "") + ", and never plans it.")
        texts["reasoning_rubric"] = (
            "The note says nitrofurantoin is avoided because the creatinine clearance is below "
            "30 mL/min and never plans it, not even as a fallback." if not nitro_r else
            "The note says the isolate is nitrofurantoin-resistant, so nitrofurantoin is "
            "avoided, and never plans it, not even as a fallback; it never calls the isolate "
            "nitrofurantoin-susceptible.")
        texts["prescription_description"] = (
            "Prescribed fosfomycin 3 g by mouth as a single dose, and no fluoroquinolone, "
            "TMP-SMX, nitrofurantoin or oral beta-lactam.")
        texts["plan_description"] = (
            "The note plainly recommends fosfomycin 3 g by mouth as a single dose, and no "
            "repeated or contradictory fosfomycin plan.")
        texts["plan_rubric"] = (
            "The note recommends fosfomycin 3 g by mouth as a single dose, with no repeated "
            "dosing or contradictory fosfomycin plan.")
    else:
        texts["note_urinary_agent"] = (
            "- Fosfomycin is avoided: the isolate is fosfomycin-resistant." if fosfo_r else
            "- Fosfomycin is not used: a single dose is only an alternative agent for ESBL E. "
            "coli\n  cystitis, with a lower clinical cure rate than the preferred 5-day "
            "course.")
        texts["note_plan"] = (
            f"1. Nitrofurantoin is appropriate: CrCl {crcl} mL/min is well above 30 mL/min "
            "(AGS Beers criteria)\n   and the 60 mL/min of the label, and it is the "
            "preferred agent for ESBL E. coli cystitis.\n"
            "2. Start nitrofurantoin monohydrate/macrocrystals (Macrobid) 100 mg by mouth twice "
            "daily\n   with food for 5 days; prescription entered.\n"
            "3. Expect symptoms to settle within 2-3 days. Fever, flank pain or vomiting need "
            "same-day\n   review for pyelonephritis, which nitrofurantoin does not treat.\n"
            + _PLAN_TAIL.format(4, 5))
        texts["summary"] = ("Nitrofurantoin 100 mg twice daily for 5 days prescribed for ESBL "
                            "E. coli cystitis; consult note written.")
        texts["reasoning_description"] = (
            "Ties the creatinine clearance to nitrofurantoin (60 mL/min or more, so not a "
            "reason to avoid it)"
            + (" and states that the isolate is fosfomycin-resistant" if fosfo_r else "")
            + ".")
        texts["reasoning_rubric"] = (
            "The note states that her kidney function (creatinine clearance 60 mL/min or more, "
            "above the 30 mL/min Beers threshold) permits nitrofurantoin and does not call "
            "nitrofurantoin contraindicated"
            + ("; it names the isolate fosfomycin-resistant and never calls it "
               "fosfomycin-susceptible." if fosfo_r else "."))
        texts["prescription_description"] = (
            "Prescribed nitrofurantoin for 5-7 days (monohydrate/macrocrystals 100 mg twice "
            "daily, or macrocrystals 50-100 mg four times daily), and no fosfomycin, "
            "fluoroquinolone, TMP-SMX or oral beta-lactam.")
        texts["plan_description"] = (
            "The note plainly recommends nitrofurantoin 100 mg by mouth twice daily for 5-7 "
            "days, and never fosfomycin"
            + (" (resistant)" if fosfo_r else " (a fallback only if nitrofurantoin cannot be "
               "taken)") + ", a fluoroquinolone, TMP-SMX or an oral beta-lactam.")
        texts["plan_rubric"] = (
            "The note recommends nitrofurantoin (monohydrate/macrocrystals) 100 mg by mouth "
            "twice daily for 5-7 days and does not recommend fosfomycin"
            + (", to which the isolate is resistant" if fosfo_r else
               " instead (it may name it as a fallback if nitrofurantoin cannot be taken)")
            + ".")
    return texts


_SINGLE_DOSE = re.compile(
    r"\b(single|once|one[\s-]time|one dose|1 dose|x\s?1|times one|stat|1 packet|one packet|"
    r"1 sachet|one sachet)\b", re.IGNORECASE)
_REPEATED = re.compile(r"\b(daily|every|bid|tid|qid|q\d+h|twice|three times|x\s?[2-9])\b",
                       re.IGNORECASE)


def _days(quantity: dict[str, Any] | None) -> float | None:
    if not quantity or quantity.get("value") is None:
        return None
    unit = str(quantity.get("code") or quantity.get("unit") or "d").lower()
    factor = {"h": 1 / 24, "hour": 1 / 24, "hours": 1 / 24, "wk": 7, "week": 7, "weeks": 7,
              "mo": 30, "month": 30, "months": 30}.get(unit, 1.0)
    return float(quantity["value"]) * factor


def _fosfomycin_problems(resource: dict[str, Any]) -> list[str]:
    """Why a written fosfomycin order is not 3 g by mouth once (empty when it is)."""
    problems = []
    if resource.get("status") != "active" or resource.get("intent") != "order":
        problems.append(f"status {resource.get('status')}/{resource.get('intent')}")
    found = dose(resource)
    grams = None
    if found is not None:
        factor = {"g": 1.0, "mg": 0.001}.get(unit_normalize(found[1]))
        grams = found[0] * factor if factor is not None else None
    if grams is None or abs(grams - 3.0) > 1e-6:
        problems.append(f"dose {found}")
    per_day = frequency_per_day(resource)
    if per_day is not None and per_day > 1:
        problems.append(f"{per_day:g} doses/day")
    durations = [_days((instruction.get("timing") or {}).get("repeat", {}).get("boundsDuration"))
                 for instruction in resource.get("dosageInstruction", []) or []]
    durations.append(_days((resource.get("dispenseRequest") or {}).get("expectedSupplyDuration")))
    known = [d for d in durations if d is not None]
    refills = (resource.get("dispenseRequest") or {}).get("numberOfRepeatsAllowed") or 0
    if any(d > 1 for d in known):
        problems.append(f"{max(known):g} days of therapy")
    if refills:
        problems.append(f"{refills} refills")
    sig = " ".join(str(i.get("text", "")) for i in resource.get("dosageInstruction", []) or [])
    if not known and not (_SINGLE_DOSE.search(sig) and not _REPEATED.search(sig)):
        problems.append("not written as a single dose (no 1-day duration, sig not 'once')")
    return problems


@triggered_by(WRITE)
def fosfomycin_single_dose(ctx: GradingContext) -> CheckpointResult:
    """The agent prescribed fosfomycin 3 g by mouth as one dose (duration 1 day or a sig
    that says once/single dose; no refills, no repeat dosing)."""
    return _prescribed(ctx, _is_fosfomycin, _fosfomycin_problems, "fosfomycin",
                       "fosfomycin 3 g PO single dose prescribed", "3 g once")


def _is_fosfomycin(resource: dict[str, Any]) -> bool:
    concept = resource.get("medicationCodeableConcept") or {}
    return any(str(c.get("code")) == FOSFOMYCIN_RXNORM for c in concept.get("coding", []) or [])


# Nitrofurantoin regimens for cystitis: monohydrate/macrocrystals (Macrobid) 100 mg twice daily,
# or macrocrystals (Macrodantin) 50-100 mg four times daily, for 5 days (IDSA) to 7 days
# (label). Keyed by the product's ingredient string in the terminology.
_NITROFURANTOIN_REGIMENS = {
    "nitrofurantoin, macrocrystals / nitrofurantoin, monohydrate": ((100.0, 100.0), 2.0),
    "nitrofurantoin, macrocrystals": ((50.0, 100.0), 4.0),
}
_COURSE_DAYS = (5.0, 7.0)
_SIG_DAYS = re.compile(r"\b(?:for|x|times)\s*(\d+)\s*(?:days?|d)\b", re.IGNORECASE)


def _nitrofurantoin_problems(resource: dict[str, Any]) -> list[str]:
    """Why a written nitrofurantoin order is not a 5-7 day cystitis course (empty when it is)."""
    product = product_of(resource)
    problems = []
    if resource.get("status") != "active" or resource.get("intent") != "order":
        problems.append(f"status {resource.get('status')}/{resource.get('intent')}")
    regimen = _NITROFURANTOIN_REGIMENS.get(product.ingredient if product else "")
    if product is None or regimen is None:
        return problems + ["not an oral nitrofurantoin capsule"]
    (low, high), per_day = regimen
    found = regimens(resource, product)
    doses = [r.per_dose.get(product.ingredient) for r in found]
    if not found or doses[0] is None or not low - 1e-6 <= doses[0][0] <= high + 1e-6:
        problems.append(f"dose {doses[0] if found else dose(resource)} (expected "
                        f"{low:g}-{high:g} mg)")
    if not found or found[0].per_day is None or abs(found[0].per_day - per_day) > 1e-6:
        problems.append(f"{found[0].per_day if found else None} doses/day (expected "
                        f"{per_day:g} for {product.ingredient})")
    refills = (resource.get("dispenseRequest") or {}).get("numberOfRepeatsAllowed") or 0
    if refills:
        problems.append(f"{refills} refills")
    days = course_days(resource)
    if days is None:
        sig = " ".join(str(i.get("text", "")) for i in resource.get("dosageInstruction", []) or [])
        match = _SIG_DAYS.search(sig)
        days = float(match.group(1)) if match else None
    if days is None:
        problems.append("no course duration")
    elif not _COURSE_DAYS[0] - 0.01 <= days <= _COURSE_DAYS[1] + 0.01:
        problems.append(f"{days:g} days of therapy (expected 5-7)")
    return problems


@triggered_by(WRITE)
def nitrofurantoin_course(ctx: GradingContext) -> CheckpointResult:
    """The agent prescribed nitrofurantoin for cystitis: monohydrate/macrocrystals 100 mg twice
    daily or macrocrystals 50-100 mg four times daily, for 5-7 days, no refills."""
    return _prescribed(
        ctx, lambda r: "nitrofurantoin" in ((product_of(r).ingredient if product_of(r) else "")
                                           or ""),
        _nitrofurantoin_problems, "nitrofurantoin", "nitrofurantoin 5-7 day course prescribed",
        "a 5-7 day cystitis course")


def _prescribed(ctx: GradingContext, is_drug: Any, problems_of: Any, drug: str, passed: str,
                expected: str) -> CheckpointResult:
    """Passes when one of the patient's orders of the drug has no problem; else names them."""
    written = [r for r in ctx.written("MedicationRequest")
               if patient_id(r) == ctx.patient_id and is_drug(r)]
    if not written:
        return CheckpointResult(False, f"no {drug} prescription written")
    reasons = []
    for resource in written:
        problems = problems_of(resource)
        if not problems:
            return CheckpointResult(True, passed)
        reasons.append(", ".join(problems))
    return CheckpointResult(False, f"{drug} order is not {expected}: {'; '.join(reasons)}")
