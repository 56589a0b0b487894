// The status-bar item: the active profile and this window's billing total; when a rate-limit window runs
// low (below the serverlessGpu.rateLimitWarningPercent share of its quota), its remaining count. A click
// opens Switch Profile.
import * as vscode from 'vscode';
import type { Settings } from '../config/settings';
import type { RateLimitSnapshot } from '../core/service';
import { RATE_LIMIT_WINDOWS } from '../core/schemas';
import { Commands } from './commandIds';
import type { Connection } from './connection';

/** The lowest window under the threshold, as "12 left this minute", or undefined. Pure, for tests. */
export function lowRateLimit(snapshot: RateLimitSnapshot, share: number, now = Date.now()): string | undefined {
  let worst: { text: string; ratio: number } | undefined;
  for (const w of RATE_LIMIT_WINDOWS) {
    const s = snapshot[w];
    if (!s || s.resetAt <= now) continue; // a window that has reset is full again
    const quota = s.quota;
    const ratio = quota ? s.remaining / quota : s.remaining === 0 ? 0 : Number.POSITIVE_INFINITY;
    if (ratio < share && (!worst || ratio < worst.ratio)) worst = { text: `${s.remaining} left this ${w}`, ratio };
  }
  return worst?.text;
}

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('serverlessGpu.profile', vscode.StatusBarAlignment.Left, 10);
  private total: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly connection: Connection, private readonly settings: Settings) {
    this.item.name = 'Serverless GPU profile';
    this.item.command = Commands.switchProfile;
    this.disposables.push(
      this.item,
      connection.onDidChange(() => this.update()),
      connection.onRateLimits(() => this.update()),
      settings.onDidChange(() => this.update()),
    );
    this.update();
    this.item.show();
  }

  /** The endpoints tree reports the window's total after each refresh (undefined: none to show). */
  setTotal(total: string | undefined): void {
    this.total = total;
    this.update();
  }

  get text(): string {
    return this.item.text;
  }

  private update(): void {
    const profile = this.connection.profile.name;
    const low = lowRateLimit(this.connection.rateLimits, this.settings.rateLimitWarningShare());
    this.item.text = `$(cloud) ${profile}${this.total ? ` · ${this.total}` : ''}${low ? ` $(warning) ${low}` : ''}`;
    this.item.tooltip = `Serverless GPU: profile "${profile}"${this.total ? `, ${this.total} in the billing window` : ''}${low ? `. Rate limit: ${low}` : ''}. Click to switch profile.`;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
