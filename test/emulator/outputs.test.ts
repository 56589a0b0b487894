// SPEC 2.8, 8 rule 7 and issue #3 "Outputs by endpoint kind": what a completed job carries. Dedicated image
// endpoints return real PNGs of the requested size, one per num_images, drawn deterministically from prompt
// and seed; public endpoints return URLs on the emulator's own origin that anyone can fetch without a key,
// for 7 days; echo returns its input.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { client, moveClock, request, startEmulator, type Emulator } from './harness';
import { assertProblem } from './assertions';
import { config, ENDPOINTS, KEYS } from './fixtures';
import { decodePng, pngFromDataUri } from './png';

let emu: Emulator;
let api: ReturnType<typeof client>;
before(async () => {
  emu = await startEmulator(config());
  api = client(emu.url, KEYS.full);
});
after(async () => { await emu?.stop(); });

/** Runs a job with /run and drives it to the end with the admin clock; returns the finished job. */
async function runToEnd(endpoint: string, input: Record<string, unknown>) {
  const r = await api.post(`/v2/${endpoint}/run`, { input });
  assert.equal(r.status, 200, r.text);
  await moveClock(emu.url, { advanceMs: 41_000 });
  const s = await api.get(`/v2/${endpoint}/status/${r.json.id}`);
  assert.equal(s.status, 200, s.text);
  assert.equal(s.json.status, 'COMPLETED', s.text.slice(0, 300));
  return s.json;
}

describe('dedicated image endpoint: [{image_url: data:image/png;base64,…, seed}]', () => {
  test('each PNG decodes (signature, CRCs, IHDR, inflated IDAT) to the requested width x height', async () => {
    const job = await runToEnd(ENDPOINTS.image, { prompt: 'a red fox', width: 64, height: 48, seed: 42, num_images: 2 });
    assert.ok(Array.isArray(job.output));
    assert.equal(job.output.length, 2);
    for (const item of job.output) {
      assert.equal(typeof item.image_url, 'string');
      assert.ok(Number.isInteger(item.seed), `seed ${item.seed}`);
      const png = decodePng(pngFromDataUri(item.image_url));
      assert.equal(png.width, 64);
      assert.equal(png.height, 48);
    }
    assert.equal(job.output[0].seed, 42, 'the first image uses the requested seed');
    assert.notEqual(job.output[0].seed, job.output[1].seed, 'each image has its own seed');
    assert.notEqual(job.output[0].image_url, job.output[1].image_url);
  });

  test('without width, height or num_images: one 512 x 512 image', async () => {
    const job = await runToEnd(ENDPOINTS.image, { prompt: 'defaults' });
    assert.equal(job.output.length, 1);
    const png = decodePng(pngFromDataUri(job.output[0].image_url));
    assert.deepEqual([png.width, png.height], [512, 512]);
  });

  test('a wide, short image (2048 x 3) keeps its exact size', async () => {
    const job = await runToEnd(ENDPOINTS.image, { prompt: 'strip', width: 2048, height: 3, seed: 1 });
    const png = decodePng(pngFromDataUri(job.output[0].image_url));
    assert.deepEqual([png.width, png.height], [2048, 3]);
  });

  test('num_images=4 gives four decodable images', async () => {
    const job = await runToEnd(ENDPOINTS.image, { prompt: 'four', width: 16, height: 16, seed: 9, num_images: 4 });
    assert.equal(job.output.length, 4);
    for (const item of job.output) decodePng(pngFromDataUri(item.image_url));
    assert.equal(new Set(job.output.map((o: { seed: number }) => o.seed)).size, 4);
  });

  test('the same prompt and seed draw the same image; another seed or prompt draws another', async () => {
    const base = { prompt: 'determinism', width: 40, height: 30, seed: 1234 };
    const a = await runToEnd(ENDPOINTS.image, base);
    const b = await runToEnd(ENDPOINTS.image, base);
    const otherSeed = await runToEnd(ENDPOINTS.image, { ...base, seed: 1235 });
    const otherPrompt = await runToEnd(ENDPOINTS.image, { ...base, prompt: 'something else' });
    assert.equal(a.output[0].image_url, b.output[0].image_url);
    const pixels = (j: any) => decodePng(pngFromDataUri(j.output[0].image_url)).raw;
    assert.ok(!pixels(a).equals(pixels(otherSeed)), 'another seed must change the pixels');
    assert.ok(!pixels(a).equals(pixels(otherPrompt)), 'another prompt must change the pixels');
  });

  test('an image is not a single flat colour (something is drawn)', async () => {
    const job = await runToEnd(ENDPOINTS.image, { prompt: 'pattern', width: 32, height: 32, seed: 5 });
    const png = decodePng(pngFromDataUri(job.output[0].image_url));
    const rowBytes = png.raw.length / png.height;
    const rows = new Set<string>();
    for (let y = 0; y < png.height; y++) rows.add(png.raw.subarray(y * rowBytes + 1, (y + 1) * rowBytes).toString('hex'));
    assert.ok(rows.size > 1, 'every row is the same');
  });

  test('a width over 2048 is refused with 400 or capped at 2048, never drawn larger', async () => {
    const r = await api.post(`/v2/${ENDPOINTS.image}/run`, { input: { prompt: 'huge', width: 4096, height: 8 } });
    if (r.status === 400) return void assertProblem(r, 400);
    assert.equal(r.status, 200, r.text);
    await moveClock(emu.url, { advanceMs: 41_000 });
    const s = await api.get(`/v2/${ENDPOINTS.image}/status/${r.json.id}`);
    if (s.json.status === 'FAILED') return;
    const png = decodePng(pngFromDataUri(s.json.output[0].image_url));
    assert.ok(png.width <= 2048, `drew ${png.width} wide`);
  });
});

