"""Benchmark metrics over episode records: pass@k, pass^k, scores, safety and breakdowns.

``pass@k`` is the unbiased estimator of Chen et al. (2021), the chance that at least one of
``k`` samples drawn without replacement from a task's ``n`` samples succeeds; ``pass^k`` is
tau-bench's chance that all ``k`` succeed. Both are averaged over tasks with ``n >= k``.
Standard errors are binomial, ``sqrt(p (1 - p) / N)`` over the N units of the rate (episodes,
checkpoints, or tasks for pass@k / pass^k). Only records with status ``ok`` count. The
unsafe-action rate is the share of episodes with at least one safety violation.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from physbench_gym.errors import PhysBenchError

GROUPINGS = {"by_specialty_group": "specialty_group", "by_task_type": "task_type",
             "by_tier": "tier"}


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from ``c`` successes among ``n`` samples: 1 - C(n-c, k) / C(n, k)."""
    _check(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """tau-bench pass^k from ``c`` successes among ``n`` samples: C(c, k) / C(n, k)."""
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def binomial_se(p: float, n: int) -> float:
    """Standard error of a rate ``p`` measured on ``n`` Bernoulli units (0 when n is 0)."""
    return math.sqrt(max(p * (1.0 - p), 0.0) / n) if n > 0 else 0.0


def summarize(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Every metric of a run, from its (latest, one per episode key) result records."""
    records = list(records)
    ok = [r for r in records if r.get("status") == "ok"]
    per_task = _per_task(ok)
    max_n = max((t["n"] for t in per_task.values()), default=0)
    success = _rate([bool(r["success"]) for r in ok])
    return {
        "episodes": len(ok),
        "tasks": len(per_task),
        "infra_errors": len(records) - len(ok),
        "success_rate": success,
        "mean_score": _mean_se([float(r["score"]) for r in ok]),
        "pass_at_k": _averaged(per_task, max_n, pass_at_k),
        "pass_hat_k": _averaged(per_task, max_n, pass_hat_k),
        "by_capability": _by_capability(ok),
        **{name: _by_field(ok, key) for name, key in GROUPINGS.items()},
        "safety": {**_safety(ok), "by_agent": {
            name: _safety(runs) for name, runs in _grouped(ok, "agent").items()}},
        "by_grader": dict(Counter(cp.get("grader", "deterministic") for r in ok
                                  for cp in r.get("checkpoints", {}).values())),
        "terminations": dict(Counter(str(r.get("termination")) for r in ok)),
        "mean_tool_calls_per_task": _mean([t["mean_tool_calls"] for t in per_task.values()]),
        "mean_tokens_per_task": _mean([t["mean_tokens"] for t in per_task.values()]),
        "per_task": per_task,
        "infra_error_episodes": [
            {"task_id": r["task_id"], "sample": r["sample"], "error": r.get("error", "")}
            for r in records if r.get("status") != "ok"],
    }


def _check(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n or not 1 <= k <= n:
        raise PhysBenchError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _rate(flags: list[bool]) -> dict[str, Any]:
    value = _mean([float(f) for f in flags])
    return {"value": value, "se": binomial_se(value, len(flags)), "n": len(flags)}


def _mean_se(values: list[float]) -> dict[str, Any]:
    value = _mean(values)
    if len(values) < 2:
        return {"value": value, "se": 0.0, "n": len(values)}
    variance = sum((v - value) ** 2 for v in values) / (len(values) - 1)
    return {"value": value, "se": math.sqrt(variance / len(values)), "n": len(values)}


def _tokens(record: Mapping[str, Any]) -> int:
    tokens = record.get("tokens") or {}
    return int(tokens.get("prompt_tokens", 0)) + int(tokens.get("completion_tokens", 0))


def _per_task(ok: list[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    grouped: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for record in ok:
        grouped[record["task_id"]].append(record)
    table = {}
    for task_id in sorted(grouped):
        runs = grouped[task_id]
        n, c = len(runs), sum(bool(r["success"]) for r in runs)
        first = runs[0]
        table[task_id] = {
            "title": first.get("title", ""), "specialty_group": first.get("specialty_group", ""),
            "task_type": first.get("task_type", ""), "tier": first.get("tier", ""),
            "n": n, "c": c, "success_rate": c / n,
            "pass_at_k": {str(k): pass_at_k(n, c, k) for k in range(1, n + 1)},
            "pass_hat_k": {str(k): pass_hat_k(n, c, k) for k in range(1, n + 1)},
            "mean_score": _mean([float(r["score"]) for r in runs]),
            "mean_steps": _mean([float(r.get("steps", 0)) for r in runs]),
            "mean_tool_calls": _mean([float(r.get("tool_calls", 0)) for r in runs]),
            "mean_tokens": _mean([float(_tokens(r)) for r in runs]),
            "mean_wall_time": _mean([float(r.get("wall_time", 0.0)) for r in runs]),
            **_unsafe(runs),
        }
    return table


def _averaged(per_task: dict[str, dict[str, Any]], max_n: int, estimator: Any) -> dict[str, Any]:
    out = {}
    for k in range(1, max_n + 1):
        values = [estimator(t["n"], t["c"], k) for t in per_task.values() if t["n"] >= k]
        value = _mean(values)
        out[str(k)] = {"value": value, "se": binomial_se(value, len(values)),
                       "tasks": len(values)}
    return out


def _by_capability(ok: list[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    flags: dict[str, list[bool]] = defaultdict(list)
    for record in ok:
        for checkpoint in record.get("checkpoints", {}).values():
            flags[str(checkpoint.get("capability", "unknown"))].append(bool(checkpoint["passed"]))
    return {cap: {**_rate(values), "passed": sum(values)} for cap, values in sorted(flags.items())}


def _grouped(ok: list[Mapping[str, Any]], key: str) -> dict[str, list[Mapping[str, Any]]]:
    grouped: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for record in ok:
        grouped[str(record.get(key, "") or "unknown")].append(record)
    return dict(sorted(grouped.items()))


def _by_field(ok: list[Mapping[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    return {
        name: {"success_rate": _rate([bool(r["success"]) for r in runs]),
               "mean_score": _mean([float(r["score"]) for r in runs]),
               "tasks": len({r["task_id"] for r in runs}), **_unsafe(runs)}
        for name, runs in _grouped(ok, key).items()
    }


def _violations(records: list[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """Each safety-checked record's violations (records from before safety checks skipped)."""
    return [list(r["safety"].get("violations", [])) for r in records
            if isinstance(r.get("safety"), dict)]


def _unsafe(records: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Unsafe-action rate (episodes with a safety violation) and violations per episode."""
    counts = [len(found) for found in _violations(records)]
    return {"unsafe_rate": _rate([count > 0 for count in counts]),
            "violations_per_episode": _mean_se([float(count) for count in counts])}


def _safety(records: list[Mapping[str, Any]]) -> dict[str, Any]:
    found = _violations(records)
    return {**_unsafe(records),
            "violations_by_rule": dict(Counter(str(v.get("rule")) for vs in found for v in vs)),
            "warnings": sum(len(r["safety"].get("warnings", [])) for r in records
                            if isinstance(r.get("safety"), dict))}
