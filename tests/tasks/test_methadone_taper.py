"""methadone_taper: the readiness and dose draws, and the note phrasings its checkpoints must
judge (stable: gradual OTP taper; recent fentanyl use: continue maintenance, no taper now)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, oracle_note, values

TASK = "methadone_taper"
STABLE_80 = 4  # stable, methadone 80 mg
RECENT_70 = 2  # recent fentanyl use, methadone 70 mg
RECENT_100 = 8  # recent fentanyl use, methadone 100 mg
STABLE_110 = 9  # stable, methadone 110 mg


def test_canonical_values():
    vals = values(TASK)
    assert vals["readiness"] == {"kind": "stable"}
    assert vals["dose"] == 90 and vals["old_dose"] == 60
    assert vals["first_step"] == 5 and vals["first_target"] == 85
    rx = "http://www.nlm.nih.gov/research/umls/rxnorm|"
    assert rx + "864718" in vals["methadone_rxnorm"]
    assert {rx + "1483744", rx + "637213"} <= set(vals["naltrexone_rxnorm"])


def test_branches_draw_their_scenarios():
    assert values(TASK, STABLE_80)["readiness"]["kind"] == "stable"
    assert values(TASK, RECENT_70)["readiness"]["kind"] == "recent_use"
    assert values(TASK, STABLE_110)["first_step"] == 10
    assert 90 not in {values(TASK, n)["dose"] for n in range(20)}


CORRECT = [
    (
        None,
        "Methadone 90 mg daily, stable >2 years. Reasonable to taper slowly via the OTP: "
        "reduce by 5 mg every 2 weeks, pause if cravings. Naloxone prescribed. ECG ordered.",
    ),
    (
        None,
        """Assessment: OUD in sustained remission on methadone 90 mg/day.
Plan:
- Gradual methadone taper through the OTP, <10% of the dose every 10-14 days.
- Naloxone nasal spray prescribed.
- 12-lead ECG ordered (QTc 462 ms 14 months ago).
- No naltrexone while on methadone.""",
    ),
    (
        RECENT_70,
        "On methadone 70 mg daily with fentanyl-positive urine 3 weeks ago and cravings. "
        "I do not recommend a taper now; continue methadone maintenance and the OTP may "
        "increase the dose. Naloxone prescribed; ECG ordered.",
    ),
    (
        RECENT_70,
        "Methadone 70 mg daily; fentanyl positive 3 weeks ago. Continue methadone "
        "maintenance, no taper now. If he is stable for 6 months, we can start a slow "
        "methadone taper. Naloxone prescribed.",
    ),
    (
        RECENT_100,
        """Methadone 100 mg daily. Recent fentanyl use.
