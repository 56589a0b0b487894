// Typed errors of the core: one class per kind the UI must tell apart (STYLE.md "Wire types").
// The editor layer has one function that turns any of them into words and an action; nothing here knows
// about the editor. Messages never contain the API key.

export type ServiceErrorKind =
  | 'unauthorized' // 401: key missing, malformed, expired or invalid (SPEC 5.3)
  | 'forbidden' // 403: key valid but lacks the scope or the endpoint (SPEC 5.2)
  | 'rateLimited' // 429 (SPEC 8)
  | 'validation' // 400/413/422: the server rejected the request, with its `errors` list
  | 'notFound' // 404: route, endpoint or job unknown (a job past its 30-minute retention, SPEC 8.6)
  | 'server' // 5xx or any other status
  | 'network' // connection refused, reset, DNS failure, dropped mid-response
  | 'timeout' // no complete answer within the timeout
  | 'cancelled' // the caller's AbortSignal fired
  | 'schema' // a 2xx body that is not JSON or breaks the schema
  | 'tooLarge' // a body over the request's maxBodyBytes: not read
  | 'badQuery' // caught before sending: a billing query the spec forbids
  | 'badInput' // caught before sending: an input file that is not a valid job input
  | 'badId'; // caught before sending: an endpoint or job id that would change the route (../ids.ts)

export abstract class ServiceError extends Error {
  abstract readonly kind: ServiceErrorKind;
  /** HTTP status, where there was a response. */
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.name = new.target.name;
    if (status !== undefined) this.status = status;
  }
}

/** Fields of a problem+json body (SPEC 2.9) that the UI may show. */
export interface ProblemInfo {
  title?: string;
  detail?: string;
  errors?: string[];
}

export class UnauthorizedError extends ServiceError {
  readonly kind = 'unauthorized';
  constructor(readonly problem: ProblemInfo = {}) { super(problem.detail ?? 'The API key was rejected (401).', 401); }
}

export class ForbiddenError extends ServiceError {
  readonly kind = 'forbidden';
  constructor(readonly problem: ProblemInfo = {}) { super(problem.detail ?? 'The API key lacks access to this resource (403).', 403); }
}

export class RateLimitedError extends ServiceError {
  readonly kind = 'rateLimited';
  /** How long to wait before the next request, from Retry-After or the RateLimit header. */
  constructor(readonly retryAfterMs: number, readonly problem: ProblemInfo = {}) {
    super(problem.detail ?? `Rate limited; retry in ${Math.ceil(retryAfterMs / 1000)} s.`, 429);
  }
}

export class ValidationError extends ServiceError {
  readonly kind = 'validation';
  constructor(status: number, readonly problem: ProblemInfo = {}) {
    super(problem.detail ?? `The service rejected the request (${status}).`, status);
  }
  get errors(): string[] { return this.problem.errors ?? []; }
}

export class NotFoundError extends ServiceError {
  readonly kind = 'notFound';
  constructor(readonly problem: ProblemInfo = {}, message?: string) { super(message ?? problem.detail ?? 'Not found (404).', 404); }
}

export class ServerError extends ServiceError {
  readonly kind = 'server';
  constructor(status: number, readonly problem: ProblemInfo = {}) { super(problem.detail ?? `The service failed (${status}).`, status); }
}

export class NetworkError extends ServiceError {
  readonly kind = 'network';
  constructor(readonly host: string, readonly causeMessage: string) { super(`Cannot reach ${host}: ${causeMessage}`); }
}

export class TimeoutError extends ServiceError {
  readonly kind = 'timeout';
  constructor(readonly host: string, readonly timeoutMs: number) { super(`${host} did not answer within ${Math.round(timeoutMs / 1000)} s.`); }
}

export class CancelledError extends ServiceError {
  readonly kind = 'cancelled';
  constructor() { super('Cancelled.'); }
}

export class SchemaError extends ServiceError {
  readonly kind = 'schema';
  /** `path` is the zod path of the first offending field, e.g. "records.3.totalAmount", or "" for the body. */
  constructor(readonly path: string, readonly reason: string, status?: number) {
    super(`Unexpected response from the service${path ? ` at ${path}` : ''}: ${reason}`, status);
  }
}

/** A body over the request's `maxBodyBytes`, left unread (the connection is closed rather than drained). */
export class BodyTooLargeError extends ServiceError {
  readonly kind = 'tooLarge';
  constructor(readonly maxBytes: number, status?: number) {
    super(`The service's answer was over ${maxBytes} bytes, more than this request reads.`, status);
  }
}

export class BadQueryError extends ServiceError {
  readonly kind = 'badQuery';
  constructor(readonly errors: string[]) { super(`Invalid billing query: ${errors.join('; ')}`); }
}

export class BadInputError extends ServiceError {
  readonly kind = 'badInput';
  /** line and column are 1-based, where the problem has a position in the file. */
  constructor(message: string, readonly line?: number, readonly column?: number) { super(message); }
}

export class InvalidIdError extends ServiceError {
  readonly kind = 'badId';
  /** `reason` says what is wrong with the id; the id itself is quoted as JSON so control characters show. */
  constructor(readonly idKind: 'endpoint' | 'job', readonly id: string, readonly reason: string) {
    super(`Refused ${idKind} id ${JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id)}: ${reason}. Nothing was sent.`);
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
