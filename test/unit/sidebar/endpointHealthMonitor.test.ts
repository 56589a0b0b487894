// The Endpoints view's live health (src/endpoints/endpointHealth.ts) against a real local HTTP server whose
// /health answers are scripted: what it asks, when, and what it never asks (hidden, idle, a missing route, a
// rate-limit window running low).
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createServiceClient } from '../../../src/core/http/client';
import { silentLogger } from '../../../src/core/log';
import { RouteSupport } from '../../../src/core/runtime/routeSupport';
import type { ServiceClient } from '../../../src/core/service';
import { EndpointHealth, type RunningJobs } from '../../../src/endpoints/endpointHealth';
import { HEALTH_POLL_MS } from '../../../src/endpoints/healthPlan';

const IDLE = { jobs: { inQueue: 0, inProgress: 0, completed: 3 }, workers: { idle: 1 } };
const BUSY = { jobs: { inQueue: 2, inProgress: 1 }, workers: { running: 1, initializing: 1 } };

interface Script {
  /** The /health answer per endpoint id (default IDLE). */
  health: Map<string, object>;
  /** Every answer's status (default 200). */
  status: number;
  /** Extra response headers (RateLimit...). */
  headers: Record<string, string>;
  asked: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('endpoint health: when the view asks', { timeout: 60_000 }, () => {
  let server: http.Server;
  let url: string;
  let script: Script;
  let client: ServiceClient;
  let visible: boolean;
  let routes: RouteSupport;
  let monitor: EndpointHealth;

  before(async () => {
    server = http.createServer((req, res) => {
      const id = /^\/v2\/([^/]+)\/health$/.exec(req.url ?? '')?.[1];
      if (id) script.asked.push(id);
      if (!id || script.status !== 200) {
        res.writeHead(script.status === 200 ? 404 : script.status, { 'content-type': 'application/json', ...script.headers }).end('{"error":"no"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', ...script.headers }).end(JSON.stringify(script.health.get(id) ?? IDLE));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    monitor?.dispose();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  beforeEach(() => {
    monitor?.dispose();
    script = { health: new Map(), status: 200, headers: {}, asked: [] };
    client = createServiceClient({ billingBaseUrl: url, jobsBaseUrl: url, apiKey: 'k' }, { retry: { maxAttempts: 1 } });
    visible = true;
    routes = new RouteSupport();
    monitor = new EndpointHealth(() => visible, silentLogger, routes);
  });

  test('a load looks at every listed endpoint once; then only a busy one is looked at again, a few seconds later', async () => {
    script.health.set('busy', BUSY);
    monitor.track(client, ['idle', 'busy']);
    await monitor.whenIdle();
    assert.deepEqual([...script.asked].sort(), ['busy', 'idle']);
    assert.deepEqual(monitor.get('busy')?.health.jobs.inQueue, 2);
    await sleep(HEALTH_POLL_MS / 2);
    assert.equal(script.asked.length, 2, 'not sooner than the beat');
    await sleep(HEALTH_POLL_MS / 2 + 700);
    await monitor.whenIdle();
    assert.deepEqual(script.asked.slice(2), ['busy']);
    script.health.set('busy', IDLE);
    await sleep(HEALTH_POLL_MS + 700);
    await monitor.whenIdle();
    assert.equal(monitor.polling, false, 'nothing busy: no next look');
    const n = script.asked.length;
    await sleep(HEALTH_POLL_MS + 300);
    assert.equal(script.asked.length, n);
  });

  test('hidden, nothing is asked, even for a busy endpoint; shown again, it is looked at', async () => {
    script.health.set('busy', BUSY);
    visible = false;
    monitor.track(client, ['busy']);
    await sleep(200);
    assert.deepEqual(script.asked, []);
    visible = true;
    monitor.setVisible(true);
    await monitor.whenIdle();
    assert.deepEqual(script.asked, ['busy']);
    visible = false;
    monitor.setVisible(false);
    await sleep(HEALTH_POLL_MS + 500);
    assert.deepEqual(script.asked, ['busy'], 'hiding stops the planned look');
  });

  test('a job of ours starting on an idle endpoint makes it looked at at once, and while it runs', async () => {
    let listener: (() => void) | undefined;
    const running = new Set<string>();
    const jobs: RunningJobs = { endpointIds: () => running, onDidChange: (l) => { listener = l; return { dispose: () => undefined }; } };
    monitor.setRunningJobs(jobs);
    monitor.track(client, ['quiet']);
    await monitor.whenIdle();
    assert.deepEqual(script.asked, ['quiet']);
    running.add('quiet');
    listener!();
    await sleep(600); // the burst debounce
    await monitor.whenIdle();
    assert.deepEqual(script.asked, ['quiet', 'quiet']);
    assert.equal(monitor.polling, true, 'idle by its health, but our job runs there: looked at again');
  });

  test('a service without the health route (405) is learned once and never asked again', async () => {
    script.status = 405;
    monitor.track(client, ['a', 'b', 'c', 'd', 'e']);
    await monitor.whenIdle();
    assert.equal(routes.get(url, 'health'), 'no');
    const n = script.asked.length;
    assert.ok(n <= 4, `at most one request per concurrent slot before it is learned, got ${n}`);
    monitor.track(client, ['a', 'b']);
    monitor.setVisible(true);
    await monitor.whenIdle();
    assert.equal(script.asked.length, n);
  });

  test('a rate-limit window under a tenth of its quota slows the next look to the slow beat', async () => {
    script.health.set('busy', BUSY);
    script.headers = { RateLimit: 'minute;r=30;t=50', 'RateLimit-Policy': 'minute;q=600;w=60' };
    monitor.track(client, ['busy']);
    await monitor.whenIdle();
    assert.equal(monitor.polling, true);
    await sleep(HEALTH_POLL_MS + 800);
    assert.deepEqual(script.asked, ['busy'], 'no look at the usual beat while the window is low');
  });
});
