"""aki_hypercalcemia_elderly: the derived corrected calcium, band and PTH picture, and the notes and
orders its checkpoints must judge on each branch (calcium-alkali, calcitriol, thiazide + PHPT)."""

from __future__ import annotations

import pytest

from tests.tasks.helpers import grade_note, note_probes, oracle_note, values

TASK = "aki_hypercalcemia_elderly"
PHPT_VARIANT, CALCITRIOL_VARIANT, MILD_VARIANT = 0, 1, 3   # seed 3: calcium-alkali, mild band


def test_canonical_values():
    vals = values(TASK)
    assert vals["profile"] == {"culprit": "calcium_alkali"}
    assert (vals["total_ca"], vals["albumin"], vals["corrected_ca"]) == (11.4, 2.9, 12.3)
    assert vals["ca_band"] == "moderate"
    assert (vals["creatinine"], vals["pth"], vals["pth_picture"]) == (2.1, 9, "PTH-independent")
    assert vals["strict_never"] == ["thiazide"]


def test_creatinine_stays_below_kdigo_stage_3():
    # Review finding 2: outpatient hydration is planned only below 3 x the 0.9 baseline.
    assert all(values(TASK, n)["creatinine"] < 2.7 for n in range(40))


def test_branches_move_the_answer():
    phpt, calcitriol, mild = (values(TASK, n) for n in (PHPT_VARIANT, CALCITRIOL_VARIANT,
                                                          MILD_VARIANT))
    assert phpt["profile"]["culprit"] == "thiazide_phpt" and phpt["pth"] == 91
    assert phpt["pth_picture"] == "PTH-dependent" and phpt["corrected_ca"] == 12.2
    assert phpt["creatinine"] == 2.0 and mild["creatinine"] == 2.3
    assert calcitriol["profile"]["culprit"] == "calcitriol" and calcitriol["pth"] == 12
    assert calcitriol["corrected_ca"] == 12.4 and calcitriol["creatinine"] == 2.3
    assert mild["profile"]["culprit"] == "calcium_alkali" and mild["ca_band"] == "mild"
    assert mild["corrected_ca"] == 11.2
    culprits = [values(TASK, n)["profile"]["culprit"] for n in range(20)]
    assert {c: culprits.count(c) for c in set(culprits)} == {
        "calcium_alkali": 6, "calcitriol": 9, "thiazide_phpt": 5}


def test_corrected_calcium_keeps_clear_of_the_band_edge():
    for n in range(40):
        corrected = values(TASK, n)["corrected_ca"]
        assert abs(corrected - 12.0) >= 0.1, (n, corrected)


CANON = """Assessment: moderate hypercalcemia,
corrected calcium 12.3 mg/dL (total 11.4, albumin 2.9),
with AKI, creatinine 2.1 (baseline 0.9).
PTH 9 pg/mL, suppressed: PTH-independent hypercalcemia due to
calcium-alkali syndrome from Tums, with HCTZ contributing.
Plan:
1. Stop hydrochlorothiazide.
2. Stop Tums and the calcium supplement.
3. Stop ibuprofen.
4. Hold lisinopril until creatinine returns to baseline.
5. Encourage oral fluids 2 L/day.
6. Recheck CMP in 5 days.
"""

CALCITRIOL = """Moderate hypercalcemia - corrected Ca 12.4 mg/dL; AKI with Cr 2.3 mg/dL.
PTH now 12 pg/mL and suppressed (the PTH of 88 two years ago was secondary hyperparathyroidism from
vitamin D deficiency). This is PTH-independent hypercalcemia caused by calcitriol from the outside
osteoporosis clinic, plus calcium carbonate.
Recommendations:
- Stop calcitriol.
- Stop calcium carbonate while calcium is high.
- Stop ibuprofen; acetaminophen for knee pain.
- Hold lisinopril until creatinine recovers, then resume.
- Push oral fluids, 2-2.5 L/day.
- BMP with albumin in 1 week.
"""

PHPT = """Moderate hypercalcemia: corrected calcium 12.2 mg/dL; AKI, creatinine 2.0 mg/dL.
PTH 91 pg/mL is inappropriately elevated for the calcium:
PTH-dependent hypercalcemia, likely primary
hyperparathyroidism unmasked by hydrochlorothiazide.
Plan:
1. Stop HCTZ permanently; amlodipine if BP rises.
2. Stop ibuprofen.
3. Hold lisinopril while AKI resolves.
4. Oral hydration, at least 2 L daily.
5. Check 25-OH vitamin D; refer to endocrinology.
6. Repeat BMP and albumin in 3-5 days.
"""

