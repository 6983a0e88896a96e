"""trd_augmentation: what to add after two antidepressant trials, or whether to add anything yet.

The draws decide the answer (APA MDD guideline 3rd ed. 2010; CANMAT 2023 depression update;
ABILIFY, REXULTI, SEROQUEL XR and ZOLOFT labels):
- trial adequate (canonical): escitalopram 20 mg, then sertraline 200 mg (label maximum) for
  over 8 weeks with a partial response -> augment; continue sertraline 200 mg.
  - no prior antipsychotic: aripiprazole 2 mg daily (label start 2-5 mg for adjunctive MDD).
  - akathisia on aripiprazole in an earlier episode: do not re-challenge aripiprazole; add
    brexpiprazole 0.5-1 mg or quetiapine XR 50 mg at bedtime instead.
- trial low_dose: sertraline still at its 50 mg starting dose after 6 weeks, well tolerated ->
  the second trial is not yet adequate: increase sertraline to 100 mg (100-150 mg accepted) and
  do not add an antipsychotic now.
Every branch: no second SSRI/SNRI (or other serotonergic antidepressant switch) ordered.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
SERTRALINE = ["312940", "312941", "312938"]
ESCITALOPRAM = ["351249", "349332", "351250"]
ARIPIPRAZOLE = ["602964", "402131"]
BREXPIPRAZOLE = ["1658327", "1658331"]
QUETIAPINE_XR = ["853201"]


def _rx(codes: list[str]) -> list[str]:
    return [RX + c for c in codes]


def _order(codes: list[str], lo: float, hi: float, label: str) -> dict[str, Any]:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": _rx(codes),
                        "status": ["active"], "intent": ["order"],
                        "dose": {"min": lo, "max": hi, "unit": "mg"},
                        "per_day": {"min": 1, "max": 1}, "label": label}}


# agents that must not be offered beside the chosen adjunct (finding 5: no open menu); a
# contingency with a trigger ("if no response after 6-8 weeks, lithium") is allowed
ADJUNCTS = ["aripiprazole", "brexpiprazole", "cariprazine", "quetiapine", "risperidone",
            "lithium", "bupropion", "mirtazapine", "liothyronine"]
# serotonergic antidepressants other than sertraline, by name (the ssri class would match
# "continue sertraline")
OTHER_SEROTONERGIC = ["fluoxetine", "citalopram", "paroxetine", "fluvoxamine",
                      "venlafaxine", "desvenlafaxine", "duloxetine", "levomilnacipran",
                      "vilazodone"]


def _only(chosen: str, dose: dict[str, Any], label: str) -> dict[str, Any]:
    """Commit to one adjunct at its starting dose and offer no other as an equal choice."""
    return {"all": {"of": [
        {"note_decision": {"concept": [chosen], "action": ["start"], "dose": dose,
                           "wrong_dose_contradicts": False, "opposite": ["stop"],
                           "label": label}},
        {"note_never": {"concept": [a for a in ADJUNCTS if a != chosen],
                        "allow_contingency": True,
                        "label": f"no other augmenting agent offered beside {chosen}"}}]}}


def trd_augmentation(values: dict[str, Any]) -> dict[str, Any]:
    trial = values["trial"]["name"]
    akathisia = values["arip_history"]["name"] == "akathisia"
    branch = "low_dose" if trial == "low_dose" else ("akathisia" if akathisia else "augment")
    rx = terminology.all_concepts("rxnorm")
    # other serotonergic antidepressants (a second SSRI/SNRI or a switch is not the plan)
    other_serotonergic = sorted(
        c.code for c in rx
        if c.extra.get("drug_class") in {"SSRI", "SNRI"} and c.code not in SERTRALINE)
    antipsychotics = sorted(c.code for c in rx if c.extra.get("drug_class") == "antipsychotic")
    # non-antipsychotic adjuncts (CANMAT 2023: bupropion, mirtazapine, T3) - not before the
    # second trial is adequate
    other_adjuncts = sorted(
        c.code for c in rx
        if c.extra.get("drug_class") in {"aminoketone antidepressant",
                                         "tetracyclic antidepressant"}
        or c.extra.get("ingredient") == "liothyronine sodium")
    order = {
        "augment": {"any": {"of": [
            _order(ARIPIPRAZOLE, 2, 5, "aripiprazole 2-5 mg once daily"),
            _order(BREXPIPRAZOLE, 0.5, 1, "brexpiprazole 0.5-1 mg once daily")]}},
        "akathisia": {"any": {"of": [
            _order(BREXPIPRAZOLE, 0.5, 1, "brexpiprazole 0.5-1 mg once daily"),
            _order(QUETIAPINE_XR, 50, 50, "quetiapine XR 50 mg at bedtime")]}},
        "low_dose": _order(SERTRALINE, 100, 150, "sertraline increased to 100-150 mg daily"),
    }[branch]
    must_not = [{"not_ordered": {"resource_type": "MedicationRequest",
                                 "codes": _rx(other_serotonergic),
                                 "label": "a second SSRI/SNRI"}}]
    if branch != "low_dose":
        must_not += [
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": _rx(SERTRALINE),
                             "dose": {"max": 199, "unit": "mg"},
                             "label": "sertraline lowered below 200 mg"}},
            {"not_ordered": {"resource_type": "MedicationRequest", "codes": _rx(SERTRALINE),
                             "dose": {"min": 201, "unit": "mg"},
                             "label": "sertraline above the 200 mg maximum"}}]
    if branch == "akathisia":
        must_not.append({"not_ordered": {"resource_type": "MedicationRequest",
                                         "codes": _rx(ARIPIPRAZOLE),
                                         "label": "aripiprazole re-challenge after akathisia"}})
    if branch == "low_dose":
        must_not.append({"not_ordered": {"resource_type": "MedicationRequest",
                                         "codes": _rx(antipsychotics + other_adjuncts),
                                         "label": "augmentation now (antipsychotic, bupropion, "
                                                  "mirtazapine or T3)"}})
    no_second_ssri = {"all": {"of": [
        {"note_never": {"concept": OTHER_SEROTONERGIC,
                        "action": ["start", "resume", "endorse", "allow"],
                        "label": "no second SSRI/SNRI or switch off sertraline"}},
        # escitalopram is the failed first trial the note narrates ('Trial 1 - escitalopram.'
        # reads as a start): only a return to it counts
        {"note_never": {"concept": ["escitalopram"], "action": ["resume", "endorse", "allow"],
                        "label": "no return to escitalopram"}}]}}
    low_dose_note = [{"note_never": {
        "concept": ["antipsychotic", "lithium", "bupropion", "mirtazapine", "liothyronine"],
        "allow_contingency": True,
        "label": "no augmentation before an adequate sertraline trial"}}]
    if akathisia:
        low_dose_note.append({"note_never": {"concept": ["aripiprazole"],
                                             "label": "no aripiprazole, even as a later step"}})
    augmentation = {
        "augment": {"any": {"of": [
            _only("aripiprazole", {"min": 2, "max": 5, "unit": "mg"},
                  "add aripiprazole 2-5 mg daily"),
            _only("brexpiprazole", {"min": 0.5, "max": 1, "unit": "mg"},
                  "add brexpiprazole 0.5-1 mg daily"),
            _only("cariprazine", {"value": 1.5, "unit": "mg"},
                  "add cariprazine 1.5 mg daily")]}},
        "akathisia": {"all": {"of": [
            {"any": {"of": [
                _only("brexpiprazole", {"min": 0.5, "max": 1, "unit": "mg"},
                      "add brexpiprazole 0.5-1 mg daily"),
                _only("quetiapine", {"value": 50, "unit": "mg"},
                      "add quetiapine XR 50 mg at bedtime")]}},
            {"note_never": {"concept": ["aripiprazole"],
                            "label": "no aripiprazole re-challenge"}}]}},
        "low_dose": {"all": {"of": low_dose_note}},
    }[branch]
    return {
        "branch": branch,
        "low_dose_note": low_dose_note,
        "augmentation_grader": {"all": {"of": [augmentation, no_second_ssri]}},
        "next_agent": ("brexpiprazole (not aripiprazole, which caused akathisia)" if akathisia
                       else "aripiprazole"),
        "sertraline_rxnorm": _rx(SERTRALINE),
        "escitalopram_rxnorm": _rx(ESCITALOPRAM),
        "order_grader": {"all": {"of": [order, *must_not]}},
        "sertraline_mg": 50 if trial == "low_dose" else 200,
    }
