"""osteoarthritis_nsaid_intolerant: the scenario draw (bleeding ulcer on aspirin -> topical
diclofenac; aspirin-exacerbated respiratory disease -> duloxetine) and the note phrasings and
orders its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    medication_request,
    note_probes,
    oracle_calls,
    values,
)

TASK = "osteoarthritis_nsaid_intolerant"
AERD = 0  # aspirin-exacerbated respiratory disease
ULCER = 2  # bleeding ulcer on aspirin, as canonical
RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"] == {"kind": "ulcer"} and vals["egfr"] == 64
    assert 0.9 < vals["creatinine"] < 1.05
    orders = vals["therapy_orders"]["all"]["of"]
    assert orders[0]["ordered"]["codes"] == [RX + "855633"]
    oral = orders[1]["not_ordered"]["codes"]
    assert RX + "198014" in oral and RX + "205323" in oral and RX + "855633" not in oral


def test_both_branches_are_drawn():
    kinds = [values(TASK, n)["scenario"]["kind"] for n in range(20)]
    assert kinds.count("ulcer") <= 4 and kinds[AERD] == "aerd" and kinds[ULCER] == "ulcer"
    aerd = values(TASK, AERD)
    assert RX + "596930" in aerd["therapy_orders"]["all"]["of"][0]["ordered"]["codes"]
    assert RX + "855633" in aerd["therapy_orders"]["all"]["of"][1]["not_ordered"]["codes"]
    assert aerd["nsaid_note"]["note_never"]["concept"] == ["nsaid", "topical_nsaid", "aspirin"]
    assert RX + "205323" in aerd["therapy_orders"]["all"]["of"][1]["not_ordered"]["codes"]


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (AERD,), [None, AERD, ULCER])
)

ULCER_OK = (
    "Knee OA, KL 3. Prior bleeding ulcer on naproxen, on aspirin for a stent: no oral "
    "NSAIDs, celecoxib included. Start diclofenac 1% gel 4 g to the right knee four times "
    "daily. No hydrocodone - opioids are not recommended for knee OA. PT referral placed."
)
ULCER_GEL = "Start diclofenac 1% gel 4 g to the right knee four times daily."
AERD_OK = (
    "Knee OA. AERD (reacted to ibuprofen and celecoxib): avoid all NSAIDs including "
    "Voltaren gel. Start duloxetine 30 mg daily for 1 week, then 60 mg daily. No "
    "hydrocodone - opioids are not recommended for knee OA. PT referral placed."
)
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
    ULCER_OK
    + " If pain remains severe despite the gel and PT, tramadol could be considered later.",
    # Pennsaid 2% solution is labeled twice daily for knee OA (review finding 3)
    ULCER_OK.replace(
        ULCER_GEL,
        "Start Pennsaid 2% topical solution, 2 pumps (40 mg) to the right knee twice daily.",
    ),
    # the brand with its strength in parentheses (review finding 13)
    ULCER_OK.replace(
        ULCER_GEL,
        "I recommend starting topical diclofenac gel (Voltaren 1%) 4 g four "
        "times a day on the right knee.",
    ),
    ULCER_OK.replace(
        ULCER_GEL, "Start topical diclofenac (Voltaren 1%) 4 g to the right knee four times daily."
    ),
    ULCER_OK.replace(
        ULCER_GEL,
        "Start diclofenac one percent gel, four grams to the right knee four times a day.",
    ),
    # a daily maximum in its own clause is not a once-daily schedule
    ULCER_OK.replace(
        ULCER_GEL,
        "Diclofenac sodium 1% topical gel: apply 4 g to the right knee four "
        "times daily; maximum 16 g/day on that knee.",
    ),
    ULCER_OK + " Do not stop her aspirin or pantoprazole.",
    (AERD, AERD_OK),
    (AERD, AERD_OK.replace(AERD_DULOX, "Duloxetine 30 mg qd x7d -> 60 mg qd.")),
    (
        AERD,
        AERD_OK.replace(
            AERD_DULOX,
            "I recommend duloxetine (Cymbalta), beginning at 30 mg once "
            "a day and increasing to 60 mg once a day after one week if tolerated.",
        ),
    ),
]

WRONG = {
    "ulcer_meloxicam_offered": (
        "nsaid_avoided",
        ULCER_OK + " Meloxicam 7.5 mg daily could be added.",
    ),
    "ulcer_celecoxib_started": (
        "nsaid_avoided",
        ULCER_OK + " Start celecoxib 200 mg daily with pantoprazole.",
    ),
    "ulcer_celebrex_allowed": ("nsaid_avoided", ULCER_OK + " Celebrex 200 mg daily is fine."),
    "ulcer_oral_diclofenac": (
        "nsaid_avoided",
        ULCER_OK + " Start oral diclofenac 50 mg twice daily.",
    ),
    "ulcer_ibuprofen_prn": (
        "nsaid_avoided",
        ULCER_OK + " She may take ibuprofen 400 mg as needed.",
    ),
    "ulcer_norco": (
        "opioid_avoided",
        ULCER_OK.replace(NO_NORCO, "Hydrocodone-acetaminophen 5/325 at night is reasonable."),
    ),
    "ulcer_tramadol_now": (
        "opioid_avoided",
        ULCER_OK + " Tramadol 50 mg twice daily as needed can be added.",
    ),
    "ulcer_gel_eight_times": (
        "analgesic_documented",
        ULCER_OK.replace("four times daily", "eight times daily"),
    ),
    "ulcer_no_gel": (
        "analgesic_documented",
        ULCER_OK.replace(ULCER_GEL, "Continue acetaminophen alone."),
    ),
    "aerd_voltaren_allowed": (
        AERD,
        "nsaid_avoided",
        AERD_OK.replace(
            "avoid all NSAIDs including Voltaren gel",
            "avoid oral NSAIDs; Voltaren gel to the knee is fine",
        ),
    ),
    "aerd_diclofenac_gel_added": (
        AERD,
        "nsaid_avoided",
        AERD_OK + " Diclofenac 1% gel 4 g four times daily may be added.",
    ),
    "aerd_celecoxib_option": (
        AERD,
        "nsaid_avoided",
        AERD_OK + " Celecoxib 200 mg daily is an option.",
    ),
    "aerd_duloxetine_60_start": (
        AERD,
        "analgesic_documented",
        AERD_OK.replace(AERD_DULOX, "Start duloxetine 60 mg daily."),
    ),
    "aerd_duloxetine_120": (
        AERD,
        "analgesic_documented",
        AERD_OK.replace("then 60 mg daily", "then 120 mg daily"),
    ),
    "aerd_duloxetine_deferred": (
        AERD,
        "analgesic_documented",
        AERD_OK.replace(AERD_DULOX, "Hold off on duloxetine for now."),
    ),
    # review finding 7: 2 g is the upper-extremity dose; the knee takes 4 g
    "ulcer_gel_2g": (
        "analgesic_documented",
        ULCER_OK.replace("4 g to the right knee", "2 g to the right knee"),
    ),
    "ulcer_gel_once_daily": (
        "analgesic_documented",
        ULCER_OK.replace("four times daily", "once daily at bedtime"),
    ),
    # review finding 5: her aspirin (stent) and pantoprazole must not be stopped
    "ulcer_aspirin_held": ("nsaid_avoided", ULCER_OK + " Hold aspirin for now."),
    "ulcer_aspirin_stopped": ("nsaid_avoided", ULCER_OK + " Stop aspirin while using the gel."),
    "ulcer_ppi_stopped": ("nsaid_avoided", ULCER_OK + " Continue aspirin but stop pantoprazole."),
    # a PRN indication is no trigger
    "ulcer_tramadol_prn": (
        "opioid_avoided",
        ULCER_OK + " Add tramadol 50 mg every 6 hours as needed for breakthrough pain.",
    ),
    # review finding 2: aspirin is the index drug of AERD
    "aerd_aspirin_fine": (AERD, "nsaid_avoided", AERD_OK + " Aspirin is fine."),
    "aerd_aspirin_prn": (
        AERD,
        "nsaid_avoided",
        AERD_OK + " OK to take aspirin 325 mg as needed for pain.",
    ),
    # review finding 3: other topical diclofenac products are NSAIDs too
    "aerd_pennsaid_option": (
        AERD,
        "nsaid_avoided",
        AERD_OK + " Pennsaid solution to the knee is an option.",
    ),
    "aerd_flector_option": (
        AERD,
        "nsaid_avoided",
        AERD_OK + " A Flector patch on the knee is an option.",
    ),
    "aerd_norco": (
        AERD,
        "opioid_avoided",
        AERD_OK.replace(NO_NORCO, "Norco 5/325 at bedtime is fine."),
    ),
}

test_correct_notes_pass, test_wrong_notes_fail = note_probes(TASK, CORRECT, WRONG)


# Phrasings the shared note reader misreads today (reported; strict xfail so a reader fix shows).
READER_GAPS = [
    # a drug offered 'with pantoprazole' / 'with her PPI' is not read as an offer of the NSAID
    (
        None,
        "nsaid_avoided",
        ULCER_OK + " Celecoxib 200 mg daily with pantoprazole is an alternative.",
    ),
    # a verbless oral diclofenac after a trigger naming 'the gel' is not read as a conditional offer
    (None, "nsaid_avoided", ULCER_OK + " If the gel fails, oral diclofenac 50 mg twice daily."),
    # review finding 1: the plan verb does not reach a second drug joined by 'and'
    (
        None,
        "nsaid_avoided",
        ULCER_OK.replace(ULCER_GEL, ULCER_GEL[:-1] + " and celecoxib 100 mg daily."),
    ),
    (
        None,
        "opioid_avoided",
        ULCER_OK.replace(
            ULCER_GEL, ULCER_GEL[:-1] + " and hydrocodone-acetaminophen 5/325 at night."
        ),
    ),
    (
        AERD,
        "opioid_avoided",
        AERD_OK.replace("then 60 mg daily.", "then 60 mg daily, and tramadol 50 mg at night."),
    ),
    # review finding 6: hedged endorsements
    (AERD, "nsaid_avoided", AERD_OK + " Voltaren gel is probably safe for her."),
    (
        AERD,
        "nsaid_avoided",
        AERD_OK + " Diclofenac gel is probably fine since systemic absorption is low.",
    ),
    (None, "opioid_avoided", ULCER_OK + " Tramadol 50 mg every 6 hours as needed is also fine."),
    # review finding 8: a later titration step above 60 mg is not read as a dose
    (
        AERD,
        "analgesic_documented",
        AERD_OK.replace(
            "then 60 mg daily.", "then 60 mg daily if needed; may go up to 120 mg daily."
        ),
    ),
]

# Correct phrasings the reader fails today (reported; strict xfail so a reader fix shows).
READER_FALSE_NEGATIVES = [
    # review finding 12: a dose before the drug ("<verb> <dose> of <drug>")
    (
        None,
        ULCER_OK.replace(
            ULCER_GEL, "Apply 4 g of diclofenac 1% gel to the right knee four times daily."
        ),
    ),
    (
        AERD,
        AERD_OK.replace(
            "Start duloxetine 30 mg daily for 1 week, then 60 mg daily.",
            "Start 30 mg of duloxetine daily for a week, then 60 mg daily.",
        ),
    ),
    # review finding 13: a bare "Voltaren" with a gram dose to the knee can only be the gel
    (None, ULCER_OK.replace(ULCER_GEL, "Start Voltaren 4 g to the right knee four times daily.")),
    # "40 drops to the right knee" (Pennsaid 1.5%) is not read as a committed start
    (
        None,
        ULCER_OK.replace(
            ULCER_GEL, "Start Pennsaid 1.5%, 40 drops to the right knee four times daily."
        ),
    ),
]


def test_four_times_daily_written_4x_passes():
    assert all(grade_note(TASK, ULCER_OK.replace("four times daily", "4x daily")).values())


def test_celecoxib_offered_with_her_ppi_fails():
    """'Celecoxib 100 mg twice daily with her PPI is acceptable' offers the NSAID (a reader gap
    once)."""
    note = ULCER_OK + " Celecoxib 100 mg twice daily with her PPI is acceptable."
    assert grade_note(TASK, note)["nsaid_avoided"] is False


def test_a_conditional_meloxicam_offer_fails():
    note = ULCER_OK + (
        " If the gel is not enough, meloxicam 7.5 mg once daily with her "
        "pantoprazole is a reasonable option."
    )
    assert not grade_note(TASK, note)["nsaid_avoided"]


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "note"), READER_FALSE_NEGATIVES)
def test_reader_false_negatives(variant, note):
    assert all(grade_note(TASK, note, variant).values())


@pytest.mark.xfail(strict=True, reason="note reader misreading, reported")
@pytest.mark.parametrize(("variant", "checkpoint", "note"), READER_GAPS)
def test_reader_gaps(variant, checkpoint, note):
    assert grade_note(TASK, note, variant)[checkpoint] is False


def _oracle_actions(variant=None, replace=None, extra=()):
    return oracle_calls(TASK, variant, replace) + list(extra)


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions

    return run_actions(TASK, actions, variant)


_rx = medication_request


def test_orders_ulcer():
    assert _run(_oracle_actions())["analgesic_ordered"]
    # an oral NSAID beside the gel, or an opioid, fails
    assert not _run(_oracle_actions(extra=[_rx("198014", 500, 2)]))["analgesic_ordered"]
    assert not _run(_oracle_actions(extra=[_rx("1049221", 1, 1, unit="{tbl}")]))[
        "analgesic_ordered"
    ]
    # celecoxib (the PCP's proposal) beside the gel fails
    assert not _run(_oracle_actions(extra=[_rx("205323", 200, 1)]))["analgesic_ordered"]
    # hydrocodone-acetaminophen 5/325 at night fails
    assert not _run(_oracle_actions(extra=[_rx("857002", 1, 1, unit="{tbl}")]))["analgesic_ordered"]
    # 2 g is the upper-extremity dose; the knee takes 4 g
    assert not _run(_oracle_actions(replace={"dose_value": 2}))["analgesic_ordered"]
    # the gel six times daily is above the label schedule
    assert not _run(_oracle_actions(replace={"frequency": 6}))["analgesic_ordered"]
    # duloxetine instead of the gel is not the ulcer-branch answer
    assert not _run(
        _oracle_actions(
            replace={
                "medication_code": "596930",
                "dose_value": 30,
                "dose_unit": "mg",
                "route": "oral",
                "frequency": 1,
            }
        )
    )["analgesic_ordered"]


def test_orders_aerd():
    assert _run(_oracle_actions(AERD), AERD)["analgesic_ordered"]
    # topical diclofenac is an NSAID too in AERD
    assert not _run(
        _oracle_actions(AERD, extra=[_rx("855633", 4, 4, unit="g", route="topical")]), AERD
    )["analgesic_ordered"]
    # the PCP's hydrocodone-acetaminophen, or tramadol (also serotonergic), beside duloxetine fails
    assert not _run(_oracle_actions(AERD, extra=[_rx("857002", 1, 1, unit="{tbl}")]), AERD)[
        "analgesic_ordered"
    ]
    assert not _run(_oracle_actions(AERD, extra=[_rx("835603", 50, 1)]), AERD)["analgesic_ordered"]
    # starting at 60 mg skips the 30 mg week
    assert not _run(
        _oracle_actions(AERD, replace={"medication_code": "596934", "dose_value": 60}), AERD
    )["analgesic_ordered"]


def test_physical_therapy_order():
    without = [a for a in _oracle_actions() if a["tool"] != "fhir_service_request_create"]
    assert not _run(without)["physical_therapy_ordered"]
    assert _run(_oracle_actions())["physical_therapy_ordered"]
