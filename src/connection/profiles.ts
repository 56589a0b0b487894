// Which connection profiles exist and which one is active.
//
// Where profiles live (a decision, documented in the README):
// - "Default": built in, the public service's documented hosts.
// - User-defined: the `serverlessGpu.profiles` setting, an array of {name, billingBaseUrl, jobsBaseUrl},
//   APPLICATION scoped and read from the user value only (see src/config/settings.ts), so no workspace can
//   add or redirect one.
// - "Local emulator": built in, exists while this window knows the emulator's origin (it is started on demand).
// - The active profile's NAME is kept in globalState (per user, never in a workspace), so switching profiles
//   never writes a settings file. An active name that no longer exists falls back to "Default".
import type * as vscode from 'vscode';
import { EMULATOR_PROFILE_NAME } from '../config/profileSettings';
import { DEFAULT_PROFILE, type Profile, type Settings } from '../config/settings';

export { EMULATOR_PROFILE_NAME };
/** The emulator's documented full-access demo key (issue #3); stored for the emulator profile only. */
export const EMULATOR_DEMO_KEY = 'demo-key-full';
const ACTIVE_PROFILE_KEY = 'serverlessGpu.activeProfile';

export function emulatorProfile(origin: string | undefined): Profile {
  // Before the emulator has started the URLs are placeholders; the Connection starts it before any request.
  const url = origin ?? 'http://127.0.0.1';
  return { name: EMULATOR_PROFILE_NAME, billingBaseUrl: url, jobsBaseUrl: url, builtIn: true };
}

export class ProfileRegistry {
  /** Profiles that exist while a feature says so (the "Local worker" of Serve Worker Locally, issue 14). */
  private readonly sources = new Set<() => Profile | undefined>();

  constructor(
    private readonly settings: Settings,
    private readonly state: vscode.Memento,
    private readonly emulatorOrigin: () => string | undefined,
  ) {}

  list(): Profile[] {
    const extra = [...this.sources].map((s) => s()).filter((p): p is Profile => p !== undefined);
    return [DEFAULT_PROFILE, ...this.settings.userProfiles().profiles, emulatorProfile(this.emulatorOrigin()), ...extra];
  }

  /** Adds a built-in profile that exists while `source` returns it; returns a function that removes it. */
  addSource(source: () => Profile | undefined): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  /** Settings entries that were skipped, with why (shown once to the user). */
  problems(): string[] {
    return this.settings.userProfiles().problems;
  }

  activeName(): string {
    return this.state.get<string>(ACTIVE_PROFILE_KEY) ?? DEFAULT_PROFILE.name;
  }

  active(): Profile {
    const name = this.activeName();
    return this.list().find((p) => p.name === name) ?? DEFAULT_PROFILE;
  }

  async setActive(name: string): Promise<void> {
    await this.state.update(ACTIVE_PROFILE_KEY, name);
  }
}
