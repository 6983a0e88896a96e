"""Terminology tables: sizes, row validity, lookups, search and the loader's error messages."""

from __future__ import annotations

import re

import pytest

from physbench_gym.synth import terminology_tables as tables
from physbench_gym.synth.terminology import (
    SYSTEMS,
    TerminologyDataError,
    UnknownCodeError,
    all_concepts,
    condition,
    condition_codings,
    loinc,
    lookup,
    orderable,
    parse_table,
    rxnorm,
    search,
)

MINIMUM_SIZES = {"loinc": 150, "rxnorm": 150, "orderable": 80, "condition": 150}

SPOT_CHECKS = [
    ("loinc", "4548-4", "Hemoglobin A1c/Hemoglobin.total in Blood"),
    ("loinc", "2160-0", "Creatinine [Mass/volume] in Serum or Plasma"),
    ("loinc", "3016-3", "Thyrotropin [Units/volume] in Serum or Plasma"),
    ("loinc", "3024-7", "Thyroxine (T4) free [Mass/volume] in Serum or Plasma"),
    ("loinc", "718-7", "Hemoglobin [Mass/volume] in Blood"),
    ("loinc", "2823-3", "Potassium [Moles/volume] in Serum or Plasma"),
    ("loinc", "2951-2", "Sodium [Moles/volume] in Serum or Plasma"),
    ("loinc", "2276-4", "Ferritin [Mass/volume] in Serum or Plasma"),
    ("loinc", "8480-6", "Systolic blood pressure"),
    ("loinc", "8462-4", "Diastolic blood pressure"),
    ("loinc", "29463-7", "Body weight"),
    ("loinc", "11488-4", "Consult note"),
    ("loinc", "11506-3", "Progress note"),
    ("rxnorm", "1364445", "apixaban 5 MG Oral Tablet"),
    ("rxnorm", "314076", "lisinopril 10 MG Oral Tablet"),
    ("rxnorm", "1010604", "buprenorphine 8 MG / naloxone 2 MG Sublingual Film"),
    ("rxnorm", "1648759", "nitrofurantoin, macrocrystals 100 MG Oral Capsule"),
    ("rxnorm", "310325", "ferrous sulfate 325 MG Oral Tablet"),
    ("condition", "44054006", "Diabetes mellitus type 2"),
    ("condition", "38341003", "Hypertensive disorder, systemic arterial"),
]

UCUM_SYMBOLS = {
    "%", "/min", "/d", "mm/h", "/[HPF]", "Cel", "L", "U/L", "U/mL", "U/g{Hb}", "[IU]/L",
    "[IU]/mL", "[pH]",
    "cm", "deg", "fL", "g/dL", "kg", "kg/m2", "m[IU]/L", "m[IU]/mL", "mL/min/{1.73_m2}", "mg/L",
    "mg/dL", "mg/g", "mm[Hg]", "mmol/L", "mosm/kg", "ms", "ng/dL", "ng/mL", "pg", "pg/mL", "s",
    "u[IU]/mL", "ug/dL", "ug/mL", "umol/L", "10*3/uL", "10*6/uL", "{INR}", "{SG}", "{ratio}",
    "{score}", "{packs}/d", "{pack-years}", "[arb'U]/mL", "[arb'U]", "{copies}/mL", "pmol/L",
    "mg/(24.h)", "ng/mL/h", "ug/g",
}


@pytest.mark.parametrize(("table", "minimum"), sorted(MINIMUM_SIZES.items()))
def test_tables_meet_minimum_sizes(table: str, minimum: int) -> None:
    assert len(all_concepts(table)) >= minimum


@pytest.mark.parametrize("table", tables.TABLES)
def test_every_row_is_valid_and_unique(table: str) -> None:
    concepts = all_concepts(table)
    keys = [(c.system, c.code) for c in concepts]
    assert len(keys) == len(set(keys))
    for concept in concepts:
        assert concept.system in SYSTEMS.values()
        assert concept.display and concept.source
        assert concept.display == concept.display.strip()
        if concept.low is not None and concept.high is not None:
            assert concept.low < concept.high, concept.code


def test_loinc_rows_have_check_digits_units_and_categories() -> None:
    for concept in all_concepts("loinc"):
        assert tables.loinc_check_digit_ok(concept.code), concept.code
        assert concept.kind in tables.LOINC_KINDS
        category = concept.extra["category"]
        assert (category == "") == (concept.kind == "note"), concept.code
        if concept.low is not None or concept.high is not None:
            assert concept.unit, concept.code


