"""asbestos_exposure: pleural plaques need PFTs with DLCO and no plaque surveillance; the smoking
history decides lung cancer screening (USPSTF 2021) and cessation."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    oracle_calls,
    service_request,
    values,
)
from tests.tasks.helpers_endocrinology import run_actions

TASK = "asbestos_exposure"
CURRENT, NEVER, LIGHT, REMOTE = 0, 2, 4, 5  # variants of each other branch

CORRECT = [
    """A: bilat calcified pleural plaques = marker of prior asbestos exposure. No asbestosis on CT.
    P: full PFTs w/ spirometry, lung volumes + DLCO - ordered.
    LCS: eligible per USPSTF 2021 (67 y, 34 pk-yr, quit 9 y). Annual LDCT, first in ~12 mo -
    ordered. No serial CT, no PET, no biopsy for the plaques.""",
    """Dear Dr. Lee, thank you for asking about Mr. Marchetti. His CT shows bilateral partially
    calcified pleural plaques, which reflect his shipyard asbestos exposure; there is no evidence
    of asbestosis. I have ordered pulmonary function tests including spirometry, lung volumes
    and diffusing capacity. He meets USPSTF criteria for lung cancer screening, so I have ordered
    an annual low-dose CT starting next spring. The plaques are benign and do not need follow-up
    CT scans, a PET scan or a biopsy.""",
    """## Assessment
    Asbestos-related pleural plaques (bilateral, calcified) — benign marker of exposure;
    asbestosis not present.

    | Item | Plan |
    |---|---|
    | PFTs with DLCO | ordered now |
    | Lung cancer screening | eligible (USPSTF 2021: ≥20 pk-yr, quit ≤15 y) → annual LDCT in 12 mo |
    | Repeat CT / PET-CT / pleural biopsy | not indicated |""",
    """Assessment: The CT findings are typical asbestos-related pleural plaques. These are not
    cancerous and do not progress to mesothelioma. There is no interstitial fibrosis, so this is
    not asbestosis.
    Recommendations:
    1. I have ordered complete pulmonary function testing (spirometry, lung volumes, DLCO) to
       establish a baseline and evaluate his exertional dyspnea.
    2. He is eligible for lung cancer screening under USPSTF 2021. I have ordered an annual
       low-dose CT, the first one about a year after his recent chest CT.
    3. No surveillance CT of the plaques, no PET/CT and no biopsy are needed. If he develops new
       chest pain, weight loss or a pleural effusion, a repeat CT would be appropriate.
    This consult is based on chart review; please contact me with questions.""",
    """S: shipyard pipefitter, 34 pack-years, quit 2017.
    O: CT chest: bilateral calcified pleural plaques, no fibrosis, no nodules.
    A: Benign asbestos-related pleural disease (plaques only). Not asbestosis.
    P: I have placed orders for spirometry and diffusing capacity. LCS: qualifies under USPSTF
    2021 -> enroll in the lung cancer screening program (annual LDCT starting April 2027).
    Plaques: no follow-up imaging required.""",
    # the other branches, each with its own answer
    (
        CURRENT,
        """A: bilateral calcified pleural plaques from shipyard asbestos exposure; no
    asbestosis. P: PFTs with spirometry, lung volumes and DLCO ordered. He is eligible for lung
    cancer screening (USPSTF 2021, current smoker, 41 pack-years): annual LDCT ordered. Smoking
    cessation: counseled today and referred to tobacco cessation counseling. No serial CT, PET or
    biopsy for the plaques.""",
    ),
    (
        NEVER,
        """Pleural plaques (asbestos-related, benign), no asbestosis. Order full PFTs
    including DLCO. He has never smoked, so he does not meet USPSTF criteria for lung cancer
    screening; asbestos exposure alone does not qualify him. No LDCT. No repeat CT, PET/CT or
    biopsy for the plaques.""",
    ),
    # exposure itself raises mesothelioma risk; the plaques do not turn malignant
    """A: asbestos-related pleural plaques, no asbestosis. His past exposure raises his
    mesothelioma risk, but the plaques themselves do not turn into mesothelioma. P: PFTs with
    DLCO ordered. Eligible for lung cancer screening (USPSTF 2021); annual LDCT ordered. No serial
    CT, PET or biopsy.""",
    # the chart's CT named as data, and 'distinct from asbestosis' (dev corpus c07, c09)
    """CT chest 3/10: bilat calcified pleural plaques, no fibrosis, no nodule.
    Dx: asbestos-related pleural plaques; they are distinct from asbestosis, which the CT does
    not show. PFTs with spirometry, lung volumes and DLCO ordered. Eligible for lung cancer
    screening (USPSTF 2021); annual LDCT ordered. No follow-up CT, PET or biopsy.""",
    (
        CURRENT,
        """Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. Eligible
    for lung cancer screening (USPSTF 2021, current smoker); annual LDCT ordered. Referred to
    the quitline (1-800-QUIT-NOW) and start bupropion SR 150 mg daily. No serial CT, PET or
    biopsy.""",
    ),
    # quit 22 years ago with 36 pack-years: USPSTF no, ACS 2023 yes; an LDCT is not forbidden
    (
        REMOTE,
        """Asbestos-related pleural plaques; no asbestosis. PFTs with DLCO ordered. Not
    eligible for lung cancer screening under USPSTF 2021 (quit 22 years ago, more than 15
    years). Under the ACS 2023 guideline he qualifies; annual LDCT after shared decision-making.
    No serial CT, PET or biopsy.""",
    ),
    (
        REMOTE,
        """Impression: asbestos-related pleural plaques; no evidence of asbestosis.
    Plan: PFTs (spirometry, lung volumes, DLCO) ordered. Not eligible for LCS per USPSTF 2021 -
    he quit 22 years ago (>15 years). No low-dose CT screening. Plaques need no surveillance
    imaging or biopsy.""",
    ),
]

_OK = "PFTs with DLCO ordered. Eligible for lung cancer screening (USPSTF); annual LDCT ordered."
WRONG = {
    "asbestosis": (
        "plaques_interpreted",
        f"A: asbestosis with pleural plaques. P: {_OK} No PET, no biopsy, no serial CT.",
    ),
    "asbestosis_likely": (
        "plaques_interpreted",
        f"Findings most consistent with asbestosis and pleural plaques. {_OK} No PET or biopsy.",
    ),
    "verdict_reversed": (
        "screening_eligibility_assessed",
        "A: pleural plaques, no asbestosis. "
        "P: PFTs with DLCO ordered. Not eligible for lung cancer screening "
        "under USPSTF. No PET, no biopsy, no serial CT.",
    ),
    "no_dlco": (
        "plan_documented",
        "A: pleural plaques, no asbestosis. P: spirometry ordered. "
        "Eligible for lung cancer screening (USPSTF); annual LDCT ordered. No PET, no "
        "biopsy, no serial CT.",
    ),
    "serial_ct": (
        "plan_documented",
        f"A: pleural plaques, no asbestosis. P: {_OK} Repeat CT "
        "chest in 12 months to follow the plaques. No PET, no biopsy.",
    ),
    "pet": (
        "plan_documented",
        f"A: pleural plaques, no asbestosis. P: {_OK} PET/CT to exclude "
        "mesothelioma. No serial CT.",
    ),
    "biopsy": (
        "plan_documented",
        f"A: pleural plaques, no asbestosis. P: {_OK} Refer for "
        "thoracoscopic pleural biopsy to exclude mesothelioma.",
    ),
    "hedged": (
        "plan_documented",
        "A: pleural plaques, no asbestosis. P: could consider PFTs "
        "with DLCO. Eligible for lung cancer screening (USPSTF); could consider LDCT. No "
        "PET, no biopsy, no serial CT.",
    ),
    "eligible_but_no_ldct": (
        "plan_documented",
        "A: pleural plaques, no asbestosis. P: PFTs "
        "with DLCO ordered. Eligible for lung cancer screening (USPSTF), "
        "but no LDCT needed since he just had a CT. No PET, no biopsy.",
    ),
    "stuffing": (
        "Pleural plaques. Asbestosis. Eligible for lung cancer screening. Not "
        "eligible for lung cancer screening. PFTs with DLCO ordered. LDCT ordered. No "
        "LDCT. PET/CT ordered. No PET/CT. Pleural biopsy. No biopsy."
    ),  # fails some checkpoint
    "current_no_cessation": (
        CURRENT,
        "plan_documented",
        f"A: pleural plaques; no asbestosis. P: {_OK} No serial CT, PET or biopsy.",
    ),
    "never_called_eligible": (
        NEVER,
        "screening_eligibility_assessed",
        "Pleural plaques, no "
        "asbestosis. Order full PFTs including DLCO. Because of his "
        "asbestos exposure he is eligible for lung cancer screening; "
        "annual LDCT ordered. No PET, no biopsy.",
    ),
    "never_ldct_anyway": (
        NEVER,
        "plan_documented",
        "Pleural plaques, no asbestosis. Order full "
        "PFTs including DLCO. Not eligible for lung cancer screening under "
        "USPSTF, but I would still order a low-dose CT annually given "
        "asbestos. No PET, no biopsy.",
    ),
    "plaques_turn_malignant": (
        "plaques_interpreted",
        "Bilateral pleural plaques from asbestos "
        "exposure, which are premalignant and will likely progress to "
        f"mesothelioma; no asbestosis. {_OK} No serial CT, PET or biopsy.",
    ),
    "plaques_become_mesothelioma": (
        "plaques_interpreted",
        "Pleural plaques, benign, but they "
        "will turn into mesothelioma over time; no asbestosis. "
        f"{_OK} No serial CT, PET or biopsy.",
    ),
    "serial_ct_verbless": (
        "plan_documented",
        f"A: pleural plaques, no asbestosis. P: {_OK} "
        "Follow-up CT in 1 year for the plaques. No PET, no biopsy.",
    ),
    "light_smoker_ldct": (
        LIGHT,
        "plan_documented",
        "Pleural plaques, no asbestosis. PFTs with "
        "DLCO ordered. Not eligible for lung cancer screening under USPSTF "
        "2021 (14 pack-years). Annual LDCT ordered anyway given asbestos.",
    ),
    "remote_quit_called_eligible": (
        REMOTE,
        "screening_eligibility_assessed",
        "Impression: "
        "pleural plaques; no asbestosis. Plan: PFTs with DLCO "
        "ordered. Eligible for lung cancer screening given 36 "
        "pack-years; annual LDCT ordered.",
    ),
}


def _flush(entry):
    """The note as written in a file: the source indentation of its lines removed."""
    if isinstance(entry, str):
        return "\n".join(line.strip() for line in entry.split("\n"))
    return (*entry[:-1], _flush(entry[-1]))


test_correct_notes_pass, test_wrong_notes_fail = note_probes(
    TASK, [_flush(note) for note in CORRECT], {k: _flush(v) for k, v in WRONG.items()}
)
test_canonical_note_fails_other_branches, test_oracle_succeeds_on_each_branch = branch_probes(
    TASK, [CURRENT, NEVER, LIGHT, REMOTE], [None, CURRENT, NEVER, LIGHT, REMOTE]
)


def test_canonical_values():
    vals = values(TASK)
    assert (vals["branch"], vals["pack_years"], vals["lcs_eligible"]) == ("eligible", 34, True)
    assert vals["lcs_concept"] == ["screening_eligible"]


@pytest.mark.parametrize(
    "variant, branch, eligible",
    [
        (CURRENT, "current", True),
        (NEVER, "ineligible", False),
        (LIGHT, "ineligible", False),
        (REMOTE, "ineligible", False),
    ],
)
def test_branch_values(variant, branch, eligible):
    vals = values(TASK, variant)
    assert (vals["branch"], vals["lcs_eligible"]) == (branch, eligible)


def _reads() -> list[dict]:
    return [c for c in oracle_calls(TASK) if not c["tool"].endswith("_create")]


PFTS = [service_request("94010", "cpt", "procedure"), service_request("94729", "cpt", "procedure")]
LDCT_NOW = service_request("71271", "cpt", "imaging")


def ldct(variant: int | None = None) -> dict:
    """The first screening LDCT, about a year after last month's chest CT (the oracle's date)."""
    return service_request("71271", "cpt", "imaging", occurrence=values(TASK, variant)["ldct_date"])


def test_pfts_and_ldct_pass_the_order_checkpoints():
    verdicts = run_actions(TASK, _reads() + PFTS + [ldct()])
    assert verdicts["pfts_ordered"] and verdicts["imaging_orders_appropriate"], verdicts


def test_ldct_now_fails():
    """Last month's diagnostic CT showed no nodule: a screening LDCT now repeats it."""
    verdicts = run_actions(TASK, _reads() + PFTS + [LDCT_NOW])
    assert not verdicts["imaging_orders_appropriate"], verdicts


