// The ONE typed settings module: every `serverlessGpu.*` setting is read here and nowhere else, and one event
// says when any of them changed (STYLE.md "Settings and secrets"). Other features add a getter here.
//
// SECURITY: anything that decides where the API key is sent (the profiles and their base URLs) is declared
// `"scope": "application"` in package.json, so a workspace's .vscode/settings.json cannot set it, AND is read
// here from the user (global) value or the default only, via `inspect()`: even if a workspace or folder value
// exists (older editors, a hand-edited file, a remote), it is ignored. The profiles are also listed in
// `capabilities.untrustedWorkspaces.restrictedConfigurations`.
import * as vscode from 'vscode';
import { parseProfiles, type Profile } from './profileSettings';
import { pickOutputsDirectory, type OutputsDirectorySetting } from '../jobs/outputsLocation';

export const SECTION = 'serverlessGpu';

export const SettingKeys = {
  profiles: 'profiles',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  rateLimitWarningPercent: 'rateLimitWarningPercent',
  // Job runner (issue 5): where outputs go, whether URLs are downloaded, which files get a CodeLens, history size.
  jobsOutputsDirectory: 'jobs.outputsDirectory',
  jobsDownloadOutputs: 'jobs.downloadOutputs',
  jobsMaxDownloadMegabytes: 'jobs.maxDownloadMegabytes',
  jobsDownloadTimeoutSeconds: 'jobs.downloadTimeoutSeconds',
  jobsInputFilePattern: 'jobs.inputFilePattern',
  jobsHistoryLimit: 'jobs.historyLimit',
  // Local worker (issue 14): which Python runs the handler, and whether saving it restarts the worker.
  localWorkerPythonPath: 'localWorker.pythonPath',
  localWorkerRestartOnSave: 'localWorker.restartOnSave',
  // Batches (issue 23): the confirmation, the jobs in flight, the spend guard, the failure streak, GPU prices.
  batchConfirmAboveUsd: 'batch.confirmAboveUsd',
  batchConcurrency: 'batch.concurrency',
  batchMaxUsdPerBatch: 'batch.maxUsdPerBatch',
  batchMaxUsdPerHour: 'batch.maxUsdPerHour',
  batchFailureStreak: 'batch.failureStreak',
  batchGpuPrices: 'batch.gpuPrices',
} as const;

export { DEFAULT_PROFILE, checkBaseUrl, type Profile } from './profileSettings';

export interface SettingsChange {
  affects(key: keyof typeof SettingKeys): boolean;
}

