"""pulsatile_tinnitus_workup: otoscopy and the fundus exam decide the first study.

- A red (vascular) retrotympanic mass -> CT of the temporal bone without contrast first
  (ACR Appropriateness Criteria Tinnitus 2023, pulsatile tinnitus with a retrotympanic lesion);
  never a biopsy of the mass in clinic.
- Normal otoscopy with bilateral papilledema, headache and visual obscurations (suspected
  idiopathic intracranial hypertension) -> MRI brain without and with contrast plus MR venography
  (Friedman 2013 criteria; Mollan 2018 IIH consensus), urgent ophthalmology for formal fields;
  lumbar puncture only after imaging.
- Normal otoscopy and sharp discs -> CT angiography of the head and neck (ACR 2023, pulsatile
  tinnitus with normal otoscopy; MRA is the non-radiation alternative).
Every branch: a comprehensive audiogram (AAO-HNS 2014 KAS 2a); no non-contrast head CT and no
catheter angiography as a first test.
"""

from __future__ import annotations

from typing import Any

CPT = "http://www.ama-assn.org/go/cpt|"

OTOSCOPY = {
    "normal": "Otoscopy: external canals clear; both tympanic membranes intact, translucent and "
              "mobile on pneumatic otoscopy, normal landmarks, no retrotympanic mass or "
              "discoloration.",
    "vascular_mass": "Otoscopy: right tympanic membrane intact with a red, pulsating mass behind "
                     "its anterior-inferior quadrant; it blanches with positive pressure on "
                     "pneumatic otoscopy. Left ear normal.",
}
FUNDUS = {
    True: "Dilated fundus exam: bilateral optic disc edema, Frisen grade 2, with blurred disc "
          "margins and obscured peripapillary vessels; no hemorrhages. Visual acuity 20/25 OU. "
          "Enlarged blind spots on confrontation. Impression: bilateral papilledema - needs "
          "urgent work-up for raised intracranial pressure.",
    False: "Dilated fundus exam: optic discs sharp and pink OU, cup-to-disc 0.3, no disc edema, "
           "spontaneous venous pulsations present. Visual acuity 20/20 OU, full fields to "
           "confrontation. Impression: normal eye exam.",
}


def branch(values: dict[str, Any]) -> dict[str, Any]:
    mass = values["otoscopy"] == "vascular_mass"
    edema = bool(values["papilledema"]) and not mass
    path = "glomus" if mass else "iih" if edema else "vascular"
    return {
        "path": path,
        "disc_edema": edema,
        "otoscopy_text": OTOSCOPY[values["otoscopy"]],
        "fundus_text": FUNDUS[edema],
        # Height 160 cm: 95.7 kg is a BMI of 37.4 (83.5 kg, 32.6, a year ago); 69.4 kg is 27.1.
        "bmi": 37.4 if edema else 27.1,
        "weight_kg": 95.7 if edema else 69.4,
        "bmi_prior": 32.6 if edema else 27.0,
        "weight_prior_kg": 83.5 if edema else 69.1,
        "headache_text": (
            "Daily headaches for 4 months, worse lying down and on waking, with brief graying "
            "of vision for seconds when she stands up. Gained about 12 kg this year."
            if edema else
            "No headache, no visual symptoms. Weight stable."),
        "head_ct_codes": [CPT + c for c in ("70450", "70460", "70470")],
        # Diagnostic cervicocerebral catheter angiography, the whole family (AMA CPT 36221-36228).
        "catheter_codes": [CPT + str(c) for c in range(36221, 36229)],
        # Procedures that open the middle ear or drum (myringotomy, tympanostomy, exploration).
        "middle_ear_procedure_codes": [CPT + c for c in ("69420", "69421", "69433", "69436",
                                                         "69440")],
    }
