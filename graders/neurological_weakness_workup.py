"""neurological_weakness_workup: where the weakness localises decides the workup.

One draw decides the answer (ACC/AHA 2013 and 2018 cholesterol guidelines, the NLA Statin Muscle
Safety Task Force 2014 update and the 2022 statin intolerance expert consensus; the 224th ENMC
workshop on IMNM (held 2016, Neuromuscul Disord 2018); MGFA international consensus 2016/2020;
AO Spine / WFNS 2017 degenerative cervical myelopathy guideline):
- statin_myopathy (canonical): symmetric proximal weakness on atorvastatin 80 mg with a CK of
  {ck} U/L (>10x the upper limit) -> statin-associated (possibly anti-HMGCR immune-mediated
  necrotizing) myopathy: stop the statin, no rechallenge; HMGCR antibody and EMG/NCS.
- myasthenia: fatigable ptosis, diplopia and fatigable proximal weakness, normal CK, worse after
  ciprofloxacin -> myasthenia gravis: AChR binding antibody and repetitive nerve stimulation /
  EMG; no fluoroquinolone and no magnesium.
- myelopathy: hand clumsiness, spastic gait, hyperreflexia, Hoffmann and Babinski signs, normal CK
  -> cervical myelopathy: MRI of the cervical spine; the statin is not the cause and stays.
A second draw (bulbar) adds, in the muscle and junction branches, new dysphagia, dysarthria and
orthopnea with a low FVC and NIF the day before: impending neuromuscular respiratory failure,
so the patient goes to the emergency department now (urgency "urgent"); otherwise the ED is a
contingency for red flags (urgency "routine").
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
LOINC = "http://loinc.org|"


def _of_class(word: str) -> list[str]:
    return sorted(c.code for c in terminology.all_concepts("rxnorm")
                  if word in str(c.extra.get("drug_class", "")).lower())


def _of_ingredient(word: str) -> list[str]:
    return sorted(c.code for c in terminology.all_concepts("rxnorm")
                  if word in str(c.extra.get("ingredient", "")).lower()
                  and c.extra.get("route") != "otic"
                  and "corticosteroid" not in str(c.extra.get("drug_class", "")))


def _order(label: str, codes: list[str], words: list[str]) -> dict[str, Any]:
    """A placed, active order of this test, by code or by name."""
    base = {"resource_type": "ServiceRequest", "status": ["active"], "intent": ["order"]}
    return {"any": {"of": [
        {"ordered": {**base, "codes": codes, "label": label}},
        {"ordered": {**base, "text_contains": words, "label": f"{label} (by name)"}},
    ]}}


HMGCR = _order("HMGCR antibody", [CPT + "83516", "83516"],
               ["HMGCR", "HMG-CoA", "HMG CoA", "necrotizing myopathy"])
ACHR = _order("AChR binding antibody", [CPT + "86041", "86041", LOINC + "11034-6", "11034-6"],
              ["acetylcholine receptor", "AChR"])
EMG = _order("EMG/NCS", [CPT + c for c in ("95886", "95885", "95887", "95910", "95911")]
             + ["95886", "95885", "95887", "95910", "95911"],
             ["EMG", "electromyograph", "nerve conduction"])
RNS = _order("repetitive nerve stimulation or EMG", [CPT + "95937", "95937", CPT + "95886",
                                                      "95886", CPT + "95872", "95872"],
             ["repetitive", "single fiber", "single-fiber", "EMG", "electromyograph"])
C_MRI = _order("MRI cervical spine", [CPT + c for c in ("72141", "72156", "72142")]
               + ["72141", "72156", "72142"],
               ["cervical spine", "C-spine", "cervical MRI", "MRI cervical"])


def neurological_weakness_workup(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["phenotype"]["kind"]
    if kind not in ("statin_myopathy", "myasthenia", "myelopathy"):
        raise ValueError(f"unknown phenotype {kind!r}")
    ck = values["ck_high"] if kind == "statin_myopathy" else values["ck_normal"]
    diagnosis = {"statin_myopathy": ["statin_associated_myopathy"],
                 "myasthenia": ["myasthenia_gravis"],
                 "myelopathy": ["cervical_myelopathy"]}[kind]
    others = [c for c in ("statin_associated_myopathy", "myasthenia_gravis", "cervical_myelopathy")
              if c not in diagnosis]
    statins = [RX + c for c in _of_class("statin")]
    fluoroquinolones = [RX + c for c in _of_ingredient("floxacin")]
    no_statin = {"not_ordered": {"resource_type": "MedicationRequest", "codes": statins,
                                 "label": "statin order"}}
    no_harm = {"statin_myopathy": [no_statin], "myelopathy": [no_statin], "myasthenia": [
        {"not_ordered": {"resource_type": "MedicationRequest", "codes": fluoroquinolones,
                         "label": "fluoroquinolone order"}},
        {"not_ordered": {"resource_type": "MedicationRequest", "text_contains": ["magnesium"],
                         "label": "magnesium order"}}]}[kind]
    # the workup orders, and no order that harms in this branch (a statin after a statin
    # myopathy or beside the active atorvastatin; a fluoroquinolone or magnesium in myasthenia)
    orders = {"statin_myopathy": [HMGCR, EMG], "myasthenia": [ACHR, RNS],
              "myelopathy": [C_MRI]}[kind] + no_harm
    key_test = {"statin_myopathy": ["hmgcr_antibody"], "myasthenia": ["achr_antibody"],
                "myelopathy": ["cervical_spine_mri"]}[kind]
    urgent = bool(values["bulbar"]) and kind != "myelopathy"
    return {
        "urgency": "urgent" if urgent else "routine",
        "urgent_text": (" URGENT: new dysphagia, nasal speech and orthopnea with FVC 1.7 L (44%"
                        " predicted) and NIF -26 cmH2O - please send him to the emergency"
                        " department now for admission." if urgent else ""),
        "ck": ck,
        "ck_times_uln": round(ck / 198, 1),
        "diagnosis_concept": diagnosis,
        "other_diagnoses": others,
        "workup_orders": orders,
        "key_test_concept": key_test,
        "statin_rxnorm": statins,
        "fluoroquinolone_rxnorm": fluoroquinolones,
        "recent_from": (values["now"] - timedelta(days=120)).strftime("%Y-%m-%d"),
        "older_before": (values["now"] - timedelta(days=400)).strftime("%Y-%m-%d"),
    }