def test_units_are_known_ucum_symbols() -> None:
    units = {c.unit for c in all_concepts("loinc") if c.unit}
    assert units <= UCUM_SYMBOLS, units - UCUM_SYMBOLS
    assert all(tables.ucum_plausible(unit) for unit in units)


def test_drug_rows_describe_ingredient_strength_and_form() -> None:
    for concept in all_concepts("rxnorm"):
        assert concept.code.isdigit()
        assert concept.extra["route"] in tables.ROUTES
        assert concept.extra["dose_form"] in concept.display
        first_ingredient = concept.extra["ingredient"].split(" / ")[0]
        assert first_ingredient in concept.display.lower(), concept.code


def test_condition_rows_carry_valid_icd10_and_specialty() -> None:
    for concept in all_concepts("condition"):
        assert re.fullmatch(r"[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})?", concept.extra["icd10"])
        assert concept.extra["specialty"] in tables.SPECIALTIES
        assert concept.extra["chronic"] in {"yes", "no"}


@pytest.mark.parametrize(("table", "code", "display"), SPOT_CHECKS)
def test_well_known_codes_have_expected_display(table: str, code: str, display: str) -> None:
    getter = {"loinc": loinc, "rxnorm": rxnorm, "condition": condition}[table]
    assert getter(code).display == display


def test_lab_concept_carries_unit_and_reference_range() -> None:
    creatinine = loinc("2160-0")
    assert (creatinine.unit, creatinine.kind, creatinine.extra["category"]) == (
        "mg/dL", "lab", "laboratory"
    )
    assert creatinine.low == 0.6 and creatinine.high == 1.3
    assert loinc("8480-6").extra["category"] == "vital-signs"
    assert loinc("11488-4").kind == "note"
    assert creatinine.coding() == {
        "system": "http://loinc.org", "code": "2160-0", "display": creatinine.display
    }


def test_condition_codings_give_snomed_then_icd10() -> None:
    snomed_coding, icd_coding = condition_codings("49436004")
    assert snomed_coding == {"system": SYSTEMS["snomed"], "code": "49436004",
                             "display": "Atrial fibrillation"}
    assert icd_coding["system"] == SYSTEMS["icd10cm"]
    assert icd_coding["code"] == "I48.91"
    assert condition("40930008").extra["icd10"] == "E03.9"


def test_lookup_accepts_uri_or_short_name() -> None:
    assert lookup("loinc", "3016-3") is lookup("http://loinc.org", "3016-3")
    assert lookup("rxnorm", "1364445").extra["ingredient"] == "apixaban"
    assert lookup("snomed", "87522002").extra["icd10"] == "D50.9"
    icd = lookup("icd10cm", "E78.5")
    assert icd.system == SYSTEMS["icd10cm"] and icd.extra["snomed"] == "55822004"
    assert lookup("cpt", "93306").kind == "imaging"


def test_unknown_code_suggests_close_matches() -> None:
    with pytest.raises(KeyError) as caught:
        lookup("loinc", "2160-1")
    message = str(caught.value)
    assert "unknown loinc code '2160-1'; did you mean '2160-0'" in message
    assert "Creatinine" in message
    assert isinstance(caught.value, UnknownCodeError)
    with pytest.raises(KeyError, match="did you mean '1364445'"):
        rxnorm("1364446")


def test_unknown_code_without_neighbours_says_so() -> None:
    with pytest.raises(UnknownCodeError, match="no close match"):
        loinc("99999999-9")


def test_unknown_system_is_rejected() -> None:
    with pytest.raises(UnknownCodeError, match="unknown code system 'ndc'"):
        lookup("ndc", "12345")


def test_orderable_lookup_by_code_and_system() -> None:
    assert orderable("45378").display.startswith("Colonoscopy")
    assert orderable("45378", system="cpt").system == SYSTEMS["cpt"]
    assert orderable("3016-3", system="loinc").kind == "laboratory"
    assert orderable("306206005").kind == "referral"
    with pytest.raises(UnknownCodeError, match="did you mean"):
        orderable("45379")
    with pytest.raises(UnknownCodeError):
        orderable("45378", system="loinc")


