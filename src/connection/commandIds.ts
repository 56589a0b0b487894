// The ids of the sidebar's commands, in one place, so describeError's actions, the tree's items, the
// manifest and the tests cannot disagree. Every command of the extension lives under `serverlessGpu.`.
export const COMMAND_PREFIX = 'serverlessGpu';

export const Commands = {
  setApiKey: 'serverlessGpu.setApiKey',
  clearApiKey: 'serverlessGpu.clearApiKey',
  switchProfile: 'serverlessGpu.switchProfile',
  useLocalEmulator: 'serverlessGpu.useLocalEmulator',
  refreshEndpoints: 'serverlessGpu.refreshEndpoints',
  addEndpoint: 'serverlessGpu.addEndpoint',
  removeEndpoint: 'serverlessGpu.removeEndpoint',
  changeBillingWindow: 'serverlessGpu.changeBillingWindow',
  showCostChart: 'serverlessGpu.showCostChart',
  /** The view title's chart: the whole account, whatever item is selected (issue 22). */
  showAccountCostChart: 'serverlessGpu.showAccountCostChart',
  purgeQueue: 'serverlessGpu.purgeQueue',
  /** Owned by the logging module (extension.ts): reveals the output channel. */
  showLogs: 'serverlessGpu.showLogs',
  /** Opens the Settings UI filtered to the extension. */
  openSettings: 'workbench.action.openSettings',
} as const;
