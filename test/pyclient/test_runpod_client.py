"""Issue 14 item 4: the platform's own Python client (runpod 1.12.0, runpod/endpoint/runner.py) against the
emulator, whose `worker` endpoints run the fixtures on the same package's worker SDK. Asserts on values."""
import base64
import json
import struct
import time


def png_size(data_url):
    raw = base64.b64decode(data_url.split(",", 1)[1])
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", raw[16:24])


def wait_status(job, wanted, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        status = job._fetch_job()["status"]
        if status == wanted:
            return
        time.sleep(0.2)
    raise AssertionError(f"job never reached {wanted}")


def test_run_status_output(runpod_client):
    job = runpod_client.Endpoint("png").run({"width": 33, "height": 17})
    assert job.status() in ("IN_QUEUE", "IN_PROGRESS", "COMPLETED")
    output = job.output(timeout=60)
    assert png_size(output[0]["image_url"]) == (33, 17)
    assert job.status() == "COMPLETED"


def test_run_sync_returns_the_output(runpod_client):
    output = runpod_client.Endpoint("sleeps").run_sync({"seconds": 0.5}, timeout=60)
    assert output == {"slept": 0.5}


def test_run_sync_past_its_wait_follows_the_job_to_its_output(runpod_client):
    # The emulator holds /runsync 2 s here (conftest): the answer is IN_PROGRESS, and run_sync polls /status on.
    endpoint = runpod_client.Endpoint("sleeps")
    session = endpoint.rp_client.rp_session
    sent = []
    real_request = session.request

    def recording(method, url, *args, **kwargs):
        response = real_request(method, url, *args, **kwargs)
        sent.append((url.rsplit("/v2/", 1)[-1], response.json().get("status")))
        return response

    session.request = recording
    started = time.time()
    output = endpoint.run_sync({"seconds": 4}, timeout=60)
    assert output == {"slept": 4}
    assert time.time() - started >= 4
    assert sent[0][0] == "sleeps/runsync" and sent[0][1] in ("IN_QUEUE", "IN_PROGRESS"), sent
    assert any(url.startswith("sleeps/status/") for url, _ in sent[1:]), sent


def test_run_sync_of_a_failing_handler_returns_no_output(runpod_client):
    # run_sync returns the output of a finished job; a FAILED one has none, and /status says why.
    endpoint = runpod_client.Endpoint("raises")
    assert endpoint.run_sync({"what": "this input"}, timeout=60) is None
    job = endpoint.run({"what": "that input"})
    job.output(timeout=60)
    state = job._fetch_job()
    assert state["status"] == "FAILED"
    assert json.loads(state["error"])["error_message"] == "cannot handle that input"


def test_stream_yields_each_chunk_in_order(runpod_client):
    job = runpod_client.Endpoint("words").run({"text": "one two three", "delay": 0.2})
    assert list(job.stream()) == ["one", "two", "three"]
    assert job.status() == "COMPLETED"


def test_cancel_and_purge_queue_and_health(runpod_client):
    endpoint = runpod_client.Endpoint("sleeps")
    running = endpoint.run({"seconds": 60})
    wait_status(running, "IN_PROGRESS")
    queued = [endpoint.run({"seconds": 60}) for _ in range(2)]
    health = endpoint.health()
    assert health["jobs"]["inProgress"] == 1
    assert health["jobs"]["inQueue"] == 2
    assert health["workers"]["running"] == 1
    assert endpoint.purge_queue() == {"removed": 2, "status": "completed"}
    assert [job.status() for job in queued] == ["CANCELLED", "CANCELLED"]
    cancelled = running.cancel()
    assert cancelled["id"] == running.job_id
    assert cancelled["status"] == "CANCELLED"
    assert running.status() == "CANCELLED"
    # The worker was told to stop and is free again: the next job runs at once.
    assert endpoint.run_sync({"seconds": 0.1}, timeout=60) == {"slept": 0.1}
    assert endpoint.health()["jobs"]["inProgress"] == 0
