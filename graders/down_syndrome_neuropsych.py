"""down_syndrome_neuropsych: cognitive and behavioural decline in an adult with Down syndrome.

The cause branch decides the answer (NTG 2013 consensus; Tsou 2020 GLOBAL adult Down syndrome
guideline; Fortea 2021 Lancet Neurol):
- alzheimer: reversible causes excluded (TSH normal on levothyroxine, B12 normal, OSA treated
  with CPAP, hearing aided, no depression) and a two-year decline on serial NTG-EDSD reviews ->
  Down syndrome-associated Alzheimer disease: start donepezil 5 mg once daily (2.5 mg accepted).
- hypothyroid: TSH risen to {tsh} with a low free T4 on levothyroxine 75 mcg -> under-replaced
  hypothyroidism, a reversible cause: raise levothyroxine (88-112 mcg, one 12.5-37.5 mcg step)
  and defer donepezil until cognition is reassessed once euthyroid.
In both: stop the long-standing anticholinergic drug (it opposes a cholinesterase inhibitor and
worsens cognition; AGS Beers 2023 tables 3 and 7) and no antipsychotic for the evening agitation.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"


def _rxnorm(pred) -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm") if pred(c))


# Strongly anticholinergic drug classes of the terminology (AGS Beers 2023 table 7 list; avoid in
# dementia, table 3)
ANTICHOLINERGIC_CLASSES = (
    "bladder antimuscarinic",
    "first-generation antihistamine",
    "tricyclic antidepressant",
)
# Lexicon concepts of those drugs. The `amitriptyline` concept also carries the words
# nortriptyline, TCA and
# tricyclic, so for that draw a 'start' of the concept is a switch to another tricyclic and stays
# forbidden.
ANTICHOLINERGIC_CONCEPTS = {
    "oxybutynin": [
        "tolterodine",
        "solifenacin",
        "trospium",
        "darifenacin",
        "fesoterodine",
        "bladder_anticholinergic",
        "first_gen_antihistamine",
        "amitriptyline",
        "tricyclic_antidepressant",
    ],
    "diphenhydramine": [
        "first_gen_antihistamine",
        "bladder_antimuscarinic",
        "amitriptyline",
        "tricyclic_antidepressant",
    ],
    "amitriptyline": [
        "tricyclic_antidepressant",
        "bladder_antimuscarinic",
        "first_gen_antihistamine",
    ],
}
# What 'not stopping' the drug she already takes means. 'start' of the drug she is on is no
# realistic plan
# (and the reader takes 'anticholinergic load from oxybutynin' for a loading start); for
# amitriptyline the
# concept also names the other tricyclics, so 'start' stays.
KEEP_ACTIONS = ["continue", "resume", "increase", "keep_dose", "endorse"]


def down_syndrome_plan(values: dict[str, Any]) -> dict[str, Any]:
    cause = values["cause"]["name"]
    if cause not in ("alzheimer", "hypothyroid"):
        raise ValueError(f"unknown cause {cause!r}")
    hypo = cause == "hypothyroid"
    now = values["now"]

    def day(months: int) -> str:  # the date about ``months`` months before now
        return (now - timedelta(days=round(months * 30.44))).date().isoformat()

    drug = values["anticholinergic"]["name"]
    return {
        # date windows of the oracle's progress-note searches (whole lists exceed the page)
        "since_5m": day(5),
        "from_26m": day(26),
        "to_22m": day(22),
        "from_64m": day(64),
        "to_58m": day(58),
        # latest TSH / free T4 (3 weeks ago) and the TSH of 18 months ago
        "tsh": values["tsh_high"] if hypo else 2.3,
        "ft4": 0.6 if hypo else 1.2,
        "tsh_mid": 6.4 if hypo else 3.1,
        "levothyroxine_rxnorm": _rxnorm(
            lambda c: "levothyroxine" in c.extra.get("ingredient", "").lower()
        ),
        "donepezil_rxnorm": _rxnorm(lambda c: "donepezil" in c.extra.get("ingredient", "").lower()),
        "antipsychotic_rxnorm": _rxnorm(
            lambda c: c.extra.get("drug_class", "").lower() == "antipsychotic"
        ),
        "benzodiazepine_rxnorm": _rxnorm(
            lambda c: c.extra.get("drug_class", "").lower() == "benzodiazepine"
        ),
        "anticholinergic_rxnorm": _rxnorm(
            lambda c: c.extra.get("drug_class", "").lower() in ANTICHOLINERGIC_CLASSES
        ),
        # donepezil is the drug of the alzheimer branch; every anti-dementia drug is deferred in
        # the other
        "anti_dementia_rxnorm": _rxnorm(
            lambda c: (
                c.extra.get("drug_class", "").lower()
                in ("cholinesterase inhibitor", "nmda receptor antagonist")
            )
        ),
        "memantine_rxnorm": _rxnorm(lambda c: "memantine" in c.extra.get("ingredient", "").lower()),
        "other_anticholinergics": ANTICHOLINERGIC_CONCEPTS[drug],
        "anticholinergic_keep": KEEP_ACTIONS + (["start"] if drug == "amitriptyline" else []),
    }
