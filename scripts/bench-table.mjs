// Writes the benchmark table of docs/benchmarks.md from ONE `npm run bench -- --json FILE` run (issue 11: the table is
// regenerated from a run, never edited by hand), between the markers `<!-- bench:start -->` and
// `<!-- bench:end -->`, with the date of that run and the machine it ran on.
//
// usage: node scripts/bench-table.mjs FILE      (run it on the machine the bench ran on, right after it)
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const DOC = 'docs/benchmarks.md';
const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/bench-table.mjs BENCH_JSON (from npm run bench -- --json BENCH_JSON)');
  process.exit(2);
}
const figures = JSON.parse(readFileSync(file, 'utf8'));

// The rows, in this order: [figure name, what it measures, target if the issues set one]. A figure missing
// from the run (its bench skipped, e.g. no editor host) is left out, and said so under the table.
const ROWS = [
  ['billing.pipeline', 'parse + validate + aggregate a one-year hourly billing response', 'at most 3x'],
  ['billing.pipelineZodOnly', 'the same with the zod schema alone as validator', ''],
  ['tree.refreshToTopLevel', 'Endpoints view: refresh to its top level, 50 endpoints x 365 days', 'at most 1.5x (issue 11)'],
  ['tree.refreshToItems', 'the same, to every item resolved', 'at most 2x (issue 11)'],
  ['emulator.billingYearHourly', 'emulator: one year of hourly billing for 20 endpoints in one response, against a trivial server sending the same bytes and headers', 'at most 1.5x (issue 21)'],
  ['emulator.statusRps', 'emulator: status route throughput, 8 requests in flight, against a trivial server sending the same answer', 'at least 0.9x (issue 21)'],
  ['emulator.queueBurst200x4', 'emulator: 200 jobs at once on 4 workers, time to the last end', 'within 5% (issue 9)'],
  ['emulator.queue10k.completed', 'emulator: 10,000 jobs at once on 8 workers, jobs that end COMPLETED', 'all (issue 21)'],
  ['emulator.queue10k.lastEndMs', 'the same: time to the last end against the predicted FIFO schedule', 'within 5% (issue 21)'],
  ['emulator.queue10k.rssGrowthMb', 'the same: emulator RSS growth from idle to peak', 'at most 100 MB (issue 21)'],
  ['emulator.queue10k.statusP99RunningMs', 'the same: status route p99 while they run, against idle', 'at most 2x (issue 21)'],
  ['emulator.patchUnderLoad.lost', 'emulator: 100 PATCHes of an endpoint (workers max, its scaler\'s value, a release every tenth) while 2,000 jobs run: jobs lost', '0 (issue 28)'],
  ['emulator.patchUnderLoad.runTwice', 'the same: jobs run twice (the workers\' executed seconds / one job\'s, minus the jobs)', '0 (issue 28)'],
  ['emulator.patchUnderLoad.statusP99Ms', 'the same: status route p99 under that load, against idle', 'at most 2x (issue 28)'],
  ['jobs.cold.waitForJob.statusRequestsPerJob', '50 jobs on endpoints never seen, service without status-sync: status requests per job', 'no worse'],
  ['jobs.cold.waitForJob.lagMedian', 'the same: median lag from job end to client knowing', 'no worse'],
  ['jobs.warm.waitForJob.statusRequestsPerJob', '50 jobs on endpoints seen before, without status-sync: requests per job', 'no worse'],
  ['jobs.warm.waitForJob.lagMedian', 'the same: median lag', 'no worse'],
  ['jobs.coldSync.statusRequestsPerJob', '50 jobs on endpoints never seen, service WITH status-sync: requests per job', 'at most 0.2x (issue 11)'],
  ['jobs.coldSync.lagMedian', 'the same: median lag', 'at most 0.1x (issue 11)'],
  ['jobs.bigImages.rssPeak', 'bench process: a job with four 2048x2048 PNGs received and saved: peak RSS', ''],
  ['jobs.extensionHost.rssPeak', 'extension host in a real VS Code, the same job run and shown: peak RSS', ''],
  ['jobs.extensionHost.arrayBuffersPeak', 'the same: peak arrayBuffers', ''],
  ['jobs.extensionHost.arrayBuffersGrowth', 'the same: arrayBuffers added at the peak, against the PNG bytes saved', 'at most 3x (issue 11)'],
  ['jobs.mixedOutputs.arrayBuffersGrowth', 'extension host: a ComfyUI-shaped job of four 3.6 MB JPEGs as bare base64 (19 MB of result), run and shown: arrayBuffers added at the peak, against the JPEG bytes saved', 'at most 3x (issue 20)'],
  ['batch.throughput', 'a batch of 500 jobs of 0.2-2 s, 4 workers, a binding rate limit: jobs per second, against a runpod-python style loop (1 s polling, 4 at a time) in the same run', 'at least 1.5x (issue 23)'],
  ['batch.throughputOfLimit', 'the same, against the limit the service allows (min of worker capacity and rate limit)', 'at least 0.9x (issue 23)'],
  ['batch.requestsPerJob', 'the same batch: status requests per job (long poll), against the loop\'s', 'at most 1.5 requests (issue 23)'],
  ['batch.hostHeapGrowth10k', 'the extension host\'s heap growth (after gc) over a 10,000-job batch with its panel open, against a 1,000-job one', 'at most 3x (issue 23)'],
  ['batch.hostEventLoopDelayMax', 'the extension host\'s worst event-loop delay while the 10,000-job batch runs (read to 1 ms)', 'at most 50 ms (issue 23)'],
  ['batch.hostEventLoopIntervalMax10', 'the same stall as read before this figure\'s 1 ms resolution: a 10 ms timer\'s longest interval (the stall plus up to 10 ms)', ''],
  ['batch.hostEventLoopDelayP99', 'the same: the 99th percentile of the event-loop delay', ''],
  ['batch.hostGcPauseMax', 'the same: the longest garbage collection on the host while it runs', ''],
  ['batch.hostGcMax.threadRun', 'the same collection: the host\'s main thread on a core meanwhile (its schedstat; the rest of the span it waited for a core or slept, on what is not known)', ''],
  ['batch.hostGcMax.span', 'the same: the span those were read over (the collection and a little around it)', ''],
  ['batch.hostThreadRunQueueTotal', 'the same batch: the host\'s main thread waiting for a core, in all', ''],
  ['batch.hostLongestLate.at', 'the same batch: where its longest stall (a 5 ms timer\'s longest lateness) ended, from the batch\'s start', ''],
  ['batch.hostLongestLate.threadRun', 'that stall: the host\'s main thread on a core meanwhile (a task or a collection of the host\'s)', ''],
  ['batch.hostLongestLate.threadRunQueue', 'that stall: the host\'s main thread waiting for a core (the rest of it, asleep)', ''],
  ['batch.resumeLoss', 'a batch of 150 jobs in a real VS Code, its extension host SIGKILLed when a third were accepted, the window reloaded, the batch resumed: jobs lost + jobs submitted twice, counted on the emulator', '0 (issue 23)'],
  ['batch.resumeLoss.unknownRows', 'the same: rows the manifest left "unknown" (killed between the submitting line and the /run answer; not resent by design, their jobs exist on the service)', ''],
  ['batch.resumeLoss.caughtAtLastByte', 'the same: rows the kill caught between their submitting line and their /run\'s last byte ("unknown" with no job on the service: the one undecidable case, not counted lost; docs/batches.md)', ''],
  ['tune.replay10k', 'Tune: 10,000 arrivals x 20 candidate settings replayed on the emulator\'s engine in the replay\'s worker thread', 'at most 5 s (issue 29)'],
  ['tune.replay10k.hostLoopDelayMax', 'the same: the calling thread\'s worst event-loop delay meanwhile, against the same thread idle as long', 'at most 50 ms (issue 29)'],
  ['tune.accuracy.cost', 'Tune: replay of 1,000 recorded arrivals against what the emulator bills when they are really sent to it', 'within 2% (issue 29)'],
  ['tune.accuracy.p95wait', 'the same: the replay\'s p95 queue wait against the jobs\' delayTime', 'within 10% (issue 29)'],
  ['worker.coldStart', 'your own handler under the emulator: cold start (process start to first job take)', ''],
  ['worker.emulatorRunsyncIdleWorker', 'the same handler: a /runsync to an idle worker through the emulator (mostly the SDK\'s own pauses)', ''],
  ['worker.emulatorShareIdleWorker', 'the same: the emulator\'s own share of that', ''],
  ['grid.open900', 'a 900-job grid (30 x 30) in the Batch panel of a real editor: from the Grid button\'s click to the first cells painted', 'under 1 s (issue 31)'],
  ['grid.scrollFrameMax', 'the same grid scrolled page by page to its end and back: the page\'s longest animation frame (the browser reports those over 50 ms; 0: none)', ''],
  ['host.billingRefresh.eventLoopDelayMax', 'extension host: largest event-loop delay while the Endpoints view refreshes a year of hourly billing for 50 endpoints (438,000 records, 78 MB, served by the emulator in its own process; read to 1 ms)', 'at most 50 ms (issue 11)'],
  ['host.billingRefresh.eventLoopIntervalMax10', 'the same stall as read before the 1 ms resolution (the stall plus up to 10 ms)', ''],
  ['host.billingRefresh.gcPauseMax', 'the same: the longest garbage collection on the host during the refresh', ''],
  ['host.gcPauseMax', 'extension host: the longest garbage collection during the billing refresh and the 10,000-job batch (a PerformanceObserver of `gc` entries inside the host), to read beside the two event-loop maxima', 'none over 50 ms (issue 30)'],
  ['host.activate', 'activate() of the packaged extension in a real editor, median of 5 starts', 'at most 20 ms (issue 11)'],
  ['package.extension.js', '`dist/extension.js` (production)', 'at most 200 KiB (issues 11, 28, 30)'],
  ['package.rooms.js', '`dist/rooms.js` (production): the rooms a session may never open, loaded on first use', ''],
  ['package.vsix', 'the .vsix', ''],
];

