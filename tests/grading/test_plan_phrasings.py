"""Plan and result lines written from a meaning alone (``data/plan_phrasings.yaml``): correct
lines pass the meaning's grader, wrong ones fail it. The lines the reader still misreads are
pinned below as strict xfails, so a reader change shows which it fixed or broke."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from physbench_gym._resources import load_yaml
from physbench_gym.grading.core import GradingContext, build_grader

NOTE = "/workspace/output/consult_note.md"
NOW = datetime(2026, 4, 14, 9, 0)
MEANINGS = load_yaml((Path(__file__).parent / "data" / "plan_phrasings.yaml").read_text())

# Lines read wrongly today: '<meaning>-c<n>' a correct line failing, '<meaning>-w<n>' a wrong
# line passing.
MISREAD = frozenset("""
A2-c7 A3-c7 A4-w0 A6-c3 A8-c6 A8-c7 A8-c11 B1-c10 B1-w2 B3-c8 B3-w2 B4-c7 B5-c5 B5-c8 B6-c5 B6-c7
B6-c12 B8-w2 B9-c10 C2-w5 C3-c8 C4-w3 C4-w4 C5-w4 C5-w5 C6-c4 C6-c9 C6-c10 C7-c6 C7-w3 C7-w5 C8-w4
C8-w5 D2-c7 D2-w0 D3-c6 D3-c7 D4-c6 D4-c8 D4-c9 D5-c6 D6-c12 D7-c2 D7-w2 D8-c8 D9-w5 D11-c6 E2-c6
E2-c7 E2-w0 E3-c10 E4-c4 E4-c12 E4-w5 E5-c11 E6-c2 E6-c9 E9-c8 E11-c9 E11-c13 E11-w2 E12-w5 F2-c4
F4-w5 F5-w4 F6-w5 F7-w4 F8-w3 G3-c12 G4-c2 G4-c6 G4-c8 G5-w5 G6-c2 G6-c13 G7-c8 G8-c9 G9-w3 G10-c11
G10-w3 G10-w5 G11-c1 G11-c6 G11-w4 G12-w5 H1-c5 H1-w0 H1-w2 H2-c5 H2-c12 H2-w2 H2-w4 H3-c4 H3-c5
H3-c12 H3-w5 H4-c4 H4-c5 H4-c7 H4-c12 H5-c4 H5-c12 H6-c4 H6-c12 H7-c5 H7-c7 H10-c6 H10-w5 H11-c13
H11-w5 H12-c5 H12-c7 H12-w0 I2-w3 I3-w5 I4-c0 I4-c1 I4-c2 I4-c3 I4-c4 I4-c5 I4-c6 I4-c9 I4-c11
I4-c12 I4-c13 I5-c10 I5-w3 I7-c11 I7-w4 I8-c6 I8-w3 I8-w4 I8-w5 J4-c4 J4-w5 J5-c8 J6-w4 J7-c4 J7-c5
J7-c6 J7-w5 J8-c4 J8-w0 J8-w4 K2-w0 K6-w1 K7-w2 L1-w4 L2-w1 L2-w3 L4-w4 L5-w2 L6-w4 L7-w0 L8-w3
L9-w2 L9-w3 L10-w0 L10-w3 L10-w4 L11-c1 M1-c0 M1-c8 M1-w3 M2-c7 M2-c8 M3-c1 M3-c4 M4-c1 M4-c7 M4-c9
M4-w3 M5-c3 M5-c4 M5-c5 M5-c6 M5-c7 M5-c8 M5-c9 M5-w3 M6-c0 M6-c2 M6-c5 M6-c7 M6-c8 M6-w1 M6-w2
M6-w3 M7-c4 M7-c6 M7-c7 M7-c9 M8-c3 M8-c4 M8-w4 M9-c4 M9-c7 M9-w4 M10-c2 M11-c1 M11-c2 M11-c6 M11-c7
M11-c9 M11-w3 M12-c3 M12-c9 M12-w1 M12-w4
""".split())


def _cases():
    for meaning in MEANINGS:
        for kind, lines in (("c", meaning["correct"]), ("w", meaning["wrong"])):
            for n, line in enumerate(lines):
                case_id = f"{meaning['meaning']}-{kind}{n}"
                text = line if kind == "c" else line["text"]
                marks = [pytest.mark.xfail(strict=True, reason="pinned misreading")] \
                    if case_id in MISREAD else []
                yield pytest.param(meaning["grader"], text, kind == "c", id=case_id, marks=marks)


@pytest.mark.parametrize(("grader", "line", "passes"), list(_cases()))
def test_line_reads_as_meant(empty_client, grader, line, passes):
    ctx = GradingContext(client=empty_client, episode_tag={"system": "s", "code": "c"},
                         patient_id="p1", note_path=NOTE, files={NOTE: line}, values={"now": NOW})
    result = build_grader(grader).check(ctx)
    assert result.passed is passes, result.reason
