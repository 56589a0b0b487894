// The words of each tree item (label, description, tooltip), separate from the vscode TreeItem classes so
// the bench measures them in plain Node and the items stay one-liners. No `vscode` import.
import { BUCKET_ADJECTIVE, describeRange } from './billingWindow';
import { bucketLabel, formatBreakdown, type BillingTreeModel, type BucketNode, type EndpointNode } from './billingTreeModel';
import { formatUsd, formatUsdExact } from '../core/billing/usd';

// Tooltips are separate: the tree computes them only when the user hovers (resolveTreeItem), since a
// year of daily buckets is 18,000 tooltips nobody reads.
export interface ItemText {
  label: string;
  description: string;
}

export function endpointText(node: EndpointNode): ItemText {
  return { label: node.displayName ?? node.id, description: formatUsd(node.amounts.total) };
}

export function endpointTooltip(node: EndpointNode, window: BillingTreeModel['window']): string {
  return [
    node.displayName ? `${node.displayName} (${node.id})` : node.id,
    `Total ${formatUsdExact(node.amounts.total)}`,
    formatBreakdown(node.amounts, true),
    `${describeRange(window)}, ${BUCKET_ADJECTIVE[window.bucketSize]}`,
  ].join('\n');
}

export function bucketText(node: BucketNode): ItemText {
  const a = node.amounts;
  // The service emits every bucket of the window for each endpoint: an idle one reads "$0.00", not five zeros.
  if (a.total === 0 && a.gpu === 0 && a.cpu === 0 && a.disk === 0 && a.fee === 0) return { label: bucketLabel(node.startTime, node.bucketSize), description: formatUsd(0) };
  return {
    label: bucketLabel(node.startTime, node.bucketSize),
    description: `${formatUsd(node.amounts.total)} · ${formatBreakdown(node.amounts)}`,
  };
}

export function bucketTooltip(node: BucketNode): string {
  return `${node.startTime} – ${node.endTime}\nTotal ${formatUsdExact(node.amounts.total)}\n${formatBreakdown(node.amounts, true)}`;
}
