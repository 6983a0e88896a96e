"""persistent_diarrhea_workup: the next steps for 8 weeks of watery diarrhea after a negative
stool pathogen panel, decided by two chart facts.

- inflammation: the fecal calprotectin of last week. Below 50 ug/g (AGA 2019 threshold) with no
  alarm feature in a woman under 45 -> functional diarrhea / IBS-D, no colonoscopy now (ACG 2021
  IBS guideline). Far above it (240-880 ug/g) -> suspected inflammatory bowel disease,
  ileocolonoscopy with biopsies (ACG 2025 Crohn's disease guideline).
- iga: the total IgA of the immunology work-up 4 years ago. Normal -> tTG-IgA (ACG 2023 celiac
  guideline, AGA 2019). Selective IgA deficiency (< 7 mg/dL) -> tTG-IgA is falsely negative, so
  IgG-based serology (tTG-IgG or DGP-IgG).
Every branch: no repeat empiric metronidazole or tinidazole (IDSA 2017: avoid empiric treatment
of persistent watery diarrhea; Giardia not detected by PCR).
"""

from __future__ import annotations

from typing import Any

# Selective IgA deficiency: serum IgA < 7 mg/dL with normal IgG and IgM (ESID registry criteria).
IGA_DEFICIENT_MGDL = 4
IGA_NORMAL_MGDL = 186
CALPROTECTIN_CUTOFF = 50  # ug/g, AGA 2019 recommendation 1


def persistent_diarrhea(values: dict[str, Any]) -> dict[str, Any]:
    elevated = values["inflammation"]["name"] == "elevated"
    calpro = values["calpro_high"] if elevated else values["calpro_low"]
    if (calpro >= CALPROTECTIN_CUTOFF) != elevated or (elevated and calpro < 200):
        raise ValueError(f"calprotectin {calpro} does not fit the {values['inflammation']} band")
    deficient = values["iga"]["name"] == "deficient"
    serology = ("IgG-based celiac serology (tTG-IgG, LOINC 32998-7, or DGP-IgG)" if deficient
                else "tissue transglutaminase IgA (LOINC 31017-7)")
    colonoscopy = ("a colonoscopy with ileal intubation and biopsies (CPT 45380 or 45378)"
                   if elevated else "no colonoscopy")
    return {
        "workup_text": (f"Ordered {serology}, {colonoscopy}, and no metronidazole, tinidazole"
                        " or nitazoxanide" + (" (and no empiric steroid or mesalamine)."
                                              if elevated else ".")),
        "calpro": calpro,
        "calpro_band": "elevated" if elevated else "normal",
        "iga_mgdl": IGA_DEFICIENT_MGDL if deficient else IGA_NORMAL_MGDL,
        "iga_status": "selective IgA deficiency" if deficient else "normal total IgA",
    }
