"""quantiferon_renal_tb: the scenario draw (latent TB on the waitlist, latent TB before a
living-donor transplant, possible active TB) and the note phrasings each branch must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "quantiferon_renal_tb"
LD = 2  # living-donor transplant in 9 weeks
ACTIVE = 1  # cough, night sweats, weight loss, right upper lobe cavity


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "waitlist"}
    assert vals["alt"] == 24
    assert vals["rifampin_codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|198202"]
    assert vals["isoniazid_codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|197622"]
    assert "latent TB infection" in vals["tb_status_text"]


def test_branches_draw_their_scenarios():
    assert values(TASK, LD)["scenario"]["kind"] == "living_donor"
    assert values(TASK, LD)["weeks_to_transplant"] == 9
    assert values(TASK, ACTIVE)["scenario"]["kind"] == "active"
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert set(kinds) == {"waitlist", "living_donor", "active"}
    assert kinds.count("waitlist") <= 4


CORRECT = [
    (
        None,
        "Latent TB infection; active TB excluded. Start rifampin 600 mg daily for 4 months. Liver "
        "tests from 12 days ago are normal (ALT 24, AST 22, bilirubin 0.6) and serve as the "
        "baseline; no need to repeat before starting. Monthly clinical review; LFTs if symptoms.",
    ),
    (
        None,
        "LTBI - asymptomatic, CXR clear (old granuloma only), active TB excluded. Start "
        "rifampin 600 mg PO daily x 4 months, no renal adjustment; finish before transplant. "
        "Baseline LFTs ordered, monthly symptom checks.",
    ),
    (
        None,
        "Assessment: latent tuberculosis infection; no evidence of active TB.\n"
        "Plan: rifampin 600 mg by mouth once daily for 4 months (4R). Check a hepatic "
        "function panel at baseline; monthly clinical visits.",
    ),
    (
        None,
        "Latent TB infection. Recommend 3HP: isoniazid 900 mg plus rifapentine 900 mg once "
        "weekly for 12 weeks, with pyridoxine. Order baseline liver tests; monthly visits.",
    ),
    (
        LD,
        "Latent TB infection; active TB ruled out. Start isoniazid 300 mg daily for 9 months "
        "with pyridoxine 50 mg daily. Avoid rifampin and rifapentine because of the tacrolimus "
        "interaction after his transplant. Baseline LFTs ordered; monthly visits.",
    ),
    (
        LD,
        "LTBI. INH 300 mg PO daily x 9 months plus vitamin B6 25 mg daily. No rifamycins. "
        "Check LFTs at baseline, then monthly review.",
    ),
    # 'N weeks between the last rifampin dose and ...' is a washout, not a dosing interval.
    # Known reader gaps, pinned (strict xfail): a trailing trigger spills back over the comma
    # onto the monthly review; a verbless test line ('Baseline LFTs.') is not read as the order.
    pytest.param(
        (
            None,
            "Latent TB infection; active TB excluded. Start rifampin 600 mg daily for 4 "
            "months. Baseline LFTs ordered. Monthly clinical review, LFTs if symptoms.",
        ),
        marks=pytest.mark.xfail(strict=True, reason="reader: 'A, B if symptoms' conditions A"),
        id="gap_trailing_trigger",
    ),
    pytest.param(
        (
            None,
            "Latent TB infection; active TB excluded. Start rifampin 600 mg daily for 4 "
            "months, with at least 2 weeks between the last rifampin dose and the start "
            "of tacrolimus. Baseline LFTs ordered; monthly visits.",
        ),
        id="washout_interval",
    ),
    pytest.param(
        (
            None,
            "Latent TB infection; active TB excluded. Start rifampin 600 mg daily for 4 "
            "months. Monthly clinical visits.\nBaseline LFTs.",
        ),
        marks=pytest.mark.xfail(strict=True, reason="reader: verbless test line not an order"),
        id="gap_verbless_test_line",
    ),
    (
        ACTIVE,
        "Possible active pulmonary TB (cough, night sweats, weight loss, RUL cavity). "
        "Collect three sputum AFB smears and cultures and send an MTB NAAT. Do not start "
        "latent TB treatment now.",
    ),
    (
        ACTIVE,
        "Concern for active TB. Order sputum for AFB smear and culture x3 and Xpert MTB/RIF. "
        "If the AFB cultures are negative, we will revisit latent TB treatment with rifampin.",
    ),
    (
        ACTIVE,
        "Cavitary RUL lesion, concerning for TB. Collect sputum for AFB smear and culture x3 "
        "and NAAT on the first specimen. Given high suspicion, begin empiric four-drug therapy "
        "(rifampin, isoniazid, pyrazinamide, ethambutol, renally dosed) once sputa are collected.",
    ),
    (
        ACTIVE,
        "Possible active TB. Send sputum AFB smears and cultures x3 and Xpert. Start RIPE "
        "(rifampin 600 mg daily, isoniazid 300 mg daily, pyrazinamide and ethambutol three "
        "times weekly) after the sputum samples are collected.",
    ),
    (
        ACTIVE,
        "Possible active pulmonary TB. Collect three sputum AFB smears and cultures and an MTB "
        "NAAT. Once the sputum AFB samples are collected, start empiric RIPE: rifampin 600 mg, "
        "isoniazid 300 mg, pyrazinamide and ethambutol three times weekly for his CKD.",
    ),
]

WRONG = [
    (
        None,
        "tb_status_assessed",
        "Active TB. Start rifampin 600 mg daily for 4 months. Baseline LFTs ordered.",
    ),
    (
        None,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start rifampin 300 mg daily for 4 months. "
        "Baseline LFTs ordered.",
    ),
    (
        None,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start rifampin 600 mg twice daily for 4 months. "
        "Baseline LFTs ordered.",
    ),
    (
        None,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Defer rifampin 600 mg daily until after the "
        "transplant. Baseline LFTs ordered.",
    ),
    (
        None,
        "workup_documented",
        "Latent TB infection, active TB excluded. Start rifampin 600 mg daily for 4 months. No "
        "liver tests are needed.",
    ),
    (
        LD,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start rifampin 600 mg daily for 4 months. "
        "Baseline LFTs ordered.",
    ),
    (
        LD,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start isoniazid 300 mg daily for 9 months with "
        "pyridoxine 50 mg daily; 4R with rifampin is an alternative. Baseline LFTs ordered.",
    ),
    (
        LD,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start isoniazid 300 mg daily for 9 months. "
        "Baseline LFTs ordered.",
    ),
    (
        ACTIVE,
        "regimen_documented",
        "Possible active TB. Send three sputum AFB smears and cultures and an MTB NAAT. Start "
        "rifampin 600 mg daily now for latent TB.",
    ),
    (
        ACTIVE,
        "workup_documented",
        "Possible active TB. Do not start latent TB treatment. Repeat the chest X-ray in 3 months.",
    ),
    (
        None,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start rifampin 600 mg daily for 9 months. "
        "Baseline LFTs ordered; monthly visits.",
    ),
    (
        None,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start isoniazid 300 mg daily for 1 month with "
        "pyridoxine 50 mg. Baseline LFTs ordered; monthly visits.",
    ),
    (
        None,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start rifampin 600 mg daily for 4 months after "
        "the "
        "transplant. Baseline LFTs ordered; monthly visits.",
    ),
    (
        None,
        "tb_status_assessed",
        "Latent TB infection, but possible active TB given the granuloma; send sputum AFB x3. "
        "Start "
        "rifampin 600 mg daily for 4 months. Baseline LFTs ordered; monthly visits.",
    ),
    (
        None,
        "workup_documented",
        "Latent TB infection, active TB excluded. Start rifampin 600 mg daily for 4 months. "
        "Baseline "
        "hepatic function panel ordered. No visits are needed during the course; I will see him at "
        "the end of the four months.",
    ),
    (
        LD,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start isoniazid 300 mg daily for 9 months; "
        "pyridoxine is not needed. Avoid rifampin. Baseline LFTs ordered; monthly visits.",
    ),
    (
        LD,
        "regimen_documented",
        "Latent TB infection, active TB excluded. Start isoniazid 300 mg daily for 3 months with "
        "pyridoxine 50 mg daily. No rifampin. Baseline LFTs ordered; monthly visits.",
    ),
    # 'once daily for 2 months': the course after the schedule is the drug's.
    # Known reader gap, pinned (strict xfail): 'hold treatment until after the transplant' is
    # not tied to rifampin.
    pytest.param(
        (
            None,
            "regimen_documented",
            "Latent TB infection, active TB excluded. Rifampin 600 mg PO once daily for 2 "
            "months. Baseline LFTs ordered; monthly visits.",
        ),
        id="course_after_once_daily",
    ),
    pytest.param(
        (
            None,
            "regimen_documented",
            "Latent TB infection, active TB excluded. Hold treatment until after the "
            "transplant, then start rifampin 600 mg daily for 4 months. Baseline LFTs "
            "ordered; monthly visits.",
        ),
        marks=pytest.mark.xfail(strict=True, reason="reader: 'treatment' not tied to rifampin"),
        id="gap_hold_treatment_until_after",
    ),
    # Reader gaps (not pinned): "if cultures are negative" (no AFB/TB word) is not read as a
    # trigger, so a correct contingent 4R after negative cultures fails regimen_documented;
    # "with pyridoxine 50 mg daily" after "start isoniazid" is not read as a start, so
    # pyridoxine is graded as named and not negated (note_finding topic).
    (
        ACTIVE,
        "tb_status_assessed",
        "No active TB. Send sputum AFB smears and cultures and an MTB NAAT. Do not start latent "
        "TB treatment.",
    ),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (LD, ACTIVE), [None, LD, ACTIVE])
)
