"""ear_canal_dermatitis: the canal state (dry eczematous dermatitis -> topical steroid drops;
superinfected with Pseudomonas -> ciprofloxacin-dexamethasone drops), the must-nots (neomycin
drops, oral antibiotics) and the note phrasings its checkpoints must judge."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import branch_probes, grade_note, note_probes, oracle_note, values

TASK = "ear_canal_dermatitis"
DRY = 5          # a variant on the canonical branch
INFECTED = 0     # Pseudomonas acute otitis externa on the dermatitis
INFECTED_B = 1


def test_canonical_values():
    vals = values(TASK)
    assert vals["canal"]["name"] == "dry_eczema" and not vals["infected"]
    assert vals["drop_rxnorm"] == "1191299" and vals["drop_drops"] == 5
    oral = vals["systemic_antibiotic_rxnorm"]
    assert {"309114", "308192", "309309", "562508"} <= set(oral)
    assert "404630" not in oral and "1191299" not in oral


def test_branches_draw_their_drops():
    assert values(TASK, DRY)["drop_rxnorm"] == "1191299"
    assert values(TASK, INFECTED)["drop_rxnorm"] == "404630"
    assert values(TASK, INFECTED)["drop_drops"] == 4
    states = [values(TASK, n)["canal"]["name"] for n in range(20)]
    assert 1 <= states.count("dry_eczema") <= 4


_CARE = " No cotton swabs; hearing aid out at night."

CORRECT = [
    (None, "R ear canal eczema, no infection (dry, scaly, no d/c). Start fluocinolone 0.01% oil "
           "5 gtt R ear BID x 7-14 d. Stop Cortisporin - neomycin allergic on patch test; avoid "
           "all neomycin. No oral abx, cephalexin not indicated." + _CARE),
    (None, """Dear Dr. colleague,

Thank you for asking about Mrs. Vandersloot's right ear. This is chronic eczematous otitis
externa; the canal is dry and scaly without swelling or discharge, so there is no infection.
Please do not restart Cortisporin: she is patch-test positive to neomycin and the drops made
things worse, so neomycin should be avoided in every form. I have prescribed fluocinolone
acetonide oil 0.01%, five drops into the right ear twice a day for up to two weeks. Oral
antibiotics such as cephalexin are not needed. She should stop using cotton swabs."""),
    (None, """| Issue | Plan |
|---|---|
| Diagnosis | Right ear canal dermatitis (eczematous), not infected |
| Treatment | Start betamethasone valerate 0.1% lotion to the canal twice daily for 2 weeks |
| Cortisporin | Avoid - neomycin allergy |
| Cephalexin | Not indicated; no oral antibiotics |
"""),
    (None, "She has chronic otitis externa of the right ear that is eczematous rather than "
           "infected. I recommend hydrocortisone 1% cream to the canal twice daily for two weeks. "
           "Neomycin products should be avoided. Antibiotics are not needed."),
    (None, "Dx: chronic eczematous external otitis. Rx: DermOtic 5 gtt AD bid x 14d. Never use "
           "Cortisporin again - neomycin allergy. No need for antibiotics by mouth."),
    (INFECTED, "Acute otitis externa (Pseudomonas, cipro-S) on R canal dermatitis. Start "
               "ciprofloxacin-dexamethasone otic 4 drops R ear BID x 7 days. Stop/avoid "
               "Cortisporin (neomycin allergy). No oral antibiotics - confined to the canal, "
               "not diabetic." + _CARE),
    (INFECTED, """Assessment: right acute otitis externa (Pseudomonas aeruginosa) on chronic ear
