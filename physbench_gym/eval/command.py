"""The ``physbench eval`` subcommand: its arguments and how it runs."""

from __future__ import annotations

import argparse
import os
import sys
import time


def add_eval(sub: argparse._SubParsersAction) -> None:
    """Register ``physbench eval`` on the command line's subparsers."""
    p = sub.add_parser("eval", help="evaluate an agent on the benchmark (resumable)")
    p.add_argument("--agent", default="oracle",
                   help="oracle | random | openai | module:Class for your own policy | "
                        "mcp-client:<command> for an external MCP agent")
    p.add_argument("--model", default=None, help="model name for --agent openai")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint base URL")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="environment variable holding the endpoint's API key ('' for none)")
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--judge-model", default=None,
                   help="grade rubric checkpoints with this LLM judge (default: deterministic)")
    p.add_argument("--judge-url", default=None, help="the judge's endpoint base URL")
    p.add_argument("--judge-api-key-env", default="OPENAI_API_KEY")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    p.add_argument("--group", action="append", default=[],
                   help="keep tasks of this specialty group (repeatable)")
    p.add_argument("--task-type", action="append", default=[],
                   help="keep tasks of this task type (repeatable)")
    p.add_argument("--tier", action="append", default=[],
                   help="keep tasks of this difficulty tier: easy, medium, hard (repeatable)")
    p.add_argument("--k", type=int, default=1, help="samples per task")
    p.add_argument("--seed", type=int, default=0, help="base seed of every episode's seed")
    p.add_argument("--variant", choices=("canonical", "seeded"), default="canonical")
    p.add_argument("--workers", type=int, default=1,
                   help="parallel workers: processes (local backend) or Ray actors")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: a process pool on this machine; ray: actors on a Ray cluster")
    p.add_argument("--address", default=None,
                   help="Ray cluster to join with --backend ray: auto, <head>:6379 or "
                        "ray://<head>:10001 (default: $RAY_ADDRESS, else a local cluster)")
    p.add_argument("--out", default=None,
                   help="run directory (default runs/<timestamp>); an existing one is resumed")
    p.add_argument("--max-steps", type=int, default=None, help="override the tasks' step budgets")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run_eval_command)


def run_eval_command(args: argparse.Namespace) -> int:
    """Run ``physbench eval``; the exit status (2 for a usage error, 1 for infra errors)."""
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.eval.progress import summary_table
    from physbench_gym.eval.runner import EvalConfig, run_eval, select_tasks

    out = args.out or os.path.join("runs", time.strftime("%Y%m%d-%H%M%S"))
    try:
        ids = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
        tasks = select_tasks(ids, args.group, args.task_type, args.tier)
        config = EvalConfig(
            agent=args.agent, tasks=tuple(tasks), k=args.k, seed=args.seed,
            variant=args.variant, max_steps=args.max_steps, model=args.model,
            base_url=args.base_url, api_key_env=args.api_key_env,
            temperature=args.temperature, judge_model=args.judge_model,
            judge_url=args.judge_url, judge_api_key_env=args.judge_api_key_env)
        outcome = run_eval(config, out, workers=max(1, args.workers),
                           progress=None if args.quiet else sys.stderr,
                           backend=args.backend, address=args.address)
    except (PhysBenchError, KeyError) as error:
        print(f"physbench eval: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nphysbench eval: interrupted; finished episodes are kept in {out}, rerun with "
              f"--out {out} to resume", file=sys.stderr)
        return 130
    print(summary_table(outcome.summary))
    print(f"\nresults: {outcome.out_dir}/results.jsonl   report: {outcome.out_dir}/report.html")
    remaining = outcome.summary["infra_errors"]
    if remaining:
        print(f"{remaining} episodes ended in infrastructure errors; rerun with --out "
              f"{outcome.out_dir} to retry them", file=sys.stderr)
        return 1
    return 0
