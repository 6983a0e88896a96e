"""Validation of resources sent by clients: JSON shape, R4 structure, required codes, references.

Structure is checked by fhirclient's R4 models in strict mode (400 with the path of each
problem); business rules such as required-binding codes and referential integrity answer 422.
"""

from __future__ import annotations

import importlib
import json
import re
from typing import Any

from fhirclient.models.fhirabstractbase import FHIRValidationError

from physbench_gym.fhir.clock import is_valid_id
from physbench_gym.fhir.operation_outcome import OperationFailed, make_issue
from physbench_gym.fhir.rules import rule_issues
from physbench_gym.fhir.search_params import RESOURCE_TYPES
from physbench_gym.fhir.values import reference_key

JsonObject = dict[str, Any]
_MODELS: dict[str, type] = {}
_CLASS_REPR = re.compile(r"<class '(?:[\w.]+\.)?(\w+)'>")
_OBJECT_REPR = re.compile(r" (?:on|for) <[^>]+>")
_QUOTED = re.compile(r'"([^"]+)"')


def parse_json(body: bytes | JsonObject | None, what: str = "request body") -> JsonObject:
    """Decode a request body into a JSON object; raises 400 on anything else."""
    if body is None or body == b"":
        raise OperationFailed.single(400, "required", f"The {what} is empty; a JSON resource "
                                     "is required")
    if isinstance(body, (bytes, bytearray)):
        try:
            body = json.loads(body)
        except (UnicodeDecodeError, ValueError) as error:
            raise OperationFailed.single(400, "structure", f"The {what} is not valid JSON: "
                                         f"{error}") from None
    if not isinstance(body, dict):
        raise OperationFailed.single(400, "structure", f"The {what} must be a JSON object, "
                                     f"not {type(body).__name__}")
    return body


def check_id(id: str, where: str = "id") -> None:
    """Reject ids that are not ``[A-Za-z0-9-.]{1,64}`` with a 400."""
    if not is_valid_id(id):
        shown = id if len(id) <= 80 else id[:80] + "…"
        raise OperationFailed.single(400, "value", f"Invalid resource id '{shown}': ids must "
                                     "match [A-Za-z0-9-.]{1,64}", where)


def check_resource(resource: JsonObject, expected_type: str | None, root: str | None = None
                   ) -> None:
    """Raise 400 for structural problems, then 422 for broken rules (one issue per problem)."""
    rtype = resource.get("resourceType")
    if not isinstance(rtype, str) or rtype not in RESOURCE_TYPES:
        raise OperationFailed.single(400, "not-supported", f"Unknown or unsupported resourceType "
                                     f"{rtype!r}; supported: {', '.join(RESOURCE_TYPES)}",
                                     f"{root or 'resource'}.resourceType")
    if expected_type is not None and rtype != expected_type:
        raise OperationFailed.single(400, "invalid", f"resourceType '{rtype}' does not match the "
                                     f"URL's type '{expected_type}'", f"{rtype}.resourceType")
    root = root or rtype
    issues = _json_issues(resource, root) + _model_issues(resource, root)
    if issues:
        raise OperationFailed(400, issues)
    issues = rule_issues(resource, root)
    if issues:
        raise OperationFailed(422, issues)


def _json_issues(value: Any, path: str) -> list[JsonObject]:
    if value is None or value == "" or value == [] or value == {}:
        return [make_issue("structure", "Empty values (null, \"\", [], {}) are not allowed in "
                           "FHIR JSON", path)]
    if isinstance(value, dict):
        return [i for key, item in value.items() for i in _json_issues(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [i for n, item in enumerate(value) for i in _json_issues(item, f"{path}[{n}]")]
    return []


def _model_issues(resource: JsonObject, root: str) -> list[JsonObject]:
    model = _model(resource["resourceType"])
    try:
        model(resource, strict=True)
    except FHIRValidationError as error:
        return _flatten(error, root)
    except Exception as error:  # noqa: BLE001 - fhirclient raises bare errors on odd input
        return [make_issue("structure", f"Invalid resource: {error}", root)]
    return []


def _model(resource_type: str) -> type:
    model = _MODELS.get(resource_type)
    if model is None:
        module = importlib.import_module(f"fhirclient.models.{resource_type.lower()}")
        model = getattr(module, resource_type)
        _MODELS[resource_type] = model
    return model


def _flatten(error: FHIRValidationError, path: str) -> list[JsonObject]:
    issues: list[JsonObject] = []
    for inner in error.errors:
        if isinstance(inner, FHIRValidationError):
            issues.extend(_flatten(inner, _join(path, inner.path)))
        else:
            issues.append(_leaf_issue(inner, path))
    return issues


def _join(path: str, segment: str | None) -> str:
    if not segment:
        return path
    return path + "." + re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", segment)


def _leaf_issue(error: Exception, path: str) -> JsonObject:
    text = str(error).strip("'\"") if isinstance(error, KeyError) else str(error)
    names = _QUOTED.findall(text)
    if isinstance(error, KeyError) and names:
        return make_issue("required", f"Missing required element '{names[0]}'",
                          f"{path}.{names[0]}")
    if isinstance(error, AttributeError) and names:
        return make_issue("structure", f"Unknown element '{names[0]}'", f"{path}.{names[0]}")
    text = _OBJECT_REPR.sub("", _CLASS_REPR.sub(r"\1", text))
    return make_issue("value" if isinstance(error, ValueError) else "structure",
                      f"Invalid value: {text}", path)


def reference_issues(resource: JsonObject, root: str, exists: Any) -> list[JsonObject]:
    """422 issues for literal references to supported types that do not resolve."""
    issues = []
    for path, reference in _references(resource, root):
        if reference.startswith("#") or (":" in reference and not reference.startswith("http")):
            if reference.startswith("urn:"):
                issues.append(make_issue("not-found", f"Unresolved reference '{reference}'",
                                         path))
            continue
        key = reference_key(reference)
        rtype, _, id = key.partition("/")
        if rtype not in RESOURCE_TYPES:
            continue
        if not is_valid_id(id) or key.count("/") != 1:
            issues.append(make_issue("value", f"Malformed reference '{reference[:80]}'", path))
        elif not exists(key):
            issues.append(make_issue("not-found", f"Reference '{reference}' does not resolve: "
                                     f"{key} does not exist", path))
    return issues


def _references(value: Any, path: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        ref = value.get("reference")
        if isinstance(ref, str):
            found.append((path, ref))
        for key, item in value.items():
            if isinstance(item, (dict, list)) and key != "contained":
                found.extend(_references(item, f"{path}.{key}"))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found.extend(_references(item, f"{path}[{n}]"))
    return found