describe('echo endpoint', () => {
  test('its output is its input, exactly', async () => {
    const input = { prompt: 'echo me', nested: { list: [1, 'two', null, { three: 3.5 }] }, flag: false };
    const job = await runToEnd(ENDPOINTS.echo, input);
    assert.deepEqual(job.output, input);
  });
});

describe('public endpoints: URLs on the emulator origin, fetchable without a key, for 7 days', () => {
  const kinds = [
    [ENDPOINTS.publicImage, 'image_url', /^image\/png\b/],
    [ENDPOINTS.video, 'video_url', /^video\//],
    [ENDPOINTS.audio, 'audio_url', /^audio\//],
  ] as const;
  const urls = new Map<string, string>();

  for (const [endpoint, field, type] of kinds) {
    test(`${endpoint}: output {${field}, cost}, and the URL serves ${type.source} without Authorization`, async () => {
      const job = await runToEnd(endpoint, { prompt: `a ${field}` });
      assert.equal(typeof job.output, 'object');
      assert.ok(!Array.isArray(job.output));
      assert.equal(typeof job.output.cost, 'number');
      assert.ok(job.output.cost >= 0);
      const url = job.output[field];
      assert.equal(typeof url, 'string');
      assert.ok(url.startsWith(`${emu.url}/files/`), `${url} is not on ${emu.url}/files/`);
      const file = await request(emu.url, new URL(url).pathname + new URL(url).search);
      assert.equal(file.status, 200, file.text.slice(0, 200));
      assert.match(String(file.headers['content-type']), type);
      assert.ok(file.body.length > 0);
      if (field === 'image_url') decodePng(file.body);
      urls.set(endpoint, url);
    });
  }

  test('an unknown file is 404', async () => {
    assertProblem(await request(emu.url, '/files/does-not-exist.png'), 404);
  });

  test('the URLs still work 7 days minus an hour later, and are 404 7 days plus an hour later', async () => {
    assert.equal(urls.size, 3, 'the tests above must have run first');
    await moveClock(emu.url, { advanceMs: 7 * 86_400_000 - 3_600_000 });
    for (const url of urls.values()) {
      const r = await request(emu.url, new URL(url).pathname + new URL(url).search);
      assert.equal(r.status, 200, `${url} expired early`);
    }
    await moveClock(emu.url, { advanceMs: 2 * 3_600_000 });
    for (const url of urls.values()) {
      assert.equal((await request(emu.url, new URL(url).pathname + new URL(url).search)).status, 404, `${url} still served after 7 days`);
    }
  });
});
