"""The ``physbench`` command line: serve the embedded EHR, generate synthetic data, evaluate."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path


def _add_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="serve the embedded FHIR R4 EHR over HTTP at /fhir")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (loopback by default)")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--data", default=None,
                   help="directory of NDJSON / bundle JSON files to load (default: synthetic EHR)")
    p.add_argument("--patients", type=int, default=100,
                   help="background patients to generate when --data is not given")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--token", default=os.environ.get("PHYSBENCH_TOKEN") or None,
                   help="require this bearer token on every request (default: $PHYSBENCH_TOKEN)")
    p.add_argument("--max-body", type=int, default=10 * 1024 * 1024,
                   help="largest accepted request body in bytes")
    p.add_argument("--threads", type=int, default=8)
    p.set_defaults(func=_run_serve)


def _run_serve(args: argparse.Namespace) -> int:
    from physbench_gym.fhir.http_app import serve
    from physbench_gym.fhir.store import BaseStore

    try:
        if args.data:
            from physbench_gym.fhir.loading import read_resources

            base = BaseStore.from_resources(read_resources(args.data))
        else:
            from physbench_gym.synth.population import build_base_store

            base = build_base_store(patients=args.patients, seed=args.seed)
    except ValueError as error:
        print(f"physbench serve: cannot load the EHR: {error}", file=sys.stderr)
        return 2
    try:
        serve(base, host=args.host, port=args.port, token=args.token, max_body=args.max_body,
              threads=args.threads)
    except OSError as error:
        print(f"physbench serve: cannot listen on {args.host}:{args.port}: {error}",
              file=sys.stderr)
        return 1
    return 0


def _add_synth(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="write a synthetic EHR population as NDJSON and bundles")
    p.add_argument("--patients", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_run_synth)


def _run_synth(args: argparse.Namespace) -> int:
    from physbench_gym.synth.population import write_population

    summary = write_population(args.out, patients=args.patients, seed=args.seed)
    print(summary)
    return 0


def _add_eval(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="evaluate an agent on the benchmark (resumable)")
    p.add_argument("--agent", default="oracle",
                   help="oracle | random | openai | module:Class for your own policy")
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
    p.add_argument("--workers", type=int, default=1, help="parallel worker processes")
    p.add_argument("--out", default=None,
                   help="run directory (default runs/<timestamp>); an existing one is resumed")
    p.add_argument("--max-steps", type=int, default=None, help="override the tasks' step budgets")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run_eval)


def _run_eval(args: argparse.Namespace) -> int:
    import time

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
                           progress=None if args.quiet else sys.stderr)
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


def _add_report(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="rebuild report.html and summary.json of a run")
    p.add_argument("run_dir")
    p.set_defaults(func=_run_report)


def _run_report(args: argparse.Namespace) -> int:
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.eval.progress import summary_table
    from physbench_gym.eval.report import build_report

    try:
        summary = build_report(args.run_dir)
    except PhysBenchError as error:
        print(f"physbench report: {error}", file=sys.stderr)
        return 2
    print(summary_table(summary))
    print(f"\nreport: {os.path.join(args.run_dir, 'report.html')}")
    return 0


def _add_export(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="export a run's episodes (OpenAI fine-tuning or events)")
    p.add_argument("run_dir")
    p.add_argument("--format", choices=("openai", "trajectory"), default="openai")
    p.add_argument("--out", required=True, help="the JSONL file to write")
    p.add_argument("--successful-only", action="store_true",
                   help="only episodes in which every checkpoint passed")
    p.set_defaults(func=_run_export)


def _run_export(args: argparse.Namespace) -> int:
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.eval.export import export_run

    try:
        count = export_run(args.run_dir, args.format, args.out,
                           successful_only=args.successful_only)
    except PhysBenchError as error:
        print(f"physbench export: {error}", file=sys.stderr)
        return 2
    print(f"wrote {count} episodes to {args.out}")
    return 0


def _add_export_sft(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export-sft",
                       help="write verified oracle demonstrations of seeded variants as chat JSONL")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    p.add_argument("--variants", type=int, default=4, help="seeded variants per task")
    p.add_argument("--seed", type=int, default=0, help="base seed of the variant seeds")
    p.add_argument("--out", required=True, help="the JSONL file to write")
    p.set_defaults(func=_run_export_sft)


def _run_export_sft(args: argparse.Namespace) -> int:
    from physbench_gym.errors import PhysBenchError

    try:
        from physbench_gym.integrations.sft import export_sft
    except ImportError as error:
        print(f"physbench export-sft: the SFT exporter is not available ({error})",
              file=sys.stderr)
        return 2
    ids = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
    try:
        count = export_sft(ids, args.variants, args.out, seed=args.seed)
    except (PhysBenchError, KeyError) as error:
        print(f"physbench export-sft: {error}", file=sys.stderr)
        return 2
    print(f"wrote {count} demonstrations to {args.out}")
    return 0


def _add_task(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("task", help="work with one task: render its case, scaffold, check")
    task_sub = p.add_subparsers(dest="task_command", required=True)
    render = task_sub.add_parser(
        "render", help="print the case (brief, retrieved chart data, orders, checkpoints) "
        "from which notes and reviews are written; the grader and reference note are left out")
    render.add_argument("task_id")
    render.add_argument("--variant", default="canonical",
                        help="'canonical' (default) or a variant seed")
    render.set_defaults(func=_run_task_render)
    new = task_sub.add_parser(
        "new", help="write the scaffold of a new task (spec, note corpus, test); a catalog "
        "topic's classification is filled in from the catalog")
    new.add_argument("task_id")
    new.add_argument("--group", default=None, help="specialty group (default: the catalog's)")
    new.add_argument("--type", dest="task_type", default=None,
                     help="task type (default: the catalog's)")
    new.add_argument("--subtype", default=None, help="task subtype (default: the catalog's)")
    new.add_argument("--tier", default=None, choices=("easy", "medium", "hard"),
                     help="difficulty tier (default: the catalog's)")
    new.add_argument("--specialty", default=None,
                     help="consulting specialty (default: the group's main one)")
    new.add_argument("--root", default=None,
                     help="project folder holding task_specs/ and tests/ (default: this "
                          "package's source checkout)")
    new.set_defaults(func=_run_task_new)
    check = task_sub.add_parser(
        "check", help="run every gate a task must pass (spec, chart, codes, oracle, horizon, "
        "adversaries, replay, note corpus, review), one PASS/FAIL/GAP line each")
    check.add_argument("task_ids", nargs="*", help="task ids (or --all)")
    check.add_argument("--all", action="store_true", help="every registered task")
    check.add_argument("--gate", action="append", default=[],
                       help="run only this gate (repeatable)")
    check.set_defaults(func=_run_task_check)


def _run_task_render(args: argparse.Namespace) -> int:
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.eval.casebook import render_case

    try:
        seed = None if args.variant == "canonical" else int(args.variant)
        print(render_case(args.task_id, seed), end="")
    except ValueError:
        print(f"physbench task render: --variant must be 'canonical' or an integer, "
              f"got {args.variant!r}", file=sys.stderr)
        return 2
    except PhysBenchError as error:
        print(f"physbench task render: {error}", file=sys.stderr)
        return 2
    return 0


def _run_task_new(args: argparse.Namespace) -> int:
    from physbench_gym._resources import data_dir
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.tasks.scaffold import new_task

    try:
        root = Path(args.root) if args.root else data_dir("task_specs").parent
        written = new_task(args.task_id, root, group=args.group, task_type=args.task_type,
                           subtype=args.subtype, tier=args.tier, specialty=args.specialty)
    except PhysBenchError as error:
        print(f"physbench task new: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    print(f"next: fill in the TODOs (docs/authoring.md), then `physbench task check "
          f"{args.task_id}`")
    return 0


def _run_task_check(args: argparse.Namespace) -> int:
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.tasks.check import GATES, run_gate
    from physbench_gym.tasks.registry import load_spec, task_ids

    ids = task_ids() if args.all else args.task_ids
    unknown_gates = [g for g in args.gate if g not in GATES]
    if not ids or unknown_gates:
        problem = (f"unknown gate(s) {', '.join(unknown_gates)}; gates: {', '.join(GATES)}"
                   if unknown_gates else "give task ids or --all")
        print(f"physbench task check: {problem}", file=sys.stderr)
        return 2
    failed = 0
    for task_id in ids:
        print(task_id)
        try:
            load_spec(task_id)
        except PhysBenchError as error:
            if "unknown task" in str(error):
                print(f"physbench task check: {error}", file=sys.stderr)
                return 2
        for gate in args.gate or GATES:
            result = run_gate(task_id, gate)
            failed += result.status == "fail"
            print(f"  {result.line()}", flush=True)
    print(f"{failed} failing gate(s)" if failed else "every gate passes or is a listed gap")
    return 1 if failed else 0


def _add_calibrate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="grade the labeled note corpus: false negatives on "
                       "correct notes and false positives on wrong notes")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    p.add_argument("--split", choices=("dev", "holdout", "all"), default="all")
    p.add_argument("--judge-model", default=None,
                   help="grade note checkpoints with this LLM judge (default: deterministic)")
    p.add_argument("--judge-url", default=None, help="the judge's endpoint base URL")
    p.add_argument("--judge-api-key-env", default="OPENAI_API_KEY")
    p.add_argument("--verbose", action="store_true", help="list every grading error")
    p.add_argument("--write-baseline", default=None, metavar="PATH",
                   help="also write the misgraded note ids per task as JSON (the baseline "
                        "tests/grading/test_calibration.py pins)")
    p.set_defaults(func=_run_calibrate)


def _run_calibrate(args: argparse.Namespace) -> int:
    from physbench_gym.errors import PhysBenchError
    from physbench_gym.eval.calibrate import calibrate, format_report

    judge = None
    if args.judge_model:
        from physbench_gym.grading.judge import LLMJudge

        judge = LLMJudge(args.judge_model, args.judge_url or "https://api.openai.com/v1",
                         args.judge_api_key_env or None)
    try:
        ids = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
        splits = ("dev", "holdout") if args.split == "all" else (args.split,)
        report = calibrate(ids, splits, judge)
    except (PhysBenchError, KeyError) as error:
        print(f"physbench calibrate: {error}", file=sys.stderr)
        return 2
    finally:
        if judge is not None:
            judge.close()
    print(format_report(report, verbose=args.verbose))
    if args.write_baseline:
        Path(args.write_baseline).write_text(
            json.dumps(report.misgraded(), indent=1) + "\n", encoding="utf-8")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="physbench", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_serve(sub)
    _add_synth(sub)
    _add_eval(sub)
    _add_report(sub)
    _add_export(sub)
    _add_export_sft(sub)
    _add_task(sub)
    _add_calibrate(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
