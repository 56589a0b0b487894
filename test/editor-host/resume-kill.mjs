#!/usr/bin/env node
// Issue 23's reload-and-resume test, with a real kill (`batch.resumeLoss`): a JSONL batch is started through the
// UI of a real VS Code (code-server, via `npm start --service`), the extension host is SIGKILLed once the service
// has accepted about a third of the jobs, the window is loaded again, the "Resume Batch" offer is clicked, and the
// batch runs to its end. The editor suites cannot do this: they run inside the extension host that is killed.
//
// The emulator runs in its own process and a recording proxy (in this process) sits in front of it, so both
// survive the kill; jobs are counted on the service's side: every /run the service answered 200 with an id, per
// input (each line carries a unique `"i"`), and each such job's final status asked of the emulator directly.
//   lost  = inputs with no COMPLETED job on the service;  twice = inputs with 2 or more jobs created.
// A manifest row left `unknown` (the kill fell between the `submitting` line and the /run answer; by design not
// resent, docs/batches.md "What is safe to resend") is reported apart: it is not lost if the service made its job.
// One row per kill at most can be caught between its line and its /run's last byte (one synchronous step: the
// service then has all of its body but that byte, and no job): said, and not counted lost (judgeKill).
//
// usage: node test/editor-host/resume-kill.mjs [--jobs N] [--kills K] [--in-flight] [--json FILE]
//   (needs `node scripts/build.mjs` first). --kills K: K kills, the k-th when k/(K+1) of the jobs were accepted
//   (k/3 for K of 1 or 2), each followed by a reload and a resume; --in-flight: the last kill lands while a /run
//   the service accepted has its answer held back by the proxy (the row is left `unknown`); --json writes the
//   figures, for test/bench/batchResume.bench.ts. --resume-kills R (issue 27 item 12): after those kills, R more,
//   each in the first 500 ms of a resume (at offsets 0, 500/R, 2*500/R... ms after the new window's first request
//   reached the service), while its first /run requests are leaving: a row killed before its request left must be sent by the next
//   resume (never left `unknown`), one whose request left is never sent again. Prints `N passed, N failed` last;
//   exit 1 on failure.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createChecks, launchChromium, processesWith, runCommand, tearDown } from './scriptChecks.mjs';

