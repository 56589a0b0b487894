// The forms' checks and words without the editor: every invalid value named with its field and range, the
// diff in the words, and what a change means in money from a catalog.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkValues, NEW_ENDPOINT_DEFAULTS, settingsOfForm, type FormValues } from '../../../src/endpointForms/settingRanges';
import { changeText } from '../../../src/endpointForms/changeText';
import type { EndpointSettings } from '../../../src/core/serverless/endpointEdit';
import type { GpuType } from '../../../src/core/serverless/resourceSchemas';

const values: FormValues = { ...NEW_ENDPOINT_DEFAULTS, gpuPools: ['ADA_24'], image: 'org/img:1' };
const gpu = (pool: string, serverless: number): GpuType => ({
  id: `${pool}-gpu`, name: pool, pool, manufacturer: 'NVIDIA', memory: 24, secure: true, community: false,
  price: { secure: serverless, community: serverless, serverless }, maxCount: { secure: 8, community: 0 },
});
const catalog = [gpu('ADA_24', 1.116), gpu('AMPERE_80', 2.736)];
const settings = (over: Partial<EndpointSettings> = {}): EndpointSettings => ({
  name: 'e', workersMin: 0, workersMax: 3, idleTimeout: 60, scalerType: 'QUEUE_DELAY', scalerValue: 4, timeout: 600_000,
  gpuPools: ['ADA_24'], gpuExcludedTypes: [], gpuCount: 1, flashboot: 'OFF', image: 'org/img:1', env: {}, ...over,
});

describe('the forms\' checks', () => {
  test('the defaults pass; each value out of range is named with its field and its range', () => {
    assert.deepEqual(checkValues(values, ['ADA_24']), []);
    const errors = (v: Partial<FormValues>) => checkValues({ ...values, ...v }, ['ADA_24']).map((e) => e.message);
    assert.deepEqual(errors({ idleTimeout: 0 }), ['idle timeout: 0 is not allowed (whole seconds, 1 to 3600)']);
    assert.deepEqual(errors({ idleTimeout: 3601 }), ['idle timeout: 3601 is not allowed (whole seconds, 1 to 3600)']);
    assert.deepEqual(errors({ workersMin: 4 }).length, 2, 'min above max: both named');
    assert.deepEqual(errors({ scalerValue: 0.4 }), ['scaler value: 0.4 is not allowed (seconds of queue wait, at least 0.5)']);
    assert.deepEqual(errors({ scalerType: 'REQUEST_COUNT', scalerValue: 1.5 }), ['scaler value: 1.5 is not allowed (requests per worker, whole number, at least 1)']);
    assert.deepEqual(errors({ scalerType: 'REQUEST_COUNT', scalerValue: 2, idleTimeout: undefined }), [], 'no idle timeout with REQUEST_COUNT');
    assert.deepEqual(errors({ workersMax: Number.NaN }).some((m) => m.startsWith('workers max: missing')), true);
    assert.deepEqual(errors({ gpuPools: [] }), ['GPU pools: [] is not allowed (one or more pools of the GPU catalog)']);
    assert.deepEqual(errors({ gpuCount: 0 }), ['GPUs per worker: 0 is not allowed (whole number, at least 1)']);
    assert.deepEqual(errors({ image: 'has space' }).length, 1);
  });

  test('the form\'s values are the service\'s settings (execution timeout in ms; no idle timeout with REQUEST_COUNT)', () => {
    assert.equal(settingsOfForm(values).timeout, 300_000);
    assert.equal('idleTimeout' in settingsOfForm({ ...values, scalerType: 'REQUEST_COUNT', scalerValue: 2 }), false);
  });
});

describe('the words of a change', () => {
  test('the diff in the issue\'s words, and a raise of always-on spend in dollars a day', () => {
    const t = changeText(settings(), settings({ workersMax: 5, idleTimeout: 5, workersMin: 1 }), catalog);
    assert.deepEqual(t.diff, ['workers.min 0 → 1', 'workers.max 3 → 5', 'idleTimeout 60 s → 5 s']);
    assert.equal(t.raisesAlwaysOn, true);
    assert.equal(t.money[0], `Always on: $0.00 a day → $26.78 a day (workers min 1 × $1.12/h × 24 h), billed even with no job`);
    assert.ok(t.money.includes('Pool ADA_24: $1.12 per GPU per hour'));
  });

  test('a pool change says both prices; a lower always-on spend is no raise; no catalog: prices unknown', () => {
    const t = changeText(settings({ workersMin: 2 }), settings({ workersMin: 1, gpuPools: ['AMPERE_80'] }), catalog);
    assert.equal(t.raisesAlwaysOn, true, '1 x AMPERE_80 costs more than 2 x ADA_24');
    assert.ok(t.money.some((l) => l === 'A busy worker: $1.12/h → $2.74/h'));
    assert.equal(changeText(settings({ workersMin: 2 }), settings({ workersMin: 1 }), catalog).raisesAlwaysOn, false);
    assert.deepEqual(changeText(settings(), settings({ workersMax: 4 }), undefined).money, ['Prices unknown: the GPU catalog could not be read.']);
  });
});
