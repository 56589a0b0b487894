// The REST v2 "Serverless", "Templates" and GPU catalog calls of the service client, on the billing base URL
// (issue 9 for the reads, issue 28 for the rest): endpoints (list, get, create, update, delete), an endpoint's
// workers and releases, templates, and the GPU catalog. Same HTTP layer as billing: typed errors (a 403 of a key
// without write access is ForbiddenError; a 400/422 is ValidationError with the service's `errors`). Writes are
// never retried (a PATCH that reached the service must not be sent twice behind the user's back). Worker logs
// stream as Server-Sent Events: ./workerLogs.ts. The calls beyond the sidebar's reads are ./serverlessWrites.ts
// (a factory of their own, so a bundle split can move them out of extension.js with the forms that use them).
import type { HttpTransport } from '../http/request';
import { joinUrl } from '../http/url';
import type { CallOptions, ConnectionSettings } from '../http/connectionSettings';
import { ListEndpointsResponse, ListEndpointWorkersResponse, ServerlessEndpoint, serverlessRoutes } from './schemas';
import { serverlessWrites, type ServerlessWriteCalls } from './serverlessWrites';

export interface ServerlessCalls extends ServerlessWriteCalls {
  /** GET /v2/serverless: every endpoint of the account. */
  listEndpoints(options?: CallOptions): Promise<ListEndpointsResponse>;
  /** GET /v2/serverless/{id}. */
  getEndpoint(endpointId: string, options?: CallOptions): Promise<ServerlessEndpoint>;
  /** GET /v2/serverless/{id}/workers: the active workers, their version and staleness, and the summary by status. */
  listEndpointWorkers(endpointId: string, options?: CallOptions): Promise<ListEndpointWorkersResponse>;
}

export function createServerlessCalls(http: HttpTransport, settings: Readonly<ConnectionSettings>): ServerlessCalls {
  const url = (route: string): URL => joinUrl(settings.billingBaseUrl, route);
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
    ...serverlessWrites(http, url),
  };
}
