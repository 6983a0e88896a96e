"""fungal_blood_culture_review: the step-down antifungal once the reference laboratory has named
the Candida bloodstream isolate and its MICs (IDSA 2016 candidiasis guideline; CLSI M27M44S).

- glabrata_sdd: C. glabrata, fluconazole MIC 16 (susceptible-dose dependent) -> fluconazole
  800 mg (12 mg/kg) daily, not 400 mg, no voriconazole; resuming an echinocandin is accepted.
- albicans_susceptible: C. albicans, fluconazole MIC 0.5 (susceptible) -> continue fluconazole
  400 mg (6 mg/kg) daily; no change of agent or dose, no IV echinocandin.
- krusei: C. krusei (intrinsically fluconazole-resistant), voriconazole MIC 0.25 (susceptible) ->
  stop fluconazole; voriconazole 200-300 mg (3-4 mg/kg) twice daily, or an echinocandin. The
  5 days of fluconazole did not treat C. krusei, so the course is 14 days of active therapy
  after clearance (about 11 more days), not 6.

No micafungin, caspofungin or anidulafungin RxNorm code could be verified for the terminology
(openFDA lists RxCUIs 861379 and 861383 on both the 50 mg and 100 mg products), so an
echinocandin can be ordered only as a home-infusion ServiceRequest; it counts only when the
order's own code or display names the echinocandin, not a note or a reason on another order.
"""

from __future__ import annotations

from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
FLUCONAZOLE = [RX + "197696"]
VORICONAZOLE = [RX + "349434"]
ECHINOCANDIN_TEXT = ("micafungin", "caspofungin", "anidulafungin", "rezafungin", "echinocandin",
                     "mycamine", "cancidas", "eraxis", "rezzayo")
ECHINOCANDIN_ORDER = "graders/fungal_blood_culture_review.py:echinocandin_infusion_ordered"
NO_ECHINOCANDIN_ORDER = "graders/fungal_blood_culture_review.py:no_echinocandin_infusion"
# IDSA 2016 / labels: micafungin 100 mg daily; caspofungin 70 mg load then 50 mg daily;
# anidulafungin 200 mg load then 100 mg daily; all IV once daily.
ECHINOCANDIN_DOSES = (("micafungin", 100, 100), ("caspofungin", 50, 70),
                      ("anidulafungin", 100, 200))

# name: species, fluconazole MIC / category, voriconazole and micafungin report lines, the
# susceptibility concept and its opposites.
ISOLATES = {
    "glabrata_sdd": ("Candida glabrata (Nakaseomyces glabratus)", "candida_glabrata",
                     "16      SDD", "0.25    no CLSI breakpoint", "0.015   S",
                     "fluconazole_sdd", ["fluconazole_resistant"],
                     "fluconazole susceptible-dose dependent (MIC 16)"),
    "albicans_susceptible": ("Candida albicans", "candida_albicans", "0.5     S", "0.015   S",
                             "0.015   S", "fluconazole_susceptible",
                             ["fluconazole_resistant", "fluconazole_sdd"],
                             "fluconazole-susceptible (MIC 0.5)"),
    "krusei": ("Candida krusei (Pichia kudriavzevii)", "candida_krusei",
               "64      R (intrinsic)", "0.25    S", "0.12    S", "fluconazole_resistant",
               ["fluconazole_susceptible", "fluconazole_sdd"],
               "intrinsically fluconazole-resistant (MIC 64), voriconazole-susceptible (MIC 0.25)"),
}


def _names_echinocandin(resource: dict[str, Any]) -> bool:
    """The order's own item (code displays and code text) names an echinocandin."""
    code = resource.get("code") or resource.get("medicationCodeableConcept") or {}
    text = " ".join([str(code.get("text", ""))] + [str(c.get("display", ""))
                                                   for c in code.get("coding", []) or []])
    return any(name in text.lower() for name in ECHINOCANDIN_TEXT)


def _echinocandin_orders(ctx: GradingContext, placed_only: bool) -> list[dict[str, Any]]:
    found = []
    for rtype in ("ServiceRequest", "MedicationRequest"):
        for resource in ctx.written(rtype):
            if placed_only and (resource.get("status") not in ("active", "completed")
                                or resource.get("intent") not in ("order", "original-order",
                                                                  "instance-order")):
                continue
            if _names_echinocandin(resource):
                found.append(resource)
    return found


@triggered_by(WRITE)
def echinocandin_infusion_ordered(ctx: GradingContext) -> CheckpointResult:
    """A placed order whose own code or display names an echinocandin (home infusion)."""
    found = _echinocandin_orders(ctx, placed_only=True)
    if found:
        return CheckpointResult(True, f"echinocandin ordered: {found[0].get('id')}")
    return CheckpointResult(False, "no order naming an echinocandin in its code or display")


@triggered_by(WRITE)
def no_echinocandin_infusion(ctx: GradingContext) -> CheckpointResult:
    """No order, placed or not, whose own code or display names an echinocandin."""
    found = _echinocandin_orders(ctx, placed_only=False)
    if found:
        return CheckpointResult(False, f"echinocandin ordered: {found[0].get('id')}")
    return CheckpointResult(True, "no echinocandin order")


