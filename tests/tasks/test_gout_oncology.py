"""gout_oncology: the scenario draw (voriconazole with CKD -> prednisone; steroid-induced HHS ->
colchicine) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    medication_request,
    oracle_calls,
    oracle_note,
    values,
)

TASK = "gout_oncology"
HHS = 0      # voriconazole completed, steroid-induced HHS at the first flare
AZOLE = 10   # voriconazole active (as canonical), eGFR 43


def _hhs_variant() -> int:
    return next(n for n in range(20) if values(TASK, n)["scenario"]["kind"] == "hhs")


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "azole"}
    assert vals["egfr"] == 44 and vals["platelets"] == 84
    assert 1.6 < vals["creatinine"] < 1.8
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    assert {rx + "198014", rx + "310965"} <= set(vals["nsaid_rxnorm"])
    assert vals["flare_note"]["note_decision"]["concept"] == ["prednisone"]
    assert vals["avoid_note"]["note_never"]["concept"] == ["colchicine"]


def test_both_branches_are_drawn():
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("azole") <= 4 and "hhs" in kinds
    assert kinds[HHS] == "hhs" and kinds[AZOLE] == "azole"
    hhs_flare = values(TASK, HHS)["flare_note"]["all"]["of"]
    assert all(g["note_decision"]["concept"] == ["colchicine"] for g in hhs_flare)


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (HHS,), [None, HHS, AZOLE]))


def test_the_oracle_note_passes_both_branches():
    for variant in (None, _hhs_variant()):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert all(verdicts.values()), (variant, verdicts)


AZOLE_OK = ("Gout flare. Voriconazole plus CKD: colchicine is contraindicated. NSAIDs are out "
            "with platelets 84. Start prednisone 40 mg daily for 5 days. Start allopurinol 50 mg "
            "daily now and titrate to urate < 6.")
HHS_OK = ("Gout flare. Colchicine 1.2 mg now, then 0.6 mg in 1 hour, then 0.6 mg twice daily until "
          "resolved. No prednisone given HHS last year. Avoid NSAIDs. Start allopurinol 50 mg "
          "daily, titrate to urate under 6.")


@pytest.mark.parametrize(("hhs", "checkpoint", "note", "passed"), [
    (False, None, AZOLE_OK, True),
    (True, None, HHS_OK, True),
    (False, "flare_treatment_documented", AZOLE_OK.replace("prednisone 40 mg", "prednisone 5 mg"),
     False),
    (False, "contraindicated_drug_avoided",
     AZOLE_OK.replace("colchicine is contraindicated", "use colchicine 0.6 mg then 0.3 mg"), False),
    (False, "nsaid_avoided", AZOLE_OK.replace("NSAIDs are out with platelets 84",
                                              "naproxen 500 mg twice daily is an alternative"),
     False),
    (False, "ult_planned", AZOLE_OK.replace("Start allopurinol 50 mg daily now and titrate to "
                                            "urate < 6.", "No urate-lowering therapy needed."),
     False),
    (True, "contraindicated_drug_avoided", HHS_OK.replace("No prednisone given HHS last year.",
                                                          "Prednisone 40 mg is an alternative."),
     False),
    # colchicine later, once voriconazole is stopped, is not a start now
    (False, "contraindicated_drug_avoided", AZOLE_OK + " Once voriconazole is stopped, colchicine "
     "0.6 mg daily can be used as prophylaxis.", True),
    # allopurinol after the flare settles still starts it
    (False, "ult_planned", AZOLE_OK.replace("Start allopurinol 50 mg daily now and titrate to "
                                            "urate < 6.", "Start allopurinol 50 mg daily two weeks "
                                            "after the flare resolves; goal urate < 6."), True),
    (False, "flare_treatment_documented", AZOLE_OK.replace(
        "Start prednisone 40 mg daily for 5 days.", "Prednisone 40 mg daily x 3 days, then 20 mg "
        "daily x 3 days, then 10 mg daily x 3 days."), True),
    (True, "contraindicated_drug_avoided", HHS_OK + " If colchicine fails after 48 hours, an "
     "intra-articular triamcinolone injection of the knee.", True),
    (True, "flare_treatment_documented", HHS_OK.replace(
        "Colchicine 1.2 mg now, then 0.6 mg in 1 hour, then 0.6 mg twice daily until resolved.",
        "Avoid colchicine."), False),
])
def test_note_probes(hhs, checkpoint, note, passed):
    variant = _hhs_variant() if hhs else None
    verdicts = grade_note(TASK, note, variant)
    if checkpoint is None:
        assert all(verdicts.values()) is passed, verdicts
    else:
        assert verdicts[checkpoint] is passed, verdicts


# Review findings (2026-12-06) as probes on the hhs branch.
HHS_COLCHICINE = ("Colchicine 1.2 mg now, then 0.6 mg in 1 hour, then 0.6 mg twice daily until "
                  "resolved.")


@pytest.mark.parametrize(("checkpoint", "note", "passed"), [
    # finding 2: any systemic glucocorticoid is a must-not (not only prednisone/dexamethasone)
    ("contraindicated_drug_avoided", HHS_OK + " A short course of oral steroids could be added.",
     False),
    ("contraindicated_drug_avoided", HHS_OK + " Kenalog 40 mg IM once.", False),
    ("contraindicated_drug_avoided", HHS_OK + " Triamcinolone 40 mg IM once.", False),
    ("contraindicated_drug_avoided", HHS_OK + " Methylprednisolone 125 mg IV once.", False),
    ("contraindicated_drug_avoided", HHS_OK + " Hydrocortisone sodium succinate 100 mg IM once.",
     False),
    # finding 3: the loading pair alone passes; a schedule above twice daily fails
    ("flare_treatment_documented", HHS_OK.replace(
        HHS_COLCHICINE, "Colchicine 1.2 mg then 0.6 mg 1 hour later."), True),
    ("flare_treatment_documented", HHS_OK.replace(
        HHS_COLCHICINE, "Colchicine 1.2 mg, 0.6 mg 1 h later, then 0.6 mg once daily until the "
        "flare settles."), True),
    ("flare_treatment_documented", HHS_OK.replace(
        HHS_COLCHICINE, "Colchicine 0.6 mg three times daily until settled."), False),
])
def test_review_probes_hhs(checkpoint, note, passed):
    verdicts = grade_note(TASK, note, _hhs_variant())
    assert verdicts[checkpoint] is passed, verdicts


@pytest.mark.parametrize(("checkpoint", "note", "passed"), [
    # calibration: a stale platelet count stated as current fails nsaid_avoided
    ("nsaid_avoided", AZOLE_OK.replace("platelets 84", "platelets 214"), False),
    # calibration: a urate target of 7 fails ult_planned; 'SUA < 6' states the target
    ("ult_planned", AZOLE_OK.replace("urate < 6", "urate < 7 mg/dL"), False),
    ("ult_planned", AZOLE_OK.replace("urate < 6", "goal SUA < 6 mg/dL"), True),
    # calibration: a deferral with no dose does not start allopurinol
    ("ult_planned", AZOLE_OK.replace("Start allopurinol 50 mg daily now and titrate to urate < 6.",
                                     "ULT: hold for now; revisit allopurinol in 3 months. Goal "
                                     "urate < 6. Recheck SUA then."), False),
    # 'stop allopurinol and report any rash' is no refusal to start it
    ("ult_planned", AZOLE_OK + " Counsel: stop allopurinol and report any rash.", True),
])
def test_calibration_probes_azole(checkpoint, note, passed):
    verdicts = grade_note(TASK, note)
    assert verdicts[checkpoint] is passed, verdicts


# Phrasings the shared note reader once misread (review 2, 3 and 6, calibration c01, c02,
# c06, c07), now read right.
READ_RIGHT = [
    # review 3: 'every hour' / 'hourly' is a schedule of 24 a day, above twice daily
    (True, "flare_treatment_documented", HHS_OK.replace(
        HHS_COLCHICINE, "Colchicine 0.6 mg every hour until relief, up to 4.8 mg."), False),
    # review 6: a verbless dosed drug after a comma trigger is a conditional offer
    (False, "nsaid_avoided", AZOLE_OK + " If pain persists, naproxen 250 mg twice daily.", False),
    # calibration c02: a hedged statement about drug levels offers nothing
    (False, "contraindicated_drug_avoided",
     AZOLE_OK + " With voriconazole, colchicine levels can rise to the point of death.", True),
    # calibration c01: 'ULT: YES.' after a 'DO NOT GIVE:' list ends the avoid section
    (False, "ult_planned", "Gout flare, third in a year. Prednisone 40 mg daily for 5 days.\n\n"
     "DO NOT GIVE:\n- Colchicine (voriconazole + eGFR 44).\n- NSAIDs (platelets 84).\n\n"
     "ULT: YES.\n- Allopurinol 50 mg daily, start now under the pred cover.\n"
     "- Goal urate < 6 mg/dL.\n", True),
    # calibration c06: dictated inline headings ('Impression.', 'Recommendations, number one.')
    # leave the history section, so the verbless prednisone line plans
    (False, "flare_treatment_documented", "Reason for consult: gout flare.\n\nHistory. Third "
     "flare in a year.\n\nImpression. Acute gout.\n\nRecommendations, number one. Prednisone "
     "40 milligrams by mouth once daily for five days.\n\nNumber two. No colchicine. No NSAIDs. "
     "Start allopurinol 50 milligrams daily now, titrate to urate below 6.", True),
    # calibration c07: in 'X: 40 mg ..., then stop' the stop is a later step
    (False, "flare_treatment_documented", AZOLE_OK.replace(
        "Start prednisone 40 mg daily for 5 days.",
        "Oral prednisone: 40 mg once daily for 5 days, then stop."), True),
    # review 2: a verbless 'dose pack' with a trailing trigger ('if no better') offers it
    (True, "contraindicated_drug_avoided", HHS_OK + " Medrol dose pack if no better.", False),
    # review 2: a verbless procedure line after its route plans it
    (True, "contraindicated_drug_avoided",
     HHS_OK + " Intra-articular steroid injection of the knee today.", False),
]


@pytest.mark.parametrize(("hhs", "checkpoint", "note", "passed"), READ_RIGHT)
def test_phrasings_read_right(hhs, checkpoint, note, passed):
    verdicts = grade_note(TASK, note, _hhs_variant() if hhs else None)
    assert verdicts[checkpoint] is passed, verdicts


# Phrasings the shared note reader misreads today (reported; strict xfail so a reader fix shows).
READER_GAPS = [
    # review 7: 'A mg -> B mg' inside one loading regimen is read as a dose change
    (True, "flare_treatment_documented", HHS_OK.replace(
        HHS_COLCHICINE, "Colchicine 1.2 mg -> 0.6 mg 1 hour later."), True),
    # review 8: 'X, or Y as an alternative' does not make Y an offered alternative
    (False, "contraindicated_drug_avoided", AZOLE_OK.replace(
        "Start prednisone 40 mg daily for 5 days.", "Prednisone 40 mg daily x5 days, or colchicine "
        "1.2 mg then 0.6 mg as an alternative."), False),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("hhs", "checkpoint", "note", "passed"), READER_GAPS)
def test_reader_gaps(hhs, checkpoint, note, passed):
    verdicts = grade_note(TASK, note, _hhs_variant() if hhs else None)
    assert verdicts[checkpoint] is passed, verdicts


def _oracle_actions(variant=None, replace=None, extra=()):
    return oracle_calls(TASK, variant, replace) + list(extra)


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


_rx = medication_request


def test_flare_orders_azole():
    # finding 1: the 5 mg tablet at 40 mg once daily is the same decision
    assert _run(_oracle_actions(replace={"medication_code": "312617", "quantity": 40}))[
        "flare_treatment_ordered"]
    # finding 5: allopurinol 300 mg a day fails, 100 mg a day passes
    assert not _run(_oracle_actions(extra=[_rx("197319", 300, 1)]))["flare_treatment_ordered"]
    assert _run(_oracle_actions(extra=[_rx("197319", 100, 1)]))["flare_treatment_ordered"]


def test_flare_orders_hhs():
    hhs = _hhs_variant()
    assert _run(_oracle_actions(hhs), hhs)["flare_treatment_ordered"]
    # finding 2: an IM hydrocortisone order is a glucocorticoid burst
    assert not _run(_oracle_actions(hhs, extra=[_rx("238755", 100, 1, route="intramuscular")]),
                    hhs)["flare_treatment_ordered"]
    # finding 4: 1.2 mg twice daily is an overdose
    assert not _run(_oracle_actions(hhs, replace={"dose_value": 1.2}), hhs)[
        "flare_treatment_ordered"]
