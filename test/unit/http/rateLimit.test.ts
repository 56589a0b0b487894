import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { exhaustedWindow, mergeRateLimits, parseRateLimitHeaders, parseRetryAfterMs, rateLimitWaitMs } from '../../../src/core/http/rateLimit';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const h = (init: Record<string, string>) => new Headers(init);

describe('parseRateLimitHeaders', () => {
  test('reads r and t of every window, and q and w of the policy', () => {
    const s = parseRateLimitHeaders(h({
      RateLimit: 'minute;r=5;t=30, hour;r=100;t=1800, day;r=0;t=40000',
      'RateLimit-Policy': 'minute;q=60;w=60, hour;q=1000;w=3600, day;q=10000;w=86400',
    }), T0);
    assert.deepEqual(s.minute, { window: 'minute', remaining: 5, resetAt: T0 + 30_000, quota: 60, windowSeconds: 60 });
    assert.deepEqual(s.hour, { window: 'hour', remaining: 100, resetAt: T0 + 1_800_000, quota: 1000, windowSeconds: 3600 });
    assert.equal(s.day?.remaining, 0);
    assert.equal(s.day?.resetAt, T0 + 40_000_000);
  });

  test('accepts quoted window names and ignores unknown windows and inner lists', () => {
    const s = parseRateLimitHeaders(h({ RateLimit: '"minute";r=1;t=2, second;r=1;t=1, (a b);r=1;t=1' }), T0);
    assert.deepEqual(Object.keys(s), ['minute']);
  });

  test('a malformed header is ignored, never fatal', () => {
    for (const bad of ['minute;r=5;t=', 'minute;r="x";t=3', '((', 'minute;r=-1;t=3', 'minute;r=1.5;t=3', 'minute;t=3', ';;;']) {
      assert.deepEqual(parseRateLimitHeaders(h({ RateLimit: bad }), T0), {}, bad);
    }
    assert.deepEqual(parseRateLimitHeaders(h({ RateLimit: 'minute;r=1;t=3', 'RateLimit-Policy': '{{{' }), T0).minute,
      { window: 'minute', remaining: 1, resetAt: T0 + 3000 });
  });

  test('no headers give an empty snapshot', () => {
    assert.deepEqual(parseRateLimitHeaders(h({}), T0), {});
  });
});

describe('rateLimitWaitMs', () => {
  test('is 0 while every window has requests left', () => {
    const s = parseRateLimitHeaders(h({ RateLimit: 'minute;r=1;t=30, hour;r=9;t=100' }), T0);
    assert.equal(rateLimitWaitMs(s, T0), 0);
  });

  test('waits out the latest reset among exhausted windows', () => {
    const s = parseRateLimitHeaders(h({ RateLimit: 'minute;r=0;t=30, hour;r=0;t=100, day;r=5;t=1000' }), T0);
    assert.equal(rateLimitWaitMs(s, T0 + 10_000), 90_000);
    assert.equal(exhaustedWindow(s, T0 + 10_000), 'hour');
  });

  test('an exhausted window whose reset has passed no longer holds requests', () => {
    const s = parseRateLimitHeaders(h({ RateLimit: 'minute;r=0;t=30' }), T0);
    assert.equal(rateLimitWaitMs(s, T0 + 30_000), 0);
    assert.equal(exhaustedWindow(s, T0 + 30_000), undefined);
  });
});

describe('mergeRateLimits', () => {
  test('reported windows replace, unreported ones stay until their reset', () => {
    const before = parseRateLimitHeaders(h({ RateLimit: 'minute;r=0;t=30, hour;r=5;t=10' }), T0);
    const latest = parseRateLimitHeaders(h({ RateLimit: 'minute;r=9;t=60' }), T0 + 20_000);
    const merged = mergeRateLimits(before, latest, T0 + 20_000);
    assert.equal(merged.minute?.remaining, 9);
    assert.equal(merged.hour, undefined, 'the hour window reset at T0+10s');
    assert.equal(mergeRateLimits(before, {}, T0 + 5_000).hour?.remaining, 5);
  });
});

describe('parseRetryAfterMs', () => {
  test('reads delay-seconds and HTTP-dates, ignores garbage', () => {
    assert.equal(parseRetryAfterMs('3', T0), 3000);
    assert.equal(parseRetryAfterMs(' 0 ', T0), 0);
    assert.equal(parseRetryAfterMs(new Date(T0 + 5000).toUTCString(), T0), 5000);
    assert.equal(parseRetryAfterMs(new Date(T0 - 5000).toUTCString(), T0), 0);
    assert.equal(parseRetryAfterMs(null, T0), undefined);
    assert.equal(parseRetryAfterMs('soon', T0), undefined);
    assert.equal(parseRetryAfterMs('-3', T0), undefined);
    assert.equal(parseRetryAfterMs('1.5', T0), undefined);
  });
});
