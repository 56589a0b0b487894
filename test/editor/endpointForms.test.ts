// Edit Endpoint…, New Endpoint…, New Template…, Delete Endpoint (issue 28, Editor, "Done when") in the real
// editor against an emulator started in this process: the form typed into, each setting edited and read back,
// a change made elsewhere seen before applying, always-on spend growing in the view, workers max lowered under
// load, an image change's rollout in the view, create from an image and from a template, run a job, delete,
// and keys without write access refused on every write with nothing changed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Confirm } from '../../src/endpoints/endpointCommands';
import { modalConfirm } from '../../src/endpoints/endpointCommands';
import { startEmulator, type EmulatorConfigInput, type RunningEmulator } from '../../src/emulator/index';
import type { SidebarTestApi } from '../../src/extension';
import type { JobRunnerApi } from '../../src/jobs/registerJobs';
import type { EditEndpointPanel } from '../../src/endpointForms/editEndpointPanel';
import type { ChangeOutcome } from '../../src/endpointForms/endpointChange';
import type { DeleteOutcome } from '../../src/endpointForms/endpointLifecycle';
import { FormCommands } from '../../src/endpointForms/registerEndpointForms';
import { formValuesOf, type FormValues } from '../../src/endpointForms/settingRanges';
import { settingsOf } from '../../src/core/serverless/endpointEdit';
import { answerQuickInput, click, pickQuickPickItem, press, property, quickPickItem, screenshot, textContent, typeText, waitForSelector } from './support/driver';
import { activateExtension, eventually } from './support/extension';
import { jobWaits } from './support/jobWaits';
import { resetSidebar, useTestProfile } from './sidebarFixtures';

const FULL = 'k-forms-full';
const READ_ONLY = 'k-forms-read';
const JOBS_ONLY = 'k-forms-jobs';
const PROFILE = 'Endpoint forms test';

