"""oligomenorrhea_pcos: oligomenorrhea with hyperandrogenism - PCOS confirmed (OGTT + lipids),
non-classic CAH not excluded (cosyntropin stimulation test) or hyperprolactinemia (pituitary MRI).

The canonical instance is the PCOS scenario; variant 1 is the NCCAH scenario (17-OHP 514 ng/dL)
and variant 5 the hyperprolactinemia scenario (prolactin 101.2 -> 95.2 ng/mL).
"""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, oracle_note, values

TASK = "oligomenorrhea_pcos"
NCCAH, HPRL = 1, 5


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "pcos"
    assert (vals["testo"], vals["ohp"], vals["prl"]) == (78, 112, 14.0)
    assert vals["ohp"] < 200  # below the NCCAH screening cutoff, though flagged H by the lab


def test_branch_values():
    nccah, hprl = values(TASK, NCCAH), values(TASK, HPRL)
    assert nccah["scenario"]["name"] == "nccah" and 200 < nccah["ohp"] < 1000
    assert (nccah["testo"], nccah["ohp"]) == (72, 514)
    assert hprl["scenario"]["name"] == "hyperprolactinemia"
    assert (hprl["prl"], hprl["prl_repeat"]) == (101.2, 95.2) and hprl["ohp"] < 200


def test_oracle_notes_pass_every_branch():
    for variant in (None, NCCAH, HPRL):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


CORRECT = [
    """24F oligomenorrhea off OCP x8 mo, hirsutism (mFG 14).
Labs off OCP: total T 78 ng/dL (H), 17-OHP 112 ng/dL (AM, follicular) -> <200, NCCAH excluded.
PRL 14, TSH 1.7, FSH 5.8, hCG neg. Old T 31 was on OCP - disregard.
Dx: PCOS (Rotterdam: oligo-ovulation + hyperandrogenism).
Plan: 75 g OGTT; fasting lipid panel. No pelvic US needed. No ACTH stim, no pituitary MRI.""",
    """Her total testosterone is elevated at 78 ng/dL, measured seven months after she stopped
the pill. The early-morning follicular 17-hydroxyprogesterone was 112 ng/dL, well under 200
ng/dL, which excludes non-classic congenital adrenal hyperplasia, and her prolactin (14 ng/mL),
TSH and FSH are normal with a negative pregnancy test. She therefore meets the Rotterdam
criteria: the diagnosis is polycystic ovary syndrome. An ultrasound is not required because she
already has irregular cycles and hyperandrogenism; her normal pelvic ultrasound from 4 years ago
does not exclude PCOS. I have ordered a 75-g oral glucose tolerance test and a fasting lipid
profile.""",
    """| Test | Result | Comment |
|---|---|---|
| Total testosterone | 2.7 nmol/L — high | off OCP |
| 17-OHP | 3.4 nmol/L | < 6 nmol/L → NCCAH unlikely |
| Prolactin | 14 µg/L | normal |

**Impression:** PCOS (phenotype B).
**Plan:**
- Order 75 g OGTT
- Order lipid panel
- Pelvic ultrasound: not indicated
- ACTH stimulation test: not needed""",
    """A: Oligomenorrhea + hirsutism with elevated testosterone (78) -> meets 2 of 3 Rotterdam
criteria; 17-OHP 112 rules out NCCAH. Normal ultrasound 4 yrs ago does not exclude PCOS.
P: OGTT (75 g) and lipids ordered. No imaging.""",
]

