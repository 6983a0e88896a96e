"""neuroendocrine_tumor_workup: flushing with a raised chromogranin A on omeprazole.

The canonical instance is the carcinoid scenario (5-HIAA 72 mg/24 h on a restricted diet); variant 3
is the diet scenario (5-HIAA 16.4 mg/24 h collected on bananas and walnuts) and variant 0 the
ppi_only scenario (5-HIAA 5.2 mg/24 h, chromogranin A 198 ng/mL from the PPI).
"""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "neuroendocrine_tumor_workup"
DIET, PPI = 3, 0


def test_canonical_values():
    vals = values(TASK)
    assert vals["scenario"]["name"] == "carcinoid"
    assert (vals["hiaa"], vals["cga"]) == (72, 518)


def test_branch_values():
    diet, ppi = values(TASK, DIET), values(TASK, PPI)
    assert diet["scenario"]["name"] == "diet" and (diet["hiaa"], diet["cga"]) == (16.4, 157)
    assert ppi["scenario"]["name"] == "ppi_only" and (ppi["hiaa"], ppi["cga"]) == (5.2, 198)
    assert 14.9 < diet["hiaa"] < 2 * 14.9 and ppi["hiaa"] < 14.9


def test_oracle_notes_pass_every_branch():
    for variant in (None, DIET, PPI):
        verdicts = grade_note(TASK, oracle_note(TASK, variant), variant)
        assert verdicts and all(verdicts.values()), (variant, verdicts)


CORRECT = [
    """57F, flushing + diarrhea. U 5-HIAA 72 mg/24h (ref <15) on proper diet -> carcinoid syndrome.
    CgA 518 (partly PPI). Plan: order Ga-68 DOTATATE PET/CT, multiphasic CT abdomen/pelvis, and TTE
    for carcinoid heart disease. Refer to NET clinic.""",
    """| Test | Result |
|---|---|
| 24-h urine 5-HIAA | 72 mg/24 h ↑ |
| Chromogranin A | 518 ng/mL ↑ |

Assessment: carcinoid syndrome (serotonin-secreting NET, likely midgut).
Plan:
- Somatostatin receptor PET/CT (DOTATATE) ordered
- MRI abdomen with contrast ordered
- Echocardiogram ordered""",
]

WRONG = {
    "dismissed as diet artifact": (
        "5-HIAA 72 mg/24h, probably dietary interference. Repeat the 24-h urine 5-HIAA. No "
        "DOTATATE PET or CT for now.", "plan_documented"),
    "stale or wrong 5-HIAA value": (
        "5-HIAA 18 mg/24h: carcinoid syndrome. Order DOTATATE PET/CT, CT abdomen and an "
        "echocardiogram.", "biochemistry_interpreted"),
    "imaging hedged": (
        "5-HIAA 72 mg/24h: carcinoid syndrome. Could consider a DOTATATE PET/CT and CT abdomen "
        "later; echocardiogram.", "plan_documented"),
    "no echocardiogram": (
        "5-HIAA 72 mg/24h: carcinoid syndrome. Order DOTATATE PET/CT and CT abdomen.",
        "plan_documented"),
}


test_a_correct_plan_in_other_words_passes, test_a_wrong_plan_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG)


def test_diet_branch():
    good = """5-HIAA 16.4 mg/24 h, only mildly high, collected while eating bananas, walnuts and
    avocado: dietary interference, carcinoid syndrome not established. Repeat the 24-hour urine
    5-HIAA after 3 days of restricted diet. No DOTATATE PET or CT unless the repeat is elevated.
    Do not repeat chromogranin A on omeprazole."""
    assert all(grade_note(TASK, good, DIET).values())
    image_now = good.replace("No DOTATATE PET or CT unless the repeat is elevated.",
                             "Also order a DOTATATE PET/CT now.")
    assert not grade_note(TASK, image_now, DIET)["plan_documented"]
    cga = good.replace("Do not repeat chromogranin A on omeprazole.", "Repeat chromogranin A.")
    assert not grade_note(TASK, cga, DIET)["plan_documented"]


@pytest.mark.xfail(reason="reader: a verbless result line '5-HIAA 16.4 mg/24 h, ... collected "
                   "while eating ...' is read as a decision to order 5-HIAA", strict=True)
def test_diet_branch_without_a_repeat_fails():
    note = """5-HIAA 16.4 mg/24 h, only mildly high, collected while eating bananas, walnuts and
    avocado: dietary interference, carcinoid syndrome not established. No DOTATATE PET or CT unless
    the repeat is elevated. Do not repeat chromogranin A on omeprazole."""
    assert not grade_note(TASK, note, DIET)["plan_documented"]


