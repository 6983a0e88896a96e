"""ckd_on_prep: the derived kidney function and the note phrasings and orders its checkpoints
must judge on each branch (tenofovir disoproxil tubulopathy -> F/TAF; creatine -> resume PrEP)."""

from __future__ import annotations

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "ckd_on_prep"
CREATINE = 0   # seed drawing the creatine profile (creatinine 1.56, CrCl 82, eGFRcys 102)


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == {"kind": "tdf_injury"}
    assert (vals["scr"], vals["crcl"], vals["egfr"]) == (1.87, 53, 44)
    assert vals["weight"] == 76.0 and vals["phosphate"] == 2.1
    assert vals["prep_order_codes"] == ["1747691", "1747697"]
    assert vals["forbidden_prep_codes"] == ["476556", "639888"]


def test_branches():
    v = values(TASK, CREATINE)
    assert v["profile"]["kind"] == "creatine"
    assert (v["scr"], v["crcl"], v["egfr"], v["egfr_cys"]) == (1.56, 82, 55, 102)
    kinds = [values(TASK, n)["profile"]["kind"] for n in range(20)]
    assert 4 <= kinds.count("creatine") <= 16
    for n in range(20):
        w = values(TASK, n)
        assert (w["crcl"] < 60) == (w["profile"]["kind"] == "tdf_injury")


INJ = ("Creatinine 1.87 mg/dL now; Cockcroft-Gault CrCl 53 mL/min. Glycosuria with normal glucose, "
       "phosphate 2.1, UPCR far above UACR: tenofovir-associated proximal tubulopathy. ")
INJ_PLAN = "Start F/TAF 200/25 mg daily once HIV test is negative. Stop naproxen; avoid NSAIDs."
CRE = ("Current creatinine 1.56 mg/dL, CrCl 82 mL/min. Cystatin C 0.85 is normal: the rise is from "
       "creatine supplementation, not a fall in GFR. ")
CRE_PLAN = "Restart F/TDF one tablet daily after a negative HIV test."

CORRECT = [
    (None, INJ + INJ_PLAN),
    (None, """## Assessment
- SCr 1.87 (CrCl ~53 mL/min by Cockcroft-Gault)
- Proximal tubular dysfunction from TDF (Fanconi-like: glycosuria, low phos)
## Plan
- Switch PrEP to Descovy 1 tab daily
- Stop naproxen
- Truvada should not be restarted"""),
    (None, ("His serum creatinine is 165 umol/L (CrCl about 50 mL/min). This is TDF "
            "nephrotoxicity. "
            "I recommend emtricitabine/tenofovir alafenamide one tablet daily for PrEP. "
            "Avoid NSAIDs.")),
    (CREATINE, CRE + CRE_PLAN),
    (CREATINE, ("| Test | Value |\n|---|---|\n| Creatinine | 1.56 mg/dL |\n"
                "| CrCl (CG) | 82 mL/min |\n"
                "Interpretation: spuriously elevated creatinine from creatine monohydrate and "
                "increased muscle mass; no tubulopathy.\nPlan: resume Truvada daily now.")),
    (CREATINE, CRE + "Resume PrEP with F/TAF 200/25 mg daily today."),
    # the diagnosis and the clearance in other words (eCrCl is the CDC guideline's abbreviation)
    (None, "Creatinine 1.87 mg/dL now; eCrCl 53 mL/min. Tenofovir tubulopathy. " + INJ_PLAN),
    (None, "Creatinine 1.87 mg/dL now; CrCl 53 mL/min. Tenofovir-associated tubular injury. "
     + INJ_PLAN),
    (None, "Creatinine 1.87 mg/dL now; CrCl 53 mL/min. Renal tubular dysfunction from tenofovir "
           "disoproxil. " + INJ_PLAN),
    (None, "Creatinine 1.87 mg/dL now; CrCl 53 mL/min. TDF-related proximal tubule damage. "
     + INJ_PLAN),
    (None, "Creatinine 1.87 mg/dL now; CrCl 53 mL/min. This is tenofovir disoproxil toxicity to "
           "the proximal tubule. " + INJ_PLAN),
    # the start gated on the negative HIV test it needs
    (None, INJ + "HIV Ag/Ab today; if neg, start F/TAF 200/25 mg 1 tab PO daily. Stop naproxen; "
     "no NSAIDs."),
    # creatine: a CrCl from ideal body weight beside the actual-weight value
    (CREATINE, "Current creatinine 1.56 mg/dL. CrCl 58 mL/min by ideal body weight, 82 by actual "
               "weight. Cystatin C normal; creatinine rise is due to creatine supplementation. "
     + CRE_PLAN),
]

