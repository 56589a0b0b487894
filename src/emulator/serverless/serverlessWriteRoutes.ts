// The write side of the REST v2 serverless routes (issue 28): POST /v2/serverless (201), PATCH and DELETE
// /v2/serverless/<id> (200, 204), and the templates (/v2/templates[/<id>]). A body is checked whole before
// anything changes: its schema (the core's strict request schemas; an unknown field, a value out of range:
// 422) and the rules beside it (bodyChecks.ts: 400), every problem listed in `errors` of one answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CreateEndpointRequest, CreateTemplateRequest, requestErrors, UpdateEndpointRequest, UpdateTemplateRequest,
} from '../../core/serverless/requestSchemas';
import type { Template } from '../../core/serverless/resourceSchemas';
import type { Principal } from '../http/auth';
import { readBody } from '../http/requestBody';
import { HttpProblem, sendJson } from '../http/respond';
import { bodyProblems } from './bodyChecks';
import { createEndpoint, updateEndpoint } from './endpointWrites';
import { endpointView, recordFor } from './endpointView';
import { listedEndpoint, originOf, type ServerlessRoute, type ServerlessRouteContext } from './serverlessAccess';
import { createTemplate, templatesOf, updateTemplate } from './templateStore';

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = (await readBody(req)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpProblem(400, `The request body is not valid JSON: ${(err as Error).message}.`);
  }
}

/** 422 when the schema refused something (listing the other problems too), else 400 when a rule did. */
function refuse(schemaErrors: string[], problems: string[], what: string): void {
  if (schemaErrors.length) throw new HttpProblem(422, `The ${what} failed validation: ${[...schemaErrors, ...problems].join('; ')}.`, [...schemaErrors, ...problems]);
  if (problems.length) throw new HttpProblem(400, `The ${what} cannot be applied: ${problems.join('; ')}.`, problems);
}

/** The template a body names (its container settings are applied), or a 404 / a 422 line. */
function templateOf(p: Principal, body: unknown, errors: string[]): Template | undefined {
  const id = (body as { templateId?: unknown } | null)?.templateId;
  if (typeof id !== 'string' || id === '') return undefined;
  const t = templatesOf(p.account).get(id);
  if (!t) throw new HttpProblem(404, `There is no template "${id}" in this account.`);
  if (!t.serverless) errors.push(`templateId: template "${id}" is a pod template (serverless: false); an endpoint needs a serverless template`);
  return t;
}

export async function handleEndpointWrite(
  ctx: ServerlessRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, route: ServerlessRoute,
): Promise<void> {
  const { account } = p;
  if (route.name === 'endpoints') {
    if (p.key.endpoints) throw new HttpProblem(403, `The API key is restricted to the endpoints ${p.key.endpoints.join(', ')}; it may not create endpoints.`);
    const body = await readJson(req);
    const errors = requestErrors(CreateEndpointRequest, body);
    const template = templateOf(p, body, errors);
    refuse(errors, bodyProblems(body, undefined), 'endpoint');
    const endpoint = createEndpoint(account, CreateEndpointRequest.parse(body), template, ctx.nowMs);
    ctx.jobs.reconfigure(endpoint); // its engine starts: workers.min workers come up now
    return sendJson(res, 201, endpointView(endpoint, account.usage, originOf(req), ctx.nowMs));
  }
  if (route.name !== 'endpoint') throw new HttpProblem(405, `${req.method} is not allowed here.`, undefined, { Allow: route.allow });
  const endpoint = listedEndpoint(p, route.endpointId);
  if (req.method === 'DELETE') {
    ctx.jobs.remove(endpoint);
    account.endpoints.delete(endpoint.id);
    res.writeHead(204, { 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  const body = await readJson(req);
  const errors = requestErrors(UpdateEndpointRequest, body);
  const gpu = (body as { gpu?: { excludedTypes?: unknown; pools?: unknown } } | null)?.gpu;
  // The reference's dependentRequired: exclusions alone would be dropped, since only pools replace the selection.
  if (gpu && typeof gpu === 'object' && gpu.excludedTypes !== undefined && gpu.pools === undefined) {
    errors.push('gpu.excludedTypes: requires gpu.pools (the two are one selection; send both)');
  }
  const record = recordFor(endpoint, account.usage, ctx.nowMs);
  const template = templateOf(p, body, errors);
  const current = { workersMin: endpoint.workersMin, workersMax: endpoint.workersMax, pools: endpoint.gpuPools, family: record.gpu ? 'gpu' as const : 'cpu' as const, scalerType: record.scaling.type };
  refuse(errors, bodyProblems(body, current), 'update');
  ctx.jobs.reconfigure(endpoint); // up to now on the old settings first: the new ones apply from this instant
  updateEndpoint(endpoint, record, UpdateEndpointRequest.parse(body), template, ctx.nowMs);
  ctx.jobs.reconfigure(endpoint);
  sendJson(res, 200, endpointView(endpoint, account.usage, originOf(req), ctx.nowMs));
}

export async function handleTemplateRoute(
  ctx: ServerlessRouteContext, req: IncomingMessage, res: ServerResponse, p: Principal, route: ServerlessRoute,
): Promise<void> {
  const store = templatesOf(p.account);
  if (route.name === 'templates') {
    if (req.method === 'GET') return sendJson(res, 200, { templates: [...store.values()] });
    const body = await readJson(req);
    refuse(requestErrors(CreateTemplateRequest, body), [], 'template');
    return sendJson(res, 201, createTemplate(p.account, CreateTemplateRequest.parse(body)));
  }
  if (route.name !== 'template') throw new HttpProblem(404, 'No such route.');
  const t = store.get(route.templateId);
  if (!t) throw new HttpProblem(404, `There is no template "${route.templateId}" in this account.`);
  if (req.method === 'GET') return sendJson(res, 200, t);
  if (req.method === 'DELETE') {
    const bound = [...p.account.endpoints.values()].filter((e) => recordFor(e, p.account.usage, ctx.nowMs).templateId === t.id);
    if (bound.length) throw new HttpProblem(400, `Template "${t.id}" is bound to the endpoint${bound.length > 1 ? 's' : ''} ${bound.map((e) => e.id).join(', ')} and cannot be deleted.`);
    store.delete(t.id);
    res.writeHead(204, { 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  const body = await readJson(req);
  refuse(requestErrors(UpdateTemplateRequest, body), [], 'template update');
  sendJson(res, 200, updateTemplate(t, UpdateTemplateRequest.parse(body)));
}
