// The API key's only home: SecretStorage, one entry per connection profile (STYLE.md "Settings and
// secrets"). Reads are wrapped so a broken secret store (a locked keyring, a browser that refuses storage)
// becomes a clear message instead of an exception in the extension host.
import * as vscode from 'vscode';

const KEY_PREFIX = 'serverlessGpu.apiKey:';

export class SecretStoreError extends Error {
  constructor(action: string, cause: unknown) {
    super(`The editor's secret storage could not ${action} the API key: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'SecretStoreError';
  }
}

export class ApiKeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Fires with the profile name whose key changed, in this window or any other (secrets.onDidChange). */
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /** Every key this window has read or stored, so logs and messages can redact them by value. */
  private readonly seen = new Set<string>();

  /** `onNewKey` is told of each key the first time this window handles it (the log registers it for redaction). */
  constructor(private readonly secrets: vscode.SecretStorage, private readonly onNewKey: (key: string) => void = () => {}) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key.startsWith(KEY_PREFIX)) this.emitter.fire(e.key.slice(KEY_PREFIX.length));
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  async get(profileName: string): Promise<string | undefined> {
    let value: string | undefined;
    try {
      value = await this.secrets.get(KEY_PREFIX + profileName);
    } catch (e) {
      throw new SecretStoreError('read', e);
    }
    if (value) this.remember(value);
    return value || undefined;
  }

  private remember(key: string): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    try {
      this.onNewKey(key);
    } catch {
      // Redaction registration failing must not lose the key.
    }
  }

  async set(profileName: string, key: string): Promise<void> {
    this.remember(key);
    try {
      await this.secrets.store(KEY_PREFIX + profileName, key);
    } catch (e) {
      throw new SecretStoreError('store', e);
    }
  }

  async delete(profileName: string): Promise<void> {
    try {
      await this.secrets.delete(KEY_PREFIX + profileName);
    } catch (e) {
      throw new SecretStoreError('delete', e);
    }
  }

  /** Keys to redact: every key this window has handled (a cleared key may still be quoted somewhere). */
  knownKeys(): string[] {
    return [...this.seen];
  }
}