CORRECT = [
    (None, CANON),
    (None, """S: 81F, fatigue/constipation x2 wk.
O: Ca 11.4, alb 2.9 → corrected Ca 12.3 mg/dL (moderate hypercalcemia). Cr 2.1 ↑ from 0.9 (AKI).
HCO3 33. PTH 9 (suppressed).
A: PTH-independent hypercalcemia - milk-alkali syndrome (Tums 8-10/day) + HCTZ;
AKI prerenal + NSAID + ACEi.
P: d/c HCTZ. d/c Tums and calcium tabs. d/c ibuprofen. Hold lisinopril. IV NS 1 L today, then PO
fluids 2 L/d. Repeat CMP in 3 days."""),
    (None, """Mrs V has acute kidney injury: her creatinine is 2.1 mg/dL against a baseline of 0.9.
Her total calcium of 11.4 mg/dL, corrected for an albumin of 2.9 g/dL, is 12.3 mg/dL, which is
moderate hypercalcemia. Her PTH of 9 pg/mL is appropriately suppressed, so this is
PTH-independent hypercalcemia, caused by the large amount of calcium carbonate she takes as Tums
(milk-alkali syndrome), worsened by hydrochlorothiazide. I recommend that she stop
hydrochlorothiazide and the Tums and calcium tablets, stop ibuprofen, and hold lisinopril until
her kidney function recovers. She should drink 2 to 2.5 L of fluid a day.
I have ordered a CMP in one week, and PTHrP and vitamin D levels."""),
    (None, """| Lab | Value |
|---|---|
| Total Ca | 11.4 mg/dL |
| Albumin | 2.9 g/dL |
| Corrected Ca | 3.07 mmol/L |
| Creatinine | 2.1 mg/dL (baseline 0.9) |
Hypercalcemia is moderate and PTH-independent (PTH 9); calcium-alkali syndrome from Tums.
Plan: stop HCTZ; stop Tums; stop ibuprofen; hold lisinopril; encourage oral fluids; recheck calcium
and creatinine in 5-7 days. If the calcium normalizes, calcium carbonate can be resumed at 500 mg
daily."""),
    (MILD_VARIANT, CANON.replace("moderate", "mild").replace("12.3", "11.2")
     .replace("2.9),", "3.7),").replace("creatinine 2.1", "creatinine 2.3")
     .replace("PTH 9", "PTH 5")),
    (CALCITRIOL_VARIANT, CALCITRIOL),
    (CALCITRIOL_VARIANT, CALCITRIOL + "- If 25-OH vitamin D is low, start vitamin D3 1000 IU daily "
     "once calcium is normal.\n"),
    (PHPT_VARIANT, PHPT),
]

