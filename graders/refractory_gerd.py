"""refractory_gerd: what persistent heartburn on a PPI calls for, and with which PPI.

The stage decides the next step (AGA clinical practice update 2022; ACG GERD guideline 2022):
- once_daily: OTC omeprazole 20 mg once daily at bedtime, never an optimized trial -> a PPI
  30-60 minutes before a meal: twice daily before breakfast and dinner (AGA 2022 BPA 4), or
  once daily before a meal (the ACG 2022 first trial); vonoprazan once daily accepted. He also
  meets criteria for a one-time Barrett's screening EGD (ACG 2022), judged in the rubric.
- twice_daily: 10 weeks of omeprazole 20 mg twice daily before meals -> refractory GERD: upper
  endoscopy with prolonged wireless pH monitoring off the PPI, no further escalation.
- alarm: the once_daily chart plus solid-food dysphagia in a nurse note -> endoscopy now.
Clopidogrel (drug-eluting stent; drawn for the once_daily and alarm stages) -> no omeprazole or
esomeprazole (PLAVIX label): pantoprazole (or lansoprazole, dexlansoprazole), and neither
antiplatelet stopped. Always: no prokinetic, no baclofen and no anti-reflux surgery without
objective evidence of GERD.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
HEIGHT_M = 1.78
DRIFT = (1.8, 0.9, 0.4, 0.0)  # kg above today's weight 2 years, 1 year and 5 months ago
MEDS = {"none": "lisinopril 20 mg daily, atorvastatin 20 mg daily",
        "dapt": "aspirin 81 mg daily and clopidogrel 75 mg daily (drug-eluting stent 8 months "
                "ago), atorvastatin 80 mg daily, metoprolol succinate 25 mg daily, lisinopril "
                "20 mg daily, nitroglycerin 0.4 mg SL as needed (not used)"}
MUST_NOT_ORDERS = [
    {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": [
        "metoclopramide", "Reglan", "domperidone", "erythromycin", "bethanechol", "prucalopride",
        "baclofen", "Lioresal", "Ozobax"], "label": "a prokinetic or baclofen"}},
    {"not_ordered": {"resource_type": "ServiceRequest", "text_contains": [
        "fundoplication", "antireflux surgery", "anti-reflux surgery", "LINX",
        "magnetic sphincter", "incisionless"], "label": "anti-reflux surgery or procedure"}}]
# The PPIs by name, not the class: the omeprazole he takes now (omeprazole_otc, 'the bedtime
# Prilosec OTC') is neither the drug started nor one stopped against it.
PPIS = ["omeprazole", "pantoprazole", "esomeprazole", "lansoprazole", "rabeprazole",
        "dexlansoprazole"]
# With clopidogrel: the PPIs with less effect on its activation (PLAVIX label 7.1).
DAPT_PPIS = [("pantoprazole", 40, 40), ("lansoprazole", 30, 30), ("dexlansoprazole", 30, 60)]
# A MedicationRequest's text is its medication's names: 'omeprazole' also finds esomeprazole.
NO_OMEPRAZOLE = {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": [
    "omeprazole", "Prilosec", "Nexium"], "label": "omeprazole or esomeprazole with clopidogrel"}}
NO_NEW_PPI = {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": [
    "omeprazole", "pantoprazole", "lansoprazole", "rabeprazole", "vonoprazan", "Prilosec",
    "Protonix", "Nexium", "Prevacid", "Dexilant", "AcipHex", "Voquezna"],
    "label": "no new or escalated PPI before the off-PPI testing"}}
OBJECTIVE = ["reflux_monitoring", "objective_gerd_evidence", "egd"]


def _order(codes: list[str], dose: tuple[float, float], label: str) -> dict[str, Any]:
    """A PPI prescription, once or twice a day (the sig's timing is not read)."""
    return {"ordered": {"resource_type": "MedicationRequest", "codes": [RX + c for c in codes],
                        "status": ["active"], "intent": ["order"], "label": label,
                        "dose": {"min": dose[0], "max": dose[1], "unit": "mg"},
                        "per_day": {"min": 1, "max": 2}}}


OMEPRAZOLE = _order(["198051", "200329"], (20, 40), "omeprazole 20-40 mg")
PANTOPRAZOLE = _order(["314200"], (40, 40), "pantoprazole 40 mg")
ESOMEPRAZOLE = _order(["606730"], (40, 40), "esomeprazole 40 mg")
LANSOPRAZOLE = _order(["311277"], (30, 30), "lansoprazole 30 mg")


def _service(codes: list[str], text: list[str], label: str) -> dict[str, Any]:
    return {"any": {"of": [{"ordered": {"resource_type": "ServiceRequest", "codes": [
        CPT + c for c in codes], "status": ["active"], "label": label}}, {"ordered": {
        "resource_type": "ServiceRequest", "text_contains": text, "status": ["active"],
        "label": f"{label} (free text)"}}]}}


def _decide(concept: list[str], action: list[str], label: str, **extra: Any) -> dict[str, Any]:
    return {"note_decision": {"concept": concept, "action": action, "label": label, **extra}}


def _any(*options: dict[str, Any]) -> dict[str, Any]:
    return {"any": {"of": list(options)}}


# Opposites of a new PPI regimen: not starting it, stopping it, or keeping the current dose. A
# later step-down to the lowest effective dose is the plan after a response, no opposite. 'Stop
# the Prilosec OTC' names another member (omeprazole_otc), so it does not stop the PPI started.
# A dose kept at bedtime is the regimen that failed ('1 cap before breakfast + 1 cap at
# bedtime'), and one after meals is no PPI before meals.
KEEP = {"opposite": ["avoid", "stop", "keep_dose"], "wrong_dose_contradicts": False,
        "not_at": ["bedtime", "after_meal"]}


def _ppi_plan(label: str) -> dict[str, Any]:
    """A PPI before meals: twice daily (started, increased or continued at that schedule), or
    a new once-daily regimen (not 'continue' the once-daily dose he takes), or vonoprazan."""
    return _any(
        _decide(PPIS, ["start", "increase", "resume", "continue"], f"{label} twice daily",
                every={"min": 2, "max": 2}, **KEEP),
        _decide(PPIS, ["start", "resume", "switch"], f"{label} once daily, newly timed",
                every={"min": 1, "max": 1}, **KEEP),
        _decide(["vonoprazan"], ["start", "switch"], "vonoprazan once daily",
                every={"min": 1, "max": 1}, **KEEP))


def _dapt_ppi_plan() -> dict[str, Any]:
    """Pantoprazole 40 mg (or lansoprazole 30 mg, dexlansoprazole 30-60 mg) once or twice a
    day, in place of the omeprazole."""
    return _any(*[_decide([drug], ["start", "increase", "resume", "switch"],
                          f"{drug} {low}{'' if low == high else f'-{high}'} mg",
                          dose={"min": low, "max": high, "unit": "mg"},
                          every={"min": 1, "max": 1 if drug == "dexlansoprazole" else 2}, **KEEP)
                  for drug, low, high in DAPT_PPIS])


def _never(concept: list[str], label: str, **extra: Any) -> dict[str, Any]:
    return {"note_never": {"concept": concept, "label": label, **extra}}


def refractory_gerd(values: dict[str, Any]) -> dict[str, Any]:
    stage, weight = values["stage"]["name"], values["weight_kg"]
    dapt = values["cardiac"]["name"] == "clopidogrel" and stage != "twice_daily"
    branch = f"{stage}_{'dapt' if dapt else 'none'}"
    egd = _service(["43235", "43239"], ["esophagogastroduodenoscopy", "EGD", "upper endoscopy"],
                   "upper endoscopy (EGD)")
    ph = _service(["91035", "91034", "91038"], ["Bravo", "wireless pH", "pH monitoring",
                  "pH study", "pH-impedance", "reflux monitoring"], "reflux monitoring off PPI")
    dapt_ppi = _any(PANTOPRAZOLE, LANSOPRAZOLE)
    orders = {"once_daily_none": [_any(OMEPRAZOLE, PANTOPRAZOLE, ESOMEPRAZOLE, LANSOPRAZOLE)],
              "once_daily_dapt": [dapt_ppi, NO_OMEPRAZOLE],
              "twice_daily_none": [egd, ph, NO_NEW_PPI], "alarm_none": [egd],
              "alarm_dapt": [egd, dapt_ppi, NO_OMEPRAZOLE]}[branch]
    ppi_note = _ppi_plan("a PPI")
    dapt_note = _dapt_ppi_plan()
    stop_omeprazole = _decide(["omeprazole", "omeprazole_otc"], ["stop", "switch"],
                              "stop omeprazole")
    # The regimen that failed: the bedtime OTC omeprazole is not kept or started again.
    # A verbless line naming it reports his regimen ('Prilosec OTC 20 mg nightly for 5 months').
    no_bedtime = _never(["omeprazole_otc"], "the bedtime OTC omeprazole not kept",
                        action=["start", "resume", "continue", "increase", "endorse", "allow"])
    # No opposite: 'no surgery before endoscopy and pH monitoring confirm GERD' reads as avoiding
    # the tests.
    egd_note = _decide(["egd"], ["order"], "upper endoscopy", opposite=[])
    # Alarm stage: now, not deferred ('routine EGD in 3 months', 'EGD after the PPI trial');
    # prompt means within weeks (NICE NG12: within 2 weeks for dysphagia); 4 weeks allowed.
    egd_now = {"all": {"of": [
        _decide(["egd"], ["order"], "upper endoscopy now", opposite=[],
                deferral_contradicts=True),
        _decide(["egd"], ["order"], "upper endoscopy within 4 weeks", opposite=[],
                timing={"min": 0, "max": 4, "unit": "wk"}, wrong_timing_contradicts=True,
                required=False)]}}
    # The pH capsule is placed at the EGD, often only without LA grade B or worse esophagitis
    # or long-segment Barrett's (AGA 2022 BPA 6): naming it beside the EGD, or ordering it on
    # that condition, is the plan.
    ph_note = _any(
        {"note_finding": {"concept": ["reflux_monitoring"], "topic": True,
                          "label": "prolonged reflux monitoring off PPI"}},
        _decide(["reflux_monitoring"], ["order", "start"], "reflux monitoring at the EGD unless "
                "it shows objective GERD", opposite=[], committed_if=["objective_gerd_evidence",
                                                                       "egd"]))
    # Twice-daily stage: the PPI is held for the tests, not escalated, switched or continued
    # through them (a hold before the tests and a resumption after them are the plan).
    no_escalation = _never(PPIS + ["ppi", "vonoprazan"], "no PPI escalation before testing",
                           action=["increase", "switch", "start", "continue"],
                           allow_contingency=True, contingency_on=OBJECTIVE)
    # Reflux testing on the PPI establishes nothing in unproven GERD (AGA 2022 BPA 6 and 7).
    not_on_ppi = _never(["reflux_monitoring_on_ppi"], "no reflux monitoring on PPI before GERD "
                        "is proven", action=["start", "resume", "continue", "endorse", "allow",
                                             "implicit", "order", "refer"],
                        allow_contingency=True, contingency_on=["objective_gerd_evidence"])
    plan = {"once_daily_none": [ppi_note, no_bedtime, not_on_ppi],
            "once_daily_dapt": [dapt_note, stop_omeprazole, not_on_ppi],
            "twice_daily_none": [egd_note, ph_note, no_escalation, not_on_ppi],
            "alarm_none": [egd_now, no_bedtime],
            "alarm_dapt": [egd_now, dapt_note, stop_omeprazole]}[branch]
    main = {"once_daily": ppi_note if not dapt else dapt_note, "twice_daily": ph_note,
            "alarm": egd_note}[stage]
    message = {"any": {"of": [{kind: {**args, "source": "message", "label": "message: "
                                      + args["label"]} for kind, args in option.items()}
                              for option in main.get("any", {"of": [main]})["of"]]}}
    never = [_never(["prokinetic"], "no metoclopramide or other prokinetic",
                    allow_contingency=True, contingency_on=["gastroparesis"]),
             _never(["baclofen"], "no baclofen yet", allow_contingency=True,
                    contingency_on=OBJECTIVE),
             _never(["antireflux_surgery"], "no anti-reflux surgery before objective testing",
                    action=["start", "resume", "continue", "increase", "endorse", "allow",
                            "implicit", "order", "refer"], allow_contingency=True,
                    contingency_on=OBJECTIVE)]
    if dapt:
        # Each antiplatelet on its own: 'stop clopidogrel; continue aspirin' interrupts DAPT 8
        # months after a drug-eluting stent, and a hold before the EGD too (ASGE 2016: continue
        # them for a diagnostic EGD; the cardiologist asked for no interruption before 12 months).
        interrupt = ["stop", "avoid", "decrease", "switch"]
        never += [_never(["esomeprazole"], "no esomeprazole"),
                  _never(["clopidogrel"], "clopidogrel not stopped or held", action=interrupt),
                  _never(["aspirin"], "aspirin not stopped or held", action=interrupt)]
    return {
        "branch": branch, "heart": "dapt" if dapt else "none", "med_line": MEDS[
            "dapt" if dapt else "none"],
        "recent_from": (values["now"] - timedelta(days=215)).date().isoformat(),
        **{f"w{i}": round(weight + d, 1) for i, d in enumerate(DRIFT)},
        **{f"b{i}": round((weight + d) / HEIGHT_M**2, 1) for i, d in enumerate(DRIFT)},
        "orders_list": orders + MUST_NOT_ORDERS, "plan_list": plan, "never_list": never,
        "message_list": [{"ordered": {"resource_type": "Communication",
                                      "label": "message to the PCP"}}, message],
    }
