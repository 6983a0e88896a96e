"""Verb classes physicians use to state a plan, so specs name the intent, not the wording."""

from __future__ import annotations

ACTIONS: dict[str, list[str]] = {
    "start": ["start", "starting", "started on", "initiate", "initiating", "initiation of",
              "begin", "commence", "prescribe", "prescribing", "prescribed", "add", "adding",
              "trial of", "recommend", "recommended", "plan for", "place on", "put on",
              "new rx", "rx", "will give", "give", "treat with", "treatment with"],
    "increase": ["increase", "increasing", "increased to", "uptitrate", "up-titrate",
                 "titrate up", "titrate to", "raise", "raising", "escalate", "go up", "bump",
                 "higher dose", "dose increase", "change the dose to", "adjust to", "re:\u2191"],
    "decrease": ["decrease", "decreasing", "decreased to", "reduce", "reducing", "reduced to",
                 "lower", "lowering", "titrate down", "down-titrate", "taper", "tapering",
                 "cut back", "dose reduction", "wean", "re:\u2193"],
    "stop": ["stop", "stopped", "stopping", "discontinue", "discontinuing", "discontinuation",
             "d/c", "dc", "cease", "hold", "held", "holding", "withdraw", "come off", "taper off"],
    "continue": ["continue", "continuing", "maintain", "maintaining", "keep", "no change",
                 "unchanged", "remain on", "stay on", "same dose", "current dose"],
    "order": ["order", "ordered", "ordering", "obtain", "check", "checking", "send", "draw",
              "get", "schedule", "scheduled", "arrange", "request", "requested", "repeat",
              "recheck", "re-check", "measure", "perform", "refer", "referral", "proceed with",
              "recommend", "recommended", "plan"],
    "diagnose": ["consistent with", "diagnosis", "diagnosed", "likely", "most likely",
                 "suggestive of", "indicative of", "c/w", "represents", "meets criteria",
                 "due to", "secondary to", "confirms", "assessment", "impression", "is", "has"],
}


def expand(actions: list[str]) -> list[str]:
    """Expand verb-class names (``increase``) into their phrases; other items pass through."""
    phrases: list[str] = []
    for item in actions:
        phrases += ACTIONS.get(item, [item])
    return phrases
