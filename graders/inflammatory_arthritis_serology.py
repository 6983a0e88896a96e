"""inflammatory_arthritis_serology: the serologies and the exam decide the path.

- ra (canonical): 14 weeks of symmetric small-joint synovitis, RF and anti-CCP positive, HBsAg,
  anti-HBc and HCV antibody negative -> rheumatoid arthritis; 2010 ACR/EULAR score from the joint
  count (>10 joints incl. small: 5; 4-10 small: 3), serology (high positive >3x ULN: 3; low: 2),
  CRP/ESR abnormal (1) and duration >= 6 weeks (1). Methotrexate once weekly with folic acid,
  hand and foot radiographs, urgent rheumatology referral.
- hbv: the same arthritis, but HBsAg and anti-HBc positive -> no methotrexate (or leflunomide);
  HBV DNA and hepatology referral first; radiographs and rheumatology referral as above.
- viral: 3 weeks of polyarthritis after a child's fifth disease, parvovirus B19 IgM positive, RF
  and anti-CCP negative -> parvovirus B19 arthritis, self-limited: an NSAID, no DMARD, no
  glucocorticoid; rheumatology only if it persists beyond 6 weeks.
"""

from __future__ import annotations

from typing import Any

RX = "http://www.nlm.nih.gov/research/umls/rxnorm|"
METHOTREXATE = ["105585"]
FOLIC_ACID = ["310410"]
PREDNISONE = ["312617", "312615"]
DEXAMETHASONE = ["197582"]
CELECOXIB = ["205322", "205323"]
NAPROXEN = ["198014"]
IBUPROFEN = ["310965"]
HCQ = ["979092"]
# Joint-count text per band, with the exam's counts (2010 ACR/EULAR domain A).
JOINTS = {
    "over_10": ("MCP 2-4 and PIP 2-3 of both hands, both wrists and MTP 2-3 of both feet "
                "(16 small joints)", 5, 16),
    "small_4_10": ("MCP 2-3 and PIP 2-3 of both hands (8 small joints); wrists, knees and feet "
                   "without synovitis", 3, 8),
}
ULN_RF, ULN_CCP = 14, 20


def _rx(codes: list[str]) -> list[str]:
    return [RX + c for c in codes]


def arthritis(values: dict[str, Any]) -> dict[str, Any]:
    kind = values["scenario"]["kind"]
    band = "small_4_10" if kind == "viral" else values["joints"]["band"]
    joint_text, joint_points, joint_count = JOINTS[band]
    if kind == "viral":
        rf, ccp, sero_points, sero_text = 9, 4, 0, "negative"
        weeks, duration_points = 3, 0
    elif values["titer"]["level"] == "high":
        rf, ccp, sero_points = 118, 186, 3
        sero_text = "high-positive (more than 3 times the upper limit)"
        weeks, duration_points = 14, 1
    else:
        rf, ccp, sero_points, sero_text = 31, 38, 2, "low-positive (up to 3 times the upper limit)"
        weeks, duration_points = 14, 1
    score = joint_points + sero_points + 1 + duration_points
    if kind != "viral" and score < 6:
        raise ValueError(f"RA branch must meet the criteria, got {score}")
    return {
        "kind": kind,
        "joint_text": joint_text,
        "joint_count": joint_count,
        "joint_points": joint_points,
        "rf": rf,
        "ccp": ccp,
        "sero_points": sero_points,
        "sero_text": sero_text,
        "weeks": weeks,
        "duration_points": duration_points,
        "score": score,
        "uln_rf": ULN_RF,
        "uln_ccp": ULN_CCP,
        "methotrexate_rxnorm": _rx(METHOTREXATE),
        "folic_acid_rxnorm": _rx(FOLIC_ACID),
        "prednisone_rxnorm": _rx(PREDNISONE),
        "dexamethasone_rxnorm": _rx(DEXAMETHASONE),
        # every systemic glucocorticoid in the RxNorm tables
        "glucocorticoid_rxnorm": _rx(PREDNISONE + DEXAMETHASONE),
        "nsaid_rxnorm": _rx(NAPROXEN + IBUPROFEN),
        "celecoxib_rxnorm": _rx(CELECOXIB),
        "csdmard_rxnorm": _rx(METHOTREXATE + HCQ),
        "diagnosis": {"ra": "seropositive rheumatoid arthritis",
                      "hbv": "seropositive rheumatoid arthritis with chronic hepatitis B (HBsAg "
                             "positive)",
                      "viral": "parvovirus B19 arthritis (acute viral polyarthritis)"}[kind],
    }
