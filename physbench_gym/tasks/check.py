"""The gates every task must pass, one function each, shared by ``physbench task check`` and the
test suite, so the rules a task must meet live in one place.

A gate returns the problems it found (empty: it passes), each keyed by the gate's name or
``<gate>:<part>`` (an adversary, a variant). A task may list known gaps in its spec
(``known_gaps: {key: reason}``): a problem under a listed key is reported as a gap, not a
failure, and a listed gap that no longer occurs is a failure, so the list stays true.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import gymnasium as gym

from physbench_gym.agents import EpisodeResult, OracleAgent, run_episode
from physbench_gym.agents.adversarial import (
    ADVERSARIES,
    WRITES,
    AdversarialAgent,
    CanonicalReplayAgent,
)
from physbench_gym.errors import PhysBenchError
from physbench_gym.grading.core import FILE
from physbench_gym.grading.engine import instance_checkpoints
from physbench_gym.grading.lexicon import concepts
from physbench_gym.synth import checks as chart_checks
from physbench_gym.synth import terminology as term
from physbench_gym.synth.roster import roster_resources
from physbench_gym.tasks.catalog import catalog_row
from physbench_gym.tasks.charts import chart_of
from physbench_gym.tasks.corpus import corpus_path, load_corpus
from physbench_gym.tasks.registry import get_instance, load_spec, spec_paths
from physbench_gym.tasks.spec import CAPABILITIES
from physbench_gym.tools.coding import ORDER_CATEGORIES

VARIANTS: tuple[int | None, ...] = (None, *range(20))
REPLAY_VARIANTS = range(20)
MAX_REPLAY_SUCCESSES = 4  # 20% of REPLAY_VARIANTS
MIN_CORRECT_NOTES, MIN_STYLES, MIN_WRONG_NOTES = 8, 4, 8
MAX_FALSE_NEGATIVES, MAX_FALSE_POSITIVES = 0.10, 0.05
MIN_TOOL_CALLS = {"easy": 15, "medium": 15, "hard": 25}
# Adversaries that change the answer only where the reference plan prescribes a medication.
NEEDS_A_PRESCRIPTION = frozenset({"double_dose_duplicate", "hedged_alternatives"})
SNOMED = "http://snomed.info/sct"
_ORDER_CATEGORY_CODES = frozenset(code for code, _ in ORDER_CATEGORIES.values())
# A review finding opens with a numbered or bulleted line whose first bold word is its
# severity ("1. **major** - ..."); its status is a later "Status: fixed|answered|open" line.
_FINDING = re.compile(r"^\s*(?:\d+\.|[-*])\s+\*\*(critical|major|minor)\b", re.I | re.M)
_HEADING = re.compile(r"^#", re.M)
_STATUS = re.compile(r"^[\s*>-]*\**Status\**:\**\s*(\w+)", re.I | re.M)


@dataclass(frozen=True)
class Problem:
    """One unmet rule: ``key`` is the gate or ``gate:part``, matched against known gaps."""

    key: str
    message: str


@dataclass(frozen=True)
class GateResult:
    """A gate's verdict on a task: ``pass``, ``fail`` or ``gap`` (failing, and listed)."""

    task_id: str
    gate: str
    status: str
    messages: tuple[str, ...] = ()

    def line(self) -> str:
        detail = "; ".join(self.messages)
        return f"{self.status.upper():4} {self.gate:20} {detail}".rstrip()


def _env(max_steps: int | None = None) -> gym.Env:
    return gym.make("PhysicianBench-v0", max_steps=max_steps)


def _episode(env: gym.Env, agent: Any, task_id: str, variant: int | None) -> EpisodeResult:
    options = {"task_id": task_id, "variant": "canonical" if variant is None else variant}
    return run_episode(env, agent, seed=0, options=options)


@cache
def _oracle_runs(task_id: str) -> tuple[EpisodeResult, ...]:
    """The oracle on the canonical instance and every variant (shared by several gates)."""
    env = _env()
    try:
        return tuple(_episode(env, OracleAgent(), task_id, v) for v in VARIANTS)
    finally:
        env.close()


