// The words of an endpoint change, shared by the Edit Endpoint form (live, as the user types), the confirmation
// before a PATCH and Tune Endpoint (issue 29, through applyEndpointChange): the diff, one line per setting
// (`workers.max 3 → 5`, `idleTimeout 60 s → 5 s`), and what it means in money from the GPU catalog
// ("$X a day always on", each pool's price per hour). No `vscode` import: the webview bundles it too.
import { formatUsd } from '../core/billing/usd';
import { describeChanges, type EndpointSettings, type SettingChange } from '../core/serverless/endpointEdit';
import { moneyOfChange, type MoneyOfChange } from '../core/serverless/endpointMoney';
import type { GpuType } from '../core/serverless/resourceSchemas';

export interface ChangeText {
  diff: string[];
  money: string[];
  raisesAlwaysOn: boolean;
}

/** Money as every view writes it (issue 32: the one formatter), so the form, its dialog and Tune agree. */
const usd = formatUsd;

const perDay = (n: number | undefined): string => (n === undefined ? 'an unknown amount (a pool without a catalog price)' : `${usd(n)} a day`);

/** The money lines of a change, from the catalog's numbers. */
export function moneyLines(m: MoneyOfChange, before: EndpointSettings, after: EndpointSettings): string[] {
  const lines: string[] = [];
  const b = m.alwaysOnPerDay.before;
  const a = m.alwaysOnPerDay.after;
  if (b !== a || before.workersMin !== after.workersMin) {
    lines.push(`Always on: ${perDay(b)} → ${perDay(a)} (workers min ${after.workersMin} × ${m.workerPerHour.after === undefined ? 'unknown' : `${usd(m.workerPerHour.after)}/h`} × 24 h), billed even with no job`);
  } else if (a !== undefined && a > 0) {
    lines.push(`Always on: ${perDay(a)} (unchanged)`);
  }
  if (m.workerPerHour.before !== m.workerPerHour.after) {
    const w = (n: number | undefined): string => (n === undefined ? 'unknown' : `${usd(n)}/h`);
    lines.push(`A busy worker: ${w(m.workerPerHour.before)} → ${w(m.workerPerHour.after)}`);
  }
  for (const p of m.pools) lines.push(`Pool ${p.pool}: ${p.perHour === undefined ? 'no catalog price' : `${usd(p.perHour)} per GPU per hour`}`);
  return lines;
}

/** The diff and the money of going from `before` to `after` (the catalog missing: no money lines). */
export function changeText(before: EndpointSettings, after: EndpointSettings, catalog: readonly GpuType[] | undefined): ChangeText & { changes: SettingChange[] } {
  const changes = describeChanges(before, after);
  if (!catalog) return { changes, diff: changes.map((c) => c.text), money: ['Prices unknown: the GPU catalog could not be read.'], raisesAlwaysOn: after.workersMin > before.workersMin };
  const m = moneyOfChange(catalog, before, after);
  return { changes, diff: changes.map((c) => c.text), money: moneyLines(m, before, after), raisesAlwaysOn: m.raisesAlwaysOn };
}
