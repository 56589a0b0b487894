// The REST v2 "Serverless", "Templates" and GPU catalog calls of the service client, on the billing base URL
// (issue 9 for the reads, issue 28 for the rest): endpoints (list, get, create, update, delete), an endpoint's
// workers and releases, templates, and the GPU catalog. Same HTTP layer as billing: typed errors (a 403 of a key
// without write access is ForbiddenError; a 400/422 is ValidationError with the service's `errors`). Writes are
// never retried (a PATCH that reached the service must not be sent twice behind the user's back). Worker logs
// stream as Server-Sent Events: ./workerLogs.ts. The calls beyond the sidebar's reads and the catalog are
// ./serverlessWrites.ts, a factory the caller hands in (the extension's comes from dist/rooms.js, with the forms
// that use them): made on the first such call; without one, those calls fail and nothing is sent.
import type { HttpTransport } from '../http/request';
import { joinUrl } from '../http/url';
import type { CallOptions, ConnectionSettings } from '../http/connectionSettings';
import { ListGpuTypesResponse } from './catalogSchemas';
import { ListEndpointsResponse, ListEndpointWorkersResponse, ServerlessEndpoint, serverlessRoutes } from './schemas';
import type { ServerlessWriteCalls } from './serverlessWrites';

/** What makes the write calls: `serverlessWrites` of ./serverlessWrites.ts, or the same from another bundle. */
export type ServerlessWritesFactory = (http: HttpTransport, url: (route: string) => URL) => ServerlessWriteCalls;

export interface ServerlessCalls extends ServerlessWriteCalls {
  /** GET /v2/serverless: every endpoint of the account. */
  listEndpoints(options?: CallOptions): Promise<ListEndpointsResponse>;
  /** GET /v2/serverless/{id}. */
  getEndpoint(endpointId: string, options?: CallOptions): Promise<ServerlessEndpoint>;
  /** GET /v2/serverless/{id}/workers: the active workers, their version and staleness, and the summary by status. */
  listEndpointWorkers(endpointId: string, options?: CallOptions): Promise<ListEndpointWorkersResponse>;
  /** GET /v2/catalog/gpus: GPU types with their serverless pool, memory and prices (USD per GPU per hour). */
  listGpuTypes(options?: CallOptions): Promise<ListGpuTypesResponse>;
}

export function createServerlessCalls(http: HttpTransport, settings: Readonly<ConnectionSettings>, writesFactory?: () => ServerlessWritesFactory): ServerlessCalls {
  const url = (route: string): URL => joinUrl(settings.billingBaseUrl, route);
  let made: ServerlessWriteCalls | undefined;
  const writes = (): ServerlessWriteCalls => {
    if (!writesFactory) throw new Error('This service client was made without the serverless write calls.');
    return (made ??= writesFactory()(http, url));
  };
  return {
    async listEndpoints(options = {}) {
      return http.send({ method: 'GET', url: url(serverlessRoutes.endpoints), idempotent: true, route: { kind: 'endpointList' }, ...options }, ListEndpointsResponse);
    },
    async getEndpoint(endpointId, options = {}) {
      return http.send({ method: 'GET', url: url(serverlessRoutes.endpoint(endpointId)), idempotent: true, route: { kind: 'endpointList', endpointId }, ...options }, ServerlessEndpoint);
    },
    async listEndpointWorkers(endpointId, options = {}) {
      return http.send({ method: 'GET', url: url(serverlessRoutes.workers(endpointId)), idempotent: true, route: { kind: 'health', endpointId }, ...options }, ListEndpointWorkersResponse);
    },
    async listGpuTypes(options = {}) {
      return http.send({ method: 'GET', url: url(serverlessRoutes.gpuCatalog), idempotent: true, route: { kind: 'endpointList' }, ...options }, ListGpuTypesResponse);
    },
    createEndpoint: async (body, options) => writes().createEndpoint(body, options),
    updateEndpoint: async (endpointId, body, options) => writes().updateEndpoint(endpointId, body, options),
    deleteEndpoint: async (endpointId, options) => writes().deleteEndpoint(endpointId, options),
    listEndpointReleases: async (endpointId, options) => writes().listEndpointReleases(endpointId, options),
    listTemplates: async (options) => writes().listTemplates(options),
    getTemplate: async (templateId, options) => writes().getTemplate(templateId, options),
    createTemplate: async (body, options) => writes().createTemplate(body, options),
    updateTemplate: async (templateId, body, options) => writes().updateTemplate(templateId, body, options),
    deleteTemplate: async (templateId, options) => writes().deleteTemplate(templateId, options),
  };
}