WRONG = [
    # the total calcium presented as the corrected value
    (None, "calcium_and_kidney_assessed",
     CANON.replace("corrected calcium 12.3 mg/dL (total 11.4, albumin 2.9)",
                   "corrected calcium 11.4 mg/dL")),
    (None, "calcium_and_kidney_assessed",
     CANON.replace("moderate hypercalcemia", "mild hypercalcemia")),
    # the baseline creatinine given as the current one
    (None, "calcium_and_kidney_assessed",
     CANON.replace("creatinine 2.1 (baseline 0.9)", "creatinine 0.9")),
    (None, "mechanism_identified", CANON.replace(
        "PTH 9 pg/mL, suppressed: PTH-independent hypercalcemia due to",
        "PTH-mediated hypercalcemia (primary hyperparathyroidism) with")),
    (None, "medication_plan_documented",
     CANON.replace("1. Stop hydrochlorothiazide.", "1. Continue hydrochlorothiazide.")),
    (None, "medication_plan_documented",
     CANON.replace("2. Stop Tums and the calcium supplement.",
                   "2. Continue Tums as needed for heartburn.")),
    (None, "medication_plan_documented", CANON.replace(
        "4. Hold lisinopril until creatinine returns to baseline.",
        "4. Continue lisinopril 20 mg daily.")),
    (None, "medication_plan_documented",
     CANON.replace("3. Stop ibuprofen.", "3. Ibuprofen is fine at 200 mg as needed.")),
    (None, "medication_plan_documented", CANON.replace(
        "1. Stop hydrochlorothiazide.",
        "1. Could consider stopping hydrochlorothiazide if calcium stays high.")),
    (None, "medication_plan_documented", CANON + "7. Resume HCTZ once creatinine normalizes.\n"),
    (None, "hydration_and_recheck_documented",
     CANON.replace("6. Recheck CMP in 5 days.", "6. Recheck CMP in 3 months.")),
    (None, "hydration_and_recheck_documented",
     CANON.replace("5. Encourage oral fluids 2 L/day.\n", "")),
    # calcitriol branch: continued, restarted, stale PTH read as PTH-dependent, calcium kept
    (CALCITRIOL_VARIANT, "medication_plan_documented",
     CALCITRIOL.replace("- Stop calcitriol.\n", "- Continue calcitriol 0.25 mcg daily.\n")),
    (CALCITRIOL_VARIANT, "medication_plan_documented",
     CALCITRIOL + "- Calcitriol may be restarted at 0.25 mcg once calcium normalizes.\n"),
    (CALCITRIOL_VARIANT, "medication_plan_documented",
     CALCITRIOL + "- Start vitamin D3 2000 IU daily.\n"),
    (CALCITRIOL_VARIANT, "medication_plan_documented",
     CALCITRIOL.replace("- Stop calcium carbonate while calcium is high.\n", "")),
    (CALCITRIOL_VARIANT, "mechanism_identified", CALCITRIOL.replace(
        "This is PTH-independent hypercalcemia caused by calcitriol",
        "PTH was elevated at 88, so this is PTH-dependent; calcitriol")),
    # PHPT branch: called drug-induced and PTH-independent
    (PHPT_VARIANT, "mechanism_identified", PHPT.replace(
        "PTH-dependent hypercalcemia, likely primary\n"
        "hyperparathyroidism unmasked by hydrochlorothiazide",
        "thiazide-induced hypercalcemia, PTH-independent")),
    (PHPT_VARIANT, "medication_plan_documented",
     PHPT.replace("1. Stop HCTZ permanently; amlodipine if BP rises.",
                  "1. Continue HCTZ 25 mg daily.")),
]


test_a_correct_note_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


def test_the_canonical_note_fails_the_other_branches():
    canonical = oracle_note(TASK)
    assert all(grade_note(TASK, canonical).values())
    assert not all(grade_note(TASK, canonical, CALCITRIOL_VARIANT).values())
    assert not all(grade_note(TASK, canonical, PHPT_VARIANT).values())


# ---- Orders: the work-up per branch and the culprits never prescribed. ----

def _oracle_actions(variant=None, drop_codes=(), extra=()):
    from tests.tasks.helpers import get_instance
    calls = []
    for call in get_instance(TASK, variant).oracle.calls:
        if call.tool == "fhir_service_request_create" and call.arguments.get("code") in drop_codes:
            continue
        calls.append({"tool": call.tool, "arguments": dict(call.arguments)})
    return calls + list(extra)


def _run(actions, variant=None):
    from tests.tasks.helpers_endocrinology import run_actions
    return run_actions(TASK, actions, variant)


def _lab(code, display):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": code, "system": "loinc", "display": display,
        "category": "laboratory"}}


def _lab_text(display):
    return {"tool": "fhir_service_request_create", "arguments": {
        "patient": "{patient_id}", "code": "SPEP", "system": "http://example.org/local-lab",
        "display": display,
        "category": "laboratory"}}


def _rx(code, mg, per_day):
    return {"tool": "fhir_medication_request_create", "arguments": {
        "patient": "{patient_id}", "medication_code": code, "dose_value": mg, "dose_unit": "mg",
        "route": "oral", "frequency": per_day, "period_unit": "day"}}