def test_ppi_only_branch():
    good = """24-h urine 5-HIAA 5.2 mg/24 h, normal. Chromogranin A 198 ng/mL is PPI-induced
    (omeprazole). No carcinoid syndrome. No DOTATATE PET, CT or MRI. Do not repeat the chromogranin
    A. If diarrhea develops, repeat the 5-HIAA."""
    assert all(grade_note(TASK, good, PPI).values())
    pet = good.replace("No DOTATATE PET, CT or MRI.", "Order a DOTATATE PET/CT to be safe.")
    assert not grade_note(TASK, pet, PPI)["plan_documented"]
    hedged = good.replace("No DOTATATE PET, CT or MRI.", "A DOTATATE PET/CT could be considered.")
    assert not grade_note(TASK, hedged, PPI)["plan_documented"]
    stale = good.replace("5.2 mg/24 h", "9.8 mg/24 h")
    assert not grade_note(TASK, stale, PPI)["biochemistry_interpreted"]


# Review fixes (orders matched by code, not by the order's free text; SSTR tracer required).

def _orders(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


def _sr(code, system, category, display, note=""):
    from tests.tasks.helpers import service_request
    extra = {"note": note} if note else {}
    return service_request(code, system, category, display=display, **extra)


PET_ORDER = _sr("78815", "cpt", "imaging", "Ga-68 DOTATATE PET/CT skull base to mid-thigh")
CT_ORDER = _sr("74178", "cpt", "imaging", "Multiphasic CT abdomen and pelvis")
ECHO_ORDER = _sr("93306", "cpt", "imaging", "Transthoracic echocardiogram")


def test_carcinoid_correct_orders_pass():
    verdicts = _orders([PET_ORDER, CT_ORDER, ECHO_ORDER])
    assert verdicts["imaging_orders"] and verdicts["followup_orders"]


@pytest.mark.parametrize("pet", [
    _sr("78815", "cpt", "imaging", "FDG PET/CT skull base to mid-thigh"),
    _sr("78804", "cpt", "imaging", "In-111 pentetreotide (OctreoScan) SPECT"),
])
def test_carcinoid_wrong_functional_study_fails(pet):
    assert not _orders([pet, CT_ORDER, ECHO_ORDER])["imaging_orders"]


@pytest.mark.parametrize("ct", [
    _sr("74176", "cpt", "imaging", "CT abdomen and pelvis without contrast"),
    _sr("74150", "cpt", "imaging", "CT abdomen without contrast"),
])
def test_carcinoid_noncontrast_ct_fails(ct):
    assert not _orders([PET_ORDER, ct, ECHO_ORDER])["imaging_orders"]


def test_carcinoid_words_in_a_lab_note_are_no_orders():
    lab = _sr("1695-6", "loinc", "laboratory", "24-hour urine 5-HIAA",
              "Repeat before DOTATATE PET/CT, CT abdomen and echocardiogram are decided")
    verdicts = _orders([lab])
    assert not verdicts["imaging_orders"] and not verdicts["followup_orders"]


@pytest.mark.parametrize("note", ["Do not repeat chromogranin A.", "No CT abdomen now.",
                                  "Decide on SSTR PET after this result."])
def test_diet_repeat_5hiaa_with_declines_in_its_note_passes(note):
    verdicts = _orders([_sr("1695-6", "loinc", "laboratory", "24-hour urine 5-HIAA", note)], DIET)
    assert verdicts["imaging_orders"] and verdicts["followup_orders"], note


def test_ppi_only_5hiaa_note_naming_declined_tests_passes():
    lab = _sr("1695-6", "loinc", "laboratory", "24-hour urine 5-HIAA",
              "Only if diarrhea; no CT abdomen, no chromogranin A.")
    verdicts = _orders([lab], PPI)
    assert verdicts["imaging_orders"] and verdicts["followup_orders"]


# Review fixes in the note checkpoints; the corpus writer's declined OctreoScan/FDG-PET.

def test_declining_octreoscan_and_fdg_pet_is_no_contradiction():
    note = ("5-HIAA 72 mg/24 h: carcinoid syndrome. Order Ga-68 DOTATATE PET/CT, multiphasic CT "
            "abdomen/pelvis and a TTE. Please do not order an indium-111 octreotide scan or an "
            "FDG-PET.")
    assert all(grade_note(TASK, note).values())


@pytest.mark.parametrize("note", [
    "5-HIAA 72 mg/24 h: carcinoid syndrome. Order an In-111 pentetreotide scan (Octreoscan), "
    "multiphasic CT abdomen and a TTE.",
    "5-HIAA 72 mg/24 h: carcinoid syndrome. Order an FDG-PET/CT, multiphasic CT abdomen and a TTE.",
    "5-HIAA 72 mg/24 h: carcinoid syndrome. Order Ga-68 DOTATATE PET/CT, CT abdomen and pelvis "
    "without contrast and a TTE.",
])
def test_wrong_imaging_in_the_note_fails(note):
    assert not grade_note(TASK, note)["plan_documented"]


def test_carcinoid_dismissed_as_diet_fails():
    note = ("24-h urine 5-HIAA 72 mg/24 h, dietary interference likely; carcinoid syndrome "
            "possible.")
    assert not grade_note(TASK, note)["biochemistry_interpreted"]


@pytest.mark.parametrize("note", [
    "Chromogranin A 198 ng/mL is raised because of her long-term proton pump inhibitor.",
    "Omeprazole raises gastrin and with it chromogranin A, which explains the 198 ng/mL.",
])
def test_ppi_attribution_in_plain_words(note):
    full = ("24-h urine 5-HIAA 5.2 mg/24 h, normal. " + note + " No DOTATATE PET, CT or MRI. "
            "Do not repeat the chromogranin A.")
    assert grade_note(TASK, full, PPI)["biochemistry_interpreted"], note


def test_diet_attribution_to_named_serotonin_foods():
    note = ("Her 24-h urine 5-HIAA of 16.4 mg/24 h was collected while she ate foods that contain "
            "serotonin (bananas, walnuts, avocado), so the mild rise is not interpretable.")
    assert grade_note(TASK, note, DIET)["biochemistry_interpreted"]


@pytest.mark.parametrize("variant,note", [
    (PPI, "24-h urine 5-HIAA 5.2 mg/24 h; chromogranin A 198 ng/mL PPI-induced."),
    (DIET, "5-HIAA 16.4 mg/24 h reflects dietary interference. Repeat the 24-h urine 5-HIAA after "
           "3 days of restricted diet. No DOTATATE PET or CT unless the repeat is elevated."),
])
def test_a_note_silent_on_imaging_and_cga_fails(variant, note):
    assert not grade_note(TASK, note, variant)["plan_documented"]


def test_diet_cga_contingent_on_the_repeat_5hiaa_fails():
    note = ("5-HIAA 16.4 mg/24 h: dietary interference. Repeat the 24-hour urine 5-HIAA after 3 "
            "days of restricted diet. No DOTATATE PET or CT unless the repeat is elevated. If the "
            "repeat 5-HIAA is high, repeat chromogranin A.")
    assert not grade_note(TASK, note, DIET)["plan_documented"]


def test_stuffed_5hiaa_values_fail():
    note = ("24-h urine 5-HIAA 72 mg/24 h, 18 mg/24 h, 5.2 mg/24 h. Carcinoid syndrome. Order "
            "Ga-68 DOTATATE PET/CT, multiphasic CT abdomen and a TTE.")
    assert not grade_note(TASK, note)["biochemistry_interpreted"]


# review 4: the value in SI units ('376 umol/24 h' is 72 mg/24 h)
@pytest.mark.parametrize("unit", ["µmol/24 h", "umol/24 h", "umol/day"])
def test_5hiaa_in_si_units_passes(unit):
    note = oracle_note(TASK).replace("72 mg/24 h", f"376 {unit}")
    assert grade_note(TASK, note)["biochemistry_interpreted"]


# review 2: the opposite conclusion fails in the diet and PPI branches too
@pytest.mark.parametrize(("variant", "reading"), [
    (3, "Urine 5-HIAA 16.4 mg/24 h, eaten with bananas and walnuts; this is carcinoid syndrome."),
    (0, "Urine 5-HIAA 5.2 mg/24 h; chromogranin A raised by omeprazole, but this is carcinoid "
        "syndrome."),
])
def test_carcinoid_syndrome_called_in_the_other_branches_fails(variant, reading):
    assert not grade_note(TASK, reading, variant)["biochemistry_interpreted"]


@pytest.mark.parametrize(("variant", "reading"), [
    (3, "Urine 5-HIAA 16.4 mg/24 h, raised by dietary interference (bananas and walnuts); "
        "carcinoid syndrome is not established."),
    (0, "Urine 5-HIAA 5.2 mg/24 h; chromogranin A raised by omeprazole; carcinoid syndrome is not "
        "established."),
])
def test_carcinoid_syndrome_not_established_passes_in_the_other_branches(variant, reading):
    assert grade_note(TASK, reading, variant)["biochemistry_interpreted"]


# review 5: 'the repeat' is the 5-HIAA just ordered again, a trigger for imaging
@pytest.mark.parametrize("step", [
    "2. If the repeat is above 25 mg/24 h, order a Ga-68 DOTATATE PET/CT; no imaging now.",
    "2. No DOTATATE PET or CT unless the repeat is elevated.",
])
def test_imaging_on_the_repeat_passes(step):
    note = oracle_note(TASK, 3)
    old = "2. No DOTATATE PET, CT or MRI now; image only if the repeat 5-HIAA is elevated."
    assert old in note
    assert grade_note(TASK, note.replace(old, step), 3)["plan_documented"]


def test_imaging_now_in_the_diet_branch_fails():
    note = oracle_note(TASK, 3).replace(
        "2. No DOTATATE PET, CT or MRI now; image only if the repeat 5-HIAA is elevated.",
        "2. Order a Ga-68 DOTATATE PET/CT now.")
    assert not grade_note(TASK, note, 3)["plan_documented"]
