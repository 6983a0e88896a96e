"""nafld_ferritin_workup: the iron-profile and ferrous sulfate draws, and the note phrasings its
checkpoints must judge on each branch (metabolic hyperferritinemia or raised TSAT; ferrous
sulfate still active or a completed course)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    note_probes,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "nafld_ferritin_workup"
HT_COMPLETED = 0    # raised TSAT 60%, ferrous sulfate completed, ferritin 930, FIB-4 1.91
MET_COMPLETED = 1   # TSAT 27%, ferrous sulfate completed, ferritin 700, FIB-4 1.55
HT_ACTIVE = 5       # raised TSAT 66%, ferrous sulfate active, ferritin 804, FIB-4 1.51
MET_ACTIVE = 8      # TSAT 34%, ferrous sulfate active, ferritin 851, FIB-4 1.66


def test_canonical_values():
    vals = values(TASK)
    assert vals["iron_profile"] == {"kind": "metabolic"}
    assert vals["iron_rx"] == {"status": "active"}
    # TSAT from the rounded iron and TIBC: 92 / 296 = 31%
    assert (vals["iron"], vals["tibc"], vals["tsat"]) == (92, 296, 31)
    # FIB-4 = 52 x 52 / (192 x sqrt(61)) = 1.80, indeterminate
    assert (vals["ast"], vals["alt"], vals["plt"], vals["fib4"]) == (52, 61, 192, 1.8)
    assert (vals["ferritin"], vals["ferritin_prior"]) == (742, 624)
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    assert rx + "310325" in vals["iron_rxnorm"] and rx + "1741267" in vals["iron_rxnorm"]


def test_branches_draw_their_profiles():
    assert values(TASK, HT_COMPLETED)["iron_profile"]["kind"] == "high_tsat"
    assert values(TASK, HT_COMPLETED)["iron_rx"]["status"] == "completed"
    assert values(TASK, MET_COMPLETED)["iron_profile"]["kind"] == "metabolic"
    assert values(TASK, HT_ACTIVE)["iron_rx"]["status"] == "active"
    seen = {(values(TASK, n)["iron_profile"]["kind"], values(TASK, n)["iron_rx"]["status"])
            for n in range(20)}
    assert len(seen) == 4
    for n in range(20):
        vals = values(TASK, n)
        assert (vals["tsat"] <= 40) is (vals["iron_profile"]["kind"] == "metabolic")
        assert 1.4 <= vals["fib4"] <= 2.55


CORRECT = [
    (None, "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia of MASLD, not "
           "hemochromatosis. FIB-4 1.80, indeterminate. Order transient elastography. No "
           "phlebotomy. Stop ferrous sulfate."),
    (None, """Assessment:
- Ferritin 742 ng/mL with transferrin saturation 31%: dysmetabolic hyperferritinemia; HFE
  hemochromatosis is unlikely with a TSAT below 45%.
- FIB-4 = 1.8, indeterminate risk of advanced fibrosis.
Plan:
1. FibroScan ordered.
2. Phlebotomy is not indicated.
3. Discontinue ferrous sulfate; he is not iron deficient."""),
    (None, "His ferritin is 742 ng/mL but the transferrin saturation is only 31%, so this is "
           "metabolic hyperferritinemia from fatty liver and insulin resistance rather than iron "
           "overload. FIB-4 is 1.8, in the indeterminate zone, so I ordered a FibroScan. He does "
           "not need phlebotomy or a liver biopsy. Please stop his ferrous sulfate."),
    (MET_COMPLETED, "Ferritin 700, TSAT 27%: metabolic hyperferritinemia (MASLD). FIB-4 1.55 - "
                    "indeterminate. VCTE ordered. No phlebotomy. No iron supplements."),
    (HT_ACTIVE, "Ferritin 804 ng/mL, TSAT 66% (elevated). Hereditary hemochromatosis must be "
                "excluded. FIB-4 1.51, indeterminate. Ordered HFE genotyping (C282Y/H63D) and "
                "transient elastography. Phlebotomy only if he is C282Y homozygous. Stop ferrous "
                "sulfate."),
    (HT_COMPLETED, """| Item | Result |