def test_workup_orders_per_branch():
    # calcium-alkali: a 1,25-dihydroxyvitamin D level stands in for the 25-OH level
    swapped = _oracle_actions(drop_codes=("1989-3",),
                              extra=[_lab("1649-3", "1,25-dihydroxyvitamin D")])
    assert _run(swapped)["workup_ordered"]
    assert not _run(_oracle_actions(drop_codes=("15087-0",)))["workup_ordered"]       # no PTHrP
    # review finding 3: a myeloma screen stands in for PTHrP as the malignancy screen
    spep = _lab_text("Serum protein electrophoresis with immunofixation")
    assert _run(_oracle_actions(drop_codes=("15087-0",), extra=[spep]))["workup_ordered"]
    # calcitriol: the 1,25-dihydroxyvitamin D level is accepted, not required; PTHrP or a
    # myeloma screen is
    assert _run(_oracle_actions(CALCITRIOL_VARIANT, drop_codes=("1649-3",)),
                CALCITRIOL_VARIANT)["workup_ordered"]
    assert not _run(_oracle_actions(CALCITRIOL_VARIANT, drop_codes=("15087-0",)),
                    CALCITRIOL_VARIANT)["workup_ordered"]
    # PHPT: the endocrinology referral is required; no recheck with albumin fails everywhere
    assert not _run(_oracle_actions(PHPT_VARIANT, drop_codes=("306118006",)),
                    PHPT_VARIANT)["workup_ordered"]
    bmp_only = _oracle_actions(drop_codes=("24323-8",),
                               extra=[_lab("51990-0", "Basic metabolic panel")])
    assert not _run(bmp_only)["workup_ordered"]
    bmp_albumin = bmp_only + [_lab("1751-7", "Albumin")]
    assert _run(bmp_albumin)["workup_ordered"]


def test_culprits_are_never_prescribed():
    assert _run(_oracle_actions())["medication_changes_sent"]
    assert not _run(_oracle_actions(extra=[_rx("310798", 25, 1)]))["medication_changes_sent"]
    assert not _run(_oracle_actions(extra=[_rx("310965", 400, 3)]))["medication_changes_sent"]


def test_the_message_names_every_culprit():
    calls = _oracle_actions()
    for call in calls:
        if call["tool"] == "fhir_communication_create_message":
            call["arguments"]["text"] = ("Corrected calcium 12.3 with AKI. Please stop "
                                         "hydrochlorothiazide and ibuprofen; hold lisinopril.")
    assert not _run(calls)["medication_changes_sent"]     # the Tums are not named


def test_harmful_cotreatments_are_never_prescribed():
    # Review finding 4: a bisphosphonate (zoledronic acid, RxNorm 1114085) or a loop diuretic
    assert not _run(_oracle_actions(extra=[_rx("1114085", 4, 1)]))["medication_changes_sent"]


def _with_message(text, variant=None):
    calls = _oracle_actions(variant)
    for call in calls:
        if call["tool"] == "fhir_communication_create_message":
            call["arguments"]["text"] = text
    return _run(calls, variant)["medication_changes_sent"]


def test_the_message_is_read_like_a_note():
    # Review finding 5: the message must stop the culprits and hold lisinopril, not keep them.
    assert _with_message("Please stop hydrochlorothiazide, the Tums and the calcium tablet, and "
                         "ibuprofen. Hold lisinopril until the creatinine recovers.")
    assert not _with_message("Please continue the Tums (calcium carbonate) as needed and keep "
                             "hydrochlorothiazide; ibuprofen is fine.")
    assert not _with_message("Stop hydrochlorothiazide, Tums and ibuprofen.")   # no lisinopril hold
    assert not _with_message("Stop hydrochlorothiazide, Tums and ibuprofen; hold lisinopril. "
                             "Naproxen 220 mg twice daily for the knee instead.")


# Review probes: each must fail its checkpoint (WRONG) or pass every note checkpoint (CORRECT).
REVIEW_WRONG = [
    # finding 2: a recheck in 2 weeks is too late for symptomatic moderate hypercalcemia with AKI
    (None, "hydration_and_recheck_documented", CANON.replace("in 5 days", "in 2 weeks")),
    # finding 4: bisphosphonates, loop diuretics
    (None, "medication_plan_documented",
     CANON + "7. Zoledronic acid 4 mg IV today to bring the calcium down.\n"),
    (None, "medication_plan_documented", CANON + "7. Pamidronate 60 mg IV once.\n"),
    (None, "medication_plan_documented",
     CANON + "7. Start furosemide 20 mg daily to promote calcium excretion.\n"),
    (CALCITRIOL_VARIANT, "medication_plan_documented",
     CALCITRIOL + "- Zoledronic acid 5 mg IV for osteoporosis now.\n"),
    (CALCITRIOL_VARIANT, "medication_plan_documented",
     CALCITRIOL + "- Start alendronate 70 mg weekly for osteoporosis instead of calcitriol.\n"),
    # finding 6: cause stuffing
    (None, "mechanism_identified", CANON.replace(
        "calcium-alkali syndrome from Tums, with HCTZ contributing.",
        "calcium-alkali syndrome, vitamin D toxicity, calcitriol, thiazide, malignancy or "
        "sarcoidosis.")),
    (PHPT_VARIANT, "mechanism_identified", PHPT.replace(
        "likely primary\nhyperparathyroidism unmasked by hydrochlorothiazide",
        "due to primary hyperparathyroidism, milk-alkali syndrome, vitamin D toxicity or "
        "malignancy")),
    # finding 9: an ARB swapped in during the AKI
    (None, "medication_plan_documented", CANON + "7. Switch lisinopril to losartan 50 mg daily.\n"),
    # finding 12: PTH-dependent but called purely drug-induced
    (PHPT_VARIANT, "mechanism_identified", PHPT.replace(
        "PTH-dependent hypercalcemia, likely primary\n"
        "hyperparathyroidism unmasked by hydrochlorothiazide",
        "PTH-dependent; hypercalcemia caused by hydrochlorothiazide")),
    (PHPT_VARIANT, "medication_plan_documented",
     PHPT + "7. Restart HCTZ 12.5 mg daily next week.\n"),
]