def _variant_label(variant: int | None) -> str:
    return "canonical" if variant is None else f"v{variant}"


def _patient_id(spec: Any) -> str:
    return str((spec.story.get("patient") or {}).get("id", ""))


def _shared_patient(task_id: str, spec: Any) -> list[str]:
    """Two tasks with one patient id would be served one chart: the EHR holds one patient
    per id, so the other task's labs and notes would go missing."""
    mine = _patient_id(spec)
    others = sorted(t for t in spec_paths() if t != task_id and _patient_id(load_spec(t)) == mine)
    return [f"patient id {mine!r} is also {others[0]!r}'s; the EHR would serve one chart "
            f"for both"] if mine and others else []


def gate_spec(task_id: str) -> list[Problem]:
    """The spec loads; its checkpoints, capabilities and references meet the bar; it is a
    catalog topic and agrees with its catalog row."""
    spec = load_spec(task_id)
    problems = []
    row = catalog_row(task_id)
    least = max(5, (row.n_checkpoints - 1) if row else 5)
    if not least <= len(spec.checkpoints) <= 10:
        problems.append(f"{len(spec.checkpoints)} checkpoints, need {least} to 10")
    covered = {c.capability for c in spec.checkpoints} & set(CAPABILITIES)
    if len(covered) < 3:
        problems.append(f"checkpoints cover {sorted(covered)}, need 3 of {list(CAPABILITIES)}")
    if len(spec.references) < 3:
        problems.append(f"{len(spec.references)} references, need at least 3")
    if row is None:
        problems.append("not a topic of the task catalog (physbench_gym/tasks/catalog.tsv)")
    else:
        for field, expected in (("specialty_group", row.specialty_group),
                                ("task_type", row.task_type), ("subtype", row.subtype),
                                ("tier", row.tier)):
            if getattr(spec, field) != expected:
                problems.append(f"{field} {getattr(spec, field)!r}, catalog says {expected!r}")
    problems.extend(_shared_patient(task_id, spec))
    note_graded = [c for c in instance_checkpoints(task_id, None)
                   if c.grader.triggers and c.grader.triggers <= {FILE}]
    if not note_graded:
        problems.append("no checkpoint is graded from the note alone")
    unjudged = [c.id for c in spec.checkpoints
                if c.id in {n.id for n in note_graded} and not c.rubric]
    if unjudged:
        problems.append(f"note checkpoints without a judge rubric: {unjudged}")
    todo = sorted({m.group(0) for text in _strings(spec.model_dump(mode="json"))
                   for m in re.finditer(r"\bTODO\b[^\n]{0,30}", text)})
    if todo:
        problems.append(f"{len(todo)} TODO(s) left, e.g. {todo[0]!r}")
    unknown = sorted({i for v in VARIANTS for c in get_instance(task_id, v).checkpoints
                      for i in _concept_ids(c.grader)} - set(concepts()))
    if unknown:
        problems.append(f"note graders name concepts the lexicon lacks: {unknown}")
    for name, reason in spec.known_gaps.items():
        if name.split(":")[0] not in GATES:
            problems.append(f"known gap {name!r} names no gate ({reason})")
    return [Problem("spec", p) for p in problems]


_CONCEPT_KEYS = frozenset({"concept", "subject", "category", "others", "near",
                           "committed_if", "contingency_on"})


