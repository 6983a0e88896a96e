"""nafld_ferritin_workup: a raised ferritin in a man with MASLD - iron studies, FIB-4, the plan.

The transferrin saturation (TSAT) decides the iron work-up (EASL 2022 haemochromatosis CPG;
AASLD 2018 NAFLD guidance; Valenti L et al., Nat Rev Endocrinol 2023 metabolic
hyperferritinaemia consensus):
- metabolic (canonical): TSAT below 45% with a ferritin of 560-940 ng/mL and a normal CRP ->
  metabolic (dysmetabolic) hyperferritinemia of MASLD; HFE genotyping not needed.
- high_tsat: TSAT 50% or more -> HFE genotyping (C282Y, H63D) before any treatment.
Both: no therapeutic phlebotomy now (no benefit in MASLD, Adams LA et al., Hepatology 2015;
diagnosis of haemochromatosis not yet made), no liver biopsy now; FIB-4 = age x AST /
(platelets x sqrt(ALT)) (Sterling 2006) is drawn in the indeterminate band (1.3-2.67) ->
transient elastography; no iron chelator in either branch. The ferrous sulfate started 3 years
ago for a low TSAT during pneumonia (inflammation, not iron deficiency) is stopped when still
active, never restarted.
"""

from __future__ import annotations

import math
from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
IRON_CLASSES = ("oral iron supplement", "parenteral iron")
CHELATOR_CLASSES = ("iron chelator",)


def _fib4(age: int, ast: int, alt: int, plt: int) -> float:
    return age * ast / (plt * math.sqrt(alt))


def nafld_ferritin(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["iron_profile"]["kind"]
    tibc = int(values["tibc"])
    target = int(values["tsat_normal"] if kind == "metabolic" else values["tsat_high"])
    iron = round(target * tibc / 100)
    tsat = round(100 * iron / tibc)
    # the TSAT stays clear of the 45-50% cut-offs of the guidelines
    if (kind == "metabolic" and not tsat <= 40) or (kind == "high_tsat" and not tsat >= 52):
        raise ValueError(f"variant outside the task's design: TSAT {tsat}% for {kind}")
    age, alt, plt = int(values["age"]), int(values["alt"]), int(values["plt"])
    ast = round(float(values["fib4_target"]) * plt * math.sqrt(alt) / age)
    fib4 = _fib4(age, ast, alt, plt)
    if not 1.4 <= fib4 <= 2.55:
        raise ValueError(f"variant outside the task's design: FIB-4 {fib4:.2f}")
    ferritin = int(values["ferritin"])
    active = values["iron_rx"]["status"] == "active"
    rxnorm = terminology.all_concepts("rxnorm")
    iron_codes = sorted(RX + c.code for c in rxnorm if c.extra.get("drug_class") in IRON_CLASSES)
    chelator_codes = sorted(RX + c.code for c in rxnorm
                            if c.extra.get("drug_class") in CHELATOR_CLASSES)
    return {
        "iron": iron, "tsat": tsat, "ast": ast, "fib4": round(fib4, 2),
        "ferritin_prior": ferritin - int(values["ferritin_rise"]),
        "iron_rxnorm": iron_codes,
        "chelator_rxnorm": chelator_codes,
        # a fasting draw with no iron tablet that morning: the TSAT is real (EASL 2010)
        "draw_text": ("Fasting morning draw; he had not taken his ferrous sulfate that day."
                      if active else "Fasting morning draw."),
        "iron_profile_text": ("metabolic hyperferritinemia of MASLD (TSAT below 45%)"
                              if kind == "metabolic" else
                              "raised TSAT - HFE genotyping for hereditary hemochromatosis"),
        "iron_rx_med_text": (", ferrous sulfate 325 mg daily (since the pneumonia admission)"
                             if active else ""),
        "iron_rx_message": ("Please stop the ferrous sulfate (no iron deficiency; ferritin raised)."
                            if active else "No iron supplements."),
    }