def test_search_matches_word_prefixes_case_insensitively() -> None:
    found = search("ATORVA")
    assert "259255" in [c.code for c in found]
    assert all("atorvastatin" in c.display.lower() for c in found)
    ferritin = search("ferritin", table="loinc")
    assert ferritin[0].code == "2276-4"
    assert {c.code for c in search("apixaban", table="rxnorm")} == {"1364435", "1364445"}


def test_search_requires_every_word_and_honours_filters() -> None:
    results = search("metoprolol succinate", table="rxnorm", limit=50)
    assert results and all("succinate" in c.display for c in results)
    assert all(c.kind == "vital" for c in search("pressure", kind="vital"))
    assert len(search("sertraline", limit=2)) == 2
    assert search("   ") == []
    assert search("no such drug anywhere") == []


def test_search_uses_drug_ingredient() -> None:
    assert any(c.code == "1010604" for c in search("naloxone buprenorphine film"))


def test_search_ranks_whole_words_before_prefixes() -> None:
    results = search("iron", table="loinc")
    assert results[0].code == "2498-4"


def test_all_concepts_rejects_unknown_table() -> None:
    with pytest.raises(ValueError, match="unknown table"):
        all_concepts("drugs")


LOINC_HEADER = "code\tdisplay\tkind\tunit\tlow\thigh\tcategory\tsource\n"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("2160-0\tCreatinine\tlab\tmg/dL\t0.6\t1.3\tlaboratory\tx\n"
         "2160-0\tCreatinine\tlab\tmg/dL\t0.6\t1.3\tlaboratory\tx\n",
         "t.tsv:3: duplicate code '2160-0' (first on line 2)"),
        ("2160-0\tCreatinine\tlab\tmg/dL\t1.3\t0.6\tlaboratory\tx\n", "t.tsv:2: low 1.3"),
        ("2160-1\tCreatinine\tlab\tmg/dL\t0.6\t1.3\tlaboratory\tx\n", "invalid LOINC code"),
        ("2160-0\tCreatinine\tblood\tmg/dL\t0.6\t1.3\tlaboratory\tx\n", "unknown kind 'blood'"),
        ("2160-0\tCreatinine\tlab\t\t0.6\t1.3\tlaboratory\tx\n", "needs a unit"),
        ("2160-0\tCreatinine\tlab\tmg per dL\t0.6\t1.3\tlaboratory\tx\n", "implausible UCUM"),
        ("2160-0\tCreatinine\tlab\tmg/dL\tlow\t1.3\tlaboratory\tx\n", "low 'low' is not a number"),
        ("2160-0\tCreatinine\tlab\tmg/dL\t0.6\t1.3\tlaboratory\t\n", "empty source"),
        ("2160-0\tCreatinine\tlab\tmg/dL\t0.6\n", "t.tsv:2: expected 8 fields, found 5"),
    ],
)
def test_loader_names_file_and_line_of_bad_rows(body: str, problem: str) -> None:
    with pytest.raises(TerminologyDataError, match=re.escape(problem)):
        parse_table("loinc", LOINC_HEADER + body, "t.tsv")


def test_loader_rejects_wrong_header_and_bad_other_rows() -> None:
    with pytest.raises(TerminologyDataError, match="t.tsv:1: header"):
        parse_table("loinc", "code\tdisplay\n", "t.tsv")
    rx_header = "code\tdisplay\tingredient\tstrength\tdose_form\troute\tdrug_class\tsource\n"
    with pytest.raises(TerminologyDataError, match="unknown route 'rectal'"):
        parse_table("rxnorm", rx_header + "1\td\ti\t1 MG\tOral Tablet\trectal\tc\ts\n")
    cond_header = "snomed\ticd10\tdisplay\tspecialty\tchronic\tsource\n"
    with pytest.raises(TerminologyDataError, match="invalid ICD-10-CM 'E119'"):
        parse_table("condition", cond_header + "44054006\tE119\tT2DM\tendocrinology\tyes\ts\n")
    with pytest.raises(TerminologyDataError, match="unknown specialty 'surgery'"):
        parse_table("condition", cond_header + "44054006\tE11.9\tT2DM\tsurgery\tyes\ts\n")
    order_header = "system\tcode\tdisplay\tcategory\tsource\n"
    with pytest.raises(TerminologyDataError, match="unknown category 'lab'"):
        parse_table("orderable", order_header + "cpt\t93000\tECG\tlab\ts\n")


