import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { parseOutputs } from '../../../src/core/outputs/outputs';
import { saveJobOutputs, type SaveJobOutputsOptions } from '../../../src/core/outputs/saveOutputs';
import { safeFileName } from '../../../src/core/outputs/safeFileName';
import { aJob } from '../builders/job';
import { aPng, aPngDataUri } from '../builders/png';
import { aSample } from '../builders/media';
import type { Job } from '../../../src/core/schemas';

const seen: IncomingHttpHeaders[] = [];
let server: Server;
let base: string;
let dir: string;

before(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const url = req.url ?? '/';
    if (url === '/a.png') { res.writeHead(200, { 'content-type': 'image/png' }); res.end(aPng(4, 4)); return; }
    if (url === '/clip') { res.writeHead(200, { 'content-type': 'video/mp4' }); res.end(aSample('mp4')); return; }
    if (url === '/sound.wav') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(aSample('wav')); return; }
    if (url === '/page.html') { res.writeHead(200); res.end('<html>'); return; }
    if (url === '/big') { res.writeHead(200, { 'content-type': 'image/png', 'content-length': '100000' }); res.end(Buffer.alloc(100_000)); return; }
    if (url === '/endless') {
      // No Content-Length: the cap must be enforced while streaming.
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const timer = setInterval(() => res.write(Buffer.alloc(16_384)), 1);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (url === '/stall') { res.writeHead(200, { 'content-type': 'video/mp4' }); res.write(Buffer.alloc(10)); return; }
    if (url === '/gone') { res.writeHead(404); res.end(); return; }
    if (url === '/to-png') { res.writeHead(302, { location: '/a.png' }); res.end(); return; }
    if (url === '/to-elsewhere') { res.writeHead(302, { location: 'http://example.com/x.png' }); res.end(); return; }
    res.writeHead(500); res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'outputs-test-'));
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

function aCompletedJob(id: string, output: unknown): Job {
  return aJob().withId(id).completed(output).withTimings(120, 3400).build();
}

function options(job: Job, more: Partial<SaveJobOutputsOptions> = {}): SaveJobOutputsOptions {
  return {
    dir, endpointId: 'ep-1', job, input: { prompt: 'a cat' }, parts: parseOutputs(job.output),
    download: true, maxDownloadBytes: 50_000, downloadTimeoutMs: 30_000, ...more,
  };
}

