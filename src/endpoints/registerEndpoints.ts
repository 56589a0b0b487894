// Registers the Endpoints view (tree, its commands) and the cost chart, and feeds the window's total to
// the profile status bar: the total of each refresh, else the last one kept for the profile (with its age).
import * as vscode from 'vscode';
import type { Logger } from '../core/log';
import { Commands } from '../connection/commandIds';
import { guardCommand } from '../errors/notify';
import type { Connection } from '../connection/connection';
import type { ProfileStatusBar } from '../connection/profileStatusBar';
import type { CostChartPanel } from '../costChart/costChartPanel';
import { COST_CHART_VIEW_TYPE } from '../costChart/viewType';
import { rooms } from '../rooms/rooms';
import { AddedEndpoints } from './addedEndpoints';
import { formatUsd } from '../core/billing/usd';
import { AccountTotals } from './accountTotal';
import { parseStoredWindow } from './billingWindow';
import { addEndpoint, changeBillingWindow, modalConfirm, purgeQueue, removeEndpoint, type Confirm } from './endpointCommands';
import { endpointIdOf } from './endpointItems';
import { EndpointsTree, NO_KEY_CONTEXT } from './endpointsTree';
import { showBillingWaits } from './billingWaitNotice';

export interface EndpointsServices {
  tree: EndpointsTree;
  view: vscode.TreeView<unknown>;
  /** The cost chart: its room (dist/rooms.js) is loaded on first use. */
  readonly chart: CostChartPanel;
  /**
   * How Purge Queue asks (a modal). Replaced by the real-editor tests only: VS Code refuses modal dialogs to an
   * extension under test ("DialogService: refused to show dialog in tests"), so they answer here instead.
   */
  confirm: Confirm;
}

export function registerEndpoints(context: vscode.ExtensionContext, connection: Connection, statusBar: ProfileStatusBar, logger: Logger): EndpointsServices {
  const added = new AddedEndpoints(context.globalState);
  const tree = new EndpointsTree(connection, added, context.globalState, logger);
  const view = tree.createView();
  let panel: CostChartPanel | undefined;
  const chart = (): CostChartPanel => (panel ??= new (rooms().costChart.CostChartPanel)(context.extensionUri, tree, logger));
  const services: EndpointsServices = { tree, view: view as vscode.TreeView<unknown>, get chart() { return chart(); }, confirm: modalConfirm };
  const guard = <A extends unknown[], R>(fn: (...a: A) => R | Promise<R>) => guardCommand(fn, logger, () => connection.secrets());
  // The status bar's total: a refresh's, kept for the next window; without one (a new window, another profile, an
  // error), the last kept for this profile and window, marked with its age. Read from globalState only.
  const totals = new AccountTotals(context.globalState);
  const showTotal = (loaded: { model: { totals: { total: number } } } | undefined): void => {
    const profile = connection.profile.name;
    if (loaded) {
      void totals.remember(profile, tree.window, loaded.model.totals.total);
      statusBar.setTotal(formatUsd(loaded.model.totals.total));
    } else {
      const kept = totals.recall(profile, tree.window);
      statusBar.setTotal(kept?.text, kept?.asOf);
    }
  };
  showTotal(tree.loaded);
  // Until the first refresh says otherwise, assume a key exists: the welcome view must not flash.
  void vscode.commands.executeCommand('setContext', NO_KEY_CONTEXT, false);
  context.subscriptions.push(
    tree,
    { dispose: () => panel?.dispose() },
    tree.onDidLoad(showTotal),
    connection.onDidChange(() => showTotal(tree.loaded)),
    showBillingWaits(view as vscode.TreeView<unknown>, connection),
    vscode.commands.registerCommand(Commands.refreshEndpoints, guard(() => tree.refresh())),
    vscode.commands.registerCommand(Commands.addEndpoint, guard((id?: unknown, name?: unknown) =>
      addEndpoint(tree, connection, added, typeof id === 'string' ? id : undefined, typeof name === 'string' ? name : undefined))),
    vscode.commands.registerCommand(Commands.removeEndpoint, guard((arg?: unknown) => removeEndpoint(tree, connection, added, arg))),
    vscode.commands.registerCommand(Commands.changeBillingWindow, guard((w?: unknown) => changeBillingWindow(tree, w === undefined ? undefined : parseStoredWindow(w)))),
    // An endpoint's chart comes from its item; the view title's button draws the account, stacked by endpoint
    // (VS Code may hand a view-title command the selected item, which must not narrow it).
    vscode.commands.registerCommand(Commands.showCostChart, guard((arg?: unknown) => chart().show(endpointIdOf(arg)))),
    vscode.commands.registerCommand(Commands.showAccountCostChart, guard(() => chart().show(undefined, true))),
    vscode.commands.registerCommand(Commands.purgeQueue, guard((arg?: unknown) => purgeQueue(tree, connection, arg, services.confirm))),
    vscode.window.registerWebviewPanelSerializer(COST_CHART_VIEW_TYPE, {
      deserializeWebviewPanel: async (restored, state) => chart().restore(restored, state),
    }),
  );
  return services;
}
