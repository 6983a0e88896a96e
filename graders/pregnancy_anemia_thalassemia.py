"""pregnancy_anemia_thalassemia: what a microcytic anemia at 12 weeks of pregnancy is, and the plan.

The scenario decides the answer (ACOG CO 691 2017; ACOG PB 233 2021; BSH 2020 iron in pregnancy):
- beta_deficient (canonical): HbA2 above 3.5% with a ferritin below 30 ng/mL -> beta-thalassemia
  trait with iron deficiency: oral iron, partner screening, genetic counseling.
- beta_replete: HbA2 above 3.5%, ferritin normal -> beta-thalassemia trait alone: no therapeutic
  iron, partner screening, genetic counseling.
- alpha_replete: HbA2 and HbF normal, no variant, ferritin normal, Southeast Asian ancestry ->
  presumed alpha-thalassemia trait: alpha-globin gene (HBA1/HBA2) deletion testing, partner
  screening, genetic counseling; no therapeutic iron.
In every branch: no intravenous iron (first trimester, oral iron not yet tried) and no transfusion.
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
ORAL_IRON = ["310325"]
IV_IRON = ["1435169", "1741267", "1006586"]
LABS = {
    # scenario: (HbF %, MCV fL, RDW %, MCH pg, serum iron ug/dL, TSAT %); the RBC count follows
    # from the hemoglobin and the MCH (RBC = Hb x 10 / MCH), so MCH and MCHC stay those of
    # iron-deficient trait (MCH about 19-20 pg, MCHC 29-31 g/dL) or iron-replete trait (beta MCH
    # about 20 pg, alpha about 21 pg, MCHC about 31 g/dL).
    "beta_deficient": (1.2, 63, 16.9, None, 31, 6),
    "beta_replete": (1.4, 64, 14.2, 20.0, 92, 28),
    "alpha_replete": (0.6, 68, 13.9, 21.0, 88, 27),
}
RBC_DEFICIENT = 4.96  # fixed: the canonical chart (Mentzer index 63 / 4.96 = 12.7)
STALE_FERRITINS = (22, 61)  # her ferritin 4 years ago, before and after the iron course
DIAGNOSIS = {
    "beta_deficient": "beta-thalassemia trait with coexisting iron deficiency",
    "beta_replete": "beta-thalassemia trait (iron replete; not iron deficiency)",
    "alpha_replete": "presumed alpha-thalassemia trait (normal HbA2 and HbF, iron replete)",
}


def pregnancy_anemia(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    deficient = kind == "beta_deficient"
    hbf, mcv, rdw, mch, iron, tsat = LABS[kind]
    hba2 = values["hba2_high"] if kind.startswith("beta") else values["hba2_normal"]
    ferritin = values["ferritin_low"] if deficient else values["ferritin_high"]
    if ferritin in STALE_FERRITINS:  # the current value must differ from the stale ones
        ferritin += 5
    hgb = values["hgb"]
    if deficient:
        rbc = RBC_DEFICIENT
    else:
        # trait alone is a milder anemia: map the 9.2-10.6 draw onto 10.2-11.0 g/dL
        hgb = round(10.2 + (hgb - 9.2) * 0.8 / 1.4, 1)
        rbc = round(hgb * 10 / mch, 2)
    if (hba2 > 3.5) != kind.startswith("beta") or (ferritin < 30) != deficient:
        raise ValueError(f"draw leaves its band: HbA2 {hba2}, ferritin {ferritin}, {kind}")
    return {
        "kind": kind,
        "hba2": hba2,
        "ferritin": ferritin,
        "hgb": hgb,
        "hbf": hbf,
        "hba": round(100 - hba2 - hbf, 1),
        "mcv": mcv,
        "rdw": rdw,
        "rbc": rbc,
        "serum_iron": iron,
        "tsat": tsat,
        "diagnosis_text": DIAGNOSIS[kind],
        "iron_deficient": deficient,
        "oral_iron_codes": [RX + c for c in ORAL_IRON],
        "iv_iron_codes": [RX + c for c in IV_IRON],
        "iron_codes": [RX + c for c in ORAL_IRON + IV_IRON],
    }
