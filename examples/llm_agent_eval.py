"""Evaluate an LLM agent on one PhysicianBench task through any OpenAI-compatible endpoint.

The agent (``OpenAIChatAgent``) talks to ``{base_url}/chat/completions`` with native tool
calling: OpenAI, a local vLLM (``vllm serve MODEL --enable-auto-tool-choice ...``), Ollama,
LM Studio... Each tool call is one env step; the checkpoint graders score the episode.

    python examples/llm_agent_eval.py --base-url http://127.0.0.1:8000/v1 \\
        --model Qwen/Qwen2.5-7B-Instruct [--task thyroid_medication_management]

The API key, if the endpoint needs one, is read from the variable named by --api-key-env.
For many tasks, samples and pass@k, use ``physbench eval`` instead.
"""

from __future__ import annotations

import argparse
import sys

import gymnasium as gym

import physbench_gym  # noqa: F401  (registers the PhysicianBench env ids)
from physbench_gym.agents import AgentError, EpisodeResult, run_episode
from physbench_gym.agents.openai_chat import OpenAIChatAgent

DEFAULT_TASK = "thyroid_medication_management"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True,
                        help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    parser.add_argument("--model", required=True, help="model name served by the endpoint")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY",
                        help="environment variable holding the API key ('' for none)")
    parser.add_argument("--task", default=DEFAULT_TASK, help="task id")
    parser.add_argument("--variant", default="canonical",
                        help="'canonical' or an integer seed of a clinical variant")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    parser.add_argument("--max-retries", type=int, default=3,
                        help="retries of a failed request before giving up")
    return parser.parse_args(argv)


def evaluate(args: argparse.Namespace) -> EpisodeResult:
    """Run the agent for one episode; raises ``AgentError`` when the endpoint fails."""
    agent = OpenAIChatAgent(model=args.model, base_url=args.base_url,
                            api_key_env=args.api_key_env or None, timeout=args.timeout,
                            max_retries=args.max_retries)
    variant = args.variant if args.variant == "canonical" else int(args.variant)
    env = gym.make("PhysicianBench-v0")
    try:
        return run_episode(env, agent, seed=0, options={"task_id": args.task,
                                                        "variant": variant})
    finally:
        agent.close()
        env.close()


def report(result: EpisodeResult) -> None:
    """Print the score and each checkpoint's verdict."""
    for name, state in result.checkpoints.items():
        mark = "PASS" if state["passed"] else "fail"
        print(f"[{mark}] {name} ({state['capability']}): {state['reason']}")
    print(f"task {result.task_id} ({result.variant}): score {result.score:.3f}, "
          f"success {result.success}, {result.steps} steps, ended by {result.termination}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        result = evaluate(args)
    except AgentError as error:
        print(f"error: the model endpoint {args.base_url} could not be used: {error}\n"
              "Check --base-url (it should end in /v1), that the server is running and "
              "serves --model, and the API key variable.", file=sys.stderr)
        return 2
    report(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
