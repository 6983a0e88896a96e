from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_synth_command_writes_ndjson_and_transaction_bundles(tmp_path):
    out = tmp_path / "ehr"
    done = subprocess.run(
        [sys.executable, "-m", "physbench_gym.cli", "synth", "--patients", "20", "--seed", "1",
         "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "20 patients" in done.stdout and str(out) in done.stdout
    ndjson = {path.stem: path for path in out.glob("*.ndjson")}
    assert {"Patient", "Practitioner", "Organization", "Encounter", "Observation"} <= set(ndjson)
    counts = Counter()
    for kind, path in ndjson.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            resource = json.loads(line)
            assert resource["resourceType"] == kind
            counts[kind] += 1
    assert counts["Patient"] == 20
    bundles = sorted((out / "bundles").glob("*.json"))
    assert bundles
    entries = 0
    for path in bundles:
        bundle = json.loads(path.read_text(encoding="utf-8"))
        assert bundle["resourceType"] == "Bundle" and bundle["type"] == "transaction"
        assert 0 < len(bundle["entry"]) <= 500
        for entry in bundle["entry"]:
            resource = entry["resource"]
            assert entry["request"] == {"method": "PUT",
                                        "url": f"{resource['resourceType']}/{resource['id']}"}
        entries += len(bundle["entry"])
    assert entries == sum(counts.values())
