// The batch's life (src/core/batch/batchLife.ts, issue 27): every transition from every state, taken or refused,
// and what each state lets the views show.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchLife, type BatchStateKind } from '../../../src/core/batch/batchLife';

type Event = 'start' | 'wait' | 'waited' | 'pauseUser' | 'pauseGuard' | 'resume' | 'cancel' | 'idle' | 'retryFailed' | 'resendUnknown';
const EVENTS: Event[] = ['start', 'wait', 'waited', 'pauseUser', 'pauseGuard', 'resume', 'cancel', 'idle', 'retryFailed', 'resendUnknown'];

function fire(life: BatchLife, e: Event): boolean {
  switch (e) {
    case 'start': return life.start();
    case 'wait': return life.wait('rateLimited', 10, 'The service asked to wait (429).');
    case 'waited': return life.waited();
    case 'pauseUser': return life.pause('user', 'Paused from the Batch panel.');
    case 'pauseGuard': return life.pause('failures', '5 jobs failed in a row');
    case 'resume': return life.resume();
    case 'cancel': return life.cancel();
    case 'idle': return life.idle();
    case 'retryFailed': return life.rerun('retryFailed');
    case 'resendUnknown': return life.rerun('resendUnknown');
  }
}

/** How to reach each state from a new life. */
const PATHS: Record<BatchStateKind, Event[]> = {
  ready: [],
  sending: ['start'],
  waiting: ['start', 'wait'],
  paused: ['start', 'pauseGuard'],
  cancelling: ['start', 'cancel'],
  cancelled: ['start', 'cancel', 'idle'],
  finished: ['start', 'idle'],
};

/** The whole table: from each state, where each event leads (undefined: refused, nothing changes). */
const TABLE: Record<BatchStateKind, Partial<Record<Event, BatchStateKind>>> = {
  ready: { start: 'sending' },
  sending: { wait: 'waiting', pauseUser: 'paused', pauseGuard: 'paused', cancel: 'cancelling', idle: 'finished' },
  waiting: { wait: 'waiting', waited: 'sending', pauseUser: 'paused', pauseGuard: 'paused', cancel: 'cancelling', idle: 'finished' },
  // A pause after the last job was sent: when that job ends, the batch has finished (it stayed Paused for ever).
  paused: { resume: 'sending', cancel: 'cancelling', idle: 'finished' },
  cancelling: { idle: 'cancelled' },
  cancelled: { retryFailed: 'sending', resendUnknown: 'sending' },
  finished: { retryFailed: 'sending', resendUnknown: 'sending' },
};

function lifeIn(state: BatchStateKind): BatchLife {
  const life = new BatchLife();
  for (const e of PATHS[state]) assert.ok(fire(life, e), `${e} on the way to ${state}`);
  assert.equal(life.state.kind, state);
  return life;
}

describe('the life of a batch', () => {
  for (const from of Object.keys(TABLE) as BatchStateKind[]) {
    for (const e of EVENTS) {
      const to = TABLE[from][e];
      test(`${from} --${e}--> ${to ?? 'refused'}`, () => {
        const life = lifeIn(from);
        const changes: BatchStateKind[] = [];
        life.onChange((s) => changes.push(s.kind));
        const before = life.state;
        assert.equal(fire(life, e), to !== undefined);
        if (to === undefined) {
          assert.equal(life.state, before, 'a refused transition changes nothing');
          assert.deepEqual(changes, [], 'and tells nobody');
        } else {
          assert.equal(life.state.kind, to);
          assert.deepEqual(changes, [to]);
        }
      });
    }
  }

  test('what each state lets the views offer', () => {
    const offers = (s: BatchStateKind): string => {
      const l = lifeIn(s);
      return [l.canPause && 'pause', l.canResume && 'resume', l.canCancel && 'cancel', l.canRetryFailed(1) && 'retry', l.active && 'active', l.closed && 'closed'].filter(Boolean).join(' ');
    };
    assert.equal(offers('ready'), '');
    assert.equal(offers('sending'), 'pause cancel active');
    assert.equal(offers('waiting'), 'pause cancel active');
    assert.equal(offers('paused'), 'resume cancel active');
    assert.equal(offers('cancelling'), 'active closed');
    assert.equal(offers('cancelled'), 'retry closed', 'a cancelled batch: no Resume, but Retry Failed');
    assert.equal(offers('finished'), 'retry');
    assert.equal(lifeIn('finished').canRetryFailed(0), false, 'nothing failed: nothing to retry');
  });

  test('a cancelled batch says Cancelled, never Paused; the first pause\'s reason stays until a resume', () => {
    const life = lifeIn('sending');
    life.pause('spend', 'the next job would take the batch past its spend limit of $0.01.');
    assert.equal(life.pause('failures', '5 jobs failed in a row'), false);
    assert.match(life.words, /^Paused: the next job would take/);
    life.cancel();
    life.idle();
    assert.equal(life.words, 'Cancelled');
    assert.equal(life.paused, undefined);
  });

  test('a guard\'s question applies only while its very pause is on', () => {
    const life = lifeIn('sending');
    life.pause('failures', 'x');
    const s = life.state;
    assert.ok(s.kind === 'paused');
    assert.equal(life.mayAsk(s.id), true);
    life.resume();
    assert.equal(life.mayAsk(s.id), false, 'resumed: the question is stale');
    life.pause('failures', 'y');
    assert.equal(life.mayAsk(s.id), false, 'a later pause is another question');
    life.cancel();
    assert.equal(life.mayAsk(s.id + 1), false, 'cancelled: no question');
    const user = lifeIn('sending');
    user.pause('user', 'Paused from the Batch panel.');
    assert.equal(user.state.kind === 'paused' && user.mayAsk(user.state.id), false, 'the user\'s own pause asks nothing');
    const error = lifeIn('sending');
    error.pause('error', 'The batch stopped: ENOSPC');
    assert.equal(error.state.kind === 'paused' && error.mayAsk(error.state.id), true, 'a failure of this machine asks Resume or Cancel');
  });

  test('a retry run after a cancel is a run of its own, which can be paused and cancelled again', () => {
    const life = lifeIn('cancelled');
    assert.ok(life.rerun('retryFailed'));
    assert.equal(life.words, 'Retrying the failed jobs');
    assert.ok(life.pause('user', 'p'));
    assert.ok(life.state.kind === 'paused' && life.state.run === 'retryFailed');
    assert.ok(life.resume());
    assert.ok(life.idle());
    assert.equal(life.state.kind, 'finished');
  });
});