WRONG = {
    "on-pill testosterone as current": (
        "Testosterone 31 ng/dL, normal. 17-OHP 112 ng/dL excludes NCCAH. Dx: PCOS by Rotterdam. "
        "Plan: 75 g OGTT, lipid panel. No pelvic ultrasound.", "androgen_excess_assessed"),
    "testosterone called normal": (
        "Testosterone 78 ng/dL, normal. 17-OHP 112 ng/dL excludes NCCAH. Dx: PCOS. Plan: 75 g "
        "OGTT, lipid panel. No pelvic ultrasound.", "androgen_excess_assessed"),
    "wrong 17-OHP": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 250 ng/dL. Dx: PCOS. Plan: 75 g OGTT, lipid "
        "panel. No pelvic ultrasound.", "mimics_assessed"),
    "diagnosis left pending on an ultrasound": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 112 ng/dL. PCOS cannot be diagnosed without an "
        "ultrasound. Plan: OGTT, lipid panel.", "diagnosis_stated"),
    "PCOS ruled out by the old ultrasound": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 112 ng/dL. PCOS ruled out given the normal "
        "ultrasound. Plan: OGTT, lipid panel.", "diagnosis_stated"),
    "hedged diagnosis": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 112 ng/dL excludes NCCAH. Possible PCOS. Plan: "
        "75 g OGTT, lipid panel. No pelvic ultrasound.", "diagnosis_stated"),
    "orders a pelvic ultrasound": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 112 ng/dL excludes NCCAH. Dx: PCOS. Plan: order "
        "a pelvic ultrasound to look for polycystic ovaries, 75 g OGTT, lipid panel.",
        "plan_documented"),
    "hedged metabolic screening": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 112 ng/dL excludes NCCAH. Dx: PCOS. Plan: could "
        "consider an OGTT and lipid panel at some point. No pelvic ultrasound.", "plan_documented"),
    "unneeded stimulation test": (
        "Testosterone 78 ng/dL, elevated. 17-OHP 112 ng/dL. Dx: PCOS. Plan: 75 g OGTT, lipid "
        "panel, and an ACTH stimulation test to be thorough. No pelvic ultrasound.",
        "plan_documented"),
}


@pytest.mark.parametrize("note", CORRECT)
def test_a_correct_plan_in_other_words_passes(note):
    verdicts = grade_note(TASK, note)
    assert verdicts and all(verdicts.values()), verdicts


@pytest.mark.parametrize("error", sorted(WRONG))
def test_a_wrong_plan_fails_its_checkpoint(error):
    note, target = WRONG[error]
    assert not grade_note(TASK, note)[target], error


def test_nccah_branch():
    good = """Testosterone 72 ng/dL, elevated, off the pill. The early-morning 17-OHP is 514 ng/dL,
above the 200 ng/dL screening cutoff, so non-classic CAH cannot be excluded and PCOS is not yet
confirmed. I have ordered a cosyntropin stimulation test (17-OHP at 60 minutes). No pelvic
ultrasound is needed; no pituitary MRI."""
    assert all(grade_note(TASK, good, NCCAH).values())
    excluded = ("Testosterone 72 ng/dL, elevated. 17-OHP 514 ng/dL. NCCAH ruled out. Dx: PCOS. "
                "Plan: OGTT and lipid panel. No pelvic ultrasound.")
    assert not grade_note(TASK, excluded, NCCAH)["plan_documented"]
    hedged = good.replace("I have ordered a cosyntropin stimulation test",
                          "One could consider a cosyntropin stimulation test")
    assert not grade_note(TASK, hedged, NCCAH)["plan_documented"]


def test_hyperprolactinemia_branch():
    good = """Total testosterone mildly elevated at 67 ng/dL. Prolactin 101 ng/mL (95 ng/mL on the
rested repeat), with galactorrhea and no causative drug: hyperprolactinemia, likely a
prolactinoma; PCOS should not be diagnosed until this is addressed. Pituitary MRI with
gadolinium ordered. No pelvic ultrasound; 17-OHP 160 ng/dL, so no ACTH stimulation test."""
    assert all(grade_note(TASK, good, HPRL).values())
    called_pcos = ("Testosterone 67 ng/dL, elevated. Prolactin 101 ng/mL, mildly elevated, common "
                   "in PCOS. Dx: PCOS. Plan: OGTT, lipid panel. No pelvic ultrasound.")
    verdicts = grade_note(TASK, called_pcos, HPRL)
    assert not verdicts["diagnosis_stated"] and not verdicts["plan_documented"]
    stale = good.replace("Prolactin 101 ng/mL (95 ng/mL on the\nrested repeat)", "Prolactin 12.6 ng/mL")
    assert not grade_note(TASK, stale, HPRL)["mimics_assessed"]
