// The Endpoints tooltip's "where the money went" (issue 29): of an endpoint's billed amount, what this workspace's
// jobs executed and the rest, an estimate. Apart from ./flags.ts (Tune's panel, loaded on first use from
// dist/rooms.js) because the sidebar needs only this at activation, and extension.js carries what it imports.
import { formatUsd } from '../billing/usd';

/** The tooltip's lines: of the billed amount, what this workspace's jobs executed, and the rest (an estimate). */
export function tooltipSplit(billedUsd: number, ourExecutionSeconds: number, usdPerSecond: number | undefined): string | undefined {
  if (billedUsd <= 0 || ourExecutionSeconds <= 0 || usdPerSecond === undefined) return undefined;
  const ours = Math.min(billedUsd, ourExecutionSeconds * usdPerSecond);
  return `Where the money went (estimate): ${formatUsd(ours)} this workspace's jobs executing; ${formatUsd(billedUsd - ours)} worker starts, idle time and other traffic. Tune Endpoint… replays it under other settings.`;
}
