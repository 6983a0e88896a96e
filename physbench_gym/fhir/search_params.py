"""The search parameter table: names, types and element paths of the R4 SearchParameters served.

Paths use a small FHIRPath subset: dotted element names, ``|`` for alternatives, and
``element(key=value)`` to keep only list items whose ``key`` equals ``value``. Reference
parameters may restrict the resource types they point at (``targets``).
"""

from __future__ import annotations

from dataclasses import dataclass

PARAM_TYPES = ("token", "string", "date", "reference", "quantity", "number", "uri")


@dataclass(frozen=True)
class Step:
    """One element name on a path, optionally filtering list items by a key's value."""

    name: str
    where_key: str | None = None
    where_value: str | None = None


@dataclass(frozen=True)
class SearchParam:
    """One search parameter of one resource type."""

    name: str
    type: str
    path: str
    targets: tuple[str, ...] = ()

    @property
    def steps(self) -> tuple[tuple[Step, ...], ...]:
        """The compiled alternatives of the path."""
        return _compile(self.path)

    def expression(self, resource_type: str) -> str:
        """A FHIRPath-like expression for the CapabilityStatement."""
        return " | ".join(f"{resource_type}.{alt.strip()}" for alt in self.path.split("|"))


_COMPILED: dict[str, tuple[tuple[Step, ...], ...]] = {}


def _compile(path: str) -> tuple[tuple[Step, ...], ...]:
    compiled = _COMPILED.get(path)
    if compiled is None:
        compiled = tuple(tuple(_step(part) for part in alt.strip().split(".")) for alt in
                         path.split("|"))
        _COMPILED[path] = compiled
    return compiled


def _step(text: str) -> Step:
    if "(" not in text:
        return Step(text)
    name, condition = text[:-1].split("(", 1)
    key, value = condition.split("=", 1)
    return Step(name, key, value)


EFFECTIVE = "effectiveDateTime|effectivePeriod|effectiveInstant"
ADDRESS = [
    ("address", "string", "address"),
    ("address-city", "string", "address.city"),
    ("address-country", "string", "address.country"),
    ("address-postalcode", "string", "address.postalCode"),
    ("address-state", "string", "address.state"),
    ("address-use", "token", "address.use"),
]
PERSON = ADDRESS + [
    ("active", "token", "active"),
    ("email", "token", "telecom(system=email)"),
    ("family", "string", "name.family"),
    ("gender", "token", "gender"),
    ("given", "string", "name.given"),
    ("identifier", "token", "identifier"),
    ("name", "string", "name"),
    ("phone", "token", "telecom(system=phone)"),
    ("telecom", "token", "telecom"),
]
CLINICAL = [
    ("identifier", "token", "identifier"),
    ("patient", "reference", "subject", "Patient"),
    ("subject", "reference", "subject"),
    ("status", "token", "status"),
]
ENCOUNTER = [("encounter", "reference", "encounter", "Encounter")]
REQUEST = [
    ("based-on", "reference", "basedOn"),
    ("instantiates-canonical", "reference", "instantiatesCanonical"),
    ("instantiates-uri", "uri", "instantiatesUri"),
]

