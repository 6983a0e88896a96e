"""Phrasings clinicians write that the note reader must read as meant: each pair is a correct
phrasing that must pass and a near twin that must fail."""

from __future__ import annotations

from datetime import date

import pytest

from physbench_gym.grading.quantities import quantities

APIXABAN_5_BID = {"note_decision": {"concept": ["apixaban"], "action": ["start"],
                                    "dose": {"value": 5, "unit": "mg"},
                                    "every": {"min": 2, "max": 2}}}
FOSFOMYCIN_ONCE = {"note_decision": {"concept": ["fosfomycin"], "action": ["start"],
                                     "dose": {"value": 3, "unit": "g"}, "every": {"single": True}}}
RATE_CONTROL = {"note_decision": {"concept": ["rate_control_agent"], "action": ["start"]}}
CHA2DS2_VASC_2 = {"note_value": {"concept": ["cha2ds2_vasc"], "value": 2}}
LESS_ALCOHOL = {"note_decision": {"concept": ["alcohol_use"],
                                  "action": ["decrease", "stop", "avoid"],
                                  "opposite": ["increase", "start", "continue", "allow"]}}
NO_ASPIRIN_OR_EDOXABAN = {"note_never": {"concept": ["aspirin", "edoxaban"]}}
NITROFURANTOIN_NOT_AVOIDED = {"note_never": {"concept": ["nitrofurantoin"],
                                             "action": ["avoid", "stop"],
                                             "allow_contingency": True}}
CRCL_TIED_TO_NITROFURANTOIN = {"note_finding": {"concept": ["crcl"], "near": ["nitrofurantoin"],
                                                "topic": True}}


@pytest.mark.parametrize(("spec", "note", "passed"), [
    # a drug class, then the drug that carries it out
    (APIXABAN_5_BID, "Start anticoagulation with apixaban 5 mg twice daily.", True),
    (APIXABAN_5_BID, "Recommend oral anticoagulation with apixaban 5 mg twice daily.", True),
    (APIXABAN_5_BID, "Avoid anticoagulation with apixaban 5 mg twice daily.", False),
    # 'start him on' names the new dose, not the current one
    (APIXABAN_5_BID, "Start him on apixaban 5 mg BID.", True),
    (APIXABAN_5_BID, "Start him on apixaban 2.5 mg BID.", False),
    # turning down another regimen of the drug is not turning down this one
    (APIXABAN_5_BID, "Start apixaban 5 mg twice daily. Do not use apixaban 2.5 mg.", True),
    (APIXABAN_5_BID, "Start apixaban 5 mg twice daily. No apixaban.", False),
    # 'as a single dose' counts doses; a brand in parentheses is the same drug
    (FOSFOMYCIN_ONCE, "Fosfomycin needs no renal adjustment as a single dose. Fosfomycin 3 g "
                      "PO once.", True),
    (FOSFOMYCIN_ONCE, "Recommendation: fosfomycin 3 g granules (Monurol) by mouth as a single "
                      "dose.", True),
    (FOSFOMYCIN_ONCE, "Recommendation: fosfomycin 3 g granules (Monurol) every 3 days.", False),
    # an inline 'Excluded:' list ends with its sentence
    (FOSFOMYCIN_ONCE, "Excluded: nitrofurantoin (resistant); TMP-SMX (sulfa allergy).\n"
                      "Fosfomycin is active and needs no renal adjustment.\n"
                      "P: Fosfomycin 3 g PO once.", True),
    # 'Label: no X' negates X
    (RATE_CONTROL, "Rate control: no AV-nodal agent is needed.", False),
    (RATE_CONTROL, "Rate control: metoprolol succinate 25 mg daily.", True),
    # a score glued to its value, and a table's total row
    (CHA2DS2_VASC_2, "CHA2DS2VASc=2 (HTN 1, DM2 1).", True),
    (CHA2DS2_VASC_2, "CHA2DS2VASc=3 (HTN 1, DM2 1, DVT 1).", False),
    (CHA2DS2_VASC_2, "| CHA2DS2-VASc item | Points |\n|---|---|\n| Hypertension | 1 |\n"
                     "| Diabetes | 1 |\n| **Total** | **2** |", True),
    (CHA2DS2_VASC_2, "| CHA2DS2-VASc item | Points |\n|---|---|\n| Hypertension | 1 |\n"
                     "| **Total** | **1** |", False),
    # a polite request is not a condition
    (LESS_ALCOHOL, "I would be grateful if you could counsel him to stop binge drinking.", True),
    (LESS_ALCOHOL, "If he wants to, he could cut down on alcohol.", False),
    # 'not an alternative', 'considered but not chosen' turn the drug down
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin is not an alternative.", True),
    (NO_ASPIRIN_OR_EDOXABAN, "Edoxaban was considered but not chosen (CrCl above 95).", True),
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin is an alternative.", False),
    # a copula allowance plans the drug; the verb before it says what is allowed
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin 81 mg daily is an acceptable backup.", False),
    (NO_ASPIRIN_OR_EDOXABAN, "Aspirin is not an acceptable alternative.", True),
    ({"note_never": {"concept": ["statin"], "action": ["stop", "avoid"]}},
     "Stopping atorvastatin is a reasonable option.", False),
    ({"note_never": {"concept": ["statin"], "action": ["stop", "avoid"]}},
     "Atorvastatin is a reasonable option.", True),
    # a fallback 'only if X cannot be taken' does not avoid X
    (NITROFURANTOIN_NOT_AVOIDED, "Excluded: fosfomycin (fallback only if nitrofurantoin "
                                 "cannot be taken).", True),
    (NITROFURANTOIN_NOT_AVOIDED, "Avoid nitrofurantoin (CrCl below 30).", False),
    # the next sentence that refers back ('Because this ...') ties the value to the drug
    (CRCL_TIED_TO_NITROFURANTOIN, "CrCl is about 82 mL/min. Because this is above 60 mL/min, "
                                  "nitrofurantoin is appropriate.", True),
    (CRCL_TIED_TO_NITROFURANTOIN, "CrCl is about 82 mL/min. The culture grew E. coli. "
                                  "Nitrofurantoin is appropriate.", False),
])
def test_reader_reads_the_phrasing_as_meant(grade, spec, note, passed):
    assert grade(spec, note) is passed


def test_numeric_calendar_dates_ahead_are_times_from_today():
    today = date(2026, 11, 10)
    for text in ("Continue apixaban through 2027-02-05.", "Continue apixaban through 2/5/2027.",
                 "Continue apixaban through Feb 5, 2027."):
        found = [q for q in quantities(text, today) if q.role == "date"]
        assert [q.value for q in found] == [87.0], text
    assert not [q for q in quantities("Seen on 2026-01-05.", today) if q.role == "date"]
