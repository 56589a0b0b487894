// The job routes under /v2/<endpoint>/ (SPEC 4.2-4.4 and the docs' "Operation reference"), matched by path
// alone (the method is checked after, for a 405), and dispatched once the request passed auth and rate limits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../http/auth';
import { handleStatus, handleStatusSync, handleSubmit, type JobRouteContext } from './jobRoutes';
import { handleCancel, handleHealth, handlePurge, handleRetry, handleStream } from './runtimeRoutes';

const ENDPOINT_OPS = { run: 'POST', runsync: 'POST', health: 'GET', 'purge-queue': 'POST' } as const;
const JOB_OPS = { status: 'GET', 'status-sync': 'GET', stream: 'GET', cancel: 'POST', retry: 'POST' } as const;

export type JobRoute =
  | { name: keyof typeof ENDPOINT_OPS; allow: 'GET' | 'POST'; endpointId: string }
  | { name: keyof typeof JOB_OPS; allow: 'GET' | 'POST'; endpointId: string; jobId: string };

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** `s` is the path split on "/": ['', 'v2', endpoint, operation, job?]. */
export function matchJobRoute(s: readonly string[]): JobRoute | undefined {
  const endpointId = s[2] !== undefined && s[2] !== '' ? decode(s[2]) : undefined;
  if (endpointId === undefined) return undefined;
  const op = s[3] ?? '';
  if (s.length === 4 && Object.hasOwn(ENDPOINT_OPS, op)) {
    const name = op as keyof typeof ENDPOINT_OPS;
    return { name, allow: ENDPOINT_OPS[name], endpointId };
  }
  if (s.length === 5 && Object.hasOwn(JOB_OPS, op) && s[4] !== '') {
    const jobId = decode(s[4]!);
    const name = op as keyof typeof JOB_OPS;
    if (jobId !== undefined) return { name, allow: JOB_OPS[name], endpointId, jobId };
  }
  return undefined;
}

export function dispatchJobRoute(
  ctx: JobRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, route: JobRoute, search: URLSearchParams,
): Promise<void> | void {
  const ep = route.endpointId;
  if (!('jobId' in route)) {
    switch (route.name) {
      case 'run':
      case 'runsync':
        return handleSubmit(ctx, req, res, p, ep, route.name === 'runsync', search);
      case 'health':
        return handleHealth(ctx, res, p, ep, search);
      case 'purge-queue':
        return handlePurge(ctx, req, res, p, ep, search);
    }
  }
  switch (route.name) {
    case 'status':
      return handleStatus(ctx, res, p, ep, route.jobId, search);
    case 'status-sync':
      return handleStatusSync(ctx, res, p, ep, route.jobId, search);
    case 'stream':
      return handleStream(ctx, res, p, ep, route.jobId, search);
    case 'cancel':
      return handleCancel(ctx, req, res, p, ep, route.jobId, search);
    case 'retry':
      return handleRetry(ctx, req, res, p, ep, route.jobId, search);
  }
}
