// A pass-through proxy in front of the emulator for the job suites: it records every request (so "a bad file
// sends nothing", "Stop Waiting stops polling" and "Retry POSTs /retry" are measured, not assumed) and rewrites
// the emulator's origin in answers to its own, so output downloads pass through it too and their headers are
// recorded.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  /** The body of a request that has one (POST /run, /cancel...), as text. */
  body?: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** The status the emulator answered (502: it did not answer), once it has. */
  status?: number;
}

/** A pass-through proxy that records each request and points the emulator's own URLs back at itself. */
export async function startRecordingProxy(target: string): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const targetUrl = new URL(target);
  let self = '';
  const server = http.createServer((req, res) => {
    const recorded: Recorded = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, at: Date.now() };
    requests.push(recorded);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => { recorded.body = Buffer.concat(body).toString('utf8'); });
    }
    const headers = { ...req.headers, host: targetUrl.host };
    const upstream = http.request({ host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers }, (up) => {
      recorded.status = up.statusCode ?? 502;
      const type = String(up.headers['content-type'] ?? '');
      if (!/json/.test(type)) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const body = Buffer.from(Buffer.concat(chunks).toString('utf8').split(target).join(self));
        // The body is sent whole, with its length: a chunked answer (a large billing response) loses that framing.
        const { 'transfer-encoding': _chunked, ...rest } = up.headers;
        const out = { ...rest, 'content-length': String(body.length) };
        res.writeHead(up.statusCode ?? 502, out);
        res.end(body);
      });
    });
    upstream.on('error', () => {
      recorded.status = 502;
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
