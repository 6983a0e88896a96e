"""neuroendocrine_tumor_workup: flushing with a raised chromogranin A on a PPI - is it carcinoid
syndrome?

Three scenarios (``scenario[name]``); chromogranin A is raised on long-term omeprazole in all of
them:
- ``carcinoid``: 24-h urine 5-HIAA 46-106 mg/24 h (more than 3x the upper limit, 14.9) on a
  properly restricted diet, with diarrhea -> carcinoid syndrome: somatostatin receptor PET/CT plus
  multiphasic CT or MRI of the abdomen, and a transthoracic echocardiogram (carcinoid heart
  disease).
- ``diet``: 5-HIAA 16-25 mg/24 h, collected while eating bananas, walnuts and avocado -> repeat the
  24-h urine 5-HIAA on a restricted diet before any imaging; no chromogranin A repeat on the PPI.
- ``ppi_only``: 5-HIAA 3.5-9.5 mg/24 h on a proper diet -> no biochemical evidence of carcinoid
  syndrome; chromogranin A explained by the PPI; no imaging and no repeat chromogranin A.
"""

from __future__ import annotations

from typing import Any

CPT = "http://www.ama-assn.org/go/cpt|"
LOINC = "http://loinc.org|"
IMAGING_CATEGORY = ["http://snomed.info/sct|363679005"]
# Orders are matched by code: an order's free text (note, reason) may name studies that were
# declined ("no CT abdomen now"), so words there never make or break an order. A PET code does
# not name its tracer, so the somatostatin receptor tracer must be in the ordered item; In-111
# scintigraphy and FDG-PET are not the localization study (NCCN; SNMMI AUC 2018).
PET_CODES = [CPT + c for c in ("78815", "78811", "78816")]
SSTR_TRACER = ["DOTATATE", "DOTATOC", "DOTANOC", "somatostatin receptor", "Netspot", "Detectnet",
               "SSTR", "Ga-68", "Ga68", "68Ga", "gallium", "Cu-64", "64Cu", "copper"]
# Contrast-enhanced CT or MRI of the abdomen (multiphasic protocols are billed with these codes);
# non-contrast CT (74150, 74176) and MRI (74181) are never the staging study.
AXIAL_CONTRAST = [CPT + c for c in ("74177", "74178", "74160", "74170", "74182", "74183")]
AXIAL_ALL = AXIAL_CONTRAST + [CPT + c for c in ("74150", "74176", "74181")]
NET_IMAGING_TEXT = ["DOTATATE", "DOTATOC", "somatostatin receptor", "Netspot", "Detectnet",
                    "Octreoscan", "octreotide scan", "pentetreotide", "PET/CT", "PET-CT",
                    "CT abdomen", "CT of the abdomen", "MRI abdomen", "MRI of the abdomen",
                    "abdominal MRI", "liver MRI", "MRI liver", "multiphasic CT", "multiphase CT"]
ECHO = [CPT + "93306", CPT + "93307", CPT + "93308"]
HIAA = [LOINC + "1695-6", CPT + "83497"]
CGA = [LOINC + "9811-1", CPT + "86316"]


def _placed(codes: list[str], label: str, text: list[str] | None = None) -> dict[str, Any]:
    match: dict[str, Any] = {"resource_type": "ServiceRequest", "codes": codes,
                             "status": ["active"], "label": label}
    if text:
        match["text_contains"] = text
    return {"ordered": match}


def _never(codes: list[str], label: str) -> dict[str, Any]:
    return {"not_ordered": {"resource_type": "ServiceRequest", "codes": codes, "label": label}}


NO_IMAGING = [_never(PET_CODES, "no PET/CT"),
              _never(AXIAL_ALL, "no CT or MRI of the abdomen"),
              {"not_ordered": {"resource_type": "ServiceRequest", "category": IMAGING_CATEGORY,
                               "text_contains": NET_IMAGING_TEXT,
                               "label": "no somatostatin receptor imaging, CT or MRI of the "
                                        "abdomen"}}]
IMAGING = ["sstr_pet", "sstr_scintigraphy", "fdg_pet", "pet_ct", "ct_imaging", "multiphasic_ct",
           "ct_urography", "abdominal_mri"]