def test_spirometry_without_dlco_fails():
    verdicts = run_actions(TASK, _reads() + PFTS[:1] + [ldct()])
    assert not verdicts["pfts_ordered"], verdicts


@pytest.mark.parametrize(
    "extra",
    [
        service_request("71250", "cpt", "imaging"),  # serial diagnostic CT of the plaques
        service_request("78815", "cpt", "imaging"),  # PET/CT
        service_request("32609", "cpt", "procedure"),  # thoracoscopic pleural biopsy
    ],
    ids=["diagnostic_ct", "pet_ct", "pleural_biopsy"],
)
def test_unindicated_orders_fail(extra):
    verdicts = run_actions(TASK, _reads() + PFTS + [ldct(), extra])
    assert not verdicts["imaging_orders_appropriate"], verdicts


@pytest.mark.parametrize("variant", [NEVER, LIGHT])
def test_ldct_for_an_ineligible_patient_fails(variant):
    verdicts = run_actions(TASK, _reads() + PFTS + [ldct(variant)], variant=variant)
    assert not verdicts["imaging_orders_appropriate"], verdicts
    verdicts = run_actions(TASK, _reads() + PFTS, variant=variant)
    assert verdicts["imaging_orders_appropriate"], verdicts


def test_remote_quitter_may_have_an_ldct_but_needs_the_pfts():
    """USPSTF no, ACS 2023 yes: the LDCT is neither required nor forbidden (review finding 1)."""
    for actions in (PFTS, PFTS + [ldct(REMOTE)]):
        verdicts = run_actions(TASK, _reads() + actions, variant=REMOTE)
        assert verdicts["imaging_orders_appropriate"], verdicts
    verdicts = run_actions(TASK, _reads() + [ldct(REMOTE)], variant=REMOTE)
    assert not verdicts["imaging_orders_appropriate"], verdicts


