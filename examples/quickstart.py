"""Quickstart: one PhysicianBench episode by hand on the embedded EHR.

Makes the env, reads the task brief, looks up the patient, reviews the chart with a few FHIR
tool calls, writes a (deliberately thin) consult note, calls ``finish`` and prints what every
checkpoint grader decided. Then the oracle plays the same task to show a full score.

    python examples/quickstart.py [--task thyroid_medication_management]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import gymnasium as gym

import physbench_gym  # noqa: F401  (registers the PhysicianBench env ids)
from physbench_gym.agents import OracleAgent, run_episode

DEFAULT_TASK = "thyroid_medication_management"


def call(env: gym.Env, tool: str, **arguments: Any) -> tuple[str, dict[str, Any]]:
    """Make one tool call, print a short view of it, and return the observation and info."""
    observation, reward, _, _, info = env.step({"tool": tool, "arguments": arguments})
    shown = observation if len(observation) <= 240 else observation[:240] + " ..."
    print(f"\n> {tool}({json.dumps(arguments)[:120]})\n  reward {reward:+.3f} | {shown}")
    return observation, info


def first_id(observation: str) -> str:
    """The id of the first resource in a search result."""
    return json.loads(observation)["resources"][0]["id"]


def print_checkpoints(info: dict[str, Any]) -> None:
    """One line per checkpoint: passed or not, capability, and the grader's reason."""
    print("\n=== Checkpoints ===")
    for name, state in info["checkpoints"].items():
        mark = "PASS" if state["passed"] else "fail"
        print(f"[{mark}] {name} ({state['capability']}): {state['reason']}")
    print(f"score {info['score']:.3f} | success {info['success']} | steps {info['steps']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default=DEFAULT_TASK, help="task id")
    args = parser.parse_args(argv)

    env = gym.make("PhysicianBench-v0")
    brief, info = env.reset(seed=0, options={"task_id": args.task})
    print("=== Task brief ===\n" + brief)
    print("\ntools: " + ", ".join(s["function"]["name"] for s in info["tool_schemas"]))

    found, _ = call(env, "fhir_patient_search_demographics", identifier=info["patient_mrn"])
    patient = first_id(found)
    call(env, "fhir_condition_search_problems", patient=patient)
    call(env, "fhir_observation_search_labs", patient=patient, count=10)
    call(env, "fhir_medication_request_search_orders", patient=patient, status="active")
    note = ("# Consult note\n\nReviewed the problem list, recent laboratory results and active "
            "medications. Recommendations to follow after discussion with the referring "
            "clinician.\n")
    call(env, "write_file", file_path=env.unwrapped.instance.note_path, content=note)
    _, final = call(env, "finish", summary="Chart reviewed; note written.")
    print_checkpoints(final)

    oracle = run_episode(env, OracleAgent(), seed=0, options={"task_id": args.task})
    print(f"\nThe oracle on the same task: score {oracle.score:.3f}, "
          f"success {oracle.success}, {oracle.steps} steps")
    env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