function formsConfig(): EmulatorConfigInput {
  const clocked = { kind: 'echo' as const, queueMs: 0, executionMs: 600_000, executionTimeoutMs: 3_600_000, idleTimeoutMs: 60_000 };
  return {
    // The view refreshes often here: no test of this suite is about rate limits.
    rateLimits: { minute: 100_000, hour: 1_000_000, day: 10_000_000 },
    users: [{
      id: 'forms',
      keys: [
        { key: FULL, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read', 'endpoints:write'] },
        { key: READ_ONLY, scopes: ['billing:read', 'endpoints:read'] },
        { key: JOBS_ONLY, scopes: ['jobs:run', 'jobs:read'] },
      ],
      endpoints: [
        // QUEUE_DELAY 4 s, as the REST record showed before issue 29: a config endpoint now shows the engine's own
        // scaler (default REQUEST_COUNT, on which the form leaves the idle timeout out), and these steps edit it.
        { id: 'ef-edit', name: 'Edit me', ...clocked, workersMax: 3, gpuPools: ['ADA_24'], scalerType: 'QUEUE_DELAY', scalerValue: 4 },
        // Pools in the user's order, not the catalog's (the catalog lists AMPERE_48 before ADA_48_PRO).
        { id: 'ef-pools', name: 'Two pools', ...clocked, workersMax: 3, gpuPools: ['ADA_48_PRO', 'AMPERE_48'], scalerType: 'QUEUE_DELAY', scalerValue: 4 },
        { id: 'ef-min', name: 'Always on', ...clocked, workersMax: 3 },
        { id: 'ef-max', name: 'Under load', ...clocked, workersMax: 3 },
        { id: 'ef-roll', name: 'Rolling', ...clocked, workersMin: 2, workersMax: 2 },
        { id: 'ef-refused', name: 'Not yours to change', ...clocked },
        // Real-time jobs: the worker's logs are followed while it runs.
        { id: 'ef-logs', name: 'Logs', kind: 'echo', queueMs: 0, executionMs: 6000, workersMax: 1 },
      ],
    }],
  };
}

interface Asked { message: string; detail: string; action: string }

suite('endpoint forms: edit, create, delete against the emulator', () => {
  let api: SidebarTestApi;
  let jobs: JobRunnerApi;
  let channelLines: () => readonly string[];
  let emulator: RunningEmulator;
  const asked: Asked[] = [];
  let answer = true;
  const recorder: Confirm = async (message, detail, action) => {
    asked.push({ message, detail, action });
    return answer;
  };
  const waits = jobWaits(() => jobs);

  async function call(method: string, path: string, body?: unknown, key = FULL): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await fetch(`${emulator.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  }
  const endpoint = async (id: string) => (await call('GET', `/v2/serverless/${id}`)).json;
  const advance = async (ms: number): Promise<void> => assert.equal((await call('POST', '/__admin/clock', { advanceMs: ms })).status, 200, 'the admin clock moved');

  async function openForm(id: string): Promise<EditEndpointPanel> {
    const form = (await vscode.commands.executeCommand(FormCommands.editEndpoint, id)) as EditEndpointPanel | undefined;
    assert.ok(form, `the form of ${id} opened`);
    await waitForSelector('input[name="workersMax"]', { inWebview: true });
    return form;
  }

  async function submit(form: EditEndpointPanel, change: Partial<FormValues>): Promise<ChangeOutcome> {
    const current = formValuesOf(settingsOf(await endpoint(form.endpointId)));
    return form.submit({ ...current, ...change });
  }

  suiteSetup(async () => {
    const exported = (await activateExtension()).exports as { sidebar: SidebarTestApi; jobs: JobRunnerApi; localWorker: { logs: { shown: string[] } } };
    api = exported.sidebar;
    jobs = exported.jobs;
    channelLines = () => exported.localWorker.logs.shown;
    assert.ok(api?.endpoints && api.endpointForms && jobs, 'test hooks are returned in test mode');
    emulator = await startEmulator({ host: '127.0.0.1', port: 0, admin: true, config: formsConfig() });
    jobs.useClientSource(undefined);
    await useTestProfile(api, emulator.url, PROFILE);
    await vscode.commands.executeCommand('workbench.view.extension.serverlessGpu');
    await api.connection.setApiKey(FULL);
    await eventually(() => api.endpoints!.tree.current.kind === 'loaded' || undefined, 'the tree to load');
    api.endpoints!.confirm = recorder;
  });

  setup(() => {
    asked.length = 0;
    answer = true;
  });

  suiteTeardown(async () => {
    if (api?.endpoints) api.endpoints.confirm = modalConfirm;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSidebar(api);
    await emulator?.close();
  });

  test('activation does not load the forms\' room; Edit Endpoint… does', async () => {
    assert.equal(api.endpointForms!.loaded(), false, 'no form code runs before a form is asked for');
    await openForm('ef-edit');
    assert.equal(api.endpointForms!.loaded(), true);
  });

  test('the form shows current values and ranges; a value typed shows its diff and money, Apply asks and the read-back says what changed', async () => {
    const form = await openForm('ef-edit');
    assert.equal(await textContent('[data-range="idleTimeout"]', { inWebview: true }), 'whole seconds, 1 to 3600');
    // The catalog's $1.116 an hour in the one formatter's digits, as the confirmation writes it.
    assert.match(await textContent('#pools', { inWebview: true }), /ADA_24 · \$1\.12\/h/);
    await click('input[name="workersMax"]', { inWebview: true });
    await press('Control+A');
    await typeText('5');
    await waitForSelector('#diff li:has-text("workers.max 3 → 5")', { inWebview: true });
    await click('input[name="idleTimeout"]', { inWebview: true });
    await press('Control+A');
    await typeText('5');
    await waitForSelector('#diff li:has-text("idleTimeout 60 s → 5 s")', { inWebview: true });
    await screenshot('endpoint-edit-form', { docs: true });
    const applied = new Promise<ChangeOutcome>((r) => form.onDidApply(r));
    await click('#apply', { inWebview: true });
    const outcome = await applied;
    assert.equal(outcome.kind, 'applied', JSON.stringify(outcome));
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.detail, /workers\.max 3 → 5/);
    assert.match(asked[0]!.detail, /idleTimeout 60 s → 5 s/);
    assert.match(asked[0]!.detail, /Pool ADA_24: \$1\.12 per GPU per hour/);
    const after = await endpoint('ef-edit');
    assert.equal(after.workers.max, 5);
    assert.equal(after.workers.idleTimeout, 5);
    await waitForSelector('#result:has-text("Changed Edit me")', { inWebview: true });
  });

  test('a pool selection left alone is no change: the endpoint\'s pool order (its preference) is kept', async () => {
    const form = await openForm('ef-pools');
    await click('input[name="workersMax"]', { inWebview: true });
    await press('Control+A');
    await typeText('4');
    await waitForSelector('#diff li:has-text("workers.max 3 → 4")', { inWebview: true });
    // The page's checkboxes in the catalog's order must not reorder the endpoint's pools either.
    const shown = formValuesOf(settingsOf(await endpoint('ef-pools')));
    const catalogOrder = form.preview({ ...shown, workersMax: 4, gpuPools: ['AMPERE_48', 'ADA_48_PRO'] });
    assert.deepEqual(catalogOrder.diff, ['workers.max 3 → 4']);
    const applied = new Promise<ChangeOutcome>((r) => form.onDidApply(r));
    await click('#apply', { inWebview: true });
    const outcome = await applied;
    assert.equal(outcome.kind, 'applied', JSON.stringify(outcome));
    assert.equal(asked.length, 1);
    assert.doesNotMatch(asked[0]!.detail, /GPU pools/);
    if (outcome.kind === 'applied') assert.deepEqual(outcome.result.sent, { workers: { max: 4 } }, 'the PATCH holds workers.max alone');
    assert.deepEqual((await endpoint('ef-pools')).gpu.pools, ['ADA_48_PRO', 'AMPERE_48']);
    // A pool added goes after the endpoint's own, whatever order the page lists them in.
    const added = await submit(form, { gpuPools: ['ADA_24', 'AMPERE_48', 'ADA_48_PRO'] });
    assert.equal(added.kind, 'applied', JSON.stringify(added));
    assert.deepEqual((await endpoint('ef-pools')).gpu.pools, ['ADA_48_PRO', 'AMPERE_48', 'ADA_24']);
  });

  test('on REQUEST_COUNT the idle timeout is greyed and empty, said to be the platform\'s own, and never sent', async () => {
    const form = await openForm('ef-max'); // REQUEST_COUNT: the config default
    assert.equal((await endpoint('ef-max')).workers.idleTimeout, undefined, 'the service omits it');
    assert.equal(await property('input[name="idleTimeout"]', 'disabled', { inWebview: true }), true);
    assert.equal(await property('input[name="idleTimeout"]', 'value', { inWebview: true }), '');
    assert.match(await textContent('[data-range="idleTimeout"]', { inWebview: true }), /not a setting on REQUEST_COUNT: idle workers stop after the platform's own 5 s/);
    const shown = formValuesOf(settingsOf(await endpoint('ef-max')));
    assert.deepEqual(form.preview({ ...shown, workersMax: 4 }).diff, ['workers.max 3 → 4']);
  });

  test('each setting edited is read back, and only it changes', async () => {
    const form = await openForm('ef-edit');
    const steps: Array<[Partial<FormValues>, (e: any) => unknown, unknown]> = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      [{ workersMin: 1 }, (e) => e.workers.min, 1],
      [{ workersMax: 4 }, (e) => e.workers.max, 4],
      [{ idleTimeout: 120 }, (e) => e.workers.idleTimeout, 120],
      [{ scalerValue: 2.5 }, (e) => e.scaling.queueDelay, 2.5],
      [{ scalerType: 'REQUEST_COUNT', scalerValue: 3 }, (e) => `${e.scaling.type} ${e.scaling.requestCount}`, 'REQUEST_COUNT 3'],
      [{ scalerType: 'QUEUE_DELAY', scalerValue: 4, idleTimeout: 30 }, (e) => `${e.scaling.type} ${e.scaling.queueDelay} ${e.workers.idleTimeout}`, 'QUEUE_DELAY 4 30'],
      [{ timeoutSeconds: 900 }, (e) => e.timeout, 900_000],
      [{ gpuPools: ['ADA_24', 'AMPERE_48'] }, (e) => e.gpu.pools.join(','), 'ADA_24,AMPERE_48'],
      [{ gpuCount: 2 }, (e) => e.gpu.count, 2],
      [{ flashboot: 'FLASHBOOT' }, (e) => e.flashboot, 'FLASHBOOT'],
      [{ workersMin: 0 }, (e) => e.workers.min, 0],
    ];
    for (const [change, read, expected] of steps) {
      const before = await endpoint('ef-edit');
      const outcome = await submit(form, change);
      assert.equal(outcome.kind, 'applied', `${JSON.stringify(change)}: ${JSON.stringify(outcome)}`);
      const after = await endpoint('ef-edit');
      assert.deepEqual(read(after), expected, JSON.stringify(change));
      if (outcome.kind === 'applied') {
        assert.ok(outcome.result.changed.length >= 1, 'the read-back names the change');
        const untouched = ['name', 'image', 'dataCenterIds', 'networkVolumes'].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
        assert.deepEqual(untouched, [], 'nothing else moved');
      }
    }
    const raising = asked.find((a) => /raises what Edit me \(ef-edit\) costs even with no job/.test(a.message));
    assert.ok(raising, 'raising workers min asked as a raise of always-on spend');
    assert.match(raising.detail, /Always on: \$0\.00 a day → \$[\d.]+ a day/);
  });

  test('invalid values are refused before sending, naming the field and its range', async () => {
    const form = await openForm('ef-edit');
    const before = await endpoint('ef-edit');
    for (const [change, words] of [
      [{ idleTimeout: 4000 }, /idle timeout: 4000 is not allowed \(whole seconds, 1 to 3600\)/],
      [{ workersMin: 9, workersMax: 2 }, /workers min: 9 is not allowed/],
      [{ scalerValue: 0.2 }, /scaler value: 0\.2 is not allowed \(seconds of queue wait, at least 0\.5\)/],
      [{ gpuPools: ['NO_SUCH_POOL'] }, /GPU pools: \["NO_SUCH_POOL"\] is not allowed/],
      [{ gpuCount: 0 }, /GPUs per worker: 0 is not allowed/],
    ] as const) {
      const outcome = await submit(form, change as Partial<FormValues>);
      assert.equal(outcome.kind, 'invalid');
      if (outcome.kind === 'invalid') assert.match(outcome.errors.join('\n'), words);
    }
    assert.equal(asked.length, 0, 'nothing asked');
    assert.deepEqual(await endpoint('ef-edit'), before, 'nothing sent');
  });

  test('two windows: a change made elsewhere since the form opened is shown before applying, never overwritten', async () => {
    const form = await openForm('ef-edit');
    const shown = formValuesOf(settingsOf(await endpoint('ef-edit')));
    // The other window (another editor, the console) raises max meanwhile.
    assert.equal((await call('PATCH', '/v2/serverless/ef-edit', { workers: { max: 7 } })).status, 200);
    const outcome = await form.submit({ ...shown, idleTimeout: 42 });
    assert.equal(outcome.kind, 'conflict');
    assert.match(outcome.kind === 'conflict' ? outcome.message : '', /workers\.max \d+ → 7/);
    const after = await endpoint('ef-edit');
    assert.equal(after.workers.max, 7, 'the other change stands');
    assert.notEqual(after.workers.idleTimeout, 42, 'nothing was sent');
    await waitForSelector('#notice:has-text("changed elsewhere")', { inWebview: true });
    assert.equal(await property('input[name="workersMax"]', 'value', { inWebview: true }), '7', 'the form now shows the new value');
    const again = await form.submit({ ...formValuesOf(settingsOf(after)), idleTimeout: 42 });
    assert.equal(again.kind, 'applied');
    assert.equal((await endpoint('ef-edit')).workers.max, 7);
  });

  test('workers min raised: the workers start and the billing grows while they run', async () => {
    const form = await openForm('ef-min');
    const billed = async (): Promise<number> => {
      await api.endpoints!.tree.refresh();
      return api.endpoints!.tree.loaded?.model.endpoints.find((e) => e.id === 'ef-min')?.amounts.total ?? 0;
    };
    const before = await billed();
    const outcome = await submit(form, { workersMin: 2 });
    assert.equal(outcome.kind, 'applied');
    assert.match(asked[0]!.message, /raises what/);
    assert.equal((await call('GET', '/v2/serverless/ef-min/workers')).json.summary.total, 2);
    await advance(3_600_000);
    const grown = await eventually(async () => {
      const b = await billed();
      if (b > before + 0.5) return b;
      await new Promise((r) => setTimeout(r, 1000));
      return undefined;
    }, 'the always-on hour in the view', 60_000);
    assert.ok(grown > before, `billed ${before} → ${grown}`);
    assert.equal((await submit(form, { workersMin: 0 })).kind, 'applied');
  });

  test('workers max lowered under load: running jobs go on, no new worker above it', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await call('POST', '/v2/ef-max/run', { input: { i } })).status, 200);
    await eventually(async () => (await call('GET', '/v2/serverless/ef-max/workers')).json.summary.running === 3 || undefined, 'three busy workers');
    const form = await openForm('ef-max');
    assert.equal((await submit(form, { workersMax: 1 })).kind, 'applied');
    for (let i = 0; i < 3; i++) assert.equal((await call('POST', '/v2/ef-max/run', { input: { more: i } })).status, 200);
    assert.equal((await call('GET', '/v2/serverless/ef-max/workers')).json.summary.total, 3, 'the running three go on');
    await advance(600_000);
    for (let i = 0; i < 3; i++) {
      const seen = (await call('GET', '/v2/serverless/ef-max/workers')).json;
      assert.ok(seen.summary.total <= 1, `no worker above the new max: ${JSON.stringify(seen)}; endpoint ${JSON.stringify((await endpoint('ef-max')).workers)}`);
      await advance(600_000);
    }
  });

  test('an image change cuts a release: its rollout shows in the Endpoints view until done', async () => {
    assert.equal((await call('POST', '/v2/ef-roll/run', { input: {} })).status, 200); // one of the two warm workers busy
    const form = await openForm('ef-roll');
    const outcome = await submit(form, { image: 'my-org/worker:2' });
    assert.equal(outcome.kind, 'applied');
    await vscode.commands.executeCommand('serverlessGpu.endpoints.focus');
    const rolling = await eventually(() => { const m = api.endpoints!.view.message; return m && /rolling out: \d of 2 workers on v2/.test(m) ? m : undefined; }, 'the rollout in the view');
    assert.match(rolling, /^Rolling: rolling out: 1 of 2 workers on v2$/);
    await screenshot('endpoint-rollout', { selector: '.part.sidebar', docs: true });
    await advance(600_000);
    await eventually(() => { const m = api.endpoints!.view.message; return m && /v2, every worker on it/.test(m) ? m : undefined; }, 'the rollout done');
  });

  test('create from an image and from a template, run a job on each, delete them with a modal naming the workers', async () => {
    const fromImage = (await vscode.commands.executeCommand(FormCommands.newEndpoint, { name: 'made-from-image', image: 'my-org/echo:1', pools: ['AMPERE_24'] })) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.ok(fromImage?.id, 'created from an image');
    const template = (await vscode.commands.executeCommand(FormCommands.newTemplate, { name: 'echo-template', image: 'my-org/echo:2' })) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.ok(template?.id, 'template created');
    const fromTemplate = (await vscode.commands.executeCommand(FormCommands.newEndpoint, { name: 'made-from-template', templateId: template.id, pools: ['ADA_24'] })) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    assert.ok(fromTemplate?.id, 'created from a template');
    assert.equal((await endpoint(fromTemplate.id)).image, 'my-org/echo:2');
    const created = await endpoint(fromImage.id);
    assert.deepEqual([created.workers.min, created.workers.max, created.workers.idleTimeout, created.scaling.type, created.scaling.queueDelay, created.timeout, created.flashboot],
      [0, 3, 10, 'QUEUE_DELAY', 4, 300_000, 'OFF'], 'the platform\'s defaults');
    await eventually(() => api.endpoints!.tree.loaded?.model.endpoints.some((e) => e.id === fromImage.id) || undefined, 'the new endpoint in the view');
    for (const id of [fromImage.id, fromTemplate.id]) {
      const record = await waits.runFile(`${id}.input.json`, id, { input: { prompt: 'hello' } });
      await advance(600_000);
      const done = await waits.finished(record.key);
      assert.equal(done.status, 'COMPLETED', `${id}: ${JSON.stringify(done)}`);
    }
    // One busy worker on the image endpoint, so the modal has workers to name.
    assert.equal((await call('POST', `/v2/${fromImage.id}/run`, { input: {} })).status, 200);
    answer = false;
    const declined = (await vscode.commands.executeCommand(FormCommands.deleteEndpoint, fromImage.id)) as DeleteOutcome;
    assert.equal(declined.deleted, false);
    assert.match(declined.question!, /^Delete endpoint made-from-image \(.+\)\?$/);
    assert.match(declined.detail!, /1 worker running \(\d busy, \d idle, \d starting\) at \$[\d.]+\/h each: \$[\d.]+ an hour; they stop\./);
    assert.equal((await call('GET', `/v2/serverless/${fromImage.id}`)).status, 200, 'declined: still there');
    answer = true;
    for (const id of [fromImage.id, fromTemplate.id]) {
      const out = (await vscode.commands.executeCommand(FormCommands.deleteEndpoint, id)) as DeleteOutcome;
      assert.equal(out.deleted, true);
      assert.equal((await call('GET', `/v2/serverless/${id}`)).status, 404);
    }
  });

  test('New Endpoint… asks from, name and pools (each with its catalog price) and creates with the platform\'s defaults', async () => {
    const pending = vscode.commands.executeCommand(FormCommands.newEndpoint);
    await pickQuickPickItem('From an image…', { title: 'New Endpoint (1/3): from' });
    await answerQuickInput('my-org/asked:3', { title: 'New Endpoint (1/3): image' });
    await answerQuickInput('asked-endpoint', { title: 'New Endpoint (2/3): name' });
    await waitForSelector('.quick-input-widget:not([style*="display: none"]) .quick-input-title:has-text("New Endpoint (3/3)")');
    await waitForSelector(`${quickPickItem('AMPERE_16')}:has-text("$0.576/h per GPU")`);
    await press('Enter'); // the first pool, picked for you
    const created = (await pending) as { id: string } | undefined;
    assert.ok(created?.id, 'created');
    const e = await endpoint(created.id);
    assert.equal(e.name, 'asked-endpoint');
    assert.equal(e.image, 'my-org/asked:3');
    assert.deepEqual(e.gpu.pools, ['AMPERE_16']);
    assert.deepEqual([e.workers.min, e.workers.max, e.workers.idleTimeout, e.timeout], [0, 3, 10, 300_000]);
    assert.equal((await vscode.commands.executeCommand(FormCommands.deleteEndpoint, created.id) as DeleteOutcome).deleted, true);
  });

  test('keys without write access are refused on every write, said plainly, and nothing changes', async () => {
    const before = await endpoint('ef-refused');
    const templatesBefore = (await call('GET', '/v2/templates')).json.templates.length;
    for (const key of [READ_ONLY, JOBS_ONLY]) {
      await api.connection.setApiKey(key);
      const change = (await api.endpointForms!.applyEndpointChange('ef-refused', { workersMax: 9 })) as ChangeOutcome;
      assert.equal(change.kind, 'refused', `${key}: ${JSON.stringify(change)}`);
      assert.match(change.kind === 'refused' ? change.message : '', /may not change .*no write access to endpoints \(the endpoints:write scope\)\. Nothing was changed\./);
      assert.equal(await vscode.commands.executeCommand(FormCommands.newEndpoint, { name: 'nope', image: 'x/y:1', pools: ['ADA_24'] }), undefined);
      assert.equal(await vscode.commands.executeCommand(FormCommands.newTemplate, { name: 'nope', image: 'x/y:1' }), undefined);
      const del = (await vscode.commands.executeCommand(FormCommands.deleteEndpoint, 'ef-refused')) as DeleteOutcome | undefined;
      assert.ok(!del?.deleted, 'not deleted');
    }
    await api.connection.setApiKey(FULL);
    assert.deepEqual(await endpoint('ef-refused'), before, 'the endpoint unchanged');
    assert.equal((await call('GET', '/v2/templates')).json.templates.length, templatesBefore, 'no template made');
    assert.equal((await call('GET', '/v2/serverless')).json.endpoints.filter((e: { name: string }) => e.name === 'nope').length, 0, 'no endpoint made');
  });

  test('a hosted worker\'s logs follow beside its job: live in its panel and the Worker Logs channel, stopped when it ends', async () => {
    const record = await waits.runFile('ef-logs.input.json', 'ef-logs', { input: { prompt: 'logs' } });
    const jobId = await eventually(() => jobs.history.get(record.key)?.jobId, 'the job id');
    await waits.showPanel(record.key);
    await waitForSelector(`#worker-logs:has-text("job ${jobId} started")`, { inWebview: true, timeoutMs: 20_000 });
    assert.ok(jobs.runner.isRunning(record.key), 'the line arrived while the job runs');
    assert.match(await textContent('.worker-logs h2', { inWebview: true }), /Worker logs \(live\)/);
    assert.ok(channelLines().some((l) => l.includes(`job ${jobId} started`)), 'the Worker Logs channel has it too');
    await screenshot('hosted-worker-logs', { docs: true });
    const done = await waits.finished(record.key);
    assert.equal(done.status, 'COMPLETED');
    await waitForSelector(`#worker-logs:has-text("job ${jobId} done in")`, { inWebview: true });
    await eventually(() => !jobs.workerLogs.isFollowing(record.key) || undefined, 'the follow to stop after the job ended');
    await waitForSelector('.worker-logs h2:text-is("Worker logs")', { inWebview: true });
  });
});