|---|---|
| Ferritin | 930 ng/mL |
| TSAT | 60% (high) |
| FIB-4 | 1.91 (indeterminate) |
Assessment: raised TSAT - evaluate for hemochromatosis.
Plan: order HFE genotype and FibroScan. Hold off on phlebotomy until the HFE result is back.
No iron supplements."""),
    # review 1: hemochromatosis named in passing beside the metabolic diagnosis
    (None, "Ferritin 742 ng/mL, TSAT 31%. Hemochromatosis raises the transferrin saturation (>45%) "
           "first; this is metabolic hyperferritinemia related to MASLD. FIB-4 1.8, indeterminate. "
           "FibroScan ordered. No phlebotomy. Stop ferrous sulfate."),
    # review 2: the parenthetical and British forms, and the cause spelled out
    (None, "Ferritin 742 ng/mL, TSAT 31% - metabolic (dysmetabolic) hyperferritinaemia of MASLD. "
           "FIB-4 1.8, indeterminate. FibroScan ordered. No phlebotomy. Stop ferrous sulfate."),
    (None, "Ferritin 742 ug/L, TSAT 31%; hyperferritinaemia of MASLD. FIB-4 1.8, indeterminate. "
           "FibroScan ordered. No phlebotomy. Stop ferrous sulfate."),
    (MET_ACTIVE, "Ferritin 851 ng/mL, TSAT 34%: elevated ferritin due to fatty liver and insulin "
                 "resistance, not iron overload. FIB-4 1.66, indeterminate. FibroScan ordered. No "
                 "phlebotomy. Stop ferrous sulfate."),
    # review 3/4: the raised-TSAT branch in other words
    (HT_COMPLETED, "Ferritin 930 ng/mL with a raised transferrin saturation of 60%: hereditary "
                   "hemochromatosis must be excluded. FIB-4 1.91, indeterminate. Ordered HFE "
                   "genotyping and transient elastography. Phlebotomy only if he is C282Y "
                   "homozygous. No iron supplements."),
    (HT_ACTIVE, "Ferritin 804 ng/mL with a high TSAT of 66%; rule out hereditary hemochromatosis. "
                "FIB-4 1.51 (indeterminate). HFE gene testing (C282Y/H63D) and FibroScan ordered. "
                "No phlebotomy until the genotype is back. Stop the ferrous sulfate."),
    (HT_ACTIVE, "Ferritin 804 ng/mL, TSAT 66%: elevated transferrin saturation, so HFE "
                "hemochromatosis is possible. FIB-4 1.51, indeterminate. Ordered HFE genotyping "
                "and VCTE. If C282Y homozygous and phlebotomy is not possible, iron chelation "
                "could then be considered; no phlebotomy now. Discontinue ferrous sulfate."),
    # review 4: the completed course in other words
    (MET_COMPLETED, "Ferritin 700 ng/mL, TSAT 27%: hyperferritinemia of MASLD. FIB-4 1.55, "
                    "indeterminate. FibroScan ordered. No phlebotomy or chelation. He finished his "
                    "ferrous sulfate course in 2023 and should not restart it."),
    (HT_COMPLETED, "Ferritin 930 ng/mL, TSAT 60% (high). Concern for hereditary hemochromatosis. "
                   "FIB-4 1.91, indeterminate. HFE genotype and elastography ordered. Phlebotomy "
                   "only if C282Y homozygous. Avoid iron and vitamin C supplements."),
    # review 3: a value above the named cut-off is raised; "to be excluded" keeps it open
    pytest.param((HT_ACTIVE, "Ferritin 804 ng/mL. TSAT 66%, above the 45% threshold; hereditary "
                             "hemochromatosis needs to be excluded. FIB-4 1.51, indeterminate. "
                             "Ordered HFE genotyping and FibroScan. No phlebotomy until the "
                             "genotype is back. Stop ferrous sulfate."), id="above-45"),
    pytest.param((HT_ACTIVE, "Ferritin 804 ng/mL, TSAT 66% (>45%). Concern for hereditary "
                             "hemochromatosis. FIB-4 1.51, indeterminate. Ordered HFE genotyping "
                             "and FibroScan. No phlebotomy until the genotype is back. Stop "
                             "ferrous sulfate."), id="gt-45"),
    pytest.param((HT_ACTIVE, "Ferritin 804 ng/mL, transferrin saturation of 66%, which is above "
                             "45%, so hereditary hemochromatosis must be ruled out. FIB-4 1.51, "
                             "indeterminate. Ordered HFE genotyping and FibroScan. No phlebotomy "
                             "until the genotype is back. Stop ferrous sulfate."),
                 id="above-45-which-is"),
    pytest.param((HT_ACTIVE, "Ferritin 804 ng/mL, TSAT 66% (elevated). Hemochromatosis to be "
                             "excluded. FIB-4 1.51, indeterminate. Ordered HFE genotyping and "
                             "FibroScan. No phlebotomy until the genotype is back. Stop ferrous "
                             "sulfate."), id="to-be-excluded"),
]

WRONG = [
    # the pneumonia-admission ferritin and TSAT quoted as current
    (None, "iron_studies_interpreted",
     "Ferritin 1180 ng/mL, TSAT 9%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. Order "
     "transient elastography. No phlebotomy. Stop ferrous sulfate."),
    # metabolic branch called hemochromatosis
    (None, "iron_studies_interpreted",
     "Ferritin 742 ng/mL, TSAT 31%. Likely hereditary hemochromatosis. FIB-4 1.8, indeterminate. "
     "Order transient elastography. No phlebotomy. Stop ferrous sulfate."),
    # raised TSAT dismissed
    (HT_ACTIVE, "iron_studies_interpreted",
     "Ferritin 804 ng/mL, TSAT 66% (elevated). Not hemochromatosis. FIB-4 1.51, indeterminate. "
     "Order HFE genotyping and transient elastography. No phlebotomy. Stop ferrous sulfate."),
    # FIB-4 called low risk
    (None, "fib4_assessed",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, low risk. Order "
     "transient elastography. No phlebotomy. Stop ferrous sulfate."),
    # phlebotomy recommended for metabolic hyperferritinemia
    (None, "plan_documented",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. Order "
     "transient elastography. Start therapeutic phlebotomy every 2 weeks to a ferritin under "
     "100. Stop ferrous sulfate."),
    # phlebotomy offered as an option
    (None, "plan_documented",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. Order "
     "transient elastography. Phlebotomy could be considered. Stop ferrous sulfate."),
    # liver biopsy now
    (None, "plan_documented",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. Order "
     "transient elastography and a liver biopsy. No phlebotomy. Stop ferrous sulfate."),
    # no elastography
    (None, "plan_documented",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. "
     "No phlebotomy. Stop ferrous sulfate. Recheck ferritin in 6 months."),
    # raised TSAT without HFE genotyping
    (HT_ACTIVE, "plan_documented",
     "Ferritin 804 ng/mL, TSAT 66% (elevated). Hemochromatosis to be excluded. FIB-4 1.51, "
     "indeterminate. Order transient elastography. No phlebotomy. Stop ferrous sulfate."),
    # raised TSAT: phlebotomy before the genotype
    (HT_ACTIVE, "plan_documented",
     "Ferritin 804 ng/mL, TSAT 66% (elevated). Hemochromatosis to be excluded. FIB-4 1.51, "
     "indeterminate. Order HFE genotyping and transient elastography. Start phlebotomy now. "
     "Stop ferrous sulfate."),
    # ferrous sulfate continued
    (None, "iron_supplement_addressed",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. Order "
     "transient elastography. No phlebotomy. Continue ferrous sulfate."),
    # ferrous sulfate not addressed
    (None, "iron_supplement_addressed",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. Order "
     "transient elastography. No phlebotomy."),
    # iron restarted after a completed course
    (MET_COMPLETED, "iron_supplement_addressed",
     "Ferritin 700, TSAT 27%: metabolic hyperferritinemia. FIB-4 1.55, indeterminate. VCTE "
     "ordered. No phlebotomy. Restart ferrous sulfate 325 mg daily."),
    # review 4: iron offered for later after a completed course
    (HT_COMPLETED, "iron_supplement_addressed",
     "Ferritin 930 ng/mL, TSAT 60% (high). Hemochromatosis must be excluded. FIB-4 1.91, "
     "indeterminate. HFE genotype and FibroScan ordered. No phlebotomy until the result is back. "
     "Iron supplements could be considered if his hemoglobin falls."),
    # review 4: HH dismissed despite a raised TSAT, with the metabolic label
    (HT_COMPLETED, "iron_studies_interpreted",
     "Ferritin 930 ng/mL, TSAT 60%. Raised TSAT but this is metabolic hyperferritinemia, not "
     "hemochromatosis. FIB-4 1.91, indeterminate. HFE genotype and FibroScan ordered. No "
     "phlebotomy. No iron supplements."),
    # review 4: the raised-TSAT value misquoted as the stale 9%
    (HT_COMPLETED, "iron_studies_interpreted",
     "Ferritin 930 ng/mL, TSAT 9% (low). Hemochromatosis must be excluded. FIB-4 1.91, "
     "indeterminate. HFE genotype and FibroScan ordered. No phlebotomy. No iron supplements."),
    # review 4: phlebotomy before the genotype, in the completed branch
    (HT_COMPLETED, "plan_documented",
     "Ferritin 930 ng/mL, TSAT 60% (high). Hemochromatosis must be excluded. FIB-4 1.91, "
     "indeterminate. HFE genotype and FibroScan ordered. Start phlebotomy now while we wait for "
     "the genotype. No iron supplements."),
    # review 7: chelation in either branch
    (HT_ACTIVE, "plan_documented",
     "Ferritin 804 ng/mL, TSAT 66% (elevated). Hemochromatosis must be excluded. FIB-4 1.51, "
     "indeterminate. HFE genotyping and FibroScan ordered. No phlebotomy; start deferasirox "
     "chelation. Stop ferrous sulfate."),
    (None, "plan_documented",
     "Ferritin 742 ng/mL, TSAT 31%. Metabolic hyperferritinemia. FIB-4 1.8, indeterminate. "
     "FibroScan ordered. No phlebotomy. Iron chelation with deferasirox could be considered. Stop "
     "ferrous sulfate."),
    # review 10: phlebotomy for any HFE variant - only the high_tsat rubric tells genotypes apart
    pytest.param((HT_ACTIVE, "plan_documented",
                  "Ferritin 804 ng/mL, TSAT 66% (elevated). Hemochromatosis must be excluded. "
                  "FIB-4 1.51, indeterminate. HFE genotyping and FibroScan ordered. Phlebotomy if "
                  "he carries any HFE variant, including H63D heterozygosity. Stop ferrous "
                  "sulfate."),
                 marks=pytest.mark.xfail(strict=True, reason="the deterministic grader accepts any "
                                         "HFE-result trigger; the rubric names the genotype"),
                 id="gap-h63d-phlebotomy"),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (HT_COMPLETED, MET_COMPLETED, HT_ACTIVE, MET_ACTIVE),
                  [None, HT_COMPLETED, MET_COMPLETED]))


ELASTOGRAPHY = service_request("91200", "cpt", "imaging",
                               display="Vibration-controlled transient elastography (FibroScan)")
HFE = service_request("81256", "cpt", "laboratory",
                      display="HFE gene analysis, common variants (C282Y, H63D)")


def _rx(code: str, dose: float) -> dict:
    return {"tool": "fhir_medication_request_create",
            "arguments": {"patient": "{patient_id}", "medication_code": code,
                          "dose_value": dose, "dose_unit": "mg"}}


@pytest.mark.parametrize(("variant", "actions", "passes"), [
    (None, [ELASTOGRAPHY], True),
    (HT_ACTIVE, [ELASTOGRAPHY, HFE], True),
    (HT_ACTIVE, [ELASTOGRAPHY], False),                       # no HFE genotyping
    # review 6: phlebotomy named in an order's note is no phlebotomy order
    (HT_ACTIVE, [ELASTOGRAPHY, service_request(
        "81256", "cpt", "laboratory", display="HFE gene analysis",
        note="If C282Y homozygous, therapeutic phlebotomy will follow.")], True),
    (None, [service_request("91200", "cpt", "imaging", display="FibroScan",
                            note="No phlebotomy needed; liver biopsy only if discordant.")], True),
    # review 8: elastography under another code, named in its display
    (None, [service_request("76705", "cpt", "imaging",
                            display="Liver FibroScan elastography")], True),
    (None, [service_request("76705", "cpt", "imaging",
                            display="Ultrasound abdomen, limited")], False),
    # review 6/7: must-nots by code
    (None, [ELASTOGRAPHY, service_request("99195", "cpt", "procedure")], False),
    (None, [ELASTOGRAPHY, service_request("127606004", "snomed", "procedure",
                                          display="Therapeutic phlebotomy")], False),
    (None, [ELASTOGRAPHY, service_request("47000", "cpt", "procedure")], False),
    (None, [ELASTOGRAPHY, service_request("86259008", "snomed", "procedure",
                                          display="Liver biopsy")], False),
    (None, [ELASTOGRAPHY, _rx("1607792", 360)], False),       # deferasirox
    (MET_COMPLETED, [ELASTOGRAPHY, _rx("310325", 325)], False),  # iron restarted
])
def test_workup_orders(variant, actions, passes):
    assert run_actions(TASK, actions, variant)["workup_ordered"] is passes


def test_fasting_draw_is_in_the_chart():
    assert values(TASK)["draw_text"].startswith("Fasting morning draw")
    assert "ferrous sulfate" not in values(TASK, MET_COMPLETED)["draw_text"]
