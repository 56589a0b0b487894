// What the emulator benches that drive its HTTP routes in bulk share (queue.bench.ts, patchUnderLoad.bench.ts):
// one request through a keep-alive agent, the status-route latency probe, and the p99 they report.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** A JSON request with the bench's key; resolves the parsed body of a 200, rejects anything else with its text. */
export function call(agent: http.Agent, key: string, url: string, method = 'GET', body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString())) : reject(new Error(`${method} ${url}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

export function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!;
}

/** GETs of `url(pick())`, `concurrency` at a time, until `stop()` or `count` requests; latencies in ms. */
export async function probe(send: (url: string) => Promise<unknown>, concurrency: number, url: (id: string) => string, pick: () => string, stop: () => boolean, count = Number.POSITIVE_INFINITY): Promise<number[]> {
  const lat: number[] = [];
  let sent = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (!stop() && sent < count) {
      sent++;
      const t = performance.now();
      await send(url(pick()));
      lat.push(performance.now() - t);
    }
  }));
  return lat;
}