_RAW: dict[str, list[tuple[str, ...]]] = {
    "Patient": PERSON + [
        ("birthdate", "date", "birthDate"),
        ("death-date", "date", "deceasedDateTime"),
        ("deceased", "token", "deceasedBoolean"),
        ("general-practitioner", "reference", "generalPractitioner"),
        ("language", "token", "communication.language"),
        ("link", "reference", "link.other"),
        ("organization", "reference", "managingOrganization", "Organization"),
    ],
    "Practitioner": PERSON + [("communication", "token", "communication")],
    "Organization": ADDRESS + [
        ("active", "token", "active"),
        ("endpoint", "reference", "endpoint"),
        ("identifier", "token", "identifier"),
        ("name", "string", "name|alias"),
        ("partof", "reference", "partOf", "Organization"),
        ("type", "token", "type"),
    ],
    "Encounter": CLINICAL + [
        ("account", "reference", "account"),
        ("appointment", "reference", "appointment", "Appointment"),
        ("based-on", "reference", "basedOn"),
        ("class", "token", "class"),
        ("date", "date", "period"),
        ("diagnosis", "reference", "diagnosis.condition"),
        ("episode-of-care", "reference", "episodeOfCare"),
        ("length", "quantity", "length"),
        ("location", "reference", "location.location"),
        ("location-period", "date", "location.period"),
        ("part-of", "reference", "partOf", "Encounter"),
        ("participant", "reference", "participant.individual"),
        ("participant-type", "token", "participant.type"),
        ("practitioner", "reference", "participant.individual", "Practitioner"),
        ("reason-code", "token", "reasonCode"),
        ("reason-reference", "reference", "reasonReference"),
        ("service-provider", "reference", "serviceProvider", "Organization"),
        ("special-arrangement", "token", "hospitalization.specialArrangement"),
        ("type", "token", "type"),
    ],
    "Condition": [c for c in CLINICAL if c[0] != "status"] + ENCOUNTER + [
        ("abatement-date", "date", "abatementDateTime|abatementPeriod"),
        ("abatement-string", "string", "abatementString"),
        ("asserter", "reference", "asserter"),
        ("body-site", "token", "bodySite"),
        ("category", "token", "category"),
        ("clinical-status", "token", "clinicalStatus"),
        ("code", "token", "code"),
        ("evidence", "token", "evidence.code"),
        ("evidence-detail", "reference", "evidence.detail"),
        ("onset-date", "date", "onsetDateTime|onsetPeriod"),
        ("onset-info", "string", "onsetString"),
        ("recorded-date", "date", "recordedDate"),
        ("severity", "token", "severity"),
        ("stage", "token", "stage.summary"),
        ("verification-status", "token", "verificationStatus"),
    ],
    "Observation": CLINICAL + ENCOUNTER + [
        ("based-on", "reference", "basedOn"),
        ("category", "token", "category"),
        ("code", "token", "code"),
        ("combo-code", "token", "code|component.code"),
        ("component-code", "token", "component.code"),
        ("component-value-quantity", "quantity", "component.valueQuantity"),
        ("data-absent-reason", "token", "dataAbsentReason"),
        ("date", "date", EFFECTIVE),
        ("derived-from", "reference", "derivedFrom"),
        ("device", "reference", "device"),
        ("focus", "reference", "focus"),
        ("has-member", "reference", "hasMember"),
        ("method", "token", "method"),
        ("part-of", "reference", "partOf"),
        ("performer", "reference", "performer"),
        ("specimen", "reference", "specimen"),
        ("value-concept", "token", "valueCodeableConcept"),
        ("value-date", "date", "valueDateTime|valuePeriod"),
        ("value-quantity", "quantity", "valueQuantity"),
        ("value-string", "string", "valueString"),
    ],
    "MedicationRequest": CLINICAL + ENCOUNTER + [
        ("authoredon", "date", "authoredOn"),
        ("category", "token", "category"),
        ("code", "token", "medicationCodeableConcept"),
        ("date", "date", "dosageInstruction.timing.event"),
        ("intended-dispenser", "reference", "dispenseRequest.performer"),
        ("intended-performer", "reference", "performer"),
        ("intended-performertype", "token", "performerType"),
        ("intent", "token", "intent"),
        ("medication", "reference", "medicationReference"),
        ("priority", "token", "priority"),
        ("requester", "reference", "requester"),
    ],
    "MedicationStatement": CLINICAL + [
        ("category", "token", "category"),
        ("code", "token", "medicationCodeableConcept"),
        ("context", "reference", "context"),
        ("effective", "date", "effectiveDateTime|effectivePeriod"),
        ("medication", "reference", "medicationReference"),
        ("part-of", "reference", "partOf"),
        ("source", "reference", "informationSource"),
    ],
    "AllergyIntolerance": [
        ("asserter", "reference", "asserter"),
        ("category", "token", "category"),
        ("clinical-status", "token", "clinicalStatus"),
        ("code", "token", "code|reaction.substance"),
        ("criticality", "token", "criticality"),
        ("date", "date", "recordedDate"),
        ("identifier", "token", "identifier"),
        ("last-date", "date", "lastOccurrence"),
        ("manifestation", "token", "reaction.manifestation"),
        ("onset", "date", "reaction.onset"),
        ("patient", "reference", "patient", "Patient"),
        ("recorder", "reference", "recorder"),
        ("route", "token", "reaction.exposureRoute"),
        ("severity", "token", "reaction.severity"),
        ("type", "token", "type"),
        ("verification-status", "token", "verificationStatus"),
    ],
    "Immunization": [
        ("date", "date", "occurrenceDateTime"),
        ("identifier", "token", "identifier"),
        ("location", "reference", "location"),
        ("lot-number", "string", "lotNumber"),
        ("manufacturer", "reference", "manufacturer", "Organization"),
        ("patient", "reference", "patient", "Patient"),
        ("performer", "reference", "performer.actor"),
        ("reaction", "reference", "reaction.detail", "Observation"),
        ("reaction-date", "date", "reaction.date"),
        ("reason-code", "token", "reasonCode"),
        ("reason-reference", "reference", "reasonReference"),
        ("series", "string", "protocolApplied.series"),
        ("status", "token", "status"),
        ("status-reason", "token", "statusReason"),
        ("target-disease", "token", "protocolApplied.targetDisease"),
        ("vaccine-code", "token", "vaccineCode"),
    ],
    "Procedure": CLINICAL + ENCOUNTER + REQUEST + [
        ("category", "token", "category"),
        ("code", "token", "code"),
        ("date", "date", "performedDateTime|performedPeriod"),
        ("location", "reference", "location"),
        ("part-of", "reference", "partOf"),
        ("performer", "reference", "performer.actor"),
        ("reason-code", "token", "reasonCode"),
        ("reason-reference", "reference", "reasonReference"),
    ],
    "DiagnosticReport": CLINICAL + ENCOUNTER + [
        ("based-on", "reference", "basedOn"),
        ("category", "token", "category"),
        ("code", "token", "code"),
        ("conclusion", "token", "conclusionCode"),
        ("date", "date", "effectiveDateTime|effectivePeriod"),
        ("issued", "date", "issued"),
        ("media", "reference", "media.link"),
        ("performer", "reference", "performer"),
        ("result", "reference", "result", "Observation"),
        ("results-interpreter", "reference", "resultsInterpreter"),
        ("specimen", "reference", "specimen"),
    ],
    "DocumentReference": CLINICAL + [
        ("authenticator", "reference", "authenticator"),
        ("author", "reference", "author"),
        ("category", "token", "category"),
        ("contenttype", "token", "content.attachment.contentType"),
        ("custodian", "reference", "custodian", "Organization"),
        ("date", "date", "date"),
        ("description", "string", "description"),
        ("encounter", "reference", "context.encounter"),
        ("event", "token", "context.event"),
        ("facility", "token", "context.facilityType"),
        ("format", "token", "content.format"),
        ("language", "token", "content.attachment.language"),
        ("location", "uri", "content.attachment.url"),
        ("period", "date", "context.period"),
        ("related", "reference", "context.related"),
        ("relatesto", "reference", "relatesTo.target", "DocumentReference"),
        ("relation", "token", "relatesTo.code"),
        ("security-label", "token", "securityLabel"),
        ("setting", "token", "context.practiceSetting"),
        ("type", "token", "type"),
    ],
    "ServiceRequest": CLINICAL + ENCOUNTER + REQUEST + [
        ("authored", "date", "authoredOn"),
        ("body-site", "token", "bodySite"),
        ("category", "token", "category"),
        ("code", "token", "code"),
        ("intent", "token", "intent"),
        ("occurrence", "date", "occurrenceDateTime|occurrencePeriod"),
        ("performer", "reference", "performer"),
        ("performer-type", "token", "performerType"),
        ("priority", "token", "priority"),
        ("replaces", "reference", "replaces", "ServiceRequest"),
        ("requester", "reference", "requester"),
        ("requisition", "token", "requisition"),
        ("specimen", "reference", "specimen"),
    ],
    "Communication": CLINICAL + ENCOUNTER + REQUEST + [
        ("category", "token", "category"),
        ("medium", "token", "medium"),
        ("part-of", "reference", "partOf"),
        ("received", "date", "received"),
        ("recipient", "reference", "recipient"),
        ("sender", "reference", "sender"),
        ("sent", "date", "sent"),
    ],
    "Appointment": [
        ("actor", "reference", "participant.actor"),
        ("appointment-type", "token", "appointmentType"),
        ("based-on", "reference", "basedOn", "ServiceRequest"),
        ("date", "date", "start"),
        ("identifier", "token", "identifier"),
        ("location", "reference", "participant.actor", "Location"),
        ("part-status", "token", "participant.status"),
        ("patient", "reference", "participant.actor", "Patient"),
        ("practitioner", "reference", "participant.actor", "Practitioner"),
        ("reason-code", "token", "reasonCode"),
        ("reason-reference", "reference", "reasonReference"),
        ("service-category", "token", "serviceCategory"),
        ("service-type", "token", "serviceType"),
        ("slot", "reference", "slot", "Slot"),
        ("specialty", "token", "specialty"),
        ("status", "token", "status"),
        ("supporting-info", "reference", "supportingInformation"),
    ],
    "CarePlan": CLINICAL + ENCOUNTER + REQUEST + [
        ("activity-code", "token", "activity.detail.code"),
        ("activity-date", "date", "activity.detail.scheduledPeriod"),
        ("activity-reference", "reference", "activity.reference"),
        ("care-team", "reference", "careTeam"),
        ("category", "token", "category"),
        ("condition", "reference", "addresses", "Condition"),
        ("date", "date", "period"),
        ("goal", "reference", "goal"),
        ("intent", "token", "intent"),
        ("part-of", "reference", "partOf", "CarePlan"),
        ("performer", "reference", "activity.detail.performer"),
        ("replaces", "reference", "replaces", "CarePlan"),
    ],
}

