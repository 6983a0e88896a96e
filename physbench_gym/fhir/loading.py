"""Reading FHIR resources from files and shaping them into transaction Bundles.

``read_resources`` feeds ``BaseStore.from_resources`` (``physbench serve --data``);
``bundle_from_resources`` and ``transaction_chunks`` prepare the same data for loading into any
FHIR server through ``client.load_bundle``.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

SUFFIXES = (".ndjson", ".json")
_WRITE_METHODS = ("PUT", "POST")


class ResourceFileError(ValueError):
    """A resource file is missing, unreadable or does not hold FHIR resources."""

    def __init__(self, path: str | Path, message: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


def read_resources(path: str | Path) -> Iterator[dict[str, Any]]:
    """Yield every resource of a file or directory of NDJSON (``*.ndjson``) / Bundle JSON files.

    Directories are read recursively in sorted order; a Bundle yields its entries' resources.

    Raises:
        ResourceFileError: naming the file (and line) of the first bad input.
    """
    root = Path(path)
    if root.is_dir():
        files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
        if not files:
            raise ResourceFileError(root, "holds no *.ndjson or *.json files")
    elif root.is_file():
        if root.suffix not in SUFFIXES:
            raise ResourceFileError(root, "is neither *.ndjson nor *.json")
        files = [root]
    else:
        raise ResourceFileError(root, "no such file or directory")
    for file in files:
        if file.suffix == ".ndjson":
            yield from _read_ndjson(file)
        else:
            yield from _read_json(file)


def _read_ndjson(file: Path) -> Iterator[dict[str, Any]]:
    with _open(file) as stream:
        lineno = 0
        while True:
            try:
                line = stream.readline()
            except UnicodeDecodeError as exc:
                raise ResourceFileError(file, f"is not UTF-8 text ({exc.reason})",
                                        lineno + 1) from exc
            if not line:
                return
            lineno += 1
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ResourceFileError(file, f"invalid JSON: {exc.msg}", lineno) from exc
            yield from _resources_of(value, file, lineno)


def _read_json(file: Path) -> Iterator[dict[str, Any]]:
    with _open(file) as stream:
        try:
            value = json.load(stream)
        except json.JSONDecodeError as exc:
            raise ResourceFileError(file, f"invalid JSON: {exc.msg}", exc.lineno) from exc
        except UnicodeDecodeError as exc:
            raise ResourceFileError(file, f"is not UTF-8 text ({exc.reason})") from exc
    yield from _resources_of(value, file, None)


def _open(file: Path) -> Any:
    try:
        return file.open(encoding="utf-8")
    except OSError as exc:
        raise ResourceFileError(file, f"cannot be read ({exc.strerror})") from exc


def _resources_of(value: Any, file: Path, line: int | None) -> Iterator[dict[str, Any]]:
    if not isinstance(value, dict) or not isinstance(value.get("resourceType"), str):
        raise ResourceFileError(file, "expected a JSON object with a resourceType", line)
    if value["resourceType"] != "Bundle":
        yield value
        return
    for index, entry in enumerate(value.get("entry") or []):
        resource = entry.get("resource") if isinstance(entry, dict) else None
        if resource is None and isinstance(entry, dict) and "request" in entry:
            continue
        if not isinstance(resource, dict) or not isinstance(resource.get("resourceType"), str):
            raise ResourceFileError(file, f"Bundle.entry[{index}].resource is not a resource", line)
        yield resource


def bundle_from_resources(resources: Iterable[dict[str, Any]], *,
                          method: str = "PUT") -> dict[str, Any]:
    """Wrap resources in a transaction Bundle for loading into any FHIR server.

    With ``method="PUT"`` each resource that has an id keeps it (``PUT Type/id``); resources
    without an id, and every resource with ``method="POST"``, are created (``POST Type``).
    """
    verb = method.upper()
    if verb not in _WRITE_METHODS:
        raise ValueError(f"method must be PUT or POST, not {method!r}")
    entries = []
    for resource in resources:
        kind = resource.get("resourceType")
        if not isinstance(kind, str):
            raise ValueError(f"not a FHIR resource (no resourceType): {str(resource)[:80]}")
        rid = resource.get("id")
        if verb == "PUT" and rid:
            entries.append({"fullUrl": f"{kind}/{rid}", "resource": resource,
                            "request": {"method": "PUT", "url": f"{kind}/{rid}"}})
        else:
            entries.append({"resource": resource, "request": {"method": "POST", "url": kind}})
    return {"resourceType": "Bundle", "type": "transaction", "entry": entries}


def transaction_chunks(bundle: dict[str, Any], chunk_size: int = 500) -> list[dict[str, Any]]:
    """Split any Bundle into transaction Bundles of at most ``chunk_size`` entries.

    Entries whose resource has an id become ``PUT Type/id`` (the id is kept) and ``urn:uuid``
    references to them are rewritten to ``Type/id``; entries are ordered so that a referenced
    resource is loaded no later than its referrers. If ``urn:`` references remain that only the
    server can resolve, everything goes in one transaction.
    """
    if bundle.get("resourceType") != "Bundle":
        raise ValueError("load_bundle needs a Bundle resource")
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    entries = [_as_write(entry, index) for index, entry in enumerate(bundle.get("entry") or [])]
    renames = {entry["fullUrl"]: entry["request"]["url"] for entry in entries
               if str(entry.get("fullUrl", "")).startswith("urn:")
               and entry["request"]["method"] == "PUT"}
    for entry in entries:
        if renames and "resource" in entry:
            entry["resource"] = _rewrite_references(entry["resource"], renames)
    entries = _dependency_order(entries)
    if any(ref.startswith("urn:") for entry in entries for ref in _references(entry)):
        chunk_size = max(len(entries), 1)
    return [{"resourceType": "Bundle", "type": "transaction", "entry": entries[i:i + chunk_size]}
            for i in range(0, len(entries), chunk_size)]


def _as_write(entry: Any, index: int) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise ValueError(f"Bundle.entry[{index}] is not an object")
    resource = entry.get("resource")
    request = dict(entry.get("request") or {})
    if resource is None:
        if not request:
            raise ValueError(f"Bundle.entry[{index}] has neither resource nor request")
        return dict(entry)
    if not isinstance(resource, dict) or not isinstance(resource.get("resourceType"), str):
        raise ValueError(f"Bundle.entry[{index}].resource is not a resource")
    kind, rid = resource["resourceType"], resource.get("id")
    method = str(request.get("method", "")).upper()
    if rid and method in ("", "POST", "PUT") and not request.get("ifNoneExist"):
        request = {"method": "PUT", "url": f"{kind}/{rid}"}
    elif not method:
        request = {"method": "POST", "url": kind}
    return {**entry, "resource": resource, "request": request}


def _references(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "reference" and isinstance(item, str):
                yield item
            else:
                yield from _references(item)
    elif isinstance(value, list):
        for item in value:
            yield from _references(item)


def _rewrite_references(value: Any, renames: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {key: (renames.get(item, item) if key == "reference" and isinstance(item, str)
                      else _rewrite_references(item, renames)) for key, item in value.items()}
    if isinstance(value, list):
        return [_rewrite_references(item, renames) for item in value]
    return value


def _dependency_order(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    position = {entry["request"]["url"]: index for index, entry in enumerate(entries)
                if entry["request"].get("method") == "PUT"}
    needs: list[set[int]] = []
    users: list[list[int]] = [[] for _ in entries]
    for index, entry in enumerate(entries):
        deps = {position[ref] for ref in _references(entry.get("resource"))
                if ref in position and position[ref] != index}
        needs.append(deps)
        for dep in deps:
            users[dep].append(index)
    ready = [index for index, deps in enumerate(needs) if not deps]
    heapq.heapify(ready)
    done = [False] * len(entries)
    ordered: list[dict[str, Any]] = []
    while ready:
        index = heapq.heappop(ready)
        done[index] = True
        ordered.append(entries[index])
        for user in users[index]:
            needs[user].discard(index)
            if not needs[user]:
                heapq.heappush(ready, user)
    ordered.extend(entry for index, entry in enumerate(entries) if not done[index])
    return ordered
