// The emulator's clock (src/emulator/clock.ts). A clock frozen from the start must stand at its start to the
// millisecond: the scaler looks at whole seconds, and the scaling suite's expected seconds count from there.
// It once froze in a second step, reading the real clock twice; a millisecond ticking between the two reads
// (about 1 in 10,000 here) failed that suite in CI. Many constructions make that window show.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EmulatorClock } from '../../../src/emulator/clock';

describe('the emulator clock', () => {
  test('frozen from the start, it stands at its start exactly, every time (200,000 clocks)', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    let off = 0;
    for (let i = 0; i < 200_000; i++) if (new EmulatorClock(start, true).now() !== start.getTime()) off++;
    assert.equal(off, 0, `${off} clocks were not at their start`);
  });

  test('frozen, it moves only when moved, and ticks on from there once let go', async () => {
    const clock = new EmulatorClock(new Date('2026-01-01T00:00:00Z'), true);
    const at = clock.now();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(clock.now(), at);
    clock.advance(1500);
    assert.equal(clock.now(), at + 1500);
    clock.freeze(false);
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(clock.now() >= at + 1500 + 15, `${clock.now() - at} ms`);
  });
});
