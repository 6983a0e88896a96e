"""prostate_cancer_pretransplant: the scenario and PSA draws, and the note phrasings its
checkpoints must judge on each branch (stable -> list now; rising -> MRI first, listing deferred;
upgraded -> staging and definitive treatment, listing deferred)."""

from __future__ import annotations

import pytest

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance
from tests.tasks.helpers import (
    branch_probes,
    grade_note,
    note_probes,
    values,
)

TASK = "prostate_cancer_pretransplant"
UPGRADED = 0     # Grade Group 3 on the targeted biopsy 4 weeks ago, PSA 8.9
RISING = 1       # PSA 5.7 -> 7.3 -> 9.1 since the last MRI and biopsy
STABLE_V = 4     # stable, PSA 5.7 (the 3-year run stays 5.2-6.1)


def test_canonical_values():
    vals = values(TASK)
    assert vals["kind"] == "stable"
    assert vals["psa_now"] == 6.3 and vals["psa_prior"] == 6.1
    assert vals["psa_density"] == 0.12          # 6.3 ng/mL / 53 mL
    assert vals["psa_range_high"] == 6.3
    assert vals["risk_level"] == ["level_low"]
    assert vals["risk_others"] == ["level_intermediate", "level_high", "nccn_very_low_risk",
                                   "nccn_favorable_intermediate", "nccn_unfavorable_intermediate"]
    assert vals["trend_concept"] == ["psa_stable", "stability"]
    assert vals["listing_concept"] == ["transplant_listing_cleared"]
    assert vals["psa_due"] == "2026-11-30"      # 182 days after 2026-06-01


def test_branches_draw_their_scenarios():
    up, rising, stable = values(TASK, UPGRADED), values(TASK, RISING), values(TASK, STABLE_V)
    assert up["kind"] == "upgraded"
    assert up["risk_level"] == ["nccn_unfavorable_intermediate", "level_intermediate"]
    assert "nccn_favorable_intermediate" in up["risk_others"]
    assert up["psa_value_required"] is False
    assert up["listing_concept"] == ["transplant_listing_deferred"]
    assert rising["kind"] == "rising" and rising["risk_level"] == ["level_low"]
    assert rising["trend_concept"] == ["psa_rise", "psa_rise_sustained"]
    assert 8.4 <= rising["psa_now"] < 10
    assert stable["kind"] == "stable" and stable["psa_now"] != 6.3
    assert stable["psa_range_high"] == 6.1          # 5.7 now, inside his 5.2-6.1 run
    kinds = [values(TASK, n)["kind"] for n in range(20)]
    # the stable PSA never tops the 3-year run by more than 0.3 ng/mL (review finding 7)
    assert all(values(TASK, n)["psa_now"] <= 6.4 for n in range(20) if kinds[n] == "stable")
    assert {kind: kinds.count(kind) for kind in set(kinds)} == {
        "stable": 7, "rising": 8, "upgraded": 5}