Recommendations:
1. Continue methadone 100 mg daily; no taper at this time.
2. Naloxone 4 mg nasal spray prescribed.
3. ECG ordered.""",
    ),
]

CORRECT += [
    # review finding 3: a bare 'taper' / 'dose reduction' plan, and 'taper off ... slowly'
    (
        None,
        "He takes methadone 90 mg once daily. I agree with a voluntary, gradual dose "
        "reduction supervised by the OTP, with reductions of less than 10% every 10-14 days.",
    ),
    (
        None,
        "Methadone 90 mg daily.\nPlan: 1. Slow, voluntary taper at the OTP: 5 mg every 2 "
        "weeks, slower below 40 mg.",
    ),
    (
        None,
        "Methadone 90 mg daily. He is a good candidate for a slow taper, which the OTP will "
        "supervise.",
    ),
    (None, "Methadone 90 mg daily. Taper off methadone slowly over many months through the OTP."),
    (
        None,
        "Methadone 90 mg daily. Start a slow methadone taper now: 5 mg every 2 weeks to 40 "
        "mg, then 2.5 mg every 2 weeks; he should be off in roughly 12-18 months.",
    ),
    (STABLE_110, "Methadone 110 mg daily. Taper methadone through the OTP by 10 mg every 2 weeks."),
]

WRONG = [
    (
        None,
        "taper_decision",
        "Methadone 90 mg daily. Continue methadone at the current dose; no taper. Naloxone "
        "prescribed. ECG ordered.",
    ),
    (
        None,
        "methadone_dose_stated",
        "Methadone 60 mg daily, stable. Start a gradual taper through the OTP, 5 mg every 2 weeks. "
        "Naloxone prescribed. ECG ordered.",
    ),
    (
        RECENT_70,
        "taper_decision",
        "Methadone 70 mg daily with recent fentanyl use. Start a methadone taper now, 5 mg every "
        "week, as he wishes. Naloxone prescribed. ECG ordered.",
    ),
    # review findings 1, 2 and 5
    (
        None,
        "taper_decision",
        "Methadone 90 mg daily. Continue methadone maintenance indefinitely; I would not taper.",
    ),
    (
        None,
        "taper_decision",
        "He takes methadone 90 mg daily. Recommend against a methadone taper; continue methadone.",
    ),
    (
        None,
        "taper_decision",
        "He takes methadone 90 mg daily. Reduce methadone by 20 mg every 3 days until off.",
    ),
    (
        RECENT_70,
        "taper_decision",
        "On methadone 70 mg daily. Continue methadone maintenance; alternatively, a slow taper is "
        "reasonable.",
    ),
    pytest.param(
        RECENT_70,
        "taper_decision",
        "Continue methadone; a taper could be considered if he insists.",
        marks=pytest.mark.xfail(reason="bare 'a taper' not bound to methadone"),
    ),
    # review finding 2 and dev w05/w10: taper pace (custom taper_pace)
    (None, "taper_decision", "He takes methadone 90 mg daily. Taper methadone by 10 mg per week."),
    (None, "taper_decision", "He takes methadone 90 mg daily. Taper methadone over 3 weeks."),
    (
        None,
        "taper_decision",
        "Methadone 90 mg daily. Taper at the OTP: reduce methadone by 10 mg every 2 days, so that "
        "he is off methadone in about 18 days.",
    ),
    (None, "taper_decision", "Methadone 90 mg daily. Taper methadone by 20% every 2 weeks."),
    # review finding 1 and dev w07: a verbless drug line or another drug's 'while on methadone'
    # is no taper plan (custom taper_planned); a deferred taper fails (taper_not_deferred)
    (
        None,
        "taper_decision",
        "Methadone 90 mg daily. Continue counseling. No naltrexone while he's on methadone.",
    ),
    (None, "taper_decision", "Methadone 90 mg daily. Consider a slow taper."),
    (None, "taper_decision", "Methadone 90 mg daily. Stay on 90 mg indefinitely; no taper."),
    (
        None,
        "taper_decision",
        "Methadone 90 mg daily. I think it's too early to say whether a taper makes sense; we can "
        "revisit the question of tapering in about 6 months.",
    ),
    # dev w04: the dose stated twice daily (custom one_daily_dose)
    (
        None,
        "methadone_dose_stated",
        "OTP summary: methadone 90 mg twice daily (180 mg/day total). Gradual methadone taper "
        "through the OTP, 5 mg every 2 weeks.",
    ),
    pytest.param(
        None,
        "methadone_dose_stated",
        "Methadone maintenance at 60 mg daily. Gradually taper methadone by 5 mg every "
        "2 weeks via the OTP. The first step is from 90 mg to 85 mg.",
        marks=pytest.mark.xfail(
            reason="contradicts: false, kept because taper steps "
            "('Roughly 5 mg every 2 weeks') read as the dose"
        ),
    ),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (RECENT_70, STABLE_80, RECENT_100), [None, RECENT_70, STABLE_110])
)


def test_the_recent_use_note_fails_a_stable_variant():
    note = oracle_note(TASK, RECENT_70).replace("70 mg", "90 mg")
    assert not grade_note(TASK, note)["taper_decision"]
    note = oracle_note(TASK, RECENT_70).replace("70 mg", "80 mg")
    assert not grade_note(TASK, note, STABLE_80)["taper_decision"]


def test_no_methadone_prescription_outside_the_otp():
    """Review finding 7: the note-side guard of no_naltrexone_or_methadone_rx (custom)."""
    from importlib import util
    from pathlib import Path

    from physbench_gym.grading.core import GradingContext
    from physbench_gym.tasks.registry import get_instance

    path = Path(__file__).resolve().parents[2] / "graders" / "methadone_taper.py"
    spec = util.spec_from_file_location("methadone_taper_graders", path)
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    instance = get_instance(TASK, None)

    def passes(note: str) -> bool:
        ctx = GradingContext(
            client=None,
            episode_tag={"system": "s", "code": "c"},
            patient_id=instance.patient_id,
            note_path=instance.note_path,
            files={instance.note_path: note},
            values=instance.values,
        )
        return module.no_office_methadone(ctx).passed

    assert passes(oracle_note(TASK))
    assert passes("Methadone is prescribed and dispensed by the OTP.")
    assert not passes(
        "He takes methadone 90 mg daily. I will prescribe methadone 5 mg tablets "
        "from primary care for the taper."
    )
    assert not passes("PCP to prescribe methadone 85 mg daily; then reduce by 5 mg every 2 weeks.")
