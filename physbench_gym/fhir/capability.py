"""The server's CapabilityStatement, generated from the search parameter table it really uses."""

from __future__ import annotations

from typing import Any

from physbench_gym.fhir.search_params import SEARCH_PARAMS

JsonObject = dict[str, Any]
INTERACTIONS = ("read", "vread", "update", "delete", "create", "search-type")
FHIR_VERSION = "4.0.1"


def capability_statement(date: str, base_url: str) -> JsonObject:
    """Describe every supported type, interaction and search parameter."""
    return {
        "resourceType": "CapabilityStatement",
        "status": "active",
        "date": date,
        "kind": "instance",
        "software": {"name": "physbench-gym embedded FHIR server"},
        "implementation": {"description": "Embedded FHIR R4 EHR", "url": base_url},
        "fhirVersion": FHIR_VERSION,
        "format": ["json", "application/fhir+json"],
        "rest": [{
            "mode": "server",
            "resource": [_resource(rtype) for rtype in sorted(SEARCH_PARAMS)],
            "interaction": [{"code": "transaction"}, {"code": "batch"}],
        }],
    }


def _resource(rtype: str) -> JsonObject:
    params = SEARCH_PARAMS[rtype]
    references = [p for p in params.values() if p.type == "reference"]
    entry: JsonObject = {
        "type": rtype,
        "interaction": [{"code": code} for code in INTERACTIONS],
        "versioning": "versioned",
        "readHistory": False,
        "updateCreate": True,
        "conditionalCreate": True,
        "conditionalUpdate": False,
        "conditionalDelete": "not-supported",
        "searchInclude": [f"{rtype}:{p.name}" for p in references],
        "searchRevInclude": sorted(
            f"{source}:{p.name}" for source, table in SEARCH_PARAMS.items()
            for p in table.values() if p.type == "reference"
            and (not p.targets or rtype in p.targets)),
        "searchParam": [{
            "name": p.name,
            "definition": f"http://hl7.org/fhir/SearchParameter/{rtype}-{p.name.lstrip('_')}",
            "type": p.type,
            "documentation": p.expression(rtype),
        } for p in params.values()],
    }
    if rtype == "Patient":
        entry["operation"] = [{
            "name": "everything",
            "definition": "http://hl7.org/fhir/OperationDefinition/Patient-everything"}]
    return entry
