"""The ``physbench`` command line: serve the embedded EHR, generate synthetic data, evaluate."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="physbench", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_serve(sub)
    _add_synth(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
