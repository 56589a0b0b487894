// After a change: the endpoint's release and its rollout in the Endpoints view ("rolling out: 2 of 3 workers on
// v4") until every worker runs the latest version. Shown as the view's message line (above the tree, so the
// tree's own model, whose items come from billing, stays untouched), from GET /v2/serverless/{id}/releases every
// 2 s; one watch per endpoint, a newer change replaces it. The last words stay a while after it is done.
import type { ServerlessEndpoint } from '../core/serverless/schemas';
import type { ListEndpointReleasesResponse } from '../core/serverless/resourceSchemas';
import type { ServiceClient } from '../core/service';
import type { FormsDeps } from './formsDeps';

const POLL_MS = 2000;
/** A rollout that never finishes (workers that never cycle) is not watched for ever. */
const GIVE_UP_MS = 15 * 60_000;
const DONE_SHOWN_MS = 15_000;

const watches = new Map<string, { stop(): void }>();
const lines = new Map<string, string>();
/** The lines shown, by endpoint (tests read them). */
export const rolloutLines: ReadonlyMap<string, string> = lines;

/** The rollout's words: `rolling out: 2 of 3 workers on v4`, or done. */
export function rolloutText(name: string, r: ListEndpointReleasesResponse): string {
  const v = r.endpointVersion ?? r.releases[0]?.version;
  const version = v === undefined || v === null ? 'the latest release' : `v${v}`;
  if (r.rollout.inProgress) return `${name}: rolling out: ${r.rollout.workersOnLatest} of ${r.rollout.workersTotal} workers on ${version}`;
  return `${name}: ${version}, every worker on it (${r.rollout.workersTotal} running)`;
}

function show(deps: FormsDeps): void {
  const view = deps.view();
  if (view) view.message = lines.size ? [...lines.values()].join(' · ') : undefined;
}

/** Follows `endpoint`'s rollout until done; one watch per endpoint. */
export function followRollout(deps: FormsDeps, client: ServiceClient, endpoint: ServerlessEndpoint): void {
  watches.get(endpoint.id)?.stop();
  const name = endpoint.name || endpoint.id;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    if (timer) clearTimeout(timer);
    watches.delete(endpoint.id);
  };
  const clearLater = (): void => {
    timer = setTimeout(() => {
      lines.delete(endpoint.id);
      show(deps);
      stop();
    }, DONE_SHOWN_MS);
  };
  const look = async (): Promise<void> => {
    if (stopped) return;
    try {
      const r = await client.listEndpointReleases(endpoint.id);
      if (stopped) return;
      lines.set(endpoint.id, rolloutText(name, r));
      show(deps);
      if (!r.rollout.inProgress || Date.now() - started > GIVE_UP_MS) return clearLater();
    } catch (e) {
      deps.logger.warn(`Rollout of ${endpoint.id} not read: ${e instanceof Error ? e.message : String(e)}`);
      return clearLater();
    }
    timer = setTimeout(() => void look(), POLL_MS);
  };
  watches.set(endpoint.id, { stop });
  void look();
}

/** Every watch stopped (the extension's dispose). */
export function stopRolloutWatches(): void {
  for (const w of [...watches.values()]) w.stop();
  lines.clear();
}