def _order(codes: list[str], low: float, high: float, per_day: float, label: str) -> dict:
    return {"ordered": {"resource_type": "MedicationRequest", "codes": codes,
                        "status": ["active"], "intent": ["order"],
                        "dose": {"min": low, "max": high, "unit": "mg"},
                        "per_day": {"min": per_day, "max": per_day}, "label": label}}


def _never(codes: list[str], label: str, low: float = 0, high: float = 100000) -> dict:
    return {"not_ordered": {"resource_type": "MedicationRequest", "codes": codes,
                            "dose": {"min": low, "max": high, "unit": "mg"}, "label": label}}


def _decision(drug: str, actions: list[str], low: float, high: float, per_day: int,
              label: str, strict: bool = True, opposite: list[str] | None = None) -> dict:
    extra = {"opposite": opposite} if opposite else {}
    return {"note_decision": {"concept": [drug], "action": actions, **extra,
                              "dose": {"min": low, "max": high, "unit": "mg"},
                              "every": {"min": per_day, "max": per_day}, "strict": strict,
                              "label": label}}


def _no(drug: str, actions: list[str], label: str) -> dict:
    return {"note_never": {"concept": [drug], "action": actions, "label": label}}


# Resuming an echinocandin, at its dose, once daily.
ECHINOCANDIN_NOTE = {"any": {"of": [
    _decision(drug, ["start", "resume", "switch"], low, high, 1, f"{drug} {low} mg IV daily",
              strict=False) for drug, low, high in ECHINOCANDIN_DOSES]}}


def candidemia_step_down(values: dict[str, Any]) -> dict[str, Any]:
    name = str(values["isolate"]["name"])
    (species, species_concept, fluc_line, vori_line, mica_line, category, others,
     category_text) = ISOLATES[name]
    fluc800 = _order(FLUCONAZOLE, 800, 800, 1, "fluconazole 800 mg once daily")
    if name == "glabrata_sdd":
        order = {"all": {"of": [
            {"any": {"of": [fluc800, ECHINOCANDIN_ORDER]}},
            _never(FLUCONAZOLE, "fluconazole below 800 mg a dose", 1, 799),
            _never(VORICONAZOLE, "voriconazole (no C. glabrata breakpoint)")]}}
        fluc = _decision("fluconazole", ["increase", "start", "continue", "switch"], 800, 800, 1,
                         "fluconazole 800 mg daily",
                         opposite=["stop", "keep_dose", "decrease", "avoid"])
        note = {"all": {"of": [{"any": {"of": [fluc, ECHINOCANDIN_NOTE]}},
                               _no("fluconazole", ["keep_dose"], "fluconazole dose not kept"),
                               {"note_never": {"concept": ["voriconazole"],
                                               "label": "no voriconazole"}}]}}
        plan = "increase fluconazole to 800 mg (12 mg/kg) once daily"
        order_text = ("Prescribed fluconazole 800 mg by mouth once daily (or ordered a "
                      "home-infusion echinocandin); no fluconazole below 800 mg, no voriconazole.")
    elif name == "albicans_susceptible":
        order = {"all": {"of": [
            _order(FLUCONAZOLE, 400, 400, 1, "fluconazole 400 mg once daily"),
            _never(FLUCONAZOLE, "fluconazole above 400 mg a dose", 401, 100000),
            _never(VORICONAZOLE, "voriconazole"), NO_ECHINOCANDIN_ORDER]}}
        note = {"all": {"of": [
            _decision("fluconazole", ["continue", "keep_dose", "start"], 400, 400, 1,
                      "continue fluconazole 400 mg daily"),
            _no("fluconazole", ["increase", "decrease"], "fluconazole dose not changed"),
            {"note_never": {"concept": ["voriconazole", "echinocandin"], "allow_contingency": True,
                            "label": "no voriconazole or echinocandin"}}]}}
        plan = "continue fluconazole 400 mg (6 mg/kg) once daily"
        order_text = ("Renewed fluconazole 400 mg by mouth once daily to cover the rest of the "
                      "course; no higher fluconazole dose, no voriconazole, no IV echinocandin.")
    else:
        vori = _order(VORICONAZOLE, 200, 300, 2, "voriconazole 200-300 mg twice daily")
        order = {"all": {"of": [{"any": {"of": [vori, ECHINOCANDIN_ORDER]}},
                                _never(FLUCONAZOLE, "fluconazole (C. krusei)")]}}
        note = {"all": {"of": [
            {"any": {"of": [
                _decision("voriconazole", ["start", "switch"], 200, 300, 2,
                          "voriconazole 200-300 mg twice daily"),
                ECHINOCANDIN_NOTE]}},
            {"note_never": {"concept": ["fluconazole"], "label": "fluconazole not continued"}}]}}
        plan = ("stop fluconazole; voriconazole 200 mg twice daily (or an echinocandin) for 14 "
                "days of active therapy after clearance")
        order_text = ("Prescribed voriconazole 200-300 mg by mouth twice daily (or ordered a "
                      "home-infusion echinocandin); no fluconazole order.")
    return {
        "species": species, "species_concept": [species_concept], "fluc_line": fluc_line,
        "vori_line": vori_line, "mica_line": mica_line, "category": [category],
        "category_others": others, "category_text": category_text, "order_grader": order,
        "note_grader": note, "plan_text": plan, "order_text": order_text,
    }