def test_valid_text_parses_to_concepts() -> None:
    body = "2160-0\tCreatinine\tlab\tmg/dL\t0.6\t1.3\tlaboratory\tsrc\n"
    (concept,) = parse_table("loinc", LOINC_HEADER + body)
    assert (concept.code, concept.unit, concept.low, concept.high) == ("2160-0", "mg/dL", 0.6, 1.3)


def test_loinc_check_digit_algorithm() -> None:
    assert tables.loinc_check_digit_ok("2160-0")
    assert tables.loinc_check_digit_ok("11488-4")
    assert not tables.loinc_check_digit_ok("2160-1")
    assert not tables.loinc_check_digit_ok("21600")


def test_concepts_are_hashable_values() -> None:
    assert len({loinc("2160-0"), lookup("loinc", "2160-0")}) == 1


CORE_CONDITIONS = {
    "40930008": "E03.9",    # hypothyroidism
    "21983002": "E06.3",    # Hashimoto thyroiditis
    "44054006": "E11.9",    # type 2 diabetes
    "15777000": "R73.03",   # prediabetes
    "38341003": "I10",      # hypertension
    "55822004": "E78.5",    # hyperlipidemia
    "49436004": "I48.91",   # atrial fibrillation
    "84114007": "I50.9",    # heart failure
    "53741008": "I25.10",   # coronary arteriosclerosis
    "433144002": "N18.30",  # CKD stage 3
    "431857002": "N18.4",   # CKD stage 4
    "89627008": "E87.1",    # hyponatremia
    "197315008": "K76.0",   # non-alcoholic fatty liver
    "19943007": "K74.60",   # cirrhosis
    "64859006": "M81.0",    # osteoporosis
    "312894000": "M85.80",  # osteopenia
    "34713006": "E55.9",    # vitamin D deficiency
    "36348003": "E21.0",    # primary hyperparathyroidism
    "87522002": "D50.9",    # iron deficiency anemia
    "61261009": "D59.9",    # hemolytic anemia
    "62403005": "D55.0",    # G6PD deficiency anemia
    "68566005": "N39.0",    # urinary tract infection
    "38822007": "N30.90",   # cystitis
    "45816000": "N10",      # pyelonephritis
    "75544000": "F11.20",   # opioid dependence
    "66590003": "F10.20",   # alcohol dependence
    "56294008": "F17.200",  # nicotine dependence
    "427359005": "R91.1",   # solitary nodule of lung
    "13645005": "J44.9",    # COPD
    "195967001": "J45.909",  # asthma
    "235595009": "K21.9",   # GERD
    "35489007": "F32.A",    # depressive disorder
    "197480006": "F41.9",   # anxiety disorder
    "414916001": "E66.9",   # obesity
    "396275006": "M19.90",  # osteoarthritis
    "90560007": "M10.9",    # gout
    "34486009": "E05.90",   # hyperthyroidism
    "386692008": "N92.0",   # menorrhagia
    "396331005": "K90.0",   # celiac disease
    "68496003": "K63.5",    # polyp of colon
    "82423001": "G89.29",   # chronic pain
    "193462001": "G47.00",  # insomnia
    "37796009": "G43.909",  # migraine
    "76498008": "Z78.0",    # postmenopausal state
}


@pytest.mark.parametrize(("snomed", "icd10"), sorted(CORE_CONDITIONS.items()))
def test_core_conditions_are_present_with_their_icd10_code(snomed: str, icd10: str) -> None:
    assert condition(snomed).extra["icd10"] == icd10


@pytest.mark.parametrize(
    ("table", "code"),
    [("rxnorm", "198211"), ("rxnorm", "904475"), ("rxnorm", "966224"), ("loinc", "58410-2"),
     ("loinc", "24323-8"), ("loinc", "9318-7"), ("loinc", "44261-6"), ("loinc", "18842-5")],
)
def test_core_drugs_and_labs_are_present(table: str, code: str) -> None:
    assert {"rxnorm": rxnorm, "loinc": loinc}[table](code).code == code


def test_core_orderables_cover_labs_imaging_referrals_and_counseling() -> None:
    assert orderable("58410-2", system="loinc").kind == "laboratory"
    assert orderable("76700", system="cpt").kind == "imaging"
    assert orderable("183519002", system="snomed").kind == "referral"
    assert orderable("225323000", system="snomed").kind == "counseling"