function formatValue(v, unit) {
  if (unit === 'bytes') return v >= 1e6 ? `${(v / 1e6).toFixed(1)} MB` : `${Math.round(v).toLocaleString('en-US')} bytes (${(v / 1024).toFixed(1)} KiB)`;
  const n = Number.isInteger(v) ? v.toLocaleString('en-US') : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
  return unit === 'requests' || unit === 'records' || unit === 'items' ? n : `${n} ${unit}`;
}

const lines = ['| figure | value | baseline (same run) | ratio | target |', '| --- | --- | --- | --- | --- |'];
const missing = [];
for (const [name, what, target] of ROWS) {
  const f = figures[name];
  if (!f) {
    missing.push(name);
    continue;
  }
  const base = f.baseline ? `${f.baseline.name}, ${formatValue(f.baseline.value, f.unit)}` : '';
  const ratio = f.ratio !== undefined ? `${f.ratio.toFixed(2)}x` : '';
  lines.push(`| ${what} (\`${name}\`) | ${formatValue(f.value, f.unit)} | ${base} | ${ratio} | ${target} |`);
}
const when = statSync(file).mtime.toISOString().slice(0, 16).replace('T', ' ');
const cpu = os.cpus();
const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.versions.node}`;
const block = [
  '<!-- bench:start -->',
  `One \`npm run bench\` run, ${when} UTC, on ${machine} (written by \`scripts/bench-table.mjs\` from its JSON):`,
  '',
  ...lines,
  ...(missing.length ? ['', `Not in this run: ${missing.map((m) => `\`${m}\``).join(', ')}.`] : []),
  '<!-- bench:end -->',
].join('\n');

const readme = readFileSync(DOC, 'utf8');
const start = readme.indexOf('<!-- bench:start -->');
const end = readme.indexOf('<!-- bench:end -->');
if (start < 0 || end < start) {
  console.error(`${DOC} has no <!-- bench:start --> ... <!-- bench:end --> block`);
  process.exit(1);
}
writeFileSync(DOC, readme.slice(0, start) + block + readme.slice(end + '<!-- bench:end -->'.length));
console.log(`${DOC}: benchmark table from ${file} (${lines.length - 2} rows${missing.length ? `, ${missing.length} not in the run` : ''})`);
