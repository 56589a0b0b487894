// The ONE function that turns any error (a typed core error, a stray exception) into words a user can act on
// and the actions that fix it. The tree, the job panel and notifications all show what this returns, so the
// same failure reads the same everywhere (STYLE.md "Wire types"). No `vscode` import: it is plain data, and the
// caller decides how to show it (a tree item, a panel banner, a notification's buttons).
import {
  isServiceError,
  type BadInputError, type BadQueryError, type BodyTooLargeError, type CancelledError, type InvalidIdError, type ForbiddenError, type NetworkError, type NotFoundError,
  type RateLimitedError, type SchemaError, type ServerError, type ServiceErrorKind, type TimeoutError, type UnauthorizedError,
  type ValidationError,
} from '../core/http/errors';
import { redact } from '../core/log';
import { Commands } from '../connection/commandIds';

export interface ErrorAction {
  /** Button / link text: 'Set API Key', 'Retry', 'Show Logs', … */
  title: string;
  command: string;
  args?: unknown[];
}

export interface ErrorDescription {
  kind: ServiceErrorKind | 'unknown';
  /** One sentence the user can act on. Never contains the API key. */
  message: string;
  /** What to do, best first. The tree shows the first as the item's click; notifications show all as buttons. */
  actions: ErrorAction[];
  /** For a 429: how long until the next try; a caller may retry automatically after it. */
  retryAfterMs?: number;
  /** The server's validation errors (SPEC 7), each a line of its own. */
  details?: string[];
}

/** What the caller was doing, so the words fit ("billing" lacks a different permission than "run"). */
export interface DescribeContext {
  operation?: 'billing' | 'run' | 'status' | 'other';
  /** The endpoint / job involved, for 403 and 404 wording. */
  endpointId?: string;
  jobId?: string;
  /** Where the request went, when the error itself does not say (network errors carry their host). */
  host?: string;
  /** The command that repeats the failed operation (the tree's refresh, the panel's re-poll). */
  retry?: ErrorAction;
  /** Secrets to scrub from any text that came from elsewhere (server details, exception messages). */
  secrets?: readonly (string | undefined)[];
}

const SET_KEY: ErrorAction = { title: 'Set API Key', command: Commands.setApiKey };
const SHOW_LOGS: ErrorAction = { title: 'Show Logs', command: Commands.showLogs };

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** What a 403 means for the operation: SPEC 5.2 says keys are scoped; the emulator names the scopes. */
function lacking(ctx: DescribeContext): string {
  switch (ctx.operation) {
    case 'billing': return 'This API key has no access to billing (it lacks the billing:read permission); it may still run jobs.';
    case 'run': return `This API key may not run jobs${ctx.endpointId ? ` on endpoint ${ctx.endpointId}` : ''} (it lacks jobs:run or access to that endpoint).`;
    case 'status': return `This API key may not read jobs${ctx.endpointId ? ` of endpoint ${ctx.endpointId}` : ''} (it lacks jobs:read or access to that endpoint).`;
    default: return 'This API key lacks access to this resource.';
  }
}

function withRetry(ctx: DescribeContext, ...rest: ErrorAction[]): ErrorAction[] {
  return ctx.retry ? [ctx.retry, ...rest] : rest;
}

/** Every typed error of the core, told apart by `kind` (each class narrows it to its own literal). */
type AnyServiceError =
  | UnauthorizedError | ForbiddenError | RateLimitedError | ValidationError | NotFoundError | ServerError
  | NetworkError | TimeoutError | CancelledError | SchemaError | BodyTooLargeError | BadQueryError | BadInputError | InvalidIdError;

