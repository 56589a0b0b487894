// What the Endpoints tree shows, computed from one billing table (../core/billing/billingTable.ts): endpoint
// nodes (billed endpoints, the account's endpoint list where the service has one, and the endpoints the user
// added) with their totals and buckets, sorted for display. No `vscode` import, so the bench times exactly
// this in plain Node, the merge is unit-tested there, and the tree items are thin wrappers around it.
import { publicModel, type PublicModel } from '../core/serverless/publicModels';
import { AMOUNTS_PER_ROW, type BillingTable, type TableAmounts } from '../core/billing/billingTable';
import type { BucketSize } from '../core/schemas';
import { bucketLines } from './bucketLines';

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
  readonly startMs: number;
  readonly endMs: number;
  readonly bucketSize: BucketSize;
  readonly amounts: Breakdown;
  /** Its money in one line, the tree item's description (bucketLines.ts). */
  readonly line: string;
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
  /** One of the platform's public models (src/core/serverless/publicModels.ts): billed here, in no list, not deleted. */
  readonly publicModel?: PublicModel;
  readonly amounts: Breakdown;
  /** How many buckets it has, known without making them (whether the item can be expanded). */
  readonly bucketCount: number;
  /** Newest first; made from the table's columns when first asked for (when the user expands the endpoint). */
  readonly buckets: BucketNode[];
}

export interface BillingTreeModel {
  /** Sorted by total, biggest first; zero-cost endpoints at the end (billed ones by id, then the added ones). */
  readonly endpoints: EndpointNode[];
  readonly window: { startTime: string; endTime: string; bucketSize: BucketSize };
  /** metadata.totals of the response (SPEC 4.1 rule 3), not our own sum. */
  readonly totals: Breakdown;
}

export function toBreakdown(a: TableAmounts): Breakdown {
  return { total: a.totalAmount, gpu: a.gpuAmount, cpu: a.cpuAmount, disk: a.diskAmount, fee: a.feeAmount };
}

function zero(): Breakdown {
  return { total: 0, gpu: 0, cpu: 0, disk: 0, fee: 0 };
}

/** What an endpoint node says of itself, apart from its buckets. */
type EndpointFacts = { -readonly [K in keyof Pick<EndpointNode, 'id' | 'displayName' | 'added' | 'listed' | 'deleted' | 'publicModel' | 'amounts'>]: EndpointNode[K] };

/** An endpoint whose bucket nodes are made on first use: a year by the hour is 8,760 of them per endpoint. */
function endpointNode(facts: EndpointFacts, table: BillingTable | undefined, row: number): EndpointNode {
  let made: BucketNode[] | undefined;
  const node: EndpointNode = {
    kind: 'endpoint',
    ...facts,
    bucketCount: table ? table.bucketOffsets[row + 1]! - table.bucketOffsets[row]! : 0,
    get buckets(): BucketNode[] {
      made ??= table ? bucketNodes(node, table, row) : [];
      return made;
    },
  };
  return node;
}

/**
 * A bucket read from the table's columns when asked: it holds its endpoint, the table, its row, its start and its
 * line, and is its own Breakdown (`amounts` is itself). A year by the hour makes 8,760 of them per endpoint
 * expanded, and every one is kept while the view lives: five fields rather than ten (its end and amounts are read
 * from the columns when a tooltip or the chart asks; its start, which every item's label and id read, is kept),
 * and `kind` on the prototype rather than on each.
 */
class TableBucketNode implements BucketNode, Breakdown {
  constructor(
    readonly parent: EndpointNode,
    private readonly table: BillingTable,
    private readonly row: number,
    readonly startMs: number,
    readonly line: string,
  ) {}

  get bucketSize(): BucketSize {
    return this.table.query.bucketSize;
  }
  get endMs(): number {
    return this.table.bucketEndMs[this.row]!;
  }
  get total(): number {
    return this.amount(0);
  }
  get gpu(): number {
    return this.amount(1);
  }
  get cpu(): number {
    return this.amount(2);
  }
  get disk(): number {
    return this.amount(3);
  }
  get fee(): number {
    return this.amount(4);
  }
  get kind(): 'bucket' {
    return 'bucket';
  }
  get amounts(): Breakdown {
    return this;
  }

  /** Its amount `k` in AMOUNT_KEYS order (total, GPU, CPU, disk, fee), from the table's column. */
  private amount(k: number): number {
    return this.table.bucketAmounts[this.row * AMOUNTS_PER_ROW + k]!;
  }
}

