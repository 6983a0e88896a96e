"""immunosuppression_post_covid: restarting methotrexate for rheumatoid arthritis after COVID-19.

The COVID-19 course was uncomplicated and symptoms resolved 8-13 days ago, inside the ACR window
(restart 7-14 days after symptom resolution). The scenario decides the answer:
- resume: post-recovery labs normal -> restart methotrexate now at her previous weekly dose.
- alt_high: post-recovery ALT above 3x ULN (table ULN 56 U/L) -> keep methotrexate on hold and
  repeat the liver tests (ACR 2008 RA DMARD recommendations; BSR/BHPR 2017: ALT > 100 U/L).
Every branch: continue prednisone 5 mg daily; no repeat SARS-CoV-2 test for clearance.
"""

from __future__ import annotations

from typing import Any

LOINC = "http://loinc.org|"
CPT = "http://www.ama-assn.org/go/cpt|"
ALT_ULN = 56  # U/L, upper reference limit of LOINC 1742-6 in the terminology table
# SARS-CoV-2 NAAT and antigen tests (HL7 COVID-19 test value sets / CDC LIVD mapping):
# LOINC 94500-6 RNA resp NAA probe, 94309-2 RNA unspecified specimen NAA probe, 94306-8 and
# 94531-1 RNA panels, 94759-8 RNA nasopharynx NAA probe, 94558-4 Ag resp rapid immunoassay,
# 95209-3 SARS-CoV+SARS-CoV-2 Ag resp rapid immunoassay, 94564-2 Ag upper resp rapid
# immunoassay; CPT 87635 amplified probe, 87636/87637 multiplex (with influenza / influenza +
# RSV) amplified probe, 87426 antigen immunoassay, 87811 antigen immunoassay, direct optical.
COVID_TEST_CODES = [LOINC + c for c in ("94500-6", "94309-2", "94306-8", "94531-1", "94759-8",
                                        "94558-4", "95209-3", "94564-2")] + [
    CPT + c for c in ("87635", "87636", "87637", "87426", "87811")]
# The same test ordered as a lab in free text: assay names only. A not_ordered text_contains
# also reads a ServiceRequest's note, so generic words a refusal uses ("no repeat COVID test
# needed") are left out; LOINC long names put "(COVID-19)" between the virus and the analyte.
COVID_TEST_TEXT = ["SARS-CoV-2 PCR", "SARS-CoV-2 RNA", "SARS-CoV-2 NAA", "SARS-CoV-2 NAAT",
                   "SARS-CoV-2 antigen", "SARS-CoV+SARS-CoV-2", "COVID-19) RNA", "COVID-19) Ag",
                   "COVID-19 RNA", "COVID antigen", "COVID-19 antigen"]
# Repeat liver tests: hepatic function panel, comprehensive metabolic panel, ALT (LOINC or CPT).
LIVER_TEST_CODES = [LOINC + c for c in ("24325-3", "24323-8", "1742-6")] + [
    CPT + c for c in ("80076", "80053", "84460")]


def post_covid_mtx(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    dose = values["mtx_dose"]
    if kind == "alt_high":
        alt = values["alt_high"]
        if alt <= 3 * ALT_ULN:
            raise ValueError(f"alt_high {alt} is not above 3x ULN")
        ast = round(alt * 0.72)
    else:
        alt, ast = 27, 25
    tablets = dose / 2.5
    tablets_text = f"{tablets:g}"
    return {
        "alt_now": alt,
        "ast_now": ast,
        "mtx_sig": (f"Take {tablets_text} tablets ({dose:g} mg) by mouth ONCE WEEKLY on the same "
                    "day each week. Do not take daily."),
        "mtx_tablets_12wk": int(tablets * 12),
        "covid_test_codes": COVID_TEST_CODES,
        "covid_test_text": COVID_TEST_TEXT,
        "liver_test_codes": LIVER_TEST_CODES,
    }
