// Changing an endpoint's settings (issue 28, Core): what the Edit Endpoint form sends and says. A PATCH body
// holds exactly the fields the user changed, so a field the user did not touch can never be overwritten with a
// stale value. GPU pools and excluded types are one selection (the reference: "supplying `pools` replaces that
// selection wholesale, so a PATCH sending pools without excludedTypes clears them"; the official MCP server's
// update-endpoint warns of the same): both are sent together, restating the exclusions, or neither is. The
// endpoint is read first (a change made elsewhere since the form opened stops the edit: EditConflictError) and
// read back after, and what actually changed is said from the two reads, not from what was asked.
import type { CallOptions } from '../http/connectionSettings';
import type { UpdateEndpointRequest } from './requestSchemas';
import type { ServerlessCalls } from './client';
import type { ServerlessEndpoint } from './schemas';

/** The settings the form edits, flat, in the reference's units. */
export interface EndpointSettings {
  name: string;
  workersMin: number;
  workersMax: number;
  /** Seconds, 1..3600; undefined on a queue endpoint scaling on REQUEST_COUNT (the service omits it). */
  idleTimeout: number | undefined;
  scalerType: 'QUEUE_DELAY' | 'REQUEST_COUNT';
  /** queueDelay (seconds, >= 0.5) or requestCount (>= 1), by scalerType. */
  scalerValue: number;
  /** Execution timeout, ms. */
  timeout: number;
  gpuPools: string[];
  gpuExcludedTypes: string[];
  gpuCount: number;
  flashboot: 'OFF' | 'FLASHBOOT' | 'PRIORITY_FLASHBOOT';
  image: string;
  env: Record<string, string>;
}

export type SettingName = keyof EndpointSettings;

/** The form's settings of an endpoint as the service shows it. */
export function settingsOf(e: ServerlessEndpoint): EndpointSettings {
  const requestCount = e.scaling.type === 'REQUEST_COUNT';
  return {
    name: e.name,
    workersMin: e.workers.min ?? 0,
    workersMax: e.workers.max ?? 0,
    idleTimeout: e.workers.idleTimeout,
    scalerType: requestCount ? 'REQUEST_COUNT' : 'QUEUE_DELAY',
    scalerValue: (requestCount ? e.scaling.requestCount : e.scaling.queueDelay) ?? 0,
    timeout: e.timeout,
    gpuPools: [...(e.gpu?.pools ?? [])],
    gpuExcludedTypes: [...(e.gpu?.excludedTypes ?? [])],
    gpuCount: e.gpu?.count ?? 1,
    flashboot: e.flashboot as EndpointSettings['flashboot'],
    image: e.image ?? '',
    env: { ...(e.env ?? {}) },
  };
}

/**
 * A pool selection as the user's preference order: the pools the endpoint had keep their order, pools newly
 * picked follow in the order given. A form listing pools in the catalog's order (checkboxes) must not reorder
 * the endpoint's pools by itself: the order is the user's fallback preference (the first pool is where workers
 * land first, and the emulator bills at it), so an untouched selection stays exactly the same list.
 */
export function keepPoolOrder(current: readonly string[], picked: readonly string[]): string[] {
  const chosen = new Set(picked);
  const kept = current.filter((p) => chosen.has(p));
  const had = new Set(current);
  return [...new Set([...kept, ...picked.filter((p) => !had.has(p))])];
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return same(ka, kb) && ka.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
  }
  return a === b;
}

/** The settings whose values differ between `a` and `b` (only those named in `b`). */
export function changedSettings(a: EndpointSettings, b: Partial<EndpointSettings>): SettingName[] {
  return (Object.keys(b) as SettingName[]).filter((k) => b[k] !== undefined && !same(a[k], b[k]));
}

/**
 * The PATCH body for going from `current` to `wanted`: exactly the changed fields. Pools and exclusions go
 * together when either changed (the other restated from `current`), and neither when neither did.
 */
