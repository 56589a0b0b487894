// What a failed /run means for the job it carried (docs/batches.md "What is safe to resend"). A submission is
// resent only when the service cannot have created the job; when it may have, the row becomes `unknown` and
// nothing is resent by itself: a duplicate job costs money, and the platform has no way to look a job up by
// anything but the id whose answer was lost.
import { NetworkError, ServiceError, type ServiceErrorKind } from '../http/errors';

export type SubmitFailure =
  /** 429: refused before it was taken; resend after the wait (`retryAfterMs`). */
  | { kind: 'rateLimited'; retryAfterMs: number; message: string }
  /** Never reached the service (connection refused) or refused by it as unavailable (503): resend once it is back. */
  | { kind: 'notSent'; message: string }
  /** 401/403: resend after the user fixed the key; the batch pauses. */
  | { kind: 'auth'; message: string }
  /** 400/404/413/422, or an id refused before sending: this input will not be taken as it is. */
  | { kind: 'rejected'; message: string }
  /** The request may have reached the service and its answer was lost (reset, timeout, 500/502/504, a broken 2xx). */
  | { kind: 'unknown'; message: string; serviceDown: boolean };

/** Connection refused: the TCP connection was never made, so no byte of the request left this machine. */
function neverConnected(e: NetworkError): boolean {
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(e.causeMessage);
}

const REJECTED: ReadonlySet<ServiceErrorKind> = new Set(['validation', 'notFound', 'badInput', 'badId', 'badQuery']);

/**
 * `sent`: whether the request may have reached the service whole (its `submitting` line was written, and with it
 * the body's last byte: HttpRequest.onSending, connectedFetch.ts). When it cannot have, a failure that would
 * otherwise be `unknown` (a reset, a timeout) is `notSent`: a body never received whole makes no job.
 */
export function classifySubmitFailure(e: unknown, sent = true): SubmitFailure {
  const message = e instanceof Error ? e.message : String(e);
  const f = classifySent(e, message);
  return !sent && f.kind === 'unknown' ? { kind: 'notSent', message } : f;
}

function classifySent(e: unknown, message: string): SubmitFailure {
  if (!(e instanceof ServiceError)) return { kind: 'unknown', message, serviceDown: false };
  if (e.kind === 'rateLimited') return { kind: 'rateLimited', retryAfterMs: (e as ServiceError & { retryAfterMs: number }).retryAfterMs, message };
  if (e.kind === 'unauthorized' || e.kind === 'forbidden') return { kind: 'auth', message };
  if (REJECTED.has(e.kind)) return { kind: 'rejected', message };
  if (e instanceof NetworkError && neverConnected(e)) return { kind: 'notSent', message };
  // SPEC 8: a 503 is the service refusing work for now (it answers before taking the job).
  if (e.kind === 'server' && e.status === 503) return { kind: 'notSent', message };
  return { kind: 'unknown', message, serviceDown: e.kind === 'network' || e.kind === 'timeout' || e.kind === 'server' };
}
