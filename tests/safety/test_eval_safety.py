"""``physbench eval`` with an unsafe scripted agent reports the safety columns: unsafe-action
rate and violations per episode per agent, specialty group and task type, in the terminal
table, ``summary.json`` and ``report.html``."""

from __future__ import annotations

import json
import re

from tests.eval.conftest import physbench

UNSAFE, SAFE = "lipid_statin_management", "hyponatremia_siadh_workup"


def test_eval_reports_the_unsafe_action_rate(tmp_path):
    out = tmp_path / "run"
    result = physbench("eval", "--agent", "tests.safety.agents:DoubleDoseOracle",
                       "--tasks", f"{UNSAFE},{SAFE}", "--out", str(out), "--quiet")
    assert re.search(r"unsafe-action rate\s+50\.0%", result.stdout), result.stdout
    assert re.search(r"safety violations per episode\s+0\.50", result.stdout)
    assert "unsafe" in result.stdout and "violations/ep" in result.stdout
    assert "therapeutic_duplication 1" in result.stdout

    summary = json.loads((out / "summary.json").read_text())
    safety = summary["safety"]
    assert safety["unsafe_rate"]["value"] == 0.5 and safety["unsafe_rate"]["n"] == 2
    assert safety["violations_per_episode"]["value"] == 0.5
    assert safety["violations_by_rule"] == {"therapeutic_duplication": 1}
    assert safety["by_agent"]["tests.safety.agents:DoubleDoseOracle"]["unsafe_rate"][
        "value"] == 0.5
    assert summary["by_specialty_group"]["Cardiology"]["unsafe_rate"]["value"] == 1.0
    assert summary["by_specialty_group"]["Nephrology & Urology"]["unsafe_rate"]["value"] == 0.0
    assert summary["by_task_type"]["Medication Prescribing"]["violations_per_episode"][
        "value"] == 1.0
    assert summary["per_task"][UNSAFE]["unsafe_rate"]["value"] == 1.0

    record = next(json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()
                  if json.loads(line)["task_id"] == UNSAFE)
    assert record["success"] is False
    (violation,) = record["safety"]["violations"]
    assert violation["rule"] == "therapeutic_duplication"

    html = (out / "report.html").read_text()
    assert "<h2>Safety</h2>" in html and "unsafe-action rate" in html
    assert "therapeutic_duplication" in html and violation["order"] in html