export function patchFor(current: EndpointSettings, wanted: Partial<EndpointSettings>): UpdateEndpointRequest {
  const changed = new Set(changedSettings(current, wanted));
  const next = { ...current, ...Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined)) } as EndpointSettings;
  const body: UpdateEndpointRequest = {};
  if (changed.has('name')) body.name = next.name;
  const workers: NonNullable<UpdateEndpointRequest['workers']> = {};
  if (changed.has('workersMin')) workers.min = next.workersMin;
  if (changed.has('workersMax')) workers.max = next.workersMax;
  if (changed.has('idleTimeout') && next.idleTimeout !== undefined) workers.idleTimeout = next.idleTimeout;
  if (Object.keys(workers).length) body.workers = workers;
  if (changed.has('scalerType') || changed.has('scalerValue')) {
    body.scaling = next.scalerType === 'REQUEST_COUNT'
      ? { type: 'REQUEST_COUNT', requestCount: next.scalerValue }
      : { type: 'QUEUE_DELAY', queueDelay: next.scalerValue };
  }
  if (changed.has('timeout')) body.timeout = next.timeout;
  if (changed.has('flashboot')) body.flashboot = next.flashboot;
  const gpu: NonNullable<UpdateEndpointRequest['gpu']> = {};
  if (changed.has('gpuPools') || changed.has('gpuExcludedTypes')) {
    gpu.pools = [...next.gpuPools];
    gpu.excludedTypes = [...next.gpuExcludedTypes];
  }
  if (changed.has('gpuCount')) gpu.count = next.gpuCount;
  if (Object.keys(gpu).length) body.gpu = gpu;
  if (changed.has('image')) body.image = next.image;
  if (changed.has('env')) body.env = { ...next.env };
  return body;
}

/** One changed setting, old and new, and its words: `workers.max 3 → 5`, `idleTimeout 60 s → 5 s`. */
export interface SettingChange {
  setting: SettingName;
  old: unknown;
  new: unknown;
  text: string;
}

const LABEL: Record<SettingName, string> = {
  name: 'name', workersMin: 'workers.min', workersMax: 'workers.max', idleTimeout: 'idleTimeout', scalerType: 'scaler',
  scalerValue: 'scaler value', timeout: 'execution timeout', gpuPools: 'GPU pools', gpuExcludedTypes: 'excluded GPU types',
  gpuCount: 'GPUs per worker', flashboot: 'flashboot', image: 'image', env: 'environment',
};

function shown(setting: SettingName, v: unknown): string {
  if (v === undefined) return '(none)';
  if (setting === 'idleTimeout') return `${v as number} s`;
  if (setting === 'timeout') return `${(v as number) / 1000} s`;
  if (Array.isArray(v)) return v.length ? v.join(', ') : '(none)';
  if (typeof v === 'object' && v) return Object.entries(v).map(([k, x]) => `${k}=${String(x)}`).join(' ') || '(none)';
  return String(v);
}

/** What differs between two reads of an endpoint, in the form's words. */
export function describeChanges(before: EndpointSettings, after: EndpointSettings): SettingChange[] {
  return changedSettings(before, after).map((setting) => ({
    setting, old: before[setting], new: after[setting],
    text: `${LABEL[setting]} ${shown(setting, before[setting])} → ${shown(setting, after[setting])}`,
  }));
}

/** The endpoint changed elsewhere since the form read it: nothing was sent; `changes` says what moved. */
export class EditConflictError extends Error {
  constructor(readonly changes: SettingChange[], readonly current: ServerlessEndpoint) {
    super(`The endpoint was changed elsewhere since you opened it (${changes.map((c) => c.text).join('; ')}). Nothing was sent: review the new values and apply again.`);
    this.name = 'EditConflictError';
  }
}

export interface EditResult {
  /** The PATCH body sent (empty: nothing to change, nothing sent). */
  sent: UpdateEndpointRequest;
  before: ServerlessEndpoint;
  after: ServerlessEndpoint;
  /** What actually changed, from the read before and the read after. */
  changed: SettingChange[];
  /** Settings asked for that the service did not take (read back with another value). */
  notApplied: SettingName[];
}

/**
 * Applies `wanted` to the endpoint: reads it; if `base` (the endpoint as the form showed it) is given and a
 * setting changed since, throws EditConflictError without sending; sends the PATCH of exactly the changed
 * fields; reads it back and says what changed.
 */
export async function editEndpoint(
  calls: Pick<ServerlessCalls, 'getEndpoint' | 'updateEndpoint'>, endpointId: string, wanted: Partial<EndpointSettings>,
  base?: ServerlessEndpoint, options: CallOptions = {},
): Promise<EditResult> {
  const before = await calls.getEndpoint(endpointId, options);
  if (base) {
    const moved = describeChanges(settingsOf(base), settingsOf(before));
    if (moved.length) throw new EditConflictError(moved, before);
  }
  const current = settingsOf(before);
  const sent = patchFor(current, wanted);
  if (!Object.keys(sent).length) return { sent, before, after: before, changed: [], notApplied: [] };
  await calls.updateEndpoint(endpointId, sent, options);
  const after = await calls.getEndpoint(endpointId, options);
  const result = settingsOf(after);
  const notApplied = changedSettings(current, wanted).filter((k) => !same(result[k], wanted[k]));
  return { sent, before, after, changed: describeChanges(current, result), notApplied };
}
