// The chart's data for a billing response: one bucket per bar group, oldest first, over all endpoints or
// one. No `vscode` import (pure; the same response the tree shows, so no extra request).
import { aggregateBilling } from '../core/billing/aggregate';
import type { ListServerlessBillingResponse } from '../core/schemas';
import { bucketLabel } from '../endpoints/billingTreeModel';
import type { ChartData } from './protocol';

export function buildChartData(response: ListServerlessBillingResponse, subtitle: string, endpoint?: { id: string; displayName?: string }): ChartData {
  const size = response.metadata.query.bucketSize;
  const points = aggregateBilling(response).series(endpoint?.id);
  const data: ChartData = {
    title: endpoint ? (endpoint.displayName ?? endpoint.id) : 'All endpoints',
    subtitle,
    labels: points.map((p) => bucketLabel(p.startTime, size)),
    ranges: points.map((p) => p.startTime),
    gpu: points.map((p) => p.gpuAmount),
    cpu: points.map((p) => p.cpuAmount),
    disk: points.map((p) => p.diskAmount),
    fee: points.map((p) => p.feeAmount),
  };
  if (endpoint) data.endpointId = endpoint.id;
  return data;
}
