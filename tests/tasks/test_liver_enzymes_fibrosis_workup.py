"""liver_enzymes_fibrosis_workup: the FIB-4 band draws (HCV cut-offs 1.45 and 3.25) and the note
phrasings its checkpoints must judge on each branch (low: no HCC surveillance; intermediate:
elastography; high: presumed cirrhosis, ultrasound every 6 months)."""

from __future__ import annotations

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "liver_enzymes_fibrosis_workup"
LOW = 0           # FIB-4 1.14 (AST 43, ALT 75, platelets 253)
INTERMEDIATE = 6  # FIB-4 2.49
HIGH = 4          # FIB-4 5.0 (AST 99, ALT 77, platelets 131)


def test_canonical_values():
    vals = values(TASK)
    assert (vals["ast"], vals["alt"], vals["plt"]) == (64, 74, 196)
    assert vals["fib4"] == 2.2
    assert vals["fib4_category"] == "intermediate"
    assert vals["fib4_level"] == ["level_intermediate"]
    assert vals["fib4_other_levels"] == ["level_low", "level_high"]


def test_branches_draw_their_bands():
    assert values(TASK, LOW)["fib4_category"] == "low"
    assert values(TASK, INTERMEDIATE)["fib4_category"] == "intermediate"
    high = values(TASK, HIGH)
    assert high["fib4_category"] == "high" and high["plt"] < 150
    draws = [values(TASK, n) for n in range(20)]
    assert {d["fib4_category"] for d in draws} == {"low", "intermediate", "high"}
    # platelets below 150 only in the high band (AASLD-IDSA: clinical evidence of cirrhosis)
    assert all((d["plt"] < 150) == (d["fib4_category"] == "high") for d in draws)
    # the latest ALT is above the upper limit (56) and last year's 63 in every draw
    assert all(d["alt"] > 63 for d in draws)


CORRECT = [
    (None, "Chronic HCV, RNA 1.85M. FIB-4 2.2 - indeterminate. Order FibroScan. Start "
           "sofosbuvir/velpatasvir x12 wk after HBV/HIV labs. No liver biopsy."),
    (None, """| Item | Result |
|---|---|
| FIB-4 | 2.2 (indeterminate, 1.45–3.25) |
| Staging | transient elastography ordered |
| Treatment | glecaprevir/pibrentasvir 8 weeks |

Liver biopsy is not needed."""),
    (None, ("Dear colleague, his FIB-4 is 2.2, which is in the intermediate range, so I have "
            "ordered a transient elastography to stage his fibrosis. For his hepatitis C I "
            "recommend glecaprevir/pibrentasvir for 8 weeks once the hepatitis B and HIV results "
            "are back. A liver biopsy is not required.")),
    (LOW, "FIB-4 1.14, low risk: advanced fibrosis unlikely. No HCC surveillance needed. Start "
          "glecaprevir/pibrentasvir for 8 weeks. No liver biopsy."),
    (LOW, ("Assessment: FIB-4 1.14 (low). Plan:\n1. Start sofosbuvir/velpatasvir for 12 weeks.\n"
           "2. HCC surveillance is not indicated without cirrhosis.\n3. No liver biopsy.")),
    (HIGH, "FIB-4 5.0 - high; cirrhosis presumed. Liver ultrasound every 6 months for HCC "
           "surveillance, also after SVR. Start sofosbuvir/velpatasvir for 12 weeks. No liver "
           "biopsy."),
    (HIGH, ("Assessment: compensated cirrhosis presumed, FIB-4 5.0 (high).\nPlan:\n"
            "- HCC surveillance: ultrasound ± AFP every 6 months, lifelong.\n"
            "- Treat with glecaprevir/pibrentasvir 8 weeks.\n- Liver biopsy not needed.")),
    # review findings 2, 5, 6 and 1: surveillance 'continued after cure', the band named by its
    # cut-off, 'treat HCV with', a biopsy conditioned on the elastography
    (HIGH, "FIB-4 5.0, well above 3.25 - cirrhosis presumed. HCC surveillance every 6 months, "
           "continued after cure. Start glecaprevir/pibrentasvir for 8 weeks. No liver biopsy."),
    (LOW, "FIB-4 1.14, below 1.45: advanced fibrosis excluded. No HCC surveillance needed. "
          "Start glecaprevir/pibrentasvir for 8 weeks. No liver biopsy."),
    (None, "FIB-4 2.2 (between 1.45 and 3.25): advanced fibrosis neither excluded nor confirmed. "
           "Order FibroScan. Treat his hepatitis C with glecaprevir/pibrentasvir for 8 weeks. "
           "Liver biopsy only if elastography and serum markers are discordant."),
]