CORRECT = [
    (None, "67M ESKD on HD, transplant eval. Prostate ca GG1 (3+3), cT1c, dx 3 y ago.\n"
           "Latest PSA 6.3 ng/mL; PSA stable (5.2-6.3 x3 yrs), PSAD 0.12. MRI 9 mo ago stable "
           "PI-RADS 4, bx 8 mo ago GG1 1/14.\nA: NCCN low-risk prostate cancer on AS.\n"
           "P: OK to list now from a prostate standpoint. Continue active surveillance w/ urology "
           "- PSA q6mo (ordered), MRI/bx per protocol. No staging imaging."),
    (None, "Dear colleague,\n\nHis most recent PSA is 6.3 ng/mL. Although it is flagged high, "
           "his PSA has been stable between 5.2 and 6.3 ng/mL through three years of active "
           "surveillance, and the MRI 9 months ago and the biopsy 8 months ago showed no "
           "progression. He has low-risk prostate cancer by NCCN criteria (Grade Group 1, cT1c, "
           "PSA under 10).\n\nIn my opinion he is an acceptable transplant candidate from a "
           "prostate cancer standpoint and can be listed now; there is no need to delay listing. "
           "He should continue active surveillance with urology before and after transplant. A "
           "bone scan or PSMA PET is not indicated for low-risk disease.\n"),
    (None, "| Item | Finding |\n|---|---|\n| Latest PSA | 6.3 ng/mL (5 days ago) |\n"
           "| PSA trend | stable PSA, 5.2–6.3 ng/mL over 3 y |\n| NCCN risk group | low |\n\n"
           "**Recommendation:** cleared for transplant listing. Continue active surveillance (PSA "
           "q6 mo, MRI ≥12 mo apart). No PSMA PET or bone scan."),
    (None, "Summary: NCCN low risk prostate adenocarcinoma managed with active surveillance. The "
           "latest PSA is 6.3 ng/mL, higher than the lab cut-off of 4, but the PSA has been "
           "stable for three years. The PSA of 11.8 six years ago was during prostatitis.\n"
           "Recommendations:\n1. He may be listed for kidney transplant now.\n2. Continue active "
           "surveillance with urology, including after transplant.\n3. Staging imaging is not "
           "recommended.\n4. If his PSA rises on repeat testing, obtain a prostate MRI before "
           "transplant.\nDisclaimer: e-consult based on chart review."),
    (STABLE_V, "Latest PSA 5.7 ng/mL, PSA has been stable. Low-risk prostate cancer (NCCN). No "
               "contraindication to listing from an oncology standpoint. Continue active "
               "surveillance."),
    (RISING, "Latest PSA 9.1 ng/mL; PSA rising (5.7 -> 7.3 -> 9.1 over 12 mo). GG1 cT1c, NCCN "
             "low risk on current pathology but possible reclassification.\nPlan: repeat "
             "multiparametric prostate MRI (ordered); targeted biopsy if it shows progression. "
             "Defer listing until MRI/biopsy done. No staging imaging now."),
    (RISING, "PSA has risen from 7.3 to 9.1 ng/mL. Prostate cancer is NCCN low risk on the last "
             "biopsy. Order prostate MRI. Hold off on listing until the MRI is reviewed."),
    (RISING, "Latest PSA 9.1 ng/mL - rising PSA. Low-risk prostate cancer (GG1) by NCCN at "
             "present.\nRecommendations:\n1. Prostate MRI (ordered).\n2. Not yet cleared for "
             "listing; I will update the transplant team once the MRI is done."),
    (UPGRADED, "Latest PSA 8.9 ng/mL, rising PSA. Targeted biopsy 4 wk ago: Gleason 4+3 (GG3). "
               "NCCN unfavorable intermediate risk prostate cancer.\nPlan: PSMA PET for staging "
               "(ordered). Refer to radiation oncology for EBRT + 4-6 mo ADT vs radical "
               "prostatectomy with urology. Not a candidate for active surveillance anymore. "
               "Defer transplant listing until after definitive treatment."),
    # the trend word in a clause that names the PSA (review finding 1)
    (None, "The PSA of 6.3 ng/mL is stable. NCCN low-risk prostate cancer. He may be listed now. "
           "Continue active surveillance."),
    (None, "Latest PSA 6.3 ng/mL; no sustained PSA rise. NCCN low-risk prostate cancer. OK to list "
           "now. Continue active surveillance."),
    # surveillance continued by ordering its next PSA; the listing phrasings of finding 5
    (None, "Latest PSA 6.3 ng/mL, stable PSA. NCCN low-risk prostate cancer. Kidney transplant "
           "listing: cleared now. I ordered his next surveillance PSA for 6 months from now."),
    (None, "Latest PSA 6.3 ng/mL, stable PSA. NCCN low-risk prostate cancer. His prostate cancer "
           "is not a barrier to transplant listing. Continue active surveillance."),
    (UPGRADED, "The PSA rose from 5.7 to 8.3 before the biopsy: rising PSA. NCCN unfavorable "
               "intermediate risk (GG3). PSMA PET ordered. Refer to radiation oncology for EBRT "
               "with 4-6 months of ADT. Hold transplant listing until treatment is complete."),
    (UPGRADED, "Latest PSA 8.9 ng/mL, rising PSA. UIR prostate cancer. PSMA PET ordered. Refer for "
               "radical prostatectomy. He is not a candidate for listing until he has completed "
               "definitive treatment."),
    (UPGRADED, "His prostate cancer has been upgraded from low risk to unfavorable intermediate "
               "risk (Gleason 4+3=7). The latest PSA is 8.9 ng/mL and the PSA has been rising.\n"
               "I ordered a PSMA PET/CT and referred him for radiation therapy. He should not be "
               "listed now; he can be listed after definitive treatment."),
]

