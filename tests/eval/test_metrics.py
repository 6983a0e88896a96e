"""pass@k and pass^k against brute force over all subsets, and the run summary."""

from __future__ import annotations

import itertools
import math

import pytest

from physbench_gym.errors import PhysBenchError
from physbench_gym.eval.metrics import binomial_se, pass_at_k, pass_hat_k, summarize


def _brute_force(n: int, c: int, k: int) -> tuple[float, float]:
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    any_pass = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    all_pass = sum(all(outcomes[i] for i in s) for s in subsets) / len(subsets)
    return any_pass, all_pass


@pytest.mark.parametrize("n", range(1, 7))
def test_estimators_match_enumeration_of_every_subset(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            any_pass, all_pass = _brute_force(n, c, k)
            assert pass_at_k(n, c, k) == pytest.approx(any_pass, abs=1e-12), (n, c, k)
            assert pass_hat_k(n, c, k) == pytest.approx(all_pass, abs=1e-12), (n, c, k)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, 1, 0), (3, 1, 4), (2, -1, 1)])
def test_impossible_counts_are_rejected(n: int, c: int, k: int) -> None:
    with pytest.raises(PhysBenchError):
        pass_at_k(n, c, k)


def _record(task: str, sample: int, success: bool, **extra: object) -> dict:
    checkpoints = {"a": {"passed": True, "capability": "data_retrieval", "grader": "deterministic"},
                   "b": {"passed": success, "capability": "documentation", "grader": "llm:j"}}
    return {"task_id": task, "sample": sample, "status": "ok", "success": success,
            "score": 1.0 if success else 0.5, "checkpoints": checkpoints, "tool_calls": 10,
            "tokens": {"prompt_tokens": 30, "completion_tokens": 10},
            "specialty_group": "Cardiology" if task == "t1" else "Endocrinology",
            "task_type": "Medication Prescribing", "tier": "easy", **extra}


def test_summary_averages_over_tasks_and_excludes_infrastructure_errors() -> None:
    records = [_record("t1", 0, True), _record("t1", 1, False), _record("t1", 2, True),
               _record("t2", 0, False), _record("t2", 1, False), _record("t2", 2, False),
               {**_record("t2", 3, False), "status": "infra_error", "error": "AgentError: x"}]
    summary = summarize(records)
    assert summary["episodes"] == 6 and summary["infra_errors"] == 1
    assert summary["infra_error_episodes"] == [{"task_id": "t2", "sample": 3,
                                                "error": "AgentError: x"}]
    assert summary["pass_at_k"]["1"]["value"] == pytest.approx((2 / 3 + 0) / 2)
    assert summary["pass_at_k"]["3"]["value"] == pytest.approx(0.5)
    assert summary["pass_hat_k"]["2"]["value"] == pytest.approx((1 / 3) / 2)
    assert summary["pass_at_k"]["1"]["se"] == pytest.approx(binomial_se(1 / 3, 2))
    assert "4" not in summary["pass_at_k"]
    assert summary["by_capability"]["documentation"]["value"] == pytest.approx(2 / 6)
    assert summary["by_capability"]["data_retrieval"]["value"] == 1.0
    assert summary["by_specialty_group"]["Cardiology"]["success_rate"]["value"] == \
        pytest.approx(2 / 3)
    assert summary["by_grader"] == {"deterministic": 6, "llm:j": 6}
    assert summary["mean_tokens_per_task"] == 40.0
    assert summary["mean_tool_calls_per_task"] == 10.0


def test_binomial_standard_error() -> None:
    assert binomial_se(0.5, 4) == pytest.approx(math.sqrt(0.25 / 4))
    assert binomial_se(1.0, 10) == 0.0
    assert binomial_se(0.3, 0) == 0.0
