// Issue 30: slots set off together take their steps one per turn of the event loop (loopTurns.ts), so a batch's
// start (64 slots) no longer holds the extension host in one task while every /run goes through the editor's proxy
// support. Counted in turns of the loop, not in milliseconds, so that a loaded machine cannot make it pass or fail.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LoopTurns } from '../../../src/core/batch/loopTurns';
import type { ServiceClient } from '../../../src/core/service';
import { inputs, startRig } from './batchHarness';

/** A count of the event loop's turns: it moves once per turn (an immediate that sets the next). */
function countTurns(): { readonly now: number; stop(): void } {
  let turn = 0;
  let stopped = false;
  const tick = (): void => {
    turn++;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get now() {
      return turn;
    },
    stop: () => void (stopped = true),
  };
}

describe('LoopTurns', () => {
  test('callers asking at once resolve in turns of their own, in the order they asked', async () => {
    const turns = countTurns();
    const lane = new LoopTurns();
    const seen: number[] = [];
    await Promise.all(Array.from({ length: 5 }, () => lane.next().then(() => seen.push(turns.now))));
    turns.stop();
    assert.equal(new Set(seen).size, 5, `five turns, not fewer: ${seen.join(' ')}`);
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
  });
});

describe('a batch setting off its slots together', async () => {
  const rig = await startRig();

  test('sends each slot\'s first /run in a turn of the loop of its own (over real HTTP, the emulator)', async () => {
    const turns = countTurns();
    const at: number[] = [];
    // The rig's own client, each /run's call noted with the loop's turn it was made in.
    const client: ServiceClient = Object.create(rig.client, {
      run: { value: (...args: Parameters<ServiceClient['run']>) => (at.push(turns.now), rig.client.run(...args)) },
    }) as ServiceClient;
    const { runner } = await rig.runner('img', inputs(12), { client, concurrency: 12 });
    await runner.start();
    turns.stop();
    assert.deepEqual(runner.rowList().map((r) => r.status), Array(12).fill('COMPLETED'));
    assert.equal(at.length, 12);
    // Before loopTurns.ts all twelve were made in one turn (one task of the extension host).
    assert.equal(new Set(at).size, 12, `twelve /run calls in twelve turns: ${at.join(' ')}`);
  });
});