function describeRaw(error: unknown, ctx: DescribeContext): ErrorDescription {
  if (!isServiceError(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return { kind: 'unknown', message: `Something went wrong: ${text}`, actions: withRetry(ctx, SHOW_LOGS) };
  }
  // ServiceErrorKind has one class per kind, so the kind decides which class this is.
  const e = error as AnyServiceError;
  switch (e.kind) {
    case 'unauthorized':
      return {
        kind: e.kind,
        message: 'The API key was rejected (401): it is missing, expired or invalid. Set a valid key.',
        actions: [SET_KEY],
      };
    case 'forbidden': {
      const detail = e.problem.detail;
      return {
        kind: e.kind,
        message: `${lacking(ctx)}${detail ? ` The service says: ${detail}` : ''}`,
        actions: [SET_KEY],
      };
    }
    case 'rateLimited': {
      const ms = e.retryAfterMs;
      const detail = e.problem.detail;
      return {
        kind: e.kind,
        message: `Rate limited${detail ? ` (${detail.replace(/\.$/, '')})` : ''}: next try in ${seconds(ms)} s.`,
        actions: withRetry(ctx),
        retryAfterMs: ms,
      };
    }
    case 'validation': {
      const errors = e.errors;
      const detail = e.problem.detail;
      const list = errors.length ? `: ${errors.join('; ')}` : detail ? `: ${detail}` : '.';
      return { kind: e.kind, message: `The service rejected the request (${e.status ?? 400})${list}`, actions: [SHOW_LOGS], details: errors };
    }
    case 'notFound':
      if (ctx.operation === 'status') {
        return {
          kind: e.kind,
          message: `Job ${ctx.jobId ?? ''} was not found. The service keeps a finished job's results for 30 minutes only (SPEC 8.6); saved outputs are still on disk.`.replace('Job  ', 'The job '),
          actions: [SHOW_LOGS],
        };
      }
      if (ctx.operation === 'run' && ctx.endpointId) {
        return { kind: e.kind, message: `Endpoint ${ctx.endpointId} was not found: check its id.`, actions: [SHOW_LOGS] };
      }
      return { kind: e.kind, message: `Not found (404): ${e.message}`, actions: [SHOW_LOGS] };
    case 'server':
      return { kind: e.kind, message: `The service failed (${e.status ?? 'error'}): ${e.message}`, actions: withRetry(ctx, SHOW_LOGS) };
    case 'network': {
      const host = e.host || ctx.host || 'the service';
      return { kind: e.kind, message: `Cannot reach ${host}. Check the connection profile and your network.`, actions: withRetry(ctx, SHOW_LOGS) };
    }
    case 'timeout': {
      const host = e.host || ctx.host || 'The service';
      const ms = e.timeoutMs;
      return { kind: e.kind, message: `${host} did not answer${ms ? ` within ${seconds(ms)} s` : ' in time'}.`, actions: withRetry(ctx, SHOW_LOGS) };
    }
    case 'cancelled':
      return { kind: e.kind, message: 'Cancelled.', actions: [] };
    case 'schema': {
      const { path, reason } = e;
      return {
        kind: e.kind,
        message: `Unexpected response from the service${path ? ` at ${path}` : ''}: ${reason}`,
        actions: withRetry(ctx, SHOW_LOGS),
      };
    }
    case 'tooLarge':
      return { kind: e.kind, message: e.message, actions: [SHOW_LOGS] };
    case 'badQuery': {
      const errors = e.errors;
      return { kind: e.kind, message: `Invalid billing window: ${errors.join('; ')}`, actions: [{ title: 'Change Billing Window', command: Commands.changeBillingWindow }], details: errors };
    }
    case 'badId':
      // Nothing was sent: the id would have changed the route (issue 12). The reason is the fix.
      return { kind: e.kind, message: e.message, actions: [] };
    case 'badInput': {
      const { line, column } = e;
      // A JSON syntax error already says where in its text (parseInputFile); the others carry it beside.
      const said = line !== undefined && e.message.includes(`(line ${line}`);
      const where = line !== undefined && !said ? ` (line ${line}${column !== undefined ? `, column ${column}` : ''})` : '';
      return { kind: e.kind, message: `${e.message.replace(/\.$/, '')}${where}.`, actions: [] };
    }
  }
}

/** Any error -> words + actions. Never throws; the result never contains a given secret nor a bearer token. */
export function describeError(error: unknown, ctx: DescribeContext = {}): ErrorDescription {
  let d: ErrorDescription;
  try {
    d = describeRaw(error, ctx);
  } catch {
    d = { kind: 'unknown', message: 'Something went wrong.', actions: [SHOW_LOGS] };
  }
  const secrets = (ctx.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length > 0);
  const scrub = (s: string): string => redact(s, secrets);
  const out: ErrorDescription = { ...d, message: scrub(d.message) };
  if (d.details) out.details = d.details.map(scrub);
  return out;
}
