"""Evaluating agents on the benchmark: runner, metrics, run directory, report and export."""

from physbench_gym.eval.metrics import pass_at_k, pass_hat_k, summarize
from physbench_gym.eval.runner import EvalConfig, EvalOutcome, episode_seed, run_eval, select_tasks

__all__ = ["EvalConfig", "EvalOutcome", "episode_seed", "pass_at_k", "pass_hat_k", "run_eval",
           "select_tasks", "summarize"]