def test_a_snomed_pft_order_passes_in_the_ineligible_branch():
    """Review finding 6: a complete-PFT order by text counts wherever the PFTs are judged."""
    pft = service_request(
        "23426006",
        "snomed",
        "procedure",
        display="Pulmonary function test, complete (spirometry, lung volumes, DLCO)",
    )
    verdicts = run_actions(TASK, _reads() + [pft], variant=NEVER)
    assert verdicts["pfts_ordered"] and verdicts["imaging_orders_appropriate"], verdicts


def test_current_smoker_needs_a_cessation_order():
    verdicts = run_actions(TASK, _reads() + PFTS + [ldct(CURRENT)], variant=CURRENT)
    assert not verdicts["imaging_orders_appropriate"], verdicts
    cessation = service_request("225323000", "snomed", "counseling")
    verdicts = run_actions(TASK, _reads() + PFTS + [ldct(CURRENT), cessation], variant=CURRENT)
    assert verdicts["imaging_orders_appropriate"], verdicts


# Reader gaps found while writing the task (see the spec's known gaps and the report).
@pytest.mark.xfail(
    strict=True,
    reason="'Follow the plaques with a CT chest' - 'follow ... with' "
    "is not a plan verb, so serial CT surveillance passes",
)
def test_follow_with_ct_is_read_as_surveillance():
    note = (
        f"A: pleural plaques, no asbestosis. P: {_OK} Follow the plaques with a CT chest "
        "every 2 years."
    )
    assert not grade_note(TASK, note)["plan_documented"]


