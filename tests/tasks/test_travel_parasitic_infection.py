"""travel_parasitic_infection: eosinophilia in a migrant back from a visit home - Strongyloides
IgG positive in every variant; ivermectin 200 ug/kg and praziquantel 20 mg/kg x2 by weight; from a
Loa-endemic region a blood film for Loa loa before any ivermectin; praziquantel only with a
positive Schistosoma IgG; no corticosteroid before Strongyloides is treated."""

from __future__ import annotations

import pytest

import physbench_gym  # noqa: F401  (registers the environments)
from tests.tasks.helpers import branch_probes, note_probes, oracle_calls, run_calls, values

TASK = "travel_parasitic_infection"
UGANDA_52 = 0  # both drugs, 52 kg -> ivermectin 12 mg, praziquantel 1050 mg; eos 2.3
CAMEROON_70 = 1  # Loa-endemic, 70 kg (canonical weight): praziquantel + Loa film, no ivermectin
GUATEMALA_94 = 3  # Schistosoma IgG negative, 94 kg: ivermectin 18 mg only; eos 1.8
GUATEMALA_70 = 6  # Schistosoma IgG negative, 70 kg: ivermectin 15 mg only; eos 1.4


def test_canonical_values():
    vals = values(TASK)
    assert vals["region"]["name"] == "uganda" and vals["plan"] == "both"
    assert (vals["weight_kg"], vals["eos_now"]) == (70, 2.1)
    assert (vals["iver_mg"], vals["iver_low"], vals["iver_high"]) == (15, 12.6, 17.5)
    assert (vals["prz_mg"], vals["prz_low"], vals["prz_high"]) == (1350, 1190, 1610)
    assert "312615" in vals["steroid_rxnorm"] and "1191299" not in vals["steroid_rxnorm"]


def test_the_draws_move_the_answer():
    plans = [values(TASK, n)["plan"] for n in range(20)]
    assert {"both", "loa_first", "ivermectin_only"} == set(plans)
    assert values(TASK, UGANDA_52)["iver_mg"] == 12 and values(TASK, UGANDA_52)["prz_mg"] == 1050
    assert values(TASK, GUATEMALA_94)["iver_mg"] == 18
    assert values(TASK, CAMEROON_70)["plan"] == "loa_first"


_STEROID = (
    " No prednisone burst or taper now: steroids before Strongyloides is treated risk "
    "hyperinfection. Albuterol for the wheeze."
)
_DX = "Eosinophils 2.1 x10^3/uL today. Strongyloidiasis and schistosomiasis."