def _concept_ids(node: Any) -> Iterator[str]:
    """Lexicon ids a grader names (an unknown id would never match, so a must-not on it
    could never fail)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()
    for key, value in items:
        if key in _CONCEPT_KEYS and isinstance(value, list):
            yield from (v for v in value if isinstance(v, str) and "|" not in v)
        yield from _concept_ids(value)


def gate_chart(task_id: str) -> list[Problem]:
    """Every instance's chart is valid R4 with resolving references, no future dates, UCUM
    units and codes the terminology knows."""
    problems = []
    for variant in VARIANTS:
        instance = get_instance(task_id, variant)
        chart = chart_of(instance)
        found = (chart_checks.fhir_model_errors(chart)
                 + chart_checks.dangling_references(roster_resources() + chart)
                 + chart_checks.dates_after(chart, instance.now)
                 + chart_checks.non_ucum_quantities(chart) + chart_checks.unknown_codes(chart))
        problems += [Problem("chart", f"{_variant_label(variant)}: {p}") for p in found[:3]]
    return problems


def _named_codes(instance: Any) -> Iterator[tuple[str, str]]:
    """(system, code) pairs the checkpoints' graders and the oracle's calls name."""
    for checkpoint in instance.checkpoints:
        for text in _strings(checkpoint.grader):
            system, bar, code = text.partition("|")
            if bar and system.startswith("http") and code:
                yield system, code
        for match in _order_matches(checkpoint.grader):  # bare codes of an order check
            system = "rxnorm" if match.get("resource_type", "MedicationRequest") == (
                "MedicationRequest") else ""
            for code in match.get("codes") or []:
                if isinstance(code, str) and "|" not in code:
                    yield system, code
    for call in instance.oracle.calls:
        args = call.arguments
        if call.tool == "fhir_medication_request_create" and args.get("medication_code"):
            yield "rxnorm", str(args["medication_code"])
        elif call.tool == "fhir_service_request_create" and args.get("code"):
            yield args.get("system") or "", str(args["code"])


def _order_matches(node: Any) -> Iterator[dict]:
    """The arguments of every ordered / not_ordered check in a grader."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("ordered", "not_ordered") and isinstance(value, dict):
                yield value
            yield from _order_matches(value)
    elif isinstance(node, list):
        for item in node:
            yield from _order_matches(item)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _known(system: str, code: str) -> bool:
    if system == SNOMED and code in _ORDER_CATEGORY_CODES:
        return True
    try:
        if system in ("", "orderable"):
            term.orderable(code)
        elif system == "rxnorm" or system.endswith("rxnorm"):
            term.rxnorm(code)
        else:
            term.lookup(system, code)
    except (KeyError, ValueError):
        return False
    return True


def gate_codes(task_id: str) -> list[Problem]:
    """Every code a checkpoint or an oracle call names is in the terminology tables, or a
    reference of the spec names it (a real code the tables do not carry)."""
    spec = load_spec(task_id)
    sourced = " ".join(f"{r.fact} {r.source}" for r in spec.references)
    unknown = sorted({(system, code) for v in VARIANTS
                      for system, code in _named_codes(get_instance(task_id, v))
                      if not _known(system, code)
                      and not re.search(rf"(?<![\w.-]){re.escape(code)}(?![\w.-])", sourced)})
    return [Problem("codes", f"{system or 'orderable'}|{code} is neither in the terminology "
                    "nor named by a reference") for system, code in unknown]


def gate_oracle(task_id: str) -> list[Problem]:
    """The oracle scores 1.0 with no safety violation on the canonical instance and every
    variant."""
    problems = []
    for variant, result in zip(VARIANTS, _oracle_runs(task_id), strict=True):
        label = _variant_label(variant)
        failed = {k: v["reason"] for k, v in result.checkpoints.items() if not v["passed"]}
        if not result.success or abs(result.total_reward - 1.0) > 1e-6:
            problems.append(Problem("oracle", f"{label}: score {result.score:.2f}, "
                                    f"failed {failed}"))
        for violation in result.safety.get("violations", []):
            problems.append(Problem("oracle", f"{label}: safety {violation['rule']}: "
                                    f"{violation['message']}"))
    return problems


def gate_horizon(task_id: str) -> list[Problem]:
    """The oracle needs enough tool calls to read a real chart, within the step budget."""
    spec = load_spec(task_id)
    least = MIN_TOOL_CALLS[spec.tier]
    calls = [r.tool_calls for r in _oracle_runs(task_id)]
    problems = []
    if min(calls) < least:
        problems.append(f"the oracle makes {min(calls)} tool calls; the {spec.tier} tier "
                        f"needs at least {least}")
    if max(calls) + 1 > spec.max_steps:
        problems.append(f"the oracle needs {max(calls) + 1} steps, max_steps is "
                        f"{spec.max_steps}")
    return [Problem("horizon", p) for p in problems]


