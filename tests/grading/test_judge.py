"""The LLM judge against a scripted chat-completions endpoint, and the rubric primitive."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from physbench_gym.errors import TaskSpecError
from physbench_gym.grading.core import GradingContext
from physbench_gym.grading.engine import build_checkpoints
from physbench_gym.grading.judge import JudgeError, LLMJudge, parse_verdict
from tests.stub_llm_server import Failure, Reply, StubLLMServer, assistant_text

NOTE_PATH = "/workspace/output/consult_note.md"
RUBRIC = "States that levothyroxine is increased to 88 mcg daily with TSH recheck in 6 weeks."
TRUTH = "TSH 8.9 mIU/L on levothyroxine 75 mcg; correct plan: 88 mcg daily, TSH in 6-8 weeks."
NOTE = "Assessment: under-replaced hypothyroidism (TSH 8.9). Plan: increase LT4 to 88 mcg."
FALLBACK = {"note_value": {"concept": ["tsh"], "value": 8.9, "tolerance": 0.05}}


@pytest.fixture
def stub():
    with StubLLMServer() as server:
        yield server


def make_judge(stub, cache_dir, model: str = "judge-1") -> LLMJudge:
    return LLMJudge(model=model, base_url=stub.base_url, api_key_env=None, cache_dir=cache_dir,
                    timeout=5.0, max_retries=1, backoff_base=0.01)


def answer(text: str) -> Reply:
    return Reply(assistant_text(text), usage={"prompt_tokens": 50, "completion_tokens": 9})


def test_pass_verdict_and_prompt_contents(stub, tmp_path):
    stub.push(answer('{"verdict": "pass", "reason": "Plan states 88 mcg and a recheck."}'))
    result = make_judge(stub, tmp_path).judge(RUBRIC, TRUTH, NOTE)
    assert result.passed and result.grader == "llm:judge-1"
    assert result.reason == "Plan states 88 mcg and a recheck."
    request, = stub.requests
    assert request["model"] == "judge-1" and request["temperature"] == 0.0
    user = request["messages"][-1]["content"]
    assert RUBRIC in user and TRUTH in user and NOTE in user
    assert '"verdict"' in request["messages"][0]["content"]


def test_fail_verdict(stub, tmp_path):
    stub.push(answer('```json\n{"verdict": "fail", "reason": "No recheck interval."}\n```'))
    result = make_judge(stub, tmp_path).judge(RUBRIC, TRUTH, NOTE)
    assert not result.passed and result.reason == "No recheck interval."
    assert result.grader == "llm:judge-1"


@pytest.mark.parametrize("text", [
    "The note passes.",
    '{"verdict": "PASS", "reason": "ok"}',
    '{"verdict": "pass"}',
    '{"verdict": "pass", "reason": "   "}',
    '["pass", "ok"]',
    '{"verdict": "pass", "reason": "ok"} trailing words',
    "",
])
def test_unparsable_answer_fails_with_a_clear_reason_and_is_not_cached(stub, tmp_path, text):
    stub.push(answer(text), answer('{"verdict": "pass", "reason": "fine"}'))
    judge = make_judge(stub, tmp_path)
    result = judge.judge(RUBRIC, TRUTH, NOTE)
    assert not result.passed and result.grader == "llm:judge-1"
    assert result.reason.startswith("judge answer unparsable: ")
    assert list(tmp_path.iterdir()) == []
    assert judge.judge(RUBRIC, TRUTH, NOTE).passed
    assert len(stub.requests) == 2


def test_second_run_hits_the_disk_cache(stub, tmp_path):
    stub.push(answer('{"verdict": "fail", "reason": "Dose missing."}'))
    first = make_judge(stub, tmp_path).judge(RUBRIC, TRUTH, NOTE)
    second_run = make_judge(stub, tmp_path)
    assert second_run.judge(RUBRIC, TRUTH, NOTE) == first
    assert len(stub.requests) == 1 and second_run.requests_made == 0
    cached, = tmp_path.iterdir()
    assert cached.name == f"{second_run.cache_key(RUBRIC, TRUTH, NOTE)}.json"
    assert json.loads(cached.read_text())["verdict"] == "fail"


def test_cache_key_covers_rubric_truth_note_and_model(stub, tmp_path):
    judge = make_judge(stub, tmp_path)
    keys = {judge.cache_key(RUBRIC, TRUTH, NOTE), judge.cache_key(RUBRIC + ".", TRUTH, NOTE),
            judge.cache_key(RUBRIC, TRUTH + ".", NOTE), judge.cache_key(RUBRIC, TRUTH, NOTE + "."),
            make_judge(stub, tmp_path, "judge-2").cache_key(RUBRIC, TRUTH, NOTE)}
    assert len(keys) == 5
    stub.push(answer('{"verdict": "pass", "reason": "a"}'),
              answer('{"verdict": "fail", "reason": "b"}'))
    assert judge.judge(RUBRIC, TRUTH, NOTE).passed
    assert not judge.judge(RUBRIC, TRUTH, NOTE + " Continue same dose.").passed
    assert len(stub.requests) == 2


def test_endpoint_failure_raises_judge_error(stub, tmp_path):
    stub.push(Failure(503), Failure(503))
    with pytest.raises(JudgeError, match="judge judge-1: .*failed after 2 attempts.*HTTP 503"):
        make_judge(stub, tmp_path).judge(RUBRIC, TRUTH, NOTE)


def test_parse_verdict_is_strict():
    assert parse_verdict(' {"verdict": "fail", "reason": " r "} ') == {"verdict": "fail",
                                                                      "reason": "r"}
    with pytest.raises(ValueError, match='"verdict" must be "pass" or "fail"'):
        parse_verdict('{"verdict": "yes", "reason": "r"}')


def context(client, note: str | None, judge=None) -> GradingContext:
    files = {NOTE_PATH: note} if note is not None else {}
    return GradingContext(client=client, episode_tag={"system": "s", "code": "c"},
                          patient_id="p1", note_path=NOTE_PATH, files=files, judge=judge)


class Checkpoint(SimpleNamespace):
    """A rendered spec checkpoint as the engine reads it."""


def rubric_grader(grader=FALLBACK, rubric: str = RUBRIC):
    checkpoint = Checkpoint(id="plan", capability="documentation", description=TRUTH,
                            weight=1.0, grader=grader, rubric=rubric)
    built, = build_checkpoints([checkpoint], "test")
    return built.grader


def test_rubric_without_judge_uses_the_deterministic_grader(empty_client):
    grader = rubric_grader()
    passed = grader.check(context(empty_client, NOTE))
    failed = grader.check(context(empty_client, "Plan: increase LT4 to 88 mcg."))
    assert passed.passed and passed.grader == "deterministic"
    assert not failed.passed and failed.grader == "deterministic"
    assert grader.triggers == {"file"}


def test_rubric_with_judge_lets_the_judge_decide(empty_client, stub, tmp_path):
    stub.push(answer('{"verdict": "fail", "reason": "Recheck interval missing."}'))
    judge = make_judge(stub, tmp_path)
    grader = rubric_grader()
    result = grader.check(context(empty_client, NOTE, judge))
    assert not result.passed and result.grader == "llm:judge-1"
    assert result.reason == "Recheck interval missing."
    user = stub.requests[0]["messages"][-1]["content"]
    assert RUBRIC in user and TRUTH in user
    missing = grader.check(context(empty_client, None, judge))
    assert not missing.passed and "was not written" in missing.reason
    assert len(stub.requests) == 1


def test_a_rubric_needs_a_grader_that_reads_only_the_note():
    ordered = {"ordered": {"resource_type": "ServiceRequest", "codes": ["http://loinc.org|3016-3"]}}
    with pytest.raises(TaskSpecError, match="reads only the note"):
        rubric_grader(grader={"all": {"of": [FALLBACK, ordered]}})