def carcinoid_workup(values: dict[str, Any]) -> dict[str, Any]:
    name = values["scenario"]["name"]
    draw = float(values["hiaa_draw"])
    hiaa = {"carcinoid": round(46 + 60 * draw), "diet": round(16 + 9 * draw, 1),
            "ppi_only": round(3.5 + 6 * draw, 1)}[name]
    cga = int(round((380 + 320 * draw) if name == "carcinoid" else (150 + 170 * draw)))
    never_imaging = {"note_never": {"concept": IMAGING,
                                    "action": ["start", "order", "endorse", "allow"],
                                    "allow_contingency": True, "contingency_on": ["five_hiaa"],
                                    "label": "no NET imaging now"}}
    # On omeprazole the chromogranin A stays uninterpretable whatever the 5-HIAA shows: only a
    # stopped or replaced PPI is a trigger for repeating it.
    never_cga = {"note_never": {"concept": ["chromogranin_a"],
                                "action": ["order", "endorse", "allow"],
                                "allow_contingency": True, "contingency_on": ["ppi", "omeprazole"],
                                "label": "no repeat chromogranin A on the PPI"}}
    decline_imaging = {"note_decision": {"concept": IMAGING, "action": ["avoid"],
                                         "label": "no NET imaging now, said in the note"}}
    decline_cga = {"note_decision": {"concept": ["chromogranin_a"], "action": ["avoid"],
                                     "label": "no repeat chromogranin A, said in the note"}}
    if name == "carcinoid":
        imaging = [_placed(PET_CODES, "somatostatin receptor PET/CT", SSTR_TRACER),
                   _placed(AXIAL_CONTRAST, "contrast (multiphasic) CT or MRI of the abdomen")]
        follow = [_placed(ECHO, "transthoracic echocardiogram")]
        finding = {"note_finding": {"concept": ["carcinoid_syndrome"],
                                    "opposite": ["dietary_interference"],
                                    "label": "carcinoid syndrome"}}
        plan = [{"note_decision": {"concept": ["sstr_pet"], "action": ["order"],
                                   "label": "somatostatin receptor PET/CT"}},
                {"note_decision": {"concept": ["multiphasic_ct", "abdominal_mri"],
                                   "action": ["order"],
                                   "label": "multiphasic CT or MRI of the abdomen"}},
                {"note_decision": {"concept": ["echocardiogram"], "action": ["order"],
                                   "label": "echocardiogram for carcinoid heart disease"}}]
    else:
        imaging = NO_IMAGING
        if name == "diet":
            follow = [_placed(HIAA, "repeat 24-h urine 5-HIAA"),
                      _never(CGA, "no repeat chromogranin A")]
            finding = {"any": {"of": [
                {"note_finding": {"concept": ["dietary_interference"], "topic": True,
                                  "opposite": ["carcinoid_syndrome"],
                                  "label": "5-HIAA confounded by diet"}},
                {"note_finding": {"concept": ["serotonin_rich_food"], "topic": True,
                                  "near": ["five_hiaa"], "opposite": ["carcinoid_syndrome"],
                                  "label": "5-HIAA raised by serotonin-rich foods"}}]}}
            plan = [{"note_decision": {"concept": ["five_hiaa"], "action": ["order"],
                                       "label": "repeat 24-h urine 5-HIAA on a restricted diet"}},
                    decline_cga, never_imaging, never_cga]
        else:
            follow = [_never(CGA, "no repeat chromogranin A")]
            finding = {"note_finding": {"concept": ["ppi_cga_elevation", "ppi"], "topic": True,
                                        "near": ["chromogranin_a"],
                                        "opposite": ["carcinoid_syndrome"],
                                        "label": "chromogranin A raised by the PPI"}}
            plan = [decline_imaging, decline_cga, never_imaging, never_cga]
    return {
        "hiaa": hiaa, "cga": cga,
        "hiaa_flag": {"carcinoid": "markedly elevated", "diet": "mildly elevated",
                      "ppi_only": "normal"}[name],
        "imaging_checks": imaging, "followup_checks": follow,
        "reasoning_grader": {"all": {"of": [
            {"note_value": {"concept": ["five_hiaa"], "value": hiaa, "tolerance": 0.5,
                            "label": f"24-h urine 5-HIAA {hiaa} mg/24 h"}},
            finding]}},
        "plan_grader": {"all": {"of": plan}},
    }