COMMON: tuple[SearchParam, ...] = (
    SearchParam("_id", "token", "id"),
    SearchParam("_lastUpdated", "date", "meta.lastUpdated"),
    SearchParam("_tag", "token", "meta.tag"),
    SearchParam("_security", "token", "meta.security"),
    SearchParam("_profile", "uri", "meta.profile"),
)

RESULT_PARAMS = (
    "_count", "_offset", "_sort", "_include", "_revinclude", "_summary", "_total",
    "_elements", "_format", "_pretty",
)


def _build() -> dict[str, dict[str, SearchParam]]:
    table: dict[str, dict[str, SearchParam]] = {}
    for resource_type, rows in _RAW.items():
        params = {p.name: p for p in COMMON}
        for row in rows:
            targets = tuple(row[3].split(",")) if len(row) > 3 else ()
            params[row[0]] = SearchParam(row[0], row[1], row[2], targets)
        table[resource_type] = dict(sorted(params.items()))
    return table


SEARCH_PARAMS: dict[str, dict[str, SearchParam]] = _build()
RESOURCE_TYPES: tuple[str, ...] = tuple(sorted(SEARCH_PARAMS))


def params_for(resource_type: str) -> dict[str, SearchParam]:
    """The search parameters of a supported resource type, by name."""
    return SEARCH_PARAMS[resource_type]