WRONG = [
    (None, "fib4_assessed", "FIB-4 2.2, low risk. Order FibroScan. Start sofosbuvir/velpatasvir "
                            "x12 wk. No liver biopsy."),
    (None, "fib4_assessed", "FIB-4 1.2, indeterminate. Order FibroScan. Start "
                            "sofosbuvir/velpatasvir x12 wk. No liver biopsy."),
    (None, "plan_documented", "FIB-4 2.2, indeterminate. Order a liver biopsy to stage. Start "
                              "sofosbuvir/velpatasvir x12 wk."),
    (None, "plan_documented", "FIB-4 2.2, indeterminate. Order FibroScan. Defer antiviral "
                              "treatment; no treatment needed now. No liver biopsy."),
    (None, "plan_documented", "FIB-4 2.2, indeterminate. Start sofosbuvir/velpatasvir x12 wk. "
                              "No elastography needed. No liver biopsy."),
    (LOW, "plan_documented", "FIB-4 1.14, low. Start glecaprevir/pibrentasvir for 8 weeks. Liver "
                             "ultrasound every 6 months for HCC surveillance. No liver biopsy."),
    (HIGH, "fib4_assessed", "FIB-4 5.0, intermediate. Liver ultrasound every 6 months for HCC "
                            "surveillance. Start sofosbuvir/velpatasvir. No liver biopsy."),
    (None, "fib4_assessed", "FIB-4 2.2, above 3.25. Order FibroScan. Start "
                            "sofosbuvir/velpatasvir x12 wk. No liver biopsy."),
    # review finding 1: a biopsy before treatment or a referral for one
    (HIGH, "plan_documented", "FIB-4 5.0, high. Start glecaprevir/pibrentasvir for 8 weeks. "
                              "Liver ultrasound every 6 months for HCC surveillance. Obtain a "
                              "liver biopsy prior to treatment."),
    (HIGH, "plan_documented", "FIB-4 5.0, high. Start glecaprevir/pibrentasvir for 8 weeks. "
                              "Liver ultrasound every 6 months for HCC surveillance. Refer to IR "
                              "for liver biopsy."),
    # review finding 4: surveillance planned in the low band
    (LOW, "plan_documented", "FIB-4 1.14, low. Start glecaprevir/pibrentasvir for 8 weeks. "
                             "Continue HCC surveillance after SVR. No liver biopsy."),
    (LOW, "plan_documented", "FIB-4 1.14, low. Start glecaprevir/pibrentasvir for 8 weeks. "
                             "Ultrasound with AFP every 6 months. No liver biopsy."),
    # review finding 1: a biopsy 'before treatment' is planned, not past
    (HIGH, "plan_documented", "FIB-4 5.0, high. Start glecaprevir/pibrentasvir for 8 weeks. "
                              "Liver ultrasound every 6 months for HCC surveillance. Liver biopsy "
                              "to confirm cirrhosis before treatment."),
    # review finding 3: surveillance stopped after cure in cirrhosis
    (HIGH, "plan_documented", "FIB-4 5.0, high. Start glecaprevir/pibrentasvir for 8 weeks. "
                              "Liver ultrasound every 6 months until SVR is confirmed, then stop "
                              "surveillance. No liver biopsy."),
    (HIGH, "plan_documented", "FIB-4 5.0, high. Start glecaprevir/pibrentasvir for 8 weeks. "
                              "Liver ultrasound every 6 months for 2 years after SVR, then stop. "
                              "No liver biopsy."),
    (HIGH, "plan_documented", "FIB-4 5.0, high; cirrhosis presumed. Start "
                              "sofosbuvir/velpatasvir for 12 weeks. No HCC surveillance needed. "
                              "No liver biopsy."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LOW, INTERMEDIATE, HIGH), [None, LOW, HIGH]))