@pytest.mark.parametrize("table", tables.TABLES)
def test_main_tables_record_a_checked_source_for_every_row(table: str) -> None:
    from importlib import resources

    name = {"loinc": "loinc.tsv", "rxnorm": "rxnorm.tsv", "condition": "conditions.tsv",
            "orderable": "orderables.tsv"}[table]
    text = resources.files("physbench_gym.synth").joinpath("data", name).read_text("utf-8")
    for concept in parse_table(table, text, name):
        source = concept.source.lower()
        assert "not individually looked up" not in source, concept.code
        assert "test only" not in source, concept.code


SEXED_HEADER = "code\tdisplay\tkind\tunit\tlow\thigh\tsex\tcategory\tsource\n"


def test_testosterone_has_a_male_and_a_female_range() -> None:
    testosterone = loinc("2986-8")
    assert (testosterone.low, testosterone.high) == (None, None)  # no range for any sex
    male, female = testosterone.reference_range("male"), testosterone.reference_range("female")
    assert (male.sex, male.low, male.high) == ("male", 264, 916)
    assert (female.sex, female.low, female.high) == ("female", 9, 55)
    assert male.source and female.source
    assert testosterone.reference_range("unknown") is None
    assert testosterone.ranges_for("other") == (male, female)
    creatinine = loinc("2160-0")
    assert creatinine.reference_range("female") == creatinine.reference_range() == \
        tables.ReferenceRange(0.6, 1.3, None, creatinine.source)


def test_per_sex_rows_of_one_code_merge_and_override_the_any_sex_range() -> None:
    body = ("2986-8\tTestosterone\tlab\tng/dL\t100\t900\t\tlaboratory\tany\n"
            "2986-8\tTestosterone\tlab\tng/dL\t9\t55\tfemale\tlaboratory\tf\n")
    (concept,) = parse_table("loinc", SEXED_HEADER + body, "t.tsv")
    assert (concept.low, concept.high) == (100, 900)
    assert concept.reference_range("female").high == 55
    assert concept.reference_range("male").high == 900  # the any-sex range
    assert concept.ranges_for("female") == (concept.reference_range("female"),)


@pytest.mark.parametrize(
    ("body", "problem"),
    [("2986-8\tT\tlab\tng/dL\t9\t55\tfemale\tlaboratory\tx\n"
      "2986-8\tT\tlab\tng/dL\t8\t45\tfemale\tlaboratory\tx\n",
      "t.tsv:3: duplicate code '2986-8' (first on line 2)"),
     ("2986-8\tT\tlab\tng/dL\t9\t55\twoman\tlaboratory\tx\n", "sex 'woman' is not one of"),
     ("2986-8\tT\tlab\tng/dL\t\t\tmale\tlaboratory\tx\n", "a male row needs a range"),
     ("2986-8\tT\tlab\tng/dL\t9\t55\tfemale\tlaboratory\tx\n"
      "2986-8\tT\tlab\tnmol/L\t8\t32\tmale\tlaboratory\tx\n", "has unit 'nmol/L' here"),
     ("2986-8\tT\tlab\tng/dL\t9\t55\tfemale\tlaboratory\tx\n"
      "2986-8\tTestosterone\tlab\tng/dL\t264\t916\tmale\tlaboratory\tx\n",
      "is 'Testosterone' here but 'T'")],
)
def test_loader_rejects_bad_per_sex_rows(body: str, problem: str) -> None:
    with pytest.raises(TerminologyDataError, match=re.escape(problem)):
        parse_table("loinc", SEXED_HEADER + body, "t.tsv")


def test_a_range_conflict_between_rows_is_an_error_not_a_silent_first_wins() -> None:
    first, = parse_table("loinc", SEXED_HEADER + "2986-8\tT\tlab\tng/dL\t264\t916\tmale\t"
                         "laboratory\tx\n")
    other, = parse_table("loinc", SEXED_HEADER + "2986-8\tT\tlab\tng/dL\t300\t1000\tmale\t"
                         "laboratory\tx\n")
    female, = parse_table("loinc", SEXED_HEADER + "2986-8\tT\tlab\tng/dL\t9\t55\tfemale\t"
                          "laboratory\tx\n")
    with pytest.raises(ValueError, match="the male range is 300.0-1000.0 here but 264.0-916.0"):
        tables.merge_ranges(first, other)
    merged = tables.merge_ranges(first, female)
    assert [(r.sex, r.high) for r in merged.ranges] == [("male", 916), ("female", 55)]
    assert tables.merge_ranges(merged, first) is merged
