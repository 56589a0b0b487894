// What the Endpoints tree shows, computed from one billing response: endpoint nodes (billing records, the
// account's endpoint list where the service has one, and the endpoints the user added) with their totals and
// buckets, sorted for display. No `vscode` import, so the bench times exactly this in plain Node, the merge is
// unit-tested there, and the tree items are thin wrappers around it.
import { aggregateBilling } from '../core/billing/aggregate';
import type { AmountKey, BillingAmounts, BucketSize, ListServerlessBillingResponse, ServerlessBillingRecord } from '../core/schemas';
import { formatUsd, formatUsdExact } from '../core/billing/usd';

export interface AddedEndpoint {
  id: string;
  displayName?: string;
}

/** An endpoint of the account's list (GET /v2/serverless): its id and the name the user gave it. */
export interface ListedEndpoint {
  id: string;
  name: string;
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
  /** The name to show: the one the user gave when adding it, else the endpoint list's (absent when it is the id). */
  readonly displayName?: string;
  /** Added by the user ("Add Endpoint"): can be removed; may have no billing records. */
  readonly added: boolean;
  /** In the account's endpoint list (false also when the service has no list: then nothing is known). */
  readonly listed: boolean;
  /**
   * Billed in the window but absent from the account's endpoint list: the endpoint was deleted. Only ever
   * true when a list was read; never for an endpoint the user added (public model ids are in no list).
   */
  readonly deleted: boolean;
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
 * zero-cost endpoints last, and each endpoint's buckets newest first); then the listed endpoints that had no
 * records, zero-cost, by name; then the user's endpoints that are in neither, in the order they were added.
 *
 * `listed` is the account's endpoint list, or undefined when the service has none (or the key may not read
 * it): then nothing is named or marked deleted, as before the list existed. A name the user gave when adding
 * an endpoint wins over the list's (it was chosen on purpose); a list name equal to the id is no name.
 */
export function buildBillingTree(
  response: ListServerlessBillingResponse,
  added: readonly AddedEndpoint[] = [],
  listed?: readonly ListedEndpoint[],
): BillingTreeModel {
  const addedNames = new Map(added.map((a) => [a.id, a.displayName]));
  const listNames = new Map((listed ?? []).map((e) => [e.id, e.name]));
  const aggregate = aggregateBilling(response);
  const bucketSize = response.metadata.query.bucketSize;
  const make = (id: string, sum: Breakdown, records: readonly ServerlessBillingRecord[]): EndpointNode => {
    const listName = listNames.get(id);
    const displayName = addedNames.get(id) || (listName && listName !== id ? listName : undefined);
    const isAdded = addedNames.has(id);
    const isListed = listNames.has(id);
    const node: { -readonly [K in keyof EndpointNode]: EndpointNode[K] } = {
      kind: 'endpoint', id, added: isAdded, listed: isListed, deleted: listed !== undefined && !isListed && !isAdded, amounts: sum, buckets: [],
    };
    if (displayName) node.displayName = displayName;
    node.buckets = records.map((r) => ({ kind: 'bucket', parent: node, startTime: r.startTime, endTime: r.endTime, bucketSize, amounts: toBreakdown(r) }));
    return node;
  };
  const endpoints = aggregate.endpoints.map((t) =>
    make(t.serverlessId, toBreakdown(t), aggregate.bucketsOf(t.serverlessId)));
  const shown = new Set(aggregate.endpoints.map((t) => t.serverlessId));
  const unbilled = (listed ?? []).filter((e) => !shown.has(e.id)).map((e) => make(e.id, zero(), []));
  unbilled.sort((a, b) => (a.displayName ?? a.id).localeCompare(b.displayName ?? b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const node of unbilled) {
    if (shown.has(node.id)) continue; // the reference does not promise unique ids: show each once
    shown.add(node.id);
    endpoints.push(node);
  }
  for (const a of added) if (!shown.has(a.id)) endpoints.push(make(a.id, zero(), []));
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
