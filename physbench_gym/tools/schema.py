"""OpenAI function-calling schemas generated from pydantic argument models.

Pydantic's JSON Schema is reshaped into what function-calling models read best: references
inlined (no ``$defs``), no generated titles, optional fields shown with their plain type, and
``additionalProperties: false`` so unknown parameters are visibly not allowed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

JsonDict = dict[str, Any]
_NULL = {"type": "null"}


def function_schema(name: str, description: str, model: type[BaseModel]) -> JsonDict:
    """Build ``{"type": "function", "function": {...}}`` for one tool."""
    raw = model.model_json_schema()
    definitions = raw.pop("$defs", {})
    parameters = _clean(raw, definitions)
    parameters.pop("description", None)
    parameters["additionalProperties"] = False
    parameters.setdefault("properties", {})
    parameters["required"] = list(raw.get("required", []))
    return {"type": "function",
            "function": {"name": name, "description": description, "parameters": parameters}}


def _clean(node: Any, definitions: JsonDict) -> Any:
    if isinstance(node, list):
        return [_clean(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = definitions[node["$ref"].rsplit("/", 1)[-1]]
        extra = {key: value for key, value in node.items() if key != "$ref"}
        return _clean({**target, **extra}, definitions)
    cleaned: JsonDict = {}
    for key, value in node.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "properties":
            cleaned[key] = {name: _clean(sub, definitions) for name, sub in value.items()}
        else:
            cleaned[key] = _clean(value, definitions)
    return _without_null(cleaned)


def _without_null(node: JsonDict) -> JsonDict:
    options = node.get("anyOf")
    if not isinstance(options, list) or _NULL not in options:
        return node
    rest = [option for option in options if option != _NULL]
    if len(rest) != 1:
        return {**node, "anyOf": rest}
    merged = {key: value for key, value in node.items() if key != "anyOf"}
    return {**rest[0], **merged}
