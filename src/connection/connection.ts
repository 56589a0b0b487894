// The Connection: the active profile plus its key, handing out a ServiceClient for them. Every feature (the
// endpoints tree, the cost chart, the job runner) asks it for a client and listens to onDidChange, so a
// profile switch, a new key (from any window: secrets.onDidChange) or a settings change reaches all of them.
import * as vscode from 'vscode';
import type { Settings, Profile } from '../config/settings';
import type { RetryWait } from '../core/http/request';
import type { Logger } from '../core/log';
import type { ConnectionSettings, RateLimitSnapshot, ServiceClient } from '../core/service';
import type { ApiKeyStore } from './apiKeyStore';
import type { EmulatorLauncher } from './emulatorLauncher';
import { EMULATOR_DEMO_KEY, EMULATOR_PROFILE_NAME, ProfileRegistry } from './profiles';

export type ClientFactory = (settings: ConnectionSettings, logger: Logger) => ServiceClient;

export interface ConnectionOptions {
  settings: Settings;
  keys: ApiKeyStore;
  state: vscode.Memento;
  launcher: EmulatorLauncher;
  createClient: ClientFactory;
  logger: Logger;
}

export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The profile, its key or a connection setting changed: drop cached results and ask for a new client. */
  readonly onDidChange: vscode.Event<void> = this.changed.event;
  private readonly rateLimitsChanged = new vscode.EventEmitter<RateLimitSnapshot>();
  /** The active client saw new RateLimit headers (SPEC 8.2). */
  readonly onRateLimits: vscode.Event<RateLimitSnapshot> = this.rateLimitsChanged.event;
  private readonly retryWaits = new vscode.EventEmitter<RetryWait>();
  /** The active client is about to wait before a retry (a 429's Retry-After…): views say so (issue 12). */
  readonly onRetryWait: vscode.Event<RetryWait> = this.retryWaits.event;

  readonly profiles: ProfileRegistry;
  private client: { profile: Profile; key: string; timeoutMs: number; value: ServiceClient; unsubscribe: () => void } | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: ConnectionOptions) {
    this.profiles = new ProfileRegistry(options.settings, options.state, () => options.launcher.origin);
    this.disposables.push(
      this.changed,
      this.rateLimitsChanged,
      this.retryWaits,
      options.keys.onDidChange((profileName) => {
        if (profileName === this.profile.name) this.invalidate();
      }),
      options.settings.onDidChange((e) => {
        if (e.affects('profiles') || e.affects('requestTimeoutSeconds')) this.invalidate();
      }),
    );
  }

  dispose(): void {
    this.dropClient();
    for (const d of this.disposables) d.dispose();
  }

  get profile(): Profile {
    return this.profiles.active();
  }

  /** The latest rate-limit state of the active client (empty before its first response). */
  get rateLimits(): RateLimitSnapshot {
    return this.client?.value.rateLimits ?? {};
  }

  /** Keys to scrub from any text shown to the user (describeError's `secrets`). */
  secrets(): string[] {
    return this.options.keys.knownKeys();
  }

  async hasKey(profile: Profile = this.profile): Promise<boolean> {
    return (await this.options.keys.get(profile.name)) !== undefined;
  }

  /**
   * The client for the active profile and its key; undefined when there is no key (the tree then shows its
   * welcome view). For the emulator profile the emulator is started first if this window has not yet.
   */
  async getClient(): Promise<ServiceClient | undefined> {
    const profile = await this.readyProfile();
    const key = await this.options.keys.get(profile.name);
    if (!key) return undefined;
    const timeoutMs = this.options.settings.requestTimeoutMs();
    const cached = this.client;
    if (cached && cached.key === key && cached.timeoutMs === timeoutMs && sameHosts(cached.profile, profile)) return cached.value;
    this.dropClient();
    const value = this.clientFor(profile, key);
    const offRateLimits = value.onRateLimits((snapshot) => this.rateLimitsChanged.fire(snapshot));
    const offWaits = value.onRetryWait((wait) => this.retryWaits.fire(wait));
    const unsubscribe = (): void => {
      offRateLimits();
      offWaits();
    };
    this.client = { profile, key, timeoutMs, value, unsubscribe };
    return value;
  }

  /** The active profile, with the local emulator started first if it is the emulator's and not running yet. */
  async readyProfile(): Promise<Profile> {
    if (this.profile.name === EMULATOR_PROFILE_NAME && !this.options.launcher.origin) await this.options.launcher.start();
    return this.profile;
  }

  /** A client for a key that is not stored yet (Set API Key checks the key with it before storing). */
  clientFor(profile: Profile, apiKey: string): ServiceClient {
    return this.options.createClient(
      { billingBaseUrl: profile.billingBaseUrl, jobsBaseUrl: profile.jobsBaseUrl, apiKey, timeoutMs: this.options.settings.requestTimeoutMs() },
      this.options.logger,
    );
  }

  async setApiKey(key: string, profile: Profile = this.profile): Promise<void> {
    await this.options.keys.set(profile.name, key);
    // secrets.onDidChange also fires, but not synchronously: invalidate now so the next getClient sees it.
    if (profile.name === this.profile.name) this.invalidate();
  }

  async clearApiKey(profile: Profile = this.profile): Promise<void> {
    await this.options.keys.delete(profile.name);
    if (profile.name === this.profile.name) this.invalidate();
  }

  async switchProfile(name: string): Promise<void> {
    if (name === this.profiles.activeName()) return;
    await this.profiles.setActive(name);
    this.invalidate();
  }

  /** "Use Local Emulator": start it, store its demo key for its profile, make it active. Returns its origin. */
  async useLocalEmulator(): Promise<string> {
    const origin = await this.options.launcher.start();
    await this.options.keys.set(EMULATOR_PROFILE_NAME, EMULATOR_DEMO_KEY);
    await this.profiles.setActive(EMULATOR_PROFILE_NAME);
    this.invalidate();
    return origin;
  }

  /** The emulator stopped on its own: a client pointing at its dead port must not be reused. */
  emulatorExited(): void {
    if (this.profile.name === EMULATOR_PROFILE_NAME) this.invalidate();
  }

  private invalidate(): void {
    this.dropClient();
    this.changed.fire();
  }

  private dropClient(): void {
    this.client?.unsubscribe();
    this.client = undefined;
  }
}

function sameHosts(a: Profile, b: Profile): boolean {
  return a.name === b.name && a.billingBaseUrl === b.billingBaseUrl && a.jobsBaseUrl === b.jobsBaseUrl;
}