export class Settings implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SettingsChange>();
  /** Fires when any `serverlessGpu.*` setting changed, with a test for which. */
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /**
   * The section as last read, until a change of it. A batch reads a few settings per job, and each
   * getConfiguration() copied the whole configuration: about a twentieth of all the extension host allocated in
   * the 10,000-job bench (issue 30). Created first in activate(), this listener runs before any feature's, so no
   * one reads the old copy after a change. A workspace's trust granted, or its folders changed, fire the same
   * event for the keys whose values change (VS Code's configuration service), so those need no listener here.
   */
  private cached: vscode.WorkspaceConfiguration | undefined;

  constructor() {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      this.cached = undefined;
      this.emitter.fire({ affects: (key) => e.affectsConfiguration(`${SECTION}.${SettingKeys[key]}`) });
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  private config(): vscode.WorkspaceConfiguration {
    return (this.cached ??= vscode.workspace.getConfiguration(SECTION));
  }

  /** The user's own value or the default; workspace and folder values are ignored (see the header). */
  private userOnly<T>(key: string): T | undefined {
    const info = this.config().inspect<T>(key);
    return info?.globalValue ?? info?.defaultValue;
  }

  /** Any scope's value (for settings that do not decide where the key goes). */
  private anyScope<T>(key: string, fallback: T): T {
    return this.config().get<T>(key, fallback);
  }

  /** User-defined profiles from settings, valid ones only; `problems` says what was skipped and why. */
  userProfiles(): { profiles: Profile[]; problems: string[] } {
    return parseProfiles(this.userOnly<unknown>(SettingKeys.profiles));
  }

  /** Per-request timeout in ms (default 30 s). */
  requestTimeoutMs(): number {
    const s = this.anyScope<number>(SettingKeys.requestTimeoutSeconds, 30);
    return Number.isFinite(s) && s > 0 ? Math.round(s * 1000) : 30_000;
  }

  /** Below this share (0..1) of a rate-limit window left, the status bar shows the remaining count. */
  rateLimitWarningShare(): number {
    const p = this.anyScope<number>(SettingKeys.rateLimitWarningPercent, 10);
    return Number.isFinite(p) ? Math.min(Math.max(p, 0), 100) / 100 : 0.1;
  }

  // --- Job runner (issue 5). None of these decides where the key goes: any scope may set them.
  /**
   * Outputs folder, relative to the workspace folder (or absolute), and whether the workspace set it. It decides
   * where files are written (issue 12), so in an untrusted workspace only the user's value counts (it is also in
   * `restrictedConfigurations`), and a workspace value outside the workspace is confirmed first (jobs/outputsRoot.ts).
   */
  outputsDirectory(): OutputsDirectorySetting {
    return pickOutputsDirectory(this.config().inspect<unknown>(SettingKeys.jobsOutputsDirectory), vscode.workspace.isTrusted);
  }
  /** Download https outputs of public endpoints (never with the API key). */
  downloadOutputs(): boolean {
    return this.anyScope<boolean>(SettingKeys.jobsDownloadOutputs, true) !== false;
  }
  maxDownloadBytes(): number {
    const mb = this.anyScope<number>(SettingKeys.jobsMaxDownloadMegabytes, 500);
    return (Number.isFinite(mb) && mb > 0 ? mb : 500) * 1024 * 1024;
  }
  downloadTimeoutMs(): number {
    const s = this.anyScope<number>(SettingKeys.jobsDownloadTimeoutSeconds, 120);
    return (Number.isFinite(s) && s > 0 ? s : 120) * 1000;
  }
  /** Glob of the files that get the Run CodeLens. */
  inputFilePattern(): string {
    const v = this.anyScope<string>(SettingKeys.jobsInputFilePattern, '**/*.input.json');
    return typeof v === 'string' && v.trim() ? v.trim() : '**/*.input.json';
  }
  historyLimit(): number {
    const n = this.anyScope<number>(SettingKeys.jobsHistoryLimit, 100);
    return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 100;
  }

  // --- Local worker (issue 14).
  /**
   * The Python that runs a local worker when the Python extension names none. It decides which program runs, so a
   * workspace may set it only when trusted (it is in `restrictedConfigurations` too).
   */
  localWorkerPythonPath(): string | undefined {
    const info = this.config().inspect<unknown>(SettingKeys.localWorkerPythonPath);
    const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    const fromWorkspace = vscode.workspace.isTrusted ? text(info?.workspaceFolderValue) ?? text(info?.workspaceValue) : undefined;
    return fromWorkspace ?? text(info?.globalValue);
  }
  localWorkerRestartOnSave(): boolean {
    return this.anyScope<boolean>(SettingKeys.localWorkerRestartOnSave, false) === true;
  }

  // --- Batches (issue 23). The money ones (confirmation, spend guard, prices) are read from the user's own
  // settings only: a cloned repository must not raise the limits that protect the user's balance.
  batchConfirmAboveUsd(): number {
    return nonNegative(this.userOnly<number>(SettingKeys.batchConfirmAboveUsd), 1);
  }
  /** 0: chosen from the endpoint (src/core/batch/concurrency.ts). */
  batchConcurrency(): number {
    return Math.floor(nonNegative(this.anyScope<number>(SettingKeys.batchConcurrency, 0), 0));
  }
  /** The spend guard and the failure streak; 0 in a setting means no limit (undefined here). */
  batchGuards(): { maxUsd?: number; maxUsdPerHour?: number; failureStreak?: number } {
    const perBatch = nonNegative(this.userOnly<number>(SettingKeys.batchMaxUsdPerBatch), 10);
    const perHour = nonNegative(this.userOnly<number>(SettingKeys.batchMaxUsdPerHour), 0);
    const streak = Math.floor(nonNegative(this.anyScope<number>(SettingKeys.batchFailureStreak, 5), 5));
    return { ...(perBatch > 0 ? { maxUsd: perBatch } : {}), ...(perHour > 0 ? { maxUsdPerHour: perHour } : {}), ...(streak > 0 ? { failureStreak: streak } : {}) };
  }
  /** The user's GPU prices (pool id -> USD per second), valid entries only. Only the user writes them: no price
   *  is ever learned from a bill (docs/batches.md). */
  batchGpuPrices(): Record<string, number> {
    const v = this.userOnly<unknown>(SettingKeys.batchGpuPrices);
    if (!v || typeof v !== 'object') return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] >= 0));
  }
}

function nonNegative(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}