CORRECT = [
    _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO twice in one "
    "day, 4-6 h apart." + _STEROID,
    """Assessment: chronic strongyloidiasis (IgG+; O&P x3 negative, which does not exclude it)
and schistosomiasis (Schistosoma IgG positive after Lake Victoria swimming). AEC 2100 cells/uL.
Plan:
1. Ivermectin 200 mcg/kg = 15 mg by mouth once daily for 2 days.
2. Praziquantel 20 mg/kg = 1350 mg by mouth twice on one day.
3. Avoid corticosteroids until the ivermectin course is complete (hyperinfection risk).""",
    "AEC 2.1 x10^9/L. Dx: strongyloidiasis + schistosomiasis. I recommend ivermectin 15 mg orally "
    "once daily for two days. I also recommend praziquantel 1350 mg orally three times in one day. "
    "Please do not give prednisone - it can cause Strongyloides hyperinfection.",
    _DX + " Start ivermectin 15 mg PO daily x 2 days. Praziquantel 40 mg/kg/day = 2800 mg/day in "
    "two divided doses for 1 day." + _STEROID,
    _DX
    + " Ivermectin 15 mg PO on days 1 and 2. Praziquantel 1350 mg twice daily for 1 day."
    + _STEROID,
    _DX + " Start ivermectin 15 mg PO once, repeat in 2 weeks. Start praziquantel 1350 mg PO twice "
    "in one day." + _STEROID,
    (
        CAMEROON_70,
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis and schistosomiasis. Check a "
        "midday blood film for Loa loa microfilariae before any ivermectin. Start "
        "praziquantel 1350 mg PO twice in one day. Ivermectin only after Loa loa "
        "microfilaremia has been excluded." + _STEROID,
    ),
    # Reader gaps: each should pass.
    pytest.param(
        (
            None,
            "AEC 2.1 x10^9/L. Dx: strongyloidiasis + schistosomiasis. I recommend "
            "ivermectin 15 mg orally once daily for two days and praziquantel 1350 mg "
            "orally three times in one day." + _STEROID,
        ),
        id="verb_over_and",
        marks=pytest.mark.xfail(
            strict=True, reason="'I recommend A ... and B' does not carry the verb to B"
        ),
    ),
    pytest.param(
        (
            None,
            "Eosinophils were 0.6 at arrival and 0.5 a year ago; today 2.1 x10^3/uL. "
            "Strongyloidiasis and schistosomiasis. Start ivermectin 15 mg PO daily x 2 "
            "days. Start praziquantel 1350 mg PO twice in one day." + _STEROID,
        ),
        id="value_after_semicolon",
        marks=pytest.mark.xfail(
            strict=True, reason="'...; today 2.1' is not tied to the eosinophil count"
        ),
    ),
    (
        UGANDA_52,
        "Eosinophils 2.3 x10^3/uL today. Strongyloidiasis and schistosomiasis. Start "
        "ivermectin 12 mg PO daily x 2 days. Start praziquantel 1050 mg PO twice in one "
        "day." + _STEROID,
    ),
    (
        CAMEROON_70,
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis and schistosomiasis. He is "
        "from a Loa loa endemic area: order a daytime blood smear for microfilariae "
        "(10:00-14:00) now. Start praziquantel 1350 mg PO twice in one day. If the "
        "filarial smear is negative, start ivermectin 15 mg daily x 2 days." + _STEROID,
    ),
    (
        GUATEMALA_94,
        "Eosinophils 1.8 x10^3/uL today. Strongyloidiasis; Schistosoma IgG negative and "
        "no freshwater exposure. Start ivermectin 18 mg PO daily x 2 days." + _STEROID,
    ),
    (
        GUATEMALA_70,
        "AEC 1.4 K/uL. Chronic strongyloidiasis. Ivermectin 15 mg PO once daily for 2 "
        "days, on an empty stomach." + _STEROID,
    ),
    _DX + " Ivermectin 15 mg PO daily x 2 days and praziquantel 1350 mg PO twice in one day. "
    "Avoid systemic steroids; if the wheeze persists after the ivermectin course, a short "
    "prednisone course could then be considered.",
    # The PCP's question answered with the negated nouns (review finding 5).
    _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO twice in one "
    "day. PREDNISONE: NO burst, NO taper now - hyperinfection risk with untreated Strongyloides.",
    _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO twice in one "
    "day. On your question about prednisone: please do not give another burst, and do not start "
    "a taper, at this point.",
    # Label wording (review finding 8): a per-kg rate beside the mg dose, a mg/kg/day total.
    _DX + " Ivermectin 15 milligrams, that is 200 micrograms per kilo, by mouth once a day for two "
    "days. Praziquantel 20 mg/kg = 1350 mg by mouth twice in 1 day, 4-6 hours apart, with food "
    "(40 mg/kg/day total)." + _STEROID,
    # An inhaled steroid for the wheeze is fine (review finding 4).
    _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO twice in one "
    "day. No prednisone burst or taper now: hyperinfection risk. Systemic steroids should wait "
    "until after ivermectin; inhaled budesonide-formoterol is fine for the wheeze.",
    (
        CAMEROON_70,
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis and schistosomiasis. Send a "
        "calibrated thick blood smear for Loa loa drawn around noon. Start praziquantel "
        "1350 mg PO twice in one day. Ivermectin only after Loa loa is excluded." + _STEROID,
    ),
    (
        GUATEMALA_94,
        "Eosinophils 1.8 x10^3/uL today. Strongyloidiasis; Schistosoma IgG negative. "
        "Start ivermectin 18 mg PO daily x 2 days. No praziquantel: it is not "
        "indicated." + _STEROID,
    ),
    # Reader gaps (review findings 3, 4, 7, 8; corpus c06): each should pass.
    pytest.param(
        (
            None,
            _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel "
            "1350 mg PO twice in one day, 4-6 h apart. Inhaled corticosteroid (budesonide) "
            "for the wheeze is fine; no oral prednisone until the ivermectin is done.",
        ),
        id="ics_parenthetical",
        marks=pytest.mark.xfail(
            strict=True,
            reason=(
                "'inhaled corticosteroid (budesonide)': the bracketed budesonide is read as "
                "a systemic corticosteroid allowed now"
            ),
        ),
    ),
    pytest.param(
        (
            CAMEROON_70,
            "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis and "
            "schistosomiasis. Order a daytime blood film for Loa loa microfilariae "
            "(10:00-14:00) now. Start praziquantel 1350 mg PO twice in one day. Give "
            "ivermectin 15 mg daily x 2 days only if the smear is negative." + _STEROID,
        ),
        id="anaphoric_trigger",
        marks=pytest.mark.xfail(
            strict=True,
            reason=(
                "'only if the smear is negative': the trigger names the film ordered "
                "earlier by anaphora, not by a filaria_blood_smear term"
            ),
        ),
    ),
    pytest.param(
        (
            None,
            _DX + " Start ivermectin 15 mg PO daily x 2 days. Praziquantel 1350 mg "
            "PO q6h x 2 doses." + _STEROID,
        ),
        id="q6h_x2_doses",
        marks=pytest.mark.xfail(
            strict=True, reason=("'q6h x 2 doses' is read as 4 doses a day, not 2 doses")
        ),
    ),
    pytest.param(
        (
            None,
            _DX + " Start ivermectin 15 mg PO daily x 2 days. Praziquantel 40 mg/kg "
            "in two divided doses x 1 day (1400 mg each)." + _STEROID,
        ),
        id="mg_each",
        marks=pytest.mark.xfail(
            strict=True,
            reason=("'(1400 mg each)' after a mg/kg daily total is not read as the dose"),
        ),
    ),
    pytest.param(
        (
            None,
            _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel "
            "1350 mg PO twice in one day. Q2. Another prednisone burst or a longer taper? "
            "A. No - neither, not now; steroids with untreated Strongyloides risk "
            "hyperinfection.",
        ),
        id="answer_no_to_question",
    ),
]

