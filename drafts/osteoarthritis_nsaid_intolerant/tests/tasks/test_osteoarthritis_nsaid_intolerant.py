"""osteoarthritis_nsaid_intolerant: the scenario draw (bleeding ulcer on aspirin -> topical
diclofenac; aspirin-exacerbated respiratory disease -> duloxetine) and the note phrasings and
orders its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, values

TASK = "osteoarthritis_nsaid_intolerant"
AERD = 0     # aspirin-exacerbated respiratory disease
ULCER = 2    # bleeding ulcer on aspirin, as canonical
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "ulcer"} and vals["egfr"] == 64
    assert 0.9 < vals["creatinine"] < 1.05
    orders = vals["therapy_orders"]["all"]["of"]
    assert orders[0]["ordered"]["codes"] == [RX + "855633"]
    oral = orders[1]["not_ordered"]["codes"]
    assert RX + "198014" in oral and RX + "855633" not in oral


def test_both_branches_are_drawn():
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("ulcer") <= 4 and kinds[AERD] == "aerd" and kinds[ULCER] == "ulcer"
    aerd = values(TASK, AERD)
    assert RX + "596930" in aerd["therapy_orders"]["all"]["of"][0]["ordered"]["codes"]
    assert RX + "855633" in aerd["therapy_orders"]["all"]["of"][1]["not_ordered"]["codes"]
    assert aerd["nsaid_note"]["note_never"]["concept"] == ["nsaid", "topical_nsaid"]


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (AERD,), [None, AERD, ULCER]))

ULCER_OK = ("Knee OA, KL 3. Prior bleeding ulcer on naproxen, on aspirin for a stent: no oral "
            "NSAIDs, celecoxib included. Start diclofenac 1% gel 4 g to the right knee four times "
            "daily. No hydrocodone - opioids are not recommended for knee OA. PT referral placed.")
ULCER_GEL = "Start diclofenac 1% gel 4 g to the right knee four times daily."
AERD_OK = ("Knee OA. AERD (reacted to ibuprofen and celecoxib): avoid all NSAIDs including "
           "Voltaren gel. Start duloxetine 30 mg daily for 1 week, then 60 mg daily. No "
           "hydrocodone - opioids are not recommended for knee OA. PT referral placed.")
AERD_DULOX = "Start duloxetine 30 mg daily for 1 week, then 60 mg daily."
NO_NORCO = "No hydrocodone - opioids are not recommended for knee OA."

CORRECT = [
    ULCER_OK,
    ULCER_OK.replace("diclofenac 1% gel 4 g", "Voltaren gel 4 g"),
    ULCER_OK.replace("diclofenac 1% gel 4 g", "diclofenac sodium 1% gel, 4 g,"),
    ULCER_OK.replace(ULCER_GEL, "Topical diclofenac 4 g QID to the R knee."),
    # a brand in parentheses inside the gel's name
    ULCER_OK.replace("diclofenac 1% gel 4 g", "diclofenac (Voltaren) 1% gel 4 g"),
    ULCER_OK.replace("diclofenac 1% gel 4 g", "Voltaren (diclofenac sodium) gel 1%, 4 g"),
    # an opioid only as a later step under a trigger
    ULCER_OK + " If pain remains severe despite the gel and PT, tramadol could be considered later.",
    (AERD, AERD_OK),
    (AERD, AERD_OK.replace(AERD_DULOX, "Duloxetine 30 mg qd x7d -> 60 mg qd.")),
    (AERD, AERD_OK.replace(AERD_DULOX, "I recommend duloxetine (Cymbalta), beginning at 30 mg once "
                           "a day and increasing to 60 mg once a day after one week if tolerated.")),
]

WRONG = {
    "ulcer_meloxicam_offered": ("nsaid_avoided", ULCER_OK + " Meloxicam 7.5 mg daily could be added."),
    "ulcer_celecoxib_started": ("nsaid_avoided", ULCER_OK + " Start celecoxib 200 mg daily with pantoprazole."),
    "ulcer_celebrex_allowed": ("nsaid_avoided", ULCER_OK + " Celebrex 200 mg daily is fine."),
    "ulcer_oral_diclofenac": ("nsaid_avoided", ULCER_OK + " Start oral diclofenac 50 mg twice daily."),
    "ulcer_ibuprofen_prn": ("nsaid_avoided", ULCER_OK + " She may take ibuprofen 400 mg as needed."),
    "ulcer_norco": ("opioid_avoided", ULCER_OK.replace(
        NO_NORCO, "Hydrocodone-acetaminophen 5/325 at night is reasonable.")),
    "ulcer_tramadol_now": ("opioid_avoided", ULCER_OK + " Tramadol 50 mg twice daily as needed can be added."),
    "ulcer_gel_eight_times": ("analgesic_documented", ULCER_OK.replace("four times daily", "eight times daily")),
    "ulcer_no_gel": ("analgesic_documented", ULCER_OK.replace(ULCER_GEL, "Continue acetaminophen alone.")),
    "aerd_voltaren_allowed": (AERD, "nsaid_avoided", AERD_OK.replace(
        "avoid all NSAIDs including Voltaren gel", "avoid oral NSAIDs; Voltaren gel to the knee is fine")),
    "aerd_diclofenac_gel_added": (AERD, "nsaid_avoided", AERD_OK + " Diclofenac 1% gel 4 g four times daily may be added."),
    "aerd_celecoxib_option": (AERD, "nsaid_avoided", AERD_OK + " Celecoxib 200 mg daily is an option."),
    "aerd_duloxetine_60_start": (AERD, "analgesic_documented", AERD_OK.replace(AERD_DULOX, "Start duloxetine 60 mg daily.")),
    "aerd_duloxetine_120": (AERD, "analgesic_documented", AERD_OK.replace("then 60 mg daily", "then 120 mg daily")),
    "aerd_duloxetine_deferred": (AERD, "analgesic_documented", AERD_OK.replace(AERD_DULOX, "Hold off on duloxetine for now.")),
    "aerd_norco": (AERD, "opioid_avoided", AERD_OK.replace(NO_NORCO, "Norco 5/325 at bedtime is fine.")),
}

test_correct_notes_pass, test_wrong_notes_fail = note_probes(TASK, CORRECT, WRONG)


# Phrasings the shared note reader misreads today (reported; strict xfail so a reader fix shows).
READER_GAPS = [
    # a drug offered 'with pantoprazole' / 'with her PPI' is not read as an offer of the NSAID
    (None, "nsaid_avoided", ULCER_OK + " Celecoxib 200 mg daily with pantoprazole is an alternative."),
    (None, "nsaid_avoided", ULCER_OK + " Celecoxib 100 mg twice daily with her PPI is acceptable."),
    # a verbless oral diclofenac after a trigger naming 'the gel' is not read as a conditional offer
    (None, "nsaid_avoided", ULCER_OK + " If the gel fails, oral diclofenac 50 mg twice daily."),
]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "checkpoint", "note"), READER_GAPS)
def test_reader_gaps(variant, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is False


def _oracle_actions(variant=None, replace=None, extra=()):
    from physbench_gym.tasks.registry import get_instance
    calls = []
    for call in get_instance(TASK, variant).oracle.calls:
        arguments = dict(call.arguments)
        if call.tool == "fhir_medication_request_create" and replace:
            arguments.update(replace)
        calls.append({"tool": call.tool, "arguments": arguments})
    return calls + list(extra)


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


def _rx(code, dose, per_day, unit="mg", route="oral"):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": dose, "dose_unit": unit,
        "route": route, "frequency": per_day, "period_unit": "day"}}


def test_orders_ulcer():
    assert _run(_oracle_actions())["analgesic_ordered"]
    # an oral NSAID beside the gel, or an opioid, fails
    assert not _run(_oracle_actions(extra=[_rx("198014", 500, 2)]))["analgesic_ordered"]
    assert not _run(_oracle_actions(extra=[_rx("1049221", 1, 1, unit="{tbl}")]))["analgesic_ordered"]
    # the gel six times daily is above the label schedule
    assert not _run(_oracle_actions(replace={"frequency": 6}))["analgesic_ordered"]
    # duloxetine instead of the gel is not the ulcer-branch answer
    assert not _run(_oracle_actions(replace={"medication_code": "596930", "dose_value": 30,
                                             "dose_unit": "mg", "route": "oral",
                                             "frequency": 1}))["analgesic_ordered"]


def test_orders_aerd():
    assert _run(_oracle_actions(AERD), AERD)["analgesic_ordered"]
    # topical diclofenac is an NSAID too in AERD
    assert not _run(_oracle_actions(AERD, extra=[_rx("855633", 4, 4, unit="g", route="topical")]),
                    AERD)["analgesic_ordered"]
    # starting at 60 mg skips the 30 mg week
    assert not _run(_oracle_actions(AERD, replace={"medication_code": "596934", "dose_value": 60}),
                    AERD)["analgesic_ordered"]


def test_physical_therapy_order():
    without = [a for a in _oracle_actions() if a["tool"] != "fhir_service_request_create"]
    assert not _run(without)["physical_therapy_ordered"]
    assert _run(_oracle_actions())["physical_therapy_ordered"]
