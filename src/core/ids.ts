// Endpoint and job ids as path segments (issue 12). An id goes into the URL path of a request that carries
// the API key (SPEC 4.2-4.4), and the URL parser normalises dot segments: `POST /v2/../run` is sent as
// `POST /run`. So an id is checked where it enters (the picker, the per-file memory, history records, resumed
// jobs) and again, always, where a route is built: a refused id never reaches fetch, and says why.
import { InvalidIdError } from './http/errors';

export type IdKind = 'endpoint' | 'job';

const MAX_ID_LENGTH = 200;
// `/` and `\` split segments (the URL parser reads `\` as `/` in http URLs), `?` and `#` end the path, `%`
// would let a server that decodes before normalising see `%2e%2e` as `..`, whitespace and control characters
// are never part of a real id and hide what is sent.
const FORBIDDEN = /[/\\?#%\s\u0000-\u001f\u007f]/;

/** Why `id` cannot be an endpoint / job id in a URL path, or undefined when it can. */
export function checkId(id: unknown, kind: IdKind): string | undefined {
  const what = kind === 'endpoint' ? 'An endpoint id' : 'A job id';
  if (typeof id !== 'string' || id.length === 0) return `${what} cannot be empty`;
  if (id.length > MAX_ID_LENGTH) return `${what} is at most ${MAX_ID_LENGTH} characters`;
  if (id === '.' || id === '..') return `${what} cannot be "${id}": the URL parser would turn it into a different route`;
  if (FORBIDDEN.test(id)) return `${what} has no spaces, slashes, backslashes, "?", "#", "%" or control characters`;
  return undefined;
}

export function isValidId(id: unknown, kind: IdKind): id is string {
  return checkId(id, kind) === undefined;
}

/** `id`, checked and percent-encoded as one path segment; throws InvalidIdError (with the reason) otherwise. */
export function pathSegment(id: string, kind: IdKind): string {
  const problem = checkId(id, kind);
  if (problem !== undefined) throw new InvalidIdError(kind, id, problem);
  return encodeURIComponent(id);
}