describe('saveJobOutputs', () => {
  test('a language model\'s answer is saved as output.txt beside job.json, as plain text (issue 10)', async () => {
    const job = aCompletedJob('job-llm', [{ choices: [{ tokens: [' You', ' asked'] }], usage: { input: 1, output: 2 } }, { choices: [{ tokens: ['.'] }] }]);
    const saved = await saveJobOutputs(options(job));
    assert.deepEqual(saved.files.map((f) => [f.name, f.kind, f.field]), [['output.txt', 'text', 'output']]);
    assert.equal(await readFile(join(saved.folder, 'output.txt'), 'utf8'), ' You asked.');
    assert.deepEqual((await readdir(saved.folder)).sort(), ['job.json', 'output.txt']);
    const record = JSON.parse(await readFile(saved.jobJsonPath, 'utf8'));
    assert.deepEqual(record.files.map((f: { name: string }) => f.name), ['output.txt']);
  });

  test('decoded PNGs are written with their seed in the name, and job.json records everything', async () => {
    const job = aCompletedJob('job-png', [{ image_url: aPngDataUri(3, 3), seed: 42 }, { image_url: aPngDataUri(2, 2), seed: 43 }, { image_url: 'javascript:alert(1)' }]);
    const saved = await saveJobOutputs(options(job, { inputFile: '/work/inputs/cat.json' }));
    assert.equal(saved.folder, join(resolve(dir), 'ep-1', 'job-png'));
    assert.deepEqual(saved.files.map((f) => f.name), ['image-1-seed-42.png', 'image-2-seed-43.png']);
    assert.deepEqual(await readFile(join(saved.folder, 'image-1-seed-42.png')), aPng(3, 3));
    const record = JSON.parse(await readFile(saved.jobJsonPath, 'utf8'));
    assert.equal(record.jobId, 'job-png');
    assert.equal(record.endpointId, 'ep-1');
    assert.equal(record.inputFile, '/work/inputs/cat.json');
    assert.deepEqual(record.input, { prompt: 'a cat' });
    assert.deepEqual(record.timings, { delayTimeMs: 120, executionTimeMs: 3400 });
    assert.deepEqual(record.files.map((f: { name: string; seed: number; bytes: number }) => [f.name, f.seed, f.bytes]), [
      ['image-1-seed-42.png', 42, aPng(3, 3).length], ['image-2-seed-43.png', 43, aPng(2, 2).length],
    ]);
    assert.equal(record.rejected.length, 1);
    assert.match(record.rejected[0].reason, /javascript:/);
    assert.deepEqual(record.job, JSON.parse(JSON.stringify(job)));
    assert.deepEqual((await readdir(saved.folder)).sort(), ['image-1-seed-42.png', 'image-2-seed-43.png', 'job.json']);
  });

  test('an embedded file larger than one decoding slice is written whole, byte for byte (decoded a slice at a time)', async () => {
    // A PNG with 2 MB after it: three slices of 768 KiB, the last one short and padded.
    const bytes = Buffer.concat([aPng(3, 3), randomBytes(2_000_003)]);
    const job = aCompletedJob('job-big-png', [{ image_url: `data:image/png;base64,${bytes.toString('base64')}` }]);
    const saved = await saveJobOutputs(options(job));
    assert.deepEqual(saved.files.map((f) => [f.name, f.bytes]), [['image-1.png', bytes.length]]);
    assert.ok((await readFile(join(saved.folder, 'image-1.png'))).equals(bytes));
  });

  test('job.json never holds the API key, even when the worker echoes it into its output', async () => {
    const key = 'sk-echoed-by-a-worker-31c9d2';
    const job = aCompletedJob('job-echo', { text: `env: RUNPOD_API_KEY=${key}`, nested: { note: `"${key}"` } });
    const saved = await saveJobOutputs(options(job, { secrets: [key] }));
    const text = await readFile(saved.jobJsonPath, 'utf8');
    assert.ok(!text.includes(key), text);
    const record = JSON.parse(text);
    assert.match(record.job.output.text, /RUNPOD_API_KEY=\[REDACTED\]/);
  });

  test('loopback URLs are downloaded without any credential, named from the Content-Type or the URL', async () => {
    const before = seen.length;
    const job = aCompletedJob('job-dl', { image_url: `${base}/a.png`, video_url: `${base}/clip`, audio_url: `${base}/sound.wav`, cost: 0.5 });
    const saved = await saveJobOutputs(options(job));
    assert.deepEqual(saved.failedDownloads, []);
    assert.deepEqual(saved.files.map((f) => [f.name, f.bytes]), [['image-1.png', aPng(4, 4).length], ['video-1.mp4', aSample('mp4').length], ['audio-1.wav', aSample('wav').length]]);
    assert.deepEqual(await readFile(join(saved.folder, 'image-1.png')), aPng(4, 4));
    const requests = seen.slice(before);
    assert.equal(requests.length, 3);
    for (const h of requests) {
      assert.equal(h.authorization, undefined);
      assert.equal(h.cookie, undefined);
      assert.equal(h['proxy-authorization'], undefined);
    }
    const record = JSON.parse(await readFile(saved.jobJsonPath, 'utf8'));
    assert.equal(record.costUsd, 0.5);
    assert.equal(record.files[1].url, `${base}/clip`);
  });

  test('job.json keeps the job\'s cost with how it was made (the cost line of the panel and the Jobs view)', async () => {
    const cost = { kind: 'estimate' as const, usd: 0.00212, how: 'estimate: 4.00 s of execution x $0.000530/s (price table)' };
    const saved = await saveJobOutputs(options(aCompletedJob('job-cost', { text: 'hi' }), { cost }));
    const record = JSON.parse(await readFile(saved.jobJsonPath, 'utf8'));
    assert.deepEqual(record.cost, cost);
    assert.equal(record.costUsd, undefined, 'costUsd stays the output\'s own reported cost only');
    const none = JSON.parse(await readFile((await saveJobOutputs(options(aCompletedJob('job-nocost', { text: 'hi' })))).jobJsonPath, 'utf8'));
    assert.equal(none.cost, undefined);
  });

  test('a failed download is recorded with its reason and the rest is still saved', async () => {
    const job = aCompletedJob('job-mixed', [
      { image_url: `${base}/gone`, seed: 1 },
      { image_url: `${base}/big`, seed: 2 },
      { image_url: `${base}/to-elsewhere`, seed: 3 },
      { image_url: `${base}/to-png`, seed: 4 },
      { image_url: aPngDataUri(), seed: 5 },
    ]);
    const saved = await saveJobOutputs(options(job));
    assert.deepEqual(saved.files.map((f) => f.name), ['image-4-seed-4.png', 'image-5-seed-5.png']);
    const reasons = Object.fromEntries(saved.failedDownloads.map((f) => [f.url.slice(base.length), f.reason]));
    assert.match(reasons['/gone']!, /answered 404/);
    assert.match(reasons['/big']!, /over the limit of 50000 bytes/);
    assert.match(reasons['/to-elsewhere']!, /redirected to http:\/\/example\.com/);
    const record = JSON.parse(await readFile(saved.jobJsonPath, 'utf8'));
    assert.equal(record.failedDownloads.length, 3);
    assert.deepEqual((await readdir(saved.folder)).sort(), ['image-4-seed-4.png', 'image-5-seed-5.png', 'job.json']);
  });

  test('the size cap holds for a body with no Content-Length, and no partial file is left', async () => {
    const saved = await saveJobOutputs(options(aCompletedJob('job-endless', { video_url: `${base}/endless` })));
    assert.equal(saved.files.length, 0);
    assert.match(saved.failedDownloads[0]!.reason, /larger than the limit/);
    assert.deepEqual(await readdir(saved.folder), ['job.json']);
  });

  test('a stalled download times out, is recorded, and leaves no partial file', async () => {
    const saved = await saveJobOutputs(options(aCompletedJob('job-stall', { video_url: `${base}/stall` }), { downloadTimeoutMs: 300 }));
    assert.match(saved.failedDownloads[0]!.reason, /no complete answer within/);
    assert.deepEqual(await readdir(saved.folder), ['job.json']);
  });

  test('cancelling stops downloads but job.json is still written', async () => {
    const controller = new AbortController();
    const pending = saveJobOutputs(options(aCompletedJob('job-cancel', { video_url: `${base}/stall` }), { signal: controller.signal }));
    setImmediate(() => controller.abort());
    const saved = await pending;
    assert.match(saved.failedDownloads[0]!.reason, /cancelled/);
    assert.ok(JSON.parse(await readFile(saved.jobJsonPath, 'utf8')).failedDownloads.length === 1);
  });

  test('an image that cannot be written is recorded and the others are still saved', async () => {
    // A folder squats on the first image's name, so writing it fails (EISDIR) whatever the user's rights.
    await mkdir(join(dir, 'ep-1', 'job-squat', 'image-1-seed-1.png'), { recursive: true });
    const job = aCompletedJob('job-squat', [{ image_url: aPngDataUri(), seed: 1 }, { image_url: aPngDataUri(), seed: 2 }]);
    const saved = await saveJobOutputs(options(job));
    assert.deepEqual(saved.files.map((f) => f.name), ['image-2-seed-2.png']);
    assert.equal(saved.failedWrites.length, 1);
    assert.match(saved.failedWrites[0]!.reason, /could not write image-1-seed-1\.png: EISDIR/);
    assert.equal(JSON.parse(await readFile(saved.jobJsonPath, 'utf8')).failedWrites.length, 1);
  });

  test('with download off, URLs are only recorded', async () => {
    const before = seen.length;
    const saved = await saveJobOutputs(options(aCompletedJob('job-links', { image_url: `${base}/a.png` }), { download: false }));
    assert.equal(seen.length, before);
    assert.deepEqual(saved.links, [{ field: 'output.image_url', kind: 'image', url: `${base}/a.png` }]);
  });

  test('a download that is not media (an HTML page) is refused by its bytes and not kept', async () => {
    const saved = await saveJobOutputs(options(aCompletedJob('job-html', { image_url: `${base}/page.html` })));
    assert.deepEqual(saved.files, []);
    assert.match(saved.failedDownloads[0]!.reason, /markup/);
    assert.deepEqual(await readdir(saved.folder), ['job.json']);
  });

  for (const [endpointId, jobId] of [['ep', '../../escaped'], ['../..', '..'], ['a/b\\c', 'x:y\0z'], ['CON', 'nul.txt'], ['ep', '/etc/passwd'], ['ep', 'C:\\Windows']]) {
    test(`ids ${JSON.stringify(endpointId)} / ${JSON.stringify(jobId)} cannot leave the outputs folder`, async () => {
      const saved = await saveJobOutputs(options(aCompletedJob(jobId!, [{ image_url: aPngDataUri(), seed: 1 }]), { endpointId: endpointId! }));
      const rel = relative(resolve(dir), saved.folder);
      assert.ok(!rel.startsWith('..') && !rel.includes('\0'), rel);
      assert.equal(rel.split(sep).length, 2, rel);
      for (const segment of rel.split(sep)) assert.match(segment, /^[A-Za-z0-9_][A-Za-z0-9._-]*$/);
      assert.ok((await readdir(saved.folder)).includes('job.json'));
    });
  }
});

describe('safeFileName', () => {
  test('keeps ordinary ids unchanged', () => {
    assert.equal(safeFileName('sync-1f2e3d4c-5b6a'), 'sync-1f2e3d4c-5b6a');
  });
  test('different unsafe ids never collide', () => {
    assert.notEqual(safeFileName('a/b'), safeFileName('a_b'));
    assert.notEqual(safeFileName('a/b'), safeFileName('a\\b'));
    assert.equal(safeFileName('a_b'), 'a_b');
  });
  test('reserved Windows names and dot names are changed', () => {
    for (const name of ['CON', 'con', 'aux.png', 'LPT1', 'COM9', '.', '..', '...', '', 'name. ']) {
      const safe = safeFileName(name);
      assert.ok(!/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(safe) && !/^\./.test(safe) && !/[. ]$/.test(safe) && safe.length > 0, `${name} -> ${safe}`);
    }
  });
  test('long names are shortened', () => {
    assert.ok(safeFileName('x'.repeat(500)).length <= 90);
  });
});