WRONG = [
    # stable: the trend, the value, the group and the listing
    (None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, PSA rising. NCCN low risk prostate "
     "cancer. Can be listed now. Continue active surveillance."),
    (None, "psa_trend_assessed", "Latest PSA 11.8 ng/mL, stable PSA. NCCN low risk prostate "
     "cancer. Can be listed now. Continue active surveillance."),
    (None, "psa_trend_assessed", "PSA 7.3 ng/mL, stable PSA. Low-risk prostate cancer. He can be "
     "listed now. Continue active surveillance."),
    (None, "risk_group_assigned", "Latest PSA 6.3 ng/mL, PSA stable. NCCN intermediate risk "
     "prostate cancer. Can be listed now. Continue active surveillance."),
    (None, "listing_decision_documented", "Latest PSA 6.3 ng/mL, PSA stable. NCCN low-risk "
     "prostate cancer. Defer listing until a repeat MRI. Continue active surveillance."),
    (None, "listing_decision_documented", "Latest PSA 6.3 ng/mL, PSA stable. NCCN low-risk "
     "prostate cancer. Listing on hold until repeat MRI. Continue active surveillance."),
    (None, "listing_decision_documented", "PSA 6.3 ng/mL, stable PSA. Low-risk prostate cancer. "
     "He can be listed now. Stop active surveillance and refer for radical prostatectomy."),
    # rising: listed anyway, the trend missed, over-called risk
    (RISING, "listing_decision_documented", "Latest PSA 9.1 ng/mL, PSA rising. NCCN low-risk "
     "prostate cancer. Order prostate MRI. He can be listed now."),
    (RISING, "listing_decision_documented", "PSA 9.1 ng/mL, rising PSA. Low-risk prostate "
     "cancer. Order prostate MRI. No need to delay listing."),
    (RISING, "psa_trend_assessed", "Latest PSA 9.1 ng/mL, PSA stable. NCCN low-risk prostate "
     "cancer. Order prostate MRI. Defer listing until the MRI."),
    (RISING, "risk_group_assigned", "PSA 9.1 ng/mL, rising PSA. High-risk prostate cancer. Order "
     "prostate MRI. Defer listing."),
    # upgraded: listed now, surveillance kept, under-called risk
    (UPGRADED, "listing_decision_documented", "Latest PSA 8.9 ng/mL, PSA rising. NCCN "
     "unfavorable intermediate risk. Refer for radiation. He can be listed now."),
    (UPGRADED, "listing_decision_documented", "Latest PSA 8.9 ng/mL, PSA rising. NCCN "
     "unfavorable intermediate risk prostate cancer. Refer for radiation. Continue active "
     "surveillance. Defer listing."),
    (UPGRADED, "risk_group_assigned", "Latest PSA 8.9 ng/mL, PSA rising. NCCN low-risk prostate "
     "cancer. Refer for radiation. Defer listing until after treatment."),
    # review finding 2: Grade Group 3 is unfavorable, not favorable, intermediate risk
    (UPGRADED, "risk_group_assigned", "Latest PSA 8.9 ng/mL, PSA rising. NCCN favorable "
     "intermediate risk prostate cancer (GG3). Refer to radiation oncology. Defer listing until "
     "after treatment."),
    (UPGRADED, "risk_group_assigned", "Latest PSA 8.9 ng/mL, PSA rising. NCCN favorable "
     "intermediate risk. Refer to radiation oncology. Defer listing until after treatment."),
    # review finding 14: 3 positive cores at diagnosis are not very low risk
    (None, "risk_group_assigned", "Latest PSA 6.3 ng/mL, PSA stable. Risk group: NCCN very low "
     "risk (cT1c, GG1, PSA < 10). Can be listed now. Continue active surveillance."),
    # review finding 1: a PSA kinetic is not the PSA
    (RISING, "psa_trend_assessed", "PSA velocity about 3.4 ng/mL/year, rising PSA. NCCN low-risk "
     "prostate cancer. Order prostate MRI. Defer listing until the MRI."),
    # review finding 8: a repeat biopsy 8 months after the last, or surveillance stopped
    (None, "listing_decision_documented", "Latest PSA 6.3 ng/mL, stable PSA. NCCN low-risk "
     "prostate cancer. He can be listed now. Repeat prostate biopsy now before transplant. "
     "Continue active surveillance."),
    (None, "listing_decision_documented", "Latest PSA 6.3 ng/mL, stable PSA. NCCN low-risk "
     "prostate cancer. He can be listed now; I ordered a PSA in 6 months. Once transplanted, "
     "prostate surveillance can be discontinued."),
    (UPGRADED, "listing_decision_documented", "Latest PSA 8.9 ng/mL, rising PSA. NCCN unfavorable "
     "intermediate risk. Refer to radiation oncology. Defer listing until after treatment. Repeat "
     "the prostate biopsy to confirm the grade."),
    # review finding 10: ADT alone is not definitive treatment
    (UPGRADED, "listing_decision_documented", "Latest PSA 8.9 ng/mL, rising PSA. NCCN unfavorable "
     "intermediate risk. Start ADT with leuprolide alone. Defer listing until after treatment."),
]


