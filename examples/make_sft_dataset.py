"""Build an SFT dataset of verified expert demonstrations (oracle runs of seeded variants).

Every line is an OpenAI chat conversation with tool calls (the same conversation the eval
agent has: system prompt, task brief, tool calls and EHR responses, final answer) in which
every checkpoint passed. Load it with ``datasets.load_dataset("json", data_files=FILE)`` for
TRL's ``SFTTrainer``, or upload it for OpenAI fine-tuning.

    python examples/make_sft_dataset.py --variants 8 --out sft.jsonl \\
        [--tasks thyroid_medication_management,lipid_statin_management] [--seed 0]

The same export is ``physbench export-sft --tasks ... --variants N --out FILE``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from physbench_gym.integrations.sft import export_sft


def summarize(path: Path) -> str:
    """Lines, tasks and the tool calls of the first demonstration, for a quick look."""
    lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
    if not lines:
        return "no demonstrations"
    first = lines[0]["messages"]
    calls = [m["tool_calls"][0]["function"]["name"] for m in first if m.get("tool_calls")]
    turns = sum(len(line["messages"]) for line in lines) / len(lines)
    return (f"{len(lines)} demonstrations, {turns:.1f} messages on average; first one calls: "
            + " -> ".join(calls))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    parser.add_argument("--variants", type=int, default=4, help="seeded variants per task")
    parser.add_argument("--seed", type=int, default=0, help="base seed of the variants")
    parser.add_argument("--out", default="sft.jsonl", help="the JSONL file to write")
    args = parser.parse_args(argv)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
    count = export_sft(tasks, args.variants, args.out, seed=args.seed)
    print(f"wrote {count} verified demonstrations to {args.out}")
    print(summarize(Path(args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
