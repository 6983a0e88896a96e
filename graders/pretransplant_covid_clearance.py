"""pretransplant_covid_clearance: the scenario decides what the positive pre-transplant SARS-CoV-2
NAAT means and so the transplant decision and the treatment.

- acute (canonical): no COVID-19 in the past 90 days, 2 days of new upper-respiratory symptoms and
  a low cycle threshold (Ct 18-25) -> a new, active infection: postpone the living-donor kidney
  transplant (resolved COVID-19 = at least 21 days from onset with symptoms resolved, TTS TID
  October 2022) and treat - he is high risk (hemodialysis) - with remdesivir 200 mg IV on day 1
  then 100 mg IV on days 2-3 (VEKLURY PI section 2.3; no renal adjustment, section 8.6).
- shedding: mild COVID-19 25-70 days ago, symptoms resolved, asymptomatic now, high Ct (34-38) ->
  residual RNA after a resolved infection (CDC: RNA may stay detectable for up to 3 months, with
  no replication-competent virus): proceed with the transplant as scheduled, no antiviral and no
  repeat NAAT for clearance.
"""

from __future__ import annotations

from typing import Any

ACTIVE, RESIDUAL = "sars_cov_2_active_infection", "sars_cov_2_residual_rna"
DEFERRED, PROCEED = "transplant_deferred_covid", "transplant_proceed_covid"
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
LOINC = "http://loinc.org|"


def pretransplant_covid(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    if kind not in ("acute", "shedding"):
        raise ValueError(f"unknown scenario {kind}")
    acute = kind == "acute"
    ct = values["ct_low"] if acute else values["ct_high"]
    return {
        "ct": ct,
        "antiviral_codes": [RX + "2284960", RX + "2587899"],
        "remdesivir_codes": [RX + "2284960"],
        "paxlovid_codes": [RX + "2587899"],
        "dexamethasone_codes": [RX + "197582"],
        "prednisone_codes": [RX + "312617", RX + "312615"],
        "naat_codes": [LOINC + "94500-6", LOINC + "94558-4"],
        "status_concept": [ACTIVE] if acute else [RESIDUAL],
        "status_opposite": [RESIDUAL] if acute else [ACTIVE],
        "decision_concept": [DEFERRED] if acute else [PROCEED],
        "decision_opposite": [PROCEED] if acute else [DEFERRED],
        "status_text": ("a new, active SARS-CoV-2 infection (new symptoms, low Ct "
                        f"{ct}, no infection in the past 90 days)") if acute else (
                        "residual SARS-CoV-2 RNA after the resolved infection of "
                        f"{values['days_since']} days ago (asymptomatic, high Ct {ct}), not "
                        "an active infection"),
        "decision_text": ("postpone the living-donor kidney transplant until at least 21 days "
                          "from symptom onset with symptoms resolved") if acute else (
                          "proceed with the living-donor kidney transplant as scheduled, with "
                          "no repeat NAAT for clearance"),
    }
