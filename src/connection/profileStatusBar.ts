// The status-bar item: the active profile and this window's billing total (from an earlier refresh, with its
// age, until the Endpoints view refreshes it); when a rate-limit window runs low (below the serverlessGpu.rateLimitWarningPercent share of its quota), its remaining count. A click
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

/** How old a kept total is: "just now", "12 min ago", "3 h ago", "2 days ago". */
export function ageText(asOf: number, now = Date.now()): string {
  const min = Math.floor(Math.max(0, now - asOf) / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

export class ProfileStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('serverlessGpu.profile', vscode.StatusBarAlignment.Left, 10);
  private total: string | undefined;
  /** When the total shown comes from an earlier refresh (a cached value): its time. */
  private totalAsOf: number | undefined;
  /** Re-draws the age of a cached total each minute. */
  private ageTimer: NodeJS.Timeout | undefined;
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

  /**
   * The endpoints tree reports the window's total after each refresh (undefined: none to show); `asOf` when it
   * is a total kept from an earlier refresh, shown with its age.
   */
  setTotal(total: string | undefined, asOf?: number): void {
    this.total = total;
    this.totalAsOf = total === undefined ? undefined : asOf;
    clearInterval(this.ageTimer);
    this.ageTimer = this.totalAsOf === undefined ? undefined : setInterval(() => this.update(), 60_000);
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
    const age = this.totalAsOf !== undefined ? ageText(this.totalAsOf) : undefined;
    const total = this.total ? ` · ${this.total}${age ? ` (${age})` : ''}` : '';
    const totalTip = this.total ? `, ${this.total} in the billing window${age ? ` as of ${age} (kept from an earlier refresh; the Endpoints view refreshes it)` : ''}` : '';
    this.item.text = `$(cloud) ${profile}${total}${low ? ` $(warning) ${low}` : ''}${waiting ? ` $(watch) ${waiting}` : ''}`;
    this.item.tooltip = `Serverless GPU: profile "${profile}"${totalTip}${low ? `. Rate limit: ${low}` : ''}${waiting ? `. ${waiting}` : ''}. Click to switch profile.`;
  }

  dispose(): void {
    clearInterval(this.ageTimer);
    for (const d of this.disposables) d.dispose();
  }
}