WRONG = [
    # stale creatinine as current
    (None, "kidney_function_interpreted", INJ.replace("1.87", "1.28") + INJ_PLAN),
    # CrCl stated above 60 in the injury branch
    (None, "kidney_function_interpreted", INJ.replace("53 mL/min", "68 mL/min") + INJ_PLAN),
    # creatine reading on the injury branch
    (None, "kidney_function_interpreted",
     "Creatinine 1.87, CrCl 53 mL/min. The rise is from creatine supplements and more muscle mass. "
     + INJ_PLAN),
    # F/TDF resumed, or offered for later
    (None, "prep_plan_documented", INJ + "Resume Truvada daily. Stop naproxen."),
    (None, "prep_plan_documented", INJ + INJ_PLAN + " Alternatively F/TDF could be continued."),
    # no NSAID advice
    (None, "prep_plan_documented", INJ + "Start F/TAF 200/25 mg daily."),
    # PrEP left off
    (None, "prep_plan_documented", INJ + "Hold all PrEP. Stop naproxen."),
    # tubulopathy called on the creatine branch
    (CREATINE, "kidney_function_interpreted",
     "Creatinine 1.56, CrCl 82 mL/min. Tenofovir nephrotoxicity. " + CRE_PLAN),
    # wrong creatinine on the creatine branch
    (CREATINE, "kidney_function_interpreted", CRE.replace("1.56", "1.04") + CRE_PLAN),
    # PrEP kept on hold on the creatine branch
    (CREATINE, "prep_plan_documented",
     CRE + "Keep PrEP on hold until the creatinine is repeated off creatine."),
    (CREATINE, "prep_plan_documented", CRE + "Stop F/TDF."),
    # F/TAF on demand (2-1-1 is not established for F/TAF) or twice daily
    (None, "prep_plan_documented", INJ + "Start F/TAF 200/25 mg on-demand 2-1-1 (2 tabs 2-24 h "
     "before sex, then 1 tab at 24 h and 48 h). Stop naproxen; avoid NSAIDs."),
    (None, "prep_plan_documented", INJ + "Start F/TAF 200/25 mg as needed before sex. "
     "Stop naproxen."),
    # a start gated on anything but the HIV test is no commitment
    (None, "prep_plan_documented", INJ + "If the creatinine improves, start F/TAF 200/25 mg "
     "daily. Stop naproxen; avoid NSAIDs."),
    # the second strength of the combination tablet counts too
    (None, "prep_plan_documented", INJ + "Start emtricitabine/tenofovir alafenamide 200 mg/10 mg "
     "-> 1 tablet daily. Stop naproxen; avoid NSAIDs."),
    (None, "prep_plan_documented", INJ + "Start F/TAF 200/25 mg twice daily. Stop naproxen."),
    (None, "prep_plan_documented", INJ + "Start F/TAF 400 mg daily. Stop naproxen; avoid NSAIDs."),
]


test_a_correct_note_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_the_canonical_note_fails_the_other_branch():
    assert not all(grade_note(TASK, oracle_note(TASK), CREATINE).values())
    assert not all(grade_note(TASK, oracle_note(TASK, CREATINE)).values())


def _actions(variant=None, drop=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = [{"tool": c.tool, "arguments": dict(c.arguments)}
             for c in get_instance(TASK, variant).oracle.calls if c.tool not in drop]
    return calls + list(extra)


def _rx(code):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": 1, "dose_unit": "tablet",
        "route": "oral", "frequency": 1, "period_unit": "day"}}


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


RX = "fhir_medication_request_create"


def test_prep_orders():
    """Injury: F/TAF passes, F/TDF (alone or beside F/TAF) fails; creatine: either passes."""
    assert _run(_actions())["prep_prescribed"]
    assert not _run(_actions(drop=(RX,), extra=[_rx("476556")]))["prep_prescribed"]
    assert not _run(_actions(extra=[_rx("476556")]))["prep_prescribed"]
    assert not _run(_actions(drop=(RX,)))["prep_prescribed"]
    assert _run(_actions(CREATINE), CREATINE)["prep_prescribed"]
    assert _run(_actions(CREATINE, drop=(RX,), extra=[_rx("1747691")]), CREATINE)["prep_prescribed"]
    assert not _run(_actions(CREATINE, drop=(RX,)), CREATINE)["prep_prescribed"]


MSG = "fhir_communication_create_message"


def _msg(text):
    return {"tool": MSG, "arguments": {"patient": "{patient_id}", "recipient": "{referring_id}",
                                       "text": text}}


def test_message_gives_the_right_advice():
    """The message is graded on what it advises, not only on the names it contains."""
    assert _run(_actions())["pcp_message_sent"]
    wrong = _msg("Resume Truvada (F/TDF); no need for TAF.")
    assert not _run(_actions(drop=(MSG,), extra=[wrong]))["pcp_message_sent"]
    assert _run(_actions(CREATINE), CREATINE)["pcp_message_sent"]
    for wrong in ("Keep PrEP on hold until the creatinine is rechecked off creatine.",
                  "CrCl below 60: stop F/TDF and hold PrEP for now."):
        assert not _run(_actions(CREATINE, drop=(MSG,), extra=[_msg(wrong)]), CREATINE)[
            "pcp_message_sent"], wrong


def test_nsaid_order_and_double_prep_fail():
    """Injury: an NSAID order fails prep_prescribed; creatine: F/TDF and F/TAF together fail."""
    assert not _run(_actions(extra=[_rx("310965")]))["prep_prescribed"]
    assert not _run(_actions(extra=[_rx("198014")]))["prep_prescribed"]
    assert not _run(_actions(CREATINE, extra=[_rx("1747691")]), CREATINE)["prep_prescribed"]


def test_chart_records_the_declined_injectable():
    """Both branches: he was offered cabotegravir injections and chose a daily pill."""
    from tests.tasks.helpers import get_instance
    for variant in (None, CREATINE):
        texts = " ".join(n.text for n in get_instance(TASK, variant).story.notes)
        assert "declines injections and prefers a daily pill" in texts


def test_hiv_rna_alone_counts_as_the_hiv_test():
    """After recent oral PrEP, CDC 2021 adds HIV-1 RNA; an order by its code alone passes."""
    from tests.tasks.helpers import service_request
    drop = [c for c in _actions() if c["tool"] == "fhir_service_request_create"
            and c["arguments"]["code"] in ("56888-1", "20447-9")]
    kept = [c for c in _actions() if c not in drop]
    assert not _run(kept)["hiv_test_ordered"]
    assert _run(kept + [service_request("20447-9", "loinc", "laboratory")])["hiv_test_ordered"]
