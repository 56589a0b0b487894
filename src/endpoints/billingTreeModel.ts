// What the Endpoints tree shows, computed from one billing response: endpoint nodes (billing records plus the
// endpoints the user added) with their totals and buckets, sorted for display. No `vscode` import, so the
// bench times exactly this in plain Node and the tree items are thin wrappers around it.
import { aggregateBilling } from '../core/billing/aggregate';
import type { AmountKey, BillingAmounts, BucketSize, ListServerlessBillingResponse, ServerlessBillingRecord } from '../core/schemas';
import { formatUsd, formatUsdExact } from '../core/billing/usd';

export interface AddedEndpoint {
  id: string;
  displayName?: string;
}

export interface Breakdown {
  total: number;
  gpu: number;
  cpu: number;
  disk: number;
  fee: number;
}

export interface BucketNode {
  readonly kind: 'bucket';
  readonly parent: EndpointNode;
  readonly startTime: string;
  readonly endTime: string;
  readonly bucketSize: BucketSize;
  readonly amounts: Breakdown;
}

export interface EndpointNode {
  readonly kind: 'endpoint';
  readonly id: string;
  readonly displayName?: string;
  /** Added by the user ("Add Endpoint"): can be removed; may have no billing records. */
  readonly added: boolean;
  readonly amounts: Breakdown;
  /** Newest first. */
  readonly buckets: BucketNode[];
}

export interface BillingTreeModel {
  /** Sorted by total, biggest first; zero-cost endpoints at the end (billed ones by id, then the added ones). */
  readonly endpoints: EndpointNode[];
  readonly window: { startTime: string; endTime: string; bucketSize: BucketSize };
  /** metadata.totals of the response (SPEC 4.1 rule 3), not our own sum. */
  readonly totals: Breakdown;
}

export function toBreakdown(a: Pick<BillingAmounts, AmountKey>): Breakdown {
  return { total: a.totalAmount, gpu: a.gpuAmount, cpu: a.cpuAmount, disk: a.diskAmount, fee: a.feeAmount };
}

function zero(): Breakdown {
  return { total: 0, gpu: 0, cpu: 0, disk: 0, fee: 0 };
}

/**
 * One pass over the records (the core's aggregateBilling: per-endpoint totals, sorted biggest first with
 * zero-cost endpoints last, and each endpoint's buckets newest first), then the user's endpoints that had
 * no records are appended, zero-cost, in the order they were added.
 */
export function buildBillingTree(response: ListServerlessBillingResponse, added: readonly AddedEndpoint[] = []): BillingTreeModel {
  const names = new Map(added.map((a) => [a.id, a.displayName]));
  const aggregate = aggregateBilling(response);
  const bucketSize = response.metadata.query.bucketSize;
  const make = (id: string, sum: Breakdown, records: readonly ServerlessBillingRecord[]): EndpointNode => {
    const displayName = names.get(id) || undefined;
    const node: { -readonly [K in keyof EndpointNode]: EndpointNode[K] } = { kind: 'endpoint', id, added: names.has(id), amounts: sum, buckets: [] };
    if (displayName) node.displayName = displayName;
    node.buckets = records.map((r) => ({ kind: 'bucket', parent: node, startTime: r.startTime, endTime: r.endTime, bucketSize, amounts: toBreakdown(r) }));
    return node;
  };
  const endpoints = aggregate.endpoints.map((t) =>
    make(t.serverlessId, toBreakdown(t), aggregate.bucketsOf(t.serverlessId)));
  const billed = new Set(aggregate.endpoints.map((t) => t.serverlessId));
  for (const a of added) if (!billed.has(a.id)) endpoints.push(make(a.id, zero(), []));
  const q = response.metadata.query;
  return { endpoints, window: { startTime: q.startTime, endTime: q.endTime, bucketSize: q.bucketSize }, totals: toBreakdown(response.metadata.totals) };
}

/** "GPU $1.50 · CPU $0.10 · disk $0.05 · fee $0.20" */
export function formatBreakdown(b: Breakdown, exact = false): string {
  const f = exact ? formatUsdExact : formatUsd;
  return `GPU ${f(b.gpu)} · CPU ${f(b.cpu)} · disk ${f(b.disk)} · fee ${f(b.fee)}`;
}

/** A bucket's label by its size: "2026-06-15 13:00", "2026-06-15", "Week of 2026-06-15", "June 2026", "2026". */
export function bucketLabel(startTime: string, size: BucketSize): string {
  const iso = new Date(startTime).toISOString();
  switch (size) {
    case 'hour': return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    case 'day': return iso.slice(0, 10);
    case 'week': return `Week of ${iso.slice(0, 10)}`;
    case 'month': return iso.slice(0, 7);
    case 'year': return iso.slice(0, 4);
  }
}