test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))


test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (UPGRADED, RISING, STABLE_V), [None, RISING, UPGRADED]))


@pytest.mark.parametrize(("variant", "checkpoint", "note", "passed"), [
    # the PSA trend phrase states the PSA value too
    (RISING, "psa_trend_assessed", "The PSA has risen to 9.1 ng/mL.", True),
    (RISING, "psa_trend_assessed", "Rising PSA (7.3 ng/mL six months ago).", False),
    # the earlier group named in a reclassification is not the current one
    (UPGRADED, "risk_group_assigned", "Prostate cancer upgraded from low risk to unfavorable "
     "intermediate risk.", True),
    # a listing conditional on the MRI is not a listing now
    (RISING, "listing_decision_documented", "Order a prostate MRI. Listing is deferred until the "
     "MRI is reviewed. If he remains low risk he can be listed.", True),
])
def test_reader_probes(variant, checkpoint, note, passed):
    assert grade_note(TASK, note, variant)[checkpoint] is passed


def grade_without_orders(note: str, variant: int | None) -> dict[str, bool]:
    """Every checkpoint's verdict for ``note`` with no orders placed (the note side of the
    mixed order-and-note checkpoints: a must-not order passes, so the note decides)."""
    instance = get_instance(TASK, variant)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    return {c.id: c.grader.check(ctx).passed for c in instance_checkpoints(TASK, variant)}