@pytest.mark.xfail(strict=True, reason="'if he remains anxious' is a wish, read as a trigger")
def test_pet_for_anxiety_is_not_a_contingency():
    note = (
        f"A: pleural plaques, no asbestosis. P: {_OK} A PET/CT could be done if he remains "
        "anxious about mesothelioma."
    )
    assert not grade_note(TASK, note)["plan_documented"]


@pytest.mark.xfail(
    strict=True,
    reason="'meets the USPSTF criteria' (with 'the') and 'lung "
    "function tests with a DLCO' (with 'a') are not read",
)
def test_articles_inside_the_eligibility_and_dlco_phrases():
    note = (
        "These are pleural plaques from asbestos exposure, and they are benign. I've ordered "
        "lung function tests with a DLCO. He meets the USPSTF criteria for screening, so "
        "annual low-dose CT screening is ordered for next year. No PET scan or biopsy."
    )
    assert all(grade_note(TASK, note).values())


# Reader gaps found by the review and the fixer (report them; the notes are correct or wrong as
# the test says).
@pytest.mark.xfail(
    strict=True,
    reason="'advised to quit smoking' / 'counseled him to stop "
    "smoking': verb + 'to quit/stop smoking' not read as the counsel action",
)
def test_advised_to_quit_is_cessation_counseling():
    note = (
        "Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. Eligible for "
        "lung cancer screening (USPSTF 2021); annual LDCT ordered. Strongly advised to quit "
        "smoking. No serial CT, PET or biopsy."
    )
    assert all(grade_note(TASK, note, CURRENT).values())


