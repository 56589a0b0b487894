// Serve Worker Locally's file facts (src/localWorker/workerFile.ts): which Python files are workers, the endpoint
// a file is served as, the emulator config it gets, and the message when runpod is missing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callsServerlessStart, endpointIdFor, isInWorkerFolder, localWorkerConfig, missingRunpodMessage, startCallLine } from '../../../src/localWorker/workerFile';

describe('a worker file', () => {
  test('is a Python file that calls runpod.serverless.start, on the line the CodeLens goes to', () => {
    const text = 'import runpod\n\ndef handler(job):\n    return 1\n\nif __name__ == "__main__":\n    runpod.serverless.start({"handler": handler})\n';
    assert.equal(callsServerlessStart(text), true);
    assert.equal(startCallLine(text), 6);
    assert.equal(callsServerlessStart('import runpod\nrunpod.serverless.progress_update(job, "x")\n'), false);
    assert.equal(startCallLine('print(1)'), -1);
  });

  test('is served as an endpoint named after it, with only the characters an endpoint id may hold', () => {
    assert.equal(endpointIdFor('/w/handler.py'), 'handler');
    assert.equal(endpointIdFor('/w/my worker (v2).py'), 'my-worker-v2');
    assert.equal(endpointIdFor('/w/serverless.py'), 'local-worker', '"serverless" is the REST list route');
  });

  test('is restarted on save for files of its folder and below, not of a sibling folder whose name starts the same', () => {
    assert.equal(isInWorkerFolder('/a/worker/handler.py', '/a/worker/handler.py'), true);
    assert.equal(isInWorkerFolder('/a/worker/handler.py', '/a/worker/lib/util.py'), true);
    assert.equal(isInWorkerFolder('/a/worker/handler.py', '/a/worker2/handler.py'), false);
    assert.equal(isInWorkerFolder('/a/worker/handler.py', '/a/other.py'), false);
    assert.equal(isInWorkerFolder('/a/worker/handler.py', '/b/worker/handler.py'), false);
    assert.equal(isInWorkerFolder('/a/worker/handler.py', '/a/worker/..x/y.py'), true, 'a folder named "..x" is still inside');
  });

  test("gets one warm worker endpoint running it with the chosen python in the file's folder", () => {
    const { config, endpointId } = localWorkerConfig('/venv/bin/python', '/w/handler.py');
    assert.equal(endpointId, 'handler');
    const ep = (config as { users: Array<{ endpoints: Array<Record<string, unknown>> }> }).users[0]!.endpoints[0]!;
    assert.equal(ep.kind, 'worker');
    assert.equal(ep.workersMin, 1);
    assert.deepEqual(ep.worker, { command: ['/venv/bin/python', '/w/handler.py'], cwd: '/w' });
  });

  test('without runpod, the message gives the pip command for that python', () => {
    const m = missingRunpodMessage('/usr/bin/python3', 'Traceback...\nModuleNotFoundError: No module named \'runpod\'\n');
    assert.match(m, /ModuleNotFoundError: No module named 'runpod'/);
    assert.match(m, /\/usr\/bin\/python3 -m pip install runpod==1\.12\.0/);
  });
});
