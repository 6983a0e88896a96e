"""The TRL GRPO adapter, driven the way GRPOTrainer drives an ``environment_factory``."""

from __future__ import annotations

import inspect
import subprocess
import sys
import typing

import gymnasium as gym
import pytest

import physbench_gym  # noqa: F401
from physbench_gym.agents.openai_chat import SYSTEM_PROMPT
from physbench_gym.errors import PhysBenchError
from physbench_gym.integrations.trl import (
    ENDED,
    TOOL_NAMES,
    PhysicianBenchToolEnv,
    build_rows,
    checkpoint_reward,
    environment_factory,
    success_reward,
    variant_seeds,
)

TASK = "thyroid_medication_management"
_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


@pytest.fixture(scope="module")
def env_schemas():
    env = gym.make("PhysicianBench-v0")
    yield env.unwrapped.tool_schemas()
    env.close()


def _oracle_actions(row):
    env = gym.make("PhysicianBench-v0")
    env.reset(options={"task_id": row["task_id"], "variant": row["variant_seed"]})
    actions = env.unwrapped.oracle_actions()
    env.close()
    return actions


def _trainer_tools(instance):
    """What TRL exposes: every public method except ``reset`` and ``get_reward``."""
    return [name for name in dir(instance) if not name.startswith("_")
            and name not in ("reset", "get_reward") and callable(getattr(instance, name))]


def _schema_from_inspect(method) -> dict:
    """A function-calling schema from a method's signature and Google docstring."""
    doc = inspect.getdoc(method)
    description, _, rest = doc.partition("\n\nArgs:\n")
    args_block = rest.split("\n\nReturns:")[0]
    described = dict(line.strip().split(": ", 1) for line in args_block.splitlines())
    properties, required = {}, []
    for name, param in inspect.signature(method).parameters.items():
        annotation = param.annotation
        options = [a for a in typing.get_args(annotation) if a is not type(None)] \
            if type(None) in typing.get_args(annotation) else [annotation]
        base = options[0]
        spec = {}
        if typing.get_origin(base) is typing.Literal:
            spec = {"type": "string", "enum": list(typing.get_args(base))}
        else:
            spec = {"type": _TYPES[base]}
        properties[name] = {**spec, "description": described[name]}
        if param.default is inspect.Parameter.empty:
            required.append(name)
    return {"name": method.__name__, "description": description,
            "parameters": {"properties": properties, "required": required}}


def _schema_from_transformers(method) -> dict:
    utils = pytest.importorskip("transformers.utils")
    return utils.get_json_schema(method)["function"]


def _essentials(function: dict) -> dict:
    parameters = function["parameters"]
    return {"name": function["name"], "description": function["description"],
            "required": sorted(parameters.get("required", [])),
            "properties": {name: {k: spec[k] for k in ("type", "enum", "description") if k in spec}
                           for name, spec in parameters["properties"].items()}}


@pytest.mark.parametrize("builder", [_schema_from_inspect, _schema_from_transformers],
                         ids=["inspect", "transformers"])
def test_tool_methods_match_the_env_tool_schemas(env_schemas, builder):
    instance = PhysicianBenchToolEnv()
    assert sorted(_trainer_tools(instance)) == sorted(s["function"]["name"] for s in env_schemas)
    assert list(TOOL_NAMES) == [s["function"]["name"] for s in env_schemas]
    for schema in env_schemas:
        expected = _essentials(schema["function"])
        produced = _essentials(builder(getattr(instance, expected["name"])))
        assert produced == expected, expected["name"]
        assert list(produced["properties"]) == list(expected["properties"])


def test_build_rows_carry_task_variant_and_the_eval_prompt():
    rows = build_rows([TASK], variants=3, seed=7, canonical=True)
    assert [r["variant_seed"] for r in rows] == [None, *variant_seeds(3, seed=7)]
    assert len(set(variant_seeds(3, seed=7))) == 3
    assert variant_seeds(2, seed=7) == variant_seeds(3, seed=7)[:2]
    assert variant_seeds(2, seed=8) != variant_seeds(2, seed=7)
    assert rows[0]["prompt"] == [{"role": "system", "content": SYSTEM_PROMPT},
                                 {"role": "user", "content": ""}]
    assert {r["task_id"] for r in rows} == {TASK}
    with pytest.raises(PhysBenchError):
        build_rows([TASK], variants=-1)