REVIEW_CORRECT = [
    # finding 4: a bisphosphonate turned down; a loop diuretic only for overload after saline;
    # osteoporosis therapy once the kidney function has recovered
    (None, CANON + "7. A bisphosphonate is not needed and I do not recommend one here.\n"),
    (None, CANON + "7. Furosemide only if she becomes fluid overloaded after IV saline.\n"),
    (CALCITRIOL_VARIANT, CALCITRIOL + "- Once the creatinine is back to baseline, "
     "alendronate 70 mg weekly can be considered for osteoporosis.\n"),
    # finding 6: a competing cause denied
    (None, CANON.replace("with HCTZ contributing.",
                         "with HCTZ contributing; no vitamin D intake, so not vitamin D "
                         "toxicity.")),
    # finding 7: the PTH picture in other words
    (None, CANON.replace("PTH 9 pg/mL, suppressed: PTH-independent hypercalcemia due to",
                         "The PTH of 9 pg/mL is appropriately low, so this is not "
                         "parathyroid-driven;")),
    (None, CANON.replace("PTH 9 pg/mL, suppressed: PTH-independent hypercalcemia due to",
                         "PTH 9 pg/mL is appropriately low; the cause is")),
    # finding 9: an ARB as a later option once the kidney has recovered
    (None, CANON + "7. If the creatinine returns to baseline, restart lisinopril or switch to "
     "losartan 50 mg daily.\n"),
    # finding 11: a thiazide after a cure of the hyperparathyroidism
    (PHPT_VARIANT, PHPT + "7. If she is cured by parathyroidectomy, HCTZ may be restarted.\n"),
]


@pytest.mark.parametrize(("variant", "target", "note"), REVIEW_WRONG)
def test_review_probe_fails_its_checkpoint(variant, target, note):
    assert grade_note(TASK, note, variant)[target] is False


@pytest.mark.parametrize(("variant", "note"), REVIEW_CORRECT)
def test_review_probe_passes(variant, note):
    verdicts = grade_note(TASK, note, variant)
    assert all(verdicts.values()), verdicts


RECHECK_LINE = ("7. Recheck CMP (calcium, albumin, creatinine) in 5 days; ED if confusion, "
                "vomiting or calcium above 14 mg/dL.")


@pytest.mark.parametrize(("recheck", "passed"), [
    ("7. Recheck CMP in 48 hours.", True),
    ("7. Recheck BMP tomorrow.", True),
    ("7. Recheck BMP in 48-72 hours.", True),
    ("7. Recheck BMP daily while admitted.", True),
    ("7. Recheck CMP in 2 weeks.", False),
])
def test_recheck_timings(recheck, passed):
    note = oracle_note(TASK)
    assert RECHECK_LINE in note
    verdicts = grade_note(TASK, note.replace(RECHECK_LINE, recheck))
    assert verdicts["hydration_and_recheck_documented"] is passed


@pytest.mark.parametrize("stuffed", [
    "Labs: corrected calcium 11.4 mg/dL, corrected calcium 12.3 mg/dL, corrected calcium "
    "13.2 mg/dL.",
    "Current creatinine 0.9 mg/dL.",
])
def test_stuffed_values_fail(stuffed):
    verdicts = grade_note(TASK, oracle_note(TASK) + "\n\n" + stuffed + "\n")
    assert verdicts["calcium_and_kidney_assessed"] is False
