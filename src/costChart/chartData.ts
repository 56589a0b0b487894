// The chart's data for a billing table: one bucket per bar group, oldest first, over all endpoints or one. No
// `vscode` import (pure; the same table the tree shows, so no extra request).
import { AMOUNTS_PER_ROW, isoFromMs, type BillingTable } from '../core/billing/billingTable';
import { bucketLabel } from '../endpoints/billingTreeModel';
import type { ChartData } from './protocol';

export function buildChartData(table: BillingTable, subtitle: string, endpoint?: { id: string; displayName?: string }): ChartData {
  const { starts, amounts } = endpoint ? endpointSeries(table, endpoint.id) : { starts: table.seriesStartMs, amounts: table.seriesAmounts };
  const size = table.query.bucketSize;
  const column = (k: number): number[] => Array.from({ length: starts.length }, (_, i) => amounts[i * AMOUNTS_PER_ROW + k]!);
  const data: ChartData = {
    title: endpoint ? (endpoint.displayName ?? endpoint.id) : 'All endpoints',
    subtitle,
    labels: Array.from(starts, (ms) => bucketLabel(ms, size)),
    ranges: Array.from(starts, isoFromMs),
    gpu: column(1),
    cpu: column(2),
    disk: column(3),
    fee: column(4),
  };
  if (endpoint) data.endpointId = endpoint.id;
  return data;
}

/** One endpoint's buckets oldest first (the table keeps them newest first), records of the same instant summed. */
function endpointSeries(table: BillingTable, id: string): { starts: number[]; amounts: number[] } {
  const starts: number[] = [];
  const amounts: number[] = [];
  const row = table.endpoints.findIndex((e) => e.id === id);
  if (row < 0) return { starts, amounts };
  const first = table.bucketOffsets[row]!;
  for (let i = table.bucketOffsets[row + 1]! - 1; i >= first; i--) {
    const ms = table.bucketStartMs[i]!;
    const at = i * AMOUNTS_PER_ROW;
    if (starts.length > 0 && starts[starts.length - 1] === ms) {
      const to = (starts.length - 1) * AMOUNTS_PER_ROW;
      for (let k = 0; k < AMOUNTS_PER_ROW; k++) amounts[to + k]! += table.bucketAmounts[at + k]!;
    } else {
      starts.push(ms);
      for (let k = 0; k < AMOUNTS_PER_ROW; k++) amounts.push(table.bucketAmounts[at + k]!);
    }
  }
  return { starts, amounts };
}