const HOST_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HOST_DIR, '../..');
const ARTIFACTS = path.join(HOST_DIR, 'artifacts');
const { values: opts } = parseArgs({ options: { jobs: { type: 'string', default: '45' }, kills: { type: 'string', default: '1' }, 'in-flight': { type: 'boolean', default: false }, 'resume-kills': { type: 'string', default: '0' }, json: { type: 'string' } } });
const N = Number(opts.jobs);
const KILLS = Number(opts.kills);
const RESUME_KILLS = Number(opts['resume-kills']);
const KEY = 'demo-key-full'; // what the extension gives the demo profile (src/demo/demoConnection.ts)
const ENDPOINT = 'resume-llm';
const CONCURRENCY = 6;
const { counts, check, summary } = createChecks();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, timeoutMs = 60_000, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Starts a child in its own process group; resolves with the first match of `ready` in its output. */
function startChild(cmd, args, ready, env) {
  const child = spawn(cmd, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let seen = '';
  const matched = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${path.basename(args[0])}: nothing ready after 240 s:\n${seen.slice(-3000)}`)), 240_000);
    const onData = (d) => {
      seen += d;
      const m = ready.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`${path.basename(args[0])} stopped (${code ?? signal}):\n${seen.slice(-3000)}`)));
  });
  return { child, matched, output: () => seen };
}

/** In front of the emulator: records every /run with its input's marker and the service's answer. */
function startRecordingProxy(target) {
  const runs = []; // { i, status, id, at }
  const received = new Set(); // inputs (`i`) whose /run reached the service whole (its body read to the end)
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    proxy.arrivals.push(Date.now());
    const chunks = [];
    const isRun = req.method === 'POST' && /^\/v2\/[^/]+\/run$/.test(req.url ?? '');
    req.on('data', (c) => chunks.push(c));
    // A /run whose connection closed before its body was whole (the kill): how far it got. The extension sends
    // all of a body but its last byte once connected, that byte with the row's line (connectedFetch.ts).
    req.on('close', () => {
      if (!isRun || req.complete) return;
      const got = Buffer.concat(chunks);
      const i = /"i":(\d+)/.exec(got.toString('utf8'))?.[1];
      proxy.cut.push({ i: i === undefined ? undefined : Number(i), bytes: got.length, length: Number(req.headers['content-length']), at: Date.now() });
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (isRun) {
        try {
          received.add(JSON.parse(body.toString('utf8')).input?.i);
        } catch {
          // not a job's body
        }
      }
      // A connection of its own per request (agent: false): a kept-alive one the emulator closes as it is reused
      // (its keep-alive timeout) would be answered 502 here, and a /run answered 502 is never resent by design.
      const up = http.request({ agent: false, host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, host: t.host, connection: 'close' } }, (answer) => {
        const out = [];
        answer.on('data', (c) => out.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(out);
          if (isRun) {
            let i;
            let id;
            try {
              i = JSON.parse(body.toString('utf8')).input?.i;
              id = JSON.parse(text.toString('utf8')).id;
            } catch {
              // a non-JSON answer: recorded with its status, no id
            }
            runs.push({ i, status: answer.statusCode, id: answer.statusCode === 200 ? id : undefined, at: Date.now() });
            // --in-flight: the answer that makes the count is held back, so the kill lands while that /run is on
            // its way: the service made the job, the extension never learns its id.
            if (proxy.holdAt !== undefined && runs.filter((r) => r.id).length === proxy.holdAt) {
              proxy.holdAt = undefined;
              proxy.held = res;
              return;
            }
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
        });
      });
      up.on('error', (e) => {
        proxy.upstreamErrors.push(`${new Date().toISOString().slice(11, 23)} ${req.method} ${req.url}: ${e.code ?? e.message}`);
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  const proxy = { url: '', runs, received, arrivals: [], cut: [], upstreamErrors: [], server, holdAt: undefined, held: undefined };
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(Object.assign(proxy, { url: `http://127.0.0.1:${server.address().port}` }))));
}

async function getJson(url) {
  const r = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
  return { status: r.status, body: r.ok ? await r.json() : undefined };
}

/** The manifest the batch writes under the workspace's outputs folder, read as the core reads it (last row wins). */
function readManifest(workspace) {
  const root = path.join(workspace, '.serverless-outputs', 'batches');
  const dirs = fs.existsSync(root) ? fs.readdirSync(root) : [];
  if (dirs.length !== 1) return undefined;
  const text = fs.readFileSync(path.join(root, dirs[0], 'batch.jsonl'), 'utf8');
  const rows = new Map();
  const events = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const o = JSON.parse(line);
      if (o.type === 'job') rows.set(o.index, o);
      else if (o.type === 'event') events.push(o);
    } catch {
      bad++;
    }
  }
  const phases = {};
  for (const r of rows.values()) phases[r.phase] = (phases[r.phase] ?? 0) + 1;
  return { rows, events, phases, bad };
}

async function clickText(page, selector, timeoutMs = 60_000) {
  const loc = page.locator(selector).first();
  await loc.waitFor({ state: 'visible', timeout: timeoutMs });
  await loc.click();
}

/** Clicks "Send" if the batch asks for confirmation (no cost range is known on a fresh profile). */
async function sendIfAsked(page, started) {
  await until('the batch to start (or to ask to Send)', async () => {
    // The Send question is a modal dialog (issue 27 item 8).
    const send = page.locator('.monaco-dialog-box .monaco-button:text-is("Send")').first();
    if (await send.isVisible().catch(() => false)) await send.click().catch(() => {});
    return started();
  }, 60_000, 250);
}

/** SIGKILLs the extension host (exactly one process: ours, with --type=extensionHost); returns the pid. */
async function killHost() {
  const hosts = processesWith(marker).filter(([, cmd]) => cmd.includes('--type=extensionHost'));
  if (hosts.length !== 1) throw new Error(`expected exactly one extension host, found ${hosts.length}:\n${hosts.map((h) => h.join(' ')).join('\n')}`);
  const [hostPid, hostCmd] = hosts[0];
  if (/code-server\/out\/node\/entry\.js|chrom/.test(hostCmd)) throw new Error(`refusing to kill ${hostPid}: ${hostCmd}`);
  process.kill(hostPid, 'SIGKILL');
  proxy.held?.destroy(); // its reader is dead
  proxy.held = undefined;
  const gone = () => {
    try {
      return fs.readFileSync(`/proc/${hostPid}/stat`, 'latin1').split(' ')[2] === 'Z';
    } catch {
      return true; // reaped between two looks
    }
  };
  await until('the extension host to be gone', gone, 10_000, 50);
  return hostPid;
}