def test_group_rollouts_oracle_scores_one_partial_run_scores_less():
    row = build_rows([TASK], variants=1, seed=3)[0]
    oracle = _oracle_actions(row)
    factory = environment_factory("PhysicianBench-v0")
    full, partial, idle = factory(), factory(), factory()
    briefs = [env.reset(**row) for env in (full, partial, idle)]
    assert briefs[0] == briefs[1] == briefs[2]
    assert "E-consult question" in briefs[0] and full.task_id == TASK
    for action in oracle:
        observation = getattr(full, action["tool"])(**action["arguments"])
        assert not observation.startswith("ERROR"), (action["tool"], observation)
    searches = [a for a in oracle if a["tool"].startswith("fhir_") and "search" in a["tool"]]
    for action in searches:
        getattr(partial, action["tool"])(**action["arguments"])
    assert full.done and not partial.done
    completions = [[{"role": "assistant", "content": "done"}]] * 3
    scores = checkpoint_reward(completions=completions, environments=[full, partial, idle])
    assert scores[0] == 1.0
    assert 0.0 < scores[1] < 1.0
    assert scores[2] == 0.0
    assert partial.done and idle.done
    assert success_reward(completions=completions,
                          environments=[full, partial, idle]) == [1.0, 0.0, 0.0]


def test_variants_differ_and_reset_starts_a_fresh_episode():
    rows = build_rows([TASK], variants=2, seed=0, canonical=True)
    env = PhysicianBenchToolEnv()
    briefs = [env.reset(**row) for row in rows]
    assert len(set(briefs)) == 3
    assert env.variant != "canonical"
    env.finish(summary="nothing done")
    assert env.done and env.score == 0.0
    env.reset(**rows[0])
    assert (env.done, env.steps, env.score, env.variant) == (False, 0, 0.0, "canonical")


def test_agent_mistakes_are_error_observations_not_exceptions():
    env = PhysicianBenchToolEnv()
    env.reset(**build_rows([TASK], variants=1)[0])
    assert env.fhir_condition_search_problems(patient="p", colour="red").startswith("ERROR")
    assert env.fhir_observation_search_labs().startswith("ERROR")
    assert not env.fhir_patient_search_demographics(gender=None, name="a").startswith("ERROR")
    assert env.steps == 3
    env.finish()
    assert env.finish() == ENDED
    assert env.write_file(file_path="note.md", content="x") == ENDED
    assert env.steps == 4


def test_step_budget_from_factory_kwargs_ends_the_episode():
    env = environment_factory(max_steps=2)()
    env.reset(task_id=TASK, variant_seed=None, prompt=[{"role": "user", "content": ""}])
    env.fhir_patient_search_demographics(name="x")
    assert not env.done
    env.fhir_patient_search_demographics(name="y")
    assert env.done and not env.success
    assert env.fhir_patient_search_demographics(name="z") == ENDED


def test_caller_misuse_raises_clear_errors():
    env = PhysicianBenchToolEnv()
    with pytest.raises(PhysBenchError, match="reset"):
        env.finish()
    with pytest.raises(PhysBenchError, match="task_id"):
        env.reset(prompt=[])
    with pytest.raises(PhysBenchError, match="environment_factory"):
        checkpoint_reward(completions=["x"])
    with pytest.raises(TypeError):
        env.finish("positional summary")


def test_importing_the_adapters_does_not_import_trl_or_transformers():
    code = ("import sys, physbench_gym.integrations.trl, physbench_gym.integrations.sft; "
            "print(sorted(m for m in ('trl', 'transformers', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_get_reward_owns_the_reward_and_agrees_with_the_reward_functions():
    row = build_rows([TASK], variants=1, seed=3)[0]
    oracle = _oracle_actions(row)
    factory = environment_factory("PhysicianBench-v0")
    full, partial, twin = factory(), factory(), factory()
    for env in (full, partial, twin):
        env.reset(**row)
    for action in oracle:
        getattr(full, action["tool"])(**action["arguments"])
    for env in (partial, twin):
        for action in [a for a in oracle if "search" in a["tool"]]:
            getattr(env, action["tool"])(**action["arguments"])
    assert not partial.done
    rewards = [full.get_reward(), partial.get_reward()]
    assert rewards[0] == 1.0 and 0.0 < rewards[1] < 1.0 and partial.done
    assert checkpoint_reward(environments=[twin]) == [rewards[1]]
    assert partial.get_reward() == rewards[1]
