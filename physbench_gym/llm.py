"""A client for OpenAI-compatible ``/v1/chat/completions`` endpoints, with retries.

Shared by the LLM agent and the LLM judge; failures after the retries raise
:class:`EndpointError`, an infrastructure error (not the agent's mistake).
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import time
from typing import Any

import requests

from physbench_gym.errors import InfrastructureError, PhysBenchError

RETRYABLE_STATUS = frozenset({408, 409, 429})


class EndpointError(InfrastructureError):
    """A chat-completions endpoint refused a request, or failed after every retry."""

    def __init__(self, message: str, status: int | None = None, attempts: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


class ChatCompletionsClient:
    """POSTs to an OpenAI-compatible ``/chat/completions`` with retries and a request timeout.

    429 (honouring ``Retry-After``, capped at ``backoff_max``), 408/409, 5xx, connection
    errors, timeouts and unreadable 200 bodies are retried with exponential backoff and
    seeded jitter; other statuses fail at once. ``retries`` records every retry (error and
    delay) for diagnosis.
    """

    def __init__(self, model: str, base_url: str, api_key_env: str | None = "OPENAI_API_KEY",
                 timeout: float = 60.0, max_retries: int = 5, backoff_base: float = 1.0,
                 backoff_max: float = 30.0, seed: int | None = None) -> None:
        if max_retries < 0 or timeout <= 0:
            raise PhysBenchError("max_retries must be >= 0 and timeout > 0")
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key_env = api_key_env
        self.timeout, self.max_retries = timeout, max_retries
        self.backoff_base, self.backoff_max = backoff_base, backoff_max
        self.retries: list[dict[str, Any]] = []
        self._rng = random.Random(seed)
        self._session = requests.Session()

    def complete(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Send one chat-completions request; return the decoded response (with ``choices``)."""
        body = {"model": self.model, **payload}
        last_error, last_status = "no attempt", None
        retry_after: float | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                delay = self._delay(attempt - 1, retry_after)
                self.retries.append({"attempt": attempt, "error": last_error, "delay": delay})
                time.sleep(delay)
            retry_after = None
            try:
                response = self._session.post(self.url, json=body, headers=self._headers(),
                                              timeout=self.timeout)
            except requests.Timeout:
                last_error, last_status = f"timed out after {self.timeout:g} s", None
                continue
            except requests.RequestException as exc:
                last_error, last_status = f"connection error: {exc}", None
                continue
            last_status = response.status_code
            if response.status_code == 200:
                decoded = _decode_completion(response)
                if isinstance(decoded, dict):
                    return decoded
                last_error = f"HTTP 200 with an unreadable body: {decoded}"
                continue
            last_error = f"HTTP {response.status_code}: {response.text[:300]}"
            if not _retryable(response.status_code):
                raise EndpointError(f"{self.url} refused the request: {last_error}",
                                    response.status_code, attempt + 1)
            retry_after = _retry_after(response.headers.get("Retry-After"))
        attempts = self.max_retries + 1
        raise EndpointError(f"{self.url} failed after {attempts} attempts; last error: "
                            f"{last_error}", last_status, attempts)

    def close(self) -> None:
        """Release pooled connections (safe to call twice)."""
        self._session.close()

    def _headers(self) -> dict[str, str]:
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _delay(self, retry: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.backoff_max)
        ceiling = min(self.backoff_max, self.backoff_base * 2 ** retry)
        return ceiling * self._rng.uniform(0.5, 1.0)


def _retryable(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _decode_completion(response: requests.Response) -> dict[str, Any] | str:
    try:
        data = response.json()
    except ValueError:
        return f"not JSON: {response.text[:200]!r}"
    choices = data.get("choices") if isinstance(data, dict) else None
    if not choices or not isinstance(choices[0], dict) \
            or not isinstance(choices[0].get("message"), dict):
        return f"no choices[0].message in {json.dumps(data)[:200]}"
    return data