@pytest.mark.parametrize(("variant", "note", "passed"), [
    # review finding 4: 'before listing / before transplant' is no trigger for staging imaging
    (None, "Recommend a PSMA PET to complete staging before transplant.", False),
    (None, "Please obtain a bone scan before listing.", False),
    (None, "Complete a staging PSMA PET before transplant surgery.", False),
    (None, "Obtain a PSMA PET to stage his prostate cancer before listing.", False),
    (None, "No staging imaging (no PSMA PET, bone scan or CT) - not indicated for low risk.", True),
    (None, "No PSMA PET or bone scan. Re-stage with PSMA PET if the PSA rises on repeat testing.",
     True),
    (RISING, "No staging imaging now; PSMA PET if the repeat prostate MRI shows progression or "
     "the biopsy shows Grade Group 3.", True),
    # reader gaps (reported): a plan verb it does not know, a verbless line, 'before listing'
    # beside another concept of the trigger list, a bare 'MRI' / 'biopsy' in the trigger
    pytest.param(None, "A PSMA PET should be done prior to listing.", False,
                 marks=pytest.mark.xfail(strict=True, reason="reader: 'should be done' plans")),
    pytest.param(RISING, "Staging bone scan prior to transplant.", False,
                 marks=pytest.mark.xfail(strict=True, reason="reader: verbless plan line")),
    pytest.param(RISING, "Order prostate MRI and a PSMA PET before listing.", False,
                 marks=pytest.mark.xfail(strict=True, reason="reader: 'before X' is timing, not "
                                         "a trigger naming the MRI")),
    pytest.param(None, "No staging imaging. If the MRI or biopsy shows higher-grade disease, "
                 "obtain a PSMA PET.", True,
                 marks=pytest.mark.xfail(strict=True, reason="lexicon: bare 'MRI' / 'biopsy' / "
                                         "'higher-grade disease' in a trigger")),
])
def test_staging_must_not_in_the_note(variant, note, passed):
    assert grade_without_orders(note, variant)["staging_imaging_appropriate"] is passed


def _gap(variant, checkpoint, note, passed, reason):
    return pytest.param(variant, checkpoint, note, passed,
                        marks=pytest.mark.xfail(strict=True, reason=f"reader gap: {reason}"))


