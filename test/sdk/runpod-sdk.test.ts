// Issue 9 "Done when": the platform's own JavaScript client, npm `runpod-sdk` (pinned in package.json), against
// the emulator CLI as a separate process, the way a new user would point it at the service. Each test asserts
// on what the SDK hands back (ids, states, outputs, counts), not only that it did not throw.
//
// The SDK builds every URL as `${baseUrl}/${endpointId}/<route>` (node_modules/runpod-sdk/src/index.ts), with
// `baseUrl` from its options (default https://api.runpod.ai/v2), so the emulator is `{ baseUrl: URL + '/v2' }`.
// It has no retry method: the retry test sends that one request itself and follows the job with the SDK.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import runpodSdk from 'runpod-sdk';
import { moveClock, request, startEmulator, type Emulator } from '../emulator/harness';
import { sdkConfig, SDK_KEY, type EndpointName } from './sdkConfig';

type Sdk = ReturnType<typeof runpodSdk>;

/** Each test gets its own emulator (own clock, own queues) holding only the endpoints it drives. */
async function withSdk(endpoints: EndpointName[], body: (sdk: Sdk, emu: Emulator) => Promise<void>): Promise<void> {
  // --verbose: one log line per request on stderr, so a test can tell which routes the SDK called.
  const emu = await startEmulator(sdkConfig(endpoints), { extraArgs: ['--verbose'] });
  try {
    await body(runpodSdk(SDK_KEY, { baseUrl: `${emu.url}/v2` }), emu);
  } finally {
    await emu.stop();
  }
}

function endpoint(sdk: Sdk, id: EndpointName) {
  const ep = sdk.endpoint(id);
  assert.ok(ep, `sdk.endpoint(${id}) returned nothing`);
  return ep;
}

