"""abnormal_uterine_bleeding: heavy menstrual bleeding at 47 (PALM-COEIN workup).

ACOG Practice Bulletin 128 (2012, reaffirmed): transvaginal ultrasound is the first-line imaging
test for structural causes (polyp, adenomyosis, leiomyoma), and endometrial tissue sampling is a
first-line test in women with AUB older than 45. Iron status decides the third order:

- deficient (canonical): ferritin below 15 ng/mL with a low hemoglobin -> oral ferrous sulfate.
- replete: ferritin well above 30 ng/mL and a normal hemoglobin -> no iron.

Both branches: migraine with aura makes every estrogen-containing contraceptive unacceptable
(US MEC 2024, category 4), so the PCP's combined pill is declined.
"""

from __future__ import annotations

from typing import Any

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
# ethinyl estradiol 0.03 mg / levonorgestrel 0.15 mg, the tabled combined pill.
CHC_RXNORM = ["238019"]
IRON_RXNORM = ["310325"]


def abnormal_uterine_bleeding(values: dict[str, Any]) -> dict[str, Any]:
    deficient = values["iron_status"] == "deficient"
    ferritin = int(values["ferritin_low"] if deficient else values["ferritin_high"])
    hb = float(values["hb_low"] if deficient else values["hb_normal"])
    if deficient and not (ferritin < 15 and hb < 12.0):
        raise ValueError("deficient branch needs ferritin < 15 ng/mL and Hb < 12 g/dL")
    if not deficient and not (ferritin >= 50 and hb >= 12.0):
        raise ValueError("replete branch needs ferritin >= 50 ng/mL and Hb >= 12 g/dL")
    return {
        "ferritin": ferritin,
        "hb": hb,
        "mcv": 76 if deficient else 89,
        "chc_rxnorm": [RXNORM + c for c in CHC_RXNORM],
        "iron_rxnorm": [RXNORM + c for c in IRON_RXNORM],
        "iron_text": (f"hemoglobin {hb} g/dL and ferritin {ferritin} ng/mL - she is tired" if deficient
                      else f"hemoglobin {hb} g/dL and ferritin {ferritin} ng/mL"),
    }
