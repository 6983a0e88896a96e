"""Benchmark of the embedded FHIR server: search latency, throughput, fork cost, memory, HTTP.

Run: ``python benchmarks/fhir_server.py [--patients 100] [--per-patient 1000]``. Prints a table;
the targets are >= 5,000 typical searches/s in-process, fork() <= 50 us and flat in store size,
>= 1,000 sequential HTTP requests/s on loopback. The HTTP server runs in a child process so that
client and server do not share one interpreter lock.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import multiprocessing
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

from physbench_gym.fhir.client import FhirClient, HttpTransport, in_process_client
from physbench_gym.fhir.handler import FhirServer
from physbench_gym.fhir.http_app import ServerThread
from physbench_gym.fhir.store import BaseStore

LOINC = "http://loinc.org"
LABS = [("4548-4", "Hemoglobin A1c", "%", 5.0, 10.0), ("2823-3", "Potassium", "mmol/L", 3.2, 5.4),
        ("2951-2", "Sodium", "mmol/L", 130, 148), ("2160-0", "Creatinine", "mg/dL", 0.6, 2.5),
        ("718-7", "Hemoglobin", "g/dL", 9, 17), ("2345-7", "Glucose", "mg/dL", 70, 240),
        ("2093-3", "Cholesterol", "mg/dL", 120, 280), ("1742-6", "ALT", "U/L", 8, 90),
        ("33914-3", "eGFR", "mL/min/1.73m2", 20, 110), ("8867-4", "Heart rate", "/min", 50, 120)]
FAMILIES = ["Garcia", "Nguyen", "Smith", "Okafor", "Haddad", "Lindqvist", "Kowalski", "Tanaka",
            "Moreau", "Silva", "Novak", "Rossi", "Dubois", "Kim", "Patel", "Cohen"]
NOTE_TYPES = [("11506-3", "Progress note"), ("34117-2", "History and physical"),
              ("18842-5", "Discharge summary")]


def _patient(n: int) -> dict[str, Any]:
    return {"resourceType": "Patient", "id": f"p{n}", "gender": ("female", "male")[n % 2],
            "identifier": [{"system": "urn:mrn", "value": f"MRN{n:06d}"}],
            "name": [{"family": f"{FAMILIES[n % len(FAMILIES)]}{n}", "given": ["Alex"]}],
            "birthDate": f"{1940 + n % 60}-0{1 + n % 9}-1{n % 10}"}


def _when(rng: random.Random) -> str:
    return (f"{rng.randint(2014, 2023)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(7, 17):02d}:00:00Z")


def _observation(rng: random.Random, pid: str, n: int) -> dict[str, Any]:
    code, name, unit, low, high = rng.choice(LABS)
    return {"resourceType": "Observation", "id": f"{pid}-o{n}", "status": "final",
            "category": [{"coding": [{
                "system": "http://terminology.hl7.org/CodeSystem/observation-category",
                "code": "laboratory"}]}],
            "code": {"coding": [{"system": LOINC, "code": code, "display": name}], "text": name},
            "subject": {"reference": f"Patient/{pid}"}, "effectiveDateTime": _when(rng),
            "valueQuantity": {"value": round(rng.uniform(low, high), 1), "unit": unit}}


def _document(rng: random.Random, pid: str, n: int) -> dict[str, Any]:
    code, name = rng.choice(NOTE_TYPES)
    return {"resourceType": "DocumentReference", "id": f"{pid}-d{n}", "status": "current",
            "type": {"coding": [{"system": LOINC, "code": code, "display": name}]},
            "subject": {"reference": f"Patient/{pid}"}, "date": _when(rng),
            "content": [{"attachment": {"contentType": "text/plain",
                                        "data": "Tm90ZSB0ZXh0Lg=="}}]}


def _condition(rng: random.Random, pid: str, n: int) -> dict[str, Any]:
    return {"resourceType": "Condition", "id": f"{pid}-c{n}",
            "clinicalStatus": {"coding": [{
                "system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                "code": "active"}]},
            "code": {"coding": [{"system": "http://snomed.info/sct",
                                 "code": str(rng.choice([44054006, 38341003, 195967001]))}]},
            "subject": {"reference": f"Patient/{pid}"}, "onsetDateTime": _when(rng)[:10]}


def population(patients: int, per_patient: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Yield a synthetic EHR: each patient with ``per_patient`` resources in all."""
    rng = random.Random(seed)
    for n in range(patients):
        pid = f"p{n}"
        yield _patient(n)
        for k in range(per_patient - 1):
            if k % 20 == 0:
                yield _document(rng, pid, k)
            elif k % 50 == 1:
                yield _condition(rng, pid, k)
            else:
                yield _observation(rng, pid, k)


def typical_searches(patients: int) -> list[tuple[str, str, Callable[[random.Random], list]]]:
    """The agent searches measured: (label, resource type, params from a random patient)."""
    def pid(rng: random.Random) -> str:
        return f"p{rng.randrange(patients)}"

    return [
        ("Observation patient+code -date _count=20", "Observation", lambda rng: [
            ("patient", pid(rng)), ("code", f"{LOINC}|{rng.choice(LABS)[0]}"),
            ("_sort", "-date"), ("_count", "20")]),
        ("DocumentReference patient+date range", "DocumentReference", lambda rng: [
            ("patient", pid(rng)), ("date", "ge2019-01-01"), ("date", "lt2021-01-01")]),
        ("Patient by name", "Patient", lambda rng: [
            ("name", FAMILIES[rng.randrange(len(FAMILIES))])]),
    ]


