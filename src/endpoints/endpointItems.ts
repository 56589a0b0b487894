// The Endpoints tree's items: one TreeItem subclass per node kind, each with the contextValue the manifest's
// view/item/context menus key on (STYLE.md "Trees").
import * as vscode from 'vscode';
import type { ErrorDescription } from '../errors/describeError';
import type { HealthLook } from './healthText';
import type { BucketNode, EndpointNode } from './billingTreeModel';
import { bucketText, endpointText } from './itemText';
import { formatUsd } from '../core/billing/usd';

export const ContextValues = {
  /** An endpoint from the billing records only. */
  endpoint: 'endpoint',
  /** An endpoint the user added: can be removed. */
  addedEndpoint: 'endpoint.added',
  /** Billed in the window but gone from the account's endpoint list: no jobs, no queue to purge. */
  deletedEndpoint: 'endpoint.deleted',
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

/** "Public models": the platform's models billed to the account (or offered to it), apart from its own endpoints. */
export interface PublicModelsNode {
  readonly kind: 'publicModels';
  readonly endpoints: readonly EndpointNode[];
}

export type TreeNode = EndpointNode | BucketNode | MessageNode | PublicModelsNode;

export class PublicModelsItem extends vscode.TreeItem {
  constructor(readonly node: PublicModelsNode) {
    super('Public models', vscode.TreeItemCollapsibleState.Expanded);
    this.id = 'publicModels';
    const total = node.endpoints.reduce((sum, e) => sum + e.amounts.total, 0);
    this.description = formatUsd(total);
    this.tooltip = 'Models the platform hosts (Public Endpoints): billed to this account per use, never in its endpoint list.';
    this.contextValue = 'publicModels';
    this.iconPath = new vscode.ThemeIcon('globe');
  }
}

export class EndpointItem extends vscode.TreeItem {
  constructor(readonly node: EndpointNode, health?: HealthLook) {
    const text = endpointText(node, health);
    super(text.label, node.bucketCount ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    this.id = `endpoint:${node.id}`;
    this.description = text.description;
    this.contextValue = node.added ? ContextValues.addedEndpoint : node.deleted ? ContextValues.deletedEndpoint : ContextValues.endpoint;
    this.iconPath = node.deleted
      ? new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground'))
      : new vscode.ThemeIcon(node.publicModel ? 'globe' : node.amounts.total > 0 ? 'server-process' : 'server');
  }
}

export class BucketItem extends vscode.TreeItem {
  constructor(readonly node: BucketNode) {
    const text = bucketText(node);
    super(text.label, vscode.TreeItemCollapsibleState.None);
    this.id = `bucket:${node.parent.id}:${node.startMs}`;
    this.description = text.description;
    this.contextValue = ContextValues.bucket;
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