/** Closes every editor, reloads the window and clicks the resume offer; returns when it was clicked. */
async function reloadAndResume(page) {
  // A dialog the dead window left open (the Send question of a resume killed before it was answered) would take
  // the keyboard: closed first.
  const dialog = page.locator('.monaco-dialog-box').first();
  if (await dialog.isVisible().catch(() => false)) {
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
  }
  // Nothing left open that would activate the extension by itself (the .jsonl, the Batch panel): the next window
  // must find the unfinished batch from the workspace alone, as after a crash with the editors closed.
  await runCommand(page, 'View: Close All Editors');
  await until('every editor closed', async () => (await page.locator('.tabs-container .tab').count()) === 0, 10_000);
  // A new window (Developer: Reload Window, which saves the window's state first: page.reload() may not, and the
  // editors came back) starts a new extension host, which offers to resume the batch.
  await runCommand(page, 'Developer: Reload Window', () => page.waitForNavigation({ timeout: 60_000 }));
  await page.locator('.monaco-workbench').waitFor();
  await clickText(page, '.notification-toast .monaco-button:text-is("Resume Batch")', 90_000);
  return Date.now();
}

/** Kills the extension host mid-batch, reloads the window with nothing of ours open, and clicks the resume
 * offer. Returns where the kill landed. */
/**
 * What a kill left: the rows on file as `submitting` whose /run never reached the service whole. A row's line and
 * its request's last byte are written in one synchronous step on one thread (docs/batches.md "What is safe to
 * resend"), so a kill can fall between the two for one row at most, and the service then has all of that row's
 * body but its last byte: the one case where a row is `submitting` with no job, accepted by design (nothing
 * writes a file and a socket at once). It is said, and excused from "lost"; anything else fails the run. That the
 * step holds nothing else is test/unit/batch/sendingLine.test.ts's to prove, deterministically: with a 2 ms wait
 * put between a line and its last byte, it fails, while this run only caught one row at each of two kills.
 */
function judgeKill(killedAt) {
  const m = readManifest(workspace);
  const submitting = [...(m?.rows.values() ?? [])].filter((r) => r.phase === 'submitting').map((r) => r.index);
  const notReceived = submitting.filter((i) => !proxy.received.has(i));
  const cutAtLastByte = (i) => proxy.cut.some((c) => c.i === i && c.at >= killedAt && c.bytes === c.length - 1);
  if (notReceived.length > 1 || notReceived.some((i) => !cutAtLastByte(i))) {
    const cuts = proxy.cut.filter((c) => c.at >= killedAt).map((c) => `${c.i}: ${c.bytes} of ${c.length} bytes`);
    throw new Error(`rows left submitting by a kill whose /run never reached the service whole: ${JSON.stringify(notReceived)} (at most one may, cut at its last byte; bodies cut by that kill: ${cuts.join(', ') || 'none'})`);
  }
  for (const i of notReceived) caughtAtLastByte.add(i);
  return { submitting, notReceived };
}

async function killTheHost(page, threshold, waitForStart = true) {
  const acceptedBeforeKill = proxy.runs.filter((r) => r.id).length;
  const killedAt = Date.now();
  const hostPid = await killHost();
  const manifestAtKill = readManifest(workspace)?.phases ?? {};
  console.log(`  killed extension host ${hostPid} with ${acceptedBeforeKill} of ${N} jobs accepted (aimed at ${threshold}); manifest then: ${JSON.stringify(manifestAtKill)}`);
  if (acceptedBeforeKill >= N) throw new Error('the kill came after every job was accepted: not mid-batch');

  // What the workbench says of the dead host (kept for a reader of the artifacts; the test does not rely on it).
  await sleep(1500);
  const { notReceived } = judgeKill(killedAt);
  if (notReceived.length) console.log(`  row ${notReceived[0]} was caught between its line and its /run's last byte (the service got all of its body but that byte)`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'resume-kill-after-kill.png') }).catch(() => {});
  const runsBefore = proxy.runs.length;
  const resumedAt = await reloadAndResume(page);
  await page.screenshot({ path: path.join(ARTIFACTS, 'resume-kill-offer.png') }).catch(() => {});
  // No "Send" is expected (the cost range is known by now), but a fresh profile may not know it: click it if asked.
  if (waitForStart) await sendIfAsked(page, () => proxy.runs.length > runsBefore || readManifest(workspace)?.events.some((e) => e.event === 'finished'));
  return { acceptedBeforeKill, manifestAtKill, resumedAt };
}

