"""Derived expectations of hematology and oncology tasks."""

from __future__ import annotations

from typing import Any

GANZONI_TARGET_HB = 15.0  # g/dL, body weight >= 35 kg
GANZONI_STORES_MG = 500.0  # iron stores, body weight >= 35 kg
FCM_DOSE_MG = 750  # ferric carboxymaltose per dose, weight >= 50 kg (Injectafer label)
FCM_COURSE_MG = 1500


def iron_deficit(values: dict[str, Any]) -> dict[str, Any]:
    """Ganzoni total iron deficit and the IV iron course, from weight and hemoglobin."""
    weight = float(values["weight_kg"])
    hgb = float(values["hgb"])
    deficit = weight * (GANZONI_TARGET_HB - hgb) * 2.4 + GANZONI_STORES_MG
    single_max = min(1000, int(round(15 * weight)))  # label: 15 mg/kg up to 1000 mg once
    return {
        "tsat": int(round(100 * float(values["serum_iron"]) / float(values["tibc"]))),
        "hct": round(hgb * 3.05),
        "iron_deficit_mg": int(round(deficit)),
        "fcm_dose_mg": FCM_DOSE_MG,
        "fcm_course_mg": FCM_COURSE_MG,
        "fcm_single_max_mg": single_max,
        "fcm_note_mid_mg": (FCM_DOSE_MG + single_max) / 2,
        "fcm_note_tol_mg": (single_max - FCM_DOSE_MG) / 2,
        "remaining_after_course_mg": max(0, int(round(deficit)) - FCM_COURSE_MG),
        "weight_last_year": int(weight) + 3,
        "weight_5m": int(weight) + 2,
    }


def aiha_dosing(values: dict[str, Any]) -> dict[str, Any]:
    """Prednisone 1 mg/kg/day for warm AIHA (accepted 0.8-1.2 mg/kg), and derived labs."""
    weight = float(values["weight_kg"])
    total = float(values["bili_total"])
    return {
        "pred_mg": int(round(weight / 10) * 10),
        "pred_min_mg": int(round(0.8 * weight)),
        "pred_max_mg": int(round(1.2 * weight)),
        "pred_tol_mg": round(0.2 * weight, 1),
        "bili_indirect": round(total - 0.4, 1),
        "hct_aiha": round(float(values["hgb"]) * 3.1),
        "weight_last_year": int(weight) + 1,
    }
