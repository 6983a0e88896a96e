"""A worked example of a patient story, written the way task specs embed one (YAML)."""

from __future__ import annotations

import yaml

from physbench_gym.synth.story import Story

HYPOTHYROID_STORY_YAML = """\
now: 2026-03-14T09:30:00Z
patient:
  id: pt-thyroid-001
  mrn: "90412277"
  given: Maria E.
  family: Lopez
  gender: female
  birth_date: 1967-08-21
pcp: prac-pcp-02
history_years: 5
conditions:
  - {code: "40930008", onset: -6y, note: "Post-partum onset; TPO antibodies positive."}
  - {code: "55822004", onset: -4y}
  - {code: "59621000", onset: -3y}
medications:
  - code: "966222"
    start: -6y
    dose: 75 ug
    frequency: daily
    sig: Take 1 tablet (75 mcg) by mouth every morning on an empty stomach
    reason: "40930008"
    refills: 11
  - code: "197361"
    start: -3y
    dose: 5 mg
    frequency: daily
    reason: "59621000"
  - code: "310965"
    start: -2y
    stop: -18m
    status: completed
    dose: 400 mg
    frequency: TID
    as_needed: true
labs:
  - code: "3016-3"
    trend: {start: 2.1, end: 3.9, from: -5y, to: -13m, every: 6m, noise: 0.3, digits: 2}
    points:
      - {date: -7m, value: 6.8}
      - {date: -2w, value: 9.84}
  - code: "3024-7"
    points:
      - {date: -7m, value: 0.9}
      - {date: -2w, value: 0.72}
vitals:
  - code: "29463-7"
    trend: {start: 76.0, end: 77.5, from: -5y, to: -13m, every: 6m, noise: 0.6, digits: 1}
    points:
      - {date: -7m, value: 79.6}
      - {date: -2w, value: 82.4}
social:
  - {code: "72166-2", date: -2w, value_code: "266919005"}
allergies:
  - {substance: Sulfonamide antibiotics, reaction: hives, severity: moderate, recorded: -10y}
immunizations:
  - {cvx: "187", date: -2y}
notes:
  - type: "11506-3"
    date: -2w
    title: Fatigue and weight gain
    author: pcp
    text: |
      PROGRESS NOTE
      SUBJECTIVE: Maria Lopez, 58-year-old woman with hypothyroidism on levothyroxine 75 mcg
      daily for six years, reports three months of fatigue, cold intolerance and constipation.
      She started an over-the-counter calcium supplement with breakfast last autumn and takes
      it together with her levothyroxine.
      OBJECTIVE: Weight 82.4 kg (79.6 kg seven months ago). BP 128/78. HR 62.
      TSH 9.84 mIU/L (high), free T4 0.72 ng/dL (low).
      ASSESSMENT: Under-replaced hypothyroidism, likely reduced absorption from co-ingested
      calcium; adherence reported as good.
      PLAN: Separate calcium from levothyroxine by at least 4 hours. E-consult to endocrinology
      regarding dose adjustment. Recheck TSH in 6-8 weeks.
"""


def hypothyroid_story() -> Story:
    """A hypothyroid patient with a rising TSH on levothyroxine, weight stated in a note."""
    return Story.model_validate(yaml.safe_load(HYPOTHYROID_STORY_YAML))