WRONG = [
    (
        "infection_assessed",
        "Eosinophils 0.6 x10^3/uL today. Strongyloidiasis and "
        "schistosomiasis. Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO "
        "twice in one day." + _STEROID,
    ),
    (
        "infection_assessed",
        "Eosinophils 2.1 x10^3/uL today. Stool O&P x3 negative, so no "
        "strongyloidiasis. Schistosomiasis. Start ivermectin 15 mg PO daily x 2 days. Start "
        "praziquantel 1350 mg PO twice in one day." + _STEROID,
    ),
    (
        "treatment_plan_documented",
        _DX + " Start ivermectin 6 mg PO daily x 2 days. Start "
        "praziquantel 1350 mg PO twice in one day." + _STEROID,
    ),
    (
        "treatment_plan_documented",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Start "
        "praziquantel 600 mg PO twice in one day." + _STEROID,
    ),
    ("treatment_plan_documented", _DX + " Start ivermectin 15 mg PO daily x 2 days." + _STEROID),
    (
        "treatment_plan_documented",
        _DX + " Hold off on ivermectin for now; start praziquantel "
        "1350 mg PO twice in one day." + _STEROID,
    ),
    (
        "steroid_avoided",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 "
        "mg PO twice in one day. A prednisone burst 40 mg daily for 5 days is fine for the wheeze.",
    ),
    (
        "steroid_avoided",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 "
        "mg PO twice in one day. Avoid a long taper, but a short prednisone burst is reasonable if "
        "the wheeze is bad.",
    ),
    (
        CAMEROON_70,
        "treatment_plan_documented",
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis "
        "and schistosomiasis. Start praziquantel 1350 mg PO twice in one day. Start ivermectin "
        "15 mg "
        "PO daily x 2 days." + _STEROID,
    ),
    (
        CAMEROON_70,
        "treatment_plan_documented",
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis "
        "and schistosomiasis. Order a blood smear for microfilariae. Start praziquantel 1350 mg PO "
        "twice in one day. Ivermectin 15 mg daily x 2 days could be given now or after the smear."
        + _STEROID,
    ),
    (
        GUATEMALA_94,
        "treatment_plan_documented",
        "Eosinophils 1.8 x10^3/uL today. "
        "Strongyloidiasis. Start ivermectin 18 mg PO daily x 2 days and praziquantel 1950 mg "
        "twice in "
        "one day." + _STEROID,
    ),
    (
        GUATEMALA_94,
        "infection_assessed",
        "Eosinophils 1.8 x10^3/uL today. Strongyloidiasis and "
        "schistosomiasis. Start ivermectin 18 mg PO daily x 2 days." + _STEROID,
    ),
    (
        GUATEMALA_94,
        "treatment_plan_documented",
        "Eosinophils 1.8 x10^3/uL today. "
        "Strongyloidiasis. Start ivermectin 15 mg PO daily x 2 days." + _STEROID,
    ),
    (
        "treatment_plan_documented",
        _DX + " Start ivermectin 15 mg PO twice daily x 2 days. "
        "Praziquantel 1350 mg twice daily for 1 day." + _STEROID,
    ),
    pytest.param(
        (
            "treatment_plan_documented",
            _DX + " Start ivermectin 15 mg PO daily x 2 days. "
            "Praziquantel 1350 mg once daily for 1 day." + _STEROID,
        ),
        id="praziquantel_one_dose",
        marks=pytest.mark.xfail(
            strict=True,
            reason=(
                "no floor on the daily praziquantel total: '1350 mg ... (40 mg/kg/day)' "
                "reads as once a day, so a floor failed correct notes"
            ),
        ),
    ),
    (
        "treatment_plan_documented",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Praziquantel "
        "600 mg/day for 1 day." + _STEROID,
    ),
    (
        "infection_assessed",
        "Eosinophils 2.1 x10^3/uL today. Possible strongyloidiasis and "
        "schistosomiasis. Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO "
        "twice in one day." + _STEROID,
    ),
    (
        "steroid_avoided",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 "
        "mg PO twice in one day. Prednisone 40 mg x5 days is OK now.",
    ),
    (
        CAMEROON_70,
        "treatment_plan_documented",
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis "
        "and schistosomiasis. Start praziquantel 1350 mg PO twice in one day. Do not give "
        "ivermectin "
        "for now." + _STEROID,
    ),
    # Review finding 1: a Loa-first plan with no ivermectin plan for the Strongyloides.
    (
        CAMEROON_70,
        "treatment_plan_documented",
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis "
        "and schistosomiasis. Order a daytime blood film for Loa loa microfilariae "
        "(10:00-14:00) now. "
        "Start praziquantel 1350 mg PO twice in one day. Strongyloides treatment can wait; recheck "
        "serology in 6 months." + _STEROID,
    ),
    (
        CAMEROON_70,
        "treatment_plan_documented",
        "Eosinophils 1.3 x10^3/uL today. Strongyloidiasis "
        "and schistosomiasis. Order a daytime blood film for Loa loa microfilariae "
        "(10:00-14:00) now. "
        "Start praziquantel 1350 mg PO twice in one day. Start albendazole 400 mg BID x 7 days for "
        "the Strongyloides now." + _STEROID,
    ),
    # Review finding 2: praziquantel offered without a dose on the Schistosoma-negative branch.
    (
        GUATEMALA_94,
        "treatment_plan_documented",
        "Eosinophils 1.8 x10^3/uL today. "
        "Strongyloidiasis. Start ivermectin 18 mg PO daily x 2 days. Empiric praziquantel for "
        "possible schistosomiasis." + _STEROID,
    ),
    (
        GUATEMALA_94,
        "treatment_plan_documented",
        "Eosinophils 1.8 x10^3/uL today. "
        "Strongyloidiasis. Start ivermectin 18 mg PO daily x 2 days. Also treat empirically with "
        "praziquantel." + _STEROID,
    ),
    # Review finding 3: the organism named in the steroid sentence or a doubted serology is no
    # diagnosis; 'no schistosomiasis treatment indicated' is no schistosomiasis diagnosis.
    (
        "infection_assessed",
        "Eosinophils 2.1 x10^3/uL today. Possible Strongyloides infection; "
        "schistosomiasis. Start ivermectin 15 mg PO daily x 2 days. Start praziquantel 1350 mg PO "
        "twice in one day." + _STEROID,
    ),
    (
        "infection_assessed",
        "Eosinophils 2.1 x10^3/uL today. Strongyloides IgG positive, but may "
        "be cross-reactive; schistosomiasis. Start ivermectin 15 mg PO daily x 2 days. Start "
        "praziquantel 1350 mg PO twice in one day." + _STEROID,
    ),
    (
        "infection_assessed",
        "Eosinophils 2.1 x10^3/uL today. Strongyloidiasis. The Schistosoma IgG "
        "reflects old exposure; no schistosomiasis treatment indicated. Start ivermectin 15 mg PO "
        "daily x 2 days." + _STEROID,
    ),
    pytest.param(
        (
            "infection_assessed",
            "Eosinophils 2.1 x10^3/uL today. Strongyloidiasis cannot "
            "be excluded; schistosomiasis. Start ivermectin 15 mg PO daily x 2 days. Start "
            "praziquantel 1350 mg PO twice in one day." + _STEROID,
        ),
        id="cannot_be_excluded",
        marks=pytest.mark.xfail(
            strict=True,
            reason=("'<finding> cannot be excluded' is read as asserted, not uncertain"),
        ),
    ),
    # Review finding 5: a low-dose taper now, or only the taper avoided.
    (
        "steroid_avoided",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel "
        "1350 mg PO twice in one day. Avoid another 40 mg burst, but a low-dose taper (prednisone "
        "20 mg daily, tapering over 2 weeks) can start now for his wheeze.",
    ),
    (
        "steroid_avoided",
        _DX + " Start ivermectin 15 mg PO daily x 2 days. Start praziquantel "
        "1350 mg PO twice in one day. Regarding prednisone, a short burst is probably fine if the "
        "wheeze is bad, though a long taper is best avoided.",
    ),
    # Review finding 9: course length (ivermectin 1-2 days, praziquantel one day).
    (
        "treatment_plan_documented",
        _DX + " Ivermectin 15 mg PO daily x 7 days. Start praziquantel "
        "1350 mg PO twice in one day." + _STEROID,
    ),
    (
        "treatment_plan_documented",
        _DX + " Ivermectin 15 mg PO daily x 2 days. Start praziquantel "
        "1350 mg PO twice daily for 3 days." + _STEROID,
    ),
]

