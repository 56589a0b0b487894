// The words of each tree item (label, description, tooltip), separate from the vscode TreeItem classes so
// the bench measures them in plain Node and the items stay one-liners. No `vscode` import.
import { BUCKET_ADJECTIVE, describeRange } from './billingWindow';
import { bucketLabel, type BillingTreeModel, type BucketNode, type EndpointNode } from './billingTreeModel';
import { formatUsd } from '../core/billing/usd';
import { formatBreakdown } from './bucketLines';
import { isoFromMs } from '../core/billing/billingTable';
import { healthSummary, healthTooltip, type HealthLook } from './healthText';

// Tooltips are separate: the tree computes them only when the user hovers (resolveTreeItem), since a
// year of daily buckets is 18,000 tooltips nobody reads.
export interface ItemText {
  label: string;
  description: string;
}

/**
 * The name as the label; the description says the id (when a name hides it), the window's cost, "deleted" for
 * an endpoint that is only in billing, and the live health when there is something to say:
 * "sd35-large · $0.00 · 1 starting · 3 in queue".
 */
export function endpointText(node: EndpointNode, health?: HealthLook): ItemText {
  const parts = [formatUsd(node.amounts.total)];
  if (node.displayName) parts.unshift(node.id);
  if (node.deleted) parts.push('deleted');
  if (node.publicModel?.price) parts.push(node.publicModel.price);
  const live = health ? healthSummary(health.health) : '';
  if (live) parts.push(live);
  return { label: node.displayName ?? node.id, description: parts.join(' · ') };
}

export function endpointTooltip(node: EndpointNode, window: BillingTreeModel['window'], health?: HealthLook, moneySplit?: string): string {
  const lines = [
    node.displayName ? `${node.displayName} (${node.id})` : node.id,
  ];
  if (node.deleted) lines.push('Deleted: billed in this window, but no longer in the account\'s endpoint list');
  if (node.publicModel) {
    const m = node.publicModel;
    lines.push(`Public model (${m.kind}), hosted by the platform and billed to this account per use${m.price ? `: ${m.price}` : ''}`, `Source: ${m.source}`);
  }
  const money = formatBreakdown(node.amounts);
  lines.push(
    `Total ${money.total}`,
    money.parts,
    ...(moneySplit ? [moneySplit] : []),
    `${describeRange(window)}, ${BUCKET_ADJECTIVE[window.bucketSize]}`,
  );
  if (health) lines.push(healthTooltip(health));
  return lines.join('\n');
}

export function bucketText(node: BucketNode): ItemText {
  return { label: bucketLabel(node.startMs, node.bucketSize), description: node.line };
}

export function bucketTooltip(node: BucketNode): string {
  const money = formatBreakdown(node.amounts);
  return `${isoFromMs(node.startMs)} – ${isoFromMs(node.endMs)}\nTotal ${money.total}\n${money.parts}`;
}
