"""endocrine_lab_abnormality: hyperprolactinemia found on a lab - which diagnostic step comes first.

Three scenarios (``scenario[name]``); in each, TSH, a urine pregnancy test and creatinine are
normal and she has bipolar I disorder on lamotrigine:
- ``drug``: risperidone started by psychiatry 8 months ago, amenorrhea and galactorrhea since,
  prolactin 62-128 ng/mL -> risperidone-induced hyperprolactinemia: no pituitary MRI and no
  dopamine agonist now; ask psychiatry to switch to (or add) a prolactin-sparing antipsychotic
  such as aripiprazole and repeat prolactin after the change (Endocrine Society 2011, 1.3-1.4;
  Pituitary Society 2023).
- ``macro``: regular cycles, no galactorrhea, no dopamine-blocking drug, prolactin 41-68 ng/mL
  on two draws -> screen for macroprolactin (PEG precipitation) before imaging or treatment
  (Endocrine Society 2011, 1.5).
- ``adenoma``: secondary amenorrhea and galactorrhea, no drug cause (risperidone stopped 4 years
  ago), prolactin 128-232 ng/mL -> pituitary MRI with gadolinium before any dopamine agonist
  (Endocrine Society 2011, 1.1 and 1.6).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by
from physbench_gym.synth import terminology

LOINC, CPT = "http://loinc.org", "http://www.ama-assn.org/go/cpt"
IMAGING = "http://snomed.info/sct|363679005"
# Brain/pituitary MRI with contrast (CPT 70552 with, 70553 without and with; LOINC 24587-8 MR
# Brain WO and W contrast IV); 70551, without contrast, is a must-not code only.
MRI_CODES = [f"{CPT}|70552", f"{CPT}|70553", f"{LOINC}|24587-8"]
# An MRI word is required: 'pituitary protocol' alone also names a CT of the sella.
MRI_TEXT = ["MRI", "magnetic resonance", "MR brain", "MR sella", "MR pituitary"]
MACRO_TEXT = ["macroprolactin", "monomeric prolactin", "PEG precipitation", "post-PEG",
              "polyethylene glycol", "monomeric"]
MACRO_CODES = [f"{LOINC}|42607-2", f"{LOINC}|50366-4", f"{LOINC}|38926-2", f"{LOINC}|51441-4",
               f"{LOINC}|78993-3"]
PROLACTIN_CODES = [f"{LOINC}|2842-3", f"{LOINC}|20568-2", f"{CPT}|84146"]
SWITCH_TEXT = ["aripiprazole", "Abilify", "brexpiprazole", "cariprazine", "quetiapine",
               "prolactin-sparing", "prolactin sparing"]
# A cause named in a clause about prolactin ('most likely due to risperidone').
PROLACTIN_WORDS = ["hyperprolactinemia", "prolactin_level", "drug_induced_hyperprolactinemia",
                   "prolactinoma", "macroprolactinemia"]
PSYCHIATRY, REFERRER = "Practitioner/prac-psychiatry", "Practitioner/prac-pcp-01"


def _rxnorm(ingredient: str) -> list[str]:
    return [c.code for c in terminology.all_concepts("rxnorm")
            if (c.extra or {}).get("ingredient", "").lower() == ingredient]


def _sr(label: str, codes: list[str] | None = None, text: list[str] | None = None) -> dict:
    match: dict[str, Any] = {"resource_type": "ServiceRequest", "status": ["active"],
                             "label": label}
    if codes:
        match["codes"] = codes
    if text:
        match["text_contains"] = text
    return {"ordered": match}


def _message(check: dict) -> dict:
    """The same note check on the messages the agent sent."""
    (name, args), = check.items()
    return {name: {**args, "source": "message", "label": f"message: {args['label']}"}}


def _sent_to(ctx: GradingContext, recipient: str, words: list[str]) -> bool:
    """Whether a message about the patient went to ``recipient`` and names one of ``words``."""
    for message in ctx.written("Communication"):
        if not (message.get("subject") or {}).get("reference", "").endswith(
                f"/{ctx.patient_id}"):
            continue
        to = {r.get("reference", "") for r in message.get("recipient") or []}
        text = " ".join(str(p.get("contentString", "")) for p in message.get("payload") or [])
        if recipient in to and any(w.lower() in text.lower() for w in words):
            return True
    return False


@triggered_by(WRITE)
def psychiatry_messaged(ctx: GradingContext) -> CheckpointResult:
    """Psychiatry, who prescribes the risperidone, was sent the plan to change it: only the
    prescriber should stop or substitute an antipsychotic (Endocrine Society 2011)."""
    if _sent_to(ctx, PSYCHIATRY, SWITCH_TEXT):
        return CheckpointResult(True, "psychiatry asked to change the antipsychotic")
    return CheckpointResult(False, "no message to psychiatry proposing a prolactin-sparing "
                                   "antipsychotic")


@triggered_by(WRITE)
def referrer_messaged(ctx: GradingContext) -> CheckpointResult:
    """The referring PCP was sent the plan (a message that names prolactin)."""
    if _sent_to(ctx, REFERRER, ["prolactin", "PRL"]):
        return CheckpointResult(True, "plan sent to the referring PCP")
    return CheckpointResult(False, "no message with the plan to the referring PCP")


def hyperprolactinemia(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    draw = float(values["prl_draw"])
    prl = {"drug": round(62 + 66 * draw), "macro": round(41 + 27 * draw),
           "adenoma": round(128 + 104 * draw)}[name]
    prl_initial = {"drug": prl - 9, "macro": prl + 4, "adenoma": prl - 14}[name]
    agonists = _rxnorm("cabergoline") + _rxnorm("bromocriptine")
    no_agonist = {"not_ordered": {"resource_type": "MedicationRequest", "codes": agonists,
                                  "label": "dopamine agonist (cabergoline, bromocriptine)"}}
    no_mri = {"all": {"of": [
        {"not_ordered": {"resource_type": "ServiceRequest",
                         "codes": MRI_CODES + [f"{CPT}|70551"], "label": "pituitary MRI"}},
        {"not_ordered": {"resource_type": "ServiceRequest", "category": [IMAGING],
                         "text_contains": MRI_TEXT, "label": "pituitary MRI"}}]}}
    never_agonist = {"note_never": {"concept": ["dopamine_agonist"], "allow_contingency": True,
                                    "label": "no dopamine agonist before the cause is known"}}
    never_mri = {"note_never": {"concept": ["pituitary_mri"], "allow_contingency": True,
                                "action": ["start", "order", "endorse", "allow", "implicit"],
                                "label": "no pituitary MRI now"}}
    if name == "drug":
        orders = [_sr("repeat prolactin", PROLACTIN_CODES), no_mri, no_agonist]
        switch = {"note_decision": {"concept": ["prolactin_sparing_antipsychotic"],
                                    "action": ["start", "switch"], "dose_required": False,
                                    "label": "switch to or add a prolactin-sparing "
                                             "antipsychotic such as aripiprazole"}}
        no_abrupt_stop = {"note_never": {"concept": ["risperidone"], "action": ["stop"],
                                         "allow_contingency": True,
                                         "label": "risperidone not stopped outright"}}
        message = [_message(switch), _message(never_mri), _message(never_agonist),
                   "graders/endocrine_lab_abnormality.py:psychiatry_messaged"]
        finding = {"note_finding": {"concept": ["drug_induced_hyperprolactinemia",
                                                "risperidone_effect"],
                                    "near": PROLACTIN_WORDS,
                                    "opposite": ["prolactinoma", "macroprolactinemia"],
                                    "label": "hyperprolactinemia from risperidone"}}
        plan = [{"note_decision": {"concept": ["prolactin_level"], "action": ["order"],
                                   "timing": {"min": 1, "max": 12, "unit": "wk"},
                                   "label": "repeat prolactin 1-12 weeks after the change"}},
                switch, no_abrupt_stop, never_mri, never_agonist]
    elif name == "macro":
        orders = [{"any": {"of": [_sr("macroprolactin screen", text=MACRO_TEXT),
                                  _sr("macroprolactin screen", MACRO_CODES)]}},
                  no_mri, no_agonist]
        screen = {"note_decision": {"concept": ["macroprolactin"], "action": ["order"],
                                    "label": "order a macroprolactin screen"}}
        message = [_message(screen), _message(never_mri), _message(never_agonist)]
        finding = {"note_finding": {"concept": ["macroprolactin", "macroprolactinemia"],
                                    "topic": True,
                                    "opposite": ["drug_induced_hyperprolactinemia",
                                                 "risperidone_effect", "prolactinoma"],
                                    "label": "macroprolactin considered"}}
        plan = [screen, never_mri, never_agonist]
    else:
        orders = [{"any": {"of": [_sr("pituitary MRI", MRI_CODES),
                                  _sr("pituitary MRI", text=MRI_TEXT)]}}, no_agonist]
        mri = {"note_decision": {"concept": ["pituitary_mri"], "action": ["order"],
                                 "label": "order a pituitary MRI"}}
        message = [_message(mri), _message(never_agonist)]
        finding = {"note_finding": {"concept": ["prolactinoma"], "topic": True,
                                    "opposite": ["drug_induced_hyperprolactinemia",
                                                 "risperidone_effect"],
                                    "label": "prolactinoma suspected, not a drug effect"}}
        plan = [mri, never_agonist]
    now = values["now"]
    return {
        "prl": prl, "prl_initial": prl_initial,
        "prl_miu": round(prl * 21.2),
        "in_6_weeks": (now + timedelta(days=42)).date().isoformat(),
        "in_1_week": (now + timedelta(days=7)).date().isoformat(),
        "order_checks": orders,
        "message_check": {"all": {"of": message + [
            "graders/endocrine_lab_abnormality.py:referrer_messaged"]}},
        "cause_grader": {"all": {"of": [
            {"note_value": {"concept": ["prolactin_level"], "value": prl, "tolerance": 0.5,
                            "label": f"current prolactin {prl} ng/mL"}}, finding]}},
        "plan_grader": {"all": {"of": plan}},
    }
