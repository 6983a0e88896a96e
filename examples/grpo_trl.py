"""GRPO on PhysicianBench with TRL: the env's tools as TRL's ``environment_factory``.

TRL's ``GRPOTrainer`` creates one ``PhysicianBenchToolEnv`` per rollout, resets it with a
dataset row (task id and variant seed; the task brief is appended to the prompt), lets the
model call the physicianbench tools as methods of the env, and rewards each rollout with its
checkpoint score, the same score ``physbench eval`` reports.

Needs a TRL with ``environment_factory`` support, ``datasets``, and a chat model with tool
calling (a GPU helps)::

    pip install -U trl datasets
    python examples/grpo_trl.py --model Qwen/Qwen3-0.6B \\
        --tasks thyroid_medication_management --variants 64 --output-dir grpo-physbench

``--dry-run`` checks the reward wiring without TRL or a model: the oracle's tool calls through
the adapter must score 1.0 and an idle rollout 0.0.
"""

from __future__ import annotations

import argparse
import inspect
from typing import Any

import gymnasium as gym

from physbench_gym.integrations.trl import (
    build_rows,
    checkpoint_reward,
    environment_factory,
    success_reward,
)

REWARDS = {"score": checkpoint_reward, "success": success_reward}
INSTALL_HINT = ("this example needs TRL with GRPOTrainer(environment_factory=...) and the "
                "datasets package: pip install -U trl datasets")


def make_rows(tasks: list[str] | None, variants: int, seed: int) -> list[dict[str, Any]]:
    """Training rows: every task with ``variants`` seeded clinical variants."""
    return build_rows(tasks, variants, seed=seed)


def config_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """``GRPOConfig`` arguments; episodes are long, so completions get a large budget."""
    return {"output_dir": args.output_dir, "num_generations": args.num_generations,
            "per_device_train_batch_size": args.num_generations,
            "gradient_accumulation_steps": args.gradient_accumulation_steps,
            "learning_rate": args.learning_rate,
            "max_completion_length": args.max_completion_length, "max_steps": args.max_steps,
            "logging_steps": 1, "log_completions": True,
            "chat_template_kwargs": {"enable_thinking": False}}


def require_trl() -> Any:
    """The ``trl`` module, or SystemExit with an install hint."""
    try:
        import datasets  # noqa: F401
        import trl
    except ImportError as error:
        raise SystemExit(f"error: {INSTALL_HINT} ({error})") from None
    if "environment_factory" not in inspect.signature(trl.GRPOTrainer.__init__).parameters:
        raise SystemExit(f"error: trl {trl.__version__} has no environment_factory; "
                         + INSTALL_HINT)
    return trl


def make_trainer(model: str, rows: list[dict[str, Any]], config: dict[str, Any],
                 reward: str = "score", **env_kwargs: Any) -> Any:
    """A ``trl.GRPOTrainer`` over the rows, with the env adapter and a checkpoint reward."""
    trl = require_trl()
    from datasets import Dataset

    return trl.GRPOTrainer(model=model, train_dataset=Dataset.from_list(rows),
                           reward_funcs=[REWARDS[reward]], args=trl.GRPOConfig(**config),
                           environment_factory=environment_factory(**env_kwargs))


def check_rewards(row: dict[str, Any]) -> list[float]:
    """Rewards of an oracle rollout and an idle one through the adapter (no model needed)."""
    reference = gym.make("PhysicianBench-v0")
    reference.reset(options={"task_id": row["task_id"], "variant": row["variant_seed"]})
    oracle = reference.unwrapped.oracle_actions()
    reference.close()
    factory = environment_factory()
    solved, idle = factory(), factory()
    for env in (solved, idle):
        env.reset(**row)
    for action in oracle:
        getattr(solved, action["tool"])(**action["arguments"])
    return checkpoint_reward(completions=["", ""], environments=[solved, idle])


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="model id or path (required to train)")
    parser.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    parser.add_argument("--variants", type=int, default=16, help="seeded variants per task")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reward", choices=sorted(REWARDS), default="score")
    parser.add_argument("--output-dir", default="grpo-physbench")
    parser.add_argument("--num-generations", type=int, default=4)
    parser.add_argument("--gradient-accumulation-steps", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=1e-6)
    parser.add_argument("--max-completion-length", type=int, default=16384)
    parser.add_argument("--max-steps", type=int, default=200)
    parser.add_argument("--dry-run", action="store_true",
                        help="check the adapter's rewards with the oracle and exit")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
    rows = make_rows(tasks, args.variants, args.seed)
    if args.dry_run:
        rewards = check_rewards(rows[0])
        print(f"{rows[0]['task_id']} variant {rows[0]['variant_seed']}: oracle reward "
              f"{rewards[0]:.3f}, idle reward {rewards[1]:.3f}")
        return 0 if rewards == [1.0, 0.0] else 1
    if not args.model:
        raise SystemExit("error: --model is required to train (or use --dry-run)")
    trainer = make_trainer(args.model, rows, config_kwargs(args), args.reward)
    trainer.train()
    trainer.save_model(args.output_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
