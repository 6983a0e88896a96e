"""The HTTP server: content types, auth, limits, errors and headers, seen by a real client."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from email.utils import parsedate_to_datetime

import pytest
import requests

from physbench_gym.fhir.http_app import ServerThread, make_wsgi_app
from physbench_gym.fhir.messages import FhirRequest, FhirResponse

FHIR_JSON = "application/fhir+json"
NEW_PATIENT = {"resourceType": "Patient", "name": [{"family": "Lindqvist"}]}
# Guards against a hung subprocess only; every wait ends as soon as the process is ready.
PROCESS_DEADLINE = 300.0


def _outcome(response: requests.Response) -> dict:
    body = response.json()
    assert body["resourceType"] == "OperationOutcome"
    assert body["issue"][0]["severity"] == "error"
    return body


def test_responses_are_fhir_json(http_server: ServerThread) -> None:
    response = requests.get(f"{http_server.base_url}/Patient/pat-1", timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith(FHIR_JSON)
    assert response.json()["id"] == "pat-1"


def test_plain_json_is_accepted_both_ways(http_server: ServerThread) -> None:
    response = requests.post(f"{http_server.base_url}/Patient", data=json.dumps(NEW_PATIENT),
                             headers={"Content-Type": "application/json",
                                      "Accept": "application/json"}, timeout=10)
    assert response.status_code == 201
    assert response.headers["Content-Type"].startswith("application/json")


def test_format_parameter(http_server: ServerThread) -> None:
    url = f"{http_server.base_url}/Patient"
    ok = requests.get(url, params={"_id": "pat-1", "_format": "json"}, timeout=10)
    assert ok.status_code == 200 and ok.json()["entry"][0]["resource"]["id"] == "pat-1"
    assert requests.get(url, params={"_format": "xml"}, timeout=10).status_code == 406


def test_create_sets_location_etag_and_last_modified(http_server: ServerThread) -> None:
    response = requests.post(f"{http_server.base_url}/Patient", json=NEW_PATIENT, timeout=10)
    assert response.status_code == 201
    location = response.headers["Location"]
    assert location.startswith(f"{http_server.base_url}/Patient/")
    assert response.headers["ETag"].startswith('W/"')
    assert parsedate_to_datetime(response.headers["Last-Modified"]).year >= 2000
    assert response.headers["Last-Modified"].endswith(" GMT")
    created = response.json()
    assert created["id"] in location
    read = requests.get(location, timeout=10)
    assert read.status_code == 200 and read.json()["name"][0]["family"] == "Lindqvist"


def test_links_follow_the_host_header(http_server: ServerThread) -> None:
    response = requests.get(f"{http_server.base_url}/Observation",
                            params={"patient": "pat-1", "_count": "2"},
                            headers={"Host": "ehr.example.org:9443"}, timeout=10)
    links = {link["relation"]: link["url"] for link in response.json()["link"]}
    assert links["next"].startswith("http://ehr.example.org:9443/fhir/")


def test_malformed_json_is_a_400_outcome(http_server: ServerThread) -> None:
    response = requests.post(f"{http_server.base_url}/Patient", data=b'{"resourceType": ',
                             headers={"Content-Type": FHIR_JSON}, timeout=10)
    assert response.status_code == 400
    assert "malformed JSON" in _outcome(response)["issue"][0]["diagnostics"]


@pytest.mark.parametrize("body", [b"[1, 2]", b'"Patient"', b"\xff\xfe{}"])
def test_body_that_is_not_a_resource_is_a_400(http_server: ServerThread, body: bytes) -> None:
    response = requests.post(f"{http_server.base_url}/Patient", data=body,
                             headers={"Content-Type": FHIR_JSON}, timeout=10)
    assert response.status_code == 400
    _outcome(response)


def test_unsupported_content_type_is_a_415(http_server: ServerThread) -> None:
    response = requests.post(f"{http_server.base_url}/Patient", data=b"<Patient/>",
                             headers={"Content-Type": "application/fhir+xml"}, timeout=10)
    assert response.status_code == 415
    _outcome(response)


def test_unknown_paths_are_404(http_server: ServerThread) -> None:
    outside = requests.get(http_server.base_url.replace("/fhir", "/admin"), timeout=10)
    assert outside.status_code == 404
    _outcome(outside)
    unknown_type = requests.get(f"{http_server.base_url}/Spaceship/1", timeout=10)
    assert unknown_type.status_code == 404
    _outcome(unknown_type)


def test_unsupported_method_is_a_405(http_server: ServerThread) -> None:
    response = requests.request("TRACE", f"{http_server.base_url}/Patient", timeout=10)
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    _outcome(response)


def test_oversized_body_is_a_413(fhir_server_factory) -> None:
    with ServerThread(fhir_server_factory().handle, max_body=1024) as server:
        big = {**NEW_PATIENT, "name": [{"family": "x" * 2000}]}
        response = requests.post(f"{server.base_url}/Patient", json=big, timeout=10)
        assert response.status_code == 413
        assert "1024 bytes" in _outcome(response)["issue"][0]["diagnostics"]
        chunked = requests.post(f"{server.base_url}/Patient", data=iter([b" " * 700] * 2),
                                headers={"Content-Type": FHIR_JSON}, timeout=10)
        assert chunked.status_code == 413
        small = requests.post(f"{server.base_url}/Patient", json=NEW_PATIENT, timeout=10)
        assert small.status_code == 201


def test_bearer_token(fhir_server_factory) -> None:
    with ServerThread(fhir_server_factory().handle, token="s3cret") as server:
        url = f"{server.base_url}/Patient/pat-1"
        missing = requests.get(url, timeout=10)
        assert missing.status_code == 401
        assert missing.headers["WWW-Authenticate"].startswith("Bearer")
        _outcome(missing)
        wrong = requests.get(url, headers={"Authorization": "Bearer nope"}, timeout=10)
        assert wrong.status_code == 401
        assert 'error="invalid_token"' in wrong.headers["WWW-Authenticate"]
        right = requests.get(url, headers={"Authorization": "Bearer s3cret"}, timeout=10)
        assert right.status_code == 200
        assert requests.get(f"{server.base_url}/metadata", timeout=10).status_code == 200


def test_a_failing_handler_becomes_a_500_outcome() -> None:
    def broken(request: FhirRequest) -> FhirResponse:
        raise RuntimeError("boom")

    with ServerThread(broken) as server:
        response = requests.get(f"{server.base_url}/Patient", timeout=10)
        assert response.status_code == 500
        assert "boom" not in response.text
        _outcome(response)


def test_serving_a_base_never_changes_it(fhir_base) -> None:
    before = fhir_base.content_hash()
    with ServerThread(base=fhir_base) as server:
        created = requests.post(f"{server.base_url}/Patient", json=NEW_PATIENT, timeout=10)
        assert created.status_code == 201
    assert fhir_base.content_hash() == before


def test_stop_is_idempotent_and_closes_the_port(fhir_server_factory) -> None:
    server = ServerThread(fhir_server_factory().handle)
    assert requests.get(f"{server.base_url}/metadata", timeout=10).status_code == 200
    server.stop()
    server.stop()
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{server.base_url}/metadata", timeout=2)


def test_make_wsgi_app_needs_something_to_serve() -> None:
    with pytest.raises(ValueError, match="handler or a base"):
        make_wsgi_app()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_up(url: str, process: subprocess.Popen) -> requests.Response:
    """The first answer of a starting server: poll until it answers or exits (the deadline
    only guards against a hang; a loaded machine just takes longer to get there)."""
    deadline = time.monotonic() + PROCESS_DEADLINE
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited: {process.stderr.read()}")
        try:
            return requests.get(url, timeout=5)
        except requests.ConnectionError:
            time.sleep(0.05)
    raise AssertionError(f"server did not answer within {PROCESS_DEADLINE} s")


def _interrupt(process: subprocess.Popen) -> str:
    """SIGINT the server and wait for it to exit, draining its pipes meanwhile; its stdout."""
    process.send_signal(signal.SIGINT)
    try:
        stdout, _ = process.communicate(timeout=PROCESS_DEADLINE)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        raise AssertionError(f"server ignored SIGINT: {stderr}") from None
    return stdout


def test_physbench_serve_loads_data_and_serves(tmp_path) -> None:
    (tmp_path / "people.ndjson").write_text(
        '{"resourceType": "Patient", "id": "cli-1", "name": [{"family": "Abara"}]}\n')
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "physbench_gym.cli", "serve", "--data", str(tmp_path),
         "--port", str(port), "--token", "t0k", "--threads", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base_url = f"http://127.0.0.1:{port}/fhir"
        assert _wait_until_up(f"{base_url}/metadata", process).status_code == 200
        assert requests.get(f"{base_url}/Patient/cli-1", timeout=10).status_code == 401
        patient = requests.get(f"{base_url}/Patient/cli-1", timeout=10,
                               headers={"Authorization": "Bearer t0k"})
        assert patient.json()["name"][0]["family"] == "Abara"
    finally:
        stdout = _interrupt(process)
    assert base_url in stdout


def test_physbench_serve_names_the_bad_file_and_line(tmp_path) -> None:
    (tmp_path / "broken.ndjson").write_text('{"resourceType": "Patient", "id": "a"}\n{oops\n')
    result = subprocess.run(
        [sys.executable, "-m", "physbench_gym.cli", "serve", "--data", str(tmp_path),
         "--port", str(_free_port())], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "broken.ndjson:2" in result.stderr and "invalid JSON" in result.stderr