def _latencies(client: FhirClient, kind: str, params: Callable, count: int) -> list[float]:
    rng = random.Random(1)
    samples = []
    for _ in range(count):
        query = params(rng)
        start = time.perf_counter()
        client.search(kind, query)
        samples.append(time.perf_counter() - start)
    return samples


def _rate(action: Callable[[], object], seconds: float) -> float:
    return _rates(action, seconds)[0]


def _rates(action: Callable[[], object], seconds: float) -> tuple[float, float]:
    """Calls per wall-clock second and per second of this process's CPU time (the latter is
    what one core sustains when other processes share the machine)."""
    done, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        action()
        done += 1
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    return done / wall, done / max(used, 1e-9)


def _fork_cost(base: BaseStore, calls: int = 20000) -> float:
    batches = []
    for _ in range(calls // 1000):
        start = time.perf_counter()
        for _ in range(1000):
            base.fork()
        batches.append((time.perf_counter() - start) / 1000)
    return statistics.median(batches)


def _held_memory(patients: int, per_patient: int) -> float:
    gc.collect()
    tracemalloc.start()
    base = BaseStore.from_resources(population(patients, per_patient))
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del base
    return held / 2**20


def _serve_child(base: BaseStore, ready: Any, stop: Any) -> None:
    with ServerThread(FhirServer(base.fork()).handle, threads=4) as server:
        ready.put(server.base_url)
        stop.wait()


def _raw_read_rate(base_url: str, patients: int, seconds: float) -> float:
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    rng = random.Random(4)

    def read() -> None:
        connection.request("GET", f"{parts.path}/Patient/p{rng.randrange(patients)}",
                           headers={"Accept": "application/fhir+json"})
        reply = connection.getresponse()
        reply.read()
        if reply.status != 200:
            raise RuntimeError(f"HTTP {reply.status}")

    try:
        return _rate(read, seconds)
    finally:
        connection.close()


def _http_rates(base: BaseStore, patients: int, seconds: float) -> dict[str, float]:
    context = multiprocessing.get_context("fork")
    ready, stop = context.Queue(), context.Event()
    child = context.Process(target=_serve_child, args=(base, ready, stop), daemon=True)
    child.start()
    try:
        base_url = ready.get(timeout=60)
        client = FhirClient(HttpTransport(base_url))
        rng = random.Random(2)
        label, kind, params = typical_searches(patients)[0]
        rates = {
            "HTTP read Patient/{id}, FhirClient (requests)": _rate(
                lambda: client.read("Patient", f"p{rng.randrange(patients)}"), seconds),
            "HTTP read Patient/{id}, http.client keep-alive": _raw_read_rate(
                base_url, patients, seconds),
            f"HTTP {label}": _rate(lambda: client.search(kind, params(rng)), seconds),
        }
        client.close()
        return rates
    finally:
        stop.set()
        child.join(timeout=10)


def _in_process_rows(base: BaseStore, patients: int, samples: int,
                     seconds: float) -> list[tuple[str, str]]:
    client = in_process_client(FhirServer(base.fork()))
    searches = typical_searches(patients)
    rows = []
    for label, kind, params in searches:
        taken = _latencies(client, kind, params, samples)
        rows.append((f"in-process {label}: median / p95",
                     f"{statistics.median(taken) * 1e6:,.0f} / "
                     f"{statistics.quantiles(taken, n=20)[-1] * 1e6:,.0f} us"))
    rng = random.Random(3)

    def one_search() -> None:
        _, kind, params = searches[rng.randrange(len(searches))]
        client.search(kind, params(rng))

    wall, cpu = _rates(one_search, seconds)
    rows.append(("in-process typical searches/s (one core): wall clock / CPU time",
                 f"{wall:,.0f} / {cpu:,.0f}"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patients", type=int, default=100)
    parser.add_argument("--per-patient", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=500)
    args = parser.parse_args()
    rows: list[tuple[str, str]] = []
    start = time.perf_counter()
    base = BaseStore.from_resources(population(args.patients, args.per_patient))
    rows.append((f"base store build ({len(base):,} resources)",
                 f"{time.perf_counter() - start:.2f} s"))
    start = time.perf_counter()
    base.warm()
    rows.append(("base store warm-up (indexes and sort values, done once before caching)",
                 f"{time.perf_counter() - start:.2f} s"))
    rows.extend(_in_process_rows(base, args.patients, args.samples, args.seconds))
    for label, rate in _http_rates(base, args.patients, args.seconds).items():
        rows.append((f"{label} sequential req/s", f"{rate:,.0f}"))
    small = BaseStore.from_resources(population(10, 1000))
    rows.append((f"fork() at {len(small):,} resources", f"{_fork_cost(small) * 1e6:.2f} us"))
    rows.append((f"fork() at {len(base):,} resources", f"{_fork_cost(base) * 1e6:.2f} us"))
    del base, small
    rows.append((f"base store memory ({args.patients} x {args.per_patient}, tracemalloc)",
                 f"{_held_memory(args.patients, args.per_patient):,.0f} MiB"))
    width = max(len(name) for name, _ in rows)
    print(f"{'measure'.ljust(width)} | value")
    print(f"{'-' * width}-|-{'-' * 18}")
    for name, value in rows:
        print(f"{name.ljust(width)} | {value}")


if __name__ == "__main__":
    main()
