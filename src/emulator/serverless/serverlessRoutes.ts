// The REST v2 "Serverless", "Templates" and GPU catalog routes on the billing base URL (issue 9 for the reads,
// issue 28 for the rest): /v2/serverless (list, create), /v2/serverless/<id> (get, update, delete), its
// /workers, /releases and /workers/<worker>/logs, /v2/templates[/<id>] and /v2/catalog/gpus. Paths and shapes
// from the REST v2 reference. The server has already done route, 405, fault, 401 and 429; here: scope (403:
// endpoints:read for reads, endpoints:write for every write, checked before the body is read, so a refused
// write changes nothing), query (400), the endpoint (403/404), then the operation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireScope, type Principal } from '../http/auth';
import type { EndpointConfig } from '../config';
import { readQueryParams } from '../http/queryParams';
import { HttpProblem, sendJson } from '../http/respond';
import { listedEndpoint, originOf, type ServerlessRoute, type ServerlessRouteContext } from './serverlessAccess';
import { endpointView, isListed, recordFor } from './endpointView';
import { gpuCatalog } from './gpuCatalog';
import { releasesView } from './releasesView';
import { handleEndpointWrite, handleTemplateRoute } from './serverlessWriteRoutes';
import { streamWorkerLogs } from './workerLogsRoute';
import { workersView } from './workersView';

function decoded(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    const s = decodeURIComponent(segment);
    return s === '' ? undefined : s;
  } catch {
    return undefined;
  }
}

/** Matches by path alone (the method is checked after, for a 405). */
export function matchServerlessRoute(path: string): ServerlessRoute | undefined {
  const s = path.split('/'); // ['', 'v2', area, id?, sub?, workerId?, 'logs'?]
  if (s[0] !== '' || s[1] !== 'v2') return undefined;
  if (s[2] === 'catalog' && s[3] === 'gpus' && s.length === 4) return { rest: true, name: 'gpuCatalog', allow: 'GET' };
  if (s[2] === 'templates') {
    if (s.length === 3) return { rest: true, name: 'templates', allow: 'GET, POST' };
    const templateId = decoded(s[3]);
    return s.length === 4 && templateId ? { rest: true, name: 'template', allow: 'GET, PATCH, DELETE', templateId } : undefined;
  }
  if (s[2] !== 'serverless') return undefined;
  if (s.length === 3) return { rest: true, name: 'endpoints', allow: 'GET, POST' };
  const endpointId = decoded(s[3]);
  if (!endpointId) return undefined;
  if (s.length === 4) return { rest: true, name: 'endpoint', allow: 'GET, PATCH, DELETE', endpointId };
  if (s.length === 5 && (s[4] === 'workers' || s[4] === 'releases')) return { rest: true, name: s[4], allow: 'GET', endpointId };
  const workerId = decoded(s[5]);
  if (s.length === 7 && s[4] === 'workers' && s[6] === 'logs' && workerId) return { rest: true, name: 'workerLogs', allow: 'GET', endpointId, workerId };
  return undefined;
}

/** The endpoints this key may see: the user's own (not public models), narrowed by the key's `endpoints`. */
function visible(p: Principal, e: EndpointConfig): boolean {
  return isListed(e) && (!p.key.endpoints || p.key.endpoints.includes(e.id));
}

const CATALOG_PARAMS = ['include', 'product', 'count', 'cloud', 'countryCodes', 'cudaVersions', 'minCudaVersion'] as const;

export type { ServerlessRoute } from './serverlessAccess';

export async function handleServerless(
  ctx: ServerlessRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, route: ServerlessRoute, search: URLSearchParams,
): Promise<void> {
  const write = req.method !== 'GET';
  requireScope(p, write ? 'endpoints:write' : 'endpoints:read');
  if (route.name === 'workerLogs') {
    const endpoint = listedEndpoint(p, route.endpointId);
    const isLive = (): boolean => (ctx.jobs.workersOf(p.account, endpoint.id)?.workers ?? []).some((w) => w.id === route.workerId);
    return streamWorkerLogs(req, res, search, ctx.jobs.logsOf(endpoint), route.workerId, isLive, ctx.stopping);
  }
  // The reference lists no query parameters for these operations but the catalog's (which the emulator accepts
  // and answers without availability): anything else is a mistake worth a 400.
  const { errors } = readQueryParams(search, route.name === 'gpuCatalog' ? CATALOG_PARAMS : []);
  if (errors.length) throw new HttpProblem(400, `The query string is invalid: ${errors.join('; ')}.`, errors);
  const { account } = p;
  if (route.name === 'gpuCatalog') return sendJson(res, 200, { gpus: gpuCatalog() });
  if (route.name === 'templates' || route.name === 'template') return handleTemplateRoute(ctx, req, res, p, route);
  if (write) return handleEndpointWrite(ctx, req, res, p, route);
  if (route.name === 'endpoints') {
    const endpoints = [...account.endpoints.values()].filter((e) => visible(p, e));
    return sendJson(res, 200, { endpoints: endpoints.map((e) => endpointView(e, account.usage, originOf(req), ctx.nowMs)) });
  }
  const endpoint = listedEndpoint(p, route.endpointId);
  if (route.name === 'endpoint') return sendJson(res, 200, endpointView(endpoint, account.usage, originOf(req), ctx.nowMs));
  const record = recordFor(endpoint, account.usage, ctx.nowMs);
  const workers = ctx.jobs.workersOf(account, endpoint.id)?.workers ?? [];
  if (route.name === 'releases') return sendJson(res, 200, releasesView(record, workers, account.id));
  sendJson(res, 200, workersView(endpoint, record, workers, ctx.nowMs));
}