/**
 * A kill `offsetMs` after the resumed window's first request reached the service (the endpoint read that plans the
 * resume; its first /run follow 200-500 ms later, all slots at once: on this machine none leaves in the first
 * 400 ms after the click, so offsets from the click would miss them), then a reload and the next resume. Returns what the kill met: the /run the service had received in that resume, and the rows
 * the manifest held `submitting` (each must be one whose request reached the service: the undecidable case).
 */
async function killDuringResume(page, offsetMs, resumedAt) {
  const receivedBefore = new Set(proxy.received);
  const runsBefore = proxy.runs.length;
  // A resume that does not know its cost range asks to Send (a modal): then its sending starts with the click.
  const send = page.locator('.monaco-dialog-box .monaco-button:text-is("Send")').first();
  let firstRun = await until('the resume\'s first request', () => proxy.arrivals.find((t) => t >= resumedAt), 90_000, 5);
  let asked = false;
  for (let left = firstRun + offsetMs - Date.now(); left > 0; left = firstRun + offsetMs - Date.now()) {
    // A look at the page takes tens of ms: none in the last 100 ms, so the kill lands on time.
    if (asked || left <= 100) {
      await sleep(left);
      continue;
    }
    if (await send.isVisible().catch(() => false)) {
      await send.click().catch(() => {});
      asked = true;
      firstRun = Date.now(); // its sending starts now
    }
    await sleep(10);
  }
  const killedAfterMs = Date.now() - firstRun;
  const clickToFirstRunMs = firstRun - resumedAt;
  const killedAt = Date.now();
  await killHost();
  await sleep(300); // a request whose bytes left before the kill reaches the proxy whole
  const { submitting, notReceived } = judgeKill(killedAt);
  const kill = {
    offsetMs,
    killedAfterMs,
    clickToFirstRunMs,
    runsThisResume: proxy.runs.length - runsBefore,
    receivedThisResume: [...proxy.received].filter((i) => !receivedBefore.has(i)).length,
    submitting,
    submittingNotReceived: notReceived,
  };
  console.log(`  kill ${offsetMs} ms after the resume's first request (at ${killedAfterMs} ms; that request came ${clickToFirstRunMs} ms after Resume Batch): ${kill.runsThisResume} /run answered, ${kill.receivedThisResume} received in that resume; rows submitting ${JSON.stringify(submitting)}${notReceived.length ? `; row ${notReceived[0]} caught between its line and its /run's last byte (the service got all of its body but that byte)` : ''}`);
  return { kill, resumedAt: await reloadAndResume(page) };
}

// ---------------------------------------------------------------------------------------------------------------
const marker = `SERVERLESS_GPU_RESUME_KILL_${randomBytes(6).toString('hex')}`;
const env = { ...process.env, [marker]: '1' };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'serverless-gpu-resume-kill-'));
const workspace = path.join(tmp, 'workspace');
fs.mkdirSync(workspace);
// One line per job, each with its own marker `i`; the llm kind runs 3 tokens per 100 ms, so max_tokens 9..45
// makes jobs of 0.3 to 1.5 s.
const lines = Array.from({ length: N }, (_, k) => JSON.stringify({ input: { i: k, prompt: `resume test line ${k}`, sampling_params: { max_tokens: 9 + ((k * 7) % 37) } } }));
fs.writeFileSync(path.join(workspace, 'inputs.jsonl'), `${lines.join('\n')}\n`);
const config = path.join(tmp, 'emulator.json');
fs.writeFileSync(config, JSON.stringify({
  // Lifted so the pace is the batch's own (the larger bench run would otherwise meet the minute window).
  rateLimits: { minute: 6000, hour: 100000, day: 1000000 },
  users: [{
    id: 'resume',
    keys: [{ key: KEY, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read'] }],
    endpoints: [{ id: ENDPOINT, name: 'Resume test LLM', kind: 'llm', queueMs: 50, workersMin: 3, workersMax: 3 }],
  }],
}));
const settingsFile = path.join(tmp, 'settings.json');
fs.writeFileSync(settingsFile, JSON.stringify({
  'serverlessGpu.batch.confirmAboveUsd': 1000,
  'serverlessGpu.batch.concurrency': CONCURRENCY,
  'serverlessGpu.batch.maxUsdPerBatch': 1000,
}));

const started = [];
/** Rows a kill caught between their line and their /run's last byte (judgeKill): `unknown` with no job, by design. */
const caughtAtLastByte = new Set();
let browser;
let proxy;
let emulatorOutput;
const figures = { jobs: N, concurrency: CONCURRENCY };
await check(`a batch of ${N} jobs, the extension host SIGKILLed mid-batch ${KILLS === 1 ? 'once, the window reloaded and the batch resumed' : `${KILLS} times, each time the window reloaded and the batch resumed`}: none lost, none twice (counted on the emulator)`, async () => {
  const emu = startChild(process.execPath, ['dist/emulator.js', '--host', '127.0.0.1', '--port', '0', '--config', config], /(http:\/\/127\.0\.0\.1:\d+)/, env);
  started.push(emu.child);
  emulatorOutput = emu.output;
  const emulatorUrl = (await emu.matched)[1];
  proxy = await startRecordingProxy(emulatorUrl);
  const editor = startChild(process.execPath, ['scripts/start.mjs', '--workspace', workspace, '--service', proxy.url, '--settings', settingsFile], /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m, env);
  started.push(editor.child);
  const url = (await editor.matched)[1];

  browser = await launchChromium(chromium);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor();

  // Open the .jsonl and click its CodeLens; the endpoint is picked in the quick pick, as a user would.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible' });
  await page.keyboard.type('inputs.jsonl', { delay: 5 });
  await page.locator('.quick-input-widget .monaco-list-row:has-text("inputs.jsonl")').first().waitFor();
  await page.keyboard.press('Enter');
  await clickText(page, `.codelens-decoration a:has-text("Run all ${N} lines")`, 90_000);
  // The picker lists the endpoints the Endpoints view has loaded (none: it was never shown, so nothing was asked of
  // the service) and takes a typed id.
  await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible' });
  await page.keyboard.type(ENDPOINT, { delay: 5 });
  await page.keyboard.press('Enter');
  await sendIfAsked(page, () => proxy.runs.length > 0);

  // The kills: the k-th once the service accepted k/(K+1) of the jobs, k/3 for one or two kills (a third, then two
  // thirds). The second falls in the resumed batch, so a resumed manifest is itself killed and resumed.
  figures.kills = [];
  for (let k = 1; k <= KILLS; k++) {
    const threshold = Math.ceil((N * k) / Math.max(3, KILLS + 1));
    const inFlight = opts['in-flight'] && k === KILLS;
    if (inFlight) proxy.holdAt = threshold;
    await until(`${threshold} jobs accepted`, () => (inFlight ? proxy.held : proxy.runs.filter((r) => r.id).length >= threshold), 90_000, 20);
    figures.kills.push(await killTheHost(page, threshold, !(RESUME_KILLS && k === KILLS)));
  }
  figures.acceptedBeforeKill = figures.kills[0].acceptedBeforeKill;
  let resumedAt = figures.kills.at(-1).resumedAt;
  figures.resumeKills = [];
  for (let r = 0; r < RESUME_KILLS; r++) {
    const next = await killDuringResume(page, Math.round((r * 500) / RESUME_KILLS), resumedAt);
    figures.resumeKills.push(next.kill);
    resumedAt = next.resumedAt;
  }
  if (RESUME_KILLS) {
    const met = figures.resumeKills.filter((k) => k.runsThisResume + k.receivedThisResume > 0).length;
    console.log(`  ${RESUME_KILLS} kills in the first 500 ms of a resume's sending; ${met} of them after a /run of it was received`);
    await sendIfAsked(page, () => proxy.runs.length > 0);
  }

  const done = await until('the resumed batch to end (its manifest\'s finished event)', () => {
    const m = readManifest(workspace);
    return m?.events.some((e) => e.event === 'finished') ? m : undefined;
  }, Math.max(120_000, N * 2000), 250);
  figures.resumeSeconds = Number(((Date.now() - resumedAt) / 1000).toFixed(1));
  figures.manifestAtEnd = done.phases;
  figures.unknownRows = done.phases.unknown ?? 0;
  figures.badManifestLines = done.bad;
  // An unknown row is asked about once the rest is done (src/batch/batchUi.ts); the driver answers as a user who
  // will not pay twice would, and the counts below then show whether its job existed after all.
  if (figures.unknownRows) await clickText(page, '.notification-toast .monaco-button:text-is("Leave Them")', 30_000);
  else if (opts['in-flight']) throw new Error('the kill with a /run answer held back left no row "unknown": the resume cannot have known that job');

  // Counted on the service: jobs created per input, and whether one of them completed (asked of the emulator).
  const created = new Map();
  for (const r of proxy.runs) if (r.id !== undefined) created.set(r.i, [...(created.get(r.i) ?? []), r.id]);
  const completed = new Set();
  for (const [i, ids] of created) {
    for (const id of ids) {
      const s = await until(`job ${id} to end on the emulator`, async () => {
        const { body } = await getJson(`${emulatorUrl}/v2/${ENDPOINT}/status/${id}`);
        return body && !['IN_QUEUE', 'IN_PROGRESS'].includes(body.status) ? body.status : undefined;
      }, 30_000, 250);
      if (s === 'COMPLETED') completed.add(i);
    }
  }
  // A row a kill caught between its line and its last byte has no job, by design (judgeKill): not counted lost.
  const lostInputs = Array.from({ length: N }, (_, k) => k).filter((k) => !completed.has(k) && !caughtAtLastByte.has(k));
  const twiceInputs = [...created].filter(([, ids]) => ids.length > 1).map(([i]) => i);
  figures.lost = lostInputs.length;
  figures.caughtAtLastByte = caughtAtLastByte.size;
  figures.submittedTwice = twiceInputs.length;
  figures.runRequests = proxy.runs.length;
  figures.jobsCreated = [...created.values()].reduce((a, ids) => a + ids.length, 0);
  const unknownNote = figures.unknownRows
    ? `; ${figures.unknownRows} row(s) left "unknown" (the kill fell between the submitting line and the /run answer): their jobs ${done.rows.size && [...done.rows.values()].filter((r) => r.phase === 'unknown' && !caughtAtLastByte.has(r.index)).every((r) => completed.has(r.index)) ? 'were created and completed on the service (not lost)' : 'are NOT all completed on the service'}${caughtAtLastByte.size ? `, but for row(s) ${[...caughtAtLastByte].join(', ')}, caught before their last byte: no job, as designed` : ''}`
    : '';
  console.log(`  resumed: ${figures.jobsCreated} jobs created for ${N} inputs by ${figures.runRequests} /run; lost ${figures.lost}, submitted twice ${figures.submittedTwice}; manifest at the end ${JSON.stringify(done.phases)}${unknownNote}; the resumed part took ${figures.resumeSeconds} s`);
  // An input with no completed job is lost unless its request reached the service (then its job exists: the
  // undecidable case, left to the user by "Leave Them"). Every job the service made here completes.
  figures.lostNeverReceived = lostInputs.filter((k) => !proxy.received.has(k)).length;
  if (lostInputs.length) throw new Error(`lost (no completed job on the service): inputs ${lostInputs.join(', ')} (${figures.lostNeverReceived} of them never reached the service)`);
  if (twiceInputs.length) throw new Error(`submitted twice: inputs ${twiceInputs.join(', ')}`);
  const rowsNotEnded = [...done.rows.values()].filter((r) => r.phase !== 'ended' && r.phase !== 'unknown');
  if (rowsNotEnded.length) throw new Error(`rows not ended in the manifest: ${rowsNotEnded.map((r) => `${r.index} ${r.phase}`).join(', ')}`);
}).catch(() => false);

if (counts.failed) {
  // What a failed run leaves to read (CI keeps only the output): the service's side of it.
  const m = readManifest(workspace);
  console.log(`  at the failure: manifest ${JSON.stringify(m?.phases ?? {})}, events ${JSON.stringify(m?.events.map((e) => e.event) ?? [])}; ${proxy?.runs.length ?? 0} /run answered (${proxy?.runs.filter((r) => r.status !== 200).map((r) => `${r.i}: ${r.status}`).join(', ') || 'all 200'})`);
  console.log(`  the proxy's upstream errors (${proxy?.upstreamErrors.length ?? 0}): ${(proxy?.upstreamErrors ?? []).slice(0, 10).join('; ') || 'none'}`);
  console.log(`  the emulator's output, its end:\n${(emulatorOutput?.() ?? '').slice(-1500).replace(/^/gm, '    ')}`);
}
await tearDown({ check, counts, browser, proxy, started, marker, artifacts: ARTIFACTS, name: 'resume-kill' });
fs.rmSync(tmp, { recursive: true, force: true });
// Written only once the jobs were counted: a run that broke before has no figures to give.
if (opts.json && figures.lost !== undefined) fs.writeFileSync(opts.json, `${JSON.stringify(figures, null, 2)}\n`);
console.log(summary());
process.exit(counts.failed ? 1 : 0);