def gate_finish_at_once(task_id: str) -> list[Problem]:
    """Finishing at once scores 0."""
    env = _env()
    try:
        env.reset(seed=0, options={"task_id": task_id, "variant": "canonical"})
        *_, info = env.step({"tool": "finish", "arguments": {"summary": "no action"}})
    finally:
        env.close()
    if info["score"] == 0.0 and info["success"] is False:
        return []
    passed = [k for k, v in info["checkpoints"].items() if v["passed"]]
    return [Problem("finish_at_once", f"score {info['score']:.2f}; passed {passed}")]


def gate_note_without_orders(task_id: str) -> list[Problem]:
    """The oracle's reads and note without its EHR writes fail every action checkpoint."""
    env = _env()
    try:
        env.reset(seed=0, options={"task_id": task_id, "variant": "canonical"})
        info: dict[str, Any] = {}
        for action in env.unwrapped.oracle_actions():
            if action["tool"] not in WRITES:
                *_, info = env.step(action)
    finally:
        env.close()
    actions = {k: v for k, v in info["checkpoints"].items()
               if v["capability"] == "action_execution"}
    if not actions:
        return [Problem("note_without_orders", "no action_execution checkpoint")]
    passed = sorted(k for k, v in actions.items() if v["passed"])
    return [Problem("note_without_orders", f"{k} passes without any EHR write") for k in passed]


def _prescribes(task_id: str) -> bool:
    return any(c.tool == "fhir_medication_request_create"
               for c in get_instance(task_id).oracle.calls)


def adversaries_for(task_id: str) -> list[str]:
    """The scripted reward hacks that apply to a task."""
    return [name for name in ADVERSARIES
            if name not in NEEDS_A_PRESCRIPTION or _prescribes(task_id)]


def gate_adversarial(task_id: str) -> list[Problem]:
    """Every scripted reward hack fails (stuffing, hedged alternatives, duplicate double-dose
    orders, the brief as the note, a note without orders, orders without a note)."""
    env = _env(max_steps=80)
    try:
        succeeded = [name for name in adversaries_for(task_id)
                     if _episode(env, AdversarialAgent(name), task_id, None).success]
    finally:
        env.close()
    return [Problem(f"adversarial:{name}", f"{name} succeeds") for name in succeeded]


def gate_replay(task_id: str) -> list[Problem]:
    """The canonical answer replayed on the variants succeeds on at most 20% of them: the
    variants move the answer, so a memorized answer does not pay."""
    env = _env(max_steps=80)
    try:
        won = [v for v in REPLAY_VARIANTS
               if _episode(env, CanonicalReplayAgent(), task_id, v).success]
    finally:
        env.close()
    if len(won) <= MAX_REPLAY_SUCCESSES:
        return []
    return [Problem("replay", f"the canonical answer succeeds on {len(won)} of "
                    f"{len(REPLAY_VARIANTS)} variants ({won}); at most {MAX_REPLAY_SUCCESSES}")]


def gate_corpus(task_id: str) -> list[Problem]:
    """The dev note corpus is complete, and the note graders misgrade few of its notes."""
    from physbench_gym.eval.calibrate import calibrate, note_checkpoints

    corpus = load_corpus(task_id)
    if corpus is None:
        return [Problem("corpus", f"no note corpus at {corpus_path(task_id)}")]
    correct = [n for n in corpus.notes if n.kind == "correct"]
    wrong = [n for n in corpus.notes if n.kind == "wrong"]
    styles = {n.style.strip().lower() for n in correct if n.style.strip()}
    problems = []
    if len(correct) < MIN_CORRECT_NOTES or len(styles) < MIN_STYLES:
        problems.append(f"{len(correct)} correct notes in {len(styles)} styles, need "
                        f"{MIN_CORRECT_NOTES} in {MIN_STYLES}")
    if len(wrong) < MIN_WRONG_NOTES:
        problems.append(f"{len(wrong)} wrong notes, need {MIN_WRONG_NOTES}")
    graded = set(note_checkpoints(task_id))
    stray = sorted({n.target for n in wrong} - graded)
    if stray:
        problems.append(f"wrong notes target {stray}, not note checkpoints {sorted(graded)}")
    if problems:
        return [Problem("corpus", p) for p in problems]
    tally = calibrate([task_id], ("dev",)).tally()
    if tally.fn_rate > MAX_FALSE_NEGATIVES:
        problems.append(f"false negatives {tally.false_negatives}/{tally.correct} "
                        f"({tally.fn_rate:.0%}) above {MAX_FALSE_NEGATIVES:.0%}")
    if tally.fp_rate > MAX_FALSE_POSITIVES:
        problems.append(f"false positives {tally.false_positives}/{tally.wrong} "
                        f"({tally.fp_rate:.0%}) above {MAX_FALSE_POSITIVES:.0%}")
    return [Problem("corpus", p) for p in problems]


