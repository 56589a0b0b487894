// The status-bar item: the active profile and this window's billing total; when a rate-limit window runs
// low (below the serverlessGpu.rateLimitWarningPercent share of its quota), its remaining count. A click
// opens Switch Profile.
import * as vscode from 'vscode';
import type { Settings } from '../config/settings';
import type { RateLimitSnapshot } from '../core/service';
import { RATE_LIMIT_WINDOWS } from '../core/schemas';
import { Commands } from './commandIds';
import type { Connection } from './connection';
import { WaitCountdown } from './waitCountdown';
import { retryWaitText } from '../errors/retryWaitText';
import type { RouteInfo } from '../core/http/request';

/** One wait per route and job: a newer wait of the same poll replaces the older one. */
export function routeKey(route: RouteInfo): string {
  return [route.kind, route.endpointId ?? '', route.jobId ?? ''].join('\u0000');
}

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
  /** Waits before retries of the active client, whichever route (issue 12): the status bar counts down the last. */
  private readonly waits = new WaitCountdown<string>();

  constructor(private readonly connection: Connection, private readonly settings: Settings) {
    this.item.name = 'Serverless GPU profile';
    this.item.command = Commands.switchProfile;
    this.disposables.push(
      this.item,
      connection.onDidChange(() => this.update()),
      connection.onRateLimits(() => this.update()),
      this.waits,
      connection.onRetryWait((wait) => this.waits.set(routeKey(wait.route), wait)),
      this.waits.onDidTick(() => this.update()),
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
    const wait = this.waits.latest();
    const waiting = wait ? retryWaitText(wait) : undefined;
    this.item.text = `$(cloud) ${profile}${this.total ? ` · ${this.total}` : ''}${low ? ` $(warning) ${low}` : ''}${waiting ? ` $(watch) ${waiting}` : ''}`;
    this.item.tooltip = `Serverless GPU: profile "${profile}"${this.total ? `, ${this.total} in the billing window` : ''}${low ? `. Rate limit: ${low}` : ''}${waiting ? `. ${waiting}` : ''}. Click to switch profile.`;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
