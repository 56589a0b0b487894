// The Endpoints tree's items: one TreeItem subclass per node kind, each with the contextValue the manifest's
// view/item/context menus key on (STYLE.md "Trees").
import * as vscode from 'vscode';
import type { ErrorDescription } from '../errors/describeError';
import { BUCKET_ADJECTIVE, describeRange } from './billingWindow';
import { bucketLabel, formatBreakdown, formatUsd, formatUsdExact, type BucketNode, type EndpointNode } from './billingTreeModel';

export const ContextValues = {
  /** An endpoint from the billing records only. */
  endpoint: 'endpoint',
  /** An endpoint the user added: can be removed. */
  addedEndpoint: 'endpoint.added',
  bucket: 'bucket',
  error: 'error',
  warning: 'warning',
  info: 'info',
} as const;

export interface MessageNode {
  readonly kind: 'message';
  readonly severity: 'error' | 'warning' | 'info';
  readonly description: ErrorDescription | { message: string; actions: ErrorDescription['actions'] };
}

export type TreeNode = EndpointNode | BucketNode | MessageNode;

export class EndpointItem extends vscode.TreeItem {
  constructor(readonly node: EndpointNode, window: { startTime: string; endTime: string; bucketSize: BucketNode['bucketSize'] }) {
    super(node.displayName ?? node.id, node.buckets.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    this.id = `endpoint:${node.id}`;
    this.description = formatUsd(node.amounts.total);
    this.contextValue = node.added ? ContextValues.addedEndpoint : ContextValues.endpoint;
    this.iconPath = new vscode.ThemeIcon(node.amounts.total > 0 ? 'server-process' : 'server');
    const tip = new vscode.MarkdownString(undefined, false);
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendText(`${node.displayName ? `${node.displayName} (${node.id})` : node.id}\n\n`);
    tip.appendText(`Total ${formatUsdExact(node.amounts.total)}\n\n`);
    tip.appendText(`${formatBreakdown(node.amounts, true)}\n\n`);
    tip.appendText(`${describeRange(window)}, ${BUCKET_ADJECTIVE[window.bucketSize]}`);
    this.tooltip = tip;
  }
}

export class BucketItem extends vscode.TreeItem {
  constructor(readonly node: BucketNode) {
    super(bucketLabel(node.startTime, node.bucketSize), vscode.TreeItemCollapsibleState.None);
    this.id = `bucket:${node.parent.id}:${node.startTime}`;
    this.description = `${formatUsd(node.amounts.total)} · ${formatBreakdown(node.amounts)}`;
    this.contextValue = ContextValues.bucket;
    this.tooltip = `${node.startTime} – ${node.endTime}\nTotal ${formatUsdExact(node.amounts.total)}\n${formatBreakdown(node.amounts, true)}`;
    this.iconPath = new vscode.ThemeIcon('calendar');
  }
}

/** An error or a warning, in the tree itself, with its first action on click (never a modal). */
export class MessageItem extends vscode.TreeItem {
  constructor(readonly node: MessageNode) {
    super(node.description.message, vscode.TreeItemCollapsibleState.None);
    this.id = `message:${node.severity}:${node.description.message}`;
    this.contextValue = ContextValues[node.severity];
    this.iconPath = node.severity === 'info'
      ? new vscode.ThemeIcon('info')
      : new vscode.ThemeIcon(node.severity, new vscode.ThemeColor(node.severity === 'error' ? 'list.errorForeground' : 'list.warningForeground'));
    this.tooltip = node.description.message;
    const action = node.description.actions[0];
    if (action) {
      this.description = action.title;
      this.command = { title: action.title, command: action.command, arguments: action.args ?? [] };
    }
  }
}

/** The endpoint id of a command argument: a tree item (context menu), a node, or a plain id. */
export function endpointIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof EndpointItem) return arg.node.id;
  if (typeof arg === 'object' && arg !== null && (arg as EndpointNode).kind === 'endpoint') return (arg as EndpointNode).id;
  return undefined;
}