function bucketNodes(parent: EndpointNode, t: BillingTable, row: number): BucketNode[] {
  const from = t.bucketOffsets[row]!;
  const end = t.bucketOffsets[row + 1]!;
  // Made only when the endpoint is expanded, and then the tree asks every bucket's item for its line.
  const lines = bucketLines(t.bucketAmounts, from, end);
  const made = new Array<BucketNode>(end - from);
  for (let i = from; i < end; i++) made[i - from] = new TableBucketNode(parent, t, i, t.bucketStartMs[i]!, lines[i - from]!);
  return made;
}

/**
 * The table's endpoints (per-endpoint totals, sorted biggest first with zero-cost endpoints last, buckets newest
 * first); then the listed endpoints that had no records, zero-cost, by name; then the user's endpoints that are
 * in neither, in the order they were added.
 *
 * `listed` is the account's endpoint list, or undefined when the service has none (or the key may not read
 * it): then nothing is named or marked deleted, as before the list existed. A name the user gave when adding
 * an endpoint wins over the list's (it was chosen on purpose); a list name equal to the id is no name.
 */
export function buildBillingTree(
  table: BillingTable,
  added: readonly AddedEndpoint[] = [],
  listed?: readonly ListedEndpoint[],
): BillingTreeModel {
  const addedNames = new Map(added.map((a) => [a.id, a.displayName]));
  const listNames = new Map((listed ?? []).map((e) => [e.id, e.name]));
  const make = (id: string, amounts: Breakdown, row: number): EndpointNode => {
    const listName = listNames.get(id);
    const displayName = addedNames.get(id) || (listName && listName !== id ? listName : undefined);
    const isAdded = addedNames.has(id);
    const isListed = listNames.has(id);
    const model = publicModel(id);
    const facts: EndpointFacts = { id, added: isAdded, listed: isListed, deleted: listed !== undefined && !isListed && !isAdded && !model, amounts };
    if (model) facts.publicModel = model;
    const name = displayName ?? model?.name;
    if (name) facts.displayName = name;
    return endpointNode(facts, row >= 0 ? table : undefined, row);
  };
  const endpoints = table.endpoints.map((e, row) => make(e.id, toBreakdown(e), row));
  const shown = new Set(table.endpoints.map((e) => e.id));
  const unbilled = (listed ?? []).filter((e) => !shown.has(e.id)).map((e) => make(e.id, zero(), -1));
  unbilled.sort((a, b) => (a.displayName ?? a.id).localeCompare(b.displayName ?? b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const node of unbilled) {
    if (shown.has(node.id)) continue; // the reference does not promise unique ids: show each once
    shown.add(node.id);
    endpoints.push(node);
  }
  for (const a of added) if (!shown.has(a.id)) endpoints.push(make(a.id, zero(), -1));
  const q = table.query;
  return { endpoints, window: { startTime: q.startTime, endTime: q.endTime, bucketSize: q.bucketSize }, totals: toBreakdown(table.totals) };
}

/** A bucket's label by its size: "2026-06-15 13:00", "2026-06-15", "Week of 2026-06-15", "2026-06", "2026". */
export function bucketLabel(startTime: string | number, size: BucketSize): string {
  const ms = typeof startTime === 'number' ? startTime : Date.parse(startTime);
  // Every endpoint has the same bucket starts: 50 endpoints over a year share 365 labels, and formatting a
  // date was half the time of drawing a whole tree of buckets.
  const cache = labelCache[size];
  let label = cache.get(ms);
  if (label === undefined) {
    label = formatBucketLabel(ms, size);
    if (cache.size >= LABEL_CACHE_LIMIT) cache.clear();
    cache.set(ms, label);
  }
  return label;
}

const LABEL_CACHE_LIMIT = 50_000;
const labelCache: Record<BucketSize, Map<number, string>> = { hour: new Map(), day: new Map(), week: new Map(), month: new Map(), year: new Map() };

function formatBucketLabel(ms: number, size: BucketSize): string {
  const iso = new Date(ms).toISOString();
  switch (size) {
    case 'hour': return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
    case 'day': return iso.slice(0, 10);
    case 'week': return `Week of ${iso.slice(0, 10)}`;
    case 'month': return iso.slice(0, 7);
    case 'year': return iso.slice(0, 4);
  }
}
