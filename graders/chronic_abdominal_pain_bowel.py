"""chronic_abdominal_pain_bowel: the neuromodulator for IBS-D abdominal pain, and the opioid plan.

Two chart facts decide the answer (ACG 2021 IBS guideline; Rome Foundation neuromodulator report):
- qt: normal (canonical) -> start a low-dose tricyclic antidepressant (amitriptyline 10 mg at
  bedtime; nortriptyline accepted, 10-25 mg a day). lqts: congenital long QT syndrome -> no
  tricyclic, no citalopram/escitalopram and no ondansetron (QT-prolonging, HRS/EHRA/APHRS 2013;
  CredibleMeds);
  refer for gut-directed brain-gut behavioral therapy (CBT or hypnotherapy) instead.
- opioid: active (oxycodone-acetaminophen from urgent care, in use) -> stop or taper it;
  completed (a kidney-stone course 3 years ago) -> nothing to stop. Both: no new opioid.
Every branch: no repeat colonoscopy or CT without alarm features (ACG 2021).
"""

from __future__ import annotations

from typing import Any

from physbench_gym.synth import terminology

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
CPT = "http://www.ama-assn.org/go/cpt|"
# Every colonoscopy and CT-abdomen row of the orderables table: repeated without alarm
# features they change nothing (ACG 2021).
REPEAT_TESTS = ["45378", "45380", "45385", "74150", "74170", "74174", "74175", "74176", "74177",
                "74178"]
# Known risk of torsades (CredibleMeds): the SSRIs citalopram/escitalopram and ondansetron
# (ZOFRAN label 5.2: avoid in congenital long QT syndrome).
QT_OTHER = ("citalopram", "escitalopram", "ondansetron")


def _codes(pred) -> list[str]:
    return sorted(RX + c.code for c in terminology.all_concepts("rxnorm") if pred(c))


def _klass(c: Any) -> str:
    return (c.extra.get("drug_class") or "").lower()


def _ingredient(c: Any) -> str:
    return (c.extra.get("ingredient") or "").lower()


def chronic_abdominal_pain(values: dict[str, Any]) -> dict[str, Any]:
    qt = values["qt"]["name"]
    opioid = values["opioid"]["name"]
    tca = _codes(lambda c: "tricyclic" in _klass(c))
    qt_other = _codes(lambda c: _ingredient(c) in QT_OTHER)
    opioids = _codes(lambda c: "opioid" in _klass(c) and "antagonist" not in _klass(c)
                     and "naloxone" not in _ingredient(c) and "naltrexone" not in _ingredient(c))
    return {
        "tca_codes": tca,
        "qt_drug_codes": tca + qt_other,
        "opioid_codes": opioids,
        "repeat_test_codes": [CPT + c for c in REPEAT_TESTS],
        "tca_allowed": qt == "normal",
        "opioid_active": opioid == "active",
        "neuromodulator_text": ("amitriptyline 10 mg at bedtime" if qt == "normal" else
                                "no tricyclic, citalopram or ondansetron (congenital long QT "
                                "syndrome); referral for gut-directed CBT or hypnotherapy"),
        "pcp_opioid_text": (
            "She has been taking the oxycodone-acetaminophen from urgent care, 2-3 tablets most "
            "days, for the pain, with some constipation on those days; she asked for a refill."
            if opioid == "active" else
            "She takes acetaminophen occasionally; no opioid since the kidney stone."),
        "pcp_qt_text": ("No cardiac history, no syncope; QTc 412 ms on an ECG 2 years ago."
                        if qt == "normal" else
                        "Congenital long QT syndrome on propranolol, followed by cardiology."),
        "opioid_text": ("stop or taper the oxycodone-acetaminophen from urgent care"
                        if opioid == "active" else "no opioid (none in use)"),
    }
