"""svt_tuberous_sclerosis: kidney function and the suppressive agent the chart allows.

The profile decides the agent (2015 ACC/AHA/HRS SVT guideline, Table 7 and sections 5-7):
everolimus (CYP3A4/P-gp substrate) without pre-excitation or asthma -> beta blocker, no
diltiazem/verapamil; active asthma, no mTOR inhibitor -> diltiazem or verapamil, no beta
blocker; manifest pre-excitation -> EP referral for ablation and flecainide (or propafenone)
meanwhile, no diltiazem, verapamil or digoxin.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from physbench_gym.grading.core import WRITE, CheckpointResult, GradingContext, triggered_by

# Accepted starting orders: (label, RxNorm codes, min/max mg per dose, min/max doses a day).
ORDERS = {
    "beta_blocker": [
        ("metoprolol tartrate 12.5-100 mg twice daily", ["866924", "866514", "866511"], 12.5, 100, 2, 2),
        ("metoprolol succinate 25-200 mg daily", ["866427", "866436", "866412", "866419"], 25, 200, 1, 1),
        ("atenolol 25-50 mg daily", ["197380", "197381"], 25, 50, 1, 1),
        ("bisoprolol 2.5-10 mg daily", ["854905"], 2.5, 10, 1, 1),
        ("propranolol 10-40 mg two to four times daily", ["856457"], 10, 40, 2, 4),
    ],
    "ndhp_ccb": [
        ("diltiazem ER 120-360 mg daily", ["830861"], 120, 360, 1, 1),
        ("verapamil ER 120-240 mg once or twice daily", ["897640", "897612"], 120, 240, 1, 2),
    ],
    "class_ic": [
        ("flecainide 50-100 mg twice daily", ["886662", "886666"], 50, 100, 2, 2),
        ("propafenone 150-225 mg three times daily", ["861424"], 150, 225, 3, 3),
    ],
}
# The same plans as the note states them: (lexicon concept, min mg, max mg, doses a day).
NOTE_PLANS = {
    "beta_blocker": [("metoprolol", 12.5, 100, 1, 2), ("atenolol", 25, 50, 1, 1),
                     ("bisoprolol", 2.5, 10, 1, 1), ("propranolol", 10, 40, 2, 4)],
    "ndhp_ccb": [("diltiazem", 60, 360, 1, 2), ("verapamil", 80, 240, 1, 3)],
    "class_ic": [("flecainide", 50, 100, 2, 2), ("flecainide", 150, 225, 3, 3)],
}
# Drugs that must not be ordered (names in the order) or planned (lexicon concepts).
MUST_NOT = {
    "beta_blocker": (["diltiazem", "verapamil"], ["ndhp_ccb"]),
    "ndhp_ccb": (["metoprolol", "atenolol", "bisoprolol", "propranolol", "nadolol", "carvedilol",
                  "nebivolol", "labetalol", "sotalol"], ["beta_blocker"]),
    "class_ic": (["diltiazem", "verapamil", "digoxin"], ["ndhp_ccb", "digoxin"]),
}


def ckd_epi_2021(creatinine: float, age: int, female: bool) -> float:
    """CKD-EPI 2021 race-free creatinine equation (mL/min/1.73 m2)."""
    kappa, alpha = (0.7, -0.241) if female else (0.9, -0.302)
    ratio = creatinine / kappa
    return (142 * min(ratio, 1) ** alpha * max(ratio, 1) ** -1.2 * 0.9938 ** age
            * (1.012 if female else 1.0))


def svt_tsc(values: dict[str, Any]) -> dict[str, Any]:
    age, female = int(values["age"]), values["gender"] == "female"
    target = int(values["egfr_target"])
    # Creatinine above kappa for eGFR < 90: invert the equation, round as a lab reports it.
    base = 142 * 0.9938 ** age * (1.012 if female else 1.0)
    creat = round((0.7 if female else 0.9) * (target / base) ** (-1 / 1.2), 2)
    egfr = round(ckd_epi_2021(creat, age, female))
    if not 30 <= egfr < 90:
        raise ValueError(f"variant outside the task's design: eGFR {egfr}")
    stage = "2" if egfr >= 60 else "3a" if egfr >= 45 else "3b"
    agent = values["profile"]["agent"]
    names, concepts = MUST_NOT[agent]
    order_options = [{"ordered": {
        "resource_type": "MedicationRequest", "codes": codes, "status": ["active"],
        "intent": ["order"], "dose": {"min": lo, "max": hi, "unit": "mg"},
        "per_day": {"min": n1, "max": n2}, "label": label}}
        for label, codes, lo, hi, n1, n2 in ORDERS[agent]]
    note_options = [{"note_decision": {
        "concept": [concept], "action": ["start"], "dose": {"min": lo, "max": hi, "unit": "mg"},
        "every": {"min": n1, "max": n2}, "label": f"start {concept} {lo:g}-{hi:g} mg"}}
        for concept, lo, hi, n1, n2 in NOTE_PLANS[agent]]
    now = values["now"]
    return {
        "creatinine": creat, "egfr": egfr, "ckd_stage": stage,
        "ckd_code": {"2": "431856006", "3a": "700378005", "3b": "700379002"}[stage],
        "prior_creatinine": round(creat * 0.86, 2),
        "prior_egfr": round(ckd_epi_2021(round(creat * 0.86, 2), age - 3, female)),
        "order_options": order_options,
        "note_options": note_options,
        "forbidden_names": names,
        "forbidden_concepts": concepts,
        "followup_start": (now + timedelta(days=42)).strftime("%Y-%m-%dT10:00:00Z"),
        "followup_date": (now + timedelta(days=42)).strftime("%Y-%m-%d"),
    }


@triggered_by(WRITE)
def followup_booked(ctx: GradingContext) -> CheckpointResult:
    """Booked a follow-up visit for this patient (the patient is an Appointment participant,
    which the `ordered` primitive does not read), starting 2-12 weeks from now if dated."""
    now = ctx.values["now"]
    low, high = (now + timedelta(weeks=2)).date().isoformat(), (now + timedelta(weeks=12)).date().isoformat()
    for appt in ctx.written("Appointment"):
        actors = [(p.get("actor") or {}).get("reference", "") for p in appt.get("participant", [])]
        if f"Patient/{ctx.patient_id}" not in actors or appt.get("status") == "cancelled":
            continue
        start = str(appt.get("start") or "")[:10]
        if not start or low <= start <= high:
            return CheckpointResult(True, f"follow-up visit booked{' for ' + start if start else ''}")
    return CheckpointResult(False, f"no follow-up visit booked for {low} to {high}")
