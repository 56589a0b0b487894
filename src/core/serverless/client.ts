// The REST v2 "Serverless" calls of the service client, on the billing base URL: the user's endpoints (with
// their names and scaling settings), one endpoint, and an endpoint's live workers. Same HTTP layer as billing.
import type { HttpTransport } from '../http/request';
import { joinUrl } from '../http/url';
import type { CallOptions, ConnectionSettings } from '../http/connectionSettings';
import { ListEndpointsResponse, ListEndpointWorkersResponse, ServerlessEndpoint, serverlessRoutes } from './schemas';

export interface ServerlessCalls {
  /** GET /v2/serverless: every endpoint of the account. */
  listEndpoints(options?: CallOptions): Promise<ListEndpointsResponse>;
  /** GET /v2/serverless/{id}. */
  getEndpoint(endpointId: string, options?: CallOptions): Promise<ServerlessEndpoint>;
  /** GET /v2/serverless/{id}/workers: the active workers and their summary by status. */
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
  };
}