test_a_correct_plan_in_other_words_passes, test_a_wrong_note_fails_its_checkpoint = note_probes(
    TASK, CORRECT, WRONG
)

test_the_canonical_note_fails_the_other_branches, test_the_oracle_succeeds_on_each_branch = (
    branch_probes(
        TASK, (UGANDA_52, CAMEROON_70, GUATEMALA_70), [None, UGANDA_52, CAMEROON_70, GUATEMALA_94]
    )
)


def _orders_pass(variant, calls) -> bool:
    result = run_calls(TASK, calls, variant)
    return result.checkpoints["antiparasitics_ordered"]["passed"]


def _med(code, dose, frequency=1, **extra):
    args = {
        "patient": "{patient}",
        "medication_code": code,
        "dose_value": dose,
        "dose_unit": "mg",
        "route": "oral",
        "frequency": frequency,
        "period": 1,
        "period_unit": "day",
        "duration_days": 2,
        "quantity": 10,
        "quantity_unit": "tablet",
        "refills": 0,
    }
    args.update(extra)
    return {"tool": "fhir_medication_request_create", "arguments": args}


_PREDNISONE = _med("312615", 40, duration_days=5)
_IVERMECTIN_15 = _med("311207", 15)


def _with(variant, replace_ivermectin=None, extra=()):
    """The oracle's calls, its ivermectin order changed by ``replace_ivermectin``, plus ``extra``
    orders for the same patient."""
    calls = oracle_calls(TASK, variant)
    for call in calls:
        if call["arguments"].get("medication_code") == "311207" and replace_ivermectin:
            call["arguments"].update(replace_ivermectin)
    patient = calls[1]["arguments"]["patient"]
    return calls + [
        {"tool": c["tool"], "arguments": dict(c["arguments"], patient=patient)} for c in extra
    ]


