"""oligomenorrhea_pcos: oligomenorrhea with hyperandrogenism - PCOS confirmed (OGTT + lipids),
non-classic CAH not excluded (cosyntropin stimulation test) or hyperprolactinemia (pituitary MRI).

The canonical instance is the PCOS scenario; variant 1 is the NCCAH scenario (17-OHP 514 ng/dL)
and variant 5 the hyperprolactinemia scenario (prolactin 101.2 -> 95.2 ng/mL).
"""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

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


test_a_correct_plan_in_other_words_passes, test_a_wrong_plan_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


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
    stale = good.replace("Prolactin 101 ng/mL (95 ng/mL on the\nrested repeat)",
                         "Prolactin 12.6 ng/mL")
    assert not grade_note(TASK, stale, HPRL)["mimics_assessed"]


# Probes of the review findings (task_specs/endocrinology/reviews/oligomenorrhea_pcos.md).

def _labs(variant=None):
    from physbench_gym.synth.chart import generate_chart
    from physbench_gym.tasks.registry import get_instance

    chart = generate_chart(get_instance(TASK, variant).story, seed=0)
    found = {}
    for res in chart:
        if res["resourceType"] == "Observation" and "valueQuantity" in res:
            flags = res.get("interpretation", [])
            found.setdefault(res["code"]["coding"][0]["code"], []).append(
                (res["effectiveDateTime"], res["valueQuantity"]["value"], res.get("referenceRange"),
                 flags[0]["coding"][0]["code"] if flags else None))
    return {code: sorted(rows) for code, rows in found.items()}


@pytest.mark.parametrize("variant", [None, NCCAH, HPRL])
def test_review_1_testosterone_is_shown_against_the_female_range(variant):
    labs, vals = _labs(variant), values(TASK, variant)
    (_, old, old_range, old_flag), (_, new, new_range, new_flag) = labs["2986-8"]
    for ranges in (old_range, new_range):
        assert [(r["low"]["value"], r["high"]["value"]) for r in ranges] == [(9, 55)]
        assert ranges[0]["appliesTo"][0]["coding"][0]["code"] == "248152002"  # female
    assert (old, old_flag) == (31, "N") and (new, new_flag) == (vals["testo"], "H")
    (_, ohp, ohp_range, ohp_flag), = labs["1668-3"]
    assert (ohp_range[0]["low"]["value"], ohp_range[0]["high"]["value"]) == (15, 70)
    assert ohp_flag == ("H" if ohp > 70 else "N")


_BASE = """Labs off the pill: total testosterone 78 ng/dL (high). 17-OHP 112 ng/dL, below 200 ng/dL,
so non-classic CAH is excluded. Prolactin 14.0 ng/mL, normal. TSH and FSH normal, hCG negative.
Assessment: {}
Plan: 75 g OGTT ordered (insulin resistance is common in PCOS); fasting lipid panel ordered. No
pelvic ultrasound. No ACTH stimulation test, no pituitary MRI."""


@pytest.mark.parametrize("assessment", [
    "PCOS is unlikely because her ultrasound showed normal ovaries.",
    "Not PCOS - likely post-pill oligomenorrhea.",
    "Post-pill amenorrhea with idiopathic hirsutism. The A1c is less sensitive in PCOS.",
    "Idiopathic hyperandrogenism; not PCOS.",
    "PCOS is possible; diagnosis deferred.",
    "Hyperandrogenism and oligo-ovulation - PCOS vs NCCAH.",
    "Suspected PCOS, awaiting further workup.",
    "Her picture is suggestive of PCOS, but I would hold off on making the diagnosis.",
])
def test_review_2_a_pcos_mention_is_not_a_pcos_diagnosis(assessment):
    assert not grade_note(TASK, _BASE.format(assessment))["diagnosis_stated"], assessment


@pytest.mark.parametrize("assessment", [
    "PCOS by the Rotterdam criteria.", "She has polycystic ovary syndrome.",
    "Meets 2 of 3 Rotterdam criteria (oligo-ovulation and hyperandrogenism).",
    "Polycystic ovary syndrome; her normal ultrasound does not exclude PCOS.",
])
def test_review_2_an_asserted_diagnosis_passes(assessment):
    assert grade_note(TASK, _BASE.format(assessment))["diagnosis_stated"], assessment


def test_review_3_nccah_called_excluded_fails():
    excluded = """Testosterone 72 ng/dL, elevated. 17-OHP 514 ng/dL: below the 1000 ng/dL diagnostic
threshold, so non-classic CAH is excluded.
Assessment: PCOS by Rotterdam criteria; NCCAH excluded.
Plan: 75 g OGTT and lipid panel ordered. No pelvic ultrasound. No pituitary MRI."""
    verdicts = grade_note(TASK, excluded, NCCAH)
    assert not verdicts["diagnosis_stated"] and not verdicts["mimics_assessed"]
    committed = excluded.replace("so non-classic CAH is excluded", "above 200 ng/dL").replace(
        "NCCAH excluded.", "cosyntropin test to follow.")
    assert not grade_note(TASK, committed, NCCAH)["diagnosis_stated"]  # PCOS committed early
    possible = _BASE.replace("below 200 ng/dL,\nso non-classic CAH is excluded",
                             "elevated - non-classic CAH is possible").format("PCOS.")
    assert not grade_note(TASK, possible)["mimics_assessed"]


@pytest.mark.parametrize(("labs", "assessment", "passes"), [
    ("total testosterone 78 ng/dL, within normal limits (lab flags it low)",
     "PCOS: oligo-ovulation and clinical hyperandrogenism (hirsutism).", False),
    ("total testosterone 78 ng/dL (low)",
     "PCOS: oligo-ovulation and clinical hyperandrogenism (hirsutism).", False),
    ("Testosterone 78 ng/dL, above the female upper limit (~45 ng/dL)", "Meets Rotterdam criteria.",
     True),
    ("Total testosterone 2.7 nmol/L (elevated), DHEA-S normal", "Meets Rotterdam criteria.", True),
])
def test_review_4_the_testosterone_reading_decides(labs, assessment, passes):
    note = _BASE.replace("total testosterone 78 ng/dL (high)", labs).format(assessment)
    assert grade_note(TASK, note)["androgen_excess_assessed"] is passes


def test_review_5_hyperprolactinemia_put_down_to_pcos_fails():
    note = """Testosterone 67 ng/dL, elevated. Prolactin 101.2 ng/mL and 95.2 ng/mL on repeat, with
galactorrhea.
Assessment: Hyperprolactinemia, most likely secondary to PCOS; PCOS by Rotterdam criteria.
Plan: pituitary MRI ordered. No pelvic ultrasound, no ACTH stimulation test."""
    assert not grade_note(TASK, note, HPRL)["diagnosis_stated"]
