"""Phrasings clinicians write that the note reader must read as meant: each pair is a correct
phrasing that must pass and a near twin that must fail."""

from __future__ import annotations

from datetime import date

import pytest

from physbench_gym.grading.markup import lines, normalize_characters
from physbench_gym.grading.quantities import dates_past, quantities
from physbench_gym.grading.reader import _pipeline, read_note

APIXABAN_5_BID = {"note_decision": {"concept": ["apixaban"], "action": ["start"],
                                    "dose": {"value": 5, "unit": "mg"},
                                    "every": {"min": 2, "max": 2}}}
FOSFOMYCIN_ONCE = {"note_decision": {"concept": ["fosfomycin"], "action": ["start"],
                                     "dose": {"value": 3, "unit": "g"}, "every": {"single": True}}}
RATE_CONTROL = {"note_decision": {"concept": ["rate_control_agent"], "action": ["start"]}}
CHA2DS2_VASC_2 = {"note_value": {"concept": ["cha2ds2_vasc"], "value": 2}}
LESS_ALCOHOL = {"note_decision": {"concept": ["alcohol_use"],
                                  "action": ["decrease", "stop", "avoid"],
                                  "opposite": ["increase", "start", "continue", "allow"]}}
NO_ASPIRIN_OR_EDOXABAN = {"note_never": {"concept": ["aspirin", "edoxaban"]}}
NITROFURANTOIN_NOT_AVOIDED = {"note_never": {"concept": ["nitrofurantoin"],
                                             "action": ["avoid", "stop"],
                                             "allow_contingency": True}}
SLEEP_TESTING = {"note_decision": {"concept": ["sleep_study"], "action": ["order"]}}
DAPAGLIFLOZIN_10 = {"note_decision": {"concept": ["dapagliflozin"], "action": ["start"],
                                      "dose": {"value": 10, "unit": "mg"}}}
START_DAPAGLIFLOZIN = {"note_decision": {"concept": ["dapagliflozin"], "action": ["start"],
                                         "deferral_contradicts": True}}
CHA2DS2_VASC_0 = {"note_value": {"concept": ["cha2ds2_vasc"], "value": 0}}
URINE_OSM_412 = {"note_value": {"concept": ["urine_osmolality"], "value": 412}}
TSH_8_9 = {"note_value": {"concept": ["tsh"], "value": 8.9}}
ACAMPROSATE_333_TID = {"note_decision": {"concept": ["acamprosate"], "action": ["start"],
                                         "dose": {"value": 333, "unit": "mg"},
                                         "every": {"min": 3, "max": 3}}}
NO_NALTREXONE = {"note_never": {"concept": ["naltrexone"]}}
NO_AMOXICILLIN = {"note_never": {"concept": ["amoxicillin"]}}
FTC_TAF_200_25 = {"note_decision": {"concept": ["ftc_taf"], "action": ["start"],
                                    "dose": {"value": 200, "unit": "mg", "secondary": 25},
                                    "every": {"min": 1, "max": 1}}}
NO_FTC_TDF = {"note_never": {"concept": ["ftc_tdf"]}}
CRCL_53 = {"note_value": {"concept": ["crcl"], "value": 53, "tolerance": 3}}
CREATININE_1_87 = {"note_value": {"concept": ["creatinine"], "value": 1.87, "tolerance": 0.03}}
TENOFOVIR_TUBULOPATHY = {"note_finding": {"concept": ["tenofovir_tubulopathy"]}}
RISPERIDONE_CAUSE = {"note_finding": {"concept": ["drug_induced_hyperprolactinemia",
                                                 "risperidone_effect"]}}
HOLD_LISINOPRIL = {"note_decision": {"concept": ["lisinopril"], "action": ["stop"]}}
NO_NSAID_PLANNED = {"note_never": {"concept": ["nsaid"],
                                   "action": ["start", "continue", "endorse", "allow", "implicit"]}}
ORDER_HCV = {"note_decision": {"concept": ["hcv_antibody"], "action": ["order"]}}
PLATELETS_58 = {"note_value": {"concept": ["platelets"], "value": 58}}
HB_13 = {"note_value": {"concept": ["hemoglobin"], "value": 13.0, "tolerance": 0.05}}
CREATININE_2_1 = {"note_value": {"concept": ["creatinine"], "value": 2.1, "tolerance": 0.05}}
ORDER_ECHO = {"note_decision": {"concept": ["echocardiogram"], "action": ["order"]}}
KEEP_METFORMIN = {"note_decision": {"concept": ["metformin"], "action": ["continue"]}}
METFORMIN_1000 = {"note_decision": {"concept": ["metformin"], "action": ["start"],
                                    "dose": {"min": 1000, "max": 1000, "unit": "mg"}}}
FERRITIN_2500 = {"note_value": {"concept": ["ferritin"], "value": 2500}}
LUNG_BIOPSY = {"note_decision": {"concept": ["lung_biopsy"], "action": ["order", "refer"]}}
METFORMIN_CONTINUED = {"note_decision": {"concept": ["metformin"], "action": ["continue"]}}
METFORMIN_UP = {"note_decision": {"concept": ["metformin"], "action": ["increase"]}}
LISINOPRIL_KEPT = {"note_decision": {"concept": ["lisinopril"],
                                     "action": ["continue", "keep_dose"]}}
NO_METFORMIN = {"note_never": {"concept": ["metformin"]}}
NO_PITUITARY_MRI = {"note_never": {"concept": ["pituitary_mri"],
                                   "action": ["start", "order", "endorse", "allow", "implicit"]}}
START_SERTRALINE = {"note_decision": {"concept": ["sertraline"], "action": ["start"]}}
PROLACTIN_92 = {"note_value": {"concept": ["prolactin_level"], "value": 92, "tolerance": 0.5}}
NEGATIVE_PREGNANCY_TEST = {"note_category": {"subject": ["pregnancy_test"],
                                             "category": ["antibody_result_negative"],
                                             "others": ["antibody_result_positive"]}}
START_PROPRANOLOL = {"note_decision": {"concept": ["propranolol"], "action": ["start"]}}
ORDER_CBC = {"note_decision": {"concept": ["cbc"], "action": ["order"]}}
HYPOTHYROIDISM = {"note_finding": {"concept": ["hypothyroidism"]}}
CONTINUE_ATORVASTATIN = {"note_decision": {"concept": ["atorvastatin"], "action": ["continue"]}}
NO_SERTRALINE_YET = {"note_never": {"concept": ["sertraline"], "allow_contingency": True}}
PREDNISONE_30_A_DAY = {"note_decision": {"concept": ["prednisone"], "action": ["start"],
                                         "dose": {"value": 30, "unit": "mg", "per_day": True}}}
PREDNISONE_10_TID = {"note_decision": {"concept": ["prednisone"], "action": ["start"],
                                       "dose": {"value": 10, "unit": "mg"},
                                       "every": {"min": 3, "max": 3}}}
LEVOTHYROXINE_UP = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase"]}}
LEVOTHYROXINE_UP_TO_100 = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase"],
                                             "dose": {"value": 100, "unit": "mcg"}}}
LEVOTHYROXINE_DOWN = {"note_decision": {"concept": ["levothyroxine"], "action": ["decrease"]}}
START_LEVOTHYROXINE = {"note_decision": {"concept": ["levothyroxine"], "action": ["start"]}}
STOP_SERTRALINE_FOR_GOOD = {"note_decision": {"concept": ["sertraline"], "action": ["stop"],
                                              "strict": True, "permanent": True}}
NO_SERTRALINE = {"note_never": {"concept": ["sertraline"]}}
START_AMLODIPINE_AND_LISINOPRIL = {"all": {"of": [
    {"note_decision": {"concept": ["amlodipine"], "action": ["start"]}},
    {"note_decision": {"concept": ["lisinopril"], "action": ["start"]}}]}}
TSH_4_1 = {"note_value": {"concept": ["tsh"], "value": 4.1, "tolerance": 0.05}}
PREDNISONE_RAISED_FOR_FEVER = {"note_contingency": {"concept": ["prednisone"],
                                                    "action": ["increase"]}}
LEVOTHYROXINE_TO_100 = {"note_decision": {"concept": ["levothyroxine"],
                                          "action": ["increase", "decrease"],
                                          "dose": {"value": 100, "unit": "mcg"}}}
HOLD_APIXABAN_2_DAYS = {"note_decision": {"concept": ["apixaban"], "action": ["stop"],
                                          "opposite": [], "timing": {"min": 2, "max": 3,
                                                                     "unit": "d"}}}
RESUME_APIXABAN = {"note_decision": {"concept": ["apixaban"], "action": ["resume"],
                                     "opposite": []}}
NO_ENOXAPARIN = {"note_never": {"concept": ["enoxaparin"]}}
CONTINUE_DENOSUMAB = {"note_decision": {"concept": ["denosumab"], "action": ["continue", "start"]}}
STOP_SERTRALINE = {"note_decision": {"concept": ["sertraline"], "action": ["stop"]}}
WARM_AIHA = {"note_finding": {"concept": ["warm_aiha"], "opposite": ["cold_agglutinin"]}}
START_RATE_CONTROL = {"note_decision": {"concept": ["rate_control_agent"], "action": ["start"]}}
LEVOTHYROXINE_88 = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase", "start"],
                                      "dose": {"value": 88, "unit": "mcg"}}}
CRCL_19 = {"note_value": {"concept": ["crcl"], "value": 19, "tolerance": 3}}
SIADH = {"note_finding": {"concept": ["siadh"]}}
NO_ASPIRIN = {"note_never": {"concept": ["aspirin"]}}
TESTICULAR_MASS = {"note_finding": {"concept": ["testicular_mass"]}}
RECHECK_BMP_IN_A_WEEK = {"note_decision": {"concept": ["bmp"], "action": ["order"],
                                           "timing": {"min": 1, "max": 7, "unit": "d"}}}
VITAMIN_D_2000_DAILY = {"note_decision": {"concept": ["vitamin_d"], "action": ["start"],
                                          "dose": {"min": 800, "max": 4000, "unit": "IU"},
                                          "every": {"min": 1, "max": 1}}}
START_VALGANCICLOVIR = {"note_decision": {"concept": ["valganciclovir"], "action": ["start"]}}
STEROID_REFRACTORY = {"note_finding": {"concept": ["steroid_refractory"]}}
CMV_COLITIS_NOT_REMISSION = {"note_finding": {"concept": ["cmv_colitis"],
                                              "opposite": ["uc_remission"]}}
NO_TEST_OF_CURE = {"note_never": {"concept": ["test_of_cure"],
                                   "action": ["order", "start", "endorse", "allow"]}}
NO_HYPOTHYROIDISM = {"note_finding": {"concept": ["siadh"], "opposite": ["hypothyroidism"]}}
NO_SECOND_RECURRENCE = {"note_finding": {"concept": ["first_recurrence_cdi"],
                                         "opposite": ["multiple_recurrence_cdi"]}}
SUV_6_2 = {"note_value": {"concept": ["suv_max"], "value": 6.2, "tolerance": 0.05}}
NODULE_14_MM = {"note_value": {"concept": ["nodule_size"], "value": 14, "tolerance": 0.5,
                               "unit": "mm"}}
VALGANCICLOVIR_450_FOR_3_WEEKS = {"note_decision": {
    "concept": ["valganciclovir"], "action": ["start"], "dose": {"value": 450, "unit": "mg"},
    "timing": {"min": 14, "max": 21, "unit": "d"}, "timing_total": True, "all_steps": True}}
MILK_ALKALI_NOT_VITAMIN_D = {"note_finding": {"concept": ["milk_alkali"],
                                              "opposite": ["vitamin_d_toxicity"]}}
MILK_ALKALI = {"note_finding": {"concept": ["milk_alkali"]}}
STOP_IBUPROFEN = {"note_decision": {"concept": ["ibuprofen"], "action": ["stop"]}}
FIDAXOMICIN_NOT_TURNED_DOWN = {"note_decision": {"concept": ["fidaxomicin"],
                                                 "action": ["start"]}}
NEW_NODULE = {"note_finding": {"concept": ["new_nodule"]}}
RISPERIDONE_THE_CAUSE = {"note_finding": {"concept": ["risperidone_effect"],
                                           "near": ["prolactin_level"]}}

START_STATIN = {"note_decision": {"concept": ["statin"], "action": ["start"],
                                  "deferral_contradicts": True}}
VENLAFAXINE_TO_75 = {"note_decision": {"concept": ["venlafaxine"], "action": ["decrease"],
                                       "dose": {"value": 75, "unit": "mg"}}}
NO_SULFONYLUREA = {"note_never": {"concept": ["sulfonylurea"], "allow_contingency": True}}
NO_HYDROXYZINE = {"note_never": {"concept": ["first_gen_antihistamine"]}}
START_FOSFOMYCIN = {"note_decision": {"concept": ["fosfomycin"], "action": ["start"],
                                      "dose": {"value": 3, "unit": "g"}}}
CRCL_TIED_TO_NITROFURANTOIN = {"note_finding": {"concept": ["crcl"], "near": ["nitrofurantoin"],
                                                "topic": True}}
START_BUPRENORPHINE_NOW = {"note_decision": {
    "concept": ["buprenorphine"], "action": ["start"], "dose": {"min": 2, "max": 32, "unit": "mg"},
    "first_dose": {"min": 2, "max": 8, "unit": "mg"}, "deferral_contradicts": True}}
SYSTOLIC_148 = {"note_value": {"concept": ["blood_pressure"], "value": 148, "required": False}}
ORDER_CT_AND_ANA = {"all": {"of": [
    {"note_decision": {"concept": ["ct_imaging"], "action": ["order"]}},
    {"note_decision": {"concept": ["ana"], "action": ["order"]}}]}}
ORDER_EGD = {"note_decision": {"concept": ["egd"], "action": ["order"]}}
PREDNISONE_70 = {"note_decision": {"concept": ["prednisone"], "action": ["start"],
                                   "dose": {"min": 60, "max": 80, "unit": "mg"}}}
HB_9_2 = {"note_value": {"concept": ["hemoglobin"], "value": 9.2}}
IRON_DEFICIT_1628 = {"note_value": {"concept": ["iron_deficit"], "value": 1628, "tolerance": 75,
                                    "unit": "mg"}}
CALCIUM_INTAKE = {"note_value": {"concept": ["calcium_intake", "calcium_supplement"], "min": 1000,
                                 "max": 1200, "unit": "mg", "target": True}}
VITAMIN_D_2000 = {"note_decision": {"concept": ["vitamin_d"], "action": ["continue", "start"],
                                    "dose": {"min": 600, "max": 4000, "unit": "IU"}}}
SERTRALINE_DAILY = {"note_decision": {"concept": ["sertraline"], "action": ["start"],
                                      "every": {"min": 1, "max": 1}}}
ONLY_RISEDRONATE = {"all": {"of": [
    {"note_decision": {"concept": ["risedronate"], "action": ["start"]}},
    {"note_decision": {"concept": ["denosumab"], "action": ["avoid"], "opposite": ["start"],
                       "required": False}}]}}
STOP_CALCIUM = {"note_decision": {"concept": ["calcium_supplement"], "action": ["stop"]}}
DENOSUMAB_AFTER_REPLETION = {"note_decision": {"concept": ["denosumab"], "action": ["start"]}}
NO_ZOLEDRONIC_ACID_AT_THIS_CRCL = {"note_never": {"concept": ["zoledronic_acid"],
                                                  "allow_contingency": True,
                                                  "contingency_on": ["egfr", "crcl"]}}
NO_FLUOROQUINOLONE = {"note_decision": {"concept": ["fluoroquinolone"], "action": ["avoid"]}}
START_CEPHALEXIN = {"note_decision": {"concept": ["cephalexin"], "action": ["start"]}}
VITAMIN_D_3_PER_WEEK_WRONG = {"note_decision": {"concept": ["vitamin_d"], "action": ["start"],
                                                "dose": {"value": 50000, "unit": "IU"},
                                                "every": {"min": 0.142857, "max": 0.142857}}}
BMP_WITHIN_A_WEEK = {"note_decision": {"concept": ["bmp"], "action": ["order"],
                                       "timing": {"min": 1, "max": 7, "unit": "d"}}}
ORDER_SLEEP_STUDY = {"note_decision": {"concept": ["sleep_study"], "action": ["order"]}}
NO_REPAIR_NOW = {"note_never": {"concept": ["aaa_repair"], "action": ["start", "order", "endorse",
                                                                   "refer"],
                                "allow_contingency": True}}
CHA2DS2_VASC_4 = {"note_value": {"concept": ["cha2ds2_vasc"], "value": 4}}
RESTART_APIXABAN = {"note_decision": {"concept": ["apixaban"], "action": ["resume", "start"]}}
WEIGHT_64 = {"note_value": {"concept": ["weight"], "value": 64, "tolerance": 1}}
CREATININE_1_21 = {"note_value": {"concept": ["creatinine"], "value": 1.21, "tolerance": 0.02}}
START_VARENICLINE = {"note_decision": {"concept": ["varenicline"], "action": ["start"]}}
ORDER_ULTRASOUND = {"note_decision": {"concept": ["aaa_ultrasound"], "action": ["order"]}}
NODULE_7_MM = {"note_value": {"concept": ["nodule_size"], "value": 7, "tolerance": 0.5,
                               "unit": "mm"}}
ATORVASTATIN_80 = {"note_decision": {"concept": ["atorvastatin"], "action": ["increase", "start"],
                                     "dose": {"min": 40, "max": 80, "unit": "mg"}}}
NO_NSAID = {"note_never": {"concept": ["nsaid"]}}
NO_SEROLOGY = {"note_decision": {"concept": ["hpylori_serology"], "action": ["avoid"]}}
NO_FLUOROQUINOLONE = {"note_never": {"concept": ["fluoroquinolone"]}}
NO_THIAZIDE = {"note_never": {"concept": ["thiazide"]}}
NO_BUPROPION_BUT_LATER = {"note_never": {"concept": ["bupropion"], "allow_contingency": True,
                                         "contingency_on": ["sertraline"]}}
REPEAT_TSH_4_10_WK = {"note_decision": {"concept": ["tsh"], "action": ["order"],
                                        "timing": {"min": 4, "max": 10, "unit": "wk"}}}
START_LEVOTHYROXINE_NOW = {"note_decision": {"concept": ["levothyroxine"], "action": ["start"],
                                             "deferral_contradicts": True}}
AORTIC_US_IN_12_MO = {"note_decision": {"concept": ["aaa_ultrasound"], "action": ["order"],
                                        "timing": {"min": 6, "max": 12, "unit": "mo"}}}
LIPID_PANEL_IN_6_WK = {"note_decision": {"concept": ["lipid_panel"], "action": ["order"],
                                         "timing": {"min": 4, "max": 12, "unit": "wk"}}}
NO_ANTICOAGULANT_NOW = {"note_decision": {"concept": ["anticoagulant"], "action": ["avoid"]}}
INCREASE_LEVOTHYROXINE = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase"],
                                            "dose": {"min": 88, "max": 100, "unit": "mcg"}}}
UNDER_REPLACED = {"note_finding": {"concept": ["under_replacement"],
                                   "opposite": ["adequate_replacement"]}}
FIB4_INDETERMINATE = {"note_category": {"subject": ["fib4"], "category": ["level_intermediate"],
                                        "others": ["level_low", "level_high"]}}

RESUME_ASPIRIN = {"note_decision": {"concept": ["aspirin"], "action": ["resume", "start",
                                                                       "endorse"]}}
NO_ASPIRIN_OFFERED = {"note_never": {"concept": ["aspirin"], "allow_contingency": True}}
ENDOSCOPY_ORDERED = {"note_decision": {"concept": ["egd"], "action": ["order"]}}
VENLAFAXINE_75 = {"note_decision": {"concept": ["venlafaxine"], "action": ["decrease"],
                                    "dose": {"value": 75, "unit": "mg"}}}

DENOSUMAB_Q6M = {"note_decision": {"concept": ["denosumab"], "action": ["start"],
                                   "dose": {"value": 60, "unit": "mg"},
                                   "every": {"min": 0.004, "max": 0.007}}}
NO_LDCT_INSTEAD = {"note_never": {"concept": ["ldct"], "instead_of": ["chest_ct_followup"]}}

CONTINUE_TO_3_MONTHS = {"note_decision": {"concept": ["apixaban"], "action": ["continue", "stop"],
                                          "timing": {"min": 35, "max": 49, "unit": "d"}}}
NO_SILDENAFIL = {"note_never": {"concept": ["sildenafil"]}}
SECOND_CT_18_24_MO = {"note_decision": {"concept": ["chest_ct_followup", "ct_imaging"],
                                        "action": ["order"], "opposite": [],
                                        "timing": {"min": 18, "max": 24, "unit": "mo"},
                                        "committed_if": ["stability"]}}
NO_PET_NOW = {"note_never": {"concept": ["pet_ct"], "allow_contingency": True,
                             "action": ["start", "order", "endorse", "allow", "implicit"]}}
START_SGLT2I = {"note_decision": {"concept": ["sglt2_inhibitor"], "action": ["start"]}}
NO_EGD_PLANNED = {"note_never": {"concept": ["egd"], "action": [
    "start", "order", "endorse", "allow", "implicit", "refer"]}}
NO_SULFONYLUREA_STRICT = {"note_never": {"concept": ["sulfonylurea"], "action": [
    "start", "order", "endorse", "allow", "implicit"]}}
STOP_METFORMIN = {"note_decision": {"concept": ["metformin"], "action": ["stop"]}}
STOP_METFORMIN_NEVER_OFFERED = {"all": {"of": [STOP_METFORMIN,
                                                {"note_never": {"concept": ["metformin"]}}]}}
DENOSUMAB_AFTER_REPLETION = {"note_contingency": {"concept": ["denosumab"]}}
CALCIUM_1000_1200 = {"note_value": {"concept": ["calcium_intake"], "min": 1000, "max": 1200,
                                    "unit": "mg"}}
NO_ANTICOAGULANT = {"note_never": {"concept": ["anticoagulant"]}}
REFER_CARDIAC_SURGERY = {"note_decision": {"concept": ["cardiac_surgery"], "action": ["refer"]}}
ADMIT_NOW = {"note_decision": {"concept": ["hospital_admission"], "action": ["order"]}}
FIBROELASTOMA = {"note_finding": {"concept": ["papillary_fibroelastoma"], "opposite": [
    "infective_endocarditis", "positive_blood_cultures"]}}
MASS_11_MM = {"note_value": {"concept": ["valve_mass_size"], "value": 11, "tolerance": 0.5,
                             "unit": "mm"}}
NONGLOMERULAR = {"note_finding": {"concept": ["nonglomerular_hematuria"],
                                  "opposite": ["glomerular_hematuria"]}}
AUA_HIGH_RISK = {"note_category": {"subject": ["gu_malignancy_risk"], "category": ["level_high"],
                                   "others": ["level_low", "level_intermediate"]}}
URINE_RBC_14 = {"note_value": {"concept": ["urine_rbc"], "value": 14}}
PHPT_NOT_FHH = {"note_finding": {"concept": ["primary_hyperparathyroidism"],
                                 "opposite": ["fhh"]}}
VITAMIN_D_13 = {"note_value": {"concept": ["vitamin_d_level", "vitamin_d"], "value": 13,
                               "tolerance": 0.5, "unit": "ng/mL"}}
NO_HCTZ = {"note_decision": {"concept": ["hydrochlorothiazide"], "action": ["avoid", "stop"]}}
RADIUS_Z_MINUS_2_8 = {"note_value": {"concept": ["z_score"], "value": -2.8, "tolerance": 0.05}}
NEVER_HCTZ = {"note_never": {"concept": ["hydrochlorothiazide"]}}
NO_SSTR_PET_BUT_ON_5HIAA = {"note_never": {"concept": ["sstr_pet"], "allow_contingency": True,
                                           "action": ["order", "endorse", "allow"],
                                           "contingency_on": ["five_hiaa"]}}
FIVE_HIAA_72 = {"note_value": {"concept": ["five_hiaa"], "value": 72, "tolerance": 0.5}}
CONTINUE_METFORMIN = {"note_decision": {"concept": ["metformin"], "action": ["continue"]}}
CHILD_PUGH_C = {"note_finding": {"concept": ["child_pugh_c"],
                                 "opposite": ["child_pugh_a", "child_pugh_b"]}}
START_DAPAGLIFLOZIN_10 = {"note_decision": {"concept": ["dapagliflozin"], "action": ["start"],
                                            "dose": {"value": 10, "unit": "mg"}}}
STATIN_NOT_STOPPED = {"note_never": {"concept": ["statin"], "action": ["stop", "avoid"]}}
NO_ENOXAPARIN = {"note_never": {"concept": ["enoxaparin"], "action": [
    "start", "resume", "continue", "endorse", "allow", "implicit", "order"]}}
NO_TADALAFIL = {"note_never": {"concept": ["tadalafil"]}}
STOP_ALENDRONATE = {"note_decision": {"concept": ["alendronate"], "action": ["stop"]}}
Z_SCORE_MINUS_2_8 = {"note_value": {"concept": ["t_score"], "value": -2.8, "tolerance": 0.05}}
RESUME_APIXABAN_2_3_DAYS = {"note_decision": {"concept": ["apixaban"], "action": ["resume"],
                                              "timing": {"min": 2, "max": 3, "unit": "d"}}}
HOLD_APIXABAN_4_DAYS = {"note_decision": {"concept": ["apixaban"], "action": ["stop"],
                                          "timing": {"value": 4, "unit": "d"}}}
FCM_750 = {"note_decision": {"concept": ["ferric_carboxymaltose"], "action": ["start"],
                             "dose": {"value": 750, "unit": "mg"}}}
IRON_DEFICIT_1628 = {"note_value": {"concept": ["iron_deficit"], "value": 1628, "tolerance": 75,
                                    "unit": "mg"}}
AVOID_STEROIDS = {"note_decision": {"concept": ["corticosteroid"], "action": ["avoid", "stop"]}}
STOP_DIPHENHYDRAMINE = {"note_decision": {"concept": ["diphenhydramine"], "action": ["stop"]}}
CETIRIZINE_40_A_DAY = {"note_decision": {"concept": ["cetirizine"], "action": ["increase", "start"],
                                         "dose": {"min": 20, "max": 40, "unit": "mg",
                                                  "per_day": True}}}
OMALIZUMAB_LATER = {"note_contingency": {"concept": ["omalizumab"]}}
REASSESS_2_4_WK = {"note_decision": {"concept": ["follow_up_visit"], "action": ["order"],
                                     "timing": {"min": 2, "max": 4, "unit": "wk"}}}
NO_FIRST_GEN_ANTIHISTAMINE = {"note_never": {"concept": ["first_gen_antihistamine"]}}
CSU = {"note_finding": {"concept": ["csu"]}}
NO_NITROFURANTOIN = {"note_never": {"concept": ["nitrofurantoin"]}}
BUPRENORPHINE_START = {"note_decision": {
    "concept": ["buprenorphine"], "action": ["start"], "dose": {"min": 2, "max": 32, "unit": "mg",
                                                                "limit": True},
    "first_dose": {"min": 2, "max": 8, "unit": "mg"}}}
CRCL_41 = {"note_value": {"concept": ["crcl"], "value": 41, "tolerance": 6}}
FIB4_1_89 = {"note_value": {"concept": ["fib4"], "value": 1.89, "tolerance": 0.1}}
VITAMIN_D_14 = {"note_value": {"concept": ["vitamin_d_level"], "value": 14}}
REASSESS_1_6_WK = {"note_decision": {"concept": ["follow_up_visit", "phq9"], "action": ["order"],
                                     "timing": {"min": 1, "max": 6, "unit": "wk"}}}
START_SERTRALINE_25_50 = {"note_decision": {"concept": ["sertraline"], "action": ["start"],
                                            "dose": {"min": 25, "max": 50, "unit": "mg"}}}
CT_IN_6_12_MO = {"note_decision": {"concept": ["chest_ct_followup", "ct_imaging"],
                                   "action": ["order"], "timing": {"min": 6, "max": 12,
                                                                    "unit": "mo"}}}
CONTINUE_PPI = {"note_decision": {"concept": ["ppi"], "action": ["continue", "start"]}}
PPI_HELD_BEFORE_TEST = {"note_decision": {"concept": ["ppi"], "action": ["stop"], "opposite": [],
                                          "timing": {"min": 1, "max": 2, "unit": "wk"}}}
EGD_IN_8_12_WK = {"note_decision": {"concept": ["egd"], "action": ["order"],
                                    "timing": {"min": 6, "max": 12.5, "unit": "wk"},
                                    "timing_after": {"min": 7.5, "max": 12.5, "unit": "wk"}}}
HB_9_2 = {"note_value": {"concept": ["hemoglobin"], "value": 9.2}}
WARM_NOT_COLD = {"note_finding": {"concept": ["warm_aiha"], "opposite": ["cold_agglutinin"]}}
CRCL_18 = {"note_value": {"concept": ["crcl"], "value": 18.3, "tolerance": 2.9}}
SEVERE_OUD = {"note_category": {"subject": ["opioid_use_disorder"], "category": ["level_severe"],
                                "others": ["level_mild", "level_moderate"]}}
NA_RISE_8_PER_DAY = {"note_limit": {"concept": ["correction_rate"], "min": 4, "max": 12,
                                    "unit": "mmol/L", "period_hours": 24}}
ECHO_ORDERED = {"note_decision": {"concept": ["echocardiogram"], "action": ["order"]}}
NO_DIGOXIN = {"note_never": {"concept": ["digoxin"], "allow_contingency": True,
                             "action": ["start", "order", "endorse", "allow", "implicit"]}}
FERRITIN_7 = {"note_value": {"concept": ["ferritin"], "value": 7}}
AVOID_AMOXICILLIN = {"note_decision": {"concept": ["amoxicillin"], "action": ["avoid"]}}
AVOID_NSAIDS = {"note_decision": {"concept": ["nsaid"], "action": ["avoid", "stop"]}}
NO_ALLERGY_TESTING = {"note_decision": {"concept": ["allergy_testing"], "action": ["avoid"]}}
NO_NALTREXONE_UNTIL_OFF_OPIOIDS = {"note_never": {"concept": ["naltrexone"],
                                                  "allow_contingency": True,
                                                  "contingency_on": ["opioid"]}}
AVOID_NITROFURANTOIN = {"note_decision": {"concept": ["nitrofurantoin"], "action": ["avoid"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a drug class, then the drug that carries it out
    (APIXABAN_5_BID, "Start anticoagulation with apixaban 5 mg twice daily.", True),
    (APIXABAN_5_BID, "Recommend oral anticoagulation with apixaban 5 mg twice daily.", True),
    (APIXABAN_5_BID, "Avoid anticoagulation with apixaban 5 mg twice daily.", False),
    # 'start him on' names the new dose, not the current one
    (APIXABAN_5_BID, "Start him on apixaban 5 mg BID.", True),
    (APIXABAN_5_BID, "Start him on apixaban 2.5 mg BID.", False),
    # turning down another regimen of the drug is not turning down this one
    (APIXABAN_5_BID, "Start apixaban 5 mg twice daily. Do not use apixaban 2.5 mg.", True),
    (APIXABAN_5_BID, "Start apixaban 5 mg twice daily. No apixaban.", False),
    # 'as a single dose' counts doses; a brand in parentheses is the same drug
    (FOSFOMYCIN_ONCE, "Fosfomycin needs no renal adjustment as a single dose. Fosfomycin 3 g "
                      "PO once.", True),
    (FOSFOMYCIN_ONCE, "Recommendation: fosfomycin 3 g granules (Monurol) by mouth as a single "
                      "dose.", True),
    (FOSFOMYCIN_ONCE, "Recommendation: fosfomycin 3 g granules (Monurol) every 3 days.", False),
    # an inline 'Excluded:' list ends with its sentence
    (FOSFOMYCIN_ONCE, "Excluded: nitrofurantoin (resistant); TMP-SMX (sulfa allergy).\n"
                      "Fosfomycin is active and needs no renal adjustment.\n"
                      "P: Fosfomycin 3 g PO once.", True),
    # 'Label: no X' negates X
    (RATE_CONTROL, "Rate control: no AV-nodal agent is needed.", False),
    (RATE_CONTROL, "Rate control: metoprolol succinate 25 mg daily.", True),
    # a score glued to its value, and a table's total row
    (CHA2DS2_VASC_2, "CHA2DS2VASc=2 (HTN 1, DM2 1).", True),
    (CHA2DS2_VASC_2, "CHA2DS2VASc=3 (HTN 1, DM2 1, DVT 1).", False),
    (CHA2DS2_VASC_2, "| CHA2DS2-VASc item | Points |\n|---|---|\n| Hypertension | 1 |\n"
                     "| Diabetes | 1 |\n| **Total** | **2** |", True),
    (CHA2DS2_VASC_2, "| CHA2DS2-VASc item | Points |\n|---|---|\n| Hypertension | 1 |\n"
                     "| **Total** | **1** |", False),
    # a polite request is not a condition
    (LESS_ALCOHOL, "I would be grateful if you could counsel him to stop binge drinking.", True),
    (LESS_ALCOHOL, "If he wants to, he could cut down on alcohol.", False),
    # 'not an alternative', 'considered but not chosen' turn the drug down
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin is not an alternative.", True),
    (NO_ASPIRIN_OR_EDOXABAN, "Edoxaban was considered but not chosen (CrCl above 95).", True),
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin is an alternative.", False),
    # a copula allowance plans the drug; the verb before it says what is allowed
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin 81 mg daily is an acceptable backup.", False),
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin is not an acceptable alternative.", True),
    ({"note_never": {"concept": ["statin"], "action": ["stop", "avoid"]}},
     "Stopping atorvastatin is a reasonable option.", False),
    ({"note_never": {"concept": ["statin"], "action": ["stop", "avoid"]}},
     "Atorvastatin is a reasonable option.", True),
    # a fallback 'only if X cannot be taken' does not avoid X
    (NITROFURANTOIN_NOT_AVOIDED, "Excluded: fosfomycin (fallback only if nitrofurantoin "
                                 "cannot be taken).", True),
    (NITROFURANTOIN_NOT_AVOIDED, "Avoid nitrofurantoin (CrCl below 30).", False),
    # the next sentence that refers back ('Because this ...') ties the value to the drug
    (CRCL_TIED_TO_NITROFURANTOIN, "CrCl is about 82 mL/min. Because this is above 60 mL/min, "
                                  "nitrofurantoin is appropriate.", True),
    (CRCL_TIED_TO_NITROFURANTOIN, "CrCl is about 82 mL/min. The culture grew E. coli. "
                                  "Nitrofurantoin is appropriate.", False),
    # a bulleted line is an item, never a heading
    (SLEEP_TESTING, "Workup (orders placed):\n- Home sleep apnea testing\n- 48-hour Holter", True),
    (SLEEP_TESTING, "Workup (orders placed):\n- 48-hour Holter", False),
    # 'I've sent X' prescribes it
    (DAPAGLIFLOZIN_10, "I've sent dapagliflozin 10 mg once daily to his pharmacy.", True),
    (DAPAGLIFLOZIN_10, "I've sent you a message about dapagliflozin 5 mg once daily.", False),
    # 'Total = 0' after a score's items speaks of the score
    (CHA2DS2_VASC_0, "CHA2DS2-VASc, item by item:\n- CHF 0\n- HTN 0\n- Age 0\n\nTotal = 0.", True),
    (CHA2DS2_VASC_0, "CHA2DS2-VASc, item by item:\n- CHF 0\n- HTN 1\n- Age 0\n\nTotal = 1.", False),
    # a value in a unit only another test uses is not that test's ('412 mOsm/kg' glucose)
    (URINE_OSM_412, "Glucose 96 mg/dL, a concentrated urine at 412 mOsm/kg.", True),
    (URINE_OSM_412, "Glucose 96 mg/dL, a concentrated urine at 312 mOsm/kg.", False),
    # a code is not a value
    (TSH_8_9, "TSH 8.9 mIU/L (3/4/2026). [x] TSH (LOINC 3016-3) - recheck in 6 weeks.", True),
    (TSH_8_9, "[x] TSH (LOINC 3016-3) - recheck in 6 weeks.", False),
    # a pronoun after a date ('On 3/4/2026 it is 8.9') reports the test just named
    (TSH_8_9, "Her TSH was 3.1 in 2025. On 3/4/2026 it is 8.9 mIU/L, with a free T4 of 0.9.", True),
    (TSH_8_9, "Her TSH was 3.1 in 2025. On 3/4/2026 her free T4 is 0.9.", False),
    # a threshold after the verb makes a rule, not a decision now
    (ACAMPROSATE_333_TID, "Acamprosate 333 mg TID. It is contraindicated at CrCl <= 30.", True),
    (ACAMPROSATE_333_TID, "Acamprosate 333 mg TID. It is contraindicated.", False),
    # 'delayed-release' is part of the name, not 'delay'
    (ACAMPROSATE_333_TID, "Start acamprosate delayed-release 333 mg PO three times daily.", True),
    # an aside's own verb stays in the aside; a parenthesis that holds only the verb does not
    (NO_NALTREXONE, "Naltrexone (ongoing opioid therapy) - contraindicated.", True),
    (NO_NALTREXONE, "(excluded) naltrexone (PO or XR-IM) - contraindicated with oxycodone.", True),
    (NO_NALTREXONE, "Naltrexone 50 mg (not started today) is an acceptable option.", False),
    # a member turned down beside another member chosen is a choice within the class
    (START_STATIN, "Start atorvastatin 20 mg daily. Not restarting simvastatin.", True),
    (START_STATIN, "Hold off on atorvastatin for now. Not restarting simvastatin.", False),
    # a sick-day hold is not a deferral; putting the drug off is
    (START_DAPAGLIFLOZIN, "Start dapagliflozin 10 mg daily. Temporarily hold it during acute "
                          "illness or 3 days before surgery.", True),
    (START_DAPAGLIFLOZIN, "Temporarily hold off on dapagliflozin until the next visit.", False),
    # a later taper step is not a contradiction of the first step
    (VENLAFAXINE_TO_75, "Week 1-2: venlafaxine XR 75 mg daily.\nWeek 3-4: stop venlafaxine.", True),
    (VENLAFAXINE_TO_75, "Stop venlafaxine today.", False),
    # a cost or preference condition offers an alternative; a clinical trigger does not
    (NO_SULFONYLUREA, "If dapagliflozin is unaffordable, glipizide 2.5 mg daily would be a "
                      "reasonable alternative.", False),
    (NO_SULFONYLUREA, "If the A1c rises above 10% despite two agents, glipizide 2.5 mg daily "
                      "could be added.", True),
    # 'd/c X -> Y' moves the patient to Y
    (NO_HYDROXYZINE, "d/c diphenhydramine -> hydroxyzine 25 mg qHS instead.", False),
    (NO_HYDROXYZINE, "d/c diphenhydramine -> no sedating antihistamine at night.", True),
    # a line under 'Treatment options' weighs an option; it does not plan it
    (START_FOSFOMYCIN, "Treatment options:\n- Fosfomycin 3 g PO once\n- Ertapenem IV", False),
    (START_FOSFOMYCIN, "Plan:\n- Fosfomycin 3 g PO once", True),
    # a verbless dose change, a replaced dose and a participle verb
    (ATORVASTATIN_80, "Plan:\n- Statin: atorva 20 -> 80 mg qd.", True),
    (ATORVASTATIN_80, "Plan:\n- Statin: atorva 80 -> 20 mg qd.", False),
    (ATORVASTATIN_80, "I have sent atorvastatin 80 mg daily to replace the 20 mg tablet.", True),
    (ATORVASTATIN_80, "I have sent atorvastatin 80 mg daily along with the 20 mg tablet.", False),
    (ATORVASTATIN_80, "I have increased his atorvastatin to 80 mg daily.", True),
    (ATORVASTATIN_80, "I have increased his atorvastatin to 20 mg daily.", False),
    # a drug joined by 'with' shares the verb after it
    (NO_NSAID, "Celecoxib with a PPI may be used if essential.", False),
    (NO_NSAID, "Avoid NSAIDs, including celecoxib, even with a PPI.", True),
    # 'non-X' names what it is not
    (NO_FLUOROQUINOLONE, "Urology can use a non-fluoroquinolone agent instead.", True),
    (NO_FLUOROQUINOLONE, "Urology can use a fluoroquinolone agent instead.", False),
    # a trend arrow is no switch; 'a continued fall' is no verb
    (NO_THIAZIDE, "Hydrochlorothiazide was stopped in April and the sodium kept falling "
                  "(130 -> 128 -> 126), so the thiazide is not the cause.", True),
    (NO_THIAZIDE, "Hydrochlorothiazide may be restarted for her blood pressure.", False),
    # the consequence of an opening condition is conditional
    (NO_BUPROPION_BUT_LATER, "If she fails sertraline at full dose, bupropion augmentation "
                             "could be considered.", True),
    (NO_BUPROPION_BUT_LATER, "Bupropion augmentation could be considered now.", False),
    # a step after a trigger clause belongs to the trigger
    (REPEAT_TSH_4_10_WK, "Plan: Repeat TSH in 6 months. If she becomes pregnant, call us; we "
                         "will then check TSH every 4 weeks.", False),
    (REPEAT_TSH_4_10_WK, "Plan: Repeat TSH in 6 weeks. If she becomes pregnant, call us; we "
                         "will then check TSH every 4 weeks.", True),
    # 'as soon as' defers the start
    (START_LEVOTHYROXINE_NOW, "Start levothyroxine 50 mcg daily as soon as she has a positive "
                              "pregnancy test.", False),
    (START_LEVOTHYROXINE_NOW, "Start levothyroxine 50 mcg daily now.", True),
    # a guideline cited with its year does not date the plan
    (LIPID_PANEL_IN_6_WK, "Plan: repeat lipid panel in 6 weeks (ACC/AHA 2018).", True),
    (LIPID_PANEL_IN_6_WK, "Plan: repeat lipid panel in 6 months (ACC/AHA 2018).", False),
    (AORTIC_US_IN_12_MO, "Plan: aortic duplex ultrasound in 12 months (SVS 2018).", True),
    (AORTIC_US_IN_12_MO, "Plan: aortic duplex ultrasound in 3 years (SVS 2018).", False),
    # numbers dictated in words
    (LEVOTHYROXINE_88, "plan increase levothyroxine to eighty eight micrograms once a day", True),
    (LEVOTHYROXINE_88, "plan increase levothyroxine to one hundred micrograms once a day", False),
    (TSH_8_9, "tsh on march fourth eight point nine, free t4 zero point nine", True),
    (TSH_8_9, "tsh on march fourth nine point eight, free t4 zero point nine", False),
    # a negation in the trigger stays there; the offered fallback is still offered
    (NO_AMOXICILLIN, "If he cannot tolerate the bismuth regimen, amoxicillin 1 g twice daily "
                     "with clarithromycin 500 mg twice daily is a reasonable alternative.", False),
    (NO_AMOXICILLIN, "Bismuth quadruple therapy for 14 days; no amoxicillin (penicillin "
                     "allergy).", True),
    # a gerund subject of an effect is an explanation, not a decision
    (CONTINUE_DENOSUMAB, "Plan: denosumab 60 mg every 6 months. Stopping denosumab causes a "
                         "rebound in bone turnover.", True),
    (CONTINUE_DENOSUMAB, "Plan: denosumab 60 mg every 6 months. I recommend stopping "
                         "denosumab.", False),
    # a past time clause and a subjectless stay narrate the past
    (STOP_SERTRALINE, "Stop sertraline. Sodium was normal on the day sertraline started.", True),
    (STOP_SERTRALINE, "Stop sertraline. Sertraline started again today.", False),
    (START_RATE_CONTROL, "Discharged without rate control. Start metoprolol succinate 25 mg "
                         "daily.", True),
    (START_RATE_CONTROL, "No rate control for now.", False),
    # 'unlikely' denies the finding it follows
    (WARM_AIHA, "Warm AIHA. C3d-negative makes cold agglutinin disease unlikely.", True),
    (WARM_AIHA, "Warm AIHA; cold agglutinin disease is also present.", False),
    # a label with an aside, and an indented one-letter label inside a lab block
    (FOSFOMYCIN_ONCE, "Recommendation (IDSA lists it for ESBL cystitis): fosfomycin 3 g PO, one "
                      "single dose.", True),
    (CRCL_19, "Labs reviewed:\n  S: TMP-SMX, nitrofurantoin, fosfomycin\n  CrCl "
              "(Cockcroft-Gault, actual wt): ~19 mL/min", True),
    (CRCL_19, "Labs reviewed:\n  S: TMP-SMX, nitrofurantoin, fosfomycin\n  CrCl "
              "(Cockcroft-Gault, actual wt): ~29 mL/min", False),
    # an item that only names a test labels the items nested under it
    (TSH_8_9, "- TSH\n  - 03/04/2026: 8.9 mIU/L\n- Free T4 0.9", True),
    (TSH_8_9, "- TSH\n  - 03/04/2026: 9.8 mIU/L\n- Free T4 0.9", False),
    # a small score in words is its value
    (CHA2DS2_VASC_0, "His CHA2DS2-VASc is zero, so no anticoagulation.", True),
    (CHA2DS2_VASC_0, "His CHA2DS2-VASc is two, so no anticoagulation.", False),
    # 'a new Rx for' starts the drug; a '12.5 mcg step' is the change, not the dose
    (LEVOTHYROXINE_88, "I've sent a new Rx for levothyroxine 88 mcg PO every morning (12.5 mcg "
                       "step).", True),
    (LEVOTHYROXINE_88, "I've sent a new Rx for levothyroxine 100 mcg PO every morning (12.5 mcg "
                       "step).", False),
    # 'no aspirin either' refuses it too
    (NO_ASPIRIN, "No anticoagulant, and no aspirin either, it does not prevent strokes here.",
     True),
    (NO_ASPIRIN, "No anticoagulant; either aspirin or nothing is fine.", False),
    # a finding ruled out is denied
    (SIADH, "Euvolemic hypotonic hyponatremia: SIADH from sertraline.", True),
    (SIADH, "Euvolemic hypotonic hyponatremia; SIADH ruled out.", False),
    # a condition after a dash belongs to what follows the dash
    (STOP_SERTRALINE, "## Plan\n### Medications\n- Stop sertraline - taper over 1-2 weeks if "
                      "discontinuation symptoms", True),
    (STOP_SERTRALINE, "## Plan\n### Medications\n- Stop sertraline if discontinuation symptoms",
     False),
    # 'once his score reaches 2' waits for an event, as 'once he' does
    (NO_ANTICOAGULANT_NOW, "Anticoagulation is not indicated now. Reassess at each visit; start "
                           "a DOAC once his score reaches 2.", True),
    (NO_ANTICOAGULANT_NOW, "Anticoagulation is not indicated now. Start a DOAC once his course "
                           "of metoprolol is done.", False),
    # 'lower levothyroxine absorption' is about absorption, not the dose
    (INCREASE_LEVOTHYROXINE, "Increase levothyroxine from 75 to 88 mcg daily. Calcium and iron "
                             "lower levothyroxine absorption; separate them by 4 hours.", True),
    (INCREASE_LEVOTHYROXINE, "Increase levothyroxine from 75 to 88 mcg daily. Lower "
                             "levothyroxine back to 75 mcg next week.", False),
    # the referral's question is asked, not found; a TSH high despite adherence is found
    (UNDER_REPLACED, "**Question:** dosing for a rising TSH.\n**Assessment:** TSH 8.9 is above "
                     "goal despite adherence.", True),
    (UNDER_REPLACED, "**Question:** dosing for a rising TSH.\n**Assessment:** Primary "
                     "hypothyroidism, adequately replaced.", False),
    # bands named with their cut-offs define the scale; 'between' them is the middle band
    (FIB4_INDETERMINATE, "FIB-4 = 1.89, between the low-risk (<1.3) and high-risk (>2.67) "
                         "thresholds.", True),
    (FIB4_INDETERMINATE, "FIB-4 1.89: low risk (<1.3).", False),
    (FIB4_INDETERMINATE, "FIB-4 1.89 falls in the indeterminate range (1.3-2.67); <1.3 low risk, "
                         ">2.67 high risk.", True),
    # an aside between commas keeps its own verb and cues
    (RESUME_ASPIRIN, "Aspirin, held since admission, should be resumed now at 81 mg daily.", True),
    (RESUME_ASPIRIN, "Aspirin, held since admission, should stay on hold for 8 weeks.", False),
    # 'X after Y is reasonable': the verb is the subject's; a wish is no clinical trigger
    (NO_ASPIRIN_OFFERED, "Aspirin 81 mg daily after apixaban is reasonable if he prefers.", False),
    (NO_ASPIRIN_OFFERED, "Aspirin 81 mg daily would be reasonable if he develops coronary "
                         "disease.", True),
    # an assessment applies a threshold ('< 1% ->'); a plan arrow after one is a trigger
    (NO_ANTICOAGULANT_NOW, "## Assessment\n- Annual stroke risk < 1% -> anticoagulation not "
                           "indicated", True),
    (NO_ANTICOAGULANT_NOW, "## Assessment\n- Annual stroke risk 1.5% -> anticoagulation "
                           "recommended", False),
    # the concepts of an aside do not cut the subject from its verb
    (ENDOSCOPY_ORDERED, "| Issue | Recommendation |\n|---|---|\n| Source | Bidirectional "
                        "endoscopy (EGD with biopsies + colonoscopy) - ordered |", True),
    (ENDOSCOPY_ORDERED, "| Issue | Recommendation |\n|---|---|\n| Source | Colonoscopy "
                        "(with random biopsies, same session) - ordered |", False),
    # 'Current ... Rx:' reports the regimen; 'adverse effects of X 150 mg' is no dose plan
    (INCREASE_LEVOTHYROXINE, "Current thyroid Rx: levothyroxine 75 mcg daily (unchanged).\n"
                             "Plan: increase levothyroxine to 88 mcg daily.", True),
    (INCREASE_LEVOTHYROXINE, "Plan: increase levothyroxine to 88 mcg daily. Keep levothyroxine "
                             "75 mcg daily unchanged.", False),
    (VENLAFAXINE_75, "Plan: reduce venlafaxine XR to 75 mg daily.\nAdverse effects of "
                     "venlafaxine XR 150 mg: blood pressure rise.", True),
    (VENLAFAXINE_75, "Plan: reduce venlafaxine XR to 75 mg daily.\nContinue venlafaxine XR "
                     "150 mg daily.", False),
    # 'keep off' a drug avoids it
    (NO_THIAZIDE, "Keep off HCTZ permanently given hyponatremia.", True),
    (NO_THIAZIDE, "Keep HCTZ at 12.5 mg daily.", False),
    # a frequency before the drug is its schedule; a dose form sits between drug and verb
    (DENOSUMAB_Q6M, "Start denosumab 60 mg SC every 6 months.", True),
    (DENOSUMAB_Q6M, "Start denosumab 60 mg SC every 6 months. Monthly denosumab 60 mg "
                    "injections are an acceptable option if she prefers.", False),
    # an offer in place of the follow-up fails; planning it for after does not
    (NO_LDCT_INSTEAD, "Annual LDCT screening once the nodule follow-up CT series is complete.",
     True),
    (NO_LDCT_INSTEAD, "No LDCT now: the diagnostic follow-up CT replaces it.", True),
    (NO_LDCT_INSTEAD, "Low-dose screening CT is an acceptable alternative to the diagnostic "
                      "follow-up CT.", False),
    # stopping offered as an alternative with no time is stopping now; an offered later
    # step that a must-not forbids counts
    (CONTINUE_TO_3_MONTHS, "Continue apixaban for 6 more weeks, then stop.", True),
    (CONTINUE_TO_3_MONTHS, "Continue apixaban for 6 more weeks, then stop. Alternatively, "
                           "apixaban could be stopped, or continued; either is reasonable.", False),
    (NO_THIAZIDE, "Alternatively, hydrochlorothiazide could be stopped, or continued at the "
                  "current dose unchanged.", False),
    # a refusal after an arrow; the referral's question asks, it does not plan
    (NO_SILDENAFIL, "ED: pt requests sildenafil -> NOT prescribed (nitrate).", True),
    (NO_SILDENAFIL, "**Question:** start sildenafil for ED + treatment for PE; order labs.\n"
                    "**Plan:** no PDE5 inhibitor with his nitrate.", True),
    (NO_SILDENAFIL, "ED: pt requests sildenafil -> prescribed 25 mg.", False),
    # 'I entered X'; a course's total after its doses is no second dose
    (FCM_750, "I entered ferric carboxymaltose 750 mg IV, two doses 7 days apart = 1500 mg.",
     True),
    (FCM_750, "I entered ferric carboxymaltose 1500 mg IV once.", False),
    # a result a calculation 'comes to' is the first named measure's
    (IRON_DEFICIT_1628, "Total iron deficit by Ganzoni using weight 81 kilos, 81 times 5.8 times "
                        "2.4 plus 500, comes to about 1628 mg.", True),
    (IRON_DEFICIT_1628, "Total iron deficit by Ganzoni using weight 81 kilos, 81 times 5.8 times "
                        "2.4 plus 500, comes to about 1328 mg.", False),
    # a row's 'no X' restates its 'Avoid'; 'none further' answers; an avoid label in a plan
    (AVOID_STEROIDS, "| Step | Detail |\n|---|---|\n| Avoid systemic steroids | No further "
                     "prednisone bursts, no long-term oral corticosteroids |", True),
    (AVOID_STEROIDS, "Plan:\n3. Systemic steroids - none further; not a maintenance option.", True),
    (AVOID_STEROIDS, "Plan:\nAVOID: SYSTEMIC CORTICOSTEROIDS (NO FURTHER BURSTS)", True),
    (AVOID_STEROIDS, "Plan:\n3. Systemic steroids - prednisone bursts for flares.", False),
    (AVOID_STEROIDS, "Assessment: her rescue pattern (repeated steroid bursts) adds harm.\n"
                     "Plan: avoid systemic steroids.", True),
    # 'have her stop X'
    (STOP_DIPHENHYDRAMINE, "Please have her stop the diphenhydramine.", True),
    (STOP_DIPHENHYDRAMINE, "Please have her keep the diphenhydramine.", False),
    # a comparison in an avoid list names the better drug; 'two ten milligram tablets' is a count
    (CETIRIZINE_40_A_DAY, "Cetirizine 20 mg twice daily (Rx sent).\nWhat to avoid:\n"
                          "- Diphenhydramine: no benefit over high-dose cetirizine.", True),
    (CETIRIZINE_40_A_DAY, "Increase cetirizine to twenty milligrams twice a day, that is two ten "
                          "milligram tablets twice daily.", True),
    (CETIRIZINE_40_A_DAY, "Increase cetirizine to two hundred ten milligrams daily.", False),
    # 'not started now' defers; an opening condition before a colon
    (OMALIZUMAB_LATER, "Next step if still uncontrolled: add omalizumab 300 mg every 4 weeks "
                       "(not started now).", True),
    (OMALIZUMAB_LATER, "Add omalizumab 300 mg every 4 weeks, started now.", False),
    # 'her reassessed', ranges in words, a follow-up label that names the step
    (REASSESS_2_4_WK, "I'd like her reassessed in 2-4 weeks with a fresh UAS7 diary.", True),
    (REASSESS_2_4_WK, "She should be reassessed in two to four weeks.", True),
    (REASSESS_2_4_WK, "Plan:\nFOLLOW-UP: 2 WEEKS, THEN 4 WEEKS, WITH UAS7", True),
    (REASSESS_2_4_WK, "She should be reassessed in three to four months.", False),
    # a sentence that heads a list of rejected options
    (NO_FIRST_GEN_ANTIHISTAMINE, "I considered and rejected the following alternatives:\n(1) "
                                 "Adding a first-generation antihistamine.\n\nPlan: cetirizine.",
     True),
    (NO_FIRST_GEN_ANTIHISTAMINE, "I considered the following alternatives:\n(1) Adding a "
                                 "first-generation antihistamine at night.", False),
    # the course of a disease; a time turned down, not a finding
    (CSU, "Steroids do not modify the course of CSU.", True),
    (CSU, "She should take it daily rather than when the hives show up; this is CSU.", True),
    (CSU, "This is not CSU.", False),
    # 'that rules out X', 'X out because', 'I excluded X' after an 'ID e-consult' label
    (AVOID_NITROFURANTOIN, "That rules out nitrofurantoin (CrCl below 30).", True),
    (AVOID_NITROFURANTOIN, "nitrofurantoin out because her creatinine clearance is below 30",
     True),
    (AVOID_NITROFURANTOIN, "ID e-consult 02/10/2026: cystitis, CrCl 19. I excluded "
                           "nitrofurantoin because the clearance was below 30 mL/min.", True),
    (AVOID_NITROFURANTOIN, "That allows nitrofurantoin (CrCl above 60).", False),
    # a harm the drug could cause is no offer of it
    (NO_NITROFURANTOIN, "Nitrofurantoin would not work well and could cause side effects, so "
                        "we are not using it.", True),
    (NO_NITROFURANTOIN, "Nitrofurantoin could be used instead if she prefers.", False),
    (NO_AMOXICILLIN, "Amoxicillin could cause a rash, so it is not used.", True),
    # 'do not repeat it' after a single dose keeps the drug
    (FOSFOMYCIN_ONCE, "plan, fosfomycin 3 grams by mouth one single dose, prescription "
                      "entered, do not repeat it", True),
    (FOSFOMYCIN_ONCE, "plan, fosfomycin 3 grams by mouth, repeat it on day 3", False),
    # a dictated 'slash' strength; an enumerator is no dose; a first dose has its own range
    (BUPRENORPHINE_START, "Plan: start buprenorphine-naloxone eight milligram slash two "
                          "milligram sublingual film today.", True),
    (BUPRENORPHINE_START, "Recommendations: (1) start buprenorphine-naloxone 4 mg SL now; (2) "
                          "from day 2, 16 mg/4 mg (two films) once daily.", True),
    (BUPRENORPHINE_START, "Recommendations: (1) start buprenorphine-naloxone SL today, 4 mg now; "
                          "(2) administer an initial 12 mg (1.5 films).", False),
    # a result after 'approx.', a threshold 'or less', a result after an arrow or in words
    (CRCL_41, "Cockcroft-Gault CrCl = (140 - 68) x 76 / (72 x 1.85) = approx. 41 mL/min.", True),
    (CRCL_41, "CrCl 41 mL/min; acamprosate is contraindicated only at CrCl 30 or less.", True),
    (CRCL_41, "Acamprosate is contraindicated only at CrCl 30 or less; CrCl is 28.", False),
    (FIB4_1_89, "FIB-4 from the 30 Jun labs: age 54, AST 50, ALT 52, platelets 198 -> 1.89, "
                "indeterminate.", True),
    (FIB4_1_89, "The FIB-4 is age fifty-four times AST fifty divided by platelets one hundred "
                "ninety-eight times the square root of ALT fifty-two, which comes to one point "
                "eight nine.", True),
    (FIB4_1_89, "FIB-4 from the 30 Jun labs: age 54, AST 50, ALT 52, platelets 198 -> 2.89.",
     False),
    # the number in an analyte's name is no value
    (VITAMIN_D_14, "25-OH vitamin D 14 ng/mL.\nVITAMIN D RECHECK: 25-OH D, calcium, creatinine "
                   "about 12 weeks - ordered", True),
    (VITAMIN_D_14, "VITAMIN D RECHECK: 25-OH D 25 ng/mL last month", False),
    # a phone check; a time that labels the line; 'I'd like'; a schedule's 'once' is no boundary
    (REASSESS_1_6_WK, "A: Phone check at 2 weeks, before the 37.5 mg step.", True),
    (REASSESS_1_6_WK, "Plan:\n- **4-6 weeks:** visit with repeat PHQ-9 and BP.", True),
    (REASSESS_1_6_WK, "I'd like a PHQ-9 and BP check in 3-4 weeks.", True),
    (REASSESS_1_6_WK, "Plan:\n- **3 months:** visit with repeat PHQ-9 and BP.", False),
    (START_SERTRALINE_25_50, "Cross-taper: I've entered venlafaxine XR 75 mg once daily for 2 "
                             "weeks and sertraline 25 mg once daily for a week.", True),
    (START_SERTRALINE_25_50, "Cross-taper: I've entered venlafaxine XR 75 mg once daily for 2 "
                             "weeks and sertraline 100 mg once daily.", False),
    # a plan table's future dates are no results; 'he'll need'; 'I do not think he needs'
    (CT_IN_6_12_MO, "| Step | Test | Timing |\n|---|---|---|\n| 1 | CT chest without contrast "
                    "(ordered) | 6-12 months after index, scheduled Feb 2027 |", True),
    (CT_IN_6_12_MO, "He'll need a CT chest in 6-12 months.", True),
    (CT_IN_6_12_MO, "I do not think he needs a CT chest in 6-12 months.", False),
    (SLEEP_TESTING, "i do not think he needs a sleep study right now, skip the sleep testing",
     False),
    # a hold before a test is temporary; 'off 2 wk before'; an aside's words stay in the aside
    (CONTINUE_PPI, "Plan: Pantoprazole 40 mg BID through the repeat EGD. Hold pantoprazole from "
                   "14 Apr (2 weeks before the test).", True),
    (CONTINUE_PPI, "Plan: Pantoprazole 40 mg BID through the repeat EGD. Pantoprazole is held "
                   "from about 14 April, famotidine can be used during that window.", True),
    (CONTINUE_PPI, "Plan: Stop pantoprazole now.", False),
    (PPI_HELD_BEFORE_TEST, "| Item | Timing |\n|---|---|\n| Urea breath test | 28 Apr 2026 "
                           "(>= 4 wk after BQT); pantoprazole off 2 wk before |", True),
    (PPI_HELD_BEFORE_TEST, "I've ordered a breath test for 4/28 (he needs to be off "
                           "pantoprazole for the 2 weeks before, famotidine is fine).", True),
    (EGD_IN_8_12_WK, "I've ordered a breath test for 4/28 (at least 4 weeks after he finishes) "
                     "and a repeat EGD for about 5/7, 8-12 weeks after the first scope.", True),
    (EGD_IN_8_12_WK, "I've ordered a breath test for 4/28 (at least 4 weeks after he finishes) "
                     "and a repeat EGD 6 months after the first scope.", False),
    # a condition ruled out in other words, or named as the class a threshold belongs to
    (WARM_NOT_COLD, "Warm AIHA; cold agglutinin disease effectively excluded.", True),
    (WARM_NOT_COLD, "Warm AIHA; cold agglutinin disease.", False),
    (WARM_NOT_COLD, "Warm AIHA; the C3 titer is well below the level seen in cold agglutinin "
                    "disease.", True),
    (WARM_NOT_COLD, "Warm AIHA. Titers above 64 suggest cold agglutinin disease; this one is 8.",
     True),
    (WARM_NOT_COLD, "Warm AIHA. The titer of 512 suggests cold agglutinin disease.", False),
    # what a drug does, told as the reason, is no plan of it
    (NO_THIAZIDE, "Plan: do not start hydrochlorothiazide, as thiazide diuretics reduce urinary "
                  "calcium excretion.", True),
    (NO_THIAZIDE, "Plan: start hydrochlorothiazide 12.5 mg daily, as it lowers urine calcium.",
     False),
    # a verb with an object of its own takes no drug from the sentence before
    (STOP_ALENDRONATE, "S: Alendronate 70 mg weekly started 5/18. Plans second pregnancy within "
                       "the year.\nP: Discontinue alendronate.", True),
    (STOP_ALENDRONATE, "S: Alendronate 70 mg weekly started 5/18. Plans second pregnancy within "
                       "the year.\nP: Continue alendronate.", False),
    # a sign said in words
    (Z_SCORE_MINUS_2_8, "T-score minus 2.8 at the femoral neck.", True),
    (Z_SCORE_MINUS_2_8, "T-score 2.8 at the femoral neck.", False),
    # 'not going to prescribe'
    (NO_TADALAFIL, "Tadalafil - I'm not going to prescribe it.", True),
    (NO_TADALAFIL, "Tadalafil - I'm going to prescribe it.", False),
    # what a negated procedure would use is negated with it; 'none (...)' answers
    (NO_ENOXAPARIN, "Plan: no bridging with heparin or enoxaparin is needed.", True),
    (NO_ENOXAPARIN, "Plan: bridging with heparin or enoxaparin is needed.", False),
    (NO_ENOXAPARIN, "Plan: no alcohol with metronidazole; no bridging; start enoxaparin 40 mg "
                    "daily.", False),
    # days after surgery in shorthand, 'x4 days'
    (RESUME_APIXABAN_2_3_DAYS, "Plan: resume apixaban on POD 2-3.", True),
    (RESUME_APIXABAN_2_3_DAYS, "Plan: resume apixaban on postoperative day 2.", True),
    (RESUME_APIXABAN_2_3_DAYS, "Plan: resume apixaban on POD 7.", False),
    (HOLD_APIXABAN_4_DAYS, "Plan: hold apixaban x4 days pre-op.", True),
    (HOLD_APIXABAN_4_DAYS, "Plan: hold apixaban x2 days pre-op.", False),
    # a verb with no object after an arrow decides for the drug before it
    (STOP_METFORMIN, "Plan:\n- Metformin ER -> **stop** (eGFR 24).", True),
    (STOP_METFORMIN, "Plan:\n- Metformin ER -> continue (eGFR 48).", False),
    (NO_THIAZIDE, "Plan:\n5. Hydrochlorothiazide -> **do not start** (raises calcium).", True),
    (NO_THIAZIDE, "Plan:\n5. Hydrochlorothiazide -> **start** 12.5 mg daily.", False),
    # '- no' answers its label; '- use' is no 'use' of the drug
    (NO_THIAZIDE, "Plan:\n**Hydrochlorothiazide - no.** It raises calcium.", True),
    (NO_THIAZIDE, "Plan:\n**Hydrochlorothiazide - yes.** 12.5 mg daily.", False),
    (NO_THIAZIDE, "Plan: No HCTZ - use amlodipine 5 mg daily.", True),
    (NO_THIAZIDE, "Plan: HCTZ - use 12.5 mg daily.", False),
    # 'excluding X:' tests for X
    (WARM_NOT_COLD, "Warm AIHA. Excluding cold agglutinin disease: the C3 titer is 8.", True),
    (WARM_NOT_COLD, "Warm AIHA. Cold agglutinin disease: the C3 titer is 512.", False),
    # offers in other words
    (NO_SILDENAFIL, "Plan: sildenafil 50 mg as needed is not safe with nitrates.", True),
    (NO_SILDENAFIL, "Plan: sildenafil 50 mg as needed is fine.", False),
    (NO_SILDENAFIL, "Plan: sildenafil 25 mg is a shorter-acting alternative.", False),
    (NO_SILDENAFIL, "Plan: sildenafil 25 mg is a poor alternative.", True),
    # 'once <event>' after the offer is its trigger
    (NO_BUPROPION_BUT_LATER, "Bupropion can be reconsidered once sertraline has been stopped.",
     True),
    (NO_BUPROPION_BUT_LATER, "Bupropion can be reconsidered once the rash has settled.", False),
    # another team's plan told in the history is not this note's
    (NO_FLUOROQUINOLONE, "S: Urology plans ciprofloxacin 500 mg once before cystoscopy.\nP: No "
                         "fluoroquinolone; use cephalexin instead.", True),
    (NO_FLUOROQUINOLONE, "S: 71M for cystoscopy.\nP: Ciprofloxacin 500 mg once before "
                         "cystoscopy.", False),
    # a verdict after the clause's last dash judges what it names
    (NO_FLUOROQUINOLONE, "Planned fluoroquinolone prophylaxis in a patient with AAA - should be "
                         "avoided.", True),
    (NO_FLUOROQUINOLONE, "Planned fluoroquinolone prophylaxis in a patient with AAA - fine.",
     False),
    # 'on atorva 20' is the dose being replaced
    (ATORVASTATIN_80, "LDL 94 on atorva 20 -> increase atorva 80 mg daily (Rx sent, d/c 20).",
     True),
    (ATORVASTATIN_80, "LDL 94 on atorva 80 -> decrease atorva 20 mg daily.", False),
    # a result labeled current is today's, not a dose replaced
    (CREATININE_1_21, "Current creatinine 1.21 mg/dL.", True),
    (CREATININE_1_21, "Current creatinine 1.74 mg/dL.", False),
    # an aside with a value stays in a sentence that ends in a colon
    (CREATININE_1_21, "Her most recent creatinine (1.21 mg/dL): no change.", True),
    (CREATININE_1_21, "Her most recent creatinine (1.74 mg/dL): no change.", False),
    # a restart with no drug named is the drug held, not the one turned down; 'post-op'
    (RESUME_APIXABAN_2_3_DAYS, "Plan: hold apixaban 2 days before surgery. No aspirin. Restart "
                               "48-72 h post-op.", True),
    (RESUME_APIXABAN_2_3_DAYS, "Plan: hold apixaban 2 days before surgery. No aspirin. Restart "
                               "7 days post-op.", False),
    (RESUME_APIXABAN_2_3_DAYS, "Plan: he can restart apixaban 48-72 hours after surgery.", True),
    # what is outdated or no longer current is history; 'is not the cause' denies
    (WARM_NOT_COLD, "Warm AIHA. The cold agglutinin disease in older notes is outdated.", True),
    (WARM_NOT_COLD, "Warm AIHA, so cold agglutinin disease is not the cause.", True),
    (WARM_NOT_COLD, "Warm AIHA. The cold agglutinin disease in older notes is confirmed.", False),
    # what would hold but for the rest
    (STOP_METFORMIN, "The eGFR alone would allow metformin, but with decompensated cirrhosis "
                     "the risk of lactic acidosis outweighs it: stop metformin.", True),
    (STOP_METFORMIN, "The eGFR allows metformin: continue metformin.", False),
    # a bold heading's number is no value
    (CREATININE_1_21, "**2. Kidney function.** Creatinine 1.21 mg/dL.", True),
    (CREATININE_1_21, "**2. Kidney function.** Creatinine 1.74 mg/dL.", False),
    # a verbless plan line whose only verb is in its condition plans the test
    (NO_EGD_PLANNED, "Plan:\n- EGD if the hemoglobin is below 8.", False),
    (NO_EGD_PLANNED, "Plan:\n- If the hemoglobin falls below 8, the next step would be an EGD.",
     False),
    (NO_EGD_PLANNED, "Plan:\n- No EGD; repeat CBC in 2 weeks.", True),
    # what a class of drugs does, told at the start of a sentence
    (NO_SULFONYLUREA_STRICT, "Sulfonylureas in advanced cirrhosis cause prolonged hypoglycemia.",
     True),
    (NO_SULFONYLUREA_STRICT, "Sulfonylureas in advanced cirrhosis: glipizide 2.5 mg daily.",
     False),
    # units said in words; a result 'which is about'; two values that both fit
    (HB_9_2, "Hemoglobin on April tenth is nine point two grams per deciliter.", True),
    (HB_9_2, "Hemoglobin on April tenth is ten point two grams per deciliter.", False),
    (IRON_DEFICIT_1628, "The Ganzoni total iron deficit is weight eighty-one times fifteen minus "
                        "nine point two times two point four plus five hundred for stores, which "
                        "is about one thousand six hundred twenty-eight milligrams.", True),
    (CRCL_18, "cockcroft gault comes out about nineteen mls a minute, seventeen if you use ideal "
              "body weight", True),
    (CRCL_18, "cockcroft gault comes out about nineteen mls a minute, forty if you use actual "
              "body weight", False),
    # ', and if ...' opens the next clause's condition
    (WARM_NOT_COLD, "This is warm autoimmune hemolytic anemia. In summary, this is cold "
                    "agglutinin disease, and if there is no response we will add rituximab.",
     False),
    # the drug names the disorder; hours in capitals; a row's condition with its own verb
    (SEVERE_OUD, "He has severe fentanyl use disorder (7 DSM-5 criteria).", True),
    (SEVERE_OUD, "A: Severe fentanyl OUD (7/11 criteria).", True),
    (SEVERE_OUD, "He has mild fentanyl use disorder (3 DSM-5 criteria).", False),
    (NA_RISE_8_PER_DAY, "3. CORRECTION LIMIT: NA RISE NO MORE THAN 8 MMOL/L IN ANY 24 H.", True),
    (NA_RISE_8_PER_DAY, "| Item | Plan |\n|---|---|\n| Correction limit | Na rise no more than "
                        "8 mmol/L per 24 h (ODS risk); if the rise is faster, liberalize water |",
     True),
    (NA_RISE_8_PER_DAY, "3. CORRECTION LIMIT: NA RISE NO MORE THAN 18 MMOL/L IN ANY 24 H.", False),
    # British spellings; an enumerated item's own verbless plan
    (SLEEP_TESTING, "Plan:\n- Home sleep apnoea test. Requested.", True),
    (ECHO_ORDERED, "Recommendations: (1) no anticoagulation; (3) transthoracic echocardiogram "
                   "for LV function, atrial size and valves, ordered.", True),
    (ECHO_ORDERED, "Recommendations: (1) no anticoagulation; (3) no echocardiogram is needed.",
     False),
    (NO_DIGOXIN, "Plan:\n- Rate control: digoxin 125 micrograms orally once daily.", False),
    (NO_DIGOXIN, "Plan:\n- Rate control: metoprolol succinate 25 mg daily; not digoxin.", True),
    # iron studies named one by one
    (FERRITIN_7, "Current ferritin is 7 ng/mL, serum iron 24, TIBC 452 and transferrin "
                 "saturation 5 percent.", True),
    (FERRITIN_7, "Current ferritin is 24 ng/mL, serum iron 7, TIBC 452.", False),
    # 'as far as I can tell' is no hedge; a list goes on past a member's aside
    (AVOID_AMOXICILLIN, "As far as I can tell, both amoxicillin (allergy) and clarithromycin "
                        "(macrolide resistance likely) should be avoided.", True),
    (AVOID_AMOXICILLIN, "Amoxicillin (no true allergy) can be used.", False),
    # a table cell 'never'; contractions written out
    (AVOID_NSAIDS, "| Drug | Dose | Duration |\n|---|---|---|\n| NSAIDs incl. celecoxib | - | "
                   "never |", True),
    (AVOID_NSAIDS, "| Drug | Dose | Duration |\n|---|---|---|\n| Ibuprofen | 400 mg | "
                   "as needed |", False),
    (NO_ALLERGY_TESTING, "Food or skin allergy testing isn't helpful, so I haven't ordered any.",
     True),
    (NO_ALLERGY_TESTING, "Food allergy testing is helpful here; I have ordered it.", False),
    (CSU, "I agree with your diagnosis of chronic spontaneous urticaria, and right now it's "
          "clearly not under control.", True),
    # a contingency must be on what rules the drug out, in its condition
    (NO_NALTREXONE_UNTIL_OFF_OPIOIDS, "If he has been off oxycodone for 7-10 days, naltrexone "
                                      "50 mg daily could be started.", True),
    (NO_NALTREXONE_UNTIL_OFF_OPIOIDS, "If he anticipates heavy drinking, he can take naltrexone "
                                      "50 mg an hour beforehand and skip his oxycodone that "
                                      "day.", False),
    # a first dose put off to another day is no start now; a dose written before 'first dose'
    (START_BUPRENORPHINE_NOW, "Buprenorphine-naloxone 4 mg SL now in clinic (20 h since fentanyl; "
                              "after 12 h is enough for the first dose), repeat 4 mg q1-2h to "
                              "16 mg, then 16 mg daily from tomorrow.", True),
    (START_BUPRENORPHINE_NOW, "Hold the first dose today and have him return tomorrow. "
                              "Buprenorphine-naloxone 4 mg SL, repeat 4 mg q1-2h to 16 mg.", False),
    (START_BUPRENORPHINE_NOW, "Buprenorphine-naloxone 8/2 mg SL, home start tomorrow: 4 mg, "
                              "repeat 4 mg q1-2h to 16 mg.", False),
    (START_BUPRENORPHINE_NOW, "Buprenorphine-naloxone: give 4 mg (half a film) SL as the first "
                              "dose in clinic today, then 4 mg q1-2h to 16 mg.", True),
    (START_BUPRENORPHINE_NOW, "Buprenorphine-naloxone: give 16 mg (2 films) SL as a single first "
                              "dose in clinic today, then 16 mg daily.", False),
    # a value labeled current is current, whatever else its sentence dates
    (SYSTOLIC_148, "Background: current BP 148/94 (up from 122/76 before venlafaxine).", True),
    (SYSTOLIC_148, "Background: current BP 134/86 (up from 122/76 before venlafaxine).", False),
    # a verb after a list joined by '+' reaches every member
    (ORDER_CT_AND_ANA, "Plan: CT chest + CT abd/pelvis with contrast (r/o lymphoma) and ANA - "
                       "ordered.", True),
    (ORDER_CT_AND_ANA, "Plan: CT chest + CT abd/pelvis with contrast (r/o lymphoma) and ANA - "
                       "not needed.", False),
    # a past date inside an aside dates the aside, not the order around it
    (ORDER_EGD, "I've ordered bidirectional endoscopy (EGD plus colonoscopy - his last scope "
                "was 2017) for the source.", True),
    (ORDER_EGD, "He had bidirectional endoscopy (EGD plus colonoscopy) in 2017.", False),
    # a strength that names the product is no wrong dose beside the dose
    (PREDNISONE_70, "Plan: prednisone 20 mg tablets - 70 mg PO daily, 21 days.", True),
    (PREDNISONE_70, "Plan: prednisone 20 mg tablets - 20 mg PO daily, 21 days.", False),
    # a factor of a formula is no value of what precedes it; '- = ...' goes on the line above
    (HB_9_2, "Hb 9.2 g/dL today.\n\n- Deficit = weight x (target Hb - actual Hb) x 2.4 + "
             "500", True),
    (HB_9_2, "Hb 10.3 g/dL today.\n\n- Deficit = weight x (target Hb - actual Hb) x 2.4 + "
             "500", False),
    (IRON_DEFICIT_1628, "- Total deficit = weight x (15 - Hb) x 2.4 + iron stores\n"
                        "- = 81 x (15 - 9.2) x 2.4 + 500 = about 1628 mg", True),
    (IRON_DEFICIT_1628, "- Total deficit = weight x (15 - Hb) x 2.4 + iron stores\n"
                        "- = 81 x (15 - 10.3) x 2.4 + 500 = about 1414 mg", False),
    # a value that opens the phrase its label closes; a size in two axes; HU
    (CALCIUM_INTAKE, "She should aim for about 1,200 mg of calcium a day in total.", True),
    (CALCIUM_INTAKE, "She should aim for about 2,000 mg of calcium a day in total.", False),
    (VITAMIN_D_2000, "Plan: continue vitamin D3 2000 IU daily.", True),
    (VITAMIN_D_2000, "Plan: continue vitamin D3 50000 IU daily.", False),
    # an abbreviation is a whole word ('tid' is not inside 'antidepressant')
    (SERTRALINE_DAILY, "Plan: cross-taper venlafaxine XR -> sertraline (no antidepressant-free "
                       "gap); sertraline 25 mg daily.", True),
    (SERTRALINE_DAILY, "Plan: sertraline 25 mg TID.", False),
    # 'a low threshold to switch to X' is a contingency, not a second start
    (ONLY_RISEDRONATE, "Plan: monthly oral risedronate 150 mg chosen, with a low threshold to "
                       "switch to denosumab.", True),
    (ONLY_RISEDRONATE, "Plan: monthly oral risedronate 150 mg, and start denosumab now as "
                       "well.", False),
    # a start that waits for its trigger ('once ...,', 'only after ...') is a later step
    (STOP_CALCIUM, "Plan: stop the calcium carbonate now; resume it only after the corrected "
                   "calcium is back to normal.", True),
    (STOP_CALCIUM, "Plan: stop the calcium carbonate now; resume it now at half the dose.",
     False),
    (DENOSUMAB_AFTER_REPLETION, "Plan: once vitamin D is replete and calcium normal, start "
                                "denosumab 60 mg SC every 6 months.", True),
    (DENOSUMAB_AFTER_REPLETION, "Plan: once vitamin D is replete, do not start denosumab.",
     False),
    # offers after a dose and schedule, or 'could be considered later', and 'remains safe'
    (NO_ZOLEDRONIC_ACID_AT_THIS_CRCL, "Plan: denosumab. If CrCl rises above 35, zoledronic acid "
                                      "could be considered.", True),
    (NO_ZOLEDRONIC_ACID_AT_THIS_CRCL, "Plan: denosumab. Zoledronic acid 5 mg IV yearly would "
                                      "also be reasonable.", False),
    (NO_ZOLEDRONIC_ACID_AT_THIS_CRCL, "Plan: denosumab. Zoledronic acid 4 mg IV every 6 months "
                                      "could be considered later.", False),
    (NO_ZOLEDRONIC_ACID_AT_THIS_CRCL, "Plan: denosumab. Zoledronic acid remains safe for her if "
                                      "denosumab cannot be obtained.", False),
    (NO_FLUOROQUINOLONE, "Plan: ciprofloxacin prophylaxis is not safe with his aneurysm.", True),
    (NO_FLUOROQUINOLONE, "Plan: ciprofloxacin prophylaxis is fine.", False),
    # 'replace X with Y', 'substitute Y for X': Y comes in, X goes
    (START_CEPHALEXIN, "Plan: replace ciprofloxacin with cephalexin.", True),
    (START_CEPHALEXIN, "Plan: replace cephalexin with ciprofloxacin.", False),
    (NO_FLUOROQUINOLONE, "Plan: substitute cephalexin for ciprofloxacin.", True),
    (NO_FLUOROQUINOLONE, "Plan: substitute ciprofloxacin for cephalexin.", False),
    # three times weekly is not weekly
    (VITAMIN_D_3_PER_WEEK_WRONG, "Plan: vitamin D3 50,000 IU once weekly for 8 weeks.", True),
    (VITAMIN_D_3_PER_WEEK_WRONG, "Plan: vitamin D3 50,000 IU three times weekly for 8 weeks.",
     False),
    # times in hours and relative days
    (BMP_WITHIN_A_WEEK, "Plan: recheck BMP in 48 hours.", True),
    (BMP_WITHIN_A_WEEK, "Plan: repeat CMP next week.", True),
    (BMP_WITHIN_A_WEEK, "Plan: recheck BMP tomorrow.", True),
    (BMP_WITHIN_A_WEEK, "Plan: recheck BMP next month.", False),
    # the hedge of 'for suspected OSA' is on the finding, not on the order
    (ORDER_SLEEP_STUDY, "Plan: order a sleep study for suspected OSA.", True),
    (ORDER_SLEEP_STUDY, "Plan: a sleep study could be considered for suspected OSA.", False),
    # 'cont' before a drug continues it
    (VITAMIN_D_2000, "P: vit D: cont D3 2000 IU daily.", True),
    (VITAMIN_D_2000, "P: vit D: cont D3 20000 IU daily.", False),
    # a threshold after the verb ('advised at 5.5 cm') is a trigger, not a plan now
    (NO_REPAIR_NOW, "Repair is generally advised at 5.5 cm or with symptoms.", True),
    (NO_REPAIR_NOW, "Repair is advised now.", False),
    # a score stated, then its parts in parentheses
    (CHA2DS2_VASC_4, "CHA\u2082DS\u2082-VASc = **4** (age >= 75 -> 2, female -> 1, HTN -> 1).",
     True),
    (CHA2DS2_VASC_4, "CHA2DS2-VASc = 3 (age >= 75 -> 2, female -> 1).", False),
    # a hold told as past ('held since'), 'not a reason to keep it off'
    (RESTART_APIXABAN, "81F PAF, fall 3/17, apixaban held since. Plan: I restarted apixaban "
                       "today at 5 mg BID.", True),
    (RESTART_APIXABAN, "I restarted Eliquis today at 5 mg BID. The fall is not a reason to keep "
                       "it off.", True),
    (RESTART_APIXABAN, "Plan: keep apixaban off after the fall.", False),
    # values: 'weighs 64 kg'; 'creatinine last week 1.21 mg/dL'
    (WEIGHT_64, "She is 81 but weighs 64 kg.", True),
    (WEIGHT_64, "She is 81 but weighs 70 kg.", False),
    (CREATININE_1_21, "Her creatinine last week 1.21 mg/dL.", True),
    (CREATININE_1_21, "Her creatinine last week 1.74 mg/dL.", False),
    # 'previously' dates what failed, not the drug prescribed now
    (START_VARENICLINE, "Since nicotine patches failed previously, I have prescribed "
                        "varenicline.", True),
    (START_VARENICLINE, "Nicotine patches and varenicline were tried previously.", False),
    # a bold question about the plan: its answer is the plan
    (ORDER_ULTRASOUND, "**How should he be followed?**\nA repeat ultrasound in 12 months.", True),
    (ORDER_ULTRASOUND, "**How should he be followed?**\nNo repeat ultrasound is needed.", False),
    # two axes give the size unless the clause gives another measure
    (NODULE_7_MM, "Solid RUL nodule, 8 x 6 mm, average diameter 7 mm.", True),
    (NODULE_7_MM, "Solid RUL nodule, 8 x 6 mm.", False),
    # a table row's time shares the row's condition ('CT if stable | 18-24 months')
    (SECOND_CT_18_24_MO, "| Step | Detail | When |\n|---|---|---|\n| Second CT | CT chest if "
                         "nodule stable | 18-24 months |", True),
    (SECOND_CT_18_24_MO, "| Step | Detail | When |\n|---|---|---|\n| Second CT | CT chest if "
                         "nodule stable | 6 months |", False),
    # a label naming an event before what it triggers
    (NO_PET_NOW, "Plan:\n1. Growth or a new solid component on follow-up: PET/CT or biopsy.",
     True),
    (NO_PET_NOW, "Plan:\n1. Solid nodule, 9 mm: PET/CT now.", False),
    # the writer's own act in a clause that cites old years
    (CT_IN_6_12_MO, "Given the 2017 Fleischner guidance and his 2017 quit date, I ordered a "
                    "chest CT in 6-12 months.", True),
    (CT_IN_6_12_MO, "Given his 2017 quit date, a chest CT was ordered in 6-12 months.", False),
    # 'the second one', 'another one': a repeat of the test just named
    (SECOND_CT_18_24_MO, "I've ordered a chest CT for 12 months out, and he'll need the second "
                         "one at 18-24 months.", True),
    (SECOND_CT_18_24_MO, "I've ordered a chest CT for 12 months out, and he'll need another one "
                         "at 3 months.", False),
    # 'to be followed by'
    (SECOND_CT_18_24_MO, "Chest CT in 9 months, to be followed by a chest CT at 18-24 months.",
     True),
    (SECOND_CT_18_24_MO, "Chest CT in 9 months, to be followed by a chest CT at 12 months.",
     False),
    # a value that opens a new phrase of a list closes its label
    (NODULE_7_MM, "#1 Solid pulmonary nodule, RUL, 7 mm average diameter", True),
    (NODULE_7_MM, "#1 Solid pulmonary nodule, RUL, 9 mm average diameter", False),
    # 'no contraindication to X' negates the contraindication, not X (nor does an earlier 'no')
    (START_SGLT2I, "No HF, no ASCVD, no contraindication to SGLT2i.\nPlan: start an SGLT2i "
                   "(dapagliflozin 10 mg daily).", True),
    (START_SGLT2I, "No HF, no ASCVD.\nPlan: no SGLT2i.", False),
    # a verb cell under a 'Recommendation' header is the row's plan
    (STATIN_NOT_STOPPED, "| Item | Recommendation |\n|---|---|\n| Atorvastatin 20 mg | Continue "
                         "|", True),
    (STATIN_NOT_STOPPED, "| Item | Recommendation |\n|---|---|\n| Atorvastatin 20 mg | Stop |",
     False),
    # units said in words
    (TSH_8_9, "TSH 8.9 milli-international units per liter.", True),
    (TSH_8_9, "TSH 3.1 milli-international units per liter.", False),
    (VITAMIN_D_2000, "Plan: continue vitamin D3 2000 international units daily.", True),
    (VITAMIN_D_2000, "Plan: continue vitamin D3 20000 international units daily.", False),
    # a lone capital after a lowercase word is a class, and its period ends the sentence
    (CHILD_PUGH_C, "Total Child-Pugh score is **11, class C**. This is a clear progression from "
                   "the class B (8 points) recorded in November 2025.", True),
    (CHILD_PUGH_C, "Total Child-Pugh score is **11, class C**. This is class B today.", False),
    # where a trend came from, and a later clause that calls the earlier one outdated
    (CHILD_PUGH_C, "Child-Pugh class C (11 points), up from class B (8 points) 7 months ago.",
     True),
    (CHILD_PUGH_C, "Child-Pugh class C (11 points), and class B (8 points) today.", False),
    (CHILD_PUGH_C, "The last hepatology note calculated Child-Pugh B (8 points); that is "
                   "outdated. Today Child-Pugh C, 11 points.", True),
    (CHILD_PUGH_C, "The last hepatology note calculated Child-Pugh B (8 points); that is still "
                   "right. Today Child-Pugh C, 11 points.", False),
    # the PCP's question retold asserts nothing; its answer does
    (STOP_METFORMIN_NEVER_OFFERED, "You asked whether he should remain on metformin. Stop "
                                   "metformin now (decompensated cirrhosis).", True),
    (STOP_METFORMIN_NEVER_OFFERED, "You asked whether he should remain on metformin: yes, he "
                                   "should remain on metformin.", False),
    # 'regarding X' opens a new topic: the verb before it keeps its own object
    (STOP_METFORMIN_NEVER_OFFERED, "He should continue fingersticks, regarding metformin I "
                                   "recommend stopping it now.", True),
    (STOP_METFORMIN_NEVER_OFFERED, "He should continue fingersticks, regarding metformin I "
                                   "recommend continuing it.", False),
    # another party's instruction retold is not the writer's plan
    (STOP_METFORMIN_NEVER_OFFERED, "The ED told him to keep taking metformin. I recommend "
                                   "stopping metformin now.", True),
    (STOP_METFORMIN_NEVER_OFFERED, "I told him to keep taking metformin. I recommend stopping "
                                   "metformin now.", False),
    (STOP_METFORMIN_NEVER_OFFERED, "Metformin was continued by the ED. Stop metformin.", True),
    (STOP_METFORMIN_NEVER_OFFERED, "Metformin was continued by the ED and should be continued.",
     False),
    # a concession that a value would allow the drug
    (STOP_METFORMIN_NEVER_OFFERED, "Although the eGFR of 64 would permit it, stop metformin "
                                   "given decompensated cirrhosis.", True),
    (STOP_METFORMIN_NEVER_OFFERED, "The eGFR of 64 permits it, so continue metformin.", False),
    # a sick-day hold is a rule for later, and 'may continue' answers the question
    (CONTINUE_METFORMIN, "Continue metformin ER 1500 mg; hold it for acute illness, contrast or "
                         "surgery.", True),
    (CONTINUE_METFORMIN, "Continue metformin ER 1500 mg; hold it now.", False),
    (CONTINUE_METFORMIN, "Metformin may continue.", True),
    (CONTINUE_METFORMIN, "Metformin may be stopped.", False),
    # 'use X' as the instruction, not 'use caution with X'
    (START_DAPAGLIFLOZIN_10, "Use dapagliflozin 10 mg daily instead of glipizide.", True),
    (START_DAPAGLIFLOZIN_10, "Use caution with dapagliflozin 10 mg daily.", False),
    # 'do not let X lapse' keeps it going; 'gone with X' chooses it
    (CONTINUE_DENOSUMAB, "Please don't let the Prolia lapse or stop without talking to us.",
     True),
    (CONTINUE_DENOSUMAB, "Please stop the Prolia without talking to us.", False),
    (CONTINUE_DENOSUMAB, "I've gone with Prolia (denosumab) 60 mg subcut every 6 months.", True),
    (CONTINUE_DENOSUMAB, "I would not go with Prolia (denosumab) 60 mg subcut every 6 months.",
     False),
    # 'I put in' orders
    (ORDER_ULTRASOUND, "I put in the prescription and an abdominal aortic ultrasound.", True),
    (ORDER_ULTRASOUND, "I did not put in an abdominal aortic ultrasound.", False),
    # a verb with a pronoun object ('avoid both of those') reaches nothing after it
    (CONTINUE_DENOSUMAB, "Zoledronic acid and alendronate are out, so we avoid both of those, "
                         "and denosumab is what I'm starting.", True),
    (CONTINUE_DENOSUMAB, "Zoledronic acid and alendronate are out, so we avoid both of those "
                         "and denosumab.", False),
    # 'restricting fluids' limits them
    (LESS_ALCOHOL, "I recommend stopping it, restricting alcohol and correcting her sodium "
                   "slowly.", True),
    (LESS_ALCOHOL, "I recommend stopping it, liberalizing alcohol and correcting her sodium "
                   "slowly.", False),
    # a value before its label counts when the values after it are another amount
    (CALCIUM_1000_1200, "She should get 1,000 to 1,200 milligrams of calcium a day total, so "
                        "about 500 to 600 from a supplement.", True),
    (CALCIUM_1000_1200, "She should get 1,500 milligrams of calcium a day total, so about 500 "
                        "to 600 from a supplement.", False),
    # a step for later: a trailing trigger, 'no X until', 'before starting X', 'X is indicated'
    (DENOSUMAB_AFTER_REPLETION, "Start denosumab 60 mg SC every 6 months once vitamin D is "
                                "replete.", True),
    (DENOSUMAB_AFTER_REPLETION, "Start denosumab 60 mg SC every 6 months today.", False),
    (DENOSUMAB_AFTER_REPLETION, "No denosumab until vitamin D is replete; then denosumab 60 mg "
                                "SC every 6 months.", True),
    (DENOSUMAB_AFTER_REPLETION, "No denosumab; vitamin D 50,000 IU weekly.", False),
    (DENOSUMAB_AFTER_REPLETION, "Denosumab is indicated. Dental evaluation before starting "
                                "denosumab. After repletion, start denosumab.", True),
    (DENOSUMAB_AFTER_REPLETION, "Denosumab is indicated now. Dental evaluation before starting "
                                "denosumab.", False),
    # a family's question retold asserts nothing up to its answer
    (NO_ANTICOAGULANT, "Family asks whether she needs a blood thinner. No anticoagulation.",
     True),
    (NO_ANTICOAGULANT, "Family asks whether she needs a blood thinner: start apixaban 5 mg "
                       "twice daily.", False),
    # a hedge later in the sentence does not reach back over a dash and a new clause
    (REFER_CARDIAC_SURGERY, "I've referred her to cardiac surgery to have it excised - a "
                            "fibroelastoma that has embolized should come out, and the valve "
                            "can usually be preserved.", True),
    (REFER_CARDIAC_SURGERY, "Cardiac surgery can be considered to have it excised.", False),
    # a rival diagnosis as the subject of a rule or a hypothesis, or denied by 'none of that
    # fits' or by criteria not met, does not contradict
    (FIBROELASTOMA, "Papillary fibroelastoma. A vegetation large enough to embolize would not "
                    "sit on an intact valve.", True),
    (FIBROELASTOMA, "Papillary fibroelastoma. A vegetation sits on the valve.", False),
    (FIBROELASTOMA, "Papillary fibroelastoma. Vegetations usually sit on the upstream side.",
     True),
    (FIBROELASTOMA, "Papillary fibroelastoma. Vegetations sit on the upstream side of her "
                    "valve.", False),
    (FIBROELASTOMA, "Papillary fibroelastoma. None of that fits a vegetation.", True),
    (FIBROELASTOMA, "Papillary fibroelastoma. All of that fits a vegetation.", False),
    (FIBROELASTOMA, "Papillary fibroelastoma; she does not meet modified Duke criteria for "
                    "endocarditis.", True),
    (FIBROELASTOMA, "Papillary fibroelastoma; she meets modified Duke criteria for "
                    "endocarditis.", False),
    # what happened years ago is history
    (FIBROELASTOMA, "Papillary fibroelastoma. The E. coli bacteremia was 2 years ago with "
                    "pyelonephritis.", True),
    (FIBROELASTOMA, "Papillary fibroelastoma. Her blood cultures grew E. coli in 2 of 2 sets.",
     False),
    # a measured finding named before 'it is N mm'; a value before a described lesion
    (MASS_11_MM, "A papillary fibroelastoma on the aortic valve. On TEE it is 11 mm, "
                 "pedunculated.", True),
    (MASS_11_MM, "A papillary fibroelastoma on the aortic valve. On TEE it is 16 mm, "
                 "pedunculated.", False),
    (MASS_11_MM, "The TEE shows an 11 mm mobile, pedunculated, frond-like lesion.", True),
    (MASS_11_MM, "The TEE shows a 16 mm mobile, pedunculated, frond-like lesion.", False),
    # 'I have placed a ... referral', 'she needs X'
    (REFER_CARDIAC_SURGERY, "I have placed a cardiac surgery referral.", True),
    (REFER_CARDIAC_SURGERY, "I have not placed a cardiac surgery referral.", False),
    (ADMIT_NOW, "She needs hospital admission today for IV ceftriaxone.", True),
    (ADMIT_NOW, "She does not need hospital admission.", False),
    # a gloss in parentheses shares the negation; what a cause does not produce is not denied
    (NONGLOMERULAR, "Isomorphic red cells: this is not kidney (glomerular) bleeding.", True),
    (NONGLOMERULAR, "Isomorphic red cells, but this is kidney (glomerular) bleeding.", False),
    (NONGLOMERULAR, "Isomorphic red cells. Hypertension does not cause isolated isomorphic "
                    "hematuria.", True),
    (NONGLOMERULAR, "Isomorphic red cells. Hypertension causes glomerular bleeding here.",
     False),
    # what a generic subject does is generic too
    (NONGLOMERULAR, "Isomorphic red cells. Glomerular bleeding typically produces acanthocytes "
                    "and red cell casts.", True),
    (NONGLOMERULAR, "Isomorphic red cells. His urine shows acanthocytes and red cell casts.",
     False),
    # a category named with the rule it comes from
    (AUA_HIGH_RISK, "With 38 pack-years he's high risk under the AUA/SUFU 2020 guideline.", True),
    (AUA_HIGH_RISK, "With 28 pack-years he's intermediate risk under the AUA/SUFU 2020 "
                    "guideline.", False),
    # a bare count right before the label that is its unit
    (URINE_RBC_14, "The urinalysis showed 14 red cells per high-power field (11 per high-power "
                   "field in February).", True),
    (URINE_RBC_14, "The urinalysis showed 9 red cells per high-power field (11 per high-power "
                   "field in February).", False),
    # 'X is off the table' turns X down
    (PHPT_NOT_FHH, "Primary hyperparathyroidism. Using the 24-hour urine (Ca 345 mg) and serum "
                   "creatinine 0.82, the calcium/creatinine clearance ratio is 0.0234, so FHH is "
                   "off the table.", True),
    (PHPT_NOT_FHH, "Primary hyperparathyroidism; FHH is confirmed.", False),
    # the finding's words do not take the test's label
    (VITAMIN_D_13, "Vitamin D is low at 13 ng/mL - deficient.", True),
    (VITAMIN_D_13, "Vitamin D is low at 19 ng/mL - deficient.", False),
    # the answer to a bold question takes the question's drug
    (STOP_ALENDRONATE, "**4. Should she stay on alendronate?**\nNo - please stop it.", True),
    (STOP_ALENDRONATE, "**4. Should she stay on alendronate?**\nYes - please keep it.", False),
    (NO_HCTZ, "**6. Is hydrochlorothiazide all right?**\nNo. Thiazides raise calcium.", True),
    (NO_HCTZ, "**6. Is hydrochlorothiazide all right?**\nYes. It suits her blood pressure.",
     False),
    # 'the worst' of the values just named
    (RADIUS_Z_MINUS_2_8, "Since she is premenopausal we go by Z-scores. The worst is -2.8 at "
                         "the one-third radius.", True),
    (RADIUS_Z_MINUS_2_8, "Since she is premenopausal we go by Z-scores. The worst is -2.3 at "
                         "the spine.", False),
    # 'a calcium carbonate load' is a noun, no loading dose; a 'Cause:' label lists causes
    (NEVER_HCTZ, "The combination of a large calcium carbonate load, the thiazide and volume "
                 "depletion is the classic milk-alkali syndrome. Stop HCTZ.", True),
    (NEVER_HCTZ, "Load HCTZ 25 mg and stop the calcium carbonate.", False),
    (NEVER_HCTZ, "Plan:\n- Cause: milk-alkali syndrome - Tums 8-10 tablets a day with HCTZ 25 mg "
                 "daily.\n- Stop HCTZ.", True),
    (NEVER_HCTZ, "Plan:\n- Milk-alkali syndrome.\n- HCTZ 25 mg daily.", False),
    # drugs before an arrow that ends in a diagnosis are its causes, not a plan
    (NEVER_HCTZ, "Plan:\n- Heavy Tums use + HCTZ 25 mg + metabolic alkalosis -> milk-alkali "
                 "syndrome.\n- Stop HCTZ.", True),
    (NEVER_HCTZ, "Plan:\n- Heavy Tums use + metabolic alkalosis -> milk-alkali syndrome.\n- HCTZ "
                 "25 mg daily.", False),
    # 'the repeat' is the test just ordered again
    (NO_SSTR_PET_BUT_ON_5HIAA, "Repeat the 24-h urine 5-HIAA on a restricted diet. If the repeat "
                               "is above 25 mg/24 h, order a Ga-68 DOTATATE PET/CT.", True),
    (NO_SSTR_PET_BUT_ON_5HIAA, "Repeat the 24-h urine 5-HIAA on a restricted diet. Also order "
                               "a Ga-68 DOTATATE PET/CT now.", False),
    # an amount per 24 hours in molar units; several amounts after one label are a list
    (FIVE_HIAA_72, "Urine 5-HIAA 376 \u00b5mol/24 h.", True),
    (FIVE_HIAA_72, "Urine 5-HIAA 72 mg/24 h, 18 mg/24 h, 5.2 mg/24 h.", False),
    # a combination tablet's second strength is compared; '-> 1 tablet' is how it is taken
    (FTC_TAF_200_25, "Start emtricitabine/tenofovir alafenamide 200 mg/25 mg -> 1 tablet PO "
                     "once daily.", True),
    (FTC_TAF_200_25, "Start emtricitabine/tenofovir alafenamide 200 mg/10 mg -> 1 tablet PO "
                     "once daily.", False),
    # the drug named again by its parts goes on with the same order
    (FTC_TAF_200_25, "I sent Descovy that is emtricitabine 200 milligrams tenofovir alafenamide "
                     "25 milligrams one tablet by mouth once a day.", True),
    (FTC_TAF_200_25, "I sent Descovy that is emtricitabine 200 milligrams tenofovir alafenamide "
                     "10 milligrams one tablet by mouth once a day.", False),
    # what a label allows at a threshold is a rule, not a plan
    (NO_FTC_TDF, "CrCl 53 mL/min is below the threshold of 60 mL/min at which tenofovir "
                 "disoproxil may be used. Start F/TAF.", True),
    (NO_FTC_TDF, "CrCl 53 mL/min is above the threshold of 30 mL/min at which tenofovir "
                 "disoproxil may be used, so restart Truvada.", False),
    # 'down to a creatinine clearance of 30' is the label's limit
    (CRCL_53, "CrCl 53 mL/min. F/TAF is approved down to a creatinine clearance of 30 mL/min.",
     True),
    (CRCL_53, "CrCl 30 mL/min. F/TAF is approved down to a creatinine clearance of 53 mL/min.",
     False),
    # KDIGO's eGFRcys / eGFRcr-cys are GFR estimates, not the creatinine
    (CREATININE_1_87, "Creatinine 1.87 mg/dL. eGFRcys 47 and eGFRcr-cys 46 - concordant with "
                      "creatinine.", True),
    (CREATININE_1_87, "eGFRcys 47 and eGFRcr-cys 46 - concordant with creatinine 1.28.", False),
    # dictated punctuation ends the sentence, and the negation with it
    (TENOFOVIR_TUBULOPATHY, "the proteinuria is tubular not glomerular period my impression is "
                            "proximal tubulopathy from tenofovir comma naproxen piling on", True),
    (TENOFOVIR_TUBULOPATHY, "the proteinuria is glomerular period my impression is not a "
                            "proximal tubulopathy comma it is IgA nephropathy", False),
    # a stop or a dose change for a symptom is a safety rule, not today's plan
    (METFORMIN_CONTINUED, "Continue metformin 500 mg twice daily. Fever or vomiting -> stop "
                          "metformin and call us.", True),
    (METFORMIN_CONTINUED, "Continue metformin. She knows to stop metformin and call for fever "
                          "or vomiting.", True),
    (METFORMIN_CONTINUED, "Continue metformin 500 mg twice daily. Stop metformin and call us "
                          "with the results.", False),
    # 'does not need more' keeps the dose; 'does not need' stops it
    (LISINOPRIL_KEPT, "To answer your question, she does not need more lisinopril.", True),
    (LISINOPRIL_KEPT, "To answer your question, she does not need lisinopril.", False),
    # a drug after 'X is preferred, and' is not what is preferred; what a drug can do is a
    # warning, not an offer
    (NO_METFORMIN, "Changing the diet is preferred, and metformin can cause B12 deficiency.",
     True),
    (NO_METFORMIN, "Metformin can worsen the lactic acidosis risk at this eGFR.", True),
    (NO_METFORMIN, "Changing the diet is preferred, and metformin can be added.", False),
    # the hedge of 'to exclude an adenoma' is the adenoma's, not the MRI's
    (NO_PITUITARY_MRI, "Plan:\n- No pituitary MRI now; it is not needed to exclude an adenoma.",
     True),
    (NO_PITUITARY_MRI, "Plan:\n- Pituitary MRI with gadolinium now, to exclude an adenoma.",
     False),
    # a trailing 'if' after ', or add ...' conditions the second option only; 'over to'
    (START_SERTRALINE, "Switch fluoxetine to sertraline, or add sertraline 25 mg daily if "
                       "switching is not advisable.", True),
    (START_SERTRALINE, "Switch fluoxetine to sertraline if switching is advisable.", False),
    (START_SERTRALINE, "I recommend that he be switched from fluoxetine over to sertraline.",
     True),
    (START_SERTRALINE, "I recommend that he be switched from sertraline over to fluoxetine.",
     False),
    # ', and the ...' opens a clause the negation before it does not reach
    (TENOFOVIR_TUBULOPATHY, "No fever and no rash, and the picture fits a tenofovir "
                            "tubulopathy.", True),
    (TENOFOVIR_TUBULOPATHY, "No fever and no rash and no tenofovir tubulopathy.", False),
    # a bracketed cause before '-induced'
    (TENOFOVIR_TUBULOPATHY, "Tenofovir (TDF)-induced tubulopathy.", True),
    (TENOFOVIR_TUBULOPATHY, "Tenofovir (TDF) was stopped; no tubulopathy.", False),
    # a medical record number is no lab value
    (PROLACTIN_92, "Re: elevated prolactin, Jane Doe (MRN 99682300). Latest prolactin is "
                   "92 ng/mL.", True),
    (PROLACTIN_92, "Re: elevated prolactin, Jane Doe (MRN 99682300). Latest prolactin is "
                   "83 ng/mL.", False),
    # 'x2', 'twice' say how often, not what the result qualifies
    (NEGATIVE_PREGNANCY_TEST, "UPT neg x2.", True),
    (NEGATIVE_PREGNANCY_TEST, "The pregnancy test was negative both times.", True),
    (NEGATIVE_PREGNANCY_TEST, "UPT positive x2.", False),
    # a dose change dated in the past is history
    (METFORMIN_UP, "Metformin cut 1000 -> 500 mg in January 2025 for GI upset. Now increase "
                   "metformin to 1000 mg.", True),
    (METFORMIN_UP, "Metformin cut 1000 -> 500 mg in January 2025 for GI upset.", False),
    # an 'Options:' lead offers, it does not commit
    (START_PROPRANOLOL, "Treatment options include propranolol or atenolol; start propranolol "
                        "20 mg three times daily.", True),
    (START_PROPRANOLOL, "Options: propranolol 20 mg three times daily, atenolol or diltiazem.",
     False),
    # a baseline test ordered now is no history
    (ORDER_CBC, "Baseline CBC with differential now, ordered.", True),
    (ORDER_CBC, "Baseline CBC with differential was normal in 2024.", False),
    # a finding in a rule or a population is not the patient's
    (HYPOTHYROIDISM, "Hypothyroidism explains the fatigue.", True),
    (HYPOTHYROIDISM, "Hypothyroidism would explain the fatigue.", False),
    (HYPOTHYROIDISM, "TPO antibodies are common in hypothyroidism and in Graves disease alike.",
     False),
    # a diagnosis after an arrow concludes; 'which began when' dates it
    (HYPOTHYROIDISM, "TSH 12 + free T4 low -> hypothyroidism after the lithium start.", True),
    (HYPOTHYROIDISM, "This is hypothyroidism, which began when lithium was started.", True),
    (HYPOTHYROIDISM, "This would be hypothyroidism when the TSH rises.", False),
    # a reason that names pregnancy states a rule
    (CONTINUE_ATORVASTATIN, "Continue atorvastatin 20 mg; she keeps the IUD since atorvastatin "
                            "is not safe in pregnancy.", True),
    (CONTINUE_ATORVASTATIN, "Continue atorvastatin 20 mg. Atorvastatin is not safe for her.",
     False),
    # a start at a later week of pregnancy waits for it
    (NO_SERTRALINE_YET, "Pregnant, 8 weeks: switch to sertraline 50 mg daily at 16 weeks of "
                        "pregnancy.", True),
    (NO_SERTRALINE_YET, "Pregnant, 8 weeks: switch to sertraline 50 mg daily now.", False),
    # doses split over the day add up; 'divided doses' say how often
    (PREDNISONE_30_A_DAY, "Start prednisone 20 mg on waking and 10 mg at 2 PM.", True),
    (PREDNISONE_30_A_DAY, "Start prednisone 20 mg on waking and 20 mg at 2 PM.", False),
    (PREDNISONE_10_TID, "Start prednisone 30 mg a day in three divided doses.", True),
    (PREDNISONE_10_TID, "Start prednisone 30 mg a day in two divided doses.", False),
    # 'triple', 'back up to', 'also increased', 'New X dose: ... (was ...)'
    (LEVOTHYROXINE_UP, "Triple the levothyroxine dose.", True),
    (LEVOTHYROXINE_UP, "I have also increased her levothyroxine to 100 mcg.", True),
    (LEVOTHYROXINE_UP, "Her TSH has also increased; keep the levothyroxine dose.", False),
    (LEVOTHYROXINE_UP_TO_100, "Put the levothyroxine back up to 100 mcg daily.", True),
    (LEVOTHYROXINE_UP_TO_100, "Put the levothyroxine back down to 50 mcg daily.", False),
    (LEVOTHYROXINE_DOWN, "New levothyroxine dose: 75 mcg daily (was 100 mcg).", True),
    (LEVOTHYROXINE_DOWN, "New levothyroxine dose: 125 mcg daily (was 100 mcg).", False),
    # a past change named as an event is history
    (LEVOTHYROXINE_UP_TO_100, "Fatigue began after the levothyroxine cut to 50 mcg. Increase "
                              "levothyroxine to 100 mcg daily.", True),
    (LEVOTHYROXINE_UP_TO_100, "Fatigue began after the cut. Increase levothyroxine to 50 mcg "
                              "daily.", False),
    # a retold question asks; 'needs more' is an increase
    (LEVOTHYROXINE_UP, "She needs more levothyroxine.", True),
    (LEVOTHYROXINE_UP, "Asks whether she needs more levothyroxine.", False),
    # waiting for results is the plan; waiting for her to get better is a condition
    (START_LEVOTHYROXINE, "Start levothyroxine 50 mcg daily once they are back.", True),
    (START_LEVOTHYROXINE, "Start levothyroxine 50 mcg daily once she is better.", False),
    # a hold until an event is not a stop for good; 'resume it' is the held drug
    (STOP_SERTRALINE_FOR_GOOD, "Stop sertraline for good.", True),
    (STOP_SERTRALINE_FOR_GOOD, "Hold sertraline until the procedure is done.", False),
    (NO_SERTRALINE, "Hold sertraline until the procedure; start melatonin.", True),
    (NO_SERTRALINE, "Hold sertraline until the procedure; once he is well on melatonin he may "
                    "resume it.", False),
    # a start dated before the episode is history
    (NO_SERTRALINE, "Sertraline 50 mg, started 3 weeks before the episode.", True),
    (NO_SERTRALINE, "Sertraline 50 mg, started today.", False),
    # a drug not the cause is not a drug avoided
    (NO_SERTRALINE, "Sertraline is unlikely to have contributed and can be stopped.", True),
    (NO_SERTRALINE, "Sertraline is unlikely to have contributed and can be continued.", False),
    # how a drug is taken, set off by commas, does not cut the list the verb governs
    (START_AMLODIPINE_AND_LISINOPRIL, "I have started amlodipine 5 mg once daily, taken with the "
                                      "same meal each day, and lisinopril 10 mg daily.", True),
    (START_AMLODIPINE_AND_LISINOPRIL, "I have started amlodipine 5 mg once daily, and after the "
                                      "visit lisinopril 10 mg daily.", False),
    # a value between an article and its own noun measures that noun
    (TSH_4_1, "TSH 4.1 mIU/L with a 12 mm nodule.", True),
    (TSH_4_1, "TSH with a 12 mm nodule.", False),
    # a heading's first line wraps onto the next
    (TSH_4_1, "**Summary.** Hypothyroid on levothyroxine (latest\nTSH 4.1 mIU/L).", True),
    # a fever-first sick-day rule; a temperature is a symptom
    (PREDNISONE_RAISED_FOR_FEVER, "If she has a fever above 38 C she should double her "
                                  "prednisone.", True),
    (PREDNISONE_RAISED_FOR_FEVER, "Double her prednisone now.", False),
    (METFORMIN_CONTINUED, "Continue metformin. Sick-day rules: with fever, stop metformin; hold "
                          "it above 39 C.", True),
    # 'return X to her previous dose' is a dose change to that dose
    (LEVOTHYROXINE_TO_100, "Return levothyroxine to her previous 100 mcg daily.", True),
    (LEVOTHYROXINE_TO_100, "Return levothyroxine to her previous 75 mcg daily.", False),
    # a plan told in the third person; 'last X dose' is the stop
    (HOLD_APIXABAN_2_DAYS, "For the apixaban, he stops it 2 days before surgery.", True),
    (HOLD_APIXABAN_2_DAYS, "For the apixaban, he took it 2 days before surgery.", False),
    (HOLD_APIXABAN_2_DAYS, "Last Eliquis dose 3 days before surgery.", True),
    (HOLD_APIXABAN_2_DAYS, "Eliquis dose 3 days before surgery.", False),
    (RESUME_APIXABAN, "Hold apixaban 2 days before surgery; he restarts it 48 hours after.",
     True),
    # 'resume' with no drug takes the one held, not the bridge turned down
    (NO_ENOXAPARIN, "- Hold apixaban 2 days before surgery.\n- Bridging: none (no LMWH).\n"
                    "- Resume 5 mg BID 48 h after surgery.", True),
    (NO_ENOXAPARIN, "- Hold apixaban 2 days before surgery.\n- Bridging: enoxaparin 40 mg "
                    "daily.\n- Resume apixaban 48 h after surgery.", False),
    # a tally ('3 of 3 sets') is no measure
    (PROLACTIN_92, "Prolactin (raised in 3 of 3 samples) 92 ng/mL.", True),
    (PROLACTIN_92, "Prolactin (raised in 3 of 3 samples) 83 ng/mL.", False),
    # 'it' after a stop and a bridge turned down is the drug stopped; 'start it again' resumes
    (NO_ENOXAPARIN, "For the apixaban he stops it 2 days before surgery, no bridging with "
                    "heparin or Lovenox, and he restarts it 48 hours after surgery.", True),
    (NO_ENOXAPARIN, "For the apixaban he stops it 2 days before surgery and he starts Lovenox, "
                    "and he restarts it 48 hours after surgery.", False),
    (RESUME_APIXABAN, "Last Eliquis dose 3 days before surgery. No Lovenox bridge. He can start "
                      "it again 2-3 days after surgery.", True),
    (RESUME_APIXABAN, "Last Eliquis dose 3 days before surgery. No Lovenox bridge. He can start "
                      "it 2-3 days after surgery.", False),
    # a step of an arrow chain that resumes takes the drug held, not the bridge turned down
    (RESUME_APIXABAN, "- Apixaban 5 BID -> hold x 2 days pre-op -> NO bridging (no LMWH) -> "
                      "restart 48 h post-op", True),
    (NO_ENOXAPARIN, "- Apixaban 5 BID -> hold x 2 days pre-op -> NO bridging (no LMWH) -> "
                    "restart 48 h post-op", True),
    # what a kind of finding can be is said of the kind, not of this patient
    (TESTICULAR_MASS, "A hydrocele in an adult can occasionally be reactive to a testicular "
                      "tumour.", False),
    (TESTICULAR_MASS, "This hydrocele is reactive to a testicular tumour.", True),
    # a test repeated on a schedule is first drawn one interval from now
    (RECHECK_BMP_IN_A_WEEK, "Recheck BMP daily while admitted.", True),
    (RECHECK_BMP_IN_A_WEEK, "Recheck BMP monthly.", False),
    # '2000 IU' is a dose, not a year that dates the line
    (VITAMIN_D_2000_DAILY, "Plan:\n- Vitamin D3 2000 IU daily.", True),
    (VITAMIN_D_2000_DAILY, "Plan:\n- Vitamin D3 200 IU daily.", False),
    # 'Both are ordered' orders the tests just named; "I've also put in" orders
    (ORDER_CBC, "A CBC weekly and a BMP weekly. Both are ordered.", True),
    (ORDER_CBC, "A CBC weekly would be reasonable. Both are optional.", False),
    (ORDER_CBC, "I've also put in weekly CBCs.", True),
    (ORDER_CBC, "I've also thought about weekly CBCs.", False),
    # a thousands separator ends no condition: the hold stays under its 'if'
    (START_VALGANCICLOVIR, "Start valganciclovir 450 mg twice daily. If the ANC falls below "
                           "500/uL or platelets below 25,000/uL, hold valganciclovir.", True),
    (START_VALGANCICLOVIR, "Start valganciclovir 450 mg twice daily. Platelets are below "
                           "25,000/uL, so hold valganciclovir.", False),
    # 'not yet a X' denies X
    (STEROID_REFRACTORY, "Four weeks of prednisone 40 mg: a steroid-refractory flare.", True),
    (STEROID_REFRACTORY, "Two weeks of prednisone 20 mg, so this is not yet a "
                         "steroid-refractory flare.", False),
    # a dated record is no contradiction of today's finding
    (CMV_COLITIS_NOT_REMISSION, "Data: colonoscopy 2024: quiescent colitis. Now CMV colitis.",
     True),
    (CMV_COLITIS_NOT_REMISSION, "Quiescent colitis. CMV colitis.", False),
    # what a thing is done as takes the verb of the thing
    (NO_TEST_OF_CURE, "Please do not send a stool C. difficile test after treatment as a test "
                      "of cure.", True),
    (NO_TEST_OF_CURE, "Please send a stool C. difficile test after treatment as a test of "
                      "cure.", False),
    # 'X does not explain Y' denies X; a reported question asserts nothing
    (NO_HYPOTHYROIDISM, "SIADH. Hypothyroidism does not explain a sodium of 126.", True),
    (NO_HYPOTHYROIDISM, "SIADH. Hypothyroidism explains a sodium of 126.", False),
    (NO_HYPOTHYROIDISM, "I was asked whether this is hypothyroidism or SIADH; I think it is SIADH.",
     True),
    (NO_HYPOTHYROIDISM, "I think this is hypothyroidism or SIADH, most likely SIADH.", False),
    # the finding before an arrow to a later step is the event awaited
    (NO_SECOND_RECURRENCE, "First recurrence of CDI.\n- Second recurrence -> refer for FMT.", True),
    (NO_SECOND_RECURRENCE, "First recurrence of CDI.\n- Second recurrence: refer for FMT.", False),
    # an episode told as past is history
    (NO_SECOND_RECURRENCE, "First recurrence of CDI. Her second recurrence was 7 weeks ago and was "
                           "treated with fidaxomicin.", True),
    (NO_SECOND_RECURRENCE, "First recurrence of CDI. Her second recurrence is now being "
                           "treated with fidaxomicin.",
     False),
    # 'X: not recommended' turns X down, and a label over what is said of it plans nothing
    (NO_PET_NOW, "Repeat PET: not recommended.", True),
    (NO_PET_NOW, "Repeat PET: recommended.", False),
    (NO_PET_NOW, "Plan:\n- PET - no repeat PET/CT", True),
    (NO_PET_NOW, "Plan:\n- PET - repeat PET/CT in 3 months", False),
    # done already; what a test can tell; a repeat that would only delay
    (NO_PET_NOW, "Already has a PET 2 wk old.", True),
    (NO_PET_NOW, "The PET he just had answers everything a PET can answer.", True),
    (NO_PET_NOW, "A repeat PET now would only delay the diagnosis.", True),
    (NO_PET_NOW, "A repeat PET now would be reasonable.", False),
    # 'SUV max' names a measure, not a maximum
    (SUV_6_2, "Nodule with an SUV max of 6.2.", True),
    (SUV_6_2, "Nodule with an SUV max of 3.2.", False),
    # a value before its label across an aside
    (NODULE_14_MM, "The PET/CT shows a new 14 mm (15 x 13 mm) spiculated nodule.", True),
    (NODULE_14_MM, "The PET/CT shows a new 9 mm (15 x 13 mm) spiculated nodule.", False),
    # an offer of another dose fails even where the time is not given
    (VALGANCICLOVIR_450_FOR_3_WEEKS, "Start valganciclovir 450 mg twice daily for 21 days.",
     True),
    (VALGANCICLOVIR_450_FOR_3_WEEKS, "Start valganciclovir 450 mg twice daily for 21 days. "
                                     "Valganciclovir 900 mg twice daily is a reasonable "
                                     "alternative.", False),
    # findings spelling out a doubtful finding are doubtful; 'suggests rather than proves'
    (MILK_ALKALI_NOT_VITAMIN_D, "Calcium-alkali syndrome. PTHrP and 25-OH D to exclude a second "
                                "PTH-independent process (vitamin D-mediated).", True),
    (MILK_ALKALI_NOT_VITAMIN_D, "Calcium-alkali syndrome, with a second process (vitamin "
                                "D-mediated).", False),
    (MILK_ALKALI, "The chart suggests rather than proves calcium-alkali syndrome.", True),
    (MILK_ALKALI, "The chart rather than the labs suggests calcium-alkali syndrome.", True),
    # what a drug class can do, and a drug she takes, plan nothing
    (NO_NSAID, "Explain that ibuprofen-type pain relievers can harm the kidneys.", True),
    (NO_NSAID, "Ibuprofen-type pain relievers can be used for her knee.", False),
    (NO_THIAZIDE, "She takes Tums and milk while on hydrochlorothiazide 25 mg.", True),
    (NO_THIAZIDE, "She takes Tums and milk; continue hydrochlorothiazide 25 mg.", False),
    # drugs added to a finding under its label are its causes; '(OTC): Stop' in a table row
    (NO_NSAID, "- AKI: volume depletion + ibuprofen 1200 mg/day + ACE inhibitor.", True),
    (NO_NSAID, "- Knee pain: ice + ibuprofen 400 mg TID.", False),
    (STOP_IBUPROFEN, "| Medication | Action |\n|---|---|\n| Ibuprofen 400 mg TID (OTC) | "
                     "**Stop** |", True),
    (STOP_IBUPROFEN, "| Medication | Action |\n|---|---|\n| Ibuprofen 400 mg TID (OTC) | "
                     "Continue |", False),
    # a condition's own verb plans nothing; the fallback after it is an offer
    (FIDAXOMICIN_NOT_TURNED_DOWN, "Start fidaxomicin 200 mg twice daily. If fidaxomicin "
                                  "cannot be obtained (cost), then use oral vancomycin.", True),
    (FIDAXOMICIN_NOT_TURNED_DOWN, "Fidaxomicin cannot be used (cost); use oral vancomycin.",
     False),
    # a term read across the size written inside it; a prior study's 'absent on' negates nothing
    (NEW_NODULE, "New 14 mm RUL nodule, SUVmax 6.2.", True),
    (NEW_NODULE, "A 14 mm RUL nodule, SUVmax 6.2.", False),
    (NEW_NODULE, "PET/CT: new solid spiculated RUL nodule, 15 x 13 mm.", True),
    (NEW_NODULE, "She has a new job and a solid spiculated RUL nodule.", False),
    (NEW_NODULE, "There is a new 6 mm nodule in the left lower lobe.", True),
    (NEW_NODULE, "There is a 6 mm nodule in the new left lower lobe scan.", False),
    # a test to do 'at baseline'; one told in the past is history
    (ORDER_ECHO, "Echocardiogram at baseline and yearly.", True),
    (ORDER_ECHO, "He had an echocardiogram at baseline.", False),
    # 'last time' dates what happened then
    (KEEP_METFORMIN, "Continue metformin. He could not take metformin last time.", True),
    (KEEP_METFORMIN, "Continue metformin. He cannot take metformin.", False),
    # the tablets that make up a dose make that dose
    (METFORMIN_1000, "Start metformin 1000 mg (2 x 500 mg) daily.", True),
    (METFORMIN_1000, "Start metformin 1000 mg (2 x 750 mg) daily.", False),
    # a space as the thousands separator
    (FERRITIN_2500, "Ferritin ≥ 2 500 µg/L.", True),
    (FERRITIN_2500, "Ferritin 2 400 µg/L.", False),
    # a cause named after its noun, or given as what the problem is
    (RISPERIDONE_CAUSE, "Prolactin 92. I think the cause is risperidone.", True),
    (RISPERIDONE_CAUSE, "Prolactin 92. Short version: I think this is risperidone.", True),
    (RISPERIDONE_CAUSE, "Prolactin 92. The cause is unclear; this is Dr Lee.", False),
    # a resume timed by a recovery keeps the hold
    (HOLD_LISINOPRIL, "Hold lisinopril. Restart lisinopril only once creatinine is near "
     "baseline and BP is back up.", True),
    (HOLD_LISINOPRIL, "Restart lisinopril now.", False),
    # a drug told as a cause of a finding plans nothing; one on a plan line does
    (NO_NSAID_PLANNED, "Ibuprofen 400 mg TID, lisinopril and volume depletion drive the AKI. "
     "Stop ibuprofen.", True),
    (NO_NSAID_PLANNED, "AKI:\n- Volume depletion + ibuprofen 400 mg TID x 3 wk + ACEi\n"
     "- Stop ibuprofen.", True),
    (NO_NSAID_PLANNED, "Plan:\n- Ibuprofen 400 mg TID for the knee.", False),
    # a goal the value must return to is no result
    (CREATININE_2_1, "Cr 2.1. Hold lisinopril until Cr back to ~1.0.", True),
    (CREATININE_2_1, "Cr 1.0. Hold lisinopril until it improves.", False),
    # the test named by its virus, as HIV is
    (ORDER_HCV, "Plan: check HIV and hepatitis C serologies.", True),
    (ORDER_HCV, "Plan: check HIV.", False),
    # a power of ten in superscript; numbers dictated in words
    (PLATELETS_58, "Platelets 67 → 58 ×10⁹/L.", True),
    (PLATELETS_58, "Platelets 58 x 10³/µL.", True),
    (PLATELETS_58, "Platelets fifty-eight on March sixth.", True),
    (PLATELETS_58, "Platelets sixty-eight on March sixth.", False),
    (HB_13, "Hemoglobin thirteen point oh.", True),
    (HB_13, "Hemoglobin three point oh.", False),
    # what a turned-down option would replace stays planned; what a plan replaces is turned down
    (LUNG_BIOPSY, "Refer for CT-guided biopsy of the nodule. No CT surveillance in place of "
     "the biopsy.", True),
    (LUNG_BIOPSY, "Refer for CT-guided biopsy of the nodule. Repeat chest CT in 3 months "
     "instead of a biopsy.", False),
    (NODULE_14_MM, "New 14 mm RUL nodule, SUVmax 6.2, absent on the staging CT.", True),
    (NODULE_14_MM, "New RUL nodule, SUVmax 6.2, absent on the staging CT.", False),
    # a bare answer to a question about the cause names the cause
    (RISPERIDONE_THE_CAUSE, "**Q1. What is causing the high prolactin?**\nRisperidone.", True),
    (RISPERIDONE_THE_CAUSE, "**Q1. What is causing the high prolactin?**\nNot risperidone.",
     False),
    (RISPERIDONE_THE_CAUSE, "**Q1. What is her current medication?**\nRisperidone.", False),
])
def test_reader_reads_the_phrasing_as_meant(grade, spec, note, passed):
    assert grade(spec, note) is passed


PSEUDO_NOT_ITP = {"note_finding": {"concept": ["pseudothrombocytopenia"],
                                   "opposite": ["immune_thrombocytopenia"]}}
ITP_NOT_MARROW = {"note_finding": {"concept": ["immune_thrombocytopenia"],
                                   "opposite": ["marrow_infiltration"]}}
CITRATE_COUNT = {"note_decision": {"concept": ["citrate_platelet_count"], "action": ["order"]}}
HCV_RNA_NOW = {"note_decision": {"concept": ["hcv_rna"], "action": ["order"],
                                 "timing": {"min": 0, "max": 4, "unit": "wk"},
                                 "untimed_is_now": True, "wrong_timing_contradicts": True}}
MARROW_ORDERED = {"note_decision": {"concept": ["bone_marrow_biopsy"], "action": ["order"]}}
TYPE_1_CRYO = {"note_finding": {"concept": ["type_1_cryoglobulinemia"]}}
REPEAT_CRYO = {"note_decision": {"concept": ["cryoglobulin_test"], "action": ["order"]}}
FIB4_1_8 = {"note_value": {"concept": ["fib4"], "value": 1.8, "tolerance": 0.05}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # an opinion denied through 'this is'; a label that argues against a finding
    (PSEUDO_NOT_ITP, "EDTA-dependent pseudothrombocytopenia. I do not think this is ITP.", True),
    (PSEUDO_NOT_ITP, "EDTA-dependent pseudothrombocytopenia. I think this is ITP.", False),
    (PSEUDO_NOT_ITP, "EDTA-dependent pseudothrombocytopenia.\nWhy I do not think this is ITP: "
     "ITP is a diagnosis of exclusion; the smear in ITP shows large platelets.", True),
    (PSEUDO_NOT_ITP, "EDTA-dependent pseudothrombocytopenia.\nWhy this fits ITP: the smear in "
     "ITP shows large platelets.", False),
    (ITP_NOT_MARROW, "Primary ITP. Nothing to suggest marrow infiltration.", True),
    (ITP_NOT_MARROW, "Primary ITP. The smear suggests marrow infiltration.", False),
    (ITP_NOT_MARROW, "Primary ITP; I suspect marrow infiltration as well.", False),
    (WARM_NOT_COLD, "Warm AIHA; not c/w cold agglutinin disease.", True),
    (WARM_NOT_COLD, "Warm AIHA; c/w cold agglutinin disease.", False),
    (WARM_NOT_COLD, "Warm AIHA. Cold agglutinin disease is not a concern.", True),
    (WARM_NOT_COLD, "Suspected warm AIHA.", True),
    (WARM_NOT_COLD, "Possible warm AIHA.", False),
    # the newest value of a dated trend told in words; counts per microlitre and SI 'G/L'
    (PLATELETS_58, "Platelet count was 238 a year ago, then 67 on February 17 and 58 on "
     "March 6.", True),
    (PLATELETS_58, "Platelet count was 238 a year ago, then 58 on February 17 and 67 on "
     "March 6.", False),
    (PLATELETS_58, "Plt 262 -> 67 -> 58 (3/23 -> 4/5 -> 4/14)", True),
    (PLATELETS_58, "Platelets 58,000/µL.", True),
    (PLATELETS_58, "Platelets 58K, clumped.", True),
    (PLATELETS_58, "Platelets 58 G/L.", True),
    (PLATELETS_58, "Platelets 67,000/µL.", False),
    # a numbered bold question ends the background above it; its answer is the plan
    (CITRATE_COUNT, "Background: breast cancer 2021.\n\n**Q2. What have I ordered?**\nA "
     "platelet count in a sodium citrate tube.", True),
    (CITRATE_COUNT, "Redraw the CBC in citrate.", True),
    (CITRATE_COUNT, "Do not redraw the CBC in citrate.", False),
    # an untimed order of an urgent test is now; a repeat counted from treatment is another test
    (HCV_RNA_NOW, "Order HCV RNA. Repeat HCV RNA 12 weeks after the DAA course.", True),
    (HCV_RNA_NOW, "Order HCV RNA; if positive -> DAA for 8 wk.", True),
    (HCV_RNA_NOW, "HCV RNA in 6 months.", False),
    # a test's past result and a result that triggers a step turn nothing down
    (HCV_RNA_NOW, "Order HCV RNA. The HCV RNA sent in 2024 was negative.", True),
    (HCV_RNA_NOW, "Order HCV RNA.\n- HCV RNA negative -> bone marrow biopsy.", True),
    (HCV_RNA_NOW, "HCV RNA not needed.", False),
    (MARROW_ORDERED, "Plan: 1. Bone marrow aspirate and biopsy at baseline. 2. CT.", True),
    (TYPE_1_CRYO, "This is type I (single monoclonal) cryoglobulinemia.", True),
    (TYPE_1_CRYO, "This is type II (mixed) cryoglobulinemia.", False),
    (REPEAT_CRYO, "- [ ] Repeat cryoglobulins - not needed", False),
    (REPEAT_CRYO, "- [ ] Repeat cryoglobulins - ordered", True),
    (ORDER_ECHO, "He doesn't need digoxin, he does need an echocardiogram.", True),
    (NO_DIGOXIN, "Question is whether she needs digoxin.", True),
    (NO_DIGOXIN, "She needs digoxin.", False),
    (MARROW_ORDERED, "Plan:\n**Do not:** bone marrow biopsy now.", False),
    (FIB4_1_8, "FIB-4 from the April labs (age 52, AST 52, ALT 61, platelets 192) = 1.8.", True),
    (FIB4_1_8, "FIB-4 from the April labs (age 52, AST 52, ALT 61, platelets 192) = 2.8.", False),
    (APIXABAN_5_BID, "Restart apixaban 5 mg twice daily. A dose of 2.5 mg twice daily needs two "
     "of: age >= 80, weight <= 60 kg, creatinine >= 1.5.", True),
])
def test_reader_reads_this_release_s_phrasings(grade, spec, note, passed):
    assert grade(spec, note) is passed


STOP_IRON = {"note_decision": {"concept": ["ferrous_sulfate"], "action": ["stop"]}}
FIB4_INDETERMINATE = {"note_category": {"subject": ["fib4"], "category": ["level_intermediate"],
                                        "others": ["level_low", "level_high"]}}
TSAT_HIGH = {"note_category": {"subject": ["tsat"], "category": ["level_high"],
                               "others": ["level_low"]}}
HEMOCHROMATOSIS_OPEN = {"note_finding": {"concept": ["hemochromatosis"], "topic": True}}
WEIGHT_76 = {"note_value": {"concept": ["weight"], "value": 76, "tolerance": 0.5}}
FERRITIN_MONTHLY = {"note_decision": {"concept": ["ferritin"], "action": ["order"],
                                      "every": {"min": 0.032, "max": 0.143}}}
DEFERASIROX_1080 = {"note_decision": {"concept": ["deferasirox"], "action": ["start"],
                                      "dose": {"min": 974, "max": 1154, "unit": "mg"}}}
AUDIOMETRY = {"note_decision": {"concept": ["audiometry"], "action": ["order"]}}
NO_DEFERIPRONE = {"note_never": {"concept": ["deferiprone"]}}
METANEPHRINES = {"note_decision": {"concept": ["metanephrines"], "action": ["order"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a request put as a question; a plan after a clause that dates the past
    (STOP_IRON, "Could you please stop his ferrous sulfate?", True),
    (STOP_IRON, "Can he stop his ferrous sulfate?", False),
    (STOP_IRON, "The 2023 labs were inflammation, not iron deficiency, and the iron tablets "
     "should stop - ferrous sulfate discontinued, please.", True),
    (STOP_IRON, "Stop ferrous sulfate. Ferrous sulfate continued for 3 years on the basis of a "
     "low TSAT.", True),
    (STOP_IRON, "Stop ferrous sulfate. Continue ferrous sulfate for 3 months.", False),
    # a category told by its zone or by its cut-off; a diagnosis still to exclude
    (FIB4_INDETERMINATE, "His FIB-4 works out to 1.8, which is the indeterminate zone between 1.3 "
     "and 2.67.", True),
    (TSAT_HIGH, "TSAT 66%, above the 45% threshold.", True),
    (TSAT_HIGH, "TSAT 60% (>45%).", True),
    (TSAT_HIGH, "TSAT 30%, below the 45% threshold.", False),
    (HEMOCHROMATOSIS_OPEN, "Hemochromatosis to be excluded.", True),
    (HEMOCHROMATOSIS_OPEN, "Hemochromatosis excluded.", False),
    (METANEPHRINES, "Plan:\n2. **Plasma free metanephrines** - because the nodule is not "
     "lipid-rich, a pheochromocytoma must be excluded.", True),
    # a value in the concept's unit past a word that measures nothing, or before a dose formula
    (WEIGHT_76, "I used his weight from your visit on 12 May, 76 kg, rather than the 84 kg "
     "recorded two years ago.", True),
    (WEIGHT_76, "I used his weight from your visit on 12 May, 84 kg.", False),
    (WEIGHT_76, "His current weight is 76 kg: 14 x 76 = 1064 mg.", True),
    # a later step's tests take the first verb; a list takes its one schedule
    (FERRITIN_MONTHLY, "Check creatinine weekly for a month, then creatinine, LFTs and ferritin "
     "monthly.", True),
    (FERRITIN_MONTHLY, "Plan:\n- Labs: creatinine weekly x 4 weeks, then monthly creatinine, "
     "LFTs and ferritin.", True),
    (FERRITIN_MONTHLY, "Check creatinine weekly for a month, then creatinine, LFTs and ferritin "
     "yearly.", False),
    # a rounding arrow after a computed dose changes no current dose
    (DEFERASIROX_1080, "Plan:\n- Deferasirox 14 mg/kg/day = 1 064 mg -> 1 080 mg PO once daily.",
     True),
    (DEFERASIROX_1080, "Plan:\n- Deferasirox 20 mg/kg/day = 1 520 mg -> 1 540 mg PO once daily.",
     False),
    (AUDIOMETRY, "Audiometry and an ophthalmology exam have been ordered.", True),
    (NO_DEFERIPRONE, "Please do not let anyone switch him to deferiprone.", True),
    (NO_DEFERIPRONE, "Please switch him to deferiprone.", False),
])
def test_reader_reads_this_release_s_later_phrasings(grade, spec, note, passed):
    assert grade(spec, note) is passed


POLYP_11_MM = {"note_value": {"concept": ["gallbladder_polyp"], "value": 11}}
ABDOMINAL_MRI = {"note_decision": {"concept": ["abdominal_mri"], "action": ["order"]}}
NO_ASPIRIN = {"note_never": {"concept": ["aspirin"]}}
APIXABAN_STOPPED = {"note_decision": {"concept": ["apixaban"], "action": ["stop"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a liver segment's number is no size
    (POLYP_11_MM, "Gallbladder polyp 11 mm. This lesion is in segment 7, away from the "
     "gallbladder polyp.", True),
    (POLYP_11_MM, "Gallbladder polyp 7 mm.", False),
    # an indented sub-line's label speaks for that line alone
    (ABDOMINAL_MRI, "Liver lesion 2.3 cm, new\n  background: LFTs nl, HBsAg neg\n  -> MRI "
     "abdomen with and without contrast ordered", True),
    (ABDOMINAL_MRI, "Liver lesion 2.3 cm, new\nbackground: LFTs nl, HBsAg neg\n-> MRI "
     "abdomen with and without contrast ordered", False),
    # what holds for many patients is no offer to this one
    (NO_ASPIRIN, "Aspirin is an acceptable option for many patients after hip replacement, but "
     "she has aspirin-exacerbated respiratory disease.", True),
    (NO_ASPIRIN, "Aspirin is an acceptable option for her after hip replacement.", False),
    # the last tablet is the stop
    (APIXABAN_STOPPED, "Apixaban 2.5 mg twice daily. Last tablet on 9 May, then stop.", True),
    (APIXABAN_STOPPED, "Apixaban 2.5 mg twice daily. First tablet on 9 May.", False),
])
def test_reader_reads_this_release_s_last_phrasings(grade, spec, note, passed):
    assert grade(spec, note) is passed


def test_nights_a_week_are_administrations_a_day():
    from physbench_gym.grading.quantities import schedule
    assert schedule("SC deferoxamine over 8-12 h, 5-7 nights a week")[0] == 5 / 7
    assert schedule("once weekly")[0] == 1 / 7


def test_with_and_without_contrast_is_spelled_out():
    assert [line.text for line in lines("MRI abd w/wo contrast; CT w/o + w/ contrast")] == [
        "MRI abd with and without contrast; CT without and with contrast"]


def test_a_dictated_run_on_is_read_clause_by_clause():
    run_on = ("This is an e-consult on a 63 year old woman on anastrozole for two years, asked "
              "to weigh in on bone loss, so I reviewed the DXA which shows a lumbar spine T-score "
              "of -2.7, she now has osteoporosis with a real drop at the spine since baseline, "
              "the big issue is her kidneys, creatinine 1.77 and eGFR 32, and I put in the "
              "prescription and a dental referral, end of dictation.")
    short = "She now has osteoporosis, the big issue is her kidneys, and I put in a referral."
    assert len(read_note(run_on).clauses) >= 4
    assert len(read_note(short).clauses) == 1


def test_a_wrapped_sentence_goes_on_past_a_colon_on_its_next_line():
    note = read_note("Galactorrhea followed. Secondary\ncauses have been checked: TSH 1.9.")
    assert [c.text for c in note.clauses] == ["Galactorrhea followed.",
                                              "Secondary causes have been checked: TSH 1.9."]


def test_a_line_that_opens_with_a_label_arrow_is_its_own_paragraph():
    note = read_note("Trend -> TSH 8 (2024) -> 4 now\nPlan -> levothyroxine 100 mcg daily")
    assert [c.text for c in note.clauses] == ["Trend -> TSH 8 (2024) -> 4 now",
                                              "Plan -> levothyroxine 100 mcg daily"]


def test_an_amount_per_24_hours_is_one_value_in_its_unit():
    found = quantities("5-HIAA 72 mg/24 h, 18 mg/24 h, 5.2 mg/24 h")
    assert [(q.value, q.unit) for q in found if q.start > 6] == [
        (72.0, "mg"), (18.0, "mg"), (5.2, "mg")]
    assert [(q.value, q.unit) for q in quantities("5-HIAA 376 \u00b5mol/24 h")][-1] == (
        376.0, "umol")
    assert [(q.value, q.unit) for q in quantities("sodium 40 mmol/24 hours")] == [(40.0, "mmol")]


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("AAA 4.6 x 4.4 cm", 4.6, "cm"), ("nodule 2.2 × 2.8 × 2.0 cm", 2.8, "cm"),
    ("Right adrenal nodule, 8 HU unenhanced", 8.0, "hu"),
    ("attenuation of 28 Hounsfield units", 28.0, "hu"), ("vitamin D3 2000 IU daily", 2000.0, "iu"),
    ("longest pause 4.8 s", 4.8, "s"), ("a 4800 ms pause", 4800.0, "ms"),
    ("digoxin level 2.9 ng/mL", 2.9, "ng/ml"), ("recheck tomorrow", 1.0, "d"),
])
def test_sizes_attenuations_and_doses_are_read_with_their_unit(text, value, unit):
    assert [(q.value, q.unit) for q in quantities(text)][-1] == (value, unit)


@pytest.mark.parametrize("text", ["level 3 evidence", "Problem 2: cortisol secretion",
                                  "#2 Overdose risk"])
def test_numbers_that_name_are_no_values(text):
    assert not [q for q in quantities(text) if q.value in (2.0, 3.0)]


def test_a_second_scan_is_no_time_and_one_is_no_current_dose():
    assert not [q for q in quantities("a second CT at 18-24 months") if q.unit == "s"]
    found = quantities("he'll need the second one between 18 and 24 months")
    assert [(q.value, q.role) for q in found] == [(18.0, "")]


def test_the_date_a_time_is_counted_from_does_not_date_the_plan():
    today = date(2026, 6, 3)
    assert not dates_past("then CT chest at 18-24 months from 13 May 2026", today)
    assert dates_past("CT chest on 13 May 2026 showed a 7 mm nodule", today)


def test_a_threshold_named_after_its_value_is_a_reference():
    found = quantities("normal suppression, below the 1.8 ug/dL cut-off")
    assert [(q.value, q.role) for q in found] == [(1.8, "reference")]


def test_today_s_own_date_dates_nothing():
    today = date(2026, 6, 3)
    assert not dates_past("Today (2026-06-03): venlafaxine 150 -> 75 mg", today)
    assert dates_past("On 2026-06-02: venlafaxine 150 -> 75 mg", today)


def test_a_month_of_a_year_is_a_date_ahead_from_its_first_day():
    today = date(2026, 4, 10)
    for text in ("ordered a duplex for April 2027", "duplex due 04/2027"):
        assert [(q.value, q.role) for q in quantities(text, today)] == [(356.0, "date")], text
    assert not [q for q in quantities("on it since March 2025", today) if q.role == "date"]


def test_numeric_calendar_dates_ahead_are_times_from_today():
    today = date(2026, 11, 10)
    for text in ("Continue apixaban through 2027-02-05.", "Continue apixaban through 2/5/2027.",
                 "Continue apixaban through Feb 5, 2027."):
        found = [q for q in quantities(text, today) if q.role == "date"]
        assert [q.value for q in found] == [87.0], text
    assert not [q for q in quantities("Seen on 2026-01-05.", today) if q.role == "date"]


def test_a_day_s_date_is_read_once():
    today = date(2026, 4, 21)  # '26 April 2026' is ahead, not the past month 'April 2026'
    assert not dates_past("CMP on 26 April 2026 to recheck calcium", today)
    assert [(q.value, q.role) for q in quantities("CMP on 26 April 2026", today)] == [
        (5.0, "date")]
    assert dates_past("CMP on 16 April 2026", today)


APIXABAN_ENDS_DAY_35 = {"note_decision": {"concept": ["apixaban"], "action": ["stop"],
                                          "opposite": ["avoid"], "dose_required": False,
                                          "timing": {"min": 20, "max": 30, "unit": "d"}}}
PLATELETS_284 = {"note_value": {"concept": ["platelets"], "value": 284, "tolerance": 0.5}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a course end with no drug, in the plan's next bullet or sub-item, ends the planned drug
    (APIXABAN_ENDS_DAY_35, "Plan:\n- Start apixaban 2.5 mg twice daily tomorrow.\n- No overlap "
     "is needed.\n- Continue for 25 days, then stop.", True),
    (APIXABAN_ENDS_DAY_35, "Plan:\n- Start apixaban 2.5 mg twice daily tomorrow.\n- No overlap "
     "is needed.\n- Continue for 25 days.", False),
    (APIXABAN_ENDS_DAY_35, "Plan:\n- **Apixaban 2.5 mg PO twice daily**\n  - Start: tomorrow "
     "morning\n  - Stop: in 25 days", True),
    (APIXABAN_ENDS_DAY_35, "Plan:\n- **Apixaban 2.5 mg PO twice daily**\n  - Start: tomorrow "
     "morning\n  - Stop: in 60 days", False),
    # ... not the drug only named on the way
    (APIXABAN_ENDS_DAY_35, "Plan:\nApixaban 2.5 mg twice daily. Her other medicines are "
     "amlodipine and acetaminophen. First tablet tomorrow; last tablet in 25 days, then stop.",
     True),
    # the numbers after a run-in label naming one test are its values
    (PLATELETS_284, "1. **Platelet count.** 262 pre-operatively, 214 on day 1 and 284 today.",
     True),
    (PLATELETS_284, "1. **Platelet count.** 262 pre-operatively, 214 on day 1 and 248 today.",
     False),
])
def test_reader_reads_an_elided_course_end_and_a_run_in_label(grade, spec, note, passed):
    assert grade(spec, note) is passed


DANC = {"note_finding": {"concept": ["duffy_null_neutropenia"],
                         "opposite": ["drug_induced_neutropenia", "myelodysplastic_syndrome"]}}
NO_G_CSF = {"note_never": {"concept": ["g_csf"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # what a trigger would bring, under a heading of triggers, is not what is so now
    (DANC, "Impression: Duffy-null associated neutrophil count.\n\n### When to call us back\n"
     "- Duffy typing comes back positive - then this would not be a Duffy-null count.", True),
    (DANC, "Impression: Duffy-null associated neutrophil count.\n\n### Interpretation\n"
     "- Duffy typing came back positive - so this is not a Duffy-null count.", False),
    # a long heading that lists the alternatives weighed and why they are unlikely
    (DANC, "Impression: Duffy-null associated neutrophil count.\n\n### Alternatives considered "
     "and why they are unlikely\n- **Drug-induced neutropenia:** amlodipine is her only drug.",
     True),
    (DANC, "Impression: Duffy-null associated neutrophil count.\n\n### Other findings worth "
     "knowing about in this case\n- **Drug-induced neutropenia:** from amlodipine.", False),
    # a differential closed by 'none fit'; a diagnosis that 'is possible' is a hedge
    (DANC, "Duffy-null associated neutrophil count. Differential considered: drug-induced "
     "neutropenia, myelodysplastic syndrome - none fit a stable six-year pattern.", True),
    (DANC, "Duffy-null associated neutrophil count. Differential considered: drug-induced "
     "neutropenia, myelodysplastic syndrome - both fit a stable six-year pattern.", False),
    (DANC, "Duffy-null associated neutrophil count. Drug-induced neutropenia is possible.", True),
    (DANC, "Duffy-null associated neutrophil count. Drug-induced neutropenia is present.", False),
    # what a count should not trigger is turned down, all of the list
    (NO_G_CSF, "Document DANC on the problem list once Duffy typing returns, so counts of "
     "1.0-1.5 do not trigger repeat work-ups, withheld medications or unnecessary G-CSF.", True),
    (NO_G_CSF, "Counts of 1.0-1.5 should not trigger repeat work-ups or withheld "
     "medications; start G-CSF.", False),
])
def test_reader_reads_triggers_rejected_alternatives_and_closed_differentials(grade, spec,
                                                                              note, passed):
    assert grade(spec, note) is passed


ASCVD_12 = {"note_value": {"concept": ["ascvd_risk"], "value": 12.2, "tolerance": 0.5}}
HB_9_2 = {"note_value": {"concept": ["hemoglobin"], "value": 9.2, "tolerance": 0.05}}
WEIGHT_64 = {"note_value": {"concept": ["weight"], "value": 64, "tolerance": 1}}
CREATININE_1_87 = {"note_value": {"concept": ["creatinine"], "value": 1.87, "tolerance": 0.03}}
CHA2DS2_VASC_4 = {"note_value": {"concept": ["cha2ds2_vasc"], "value": 4}}
FIB4_1_8 = {"note_value": {"concept": ["fib4"], "value": 1.8, "tolerance": 0.1}}
APIXABAN_5_BID_ONLY = {"note_decision": {"concept": ["apixaban"],
                                         "action": ["start", "resume"],
                                         "dose": {"value": 5, "unit": "mg"},
                                         "every": {"min": 2, "max": 2}}}
NO_BETA_BLOCKER_UP = {"note_never": {"concept": ["beta_blocker"], "action": ["increase"],
                                     "allow_contingency": True, "contingency_on": ["pacemaker"]}}
CT_ORDERED = {"note_decision": {"concept": ["ct_imaging"], "action": ["order"]}}
NO_REPEAT_PET = {"note_never": {"concept": ["pet_ct"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # dictated punctuation, paragraphs, labels and spelled acronyms
    (ASCVD_12, "Risk estimate colon using the pooled cohort equations comma the ten-year A S C V "
     "D risk is twelve point two percent period. New paragraph. Plan colon start a statin "
     "period.", True),
    (ASCVD_12, "Risk estimate colon using the pooled cohort equations comma the ten-year A S C V "
     "D risk is twenty point two percent period.", False),
    # a comma and a new subject end a negation; 'counted as a non-smoker' is an input
    (ASCVD_12, "Former smoker so counted as a non-smoker, no diabetes, the ten-year ASCVD risk is "
     "12.2%.", True),
    # a result labelled 'Current ...' keeps its label; a table column named with '?' asks nothing
    (HB_9_2, "**Diagnosis:** iron deficiency anemia\n**Current Hb:** 9.2 g/dL (2026-04-10)", True),
    (HB_9_2, "**Diagnosis:** iron deficiency anemia\n**Current Hb:** 8.2 g/dL (2026-04-10)", False),
    (WEIGHT_64, "| Criterion | Her value | Met? |\n|---|---|---|\n| Weight <= 60 kg | 64 kg "
     "| no |", True),
    (WEIGHT_64, "| Criterion | Her value | Met? |\n|---|---|---|\n| Weight <= 60 kg | 58 kg "
     "| yes |", False),
    # a term right after another measure's label names which of its values follows
    (CREATININE_1_87, "**Current creatinine:** 1.87 mg/dL\n**eGFR:** cr 44 \u00b7 cys 47 "
     "mL/min/1.73 m2", True),
    (CREATININE_1_87, "**Current creatinine:** 1.87 mg/dL\n**Renal panel:** cr 2.4 mg/dL",
     False),
    # a score's breakdown after its total; a result after 'calculated from ... comes to'
    (CHA2DS2_VASC_4, "CHA two DS two VASc score is 4, 2 for age 75 or older, 1 for female sex.",
     True),
    (CHA2DS2_VASC_4, "CHA2DS2-VASc score is 3, 2 for age 75 or older, 1 for female sex.", False),
    (FIB4_1_8, "FIB-4 calculated from age 52, AST 52, ALT 61 and platelets 192 comes to 1.8.",
     True),
    (FIB4_1_8, "FIB-4 calculated from age 52, AST 52, ALT 61 and platelets 192 comes to 2.8.",
     False),
    # the label's rule is no dose decision; a hold around a procedure is temporary
    (APIXABAN_5_BID_ONLY, "Restart apixaban 5 mg twice daily. Apixaban label says reduce to "
     "2.5 mg twice daily only with two or more criteria. EP will advise on holding apixaban "
     "around the implant.", True),
    (APIXABAN_5_BID_ONLY, "Restart apixaban 2.5 mg twice daily. Apixaban label says 5 mg twice "
     "daily unless two criteria are met.", False),
    # a trigger that opens the sentence without a comma
    (NO_BETA_BLOCKER_UP, "Once the pacemaker is in we can uptitrate the beta blocker.", True),
    (NO_BETA_BLOCKER_UP, "We can uptitrate the beta blocker now.", False),
    # a cancelled test is withdrawn; a result labelled 'Current' is no plan
    (CT_ORDERED, "Plan:\n1. CT chest, abdomen and pelvis - ordered.\n\nAddendum: the CT has been "
     "cancelled.", False),
    (CT_ORDERED, "Plan:\n1. CT chest, abdomen and pelvis - ordered.", True),
    (NO_REPEAT_PET, "### Imaging review\n- **Current PET/CT (2026-03-31):** a new 15 mm nodule.",
     True),
    (NO_REPEAT_PET, "### Imaging review\n- **PET/CT:** in 3 months.", False),
])
def test_reader_reads_dictation_tables_labels_and_triggers(grade, spec, note, passed):
    assert grade(spec, note) is passed


def test_a_sentence_s_period_after_a_mixed_case_name_is_split_off():
    note = read_note("Sent H. pylori IgG serology. Stop omeprazole.")
    assert [sorted(m.concepts) for c in note.clauses for m in c.mentions][0] == [
        "hpylori_serology"]
    assert [t.text for t in _pipeline().tokenizer("tTG-IgG. Dr. Smith")][-3:] == [
        ".", "Dr.", "Smith"]


NO_NFT = {"note_decision": {"concept": ["nitrofurantoin"], "action": ["avoid"]}}
NO_METRONIDAZOLE_OR_TINIDAZOLE = {"note_never": {"concept": ["metronidazole", "tinidazole"]}}
NO_COLONOSCOPY = {"note_never": {"concept": ["colonoscopy"]}}
IBD = {"note_finding": {"concept": ["inflammatory_bowel_disease"]}}
NO_MGUS = {"note_finding": {"concept": ["polyclonal_flc_elevation"], "opposite": ["mgus"]}}
CALPROTECTIN_24 = {"note_value": {"concept": ["fecal_calprotectin"], "value": 24,
                                  "unit": "ug/g", "tolerance": 0.5}}
PROSTATE_62 = {"note_value": {"concept": ["prostate_volume"], "value": 62, "tolerance": 2}}
DEFICIT_1628 = {"note_value": {"concept": ["iron_deficit"], "value": 1628, "tolerance": 75}}
FESO4_325 = {"note_decision": {"concept": ["ferrous_sulfate"], "action": ["start"],
                               "dose": {"value": 325, "unit": "mg"}}}
ELECTROPHORESIS_NOW = {"note_decision": {"concept": ["cbc"], "action": ["order"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a verdict cell ('Use? | ✗') judges the row's subject
    (NO_NFT, "| Agent | S | Use? | Reason |\n|---|---|---|---|\n| Nitrofurantoin | S | \u2717 | "
     "CrCl < 30 mL/min |", True),
    (NO_NFT, "| Agent | S | Use? | Reason |\n|---|---|---|---|\n| Nitrofurantoin | S | \u2713 | "
     "CrCl < 30 mL/min |", False),
    (NO_NFT, "Nitrofurantoin out (CrCl < 30).", True),
    # a negation carries over 'or <verb>'
    (NO_METRONIDAZOLE_OR_TINIDAZOLE, "Do not repeat metronidazole or give tinidazole.", True),
    (NO_METRONIDAZOLE_OR_TINIDAZOLE, "Do not repeat metronidazole; give tinidazole.", False),
    # the topic of a question is no offer; what is screened for is not found
    (NO_COLONOSCOPY, "#4 Question of colonoscopy\n- Under 45, no alarm features.", True),
    (NO_COLONOSCOPY, "#4 Colonoscopy\n- Under 45, no alarm features.", False),
    (IBD, "Calprotectin 24, below the 50 ug/g threshold recommended for screening for IBD.",
     False),
    (IBD, "Calprotectin 240, above the 50 ug/g threshold: IBD.", True),
    # criteria not met deny the diagnosis
    (NO_MGUS, "Polyclonal rise of both light chains. The criteria for MGUS or myeloma are not "
     "met.", True),
    (NO_MGUS, "Polyclonal rise of both light chains. The criteria for MGUS are met.", False),
    # spoken units per gram; a value in a heading; a formula under its label
    (CALPROTECTIN_24, "Calprotectin twenty-four micrograms per gram period, normal comma no "
     "IBD period.", True),
    (PROSTATE_62, "# BPH with LUTS, prostate 62 mL (US 10 Oct 2025)\n- Tamsulosin 0.4 mg daily",
     True),
    (PROSTATE_62, "# BPH with LUTS, prostate 42 mL (US 10 Oct 2025)\n- Tamsulosin 0.4 mg daily",
     False),
    (DEFICIT_1628, "Iron deficit (Ganzoni)\n  - Weight 81 kg, target Hb 15 g/dL\n  - 81 x (15 - "
     "9.2) x 2.4 + 500 = 1127.5 + 500 = approx. 1628 mg.", True),
    (DEFICIT_1628, "Iron deficit (Ganzoni)\n  - Weight 81 kg, target Hb 15 g/dL\n  - 81 x (15 - "
     "9.2) x 2.4 = approx. 1128 mg.", False),
    # a digit glued to a name is no thousands group; 'as soon as possible' is now
    (FESO4_325, "Start FeSO4 325 mg PO daily.", True),
    (FESO4_325, "Start FeSO4 65 mg PO daily.", False),
    (ELECTROPHORESIS_NOW, "Husband: CBC with indices as soon as possible.", True),
    (ELECTROPHORESIS_NOW, "Husband: CBC with indices as soon as he is back.", False),
])
def test_reader_reads_verdict_cells_coordinated_negations_and_formulas(grade, spec, note,
                                                                       passed):
    assert grade(spec, note) is passed


STOP_DIPHENHYDRAMINE = {"note_decision": {"concept": ["diphenhydramine"], "action": ["stop"]}}
HYDROCORTISONE_SAME = {"note_decision": {"concept": ["hydrocortisone"],
                                         "action": ["continue", "keep_dose"]}}
FOSFOMYCIN_ONCE = {"note_decision": {"concept": ["fosfomycin"], "action": ["start"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # what is not to replace a drug is the replacement turned down, not the drug kept
    (STOP_DIPHENHYDRAMINE, "Diphenhydramine - d/c permanently. Do not replace it with another "
     "anticholinergic (doxylamine, hydroxyzine).", True),
    (STOP_DIPHENHYDRAMINE, "Diphenhydramine - d/c permanently. Do not stop it yet.", False),
    # not titrating a dose to a level keeps the dose
    (HYDROCORTISONE_SAME, "Hydrocortisone unchanged at 10 mg + 5 mg. We do not titrate "
     "hydrocortisone to ACTH or cortisol levels.", True),
    (HYDROCORTISONE_SAME, "Hydrocortisone unchanged at 10 mg + 5 mg. Stop hydrocortisone.",
     False),
    # a labelled list of excluded agents ends where its nesting ends
    (FOSFOMYCIN_ONCE, "Plan: fosfomycin 3 g PO once.\n- Agents excluded:\n  - Nitrofurantoin: "
     "CrCl < 30.\n- Fosfomycin needs no renal adjustment for a single dose.", True),
    (FOSFOMYCIN_ONCE, "Plan: fosfomycin 3 g PO once.\n- Agents excluded:\n  - Nitrofurantoin: "
     "CrCl < 30.\n  - Fosfomycin: less effective.", False),
])
def test_reader_reads_replacements_titration_and_nested_lists(grade, spec, note, passed):
    assert grade(spec, note) is passed


FLC_RATIO_1_88 = {"note_value": {"concept": ["flc_ratio"], "value": 1.88, "tolerance": 0.01}}
ALDO_RENIN_ORDERED = {"note_decision": {"concept": ["pa_screen"], "action": ["order"]}}
INDETERMINATE = {"note_finding": {"concept": ["indeterminate_adrenal_phenotype"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a bare 'ratio' after the two measures it divides
    (FLC_RATIO_1_88, "Kappa 63.9 mg/L (H), lambda 34 mg/L (H), ratio 1.88.", True),
    (FLC_RATIO_1_88, "Kappa 63.9 mg/L (H), lambda 34 mg/L (H), ratio 2.88.", False),
    # what a plan line screens for is sought; the plan line is no hedge
    (ALDO_RENIN_ORDERED, "Plan:\n1. Screen for primary aldosteronism: aldosterone and renin.",
     True),
    (ALDO_RENIN_ORDERED, "Plan:\n1. Aldosterone and renin could be considered.", False),
    # a negation of the criteria ends where the clause goes on with 'and remains'
    (INDETERMINATE, "It does not meet criteria for a lipid-rich adenoma and remains "
     "indeterminate.", True),
    (INDETERMINATE, "It does not meet criteria for a lipid-rich adenoma or an indeterminate "
     "nodule.", False),
])
def test_reader_reads_bare_ratios_sought_findings_and_criteria(grade, spec, note, passed):
    assert grade(spec, note) is passed


WEIGHT_LOSS = {"note_decision": {"concept": ["weight_loss"],
                                 "action": ["start", "endorse", "counsel"], "opposite": []}}
TSH_ORDERED = {"note_decision": {"concept": ["tsh"], "action": ["order"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # 'the most effective measure' endorses its subject; after a determiner 'measure' is a noun
    (WEIGHT_LOSS, "Weight loss is the most effective measure (BMI 32.9).", True),
    (WEIGHT_LOSS, "Weight loss is hard for him (BMI 32.9).", False),
    (TSH_ORDERED, "Measure the TSH in 6 weeks.", True),
    (TSH_ORDERED, "TSH is the most useful measure of the dose; it was 2.1 in May.", False),
])
def test_reader_reads_a_measure_as_a_noun_or_a_verb(grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_SPEP_ROUTINELY = {"note_never": {"concept": ["spep"], "action": ["order"],
                                    "allow_contingency": True}}
STOP_SERTRALINE = {"note_decision": {"concept": ["sertraline"], "action": ["stop"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a trailing 'if' past an aside right before it is the plan's trigger
    (NO_SPEP_ROUTINELY, "I would only repeat SPEP (read against the renal range) if something "
     "new appears.", True),
    (NO_SPEP_ROUTINELY, "I would repeat SPEP (read against the renal range) in 6 months.",
     False),
    # ... not an 'if' of the next clause, after the aside and 'and,'
    (STOP_SERTRALINE, "I'd stop the sertraline (I've messaged you) and, if she still needs "
     "something for mood, use bupropion.", True),
])
def test_reader_reads_a_trigger_past_an_aside(grade, spec, note, passed):
    assert grade(spec, note) is passed


SPEP_NOT_ROUTINE = {"note_never": {"concept": ["spep"], "allow_contingency": True}}
NO_IRON_STARTED = {"note_never": {"concept": ["flc_ratio", "iv_iron"], "action": ["start"]}}
POLYCLONAL = {"note_finding": {"concept": ["polyclonal_flc_elevation"],
                               "opposite": ["light_chain_mgus"]}}
POLYCLONAL_STRICT = {"note_finding": {**POLYCLONAL["note_finding"], "strict": True}}
PRENATAL_DX_IF_CARRIER = {"note_never": {"concept": ["prenatal_diagnosis"],
                                         "action": ["start", "order", "refer", "endorse"],
                                         "allow_contingency": True}}
ORAL_IRON = {"note_decision": {"concept": ["oral_iron"], "action": ["start"]}}
NO_OPIOID = {"note_never": {"concept": ["opioid"],
                            "action": ["start", "resume", "continue", "endorse", "increase"]}}
NO_COLONOSCOPY_PLANNED = {"note_never": {"concept": ["colonoscopy"],
                                          "action": ["order", "endorse"]}}
STOP_LISINOPRIL = {"note_decision": {"concept": ["lisinopril"], "action": ["stop"]}}
START_TCA = {"note_decision": {"concept": ["amitriptyline"], "action": ["start"]}}
IBS_D = {"note_finding": {"concept": ["ibs_diarrhea"]}}
PLATELETS_61 = {"note_value": {"concept": ["platelets"], "value": 61}}
NO_STEROID_COURSE = {"note_never": {"concept": ["corticosteroid"], "allow_contingency": True}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a test kept for a new trigger, past an arrow, is a contingency
    (SPEP_NOT_ROUTINE, "P:\n- Retest only on new trigger (bone pain, Hb drop out of proportion) "
     "-> SPEP/IFE + sFLC read vs renal range.", True),
    (SPEP_NOT_ROUTINE, "P:\n- Retest in 6 months (bone pain, Hb drop out of proportion) "
     "-> SPEP/IFE + sFLC read vs renal range.", False),
    # '..., giving a ratio of' reports a result; giving a drug plans it
    (NO_IRON_STARTED, "Kappa is 63.9 mg/L and lambda 34 mg/L, giving a kappa to lambda ratio "
     "of 1.88.", True),
    (NO_IRON_STARTED, "Hb 8.1 and ferritin 6, so I am giving IV iron 510 mg today.", False),
    # 'plus' adds an affirmed finding to a negated one
    (POLYCLONAL, "No M-protein plus a polyclonal FLC elevation, so no light-chain MGUS.", True),
    (POLYCLONAL, "No M-protein and no polyclonal FLC elevation.", False),
    # strict: a diagnosis left open as possible contradicts the one the note must commit to
    (POLYCLONAL_STRICT, "Polyclonal FLC elevation from CKD; no light-chain MGUS.", True),
    (POLYCLONAL_STRICT, "Polyclonal FLC elevation, though possible early light-chain MGUS.",
     False),
    (POLYCLONAL, "Polyclonal FLC elevation, though possible early light-chain MGUS.", True),
    # an opening condition whose first consequence is a risk carries to the step after it
    (PRENATAL_DX_IF_CARRIER, "If he is also a carrier, each pregnancy has a 25% risk of "
     "thalassemia major, and she should be offered prenatal diagnosis by CVS.", True),
    (PRENATAL_DX_IF_CARRIER, "He is also a carrier, each pregnancy has a 25% risk of "
     "thalassemia major, and she should be offered prenatal diagnosis by CVS.", False),
    # ... also onto the item's wrapped line, whose lowercase words before a colon are no label
    (PRENATAL_DX_IF_CARRIER, "- If he is a carrier -> 25% risk of thalassemia major;\n"
     "  offer prenatal dx: CVS or amnio.", True),
    (PRENATAL_DX_IF_CARRIER, "- He is a carrier -> 25% risk of thalassemia major;\n"
     "  offer prenatal dx: CVS or amnio.", False),
    # what has not been tried yet is a reason, no refusal
    (ORAL_IRON, "## Plan\nDo not give: IV iron now (oral iron not yet tried)\n"
     "- Start ferrous sulfate 325 mg every other day.", True),
    (ORAL_IRON, "## Plan\nDo not give: IV iron or oral iron now.\n"
     "- Start ferrous sulfate 325 mg every other day.", False),
    # a treatment said to be ineffective is turned down; a refill continues it
    (NO_OPIOID, "Opioids are not an effective treatment for IBS pain, they can heighten visceral "
     "pain over time (narcotic bowel syndrome).", True),
    (NO_OPIOID, "Please do not refill the oxycodone.", True),
    (NO_OPIOID, "Refill oxycodone-acetaminophen 5/325, #30, max 2 tablets a day.", False),
    (NO_COLONOSCOPY_PLANNED, "A repeat colonoscopy or CT would not change management.", True),
    (NO_COLONOSCOPY_PLANNED, "Book a repeat colonoscopy to settle the question.", False),
    (STOP_LISINOPRIL, "Withhold lisinopril until the potassium is below 5.0.", True),
    (STOP_LISINOPRIL, "Lisinopril can continue.", False),
    # 'low-dose' sizes the dose: the verb still governs the drug
    (START_TCA, "Start low-dose amitriptyline 10 mg at bedtime.", True),
    (START_TCA, "Low-dose amitriptyline was tried in 2023.", False),
    # a sentence's period after 'IBS-D'
    (IBS_D, "Assessment: IBS-D.", True),
    (IBS_D, "Assessment: IBS-C.", False),
    # a grade's range is its definition, not the count
    (PLATELETS_61, "Platelets 61 on 4/11. CTCAE grade 2 (plt 50-<75).", True),
    (PLATELETS_61, "CTCAE grade 2 (plt 50-<75). Platelets 50 on 4/11.", False),
    (PLATELETS_61, "Platelets 61. A count between 50 and 75 makes it CTCAE grade 2.", True),
    # a dosed bridge until the next visit is planned now, not a contingency
    (NO_STEROID_COURSE, "Hold prednisone until the follow-up visit.", True),
    (NO_STEROID_COURSE, "Plan: prednisone 10 mg every other day, continued until the follow-up "
     "visit.", False),
])
def test_reader_reads_triggers_results_refusals_and_ranges(grade, spec, note, passed):
    assert grade(spec, note) is passed


@pytest.mark.parametrize(("text", "value", "high"), [
    ("Deliver between 36 0/7 and 39 0/7 weeks.", 36, 39),
    ("Deliver at 37+0 weeks.", 37, None),
    ("Deliver at 36 3/7 weeks.", 36.4, None),
    ("Abdominal ultrasound twice a year.", 6, None),
])
def test_gestational_ages_and_yearly_frequencies_are_read_in_weeks_and_months(text, value,
                                                                            high):
    found = [q for c in read_note(text).clauses for q in c.quantities]
    assert [(q.value, q.high) for q in found] == [(value, high)]


NO_LIVER_BIOPSY = {"note_never": {"concept": ["liver_biopsy"]}}
NO_PLATELET_TRANSFUSION = {"note_never": {"concept": ["platelet_transfusion"]}}
PEMBROLIZUMAB_HELD = {"note_decision": {"concept": ["pembrolizumab"], "action": ["stop"]}}
FIB4_2_2 = {"note_value": {"concept": ["fib4"], "value": 2.2, "tolerance": 0.1}}
PREDNISONE_1_MG_KG = {"note_decision": {"concept": ["prednisone"], "action": ["start"],
                                        "dose": {"min": 60, "max": 100, "unit": "mg"},
                                        "every": {"min": 1, "max": 1}}}
ITP_NOT_TMA = {"note_finding": {"concept": ["immune_thrombocytopenia"],
                                "opposite": ["thrombotic_microangiopathy"]}}
NO_MGRS = {"note_finding": {"concept": ["polyclonal_flc_elevation"],
                            "opposite": ["light_chain_mgrs"]}}
POTASSIUM_4_1 = {"note_value": {"concept": ["potassium_test"], "value": 4.1}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a struck-out item inside a line, and a 'Do not give' heading over its list
    (NO_LIVER_BIOPSY, "## Plan\n- Ursodiol 300 mg 3 times daily -> \u2717 liver biopsy  "
     "\u2717 ERCP", True),
    (NO_LIVER_BIOPSY, "## Plan\n- Ursodiol 300 mg 3 times daily -> liver biopsy", False),
    (NO_PLATELET_TRANSFUSION, "## Do not give\n- Platelet transfusion\n- Aspirin", True),
    (NO_PLATELET_TRANSFUSION, "## Give today\n- Platelet transfusion", False),
    # 'on first-line pembrolizumab' names what he is on; it is no decision about it
    (PEMBROLIZUMAB_HELD, "#2 Lung adenocarcinoma on first-line pembrolizumab\n"
     "- Hold pembrolizumab until platelets recover.", True),
    (PEMBROLIZUMAB_HELD, "#2 Lung adenocarcinoma on first-line pembrolizumab\n"
     "- Pembrolizumab is first-line and should continue.", False),
    # a result after the inputs a score was calculated from
    (FIB4_2_2, "FIB-4 calculated from those April labs, age 58, is 2.2.", True),
    (FIB4_2_2, "FIB-4 calculated from those April labs, age 58, is 3.4.", False),
    # a dosed start, then '-> taper' as the later step
    (PREDNISONE_1_MG_KG, "## Recs\n- Prednisone 80 mg PO daily (~1 mg/kg) x 4 wk -> taper over "
     "4-6 wk.", True),
    (PREDNISONE_1_MG_KG, "## Recs\n- Prednisone 20 mg PO daily x 4 wk -> taper over 4-6 wk.",
     False),
    # verdicts past an aside, after a label or an arrow, and over a list
    (ITP_NOT_TMA, "Immune thrombocytopenia from pembrolizumab. A thrombotic microangiopathy "
     "(TTP or drug-induced TMA) is very unlikely.", True),
    (ITP_NOT_TMA, "Immune thrombocytopenia from pembrolizumab. A thrombotic microangiopathy "
     "(TTP or drug-induced TMA) is likely too.", False),
    (ITP_NOT_TMA, "Immune thrombocytopenia. TMA / marrow process -> not supported.", True),
    (ITP_NOT_TMA, "Immune thrombocytopenia. TMA / marrow process -> supported.", False),
    (ITP_NOT_TMA, "Immune thrombocytopenia. TMA: not supported (no schistocytes).", True),
    (ITP_NOT_TMA, "Immune thrombocytopenia. Differential considered and not supported: "
     "TTP/TMA, DIC.", True),
    (ITP_NOT_TMA, "Immune thrombocytopenia. TMA -> no (no schistocytes).", True),
    (ITP_NOT_TMA, "Immune thrombocytopenia. TMA -> yes (schistocytes).", False),
    (NO_MGRS, "Polyclonal FLC elevation; there is no paraprotein to raise monoclonal "
     "gammopathy of renal significance.", True),
    (NO_MGRS, "Polyclonal FLC elevation; the paraprotein raises monoclonal gammopathy of "
     "renal significance.", False),
    # '75K' is a count in thousands, not potassium
    (POTASSIUM_4_1, "Plt 61K, K 4.1.", True),
    (POTASSIUM_4_1, "Plt 61, K 5.1.", False),
])
def test_reader_reads_struck_items_verdicts_and_later_steps(grade, spec, note, passed):
    assert grade(spec, note) is passed


SPHINCTER_NOT_CAUDA = {"note_finding": {"concept": ["anal_sphincter_weakness"],
                                        "opposite": ["cauda_equina_syndrome", "fecal_impaction"]}}
NO_OTHER_ANTIMUSCARINIC = {"note_never": {"concept": ["bladder_antimuscarinic"]}}
STRESS_INCONTINENCE = {"note_finding": {"concept": ["stress_urinary_incontinence"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    (SPHINCTER_NOT_CAUDA, "Anal sphincter weakness. Nor do I think this is a cauda equina "
     "problem: perianal sensation is preserved.", True),
    (SPHINCTER_NOT_CAUDA, "Anal sphincter weakness. I do think this is a cauda equina problem: "
     "perianal sensation is reduced.", False),
    # a list under a heading that sets its items aside
    (SPHINCTER_NOT_CAUDA, "Assessment: anal sphincter weakness.\n\nI considered and think "
     "unlikely:\n- Overflow from fecal impaction - the rectal vault was empty.", True),
    (SPHINCTER_NOT_CAUDA, "Assessment: anal sphincter weakness.\n\nI also think likely:\n"
     "- Overflow from fecal impaction - the rectal vault was full.", False),
    (NO_OTHER_ANTIMUSCARINIC, "Plan: Stop oxybutynin; no alternative bladder antimuscarinic.",
     True),
    (NO_OTHER_ANTIMUSCARINIC, "Plan: Stop oxybutynin; an alternative bladder antimuscarinic "
     "is reasonable.", False),
    # what a drug does not treat is still the diagnosis
    (STRESS_INCONTINENCE, "Stress urinary incontinence. Stop the oxybutynin, it does not treat "
     "stress incontinence.", True),
    (STRESS_INCONTINENCE, "Stop the oxybutynin. This is not stress incontinence.", False),
    # a grade's range spoken as 'fifty to under seventy-five'
    (PLATELETS_61, "Platelets 61. Grade two by CTCAE, that is platelets fifty to under "
     "seventy-five.", True),
    (PLATELETS_61, "Grade two by CTCAE. Platelets are fifty today.", False),
])
def test_reader_reads_set_aside_diagnoses_and_spoken_ranges(grade, spec, note, passed):
    assert grade(spec, note) is passed


START_DAA = {"note_decision": {"concept": ["hcv_daa"], "action": ["start", "refer"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a drug after 'before' is what a precondition leads to, not yet a plan of it
    (START_DAA, "## Recs\n- Require 6 months of complete alcohol abstinence before DAAs.", False),
    (START_DAA, "## Recs\n- Check HBsAg, then start glecaprevir/pibrentasvir for 8 weeks.", True),
    (START_DAA, "## Recs\n- He should be treated with glecaprevir/pibrentasvir for 8 weeks.",
     True),
    (START_DAA, "## Recs\n- I recommend treating his hepatitis C with glecaprevir/pibrentasvir.",
     True),
    (START_DAA, "## History\n- His hepatitis C was never treated.", False),
])
def test_reader_reads_a_precondition_and_a_treatment_told_with_its_disease(grade, spec, note,
                                                                           passed):
    assert grade(spec, note) is passed


KEEP_ULTRASOUND = {"note_never": {"concept": ["abdominal_ultrasound"],
                                  "action": ["stop", "avoid"]}}
NO_LIVER_BIOPSY = {"note_never": {"concept": ["liver_biopsy"],
                                  "action": ["order", "start", "implicit"]}}
NO_ARB_PLANNED = {"note_never": {"concept": ["arb"], "action": ["start", "endorse"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a must-not is broken by a step planned for later ('..., then stop')
    (KEEP_ULTRASOUND, "Plan:\n- Liver ultrasound every 6 months for 2 years, then stop.", False),
    (KEEP_ULTRASOUND, "Plan:\n- Liver ultrasound every 6 months, lifelong.", True),
    # a later verb that is not a next step ('given pregnancy plans') plans nothing
    (NO_ARB_PLANNED, "Plan:\n- Avoid ACEi/ARB given pregnancy plans.", True),
    # a test 'before treatment' in a plan line is a test to do, in a history a past one
    (NO_LIVER_BIOPSY, "Plan:\n- Liver biopsy to confirm cirrhosis before treatment.", False),
    (NO_LIVER_BIOPSY, "History:\n- Liver biopsy before treatment showed F2 fibrosis.", True),
])
def test_reader_reads_a_later_stop_and_a_test_before_treatment(grade, spec, note, passed):
    assert grade(spec, note) is passed


STOP_OXYBUTYNIN = {"note_decision": {"concept": ["oxybutynin"], "action": ["stop"]}}
START_PREDNISONE = {"note_decision": {"concept": ["prednisone"], "action": ["start"]}}
NO_STEROID_FREE_OBSERVATION = {"note_never": {"concept": ["steroid_free_observation"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # what to come back for is no finding of today
    (SPHINCTER_NOT_CAUDA, "Anal sphincter weakness. Return precautions for cauda equina "
     "syndrome: saddle numbness or leg weakness.", True),
    (SPHINCTER_NOT_CAUDA, "Anal sphincter weakness. Signs of cauda equina syndrome: saddle "
     "numbness and leg weakness.", False),
    # 'it' in an answer stands for what the question asked about
    (STOP_OXYBUTYNIN, "**Q: Should I continue or increase the oxybutynin?**\nA: Neither - "
     "please stop it.", True),
    (STOP_OXYBUTYNIN, "**Q: Should I continue or increase the oxybutynin?**\nA: Neither - "
     "she can decide.", False),
    # a result told in the past tense is the result, not a dose replaced
    (PLATELETS_61, "His platelet count at your visit was 61 x10^3/uL.", True),
    (PLATELETS_61, "His platelet count at your visit was 75 x10^3/uL.", False),
    # a dictated title over its spoken list opens that section
    (START_PREDNISONE, "Recommendations. Number one, hold the pembrolizumab. Number two, "
     "prednisone eighty milligrams by mouth once daily.", True),
    (START_PREDNISONE, "Background. Number one, he took pembrolizumab. Number two, "
     "prednisone eighty milligrams by mouth once daily.", False),
    # a verdict after a coordinated subject judges each member
    (NO_STEROID_FREE_OBSERVATION, "Plan:\n- Prednisone 80 mg daily. Alternatively, since he "
     "has only dry purpura, observation without steroids and a weekly CBC would also be "
     "reasonable.", False),
    (NO_STEROID_FREE_OBSERVATION, "Plan:\n- Prednisone 80 mg daily; observation without "
     "steroids is not advised, and a weekly CBC would be reasonable.", True),
])
def test_reader_reads_return_precautions_answers_and_spoken_lists(grade, spec, note, passed):
    assert grade(spec, note) is passed


HOLD_PEMBROLIZUMAB = {"note_decision": {"concept": ["pembrolizumab"], "action": ["stop"],
                                        "temporary": True}}
ADAMTS13_BEFORE_PLASMA = {"note_decision": {"concept": ["adamts13"], "action": ["order"],
                                            "before": ["plasma_exchange"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a hold asked for: a stop for good contradicts it, a later rechallenge does not
    (HOLD_PEMBROLIZUMAB, "Plan: Discontinue pembrolizumab permanently.", False),
    (HOLD_PEMBROLIZUMAB, "Plan: Hold pembrolizumab until platelets recover to at least 75; "
     "rechallenge is then reasonable.", True),
    # a step that must come first: timed after the other one, it contradicts
    (ADAMTS13_BEFORE_PLASMA, "Plan: Start plasma exchange now; check ADAMTS13 after the first "
     "exchange.", False),
    (ADAMTS13_BEFORE_PLASMA, "Plan: Draw ADAMTS13 now, before the first plasma exchange.", True),
])
def test_a_hold_is_no_stop_for_good_and_a_first_step_comes_first(grade, spec, note, passed):
    assert grade(spec, note) is passed


DELIVERY_36_39 = {"note_value": {"concept": ["delivery_timing"], "min": 36, "max": 39,
                                 "unit": "wk", "strict": True}}
BILE_ACIDS_46 = {"note_value": {"concept": ["bile_acids"], "value": 46}}
LIVER_BIOPSY_PLANNED = {"note_decision": {"concept": ["liver_biopsy"],
                                          "action": ["order", "endorse"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # strict: a wrong week offered as an alternative, even on a trigger, fails
    (DELIVERY_36_39, "Plan: Delivery between 36 0/7 and 39 0/7 weeks. Alternatively, if the "
     "itching remains intolerable, elective delivery at 35 weeks after a course of steroids is "
     "a reasonable option.", False),
    (DELIVERY_36_39, "Plan: Delivery between 36 0/7 and 39 0/7 weeks, or at 36 weeks if bile "
     "acids reach 100.", True),
    # an answer under its question measures what was asked, not the test in its aside
    (DELIVERY_36_39, "**When should she deliver?**\nBetween 36 0/7 and 39 0/7 weeks (SMFM, for "
     "bile acids <100 umol/L).", True),
    # 'without' a finding does not reach a result stated with its value
    (BILE_ACIDS_46, "She has pruritus without rash, total bile acids of 46 umol/L.", True),
    (BILE_ACIDS_46, "She has pruritus without rash, total bile acids of 64 umol/L.", False),
    # 'I would also like' asks for it; 'the upper limit' is no verb
    (LIVER_BIOPSY_PLANNED, "Because the ALT is over 3 times the upper limit, I would also like "
     "a percutaneous liver biopsy.", True),
    (LIVER_BIOPSY_PLANNED, "Because the ALT is over 3 times the upper limit, a liver biopsy "
     "was discussed and declined.", False),
])
def test_reader_reads_offered_weeks_answers_values_after_without_and_requests(grade, spec, note,
                                                                             passed):
    assert grade(spec, note) is passed


CEPHALEXIN_QID = {"note_decision": {"concept": ["cephalexin"], "action": ["start"],
                                    "dose": {"value": 500, "unit": "mg"},
                                    "every": {"min": 4, "max": 4}}}
NO_AMOXICILLIN = {"note_never": {"concept": ["amoxicillin"]}}
BURSECTOMY_REFERRAL = {"note_decision": {"concept": ["bursectomy"], "action": ["refer", "order"]}}
FLUCONAZOLE_800 = {"note_decision": {"concept": ["fluconazole"], "action": ["start"],
                                     "dose": {"value": 800, "unit": "mg"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # an offer stays an offer past the reason given for it
    (NO_AMOXICILLIN, "Plan: Cephalexin 500 mg PO four times daily for 14 days; alternatively, "
     "since he tolerated it well in January, amoxicillin 875 mg PO twice daily is a reasonable "
     "and simpler option.", False),
    (NO_AMOXICILLIN, "Plan: Cephalexin 500 mg PO four times daily for 14 days.", True),
    # 'if ..., then' after an arrow: the step waits for its trigger
    (BURSECTOMY_REFERRAL, "Plan:\n-> surgery: hold off for now -> if a 5th episode occurs, "
     "then refer ortho for bursectomy", False),
    (BURSECTOMY_REFERRAL, "Plan:\n-> surgery: refer ortho for bursectomy now\n-> if a 5th "
     "episode occurs, then see him sooner", True),
    # a dictated 'One, ... Two, ...' list under its heading is the plan
    (CEPHALEXIN_QID, "Impression: septic bursitis.\n\nRecommendations. One, cephalexin five "
     "hundred milligrams by mouth four times a day for fourteen days. Two, recheck in 48 "
     "hours.", True),
    (CEPHALEXIN_QID, "Impression: septic bursitis.\n\nRecommendations. One, cephalexin five "
     "hundred milligrams by mouth twice a day for fourteen days. Two, recheck in 48 hours.",
     False),
    # a count of tablets of a strength is the dose they make
    (FLUCONAZOLE_800, "Plan: Fluconazole, 4 of the 200 milligram tablets once a day.", True),
    (FLUCONAZOLE_800, "Plan: Fluconazole, 2 of the 200 milligram tablets once a day.", False),
    (FLUCONAZOLE_800, "Plan: Fluconazole 800 mg PO daily - Rx entered (200 mg tab x 4 qd).", True),
    # 'Stop date' labels the end of the course; it stops nothing now
    (FLUCONAZOLE_800, "| Item | Detail |\n|---|---|\n| Drug | fluconazole 800 mg by mouth once "
     "daily |\n| Stop date | 2026-03-18 |", True),
    (FLUCONAZOLE_800, "| Item | Detail |\n|---|---|\n| Drug | fluconazole 400 mg by mouth once "
     "daily |\n| Stop date | 2026-03-18 |", False),
])
def test_reader_reads_offers_after_reasons_triggers_dictated_lists_and_tablet_counts(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


ESCITALOPRAM_TO_10 = {"note_decision": {"concept": ["escitalopram"], "action": ["decrease"],
                                        "dose": {"value": 10, "unit": "mg", "per_day": True}}}
BUPROPION_150 = {"note_decision": {"concept": ["bupropion"], "action": ["start"],
                                   "dose": {"value": 150, "unit": "mg"}}}
VISIT_PLANNED = {"note_decision": {"concept": ["follow_up_visit"], "action": ["order"]}}
ACTIVE_SURVEILLANCE = {"note_decision": {"concept": ["active_surveillance"],
                                         "action": ["continue"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # another test's values after the drug change no dose of it
    (ESCITALOPRAM_TO_10, "She has gained 8 kg on escitalopram and her HbA1c has risen from "
     "5.4% to 6.0%.\n\nPlan: reduce escitalopram to 10 mg daily.", True),
    (ESCITALOPRAM_TO_10, "She has gained 8 kg on escitalopram and her HbA1c has risen from "
     "5.4% to 6.0%.\n\nPlan: increase escitalopram to 30 mg daily.", False),
    # an arrow's change now, 'then stop' later
    (ESCITALOPRAM_TO_10, "Plan:\n- Escitalopram 20 mg -> 10 mg PO once daily x 14 days, then "
     "stop.", True),
    (ESCITALOPRAM_TO_10, "Plan:\n- Escitalopram 20 mg PO once daily x 14 days, then stop.",
     False),
    # a sentence whose own step comes before its 'then' is not the last sentence's consequence
    (ESCITALOPRAM_TO_10, "If she tolerates it, go up to 300 mg after 1 to 2 weeks. Escitalopram "
     "comes down from 20 to 10 mg once daily for 2 weeks, then stops.", True),
    (ESCITALOPRAM_TO_10, "If she tolerates it, go up to 300 mg after 1 to 2 weeks. Then "
     "escitalopram comes down from 20 to 10 mg once daily.", False),
    # 'starting now' starts it; a dose after a later step's increase is that step's
    (BUPROPION_150, "Plan: Bupropion XL 150 mg by mouth once daily in the morning, starting "
     "now.", True),
    (BUPROPION_150, "Plan: Bupropion XL 150 mg PO daily -> start today -> increase 300 mg after "
     "1-2 wk if tolerated", True),
    (BUPROPION_150, "Plan: Bupropion XL 300 mg PO daily -> start today", False),
    # '5 May' is a date, not the modal 'may'
    (VISIT_PLANNED, "## Follow-up\nPsychiatry visit 5 May 2026.", True),
    (VISIT_PLANNED, "## Follow-up\nPsychiatry visit may be needed.", False),
    # a term that names the concept only in its written case
    (ACTIVE_SURVEILLANCE, "Plan: Continue AS w/ urology.", True),
    (ACTIVE_SURVEILLANCE, "Plan: Continue as before with urology.", False),
])
def test_reader_reads_dose_changes_starts_dates_and_cased_terms(grade, spec, note, passed):
    assert grade(spec, note) is passed


SIADH_PRESENT = {"note_finding": {"concept": ["siadh"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a verdict of exclusion, after 'has been' or as the verb of other findings, denies it
    (SIADH_PRESENT, "Assessment: SIADH has been excluded.", False),
    (SIADH_PRESENT, "Assessment: the urine osmolality of 80 excludes SIADH.", False),
    (SIADH_PRESENT, "Assessment: SIADH; hypovolemia has been excluded.", True),
    (SIADH_PRESENT, "Assessment: SIADH. Urine osmolality was drawn to exclude hypovolemia.", True),
    (SIADH_PRESENT, "Assessment: SIADH. His liver disease rules out tolvaptan (for SIADH) as "
     "treatment.", True),
])
def test_a_finding_excluded_is_denied(grade, spec, note, passed):
    assert grade(spec, note) is passed


NALOXONE_STARTED = {"note_decision": {"concept": ["naloxone"], "action": ["start"],
                                      "strict": True}}
SERTRALINE_KEPT_AT_200 = {"note_decision": {"concept": ["sertraline"], "action": ["continue"],
                                            "dose": {"value": 200, "unit": "mg"},
                                            "opposite": ["stop", "switch", "decrease"],
                                            "required": False}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a passive offer dated in the past, or turned down, reports; it starts nothing
    (NALOXONE_STARTED, "Plan: Naloxone was offered last year and declined.", False),
    (NALOXONE_STARTED, "Plan: Naloxone 4 mg nasal spray was prescribed today.", True),
    # a refusal reaches every verb of its list
    (SERTRALINE_KEPT_AT_200, "Plan: Continue sertraline 200 mg once daily (do not reduce, stop "
     "or switch).", True),
    # a committed change to another dose contradicts keeping the dose
    (SERTRALINE_KEPT_AT_200, "Plan: Increase sertraline to 250 mg once daily.", False),
    (SERTRALINE_KEPT_AT_200, "History: sertraline 50 -> 200 mg (titrated Jan-Feb).\nPlan: "
     "continue sertraline 200 mg daily.", True),
])
def test_reader_reads_past_offers_refused_lists_and_dose_changes_against_a_kept_dose(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


def test_a_line_opening_with_a_comparator_is_no_quote():
    clause = read_note("≥15 headache days a month for 3 months").clauses[0]
    assert clause.text.startswith(">=15")
    assert read_note("> Is this chronic migraine?").clauses[0].text.startswith("Is this")


TOPIRAMATE_STARTED = {"note_decision": {"concept": ["topiramate"], "action": ["start"],
                                         "opposite": ["stop"]}}
NO_BETA_BLOCKER = {"note_never": {"concept": ["beta_blocker"]}}
MS_DENIED = {"note_decision": {"concept": ["multiple_sclerosis"], "action": ["avoid"]}}
CHRONIC_MIGRAINE = {"note_finding": {"concept": ["chronic_migraine"]}}
EPISODIC_NOT_CHRONIC = {"note_finding": {"concept": ["episodic_migraine"],
                                         "opposite": ["chronic_migraine"]}}
TRANSPLANT_POSTPONED = {"note_decision": {"concept": ["living_donor_kidney_transplant"],
                                           "action": ["avoid"], "opposite": ["endorse"],
                                           "dose_required": False}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a sudden symptom before a colon is the trigger of what follows it
    (TOPIRAMATE_STARTED, "## Plan\n- Start topiramate 25 mg nightly.\n### Counselling\n- Sudden "
     "eye pain or blurred vision: stop topiramate and seek urgent care.", True),
    (TOPIRAMATE_STARTED, "## Plan\n- Start topiramate 25 mg nightly.\n### Counselling\n- Eye "
     "pain since last week: stop topiramate.", False),
    # a drug praised in general, then turned down for this patient, is turned down
    (NO_BETA_BLOCKER, "Plan: Propranolol is also first line for migraine, but non-selective "
     "beta-blockers can provoke bronchospasm, so it is avoided in her asthma.", True),
    (NO_BETA_BLOCKER, "Plan: Propranolol is first line for migraine, and it is started at "
     "40 mg twice daily.", False),
    # an option offered beside the plan, however it is worded
    (NO_BETA_BLOCKER, "Plan: start amitriptyline 10 mg at bedtime.\n- Propranolol would be "
     "another option.", False),
    (NO_BETA_BLOCKER, "Plan: start amitriptyline 10 mg at bedtime.\nOther options: propranolol "
     "40 mg twice daily.", False),
    # 'not in locations that would suggest X' denies X
    (MS_DENIED, "Assessment: the foci are not in locations that would suggest multiple sclerosis.",
     True),
    (MS_DENIED, "Assessment: the foci are in locations that would suggest multiple sclerosis.",
     False),
    # criteria met, then an arrow to the diagnosis, is the diagnosis
    (CHRONIC_MIGRAINE, "Dx:\n- >=15 HA d/mo x >3 mo + >=8 migraine d/mo -> CHRONIC MIGRAINE",
     True),
    # 'at risk of progressing to X' does not diagnose X
    (EPISODIC_NOT_CHRONIC, "Assessment: high-frequency episodic migraine, at risk of "
     "progressing to chronic migraine.", True),
    (EPISODIC_NOT_CHRONIC, "Assessment: high-frequency episodic migraine, now chronic "
     "migraine.", False),
    # a plan the chart already holds, listed under the chart review, decides nothing
    (TRANSPLANT_POSTPONED, "## Chart review\n- [x] Transplant plan: LDKT (brother), "
     "basiliximab induction\n## Plan\n- Postpone the living-donor kidney transplant.", True),
    (TRANSPLANT_POSTPONED, "## Plan\n- Transplant plan: LDKT (brother), basiliximab "
     "induction\n- Postpone the living-donor kidney transplant.", False),
])
def test_reader_reads_triggers_refusals_offers_and_plans_on_file(grade, spec, note, passed):
    assert grade(spec, note) is passed


def test_a_day_number_is_no_vitamin_d():
    """'d2' is day 2 of a course; only 'D2' as written is vitamin D2."""
    def drugs(text: str) -> set[str]:
        return {c for clause in read_note(text).clauses for m in clause.mentions
                for c in m.concepts}
    assert "vitamin_d" not in drugs("Plan: remdesivir 200 mg IV d1, then 100 mg IV d2-3.")
    assert "vitamin_d" in drugs("Plan: start D2 50,000 units weekly.")


NO_BENZODIAZEPINE = {"note_never": {"concept": ["benzodiazepine"]}}
NO_BUPROPION = {"note_never": {"concept": ["bupropion"]}}
NO_VENLAFAXINE = {"note_never": {"concept": ["venlafaxine"]}}
BUPRENORPHINE_KEPT_AT_16 = {"note_decision": {
    "concept": ["buprenorphine"], "action": ["continue", "keep_dose"],
    "opposite": ["stop", "switch", "decrease"], "strict": True,
    "dose": {"value": 16, "unit": "mg", "per_day": True}, "dose_required": False}}
BUPRENORPHINE_BACK_TO_16 = {"note_decision": {
    "concept": ["buprenorphine"], "action": ["increase", "resume", "start", "continue"],
    "dose": {"min": 16, "max": 24, "unit": "mg", "per_day": True}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # 'A or, if needed, B' offers B; limits between a drug and 'is reasonable' still allow it
    (NO_BENZODIAZEPINE, "Plan: hydroxyzine or, if needed, a brief benzodiazepine bridge.", False),
    (NO_BENZODIAZEPINE, "Plan: clonazepam 0.5 mg as needed, no more than twice daily, for a "
     "maximum of two to three weeks is reasonable.", False),
    # the referral's question retold, in passing or by its asker, plans nothing
    (NO_BENZODIAZEPINE, "Plan: start duloxetine 30 mg daily. Her primary care physician asks "
     "whether to add clonazepam.", True),
    (NO_BENZODIAZEPINE, "She has GAD, referred by her PCP, who asks whether to add clonazepam or "
     "bupropion. Plan: start duloxetine 30 mg daily.", True),
    # 'augment with' starts a drug; 'adding it would not solve ...' turns it down
    (NO_BUPROPION, "Plan: start duloxetine. Alternatively, augment with bupropion.", False),
    (NO_BUPROPION, "Plan: start duloxetine.\n- Bupropion: it does not treat anxiety, and adding "
     "it would not solve the non-response.", True),
    # 'is a good fit' endorses
    (NO_VENLAFAXINE, "Plan: venlafaxine XR 75 mg daily is a good fit for both conditions.", False),
    # a taper planned with no drug named tapers the drug of the plan; a taper told as a risk,
    # or refused, does not
    (BUPRENORPHINE_KEPT_AT_16, "Plan: continue buprenorphine 16 mg daily. Begin a gradual taper "
     "in 1 month.", False),
    (BUPRENORPHINE_KEPT_AT_16, "Plan: continue buprenorphine 16 mg daily. A slow taper is "
     "reasonable now if she wishes.", False),
    (BUPRENORPHINE_KEPT_AT_16, "Plan: continue buprenorphine 16 mg daily; no taper now. "
     "Tapering in the middle of a depressive episode is a setup for relapse.", True),
    # a drug named after 'on' is not the subject of the next verbless dose
    (BUPRENORPHINE_KEPT_AT_16, "Plan:\n- Start escitalopram 10 mg daily. No effect on bup 3A4 "
     "metabolism. No ECG needed at 10 mg.\n- Continue buprenorphine 16 mg daily.", True),
    # a dose changed back, a return to a dose, and films counted by strength
    (BUPRENORPHINE_BACK_TO_16, "Plan: increase buprenorphine back to 16 mg daily.", True),
    (BUPRENORPHINE_BACK_TO_16, "Plan: go back to buprenorphine 16 mg daily.", True),
    (BUPRENORPHINE_BACK_TO_16, "Plan: increase buprenorphine to two 8 mg films daily.", True),
    (BUPRENORPHINE_BACK_TO_16, "Plan: increase buprenorphine to one 8 mg film daily.", False),
])
def test_reader_reads_offers_retold_questions_tapers_and_doses_changed_back(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


def test_a_cycle_threshold_is_a_value_and_a_closed_negation_leaves_it():
    assert [q.role for q in quantities("N2 cycle threshold 21")] == [""]
    assert [q.role for q in quantities("below the threshold 21")] == ["limit"]
    clause = read_note("Assessment: residual RNA shedding, not active infection, Ct 37.").clauses[0]
    ct = next(m for m in clause.mentions if "sars_cov_2_ct" in m.concepts)
    assert not ct.negated


ALLOPURINOL_LOW_START = {"note_decision": {"concept": ["allopurinol"], "action": ["start"],
                                           "opposite": ["avoid"],
                                           "dose": {"min": 25, "max": 100, "unit": "mg"}}}
NO_COLCHICINE = {"note_never": {"concept": ["colchicine"]}}
NO_NSAID = {"note_never": {"concept": ["nsaid"]}}
NO_SEROLOGY = {"note_decision": {"concept": ["hpylori_serology"], "action": ["avoid"]}}
PREDNISONE_40 = {"note_decision": {"concept": ["prednisone"], "action": ["start"],
                                   "dose": {"min": 30, "max": 40, "unit": "mg"}}}
COLCHICINE_AT_MOST_BID = {"note_decision": {"concept": ["colchicine"], "action": ["start"],
                                            "every": {"max": 2}, "required": False}}
NO_CORTICOSTEROID = {"note_never": {"concept": ["corticosteroid"]}}
NO_COMBINED_PILL = {"note_never": {"concept": ["combined_hormonal_contraceptive"]}}
NO_HEAD_CT = {"note_never": {"concept": ["head_ct"], "action": [
    "start", "resume", "continue", "increase", "endorse", "allow", "implicit", "order"]}}
DEFERASIROX_1080 = {"note_decision": {"concept": ["deferasirox"], "action": ["start"],
                                      "dose": {"min": 974, "max": 1154, "unit": "mg"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a 'DO NOT GIVE:' list ends at a new labelled paragraph after a blank line
    (ALLOPURINOL_LOW_START, "DO NOT GIVE:\n- Colchicine.\n- NSAIDs.\n\nULT: YES.\n"
     "- Allopurinol 50 mg daily, start now under the pred cover (tolerated 300 mg 11/25).", True),
    (ALLOPURINOL_LOW_START, "DO NOT GIVE:\n- Colchicine.\n- NSAIDs.\n- Allopurinol 50 mg daily.",
     False),
    # drug levels that 'can rise' offer nothing; a drug whose use 'may help' is offered
    (NO_COLCHICINE, "No colchicine: with voriconazole, colchicine levels can rise to the point "
     "of death.", True),
    (NO_COLCHICINE, "With voriconazole on board, colchicine use may still be reasonable.", False),
    # a dictated title opening its paragraph is a heading
    (PREDNISONE_40, "Reason for consult: gout flare.\n\nHistory. Third flare in a year.\n\n"
     "Recommendations, number one. Prednisone 40 milligrams by mouth once daily for five days.",
     True),
    (PREDNISONE_40, "Reason for consult: gout flare.\n\nHistory. Third flare in a year, treated "
     "with prednisone 40 milligrams by mouth once daily for five days.", False),
    # 'X: 40 mg ..., then stop' plans X; the stop is a later step
    (PREDNISONE_40, "Oral prednisone: 40 mg once daily for 5 days, then stop.", True),
    (PREDNISONE_40, "Oral prednisone: stop.", False),
    # 'every hour' and 'hourly' are 24 a day
    (COLCHICINE_AT_MOST_BID, "Start colchicine 0.6 mg twice daily.", True),
    (COLCHICINE_AT_MOST_BID, "Start colchicine 0.6 mg every hour until relief.", False),
    (COLCHICINE_AT_MOST_BID, "Start colchicine 0.6 mg hourly.", False),
    # a verbless dosed drug after a comma-closed trigger is a conditional plan line
    (NO_NSAID, "Prednisone 40 mg daily. If pain persists, acetaminophen 1 g three times daily.",
     True),
    (NO_NSAID, "Prednisone 40 mg daily. If pain persists, naproxen 250 mg twice daily.", False),
    # a dose pack with a trigger, and a procedure after its route, are plan lines
    (NO_CORTICOSTEROID, "Plan: colchicine 1.2 mg now. Medrol dose pack is not an option.", True),
    (NO_CORTICOSTEROID, "Plan: colchicine 1.2 mg now. Medrol dose pack if no better.", False),
    # 'is a reasonable fallback' and 'are alternatives' offer what comes before them
    (NO_COMBINED_PILL, "Start the progestin-only pill. The patch is not an option.", True),
    (NO_COMBINED_PILL, "Start the progestin-only pill. If she finds daily timing too hard, the "
     "weekly patch (Xulane) is a reasonable fallback.", False),
    # the answer to 'What should NOT be ordered?' lists what to avoid
    (NO_HEAD_CT, "**Q3. What should NOT be ordered?**\nA head CT.", True),
    (NO_HEAD_CT, "**Q3. What should be ordered?**\nA head CT.", False),
    # 'three three-hundred-sixty milligram tablets' is a count of a strength
    (DEFERASIROX_1080, "Plan. Start deferasirox, one thousand eighty milligrams, that is three "
     "three-hundred-sixty milligram tablets, by mouth once daily.", True),
    (DEFERASIROX_1080, "Plan. Start deferasirox 360 milligrams by mouth once daily.", False),
])
def test_reader_reads_avoid_lists_dictated_titles_hourly_doses_and_fallbacks(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


VALACYCLOVIR_1G_BID = {"note_decision": {"concept": ["valacyclovir"], "action": ["start"],
                                         "dose": {"value": 1000, "unit": "mg"},
                                         "every": {"min": 2, "max": 2}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a dose quoted to turn it down is no contradiction; a second committed dose is
    (VALACYCLOVIR_1G_BID, "Valacyclovir 1 g every 12 hours for 7 days. Not 1 g TID: that is for "
     "CrCl >=50.", True),
    (VALACYCLOVIR_1G_BID, "Valacyclovir 1 g every 12 hours for 7 days. The proposed 1 g TID "
     "exceeds her renal dose.", True),
    (VALACYCLOVIR_1G_BID, "Valacyclovir 1 g every 12 hours for 7 days. Valacyclovir 1 g TID for "
     "7 days.", False),
    # a dose table keyed by bands of clearance quotes the label
    (VALACYCLOVIR_1G_BID, "| CrCl (mL/min) | Valacyclovir |\n|---|---|\n| >=50 | 1 g q8h |\n"
     "| 30-49 | 1 g q12h |\n\nValacyclovir 1 g PO q12h x 7 days.", True),
    (VALACYCLOVIR_1G_BID, "| Plan | Valacyclovir |\n|---|---|\n| now | 1 g q8h |\n\n"
     "Valacyclovir 1 g PO q12h x 7 days.", False),
    # a dosed drug called 'an acceptable alternative' offers that dose
    (VALACYCLOVIR_1G_BID, "1. Valacyclovir 1 g every 12 hours for 7 days.\n2. No prednisone."
     "\n\nValacyclovir 1 g every 12 hours is an acceptable alternative to three times daily.",
     True),
    (VALACYCLOVIR_1G_BID, "1. Valacyclovir 1 g every 12 hours for 7 days.\n2. No prednisone."
     "\n\nValacyclovir 1 g three times daily is an acceptable alternative.", False),
])
def test_reader_reads_turned_down_doses_band_tables_and_dosed_alternatives(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_REPEAT_PELVIC_US = {"note_decision": {"concept": ["pelvic_ultrasound"], "action": ["avoid"]}}
THICKENED_ENDOMETRIUM = {"note_finding": {"concept": ["thickened_endometrium"]}}
ENDOMETRIAL_BIOPSY_NOW = {"note_decision": {"concept": ["endometrial_biopsy"],
                                            "action": ["order"]}}
NO_CEPHALEXIN = {"note_decision": {"concept": ["cephalexin", "antibiotic"], "action": ["avoid"]}}
NO_NEOMYCIN = {"note_decision": {"concept": ["neomycin"], "action": ["stop", "avoid"]}}
NOT_AOE = {"note_finding": {"concept": ["ear_canal_dermatitis"],
                            "opposite": ["acute_otitis_externa"]}}
NO_COMBINED_PILL_NOW = {"note_decision": {"concept": ["combined_hormonal_contraceptive"],
                                          "action": ["avoid"], "strict": True}}
FLUOCINOLONE_7_14_DAYS = {"note_decision": {"concept": ["fluocinolone"], "action": ["start"],
                                            "dose_required": False,
                                            "course": {"min": 7, "max": 14, "unit": "d"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # an 'Avoid:' label governs a test term that itself implies an order
    (NO_REPEAT_PELVIC_US, "Plan:\n- Avoid: Provera before pathology; repeat transvaginal "
     "ultrasound (no added value).", True),
    (NO_REPEAT_PELVIC_US, "Plan:\n- Avoid: Provera before pathology.\n- Repeat transvaginal "
     "ultrasound in 6 weeks.", False),
    # a threshold inside an aside is the aside's own, not a trigger on the finding
    (THICKENED_ENDOMETRIUM, "Her 9 mm endometrial stripe is thickened for a postmenopausal woman "
     "with bleeding (reassurance only applies at 4 mm or less).", True),
    (THICKENED_ENDOMETRIUM, "Her 9 mm endometrial stripe would be thickened for a postmenopausal "
     "woman at 10 mm or more.", False),
    # a 'Chart review checklist' heading opens history: its ticked lines decide nothing
    (ENDOMETRIAL_BIOPSY_NOW, "## Chart review checklist\n- [x] No endometrial sampling done yet\n"
     "\n## Plan\n- [x] **Ordered:** office endometrial biopsy (Pipelle)", True),
    (ENDOMETRIAL_BIOPSY_NOW, "## Plan\n- [x] No endometrial sampling done yet\n"
     "- [x] **Ordered:** office endometrial biopsy (Pipelle)", False),
    # 'X -> only if ...': the step waits for its condition
    (ENDOMETRIAL_BIOPSY_NOW, "• Endometrial biopsy → ordered today", True),
    (ENDOMETRIAL_BIOPSY_NOW, "• Endometrial biopsy → only if TVUS shows endometrium >4 mm", False),
    # an age bound before an arrow is a fact about her, not a trigger
    (NO_COMBINED_PILL_NOW, "• 20 cig/d + age >35 → combined OCP ✗ (MEC 4)", True),
    (NO_COMBINED_PILL_NOW, "• If she still smokes at >35 → combined OCP ✗ (MEC 4)", False),
    # a verbless proposal answered 'No.' turns the drug down; so does a PCP query answered
    # 'Not indicated:'
    (NO_CEPHALEXIN, "**Q: Oral cephalexin in case there is infection underneath?**\nNo. There is "
     "no sign of infection.", True),
    (NO_CEPHALEXIN, "**Q: Oral cephalexin in case there is infection underneath?**\nYes, a short "
     "course.", False),
    (NO_CEPHALEXIN, "#3 PCP query re oral cephalexin\n- Not indicated: confined to canal, "
     "afebrile.", True),
    (NO_CEPHALEXIN, "#3 PCP query re oral cephalexin\n- Reasonable: 500 mg four times daily.",
     False),
    (NO_CEPHALEXIN, "No infection; antibiotics are not the treatment.", True),
    # 'do not extend X - stop it'; 'add X to her allergy list' records an allergy
    (NO_NEOMYCIN, "Please don't extend the Cortisporin - stop it and avoid any neomycin product "
     "(add Cortisporin to her allergy list).", True),
    (NO_NEOMYCIN, "Please extend the Cortisporin for another week.", False),
    # 'I would not call this X' denies X
    (NOT_AOE, "Chronic eczematous dermatitis of the ear canal; I would not call this acute "
     "otitis externa.", True),
    (NOT_AOE, "Chronic eczematous dermatitis of the ear canal; I would call this acute otitis "
     "externa.", False),
    # 'that is the scenario in which X would be considered' waits for the trigger before it
    (NO_CEPHALEXIN, "No oral antibiotics now. If redness spreads onto the face -> urgent review; "
     "that is the scenario in which an oral antibiotic would be considered.", True),
    (NO_CEPHALEXIN, "No oral antibiotics now. An oral antibiotic would be considered.", False),
    # a course length written with the decision must fit
    (FLUOCINOLONE_7_14_DAYS, "Start fluocinolone 0.01% oil, 5 drops twice daily x 2 wk.", True),
    (FLUOCINOLONE_7_14_DAYS, "Start fluocinolone 0.01% oil, 5 drops twice daily, continued for "
     "three months.", False),
])
def test_reader_reads_answered_queries_asides_checklists_and_course_lengths(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_ACE_INHIBITOR_RESTART = {"note_never": {"concept": ["ace_inhibitor"],
                                           "action": ["start", "resume", "endorse", "allow"]}}
SCREENING_ELIGIBLE = {"note_finding": {"concept": ["screening_eligible"],
                                       "opposite": ["screening_ineligible"]}}
LDCT_ORDERED = {"note_decision": {"concept": ["ldct"], "action": ["order"]}}
NO_OPIOID = {"note_never": {"concept": ["opioid"], "action": ["start", "endorse", "allow"]}}
RIFAMPIN_4_MONTHS = {"note_decision": {"concept": ["rifampin"], "action": ["start"],
                                       "dose_required": False,
                                       "course": {"min": 3.5, "max": 4.5, "unit": "mo"}}}
GABAPENTIN_TRIAL = {"note_decision": {"concept": ["gabapentin"], "action": ["start"],
                                      "opposite": ["avoid", "stop"], "dose_required": False}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # 'it' after a finding that opens with a drug is that drug; a drug stopped before another
    # verb is not the one 'restart it' takes back up
    (NO_ACE_INHIBITOR_RESTART, "Stop lisinopril and increase amlodipine to 10 mg daily. If she is "
     "still coughing after 4 weeks, look for another cause.", True),
    (NO_ACE_INHIBITOR_RESTART, "Stop lisinopril and increase amlodipine to 10 mg daily. If she is "
     "still coughing after 1 week, lisinopril was not the cause and you can restart it.", False),
    # 'Q3.' / 'A.' number a question and its answer as 'Q3:' / 'A:' do
    (SCREENING_ELIGIBLE, "Q3. Is he eligible for lung cancer screening?\nA. Yes. He quit 9 "
     "years ago.", True),
    (SCREENING_ELIGIBLE, "Q3. Is he eligible for lung cancer screening?\nA. No. He quit 22 "
     "years ago.", False),
    # an emphatic 'does qualify' states the verdict; 'would not qualify' denies it
    (SCREENING_ELIGIBLE, "He does qualify for lung cancer screening under USPSTF 2021.", True),
    (SCREENING_ELIGIBLE, "He would not qualify for lung cancer screening under USPSTF 2021.",
     False),
    # a shared decision-making visit that came before the order does not hedge it
    (LDCT_ORDERED, "I have ordered an annual low dose CT, after a shared decision making visit.",
     True),
    (LDCT_ORDERED, "An annual low dose CT may be ordered if he wants it after shared decision "
     "making.", False),
    # a drug's form and purpose between it and 'is OK / is reasonable' still allow it
    (NO_OPIOID, "No codeine or other opioid antitussive.", True),
    (NO_OPIOID, "Codeine linctus at night for sleep is reasonable.", False),
    (NO_OPIOID, "Promethazine-codeine syrup at bedtime is OK for a few weeks.", False),
    # a course after 'once daily' is the drug's; 'N weeks between the last dose and X' is a gap
    (RIFAMPIN_4_MONTHS, "Rifampin 600 mg PO once daily for 4 months, with at least 2 weeks "
     "between the last rifampin dose and the start of tacrolimus.", True),
    (RIFAMPIN_4_MONTHS, "Rifampin 600 mg PO once daily for 2 months.", False),
    # '-> no benefit -> taper off': the stop waits for its trigger
    (GABAPENTIN_TRIAL, "→ gabapentin 100 mg PO qHS (Rx sent)\n→ f/u 6–8 wk → no benefit → taper "
     "off", True),
    (GABAPENTIN_TRIAL, "Start gabapentin 100 mg PO qHS. Alternatively, gabapentin could be "
     "stopped.", False),
])
def test_reader_reads_pronouns_after_findings_numbered_answers_and_trial_outcomes(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


HEMOGLOBIN_8_9 = {"note_value": {"concept": ["hemoglobin"], "value": 8.9, "tolerance": 0.05}}
ENOXAPARIN_80_MG = {"note_decision": {"concept": ["enoxaparin"], "action": ["start"],
                                      "dose": {"min": 80, "max": 80, "unit": "mg"}}}
AMOXICILLIN_1000_MG = {"note_decision": {"concept": ["amoxicillin"], "action": ["start"],
                                         "dose": {"min": 1000, "max": 1000, "unit": "mg"}}}
NO_STEROID_COURSE = {"note_decision": {"concept": ["corticosteroid"], "action": ["avoid", "stop"]}}
NEVER_STEROID = {"note_never": {"concept": ["corticosteroid"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a test named as the occasion of a value does not end the value's trend
    (HEMOGLOBIN_8_9, "Her hemoglobin has fallen: 13.1 g/dL at her annual screening in 2023 and "
     "12.0 last year, then 10.2 in August and 8.9 g/dL on 10 September.", True),
    (HEMOGLOBIN_8_9, "Her hemoglobin has fallen: 13.1 g/dL at her annual screening in 2023 and "
     "12.0 last year, then 10.2 in August and 9.6 g/dL on 10 September.", False),
    # 'X mg/kg, which for 80 kg is 80 mg' works out the dose; 'given as' says how it is given
    (ENOXAPARIN_80_MG, "Start enoxaparin 1 mg/kg, which for 80 kg is 80 mg, SC every 12 hours.",
     True),
    (ENOXAPARIN_80_MG, "Start enoxaparin 1 mg/kg, which for 80 kg is 60 mg, SC every 12 hours.",
     False),
    (AMOXICILLIN_1000_MG, "Start amoxicillin 45 mg/kg for the day, given as 1000 mg by mouth "
     "twice daily.", True),
    (AMOXICILLIN_1000_MG, "Start amoxicillin 45 mg/kg for the day, given as 500 mg by mouth "
     "twice daily.", False),
    # 'Treatment, which I have entered:' labels the plan
    (AMOXICILLIN_1000_MG, "Treatment, which I have entered: amoxicillin 1000 mg by mouth twice "
     "daily for 7 days.", True),
    (AMOXICILLIN_1000_MG, "Treatment, which I have entered: amoxicillin 500 mg by mouth twice "
     "daily for 7 days.", False),
    # 'Q2.' / 'A.' and 'Q2:' / 'A2:' number a question and its answer; a proposal with an
    # aside and an alternative is still what the 'No' turns down
    (NO_STEROID_COURSE, "Q2. Another prednisone burst (40 mg x5 days) or a longer taper?\nA. No - "
     "neither, not now.", True),
    (NO_STEROID_COURSE, "Q2: Prednisone burst?\nA2: No.", True),
    (NO_STEROID_COURSE, "Q2. Another prednisone burst (40 mg x5 days) or a longer taper?\nA. Yes, "
     "a short one is fine.", False),
    # a spaced dash ends the plan: the finding after it is not what 'start' takes
    (NEVER_STEROID, "No systemic steroid now - osteoporosis is a concern with long courses.",
     True),
    (NEVER_STEROID, "Avoid another burst, but a low-dose taper (prednisone 20 mg daily) can start "
     "now - osteoporosis is a concern mainly with high doses.", False),
])
def test_reader_reads_trend_occasions_worked_doses_numbered_answers_and_dashes(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_DONEPEZIL_STOP = {"note_never": {"concept": ["donepezil"], "action": ["stop", "avoid"]}}
DONEPEZIL_5_MG = {"note_decision": {"concept": ["donepezil"], "action": ["start"],
                                    "dose": {"min": 5, "max": 5, "unit": "mg"}}}
NALTREXONE_NOW = {"note_decision": {"concept": ["naltrexone"], "action": ["start"],
                                    "dose_required": False, "opposite": ["stop", "avoid"]}}
NO_DEXAMETHASONE = {"note_never": {"concept": ["dexamethasone"]}}
LEVOTHYROXINE_88 = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase"],
                                      "dose": {"min": 88, "max": 88, "unit": "mcg"},
                                      "opposite": ["keep_dose", "decrease", "stop"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # after 'It is a ... that would blunt donepezil', 'stop it' goes on about what 'It' was
    (NO_DONEPEZIL_STOP, "Oxybutynin 5 mg twice daily must be stopped. It is a potent "
     "anticholinergic that would blunt donepezil. Stop it now - no taper.", True),
    (NO_DONEPEZIL_STOP, "Donepezil 5 mg daily. Stop it now.", False),
    # 'five milligrams' is a dose like '5 mg'; a verb with its own modal ends a negation
    (DONEPEZIL_5_MG, "Two, donepezil five milligrams by mouth once daily at bedtime, "
     "prescription entered.", True),
    (DONEPEZIL_5_MG, "Two, donepezil ten milligrams by mouth once daily at bedtime, "
     "prescription entered.", False),
    (NO_DONEPEZIL_STOP, "Five years of a strong anticholinergic isn't helping her memory and will "
     "fight the donepezil.", True),
    (NO_DONEPEZIL_STOP, "Five years of oxybutynin will fight the donepezil; stop the donepezil.",
     False),
    # 'it would be reasonable to start at 10 mg' offers that dose
    (DONEPEZIL_5_MG, "Start donepezil 5 mg at bedtime.", True),
    (DONEPEZIL_5_MG, "Start donepezil 5 mg at bedtime. Alternatively, it would be reasonable to "
     "start donepezil at 10 mg at bedtime.", False),
    # a wish to stop inside 'if ...' is the trigger, not a stop offered
    (NALTREXONE_NOW, "Give XR-naltrexone 380 mg IM today. If he returns to fentanyl use or "
     "wants to stop XR-naltrexone, reassess promptly.", True),
    (NALTREXONE_NOW, "Give XR-naltrexone 380 mg IM today. Alternatively, stop XR-naltrexone.",
     False),
    # 'Is he a candidate for X today?' answered 'Not today.' turns X down
    (NALTREXONE_NOW, "**Q: Is he a candidate for the naltrexone injection today?**\nYes - give "
     "XR-naltrexone 380 mg IM today.", True),
    (NALTREXONE_NOW, "**Q: Is he a candidate for the naltrexone injection today?**\nNot today.",
     False),
    # a dose with no drug after 'no change to X' is not X's
    (NO_DEXAMETHASONE, "Plan:\nFludrocortisone 0.1 mg daily.\nNo change to dexamethasone.\n"
     "If renin remains high, we will go to 0.15 mg daily.", True),
    (NO_DEXAMETHASONE, "Plan:\nFludrocortisone 0.1 mg daily.\nDexamethasone 0.5 mg daily.\n"
     "If she is still tired, we will go to 0.75 mg daily.", False),
    # 'same dose for at least 3 years' tells how long, it keeps nothing
    (LEVOTHYROXINE_88, "Hashimoto on levothyroxine 75 micrograms once a day, same dose for at "
     "least three years. Increase levothyroxine to 88 mcg daily.", True),
    (LEVOTHYROXINE_88, "On levothyroxine 75 micrograms once a day. Keep the same dose for now; "
     "increase levothyroxine to 88 mcg daily if the TSH stays high.", False),
])
def test_reader_reads_it_subjects_spoken_units_wishes_to_stop_and_not_today(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


PPI_BEFORE_MEALS = {"note_decision": {"concept": ["omeprazole"], "action": ["start", "increase"],
                                      "every": {"min": 2, "max": 2},
                                      "not_at": ["bedtime", "after_meal"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a dose's time of day: 'at bedtime' or 'after meals' is not a PPI before meals; a bedtime
    # turned away and a meal-free interval before bed are no dose time
    (PPI_BEFORE_MEALS, "Omeprazole 20 mg BID x 8 wk: 1 cap 30-60 min before breakfast + 1 cap "
     "before dinner.", True),
    (PPI_BEFORE_MEALS, "Omeprazole 20 mg BID x 8 wk: 1 cap 30-60 min before breakfast + 1 cap "
     "at bedtime.", False),
    (PPI_BEFORE_MEALS, "Start omeprazole 20 mg twice daily before breakfast and dinner (not at "
     "bedtime); no food within 3 h before bed.", True),
    (PPI_BEFORE_MEALS, "Start omeprazole 20 mg twice daily after breakfast and after dinner.",
     False),
])
def test_reader_reads_times_of_day(grade, spec, note, passed):
    assert grade(spec, note) is passed


MTX_RESTART = {"note_decision": {"concept": ["methotrexate"], "action": ["resume", "start"],
                                 "dose_required": False, "opposite": ["avoid", "stop"]}}
MTX_HELD = {"note_decision": {"concept": ["methotrexate"], "action": ["stop", "avoid"]}}
NO_MTX_RESTART = {"note_never": {"concept": ["methotrexate"], "action": ["resume", "start"],
                                 "allow_contingency": True, "contingency_on": ["alt"]}}
NO_COVID_TEST = {"note_never": {"concept": ["sars_cov_2_naat"], "action": ["order"]}}
PREDNISONE_KEPT = {"note_decision": {"concept": ["prednisone"], "action": ["continue"],
                                     "strict": True}}
PSA_STABLE = {"note_finding": {"concept": ["stability"], "near": ["prostate_specific_antigen"]}}
PSA_6_3 = {"note_value": {"concept": ["prostate_specific_antigen"], "value": 6.3,
                          "tolerance": 0.05}}
ASPIRIN_NOW = {"note_decision": {"concept": ["aspirin"], "action": ["resume"],
                                 "dose_required": False, "deferral_contradicts": True}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # 'can be restarted now' answers 'can she restart it?'; 'not safe to restart' refuses
    (MTX_RESTART, "Methotrexate 20 mg once weekly can be restarted now.", True),
    (MTX_RESTART, "Methotrexate 20 mg once weekly could be restarted later.", False),
    (MTX_HELD, "It is not safe to restart methotrexate at this time because ALT is 258 U/L.",
     True),
    (MTX_HELD, "It is safe to restart methotrexate at this time.", False),
    # 'on hold since <date>', 'flare due to interruption of X' and a pause 'N wk after' a later
    # event are no current stop
    (MTX_RESTART, "MTX on hold since 22/3. Flare due to interruption of methotrexate. Restart "
     "MTX 20 mg weekly now. Next COVID vaccine in June; may hold MTX 1-2 wk after.", True),
    (MTX_RESTART, "Restart MTX 20 mg weekly now. Alternatively, hold MTX for 2 more weeks.",
     False),
    # a later step on a date ('next week') is planned, one on a condition is not
    (NO_MTX_RESTART, "Hold methotrexate this week and restart 22.5 mg weekly once the ALT is "
     "below 3x ULN.", True),
    (NO_MTX_RESTART, "Hold methotrexate this week and restart 22.5 mg weekly next week.", False),
    # 'a negative COVID test' names the result sought: the 'not' still reaches the test
    (NO_COVID_TEST, "She does not need a repeat or negative COVID test.", True),
    (NO_COVID_TEST, "Order a COVID test to confirm she is negative before the first dose.",
     False),
    # a drug named in a reason clause closed before 'it' is not what 'it' stands for
    (PREDNISONE_KEPT, "Prednisone 5 mg daily - continue; since methotrexate is being restarted, "
     "she should keep it.", True),
    (PREDNISONE_KEPT, "Prednisone 5 mg daily - continue; alternatively, since she would like to "
     "come off it and methotrexate is being restarted, she may simply stop it now.", False),
    # 'This is stable' after a paragraph on the PSA; a problem line's test over its bullets
    (PSA_STABLE, "The PSA of 6.3 ng/mL is above the limit of 4. PSA density 0.12. No 5-ARI. "
     "This is stable, not a rise.", True),
    (PSA_STABLE, "The PSA of 6.3 ng/mL is above the limit of 4. No 5-ARI. This is a rise.",
     False),
    (PSA_STABLE, "#2 PSA 6.3 ng/mL flagged high\n- Impression: at his baseline; stable.\n", True),
    (PSA_STABLE, "#2 Staging\n- Impression: stable.\n", False),
    # 'at dx' dates a value; a value after a label inside an aside is the label's
    (PSA_6_3, "PSA 5.4 at dx. Latest PSA 6.3 ng/mL.", True),
    (PSA_6_3, "PSA 5.4. Latest PSA 6.3 ng/mL.", False),
    (PSA_6_3, "PSA 6.3 ng/mL, PSA < 10 (not very low risk: 3 positive cores).", True),
    (PSA_6_3, "PSA 6.3 ng/mL, PSA < 10 (3 positive cores).", False),
    # 'keep the aspirin on hold until ...' holds it
    (ASPIRIN_NOW, "Aspirin 81 mg can be resumed now.", True),
    (ASPIRIN_NOW, "Aspirin 81 mg can be resumed now. Please keep the aspirin on hold until the "
     "repeat endoscopy.", False),
])
def test_reader_reads_restarts_holds_results_sought_and_paragraph_subjects(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


MME_90 = {"note_value": {"concept": ["mme"], "value": 90, "tolerance": 1,
                         "units": {"MME/day": 1, "MME": 1}}}
NO_BENZO_START = {"note_never": {"concept": ["benzodiazepine"], "action": ["start", "increase"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a bare number right before its label, after other words, is that label's value
    (MME_90, "Overdose risk is high on ninety MME with a benzodiazepine.", True),
    (MME_90, "Overdose risk is high on sixty MME with a benzodiazepine.", False),
    (MME_90, "Sixty milligrams of oxycodone or ninety morphine milligram equivalents a day.",
     True),
    # 'Add X ..., and she's at high risk': a sum of risk factors, not a plan to add X
    (NO_BENZO_START, "Add clonazepam 0.5 mg BID, untreated sleep apnea and a recent fall, and "
     "she's at high risk of a fatal overdose.", True),
    (NO_BENZO_START, "Add clonazepam 0.5 mg BID for panic, and she is due for a BMP.", False),
    # 'start a slow clonazepam taper': what starts is a cut
    (NO_BENZO_START, "Later, ask psychiatry to start a slow clonazepam taper.", True),
    (NO_BENZO_START, "Later, ask psychiatry to start clonazepam 0.5 mg at night.", False),
])
def test_reader_reads_a_value_before_its_label_risk_sums_and_started_tapers(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NAPROXEN_STOP = {"note_decision": {"concept": ["naproxen"], "action": ["stop", "avoid"]}}
LEVEL_ORDERED = {"note_decision": {"concept": ["lithium_level"], "action": ["order"]}}
NO_LITHIUM_STOP = {"note_never": {"concept": ["lithium"], "action": ["stop"],
                                  "allow_contingency": True}}
INTERACTION_TABLE = ("| Drug | Started | Action |\n|---|---|---|\n"
                     "| Naproxen 500 mg BID | 28/10/2026 (urgent care) | **{}**; acetaminophen "
                     "up to 3 g/day for the knee |\n")


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a bold run-in line 'Label: plan' is the plan under its label, not a heading
    (NAPROXEN_STOP, "**Recommendation: stop naproxen now.** Use acetaminophen for the knee.",
     True),
    (NAPROXEN_STOP, "**Recommendation: continue naproxen.** Use acetaminophen for the knee.",
     False),
    # a 'Started' column dates the drug; a verdict cell with no object acts on the row's drug
    (NAPROXEN_STOP, INTERACTION_TABLE.format("Stop now"), True),
    (NAPROXEN_STOP, INTERACTION_TABLE.format("Continue"), False),
    # an aside that opens with its verb speaks of the test before it
    (LEVEL_ORDERED, "Lithium not yet: I'm holding the refill until a 12-hour lithium level "
     "(ordered, with a BMP) is back this week.", True),
    (LEVEL_ORDERED, "Lithium not yet: I'm holding the refill until the lithium level (drawn in "
     "July, with a BMP) is reviewed.", False),
    # 'Toxicity symptoms (...) -> stop lithium' is a safety-net, not a stop
    (NO_LITHIUM_STOP, "Toxicity symptoms (coarse tremor, vomiting, ataxia) -> stop lithium and "
     "go to the ED.", True),
    (NO_LITHIUM_STOP, "Lithium level 0.7 -> stop lithium and go to the ED.", False),
])
def test_reader_reads_bold_run_ins_table_verdicts_leading_asides_and_symptom_triggers(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


EZETIMIBE_STARTED = {"note_decision": {"concept": ["ezetimibe"], "action": ["start"]}}
LEVOTHYROXINE_NOT_AVOIDED = {"note_never": {"concept": ["levothyroxine"],
                                            "action": ["avoid", "stop"]}}
NO_REPEAT_COLONOSCOPY = {"note_never": {"concept": ["colonoscopy"],
                                        "action": ["order", "endorse", "allow", "implicit"]}}
AMOXICILLIN_CONTINUED = {"note_decision": {"concept": ["amoxicillin"], "action": ["continue"],
                                           "strict": True}}
TSAT_15 = {"note_value": {"concept": ["tsat"], "value": 15, "tolerance": 0.5}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # 'I have prescribed X ..., together with Y': the verb reaches the second drug
    (EZETIMIBE_STARTED, "I have prescribed atorvastatin 40 mg by mouth at night, taken with "
     "water, together with ezetimibe 10 mg by mouth daily, both for 12 weeks.", True),
    (EZETIMIBE_STARTED, "I have prescribed atorvastatin 40 mg by mouth at night, together with "
     "a low-fat diet; ezetimibe could be considered later.", False),
    # ... but 'avoid X together with Y' is about timing: Y is not avoided
    (LEVOTHYROXINE_NOT_AVOIDED, "Continue levothyroxine 100 mcg daily. Avoid taking calcium "
     "carbonate together with levothyroxine.", True),
    # 'Do not:' over items that each open with a verb: every item is not to be done
    (NO_REPEAT_COLONOSCOPY, "**Do not:** start aspirin (bleeding risk); repeat colonoscopy "
     "(done in 2025); add iron.", True),
    (NO_REPEAT_COLONOSCOPY, "Do not start aspirin (bleeding risk); repeat colonoscopy in 3 "
     "years.", False),
    (AMOXICILLIN_CONTINUED, "Do not: add a second antibiotic; stop amoxicillin.", True),
    # an answer that opens with a verb and no object acts on the drug the question asked
    # about, not on the drug the plan named before the question
    (AMOXICILLIN_CONTINUED, "**What treatment does he need?**\n- Azithromycin 500 mg daily\n\n"
     "**What do we do with his amoxicillin?**\nKeep going - finish the 14-day course at 500 mg "
     "TID.", True),
    (AMOXICILLIN_CONTINUED, "**What treatment does he need?**\n- Azithromycin 500 mg daily\n\n"
     "**What do we do with his amoxicillin?**\nStop - the rash has faded.", False),
    # 'SpO2 97%' is the saturation's value, not the value of the test named before it
    (TSAT_15, "TSAT 15%, ferritin 12. TSAT <20%, SpO2 97%, so iron deficient.", True),
    (TSAT_15, "TSAT 25%, ferritin 12. SpO2 97%.", False),
])
def test_reader_tick_borne_together_with_do_not_label_answer_and_spo2(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


CRCL_38_48 = {"note_value": {"concept": ["crcl"], "min": 38, "max": 48, "unit": "mL/min"}}
FERRITIN_12 = {"note_value": {"concept": ["ferritin"], "value": 12, "tolerance": 0.5}}
IDA = {"note_finding": {"concept": ["iron_deficiency_anemia"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a measure's inputs in an aside right after its label, then the result
    (CRCL_38_48, "CrCl (C-G, 88 kg, age 67, Cr 1.9) ~ 47 mL/min (~39 with IBW 73 kg).", True),
    (CRCL_38_48, "CrCl (C-G, 88 kg, age 67, Cr 1.9) ~ 62 mL/min.", False),
    # 'above CrCl 30', 'below a CrCl of 30': a rule's cut-off, not the patient's value
    (CRCL_38_48, "CrCl ~47 mL/min. Duloxetine 30 mg daily (fine above CrCl 30).", True),
    (CRCL_38_48, "CrCl ~47 mL/min. Duloxetine should be avoided below a CrCl of 30.", True),
    (CRCL_38_48, "CrCl ~47 mL/min. Duloxetine is fine as his CrCl is 30.", False),
    # a unit written short with its 'per' said in words ('12 ng per mL')
    (FERRITIN_12, "The ferritin this month is 12 ng per mL, that is low.", True),
    (FERRITIN_12, "The ferritin this month is 21 ng per mL, that is low.", False),
    # 'not now (reason)', 'not needed (reason)': the aside gives the reason, no negated gloss
    (IDA, "Colonoscopy: not now (iron deficiency anemia).", True),
    (IDA, "Bone marrow biopsy - not needed (iron deficiency anemia).", True),
    (IDA, "This is not true (iron deficiency anemia).", False),
])
def test_reader_pnwu_inputs_aside_cutoff_label_spoken_per_and_reason_asides(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_CVS_BEFORE_HIS_RESULT = {"note_never": {"concept": ["prenatal_diagnosis"],
                                           "action": ["start", "order", "refer", "endorse"],
                                           "allow_contingency": True,
                                           "contingency_on": ["partner_carrier_result"]}}
NO_SERTRALINE_WITHOUT_TRIGGER = {"note_never": {"concept": ["sertraline"],
                                                "allow_contingency": True}}
BETA_NOT_ALPHA_TRAIT = {"note_finding": {"concept": ["beta_thalassemia_trait"],
                                         "opposite": ["alpha_thalassemia_trait"]}}
NO_IV_IRON = {"note_never": {"concept": ["iv_iron"]}}
ORDER_FERRITIN = {"note_decision": {"concept": ["ferritin"], "action": ["order"]}}
START_ORAL_IRON = {"note_decision": {"concept": ["oral_iron", "ferrous_sulfate"],
                                     "action": ["start"], "strict": True}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # two adjacent arrow lines whose openings differ by a negation are the branches of one
    # contingency: what follows each arrow waits for it
    (NO_CVS_BEFORE_HIS_RESULT, "Partner / fetus\n- husband carrier -> 25% affected fetus -> "
     "offer CVS or amnio\n- husband not carrier -> no invasive testing\n", True),
    (NO_CVS_BEFORE_HIS_RESULT, "Partner / fetus\n- husband carrier -> 25% affected fetus -> "
     "offer CVS or amnio\n", False),
    (NO_SERTRALINE_WITHOUT_TRIGGER, "- Depression confirmed -> start sertraline 50 mg daily\n"
     "- Depression not confirmed -> no medication\n", True),
    (NO_SERTRALINE_WITHOUT_TRIGGER, "- Depression confirmed -> start sertraline 50 mg daily\n"
     "- Anxiety confirmed -> no medication\n", False),
    # 'should be tested now, ..., with a CBC, a ferritin and ...': the tests are ordered
    (ORDER_FERRITIN, "He should be tested now, this week if possible, with a CBC with red cell "
     "indices, a ferritin and a hemoglobin electrophoresis.", True),
    (ORDER_FERRITIN, "He was tested in 2022 with a CBC and a ferritin.", False),
    (ORDER_FERRITIN, "He should not be tested with a ferritin now.", False),
    # a finding that opens a sentence and is then 'not the diagnosis' is ruled out, past a
    # generic property said of it first
    (BETA_NOT_ALPHA_TRAIT, "Beta-thalassemia trait. Alpha-thalassemia trait does not raise HbA2 "
     "and is not the diagnosis here.", True),
    (BETA_NOT_ALPHA_TRAIT, "Beta-thalassemia trait. Alpha-thalassemia trait does not raise HbA2 "
     "and is the likely diagnosis here.", False),
    # 'reasonable if she prefers it' after '... avoids GI side effects': 'it' is the drug, not
    # its harm
    (NO_IV_IRON, "Ferric carboxymaltose 750 mg IV now, which avoids GI side effects - "
     "reasonable if she prefers it.", False),
    (NO_IV_IRON, "Ferrous sulfate 325 mg daily. No IV iron now.", True),
    # a bare 'ferrous' (the salt dropped) is the drug whose salt ferrous sulfate is
    (START_ORAL_IRON, "Start ferrous sulfate 325 mg daily.", True),
    (START_ORAL_IRON, "Start ferrous sulfate 325 mg daily. Alternatively, ferrous could be "
     "stopped, or continued at the current dose unchanged; either is reasonable.", False),
])
def test_reader_pat_reads_arrow_branches_tested_with_not_the_diagnosis_harms_ferrous(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_LITHIUM_UP = {"note_never": {"concept": ["lithium"], "action": ["increase"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # one 'not' over a list of verbs joined by commas and a last 'or'
    (NO_NALTREXONE, "Do not increase oxycodone, add another opioid, or start "
     "naltrexone.", True),
    (NO_NALTREXONE, "Do not increase oxycodone; start naltrexone.", False),
    # 'Lithium (dose) may be increased to 900 mg': the participle changes the dose
    (NO_LITHIUM_UP, "Lithium may be increased to 900 mg a day as needed for mood.", False),
    (NO_LITHIUM_UP, "Lithium level increased to 1.1 mmol/L; keep lithium at 600 mg a day.",
     True),
    # 'an increase of lithium ... is an acceptable option' offers the increase
    (NO_LITHIUM_UP, "An increase of lithium to 450 mg twice daily is an acceptable option.",
     False),
    (NO_LITHIUM_UP, "An increase of lithium is not advised.", True),
])
def test_reader_reads_negated_verb_lists_and_dose_participles(grade, spec, note, passed):
    assert grade(spec, note) is passed


NWW_ED_FOR_FLAGS = {"all": {"of": [
    {"note_contingency": {"concept": ["weakness_emergency_evaluation"]}},
    {"note_never": {"concept": ["weakness_emergency_evaluation"],
                    "action": ["refer", "order", "start", "endorse"], "allow_contingency": True}}]}}
NWW_STATIN_MYOPATHY = {"note_finding": {"concept": ["statin_associated_myopathy"],
                                        "opposite": ["myasthenia_gravis", "cervical_myelopathy"],
                                        "strict": True}}
NWW_NO_STATIN = {"note_never": {"concept": ["statin"],
                                "action": ["start", "resume", "continue", "endorse", "allow",
                                           "implicit", "switch"]}}
_NWW_DX = "Assessment: this is a statin-associated myopathy. "


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # the place to go 'right away for any <symptom>' waits for the symptom
    (NWW_ED_FOR_FLAGS, "He can be worked up as an outpatient, but he needs the emergency "
     "department right away for any trouble swallowing or shortness of breath.", True),
    (NWW_ED_FOR_FLAGS, "He needs the emergency department right away because of his trouble "
     "swallowing and shortness of breath.", False),
    # a bare 'ED' followed by its trigger
    (NWW_ED_FOR_FLAGS, "Recs:\n- outpt; ED if dysphagia / dysarthria / dyspnea\n", True),
    (NWW_ED_FOR_FLAGS, "Recs:\n- outpt; dysphagia / dysarthria / dyspnea\n", False),
    (NWW_ED_FOR_FLAGS, "Stop atorvastatin. If he develops dysphagia or dyspnea -> ED.", True),
    (NWW_ED_FOR_FLAGS, "Stop atorvastatin. He has dysphagia and dyspnea: send him to the ED now.",
     False),
    # a numbered red-flag heading that names the destination of the triggers listed under it
    (NWW_ED_FOR_FLAGS, "### 6. Red flags - send to the ED immediately\n- Trouble swallowing\n"
     "- Shortness of breath\n", True),
    (NWW_ED_FOR_FLAGS, "### 6. Disposition - send to the ED immediately\n- Trouble swallowing\n"
     "- Shortness of breath\n", False),
    (NWW_ED_FOR_FLAGS, "### Red flags - go to the ED immediately\n- Trouble swallowing\n", True),
    (NWW_ED_FOR_FLAGS, "### Red flags\n- Trouble swallowing\n", False),
    # a verdict after a list of diagnoses, each with its aside, denies them all
    (NWW_STATIN_MYOPATHY, _NWW_DX + "Myasthenia (no fatigability, ptosis or diplopia) and a "
     "cervical myelopathy (normal reflexes and plantars) are not supported by the examination.",
     True),
    (NWW_STATIN_MYOPATHY, _NWW_DX + "Myasthenia (fatigable ptosis) is likely, and a cervical "
     "myelopathy (normal reflexes) is not supported by the examination.", False),
    # 'What it is not:' denies the diagnoses after it, not what its asides give for that
    (NWW_STATIN_MYOPATHY, _NWW_DX + "What it is not: myasthenia gravis (no fatigable weakness, "
     "ptosis or diplopia; CK would be normal) and cervical myelopathy (reflexes normal).", True),
    (NWW_STATIN_MYOPATHY, _NWW_DX + "What it is: myasthenia gravis (fatigable ptosis) and "
     "cervical myelopathy (brisk reflexes).", False),
    # 'statin re-exposure can trigger relapse' warns of the drug, as 'statin exposure' does
    (NWW_NO_STATIN, "Do not restart any statin; if HMGCR antibodies are present, statin "
     "re-exposure can trigger relapse.", True),
    (NWW_NO_STATIN, "If HMGCR antibodies are negative, a statin can be restarted later.", False),
])
def test_reader_nww_reads_red_flag_destinations_denied_diagnosis_lists_and_reexposure(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


IVERMECTIN_15_NOW = {"note_decision": {"concept": ["ivermectin"], "action": ["start"],
                                       "dose": {"min": 12.2, "max": 17, "unit": "mg"}}}
IVERMECTIN_REPEAT_7_14 = {"note_decision": {"concept": ["ivermectin"],
                                            "action": ["start", "order"],
                                            "timing": {"min": 7, "max": 14, "unit": "d"},
                                            "dose_required": False}}
NO_LINDANE = {"note_decision": {"concept": ["lindane"], "action": ["avoid", "stop"]}}
NO_PREDNISONE = {"note_decision": {"concept": ["prednisone"], "action": ["avoid", "stop"]}}
NO_PREDNISONE_PLANNED = {"note_never": {"concept": ["prednisone"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a repeat written as a noun ('a second 15 mg dose') is ordered like 'repeat', and an
    # amount of time before 'later' is when it is given, not a contingency
    (IVERMECTIN_REPEAT_7_14, "Ivermectin 15 mg PO now, and a second 15 mg dose 7 days later.",
     True),
    (IVERMECTIN_REPEAT_7_14, "Ivermectin 15 mg PO now, and a second 15 mg dose 3 days later.",
     False),
    # the day of the course a repeat falls on ('repeat 15 mg on day 7') is its time from now
    (IVERMECTIN_REPEAT_7_14, "Ivermectin 15 mg PO once today, repeat 15 mg on day 7.", True),
    (IVERMECTIN_REPEAT_7_14, "Ivermectin 15 mg PO once today, repeat 15 mg on day 3.", False),
    # a tablet count of a strength ('5 tabs of 3 mg') is the dose it makes, and the per-kg
    # factor of a weight calculation ('68 kg x 0.2 mg = 13.6 mg') is no dose
    (IVERMECTIN_15_NOW, "Ivermectin PO: 200 mcg/kg x 68 kg -> 13.6 mg -> 15 mg (5 tabs of 3 mg) "
     "today -> repeat 15 mg in 1 week.", True),
    (IVERMECTIN_15_NOW, "Ivermectin PO 6 mg (2 tabs of 3 mg) today -> repeat 6 mg in 1 week.",
     False),
    (IVERMECTIN_15_NOW, "Ivermectin 200 ug/kg PO: 68 kg x 0.2 mg = 13.6 mg -> 15 mg today.",
     True),
    (IVERMECTIN_15_NOW, "Ivermectin 200 ug/kg PO: 68 kg x 0.2 mg = 13.6 mg -> 21 mg today.",
     False),
    # another clinician's proposal, retold as a heading, is no plan; the answer under it
    # turns it down
    (NO_LINDANE, "#4 Pharmacist suggested lindane\n- Not recommended: neurotoxic.\n", True),
    (NO_LINDANE, "#4 Pharmacist suggested lindane\n- Reasonable: neurotoxic but effective.\n",
     False),
    # ': No.' in a table's answer cell turns down the drug the row asks about
    (NO_PREDNISONE, "## Plan\n| | Recommendation |\n|---|---|\n| Prednisone? | **No.** Masks "
     "the infestation. |\n", True),
    (NO_PREDNISONE, "## Plan\n| | Recommendation |\n|---|---|\n| Prednisone? | **Yes.** "
     "40 mg for 5 days. |\n", False),
    # a 'Treatment' column under a history heading ('## Treatment so far') reports
    (NO_PREDNISONE_PLANNED, "## Treatment so far\n\n| Treatment | Detail |\n|---|---|\n"
     "| Prednisone | 40 mg/d x 5 d (urgent care) |\n", True),
    (NO_PREDNISONE_PLANNED, "## Plan\n\n| Treatment | Detail |\n|---|---|\n"
     "| Prednisone | 40 mg/d x 5 d |\n", False),
])
def test_reader_ppr_reads_repeat_doses_day_n_tablet_counts_factors_and_proposals(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


PLATELETS_GRADE_2 = {"note_category": {
    "subject": ["immune_thrombocytopenia"], "category": ["platelet_grade_2"],
    "others": ["platelet_grade_1", "platelet_grade_3", "platelet_grade_4"]}}
STOP_APIXABAN_FOR_GOOD = {"note_decision": {"concept": ["apixaban"], "action": ["stop"],
                                            "permanent": True}}
START_PREDNISONE_60 = {"note_decision": {"concept": ["prednisone"], "action": ["start"],
                                         "dose": {"min": 50, "max": 70, "unit": "mg"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a grade on its own line or sentence, naming nothing else, grades the diagnosis right
    # before it; not after a clause about something else
    (PLATELETS_GRADE_2, "A: Immune-related thrombocytopenia, probable (work-up pending).\n"
     "- CTCAE GRADE 2: symptomatic, limits activity.\n", True),
    (PLATELETS_GRADE_2, "**Diagnosis:** immune-related thrombocytopenia, probable.\n"
     "**Grade:** CTCAE **grade 2**.\n", True),
    (PLATELETS_GRADE_2, "A: Immune-related thrombocytopenia, probable (work-up pending).\n"
     "- CTCAE GRADE 3: symptomatic, limits self-care.\n", False),
    (PLATELETS_GRADE_2, "A: Immune-related thrombocytopenia, probable.\n"
     "- Not drug fever.\n- CTCAE GRADE 2.\n", False),
    # arrow shorthand: an unindented capitalised line with its own arrow is a new statement,
    # not the wrapped end of the arrow item above it
    (PLATELETS_GRADE_2, "Recs\n\nPlt 60 on 3/6 -> no bleeding\n"
     "=> immune thrombocytopenia, probable -> CTCAE G2\n"
     "Heparin exposure none -> not HIT.\n", True),
    # 'X permanently discontinued': an adverb between the drug and its participle
    (STOP_APIXABAN_FOR_GOOD, "Plan:\n- Apixaban permanently discontinued for major GI bleeding; "
     "do not restart.\n", True),
    (STOP_APIXABAN_FOR_GOOD, "Plan:\n- Apixaban temporarily discontinued for major GI bleeding.\n",
     False),
    # a problem heading that names a drug is the object of a verb with none in its items
    (STOP_APIXABAN_FOR_GOOD, "#1 GI bleed\n- Transfuse to Hb > 7.\n#2 Apixaban therapy\n"
     "- Permanently discontinue (recurrent GI bleed).\n", True),
    (STOP_APIXABAN_FOR_GOOD, "#1 Apixaban therapy\n- Reviewed.\n#2 GI bleed\n"
     "- Permanently discontinue (recurrent GI bleed).\n", False),
    # two names of one drug joined by a slash share the dose written after the second
    (START_PREDNISONE_60, "Steroids: start now. Prednisolone/prednisone 60 mg once daily for "
     "14 days, then taper.", True),
    (START_PREDNISONE_60, "Steroids: start now. Prednisolone/prednisone 20 mg once daily for "
     "14 days, then taper.", False),
])
def test_reader_adc_grade_after_diagnosis_arrow_lines_adverb_participle_heading_drug(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


ACR_EULAR_10 = {"note_value": {"concept": ["acr_eular_ra_score"], "value": 10}}
CHA2DS2_VASC_4_OF_9 = {"note_value": {"concept": ["cha2ds2_vasc"], "value": 4}}
MTX_ONCE_WEEKLY = {"note_decision": {"concept": ["methotrexate"], "action": ["start"],
                                     "dose": {"min": 7.5, "max": 25, "unit": "mg"},
                                     "every": {"min": 0.14, "max": 0.146}}}
ORDER_HAND_FOOT_XRAYS = {"note_decision": {"concept": ["hand_foot_radiographs"],
                                           "action": ["order"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # 'scores N of M' with no counted noun after M: a score out of its maximum, N its value
    # (not a tally such as '3 of 3 sets'); the maximum of '9 of 10 points' is no score
    (ACR_EULAR_10, "On the 2010 ACR/EULAR criteria she scores 10 of 10 (joints 5, serology 3, "
     "acute-phase reactants 1, duration 1).", True),
    (ACR_EULAR_10, "On the 2010 ACR/EULAR criteria she scores 9 of 10 (joints 5, serology 3, "
     "acute-phase reactants 1, duration 0).", False),
    (ACR_EULAR_10, "2010 ACR/EULAR score 9 of 10 points.", False),
    (CHA2DS2_VASC_4_OF_9, "CHA2DS2-VASc: he scores 4 of 9, so anticoagulation is indicated.",
     True),
    (CHA2DS2_VASC_4_OF_9, "CHA2DS2-VASc: he scores 3 of 9, so anticoagulation is indicated.",
     False),
    # 'well over the 6 needed': the threshold a rule asks for is no value, and the score
    # written before the label is read
    (ACR_EULAR_10, "She scores 10/10 on the 2010 ACR/EULAR criteria, well over the 6 needed.",
     True),
    (ACR_EULAR_10, "She scores 9/10 on the 2010 ACR/EULAR criteria, well over the 6 needed.",
     False),
    # 'qweekly' (run together, as 'qdaily' is) is once a week
    (MTX_ONCE_WEEKLY, "Recs:\n-> MTX 15 mg PO qweekly (Mon) + folic acid 1 mg PO qd - ordered\n",
     True),
    (MTX_ONCE_WEEKLY, "Recs:\n-> MTX 15 mg PO qdaily (Mon) + folic acid 1 mg PO qd - ordered\n",
     False),
    # a data label over an order under a problem heading ('- Imaging: ... ordered') is the
    # writer's order; with a result or a date it still reports
    (ORDER_HAND_FOOT_XRAYS, "#1 Seropositive rheumatoid arthritis\n- Imaging: plain films of "
     "both hands and both feet ordered for baseline erosions.\n", True),
    (ORDER_HAND_FOOT_XRAYS, "#1 Seropositive rheumatoid arthritis\n- Imaging: plain films of "
     "both hands and both feet ordered 3/2026, normal.\n", False),
    # a bold title naming a score over a points table: the table's Total row is that score
    (ACR_EULAR_10, "**2010 ACR/EULAR classification**\n\n| Domain | Finding | Points |\n"
     "|---|---|---|\n| Joints | 16 joints | 5 |\n| Serology | high-positive RF | 3 |\n"
     "| **Total** | | **10/10 -> criteria met (>= 6)** |\n", True),
    (ACR_EULAR_10, "**2010 ACR/EULAR classification**\n\n| Domain | Finding | Points |\n"
     "|---|---|---|\n| Joints | 16 joints | 5 |\n| Serology | high-positive RF | 3 |\n"
     "| **Total** | | **9/10 -> criteria met (>= 6)** |\n", False),
])
def test_reader_ias_score_out_of_maximum_needed_threshold_qweekly_imaging_order(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_STEROID_UNLESS_HYPOXIC = {"note_never": {"concept": ["corticosteroid"],
                                            "allow_contingency": True}}
PAXLOVID_RENAL_DOSE = {"note_decision": {
    "concept": ["nirmatrelvir_ritonavir"], "action": ["start"],
    "dose": {"value": 150, "unit": "mg", "secondary": 100}, "every": {"min": 2, "max": 2},
    "timing": {"min": 5, "max": 5, "unit": "d"}, "timing_total": True,
    "wrong_timing_contradicts": True}}
HOLD_SIMVASTATIN = {"note_decision": {"concept": ["simvastatin"], "action": ["stop"],
                                      "opposite": ["continue", "keep_dose", "increase"]}}
PAX_START = ("Start nirmatrelvir 150 mg with ritonavir 100 mg twice daily for 5 days. ")


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a harm a drug may do, after a first predicate or an adverb, is no offer of it
    (NO_STEROID_UNLESS_HYPOXIC, "In an immunocompromised outpatient steroids offer no benefit "
     "and may delay viral clearance.", True),
    (NO_STEROID_UNLESS_HYPOXIC, "In a B-cell-depleted patient steroids may further impair "
     "viral clearance and add infection risk.", True),
    (NO_STEROID_UNLESS_HYPOXIC, "Steroids offer some benefit and may be added now.", False),
    # '..., may increase viral persistence': the drug's effect, not a dose increase
    (NO_STEROID_UNLESS_HYPOXIC, "Dexamethasone -> NO. Steroids not indicated in non-hypoxic "
     "COVID, may increase viral persistence.", True),
    (NO_STEROID_UNLESS_HYPOXIC, "Steroids are reasonable, may increase to 10 mg.", False),
    # drugs named in 'reserved for patients who ...' describe a class of patients
    (PAXLOVID_RENAL_DOSE, PAX_START + "I do not recommend molnupiravir: it is reserved for "
     "patients who can take neither Paxlovid nor remdesivir.", True),
    (PAXLOVID_RENAL_DOSE, PAX_START + "He can take neither Paxlovid nor remdesivir.", False),
    # a short verbless label, a dash, then the regimen (as after a colon)
    (PAXLOVID_RENAL_DOSE, "What: Paxlovid at the renal dose - nirmatrelvir 150 mg + ritonavir "
     "100 mg, both together, twice a day for 5 days.", True),
    (PAXLOVID_RENAL_DOSE, "What: Paxlovid at the renal dose - nirmatrelvir 300 mg + ritonavir "
     "100 mg, both together, twice a day for 5 days.", False),
    # 'it' after a plan verb is not the drug the first one clashes with, nor the one whose
    # dose times the step; 'throughout the course' is how long the step lasts
    (HOLD_SIMVASTATIN, "Simvastatin is contraindicated with ritonavir. His last dose was last "
     "night, more than 12 hours before the first Paxlovid dose, so he should simply stop it "
     "from tonight, throughout the 5-day course.", True),
    (HOLD_SIMVASTATIN, "Simvastatin is contraindicated with ritonavir. His last dose was last "
     "night, more than 12 hours before the first Paxlovid dose, so he should simply continue "
     "it from tonight, throughout the 5-day course.", False),
    # the other drug's last dose only times the restart: Paxlovid is not stopped early
    (PAXLOVID_RENAL_DOSE, PAX_START + "Hold simvastatin until 5 days after the last Paxlovid "
     "dose, then resume 40 mg at bedtime.", True),
    # 'X has to be held', 'X needs to be held'
    (HOLD_SIMVASTATIN, "Simvastatin has to be held because it is contraindicated with "
     "ritonavir.", True),
    (HOLD_SIMVASTATIN, "Simvastatin needs to be held.", True),
    (HOLD_SIMVASTATIN, "Simvastatin has to be continued.", False),
    # 'Meds: hold X' instructs (as under the plan) and does not make the next paragraph a list
    (HOLD_SIMVASTATIN, "Meds: hold simvastatin from tonight. Keep amlodipine.", True),
    (NO_STEROID_UNLESS_HYPOXIC, "Meds: hold simvastatin from tonight. Keep amlodipine.\n\n"
     "On the dexamethasone - the suggestion is reasonable: dexamethasone 6 mg daily for 5 days "
     "alongside the Paxlovid.", False),
    (NO_STEROID_UNLESS_HYPOXIC, "Meds: hold simvastatin from tonight. Keep amlodipine.\n\n"
     "On the dexamethasone - please do not give it.", True),
])
def test_reader_covid_ic_harms_patient_class_dash_label_pronoun_anchors_passive_meds_label(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


SIMVASTATIN_HELD_5_DAYS_AFTER = {"note_decision": {
    "concept": ["simvastatin"], "action": ["stop"],
    "opposite": ["continue", "keep_dose", "increase"], "resume_after": {"min": 5, "unit": "d"}}}
METFORMIN_HELD_48_H_AFTER = {"note_decision": {"concept": ["metformin"], "action": ["stop"],
                                               "resume_after": {"min": 48, "unit": "h"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a restart timed from the end of what the drug was held for ('the day after the last
    # dose', 'N days after completing') is checked against the earliest safe restart
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Hold simvastatin from tonight during the 5 days; resume "
     "the day after the last Paxlovid dose.", False),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Hold simvastatin from tonight during the 5 days; resume "
     "5 days after the last Paxlovid dose.", True),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Hold simvastatin; restart it 2 days after completing the "
     "course.", False),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Hold simvastatin; restart 7 days after completing the "
     "course.", True),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Hold simvastatin through the course and for 5 days after "
     "the last dose, then resume.", True),
    (METFORMIN_HELD_48_H_AFTER, "Hold metformin on the day of the CT and restart it the day "
     "after.", False),
    (METFORMIN_HELD_48_H_AFTER, "Hold metformin on the day of the CT and restart it 48 hours "
     "after the study.", True),
    # a verb right after an arrow whose left side only reports acts on the line's drug
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "- Simvastatin 40: CI w/ ritonavir. Last dose last night "
     "(>12 h) -> hold from tonight through course + 5 d after last dose.", True),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "- Simvastatin 40: CI w/ ritonavir. Last dose last night "
     "(>12 h) -> continue through the course.", False),
    # 'starting tonight' after a drug that a verb before it acts on times that verb
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Hold simvastatin starting tonight until 5 days after the "
     "last dose.", True),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Continue simvastatin starting tonight.", False),
    (APIXABAN_5_BID, "Apixaban 5 mg twice daily starting tonight.", True),
    # 'skip X' for a span of time holds X; a bare 'skip X' still only avoids it
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Have him skip simvastatin starting tonight until 5 days "
     "after the course.", True),
    (SIMVASTATIN_HELD_5_DAYS_AFTER, "Have him skip simvastatin.", False),
])
def test_reader_covid_ic_restart_timing_arrow_step_start_time_skip_span(grade, spec, note,
                                                                         passed):
    assert grade(spec, note) is passed


NO_MARROW_OR_SKELETAL_IMAGING = {"note_never": {
    "concept": ["bone_marrow_biopsy", "myeloma_skeletal_imaging", "pet_ct", "spine_mri",
                "kidney_biopsy"],
    "action": ["start", "resume", "continue", "order", "endorse", "allow", "implicit"],
    "allow_contingency": True}}
NO_SPEP_MONITORING = {"note_never": {"concept": ["spep", "flc_ratio"],
                                     "action": ["start", "resume", "continue", "order",
                                                "endorse"],
                                     "allow_contingency": True}}
CONTINUE_METHOTREXATE = {"note_decision": {"concept": ["methotrexate"], "action": ["continue"]}}
POLYCLONAL_NOT_MGUS = {"note_finding": {"concept": ["polyclonal_flc_elevation"],
                                        "opposite": ["mgus", "multiple_myeloma"],
                                        "strict": True}}
RATIO_IN_RENAL_RANGE = {"note_finding": {"concept": ["flc_ratio_normal_for_ckd",
                                                     "flc_renal_range"],
                                         "opposite": ["flc_ratio_above_renal_range"]}}
FIBROELASTOMA = {"note_finding": {"concept": ["papillary_fibroelastoma"],
                                  "opposite": ["infective_endocarditis",
                                               "positive_blood_cultures"]}}
VITAMIN_D_35 = {"note_value": {"concept": ["vitamin_d_level", "vitamin_d"], "value": 35,
                               "tolerance": 0.5, "unit": "ng/mL"}}
PFE = "The aortic valve mass is a papillary fibroelastoma. "


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a verdict 'none indicated' after the dash judges every test listed before it
    (NO_MARROW_OR_SKELETAL_IMAGING, "Plan:\n1. Bone marrow biopsy / skeletal imaging / kidney "
     "biopsy - none indicated.", True),
    (NO_MARROW_OR_SKELETAL_IMAGING, "Plan:\n1. Bone marrow biopsy / skeletal imaging / kidney "
     "biopsy - all indicated.", False),
    # the tests an aside lists after a test turned down are its examples, turned down too
    (NO_MARROW_OR_SKELETAL_IMAGING, "Plan:\n- No bone marrow biopsy, no skeletal survey or "
     "other skeletal imaging (WBLDCT/PET/MRI), no kidney biopsy.", True),
    (NO_MARROW_OR_SKELETAL_IMAGING, "Plan:\n- No skeletal survey (PET instead).", False),
    # '- no routine monitoring' after the tests turns their repeat down; a drug keeps its plan
    (NO_SPEP_MONITORING, "Recommendations:\n- Repeat SPEP / IFE / free light chains - no "
     "routine monitoring; nothing to follow.", True),
    (NO_SPEP_MONITORING, "Recommendations:\n- Repeat SPEP / IFE / free light chains - monthly "
     "monitoring.", False),
    (CONTINUE_METHOTREXATE, "Plan:\n- Continue methotrexate 15 mg weekly - no routine "
     "monitoring.", True),
    # 'Then ...' after a sentence whose every plan is a contingency goes on with it
    (NO_SPEP_MONITORING, "Plan:\n- No routine SPEP monitoring.\n- Re-evaluate only on a new "
     "trigger: a monoclonal protein on a future test or new hypercalcemia. Then repeat "
     "SPEP/IFE/sFLC and re-consult.", True),
    (NO_SPEP_MONITORING, "Plan:\n- Stop the statin. Then repeat SPEP/IFE/sFLC and "
     "re-consult.", False),
    # 'the question being X versus Y and whether he needs Z' retells the referral question
    (POLYCLONAL_NOT_MGUS, "He was referred because his free light chain ratio came back "
     "flagged high, the question being myeloma versus MGUS. Assessment: a polyclonal elevation "
     "from CKD.", True),
    (POLYCLONAL_NOT_MGUS, "He was referred because his free light chain ratio came back "
     "flagged high, most likely myeloma. Assessment: a polyclonal elevation from CKD.", False),
    (NO_MARROW_OR_SKELETAL_IMAGING, "He was referred for a high ratio, the question being "
     "myeloma versus MGUS and whether he needs a marrow or skeletal imaging.", True),
    (NO_MARROW_OR_SKELETAL_IMAGING, "He was referred for a high ratio, and he needs skeletal "
     "imaging.", False),
    # the renal-specific reference interval is the renal reference range (mgus_in_ckd lexicon)
    (RATIO_IN_RENAL_RANGE, "The renal-specific reference interval (0.37-3.1) applies here, and "
     "1.88 is normal by that standard.", True),
    (RATIO_IN_RENAL_RANGE, "The standard reference interval (0.26-1.65) applies here, and "
     "1.88 is abnormal by that standard.", False),
    # 'Nothing supports X' denies X
    (FIBROELASTOMA, PFE + "Nothing supports endocarditis: she has been afebrile throughout.",
     True),
    (FIBROELASTOMA, PFE + "Everything supports endocarditis: she has been febrile throughout.",
     False),
    # a finding dated to a past episode ('bacteremia 02/2024', 'was back in Feb 2024') is history
    (FIBROELASTOMA, PFE + "Remote E. coli bacteremia 02/2024 with pyelonephritis, 2024 "
     "admission.", True),
    (FIBROELASTOMA, PFE + "The E. coli bacteremia was back in Feb 2024 and cleared.", True),
    (FIBROELASTOMA, PFE + "Her E. coli bacteremia was in February 2024, fully treated.", True),
    (FIBROELASTOMA, PFE + "She has an E. coli bacteremia now.", False),
    # a dictated list's 'Four, ...' counts items: no value of the test before it
    (VITAMIN_D_35, "25 hydroxy vitamin D 35 nanograms per mL.\n\nPlan. Three, serum calcium "
     "before each injection, and she must be vitamin D replete, which she is. Four, calcium "
     "total intake 1000 to 1200 mg a day.", True),
    (VITAMIN_D_35, "25 hydroxy vitamin D 35 nanograms per mL.\n\nPlan. Three, serum calcium "
     "before each injection. Her 25 hydroxy vitamin D is now four.", False),
])
def test_reader_p101_none_indicated_examples_aside_question_being_dated_episode_enumerator(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_CETIRIZINE_INCREASE = {"note_never": {"concept": ["cetirizine"], "action": ["increase"]}}
NO_STEROID_COURSE = {"note_never": {"concept": ["corticosteroid"], "allow_contingency": True}}
NO_COLONOSCOPY = {"note_never": {"concept": ["colonoscopy"], "action": [
    "start", "endorse", "allow", "implicit", "order", "refer"], "allow_contingency": True}}
NO_EGD_NOW = {"note_never": {"concept": ["egd"], "action": [
    "start", "endorse", "allow", "order", "refer"], "allow_contingency": True}}
NO_NSAID = {"note_never": {"concept": ["nsaid"]}}
NO_SEROLOGY = {"note_decision": {"concept": ["hpylori_serology"], "action": ["avoid"]}}
HOLD_OMEPRAZOLE = {"note_decision": {"concept": ["omeprazole", "ppi"], "action": ["stop", "switch"],
                                     "opposite": ["continue", "keep_dose", "increase"]}}
NO_METHADONE_KEPT = {"note_decision": {"concept": ["methadone"], "action": ["decrease"],
                                       "opposite": ["increase", "keep_dose", "continue"],
                                       "strict": True, "required": False}}
NO_FAST_METHADONE_CUT = {"note_decision": {
    "concept": ["methadone"], "action": ["decrease", "stop"], "opposite": [], "required": False,
    "timing": {"min": 10, "unit": "d"}, "wrong_timing_contradicts": True}}
TAPER_ROW = ("| Item | Decision | Details |\n|---|---|---|\n"
             "| Taper? | Yes | methadone down 5 mg every 2-4 weeks |\n")


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a refusal before a verb whose drug is elided (a dose after it) negates it
    (NO_CETIRIZINE_INCREASE, "Continue cetirizine 20 mg BID while starting omalizumab; do not "
     "increase above 40 mg/day.", True),
    (NO_CETIRIZINE_INCREASE, "Cont cetirizine 20 mg BID; no further \u2191 (>40 mg/d not "
     "recommended).", True),
    (NO_CETIRIZINE_INCREASE, "Continue cetirizine 20 mg BID; increase to 40 mg BID if "
     "needed.", False),
    (NO_CETIRIZINE_INCREASE, "Continue cetirizine 10 mg daily. No response at 4 weeks, "
     "increase to 20 mg daily.", False),
    # 'for a severe flare' reaches a drug named in a gloss with its dose and length; 'as a
    # contingency' marks what it follows
    (NO_STEROID_COURSE, "- No steroid course now; a short rescue course (e.g., prednisone "
     "20-40 mg \u226410 days) only for a severe flare/angioedema, as a contingency", True),
    (NO_STEROID_COURSE, "- Prednisone 20-40 mg daily for 5 days, as a contingency.", True),
    (NO_STEROID_COURSE, "- Start a short course (e.g., prednisone 20-40 mg \u226410 days) "
     "now.", False),
    # the null sign of shorthand says 'no'
    (NO_COLONOSCOPY, "P:\n5. \u00d8 EGD now. \u00d8 repeat colonoscopy (nl 4/2025).", True),
    (NO_COLONOSCOPY, "P:\n5. Repeat colonoscopy (nl 4/2025).", False),
    (NO_SEROLOGY, "P:\n5. \u00d8 Hp serology.", True),
    (NO_SEROLOGY, "P:\n5. Hp serology.", False),
    # a hold the test waits for is planned, not a past event
    (HOLD_OMEPRAZOLE, "P:\n1. Ordered Hp stool Ag, collect ~4/28/26 after omeprazole held "
     "\u00d72 wk (PPI \u2192 false neg).", True),
    (HOLD_OMEPRAZOLE, "P:\n1. Stool antigen after omeprazole is held for 2 weeks.", True),
    (HOLD_OMEPRAZOLE, "Symptoms returned after omeprazole was held for 2 weeks.", False),
    # ', and if ... then X': X is the contingency's consequence
    (NO_EGD_NOW, "Plan. Number 4, if negative, this is most likely functional dyspepsia, "
     "restart the omeprazole, can go up to 40 mg daily for 8 weeks, and if he is still "
     "symptomatic after that then we will do an EGD, and a low dose tricyclic is an option.",
     True),
    (NO_EGD_NOW, "Plan. Restart the omeprazole, and then we will order an EGD, and a low dose "
     "tricyclic is an option.", False),
    # 'no NSAIDs like X or Y, acetaminophen is fine': the verdict is acetaminophen's
    (NO_NSAID, "Number 5, no NSAIDs like ibuprofen or naproxen, acetaminophen is fine.", True),
    (NO_NSAID, "No acetaminophen, ibuprofen is fine.", False),
    # a dose unchanged for years so far is the history, not a plan to keep it
    (NO_METHADONE_KEPT, TAPER_ROW + "\n1. Reviewed the OTP dosing summary: methadone 90 mg "
     "orally once daily, unchanged for 3 years.", True),
    (NO_METHADONE_KEPT, TAPER_ROW + "\nMethadone 90 mg PO qd (liquid), unchanged x3y.", True),
    (NO_METHADONE_KEPT, TAPER_ROW + "\nMethadone 90 mg daily, unchanged.", False),
    # the drug he is on, the reason in another drug's row, plans nothing of its own
    (NO_FAST_METHADONE_CUT, TAPER_ROW + "| Naltrexone | Not now | Precipitated withdrawal on "
     "methadone; XR-NTX only after taper done + 7-14 d opioid-free |\n", True),
    (NO_FAST_METHADONE_CUT, TAPER_ROW + "| Methadone | Stop | off in 7 d |\n", False),
    # a day of the month said in two words is one ordinal
    (("normalized", "April 28th"), "to be collected on or after April twenty eighth", True),
    (("normalized", "April 28th"), "to be collected on or after April twenty 8", False),
    (("normalized", "30 second"), "a thirty second pause", True),
])
def test_reader_p103_null_sign_elided_refusal_hold_to_come_stable_dose_state_on_drug(
        grade, spec, note, passed):
    if isinstance(spec, tuple):
        assert (spec[1] in normalize_characters(note)) is passed
        return
    assert grade(spec, note) is passed


NALOXONE_NOT_WITHHELD = {"note_never": {"concept": ["naloxone"], "action": ["stop", "avoid"]}}


@pytest.mark.parametrize(("note", "passed"), [
    # what the patient has at home is a state, not a refusal of the drug
    ("A: No naloxone at home - overdose risk will rise as tolerance falls.\n"
     "P: Naloxone 4 mg nasal spray ordered.", True),
    ("His naloxone kit expired; no naloxone kit at home.", True),
    # a refusal stays one
    ("P: No naloxone.", False),
    ("No naloxone kit needed.", False),
])
def test_reader_what_a_patient_has_at_home_is_no_refusal(grade, note, passed):
    assert grade(NALOXONE_NOT_WITHHELD, note) is passed



SCABIES_NOT_CRUSTED = {"note_finding": {"concept": ["scabies"], "opposite": ["crusted_scabies"]}}
BEDDING_HANDLED = {"note_finding": {"concept": ["bedding_laundering"], "topic": True}}
NO_STEROID_BURST = {"note_decision": {"concept": ["prednisone", "corticosteroid"],
                                      "action": ["avoid", "stop"]}}
NO_LINDANE_PLANNED = {"note_never": {"concept": ["lindane"]}}
SERTRALINE_200_KEPT = {"note_decision": {"concept": ["sertraline"], "action": ["continue"],
                                         "dose": {"value": 200, "unit": "mg"},
                                         "wrong_dose_contradicts": True}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # what a cause can lead to, said in general ('a route to', 'predisposes to'), is a risk,
    # not the patient's diagnosis
    (SCABIES_NOT_CRUSTED, "Scabies, confirmed on scraping. No steroids: immunosuppression is a "
     "well-known route to crusted scabies.", True),
    (SCABIES_NOT_CRUSTED, "Scabies, confirmed on scraping. Oral steroids predispose to crusted "
     "scabies, so none.", True),
    (SCABIES_NOT_CRUSTED, "Scabies, confirmed on scraping. Thick hyperkeratotic plaques on the "
     "hands: this is crusted scabies.", False),
    # a negated passive relative clause ('things that cannot be washed') ends before the main
    # clause: what they go into is not negated
    (BEDDING_HANDLED, "Wash the sheets hot; duvets which can't be washed are tied into a "
     "sealed plastic bag for 3 days.", True),
    (BEDDING_HANDLED, "There is no need to wash the sheets or bag anything.", False),
    # a question label ('PCP question 2 - ...?', 'Referring question: ...?') before a proposed
    # drug; a bare 'No.' under it turns the drug down, a 'Yes' does not
    (NO_STEROID_BURST, "**PCP question 2 - another prednisone burst?**\n\n**No.** Steroids "
     "only mask the infestation.\n", True),
    (NO_STEROID_BURST, "**PCP question 2 - another prednisone burst?**\n\n**Yes.** 40 mg daily "
     "for 5 days.\n", False),
    (NO_LINDANE, "Your question 3 - lindane lotion?\n\nNo. It is neurotoxic.\n", True),
    (NO_LINDANE, "Your question 3 - lindane lotion?\n\nYes, one application.\n", False),
    # an 'A:' label before the answer to a 'Q: ...?' line
    (NO_STEROID_BURST, "Q: another prednisone burst? A: No. Steroids mask it.", True),
    (NO_STEROID_BURST, "Q: another prednisone burst? A: Yes, 40 mg for 5 days.", False),
    # 'which at 68 kilograms is 13.6 mg' works the per-kg dose out (as 'which for 68 kg is')
    (IVERMECTIN_15_NOW, "Oral ivermectin 200 micrograms per kilogram, which at 68 kilograms is "
     "13.6 milligrams, rounded to 15 milligrams, taken today.", True),
    (IVERMECTIN_15_NOW, "Oral ivermectin 200 micrograms per kilogram, which at 68 kilograms is "
     "27 milligrams, taken today.", False),
    # a dose sentence that names no drug takes the drug the sentence before it started, not
    # the one it said had failed
    (IVERMECTIN_15_NOW, "Permethrin has failed twice, so I have switched him to ivermectin. At "
     "68 kg that is 13.6 mg, so I've sent 15 mg to take today and the same 15 mg again in 10 "
     "days.", True),
    (IVERMECTIN_REPEAT_7_14, "Permethrin has failed twice, so I have switched him to "
     "ivermectin. At 68 kg that is 13.6 mg, so I've sent 15 mg to take today and the same "
     "15 mg again in 10 days.", True),
    (IVERMECTIN_15_NOW, "Permethrin has failed twice, so I have switched him to ivermectin. At "
     "68 kg that is 13.6 mg, so I've sent 30 mg to take today and the same 30 mg again in 10 "
     "days.", False),
    # ... nor a drug just turned down: the follow-up after 'no lindane' does not plan lindane
    (NO_LINDANE, "Ivermectin 15 mg today and again in 7 days.\n\nAnd no lindane - it "
     "is neurotoxic.\n\nRecheck in 2-4 weeks after the second dose.\n", True),
    (NO_LINDANE_PLANNED, "Ivermectin 15 mg today and again in 7 days.\n\nStart lindane "
     "lotion tonight.\n\nRecheck in 2-4 weeks after the second dose.\n", False),
    (IVERMECTIN_REPEAT_7_14, "Start ivermectin 15 mg today.\n\nOn your question: no "
     "lindane.\n\nThe second dose in 7 days.\n", True),
    # a recheck with no object sees the patient again; it does not repeat the drug
    (IVERMECTIN_REPEAT_7_14, "Ivermectin 15 mg PO once today. Recheck in 2 weeks.", False),
    (IVERMECTIN_REPEAT_7_14, "Ivermectin 15 mg PO once today. Repeat in 2 weeks.", True),
    # a hold is no refusal: the dose sentence after it goes on about the held drug, not the
    # one before it
    (SERTRALINE_200_KEPT, "I have refilled sertraline 200 mg daily. Lithium not yet: I am "
     "holding the lithium refill until the level is back. She should keep taking 300 mg twice "
     "daily meanwhile.", True),
    (SERTRALINE_200_KEPT, "I have refilled sertraline 200 mg daily. She should keep taking "
     "300 mg twice daily meanwhile.", False),
])
def test_reader_ppr_generic_risks_relative_negation_question_labels_and_elided_doses(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


P102_SEXUAL_DYSFUNCTION = {"note_finding": {"concept": ["sexual_dysfunction"]}}
P102_START_BUPROPION = {"note_decision": {"concept": ["bupropion"], "action": ["start"],
                                          "dose": {"value": 150, "unit": "mg"}}}
P102_BUPROPION_UP_TO_300 = {"note_decision": {"concept": ["bupropion"], "action": ["increase"],
                                              "dose": {"max": 300, "unit": "mg"},
                                              "required": False}}
P102_REDUCE_ESCITALOPRAM = {"note_decision": {"concept": ["escitalopram"], "action": ["decrease"],
                                              "dose": {"value": 10, "unit": "mg",
                                                       "per_day": True}}}
P102_REMDESIVIR = {"note_decision": {"concept": ["remdesivir"], "action": ["start"],
                                     "dose": {"min": 200, "max": 200, "unit": "mg"},
                                     "any_dose": True, "route": ["intravenous", "iv"]}}
P102_NO_REPEAT_PCR = {"note_never": {"concept": ["sars_cov_2_naat"], "action": [
    "start", "resume", "continue", "endorse", "allow", "implicit", "order"]}}
P102_POSTPONE_TRANSPLANT = {"note_decision": {"concept": ["living_donor_kidney_transplant"],
                                              "action": ["avoid"], "dose_required": False,
                                              "opposite": ["start", "resume", "continue",
                                                           "endorse", "allow"]}}
P102_WEIGHT_LOSS = {"note_decision": {"concept": ["weight_loss"], "action": [
    "start", "order", "endorse", "counsel", "decrease", "increase", "continue"], "opposite": []}}
P102_RESTART_MTX_WEEKLY = {"note_decision": {"concept": ["methotrexate"], "action": [
    "resume", "start", "continue"], "dose": {"value": 20, "unit": "mg"}, "dose_required": False,
    "opposite": ["avoid", "stop"], "every": {"min": 0.142857, "max": 0.142857}}}
P102_CONTINUE_PREDNISONE = {"note_decision": {"concept": ["prednisone"], "action": [
    "continue", "keep_dose"], "dose": {"value": 5, "unit": "mg"}, "dose_required": False,
    "strict": True}}
P102_SSRI = "Low libido and anorgasmia on escitalopram. "


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # what a drug does not cause is its profile, not a denial of the finding in the patient
    (P102_SEXUAL_DYSFUNCTION, P102_SSRI + "My choice is bupropion XL. It has essentially no "
     "sexual side effects, it targets the residual fatigue.", True),
    (P102_SEXUAL_DYSFUNCTION, P102_SSRI + "Why bupropion: no sexual side effects, activating.",
     True),
    (P102_SEXUAL_DYSFUNCTION, P102_SSRI + "Bupropion has no sexual side effects.", True),
    (P102_SEXUAL_DYSFUNCTION, P102_SSRI + "My choice is bupropion XL. She has no sexual side "
     "effects.", False),
    # 'contraindications to X' are the drug's rule, not a refusal of X
    (P102_START_BUPROPION, "Start bupropion XL 150 mg once daily. She has none of the "
     "contraindications to bupropion, no seizure disorder, no eating disorder.", True),
    (P102_START_BUPROPION, "Start bupropion XL 150 mg once daily. On reflection, no bupropion.",
     False),
    # a weight trend after a drug is no dose change; a trial she has had is history
    (P102_REDUCE_ESCITALOPRAM, "Reduce escitalopram from 20 mg to 10 mg daily. She has gained "
     "8.2 kg on escitalopram (74.1 -> 82.3 kg).", True),
    (P102_REDUCE_ESCITALOPRAM, "Reduce escitalopram from 20 mg to 10 mg daily. Later "
     "escitalopram 10 -> 20 mg.", False),
    (P102_REDUCE_ESCITALOPRAM, "*How is she doing on escitalopram - is a switch warranted?*\n"
     "Yes. She has had an adequate trial (20 mg daily for 10 months) with only a partial "
     "response.\n\nPlan: reduce escitalopram to 10 mg daily.", True),
    (P102_REDUCE_ESCITALOPRAM, "Reduce escitalopram to 10 mg daily. Start a trial of "
     "escitalopram 20 mg daily.", False),
    # what a stop is for ('so ...') and the 'Rx' noun are no later steps on the drug
    (P102_REDUCE_ESCITALOPRAM, "Plan:\n1. Reduce escitalopram from 20 mg to 10 mg once daily.\n"
     "2. PCP: please discontinue the active escitalopram 20 mg prescription so only the 10 mg "
     "taper is dispensed.", True),
    (P102_REDUCE_ESCITALOPRAM, "Plan:\n1. Reduce escitalopram from 20 mg to 10 mg once daily.\n"
     "2. Please d/c her escitalopram 20 mg Rx so both strengths are not filled.", True),
    # the drug a step goes 'alongside' is not its object
    (P102_BUPROPION_UP_TO_300, "Start bupropion XL 150 mg daily. Two, cross-taper the "
     "escitalopram, reduce from 20 to 10 mg once daily starting today alongside the bupropion, "
     "for two weeks, then stop.", True),
    (P102_BUPROPION_UP_TO_300, "Start bupropion XL 150 mg daily. Increase bupropion to 450 mg "
     "now.", False),
    # an italic question line ends the background above it and heads its answer
    (P102_REMDESIVIR, "Background: 56M on hemodialysis, SARS-CoV-2 PCR positive.\n\n"
     "*Does he need treatment?*\nYes. I ordered remdesivir IV 200 mg on day 1, then 100 mg IV "
     "on days 2 and 3.", True),
    (P102_REMDESIVIR, "Background: 56M on hemodialysis, SARS-CoV-2 PCR positive. I ordered "
     "remdesivir IV 200 mg on day 1, then 100 mg IV on days 2 and 3.", False),
    # 'Micro/labs' reports results like 'Labs'
    (P102_NO_REPEAT_PCR, "Micro/labs:\n- SARS-CoV-2 PCR 5/11: DETECTED, Ct 21\n\nP: postpone "
     "the transplant.", True),
    (P102_NO_REPEAT_PCR, "P:\n- SARS-CoV-2 PCR 5/18\n- postpone the transplant.", False),
    # a noun subject with a modal opens a clause of its own: its verbs are not later steps
    (P102_NO_REPEAT_PCR, "Plan:\nClearance is based on time plus symptom resolution, not a "
     "negative PCR - RNA can remain detectable for weeks, and a test-based strategy would "
     "just add unnecessary delay.", True),
    (P102_NO_REPEAT_PCR, "Plan:\nNot a negative PCR now - it can be repeated in 1 week.",
     False),
    # 'pushed back' postpones
    (P102_POSTPONE_TRANSPLANT, "The transplant needs to be pushed back.", True),
    (P102_POSTPONE_TRANSPLANT, "The transplant can go ahead as scheduled.", False),
    # 'And X - ...' opens a verbless recommendation as the clause's first word would
    (P102_WEIGHT_LOSS, "Lifestyle matters a lot here: he eats dinner at 9:30. And weight loss "
     "- BMI is 32.9 (104 kg), even 5-10% would help.", True),
    (P102_WEIGHT_LOSS, "Lifestyle matters a lot here: he eats dinner at 9:30. He reports "
     "weight loss - BMI was 34.", False),
    # 'once COVID-19 symptoms have resolved' is a time, not a single dose
    (P102_RESTART_MTX_WEEKLY, "Restart methotrexate 20 mg once weekly now. ACR guidance "
     "supports resuming methotrexate once COVID-19 symptoms have resolved.", True),
    (P102_RESTART_MTX_WEEKLY, "Restart methotrexate 20 mg once now.", False),
    # a stop as the subject of what it does not do is no decision
    (P102_CONTINUE_PREDNISONE, "Continue prednisone 5 mg daily. Stopping prednisone does not "
     "speed immune recovery after COVID-19.", True),
    (P102_CONTINUE_PREDNISONE, "Continue prednisone 5 mg daily. Stop prednisone next week.",
     False),
])
def test_reader_p102_drug_profile_italic_questions_own_subject_weight_trend(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


NO_LINDANE = {"note_never": {"concept": ["lindane"]}}


@pytest.mark.parametrize(("note", "passed"), [
    # a role refused, then the same drug offered after 'but': an allowance
    ("P: Permethrin tonight. Lindane is not first line but can be used as a backup.", False),
    ("P: Permethrin tonight. Lindane is not recommended but remains an option.", False),
    # a refusal that stays one, or a 'but' about another drug
    ("P: Permethrin tonight. Lindane is not first line but is contraindicated here.", True),
    ("P: Permethrin tonight. Lindane is not needed, but cetirizine can be used.", True),
    ("P: Permethrin tonight. No lindane.", True),
])
def test_reader_a_refused_role_then_but_it_can_be_used_is_an_offer(grade, note, passed):
    assert grade(NO_LINDANE, note) is passed


LOA_FILM_NOW = {"note_decision": {"concept": ["filaria_blood_smear"], "action": ["order"]}}


@pytest.mark.parametrize(("note", "passed"), [
    # a hold until a finding is ruled out: the finding is no test turned down
    ("Plan:\n- Daytime blood film for Loa loa microfilariae - ordered.\n- Ivermectin 15 mg PO "
     "daily x 2 days - hold until Loa microfilaraemia is excluded.", True),
    ("Plan:\n- No blood film for Loa loa microfilariae.", False),
])
def test_reader_a_hold_until_a_finding_is_excluded_turns_no_test_down(grade, note, passed):
    assert grade(LOA_FILM_NOW, note) is passed


P12F1_NEVER_NSAID = {"note_never": {"concept": ["nsaid"]}}
P12F1_ACTS = ["start", "endorse", "allow", "implicit", "order", "refer"]
P12F1_NEVER_STRESS = {"note_never": {"concept": ["stress_test"], "action": P12F1_ACTS}}
P12F1_NEVER_COLONOSCOPY = {"note_never": {"concept": ["colonoscopy"], "action": P12F1_ACTS}}
P12F1_NEVER_CHOLECYSTECTOMY = {"note_never": {"concept": ["cholecystectomy"], "action": P12F1_ACTS}}
P12F1_NEVER_ANTIPSYCHOTIC = {"note_never": {"concept": ["antipsychotic"]}}
P12F1_ECHO_NOW = {"note_decision": {"concept": ["echocardiogram"], "action": ["order"],
                                    "timing": {"min": 0, "max": 7, "unit": "d"},
                                    "untimed_is_now": True, "wrong_timing_contradicts": True}}
P12F1_CREATININE = {"note_value": {"concept": ["creatinine"], "value": 1.0, "tolerance": 0.05}}
P12F1_START_GABAPENTIN = {"note_decision": {"concept": ["gabapentin"], "action": ["start"],
                                            "dose": {"min": 100, "max": 600, "unit": "mg"}}}
P12F1_START_SERTRALINE = {"note_decision": {"concept": ["sertraline"], "action": ["start"]}}
P12F1_UNPROVOKED = {"note_finding": {"concept": ["unprovoked_vte"],
                                     "opposite": ["provoked_vte"]}}
P12F1_NO_ACS = {"note_finding": {"concept": ["cortisol_suppressed"], "opposite": ["macs"]}}
P12F1_INR = {"note_value": {"concept": ["inr"], "value": 1.1, "tolerance": 0.05}}
P12F1_COLONOSCOPY_ON_HB = {"note_never": {"concept": ["colonoscopy"], "action": P12F1_ACTS,
                                           "allow_contingency": True,
                                           "contingency_on": ["hemoglobin"]}}
P12F1_ADRENAL_CT_NOW = {"note_decision": {"concept": ["adrenal_characterization"],
                                          "action": ["order"],
                                          "timing": {"min": 0, "max": 30, "unit": "d"},
                                          "untimed_is_now": True,
                                          "wrong_timing_contradicts": True}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a mnemonic heading's letter spells its title: 'P - Patient summary' reports (I-PASS,
    # SOAP, SBAR), it is no 'P:' plan
    (P12F1_NEVER_NSAID, "P - Patient summary:\nNaproxen 500 mg BID for 6 weeks, no relief.\n\n"
     "A - Action list:\n- Acetaminophen 1 g TID.", True),
    (P12F1_NEVER_NSAID, "A - Allergies and medications:\nNaproxen 500 mg BID, no benefit.\n\n"
     "P - Plan:\n- Acetaminophen 1 g TID.", True),
    (P12F1_NEVER_NSAID, "P - Pertinent history:\nMeloxicam 15 mg daily for 2 months, GI upset."
     "\n\nA - Action list:\n- Acetaminophen 1 g TID.", True),
    (P12F1_NEVER_NSAID, "B - Background:\nCelecoxib 200 mg daily since March, dyspepsia.\n\n"
     "R - Recommendation:\n- Topical diclofenac is not advised; use acetaminophen.", True),
    (P12F1_NEVER_NSAID, "P - Plan:\n- Naproxen 500 mg BID for 2 weeks.", False),
    # checkbox bullets are list items: the item above does not run on into the next one
    (P12F1_ECHO_NOW, "Plan:\n  \u2610 Hold lisinopril if systolic BP < 100 and recheck in 1 wk\n"
     "  \u2610 Transthoracic echocardiogram", True),
    (P12F1_ECHO_NOW, "Orders:\n\u2611 Repeat BMP in 2 weeks if possible\n\u2611 Echo", True),
    (P12F1_ECHO_NOW, "Orders:\n\u2612 Hold metformin if eGFR < 30\n\u2612 TTE", True),
    (P12F1_ECHO_NOW, "Plan:\n\u2610 Echocardiogram in 6 months", False),
    # a fenced code block is a record: one unit a line, a snake_case key the label it spells
    (P12F1_NEVER_COLONOSCOPY, "```\nplan: start apixaban 5 mg BID\nnot_ordered: colonoscopy, "
     "capsule study\n```", True),
    (P12F1_NEVER_STRESS, "```\norders: echocardiogram, BNP\ndeferred_tests: stress test (only "
     "if angina)\nnot_indicated: stress test\n```", True),
    (P12F1_NEVER_COLONOSCOPY, "```\norders: FIT\ndo_not_order: colonoscopy\n```", True),
    (P12F1_NEVER_COLONOSCOPY, "```\norders: FIT, colonoscopy\n```", False),
    # an action named as an item of a list of what to avoid is avoided
    (P12F1_NEVER_CHOLECYSTECTOMY, "Management:\n1. Ursodiol 300 mg TID.\n\nPlease avoid: a "
     "HIDA scan, MRCP, or referral for cholecystectomy.", True),
    (P12F1_NEVER_STRESS, "What not to do:\n- repeating the echo, or ordering a stress test "
     "(no angina).", True),
    (P12F1_NEVER_COLONOSCOPY, "Please avoid: a CT scan, empiric antibiotics, and scheduling a "
     "colonoscopy now.", True),
    (P12F1_NEVER_CHOLECYSTECTOMY, "Plan:\n- Avoid ERCP. Refer for cholecystectomy this "
     "month.", False),
    # a value in another unit in parentheses after a cut-off is the same cut-off
    (P12F1_CREATININE, "Creatinine 1.0 mg/dL; this is below the 1.3 mg/dL (115 umol/L) "
     "cut-off.", True),
    (P12F1_CREATININE, "Creatinine 1.0 mg/dL. Creatinine is under the 1.5 mg/dL (133 umol/L) "
     "threshold for contrast.", True),
    (P12F1_CREATININE, "Labs: creatinine 1.3 mg/dL (115 umol/L).", False),
    # 'range X-Y' names the span a rule allows, not the dose given; its conversion shares it
    (P12F1_START_GABAPENTIN, "Plan: start gabapentin 300 mg at night - dose range is "
     "900-3600 mg/day.", True),
    (P12F1_START_GABAPENTIN, "Plan: start gabapentin 300 mg nightly; therapeutic range of "
     "1800-3600 mg/day.", True),
    (P12F1_START_GABAPENTIN, "Plan: start gabapentin 300 mg at night (dose range: 15-45 "
     "mg/kg/day (1200-3600 mg/day at 80 kg)).", True),
    (P12F1_START_GABAPENTIN, "Plan: start gabapentin 900-3600 mg/day.", False),
    # a year closing a bracketed citation, or an 'et al.' reference, dates no event
    (P12F1_START_SERTRALINE, "Plan: sertraline 50 mg daily, prescription entered [Cipriani et "
     "al., Lancet 2018].", True),
    (P12F1_START_SERTRALINE, "Plan: sertraline 50 mg daily, prescription entered [APA "
     "guideline 2010].", True),
    (P12F1_START_SERTRALINE, "Plan: sertraline 25 mg daily - ordered (Smith et al., JAMA "
     "2015).", True),
    (P12F1_START_SERTRALINE, "Sertraline 50 mg daily was started in 2018.", False),
    # a drug judged fit to give ('X ... is reasonable'), also across a relative clause, is
    # allowed
    (P12F1_NEVER_ANTIPSYCHOTIC, "Agitation: quetiapine 25 mg at night, which the family asked "
     "about, is reasonable.", False),
    (P12F1_NEVER_ANTIPSYCHOTIC, "Agitation: haloperidol 0.5 mg PRN, which the ward asked for, "
     "is acceptable.", False),
    (P12F1_NEVER_ANTIPSYCHOTIC, "Behaviour: olanzapine 2.5 mg nightly, that the son suggested, "
     "would be appropriate.", False),
    (P12F1_NEVER_ANTIPSYCHOTIC, "- Sleep: quetiapine 25 mg at night, which she used before, is "
     "reasonable only if the routine fails.", True),
    (P12F1_NEVER_ANTIPSYCHOTIC, "Olanzapine is not reasonable here; use a calm routine.", True),
    # an opposite given a verdict of exclusion affirms the finding
    (P12F1_UNPROVOKED, "Provoked DVT has been excluded - no surgery, travel or hormones.", True),
    (P12F1_UNPROVOKED, "Assessment: provoked VTE ruled out.", True),
    (P12F1_NO_ACS, "1 mg DST 0.9 ug/dL: autonomous cortisol excluded.", True),
    (P12F1_UNPROVOKED, "Provoked DVT - knee surgery 3 weeks ago.", False),
    # INR is a test (its value is its own), vitamin K a drug (not potassium)
    (P12F1_INR, "Plan: weekly LFTs until delivery - ordered, plus an INR (the INR is 1.1).",
     True),
    (P12F1_INR, "Coags: PT/INR 1.1, normal.", True),
    (P12F1_INR, "Coags: INR 1.4.", False),
    # a clause whose subject is a generic threshold states a rule: its finding is no verdict
    (P12F1_UNPROVOKED, "Unprovoked DVT. Only a surgery < 3 months before proves a provoked "
     "event.", True),
    (P12F1_UNPROVOKED, "Unprovoked DVT. A trigger within < 3 months makes it provoked.", True),
    (P12F1_UNPROVOKED, "Unprovoked DVT. Any immobility over 2 weeks means provoked.",
     True),
    (P12F1_UNPROVOKED, "Provoked DVT: surgery < 3 months ago.", False),
    # I-PASS 'S - Situation awareness' lists contingencies; a condition that lists its
    # triggers ('if A, B, or C -> ...') spans all of them (the first case guards the old
    # outcome: on the base the section was read as a history)
    (P12F1_COLONOSCOPY_ON_HB, "A - Action list:\n- FIT.\n\nS - Situation awareness:\n- Hb < 10 "
     "g/dL -> colonoscopy.", True),
    (P12F1_COLONOSCOPY_ON_HB, "Plan:\n- If melena, dizziness, or Hb < 10 g/dL -> colonoscopy.",
     True),
    (P12F1_COLONOSCOPY_ON_HB, "Plan:\n- Colonoscopy if weight loss, night sweats, or a falling "
     "hemoglobin.", True),
    (P12F1_COLONOSCOPY_ON_HB, "Plan:\n- When there is new anemia, rectal bleeding, or a "
     "hemoglobin drop, colonoscopy.", True),
    (P12F1_COLONOSCOPY_ON_HB, "Plan:\n- If melena, dizziness or fatigue -> colonoscopy; Hb 9.",
     False),
    (P12F1_COLONOSCOPY_ON_HB, "A - Action list:\n- Colonoscopy now.", False),
    # a participle after a time or before an imaging phase is an adjective, no deferral
    (P12F1_ADRENAL_CT_NOW, "Orders:\n- Adrenal-protocol CT with 15-min delayed washout", True),
    (P12F1_ADRENAL_CT_NOW, "Orders:\n- Adrenal-protocol CT with 15 min delayed washout phase - "
     "ordered.", True),
    (P12F1_ADRENAL_CT_NOW, "Orders:\n- Adrenal washout CT with 1-hour delayed imaging.", True),
    (P12F1_ADRENAL_CT_NOW, "Orders:\n- Adrenal-protocol CT delayed until after delivery.",
     False),
])
def test_reader_p12f1_mnemonic_headings_code_blocks_avoid_lists_cutoffs_citations(
        grade, spec, note, passed):
    assert grade(spec, note) is passed


P12F3_PHQ9_16 = {"note_value": {"concept": ["phq9"], "value": 16}}
P12F3_NO_ESCITALOPRAM = {"note_never": {"concept": ["escitalopram"]}}
P12F3_NO_BENZODIAZEPINE = {"note_never": {"concept": ["benzodiazepine"]}}
P12F3_NO_BUPROPION = {"note_never": {"concept": ["bupropion"]}}
P12F3_NO_VENLAFAXINE = {"note_never": {"concept": ["venlafaxine"]}}
P12F3_NO_LYME_SEROLOGY = {"note_never": {"concept": ["lyme_serology"]}}
P12F3_NO_EXCHANGE_NOW = {"note_never": {"concept": ["exchange_transfusion"],
                                        "allow_contingency": True}}
P12F3_NO_TMP_SMX_NOW = {"note_never": {"concept": ["sulfamethoxazole_trimethoprim"],
                                 "allow_contingency": True}}
P12F3_REFER_RHEUMATOLOGY = {"note_decision": {"concept": ["rheumatology_referral"],
                                        "action": ["refer", "order"]}}
P12F3_PLATELETS_GRADE_2 = {"note_category": {
    "subject": ["immune_thrombocytopenia"], "category": ["platelet_grade_2"],
    "others": ["platelet_grade_1", "platelet_grade_3", "platelet_grade_4"]}}
P12F3_NO_APIXABAN_AGAIN = {"note_never": {"concept": ["apixaban"],
                                          "action": ["resume", "start", "allow"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a fenced code block keeps its lines; a course told with its length and outcome is over
    (P12F3_PHQ9_16, "```\ndx: recurrent MDD + GAD\ntrial_1: fluoxetine 40 mg x 10 wk -> inadequate "
     "(PHQ-9 20)\nphq9_today: PHQ-9 16\n```", True),
    (P12F3_PHQ9_16, "Venlafaxine 150 mg x 8 wk with minimal benefit (PHQ-9 19). PHQ-9 16 today.",
     True),
    (P12F3_PHQ9_16, "Sertraline 100 mg for 12 weeks: inadequate, PHQ-9 19. PHQ-9 16 today.",
     True),
    (P12F3_PHQ9_16, "Paroxetine 30 mg daily x 3 months, failed, PHQ-9 18. PHQ-9 16 on "
     "06/11.", True),
    (P12F3_PHQ9_16, "Paroxetine 30 mg daily x 3 months, PHQ-9 18.", False),
    (P12F3_PHQ9_16, "If paroxetine 30 mg for 8 weeks brings no response, recheck. PHQ-9 "
     "18.", False),
    (P12F3_NO_ESCITALOPRAM, "Trial 2: escitalopram 20 mg x 4 mo (adherent) -> inadequate.\n"
     "Plan: switch to duloxetine.", True),
    (P12F3_NO_ESCITALOPRAM, "Plan: a trial of escitalopram 20 mg daily x 4 months.", False),
    # a verb word followed by its own past verb is a noun ('use escalated'), not an order
    (P12F3_NO_BENZODIAZEPINE, "Diazepam 5 mg PRN, 2024: use escalated with early refills, "
     "then stopped.\nPlan: sertraline 50 mg daily.", True),
    (P12F3_NO_BENZODIAZEPINE, "Lorazepam 1 mg PRN: use escalated with early refills, so it was "
     "stopped.", True),
    (P12F3_NO_BENZODIAZEPINE, "Clonazepam 1 mg PRN, 2022: use doubled within weeks, then stopped.",
     True),
    (P12F3_NO_BENZODIAZEPINE, "Lorazepam 0.5 mg PRN: use sparingly for flights.", False),
    # the referrer's request named as a noun is what was asked, not the answer
    (P12F3_NO_BUPROPION, "Thank you for your query about adding bupropion. Plan: switch to "
     "duloxetine.", True),
    (P12F3_NO_BENZODIAZEPINE, "Thank you for your enquiry as to whether lorazepam could help her "
     "sleep.", True),
    (P12F3_NO_BENZODIAZEPINE, "Thanks for asking whether to add clonazepam. Sertraline 50 mg "
     "daily.", True),
    (P12F3_NO_BUPROPION, "Thank you for your query. I would add bupropion XL 150 mg daily.", False),
    # what a drug can do to the patient is its profile, not an offer of it
    (P12F3_NO_BUPROPION, "Not now. Bupropion has no efficacy for GAD and can increase anxiety and "
     "insomnia.", True),
    (P12F3_NO_VENLAFAXINE, "Venlafaxine has dose-related effects and can increase blood "
     "pressure.", True),
    (P12F3_NO_BENZODIAZEPINE, "Clonazepam is sedating and may reduce the respiratory drive.", True),
    (P12F3_NO_BUPROPION, "Bupropion could raise her energy; start XL 150 mg daily.", False),
    (P12F3_NO_BUPROPION, "Bupropion can be added later.", False),
    # a question heading that asks what to avoid heads a list of what is avoided
    (P12F3_NO_LYME_SEROLOGY, "**Anything to avoid?**\nLyme serology (no test-of-cure role).", True),
    (P12F3_NO_LYME_SEROLOGY, "**Which tests should we steer clear of?**\nLyme serology (no "
     "test-of-cure role).", True),
    (P12F3_NO_LYME_SEROLOGY, "**Anything off the table?**\nLyme serology (stays positive for "
     "years).", True),
    (P12F3_NO_LYME_SEROLOGY, "**Anything to add?**\nLyme serology (no test-of-cure role).", False),
    # a value past a threshold, as the subject of 'means', is a rule, not today's plan
    (P12F3_NO_EXCHANGE_NOW, "Parasitemia >= 10% means admission and exchange transfusion.", True),
    (P12F3_NO_EXCHANGE_NOW, "A parasitemia of more than 10% warrants admission and exchange "
     "transfusion.", True),
    (P12F3_NO_TMP_SMX_NOW, "A CD4 below 200 means starting TMP-SMX prophylaxis.", True),
    (P12F3_NO_EXCHANGE_NOW, "His parasitemia is 12%, which means we start exchange "
     "transfusion today.", False),
    (P12F3_NO_TMP_SMX_NOW, "His CD4 is 150, which means starting TMP-SMX prophylaxis.", False),
    # the clinic a visit is arranged at is where she is referred
    (P12F3_REFER_RHEUMATOLOGY, "We have arranged an urgent appointment in the early arthritis "
     "clinic.", True),
    (P12F3_REFER_RHEUMATOLOGY, "I have booked her a visit with the rheumatology clinic next month.",
     True),
    (P12F3_REFER_RHEUMATOLOGY, "She will be seen in rheumatology clinic within 2 weeks.", True),
    (P12F3_REFER_RHEUMATOLOGY, "We have not arranged an appointment in the rheumatology clinic.",
     False),
    # a scale's field ('CTCAE GRADE: 2') grades the diagnosis field above it, past fields
    # that only rule things out
    (P12F3_PLATELETS_GRADE_2, "DIAGNOSIS: immune-related thrombocytopenia, probable\n"
     "ALTERNATIVES: heparin-induced thrombocytopenia - no (4Ts 2).\nCTCAE GRADE: 2\n", True),
    (P12F3_PLATELETS_GRADE_2, "Dx: immune-related thrombocytopenia\nExcluded: TTP (no "
     "schistocytes), HIT (4Ts 2).\nGrade: 2\n", True),
    (P12F3_PLATELETS_GRADE_2, "Diagnosis: immune-related thrombocytopenia\nCTCAE grade: "
     "II\n", True),
    (P12F3_PLATELETS_GRADE_2, "DIAGNOSIS: immune-related thrombocytopenia, probable\n"
     "ALTERNATIVES: heparin-induced thrombocytopenia - no (4Ts 2).\nCTCAE GRADE: 3\n", False),
    # 'Restart: not allowed': the verdict on a step named as a field refuses it
    (P12F3_NO_APIXABAN_AGAIN, "Apixaban: stop permanently.\nRestart: not allowed.", True),
    (P12F3_NO_APIXABAN_AGAIN, "Stop apixaban for good.\nRechallenge - not an option.", True),
    (P12F3_NO_APIXABAN_AGAIN, "Hold apixaban now.\nResume: not permitted.", True),
    (P12F3_NO_APIXABAN_AGAIN, "Hold apixaban now.\nResume: after 48 h.", False),
])
def test_reader_p12f3_structures_code_block_course_outcome_request_threshold_scale_field(
        grade, spec, note, passed):
    """Structures, not phrases: a fenced code block's lines; a course told with its length and
    outcome; a verb word that is its own past verb's subject ('use escalated'); the
    referrer's request named as a noun; what a drug can do to the patient; a question heading
    that asks what to avoid; a value past a threshold as the subject of 'means'; the clinic a
    visit is arranged at; a scale's field under the diagnosis field; a verdict on a step
    named as a field ('Restart: not allowed')."""
    assert grade(spec, note) is passed


P12F2_NO_CHC = {"note_never": {"concept": ["combined_hormonal_contraceptive"]}}
P12F2_NO_HEAD_CT = {"note_never": {"concept": ["head_ct"], "allow_contingency": True}}
P12F2_NO_WARFARIN = {"note_never": {"concept": ["warfarin"]}}
P12F2_TTE = {"note_decision": {"concept": ["echocardiogram"], "action": ["order"]}}
P12F2_BRAIN_MRI = {"note_decision": {"concept": ["brain_mri"], "action": ["order"]}}
P12F2_SCOPE_ONLY_IF = {"note_never": {"concept": ["colonoscopy"], "allow_contingency": True}}
P12F2_EGD_ONLY_IF = {"note_never": {"concept": ["egd"], "allow_contingency": True}}
P12F2_NO_SCOPE = {"note_decision": {"concept": ["colonoscopy"], "action": ["avoid"]}}
P12F2_NO_EGD = {"note_decision": {"concept": ["egd"], "action": ["avoid"]}}
P12F2_NO_MRI = {"note_decision": {"concept": ["brain_mri"], "action": ["avoid"]}}
P12F2_IBS_NOT_IBD = {"note_finding": {"concept": ["post_infectious_ibs"],
                                      "opposite": ["inflammatory_bowel_disease"]}}
P12F2_PSEUDO_NOT_ITP = {"note_finding": {"concept": ["pseudothrombocytopenia"],
                                         "opposite": ["immune_thrombocytopenia"], "topic": True}}
P12F2_NO_PAPILLEDEMA = {"note_finding": {"concept": ["normal_tympanic_membrane"],
                                         "opposite": ["papilledema"]}}
P12F2_MIGRAINE_AURA = {"note_finding": {"concept": ["migraine_with_aura"]}}
P12F2_APIXABAN_5 = {"note_decision": {"concept": ["apixaban"], "action": ["start"],
                                      "dose": {"value": 5, "unit": "mg"}}}
P12F2_DEFERASIROX_1080 = {"note_decision": {"concept": ["deferasirox"], "action": ["start"],
                                            "dose": {"value": 1080, "unit": "mg"}}}
P12F2_FERRITIN_MONTHLY = {"note_decision": {"concept": ["ferritin"], "action": ["order"],
                                            "every": {"min": 0.032, "max": 0.143}}}
P12F2_SCOPE_ON_HB = {"note_never": {"concept": ["colonoscopy"], "allow_contingency": True,
                                     "contingency_on": ["hemoglobin", "weight_loss"]}}
P12F2_TSH_MONTHLY = {"note_decision": {"concept": ["tsh"], "action": ["order"],
                                       "every": {"min": 0.032, "max": 0.143}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a mnemonic's letter spelled out after a dash names the section by its words: 'P -
    # Patient summary' reports (it is no 'P' plan), 'A - Action list' plans
    (P12F2_NO_CHC, "P - Patient summary:\n29F on ethinyl estradiol 0.035 mg / norgestimate "
     "for 5 years.\nA - Action list:\n- Stop the combined pill today.", True),
    (P12F2_NO_CHC, "B \u2014 Background:\nOn a combined oral contraceptive 0.03 mg for 3 "
     "years.\n\nR \u2014 Recommendation:\n- Stop the combined pill.", True),
    (P12F2_NO_WARFARIN, "P \u2013 Presentation:\nWarfarin 5 mg daily since 2019.\n\nA \u2013 "
     "Action list:\n- Stop warfarin now.", True),
    (P12F2_NO_CHC, "P - Plan:\nEthinyl estradiol 0.035 mg / norgestimate daily.", False),
    # an answer written after an arrow or '=' answers the question before it
    (P12F2_NO_PAPILLEDEMA, "Fundus: papilledema? -> NO (sharp discs).", True),
    (P12F2_NO_PAPILLEDEMA, "Dilated exam 3/2: disc swelling? => No, margins crisp.", True),
    (P12F2_NO_PAPILLEDEMA, "Optic discs: papilloedema? = no", True),
    (P12F2_NO_PAPILLEDEMA, "Fundus: papilledema? -> YES, bilateral.", False),
    # a bare 'Not:' label turns down the items of its line
    (P12F2_NO_HEAD_CT, "Imaging: MRI brain ordered.\nNot: non-contrast head CT; not catheter "
     "angiography now.", True),
    (P12F2_NO_WARFARIN, "Anticoagulant: apixaban 5 mg BID.\nNOT: warfarin (labile INRs)",
     True),
    (P12F2_NO_HEAD_CT, "Not: CT of the head, not an LP first.", True),
    (P12F2_NO_HEAD_CT, "Plan:\nNow: non-contrast head CT; then MRI.", False),
    # 'no X on file' says what the record holds, it does not turn the test down
    (P12F2_TTE, "Structure: unknown, no echo on file.\nPlan:\n- TTE ordered.", True),
    (P12F2_BRAIN_MRI, "Prior imaging: no MRI brain in the chart.\nPlan:\n- MRI brain ordered.",
     True),
    (P12F2_TTE, "LV function: no echocardiogram results on record.\nPlan: TTE - ordered.", True),
    (P12F2_TTE, "No echo needed.\nPlan:\n- TTE ordered.", False),
    # 'Any X -> Y': the quantifier makes X a trigger, Y what it would bring
    (P12F2_SCOPE_ONLY_IF, "Plan:\n- Any rectal bleeding or weight loss -> urgent colonoscopy.",
     True),
    (P12F2_EGD_ONLY_IF, "Plan:\n- Any dysphagia, hematemesis or anemia -> expedited EGD.", True),
    (P12F2_SCOPE_ONLY_IF, "Plan:\n- any of these (melena, iron deficiency) -> colonoscopy",
     True),
    (P12F2_SCOPE_ONLY_IF, "Plan:\n- Rectal bleeding today -> colonoscopy.", False),
    # 'E in a patient with suspected A makes B unlikely': the verdict judges B, not A
    (P12F2_IBS_NOT_IBD, "A normal calprotectin in a patient with suspected IBS-D makes IBD very "
     "unlikely.", True),
    (P12F2_IBS_NOT_IBD, "Normal CRP and albumin with probable post-infectious IBS renders "
     "Crohn's disease unlikely.", True),
    (P12F2_IBS_NOT_IBD, "Assessment: likely IBS-D; a fecal calprotectin of 20 makes ulcerative "
     "colitis very unlikely.", True),
    (P12F2_IBS_NOT_IBD, "Suspected IBS-D is unlikely; IBD is probable.", False),
    # a ranked differential: an item with a low probability estimate is a possibility only
    (P12F2_IBS_NOT_IBD, "Differential:\n1. Post-infectious IBS-D (most likely, ~70%).\n2. IBD "
     "(<5%).", True),
    (P12F2_IBS_NOT_IBD, "Likely IBS-D.\nOther causes:\n- Crohn's disease (about 5-10%, "
     "calprotectin normal)", True),
    (P12F2_IBS_NOT_IBD, "Likely IBS-D. Ulcerative colitis (unlikely, 3%).", True),
    (P12F2_IBS_NOT_IBD, "Likely IBS-D.\n2. Crohn's disease (likely, 60%).", False),
    # a run-in label, then a verdict with no subject of its own: the verdict judges the label
    (P12F2_NO_SCOPE, "**Colonoscopy.** Not needed now. She is under 45.", True),
    (P12F2_NO_EGD, "**EGD.** Not indicated at this time; her reflux is typical.", True),
    (P12F2_NO_MRI, "MRI brain: Not warranted given a normal exam.", True),
    (P12F2_NO_SCOPE, "**Colonoscopy.** Arranged for next week.", False),
    # 'Label: not now' turns the label's test down for now
    (P12F2_NO_SCOPE, "colonoscopy: not now", True),
    (P12F2_NO_EGD, "Repeat EGD: not at this time", True),
    (P12F2_NO_MRI, "MRI brain - not yet", True),
    (P12F2_NO_MRI, "MRI brain: now", False),
    (P12F2_NO_MRI, "If headaches persist, the next step is MRI brain, which neurology would "
     "order - not now.", False),
    # a label naming a contingency makes its line wait on the trigger
    (P12F2_SCOPE_ONLY_IF, "Colonoscopy contingency: colonoscopy with random biopsies for "
     "microscopic colitis.", True),
    (P12F2_EGD_ONLY_IF, "Plan:\nFallback: EGD with duodenal biopsies.", True),
    (P12F2_SCOPE_ONLY_IF, "Plan:\n- Scope contingency: colonoscopy with biopsies.", True),
    (P12F2_SCOPE_ONLY_IF, "Colonoscopy plan: colonoscopy with random biopsies.", False),
    # what a disease presents with, told of the disease, is not said of this patient
    (P12F2_PSEUDO_NOT_ITP, "EDTA pseudothrombocytopenia. ITP gives a true low count with single "
     "platelets - not clumps.", True),
    (P12F2_PSEUDO_NOT_ITP, "Pseudothrombocytopenia is most likely. Immune thrombocytopenia "
     "produces a real drop in the count, not aggregates.", True),
    (P12F2_PSEUDO_NOT_ITP, "Likely platelet clumping (pseudothrombocytopenia). ITP is "
     "characterized by isolated thrombocytopenia without clumps.", True),
    (P12F2_PSEUDO_NOT_ITP, "Pseudothrombocytopenia unlikely. This is ITP.", False),
    # a 'Yes/No' answers the question, not the line run into it before the question
    (P12F2_MIGRAINE_AURA, "Reason: new migraine with aura.\n\nMEC category: 4 (migraine with "
     "aura, stroke risk)\nCan she continue the COC? NO. Stop now.", True),
    (P12F2_MIGRAINE_AURA, "Assessment: migraine with aura.\n\nDiagnosis: migraine with aura "
     "(neurology 3/2026)\nShould she stay on the ring? No.", True),
    (P12F2_MIGRAINE_AURA, "Migraine with aura.\n\nKey finding - migraine with aura\nIs the "
     "patch an option? No.", True),
    (P12F2_MIGRAINE_AURA, "Does she have migraine with aura? No.", False),
    # 'She has other options: ...' offers each option listed
    (P12F2_NO_CHC, "Start norethindrone 0.35 mg daily. She has other options: an implant, "
     "or the vaginal ring.", False),
    (P12F2_NO_CHC, "Start the POP. He also has options: DMPA or a combined pill.", False),
    (P12F2_NO_CHC, "Start the POP. There are other choices: an IUD or a combined pill.", False),
    (P12F2_NO_CHC, "Start norethindrone 0.35 mg daily. She has other options: an implant or an "
     "LNG-IUD.", True),
    # a drug whose course ending times another step is no decision on it (not started)
    (P12F2_NO_CHC, "Start the POP today, the same day the COC stops.", True),
    (P12F2_NO_WARFARIN, "Start apixaban once the warfarin is stopped and INR < 2.", True),
    (P12F2_NO_CHC, "Begin DMPA the day her combined pill pack ends.", True),
    (P12F2_NO_CHC, "Start the COC the same day.", False),
    # a verb inside an aside, with an object of its own, is not a later step on the drug
    (P12F2_NO_CHC, "Stop the COC. Acne may flare without estrogen (continue topical therapy).",
     True),
    (P12F2_NO_WARFARIN, "Stop warfarin. Bruising may settle off warfarin (keep the compression "
     "stockings).", True),
    (P12F2_NO_CHC, "Stop the COC. Headaches may ease without the pill (start a diary).", True),
    (P12F2_NO_WARFARIN, "Hold warfarin (then resume it).", False),
    # a drug's other name in an aside right after it is the same drug, with the dose after it
    (P12F2_APIXABAN_5, "AF, CHA2DS2-VASc 3.\nApixaban (Eliquis) 5 mg PO BID. Sent.", True),
    (P12F2_DEFERASIROX_1080, "Ferritin 3180.\nDeferasirox (Jadenu) 1080 mg PO once daily. "
     "E-prescribed.", True),
    (P12F2_APIXABAN_5, "Eliquis (apixaban) 5 mg twice daily. Sent to pharmacy.", True),
    (P12F2_APIXABAN_5, "AF, CHA2DS2-VASc 3.\nApixaban (Eliquis) 2.5 mg PO BID. Sent.", False),
    # '1080 mg = 3 x 360 mg': the tablets that make up the dose, not a second dose
    (P12F2_DEFERASIROX_1080, "Plan:\n- Deferasirox 14 mg/kg -> 1080 mg = 3 x 360 mg PO once "
     "daily. Sent.", True),
    (P12F2_APIXABAN_5, "Plan:\n- Start apixaban 5 mg = 2 x 2.5 mg tablets BID.", True),
    (P12F2_DEFERASIROX_1080, "Plan: start deferasirox 1080 mg =3 x 360 mg daily.", True),
    (P12F2_DEFERASIROX_1080, "Plan: start deferasirox 720 mg = 2 x 360 mg daily.", False),
    # a verbless list opening a line (after 'then' or not) shares the line's schedule
    (P12F2_FERRITIN_MONTHLY, "Cr weekly x 4 wk; then Cr, LFTs, ferritin monthly.", True),
    (P12F2_TSH_MONTHLY, "Plan:\nThen TSH and free T4 monthly.", True),
    (P12F2_FERRITIN_MONTHLY, "Monitoring: CBC, CMP, ferritin every 4 weeks.", True),
    (P12F2_FERRITIN_MONTHLY, "Ferritin was 3180, CBC and CMP monthly.", False),
    # a condition written before an arrow runs to the arrow, over the commas of its list
    (P12F2_SCOPE_ON_HB, "Plan:\n- Refer back if bleeding, weight loss, or Hb < 10 -> "
     "colonoscopy.", True),
    (P12F2_SCOPE_ON_HB, "Plan:\n- Call if pain, fever, new weight loss -> colonoscopy.", True),
    (P12F2_SCOPE_ON_HB, "Plan:\n- ED if syncope, melena, Hb under 8 -> urgent colonoscopy.",
     True),
    (P12F2_SCOPE_ON_HB, "Plan:\n- Call if pain, fever -> colonoscopy.", False),
    # I-PASS 'Situation awareness / contingencies' lists triggers, up to the next section
    (P12F2_SCOPE_ONLY_IF, "S - Situation awareness / contingencies:\n- Colonoscopy for rectal "
     "bleeding.", True),
    (P12F2_EGD_ONLY_IF, "S \u2014 Situation awareness:\n- EGD with biopsies for dysphagia.", True),
    (P12F2_SCOPE_ONLY_IF, "S - Situation awareness and contingencies:\n- colonoscopy, "
     "anemia.", True),
    (P12F2_SCOPE_ONLY_IF, "S - Situation awareness / contingencies:\n- Call for bleeding.\n\n"
     "Plan:\n- Colonoscopy next week.", False),
])
def test_reader_p12f2_structures_of_unseen_notes(grade, spec, note, passed):
    assert grade(spec, note) is passed


AZITHRO_5_DAYS = {"note_decision": {"concept": ["azithromycin"], "action": ["start"],
                                    "course": {"value": 5, "unit": "d"}}}
REMDESIVIR_3_DAYS = {"note_decision": {"concept": ["remdesivir"], "action": ["start"],
                                       "course": {"value": 3, "unit": "d"}}}
PRAZIQUANTEL_1_DAY = {"note_decision": {"concept": ["praziquantel"], "action": ["start"],
                                        "course": {"value": 1, "unit": "d"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    (AZITHRO_5_DAYS, "Start azithromycin 500 mg PO on day 1, then 250 mg PO daily on days 2 to "
     "5.", True),
    (AZITHRO_5_DAYS, "Start azithromycin 500 mg day 1 then 250 mg days 2-5.", True),
    (AZITHRO_5_DAYS, "Start azithromycin 500 mg on day 1, then 250 mg daily on days 2 to 10.",
     False),
    (REMDESIVIR_3_DAYS, "Give remdesivir 200 mg IV on day 1, then 100 mg IV on days 2 and 3.",
     True),
    (REMDESIVIR_3_DAYS, "Give remdesivir 200 mg IV day 1, then 100 mg IV daily days 2 through "
     "5.", False),
    # not a numbered-day schedule: 'in one day, 4 to 6 hours apart'
    (PRAZIQUANTEL_1_DAY, "Start praziquantel 1200 mg PO twice in one day, four to six hours "
     "apart.", True),
])
def test_a_day_numbered_schedule_gives_the_course_length(grade, spec, note, passed):
    """'200 mg day 1, then 100 mg days 2 to 5' is a 5-day course: its last numbered day."""
    assert grade(spec, note) is passed


ORDER_BRAIN_MRI = {"note_decision": {"concept": ["brain_mri"], "action": ["order"]}}


@pytest.mark.parametrize(("note", "passed"), [
    ("He needs an echocardiogram for the murmur, the syncope or the dyspnea and a brain MRI "
     "now. I have ordered both.", True),
    ("Options are an echocardiogram and a brain MRI. We've requested both today.", True),
    ("Options are a brain MRI and an echocardiogram. I've placed all of these orders.", True),
    ("Options are a brain MRI and an echocardiogram. I have not ordered either.", False),
    ("Options are a brain MRI and an echocardiogram. I ordered both in 2023.", False),
    ("Options are a brain MRI and an echocardiogram.", False),
])
def test_an_order_whose_object_stands_for_the_tests_just_named(grade, note, passed):
    """'I have ordered both.': the tests of the sentence before are ordered, committed."""
    assert grade(ORDER_BRAIN_MRI, note) is passed


P13F1_CHRONIC_MIGRAINE = {"note_finding": {"concept": ["chronic_migraine"],
                                           "opposite": ["episodic_migraine"]}}
P13F1_WARM_AIHA = {"note_finding": {"concept": ["warm_aiha"], "opposite": ["cold_agglutinin"]}}
P13F1_OXY_QID = {"note_decision": {"concept": ["oxycodone"], "action": ["continue"],
                                   "opposite": [], "dose_required": False,
                                   "every": {"min": 4, "max": 4}, "required": False}}
P13F1_PRED_DAILY = {"note_decision": {"concept": ["prednisone"], "action": ["continue"],
                                      "opposite": [], "dose_required": False,
                                      "every": {"min": 1, "max": 1}, "required": False}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a change of state named by where it started ('transformation from X', 'evolved from X',
    # 'converted from X'): X is the state left behind, not a second diagnosis
    (P13F1_CHRONIC_MIGRAINE, "Dx: chronic migraine. Transformation from episodic migraine over "
     "the past year.", True),
    (P13F1_CHRONIC_MIGRAINE, "Impression: chronic migraine. It has converted from episodic "
     "migraine as her ibuprofen use grew.", True),
    (P13F1_CHRONIC_MIGRAINE, "Impression: chronic migraine. Transitioned from episodic "
     "migraine after her move.", True),
    (P13F1_WARM_AIHA, "Dx: warm AIHA. It evolved from a cold agglutinin disease picture last "
     "spring.", True),
    (P13F1_CHRONIC_MIGRAINE, "Impression: chronic migraine. Today this is episodic migraine.",
     False),
    # what a different finding would point to ('X would make you think of Y', 'would point to
    # Y'): the diagnosis of a hypothetical picture, not of this patient
    (P13F1_WARM_AIHA, "Dx: warm AIHA. A C3d-only DAT with agglutination would make you think "
     "of cold agglutinin disease.", True),
    (P13F1_WARM_AIHA, "Dx: warm AIHA. Cold-reactive IgM would point to cold agglutinin disease "
     "instead.", True),
    (P13F1_WARM_AIHA, "Dx: warm AIHA; a thermal amplitude near 37 C would make one suspect "
     "cold agglutinin disease.", True),
    (P13F1_WARM_AIHA, "Dx: warm AIHA. The agglutination points to cold agglutinin disease.",
     False),
    # a multiplication ('20 mg oxycodone x1.5 = 30 MME', '60 kg x 1.0 mg/kg'): a factor of
    # arithmetic, not the 'x1' of a one-time dose
    (P13F1_OXY_QID, "1. Continue oxycodone 5 mg four times a day.\n2. Naloxone: she takes 30 "
     "MME/day (20 mg oxycodone x1.5) and has COPD.", True),
    (P13F1_OXY_QID, "1. Continue oxycodone 5 mg four times a day.\n2. Rescue kit: 30 MME "
     "(oxycodone 20 mg \u00d7 1.5) plus a benzodiazepine.", True),
    (P13F1_PRED_DAILY, "1. Continue prednisone 60 mg once daily.\n2. Dose check: she weighs "
     "60 kg (prednisone 60 kg x 1.0 mg/kg).", True),
    (P13F1_OXY_QID, "1. Continue oxycodone 5 mg four times a day.\n2. Extra: she takes "
     "oxycodone 5 mg x 1 tonight.", False),
])
def test_reader_p13f1_change_of_state_hypothetical_pictures_and_arithmetic(grade, spec, note,
                                                                             passed):
    """'Transformation from X': X is the state left; 'would make you think of Y': Y is the
    reading of another picture; 'x 1.5' in arithmetic is a factor, not a one-time dose."""
    assert grade(spec, note) is passed


NO_ADDED_BENZO = {"note_never": {"concept": ["benzodiazepine"],
                                 "action": ["start", "resume", "increase", "allow"]}}
NO_ADDED_SSRI = {"note_never": {"concept": ["sertraline"], "action": ["start", "increase"]}}
NO_CEPHALEXIN_NOW = {"note_never": {"concept": ["cephalexin"]}}
NO_PREDNISONE_NOW = {"note_never": {"concept": ["prednisone"]}}
NO_TEST_OF_CURE = {"note_never": {"concept": ["test_of_cure"], "action": ["order", "implicit"]}}
NO_COLONOSCOPY = {"note_never": {"concept": ["colonoscopy"], "action": ["order", "implicit"]}}
NO_MARROW = {"note_never": {"concept": ["bone_marrow_biopsy"],
                            "action": ["order", "endorse", "implicit"]}}
NO_TRAMADOL = {"note_never": {"concept": ["tramadol"], "action": ["start", "increase"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a lettered outline sub-heading that is a bare prohibition heads its numbered items
    (NO_NALTREXONE, "III. Recommendations\n   C. Do not\n      1. Rotate to methadone\n"
     "      2. Prescribe naltrexone\n   D. Support\n      1. Physical therapy\n", True),
    (NO_ADDED_BENZO, "II. Plan\n   A. Don't\n      1. Add lorazepam for sleep\n      2. Restart "
     "alprazolam\n   B. Follow-up\n      1. Call in 2 weeks\n", True),
    (NO_ADDED_SSRI, "IV. Recommendations\n   B. Do not\n      1. Stop bupropion\n"
     "      2. Increase sertraline\n   C. Labs\n      1. TSH\n", True),
    # near-miss: the next lettered title ends the list; what is planned there is planned
    (NO_ADDED_SSRI, "IV. Recommendations\n   B. Do not\n      1. Add bupropion\n"
     "   C. Depression\n      1. Increase sertraline to 100 mg\n", False),
    (NO_NALTREXONE, "III. Recommendations\n   C. Options\n      1. Prescribe naltrexone\n", False),
    # a plan verb listed under 'Avoid:' names what is avoided
    (NO_ADDED_BENZO, "- Avoid: tramadol, oxycodone increase, added benzodiazepine, muscle "
     "relaxants.", True),
    (NO_ADDED_SSRI, "- Avoid: a bupropion increase, added sertraline, tramadol.", True),
    (NO_TRAMADOL, "- Avoid: gabapentin increase, new tramadol, alcohol.", True),
    (NO_ADDED_BENZO, "Do not use: restarted clonazepam, zolpidem, alcohol.", True),
    # near-miss: the item that says what to use instead is still planned
    (NO_ADDED_SSRI, "Avoid: NSAIDs; instead start sertraline 50 mg daily.", False),
    (NO_ADDED_BENZO, "Plan: taper oxycodone; add lorazepam at night.", False),
    (NO_MARROW, "**Does she need a bone marrow biopsy or a skeletal survey?**\nA survey is not "
     "needed. I would, however, proceed with a bone marrow biopsy, since her hemoglobin fell.",
     False),
    # a gerund subject with a modal and its consequence: what it would do, not a plan
    (NO_CEPHALEXIN_NOW, "No urgency to treat; starting cephalexin (or anything aimed at the "
     "swab organisms) now would sterilize the biopsy.", True),
    (NO_PREDNISONE_NOW, "Giving prednisone before the node biopsy could mask a lymphoma.", True),
    (NO_CEPHALEXIN_NOW, "Adding cephalexin to the warfarin would destabilize her INR.", True),
    # near-miss: the gerund that is endorsed, or an imperative with a reason after it
    (NO_PREDNISONE_NOW, "Starting prednisone now would be reasonable.", False),
    (NO_CEPHALEXIN_NOW, "Start cephalexin now; it would cover the swab organisms.", False),
    # a verb-led item whose trailing aside opens with a verdict: the verdict judges the item
    (NO_TEST_OF_CURE, "[ ] Repeat stool toxin test / test of cure after therapy (not indicated; "
     "retest only if diarrhea recurs)", True),
    (NO_CEPHALEXIN_NOW, "- Start cephalexin for the swab MSSA (not recommended, colonization)",
     True),
    (NO_PREDNISONE_NOW, "3. Add prednisone 40 mg daily (not needed at this time)", True),
    (NO_COLONOSCOPY, "[ ] Schedule colonoscopy after treatment (not indicated; normal in 2022)",
     True),
    # near-miss: an aside that is no verdict
    (NO_TEST_OF_CURE, "- Order a test of cure at week 2 (she asked for it)", False),
    (NO_PREDNISONE_NOW, "3. Add prednisone 40 mg daily (taper over 2 weeks)", False),
])
def test_reader_p13f3_outline_prohibitions_and_gerund_consequences(grade, spec, note, passed):
    """'C. Do not' over '1. Prescribe naltrexone'; 'Avoid: added benzodiazepine'; 'Starting
    cephalexin now would sterilize the biopsy'; 'Repeat X (not indicated)': none plans it."""
    assert grade(spec, note) is passed


POTASSIUM_5_9 = {"note_value": {"concept": ["potassium_test"], "value": 5.9, "tolerance": 0.05}}
FERRITIN_850 = {"note_value": {"concept": ["ferritin"], "value": 850, "tolerance": 0.5}}
NO_ROSUVASTATIN = {"note_never": {"concept": ["rosuvastatin"]}}
NO_PHLEBOTOMY = {"note_never": {"concept": ["phlebotomy"]}}
NO_MARROW = {"note_never": {"concept": ["bone_marrow_biopsy"]}}
ANC_1_29 = {"note_value": {"concept": ["anc"], "value": 1.29, "tolerance": 0.05}}
ORDER_DUFFY = {"note_decision": {"concept": ["duffy_test"], "action": ["order"]}}
TSH_2_1 = {"note_value": {"concept": ["tsh"], "value": 2.1, "tolerance": 0.05}}

START_STATIN = {"note_decision": {"concept": ["statin"], "action": ["start"]}}
START_ANTICOAGULANT = {"note_decision": {"concept": ["anticoagulant"], "action": ["start"]}}
ORDER_TSH_6WK = {"note_decision": {"concept": ["tsh"], "action": ["order"],
                                   "timing": {"min": 4, "max": 12, "unit": "wk"}}}
ORDER_FERRITIN_8WK = {"note_decision": {"concept": ["ferritin"], "action": ["order"],
                                        "timing": {"min": 4, "max": 12, "unit": "wk"}}}
ORDER_K_6WK = {"note_decision": {"concept": ["potassium_test"], "action": ["order"],
                                 "timing": {"min": 4, "max": 12, "unit": "wk"}}}
STATIN_5_10 = {"note_decision": {"concept": ["statin"], "action": ["start"],
                                 "dose": {"min": 5, "max": 10, "unit": "mg"}}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # JSON written as the note: a quoted snake_case key carries the label and the unit
    (POTASSIUM_5_9, '{\n  "labs": {\n    "serum_potassium_mmol_L": 5.9,\n'
     '    "creatinine_mg_dL": 1.8\n  }\n}', True),
    (POTASSIUM_5_9, '```json\n{"chemistry": {"potassium_mEq_L": 5.9, "bicarbonate_mEq_L": 19}}'
     '\n```', True),
    (FERRITIN_850, '{\n  "iron_studies": {\n    "ferritin_ng_mL": 850,\n'
     '    "transferrin_saturation_percent": 62\n  }\n}', True),
    (POTASSIUM_5_9, '{\n  "labs": {\n    "serum_potassium_mmol_L": 4.1\n  }\n}', False),
    # a JSON array under a key that rejects: its strings are what to avoid
    (NO_ROSUVASTATIN, '{\n  "avoid": [\n    "Gemfibrozil",\n    "Rosuvastatin 40 mg",\n'
     '    "Niacin"\n  ]\n}', True),
    (NO_ROSUVASTATIN, '{\n  "recommendations": [\n    "Start rosuvastatin 40 mg daily",\n'
     '    "Repeat lipids in 8 weeks"\n  ]\n}', False),
    (STATIN_5_10, '```json\n{\n  "recommendations": [\n    "Start rosuvastatin 10 mg daily"\n'
     '  ],\n  "avoid": [\n    "Rosuvastatin 40 mg",\n    "Gemfibrozil"\n  ]\n}\n```', True),
    (STATIN_5_10, '```json\n{\n  "recommendations": [\n    "Start rosuvastatin 10 mg daily",\n'
     '    "Rosuvastatin 40 mg"\n  ]\n}\n```', False),
    # 'when' opening a past-tense clause dates the value; it sets no condition
    (FERRITIN_850, "Ferritin was 850 ng/mL when she was last transfused in March.", True),
    (FERRITIN_850, "Ferritin 850 ng/mL when iron was last given.", True),
    (POTASSIUM_5_9, "Potassium 5.9 mmol/L when spironolactone had been added two weeks "
     "earlier.", True),
    (FERRITIN_850, "Stop deferasirox when ferritin is below 850 ng/mL.", False),
    # a technical name in parentheses glossing plain words a negation denies is denied too
    (NO_PHLEBOTOMY, "- She will not require regular blood draws (phlebotomy).", True),
    (NO_PHLEBOTOMY, "- He does not need blood-letting (phlebotomy) for this ferritin.", True),
    (NO_MARROW, "- Without a bone marrow test (bone marrow biopsy) at this stage.", True),
    (NO_MARROW, "- No marrow sampling (bone marrow biopsy) unless cytopenias appear.", True),
    (NO_PHLEBOTOMY, "- She needs blood removal (phlebotomy) every 2 weeks.", False),
    (NO_PHLEBOTOMY, "- No fever; blood removal (phlebotomy) weekly until ferritin < 100.", False),
    # under 'Avoid:', what the avoided option would replace is preferred, even when the
    # label's sentence wraps onto the next line
    (START_STATIN, "Plan:\nStart rosuvastatin 10 mg daily.\nAvoid: gemfibrozil or niacin as "
     "first-line\ninstead of a statin.\n", True),
    (START_ANTICOAGULANT, "Plan:\nStart apixaban 5 mg twice daily.\nAvoid: aspirin alone\nin "
     "place of an anticoagulant.\n", True),
    (START_STATIN, "Plan:\nStart pravastatin 40 mg nightly.\nAvoid: omega-3 capsules rather "
     "than a statin.\n", True),
    (START_STATIN, "Plan:\nStart ezetimibe 10 mg daily.\nAvoid: any statin\nat any dose, "
     "given the myopathy.\n", False),
    # a test written with its value in a list a denial opened is a result, not refused
    (ORDER_TSH_6WK, "Question: dose?\n\n# Hypothyroidism\nNo goiter, TSH 7.1, no nodules -> "
     "no imaging.\n\n# Monitoring\n- Recheck TSH in 6 weeks (ordered).", True),
    (ORDER_FERRITIN_8WK, "Question: iron?\n\n# Hyperferritinemia\nNo liver disease, ferritin "
     "640, not anemic -> observe.\n\n# Monitoring\n- Repeat ferritin in 8 weeks (ordered).", True),
    (ORDER_K_6WK, "Question: ACE inhibitor?\n\n# CKD\nNo edema, potassium 5.2, not dizzy -> "
     "no change.\n\n# Monitoring\n- Recheck potassium in 6 weeks (ordered).", True),
    (ORDER_TSH_6WK, "Question: dose?\n\n# Hypothyroidism\nNo goiter, no TSH, no nodules -> "
     "no imaging.\n\n# Monitoring\n- Recheck TSH in 6 weeks (ordered).", False),
    # the Duffy typing named as a phenotyping or a blood type (task lexicon)
    (ORDER_DUFFY, "Orders: RBC Duffy antigen phenotyping, anti-Fy(a) and anti-Fy(b).", True),
    (ORDER_DUFFY, "- I have sent a blood test to check her Duffy blood type.", True),
    # a trend whose values each carry their year: only the latest year's value is current
    (ANC_1_29, "ANC 1.41 (2020), 1.26 (2021), 1.52 (2022), 1.46 (2025).", False),
    (TSH_2_1, "TSH trend 4.8 (2019), 2.1 (2021), 3.9 (2024); now symptomatic.", False),
    (FERRITIN_850, "Ferritin 850 (2018), 620 (2020), 410 ng/mL (Mar 2024).", False),
    (FERRITIN_850, "Ferritin 410 (2018), 620 (2020), 850 ng/mL (Mar 2024).", True),
])
def test_reader_p13f2_note_structures(grade, spec, note, passed):
    """A note written as JSON reads as the labels, values and lists it stands for; 'when X
    was started' is a past time, not a condition; '(phlebotomy)' glossing denied plain words
    is denied; 'Avoid: X ... instead of a statin' prefers the statin; 'No fever, ferritin 320'
    states the ferritin; in a trend dated by year only the latest value is current."""
    assert grade(spec, note) is passed


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a bracket after a drug the note names itself gives the reason, not another name
    ({"note_finding": {"concept": ["esbl"]}}, "ESBL E. coli. Fosfomycin 3 g once; no oral "
     "beta-lactams (ESBL), no ciprofloxacin (resistant).", True),
    ({"note_decision": {"concept": ["colonoscopy"], "action": ["avoid"]}},
     "She does not need a scope (colonoscopy) now.", True),
    # 'converted from X to Y': the new drug is the plan, only the old one is history
    ({"note_never": {"concept": ["methadone"]}}, "Plan: transition from buprenorphine to "
     "methadone 40 mg daily.", False),
    ({"note_finding": {"concept": ["chronic_migraine"]}}, "Her migraine has evolved from "
     "episodic to chronic migraine.", True),
])
def test_a_gloss_needs_unknown_words_and_a_change_of_state_spares_its_new_state(
        grade, spec, note, passed):
    """'no oral beta-lactams (ESBL)': the drug is named, the bracket is its reason; 'from
    buprenorphine to methadone': only the state left behind is history."""
    assert grade(spec, note) is passed


@pytest.mark.parametrize(("text", "per_day"), [
    ("apixaban 5 mg bd", 2.0), ("cefalexin 500 mg qds", 4.0), ("amoxicillin 500 mg tds", 3.0),
    ("amoxicillin 500 mg thrice daily", 3.0), ("bupropion XL 150 mg every AM", 1.0),
    ("mirtazapine 15 mg nocte", 1.0), ("gabapentin 300 mg HS", 1.0),
    ("methotrexate 15 mg once/wk", 1 / 7), ("ferrous sulfate 325 mg alt days", 0.5),
    ("rivaroxaban 20 mg x 1 daily", 1.0),
    # not a schedule: 'BD' naming bipolar disorder, the 'hs' of hs-CRP
    ("lithium 300 mg for BD", None), ("hs-CRP 3 mg/L", None),
])
def test_schedule_words_of_british_and_shorthand_prescribing(text, per_day):
    from physbench_gym.grading.quantities import schedule
    found = schedule(text)
    assert (found[0] if found else None) == (pytest.approx(per_day) if per_day else None)


STOP_SPIRONOLACTONE = {"note_decision": {"concept": ["spironolactone"], "action": ["stop"]}}
METFORMIN_1000_BID_ON = {"note_decision": {"concept": ["metformin"],
                                           "action": ["continue", "keep_dose"],
                                           "dose": {"value": 1000, "unit": "mg"},
                                           "every": {"min": 2, "max": 2}}}
ALENDRONATE_WEEKLY = {"note_decision": {"concept": ["alendronate"], "action": ["start"],
                                        "dose": {"value": 70, "unit": "mg"},
                                        "every": {"min": 0.14, "max": 0.15}}}
LEVOTHYROXINE_UP_88 = {"note_decision": {"concept": ["levothyroxine"], "action": ["increase"],
                                         "dose": {"value": 88, "unit": "mcg"}}}
STOP_OMEPRAZOLE = {"note_decision": {"concept": ["omeprazole", "ppi"], "action": ["stop"]}}
NO_ANY_NSAID = {"note_never": {"concept": ["nsaid", "topical_nsaid"]}}
NO_WARFARIN = {"note_never": {"concept": ["warfarin"]}}
NO_PDE5 = {"note_never": {"concept": ["pde5_inhibitor"]}}
ORDER_EGD = {"note_decision": {"concept": ["egd"], "action": ["order"]}}
NO_ANTIREFLUX_SURGERY = {"note_never": {"concept": ["antireflux_surgery"],
                                        "action": ["start", "order", "refer", "endorse",
                                                   "allow", "implicit"]}}
WEIGHT_LOSS = {"note_decision": {"concept": ["weight_loss"], "action": ["endorse", "counsel"],
                                 "opposite": []}}
BETA_BLOCKER_KEPT = {"note_decision": {"concept": ["beta_blocker"], "action": ["start"],
                                       "required": False}}
NO_MYELOMA = {"note_finding": {"concept": ["no_mgus"], "opposite": ["multiple_myeloma"],
                               "required": False}}
NO_CALCIUM_SUPPLEMENT = {"note_never": {"concept": ["calcium_supplement"]}}
HYPERCALCEMIA = {"note_finding": {"concept": ["hypercalcemia"]}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a question retold in quotes asks; it plans nothing
    (NO_ANY_NSAID, "Consult question from orthopaedics: 'Can we give celecoxib post-op?'\n"
     "Answer: No. All NSAIDs are to be avoided.", True),
    (NO_ANY_NSAID, "Answer: celecoxib 100 mg bid for a week is fine.", False),
    # another clinician's prescription and its cancellation are history
    (NO_ANY_NSAID, "Plan: avoid NSAIDs.\nHer pharmacist had queried a new prescription for "
     "meloxicam from urgent care; that has been cancelled.", True),
    (NO_ANY_NSAID, "Plan: avoid NSAIDs. A new prescription for meloxicam 7.5 mg daily.", False),
    # advice refused, advice about something else
    (NO_ANY_NSAID, "Plan:\n- Pt asked about Voltaren gel - advised no.", True),
    (NO_ANY_NSAID, "Plan:\n- Ibuprofen 200 mg short course acceptable for bad flares.", False),
    (NO_ANY_NSAID, "**Topical:** diclofenac 1% gel qid to knees is fine.", False),
    (STOP_SPIRONOLACTONE, "Plan:\n- Stop spironolactone.\nMed rec: pt brought 2 boxes of "
     "spironolactone - advised to return to pharmacy.", True),
    # a restart waiting on a result leaves the stop
    (STOP_SPIRONOLACTONE, "Plan:\n- Withhold spironolactone until the potassium is below 5, "
     "then restart.", True),
    (HOLD_LISINOPRIL, "Plan:\n- HOLD lisinopril 20 mg until Cr back to baseline.\n"
     "- Resume lisinopril once Cr recovered.", True),
    (HOLD_LISINOPRIL, "Plan:\n- HOLD lisinopril 20 mg.\n- Resume lisinopril tomorrow.", False),
    # the dose kept; event-bound holds and past holds are no stop of a drug that goes on
    (METFORMIN_1000_BID_ON, "| Parameter | Value | Action |\n|---|---|---|\n| eGFR | 52 | No "
     "metformin dose change (review if <45) |\nPlan: metformin 1000 mg bd - continue as is.",
     True),
    (METFORMIN_1000_BID_ON, "Plan: continue metformin 1000 mg bd.\nContingency: hold metformin "
     "if acutely unwell, restart once eating and U&E stable.", True),
    (METFORMIN_1000_BID_ON, "Recent: admitted 2 wk ago with AKI; metformin & lisinopril held, "
     "both restarted on d/c.\nPlan: continue metformin 1000 mg bd unchanged.", True),
    (METFORMIN_1000_BID_ON, "Plan: continue metformin 1000 mg bd. Please ask radiology to "
     "advise on holding metformin for 48 hours after the iodinated contrast.", True),
    (METFORMIN_1000_BID_ON, "R: Keep metformin held until GP review in 4 weeks, then restart "
     "1000 mg twice daily.\nPlan: continue metformin 1000 mg bd.", False),
    # 'wkly'; a start column dated in a table; a medication list marking today's change
    (ALENDRONATE_WEEKLY, "Plan:\n- Alendronate 70 mg PO once wkly - start.", True),
    (STOP_OMEPRAZOLE, "| Drug | Start | Decision |\n|---|---|---|\n| Omeprazole 20 mg od | 2017 "
     "| Stop - taper: alternate days x 2 wk, then stop |", True),
    (LEVOTHYROXINE_UP_88, "Medications\n- Levothyroxine 88 mcg PO once daily (NEW DOSE; "
     "previously 75 mcg)\n- Lisinopril 10 mg daily", True),
    (LEVOTHYROXINE_UP_88, "Medications\n- Levothyroxine 88 mcg PO once daily (since 2021)\n"
     "- Lisinopril 10 mg daily", False),
    # a regimen line of drug names plans them
    (NO_WARFARIN, "P:\n- Enoxaparin bridge + warfarin, target INR 2-3.", False),
    (NO_WARFARIN, "P:\n- Apixaban 10 mg bd x 7 d then 5 mg bd.\n- Warfarin: not used.", True),
    (NO_ANY_NSAID, "Culture:\n- Resistant to ibuprofen and naproxen.", True),
    # a record's status sits by its item
    (ORDER_EGD, "Test: EGD with biopsy (Barrett's screening)\nIndication: chronic GERD\n"
     "Status: ordered", True),
    (NO_ANTIREFLUX_SURGERY, "Procedure: LINX / fundoplication\nStatus: surgical referral "
     "placed now", False),
    (NO_ANTIREFLUX_SURGERY, "Procedure: anti-reflux surgery / LINX\nStatus: not now - GERD "
     "not objectively confirmed", True),
    (LEVOTHYROXINE_UP_88, "Drug: Levothyroxine sodium\nCurrent dose: 75 mcg\nNew dose: 88 mcg\n"
     "Route: PO\nStatus: INCREASE (prescription entered, 90 tablets)", True),
    # the negation of 'so he's not eating' ends at the next instruction
    (WEIGHT_LOSS, "Plan:\n- Move dinner earlier so he's not eating within 3 hours of bed, "
     "raise the head of the bed, and work on weight loss.", True),
    # 'rather than' turns down one choice, not the next
    (BETA_BLOCKER_KEPT, "Plan: start metoprolol succinate 25 mg daily. I'd pick a "
     "cardioselective beta blocker rather than propranolol, and metoprolol over atenolol.", True),
    (BETA_BLOCKER_KEPT, "Plan: start metoprolol succinate 25 mg daily. Stop metoprolol.", False),
    # a message's verb, a case that never comes, a purpose of a past test
    (NO_PDE5, "Plan:\n- Paroxetine 10 mg daily.\n- PCP message sent naming paroxetine and the "
     "sildenafil caution.", True),
    (NO_PDE5, "A daily nitrate leaves no window in which a PDE5 inhibitor could be taken "
     "safely.", True),
    (NO_PDE5, "I would not ask cardiology to stop the nitrate purely to permit sildenafil.",
     True),
    (NO_PDE5, "The requested sildenafil cannot be prescribed - sildenafil and every other PDE5 "
     "inhibitor are contraindicated with a nitrate.", True),
    (NO_CALCIUM_SUPPLEMENT, "| Drug | Current | Change | New |\n|---|---|---|---|\n| Calcium "
     "carbonate (Tums EX 750 mg) | 8 tabs/day | **STOP** | None |", True),
    (NO_CALCIUM_SUPPLEMENT, "| Drug | Current | Change | New |\n|---|---|---|---|\n| Calcium "
     "carbonate (Tums EX 750 mg) | 8 tabs/day | **continue** | 750 mg daily |", False),
    (HYPERCALCEMIA, "Labs: corrected Ca 12.3 mg/dL (moderate \u2191Ca).", True),
])
def test_reader_reads_passages_with_incidental_mentions(grade, spec, note, passed):
    assert grade(spec, note) is passed
