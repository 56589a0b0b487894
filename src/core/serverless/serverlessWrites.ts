// The REST v2 serverless calls beyond the sidebar's reads (issue 28): create, update and delete an endpoint,
// its releases and templates, made for the service client by ./client.ts the first time one is called. Only the
// endpoint forms (dist/rooms.js) call them, so the extension hands the client this factory from that bundle
// (see ServiceClientDeps.serverlessWrites), and extension.js carries neither these calls nor their schemas. Request bodies are checked
// with the strict request schemas before anything is sent (BadInputError naming each field); writes are never
// retried (a PATCH that reached the service must not be sent twice behind the user's back).
import * as z from 'zod/mini';
import { BadInputError } from '../http/errors';
import type { HttpTransport, RouteInfo } from '../http/request';
import type { CallOptions } from '../http/connectionSettings';
import {
  CreateEndpointRequest, CreateTemplateRequest, requestErrors, UpdateEndpointRequest, UpdateTemplateRequest,
} from './requestSchemas';
import { ListEndpointReleasesResponse, ListTemplatesResponse, Template } from './resourceSchemas';
import { ServerlessEndpoint, serverlessRoutes } from './schemas';

export interface ServerlessWriteCalls {
  /** POST /v2/serverless (201): the created endpoint. */
  createEndpoint(body: CreateEndpointRequest, options?: CallOptions): Promise<ServerlessEndpoint>;
  /** PATCH /v2/serverless/{id}: only the fields in `body` change; the whole endpoint comes back. See ./endpointEdit.ts. */
  updateEndpoint(endpointId: string, body: UpdateEndpointRequest, options?: CallOptions): Promise<ServerlessEndpoint>;
  /** DELETE /v2/serverless/{id} (204): its workers stop, its queued and running jobs are cancelled. */
  deleteEndpoint(endpointId: string, options?: CallOptions): Promise<void>;
  /** GET /v2/serverless/{id}/releases: newest first, with the rollout summary. */
  listEndpointReleases(endpointId: string, options?: CallOptions): Promise<ListEndpointReleasesResponse>;
  listTemplates(options?: CallOptions): Promise<ListTemplatesResponse>;
  getTemplate(templateId: string, options?: CallOptions): Promise<Template>;
  createTemplate(body: CreateTemplateRequest, options?: CallOptions): Promise<Template>;
  updateTemplate(templateId: string, body: UpdateTemplateRequest, options?: CallOptions): Promise<Template>;
  deleteTemplate(templateId: string, options?: CallOptions): Promise<void>;
}

/** A request body checked before sending: every problem named by its field, nothing sent. */
function checked<T>(schema: z.ZodMiniType<T>, body: T, what: string): T {
  const errors = requestErrors(schema, body);
  if (errors.length) throw new BadInputError(`The ${what} is not valid: ${errors.join('; ')}.`);
  return body;
}

export function serverlessWrites(http: HttpTransport, url: (route: string) => URL): ServerlessWriteCalls {
  const list: RouteInfo = { kind: 'endpointList' };
  const read = <T>(route: string, schema: z.ZodMiniType<T>, options: CallOptions = {}, info: RouteInfo = list): Promise<T> =>
    http.send({ method: 'GET', url: url(route), idempotent: true, route: info, ...options }, schema);
  const write = <T>(method: 'POST' | 'PATCH' | 'DELETE', route: string, body: unknown, schema: z.ZodMiniType<T>, options: CallOptions = {}, info: RouteInfo = list): Promise<T> =>
    http.send({ method, url: url(route), ...(body !== undefined ? { body } : {}), idempotent: false, route: info, ...options }, schema);
  const nothing = z.undefined();
  return {
    createEndpoint: async (body, options) =>
      write('POST', serverlessRoutes.endpoints, checked(CreateEndpointRequest, body, 'new endpoint'), ServerlessEndpoint, options),
    updateEndpoint: async (endpointId, body, options) =>
      write('PATCH', serverlessRoutes.endpoint(endpointId), checked(UpdateEndpointRequest, body, 'endpoint change'), ServerlessEndpoint, options, { kind: 'endpointList', endpointId }),
    deleteEndpoint: async (endpointId, options) => {
      await write('DELETE', serverlessRoutes.endpoint(endpointId), undefined, nothing, options, { kind: 'endpointList', endpointId });
    },
    listEndpointReleases: (endpointId, options) => read(serverlessRoutes.releases(endpointId), ListEndpointReleasesResponse, options, { kind: 'endpointList', endpointId }),
    listTemplates: (options) => read(serverlessRoutes.templates, ListTemplatesResponse, options),
    getTemplate: (templateId, options) => read(serverlessRoutes.template(templateId), Template, options),
    createTemplate: async (body, options) => write('POST', serverlessRoutes.templates, checked(CreateTemplateRequest, body, 'new template'), Template, options),
    updateTemplate: async (templateId, body, options) =>
      write('PATCH', serverlessRoutes.template(templateId), checked(UpdateTemplateRequest, body, 'template change'), Template, options),
    deleteTemplate: async (templateId, options) => {
      await write('DELETE', serverlessRoutes.template(templateId), undefined, nothing, options);
    },
  };
}
