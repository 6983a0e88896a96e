"""An optional LLM judge for rubric checkpoints, and the chat-completions client it speaks with.

A checkpoint with a ``rubric`` states what a correct note must say; its description, rendered
with the variant's values, is the ground truth. Without a judge on the grading context the
checkpoint's deterministic grader decides; with a judge, the judge decides (grader
``"llm:<model>"``); see ``engine.judged``.

The judge asks an OpenAI-compatible endpoint for strict JSON ``{"verdict": "pass"|"fail",
"reason": "..."}``. An answer that is not such an object (one optional Markdown code fence
around it is tolerated) fails the checkpoint with the reason ``"judge answer unparsable: ..."``
and is not cached, so a later run asks again; it never passes. Parsed verdicts are cached on
disk, one JSON file per sha256 of (rubric, ground truth, note, model), so a second run makes no
request. An endpoint that still fails after its retries raises ``JudgeError``.

``ChatCompletionsClient`` lives here, at the lowest layer that needs it, so that agents (a
higher layer) can share it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from physbench_gym.grading.core import (
    CheckpointResult,
)
from physbench_gym.llm import ChatCompletionsClient, EndpointError


class JudgeError(EndpointError):
    """The judge's endpoint could not give a verdict (an infrastructure failure)."""


JUDGE_SYSTEM_PROMPT = (
    "You grade a physician's consult note against a rubric. Decide only from the rubric and "
    "the ground truth; a note that states contradictory decisions, hedges, or lists keywords "
    "without committing fails. Answer with one JSON object and nothing else: "
    '{"verdict": "pass" or "fail", "reason": "<one sentence>"}.'
)


class LLMJudge:
    """A rubric judge backed by an OpenAI-compatible endpoint, with an on-disk verdict cache.

    Pass it to an env with ``gym.make(env_id, judge=LLMJudge(model=...))``.
    """

    def __init__(self, model: str, base_url: str = "https://api.openai.com/v1",
                 api_key_env: str | None = "OPENAI_API_KEY", cache_dir: str | Path | None = None,
                 timeout: float = 60.0, max_retries: int = 5, backoff_base: float = 1.0,
                 backoff_max: float = 30.0) -> None:
        self.model = model
        self.name = f"llm:{model}"
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.requests_made = 0
        self._memory: dict[str, dict[str, str]] = {}
        self._client = ChatCompletionsClient(model, base_url, api_key_env, timeout, max_retries,
                                             backoff_base, backoff_max, seed=0)

    def judge(self, rubric: str, ground_truth: str, note: str) -> CheckpointResult:
        """Grade ``note`` against ``rubric`` and ``ground_truth``; cached answers are reused."""
        key = self.cache_key(rubric, ground_truth, note)
        cached = self._cached(key)
        if cached is not None:
            return self._result(cached)
        answer = self._ask(rubric, ground_truth, note)
        try:
            verdict = parse_verdict(answer)
        except ValueError as exc:
            return CheckpointResult(False, f"judge answer unparsable: {exc}", self.name)
        self._store(key, verdict)
        return self._result(verdict)

    def cache_key(self, rubric: str, ground_truth: str, note: str) -> str:
        """The sha256 that names a verdict in the cache."""
        text = json.dumps([rubric, ground_truth, note, self.model], ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def close(self) -> None:
        """Release the endpoint's connections."""
        self._client.close()

    def _ask(self, rubric: str, ground_truth: str, note: str) -> str:
        user = (f"Rubric (what a correct note must state):\n{rubric}\n\n"
                f"Ground truth for this patient:\n{ground_truth}\n\n"
                f"Note to grade:\n<<<\n{note}\n>>>")
        payload = {"messages": [{"role": "system", "content": JUDGE_SYSTEM_PROMPT},
                                {"role": "user", "content": user}],
                   "temperature": 0.0, "max_tokens": 300}
        self.requests_made += 1
        try:
            response = self._client.complete(payload)
        except EndpointError as exc:
            raise JudgeError(f"judge {self.model}: {exc}", exc.status, exc.attempts) from exc
        return response["choices"][0]["message"].get("content") or ""

    def _result(self, verdict: dict[str, str]) -> CheckpointResult:
        return CheckpointResult(verdict["verdict"] == "pass", verdict["reason"], self.name)

    def _cached(self, key: str) -> dict[str, str] | None:
        if key in self._memory:
            return self._memory[key]
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            verdict = parse_verdict(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        self._memory[key] = verdict
        return verdict

    def _store(self, key: str, verdict: dict[str, str]) -> None:
        self._memory[key] = verdict
        path = self._path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({**verdict, "model": self.model}), encoding="utf-8")
        os.replace(temporary, path)

    def _path(self, key: str) -> Path | None:
        return self.cache_dir / f"{key}.json" if self.cache_dir is not None else None


def parse_verdict(answer: str) -> dict[str, str]:
    """Read ``{"verdict": "pass"|"fail", "reason": str}``; raise ValueError saying what is wrong.

    The answer must be exactly one JSON object (optionally in one Markdown code fence) with a
    lowercase verdict and a non-empty reason; other keys are ignored.
    """
    text = _strip_fence(answer.strip())
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"not a JSON object: {answer[:200]!r}") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a JSON object: {answer[:200]!r}")
    verdict, reason = data.get("verdict"), data.get("reason")
    if verdict not in ("pass", "fail"):
        raise ValueError(f'"verdict" must be "pass" or "fail", got {verdict!r}')
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError('"reason" must be a non-empty string')
    return {"verdict": verdict, "reason": reason.strip()}


def _strip_fence(text: str) -> str:
    if not (text.startswith("```") and text.endswith("```") and text.count("```") == 2):
        return text
    inner = text[3:-3]
    first_line, _, rest = inner.partition("\n")
    return (rest if first_line.strip().lower() in ("", "json") else inner).strip()
