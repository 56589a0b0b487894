// Assertions shared by the conformance files: the error shape of SPEC 2.9 and the parameter naming of issue #3.
import assert from 'node:assert/strict';
import type { Reply } from './harness';

export interface Problem {
  title: string;
  status: number;
  detail: string;
  errors?: string[];
}

/** Every error is application/problem+json {title, status, detail, errors?} with the HTTP status inside. */
export function assertProblem(r: Reply, status: number): Problem {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text.slice(0, 500)}`);
  assert.match(String(r.headers['content-type']), /^application\/problem\+json\b/, `content-type was ${r.headers['content-type']}`);
  const p = r.json as Problem;
  assert.ok(p && typeof p === 'object', `body is not a JSON object: ${r.text.slice(0, 200)}`);
  assert.equal(typeof p.title, 'string');
  assert.ok(p.title.length > 0, 'empty title');
  assert.equal(p.status, status);
  assert.equal(typeof p.detail, 'string');
  assert.ok(p.detail.length > 0, 'empty detail');
  if (p.errors !== undefined) {
    assert.ok(Array.isArray(p.errors) && p.errors.every((e) => typeof e === 'string'), 'errors must be an array of strings');
  }
  return p;
}

/** A 400 whose `errors` names every parameter in `params` (issue #3: "`errors` names each bad parameter"). */
export function assertBadParams(r: Reply, ...params: string[]): Problem {
  const p = assertProblem(r, 400);
  assert.ok(p.errors && p.errors.length > 0, `400 without errors: ${r.text}`);
  for (const name of params) {
    assert.ok(p.errors.some((e) => e.includes(name)), `errors do not name ${name}: ${JSON.stringify(p.errors)}`);
  }
  return p;
}

/** The 401 of RFC 6750: a challenge naming the Bearer scheme, and the problem body. */
export function assertUnauthorized(r: Reply): Problem {
  const p = assertProblem(r, 401);
  const challenge = r.headers['www-authenticate'];
  assert.ok(challenge, '401 without WWW-Authenticate');
  assert.match(String(challenge), /^Bearer\b/);
  return p;
}

export function sameInstant(actual: unknown, expected: string, what = 'instant'): void {
  assert.equal(typeof actual, 'string', `${what} is not a string`);
  assert.equal(new Date(actual as string).toISOString(), new Date(expected).toISOString(), `${what}: ${actual} != ${expected}`);
}