/** Calls `read` until `done` holds of its answer (real time: these endpoints take well under a second). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('run answers an id IN_QUEUE, and status follows the job to COMPLETED with its output and timings', () => withSdk(['echo'], async (sdk) => {
  const ep = endpoint(sdk, 'echo');
  const submitted = await ep.run({ input: { greeting: 'hello', n: 7 } });
  assert.match(submitted.id, /^[0-9a-f-]{36}$/);
  assert.equal(submitted.status, 'IN_QUEUE');
  const done = (await until(() => ep.status(submitted.id), (s) => s.status === 'COMPLETED', 'echo job')) as Record<string, unknown>;
  assert.equal(done.id, submitted.id);
  assert.deepEqual(done.output, { greeting: 'hello', n: 7 });
  assert.equal(done.executionTime, 100);
  assert.ok(typeof done.delayTime === 'number' && done.delayTime >= 50, `delayTime ${done.delayTime}`);
  // The SDK's own reading of the status: it knows COMPLETED is terminal and a success.
  assert.equal(done.completed, true);
  assert.equal(done.succeeded, true);
}));

test('runSync of a job longer than its wait answers it COMPLETED, through /status-sync after /runsync', () => withSdk(['slow-sync'], async (sdk, emu) => {
  const ep = endpoint(sdk, 'slow-sync');
  const started = Date.now();
  const r = (await ep.runSync({ input: { long: true } }, 1500)) as unknown as Record<string, unknown>;
  const took = Date.now() - started;
  assert.equal(r.status, 'COMPLETED', JSON.stringify(r));
  assert.match(String(r.id), /^sync-/);
  assert.deepEqual(r.output, { long: true });
  assert.equal(r.completed, true);
  assert.ok(took >= 2000, `the job takes 2.5 s but runSync answered after ${took} ms`);
  // /runsync held 1.5 s and answered the job unfinished; the SDK then waited on /status-sync, which answered
  // when the job ended.
  // (The log line is written when a response finishes; it may reach this process a moment after the SDK's answer.)
  const statusSync = new RegExp(`GET /v2/slow-sync/status-sync/${String(r.id)}\\?wait=\\d+ 200`);
  const log = await until(async () => emu.output(), (out) => statusSync.test(out), 'the status-sync log line', 5000);
  assert.match(log, new RegExp(`POST /v2/slow-sync/runsync\\?wait=1500 200`));
  // Held until the job ended, not answered at once: one or two holds, not a busy loop of polls.
  const holds = log.match(new RegExp(statusSync.source, 'g'))!.length;
  assert.ok(holds <= 3, `${holds} status-sync requests: they were not held`);
}));

test('stream of the llm endpoint yields several chunks while it writes, then the job is COMPLETED with all of them', () => withSdk(['llama-chat'], async (sdk, emu) => {
  const ep = endpoint(sdk, 'llama-chat');
  // On a frozen clock the test moves emulator time itself, 100 ms (one batch) a step, so the machine's load
  // cannot decide the outcome: it once did, on real time, when a late first /stream found the whole answer
  // written and took it in one piece (CI on b033c65, a 2-core machine shared with other work).
  await request(emu.url, '/__admin/clock', { method: 'POST', body: { frozen: true } });
  const { id } = await ep.run({ input: { prompt: 'Tell me about queues', sampling_params: { max_tokens: 30 } } });
  const chunks: unknown[] = [];
  let streamEnded = false;
  const reading = (async () => {
    for await (const chunk of ep.stream(id)) chunks.push(chunk);
    streamEnded = true;
  })();
  // A step in which the job was running before and after the move wrote exactly one batch; the SDK's
  // /stream (held, woken by the move) must hand it over while the job is still IN_PROGRESS.
  let runningSteps = 0;
  let wasRunning = false;
  for (let step = 0; step < 200 && !streamEnded; step++) {
    const before = chunks.length;
    await moveClock(emu.url, { advanceMs: 100 });
    const running = (await ep.status(id)).status === 'IN_PROGRESS';
    if (running && wasRunning) {
      await until(async () => chunks.length, (n) => n > before, `the batch of step ${step}`, 10_000);
      runningSteps++;
    }
    wasRunning = running;
  }
  await reading;
  assert.ok(runningSteps >= 3, `only ${runningSteps} batch(es) arrived while the job was running`);
  for (const c of chunks) assert.ok(c && typeof c === 'object' && 'output' in c, `a stream item without output: ${JSON.stringify(c)}`);
  const final = (await ep.status(id)) as Record<string, unknown>;
  assert.equal(final.status, 'COMPLETED');
  // The worker-vllm shape: the job's output is the list of every streamed batch, in order.
  assert.deepEqual(final.output, chunks.map((c) => (c as { output: unknown }).output));
  const text = chunks.map((c) => ((c as { output: { choices: Array<{ tokens: string[] }> } }).output.choices[0]!.tokens).join('')).join('');
  assert.ok(text.trim().split(/\s+/).length >= 10, `streamed text: ${JSON.stringify(text)}`);
}));

test('cancel of a running job answers CANCELLED, and status says CANCELLED afterwards', () => withSdk(['one-worker'], async (sdk) => {
  const ep = endpoint(sdk, 'one-worker');
  const { id } = await ep.run({ input: { job: 'to cancel' } });
  await until(() => ep.status(id), (s) => s.status === 'IN_PROGRESS', 'job to cancel starts');
  const c = await ep.cancel(id);
  assert.equal(c.id, id);
  assert.equal(c.status, 'CANCELLED');
  const s = await ep.status(id);
  assert.equal(s.status, 'CANCELLED');
  assert.equal((s as Record<string, unknown>).completed, true);
  assert.equal((s as Record<string, unknown>).succeeded, false);
}));

test('retry of a FAILED job queues it again (the SDK follows it back to FAILED) and health counts the retry', () => withSdk(['broken'], async (sdk, emu) => {
  const ep = endpoint(sdk, 'broken');
  const { id } = await ep.run({ input: { any: 'thing' } });
  const failed = (await until(() => ep.status(id), (s) => s.status === 'FAILED', 'broken job')) as Record<string, unknown>;
  assert.match(String(failed.error), /CUDA out of memory/);
  const before = await ep.health();
  const r = await request(emu.url, `/v2/broken/retry/${id}`, { method: 'POST', key: SDK_KEY, body: {} });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.id, id);
  assert.equal(r.json.status, 'IN_QUEUE');
  assert.equal((await ep.status(id)).status, 'IN_QUEUE');
  await until(() => ep.status(id), (s) => s.status === 'FAILED', 'retried job');
  const afterRetry = await ep.health();
  assert.equal(afterRetry.jobs.retried, before.jobs.retried + 1);
}));

test('health counts move as jobs queue, run and complete (one worker: one runs, two wait)', () => withSdk(['health-ep'], async (sdk, emu) => {
  const ep = endpoint(sdk, 'health-ep');
  const h0 = await ep.health();
  assert.deepEqual([h0.jobs.inQueue, h0.jobs.inProgress, h0.workers.running], [0, 0, 0]);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await ep.run({ input: { i } })).id);
  const h1 = await until(() => ep.health(), (h) => h.jobs.inProgress === 1, 'one job running');
  assert.equal(h1.jobs.inQueue, 2);
  assert.equal(h1.workers.running, 1);
  assert.equal(h1.jobs.completed, h0.jobs.completed);
  await moveClock(emu.url, { advanceMs: 16 * 60_000 }); // past all three five-minute jobs, one after the other
  const h2 = await ep.health();
  assert.deepEqual([h2.jobs.inQueue, h2.jobs.inProgress], [0, 0]);
  assert.equal(h2.jobs.completed, h0.jobs.completed + 3);
  for (const id of ids) assert.equal((await ep.status(id)).status, 'COMPLETED');
}));

test('purgeQueue removes the queued jobs and says how many; the running one goes on', () => withSdk(['purge-ep'], async (sdk) => {
  const ep = endpoint(sdk, 'purge-ep');
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await ep.run({ input: { i } })).id);
  await until(() => ep.health(), (h) => h.jobs.inProgress === 1 && h.jobs.inQueue === 3, 'one running, three queued');
  const p = await ep.purgeQueue();
  assert.equal(p.removed, 3);
  assert.equal(typeof p.status, 'string');
  const h = await ep.health();
  assert.deepEqual([h.jobs.inQueue, h.jobs.inProgress], [0, 1]);
  assert.equal((await ep.status(ids[0]!)).status, 'IN_PROGRESS');
  assert.equal((await ep.purgeQueue()).removed, 0);
}));