def review_path(task_id: str):
    """Where a task's independent clinical review lives."""
    return spec_paths()[task_id].parent / "reviews" / f"{task_id}.md"


def open_findings(review: str) -> list[str]:
    """Critical and major findings of a review whose status is not fixed or answered."""
    starts = [m.start() for m in _FINDING.finditer(review)]
    ends = sorted(starts[1:] + [m.start() for m in _HEADING.finditer(review)] + [len(review)])
    found = []
    for start in starts:
        body = review[start:next(end for end in ends if end > start)]
        severity = _FINDING.match(body).group(1).lower()
        status = _STATUS.search(body)
        verdict = status.group(1).lower() if status else ""
        if severity in ("critical", "major") and verdict not in ("fixed", "answered"):
            line = review[:start].count("\n") + 1
            title = body.strip().splitlines()[0][:80]
            found.append(f"line {line}: {verdict or 'no status'}: {title}")
    return found


def gate_review(task_id: str) -> list[Problem]:
    """An independent clinical review sits beside the task with no open critical or major
    finding."""
    path = review_path(task_id)
    if not path.is_file():
        return [Problem("review", f"no review at {path}")]
    return [Problem("review", p) for p in open_findings(path.read_text(encoding="utf-8"))]


GATES: dict[str, Callable[[str], list[Problem]]] = {
    "spec": gate_spec,
    "chart": gate_chart,
    "codes": gate_codes,
    "oracle": gate_oracle,
    "horizon": gate_horizon,
    "finish_at_once": gate_finish_at_once,
    "note_without_orders": gate_note_without_orders,
    "adversarial": gate_adversarial,
    "replay": gate_replay,
    "corpus": gate_corpus,
    "review": gate_review,
}


@cache
def _problems(task_id: str, gate: str) -> tuple[Problem, ...]:
    """A gate's findings, computed once per process (specs do not change while it runs)."""
    try:
        return tuple(GATES[gate](task_id))
    except PhysBenchError as error:
        return (Problem(gate, f"error: {error}"),)


def run_gate(task_id: str, gate: str) -> GateResult:
    """One gate's verdict, with the task's known gaps applied."""
    if gate not in GATES:
        raise PhysBenchError(f"unknown gate {gate!r}; gates: {', '.join(GATES)}")
    try:
        listed = load_spec(task_id).known_gaps
    except PhysBenchError:
        listed = {}
    gaps = {k: v for k, v in listed.items() if k == gate or k.startswith(f"{gate}:")}
    problems = _problems(task_id, gate)
    unlisted = [p.message for p in problems if p.key not in gaps]
    stale = [f"listed gap {k!r} no longer occurs: remove it from known_gaps"
             for k in gaps if not any(p.key == k for p in problems)]
    if unlisted or stale:
        return GateResult(task_id, gate, "fail", tuple(unlisted + stale))
    if problems:
        return GateResult(task_id, gate, "gap", tuple(
            f"{p.message} (known gap: {gaps[p.key]})" for p in problems))
    return GateResult(task_id, gate, "pass")


def check_task(task_id: str, gates: Iterable[str] | None = None) -> list[GateResult]:
    """Every gate (or the named ones) for a task, in order."""
    return [run_gate(task_id, gate) for gate in (gates or GATES)]
