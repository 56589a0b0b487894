// The chart's data for a billing table: one bucket per bar group, oldest first, over all endpoints or one. No
// `vscode` import (pure; the same table the tree shows, so no extra request).
import { AMOUNTS_PER_ROW, isoFromMs, type BillingTable } from '../core/billing/billingTable';
import { bucketLabel } from '../endpoints/billingTreeModel';
import type { ChartData } from './protocol';

/** Endpoints drawn as series of their own in the account's chart; the others are summed as one. */
const MAX_ENDPOINT_SERIES = 8;

export function buildChartData(table: BillingTable, subtitle: string, endpoint?: { id: string; displayName?: string }, names?: ReadonlyMap<string, string>): ChartData {
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
  else if (names) data.byEndpoint = endpointStacks(table, starts, names);
  return data;
}

/** Each endpoint's total per bucket of `starts` (oldest first), biggest endpoints first, the rest as "Other endpoints". */
function endpointStacks(table: BillingTable, starts: ArrayLike<number>, names: ReadonlyMap<string, string>): { label: string; values: number[] }[] {
  const index = new Map(Array.from(starts, (ms, i) => [ms, i]));
  const all = table.endpoints.map((e) => {
    const values = new Array<number>(starts.length).fill(0);
    const series = endpointSeries(table, e.id);
    series.starts.forEach((ms, i) => {
      const at = index.get(ms);
      if (at !== undefined) values[at]! += series.amounts[i * AMOUNTS_PER_ROW]!;
    });
    return { label: names.get(e.id) ?? e.id, values, total: values.reduce((a, b) => a + b, 0) };
  }).filter((e) => e.total > 0).sort((a, b) => b.total - a.total);
  const shown = all.slice(0, MAX_ENDPOINT_SERIES).map(({ label, values }) => ({ label, values }));
  const rest = all.slice(MAX_ENDPOINT_SERIES);
  if (rest.length) shown.push({ label: `Other endpoints (${rest.length})`, values: Array.from(starts, (_, i) => rest.reduce((sum, e) => sum + e.values[i]!, 0)) });
  return shown;
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
