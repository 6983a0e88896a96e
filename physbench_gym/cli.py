"""The ``physbench`` command line: serve the embedded EHR, generate synthetic data, evaluate."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from physbench_gym.eval.command import add_eval


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


def _add_limits(p: argparse.ArgumentParser, port: int) -> None:
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (loopback by default)")
    p.add_argument("--port", type=int, default=port, help="port (0 picks a free one)")
    p.add_argument("--token", default=os.environ.get("PHYSBENCH_TOKEN") or None,
                   help="require this bearer token on every request (default: $PHYSBENCH_TOKEN)")
    p.add_argument("--max-body", type=int, default=4 * 1024 * 1024,
                   help="largest accepted request body or WebSocket message in bytes")
    p.add_argument("--max-sessions", type=int, default=8, help="concurrent sessions (episodes)")
    p.add_argument("--idle-timeout", type=float, default=1800.0,
                   help="seconds after which an idle session is ended")
    p.add_argument("--max-steps", type=int, default=None, help="override the tasks' step budgets")


def _add_mcp(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp", help="serve a task's episodes to MCP clients (stdio or HTTP)")
    p.add_argument("--task", required=True, help="the task id")
    p.add_argument("--variant", default="canonical", help="canonical | seeded | a variant seed")
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    p.add_argument("--seed", type=int, default=0, help="base seed, as physbench eval's --seed")
    p.add_argument("--sample", type=int, default=None,
                   help="sample index of the first episode (default: the next free one)")
    p.add_argument("--out", default=os.path.join("runs", "mcp"),
                   help="run directory for results.jsonl, trajectories and report")
    _add_limits(p, port=8765)
    p.set_defaults(func=_run_mcp)


def _run_face(command: str, extra: str, start: Callable[[], None]) -> int:
    from physbench_gym.errors import PhysBenchError

    try:
        start()
    except ImportError as error:
        print(f"physbench {command}: needs the {extra} extra "
              f"(pip install 'physbench-gym[{extra}]'): {error}", file=sys.stderr)
        return 2
    except (PhysBenchError, KeyError, OSError) as error:
        print(f"physbench {command}: {error}", file=sys.stderr)
        return 2
    return 0


def _run_mcp(args: argparse.Namespace) -> int:
    def start() -> None:
        import anyio

        from physbench_gym.integrations import mcp
        from physbench_gym.integrations.served import parse_variant

        episodes = mcp.McpEpisodes(task_id=args.task, out=Path(args.out),
                                   variant=parse_variant(args.variant), seed=args.seed,
                                   first_sample=args.sample, max_steps=args.max_steps)
        if args.transport == "stdio":
            anyio.run(mcp.serve_stdio, episodes)
        else:
            mcp.serve_http(episodes, args.host, args.port, token=args.token,
                           max_body=args.max_body, max_sessions=args.max_sessions,
                           idle_timeout=args.idle_timeout)

    return _run_face("mcp", "mcp", start)


def _add_serve_env(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve-env", help="serve the env over OpenEnv's reset/step/state protocol")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    _add_limits(p, port=8000)
    p.set_defaults(func=_run_serve_env)


def _run_serve_env(args: argparse.Namespace) -> int:
    def start() -> None:
        from physbench_gym.integrations.openenv import serve_env

        tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
        serve_env(args.host, args.port, tasks=tasks, token=args.token, max_body=args.max_body,
                  max_sessions=args.max_sessions, idle_timeout=args.idle_timeout,
                  max_steps=args.max_steps)

    return _run_face("serve-env", "openenv", start)


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
    _add_mcp(sub)
    _add_serve_env(sub)
    _add_synth(sub)
    add_eval(sub)
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