@pytest.mark.parametrize(("variant", "checkpoint", "note", "passed"), [
    # review finding 16 and the dev corpus: shared reader/lexicon gaps, reported for the engine
    _gap(None, "psa_trend_assessed", "PSA 6.3 ng/mL - his baseline; no sustained rise.", True,
         "no shared trend words: 'baseline', 'flat', 'unchanged', 'usual range', bare 'rise'"),
    _gap(None, "psa_trend_assessed", "PSA 6.3 ng/mL, essentially flat over 3 years.", True,
         "no shared trend words: 'flat'"),
    _gap(RISING, "psa_trend_assessed", "PSA 9.1 ng/mL, up from 7.3 six months ago and 5.7 a year "
         "ago.", True, "no shared trend words: 'up from', 'rising', 'climb'"),
    _gap(RISING, "psa_trend_assessed", "Latest PSA 9.1 ng/mL, rising (5.7 -> 7.3 -> 9.1).", True,
         "no shared trend words: 'rising'"),
    # 'at dx' dates a value; '3 positive cores' after a label in an aside is no PSA
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, stable. PSA 5.4 at dx.", True),
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, stable. NCCN low risk: PSA < "
                 "10 (not very low risk: 3 positive cores).", True),
    # a sustained PSA rise is the surveillance trigger in the stable branch, the rise itself in
    # the rising branch (dev c07); the stated rise still fails the stable branch
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, PSA stable. I'd want to hear "
                 "about a sustained PSA rise or Grade Group >= 2 on biopsy.", True),
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, the PSA is rising. I'd want "
                 "to hear about a sustained PSA rise.", False),
    pytest.param(RISING, "psa_trend_assessed", "Latest PSA 9.1 ng/mL: a sustained PSA rise on two "
                 "draws since the last MRI.", True),
    pytest.param(RISING, "psa_trend_assessed", "Latest PSA 9.1 ng/mL, PSA stable. Re-evaluate if "
                 "a sustained PSA rise develops.", False),
    # a PSA held in its range over the years is stable (dev c02); an earlier range beside a
    # stated rise is no stable PSA now
    pytest.param(None, "psa_trend_assessed", "The PSA of 6.3 ng/mL is above the cut-off of 4. Over "
                 "the last three years his PSA has run between 5.2 and 6.3 ng/mL.", True),
    pytest.param(RISING, "psa_trend_assessed", "Latest PSA 9.1 ng/mL; no sustained PSA rise.",
                 False),
    _gap(None, "psa_trend_assessed", "The PSA of 6.3 ng/mL is above the cut-off of 4. Over three "
         "years his PSA has run between 5.2 and 6.3 ng/mL.", True,
         "'Over three years' (a duration) is not a limit on the PSA"),
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL; his PSA has stayed within "
                 "5.2-6.3 ng/mL for three years.", True),
    pytest.param(RISING, "psa_trend_assessed", "PSA 9.1 ng/mL; the PSA has risen. His PSA had run "
                 "between 5.2 and 6.1 for two years before this.", True),
    _gap(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, a very slow drift rather than a "
         "rise.", True, "'rather than a rise' denies a rise: the PSA is stable"),
    _gap(None, "risk_group_assigned", "NCCN low risk.", True,
         "an NCCN risk level without the cancer named"),
    # 'since 2023' is a state that still holds
    pytest.param(None, "risk_group_assigned", "NCCN low-risk prostate adenocarcinoma, stable on "
                 "active surveillance since 2023.", True),
    # 'AS' is read case-sensitively as active surveillance (cased term)
    pytest.param(None, "listing_decision_documented", "He may be listed now. Continue AS.", True),
    # bare 'delay listing' left the deferral terms ('delay listing until' stays): the
    # consequence of a rejected option no longer reads as a deferral (dev c04)
    pytest.param(None, "listing_decision_documented", "He may be listed now. No bone scan: it "
                 "would only create false positives and delay listing. Continue active "
                 "surveillance.", True),
    pytest.param(RISING, "listing_decision_documented", "Delay listing until the repeat prostate "
                 "MRI (ordered) shows whether he is still low risk.", True),
    # a PSA blamed on dialysis reads no trend (dev w06): total PSA is not raised by hemodialysis
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL: hemodialysis falsely "
                 "elevates total PSA, so his true PSA is most likely < 4. NCCN low risk (cT1c, "
                 "GG1, PSA < 10), stable on active surveillance.", False),
    pytest.param(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL, stable over 3 years. "
                 "Dialysis does not falsely elevate total PSA.", True),
    # a deferral offered beside the clearance is a must-not of the stable branch (dev w09)
    pytest.param(None, "listing_decision_documented", "Listing: he may be listed now; "
                 "alternatively, the listing committee may prefer to defer listing until the next "
                 "surveillance MRI. Continue active surveillance.", False),
    pytest.param(None, "listing_decision_documented", "He may be listed now; alternatively, the "
                 "committee may prefer to wait until the next surveillance MRI in late 2026 before "
                 "activating him. Continue active surveillance.", False),
    pytest.param(None, "listing_decision_documented", "He may be listed now; there is no need to "
                 "wait for the next MRI. Continue active surveillance.", True),
    pytest.param(None, "listing_decision_documented", "He may be listed now. Continue active "
                 "surveillance. If the PSA rises, wait for the repeat MRI before activating him.",
                 True),
    _gap(None, "listing_decision_documented", "He can be listed now once a repeat biopsy is "
         "negative. Continue active surveillance.", False,
         "a clearance with a trailing trigger is a deferral"),
    _gap(None, "psa_trend_assessed", "Latest PSA 6.3 ng/mL: a dialysis artefact, his true PSA is "
         "most likely < 4. NCCN low risk (cT1c, GG1, PSA < 10), stable on active surveillance.",
         False, "'stable' after the criteria parenthesis qualifies the cancer, not the PSA "
         "('a dialysis artefact' names no PSA)"),
])
def test_reader_gaps(variant, checkpoint, note, passed):
    assert grade_note(TASK, note, variant)[checkpoint] is passed
