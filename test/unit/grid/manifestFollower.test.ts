// The grid's view of a growing manifest (src/core/grid/manifestFollower.ts) on a real file: each read parses only
// what was appended, the last line of a job wins, a line still being written waits for its newline, a multi-byte
// character cut between two writes is read whole.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestFollower } from '../../../src/core/grid/manifestFollower';

const header = { type: 'batch', version: 1, batchId: 'b', endpointId: 'e', service: 'http://x', createdAt: '2026-01-01T00:00:00Z', jobs: 2 };
const row = (index: number, phase: string, extra: object = {}) => ({ type: 'job', index, ref: { file: 'f', sweep: { prompt: 'café' } }, digest: 'd', phase, at: 1, ...extra });

describe('manifest follower', () => {
  test('reads what was appended since, the last row of a job winning; a torn line waits', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'follow-')), 'batch.jsonl');
    writeFileSync(file, [header, row(0, 'pending'), row(1, 'pending')].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const f = new ManifestFollower(file);
    assert.deepEqual((await f.read()).map((r) => r.index), [0, 1]);
    assert.equal(f.header?.batchId, 'b');
    assert.deepEqual(await f.read(), [], 'nothing new');
    const line = JSON.stringify(row(1, 'ended', { status: 'COMPLETED' }));
    const cut = Buffer.from(line + '\n').indexOf(Buffer.from('é')) + 1;
    const bytes = Buffer.from(line + '\n');
    appendFileSync(file, bytes.subarray(0, cut));
    assert.deepEqual(await f.read(), [], 'half a line is not a row');
    appendFileSync(file, bytes.subarray(cut));
    appendFileSync(file, JSON.stringify({ type: 'event', at: 2, event: 'finished' }) + '\n');
    const changed = await f.read();
    assert.deepEqual(changed.map((r) => [r.index, r.status, r.ref.sweep]), [[1, 'COMPLETED', { prompt: 'café' }]]);
    assert.equal(f.rows.get(0)?.phase, 'pending');
    assert.equal(f.finished, true);
  });
});
