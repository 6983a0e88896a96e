"""headache_classification: what the headache diary and the brain MRI show, and the preventive.

Two draws decide the answer (ICHD-3 2018; AHS consensus statements 2019 and 2021):
- diary: chronic migraine with medication-overuse headache (>=15 headache days a month, >=8 with
  migraine features, ibuprofen on >=15 days a month for >3 months: the canonical case), chronic
  migraine without overuse (ibuprofen on <15 days), or high-frequency episodic migraine (<15
  headache days; no overuse headache by definition). Prevention is offered in every branch
  (>=6 migraine days a month).
- profile: asthma (propranolol contraindicated: topiramate, a tricyclic or venlafaxine) or
  calcium phosphate kidney stones (topiramate avoided: propranolol or metoprolol, a tricyclic or
  venlafaxine).
The MRI (punctate nonspecific white-matter T2/FLAIR foci) is the same in every branch: consistent
with migraine, not demyelination, so no lumbar puncture or repeat MRI.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
TOPIRAMATE = ["199888", "151226"]
AMITRIPTYLINE = ["856783", "856834"]
NORTRIPTYLINE = ["317136"]
VENLAFAXINE_ER = ["313583", "313585"]
PROPRANOLOL = ["856457"]
METOPROLOL_TARTRATE = ["866924", "866514"]
METOPROLOL_SUCCINATE = ["866427", "866436", "866412"]


def _of_class(prefix: str) -> list[str]:
    """Every RxNorm code of the terminology whose drug class starts with ``prefix``."""
    return sorted(c.code for c in terminology.all_concepts("rxnorm")
                  if str(c.extra.get("drug_class", "")).lower().startswith(prefix))


# Every beta-blocker (carvedilol, bisoprolol and labetalol too) and every opioid analgesic
# (methadone too) and partial agonist of the tables.
BETA_BLOCKERS = sorted(set(PROPRANOLOL + METOPROLOL_TARTRATE + METOPROLOL_SUCCINATE + [
    "866511", "866419", "197380", "197381"]) | set(_of_class("beta blocker")))
OPIOIDS = sorted(set(["1049683", "1014615", "1049221"]) | set(_of_class("opioid analgesic"))
                 | set(_of_class("partial opioid agonist")))


def _option(label: str, codes: list[str], lo: float, hi: float, per_day: float) -> dict[str, Any]:
    return {"ordered": {
        "resource_type": "MedicationRequest", "codes": [RX + c for c in codes],
        "status": ["active"], "intent": ["order"], "dose": {"min": lo, "max": hi, "unit": "mg"},
        "per_day": {"min": 1, "max": per_day}, "label": label}}


def _note_dose(concept: str, lo: float, hi: float) -> dict[str, Any]:
    """A stated starting dose of this preventive must be in range (a note that names none
    passes: the order checkpoint checks the prescribed dose)."""
    return {"note_decision": {"concept": [concept], "action": ["start"], "required": False,
                              "dose": {"min": lo, "max": hi, "unit": "mg"},
                              "label": f"{concept} {lo:g}-{hi:g} mg a dose at the start"}}


# Starting doses per administration (labels; AHS 2021; Silberstein 2012). Tricyclic doses are
# not guarded: titration text ('up by 10 mg every week or two to 25 mg') reads as a range.
VENLAFAXINE_DOSE = _note_dose("venlafaxine", 37.5, 150)

TCA_OPTIONS = [
    _option("amitriptyline 10-25 mg at bedtime", AMITRIPTYLINE, 10, 25, 1),
    _option("nortriptyline 10-25 mg at bedtime", NORTRIPTYLINE, 10, 25, 1),
    _option("venlafaxine ER 37.5-75 mg daily", VENLAFAXINE_ER, 37.5, 75, 1),
]


def headache_classification(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["diary"]["kind"]
    profile = values["profile"]["name"]
    if profile == "asthma":
        options = [_option("topiramate 25-50 mg once or twice daily", TOPIRAMATE, 25, 50, 2),
                   *TCA_OPTIONS]
        forbidden_codes, forbidden_concepts = BETA_BLOCKERS, ["beta_blocker"]
        forbidden_label = "a beta-blocker (propranolol) with asthma"
        accepted_concepts = ["topiramate", "amitriptyline", "venlafaxine"]
        note_doses = [_note_dose("topiramate", 12.5, 100), VENLAFAXINE_DOSE]
    elif profile == "stones":
        # Propranolol PI (migraine): start 80 mg a day in divided doses, usual 160-240 mg a day,
        # so a first prescription stays at or below 160 mg a day.
        options = [_option("propranolol 10-40 mg up to four times daily", PROPRANOLOL, 10, 40, 4),
                   _option("propranolol 60-80 mg up to twice daily", PROPRANOLOL, 60, 80, 2),
                   _option("metoprolol tartrate 25-100 mg twice daily", METOPROLOL_TARTRATE,
                           25, 100, 2),
                   _option("metoprolol succinate ER 25-200 mg daily", METOPROLOL_SUCCINATE,
                           25, 200, 1),
                   *TCA_OPTIONS]
        forbidden_codes, forbidden_concepts = TOPIRAMATE, ["topiramate", "zonisamide"]
        forbidden_label = "topiramate with calcium phosphate kidney stones"
        accepted_concepts = ["propranolol", "metoprolol", "amitriptyline", "venlafaxine"]
        note_doses = [_note_dose("propranolol", 10, 160), _note_dose("metoprolol", 25, 200),
                      VENLAFAXINE_DOSE]
    else:
        raise ValueError(f"unknown profile {profile!r}")
    classification = {"cm_moh": "chronic migraine with medication-overuse headache",
                      "cm_no_moh": "chronic migraine without medication overuse",
                      "em": "high-frequency episodic migraine without medication overuse"}[kind]
    return {
        "preventive_options": options,
        "forbidden_rxnorm": [RX + c for c in forbidden_codes],
        "forbidden_concepts": forbidden_concepts,
        "forbidden_label": forbidden_label,
        "accepted_concepts": accepted_concepts,
        "note_doses": note_doses,
        "opioid_rxnorm": [RX + c for c in OPIOIDS],
        "classification": classification,
        "preventive_text": ("topiramate 25 mg at bedtime, titrating to 50 mg twice daily; no "
                            "propranolol (asthma)" if profile == "asthma" else
                            "propranolol 40 mg twice daily; no topiramate (calcium phosphate "
                            "stones)"),
        "migraine_concept": ["episodic_migraine"] if kind == "em" else ["chronic_migraine"],
        "reason_text": ("Episodic migraine without aura - preventive treatment" if kind == "em"
                        else "Chronic migraine without aura - preventive treatment"),
        "reason_code": "G43.009" if kind == "em" else "G43.709",
        "recent_from": (values["now"] - timedelta(days=120)).strftime("%Y-%m-%d"),
        "older_notes_before": (values["now"] - timedelta(days=300)).strftime("%Y-%m-%d"),
        "followup_start": (values["now"] + timedelta(days=70)).strftime("%Y-%m-%dT10:00:00Z"),
    }
