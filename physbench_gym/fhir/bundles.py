"""Batch and transaction Bundles posted to the base URL.

A batch answers every entry on its own. A transaction is all-or-nothing: ``urn:uuid:`` full
URLs get server ids up front and every reference to them is rewritten, entries run in the R4
order (DELETE, POST, PUT, GET), references are checked once all writes are in, and any failure
rolls the overlay back to where it was.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from physbench_gym.fhir.messages import FhirRequest, FhirResponse
from physbench_gym.fhir.operation_outcome import OperationFailed, make_issue
from physbench_gym.fhir.search_params import RESOURCE_TYPES
from physbench_gym.fhir.validation import parse_json
from physbench_gym.fhir.writes import (
    check_references,
    conditional_match,
    create,
    new_id,
    referrers,
)

if TYPE_CHECKING:
    from physbench_gym.fhir.handler import FhirServer

JsonObject = dict[str, Any]
_ORDER = {"DELETE": 0, "POST": 1, "PUT": 2, "PATCH": 2, "GET": 3, "HEAD": 3}


def process(server: FhirServer, request: FhirRequest, base_url: str) -> FhirResponse:
    """Serve a POST of a batch or transaction Bundle to the base URL."""
    body = parse_json(request.body)
    if body.get("resourceType") != "Bundle" or body.get("type") not in ("batch", "transaction"):
        raise OperationFailed.single(400, "invalid", "POST to the base URL takes a Bundle of type "
                                     "batch or transaction", "Bundle.type")
    entries = body.get("entry", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise OperationFailed.single(400, "structure", "Bundle.entry must be a list of objects",
                                     "Bundle.entry")
    if body["type"] == "batch":
        return _batch(server, entries, base_url)
    return _transaction(server, entries, base_url)


def _batch(server: FhirServer, entries: list[JsonObject], base_url: str) -> FhirResponse:
    answers = []
    for n, entry in enumerate(entries):
        try:
            response = server.dispatch(_inner(entry, n, base_url), base_url,
                                       check_references=True)
            answers.append(_answer(response))
        except OperationFailed as failure:
            answers.append({"response": {"status": _status(failure.status),
                                         "outcome": failure.outcome()}})
    return _bundle("batch-response", answers)


def _transaction(server: FhirServer, entries: list[JsonObject], base_url: str) -> FhirResponse:
    view = server.store
    state = view.snapshot()
    current = 0
    try:
        requests = [_inner(entry, n, base_url) for n, entry in enumerate(entries)]
        context = server.writes(base_url, check_references=False)
        plan = _assign(context, entries, requests)
        mapping = {urn: key for urn, key in plan.items() if key}
        requests = [_rewritten(r, mapping) for r in requests]
        answers: list[JsonObject | None] = [None] * len(requests)
        for n in sorted(range(len(requests)), key=lambda i: _ORDER.get(requests[i].method, 9)):
            current = n
            answers[n] = _run(server, context, requests[n], _full_url(entries[n]), plan, base_url)
        current = -1
        _final_checks(server, requests, answers, context)
    except OperationFailed as failure:
        view.restore(state)
        raise _located(failure, current) from None
    return _bundle("transaction-response", [a for a in answers if a is not None])


def _assign(context: Any, entries: list[JsonObject], requests: list[FhirRequest]
            ) -> dict[str, str]:
    plan: dict[str, str] = {}
    for entry, request in zip(entries, requests, strict=True):
        urn = _full_url(entry)
        if not urn.startswith("urn:"):
            continue
        rtype = request.path.split("/")[0]
        if request.method == "POST":
            condition = request.header("If-None-Exist")
            existing = conditional_match(context, rtype, condition) if condition else None
            plan[urn] = existing.key if existing else f"{rtype}/{new_id(context, rtype)}"
        elif request.method == "PUT":
            plan[urn] = request.path
    return plan


def _run(server: FhirServer, context: Any, request: FhirRequest, urn: str,
         plan: dict[str, str], base_url: str) -> JsonObject:
    rtype = request.path.split("/")[0]
    if request.method == "POST" and urn in plan:
        key = plan[urn]
        existing = context.view.entry(*key.split("/", 1))
        if existing is not None:
            return {"response": {"status": "200 OK", "location": f"{base_url}/{key}"}}
        response = create(context, rtype, request.body, None, None, key.split("/", 1)[1])
        return _answer(response)
    return _answer(server.dispatch(request, base_url, check_references=False))


def _final_checks(server: FhirServer, requests: list[FhirRequest],
                  answers: list[JsonObject | None], context: Any) -> None:
    for n, (request, answer) in enumerate(zip(requests, answers, strict=True)):
        location = (answer or {}).get("response", {}).get("location", "")
        if request.method in ("POST", "PUT") and location:
            key = "/".join(location.split("/_history/")[0].split("/")[-2:])
            entry = server.store.entry(*key.split("/", 1))
            if entry is not None:
                try:
                    check_references(context, entry.resource, entry.resource_type)
                except OperationFailed as failure:
                    raise _located(failure, n) from None
        if request.method == "DELETE":
            holders = referrers(server.store, request.path)
            if holders:
                raise _located(OperationFailed.single(409, "conflict", f"Cannot delete "
                               f"{request.path}: still referenced by {', '.join(holders[:5])}"), n)


def _inner(entry: JsonObject, n: int, base_url: str) -> FhirRequest:
    spec = entry.get("request")
    where = f"Bundle.entry[{n}].request"
    if not isinstance(spec, dict) or not isinstance(spec.get("url"), str) or \
            spec.get("method") not in _ORDER:
        raise OperationFailed.single(400, "structure", f"Bundle.entry[{n}] needs request.method "
                                     "(GET, POST, PUT, DELETE) and request.url", where)
    url = spec["url"]
    if url.startswith(base_url + "/"):
        url = url[len(base_url) + 1:]
    path, _, query = url.partition("?")
    if path.split("/")[0] not in RESOURCE_TYPES:
        raise OperationFailed.single(400, "not-supported", f"Bundle.entry[{n}].request.url "
                                     f"'{url[:80]}' must start with a supported resource type",
                                     f"{where}.url")
    headers = {name: spec[key] for key, name in (("ifNoneExist", "If-None-Exist"),
                                                 ("ifMatch", "If-Match"))
               if isinstance(spec.get(key), str)}
    resource = entry.get("resource")
    return FhirRequest(spec["method"], path, tuple(parse_qsl(query, keep_blank_values=True)),
                       resource if isinstance(resource, dict) else None, headers)


def _full_url(entry: JsonObject) -> str:
    value = entry.get("fullUrl")
    return value if isinstance(value, str) else ""


def _rewritten(request: FhirRequest, mapping: dict[str, str]) -> FhirRequest:
    if not isinstance(request.body, dict):
        return request
    body = _replace(json.loads(json.dumps(request.body)), mapping)
    return FhirRequest(request.method, request.path, request.query, body, request.headers)


def _replace(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _replace(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, mapping) for v in value]
    if isinstance(value, str) and value in mapping:
        return mapping[value]
    return value


def _answer(response: FhirResponse) -> JsonObject:
    result: JsonObject = {"status": _status(response.status)}
    for header, key in (("Location", "location"), ("ETag", "etag"),
                        ("Last-Modified", "lastModified")):
        if response.headers.get(header):
            result[key] = response.headers[header]
    answer: JsonObject = {"response": result}
    if response.body is not None and "Location" not in response.headers:
        answer["resource"] = response.body
    return answer


def _status(code: int) -> str:
    try:
        return f"{code} {HTTPStatus(code).phrase}"
    except ValueError:
        return str(code)


def _bundle(kind: str, answers: list[JsonObject]) -> FhirResponse:
    body = {"resourceType": "Bundle", "type": kind, "entry": answers}
    return FhirResponse(200, body, {"Content-Type": "application/fhir+json"})


def _located(failure: OperationFailed, n: int) -> OperationFailed:
    if n < 0:
        return failure
    prefix = f"Bundle.entry[{n}]"
    issues = []
    for issue in failure.issues:
        moved = dict(issue)
        moved["diagnostics"] = f"{prefix}: {issue['diagnostics']}"
        moved["expression"] = [_entry_path(e, prefix) for e in issue.get("expression", [])] or \
            [prefix]
        issues.append(moved)
    return OperationFailed(failure.status, [make_issue(**_issue_args(i)) for i in issues])


def _entry_path(expression: str, prefix: str) -> str:
    head, dot, rest = expression.partition(".")
    if head in RESOURCE_TYPES:
        return f"{prefix}.resource{dot}{rest}"
    return f"{prefix}.{expression}"


def _issue_args(issue: JsonObject) -> JsonObject:
    return {"code": issue["code"], "diagnostics": issue["diagnostics"],
            "expression": issue.get("expression"), "severity": issue["severity"]}
