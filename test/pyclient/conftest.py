"""The emulator CLI (dist/emulator.js) for the Python client suite, with `worker` endpoints on the fixtures of
test/fixtures/workers/ run by the same venv's runpod package, and the runpod client pointed at it."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "test", "fixtures", "workers")
KEY = "k-python"


def endpoint(eid, fixture, **extra):
    return {
        "id": eid, "kind": "worker", "queueMs": 0, "workersMax": 1, "idleTimeoutMs": 60000,
        "worker": {"command": [sys.executable, os.path.join(FIXTURES, fixture)], "cwd": FIXTURES},
        **extra,
    }


@pytest.fixture(scope="session")
def emulator_url():
    # runpod-python sends no `wait` with /runsync: a 2 s hold lets run_sync meet a job longer than its wait.
    config = {"runsyncWaitMs": 2000, "users": [{"id": "py", "keys": [{"key": KEY, "scopes": ["jobs:run", "jobs:read"]}], "endpoints": [
        endpoint("png", "png_handler.py"),
        endpoint("words", "stream_handler.py"),
        endpoint("sleeps", "sleeping_handler.py"),
        endpoint("raises", "raising_handler.py"),
    ]}]}
    folder = tempfile.mkdtemp(prefix="pyclient-")
    path = os.path.join(folder, "config.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f)
    cli = os.environ.get("EMULATOR_CLI", os.path.join(ROOT, "dist", "emulator.js"))
    proc = subprocess.Popen(["node", cli, "--port", "0", "--config", path, "--admin"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 30
    url = None
    while time.time() < deadline:
        line = proc.stdout.readline()
        match = re.search(r"http://[^\s/]+:\d+", line or "")
        if match:
            url = match.group(0)
            break
        if proc.poll() is not None:
            break
    if not url:
        proc.kill()
        raise RuntimeError("the emulator did not start")
    yield url
    proc.terminate()
    proc.wait(timeout=15)


@pytest.fixture(scope="session")
def runpod_client(emulator_url):
    import runpod

    runpod.api_key = KEY
    runpod.endpoint_url_base = f"{emulator_url}/v2"
    return runpod
