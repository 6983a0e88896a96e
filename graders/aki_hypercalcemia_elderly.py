"""aki_hypercalcemia_elderly: the corrected calcium, its band, the kidney function and, from the
medication profile, the PTH picture, the culprits to stop and the work-up to order.

Profiles (the culprit on the medication list decides the answer):
- calcium_alkali: hydrochlorothiazide plus heavy over-the-counter calcium carbonate (Tums);
  PTH suppressed, metabolic alkalosis -> calcium-alkali syndrome; stop the thiazide and the
  calcium carbonate; PTHrP and a vitamin D level (PTH-independent work-up).
- calcitriol: calcitriol and calcium carbonate from an outside osteoporosis clinic; PTH
  suppressed (an elevated PTH two years ago, before calcitriol, is stale) -> calcitriol-induced
  hypercalcemia; stop calcitriol and calcium; PTHrP and 1,25-dihydroxyvitamin D.
- thiazide_phpt: hydrochlorothiazide, calcium high-normal for years, PTH elevated -> PTH-dependent
  (primary hyperparathyroidism unmasked by the thiazide); stop the thiazide; 25-OH vitamin D and
  an endocrinology referral; PTHrP is not needed.
In every profile the ibuprofen taken over the counter is stopped and lisinopril is held while
the AKI lasts. Corrected calcium = total calcium + 0.8 x (4.0 - albumin) (Payne 1973).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

BASELINE_CREATININE = 0.9

# Per profile: culprits as note concepts (one stop decision per group), words that name each
# culprit in the message to the PCP (one group each), what is never restarted, the PTH picture
# and the chart's extras.
PROFILES: dict[str, dict[str, Any]] = {
    "calcium_alkali": {
        "stop_groups": [["hydrochlorothiazide", "thiazide"], ["calcium_supplement"]],
        "message_groups": [["hydrochlorothiazide", "hctz", "thiazide"],
                           ["calcium carbonate", "tums", "calcium supplement", "calcium tablet",
                            "antacid"]],
        "strict_never": ["thiazide"],
        "contingent_never": ["calcium_supplement", "vitamin_d", "active_vitamin_d"],
        "pth_dependent": False,
        "cause": ["calcium_supplement", "milk_alkali"],
        "cause_opposite": ["vitamin_d_toxicity", "calcitriol", "primary_hyperparathyroidism"],
        # Bisphosphonates cause rebound hypocalcemia in calcium-alkali syndrome (Picolos 2005).
        "bisphosphonate_contingent": False,
        "cause_label": "calcium carbonate (calcium-alkali syndrome)",
        "phosphate": 4.6, "bicarbonate": 33,
        "culprit_text": "hydrochlorothiazide and the over-the-counter calcium carbonate (Tums)",
    },
    "calcitriol": {
        "stop_groups": [["calcitriol", "active_vitamin_d"], ["calcium_supplement"]],
        "message_groups": [["calcitriol", "rocaltrol"],
                           ["calcium carbonate", "calcium supplement", "calcium tablet",
                            "os-cal", "caltrate"]],
        "strict_never": ["thiazide", "calcitriol", "active_vitamin_d"],
        "contingent_never": ["calcium_supplement", "vitamin_d"],
        "pth_dependent": False,
        "cause": ["calcitriol", "active_vitamin_d", "vitamin_d_toxicity"],
        "cause_opposite": ["milk_alkali", "primary_hyperparathyroidism"],
        "bisphosphonate_contingent": True,
        "cause_label": "calcitriol",
        "phosphate": 5.1, "bicarbonate": 25,
        "culprit_text": "calcitriol and calcium carbonate",
    },
    "thiazide_phpt": {
        "stop_groups": [["hydrochlorothiazide", "thiazide"]],
        "message_groups": [["hydrochlorothiazide", "hctz", "thiazide"]],
        "strict_never": [],
        "contingent_never": ["calcium_supplement", "vitamin_d"],
        "pth_dependent": True,
        "cause": ["primary_hyperparathyroidism"],
        "cause_opposite": ["milk_alkali", "vitamin_d_toxicity"],
        "bisphosphonate_contingent": True,
        "cause_label": "primary hyperparathyroidism",
        "phosphate": 2.6, "bicarbonate": 24,
        "culprit_text": "hydrochlorothiazide",
    },
}

LOINC = "http://loinc.org|"
PTHRP = [LOINC + "15087-0", LOINC + "2729-2"]
VIT_D_25 = [LOINC + "1989-3", "http://www.ama-assn.org/go/cpt|82306"]
VIT_D_125 = [LOINC + "1649-3", "http://www.ama-assn.org/go/cpt|82652"]
ENDO_REFERRAL = ["http://snomed.info/sct|306118006"]
MYELOMA_SCREEN: list[str] = []   # no table codes: matched by the order's words
# Triggers that allow calcium or vitamin D later (a normal calcium, a low vitamin D level).
CALCIUM_TRIGGERS = ["calcium_test", "calcium_intake", "normocalcemia", "corrected_calcium",
                    "ionized_calcium", "hypercalcemia", "vitamin_d_level", "calcitriol_level",
                    "pth", "endocrinology_referral"]
KIDNEY_RECOVERY = ["creatinine", "egfr", "aki", "normocalcemia", "endocrinology_referral"]


def _order(codes: list[str], label: str, words: list[str] | None = None) -> dict[str, Any]:
    """A placed ServiceRequest by code, or by words in its text when the code differs."""
    by_code = {"ordered": {"resource_type": "ServiceRequest", "codes": codes,
                           "status": ["active"], "label": label}}
    if not words:
        return by_code
    by_text = {"ordered": {"resource_type": "ServiceRequest", "text_contains": words,
                           "status": ["active"], "label": label}}
    return {"any": {"of": [by_code, by_text]}} if codes else by_text


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return (142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
            * (1.012 if female else 1.0))


def hypercalcemia_aki(values: dict[str, Any]) -> dict[str, Any]:
    culprit = values["profile"]["culprit"]
    profile = PROFILES[culprit]
    total, albumin = float(values["total_ca"]), float(values["albumin"])
    # Keep the corrected value clear of the 12.0 mg/dL band edge so that rounding cannot
    # change the band.
    if abs(total + 0.8 * (4.0 - albumin) - 12.0) < 0.15:
        total = round(total + 0.3, 1)
    corrected = round(total + 0.8 * (4.0 - albumin) + 1e-9, 1)
    if not 10.6 <= corrected < 14.0:
        raise ValueError(f"variant outside the task's design: corrected calcium {corrected}")
    band = "mild" if corrected < 12.0 else "moderate"
    creatinine = float(values["creatinine"])
    age, female = int(values["age"]), values["gender"] == "female"
    pth = int(values["pth_high"] if profile["pth_dependent"] else values["pth_low"])

    if culprit == "thiazide_phpt":
        workup = [_order(VIT_D_25, "25-hydroxyvitamin D", ["25-hydroxy", "25-oh", "25(oh)"]),
                  _order(ENDO_REFERRAL, "endocrinology referral", ["endocrin", "parathyroid"])]
        workup_text = "a 25-hydroxyvitamin D level and an endocrinology referral"
    else:
        # PTH-independent: one screen for malignancy (PTHrP, or a myeloma screen by protein
        # electrophoresis, immunofixation or free light chains; Walker & Shane 2022). In the
        # calcium-alkali branch also a vitamin D level; after calcitriol a 1,25-D level only
        # confirms what stopping the drug treats (Rocaltrol label), so it is not required.
        malignancy = {"any": {"of": [
            _order(PTHRP, "PTHrP", ["pthrp", "pth-related", "parathyroid hormone-related",
                                    "parathyroid hormone related"]),
            _order(MYELOMA_SCREEN, "myeloma screen", ["electrophoresis", "immunofixation",
                                                      "light chain", "spep", "sflc"])]}}
        workup = [malignancy]
        workup_text = ("a malignancy screen (PTHrP, or protein electrophoresis, immunofixation or "
                       "free light chains)")
        if culprit == "calcium_alkali":
            workup.append({"any": {"of": [
                _order(VIT_D_25, "25-hydroxyvitamin D", ["25-hydroxy", "25-oh", "25(oh)"]),
                _order(VIT_D_125, "1,25-dihydroxyvitamin D", ["1,25", "dihydroxyvitamin"])]}})
            workup_text += " and a vitamin D level (25-hydroxy or 1,25-dihydroxy)"

    # The message to the PCP is read like a note: every culprit stopped, ibuprofen stopped,
    # lisinopril held, and none of the culprits (or an NSAID) kept or offered.
    message = [{"note_decision": {"source": "message", "concept": group, "action": ["stop"],
                                  "label": f"message: stop {group[0].replace('_', ' ')}"}}
               for group in profile["stop_groups"] + [["ibuprofen", "nsaid"]]]
    message += [
        {"note_decision": {"source": "message", "concept": ["lisinopril", "ace_inhibitor"],
                           "action": ["stop"], "label": "message: hold lisinopril"}},
        {"note_never": {"source": "message", "concept": profile["strict_never"] + ["nsaid"],
                        "label": "message: no culprit or NSAID kept or offered"}},
        {"note_never": {"source": "message", "concept": profile["contingent_never"],
                        "allow_contingency": True, "contingency_on": CALCIUM_TRIGGERS,
                        "label": "message: no calcium or vitamin D while hypercalcemic"}}]
    nevers = []
    if profile["strict_never"]:
        nevers.append({"note_never": {"concept": profile["strict_never"], "label": (
            "no thiazide or calcitriol continued or restarted" if culprit == "calcitriol"
            else "no thiazide continued or restarted")}})
    if culprit == "thiazide_phpt":
        # Once primary hyperparathyroidism is cured a thiazide is acceptable again.
        nevers.append({"note_never": {"concept": ["thiazide"], "allow_contingency": True,
                                      "contingency_on": ["parathyroidectomy",
                                                         "primary_hyperparathyroidism",
                                                         "normocalcemia"],
                                      "label": "no thiazide before the hyperparathyroidism "
                                               "is cured"}})
    nevers += [
        {"note_never": {"concept": ["nsaid"], "label": "no oral NSAID"}},
        {"note_never": {"concept": profile["contingent_never"], "allow_contingency": True,
                        "contingency_on": CALCIUM_TRIGGERS,
                        "label": "no calcium or vitamin D while hypercalcemic"}},
        {"note_never": {"concept": ["bisphosphonate"], "label": "no bisphosphonate", **(
            {"allow_contingency": True, "contingency_on": KIDNEY_RECOVERY}
            if profile["bisphosphonate_contingent"] else {})}},
        {"note_never": {"concept": ["furosemide"], "allow_contingency": True,
                        "contingency_on": ["isotonic_saline", "fluid_intake", "heart_failure",
                                           "euvolemia"],
                        "label": "no loop diuretic in a volume-depleted patient"}},
        {"note_never": {"concept": ["arb"], "allow_contingency": True,
                        "contingency_on": KIDNEY_RECOVERY,
                        "label": "no ARB in place of the held ACE inhibitor during the AKI"}},
    ]
    stop_decisions = [{"note_decision": {
        "concept": group, "action": ["stop"], "label": f"stop {group[0].replace('_', ' ')}"}}
        for group in profile["stop_groups"]]
    now = values["now"]
    return {
        "total_ca": total,
        # Earlier total calcium 3, 2 and 1 years ago: high-normal for years before primary
        # hyperparathyroidism surfaced, normal otherwise.
        **dict(zip(("ca_3y", "ca_2y", "ca_1y"),
                   (10.2, 10.4, 10.3) if culprit == "thiazide_phpt" else (9.4, 9.6, 9.5),
                   strict=True)),
        "corrected_ca": corrected,
        "ca_band": band,
        "ca_band_concept": ["level_mild"] if band == "mild" else ["level_moderate"],
        "ca_band_others": (["level_moderate", "level_severe", "level_moderately_severe"]
                           if band == "mild" else ["level_mild", "level_severe"]),
        "creatinine": creatinine,
        "baseline_creatinine": BASELINE_CREATININE,
        "creatinine_ratio": round(creatinine / BASELINE_CREATININE, 1),
        "egfr": round(ckd_epi_2021(creatinine, age, female)),
        "baseline_egfr": round(ckd_epi_2021(BASELINE_CREATININE, age - 1, female)),
        "pth": pth,
        "pth_dependent": profile["pth_dependent"],
        "pth_concept": ["pth_dependent"] if profile["pth_dependent"] else ["pth_independent"],
        "pth_opposite": ["pth_independent"] if profile["pth_dependent"] else ["pth_dependent"],
        "pth_picture": "PTH-dependent" if profile["pth_dependent"] else "PTH-independent",
        "cause": profile["cause"],
        "cause_label": profile["cause_label"],
        "phosphate": profile["phosphate"],
        "bicarbonate": profile["bicarbonate"],
        "culprit_text": profile["culprit_text"],
        "workup_orders": workup,
        "workup_text": workup_text,
        "message_checks": message,
        "stop_decisions": stop_decisions,
        # Never restarted or offered (a thiazide; calcitriol when it caused the episode), and
        # calcium or vitamin D only with a trigger (a normal calcium, a low vitamin D level).
        "strict_never": profile["strict_never"],
        "contingent_never": profile["contingent_never"],
        "never_checks": nevers,
        "thiazide_clause": (" before the hyperparathyroidism is cured" if culprit == "thiazide_phpt"
                            else ""),
        "bisphosphonate_clause": ("at all (rebound hypocalcemia in calcium-alkali syndrome)"
                                  if not profile["bisphosphonate_contingent"]
                                  else "before the kidney function has recovered"),
        # Symptomatic moderate hypercalcemia: same-day isotonic saline; mild: oral fluids.
        "hydration_plan": (
            "same-day isotonic saline at the infusion centre (0.9% saline 1-2 L over several "
            "hours), as the calcium is 12 mg/dL or more with confusion and nausea; then oral "
            "fluids 2-2.5 L a day. ED if she cannot drink, vomits or becomes more confused."
            if band == "moderate" else
            "increase oral fluids to 2-2.5 L a day; same-day IV normal saline if she cannot drink "
            "or becomes confused."),
        "cause_opposite": profile["cause_opposite"],
        "recheck_date": (now + timedelta(days=5)).strftime("%Y-%m-%d"),
        "notes_since": (now - timedelta(days=400)).strftime("%Y-%m-%d"),
        "recent_since": (now - timedelta(days=30)).strftime("%Y-%m-%d"),
    }
