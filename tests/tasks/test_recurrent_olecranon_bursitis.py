"""recurrent_olecranon_bursitis: the culture draw (MSSA, MRSA, aseptic) and the note phrasings its
checkpoints must judge on each branch."""

from __future__ import annotations

import pytest

from physbench_gym.fhir.client import in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.store import BaseStore
from physbench_gym.grading.core import GradingContext
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.tasks.registry import get_instance
from tests.tasks.helpers import branch_probes, note_probes, values

TASK = "recurrent_olecranon_bursitis"
MRSA = 0
ASEPTIC = 1


def test_canonical_values():
    vals = values(TASK)
    assert vals["culture"] == {"kind": "mssa"}
    assert vals["septic"] is True and vals["fluid_wbc"] == 48500
    order = vals["antibiotic_orders"][0]["ordered"]
    assert order["codes"] == ["http://www.nlm.nih.gov/research/umls/rxnorm|309114"]
    assert order["per_day"] == {"min": 4, "max": 4}
    assert "http://www.nlm.nih.gov/research/umls/rxnorm|198335" in vals["all_antibiotic_codes"]


def test_branches_draw_their_cultures():
    assert values(TASK, MRSA)["culture"]["kind"] == "mrsa"
    assert "doxycycline" in values(TASK, MRSA)["wrong_drugs"]
    assert values(TASK, ASEPTIC)["culture"]["kind"] == "aseptic"
    assert values(TASK, ASEPTIC)["fluid_wbc"] < 2000
    assert {values(TASK, n)["culture"]["kind"] for n in range(20)} == {"mssa", "mrsa", "aseptic"}


TAIL = ("No steroid injection into the bursa. Refer to orthopedics for olecranon bursectomy.")

CORRECT = [
    (None, "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg by mouth four times "
           "daily for 14 days. " + TAIL),
    (None, "Assessment: septic bursitis, MSSA.\nPlan:\n- Dicloxacillin 500 mg PO QID x 14 days\n"
           "- Do not inject steroid into the bursa.\n- Refer for bursectomy."),
    (MRSA, "Septic olecranon bursitis due to MRSA. Start TMP-SMX DS 1 tablet twice daily for 14 "
           "days. " + TAIL),
    (ASEPTIC, "Aseptic olecranon bursitis. No antibiotics. " + TAIL),
    # review: referral wording, a dated earlier isolate, a general remark on septic bursitis
    (None, "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg by mouth four times "
           "daily for 14 days. No steroid injection into the bursa. Refer to hand surgery to "
           "evaluate for bursectomy."),
    (MRSA, "Septic olecranon bursitis due to MRSA. Start TMP-SMX DS 1 tablet twice daily for 14 "
           "days.\n\nThe 2024 culture grew MSSA.\n\n" + TAIL),
    (ASEPTIC, "Aseptic olecranon bursitis. No antibiotics.\n\nNo signs of septic bursitis.\n\n"
              + TAIL),
]

WRONG = [
    (None, "antibiotic_plan_documented",
     "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg twice daily. " + TAIL),
    (None, "bursitis_classified",
     "Aseptic olecranon bursitis. Start cephalexin 500 mg four times daily. " + TAIL),
    (None, "surgery_plan_documented",
     "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg four times daily. No "
     "steroid injection into the bursa. Surgery is not needed."),
    (MRSA, "antibiotic_plan_documented",
     "Septic olecranon bursitis due to MRSA. Start doxycycline 100 mg twice daily. " + TAIL),
    (MRSA, "bursitis_classified",
     "Septic olecranon bursitis due to MSSA. Start TMP-SMX DS 1 tablet twice daily. " + TAIL),
    (ASEPTIC, "antibiotic_plan_documented",
     "Aseptic olecranon bursitis. Start cephalexin 500 mg four times daily to be safe. " + TAIL),
    (ASEPTIC, "bursitis_classified",
     "Aseptic olecranon bursitis, though early septic bursitis is possible. No antibiotics. "
     + TAIL),
    (None, "antibiotic_plan_documented",
     "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg four times daily; "
     "alternatively amoxicillin 875 mg twice daily. " + TAIL),
    (None, "surgery_plan_documented",
     "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg four times daily. "
     "Referral to orthopedics. Bursectomy is not indicated."),
    (None, "surgery_plan_documented",
     "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg four times daily.\n"
     "- Surgery: I would not send him for bursectomy."),
]

SEPTIC = "Septic olecranon bursitis due to MSSA. Start cephalexin 500 mg four times daily. "
STEROID_ALLOWED = [  # review finding 1: each must fail no_steroid_injection
    "Once the infection clears, a steroid shot is reasonable.",
    "After the culture clears, inject triamcinolone 40 mg into the bursa.",
    "Kenalog 40 mg intrabursal once infection resolved.",
    "A corticosteroid injection could be considered later for the aseptic recurrences.",
    "Plan methylprednisolone injection into the olecranon bursa in 4 weeks.",
    "For future aseptic recurrences, he may have a steroid injection.",
    "Plan:\n1. Intrabursal steroid injection once the infection clears.",
    "Plan:\n1. Cortisone injection after the antibiotics.",
    "Triamcinolone injection into the bursa in 4 weeks.",
]


@pytest.mark.parametrize("sentence", STEROID_ALLOWED)
def test_an_allowed_steroid_injection_fails(sentence):
    note = SEPTIC + sentence + " Refer to orthopedics for olecranon bursectomy."
    assert _steroid_verdict(note) is False

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = (
    note_probes(TASK, CORRECT, WRONG))

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(TASK, (MRSA, ASEPTIC), [None, MRSA, ASEPTIC]))


def _steroid_verdict(note: str) -> bool:
    """no_steroid_injection (orders and note) on a note with no orders written."""
    instance = get_instance(TASK, None)
    client = in_process_client(FhirServer(BaseStore.from_resources([]).fork()))
    ctx = GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                         patient_id=instance.patient_id, note_path=instance.note_path,
                         files={instance.note_path: note}, values=instance.values)
    checkpoint = next(c for c in instance_checkpoints(TASK, None)
                      if c.id == "no_steroid_injection")
    return checkpoint.grader.check(ctx).passed