@pytest.mark.parametrize(
    "variant, replace, extra, passes",
    [
        (None, {}, (), True),
        (None, {"dose_value": 9}, (), False),  # ivermectin 129 ug/kg
        (None, {"dose_value": 21}, (), False),  # ivermectin 300 ug/kg
        (None, {}, (_PREDNISONE,), False),  # a prednisone burst beside it
        (CAMEROON_70, {}, (), True),
        (CAMEROON_70, {}, (_IVERMECTIN_15,), False),  # ivermectin before the Loa loa film
        (GUATEMALA_94, {}, (), True),
        (GUATEMALA_94, {}, (_med("198140", 1950, frequency=2, duration_days=1),), False),
    ],
)
def test_the_orders(variant, replace, extra, passes):
    assert _orders_pass(variant, _with(variant, replace, extra)) is passes


@pytest.mark.parametrize(
    "code, display, passes",
    [
        ("10662-5", "Blood film for Loa loa microfilariae - draw between 10:00 and 14:00", True),
        ("99999-9", "Thick blood smear for microfilariae, drawn at noon", True),
        ("32255-2", "Filaria antibody IgG4 (Bm14) serology", False),
        ("99999-9", "Loa loa antibody, serum", False),
    ],
)
def test_the_loa_loa_order_must_be_a_film(code, display, passes):
    """Review finding 6: a filarial antibody test does not measure the microfilarial load."""
    calls = oracle_calls(TASK, CAMEROON_70)
    for call in calls:
        if call["tool"] == "fhir_service_request_create":
            call["arguments"].update(code=code, display=display)
    assert _orders_pass(CAMEROON_70, calls) is passes
