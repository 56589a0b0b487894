// Turning a non-2xx answer into the typed error the UI explains (SPEC 2.9, 7). The body is read as
// problem+json when it is JSON at all; anything else (an HTML page from a proxy, an empty body) still
// gives the error of its status, with the default message of that kind.
import {
  ForbiddenError, NotFoundError, RateLimitedError, ServerError, UnauthorizedError, ValidationError,
  type ProblemInfo, type ServiceError,
} from './errors';
import { parseRetryAfterMs, rateLimitWaitMs } from './rateLimit';
import type { RateLimitSnapshot } from './rateLimit';

/** When a 429 says nothing about how long to wait, wait this long (and let backoff grow from there). */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 1000;

/** The fields of a problem+json body (SPEC 2.9) that are usable, each checked; {} for any other body. */
export function readProblem(body: string): ProblemInfo {
  const text = body.trim();
  if (!text.startsWith('{')) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof json !== 'object' || json === null) return {};
  const o = json as Record<string, unknown>;
  const problem: ProblemInfo = {};
  if (typeof o['title'] === 'string' && o['title']) problem.title = o['title'];
  if (typeof o['detail'] === 'string' && o['detail']) problem.detail = o['detail'];
  if (Array.isArray(o['errors'])) problem.errors = o['errors'].filter((e): e is string => typeof e === 'string');
  return problem;
}

export interface ErrorResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: string;
  /** Rate-limit state including this response's headers: its exhausted window gives the wait of a 429. */
  rateLimits: RateLimitSnapshot;
  receivedAt: number;
}

/** How long a 429 or 503 asks us to wait: Retry-After (SPEC 8.4), else the exhausted window's reset. */
export function requestedWaitMs(res: ErrorResponse): number | undefined {
  const retryAfter = parseRetryAfterMs(res.headers.get('retry-after'), res.receivedAt);
  if (retryAfter !== undefined) return retryAfter;
  const windowWait = rateLimitWaitMs(res.rateLimits, res.receivedAt);
  return windowWait > 0 ? windowWait : undefined;
}

export function errorFromResponse(res: ErrorResponse): ServiceError {
  const problem = readProblem(res.body);
  switch (res.status) {
    case 401:
      return new UnauthorizedError(problem);
    case 403:
      return new ForbiddenError(problem);
    case 404:
      return new NotFoundError(problem);
    case 429:
      return new RateLimitedError(requestedWaitMs(res) ?? DEFAULT_RATE_LIMIT_WAIT_MS, problem);
    case 400:
    case 413:
    case 422:
      return new ValidationError(res.status, problem);
    default:
      return new ServerError(res.status, problem);
  }
}