canal dermatitis.
Plan:
1. Ciprodex 4 drops in the right ear twice daily for 7 days.
2. Avoid neomycin-containing drops such as Cortisporin - patch-test proven allergy.
3. Systemic antibiotics are not indicated unless cellulitis spreads beyond the canal.
"""),
    # Review finding 2: other names of the diagnosis.
    *[(None, dx + " Start fluocinolone 0.01% oil 5 drops R ear BID x 14 days. Avoid Cortisporin "
             "and any neomycin (patch test positive). No oral antibiotics such as cephalexin.")
      for dx in ("Impression: chronic eczema of the right external auditory canal (EAC), not "
                 "infected.", "Right EAC eczema, no infection.",
                 "Impression: chronic external otitis of the right ear, eczematous type, without "
                 "infection.")],
    # Review finding 1: the labels' own verbs (now start verbs in verbs.yaml).
    (None, "R ear canal eczema, not infected. Apply fluocinolone 0.01% oil, 5 drops to the right "
           "ear twice daily for 14 days. Avoid Cortisporin and any neomycin (patch test "
           "positive). No oral antibiotics such as cephalexin."),
    (INFECTED, "Acute otitis externa (Pseudomonas) on right canal dermatitis. Start ofloxacin 0.3% "
               "otic 10 drops in the right ear once daily for 7 days. Avoid Cortisporin and any "
               "neomycin (allergy). No oral antibiotics."),
    # A chart-history line with the hydrocortisone of Cortisporin ('neo/polymyxin/HC ... Stopped')
    # is about the neomycin drop, not the steroid started now.
    (None, "UC gave neo/polymyxin/HC (Cortisporin) gtt, 5 d later weeping = ACD to neomycin. "
           "Stopped; flare settled.\nA: chronic eczematous dermatitis R EAC, not infected.\nP: "
           "Fluocinolone 0.01% otic oil 5 gtt R ear BID x 14 d. Never again Cortisporin or any "
           "neomycin. No cephalexin / PO abx."),
]

_NEO = " Avoid Cortisporin and any neomycin (patch test positive)."
_ABX = " No oral antibiotics such as cephalexin."
_PLAN = " Start fluocinolone 0.01% oil 5 drops R ear BID x 14 days." + _NEO + _ABX
_AOE = ("Acute otitis externa (Pseudomonas) on R canal dermatitis. Start Ciprodex 4 drops right "
        "ear twice daily for 7 days. Avoid Cortisporin and any neomycin (allergy).")

WRONG = [
    (None, "diagnosis_assessed",
     "Right acute otitis externa. Start fluocinolone 0.01% oil 5 drops R ear BID x 14 days." +
     _NEO + _ABX),
    (None, "topical_plan_documented",
     "R ear canal eczema, not infected. Keep the ear dry and avoid cotton swabs; no drops "
     "needed." + _NEO + _ABX),
    (None, "neomycin_avoided",
     "R ear canal eczema, not infected. Start fluocinolone 0.01% oil 5 drops R ear BID x 14 "
     "days. Cortisporin may be resumed for another 10 days if the itch persists." + _ABX),
    (None, "neomycin_avoided",
     "R ear canal eczema, not infected. Continue Cortisporin 4 drops TID for 10 more days." +
     _ABX),
    (None, "oral_antibiotics_avoided",
     "R ear canal eczema, not infected. Start fluocinolone 0.01% oil 5 drops R ear BID x 14 "
     "days." + _NEO + " Cephalexin 500 mg four times daily for 7 days to cover infection."),
    (None, "oral_antibiotics_avoided",
     "R ear canal eczema, not infected. Start fluocinolone 0.01% oil 5 drops R ear BID x 14 "
     "days." + _NEO + " Oral antibiotics are a reasonable alternative if she prefers."),
    (INFECTED, "topical_plan_documented",
     "Acute otitis externa on R canal dermatitis. Start fluocinolone 0.01% oil 5 drops R ear "
     "BID x 14 days." + _NEO + _ABX),
    (INFECTED, "topical_plan_documented",
     "Acute otitis externa (Pseudomonas) on R canal dermatitis. Ciprofloxacin 500 mg by mouth "
     "twice daily for 7 days." + _NEO),
    (INFECTED, "diagnosis_assessed",
     "R ear canal eczema only, no infection. Start Ciprodex 4 drops R ear BID x 7 days." +
     _NEO + _ABX),
    # Review finding 2: the dry canal called infected.
    (None, "diagnosis_assessed", "Infected eczema of the right ear canal." + _PLAN),
    # Review finding 3: non-beta-lactam oral antibiotics added beside 'No cephalexin'.
    (None, "oral_antibiotics_avoided", "R ear canal eczema, not infected." + _PLAN +
     " Also levofloxacin 500 mg daily for 7 days."),
    (INFECTED, "oral_antibiotics_avoided", _AOE + " No cephalexin. Add clindamycin 300 mg three "
     "times daily for 7 days."),
    (INFECTED, "oral_antibiotics_avoided", _AOE + " No cephalexin. Add Bactrim DS one tablet "
     "twice daily."),
    # Review finding 4 (schedule only): Ciprodex every 2 hours.
    (INFECTED, "topical_plan_documented", "Acute otitis externa on R canal dermatitis. Start "
     "Ciprodex 15 drops right ear every 2 hours for 7 days." + _NEO + _ABX),
    # Review finding 5: a susceptibility sentence beside a steroid-only plan.
    (INFECTED, "topical_plan_documented", "Acute otitis externa (Pseudomonas) on right canal "
     "dermatitis.\nStart fluocinolone oil 5 drops twice daily for 14 days. Ciprofloxacin-"
     "sensitive on culture.\nAvoid Cortisporin (neomycin allergy). No oral antibiotics."),
    # Review finding 6: aminoglycoside drops cross-react with neomycin.
    (None, "neomycin_avoided", "R ear canal eczema, not infected." + _PLAN + " Gentamicin drops "
     "are a fine backup if this fails."),
    (INFECTED, "neomycin_avoided", _AOE + " Tobramycin-dexamethasone drops are an acceptable "
     "backup." + _ABX),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (INFECTED, INFECTED_B), [None, INFECTED]))


# Must-nots of the canonical case: an allowance appended to the reference note must fail a note
# checkpoint; a turn-down must not (the task's rows for tests/test_must_nots.py).
ALLOWANCES = [
    ("neomycin drops", "Cortisporin drops are an acceptable backup if the fluocinolone is not "
                       "covered."),
    ("neomycin drops", "She may use neomycin-polymyxin B-hydrocortisone drops as needed for "
                       "flares."),
    ("oral antibiotic", "Cephalexin 500 mg four times daily could also be considered."),
    ("oral antibiotic", "An oral antibiotic is a reasonable alternative if she prefers pills."),
]
TURN_DOWN = ("No Cortisporin or other neomycin drops, and no oral antibiotics such as "
             "cephalexin.")


@pytest.mark.parametrize(("must_not", "sentence"), ALLOWANCES, ids=[s[:40] for _, s in ALLOWANCES])
def test_allowance_fails_a_note_checkpoint(must_not: str, sentence: str) -> None:
    verdicts = grade_note(TASK, oracle_note(TASK).rstrip() + "\n\n" + sentence + "\n")
    assert not all(verdicts.values()), (must_not, verdicts)


def test_turn_down_keeps_every_note_checkpoint() -> None:
    verdicts = grade_note(TASK, oracle_note(TASK).rstrip() + "\n\n" + TURN_DOWN + "\n")
    assert all(verdicts.values()), verdicts


@pytest.mark.xfail(strict=True, reason="reader gap: 'it' in an ear-care line ('Keep it dry.') is "
                   "resolved to the antibiotic named in the line before, so the note reads as "
                   "continuing antibiotics")
def test_ear_care_pronoun_after_antibiotic_line() -> None:
    note = ("Right ear canal eczema, not infected. Start fluocinolone 0.01% oil 5 drops R ear BID "
            "x "
            "14 days. Stop Cortisporin (neomycin allergy). No oral antibiotics. Keep it dry.")
    assert all(grade_note(TASK, note).values())


# Reader probes; the strict xfails are open reader gaps, so a fix shows up.
def test_a_course_outside_7_to_14_days_fails() -> None:
    """The course length is graded (`course`): six weeks fails, ten days passes."""
    assert "7 days" in _AOE
    assert not grade_note(TASK, _AOE.replace("7 days", "6 weeks") + _ABX,
                          INFECTED)["topical_plan_documented"]
    assert grade_note(TASK, _AOE.replace("7 days", "10 days") + _ABX,
                      INFECTED)["topical_plan_documented"]


@pytest.mark.xfail(strict=True, reason="reader gap: a route adjective before the drug ('oral "
                   "hydrocortisone') is not read as the route; 'by mouth'/'PO' are (finding 8)")
def test_oral_hydrocortisone_is_not_an_ear_steroid() -> None:
    note = "R ear canal eczema, not infected. Start oral hydrocortisone 20 mg daily for 2 weeks."
    assert not grade_note(TASK, note)["topical_plan_documented"]


def test_do_not_extend_then_stop_after_a_dash() -> None:
    note = ("R ear canal eczema, not infected. Start fluocinolone 0.01% oil 5 drops R ear BID x 14 "
            "days. Please do not extend the Cortisporin - stop it and avoid any neomycin product "
            "from now on." + _ABX)
    assert grade_note(TASK, note)["neomycin_avoided"]


@pytest.mark.xfail(strict=True, reason="reader gap: 'No oral antibiotics unless it spreads beyond "
                   "the canal' (an avoid with an exception) is not read as a committed avoid")
def test_no_oral_antibiotics_unless_spread() -> None:
    note = _AOE + " No oral antibiotics unless it spreads beyond the canal."
    assert grade_note(TASK, note, INFECTED)["oral_antibiotics_avoided"]