@pytest.mark.xfail(
    strict=True, reason="'was not discussed' / 'not addressed' do not negate the cessation decision"
)
def test_cessation_not_discussed_fails():
    note = (
        "Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. Eligible for "
        "lung cancer screening (USPSTF 2021); annual LDCT ordered. Smoking cessation was not "
        "discussed. No serial CT, PET or biopsy."
    )
    assert not grade_note(TASK, note, CURRENT)["plan_documented"]


@pytest.mark.xfail(
    strict=True,
    reason="a verdict then ':' or ' - ' and its reason is not read "
    "('Not eligible ... (USPSTF 2021): quit more than 15 years ago')",
)
def test_verdict_with_a_reason_after_a_colon():
    note = (
        "Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. Not eligible "
        "for lung cancer screening (USPSTF 2021): quit more than 15 years ago. No LDCT. No "
        "serial CT, PET or biopsy."
    )
    assert grade_note(TASK, note, LIGHT)["screening_eligibility_assessed"]


def test_sdm_visit_before_the_first_ldct():
    note = (
        "Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. Eligible for "
        "lung cancer screening (USPSTF 2021). After a shared decision-making visit, start "
        "annual LDCT screening. No serial CT, PET or biopsy."
    )
    assert all(grade_note(TASK, note).values())


def test_question_answered_yes():
    note = (
        "Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. No serial CT, "
        "PET or biopsy.\nQ3. Is he eligible for lung cancer screening (USPSTF 2021)?\nA. Yes. "
        "I have ordered annual low-dose CT screening, first scan around March 2027."
    )
    assert all(grade_note(TASK, note).values())


@pytest.mark.xfail(
    strict=True,
    reason="'CT chest annually' / 'CT chest in 12 months' (the "
    "plain chest CT term, no plan verb) is not read as plaque surveillance",
)
def test_verbless_plain_ct_surveillance_fails():
    note = (
        f"A: pleural plaques, no asbestosis. P: {_OK} CT chest annually to monitor the "
        "plaques. No PET, no biopsy."
    )
    assert not grade_note(TASK, note)["plan_documented"]


def test_does_qualify_is_the_verdict():
    note = (
        "Pleural plaques from asbestos, no asbestosis. PFTs with DLCO ordered. He does qualify "
        "for lung cancer screening under the 2021 USPSTF criteria; annual LDCT ordered. No "
        "serial CT, PET or biopsy."
    )
    assert grade_note(TASK, note)["screening_eligibility_assessed"]
